//! A package's lifecycle after publish: soft delete and undelete, withdrawing and
//! restoring single releases, and giving the package to another publisher. Each function
//! takes the caller and the package name, finds the package whatever its state, decides
//! through [`policy`] and hands the store one change together with its audit row.
//!
//! Rules, as for skills (`crate::skills::lifecycle`):
//! - a package the caller may not manage is `Package not found` when deleted or private
//!   (its existence is not revealed) and `Forbidden` otherwise;
//! - withdrawing a withdrawn release and restoring a live one change nothing and answer
//!   as if they had (clients retry writes);
//! - a withdrawn release's number stays taken, and the latest release cannot be withdrawn
//!   (publish a replacement first); tags on a withdrawn release are dropped, since they
//!   would point at nothing, and are not restored with it.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::audit::{AuditEvent, TargetKind};
use crate::db::package_store::{PackageRow, ReleaseRow};
use crate::db::{Store, User};
use crate::error::{AppError, AppResult};
use crate::packages::name::PackageName;
use crate::policy::{self, PackageAction};

/// The answer for a package that does not exist or that the caller may not see.
pub const PACKAGE_NOT_FOUND: &str = "Package not found";
/// The answer for a release that does not exist.
pub const VERSION_NOT_FOUND: &str = "Version not found";
const LATEST_RELEASE: &str =
    "Publish a replacement version before deleting the current latest version.";
/// Longest transfer reason kept.
pub const MAX_REASON_CHARS: usize = 1000;

/// The tags of a package (tag → version).
pub fn tags_of(package: &PackageRow) -> BTreeMap<String, String> {
    serde_json::from_str(&package.tags_json).unwrap_or_default()
}

/// The audit event of a change to `package` by `user`.
fn event(user: &User, action: &str, package: &PackageRow, now: i64) -> AuditEvent {
    AuditEvent::new(
        Some(user),
        action,
        TargetKind::Package,
        Some(package.id),
        package.name.clone(),
    )
    .at(now)
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A package `caller` may act on with `action`, whatever its state.
pub async fn managed(
    store: &dyn Store,
    caller: &User,
    name: &str,
    action: PackageAction,
) -> AppResult<PackageRow> {
    let package = store
        .find_package(name)
        .await?
        .ok_or_else(|| AppError::not_found(PACKAGE_NOT_FOUND))?;
    if !policy::may_package(Some(caller), action, package.owner_id) {
        // A deleted or private package is not revealed to someone who cannot manage it.
        if package.deleted_at.is_some() || package.channel == "private" {
            return Err(AppError::not_found(PACKAGE_NOT_FOUND));
        }
        return Err(AppError::Forbidden("Forbidden".into()));
    }
    Ok(package)
}

/// A live package `caller` may act on with `action`.
async fn managed_live(
    store: &dyn Store,
    caller: &User,
    name: &str,
    action: PackageAction,
) -> AppResult<PackageRow> {
    let package = managed(store, caller, name, action).await?;
    if package.deleted_at.is_some() {
        return Err(AppError::not_found(PACKAGE_NOT_FOUND));
    }
    Ok(package)
}

/// A release of a live package `caller` manages, withdrawn or not.
async fn managed_release(
    store: &dyn Store,
    caller: &User,
    name: &str,
    version: &str,
) -> AppResult<(PackageRow, ReleaseRow)> {
    let package = managed_live(store, caller, name, PackageAction::DeleteOrRestore).await?;
    let release = store
        .find_release(package.id, version)
        .await?
        .ok_or_else(|| AppError::not_found(VERSION_NOT_FOUND))?;
    Ok((package, release))
}

/// Soft-deletes a package: it leaves every public surface, npm included.
pub async fn delete(store: &dyn Store, caller: &User, name: &str) -> AppResult<()> {
    let package = managed_live(store, caller, name, PackageAction::DeleteOrRestore).await?;
    let now = now_ms();
    let event = event(caller, "package.delete", &package, now)
        .from(json!({ "deleted": false }))
        .to(json!({ "deleted": true }));
    store
        .set_package_deleted(package.id, Some(now), now, &event.into_row())
        .await?;
    Ok(())
}

/// Restores a deleted package (on a live package it changes nothing but the audit log).
pub async fn undelete(store: &dyn Store, caller: &User, name: &str) -> AppResult<()> {
    let package = managed(store, caller, name, PackageAction::DeleteOrRestore).await?;
    let now = now_ms();
    let event = event(caller, "package.undelete", &package, now)
        .from(json!({ "deleted": true }))
        .to(json!({ "deleted": false }));
    store
        .set_package_deleted(package.id, None, now, &event.into_row())
        .await?;
    Ok(())
}

/// Withdraws one release: it leaves every read until restored, and its number stays taken.
pub async fn withdraw_release(
    store: &dyn Store,
    caller: &User,
    name: &str,
    version: &str,
) -> AppResult<()> {
    let (package, release) = managed_release(store, caller, name, version).await?;
    if release.withdrawn_at.is_some() {
        return Ok(());
    }
    if package.latest_version.as_deref() == Some(version) {
        return Err(AppError::BadRequest(LATEST_RELEASE.into()));
    }
    let mut tags = tags_of(&package);
    let dropped: Vec<String> = tags
        .iter()
        .filter(|(_, tagged)| tagged.as_str() == version)
        .map(|(tag, _)| tag.clone())
        .collect();
    tags.retain(|_, tagged| tagged.as_str() != version);
    let now = now_ms();
    let event = event(caller, "package.version.withdraw", &package, now)
        .from(json!({ "version": version, "withdrawn": false }))
        .to(json!({ "version": version, "withdrawn": true, "droppedTags": dropped }));
    store
        .set_release_withdrawn(
            release.id,
            Some((now, caller.id)),
            &json!(tags).to_string(),
            &event.into_row(),
        )
        .await?;
    Ok(())
}

/// Restores a withdrawn release (without the tags it lost).
pub async fn restore_release(
    store: &dyn Store,
    caller: &User,
    name: &str,
    version: &str,
) -> AppResult<()> {
    let (package, release) = managed_release(store, caller, name, version).await?;
    if release.withdrawn_at.is_none() {
        return Ok(());
    }
    let now = now_ms();
    let event = event(caller, "package.version.restore", &package, now)
        .from(json!({ "version": version, "withdrawn": true }))
        .to(json!({ "version": version, "withdrawn": false }));
    store
        .set_release_withdrawn(
            release.id,
            None,
            &json!(tags_of(&package)).to_string(),
            &event.into_row(),
        )
        .await?;
    Ok(())
}

/// Body of `POST /api/v1/packages/{name}/transfer`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TransferRequest {
    /// Handle of the publisher receiving the package (`@` optional).
    pub to_owner: String,
    /// Why, kept in the transfer's audit row (at most 1,000 characters).
    pub reason: Option<String>,
}

