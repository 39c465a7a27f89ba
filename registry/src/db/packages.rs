//! Packages and releases: the SQL of [`PackageStore`], plain async functions over a
//! concrete pool and the trait implementation that hands them the store's pool.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`): `Db` is that
//! backend's `sqlx::Database` and `ThisStore` its store. The visibility rule of packages
//! lives here beside its domain twin in `crate::packages`: public means not deleted and
//! not in the `private` channel ([`PUBLIC_PACKAGE`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use async_trait::async_trait;

use super::{Db, ThisStore, audit, begin_write};
use crate::db::audit_store::NewAuditEvent;
use crate::db::package_store::{
    NewRelease, PackageRow, PackageSearch, PackageStore, PackageUpload, PublishedRelease,
    ReleaseRow, retag,
};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Columns of [`PackageRow`]; `FROM packages p` must join `users u` and left join
/// `package_releases lr` (the latest release).
pub(super) const PACKAGE_SELECT: &str = "SELECT p.id, p.name, p.display_name, p.family, \
    p.channel, p.owner_id, u.handle AS owner_handle, u.display_name AS owner_display_name, \
    u.image AS owner_image, p.summary, p.tags_json, p.categories_json, p.topics_json, \
    p.latest_release_id, lr.version AS latest_version, p.versions_count, p.downloads, \
    p.installs, p.created_at, p.updated_at, p.deleted_at \
    FROM packages p JOIN users u ON u.id = p.owner_id \
    LEFT JOIN package_releases lr ON lr.id = p.latest_release_id";

/// The condition of a publicly visible package.
pub(super) const PUBLIC_PACKAGE: &str = "p.deleted_at IS NULL AND p.channel <> 'private'";

/// Columns of [`ReleaseRow`].
const RELEASE_SELECT: &str = "SELECT id, package_id, version, changelog, \
    artifact_sha256, artifact_size, integrity, shasum, tarball_name, unpacked_size, file_count, \
    files_json, install_fields_json, has_install_script, compatibility_json, source_json, \
    bundle_json, scan_json, scan_status, created_at, withdrawn_at FROM package_releases";

/// Creates the package if new, inserts the release and moves the tags, in one transaction.
pub async fn publish_release(pool: &Pool, new: &NewRelease) -> Result<PublishedRelease, DbError> {
    let mut tx = begin_write(pool).await?;
    let existing: Option<(i64, i64, Option<i64>, String)> =
        sqlx::query_as("SELECT id, owner_id, deleted_at, tags_json FROM packages WHERE name = $1")
            .bind(&new.name)
            .fetch_optional(&mut *tx)
            .await?;
    let (package_id, tags_json) = match existing {
        Some((_, owner_id, _, _)) if owner_id != new.publisher_id => {
            return Ok(PublishedRelease::NotOwner);
        }
        Some((_, _, Some(_), _)) => return Ok(PublishedRelease::Deleted),
        Some((id, _, None, tags_json)) => (id, tags_json),
        None => {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO packages (name, display_name, family, channel, owner_id, summary, \
                 categories_json, topics_json, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id",
            )
            .bind(&new.name)
            .bind(&new.display_name)
            .bind(&new.family)
            .bind(&new.channel)
            .bind(new.publisher_id)
            .bind(&new.summary)
            .bind(&new.categories_json)
            .bind(&new.topics_json)
            .bind(new.now)
            .fetch_one(&mut *tx)
            .await?;
            (id, "{}".to_owned())
        }
    };
    let exists: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM package_releases WHERE package_id = $1 AND version = $2",
    )
    .bind(package_id)
    .bind(&new.release.version)
    .fetch_optional(&mut *tx)
    .await?;
    if exists.is_some() {
        return Ok(PublishedRelease::VersionExists);
    }
    let release = &new.release;
    let release_id: i64 = sqlx::query_scalar(
        "INSERT INTO package_releases (package_id, version, changelog, publisher_id, \
         artifact_sha256, artifact_size, integrity, shasum, tarball_name, unpacked_size, \
         file_count, files_json, install_fields_json, has_install_script, compatibility_json, \
         source_json, bundle_json, scan_json, scan_status, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20) RETURNING id",
    )
    .bind(package_id)
    .bind(&release.version)
    .bind(&release.changelog)
    .bind(new.publisher_id)
    .bind(&release.artifact_sha256)
    .bind(release.artifact_size)
    .bind(&release.integrity)
    .bind(&release.shasum)
    .bind(&release.tarball_name)
    .bind(release.unpacked_size)
    .bind(release.file_count)
    .bind(&release.files_json)
    .bind(&release.install_fields_json)
    .bind(release.has_install_script)
    .bind(&release.compatibility_json)
    .bind(&release.source_json)
    .bind(&release.bundle_json)
    .bind(&release.scan_json)
    .bind(&release.scan_status)
    .bind(new.now)
    .fetch_one(&mut *tx)
    .await?;
    let tags_json = retag(&tags_json, &new.tags, &release.version);
    let latest = serde_json::from_str::<BTreeMap<String, String>>(&tags_json)
        .ok()
        .and_then(|tags| tags.get("latest").cloned());
    // Display name and summary follow the release `latest` points at.
    let is_latest = latest.as_deref() == Some(release.version.as_str());
    sqlx::query(
        "UPDATE packages SET tags_json = $1, versions_count = versions_count + 1, \
         updated_at = $2, \
         latest_release_id = (SELECT id FROM package_releases WHERE package_id = $3 AND version = $4), \
         display_name = CASE WHEN $5 THEN $6 ELSE display_name END, \
         summary = CASE WHEN $5 THEN $7 ELSE summary END \
         WHERE id = $3",
    )
    .bind(&tags_json)
    .bind(new.now)
    .bind(package_id)
    .bind(&latest)
    .bind(is_latest)
    .bind(&new.display_name)
    .bind(&new.summary)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(PublishedRelease::Published {
        package_id,
        release_id,
    })
}

