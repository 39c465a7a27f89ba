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
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

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
    request_body(content = UploadUrlRequest, description = "the file about to be uploaded", content_type = "application/json"),
    responses((status = 200, description = "where to upload it", body = UploadUrlResponse),
              (status = 400, description = "invalid declaration", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain")))]
pub async fn create_upload_url(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    headers: HeaderMap,
    AppJson(body): AppJson<Value>,
) -> AppResult<Response> {
    // Read field by field rather than as an `UploadUrlRequest`, so that each bad field
    // gets the message the CLI's users know.
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
    Ok(json_ok(UploadUrlResponse {
        upload_url,
        upload_ticket: ticket,
    }))
}

/// Receives the bytes of one ticket.
#[utoipa::path(post, path = "/api/v1/skills/-/upload/{ticket}", tag = "publish",
    params(("ticket" = String, Path, description = "upload ticket")),
    request_body(content = Vec<u8>, description = "raw file bytes", content_type = "application/octet-stream"),
    responses((status = 200, description = "the stored blob", body = UploadResponse),
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
    Ok(json_ok(UploadResponse { storage_id }))
}

/// Reads a publish payload, naming the offending field (`Publish payload: tags[0]: …`).
fn parse_payload(body: Value) -> AppResult<PublishPayload> {
    if !body.is_object() {
        return Err(AppError::bad_request(
            "Publish payload: must be a JSON object",
        ));
    }
    serde_path_to_error::deserialize(body).map_err(|error| {
        let path = error.path().to_string();
        let problem = error.into_inner();
        if path == "." {
            AppError::BadRequest(format!("Publish payload: {problem}"))
        } else {
            payload_error(&path, &problem.to_string())
        }
    })
}

impl PublishPayload {
    /// The request the domain publishes, with the defaults of absent fields.
    fn request(&self) -> PublishRequest {
        PublishRequest {
            slug: self.slug.clone(),
            display_name: self.display_name.clone().unwrap_or_default(),
            owner_handle: self.owner_handle.clone(),
            version: self.version.clone(),
            changelog: self.changelog.clone().unwrap_or_default(),
            accept_license_terms: self.accept_license_terms.unwrap_or(false),
            tags: self
                .tags
                .clone()
                .unwrap_or_else(|| vec!["latest".to_owned()]),
        }
    }
}

/// Publishes a skill version (JSON with upload tickets, or multipart).
#[utoipa::path(post, path = "/api/v1/skills", tag = "publish",
    request_body(description = "JSON (the CLI's publish: files uploaded first, each named by its upload ticket) or multipart (a `payload` part and one `files` part per file)",
        content(
            (PublishPayload = "application/json"),
            (MultipartPublish = "multipart/form-data"),
        )),
    responses((status = 200, description = "the new version", body = PublishResponse),
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
        publish_json(&state, &user, parse_payload(body)?).await
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

async fn publish_json(state: &AppState, user: &User, body: PublishPayload) -> AppResult<Response> {
    let payload = body.request();
    let files = body.files.unwrap_or_default();
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
    for (index, file) in files.into_iter().enumerate() {
        let PublishFile {
            path,
            size,
            storage_id,
            sha256,
            content_type,
            upload_ticket,
        } = file;
        let sha256 = sha256.to_ascii_lowercase();
        let content_type = normalize_content_type(content_type.as_deref());
        let limits = &state.config.upload_limits;
        limits
            .check_file(index, &path, u64::try_from(size).unwrap_or(0))
            .map_err(AppError::BadRequest)?;
        total += u64::try_from(size).unwrap_or(0);
        limits.check_total(total).map_err(AppError::BadRequest)?;
        let Some(ticket) = upload_ticket.as_deref() else {
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
    let parsed = parse_payload(payload)?.request();
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
    json_ok(PublishResponse {
        ok: true,
        skill_id: published.skill_id.to_string(),
        version_id: published.version_id.to_string(),
        status: "published".into(),
        slug: published.slug.clone(),
        version: published.version.clone(),
        publication_status: "published".into(),
    })
}

/// Body of `POST /api/v1/skills/-/upload-url`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadUrlRequest {
    /// Relative path of the file inside the skill.
    pub path: String,
    /// Exact size in bytes (at most the per-file limit).
    pub size: u64,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    /// Content type the upload will declare.
    pub content_type: Option<String>,
}

/// Answer of `POST /api/v1/skills/-/upload-url`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadUrlResponse {
    /// Where to `POST` the raw bytes (valid for an hour).
    pub upload_url: String,
    /// The ticket to name in the publish.
    pub upload_ticket: String,
}

/// Answer of `POST /api/v1/skills/-/upload/{ticket}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadResponse {
    /// Content address of the stored bytes.
    pub storage_id: String,
}

/// The JSON publish body, and the `payload` part of a multipart publish.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishPayload {
    /// Slug (lower-case letters, digits and dashes).
    pub slug: String,
    /// Display name (default: from the slug).
    pub display_name: Option<String>,
    /// Publish under this owner (a publisher the caller belongs to).
    pub owner_handle: Option<String>,
    /// Semver version, new for this skill.
    pub version: String,
    /// Changelog (default: generated).
    pub changelog: Option<String>,
    /// Must be true: every version is published under MIT-0.
    pub accept_license_terms: Option<bool>,
    /// Tags pointing at this version (default `["latest"]`).
    pub tags: Option<Vec<String>>,
    /// The files, by upload ticket (JSON publish only; multipart sends them as parts).
    pub files: Option<Vec<PublishFile>>,
}

/// A file of a JSON publish, uploaded before through its ticket.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishFile {
    /// Relative path inside the skill.
    pub path: String,
    /// Size in bytes.
    pub size: i64,
    /// `storageId` the upload answered.
    pub storage_id: String,
    /// SHA-256, hex.
    pub sha256: String,
    /// Content type.
    pub content_type: Option<String>,
    /// The upload ticket (required).
    pub upload_ticket: Option<String>,
}

/// A multipart publish (described for clients; the parts are read as they stream in).
#[derive(Debug, Clone, ToSchema)]
#[allow(dead_code)]
pub struct MultipartPublish {
    /// A [`PublishPayload`] as JSON text (UTF-8).
    pub payload: String,
    /// One part per file; its filename is the relative path.
    #[schema(value_type = Vec<String>, format = Binary)]
    pub files: Vec<Vec<u8>>,
}

/// Answer of a successful publish.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishResponse {
    /// Always true.
    pub ok: bool,
    /// Id of the skill.
    pub skill_id: String,
    /// Id of the new version.
    pub version_id: String,
    /// Always `published`.
    pub status: String,
    /// Canonical slug.
    pub slug: String,
    /// The version.
    pub version: String,
    /// Always `published`.
    pub publication_status: String,
}
