//! The audit log's SQL: [`insert_event`] (called inside other domains' write transactions,
//! so a change and its audit row commit or roll back together), the filtered page, and the
//! [`AuditStore`] implementation of this backend.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use std::fmt::Write as _;

use async_trait::async_trait;

use super::{Db, ThisStore};
use crate::db::audit_store::{AuditQuery, AuditRow, AuditStore, NewAuditEvent};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;
type Connection = <Db as sqlx::Database>::Connection;

/// Writes one audit row on `connection` (pass `&mut *tx` to join a write transaction).
/// The actor's handle is read from `users` here so callers only need the id.
pub async fn insert_event(
    connection: &mut Connection,
    event: &NewAuditEvent,
) -> Result<i64, DbError> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO audit_events (actor_id, actor_handle, action, target_kind, target_id, \
         target_name, from_json, to_json, created_at) \
         VALUES ($1, (SELECT handle FROM users WHERE id = $1), $2, $3, $4, $5, $6, $7, $8) \
         RETURNING id",
    )
    .bind(event.actor_id)
    .bind(&event.action)
    .bind(&event.target_kind)
    .bind(event.target_id)
    .bind(&event.target_name)
    .bind(&event.from_json)
    .bind(&event.to_json)
    .bind(event.at)
    .fetch_one(&mut *connection)
    .await?;
    Ok(id)
}

/// A page of the log, newest first; up to `limit + 1` rows.
pub async fn list_audit(pool: &Pool, query: &AuditQuery) -> Result<Vec<AuditRow>, DbError> {
    let mut sql = String::from(
        "SELECT id, actor_id, actor_handle, action, target_kind, target_id, target_name, \
         from_json, to_json, created_at FROM audit_events WHERE TRUE",
    );
    // Placeholders are numbered in the order the values are bound below.
    let mut next = 1;
    if query.actor.is_some() {
        let _ = write!(sql, " AND actor_handle = ${next}");
        next += 1;
    }
    if query.action.is_some() {
        // An exact action, or a dotted prefix of one; compared with substr rather than
        // LIKE so no wildcard in the filter text means anything.
        let _ = write!(
            sql,
            " AND (action = ${next} OR substr(action, 1, length(${next}) + 1) = ${next} || '.')"
        );
        next += 1;
    }
    if query.target.is_some() {
        let _ = write!(sql, " AND target_name = ${next}");
        next += 1;
    }
    if query.target_kind.is_some() {
        let _ = write!(sql, " AND target_kind = ${next}");
        next += 1;
    }
    if query.before_id.is_some() {
        let _ = write!(sql, " AND id < ${next}");
        next += 1;
    }
    let _ = write!(sql, " ORDER BY id DESC LIMIT ${next}");
    let mut statement = sqlx::query_as::<_, AuditRow>(sqlx::AssertSqlSafe(sql));
    for value in [
        &query.actor,
        &query.action,
        &query.target,
        &query.target_kind,
    ]
    .into_iter()
    .flatten()
    {
        statement = statement.bind(value.clone());
    }
    if let Some(before) = query.before_id {
        statement = statement.bind(before);
    }
    Ok(statement.bind(query.limit + 1).fetch_all(pool).await?)
}

#[async_trait]
impl AuditStore for ThisStore {
    async fn record_audit(&self, event: &NewAuditEvent) -> Result<i64, DbError> {
        let mut connection = self.0.acquire().await?;
        insert_event(&mut connection, event).await
    }
    async fn list_audit(&self, query: &AuditQuery) -> Result<Vec<AuditRow>, DbError> {
        list_audit(&self.0, query).await
    }
}
