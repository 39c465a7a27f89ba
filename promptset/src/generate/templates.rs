//! The template environment: the built-in phrasing embedded at compile time, optionally
//! overridden file by file from a `--templates DIR`.
//!
//! A language is a folder. English keeps one bank per business model, because a
//! software buyer, a client hiring an accountant and a guest booking a holiday rental
//! ask different questions: `prompts/en/<model>/<layer>/<topic-type|default>/<STAGE>.j2`,
//! with `prompts/en/shared/…` for wording that truly fits every model. A language with
//! one bank for all models uses `prompts/<lang>/<layer>/<topic-type|default>/<STAGE>.j2`.
//! Each template renders to one variant per line, tagged with its intent:
//! `[pricing] How much {{ p_do }} {{ p }} cost{{ where }}?`. Type-specific files come
//! first; `default/` fills in for types without their own file and widens the pool.
//!
//! What every template of a folder derives from the brief's words (a services bank's
//! provider noun, a marketplace bank's goods-or-bookings switch) is written once, in the
//! folder's `_facts.j2`, and read by each template below it as if written in front of it.
//! The generator works each folder's facts out once for all the slots that give them the
//! same values (see [`Facts`]), not once per template rendered.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use minijinja::syntax::SyntaxConfig;
use minijinja::value::Object;
use minijinja::value::StringInput;
use minijinja::{Environment, UndefinedBehavior, Value};
use rustc_hash::FxHashMap;

use crate::generate::GenerateError;
use crate::generate::funnel::Intent;
use crate::generate::text::with_article;
use crate::model::{FunnelStage, Layer, TopicType};

