//! `promptset report`: CSV tables, Markdown and the HTML report of one prompt set.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use promptset::PromptSet;
use promptset::diagnostic::rules::{self, Category};
use promptset::output::{FileReport, Format, Tool, render};
use promptset::report::{Table, write_csv, write_markdown};
use promptset::schema::Variant;
use promptset::validate::Validator;

use crate::io::Input;

/// Arguments of `promptset report`.
#[derive(Debug, Args)]
#[command(
    after_help = "CSV follows RFC 4180 (CRLF line ends, quotes where needed). Cells that a spreadsheet
would run as a formula (starting with =, +, -, @, tab or CR) get a leading apostrophe.
Documents written under the openai-strict schema (absent fields as null) are accepted.

Examples:
  promptset report set.json                          # prompts table as CSV on stdout
  promptset report set.json --table summary --bom -o summary.csv
  promptset report set.json --format markdown -o set.md
  promptset report set.json --format html -o report.html

Exit codes: 0 written, 1 the document is invalid, 2 usage or I/O error."
)]
pub struct ReportArgs {
    /// The prompt-set file, or `-` for stdin.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// Report format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Csv)]
    pub format: ReportFormat,
    /// Which table to write as CSV.
    #[arg(long, value_enum, default_value_t = TableArg::Prompts)]
    pub table: TableArg,
    /// Start the CSV with a UTF-8 byte-order mark, so Excel reads it as UTF-8.
    #[arg(long)]
    pub bom: bool,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--format` of `report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// One CSV table (see `--table`).
    Csv,
    /// A self-contained HTML page with charts, the scorecard and a filterable prompt table.
    Html,
    /// A Markdown report.
    Markdown,
}

/// `--table` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableArg {
    /// One row per prompt: the 15 prompt fields in the format's order.
    Prompts,
    /// One row per topic of the topic map, with its prompt count.
    Topics,
    /// One row per entry of each priority list.
    Priorities,
    /// Prompt counts per topic by layer × funnel stage, with totals.
    Summary,
}

impl From<TableArg> for Table {
    fn from(value: TableArg) -> Self {
        match value {
            TableArg::Prompts => Table::Prompts,
            TableArg::Topics => Table::Topics,
            TableArg::Priorities => Table::Priorities,
            TableArg::Summary => Table::Summary,
        }
    }
}

/// Runs `promptset report`.
pub fn run(args: ReportArgs) -> Result<ExitCode> {
    let input = Input::from_arg(&args.path);
    let bytes = input.read()?;
    let name = input.name();
    let set = match load(&bytes, &name)? {
        Some(set) => set,
        None => return Ok(ExitCode::from(1)),
    };
    let mut out: Box<dyn Write> = match args.output.as_deref() {
        Some(path) if path != std::path::Path::new("-") => {
            Box::new(std::io::BufWriter::with_capacity(
                1 << 20,
                std::fs::File::create(path)
                    .with_context(|| format!("failed to create `{}`", path.display()))?,
            ))
        }
        _ => Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            std::io::stdout().lock(),
        )),
    };
    let target = args
        .output
        .as_ref()
        .map_or_else(|| "stdout".to_owned(), |p| format!("`{}`", p.display()));
    match args.format {
        ReportFormat::Csv => write_csv(&set, args.table.into(), args.bom, &mut out),
        ReportFormat::Markdown => write_markdown(&set, &name, &mut out),
        ReportFormat::Html => promptset::html::render(&set, &name)
            .and_then(|page| Ok(out.write_all(page.as_bytes())?)),
    }
    .with_context(|| format!("failed to write the report to {target}"))?;
    out.flush()
        .with_context(|| format!("failed to write the report to {target}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Validates the document; on errors prints them (like `validate`) and returns `None`.
/// Documents of the `openai-strict` variant are accepted after dropping their nulls.
fn load<'a>(bytes: &'a [u8], name: &str) -> Result<Option<PromptSet<'a>>> {
    let validation = Validator::new(Variant::Canonical).validate(bytes);
    if let Some(set) = validation.document {
        return Ok(Some(set));
    }
    if let Some(set) = Validator::new(Variant::OpenAiStrict)
        .validate(bytes)
        .document
    {
        return Ok(Some(set));
    }
    let report = FileReport::new(name, validation.diagnostics);
    let mut stderr = std::io::stderr().lock();
    render(
        Format::Text,
        Tool::new(
            "promptset report",
            &rules::of(&[Category::Document, Category::Integrity]),
        ),
        &[report],
        &mut stderr,
    )
    .context("failed to write to stderr")?;
    writeln!(
        stderr,
        "error: `{name}` is not a valid prompt set; nothing was written"
    )
    .context("failed to write to stderr")?;
    Ok(None)
}
