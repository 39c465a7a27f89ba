//! The `promptset` binary end to end: exit codes, messages, formats and reports.

mod common;

use std::io::Write;

use common::{promptset, root};

#[test]
fn every_command_answers_help() {
    for args in [
        &["--help"][..],
        &["schema", "--help"],
        &["validate", "--help"],
        &["report", "--help"],
        &["lint", "--help"],
        &["generate", "--help"],
    ] {
        let out = promptset(args, None);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert!(out.stdout.contains("Usage:"), "{args:?}");
    }
    let out = promptset(&["validate"], None);
    assert_eq!(out.code, 2, "missing PATH is a usage error");
    let out = promptset(&["validate", "x.json", "--format", "xml"], None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("invalid value 'xml'"), "{}", out.stderr);
}

#[test]
fn schema_prints_the_committed_file() {
    let out = promptset(&["schema"], None);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        std::fs::read_to_string(root().join("schemas/promptset.schema.json")).unwrap()
    );
    let strict = promptset(&["schema", "--variant", "openai-strict"], None);
    let value: serde_json::Value = serde_json::from_str(&strict.stdout).unwrap();
    assert!(
        value["required"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == "priority_lists")
    );
}

#[test]
fn validate_exit_codes_follow_the_contract() {
    let valid = promptset(&["validate", "fixtures/valid"], None);
    assert_eq!(valid.code, 0, "{}{}", valid.stdout, valid.stderr);
    assert!(valid.stdout.is_empty());
    assert!(
        valid.stderr.contains("valid, 0 invalid"),
        "{}",
        valid.stderr
    );

    let invalid = promptset(
        &[
            "validate",
            "fixtures/valid/minimal.json",
            "fixtures/invalid/trailing-comma.json",
        ],
        None,
    );
    assert_eq!(invalid.code, 1);
    assert_eq!(
        invalid.stdout,
        "fixtures/invalid/trailing-comma.json:8:5: error[syntax]: invalid JSON: trailing comma\n"
    );

    let missing = promptset(
        &[
            "validate",
            "does/not/exist.json",
            "fixtures/valid/minimal.json",
        ],
        None,
    );
    assert_eq!(
        missing.code, 2,
        "an unreadable path is exit 2 even when the rest is valid"
    );
    assert!(
        missing
            .stderr
            .contains("error: cannot read `does/not/exist.json`: No such file or directory"),
        "{}",
        missing.stderr
    );
}

