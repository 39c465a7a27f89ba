//! A compiled JSON Schema whose errors read as sentences, the same for every document.
//!
//! `jsonschema` is pinned and wrapped here (house style: 0.x crates behind our own
//! types), so its error kinds are translated in exactly one place. Briefs and prompt sets
//! both go through [`SchemaCheck::findings`], so a missing field, an unknown field or a
//! value of the wrong type is worded the same way whichever document it is in.

use serde_json::Value;

use super::Finding;
use crate::locate::{escape_token, pointer_tokens};

/// A compiled draft 2020-12 schema and the words its messages use.
pub struct SchemaCheck {
    schema: Value,
    compiled: jsonschema::Validator,
    /// How messages name the document itself, e.g. `the brief`.
    noun: &'static str,
}

impl SchemaCheck {
    /// Compiles `schema`; `noun` names the whole document in messages (`the brief`).
    ///
    /// # Panics
    ///
    /// When `schema` does not compile: our schemas are derived from our own types, so
    /// that is a bug caught by every test.
    pub fn new(schema: Value, noun: &'static str) -> Self {
        let compiled =
            jsonschema::draft202012::new(&schema).expect("a derived schema always compiles");
        SchemaCheck {
            schema,
            compiled,
            noun,
        }
    }

    /// The schema as JSON.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Appends one finding per schema violation in `value` (an unknown-fields error
    /// gives one finding per field).
    pub fn findings(&self, value: &Value, out: &mut Vec<Finding>) {
        for error in self.compiled.iter_errors(value) {
            self.translate(&error, out);
        }
    }

