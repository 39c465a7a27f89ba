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
