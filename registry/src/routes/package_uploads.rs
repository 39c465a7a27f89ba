//! Staged ClawPack uploads, the route `clawhub package publish` takes for a tarball too big
//! for the 18 MB multipart publish: `POST /api/cli/upload-url` issues a ticket and its
//! upload URL, the raw tarball is posted there (streamed to a staging file and stored as a
//! blob, never held in memory) and answered with its `storageId`, and the publish sends
//! `clawpack=<storageId>` and `clawpackUploadTicket=<ticket>` instead of the file
//! ([`staged_clawpack`] checks and consumes them).
//!
//! `POST /api/cli/upload-url` also serves the older skill flow: a body that declares a
//! file (`{path, size, sha256}`) gets the skill upload ticket of
//! [`crate::routes::publish::create_upload_url`].

use axum::body::{Body, Bytes, HttpBody as _};
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use tokio::io::AsyncWriteExt as _;

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::db::User;
use crate::db::package_store::PackageUpload;
use crate::error::{AppError, AppResult};
use crate::extract::{AppJson, AppPath};
use crate::routes::{base_url, json_ok};
use crate::storage::{hex, is_sha256_hex};
use crate::tokens::random_id;

/// Largest staged ClawPack, as the reference registry and the CLI allow.
const MAX_CLAWPACK_BYTES: u64 = crate::packages::publish::MAX_CLAWPACK_BYTES as u64;
const CLAWPACK_TOO_LARGE: &str = "ClawPack upload exceeds 120MB limit";
/// Bytes past the limit still read before an oversize upload is answered.
const OVERSIZE_DRAIN_BYTES: u64 = 16 * 1024 * 1024;
/// How long a ticket may be uploaded to and published with.
const TICKET_LIFETIME_MS: i64 = 60 * 60 * 1000;
const TICKET_UNUSABLE: &str = "ClawPack upload ticket is missing, used, or expired";
const TICKET_MISMATCH: &str = "ClawPack upload ticket does not match this publish";

/// `POST /api/cli/upload-url`: a staged ClawPack ticket, or a skill file ticket when the
/// body declares a file.
#[utoipa::path(post, path = "/api/cli/upload-url", tag = "legacy",
    request_body(content = Option<crate::routes::publish::UploadUrlRequest>, description = "none (or `{}`) for a staged ClawPack; a file declaration for a skill file", content_type = "application/json"),
    responses((status = 200, description = "where to upload", body = crate::routes::publish::UploadUrlResponse),
              (status = 400, description = "invalid declaration", body = String, content_type = "text/plain")))]
pub async fn create_upload_url(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    headers: HeaderMap,
    request: Request,
) -> AppResult<Response> {
    let body = Bytes::from_request(request, &state)
        .await
        .map_err(|rejection| AppError::BadRequest(rejection.body_text()))?;
    let declared: Value =
        crate::extract::optional_body::<Option<Value>>(&body)?.unwrap_or(Value::Null);
    if declared.get("path").is_some() {
        return crate::routes::publish::create_upload_url(
            State(state),
            RequireUser(user),
            headers,
            AppJson(declared),
        )
        .await;
    }
    let ticket = random_id()?;
    let now = chrono::Utc::now().timestamp_millis();
    state
        .store
        .insert_package_upload(&PackageUpload {
            ticket: ticket.clone(),
            user_id: user.id,
            storage_id: None,
            size: None,
            created_at: now,
            expires_at: now + TICKET_LIFETIME_MS,
            uploaded_at: None,
            used_at: None,
        })
        .await?;
    let upload_url = format!("{}/api/cli/upload/{ticket}", base_url(&state, &headers));
    Ok(json_ok(crate::routes::publish::UploadUrlResponse {
        upload_url,
        upload_ticket: ticket,
    }))
}

/// `POST /api/cli/upload/{ticket}`: the raw tarball of a staged ClawPack → `{storageId}`.
///
/// The ticket is the credential (the CLI sends no token here), usable once, for an hour.
#[utoipa::path(post, path = "/api/cli/upload/{ticket}", tag = "legacy",
    params(("ticket" = String, Path, description = "upload ticket")),
    request_body(content = Vec<u8>, description = "the `npm pack` tarball", content_type = "application/octet-stream"),
    responses((status = 200, description = "the stored tarball", body = crate::routes::publish::UploadResponse),
              (status = 400, description = "ticket missing, used or expired", body = String, content_type = "text/plain"),
              (status = 413, description = "over 120 MB", body = String, content_type = "text/plain")))]
