//! Publishing skills: the multipart form (a JSON `payload` part plus `files` parts) and the
//! CLI's flow (upload tickets, raw uploads, then a JSON publish referencing them).
//!
//! Everything is validated before anything is stored; blobs are written (durably) before
//! the single database transaction that creates the version, so a failed publish leaves no
//! rows behind and at worst unreferenced, content-addressed blobs.

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::bundle::{MAX_FILE_BYTES, MAX_FILES, normalize_content_type, normalize_path};
use crate::db::{NewUploadTicket, User};
use crate::error::{AppError, AppResult};
use crate::extract::{AppJson, AppPath};
use crate::routes::{base_url, json_ok};
use crate::skills::publish::{self, IncomingFile, PublishRequest, Published};
use crate::storage::{is_sha256_hex, sha256_hex};
use crate::tokens::random_id;

const TICKET_LIFETIME_MS: i64 = 60 * 60 * 1000;
const TICKET_UNUSABLE: &str = "Skill upload ticket is missing, used, or expired";

fn payload_error(field: &str, problem: &str) -> AppError {
    AppError::BadRequest(format!("Publish payload: {field}: {problem}"))
}

/// Asks for an upload ticket for one file.
#[utoipa::path(post, path = "/api/v1/skills/-/upload-url", tag = "publish",
    request_body(content = String, description = "`{path, size, sha256, contentType?}`", content_type = "application/json"),
    responses((status = 200, description = "`{uploadUrl, uploadTicket}`", content_type = "application/json"),
              (status = 400, description = "invalid declaration", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain")))]
pub async fn create_upload_url(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    headers: HeaderMap,
    AppJson(body): AppJson<Value>,
) -> AppResult<Response> {
    let path = body
        .get("path")
        .and_then(Value::as_str)
        .and_then(|path| normalize_path(path).ok())
        .ok_or_else(|| AppError::bad_request("Invalid upload path"))?;
    let max_size = MAX_FILE_BYTES.min(state.config.upload_limits.max_file_bytes);
    let size = body
        .get("size")
        .and_then(Value::as_u64)
        .filter(|size| *size <= max_size)
        .ok_or_else(|| AppError::BadRequest(format!("Upload must be at most {max_size} bytes")))?;
    let sha256 = body
        .get("sha256")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .filter(|sha| is_sha256_hex(sha))
        .ok_or_else(|| AppError::bad_request("Invalid upload SHA-256"))?;
    let content_type = normalize_content_type(body.get("contentType").and_then(Value::as_str));
    let ticket = random_id()?;
    let now = chrono::Utc::now().timestamp_millis();
    state
        .store
        .insert_upload_ticket(&NewUploadTicket {
            ticket: ticket.clone(),
            user_id: user.id,
            path,
            size: i64::try_from(size).unwrap_or(i64::MAX),
            sha256,
            content_type,
            created_at: now,
            expires_at: now + TICKET_LIFETIME_MS,
        })
        .await?;
    let upload_url = format!(
        "{}/api/v1/skills/-/upload/{ticket}",
        base_url(&state, &headers)
    );
    Ok(json_ok(
        json!({ "uploadUrl": upload_url, "uploadTicket": ticket }),
    ))
}

/// Receives the bytes of one ticket.
#[utoipa::path(post, path = "/api/v1/skills/-/upload/{ticket}", tag = "publish",
    params(("ticket" = String, Path, description = "upload ticket")),
    request_body(content = Vec<u8>, description = "raw file bytes", content_type = "application/octet-stream"),
    responses((status = 200, description = "`{storageId}`", content_type = "application/json"),
              (status = 400, description = "ticket or content mismatch", body = String, content_type = "text/plain"),
              (status = 413, description = "larger than declared", body = String, content_type = "text/plain")))]
pub async fn upload_file(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(ticket): AppPath<String>,
    headers: HeaderMap,
    body: Body,
) -> AppResult<Response> {
    let now = chrono::Utc::now().timestamp_millis();
    let record = state
        .store
        .find_upload_ticket(&ticket)
        .await?
        .filter(|record| {
            record.user_id == user.id
                && record.uploaded_at.is_none()
                && record.used_at.is_none()
                && record.expires_at > now
        })
        .ok_or_else(|| AppError::bad_request(TICKET_UNUSABLE))?;
    let declared = usize::try_from(record.size).unwrap_or(0);
    let too_large = || AppError::PayloadTooLarge("Uploaded file exceeds its declared size".into());
    let content_length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if content_length.is_some_and(|length| length > declared as u64) {
        return Err(too_large());
    }
    let bytes = axum::body::to_bytes(body, declared)
        .await
        .map_err(|_| too_large())?;
    if bytes.len() != declared {
        return Err(AppError::bad_request(
            "Uploaded file size does not match its upload ticket",
        ));
    }
    if sha256_hex(&bytes) != record.sha256 {
        return Err(AppError::bad_request(
            "Uploaded file SHA-256 does not match its upload ticket",
        ));
    }
    let content_type = normalize_content_type(
        headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
    );
    if record.content_type.is_some() && content_type != record.content_type {
        return Err(AppError::bad_request(
            "Uploaded file does not match its skill upload ticket",
        ));
    }
    let storage_id = state.storage.put(bytes).await?;
    if !state
        .store
        .mark_ticket_uploaded(&ticket, &storage_id, now)
        .await?
    {
        return Err(AppError::bad_request(TICKET_UNUSABLE));
    }
    Ok(json_ok(json!({ "storageId": storage_id })))
}

