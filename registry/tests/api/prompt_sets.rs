//! Prompt sets inside published skills: the check kept with the scan, the marker in
//! listings and search, the `validPromptSetsOnly` filter and the CSV form of a set.

use serde_json::Value;

use crate::both_backends;
use crate::helpers::{Backend, TestApp, text_error};

const VALID_SET: &[u8] = include_bytes!("../../../fixtures/valid/saas-full.json");
const INVALID_SET: &[u8] = include_bytes!("../../../fixtures/invalid/integrity-unknown-topic.json");
const BRIEF: &[u8] = b"{\"not\": \"checked as a set\"}";

fn skill_md(name: &str, extra: &str) -> Vec<u8> {
    format!(
        "---\nname: {name}\ndescription: Prompt sets for {name}\nversion: 1.0.0\n{extra}---\n# {name}\n"
    )
    .into_bytes()
}

async fn json(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200, "unexpected status");
    response.json().await.expect("json body")
}

/// Publishes a good prompt skill, a bad one and a plain skill for `alice`.
async fn publish_three(app: &TestApp) {
    let token = app.token("alice").await;
    let good_md = skill_md("good-prompts", "");
    let response = app
        .publish(
            &token,
            "good-prompts",
            "1.0.0",
            &[
                ("SKILL.md", &good_md),
                ("examples/acme.brief.json", BRIEF),
                ("examples/acme.promptset.json", VALID_SET),
            ],
        )
        .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    let bad_md = skill_md("bad-prompts", "promptsets: [sets/declared.json]\n");
    let response = app
        .publish(
            &token,
            "bad-prompts",
            "1.0.0",
            &[
                ("SKILL.md", &bad_md),
                ("examples/good.json", VALID_SET),
                ("sets/declared.json", INVALID_SET),
            ],
        )
        .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    let plain_md = skill_md("plain-prompts", "");
    let response = app
        .publish(&token, "plain-prompts", "1.0.0", &[("SKILL.md", &plain_md)])
        .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
}

async fn scan_info(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    publish_three(&app).await;

    let good = json(
        app.get("/api/v1/skills/good-prompts/scan")
            .send()
            .await
            .expect("scan"),
    )
    .await;
    let sets = &good["promptSets"];
    assert_eq!(sets["status"], "valid");
    assert_eq!(sets["checked"], 1, "the brief is not a set: {sets}");
    assert_eq!(sets["sets"][0]["path"], "examples/acme.promptset.json");
    assert_eq!(sets["sets"][0]["valid"], true);
    let score = sets["sets"][0]["lintScore"].as_u64().expect("a lint score");
    assert!(score <= 100);

    let bad = json(
        app.get("/api/v1/skills/bad-prompts/scan")
            .send()
            .await
            .expect("scan"),
    )
    .await;
    let sets = &bad["promptSets"];
    assert_eq!(sets["status"], "invalid");
    assert_eq!(sets["checked"], 2);
    assert_eq!(sets["invalid"], 1);
    let declared = sets["sets"]
        .as_array()
        .expect("sets")
        .iter()
        .find(|set| set["path"] == "sets/declared.json")
        .expect("the declared set is checked");
    assert_eq!(declared["valid"], false);
    let error = &declared["errors"][0];
    assert_eq!(error["rule"], "integrity/unknown-topic");
    assert!(
        error["pointer"]
            .as_str()
            .expect("pointer")
            .starts_with("/prompts/")
    );
    assert!(error["line"].as_u64().expect("line") > 1);
    assert!(error["column"].as_u64().expect("column") >= 1);
    assert_eq!(declared["lintScore"], Value::Null);

    let plain = json(
        app.get("/api/v1/skills/plain-prompts/scan")
            .send()
            .await
            .expect("scan"),
    )
    .await;
    assert_eq!(plain["promptSets"], Value::Null);

    let version = json(
        app.get("/api/v1/skills/bad-prompts/versions/1.0.0")
            .send()
            .await
            .expect("version"),
    )
    .await;
    assert_eq!(version["version"]["promptSets"]["status"], "invalid");
}

