//! The PostgreSQL store: the same API over a server, full-text search with `tsvector`.

use std::time::Duration;

use anyhow::Context as _;
use sqlx::postgres::PgPoolOptions;
use sqlx::{PgPool, Postgres, Transaction};

use crate::db::{Backend, SKILL_COLUMNS, SKILL_JOINS, SearchQuery, SearchRow, VISIBLE, impl_store};
use crate::error::DbError;

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
        sqlx::migrate!("migrations/postgres")
            .run(&pool)
            .await
            .context("failed to apply the PostgreSQL migrations")?;
        Ok(Self(pool))
    }

    async fn begin_write(&self) -> Result<Transaction<'static, Postgres>, DbError> {
        Ok(self.0.begin().await?)
    }

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
}

impl_store!(PgStore, Backend::Postgres, {
    async fn search_skills(&self, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError> {
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
        // As on SQLite: rank and cut narrow rows, then join the wide columns for the page only.
        let sql = format!(
            "SELECT {SKILL_COLUMNS}, top.text_rank FROM ( \
               SELECT s.id, \
               (ts_rank_cd(s.search_document, to_tsquery('simple', $1), 1) * 10)::float8 AS text_rank \
               FROM skills s WHERE s.search_document @@ to_tsquery('simple', $1) AND {VISIBLE}{filters} \
               ORDER BY text_rank DESC, s.id DESC LIMIT $2 \
             ) top JOIN skills s ON s.id = top.id {SKILL_JOINS} \
             ORDER BY top.text_rank DESC, s.id DESC"
        );
        Ok(sqlx::query_as::<_, SearchRow>(sqlx::AssertSqlSafe(sql))
            .bind(expression)
            .bind(query.limit)
            .fetch_all(&self.0)
            .await?)
    }
});
