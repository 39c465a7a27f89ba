//! Public skill reads: search, list, detail, versions, files, scan, moderation, resolve,
//! download; and stars.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::app::AppState;
use crate::archive::{ArchiveMeta, build_zip};
use crate::auth::{ClientIp, MaybeUser, RequireUser};
use crate::bundle::normalize_slug;
use crate::cache::Scope;
use crate::db::{ListQuery, ListSort, SearchQuery, SkillDetailRow, SkillRow, VersionRow};
use crate::error::{AppError, AppResult};
use crate::extract::{AppPath, Params};
use crate::pagination;
use crate::policy::{self, SkillAction};
use crate::routes::{base_url, cached_json, cached_json_scoped, json_ok, views};
use crate::skills::promptsets::PromptSetsReport;
use crate::skills::{Visibility, lifecycle, promptsets, ranking};

const SKILL_NOT_FOUND: &str = "Skill not found";
const VERSION_NOT_FOUND: &str = "Version not found";
pub(crate) const BLOCKED_SKILL: &str =
    "Blocked: this skill has been flagged as malicious by ClawScan and cannot be downloaded.";
pub(crate) const BLOCKED_VERSION: &str = "Blocked: this skill version has been flagged as malicious by ClawScan and cannot be downloaded.";
const TRENDING_WINDOW_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Looks a skill up by slug (and optional owner) whatever its visibility.
pub(crate) async fn find_any_skill(
    state: &AppState,
    slug: &str,
    owner: Option<&str>,
) -> AppResult<SkillDetailRow> {
    let slug = normalize_slug(slug);
    if slug.is_empty() || slug.len() > 200 {
        return Err(AppError::not_found(SKILL_NOT_FOUND));
    }
    let skill = state
        .store
        .find_skill(&slug)
        .await?
        .ok_or_else(|| AppError::not_found(SKILL_NOT_FOUND))?;
    if owner.is_some_and(|owner| owner != skill.skill.owner_handle) {
        return Err(AppError::not_found(SKILL_NOT_FOUND));
    }
    Ok(skill)
}

/// A skill whose pages the public may read (see [`Visibility::is_readable`]).
pub(crate) async fn find_public_skill(
    state: &AppState,
    slug: &str,
    params: &Params,
) -> AppResult<SkillDetailRow> {
    let skill = find_any_skill(state, slug, params.owner().as_deref()).await?;
    if !Visibility::of(&skill.skill).is_readable() {
        return Err(AppError::not_found(SKILL_NOT_FOUND));
    }
    Ok(skill)
}

/// The version a request names by `version` or `tag` (unknown tag: latest when
/// `tag_falls_back`, else 404), or the latest.
pub(crate) async fn select_version(
    state: &AppState,
    skill: &SkillRow,
    params: &Params,
    tag_falls_back: bool,
) -> AppResult<VersionRow> {
    let store = &state.store;
    if let Some(version) = params.text("version") {
        let row = store
            .find_version(skill.id, version)
            .await?
            .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))?;
        if row.soft_deleted_at.is_some() {
            return Err(AppError::Gone("Version not available".into()));
        }
        return Ok(row);
    }
    if let Some(tag) = params.text("tag") {
        match store.find_tagged_version(skill.id, tag).await? {
            Some(row) if row.soft_deleted_at.is_none() => return Ok(row),
            Some(_) => return Err(AppError::Gone("Version not available".into())),
            None if !tag_falls_back => return Err(AppError::not_found(VERSION_NOT_FOUND)),
            None => {}
        }
    }
    let latest = skill
        .latest_version_id
        .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))?;
    store
        .find_version_by_id(latest)
        .await?
        .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))
}

/// One search hit.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    /// Relevance, higher first.
    pub score: f64,
    /// Slug.
    pub slug: String,
    /// Always `clawhub`: installing agents drop rows without a source (openclaw reads
    /// `source` and the owner handle to build `@owner/slug`).
    pub source: String,
    /// Display name.
    pub display_name: String,
    /// One-line summary.
    pub summary: Option<String>,
    /// Latest version.
    pub version: Option<String>,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// Downloads.
    pub downloads: i64,
    /// Owner handle.
    pub owner_handle: String,
    /// Owner.
    pub owner: SearchOwner,
    /// Prompt-set check of the latest version, null without prompt sets.
    pub prompt_sets: Option<views::PromptSetsMarker>,
    /// The skill's page.
    pub canonical_url: String,
}

/// The owner of a search hit.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchOwner {
    /// Handle.
    pub handle: String,
    /// Display name.
    pub display_name: Option<String>,
    /// Avatar URL.
    pub image: Option<String>,
}

/// Answer of `GET /api/v1/search`.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct SearchResponse {
    /// Hits, best first.
    pub results: Vec<SearchResult>,
}

