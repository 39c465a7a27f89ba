//! `promptset validate`: the schema and the integrity rules over files, directories
//! and stdin, in parallel, with every finding placed by line:column and JSON pointer.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use promptset::diagnostic::rules::{self, Category};
use promptset::output::{FileReport, Format, Tool, render, summarize, summary_line};
use promptset::validate::Validator;
use rayon::prelude::*;

use super::FormatArg;
use super::schema::VariantArg;
use crate::io::{Input, collect_inputs, interactive};

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
    let (inputs, read_errors) = collect_inputs(&args.paths);
    let validator = Validator::new(args.variant.into());
    let progress = progress_bar(inputs.len(), args.quiet);
    let results: Vec<Result<FileReport>> = inputs
        .par_iter()
        .map(|input| {
            let report = check(&validator, input);
            progress.inc(1);
            report
        })
        .collect();
    progress.finish_and_clear();

    let mut reports = Vec::with_capacity(results.len());
    let mut errors = read_errors;
    for result in results {
        match result {
            Ok(report) => reports.push(report),
            Err(error) => errors.push(error),
        }
    }
    for error in &errors {
        report_error(error);
    }
    write_reports(args.format.into(), &reports, args.output.as_deref())?;
    let summary = summarize(&reports);
    if !args.quiet && args.format == FormatArg::Text {
        let rules = rules::of(&[Category::Document, Category::Integrity]);
        let line = summary_line(
            Tool::new("promptset validate", &rules),
            &reports,
            errors.len(),
        );
        #[expect(
            clippy::print_stderr,
            reason = "the summary is for people, not for the report"
        )]
        {
            eprintln!("{line}");
        }
    }
    Ok(if !errors.is_empty() {
        ExitCode::from(2)
    } else if summary.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn check(validator: &Validator, input: &Input) -> Result<FileReport> {
    let bytes = input.read()?;
    let validation = validator.validate(&bytes);
    Ok(FileReport::new(input.name(), validation.diagnostics))
}

/// Renders the reports to `-o FILE` or stdout.
pub fn write_reports(
    format: Format,
    reports: &[FileReport],
    output: Option<&std::path::Path>,
) -> Result<()> {
    let rules = rules::of(&[Category::Document, Category::Integrity]);
    let tool = Tool::new("promptset validate", &rules);
    match output {
        Some(path) if path != std::path::Path::new("-") => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("failed to create `{}`", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            render(format, tool, reports, &mut out)
                .and_then(|()| out.flush())
                .with_context(|| format!("failed to write `{}`", path.display()))
        }
        _ => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            render(format, tool, reports, &mut out)
                .and_then(|()| out.flush())
                .context("failed to write to stdout")
        }
    }
}

/// Prints an error that stops one input but not the run.
pub fn report_error(error: &anyhow::Error) {
    #[expect(clippy::print_stderr, reason = "errors go to stderr")]
    {
        eprintln!("error: {error:#}");
    }
}

/// A progress bar on a terminal for many files; hidden otherwise.
pub fn progress_bar(len: usize, quiet: bool) -> ProgressBar {
    if quiet || len < 20 || !interactive() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} files [{bar:30}] {per_sec} eta {eta}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}
