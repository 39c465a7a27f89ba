//! The package half of API v1: publish (`POST /api/v1/packages`, multipart as
//! `clawhub package publish` sends it), package and version reads, the artifact and its
//! download, the security report, search, and delete / undelete / transfer.
//!
//! Package names arrive as one encoded path segment (`%40alice%2Fplug`), raw
//! (`@alice/plug`) or encoded twice, so everything under `/api/v1/packages/` is routed
//! by one catch-all and split by [`crate::packages::name::split_name_path`] on the raw
//! path. Handlers extract, authorize, call the domain ([`crate::packages`]) and the
//! store, and render; every error is plain text.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value, json};

use crate::app::AppState;
use crate::auth::{MaybeUser, RequireUser};
use crate::db::User;
use crate::db::package_store::{
    NewRelease, PackageRow, PackageSearch, PackageSeek, PublishedRelease, ReleaseRow,
};
use crate::error::{AppError, AppResult};
use crate::extract::Params;
use crate::packages::lifecycle::{
    self, PACKAGE_NOT_FOUND, TransferRequest, VERSION_NOT_FOUND, tags_of,
};
use crate::packages::name::split_name_path;
use crate::packages::publish::{self, PreparedRelease, PublishError, Upload};
use crate::packages::views;
use crate::policy::{self, PackageAction};
use crate::routes::lifecycle::OkResponse;
use crate::routes::{base_url, json_ok, package_uploads};

/// Largest multipart publish body, as the reference registry allows.
pub const MAX_MULTIPART_BYTES: usize = 18 * 1024 * 1024;
const MULTIPART_TOO_LARGE: &str = "Package upload exceeds 18MB multipart upload limit";
/// A withdrawn release, on every read of it (as for a withdrawn skill version).
const VERSION_WITHDRAWN: &str = "Version not available";
const MALICIOUS_BLOCK: &str =
    "Blocked: this package release has been flagged as malicious and cannot be downloaded.";

/// The package routes of API v1.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/packages", post(publish_package).get(list_packages))
        .route("/api/v1/packages/search", get(search_packages))
        .route("/api/v1/plugins/export", get(export_plugins))
        .route(
            "/api/v1/packages/{*rest}",
            get(read_package).delete(delete_package).post(post_package),
        )
}

/// The package name and the segments after it, from the raw request path.
fn parse_path(uri: &axum::http::Uri) -> AppResult<(String, Vec<String>)> {
    let rest = uri
        .path()
        .strip_prefix("/api/v1/packages/")
        .unwrap_or_default();
    split_name_path(rest).ok_or_else(|| AppError::bad_request("Package name required"))
}

/// A package the caller may read: not deleted, and not private unless they manage it.
pub(crate) async fn readable_package(
    state: &AppState,
    name: &str,
    caller: Option<&User>,
) -> AppResult<PackageRow> {
    let package = state
        .store
        .find_package(name)
        .await?
        .ok_or_else(|| AppError::not_found(PACKAGE_NOT_FOUND))?;
    let visible = package.deleted_at.is_none()
        && (package.channel != "private"
            || policy::may_package(caller, PackageAction::ReadPrivate, package.owner_id));
    if visible {
        Ok(package)
    } else {
        Err(AppError::not_found(PACKAGE_NOT_FOUND))
    }
}

/// Writes the download counts gathered in memory, so reads show them.
async fn flush_downloads(state: &AppState, counts: Vec<(i64, i64)>) {
    for (package_id, count) in counts {
        if let Err(error) = state.store.add_package_downloads(package_id, count).await {
            tracing::warn!(error = %error, package_id, "failed to write package downloads");
        }
    }
}

/// Counts one download without a database write per request.
pub(crate) fn count_download(state: &AppState, package_id: i64) {
    let now = chrono::Utc::now().timestamp_millis();
    if let Some(counts) = state.artifacts.count_download(package_id, now) {
        let state = state.clone();
        tokio::spawn(async move { flush_downloads(&state, counts).await });
    }
}

// ---------------------------------------------------------------- publish

/// Publishes a package release (multipart `payload` plus `clawpack` or `files` parts).
#[utoipa::path(post, path = "/api/v1/packages", tag = "packages",
    request_body(content = MultipartPackagePublish, description = "a `payload` part and one `clawpack` part (an `npm pack` .tgz) or `files` parts", content_type = "multipart/form-data"),
    responses((status = 200, description = "the new release", body = views::PackagePublished),
              (status = 400, description = "invalid payload, tarball or package.json", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "the name belongs to another publisher", body = String, content_type = "text/plain"),
              (status = 409, description = "this version already exists", body = String, content_type = "text/plain"),
              (status = 413, description = "upload or unpacked size over the limit", body = String, content_type = "text/plain"),
              (status = 415, description = "not multipart", body = String, content_type = "text/plain")))]
pub async fn publish_package(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    request: Request,
) -> AppResult<Response> {
    let is_multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .to_ascii_lowercase()
                .starts_with("multipart/form-data")
        });
    if !is_multipart {
        return Err(AppError::UnsupportedMediaType(
            "Package publish requires multipart/form-data".into(),
        ));
    }
    let multipart = Multipart::from_request(request, &state)
        .await
        .map_err(|rejection| {
            AppError::BadRequest(format!("Invalid multipart body: {}", rejection.body_text()))
        })?;
    let (payload_text, upload) = read_publish_form(multipart).await?;
    let payload = publish::parse_payload(&payload_text).map_err(publish_error)?;
    let (upload, ticket) = match upload {
        FormUpload::Inline(upload) => (upload, None),
        FormUpload::Staged { storage_id, ticket } => {
            let bytes =
                package_uploads::staged_clawpack(&state, &user, &storage_id, &ticket).await?;
            (Upload::Clawpack(bytes), Some(ticket))
        }
    };
    let publisher = user.handle.clone();
    let limits = state.config.upload_limits.tarball_limits();
    // Inflating, hashing and scanning are CPU work: keep them off the async workers.
    let prepared =
        tokio::task::spawn_blocking(move || publish::prepare(payload, upload, &publisher, &limits))
            .await
            .map_err(|error| AppError::Internal(anyhow::anyhow!("publish task failed: {error}")))?
            .map_err(publish_error)?;
    store_release(&state, &user, prepared, ticket.as_deref()).await
}

