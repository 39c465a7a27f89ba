//! The configurable publish limits: body size, file count, file size, total unpacked size,
//! path length and nesting. Each is lowered on a fresh server and broken by one publish,
//! which must get a 4xx with a plain-text reason and store nothing.

use clap::Parser as _;
use registry::config::Config;
use registry::storage::sha256_hex;

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    every_publish_limit_is_enforced_and_stores_nothing,
    the_body_limit_answers_413_and_stores_nothing,
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
