//! The `Store` trait: every database use case of the server, with a SQLite and a PostgreSQL
//! implementation.
//!
//! One file per domain holds its SQL as plain async functions over a concrete pool:
//! `users.rs` (users and tokens), `uploads.rs`, `skills.rs` (skills, versions, files, tags,
//! the listing predicate), `stats.rs` (downloads, installs, stars), `limits.rs` (rate-limit
//! buckets); `store_impl.rs` maps the trait onto them. The statements are the same text on
//! both backends, so `sqlite.rs` and `postgres.rs` each mount those files once with their
//! own `Db` type (`#[path]` modules) and add what differs: connection set-up, write
//! transactions, full-text search and its index. A new domain (packages, audit) adds a file
//! here, its methods on [`Store`], and one line per backend.

pub mod audit_store;
pub mod blob_store;
pub mod changes;
pub mod lifecycle_store;
pub mod migrations;
pub mod models;
pub mod package_store;
pub mod pages_store;
pub mod pg_blobs;
pub mod postgres;
pub mod report_store;
pub mod reservation_store;
mod row;
pub mod search_store;
pub mod sqlite;
pub mod transfer_store;

use std::sync::Arc;

use async_trait::async_trait;

pub use changes::{SkillChange, SkillChanges};
pub use models::*;

use crate::config::DatabaseUrl;
use crate::error::DbError;

/// Which database a store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite.
    Sqlite,
    /// PostgreSQL server.
    Postgres,
}

/// Every database use case of the server.
#[async_trait]
pub trait Store:
    package_store::PackageStore
    + pages_store::PageStore
    + audit_store::AuditStore
    + lifecycle_store::LifecycleStore
    + transfer_store::TransferStore
    + reservation_store::ReservationStore
    + report_store::ReportStore
    + search_store::SearchIndexStore
    + Send
    + Sync
{
    /// The backend of this store.
    fn backend(&self) -> Backend;

    /// Creates the user if missing (with `role`, default `user`); updates the role when given.
    async fn ensure_user(
        &self,
        handle: &str,
        role: Option<Role>,
        now: i64,
    ) -> Result<User, DbError>;
    /// Finds a user by lowercase handle.
    async fn find_user(&self, handle: &str) -> Result<Option<User>, DbError>;
    /// Stores the hash of a new API token.
    async fn insert_token(&self, user_id: i64, token_hash: &str, now: i64) -> Result<(), DbError>;
    /// Looks a token up by its hash (revoked ones included).
    async fn find_token(&self, token_hash: &str) -> Result<Option<TokenRecord>, DbError>;
    /// Revokes a token; false when no live token has this hash.
    async fn revoke_token(&self, token_hash: &str, now: i64) -> Result<bool, DbError>;

    /// Stores a new upload ticket.
    async fn insert_upload_ticket(&self, ticket: &NewUploadTicket) -> Result<(), DbError>;
    /// Finds an upload ticket.
    async fn find_upload_ticket(&self, ticket: &str) -> Result<Option<UploadTicket>, DbError>;
    /// Records the upload of a ticket's bytes; false when it was already uploaded or used.
    async fn mark_ticket_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        now: i64,
    ) -> Result<bool, DbError>;

    /// Publishes a version in one transaction (skill row, version, files, tags, tickets, index).
    async fn publish_version(&self, version: &NewVersion) -> Result<PublishOutcome, DbError>;

    /// A skill with detail columns, by canonical slug, whatever its visibility.
    async fn find_skill(&self, slug: &str) -> Result<Option<SkillDetailRow>, DbError>;
    /// A page of publicly visible skills; returns up to `limit + 1` rows.
    async fn list_skills(&self, query: &ListQuery) -> Result<Vec<SkillRow>, DbError>;
    /// Search candidates with their text relevance.
    async fn search_skills(&self, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError>;
    /// Skill changes committed by any process on this database, announced as they commit
    /// (PostgreSQL); `None` where this process is the only writer (SQLite).
    async fn skill_changes(&self) -> Result<Option<SkillChanges>, DbError>;

    /// Versions of a skill, newest first, after `(created_at, id)`; up to `limit + 1` rows.
    async fn list_versions(
        &self,
        skill_id: i64,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<VersionRow>, DbError>;
    /// One version by its string.
    async fn find_version(
        &self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<VersionRow>, DbError>;
    /// One version by id.
    async fn find_version_by_id(&self, version_id: i64) -> Result<Option<VersionRow>, DbError>;
    /// The version a tag points at.
    async fn find_tagged_version(
        &self,
        skill_id: i64,
        tag: &str,
    ) -> Result<Option<VersionRow>, DbError>;
    /// The newest live version with this fingerprint.
    async fn find_version_by_fingerprint(
        &self,
        skill_id: i64,
        fingerprint: &str,
    ) -> Result<Option<VersionRow>, DbError>;
    /// Files of a version in stored order.
    async fn version_files(&self, version_id: i64) -> Result<Vec<FileRow>, DbError>;

    /// Counts downloads once per skill, actor and UTC day, in one transaction; returns
    /// the skills whose counters moved. Replaying events already counted counts nothing.
    async fn record_downloads(&self, events: &[DownloadEvent]) -> Result<Vec<i64>, DbError>;
    /// Counts an install.
    async fn record_install(
        &self,
        skill_id: i64,
        user_id: Option<i64>,
        version: Option<&str>,
        now: i64,
    ) -> Result<(), DbError>;
    /// Stars (`true`) or unstars a skill; true when something changed.
    async fn set_star(
        &self,
        skill_id: i64,
        user_id: i64,
        starred: bool,
        now: i64,
    ) -> Result<bool, DbError>;

    /// Adds `amount` requests to a shared fixed-window bucket and returns its new count.
    async fn hit_rate_limit(
        &self,
        bucket: &str,
        window_start: i64,
        amount: i64,
    ) -> Result<i64, DbError>;
    /// Drops buckets of windows older than `window_start`.
    async fn prune_rate_limits(&self, window_start: i64) -> Result<(), DbError>;
}

/// Opens the store a URL selects and applies its migrations.
pub async fn connect(url: &DatabaseUrl, connections: u32) -> anyhow::Result<Arc<dyn Store>> {
    if url.is_postgres() {
        Ok(Arc::new(
            postgres::PgStore::connect(url.expose(), connections).await?,
        ))
    } else {
        Ok(Arc::new(
            sqlite::SqliteStore::connect(url.expose(), connections).await?,
        ))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn migrations_have_the_same_file_names_on_both_backends() {
        let names = |dir: &str| -> Vec<String> {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(dir);
            let mut names: Vec<String> = std::fs::read_dir(&path)
                .expect("migrations directory exists")
                .map(|entry| {
                    entry
                        .expect("readable entry")
                        .file_name()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            names.sort();
            names
        };
        let sqlite = names("sqlite");
        assert!(!sqlite.is_empty());
        assert_eq!(sqlite, names("postgres"));
    }
}
