//! Reservations: an administrator holds root slugs and package names for an owner
//! (`POST /api/v1/users/reserve`). A reserved slug is held in `slug_reservations` for
//! [`RESERVATION_PERIOD_MS`]; until then only its owner may publish a new skill (or rename
//! one) under it, and everyone else is told until when. A reserved package name becomes a
//! private placeholder package without releases, owned by the owner, so the package
//! publish path already refuses it to others.

use crate::audit::{AuditEvent, TargetKind};
use crate::bundle::{normalize_slug, validate_new_slug};
use crate::db::reservation_store::{NewPlaceholder, NewReservation, PackageReserved};
use crate::db::{Store, User};
use crate::error::{AppError, AppResult};
use crate::packages::name::PackageName;

/// How long a slug reservation holds: 90 days, as on the reference registry.
pub const RESERVATION_PERIOD_MS: i64 = 90 * 24 * 60 * 60 * 1000;

/// Most slugs and package names in one request.
pub const MAX_RESERVATIONS: usize = 200;

/// Summary of a placeholder package.
pub const PLACEHOLDER_SUMMARY: &str = "Reserved for an official OpenClaw plugin.";

/// A reservation request.
#[derive(Debug, Clone, Default)]
pub struct ReserveRequest {
    /// The owner's handle.
    pub handle: String,
    /// Root slugs to hold.
    pub slugs: Option<Vec<String>>,
    /// Package names to hold.
    pub package_names: Option<Vec<String>>,
    /// Why, for the audit log.
    pub reason: Option<String>,
}

/// What happened to one item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemResult {
    /// `slug` or `package`.
    pub kind: &'static str,
    /// The slug or name as normalised.
    pub name: String,
    /// `reserved` or `already_owned` on success, the error text otherwise.
    pub outcome: Result<&'static str, String>,
}

/// Checks a request before anything is stored (the refusals of the whole request).
pub fn check(request: &ReserveRequest) -> AppResult<()> {
    if request.handle.trim().trim_start_matches('@').is_empty() {
        return Err(AppError::bad_request("Missing handle"));
    }
    if request.slugs.is_none() && request.package_names.is_none() {
        return Err(AppError::bad_request("Missing slugs or packageNames array"));
    }
    let count = request.slugs.as_ref().map_or(0, Vec::len)
        + request.package_names.as_ref().map_or(0, Vec::len);
    if count > MAX_RESERVATIONS {
        return Err(AppError::BadRequest(format!(
            "Too many reservations (max {MAX_RESERVATIONS})"
        )));
    }
    Ok(())
}

/// Reserves every item of `request` for its owner, one by one (each item stands alone, as
/// the reference answers per item).
pub async fn reserve(
    store: &dyn Store,
    admin: &User,
    request: ReserveRequest,
    now: i64,
) -> AppResult<Vec<ItemResult>> {
    check(&request)?;
    let handle = request
        .handle
        .trim()
        .trim_start_matches('@')
        .to_ascii_lowercase();
    let owner = store
        .find_user(&handle)
        .await?
        .ok_or_else(|| AppError::not_found("User not found"))?;
    let mut results = Vec::new();
    for slug in request.slugs.unwrap_or_default() {
        let slug = normalize_slug(&slug);
        let outcome =
            reserve_slug(store, admin, &owner, &slug, request.reason.as_deref(), now).await?;
        results.push(ItemResult {
            kind: "slug",
            name: slug,
            outcome,
        });
    }
    for name in request.package_names.unwrap_or_default() {
        let name = name.trim().to_owned();
        let outcome = reserve_package(store, admin, &owner, &name, now).await?;
        results.push(ItemResult {
            kind: "package",
            name,
            outcome,
        });
    }
    Ok(results)
}

async fn reserve_slug(
    store: &dyn Store,
    admin: &User,
    owner: &User,
    slug: &str,
    reason: Option<&str>,
    now: i64,
) -> AppResult<Result<&'static str, String>> {
    if let Err(problem) = validate_new_slug(slug) {
        return Ok(Err(problem));
    }
    if let Some(existing) = store.find_skill(slug).await? {
        return Ok(if existing.skill.owner_id == owner.id {
            Ok("already_owned")
        } else {
            Err("Slug already exists and belongs to another owner".to_owned())
        });
    }
    let expires_at = now.saturating_add(RESERVATION_PERIOD_MS);
    let audit = AuditEvent::new(Some(admin), "slug.reserve", TargetKind::Skill, None, slug)
        .to(serde_json::json!({ "owner": owner.handle, "expiresAt": expires_at, "reason": reason }))
        .at(now)
        .into_row();
    store
        .reserve_slug(&NewReservation {
            slug: slug.to_owned(),
            owner_id: owner.id,
            reason: reason.map(str::to_owned),
            reserved_by: admin.id,
            now,
            expires_at,
            audit,
        })
        .await?;
    Ok(Ok("reserved"))
}

async fn reserve_package(
    store: &dyn Store,
    admin: &User,
    owner: &User,
    name: &str,
    now: i64,
) -> AppResult<Result<&'static str, String>> {
    if let Err(problem) = PackageName::parse(name) {
        return Ok(Err(problem));
    }
    let audit = AuditEvent::new(
        Some(admin),
        "package.reserve",
        TargetKind::Package,
        None,
        name,
    )
    .to(serde_json::json!({ "owner": owner.handle, "channel": "private" }))
    .at(now)
    .into_row();
    let placeholder = NewPlaceholder {
        name: name.to_owned(),
        family: "code-plugin".to_owned(),
        summary: PLACEHOLDER_SUMMARY.to_owned(),
        owner_id: owner.id,
        now,
    };
    Ok(match store.reserve_package(&placeholder, &audit).await? {
        PackageReserved::Reserved => Ok("reserved"),
        PackageReserved::AlreadyOwned => Ok("already_owned"),
        PackageReserved::Taken => {
            Err("Package already exists and belongs to another publisher".to_owned())
        }
    })
}

/// Refuses a new skill (or a rename) under `slug` by anyone but the owner it is reserved
/// for, while the reservation holds; the refusal says until when.
pub async fn check_slug_available(
    store: &dyn Store,
    slug: &str,
    user: &User,
    now: i64,
) -> AppResult<()> {
    match store.find_reservation(slug).await? {
        Some(reservation) if reservation.expires_at > now && reservation.owner_id != user.id => {
            Err(AppError::BadRequest(format!(
                "Slug \"{slug}\" is reserved for another publisher until {}. Please choose a different slug.",
                iso_time(reservation.expires_at)
            )))
        }
        _ => Ok(()),
    }
}

/// Unix ms as an ISO 8601 UTC time, as the CLI prints them.
pub(crate) fn iso_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|time| time.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_else(|| ms.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_request_refusals_come_first() {
        let empty = ReserveRequest::default();
        assert!(matches!(check(&empty), Err(AppError::BadRequest(m)) if m == "Missing handle"));
        let no_lists = ReserveRequest {
            handle: "alice".into(),
            ..ReserveRequest::default()
        };
        assert!(
            matches!(check(&no_lists), Err(AppError::BadRequest(m)) if m == "Missing slugs or packageNames array")
        );
        let too_many = ReserveRequest {
            handle: "alice".into(),
            slugs: Some(vec!["a".into(); 150]),
            package_names: Some(vec!["b".into(); 51]),
            reason: None,
        };
        assert!(
            matches!(check(&too_many), Err(AppError::BadRequest(m)) if m == "Too many reservations (max 200)")
        );
        assert_eq!(iso_time(0), "1970-01-01T00:00:00.000Z");
    }
}
