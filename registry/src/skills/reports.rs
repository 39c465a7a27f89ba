//! Moderation people act on: moderators hide and unhide skills; any signed-in user reports
//! a skill with a reason; owners appeal a hide or a flag and ask for a rescan; moderators
//! list reports and appeals and resolve or dismiss them.
//!
//! Reports and appeals are both moderation cases (`moderation_cases`), one open case per
//! kind, skill and user. A hide sets the skill's `hidden_at`: [`Visibility`] then answers
//! `HiddenByModeration` and every public read treats the skill as absent. A rescan runs
//! the same static scanner as publish ([`crate::moderation::scan`]) over the stored files
//! of a version and stores the new verdict.

use crate::audit::{AuditEvent, TargetKind};
use crate::db::report_store::{CaseEffect, CaseRow, NewCase, RescanResult};
use crate::db::{SkillRow, Store, User};
use crate::error::{AppError, AppResult};
use crate::moderation::{self, ScanFile};
use crate::policy::{self, SkillManagement};
use crate::skills::Visibility;
use crate::storage::Storage;

/// Most characters of a report reason, an appeal message or a moderator's note.
pub const MAX_TEXT_CHARS: usize = 2000;

/// The two kinds of case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseKind {
    /// Someone flags a skill.
    Report,
    /// The owner asks for a review.
    Appeal,
}

impl CaseKind {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Report => "report",
            Self::Appeal => "appeal",
        }
    }

    fn not_found(self) -> AppError {
        match self {
            Self::Report => AppError::not_found("Report not found"),
            Self::Appeal => AppError::not_found("Appeal not found"),
        }
    }
}

fn required_text(text: Option<&str>, field: &str) -> AppResult<String> {
    let text = text.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Err(AppError::BadRequest(format!("{field} required")));
    }
    optional_text(Some(text), field).map(Option::unwrap_or_default)
}

fn optional_text(text: Option<&str>, field: &str) -> AppResult<Option<String>> {
    let Some(text) = text.map(str::trim).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(AppError::BadRequest(format!(
            "{field} is too long (max {MAX_TEXT_CHARS} characters)"
        )));
    }
    Ok(Some(text.to_owned()))
}

const MODERATOR_REQUIRED: &str = "Moderator role required.";

/// Hides (`hidden: true`) or unhides a skill as a moderator; `reason` goes to the audit
/// log. Refused when the skill is already in that state.
pub async fn set_hidden(
    store: &dyn Store,
    actor: &User,
    skill: &SkillRow,
    hidden: bool,
    reason: Option<&str>,
    now: i64,
) -> AppResult<()> {
    if !policy::may_manage(Some(actor), SkillManagement::HideOrUnhide, skill) {
        return Err(AppError::Forbidden(MODERATOR_REQUIRED.into()));
    }
    let reason = optional_text(reason, "reason")?;
    let (action, before, after) = if hidden {
        ("skill.hide", "visible", "hidden")
    } else {
        ("skill.unhide", "hidden", "visible")
    };
    let audit = AuditEvent::new(
        Some(actor),
        action,
        TargetKind::Skill,
        Some(skill.id),
        &skill.slug,
    )
    .from(serde_json::json!({ "moderation": before }))
    .to(serde_json::json!({ "moderation": after, "reason": reason }))
    .at(now)
    .into_row();
    if store
        .set_skill_hidden(skill.id, hidden, reason.as_deref(), now, &audit)
        .await?
    {
        Ok(())
    } else if hidden {
        Err(AppError::Conflict("Skill is already hidden".into()))
    } else {
        Err(AppError::Conflict("Skill is not hidden".into()))
    }
}

/// A report or appeal as stored, and how many are open for the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opened {
    /// The case.
    pub case_id: i64,
    /// False when the caller already had one open.
    pub created: bool,
    /// Open cases of this kind for the skill.
    pub open_count: i64,
}

/// Files a report about a publicly readable skill (a version, when given, must exist).
pub async fn report(
    store: &dyn Store,
    user: &User,
    skill: &SkillRow,
    reason: Option<&str>,
    version: Option<&str>,
    now: i64,
) -> AppResult<Opened> {
    if !policy::may_manage(Some(user), SkillManagement::Report, skill) {
        return Err(AppError::Forbidden("Forbidden".into()));
    }
    let reason = required_text(reason, "reason")?;
    let version = match version.map(str::trim).filter(|v| !v.is_empty()) {
        Some(version) => Some(
            store
                .find_version(skill.id, version)
                .await?
                .filter(|row| row.soft_deleted_at.is_none())
                .ok_or_else(|| AppError::not_found("Version not found"))?
                .version,
        ),
        None => None,
    };
    open(store, user, skill, CaseKind::Report, reason, version, now).await
}