fn optional_string(body: &Value, field: &str) -> AppResult<Option<String>> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(payload_error(field, "must be a string")),
    }
}

fn parse_payload(body: &Value) -> AppResult<PublishRequest> {
    if !body.is_object() {
        return Err(AppError::bad_request(
            "Publish payload: must be a JSON object",
        ));
    }
    let tags = match body.get("tags") {
        None | Some(Value::Null) => vec!["latest".to_owned()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| payload_error("tags", "must be an array of strings"))
            })
            .collect::<AppResult<Vec<_>>>()?,
        Some(_) => return Err(payload_error("tags", "must be an array of strings")),
    };
    let accept_license_terms = match body.get("acceptLicenseTerms") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(value)) => *value,
        Some(_) => return Err(payload_error("acceptLicenseTerms", "must be a boolean")),
    };
    Ok(PublishRequest {
        slug: optional_string(body, "slug")?
            .ok_or_else(|| payload_error("slug", "must be a string (was missing)"))?,
        display_name: optional_string(body, "displayName")?.unwrap_or_default(),
        owner_handle: optional_string(body, "ownerHandle")?,
        version: optional_string(body, "version")?
            .ok_or_else(|| payload_error("version", "must be a string (was missing)"))?,
        changelog: optional_string(body, "changelog")?.unwrap_or_default(),
        accept_license_terms,
        tags,
    })
}

/// Publishes a skill version (JSON with upload tickets, or multipart).
#[utoipa::path(post, path = "/api/v1/skills", tag = "publish",
    request_body(content = String, description = "JSON `{slug, displayName, version, changelog, acceptLicenseTerms, tags, files:[{path,size,storageId,sha256,contentType,uploadTicket}]}` or multipart with a `payload` part and `files` parts", content_type = "multipart/form-data"),
    responses((status = 200, description = "`{ok, skillId, versionId, status, slug, version, publicationStatus}`", content_type = "application/json"),
              (status = 400, description = "invalid publish", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 409, description = "version already exists", body = String, content_type = "text/plain"),
              (status = 415, description = "`Unsupported content type`", body = String, content_type = "text/plain")))]
pub async fn publish_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    request: Request,
) -> AppResult<Response> {
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if content_type.starts_with("application/json") {
        let AppJson(body) = AppJson::<Value>::from_request(request, &state).await?;
        publish_json(&state, &user, &body).await
    } else if content_type.starts_with("multipart/form-data") {
        let multipart = Multipart::from_request(request, &state)
            .await
            .map_err(|rejection| {
                AppError::BadRequest(format!("Invalid multipart body: {}", rejection.body_text()))
            })?;
        publish_multipart(&state, &user, multipart).await
    } else {
        Err(AppError::UnsupportedMediaType(
            "Unsupported content type".into(),
        ))
    }
}

