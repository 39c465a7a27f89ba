//! The validator: the derived schema plus the integrity rules, with positions.
//!
//! Two paths, one contract. The schema is derived from the [`crate::model`] types, so a
//! typed parse into [`PromptSet`] accepts exactly the documents the schema accepts
//! (plus a check for `minItems`, which serde cannot express). Valid documents therefore
//! take the fast path: one borrowing parse, no `serde_json::Value`, no second copy.
//! When the typed parse fails, the slow path parses a `Value` and runs the compiled
//! JSON Schema to report *every* violation, not only serde's first one; a test checks
//! that both paths agree on every fixture.
//!
//! Every finding carries a JSON pointer and the line:column of the offending value,
//! found with [`crate::locate::Locator`] only when there is something to report.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::locate::{Locator, duplicate_keys, escape_token};
use crate::model::{Layer, PromptSet, TopicSource};
use crate::schema::{Variant, schema};

/// A compiled validator for one schema variant; build it once and share it (it is `Sync`).
pub struct Validator {
    variant: Variant,
    /// The canonical schema and its compiled form, built on first use: valid canonical
    /// documents never need them, so a run over valid files never pays for them.
    compiled: std::sync::OnceLock<(Value, jsonschema::Validator)>,
}

/// The outcome of validating one document.
#[derive(Debug)]
pub struct Validation<'a> {
    /// Every error found, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The parsed document, present only when there is no error.
    pub document: Option<PromptSet<'a>>,
}

impl Validation<'_> {
    /// Whether the document is valid.
    pub fn is_valid(&self) -> bool {
        self.document.is_some()
    }
}

/// A finding before it has a position: rule, pointer, message, and the byte offset when
/// it is already known.
struct Finding {
    rule: &'static str,
    pointer: String,
    message: String,
    offset: Option<usize>,
}

impl Finding {
    fn at(rule: &'static str, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Finding {
            rule,
            pointer: pointer.into(),
            message: message.into(),
            offset: None,
        }
    }
}

impl Default for Validator {
    fn default() -> Self {
        Validator::new(Variant::Canonical)
    }
}

impl Validator {
    /// Compiles the validator for `variant`.
    ///
    /// Documents of the `openai-strict` variant are normalised (their `null`s dropped)
    /// and then held to the canonical schema, so both variants share one compiled schema.
    pub fn new(variant: Variant) -> Self {
        Validator {
            variant,
            compiled: std::sync::OnceLock::new(),
        }
    }

    fn compiled(&self) -> &(Value, jsonschema::Validator) {
        self.compiled.get_or_init(|| {
            let schema = schema(Variant::Canonical);
            let compiled =
                jsonschema::draft202012::new(&schema).expect("the derived schema always compiles");
            (schema, compiled)
        })
    }

