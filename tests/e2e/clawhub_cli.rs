//! End to end with a client nobody here wrote: the published `clawhub` CLI (npm
//! `clawhub@0.23.3`) drives our registry, started in-process on `127.0.0.1:0`, once over
//! SQLite and once over a throwaway PostgreSQL.
//!
//! The CLI is installed with npm into `target/e2e-cache/clawhub-0.23.3` (reused when
//! present; `CLAWHUB_E2E_CACHE` moves it). Without node/npm, or when npm cannot install
//! it, the tests fail with the reason: they never skip.
//!
//! Every CLI call runs with its own `HOME`, a config file per user
//! (`CLAWHUB_CONFIG_PATH`), `CLAWHUB_REGISTRY`/`CLAWHUB_SITE` pointing at the server and
//! no proxy. The server records every HTTP exchange; when a step fails, the panic shows
//! the command, its exit status, stdout, stderr and the exchanges it caused.

use crate::postgres;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Output};

use e2e::support::clients;
use e2e::support::files::{assert_same_files, copy_dir, path_arg};
use e2e::support::registry::Registry;
use e2e::support::tools::CLAWHUB_VERSION;
use serde_json::Value;

#[test]
fn clawhub_cli_against_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("registry.db").display()
    );
    scenario(&url);
}

#[test]
fn clawhub_cli_against_postgres() {
    let server = postgres::shared().expect("throwaway PostgreSQL starts");
    let url = server.fresh_database("clawhub_e2e");
    scenario(&url);
}