/// Files the owner's appeal against a hide or a scanner flag.
pub async fn appeal(
    store: &dyn Store,
    user: &User,
    skill: &SkillRow,
    message: Option<&str>,
    now: i64,
) -> AppResult<Opened> {
    if !policy::may_manage(Some(user), SkillManagement::Appeal, skill) {
        return Err(AppError::Forbidden("Forbidden".into()));
    }
    let message = required_text(message, "message")?;
    let visibility = Visibility::of(skill);
    let contested = visibility == Visibility::HiddenByModeration
        || skill.is_malware_blocked
        || skill.is_suspicious;
    if !contested {
        return Err(AppError::bad_request(
            "Nothing to appeal: this skill is neither hidden by moderation nor flagged",
        ));
    }
    open(store, user, skill, CaseKind::Appeal, message, None, now).await
}

async fn open(
    store: &dyn Store,
    user: &User,
    skill: &SkillRow,
    kind: CaseKind,
    text: String,
    version: Option<String>,
    now: i64,
) -> AppResult<Opened> {
    let audit = AuditEvent::new(
        Some(user),
        &format!("skill.{}", kind.as_str()),
        TargetKind::Skill,
        Some(skill.id),
        &skill.slug,
    )
    .at(now)
    .into_row();
    let opened = store
        .open_case(&NewCase {
            kind: kind.as_str().to_owned(),
            skill_id: skill.id,
            user_id: user.id,
            version,
            text,
            now,
            audit,
        })
        .await?;
    Ok(Opened {
        case_id: opened.id,
        created: opened.created,
        open_count: opened.open_count,
    })
}

/// A page of cases for moderators.
pub async fn queue(
    store: &dyn Store,
    moderator: &User,
    kind: CaseKind,
    status: Option<&str>,
    before_id: Option<i64>,
    limit: i64,
) -> AppResult<Vec<CaseRow>> {
    if !policy::is_staff(Some(moderator)) {
        return Err(AppError::Forbidden(MODERATOR_REQUIRED.into()));
    }
    let status = match status {
        None | Some("all") => None,
        Some(status @ ("open" | "resolved" | "dismissed")) => Some(status),
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "status must be open, resolved, dismissed or all (got `{other}`)"
            )));
        }
    };
    Ok(store
        .list_cases(kind.as_str(), status, before_id, limit)
        .await?)
}

/// What a moderator decides about a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Report: handled, nothing more to do to the skill.
    Resolve,
    /// Report: not a problem.
    Dismiss,
    /// Report: hide the skill.
    Hide,
    /// Appeal: granted, the hide is lifted.
    Accept,
    /// Appeal: refused.
    Reject,
}

impl Decision {
    /// Parses a decision valid for `kind`.
    pub fn parse(kind: CaseKind, text: &str) -> AppResult<Self> {
        match (kind, text) {
            (CaseKind::Report, "resolve") => Ok(Self::Resolve),
            (CaseKind::Report, "dismiss") => Ok(Self::Dismiss),
            (CaseKind::Report, "hide") => Ok(Self::Hide),
            (CaseKind::Appeal, "accept") => Ok(Self::Accept),
            (CaseKind::Appeal, "reject") => Ok(Self::Reject),
            (CaseKind::Report, other) => Err(AppError::BadRequest(format!(
                "action must be resolve, dismiss or hide (got `{other}`)"
            ))),
            (CaseKind::Appeal, other) => Err(AppError::BadRequest(format!(
                "action must be accept or reject (got `{other}`)"
            ))),
        }
    }

    /// The case's status afterwards.
    pub fn status(self) -> &'static str {
        match self {
            Self::Resolve | Self::Hide | Self::Accept => "resolved",
            Self::Dismiss | Self::Reject => "dismissed",
        }
    }

    fn effect(self) -> CaseEffect {
        match self {
            Self::Hide => CaseEffect::HideSkill,
            Self::Accept => CaseEffect::UnhideSkill,
            Self::Resolve | Self::Dismiss | Self::Reject => CaseEffect::None,
        }
    }
}

