//! Caches of public reads, and the [`CachingStore`] that keeps them honest.
//!
//! [`ResponseCache`] holds serialized JSON bodies of skill, list and search reads and the
//! resolved archives of downloads; [`ZipCache`] holds built archives. Invalidation is a
//! store concern: [`CachingStore`] wraps the real store and every write that can change a
//! public read bumps the cache generation after it commits, so no handler can forget.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use axum::body::Bytes;
use rustc_hash::FxHashMap;

use crate::db::{
    Backend, FileRow, ListQuery, NewUploadTicket, NewVersion, PublishOutcome, Role, SearchQuery,
    SearchRow, SkillDetailRow, SkillRow, Store, TokenRecord, UploadTicket, User, VersionRow,
};
use crate::error::DbError;

/// Most bytes of built ZIPs kept in memory.
const ZIP_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// The store wrapper whose writes invalidate the [`ResponseCache`].
pub struct CachingStore {
    inner: Arc<dyn Store>,
    responses: Arc<ResponseCache>,
    /// The search index its writes mark stale, and its searches answer from.
    search: Option<Arc<crate::search::SearchIndex>>,
}

impl CachingStore {
    /// Wraps `inner`; its writes will invalidate `responses`.
    pub fn new(inner: Arc<dyn Store>, responses: Arc<ResponseCache>) -> Self {
        Self {
            inner,
            responses,
            search: None,
        }
    }

    /// Answers searches from `index` and marks it stale after every write.
    pub fn with_search(mut self, index: Arc<crate::search::SearchIndex>) -> Self {
        index.drop_rows_in(self.responses.clone());
        self.search = Some(index);
        self
    }

    /// Passes a write's result through, invalidating when `changed` says it changed
    /// something a public read shows.
    fn after_write<T>(
        &self,
        result: Result<T, DbError>,
        changed: impl Fn(&T) -> bool,
    ) -> Result<T, DbError> {
        if let Ok(value) = &result
            && changed(value)
        {
            self.responses.invalidate();
            if let Some(search) = &self.search {
                search.mark_stale();
            }
        }
        result
    }

    /// Passes through a write that can change only one skill's own answers (and every
    /// list and search): `changed` names the skill, `None` when nothing changed.
    fn after_skill_write<T>(
        &self,
        result: Result<T, DbError>,
        changed: impl Fn(&T) -> Option<i64>,
    ) -> Result<T, DbError> {
        if let Ok(value) = &result
            && let Some(skill_id) = changed(value)
        {
            self.responses.invalidate_skill(skill_id);
            if let Some(search) = &self.search {
                search.mark_stale();
            }
        }
        result
    }
}

#[async_trait]
impl Store for CachingStore {
    fn backend(&self) -> Backend {
        self.inner.backend()
    }

