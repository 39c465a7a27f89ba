//! Skill transfers: request, list, accept, reject, cancel, expiry, and the refusals, with
//! racing actions run concurrently (exactly one wins).

use registry::db::Role;
use registry::db::transfer_store::NewTransfer;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, SKILL_MD, TestApp, text_error};

both_backends!(
    a_transfer_is_requested_listed_and_accepted,
    transfers_are_refused_to_the_wrong_party_and_state,
    reject_and_cancel_end_a_transfer_without_moving_the_skill,
    an_expired_transfer_cannot_be_accepted_and_does_not_block_a_new_one,
    racing_accept_and_cancel_have_exactly_one_winner,
    an_admin_moves_a_skill_at_once,
);

pub async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("request")
}

async fn get_json(app: &TestApp, token: &str, path: &str) -> Value {
    let response = app
        .get(path)
        .bearer_auth(token)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.expect("json")
}

async fn owner_of(app: &TestApp, slug: &str) -> String {
    let body: Value = app
        .get(&format!("/api/v1/skills/{slug}"))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    body["owner"]["handle"].as_str().expect("owner").to_owned()
}

async fn published(app: &TestApp, token: &str, slug: &str) {
    let response = app
        .publish(token, slug, "1.0.0", &[("SKILL.md", SKILL_MD)])
        .await;
    assert_eq!(response.status(), 200, "publish {slug}");
}

async fn a_transfer_is_requested_listed_and_accepted(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    published(&app, &alice, "gift-skill").await;

    let started = post(
        &app,
        &alice,
        "/api/v1/skills/gift-skill/transfer",
        json!({ "toUserHandle": "@Bob", "message": "yours now" }),
    )
    .await;
    assert_eq!(started.status(), 200);
    let started: Value = started.json().await.expect("json");
    assert_eq!(started["ok"], true);
    assert_eq!(started["toUserHandle"], "bob");
    assert!(started["transferId"].is_string());
    let expires_at = started["expiresAt"].as_i64().expect("expiresAt");

    let outgoing = get_json(&app, &alice, "/api/v1/transfers/outgoing").await;
    let item = &outgoing["transfers"][0];
    assert_eq!(item["_id"], started["transferId"]);
    assert_eq!(item["skill"]["slug"], "gift-skill");
    assert!(item["skill"]["_id"].is_string());
    assert_eq!(item["toUser"]["handle"], "bob");
    assert!(item["toUser"]["_id"].is_string());
    assert!(item.get("fromUser").is_none());
    assert_eq!(item["message"], "yours now");
    assert_eq!(item["expiresAt"].as_i64(), Some(expires_at));
    assert_eq!(
        expires_at - item["requestedAt"].as_i64().expect("requestedAt"),
        7 * 24 * 60 * 60 * 1000
    );
    let incoming = get_json(&app, &bob, "/api/v1/transfers/incoming").await;
    assert_eq!(incoming["transfers"][0]["fromUser"]["handle"], "alice");
    assert!(incoming["transfers"][0].get("toUser").is_none());
    let empty = get_json(&app, &alice, "/api/v1/transfers/incoming").await;
    assert_eq!(empty["transfers"], json!([]));

    let accepted = post(
        &app,
        &bob,
        "/api/v1/skills/gift-skill/transfer/accept",
        json!({}),
    )
    .await;
    assert_eq!(accepted.status(), 200);
    let accepted: Value = accepted.json().await.expect("json");
    assert_eq!(accepted, json!({ "ok": true, "skillSlug": "gift-skill" }));
    assert_eq!(owner_of(&app, "gift-skill").await, "bob");
    let empty = get_json(&app, &bob, "/api/v1/transfers/incoming").await;
    assert_eq!(empty["transfers"], json!([]));

    // Double accept: nothing is pending any more.
    let again = post(
        &app,
        &bob,
        "/api/v1/skills/gift-skill/transfer/accept",
        json!({}),
    )
    .await;
    assert_eq!(text_error(again, 404).await, "No pending transfer found");

    // The new owner publishes; the old one no longer may.
    let old_owner = app
        .publish(&alice, "gift-skill", "1.1.0", &[("SKILL.md", SKILL_MD)])
        .await;
    assert_eq!(old_owner.status(), 400);
    let new_owner = app
        .publish(&bob, "gift-skill", "1.1.0", &[("SKILL.md", SKILL_MD)])
        .await;
    assert_eq!(new_owner.status(), 200);

    // Every transition is in the audit log.
    let actions: Vec<String> = {
        let store = app.state.store.clone();
        let rows = store
            .list_audit(&registry::db::audit_store::AuditQuery {
                target: Some("gift-skill".into()),
                limit: 50,
                ..Default::default()
            })
            .await
            .expect("audit");
        rows.into_iter().map(|row| row.action).collect()
    };
    assert!(
        actions.contains(&"skill.transfer.request".to_owned()),
        "{actions:?}"
    );
    assert!(
        actions.contains(&"skill.transfer.accept".to_owned()),
        "{actions:?}"
    );
}

