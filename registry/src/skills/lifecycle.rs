//! A skill's lifecycle after publish: soft delete and undelete, withdrawing and restoring
//! single versions, rename (the old slug stays as an alias), merge into a canonical skill,
//! and an administrator's hard delete. Each function takes the caller and the skill as
//! found (live slug or alias, whatever its state), decides through [`policy`] and the
//! skill's delete history, and hands the store one change together with its audit row.
//!
//! Rules where the reference registry is explicit follow it (messages included); the rest:
//! - deleting an already deleted skill and undeleting a live one change nothing and
//!   answer as if they had (the CLI retries writes; a retry must not fail);
//! - a withdrawn version's number stays taken forever (publish checks every version row);
//! - a hard delete needs a soft delete first, so one mistyped command cannot destroy a
//!   live skill, and leaves blobs to a collector (see [`HardDeleted`]).

use serde_json::json;

use crate::audit::{AuditEvent, TargetKind};
use crate::bundle::{self, normalize_slug};
use crate::db::lifecycle_store::{DeleteKind, HardDeleted, Renamed, SkillDeletion, Withdrawn};
use crate::db::{SkillRow, Store, User};
use crate::error::{AppError, AppResult, DbError};
use crate::policy::{self, LifecycleAction, Relation};
use crate::skills::Visibility;

/// How long an owner-deleted slug stays held for its owner (the reference's 30 days).
pub const SLUG_HOLD_MS: i64 = 30 * 24 * 60 * 60 * 1000;

const FORBIDDEN: &str = "Forbidden";
const HIDDEN_NO_REDELETE: &str = "Forbidden: This skill is currently hidden by moderation and cannot be re-deleted by the owner. Please contact a moderator.";
const HIDDEN_NO_RESTORE: &str = "Forbidden: This skill was hidden by moderation and cannot be restored by the owner. Please contact a moderator.";
const MALWARE_NO_RESTORE: &str = "Forbidden: This skill was blocked by automated malware detection and cannot be restored by the owner. Please contact a moderator.";
const LATEST_VERSION: &str =
    "Publish a replacement version before deleting the current latest version.";
const SLUG_TAKEN: &str = "Slug is already taken. Choose a different slug.";
const SLUG_REDIRECTS: &str = "Slug redirects to an existing skill. Choose a different slug.";
const SLUG_IS_YOURS: &str = "Slug already belongs to one of your skills. Use merge instead.";

/// What the owner of a skill the public cannot read is told instead of `Skill not found`,
/// in the reference registry's words: why it is gone and, when they can, how to bring it
/// back. Everyone else (and the owner of a merged or malware-blocked skill, which the
/// reference hides from all) keeps getting the plain 404.
pub async fn owner_notice(
    store: &dyn Store,
    caller: Option<&User>,
    skill: &SkillRow,
) -> AppResult<Option<AppError>> {
    if Relation::to_skill(caller, skill) != Relation::Owner {
        return Ok(None);
    }
    let notice = match Visibility::of(skill) {
        Visibility::SoftDeleted => {
            let history = store.skill_lifecycle(skill.id).await?.unwrap_or_default();
            match history.kind() {
                Some(DeleteKind::Owner) => AppError::Gone(format!(
                    "Skill is hidden/deleted. Run \"clawhub undelete {}\" to restore it.",
                    skill.slug
                )),
                Some(DeleteKind::Staff) => {
                    AppError::Gone("Skill has been removed by moderation.".into())
                }
                Some(DeleteKind::Merged) | None => return Ok(None),
            }
        }
        Visibility::HiddenByModeration => {
            let history = store.skill_lifecycle(skill.id).await?.unwrap_or_default();
            let reason = history
                .hidden_reason
                .filter(|reason| !reason.trim().is_empty())
                .unwrap_or_else(|| "no reason given".into());
            AppError::Forbidden(format!("Skill is hidden by moderation ({reason})."))
        }
        Visibility::Blocked | Visibility::Private | Visibility::Public => return Ok(None),
    };
    Ok(Some(notice))
}

/// The name of a visibility state in audit rows.
fn state_name(skill: &SkillRow) -> &'static str {
    match Visibility::of(skill) {
        Visibility::SoftDeleted => "deleted",
        Visibility::HiddenByModeration => "hidden",
        Visibility::Blocked => "blocked",
        Visibility::Private => "private",
        Visibility::Public => "public",
    }
}