macro_rules! embedded {
    ($($name:literal),+ $(,)?) => {
        &[$(($name, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../templates/", $name)))),+]
    };
}

/// Every built-in template, by its name relative to `templates/`.
pub const EMBEDDED: &[(&str, &str)] = embedded![
    "generator-prompt.j2",
    "prompts/de/_facts.j2",
    "prompts/de/brand-defense/default/BOFU.j2",
    "prompts/de/brand-defense/default/MOFU.j2",
    "prompts/de/brand-defense/default/TOFU.j2",
    "prompts/de/competitor-comparison/default/BOFU.j2",
    "prompts/de/competitor-comparison/default/MOFU.j2",
    "prompts/de/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/de/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/de/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/de/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/de/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/de/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/de/non-brand-discovery/default/BOFU.j2",
    "prompts/de/non-brand-discovery/default/MOFU.j2",
    "prompts/de/non-brand-discovery/default/TOFU.j2",
    "prompts/de/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/de/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/de/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/_facts.j2",
    "prompts/en/content-media/_facts.j2",
    "prompts/en/content-media/brand-defense/_facts.j2",
    "prompts/en/content-media/brand-defense/audience-segment/MOFU.j2",
    "prompts/en/content-media/brand-defense/product-category/BOFU.j2",
    "prompts/en/content-media/brand-defense/product-category/MOFU.j2",
    "prompts/en/content-media/brand-defense/trust-evaluation/MOFU.j2",
    "prompts/en/content-media/brand-defense/use-case/MOFU.j2",
    "prompts/en/content-media/competitor-comparison/_facts.j2",
    "prompts/en/content-media/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/content-media/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/content-media/competitor-comparison/default/BOFU.j2",
    "prompts/en/content-media/competitor-comparison/default/MOFU.j2",
    "prompts/en/content-media/competitor-comparison/product-category/BOFU.j2",
    "prompts/en/content-media/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/content-media/competitor-comparison/trust-evaluation/BOFU.j2",
    "prompts/en/content-media/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/content-media/competitor-comparison/use-case/BOFU.j2",
    "prompts/en/content-media/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/content-media/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/en/content-media/non-brand-discovery/default/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/default/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/default/TOFU.j2",
    "prompts/en/content-media/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/content-media/non-brand-discovery/seasonal-trend/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/seasonal-trend/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/seasonal-trend/TOFU.j2",
    "prompts/en/content-media/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/content-media/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/content-media/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/content-media/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/ecommerce/_facts.j2",
    "prompts/en/ecommerce/brand-defense/audience-segment/BOFU.j2",
    "prompts/en/ecommerce/brand-defense/audience-segment/MOFU.j2",
    "prompts/en/ecommerce/brand-defense/channel-marketplace/BOFU.j2",
    "prompts/en/ecommerce/brand-defense/channel-marketplace/MOFU.j2",
    "prompts/en/ecommerce/brand-defense/competitor-alternative/BOFU.j2",
    "prompts/en/ecommerce/brand-defense/competitor-alternative/MOFU.j2",
    "prompts/en/ecommerce/brand-defense/product-category/BOFU.j2",
    "prompts/en/ecommerce/brand-defense/product-category/MOFU.j2",
    "prompts/en/ecommerce/brand-defense/seasonal-trend/BOFU.j2",
    "prompts/en/ecommerce/brand-defense/seasonal-trend/MOFU.j2",
    "prompts/en/ecommerce/brand-defense/trust-evaluation/BOFU.j2",
    "prompts/en/ecommerce/brand-defense/trust-evaluation/MOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/channel-marketplace/BOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/channel-marketplace/MOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/product-category/BOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/seasonal-trend/BOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/seasonal-trend/MOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/trust-evaluation/BOFU.j2",
    "prompts/en/ecommerce/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/default/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/default/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/default/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/seasonal-trend/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/seasonal-trend/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/seasonal-trend/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/ecommerce/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/manufacturer/_facts.j2",
    "prompts/en/manufacturer/brand-defense/audience-segment/BOFU.j2",
    "prompts/en/manufacturer/brand-defense/audience-segment/MOFU.j2",
    "prompts/en/manufacturer/brand-defense/channel-marketplace/BOFU.j2",
    "prompts/en/manufacturer/brand-defense/channel-marketplace/MOFU.j2",
    "prompts/en/manufacturer/brand-defense/competitor-alternative/BOFU.j2",
    "prompts/en/manufacturer/brand-defense/product-category/BOFU.j2",
    "prompts/en/manufacturer/brand-defense/product-category/MOFU.j2",
    "prompts/en/manufacturer/brand-defense/trust-evaluation/MOFU.j2",
    "prompts/en/manufacturer/brand-defense/use-case/BOFU.j2",
    "prompts/en/manufacturer/brand-defense/use-case/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/channel-marketplace/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/channel-marketplace/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/default/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/default/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/product-category/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/trust-evaluation/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/use-case/BOFU.j2",
    "prompts/en/manufacturer/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/default/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/default/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/default/TOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/manufacturer/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/marketplace/_facts.j2",
    "prompts/en/marketplace/brand-defense/channel-marketplace/BOFU.j2",
    "prompts/en/marketplace/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/marketplace/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/marketplace/competitor-comparison/channel-marketplace/BOFU.j2",
    "prompts/en/marketplace/competitor-comparison/channel-marketplace/MOFU.j2",
    "prompts/en/marketplace/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/marketplace/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/marketplace/competitor-comparison/product-category/BOFU.j2",
    "prompts/en/marketplace/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/marketplace/competitor-comparison/use-case/BOFU.j2",
    "prompts/en/marketplace/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/default/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/default/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/default/TOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/seasonal-trend/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/seasonal-trend/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/seasonal-trend/TOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/marketplace/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/non-brand-discovery/default/TOFU.j2",
    "prompts/en/other/_facts.j2",
    "prompts/en/other/brand-defense/audience-segment/BOFU.j2",
    "prompts/en/other/brand-defense/audience-segment/MOFU.j2",
    "prompts/en/other/brand-defense/product-category/BOFU.j2",
    "prompts/en/other/brand-defense/product-category/MOFU.j2",
    "prompts/en/other/brand-defense/trust-evaluation/MOFU.j2",
    "prompts/en/other/brand-defense/use-case/MOFU.j2",
    "prompts/en/other/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/other/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/other/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/other/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/other/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/other/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/other/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/other/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/other/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/other/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/other/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/other/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/other/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/other/non-brand-discovery/default/BOFU.j2",
    "prompts/en/other/non-brand-discovery/default/MOFU.j2",
    "prompts/en/other/non-brand-discovery/default/TOFU.j2",
    "prompts/en/other/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/other/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/other/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/other/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/other/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/other/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/other/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/other/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/other/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/saas/_facts.j2",
    "prompts/en/saas/brand-defense/product-category/BOFU.j2",
    "prompts/en/saas/brand-defense/product-category/MOFU.j2",
    "prompts/en/saas/brand-defense/trust-evaluation/MOFU.j2",
    "prompts/en/saas/brand-defense/use-case/MOFU.j2",
    "prompts/en/saas/competitor-comparison/_facts.j2",
    "prompts/en/saas/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/saas/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/saas/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/saas/competitor-comparison/trust-evaluation/BOFU.j2",
    "prompts/en/saas/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/saas/competitor-comparison/use-case/BOFU.j2",
    "prompts/en/saas/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/_facts.j2",
    "prompts/en/saas/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/saas/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/saas/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/saas/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/saas/non-brand-discovery/competitor-alternative/_facts.j2",
    "prompts/en/saas/non-brand-discovery/default/BOFU.j2",
    "prompts/en/saas/non-brand-discovery/default/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/default/TOFU.j2",
    "prompts/en/saas/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/saas/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/saas/non-brand-discovery/product-category/_facts.j2",
    "prompts/en/saas/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/saas/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/saas/non-brand-discovery/trust-evaluation/_facts.j2",
    "prompts/en/saas/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/saas/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/saas/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/saas/non-brand-discovery/use-case/_facts.j2",
    "prompts/en/services/_facts.j2",
    "prompts/en/services/brand-defense/competitor-alternative/MOFU.j2",
    "prompts/en/services/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/services/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/services/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/services/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/services/competitor-comparison/default/BOFU.j2",
    "prompts/en/services/competitor-comparison/default/MOFU.j2",
    "prompts/en/services/competitor-comparison/product-category/BOFU.j2",
    "prompts/en/services/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/services/competitor-comparison/trust-evaluation/BOFU.j2",
    "prompts/en/services/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/services/competitor-comparison/use-case/BOFU.j2",
    "prompts/en/services/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/services/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/services/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/services/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/services/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/services/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/services/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/services/non-brand-discovery/default/BOFU.j2",
    "prompts/en/services/non-brand-discovery/default/MOFU.j2",
    "prompts/en/services/non-brand-discovery/default/TOFU.j2",
    "prompts/en/services/non-brand-discovery/other/BOFU.j2",
    "prompts/en/services/non-brand-discovery/other/MOFU.j2",
    "prompts/en/services/non-brand-discovery/other/TOFU.j2",
    "prompts/en/services/non-brand-discovery/product-category/BOFU.j2",
    "prompts/en/services/non-brand-discovery/product-category/MOFU.j2",
    "prompts/en/services/non-brand-discovery/product-category/TOFU.j2",
    "prompts/en/services/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/services/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/services/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/services/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/services/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/services/non-brand-discovery/use-case/TOFU.j2",
    "prompts/en/shared/_facts.j2",
    "prompts/en/shared/brand-defense/audience-segment/BOFU.j2",
    "prompts/en/shared/brand-defense/audience-segment/MOFU.j2",
    "prompts/en/shared/brand-defense/channel-marketplace/BOFU.j2",
    "prompts/en/shared/brand-defense/channel-marketplace/MOFU.j2",
    "prompts/en/shared/brand-defense/competitor-alternative/BOFU.j2",
    "prompts/en/shared/brand-defense/competitor-alternative/MOFU.j2",
    "prompts/en/shared/brand-defense/default/BOFU.j2",
    "prompts/en/shared/brand-defense/default/MOFU.j2",
    "prompts/en/shared/brand-defense/default/TOFU.j2",
    "prompts/en/shared/brand-defense/product-category/BOFU.j2",
    "prompts/en/shared/brand-defense/product-category/MOFU.j2",
    "prompts/en/shared/brand-defense/seasonal-trend/MOFU.j2",
    "prompts/en/shared/brand-defense/trust-evaluation/MOFU.j2",
    "prompts/en/shared/brand-defense/use-case/MOFU.j2",
    "prompts/en/shared/competitor-comparison/audience-segment/BOFU.j2",
    "prompts/en/shared/competitor-comparison/audience-segment/MOFU.j2",
    "prompts/en/shared/competitor-comparison/channel-marketplace/BOFU.j2",
    "prompts/en/shared/competitor-comparison/channel-marketplace/MOFU.j2",
    "prompts/en/shared/competitor-comparison/competitor-alternative/BOFU.j2",
    "prompts/en/shared/competitor-comparison/competitor-alternative/MOFU.j2",
    "prompts/en/shared/competitor-comparison/default/BOFU.j2",
    "prompts/en/shared/competitor-comparison/default/MOFU.j2",
    "prompts/en/shared/competitor-comparison/product-category/BOFU.j2",
    "prompts/en/shared/competitor-comparison/product-category/MOFU.j2",
    "prompts/en/shared/competitor-comparison/seasonal-trend/BOFU.j2",
    "prompts/en/shared/competitor-comparison/seasonal-trend/MOFU.j2",
    "prompts/en/shared/competitor-comparison/trust-evaluation/BOFU.j2",
    "prompts/en/shared/competitor-comparison/trust-evaluation/MOFU.j2",
    "prompts/en/shared/competitor-comparison/use-case/BOFU.j2",
    "prompts/en/shared/competitor-comparison/use-case/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/audience-segment/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/audience-segment/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/audience-segment/TOFU.j2",
    "prompts/en/shared/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/en/shared/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/en/shared/non-brand-discovery/other/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/other/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/other/TOFU.j2",
    "prompts/en/shared/non-brand-discovery/seasonal-trend/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/seasonal-trend/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/seasonal-trend/TOFU.j2",
    "prompts/en/shared/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/en/shared/non-brand-discovery/use-case/BOFU.j2",
    "prompts/en/shared/non-brand-discovery/use-case/MOFU.j2",
    "prompts/en/shared/non-brand-discovery/use-case/TOFU.j2",
    "prompts/es/_facts.j2",
    "prompts/es/brand-defense/default/BOFU.j2",
    "prompts/es/brand-defense/default/MOFU.j2",
    "prompts/es/brand-defense/default/TOFU.j2",
    "prompts/es/competitor-comparison/default/BOFU.j2",
    "prompts/es/competitor-comparison/default/MOFU.j2",
    "prompts/es/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/es/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/es/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/es/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/es/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/es/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/es/non-brand-discovery/default/BOFU.j2",
    "prompts/es/non-brand-discovery/default/MOFU.j2",
    "prompts/es/non-brand-discovery/default/TOFU.j2",
    "prompts/es/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/es/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/es/non-brand-discovery/trust-evaluation/TOFU.j2",
    "prompts/zh/brand-defense/default/BOFU.j2",
    "prompts/zh/brand-defense/default/MOFU.j2",
    "prompts/zh/brand-defense/default/TOFU.j2",
    "prompts/zh/competitor-comparison/default/BOFU.j2",
    "prompts/zh/competitor-comparison/default/MOFU.j2",
    "prompts/zh/non-brand-discovery/channel-marketplace/BOFU.j2",
    "prompts/zh/non-brand-discovery/channel-marketplace/MOFU.j2",
    "prompts/zh/non-brand-discovery/channel-marketplace/TOFU.j2",
    "prompts/zh/non-brand-discovery/competitor-alternative/BOFU.j2",
    "prompts/zh/non-brand-discovery/competitor-alternative/MOFU.j2",
    "prompts/zh/non-brand-discovery/competitor-alternative/TOFU.j2",
    "prompts/zh/non-brand-discovery/default/BOFU.j2",
    "prompts/zh/non-brand-discovery/default/MOFU.j2",
    "prompts/zh/non-brand-discovery/default/TOFU.j2",
    "prompts/zh/non-brand-discovery/trust-evaluation/BOFU.j2",
    "prompts/zh/non-brand-discovery/trust-evaluation/MOFU.j2",
    "prompts/zh/non-brand-discovery/trust-evaluation/TOFU.j2",
];

/// One tagged variant rendered from a template.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Why a person asks it.
    pub intent: Intent,
    /// The question family: variants of one family ask the same question in other
    /// words or of another product line or rival, so a set keeps one per topic and
    /// prefers one in all. Named in the tag (`[quality-validation#check-reviews]`) where
    /// several lines ask one question; otherwise the template line it comes from.
    pub family: String,
    /// The question.
    pub text: String,
    /// The template marked the line as about the slot's topic (`[tag]+ text`), for
    /// topics whose subject the text does not name (a security topic's comparisons on
    /// security).
    pub on_topic: bool,
    /// The template marked the line as kept for another kind of topic (`[tag]~ text`):
    /// taken elsewhere only when nothing else is left, so the topic it suits still finds
    /// it unused.
    pub elsewhere: bool,
}

/// Gives every variant line of a template source a family: a tag without one
/// (`[pricing] …`) becomes `[pricing#<name>:<line>]`, so the variants one source line
/// renders (for every product line, rival, audience or topic) are one family. Other lines
/// (Jinja blocks, comments) are left as they are.
fn with_line_families(name: &str, source: &str) -> String {
    let mut out = String::with_capacity(source.len() + source.len() / 4);
    for (index, line) in source.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let rest = &line[indent..];
        match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
            Some((tag, text)) if !tag.contains('#') && !tag.contains('{') => {
                out.push_str(&line[..indent]);
                // A line about the topic is one family over all topics too: the strict
                // readings of issue 8 rejected `mistakes with meal prep` beside `mistakes
                // with weeknight dinners` as one question asked twice.
                out.push_str(&format!("[{tag}#{name}:{}]{text}", index + 1));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The name of a folder's facts: Jinja `set`s that every template under the folder
/// needs (what the brief's nouns read as, which offer facts hold), written once and
/// put in front of each of those templates when they are compiled. A template sees the
/// facts of every folder above it, outermost first.
const FACTS: &str = "_facts.j2";

/// The `_facts.j2` files that go in front of a template, outermost folder first.
fn facts_for(name: &str) -> Vec<String> {
    name.match_indices('/')
        .map(|(end, _)| format!("{}/{FACTS}", &name[..end]))
        .collect()
}

/// One file of a composed template and the line it starts on there.
struct Segment {
    name: String,
    first_line: usize,
}

/// The compiled templates and the languages they cover.
pub struct Templates {
    env: Environment<'static>,
    names: HashSet<String>,
    languages: BTreeSet<String>,
    /// How templates with facts in front were composed, to name the file of an error.
    segments: HashMap<String, Vec<Segment>>,
    /// The folder facts compiled on their own, by index (see [`Self::chains`]): their
    /// names, and their sources as composed (for [`Self::render`]).
    facts: Vec<(String, String)>,
    /// The templates compiled without their facts, each with the indices of its facts in
    /// [`Self::facts`], outermost first, and its own source as composed. A slot renders
    /// several templates under the same folders with one context: each folder's facts are
    /// worked out once for the slot (see [`Scopes`]) instead of once per template, which
    /// was most of the rendering.
    chains: HashMap<String, (Vec<usize>, String)>,
}

impl std::fmt::Debug for Templates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Templates")
            .field("languages", &self.languages)
            .field("templates", &self.names.len())
            .finish()
    }
}

/// A template error, named by the file and line it comes from: a line in a folder's
/// `_facts.j2` is reported there, not in the template it was put in front of.
fn template_error(
    error: &minijinja::Error,
    segments: &HashMap<String, Vec<Segment>>,
) -> GenerateError {
    let name = error.name().unwrap_or("<unknown>");
    let line = error.line().unwrap_or(0);
    let (name, line) = match segments.get(name).and_then(|parts| {
        parts
            .iter()
            .rev()
            .find(|part| line >= part.first_line && line > 0)
    }) {
        Some(part) => (part.name.as_str(), line - part.first_line + 1),
        None => (name, line),
    };
    GenerateError::Template {
        name: name.to_owned(),
        line,
        message: match error.detail() {
            Some(detail) => format!("{}: {detail}", error.kind()),
            None => error.kind().to_string(),
        },
    }
}

impl Templates {
    /// The built-in templates, with the files of `overrides` (a directory laid out like
    /// `templates/`) taking precedence. Every template is compiled now, so a syntax error
    /// fails here with the template's name and line.
    pub fn new(overrides: Option<&Path>) -> Result<Templates, GenerateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_syntax(
            SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()
                .expect("the default delimiters are valid"),
        );
        env.add_filter("article", |noun: String| with_article(&noun));
        // `{{ obj|plural }}`, not `{{ obj }}s`: `gear` has no plural, `accessory` is
        // `accessories` (a noun's bare form is its plural).
        env.add_filter("plural", |noun: String| {
            crate::generate::phrasing::Noun::parse(&noun, &[]).bare
        });
        // `{% if offer is mentions("tax") %}`: whether the text has a word, in any case,
        // that starts with the needle (`Tax returns`, not `Syntax checks`; `Dental
        // clinics`, not `Student housing`), as `offer::mentions` reads it. A cut stem
        // finds its words (`bookkeep`, `migrat`), a whole word its longer words too
        // (`tax` in `taxis`: add `and offer is not mentions("taxi")`), and a needle of
        // several words is a phrase (`law firm`); a trailing space ends the word (`home `
        // is in `home chargers`, not in `homeware`). Not `"tax" in offer|lower`, which also
        // finds the letters inside other words. A whole word between others (` to `,
        // ` and `) is still tested with its spaces, and a compound's ending (`care` in
        // `childcare`) with `in`.
        env.add_test("mentions", |text: StringInput, needle: &str| {
            crate::generate::offer::mentions(text.as_str(), needle)
        });
        // Every source by name, the overrides' files taking precedence.
        let mut sources: BTreeMap<String, String> = EMBEDDED
            .iter()
            .map(|(name, source)| ((*name).to_owned(), (*source).to_owned()))
            .collect();
        if let Some(dir) = overrides {
            let mut found = Vec::new();
            collect_dir(dir, dir, &mut found)?;
            sources.extend(found);
        }
        let mut names = HashSet::new();
        let mut segments = HashMap::new();
        let mut facts: Vec<(String, String)> = Vec::new();
        // Each facts file compiled on its own once, by name: `None` if it does not compile
        // alone (the templates below it are then compiled with their facts in front).
        let mut compiled: HashMap<String, Option<usize>> = HashMap::new();
        let mut chains = HashMap::new();
        for (name, source) in &sources {
            if name.ends_with(FACTS) {
                continue;
            }
            let files: Vec<(&String, &String)> = facts_for(name)
                .into_iter()
                .filter_map(|facts| sources.get_key_value(&facts))
                .chain([(name, source)])
                .collect();
            let mut parts = Vec::new();
            let mut texts = Vec::new();
            let mut first_line = 1;
            for (file, text) in &files {
                parts.push(Segment {
                    name: (*file).clone(),
                    first_line,
                });
                let text = with_line_families(file, text);
                first_line += text.lines().count();
                texts.push(text);
            }
            let (own, in_front) = texts.split_last().expect("the template itself");
            let mut chain = Vec::new();
            for (at, ((file, _), text)) in files.iter().zip(in_front).enumerate() {
                let index = *compiled.entry((*file).clone()).or_insert_with(|| {
                    // Facts that change a namespace of the facts in front of them would
                    // change it for every template and slot that shares those.
                    (!changes_a_namespace_of(text, &in_front[..at]))
                        .then(|| env.add_template_owned((*file).clone(), text.clone()).ok())
                        .flatten()
                        .map(|()| {
                            facts.push(((*file).clone(), text.clone()));
                            facts.len() - 1
                        })
                });
                chain.extend(index);
            }
            // A template is rendered after its facts only if they all compile alone, it
            // compiles alone, and it changes no namespace its facts made (which the slot's
            // other templates share); otherwise as composed.
            let split = !in_front.is_empty()
                && chain.len() == in_front.len()
                && !changes_a_namespace_of(own, in_front)
                && env.add_template_owned(name.clone(), own.clone()).is_ok();
            if parts.len() > 1 {
                segments.insert(name.clone(), parts);
            }
            if split {
                chains.insert(name.clone(), (chain, own.clone()));
            } else {
                env.add_template_owned(name.clone(), texts.concat())
                    .map_err(|e| template_error(&e, &segments))?;
            }
            names.insert(name.clone());
        }
        let languages = names
            .iter()
            .filter_map(|n| n.strip_prefix("prompts/")?.split('/').next())
            .map(str::to_owned)
            .collect();
        Ok(Templates {
            env,
            names,
            languages,
            segments,
            facts,
            chains,
        })
    }

    /// The languages that have a template folder.
    pub fn languages(&self) -> &BTreeSet<String> {
        &self.languages
    }

    /// Whether a template of that name exists.
    pub fn has(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Renders a template by name to text.
    pub fn render(&self, name: &str, context: &Value) -> Result<String, GenerateError> {
        let error = |e: minijinja::Error| template_error(&e, &self.segments);
        if let Some((chain, own)) = self.chains.get(name) {
            // Compiled apart from its facts: composed again, to render exactly as written.
            let composed: String = chain
                .iter()
                .map(|&index| self.facts[index].1.as_str())
                .chain([own.as_str()])
                .collect();
            return self
                .env
                .template_from_named_str(name, &composed)
                .and_then(|template| template.render(context))
                .map_err(error);
        }
        let template = self.env.get_template(name).map_err(error)?;
        template.render(context).map_err(error)
    }

    /// Renders a template for the variants its lines hold: as [`Self::render`] but for
    /// blank space around the lines, its facts read from `scopes`.
    fn render_lines(&self, name: &str, scopes: &Scopes<'_>) -> Result<String, GenerateError> {
        let Some((chain, _)) = self.chains.get(name) else {
            return self.render(name, &scopes.base);
        };
        // The template alone: its lines are its file's.
        let error = |e: minijinja::Error| template_error(&e, &HashMap::new());
        match scopes.after(self, chain)? {
            Some(context) => self
                .env
                .get_template(name)
                .and_then(|template| template.render(context))
                .map_err(error),
            // Facts that print more than blank space print it in front of the template.
            None => self.render(name, &scopes.base),
        }
    }

    /// The names of the templates for a slot, most specific first: the business
    /// model's bank for the topic type, the shared bank for the topic type, the model's
    /// default bank, the shared default bank, and then the language's model-free layout
    /// (`prompts/<lang>/<layer>/<type|default>/`) that languages with one bank use.
    pub fn slot_names(
        &self,
        lang: &str,
        model: &str,
        layer: Layer,
        topic_type: TopicType,
        stage: FunnelStage,
    ) -> Vec<String> {
        let kind = topic_type.as_str();
        [
            format!("prompts/{lang}/{model}/{layer}/{kind}/{stage}.j2"),
            format!("prompts/{lang}/shared/{layer}/{kind}/{stage}.j2"),
            format!("prompts/{lang}/{model}/{layer}/default/{stage}.j2"),
            format!("prompts/{lang}/shared/{layer}/default/{stage}.j2"),
            format!("prompts/{lang}/{layer}/{kind}/{stage}.j2"),
            format!("prompts/{lang}/{layer}/default/{stage}.j2"),
        ]
        .into_iter()
        .filter(|name| self.has(name))
        .collect()
    }

    /// Renders the variants of one template: one per non-empty line, each tagged with an
    /// intent whose funnel stage must be `stage`.
    pub fn variants(
        &self,
        name: &str,
        stage: FunnelStage,
        context: &Value,
        out: &mut Vec<Variant>,
    ) -> Result<(), GenerateError> {
        let facts = Facts::new(self);
        let scopes = Scopes::new(self, &facts, context.clone());
        let rendered = self.render_variants(name, stage, &scopes)?;
        out.extend((0..rendered.len()).map(|index| rendered.finish(index)));
        Ok(())
    }

    /// [`Self::variants`], checked but with their text not yet finished (see
    /// [`Rendered`]).
    pub fn render_variants(
        &self,
        name: &str,
        stage: FunnelStage,
        scopes: &Scopes<'_>,
    ) -> Result<Rendered, GenerateError> {
        let rendered = self.render_lines(name, scopes)?;
        // Every variant starts with its `[intent]` tag and no question holds a `[`: a
        // one-line `{% if %}…{% endif %}` whose block tag ate the line end would
        // otherwise run two variants together into one prompt.
        let rendered = rendered.replace('[', "\n[");
        let mut lines = Vec::new();
        for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let bad = |message: String| GenerateError::Template {
                name: name.to_owned(),
                line: 0,
                message,
            };
            let Some(rest) = line.strip_prefix('[') else {
                return Err(bad(format!(
                    "variant `{line}` has no intent tag; start each variant with `[intent]`, e.g. `[pricing]`"
                )));
            };
            let Some((tag, text)) = rest.split_once(']') else {
                return Err(bad(format!("variant `{line}` has an unclosed intent tag")));
            };
            let (tag, family) = match tag.split_once('#') {
                Some((tag, family)) => (tag, family.trim()),
                None => (tag, line),
            };
            let Some(intent) = Intent::from_tag(tag.trim()) else {
                let known: Vec<&str> = Intent::ALL.iter().map(|i| i.tag()).collect();
                return Err(bad(format!(
                    "unknown intent `{}` in variant `{line}`; expected one of {}",
                    tag.trim(),
                    known.join(", ")
                )));
            };
            if intent.stage() != stage {
                return Err(bad(format!(
                    "intent `{}` belongs to {} but the template is for {stage}; move the variant to the {} template",
                    intent.tag(),
                    intent.stage(),
                    intent.stage()
                )));
            }
            let text = text.trim_start();
            let (on_topic, elsewhere, text) = match text.chars().next() {
                Some('+') => (true, false, &text[1..]),
                Some('~') => (false, true, &text[1..]),
                _ => (false, false, text),
            };
            // A text of blanks finishes empty and is no variant.
            if text.split_whitespace().next().is_some() {
                lines.push(Line {
                    intent,
                    family: span(&rendered, family),
                    text: span(&rendered, text),
                    on_topic,
                    elsewhere,
                });
            }
        }
        Ok(Rendered {
            text: rendered,
            lines,
            english: !crate::generate::locale::is_localized(
                name.split('/').nth(1).unwrap_or_default(),
            ),
        })
    }
}

/// Whether `source` assigns to an attribute (`{% set ns.word = … %}`) of a name that any
/// of `outer` (the sources in front of it) mentions.
fn changes_a_namespace_of(source: &str, outer: &[String]) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    source.match_indices("{%").any(|(at, _)| {
        let rest = source[at + 2..].trim_start_matches(['-', '+']).trim_start();
        let Some(target) = rest
            .strip_prefix("set")
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .and_then(|rest| rest.split(['=', '%']).next())
        else {
            return false;
        };
        let Some((name, _)) = target.trim().split_once('.') else {
            return false;
        };
        let name = name.trim();
        outer.iter().any(|text| {
            text.match_indices(name).any(|(at, _)| {
                !text[..at].ends_with(word) && !text[at + name.len()..].starts_with(word)
            })
        })
    })
}

