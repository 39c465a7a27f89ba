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