/// The whole user story of the issue, step by step.
fn scenario(database_url: &str) {
    let registry = Registry::start(database_url).expect("registry starts");
    let work = tempfile::tempdir().expect("temp dir");
    let home = work.path().join("home");
    let alice = Clawhub {
        cli: clients::Clawhub::new(&registry.base, &home, &work.path().join("alice.json")),
        registry: &registry,
    };
    let anonymous = Clawhub {
        cli: clients::Clawhub::new(&registry.base, &home, &work.path().join("nobody.json")),
        registry: &registry,
    };

    // the binary is the release we target
    let version = alice.run(&["--cli-version"]);
    assert_eq!(version.stdout.trim(), CLAWHUB_VERSION);

    // logging in: no token, a wrong token, the right token
    let not_logged_in = anonymous.run_failing(&["whoami"]);
    assert!(
        not_logged_in.stderr.contains("Not logged in"),
        "{not_logged_in}"
    );
    let wrong = alice.run_failing(&[
        "login",
        "--token",
        "clh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "--no-input",
    ]);
    assert!(
        wrong.stderr.contains("API token is invalid or revoked"),
        "the server's 401 text reaches the user\n{wrong}"
    );
    // The CLI caches the registry URL in its config before verifying the token, so the
    // file may exist; what matters is that the refused token was not saved.
    if let Ok(text) = fs::read_to_string(&alice.cli.config) {
        let config: Value = serde_json::from_str(&text).expect("config is JSON");
        assert!(
            config.get("token").is_none_or(Value::is_null),
            "a failed login stores no token: {text}"
        );
    }
    let login = alice.run(&["login", "--token", &registry.token, "--no-input"]);
    assert!(login.stdout.contains("OK. Logged in as @alice."), "{login}");
    let config: Value = serde_json::from_str(
        &fs::read_to_string(&alice.cli.config).expect("login wrote the config file"),
    )
    .expect("config is JSON");
    assert_eq!(config["token"], registry.token.as_str());
    let whoami = alice.run(&["whoami"]);
    assert!(whoami.stdout.contains("alice"), "{whoami}");

    // publish a skill folder (the dotfile stays local)
    let skill_dir = work.path().join("demo-skill");
    copy_dir(&fixture("demo-skill"), &skill_dir).expect("copy the fixture skill");
    let published = alice.run(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--slug",
        "demo-skill",
        "--name",
        "Demo Skill",
        "--version",
        "1.0.0",
        "--changelog",
        "Initial",
        "--tags",
        "latest,stable",
        "--json",
    ]);
    let result = published.json();
    assert_eq!(result["status"], "published", "{published}");
    assert_eq!(result["version"], "1.0.0", "{published}");
    assert_eq!(result["fileCount"], 2, "{published}");
    assert!(
        registry
            .exchanges_since(published.first_exchange)
            .iter()
            .filter(|line| line.contains("POST /api/v1/skills/-/upload-url"))
            .count()
            == 2,
        "one upload ticket per file\n{published}"
    );

    // publishing unchanged content is recognised through the fingerprint
    let unchanged = alice.run(&["skill", "publish", path_arg(&skill_dir)]);
    assert!(
        unchanged
            .stdout
            .contains("OK. demo-skill@1.0.0 is already published"),
        "{unchanged}"
    );
    assert!(
        !unchanged
            .exchanges()
            .iter()
            .any(|line| line.contains("upload")),
        "nothing is uploaded again\n{unchanged}"
    );

    // search and browse, logged in and anonymously
    for user in [&alice, &anonymous] {
        let search = user.run(&["search", "demo"]);
        assert!(search.stdout.contains("demo-skill v1.0.0"), "{search}");
        assert!(search.stdout.contains("@alice"), "{search}");
        let exact = user.run(&["search", "demo-skill", "--exact"]);
        assert!(exact.stdout.contains("demo-skill"), "{exact}");
    }
    let prefix = anonymous.run(&["search", "demo", "--prefix"]);
    assert!(prefix.stdout.contains("demo-skill"), "{prefix}");
    let explore = anonymous.run(&["explore", "--json"]);
    let listing = explore.json();
    let items = listing["items"].as_array().expect("items array");
    assert!(
        items.iter().any(|item| item["slug"] == "demo-skill"),
        "{explore}"
    );
    anonymous.run(&["explore", "--sort", "downloads"]);

    // inspect: metadata, file list, one file's bytes, versions
    let inspect = anonymous.run(&["inspect", "demo-skill", "--json"]);
    let detail = inspect.json();
    assert_eq!(detail["skill"]["tags"]["latest"], "1.0.0", "{inspect}");
    assert_eq!(detail["skill"]["tags"]["stable"], "1.0.0", "{inspect}");
    assert_eq!(detail["owner"]["handle"], "alice", "{inspect}");
    let files = alice.run(&["inspect", "demo-skill", "--files"]);
    assert!(files.stdout.contains("scripts/run.sh"), "{files}");
    assert!(files.stdout.contains("SKILL.md"), "{files}");
    assert!(!files.stdout.contains(".notes"), "{files}");
    let one_file = anonymous.run(&["inspect", "demo-skill", "--file", "scripts/run.sh"]);
    let run_sh = fs::read_to_string(skill_dir.join("scripts/run.sh")).expect("fixture file");
    assert!(one_file.stdout.contains(run_sh.trim_end()), "{one_file}");
    alice.run(&[
        "inspect",
        "@alice/demo-skill",
        "--tag",
        "stable",
        "--versions",
    ]);

    // install into a temp workdir: files byte-identical to the published folder
    let install_dir = work.path().join("install");
    fs::create_dir_all(&install_dir).expect("install dir");
    let install = alice.run(&["--workdir", path_arg(&install_dir), "install", "demo-skill"]);
    assert!(
        install.stdout.contains("Installed demo-skill v1.0.0"),
        "{install}"
    );
    let installed = install_dir.join("skills/demo-skill");
    assert_same_files(&skill_dir, &installed);
    assert!(
        installed.join("_meta.json").is_file(),
        "the archive carries `_meta.json`"
    );
    assert!(
        !installed.join(".notes").exists(),
        "dotfiles are never published"
    );
    let lock: Value = serde_json::from_str(
        &fs::read_to_string(install_dir.join(".clawhub/lock.json")).expect("lock file"),
    )
    .expect("lock is JSON");
    assert_eq!(lock["skills"]["demo-skill"]["version"], "1.0.0");
    let list = alice.run(&["--workdir", path_arg(&install_dir), "list"]);
    assert!(list.stdout.contains("demo-skill"), "{list}");

    // a second version, then update the installed copy
    let mut skill_md = fs::read_to_string(skill_dir.join("SKILL.md")).expect("SKILL.md");
    skill_md.push_str("\n## Goodbye\n\nSay goodbye when the user leaves.\n");
    fs::write(skill_dir.join("SKILL.md"), &skill_md).expect("edit SKILL.md");
    let second = alice.run(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--version",
        "1.1.0",
        "--changelog",
        "Add goodbye",
        "--json",
    ]);
    assert_eq!(second.json()["version"], "1.1.0", "{second}");
    let versions = anonymous.run(&["inspect", "demo-skill", "--versions"]);
    let newer = versions.stdout.find("1.1.0");
    let older = versions.stdout.find("1.0.0");
    assert!(
        matches!((newer, older), (Some(newer), Some(older)) if newer < older),
        "both versions, newest first\n{versions}"
    );
    let update = alice.run(&["--workdir", path_arg(&install_dir), "update", "demo-skill"]);
    assert!(
        update.stdout.contains("Updated demo-skill -> v1.1.0"),
        "{update}"
    );
    assert_same_files(&skill_dir, &installed);
    let again = alice.run(&["--workdir", path_arg(&install_dir), "update", "--all"]);
    assert!(again.stdout.contains("up to date"), "{again}");

    // unchanged content after the second version is recognised too
    let unchanged = alice.run(&["skill", "publish", path_arg(&skill_dir)]);
    assert!(
        unchanged
            .stdout
            .contains("OK. demo-skill@1.1.0 is already published"),
        "{unchanged}"
    );

    // the scanner's verdict reaches the CLI: a suspicious skill needs --force
    let risky_dir = work.path().join("risky-skill");
    copy_dir(&fixture("risky-skill"), &risky_dir).expect("copy the risky fixture");
    alice.run(&[
        "skill",
        "publish",
        path_arg(&risky_dir),
        "--version",
        "1.0.0",
    ]);
    let refused = alice.run_failing(&[
        "--workdir",
        path_arg(&install_dir),
        "install",
        "risky-skill",
    ]);
    assert!(
        refused.stderr.contains("suspicious") || refused.stdout.contains("suspicious"),
        "{refused}"
    );
    let forced = alice.run(&[
        "--workdir",
        path_arg(&install_dir),
        "install",
        "risky-skill",
        "--force",
    ]);
    assert!(forced.stdout.contains("Installed risky-skill"), "{forced}");

    registry.stop();
}

