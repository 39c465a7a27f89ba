//! `promptset lint` end to end: output formats, the scorecard, exit codes and the
//! `--min-score` gate, snapshotted like a user sees them.

mod common;

use common::{Run, promptset};

fn lint(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut full = vec!["lint"];
    full.extend_from_slice(args);
    promptset(&full, stdin)
}

fn transcript(run: &Run) -> String {
    format!(
        "exit code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
        run.code, run.stdout, run.stderr
    )
}

#[test]
fn text_output_lists_warnings_then_the_scorecard() {
    let run = lint(
        &[
            "fixtures/flawed/keyword-fragment.json",
            "fixtures/flawed/near-duplicate-prompt.json",
        ],
        None,
    );
    assert_eq!(run.code, 0, "warnings alone do not fail: {}", run.stderr);
    insta::assert_snapshot!("lint_text", transcript(&run));
}

#[test]
fn json_output_has_diagnostics_and_scorecard_per_file() {
    let run = lint(
        &["fixtures/flawed/missing-layer.json", "--format", "json"],
        None,
    );
    assert_eq!(run.code, 0);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        value["files"][0]["score"],
        value["files"][0]["scorecard"]["overall_score"]
    );
    insta::assert_snapshot!("lint_json", run.stdout);
}

#[test]
fn min_score_is_a_ci_gate() {
    let pass = lint(
        &["fixtures/flawed/baseline.json", "--min-score", "90", "-q"],
        None,
    );
    assert_eq!(pass.code, 0, "{}", transcript(&pass));
    let fail = lint(
        &[
            "fixtures/flawed/single-funnel-stage.json",
            "--min-score",
            "95",
        ],
        None,
    );
    assert_eq!(fail.code, 1, "{}", transcript(&fail));
    assert!(
        fail.stdout
            .contains("error[min-score]: the prompt set scores"),
        "{}",
        fail.stdout
    );
    assert!(
        fail.stderr.contains("1 below --min-score 95"),
        "{}",
        fail.stderr
    );
    let github = lint(
        &[
            "fixtures/flawed/single-funnel-stage.json",
            "--min-score",
            "95",
            "--format",
            "github",
        ],
        None,
    );
    assert_eq!(github.code, 1);
    assert!(
        github
            .stdout
            .contains("::error file=fixtures/flawed/single-funnel-stage.json"),
        "{}",
        github.stdout
    );
    let out_of_range = lint(
        &["fixtures/flawed/baseline.json", "--min-score", "101"],
        None,
    );
    assert_eq!(out_of_range.code, 2);
}

#[test]
fn invalid_documents_get_validation_errors_and_exit_1() {
    let run = lint(
        &["-"],
        Some(br#"{"client_summary": {"brand_name": "X"}, "prompts": []}"#),
    );
    assert_eq!(run.code, 1, "{}", transcript(&run));
    assert!(run.stdout.starts_with("-:"), "{}", run.stdout);
    assert!(run.stdout.contains("error["), "{}", run.stdout);
    assert!(
        !run.stdout.contains("score"),
        "an invalid document gets no score: {}",
        run.stdout
    );
}

#[test]
fn unreadable_paths_exit_2_without_hiding_other_files() {
    let run = lint(
        &[
            "fixtures/flawed/does-not-exist.json",
            "fixtures/flawed/keyword-fragment.json",
        ],
        None,
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("does-not-exist.json"), "{}", run.stderr);
    assert!(
        run.stdout.contains("warning[keyword-fragment]"),
        "{}",
        run.stdout
    );
}

#[test]
fn directories_are_linted_recursively_and_machine_formats_parse() {
    let sarif = lint(&["fixtures/flawed", "--format", "sarif"], None);
    assert_eq!(sarif.code, 0, "{}", sarif.stderr);
    let value: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("sarif is json");
    let results = value["runs"][0]["results"]
        .as_array()
        .expect("results")
        .len();
    assert!(
        results >= 28,
        "one finding per flawed fixture at least, got {results}"
    );
    let junit = lint(&["fixtures/flawed", "--format", "junit"], None);
    assert_eq!(junit.code, 0);
    assert!(junit.stdout.starts_with("<?xml"), "{}", junit.stdout);
}

#[test]
fn list_rules_prints_every_rule() {
    let run = lint(&["--list-rules"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    use promptset::diagnostic::rules::{Category, catalogue};
    for rule in catalogue().filter(|rule| rule.category != Category::Skill) {
        assert!(
            run.stdout
                .contains(&format!("{}\n    {}", rule.id, rule.summary)),
            "{} missing",
            rule.id
        );
    }
}
