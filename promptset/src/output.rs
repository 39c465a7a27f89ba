//! Renders diagnostics of many files for people and machines: compiler-style text,
//! JSON, GitHub workflow annotations, SARIF 2.1.0 and JUnit XML.
//!
//! `validate` and `lint` share these formats, so CI pipelines read both the same way;
//! a run that scores its files (`lint`) adds the scorecards to `text` and `json` here
//! too, and [`summary_line`] words the one-line summary both print on stderr.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde_json::json;

use crate::diagnostic::{Diagnostic, Rule, Severity};
use crate::lint::Scorecard;

/// The findings of one file (or of stdin, named `-`).
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The path as the user gave it (`-` for stdin).
    pub path: String,
    /// The findings, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The lint scorecard, when the file was valid and the run scores files.
    pub scorecard: Option<Scorecard>,
}

impl FileReport {
    /// The findings of the file named `path`, without a scorecard.
    pub fn new(path: impl Into<String>, diagnostics: Vec<Diagnostic>) -> Self {
        FileReport {
            path: path.into(),
            diagnostics,
            scorecard: None,
        }
    }

    /// Whether the file has any error (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// `file:line:col: error[rule]: message`, like a compiler.
    #[default]
    Text,
    /// One JSON document with every file and finding.
    Json,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
    /// SARIF 2.1.0 for code-scanning tools.
    Sarif,
    /// JUnit XML, one test case per file.
    Junit,
}

/// Describes the tool in machine formats: `name` (e.g. `promptset validate`) and the
/// rules that can appear (from [`crate::diagnostic::rules`]).
#[derive(Debug, Clone, Copy)]
pub struct Tool<'t> {
    /// The command, e.g. `promptset validate`.
    pub name: &'t str,
    /// Every rule the tool may report.
    pub rules: &'t [&'static Rule],
    /// Set when the run scores its files (`lint`): `text` and `json` add scorecards.
    pub scoring: Option<Scoring>,
}

impl<'t> Tool<'t> {
    /// A tool that reports findings only (`validate`, `generate` for briefs, `report`).
    pub fn new(name: &'t str, rules: &'t [&'static Rule]) -> Self {
        Tool {
            name,
            rules,
            scoring: None,
        }
    }

    /// A tool that also scores each valid file (`lint`).
    pub fn scored(name: &'t str, rules: &'t [&'static Rule], min_score: Option<u32>) -> Self {
        Tool {
            name,
            rules,
            scoring: Some(Scoring { min_score }),
        }
    }
}

/// How a scoring run judges its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scoring {
    /// Files scoring below this fail the run (`--min-score`).
    pub min_score: Option<u32>,
}

impl Scoring {
    fn below(self, report: &FileReport) -> bool {
        match (self.min_score, &report.scorecard) {
            (Some(min), Some(scorecard)) => scorecard.overall_score < min,
            _ => false,
        }
    }
}

/// Writes `reports` in `format` to `out`.
pub fn render(
    format: Format,
    tool: Tool<'_>,
    reports: &[FileReport],
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Text => {
            text(reports, out)?;
            if tool.scoring.is_some() {
                for report in reports {
                    if let Some(scorecard) = &report.scorecard {
                        write_scorecard(&report.path, scorecard, out)?;
                    }
                }
            }
            Ok(())
        }
        Format::Json => {
            let value = match tool.scoring {
                Some(scoring) => scored_json_value(tool, scoring, reports),
                None => json_value(tool, reports),
            };
            serde_json::to_writer_pretty(&mut *out, &value)?;
            out.write_all(b"\n")
        }
        Format::Github => github(reports, out),
        Format::Sarif => {
            serde_json::to_writer_pretty(&mut *out, &sarif(tool, reports))?;
            out.write_all(b"\n")
        }
        Format::Junit => junit(tool, reports, out),
    }
}

/// Counts of a run: files, files with errors, errors, warnings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files checked.
    pub files: usize,
    /// Files with at least one error.
    pub invalid: usize,
    /// Errors in all files.
    pub errors: usize,
    /// Warnings in all files.
    pub warnings: usize,
}

/// Counts the findings of `reports`.
pub fn summarize(reports: &[FileReport]) -> Summary {
    let mut summary = Summary {
        files: reports.len(),
        ..Summary::default()
    };
    for report in reports {
        if report.has_errors() {
            summary.invalid += 1;
        }
        for d in &report.diagnostics {
            match d.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Note => {}
            }
        }
    }
    summary
}

fn text(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            let pointer = if d.pointer.is_empty() {
                String::new()
            } else {
                format!(" (at {})", d.pointer)
            };
            writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}{pointer}",
                report.path,
                d.line,
                d.column,
                d.severity.as_str(),
                d.rule,
                d.message
            )?;
        }
    }
    Ok(())
}