    /// The variant this validator accepts.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Validates one document given as raw bytes.
    pub fn validate<'a>(&self, source: &'a [u8]) -> Validation<'a> {
        let text = match preflight(source) {
            Ok(text) => text,
            Err(diagnostic) => {
                return Validation {
                    diagnostics: vec![diagnostic],
                    document: None,
                };
            }
        };
        if self.variant == Variant::Canonical {
            match serde_json::from_str::<PromptSet<'a>>(text) {
                Ok(set) => {
                    let mut findings = min_items(&set);
                    findings.extend(integrity_view(&View::from_set(&set)));
                    if findings.is_empty() {
                        return Validation {
                            diagnostics: Vec::new(),
                            document: Some(set),
                        };
                    }
                    return Validation {
                        diagnostics: place(text, findings),
                        document: None,
                    };
                }
                Err(error) if error.is_syntax() || error.is_eof() => {
                    return Validation {
                        diagnostics: vec![syntax_diagnostic(text, &error)],
                        document: None,
                    };
                }
                Err(_) => {}
            }
        }
        self.validate_text_slow(text)
    }

    /// Validates with the compiled JSON Schema and the integrity rules over a
    /// `serde_json::Value`, reporting every violation.
    /// Tests use it to check that both paths agree.
    #[doc(hidden)]
    pub fn validate_slow<'a>(&self, source: &'a [u8]) -> Validation<'a> {
        match preflight(source) {
            Ok(text) => self.validate_text_slow(text),
            Err(diagnostic) => Validation {
                diagnostics: vec![diagnostic],
                document: None,
            },
        }
    }

    fn validate_text_slow<'a>(&self, text: &'a str) -> Validation<'a> {
        let mut value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(error) => {
                return Validation {
                    diagnostics: vec![syntax_diagnostic(text, &error)],
                    document: None,
                };
            }
        };
        if self.variant == Variant::OpenAiStrict {
            drop_nulls(&mut value);
        }
        let mut findings: Vec<Finding> = duplicate_keys(text)
            .into_iter()
            .map(|(pointer, offset)| {
                let key = pointer.rsplit('/').next().unwrap_or_default().to_owned();
                Finding {
                    rule: "duplicate-key",
                    pointer,
                    message: format!("duplicate key `{key}`; each property may appear only once"),
                    offset: Some(offset),
                }
            })
            .collect();
        for error in self.compiled().1.iter_errors(&value) {
            self.schema_findings(&error, &mut findings);
        }
        findings.extend(integrity_view(&View::from_value(&value)));
        if findings.is_empty() {
            // Valid after normalisation: the typed parse cannot fail, but stay honest if it does.
            match PromptSet::deserialize(value) {
                Ok(set) => {
                    return Validation {
                        diagnostics: Vec::new(),
                        document: Some(set),
                    };
                }
                Err(error) => findings.push(Finding::at("schema", "", error.to_string())),
            }
        }
        Validation {
            diagnostics: place(text, findings),
            document: None,
        }
    }

    fn schema_findings(&self, error: &jsonschema::ValidationError<'_>, out: &mut Vec<Finding>) {
        use jsonschema::error::ValidationErrorKind as Kind;
        let pointer = error.instance_path().as_str().to_owned();
        match error.kind() {
            Kind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                out.push(Finding::at(
                    "required",
                    pointer,
                    format!("missing required property `{name}`"),
                ));
            }
            Kind::AdditionalProperties { unexpected } => {
                let allowed = self.allowed_properties(error.schema_path().as_str());
                for name in unexpected {
                    out.push(Finding::at(
                        "unknown-property",
                        format!("{pointer}/{}", escape_token(name)),
                        format!("unknown property `{name}`; allowed here: {allowed}"),
                    ));
                }
            }
            Kind::Enum { options } => {
                let allowed = match options.as_ref() {
                    Value::Array(values) => values
                        .iter()
                        .map(|v| format!("`{}`", display_value(v)))
                        .collect::<Vec<_>>(),
                    other => vec![format!("`{}`", display_value(other))],
                };
                out.push(Finding::at(
                    "enum",
                    pointer.clone(),
                    format!(
                        "`{}` is not an allowed value for `{}`; expected one of {}",
                        display_value(error.instance()),
                        field_name(&pointer),
                        allowed.join(", ")
                    ),
                ));
            }
            Kind::Type { kind } => {
                let expected = match kind {
                    jsonschema::error::TypeKind::Single(t) => describe_type(&t.to_string()),
                    jsonschema::error::TypeKind::Multiple(set) => set
                        .iter()
                        .map(|t| describe_type(&t.to_string()))
                        .collect::<Vec<_>>()
                        .join(" or "),
                };
                out.push(Finding::at(
                    "type",
                    pointer,
                    format!(
                        "expected {expected}, found {}",
                        describe_value(error.instance())
                    ),
                ));
            }
            Kind::MinItems { limit } => {
                let noun = if *limit == 1 { "item" } else { "items" };
                out.push(Finding::at(
                    "min-items",
                    pointer.clone(),
                    format!(
                        "`{}` must hold at least {limit} {noun}",
                        field_name(&pointer)
                    ),
                ));
            }
            _ => out.push(Finding::at("schema", pointer, error.to_string())),
        }
    }

    /// The property names an object schema allows, for the hint on unknown properties.
    fn allowed_properties(&self, schema_path: &str) -> String {
        let parent = schema_path
            .strip_suffix("/additionalProperties")
            .unwrap_or(schema_path);
        match self
            .compiled()
            .0
            .pointer(parent)
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
        {
            Some(properties) => properties
                .keys()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", "),
            None => "none".to_owned(),
        }
    }
}

