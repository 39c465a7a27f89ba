//! The prompt-set format: serde + schemars types, the single source of truth.
//!
//! Every object rejects unknown properties, optional fields are absent rather than
//! `null`, and closed value lists are enums with their exact wire spellings. The JSON
//! Schema in `schemas/promptset.schema.json` is derived from these types.
//!
//! Text fields are `Cow<'a, str>` so that validation and reports can borrow straight
//! from the input buffer: a 60 MB document then costs little more than its own bytes.

use std::borrow::Cow;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// A text field that borrows from the input when it holds no escapes.
pub type Text<'a> = Cow<'a, str>;

/// One prompt-generation result: client summary, topic map, strategy, prompts and
/// optional priority lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Prompt set", rename = "PromptSet")]
pub struct PromptSet<'a> {
    /// Who the prompt set is for.
    #[serde(borrow)]
    pub client_summary: ClientSummary<'a>,
    /// The topics the prompts are organised around; at least one.
    #[serde(borrow)]
    #[schemars(length(min = 1))]
    pub topic_map: Vec<Topic<'a>>,
    /// The layer mix and funnel notes.
    #[serde(borrow)]
    pub strategy: Strategy<'a>,
    /// The prompts to monitor; at least one.
    #[serde(borrow)]
    #[schemars(length(min = 1))]
    pub prompts: Vec<Prompt<'a>>,
    /// Shortlists of the most important topics and prompts.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub priority_lists: Option<PriorityLists>,
}

/// A summary of the client the prompt set was built for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientSummary<'a> {
    /// The brand's name as people write it.
    #[serde(borrow)]
    pub brand_name: Text<'a>,
    /// How the business makes money, e.g. `saas` or `ecommerce`.
    #[serde(borrow)]
    pub business_model: Text<'a>,
    /// Markets (countries, regions or languages) the brand sells in.
    pub target_markets: Vec<String>,
    /// Product lines given in the brief.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub input_product_lines: Option<Vec<String>>,
    /// Topics given in the brief.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub input_topics: Option<Vec<String>>,
    /// What was assumed or inferred while building the set.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub key_inferences: Option<Vec<String>>,
}

/// One topic of the topic map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Topic<'a> {
    /// The topic's name; prompts refer to it by this exact text.
    #[serde(borrow)]
    pub topic: Text<'a>,
    /// Where the topic came from.
    pub topic_source: TopicSource,
    /// What kind of topic it is.
    pub topic_type: TopicType,
    /// Product lines the topic belongs to.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub related_product_lines: Option<Vec<String>>,
    /// How much the topic matters to the client.
    pub priority: Level,
    /// Why the topic is in the map.
    #[serde(borrow)]
    pub why_this_topic_exists: Text<'a>,
}

/// The strategy: the layer mix and notes on the funnel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strategy<'a> {
    /// Share of each prompt layer, as text such as `60%`.
    #[serde(borrow)]
    pub layer_mix: LayerMix<'a>,
    /// Notes on how the prompts cover the funnel.
    pub funnel_notes: Vec<String>,
    /// Content assets that would improve visibility.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub recommended_assets: Option<Vec<String>>,
}

/// Share of each prompt layer in the set, as free text (usually a percentage).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayerMix<'a> {
    /// Share of non-brand discovery prompts.
    #[serde(borrow)]
    pub non_brand_discovery: Text<'a>,
    /// Share of competitor comparison prompts.
    #[serde(borrow)]
    pub competitor_comparison: Text<'a>,
    /// Share of brand defense prompts.
    #[serde(borrow)]
    pub brand_defense: Text<'a>,
}

/// One prompt, labelled by topic, layer and funnel stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Prompt<'a> {
    /// The question as a person would ask an AI assistant.
    #[serde(borrow)]
    pub prompt: Text<'a>,
    /// The topic of `topic_map` this prompt belongs to.
    #[serde(borrow)]
    pub topic: Text<'a>,
    /// The topic's source; equals the topic map's.
    pub topic_source: TopicSource,
    /// The topic's type (free text here, unlike in the topic map).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some_text"
    )]
    pub topic_type: Option<Text<'a>>,
    /// Which prompt layer the prompt belongs to.
    pub layer: Layer,
    /// The funnel stage the prompt belongs to.
    pub funnel_stage: FunnelStage,
    /// The prompt's category.
    #[serde(borrow)]
    pub category: Text<'a>,
    /// The product line the prompt is about.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some_text"
    )]
    pub product_line: Option<Text<'a>>,
    /// The customer who would ask it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some_text"
    )]
    pub target_customer: Option<Text<'a>>,
    /// Value to the business of winning this answer.
    pub business_value: Level,
    /// How much generative-engine optimisation can move the answer.
    pub geo_priority: Level,
    /// How useful the prompt is to monitor over time.
    pub monitoring_value: Level,
    /// How the brand would enter the answer (e.g. `candidate list`, `comparison target`).
    #[serde(borrow)]
    pub answer_entry_mode: Text<'a>,
    /// The kind of content asset that would win the answer.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some_text"
    )]
    pub recommended_asset_type: Option<Text<'a>>,
    /// Why the prompt matters to the client.
    #[serde(borrow)]
    pub why_it_matters: Text<'a>,
}

