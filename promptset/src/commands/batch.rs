//! The batch runner of `validate` and `lint`: expand the paths (files, directories
//! searched for `*.json`, `-` for stdin), check every input in parallel with a progress
//! bar on a terminal, render all reports with [`promptset::output`], print the summary
//! line, and turn the outcome into the exit code of `interfaces.md`: 0 all good, 1 some
//! document has an error, 2 some input could not be read.
//!
//! A command supplies only what differs: how one document is checked (a function from
//! name and bytes to a [`FileReport`]) and the [`Tool`] it reports as.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use promptset::output::{FileReport, Format, Tool, render, summarize, summary_line};
use rayon::prelude::*;

use crate::io::{collect_inputs, interactive};

/// What a batch run prints and where.
pub struct Batch<'a> {
    /// The command's paths as given.
    pub paths: &'a [PathBuf],
    /// How the reports are rendered.
    pub format: Format,
    /// `-o FILE`; stdout when absent or `-`.
    pub output: Option<&'a Path>,
    /// No summary line, no progress bar.
    pub quiet: bool,
}

/// Runs `check` over every input of `batch` and reports as `tool`.
pub fn run<F>(batch: &Batch<'_>, tool: Tool<'_>, check: F) -> Result<ExitCode>
where
    F: Fn(&str, &[u8]) -> FileReport + Sync,
{
    let (inputs, read_errors) = collect_inputs(batch.paths);
    let progress = progress_bar(inputs.len(), batch.quiet);
    let results: Vec<Result<FileReport>> = inputs
        .par_iter()
        .map(|input| {
            let report = input.read().map(|bytes| check(&input.name(), &bytes));
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
    write_reports(batch.format, tool, &reports, batch.output)?;
    if !batch.quiet && batch.format == Format::Text {
        let line = summary_line(tool, &reports, errors.len());
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
    } else if summarize(&reports).invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Renders the reports to `-o FILE` or stdout, streaming (a large run is never held
/// twice in memory).
fn write_reports(
    format: Format,
    tool: Tool<'_>,
    reports: &[FileReport],
    output: Option<&Path>,
) -> Result<()> {
    match output {
        Some(path) if path != Path::new("-") => {
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
fn report_error(error: &anyhow::Error) {
    #[expect(clippy::print_stderr, reason = "errors go to stderr")]
    {
        eprintln!("error: {error:#}");
    }
}

/// A progress bar on a terminal for many files; hidden otherwise.
fn progress_bar(len: usize, quiet: bool) -> ProgressBar {
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
