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
//! folder's `_facts.j2`, and compiled in front of each template below it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use minijinja::syntax::SyntaxConfig;
use minijinja::value::StringInput;
use minijinja::{Environment, UndefinedBehavior, Value};

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
        for (name, source) in &sources {
            if name.ends_with(FACTS) {
                continue;
            }
            let files = facts_for(name)
                .into_iter()
                .filter_map(|facts| sources.get_key_value(&facts))
                .chain([(name, source)]);
            let mut parts = Vec::new();
            let mut composed = String::new();
            let mut first_line = 1;
            for (file, text) in files {
                parts.push(Segment {
                    name: file.clone(),
                    first_line,
                });
                let text = with_line_families(file, text);
                first_line += text.lines().count();
                composed.push_str(&text);
            }
            if parts.len() > 1 {
                segments.insert(name.clone(), parts);
            }
            env.add_template_owned(name.clone(), composed)
                .map_err(|e| template_error(&e, &segments))?;
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
        let template = self
            .env
            .get_template(name)
            .map_err(|e| template_error(&e, &self.segments))?;
        template
            .render(context)
            .map_err(|e| template_error(&e, &self.segments))
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
        let rendered = self.render_variants(name, stage, context)?;
        out.extend((0..rendered.len()).map(|index| rendered.finish(index)));
        Ok(())
    }

    /// [`Self::variants`], checked but with their text not yet finished (see
    /// [`Rendered`]).
    pub fn render_variants(
        &self,
        name: &str,
        stage: FunnelStage,
        context: &Value,
    ) -> Result<Rendered, GenerateError> {
        let rendered = self.render(name, context)?;
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
        })
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
        crate::generate::text::fix_articles(&mut words);
        // A name that starts with its own article (`The Luxury Closet`) takes no second
        // one from the template (`in the The Luxury Closet app`).
        let text = words
            .iter()
            .enumerate()
            .filter(|(i, word)| {
                let next = words.get(i + 1);
                // A value that ends with the word the template adds (`roof replacement
                // cost` + ` cost`) says it once.
                let article_before_name = word.eq_ignore_ascii_case("the") && next == Some(&"The");
                let doubled = next.is_some_and(|next| {
                    next.eq_ignore_ascii_case(word) && word.chars().all(char::is_alphabetic)
                });
                !article_before_name && !doubled
            })
            .map(|(_, word)| plural_possessive(word))
            .collect::<Vec<_>>()
            .join(" ");
        // A sentence may open with a value that starts in lower case (`the Marine
        // Conservation Society vs …`); a name styled with inner capitals (`ezyVet`,
        // `eBay`) keeps its style.
        let styled = text
            .split(' ')
            .next()
            .is_some_and(|first| first.chars().skip(1).any(char::is_uppercase));
        let text = if styled {
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
