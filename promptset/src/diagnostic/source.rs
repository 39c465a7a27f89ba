//! From bytes to a parsed value that still knows where each of its parts was written.
//!
//! [`preflight`] rejects what is not text before any parser sees it (invalid UTF-8, a
//! byte-order mark where the format forbids one, empty input); [`parse`] reads JSON or
//! YAML into a `serde_json::Value` together with its [`Positions`]; [`json_syntax`]
//! words serde_json's syntax errors for people. [`Positions::place`] then turns
//! [`Finding`]s into [`Diagnostic`]s with line:column, in source order.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Diagnostic, Finding, Severity, rules};
use crate::locate::{Locator, Position, escape_token};

/// What kind of document is being read, for the preflight's messages and its BOM policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentKind {
    /// How messages name the input, e.g. `the file` or `the brief`.
    pub noun: &'static str,
    /// The syntaxes the document may be written in, e.g. `JSON` or `JSON or YAML`.
    pub syntax: &'static str,
    /// Whether a UTF-8 byte-order mark is an error (JSON text must not have one) or is
    /// skipped (editors add it to YAML files and it carries no meaning there).
    pub reject_bom: bool,
}

/// A prompt set: JSON text, no byte-order mark.
pub const PROMPT_SET: DocumentKind = DocumentKind {
    noun: "the file",
    syntax: "JSON",
    reject_bom: true,
};

/// A client brief: JSON or YAML text; a byte-order mark is skipped.
pub const BRIEF: DocumentKind = DocumentKind {
    noun: "the brief",
    syntax: "JSON or YAML",
    reject_bom: false,
};

/// The syntax a document is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// JSON text.
    Json,
    /// YAML 1.2 text (one document).
    Yaml,
}

/// Checks that `source` is non-empty UTF-8 text, as `kind` demands, before any parsing.
pub fn preflight<'a>(source: &'a [u8], kind: &DocumentKind) -> Result<&'a str, Diagnostic> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let source = match source.strip_prefix(BOM) {
        Some(_) if kind.reject_bom => {
            return Err(Diagnostic::whole(
                "bom",
                Severity::Error,
                format!(
                    "{} starts with a UTF-8 byte-order mark, which {} text must not have (hint: save it as UTF-8 without BOM)",
                    kind.noun, kind.syntax
                ),
            ));
        }
        Some(rest) => rest,
        None => source,
    };
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
                message: format!(
                    "invalid UTF-8 at byte {valid}; {} text must be UTF-8",
                    kind.syntax
                ),
                line,
                column,
            });
        }
    };
    if text.trim_ascii().is_empty() {
        return Err(empty(kind));
    }
    Ok(text)
}

fn empty(kind: &DocumentKind) -> Diagnostic {
    Diagnostic::whole(
        "empty",
        Severity::Error,
        format!("{} is empty; expected a {} object", kind.noun, kind.syntax),
    )
}

/// Parses `text` as `syntax` into a value and the positions of its parts.
pub fn parse<'a>(
    text: &'a str,
    syntax: Syntax,
    kind: &DocumentKind,
) -> Result<(Value, Positions<'a>), Diagnostic> {
    match syntax {
        Syntax::Json => match serde_json::from_str::<Value>(text) {
            Ok(value) => Ok((value, Positions::json(text))),
            Err(error) => Err(json_syntax(text, &error)),
        },
        Syntax::Yaml => {
            let (value, map) = yaml_to_value(text, kind)?;
            Ok((value, Positions::Yaml(map)))
        }
    }
}

