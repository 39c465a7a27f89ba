//! The client brief: what the analyst knows about a client, the input of `promptset generate`.
//!
//! The types are the single source of truth: `schemas/brief.schema.json` is derived from
//! them (a test fails when it drifts). A brief is JSON or YAML; either way it is first
//! turned into a `serde_json::Value` with the position of every value remembered, checked
//! against the compiled schema so that *every* problem is reported at once with its JSON
//! pointer and line:column, and only then deserialized into [`Brief`].

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::diagnostic::schema::SchemaCheck;
use crate::diagnostic::source::{self, Syntax};
use crate::diagnostic::{Diagnostic, Severity};
use crate::model::TopicType;

/// The `$id` of the brief schema.
pub const BRIEF_SCHEMA_ID: &str = "https://promptset.dev/schemas/brief.schema.json";

/// A client brief: who the client is, what it sells, to whom, against whom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Client brief", rename = "Brief")]
pub struct Brief {
    /// The brand's name as people write it.
    #[schemars(length(min = 1))]
    pub brand_name: String,
    /// The brand's website, e.g. `https://example.com`.
    #[schemars(length(min = 1))]
    pub website_url: String,
    /// How the business makes money.
    pub business_model: BusinessModel,
    /// Markets (countries or regions) the brand sells in; at least one. A market with
    /// regions in brackets (`United Kingdom (Surrey, Kent)`) is read as those regions.
    #[schemars(length(min = 1))]
    pub target_markets: Vec<String>,
    /// Languages of the prompts, as codes such as `en` or `zh`; the first one with a
    /// template set wins. When none has one, prompts are written in English and the
    /// brief's keywords and topic names are taken to be in its own languages: no keyword
    /// is asked as a question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    /// Who buys, e.g. `small e-commerce teams`; at least one.
    #[schemars(length(min = 1))]
    pub target_customers: Vec<String>,
    /// Topics the client wants to be visible for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub priority_topics: Vec<PriorityTopic>,
    /// The product lines that make the money.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub core_product_lines: Vec<ProductLine>,
    /// Competitors and how much they overlap with the client.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub competitors: Vec<Competitor>,
    /// Kinds of AI answers where the brand is missing today, e.g. `comparison answers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weak_ai_surfaces: Vec<String>,
    /// Sales or discovery channels that matter, e.g. `Amazon` or `app marketplaces`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub priority_channels: Vec<String>,
    /// What the client wants from visibility in AI answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub business_goals: Vec<String>,
    /// Anything else worth knowing, free form (e.g. `category`, `seasonality`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub optional_context: Map<String, Value>,
    /// What a customer buys, books, hires or subscribes to, in the words customers use:
    /// `payroll software`, `holiday rentals`, `freelance developers`, `online
    /// accountants`. For a marketplace it is what its users book or buy through it, not
    /// the marketplace itself. When absent it is inferred from `optional_context.category`,
    /// the product lines or the brand name, and `key_inferences` says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offering: Option<String>,
    /// What each priority channel is, by the channel's name as written in
    /// `priority_channels`, e.g. `{"Trade shows": "trade-show"}`; channels not listed are
    /// typed from their names and `key_inferences` says how.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub channel_kinds: BTreeMap<String, ChannelKind>,
    /// The short form of a target customer, by the description as written in
    /// `target_customers`, e.g. `{"people buying gifts for dog lovers": "gift buyers"}`;
    /// prompts use the short form (a plural noun phrase). Descriptions not listed are
    /// shortened by rule (`men aged 25-45 who buy clothing on Amazon` → `men`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audience_labels: BTreeMap<String, String>,
    /// What customers get, which decides the questions that fit: warranties and repairs
    /// for durable goods, reorders for consumables, renewals for subscriptions, quotes
    /// for a project, cancellations for a booking. When absent it is read from the
    /// offering, the category and the product lines, and `key_inferences` says so; a
    /// kind the words do not show stays unknown, and questions that assume one stay out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_kind: Option<OfferKind>,
    /// Whether the buyers are consumers, businesses or both. When absent it is read from
    /// `target_customers` (`young families` → consumers, `procurement teams` →
    /// businesses), and `key_inferences` says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buyers: Option<Buyers>,
}