pub async fn upload_clawpack(
    State(state): State<AppState>,
    AppPath(ticket): AppPath<String>,
    headers: HeaderMap,
    body: Body,
) -> AppResult<Response> {
    let now = chrono::Utc::now().timestamp_millis();
    state
        .store
        .find_package_upload(&ticket)
        .await?
        .filter(|upload| {
            upload.uploaded_at.is_none() && upload.used_at.is_none() && upload.expires_at > now
        })
        .ok_or_else(|| AppError::bad_request(TICKET_UNUSABLE))?;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    // Far too large by its own account: refused before a byte is read.
    if declared.is_some_and(|length| length > MAX_CLAWPACK_BYTES + OVERSIZE_DRAIN_BYTES) {
        return Err(AppError::PayloadTooLarge(CLAWPACK_TOO_LARGE.into()));
    }
    let staging = state.storage.staging_file().map_err(AppError::Internal)?;
    let mut writer = tokio::fs::File::from_std(
        staging
            .reopen()
            .map_err(|error| AppError::Internal(error.into()))?,
    );
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    let mut body = body;
    while let Some(frame) =
        std::future::poll_fn(|context| std::pin::Pin::new(&mut body).poll_frame(context)).await
    {
        let frame = frame
            .map_err(|error| AppError::BadRequest(format!("Upload was interrupted: {error}")))?;
        let Ok(chunk) = frame.into_data() else {
            continue;
        };
        size += chunk.len() as u64;
        if size > MAX_CLAWPACK_BYTES {
            // Read on (discarding) to the end of a slightly oversize body before answering:
            // a client still sending when the answer comes reports a broken pipe instead of
            // the 413 and its reason. A body far past the limit is cut off.
            if size > MAX_CLAWPACK_BYTES + OVERSIZE_DRAIN_BYTES {
                break;
            }
            continue;
        }
        hasher.update(&chunk);
        writer
            .write_all(&chunk)
            .await
            .map_err(|error| AppError::Internal(error.into()))?;
    }
    // The staging file is dropped (deleted) with the error: nothing is stored.
    if size > MAX_CLAWPACK_BYTES {
        return Err(AppError::PayloadTooLarge(CLAWPACK_TOO_LARGE.into()));
    }
    writer
        .flush()
        .await
        .map_err(|error| AppError::Internal(error.into()))?;
    drop(writer);
    if size == 0 {
        return Err(AppError::bad_request("Upload is empty"));
    }
    let sha256 = hex(&hasher.finalize());
    state
        .storage
        .put_file(staging, &sha256)
        .await
        .map_err(AppError::Internal)?;
    let size = i64::try_from(size).unwrap_or(i64::MAX);
    let now = chrono::Utc::now().timestamp_millis();
    if !state
        .store
        .mark_package_uploaded(&ticket, &sha256, size, now)
        .await?
    {
        return Err(AppError::bad_request(TICKET_UNUSABLE));
    }
    Ok(json_ok(crate::routes::publish::UploadResponse {
        storage_id: sha256,
    }))
}

/// The tarball a publish names by `clawpack=<storageId>` and `clawpackUploadTicket`:
/// the ticket must be the caller's, uploaded, unused and unexpired, and hold that blob.
/// Returns the bytes; the ticket is consumed by [`consume_ticket`] once the publish has
/// passed every check.
pub async fn staged_clawpack(
    state: &AppState,
    user: &User,
    storage_id: &str,
    ticket: &str,
) -> AppResult<Vec<u8>> {
    let now = chrono::Utc::now().timestamp_millis();
    let upload = state
        .store
        .find_package_upload(ticket)
        .await?
        .filter(|upload| {
            upload.user_id == user.id
                && upload.uploaded_at.is_some()
                && upload.used_at.is_none()
                && upload.expires_at > now
        })
        .ok_or_else(|| AppError::bad_request(TICKET_UNUSABLE))?;
    let storage_id = storage_id.trim().to_ascii_lowercase();
    if !is_sha256_hex(&storage_id) || upload.storage_id.as_deref() != Some(storage_id.as_str()) {
        return Err(AppError::bad_request(TICKET_MISMATCH));
    }
    let bytes = state
        .storage
        .get(&storage_id)
        .await
        .map_err(AppError::Internal)?
        .ok_or_else(|| AppError::bad_request(TICKET_MISMATCH))?;
    Ok(bytes.to_vec())
}

/// Consumes a staged ticket right before the release is stored; a second publish with
/// the same ticket (or one racing this one) is refused.
pub async fn consume_ticket(state: &AppState, ticket: &str) -> AppResult<()> {
    let now = chrono::Utc::now().timestamp_millis();
    if state.store.consume_package_upload(ticket, now).await? {
        Ok(())
    } else {
        Err(AppError::bad_request(
            "ClawPack upload tickets cannot be reused",
        ))
    }
}
