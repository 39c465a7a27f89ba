//! The lifecycle writes of a skill, in the shapes `clawhub` 0.23.3 sends and reads:
//! `DELETE /api/v1/skills/{slug}` (soft delete; `?hard=true` is an administrator's
//! permanent delete), `POST …/undelete`, `DELETE …/versions/{version}` and
//! `POST …/versions/{version}/restore`, `POST …/rename`, `POST …/merge`. Bodies are
//! optional JSON (the CLI sends none on a bare delete); the rules live in
//! [`crate::skills::lifecycle`]. Every slug is looked up live slug first, then alias, and
//! whatever the skill's state.

use axum::extract::State;
use axum::response::Response;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::db::SkillRow;
use crate::error::{AppError, AppResult};
use crate::extract::{AppBytes, AppPath, Params, optional_body, owner_of};
use crate::routes::json_ok;
use crate::routes::skills::find_any_skill;
use crate::skills::lifecycle;

/// An optional JSON body; the lifecycle routes answer the reference's bare `Invalid JSON`.
fn optional_json<T: DeserializeOwned + Default>(bytes: &[u8]) -> AppResult<T> {
    optional_body(bytes).map_err(|_| AppError::bad_request("Invalid JSON"))
}

async fn find(state: &AppState, slug: &str, owner: Option<&str>) -> AppResult<SkillRow> {
    Ok(find_any_skill(state, slug, owner).await?.skill)
}

/// A skill that is not deleted, or a 404 with `missing`.
async fn find_live(
    state: &AppState,
    slug: &str,
    owner: Option<&str>,
    missing: &str,
) -> AppResult<SkillRow> {
    match find(state, slug, owner).await {
        Ok(skill) if skill.soft_deleted_at.is_none() => Ok(skill),
        Ok(_) | Err(AppError::NotFound(_)) => Err(AppError::not_found(missing)),
        Err(error) => Err(error),
    }
}

/// Body of `DELETE /api/v1/skills/{slug}` and `POST /api/v1/skills/{slug}/undelete`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteSkillRequest {
    /// Why (kept with the skill and in the audit log).
    pub reason: Option<String>,
    /// Owner qualifier of the slug (wins over the query's).
    pub owner_handle: Option<String>,
    /// Refused: single versions have their own route.
    #[schema(value_type = Option<String>)]
    pub version: Option<serde_json::Value>,
}

/// Answer to a soft delete.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteSkillResponse {
    /// Always true.
    pub ok: bool,
    /// Until when the slug stays held for its owner, Unix ms (owner deletes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug_reserved_until: Option<i64>,
}

/// Answer to an administrator's permanent delete.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HardDeleteResponse {
    /// Always true.
    pub ok: bool,
    /// The slug that is now free.
    pub slug: String,
    /// Versions removed.
    pub versions: i64,
    /// File rows removed.
    pub files: i64,
    /// Blobs nothing references any more; left in storage for a collector.
    pub unreferenced_blobs: i64,
}

/// `{ "ok": true }`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OkResponse {
    /// Always true.
    pub ok: bool,
}