fn now() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn event(caller: &User, action: &str, skill: &SkillRow, at: i64) -> AuditEvent {
    AuditEvent::new(
        Some(caller),
        action,
        TargetKind::Skill,
        Some(skill.id),
        skill.slug.clone(),
    )
    .at(at)
}

fn require(caller: &User, action: LifecycleAction, skill: &SkillRow) -> AppResult<()> {
    if policy::may_lifecycle(caller, action, skill) {
        Ok(())
    } else {
        Err(AppError::Forbidden(FORBIDDEN.into()))
    }
}

/// A soft delete's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deleted {
    /// Until when the slug is held for the owner (owner deletes only).
    pub slug_reserved_until: Option<i64>,
}

/// Soft-deletes a skill: hidden from every public read, versions and tags kept. An owner's
/// delete holds the slug for [`SLUG_HOLD_MS`]; a moderator's or admin's is a hide only
/// staff can undo.
pub async fn delete(
    store: &dyn Store,
    caller: &User,
    skill: &SkillRow,
    reason: Option<String>,
) -> AppResult<Deleted> {
    require(caller, LifecycleAction::Delete, skill)?;
    let by_owner = Relation::to_skill(Some(caller), skill) == Relation::Owner;
    let history = store.skill_lifecycle(skill.id).await?.unwrap_or_default();
    if by_owner
        && (skill.hidden_at.is_some()
            || (skill.soft_deleted_at.is_some() && history.kind() != Some(DeleteKind::Owner)))
    {
        return Err(AppError::Forbidden(HIDDEN_NO_REDELETE.into()));
    }
    if skill.soft_deleted_at.is_some() {
        return Ok(Deleted {
            slug_reserved_until: history.slug_reserved_until.filter(|_| by_owner),
        });
    }
    let at = now();
    let kind = if by_owner {
        DeleteKind::Owner
    } else {
        DeleteKind::Staff
    };
    let slug_reserved_until = by_owner.then_some(at + SLUG_HOLD_MS);
    let reason = reason
        .map(|reason| reason.trim().to_owned())
        .filter(|reason| !reason.is_empty());
    let audit = event(caller, "skill.delete", skill, at)
        .from(json!({ "state": state_name(skill) }))
        .to(json!({
            "state": "deleted",
            "kind": kind.as_str(),
            "reason": reason,
            "slugReservedUntil": slug_reserved_until,
        }))
        .into_row();
    store
        .soft_delete_skill(
            &SkillDeletion {
                skill_id: skill.id,
                actor_id: caller.id,
                kind,
                reason,
                slug_reserved_until,
                now: at,
            },
            &audit,
        )
        .await?;
    Ok(Deleted {
        slug_reserved_until,
    })
}

/// Restores a soft-deleted (or moderator-hidden) skill. Owners may undo only their own
/// delete, and never a malware block or a merge.
pub async fn undelete(store: &dyn Store, caller: &User, skill: &SkillRow) -> AppResult<()> {
    require(caller, LifecycleAction::Undelete, skill)?;
    if skill.soft_deleted_at.is_none() && skill.hidden_at.is_none() {
        return Ok(());
    }
    if Relation::to_skill(Some(caller), skill) == Relation::Owner {
        if skill.is_malware_blocked {
            return Err(AppError::Forbidden(MALWARE_NO_RESTORE.into()));
        }
        let history = store.skill_lifecycle(skill.id).await?.unwrap_or_default();
        if skill.hidden_at.is_some() || history.kind() != Some(DeleteKind::Owner) {
            return Err(AppError::Forbidden(HIDDEN_NO_RESTORE.into()));
        }
    }
    let at = now();
    let audit = event(caller, "skill.undelete", skill, at)
        .from(json!({ "state": state_name(skill) }))
        .to(json!({ "state": state_name(&SkillRow {
            soft_deleted_at: None,
            hidden_at: None,
            ..skill.clone()
        }) }))
        .into_row();
    store.undelete_skill(skill.id, at, &audit).await?;
    Ok(())
}

