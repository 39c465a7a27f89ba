//! Skill transfers: the SQL of [`TransferStore`] and its implementation for this backend.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`). Status changes
//! are conditional updates on `status = 'pending'` inside a write transaction, so racing
//! actions have exactly one winner on both backends (SQLite serialises writers with
//! `BEGIN IMMEDIATE`; PostgreSQL re-checks the condition after the row lock is released).

use async_trait::async_trait;

use super::{Db, ThisStore, audit::insert_event, begin_write};
use crate::db::audit_store::NewAuditEvent;
use crate::db::transfer_store::{
    NewTransfer, TransferCreated, TransferDirection, TransferEnd, TransferEnded, TransferRow,
    TransferStore,
};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Columns of [`TransferRow`]; `FROM skill_transfers t` followed by [`TRANSFER_JOINS`].
const TRANSFER_SELECT: &str = "SELECT t.id, t.skill_id, s.slug AS skill_slug, \
    s.display_name AS skill_display_name, t.from_user_id, f.handle AS from_handle, \
    f.display_name AS from_display_name, t.to_user_id, r.handle AS to_handle, \
    r.display_name AS to_display_name, t.message, t.status, t.requested_at, t.expires_at \
    FROM skill_transfers t JOIN skills s ON s.id = t.skill_id \
    JOIN users f ON f.id = t.from_user_id JOIN users r ON r.id = t.to_user_id";

/// Stores a pending transfer unless one is pending.
pub async fn create_transfer(pool: &Pool, new: &NewTransfer) -> Result<TransferCreated, DbError> {
    let mut tx = begin_write(pool).await?;
    // Lazy expiry: a pending request whose period passed must not block a new one.
    sqlx::query(
        "UPDATE skill_transfers SET status = 'expired', resolved_at = $1 \
         WHERE skill_id = $2 AND status = 'pending' AND expires_at <= $1",
    )
    .bind(new.requested_at)
    .bind(new.skill_id)
    .execute(&mut *tx)
    .await?;
    // The partial unique index `skill_transfers_one_pending` is the real guard; this
    // insert simply does nothing when it would be violated.
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO skill_transfers (skill_id, from_user_id, to_user_id, message, status, \
         requested_at, expires_at) VALUES ($1, $2, $3, $4, 'pending', $5, $6) \
         ON CONFLICT (skill_id) WHERE status = 'pending' DO NOTHING RETURNING id",
    )
    .bind(new.skill_id)
    .bind(new.from_user_id)
    .bind(new.to_user_id)
    .bind(&new.message)
    .bind(new.requested_at)
    .bind(new.expires_at)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(id) = id else {
        return Ok(TransferCreated::AlreadyPending);
    };
    insert_event(&mut tx, &new.audit).await?;
    tx.commit().await?;
    Ok(TransferCreated::Created(id))
}

/// The pending transfer of a skill, expired or not.
pub async fn pending_transfer(pool: &Pool, skill_id: i64) -> Result<Option<TransferRow>, DbError> {
    let sql = format!("{TRANSFER_SELECT} WHERE t.skill_id = $1 AND t.status = 'pending'");
    Ok(sqlx::query_as::<_, TransferRow>(sqlx::AssertSqlSafe(sql))
        .bind(skill_id)
        .fetch_optional(pool)
        .await?)
}