fn search_result(row: &SkillRow, score: f64, base: &str) -> SearchResult {
    SearchResult {
        score,
        slug: row.slug.clone(),
        source: "clawhub".into(),
        display_name: row.display_name.clone(),
        summary: row.summary.clone(),
        version: row.latest_version.clone(),
        updated_at: row.updated_at,
        downloads: row.downloads,
        owner_handle: row.owner_handle.clone(),
        owner: SearchOwner {
            handle: row.owner_handle.clone(),
            display_name: row.owner_display_name.clone(),
            image: row.owner_image.clone(),
        },
        prompt_sets: views::prompt_sets_marker(row),
        canonical_url: views::canonical_url(base, row),
    }
}

/// Text search over skills.
#[utoipa::path(get, path = "/api/v1/search", tag = "skills",
    params(
        ("q" = Option<String>, Query, description = "search text"),
        ("limit" = Option<i64>, Query, description = "results, 1-100 (default 10)"),
        ("mode" = Option<String>, Query, description = "`exact`: only the skill whose slug equals `q`"),
        ("highlightedOnly" = Option<bool>, Query, description = "only highlighted skills"),
        ("nonSuspiciousOnly" = Option<bool>, Query, description = "drop suspicious skills (legacy alias `nonSuspicious`)"),
        ("validPromptSetsOnly" = Option<bool>, Query, description = "only skills whose latest version contains prompt sets that all validate (see `promptSets` in the scan)"),
    ),
    responses((status = 200, description = "results, best first", body = SearchResponse),
              (status = 400, description = "invalid parameter", body = String, content_type = "text/plain")))]
pub async fn search_skills(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    params: Params,
) -> AppResult<Response> {
    let base = base_url(&state, &headers);
    let key = views::cache_key_uri(state.config.public_url.is_some(), &headers, &uri);
    cached_json(&state, &key, search_body(&state, &params, &base)).await
}

async fn search_body(state: &AppState, params: &Params, base: &str) -> AppResult<SearchResponse> {
    let limit = params.clamped("limit", 10, 1, 100)?;
    let highlighted_only = params.flag("highlightedOnly")? || params.flag("approvedOnly")?;
    let non_suspicious_only = params.flag("nonSuspiciousOnly")? || params.flag("nonSuspicious")?;
    let valid_prompt_sets_only = params.flag("validPromptSetsOnly")?;
    let exact = match params.text("mode") {
        None => false,
        Some(mode) if mode.eq_ignore_ascii_case("exact") => true,
        Some(_) => return Err(AppError::bad_request("Invalid search mode")),
    };
    let query = params.text("q").unwrap_or("");
    if query.is_empty() {
        return Ok(SearchResponse::default());
    }
    if exact {
        let slug = normalize_slug(query);
        let results = match state.store.find_skill(&slug).await? {
            Some(detail)
                if Visibility::of(&detail.skill).is_listed()
                    && (!non_suspicious_only || !detail.skill.is_suspicious)
                    && (!valid_prompt_sets_only
                        || detail.skill.prompt_sets_status.as_deref()
                            == Some(crate::skills::promptsets::STATUS_VALID))
                    && (!highlighted_only || detail.skill.highlighted) =>
            {
                let terms = ranking::search_terms(query);
                let score = ranking::Relevance::new(query, &terms).score(&detail.skill, 1.0);
                vec![search_result(&detail.skill, score, base)]
            }
            _ => Vec::new(),
        };
        return Ok(SearchResponse { results });
    }
    let terms = ranking::search_terms(query);
    let candidates = state
        .store
        .search_skills(&SearchQuery {
            terms: terms.clone(),
            limit: (limit * 5).max(50),
            highlighted_only,
            non_suspicious_only,
            valid_prompt_sets_only,
        })
        .await?;
    let results: Vec<SearchResult> = ranking::Relevance::new(query, &terms)
        .rank(candidates)
        .iter()
        .take(usize::try_from(limit).unwrap_or(10))
        .map(|(score, row)| search_result(row, *score, base))
        .collect();
    Ok(SearchResponse { results })
}

/// A page of skills.
#[utoipa::path(get, path = "/api/v1/skills", tag = "skills",
    params(
        ("limit" = Option<i64>, Query, description = "page size, 1-200 (default 25)"),
        ("cursor" = Option<String>, Query, description = "`nextCursor` of the previous page"),
        ("sort" = Option<String>, Query, description = "updated (default), recommended|default, createdAt|newest, downloads, stars|rating, installsCurrent|installs, installsAllTime, trending, name"),
        ("prefix" = Option<String>, Query, description = "slug prefix (name order)"),
        ("nonSuspiciousOnly" = Option<bool>, Query, description = "drop suspicious skills (legacy alias `nonSuspicious`)"),
        ("validPromptSetsOnly" = Option<bool>, Query, description = "only skills whose latest version contains prompt sets that all validate (see `promptSets` in the scan)"),
    ),
    responses((status = 200, description = "a page, in the requested order", body = SkillPage),
              (status = 400, description = "invalid sort or parameter", body = String, content_type = "text/plain")))]