/// What a customer gets from the client (see [`Brief::offer_kind`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum OfferKind {
    /// Goods that last for years: warranties, repairs, spare parts and service life apply.
    DurableGoods,
    /// Goods that are used up and bought again: ingredients, batches, refills, reorders.
    ConsumableGoods,
    /// Software bought as a subscription: trials, tiers, integrations, migration.
    Software,
    /// A plan, membership or permit paid for as long as it runs: renewals, price rises,
    /// cancelling.
    Subscription,
    /// A firm hired for one job (a move, a translation, an audit): quotes, scope,
    /// timelines.
    ProjectService,
    /// A firm kept on for ongoing work (bookkeeping, managed security): monthly fees,
    /// contracts, notice periods, switching providers.
    OngoingService,
    /// A session, stay or appointment booked ahead: availability, cancellations.
    Booking,
    /// Goods people buy from other people (used cars, second-hand furniture): listings,
    /// inspections, scams, sellers.
    SecondHandGoods,
    /// Equipment or vehicles hired for a time: rates, deposits, delivery, damage.
    Rental,
    /// A cause people give to: impact, how gifts are spent, tax relief; no prices.
    Donation,
}

impl OfferKind {
    /// The kebab-case name, as in a brief.
    pub fn as_str(self) -> &'static str {
        match self {
            OfferKind::DurableGoods => "durable-goods",
            OfferKind::ConsumableGoods => "consumable-goods",
            OfferKind::Software => "software",
            OfferKind::Subscription => "subscription",
            OfferKind::ProjectService => "project-service",
            OfferKind::OngoingService => "ongoing-service",
            OfferKind::Booking => "booking",
            OfferKind::SecondHandGoods => "second-hand-goods",
            OfferKind::Rental => "rental",
            OfferKind::Donation => "donation",
        }
    }
}

/// Who buys from the client (see [`Brief::buyers`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Buyers {
    /// People buying for themselves or their household.
    Consumers,
    /// Businesses and organisations.
    Businesses,
    /// Both.
    Both,
}

impl Buyers {
    /// The kebab-case name, as in a brief.
    pub fn as_str(self) -> &'static str {
        match self {
            Buyers::Consumers => "consumers",
            Buyers::Businesses => "businesses",
            Buyers::Both => "both",
        }
    }
}

/// What a sales or discovery channel is, which decides how prompts speak of it: people
/// buy on a marketplace, buy through a distributor, see products at a trade show, and
/// read reviews on a review site.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ChannelKind {
    /// A marketplace customers buy on (`Amazon`, `Etsy`, `Tmall`).
    Marketplace,
    /// Shops or retail chains that stock the products.
    Retailer,
    /// Distributors, wholesalers or resellers businesses buy through.
    Distributor,
    /// Trade shows and fairs where buyers see products, not where they buy them.
    TradeShow,
    /// The brand's own website.
    OwnWebsite,
    /// The brand's own mobile app.
    OwnApp,
    /// An app store software is installed from (`Shopify App Store`, `Google Play`).
    AppStore,
    /// A review or comparison site (`Capterra`, `G2`, `Trustpilot`, `Clutch`).
    ReviewSite,
    /// A local listing or map people find businesses on (`Google Maps`).
    LocalListing,
    /// A social, video or podcast platform people discover content on (`YouTube`).
    Social,
    /// Referrals and word of mouth.
    Referral,
    /// Anything else.
    Other,
}

