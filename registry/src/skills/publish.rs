//! Publishing a skill version: a typed [`PublishRequest`] and its files in, the new
//! version decided (owner, slug, semver, files, SKILL.md, scan, fingerprint) and stored.
//!
//! Surfaces only extract the request (JSON with upload tickets, or multipart) and render
//! [`Published`]; everything is validated before anything is stored, and blobs are written
//! before the single database transaction, so a failed publish leaves no rows behind.

use std::collections::HashSet;

use axum::body::Bytes;

use crate::bundle::{
    self, MAX_BUNDLE_BYTES, MAX_FILE_BYTES, PathProblem, is_skill_md, normalize_path,
    normalize_slug,
};
use crate::db::{FileRow, NewVersion, PublishOutcome, Store, User};
use crate::error::{AppError, AppResult};
use crate::moderation::{self, ScanFile};
use crate::policy::{self, SkillAction};
use crate::skills::promptsets;
use crate::storage::{Storage, sha256_hex};

/// The fields of a publish, whichever way they arrived.
#[derive(Debug, Default)]
pub struct PublishRequest {
    /// Requested slug (normalised here).
    pub slug: String,
    /// Display name.
    pub display_name: String,
    /// Publisher handle the caller publishes for, when given.
    pub owner_handle: Option<String>,
    /// Semver version.
    pub version: String,
    /// Changelog text.
    pub changelog: String,
    /// The MIT-0 terms were accepted.
    pub accept_license_terms: bool,
    /// Tags to point at the version.
    pub tags: Vec<String>,
}

/// One file of a publish, with its bytes.
#[derive(Debug)]
pub struct IncomingFile {
    /// Relative path as sent.
    pub path: String,
    /// Contents.
    pub bytes: Bytes,
    /// Declared content type.
    pub content_type: Option<String>,
}

/// A stored version.
#[derive(Debug)]
pub struct Published {
    /// Skill id.
    pub skill_id: i64,
    /// Version id.
    pub version_id: i64,
    /// Canonical slug.
    pub slug: String,
    /// Normalised version string.
    pub version: String,
}

