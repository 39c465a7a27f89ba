//! The configurable publish limits: body size, file count, file size, total unpacked size,
//! path length, nesting and the package tarball's archive ratio. Each is lowered on a fresh server and broken by one publish,
//! which must get a 4xx with a plain-text reason and store nothing.

use clap::Parser as _;
use registry::config::Config;
use registry::storage::sha256_hex;

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    every_publish_limit_is_enforced_and_stores_nothing,
    the_body_limit_answers_413_and_stores_nothing,
    the_archive_ratio_is_configurable_and_stores_nothing,
);

struct Case {
    name: &'static str,
    configure: fn(&mut Config),
    files: Vec<(String, Vec<u8>)>,
    reason: &'static str,
}

fn cases() -> Vec<Case> {
    let file = |path: &str, size: usize| (path.to_owned(), vec![b'x'; size]);
    let skill_md = ("SKILL.md".to_owned(), SKILL_MD.to_vec());
    vec![
        Case {
            name: "file count",
            configure: |config| config.upload_limits.max_files = 2,
            files: vec![skill_md.clone(), file("a.md", 10), file("b.md", 10)],
            reason: "Skill bundle has more than 2 files",
        },
        Case {
            name: "file size",
            configure: |config| config.upload_limits.max_file_bytes = 1000,
            files: vec![skill_md.clone(), file("big.md", 1001)],
            reason: "File \"big.md\" exceeds the 1000 byte file limit",
        },
        Case {
            name: "total unpacked size",
            configure: |config| config.upload_limits.max_bundle_bytes = 2000,
            files: vec![skill_md.clone(), file("a.md", 1000), file("b.md", 1000)],
            reason: "Skill bundle exceeds the 2000 byte limit",
        },
        Case {
            name: "path length",
            configure: |config| config.upload_limits.max_path_chars = 20,
            files: vec![
                skill_md.clone(),
                file(&format!("{}.md", "p".repeat(18)), 10),
            ],
            reason: "File path is longer than 20 characters",
        },
        Case {
            name: "nesting",
            configure: |config| config.upload_limits.max_path_depth = 2,
            files: vec![skill_md, file("a/b/c/deep.md", 10)],
            reason: "File path \"a/b/c/deep.md\" is nested deeper than 2 directories",
        },
    ]
}

async fn assert_nothing_stored(app: &TestApp, slug: &str, files: &[(String, Vec<u8>)]) {
    let response = app
        .get(&format!("/api/v1/skills/{slug}"))
        .send()
        .await
        .expect("skill");
    text_error(response, 404).await;
    for (path, bytes) in files {
        assert!(
            !app.state
                .storage
                .contains(&sha256_hex(bytes))
                .await
                .expect("storage"),
            "the blob of `{path}` was stored"
        );
    }
}

async fn every_publish_limit_is_enforced_and_stores_nothing(backend: Backend) {
    for case in cases() {
        let app = TestApp::spawn_with(backend, case.configure).await;
        let token = app.token("alice").await;
        let files: Vec<(&str, &[u8])> = case
            .files
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
            .collect();
        // The multipart form.
        let response = app.publish(&token, "limited-skill", "1.0.0", &files).await;
        assert_eq!(response.status(), 400, "{}", case.name);
        assert_eq!(
            text_error(response, 400).await,
            case.reason,
            "{}",
            case.name
        );
        assert_nothing_stored(&app, "limited-skill", &case.files).await;
        // The CLI's flow: the declared sizes and paths are checked at the publish too
        // (uploads of single files within the file limit are fine on their own).
        if case.name != "file size" {
            let with_types: Vec<(&str, &[u8], &str)> = files
                .iter()
                .map(|(path, bytes)| (*path, *bytes, "text/markdown"))
                .collect();
            let response = app
                .publish_like_cli(&token, "limited-skill", "1.0.0", &["latest"], &with_types)
                .await;
            assert_eq!(
                text_error(response, 400).await,
                case.reason,
                "{} (JSON)",
                case.name
            );
            let skill = app
                .get("/api/v1/skills/limited-skill")
                .send()
                .await
                .expect("skill");
            text_error(skill, 404).await;
        }
        // Within the limits the same server publishes.
        let response = app
            .publish(&token, "fine-skill", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await;
        assert_eq!(response.status(), 200, "{}", case.name);
    }

    // An upload ticket for a file above the configured file limit is refused up front.
    let app = TestApp::spawn_with(backend, |config| {
        config.upload_limits.max_file_bytes = 1000;
    })
    .await;
    let token = app.token("alice").await;
    let response = app
        .client
        .post(app.url("/api/v1/skills/-/upload-url"))
        .bearer_auth(&token)
        .json(&serde_json::json!({ "path": "big.md", "size": 1001, "sha256": "0".repeat(64) }))
        .send()
        .await
        .expect("upload-url");
    assert_eq!(
        text_error(response, 400).await,
        "Upload must be at most 1000 bytes"
    );
}

async fn the_body_limit_answers_413_and_stores_nothing(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| config.body_limit = 4096).await;
    let token = app.token("alice").await;
    let files = [
        ("SKILL.md".to_owned(), SKILL_MD.to_vec()),
        ("big.md".to_owned(), vec![b'y'; 8192]),
    ];
    let response = app
        .publish(
            &token,
            "huge-skill",
            "1.0.0",
            &[("SKILL.md", &files[0].1), ("big.md", &files[1].1)],
        )
        .await;
    assert_eq!(text_error(response, 413).await, "Request body is too large");
    assert_nothing_stored(&app, "huge-skill", &files[1..]).await;
}

