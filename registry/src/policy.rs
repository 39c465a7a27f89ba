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

/// Staff: a moderator or an administrator, whatever their tie to the record.
pub fn is_staff(caller: Option<&User>) -> bool {
    caller.is_some_and(|user| {
        matches!(
            user.role(),
            crate::db::Role::Moderator | crate::db::Role::Admin
        )
    })
}

/// An administrator.
pub fn is_admin(caller: Option<&User>) -> bool {
    caller.is_some_and(|user| user.role() == crate::db::Role::Admin)
}

/// Something a caller may try to do to a skill's ownership or moderation state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillManagement {
    /// Offer the skill to another user (or, for an administrator, move it at once).
    Transfer,
    /// Hide it from everyone but its owner and staff, or lift that.
    HideOrUnhide,
    /// Ask moderators to review a hide or a flag.
    Appeal,
    /// Run the scanner again over its stored files.
    Rescan,
    /// Report it to moderators.
    Report,
}

/// May `caller` do `action` to `skill`?
pub fn may_manage(caller: Option<&User>, action: SkillManagement, skill: &SkillRow) -> bool {
    let relation = Relation::to_skill(caller, skill);
    match action {
        // The owner gives a skill away; an administrator may move any.
        SkillManagement::Transfer => matches!(relation, Relation::Owner | Relation::Admin),
        // By role, not relation: a moderator may hide a skill they own too.
        SkillManagement::HideOrUnhide => is_staff(caller),
        // Appeals speak for the owner.
        SkillManagement::Appeal => relation == Relation::Owner,
        SkillManagement::Rescan => relation.is_privileged(),
        SkillManagement::Report => relation != Relation::Anonymous,
    }
}

/// What the two parties of a transfer may do to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferAction {
    /// Take the skill.
    Accept,
    /// Decline it.
    Reject,
    /// Withdraw the offer.
    Cancel,
}

/// May `caller` do `action` to a transfer from `from_user_id` to `to_user_id`? The
/// recipient accepts or rejects, the sender cancels; nobody else, staff included, acts
/// for them.
pub fn may_transfer(
    caller: &User,
    action: TransferAction,
    from_user_id: i64,
    to_user_id: i64,
) -> bool {
    match action {
        TransferAction::Accept | TransferAction::Reject => caller.id == to_user_id,
        TransferAction::Cancel => caller.id == from_user_id,
    }
}

/// May `caller` reserve slugs and package names for owners?
pub fn may_reserve(caller: &User) -> bool {
    caller.role() == crate::db::Role::Admin
}

/// Something a caller may try in a skill's lifecycle. The finer rules (an owner may not
/// undo a moderator's hide, only restores their own withdrawals) are decided in
/// `skills::lifecycle`, which knows the skill's delete history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LifecycleAction {
    /// Soft-delete the skill.
    Delete,
    /// Restore a soft-deleted skill.
    Undelete,
    /// Withdraw one version.
    WithdrawVersion,
    /// Restore a withdrawn version.
    RestoreVersion,
    /// Give the skill a new slug.
    Rename,
    /// Fold the skill into another (asked of both).
    Merge,
    /// Remove the skill and its versions for good.
    HardDelete,
}

/// May `caller` do `action` to `skill`?
pub fn may_lifecycle(caller: &User, action: LifecycleAction, skill: &SkillRow) -> bool {
    let relation = Relation::to_skill(Some(caller), skill);
    match action {
        // The owner manages their skill; moderators and admins take content down and
        // bring it back, as the reference lets them.
        LifecycleAction::Delete
        | LifecycleAction::Undelete
        | LifecycleAction::WithdrawVersion
        | LifecycleAction::RestoreVersion => relation.is_privileged(),
        // Names and duplicates are the owner's business (or a platform admin's).
        LifecycleAction::Rename | LifecycleAction::Merge => {
            matches!(relation, Relation::Owner | Relation::Admin)
                || caller.role() == crate::db::Role::Admin
        }
        // Destroying data is for administrators only, even of their own skills.
        LifecycleAction::HardDelete => caller.role() == crate::db::Role::Admin,
    }
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
    fn owners_transfer_staff_hide_and_only_the_parties_act_on_a_transfer() {
        let skill = public_row();
        let owner = user(1, "user");
        let other = user(2, "user");
        let moderator = user(3, "moderator");
        let admin = user(4, "admin");
        let transfer =
            |caller: Option<&User>| may_manage(caller, SkillManagement::Transfer, &skill);
        assert!(transfer(Some(&owner)) && transfer(Some(&admin)));
        assert!(!transfer(Some(&other)) && !transfer(Some(&moderator)) && !transfer(None));
        let hide =
            |caller: Option<&User>| may_manage(caller, SkillManagement::HideOrUnhide, &skill);
        assert!(hide(Some(&moderator)) && hide(Some(&admin)));
        assert!(!hide(Some(&owner)) && !hide(Some(&other)) && !hide(None));
        assert!(may_manage(Some(&owner), SkillManagement::Appeal, &skill));
        assert!(!may_manage(
            Some(&moderator),
            SkillManagement::Appeal,
            &skill
        ));
        assert!(may_manage(Some(&other), SkillManagement::Report, &skill));
        assert!(!may_manage(None, SkillManagement::Report, &skill));
        assert!(may_manage(
            Some(&moderator),
            SkillManagement::Rescan,
            &skill
        ));
        assert!(!may_manage(Some(&other), SkillManagement::Rescan, &skill));
        assert!(may_transfer(&other, TransferAction::Accept, 1, 2));
        assert!(!may_transfer(&owner, TransferAction::Accept, 1, 2));
        assert!(!may_transfer(&admin, TransferAction::Reject, 1, 2));
        assert!(may_transfer(&owner, TransferAction::Cancel, 1, 2));
        assert!(!may_transfer(&other, TransferAction::Cancel, 1, 2));
        assert!(may_reserve(&admin) && !may_reserve(&moderator));
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