async fn publish_json(state: &AppState, user: &User, body: &Value) -> AppResult<Response> {
    let payload = parse_payload(body)?;
    let files = match body.get("files") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(files)) => files.clone(),
        Some(_) => return Err(payload_error("files", "must be an array")),
    };
    if files.is_empty() {
        return Err(AppError::bad_request("files required"));
    }
    if !payload.accept_license_terms {
        return Err(AppError::bad_request(
            "MIT-0 license terms must be accepted to publish skills",
        ));
    }
    if files.len() > MAX_FILES {
        return Err(AppError::BadRequest(format!(
            "Skill bundle has more than {MAX_FILES} files"
        )));
    }
    let now = chrono::Utc::now().timestamp_millis();
    let mut incoming = Vec::with_capacity(files.len());
    let mut tickets = Vec::with_capacity(files.len());
    let mut total: u64 = 0;
    for (index, file) in files.iter().enumerate() {
        let field = |name: &str| format!("files[{index}].{name}");
        let text = |name: &str| -> AppResult<String> {
            file.get(name)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| payload_error(&field(name), "must be a string"))
        };
        let path = text("path")?;
        let storage_id = text("storageId")?;
        let sha256 = text("sha256")?.to_ascii_lowercase();
        let size = file
            .get("size")
            .and_then(Value::as_i64)
            .ok_or_else(|| payload_error(&field("size"), "must be a number"))?;
        let content_type = normalize_content_type(file.get("contentType").and_then(Value::as_str));
        let limits = &state.config.upload_limits;
        limits
            .check_file(index, &path, u64::try_from(size).unwrap_or(0))
            .map_err(AppError::BadRequest)?;
        total += u64::try_from(size).unwrap_or(0);
        limits.check_total(total).map_err(AppError::BadRequest)?;
        let Some(ticket) = file.get("uploadTicket").and_then(Value::as_str) else {
            return Err(AppError::bad_request(
                "Every directly uploaded skill file requires an upload ticket",
            ));
        };
        let record = state
            .store
            .find_upload_ticket(ticket)
            .await?
            .filter(|record| record.user_id == user.id)
            .ok_or_else(|| {
                AppError::bad_request("Skill upload ticket does not match this publish")
            })?;
        if record.used_at.is_some() {
            return Err(AppError::bad_request(
                "Skill upload tickets cannot be reused",
            ));
        }
        let matches = record.uploaded_at.is_some()
            && record.expires_at > now
            && record.storage_id.as_deref() == Some(storage_id.as_str())
            && record.path == path
            && record.size == size
            && record.sha256 == sha256
            && (record.content_type.is_none() || record.content_type == content_type);
        if !matches {
            return Err(AppError::bad_request(
                "Skill upload ticket does not match this publish",
            ));
        }
        let bytes = state.storage.get(&record.sha256).await?.ok_or_else(|| {
            AppError::bad_request("Skill upload ticket does not match this publish")
        })?;
        tickets.push(ticket.to_owned());
        incoming.push(IncomingFile {
            path,
            bytes,
            content_type: content_type.or(record.content_type),
        });
    }
    let published = publish::publish(
        state.store.as_ref(),
        state.storage.as_ref(),
        user,
        payload,
        incoming,
        tickets,
        false,
    )
    .await?;
    Ok(published_view(&published))
}

async fn publish_multipart(
    state: &AppState,
    user: &User,
    mut multipart: Multipart,
) -> AppResult<Response> {
    let mut payload: Option<Value> = None;
    let mut incoming = Vec::new();
    let mut total: u64 = 0;
    let malformed = |error: axum::extract::multipart::MultipartError| {
        if error.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            AppError::PayloadTooLarge("Request body is too large".into())
        } else {
            AppError::BadRequest(format!("Invalid multipart body: {}", error.body_text()))
        }
    };
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or("").to_owned();
        match name.as_str() {
            "payload" => {
                // Raw bytes, not `field.text()`: that decodes lossily, and a payload whose
                // bytes were silently replaced would publish text the author never wrote.
                let bytes = field.bytes().await.map_err(malformed)?;
                if payload.is_some() {
                    return Err(AppError::bad_request("Multiple payload parts"));
                }
                if std::str::from_utf8(&bytes).is_err() {
                    return Err(AppError::bad_request(
                        "Invalid payload part: not valid UTF-8",
                    ));
                }
                let value = crate::extract::parse_json::<Value>(&bytes)
                    .map_err(|_| AppError::bad_request("Invalid JSON payload"))?;
                payload = Some(value);
            }
            "files" | "file" | "files[]" => {
                let path = field.file_name().map(str::to_owned).ok_or_else(|| {
                    AppError::bad_request("Every file part needs a filename (its relative path)")
                })?;
                let content_type = normalize_content_type(field.content_type());
                let bytes = field.bytes().await.map_err(malformed)?;
                if bytes.len() as u64 > MAX_FILE_BYTES {
                    return Err(AppError::BadRequest(format!(
                        "File \"{path}\" exceeds 10MB limit"
                    )));
                }
                if incoming.len() >= MAX_FILES {
                    return Err(AppError::BadRequest(format!(
                        "Skill bundle has more than {MAX_FILES} files"
                    )));
                }
                // The configured limits (at most the reference ones checked above).
                let limits = &state.config.upload_limits;
                limits
                    .check_file(incoming.len(), &path, bytes.len() as u64)
                    .map_err(AppError::BadRequest)?;
                total += bytes.len() as u64;
                limits.check_total(total).map_err(AppError::BadRequest)?;
                incoming.push(IncomingFile {
                    path,
                    bytes,
                    content_type,
                });
            }
            _ => {}
        }
    }
    let payload = payload.ok_or_else(|| AppError::bad_request("Missing payload"))?;
    let parsed = parse_payload(&payload)?;
    if !parsed.accept_license_terms {
        return Err(AppError::bad_request(
            "MIT-0 license terms must be accepted to publish skills",
        ));
    }
    if incoming.is_empty() {
        return Err(AppError::bad_request("files required"));
    }
    let published = publish::publish(
        state.store.as_ref(),
        state.storage.as_ref(),
        user,
        parsed,
        incoming,
        Vec::new(),
        true,
    )
    .await?;
    Ok(published_view(&published))
}

/// The answer to a successful publish.
fn published_view(published: &Published) -> Response {
    json_ok(json!({
        "ok": true,
        "skillId": published.skill_id.to_string(),
        "versionId": published.version_id.to_string(),
        "status": "published",
        "slug": published.slug,
        "version": published.version,
        "publicationStatus": "published",
    }))
}
