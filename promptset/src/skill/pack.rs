//! `skill pack`: reads a skill folder, checks everything the registry and a user of the
//! skill would trip over, and builds the exact bundle `skill publish` uploads.
//!
//! The checks: SKILL.md and its frontmatter; the registry's file rules (text only, sizes,
//! counts, paths, no symbolic links, no case-insensitive duplicates); the templates
//! compile; every example brief parses; every example prompt set validates (errors) and
//! lints (warnings, and an error below `min_score`). Every problem is collected, never
//! just the first, each with its file and line:column where there is one.
//!
//! Under `examples/`, files named `*.brief.json`, `*.brief.yaml` or `*.brief.yml` are
//! briefs; every other `*.json` is a prompt set.

use std::io::{Cursor, Write as _};
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::brief::parse_brief;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::rules::MIN_SCORE;
use crate::generate::{GenerateError, Generator};
use crate::lint;
use crate::schema::{Variant, schema_text};
use crate::validate::Validator;

use super::frontmatter::{self, Frontmatter};
use super::rules::{
    self, MAX_BUNDLE_BYTES, MAX_FILE_BYTES, MAX_FILES, PathVerdict, fingerprint, is_text,
    locale_compare, sha256_hex,
};
use super::{Problem, SkillError};

/// One file of the bundle.
#[derive(Debug, Clone)]
pub struct BundleFile {
    /// Path relative to the skill folder, `/`-separated.
    pub path: String,
    /// The bytes as uploaded.
    pub bytes: Vec<u8>,
    /// Lowercase hex SHA-256 of the bytes.
    pub sha256: String,
}

/// A skill that passed every check: what `skill publish` uploads.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The frontmatter of SKILL.md.
    pub frontmatter: Frontmatter,
    /// Every published file, in the registry's (`localeCompare`) order.
    pub files: Vec<BundleFile>,
    /// The fingerprint `GET /api/v1/resolve` compares.
    pub fingerprint: String,
}

impl Bundle {
    /// Total size of the files.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|file| file.bytes.len() as u64).sum()
    }

    /// The bundle as a deterministic ZIP: the files at their paths (no wrapper folder),
    /// in `localeCompare` order, DEFLATE level 6, every time 1980-01-01, mode 0644 (the
    /// layout the registry serves downloads in).
    pub fn to_zip(&self) -> Result<Vec<u8>, SkillError> {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(6))
            .last_modified_time(DateTime::default())
            .unix_permissions(0o644);
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for file in &self.files {
            writer
                .start_file(file.path.as_str(), options)
                .map_err(|error| SkillError::Archive(format!("`{}`: {error}", file.path)))?;
            writer
                .write_all(&file.bytes)
                .map_err(|error| SkillError::Archive(format!("`{}`: {error}", file.path)))?;
        }
        writer
            .finish()
            .map(Cursor::into_inner)
            .map_err(|error| SkillError::Archive(error.to_string()))
    }
}

/// How strict `check` is.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// Example prompt sets scoring below this (0-100) are errors.
    pub min_score: Option<u32>,
}

/// The outcome of checking a skill folder.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The bundle, present only when there is no problem.
    pub bundle: Option<Bundle>,
    /// Everything that stops the skill from being published.
    pub problems: Vec<Problem>,
    /// Lint findings and other advice that does not stop it.
    pub warnings: Vec<Problem>,
    /// The lint score of every example prompt set, by path.
    pub scores: Vec<(String, u32)>,
}

