//! The prompt sets inside a published skill: found, validated and linted with the
//! `promptset` library on publish, and the result kept with the version's scan.
//!
//! A file is a prompt set when it sits under `examples/` and is a `*.json` that is not a
//! brief (`*.brief.json`, the convention `promptset skill pack` follows), or when SKILL.md's
//! frontmatter names it in `promptsets:`. Each set is validated (schema and integrity
//! rules, every error with its JSON pointer and line:column) and, when valid, linted for
//! its 0-100 score. A version is `valid` when every set validates; one bad set makes it
//! `invalid`, which listings and search show and `validPromptSetsOnly` filters on.

use promptset::lint;
use promptset::report::{Table, write_csv};
use promptset::skill::pack::is_example_set;
use promptset::validate::Validator;
use serde::{Deserialize, Serialize};

/// Errors kept per set: enough to fix a file, small enough for every scan response.
const MAX_ERRORS_PER_SET: usize = 50;

/// `promptSets.status` of a version whose sets all validate.
pub const STATUS_VALID: &str = "valid";
/// `promptSets.status` of a version with at least one invalid set.
pub const STATUS_INVALID: &str = "invalid";

/// The prompt-set check of one version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromptSetsReport {
    /// [`STATUS_VALID`] or [`STATUS_INVALID`].
    pub status: String,
    /// How many sets were checked.
    pub checked: usize,
    /// How many of them are invalid.
    pub invalid: usize,
    /// One entry per set, in bundle order.
    pub sets: Vec<PromptSetCheck>,
}

impl PromptSetsReport {
    /// Whether every set validates.
    pub fn is_valid(&self) -> bool {
        self.invalid == 0
    }
}

/// The check of one prompt-set file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromptSetCheck {
    /// Path inside the skill.
    pub path: String,
    /// The document validates (schema and integrity rules).
    pub valid: bool,
    /// How many errors were found (the list keeps the first 50).
    pub error_count: usize,
    /// The errors, in source order.
    pub errors: Vec<PromptSetError>,
    /// The lint score, 0-100, of a valid set.
    pub lint_score: Option<u32>,
    /// How many lint warnings a valid set has.
    pub warning_count: usize,
}

/// One validation error of a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromptSetError {
    /// Stable rule id (`required`, `integrity/unknown-topic`, …).
    pub rule: String,
    /// JSON pointer of the offending value; empty for the whole document.
    pub pointer: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
    /// A sentence for people.
    pub message: String,
}

/// Whether `path` is a prompt set of the bundle: an example set, or declared by SKILL.md.
pub fn is_prompt_set(path: &str, declared: &[String]) -> bool {
    is_example_set(path) || declared.iter().any(|entry| declared_path(entry) == path)
}

fn declared_path(entry: &str) -> &str {
    entry.trim().trim_start_matches("./")
}

/// Checks every prompt set among `files` (path, bytes); `None` when the skill has none.
/// CPU-bound: call it off the async runtime for large bundles.
pub fn check<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    declared: &[String],
) -> Option<PromptSetsReport> {
    let files: Vec<(&str, &[u8])> = files.into_iter().collect();
    let validator = Validator::default();
    let mut sets: Vec<PromptSetCheck> = files
        .iter()
        .filter(|(path, _)| is_prompt_set(path, declared))
        .map(|(path, bytes)| check_one(&validator, path, bytes))
        .collect();
    for entry in declared {
        let path = declared_path(entry);
        if !files.iter().any(|(file, _)| *file == path) {
            sets.push(PromptSetCheck {
                path: path.to_owned(),
                valid: false,
                error_count: 1,
                errors: vec![PromptSetError {
                    rule: "declared-missing".into(),
                    pointer: String::new(),
                    line: 0,
                    column: 0,
                    message: format!(
                        "SKILL.md declares `{path}` in `promptsets` but the skill has no such file"
                    ),
                }],
                lint_score: None,
                warning_count: 0,
            });
        }
    }
    if sets.is_empty() {
        return None;
    }
    let invalid = sets.iter().filter(|set| !set.valid).count();
    Some(PromptSetsReport {
        status: if invalid == 0 {
            STATUS_VALID
        } else {
            STATUS_INVALID
        }
        .to_owned(),
        checked: sets.len(),
        invalid,
        sets,
    })
}