/// The tarball or files of a publish form: sent inline, or staged earlier through
/// `POST /api/cli/upload-url` and named by its storage id and ticket.
enum FormUpload {
    Inline(Upload),
    Staged { storage_id: String, ticket: String },
}

fn publish_error(error: PublishError) -> AppError {
    match error {
        PublishError::Invalid(message) => AppError::BadRequest(message),
        PublishError::Forbidden(message) => AppError::Forbidden(message),
        PublishError::TooLarge(message) => AppError::PayloadTooLarge(message),
    }
}

/// Reads the publish form, enforcing the multipart limit on the bytes actually received.
///
/// An oversize body is still read to its end (the server-wide body limit bounds it) and
/// only then refused: answering while the client is still sending makes many clients
/// report a broken pipe instead of the 413 and its reason.
async fn read_publish_form(mut multipart: Multipart) -> AppResult<(String, FormUpload)> {
    let malformed = |error: axum::extract::multipart::MultipartError| {
        if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::PayloadTooLarge(MULTIPART_TOO_LARGE.into())
        } else {
            AppError::BadRequest(format!("Invalid multipart body: {}", error.body_text()))
        }
    };
    let mut payload: Option<String> = None;
    let mut clawpack: Option<Bytes> = None;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut staged_id: Option<String> = None;
    let mut staged_ticket: Option<String> = None;
    let mut received = 0usize;
    while let Some(mut field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or("").to_owned();
        if !matches!(
            name.as_str(),
            "payload" | "files" | "clawpack" | "clawpackUploadTicket"
        ) {
            return Err(AppError::BadRequest(format!(
                "Unsupported package publish form field: {name}"
            )));
        }
        let file_name = field.file_name().map(str::to_owned);
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(malformed)? {
            received += chunk.len();
            if received <= MAX_MULTIPART_BYTES {
                bytes.extend_from_slice(&chunk);
            }
        }
        if received > MAX_MULTIPART_BYTES {
            continue;
        }
        match name.as_str() {
            "payload" => {
                if payload.is_some() {
                    return Err(AppError::bad_request("Multiple payload parts"));
                }
                let text = String::from_utf8(bytes)
                    .map_err(|_| AppError::bad_request("Invalid payload part: not valid UTF-8"))?;
                payload = Some(text);
            }
            "clawpack" if file_name.is_some() => {
                if clawpack.is_some() {
                    return Err(AppError::bad_request("Multiple clawpack parts"));
                }
                clawpack = Some(Bytes::from(bytes));
            }
            "clawpack" | "clawpackUploadTicket" => {
                let slot = if name == "clawpack" {
                    &mut staged_id
                } else {
                    &mut staged_ticket
                };
                if slot.is_some() {
                    return Err(AppError::BadRequest(format!("Multiple {name} parts")));
                }
                let text = String::from_utf8(bytes).map_err(|_| {
                    AppError::BadRequest(format!("Invalid {name} part: not valid UTF-8"))
                })?;
                *slot = Some(text.trim().to_owned());
            }
            _ => {
                let path = file_name.ok_or_else(|| {
                    AppError::bad_request("Every files part needs a filename (its relative path)")
                })?;
                files.push((path, bytes));
            }
        }
    }
    if received > MAX_MULTIPART_BYTES {
        return Err(AppError::PayloadTooLarge(MULTIPART_TOO_LARGE.into()));
    }
    let payload = payload.ok_or_else(|| AppError::bad_request("Missing payload"))?;
    let staged = staged_id.is_some() || staged_ticket.is_some();
    let upload = match (clawpack, files.is_empty(), staged) {
        (Some(_), false, _) | (Some(_), _, true) | (None, false, true) => {
            return Err(AppError::bad_request(
                "Send either a clawpack or files, not both",
            ));
        }
        (Some(bytes), true, false) => FormUpload::Inline(Upload::Clawpack(bytes.to_vec())),
        (None, false, false) => FormUpload::Inline(Upload::Files(files)),
        (None, true, true) => match (staged_id, staged_ticket) {
            (Some(storage_id), Some(ticket)) => FormUpload::Staged { storage_id, ticket },
            (Some(_), None) => {
                return Err(AppError::bad_request(
                    "A staged clawpack storage id needs its clawpackUploadTicket",
                ));
            }
            _ => {
                return Err(AppError::bad_request(
                    "clawpackUploadTicket needs the staged clawpack storage id",
                ));
            }
        },
        (None, true, false) => return Err(AppError::bad_request("No files uploaded")),
    };
    Ok((payload, upload))
}

