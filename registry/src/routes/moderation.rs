//! Moderation people act on, and reservations: moderators hide and unhide skills
//! (`POST /api/v1/skills/{slug}/hide|unhide`), anyone signed in reports a skill
//! (`POST …/report`), owners appeal (`POST …/appeal`) and ask for a rescan
//! (`POST …/rescan`), moderators work the queues (`GET /api/v1/skills/-/reports|appeals`,
//! `POST …/{id}/triage`), and administrators reserve slugs and package names
//! (`POST /api/v1/users/reserve`). The rules live in [`crate::skills::reports`] and
//! [`crate::skills::reservations`].

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::db::SkillRow;
use crate::db::User;
use crate::db::report_store::CaseRow;
use crate::error::{AppError, AppResult};
use crate::extract::{AppBytes, AppPath, Params, optional_body, owner_of, parse_json};
use crate::pagination;
use crate::policy::{self, SkillAction};
use crate::routes::json_ok;
use crate::routes::skills::find_any_skill;

use crate::skills::Visibility;
use crate::skills::reports::{self, CaseKind, Decision};
use crate::skills::reservations::{self, ReserveRequest};

fn now() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// The skill, when the caller may see it: public readers see readable skills, the owner
/// and staff see theirs whatever the state (so a hidden skill is not revealed by a 403).
async fn visible_skill(
    state: &AppState,
    slug: &str,
    owner: Option<&str>,
    caller: &User,
) -> AppResult<SkillRow> {
    let skill = find_any_skill(state, slug, owner).await?.skill;
    if Visibility::of(&skill).is_readable()
        || policy::may(Some(caller), SkillAction::ReadModerationDetails, &skill)
    {
        Ok(skill)
    } else {
        Err(AppError::not_found("Skill not found"))
    }
}

/// Body of hide and unhide.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HideRequest {
    /// Why (kept in the audit log).
    pub reason: Option<String>,
    /// Owner qualifier of the slug.
    pub owner_handle: Option<String>,
}

/// Answer to hide and unhide.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HideResponse {
    /// Always true.
    pub ok: bool,
    /// The skill.
    pub slug: String,
    /// Whether it is hidden now.
    pub hidden: bool,
}

async fn set_hidden(
    state: &AppState,
    user: &User,
    slug: &str,
    params: &Params,
    body: &[u8],
    hidden: bool,
) -> AppResult<Response> {
    let request: HideRequest = optional_body(body)?;
    let owner = owner_of(request.owner_handle.as_deref(), params);
    if !policy::is_staff(Some(user)) {
        return Err(AppError::Forbidden("Moderator role required.".into()));
    }
    let skill = find_any_skill(state, slug, owner.as_deref()).await?.skill;
    reports::set_hidden(
        state.store.as_ref(),
        user,
        &skill,
        hidden,
        request.reason.as_deref(),
        now(),
    )
    .await?;
    Ok(json_ok(HideResponse {
        ok: true,
        slug: skill.slug,
        hidden,
    }))
}

/// Hides a skill from everyone but its owner and staff (moderators and admins).
#[utoipa::path(post, path = "/api/v1/skills/{slug}/hide", tag = "moderation",
    params(("slug" = String, Path, description = "skill slug")),
    request_body(content = HideRequest, content_type = "application/json"),
    responses((status = 200, description = "hidden", body = HideResponse),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Moderator role required.`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain"),
              (status = 409, description = "`Skill is already hidden`", body = String, content_type = "text/plain")))]
pub async fn hide_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    set_hidden(&state, &user, &slug, &params, &body, true).await
}

/// Lifts a moderator's hide (moderators and admins).
#[utoipa::path(post, path = "/api/v1/skills/{slug}/unhide", tag = "moderation",
    params(("slug" = String, Path, description = "skill slug")),
    request_body(content = HideRequest, content_type = "application/json"),
    responses((status = 200, description = "visible again", body = HideResponse),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Moderator role required.`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain"),
              (status = 409, description = "`Skill is not hidden`", body = String, content_type = "text/plain")))]
