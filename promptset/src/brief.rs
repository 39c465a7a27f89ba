//! The client brief: what the analyst knows about a client, the input of `promptset generate`.
//!
//! The types are the single source of truth: `schemas/brief.schema.json` is derived from
//! them (a test fails when it drifts). A brief is JSON or YAML; either way it is first
//! turned into a `serde_json::Value` with the position of every value remembered, checked
//! against the compiled schema so that *every* problem is reported at once with its JSON
//! pointer and line:column, and only then deserialized into [`Brief`].

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::OnceLock;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::locate::{Locator, escape_token};
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
    /// Markets (countries or regions) the brand sells in; at least one.
    #[schemars(length(min = 1))]
    pub target_markets: Vec<String>,
    /// Languages of the prompts, as codes such as `en` or `zh`; the first one with a
    /// template set wins.
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
    /// Words people use for it.
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
    /// The keywords it should be found for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub priority_keywords: Vec<String>,
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

fn compiled_schema() -> &'static jsonschema::Validator {
    static COMPILED: OnceLock<jsonschema::Validator> = OnceLock::new();
    COMPILED.get_or_init(|| {
        jsonschema::draft202012::new(&brief_schema()).expect("the derived brief schema compiles")
    })
}

/// Parses and checks a brief, reporting every problem at once.
///
/// `format` forces the syntax; `None` sniffs it from the text. On failure the
/// diagnostics carry JSON pointers and 1-based line:column positions, in source order.
pub fn parse_brief(source: &[u8], format: Option<BriefFormat>) -> Result<Brief, Vec<Diagnostic>> {
    let text = preflight(source).map_err(|d| vec![d])?;
    let format = format.unwrap_or_else(|| BriefFormat::sniff(text));
    let (value, positions) = match format {
        BriefFormat::Json => match serde_json::from_str::<Value>(text) {
            Ok(value) => (value, Positions::Json(Locator::new(text))),
            Err(error) => return Err(vec![json_syntax(&error)]),
        },
        BriefFormat::Yaml => {
            let (value, map) = yaml_to_value(text).map_err(|d| vec![d])?;
            (value, Positions::Yaml(map))
        }
    };
    let mut findings: Vec<(String, &'static str, String)> = Vec::new();
    for error in compiled_schema().iter_errors(&value) {
        schema_finding(&error, &value, &mut findings);
    }
    if findings.is_empty() {
        return match serde_json::from_value::<Brief>(value) {
            Ok(brief) => Ok(brief),
            Err(error) => Err(vec![Diagnostic {
                rule: "schema",
                severity: Severity::Error,
                pointer: String::new(),
                message: error.to_string(),
                line: 1,
                column: 1,
            }]),
        };
    }
    let mut diagnostics: Vec<Diagnostic> = findings
        .into_iter()
        .map(|(pointer, rule, message)| {
            let (line, column) = positions.locate(&pointer);
            Diagnostic {
                rule,
                severity: Severity::Error,
                pointer,
                message,
                line,
                column,
            }
        })
        .collect();
    diagnostics.sort_by(|a, b| {
        (a.line, a.column, a.rule, &a.message).cmp(&(b.line, b.column, b.rule, &b.message))
    });
    Err(diagnostics)
}

/// Every rule brief checking can report, with a one-line description (for SARIF).
pub const RULES: &[(&str, &str)] = &[
    ("empty", "the brief is empty"),
    ("encoding", "the brief is not valid UTF-8"),
    ("syntax", "the brief is not well-formed JSON or YAML"),
    ("required", "a required field is missing"),
    ("unknown-property", "a field the brief does not define"),
    ("enum", "a value outside the allowed list"),
    ("type", "a value of the wrong type"),
    ("min-items", "a list with fewer items than required"),
    ("min-length", "an empty text where one is required"),
    ("schema", "another schema violation"),
];

enum Positions<'a> {
    Json(Locator<'a>),
    Yaml(HashMap<String, (usize, usize)>),
}

impl Positions<'_> {
    fn locate(&self, pointer: &str) -> (usize, usize) {
        match self {
            Positions::Json(locator) => locator.locate(pointer),
            Positions::Yaml(map) => {
                // A missing target falls back to its deepest existing ancestor.
                let mut current = pointer;
                loop {
                    if let Some(&position) = map.get(current) {
                        return position;
                    }
                    match current.rfind('/') {
                        Some(cut) => current = &current[..cut],
                        None => return (1, 1),
                    }
                }
            }
        }
    }
}