pub async fn list_skills(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    params: Params,
) -> AppResult<Response> {
    let base = base_url(&state, &headers);
    let key = views::cache_key_uri(state.config.public_url.is_some(), &headers, &uri);
    cached_json(&state, &key, list_body(&state, &params, &base)).await
}

async fn list_body(state: &AppState, params: &Params, base: &str) -> AppResult<SkillPage> {
    let limit = params.clamped("limit", 25, 1, 200)?;
    let non_suspicious_only = params.flag("nonSuspiciousOnly")? || params.flag("nonSuspicious")?;
    let valid_prompt_sets_only = params.flag("validPromptSetsOnly")?;
    let prefix = match params.text("prefix") {
        None => None,
        Some(prefix) => {
            let prefix = prefix.to_lowercase();
            let valid = prefix.len() <= 96
                && prefix.as_bytes()[0].is_ascii_alphanumeric()
                && prefix
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !valid {
                return Err(AppError::bad_request("Invalid prefix query parameter"));
            }
            Some(prefix)
        }
    };
    let sort = match params.text("sort") {
        None if prefix.is_some() => ListSort::Name,
        None => ListSort::Updated,
        Some(text) => ListSort::parse(text)
            .ok_or_else(|| AppError::bad_request("Invalid sort query parameter"))?,
    };
    if prefix.is_some() && sort != ListSort::Name {
        return Err(AppError::bad_request(
            "Prefix listing only supports name sort",
        ));
    }
    let after = pagination::decode_skill_cursor(sort, params.text("cursor"));
    let mut rows = state
        .store
        .list_skills(&ListQuery {
            sort,
            after,
            limit,
            non_suspicious_only,
            valid_prompt_sets_only,
            prefix,
            trending_since: chrono::Utc::now().timestamp_millis() - TRENDING_WINDOW_MS,
        })
        .await?;
    let page = usize::try_from(limit).unwrap_or(25);
    let more = rows.len() > page;
    rows.truncate(page);
    let next_cursor = match (more, sort, rows.last()) {
        (true, sort, Some(last)) if sort != ListSort::Trending => {
            pagination::encode_skill_cursor(sort, last)
        }
        _ => None,
    };
    let items = rows.iter().map(|row| views::list_item(row, base)).collect();
    Ok(SkillPage { items, next_cursor })
}

/// One skill.
#[utoipa::path(get, path = "/api/v1/skills/{slug}", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier (alias `owner`)")),
    responses((status = 200, description = "the skill, its latest version and owner", body = SkillDetail),
              (status = 403, description = "to its owner only: `Skill is hidden by moderation (<reason>).`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain"),
              (status = 410, description = "to its owner only: deleted by them (`Run \"clawhub undelete <slug>\"`) or removed by moderation", body = String, content_type = "text/plain")))]
pub async fn get_skill(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    uri: Uri,
    headers: HeaderMap,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let base = base_url(&state, &headers);
    let key = views::cache_key_uri(state.config.public_url.is_some(), &headers, &uri);
    match cached_json_scoped(&state, &key, skill_body(&state, &slug, &params, &base)).await {
        // Errors are never cached, so the owner's explanation cannot leak to others.
        Err(error @ AppError::NotFound(_)) if user.is_some() => {
            let Ok(skill) = find_any_skill(&state, &slug, params.owner().as_deref()).await else {
                return Err(error);
            };
            let notice =
                lifecycle::owner_notice(&*state.store, user.as_deref(), &skill.skill).await?;
            Err(notice.unwrap_or(error))
        }
        other => other,
    }
}

/// The body of one skill, which depends on that skill only (its owner's handle and name
/// too, but owner changes invalidate everything).
async fn skill_body(
    state: &AppState,
    slug: &str,
    params: &Params,
    base: &str,
) -> AppResult<(SkillDetail, Scope)> {
    let detail = find_public_skill(state, slug, params).await?;
    if detail.skill.is_malware_blocked {
        return Err(AppError::not_found(SKILL_NOT_FOUND));
    }
    let row = &detail.skill;
    let scope = Scope::Skill(row.id);
    let description = detail
        .latest_skill_md
        .as_deref()
        .filter(|text| text.len() <= 200 * 1024);
    let body = SkillDetail {
        skill: SkillSummary {
            slug: row.slug.clone(),
            display_name: row.display_name.clone(),
            summary: row.summary.clone(),
            icon: None,
            description: description.map(str::to_owned),
            tags: views::tags(row),
            stats: views::stats(row),
            created_at: row.created_at,
            updated_at: row.updated_at,
            canonical_url: views::canonical_url(base, row),
            prompt_sets: views::prompt_sets_marker(row),
        },
        latest_version: views::latest_version(row),
        metadata: views::metadata(row),
        owner: views::owner(row),
        moderation: views::skill_moderation(&detail),
    };
    Ok((body, scope))
}

