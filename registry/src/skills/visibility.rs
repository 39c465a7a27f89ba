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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A published, public skill owned by user 1.
    pub(crate) fn public_row() -> SkillRow {
        SkillRow {
            id: 7,
            slug: "demo".into(),
            owner_id: 1,
            owner_handle: "alice".into(),
            owner_display_name: None,
            owner_image: None,
            display_name: "Demo".into(),
            summary: None,
            tags_json: "{}".into(),
            downloads: 0,
            stars: 0,
            installs_current: 0,
            installs_all_time: 0,
            versions_count: 1,
            highlighted: false,
            is_suspicious: false,
            is_malware_blocked: false,
            moderation_version_id: None,
            moderation_updated_at: None,
            soft_deleted_at: None,
            hidden_at: None,
            created_at: 1,
            updated_at: 1,
            latest_version_id: Some(3),
            latest_version: Some("1.0.0".into()),
            latest_created_at: Some(1),
            latest_changelog: None,
            latest_metadata_json: None,
            prompt_sets_status: None,
        }
    }

    #[test]
    fn each_state_is_computed_most_restrictive_first() {
        let public = public_row();
        assert_eq!(Visibility::of(&public), Visibility::Public);
        let blocked = SkillRow {
            is_malware_blocked: true,
            ..public_row()
        };
        assert_eq!(Visibility::of(&blocked), Visibility::Blocked);
        let private = SkillRow {
            latest_version_id: None,
            ..public_row()
        };
        assert_eq!(Visibility::of(&private), Visibility::Private);
        let hidden = SkillRow {
            hidden_at: Some(5),
            is_malware_blocked: true,
            ..public_row()
        };
        assert_eq!(Visibility::of(&hidden), Visibility::HiddenByModeration);
        let deleted = SkillRow {
            soft_deleted_at: Some(9),
            hidden_at: Some(5),
            ..public_row()
        };
        assert_eq!(Visibility::of(&deleted), Visibility::SoftDeleted);
    }

    #[test]
    fn only_public_skills_are_listed_and_served() {
        use Visibility::*;
        for (state, listed, readable, downloadable, resolvable) in [
            (Public, true, true, true, true),
            (Blocked, false, true, false, true),
            (Private, false, false, false, true),
            (HiddenByModeration, false, false, false, false),
            (SoftDeleted, false, false, false, false),
        ] {
            assert_eq!(state.is_listed(), listed, "{state:?}");
            assert_eq!(state.is_readable(), readable, "{state:?}");
            assert_eq!(state.is_downloadable(), downloadable, "{state:?}");
            assert_eq!(state.is_resolvable(), resolvable, "{state:?}");
        }
    }
}
