//! The audit log: rows written with the changes they record, the admin-only list with its
//! filters and cursor, and `registry audit` at the command line.

use registry::db::Role;
use serde_json::Value;

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    publishing_writes_an_audit_row_only_when_it_commits,
    only_admins_list_the_audit_log,
    the_audit_log_filters_and_pages
);

async fn staff_token(app: &TestApp, handle: &str, role: Role) -> String {
    registry::tokens::create_token(app.state.store.as_ref(), handle, role)
        .await
        .expect("token")
}

async fn audit(app: &TestApp, token: &str, query: &str) -> Value {
    let response = app
        .get(&format!("/api/v1/audit{query}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("audit");
    assert_eq!(response.status(), 200, "GET /api/v1/audit{query}");
    response.json().await.expect("json")
}

fn actions(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["action"].as_str().expect("action").to_owned())
        .collect()
}

async fn publishing_writes_an_audit_row_only_when_it_commits(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let admin = staff_token(&app, "root", Role::Admin).await;
    assert_eq!(
        app.publish(&alice, "demo", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await
            .status(),
        200
    );
    // A refused publish (the version exists) must leave no row behind.
    assert_eq!(
        app.publish(&alice, "demo", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await
            .status(),
        409
    );
    let page = audit(&app, &admin, "").await;
    let items = page["items"].as_array().expect("items");
    assert_eq!(items.len(), 1, "{page}");
    let item = &items[0];
    assert_eq!(item["action"], "skill.publish");
    assert_eq!(item["actor"]["handle"], "alice");
    assert!(item["actor"]["userId"].is_string());
    assert_eq!(item["target"]["kind"], "skill");
    assert_eq!(item["target"]["name"], "demo");
    assert!(item["target"]["id"].is_string());
    assert_eq!(item["from"], Value::Null);
    assert_eq!(item["to"]["version"], "1.0.0");
    assert_eq!(item["to"]["latest"], true);
    assert!(item["at"].as_i64().expect("at") > 0);
    assert_eq!(page["nextCursor"], Value::Null);
}

async fn only_admins_list_the_audit_log(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let user = app.token("alice").await;
    let moderator = staff_token(&app, "mod", Role::Moderator).await;
    let response = app.get("/api/v1/audit").send().await.expect("anonymous");
    assert!(
        text_error(response, 401)
            .await
            .contains("API token is missing")
    );
    for token in [&user, &moderator] {
        let response = app
            .get("/api/v1/audit")
            .bearer_auth(token)
            .send()
            .await
            .expect("audit");
        assert_eq!(text_error(response, 403).await, "Admin role required.");
    }
}

async fn the_audit_log_filters_and_pages(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let admin = staff_token(&app, "root", Role::Admin).await;
    for version in ["1.0.0", "1.1.0", "1.2.0"] {
        assert_eq!(
            app.publish(&alice, "alpha", version, &[("SKILL.md", SKILL_MD)])
                .await
                .status(),
            200
        );
    }
    assert_eq!(
        app.publish(&bob, "beta", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await
            .status(),
        200
    );

    let by_bob = audit(&app, &admin, "?actor=@Bob").await;
    assert_eq!(by_bob["items"].as_array().expect("items").len(), 1);
    assert_eq!(by_bob["items"][0]["target"]["name"], "beta");
    let alpha = audit(&app, &admin, "?target=alpha").await;
    let versions: Vec<&str> = alpha["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["to"]["version"].as_str().expect("version"))
        .collect();
    assert_eq!(versions, ["1.2.0", "1.1.0", "1.0.0"], "newest first");
    assert_eq!(
        actions(&audit(&app, &admin, "?action=skill").await).len(),
        4
    );
    assert_eq!(
        actions(&audit(&app, &admin, "?action=skill.publish").await).len(),
        4
    );
    // A prefix matches whole dotted words only, and LIKE wildcards mean nothing.
    assert!(actions(&audit(&app, &admin, "?action=skil").await).is_empty());
    assert!(actions(&audit(&app, &admin, "?action=%25").await).is_empty());
    assert!(actions(&audit(&app, &admin, "?targetKind=package").await).is_empty());

    // Pages of two: 2 + 2, then the end.
    let first = audit(&app, &admin, "?limit=2").await;
    assert_eq!(first["items"].as_array().expect("items").len(), 2);
    let cursor = first["nextCursor"].as_str().expect("a next page");
    let second = audit(&app, &admin, &format!("?limit=2&cursor={cursor}")).await;
    assert_eq!(second["items"].as_array().expect("items").len(), 2);
    assert_eq!(second["nextCursor"], Value::Null);
    let mut ids: Vec<&str> = first["items"]
        .as_array()
        .expect("items")
        .iter()
        .chain(second["items"].as_array().expect("items"))
        .map(|item| item["id"].as_str().expect("id"))
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 4, "no row twice, none skipped");

    for query in ["?cursor=not-a-cursor", "?limit=ten"] {
        let response = app
            .get(&format!("/api/v1/audit{query}"))
            .bearer_auth(&admin)
            .send()
            .await
            .expect("audit");
        let message = text_error(response, 400).await;
        assert!(
            message == "Invalid cursor format" || message == "Invalid limit query parameter",
            "{message}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_audit_prints_the_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("registry.db").display());
    let store = registry::db::connect(&url.parse().expect("url"), 1)
        .await
        .expect("database");
    let alice = store.ensure_user("alice", None, 1).await.expect("alice");
    for (action, name) in [("skill.publish", "demo"), ("skill.delete", "demo")] {
        store
            .record_audit(
                &registry::audit::AuditEvent::new(
                    Some(&alice),
                    action,
                    registry::audit::TargetKind::Skill,
                    Some(1),
                    name,
                )
                .to(serde_json::json!({"state": action}))
                .at(1_700_000_000_000)
                .into_row(),
            )
            .await
            .expect("record");
    }
    drop(store);
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_registry"))
            .arg("audit")
            .args(args)
            .args(["--database", &url])
            .env_remove("REGISTRY_DATABASE_URL")
            .output()
            .expect("run registry audit")
    };
    let text = run(&[]);
    assert!(text.status.success(), "{text:?}");
    let stdout = String::from_utf8(text.stdout).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            r#"2023-11-14T22:13:20Z  @alice  skill.delete  skill demo  - -> {"state":"skill.delete"}"#,
            r#"2023-11-14T22:13:20Z  @alice  skill.publish  skill demo  - -> {"state":"skill.publish"}"#,
        ]
    );
    let json = run(&["--json", "--limit", "1"]);
    assert!(json.status.success(), "{json:?}");
    let entries: Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(entries.as_array().expect("array").len(), 1);
    assert_eq!(entries[0]["action"], "skill.delete");
    assert_eq!(entries[0]["actor"]["handle"], "alice");
    let filtered = run(&["--action", "skill.publish", "--json"]);
    let entries: Value = serde_json::from_slice(&filtered.stdout).expect("json");
    assert_eq!(entries.as_array().expect("array").len(), 1);
    let bad = run(&["--limit", "0"]);
    assert_eq!(bad.status.code(), Some(2));
}