/// Moderation information of a skill.
#[utoipa::path(get, path = "/api/v1/skills/{slug}/moderation", tag = "skills",
    params(("slug" = String, Path, description = "skill slug")),
    responses((status = 200, description = "moderation state and evidence", body = ModerationResponse),
              (status = 404, description = "`Moderation details unavailable`", body = String, content_type = "text/plain")))]
pub async fn get_moderation(
    State(state): State<AppState>,
    AppPath(slug): AppPath<String>,
    MaybeUser(user): MaybeUser,
    params: Params,
) -> AppResult<Response> {
    let detail = find_any_skill(&state, &slug, params.owner().as_deref()).await?;
    let row = &detail.skill;
    let privileged = policy::may(user.as_deref(), SkillAction::ReadModerationDetails, row);
    let flagged = row.is_suspicious || row.is_malware_blocked;
    let publicly_visible = !Visibility::of(row).is_removed();
    if !(privileged || (flagged && publicly_visible)) {
        return Err(AppError::not_found("Moderation details unavailable"));
    }
    let report = detail
        .moderation_scan_json
        .as_deref()
        .and_then(views::scan_report);
    let evidence = match &report {
        Some(report) if privileged => report.findings.clone(),
        Some(report) => report.public_findings(),
        None => Vec::new(),
    };
    Ok(json_ok(ModerationResponse {
        moderation: views::ModerationDetails {
            summary: views::moderation_summary(row, report.as_ref(), "clean"),
            legacy_reason: None,
            evidence,
        },
    }))
}

/// Versions of a skill, newest first.
#[utoipa::path(get, path = "/api/v1/skills/{slug}/versions", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"),
           ("limit" = Option<i64>, Query, description = "page size, 1-50 (default 20)"),
           ("cursor" = Option<String>, Query, description = "`nextCursor` of the previous page")),
    responses((status = 200, description = "a page of versions, newest first", body = VersionPage),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn list_versions(
    State(state): State<AppState>,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let limit = params.clamped("limit", 20, 1, 50)?;
    let detail = find_public_skill(&state, &slug, &params).await?;
    let after = pagination::decode_version_cursor(params.text("cursor"));
    let mut rows = state
        .store
        .list_versions(detail.skill.id, after, limit)
        .await?;
    let page = usize::try_from(limit).unwrap_or(20);
    let more = rows.len() > page;
    rows.truncate(page);
    let next_cursor = if more {
        rows.last().and_then(pagination::encode_version_cursor)
    } else {
        None
    };
    let items = rows
        .iter()
        .map(|row| VersionItem {
            version: row.version.clone(),
            created_at: row.created_at,
            changelog: row.changelog.clone(),
            changelog_source: row.changelog_source.clone(),
        })
        .collect();
    Ok(json_ok(VersionPage { items, next_cursor }))
}

/// One version with its files.
#[utoipa::path(get, path = "/api/v1/skills/{slug}/versions/{version}", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"), ("version" = String, Path, description = "semver version")),
    responses((status = 200, description = "the version with its files", body = VersionResponse),
              (status = 404, description = "`Skill not found` or `Version not found`", body = String, content_type = "text/plain"),
              (status = 410, description = "`Version not available`", body = String, content_type = "text/plain")))]
pub async fn get_version(
    State(state): State<AppState>,
    AppPath((slug, version)): AppPath<(String, String)>,
    params: Params,
) -> AppResult<Response> {
    let detail = find_public_skill(&state, &slug, &params).await?;
    let row = state
        .store
        .find_version(detail.skill.id, version.trim())
        .await?
        .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))?;
    if row.soft_deleted_at.is_some() {
        return Err(AppError::Gone("Version not available".into()));
    }
    let files = state.store.version_files(row.id).await?;
    Ok(json_ok(VersionResponse {
        skill: SkillRef::of(&detail.skill),
        version: VersionDetail {
            version: row.version.clone(),
            created_at: row.created_at,
            changelog: row.changelog.clone(),
            changelog_source: row.changelog_source.clone(),
            license: "MIT-0".into(),
            files: files.iter().map(views::file).collect(),
            security: views::security(&row),
            prompt_sets: views::prompt_sets(&row),
        },
    }))
}

