//! Every rule a finding may carry, of one type, in one catalogue.
//!
//! A [`Rule`] has a stable id (printed with every finding, used by SARIF and by
//! `promptset lint --list-rules`), a [`Category`], a default [`Severity`], a one-line
//! summary of what it checks and a help text saying what to do.
//!
//! Where a new rule goes:
//! - a problem with the bytes, the syntax or the schema of any document: [`DOCUMENT`]
//!   below (the checks are in [`super::source`] and [`super::schema`]);
//! - a cross-reference inside a valid prompt set that `validate` must refuse:
//!   `validate::INTEGRITY_RULES` in `validate.rs`, beside its check;
//! - a quality warning of `promptset lint`: `lint::RULES` in `lint/mod.rs` (its check
//!   goes in `lint/rules.rs`, or `lint/misfit.rs` for the wording of single prompts);
//! - a gate that turns a run into a failure: [`GATES`] below;
//! - a check of a skill folder: `skill::rules::SKILL_RULES` in `skill/rules.rs`.
//!
//! [`catalogue`] chains them all; a test keeps the ids unique.

use super::Severity;

/// What part of the pipeline a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Bytes, syntax and schema of any document (brief or prompt set).
    Document,
    /// Cross-references a valid prompt set must keep (`validate` errors).
    Integrity,
    /// Quality warnings of `promptset lint`.
    Lint,
    /// Thresholds that fail a run (`--min-score`).
    Gate,
    /// The registry's rules for a skill folder (`promptset skill pack`).
    Skill,
}

impl Category {
    /// The lowercase name, used as a SARIF tag.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Document => "document",
            Category::Integrity => "integrity",
            Category::Lint => "lint",
            Category::Gate => "gate",
            Category::Skill => "skill",
        }
    }
}

/// One rule: stable id, category, default severity, what it checks, what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable id printed with every finding, e.g. `required` or `tautology`.
    pub id: &'static str,
    /// Where in the pipeline it is checked.
    pub category: Category,
    /// How serious its findings are.
    pub severity: Severity,
    /// What the rule checks, in one sentence.
    pub summary: &'static str,
    /// What to do when it fires, as an instruction.
    pub help: &'static str,
}

impl Rule {
    /// A rule whose findings are errors.
    pub const fn error(
        id: &'static str,
        category: Category,
        summary: &'static str,
        help: &'static str,
    ) -> Rule {
        Rule {
            id,
            category,
            severity: Severity::Error,
            summary,
            help,
        }
    }

    /// A rule whose findings are warnings.
    pub const fn warning(
        id: &'static str,
        category: Category,
        summary: &'static str,
        help: &'static str,
    ) -> Rule {
        Rule {
            id,
            category,
            severity: Severity::Warning,
            summary,
            help,
        }
    }
}

const fn document(id: &'static str, summary: &'static str, help: &'static str) -> Rule {
    Rule::error(id, Category::Document, summary, help)
}

/// The rules of reading any document: preflight, syntax and schema.
pub const DOCUMENT: &[Rule] = &[
    document(
        "empty",
        "the document is empty",
        "write the document as one JSON (or, for a brief, YAML) object",
    ),
    document(
        "bom",
        "a JSON document starts with a UTF-8 byte-order mark",
        "save the file as UTF-8 without BOM",
    ),
    document(
        "encoding",
        "the document is not valid UTF-8",
        "save the file as UTF-8",
    ),
    document(
        "syntax",
        "the document is not well-formed JSON (or YAML, for a brief)",
        "fix the syntax at the position given; the message says what the parser expected",
    ),
    document(
        "duplicate-key",
        "an object repeats a key",
        "keep one of the repeated keys; parsers disagree on which one wins",
    ),
    document(
        "required",
        "a required field is missing",
        "add the field; `promptset schema` lists what each object requires",
    ),
    document(
        "unknown-property",
        "a field the format does not define",
        "remove the field or fix its spelling; the message lists the fields allowed there",
    ),
    document(
        "enum",
        "a value outside the allowed list",
        "use one of the values the message lists",
    ),
    document(
        "type",
        "a value of the wrong type",
        "write the value as the type the message names",
    ),
    document(
        "min-items",
        "a list with fewer items than required",
        "add items to the list",
    ),
    document(
        "min-length",
        "an empty text where one is required",
        "write the text, or leave an optional field out",
    ),
    document(
        "schema",
        "another schema violation",
        "compare the value with `promptset schema`",
    ),
];

/// The id of the gate `promptset lint --min-score` adds to a file that scores too low.
pub const MIN_SCORE: &str = "min-score";

/// Gates that turn a run into a failure.
pub const GATES: &[Rule] = &[Rule::error(
    MIN_SCORE,
    Category::Gate,
    "the prompt set scores below `--min-score`",
    "fix the findings the scorecard lists under `fix next`, or lower `--min-score`",
)];

/// Every rule, in the order findings at one place are listed: document rules first,
/// then integrity, lint (most important first), gates and skill rules.
pub fn catalogue() -> impl Iterator<Item = &'static Rule> {
    DOCUMENT
        .iter()
        .chain(crate::validate::INTEGRITY_RULES)
        .chain(crate::lint::RULES)
        .chain(GATES)
        .chain(crate::skill::rules::SKILL_RULES)
}

/// The rules of the given categories, in catalogue order.
pub fn of(categories: &[Category]) -> Vec<&'static Rule> {
    catalogue()
        .filter(|rule| categories.contains(&rule.category))
        .collect()
}

/// The rule with id `id`.
pub fn find(id: &str) -> Option<&'static Rule> {
    catalogue().find(|rule| rule.id == id)
}

/// The catalogue position of `id` (unknown ids last), to order findings at one place.
pub fn rank(id: &str) -> usize {
    catalogue()
        .position(|rule| rule.id == id)
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_across_the_catalogue() {
        let mut ids: Vec<&str> = catalogue().map(|rule| rule.id).collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "a rule id is declared twice");
    }

    #[test]
    fn every_rule_says_what_it_checks_and_what_to_do() {
        for rule in catalogue() {
            assert!(!rule.summary.is_empty(), "{} has no summary", rule.id);
            assert!(!rule.help.is_empty(), "{} has no help", rule.id);
        }
    }
}