/// Checks the release against what is stored, stores the tarball, then the rows.
async fn store_release(
    state: &AppState,
    user: &User,
    prepared: PreparedRelease,
    staged_ticket: Option<&str>,
) -> AppResult<Response> {
    let name = prepared.name.as_str().to_owned();
    let version = prepared.version.to_string();
    // Refuse before the blob is written, so a refused publish stores nothing.
    if let Some(existing) = state.store.find_package(&name).await? {
        if !policy::may_package(Some(user), PackageAction::PublishRelease, existing.owner_id) {
            return Err(AppError::Forbidden(format!(
                "Forbidden: package {name} belongs to @{}",
                existing.owner_handle
            )));
        }
        if existing.deleted_at.is_some() {
            return Err(AppError::Conflict(format!(
                "Package {name} is deleted; undelete it before publishing"
            )));
        }
        if state
            .store
            .find_release(existing.id, &version)
            .await?
            .is_some()
        {
            return Err(version_exists(&name, &version));
        }
    }
    if let Some(ticket) = staged_ticket {
        package_uploads::consume_ticket(state, ticket).await?;
    }
    let sha256 = state
        .storage
        .put(Bytes::from(prepared.artifact.clone()))
        .await
        .map_err(AppError::Internal)?;
    let json_text = |value: &Value| value.to_string();
    let release = ReleaseRow {
        id: 0,
        package_id: 0,
        version: version.clone(),
        changelog: prepared.changelog.clone(),
        artifact_sha256: sha256,
        artifact_size: i64::try_from(prepared.artifact.len()).unwrap_or(i64::MAX),
        integrity: prepared.digests.integrity.clone(),
        shasum: prepared.digests.shasum.clone(),
        tarball_name: prepared.tarball_name.clone(),
        unpacked_size: i64::try_from(prepared.unpacked_size).unwrap_or(i64::MAX),
        file_count: i64::try_from(prepared.files.len()).unwrap_or(i64::MAX),
        files_json: serde_json::to_string(&prepared.files).unwrap_or_else(|_| "[]".into()),
        install_fields_json: prepared
            .install_fields
            .as_ref()
            .map(|fields| Value::Object(fields.clone()).to_string()),
        has_install_script: prepared.has_install_script,
        compatibility_json: prepared
            .compatibility
            .as_ref()
            .map(|compat| Value::Object(compat.clone()).to_string()),
        source_json: prepared.source.as_ref().map(json_text),
        bundle_json: prepared.bundle.as_ref().map(json_text),
        scan_json: serde_json::to_string(&prepared.scan).unwrap_or_else(|_| "{}".into()),
        scan_status: prepared.scan.status.as_str().to_owned(),
        created_at: 0,
        withdrawn_at: None,
    };
    let new = NewRelease {
        name: name.clone(),
        display_name: prepared.display_name.clone(),
        family: prepared.family.as_str().to_owned(),
        channel: prepared.channel.clone(),
        summary: prepared.summary.clone(),
        categories_json: json_text(&serde_json::to_value(&prepared.categories).unwrap_or_default()),
        topics_json: json_text(&serde_json::to_value(&prepared.topics).unwrap_or_default()),
        publisher_id: user.id,
        tags: prepared.tags.clone(),
        release,
        now: chrono::Utc::now().timestamp_millis(),
    };
    match state.store.publish_release(&new).await? {
        PublishedRelease::Published {
            package_id,
            release_id,
        } => Ok(json_ok(views::PackagePublished {
            ok: true,
            package_id: package_id.to_string(),
            release_id: release_id.to_string(),
            publication_status: "published".into(),
            name,
            version,
            scan_status: prepared.scan.status.as_str().to_owned(),
        })),
        PublishedRelease::VersionExists => Err(version_exists(&name, &version)),
        PublishedRelease::NotOwner => Err(AppError::Forbidden("Forbidden".into())),
        PublishedRelease::Deleted => Err(AppError::Conflict(format!(
            "Package {name} is deleted; undelete it before publishing"
        ))),
    }
}

fn version_exists(name: &str, version: &str) -> AppError {
    AppError::Conflict(format!(
        "Version {version} of {name} already exists; published versions are immutable"
    ))
}

// ---------------------------------------------------------------- reads

/// Every GET under `/api/v1/packages/{name}`.
async fn read_package(
    State(state): State<AppState>,
    MaybeUser(caller): MaybeUser,
    params: Params,
    headers: HeaderMap,
    request: Request,
) -> AppResult<Response> {
    let (name, rest) = parse_path(request.uri())?;
    let segments: Vec<&str> = rest.iter().map(String::as_str).collect();
    let caller = caller.as_deref();
    let base = base_url(&state, &headers);
    match segments.as_slice() {
        [] => get_package(&state, &name, caller).await,
        ["versions"] => list_versions(&state, &name, caller, &params).await,
        ["versions", version] => get_version(&state, &name, version, caller, &base).await,
        ["versions", version, "artifact"] => {
            get_artifact(&state, &name, version, caller, &base).await
        }
        ["versions", version, "artifact", "download"] => {
            download_artifact(&state, &name, version, caller, &headers).await
        }
        ["versions", version, "security"] => {
            get_security(&state, &name, version, caller, &base).await
        }
        ["download"] => download_by_tag(&state, &name, &params, caller, &headers).await,
        _ => Err(AppError::not_found("Not found")),
    }
}

/// One package: `{package, owner}`.
#[utoipa::path(get, path = "/api/v1/packages/{name}", tag = "packages",
    params(("name" = String, Path, description = "package name; scoped names as one encoded segment (`%40owner%2Fname`)")),
    responses((status = 200, description = "the package, its latest release and owner", body = views::PackageResponse),
              (status = 404, description = "`Package not found`", body = String, content_type = "text/plain")))]
pub async fn get_package(
    state: &AppState,
    name: &str,
    caller: Option<&User>,
) -> AppResult<Response> {
    flush_downloads(state, state.artifacts.take_pending()).await;
    let package = readable_package(state, name, caller).await?;
    let latest = match package.latest_version.as_deref() {
        Some(version) => state.store.find_release(package.id, version).await?,
        None => None,
    };
    Ok(json_ok(views::package_response(&package, latest.as_ref())))
}