/// Soft-deletes a skill (owner, moderator or admin); with `?hard=true`, an administrator
/// removes an already deleted skill for good.
#[utoipa::path(delete, path = "/api/v1/skills/{slug}", tag = "lifecycle",
    params(("slug" = String, Path, description = "skill slug or an alias of it"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier"),
           ("hard" = Option<bool>, Query, description = "administrators: delete a soft-deleted skill permanently")),
    request_body(content = Option<DeleteSkillRequest>, description = "optional; the CLI sends none without a reason", content_type = "application/json"),
    responses((status = 200, description = "soft delete: `{ok, slugReservedUntil?}`", body = DeleteSkillResponse),
              (status = 200, description = "`?hard=true`: what was removed", body = HardDeleteResponse),
              (status = 400, description = "`Invalid JSON`, a `version` in the request, or a hard delete of a live skill", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`, a moderator's hide the owner cannot override, or `Admin role required.`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn delete_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: DeleteSkillRequest = optional_json(&body)?;
    if request.version.is_some() || params.text("version").is_some() {
        return Err(AppError::BadRequest(format!(
            "Version deletion requires DELETE /api/v1/skills/{slug}/versions/<version>."
        )));
    }
    let skill = find(
        &state,
        &slug,
        owner_of(request.owner_handle.as_deref(), &params).as_deref(),
    )
    .await?;
    if params.flag("hard")? {
        let removed = lifecycle::hard_delete(state.store.as_ref(), &user, &skill).await?;
        return Ok(json_ok(&HardDeleteResponse {
            ok: true,
            slug: skill.slug,
            versions: removed.versions,
            files: removed.files,
            unreferenced_blobs: removed.unreferenced_blobs,
        }));
    }
    let deleted = lifecycle::delete(state.store.as_ref(), &user, &skill, request.reason).await?;
    Ok(json_ok(&DeleteSkillResponse {
        ok: true,
        slug_reserved_until: deleted.slug_reserved_until,
    }))
}

/// Restores a soft-deleted skill.
#[utoipa::path(post, path = "/api/v1/skills/{slug}/undelete", tag = "lifecycle",
    params(("slug" = String, Path, description = "skill slug or an alias of it"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    request_body(content = Option<DeleteSkillRequest>, description = "optional, `{}` from the CLI", content_type = "application/json"),
    responses((status = 200, description = "`{ok: true}`", body = OkResponse),
              (status = 400, description = "`Invalid JSON`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`, or a hide or malware block the owner cannot undo", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn undelete_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: DeleteSkillRequest = optional_json(&body)?;
    let skill = find(
        &state,
        &slug,
        owner_of(request.owner_handle.as_deref(), &params).as_deref(),
    )
    .await?;
    lifecycle::undelete(state.store.as_ref(), &user, &skill).await?;
    Ok(json_ok(&OkResponse { ok: true }))
}

/// Path of the single-version routes.
#[derive(Debug, Deserialize)]
pub struct VersionPath {
    slug: String,
    version: String,
}

/// Body of the single-version routes.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionActionRequest {
    /// Must equal the version in the path when given.
    pub version: Option<String>,
    /// Owner qualifier of the slug (wins over the query's).
    pub owner_handle: Option<String>,
}

impl VersionActionRequest {
    fn check(&self, target: &str) -> AppResult<()> {
        match self.version.as_deref().map(str::trim) {
            Some("") => Err(AppError::bad_request("Version cannot be empty")),
            Some(version) if version != target.trim() => Err(AppError::bad_request(
                "Version does not match request target",
            )),
            _ if target.trim().is_empty() => Err(AppError::bad_request("Version cannot be empty")),
            _ => Ok(()),
        }
    }
}

/// Answer to a version restore.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RestoreVersionResponse {
    /// Always true.
    pub ok: bool,
    /// The skill's id.
    pub skill_id: String,
    /// The version's id.
    pub version_id: String,
}

