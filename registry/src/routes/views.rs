//! The JSON shapes of skills, versions and moderation that several handlers share, as
//! typed structs: the handlers build them, serde writes them, and utoipa describes the
//! same types in `/api/v1/openapi.json`, so the document cannot drift from the wire.

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::db::{FileRow, SkillDetailRow, SkillRow, VersionRow};
use crate::moderation::{Finding, ScanReport};
use crate::skills::promptsets::PromptSetsReport;

/// Tag → version string, in the order the publisher set them.
pub type Tags = Map<String, Value>;

/// The `tags` map (tag → version string) of a skill.
pub fn tags(row: &SkillRow) -> Tags {
    serde_json::from_str::<Tags>(&row.tags_json).unwrap_or_default()
}

/// Counters of a skill.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillStats {
    /// Downloads of any version.
    pub downloads: i64,
    /// Stars.
    pub stars: i64,
    /// Installs (all time; kept for older clients).
    pub installs: i64,
    /// Installs reported as current.
    pub installs_current: i64,
    /// Installs ever reported.
    pub installs_all_time: i64,
    /// Published versions.
    pub versions: i64,
    /// Comments (this registry has none).
    pub comments: i64,
}

/// The `stats` object of a skill.
pub fn stats(row: &SkillRow) -> SkillStats {
    SkillStats {
        downloads: row.downloads,
        stars: row.stars,
        installs: row.installs_all_time,
        installs_current: row.installs_current,
        installs_all_time: row.installs_all_time,
        versions: row.versions_count,
        comments: 0,
    }
}

/// The newest version of a skill, in lists and the detail view.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LatestVersion {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
    /// Changelog text (may be empty).
    pub changelog: String,
    /// Licence of every published version.
    pub license: String,
}

/// The `latestVersion` object, `None` when the skill has no latest version.
pub fn latest_version(row: &SkillRow) -> Option<LatestVersion> {
    Some(LatestVersion {
        version: row.latest_version.clone()?,
        created_at: row.latest_created_at.unwrap_or(row.updated_at),
        changelog: row.latest_changelog.clone().unwrap_or_default(),
        license: "MIT-0".into(),
    })
}

/// The runtime `metadata` object of the latest version (`{setup: [...], ...}` as the
/// publisher's SKILL.md declares it), or null.
pub fn metadata(row: &SkillRow) -> Option<Value> {
    row.latest_metadata_json
        .as_deref()
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|value| value.get("setup").is_some_and(Value::is_array))
}

/// The owner of a skill.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerView {
    /// Handle.
    pub handle: String,
    /// User id, as a string.
    pub user_id: String,
    /// Display name.
    pub display_name: Option<String>,
    /// Avatar URL.
    pub image: Option<String>,
}

/// The `owner` object.
pub fn owner(row: &SkillRow) -> OwnerView {
    OwnerView {
        handle: row.owner_handle.clone(),
        user_id: row.owner_id.to_string(),
        display_name: row.owner_display_name.clone(),
        image: row.owner_image.clone(),
    }
}

/// Whether the prompt sets of a skill's latest version validate.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PromptSetsMarker {
    /// `valid` or `invalid`.
    pub status: String,
}

/// An item of the skill list.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillListItem {
    /// Slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
    /// One-line summary.
    pub summary: Option<String>,
    /// The summary again (older clients read `description`).
    pub description: Option<String>,
    /// Tag → version.
    #[schema(value_type = std::collections::HashMap<String, String>)]
    pub tags: Tags,
    /// Counters.
    pub stats: SkillStats,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// Runtime metadata of the latest version, or null.
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Value>,
    /// Owner handle.
    pub owner_handle: String,
    /// Prompt-set check of the latest version, null without prompt sets.
    pub prompt_sets: Option<PromptSetsMarker>,
    /// The newest version; absent before the first publish completes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_version: Option<LatestVersion>,
    /// The skill's page.
    pub canonical_url: String,
}

/// An item of the skill list, linking to its page under `base`.
pub fn list_item(row: &SkillRow, base: &str) -> SkillListItem {
    SkillListItem {
        slug: row.slug.clone(),
        display_name: row.display_name.clone(),
        summary: row.summary.clone(),
        description: row.summary.clone(),
        tags: tags(row),
        stats: stats(row),
        created_at: row.created_at,
        updated_at: row.updated_at,
        metadata: metadata(row),
        owner_handle: row.owner_handle.clone(),
        prompt_sets: prompt_sets_marker(row),
        latest_version: latest_version(row),
        canonical_url: canonical_url(base, row),
    }
}

/// Parses a stored scan report; a damaged one reads as clean with a note.
pub fn scan_report(text: &str) -> Option<ScanReport> {
    serde_json::from_str(text).ok()
}

/// The skill-level moderation state of the detail view.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModerationSummary {
    /// Flagged as suspicious.
    pub is_suspicious: bool,
    /// Blocked as malware.
    pub is_malware_blocked: bool,
    /// `clean`, `suspicious` or `malicious`.
    pub verdict: String,
    /// Reason codes of the findings that count.
    pub reason_codes: Vec<String>,
    /// One sentence on the outcome.
    pub summary: Option<String>,
    /// Scanner name and version.
    pub engine_version: Option<String>,
    /// Last moderation change, ms since the epoch.
    pub updated_at: Option<i64>,
}

