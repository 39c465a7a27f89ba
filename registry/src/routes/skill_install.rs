//! What an installing agent asks before it installs a skill: the install resolution
//! (`/skills/{slug}/install`), per-version security verdicts in a batch
//! (`/skills/-/security-verdicts`), the verification envelope (`/skills/{slug}/verify`) and
//! the trending list (`/trending`).
//!
//! The shapes follow what the OpenClaw agent (`openclaw@2026.9.6`) reads: it refuses a
//! verdict without a non-empty `overview` and `securityAuditUrl`, without the requested
//! identity echoed back, or whose publisher differs from the owner it asked for. Every
//! answer is computed from the stored scan of the version (see [`crate::moderation`]);
//! nothing here is a fixed "pass".

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::app::AppState;
use crate::db::{ListQuery, ListSort, SkillRow, VersionRow};
use crate::error::{AppError, AppResult};
use crate::extract::{AppJson, AppPath, Params};
use crate::moderation::{ScanReport, Verdict};
use crate::routes::{base_url, json_ok, skills, views};
use crate::skills::Visibility;

/// Largest batch of the security-verdicts route (the agent sends at most 100).
const MAX_VERDICT_ITEMS: usize = 100;
/// Trending looks at installs of the last seven days.
const TRENDING_WINDOW_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// The schema name of the verification envelope.
const VERIFY_SCHEMA: &str = "clawhub.skill.verify.v1";

/// Refusal of the install resolver: JSON (not plain text), because the agent reads
/// 403/409/410/423 bodies as structured refusals.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallRefusal {
    /// Always false.
    pub ok: bool,
    /// The requested slug.
    pub slug: String,
    /// Stable reason code (`blocked`, `version_blocked`, `archive_version_missing`,
    /// `suspicious_requires_force`, `reference_unsupported`).
    pub reason: String,
    /// A sentence for people.
    pub message: String,
    /// The HTTP status of the answer.
    pub status: u16,
}

/// Where to fetch the archive of the resolved version.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallArchive {
    /// The version to install.
    pub version: String,
    /// Absolute URL of the deterministic ZIP of that version.
    pub download_url: String,
    /// Archive format, always `zip`.
    pub format: String,
    /// Bundle fingerprint of the version (what `/api/v1/resolve` matches).
    pub fingerprint: String,
}

/// Scan state of the resolved version as the installer should present it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallTrust {
    /// `scanned-by-clawhub`: this registry scanned the files it serves.
    pub state: String,
    /// Scan verdict: `clean`, `suspicious` or `malicious`.
    pub scan_status: String,
}

/// A successful install resolution.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallResolution {
    /// Always true.
    pub ok: bool,
    /// Canonical slug.
    pub slug: String,
    /// Owner handle of the skill.
    pub owner_handle: String,
    /// Always `archive`: skills are served from this registry's own archive.
    pub install_kind: String,
    /// The archive to download.
    pub archive: InstallArchive,
    /// Scan state of the version.
    pub trust: InstallTrust,
}

/// Resolves what `install SLUG` (without a version) installs: the latest version, unless
/// the skill or that version is blocked, has no version, or is suspicious without
/// `forceInstall`.
#[utoipa::path(get, path = "/api/v1/skills/{slug}/install", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier"),
           ("reference" = Option<String>, Query, description = "external source reference (not supported here: 409)"),
           ("forceInstall" = Option<bool>, Query, description = "install a suspicious version anyway")),
    responses((status = 200, description = "the resolution", body = InstallResolution),
              (status = 403, description = "blocked skill or version", body = InstallRefusal),
              (status = 404, description = "`Skill not found`", body = String, content_type = "text/plain"),
              (status = 409, description = "no installable version, suspicious without `forceInstall`, or an external reference", body = InstallRefusal)))]
