//! The [`Store`](crate::db::Store) implementation of one backend: each method hands its
//! pool to the plain function of its domain file.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`), where `ThisStore`
//! is that backend's store type and `search_skills` its full-text search.

use async_trait::async_trait;

use super::{
    BACKEND, ThisStore, limits, search_skills, skill_changes, skills, stats, uploads, users,
};
use crate::db::{
    Backend, ListQuery, NewUploadTicket, NewVersion, PublishOutcome, Role, SearchQuery, SearchRow,
    SkillDetailRow, SkillRow, Store, TokenRecord, UploadTicket, User, VersionRow,
};
use crate::db::{DownloadEvent, FileRow};
use crate::error::DbError;

#[async_trait]
impl Store for ThisStore {
    fn backend(&self) -> Backend {
        BACKEND
    }

    async fn ensure_user(
        &self,
        handle: &str,
        role: Option<Role>,
        now: i64,
    ) -> Result<User, DbError> {
        users::ensure_user(&self.0, handle, role, now).await
    }
    async fn find_user(&self, handle: &str) -> Result<Option<User>, DbError> {
        users::find_user(&self.0, handle).await
    }
    async fn insert_token(&self, user_id: i64, token_hash: &str, now: i64) -> Result<(), DbError> {
        users::insert_token(&self.0, user_id, token_hash, now).await
    }
    async fn find_token(&self, token_hash: &str) -> Result<Option<TokenRecord>, DbError> {
        users::find_token(&self.0, token_hash).await
    }
    async fn revoke_token(&self, token_hash: &str, now: i64) -> Result<bool, DbError> {
        users::revoke_token(&self.0, token_hash, now).await
    }

    async fn insert_upload_ticket(&self, ticket: &NewUploadTicket) -> Result<(), DbError> {
        uploads::insert_upload_ticket(&self.0, ticket).await
    }
    async fn find_upload_ticket(&self, ticket: &str) -> Result<Option<UploadTicket>, DbError> {
        uploads::find_upload_ticket(&self.0, ticket).await
    }
    async fn mark_ticket_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        uploads::mark_ticket_uploaded(&self.0, ticket, storage_id, now).await
    }

    async fn publish_version(&self, version: &NewVersion) -> Result<PublishOutcome, DbError> {
        skills::publish_version(&self.0, version).await
    }
    async fn find_skill(&self, slug: &str) -> Result<Option<SkillDetailRow>, DbError> {
        skills::find_skill(&self.0, slug).await
    }
    async fn list_skills(&self, query: &ListQuery) -> Result<Vec<SkillRow>, DbError> {
        skills::list_skills(&self.0, query).await
    }
    async fn search_skills(&self, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError> {
        search_skills(&self.0, query).await
    }
    async fn skill_changes(&self) -> Result<Option<crate::db::SkillChanges>, DbError> {
        skill_changes(&self.0).await
    }
    async fn list_versions(
        &self,
        skill_id: i64,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<VersionRow>, DbError> {
        skills::list_versions(&self.0, skill_id, after, limit).await
    }
    async fn find_version(
        &self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<VersionRow>, DbError> {
        skills::find_version(&self.0, skill_id, version).await
    }
    async fn find_version_by_id(&self, version_id: i64) -> Result<Option<VersionRow>, DbError> {
        skills::find_version_by_id(&self.0, version_id).await
    }
    async fn find_tagged_version(
        &self,
        skill_id: i64,
        tag: &str,
    ) -> Result<Option<VersionRow>, DbError> {
        skills::find_tagged_version(&self.0, skill_id, tag).await
    }
    async fn find_version_by_fingerprint(
        &self,
        skill_id: i64,
        fingerprint: &str,
    ) -> Result<Option<VersionRow>, DbError> {
        skills::find_version_by_fingerprint(&self.0, skill_id, fingerprint).await
    }
    async fn version_files(&self, version_id: i64) -> Result<Vec<FileRow>, DbError> {
        skills::version_files(&self.0, version_id).await
    }

    async fn record_downloads(&self, events: &[DownloadEvent]) -> Result<Vec<i64>, DbError> {
        stats::record_downloads(&self.0, events).await
    }
    async fn record_install(
        &self,
        skill_id: i64,
        user_id: Option<i64>,
        version: Option<&str>,
        now: i64,
    ) -> Result<(), DbError> {
        stats::record_install(&self.0, skill_id, user_id, version, now).await
    }
    async fn set_star(
        &self,
        skill_id: i64,
        user_id: i64,
        starred: bool,
        now: i64,
    ) -> Result<bool, DbError> {
        stats::set_star(&self.0, skill_id, user_id, starred, now).await
    }

    async fn hit_rate_limit(
        &self,
        bucket: &str,
        window_start: i64,
        amount: i64,
    ) -> Result<i64, DbError> {
        limits::hit_rate_limit(&self.0, bucket, window_start, amount).await
    }
    async fn prune_rate_limits(&self, window_start: i64) -> Result<(), DbError> {
        limits::prune_rate_limits(&self.0, window_start).await
    }
}
