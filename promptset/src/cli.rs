//! The command line: clap types only. Each command's arguments live beside its code in
//! `commands/`.

use clap::{Parser, Subcommand};

use crate::commands;

const EXAMPLES: &str = "\
Examples:
  promptset generate --brief fixtures/briefs/saas-analytics.json -o set.json
  promptset validate set.json fixtures/valid/ --format github
  promptset lint set.json --min-score 85
  promptset report set.json --format csv --table prompts --bom -o prompts.csv
  promptset report set.json --format html -o report.html
  promptset schema --variant openai-strict
  promptset skill init geo-prompts && promptset skill publish geo-prompts --registry URL

Exit codes: 0 success, 1 invalid input or failed check, 2 usage, I/O or internal error.";

/// Topic-first prompt sets for generative engine optimization (GEO): generate them from a
/// client brief, validate them against a strict schema and integrity rules, lint their
/// quality and turn them into CSV, Markdown or HTML reports.
#[derive(Debug, Parser)]
#[command(name = "promptset", version, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the JSON Schema (draft 2020-12) derived from the format's Rust types.
    Schema(commands::schema::SchemaArgs),
    /// Validate prompt-set files against the schema and the integrity rules.
    Validate(commands::validate::ValidateArgs),
    /// Check the quality of prompt sets and score them out of 100.
    Lint(commands::lint::LintArgs),
    /// Build a prompt set from a client brief, with templates or an LLM.
    Generate(commands::generate::GenerateArgs),
    /// Turn a prompt set into CSV, Markdown or a self-contained HTML report.
    Report(commands::report::ReportArgs),
    /// Make, check and publish a prompt skill (SKILL.md, templates, schema, examples).
    Skill(commands::skill::SkillArgs),
}