pub async fn resolve_install(
    State(state): State<AppState>,
    headers: HeaderMap,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let force = params.flag("forceInstall")?;
    let detail = skills::find_public_skill(&state, &slug, &params).await?;
    let row = &detail.skill;
    let refuse = |status: StatusCode, reason: &str, message: &str| {
        let body = InstallRefusal {
            ok: false,
            slug: row.slug.clone(),
            reason: reason.to_owned(),
            message: message.to_owned(),
            status: status.as_u16(),
        };
        Ok((status, axum::Json(body)).into_response())
    };
    if params.text("reference").is_some() {
        return refuse(
            StatusCode::CONFLICT,
            "reference_unsupported",
            "This registry serves only its own published skills; external references cannot be resolved.",
        );
    }
    if !Visibility::of(row).is_downloadable() {
        return refuse(StatusCode::FORBIDDEN, "blocked", skills::BLOCKED_SKILL);
    }
    let Some(version) = latest_version(&state, row).await? else {
        return refuse(
            StatusCode::CONFLICT,
            "archive_version_missing",
            "This skill has no installable version.",
        );
    };
    let report = views::scan_report(&version.scan_json);
    let verdict = report.as_ref().map_or(Verdict::Clean, |r| r.verdict);
    if verdict == Verdict::Malicious {
        return refuse(
            StatusCode::FORBIDDEN,
            "version_blocked",
            skills::BLOCKED_VERSION,
        );
    }
    if verdict == Verdict::Suspicious && !force {
        return refuse(
            StatusCode::CONFLICT,
            "suspicious_requires_force",
            "The latest version of this skill was flagged as suspicious by the security scan; review it and install with force to proceed.",
        );
    }
    let base = base_url(&state, &headers);
    let download_url = format!(
        "{base}/api/v1/download?slug={}&ownerHandle={}&version={}",
        encode(&row.slug),
        encode(&row.owner_handle),
        encode(&version.version)
    );
    Ok(json_ok(&InstallResolution {
        ok: true,
        slug: row.slug.clone(),
        owner_handle: row.owner_handle.clone(),
        install_kind: "archive".into(),
        archive: InstallArchive {
            version: version.version.clone(),
            download_url,
            format: "zip".into(),
            fingerprint: version.fingerprint.clone(),
        },
        trust: InstallTrust {
            state: "scanned-by-clawhub".into(),
            scan_status: verdict.as_str().into(),
        },
    }))
}

/// One requested verdict.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerdictTarget {
    /// Skill slug.
    pub slug: String,
    /// Owner the caller expects (with or without `@`).
    #[serde(default)]
    pub owner_handle: Option<String>,
    /// Exact version.
    pub version: String,
}

/// Body of `POST /api/v1/skills/-/security-verdicts`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct VerdictsRequest {
    /// Up to 100 targets.
    pub items: Vec<VerdictTarget>,
}

/// The scan result of one version in the verdict and verify envelopes.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerdictSecurity {
    /// `clean`, `suspicious` or `malicious`.
    pub status: String,
    /// True only for a clean scan.
    pub passed: bool,
    /// When the scan ran (the version's publish time), Unix ms.
    pub checked_at: i64,
    /// True when the scan recorded any finding, informational ones included.
    pub has_warnings: bool,
    /// `name/version` of the scanner.
    pub engine: String,
}

/// Why a verdict could not be given.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VerdictError {
    /// `skill_not_found` or `version_not_found`.
    pub code: String,
    /// A sentence for people.
    pub message: String,
}