pub async fn unhide_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    set_hidden(&state, &user, &slug, &params, &body, false).await
}

/// Body of a report.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportRequest {
    /// What is wrong (required, at most 2000 characters).
    pub reason: Option<String>,
    /// The version it is about.
    pub version: Option<String>,
    /// Owner qualifier of the slug.
    pub owner_handle: Option<String>,
}

/// Answer to a report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportResponse {
    /// Always true.
    pub ok: bool,
    /// A new report was filed.
    pub reported: bool,
    /// The caller's earlier report is still open.
    pub already_reported: bool,
    /// The report (new or earlier).
    pub report_id: String,
    /// The skill.
    pub skill_id: String,
    /// Open reports of the skill.
    pub report_count: i64,
}

/// Reports a skill to the moderators.
#[utoipa::path(post, path = "/api/v1/skills/{slug}/report", tag = "moderation",
    params(("slug" = String, Path, description = "skill slug")),
    request_body(content = ReportRequest, content_type = "application/json"),
    responses((status = 200, description = "filed (or already open)", body = ReportResponse),
              (status = 400, description = "`reason required`, `Invalid JSON`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`, `Version not found`", body = String, content_type = "text/plain")))]
pub async fn report_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: ReportRequest = optional_body(&body)?;
    let owner = owner_of(request.owner_handle.as_deref(), &params);
    let skill = find_any_skill(&state, &slug, owner.as_deref()).await?.skill;
    if !Visibility::of(&skill).is_readable() {
        return Err(AppError::not_found("Skill not found"));
    }
    let opened = reports::report(
        state.store.as_ref(),
        &user,
        &skill,
        request.reason.as_deref(),
        request.version.as_deref(),
        now(),
    )
    .await?;
    Ok(json_ok(ReportResponse {
        ok: true,
        reported: opened.created,
        already_reported: !opened.created,
        report_id: opened.case_id.to_string(),
        skill_id: skill.id.to_string(),
        report_count: opened.open_count,
    }))
}

/// Body of an appeal.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppealRequest {
    /// Why the hide or flag is wrong (required, at most 2000 characters).
    pub message: Option<String>,
    /// Owner qualifier of the slug.
    pub owner_handle: Option<String>,
}

/// Answer to an appeal.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppealResponse {
    /// Always true.
    pub ok: bool,
    /// The appeal (new, or the owner's earlier one still open).
    pub appeal_id: String,
    /// A new appeal was filed.
    pub created: bool,
    /// `open`.
    pub status: String,
}