/// Withdraws one version: no longer served or listed, tags pointing at it dropped, its
/// number never reused. The latest version cannot be withdrawn.
pub async fn withdraw_version(
    store: &dyn Store,
    caller: &User,
    skill: &SkillRow,
    version: &str,
) -> AppResult<()> {
    require(caller, LifecycleAction::WithdrawVersion, skill)?;
    let row = store
        .find_version(skill.id, version.trim())
        .await?
        .ok_or_else(|| AppError::not_found("Version not found"))?;
    if skill.latest_version_id == Some(row.id) {
        return Err(AppError::bad_request(LATEST_VERSION));
    }
    if row.soft_deleted_at.is_some() {
        return Ok(());
    }
    let at = now();
    let audit = event(caller, "skill.version.delete", skill, at)
        .from(json!({ "version": row.version, "state": "live" }))
        .to(json!({ "version": row.version, "state": "withdrawn" }))
        .into_row();
    match store
        .withdraw_version(row.id, caller.id, at, &audit)
        .await?
    {
        Withdrawn::IsLatest => Err(AppError::bad_request(LATEST_VERSION)),
        Withdrawn::Done | Withdrawn::AlreadyWithdrawn => Ok(()),
    }
}

/// A restored version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restored {
    /// The skill.
    pub skill_id: i64,
    /// The version.
    pub version_id: i64,
}

/// Restores a withdrawn version (not its tags, not `latest`). Owners restore only the
/// versions they withdrew themselves.
pub async fn restore_version(
    store: &dyn Store,
    caller: &User,
    skill: &SkillRow,
    version: &str,
) -> AppResult<Restored> {
    require(caller, LifecycleAction::RestoreVersion, skill)?;
    let row = store
        .find_version(skill.id, version.trim())
        .await?
        .ok_or_else(|| AppError::not_found("Version not found"))?;
    let restored = Restored {
        skill_id: skill.id,
        version_id: row.id,
    };
    if row.soft_deleted_at.is_none() {
        return Ok(restored);
    }
    if Relation::to_skill(Some(caller), skill) == Relation::Owner
        && store.version_withdrawn_by(row.id).await? != Some(caller.id)
    {
        return Err(AppError::Forbidden(FORBIDDEN.into()));
    }
    let at = now();
    let audit = event(caller, "skill.version.restore", skill, at)
        .from(json!({ "version": row.version, "state": "withdrawn" }))
        .to(json!({ "version": row.version, "state": "live" }))
        .into_row();
    store.restore_version(row.id, at, &audit).await?;
    Ok(restored)
}

/// A rename's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamedSkill {
    /// The new canonical slug.
    pub slug: String,
    /// The slug before (now an alias).
    pub previous_slug: String,
}

/// What a publish or rename by `claimant` onto the live slug of another owner's skill
/// (`holder`) gets. An owner-deleted skill holds its slug for [`SLUG_HOLD_MS`]: until then
/// the refusal says until when; after that the slug is released (the deleted skill keeps
/// its data under an unpublishable slug) and the caller may take it. Every other holder
/// keeps its slug: `Ok(false)` means "taken", `Ok(true)` "released, go ahead".
pub async fn claim_held_slug(
    store: &dyn Store,
    claimant: &User,
    holder: &SkillRow,
    slug: &str,
) -> AppResult<bool> {
    if holder.soft_deleted_at.is_none() || holder.slug != slug {
        return Ok(false);
    }
    let history = store.skill_lifecycle(holder.id).await?.unwrap_or_default();
    let Some(until) = history
        .slug_reserved_until
        .filter(|_| history.kind() == Some(DeleteKind::Owner))
    else {
        return Ok(false);
    };
    let at = now();
    if until > at {
        return Err(AppError::BadRequest(format!(
            "Slug \"{slug}\" is reserved for its previous owner until {}. Please choose a different slug.",
            crate::skills::reservations::iso_time(until)
        )));
    }
    let audit = event(claimant, "skill.slug_release", holder, at)
        .from(json!({ "slug": slug, "slugReservedUntil": until }))
        .to(json!({ "slug": format!("{slug}.released.{}", holder.id) }))
        .into_row();
    // False here means an undelete or another claim got there first: the caller's own
    // write then meets the slug in whatever state that left.
    store.release_held_slug(holder.id, slug, at, &audit).await?;
    Ok(true)
}

