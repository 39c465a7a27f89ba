//! The `Store` trait: every database use case of the server, with a SQLite and a PostgreSQL
//! implementation.
//!
//! Most statements are identical on both backends (placeholders `$1…`, `ON CONFLICT`, row
//! values in keyset conditions), so they live here as constants and the method bodies that
//! use them are generated for both stores by [`impl_store!`], a plain `macro_rules!` that
//! expands the same text twice (no code generic over `sqlx::Database`). Full-text search,
//! its index maintenance and connection set-up differ and stay in the backend files.

pub mod models;
pub mod postgres;
pub mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;

pub use models::*;

use crate::config::DatabaseUrl;
use crate::error::DbError;

/// Which database a store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite.
    Sqlite,
    /// PostgreSQL server.
    Postgres,
}

/// Every database use case of the server.
#[async_trait]
pub trait Store: Send + Sync {
    /// The backend of this store.
    fn backend(&self) -> Backend;

    /// Creates the user if missing (with `role`, default `user`); updates the role when given.
    async fn ensure_user(
        &self,
        handle: &str,
        role: Option<Role>,
        now: i64,
    ) -> Result<User, DbError>;
    /// Finds a user by lowercase handle.
    async fn find_user(&self, handle: &str) -> Result<Option<User>, DbError>;
    /// Stores the hash of a new API token.
    async fn insert_token(&self, user_id: i64, token_hash: &str, now: i64) -> Result<(), DbError>;
    /// Looks a token up by its hash (revoked ones included).
    async fn find_token(&self, token_hash: &str) -> Result<Option<TokenRecord>, DbError>;
    /// Revokes a token; false when no live token has this hash.
    async fn revoke_token(&self, token_hash: &str, now: i64) -> Result<bool, DbError>;