/// The owner appeals a moderator's hide or a scanner flag.
#[utoipa::path(post, path = "/api/v1/skills/{slug}/appeal", tag = "moderation",
    params(("slug" = String, Path, description = "skill slug")),
    request_body(content = AppealRequest, content_type = "application/json"),
    responses((status = 200, description = "filed (or already open)", body = AppealResponse),
              (status = 400, description = "`message required`, nothing to appeal", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden` (not the owner)", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn appeal_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: AppealRequest = optional_body(&body)?;
    let owner = owner_of(request.owner_handle.as_deref(), &params);
    let skill = visible_skill(&state, &slug, owner.as_deref(), &user).await?;
    let opened = reports::appeal(
        state.store.as_ref(),
        &user,
        &skill,
        request.message.as_deref(),
        now(),
    )
    .await?;
    Ok(json_ok(AppealResponse {
        ok: true,
        appeal_id: opened.case_id.to_string(),
        created: opened.created,
        status: "open".to_owned(),
    }))
}

/// Body of a rescan request.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RescanRequest {
    /// The version to scan (default: the latest).
    pub version: Option<String>,
    /// Owner qualifier of the slug.
    pub owner_handle: Option<String>,
}

/// Answer to a rescan.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RescanResponse {
    /// Always true.
    pub ok: bool,
    /// The skill.
    pub slug: String,
    /// The version scanned.
    pub version: String,
    /// Its verdict before.
    pub previous_verdict: String,
    /// Its verdict now: `clean`, `suspicious` or `malicious`.
    pub verdict: String,
    /// The skill's flag now.
    pub is_suspicious: bool,
    /// The skill's flag now.
    pub is_malware_blocked: bool,
}

/// Runs the scanner again over a version's stored files (owner, moderators, admins).
#[utoipa::path(post, path = "/api/v1/skills/{slug}/rescan", tag = "moderation",
    params(("slug" = String, Path, description = "skill slug")),
    request_body(content = RescanRequest, content_type = "application/json"),
    responses((status = 200, description = "the new verdict", body = RescanResponse),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`, `Version not found`", body = String, content_type = "text/plain")))]
pub async fn rescan_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: RescanRequest = optional_body(&body)?;
    let owner = owner_of(request.owner_handle.as_deref(), &params);
    let skill = visible_skill(&state, &slug, owner.as_deref(), &user).await?;
    let rescanned = reports::rescan(
        state.store.as_ref(),
        state.storage.as_ref(),
        &user,
        &skill,
        request.version.as_deref(),
        now(),
    )
    .await?;
    Ok(json_ok(RescanResponse {
        ok: true,
        slug: skill.slug,
        version: rescanned.version,
        previous_verdict: rescanned.previous_verdict,
        verdict: rescanned.verdict,
        is_suspicious: rescanned.is_suspicious,
        is_malware_blocked: rescanned.is_malware_blocked,
    }))
}

/// Query of the report and appeal queues.
#[derive(Debug, Clone, Default, PartialEq, Eq, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CaseParams {
    /// `open` (default), `resolved`, `dismissed` or `all`.
    pub status: Option<String>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1-100 (default 50).
    pub limit: Option<i64>,
}

impl CaseParams {
    fn from_params(params: &Params) -> AppResult<Self> {
        Ok(Self {
            status: params.text("status").map(str::to_ascii_lowercase),
            cursor: params.text("cursor").map(str::to_owned),
            limit: Some(params.clamped("limit", 50, 1, 100)?),
        })
    }
}

/// One report or appeal.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaseItem {
    /// Case id.
    #[serde(rename = "_id")]
    pub id: String,
    /// `report` or `appeal`.
    pub kind: String,
    /// Skill id.
    pub skill_id: String,
    /// Its slug.
    pub slug: String,
    /// Its display name.
    pub display_name: String,
    /// Who filed it.
    pub user_handle: String,
    /// The version it is about.
    pub version: Option<String>,
    /// Reason (report) or message (appeal).
    pub text: String,
    /// `open`, `resolved` or `dismissed`.
    pub status: String,
    /// Unix ms.
    pub created_at: i64,
    /// The moderator who closed it.
    pub resolved_by: Option<String>,
    /// Unix ms.
    pub resolved_at: Option<i64>,
    /// The moderator's note.
    pub note: Option<String>,
}

impl From<CaseRow> for CaseItem {
    fn from(row: CaseRow) -> Self {
        Self {
            id: row.id.to_string(),
            kind: row.kind,
            skill_id: row.skill_id.to_string(),
            slug: row.skill_slug,
            display_name: row.skill_display_name,
            user_handle: row.user_handle,
            version: row.version,
            text: row.text,
            status: row.status,
            created_at: row.created_at,
            resolved_by: row.resolved_by_handle,
            resolved_at: row.resolved_at,
            note: row.note,
        }
    }
}

/// A page of a queue.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CasePage {
    /// Newest first.
    pub items: Vec<CaseItem>,
    /// Cursor of the next page, null at the end.
    pub next_cursor: Option<String>,
}

