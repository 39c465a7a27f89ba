//! The PostgreSQL store: the same API over a server, full-text search with `tsvector`.

use std::time::Duration;

use anyhow::Context as _;
use sqlx::postgres::PgPoolOptions;
use sqlx::{PgPool, Postgres, Transaction};

use crate::db::{Backend, SearchQuery, SearchRow};
use crate::error::DbError;
use skills::{LISTED, SKILL_COLUMNS, SKILL_JOINS};

// The domain files are mounted once per backend with its own `Db`: see `sqlite.rs`.
type Db = Postgres;
type ThisStore = PgStore;
const BACKEND: Backend = Backend::Postgres;

#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "audit.rs"]
mod audit;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "lifecycle.rs"]
mod lifecycle;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
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
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "pages.rs"]
mod pages;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "reports.rs"]
mod reports;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "reservations.rs"]
mod reservations;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "search_docs.rs"]
mod search_docs;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "skills.rs"]
mod skills;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "stats.rs"]
mod stats;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "store_impl.rs"]
mod store_impl;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "transfers.rs"]
mod transfers;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "uploads.rs"]
mod uploads;
#[allow(
    clippy::duplicate_mod,
    reason = "mounted once per backend on purpose, see sqlite.rs"
)]
#[path = "users.rs"]
mod users;

/// Store over a PostgreSQL pool.
#[derive(Debug, Clone)]
pub struct PgStore(pub PgPool);

impl PgStore {
    /// Connects to `url` and applies the migrations.
    pub async fn connect(url: &str, connections: u32) -> anyhow::Result<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(connections.max(2))
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await
            .context("failed to connect to PostgreSQL")?;
        super::migrations::migrator(super::migrations::POSTGRES)?
            .run(&pool)
            .await
            .context("failed to apply the PostgreSQL migrations")?;
        Ok(Self(pool))
    }
}

/// Starts a write transaction (row locks and unique indexes serialise what must be).
async fn begin_write(pool: &PgPool) -> Result<Transaction<'static, Postgres>, DbError> {
    Ok(pool.begin().await?)
}

/// Rewrites the `tsvector` of a skill from its current latest version.
async fn refresh_search(
    tx: &mut Transaction<'static, Postgres>,
    skill_id: i64,
    tags: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE skills s SET search_document = \
             setweight(to_tsvector('simple', replace(s.slug, '-', ' ')), 'A') || \
             setweight(to_tsvector('simple', s.display_name), 'A') || \
             setweight(to_tsvector('simple', COALESCE(s.summary, '')), 'B') || \
             setweight(to_tsvector('simple', $2), 'C') || \
             setweight(to_tsvector('simple', COALESCE((SELECT left(v.skill_md, 200000) \
                 FROM skill_versions v WHERE v.id = s.latest_version_id), '')), 'D') \
             WHERE s.id = $1",
    )
    .bind(skill_id)
    .bind(tags)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Full-text search candidates (`tsvector` with `ts_rank_cd`) with their text relevance.
/// Other instances write to this database too: follow the skill changes they announce.
async fn skill_changes(pool: &PgPool) -> Result<Option<crate::db::SkillChanges>, DbError> {
    crate::db::SkillChanges::listen(pool).await.map(Some)
}

async fn search_skills(pool: &PgPool, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError> {
    if query.terms.is_empty() {
        return Ok(Vec::new());
    }
    let expression = query
        .terms
        .iter()
        .map(|term| format!("{term}:*"))
        .collect::<Vec<_>>()
        .join(" | ");
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
    // As on SQLite: rank and cut narrow rows, then join the wide columns for the page only.
    let sql = format!(
        "SELECT {SKILL_COLUMNS}, top.text_rank FROM ( \
               SELECT s.id, \
               (ts_rank_cd(s.search_document, to_tsquery('simple', $1), 1) * 10)::float8 AS text_rank \
               FROM skills s WHERE s.search_document @@ to_tsquery('simple', $1) AND {LISTED}{filters} \
               ORDER BY text_rank DESC, s.id DESC LIMIT $2 \
             ) top JOIN skills s ON s.id = top.id {SKILL_JOINS} \
             ORDER BY top.text_rank DESC, s.id DESC"
    );
    Ok(sqlx::query_as::<_, SearchRow>(sqlx::AssertSqlSafe(sql))
        .bind(expression)
        .bind(query.limit)
        .fetch_all(pool)
        .await?)
}
