//! The skill lifecycle use cases of the store: soft delete and undelete, version
//! withdrawal and restore, rename with aliases, merge, hard delete. The [`LifecycleStore`]
//! trait is a supertrait of `Store`; the SQL lives in `lifecycle.rs`, mounted once per
//! backend. Every write takes the [`NewAuditEvent`] that records it and writes it in the
//! same transaction.

use crate::db::row::from_row;
use async_trait::async_trait;

use crate::db::audit_store::NewAuditEvent;
use crate::error::DbError;

/// Why a skill is soft-deleted: decides who may undelete it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteKind {
    /// Its owner deleted it (the owner may undelete; the slug is held for a while).
    Owner,
    /// A moderator or admin hid it (only staff undelete).
    Staff,
    /// It was merged into another skill (only staff undelete).
    Merged,
}

impl DeleteKind {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Staff => "staff",
            Self::Merged => "merged",
        }
    }

    /// Parses the stored spelling; unknown values count as a staff hide (the safe side).
    pub fn from_stored(text: &str) -> Self {
        match text {
            "owner" => Self::Owner,
            "merged" => Self::Merged,
            _ => Self::Staff,
        }
    }
}

/// The lifecycle columns of a skill.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillLifecycle {
    /// Who soft-deleted it.
    pub deleted_by: Option<i64>,
    /// Stored [`DeleteKind`].
    pub delete_kind: Option<String>,
    /// The reason given.
    pub delete_reason: Option<String>,
    /// Until when an owner-deleted slug is held for its owner, Unix ms.
    pub slug_reserved_until: Option<i64>,
    /// The skill a merged duplicate folded into.
    pub canonical_skill_id: Option<i64>,
    /// The reason a moderator gave when hiding it (while hidden).
    pub hidden_reason: Option<String>,
}

from_row!(SkillLifecycle {
    deleted_by,
    delete_kind,
    delete_reason,
    slug_reserved_until,
    canonical_skill_id,
    hidden_reason
});

impl SkillLifecycle {
    /// The parsed delete kind, when deleted.
    pub fn kind(&self) -> Option<DeleteKind> {
        self.delete_kind.as_deref().map(DeleteKind::from_stored)
    }
}

/// A soft delete to apply.
#[derive(Debug, Clone)]
pub struct SkillDeletion {
    /// The skill.
    pub skill_id: i64,
    /// Who deletes it.
    pub actor_id: i64,
    /// Why it is deleted.
    pub kind: DeleteKind,
    /// The reason given, if any.
    pub reason: Option<String>,
    /// Until when the slug stays held for the owner (owner deletes only).
    pub slug_reserved_until: Option<i64>,
    /// Now, Unix ms.
    pub now: i64,
}

/// How a version withdrawal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawn {
    /// Done.
    Done,
    /// It is the skill's latest version (checked again under the write lock).
    IsLatest,
    /// It was already withdrawn.
    AlreadyWithdrawn,
}

/// How a rename ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renamed {
    /// Done.
    Done,
    /// A skill already has the new slug.
    SlugTaken,
    /// The new slug is an alias of another skill.
    AliasOfOther,
}

/// What a hard delete removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HardDeleted {
    /// Versions removed.
    pub versions: i64,
    /// File rows removed.
    pub files: i64,
    /// Blobs of the removed files that nothing references any more (left in storage for
    /// a collector: blobs are shared by content, and a publish in flight may have uploaded
    /// one it has not referenced yet).
    pub unreferenced_blobs: i64,
}

/// Skill lifecycle use cases of the store.
#[async_trait]
pub trait LifecycleStore: Send + Sync {
    /// The lifecycle columns of a skill.
    async fn skill_lifecycle(&self, skill_id: i64) -> Result<Option<SkillLifecycle>, DbError>;
    /// Soft-deletes a skill; false when it was already deleted.
    async fn soft_delete_skill(
        &self,
        deletion: &SkillDeletion,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Restores a soft-deleted skill (and clears a moderator's hide); false when it was
    /// not deleted or hidden.
    async fn undelete_skill(
        &self,
        skill_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Withdraws a version: marks it, drops the tags pointing at it.
    async fn withdraw_version(
        &self,
        version_id: i64,
        actor_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<Withdrawn, DbError>;
    /// Restores a withdrawn version (not its tags, not `latest`); false when it was live.
    async fn restore_version(
        &self,
        version_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Gives a skill a new slug and keeps the old one as an alias.
    async fn rename_skill(
        &self,
        skill_id: i64,
        new_slug: &str,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<Renamed, DbError>;
    /// Folds `source` into `target`: the source is soft-deleted as merged, its slug and
    /// aliases lead to the target, its stars move there.
    async fn merge_skills(
        &self,
        source_id: i64,
        target_id: i64,
        actor_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<(), DbError>;
    /// Frees the slug of an owner-deleted skill whose hold has ended (`hold_ended_by` is
    /// now): the skill keeps its data under a slug no one can publish, so another publisher
    /// may take the old one. False when the skill no longer has that slug, was undeleted, or
    /// its hold has not ended (checked in the same statement, so an undelete racing a
    /// claim cannot lose).
    async fn release_held_slug(
        &self,
        skill_id: i64,
        slug: &str,
        hold_ended_by: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Removes a skill with its versions, files, tags, stats and aliases.
    async fn hard_delete_skill(
        &self,
        skill_id: i64,
        audit: &NewAuditEvent,
    ) -> Result<HardDeleted, DbError>;
    /// The old slugs that lead to a skill, oldest first.
    async fn skill_aliases(&self, skill_id: i64) -> Result<Vec<String>, DbError>;
    /// Who withdrew a version (`None` when it is live or the user is gone).
    async fn version_withdrawn_by(&self, version_id: i64) -> Result<Option<i64>, DbError>;
}