/// The skill-level `moderation` object of the detail view (`Some` only when flagged).
pub fn skill_moderation(detail: &SkillDetailRow) -> Option<ModerationSummary> {
    let row = &detail.skill;
    if !row.is_suspicious && !row.is_malware_blocked {
        return None;
    }
    let report = detail.moderation_scan_json.as_deref().and_then(scan_report);
    Some(moderation_summary(row, report.as_ref(), "suspicious"))
}

/// The moderation state of `row` from its scan `report`, `verdict` when there is none.
pub fn moderation_summary(
    row: &SkillRow,
    report: Option<&ScanReport>,
    verdict: &str,
) -> ModerationSummary {
    ModerationSummary {
        is_suspicious: row.is_suspicious,
        is_malware_blocked: row.is_malware_blocked,
        verdict: report.map_or(verdict, |r| r.verdict.as_str()).to_owned(),
        reason_codes: report.map(|r| r.reason_codes.clone()).unwrap_or_default(),
        summary: report.map(|r| r.summary.clone()),
        engine_version: report.map(ScanReport::engine_label),
        updated_at: row.moderation_updated_at,
    }
}

/// The moderation details of a skill, with the evidence the caller may see.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModerationDetails {
    /// The state and the scan's outcome.
    #[serde(flatten)]
    pub summary: ModerationSummary,
    /// Free-text reason of older moderation (always null here).
    #[schema(value_type = Option<String>)]
    pub legacy_reason: Option<String>,
    /// Findings: all of them for the owner and staff, the public ones for others.
    pub evidence: Vec<Finding>,
}

/// The outcome of the static scanner.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaticScanner {
    /// Scanner name and version.
    pub engine: String,
    /// `clean`, `suspicious` or `malicious`.
    pub verdict: String,
    /// Reason codes of the findings that count.
    pub reason_codes: Vec<String>,
    /// How many findings there are.
    pub findings: usize,
    /// One sentence on the outcome.
    pub summary: String,
}

/// Scanners that looked at a version.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Scanners {
    /// The built-in static scanner.
    #[serde(rename = "static")]
    pub static_scan: StaticScanner,
}

/// The security snapshot of a version.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionSecurity {
    /// `clean`, `suspicious` or `malicious`.
    pub status: String,
    /// Whether the scan found anything at all.
    pub has_warnings: bool,
    /// When the scan ran (at publish), ms since the epoch.
    pub checked_at: i64,
    /// LLM reviewer (none here: always null).
    pub model: Option<String>,
    /// Always true: every version is scanned at publish.
    pub has_scan_result: bool,
    /// Archive hash for an external scanner (none here: always null).
    pub sha256hash: Option<String>,
    /// External scanner report (none here: always null).
    pub virustotal_url: Option<String>,
    /// Per-scanner outcome.
    pub scanners: Scanners,
}

/// The `security` snapshot of a version, from its stored scan.
pub fn security(version: &VersionRow) -> Option<VersionSecurity> {
    let report = scan_report(&version.scan_json)?;
    Some(VersionSecurity {
        status: report.verdict.as_str().to_owned(),
        has_warnings: !report.findings.is_empty(),
        checked_at: version.created_at,
        model: None,
        has_scan_result: true,
        sha256hash: None,
        virustotal_url: None,
        scanners: Scanners {
            static_scan: StaticScanner {
                engine: report.engine_label(),
                verdict: report.verdict.as_str().to_owned(),
                findings: report.findings.len(),
                reason_codes: report.reason_codes,
                summary: report.summary,
            },
        },
    })
}

/// A file of a version.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileEntry {
    /// Path inside the skill.
    pub path: String,
    /// Size in bytes.
    pub size: i64,
    /// SHA-256, hex.
    pub sha256: String,
    /// Declared content type.
    pub content_type: Option<String>,
}

/// A file entry of a version.
pub fn file(file: &FileRow) -> FileEntry {
    FileEntry {
        path: file.path.clone(),
        size: file.size,
        sha256: file.sha256.clone(),
        content_type: file.content_type.clone(),
    }
}

/// The `promptSets` marker of a listed skill: `{status: "valid"|"invalid"}` for a skill
/// whose latest version contains prompt sets, `None` otherwise.
pub fn prompt_sets_marker(row: &SkillRow) -> Option<PromptSetsMarker> {
    row.prompt_sets_status
        .as_ref()
        .map(|status| PromptSetsMarker {
            status: status.clone(),
        })
}

/// The canonical page of a skill, `{base_url}/<owner>/<slug>`, as the seed asks every
/// listing to link.
pub fn canonical_url(base: &str, row: &SkillRow) -> String {
    format!("{base}/{}/{}", row.owner_handle, row.slug)
}

/// The response-cache key of a read whose body holds absolute URLs: without a configured
/// public URL those come from the request's `Host`, so the host is part of the key (a
/// request with a forged `Host` must not put its links in everyone's answer).
pub fn cache_key_uri(
    public_url_configured: bool,
    headers: &axum::http::HeaderMap,
    uri: &axum::http::Uri,
) -> axum::http::Uri {
    if public_url_configured {
        return uri.clone();
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    let encoded = percent_encoding::utf8_percent_encode(host, percent_encoding::NON_ALPHANUMERIC);
    let path_and_query = uri.path_and_query().map_or("/", |pq| pq.as_str());
    format!("/@host={encoded}{path_and_query}")
        .parse()
        .unwrap_or_else(|_| uri.clone())
}

/// The `promptSets` check of a version (see `skills::promptsets`), `None` without sets.
pub fn prompt_sets(version: &VersionRow) -> Option<PromptSetsReport> {
    version
        .prompt_sets_json
        .as_deref()
        .and_then(crate::skills::promptsets::parse)
}
