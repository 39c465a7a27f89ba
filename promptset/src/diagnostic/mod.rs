//! Findings about a document, shared by every command that checks one (`validate`,
//! `lint`, `generate` for briefs, `report`, `skill pack`).
//!
//! One path leads from bytes to findings, whatever the document:
//!
//! 1. [`source`]: preflight (encoding, byte-order mark, empty input), then parsing JSON
//!    or YAML into a `serde_json::Value` while keeping a way to find any value's
//!    line:column again ([`source::Positions`]);
//! 2. [`schema`]: a compiled JSON Schema whose errors become [`Finding`]s in one wording
//!    for briefs and prompt sets alike;
//! 3. the document's own rules (the integrity rules of [`crate::validate`], the quality
//!    rules of [`crate::lint`]) add more [`Finding`]s;
//! 4. [`source::Positions::place`] gives every finding its line:column and sorts them into
//!    source order, producing [`Diagnostic`]s, which [`crate::output`] renders.
//!
//! Every rule id a finding may carry is declared once, as a [`rules::Rule`], in the
//! catalogue of [`rules`]: a new rule goes into the list of its category there (or, for
//! a lint rule, into `lint::RULES`), and SARIF, `--list-rules` and the docs pick it up.

pub mod rules;
pub mod schema;
pub mod source;

use serde::Serialize;

pub use rules::{Category, Rule};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The document breaks the format or its integrity rules.
    Error,
    /// The document is valid but a quality rule flags it.
    Warning,
    /// Information only.
    Note,
}

impl Severity {
    /// The lowercase name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One finding in one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable rule id, e.g. `required` or `integrity/unknown-topic`.
    pub rule: &'static str,
    /// How serious it is.
    pub severity: Severity,
    /// JSON pointer (RFC 6901) to the offending value; empty for the whole document.
    pub pointer: String,
    /// A sentence for people: lowercase, no trailing period, values in backticks.
    pub message: String,
    /// 1-based line of the offending value in the source text.
    pub line: usize,
    /// 1-based column (in characters) of the offending value in the source text.
    pub column: usize,
}

impl Diagnostic {
    /// A finding about the whole document, placed at its start (1:1).
    pub fn whole(rule: &'static str, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity,
            pointer: String::new(),
            message: message.into(),
            line: 1,
            column: 1,
        }
    }
}

/// A finding before it has a position: rule, JSON pointer, message, and the byte offset
/// in the source when the check already knows it (duplicate keys do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Stable rule id, declared in [`rules`].
    pub rule: &'static str,
    /// JSON pointer of the value at fault.
    pub pointer: String,
    /// A sentence for people.
    pub message: String,
    /// Byte offset in the source, when known; otherwise the pointer is looked up.
    pub offset: Option<usize>,
}

impl Finding {
    /// A finding at `pointer`, positioned later by looking the pointer up.
    pub fn at(rule: &'static str, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Finding {
            rule,
            pointer: pointer.into(),
            message: message.into(),
            offset: None,
        }
    }
}