/// Versions of a package, newest first: `{items: [{version, createdAt, changelog, distTags}], nextCursor}`.
#[utoipa::path(get, path = "/api/v1/packages/{name}/versions", tag = "packages",
    params(("name" = String, Path, description = "package name"),
           ("limit" = Option<i64>, Query, description = "page size, 1-100 (default 25)"),
           ("cursor" = Option<String>, Query, description = "`nextCursor` of the previous page")),
    responses((status = 200, description = "a page of versions", body = views::ReleasePage),
              (status = 404, description = "`Package not found`", body = String, content_type = "text/plain")))]
pub async fn list_versions(
    state: &AppState,
    name: &str,
    caller: Option<&User>,
    params: &Params,
) -> AppResult<Response> {
    let package = readable_package(state, name, caller).await?;
    let limit = usize::try_from(params.clamped("limit", 25, 1, 100)?).unwrap_or(25);
    // Keyset on (createdAt, id), newest first; a cursor that does not parse starts over.
    let after = params.text("cursor").and_then(|cursor| {
        let (created, id) = cursor.split_once('.')?;
        Some((created.parse::<i64>().ok()?, id.parse::<i64>().ok()?))
    });
    let mut releases = state.store.list_releases(package.id).await?;
    releases.reverse();
    let tags = tags_of(&package);
    let page: Vec<&ReleaseRow> = releases
        .iter()
        .filter(|release| after.is_none_or(|key| (release.created_at, release.id) < key))
        .take(limit + 1)
        .collect();
    let next_cursor = (page.len() > limit)
        .then(|| page[limit - 1])
        .map(|last| format!("{}.{}", last.created_at, last.id));
    let items = page
        .iter()
        .take(limit)
        .map(|release| views::ReleaseItem {
            version: release.version.clone(),
            created_at: release.created_at,
            changelog: release.changelog.clone(),
            dist_tags: views::dist_tags_of(&tags, &release.version),
        })
        .collect();
    Ok(json_ok(views::ReleasePage { items, next_cursor }))
}

async fn find_release(
    state: &AppState,
    name: &str,
    version: &str,
    caller: Option<&User>,
) -> AppResult<(PackageRow, ReleaseRow)> {
    let package = readable_package(state, name, caller).await?;
    let release = state
        .store
        .find_release(package.id, version)
        .await?
        .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))?;
    if release.withdrawn_at.is_some() {
        return Err(AppError::Gone(VERSION_WITHDRAWN.into()));
    }
    Ok((package, release))
}

/// One version with its files, compatibility, artifact and scan.
#[utoipa::path(get, path = "/api/v1/packages/{name}/versions/{version}", tag = "packages",
    params(("name" = String, Path, description = "package name"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "the release with its files, artifact and scan", body = views::ReleaseResponse),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn get_version(
    state: &AppState,
    name: &str,
    version: &str,
    caller: Option<&User>,
    base: &str,
) -> AppResult<Response> {
    let (package, release) = find_release(state, name, version, caller).await?;
    Ok(json_ok(views::release_response(base, &package, &release)))
}

/// Artifact information: format, size, digests, file list and download URLs.
#[utoipa::path(get, path = "/api/v1/packages/{name}/versions/{version}/artifact", tag = "packages",
    params(("name" = String, Path, description = "package name"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "the artifact, its URLs and files", body = views::ArtifactResponse),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn get_artifact(
    state: &AppState,
    name: &str,
    version: &str,
    caller: Option<&User>,
    base: &str,
) -> AppResult<Response> {
    let (package, release) = find_release(state, name, version, caller).await?;
    Ok(json_ok(views::ArtifactResponse {
        package: views::header(&package),
        version: release.version.clone(),
        artifact: views::artifact_with_urls(base, &package, &release),
        files: views::files_of(&release),
    }))
}

/// The security report of a release: trust decision, overview and scan findings.
#[utoipa::path(get, path = "/api/v1/packages/{name}/versions/{version}/security", tag = "packages",
    params(("name" = String, Path, description = "package name"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "trust decision, overview and scan findings", body = views::SecurityResponse),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn get_security(
    state: &AppState,
    name: &str,
    version: &str,
    caller: Option<&User>,
    base: &str,
) -> AppResult<Response> {
    let (package, release) = find_release(state, name, version, caller).await?;
    Ok(json_ok(views::security_response(base, &package, &release)))
}

/// The exact tarball bytes of a release.
#[utoipa::path(get, path = "/api/v1/packages/{name}/versions/{version}/artifact/download", tag = "packages",
    params(("name" = String, Path, description = "package name"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "the `npm pack` tarball; headers `ETag: \"sha256:<hex>\"`, `X-ClawHub-Artifact-Sha256`, `X-ClawHub-Npm-Integrity`, `X-ClawHub-Npm-Shasum`", content_type = "application/octet-stream"),
              (status = 304, description = "`If-None-Match` matched the ETag"),
              (status = 403, description = "the release is blocked", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn download_artifact(
    state: &AppState,
    name: &str,
    version: &str,
    caller: Option<&User>,
    headers: &HeaderMap,
) -> AppResult<Response> {
    let (package, release) = find_release(state, name, version, caller).await?;
    if release.scan_status == "malicious" {
        return Err(AppError::Forbidden(MALICIOUS_BLOCK.into()));
    }
    let served = ServedArtifact {
        package_id: package.id,
        tarball_name: release.tarball_name,
        sha256: release.artifact_sha256,
        integrity: release.integrity,
        shasum: release.shasum,
        size: u64::try_from(release.artifact_size).unwrap_or(0),
    };
    artifact_response(state, &served, headers).await
}

/// The tarball of a version or tag, by query: the older download URL
/// (`legacyDownloadUrl` of the artifact), kept for clients that build it.
#[utoipa::path(get, path = "/api/v1/packages/{name}/download", tag = "packages",
    params(("name" = String, Path, description = "package name"),
           ("version" = Option<String>, Query, description = "semver version (wins over `tag`)"),
           ("tag" = Option<String>, Query, description = "dist-tag (default `latest`)")),
    responses((status = 200, description = "the `npm pack` tarball, with the same headers as the artifact download", content_type = "application/octet-stream"),
              (status = 304, description = "`If-None-Match` matched the ETag"),
              (status = 403, description = "the release is blocked", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn download_by_tag(
    state: &AppState,
    name: &str,
    params: &Params,
    caller: Option<&User>,
    headers: &HeaderMap,
) -> AppResult<Response> {
    let package = readable_package(state, name, caller).await?;
    let version = match params.text("version") {
        Some(version) => version.to_owned(),
        None => {
            let tag = params.text("tag").unwrap_or("latest");
            tags_of(&package)
                .get(tag)
                .cloned()
                .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))?
        }
    };
    download_artifact(state, name, &version, caller, headers).await
}

/// What a tarball response needs.
pub(crate) struct ServedArtifact {
    pub package_id: i64,
    pub tarball_name: String,
    pub sha256: String,
    pub integrity: String,
    pub shasum: String,
    /// Bytes of the tarball.
    pub size: u64,
}

/// Answers a tarball: 304 when the client has it, else the bytes with their digests.
pub(crate) async fn artifact_response(
    state: &AppState,
    artifact: &ServedArtifact,
    headers: &HeaderMap,
) -> AppResult<Response> {
    let etag = format!("\"sha256:{}\"", artifact.sha256);
    let not_modified = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .split(',')
                .any(|tag| tag.trim() == etag || tag.trim() == "*")
        });
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let body = match state.artifacts.blob(&artifact.sha256) {
            Some(bytes) => axum::body::Body::from(bytes),
            // Small tarballs are read whole and kept in memory for the next request; large
            // ones (the cache would not keep them anyway) stream from the store.
            None if artifact.size > crate::packages::serving::BLOB_CACHE_ENTRY as u64 => {
                let (_, stream) = state
                    .storage
                    .get_stream(&artifact.sha256)
                    .await
                    .map_err(AppError::Internal)?
                    .ok_or_else(|| AppError::not_found("ClawPack artifact not found"))?;
                axum::body::Body::from_stream(stream)
            }
            None => {
                let bytes = state
                    .storage
                    .get(&artifact.sha256)
                    .await
                    .map_err(AppError::Internal)?
                    .ok_or_else(|| AppError::not_found("ClawPack artifact not found"))?;
                state
                    .artifacts
                    .remember_blob(&artifact.sha256, bytes.clone());
                axum::body::Body::from(bytes)
            }
        };
        count_download(state, artifact.package_id);
        let mut response = body.into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(artifact.size));
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/octet-stream"),
        );
        if let Ok(value) = HeaderValue::from_str(&format!(
            "attachment; filename=\"{}\"",
            artifact.tarball_name
        )) {
            headers.insert(header::CONTENT_DISPOSITION, value);
        }
        response
    };
    let headers = response.headers_mut();
    let pairs = [
        (header::ETAG.as_str(), etag.as_str()),
        ("x-clawhub-artifact-type", "npm-pack-tarball"),
        ("x-clawhub-artifact-sha256", artifact.sha256.as_str()),
        ("x-clawhub-npm-integrity", artifact.integrity.as_str()),
        ("x-clawhub-npm-shasum", artifact.shasum.as_str()),
    ];
    for (name, value) in pairs {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=300"),
    );
    Ok(response)
}

