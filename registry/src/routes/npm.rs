//! The npm compatibility surface under `/api/npm/`: the packument of a package
//! (`GET /api/npm/{package}`, full or abbreviated by `Accept`) and its tarballs
//! (`GET /api/npm/{package}/-/{file}.tgz`), with ETags and `If-None-Match` → 304.
//!
//! Errors here are JSON `{"error": "…"}`, the shape npm prints after the status line
//! (`npm error 404 Not Found - GET <url> - <error>`), not the v1 plain text. Only public,
//! not deleted packages appear, and only releases with a `package.json` (npm cannot
//! install anything else) that are not blocked by the security scan.
//!
//! Both routes avoid the database where they can: on SQLite (one writer, this process)
//! packument bodies live in the response cache and resolved tarball requests in the
//! artifact cache until the next write, tarball bytes are cached by SHA-256, and download
//! counts are gathered in memory and written at most once a second.

use std::collections::BTreeMap;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use crate::app::AppState;
use crate::auth::MaybeUser;
use crate::db::User;
use crate::db::package_store::{PackageRow, ReleaseRow};
use crate::error::AppError;
use crate::packages::name::{PackageName, split_name_path};
use crate::packages::packument::{ABBREVIATED_MEDIA_TYPE, Packument, VersionEntry};
use crate::packages::serving::ResolvedArtifact;
use crate::policy::{self, PackageAction};
use crate::routes::base_url;
use crate::routes::packages::{ServedArtifact, artifact_response, install_fields};

const MALICIOUS_BLOCK: &str =
    "Blocked: this package release has been flagged as malicious and cannot be downloaded.";

/// An error in the form npm prints.
#[derive(Debug)]
pub struct NpmError {
    status: StatusCode,
    message: String,
}

impl NpmError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
}

impl From<AppError> for NpmError {
    fn from(error: AppError) -> Self {
        let status = error.status();
        // Let the v1 envelope log internal errors; npm gets the same fixed text.
        let message = match error {
            AppError::Internal(_) | AppError::Db(_) => {
                drop(error.into_response());
                "Internal Server Error".to_owned()
            }
            other => other.to_string(),
        };
        Self::new(status, message)
    }
}

impl From<crate::error::DbError> for NpmError {
    fn from(error: crate::error::DbError) -> Self {
        AppError::Db(error).into()
    }
}

impl IntoResponse for NpmError {
    fn into_response(self) -> Response {
        let mut response =
            (self.status, axum::Json(json!({ "error": self.message }))).into_response();
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

type NpmResult<T> = Result<T, NpmError>;

/// The npm surface's routes.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/npm/{*rest}", get(npm_get))
}

async fn npm_get(
    State(state): State<AppState>,
    MaybeUser(caller): MaybeUser,
    headers: HeaderMap,
    request: Request,
) -> NpmResult<Response> {
    let rest = request
        .uri()
        .path()
        .strip_prefix("/api/npm/")
        .unwrap_or_default();
    let (name, segments) = split_name_path(rest).ok_or_else(|| NpmError::not_found("Not found"))?;
    match segments.as_slice() {
        [] => packument(&state, &name, caller.as_deref(), &headers).await,
        [dash, file] if dash == "-" && file.ends_with(".tgz") => {
            tarball(&state, &name, file, caller.as_deref(), &headers).await
        }
        _ => Err(NpmError::not_found("Not found")),
    }
}

/// A package npm may see: public and not deleted (private ones only for who manages them).
async fn npm_package(state: &AppState, name: &str, caller: Option<&User>) -> NpmResult<PackageRow> {
    let package = state
        .store
        .find_package(name)
        .await?
        .ok_or_else(|| NpmError::not_found("Package not found"))?;
    let private_hidden = package.channel == "private"
        && !policy::may_package(caller, PackageAction::ReadPrivate, package.owner_id);
    if package.deleted_at.is_some() || private_hidden {
        return Err(NpmError::not_found("Package not found"));
    }
    Ok(package)
}

fn installable(release: &ReleaseRow) -> bool {
    release.install_fields_json.is_some() && release.scan_status != "malicious"
}

/// The packument of a package (abbreviated with `Accept: application/vnd.npm.install-v1+json`).
#[utoipa::path(get, path = "/api/npm/{package}", tag = "npm",
    params(("package" = String, Path, description = "package name; scoped as `@scope/name` or `@scope%2Fname`")),
    responses((status = 200, description = "packument `{name, dist-tags, versions: {v: {name, version, dependencies, dist: {tarball, integrity, shasum}}}, time}`", content_type = "application/json"),
              (status = 304, description = "`If-None-Match` matched the ETag"),
              (status = 404, description = "`{\"error\": \"Package not found\"}`", content_type = "application/json")))]