/// Closes a case as a moderator.
pub async fn triage(
    store: &dyn Store,
    moderator: &User,
    kind: CaseKind,
    case_id: i64,
    decision: Decision,
    note: Option<&str>,
    now: i64,
) -> AppResult<CaseRow> {
    if !policy::is_staff(Some(moderator)) {
        return Err(AppError::Forbidden(MODERATOR_REQUIRED.into()));
    }
    let note = optional_text(note, "note")?;
    let case = store
        .find_case(case_id)
        .await?
        .filter(|case| case.kind == kind.as_str())
        .ok_or_else(|| kind.not_found())?;
    let audit = AuditEvent::new(
        Some(moderator),
        &format!("skill.{}.triage", kind.as_str()),
        TargetKind::Skill,
        Some(case.skill_id),
        &case.skill_slug,
    )
    .from(serde_json::json!({ "case": case.id, "status": case.status }))
    .to(serde_json::json!({ "case": case.id, "status": decision.status(), "effect": format!("{:?}", decision.effect()), "note": note }))
    .at(now)
    .into_row();
    let closed = store
        .close_case(
            case.id,
            decision.status(),
            moderator.id,
            note.as_deref(),
            decision.effect(),
            now,
            &audit,
        )
        .await?;
    if !closed {
        return Err(AppError::Conflict(format!(
            "This {} was already triaged",
            kind.as_str()
        )));
    }
    store
        .find_case(case.id)
        .await?
        .ok_or_else(|| kind.not_found())
}

/// What a rescan found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rescanned {
    /// The version scanned.
    pub version: String,
    /// Verdict before.
    pub previous_verdict: String,
    /// Verdict now.
    pub verdict: String,
    /// The skill's flags now.
    pub is_suspicious: bool,
    /// The skill's flags now.
    pub is_malware_blocked: bool,
}

/// Runs the scanner again over the stored files of `version` (default: the latest) and
/// stores the verdict; the skill's flags follow when the version is the latest or the one
/// the current flags came from.
pub async fn rescan(
    store: &dyn Store,
    storage: &dyn Storage,
    actor: &User,
    skill: &SkillRow,
    version: Option<&str>,
    now: i64,
) -> AppResult<Rescanned> {
    if !policy::may_manage(Some(actor), SkillManagement::Rescan, skill) {
        return Err(AppError::Forbidden("Forbidden".into()));
    }
    let row = match version.map(str::trim).filter(|v| !v.is_empty()) {
        Some(version) => store.find_version(skill.id, version).await?,
        None => match skill.latest_version_id {
            Some(id) => store.find_version_by_id(id).await?,
            None => None,
        },
    }
    .ok_or_else(|| AppError::not_found("Version not found"))?;
    let files = store.version_files(row.id).await?;
    let mut contents = Vec::with_capacity(files.len());
    for file in &files {
        let bytes = storage
            .get(&file.sha256)
            .await?
            .ok_or_else(|| AppError::Gone("File missing in storage".into()))?;
        contents.push((file.path.as_str(), bytes));
    }
    let scan_input: Vec<ScanFile<'_>> = contents
        .iter()
        .map(|(path, bytes)| ScanFile { path, bytes })
        .collect();
    let report = moderation::scan(&scan_input);
    let sets_skill_flags =
        skill.latest_version_id == Some(row.id) || skill.moderation_version_id == Some(row.id);
    let verdict = report.verdict.as_str().to_owned();
    let (is_suspicious, is_malware_blocked) = if sets_skill_flags {
        (report.is_suspicious(), report.is_malware_blocked())
    } else {
        (skill.is_suspicious, skill.is_malware_blocked)
    };
    let audit = AuditEvent::new(
        Some(actor),
        "skill.rescan",
        TargetKind::Skill,
        Some(skill.id),
        &skill.slug,
    )
    .from(serde_json::json!({ "version": row.version, "verdict": row.verdict }))
    .to(serde_json::json!({ "version": row.version, "verdict": verdict }))
    .at(now)
    .into_row();
    store
        .store_rescan(
            &RescanResult {
                skill_id: skill.id,
                version_id: row.id,
                scan_json: serde_json::to_string(&report)
                    .map_err(|error| AppError::Internal(error.into()))?,
                verdict: verdict.clone(),
                sets_skill_flags,
                is_suspicious,
                is_malware_blocked,
                now,
            },
            &audit,
        )
        .await?;
    Ok(Rescanned {
        version: row.version,
        previous_verdict: row.verdict,
        verdict,
        is_suspicious,
        is_malware_blocked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_belong_to_their_kind_and_texts_are_bounded() {
        assert_eq!(
            Decision::parse(CaseKind::Report, "hide")
                .expect("valid")
                .status(),
            "resolved"
        );
        assert_eq!(
            Decision::parse(CaseKind::Appeal, "reject")
                .expect("valid")
                .status(),
            "dismissed"
        );
        assert!(Decision::parse(CaseKind::Appeal, "hide").is_err());
        assert!(Decision::parse(CaseKind::Report, "accept").is_err());
        assert!(required_text(Some("  "), "reason").is_err());
        assert!(required_text(Some(&"x".repeat(MAX_TEXT_CHARS + 1)), "reason").is_err());
        assert_eq!(required_text(Some(" spam "), "reason").expect("ok"), "spam");
    }
}
