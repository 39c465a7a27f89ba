//! Rate limits, CORS, request ids, discovery and the OpenAPI document.

use serde_json::Value;

use crate::both_backends;
use crate::helpers::{Backend, TestApp, text_error};

both_backends!(
    rate_limits_answer_429_with_all_headers,
    cors_discovery_and_openapi,
    each_route_counts_against_its_class
);

/// Every surface picks the bucket of each route group: reads, writes and downloads of v1
/// and of the legacy aliases, and no limit on discovery, the OpenAPI document or preflights.
async fn each_route_counts_against_its_class(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        use registry::config::RateLimit;
        config.rate_limit_read = RateLimit {
            anonymous: 11,
            user: 111,
        };
        config.rate_limit_write = RateLimit {
            anonymous: 22,
            user: 222,
        };
        config.rate_limit_download = RateLimit {
            anonymous: 33,
            user: 333,
        };
    })
    .await;
    let limit = |response: &reqwest::Response| {
        response
            .headers()
            .get("x-ratelimit-limit")
            .map(|value| value.to_str().expect("ascii").to_owned())
    };
    for (path, expected) in [
        ("/api/v1/skills", Some("11")),
        ("/api/v1/search?q=x", Some("11")),
        ("/api/v1/resolve?slug=a&hash=b", Some("11")),
        ("/api/v1/skills/resolve?slug=a&hash=b", Some("11")),
        ("/api/search?q=x", Some("11")),
        ("/api/v1/download?slug=nothing", Some("33")),
        ("/api/download?slug=nothing", Some("33")),
        ("/api/v1/openapi.json", None),
        ("/.well-known/clawhub.json", None),
    ] {
        let response = app.get(path).send().await.expect("request");
        assert_eq!(limit(&response).as_deref(), expected, "{path}");
    }
    let write = app
        .client
        .post(app.url("/api/v1/skills/-/upload-url"))
        .send()
        .await
        .expect("request");
    assert_eq!(write.status(), 401);
    assert_eq!(limit(&write).as_deref(), Some("22"));
    let telemetry = app
        .client
        .post(app.url("/api/cli/telemetry/install"))
        .send()
        .await
        .expect("request");
    assert_eq!(limit(&telemetry).as_deref(), Some("22"));
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/download"))
        .send()
        .await
        .expect("request");
    assert_eq!(preflight.status(), 204);
    assert_eq!(limit(&preflight), None);
}

async fn rate_limits_answer_429_with_all_headers(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.rate_limit_read = registry::config::RateLimit {
            anonymous: 2,
            user: 3,
        };
    })
    .await;
    let token = app.token("alice").await;
    let first = app.get("/api/v1/skills").send().await.expect("request");
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()["x-ratelimit-limit"], "2");
    assert_eq!(first.headers()["ratelimit-remaining"], "1");
    assert!(first.headers().get("retry-after").is_none());
    assert_eq!(
        app.get("/api/v1/skills")
            .send()
            .await
            .expect("request")
            .status(),
        200
    );
    let limited = app.get("/api/v1/skills").send().await.expect("request");
    let headers = limited.headers().clone();
    assert_eq!(text_error(limited, 429).await, "Rate limit exceeded");
    for name in [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "retry-after",
    ] {
        assert!(headers.contains_key(name), "missing {name}");
    }
    assert_eq!(headers["x-ratelimit-remaining"], "0");
    assert_eq!(headers["ratelimit-remaining"], "0");
    assert_eq!(headers["ratelimit-reset"], headers["retry-after"]);
    let reset: i64 = headers["x-ratelimit-reset"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("number");
    assert_eq!(reset % 60, 0);
    // A valid token has its own, larger bucket; an invalid one shares the IP's.
    let user = app
        .get("/api/v1/skills")
        .bearer_auth(&token)
        .send()
        .await
        .expect("request");
    assert_eq!(user.status(), 200);
    assert_eq!(user.headers()["ratelimit-limit"], "3");
    let invalid = app
        .get("/api/v1/skills")
        .bearer_auth("clh_invalid")
        .send()
        .await
        .expect("request");
    assert_eq!(invalid.status(), 429);
    // Writes are a separate class.
    let write = app
        .client
        .post(app.url("/api/v1/stars/none-such"))
        .send()
        .await
        .expect("request");
    assert_eq!(write.status(), 401);
}

async fn cors_discovery_and_openapi(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/v1/skills"))
        .header("access-control-request-headers", "authorization")
        .send()
        .await
        .expect("preflight");
    assert_eq!(preflight.status(), 204);
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    assert_eq!(
        preflight.headers()["access-control-allow-headers"],
        "authorization"
    );
    assert!(preflight.headers().get("x-ratelimit-limit").is_none());
    let list = app.get("/api/v1/skills").send().await.expect("list");
    assert_eq!(list.headers()["access-control-allow-origin"], "*");
    assert!(list.headers().contains_key("x-request-id"));

    let discovery: Value = app
        .get("/.well-known/clawhub.json")
        .send()
        .await
        .expect("discovery")
        .json()
        .await
        .expect("json");
    assert_eq!(discovery["apiBase"], app.base.as_str());

    let document: Value = app
        .get("/api/v1/openapi.json")
        .send()
        .await
        .expect("openapi")
        .json()
        .await
        .expect("json");
    assert!(
        document["openapi"]
            .as_str()
            .expect("version")
            .starts_with("3.")
    );
    let paths = document["paths"].as_object().expect("paths");
    for path in [
        "/api/v1/search",
        "/api/v1/skills",
        "/api/v1/skills/{slug}",
        "/api/v1/skills/{slug}/file",
        "/api/v1/resolve",
        "/api/v1/download",
        "/api/v1/whoami",
        "/api/v1/skills/-/upload-url",
    ] {
        assert!(paths.contains_key(path), "missing {path}");
    }
    assert!(paths["/api/v1/skills"].get("post").is_some());
}