/// One answered verdict; the `requested*` fields echo the target so a client can match
/// answers to requests.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityVerdict {
    /// True when the version may be installed without review.
    pub ok: bool,
    /// `pass`, `review` (suspicious), `blocked` (malicious) or `fail` (not found).
    pub decision: String,
    /// Reason codes of the scan (or `skill.not_found` / `version.not_found`).
    pub reasons: Vec<String>,
    /// The requested slug.
    pub requested_slug: String,
    /// The requested owner, normalised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_owner_handle: Option<String>,
    /// The requested version.
    pub requested_version: String,
    /// The resolved slug, null when not found.
    pub slug: Option<String>,
    /// The resolved version, null when not found.
    pub version: Option<String>,
    /// Display name of the skill.
    pub display_name: Option<String>,
    /// Handle of the owner.
    pub publisher_handle: Option<String>,
    /// Display name of the owner.
    pub publisher_display_name: Option<String>,
    /// Publish time of the version, Unix ms.
    pub created_at: Option<i64>,
    /// The skill's API detail URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_url: Option<String>,
    /// Where the full scan report of this version is served.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_audit_url: Option<String>,
    /// One paragraph summarising the scan for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overview: Option<String>,
    /// The scan result, null when not found.
    pub security: Option<VerdictSecurity>,
    /// Why there is no verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<VerdictError>,
}

/// Answer of the security-verdicts route, in request order.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VerdictsResponse {
    /// One verdict per requested item.
    pub items: Vec<SecurityVerdict>,
}

/// Security verdicts of exact skill versions, in a batch.
#[utoipa::path(post, path = "/api/v1/skills/-/security-verdicts", tag = "skills",
    request_body = VerdictsRequest,
    responses((status = 200, description = "one verdict per item, in request order", body = VerdictsResponse),
              (status = 400, description = "invalid JSON, no items, more than 100 items, or an empty slug/version", body = String, content_type = "text/plain")))]
pub async fn security_verdicts(
    State(state): State<AppState>,
    headers: HeaderMap,
    AppJson(request): AppJson<VerdictsRequest>,
) -> AppResult<Response> {
    if request.items.is_empty() {
        return Err(AppError::bad_request("items must not be empty"));
    }
    if request.items.len() > MAX_VERDICT_ITEMS {
        return Err(AppError::bad_request(format!(
            "At most {MAX_VERDICT_ITEMS} items per request"
        )));
    }
    let base = base_url(&state, &headers);
    let mut items = Vec::with_capacity(request.items.len());
    for target in &request.items {
        if target.slug.trim().is_empty() || target.version.trim().is_empty() {
            return Err(AppError::bad_request(
                "Every item needs a slug and a version",
            ));
        }
        items.push(verdict_for(&state, &base, target).await?);
    }
    Ok(json_ok(&VerdictsResponse { items }))
}

async fn verdict_for(
    state: &AppState,
    base: &str,
    target: &VerdictTarget,
) -> AppResult<SecurityVerdict> {
    let owner = target
        .owner_handle
        .as_deref()
        .map(|handle| handle.trim().trim_start_matches('@').to_ascii_lowercase())
        .filter(|handle| !handle.is_empty());
    let requested_version = target.version.trim().to_owned();
    let missing = |code: &str, reason: &str, message: &str| SecurityVerdict {
        ok: false,
        decision: "fail".into(),
        reasons: vec![reason.into()],
        requested_slug: target.slug.trim().to_owned(),
        requested_owner_handle: owner.clone(),
        requested_version: requested_version.clone(),
        slug: None,
        version: None,
        display_name: None,
        publisher_handle: None,
        publisher_display_name: None,
        created_at: None,
        skill_url: None,
        security_audit_url: None,
        overview: None,
        security: None,
        error: Some(VerdictError {
            code: code.into(),
            message: message.into(),
        }),
    };
    let params = Params(
        owner
            .iter()
            .map(|handle| ("ownerHandle".to_owned(), handle.clone()))
            .collect(),
    );
    let detail = match skills::find_public_skill(state, &target.slug, &params).await {
        Ok(detail) => detail,
        Err(AppError::NotFound(_)) => {
            return Ok(missing(
                "skill_not_found",
                "skill.not_found",
                "Skill not found",
            ));
        }
        Err(error) => return Err(error),
    };
    let row = &detail.skill;
    let version = match state.store.find_version(row.id, &requested_version).await? {
        Some(version) if version.soft_deleted_at.is_none() => version,
        _ => {
            return Ok(missing(
                "version_not_found",
                "version.not_found",
                "Version not found",
            ));
        }
    };
    let assessment = Assessment::of(row, &version);
    Ok(SecurityVerdict {
        ok: assessment.decision == "pass",
        decision: assessment.decision.into(),
        reasons: assessment.reasons.clone(),
        requested_slug: target.slug.trim().to_owned(),
        requested_owner_handle: owner.clone(),
        requested_version,
        slug: Some(row.slug.clone()),
        version: Some(version.version.clone()),
        display_name: Some(row.display_name.clone()),
        publisher_handle: Some(row.owner_handle.clone()),
        publisher_display_name: row.owner_display_name.clone(),
        created_at: Some(version.created_at),
        skill_url: Some(skill_url(base, row)),
        security_audit_url: Some(audit_url(base, row, &version)),
        overview: Some(assessment.overview.clone()),
        security: Some(assessment.security()),
        error: None,
    })
}

