//! End to end with the published `clawhub` CLI 0.23.3: rename (the old slug keeps working
//! for `inspect`, `install` and `update`), merge (the duplicate's slug leads to the
//! canonical skill), withdraw and restore a single version, delete and undelete a skill;
//! each followed by `inspect`/`install` showing the new state. SQLite only.

use std::fs;
use std::path::Path;

use e2e::support::clients::Clawhub;
use e2e::support::files::{copy_dir, path_arg};
use e2e::support::registry::Registry;
use serde_json::Value;

fn inspect(cli: &Clawhub, slug: &str) -> Value {
    serde_json::from_str(&cli.stdout(&["inspect", slug, "--json"])).expect("inspect --json")
}

fn publish(cli: &Clawhub, dir: &Path, slug: &str, version: &str) {
    let out = cli.stdout(&[
        "skill",
        "publish",
        path_arg(dir),
        "--slug",
        slug,
        "--version",
        version,
    ]);
    assert!(
        out.contains(&format!("Published {slug}@{version}")),
        "{out}"
    );
}

#[test]
fn rename_merge_delete_and_undelete_with_the_real_cli() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("registry.db").display()
    );
    let registry = Registry::start(&url).expect("registry starts");
    let work = dir.path();
    let home = work.join("home");
    let alice = Clawhub::new(&registry.base, &home, &work.join("alice.json"));
    let bob = Clawhub::new(&registry.base, &home, &work.join("bob.json"));
    let bob_token = registry.token_for("bob");
    alice.stdout(&["login", "--token", &registry.token, "--no-input"]);
    bob.stdout(&["login", "--token", &bob_token, "--no-input"]);

    let skill_dir = work.join("demo-skill");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/skills/demo-skill"),
        &skill_dir,
    )
    .expect("copy the fixture skill");
    publish(&alice, &skill_dir, "demo-skill", "1.0.0");
    fs::write(skill_dir.join("CHANGES.md"), "# 1.1.0\n\nMore greetings.\n").expect("write");
    publish(&alice, &skill_dir, "demo-skill", "1.1.0");

    // bob installs 1.0.0 under the first name
    let installs = work.join("installs");
    fs::create_dir_all(&installs).expect("dir");
    let out = bob.stdout(&[
        "--workdir",
        path_arg(&installs),
        "install",
        "demo-skill",
        "--version",
        "1.0.0",
    ]);
    assert!(out.contains("Installed demo-skill v1.0.0"), "{out}");

    // rename: the old slug answers with the new one, and bob's install still updates
    let out = alice.stdout(&["skill", "rename", "demo-skill", "demo-renamed", "--yes"]);
    assert!(out.contains("Renamed demo-skill to demo-renamed"), "{out}");
    let renamed = inspect(&bob, "demo-skill");
    assert_eq!(renamed["skill"]["slug"], "demo-renamed", "{renamed}");
    assert_eq!(renamed["latestVersion"]["version"], "1.1.0", "{renamed}");
    let out = bob.stdout(&["--workdir", path_arg(&installs), "update", "demo-skill"]);
    assert!(out.contains("1.1.0"), "{out}");
    assert!(
        installs.join("skills/demo-skill/CHANGES.md").is_file(),
        "the update brought 1.1.0's files"
    );
    let fresh = work.join("fresh");
    fs::create_dir_all(&fresh).expect("dir");
    let out = bob.stdout(&["--workdir", path_arg(&fresh), "install", "demo-skill"]);
    assert!(out.contains("v1.1.0"), "{out}");

    // merge: the duplicate's slug now leads to the canonical skill
    let other_dir = work.join("other-skill");
    copy_dir(&skill_dir, &other_dir).expect("copy");
    fs::write(other_dir.join("EXTRA.md"), "a duplicate\n").expect("write");
    publish(&alice, &other_dir, "other-skill", "1.0.0");
    let out = alice.stdout(&["skill", "merge", "other-skill", "demo-renamed", "--yes"]);
    assert!(
        out.contains("Merged other-skill into demo-renamed"),
        "{out}"
    );
    let merged = inspect(&bob, "other-skill");
    assert_eq!(merged["skill"]["slug"], "demo-renamed", "{merged}");
    let search = bob.stdout(&["search", "skill"]);
    assert!(!search.contains("other-skill"), "{search}");

    // one version withdrawn and restored
    let out = alice.stdout(&["delete", "demo-renamed", "--version", "1.0.0", "--yes"]);
    assert!(out.contains("OK"), "{out}");
    let versions = bob.stdout(&["inspect", "demo-renamed", "--versions"]);
    assert!(
        versions.contains("1.1.0") && !versions.contains("1.0.0"),
        "{versions}"
    );
    let pinned = work.join("pinned");
    fs::create_dir_all(&pinned).expect("dir");
    let refused = bob.fails(&[
        "--workdir",
        path_arg(&pinned),
        "install",
        "demo-renamed",
        "--version",
        "1.0.0",
    ]);
    assert!(refused.contains("Version not available"), "{refused}");
    let latest = alice.fails(&["delete", "demo-renamed", "--version", "1.1.0", "--yes"]);
    assert!(latest.contains("Publish a replacement version"), "{latest}");
    alice.stdout(&["undelete", "demo-renamed", "--version", "1.0.0", "--yes"]);
    let out = bob.stdout(&[
        "--workdir",
        path_arg(&pinned),
        "install",
        "demo-renamed",
        "--version",
        "1.0.0",
    ]);
    assert!(out.contains("v1.0.0"), "{out}");

    // the whole skill deleted: gone for bob, who may not delete it either; then back
    let out = alice.stdout(&["delete", "demo-renamed", "--yes", "--reason", "pausing"]);
    assert!(
        out.contains("OK. Deleted demo-renamed. Slug reserved until"),
        "{out}"
    );
    let gone = bob.fails(&["inspect", "demo-renamed"]);
    assert!(gone.contains("Skill not found"), "{gone}");
    let later = work.join("later");
    fs::create_dir_all(&later).expect("dir");
    let gone = bob.fails(&["--workdir", path_arg(&later), "install", "demo-renamed"]);
    assert!(gone.contains("Skill not found"), "{gone}");
    let search = bob.stdout(&["search", "demo"]);
    assert!(!search.contains("demo-renamed"), "{search}");
    let forbidden = bob.fails(&["delete", "demo-renamed", "--yes"]);
    assert!(
        forbidden.contains("Permission denied") || forbidden.contains("Forbidden"),
        "{forbidden}"
    );
    let out = alice.stdout(&["undelete", "demo-renamed", "--yes"]);
    assert!(out.contains("OK. Undeleted demo-renamed"), "{out}");
    let back = inspect(&bob, "demo-renamed");
    assert_eq!(back["latestVersion"]["version"], "1.1.0", "{back}");
    let out = bob.stdout(&["--workdir", path_arg(&later), "install", "demo-renamed"]);
    assert!(out.contains("Installed demo-renamed v1.1.0"), "{out}");
}