impl ChannelKind {
    /// The kebab-case name, as in a brief.
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelKind::Marketplace => "marketplace",
            ChannelKind::Retailer => "retailer",
            ChannelKind::Distributor => "distributor",
            ChannelKind::TradeShow => "trade-show",
            ChannelKind::OwnWebsite => "own-website",
            ChannelKind::OwnApp => "own-app",
            ChannelKind::AppStore => "app-store",
            ChannelKind::ReviewSite => "review-site",
            ChannelKind::LocalListing => "local-listing",
            ChannelKind::Social => "social",
            ChannelKind::Referral => "referral",
            ChannelKind::Other => "other",
        }
    }
}

/// A topic the client asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PriorityTopic {
    /// The topic's name.
    #[schemars(length(min = 1))]
    pub name: String,
    /// What kind of topic it is; inferred from its name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic_type: Option<TopicType>,
    /// What the topic covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Words people use for it, as they type them (`carry-on that fits all airlines`,
    /// `roof replacement Denver`). The generator asks each one it can read as a question
    /// a person would put to an assistant (`Which carry-on fits all airlines?`) and lists
    /// in `key_inferences` those it could not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seed_keywords: Vec<String>,
}

/// A product line of the client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductLine {
    /// The product line's name, e.g. `Trail running shoes`.
    #[schemars(length(min = 1))]
    pub name: String,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The keywords it should be found for, as people type them; asked as questions
    /// like a priority topic's seed keywords.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub priority_keywords: Vec<String>,
    /// What customers get from this line when it differs from the brief's
    /// `offer_kind` (a parking firm's pre-booked spaces are a booking, its permits a
    /// subscription).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_kind: Option<OfferKind>,
}

/// A competitor of the client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Competitor {
    /// The competitor's name.
    #[schemars(length(min = 1))]
    pub name: String,
    /// How much its offer overlaps with the client's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlap_tier: Option<OverlapTier>,
    /// Anything worth knowing about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// What kind of business it is next to the client, which decides what it can be
    /// compared on: a `brand` offers what the client offers, a `retailer` sells other
    /// brands' products. When absent it is read from `notes` and the name (`UK running
    /// retail chain` → retailer, `BarkBox` → subscription), else `brand`, and
    /// `key_inferences` says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CompetitorKind>,
    /// Which of the client's product lines (by name, as in `core_product_lines`) it also
    /// offers: prompts about a product line compare only the rivals that offer it. When
    /// absent, a shop or marketplace is taken to sell every line and any other competitor
    /// to offer the first line only (the client's core one), and `key_inferences` says
    /// so: the readings of issue 8 rejected rivals asked about lines they do not sell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub product_lines: Vec<String>,
}

/// What kind of business a competitor is, next to the client: prompts compare a brand
/// on its products, a retailer on range, prices and service, a subscription on value.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum CompetitorKind {
    /// Offers what the client offers, under its own name (a maker, a software vendor, a
    /// firm, a publisher, a platform like the client's).
    Brand,
    /// A shop or chain that sells many brands' products, the client's kind among them.
    Retailer,
    /// A marketplace where many sellers list such products.
    Marketplace,
    /// A subscription or box that bundles such products.
    Subscription,
}

impl CompetitorKind {
    /// The kebab-case name, as in a brief.
    pub fn as_str(self) -> &'static str {
        match self {
            CompetitorKind::Brand => "brand",
            CompetitorKind::Retailer => "retailer",
            CompetitorKind::Marketplace => "marketplace",
            CompetitorKind::Subscription => "subscription",
        }
    }
}

/// How the business makes money.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum BusinessModel {
    /// Sells products online to consumers.
    Ecommerce,
    /// Sells software as a subscription.
    Saas,
    /// Sells professional services.
    Services,
    /// Brings buyers and sellers together.
    Marketplace,
    /// Makes products and sells them to businesses or through distributors.
    Manufacturer,
    /// Publishes content and lives from its audience.
    ContentMedia,
    /// Anything else.
    Other,
}

