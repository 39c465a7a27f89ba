//! The package use cases of the store: the [`PackageStore`] trait (a supertrait of
//! `Store`, so handlers reach it through the same `Arc<dyn Store>`) and its row types.
//! The SQL lives in `packages.rs`, mounted once per backend.

use async_trait::async_trait;

use crate::db::row::from_row;
use crate::error::DbError;

/// A package with its owner and latest release version.
#[derive(Debug, Clone)]
pub struct PackageRow {
    /// Row id.
    pub id: i64,
    /// Full name, e.g. `@alice/code-plug`.
    pub name: String,
    /// Human name.
    pub display_name: String,
    /// `code-plugin`, `bundle-plugin` or `skill`.
    pub family: String,
    /// `community`, `private` or `official`.
    pub channel: String,
    /// Owner user id.
    pub owner_id: i64,
    /// Owner handle.
    pub owner_handle: String,
    /// Owner display name.
    pub owner_display_name: Option<String>,
    /// Owner avatar.
    pub owner_image: Option<String>,
    /// One-line summary.
    pub summary: Option<String>,
    /// Tag → version, JSON.
    pub tags_json: String,
    /// Categories, JSON array.
    pub categories_json: String,
    /// Topics, JSON array.
    pub topics_json: String,
    /// Release the `latest` tag points at.
    pub latest_release_id: Option<i64>,
    /// Version string of that release.
    pub latest_version: Option<String>,
    /// Number of releases.
    pub versions_count: i64,
    /// Artifact downloads.
    pub downloads: i64,
    /// Installs reported by clients.
    pub installs: i64,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// Last publish or change, Unix ms.
    pub updated_at: i64,
    /// Soft-deletion time.
    pub deleted_at: Option<i64>,
}

from_row!(PackageRow {
    id,
    name,
    display_name,
    family,
    channel,
    owner_id,
    owner_handle,
    owner_display_name,
    owner_image,
    summary,
    tags_json,
    categories_json,
    topics_json,
    latest_release_id,
    latest_version,
    versions_count,
    downloads,
    installs,
    created_at,
    updated_at,
    deleted_at
});

/// One immutable release of a package.
#[derive(Debug, Clone)]
pub struct ReleaseRow {
    /// Row id.
    pub id: i64,
    /// Owning package.
    pub package_id: i64,
    /// Semver version.
    pub version: String,
    /// Release notes.
    pub changelog: String,
    /// Hex SHA-256 of the tarball, its blob address.
    pub artifact_sha256: String,
    /// Tarball bytes.
    pub artifact_size: i64,
    /// `sha512-…` integrity.
    pub integrity: String,
    /// Hex SHA-1.
    pub shasum: String,
    /// File name on the npm surface.
    pub tarball_name: String,
    /// Bytes of the files unpacked.
    pub unpacked_size: i64,
    /// Files in the tarball.
    pub file_count: i64,
    /// `[{path, size, sha256}]`.
    pub files_json: String,
    /// npm install fields of `package.json`, absent without one.
    pub install_fields_json: Option<String>,
    /// Whether installing runs a script.
    pub has_install_script: bool,
    /// OpenClaw compatibility.
    pub compatibility_json: Option<String>,
    /// Source metadata.
    pub source_json: Option<String>,
    /// Bundle metadata.
    pub bundle_json: Option<String>,
    /// The security scan report.
    pub scan_json: String,
    /// `clean`, `suspicious` or `malicious`.
    pub scan_status: String,
    /// Publish time, Unix ms.
    pub created_at: i64,
    /// When its owner or staff withdrew it, Unix ms (while withdrawn).
    pub withdrawn_at: Option<i64>,
}

from_row!(ReleaseRow {
    id,
    package_id,
    version,
    changelog,
    artifact_sha256,
    artifact_size,
    integrity,
    shasum,
    tarball_name,
    unpacked_size,
    file_count,
    files_json,
    install_fields_json,
    has_install_script,
    compatibility_json,
    source_json,
    bundle_json,
    scan_json,
    scan_status,
    created_at,
    withdrawn_at
});

/// A staged ClawPack upload: a ticket, and once the bytes arrived, their blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageUpload {
    /// The opaque ticket (the upload URL's last segment).
    pub ticket: String,
    /// The user it was issued to; only they may publish with it.
    pub user_id: i64,
    /// SHA-256 of the uploaded tarball, its blob address, once uploaded.
    pub storage_id: Option<String>,
    /// Bytes uploaded.
    pub size: Option<i64>,
    /// Issue time, Unix ms.
    pub created_at: i64,
    /// After this the ticket is refused, Unix ms.
    pub expires_at: i64,
    /// When the bytes arrived.
    pub uploaded_at: Option<i64>,
    /// When a publish consumed it.
    pub used_at: Option<i64>,
}

from_row!(PackageUpload {
    ticket,
    user_id,
    storage_id,
    size,
    created_at,
    expires_at,
    uploaded_at,
    used_at
});

/// A release to insert, with the package fields it creates or refreshes.
#[derive(Debug, Clone)]
pub struct NewRelease {
    /// Package name.
    pub name: String,
    /// Display name.
    pub display_name: String,
    /// Family.
    pub family: String,
    /// Channel.
    pub channel: String,
    /// Summary.
    pub summary: Option<String>,
    /// Categories JSON.
    pub categories_json: String,
    /// Topics JSON.
    pub topics_json: String,
    /// Publishing user (the owner of a new package).
    pub publisher_id: i64,
    /// Tags to point at the release.
    pub tags: Vec<String>,
    /// The release columns (`id`, `package_id` and `created_at` are filled in).
    pub release: ReleaseRow,
    /// Publish time.
    pub now: i64,
}