/// Words a serde_json syntax error for people, at the position serde_json reports.
pub fn json_syntax(text: &str, error: &serde_json::Error) -> Diagnostic {
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
                message.trim_start_matches("EOF ")
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

/// Where the values of one document are written, to place findings by JSON pointer.
pub enum Positions<'a> {
    /// JSON text, scanned on demand (only when there is something to report).
    Json(Locator<'a>),
    /// YAML text, whose parser reports every node's position as it reads it.
    Yaml(HashMap<String, Position>),
    /// No source text: findings get line and column 0 and keep their order.
    Unknown,
}

impl<'a> Positions<'a> {
    /// The positions of JSON text.
    pub fn json(text: &'a str) -> Self {
        Positions::Json(Locator::new(text))
    }

    /// The positions of JSON text when there is one; [`Positions::Unknown`] otherwise.
    pub fn json_or_unknown(text: Option<&'a str>) -> Self {
        text.map_or(Positions::Unknown, Positions::json)
    }

    /// The line:column of the value at `pointer`, or of its deepest written ancestor.
    pub fn locate(&self, pointer: &str) -> Position {
        match self {
            Positions::Json(locator) => locator.locate(pointer),
            Positions::Yaml(map) => yaml_locate(map, pointer),
            Positions::Unknown => (0, 0),
        }
    }

    /// Gives every finding its line:column and `severity`, in source order (findings at
    /// the same place in the catalogue's rule order, then in the order they were found).
    pub fn place(&self, findings: Vec<Finding>, severity: Severity) -> Vec<Diagnostic> {
        let positions: Vec<Position> = match self {
            Positions::Json(locator) => {
                // One pass over the source for all pointers.
                let pointers: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
                let offsets = locator.offsets(&pointers);
                findings
                    .iter()
                    .zip(offsets)
                    .map(|(finding, found)| locator.position(finding.offset.unwrap_or(found)))
                    .collect()
            }
            Positions::Yaml(map) => findings
                .iter()
                .map(|f| yaml_locate(map, &f.pointer))
                .collect(),
            Positions::Unknown => vec![(0, 0); findings.len()],
        };
        let mut placed: Vec<(usize, Diagnostic)> = findings
            .into_iter()
            .zip(positions)
            .map(|(finding, (line, column))| {
                (
                    rules::rank(finding.rule),
                    Diagnostic {
                        rule: finding.rule,
                        severity,
                        pointer: finding.pointer,
                        message: finding.message,
                        line,
                        column,
                    },
                )
            })
            .collect();
        if !matches!(self, Positions::Unknown) {
            placed.sort_by_key(|(rank, d)| (d.line, d.column, *rank));
        }
        placed.into_iter().map(|(_, d)| d).collect()
    }
}

/// A missing target falls back to its deepest existing ancestor.
fn yaml_locate(map: &HashMap<String, Position>, pointer: &str) -> Position {
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

/// Converts YAML text to a JSON value, remembering the position of every value by pointer.
fn yaml_to_value(
    text: &str,
    kind: &DocumentKind,
) -> Result<(Value, HashMap<String, Position>), Diagnostic> {
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
        return Err(empty(kind));
    };
    if let Some(extra) = documents.next() {
        return Err(Diagnostic {
            rule: "syntax",
            severity: Severity::Error,
            pointer: String::new(),
            message: format!(
                "the YAML file holds more than one document; {} is one document",
                kind.noun
            ),
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
    positions: &mut HashMap<String, Position>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_an_error_in_json_and_skipped_in_briefs() {
        let text = b"\xEF\xBB\xBF{}";
        let error = preflight(text, &PROMPT_SET).expect_err("BOM in JSON");
        assert_eq!(error.rule, "bom");
        assert_eq!(preflight(text, &BRIEF).expect("BOM skipped"), "{}");
    }

    #[test]
    fn invalid_utf8_is_placed_at_the_bad_byte() {
        let error = preflight(b"{\n  \"a\": \"\xFF\"}", &PROMPT_SET).expect_err("bad UTF-8");
        assert_eq!(error.rule, "encoding");
        assert_eq!((error.line, error.column), (2, 9));
        assert_eq!(
            error.message,
            "invalid UTF-8 at byte 10; JSON text must be UTF-8"
        );
    }

    #[test]
    fn empty_input_names_the_document() {
        assert_eq!(
            preflight(b" \n", &BRIEF).expect_err("empty").message,
            "the brief is empty; expected a JSON or YAML object"
        );
        assert_eq!(
            preflight(b"", &PROMPT_SET).expect_err("empty").message,
            "the file is empty; expected a JSON object"
        );
    }

    #[test]
    fn json_and_yaml_place_the_same_pointer_at_the_value() {
        let json = "{\n  \"a\": [1, {\"b\": true}]\n}";
        let (_, positions) = parse(json, Syntax::Json, &BRIEF).expect("json");
        assert_eq!(positions.locate("/a/1/b"), (2, 18));
        let yaml = "a:\n  - 1\n  - b: true\n";
        let (value, positions) = parse(yaml, Syntax::Yaml, &BRIEF).expect("yaml");
        assert_eq!(value["a"][1]["b"], Value::Bool(true));
        assert_eq!(positions.locate("/a/1/b"), (3, 8));
        // A pointer to something absent falls back to its nearest written ancestor.
        assert_eq!(positions.locate("/a/1/missing"), (3, 5));
    }

    #[test]
    fn findings_come_out_in_source_order_then_catalogue_order() {
        let text = "{\"a\": 1, \"b\": 2}";
        let findings = vec![
            Finding::at("type", "/b", "second"),
            Finding::at("schema", "/a", "first, later rule"),
            Finding::at("required", "/a", "first, earlier rule"),
        ];
        let placed = Positions::json(text).place(findings, Severity::Error);
        let order: Vec<&str> = placed.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            order,
            ["first, earlier rule", "first, later rule", "second"]
        );
        assert_eq!((placed[2].line, placed[2].column), (1, 15));
    }
}
