//! The audit use cases of the store: the [`AuditStore`] trait (a supertrait of `Store`, so
//! handlers reach it through the same `Arc<dyn Store>`) and its row types. The SQL lives in
//! `audit.rs`, mounted once per backend; its `insert_event` is also what other domains'
//! SQL calls inside their own write transactions (see `crate::audit`).

use async_trait::async_trait;

use crate::db::row::from_row;
use crate::error::DbError;

/// One state change to record. Build it with [`crate::audit::AuditEvent`].
#[derive(Debug, Clone, PartialEq)]
pub struct NewAuditEvent {
    /// The user who made the change; `None` for the server itself (a collector, a
    /// migration) or an operator at the command line.
    pub actor_id: Option<i64>,
    /// What happened, `<domain>.<verb>` (e.g. `skill.delete`).
    pub action: String,
    /// The kind of record changed (`skill`, `package`, `user`, …).
    pub target_kind: String,
    /// Its row id, when it has one.
    pub target_id: Option<i64>,
    /// Its name at the time of the change (slug, package name, handle).
    pub target_name: Option<String>,
    /// The state before, as JSON text.
    pub from_json: Option<String>,
    /// The state after, as JSON text.
    pub to_json: Option<String>,
    /// When, Unix ms.
    pub at: i64,
}

/// A stored audit row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRow {
    /// Row id; ids grow with time, so they order the log.
    pub id: i64,
    /// The acting user, `None` for the server or when the user is gone.
    pub actor_id: Option<i64>,
    /// The acting user's handle at the time.
    pub actor_handle: Option<String>,
    /// `<domain>.<verb>`.
    pub action: String,
    /// Kind of the changed record.
    pub target_kind: String,
    /// Row id of the changed record.
    pub target_id: Option<i64>,
    /// Name of the changed record at the time.
    pub target_name: Option<String>,
    /// State before (JSON text).
    pub from_json: Option<String>,
    /// State after (JSON text).
    pub to_json: Option<String>,
    /// When, Unix ms.
    pub created_at: i64,
}

from_row!(AuditRow {
    id,
    actor_id,
    actor_handle,
    action,
    target_kind,
    target_id,
    target_name,
    from_json,
    to_json,
    created_at
});

/// A filtered page of the audit log, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditQuery {
    /// Only rows of this actor handle.
    pub actor: Option<String>,
    /// Only rows whose action is this, or starts with this followed by `.`
    /// (`skill` matches `skill.delete`).
    pub action: Option<String>,
    /// Only rows about a record of this name.
    pub target: Option<String>,
    /// Only rows about records of this kind.
    pub target_kind: Option<String>,
    /// Only rows older than this id (the seek key of the previous page).
    pub before_id: Option<i64>,
    /// Most rows to return (the store returns up to `limit + 1` to detect a next page).
    pub limit: i64,
}

/// Audit use cases of the store.
#[async_trait]
pub trait AuditStore: Send + Sync {
    /// Records an event on its own (for changes that have no transaction of their own to
    /// join, such as a command-line action); returns the new row id.
    async fn record_audit(&self, event: &NewAuditEvent) -> Result<i64, DbError>;
    /// A page of the log, newest first; up to `limit + 1` rows.
    async fn list_audit(&self, query: &AuditQuery) -> Result<Vec<AuditRow>, DbError>;
}