async fn queue(
    state: &AppState,
    user: &User,
    kind: CaseKind,
    params: &Params,
) -> AppResult<Response> {
    let query = CaseParams::from_params(params)?;
    let before_id = match query.cursor.as_deref() {
        None => None,
        Some(cursor) => Some(
            pagination::decode_audit_cursor(cursor)
                .ok_or_else(|| AppError::bad_request("Invalid cursor format"))?,
        ),
    };
    let limit = query.limit.unwrap_or(50);
    let status = query.status.as_deref().or(Some("open"));
    let mut rows =
        reports::queue(state.store.as_ref(), user, kind, status, before_id, limit).await?;
    let limit = usize::try_from(limit).unwrap_or(0);
    let next_cursor = if rows.len() > limit {
        rows.truncate(limit);
        rows.last()
            .and_then(|row| pagination::encode_audit_cursor(row.id))
    } else {
        None
    };
    Ok(json_ok(CasePage {
        items: rows.into_iter().map(CaseItem::from).collect(),
        next_cursor,
    }))
}

/// The report queue (moderators and admins).
#[utoipa::path(get, path = "/api/v1/skills/-/reports", tag = "moderation",
    params(CaseParams),
    responses((status = 200, description = "reports, newest first", body = CasePage),
              (status = 400, description = "invalid `status`, `limit` or `cursor`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Moderator role required.`", body = String, content_type = "text/plain")))]
pub async fn list_reports(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    params: Params,
) -> AppResult<Response> {
    queue(&state, &user, CaseKind::Report, &params).await
}

/// The appeal queue (moderators and admins).
#[utoipa::path(get, path = "/api/v1/skills/-/appeals", tag = "moderation",
    params(CaseParams),
    responses((status = 200, description = "appeals, newest first", body = CasePage),
              (status = 400, description = "invalid `status`, `limit` or `cursor`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Moderator role required.`", body = String, content_type = "text/plain")))]
pub async fn list_appeals(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    params: Params,
) -> AppResult<Response> {
    queue(&state, &user, CaseKind::Appeal, &params).await
}

/// A moderator's decision on a case.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TriageRequest {
    /// Reports: `resolve`, `dismiss` or `hide` (resolve and hide the skill); appeals:
    /// `accept` (lift the hide) or `reject`.
    pub action: Option<String>,
    /// A note for the record.
    pub note: Option<String>,
}

/// Answer to a triage.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TriageResponse {
    /// Always true.
    pub ok: bool,
    /// The case as it is now.
    pub case: CaseItem,
}

async fn triage(
    state: &AppState,
    user: &User,
    kind: CaseKind,
    id: &str,
    body: &[u8],
) -> AppResult<Response> {
    if !policy::is_staff(Some(user)) {
        return Err(AppError::Forbidden("Moderator role required.".into()));
    }
    let request: TriageRequest = parse_json(body)?;
    let case_id: i64 = id.parse().map_err(|_| match kind {
        CaseKind::Report => AppError::not_found("Report not found"),
        CaseKind::Appeal => AppError::not_found("Appeal not found"),
    })?;
    let action = request
        .action
        .as_deref()
        .map(str::trim)
        .filter(|action| !action.is_empty())
        .ok_or_else(|| AppError::bad_request("action required"))?;
    let decision = Decision::parse(kind, action)?;
    let case = reports::triage(
        state.store.as_ref(),
        user,
        kind,
        case_id,
        decision,
        request.note.as_deref(),
        now(),
    )
    .await?;
    Ok(json_ok(TriageResponse {
        ok: true,
        case: case.into(),
    }))
}

/// Resolves or dismisses a report (moderators and admins).
#[utoipa::path(post, path = "/api/v1/skills/-/reports/{id}/triage", tag = "moderation",
    params(("id" = String, Path, description = "report id")),
    request_body(content = TriageRequest, content_type = "application/json"),
    responses((status = 200, description = "the closed report", body = TriageResponse),
              (status = 400, description = "`action required`, unknown action", body = String, content_type = "text/plain"),
              (status = 403, description = "`Moderator role required.`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Report not found`", body = String, content_type = "text/plain"),
              (status = 409, description = "already triaged", body = String, content_type = "text/plain")))]