/// Validates a bundle, scans it, stores its blobs (when `store_blobs`) and commits it.
#[allow(
    clippy::too_many_arguments,
    reason = "one call per surface; a struct would only rename them"
)]
pub async fn publish(
    store: &dyn Store,
    storage: &dyn Storage,
    user: &User,
    payload: PublishRequest,
    files: Vec<IncomingFile>,
    tickets: Vec<String>,
    store_blobs: bool,
) -> AppResult<Published> {
    if let Some(owner) = payload
        .owner_handle
        .as_deref()
        .map(|h| h.trim().trim_start_matches('@').to_ascii_lowercase())
        && !owner.is_empty()
        && owner != user.handle
    {
        return Err(match store.find_user(&owner).await? {
            Some(_) => AppError::BadRequest(format!(
                "You do not have publish access for \"@{owner}\". Ask an owner or admin of \"@{owner}\" to add you."
            )),
            None => AppError::BadRequest(format!(
                "Publisher \"@{owner}\" not found. Create the \"@{owner}\" organization on ClawHub or choose a different owner."
            )),
        });
    }
    let slug = normalize_slug(&payload.slug);
    let mut existing = store.find_skill(&slug).await?;
    if let Some(skill) = &existing
        && !policy::may(Some(user), SkillAction::PublishVersion, &skill.skill)
    {
        // Someone else's skill: taken, unless it is an owner-deleted one whose slug hold
        // has ended (then released here, and this publish starts a new skill).
        if !crate::skills::lifecycle::claim_held_slug(store, user, &skill.skill, &slug).await? {
            return Err(AppError::bad_request(
                "Slug is already taken. Choose a different slug.",
            ));
        }
        existing = None;
    }
    if existing.is_none() {
        bundle::validate_new_slug(&slug).map_err(AppError::BadRequest)?;
        let now = chrono::Utc::now().timestamp_millis();
        crate::skills::reservations::check_slug_available(store, &slug, user, now).await?;
    }
    // Publishing under an old slug (an alias left by a rename or merge) publishes to the
    // skill it leads to, under that skill's canonical slug.
    let slug = existing
        .as_ref()
        .map_or(slug, |skill| skill.skill.slug.clone());
    let display_name = payload.display_name.trim().to_owned();
    if display_name.is_empty() {
        return Err(AppError::bad_request("Display name required"));
    }
    let version = semver::Version::parse(payload.version.trim())
        .map_err(|_| AppError::bad_request("Version must be valid semver"))?
        .to_string();

    let mut seen = HashSet::new();
    let mut accepted: Vec<IncomingFile> = Vec::with_capacity(files.len());
    let mut total: u64 = 0;
    for file in files {
        let path = match normalize_path(&file.path) {
            Ok(path) => path,
            Err(PathProblem::Junk) => continue,
            Err(PathProblem::SkillCard) => {
                return Err(AppError::bad_request(
                    "skill-card.md is generated by ClawHub and cannot be published directly",
                ));
            }
            Err(PathProblem::Invalid) => return Err(AppError::bad_request("Invalid file paths")),
        };
        if !seen.insert(path.to_lowercase()) {
            return Err(AppError::BadRequest(format!(
                "Duplicate file path \"{path}\""
            )));
        }
        if file.bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(AppError::BadRequest(format!(
                "File \"{path}\" exceeds 10MB limit"
            )));
        }
        total += file.bytes.len() as u64;
        if total > MAX_BUNDLE_BYTES {
            return Err(AppError::bad_request("Skill bundle exceeds 50MB limit"));
        }
        accepted.push(IncomingFile { path, ..file });
    }
    let Some(skill_md) = accepted.iter().find(|file| is_skill_md(&file.path)) else {
        return Err(AppError::bad_request("SKILL.md is required"));
    };
    let Ok(skill_md_text) = std::str::from_utf8(&skill_md.bytes) else {
        return Err(AppError::BadRequest(format!(
            "{} is not valid UTF-8 text",
            skill_md.path
        )));
    };
    if skill_md_text.contains('\0') {
        return Err(AppError::BadRequest(format!(
            "{} contains NUL bytes",
            skill_md.path
        )));
    }
    for file in &accepted {
        if !bundle::is_text(&file.bytes) {
            return Err(AppError::BadRequest(format!(
                "File \"{}\" is not a text file; only text-based files can be published",
                file.path
            )));
        }
    }
    let document =
        bundle::parse_skill_md(&skill_md.path, skill_md_text).map_err(AppError::BadRequest)?;
    let metadata = bundle::runtime_metadata(document.metadata.as_ref());
    let skill_md_text = skill_md_text.to_owned();

    // Validating and linting large sets is CPU work: keep it off the async workers.
    let prompt_set_files: Vec<(String, Bytes)> = accepted
        .iter()
        .filter(|file| promptsets::is_prompt_set(&file.path, &document.prompt_sets))
        .map(|file| (file.path.clone(), file.bytes.clone()))
        .collect();
    let declared = document.prompt_sets.clone();
    let prompt_sets = tokio::task::spawn_blocking(move || {
        promptsets::check(
            prompt_set_files
                .iter()
                .map(|(path, bytes)| (path.as_str(), bytes.as_ref())),
            &declared,
        )
    })
    .await
    .map_err(|error| AppError::Internal(error.into()))?;
    let prompt_sets_json = prompt_sets
        .as_ref()
        .map(serde_json::to_string)
        .transpose()
        .map_err(|error| AppError::Internal(error.into()))?;

    let scan_input: Vec<ScanFile<'_>> = accepted
        .iter()
        .map(|file| ScanFile {
            path: &file.path,
            bytes: &file.bytes,
        })
        .collect();
    let report = moderation::scan(&scan_input);
    let rows: Vec<FileRow> = accepted
        .iter()
        .map(|file| FileRow {
            path: file.path.clone(),
            size: i64::try_from(file.bytes.len()).unwrap_or(i64::MAX),
            sha256: sha256_hex(&file.bytes),
            content_type: file.content_type.clone(),
        })
        .collect();
    let fingerprint = bundle::fingerprint(
        rows.iter()
            .map(|row| (row.path.as_str(), row.sha256.as_str())),
    );

    if store_blobs {
        for file in &accepted {
            storage.put(file.bytes.clone()).await?;
        }
    }
    let changelog = payload.changelog.trim().to_owned();
    let new = NewVersion {
        slug: slug.clone(),
        user_id: user.id,
        display_name,
        summary: document.description,
        version: version.clone(),
        changelog,
        changelog_source: "user".into(),
        fingerprint,
        skill_md: skill_md_text,
        metadata_json: metadata.map(|value| value.to_string()),
        scan_json: serde_json::to_string(&report)
            .map_err(|error| AppError::Internal(error.into()))?,
        verdict: report.verdict.as_str().to_owned(),
        is_suspicious: report.is_suspicious(),
        is_malware_blocked: report.is_malware_blocked(),
        prompt_sets_status: prompt_sets.as_ref().map(|report| report.status.clone()),
        prompt_sets_json,
        tags: bundle::normalize_tags(&payload.tags),
        files: rows,
        tickets,
        now: chrono::Utc::now().timestamp_millis(),
    };
    match store.publish_version(&new).await? {
        PublishOutcome::Published {
            skill_id,
            version_id,
        } => {
            tracing::info!(slug = %slug, version = %version, verdict = %new.verdict, "published");
            Ok(Published {
                skill_id,
                version_id,
                slug,
                version,
            })
        }
        PublishOutcome::SlugTaken => Err(AppError::bad_request(
            "Slug is already taken. Choose a different slug.",
        )),
        PublishOutcome::VersionExists => Err(AppError::Conflict(format!(
            "Version {version} already exists. Increment the version number and try again."
        ))),
        PublishOutcome::TicketReused => Err(AppError::bad_request(
            "Skill upload tickets cannot be reused",
        )),
    }
}
