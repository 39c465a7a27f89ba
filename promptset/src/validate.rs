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

use crate::diagnostic::schema::{SchemaCheck, min_items_message, shorten};
use crate::diagnostic::source::{self, PROMPT_SET, Positions};
use crate::diagnostic::{Category, Diagnostic, Finding, Rule, Severity};
use crate::locate::duplicate_keys;
use crate::model::{Layer, PromptSet, TopicSource};
use crate::schema::{Variant, schema};

/// A compiled validator for one schema variant; build it once and share it (it is `Sync`).
pub struct Validator {
    variant: Variant,
    /// The canonical schema, compiled on first use: valid canonical documents never
    /// need it, so a run over valid files never pays for it.
    compiled: std::sync::OnceLock<SchemaCheck>,
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

    fn invalid(diagnostics: Vec<Diagnostic>) -> Self {
        Validation {
            diagnostics,
            document: None,
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

    fn compiled(&self) -> &SchemaCheck {
        self.compiled
            .get_or_init(|| SchemaCheck::new(schema(Variant::Canonical), "the document"))
    }

    /// The variant this validator accepts.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Validates one document given as raw bytes.
    pub fn validate<'a>(&self, source: &'a [u8]) -> Validation<'a> {
        let text = match source::preflight(source, &PROMPT_SET) {
            Ok(text) => text,
            Err(diagnostic) => return Validation::invalid(vec![diagnostic]),
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
                    return Validation::invalid(
                        Positions::json(text).place(findings, Severity::Error),
                    );
                }
                Err(error) if error.is_syntax() || error.is_eof() => {
                    return Validation::invalid(vec![source::json_syntax(text, &error)]);
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
        match source::preflight(source, &PROMPT_SET) {
            Ok(text) => self.validate_text_slow(text),
            Err(diagnostic) => Validation::invalid(vec![diagnostic]),
        }
    }

    fn validate_text_slow<'a>(&self, text: &'a str) -> Validation<'a> {
        let mut value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(error) => return Validation::invalid(vec![source::json_syntax(text, &error)]),
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
                    message: format!("duplicate key `{key}`; each field may appear only once"),
                    offset: Some(offset),
                }
            })
            .collect();
        self.compiled().findings(&value, &mut findings);
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
        Validation::invalid(Positions::json(text).place(findings, Severity::Error))
    }
}

fn min_items(set: &PromptSet<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    if set.topic_map.is_empty() {
        findings.push(Finding::at(
            "min-items",
            "/topic_map",
            min_items_message("`topic_map`", 1),
        ));
    }
    if set.prompts.is_empty() {
        findings.push(Finding::at(
            "min-items",
            "/prompts",
            min_items_message("`prompts`", 1),
        ));
    }
    findings
}

/// The integrity rules alone, for a document that already passed the schema; with the
/// source text the findings get positions, without it they have line and column 0.
pub fn integrity(set: &PromptSet<'_>, source: Option<&str>) -> Vec<Diagnostic> {
    let findings = integrity_view(&View::from_set(set));
    Positions::json_or_unknown(source).place(findings, Severity::Error)
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

const fn integrity_rule(id: &'static str, summary: &'static str, help: &'static str) -> Rule {
    Rule::error(id, Category::Integrity, summary, help)
}

/// The integrity rules `validate` enforces on top of the schema (see
/// `diagnostic::rules` for the whole catalogue).
pub const INTEGRITY_RULES: &[Rule] = &[
    integrity_rule(
        "integrity/duplicate-topic",
        "a topic is defined twice in topic_map",
        "give every topic of `topic_map` its own name, or merge the two",
    ),
    integrity_rule(
        "integrity/unknown-topic",
        "a prompt names a topic that topic_map does not define",
        "add the topic to `topic_map` or correct the prompt's `topic`",
    ),
    integrity_rule(
        "integrity/topic-source-mismatch",
        "a prompt's topic_source differs from its topic's",
        "copy the topic's `topic_source` from `topic_map` onto the prompt",
    ),
    integrity_rule(
        "integrity/unknown-priority-topic",
        "top_topics names a topic that topic_map does not define",
        "list only topics of `topic_map` in `top_topics`",
    ),
    integrity_rule(
        "integrity/unknown-priority-prompt",
        "a priority list names a prompt text that does not exist",
        "copy the prompt's text exactly from `prompts` into the priority list",
    ),
    integrity_rule(
        "integrity/priority-layer-mismatch",
        "a priority list names a prompt of another layer",
        "move the prompt to the priority list of its own layer",
    ),
];
