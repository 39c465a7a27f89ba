//! The reads only the web pages need: an owner's listed skills and public packages. The
//! [`PageStore`] trait is a supertrait of `Store`; the SQL lives in `pages.rs`, mounted
//! once per backend, beside the listing predicates it reuses (`LISTED`, `PUBLIC_PACKAGE`).

use async_trait::async_trait;

use crate::db::SkillRow;
use crate::db::package_store::PackageRow;
use crate::error::DbError;

/// Page reads of the store.
#[async_trait]
pub trait PageStore: Send + Sync {
    /// Listed skills of an owner, most recently updated first; at most `limit`.
    async fn list_owner_skills(&self, owner_id: i64, limit: i64) -> Result<Vec<SkillRow>, DbError>;
    /// Public packages of an owner with a release, most recently updated first; at most
    /// `limit`.
    async fn list_owner_packages(
        &self,
        owner_id: i64,
        limit: i64,
    ) -> Result<Vec<PackageRow>, DbError>;
}