/// Scan information of a version.
#[utoipa::path(get, path = "/api/v1/skills/{slug}/scan", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"),
           ("version" = Option<String>, Query, description = "version (default latest)"),
           ("tag" = Option<String>, Query, description = "tag instead of a version")),
    responses((status = 200, description = "moderation, security and prompt-set checks of the version; `promptSets` is null without prompt sets", body = ScanResponse),
              (status = 404, description = "`Skill not found` or `Version not found`", body = String, content_type = "text/plain")))]
pub async fn get_scan(
    State(state): State<AppState>,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let detail = find_public_skill(&state, &slug, &params).await?;
    let version = select_version(&state, &detail.skill, &params, false).await?;
    let row = &detail.skill;
    let visibility = Visibility::of(row);
    let source = match row.moderation_version_id {
        Some(id) if id == version.id => Some(version.clone()),
        Some(id) => state.store.find_version_by_id(id).await?,
        None => None,
    };
    Ok(json_ok(ScanResponse {
        skill: SkillRef::of(row),
        version: ScanVersion {
            version: version.version.clone(),
            created_at: version.created_at,
            changelog_source: version.changelog_source.clone(),
        },
        moderation: ScanModeration {
            scope: "skill".into(),
            source_version: source.as_ref().map(|v| VersionStamp {
                version: v.version.clone(),
                created_at: v.created_at,
            }),
            matches_requested_version: source.as_ref().is_some_and(|v| v.id == version.id),
            is_pending_scan: false,
            is_malware_blocked: row.is_malware_blocked,
            is_suspicious: row.is_suspicious,
            is_hidden_by_mod: visibility == Visibility::HiddenByModeration,
            is_removed: visibility == Visibility::SoftDeleted,
        },
        security: views::security(&version),
        prompt_sets: views::prompt_sets(&version),
    }))
}

/// The content type a user file is served with: the publisher's declared type only when a
/// browser cannot run it as a document or script of our origin (plain text, Markdown, CSV,
/// JSON, YAML, …); HTML, SVG, XML, JavaScript and anything unknown go out as plain text.
fn inert_content_type(declared: Option<&str>) -> &str {
    const PLAIN: &str = "text/plain; charset=utf-8";
    let Some(declared) = declared else {
        return "application/octet-stream";
    };
    let active = [
        "text/html",
        "text/xml",
        "text/xsl",
        "text/javascript",
        "text/ecmascript",
    ];
    let inert_application = [
        "application/json",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/octet-stream",
    ];
    let essence = declared.split(';').next().unwrap_or("").trim();
    let keep = (essence.starts_with("text/") && !active.contains(&essence))
        || inert_application.contains(&essence);
    if keep { declared } else { PLAIN }
}

fn content_disposition(file_name: &str) -> HeaderValue {
    let encoded =
        percent_encoding::utf8_percent_encode(file_name, percent_encoding::NON_ALPHANUMERIC);
    HeaderValue::from_str(&format!("attachment; filename*=UTF-8''{encoded}"))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

/// One file of a version (raw bytes, or text with `preview=1`).
#[utoipa::path(get, path = "/api/v1/skills/{slug}/file", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"),
           ("path" = String, Query, description = "file path inside the skill"),
           ("version" = Option<String>, Query, description = "version (default latest)"),
           ("tag" = Option<String>, Query, description = "tag (unknown tags fall back to latest)"),
           ("preview" = Option<bool>, Query, description = "serve as UTF-8 text"),
           ("format" = Option<String>, Query, description = "`csv`: a prompt-set file as CSV (RFC 4180), written like `promptset report`"),
           ("table" = Option<String>, Query, description = "with `format=csv`: prompts (default), topics, priorities or summary")),
    responses((status = 200, description = "file bytes (`text/csv` with `format=csv`)", content_type = "application/octet-stream"),
              (status = 400, description = "`Missing path`", body = String, content_type = "text/plain"),
              (status = 404, description = "`File not found`", body = String, content_type = "text/plain")))]