/// Variables by name, as folder facts set them.
type Vars = FxHashMap<Arc<str>, Value>;

/// Variables a facts render read from a slot's context, in order, with their values.
type Reads = Vec<(Arc<str>, Option<Value>)>;

/// A render context with folder facts over it: what the facts set, then what the slot's
/// context holds. Not enumerable, so a facts render's known variables are its own.
#[derive(Debug)]
struct Scope {
    vars: Arc<Vars>,
    base: Value,
    /// While facts are worked out: each variable they read from `base`, with its value
    /// (`None`: not there).
    reads: Option<Mutex<Reads>>,
}

impl Scope {
    fn base_value(base: &Value, key: &str) -> Option<Value> {
        base.get_attr(key)
            .ok()
            .filter(|value| !value.is_undefined())
    }
}

impl Object for Scope {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        if let Some(value) = self.vars.get(key) {
            return Some(value.clone());
        }
        let value = Scope::base_value(&self.base, key);
        if let Some(reads) = &self.reads {
            reads
                .lock()
                .expect("one render at a time")
                .push((Arc::from(key), value.clone()));
        }
        value
    }
}

/// A value a facts render read from a slot's context, compared strictly: another
/// context with the same values read renders the facts the same.
#[derive(Clone)]
struct Read(Option<Value>);