    fn translate(&self, error: &jsonschema::ValidationError<'_>, out: &mut Vec<Finding>) {
        use jsonschema::error::ValidationErrorKind as Kind;
        let pointer = error.instance_path().as_str().to_owned();
        match error.kind() {
            Kind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                out.push(Finding::at(
                    "required",
                    pointer,
                    format!("missing required field `{name}`"),
                ));
            }
            Kind::AdditionalProperties { unexpected } => {
                let allowed = self.allowed_fields(error.schema_path().as_str());
                for name in unexpected {
                    out.push(Finding::at(
                        "unknown-property",
                        format!("{pointer}/{}", escape_token(name)),
                        format!("unknown field `{name}`; allowed here: {allowed}"),
                    ));
                }
            }
            Kind::Enum { options } => {
                let allowed = match options.as_ref() {
                    Value::Array(values) => values
                        .iter()
                        .map(|v| format!("`{}`", display_value(v)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    other => format!("`{}`", display_value(other)),
                };
                let message = format!(
                    "`{}` is not an allowed value for {}; expected one of {allowed}",
                    display_value(error.instance()),
                    self.field(&pointer)
                );
                out.push(Finding::at("enum", pointer, message));
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
                let message = format!(
                    "{} must be {expected}, found {}",
                    self.subject(&pointer),
                    describe_value(error.instance())
                );
                out.push(Finding::at("type", pointer, message));
            }
            Kind::MinItems { limit } => {
                let message = min_items_message(&self.field(&pointer), *limit);
                out.push(Finding::at("min-items", pointer, message));
            }
            Kind::MinLength { .. } => {
                let message = format!("{} must not be empty", self.subject(&pointer));
                out.push(Finding::at("min-length", pointer, message));
            }
            _ => out.push(Finding::at("schema", pointer, error.to_string())),
        }
    }

    /// The field a pointer names, in backticks (array indexes skipped: the field of
    /// `/prompts/3` is `prompts`), or the document's noun for the root.
    fn field(&self, pointer: &str) -> String {
        field_name(pointer).map_or_else(|| self.noun.to_owned(), |name| format!("`{name}`"))
    }

    /// What a sentence about the value at `pointer` is about: the field, `each item of`
    /// the field for an array item, or the document's noun for the root.
    fn subject(&self, pointer: &str) -> String {
        let is_item = pointer
            .rsplit('/')
            .next()
            .is_some_and(|token| !pointer.is_empty() && token.parse::<usize>().is_ok());
        match field_name(pointer) {
            Some(name) if is_item => format!("each item of `{name}`"),
            Some(name) => format!("`{name}`"),
            None => self.noun.to_owned(),
        }
    }

    /// The field names the object schema at the error allows, for the hint on unknown
    /// fields.
    fn allowed_fields(&self, schema_path: &str) -> String {
        let parent = schema_path
            .strip_suffix("/additionalProperties")
            .unwrap_or(schema_path);
        match self
            .schema
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

/// The message of `min-items`, also used by checks that find it without the schema.
pub fn min_items_message(field: &str, limit: u64) -> String {
    let noun = if limit == 1 { "item" } else { "items" };
    format!("{field} must hold at least {limit} {noun}")
}

/// The last named token of a pointer (array indexes skipped); `None` for the root.
fn field_name(pointer: &str) -> Option<String> {
    let mut tokens = pointer_tokens(pointer);
    while tokens.last().is_some_and(|t| t.parse::<usize>().is_ok()) {
        tokens.pop();
    }
    tokens.pop()
}

fn describe_type(name: &str) -> String {
    match name {
        "object" => "an object".into(),
        "array" => "a list".into(),
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
        Value::Array(_) => "a list".into(),
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
pub fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use crate::brief::parse_brief;
    use crate::validate::Validator;

    /// The messages of a brief and of a prompt set must not drift apart again: the
    /// same kind of mistake reads the same in both.
    #[test]
    fn briefs_and_prompt_sets_word_the_same_mistake_the_same_way() {
        let brief = parse_brief(
            br#"{"brand_name": "Acme", "website_url": "https://acme.test", "business_model": "saas",
                 "target_markets": "UK", "target_customers": ["teams"], "colour": 1}"#,
            None,
        )
        .expect_err("invalid brief");
        let set = Validator::default().validate(
            br#"{"client_summary": {"brand_name": "Acme", "business_model": "saas",
                 "target_markets": "UK", "colour": 1}}"#,
        );
        let message = |diagnostics: &[crate::diagnostic::Diagnostic], rule: &str| {
            diagnostics
                .iter()
                .find(|d| d.rule == rule)
                .map(|d| d.message.clone())
                .unwrap_or_else(|| panic!("no `{rule}` in {diagnostics:#?}"))
        };
        assert_eq!(
            message(&brief, "type"),
            "`target_markets` must be a list, found a string (`UK`)"
        );
        assert_eq!(message(&brief, "type"), message(&set.diagnostics, "type"));
        assert!(
            message(&brief, "unknown-property")
                .starts_with("unknown field `colour`; allowed here: ")
        );
        assert!(
            message(&set.diagnostics, "unknown-property")
                .starts_with("unknown field `colour`; allowed here: ")
        );
        assert_eq!(
            message(&set.diagnostics, "required"),
            "missing required field `topic_map`"
        );
    }

    #[test]
    fn array_items_and_the_root_are_named_as_such() {
        let set = Validator::default().validate(b"[1, 2]");
        assert_eq!(
            set.diagnostics[0].message,
            "the document must be an object, found a list"
        );
        let brief = parse_brief(b"- a\n- b\n", None).expect_err("a list is no brief");
        assert_eq!(
            brief[0].message,
            "the brief must be an object, found a list"
        );
        let brief = parse_brief(
            br#"{"brand_name": "Acme", "website_url": "https://acme.test", "business_model": "saas",
                 "target_markets": ["UK", 7], "target_customers": ["teams"]}"#,
            None,
        )
        .expect_err("invalid brief");
        assert_eq!(
            brief[0].message,
            "each item of `target_markets` must be a string, found a number (`7`)"
        );
        assert_eq!(brief[0].pointer, "/target_markets/1");
    }
}