/// Rejects what is not JSON text before any parsing: empty input, a byte-order mark,
/// invalid UTF-8.
fn preflight(source: &[u8]) -> Result<&str, Diagnostic> {
    let whole = |rule, message: String| Diagnostic {
        rule,
        severity: Severity::Error,
        pointer: String::new(),
        message,
        line: 1,
        column: 1,
    };
    if source.starts_with(b"\xEF\xBB\xBF") {
        return Err(whole(
            "bom",
            "the file starts with a UTF-8 byte-order mark, which JSON text must not have (hint: save it as UTF-8 without BOM)".into(),
        ));
    }
    let text = match std::str::from_utf8(source) {
        Ok(text) => text,
        Err(error) => {
            let valid = error.valid_up_to();
            // The prefix up to the bad byte is valid UTF-8 by definition.
            let prefix = std::str::from_utf8(&source[..valid]).unwrap_or_default();
            let (line, column) = Locator::new(prefix).position(valid);
            return Err(Diagnostic {
                rule: "encoding",
                severity: Severity::Error,
                pointer: String::new(),
                message: format!("invalid UTF-8 at byte {valid}; JSON text must be UTF-8"),
                line,
                column,
            });
        }
    };
    if text.trim_ascii().is_empty() {
        return Err(whole(
            "empty",
            "the file is empty; expected a JSON object".into(),
        ));
    }
    Ok(text)
}

fn syntax_diagnostic(text: &str, error: &serde_json::Error) -> Diagnostic {
    let full = error.to_string();
    let message = match full.rfind(" at line ") {
        Some(cut) => &full[..cut],
        None => &full,
    };
    let message = match message {
        "recursion limit exceeded" => "nesting is too deep (more than 128 levels)".to_owned(),
        "EOF while parsing a value"
        | "EOF while parsing an object"
        | "EOF while parsing a list"
        | "EOF while parsing a string" => {
            format!(
                "unexpected end of file ({}); the JSON text is cut off",
                message.trim_start_matches("EOF ").to_owned()
            )
        }
        "expected value" => match char_at(text, error.line(), error.column()) {
            Some('/') => "expected a value; comments are not allowed in JSON".to_owned(),
            Some('\'') => "expected a value; strings must use double quotes".to_owned(),
            Some(c) => format!("expected a value, found `{c}`"),
            None => "expected a value".to_owned(),
        },
        other => other.to_owned(),
    };
    Diagnostic {
        rule: "syntax",
        severity: Severity::Error,
        pointer: String::new(),
        message: format!("invalid JSON: {message}"),
        line: error.line().max(1),
        column: error.column().max(1),
    }
}

/// The character at a 1-based line and column as serde_json counts them (bytes).
fn char_at(text: &str, line: usize, column: usize) -> Option<char> {
    let line_text = text.split('\n').nth(line.checked_sub(1)?)?;
    line_text.get(column.checked_sub(1)?..)?.chars().next()
}

/// Gives every finding its line:column (one pass over the source for all of them) and
/// sorts them into source order.
fn place(text: &str, findings: Vec<Finding>) -> Vec<Diagnostic> {
    let locator = Locator::new(text);
    let pointers: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
    let offsets = locator.offsets(&pointers);
    let mut diagnostics: Vec<(usize, Diagnostic)> = findings
        .into_iter()
        .zip(offsets)
        .map(|(finding, located)| {
            let offset = finding.offset.unwrap_or(located);
            let (line, column) = locator.position(offset);
            (
                offset,
                Diagnostic {
                    rule: finding.rule,
                    severity: Severity::Error,
                    pointer: finding.pointer,
                    message: finding.message,
                    line,
                    column,
                },
            )
        })
        .collect();
    diagnostics.sort_by(|(a, da), (b, db)| a.cmp(b).then_with(|| da.rule.cmp(db.rule)));
    diagnostics.into_iter().map(|(_, d)| d).collect()
}

fn min_items(set: &PromptSet<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    if set.topic_map.is_empty() {
        findings.push(Finding::at(
            "min-items",
            "/topic_map",
            "`topic_map` must hold at least 1 item",
        ));
    }
    if set.prompts.is_empty() {
        findings.push(Finding::at(
            "min-items",
            "/prompts",
            "`prompts` must hold at least 1 item",
        ));
    }
    findings
}

/// The integrity rules alone, for a document that already passed the schema; with the
/// source text the findings get positions, without it they have line and column 0.
pub fn integrity(set: &PromptSet<'_>, source: Option<&str>) -> Vec<Diagnostic> {
    let findings = integrity_view(&View::from_set(set));
    match source {
        Some(text) => place(text, findings),
        None => findings
            .into_iter()
            .map(|f| Diagnostic {
                rule: f.rule,
                severity: Severity::Error,
                pointer: f.pointer,
                message: f.message,
                line: 0,
                column: 0,
            })
            .collect(),
    }
}

