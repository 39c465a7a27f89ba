//! Racing writers: many publishes of one slug at once, and downloads counted while
//! publishes land. Every request runs in its own task on a real server, so the store's
//! transactions (SQLite's single writer, PostgreSQL's row locks) decide the outcome.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp};

both_backends!(
    twenty_publishes_of_one_version_store_it_once,
    twenty_versions_published_at_once_all_land_with_a_consistent_latest,
    downloads_racing_publishes_are_counted_exactly,
    renames_racing_publishes_of_the_new_slug_have_one_winner,
);

/// Awaits spawned tasks; spawning (not joining futures in one task) is what makes the
/// requests run in parallel.
async fn join_all<T: Send + 'static>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut results = Vec::with_capacity(tasks.len());
    for task in tasks {
        results.push(task.await.expect("task"));
    }
    results
}

async fn body_json(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200, "unexpected status");
    response.json().await.expect("json")
}

async fn twenty_publishes_of_one_version_store_it_once(backend: Backend) {
    let app = Arc::new(TestApp::spawn(backend).await);
    let token = app.token("racer").await;
    let tasks = (0..20)
        .map(|index| {
            let app = app.clone();
            let token = token.clone();
            tokio::spawn(async move {
                // Different contents per racer: whichever wins, its files must be the ones stored.
                let readme = format!("racer {index}\n");
                let response = app
                    .publish(
                        &token,
                        "race-skill",
                        "1.0.0",
                        &[("SKILL.md", SKILL_MD), ("README.md", readme.as_bytes())],
                    )
                    .await;
                let status = response.status().as_u16();
                let body = response.text().await.expect("body");
                (index, status, body)
            })
        })
        .collect();
    let results = join_all(tasks).await;
    let winners: Vec<_> = results
        .iter()
        .filter(|(_, status, _)| *status == 200)
        .collect();
    let conflicts = results
        .iter()
        .filter(|(_, status, _)| *status == 409)
        .count();
    assert_eq!(winners.len(), 1, "exactly one publish wins: {results:?}");
    assert_eq!(conflicts, 19, "every other publish is a 409: {results:?}");
    for (_, status, body) in &results {
        if *status == 409 {
            assert_eq!(
                body,
                "Version 1.0.0 already exists. Increment the version number and try again."
            );
        }
    }
    let versions = body_json(
        app.get("/api/v1/skills/race-skill/versions")
            .send()
            .await
            .expect("versions"),
    )
    .await;
    assert_eq!(versions["items"].as_array().expect("items").len(), 1);
    // The stored bundle is the winner's, whole.
    let winner = winners[0].0;
    let readme = app
        .get("/api/v1/skills/race-skill/file?path=README.md")
        .send()
        .await
        .expect("file");
    assert_eq!(readme.status(), 200);
    assert_eq!(
        readme.text().await.expect("text"),
        format!("racer {winner}\n")
    );
}

async fn twenty_versions_published_at_once_all_land_with_a_consistent_latest(backend: Backend) {
    let app = Arc::new(TestApp::spawn(backend).await);
    let token = app.token("racer").await;
    let tasks = (0..20)
        .map(|index| {
            let app = app.clone();
            let token = token.clone();
            tokio::spawn(async move {
                let version = format!("1.{index}.0");
                let response = app
                    .publish(&token, "many-versions", &version, &[("SKILL.md", SKILL_MD)])
                    .await;
                let status = response.status().as_u16();
                (version, status, response.text().await.expect("body"))
            })
        })
        .collect();
    let results = join_all(tasks).await;
    for (version, status, body) in &results {
        assert_eq!(*status, 200, "publish of {version} failed: {body}");
    }
    let mut listed = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = "/api/v1/skills/many-versions/versions?limit=7".to_owned();
        if let Some(cursor) = &cursor {
            path.push_str(&format!("&cursor={cursor}"));
        }
        let page = body_json(app.get(&path).send().await.expect("versions")).await;
        for item in page["items"].as_array().expect("items") {
            assert!(listed.insert(item["version"].as_str().expect("version").to_owned()));
        }
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(listed.len(), 20, "every version is listed once: {listed:?}");
    // `latest` only moves forward, so whatever order the commits took it ends at the highest.
    let skill = body_json(
        app.get("/api/v1/skills/many-versions")
            .send()
            .await
            .expect("skill"),
    )
    .await;
    assert_eq!(skill["latestVersion"]["version"], "1.19.0", "{skill}");
    assert_eq!(skill["skill"]["tags"]["latest"], "1.19.0", "{skill}");
    let resolved = app
        .get("/api/v1/download?slug=many-versions&tag=latest")
        .send()
        .await
        .expect("download");
    assert_eq!(resolved.status(), 200);
    assert_eq!(
        resolved
            .headers()
            .get("content-disposition")
            .and_then(|value| value.to_str().ok()),
        Some("attachment; filename=\"many-versions-1.19.0.zip\"")
    );
}

