//! Reserved slugs and placeholder packages: the SQL of [`ReservationStore`] and its
//! implementation for this backend. Compiled once per backend.

use async_trait::async_trait;

use super::{Db, ThisStore, audit::insert_event, begin_write};
use crate::db::reservation_store::{
    NewPlaceholder, NewReservation, PackageReserved, ReservationRow, ReservationStore,
};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// The reservation of a slug, expired or not.
pub async fn find_reservation(pool: &Pool, slug: &str) -> Result<Option<ReservationRow>, DbError> {
    Ok(sqlx::query_as::<_, ReservationRow>(
        "SELECT r.slug, r.owner_id, u.handle AS owner_handle, r.expires_at \
         FROM slug_reservations r JOIN users u ON u.id = r.owner_id WHERE r.slug = $1",
    )
    .bind(slug)
    .fetch_optional(pool)
    .await?)
}

/// Reserves (or re-reserves) a slug.
pub async fn reserve_slug(pool: &Pool, reservation: &NewReservation) -> Result<(), DbError> {
    let mut tx = begin_write(pool).await?;
    sqlx::query(
        "INSERT INTO slug_reservations (slug, owner_id, reason, reserved_by, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (slug) DO UPDATE SET \
         owner_id = excluded.owner_id, reason = excluded.reason, \
         reserved_by = excluded.reserved_by, created_at = excluded.created_at, \
         expires_at = excluded.expires_at",
    )
    .bind(&reservation.slug)
    .bind(reservation.owner_id)
    .bind(&reservation.reason)
    .bind(reservation.reserved_by)
    .bind(reservation.now)
    .bind(reservation.expires_at)
    .execute(&mut *tx)
    .await?;
    insert_event(&mut tx, &reservation.audit).await?;
    tx.commit().await?;
    Ok(())
}

/// Creates a private placeholder package unless the name exists.
pub async fn reserve_package(
    pool: &Pool,
    placeholder: &NewPlaceholder,
    audit: &crate::db::audit_store::NewAuditEvent,
) -> Result<PackageReserved, DbError> {
    let mut tx = begin_write(pool).await?;
    let owner: Option<i64> = sqlx::query_scalar("SELECT owner_id FROM packages WHERE name = $1")
        .bind(&placeholder.name)
        .fetch_optional(&mut *tx)
        .await?;
    match owner {
        Some(owner) if owner == placeholder.owner_id => return Ok(PackageReserved::AlreadyOwned),
        Some(_) => return Ok(PackageReserved::Taken),
        None => {}
    }
    let package_id: i64 = sqlx::query_scalar(
        "INSERT INTO packages (name, display_name, family, channel, owner_id, summary, \
         created_at, updated_at) VALUES ($1, $1, $2, 'private', $3, $4, $5, $5) RETURNING id",
    )
    .bind(&placeholder.name)
    .bind(&placeholder.family)
    .bind(placeholder.owner_id)
    .bind(&placeholder.summary)
    .bind(placeholder.now)
    .fetch_one(&mut *tx)
    .await?;
    let mut audit = audit.clone();
    audit.target_id = Some(package_id);
    insert_event(&mut tx, &audit).await?;
    tx.commit().await?;
    Ok(PackageReserved::Reserved)
}

#[async_trait]
impl ReservationStore for ThisStore {
    async fn find_reservation(&self, slug: &str) -> Result<Option<ReservationRow>, DbError> {
        find_reservation(&self.0, slug).await
    }
    async fn reserve_slug(&self, reservation: &NewReservation) -> Result<(), DbError> {
        reserve_slug(&self.0, reservation).await
    }
    async fn reserve_package(
        &self,
        placeholder: &NewPlaceholder,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<PackageReserved, DbError> {
        reserve_package(&self.0, placeholder, audit).await
    }
}