/// A package by name, whatever its state.
pub async fn find_package(pool: &Pool, name: &str) -> Result<Option<PackageRow>, DbError> {
    let sql = format!("{PACKAGE_SELECT} WHERE p.name = $1");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(name)
        .fetch_optional(pool)
        .await?)
}

/// A release by version.
pub async fn find_release(
    pool: &Pool,
    package_id: i64,
    version: &str,
) -> Result<Option<ReleaseRow>, DbError> {
    let sql = format!("{RELEASE_SELECT} WHERE package_id = $1 AND version = $2");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(package_id)
        .bind(version)
        .fetch_optional(pool)
        .await?)
}

/// A release by its npm tarball file name.
pub async fn find_release_by_tarball(
    pool: &Pool,
    package_id: i64,
    tarball_name: &str,
) -> Result<Option<ReleaseRow>, DbError> {
    let sql = format!(
        "{RELEASE_SELECT} WHERE package_id = $1 AND tarball_name = $2 AND withdrawn_at IS NULL"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(package_id)
        .bind(tarball_name)
        .fetch_optional(pool)
        .await?)
}

/// Every release of a package that is not withdrawn, oldest first.
pub async fn list_releases(pool: &Pool, package_id: i64) -> Result<Vec<ReleaseRow>, DbError> {
    let sql = format!(
        "{RELEASE_SELECT} WHERE package_id = $1 AND withdrawn_at IS NULL ORDER BY created_at, id"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(package_id)
        .fetch_all(pool)
        .await?)
}

/// Public packages with a release matching every term, most downloaded first.
pub async fn search_packages(
    pool: &Pool,
    search: &PackageSearch,
) -> Result<Vec<PackageRow>, DbError> {
    let mut sql =
        format!("{PACKAGE_SELECT} WHERE {PUBLIC_PACKAGE} AND p.latest_release_id IS NOT NULL");
    let mut next = 2;
    for _ in &search.terms {
        let _ = write!(
            sql,
            " AND (LOWER(p.name) LIKE ${next} ESCAPE '\\' \
             OR LOWER(p.display_name) LIKE ${next} ESCAPE '\\' \
             OR LOWER(COALESCE(p.summary, '')) LIKE ${next} ESCAPE '\\')"
        );
        next += 1;
    }
    if search.family.is_some() {
        let _ = write!(sql, " AND p.family = ${next}");
        next += 1;
    }
    if search.after.is_some() {
        let (downloads, updated, id) = (next, next + 1, next + 2);
        let _ = write!(
            sql,
            " AND (p.downloads < ${downloads} OR (p.downloads = ${downloads} AND \
             (p.updated_at < ${updated} OR (p.updated_at = ${updated} AND p.id < ${id}))))"
        );
    }
    sql.push_str(" ORDER BY p.downloads DESC, p.updated_at DESC, p.id DESC LIMIT $1");
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(search.limit);
    for term in &search.terms {
        let escaped = term
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        query = query.bind(format!("%{escaped}%"));
    }
    if let Some(family) = &search.family {
        query = query.bind(family.clone());
    }
    if let Some(after) = search.after {
        query = query
            .bind(after.downloads)
            .bind(after.updated_at)
            .bind(after.id);
    }
    Ok(query.fetch_all(pool).await?)
}