/// A package that changed hands.
#[derive(Debug, Clone)]
pub struct Transferred {
    /// The package as it was before the move.
    pub package: PackageRow,
    /// Its new owner.
    pub recipient: User,
}

/// Gives a package to another publisher at once. A scoped name stays with its scope's
/// publisher; skills published as packages move through the skills transfer flow.
pub async fn transfer(
    store: &dyn Store,
    caller: &User,
    name: &str,
    request: &TransferRequest,
) -> AppResult<Transferred> {
    let package = managed_live(store, caller, name, PackageAction::Transfer).await?;
    if package.family == "skill" {
        return Err(AppError::bad_request(
            "Skill packages must use the skills transfer flow",
        ));
    }
    let handle = request
        .to_owner
        .trim()
        .trim_start_matches('@')
        .to_lowercase();
    if let Ok(parsed) = PackageName::parse(&package.name)
        && let Some(scope) = parsed.scope()
        && scope != handle
    {
        return Err(AppError::BadRequest(format!(
            "Package scope \"@{scope}\" can only be transferred to publisher \"@{scope}\"."
        )));
    }
    let recipient = store
        .find_user(&handle)
        .await?
        .ok_or_else(|| AppError::BadRequest(format!("Publisher \"@{handle}\" not found.")))?;
    let reason = request
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|reason| !reason.is_empty());
    if reason.is_some_and(|reason| reason.chars().count() > MAX_REASON_CHARS) {
        return Err(AppError::BadRequest(format!(
            "reason must be at most {MAX_REASON_CHARS} characters"
        )));
    }
    let now = now_ms();
    let event = event(caller, "package.transfer", &package, now)
        .from(json!({ "owner": package.owner_handle }))
        .to(json!({ "owner": recipient.handle, "reason": reason }));
    store
        .transfer_package(package.id, recipient.id, now, &event.into_row())
        .await?;
    Ok(Transferred { package, recipient })
}
