//! The legacy `/api/*` and `/api/cli/*` routes answer in their old shapes and hide what v1
//! hides.

use registry::db::Role;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};
use crate::transfers::post;

both_backends!(
    legacy_reads_answer_in_their_old_shapes,
    legacy_writes_publish_and_count_installs,
    legacy_delete_and_undelete_act_on_whole_skills,
);

async fn json_ok(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn legacy_reads_answer_in_their_old_shapes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    for version in ["1.0.0", "1.1.0"] {
        assert_eq!(
            app.publish(&alice, "old-skill", version, &[("SKILL.md", SKILL_MD)])
                .await
                .status(),
            200
        );
    }
    let skill = json_ok(
        app.get("/api/skill?slug=old-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(skill["skill"]["slug"], "old-skill");
    assert_eq!(skill["latestVersion"]["version"], "1.1.0");
    assert_eq!(skill["owner"]["handle"], "alice");
    assert!(skill["skill"]["stats"].is_object());
    // Tags map to version ids here, not version strings.
    let latest_id = skill["skill"]["tags"]["latest"].as_str().expect("tag id");
    assert!(latest_id.bytes().all(|b| b.is_ascii_digit()), "{skill}");
    let stored = app
        .state
        .store
        .find_skill("old-skill")
        .await
        .expect("find")
        .expect("skill");
    assert_eq!(
        Some(latest_id.to_owned()),
        stored.skill.latest_version_id.map(|id| id.to_string())
    );
    let missing = app.get("/api/skill").send().await.expect("get");
    assert_eq!(text_error(missing, 400).await, "Missing slug");
    let unknown = app
        .get("/api/skill?slug=nope-skill")
        .send()
        .await
        .expect("get");
    assert_eq!(text_error(unknown, 404).await, "Skill not found");

    let search = json_ok(app.get("/api/search?q=old").send().await.expect("get")).await;
    assert_eq!(search["results"][0]["slug"], "old-skill");
    let resolved = json_ok(
        app.get(&format!(
            "/api/skill/resolve?slug=old-skill&hash={}",
            "0".repeat(64)
        ))
        .send()
        .await
        .expect("get"),
    )
    .await;
    assert_eq!(resolved["match"], Value::Null);
    assert_eq!(resolved["latestVersion"]["version"], "1.1.0");
    let download = app
        .get("/api/download?slug=old-skill")
        .send()
        .await
        .expect("get");
    assert_eq!(download.status(), 200);
    assert_eq!(
        download
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/zip")
    );
    let whoami = json_ok(
        app.get("/api/cli/whoami")
            .bearer_auth(&alice)
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(
        whoami,
        json!({ "user": { "handle": "alice", "displayName": null, "image": null } })
    );
    let anonymous = app.get("/api/cli/whoami").send().await.expect("get");
    assert_eq!(anonymous.status(), 401);

    // Hidden by a moderator: gone from the legacy reads too.
    let moderator =
        registry::tokens::create_token(app.state.store.as_ref(), "mod", Role::Moderator)
            .await
            .expect("token");
    assert_eq!(
        post(&app, &moderator, "/api/v1/skills/old-skill/hide", json!({}))
            .await
            .status(),
        200
    );
    for path in ["/api/skill?slug=old-skill", "/api/download?slug=old-skill"] {
        let hidden = app.get(path).send().await.expect("get");
        assert_eq!(text_error(hidden, 404).await, "Skill not found", "{path}");
    }
    let search = json_ok(app.get("/api/search?q=old").send().await.expect("get")).await;
    assert_eq!(search["results"], json!([]));
}

async fn legacy_writes_publish_and_count_installs(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;

    // The old publish path takes the same multipart form as v1.
    let form = Form::new()
        .text(
            "payload",
            json!({
                "slug": "legacy-skill", "displayName": "Legacy Skill", "version": "1.0.0",
                "changelog": "first", "acceptLicenseTerms": true, "tags": ["latest"],
            })
            .to_string(),
        )
        .part(
            "files",
            Part::bytes(SKILL_MD.to_vec()).file_name("SKILL.md"),
        );
    let published = app
        .client
        .post(app.url("/api/cli/publish"))
        .bearer_auth(&alice)
        .multipart(form)
        .send()
        .await
        .expect("publish");
    let published = json_ok(published).await;
    assert_eq!(published["ok"], true);
    assert!(published["versionId"].is_string());
    let ticket = json_ok(
        post(
            &app,
            &alice,
            "/api/cli/upload-url",
            json!({ "path": "SKILL.md", "size": 3, "sha256": "0".repeat(64) }),
        )
        .await,
    )
    .await;
    assert!(
        ticket["uploadUrl"]
            .as_str()
            .is_some_and(|url| url.starts_with("http://"))
    );
    assert!(ticket["uploadTicket"].is_string());

    let telemetry = "/api/cli/telemetry/install";
    let anonymous = app
        .client
        .post(app.url(telemetry))
        .json(&json!({ "event": "install", "slug": "legacy-skill" }))
        .send()
        .await
        .expect("post");
    assert_eq!(anonymous.status(), 401);
    for body in [
        json!({ "event": "install", "slug": "legacy-skill", "ownerHandle": "@alice", "version": "1.0.0" }),
        json!({ "roots": [{ "rootId": "r", "label": "x", "skills": [{ "slug": "legacy-skill" }, { "slug": "unknown-skill" }] }] }),
        json!({ "event": "plugin_install", "packageName": "@alice/plug", "version": "1.0.0" }),
        json!({ "event": "install", "slug": "legacy-skill", "ownerHandle": "someone-else" }),
    ] {
        let answer = json_ok(post(&app, &bob, telemetry, body).await).await;
        assert_eq!(answer, json!({ "ok": true }));
    }
    let skill = json_ok(
        app.get("/api/v1/skills/legacy-skill")
            .send()
            .await
            .expect("get"),
    )
    .await;
    // One direct report and one in a root; the plugin and the wrong owner count nothing.
    assert_eq!(skill["skill"]["stats"]["installs"], 2, "{skill}");
}

async fn legacy_delete_and_undelete_act_on_whole_skills(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    assert_eq!(
        app.publish(&alice, "gone-skill", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await
            .status(),
        200
    );
    let delete = "/api/cli/skill/delete";
    let version = post(
        &app,
        &alice,
        delete,
        json!({ "slug": "gone-skill", "version": "1.0.0" }),
    )
    .await;
    assert_eq!(
        text_error(version, 400).await,
        "Legacy skill delete does not support versions; use the version-scoped v1 endpoint."
    );
    let missing = post(&app, &alice, delete, json!({})).await;
    assert_eq!(text_error(missing, 400).await, "Missing slug");
    let stranger = post(&app, &bob, delete, json!({ "slug": "gone-skill" })).await;
    assert_eq!(stranger.status(), 403);
    let deleted = json_ok(
        post(
            &app,
            &alice,
            delete,
            json!({ "slug": "gone-skill", "reason": "paused" }),
        )
        .await,
    )
    .await;
    assert_eq!(deleted, json!({ "ok": true }));
    let hidden = app
        .get("/api/v1/skills/gone-skill")
        .send()
        .await
        .expect("get");
    assert_eq!(hidden.status(), 404);
    let restored = json_ok(
        post(
            &app,
            &alice,
            "/api/cli/skill/undelete",
            json!({ "slug": "gone-skill" }),
        )
        .await,
    )
    .await;
    assert_eq!(restored, json!({ "ok": true }));
    let back = app
        .get("/api/v1/skills/gone-skill")
        .send()
        .await
        .expect("get");
    assert_eq!(back.status(), 200);
}
