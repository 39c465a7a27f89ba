//! `promptset generate` through the binary: output, exit codes, stderr, directories.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::root;

fn promptset() -> Command {
    Command::new(env!("CARGO_BIN_EXE_promptset"))
}

#[test]
fn writes_a_valid_set_to_stdout_deterministically() {
    let brief = root().join("fixtures/briefs/ecommerce-trail-running.yaml");
    let run = || {
        promptset()
            .args(["generate", "--seed", "5", "--brief"])
            .arg(&brief)
            .output()
            .expect("runs")
    };
    let first = run();
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(first.stderr.is_empty(), "no warnings for a full brief");
    assert_eq!(first.stdout, run().stdout, "same seed, same bytes");
    assert!(
        promptset::validate::Validator::default()
            .validate(&first.stdout)
            .is_valid()
    );
}

#[test]
fn reads_the_brief_from_stdin_as_from_a_file() {
    let path = root().join("fixtures/briefs/ecommerce-trail-running.yaml");
    let from_file = promptset()
        .args(["generate", "--brief"])
        .arg(&path)
        .output()
        .expect("runs");
    let stdin_args = ["generate", "--brief", "-"];
    let from_stdin = common::promptset(&stdin_args, Some(&std::fs::read(&path).expect("brief")));
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    assert_eq!(
        from_stdin.stdout.as_bytes(),
        from_file.stdout,
        "YAML sniffed from stdin"
    );

    let invalid = common::promptset(&stdin_args, Some(br#"{"brand_name": "Acme"}"#));
    assert_eq!(invalid.code, 1);
    assert!(
        invalid
            .stderr
            .starts_with("-:1:1: error[required]: missing required field"),
        "{}",
        invalid.stderr
    );
}

#[test]
fn invalid_brief_lists_every_problem_and_exits_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let brief = dir.path().join("brief.yaml");
    std::fs::write(
        &brief,
        "brand_name: Acme\nbusiness_model: shop\ntarget_markets: [US]\nfoo: 1\n",
    )
    .expect("write");
    let output = promptset()
        .args(["generate", "--brief"])
        .arg(&brief)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr =
        String::from_utf8_lossy(&output.stderr).replace(&brief.display().to_string(), "brief.yaml");
    insta::assert_snapshot!(stderr);
}

#[test]
fn thin_brief_warns_on_stderr() {
    let output = promptset()
        .args(["generate", "--brief"])
        .arg(root().join("fixtures/briefs/thin-dental-clinic.json"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning:") && stderr.contains("thin"),
        "{stderr}"
    );
}

#[test]
fn a_directory_of_briefs_gives_one_set_each() {
    let out = tempfile::tempdir().expect("temp dir");
    let output = promptset()
        .args(["generate", "--brief"])
        .arg(root().join("fixtures/briefs"))
        .arg("-o")
        .arg(out.path())
        .arg("--quiet")
        .output()
        .expect("runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let briefs = std::fs::read_dir(root().join("fixtures/briefs"))
        .expect("dir")
        .count();
    let written: Vec<PathBuf> = std::fs::read_dir(out.path())
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(written.len(), briefs);
    let validator = promptset::validate::Validator::default();
    for path in written {
        assert!(
            validator
                .validate(&std::fs::read(&path).expect("read"))
                .is_valid(),
            "{}",
            path.display()
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let output = promptset()
        .args(["generate", "--topics", "0", "--brief"])
        .arg(root().join("fixtures/briefs/saas-analytics.json"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: `--topics` must be at least 1\n"
    );
    let output = promptset()
        .args(["generate", "--brief", "does-not-exist.json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .starts_with("error: failed to read `does-not-exist.json`")
    );
}