/// Gives a skill a new slug; the old one keeps leading to it as an alias.
pub async fn rename(
    store: &dyn Store,
    caller: &User,
    skill: &SkillRow,
    new_slug: &str,
) -> AppResult<RenamedSkill> {
    let new_slug = normalize_slug(new_slug);
    if new_slug.is_empty() {
        return Err(AppError::bad_request("newSlug required"));
    }
    if skill.soft_deleted_at.is_some() {
        return Err(AppError::not_found("Skill not found"));
    }
    require(caller, LifecycleAction::Rename, skill)?;
    let answer = RenamedSkill {
        slug: new_slug.clone(),
        previous_slug: skill.slug.clone(),
    };
    if new_slug == skill.slug {
        return Ok(answer);
    }
    bundle::validate_new_slug(&new_slug).map_err(AppError::BadRequest)?;
    // A slug an administrator reserved for someone else stays theirs, whoever renames.
    let owner = User {
        id: skill.owner_id,
        handle: skill.owner_handle.clone(),
        display_name: None,
        image: None,
        role: "user".into(),
    };
    crate::skills::reservations::check_slug_available(store, &new_slug, &owner, now()).await?;
    if let Some(holder) = store.find_skill(&new_slug).await? {
        let holder = holder.skill;
        if holder.id != skill.id
            && !(holder.owner_id != skill.owner_id
                && claim_held_slug(store, caller, &holder, &new_slug).await?)
        {
            return Err(AppError::bad_request(if holder.slug != new_slug {
                SLUG_REDIRECTS
            } else if holder.owner_id == skill.owner_id {
                SLUG_IS_YOURS
            } else {
                SLUG_TAKEN
            }));
        }
    }
    let at = now();
    let audit = event(caller, "skill.rename", skill, at)
        .from(json!({ "slug": skill.slug }))
        .to(json!({ "slug": new_slug }))
        .into_row();
    match store.rename_skill(skill.id, &new_slug, at, &audit).await {
        Ok(Renamed::Done) => Ok(answer),
        Ok(Renamed::AliasOfOther) => Err(AppError::bad_request(SLUG_REDIRECTS)),
        // A publish or rename that took the slug between the check and the write.
        Ok(Renamed::SlugTaken) | Err(DbError::Conflict(_)) => {
            Err(AppError::bad_request(SLUG_TAKEN))
        }
        Err(error) => Err(error.into()),
    }
}

/// Folds a duplicate (`source`) into a canonical skill (`target`): the source is hidden as
/// merged, its slug and aliases lead to the target, its stars move there. The caller must
/// be allowed to manage both.
pub async fn merge(
    store: &dyn Store,
    caller: &User,
    source: &SkillRow,
    target: &SkillRow,
) -> AppResult<()> {
    if source.id == target.id {
        return Err(AppError::bad_request(
            "Source and target must be different skills",
        ));
    }
    require(caller, LifecycleAction::Merge, source)?;
    require(caller, LifecycleAction::Merge, target)?;
    let target_history = store.skill_lifecycle(target.id).await?.unwrap_or_default();
    if target_history.canonical_skill_id.is_some() {
        return Err(AppError::bad_request(
            "Target skill must be canonical before merging. Merge into its canonical skill instead.",
        ));
    }
    let at = now();
    let audit = event(caller, "skill.merge", source, at)
        .from(json!({ "slug": source.slug, "state": state_name(source) }))
        .to(json!({ "state": "merged", "into": target.slug, "intoId": target.id.to_string() }))
        .into_row();
    store
        .merge_skills(source.id, target.id, caller.id, at, &audit)
        .await?;
    Ok(())
}

/// Removes a soft-deleted skill for good (administrators only): versions, files, tags,
/// stats, aliases and open transfers go; the slug becomes free. Blobs stay in storage and
/// are counted in [`HardDeleted::unreferenced_blobs`] for a collector, because storage is
/// content-addressed (another skill or package may hold the same bytes) and a publish in
/// flight may have uploaded a blob it has not referenced yet.
pub async fn hard_delete(
    store: &dyn Store,
    caller: &User,
    skill: &SkillRow,
) -> AppResult<HardDeleted> {
    if !policy::may_lifecycle(caller, LifecycleAction::HardDelete, skill) {
        return Err(AppError::Forbidden("Admin role required.".into()));
    }
    if skill.soft_deleted_at.is_none() {
        return Err(AppError::bad_request(
            "Only a deleted skill can be deleted permanently. Delete it first.",
        ));
    }
    let audit = event(caller, "skill.hard_delete", skill, now())
        .from(json!({
            "state": state_name(skill),
            "owner": skill.owner_handle,
            "versions": skill.versions_count,
        }))
        .to(json!({ "state": "gone" }))
        .into_row();
    Ok(store.hard_delete_skill(skill.id, &audit).await?)
}