async fn downloads_racing_publishes_are_counted_exactly(backend: Backend) {
    let app = Arc::new(TestApp::spawn(backend).await);
    let owner = app.token("owner").await;
    let response = app
        .publish(&owner, "counted-skill", "1.0.0", &[("SKILL.md", SKILL_MD)])
        .await;
    assert_eq!(response.status(), 200);
    let mut readers = Vec::new();
    for index in 0..12 {
        readers.push(app.token(&format!("reader-{index}")).await);
    }
    let mut tasks = Vec::new();
    // Each reader downloads three times (counted once per reader and day) while the owner
    // publishes new versions of the same skill and of others.
    for round in 0..3 {
        for token in &readers {
            let app = app.clone();
            let token = token.clone();
            tasks.push(tokio::spawn(async move {
                let response = app
                    .get("/api/v1/download?slug=counted-skill")
                    .bearer_auth(&token)
                    .send()
                    .await
                    .expect("download");
                let status = response.status().as_u16();
                let bytes = response.bytes().await.expect("zip");
                (format!("download {round}"), status, bytes.len())
            }));
        }
        for version in 0..3 {
            let app = app.clone();
            let owner = owner.clone();
            tasks.push(tokio::spawn(async move {
                let slug = if version == 0 {
                    "counted-skill"
                } else {
                    "other-skill"
                };
                let version = format!("1.{}.{version}", round + 1);
                let response = app
                    .publish(&owner, slug, &version, &[("SKILL.md", SKILL_MD)])
                    .await;
                (
                    format!("publish {slug} {version}"),
                    response.status().as_u16(),
                    0,
                )
            }));
        }
    }
    for (what, status, size) in join_all(tasks).await {
        assert_eq!(status, 200, "{what}");
        if what.starts_with("download") {
            assert!(size > 0, "{what} returned an empty archive");
        }
    }
    app.flush_downloads().await;
    let skill = body_json(
        app.get("/api/v1/skills/counted-skill")
            .send()
            .await
            .expect("skill"),
    )
    .await;
    assert_eq!(skill["skill"]["stats"]["downloads"], 12, "{skill}");
    assert_eq!(skill["latestVersion"]["version"], "1.3.0", "{skill}");
    let other = body_json(
        app.get("/api/v1/skills/other-skill")
            .send()
            .await
            .expect("skill"),
    )
    .await;
    assert_eq!(other["skill"]["stats"]["downloads"], 0, "{other}");
}

/// Alice renames her skill onto a slug while Bob publishes a new skill under it, ten
/// times over with fresh slugs. Exactly one of each pair wins; the loser gets a 4xx (never
/// a 5xx), and the slug ends up as the winner left it: Alice's renamed skill with her
/// version, or Bob's skill, never both and never a mix.
async fn renames_racing_publishes_of_the_new_slug_have_one_winner(backend: Backend) {
    let app = Arc::new(TestApp::spawn(backend).await);
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let mut outcomes = HashSet::new();
    for round in 0..10 {
        let old = format!("old-skill-{round}");
        let new = format!("new-skill-{round}");
        let published = app
            .publish(&alice, &old, "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await;
        assert_eq!(published.status(), 200);
        let rename = {
            let (app, alice, old, new) = (app.clone(), alice.clone(), old.clone(), new.clone());
            tokio::spawn(async move {
                let response = app
                    .client
                    .post(app.url(&format!("/api/v1/skills/{old}/rename")))
                    .bearer_auth(alice)
                    .json(&serde_json::json!({ "newSlug": new }))
                    .send()
                    .await
                    .expect("rename");
                let status = response.status().as_u16();
                (status, response.text().await.expect("body"))
            })
        };
        let publish = {
            let (app, bob, new) = (app.clone(), bob.clone(), new.clone());
            tokio::spawn(async move {
                let response = app
                    .publish(&bob, &new, "2.0.0", &[("SKILL.md", SKILL_MD)])
                    .await;
                let status = response.status().as_u16();
                (status, response.text().await.expect("body"))
            })
        };
        let (renamed, bobs) = (rename.await.expect("task"), publish.await.expect("task"));
        let statuses = (renamed.0, bobs.0);
        assert!(
            matches!(statuses, (200, 400..=499) | (400..=499, 200)),
            "round {round}: exactly one wins, the other gets a 4xx: rename {renamed:?}, publish {bobs:?}"
        );
        let skill = body_json(
            app.get(&format!("/api/v1/skills/{new}"))
                .send()
                .await
                .expect("get"),
        )
        .await;
        let versions = body_json(
            app.get(&format!("/api/v1/skills/{new}/versions"))
                .send()
                .await
                .expect("versions"),
        )
        .await;
        let numbers: Vec<&str> = versions["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|item| item["version"].as_str().expect("version"))
            .collect();
        if statuses.0 == 200 {
            assert_eq!(skill["owner"]["handle"], "alice", "round {round}");
            assert_eq!(numbers, ["1.0.0"], "round {round}: only Alice's version");
            outcomes.insert("rename");
        } else {
            assert_eq!(skill["owner"]["handle"], "bob", "round {round}");
            assert_eq!(numbers, ["2.0.0"], "round {round}: only Bob's version");
            // Alice's skill kept its old slug, untouched.
            let old_skill = body_json(
                app.get(&format!("/api/v1/skills/{old}"))
                    .send()
                    .await
                    .expect("get"),
            )
            .await;
            assert_eq!(old_skill["skill"]["slug"], old.as_str());
            outcomes.insert("publish");
        }
    }
    eprintln!("rename/publish races won by: {outcomes:?}");
}