/// Soft-deletes (`Some(time)`) or restores (`None`) a package with its audit row, in one
/// transaction; true when it changed (no row is written otherwise).
pub async fn set_package_deleted(
    pool: &Pool,
    package_id: i64,
    deleted_at: Option<i64>,
    now: i64,
    event: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let done = if deleted_at.is_some() {
        sqlx::query(
            "UPDATE packages SET deleted_at = $1, updated_at = $2 \
             WHERE id = $3 AND deleted_at IS NULL",
        )
        .bind(deleted_at)
        .bind(now)
        .bind(package_id)
        .execute(&mut *tx)
        .await?
    } else {
        sqlx::query(
            "UPDATE packages SET deleted_at = NULL, updated_at = $1 \
             WHERE id = $2 AND deleted_at IS NOT NULL",
        )
        .bind(now)
        .bind(package_id)
        .execute(&mut *tx)
        .await?
    };
    let changed = done.rows_affected() == 1;
    if changed {
        audit::insert_event(&mut tx, event).await?;
    }
    tx.commit().await?;
    Ok(changed)
}

/// Gives a package to another user, with its audit row (which keeps the reason), in one
/// transaction.
pub async fn transfer_package(
    pool: &Pool,
    package_id: i64,
    owner_id: i64,
    now: i64,
    event: &NewAuditEvent,
) -> Result<(), DbError> {
    let mut tx = begin_write(pool).await?;
    sqlx::query("UPDATE packages SET owner_id = $1, updated_at = $2 WHERE id = $3")
        .bind(owner_id)
        .bind(now)
        .bind(package_id)
        .execute(&mut *tx)
        .await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(())
}