/// Ends a pending transfer; an accept also moves the skill.
pub async fn end_transfer(
    pool: &Pool,
    transfer_id: i64,
    end: TransferEnd,
    now: i64,
    audit: &NewAuditEvent,
) -> Result<TransferEnded, DbError> {
    let mut tx = begin_write(pool).await?;
    let period = if end == TransferEnd::Expired {
        "expires_at <= $3"
    } else {
        "expires_at > $3"
    };
    let sql = format!(
        "UPDATE skill_transfers SET status = $1, resolved_at = $3 \
         WHERE id = $2 AND status = 'pending' AND {period} \
         RETURNING skill_id, from_user_id, to_user_id"
    );
    let won: Option<(i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(end.as_str())
        .bind(transfer_id)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
    let Some((skill_id, from_user_id, to_user_id)) = won else {
        return Ok(TransferEnded::NotPending);
    };
    if end == TransferEnd::Accepted {
        let moved = sqlx::query(
            "UPDATE skills SET owner_id = $1, updated_at = $2 WHERE id = $3 AND owner_id = $4",
        )
        .bind(to_user_id)
        .bind(now)
        .bind(skill_id)
        .bind(from_user_id)
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() != 1 {
            // Someone else moved the skill since the request: the offer is void.
            sqlx::query("UPDATE skill_transfers SET status = 'cancelled' WHERE id = $1")
                .bind(transfer_id)
                .execute(&mut *tx)
                .await?;
            let mut cancelled = audit.clone();
            cancelled.action = "skill.transfer.cancel".to_owned();
            cancelled.to_json = Some(
                r#"{"status":"cancelled","why":"sender no longer owns the skill"}"#.to_owned(),
            );
            insert_event(&mut tx, &cancelled).await?;
            tx.commit().await?;
            return Ok(TransferEnded::SenderNoLongerOwner);
        }
    }
    insert_event(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(TransferEnded::Done)
}

/// Pending, unexpired transfers of a user.
pub async fn list_transfers(
    pool: &Pool,
    user_id: i64,
    direction: TransferDirection,
    now: i64,
) -> Result<Vec<TransferRow>, DbError> {
    let party = match direction {
        TransferDirection::Incoming => "t.to_user_id",
        TransferDirection::Outgoing => "t.from_user_id",
    };
    let sql = format!(
        "{TRANSFER_SELECT} WHERE {party} = $1 AND t.status = 'pending' AND t.expires_at > $2 \
         AND s.soft_deleted_at IS NULL ORDER BY t.requested_at, t.id"
    );
    Ok(sqlx::query_as::<_, TransferRow>(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .bind(now)
        .fetch_all(pool)
        .await?)
}

/// Moves a skill at once, cancelling its pending transfer.
pub async fn move_skill(
    pool: &Pool,
    skill_id: i64,
    from_owner_id: i64,
    to_owner_id: i64,
    now: i64,
    audit: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let moved = sqlx::query(
        "UPDATE skills SET owner_id = $1, updated_at = $2 WHERE id = $3 AND owner_id = $4",
    )
    .bind(to_owner_id)
    .bind(now)
    .bind(skill_id)
    .bind(from_owner_id)
    .execute(&mut *tx)
    .await?;
    if moved.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query(
        "UPDATE skill_transfers SET status = 'cancelled', resolved_at = $1 \
         WHERE skill_id = $2 AND status = 'pending'",
    )
    .bind(now)
    .bind(skill_id)
    .execute(&mut *tx)
    .await?;
    insert_event(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(true)
}

#[async_trait]
impl TransferStore for ThisStore {
    async fn create_transfer(&self, new: &NewTransfer) -> Result<TransferCreated, DbError> {
        create_transfer(&self.0, new).await
    }
    async fn pending_transfer(&self, skill_id: i64) -> Result<Option<TransferRow>, DbError> {
        pending_transfer(&self.0, skill_id).await
    }
    async fn end_transfer(
        &self,
        transfer_id: i64,
        end: TransferEnd,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<TransferEnded, DbError> {
        end_transfer(&self.0, transfer_id, end, now, audit).await
    }
    async fn list_transfers(
        &self,
        user_id: i64,
        direction: TransferDirection,
        now: i64,
    ) -> Result<Vec<TransferRow>, DbError> {
        list_transfers(&self.0, user_id, direction, now).await
    }
    async fn move_skill(
        &self,
        skill_id: i64,
        from_owner_id: i64,
        to_owner_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        move_skill(&self.0, skill_id, from_owner_id, to_owner_id, now, audit).await
    }
}
