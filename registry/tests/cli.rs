//! The `registry` binary: `token create`, `migrate` and flag errors.

use std::process::Command;

fn registry() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_registry"));
    command
        .env_remove("REGISTRY_DATABASE_URL")
        .env("RUST_LOG", "error");
    command
}

#[test]
fn token_create_prints_only_a_token_and_migrate_succeeds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("data/registry.db").display());
    let migrate = registry()
        .args(["migrate", "--database", &url])
        .output()
        .expect("run");
    assert!(
        migrate.status.success(),
        "{}",
        String::from_utf8_lossy(&migrate.stderr)
    );
    assert!(migrate.stdout.is_empty());

    let output = registry()
        .args([
            "token",
            "create",
            "--user",
            "alice",
            "--role",
            "admin",
            "--database",
            &url,
        ])
        .output()
        .expect("run");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with("clh_") && lines[0].len() == 47,
        "{stdout}"
    );

    let second = registry()
        .args(["token", "create", "--user", "alice"])
        .env("REGISTRY_DATABASE_URL", &url)
        .output()
        .expect("run");
    assert!(second.status.success());
    assert_ne!(second.stdout, stdout.as_bytes());
}

#[test]
fn bad_flags_exit_with_status_2() {
    let bad_limit = registry()
        .args(["serve", "--rate-limit-write", "x/y"])
        .output()
        .expect("run");
    assert_eq!(bad_limit.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_limit.stderr).contains("invalid rate limit `x/y`"));
    let bad_handle = registry()
        .args([
            "token",
            "create",
            "--user",
            "Not Valid",
            "--database",
            "sqlite://:memory:",
        ])
        .output()
        .expect("run");
    assert_eq!(bad_handle.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_handle.stderr).contains("invalid handle"));
}

#[test]
fn server_log_has_no_colour_codes_when_not_a_terminal() {
    use std::io::BufRead as _;
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("registry.db").display());
    let mut child = registry()
        .args(["serve", "--listen", "127.0.0.1:0", "--database", &url])
        .arg("--storage")
        .arg(dir.path().join("blobs"))
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let stderr = child.stderr.take().expect("piped stderr");
    let mut lines = std::io::BufReader::new(stderr).lines();
    let mut seen = Vec::new();
    // The first INFO line is "registry listening"; with colours its level would be wrapped
    // in escape sequences.
    for line in lines.by_ref() {
        let line = line.expect("utf-8 log line");
        let done = line.contains("registry listening");
        seen.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let log = seen.join("\n");
    assert!(log.contains("registry listening"), "{log}");
    assert!(log.contains("INFO"), "{log}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a piped log: {log:?}"
    );
}
