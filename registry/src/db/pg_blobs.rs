//! Blobs in PostgreSQL: the [`Storage`] of deployments where the database is the only
//! thing several `registry serve` instances share.
//!
//! A blob is a `blobs` row (address, size, age) and its `blob_chunks` of at most
//! [`CHUNK_BYTES`], written in one transaction so that it appears complete or not at all,
//! and read chunk by chunk, so no statement carries a whole file. Writes are idempotent
//! (the address is the content), which is what lets a publish store its blobs before the
//! transaction that references them. A write of a blob that already exists refreshes its
//! `created_at`: the collector only deletes blobs older than its age guard, so a blob a
//! publish is about to reference again cannot be collected under it.

use std::collections::HashSet;
use std::time::Duration;

use anyhow::Context as _;
use async_trait::async_trait;
use axum::body::Bytes;
use sha2::{Digest as _, Sha256};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use tokio::io::AsyncReadExt as _;

use crate::storage::{Storage, hex, is_sha256_hex, sha256_hex};

/// Largest chunk row: big enough that a typical skill file is one row, small enough that
/// a 50 MB package never needs one 50 MB statement.
pub const CHUNK_BYTES: usize = 1024 * 1024;

/// Blob storage in the `blobs` and `blob_chunks` tables of a PostgreSQL database.
#[derive(Debug, Clone)]
pub struct PgBlobStorage {
    pool: PgPool,
}

/// What one collection of unreferenced database blobs did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PgCollection {
    /// Blobs kept: referenced, or too young to judge.
    pub kept: usize,
    /// Blobs deleted.
    pub removed: usize,
    /// Bytes of the deleted blobs.
    pub removed_bytes: u64,
}

