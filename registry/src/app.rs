//! Application state shared by every handler.

use std::collections::{HashMap, HashSet};
use std::ops::Deref;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use axum::body::Bytes;

use crate::config::Config;
use crate::db::{self, Backend, Store};
use crate::rate_limit::RateLimiter;
use crate::storage::{FsStorage, Storage};

/// Most bytes of built ZIPs kept in memory.
const ZIP_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// Everything a handler needs.
pub struct App {
    /// Start-up configuration.
    pub config: Config,
    /// The database.
    pub store: Arc<dyn Store>,
    /// The blob storage.
    pub storage: Arc<dyn Storage>,
    /// Request limits.
    pub rate_limiter: RateLimiter,
    /// Built download archives by (version id, slug): they are deterministic.
    pub zip_cache: ZipCache,
    /// Cached bodies of public reads (SQLite only).
    pub responses: ResponseCache,
    /// Downloads already counted today, so repeats skip the database write.
    pub counted_downloads: Mutex<(i64, HashSet<(i64, String)>)>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("App")
            .field("config", &self.config)
            .field("rate_limiter", &self.rate_limiter)
            .finish_non_exhaustive()
    }
}

/// Cheaply clonable handle to the [`App`].
#[derive(Debug, Clone)]
pub struct AppState(Arc<App>);

impl Deref for AppState {
    type Target = App;

    fn deref(&self) -> &App {
        &self.0
    }
}

impl AppState {
    /// Connects the database (running migrations) and opens the storage directory.
    pub async fn new(config: Config) -> anyhow::Result<Self> {
        let store = db::connect(&config.database_url, config.database_connections)
            .await
            .with_context(|| format!("failed to open the database `{}`", config.database_url))?;
        let storage = FsStorage::open(&config.storage_dir)?;
        Ok(Self::from_parts(config, store, Arc::new(storage)))
    }

    /// Builds the state from an opened store and storage.
    pub fn from_parts(config: Config, store: Arc<dyn Store>, storage: Arc<dyn Storage>) -> Self {
        let rate_limiter = match store.backend() {
            Backend::Sqlite => RateLimiter::in_memory(
                config.rate_limit_read,
                config.rate_limit_write,
                config.rate_limit_download,
            ),
            Backend::Postgres => RateLimiter::in_database(
                config.rate_limit_read,
                config.rate_limit_write,
                config.rate_limit_download,
                store.clone(),
            ),
        };
        let responses = ResponseCache::new(store.backend() == Backend::Sqlite);
        Self(Arc::new(App {
            responses,
            config,
            store,
            storage,
            rate_limiter,
            zip_cache: ZipCache::default(),
            counted_downloads: Mutex::new((0, HashSet::new())),
        }))
    }
}

/// A bounded in-memory cache of built archives; cleared wholesale when full, which is
/// enough for a cache whose entries are cheap to rebuild.
#[derive(Debug, Default)]
pub struct ZipCache {
    entries: Mutex<CachedZips>,
}

/// Total cached bytes and the archives by (version id, slug).
type CachedZips = (usize, HashMap<(i64, String), Bytes>);

impl ZipCache {
    /// A cached archive.
    pub fn get(&self, version_id: i64, slug: &str) -> Option<Bytes> {
        let entries = self.entries.lock().ok()?;
        entries.1.get(&(version_id, slug.to_owned())).cloned()
    }

    /// Remembers an archive.
    pub fn insert(&self, version_id: i64, slug: &str, bytes: Bytes) {
        if bytes.len() > ZIP_CACHE_BYTES / 8 {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            if entries.0 + bytes.len() > ZIP_CACHE_BYTES {
                entries.1.clear();
                entries.0 = 0;
            }
            entries.0 += bytes.len();
            entries.1.insert((version_id, slug.to_owned()), bytes);
        }
    }
}

/// Most entries kept in the [`ResponseCache`] before it starts over.
const RESPONSE_CACHE_ENTRIES: usize = 50_000;
/// Most body bytes kept in the [`ResponseCache`] before it starts over.
const RESPONSE_CACHE_BYTES: usize = 128 * 1024 * 1024;

