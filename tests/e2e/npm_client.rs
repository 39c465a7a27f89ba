//! End to end with two clients nobody here wrote: the published `clawhub` CLI
//! (`clawhub@0.23.3`) publishes three packages — a plain one (a bundle plugin with a
//! `package.json`, sent as loose files), a scoped code plugin and an unscoped code plugin
//! (both packed by the CLI with `npm pack`) — and the real `npm` client installs each from
//! our `/api/npm/` surface with no other registry configured.
//!
//! npm runs with its own empty user config, global config and cache, so nothing can come
//! from registry.npmjs.org. The installed files must equal the published ones, npm's
//! lockfile must carry our integrity and tarball URL (npm checks the tarball against that
//! integrity while installing), and after `clawhub package delete` the package no longer
//! installs. The CLI is installed like the other end-to-end test does, into
//! `target/e2e-cache/clawhub-0.23.3`; without node/npm the test fails with the reason.

use std::fs;

use e2e::support::clients::{Clawhub, Npm};
use e2e::support::files::{assert_same_files, path_arg, show, write_files};
use e2e::support::fixtures::code_plugin;
use e2e::support::registry::Registry;
use serde_json::Value;

#[test]
fn npm_installs_packages_published_with_the_clawhub_cli() {
    let work = tempfile::tempdir().expect("temp dir");
    let database = format!(
        "sqlite://{}?mode=rwc",
        work.path().join("registry.db").display()
    );
    let registry = Registry::start(&database).expect("registry starts");
    let cli = Clawhub::new(
        &registry.base,
        &work.path().join("home"),
        &work.path().join("alice.json"),
    );
    let login = cli.run(&["login", "--token", &registry.token, "--no-input"]);
    assert!(login.contains("Logged in as @alice"), "{login}");

    // 1. A plain package: a bundle plugin whose files include a package.json.
    let plain = work.path().join("hello-bundle");
    write_files(
        &plain,
        &[
            (
                "package.json",
                r#"{"name":"hello-bundle","version":"0.1.0","description":"Bundled hello skill","main":"index.js"}"#,
            ),
            (
                "openclaw.plugin.json",
                r#"{"id":"hello-bundle","name":"Hello Bundle"}"#,
            ),
            ("index.js", "module.exports = 'hello';\n"),
            (
                "skills/hello/SKILL.md",
                "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n",
            ),
        ],
    );
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&plain),
        "--family",
        "bundle-plugin",
        "--version",
        "0.1.0",
    ]);
    assert!(out.contains("Published hello-bundle@0.1.0"), "{out}");

    // 2. A scoped code plugin and 3. an unscoped one, packed by the CLI with `npm pack`.
    let scoped = code_plugin(work.path(), "@alice/scoped-plug", "1.2.3");
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&scoped),
        "--family",
        "code-plugin",
        "--source-repo",
        "alice/scoped-plug",
        "--source-commit",
        "0123456789abcdef0123456789abcdef01234567",
    ]);
    assert!(out.contains("Published @alice/scoped-plug@1.2.3"), "{out}");
    let code = code_plugin(work.path(), "demo-code-plugin", "2.0.0");
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&code),
        "--family",
        "code-plugin",
        "--source-repo",
        "alice/demo-code-plugin",
        "--source-commit",
        "89abcdef0123456789abcdef0123456789abcdef",
    ]);
    assert!(out.contains("Published demo-code-plugin@2.0.0"), "{out}");

    let npm = Npm::new(work.path(), &registry.base);
    for (name, version, source) in [
        ("hello-bundle", "0.1.0", &plain),
        ("@alice/scoped-plug", "1.2.3", &scoped),
        ("demo-code-plugin", "2.0.0", &code),
    ] {
        let project = npm.project(&format!("install-{}", name.replace(['@', '/'], "_")));
        let output = npm.install(&project, name);
        assert!(
            output.status.success(),
            "npm install {name} failed\n{}",
            show(&output)
        );
        let installed = project.join("node_modules").join(name);
        assert_same_files(source, &installed);
        // npm verified the tarball against the packument's integrity; the lockfile shows
        // which integrity and which tarball URL it used.
        let artifact = registry.json(&format!(
            "/api/v1/packages/{}/versions/{version}/artifact",
            name.replace('@', "%40").replace('/', "%2F")
        ));
        let lock: Value = serde_json::from_str(
            &fs::read_to_string(project.join("package-lock.json")).expect("npm wrote a lockfile"),
        )
        .expect("lockfile is JSON");
        let entry = &lock["packages"][format!("node_modules/{name}")];
        assert_eq!(entry["version"], version, "{name}");
        assert_eq!(
            entry["integrity"], artifact["artifact"]["npmIntegrity"],
            "{name}"
        );
        assert_eq!(
            entry["resolved"], artifact["artifact"]["tarballUrl"],
            "{name}"
        );
    }

    // A deleted package no longer installs (fresh cache, so npm must ask the registry).
    let out = cli.run(&["package", "delete", "demo-code-plugin", "--yes"]);
    assert!(!out.is_empty());
    let npm_after = Npm::new(&work.path().join("after-delete"), &registry.base);
    let project = npm_after.project("install-deleted");
    let output = npm_after.install(&project, "demo-code-plugin");
    assert!(
        !output.status.success(),
        "a deleted package installed\n{}",
        show(&output)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("404"),
        "npm reports the 404\n{}",
        show(&output)
    );
    assert!(!project.join("node_modules/demo-code-plugin").exists());
}