impl Read {
    /// Only blanks, booleans and strings are compared (a number's equality ignores how
    /// it prints, a list's is deep).
    fn comparable(&self) -> bool {
        use minijinja::value::ValueKind;
        self.0.as_ref().is_none_or(|value| {
            matches!(
                value.kind(),
                ValueKind::None | ValueKind::Bool | ValueKind::String
            )
        })
    }
}

impl PartialEq for Read {
    fn eq(&self, other: &Read) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.kind() == b.kind()
                    && a.is_safe() == b.is_safe()
                    && a.as_str() == b.as_str()
                    && a == b
            }
            _ => false,
        }
    }
}

impl Eq for Read {}

impl std::hash::Hash for Read {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// What one folder's facts came to over the facts in front of them and a slot's context.
struct Outcome {
    /// Told apart from the other outcomes of the generation, as the facts behind read it.
    id: usize,
    /// Every variable the facts so far set; `None` when they print more than blank
    /// space, which would go in front of the template.
    vars: Option<Arc<Vars>>,
}

/// The outcomes of one facts file that read the same variables of the slot's context
/// over the same outcome in front of them, by the values read.
struct Shape {
    outer: usize,
    names: Vec<Arc<str>>,
    outcomes: FxHashMap<Vec<Read>, Rc<Outcome>>,
}

/// The folder facts worked out during one generation (see [`Templates::chains`]): a
/// facts file reads a few of a slot's values (the product, the offer, the model), so
/// most slots find them worked out by an earlier slot that read the same values.
pub struct Facts {
    shapes: RefCell<Vec<Vec<Shape>>>,
    next_id: std::cell::Cell<usize>,
}

impl Facts {
    pub fn new(templates: &Templates) -> Facts {
        Facts {
            shapes: RefCell::new((0..templates.facts.len()).map(|_| Vec::new()).collect()),
            next_id: std::cell::Cell::new(1),
        }
    }

