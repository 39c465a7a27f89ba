//! End to end with the published `clawhub` CLI 0.23.3: alice transfers a skill to bob,
//! who accepts it; `inspect` and `install` then show bob as the owner. A moderator hides
//! the skill, and `install` fails with a clear message. SQLite only.

use std::fs;
use std::path::Path;

use e2e::support::clients::Clawhub;
use e2e::support::files::{copy_dir, path_arg, show};
use e2e::support::registry::Registry;
use registry::db::Role;
use serde_json::Value;

#[test]
fn transfer_accept_then_hide_with_the_real_cli() {
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
    let carol = Clawhub::new(&registry.base, &home, &work.join("carol.json"));
    let bob_token = registry.token_for("bob");
    let carol_token = registry.token_for("carol");
    let moderator = registry.token_with_role("mod", Role::Moderator);
    alice.run(&["login", "--token", &registry.token, "--no-input"]);
    bob.run(&["login", "--token", &bob_token, "--no-input"]);
    carol.run(&["login", "--token", &carol_token, "--no-input"]);

    let skill_dir = work.join("demo-skill");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/skills/demo-skill"),
        &skill_dir,
    )
    .expect("copy the fixture skill");
    alice.run(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--slug",
        "demo-skill",
        "--name",
        "Demo Skill",
        "--version",
        "1.0.0",
    ]);

    // alice offers the skill to bob; bob sees it and accepts
    let requested = alice.run(&[
        "transfer",
        "request",
        "demo-skill",
        "@bob",
        "--message",
        "all yours",
        "--yes",
    ]);
    assert!(
        requested.contains("Transfer requested") && requested.contains("@bob"),
        "{requested}"
    );
    let outgoing = alice.run(&["transfer", "list", "--outgoing"]);
    assert!(
        outgoing.contains("demo-skill") && outgoing.contains("@bob"),
        "{outgoing}"
    );
    let incoming = bob.run(&["transfer", "list"]);
    assert!(
        incoming.contains("demo-skill") && incoming.contains("@alice"),
        "{incoming}"
    );
    // carol is not the recipient: the server's text reaches her
    let refused = carol.fails(&["transfer", "accept", "demo-skill", "--yes"]);
    assert!(refused.contains("No pending transfer found"), "{refused}");
    let accepted = bob.run(&["transfer", "accept", "demo-skill", "--yes"]);
    assert!(accepted.contains("Transfer accepted"), "{accepted}");
    let incoming = bob.run(&["transfer", "list"]);
    assert!(!incoming.contains("demo-skill"), "{incoming}");

    // inspect and install show the new owner
    let inspect = carol.stdout(&["inspect", "demo-skill", "--json"]);
    let inspected: Value = serde_json::from_str(&inspect).expect("inspect --json");
    assert_eq!(inspected["owner"]["handle"], "bob", "{inspect}");
    let install_dir = work.join("install");
    fs::create_dir_all(&install_dir).expect("install dir");
    let installed = carol.run(&["--workdir", path_arg(&install_dir), "install", "demo-skill"]);
    assert!(
        installed.contains("Installed demo-skill v1.0.0"),
        "{installed}"
    );
    let lock: Value = serde_json::from_str(
        &fs::read_to_string(install_dir.join(".clawhub/lock.json")).expect("lock file"),
    )
    .expect("lock JSON");
    assert_eq!(lock["skills"]["demo-skill"]["ownerHandle"], "bob", "{lock}");
    // the old owner may no longer publish under the slug
    let stale = alice.output(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--slug",
        "demo-skill",
        "--version",
        "1.0.1",
    ]);
    assert_eq!(stale.status.code(), Some(1), "{}", show(&stale));

    // a moderator hides it: installing now fails and says why
    let (status, body) = registry.post(
        "/api/v1/skills/demo-skill/hide",
        &moderator,
        r#"{"reason":"under review"}"#,
    );
    assert_eq!(status, 200, "{body}");
    let again_dir = work.join("again");
    fs::create_dir_all(&again_dir).expect("install dir");
    let hidden = carol.fails(&["--workdir", path_arg(&again_dir), "install", "demo-skill"]);
    assert!(hidden.contains("Skill not found"), "{hidden}");
    assert!(!again_dir.join("skills/demo-skill").exists());
    let inspect =
        String::from_utf8_lossy(&bob.output(&["inspect", "demo-skill"]).stdout).into_owned();
    assert!(!inspect.contains("Demo Skill"), "{inspect}");

    registry.stop();
}
