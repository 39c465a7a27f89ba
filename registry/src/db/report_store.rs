//! The moderation use cases people act on: hiding skills, reports and appeals (both kept
//! as moderation cases), and storing a rescan. The [`ReportStore`] trait is a supertrait
//! of `Store`; the SQL lives in `reports.rs`, mounted once per backend.

use crate::db::row::from_row;
use async_trait::async_trait;

use crate::db::audit_store::NewAuditEvent;
use crate::error::DbError;

/// A report or an appeal, with the names its queue shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRow {
    /// Row id.
    pub id: i64,
    /// `report` or `appeal`.
    pub kind: String,
    /// The skill.
    pub skill_id: i64,
    /// Its slug now.
    pub skill_slug: String,
    /// Its display name now.
    pub skill_display_name: String,
    /// Who opened the case.
    pub user_id: i64,
    /// Their handle.
    pub user_handle: String,
    /// The version it is about, when given.
    pub version: Option<String>,
    /// The reason (report) or message (appeal).
    pub text: String,
    /// `open`, `resolved` or `dismissed`.
    pub status: String,
    /// When it was opened, Unix ms.
    pub created_at: i64,
    /// The moderator who closed it.
    pub resolved_by_handle: Option<String>,
    /// When it was closed.
    pub resolved_at: Option<i64>,
    /// The moderator's note.
    pub note: Option<String>,
}

from_row!(CaseRow {
    id,
    kind,
    skill_id,
    skill_slug,
    skill_display_name,
    user_id,
    user_handle,
    version,
    text,
    status,
    created_at,
    resolved_by_handle,
    resolved_at,
    note
});

/// A case to open.
#[derive(Debug, Clone)]
pub struct NewCase {
    /// `report` or `appeal`.
    pub kind: String,
    /// The skill.
    pub skill_id: i64,
    /// Who opens it.
    pub user_id: i64,
    /// The version it is about.
    pub version: Option<String>,
    /// Reason or message.
    pub text: String,
    /// Time.
    pub now: i64,
    /// The audit row written with it.
    pub audit: NewAuditEvent,
}

/// How opening a case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseOpened {
    /// The new case, or the caller's case of this kind that is still open.
    pub id: i64,
    /// False when the caller already had an open case of this kind for the skill.
    pub created: bool,
    /// Open cases of this kind for the skill, this one included.
    pub open_count: i64,
}

/// What closing a case also does to its skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseEffect {
    /// Nothing.
    None,
    /// Hide the skill (if not hidden yet).
    HideSkill,
    /// Lift a moderator's hide (if hidden).
    UnhideSkill,
}

/// A rescan's verdict to store.
#[derive(Debug, Clone)]
pub struct RescanResult {
    /// The skill.
    pub skill_id: i64,
    /// The version scanned.
    pub version_id: i64,
    /// The new report, JSON.
    pub scan_json: String,
    /// `clean`, `suspicious` or `malicious`.
    pub verdict: String,
    /// Whether the skill's flags follow this version (it is the latest or the one the
    /// current flags came from).
    pub sets_skill_flags: bool,
    /// Flag for the skill.
    pub is_suspicious: bool,
    /// Flag for the skill.
    pub is_malware_blocked: bool,
    /// Time.
    pub now: i64,
}

/// Moderation use cases of the store.
#[async_trait]
pub trait ReportStore: Send + Sync {
    /// Hides (`hidden: true`) or unhides a skill if it is not already in that state; true
    /// when it changed (the audit row is written only then, in the same transaction).
    async fn set_skill_hidden(
        &self,
        skill_id: i64,
        hidden: bool,
        reason: Option<&str>,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Opens a case unless the caller has one of this kind open for the skill.
    async fn open_case(&self, new: &NewCase) -> Result<CaseOpened, DbError>;
    /// One case.
    async fn find_case(&self, case_id: i64) -> Result<Option<CaseRow>, DbError>;
    /// A page of cases of `kind`, newest first, optionally of one status, before a case
    /// id; up to `limit + 1` rows.
    async fn list_cases(
        &self,
        kind: &str,
        status: Option<&str>,
        before_id: Option<i64>,
        limit: i64,
    ) -> Result<Vec<CaseRow>, DbError>;
    /// Closes an open case with `status` and a note, applying `effect` to its skill in
    /// the same transaction; false when the case was no longer open.
    #[expect(
        clippy::too_many_arguments,
        reason = "one call site per surface; each value is a column"
    )]
    async fn close_case(
        &self,
        case_id: i64,
        status: &str,
        moderator_id: i64,
        note: Option<&str>,
        effect: CaseEffect,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Stores a rescan's verdict on its version (and the skill's flags when it sets them).
    async fn store_rescan(
        &self,
        result: &RescanResult,
        audit: &NewAuditEvent,
    ) -> Result<(), DbError>;
}