/// Serialized JSON bodies of public reads (skill, list, search) keyed by path and query.
///
/// Only used where this process is the only writer (SQLite): every write through the
/// store bumps the generation, so a cached body is never older than the last write. With
/// PostgreSQL other instances write too, so the cache stays off there.
#[derive(Debug)]
pub struct ResponseCache {
    enabled: bool,
    generation: std::sync::atomic::AtomicU64,
    entries: Mutex<CachedResponses>,
    /// One lock per key being computed, so concurrent misses wait for one computation
    /// instead of all hitting the database at once.
    in_flight: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Resolved downloads by path and query: the skill to count and the archive to send.
    downloads: Mutex<HashMap<String, ResolvedDownload>>,
}

/// A download request already resolved to its skill, file name and archive.
#[derive(Debug, Clone)]
pub struct ResolvedDownload {
    /// Generation the resolution was made at.
    pub generation: u64,
    /// Skill whose download counter the request feeds.
    pub skill_id: i64,
    /// `Content-Disposition` file name.
    pub file_name: String,
    /// The ZIP bytes.
    pub archive: Bytes,
}

/// Cached bytes in total, and each body with the generation it was computed at.
#[derive(Debug, Default)]
struct CachedResponses {
    bytes: usize,
    bodies: HashMap<String, (u64, Bytes)>,
}

impl ResponseCache {
    /// A cache that is on or off.
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            generation: std::sync::atomic::AtomicU64::new(0),
            entries: Mutex::new(CachedResponses::default()),
            in_flight: Mutex::new(HashMap::new()),
            downloads: Mutex::new(HashMap::new()),
        }
    }

    /// The current generation; read it before querying, store the result with it.
    pub fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Acquire)
    }

    /// The lock whose holder computes `key`; `None` when the cache is off.
    pub fn flight(&self, key: &str) -> Option<Arc<tokio::sync::Mutex<()>>> {
        if !self.enabled {
            return None;
        }
        let mut in_flight = self.in_flight.lock().ok()?;
        Some(in_flight.entry(key.to_owned()).or_default().clone())
    }

    /// Drops the lock of `key` once its body is computed (waiters keep their handles).
    pub fn land(&self, key: &str) {
        if let Ok(mut in_flight) = self.in_flight.lock() {
            in_flight.remove(key);
        }
    }

    /// A body cached for `key` at the current generation.
    pub fn get(&self, key: &str) -> Option<Bytes> {
        if !self.enabled {
            return None;
        }
        let current = self.generation();
        let entries = self.entries.lock().ok()?;
        match entries.bodies.get(key) {
            Some((generation, body)) if *generation == current => Some(body.clone()),
            _ => None,
        }
    }

    /// Remembers a body computed at `generation`.
    pub fn put(&self, key: String, generation: u64, body: Bytes) {
        if !self.enabled || generation != self.generation() {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            if entries.bodies.len() >= RESPONSE_CACHE_ENTRIES
                || entries.bytes + body.len() > RESPONSE_CACHE_BYTES
            {
                entries.bodies.clear();
                entries.bytes = 0;
            }
            entries.bytes += body.len();
            if let Some((_, old)) = entries.bodies.insert(key, (generation, body)) {
                entries.bytes = entries.bytes.saturating_sub(old.len());
            }
        }
    }

    /// A download resolved at the current generation.
    pub fn get_download(&self, key: &str) -> Option<ResolvedDownload> {
        if !self.enabled {
            return None;
        }
        let current = self.generation();
        let downloads = self.downloads.lock().ok()?;
        downloads
            .get(key)
            .filter(|resolved| resolved.generation == current)
            .cloned()
    }

    /// Remembers a resolved download.
    pub fn put_download(&self, key: String, resolved: ResolvedDownload) {
        if !self.enabled || resolved.generation != self.generation() {
            return;
        }
        if let Ok(mut downloads) = self.downloads.lock() {
            if downloads.len() >= 10_000 {
                downloads.clear();
            }
            downloads.insert(key, resolved);
        }
    }

    /// Forgets everything: called after every write.
    pub fn invalidate(&self) {
        if !self.enabled {
            return;
        }
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        if let Ok(mut entries) = self.entries.lock() {
            entries.bodies.clear();
            entries.bytes = 0;
        }
        if let Ok(mut downloads) = self.downloads.lock() {
            downloads.clear();
        }
    }
}
