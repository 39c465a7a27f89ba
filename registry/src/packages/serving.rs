//! In-process state for serving artifacts fast: tarball bytes by SHA-256 (immutable, so
//! always valid), resolved npm tarball requests (valid until the next write, like the
//! response cache), and download counts gathered in memory and written at most once a
//! second instead of once per request.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use axum::body::Bytes;

/// Most tarball bytes kept in memory.
const BLOB_CACHE_BYTES: usize = 256 * 1024 * 1024;
/// Largest single tarball kept in memory.
pub const BLOB_CACHE_ENTRY: usize = 32 * 1024 * 1024;
/// Resolved tarball requests kept before starting over.
const RESOLVED_ENTRIES: usize = 20_000;
/// Least time between two writes of the gathered download counts.
pub const FLUSH_INTERVAL_MS: i64 = 1_000;

/// What a tarball request resolves to.
#[derive(Debug, Clone)]
pub struct ResolvedArtifact {
    /// Generation of the response cache it was resolved at.
    pub generation: u64,
    /// The package, for download counting.
    pub package_id: i64,
    /// File name for `Content-Disposition`.
    pub tarball_name: String,
    /// Hex SHA-256 (blob address and ETag).
    pub sha256: String,
    /// `sha512-…` integrity.
    pub integrity: String,
    /// Hex SHA-1.
    pub shasum: String,
    /// Bytes of the tarball.
    pub size: u64,
    /// The refusal text when the release may not be downloaded.
    pub blocked: Option<&'static str>,
}

/// Caches and counters for artifact serving, one per server.
#[derive(Debug, Default)]
pub struct ArtifactServing {
    blobs: Mutex<(usize, HashMap<String, Bytes>)>,
    resolved: Mutex<HashMap<String, ResolvedArtifact>>,
    pending_downloads: Mutex<HashMap<i64, i64>>,
    last_flush: AtomicI64,
}

impl ArtifactServing {
    /// Cached tarball bytes.
    pub fn blob(&self, sha256: &str) -> Option<Bytes> {
        self.blobs.lock().ok()?.1.get(sha256).cloned()
    }

    /// Remembers tarball bytes.
    pub fn remember_blob(&self, sha256: &str, bytes: Bytes) {
        if bytes.len() > BLOB_CACHE_ENTRY {
            return;
        }
        if let Ok(mut blobs) = self.blobs.lock() {
            if blobs.0 + bytes.len() > BLOB_CACHE_BYTES {
                blobs.1.clear();
                blobs.0 = 0;
            }
            blobs.0 += bytes.len();
            blobs.1.insert(sha256.to_owned(), bytes);
        }
    }

    /// A request resolved at `generation`.
    pub fn resolved(&self, key: &str, generation: u64) -> Option<ResolvedArtifact> {
        let resolved = self.resolved.lock().ok()?;
        resolved
            .get(key)
            .filter(|entry| entry.generation == generation)
            .cloned()
    }

    /// Remembers a resolved request.
    pub fn remember_resolved(&self, key: String, entry: ResolvedArtifact) {
        if let Ok(mut resolved) = self.resolved.lock() {
            if resolved.len() >= RESOLVED_ENTRIES {
                resolved.clear();
            }
            resolved.insert(key, entry);
        }
    }

    /// Counts one download in memory; returns the counts to write when a flush is due.
    pub fn count_download(&self, package_id: i64, now: i64) -> Option<Vec<(i64, i64)>> {
        if let Ok(mut pending) = self.pending_downloads.lock() {
            *pending.entry(package_id).or_insert(0) += 1;
        }
        let last = self.last_flush.load(Ordering::Acquire);
        if now - last >= FLUSH_INTERVAL_MS
            && self
                .last_flush
                .compare_exchange(last, now, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            return Some(self.take_pending());
        }
        None
    }

    /// Takes every gathered count (for a flush before reading the counters).
    pub fn take_pending(&self) -> Vec<(i64, i64)> {
        self.pending_downloads
            .lock()
            .map(|mut pending| pending.drain().collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_are_gathered_and_flushed_at_most_once_a_second() {
        let serving = ArtifactServing::default();
        let first = serving
            .count_download(7, 10_000)
            .expect("first flush is due");
        assert_eq!(first, [(7, 1)]);
        assert!(serving.count_download(7, 10_100).is_none());
        assert!(serving.count_download(8, 10_200).is_none());
        let mut flushed = serving.count_download(7, 11_000).expect("a second later");
        flushed.sort_unstable();
        assert_eq!(flushed, [(7, 2), (8, 1)]);
        assert!(serving.take_pending().is_empty());
    }

    #[test]
    fn resolutions_expire_with_the_generation() {
        let serving = ArtifactServing::default();
        let entry = ResolvedArtifact {
            generation: 3,
            package_id: 1,
            tarball_name: "a-1.0.0.tgz".into(),
            sha256: "x".into(),
            integrity: "sha512-x".into(),
            shasum: "y".into(),
            size: 1,
            blocked: None,
        };
        serving.remember_resolved("a/a-1.0.0.tgz".into(), entry);
        assert!(serving.resolved("a/a-1.0.0.tgz", 3).is_some());
        assert!(serving.resolved("a/a-1.0.0.tgz", 4).is_none());
    }
}