/// Checks the skill folder `dir`. I/O failures on the folder itself are errors; anything
/// wrong with its contents is a [`Problem`].
pub fn check(dir: &Path, options: &CheckOptions) -> Result<Checked, SkillError> {
    let metadata = std::fs::metadata(dir).map_err(|source| SkillError::Io {
        action: "read",
        path: dir.to_path_buf(),
        source,
    })?;
    if !metadata.is_dir() {
        return Err(SkillError::Io {
            action: "read",
            path: dir.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder"),
        });
    }
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let mut files = Vec::new();
    walk(dir, "", &mut files, &mut problems)?;
    files.sort_by(|a, b| locale_compare(&a.path, &b.path));

    if files.len() > MAX_FILES {
        problems.push(Problem::file(
            rules::BUNDLE_LIMIT,
            ".",
            format!(
                "the skill has {} files; the registry takes at most {MAX_FILES}",
                files.len()
            ),
        ));
    }
    let total: u64 = files.iter().map(|file| file.bytes.len() as u64).sum();
    if total > MAX_BUNDLE_BYTES {
        problems.push(Problem::file(
            rules::BUNDLE_LIMIT,
            ".",
            format!(
                "the skill's files add up to {total} bytes; the registry takes at most {MAX_BUNDLE_BYTES} (50 MB)"
            ),
        ));
    }
    let mut seen = std::collections::HashMap::new();
    for file in &files {
        if let Some(first) = seen.insert(file.path.to_lowercase(), file.path.clone()) {
            problems.push(Problem::file(
                rules::FILE,
                &file.path,
                format!("the registry treats this path and `{first}` as the same file; rename one"),
            ));
        }
    }

    let skill_md = files.iter().find(|file| rules::is_skill_md(&file.path));
    let frontmatter = match skill_md {
        None => {
            problems.push(Problem::file(
                rules::FRONTMATTER,
                "SKILL.md",
                "the skill has no SKILL.md at its root; run `promptset skill init` to start one",
            ));
            None
        }
        Some(file) => match std::str::from_utf8(&file.bytes) {
            // Non-text SKILL.md is already reported by the text rule.
            Err(_) => None,
            Ok(text) => match frontmatter::parse(&file.path, text) {
                Ok(frontmatter) => Some(frontmatter),
                Err(found) => {
                    problems.extend(found);
                    None
                }
            },
        },
    };

    check_templates(dir, &files, &mut problems);
    check_schema(&files, &mut warnings);
    let scores = check_examples(&files, options, &mut problems, &mut warnings);

    problems.sort_by(|a, b| {
        locale_compare(&a.path, &b.path)
            .then(a.line.cmp(&b.line))
            .then(a.column.cmp(&b.column))
    });
    let bundle = match frontmatter {
        Some(frontmatter) if problems.is_empty() => {
            let fingerprint = fingerprint(
                files
                    .iter()
                    .map(|file| (file.path.as_str(), file.sha256.as_str())),
            );
            Some(Bundle {
                frontmatter,
                files,
                fingerprint,
            })
        }
        _ => None,
    };
    Ok(Checked {
        bundle,
        problems,
        warnings,
        scores,
    })
}

/// Collects every publishable file under `dir/prefix`, in name order.
fn walk(
    dir: &Path,
    prefix: &str,
    files: &mut Vec<BundleFile>,
    problems: &mut Vec<Problem>,
) -> Result<(), SkillError> {
    let folder = dir.join(prefix);
    let read_error = |source| SkillError::Io {
        action: "read",
        path: folder.clone(),
        source,
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(read_error)? {
        entries.push(entry.map_err(read_error)?);
    }
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            problems.push(Problem::file(
                rules::FILE,
                format!("{prefix}{}", name.to_string_lossy()),
                "the file name is not valid UTF-8",
            ));
            continue;
        };
        let path = format!("{prefix}{name}");
        match rules::judge_path(&path) {
            PathVerdict::Skip => continue,
            PathVerdict::Refuse(message) => {
                problems.push(Problem::file(rules::FILE, &path, message));
                continue;
            }
            PathVerdict::Publish => {}
        }
        let file_type = entry.file_type().map_err(|source| SkillError::Io {
            action: "read",
            path: entry.path(),
            source,
        })?;
        if file_type.is_symlink() {
            problems.push(Problem::file(
                rules::FILE,
                &path,
                "symbolic links are not published; copy the file into the skill instead",
            ));
        } else if file_type.is_dir() {
            walk(dir, &format!("{path}/"), files, problems)?;
        } else if file_type.is_file() {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if size > MAX_FILE_BYTES {
                problems.push(Problem::file(
                    rules::FILE,
                    &path,
                    format!("the file has {size} bytes; the registry takes at most {MAX_FILE_BYTES} (10 MB) per file"),
                ));
                continue;
            }
            let bytes = match std::fs::read(entry.path()) {
                Ok(bytes) => bytes,
                Err(error) => {
                    problems.push(Problem::file(
                        rules::FILE,
                        &path,
                        format!("cannot be read: {error}"),
                    ));
                    continue;
                }
            };
            if !is_text(&bytes) {
                problems.push(Problem::file(
                    rules::FILE,
                    &path,
                    "not a text file (the registry publishes only UTF-8 text without NUL bytes)",
                ));
                continue;
            }
            files.push(BundleFile {
                sha256: sha256_hex(&bytes),
                path,
                bytes,
            });
        } else {
            problems.push(Problem::file(
                rules::FILE,
                &path,
                "not a regular file or folder; it cannot be published",
            ));
        }
    }
    Ok(())
}