/// Withdraws one version (not the latest): no longer served, its tags dropped, its number
/// never reused.
#[utoipa::path(delete, path = "/api/v1/skills/{slug}/versions/{version}", tag = "lifecycle",
    params(("slug" = String, Path, description = "skill slug or an alias of it"),
           ("version" = String, Path, description = "the version to withdraw"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    request_body(content = Option<VersionActionRequest>, description = "optional `{version, ownerHandle?}`", content_type = "application/json"),
    responses((status = 200, description = "`{ok: true}`", body = OkResponse),
              (status = 400, description = "the latest version, a mismatched or empty `version`, `Invalid JSON`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn delete_version(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(path): AppPath<VersionPath>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: VersionActionRequest = optional_json(&body)?;
    request.check(&path.version)?;
    let skill = find(
        &state,
        &path.slug,
        owner_of(request.owner_handle.as_deref(), &params).as_deref(),
    )
    .await?;
    lifecycle::withdraw_version(state.store.as_ref(), &user, &skill, &path.version).await?;
    Ok(json_ok(&OkResponse { ok: true }))
}

/// Restores a withdrawn version (not its tags, not `latest`).
#[utoipa::path(post, path = "/api/v1/skills/{slug}/versions/{version}/restore", tag = "lifecycle",
    params(("slug" = String, Path, description = "skill slug or an alias of it"),
           ("version" = String, Path, description = "the version to restore"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    request_body(content = Option<VersionActionRequest>, description = "optional `{version, ownerHandle?}`", content_type = "application/json"),
    responses((status = 200, description = "`{ok, skillId, versionId}`", body = RestoreVersionResponse),
              (status = 400, description = "a mismatched or empty `version`, `Invalid JSON`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden` (also an owner restoring a moderator's withdrawal)", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn restore_version(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(path): AppPath<VersionPath>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: VersionActionRequest = optional_json(&body)?;
    request.check(&path.version)?;
    let skill = find(
        &state,
        &path.slug,
        owner_of(request.owner_handle.as_deref(), &params).as_deref(),
    )
    .await?;
    let restored =
        lifecycle::restore_version(state.store.as_ref(), &user, &skill, &path.version).await?;
    Ok(json_ok(&RestoreVersionResponse {
        ok: true,
        skill_id: restored.skill_id.to_string(),
        version_id: restored.version_id.to_string(),
    }))
}

/// Body of `POST /api/v1/skills/{slug}/rename`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameRequest {
    /// The new slug.
    pub new_slug: Option<String>,
    /// Owner qualifier of the slug (wins over the query's).
    pub owner_handle: Option<String>,
}

/// Answer to a rename.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameResponse {
    /// Always true.
    pub ok: bool,
    /// The new canonical slug.
    pub slug: String,
    /// The old slug, now an alias.
    pub previous_slug: String,
}

/// Gives a skill a new slug; the old slug keeps leading to it.
#[utoipa::path(post, path = "/api/v1/skills/{slug}/rename", tag = "lifecycle",
    params(("slug" = String, Path, description = "skill slug or an alias of it"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    request_body(content = RenameRequest, content_type = "application/json"),
    responses((status = 200, description = "`{ok, slug, previousSlug}`", body = RenameResponse),
              (status = 400, description = "`newSlug required`, an invalid slug, or a slug taken, redirecting or yours (`Use merge instead.`)", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found` (also for a deleted skill)", body = String, content_type = "text/plain")))]
pub async fn rename_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: RenameRequest = optional_json(&body)?;
    let new_slug = request
        .new_slug
        .as_deref()
        .map(str::trim)
        .filter(|slug| !slug.is_empty())
        .ok_or_else(|| AppError::bad_request("newSlug required"))?;
    let skill = find(
        &state,
        &slug,
        owner_of(request.owner_handle.as_deref(), &params).as_deref(),
    )
    .await?;
    let renamed = lifecycle::rename(state.store.as_ref(), &user, &skill, new_slug).await?;
    Ok(json_ok(&RenameResponse {
        ok: true,
        slug: renamed.slug,
        previous_slug: renamed.previous_slug,
    }))
}

/// Body of `POST /api/v1/skills/{slug}/merge`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MergeRequest {
    /// The canonical skill to fold this one into.
    pub target_slug: Option<String>,
    /// Owner qualifier of the source (default for `sourceOwnerHandle`).
    pub owner_handle: Option<String>,
    /// Owner qualifier of the source.
    pub source_owner_handle: Option<String>,
    /// Owner qualifier of the target.
    pub target_owner_handle: Option<String>,
}

/// Answer to a merge.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MergeResponse {
    /// Always true.
    pub ok: bool,
    /// The duplicate, now an alias of the target.
    pub source_slug: String,
    /// The canonical skill.
    pub target_slug: String,
}

/// Folds a duplicate skill into a canonical one; its slug becomes an alias of the target.
#[utoipa::path(post, path = "/api/v1/skills/{slug}/merge", tag = "lifecycle",
    params(("slug" = String, Path, description = "the duplicate (source) skill"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier of the source")),
    request_body(content = MergeRequest, content_type = "application/json"),
    responses((status = 200, description = "`{ok, sourceSlug, targetSlug}`", body = MergeResponse),
              (status = 400, description = "`targetSlug required`, the same skill twice, or a target that is itself merged", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden` (the caller must manage both skills)", body = String, content_type = "text/plain"),
              (status = 404, description = "`Source skill not found` or `Target skill not found`", body = String, content_type = "text/plain")))]
pub async fn merge_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: MergeRequest = optional_json(&body)?;
    let target_slug = request
        .target_slug
        .as_deref()
        .map(str::trim)
        .filter(|slug| !slug.is_empty())
        .ok_or_else(|| AppError::bad_request("targetSlug required"))?;
    let source_owner = owner_of(
        request
            .source_owner_handle
            .as_deref()
            .or(request.owner_handle.as_deref()),
        &params,
    );
    let target_owner = owner_of(request.target_owner_handle.as_deref(), &Params::default());
    let source = find_live(
        &state,
        &slug,
        source_owner.as_deref(),
        "Source skill not found",
    )
    .await?;
    let target = find_live(
        &state,
        target_slug,
        target_owner.as_deref(),
        "Target skill not found",
    )
    .await?;
    lifecycle::merge(state.store.as_ref(), &user, &source, &target).await?;
    Ok(json_ok(&MergeResponse {
        ok: true,
        source_slug: source.slug,
        target_slug: target.slug,
    }))
}