    /// The outcome of the facts `index` over `outer` (the outcome of the facts in front
    /// of them, or none) and the slot's context `base`.
    fn outcome(
        &self,
        templates: &Templates,
        index: usize,
        outer: Option<&Outcome>,
        base: &Value,
    ) -> Result<Rc<Outcome>, GenerateError> {
        let outer_id = outer.map_or(0, |outer| outer.id);
        for shape in &self.shapes.borrow()[index] {
            if shape.outer != outer_id {
                continue;
            }
            let key: Vec<Read> = shape
                .names
                .iter()
                .map(|name| Read(Scope::base_value(base, name)))
                .collect();
            if let Some(found) = shape.outcomes.get(&key) {
                return Ok(Rc::clone(found));
            }
        }
        let error = |e: minijinja::Error| template_error(&e, &templates.segments);
        let (name, _) = &templates.facts[index];
        let outer_vars = match outer.and_then(|outer| outer.vars.as_ref()) {
            Some(vars) => Arc::clone(vars),
            None => Arc::new(FxHashMap::default()),
        };
        let context = Value::from_object(Scope {
            vars: Arc::clone(&outer_vars),
            base: base.clone(),
            reads: Some(Mutex::new(Vec::new())),
        });
        let template = templates.env.get_template(name).map_err(error)?;
        let captured = template.render_captured(context.clone()).map_err(error)?;
        let vars = if captured.output().trim().is_empty() {
            let state = captured.state();
            let mut vars = FxHashMap::clone(&outer_vars);
            for key in state.known_variables() {
                if let Some(value) = state.lookup(&key) {
                    vars.insert(Arc::from(key.as_ref()), value);
                }
            }
            Some(Arc::new(vars))
        } else {
            None
        };
        drop(captured);
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let outcome = Rc::new(Outcome { id, vars });
        let scope = context
            .downcast_object_ref::<Scope>()
            .expect("the facts context is a scope");
        let mut names: Vec<Arc<str>> = Vec::new();
        let mut key = Vec::new();
        let reads =
            std::mem::take(&mut *scope.reads.as_ref().expect("reads").lock().expect("read"));
        for (name, value) in reads {
            if !names.contains(&name) {
                names.push(name);
                key.push(Read(value));
            }
        }
        if key.iter().all(Read::comparable) {
            let mut shapes = self.shapes.borrow_mut();
            let shapes = &mut shapes[index];
            let at = match shapes
                .iter()
                .position(|shape| shape.outer == outer_id && shape.names == names)
            {
                Some(at) => at,
                None => {
                    shapes.push(Shape {
                        outer: outer_id,
                        names,
                        outcomes: FxHashMap::default(),
                    });
                    shapes.len() - 1
                }
            };
            shapes[at].outcomes.insert(key, Rc::clone(&outcome));
        }
        Ok(outcome)
    }
}

/// One context for a slot's templates, with the facts over it found at most once (see
/// [`Facts`]).
pub struct Scopes<'a> {
    base: Value,
    facts: &'a Facts,
    /// By facts index: what those facts (and the ones in front of them) came to.
    after: RefCell<Vec<Option<Rc<Outcome>>>>,
}