pub async fn get_file(
    State(state): State<AppState>,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let path = params
        .0
        .get("path")
        .map(|p| p.trim().trim_start_matches('/').to_owned())
        .filter(|p| !p.is_empty())
        .ok_or_else(|| AppError::bad_request("Missing path"))?;
    let preview = params.flag("preview")?;
    let csv_table = match params.text("format") {
        None => None,
        Some(format) if format.eq_ignore_ascii_case("csv") => Some(
            promptsets::csv_table(params.text("table"))
                .ok_or_else(|| AppError::bad_request("Invalid table"))?,
        ),
        Some(_) => return Err(AppError::bad_request("Invalid format")),
    };
    let detail = find_public_skill(&state, &slug, &params).await?;
    if !Visibility::of(&detail.skill).is_downloadable() {
        return Err(AppError::Forbidden(BLOCKED_SKILL.into()));
    }
    let version = select_version(&state, &detail.skill, &params, true).await?;
    let files = state.store.version_files(version.id).await?;
    let file = files
        .iter()
        .find(|file| file.path == path)
        .or_else(|| {
            files
                .iter()
                .find(|file| file.path.eq_ignore_ascii_case(&path))
        })
        .ok_or_else(|| AppError::not_found("File not found"))?;
    if preview && file.size > 200 * 1024 {
        return Err(AppError::PayloadTooLarge(
            "File exceeds 200KB preview limit".into(),
        ));
    }
    if file.size > 10 * 1024 * 1024 {
        return Err(AppError::PayloadTooLarge("File exceeds 10MB limit".into()));
    }
    let bytes = state
        .storage
        .get(&file.sha256)
        .await?
        .ok_or_else(|| AppError::Gone("File missing in storage".into()))?;
    let mut headers = HeaderMap::new();
    if let Some(table) = csv_table {
        let path = file.path.clone();
        let csv = tokio::task::spawn_blocking(move || promptsets::to_csv(&path, &bytes, table))
            .await
            .map_err(|error| AppError::Internal(error.into()))?
            .map_err(AppError::BadRequest)?;
        let base = file.path.rsplit('/').next().unwrap_or(&file.path);
        let stem = base.strip_suffix(".json").unwrap_or(base);
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/csv; charset=utf-8"),
        );
        headers.insert(
            header::CONTENT_DISPOSITION,
            content_disposition(&format!("{stem}.csv")),
        );
        headers.insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, max-age=60"),
        );
        return Ok((StatusCode::OK, headers, csv).into_response());
    }
    if preview {
        if std::str::from_utf8(&bytes).is_err() {
            return Err(AppError::UnsupportedMediaType(
                "File cannot be previewed as text".into(),
            ));
        }
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
    } else {
        let content_type = inert_content_type(file.content_type.as_deref());
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_str(content_type)
                .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream")),
        );
        let base = file.path.rsplit('/').next().unwrap_or(&file.path);
        headers.insert(header::CONTENT_DISPOSITION, content_disposition(base));
    }
    let sha = HeaderValue::from_str(&file.sha256).unwrap_or_else(|_| HeaderValue::from_static(""));
    headers.insert(header::ETAG, sha.clone());
    headers.insert("x-content-sha256", sha);
    headers.insert("x-content-size", HeaderValue::from(file.size));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox",
        ),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=60"),
    );
    Ok((StatusCode::OK, headers, bytes).into_response())
}