    // Users, tokens and upload tickets appear in no cached body: plain pass-through.
    async fn ensure_user(
        &self,
        handle: &str,
        role: Option<Role>,
        now: i64,
    ) -> Result<User, DbError> {
        self.inner.ensure_user(handle, role, now).await
    }
    async fn find_user(&self, handle: &str) -> Result<Option<User>, DbError> {
        self.inner.find_user(handle).await
    }
    async fn insert_token(&self, user_id: i64, token_hash: &str, now: i64) -> Result<(), DbError> {
        self.inner.insert_token(user_id, token_hash, now).await
    }
    async fn find_token(&self, token_hash: &str) -> Result<Option<TokenRecord>, DbError> {
        self.inner.find_token(token_hash).await
    }
    async fn revoke_token(&self, token_hash: &str, now: i64) -> Result<bool, DbError> {
        self.inner.revoke_token(token_hash, now).await
    }
    async fn insert_upload_ticket(&self, ticket: &NewUploadTicket) -> Result<(), DbError> {
        self.inner.insert_upload_ticket(ticket).await
    }
    async fn find_upload_ticket(&self, ticket: &str) -> Result<Option<UploadTicket>, DbError> {
        self.inner.find_upload_ticket(ticket).await
    }
    async fn mark_ticket_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        self.inner
            .mark_ticket_uploaded(ticket, storage_id, now)
            .await
    }

    async fn publish_version(&self, version: &NewVersion) -> Result<PublishOutcome, DbError> {
        let result = self.inner.publish_version(version).await;
        // A publish lands on one skill (a new one, or the one its slug or alias names).
        self.after_skill_write(result, |outcome| match outcome {
            PublishOutcome::Published { skill_id, .. } => Some(*skill_id),
            _ => None,
        })
    }
    async fn find_skill(&self, slug: &str) -> Result<Option<SkillDetailRow>, DbError> {
        self.inner.find_skill(slug).await
    }
    async fn list_skills(&self, query: &ListQuery) -> Result<Vec<SkillRow>, DbError> {
        self.inner.list_skills(query).await
    }
    async fn search_skills(&self, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError> {
        let Some(index) = &self.search else {
            return self.inner.search_skills(query).await;
        };
        if !self.responses.keeps_rows() {
            return index.search(self.inner.as_ref(), query).await;
        }
        // Read before any row is: a row read while a write lands is kept under an older
        // stamp than that write's invalidation, so the next search reads it again.
        let generation = self.responses.generation();
        let hits = index.hits(self.inner.as_ref(), query).await?;
        let ids: Vec<i64> = hits.iter().map(|(id, _)| *id).collect();
        let (mut rows, missing) = self.responses.search_rows(&ids);
        if !missing.is_empty() {
            // Listed rows without the query's filters, so one cached row serves every
            // filter combination (they are applied below, `SearchQuery::admits`).
            let listed = SearchQuery {
                terms: Vec::new(),
                limit: query.limit,
                highlighted_only: false,
                non_suspicious_only: false,
                valid_prompt_sets_only: false,
            };
            let mut read: FxHashMap<i64, Arc<SkillRow>> = self
                .inner
                .find_search_hits(&missing, &listed)
                .await?
                .into_iter()
                .map(|row| (row.id, Arc::new(row)))
                .collect();
            let fresh: Vec<(i64, Option<Arc<SkillRow>>)> =
                missing.iter().map(|id| (*id, read.remove(id))).collect();
            rows.extend(fresh.iter().cloned());
            self.responses.put_search_rows(generation, fresh);
        }
        Ok(hits
            .into_iter()
            .filter_map(|(id, score)| {
                let row = rows.get(&id)?.as_ref()?;
                query.admits(row).then(|| SearchRow {
                    skill: Arc::clone(row),
                    text_rank: f64::from(score),
                })
            })
            .collect())
    }
    async fn skill_changes(&self) -> Result<Option<crate::db::SkillChanges>, DbError> {
        self.inner.skill_changes().await
    }
    async fn list_versions(
        &self,
        skill_id: i64,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<VersionRow>, DbError> {
        self.inner.list_versions(skill_id, after, limit).await
    }
    async fn find_version(
        &self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<VersionRow>, DbError> {
        self.inner.find_version(skill_id, version).await
    }
    async fn find_version_by_id(&self, version_id: i64) -> Result<Option<VersionRow>, DbError> {
        self.inner.find_version_by_id(version_id).await
    }
    async fn find_tagged_version(
        &self,
        skill_id: i64,
        tag: &str,
    ) -> Result<Option<VersionRow>, DbError> {
        self.inner.find_tagged_version(skill_id, tag).await
    }
    async fn find_version_by_fingerprint(
        &self,
        skill_id: i64,
        fingerprint: &str,
    ) -> Result<Option<VersionRow>, DbError> {
        self.inner
            .find_version_by_fingerprint(skill_id, fingerprint)
            .await
    }
    async fn version_files(&self, version_id: i64) -> Result<Vec<FileRow>, DbError> {
        self.inner.version_files(version_id).await
    }

    // Counters show in skill, list and search bodies.
    async fn record_downloads(
        &self,
        events: &[crate::db::DownloadEvent],
    ) -> Result<Vec<i64>, DbError> {
        let result = self.inner.record_downloads(events).await;
        if let Ok(skills) = &result {
            for skill_id in skills {
                self.responses.invalidate_skill(*skill_id);
            }
            if !skills.is_empty()
                && let Some(search) = &self.search
            {
                search.mark_stale();
            }
        }
        result
    }
    async fn record_install(
        &self,
        skill_id: i64,
        user_id: Option<i64>,
        version: Option<&str>,
        now: i64,
    ) -> Result<(), DbError> {
        let result = self
            .inner
            .record_install(skill_id, user_id, version, now)
            .await;
        self.after_skill_write(result, |()| Some(skill_id))
    }
    async fn set_star(
        &self,
        skill_id: i64,
        user_id: i64,
        starred: bool,
        now: i64,
    ) -> Result<bool, DbError> {
        let result = self.inner.set_star(skill_id, user_id, starred, now).await;
        self.after_skill_write(result, |changed| changed.then_some(skill_id))
    }

    async fn hit_rate_limit(
        &self,
        bucket: &str,
        window_start: i64,
        amount: i64,
    ) -> Result<i64, DbError> {
        self.inner
            .hit_rate_limit(bucket, window_start, amount)
            .await
    }
    async fn prune_rate_limits(&self, window_start: i64) -> Result<(), DbError> {
        self.inner.prune_rate_limits(window_start).await
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

/// Listens to the skill changes other instances announce (PostgreSQL) for as long as
/// `store` lives, dropping the rows `responses` keeps for the changed skills. While the
/// listening connection is down, no row is kept; it reconnects every second.
pub fn follow_skill_changes(responses: Arc<ResponseCache>, store: std::sync::Weak<dyn Store>) {
    tokio::spawn(async move {
        loop {
            let Some(live) = store.upgrade() else {
                return;
            };
            let listening = live.skill_changes().await;
            drop(live);
            match listening {
                // One writer: nothing to follow.
                Ok(None) => return,
                Ok(Some(mut changes)) => {
                    responses.hear_changes(true);
                    loop {
                        match changes.next().await {
                            Ok(Some(crate::db::SkillChange::Skill(id))) => {
                                responses.invalidate_skill(id);
                            }
                            Ok(Some(crate::db::SkillChange::Everything)) => responses.invalidate(),
                            Ok(None) => break,
                            Err(error) => {
                                tracing::warn!(error = %error, "skill changes: listening failed");
                                break;
                            }
                        }
                        if store.strong_count() == 0 {
                            return;
                        }
                    }
                    responses.hear_changes(false);
                }
                Err(error) => {
                    tracing::warn!(error = %error, "skill changes: cannot listen");
                }
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    });
}

/// Most entries kept in the [`ResponseCache`] before it starts over.
const RESPONSE_CACHE_ENTRIES: usize = 50_000;
/// Most body bytes kept in the [`ResponseCache`] before it starts over.
const RESPONSE_CACHE_BYTES: usize = 128 * 1024 * 1024;
/// Most search hit rows kept before they start over (about 1 KB each).
const SEARCH_ROWS: usize = 200_000;

/// What a cached answer depends on, so a write invalidates only what it can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// One skill's own answers (its detail, its resolved downloads): invalidated by a
    /// write to that skill or by a write of unknown reach, not by writes to other skills.
    Skill(i64),
    /// Answers over many records (lists, search, packuments): invalidated by every write.
    Listing,
}

/// Serialized JSON bodies of public reads (skill, list, search) keyed by path and query.
///
/// Used whole where this process is the only writer (SQLite): every write through the
/// store invalidates what it can change before the next read, so a cached body is never
/// older than the last write that concerns it. With PostgreSQL other instances write
/// too: only skill details are kept there, while their changes are heard (see
/// [`ResponseCache::followed`]).
///
/// Invalidation is by stamps rather than by emptying: every invalidation takes the next
/// stamp and records it for its scope (one skill, or everything); an entry remembers the
/// stamp read before it was computed and is valid while no invalidation of its scope came
/// after. So a publish of one skill leaves every other skill's cached detail and resolved
/// downloads in place, which is what keeps a registry that is being published to mostly
/// cached. Lists and searches show every skill and are invalidated by every write.
#[derive(Debug)]
pub struct ResponseCache {
    enabled: bool,
    /// Whether the rows behind search hits are kept (see [`Rows`]).
    rows: Rows,
    stamp: std::sync::atomic::AtomicU64,
    entries: Mutex<CachedResponses>,
    /// One lock per key being computed, so concurrent misses wait for one computation
    /// instead of all hitting the database at once.
    in_flight: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// Kept rows of search hits by skill id; `None`: the skill was not listed.
pub type KeptRows = FxHashMap<i64, Option<Arc<SkillRow>>>;

/// When the rows behind search hits may be kept between searches.
#[derive(Debug)]
enum Rows {
    /// Never.
    Off,
    /// Always: this process is the only writer and invalidates them itself (SQLite).
    Exact,
    /// While this process hears every other instance's skill changes (PostgreSQL's
    /// announcements, [`follow_skill_changes`]), and for at most [`FOLLOWED_ROW_AGE`]:
    /// a connection that stalls without closing cannot keep a row longer than that.
    Followed(std::sync::atomic::AtomicBool),
}

/// How long a row kept under [`Rows::Followed`] is used. A safety net only: announced
/// changes drop rows at once, and the search index drops the row of every skill whose
/// change stamp moved when it catches up (every 0.5 s). What is left for this bound is a
/// lost announcement of a change that keeps the stamp (a counted download).
const FOLLOWED_ROW_AGE: std::time::Duration = std::time::Duration::from_secs(10);

/// A download request already resolved to its skill, file name and archive.
#[derive(Debug, Clone)]
pub struct ResolvedDownload {
    /// Stamp read before the resolution was made (see [`ResponseCache::generation`]).
    pub generation: u64,
    /// Skill whose download counter the request feeds.
    pub skill_id: i64,
    /// `Content-Disposition` file name.
    pub file_name: String,
    /// The ZIP bytes.
    pub archive: Bytes,
}

/// The cached bodies and downloads, and the last invalidation stamp of each scope.
#[derive(Debug, Default)]
struct CachedResponses {
    bytes: usize,
    /// Each body with the stamp it was computed at, its scope and when it was stored.
    bodies: HashMap<String, (u64, Scope, std::time::Instant, Bytes)>,
    /// Resolved downloads by path and query (scope: their skill).
    downloads: HashMap<String, ResolvedDownload>,
    /// Rows of search hits with the stamp they were read at (scope: their skill); `None`
    /// for a hit whose skill was not listed then.
    search_rows: FxHashMap<i64, (u64, std::time::Instant, Option<Arc<SkillRow>>)>,
    /// Stamp of the last invalidation of everything.
    everything: u64,
    /// Stamp of the last write to any skill: lists and searches are stale from it on.
    listings: u64,
    /// Stamp of the last write to each skill.
    skills: FxHashMap<i64, u64>,
}

impl CachedResponses {
    /// Whether an entry computed at `stamp` with `scope` has seen no invalidation since.
    fn fresh(&self, stamp: u64, scope: Scope) -> bool {
        let last = match scope {
            Scope::Listing => self.listings,
            Scope::Skill(id) => self.skills.get(&id).copied().unwrap_or(0),
        };
        self.everything.max(last) <= stamp
    }

    /// Makes room by dropping an eighth of the bodies (in the map's arbitrary order),
    /// rather than all of them: emptying a full cache under its lock stalled every
    /// request for milliseconds, and it then refilled from nothing.
    fn evict_bodies(&mut self) {
        let entries_goal = RESPONSE_CACHE_ENTRIES / 8 * 7;
        let bytes_goal = RESPONSE_CACHE_BYTES / 8 * 7;
        let (mut count, mut bytes) = (self.bodies.len(), self.bytes);
        self.bodies.retain(|_, (_, _, _, body)| {
            if count <= entries_goal && bytes <= bytes_goal {
                return true;
            }
            count -= 1;
            bytes = bytes.saturating_sub(body.len());
            false
        });
        self.bytes = bytes;
    }

    fn clear(&mut self) {
        self.bodies.clear();
        self.downloads.clear();
        self.search_rows.clear();
        self.bytes = 0;
    }
}

impl ResponseCache {
    /// A cache that is on or off (the rows behind search hits too).
    pub fn new(enabled: bool) -> Self {
        let rows = if enabled { Rows::Exact } else { Rows::Off };
        Self::with_rows(enabled, rows)
    }

    /// A cache for a database other instances write to: search rows and skill details
    /// are kept while [`follow_skill_changes`] hears their changes, and for at most
    /// [`FOLLOWED_ROW_AGE`]; lists, searches, packuments and downloads are not kept.
    pub fn followed() -> Self {
        Self::with_rows(false, Rows::Followed(false.into()))
    }

    fn with_rows(enabled: bool, rows: Rows) -> Self {
        Self {
            enabled,
            rows,
            stamp: std::sync::atomic::AtomicU64::new(0),
            entries: Mutex::new(CachedResponses::default()),
            in_flight: Mutex::new(HashMap::new()),
        }
    }

    /// The current stamp; read it before querying, store the result with it. It changes
    /// with every invalidation, so callers that compare it for equality (the package
    /// caches) treat any write as one that concerns them.
    pub fn generation(&self) -> u64 {
        self.stamp.load(std::sync::atomic::Ordering::Acquire)
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

    /// A body cached for `key` that no write since has invalidated.
    pub fn get(&self, key: &str) -> Option<Bytes> {
        let followed = !self.enabled;
        if followed && !self.follows_skill_bodies() {
            return None;
        }
        let entries = self.entries.lock().ok()?;
        match entries.bodies.get(key) {
            Some((stamp, scope, stored, body))
                if entries.fresh(*stamp, *scope)
                    && !(followed && stored.elapsed() >= FOLLOWED_ROW_AGE) =>
            {
                Some(body.clone())
            }
            _ => None,
        }
    }

    /// Whether one skill's own bodies (its detail) may be kept although other instances
    /// write to the database: while their skill changes are heard ([`Rows::Followed`]).
    /// A skill's detail is read from its row, its owner's and its versions', whose every
    /// committed change is announced (migration `0110`). Lists, searches and packuments
    /// are not kept there: they depend on every skill and on packages, whose changes on
    /// another instance this one does not hear.
    fn follows_skill_bodies(&self) -> bool {
        matches!(&self.rows, Rows::Followed(heard) if heard.load(std::sync::atomic::Ordering::Acquire))
    }

    /// Remembers a body over many records computed at stamp `generation`.
    pub fn put(&self, key: String, generation: u64, body: Bytes) {
        self.put_scoped(key, generation, Scope::Listing, body);
    }

    /// Remembers a body computed at stamp `generation` that depends on `scope` only;
    /// dropped when a write to its scope landed while it was computed.
    pub fn put_scoped(&self, key: String, generation: u64, scope: Scope, body: Bytes) {
        let kept =
            self.enabled || (self.follows_skill_bodies() && matches!(scope, Scope::Skill(_)));
        if !kept {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            if !entries.fresh(generation, scope) {
                return;
            }
            if entries.bodies.len() >= RESPONSE_CACHE_ENTRIES
                || entries.bytes + body.len() > RESPONSE_CACHE_BYTES
            {
                entries.evict_bodies();
            }
            entries.bytes += body.len();
            let stored = std::time::Instant::now();
            if let Some((_, _, _, old)) = entries
                .bodies
                .insert(key, (generation, scope, stored, body))
            {
                entries.bytes = entries.bytes.saturating_sub(old.len());
            }
        }
    }

    /// A resolved download that no write to its skill has invalidated.
    pub fn get_download(&self, key: &str) -> Option<ResolvedDownload> {
        if !self.enabled {
            return None;
        }
        let entries = self.entries.lock().ok()?;
        entries
            .downloads
            .get(key)
            .filter(|resolved| entries.fresh(resolved.generation, Scope::Skill(resolved.skill_id)))
            .cloned()
    }

    /// Remembers a resolved download.
    pub fn put_download(&self, key: String, resolved: ResolvedDownload) {
        if !self.enabled {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            if !entries.fresh(resolved.generation, Scope::Skill(resolved.skill_id)) {
                return;
            }
            if entries.downloads.len() >= 10_000 {
                entries.downloads.clear();
            }
            entries.downloads.insert(key, resolved);
        }
    }

    /// The rows of search hits `ids` that no write to their skill has invalidated (a
    /// `None` row: not listed), and the ids to read from the database.
    pub fn search_rows(&self, ids: &[i64]) -> (KeptRows, Vec<i64>) {
        let mut found = FxHashMap::default();
        let mut missing = Vec::new();
        let entries = match self.entries.lock() {
            Ok(entries) if self.keeps_rows() => entries,
            _ => return (found, ids.to_vec()),
        };
        let aged = matches!(self.rows, Rows::Followed(_));
        for id in ids {
            match entries.search_rows.get(id) {
                Some((stamp, read_at, row))
                    if entries.fresh(*stamp, Scope::Skill(*id))
                        && !(aged && read_at.elapsed() >= FOLLOWED_ROW_AGE) =>
                {
                    found.insert(*id, row.clone());
                }
                _ => missing.push(*id),
            }
        }
        (found, missing)
    }

    /// Whether the rows behind search hits may be kept and used now.
    pub fn keeps_rows(&self) -> bool {
        match &self.rows {
            Rows::Off => false,
            Rows::Exact => true,
            Rows::Followed(heard) => heard.load(std::sync::atomic::Ordering::Acquire),
        }
    }

    /// Whether writes need stamping: something is kept that they can make stale.
    fn keeps_anything(&self) -> bool {
        self.enabled || !matches!(self.rows, Rows::Off)
    }

    /// Remembers rows of search hits read at stamp `generation`; a row whose skill was
    /// written to while it was read is dropped.
    pub fn put_search_rows(&self, generation: u64, rows: Vec<(i64, Option<Arc<SkillRow>>)>) {
        if !self.keeps_rows() {
            return;
        }
        let read_at = std::time::Instant::now();
        if let Ok(mut entries) = self.entries.lock() {
            if entries.search_rows.len() + rows.len() > SEARCH_ROWS {
                entries.search_rows.clear();
            }
            for (id, row) in rows {
                if entries.fresh(generation, Scope::Skill(id)) {
                    entries.search_rows.insert(id, (generation, read_at, row));
                }
            }
        }
    }

    /// Marks whether other instances' skill changes are heard (a no-op unless rows are
    /// [`Rows::Followed`]). Everything kept is dropped either way: rows read while
    /// nothing was heard may already be stale.
    fn hear_changes(&self, heard: bool) {
        if let Rows::Followed(flag) = &self.rows {
            if heard {
                self.invalidate();
                flag.store(true, std::sync::atomic::Ordering::Release);
            } else {
                flag.store(false, std::sync::atomic::Ordering::Release);
                self.invalidate();
            }
        }
    }

    /// Forgets everything: called by [`CachingStore`] after each write whose reach is
    /// wider than one skill (renames, merges, owners, packages, moderation).
    pub fn invalidate(&self) {
        if !self.keeps_anything() {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            let stamp = self.next_stamp();
            entries.everything = stamp;
            entries.clear();
        }
    }

    /// Invalidates what a write to one skill can change: its own answers, and every list
    /// and search. Other skills' answers stay.
    pub fn invalidate_skill(&self, skill_id: i64) {
        if !self.keeps_anything() {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            let stamp = self.next_stamp();
            entries.listings = stamp;
            entries.skills.insert(skill_id, stamp);
        }
    }

    /// Takes the next stamp (under the entries lock, so stamps and scopes move together).
    fn next_stamp(&self) -> u64 {
        self.stamp.fetch_add(1, std::sync::atomic::Ordering::AcqRel) + 1
    }
}

// Package writes that change what a public read shows invalidate like skill writes do.
// Download counts do not: no cached body shows them, and they are written every second.
#[async_trait]
impl crate::db::package_store::PackageStore for CachingStore {
    async fn publish_release(
        &self,
        new: &crate::db::package_store::NewRelease,
    ) -> Result<crate::db::package_store::PublishedRelease, DbError> {
        let result = self.inner.publish_release(new).await;
        self.after_write(result, |outcome| {
            matches!(
                outcome,
                crate::db::package_store::PublishedRelease::Published { .. }
            )
        })
    }
    async fn find_package(
        &self,
        name: &str,
    ) -> Result<Option<crate::db::package_store::PackageRow>, DbError> {
        self.inner.find_package(name).await
    }
    async fn find_release(
        &self,
        package_id: i64,
        version: &str,
    ) -> Result<Option<crate::db::package_store::ReleaseRow>, DbError> {
        self.inner.find_release(package_id, version).await
    }
    async fn find_release_by_tarball(
        &self,
        package_id: i64,
        tarball_name: &str,
    ) -> Result<Option<crate::db::package_store::ReleaseRow>, DbError> {
        self.inner
            .find_release_by_tarball(package_id, tarball_name)
            .await
    }
    async fn list_releases(
        &self,
        package_id: i64,
    ) -> Result<Vec<crate::db::package_store::ReleaseRow>, DbError> {
        self.inner.list_releases(package_id).await
    }
    async fn search_packages(
        &self,
        search: &crate::db::package_store::PackageSearch,
    ) -> Result<Vec<crate::db::package_store::PackageRow>, DbError> {
        self.inner.search_packages(search).await
    }
    async fn set_package_deleted(
        &self,
        package_id: i64,
        deleted_at: Option<i64>,
        now: i64,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self
            .inner
            .set_package_deleted(package_id, deleted_at, now, event)
            .await;
        self.after_write(result, |changed| *changed)
    }
    async fn transfer_package(
        &self,
        package_id: i64,
        owner_id: i64,
        now: i64,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<(), DbError> {
        let result = self
            .inner
            .transfer_package(package_id, owner_id, now, event)
            .await;
        self.after_write(result, |_| true)
    }
    async fn add_package_downloads(&self, package_id: i64, count: i64) -> Result<(), DbError> {
        self.inner.add_package_downloads(package_id, count).await
    }
    async fn set_release_withdrawn(
        &self,
        release_id: i64,
        withdrawn: Option<(i64, i64)>,
        tags_json: &str,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self
            .inner
            .set_release_withdrawn(release_id, withdrawn, tags_json, event)
            .await;
        self.after_write(result, |changed| *changed)
    }
    // The install count is part of the package's cached answers, as a skill's is.
    async fn record_package_install(&self, package_id: i64) -> Result<(), DbError> {
        let result = self.inner.record_package_install(package_id).await;
        self.after_write(result, |()| true)
    }
    // Staged uploads appear in no public read until a publish uses them.
    async fn insert_package_upload(
        &self,
        upload: &crate::db::package_store::PackageUpload,
    ) -> Result<(), DbError> {
        self.inner.insert_package_upload(upload).await
    }
    async fn find_package_upload(
        &self,
        ticket: &str,
    ) -> Result<Option<crate::db::package_store::PackageUpload>, DbError> {
        self.inner.find_package_upload(ticket).await
    }
    async fn mark_package_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        size: i64,
        now: i64,
    ) -> Result<bool, DbError> {
        self.inner
            .mark_package_uploaded(ticket, storage_id, size, now)
            .await
    }
    async fn consume_package_upload(&self, ticket: &str, now: i64) -> Result<bool, DbError> {
        self.inner.consume_package_upload(ticket, now).await
    }
    async fn export_plugins(
        &self,
        start: i64,
        end: i64,
        family: Option<&str>,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<crate::db::package_store::PackageRow>, DbError> {
        self.inner
            .export_plugins(start, end, family, after, limit)
            .await
    }
}

// The audit log appears in no cached body (it is admin-only and never cached), and an
// audit row is written together with the change it records, which invalidates on its own.
#[async_trait]
impl crate::db::audit_store::AuditStore for CachingStore {
    async fn record_audit(
        &self,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<i64, DbError> {
        self.inner.record_audit(event).await
    }
    async fn list_audit(
        &self,
        query: &crate::db::audit_store::AuditQuery,
    ) -> Result<Vec<crate::db::audit_store::AuditRow>, DbError> {
        self.inner.list_audit(query).await
    }
}

// An accepted or immediate transfer changes the owner every skill body shows; requests,
// rejections and cancellations appear in no cached body.
#[async_trait]
impl crate::db::transfer_store::TransferStore for CachingStore {
    async fn create_transfer(
        &self,
        new: &crate::db::transfer_store::NewTransfer,
    ) -> Result<crate::db::transfer_store::TransferCreated, DbError> {
        self.inner.create_transfer(new).await
    }
    async fn pending_transfer(
        &self,
        skill_id: i64,
    ) -> Result<Option<crate::db::transfer_store::TransferRow>, DbError> {
        self.inner.pending_transfer(skill_id).await
    }
    async fn end_transfer(
        &self,
        transfer_id: i64,
        end: crate::db::transfer_store::TransferEnd,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<crate::db::transfer_store::TransferEnded, DbError> {
        let result = self.inner.end_transfer(transfer_id, end, now, audit).await;
        self.after_write(result, |ended| {
            end == crate::db::transfer_store::TransferEnd::Accepted
                && *ended == crate::db::transfer_store::TransferEnded::Done
        })
    }
    async fn list_transfers(
        &self,
        user_id: i64,
        direction: crate::db::transfer_store::TransferDirection,
        now: i64,
    ) -> Result<Vec<crate::db::transfer_store::TransferRow>, DbError> {
        self.inner.list_transfers(user_id, direction, now).await
    }
    async fn move_skill(
        &self,
        skill_id: i64,
        from_owner_id: i64,
        to_owner_id: i64,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self
            .inner
            .move_skill(skill_id, from_owner_id, to_owner_id, now, audit)
            .await;
        self.after_write(result, |moved| *moved)
    }
}

// Reservations show in no cached body; a placeholder package is private, but package
// lists are cached too, so creating one invalidates to stay on the safe side.
#[async_trait]
impl crate::db::reservation_store::ReservationStore for CachingStore {
    async fn find_reservation(
        &self,
        slug: &str,
    ) -> Result<Option<crate::db::reservation_store::ReservationRow>, DbError> {
        self.inner.find_reservation(slug).await
    }
    async fn reserve_slug(
        &self,
        reservation: &crate::db::reservation_store::NewReservation,
    ) -> Result<(), DbError> {
        self.inner.reserve_slug(reservation).await
    }
    async fn reserve_package(
        &self,
        placeholder: &crate::db::reservation_store::NewPlaceholder,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<crate::db::reservation_store::PackageReserved, DbError> {
        let result = self.inner.reserve_package(placeholder, audit).await;
        self.after_write(result, |reserved| {
            *reserved == crate::db::reservation_store::PackageReserved::Reserved
        })
    }
}

// Hiding, a triage that hides or unhides, and a rescan's new flags all change what public
// reads show; opening a case does not.
#[async_trait]
impl crate::db::report_store::ReportStore for CachingStore {
    async fn set_skill_hidden(
        &self,
        skill_id: i64,
        hidden: bool,
        reason: Option<&str>,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self
            .inner
            .set_skill_hidden(skill_id, hidden, reason, now, audit)
            .await;
        self.after_write(result, |changed| *changed)
    }
    async fn open_case(
        &self,
        new: &crate::db::report_store::NewCase,
    ) -> Result<crate::db::report_store::CaseOpened, DbError> {
        self.inner.open_case(new).await
    }
    async fn find_case(
        &self,
        case_id: i64,
    ) -> Result<Option<crate::db::report_store::CaseRow>, DbError> {
        self.inner.find_case(case_id).await
    }
    async fn list_cases(
        &self,
        kind: &str,
        status: Option<&str>,
        before_id: Option<i64>,
        limit: i64,
    ) -> Result<Vec<crate::db::report_store::CaseRow>, DbError> {
        self.inner.list_cases(kind, status, before_id, limit).await
    }
    async fn close_case(
        &self,
        case_id: i64,
        status: &str,
        moderator_id: i64,
        note: Option<&str>,
        effect: crate::db::report_store::CaseEffect,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let changes_skill = effect != crate::db::report_store::CaseEffect::None;
        let result = self
            .inner
            .close_case(case_id, status, moderator_id, note, effect, now, audit)
            .await;
        self.after_write(result, |closed| *closed && changes_skill)
    }
    async fn store_rescan(
        &self,
        result: &crate::db::report_store::RescanResult,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<(), DbError> {
        let stored = self.inner.store_rescan(result, audit).await;
        self.after_write(stored, |()| true)
    }
}

// Every lifecycle write changes what public reads show (a skill appears or disappears, a
// slug moves, a version or tag goes): each invalidates when it changed something.
#[async_trait]
impl crate::db::lifecycle_store::LifecycleStore for CachingStore {
    async fn skill_lifecycle(
        &self,
        skill_id: i64,
    ) -> Result<Option<crate::db::lifecycle_store::SkillLifecycle>, DbError> {
        self.inner.skill_lifecycle(skill_id).await
    }
    async fn soft_delete_skill(
        &self,
        deletion: &crate::db::lifecycle_store::SkillDeletion,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self.inner.soft_delete_skill(deletion, audit).await;
        self.after_write(result, |changed| *changed)
    }
    async fn undelete_skill(
        &self,
        skill_id: i64,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self.inner.undelete_skill(skill_id, now, audit).await;
        self.after_write(result, |changed| *changed)
    }
    async fn withdraw_version(
        &self,
        version_id: i64,
        actor_id: i64,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<crate::db::lifecycle_store::Withdrawn, DbError> {
        let result = self
            .inner
            .withdraw_version(version_id, actor_id, now, audit)
            .await;
        self.after_write(result, |outcome| {
            *outcome == crate::db::lifecycle_store::Withdrawn::Done
        })
    }
    async fn restore_version(
        &self,
        version_id: i64,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self.inner.restore_version(version_id, now, audit).await;
        self.after_write(result, |changed| *changed)
    }
    async fn rename_skill(
        &self,
        skill_id: i64,
        new_slug: &str,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<crate::db::lifecycle_store::Renamed, DbError> {
        let result = self
            .inner
            .rename_skill(skill_id, new_slug, now, audit)
            .await;
        self.after_write(result, |outcome| {
            *outcome == crate::db::lifecycle_store::Renamed::Done
        })
    }
    async fn release_held_slug(
        &self,
        skill_id: i64,
        slug: &str,
        hold_ended_by: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError> {
        let result = self
            .inner
            .release_held_slug(skill_id, slug, hold_ended_by, audit)
            .await;
        self.after_write(result, |changed| *changed)
    }
    async fn merge_skills(
        &self,
        source_id: i64,
        target_id: i64,
        actor_id: i64,
        now: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<(), DbError> {
        let result = self
            .inner
            .merge_skills(source_id, target_id, actor_id, now, audit)
            .await;
        self.after_write(result, |()| true)
    }
    async fn hard_delete_skill(
        &self,
        skill_id: i64,
        audit: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<crate::db::lifecycle_store::HardDeleted, DbError> {
        let result = self.inner.hard_delete_skill(skill_id, audit).await;
        self.after_write(result, |_| true)
    }
    async fn skill_aliases(&self, skill_id: i64) -> Result<Vec<String>, DbError> {
        self.inner.skill_aliases(skill_id).await
    }
    async fn version_withdrawn_by(&self, version_id: i64) -> Result<Option<i64>, DbError> {
        self.inner.version_withdrawn_by(version_id).await
    }
}

// The pages' reads answer from the database directly; the pages are not response-cached.
#[async_trait]
impl crate::db::pages_store::PageStore for CachingStore {
    async fn list_owner_skills(
        &self,
        owner_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::db::SkillRow>, DbError> {
        self.inner.list_owner_skills(owner_id, limit).await
    }
    async fn list_owner_packages(
        &self,
        owner_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::db::package_store::PackageRow>, DbError> {
        self.inner.list_owner_packages(owner_id, limit).await
    }
}

// The search index's own reads: they feed the index, nothing here is cached.
#[async_trait]
impl crate::db::search_store::SearchIndexStore for CachingStore {
    async fn search_documents(
        &self,
        after: (i64, i64),
        limit: i64,
    ) -> Result<Vec<crate::db::search_store::SearchDocument>, DbError> {
        self.inner.search_documents(after, limit).await
    }
    async fn find_search_hits(
        &self,
        ids: &[i64],
        query: &SearchQuery,
    ) -> Result<Vec<SkillRow>, DbError> {
        self.inner.find_search_hits(ids, query).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Bytes {
        Bytes::from(text.to_owned())
    }

    #[test]
    fn a_write_to_one_skill_keeps_the_others_and_drops_listings() {
        let cache = ResponseCache::new(true);
        let stamp = cache.generation();
        cache.put_scoped("/skills/a".into(), stamp, Scope::Skill(1), body("a"));
        cache.put_scoped("/skills/b".into(), stamp, Scope::Skill(2), body("b"));
        cache.put("/skills?sort=name".into(), stamp, body("list"));
        cache.invalidate_skill(1);
        assert_eq!(cache.get("/skills/a"), None, "the written skill");
        assert_eq!(
            cache.get("/skills?sort=name"),
            None,
            "lists show every skill"
        );
        assert_eq!(
            cache.get("/skills/b"),
            Some(body("b")),
            "another skill stays"
        );
        cache.invalidate();
        assert_eq!(
            cache.get("/skills/b"),
            None,
            "a write of unknown reach drops all"
        );
    }

    #[test]
    fn a_body_computed_across_a_write_to_its_scope_is_not_kept() {
        let cache = ResponseCache::new(true);
        let before = cache.generation();
        cache.invalidate_skill(1);
        // Computed from data read before the write: must not be cached.
        cache.put_scoped("/skills/a".into(), before, Scope::Skill(1), body("old"));
        assert_eq!(cache.get("/skills/a"), None);
        // The write touched skill 1 only: skill 2's body computed meanwhile is good.
        cache.put_scoped("/skills/b".into(), before, Scope::Skill(2), body("b"));
        assert_eq!(cache.get("/skills/b"), Some(body("b")));
        // Recomputed after the write: kept.
        let after = cache.generation();
        cache.put_scoped("/skills/a".into(), after, Scope::Skill(1), body("new"));
        assert_eq!(cache.get("/skills/a"), Some(body("new")));
    }

    #[test]
    fn resolved_downloads_follow_their_skill() {
        let cache = ResponseCache::new(true);
        let resolved = |skill_id, generation| ResolvedDownload {
            generation,
            skill_id,
            file_name: format!("skill-{skill_id}.zip"),
            archive: body("zip"),
        };
        cache.put_download("/download?slug=a".into(), resolved(1, cache.generation()));
        cache.put_download("/download?slug=b".into(), resolved(2, cache.generation()));
        cache.invalidate_skill(2);
        assert!(cache.get_download("/download?slug=a").is_some());
        assert!(cache.get_download("/download?slug=b").is_none());
    }

    #[test]
    fn search_rows_follow_their_skill() {
        let cache = ResponseCache::new(true);
        let row = |id| {
            Some(Arc::new(SkillRow {
                id,
                ..crate::skills::visibility::tests::public_row()
            }))
        };
        let before = cache.generation();
        cache.put_search_rows(before, vec![(1, row(1)), (2, row(2)), (3, None)]);
        let (found, missing) = cache.search_rows(&[1, 2, 3, 4]);
        assert_eq!(found.len(), 3, "rows and the unlisted hit are remembered");
        assert!(found[&3].is_none());
        assert_eq!(missing, vec![4]);
        cache.invalidate_skill(2);
        let (found, missing) = cache.search_rows(&[1, 2]);
        assert!(found.contains_key(&1), "another skill's row stays");
        assert_eq!(missing, vec![2], "the written skill is read again");
        // Read before a write to its skill landed: not kept.
        cache.put_search_rows(before, vec![(2, row(2))]);
        assert_eq!(cache.search_rows(&[2]).1, vec![2]);
        cache.invalidate();
        assert_eq!(cache.search_rows(&[1]).1, vec![1], "a wide write drops all");
    }

    #[test]
    fn a_full_cache_drops_an_eighth_not_everything() {
        let cache = ResponseCache::new(true);
        let stamp = cache.generation();
        for index in 0..=RESPONSE_CACHE_ENTRIES {
            cache.put(format!("/search?q={index}"), stamp, body("x"));
        }
        let entries = cache.entries.lock().expect("lock");
        assert_eq!(entries.bodies.len(), RESPONSE_CACHE_ENTRIES / 8 * 7 + 1);
        assert_eq!(entries.bytes, entries.bodies.len());
        drop(entries);
        let last = format!("/search?q={RESPONSE_CACHE_ENTRIES}");
        assert_eq!(cache.get(&last), Some(body("x")), "the new body is kept");
    }

    #[test]
    fn a_disabled_cache_keeps_nothing() {
        let cache = ResponseCache::new(false);
        cache.put_scoped("/skills/a".into(), 0, Scope::Skill(1), body("a"));
        assert_eq!(cache.get("/skills/a"), None);
    }
}