/// Shortlists of topics and prompts; every list is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PriorityLists {
    /// Names of the most important topics of `topic_map`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub top_topics: Option<Vec<String>>,
    /// Prompt texts of the most important non-brand discovery prompts.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub top_non_brand_discovery: Option<Vec<String>>,
    /// Prompt texts of the most important competitor comparison prompts.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub top_competitor_comparison: Option<Vec<String>>,
    /// Prompt texts of the most important brand defense prompts.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::some"
    )]
    pub top_brand_defense: Option<Vec<String>>,
}

macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
        pub enum $name {
            $(
                #[serde(rename = $wire)]
                $variant,
            )+
        }

        impl $name {
            /// Every value, in the order of the format's specification.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The exact spelling on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// Where a topic came from: given in the brief, derived from a product line, or inferred.
    TopicSource {
        Provided = "provided",
        DerivedFromProductLine = "derived-from-product-line",
        Inferred = "inferred",
    }
}

wire_enum! {
    /// The kind of topic in the topic map.
    TopicType {
        ProductCategory = "product-category",
        UseCase = "use-case",
        AudienceSegment = "audience-segment",
        CompetitorAlternative = "competitor-alternative",
        TrustEvaluation = "trust-evaluation",
        ChannelMarketplace = "channel-marketplace",
        SeasonalTrend = "seasonal-trend",
        Other = "other",
    }
}

wire_enum! {
    /// A three-step rating used for priority and value fields.
    Level {
        High = "high",
        Medium = "medium",
        Low = "low",
    }
}

wire_enum! {
    /// The prompt layer: non-brand discovery, competitor comparison or brand defense.
    Layer {
        NonBrandDiscovery = "non-brand-discovery",
        CompetitorComparison = "competitor-comparison",
        BrandDefense = "brand-defense",
    }
}

wire_enum! {
    /// The funnel stage: top (awareness), middle (evaluation) or bottom (decision).
    FunnelStage {
        Tofu = "TOFU",
        Mofu = "MOFU",
        Bofu = "BOFU",
    }
}

/// Deserializers for optional fields: absent means `None`, `null` is rejected as the
/// schema rejects it, and text borrows from the input where it can.
mod de {
    use super::*;

    pub fn some<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        T::deserialize(deserializer).map(Some)
    }

    pub fn some_text<'de: 'a, 'a, D>(deserializer: D) -> Result<Option<Text<'a>>, D::Error>
    where
        D: Deserializer<'de>,
    {
        struct TextVisitor;
        impl<'de> serde::de::Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                v: &'de str,
            ) -> Result<Self::Value, E> {
                Ok(Cow::Borrowed(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Cow::Owned(v.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Cow::Owned(v))
            }
        }
        deserializer.deserialize_str(TextVisitor).map(Some)
    }
}

impl PromptSet<'_> {
    /// Copies every borrowed text so the set no longer refers to its input buffer.
    pub fn into_owned(self) -> PromptSet<'static> {
        // A serde round trip would re-validate; a structural copy is cheaper and cannot fail.
        fn own(text: Text<'_>) -> Text<'static> {
            Cow::Owned(text.into_owned())
        }
        fn own_opt(text: Option<Text<'_>>) -> Option<Text<'static>> {
            text.map(own)
        }
        PromptSet {
            client_summary: ClientSummary {
                brand_name: own(self.client_summary.brand_name),
                business_model: own(self.client_summary.business_model),
                target_markets: self.client_summary.target_markets,
                input_product_lines: self.client_summary.input_product_lines,
                input_topics: self.client_summary.input_topics,
                key_inferences: self.client_summary.key_inferences,
            },
            topic_map: self
                .topic_map
                .into_iter()
                .map(|t| Topic {
                    topic: own(t.topic),
                    topic_source: t.topic_source,
                    topic_type: t.topic_type,
                    related_product_lines: t.related_product_lines,
                    priority: t.priority,
                    why_this_topic_exists: own(t.why_this_topic_exists),
                })
                .collect(),
            strategy: Strategy {
                layer_mix: LayerMix {
                    non_brand_discovery: own(self.strategy.layer_mix.non_brand_discovery),
                    competitor_comparison: own(self.strategy.layer_mix.competitor_comparison),
                    brand_defense: own(self.strategy.layer_mix.brand_defense),
                },
                funnel_notes: self.strategy.funnel_notes,
                recommended_assets: self.strategy.recommended_assets,
            },
            prompts: self
                .prompts
                .into_iter()
                .map(|p| Prompt {
                    prompt: own(p.prompt),
                    topic: own(p.topic),
                    topic_source: p.topic_source,
                    topic_type: own_opt(p.topic_type),
                    layer: p.layer,
                    funnel_stage: p.funnel_stage,
                    category: own(p.category),
                    product_line: own_opt(p.product_line),
                    target_customer: own_opt(p.target_customer),
                    business_value: p.business_value,
                    geo_priority: p.geo_priority,
                    monitoring_value: p.monitoring_value,
                    answer_entry_mode: own(p.answer_entry_mode),
                    recommended_asset_type: own_opt(p.recommended_asset_type),
                    why_it_matters: own(p.why_it_matters),
                })
                .collect(),
            priority_lists: self.priority_lists,
        }
    }
}
