//! Upload tickets of the CLI's publish flow.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use super::Db;
use crate::db::{NewUploadTicket, UploadTicket};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Stores a new ticket.
pub async fn insert_upload_ticket(pool: &Pool, ticket: &NewUploadTicket) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO upload_tickets \
         (ticket, user_id, path, size, sha256, content_type, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&ticket.ticket)
    .bind(ticket.user_id)
    .bind(&ticket.path)
    .bind(ticket.size)
    .bind(&ticket.sha256)
    .bind(&ticket.content_type)
    .bind(ticket.created_at)
    .bind(ticket.expires_at)
    .execute(pool)
    .await?;
    Ok(())
}

/// A ticket by its id.
pub async fn find_upload_ticket(
    pool: &Pool,
    ticket: &str,
) -> Result<Option<UploadTicket>, DbError> {
    Ok(sqlx::query_as::<_, UploadTicket>(
        "SELECT ticket, user_id, path, size, sha256, content_type, storage_id, expires_at, \
         uploaded_at, used_at FROM upload_tickets WHERE ticket = $1",
    )
    .bind(ticket)
    .fetch_optional(pool)
    .await?)
}

/// Records the upload of a ticket's bytes; false when already uploaded or used.
pub async fn mark_ticket_uploaded(
    pool: &Pool,
    ticket: &str,
    storage_id: &str,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE upload_tickets SET storage_id = $1, uploaded_at = $2 \
         WHERE ticket = $3 AND uploaded_at IS NULL AND used_at IS NULL",
    )
    .bind(storage_id)
    .bind(now)
    .bind(ticket)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}
