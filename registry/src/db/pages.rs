//! SQL of the web pages' own reads ([`PageStore`]): an owner's listed skills and public
//! packages, filtered with the same predicates as every other public list.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use async_trait::async_trait;

use super::packages::{PACKAGE_SELECT, PUBLIC_PACKAGE};
use super::skills::{LISTED, SKILL_COLUMNS, SKILL_JOINS};
use super::{Db, ThisStore};
use crate::db::SkillRow;
use crate::db::package_store::PackageRow;
use crate::db::pages_store::PageStore;
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Listed skills of `owner_id`, newest update first.
pub async fn list_owner_skills(
    pool: &Pool,
    owner_id: i64,
    limit: i64,
) -> Result<Vec<SkillRow>, DbError> {
    let sql = format!(
        "SELECT {SKILL_COLUMNS} FROM skills s {SKILL_JOINS} \
         WHERE {LISTED} AND s.owner_id = $1 ORDER BY s.updated_at DESC, s.id DESC LIMIT $2"
    );
    Ok(sqlx::query_as::<_, SkillRow>(sqlx::AssertSqlSafe(sql))
        .bind(owner_id)
        .bind(limit)
        .fetch_all(pool)
        .await?)
}

/// Public packages of `owner_id` with a release, newest update first.
pub async fn list_owner_packages(
    pool: &Pool,
    owner_id: i64,
    limit: i64,
) -> Result<Vec<PackageRow>, DbError> {
    let sql = format!(
        "{PACKAGE_SELECT} WHERE {PUBLIC_PACKAGE} AND p.latest_release_id IS NOT NULL \
         AND p.owner_id = $1 ORDER BY p.updated_at DESC, p.id DESC LIMIT $2"
    );
    Ok(sqlx::query_as::<_, PackageRow>(sqlx::AssertSqlSafe(sql))
        .bind(owner_id)
        .bind(limit)
        .fetch_all(pool)
        .await?)
}

#[async_trait]
impl PageStore for ThisStore {
    async fn list_owner_skills(&self, owner_id: i64, limit: i64) -> Result<Vec<SkillRow>, DbError> {
        list_owner_skills(&self.0, owner_id, limit).await
    }
    async fn list_owner_packages(
        &self,
        owner_id: i64,
        limit: i64,
    ) -> Result<Vec<PackageRow>, DbError> {
        list_owner_packages(&self.0, owner_id, limit).await
    }
}