/// Resolves a bundle fingerprint to a version.
#[utoipa::path(get, path = "/api/v1/resolve", tag = "skills",
    params(("slug" = String, Query, description = "skill slug"),
           ("hash" = String, Query, description = "bundle fingerprint (64 hex)"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    responses((status = 200, description = "the version with that fingerprint, if any, and the latest", body = ResolveResponse),
              (status = 400, description = "`Missing slug or hash` / `Invalid hash`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn resolve_skill(State(state): State<AppState>, params: Params) -> AppResult<Response> {
    let (Some(slug), Some(hash)) = (params.text("slug"), params.text("hash")) else {
        return Err(AppError::bad_request("Missing slug or hash"));
    };
    let hash = hash.to_ascii_lowercase();
    if !crate::storage::is_sha256_hex(&hash) {
        return Err(AppError::bad_request("Invalid hash"));
    }
    let detail = find_any_skill(&state, slug, params.owner().as_deref()).await?;
    let row = &detail.skill;
    let visibility = Visibility::of(row);
    if !visibility.is_resolvable() {
        return Err(AppError::not_found(SKILL_NOT_FOUND));
    }
    let matched = state
        .store
        .find_version_by_fingerprint(row.id, &hash)
        .await?;
    let latest = if visibility == Visibility::Blocked {
        None
    } else {
        row.latest_version
            .clone()
            .map(|version| VersionNumber { version })
    };
    Ok(json_ok(ResolveResponse {
        slug: normalize_slug(slug),
        matched: matched.map(|version| VersionNumber {
            version: version.version,
        }),
        latest_version: latest,
    }))
}

/// The ZIP of a version.
#[utoipa::path(get, path = "/api/v1/download", tag = "skills",
    params(("slug" = String, Query, description = "skill slug"),
           ("version" = Option<String>, Query, description = "exact version"),
           ("tag" = Option<String>, Query, description = "tag (unknown tags fall back to latest)"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    responses((status = 200, description = "deterministic ZIP", content_type = "application/zip"),
              (status = 403, description = "blocked download", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found` / `Version not found`", body = String, content_type = "text/plain")))]
pub async fn download_skill(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    ClientIp(ip): ClientIp,
    uri: Uri,
    params: Params,
) -> AppResult<Response> {
    let actor = match (&user, ip) {
        (Some(user), _) => format!("user:{}", user.id),
        (None, Some(ip)) => format!("ip:{ip}"),
        (None, None) => "ip:unknown".to_owned(),
    };
    let key = uri.path_and_query().map_or("", |pq| pq.as_str()).to_owned();
    if let Some(resolved) = state.responses.get_download(&key) {
        count_download(&state, resolved.skill_id, actor).await;
        return Ok(zip_response(&resolved.file_name, resolved.archive));
    }
    let generation = state.responses.generation();
    let slug = params
        .text("slug")
        .ok_or_else(|| AppError::bad_request("Missing slug"))?;
    let detail = find_public_skill(&state, slug, &params).await?;
    let row = &detail.skill;
    if !Visibility::of(row).is_downloadable() {
        return Err(AppError::Forbidden(BLOCKED_SKILL.into()));
    }
    let version = select_version(&state, row, &params, true).await?;
    if version.verdict == "malicious" {
        return Err(AppError::Forbidden(BLOCKED_VERSION.into()));
    }
    let archive = match state.zip_cache.get(version.id, &row.slug) {
        Some(bytes) => bytes,
        None => {
            let files = state.store.version_files(version.id).await?;
            let mut contents = Vec::with_capacity(files.len());
            for file in files {
                let bytes = state
                    .storage
                    .get(&file.sha256)
                    .await?
                    .ok_or_else(|| AppError::Gone("File missing in storage".into()))?;
                contents.push((file.path, bytes));
            }
            let meta = ArchiveMeta {
                owner_id: row.owner_id.to_string(),
                slug: &row.slug,
                version: &version.version,
                published_at: version.created_at,
            };
            let bytes = Bytes::from(build_zip(&contents, &meta)?);
            state.zip_cache.insert(version.id, &row.slug, bytes.clone());
            bytes
        }
    };
    let file_name = format!("{}-{}.zip", normalize_slug(slug), version.version);
    state.responses.put_download(
        key,
        crate::app::ResolvedDownload {
            generation,
            skill_id: row.id,
            file_name: file_name.clone(),
            archive: archive.clone(),
        },
    );
    count_download(&state, row.id, actor).await;
    Ok(zip_response(&file_name, archive))
}

fn zip_response(file_name: &str, archive: Bytes) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/zip"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("attachment")),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=60"),
    );
    (StatusCode::OK, headers, archive).into_response()
}

/// Counts a download once per actor and UTC day, through the journal (`downloads.rs`):
/// no database write on the request path, never fatal.
async fn count_download(state: &AppState, skill_id: i64, actor: String) {
    let now = chrono::Utc::now().timestamp_millis();
    state
        .downloads
        .count(state.store.as_ref(), skill_id, &actor, now)
        .await;
}

/// Stars a skill.
#[utoipa::path(post, path = "/api/v1/stars/{slug}", tag = "skills",
    params(("slug" = String, Path, description = "skill slug")),
    responses((status = 200, description = "`{ok, starred, alreadyStarred}`", body = StarResponse),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn star_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let detail = find_public_skill(&state, &slug, &params).await?;
    let now = chrono::Utc::now().timestamp_millis();
    let changed = state
        .store
        .set_star(detail.skill.id, user.id, true, now)
        .await?;
    Ok(json_ok(StarResponse {
        ok: true,
        starred: changed,
        already_starred: !changed,
    }))
}

/// Removes a star.
#[utoipa::path(delete, path = "/api/v1/stars/{slug}", tag = "skills",
    params(("slug" = String, Path, description = "skill slug")),
    responses((status = 200, description = "`{ok, unstarred, alreadyUnstarred}`", body = UnstarResponse),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain")))]
pub async fn unstar_skill(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let detail = find_public_skill(&state, &slug, &params).await?;
    let now = chrono::Utc::now().timestamp_millis();
    let changed = state
        .store
        .set_star(detail.skill.id, user.id, false, now)
        .await?;
    Ok(json_ok(UnstarResponse {
        ok: true,
        unstarred: changed,
        already_unstarred: !changed,
    }))
}

/// A page of skills.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillPage {
    /// The skills of this page.
    pub items: Vec<views::SkillListItem>,
    /// Cursor of the next page, null on the last.
    pub next_cursor: Option<String>,
}

/// The skill part of the detail view.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillSummary {
    /// Slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
    /// One-line summary.
    pub summary: Option<String>,
    /// Icon URL (none here: always null).
    pub icon: Option<String>,
    /// SKILL.md of the latest version, up to 200 KiB; null when larger.
    pub description: Option<String>,
    /// Tag → version.
    #[schema(value_type = std::collections::HashMap<String, String>)]
    pub tags: views::Tags,
    /// Counters.
    pub stats: views::SkillStats,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// The skill's page.
    pub canonical_url: String,
    /// Prompt-set check of the latest version, null without prompt sets.
    pub prompt_sets: Option<views::PromptSetsMarker>,
}

/// Answer of `GET /api/v1/skills/{slug}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillDetail {
    /// The skill.
    pub skill: SkillSummary,
    /// Its newest version, null before the first publish completes.
    pub latest_version: Option<views::LatestVersion>,
    /// Runtime metadata of the latest version, or null.
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Value>,
    /// Owner.
    pub owner: views::OwnerView,
    /// Moderation state, null unless flagged.
    pub moderation: Option<views::ModerationSummary>,
}

/// Answer of `GET /api/v1/skills/{slug}/moderation`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ModerationResponse {
    /// State, outcome and evidence.
    pub moderation: views::ModerationDetails,
}

/// A version in the version list.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionItem {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
    /// Changelog text.
    pub changelog: String,
    /// `user` or `auto`.
    pub changelog_source: String,
}

/// A page of versions.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionPage {
    /// Versions, newest first.
    pub items: Vec<VersionItem>,
    /// Cursor of the next page, null on the last.
    pub next_cursor: Option<String>,
}

/// A skill named in a version or scan answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillRef {
    /// Slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
}

impl SkillRef {
    fn of(row: &SkillRow) -> Self {
        Self {
            slug: row.slug.clone(),
            display_name: row.display_name.clone(),
        }
    }
}

/// One version with its files and checks.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionDetail {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
    /// Changelog text.
    pub changelog: String,
    /// `user` or `auto`.
    pub changelog_source: String,
    /// Licence.
    pub license: String,
    /// Files of the version.
    pub files: Vec<views::FileEntry>,
    /// Security snapshot; absent when the stored scan cannot be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security: Option<views::VersionSecurity>,
    /// Prompt-set check, null without prompt sets.
    pub prompt_sets: Option<PromptSetsReport>,
}

/// Answer of `GET /api/v1/skills/{slug}/versions/{version}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VersionResponse {
    /// The skill.
    pub skill: SkillRef,
    /// The version.
    pub version: VersionDetail,
}

/// The version a scan answer is about.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScanVersion {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
    /// `user` or `auto`.
    pub changelog_source: String,
}

