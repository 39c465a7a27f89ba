//! The reads behind the search index ([`crate::search::SearchIndex`]): the searchable text
//! of skills changed since a watermark, and the listed rows of the index's hits. The
//! [`SearchIndexStore`] trait is a supertrait of `Store`; the SQL lives in `search_docs.rs`,
//! mounted once per backend beside the listing predicate it reuses (`LISTED`).

use async_trait::async_trait;

use crate::db::row::from_row;
use crate::db::{SearchQuery, SkillRow};
use crate::error::DbError;

/// The searchable text of one skill, as of its `updated_at`.
#[derive(Debug, Clone)]
pub struct SearchDocument {
    /// Skill id.
    pub id: i64,
    /// Canonical slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
    /// Summary, empty when none.
    pub summary: String,
    /// Tags as stored (a JSON object of tag names).
    pub tags_json: String,
    /// The start of the latest version's SKILL.md.
    pub body: String,
    /// Whether list and search pages may show the skill now.
    pub listed: bool,
    /// Change stamp (milliseconds) the index resumes from.
    pub updated_at: i64,
}

from_row!(SearchDocument {
    id,
    slug,
    display_name,
    summary,
    tags_json,
    body,
    listed,
    updated_at
});

/// Search index reads of the store.
#[async_trait]
pub trait SearchIndexStore: Send + Sync {
    /// Skills whose `(updated_at, id)` is after `after`, in that order; at most `limit`.
    async fn search_documents(
        &self,
        after: (i64, i64),
        limit: i64,
    ) -> Result<Vec<SearchDocument>, DbError>;
    /// The listed skills among `ids` that pass the query's filters (any order).
    async fn find_search_hits(
        &self,
        ids: &[i64],
        query: &SearchQuery,
    ) -> Result<Vec<SkillRow>, DbError>;
}