/// The templates under `templates/` compile, as `generate --templates` would load them.
fn check_templates(dir: &Path, files: &[BundleFile], problems: &mut Vec<Problem>) {
    if !files.iter().any(|file| file.path.starts_with("templates/")) {
        return;
    }
    match Generator::new(Some(&dir.join("templates"))) {
        Ok(_) => {}
        Err(GenerateError::Template {
            name,
            line,
            message,
        }) => problems.push(Problem {
            rule: rules::TEMPLATE,
            path: format!("templates/{name}"),
            line,
            column: 0,
            message: format!("the template does not compile: {message}"),
        }),
        Err(other) => problems.push(Problem::file(
            rules::TEMPLATE,
            "templates",
            other.to_string(),
        )),
    }
}

/// A schema file that differs from this build's schema is worth a warning: sets that
/// validate here might not validate against it.
fn check_schema(files: &[BundleFile], warnings: &mut Vec<Problem>) {
    let Some(file) = files
        .iter()
        .find(|file| file.path == "schema/promptset.schema.json")
    else {
        return;
    };
    if file.bytes != schema_text(Variant::Canonical).as_bytes() {
        warnings.push(Problem::file(
            rules::SCHEMA_DRIFT,
            &file.path,
            "differs from the schema of this promptset build; refresh it with `promptset schema > schema/promptset.schema.json`",
        ));
    }
}

/// Whether an `examples/` path names a brief rather than a prompt set.
pub fn is_example_brief(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".brief.json", ".brief.yaml", ".brief.yml"]
        .iter()
        .any(|suffix| lower.ends_with(suffix))
}

/// Whether an `examples/` path names a prompt set.
pub fn is_example_set(path: &str) -> bool {
    path.starts_with("examples/")
        && path.to_ascii_lowercase().ends_with(".json")
        && !is_example_brief(path)
}

fn check_examples(
    files: &[BundleFile],
    options: &CheckOptions,
    problems: &mut Vec<Problem>,
    warnings: &mut Vec<Problem>,
) -> Vec<(String, u32)> {
    let placed = |path: &str, diagnostic: Diagnostic| Problem {
        rule: diagnostic.rule,
        path: path.to_owned(),
        line: diagnostic.line,
        column: diagnostic.column,
        message: if diagnostic.pointer.is_empty() {
            diagnostic.message
        } else {
            format!("{} (at `{}`)", diagnostic.message, diagnostic.pointer)
        },
    };
    let validator = Validator::default();
    let mut scores = Vec::new();
    let mut sets = 0;
    for file in files
        .iter()
        .filter(|file| file.path.starts_with("examples/"))
    {
        if is_example_brief(&file.path) {
            if let Err(diagnostics) = parse_brief(&file.bytes, None) {
                problems.extend(diagnostics.into_iter().map(|d| placed(&file.path, d)));
            }
            continue;
        }
        if !is_example_set(&file.path) {
            continue;
        }
        sets += 1;
        let validation = validator.validate(&file.bytes);
        let Some(set) = validation.document else {
            problems.extend(
                validation
                    .diagnostics
                    .into_iter()
                    .map(|d| placed(&file.path, d)),
            );
            continue;
        };
        let source = std::str::from_utf8(&file.bytes).ok();
        let report = lint::lint(&set, source);
        let score = report.scorecard.overall_score;
        warnings.extend(
            report
                .diagnostics
                .into_iter()
                .map(|d| placed(&file.path, d)),
        );
        if let Some(min) = options.min_score
            && score < min
        {
            problems.push(Problem::file(
                MIN_SCORE,
                &file.path,
                format!("the prompt set scores {score}/100, below the minimum of {min}"),
            ));
        }
        scores.push((file.path.clone(), score));
    }
    if sets == 0 {
        problems.push(Problem::file(
            rules::EXAMPLES,
            "examples",
            "the skill has no example prompt set (`examples/*.json`); a prompt skill ships at least one",
        ));
    }
    scores
}