async fn transfers_are_refused_to_the_wrong_party_and_state(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let carol = app.token("carol").await;
    let moderator =
        registry::tokens::create_token(app.state.store.as_ref(), "mod", Role::Moderator)
            .await
            .expect("token");
    published(&app, &alice, "kept-skill").await;
    let path = "/api/v1/skills/kept-skill/transfer";

    let anonymous = app
        .client
        .post(app.url(path))
        .json(&json!({ "toUserHandle": "bob" }))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status(), 401);
    let missing = post(&app, &alice, path, json!({})).await;
    assert_eq!(text_error(missing, 400).await, "toUserHandle required");
    let invalid = app
        .client
        .post(app.url(path))
        .bearer_auth(&alice)
        .header("content-type", "application/json")
        .body("{nope")
        .send()
        .await
        .expect("request");
    assert!(text_error(invalid, 400).await.starts_with("Invalid JSON"));
    let unknown_skill = post(
        &app,
        &alice,
        "/api/v1/skills/no-such-skill/transfer",
        json!({ "toUserHandle": "bob" }),
    )
    .await;
    assert_eq!(text_error(unknown_skill, 404).await, "Skill not found");
    let unknown_user = post(&app, &alice, path, json!({ "toUserHandle": "nobody" })).await;
    assert_eq!(text_error(unknown_user, 404).await, "User not found");
    let to_self = post(&app, &alice, path, json!({ "toUserHandle": "alice" })).await;
    assert_eq!(
        text_error(to_self, 400).await,
        "Cannot transfer to yourself"
    );
    for stranger in [&carol, &moderator] {
        let refused = post(&app, stranger, path, json!({ "toUserHandle": "bob" })).await;
        assert_eq!(text_error(refused, 403).await, "Forbidden");
    }

    assert_eq!(
        post(&app, &alice, path, json!({ "toUserHandle": "bob" }))
            .await
            .status(),
        200
    );
    let second = post(&app, &alice, path, json!({ "toUserHandle": "carol" })).await;
    assert_eq!(
        text_error(second, 400).await,
        "A transfer is already pending for this skill"
    );

    // Only the recipient accepts or rejects, only the sender cancels.
    for (token, action) in [
        (&carol, "accept"),
        (&alice, "accept"),
        (&moderator, "accept"),
        (&carol, "reject"),
        (&alice, "reject"),
        (&bob, "cancel"),
        (&carol, "cancel"),
    ] {
        let refused = post(&app, token, &format!("{path}/{action}"), json!({})).await;
        assert_eq!(
            text_error(refused, 404).await,
            "No pending transfer found",
            "{action}"
        );
    }
    let unknown_action = post(&app, &bob, &format!("{path}/steal"), json!({})).await;
    assert_eq!(text_error(unknown_action, 404).await, "Not found");
    assert_eq!(owner_of(&app, "kept-skill").await, "alice");

    // A skill hidden by a moderator cannot change hands: the offer is voided.
    let hidden = post(
        &app,
        &moderator,
        "/api/v1/skills/kept-skill/hide",
        json!({}),
    )
    .await;
    assert_eq!(hidden.status(), 200);
    let accept = post(&app, &bob, &format!("{path}/accept"), json!({})).await;
    assert_eq!(text_error(accept, 400).await, "Skill is under moderation");
    let again = post(&app, &bob, &format!("{path}/accept"), json!({})).await;
    assert_eq!(text_error(again, 404).await, "No pending transfer found");
}

async fn reject_and_cancel_end_a_transfer_without_moving_the_skill(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    published(&app, &alice, "stay-skill").await;
    let path = "/api/v1/skills/stay-skill/transfer";
    for (token, action) in [(&bob, "reject"), (&alice, "cancel")] {
        assert_eq!(
            post(&app, &alice, path, json!({ "toUserHandle": "bob" }))
                .await
                .status(),
            200
        );
        let ended = post(&app, token, &format!("{path}/{action}"), json!({})).await;
        assert_eq!(ended.status(), 200, "{action}");
        let body: Value = ended.json().await.expect("json");
        assert_eq!(body, json!({ "ok": true }));
        assert_eq!(owner_of(&app, "stay-skill").await, "alice");
        let incoming = get_json(&app, &bob, "/api/v1/transfers/incoming").await;
        assert_eq!(incoming["transfers"], json!([]));
        // Ended means ended: a late accept finds nothing.
        let late = post(&app, &bob, &format!("{path}/accept"), json!({})).await;
        assert_eq!(text_error(late, 404).await, "No pending transfer found");
    }
}

