//! Findings about a document, shared by `validate` and `lint`.
//!
//! A [`Diagnostic`] carries everything every output format needs: the file, the
//! JSON pointer, the line:column of the offending value, a stable rule id, a
//! severity and a sentence for people.

use serde::Serialize;

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