/// The security judgement of one version, from its stored scan and the skill's
/// moderation state.
struct Assessment {
    verdict: Verdict,
    decision: &'static str,
    reasons: Vec<String>,
    overview: String,
    checked_at: i64,
    has_warnings: bool,
    engine: String,
}

impl Assessment {
    fn of(row: &SkillRow, version: &VersionRow) -> Self {
        let report: Option<ScanReport> = views::scan_report(&version.scan_json);
        let mut verdict = report.as_ref().map_or(Verdict::Clean, |r| r.verdict);
        let mut reasons: Vec<String> = report
            .as_ref()
            .map(|r| r.reason_codes.clone())
            .unwrap_or_default();
        // A skill blocked as malware stays blocked whatever version is asked for: the
        // moderation verdict covers the skill, not only the version it was computed on.
        if row.is_malware_blocked && verdict != Verdict::Malicious {
            verdict = Verdict::Malicious;
            reasons.push("skill.malware_blocked".into());
        }
        let decision = match verdict {
            Verdict::Clean => "pass",
            Verdict::Suspicious => "review",
            Verdict::Malicious => "blocked",
        };
        if verdict == Verdict::Malicious && !reasons.iter().any(|r| r == "scan:malicious") {
            reasons.insert(0, "scan:malicious".into());
        }
        let summary = report.as_ref().map_or_else(
            || "No scan report is stored for this version.".to_owned(),
            |r| r.summary.clone(),
        );
        let findings = report.as_ref().map_or(0, |r| r.findings.len());
        let engine = report
            .as_ref()
            .map_or_else(String::new, ScanReport::engine_label);
        let overview = if engine.is_empty() {
            summary
        } else {
            format!("{summary} Verdict: {} ({engine}).", verdict.as_str())
        };
        Self {
            verdict,
            decision,
            reasons,
            overview,
            checked_at: version.created_at,
            has_warnings: findings > 0,
            engine,
        }
    }

    fn security(&self) -> VerdictSecurity {
        VerdictSecurity {
            status: self.verdict.as_str().into(),
            passed: self.verdict == Verdict::Clean,
            checked_at: self.checked_at,
            has_warnings: self.has_warnings,
            engine: self.engine.clone(),
        }
    }
}

/// What a query value or path segment may keep unescaped (RFC 3986 unreserved).
const UNRESERVED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, UNRESERVED).to_string()
}

fn skill_url(base: &str, row: &SkillRow) -> String {
    format!(
        "{base}/api/v1/skills/{}?ownerHandle={}",
        encode(&row.slug),
        encode(&row.owner_handle)
    )
}

fn audit_url(base: &str, row: &SkillRow, version: &VersionRow) -> String {
    format!(
        "{base}/api/v1/skills/{}/scan?ownerHandle={}&version={}",
        encode(&row.slug),
        encode(&row.owner_handle),
        encode(&version.version)
    )
}

async fn latest_version(state: &AppState, row: &SkillRow) -> AppResult<Option<VersionRow>> {
    let Some(id) = row.latest_version_id else {
        return Ok(None);
    };
    Ok(state
        .store
        .find_version_by_id(id)
        .await?
        .filter(|version| version.soft_deleted_at.is_none()))
}

