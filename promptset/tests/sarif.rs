//! The SARIF logs of `validate` and `lint` checked by a validator nobody here wrote:
//! Microsoft's `@microsoft/sarif-multitool validate`, which must report no error and no
//! warning, for relative and absolute input paths alike.
//!
//! The tool is installed with npm into `target/sarif-cache/sarif-multitool-<version>`
//! (reused when present; `SARIF_MULTITOOL_CACHE` moves it). Without node/npm, or when npm
//! cannot install it, the test fails with the reason: it is never skipped.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use common::{promptset, root};

/// The pinned release of the validator.
const MULTITOOL_VERSION: &str = "5.7.0";

#[test]
fn validate_sarif_passes_the_sarif_validator_with_relative_paths() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("validate.sarif");
    let run = promptset(
        &[
            "validate",
            "fixtures/invalid/",
            "fixtures/valid/",
            "--format",
            "sarif",
            "-o",
            path_arg(&log),
        ],
        None,
    );
    assert_eq!(run.code, 1, "invalid fixtures exit 1: {}", run.stderr);
    assert!(run.stdout.is_empty(), "the log goes to `-o`, not stdout");
    assert_clean(&log);
}

#[test]
fn validate_sarif_passes_the_sarif_validator_with_absolute_paths() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("validate.sarif");
    let invalid = root()
        .join("fixtures/invalid")
        .canonicalize()
        .expect("fixtures");
    let run = promptset(
        &[
            "validate",
            path_arg(&invalid),
            "--format",
            "sarif",
            "-o",
            path_arg(&log),
        ],
        None,
    );
    assert_eq!(run.code, 1, "invalid fixtures exit 1: {}", run.stderr);
    let text = fs::read_to_string(&log).expect("log");
    assert!(
        text.contains("\"uri\": \"file:///"),
        "absolute paths become file URIs"
    );
    assert_clean(&log);
}

#[test]
fn lint_sarif_passes_the_sarif_validator_with_both_kinds_of_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let absolute = root()
        .join("fixtures/flawed/baseline.json")
        .canonicalize()
        .expect("fixture");
    let log = dir.path().join("lint.sarif");
    let run = promptset(
        &[
            "lint",
            "fixtures/flawed/",
            path_arg(&absolute),
            "--min-score",
            "90",
            "--format",
            "sarif",
            "-o",
            path_arg(&log),
        ],
        None,
    );
    assert_eq!(
        run.code, 1,
        "flawed fixtures score below 90: {}",
        run.stderr
    );
    let text = fs::read_to_string(&log).expect("log");
    assert!(
        text.contains("\"ruleId\": \"min-score\""),
        "the log has results"
    );
    assert_clean(&log);
}

/// Runs the validator on `log` and fails with its output on any error or warning.
fn assert_clean(log: &Path) {
    let output = Command::new(multitool())
        .arg("validate")
        .arg(log)
        .stdin(Stdio::null())
        .output()
        .expect("run sarif-multitool");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let problems: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|line| line.contains(": error ") || line.contains(": warning "))
        .collect();
    assert!(
        output.status.success() && problems.is_empty(),
        "sarif-multitool validate found problems in `{}` (exit {}):\n{}\n--- full output ---\n{stdout}\n{stderr}",
        log.display(),
        output.status,
        problems.join("\n")
    );
    assert!(
        stdout.contains("1 files scanned") || stdout.contains("Analysis completed"),
        "the validator ran: {stdout}"
    );
}

/// Path of the `sarif-multitool` binary, installing the pinned release on first use.
fn multitool() -> PathBuf {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BINARY.get_or_init(install) {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "the SARIF test needs `@microsoft/sarif-multitool@{MULTITOOL_VERSION}`: {message}\n\
             hint: install Node.js with npm and make sure `npm install @microsoft/sarif-multitool@{MULTITOOL_VERSION}` \
             can reach the npm registry (`.ci/run` does both)"
        ),
    }
}

fn install() -> Result<PathBuf, String> {
    let cache_root = match std::env::var_os("SARIF_MULTITOOL_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => root().join("target/sarif-cache"),
    };
    let prefix = cache_root.join(format!("sarif-multitool-{MULTITOOL_VERSION}"));
    let binary = prefix.join("node_modules/.bin/sarif-multitool");
    if installed_version(&prefix).as_deref() == Some(MULTITOOL_VERSION) && binary.exists() {
        return Ok(binary);
    }
    match Command::new("node").arg("--version").output() {
        Ok(output) if output.status.success() => {}
        Ok(output) => return Err(format!("`node --version` failed with {}", output.status)),
        Err(error) => return Err(format!("`node` is not installed or not on PATH ({error})")),
    }
    fs::create_dir_all(&cache_root)
        .map_err(|e| format!("failed to create `{}`: {e}", cache_root.display()))?;
    // Install beside the cache and rename, so that a concurrent or interrupted run never
    // sees half an installation.
    let staging = tempfile::Builder::new()
        .prefix("sarif-multitool-install-")
        .tempdir_in(&cache_root)
        .map_err(|e| format!("failed to create the npm staging dir: {e}"))?;
    let output = Command::new("npm")
        .args(["install", "--prefix"])
        .arg(staging.path())
        .arg(format!("@microsoft/sarif-multitool@{MULTITOOL_VERSION}"))
        .args(["--no-audit", "--no-fund", "--no-save", "--loglevel=error"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("`npm` is not installed or not on PATH ({e})"))?;
    if !output.status.success() {
        return Err(format!(
            "`npm install @microsoft/sarif-multitool@{MULTITOOL_VERSION}` failed with {}\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout).trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let staged = staging.keep();
    if installed_version(&prefix).as_deref() != Some(MULTITOOL_VERSION) {
        let _ = fs::remove_dir_all(&prefix);
        if let Err(error) = fs::rename(&staged, &prefix) {
            // Another test process may have won the race with a complete install.
            if installed_version(&prefix).as_deref() != Some(MULTITOOL_VERSION) {
                return Err(format!(
                    "failed to move the validator into `{}`: {error}",
                    prefix.display()
                ));
            }
        }
    }
    let _ = fs::remove_dir_all(&staged);
    if !binary.exists() {
        return Err(format!(
            "npm installed the validator but `{}` is missing",
            binary.display()
        ));
    }
    Ok(binary)
}

fn installed_version(prefix: &Path) -> Option<String> {
    let manifest =
        fs::read_to_string(prefix.join("node_modules/@microsoft/sarif-multitool/package.json"))
            .ok()?;
    let manifest: serde_json::Value = serde_json::from_str(&manifest).ok()?;
    manifest["version"].as_str().map(str::to_owned)
}

fn path_arg(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}
