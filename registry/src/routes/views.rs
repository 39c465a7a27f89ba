//! JSON shapes of skills, versions and moderation shared by several handlers.

use serde_json::{Map, Value, json};

use crate::db::{FileRow, SkillDetailRow, SkillRow, VersionRow};
use crate::moderation::ScanReport;

/// The `tags` map (tag → version string) of a skill.
pub fn tags(row: &SkillRow) -> Value {
    serde_json::from_str::<Value>(&row.tags_json)
        .ok()
        .filter(Value::is_object)
        .unwrap_or_else(|| Value::Object(Map::new()))
}

/// The `stats` object of a skill.
pub fn stats(row: &SkillRow) -> Value {
    json!({
        "downloads": row.downloads,
        "stars": row.stars,
        "installs": row.installs_all_time,
        "installsCurrent": row.installs_current,
        "installsAllTime": row.installs_all_time,
        "versions": row.versions_count,
        "comments": 0,
    })
}

/// The `latestVersion` object, `None` when the skill has no latest version.
pub fn latest_version(row: &SkillRow) -> Option<Value> {
    Some(json!({
        "version": row.latest_version.as_deref()?,
        "createdAt": row.latest_created_at.unwrap_or(row.updated_at),
        "changelog": row.latest_changelog.as_deref().unwrap_or(""),
        "license": "MIT-0",
    }))
}

/// The runtime `metadata` object of the latest version, or null.
pub fn metadata(row: &SkillRow) -> Value {
    row.latest_metadata_json
        .as_deref()
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|value| value.get("setup").is_some_and(Value::is_array))
        .unwrap_or(Value::Null)
}

/// The `owner` object.
pub fn owner(row: &SkillRow) -> Value {
    json!({
        "handle": row.owner_handle,
        "userId": row.owner_id.to_string(),
        "displayName": row.owner_display_name,
        "image": row.owner_image,
    })
}

/// An item of the skill list.
pub fn list_item(row: &SkillRow) -> Value {
    let mut item = json!({
        "slug": row.slug,
        "displayName": row.display_name,
        "summary": row.summary,
        "description": row.summary,
        "tags": tags(row),
        "stats": stats(row),
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "metadata": metadata(row),
        "ownerHandle": row.owner_handle,
        "promptSets": prompt_sets_marker(row),
    });
    if let (Some(latest), Some(object)) = (latest_version(row), item.as_object_mut()) {
        object.insert("latestVersion".into(), latest);
    }
    item
}

/// Parses a stored scan report; a damaged one reads as clean with a note.
pub fn scan_report(text: &str) -> Option<ScanReport> {
    serde_json::from_str(text).ok()
}

/// The skill-level `moderation` object of the detail view (non-null only when flagged).
pub fn skill_moderation(detail: &SkillDetailRow) -> Value {
    let row = &detail.skill;
    if !row.is_suspicious && !row.is_malware_blocked {
        return Value::Null;
    }
    let report = detail.moderation_scan_json.as_deref().and_then(scan_report);
    json!({
        "isSuspicious": row.is_suspicious,
        "isMalwareBlocked": row.is_malware_blocked,
        "verdict": report.as_ref().map_or("suspicious", |r| r.verdict.as_str()),
        "reasonCodes": report.as_ref().map(|r| r.reason_codes.clone()).unwrap_or_default(),
        "summary": report.as_ref().map(|r| r.summary.clone()),
        "engineVersion": report.as_ref().map(ScanReport::engine_label),
        "updatedAt": row.moderation_updated_at,
    })
}

/// The `security` snapshot of a version, from its stored scan.
pub fn security(version: &VersionRow) -> Option<Value> {
    let report = scan_report(&version.scan_json)?;
    Some(json!({
        "status": report.verdict.as_str(),
        "hasWarnings": !report.findings.is_empty(),
        "checkedAt": version.created_at,
        "model": Value::Null,
        "hasScanResult": true,
        "sha256hash": Value::Null,
        "virustotalUrl": Value::Null,
        "scanners": {
            "static": {
                "engine": report.engine_label(),
                "verdict": report.verdict.as_str(),
                "reasonCodes": report.reason_codes,
                "findings": report.findings.len(),
                "summary": report.summary,
            }
        },
    }))
}

/// A file entry of a version.
pub fn file(file: &FileRow) -> Value {
    json!({
        "path": file.path,
        "size": file.size,
        "sha256": file.sha256,
        "contentType": file.content_type,
    })
}

/// The `promptSets` marker of a listed skill: `{status: "valid"|"invalid"}` for a skill
/// whose latest version contains prompt sets, null otherwise.
pub fn prompt_sets_marker(row: &SkillRow) -> Value {
    match row.prompt_sets_status.as_deref() {
        Some(status) => json!({ "status": status }),
        None => Value::Null,
    }
}

/// The canonical page of a skill, `{base_url}/<owner>/<slug>`, as the seed asks every
/// listing to link.
pub fn canonical_url(base: &str, row: &SkillRow) -> String {
    format!("{base}/{}/{}", row.owner_handle, row.slug)
}

/// Adds `canonicalUrl` to a JSON object describing `row`.
pub fn with_canonical_url(mut item: Value, base: &str, row: &SkillRow) -> Value {
    if let Some(object) = item.as_object_mut() {
        object.insert(
            "canonicalUrl".into(),
            Value::String(canonical_url(base, row)),
        );
    }
    item
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

/// The `promptSets` check of a version (see `skills::promptsets`), null without sets.
pub fn prompt_sets(version: &VersionRow) -> Value {
    version
        .prompt_sets_json
        .as_deref()
        .and_then(crate::skills::promptsets::parse)
        .and_then(|report| serde_json::to_value(report).ok())
        .unwrap_or(Value::Null)
}