fn whole_file(rule: &'static str, message: String) -> Diagnostic {
    Diagnostic {
        rule,
        severity: Severity::Error,
        pointer: String::new(),
        message,
        line: 1,
        column: 1,
    }
}

fn preflight(source: &[u8]) -> Result<&str, Diagnostic> {
    let source = source.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(source);
    let text = match std::str::from_utf8(source) {
        Ok(text) => text,
        Err(error) => {
            let valid = error.valid_up_to();
            let prefix = std::str::from_utf8(&source[..valid]).unwrap_or_default();
            let (line, column) = Locator::new(prefix).position(valid);
            return Err(Diagnostic {
                rule: "encoding",
                severity: Severity::Error,
                pointer: String::new(),
                message: format!(
                    "invalid UTF-8 at byte {valid}; a brief must be JSON or YAML text in UTF-8"
                ),
                line,
                column,
            });
        }
    };
    if text.trim().is_empty() {
        return Err(whole_file(
            "empty",
            "the brief is empty; expected a JSON or YAML object".into(),
        ));
    }
    Ok(text)
}

fn json_syntax(error: &serde_json::Error) -> Diagnostic {
    let full = error.to_string();
    let message = full
        .rfind(" at line ")
        .map_or(full.as_str(), |cut| &full[..cut]);
    Diagnostic {
        rule: "syntax",
        severity: Severity::Error,
        pointer: String::new(),
        message: format!("invalid JSON: {message}"),
        line: error.line().max(1),
        column: error.column().max(1),
    }
}

/// Converts YAML text to a JSON value, remembering the position of every value by pointer.
/// Positions of YAML values by JSON pointer.
type YamlPositions = HashMap<String, (usize, usize)>;

fn yaml_to_value(text: &str) -> Result<(Value, YamlPositions), Diagnostic> {
    use saphyr::{LoadableYamlNode, MarkedYaml};
    let documents = MarkedYaml::load_from_str(text).map_err(|error| {
        let marker = error.marker();
        Diagnostic {
            rule: "syntax",
            severity: Severity::Error,
            pointer: String::new(),
            message: format!("invalid YAML: {}", error.info()),
            line: marker.line().max(1),
            column: marker.col() + 1,
        }
    })?;
    let mut documents = documents.into_iter();
    let Some(document) = documents.next() else {
        return Err(whole_file(
            "empty",
            "the brief is empty; expected a JSON or YAML object".into(),
        ));
    };
    if let Some(extra) = documents.next() {
        return Err(Diagnostic {
            rule: "syntax",
            severity: Severity::Error,
            pointer: String::new(),
            message: "the YAML file holds more than one document; a brief is one document".into(),
            line: extra.span.start.line().max(1),
            column: extra.span.start.col() + 1,
        });
    }
    let mut positions = HashMap::new();
    let value = convert_yaml(&document, String::new(), &mut positions);
    Ok((value, positions))
}

fn convert_yaml(
    node: &saphyr::MarkedYaml<'_>,
    pointer: String,
    positions: &mut HashMap<String, (usize, usize)>,
) -> Value {
    use saphyr::{Scalar, YamlData};
    let start = node.span.start;
    positions.insert(pointer.clone(), (start.line().max(1), start.col() + 1));
    match &node.data {
        YamlData::Value(scalar) => match scalar {
            Scalar::Null => Value::Null,
            Scalar::Boolean(b) => Value::Bool(*b),
            Scalar::Integer(i) => Value::from(*i),
            Scalar::FloatingPoint(f) => serde_json::Number::from_f64(f.into_inner())
                .map_or_else(|| Value::String(f.to_string()), Value::Number),
            Scalar::String(s) => Value::String(s.to_string()),
        },
        YamlData::Representation(text, _, _) => Value::String(text.to_string()),
        YamlData::Tagged(_, inner) => convert_yaml(inner, pointer, positions),
        YamlData::Sequence(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| convert_yaml(item, format!("{pointer}/{index}"), positions))
                .collect(),
        ),
        YamlData::Mapping(members) => {
            let mut map = Map::new();
            for (key, value) in members {
                let key = yaml_key(key);
                let child = format!("{pointer}/{}", escape_token(&key));
                let converted = convert_yaml(value, child, positions);
                map.insert(key, converted);
            }
            Value::Object(map)
        }
        YamlData::Alias(_) | YamlData::BadValue => Value::Null,
    }
}