/// The skill a verification envelope names.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifySkill {
    /// Canonical slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
}

/// The publisher a verification envelope names.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyPublisher {
    /// Owner handle.
    pub handle: String,
    /// Owner display name.
    pub display_name: Option<String>,
}

/// What the verified artifact is.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyArtifact {
    /// `skill-bundle`: the files of a version, served as a deterministic ZIP.
    pub kind: String,
    /// Bundle fingerprint of the version.
    pub fingerprint: String,
    /// Number of files.
    pub file_count: usize,
    /// Where to download it.
    pub download_url: String,
}

/// The verification envelope of one version (`schema: clawhub.skill.verify.v1`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyResponse {
    /// Always `clawhub.skill.verify.v1`.
    pub schema: String,
    /// True when the version passed the scan.
    pub ok: bool,
    /// `pass`, `review` or `blocked`.
    pub decision: String,
    /// Reason codes; `card.missing` is listed because this registry keeps no skill cards.
    pub reasons: Vec<String>,
    /// Canonical slug.
    pub slug: String,
    /// The verified version.
    pub version: String,
    /// Display name of the skill.
    pub display_name: String,
    /// Owner handle.
    pub publisher_handle: String,
    /// Publish time of the version, Unix ms.
    pub created_at: i64,
    /// The skill's API detail URL.
    pub page_url: String,
    /// Where the scan report of this version is served.
    pub security_audit_url: String,
    /// The skill.
    pub skill: VerifySkill,
    /// Its owner.
    pub publisher: VerifyPublisher,
    /// The artifact.
    pub artifact: VerifyArtifact,
    /// The scan result.
    pub security: VerdictSecurity,
    /// Skill card: none is kept here.
    pub card: Option<serde_json::Value>,
    /// Provenance: none is recorded here (skills are uploaded, not imported).
    pub provenance: Option<serde_json::Value>,
    /// Signature: skills are not signed here.
    pub signature: Option<serde_json::Value>,
}

/// The verification envelope of a version (latest, or `version` / `tag`).
#[utoipa::path(get, path = "/api/v1/skills/{slug}/verify", tag = "skills",
    params(("slug" = String, Path, description = "skill slug"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier"),
           ("version" = Option<String>, Query, description = "exact version"),
           ("tag" = Option<String>, Query, description = "tag instead of a version")),
    responses((status = 200, description = "the envelope", body = VerifyResponse),
              (status = 404, description = "`Skill not found` or `Version not found`", body = String, content_type = "text/plain"),
              (status = 410, description = "`Version not available`", body = String, content_type = "text/plain")))]
pub async fn verify_skill(
    State(state): State<AppState>,
    headers: HeaderMap,
    AppPath(slug): AppPath<String>,
    params: Params,
) -> AppResult<Response> {
    let detail = skills::find_public_skill(&state, &slug, &params).await?;
    let row = &detail.skill;
    let version = skills::select_version(&state, row, &params, false).await?;
    let files = state.store.version_files(version.id).await?;
    let base = base_url(&state, &headers);
    let assessment = Assessment::of(row, &version);
    let mut reasons = assessment.reasons.clone();
    reasons.push("card.missing".into());
    let response = VerifyResponse {
        schema: VERIFY_SCHEMA.into(),
        ok: assessment.decision == "pass",
        decision: assessment.decision.into(),
        reasons,
        slug: row.slug.clone(),
        version: version.version.clone(),
        display_name: row.display_name.clone(),
        publisher_handle: row.owner_handle.clone(),
        created_at: version.created_at,
        page_url: skill_url(&base, row),
        security_audit_url: audit_url(&base, row, &version),
        skill: VerifySkill {
            slug: row.slug.clone(),
            display_name: row.display_name.clone(),
        },
        publisher: VerifyPublisher {
            handle: row.owner_handle.clone(),
            display_name: row.owner_display_name.clone(),
        },
        artifact: VerifyArtifact {
            kind: "skill-bundle".into(),
            fingerprint: version.fingerprint.clone(),
            file_count: files.len(),
            download_url: format!(
                "{base}/api/v1/download?slug={}&ownerHandle={}&version={}",
                encode(&row.slug),
                encode(&row.owner_handle),
                encode(&version.version)
            ),
        },
        security: assessment.security(),
        card: None,
        provenance: None,
        signature: None,
    };
    Ok(json_ok(&response))
}

