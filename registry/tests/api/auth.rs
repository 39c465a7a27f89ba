//! Tokens and `whoami`.

use crate::both_backends;
use crate::helpers::{Backend, TestApp, text_error};

both_backends!(whoami_reports_the_user_and_distinguishes_token_failures);

async fn whoami_reports_the_user_and_distinguishes_token_failures(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let body: serde_json::Value = app
        .get("/api/v1/whoami")
        .bearer_auth(&token)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    assert_eq!(
        body,
        serde_json::json!({"user": {"handle": "alice", "displayName": null, "image": null, "role": "user"}})
    );

    let missing = text_error(
        app.get("/api/v1/whoami").send().await.expect("request"),
        401,
    )
    .await;
    assert_eq!(
        missing,
        "Unauthorized: API token is missing. Run `clawhub login` to authenticate."
    );
    let invalid = text_error(
        app.get("/api/v1/whoami")
            .bearer_auth("clh_nope")
            .send()
            .await
            .expect("request"),
        401,
    )
    .await;
    assert_eq!(
        invalid,
        "Unauthorized: API token is invalid or revoked. Run `clawhub login` again."
    );

    let hash = registry::tokens::hash_token(&token);
    assert!(
        app.state
            .store
            .revoke_token(&hash, 1)
            .await
            .expect("revoke")
    );
    let revoked = text_error(
        app.get("/api/v1/whoami")
            .bearer_auth(&token)
            .send()
            .await
            .expect("request"),
        401,
    )
    .await;
    assert!(revoked.contains("revoked"), "{revoked}");
    assert_ne!(revoked, invalid);

    // An invalid token on a public read is treated as anonymous.
    let listed = app
        .get("/api/v1/skills")
        .bearer_auth("clh_nope")
        .send()
        .await
        .expect("request");
    assert_eq!(listed.status(), 200);
}