// ---------------------------------------------------------------- search and list

/// Text search over public packages: `{results: [{score, package}]}`.
#[utoipa::path(get, path = "/api/v1/packages/search", tag = "packages",
    params(("q" = String, Query, description = "words to find in name, display name or summary"),
           ("limit" = Option<i64>, Query, description = "1-100, default 25"),
           ("family" = Option<String>, Query, description = "`code-plugin`, `bundle-plugin` or `skill`")),
    responses((status = 200, description = "hits, best first", body = views::PackageSearchResponse),
              (status = 400, description = "invalid `limit` or `family`", body = String, content_type = "text/plain")))]
pub async fn search_packages(State(state): State<AppState>, params: Params) -> AppResult<Response> {
    let family = family_param(&params)?;
    let limit = params.clamped("limit", 25, 1, 100)?;
    let query = params.text("q").unwrap_or("").to_lowercase();
    let terms: Vec<String> = query
        .split_whitespace()
        .take(8)
        .map(str::to_owned)
        .collect();
    let rows = if terms.is_empty() {
        Vec::new()
    } else {
        state
            .store
            .search_packages(&PackageSearch {
                terms: terms.clone(),
                family,
                limit,
                after: None,
            })
            .await?
    };
    let mut scored: Vec<(f64, &PackageRow)> = rows
        .iter()
        .map(|package| (search_score(package, &terms, &query), package))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let results = scored
        .into_iter()
        .map(|(score, package)| views::PackageSearchHit {
            score,
            package: views::list_item(package),
        })
        .collect();
    Ok(json_ok(views::PackageSearchResponse { results }))
}

/// Relevance: an exact name beats a name match, which beats display name and summary.
fn search_score(package: &PackageRow, terms: &[String], query: &str) -> f64 {
    let name = package.name.to_lowercase();
    let bare = name.rsplit('/').next().unwrap_or(&name);
    let display = package.display_name.to_lowercase();
    let summary = package.summary.as_deref().unwrap_or("").to_lowercase();
    let mut score = if name == query || bare == query {
        10.0
    } else {
        0.0
    };
    for term in terms {
        if name.contains(term.as_str()) {
            score += 3.0;
        }
        if display.contains(term.as_str()) {
            score += 2.0;
        }
        if summary.contains(term.as_str()) {
            score += 1.0;
        }
    }
    score
}