fn check_one(validator: &Validator, path: &str, bytes: &[u8]) -> PromptSetCheck {
    let validation = validator.validate(bytes);
    let Some(set) = validation.document else {
        let error_count = validation.diagnostics.len().max(1);
        let mut errors: Vec<PromptSetError> = validation
            .diagnostics
            .into_iter()
            .take(MAX_ERRORS_PER_SET)
            .map(|diagnostic| PromptSetError {
                rule: diagnostic.rule.to_owned(),
                pointer: diagnostic.pointer,
                line: diagnostic.line,
                column: diagnostic.column,
                message: diagnostic.message,
            })
            .collect();
        if errors.is_empty() {
            errors.push(PromptSetError {
                rule: "invalid".into(),
                pointer: String::new(),
                line: 0,
                column: 0,
                message: "the document is not a valid prompt set".into(),
            });
        }
        return PromptSetCheck {
            path: path.to_owned(),
            valid: false,
            error_count,
            errors,
            lint_score: None,
            warning_count: 0,
        };
    };
    let report = lint::lint(&set, None);
    PromptSetCheck {
        path: path.to_owned(),
        valid: true,
        error_count: 0,
        errors: Vec::new(),
        lint_score: Some(report.scorecard.overall_score),
        warning_count: report.diagnostics.len(),
    }
}

/// The CSV table a `table` query value names (`prompts` when absent).
pub fn csv_table(name: Option<&str>) -> Option<Table> {
    match name.map(str::to_ascii_lowercase).as_deref() {
        None | Some("prompts") => Some(Table::Prompts),
        Some("topics") => Some(Table::Topics),
        Some("priorities") => Some(Table::Priorities),
        Some("summary") => Some(Table::Summary),
        Some(_) => None,
    }
}

/// A stored prompt set as CSV, written by the same writer as `promptset report`; the
/// error is a sentence naming the first problems when the file is not a valid set.
pub fn to_csv(path: &str, bytes: &[u8], table: Table) -> Result<Vec<u8>, String> {
    let validation = Validator::default().validate(bytes);
    let Some(set) = validation.document else {
        let first: Vec<String> = validation
            .diagnostics
            .iter()
            .take(3)
            .map(|d| {
                format!(
                    "{}:{}: {} (at `{}`)",
                    d.line, d.column, d.message, d.pointer
                )
            })
            .collect();
        return Err(format!(
            "File \"{path}\" is not a valid prompt set: {}",
            if first.is_empty() {
                "it does not parse".to_owned()
            } else {
                first.join("; ")
            }
        ));
    };
    let mut out = Vec::with_capacity(bytes.len());
    write_csv(&set, table, false, &mut out).map_err(|error| error.to_string())?;
    Ok(out)
}

/// Reads a stored report; a damaged one reads as absent.
pub fn parse(text: &str) -> Option<PromptSetsReport> {
    serde_json::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_example_sets_and_declared_files_are_prompt_sets() {
        let declared = vec!["./sets/main.json".to_owned()];
        assert!(is_prompt_set("examples/a.json", &declared));
        assert!(!is_prompt_set("examples/a.brief.json", &declared));
        assert!(!is_prompt_set("schema/promptset.schema.json", &declared));
        assert!(is_prompt_set("sets/main.json", &declared));
    }

    #[test]
    fn an_invalid_set_and_a_missing_declared_file_make_the_version_invalid() {
        let files: [(&str, &[u8]); 2] = [
            ("examples/broken.json", b"{\"prompts\": 3}"),
            ("README.md", b"# hi"),
        ];
        let report = check(files, &["missing.json".to_owned()]).expect("sets found");
        assert_eq!(report.status, STATUS_INVALID);
        assert_eq!(report.checked, 2);
        assert_eq!(report.invalid, 2);
        let broken = &report.sets[0];
        assert!(!broken.valid);
        assert!(
            broken.errors.iter().all(|error| error.line >= 1),
            "{broken:?}"
        );
        assert_eq!(report.sets[1].errors[0].rule, "declared-missing");
        assert!(check([("SKILL.md", b"x".as_slice())], &[]).is_none());
    }
}