impl PgBlobStorage {
    /// Opens a pool of its own on the database at `url`, whose migrations the store has
    /// applied (the `blobs` tables are among them).
    pub async fn connect(url: &str, connections: u32) -> anyhow::Result<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(connections.max(2))
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await
            .context("failed to connect to PostgreSQL for blobs")?;
        Ok(Self { pool })
    }

    /// Stores the chunks of `source` under `sha256` in one transaction; their hash must
    /// come out as `sha256`, else nothing is stored.
    async fn store_chunks(
        &self,
        sha256: &str,
        size: u64,
        mut source: ChunkSource<'_>,
    ) -> anyhow::Result<()> {
        let now = chrono::Utc::now().timestamp_millis();
        let mut tx = self
            .pool
            .begin()
            .await
            .context("failed to begin a blob write")?;
        // `xmax = 0` tells a fresh row from one the conflict clause updated.
        let (inserted,): (bool,) = sqlx::query_as(
            "INSERT INTO blobs (sha256, size, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (sha256) DO UPDATE SET created_at = GREATEST(blobs.created_at, EXCLUDED.created_at) \
             RETURNING (xmax = 0)",
        )
        .bind(sha256)
        .bind(i64::try_from(size).context("blob too large")?)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .context("failed to record a blob")?;
        if inserted {
            let mut hasher = Sha256::new();
            let mut seq: i32 = 0;
            let mut written = 0u64;
            while let Some(chunk) = source.next().await? {
                hasher.update(&chunk);
                written += chunk.len() as u64;
                sqlx::query("INSERT INTO blob_chunks (sha256, seq, bytes) VALUES ($1, $2, $3)")
                    .bind(sha256)
                    .bind(seq)
                    .bind(chunk.as_ref())
                    .execute(&mut *tx)
                    .await
                    .context("failed to write a blob chunk")?;
                seq += 1;
            }
            // Returning early drops the transaction, which rolls the whole blob back.
            anyhow::ensure!(
                hex(&hasher.finalize()) == sha256 && written == size,
                "blob content changed while it was stored"
            );
        }
        tx.commit().await.context("failed to commit a blob")?;
        Ok(())
    }

    /// Streams a file into the database in [`CHUNK_BYTES`] pieces, never holding it whole.
    pub async fn put_path(&self, path: &std::path::Path, sha256: &str) -> anyhow::Result<()> {
        anyhow::ensure!(is_sha256_hex(sha256), "invalid blob address `{sha256}`");
        let mut file = tokio::fs::File::open(path)
            .await
            .with_context(|| format!("failed to open `{}`", path.display()))?;
        let size = file
            .metadata()
            .await
            .with_context(|| format!("failed to read the size of `{}`", path.display()))?
            .len();
        self.store_chunks(sha256, size, ChunkSource::File(&mut file))
            .await
    }

    /// Deletes blobs that are not in `referenced` and were last written before
    /// `older_than` (Unix milliseconds). The age is checked again in the delete itself, so
    /// a blob written again meanwhile stays.
    pub async fn collect(
        &self,
        referenced: &HashSet<String>,
        older_than: i64,
    ) -> anyhow::Result<PgCollection> {
        let candidates: Vec<(String, i64)> =
            sqlx::query_as("SELECT sha256, size FROM blobs WHERE created_at < $1")
                .bind(older_than)
                .fetch_all(&self.pool)
                .await
                .context("failed to list the database blobs")?;
        let (total,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM blobs")
            .fetch_one(&self.pool)
            .await
            .context("failed to count the database blobs")?;
        let mut collection = PgCollection::default();
        for (sha256, size) in candidates {
            if referenced.contains(&sha256) {
                continue;
            }
            let deleted = sqlx::query("DELETE FROM blobs WHERE sha256 = $1 AND created_at < $2")
                .bind(&sha256)
                .bind(older_than)
                .execute(&self.pool)
                .await
                .context("failed to delete a database blob")?
                .rows_affected();
            if deleted > 0 {
                collection.removed += 1;
                collection.removed_bytes += u64::try_from(size).unwrap_or(0);
            }
        }
        collection.kept = usize::try_from(total)
            .unwrap_or(0)
            .saturating_sub(collection.removed);
        Ok(collection)
    }

    /// The size of a stored blob, `None` when there is none.
    async fn size_of(&self, sha256: &str) -> anyhow::Result<Option<u64>> {
        let size: Option<(i64,)> = sqlx::query_as("SELECT size FROM blobs WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await
            .context("failed to look up a blob")?;
        Ok(size.map(|(size,)| u64::try_from(size).unwrap_or(0)))
    }

    /// Closes the pool (for one-shot commands).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

#[async_trait]
impl Storage for PgBlobStorage {
    async fn put(&self, bytes: Bytes) -> anyhow::Result<String> {
        let sha256 = sha256_hex(&bytes);
        self.store_chunks(&sha256, bytes.len() as u64, ChunkSource::Memory(bytes))
            .await?;
        Ok(sha256)
    }

    async fn get(&self, sha256: &str) -> anyhow::Result<Option<Bytes>> {
        if !is_sha256_hex(sha256) {
            return Ok(None);
        }
        let Some(size) = self.size_of(sha256).await? else {
            return Ok(None);
        };
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        // One chunk per statement: no result holds more than a chunk.
        for seq in 0i32.. {
            let chunk: Option<(Vec<u8>,)> =
                sqlx::query_as("SELECT bytes FROM blob_chunks WHERE sha256 = $1 AND seq = $2")
                    .bind(sha256)
                    .bind(seq)
                    .fetch_optional(&self.pool)
                    .await
                    .context("failed to read a blob chunk")?;
            let Some((chunk,)) = chunk else { break };
            bytes.extend_from_slice(&chunk);
        }
        // A collector may delete an orphan between the two reads; a blob is whole or absent.
        if bytes.len() as u64 != size {
            return Ok(None);
        }
        Ok(Some(Bytes::from(bytes)))
    }

    /// Chunk by chunk, one statement each, as the client takes them: at most two chunks
    /// (2 MiB) of a blob are in memory at a time, however large it is.
    async fn get_stream(
        &self,
        sha256: &str,
    ) -> anyhow::Result<Option<(u64, crate::storage::BlobStream)>> {
        if !is_sha256_hex(sha256) {
            return Ok(None);
        }
        let Some(size) = self.size_of(sha256).await? else {
            return Ok(None);
        };
        let (sender, receiver) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(1);
        let (pool, address) = (self.pool.clone(), sha256.to_owned());
        tokio::spawn(async move {
            let mut sent = 0u64;
            for seq in 0i32.. {
                let chunk: Result<Option<(Vec<u8>,)>, _> =
                    sqlx::query_as("SELECT bytes FROM blob_chunks WHERE sha256 = $1 AND seq = $2")
                        .bind(&address)
                        .bind(seq)
                        .fetch_optional(&pool)
                        .await;
                let item = match chunk {
                    Ok(Some((chunk,))) => {
                        sent += chunk.len() as u64;
                        Ok(Bytes::from(chunk))
                    }
                    // A short blob (collected meanwhile) ends the body early: the client
                    // sees fewer bytes than Content-Length and discards the download.
                    Ok(None) if sent < size => Err(std::io::Error::other("blob ended early")),
                    Ok(None) => return,
                    Err(error) => Err(std::io::Error::other(error)),
                };
                let failed = item.is_err();
                if sender.send(item).await.is_err() || failed {
                    return;
                }
            }
        });
        let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
            receiver.recv().await.map(|item| (item, receiver))
        });
        Ok(Some((size, Box::pin(stream))))
    }

    async fn contains(&self, sha256: &str) -> anyhow::Result<bool> {
        if !is_sha256_hex(sha256) {
            return Ok(false);
        }
        let row: Option<(i32,)> = sqlx::query_as("SELECT 1 FROM blobs WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await
            .context("failed to look up a blob")?;
        Ok(row.is_some())
    }
}

/// Where the chunks of a blob write come from.
enum ChunkSource<'a> {
    /// Bytes already in memory, sliced without copying.
    Memory(Bytes),
    /// A file read a chunk at a time.
    File(&'a mut tokio::fs::File),
}

impl ChunkSource<'_> {
    /// The next chunk of at most [`CHUNK_BYTES`], `None` at the end.
    async fn next(&mut self) -> anyhow::Result<Option<Bytes>> {
        match self {
            Self::Memory(rest) => {
                if rest.is_empty() {
                    return Ok(None);
                }
                let take = rest.len().min(CHUNK_BYTES);
                Ok(Some(rest.split_to(take)))
            }
            Self::File(file) => {
                let mut buffer = vec![0u8; CHUNK_BYTES];
                let mut filled = 0;
                while filled < CHUNK_BYTES {
                    let read = file
                        .read(&mut buffer[filled..])
                        .await
                        .context("failed to read a staging file")?;
                    if read == 0 {
                        break;
                    }
                    filled += read;
                }
                buffer.truncate(filled);
                Ok((filled > 0).then(|| Bytes::from(buffer)))
            }
        }
    }
}
