//! Reservations: an administrator holds slugs (90 days) and package names (private
//! placeholders) for an owner; others are refused with the date the hold ends.

use registry::db::Role;
use registry::db::reservation_store::NewReservation;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};
use crate::transfers::post;

both_backends!(
    an_admin_reserves_slugs_and_package_names_for_an_owner,
    reservation_requests_are_refused_as_a_whole,
);

async fn an_admin_reserves_slugs_and_package_names_for_an_owner(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let admin = registry::tokens::create_token(app.state.store.as_ref(), "root", Role::Admin)
        .await
        .expect("token");
    for (token, slug) in [(&alice, "alice-own"), (&bob, "bob-own")] {
        assert_eq!(
            app.publish(token, slug, "1.0.0", &[("SKILL.md", SKILL_MD)])
                .await
                .status(),
            200
        );
    }
    let response = post(
        &app,
        &admin,
        "/api/v1/users/reserve",
        json!({
            "handle": "@Alice",
            "slugs": [" Held-Slug ", "alice-own", "bob-own", "bad--slug"],
            "packageNames": ["@alice/held-plugin", "not a name"],
            "reason": "official",
        }),
    )
    .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["ok"], true);
    assert_eq!(body["succeeded"], 3);
    assert_eq!(body["failed"], 3);
    let results = body["results"].as_array().expect("results");
    assert_eq!(
        results[0],
        json!({ "kind": "slug", "name": "held-slug", "ok": true, "action": "reserved" })
    );
    assert_eq!(results[1]["action"], "already_owned");
    assert_eq!(
        results[2],
        json!({ "kind": "slug", "name": "bob-own", "ok": false, "error": "Slug already exists and belongs to another owner" })
    );
    assert_eq!(results[3]["ok"], false);
    assert_eq!(
        results[4],
        json!({ "kind": "package", "name": "@alice/held-plugin", "ok": true, "action": "reserved" })
    );
    assert_eq!(results[5]["ok"], false);

    // Others are told until when; the owner publishes.
    let refused = app
        .publish(&bob, "held-slug", "1.0.0", &[("SKILL.md", SKILL_MD)])
        .await;
    let text = text_error(refused, 400).await;
    assert!(
        text.starts_with("Slug \"held-slug\" is reserved for another publisher until 20")
            && text.ends_with("Z. Please choose a different slug."),
        "{text}"
    );
    assert_eq!(
        app.publish(&alice, "held-slug", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await
            .status(),
        200
    );

    // The package name is a private placeholder of the owner's, invisible to the public.
    let package = app
        .state
        .store
        .find_package("@alice/held-plugin")
        .await
        .expect("find")
        .expect("placeholder");
    assert_eq!(package.channel, "private");
    assert_eq!(package.owner_handle, "alice");
    assert_eq!(package.latest_release_id, None);
    assert_eq!(
        package.summary.as_deref(),
        Some("Reserved for an official OpenClaw plugin.")
    );
    let public = app
        .get("/api/v1/packages/%40alice%2Fheld-plugin")
        .send()
        .await
        .expect("get");
    assert_eq!(public.status(), 404);
    let again: Value = post(
        &app,
        &admin,
        "/api/v1/users/reserve",
        json!({ "handle": "bob", "packageNames": ["@alice/held-plugin"] }),
    )
    .await
    .json()
    .await
    .expect("json");
    assert_eq!(
        again["results"][0]["error"],
        "Package already exists and belongs to another publisher"
    );

    // A lapsed reservation holds nothing.
    let store = app.state.store.clone();
    let owner = store
        .find_user("alice")
        .await
        .expect("find")
        .expect("alice");
    let admin_user = store.find_user("root").await.expect("find").expect("root");
    store
        .reserve_slug(&NewReservation {
            slug: "lapsed-slug".into(),
            owner_id: owner.id,
            reason: None,
            reserved_by: admin_user.id,
            now: 1,
            expires_at: 2,
            audit: registry::audit::AuditEvent::new(
                Some(&admin_user),
                "slug.reserve",
                registry::audit::TargetKind::Skill,
                None,
                "lapsed-slug",
            )
            .into_row(),
        })
        .await
        .expect("stored");
    assert_eq!(
        app.publish(&bob, "lapsed-slug", "1.0.0", &[("SKILL.md", SKILL_MD)])
            .await
            .status(),
        200
    );
}

async fn reservation_requests_are_refused_as_a_whole(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let moderator =
        registry::tokens::create_token(app.state.store.as_ref(), "mod", Role::Moderator)
            .await
            .expect("token");
    let admin = registry::tokens::create_token(app.state.store.as_ref(), "root", Role::Admin)
        .await
        .expect("token");
    let path = "/api/v1/users/reserve";
    // Invalid JSON is refused before the token is looked at.
    let invalid = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .expect("post");
    assert!(text_error(invalid, 400).await.starts_with("Invalid JSON"));
    let anonymous = app
        .client
        .post(app.url(path))
        .json(&json!({ "handle": "alice", "slugs": ["x-slug"] }))
        .send()
        .await
        .expect("post");
    assert_eq!(anonymous.status(), 401);
    for token in [&alice, &moderator] {
        let refused = post(
            &app,
            token,
            path,
            json!({ "handle": "alice", "slugs": ["x-slug"] }),
        )
        .await;
        assert_eq!(text_error(refused, 403).await, "Admin role required.");
    }
    let cases = [
        (json!({ "slugs": ["x-slug"] }), 400, "Missing handle"),
        (
            json!({ "handle": "alice" }),
            400,
            "Missing slugs or packageNames array",
        ),
        (
            json!({ "handle": "alice", "slugs": vec!["x-slug"; 201] }),
            400,
            "Too many reservations (max 200)",
        ),
        (
            json!({ "handle": "nobody", "slugs": ["x-slug"] }),
            404,
            "User not found",
        ),
    ];
    for (body, status, text) in cases {
        let refused = post(&app, &admin, path, body).await;
        assert_eq!(text_error(refused, status).await, text);
    }
}
