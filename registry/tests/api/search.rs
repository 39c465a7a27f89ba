//! Search relevance on a labelled query set (`fixtures/search/queries.json`) and the index
//! kept in step with writes: a publish is found at once, deleted and hidden skills never.

use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, TestApp};
use crate::lifecycle::role_token;
use registry::db::Role;

both_backends!(
    labelled_queries_rank_as_expected,
    index_follows_publish_delete_and_rename,
    shown_rows_follow_hides_counters_and_filters,
    searches_wait_for_a_catch_up_under_way,
);

const QUERIES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fixtures/search/queries.json"
));

async fn search_slugs(app: &TestApp, query: &str) -> Vec<String> {
    filtered_search_slugs(app, query, "").await
}

/// Slugs found for `query` with extra query parameters `filters` (`&name=value…`).
async fn filtered_search_slugs(app: &TestApp, query: &str, filters: &str) -> Vec<String> {
    let encoded = percent_encoding::utf8_percent_encode(query, percent_encoding::NON_ALPHANUMERIC);
    let response = app
        .get(&format!("/api/v1/search?q={encoded}&limit=20{filters}"))
        .send()
        .await
        .expect("search");
    assert_eq!(response.status(), 200, "search `{query}`");
    let body: Value = response.json().await.expect("json");
    body["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| result["slug"].as_str().expect("slug").to_owned())
        .collect()
}

fn skill_md(name: &str, description: &str, body: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n{body}\n").into_bytes()
}

async fn publish(app: &TestApp, token: &str, slug: &str, name: &str, md: &[u8]) {
    let response = app
        .publish_payload(
            token,
            json!({
                "slug": slug,
                "displayName": name,
                "version": "1.0.0",
                "changelog": "first",
                "acceptLicenseTerms": true,
                "tags": ["latest"],
            }),
            &[("SKILL.md", md)],
        )
        .await;
    assert_eq!(response.status(), 200, "publish {slug}");
}

async fn labelled_queries_rank_as_expected(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let fixture: Value = serde_json::from_str(QUERIES).expect("queries fixture");
    for skill in fixture["skills"].as_array().expect("skills") {
        let text = |key: &str| skill[key].as_str().expect("fixture text");
        let md = skill_md(text("name"), text("description"), text("body"));
        publish(&app, &token, text("slug"), text("name"), &md).await;
    }
    let mut failures = Vec::new();
    for case in fixture["queries"].as_array().expect("queries") {
        let query = case["q"].as_str().expect("q");
        let slugs = search_slugs(&app, query).await;
        let first = case["first"].as_str().expect("first");
        if slugs.first().map(String::as_str) != Some(first) {
            failures.push(format!(
                "`{query}`: expected `{first}` first, got {slugs:?}"
            ));
        }
        for wanted in case["contains"].as_array().into_iter().flatten() {
            let wanted = wanted.as_str().expect("slug");
            if !slugs.iter().any(|slug| slug == wanted) {
                failures.push(format!("`{query}`: `{wanted}` missing from {slugs:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

async fn send(app: &TestApp, method: Method, path: &str, token: &str, body: Value) -> u16 {
    app.client
        .request(method, app.url(path))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

async fn index_follows_publish_delete_and_rename(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    // Searched before anything exists, so the index is built and must then follow writes.
    assert!(search_slugs(&app, "zebra").await.is_empty());
    let md = skill_md(
        "Zebra Stripes",
        "Counts zebra stripes",
        "Savanna field notes.",
    );
    publish(&app, &token, "zebra-stripes", "Zebra Stripes", &md).await;
    assert_eq!(search_slugs(&app, "zebra").await, ["zebra-stripes"]);
    assert_eq!(search_slugs(&app, "zeb").await, ["zebra-stripes"]);

    let renamed = send(
        &app,
        Method::POST,
        "/api/v1/skills/zebra-stripes/rename",
        &token,
        json!({"newSlug": "okapi-stripes"}),
    )
    .await;
    assert_eq!(renamed, 200);
    assert_eq!(search_slugs(&app, "okapi").await, ["okapi-stripes"]);
    assert_eq!(search_slugs(&app, "zebra").await, ["okapi-stripes"]);

    let deleted = send(
        &app,
        Method::DELETE,
        "/api/v1/skills/okapi-stripes",
        &token,
        json!({}),
    )
    .await;
    assert_eq!(deleted, 200);
    assert!(search_slugs(&app, "zebra").await.is_empty());
    assert!(search_slugs(&app, "okapi").await.is_empty());

    let restored = send(
        &app,
        Method::POST,
        "/api/v1/skills/okapi-stripes/undelete",
        &token,
        json!({}),
    )
    .await;
    assert_eq!(restored, 200);
    assert_eq!(search_slugs(&app, "okapi").await, ["okapi-stripes"]);
}

/// Search hits' rows are kept between searches where the server is the only writer
/// (`CachingStore::search_skills`). Each search here asks a new query, so no cached
/// response answers it: what is checked is the row behind each hit.
async fn shown_rows_follow_hides_counters_and_filters(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    for (slug, name) in [
        ("heron-watch", "Heron Watch"),
        ("heron-count", "Heron Count"),
    ] {
        let md = skill_md(name, "Notes on herons", "Wading birds.");
        publish(&app, &token, slug, name, &md).await;
    }
    let mut both = search_slugs(&app, "heron").await;
    both.sort();
    assert_eq!(both, ["heron-count", "heron-watch"]);

    // A download shows in the next search's row once the journal is applied.
    let response = app
        .get("/api/v1/download?slug=heron-count")
        .send()
        .await
        .expect("download");
    assert_eq!(response.status(), 200);
    app.flush_downloads().await;
    let body: Value = app
        .get("/api/v1/search?q=heron%20count")
        .send()
        .await
        .expect("search")
        .json()
        .await
        .expect("json");
    let count = body["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|hit| hit["slug"] == "heron-count")
        .expect("heron-count found");
    assert_eq!(count["downloads"], 1, "{body}");

    // Hidden by a moderator: gone from the next search at once.
    let moderator = role_token(&app, "mod", Role::Moderator).await;
    let hidden = send(
        &app,
        Method::POST,
        "/api/v1/skills/heron-watch/hide",
        &moderator,
        json!({"reason": "review"}),
    )
    .await;
    assert_eq!(hidden, 200);
    assert_eq!(search_slugs(&app, "heron watch").await, ["heron-count"]);
    // Filters apply to kept rows as they do to rows read from the database.
    assert!(
        filtered_search_slugs(&app, "heron", "&highlightedOnly=true")
            .await
            .is_empty()
    );
    assert_eq!(
        filtered_search_slugs(&app, "heron", "&nonSuspiciousOnly=true").await,
        ["heron-count"]
    );

    let shown = send(
        &app,
        Method::POST,
        "/api/v1/skills/heron-watch/unhide",
        &moderator,
        json!({}),
    )
    .await;
    assert_eq!(shown, 200);
    let mut again = search_slugs(&app, "herons").await;
    again.sort();
    assert_eq!(again, ["heron-count", "heron-watch"]);
}

/// A search that arrives while another one is building (or catching up) the index waits
/// for it instead of answering from the index as it was: a fresh process's first searches
/// found nothing while 100,000 skills were being indexed.
async fn searches_wait_for_a_catch_up_under_way(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let md = skill_md("Ibis Tracker", "Tracks ibis sightings", "Wetland notes.");
    publish(&app, &token, "ibis-tracker", "Ibis Tracker", &md).await;
    let index = registry::search::SearchIndex::new().expect("index");
    let store = app.state.store.as_ref();
    let query = registry::db::SearchQuery {
        terms: vec!["ibis".into()],
        limit: 10,
        highlighted_only: false,
        non_suspicious_only: false,
        valid_prompt_sets_only: false,
    };
    // Polled in turn on one task: the second starts while the first holds the build.
    let (first, second) = tokio::join!(index.search(store, &query), index.search(store, &query));
    for hits in [first, second] {
        let slugs: Vec<String> = hits
            .expect("search")
            .iter()
            .map(|hit| hit.skill.slug.clone())
            .collect();
        assert_eq!(slugs, ["ibis-tracker"]);
    }
}

/// Two server states on one PostgreSQL database stand for two instances: a download
/// counted by one shows in the other's search at once, because PostgreSQL announces the
/// skill's change (migration 0100) and the other drops the row it kept. Without the
/// announcement the kept row would be shown for up to a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_instances_change_reaches_kept_search_rows_at_once() {
    let app = TestApp::spawn(Backend::Postgres).await;
    let token = app.token("alice").await;
    let md = skill_md("Egret Log", "Logs egret sightings", "Marsh notes.");
    publish(&app, &token, "egret-log", "Egret Log", &md).await;

    let other = other_instance(&app).await;
    let query = registry::db::SearchQuery {
        terms: vec!["egret".into()],
        limit: 10,
        highlighted_only: false,
        non_suspicious_only: false,
        valid_prompt_sets_only: false,
    };
    let downloads = || async {
        let hits = other.store.search_skills(&query).await.expect("search");
        assert_eq!(hits.len(), 1, "{hits:?}");
        hits[0].skill.downloads
    };
    assert_eq!(downloads().await, 0);

    let response = app
        .get("/api/v1/download?slug=egret-log")
        .send()
        .await
        .expect("download");
    assert_eq!(response.status(), 200);
    app.flush_downloads().await;
    let counted = std::time::Instant::now();
    while downloads().await != 1 {
        assert!(
            counted.elapsed() < std::time::Duration::from_millis(500),
            "the other instance kept the old row"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// A second server state on `app`'s PostgreSQL database, as another instance, once it
/// hears the database's change announcements.
async fn other_instance(app: &TestApp) -> registry::app::AppState {
    let config = app.state.config.clone();
    let store = registry::db::connect(&config.database_url, 2)
        .await
        .expect("database");
    let storage = registry::db::pg_blobs::PgBlobStorage::connect(config.database_url.expose(), 1)
        .await
        .expect("blob storage");
    let other = registry::app::AppState::from_parts(config, store, std::sync::Arc::new(storage));
    let started = std::time::Instant::now();
    while !other.responses.keeps_rows() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "the other state never listened"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    other
}

/// Another instance keeps skill details in memory on PostgreSQL, and drops one when a
/// version row of its skill changes, even by a write that leaves the skill row alone
/// (migration 0110): the detail shows the latest version's changelog and SKILL.md.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_instances_version_change_drops_a_kept_detail() {
    let app = TestApp::spawn(Backend::Postgres).await;
    let token = app.token("alice").await;
    let md = skill_md("Heron Log", "Logs heron sightings", "River notes.");
    publish(&app, &token, "heron-log", "Heron Log", &md).await;
    let other = other_instance(&app).await;
    let pool = sqlx::PgPool::connect(app.state.config.database_url.expose())
        .await
        .expect("pool");
    let skill: i64 = sqlx::query_scalar("SELECT id FROM skills WHERE slug = 'heron-log'")
        .fetch_one(&pool)
        .await
        .expect("skill id");
    let key = "/api/v1/skills/heron-log";
    let kept = || other.responses.get(key).is_some();
    other.responses.put_scoped(
        key.to_owned(),
        other.responses.generation(),
        registry::cache::Scope::Skill(skill),
        axum::body::Bytes::from_static(b"{}"),
    );
    assert!(kept(), "a skill detail is kept while changes are heard");
    // Lists and searches depend on every skill and on packages: not kept there.
    other.responses.put(
        "/api/v1/skills".to_owned(),
        other.responses.generation(),
        axum::body::Bytes::from_static(b"{}"),
    );
    assert!(other.responses.get("/api/v1/skills").is_none());

    sqlx::query("UPDATE skill_versions SET changelog = 'edited' WHERE skill_id = $1")
        .bind(skill)
        .execute(&pool)
        .await
        .expect("edit the version");
    let changed = std::time::Instant::now();
    while kept() {
        assert!(
            changed.elapsed() < std::time::Duration::from_millis(500),
            "the other instance kept the detail of a changed version"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}