async fn listings_mark_and_filter(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    publish_three(&app).await;

    let list = json(app.get("/api/v1/skills").send().await.expect("list")).await;
    let marker = |slug: &str| -> Value {
        list["items"]
            .as_array()
            .expect("items")
            .iter()
            .find(|item| item["slug"] == slug)
            .map(|item| item["promptSets"].clone())
            .expect("listed")
    };
    assert_eq!(marker("good-prompts")["status"], "valid");
    assert_eq!(marker("bad-prompts")["status"], "invalid");
    assert_eq!(marker("plain-prompts"), Value::Null);
    for item in list["items"].as_array().expect("items") {
        assert_eq!(
            item["canonicalUrl"],
            format!(
                "{}/alice/{}",
                app.base,
                item["slug"].as_str().expect("slug")
            )
        );
    }

    let filtered = json(
        app.get("/api/v1/skills?validPromptSetsOnly=true")
            .send()
            .await
            .expect("list"),
    )
    .await;
    let slugs: Vec<&str> = filtered["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["slug"].as_str().expect("slug"))
        .collect();
    assert_eq!(slugs, ["good-prompts"]);

    let search = json(
        app.get("/api/v1/search?q=prompts")
            .send()
            .await
            .expect("search"),
    )
    .await;
    let results = search["results"].as_array().expect("results");
    assert_eq!(results.len(), 3);
    let bad = results
        .iter()
        .find(|result| result["slug"] == "bad-prompts")
        .expect("found");
    assert_eq!(bad["promptSets"]["status"], "invalid");
    assert_eq!(
        bad["canonicalUrl"],
        format!("{}/alice/bad-prompts", app.base)
    );

    let search = json(
        app.get("/api/v1/search?q=prompts&validPromptSetsOnly=1")
            .send()
            .await
            .expect("search"),
    )
    .await;
    let slugs: Vec<&str> = search["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| result["slug"].as_str().expect("slug"))
        .collect();
    assert_eq!(slugs, ["good-prompts"]);
    let exact = json(
        app.get("/api/v1/search?q=bad-prompts&mode=exact&validPromptSetsOnly=true")
            .send()
            .await
            .expect("search"),
    )
    .await;
    assert_eq!(exact["results"].as_array().expect("results").len(), 0);

    let response = app
        .get("/api/v1/skills?validPromptSetsOnly=maybe")
        .send()
        .await
        .expect("list");
    assert_eq!(response.status(), 400);

    let detail = json(
        app.get("/api/v1/skills/bad-prompts")
            .send()
            .await
            .expect("skill"),
    )
    .await;
    assert_eq!(detail["skill"]["promptSets"]["status"], "invalid");
    assert_eq!(
        detail["skill"]["canonicalUrl"],
        format!("{}/alice/bad-prompts", app.base)
    );
}

async fn csv_of_a_stored_set(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    publish_three(&app).await;

    let response = app
        .get("/api/v1/skills/good-prompts/file?path=examples/acme.promptset.json&format=csv")
        .send()
        .await
        .expect("csv");
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    assert!(
        response.headers()["content-disposition"]
            .to_str()
            .expect("ascii")
            .ends_with("acme%2Epromptset%2Ecsv")
    );
    let body = response.bytes().await.expect("body");
    // The same writer as `promptset report`: compare with the library's own output.
    let set = promptset::validate::Validator::default()
        .validate(VALID_SET)
        .document
        .expect("valid fixture");
    let mut expected = Vec::new();
    promptset::report::write_csv(
        &set,
        promptset::report::Table::Prompts,
        false,
        &mut expected,
    )
    .expect("csv");
    assert_eq!(body.as_ref(), expected.as_slice());

    let topics = app
        .get("/api/v1/skills/good-prompts/file?path=examples/acme.promptset.json&format=csv&table=topics")
        .send()
        .await
        .expect("csv");
    assert_eq!(topics.status(), 200);
    let text = topics.text().await.expect("body");
    assert!(text.starts_with("topic,"), "{text}");

    let invalid = app
        .get("/api/v1/skills/bad-prompts/file?path=sets/declared.json&format=csv")
        .send()
        .await
        .expect("csv");
    let message = text_error(invalid, 400).await;
    assert!(message.contains("is not a valid prompt set"), "{message}");
    let not_a_set = app
        .get("/api/v1/skills/good-prompts/file?path=SKILL.md&format=csv")
        .send()
        .await
        .expect("csv");
    text_error(not_a_set, 400).await;
    let bad_format = app
        .get("/api/v1/skills/good-prompts/file?path=SKILL.md&format=xml")
        .send()
        .await
        .expect("file");
    assert_eq!(text_error(bad_format, 400).await, "Invalid format");
    let bad_table = app
        .get(
            "/api/v1/skills/good-prompts/file?path=examples/acme.promptset.json&format=csv&table=x",
        )
        .send()
        .await
        .expect("file");
    assert_eq!(text_error(bad_table, 400).await, "Invalid table");

    // Without `format` the file is served as stored.
    let raw = app
        .get("/api/v1/skills/good-prompts/file?path=examples/acme.promptset.json")
        .send()
        .await
        .expect("raw");
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.bytes().await.expect("body").as_ref(), VALID_SET);
}

both_backends!(scan_info, listings_mark_and_filter, csv_of_a_stored_set);