pub async fn triage_report(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(id): AppPath<String>,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    triage(&state, &user, CaseKind::Report, &id, &body).await
}

/// Accepts (lifting the hide) or rejects an appeal (moderators and admins).
#[utoipa::path(post, path = "/api/v1/skills/-/appeals/{id}/triage", tag = "moderation",
    params(("id" = String, Path, description = "appeal id")),
    request_body(content = TriageRequest, content_type = "application/json"),
    responses((status = 200, description = "the closed appeal", body = TriageResponse),
              (status = 400, description = "`action required`, unknown action", body = String, content_type = "text/plain"),
              (status = 403, description = "`Moderator role required.`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Appeal not found`", body = String, content_type = "text/plain"),
              (status = 409, description = "already triaged", body = String, content_type = "text/plain")))]
pub async fn triage_appeal(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(id): AppPath<String>,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    triage(&state, &user, CaseKind::Appeal, &id, &body).await
}

/// Body of `POST /api/v1/users/reserve`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReserveBody {
    /// The owner the items are held for.
    pub handle: Option<String>,
    /// Root slugs (trimmed, lowercased).
    pub slugs: Option<Vec<String>>,
    /// Package names (trimmed).
    pub package_names: Option<Vec<String>>,
    /// Why (kept in the audit log).
    pub reason: Option<String>,
}

/// What happened to one item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReserveItem {
    /// `slug` or `package`.
    pub kind: String,
    /// The slug or package name.
    pub name: String,
    /// Whether it is held for the owner now.
    pub ok: bool,
    /// `reserved` or `already_owned`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Answer to a reservation request.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReserveResponse {
    /// Always true (items fail one by one).
    pub ok: bool,
    /// One result per item, slugs first.
    pub results: Vec<ReserveItem>,
    /// Items held.
    pub succeeded: usize,
    /// Items refused.
    pub failed: usize,
}

/// Reserves root slugs (for 90 days) and package names (as private placeholders) for an
/// owner (administrators only).
#[utoipa::path(post, path = "/api/v1/users/reserve", tag = "users",
    request_body(content = ReserveBody, content_type = "application/json"),
    responses((status = 200, description = "per-item results", body = ReserveResponse),
              (status = 400, description = "`Invalid JSON`, `Missing handle`, `Missing slugs or packageNames array`, `Too many reservations (max 200)`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Admin role required.`", body = String, content_type = "text/plain"),
              (status = 404, description = "`User not found`", body = String, content_type = "text/plain")))]
pub async fn reserve(
    State(state): State<AppState>,
    user: Result<RequireUser, AppError>,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    // The reference refuses invalid JSON before it looks at the token.
    let body: ReserveBody = parse_json(&body)?;
    let RequireUser(user) = user?;
    if !policy::may_reserve(&user) {
        return Err(AppError::Forbidden("Admin role required.".into()));
    }
    let results = reservations::reserve(
        state.store.as_ref(),
        &user,
        ReserveRequest {
            handle: body.handle.unwrap_or_default(),
            slugs: body.slugs,
            package_names: body.package_names,
            reason: body.reason,
        },
        now(),
    )
    .await?;
    let results: Vec<ReserveItem> = results
        .into_iter()
        .map(|item| {
            let (ok, action, error) = match item.outcome {
                Ok(action) => (true, Some(action.to_owned()), None),
                Err(error) => (false, None, Some(error)),
            };
            ReserveItem {
                kind: item.kind.to_owned(),
                name: item.name,
                ok,
                action,
                error,
            }
        })
        .collect();
    let succeeded = results.iter().filter(|item| item.ok).count();
    Ok(json_ok(ReserveResponse {
        ok: true,
        failed: results.len() - succeeded,
        succeeded,
        results,
    }))
}
