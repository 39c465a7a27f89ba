//! Content-addressed blob storage: every file is stored once under its SHA-256.
//!
//! `FsStorage` writes a temporary file in the storage directory, fsyncs it and renames it
//! into place (`ab/cd/abcd…`), so a blob either exists completely or not at all; database
//! rows that reference a blob are committed only after `put` returned.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use anyhow::Context as _;
use async_trait::async_trait;
use axum::body::Bytes;
use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

/// True for 64 lowercase hex characters.
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A blob read piece by piece.
pub type BlobStream =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = std::io::Result<Bytes>> + Send>>;

/// Where file contents live.
#[async_trait]
pub trait Storage: Send + Sync {
    /// Stores `bytes` durably and returns their SHA-256 (the address).
    async fn put(&self, bytes: Bytes) -> anyhow::Result<String>;
    /// Reads a blob; `None` when it does not exist.
    async fn get(&self, sha256: &str) -> anyhow::Result<Option<Bytes>>;
    /// True when the blob exists.
    async fn contains(&self, sha256: &str) -> anyhow::Result<bool>;

    /// A blob's size and its bytes as a stream, for answers too large to hold whole in
    /// memory; `None` when it does not exist. Stores that cannot stream read it whole.
    async fn get_stream(&self, sha256: &str) -> anyhow::Result<Option<(u64, BlobStream)>> {
        Ok(self.get(sha256).await?.map(|bytes| {
            let size = bytes.len() as u64;
            let stream: BlobStream = Box::pin(futures_util::stream::once(async move {
                Ok::<_, std::io::Error>(bytes)
            }));
            (size, stream)
        }))
    }

    /// A temporary file to stream a large upload into before [`Storage::put_file`] stores
    /// it, so the upload never has to fit in memory. The file store puts it beside its
    /// blobs, so storing it is a rename.
    fn staging_file(&self) -> anyhow::Result<tempfile::NamedTempFile> {
        tempfile::NamedTempFile::new().context("failed to create a staging file")
    }

    /// Stores a complete staging file under `sha256`, which the caller computed while
    /// writing it. Stores without a cheaper way read the file and [`Storage::put`] it.
    async fn put_file(&self, file: tempfile::NamedTempFile, sha256: &str) -> anyhow::Result<()> {
        let bytes = tokio::fs::read(file.path())
            .await
            .context("failed to read a staging file")?;
        let stored = self.put(Bytes::from(bytes)).await?;
        anyhow::ensure!(stored == sha256, "staging file changed while it was stored");
        Ok(())
    }
}

/// Blobs in a directory tree.
#[derive(Debug, Clone)]
pub struct FsStorage {
    root: PathBuf,
}

impl FsStorage {
    /// Opens (creating) the storage directory.
    pub fn open(root: impl Into<PathBuf>) -> anyhow::Result<Self> {
        let root = root.into();
        std::fs::create_dir_all(root.join("tmp")).with_context(|| {
            format!(
                "failed to create the storage directory `{}`",
                root.display()
            )
        })?;
        Ok(Self { root })
    }

    fn path_of(&self, sha256: &str) -> Option<PathBuf> {
        if !is_sha256_hex(sha256) {
            return None;
        }
        Some(
            self.root
                .join(&sha256[..2])
                .join(&sha256[2..4])
                .join(sha256),
        )
    }
}

fn write_durably(root: &Path, target: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let parent = target.parent().context("blob path has no parent")?;
    std::fs::create_dir_all(parent)
        .with_context(|| format!("failed to create `{}`", parent.display()))?;
    let mut temporary = tempfile::NamedTempFile::new_in(root.join("tmp"))
        .with_context(|| format!("failed to create a temporary file in `{}`", root.display()))?;
    temporary
        .write_all(bytes)
        .context("failed to write a blob")?;
    temporary
        .as_file()
        .sync_all()
        .context("failed to sync a blob")?;
    temporary
        .persist(target)
        .with_context(|| format!("failed to move a blob to `{}`", target.display()))?;
    if let Ok(directory) = std::fs::File::open(parent) {
        // Persist the rename itself; failure here only weakens durability, never correctness.
        let _ = directory.sync_all();
    }
    Ok(())
}