    /// Stores a new upload ticket.
    async fn insert_upload_ticket(&self, ticket: &NewUploadTicket) -> Result<(), DbError>;
    /// Finds an upload ticket.
    async fn find_upload_ticket(&self, ticket: &str) -> Result<Option<UploadTicket>, DbError>;
    /// Records the upload of a ticket's bytes; false when it was already uploaded or used.
    async fn mark_ticket_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        now: i64,
    ) -> Result<bool, DbError>;

    /// Publishes a version in one transaction (skill row, version, files, tags, tickets, index).
    async fn publish_version(&self, version: &NewVersion) -> Result<PublishOutcome, DbError>;

    /// A skill with detail columns, by canonical slug, whatever its visibility.
    async fn find_skill(&self, slug: &str) -> Result<Option<SkillDetailRow>, DbError>;
    /// A page of publicly visible skills; returns up to `limit + 1` rows.
    async fn list_skills(&self, query: &ListQuery) -> Result<Vec<SkillRow>, DbError>;
    /// Search candidates with their text relevance.
    async fn search_skills(&self, query: &SearchQuery) -> Result<Vec<SearchRow>, DbError>;

    /// Versions of a skill, newest first, after `(created_at, id)`; up to `limit + 1` rows.
    async fn list_versions(
        &self,
        skill_id: i64,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<VersionRow>, DbError>;
    /// One version by its string.
    async fn find_version(
        &self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<VersionRow>, DbError>;
    /// One version by id.
    async fn find_version_by_id(&self, version_id: i64) -> Result<Option<VersionRow>, DbError>;
    /// The version a tag points at.
    async fn find_tagged_version(
        &self,
        skill_id: i64,
        tag: &str,
    ) -> Result<Option<VersionRow>, DbError>;
    /// The newest live version with this fingerprint.
    async fn find_version_by_fingerprint(
        &self,
        skill_id: i64,
        fingerprint: &str,
    ) -> Result<Option<VersionRow>, DbError>;
    /// Files of a version in stored order.
    async fn version_files(&self, version_id: i64) -> Result<Vec<FileRow>, DbError>;

    /// Counts a download once per actor and UTC day; true when it was counted.
    async fn record_download(
        &self,
        skill_id: i64,
        actor: &str,
        day: i64,
        now: i64,
    ) -> Result<bool, DbError>;
    /// Counts an install.
    async fn record_install(
        &self,
        skill_id: i64,
        user_id: Option<i64>,
        version: Option<&str>,
        now: i64,
    ) -> Result<(), DbError>;
    /// Stars (`true`) or unstars a skill; true when something changed.
    async fn set_star(
        &self,
        skill_id: i64,
        user_id: i64,
        starred: bool,
        now: i64,
    ) -> Result<bool, DbError>;

    /// Counts one request in a shared fixed-window bucket and returns the new count.
    async fn hit_rate_limit(&self, bucket: &str, window_start: i64) -> Result<i64, DbError>;
    /// Drops buckets of windows older than `window_start`.
    async fn prune_rate_limits(&self, window_start: i64) -> Result<(), DbError>;
}

/// Opens the store a URL selects and applies its migrations.
pub async fn connect(url: &DatabaseUrl, connections: u32) -> anyhow::Result<Arc<dyn Store>> {
    if url.is_postgres() {
        Ok(Arc::new(
            postgres::PgStore::connect(url.expose(), connections).await?,
        ))
    } else {
        Ok(Arc::new(
            sqlite::SqliteStore::connect(url.expose(), connections).await?,
        ))
    }
}

/// True when `candidate` should become `latest` over `current` (strictly greater semver,
/// or no valid current latest).
pub fn becomes_latest(current: Option<&str>, candidate: &str) -> bool {
    let Ok(candidate) = semver::Version::parse(candidate) else {
        return false;
    };
    match current.map(semver::Version::parse) {
        Some(Ok(current)) => candidate > current,
        _ => true,
    }
}

/// Columns of [`SkillRow`]; `FROM` must join `users u` and left join `skill_versions lv`.
pub(crate) const SKILL_COLUMNS: &str = "s.id, s.slug, s.owner_id, u.handle AS owner_handle, \
    u.display_name AS owner_display_name, u.image AS owner_image, s.display_name, s.summary, \
    s.tags_json, s.downloads, s.stars, s.installs_current, s.installs_all_time, s.versions_count, \
    s.highlighted, s.is_suspicious, s.is_malware_blocked, s.moderation_version_id, \
    s.moderation_updated_at, s.soft_deleted_at, s.created_at, s.updated_at, s.latest_version_id, \
    lv.version AS latest_version, lv.created_at AS latest_created_at, \
    lv.changelog AS latest_changelog, lv.metadata_json AS latest_metadata_json";

/// Joins behind [`SKILL_COLUMNS`].
pub(crate) const SKILL_JOINS: &str =
    "JOIN users u ON u.id = s.owner_id LEFT JOIN skill_versions lv ON lv.id = s.latest_version_id";

/// Condition of publicly listed skills.
pub(crate) const VISIBLE: &str =
    "s.soft_deleted_at IS NULL AND NOT s.is_malware_blocked AND s.latest_version_id IS NOT NULL";

/// Detail query of one skill by slug.
pub(crate) const FIND_SKILL: &str = "SELECT s.id, s.slug, s.owner_id, u.handle AS owner_handle, \
    u.display_name AS owner_display_name, u.image AS owner_image, s.display_name, s.summary, \
    s.tags_json, s.downloads, s.stars, s.installs_current, s.installs_all_time, s.versions_count, \
    s.highlighted, s.is_suspicious, s.is_malware_blocked, s.moderation_version_id, \
    s.moderation_updated_at, s.soft_deleted_at, s.created_at, s.updated_at, s.latest_version_id, \
    lv.version AS latest_version, lv.created_at AS latest_created_at, \
    lv.changelog AS latest_changelog, lv.metadata_json AS latest_metadata_json, \
    lv.skill_md AS latest_skill_md, mv.scan_json AS moderation_scan_json \
    FROM skills s JOIN users u ON u.id = s.owner_id \
    LEFT JOIN skill_versions lv ON lv.id = s.latest_version_id \
    LEFT JOIN skill_versions mv ON mv.id = s.moderation_version_id \
    WHERE s.slug = $1";

/// Builds the SQL of a list page. Placeholders: `$1` limit, then the seek values, then
/// the prefix pattern, then the trending bound.
pub(crate) fn list_sql(query: &ListQuery) -> String {
    use std::fmt::Write as _;
    let mut conditions = vec![VISIBLE.to_owned()];
    let mut next = 2;
    if query.non_suspicious_only {
        conditions.push("NOT s.is_suspicious".to_owned());
    }
    let mut from = format!("skills s {SKILL_JOINS}");
    let order = match query.sort {
        ListSort::Name => {
            if matches!(query.after, Some(Seek::Slug(_))) {
                conditions.push(format!("s.slug > ${next}"));
                next += 1;
            }
            if query.prefix.is_some() {
                conditions.push(format!("s.slug LIKE ${next}"));
            }
            "s.slug ASC".to_owned()
        }
        ListSort::Trending => {
            from.push_str(&format!(
                " LEFT JOIN (SELECT skill_id, COUNT(*) AS recent FROM (\
                 SELECT skill_id FROM download_events WHERE created_at >= ${next} \
                 UNION ALL SELECT skill_id FROM install_events WHERE created_at >= ${next}) e \
                 GROUP BY skill_id) t ON t.skill_id = s.id"
            ));
            "COALESCE(t.recent, 0) DESC, s.downloads DESC, s.id DESC".to_owned()
        }
        sort => {
            let columns = sort.columns();
            if let Some(Seek::Keys { values, .. }) = &query.after
                && values.len() == columns.len()
            {
                let mut left = String::from("(");
                let mut right = String::from("(");
                for column in columns {
                    let _ = write!(left, "{column}, ");
                    let _ = write!(right, "${next}, ");
                    next += 1;
                }
                let _ = write!(left, "s.id)");
                let _ = write!(right, "${next})");
                conditions.push(format!("{left} < {right}"));
            }
            let mut ordering: Vec<String> = columns.iter().map(|c| format!("{c} DESC")).collect();
            ordering.push("s.id DESC".to_owned());
            ordering.join(", ")
        }
    };
    format!(
        "SELECT {SKILL_COLUMNS} FROM {from} WHERE {} ORDER BY {order} LIMIT $1",
        conditions.join(" AND ")
    )
}

/// Escapes `%`, `_` and `\` of a literal for `LIKE … ESCAPE '\'`; slugs never contain them,
/// but prefixes are validated before they get here anyway.
pub(crate) fn like_prefix(prefix: &str) -> String {
    format!("{prefix}%")
}

/// Generates the `Store` implementation of a backend from the shared statements. The
/// backend type must provide `self.0` (its pool), `refresh_search(tx, skill_id, tags)`,
/// `begin_write()` and the backend-specific methods passed in `$specific`.
macro_rules! impl_store {
    ($store:ty, $backend:expr, { $($specific:tt)* }) => {
        #[async_trait::async_trait]
        impl $crate::db::Store for $store {
            fn backend(&self) -> $crate::db::Backend {
                $backend
            }

            async fn ensure_user(&self, handle: &str, role: Option<$crate::db::Role>, now: i64) -> Result<$crate::db::User, $crate::error::DbError> {
                let role_text = role.unwrap_or($crate::db::Role::User).as_str();
                sqlx::query("INSERT INTO users (handle, role, created_at) VALUES ($1, $2, $3) ON CONFLICT (handle) DO NOTHING")
                    .bind(handle).bind(role_text).bind(now)
                    .execute(&self.0).await?;
                if let Some(role) = role {
                    sqlx::query("UPDATE users SET role = $1 WHERE handle = $2")
                        .bind(role.as_str()).bind(handle)
                        .execute(&self.0).await?;
                }
                let user = sqlx::query_as::<_, $crate::db::User>("SELECT id, handle, display_name, image, role FROM users WHERE handle = $1")
                    .bind(handle).fetch_one(&self.0).await?;
                Ok(user)
            }

            async fn find_user(&self, handle: &str) -> Result<Option<$crate::db::User>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::User>("SELECT id, handle, display_name, image, role FROM users WHERE handle = $1")
                    .bind(handle).fetch_optional(&self.0).await?)
            }

            async fn insert_token(&self, user_id: i64, token_hash: &str, now: i64) -> Result<(), $crate::error::DbError> {
                sqlx::query("INSERT INTO api_tokens (user_id, token_hash, created_at) VALUES ($1, $2, $3)")
                    .bind(user_id).bind(token_hash).bind(now)
                    .execute(&self.0).await?;
                Ok(())
            }

            async fn find_token(&self, token_hash: &str) -> Result<Option<$crate::db::TokenRecord>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::TokenRecord>(
                    "SELECT u.id, u.handle, u.display_name, u.image, u.role, t.revoked_at \
                     FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1")
                    .bind(token_hash).fetch_optional(&self.0).await?)
            }

            async fn revoke_token(&self, token_hash: &str, now: i64) -> Result<bool, $crate::error::DbError> {
                let done = sqlx::query("UPDATE api_tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL")
                    .bind(now).bind(token_hash).execute(&self.0).await?;
                Ok(done.rows_affected() == 1)
            }

            async fn insert_upload_ticket(&self, ticket: &$crate::db::NewUploadTicket) -> Result<(), $crate::error::DbError> {
                sqlx::query("INSERT INTO upload_tickets (ticket, user_id, path, size, sha256, content_type, created_at, expires_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
                    .bind(&ticket.ticket).bind(ticket.user_id).bind(&ticket.path).bind(ticket.size)
                    .bind(&ticket.sha256).bind(&ticket.content_type).bind(ticket.created_at).bind(ticket.expires_at)
                    .execute(&self.0).await?;
                Ok(())
            }

            async fn find_upload_ticket(&self, ticket: &str) -> Result<Option<$crate::db::UploadTicket>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::UploadTicket>(
                    "SELECT ticket, user_id, path, size, sha256, content_type, storage_id, expires_at, uploaded_at, used_at \
                     FROM upload_tickets WHERE ticket = $1")
                    .bind(ticket).fetch_optional(&self.0).await?)
            }

            async fn mark_ticket_uploaded(&self, ticket: &str, storage_id: &str, now: i64) -> Result<bool, $crate::error::DbError> {
                let done = sqlx::query("UPDATE upload_tickets SET storage_id = $1, uploaded_at = $2 \
                                        WHERE ticket = $3 AND uploaded_at IS NULL AND used_at IS NULL")
                    .bind(storage_id).bind(now).bind(ticket).execute(&self.0).await?;
                Ok(done.rows_affected() == 1)
            }

            async fn publish_version(&self, new: &$crate::db::NewVersion) -> Result<$crate::db::PublishOutcome, $crate::error::DbError> {
                use $crate::db::PublishOutcome;
                let mut tx = self.begin_write().await?;
                let existing: Option<(i64, i64, Option<String>)> = sqlx::query_as(
                    "SELECT s.id, s.owner_id, lv.version FROM skills s \
                     LEFT JOIN skill_versions lv ON lv.id = s.latest_version_id WHERE s.slug = $1")
                    .bind(&new.slug).fetch_optional(&mut *tx).await?;
                let (skill_id, current_latest) = match existing {
                    Some((_, owner_id, _)) if owner_id != new.user_id => return Ok(PublishOutcome::SlugTaken),
                    Some((skill_id, _, latest)) => (skill_id, latest),
                    None => {
                        let (skill_id,): (i64,) = sqlx::query_as(
                            "INSERT INTO skills (slug, owner_id, display_name, summary, created_at, updated_at) \
                             VALUES ($1, $2, $3, $4, $5, $5) RETURNING id")
                            .bind(&new.slug).bind(new.user_id).bind(&new.display_name).bind(&new.summary).bind(new.now)
                            .fetch_one(&mut *tx).await?;
                        (skill_id, None)
                    }
                };
                let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM skill_versions WHERE skill_id = $1 AND version = $2")
                    .bind(skill_id).bind(&new.version).fetch_optional(&mut *tx).await?;
                if taken.is_some() {
                    return Ok(PublishOutcome::VersionExists);
                }
                for ticket in &new.tickets {
                    let done = sqlx::query("UPDATE upload_tickets SET used_at = $1 WHERE ticket = $2 AND user_id = $3 \
                                            AND used_at IS NULL AND uploaded_at IS NOT NULL AND expires_at > $1")
                        .bind(new.now).bind(ticket).bind(new.user_id).execute(&mut *tx).await?;
                    if done.rows_affected() != 1 {
                        return Ok(PublishOutcome::TicketReused);
                    }
                }
                let (version_id,): (i64,) = sqlx::query_as(
                    "INSERT INTO skill_versions (skill_id, version, changelog, changelog_source, fingerprint, summary, \
                     skill_md, metadata_json, scan_json, verdict, published_by, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id")
                    .bind(skill_id).bind(&new.version).bind(&new.changelog).bind(&new.changelog_source)
                    .bind(&new.fingerprint).bind(&new.summary).bind(&new.skill_md).bind(&new.metadata_json)
                    .bind(&new.scan_json).bind(&new.verdict).bind(new.user_id).bind(new.now)
                    .fetch_one(&mut *tx).await?;
                for (position, file) in new.files.iter().enumerate() {
                    sqlx::query("INSERT INTO version_files (version_id, position, path, size, sha256, content_type) \
                                 VALUES ($1, $2, $3, $4, $5, $6)")
                        .bind(version_id).bind(position as i64).bind(&file.path).bind(file.size)
                        .bind(&file.sha256).bind(&file.content_type)
                        .execute(&mut *tx).await?;
                }
                let latest = $crate::db::becomes_latest(current_latest.as_deref(), &new.version);
                let mut tags: Vec<&str> = new.tags.iter().map(String::as_str).filter(|tag| *tag != "latest").collect();
                if latest {
                    tags.push("latest");
                }
                for tag in tags {
                    sqlx::query("INSERT INTO skill_tags (skill_id, tag, version_id) VALUES ($1, $2, $3) \
                                 ON CONFLICT (skill_id, tag) DO UPDATE SET version_id = excluded.version_id")
                        .bind(skill_id).bind(tag).bind(version_id).execute(&mut *tx).await?;
                }
                let tag_rows: Vec<(String, String)> = sqlx::query_as(
                    "SELECT t.tag, v.version FROM skill_tags t JOIN skill_versions v ON v.id = t.version_id \
                     WHERE t.skill_id = $1 ORDER BY t.tag")
                    .bind(skill_id).fetch_all(&mut *tx).await?;
                let tag_map: serde_json::Map<String, serde_json::Value> = tag_rows
                    .iter()
                    .map(|(tag, version)| (tag.clone(), serde_json::Value::String(version.clone())))
                    .collect();
                let tags_json = serde_json::Value::Object(tag_map).to_string();
                if latest {
                    sqlx::query("UPDATE skills SET latest_version_id = $1, display_name = $2, summary = $3, \
                                 tags_json = $4, versions_count = versions_count + 1, updated_at = $5 WHERE id = $6")
                        .bind(version_id).bind(&new.display_name).bind(&new.summary).bind(&tags_json)
                        .bind(new.now).bind(skill_id).execute(&mut *tx).await?;
                } else {
                    sqlx::query("UPDATE skills SET tags_json = $1, versions_count = versions_count + 1, updated_at = $2 WHERE id = $3")
                        .bind(&tags_json).bind(new.now).bind(skill_id).execute(&mut *tx).await?;
                }
                if latest || new.is_malware_blocked {
                    sqlx::query("UPDATE skills SET is_suspicious = $1, is_malware_blocked = $2, moderation_version_id = $3, \
                                 moderation_updated_at = $4 WHERE id = $5")
                        .bind(new.is_suspicious).bind(new.is_malware_blocked).bind(version_id).bind(new.now).bind(skill_id)
                        .execute(&mut *tx).await?;
                }
                let tag_names: Vec<&str> = tag_rows.iter().map(|(tag, _)| tag.as_str()).collect();
                Self::refresh_search(&mut tx, skill_id, &tag_names.join(" ")).await?;
                tx.commit().await?;
                Ok(PublishOutcome::Published { skill_id, version_id })
            }

            async fn find_skill(&self, slug: &str) -> Result<Option<$crate::db::SkillDetailRow>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::SkillDetailRow>($crate::db::FIND_SKILL)
                    .bind(slug).fetch_optional(&self.0).await?)
            }

            async fn list_skills(&self, query: &$crate::db::ListQuery) -> Result<Vec<$crate::db::SkillRow>, $crate::error::DbError> {
                use $crate::db::{ListSort, Seek};
                let sql = $crate::db::list_sql(query);
                let mut statement = sqlx::query_as::<_, $crate::db::SkillRow>(sqlx::AssertSqlSafe(sql)).bind(query.limit + 1);
                match (query.sort, &query.after) {
                    (ListSort::Name, after) => {
                        if let Some(Seek::Slug(slug)) = after {
                            statement = statement.bind(slug.clone());
                        }
                        if let Some(prefix) = &query.prefix {
                            statement = statement.bind($crate::db::like_prefix(prefix));
                        }
                    }
                    (ListSort::Trending, _) => {
                        statement = statement.bind(query.trending_since);
                    }
                    (sort, Some(Seek::Keys { values, id })) if values.len() == sort.columns().len() => {
                        for value in values {
                            statement = statement.bind(*value);
                        }
                        statement = statement.bind(*id);
                    }
                    _ => {}
                }
                Ok(statement.fetch_all(&self.0).await?)
            }

            async fn list_versions(&self, skill_id: i64, after: Option<(i64, i64)>, limit: i64) -> Result<Vec<$crate::db::VersionRow>, $crate::error::DbError> {
                let rows = match after {
                    Some((created_at, id)) => sqlx::query_as::<_, $crate::db::VersionRow>(
                        "SELECT id, skill_id, version, changelog, changelog_source, fingerprint, scan_json, verdict, \
                         published_by, created_at, soft_deleted_at FROM skill_versions \
                         WHERE skill_id = $1 AND soft_deleted_at IS NULL AND (created_at, id) < ($2, $3) \
                         ORDER BY created_at DESC, id DESC LIMIT $4")
                        .bind(skill_id).bind(created_at).bind(id).bind(limit + 1)
                        .fetch_all(&self.0).await?,
                    None => sqlx::query_as::<_, $crate::db::VersionRow>(
                        "SELECT id, skill_id, version, changelog, changelog_source, fingerprint, scan_json, verdict, \
                         published_by, created_at, soft_deleted_at FROM skill_versions \
                         WHERE skill_id = $1 AND soft_deleted_at IS NULL \
                         ORDER BY created_at DESC, id DESC LIMIT $2")
                        .bind(skill_id).bind(limit + 1)
                        .fetch_all(&self.0).await?,
                };
                Ok(rows)
            }

            async fn find_version(&self, skill_id: i64, version: &str) -> Result<Option<$crate::db::VersionRow>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::VersionRow>(
                    "SELECT id, skill_id, version, changelog, changelog_source, fingerprint, scan_json, verdict, \
                     published_by, created_at, soft_deleted_at FROM skill_versions WHERE skill_id = $1 AND version = $2")
                    .bind(skill_id).bind(version).fetch_optional(&self.0).await?)
            }

            async fn find_version_by_id(&self, version_id: i64) -> Result<Option<$crate::db::VersionRow>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::VersionRow>(
                    "SELECT id, skill_id, version, changelog, changelog_source, fingerprint, scan_json, verdict, \
                     published_by, created_at, soft_deleted_at FROM skill_versions WHERE id = $1")
                    .bind(version_id).fetch_optional(&self.0).await?)
            }

            async fn find_tagged_version(&self, skill_id: i64, tag: &str) -> Result<Option<$crate::db::VersionRow>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::VersionRow>(
                    "SELECT v.id, v.skill_id, v.version, v.changelog, v.changelog_source, v.fingerprint, v.scan_json, \
                     v.verdict, v.published_by, v.created_at, v.soft_deleted_at \
                     FROM skill_tags t JOIN skill_versions v ON v.id = t.version_id WHERE t.skill_id = $1 AND t.tag = $2")
                    .bind(skill_id).bind(tag).fetch_optional(&self.0).await?)
            }

            async fn find_version_by_fingerprint(&self, skill_id: i64, fingerprint: &str) -> Result<Option<$crate::db::VersionRow>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::VersionRow>(
                    "SELECT id, skill_id, version, changelog, changelog_source, fingerprint, scan_json, verdict, \
                     published_by, created_at, soft_deleted_at FROM skill_versions \
                     WHERE skill_id = $1 AND fingerprint = $2 AND soft_deleted_at IS NULL \
                     ORDER BY created_at DESC, id DESC LIMIT 1")
                    .bind(skill_id).bind(fingerprint).fetch_optional(&self.0).await?)
            }

            async fn version_files(&self, version_id: i64) -> Result<Vec<$crate::db::FileRow>, $crate::error::DbError> {
                Ok(sqlx::query_as::<_, $crate::db::FileRow>(
                    "SELECT path, size, sha256, content_type FROM version_files WHERE version_id = $1 ORDER BY position")
                    .bind(version_id).fetch_all(&self.0).await?)
            }

            async fn record_download(&self, skill_id: i64, actor: &str, day: i64, now: i64) -> Result<bool, $crate::error::DbError> {
                let mut tx = self.begin_write().await?;
                let done = sqlx::query("INSERT INTO download_events (skill_id, actor, day, created_at) VALUES ($1, $2, $3, $4) \
                                        ON CONFLICT DO NOTHING")
                    .bind(skill_id).bind(actor).bind(day).bind(now).execute(&mut *tx).await?;
                let counted = done.rows_affected() == 1;
                if counted {
                    sqlx::query("UPDATE skills SET downloads = downloads + 1 WHERE id = $1")
                        .bind(skill_id).execute(&mut *tx).await?;
                }
                tx.commit().await?;
                Ok(counted)
            }

            async fn record_install(&self, skill_id: i64, user_id: Option<i64>, version: Option<&str>, now: i64) -> Result<(), $crate::error::DbError> {
                let mut tx = self.begin_write().await?;
                sqlx::query("INSERT INTO install_events (skill_id, user_id, version, created_at) VALUES ($1, $2, $3, $4)")
                    .bind(skill_id).bind(user_id).bind(version).bind(now).execute(&mut *tx).await?;
                sqlx::query("UPDATE skills SET installs_current = installs_current + 1, \
                             installs_all_time = installs_all_time + 1 WHERE id = $1")
                    .bind(skill_id).execute(&mut *tx).await?;
                tx.commit().await?;
                Ok(())
            }

            async fn set_star(&self, skill_id: i64, user_id: i64, starred: bool, now: i64) -> Result<bool, $crate::error::DbError> {
                let mut tx = self.begin_write().await?;
                let changed = if starred {
                    let done = sqlx::query("INSERT INTO stars (skill_id, user_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                        .bind(skill_id).bind(user_id).bind(now).execute(&mut *tx).await?;
                    if done.rows_affected() == 1 {
                        sqlx::query("UPDATE skills SET stars = stars + 1 WHERE id = $1").bind(skill_id).execute(&mut *tx).await?;
                        true
                    } else {
                        false
                    }
                } else {
                    let done = sqlx::query("DELETE FROM stars WHERE skill_id = $1 AND user_id = $2")
                        .bind(skill_id).bind(user_id).execute(&mut *tx).await?;
                    if done.rows_affected() == 1 {
                        sqlx::query("UPDATE skills SET stars = stars - 1 WHERE id = $1 AND stars > 0").bind(skill_id).execute(&mut *tx).await?;
                        true
                    } else {
                        false
                    }
                };
                tx.commit().await?;
                Ok(changed)
            }

            async fn hit_rate_limit(&self, bucket: &str, window_start: i64) -> Result<i64, $crate::error::DbError> {
                let (count,): (i64,) = sqlx::query_as(
                    "INSERT INTO rate_limit_buckets (bucket, window_start, count) VALUES ($1, $2, 1) \
                     ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1 RETURNING count")
                    .bind(bucket).bind(window_start).fetch_one(&self.0).await?;
                Ok(count)
            }

            async fn prune_rate_limits(&self, window_start: i64) -> Result<(), $crate::error::DbError> {
                sqlx::query("DELETE FROM rate_limit_buckets WHERE window_start < $1")
                    .bind(window_start).execute(&self.0).await?;
                Ok(())
            }

            $($specific)*
        }
    };
}

pub(crate) use impl_store;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_have_the_same_file_names_on_both_backends() {
        let names = |dir: &str| -> Vec<String> {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(dir);
            let mut names: Vec<String> = std::fs::read_dir(&path)
                .expect("migrations directory exists")
                .map(|entry| {
                    entry
                        .expect("readable entry")
                        .file_name()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            names.sort();
            names
        };
        let sqlite = names("sqlite");
        assert!(!sqlite.is_empty());
        assert_eq!(sqlite, names("postgres"));
    }

    #[test]
    fn latest_moves_only_forward() {
        assert!(becomes_latest(None, "1.0.0"));
        assert!(becomes_latest(Some("1.0.0"), "1.0.1"));
        assert!(!becomes_latest(Some("1.0.1"), "1.0.0"));
        assert!(!becomes_latest(Some("1.0.0"), "1.0.0"));
        assert!(becomes_latest(Some("garbage"), "0.1.0"));
    }
}