pub async fn packument(
    state: &AppState,
    name: &str,
    caller: Option<&User>,
    headers: &HeaderMap,
) -> NpmResult<Response> {
    let abbreviated = headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.contains(ABBREVIATED_MEDIA_TYPE));
    let base = base_url(state, headers);
    // Private packages differ by caller, so only anonymous bodies are shared.
    let cache_key = caller
        .is_none()
        .then(|| format!("npm:{abbreviated}:{base}:{name}"));
    let body = match cache_key
        .as_deref()
        .and_then(|key| state.responses.get(key))
    {
        Some(body) => body,
        None => {
            let generation = state.responses.generation();
            let body = build_packument(state, name, caller, &base, abbreviated).await?;
            if let Some(key) = cache_key {
                state.responses.put(key, generation, body.clone());
            }
            body
        }
    };
    let etag = format!(
        "\"{}\"",
        &crate::packages::integrity::sha256_hex(&body)[..32]
    );
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|tag| tag.trim() == etag));
    let mut response = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let response_headers = response.headers_mut();
    let content_type = if abbreviated {
        ABBREVIATED_MEDIA_TYPE
    } else {
        "application/json"
    };
    response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        response_headers.insert(header::ETAG, value);
    }
    response_headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    response_headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=60"),
    );
    Ok(response)
}

async fn build_packument(
    state: &AppState,
    name: &str,
    caller: Option<&User>,
    base: &str,
    abbreviated: bool,
) -> NpmResult<Bytes> {
    let package = npm_package(state, name, caller).await?;
    let releases = state.store.list_releases(package.id).await?;
    let path = PackageName::parse(&package.name)
        .map(|name| name.url_path())
        .unwrap_or_else(|_| package.name.clone());
    let versions: Vec<VersionEntry> = releases
        .iter()
        .filter(|release| installable(release))
        .map(|release| VersionEntry {
            version: release.version.clone(),
            install_fields: install_fields(release).unwrap_or_default(),
            tarball_url: format!("{base}/api/npm/{path}/-/{}", release.tarball_name),
            integrity: release.integrity.clone(),
            shasum: release.shasum.clone(),
            file_count: u64::try_from(release.file_count).unwrap_or(0),
            unpacked_size: u64::try_from(release.unpacked_size).unwrap_or(0),
            published_at: release.created_at,
            has_install_script: release.has_install_script,
        })
        .collect();
    let dist_tags: BTreeMap<String, String> =
        serde_json::from_str(&package.tags_json).unwrap_or_default();
    let document = Packument {
        name: package.name.clone(),
        description: package.summary.clone(),
        dist_tags,
        created_at: package.created_at,
        modified_at: package.updated_at,
        versions,
    };
    let value = if abbreviated {
        document.abbreviated()
    } else {
        document.full()
    };
    serde_json::to_vec(&value)
        .map(Bytes::from)
        .map_err(|error| AppError::Internal(error.into()).into())
}

/// A tarball, resolved without the database when the artifact cache has it.
#[utoipa::path(get, path = "/api/npm/{package}/-/{tarball}", tag = "npm",
    params(("package" = String, Path, description = "package name"), ("tarball" = String, Path, description = "`<name>-<version>.tgz` as the packument's `dist.tarball` names it")),
    responses((status = 200, description = "the tarball bytes; `ETag: \"sha256:<hex>\"`", content_type = "application/octet-stream"),
              (status = 304, description = "`If-None-Match` matched the ETag"),
              (status = 403, description = "the release is blocked", content_type = "application/json"),
              (status = 404, description = "`{\"error\": \"ClawPack artifact not found\"}`", content_type = "application/json")))]
pub async fn tarball(
    state: &AppState,
    name: &str,
    file: &str,
    caller: Option<&User>,
    headers: &HeaderMap,
) -> NpmResult<Response> {
    let key = format!("{name}/-/{file}");
    let generation = state.responses.generation();
    let cacheable = caller.is_none() && state.store.backend() == crate::db::Backend::Sqlite;
    let resolved = match cacheable
        .then(|| state.artifacts.resolved(&key, generation))
        .flatten()
    {
        Some(resolved) => resolved,
        None => {
            let package = npm_package(state, name, caller).await?;
            let release = state
                .store
                .find_release_by_tarball(package.id, file)
                .await?
                .filter(|release| release.install_fields_json.is_some())
                .ok_or_else(|| NpmError::not_found("ClawPack artifact not found"))?;
            let resolved = ResolvedArtifact {
                generation,
                package_id: package.id,
                tarball_name: release.tarball_name.clone(),
                sha256: release.artifact_sha256.clone(),
                integrity: release.integrity.clone(),
                shasum: release.shasum.clone(),
                size: u64::try_from(release.artifact_size).unwrap_or(0),
                blocked: (release.scan_status == "malicious").then_some(MALICIOUS_BLOCK),
            };
            if cacheable {
                state.artifacts.remember_resolved(key, resolved.clone());
            }
            resolved
        }
    };
    if let Some(message) = resolved.blocked {
        return Err(NpmError::new(StatusCode::FORBIDDEN, message));
    }
    let served = ServedArtifact {
        package_id: resolved.package_id,
        tarball_name: resolved.tarball_name,
        sha256: resolved.sha256,
        integrity: resolved.integrity,
        shasum: resolved.shasum,
        size: resolved.size,
    };
    Ok(artifact_response(state, &served, headers).await?)
}