fn json_value(tool: Tool<'_>, reports: &[FileReport]) -> serde_json::Value {
    let summary = summarize(reports);
    json!({
        "tool": tool.name,
        "files": reports.iter().map(|r| json!({
            "path": r.path,
            "valid": !r.has_errors(),
            "diagnostics": r.diagnostics,
        })).collect::<Vec<_>>(),
        "summary": {
            "files": summary.files,
            "valid": summary.files - summary.invalid,
            "invalid": summary.invalid,
            "errors": summary.errors,
            "warnings": summary.warnings,
        },
    })
}

/// The JSON of a scoring run: every file with its score and scorecard, and the lowest
/// score and the files below `--min-score` in the summary.
fn scored_json_value(
    tool: Tool<'_>,
    scoring: Scoring,
    reports: &[FileReport],
) -> serde_json::Value {
    let summary = summarize(reports);
    json!({
        "tool": tool.name,
        "files": reports.iter().map(|r| json!({
            "path": r.path,
            "valid": !r.has_errors() || r.scorecard.is_some(),
            "score": r.scorecard.as_ref().map(|s| s.overall_score),
            "diagnostics": r.diagnostics,
            "scorecard": r.scorecard,
        })).collect::<Vec<_>>(),
        "summary": {
            "files": summary.files,
            "invalid": reports.iter().filter(|r| r.scorecard.is_none()).count(),
            "warnings": summary.warnings,
            "lowest_score": lowest_score(reports),
            "min_score": scoring.min_score,
            "below_min_score": reports.iter().filter(|r| scoring.below(r)).count(),
        },
    })
}

fn lowest_score(reports: &[FileReport]) -> Option<u32> {
    reports
        .iter()
        .filter_map(|r| r.scorecard.as_ref())
        .map(|s| s.overall_score)
        .min()
}

/// The readable scorecard of `text` output.
fn write_scorecard(path: &str, scorecard: &Scorecard, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{}: score {}/{} (judged as {}, {} prompts, {} topics)",
        if path == "-" { "<stdin>" } else { path },
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

/// The one-line summary of a run for people (stderr): files, validity, errors or
/// warnings, scores, and how many inputs could not be read.
pub fn summary_line(tool: Tool<'_>, reports: &[FileReport], unreadable: usize) -> String {
    let summary = summarize(reports);
    let plural = |count: usize, one: &str, many: &str| {
        format!("{count} {}", if count == 1 { one } else { many })
    };
    let mut line = match tool.scoring {
        None => format!(
            "checked {}: {} valid, {} invalid ({})",
            plural(summary.files, "file", "files"),
            summary.files - summary.invalid,
            summary.invalid,
            plural(summary.errors, "error", "errors"),
        ),
        Some(scoring) => {
            let mut line = format!(
                "linted {}: {} invalid, {}",
                plural(summary.files, "file", "files"),
                summary.invalid,
                plural(summary.warnings, "warning", "warnings"),
            );
            if let Some(lowest) = lowest_score(reports) {
                line.push_str(&format!(", lowest score {lowest}/100"));
            }
            if let Some(min) = scoring.min_score {
                let below = reports.iter().filter(|r| scoring.below(r)).count();
                line.push_str(&format!("; {below} below --min-score {min}"));
            }
            line
        }
    };
    if unreadable > 0 {
        line.push_str(&format!("; {unreadable} could not be read"));
    }
    line
}

/// Escapes the data part of a workflow command.
fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value of a workflow command.
fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

fn github(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            let mut properties = format!("file={}", github_property(&report.path));
            if d.line > 0 {
                properties.push_str(&format!(",line={},col={}", d.line, d.column));
            }
            properties.push_str(&format!(
                ",title={}",
                github_property(&format!("promptset {}", d.rule))
            ));
            let pointer = if d.pointer.is_empty() {
                String::new()
            } else {
                format!(" (at {})", d.pointer)
            };
            writeln!(
                out,
                "::{command} {properties}::{}",
                github_data(&format!("{}{pointer}", d.message))
            )?;
        }
    }
    Ok(())
}

/// A file path as a SARIF artifact URI: forward slashes, percent-encoded where needed.
///
/// Relative paths stay relative references (a consumer resolves them against its
/// checkout); absolute paths become `file:` URIs, because a relative reference that
/// starts with a slash cannot be combined with a base URI (SARIF1004).
fn artifact_uri(path: &str) -> String {
    if path == "-" {
        return "stdin".to_owned();
    }
    let path = path.replace('\\', "/");
    let drive = path.len() >= 3
        && path.as_bytes()[0].is_ascii_alphabetic()
        && path.as_bytes()[1] == b':'
        && path.as_bytes()[2] == b'/';
    let (prefix, path) = if let Some(rest) = path.strip_prefix('/') {
        ("file:///", rest.to_owned())
    } else if drive {
        ("file:///", path)
    } else {
        ("", path)
    };
    let mut uri = String::with_capacity(prefix.len() + path.len());
    uri.push_str(prefix);
    for (index, byte) in path.bytes().enumerate() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char)
            }
            // keep the drive colon of `file:///C:/...`
            b':' if drive && index == 1 => uri.push(':'),
            other => uri.push_str(&format!("%{other:02X}")),
        }
    }
    uri
}

