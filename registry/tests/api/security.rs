//! Security properties, each tried rather than assumed: tokens at rest, revocation, forged
//! cursors, how user files are served, and the forwarded-IP setting.

use base64::Engine as _;
use clap::Parser as _;
use registry::config::{Config, RateLimit};
use registry::db::Role;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    tokens_are_stored_only_as_hashes,
    a_revoked_token_is_refused_at_once,
    forged_cursors_cannot_reveal_hidden_skills,
    user_files_are_never_served_as_active_content,
    forwarded_ips_are_ignored_unless_trusted,
);

fn cursor(value: &Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
}

/// Every text cell of the tokens table, read with a connection of our own.
async fn token_table(app: &TestApp) -> Vec<String> {
    let url = app.state.config.database_url.expose().to_owned();
    let sql = "SELECT token_hash, CAST(user_id AS TEXT), CAST(created_at AS TEXT) FROM api_tokens";
    let rows: Vec<(String, String, String)> = if app.state.config.database_url.is_postgres() {
        let pool = sqlx::PgPool::connect(&url).await.expect("connect");
        sqlx::query_as(sql).fetch_all(&pool).await.expect("tokens")
    } else {
        let pool = sqlx::SqlitePool::connect(&url).await.expect("connect");
        sqlx::query_as(sql).fetch_all(&pool).await.expect("tokens")
    };
    rows.into_iter()
        .flat_map(|(hash, user, created)| [hash, user, created])
        .collect()
}

async fn tokens_are_stored_only_as_hashes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let cells = token_table(&app).await;
    let hash = registry::tokens::hash_token(&token);
    assert!(cells.contains(&hash), "the SHA-256 of the token is stored");
    let secret = token.trim_start_matches("clh_");
    assert!(
        cells.iter().all(|cell| !cell.contains(secret)),
        "no cell holds the token itself: {cells:?}"
    );
    // The hash alone is not a credential.
    let response = app
        .get("/api/v1/whoami")
        .bearer_auth(&hash)
        .send()
        .await
        .expect("whoami");
    text_error(response, 401).await;
}

async fn a_revoked_token_is_refused_at_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let whoami = || async {
        app.get("/api/v1/whoami")
            .bearer_auth(&token)
            .send()
            .await
            .expect("whoami")
    };
    // Warm every cache the server has with the live token first.
    for _ in 0..3 {
        assert_eq!(whoami().await.status(), 200);
    }
    let now = chrono::Utc::now().timestamp_millis();
    assert!(
        app.state
            .store
            .revoke_token(&registry::tokens::hash_token(&token), now)
            .await
            .expect("revoke")
    );
    let body = text_error(whoami().await, 401).await;
    assert_eq!(body, registry::auth::REVOKED_TOKEN);
    let publish = app
        .publish(&token, "after-revoke", "1.0.0", &[("SKILL.md", SKILL_MD)])
        .await;
    assert_eq!(
        text_error(publish, 401).await,
        registry::auth::REVOKED_TOKEN
    );
}