fn family_param(params: &Params) -> AppResult<Option<String>> {
    match params.text("family") {
        None => Ok(None),
        Some(family @ ("code-plugin" | "bundle-plugin" | "skill")) => Ok(Some(family.to_owned())),
        Some(_) => Err(AppError::bad_request(
            "family must be code-plugin, bundle-plugin or skill",
        )),
    }
}

/// The catalogue: public packages, most downloaded first, in pages (`{items, nextCursor}`).
#[utoipa::path(get, path = "/api/v1/packages", tag = "packages",
    params(("limit" = Option<i64>, Query, description = "1-100, default 25"),
           ("cursor" = Option<String>, Query, description = "`nextCursor` of the previous page"),
           ("family" = Option<String>, Query, description = "`code-plugin`, `bundle-plugin` or `skill`")),
    responses((status = 200, description = "a page of packages", body = views::PackagePage),
              (status = 400, description = "invalid `limit`, `family` or `cursor`", body = String, content_type = "text/plain")))]
pub async fn list_packages(State(state): State<AppState>, params: Params) -> AppResult<Response> {
    let family = family_param(&params)?;
    let limit = params.clamped("limit", 25, 1, 100)?;
    let after = match params.text("cursor") {
        None => None,
        Some(cursor) => Some(
            decode_package_cursor(cursor)
                .ok_or_else(|| AppError::bad_request("Invalid cursor format"))?,
        ),
    };
    let mut rows = state
        .store
        .search_packages(&PackageSearch {
            terms: Vec::new(),
            family,
            limit: limit + 1,
            after,
        })
        .await?;
    let page = usize::try_from(limit).unwrap_or(25);
    let more = rows.len() > page;
    rows.truncate(page);
    let next_cursor = match rows.last() {
        Some(last) if more => Some(encode_package_cursor(&PackageSeek {
            downloads: last.downloads,
            updated_at: last.updated_at,
            id: last.id,
        })),
        _ => None,
    };
    let items = rows.iter().map(views::list_item).collect();
    Ok(json_ok(views::PackagePage { items, next_cursor }))
}

/// An opaque cursor: the keyset of the last row, as base64url JSON.
fn encode_package_cursor(seek: &PackageSeek) -> String {
    use base64::Engine as _;
    let json = serde_json::to_vec(seek).unwrap_or_default();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json)
}

fn decode_package_cursor(cursor: &str) -> Option<PackageSeek> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor.trim())
        .ok()?;
    serde_json::from_slice(&bytes).ok()
}

// ---------------------------------------------------------------- lifecycle