/// `(index, prompt, topic, topic_source, layer)` of one prompt, as the integrity rules see it.
type PromptView<'v> = (
    usize,
    &'v str,
    Option<&'v str>,
    Option<&'v str>,
    Option<&'v str>,
);

/// What the integrity rules look at, borrowed from either a typed set or a `Value`
/// (the latter leniently: parts the schema already rejected are simply absent).
#[derive(Default)]
struct View<'v> {
    /// `(index, topic, topic_source)` of each topic-map entry.
    topics: Vec<(usize, &'v str, Option<&'v str>)>,
    /// `(index, prompt, topic, topic_source, layer)` of each prompt.
    prompts: Vec<PromptView<'v>>,
    /// `(list name, entries)` of each priority list present.
    priority_lists: Vec<(&'static str, Vec<(usize, &'v str)>)>,
}

const PRIORITY_LISTS: [(&str, Option<Layer>); 4] = [
    ("top_topics", None),
    ("top_non_brand_discovery", Some(Layer::NonBrandDiscovery)),
    (
        "top_competitor_comparison",
        Some(Layer::CompetitorComparison),
    ),
    ("top_brand_defense", Some(Layer::BrandDefense)),
];

impl<'v> View<'v> {
    fn from_set(set: &'v PromptSet<'_>) -> Self {
        let topics = set
            .topic_map
            .iter()
            .enumerate()
            .map(|(i, t)| (i, t.topic.as_ref(), Some(t.topic_source.as_str())))
            .collect();
        let prompts = set
            .prompts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    i,
                    p.prompt.as_ref(),
                    Some(p.topic.as_ref()),
                    Some(p.topic_source.as_str()),
                    Some(p.layer.as_str()),
                )
            })
            .collect();
        let mut priority_lists = Vec::new();
        if let Some(lists) = &set.priority_lists {
            let all = [
                &lists.top_topics,
                &lists.top_non_brand_discovery,
                &lists.top_competitor_comparison,
                &lists.top_brand_defense,
            ];
            for ((name, _), list) in PRIORITY_LISTS.iter().zip(all) {
                if let Some(list) = list {
                    priority_lists.push((
                        *name,
                        list.iter()
                            .enumerate()
                            .map(|(i, s)| (i, s.as_str()))
                            .collect(),
                    ));
                }
            }
        }
        View {
            topics,
            prompts,
            priority_lists,
        }
    }

    fn from_value(value: &'v Value) -> Self {
        let str_at = |v: &'v Value, key: &str| v.get(key).and_then(Value::as_str);
        // Values the schema already rejected must not cascade into integrity errors.
        let source_at = |v: &'v Value| {
            str_at(v, "topic_source").filter(|s| TopicSource::ALL.iter().any(|t| t.as_str() == *s))
        };
        let layer_at = |v: &'v Value| {
            str_at(v, "layer").filter(|s| Layer::ALL.iter().any(|l| l.as_str() == *s))
        };
        let items = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default()
        };
        let topics = items("topic_map")
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((i, str_at(t, "topic")?, source_at(t))))
            .collect();
        let prompts = items("prompts")
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                Some((
                    i,
                    str_at(p, "prompt")?,
                    str_at(p, "topic"),
                    source_at(p),
                    layer_at(p),
                ))
            })
            .collect();
        let mut priority_lists = Vec::new();
        if let Some(lists) = value.get("priority_lists") {
            for (name, _) in PRIORITY_LISTS {
                if let Some(list) = lists.get(name).and_then(Value::as_array) {
                    let entries = list
                        .iter()
                        .enumerate()
                        .filter_map(|(i, s)| Some((i, s.as_str()?)))
                        .collect();
                    priority_lists.push((name, entries));
                }
            }
        }
        View {
            topics,
            prompts,
            priority_lists,
        }
    }
}