#[test]
fn validate_reads_stdin() {
    let bytes = std::fs::read(root().join("fixtures/valid/minimal.json")).unwrap();
    assert_eq!(promptset(&["validate", "-"], Some(&bytes)).code, 0);
    let out = promptset(&["validate", "-"], Some(b"{\"client_summary\": 1"));
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with(
            "-:1:20: error[syntax]: invalid JSON: unexpected end of file (while parsing an object)"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn a_directory_with_an_unreadable_file_reports_it_and_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("fixtures/invalid/empty.json"),
        dir.path().join("a-empty.json"),
    )
    .unwrap();
    std::fs::copy(
        root().join("fixtures/valid/minimal.json"),
        dir.path().join("b-ok.json"),
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not json, ignored").unwrap();
    // A dangling link cannot be read even by root, unlike a chmod 000 file.
    std::os::unix::fs::symlink(
        dir.path().join("gone.json"),
        dir.path().join("c-broken.json"),
    )
    .unwrap();
    let path = dir.path().display().to_string();
    let out = promptset(&["validate", &path], None);
    assert_eq!(out.code, 2);
    assert!(
        out.stdout
            .contains("a-empty.json:1:1: error[empty]: the file is empty"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("c-broken.json`: No such file or directory"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("checked 2 files: 1 valid, 1 invalid (1 error); 1 could not be read"),
        "{}",
        out.stderr
    );
}

#[test]
fn machine_formats_are_well_formed() {
    let file = "fixtures/invalid/many-errors-at-once.json";
    let json = promptset(&["validate", file, "--format", "json"], None);
    assert_eq!(json.code, 1);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["summary"]["errors"], 6);
    assert_eq!(
        value["files"][0]["diagnostics"][0]["pointer"],
        "/client_summary"
    );
    assert_eq!(value["files"][0]["diagnostics"][0]["line"], 2);

    let github = promptset(&["validate", file, "--format", "github"], None);
    assert!(github.stdout.starts_with(
        "::error file=fixtures/invalid/many-errors-at-once.json,line=2,col=21,title=promptset required::missing required field `business_model` (at /client_summary)\n"
    ), "{}", github.stdout);

    let sarif = promptset(&["validate", file, "--format", "sarif"], None);
    let value: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    assert_eq!(value["version"], "2.1.0");
    let results = value["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    let rules = value["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(
            rules[index]["id"], result["ruleId"],
            "ruleIndex points at the rule"
        );
        assert!(
            result["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
                >= 1
        );
    }

    let junit = promptset(
        &[
            "validate",
            file,
            "fixtures/valid/minimal.json",
            "--format",
            "junit",
        ],
        None,
    );
    assert!(junit.stdout.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"promptset validate\" tests=\"2\" failures=\"1\""), "{}", junit.stdout);
    assert_eq!(junit.stdout.matches("<testcase ").count(), 2);
    assert!(junit.stdout.contains("<failure type=\"required\" message=\"6 errors; first: missing required field `business_model`\">"));
}

#[test]
fn hostile_inputs_get_clear_errors_not_crashes() {
    // 10,000-deep nesting, built here so no giant fixture is needed.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let out = promptset(&["validate", "-"], Some(deep.as_bytes()));
    assert_eq!(out.code, 1);
    assert!(
        out.stdout
            .contains("error[syntax]: invalid JSON: nesting is too deep"),
        "{}",
        out.stdout
    );
    let deep_object = "{\"a\":".repeat(10_000);
    let out = promptset(&["validate", "-"], Some(deep_object.as_bytes()));
    assert_eq!(out.code, 1, "{}", out.stderr);
}

#[test]
fn a_200_mb_file_is_validated_with_positions() {
    // A valid head, then 200 MB of prompts, one of them broken near the end.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    let template: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("fixtures/valid/minimal.json")).unwrap(),
    )
    .unwrap();
    let prompt = serde_json::to_string(&template["prompts"][0]).unwrap();
    let mut head = template.clone();
    head["prompts"] = serde_json::json!([]);
    let head = serde_json::to_string(&head).unwrap();
    let (before, after) = head.split_once("\"prompts\":[]").unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(file, "{before}\"prompts\":[").unwrap();
    let count = 200_000_000 / (prompt.len() + 2);
    let line = format!("{prompt},\n");
    let broken = format!("{},\n", prompt.replace("\"BOFU\"", "\"LATER\""));
    for i in 0..count - 1 {
        let bytes = if i == count - 3 { &broken } else { &line };
        file.write_all(bytes.as_bytes()).unwrap();
    }
    writeln!(file, "{prompt}").unwrap();
    write!(file, "]{after}").unwrap();
    file.flush().unwrap();
    drop(file);
    let out = promptset(&["validate", path.to_str().unwrap()], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let line = count - 3 + 2;
    assert!(
        out.stdout.contains(&format!(":{line}:"))
            && out
                .stdout
                .contains(&format!("(at /prompts/{}/funnel_stage)", count - 3)),
        "{}",
        out.stdout
    );
}

#[test]
fn report_writes_every_csv_table() {
    for table in ["prompts", "topics", "priorities", "summary"] {
        let out = promptset(
            &["report", "fixtures/valid/saas-full.json", "--table", table],
            None,
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        insta::assert_snapshot!(format!("report_csv_{table}"), out.stdout);
    }
}

#[test]
fn report_csv_is_rfc4180_with_optional_bom_and_neutralised_formulas() {
    let mut doc: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("fixtures/valid/minimal.json")).unwrap(),
    )
    .unwrap();
    doc["prompts"][0]["prompt"] = serde_json::json!("=HYPERLINK(\"http://x\",\"click\")");
    doc["prompts"][0]["why_it_matters"] = serde_json::json!("line one\nline \"two\", with comma");
    doc["prompts"][0]["category"] = serde_json::json!("@SUM(1+1)");
    let bytes = serde_json::to_vec(&doc).unwrap();
    let out = promptset(&["report", "-", "--bom"], Some(&bytes));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with('\u{feff}'));
    let body = out.stdout.trim_start_matches('\u{feff}');
    let mut reader = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let headers = reader.headers().unwrap().clone();
    assert_eq!(headers.len(), 15);
    assert_eq!(&headers[0], "prompt");
    assert_eq!(&headers[14], "why_it_matters");
    let row = reader.records().next().unwrap().unwrap();
    assert_eq!(&row[0], "'=HYPERLINK(\"http://x\",\"click\")");
    assert_eq!(&row[6], "'@SUM(1+1)");
    assert_eq!(&row[7], "", "absent optional field is an empty cell");
    assert_eq!(&row[14], "line one\nline \"two\", with comma");
    assert!(body.contains("\r\n"), "RFC 4180 line ends");
}

#[test]
fn report_markdown_and_invalid_input() {
    let out = promptset(
        &[
            "report",
            "fixtures/valid/saas-full.json",
            "--format",
            "markdown",
        ],
        None,
    );
    assert_eq!(out.code, 0);
    insta::assert_snapshot!("report_markdown", out.stdout);

    let out = promptset(
        &["report", "fixtures/invalid/integrity-unknown-topic.json"],
        None,
    );
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("error[integrity/unknown-topic]"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("is not a valid prompt set; nothing was written"),
        "{}",
        out.stderr
    );

    let out = promptset(
        &["report", "fixtures/openai-strict/nulls-for-absent.json"],
        None,
    );
    assert_eq!(
        out.code, 0,
        "openai-strict documents are reported after dropping nulls: {}",
        out.stderr
    );

    let out = promptset(&["report", "nope.json"], None);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("error: failed to read `nope.json`"),
        "{}",
        out.stderr
    );
}
