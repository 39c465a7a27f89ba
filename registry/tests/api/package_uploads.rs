//! Staged ClawPack uploads, the route `clawhub package publish` takes above the 18 MB
//! multipart limit: `POST /api/cli/upload-url` (a ticket), the raw tarball posted to the
//! ticket's URL (`{storageId}`), then a publish naming both. Every refusal is a plain-text
//! 4xx that stores no release.

use registry::packages::integrity;
use registry::packages::tarball::PackFile;
use registry::storage::sha256_hex;
use reqwest::multipart::Form;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::both_backends;
use crate::helpers::{Backend, TestApp, text_error};
use crate::packages::{code_plugin, get_json, ok_json, payload};

both_backends!(
    a_staged_clawpack_over_the_multipart_limit_publishes_and_serves_its_bytes,
    staged_tickets_are_single_use_and_bound_to_their_owner_and_blob,
    oversize_and_empty_staged_uploads_are_refused_and_store_nothing,
);

/// Bytes that do not compress (xorshift), so a tarball of them stays large.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(len + 8);
    while bytes.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        bytes.extend_from_slice(&seed.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

async fn ticket(app: &TestApp, token: &str) -> (String, String) {
    let body = ok_json(
        app.client
            .post(app.url("/api/cli/upload-url"))
            .bearer_auth(token)
            .json(&json!({}))
            .send()
            .await
            .expect("upload-url"),
    )
    .await;
    let url = body["uploadUrl"].as_str().expect("uploadUrl").to_owned();
    let ticket = body["uploadTicket"].as_str().expect("ticket").to_owned();
    assert!(
        url.starts_with("http://") && url.ends_with(&format!("/api/cli/upload/{ticket}")),
        "{url}"
    );
    (url, ticket)
}

/// Posts raw bytes like the CLI: no token, `application/octet-stream`.
async fn upload(app: &TestApp, url: &str, bytes: Vec<u8>) -> reqwest::Response {
    app.client
        .post(url)
        .header("content-type", "application/octet-stream")
        .body(bytes)
        .send()
        .await
        .expect("upload")
}

async fn publish_staged(
    app: &TestApp,
    token: &str,
    payload: &Value,
    storage_id: &str,
    ticket: &str,
) -> reqwest::Response {
    let form = Form::new()
        .text("payload", payload.to_string())
        .text("clawpack", storage_id.to_owned())
        .text("clawpackUploadTicket", ticket.to_owned());
    app.client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("publish")
}

async fn a_staged_clawpack_over_the_multipart_limit_publishes_and_serves_its_bytes(
    backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let big = PackFile {
        path: "assets/model.bin".to_owned(),
        // Over the 18 MB multipart limit, and over the 32 MiB that the server keeps in
        // memory, so the download below streams it from the store (chunk by chunk from
        // PostgreSQL).
        bytes: noise(33 * 1024 * 1024, 0x9e37_79b9_7f4a_7c15),
        mode: 0o644,
    };
    let bytes = code_plugin("big-plugin", "1.0.0", "", &[big]);
    assert!(bytes.len() > 18 * 1024 * 1024, "{} bytes", bytes.len());
    let digests = integrity::digests(&bytes);

    // Inline, the same tarball is over the multipart limit.
    let form = Form::new()
        .text(
            "payload",
            payload("big-plugin", "code-plugin", "1.0.0").to_string(),
        )
        .part(
            "clawpack",
            reqwest::multipart::Part::bytes(bytes.clone()).file_name("big-plugin-1.0.0.tgz"),
        );
    let inline = app
        .client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .expect("inline publish");
    assert_eq!(
        text_error(inline, 413).await,
        "Package upload exceeds 18MB multipart upload limit"
    );

    let (url, ticket) = ticket(&app, &token).await;
    let stored = ok_json(upload(&app, &url, bytes.clone()).await).await;
    let storage_id = stored["storageId"].as_str().expect("storageId");
    assert_eq!(storage_id, digests.sha256);
    let published = ok_json(
        publish_staged(
            &app,
            &token,
            &payload("big-plugin", "code-plugin", "1.0.0"),
            storage_id,
            &ticket,
        )
        .await,
    )
    .await;
    assert_eq!(published["publicationStatus"], "published");

    let artifact = get_json(&app, "/api/v1/packages/big-plugin/versions/1.0.0/artifact").await;
    assert_eq!(artifact["artifact"]["sha256"], digests.sha256);
    assert_eq!(artifact["artifact"]["size"], bytes.len());
    assert_eq!(artifact["artifact"]["npmIntegrity"], digests.integrity);
    let served = app
        .get("/api/npm/big-plugin/-/big-plugin-1.0.0.tgz")
        .send()
        .await
        .expect("tarball");
    assert_eq!(served.status(), 200);
    assert_eq!(
        served.headers()["content-length"],
        bytes.len().to_string().as_str()
    );
    assert_eq!(served.bytes().await.expect("bytes").as_ref(), &bytes[..]);

    // The ticket was consumed by the publish.
    let again = publish_staged(
        &app,
        &token,
        &payload("big-plugin", "code-plugin", "1.0.1"),
        storage_id,
        &ticket,
    )
    .await;
    assert_eq!(
        text_error(again, 400).await,
        "ClawPack upload ticket is missing, used, or expired"
    );
}

async fn staged_tickets_are_single_use_and_bound_to_their_owner_and_blob(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let bytes = code_plugin("staged-plugin", "1.0.0", "", &[]);
    let sha = sha256_hex(&bytes);
    let demo = payload("staged-plugin", "code-plugin", "1.0.0");

    // The ticket needs a token; the upload does not, but only once.
    let anonymous = app
        .client
        .post(app.url("/api/cli/upload-url"))
        .json(&json!({}))
        .send()
        .await
        .expect("anon");
    assert_eq!(anonymous.status(), 401);
    let unknown = upload(&app, &app.url("/api/cli/upload/nope"), bytes.clone()).await;
    assert_eq!(
        text_error(unknown, 400).await,
        "ClawPack upload ticket is missing, used, or expired"
    );
    let (url, ticket) = ticket(&app, &alice).await;
    // Published before the bytes arrived: nothing to publish yet.
    let early = publish_staged(&app, &alice, &demo, &sha, &ticket).await;
    assert_eq!(
        text_error(early, 400).await,
        "ClawPack upload ticket is missing, used, or expired"
    );
    let stored = ok_json(upload(&app, &url, bytes.clone()).await).await;
    assert_eq!(stored["storageId"], sha);
    let twice = upload(&app, &url, bytes.clone()).await;
    assert_eq!(
        text_error(twice, 400).await,
        "ClawPack upload ticket is missing, used, or expired"
    );

    // Someone else's ticket, another blob, and half a pair are refused.
    let stolen = publish_staged(&app, &bob, &demo, &sha, &ticket).await;
    assert_eq!(
        text_error(stolen, 400).await,
        "ClawPack upload ticket is missing, used, or expired"
    );
    let other_blob = publish_staged(&app, &alice, &demo, &"0".repeat(64), &ticket).await;
    assert_eq!(
        text_error(other_blob, 400).await,
        "ClawPack upload ticket does not match this publish"
    );
    for (fields, message) in [
        (
            vec![("clawpack", sha.clone())],
            "A staged clawpack storage id needs its clawpackUploadTicket",
        ),
        (
            vec![("clawpackUploadTicket", ticket.clone())],
            "clawpackUploadTicket needs the staged clawpack storage id",
        ),
    ] {
        let mut form = Form::new().text("payload", demo.to_string());
        for (name, value) in fields {
            form = form.text(name, value);
        }
        let response = app
            .client
            .post(app.url("/api/v1/packages"))
            .bearer_auth(&alice)
            .multipart(form)
            .send()
            .await
            .expect("publish");
        assert_eq!(text_error(response, 400).await, message);
    }
    let both = Form::new()
        .text("payload", demo.to_string())
        .text("clawpack", sha.clone())
        .text("clawpackUploadTicket", ticket.clone())
        .part(
            "files",
            reqwest::multipart::Part::bytes(b"x".to_vec()).file_name("a.txt"),
        );
    let response = app
        .client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(&alice)
        .multipart(both)
        .send()
        .await
        .expect("publish");
    assert_eq!(
        text_error(response, 400).await,
        "Send either a clawpack or files, not both"
    );
    // A publish whose payload disagrees with the staged tarball is refused and leaves the
    // ticket usable for a corrected one.
    let wrong = publish_staged(
        &app,
        &alice,
        &payload("staged-plugin", "code-plugin", "2.0.0"),
        &sha,
        &ticket,
    )
    .await;
    let message = text_error(wrong, 400).await;
    assert!(message.contains("version"), "{message}");
    let missing = app
        .get("/api/v1/packages/staged-plugin")
        .send()
        .await
        .expect("get");
    assert_eq!(missing.status(), 404, "nothing was published");

    ok_json(publish_staged(&app, &alice, &demo, &sha, &ticket).await).await;
    let reused = publish_staged(
        &app,
        &alice,
        &payload("staged-plugin", "code-plugin", "1.0.1"),
        &sha,
        &ticket,
    )
    .await;
    assert_eq!(
        text_error(reused, 400).await,
        "ClawPack upload ticket is missing, used, or expired"
    );
    let detail = get_json(&app, "/api/v1/packages/staged-plugin").await;
    assert_eq!(detail["package"]["latestVersion"], "1.0.0");

    // A body that declares a file still gets the skill flow's ticket.
    let skill_ticket = ok_json(
        app.client
            .post(app.url("/api/cli/upload-url"))
            .bearer_auth(&alice)
            .json(&json!({"path": "SKILL.md", "size": 5, "sha256": sha256_hex(b"hello")}))
            .send()
            .await
            .expect("skill upload-url"),
    )
    .await;
    assert!(
        skill_ticket["uploadUrl"]
            .as_str()
            .is_some_and(|url| url.contains("/api/v1/skills/-/upload/")),
        "{skill_ticket}"
    );
}

async fn oversize_and_empty_staged_uploads_are_refused_and_store_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;

    // One byte over 120 MB: read to the end, refused, not stored.
    let (url, _) = ticket(&app, &token).await;
    let oversize = vec![7u8; 120 * 1024 * 1024 + 1];
    let oversize_sha = sha256_hex(&oversize);
    let response = upload(&app, &url, oversize).await;
    assert_eq!(
        text_error(response, 413).await,
        "ClawPack upload exceeds 120MB limit"
    );
    assert!(
        !app.state
            .storage
            .contains(&oversize_sha)
            .await
            .expect("storage")
    );
    // The refused upload did not use the ticket up.
    let small = code_plugin("after-refusal", "1.0.0", "", &[]);
    let stored = ok_json(upload(&app, &url, small.clone()).await).await;
    assert_eq!(stored["storageId"], sha256_hex(&small));

    // A body declared far over the limit is refused before it is read.
    let (url, _) = ticket(&app, &token).await;
    let path = url.split_once("/api/").map(|(_, rest)| rest).expect("path");
    let address = app.base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    socket
        .write_all(
            format!(
                "POST /api/{path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000000\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .expect("write");
    let mut answer = Vec::new();
    socket.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.ends_with("ClawPack upload exceeds 120MB limit"),
        "{answer}"
    );

    let (url, _) = ticket(&app, &token).await;
    let empty = upload(&app, &url, Vec::new()).await;
    assert_eq!(text_error(empty, 400).await, "Upload is empty");
}