/// A CLI identity (one config file, so one token) and the registry whose exchanges its
/// failures show.
#[derive(Clone)]
struct Clawhub<'r> {
    cli: clients::Clawhub,
    registry: &'r Registry,
}

/// What one CLI call did.
struct Run<'r> {
    command: String,
    status: ExitStatus,
    stdout: String,
    stderr: String,
    registry: &'r Registry,
    first_exchange: usize,
}

impl Run<'_> {
    fn exchanges(&self) -> Vec<String> {
        self.registry.exchanges_since(self.first_exchange)
    }

    fn json(&self) -> Value {
        match serde_json::from_str(&self.stdout) {
            Ok(value) => value,
            Err(error) => panic!("stdout is not JSON ({error})\n{self}"),
        }
    }
}

impl std::fmt::Display for Run<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(formatter, "$ {}", self.command)?;
        writeln!(formatter, "exit: {}", self.status)?;
        writeln!(formatter, "--- stdout\n{}", self.stdout.trim_end())?;
        writeln!(formatter, "--- stderr\n{}", self.stderr.trim_end())?;
        writeln!(formatter, "--- HTTP exchanges")?;
        for line in self.exchanges() {
            writeln!(formatter, "{line}")?;
        }
        Ok(())
    }
}

impl<'r> Clawhub<'r> {
    fn output(&self, args: &[&str]) -> Run<'r> {
        let first_exchange = self.registry.exchange_count();
        let Output {
            status,
            stdout,
            stderr,
        } = self.cli.output(args);
        Run {
            command: format!("clawhub {}", args.join(" ")),
            status,
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            registry: self.registry,
            first_exchange,
        }
    }

    /// Runs the CLI and requires success.
    fn run(&self, args: &[&str]) -> Run<'r> {
        let run = self.output(args);
        assert!(run.status.success(), "the CLI failed\n{run}");
        run
    }

    /// Runs the CLI and requires exit status 1 (the CLI's error status).
    fn run_failing(&self, args: &[&str]) -> Run<'r> {
        let run = self.output(args);
        assert_eq!(
            run.status.code(),
            Some(1),
            "the CLI should have failed\n{run}"
        );
        run
    }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/skills")
        .join(name)
}
