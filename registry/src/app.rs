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
        Self(Arc::new(App {
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