/// How a publish ended in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublishedRelease {
    /// Stored.
    Published {
        /// The package.
        package_id: i64,
        /// The new release.
        release_id: i64,
    },
    /// That version already exists.
    VersionExists,
    /// The package belongs to someone else.
    NotOwner,
    /// The package is deleted and must be restored first.
    Deleted,
}

/// A search or export filter.
#[derive(Debug, Clone, Default)]
pub struct PackageSearch {
    /// Lowercase words that must all appear in name, display name or summary.
    pub terms: Vec<String>,
    /// Only this family.
    pub family: Option<String>,
    /// Most rows.
    pub limit: i64,
    /// Only rows after this one in catalogue order (downloads, then update time, then id,
    /// all descending): the keyset of `GET /api/v1/packages` paging.
    pub after: Option<PackageSeek>,
}

/// A position in the package catalogue order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PackageSeek {
    /// Downloads of the last row seen.
    pub downloads: i64,
    /// Its update time, Unix ms.
    pub updated_at: i64,
    /// Its id.
    pub id: i64,
}

/// Package use cases of the store.
#[async_trait]
pub trait PackageStore: Send + Sync {
    /// Creates the package if new, inserts the release and moves the tags, atomically.
    async fn publish_release(&self, new: &NewRelease) -> Result<PublishedRelease, DbError>;
    /// A package by name, whatever its state.
    async fn find_package(&self, name: &str) -> Result<Option<PackageRow>, DbError>;
    /// A release by version.
    async fn find_release(
        &self,
        package_id: i64,
        version: &str,
    ) -> Result<Option<ReleaseRow>, DbError>;
    /// A release by its npm tarball file name.
    async fn find_release_by_tarball(
        &self,
        package_id: i64,
        tarball_name: &str,
    ) -> Result<Option<ReleaseRow>, DbError>;
    /// Every release of a package, oldest first.
    async fn list_releases(&self, package_id: i64) -> Result<Vec<ReleaseRow>, DbError>;
    /// Public packages matching a search, most downloaded first.
    async fn search_packages(&self, search: &PackageSearch) -> Result<Vec<PackageRow>, DbError>;
    /// Soft-deletes (`Some(now)`) or restores (`None`) a package and writes `event` in
    /// the same transaction; true when it changed (nothing is written otherwise).
    async fn set_package_deleted(
        &self,
        package_id: i64,
        deleted_at: Option<i64>,
        now: i64,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Gives a package to another user and writes `event` in the same transaction.
    async fn transfer_package(
        &self,
        package_id: i64,
        owner_id: i64,
        now: i64,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<(), DbError>;
    /// Adds `count` downloads to a package.
    async fn add_package_downloads(&self, package_id: i64, count: i64) -> Result<(), DbError>;
    /// Withdraws (`Some((at, by))`) or restores (`None`) one release, writing the package's
    /// new tags with it; false when the release was already in that state.
    async fn set_release_withdrawn(
        &self,
        release_id: i64,
        withdrawn: Option<(i64, i64)>,
        tags_json: &str,
        event: &crate::db::audit_store::NewAuditEvent,
    ) -> Result<bool, DbError>;
    /// Counts one install of a package (the `plugin_install` telemetry of openclaw).
    async fn record_package_install(&self, package_id: i64) -> Result<(), DbError>;
    /// Issues a staged-upload ticket.
    async fn insert_package_upload(&self, upload: &PackageUpload) -> Result<(), DbError>;
    /// A staged-upload ticket.
    async fn find_package_upload(&self, ticket: &str) -> Result<Option<PackageUpload>, DbError>;
    /// Records the stored bytes of a ticket; false when it was already uploaded or used.
    async fn mark_package_uploaded(
        &self,
        ticket: &str,
        storage_id: &str,
        size: i64,
        now: i64,
    ) -> Result<bool, DbError>;
    /// Consumes an uploaded ticket for a publish; false when it was already used (so of
    /// two publishes racing with one ticket, one wins).
    async fn consume_package_upload(&self, ticket: &str, now: i64) -> Result<bool, DbError>;
    /// Public plugin packages updated in `[start, end]`, newest first, after a
    /// `(updated_at, id)` seek key; up to `limit + 1` rows.
    async fn export_plugins(
        &self,
        start: i64,
        end: i64,
        family: Option<&str>,
        after: Option<(i64, i64)>,
        limit: i64,
    ) -> Result<Vec<PackageRow>, DbError>;
}

/// The tag map after `tags` point at `version`; `latest` also moves there when the
/// package has no `latest` yet.
pub fn retag(tags_json: &str, tags: &[String], version: &str) -> String {
    let mut map: std::collections::BTreeMap<String, String> =
        serde_json::from_str(tags_json).unwrap_or_default();
    for tag in tags {
        map.insert(tag.clone(), version.to_owned());
    }
    map.entry("latest".to_owned())
        .or_insert_with(|| version.to_owned());
    serde_json::to_string(&map).unwrap_or_else(|_| "{}".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retag_moves_tags_and_sets_a_first_latest() {
        let tags = retag("{}", &["beta".to_owned()], "1.0.0");
        assert_eq!(tags, r#"{"beta":"1.0.0","latest":"1.0.0"}"#);
        let tags = retag(&tags, &["beta".to_owned()], "2.0.0-beta.1");
        assert_eq!(tags, r#"{"beta":"2.0.0-beta.1","latest":"1.0.0"}"#);
        let tags = retag(&tags, &["latest".to_owned()], "2.0.0");
        assert_eq!(tags, r#"{"beta":"2.0.0-beta.1","latest":"2.0.0"}"#);
    }
}
