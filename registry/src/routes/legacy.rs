//! The legacy surface: `/api/*` and `/api/cli/*` routes that released `clawhub` CLIs still
//! call (deprecated by the reference registry on 2026-01-07, still served). Most are the
//! v1 handlers mounted at their old paths; the few with their own shape live here.
//! `docs/deprecations.md` lists every route with its v1 equivalent.
//!
//! Rate-limit classes as in v1: GET is read, other methods write, `/api/download` is
//! download.

use axum::Router;
use axum::extract::State;
use axum::middleware;
use axum::response::Response;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::error::{AppError, AppResult};
use crate::extract::{AppBytes, AppJson, Params, parse_json};
use crate::rate_limit;
use crate::routes::{json_ok, package_uploads, packages, publish, skills, views};
use crate::skills::{Visibility, lifecycle};

/// The legacy routes with handlers of their own, for the OpenAPI document (every one
/// marked deprecated there; see [`ALIASES`] for the rest).
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    whoami,
    get_skill,
    install_telemetry,
    delete_skill,
    undelete_skill,
    package_uploads::create_upload_url,
    package_uploads::upload_clawpack
))]
pub struct LegacyApi;

/// Legacy paths served by a v1 handler: (legacy path, v1 path, methods). The OpenAPI
/// document describes each as a deprecated copy of its v1 operation.
pub const ALIASES: [(&str, &str, &[&str]); 5] = [
    ("/api/search", "/api/v1/search", &["get"]),
    ("/api/download", "/api/v1/download", &["get"]),
    ("/api/skill/resolve", "/api/v1/resolve", &["get"]),
    ("/api/cli/publish", "/api/v1/skills", &["post"]),
    ("/api/v1/skills/resolve", "/api/v1/resolve", &["get"]),
];

/// Legacy routes, with the same rate-limit classes as their v1 equivalents.
pub fn routes() -> Router<AppState> {
    let downloads = Router::new()
        .route("/api/download", get(skills::download_skill))
        .route_layer(middleware::from_fn(rate_limit::downloads));
    Router::new()
        .route("/api/search", get(skills::search_skills))
        .route("/api/skill", get(get_skill))
        .route("/api/skill/resolve", get(skills::resolve_skill))
        .route("/api/cli/whoami", get(whoami))
        .route(
            "/api/cli/upload-url",
            post(package_uploads::create_upload_url),
        )
        .route(
            "/api/cli/upload/{ticket}",
            post(package_uploads::upload_clawpack),
        )
        .route("/api/cli/publish", post(publish::publish_skill))
        .route("/api/cli/telemetry/install", post(install_telemetry))
        .route("/api/cli/skill/delete", post(delete_skill))
        .route("/api/cli/skill/undelete", post(undelete_skill))
        .route_layer(middleware::from_fn(rate_limit::by_method))
        .merge(downloads)
}

/// A user in the legacy shape (no `role`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegacyUser {
    /// Handle.
    pub handle: Option<String>,
    /// Display name.
    pub display_name: Option<String>,
    /// Avatar URL.
    pub image: Option<String>,
}

/// `GET /api/cli/whoami`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LegacyWhoami {
    /// The caller.
    pub user: LegacyUser,
}

/// The caller, in the legacy shape.
#[utoipa::path(get, path = "/api/cli/whoami", tag = "legacy",
    responses((status = 200, description = "the caller", body = LegacyWhoami)))]
pub async fn whoami(RequireUser(user): RequireUser) -> AppResult<Response> {
    respond(&LegacyWhoami {
        user: LegacyUser {
            handle: Some(user.handle.clone()),
            display_name: user.display_name.clone(),
            image: user.image.clone(),
        },
    })
}

fn respond(body: &impl Serialize) -> AppResult<Response> {
    Ok(json_ok(body))
}

