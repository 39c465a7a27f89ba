//! Who may do what to which record. Every write, and every read of something not public,
//! asks here; handlers never compare owner ids themselves.

use crate::db::{SkillRow, User};

/// How a caller stands to a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// No token.
    Anonymous,
    /// Signed in, no tie to the record.
    Other,
    /// Owns the record.
    Owner,
    /// A moderator (not the owner).
    Moderator,
    /// An administrator (not the owner).
    Admin,
}

impl Relation {
    /// How `caller` stands to a skill.
    pub fn to_skill(caller: Option<&User>, skill: &SkillRow) -> Self {
        match caller {
            None => Self::Anonymous,
            Some(user) if user.id == skill.owner_id => Self::Owner,
            Some(user) => match user.role() {
                crate::db::Role::Admin => Self::Admin,
                crate::db::Role::Moderator => Self::Moderator,
                crate::db::Role::User => Self::Other,
            },
        }
    }

    /// Owner or staff.
    fn is_privileged(self) -> bool {
        matches!(self, Self::Owner | Self::Moderator | Self::Admin)
    }
}

/// Something a caller may try to do to a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillAction {
    /// Publish a new version under its slug.
    PublishVersion,
    /// Read the full moderation evidence (all findings, also when not flagged).
    ReadModerationDetails,
}

/// May `caller` do `action` to `skill`?
pub fn may(caller: Option<&User>, action: SkillAction, skill: &SkillRow) -> bool {
    let relation = Relation::to_skill(caller, skill);
    match action {
        // Publishing is the owner's alone: staff moderate, they do not ship versions.
        SkillAction::PublishVersion => relation == Relation::Owner,
        SkillAction::ReadModerationDetails => relation.is_privileged(),
    }
}

/// Something a caller may try to do to a package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackageAction {
    /// Publish a new release under its name.
    PublishRelease,
    /// See a package in the `private` channel.
    ReadPrivate,
    /// Soft-delete it or restore it.
    DeleteOrRestore,
    /// Give it to another publisher.
    Transfer,
}

impl Relation {
    /// How `caller` stands to a package owned by `owner_id`.
    pub fn to_package(caller: Option<&User>, owner_id: i64) -> Self {
        match caller {
            None => Self::Anonymous,
            Some(user) if user.id == owner_id => Self::Owner,
            Some(user) => match user.role() {
                crate::db::Role::Admin => Self::Admin,
                crate::db::Role::Moderator => Self::Moderator,
                crate::db::Role::User => Self::Other,
            },
        }
    }
}

/// May `caller` do `action` to a package owned by `owner_id`?
pub fn may_package(caller: Option<&User>, action: PackageAction, owner_id: i64) -> bool {
    let relation = Relation::to_package(caller, owner_id);
    match action {
        // As with skills, only the owner ships releases.
        PackageAction::PublishRelease => relation == Relation::Owner,
        // Staff take packages down and bring them back, as the reference lets them.
        PackageAction::ReadPrivate | PackageAction::DeleteOrRestore => relation.is_privileged(),
        // Moving a package between publishers is for its owner or an administrator.
        PackageAction::Transfer => matches!(relation, Relation::Owner | Relation::Admin),
    }
}

/// May `caller` read the audit log? Administrators only: it names every actor and the
/// before/after states of hidden records.
pub fn may_read_audit_log(caller: &User) -> bool {
    caller.role() == crate::db::Role::Admin
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::visibility::tests::public_row;

    fn user(id: i64, role: &str) -> User {
        User {
            id,
            handle: format!("user{id}"),
            display_name: None,
            image: None,
            role: role.into(),
        }
    }

    #[test]
    fn only_the_owner_publishes_and_staff_read_moderation_details() {
        let skill = public_row();
        let owner = user(1, "user");
        let other = user(2, "user");
        let moderator = user(3, "moderator");
        let admin = user(4, "admin");
        assert!(may(Some(&owner), SkillAction::PublishVersion, &skill));
        for caller in [None, Some(&other), Some(&moderator), Some(&admin)] {
            assert!(!may(caller, SkillAction::PublishVersion, &skill));
        }
        for caller in [&owner, &moderator, &admin] {
            assert!(may(
                Some(caller),
                SkillAction::ReadModerationDetails,
                &skill
            ));
        }
        assert!(!may(
            Some(&other),
            SkillAction::ReadModerationDetails,
            &skill
        ));
        assert!(!may(None, SkillAction::ReadModerationDetails, &skill));
    }
}
