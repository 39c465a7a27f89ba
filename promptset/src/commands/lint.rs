//! `promptset lint`: quality rules and the 100-point scorecard over files, directories
//! and stdin, in parallel. Documents that fail validation get their validation errors
//! instead; `--min-score` turns the scorecard into a CI gate.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use promptset::diagnostic::rules::{self, Category, MIN_SCORE};
use promptset::diagnostic::{Diagnostic, Rule, Severity};
use promptset::lint;
use promptset::output::{FileReport, Tool};
use promptset::validate::Validator;

use super::FormatArg;
use super::batch::{self, Batch};

/// Arguments of `promptset lint`.
#[derive(Debug, Args)]
#[command(
    after_help = "Every document is validated first (schema and integrity rules); invalid
documents get their validation errors and no score. Valid documents get the quality
rules (warnings, each with a stable rule id) and the scorecard: topic coverage 20,
layer balance 15, funnel coverage 15, business-model fit 20, prompt quality 15,
monitoring value 10, actionability 5.

Examples:
  promptset lint set.json
  promptset lint out/ --min-score 85
  promptset lint set.json --format json -o lint.json
  promptset lint --list-rules
  cat set.json | promptset lint - --format github

Exit codes: 0 all valid (and at or above --min-score), 1 some document is invalid or
scores below --min-score, 2 a path could not be read or usage error."
)]
pub struct LintArgs {
    /// Files, directories (searched recursively for *.json) or `-` for stdin.
    #[arg(required_unless_present = "list_rules", value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print every rule lint may report (id, what it checks, what to do): document and
    /// integrity errors, quality warnings and the `min-score` gate; then exit.
    #[arg(long, conflicts_with = "paths")]
    pub list_rules: bool,
    /// Output format; `text` and `json` include the scorecard.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// Fail (exit 1) when any document scores below N (0-100); the file gets a
    /// `min-score` error in every format.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: Option<u32>,
    /// Write the report to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print nothing on stderr (no summary line, no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `promptset lint`.
pub fn run(args: LintArgs) -> Result<ExitCode> {
    if args.list_rules {
        let mut text = String::new();
        for rule in lint_rules() {
            text.push_str(&format!(
                "{}\n    {}\n    fix: {}\n",
                rule.id, rule.summary, rule.help
            ));
        }
        crate::io::write_output(args.output.as_deref(), text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let validator = Validator::default();
    let rules = lint_rules();
    let batch = Batch {
        paths: &args.paths,
        format: args.format.into(),
        output: args.output.as_deref(),
        quiet: args.quiet,
    };
    let tool = Tool::scored("promptset lint", &rules, args.min_score);
    batch::run(&batch, tool, |name, bytes| {
        lint_document(&validator, name, bytes, args.min_score)
    })
}

/// Validates one document and, when it is valid, lints and scores it.
fn lint_document(
    validator: &Validator,
    name: &str,
    bytes: &[u8],
    min_score: Option<u32>,
) -> FileReport {
    let validation = validator.validate(bytes);
    let Some(set) = validation.document else {
        return FileReport::new(name, validation.diagnostics);
    };
    // Validation succeeded, so the bytes are UTF-8; the fallback only drops positions.
    let source = std::str::from_utf8(bytes).ok();
    let linted = lint::lint(&set, source);
    let mut diagnostics = linted.diagnostics;
    if let Some(min) = min_score {
        let score = linted.scorecard.overall_score;
        if score < min {
            diagnostics.insert(
                0,
                Diagnostic::whole(
                    MIN_SCORE,
                    Severity::Error,
                    format!("the prompt set scores {score}/100, below the minimum of {min}"),
                ),
            );
        }
    }
    FileReport {
        path: name.to_owned(),
        diagnostics,
        scorecard: Some(linted.scorecard),
    }
}

/// Every rule `lint` may report: document and integrity errors (of invalid documents),
/// the quality warnings and the `min-score` gate.
pub fn lint_rules() -> Vec<&'static Rule> {
    rules::of(&[
        Category::Document,
        Category::Integrity,
        Category::Lint,
        Category::Gate,
    ])
}