impl BusinessModel {
    /// Every value, in the order of the brief's specification.
    pub const ALL: &'static [BusinessModel] = &[
        BusinessModel::Ecommerce,
        BusinessModel::Saas,
        BusinessModel::Services,
        BusinessModel::Marketplace,
        BusinessModel::Manufacturer,
        BusinessModel::ContentMedia,
        BusinessModel::Other,
    ];

    /// The exact spelling in briefs and prompt sets.
    pub fn as_str(self) -> &'static str {
        match self {
            BusinessModel::Ecommerce => "ecommerce",
            BusinessModel::Saas => "saas",
            BusinessModel::Services => "services",
            BusinessModel::Marketplace => "marketplace",
            BusinessModel::Manufacturer => "manufacturer",
            BusinessModel::ContentMedia => "content-media",
            BusinessModel::Other => "other",
        }
    }
}

impl std::fmt::Display for BusinessModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much a competitor's offer overlaps with the client's.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum OverlapTier {
    /// Same products, same customers.
    High,
    /// Mostly the same.
    MediumHigh,
    /// Partly the same.
    Medium,
    /// Adjacent.
    Low,
}

impl OverlapTier {
    /// A weight for ranking competitors: higher overlap, more pressure.
    pub fn weight(self) -> u32 {
        match self {
            OverlapTier::High => 4,
            OverlapTier::MediumHigh => 3,
            OverlapTier::Medium => 2,
            OverlapTier::Low => 1,
        }
    }
}

impl Brief {
    /// The labels that say what the brief offers, lower-cased: its category, its topics'
    /// names and its product lines' names (read for words such as `paid` or a trade).
    pub fn offer_labels_lower(&self) -> Vec<String> {
        self.optional_context
            .get("category")
            .and_then(|v| v.as_str())
            .into_iter()
            .chain(self.priority_topics.iter().map(|t| t.name.as_str()))
            .chain(self.core_product_lines.iter().map(|l| l.name.as_str()))
            .map(str::to_lowercase)
            .collect()
    }

    /// Whether the brief is too thin to fill a pack from what it states: no product
    /// lines, no priority topics and no competitors.
    pub fn is_thin(&self) -> bool {
        self.core_product_lines.is_empty()
            && self.priority_topics.is_empty()
            && self.competitors.is_empty()
    }
}

/// The JSON Schema (draft 2020-12) of a brief, derived from [`Brief`].
pub fn brief_schema() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let mut value = generator.into_root_schema_for::<Brief>().to_value();
    if let Value::Object(map) = &mut value {
        let mut ordered = Map::new();
        ordered.insert(
            "$schema".into(),
            map.remove("$schema").unwrap_or(Value::Null),
        );
        ordered.insert("$id".into(), Value::String(BRIEF_SCHEMA_ID.into()));
        ordered.append(map);
        value = Value::Object(ordered);
    }
    strip_nullable_optionals(&mut value);
    value
}

/// The brief schema as committed in `schemas/brief.schema.json` (pretty, trailing newline).
pub fn brief_schema_text() -> String {
    let mut text =
        serde_json::to_string_pretty(&brief_schema()).expect("a schema always serializes");
    text.push('\n');
    text
}

/// schemars types `Option<T>` as "T or null"; a brief states optional fields by leaving
/// them out, so the schema keeps only `T` and the messages name the real choices.
fn strip_nullable_optionals(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            // Documented enum variants come out as `oneOf` of `const`s; a plain `enum`
            // gives one clear "expected one of" message instead of "no schema matched".
            let constants: Option<Vec<Value>> = map
                .get("oneOf")
                .and_then(Value::as_array)
                .and_then(|choices| choices.iter().map(|c| c.get("const").cloned()).collect());
            if let Some(values) = constants {
                map.remove("oneOf");
                map.insert("type".into(), Value::String("string".into()));
                map.insert("enum".into(), Value::Array(values));
            }
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for property in properties.values_mut() {
                    unwrap_nullable(property);
                }
            }
            for child in map.values_mut() {
                strip_nullable_optionals(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_nullable_optionals),
        _ => {}
    }
}

