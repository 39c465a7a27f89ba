//! `promptset lint`: quality rules and the 100-point scorecard over files, directories
//! and stdin, in parallel. Documents that fail validation get their validation errors
//! instead; `--min-score` turns the scorecard into a CI gate.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use promptset::diagnostic::{Diagnostic, Severity};
use promptset::lint::{self, Scorecard};
use promptset::output::{FileReport, Format, Tool, render, summarize};
use promptset::validate::Validator;
use rayon::prelude::*;
use serde_json::json;

use super::FormatArg;
use super::validate::{progress_bar, report_error};
use crate::io::{Input, collect_inputs};

use promptset::diagnostic::rules::MIN_SCORE as MIN_SCORE_RULE;

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
    /// Print every lint rule (id, what it checks, what to do) and exit.
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

/// The outcome for one input.
struct Linted {
    report: FileReport,
    scorecard: Option<Scorecard>,
}

/// Runs `promptset lint`.
pub fn run(args: LintArgs) -> Result<ExitCode> {
    if args.list_rules {
        let mut text = String::new();
        for rule in lint::RULES {
            text.push_str(&format!(
                "{}\n    {}\n    fix: {}\n",
                rule.id, rule.summary, rule.help
            ));
        }
        crate::io::write_output(args.output.as_deref(), text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (inputs, read_errors) = collect_inputs(&args.paths);
    let validator = Validator::default();
    let progress = progress_bar(inputs.len(), args.quiet);
    let results: Vec<Result<Linted>> = inputs
        .par_iter()
        .map(|input| {
            let linted = lint_input(&validator, input, args.min_score);
            progress.inc(1);
            linted
        })
        .collect();
    progress.finish_and_clear();

    let mut linted = Vec::with_capacity(results.len());
    let mut errors = read_errors;
    for result in results {
        match result {
            Ok(one) => linted.push(one),
            Err(error) => errors.push(error),
        }
    }
    for error in &errors {
        report_error(error);
    }

    let mut bytes = Vec::new();
    write_report(args.format, &linted, args.min_score, &mut bytes)
        .context("failed to render the report")?;
    crate::io::write_output(args.output.as_deref(), &bytes)?;

    let reports: Vec<FileReport> = linted.iter().map(|l| l.report.clone()).collect();
    let summary = summarize(&reports);
    let below = linted
        .iter()
        .filter(|l| below_min(l, args.min_score))
        .count();
    if !args.quiet && args.format == FormatArg::Text {
        let mut line = format!(
            "linted {} {}: {} invalid, {} {}",
            summary.files,
            if summary.files == 1 { "file" } else { "files" },
            summary.invalid,
            summary.warnings,
            if summary.warnings == 1 {
                "warning"
            } else {
                "warnings"
            },
        );
        if let Some(lowest) = linted
            .iter()
            .filter_map(|l| l.scorecard.as_ref())
            .map(|s| s.overall_score)
            .min()
        {
            line.push_str(&format!(", lowest score {lowest}/100"));
        }
        if let Some(min) = args.min_score {
            line.push_str(&format!("; {below} below --min-score {min}"));
        }
        if !errors.is_empty() {
            line.push_str(&format!("; {} could not be read", errors.len()));
        }
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

fn below_min(linted: &Linted, min_score: Option<u32>) -> bool {
    match (min_score, &linted.scorecard) {
        (Some(min), Some(scorecard)) => scorecard.overall_score < min,
        _ => false,
    }
}

fn lint_input(validator: &Validator, input: &Input, min_score: Option<u32>) -> Result<Linted> {
    let bytes = input.read()?;
    let validation = validator.validate(&bytes);
    let path = input.name();
    let Some(set) = validation.document else {
        return Ok(Linted {
            report: FileReport {
                path,
                diagnostics: validation.diagnostics,
            },
            scorecard: None,
        });
    };
    // Validation succeeded, so the bytes are UTF-8; the fallback only drops positions.
    let source = std::str::from_utf8(&bytes).ok();
    let linted = lint::lint(&set, source);
    let mut diagnostics = linted.diagnostics;
    if let Some(min) = min_score {
        let score = linted.scorecard.overall_score;
        if score < min {
            diagnostics.insert(
                0,
                Diagnostic {
                    rule: MIN_SCORE_RULE,
                    severity: Severity::Error,
                    pointer: String::new(),
                    message: format!(
                        "the prompt set scores {score}/100, below the minimum of {min}"
                    ),
                    line: 1,
                    column: 1,
                },
            );
        }
    }
    Ok(Linted {
        report: FileReport { path, diagnostics },
        scorecard: Some(linted.scorecard),
    })
}

/// Every rule `promptset lint` may report: validation rules, lint rules and `min-score`.
fn rules() -> Vec<&'static promptset::diagnostic::Rule> {
    promptset::diagnostic::rules::catalogue().collect()
}

fn write_report(
    format: FormatArg,
    linted: &[Linted],
    min_score: Option<u32>,
    out: &mut dyn Write,
) -> Result<()> {
    let rules = rules();
    let tool = Tool {
        name: "promptset lint",
        rules: &rules,
    };
    let reports: Vec<FileReport> = linted.iter().map(|l| l.report.clone()).collect();
    match format {
        FormatArg::Json => {
            serde_json::to_writer_pretty(&mut *out, &json_report(linted, min_score))?;
            out.write_all(b"\n")?;
        }
        FormatArg::Text => {
            render(Format::Text, tool, &reports, out)?;
            for one in linted {
                if let Some(scorecard) = &one.scorecard {
                    write_scorecard(&one.report.path, scorecard, out)?;
                }
            }
        }
        other => render(other.into(), tool, &reports, out)?,
    }
    Ok(())
}

fn json_report(linted: &[Linted], min_score: Option<u32>) -> serde_json::Value {
    let reports: Vec<FileReport> = linted.iter().map(|l| l.report.clone()).collect();
    let summary = summarize(&reports);
    json!({
        "tool": "promptset lint",
        "files": linted.iter().map(|l| json!({
            "path": l.report.path,
            "valid": !l.report.has_errors() || l.scorecard.is_some(),
            "score": l.scorecard.as_ref().map(|s| s.overall_score),
            "diagnostics": l.report.diagnostics,
            "scorecard": l.scorecard,
        })).collect::<Vec<_>>(),
        "summary": {
            "files": summary.files,
            "invalid": linted.iter().filter(|l| l.scorecard.is_none()).count(),
            "warnings": summary.warnings,
            "lowest_score": linted.iter().filter_map(|l| l.scorecard.as_ref()).map(|s| s.overall_score).min(),
            "min_score": min_score,
            "below_min_score": linted.iter().filter(|l| below_min(l, min_score)).count(),
        },
    })
}

/// The readable scorecard of `text` output.
fn write_scorecard(path: &str, scorecard: &Scorecard, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{}: score {}/{} (judged as {}, {} prompts, {} topics)",
        display_path(path),
        scorecard.overall_score,
        scorecard.max_score,
        scorecard.business_model,
        scorecard.prompt_count,
        scorecard.topic_count
    )?;
    for (name, sub) in scorecard.sub_scores.named() {
        let filled = (sub.score * 20).checked_div(sub.max).unwrap_or(0) as usize;
        writeln!(
            out,
            "  {name:<20} {:>2}/{:<2} {}{}",
            sub.score,
            sub.max,
            "#".repeat(filled),
            ".".repeat(20 - filled.min(20))
        )?;
    }
    let sections: [(&str, &[String]); 3] = [
        ("fix next", &scorecard.fix_next),
        ("keep doing", &scorecard.keep_doing),
        ("recommended actions", &scorecard.recommended_actions),
    ];
    for (title, items) in sections {
        if items.is_empty() {
            continue;
        }
        writeln!(out, "  {title}:")?;
        for item in items {
            writeln!(out, "    - {item}")?;
        }
    }
    Ok(())
}

fn display_path(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        Path::new(path).to_str().unwrap_or(path)
    }
}