impl<'a> Scopes<'a> {
    /// `base` with no facts worked out over it yet.
    pub fn new(templates: &Templates, facts: &'a Facts, base: Value) -> Scopes<'a> {
        Scopes {
            base,
            facts,
            after: RefCell::new(vec![None; templates.facts.len()]),
        }
    }

    /// The context after the facts `chain` (indices, outermost first); `None` when one
    /// of them prints more than blank space, which would go in front of the template.
    fn after(
        &self,
        templates: &Templates,
        chain: &[usize],
    ) -> Result<Option<Value>, GenerateError> {
        let mut outer: Option<Rc<Outcome>> = None;
        for &index in chain {
            let known = self.after.borrow()[index].clone();
            let next = match known {
                Some(next) => next,
                None => {
                    let next =
                        self.facts
                            .outcome(templates, index, outer.as_deref(), &self.base)?;
                    self.after.borrow_mut()[index] = Some(Rc::clone(&next));
                    next
                }
            };
            if next.vars.is_none() {
                return Ok(None);
            }
            outer = Some(next);
        }
        Ok(outer.and_then(|outer| {
            outer.vars.as_ref().map(|vars| {
                Value::from_object(Scope {
                    vars: Arc::clone(vars),
                    base: self.base.clone(),
                    reads: None,
                })
            })
        }))
    }
}

/// `workers's` → `workers'`: a template's `'s` after a plural value (a name keeps it:
/// `Boots's` is left to the brief's wording).
fn plural_possessive(word: &str) -> &str {
    // A slice, not a copy: this runs on every word of every finished variant.
    if word.ends_with("s's") && word.starts_with(char::is_lowercase) {
        &word[..word.len() - 1]
    } else {
        word
    }
}

/// Where `part`, a slice of `whole`, lies in it.
fn span(whole: &str, part: &str) -> std::ops::Range<usize> {
    let start = part.as_ptr().addr() - whole.as_ptr().addr();
    start..start + part.len()
}

/// One variant line of a [`Rendered`] template: its parts as byte ranges of the text.
struct Line {
    intent: Intent,
    family: std::ops::Range<usize>,
    text: std::ops::Range<usize>,
    on_topic: bool,
    elsewhere: bool,
}

/// A template's variants, checked, with their text still as rendered. The generator
/// shuffles every pool of a slot, which takes only their number, but mostly reads the
/// first pool alone: finishing the text ([`Rendered::finish`]) of pools it never reads
/// was a tenth of its time.
pub struct Rendered {
    text: String,
    lines: Vec<Line>,
    /// Whether the text is English, whose articles and possessives are mended on
    /// finishing (German `an` and Spanish `a` are words of their own).
    english: bool,
}

impl Rendered {
    /// How many variants the template rendered.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether it rendered none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Whether a variant is marked as about the topic (`+`) or kept for another (`~`).
    pub fn marked(&self) -> bool {
        self.lines
            .iter()
            .any(|line| line.on_topic || line.elsewhere)
    }

