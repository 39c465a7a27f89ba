//! Who may see a skill: one [`Visibility`] computed in one place.
//!
//! Its SQL twin, the predicate list and search pages filter with, is
//! `LISTED` in `db/skills.rs`; the two must agree (a test in `tests/api` walks every read).

use crate::db::SkillRow;

/// The visibility state of a skill, most restrictive first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// Soft-deleted by its owner or staff: served to nobody but them.
    SoftDeleted,
    /// Hidden by a moderator.
    HiddenByModeration,
    /// Blocked as malware by the scanner: its pages stay readable so people can see why,
    /// its files and archives are refused, and it is never listed.
    Blocked,
    /// No published version yet (or none left): nothing to list or serve.
    Private,
    /// Listed and served to everyone.
    Public,
}

impl Visibility {
    /// The visibility of a skill row.
    pub fn of(row: &SkillRow) -> Self {
        if row.soft_deleted_at.is_some() {
            Self::SoftDeleted
        } else if row.hidden_at.is_some() {
            Self::HiddenByModeration
        } else if row.is_malware_blocked {
            Self::Blocked
        } else if row.latest_version_id.is_none() {
            Self::Private
        } else {
            Self::Public
        }
    }

    /// Shown in lists and search (SQL twin: `LISTED` in `db/skills.rs`).
    pub fn is_listed(self) -> bool {
        self == Self::Public
    }

    /// Its detail, versions, scan and moderation pages answer the public.
    pub fn is_readable(self) -> bool {
        matches!(self, Self::Public | Self::Blocked)
    }

    /// Its files and archives may be served (the scan verdict of the chosen version is
    /// checked separately).
    pub fn is_downloadable(self) -> bool {
        self == Self::Public
    }

    /// Removed from public view by a person (owner or moderator), not just unlisted.
    pub fn is_removed(self) -> bool {
        matches!(self, Self::SoftDeleted | Self::HiddenByModeration)
    }

    /// A fingerprint lookup (`/resolve`) may answer for it: the CLI resolves a local copy
    /// even of a skill without a public release, but never of a removed one.
    pub fn is_resolvable(self) -> bool {
        !self.is_removed()
    }
}