fn yaml_key(key: &saphyr::MarkedYaml<'_>) -> String {
    use saphyr::{Scalar, YamlData};
    match &key.data {
        YamlData::Value(Scalar::String(s)) => s.to_string(),
        YamlData::Value(Scalar::Integer(i)) => i.to_string(),
        YamlData::Value(Scalar::Boolean(b)) => b.to_string(),
        YamlData::Value(Scalar::FloatingPoint(f)) => f.to_string(),
        YamlData::Value(Scalar::Null) => "null".into(),
        YamlData::Representation(text, _, _) => text.to_string(),
        _ => "<complex key>".into(),
    }
}

fn schema_finding(
    error: &jsonschema::ValidationError<'_>,
    root: &Value,
    out: &mut Vec<(String, &'static str, String)>,
) {
    use jsonschema::error::ValidationErrorKind as Kind;
    let pointer = error.instance_path().as_str().to_owned();
    let field = field_name(&pointer);
    match error.kind() {
        Kind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let place = if pointer.is_empty() {
                "the brief".to_owned()
            } else {
                format!("`{pointer}`")
            };
            out.push((
                pointer.clone(),
                "required",
                format!("missing required field `{name}` in {place}"),
            ));
        }
        Kind::AdditionalProperties { unexpected } => {
            let allowed = allowed_fields(root, &pointer);
            for name in unexpected {
                out.push((
                    format!("{pointer}/{}", escape_token(name)),
                    "unknown-property",
                    format!("unknown field `{name}`; allowed here: {allowed}"),
                ));
            }
        }
        Kind::Enum { options } => {
            let allowed = match options.as_ref() {
                Value::Array(values) => values
                    .iter()
                    .map(|v| format!("`{}`", display(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                other => format!("`{}`", display(other)),
            };
            out.push((
                pointer,
                "enum",
                format!(
                    "`{}` is not an allowed value for `{field}`; expected one of {allowed}",
                    display(error.instance())
                ),
            ));
        }
        Kind::Type { kind } => {
            let expected = match kind {
                jsonschema::error::TypeKind::Single(t) => article(&t.to_string()),
                jsonschema::error::TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| article(&t.to_string()))
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            let place = if pointer.is_empty() {
                "the brief".to_owned()
            } else {
                format!("`{field}`")
            };
            out.push((
                pointer.clone(),
                "type",
                format!(
                    "{place} must be {expected}, found {}",
                    describe(error.instance())
                ),
            ));
        }
        Kind::MinItems { limit } => out.push((
            pointer,
            "min-items",
            format!(
                "`{field}` must list at least {limit} {}",
                if *limit == 1 { "item" } else { "items" }
            ),
        )),
        Kind::MinLength { .. } => out.push((
            pointer,
            "min-length",
            format!("`{field}` must not be empty"),
        )),
        _ => out.push((pointer, "schema", error.to_string())),
    }
}

/// The field names the schema allows in the object at `pointer` (by walking the brief
/// schema alongside the instance path).
fn allowed_fields(_root: &Value, pointer: &str) -> String {
    let schema = brief_schema();
    let mut node = &schema;
    for token in crate::locate::pointer_tokens(pointer) {
        let next = if token.parse::<usize>().is_ok() {
            node.get("items")
        } else {
            node.get("properties").and_then(|p| p.get(&token))
        };
        match next {
            Some(next) => node = next,
            None => return "none".into(),
        }
    }
    match node.get("properties").and_then(Value::as_object) {
        Some(properties) => properties
            .keys()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", "),
        None => "none".into(),
    }
}

fn field_name(pointer: &str) -> String {
    let mut tokens = crate::locate::pointer_tokens(pointer);
    while tokens.last().is_some_and(|t| t.parse::<usize>().is_ok()) {
        tokens.pop();
    }
    tokens.pop().unwrap_or_else(|| "brief".to_owned())
}

fn article(name: &str) -> String {
    match name {
        "object" => "an object".into(),
        "array" => "a list".into(),
        "integer" => "an integer".into(),
        other => format!("a {other}"),
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "nothing (null)".into(),
        Value::Bool(b) => format!("a boolean (`{b}`)"),
        Value::Number(n) => format!("a number (`{n}`)"),
        Value::String(s) => format!("a string (`{}`)", shorten(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn display(value: &Value) -> String {
    match value {
        Value::String(s) => shorten(s),
        other => shorten(&other.to_string()),
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
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