    /// The variant at `index`, its text on one line and capitalised.
    pub fn finish(&self, index: usize) -> Variant {
        let line = &self.lines[index];
        let mut words: Vec<&str> = self.text[line.text.clone()].split_whitespace().collect();
        if self.english {
            crate::generate::text::fix_articles(&mut words);
        }
        // A name that starts with its own article (`The Luxury Closet`) takes no second
        // one from the template (`in the The Luxury Closet app`).
        let mut text = String::with_capacity(line.text.len());
        let mut first = true;
        for (i, word) in words.iter().enumerate() {
            let next = words.get(i + 1);
            // A value that ends with the word the template adds (`roof replacement
            // cost` + ` cost`) says it once.
            let article_before_name = word.eq_ignore_ascii_case("the") && next == Some(&"The");
            let doubled = next.is_some_and(|next| {
                next.eq_ignore_ascii_case(word) && word.chars().all(char::is_alphabetic)
            });
            if article_before_name || doubled {
                continue;
            }
            if !first {
                text.push(' ');
            }
            first = false;
            text.push_str(if self.english {
                plural_possessive(word)
            } else {
                word
            });
        }
        // A sentence may open with a value that starts in lower case (`the Marine
        // Conservation Society vs …`); a name styled with inner capitals (`ezyVet`,
        // `eBay`) keeps its style.
        let styled = text
            .split(' ')
            .next()
            .is_some_and(|first| first.chars().skip(1).any(char::is_uppercase));
        let text = if styled {
            text
        } else if text.starts_with(|c: char| c.is_ascii()) {
            // What [`crate::generate::text::title`] does, in place.
            let mut text = text;
            text[..1].make_ascii_uppercase();
            text
        } else {
            crate::generate::text::title(&text)
        };
        Variant {
            intent: line.intent,
            family: self.text[line.family.clone()].to_owned(),
            text,
            on_topic: line.on_topic,
            elsewhere: line.elsewhere,
        }
    }
}

fn collect_dir(
    root: &Path,
    dir: &Path,
    out: &mut Vec<(String, String)>,
) -> Result<(), GenerateError> {
    let io = |path: &Path, source: std::io::Error| GenerateError::Io {
        path: path.to_owned(),
        source,
    };
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| io(dir, e))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            collect_dir(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "j2") {
            let source = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((name, source));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_line_if_does_not_run_two_variants_together() {
        // trim_blocks eats the line end after the closing `{% endif %}`.
        let texts = finished(
            "[solution-education] Is it {% if yes %}good?{% endif %}\n[solution-education] Is it new?\n",
            &minijinja::context! { yes => true },
        );
        assert_eq!(texts, ["Is it good?", "Is it new?"]);
    }

    /// The finished variants of a one-template bank rendered with `context`.
    fn finished(template: &str, context: &Value) -> Vec<String> {
        let dir = tempfile::tempdir().expect("temp dir");
        let name = "prompts/xx/brand-defense/default/TOFU.j2";
        write(dir.path(), name, template);
        let templates = Templates::new(Some(dir.path())).expect("templates");
        let mut out = Vec::new();
        templates
            .variants(name, FunnelStage::Tofu, context, &mut out)
            .expect("variants");
        out.into_iter().map(|v| v.text).collect()
    }

    #[test]
    fn a_name_with_its_own_article_takes_no_second_one() {
        let texts = finished(
            "[solution-education] What is wrong with the {{ c }} app?\n[solution-education] the {{ c }} app: is it new?\n",
            &minijinja::context! { c => "The Luxury Closet" },
        );
        assert_eq!(
            texts,
            [
                "What is wrong with The Luxury Closet app?",
                "The Luxury Closet app: is it new?"
            ]
        );
    }

    #[test]
    fn a_word_the_value_ends_with_is_said_once_and_plurals_take_a_bare_apostrophe() {
        let texts = finished(
            "[solution-education] What drives {{ t }} cost for {{ w }}'s clients?\n",
            &minijinja::context! { t => "roof replacement cost", w => "support workers" },
        );
        assert_eq!(
            texts,
            ["What drives roof replacement cost for support workers' clients?"]
        );
    }

    fn write(dir: &Path, name: &str, text: &str) {
        let file = dir.join(name);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, text).expect("write");
    }