fn integrity_view(view: &View<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    // Topics are unique; the first definition wins for the checks below.
    let mut topics: HashMap<&str, (usize, Option<&str>)> =
        HashMap::with_capacity(view.topics.len());
    for &(index, topic, source) in &view.topics {
        if let Some((first, _)) = topics.get(topic) {
            findings.push(Finding::at(
                "integrity/duplicate-topic",
                format!("/topic_map/{index}/topic"),
                format!("topic `{topic}` is already defined at /topic_map/{first}"),
            ));
        } else {
            topics.insert(topic, (index, source));
        }
    }
    // Prompt texts by layer, for the priority lists.
    let mut prompt_layers: HashMap<&str, Vec<&str>> = HashMap::with_capacity(view.prompts.len());
    for &(index, prompt, topic, source, layer) in &view.prompts {
        if let Some(layer) = layer {
            let layers = prompt_layers.entry(prompt).or_default();
            if !layers.contains(&layer) {
                layers.push(layer);
            }
        }
        let Some(topic) = topic else { continue };
        match topics.get(topic) {
            None => findings.push(Finding::at(
                "integrity/unknown-topic",
                format!("/prompts/{index}/topic"),
                format!("topic `{topic}` is not defined in `topic_map`"),
            )),
            Some(&(topic_index, Some(expected))) => {
                if let Some(source) = source
                    && source != expected
                {
                    findings.push(Finding::at(
                        "integrity/topic-source-mismatch",
                        format!("/prompts/{index}/topic_source"),
                        format!(
                            "topic_source `{source}` differs from `{expected}` given for topic `{topic}` at /topic_map/{topic_index}"
                        ),
                    ));
                }
            }
            Some(_) => {}
        }
    }
    for (name, entries) in &view.priority_lists {
        let expected_layer = PRIORITY_LISTS
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, layer)| *layer);
        for &(index, entry) in entries {
            let pointer = format!("/priority_lists/{name}/{index}");
            match expected_layer {
                None => {
                    if !topics.contains_key(entry) {
                        findings.push(Finding::at(
                            "integrity/unknown-priority-topic",
                            pointer,
                            format!("`{}` in `top_topics` is not a topic of `topic_map`", shorten(entry)),
                        ));
                    }
                }
                Some(layer) => match prompt_layers.get(entry) {
                    None => findings.push(Finding::at(
                        "integrity/unknown-priority-prompt",
                        pointer,
                        format!("`{}` in `{name}` is not the text of any prompt", shorten(entry)),
                    )),
                    Some(layers) if !layers.contains(&layer.as_str()) => findings.push(Finding::at(
                        "integrity/priority-layer-mismatch",
                        pointer,
                        format!(
                            "prompt `{}` is in layer `{}`, but `{name}` lists `{layer}` prompts",
                            shorten(entry),
                            layers.join("`, `")
                        ),
                    )),
                    Some(_) => {}
                },
            }
        }
    }
    findings
}

/// Removes every object member whose value is `null` (how `openai-strict` answers
/// spell an absent optional field).
pub fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

fn field_name(pointer: &str) -> String {
    let mut tokens = crate::locate::pointer_tokens(pointer);
    while tokens.last().is_some_and(|t| t.parse::<usize>().is_ok()) {
        tokens.pop();
    }
    tokens.pop().unwrap_or_else(|| "document".to_owned())
}

fn describe_type(name: &str) -> String {
    match name {
        "object" => "an object".into(),
        "array" => "an array".into(),
        "integer" => "an integer".into(),
        other => format!("a {other}"),
    }
}

fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("a boolean (`{b}`)"),
        Value::Number(n) => format!("a number (`{n}`)"),
        Value::String(s) => format!("a string (`{}`)", shorten(s)),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn display_value(value: &Value) -> String {
    match value {
        Value::String(s) => shorten(s),
        other => shorten(&other.to_string()),
    }
}

/// Keeps messages readable when a value is long.
fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

/// Every rule `validate` can report, with a one-line description (for SARIF and docs).
pub const RULES: &[(&str, &str)] = &[
    ("empty", "the file is empty"),
    ("bom", "the file starts with a UTF-8 byte-order mark"),
    ("encoding", "the file is not valid UTF-8"),
    ("syntax", "the file is not well-formed JSON"),
    ("duplicate-key", "an object repeats a key"),
    ("required", "a required property is missing"),
    ("unknown-property", "a property the format does not define"),
    ("enum", "a value outside the allowed list"),
    ("type", "a value of the wrong JSON type"),
    ("min-items", "an array with fewer items than required"),
    ("schema", "another schema violation"),
    (
        "integrity/duplicate-topic",
        "a topic is defined twice in topic_map",
    ),
    (
        "integrity/unknown-topic",
        "a prompt names a topic that topic_map does not define",
    ),
    (
        "integrity/topic-source-mismatch",
        "a prompt's topic_source differs from its topic's",
    ),
    (
        "integrity/unknown-priority-topic",
        "top_topics names a topic that topic_map does not define",
    ),
    (
        "integrity/unknown-priority-prompt",
        "a priority list names a prompt text that does not exist",
    ),
    (
        "integrity/priority-layer-mismatch",
        "a priority list names a prompt of another layer",
    ),
];