#[async_trait]
impl Storage for FsStorage {
    async fn put(&self, bytes: Bytes) -> anyhow::Result<String> {
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || {
            let sha256 = sha256_hex(&bytes);
            let target = root.join(&sha256[..2]).join(&sha256[2..4]).join(&sha256);
            if !target.exists() {
                write_durably(&root, &target, &bytes)?;
            }
            Ok(sha256)
        })
        .await
        .context("blob writer task failed")?
    }

    async fn get(&self, sha256: &str) -> anyhow::Result<Option<Bytes>> {
        let Some(path) = self.path_of(sha256) else {
            return Ok(None);
        };
        match tokio::fs::read(&path).await {
            Ok(bytes) => Ok(Some(Bytes::from(bytes))),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => {
                Err(error).with_context(|| format!("failed to read `{}`", path.display()))
            }
        }
    }

    async fn contains(&self, sha256: &str) -> anyhow::Result<bool> {
        let Some(path) = self.path_of(sha256) else {
            return Ok(false);
        };
        Ok(tokio::fs::try_exists(&path).await.unwrap_or(false))
    }

    fn staging_file(&self) -> anyhow::Result<tempfile::NamedTempFile> {
        tempfile::NamedTempFile::new_in(self.root.join("tmp")).with_context(|| {
            format!(
                "failed to create a staging file in `{}`",
                self.root.display()
            )
        })
    }

    async fn put_file(&self, file: tempfile::NamedTempFile, sha256: &str) -> anyhow::Result<()> {
        let target = self
            .path_of(sha256)
            .context("staging file stored under an invalid address")?;
        tokio::task::spawn_blocking(move || {
            if target.exists() {
                return Ok(());
            }
            let parent = target.parent().context("blob path has no parent")?;
            std::fs::create_dir_all(parent)
                .with_context(|| format!("failed to create `{}`", parent.display()))?;
            file.as_file()
                .sync_all()
                .context("failed to sync a staging file")?;
            file.persist(&target)
                .with_context(|| format!("failed to move a blob to `{}`", target.display()))?;
            if let Ok(directory) = std::fs::File::open(parent) {
                // Persist the rename itself; failure here only weakens durability.
                let _ = directory.sync_all();
            }
            Ok(())
        })
        .await
        .context("blob writer task failed")?
    }
}

/// Blobs in memory, for tests.
#[derive(Debug, Default)]
pub struct MemoryStorage {
    blobs: RwLock<HashMap<String, Bytes>>,
}

#[async_trait]
impl Storage for MemoryStorage {
    async fn put(&self, bytes: Bytes) -> anyhow::Result<String> {
        let sha256 = sha256_hex(&bytes);
        let mut blobs = self
            .blobs
            .write()
            .map_err(|_| anyhow::anyhow!("memory storage lock poisoned"))?;
        blobs.entry(sha256.clone()).or_insert(bytes);
        Ok(sha256)
    }

    async fn get(&self, sha256: &str) -> anyhow::Result<Option<Bytes>> {
        let blobs = self
            .blobs
            .read()
            .map_err(|_| anyhow::anyhow!("memory storage lock poisoned"))?;
        Ok(blobs.get(sha256).cloned())
    }

    async fn contains(&self, sha256: &str) -> anyhow::Result<bool> {
        Ok(self.get(sha256).await?.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn fs_storage_round_trips_by_hash() {
        let dir = tempfile::tempdir().expect("temp dir");
        let storage = FsStorage::open(dir.path()).expect("open");
        let sha = storage
            .put(Bytes::from_static(b"hello"))
            .await
            .expect("put");
        assert_eq!(sha, sha256_hex(b"hello"));
        assert_eq!(
            storage.get(&sha).await.expect("get").as_deref(),
            Some(&b"hello"[..])
        );
        assert!(storage.get("../etc/passwd").await.expect("get").is_none());
        assert!(!storage.contains(&"0".repeat(64)).await.expect("contains"));
    }
}