/// A rule's readable name for SARIF: the id in PascalCase (`missing-layer` becomes
/// `MissingLayer`), since SARIF wants `name` to differ from the opaque `id` (SARIF1001,
/// which compares them ignoring case).
fn rule_name(id: &str) -> String {
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// The SARIF `level` of a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn sarif(tool: Tool<'_>, reports: &[FileReport]) -> serde_json::Value {
    // Rules that occur but are not declared (should not happen) still get an entry.
    let mut rules: BTreeMap<&str, Option<&Rule>> = tool
        .rules
        .iter()
        .map(|rule| (rule.id, Some(*rule)))
        .collect();
    for report in reports {
        for d in &report.diagnostics {
            rules.entry(d.rule).or_insert(None);
        }
    }
    let rule_index: BTreeMap<&str, usize> =
        rules.keys().enumerate().map(|(i, id)| (*id, i)).collect();
    let results: Vec<_> = reports
        .iter()
        .flat_map(|report| {
            let rule_index = &rule_index;
            report.diagnostics.iter().map(move |d| {
                let mut physical =
                    json!({ "artifactLocation": { "uri": artifact_uri(&report.path) } });
                if d.line > 0 {
                    physical["region"] = json!({ "startLine": d.line, "startColumn": d.column });
                }
                let mut location = json!({ "physicalLocation": physical });
                if !d.pointer.is_empty() {
                    location["logicalLocations"] =
                        json!([{ "fullyQualifiedName": d.pointer, "kind": "member" }]);
                }
                json!({
                    "ruleId": d.rule,
                    "ruleIndex": rule_index[d.rule],
                    "level": level(d.severity),
                    "message": { "text": d.message },
                    "locations": [location],
                })
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": tool.name,
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/promptset/promptset",
                "rules": rules.iter().map(|(id, declared)| {
                    let mut rule = json!({ "id": id });
                    // A one-word id would give the same name in other case, which
                    // SARIF also counts as repeating the id: such rules go unnamed.
                    let name = rule_name(id);
                    if !name.eq_ignore_ascii_case(id) {
                        rule["name"] = json!(name);
                    }
                    if let Some(declared) = declared {
                        rule["shortDescription"] = json!({ "text": declared.summary });
                        rule["help"] = json!({ "text": declared.help });
                        rule["defaultConfiguration"] = json!({ "level": level(declared.severity) });
                        rule["properties"] = json!({ "tags": [declared.category.as_str()] });
                    }
                    rule
                }).collect::<Vec<_>>(),
            }},
            "artifacts": reports.iter().map(|r| json!({ "location": { "uri": artifact_uri(&r.path) } })).collect::<Vec<_>>(),
            "results": results,
        }],
    })
}

/// Escapes text for XML attributes and content; drops characters XML 1.0 cannot hold.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn junit(tool: Tool<'_>, reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let summary = summarize(reports);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{}" tests="{}" failures="{}" errors="0">"#,
        xml(tool.name),
        summary.files,
        summary.invalid
    )?;
    writeln!(
        out,
        r#"  <testsuite name="{}" tests="{}" failures="{}" errors="0" skipped="0">"#,
        xml(tool.name),
        summary.files,
        summary.invalid
    )?;
    for report in reports {
        let errors: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        let others: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Error)
            .collect();
        write!(
            out,
            r#"    <testcase classname="{}" name="{}""#,
            xml(tool.name),
            xml(&report.path)
        )?;
        if errors.is_empty() && others.is_empty() {
            writeln!(out, "/>")?;
            continue;
        }
        writeln!(out, ">")?;
        if let Some(first) = errors.first() {
            let noun = if errors.len() == 1 { "error" } else { "errors" };
            writeln!(
                out,
                r#"      <failure type="{}" message="{} {noun}; first: {}">"#,
                xml(first.rule),
                errors.len(),
                xml(&first.message)
            )?;
            for d in &errors {
                writeln!(
                    out,
                    "{}",
                    xml(&format!(
                        "{}:{}:{}: error[{}]: {}",
                        report.path, d.line, d.column, d.rule, d.message
                    ))
                )?;
            }
            writeln!(out, "      </failure>")?;
        }
        if !others.is_empty() {
            writeln!(out, "      <system-out>")?;
            for d in &others {
                writeln!(
                    out,
                    "{}",
                    xml(&format!(
                        "{}:{}:{}: {}[{}]: {}",
                        report.path,
                        d.line,
                        d.column,
                        d.severity.as_str(),
                        d.rule,
                        d.message
                    ))
                )?;
            }
            writeln!(out, "      </system-out>")?;
        }
        writeln!(out, "    </testcase>")?;
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}