/// Soft-deletes a package: it vanishes from every public surface, npm included.
#[utoipa::path(delete, path = "/api/v1/packages/{name}", tag = "packages",
    params(("name" = String, Path, description = "package name")),
    responses((status = 200, description = "`{ok: true}`", body = OkResponse),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found`", body = String, content_type = "text/plain")))]
pub async fn delete_package(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    request: Request,
) -> AppResult<Response> {
    let (name, rest) = parse_path(request.uri())?;
    match rest
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => {}
        ["versions", version] => return withdraw_release(&state, &user, &name, version).await,
        _ => return Err(AppError::not_found("Not found")),
    }
    // The body is optional; a version in it asks for the per-version route.
    let body = Bytes::from_request(request, &state)
        .await
        .map_err(|rejection| AppError::BadRequest(rejection.body_text()))?;
    if !body.iter().all(u8::is_ascii_whitespace) {
        let selector: Value = crate::extract::parse_json(&body)?;
        if selector
            .get("version")
            .is_some_and(|version| !version.is_null())
        {
            return Err(AppError::BadRequest(format!(
                "Version deletion requires DELETE /api/v1/packages/{name}/versions/<version>."
            )));
        }
    }
    lifecycle::delete(&*state.store, &user, &name).await?;
    Ok(ok())
}

/// `{ "ok": true }`.
fn ok() -> Response {
    json_ok(OkResponse { ok: true })
}

/// Every POST under `/api/v1/packages/{name}`: `undelete` and `transfer`.
async fn post_package(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    request: Request,
) -> AppResult<Response> {
    let (name, rest) = parse_path(request.uri())?;
    let segments: Vec<&str> = rest.iter().map(String::as_str).collect();
    match segments.as_slice() {
        ["undelete"] => undelete_package(&state, &user, &name).await,
        ["versions", version, "restore"] => restore_release(&state, &user, &name, version).await,
        ["transfer"] => {
            let body = Bytes::from_request(request, &state)
                .await
                .map_err(|rejection| AppError::BadRequest(rejection.body_text()))?;
            transfer_package(&state, &user, &name, &body).await
        }
        _ => Err(AppError::not_found("Not found")),
    }
}

/// Restores a deleted package.
#[utoipa::path(post, path = "/api/v1/packages/{name}/undelete", tag = "packages",
    params(("name" = String, Path, description = "package name")),
    responses((status = 200, description = "`{ok: true}`", body = OkResponse),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found`", body = String, content_type = "text/plain")))]
pub async fn undelete_package(state: &AppState, user: &User, name: &str) -> AppResult<Response> {
    lifecycle::undelete(&*state.store, user, name).await?;
    Ok(ok())
}

/// Withdraws one release: it leaves every read (version lists, the packument, downloads
/// answer `410 Version not available`) until restored, and its number stays taken. The
/// latest release cannot be withdrawn (publish a replacement first); other tags on it are
/// removed, since they would point at nothing.
#[utoipa::path(delete, path = "/api/v1/packages/{name}/versions/{version}", tag = "packages",
    params(("name" = String, Path, description = "package name"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "`{ok: true}` (also when it was withdrawn already)", body = OkResponse),
              (status = 400, description = "`Publish a replacement version before deleting the current latest version.`", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn withdraw_release(
    state: &AppState,
    user: &User,
    name: &str,
    version: &str,
) -> AppResult<Response> {
    lifecycle::withdraw_release(&*state.store, user, name, version).await?;
    Ok(ok())
}

/// Restores a withdrawn release (its tags are not restored: tag it again by publishing).
#[utoipa::path(post, path = "/api/v1/packages/{name}/versions/{version}/restore", tag = "packages",
    params(("name" = String, Path, description = "package name"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "`{ok: true}` (also when it was not withdrawn)", body = OkResponse),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn restore_release(
    state: &AppState,
    user: &User,
    name: &str,
    version: &str,
) -> AppResult<Response> {
    lifecycle::restore_release(&*state.store, user, name, version).await?;
    Ok(ok())
}

/// A package publish form (described for clients; the parts are read as they stream in).
#[derive(Debug, Clone, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct MultipartPackagePublish {
    /// A [`publish::PublishPayload`] as JSON text (UTF-8).
    #[schema(value_type = publish::PublishPayload)]
    pub payload: String,
    /// An `npm pack` tarball (filename ending in `.tgz`), or the storage id of one staged
    /// through `POST /api/cli/upload-url` (then with `clawpackUploadTicket`).
    #[schema(value_type = Option<String>, format = Binary)]
    pub clawpack: Option<Vec<u8>>,
    /// The ticket of a staged clawpack.
    pub clawpack_upload_ticket: Option<String>,
    /// Instead of a clawpack: one part per file, its filename the relative path.
    #[schema(value_type = Option<Vec<String>>, format = Binary)]
    pub files: Option<Vec<Vec<u8>>>,
}

/// Gives a package to another publisher at once.
#[utoipa::path(post, path = "/api/v1/packages/{name}/transfer", tag = "packages",
    params(("name" = String, Path, description = "package name")),
    request_body(content = TransferRequest, content_type = "application/json"),
    responses((status = 200, description = "the package, now with its new owner", body = views::PackageTransferred),
              (status = 400, description = "unknown recipient, or a scoped name that cannot leave its scope", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Package not found`", body = String, content_type = "text/plain")))]
pub async fn transfer_package(
    state: &AppState,
    user: &User,
    name: &str,
    body: &[u8],
) -> AppResult<Response> {
    let request: TransferRequest = serde_json::from_slice(body)
        .map_err(|error| AppError::BadRequest(format!("Invalid transfer request: {error}")))?;
    let moved = lifecycle::transfer(&*state.store, user, name, &request).await?;
    Ok(json_ok(views::PackageTransferred {
        ok: true,
        package_id: moved.package.id.to_string(),
        name: moved.package.name,
        owner_user_id: moved.recipient.id.to_string(),
        is_official: moved.package.channel == "official",
        channel: moved.package.channel,
    }))
}

/// The JSON object of install fields, for the npm surface.
pub(crate) fn install_fields(release: &ReleaseRow) -> Option<Map<String, Value>> {
    release
        .install_fields_json
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
}

// ---------------------------------------------------------------- export

/// Largest export page.
const MAX_EXPORT_LIMIT: i64 = 250;

/// A page of public plugins (latest release files) as a ZIP, newest `updatedAt` first.
#[utoipa::path(get, path = "/api/v1/plugins/export", tag = "packages",
    params(("startDate" = i64, Query, description = "inclusive lower bound of `updatedAt`, Unix ms"),
           ("endDate" = i64, Query, description = "inclusive upper bound of `updatedAt`, Unix ms"),
           ("limit" = Option<i64>, Query, description = "plugins per page, 1-250 (default 250)"),
           ("cursor" = Option<String>, Query, description = "`X-Next-Cursor` of the previous page"),
           ("family" = Option<String>, Query, description = "`code-plugin` or `bundle-plugin`; both when absent")),
    responses((status = 200, description = "ZIP with `<family>/<name>/<path>`, `__clawhub_export/<family>/<name>/plugin_meta.json`, `_manifest.json` and `_errors.json`; headers `X-Next-Cursor`, `X-Has-More`, `X-Total-Returned`, `X-Date-Range`, `X-Export-Errors`", content_type = "application/zip"),
              (status = 400, description = "missing or invalid dates, limit, cursor or family", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 429, description = "over the export rate limit (10/min per IP, 60/min per user)", body = String, content_type = "text/plain")))]
pub async fn export_plugins(
    State(state): State<AppState>,
    RequireUser(_user): RequireUser,
    params: Params,
) -> AppResult<Response> {
    let date = |name: &str| params.text(name).map(str::parse::<i64>);
    let (start, end) = match (date("startDate"), date("endDate")) {
        (Some(Ok(start)), Some(Ok(end))) => (start, end),
        _ => {
            return Err(AppError::bad_request(
                "startDate and endDate query parameters are required (Unix milliseconds)",
            ));
        }
    };
    if start > end {
        return Err(AppError::bad_request("startDate must be <= endDate"));
    }
    let limit = match params.text("limit").map(str::parse::<i64>) {
        None => MAX_EXPORT_LIMIT,
        Some(Ok(limit)) if limit > MAX_EXPORT_LIMIT => {
            return Err(AppError::bad_request("limit must be <= 250"));
        }
        Some(Ok(limit)) if limit >= 1 => limit,
        Some(_) => return Err(AppError::bad_request("Invalid limit query parameter")),
    };
    let family = match params.text("family") {
        None => None,
        Some(family @ ("code-plugin" | "bundle-plugin")) => Some(family.to_owned()),
        Some(_) => {
            return Err(AppError::bad_request(
                "family must be code-plugin or bundle-plugin",
            ));
        }
    };
    let after = match params.text("cursor") {
        None => None,
        Some(cursor) => Some(
            cursor
                .split_once('.')
                .and_then(|(updated, id)| {
                    Some((updated.parse::<i64>().ok()?, id.parse::<i64>().ok()?))
                })
                .ok_or_else(|| AppError::bad_request("Invalid cursor format"))?,
        ),
    };
    let mut rows = state
        .store
        .export_plugins(start, end, family.as_deref(), after, limit)
        .await?;
    let has_more = rows.len() > usize::try_from(limit).unwrap_or(usize::MAX);
    rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    let next_cursor = if has_more {
        rows.last()
            .map(|last| format!("{}.{}", last.updated_at, last.id))
            .unwrap_or_default()
    } else {
        String::new()
    };
    let mut plugins = Vec::new();
    let mut manifest = Vec::new();
    let mut errors = Vec::new();
    let mut total_files = 0usize;
    let mut total_bytes = 0u64;
    for package in &rows {
        match export_one(&state, package).await {
            Ok((plugin, release)) => {
                let bytes: u64 = plugin.files.iter().map(|(_, b)| b.len() as u64).sum();
                if total_files + plugin.files.len() > crate::packages::export::MAX_EXPORT_FILES
                    || total_bytes + bytes > crate::packages::export::MAX_EXPORT_BYTES
                {
                    errors.push(json!({"package": package.name, "error": "export page file or byte cap reached"}));
                    continue;
                }
                total_files += plugin.files.len();
                total_bytes += bytes;
                manifest.push(json!({
                    "publisher": package.owner_handle,
                    "slug": package.name.rsplit('/').next().unwrap_or(&package.name),
                    "packageName": package.name,
                    "family": package.family,
                    "version": release.version,
                    "displayName": package.display_name,
                    "createdAt": package.created_at,
                    "updatedAt": package.updated_at,
                    "stats": {"downloads": package.downloads, "installs": package.installs, "stars": 0, "versions": package.versions_count},
                    "fileCount": plugin.files.len(),
                    "latestReleaseId": release.id.to_string(),
                    "artifactKind": "npm-pack",
                }));
                plugins.push(plugin);
            }
            Err(message) => errors.push(json!({"package": package.name, "error": message})),
        }
    }
    let archive = tokio::task::spawn_blocking(move || {
        crate::packages::export::build_archive(&plugins, &Value::Array(manifest), &errors)
            .map(|bytes| (bytes, errors.len()))
    })
    .await
    .map_err(|error| AppError::Internal(anyhow::anyhow!("export task failed: {error}")))?
    .map_err(AppError::Internal)?;
    let (bytes, error_count) = archive;
    let family_label = family.as_deref().unwrap_or("all");
    let file_name = if rows.is_empty() {
        format!("plugins-export-{family_label}-{start}-{end}-empty.zip")
    } else {
        format!("plugins-export-{family_label}-{start}-{end}.zip")
    };
    let mut response = Bytes::from(bytes).into_response();
    let headers = response.headers_mut();
    let values = [
        (header::CONTENT_TYPE.as_str(), "application/zip".to_owned()),
        (
            header::CONTENT_DISPOSITION.as_str(),
            format!("attachment; filename=\"{file_name}\""),
        ),
        ("x-next-cursor", next_cursor),
        ("x-has-more", has_more.to_string()),
        ("x-total-returned", rows.len().to_string()),
        ("x-date-range", format!("{start}-{end}")),
        ("x-export-errors", error_count.to_string()),
        (header::CACHE_CONTROL.as_str(), "no-store".to_owned()),
    ];
    for (name, value) in values {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    Ok(response)
}

/// The latest release of one plugin, unpacked, with its `plugin_meta.json`.
async fn export_one(
    state: &AppState,
    package: &PackageRow,
) -> Result<(crate::packages::export::ExportedPlugin, ReleaseRow), String> {
    let version = package
        .latest_version
        .as_deref()
        .ok_or("no latest release")?;
    let release = state
        .store
        .find_release(package.id, version)
        .await
        .map_err(|error| format!("database: {error}"))?
        .ok_or("latest release missing")?;
    if release.scan_status == "malicious" {
        return Err("latest release is blocked as malicious".to_owned());
    }
    let bytes = state
        .storage
        .get(&release.artifact_sha256)
        .await
        .map_err(|error| format!("storage: {error:#}"))?
        .ok_or("artifact blob missing")?;
    let unpacked =
        crate::packages::tarball::read(&bytes, &state.config.upload_limits.tarball_limits())
            .map_err(|error| error.to_string())?;
    let meta = json!({
        "name": package.name,
        "displayName": package.display_name,
        "family": package.family,
        "version": release.version,
        "latestReleaseId": release.id.to_string(),
        "artifactKind": "npm-pack",
        "createdAt": package.created_at,
        "updatedAt": package.updated_at,
        "stats": {"downloads": package.downloads, "installs": package.installs, "stars": 0, "versions": package.versions_count},
        "owner": {"handle": package.owner_handle, "displayName": package.owner_display_name},
    });
    let plugin = crate::packages::export::ExportedPlugin {
        family: package.family.clone(),
        name: package.name.clone(),
        files: unpacked
            .files
            .into_iter()
            .map(|file| (file.path, file.bytes))
            .collect(),
        meta,
    };
    Ok((plugin, release))
}

/// The OpenAPI description of the package routes, which the catch-all above serves (so
/// they cannot be documented by the router itself).
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    publish_package,
    list_packages,
    search_packages,
    get_package,
    list_versions,
    get_version,
    get_artifact,
    get_security,
    download_artifact,
    download_by_tag,
    delete_package,
    undelete_package,
    withdraw_release,
    restore_release,
    transfer_package,
    export_plugins,
    crate::routes::npm::packument,
    crate::routes::npm::tarball,
))]
pub struct PackagesApi;
