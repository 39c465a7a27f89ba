//! Application state shared by every handler.

use std::ops::Deref;
use std::sync::Arc;

use anyhow::Context as _;

use crate::cache::CachingStore;
pub use crate::cache::{ResolvedDownload, ResponseCache, ZipCache};
use crate::config::Config;
use crate::db::pg_blobs::PgBlobStorage;
use crate::db::{self, Backend, Store};
use crate::rate_limit::RateLimiter;
use crate::storage::{FsStorage, Storage};

/// Everything a handler needs.
pub struct App {
    /// Start-up configuration.
    pub config: Config,
    /// The database, behind the response cache: its writes invalidate what they change.
    pub store: Arc<dyn Store>,
    /// The blob storage.
    pub storage: Arc<dyn Storage>,
    /// Request limits.
    pub rate_limiter: RateLimiter,
    /// Built download archives by (version id, slug): they are deterministic.
    pub zip_cache: ZipCache,
    /// Package tarball bytes, resolved npm tarball requests and gathered download counts.
    pub artifacts: crate::packages::serving::ArtifactServing,
    /// Cached bodies of public reads (SQLite only); the store wrapper invalidates it.
    pub responses: Arc<ResponseCache>,
    /// Skill downloads: journaled on local disk per request, moved into the database in
    /// batches (see `downloads.rs`).
    pub downloads: Arc<crate::downloads::DownloadLedger>,
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
    /// Connects the database (running migrations) and opens the blob storage: the
    /// database's own on PostgreSQL, the storage directory on SQLite.
    pub async fn new(config: Config) -> anyhow::Result<Self> {
        let store = db::connect(&config.database_url, config.database_connections)
            .await
            .with_context(|| format!("failed to open the database `{}`", config.database_url))?;
        // On PostgreSQL the blobs live in the database too, so every instance on it sees
        // every file with nothing else shared; SQLite keeps them in the storage directory.
        let storage: Arc<dyn Storage> = if config.database_url.is_postgres() {
            Arc::new(
                PgBlobStorage::connect(
                    config.database_url.expose(),
                    (config.database_connections / 2).max(2),
                )
                .await?,
            )
        } else {
            Arc::new(FsStorage::open(&config.storage_dir)?)
        };
        Ok(Self::from_parts(config, store, storage))
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
        let responses = Arc::new(match store.backend() {
            Backend::Sqlite => ResponseCache::new(true),
            Backend::Postgres => ResponseCache::followed(),
        });
        let search = Arc::new(
            crate::search::SearchIndex::new().expect("an empty in-memory search index opens"),
        );
        // The index follows the database from a background task when there is a runtime
        // (always under `serve`); without one, searches still catch up when it is stale.
        if tokio::runtime::Handle::try_current().is_ok() {
            crate::search::SearchIndex::follow(&search, Arc::downgrade(&store));
            crate::cache::follow_skill_changes(responses.clone(), Arc::downgrade(&store));
        }
        let store: Arc<dyn Store> =
            Arc::new(CachingStore::new(store, responses.clone()).with_search(search));
        let config_downloads_dir = config.storage_dir.join("downloads");
        Self(Arc::new(App {
            responses,
            config,
            store,
            storage,
            rate_limiter,
            zip_cache: ZipCache::default(),
            artifacts: crate::packages::serving::ArtifactServing::default(),
            downloads: Arc::new(crate::downloads::DownloadLedger::new(config_downloads_dir)),
        }))
    }
}
