//! SQL of the search index's reads ([`SearchIndexStore`]): documents by change stamp and
//! the visibility re-check of hits. The database stays the source of truth: a hit is only
//! shown when its row is listed now.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use std::fmt::Write as _;

use async_trait::async_trait;

use super::skills::{LISTED, SKILL_COLUMNS, SKILL_JOINS, VALID_PROMPT_SETS};
use super::{BACKEND, Db, ThisStore};
use crate::db::Backend;
use crate::db::search_store::{SearchDocument, SearchIndexStore};
use crate::db::{SearchQuery, SkillRow};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Characters of SKILL.md indexed: the summary and first sections say what a skill is
/// for; the rest would grow the index without helping ranking much.
const BODY_CHARS: i64 = 4000;

/// Skills after `(updated_at, id)`, in that order.
pub async fn search_documents(
    pool: &Pool,
    after: (i64, i64),
    limit: i64,
) -> Result<Vec<SearchDocument>, DbError> {
    let sql = format!(
        "SELECT s.id, s.slug, s.display_name, COALESCE(s.summary, '') AS summary, s.tags_json, \
         COALESCE(substr(lv.skill_md, 1, {BODY_CHARS}), '') AS body, \
         CASE WHEN {LISTED} THEN TRUE ELSE FALSE END AS listed, s.updated_at \
         FROM skills s LEFT JOIN skill_versions lv ON lv.id = s.latest_version_id \
         WHERE (s.updated_at, s.id) > ($1, $2) ORDER BY s.updated_at, s.id LIMIT $3"
    );
    Ok(
        sqlx::query_as::<_, SearchDocument>(sqlx::AssertSqlSafe(sql))
            .bind(after.0)
            .bind(after.1)
            .bind(limit)
            .fetch_all(pool)
            .await?,
    )
}

/// The listed rows among `ids` passing the query's filters.
pub async fn find_search_hits(
    pool: &Pool,
    ids: &[i64],
    query: &SearchQuery,
) -> Result<Vec<SkillRow>, DbError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // The ids go in as one JSON array bound to one parameter, so the statement text is the
    // same for every search (one per filter combination) and stays prepared in the
    // connection's cache; ids written into the text made every search prepare a new
    // statement and evict a cached one.
    let mut list = String::from("[");
    for (index, id) in ids.iter().enumerate() {
        if index > 0 {
            list.push(',');
        }
        let _ = write!(list, "{id}");
    }
    list.push(']');
    let ids_of_list = match BACKEND {
        Backend::Sqlite => "SELECT value FROM json_each($1)",
        Backend::Postgres => "SELECT jsonb_array_elements_text($1::jsonb)::bigint",
    };
    let mut filters = String::new();
    if query.highlighted_only {
        filters.push_str(" AND s.highlighted");
    }
    if query.non_suspicious_only {
        filters.push_str(" AND NOT s.is_suspicious");
    }
    if query.valid_prompt_sets_only {
        filters.push_str(" AND ");
        filters.push_str(VALID_PROMPT_SETS);
    }
    let sql = format!(
        "SELECT {SKILL_COLUMNS} FROM skills s {SKILL_JOINS} \
         WHERE s.id IN ({ids_of_list}) AND {LISTED}{filters}"
    );
    Ok(sqlx::query_as::<_, SkillRow>(sqlx::AssertSqlSafe(sql))
        .bind(list)
        .fetch_all(pool)
        .await?)
}

#[async_trait]
impl SearchIndexStore for ThisStore {
    async fn search_documents(
        &self,
        after: (i64, i64),
        limit: i64,
    ) -> Result<Vec<SearchDocument>, DbError> {
        search_documents(&self.0, after, limit).await
    }
    async fn find_search_hits(
        &self,
        ids: &[i64],
        query: &SearchQuery,
    ) -> Result<Vec<SkillRow>, DbError> {
        find_search_hits(&self.0, ids, query).await
    }
}