async fn forged_cursors_cannot_reveal_hidden_skills(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.token("owner").await;
    for slug in ["aaa-visible", "mmm-hidden", "zzz-visible"] {
        let response = app
            .publish(&owner, slug, "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await;
        assert_eq!(response.status(), 200);
    }
    let moderator =
        registry::tokens::create_token(app.state.store.as_ref(), "moderator", Role::Moderator)
            .await
            .expect("token");
    let hidden = app
        .client
        .post(app.url("/api/v1/skills/mmm-hidden/hide"))
        .bearer_auth(&moderator)
        .json(&json!({ "reason": "test" }))
        .send()
        .await
        .expect("hide");
    assert_eq!(
        hidden.status(),
        200,
        "{}",
        hidden.text().await.unwrap_or_default()
    );
    let row = app
        .state
        .store
        .find_skill("mmm-hidden")
        .await
        .expect("find")
        .expect("row");
    let forged = [
        (
            "name",
            cursor(&json!({ "s": "name", "k": { "Slug": "mmm" } })),
        ),
        ("name", cursor(&json!({ "s": "name", "k": { "Slug": "" } }))),
        (
            "downloads",
            cursor(
                &json!({ "s": "downloads", "k": { "Keys": { "values": [i64::MAX], "id": i64::MAX } } }),
            ),
        ),
        (
            "updated",
            cursor(
                &json!({ "s": "updated", "k": { "Keys": { "values": [row.skill.updated_at + 1], "id": row.skill.id + 1 } } }),
            ),
        ),
        (
            "newest",
            cursor(
                &json!({ "s": "newest", "k": { "Keys": { "values": [row.skill.created_at + 1], "id": row.skill.id + 1 } } }),
            ),
        ),
        ("downloads", "garbage%%".to_owned()),
    ];
    for (sort, forged) in forged {
        let response = app
            .get(&format!(
                "/api/v1/skills?sort={sort}&limit=50&cursor={forged}"
            ))
            .send()
            .await
            .expect("list");
        assert_eq!(response.status(), 200, "sort {sort}");
        let page: Value = response.json().await.expect("json");
        let slugs: Vec<&str> = page["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|item| item["slug"].as_str())
            .collect();
        assert!(
            !slugs.contains(&"mmm-hidden"),
            "sort {sort}, cursor {forged}: {slugs:?}"
        );
    }
    // A hidden skill's versions stay hidden whatever cursor is sent.
    let version_cursor = cursor(&json!({ "c": i64::MAX, "i": i64::MAX }));
    let response = app
        .get(&format!(
            "/api/v1/skills/mmm-hidden/versions?cursor={version_cursor}"
        ))
        .send()
        .await
        .expect("versions");
    text_error(response, 404).await;
    // Where the reference refuses undecodable cursors (the plugin export), so do we.
    let response = app
        .get("/api/v1/plugins/export?startDate=0&endDate=4102444800000&cursor=%%%garbage")
        .bearer_auth(&owner)
        .send()
        .await
        .expect("export");
    assert_eq!(text_error(response, 400).await, "Invalid cursor format");
}

async fn user_files_are_never_served_as_active_content(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let html = b"<!doctype html><script>alert(document.cookie)</script>";
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>";
    let response = app
        .publish_like_cli(
            &token,
            "active-content",
            "1.0.0",
            &["latest"],
            &[
                ("SKILL.md", SKILL_MD, "text/markdown"),
                ("page.html", html, "text/html"),
                ("image.svg", svg, "image/svg+xml"),
                ("doc.xhtml", html, "application/xhtml+xml"),
                ("data.xml", b"<x/>", "text/xml"),
            ],
        )
        .await;
    assert_eq!(response.status(), 200);
    for path in [
        "page.html",
        "image.svg",
        "doc.xhtml",
        "data.xml",
        "SKILL.md",
    ] {
        for preview in ["", "&preview=1"] {
            let response = app
                .get(&format!(
                    "/api/v1/skills/active-content/file?path={path}{preview}"
                ))
                .send()
                .await
                .expect("file");
            assert_eq!(response.status(), 200, "{path}{preview}");
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or("")
                    .to_ascii_lowercase()
            };
            let content_type = header("content-type");
            for active in ["html", "svg", "xml", "javascript"] {
                assert!(
                    !content_type.contains(active),
                    "{path}{preview} served as `{content_type}`"
                );
            }
            assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
            assert!(
                header("content-security-policy").contains("default-src 'none'"),
                "{path}"
            );
        }
    }
    let download = app
        .get("/api/v1/download?slug=active-content")
        .send()
        .await
        .expect("download");
    assert_eq!(download.status(), 200);
    assert_eq!(
        download
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok()),
        Some("application/zip")
    );
}

async fn forwarded_ips_are_ignored_unless_trusted(backend: Backend) {
    // The flag is off unless given.
    #[derive(clap::Parser)]
    struct Serve {
        #[command(flatten)]
        config: Config,
    }
    let parsed = Serve::try_parse_from(["serve"]).expect("defaults parse");
    assert!(!parsed.config.trust_forwarded_ips);

    let limit = RateLimit {
        anonymous: 2,
        user: 2,
    };
    let app = TestApp::spawn_with(backend, |config| config.rate_limit_read = limit).await;
    let mut statuses = Vec::new();
    for index in 0..4 {
        let response = app
            .get("/api/v1/skills")
            .header("x-forwarded-for", format!("203.0.113.{index}"))
            .header("x-real-ip", format!("198.51.100.{index}"))
            .header("cf-connecting-ip", format!("192.0.2.{index}"))
            .send()
            .await
            .expect("list");
        statuses.push(response.status().as_u16());
    }
    assert_eq!(
        statuses,
        [200, 200, 429, 429],
        "spoofed client IPs must not buy fresh buckets"
    );

    let trusted = TestApp::spawn_with(backend, |config| {
        config.rate_limit_read = limit;
        config.trust_forwarded_ips = true;
    })
    .await;
    for index in 0..4 {
        let response = trusted
            .get("/api/v1/skills")
            .header("x-forwarded-for", format!("203.0.113.{index}"))
            .send()
            .await
            .expect("list");
        assert_eq!(
            response.status(),
            200,
            "behind a trusted proxy each IP counts"
        );
    }
}