async fn an_expired_transfer_cannot_be_accepted_and_does_not_block_a_new_one(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    published(&app, &alice, "old-offer").await;
    let store = app.state.store.clone();
    let skill = store
        .find_skill("old-offer")
        .await
        .expect("find")
        .expect("skill");
    let bob_user = store.find_user("bob").await.expect("find").expect("bob");
    // Requested eight days ago: its seven-day period has passed.
    let requested_at = chrono::Utc::now().timestamp_millis() - 8 * 24 * 60 * 60 * 1000;
    let created = store
        .create_transfer(&NewTransfer {
            skill_id: skill.skill.id,
            from_user_id: skill.skill.owner_id,
            to_user_id: bob_user.id,
            message: None,
            requested_at,
            expires_at: registry::skills::transfers::expires_at(requested_at),
            audit: registry::audit::AuditEvent::new(
                None,
                "skill.transfer.request",
                registry::audit::TargetKind::Skill,
                Some(skill.skill.id),
                "old-offer",
            )
            .at(requested_at)
            .into_row(),
        })
        .await
        .expect("stored");
    assert!(matches!(
        created,
        registry::db::transfer_store::TransferCreated::Created(_)
    ));
    let incoming = get_json(&app, &bob, "/api/v1/transfers/incoming").await;
    assert_eq!(incoming["transfers"], json!([]));
    let accept = post(
        &app,
        &bob,
        "/api/v1/skills/old-offer/transfer/accept",
        json!({}),
    )
    .await;
    assert_eq!(text_error(accept, 400).await, "Transfer has expired");
    assert_eq!(owner_of(&app, "old-offer").await, "alice");
    let again = post(
        &app,
        &bob,
        "/api/v1/skills/old-offer/transfer/accept",
        json!({}),
    )
    .await;
    assert_eq!(text_error(again, 404).await, "No pending transfer found");
    // A new offer is possible at once.
    let fresh = post(
        &app,
        &alice,
        "/api/v1/skills/old-offer/transfer",
        json!({ "toUserHandle": "bob" }),
    )
    .await;
    assert_eq!(fresh.status(), 200);
}

async fn racing_accept_and_cancel_have_exactly_one_winner(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    published(&app, &alice, "race-skill").await;
    let path = "/api/v1/skills/race-skill/transfer";
    let mut owner = ("alice", alice.clone());
    let mut other = ("bob", bob.clone());
    for round in 0..15 {
        let started = post(&app, &owner.1, path, json!({ "toUserHandle": other.0 })).await;
        assert_eq!(started.status(), 200, "round {round}");
        let accept_path = format!("{path}/accept");
        let second_path = if round % 3 == 0 {
            // Two accepts race too.
            accept_path.clone()
        } else {
            format!("{path}/cancel")
        };
        let second_token = if round % 3 == 0 { &other.1 } else { &owner.1 };
        let (first, second) = tokio::join!(
            post(&app, &other.1, &accept_path, json!({})),
            post(&app, second_token, &second_path, json!({})),
        );
        let statuses = [first.status().as_u16(), second.status().as_u16()];
        let winners = statuses.iter().filter(|status| **status == 200).count();
        assert_eq!(winners, 1, "round {round}: {statuses:?}");
        let loser = if statuses[0] == 200 { second } else { first };
        assert_eq!(text_error(loser, 404).await, "No pending transfer found");
        let accepted = statuses[0] == 200 || (round % 3 == 0);
        if accepted {
            std::mem::swap(&mut owner, &mut other);
        }
        assert_eq!(owner_of(&app, "race-skill").await, owner.0, "round {round}");
    }
}

async fn an_admin_moves_a_skill_at_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    app.token("bob").await;
    let admin = registry::tokens::create_token(app.state.store.as_ref(), "root", Role::Admin)
        .await
        .expect("token");
    published(&app, &alice, "moved-skill").await;
    let path = "/api/v1/skills/moved-skill/transfer";
    let not_admin = post(&app, &alice, path, json!({ "toOwner": "bob" })).await;
    assert_eq!(text_error(not_admin, 403).await, "Forbidden");
    let moved = post(&app, &admin, path, json!({ "toOwner": "@bob" })).await;
    assert_eq!(moved.status(), 200);
    let body: Value = moved.json().await.expect("json");
    assert_eq!(body["transferred"], true);
    assert_eq!(body["skillSlug"], "moved-skill");
    assert_eq!(body["toPublisherHandle"], "bob");
    assert_eq!(owner_of(&app, "moved-skill").await, "bob");
}
