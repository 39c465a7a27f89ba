//! The reservation use cases of the store: the [`ReservationStore`] trait (a supertrait of
//! `Store`) and its row types. The SQL lives in `reservations.rs`, mounted once per backend.

use crate::db::row::from_row;
use async_trait::async_trait;

use crate::db::audit_store::NewAuditEvent;
use crate::error::DbError;

/// A slug held for an owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservationRow {
    /// The reserved root slug.
    pub slug: String,
    /// Who may publish under it.
    pub owner_id: i64,
    /// That owner's handle.
    pub owner_handle: String,
    /// Until when, Unix ms.
    pub expires_at: i64,
}

from_row!(ReservationRow {
    slug,
    owner_id,
    owner_handle,
    expires_at
});

/// A slug to reserve.
#[derive(Debug, Clone)]
pub struct NewReservation {
    /// The root slug.
    pub slug: String,
    /// Who may publish under it.
    pub owner_id: i64,
    /// Why, as the administrator said.
    pub reason: Option<String>,
    /// The administrator.
    pub reserved_by: i64,
    /// Time.
    pub now: i64,
    /// Until when.
    pub expires_at: i64,
    /// The audit row written with it.
    pub audit: NewAuditEvent,
}

/// A private placeholder package to create for an owner.
#[derive(Debug, Clone)]
pub struct NewPlaceholder {
    /// Package name.
    pub name: String,
    /// Family of the placeholder.
    pub family: String,
    /// Summary shown to whoever may see it.
    pub summary: String,
    /// The owner.
    pub owner_id: i64,
    /// Creation time.
    pub now: i64,
}

/// How reserving a package name ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackageReserved {
    /// A placeholder was created.
    Reserved,
    /// The owner already has a package of that name.
    AlreadyOwned,
    /// Someone else has it.
    Taken,
}

/// Reservation use cases of the store.
#[async_trait]
pub trait ReservationStore: Send + Sync {
    /// The reservation of a slug, expired or not.
    async fn find_reservation(&self, slug: &str) -> Result<Option<ReservationRow>, DbError>;
    /// Reserves a slug for an owner until its expiry (replacing an older reservation),
    /// with its audit row.
    async fn reserve_slug(&self, reservation: &NewReservation) -> Result<(), DbError>;
    /// Creates a private placeholder package without releases unless the name exists,
    /// with its audit row.
    async fn reserve_package(
        &self,
        placeholder: &NewPlaceholder,
        audit: &NewAuditEvent,
    ) -> Result<PackageReserved, DbError>;
}