/// The skill of `GET /api/skill`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegacySkill {
    /// Canonical slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
    /// Summary.
    pub summary: Option<String>,
    /// Tag → version **id**, as the legacy route always answered (v1 maps tags to version
    /// strings).
    #[schema(value_type = Object)]
    pub tags: serde_json::Map<String, Value>,
    /// Counters.
    pub stats: views::SkillStats,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms.
    pub updated_at: i64,
}

/// `GET /api/skill?slug=`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegacySkillResponse {
    /// The skill.
    pub skill: LegacySkill,
    /// The newest version, or null.
    pub latest_version: Option<views::LatestVersion>,
    /// The owner.
    pub owner: LegacyUser,
}

/// One skill, in the legacy shape (tags map to version ids).
#[utoipa::path(get, path = "/api/skill", tag = "legacy",
    params(("slug" = String, Query, description = "skill slug"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    responses((status = 200, description = "the skill", body = LegacySkillResponse),
              (status = 400, description = "`Missing slug`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn get_skill(State(state): State<AppState>, params: Params) -> AppResult<Response> {
    let slug = params
        .text("slug")
        .ok_or_else(|| AppError::bad_request("Missing slug"))?;
    let detail = skills::find_any_skill(&state, slug, params.owner().as_deref()).await?;
    let row = &detail.skill;
    if !Visibility::of(row).is_listed() {
        return Err(AppError::not_found("Skill not found"));
    }
    let mut tags = serde_json::Map::new();
    for (tag, version) in views::tags(row) {
        let Some(version) = version.as_str() else {
            continue;
        };
        if let Some(found) = state.store.find_version(row.id, version).await? {
            tags.insert(tag, Value::String(found.id.to_string()));
        }
    }
    respond(&LegacySkillResponse {
        skill: LegacySkill {
            slug: row.slug.clone(),
            display_name: row.display_name.clone(),
            summary: row.summary.clone(),
            tags,
            stats: views::stats(row),
            created_at: row.created_at,
            updated_at: row.updated_at,
        },
        latest_version: views::latest_version(row),
        owner: LegacyUser {
            handle: Some(row.owner_handle.clone()),
            display_name: row.owner_display_name.clone(),
            image: row.owner_image.clone(),
        },
    })
}

/// One skill of a legacy install report.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ReportedSkill {
    /// Slug.
    pub slug: Option<String>,
    /// Installed version.
    pub version: Option<String>,
}

/// One root of a legacy install report.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ReportedRoot {
    /// The skills found under it.
    #[serde(default)]
    pub skills: Vec<ReportedSkill>,
}

/// Body of `POST /api/cli/telemetry/install`: one install
/// (`{event: "install", slug, ownerHandle?, version?}`), a plugin install
/// (`{event: "plugin_install", packageName, version?}`, as openclaw sends), or the older
/// `{roots: [{skills: [{slug, version?}]}]}`. Unknown keys are ignored.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallReport {
    /// `install` or `plugin_install`.
    pub event: Option<String>,
    /// The installed skill.
    pub slug: Option<String>,
    /// Its owner.
    pub owner_handle: Option<String>,
    /// The installed version.
    pub version: Option<String>,
    /// The installed package (`plugin_install`).
    pub package_name: Option<String>,
    /// The older report of everything installed.
    #[serde(default)]
    pub roots: Vec<ReportedRoot>,
}

/// `{ok: true}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OkResponse {
    /// Always true.
    pub ok: bool,
}

/// Most skills one report may count.
const MAX_REPORTED_SKILLS: usize = 200;

/// Counts an install reported by the CLI after `clawhub install`.
#[utoipa::path(post, path = "/api/cli/telemetry/install", tag = "legacy",
    request_body(content = InstallReport, content_type = "application/json"),
    responses((status = 200, description = "counted (unknown or hidden skills count nowhere)", body = OkResponse)))]
