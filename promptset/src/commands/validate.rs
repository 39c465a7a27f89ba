//! `promptset validate`: the schema and the integrity rules over files, directories
//! and stdin, in parallel, with every finding placed by line:column and JSON pointer.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use promptset::diagnostic::rules::{self, Category};
use promptset::output::{FileReport, Tool};
use promptset::validate::Validator;

use super::FormatArg;
use super::batch::{self, Batch};
use super::schema::VariantArg;

/// Arguments of `promptset validate`.
#[derive(Debug, Args)]
#[command(
    after_help = "Checks the strict schema (unknown properties, required fields, closed value lists,
non-empty topic_map and prompts) and the integrity rules: every prompt's topic exists in
topic_map with the same topic_source, topics are unique, and priority lists name real
topics and prompts of the right layer.

Examples:
  promptset validate set.json
  promptset validate out/ --format github
  cat set.json | promptset validate -
  promptset validate llm-answer.json --variant openai-strict
  promptset validate sets/ --format sarif -o promptset.sarif

Exit codes: 0 all valid, 1 some document is invalid, 2 a path could not be read or usage error."
)]
pub struct ValidateArgs {
    /// Files, directories (searched recursively for *.json) or `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// Accept documents produced under the `openai-strict` schema (absent optional
    /// fields written as null); the nulls are dropped before validation.
    #[arg(long, value_enum, default_value_t = VariantArg::Canonical)]
    pub variant: VariantArg,
    /// Write the report to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print nothing on stderr (no summary line, no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `promptset validate`.
pub fn run(args: ValidateArgs) -> Result<ExitCode> {
    let validator = Validator::new(args.variant.into());
    let rules = rules::of(&[Category::Document, Category::Integrity]);
    let batch = Batch {
        paths: &args.paths,
        format: args.format.into(),
        output: args.output.as_deref(),
        quiet: args.quiet,
    };
    batch::run(
        &batch,
        Tool::new("promptset validate", &rules),
        |name, bytes| FileReport::new(name, validator.validate(bytes).diagnostics),
    )
}