/// Publisher of a trending item.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingPublisher {
    /// Owner handle.
    pub handle: String,
    /// Owner display name.
    pub display_name: Option<String>,
}

/// How to install a trending item.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TrendingInstall {
    /// Always `clawhub`: served by this registry.
    pub kind: String,
}

/// Counters of a trending item.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingMetrics {
    /// Installs of the last seven days.
    pub installs_current: i64,
    /// Installs ever.
    pub installs_all_time: i64,
    /// Downloads ever.
    pub downloads: i64,
    /// Stars.
    pub stars: i64,
    /// Last update, Unix ms.
    pub updated_at: i64,
}

/// One trending skill.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingItem {
    /// `skill`.
    pub kind: String,
    /// Skill slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
    /// Summary.
    pub summary: Option<String>,
    /// Latest version.
    pub latest_version: Option<String>,
    /// `clawhub`: published to this registry.
    pub source: String,
    /// How to install it.
    pub install: TrendingInstall,
    /// Never true here: there is no official channel.
    pub official: bool,
    /// Its owner.
    pub publisher: TrendingPublisher,
    /// Its counters.
    pub metrics: TrendingMetrics,
}

/// Answer of `/api/v1/trending`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TrendingResponse {
    /// Most installed in the last seven days first.
    pub items: Vec<TrendingItem>,
}

/// Skills with the most installs in the last seven days.
#[utoipa::path(get, path = "/api/v1/trending", tag = "skills",
    params(("kind" = Option<String>, Query, description = "`skills` (the default; the only kind served)"),
           ("limit" = Option<i64>, Query, description = "items, 1-100 (default 20)")),
    responses((status = 200, description = "trending skills", body = TrendingResponse),
              (status = 400, description = "`Invalid kind` or an invalid limit", body = String, content_type = "text/plain")))]
pub async fn trending(State(state): State<AppState>, params: Params) -> AppResult<Response> {
    match params.text("kind") {
        None | Some("skills" | "skill") => {}
        Some(_) => return Err(AppError::bad_request("Invalid kind")),
    }
    let limit = params.clamped("limit", 20, 1, 100)?;
    let rows = state
        .store
        .list_skills(&ListQuery {
            sort: ListSort::Trending,
            after: None,
            limit,
            non_suspicious_only: false,
            valid_prompt_sets_only: false,
            prefix: None,
            trending_since: chrono::Utc::now().timestamp_millis() - TRENDING_WINDOW_MS,
        })
        .await?;
    let items = rows
        .iter()
        .take(usize::try_from(limit).unwrap_or(20))
        .map(|row| TrendingItem {
            kind: "skill".into(),
            slug: row.slug.clone(),
            display_name: row.display_name.clone(),
            summary: row.summary.clone(),
            latest_version: row.latest_version.clone(),
            source: "clawhub".into(),
            install: TrendingInstall {
                kind: "clawhub".into(),
            },
            official: false,
            publisher: TrendingPublisher {
                handle: row.owner_handle.clone(),
                display_name: row.owner_display_name.clone(),
            },
            metrics: TrendingMetrics {
                installs_current: row.installs_current,
                installs_all_time: row.installs_all_time,
                downloads: row.downloads,
                stars: row.stars,
                updated_at: row.updated_at,
            },
        })
        .collect();
    Ok(json_ok(&TrendingResponse { items }))
}