pub async fn install_telemetry(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppJson(body): AppJson<InstallReport>,
) -> AppResult<Response> {
    let now = chrono::Utc::now().timestamp_millis();
    let mut installs: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    // A plugin install names a package, not a skill: it counts for the package the caller
    // could read (a deleted or someone else's private one counts nowhere).
    if body.event.as_deref() == Some("plugin_install") {
        if let Some(name) = body.package_name.as_deref() {
            match packages::readable_package(&state, name.trim(), Some(&user)).await {
                Ok(package) => state.store.record_package_install(package.id).await?,
                Err(AppError::NotFound(_) | AppError::BadRequest(_)) => {}
                Err(error) => return Err(error),
            }
        }
    } else if let Some(slug) = body.slug {
        let owner = body
            .owner_handle
            .map(|h| h.trim_start_matches('@').to_ascii_lowercase());
        installs.push((slug, owner, body.version));
    }
    for root in body.roots {
        for skill in root.skills {
            if let Some(slug) = skill.slug {
                installs.push((slug, None, skill.version));
            }
        }
    }
    for (slug, owner, version) in installs.into_iter().take(MAX_REPORTED_SKILLS) {
        match skills::find_any_skill(&state, &slug, owner.as_deref()).await {
            Ok(detail) if !Visibility::of(&detail.skill).is_removed() => {
                state
                    .store
                    .record_install(detail.skill.id, Some(user.id), version.as_deref(), now)
                    .await?;
            }
            Ok(_) | Err(AppError::NotFound(_)) => {}
            Err(error) => return Err(error),
        }
    }
    respond(&OkResponse { ok: true })
}

/// Body of `POST /api/cli/skill/delete` and `/undelete`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegacyDeleteRequest {
    /// The skill.
    pub slug: Option<String>,
    /// Why (the moderation note of a delete).
    pub reason: Option<String>,
    /// Owner qualifier of the slug.
    pub owner_handle: Option<String>,
    /// Refused: the legacy routes act on whole skills only.
    #[schema(value_type = Option<String>)]
    pub version: Option<Value>,
}

async fn legacy_skill(
    state: &AppState,
    body: &[u8],
) -> AppResult<(LegacyDeleteRequest, crate::db::SkillRow)> {
    let request: LegacyDeleteRequest = parse_json(body)?;
    if request.version.is_some() {
        return Err(AppError::bad_request(
            "Legacy skill delete does not support versions; use the version-scoped v1 endpoint.",
        ));
    }
    let slug = request
        .slug
        .as_deref()
        .map(str::trim)
        .filter(|slug| !slug.is_empty())
        .ok_or_else(|| AppError::bad_request("Missing slug"))?;
    let owner = request
        .owner_handle
        .as_deref()
        .map(|handle| handle.trim().trim_start_matches('@').to_ascii_lowercase())
        .filter(|handle| !handle.is_empty());
    let skill = skills::find_any_skill(state, slug, owner.as_deref())
        .await?
        .skill;
    Ok((request, skill))
}

/// Soft-deletes a skill with the same rules as `DELETE /api/v1/skills/{slug}`.
#[utoipa::path(post, path = "/api/cli/skill/delete", tag = "legacy",
    request_body(content = LegacyDeleteRequest, content_type = "application/json"),
    responses((status = 200, description = "deleted", body = OkResponse),
              (status = 400, description = "`Missing slug`, or a version given", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn delete_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let (request, skill) = legacy_skill(&state, &body).await?;
    lifecycle::delete(state.store.as_ref(), &user, &skill, request.reason).await?;
    respond(&OkResponse { ok: true })
}

/// Restores a skill with the same rules as `POST /api/v1/skills/{slug}/undelete`.
#[utoipa::path(post, path = "/api/cli/skill/undelete", tag = "legacy",
    request_body(content = LegacyDeleteRequest, content_type = "application/json"),
    responses((status = 200, description = "restored", body = OkResponse),
              (status = 400, description = "`Missing slug`, or a version given", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn undelete_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let (_, skill) = legacy_skill(&state, &body).await?;
    lifecycle::undelete(state.store.as_ref(), &user, &skill).await?;
    respond(&OkResponse { ok: true })
}
