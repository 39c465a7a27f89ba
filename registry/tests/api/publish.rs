//! Publishing (multipart and the CLI's ticket flow) and reading back what was published.

use std::io::Read as _;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    multipart_publish_round_trips_through_every_read,
    cli_ticket_flow_publishes_and_resolves,
    versions_are_immutable_and_latest_follows_semver,
    slugs_belong_to_their_owner,
);

async fn json(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200, "unexpected status");
    response.json().await.expect("json body")
}

async fn multipart_publish_round_trips_through_every_read(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let run = b"#!/bin/sh\necho hello\n";
    let published = json(
        app.publish(
            &token,
            "demo-skill",
            "1.0.0",
            &[("SKILL.md", SKILL_MD), ("scripts/run.sh", run)],
        )
        .await,
    )
    .await;
    assert_eq!(published["ok"], true);
    assert_eq!(published["publicationStatus"], "published");
    assert!(published["skillId"].is_string() && published["versionId"].is_string());

    let skill = json(
        app.get("/api/v1/skills/Demo-Skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    insta::assert_json_snapshot!("skill_detail", skill, {
        ".skill.createdAt" => "[ms]", ".skill.updatedAt" => "[ms]",
        ".latestVersion.createdAt" => "[ms]", ".owner.userId" => "[id]",
        ".skill.canonicalUrl" => "[base]/alice/demo-skill",
    });

    // Read once before the download so a cached body must be refreshed afterwards.
    let before = json(
        app.get("/api/v1/skills/demo-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(before["skill"]["stats"]["downloads"], 0);

    let versions = json(
        app.get("/api/v1/skills/demo-skill/versions")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(versions["items"][0]["version"], "1.0.0");
    assert_eq!(versions["nextCursor"], Value::Null);

    let version = json(
        app.get("/api/v1/skills/demo-skill/versions/1.0.0")
            .send()
            .await
            .expect("get"),
    )
    .await;
    let files = version["version"]["files"].as_array().expect("files");
    assert_eq!(files.len(), 2);
    assert_eq!(version["version"]["security"]["status"], "clean");

    let file = app
        .get("/api/v1/skills/demo-skill/file?path=scripts/run.sh&version=1.0.0")
        .send()
        .await
        .expect("file");
    assert_eq!(file.status(), 200);
    assert_eq!(
        file.headers()["etag"],
        registry::storage::sha256_hex(run).as_str()
    );
    assert_eq!(file.bytes().await.expect("bytes").as_ref(), run);

    let download = app
        .get("/api/v1/download?slug=demo-skill&ownerHandle=alice&version=1.0.0")
        .send()
        .await
        .expect("download");
    assert_eq!(download.status(), 200);
    assert_eq!(download.headers()["content-type"], "application/zip");
    assert_eq!(
        download.headers()["content-disposition"],
        "attachment; filename=\"demo-skill-1.0.0.zip\""
    );
    let bytes = download.bytes().await.expect("zip");
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("zip archive");
    let names: Vec<String> = archive
        .file_names()
        .map(|name| name.expect("utf-8 name").into_owned())
        .collect();
    assert_eq!(names, ["_meta.json", "scripts/run.sh", "SKILL.md"]);
    let mut content = Vec::new();
    archive
        .by_name("scripts/run.sh")
        .expect("entry")
        .read_to_end(&mut content)
        .expect("read");
    assert_eq!(content, run);
    let mut meta = String::new();
    archive
        .by_name("_meta.json")
        .expect("meta")
        .read_to_string(&mut meta)
        .expect("read");
    let meta: Value = serde_json::from_str(&meta).expect("meta json");
    assert_eq!(meta["slug"], "demo-skill");
    assert_eq!(meta["version"], "1.0.0");

    app.flush_downloads().await;
    let skill = json(
        app.get("/api/v1/skills/demo-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(skill["skill"]["stats"]["downloads"], 1);

    let fingerprint = registry::bundle::fingerprint([
        ("SKILL.md", registry::storage::sha256_hex(SKILL_MD).as_str()),
        (
            "scripts/run.sh",
            registry::storage::sha256_hex(run).as_str(),
        ),
    ]);
    let resolved = json(
        app.get(&format!(
            "/api/v1/resolve?slug=demo-skill&hash={fingerprint}"
        ))
        .send()
        .await
        .expect("resolve"),
    )
    .await;
    assert_eq!(
        resolved,
        json!({"slug": "demo-skill", "match": {"version": "1.0.0"}, "latestVersion": {"version": "1.0.0"}})
    );
    let other = "0".repeat(64);
    let unmatched = json(
        app.get(&format!("/api/v1/resolve?slug=demo-skill&hash={other}"))
            .send()
            .await
            .expect("resolve"),
    )
    .await;
    assert_eq!(unmatched["match"], Value::Null);
    let unknown = app
        .get(&format!("/api/v1/resolve?slug=nothing-here&hash={other}"))
        .send()
        .await
        .expect("resolve");
    assert_eq!(text_error(unknown, 404).await, "Skill not found");
}

async fn cli_ticket_flow_publishes_and_resolves(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let run = b"echo hi\n";
    let files = [
        ("SKILL.md", SKILL_MD, "text/markdown"),
        ("scripts/run.sh", &run[..], "application/x-sh"),
    ];
    let published = json(
        app.publish_like_cli(&token, "cli-skill", "1.0.0", &["latest", "stable"], &files)
            .await,
    )
    .await;
    assert_eq!(published["status"], "published");
    let skill = json(
        app.get("/api/v1/skills/cli-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(
        skill["skill"]["tags"],
        json!({"latest": "1.0.0", "stable": "1.0.0"})
    );
    let version = json(
        app.get("/api/v1/skills/cli-skill/versions/1.0.0")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(
        version["version"]["files"][1]["contentType"],
        "application/x-sh"
    );

    // A ticket is single-use: uploading again and publishing again are both refused.
    let ticket: Value = app
        .client
        .post(app.url("/api/v1/skills/-/upload-url"))
        .bearer_auth(&token)
        .json(&json!({"path": "SKILL.md", "size": 3, "sha256": registry::storage::sha256_hex(b"abc")}))
        .send()
        .await
        .expect("ticket")
        .json()
        .await
        .expect("json");
    let url = ticket["uploadUrl"].as_str().expect("url").to_owned();
    assert!(url.starts_with(&app.base));
    let wrong = app
        .client
        .post(&url)
        .bearer_auth(&token)
        .body("abd")
        .send()
        .await
        .expect("upload");
    assert_eq!(
        text_error(wrong, 400).await,
        "Uploaded file SHA-256 does not match its upload ticket"
    );
    let longer = app
        .client
        .post(&url)
        .bearer_auth(&token)
        .body("abcd")
        .send()
        .await
        .expect("upload");
    assert_eq!(
        text_error(longer, 413).await,
        "Uploaded file exceeds its declared size"
    );
    let ok = app
        .client
        .post(&url)
        .bearer_auth(&token)
        .body("abc")
        .send()
        .await
        .expect("upload");
    assert_eq!(ok.status(), 200);
    let again = app
        .client
        .post(&url)
        .bearer_auth(&token)
        .body("abc")
        .send()
        .await
        .expect("upload");
    assert_eq!(
        text_error(again, 400).await,
        "Skill upload ticket is missing, used, or expired"
    );

    let missing_ticket = app
        .client
        .post(app.url("/api/v1/skills"))
        .bearer_auth(&token)
        .json(&json!({"slug": "x-skill", "displayName": "X", "version": "1.0.0", "acceptLicenseTerms": true,
                      "files": [{"path": "SKILL.md", "size": 3, "storageId": "s", "sha256": "a"}]}))
        .send()
        .await
        .expect("publish");
    assert_eq!(
        text_error(missing_ticket, 400).await,
        "Every directly uploaded skill file requires an upload ticket"
    );
    let no_license = app
        .client
        .post(app.url("/api/v1/skills"))
        .bearer_auth(&token)
        .json(&json!({"slug": "x-skill", "displayName": "X", "version": "1.0.0",
                      "files": [{"path": "SKILL.md", "size": 3, "storageId": "s", "sha256": "a", "uploadTicket": "t"}]}))
        .send()
        .await
        .expect("publish");
    assert_eq!(
        text_error(no_license, 400).await,
        "MIT-0 license terms must be accepted to publish skills"
    );
}

async fn versions_are_immutable_and_latest_follows_semver(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let files: &[(&str, &[u8])] = &[("SKILL.md", SKILL_MD)];
    json(app.publish(&token, "demo-skill", "1.0.0", files).await).await;
    let again = app.publish(&token, "demo-skill", "1.0.0", files).await;
    assert_eq!(
        text_error(again, 409).await,
        "Version 1.0.0 already exists. Increment the version number and try again."
    );
    json(app.publish(&token, "demo-skill", "0.9.0", files).await).await;
    let skill = json(
        app.get("/api/v1/skills/demo-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(skill["latestVersion"]["version"], "1.0.0");
    let payload = json!({"slug": "demo-skill", "displayName": "Demo Skill", "version": "1.1.0", "changelog": "More",
                         "acceptLicenseTerms": true, "tags": ["latest", "beta"]});
    json(app.publish_payload(&token, payload, files).await).await;
    let skill = json(
        app.get("/api/v1/skills/demo-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(
        skill["skill"]["tags"],
        json!({"beta": "1.1.0", "latest": "1.1.0"})
    );
    assert_eq!(skill["skill"]["stats"]["versions"], 3);
    let page = json(
        app.get("/api/v1/skills/demo-skill/versions?limit=2")
            .send()
            .await
            .expect("get"),
    )
    .await;
    let first: Vec<&str> = page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|v| v["version"].as_str().expect("v"))
        .collect();
    assert_eq!(first, ["1.1.0", "0.9.0"]);
    let cursor = page["nextCursor"].as_str().expect("cursor");
    let rest = json(
        app.get(&format!(
            "/api/v1/skills/demo-skill/versions?limit=2&cursor={cursor}"
        ))
        .send()
        .await
        .expect("get"),
    )
    .await;
    assert_eq!(rest["items"][0]["version"], "1.0.0");
    assert_eq!(rest["nextCursor"], Value::Null);
    let tagged = json(
        app.get("/api/v1/skills/demo-skill/scan?tag=beta")
            .send()
            .await
            .expect("scan"),
    )
    .await;
    assert_eq!(tagged["version"]["version"], "1.1.0");
    let unknown_tag = app
        .get("/api/v1/skills/demo-skill/scan?tag=nope")
        .send()
        .await
        .expect("scan");
    assert_eq!(text_error(unknown_tag, 404).await, "Version not found");
    let unknown_version = app
        .get("/api/v1/skills/demo-skill/versions/9.9.9")
        .send()
        .await
        .expect("get");
    assert_eq!(text_error(unknown_version, 404).await, "Version not found");
    let old = app
        .get("/api/v1/download?slug=demo-skill&version=0.9.0")
        .send()
        .await
        .expect("download");
    assert_eq!(old.status(), 200);
}

async fn slugs_belong_to_their_owner(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let files: &[(&str, &[u8])] = &[("SKILL.md", SKILL_MD)];
    json(app.publish(&alice, "demo-skill", "1.0.0", files).await).await;
    let taken = app.publish(&bob, "demo-skill", "2.0.0", files).await;
    assert_eq!(
        text_error(taken, 400).await,
        "Slug is already taken. Choose a different slug."
    );
    let payload = json!({"slug": "bobs-skill", "displayName": "B", "version": "1.0.0", "ownerHandle": "alice",
                         "acceptLicenseTerms": true});
    let foreign = app.publish_payload(&bob, payload, files).await;
    assert!(
        text_error(foreign, 400)
            .await
            .starts_with("You do not have publish access for \"@alice\"")
    );
    let wrong_owner = app
        .get("/api/v1/skills/demo-skill?ownerHandle=bob")
        .send()
        .await
        .expect("get");
    assert_eq!(text_error(wrong_owner, 404).await, "Skill not found");
    let right_owner = app
        .get("/api/v1/skills/demo-skill?ownerHandle=@Alice")
        .send()
        .await
        .expect("get");
    assert_eq!(right_owner.status(), 200);
}