    #[test]
    fn a_folders_facts_are_set_for_every_template_below_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        write(
            dir.path(),
            "prompts/xx/_facts.j2",
            "{% set noun = \"plumbers\" %}\n",
        );
        write(
            dir.path(),
            "prompts/xx/brand-defense/_facts.j2",
            "{# the inner folder's facts come second #}\n{% set one = noun[:-1] %}\n",
        );
        let name = "prompts/xx/brand-defense/default/TOFU.j2";
        write(
            dir.path(),
            name,
            "[solution-education] How do I find {{ noun }}?\n[solution-education] What does {{ one|article }} do?\n",
        );
        let templates = Templates::new(Some(dir.path())).expect("templates");
        assert!(
            !templates.has("prompts/xx/_facts.j2"),
            "facts are no template"
        );
        let mut out = Vec::new();
        templates
            .variants(name, FunnelStage::Tofu, &minijinja::context! {}, &mut out)
            .expect("variants");
        let texts: Vec<&str> = out.iter().map(|v| v.text.as_str()).collect();
        assert_eq!(
            texts,
            ["How do I find plumbers?", "What does a plumber do?"]
        );
        // Each variant keeps the family of its own file's line.
        assert!(
            out[1].family.ends_with(&format!("{name}:2")),
            "{}",
            out[1].family
        );
    }

    #[test]
    fn an_error_in_facts_names_the_facts_file_and_its_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        write(
            dir.path(),
            "prompts/xx/_facts.j2",
            "{# facts #}\n{% set x = %}\n",
        );
        write(
            dir.path(),
            "prompts/xx/brand-defense/default/TOFU.j2",
            "[solution-education] Why?\n",
        );
        let error = Templates::new(Some(dir.path())).expect_err("a syntax error");
        let GenerateError::Template { name, line, .. } = error else {
            panic!("not a template error: {error}");
        };
        assert_eq!((name.as_str(), line), ("prompts/xx/_facts.j2", 2));

        write(dir.path(), "prompts/xx/_facts.j2", "{% set x = 1 %}\n");
        write(
            dir.path(),
            "prompts/xx/brand-defense/default/TOFU.j2",
            "[solution-education] Why?\n{{ missing }}\n",
        );
        let templates = Templates::new(Some(dir.path())).expect("templates");
        let error = templates
            .render(
                "prompts/xx/brand-defense/default/TOFU.j2",
                &minijinja::context! {},
            )
            .expect_err("undefined");
        let GenerateError::Template { name, line, .. } = error else {
            panic!("not a template error: {error}");
        };
        assert_eq!(
            (name.as_str(), line),
            ("prompts/xx/brand-defense/default/TOFU.j2", 2)
        );
    }
}
