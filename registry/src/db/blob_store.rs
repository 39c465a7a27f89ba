//! Which blobs the database still references, for the orphan collector ([`crate::gc`]).
//!
//! Not part of [`Store`](crate::db::Store): only `registry gc` asks, with a pool of its
//! own, so the serving path and the caching wrapper never see it. The statement is the
//! same on both backends.

use std::collections::HashSet;

use crate::config::DatabaseUrl;
use crate::db::{postgres::PgStore, sqlite::SqliteStore};
use crate::error::DbError;

/// Every blob address a row points at: version files, package artifacts, and uploads
/// whose ticket may still be used by a publish (uploaded, unused, unexpired).
const REFERENCED_BLOBS: &str = "SELECT sha256 FROM version_files \
     UNION SELECT artifact_sha256 FROM package_releases \
     UNION SELECT storage_id FROM upload_tickets \
         WHERE storage_id IS NOT NULL AND used_at IS NULL AND expires_at > $1 \
     UNION SELECT storage_id FROM package_uploads \
         WHERE storage_id IS NOT NULL AND used_at IS NULL AND expires_at > $1";

/// The referenced blob addresses of the database at `url` (migrations applied first).
pub async fn referenced_blobs(url: &DatabaseUrl, now: i64) -> anyhow::Result<HashSet<String>> {
    let rows: Vec<(String,)> = if url.is_postgres() {
        let store = PgStore::connect(url.expose(), 2).await?;
        let rows = sqlx::query_as(REFERENCED_BLOBS)
            .bind(now)
            .fetch_all(&store.0)
            .await
            .map_err(DbError::from)?;
        store.0.close().await;
        rows
    } else {
        let store = SqliteStore::connect(url.expose(), 1).await?;
        let rows = sqlx::query_as(REFERENCED_BLOBS)
            .bind(now)
            .fetch_all(&store.0)
            .await
            .map_err(DbError::from)?;
        store.0.close().await;
        rows
    };
    Ok(rows.into_iter().map(|(sha256,)| sha256).collect())
}