/// A version and when it was published.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionStamp {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
}

/// The skill-level moderation state in a scan answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScanModeration {
    /// Always `skill`: moderation applies to the whole skill.
    pub scope: String,
    /// The version whose scan decided the state, if any.
    pub source_version: Option<VersionStamp>,
    /// Whether that is the version asked about.
    pub matches_requested_version: bool,
    /// Always false: scans run at publish.
    pub is_pending_scan: bool,
    /// Blocked as malware.
    pub is_malware_blocked: bool,
    /// Flagged as suspicious.
    pub is_suspicious: bool,
    /// Hidden by a moderator.
    pub is_hidden_by_mod: bool,
    /// Soft-deleted.
    pub is_removed: bool,
}

/// Answer of `GET /api/v1/skills/{slug}/scan`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScanResponse {
    /// The skill.
    pub skill: SkillRef,
    /// The version.
    pub version: ScanVersion,
    /// Skill-level moderation.
    pub moderation: ScanModeration,
    /// Security snapshot, null when the stored scan cannot be read.
    pub security: Option<views::VersionSecurity>,
    /// Prompt-set check, null without prompt sets.
    pub prompt_sets: Option<PromptSetsReport>,
}

/// A bare version number.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VersionNumber {
    /// Semver version.
    pub version: String,
}

/// Answer of `GET /api/v1/resolve`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResolveResponse {
    /// The slug asked about, normalized.
    pub slug: String,
    /// The version whose fingerprint matches, null when none does.
    #[serde(rename = "match")]
    pub matched: Option<VersionNumber>,
    /// The latest version, null when none can be served.
    pub latest_version: Option<VersionNumber>,
}

/// Answer of `POST /api/v1/stars/{slug}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StarResponse {
    /// Always true.
    pub ok: bool,
    /// The star was added now.
    pub starred: bool,
    /// The caller had starred it before.
    pub already_starred: bool,
}

/// Answer of `DELETE /api/v1/stars/{slug}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnstarResponse {
    /// Always true.
    pub ok: bool,
    /// The star was removed now.
    pub unstarred: bool,
    /// There was no star to remove.
    pub already_unstarred: bool,
}