/// Adds downloads gathered in memory.
pub async fn add_package_downloads(
    pool: &Pool,
    package_id: i64,
    count: i64,
) -> Result<(), DbError> {
    sqlx::query("UPDATE packages SET downloads = downloads + $1 WHERE id = $2")
        .bind(count)
        .bind(package_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Withdraws or restores a release and writes the package's tags, in one transaction.
pub async fn set_release_withdrawn(
    pool: &Pool,
    release_id: i64,
    withdrawn: Option<(i64, i64)>,
    tags_json: &str,
    event: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let done = match withdrawn {
        Some((at, by)) => sqlx::query(
            "UPDATE package_releases SET withdrawn_at = $1, withdrawn_by = $2 \
             WHERE id = $3 AND withdrawn_at IS NULL",
        )
        .bind(at)
        .bind(by)
        .bind(release_id),
        None => sqlx::query(
            "UPDATE package_releases SET withdrawn_at = NULL, withdrawn_by = NULL \
             WHERE id = $1 AND withdrawn_at IS NOT NULL",
        )
        .bind(release_id),
    }
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query(
        "UPDATE packages SET tags_json = $1, updated_at = $2 \
         WHERE id = (SELECT package_id FROM package_releases WHERE id = $3)",
    )
    .bind(tags_json)
    .bind(event.at)
    .bind(release_id)
    .execute(&mut *tx)
    .await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(true)
}

/// Counts one install.
pub async fn record_package_install(pool: &Pool, package_id: i64) -> Result<(), DbError> {
    sqlx::query("UPDATE packages SET installs = installs + 1 WHERE id = $1")
        .bind(package_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Public plugin packages updated in `[start, end]`, newest first, after a seek key.
pub async fn export_plugins(
    pool: &Pool,
    start: i64,
    end: i64,
    family: Option<&str>,
    after: Option<(i64, i64)>,
    limit: i64,
) -> Result<Vec<PackageRow>, DbError> {
    let mut sql = format!(
        "{PACKAGE_SELECT} WHERE {PUBLIC_PACKAGE} AND p.latest_release_id IS NOT NULL \
         AND p.updated_at >= $2 AND p.updated_at <= $3"
    );
    let mut next = 4;
    if family.is_some() {
        let _ = write!(sql, " AND p.family = ${next}");
        next += 1;
    } else {
        sql.push_str(" AND p.family IN ('code-plugin', 'bundle-plugin')");
    }
    if after.is_some() {
        let _ = write!(sql, " AND (p.updated_at, p.id) < (${next}, ${})", next + 1);
    }
    sql.push_str(" ORDER BY p.updated_at DESC, p.id DESC LIMIT $1");
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(limit + 1)
        .bind(start)
        .bind(end);
    if let Some(family) = family {
        query = query.bind(family.to_owned());
    }
    if let Some((updated_at, id)) = after {
        query = query.bind(updated_at).bind(id);
    }
    Ok(query.fetch_all(pool).await?)
}

/// Issues a staged-upload ticket.
pub async fn insert_package_upload(pool: &Pool, upload: &PackageUpload) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO package_uploads (ticket, user_id, created_at, expires_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(&upload.ticket)
    .bind(upload.user_id)
    .bind(upload.created_at)
    .bind(upload.expires_at)
    .execute(pool)
    .await?;
    Ok(())
}

/// A staged-upload ticket.
pub async fn find_package_upload(
    pool: &Pool,
    ticket: &str,
) -> Result<Option<PackageUpload>, DbError> {
    Ok(sqlx::query_as::<_, PackageUpload>(
        "SELECT ticket, user_id, storage_id, size, created_at, expires_at, uploaded_at, \
         used_at FROM package_uploads WHERE ticket = $1",
    )
    .bind(ticket)
    .fetch_optional(pool)
    .await?)
}

/// Records the stored bytes of a ticket, once.
pub async fn mark_package_uploaded(
    pool: &Pool,
    ticket: &str,
    storage_id: &str,
    size: i64,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE package_uploads SET storage_id = $1, size = $2, uploaded_at = $3 \
         WHERE ticket = $4 AND uploaded_at IS NULL AND used_at IS NULL",
    )
    .bind(storage_id)
    .bind(size)
    .bind(now)
    .bind(ticket)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Consumes an uploaded ticket, once.
pub async fn consume_package_upload(pool: &Pool, ticket: &str, now: i64) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE package_uploads SET used_at = $1 \
         WHERE ticket = $2 AND uploaded_at IS NOT NULL AND used_at IS NULL",
    )
    .bind(now)
    .bind(ticket)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[async_trait]
impl PackageStore for ThisStore {
    async fn publish_release(&self, new: &NewRelease) -> Result<PublishedRelease, DbError> {
        publish_release(&self.0, new).await
    }
    async fn find_package(&self, name: &str) -> Result<Option<PackageRow>, DbError> {
        find_package(&self.0, name).await
    }
    async fn find_release(
        &self,
        package_id: i64,
        version: &str,
    ) -> Result<Option<ReleaseRow>, DbError> {
        find_release(&self.0, package_id, version).await
    }
    async fn find_release_by_tarball(
        &self,
        package_id: i64,
        tarball_name: &str,
    ) -> Result<Option<ReleaseRow>, DbError> {
        find_release_by_tarball(&self.0, package_id, tarball_name).await
    }
    async fn list_releases(&self, package_id: i64) -> Result<Vec<ReleaseRow>, DbError> {
        list_releases(&self.0, package_id).await
    }
    async fn search_packages(&self, search: &PackageSearch) -> Result<Vec<PackageRow>, DbError> {
        search_packages(&self.0, search).await
    }
    async fn set_package_deleted(
        &self,
        package_id: i64,
        deleted_at: Option<i64>,
        now: i64,
        event: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        set_package_deleted(&self.0, package_id, deleted_at, now, event).await
    }
    async fn transfer_package(
        &self,
        package_id: i64,
        owner_id: i64,
        now: i64,
        event: &NewAuditEvent,
    ) -> Result<(), DbError> {
        transfer_package(&self.0, package_id, owner_id, now, event).await
    }
    async fn add_package_downloads(&self, package_id: i64, count: i64) -> Result<(), DbError> {
        add_package_downloads(&self.0, package_id, count).await
    }
    async fn record_package_install(&self, package_id: i64) -> Result<(), DbError> {
        record_package_install(&self.0, package_id).await
    }
    async fn set_release_withdrawn(
        &self,
        release_id: i64,
        withdrawn: Option<(i64, i64)>,
        tags_json: &str,
        event: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        set_release_withdrawn(&self.0, release_id, withdrawn, tags_json, event).await
    }
    async fn insert_package_upload(&self, upload: &PackageUpload) -> Result<(), DbError> {
        insert_package_upload(&self.0, upload).await
    }
    async fn find_package_upload(&self, ticket: &str) -> Result<Option<PackageUpload>, DbError> {
        find_package_upload(&self.0, ticket).await
    }
    async fn mark_package_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        size: i64,
        now: i64,
    ) -> Result<bool, DbError> {
        mark_package_uploaded(&self.0, ticket, storage_id, size, now).await
    }
    async fn consume_package_upload(&self, ticket: &str, now: i64) -> Result<bool, DbError> {
        consume_package_upload(&self.0, ticket, now).await
    }
    async fn export_plugins(
        &self,
        start: i64,
        end: i64,
        family: Option<&str>,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<PackageRow>, DbError> {
        export_plugins(&self.0, start, end, family, after, limit).await
    }
}