#[test]
fn limits_above_the_reference_ones_are_refused_at_start_up() {
    #[derive(clap::Parser)]
    struct Serve {
        #[command(flatten)]
        config: Config,
    }
    let defaults = Serve::try_parse_from(["serve"]).expect("defaults");
    assert_eq!(
        defaults.config.upload_limits,
        registry::config::UploadLimits::default()
    );
    let lowered = Serve::try_parse_from([
        "serve",
        "--max-files",
        "10",
        "--max-file-bytes",
        "1024",
        "--max-bundle-bytes",
        "4096",
        "--max-path-chars",
        "64",
        "--max-path-depth",
        "3",
    ])
    .expect("lower limits");
    assert_eq!(lowered.config.upload_limits.max_files, 10);
    let ratio = Serve::try_parse_from(["serve", "--max-archive-ratio", "20"]).expect("ratio");
    assert_eq!(ratio.config.upload_limits.max_archive_ratio, 20);
    assert!(Serve::try_parse_from(["serve", "--max-archive-ratio", "0"]).is_err());
    assert_eq!(lowered.config.upload_limits.max_path_depth, 3);
    for (flag, value) in [
        ("--max-files", "1001"),
        ("--max-file-bytes", "10485761"),
        ("--max-bundle-bytes", "52428801"),
        ("--max-path-chars", "501"),
        ("--max-path-depth", "17"),
        ("--max-files", "0"),
    ] {
        assert!(
            Serve::try_parse_from(["serve", flag, value]).is_err(),
            "{flag} {value} is refused"
        );
    }
}

/// A code plugin whose 1.7 MB word list compresses about 12 times: an ordinary package
/// under the default ratio (100), a bomb under a ratio of 5.
fn compressible_plugin() -> Vec<u8> {
    use registry::packages::tarball::{self, PackFile};
    let file = |path: &str, bytes: Vec<u8>| PackFile {
        path: path.to_owned(),
        bytes,
        mode: 0o644,
    };
    let words = ["alpha", "beta", "gamma", "delta"];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut text = String::new();
    for _ in 0..300_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        text.push_str(words[(state % 4) as usize]);
        text.push(' ');
    }
    tarball::build(&[
        file(
            "package.json",
            br#"{"name":"wordy-plugin","version":"1.0.0","main":"index.js",
                "openclaw":{"extensions":["./index.js"],"compat":{"pluginApi":">=2026.1.0"},"build":{"openclawVersion":"2026.9.6"}}}"#
                .to_vec(),
        ),
        file(
            "openclaw.plugin.json",
            br#"{"id":"wordy-plugin","name":"Wordy","configSchema":{}}"#.to_vec(),
        ),
        file("index.js", b"module.exports = {};\n".to_vec()),
        file("words.txt", text.into_bytes()),
    ])
    .expect("tarball")
}

async fn publish_package(app: &TestApp, token: &str, tarball: Vec<u8>) -> reqwest::Response {
    let payload = serde_json::json!({
        "name": "wordy-plugin", "displayName": "Wordy", "family": "code-plugin",
        "version": "1.0.0", "changelog": "first", "tags": ["latest"],
        "source": {"kind": "github", "url": "https://github.com/alice/wordy", "repo": "alice/wordy",
                   "ref": "main", "commit": "0123456789abcdef0123456789abcdef01234567", "path": ".", "importedAt": 1},
    });
    let form = reqwest::multipart::Form::new()
        .text("payload", payload.to_string())
        .part(
            "clawpack",
            reqwest::multipart::Part::bytes(tarball).file_name("package.tgz"),
        );
    app.client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("publish")
}

async fn the_archive_ratio_is_configurable_and_stores_nothing(backend: Backend) {
    let tarball = compressible_plugin();
    let sha = sha256_hex(&tarball);
    let strict = TestApp::spawn_with(backend, |config| {
        config.upload_limits.max_archive_ratio = 5;
    })
    .await;
    let token = strict.token("alice").await;
    let response = publish_package(&strict, &token, tarball.clone()).await;
    assert_eq!(
        text_error(response, 413).await,
        "the package tarball expands more than 5 times its compressed size (the archive ratio limit)"
    );
    assert!(!strict.state.storage.contains(&sha).await.expect("storage"));
    let missing = strict
        .get("/api/v1/packages/wordy-plugin")
        .send()
        .await
        .expect("package");
    text_error(missing, 404).await;

    // The same tarball is an ordinary package under the default ratio.
    let default = TestApp::spawn(backend).await;
    let token = default.token("alice").await;
    let response = publish_package(&default, &token, tarball).await;
    let status = response.status();
    assert_eq!(status, 200, "{}", response.text().await.expect("body"));
    assert!(default.state.storage.contains(&sha).await.expect("storage"));
}