fn unwrap_nullable(property: &mut Value) {
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    if let Some(Value::Array(choices)) = property.get("anyOf")
        && choices.len() == 2
        && choices.iter().any(is_null)
        && let Some(inner) = choices.iter().find(|c| !is_null(c)).cloned()
        && let Value::Object(map) = property
    {
        map.remove("anyOf");
        if let Value::Object(inner) = inner {
            for (key, value) in inner {
                map.entry(key).or_insert(value);
            }
        }
    }
    if let Some(Value::Array(types)) = property.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let single = types[0].clone();
            property["type"] = single;
        }
    }
    if let Some(Value::Array(values)) = property.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
}

/// The syntax a brief is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BriefFormat {
    /// JSON text.
    Json,
    /// YAML 1.2 text.
    Yaml,
}

impl BriefFormat {
    /// The format a path's extension names, if it names one.
    pub fn from_path(path: &Path) -> Option<BriefFormat> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("json") => Some(BriefFormat::Json),
            Some("yaml" | "yml") => Some(BriefFormat::Yaml),
            _ => None,
        }
    }

    /// Guesses the format from the text: JSON starts with `{` (or `[`), anything else is
    /// read as YAML.
    pub fn sniff(text: &str) -> BriefFormat {
        match text.trim_start().as_bytes().first() {
            Some(b'{' | b'[') => BriefFormat::Json,
            _ => BriefFormat::Yaml,
        }
    }
}

/// Whether a path looks like a brief file (`.json`, `.yaml` or `.yml`).
pub fn is_brief_path(path: &Path) -> bool {
    BriefFormat::from_path(path).is_some()
}

fn compiled_schema() -> &'static SchemaCheck {
    static COMPILED: OnceLock<SchemaCheck> = OnceLock::new();
    COMPILED.get_or_init(|| SchemaCheck::new(brief_schema(), "the brief"))
}

/// Parses and checks a brief, reporting every problem at once.
///
/// `format` forces the syntax; `None` sniffs it from the text. On failure the
/// diagnostics carry JSON pointers and 1-based line:column positions, in source order.
/// Briefs go through the same pipeline as prompt sets ([`crate::diagnostic`]), so their
/// messages read the same.
pub fn parse_brief(source: &[u8], format: Option<BriefFormat>) -> Result<Brief, Vec<Diagnostic>> {
    let text = source::preflight(source, &source::BRIEF).map_err(|d| vec![d])?;
    let syntax = match format.unwrap_or_else(|| BriefFormat::sniff(text)) {
        BriefFormat::Json => Syntax::Json,
        BriefFormat::Yaml => Syntax::Yaml,
    };
    let (value, positions) = source::parse(text, syntax, &source::BRIEF).map_err(|d| vec![d])?;
    let mut findings = Vec::new();
    compiled_schema().findings(&value, &mut findings);
    if findings.is_empty() {
        return serde_json::from_value::<Brief>(value).map_err(|error| {
            vec![Diagnostic::whole(
                "schema",
                Severity::Error,
                error.to_string(),
            )]
        });
    }
    Err(positions.place(findings, Severity::Error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_positions_point_at_values() {
        let text = "brand_name: Acme\nbusiness_model: retail\ntarget_markets:\n  - US\n";
        let errors = parse_brief(text.as_bytes(), Some(BriefFormat::Yaml)).unwrap_err();
        let enum_error = errors
            .iter()
            .find(|d| d.rule == "enum")
            .expect("enum error");
        assert_eq!(enum_error.pointer, "/business_model");
        assert_eq!((enum_error.line, enum_error.column), (2, 17));
        assert!(
            errors
                .iter()
                .any(|d| d.rule == "required" && d.message.contains("website_url"))
        );
    }

    #[test]
    fn sniffs_json_and_yaml() {
        assert_eq!(BriefFormat::sniff("  {\"a\": 1}"), BriefFormat::Json);
        assert_eq!(BriefFormat::sniff("a: 1"), BriefFormat::Yaml);
    }
}
