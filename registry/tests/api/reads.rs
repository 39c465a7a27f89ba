//! Listing, cursors, sorts, search and counters.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    every_sort_pages_through_all_skills_with_cursors,
    search_ranks_name_matches_first_and_filters,
    stars_and_installs_feed_the_counters,
);

async fn json(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200, "unexpected status");
    response.json().await.expect("json body")
}

async fn every_sort_pages_through_all_skills_with_cursors(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let slugs = [
        "alpha-one",
        "bravo-two",
        "charlie-three",
        "delta-four",
        "echo-five",
    ];
    for slug in slugs {
        let response = app
            .publish(&token, slug, "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await;
        assert_eq!(response.status(), 200);
    }
    let sorts = [
        "updated",
        "recommended",
        "default",
        "createdAt",
        "newest",
        "downloads",
        "stars",
        "rating",
        "installsCurrent",
        "installs",
        "installsAllTime",
        "name",
    ];
    for sort in sorts {
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..10 {
            let mut path = format!("/api/v1/skills?sort={sort}&limit=2&unknownParam=1");
            if let Some(cursor) = &cursor {
                path.push_str(&format!("&cursor={cursor}"));
            }
            let page = json(app.get(&path).send().await.expect("list")).await;
            for item in page["items"].as_array().expect("items") {
                assert!(item["latestVersion"].is_object());
                assert!(item["metadata"]["setup"].is_array());
                seen.push(item["slug"].as_str().expect("slug").to_owned());
            }
            match page["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        let distinct: HashSet<&String> = seen.iter().collect();
        assert_eq!(seen.len(), 5, "sort {sort}: {seen:?}");
        assert_eq!(distinct.len(), 5, "sort {sort}: {seen:?}");
    }
    let newest = json(
        app.get("/api/v1/skills?sort=newest&limit=5")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(newest["items"][0]["slug"], "echo-five");
    let by_name = json(
        app.get("/api/v1/skills?sort=name")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(by_name["items"][0]["slug"], "alpha-one");
    let trending = json(
        app.get("/api/v1/skills?sort=trending&cursor=whatever")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(trending["items"].as_array().expect("items").len(), 5);
    assert_eq!(trending["nextCursor"], Value::Null);
    let prefix = json(
        app.get("/api/v1/skills?prefix=ch")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(prefix["items"].as_array().expect("items").len(), 1);
    let garbage_cursor = json(
        app.get("/api/v1/skills?cursor=%25%25garbage")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(garbage_cursor["items"].as_array().expect("items").len(), 5);

    let invalid = app
        .get("/api/v1/skills?sort=bogus")
        .send()
        .await
        .expect("list");
    assert_eq!(
        text_error(invalid, 400).await,
        "Invalid sort query parameter"
    );
    let invalid_limit = app
        .get("/api/v1/skills?limit=ten")
        .send()
        .await
        .expect("list");
    assert_eq!(
        text_error(invalid_limit, 400).await,
        "Invalid limit query parameter"
    );
    let invalid_flag = app
        .get("/api/v1/skills?nonSuspiciousOnly=maybe")
        .send()
        .await
        .expect("list");
    assert_eq!(
        text_error(invalid_flag, 400).await,
        "Invalid nonSuspiciousOnly query parameter"
    );
}

async fn search_ranks_name_matches_first_and_filters(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let weather =
        b"---\ndescription: Forecasts for any city\n---\n# Weather\nUses the forecast API.\n";
    let notes = b"---\ndescription: Take notes\n---\n# Notes\nMentions weather once.\n";
    app.publish(&token, "weather-report", "1.0.0", &[("SKILL.md", weather)])
        .await;
    app.publish(&token, "note-taker", "1.0.0", &[("SKILL.md", notes)])
        .await;
    let results = json(
        app.get("/api/v1/search?q=weather")
            .send()
            .await
            .expect("search"),
    )
    .await;
    let slugs: Vec<&str> = results["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["slug"].as_str().expect("slug"))
        .collect();
    assert_eq!(slugs, ["weather-report", "note-taker"]);
    assert!(
        results["results"][0]["score"].as_f64().expect("score")
            > results["results"][1]["score"].as_f64().expect("score")
    );
    assert_eq!(results["results"][0]["ownerHandle"], "alice");
    assert_eq!(results["results"][0]["version"], "1.0.0");
    let body_only = json(
        app.get("/api/v1/search?q=forecast")
            .send()
            .await
            .expect("search"),
    )
    .await;
    assert_eq!(body_only["results"][0]["slug"], "weather-report");
    let prefix = json(
        app.get("/api/v1/search?q=weath")
            .send()
            .await
            .expect("search"),
    )
    .await;
    assert_eq!(prefix["results"][0]["slug"], "weather-report");
    let exact = json(
        app.get("/api/v1/search?q=note-taker&mode=exact")
            .send()
            .await
            .expect("search"),
    )
    .await;
    assert_eq!(exact["results"].as_array().expect("results").len(), 1);
    let empty = json(app.get("/api/v1/search?q=").send().await.expect("search")).await;
    assert_eq!(empty, json!({"results": []}));
    let highlighted = json(
        app.get("/api/v1/search?q=weather&highlightedOnly=true")
            .send()
            .await
            .expect("search"),
    )
    .await;
    assert_eq!(highlighted, json!({"results": []}));
    let mode = app
        .get("/api/v1/search?q=x&mode=fuzzy")
        .send()
        .await
        .expect("search");
    assert_eq!(text_error(mode, 400).await, "Invalid search mode");
    let punctuation = json(
        app.get("/api/v1/search?q=%22%2A%28OR%29%3A%5E")
            .send()
            .await
            .expect("search"),
    )
    .await;
    assert_eq!(punctuation, json!({"results": []}));
}

async fn stars_and_installs_feed_the_counters(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    app.publish(&token, "first-skill", "1.0.0", &[("SKILL.md", SKILL_MD)])
        .await;
    app.publish(&token, "second-skill", "1.0.0", &[("SKILL.md", SKILL_MD)])
        .await;
    let starred = json(
        app.client
            .post(app.url("/api/v1/stars/first-skill"))
            .bearer_auth(&token)
            .json(&json!({}))
            .send()
            .await
            .expect("star"),
    )
    .await;
    assert_eq!(
        starred,
        json!({"ok": true, "starred": true, "alreadyStarred": false})
    );
    let again = json(
        app.client
            .post(app.url("/api/v1/stars/first-skill"))
            .bearer_auth(&token)
            .json(&json!({}))
            .send()
            .await
            .expect("star"),
    )
    .await;
    assert_eq!(again["alreadyStarred"], true);
    let by_stars = json(
        app.get("/api/v1/skills?sort=stars")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(by_stars["items"][0]["slug"], "first-skill");
    assert_eq!(by_stars["items"][0]["stats"]["stars"], 1);
    let recommended = json(
        app.get("/api/v1/skills?sort=recommended")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(recommended["items"][0]["slug"], "first-skill");
    let unstarred = json(
        app.client
            .delete(app.url("/api/v1/stars/first-skill"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("unstar"),
    )
    .await;
    assert_eq!(
        unstarred,
        json!({"ok": true, "unstarred": true, "alreadyUnstarred": false})
    );
    let anonymous = app
        .client
        .post(app.url("/api/v1/stars/first-skill"))
        .send()
        .await
        .expect("star");
    assert_eq!(anonymous.status(), 401);

    let installed = json(app.client.post(app.url("/api/cli/telemetry/install")).bearer_auth(&token)
        .json(&json!({"event": "install", "slug": "second-skill", "ownerHandle": "alice", "version": "1.0.0"}))
        .send().await.expect("telemetry")).await;
    assert_eq!(installed, json!({"ok": true}));
    let by_installs = json(
        app.get("/api/v1/skills?sort=installs")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(by_installs["items"][0]["slug"], "second-skill");
    let trending = json(
        app.get("/api/v1/skills?sort=trending")
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(trending["items"][0]["slug"], "second-skill");
}
