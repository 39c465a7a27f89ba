//! The SQLite store: WAL, foreign keys, file created on first start, FTS5 search.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context as _;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};

use crate::db::{Backend, SearchQuery, SearchRow};
use crate::error::DbError;
use skills::{LISTED, SKILL_COLUMNS, SKILL_JOINS};

// The domain files hold backend-neutral SQL as plain functions over `Db`; each backend
// mounts them once with its own `Db`, so every function is ordinary, concrete code that
// rustfmt, ctags and go-to-definition read (no generic `sqlx::Database` bounds, no macro).
type Db = Sqlite;
type ThisStore = SqliteStore;
const BACKEND: Backend = Backend::Sqlite;

#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "audit.rs"]
mod audit;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "lifecycle.rs"]
mod lifecycle;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "limits.rs"]
mod limits;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "packages.rs"]
mod packages;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "pages.rs"]
mod pages;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "reports.rs"]
mod reports;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "reservations.rs"]
mod reservations;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "search_docs.rs"]
mod search_docs;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "skills.rs"]
mod skills;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "stats.rs"]
mod stats;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "store_impl.rs"]
mod store_impl;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "transfers.rs"]
mod transfers;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "uploads.rs"]
mod uploads;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see above"
)]
#[path = "users.rs"]
mod users;

/// Store over a SQLite pool.
#[derive(Debug, Clone)]
pub struct SqliteStore(pub SqlitePool);

impl SqliteStore {
    /// Opens (creating if missing) the database of `url` and applies the migrations.
    pub async fn connect(url: &str, connections: u32) -> anyhow::Result<Self> {
        let options = SqliteConnectOptions::from_str(url)
            .with_context(|| format!("invalid SQLite URL `{url}`"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            .statement_cache_capacity(256)
            // Reads through a memory map instead of a read call and a copy per page, and a
            // larger page cache per connection (16 MiB): the hot pages of a catalogue of
            // 100,000 skills stay in memory.
            .pragma("mmap_size", "268435456")
            .pragma("cache_size", "-16384");
        let path = options.get_filename();
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
            && !parent.exists()
        {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("failed to create `{}`", parent.display()))?;
        }
        let pool = SqlitePoolOptions::new()
            .max_connections(connections.max(1))
            .min_connections(1)
            .connect_with(options)
            .await
            .with_context(|| format!("failed to open the SQLite database `{url}`"))?;
        super::migrations::migrator(super::migrations::SQLITE)?
            .run(&pool)
            .await
            .context("failed to apply the SQLite migrations")?;
        Ok(Self(pool))
    }
}

/// Starts a write transaction that takes the write lock at once, so two publishes never
/// deadlock upgrading read locks.
async fn begin_write(pool: &SqlitePool) -> Result<Transaction<'static, Sqlite>, DbError> {
    Ok(pool.begin_with("BEGIN IMMEDIATE").await?)
}

/// Rewrites the FTS5 row of a skill from its current latest version.
async fn refresh_search(
    tx: &mut Transaction<'static, Sqlite>,
    skill_id: i64,
    tags: &str,
) -> Result<(), DbError> {
    sqlx::query("DELETE FROM skills_search WHERE rowid = $1")
        .bind(skill_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO skills_search (rowid, slug, display_name, summary, tags, body) \
         SELECT s.id, replace(s.slug, '-', ' '), s.display_name, COALESCE(s.summary, ''), $2, \
         COALESCE(substr(v.skill_md, 1, 200000), '') \
         FROM skills s LEFT JOIN skill_versions v ON v.id = s.latest_version_id WHERE s.id = $1",
    )
    .bind(skill_id)
    .bind(tags)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Full-text search candidates (FTS5 with bm25) with their text relevance.
/// This process is the only writer: there are no changes of others to follow.
#[allow(clippy::unused_async, reason = "the PostgreSQL twin listens")]
async fn skill_changes(_pool: &SqlitePool) -> Result<Option<crate::db::SkillChanges>, DbError> {
    Ok(None)
}

async fn search_skills(pool: &SqlitePool, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError> {
    if query.terms.is_empty() {
        return Ok(Vec::new());
    }
    let expression = query
        .terms
        .iter()
        .map(|term| format!("\"{term}\"*"))
        .collect::<Vec<_>>()
        .join(" OR ");
    let mut filters = String::new();
    if query.highlighted_only {
        filters.push_str(" AND s.highlighted");
    }
    if query.non_suspicious_only {
        filters.push_str(" AND NOT s.is_suspicious");
    }
    if query.valid_prompt_sets_only {
        filters.push_str(" AND ");
        filters.push_str(skills::VALID_PROMPT_SETS);
    }
    // Rank and cut on narrow (id, score) rows first and join the wide skill columns only
    // for the page: a common word can match every skill, and sorting thousands of full
    // rows (changelog, metadata) cost more than the bm25 scoring itself.
    let sql = format!(
        "SELECT {SKILL_COLUMNS}, -top.score AS text_rank FROM ( \
               SELECT s.id, bm25(skills_search, 10.0, 8.0, 3.0, 2.0, 1.0) AS score \
               FROM skills_search JOIN skills s ON s.id = skills_search.rowid \
               WHERE skills_search MATCH $1 AND {LISTED}{filters} \
               ORDER BY score, s.id DESC LIMIT $2 \
             ) top JOIN skills s ON s.id = top.id {SKILL_JOINS} \
             ORDER BY top.score, top.id DESC"
    );
    Ok(sqlx::query_as::<_, SearchRow>(sqlx::AssertSqlSafe(sql))
        .bind(expression)
        .bind(query.limit)
        .fetch_all(pool)
        .await?)
}
