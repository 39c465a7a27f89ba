//! The JSON shapes of packages and releases on API v1, as typed structs: the handlers
//! build them from stored rows, serde writes them and utoipa describes the same types in
//! `/api/v1/openapi.json`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::db::package_store::{PackageRow, ReleaseRow};
use crate::packages::lifecycle::tags_of;
use crate::packages::name::PackageName;
use crate::packages::publish::ReleaseFile;
use crate::packages::scan::{PackageFinding, PackageScan};

/// A JSON column, or null when absent or unreadable.
fn json_column(text: Option<&str>) -> Option<Value> {
    text.and_then(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|value| !value.is_null())
}

/// The stored scan of a release, `None` when it cannot be read.
pub fn scan_of(release: &ReleaseRow) -> Option<PackageScan> {
    serde_json::from_str(&release.scan_json).ok()
}

/// The path of a package in URLs (`%40scope%2Fname` for a scoped name).
pub fn url_path(package: &PackageRow) -> String {
    PackageName::parse(&package.name)
        .map(|name| name.url_path())
        .unwrap_or_else(|_| package.name.clone())
}

/// Counters of a package.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackageStats {
    /// Artifact downloads.
    pub downloads: i64,
    /// Installs reported by clients.
    pub installs: i64,
    /// Stars (packages have none here: always 0).
    pub stars: i64,
    /// Published releases.
    pub versions: i64,
}

/// A package in the catalogue and in search results.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageListItem {
    /// Package name (`name` or `@scope/name`).
    pub name: String,
    /// Display name.
    pub display_name: String,
    /// `code-plugin`, `bundle-plugin` or `skill`.
    pub family: String,
    /// Runtime id (none here: always null).
    pub runtime_id: Option<String>,
    /// `community`, `official` or `private`.
    pub channel: String,
    /// Published on the official channel.
    pub is_official: bool,
    /// One-line summary.
    pub summary: Option<String>,
    /// Icon URL (none here: always null).
    pub icon: Option<String>,
    /// Owner handle.
    pub owner_handle: String,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// Version the `latest` tag points at.
    pub latest_version: Option<String>,
    /// Catalogue categories.
    pub categories: Vec<String>,
    /// Catalogue topics.
    pub topics: Vec<String>,
    /// Verification tier (none here: always null; see `verification` on a release).
    pub verification_tier: Option<String>,
    /// Counters.
    pub stats: PackageStats,
}

/// The catalogue item of `package`.
pub fn list_item(package: &PackageRow) -> PackageListItem {
    PackageListItem {
        name: package.name.clone(),
        display_name: package.display_name.clone(),
        family: package.family.clone(),
        runtime_id: None,
        channel: package.channel.clone(),
        is_official: package.channel == "official",
        summary: package.summary.clone(),
        icon: None,
        owner_handle: package.owner_handle.clone(),
        created_at: package.created_at,
        updated_at: package.updated_at,
        latest_version: package.latest_version.clone(),
        categories: serde_json::from_str(&package.categories_json).unwrap_or_default(),
        topics: serde_json::from_str(&package.topics_json).unwrap_or_default(),
        verification_tier: None,
        stats: PackageStats {
            downloads: package.downloads,
            installs: package.installs,
            stars: 0,
            versions: package.versions_count,
        },
    }
}

/// The `npm pack` artifact of a release.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactView {
    /// Always `npm-pack`.
    pub kind: String,
    /// SHA-256 of the tarball, hex.
    pub sha256: String,
    /// Tarball size in bytes.
    pub size: i64,
    /// Always `tgz`.
    pub format: String,
    /// npm `integrity` (sha512, SRI).
    pub npm_integrity: String,
    /// npm `shasum` (sha1, hex).
    pub npm_shasum: String,
    /// Tarball file name on the npm surface.
    pub npm_tarball_name: String,
    /// Bytes of the files unpacked.
    pub npm_unpacked_size: i64,
    /// Files in the tarball.
    pub npm_file_count: i64,
    /// Where to download it (absent in the package view).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download_url: Option<String>,
    /// The npm tarball URL, for releases installable with npm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tarball_url: Option<String>,
    /// The older download URL (absent in the package view).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legacy_download_url: Option<String>,
}

/// The artifact of `release` without URLs, as the package view shows it.
pub fn artifact(release: &ReleaseRow) -> ArtifactView {
    ArtifactView {
        kind: "npm-pack".into(),
        sha256: release.artifact_sha256.clone(),
        size: release.artifact_size,
        format: "tgz".into(),
        npm_integrity: release.integrity.clone(),
        npm_shasum: release.shasum.clone(),
        npm_tarball_name: release.tarball_name.clone(),
        npm_unpacked_size: release.unpacked_size,
        npm_file_count: release.file_count,
        download_url: None,
        tarball_url: None,
        legacy_download_url: None,
    }
}

/// The artifact of `release` with its download URLs under `base`.
pub fn artifact_with_urls(base: &str, package: &PackageRow, release: &ReleaseRow) -> ArtifactView {
    let path = url_path(package);
    let version = &release.version;
    let tarball = release
        .install_fields_json
        .is_some()
        .then(|| format!("{base}/api/npm/{path}/-/{}", release.tarball_name));
    ArtifactView {
        download_url: Some(tarball.clone().unwrap_or_else(|| {
            format!("{base}/api/v1/packages/{path}/versions/{version}/artifact/download")
        })),
        tarball_url: tarball,
        legacy_download_url: Some(format!(
            "{base}/api/v1/packages/{path}/download?version={version}"
        )),
        ..artifact(release)
    }
}

/// How far a release's origin is established.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    /// `source-linked` (repository and commit declared) or `structural`.
    pub tier: String,
    /// Always `artifact-only`: the source is declared, not rebuilt.
    pub scope: String,
    /// Declared source repository.
    #[schema(value_type = Option<String>)]
    pub source_repo: Option<Value>,
    /// Declared source commit.
    #[schema(value_type = Option<String>)]
    pub source_commit: Option<Value>,
    /// Scan status of the release.
    pub scan_status: String,
}

/// The verification of `release`.
pub fn verification(release: &ReleaseRow) -> Verification {
    let source = json_column(release.source_json.as_deref()).unwrap_or(Value::Null);
    let repo = source.get("repo").cloned();
    let commit = source.get("commit").cloned();
    Verification {
        tier: if repo.is_some() && commit.is_some() {
            "source-linked"
        } else {
            "structural"
        }
        .into(),
        scope: "artifact-only".into(),
        source_repo: repo,
        source_commit: commit,
        scan_status: release.scan_status.clone(),
    }
}

/// One package with its latest release.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageDetail {
    /// The catalogue fields.
    #[serde(flatten)]
    pub item: PackageListItem,
    /// Dist-tags (tag → version).
    pub tags: BTreeMap<String, String>,
    /// Host compatibility of the latest release, or null.
    #[schema(value_type = Option<Object>)]
    pub compatibility: Option<Value>,
    /// Scan status of the latest release; `not-run` before the first release.
    pub scan_status: String,
    /// The latest release's artifact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact: Option<ArtifactView>,
    /// The latest release's verification.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}

/// The owner of a package.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageOwner {
    /// Handle.
    pub handle: String,
    /// Display name.
    pub display_name: Option<String>,
    /// Avatar URL.
    pub image: Option<String>,
}

/// Answer of `GET /api/v1/packages/{name}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackageResponse {
    /// The package.
    pub package: PackageDetail,
    /// Its owner.
    pub owner: PackageOwner,
}

/// The answer for `package` whose latest release is `latest`.
pub fn package_response(package: &PackageRow, latest: Option<&ReleaseRow>) -> PackageResponse {
    PackageResponse {
        package: PackageDetail {
            item: list_item(package),
            tags: tags_of(package),
            compatibility: latest
                .and_then(|release| json_column(release.compatibility_json.as_deref())),
            scan_status: latest
                .map_or_else(|| "not-run".into(), |release| release.scan_status.clone()),
            artifact: latest.map(artifact),
            verification: latest.map(verification),
        },
        owner: PackageOwner {
            handle: package.owner_handle.clone(),
            display_name: package.owner_display_name.clone(),
            image: package.owner_image.clone(),
        },
    }
}

/// A package named in release answers.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageHeader {
    /// Package name.
    pub name: String,
    /// Display name.
    pub display_name: String,
    /// Family.
    pub family: String,
}

/// The header of `package`.
pub fn header(package: &PackageRow) -> PackageHeader {
    PackageHeader {
        name: package.name.clone(),
        display_name: package.display_name.clone(),
        family: package.family.clone(),
    }
}

/// A release in the version list.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseItem {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
    /// Release notes.
    pub changelog: String,
    /// Dist-tags pointing at it.
    pub dist_tags: Vec<String>,
}

/// A page of releases.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReleasePage {
    /// Releases, newest first.
    pub items: Vec<ReleaseItem>,
    /// Cursor of the next page, null on the last.
    pub next_cursor: Option<String>,
}

/// The dist-tags of `tags` that point at `version`.
pub fn dist_tags_of(tags: &BTreeMap<String, String>, version: &str) -> Vec<String> {
    tags.iter()
        .filter(|(_, tagged)| tagged.as_str() == version)
        .map(|(tag, _)| tag.clone())
        .collect()
}

/// The static scan in a release answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaticScanView {
    /// `clean`, `suspicious` or `malicious`.
    pub status: String,
    /// Codes of the findings that count.
    pub reason_codes: Vec<String>,
    /// Every finding.
    pub findings: Vec<PackageFinding>,
    /// One paragraph for people.
    pub summary: String,
    /// Scanner name and version.
    pub engine_version: String,
}

/// One release with its files, compatibility, artifact and scan.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseDetail {
    /// Semver version.
    pub version: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
    /// Release notes.
    pub changelog: String,
    /// Dist-tags pointing at it.
    pub dist_tags: Vec<String>,
    /// Files of the tarball.
    pub files: Vec<ReleaseFile>,
    /// Host compatibility, or null.
    #[schema(value_type = Option<Object>)]
    pub compatibility: Option<Value>,
    /// Verification.
    pub verification: Verification,
    /// The artifact and its URLs.
    pub artifact: ArtifactView,
    /// Archive hash for an external scanner (none here: always null).
    pub sha256hash: Option<String>,
    /// The static scan, null when the stored scan cannot be read.
    pub static_scan: Option<StaticScanView>,
}

/// Files of `release`.
pub fn files_of(release: &ReleaseRow) -> Vec<ReleaseFile> {
    serde_json::from_str(&release.files_json).unwrap_or_default()
}

/// Answer of `GET /api/v1/packages/{name}/versions/{version}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReleaseResponse {
    /// The package.
    pub package: PackageHeader,
    /// The release.
    pub version: ReleaseDetail,
}

/// The release answer for `release` of `package`.
pub fn release_response(base: &str, package: &PackageRow, release: &ReleaseRow) -> ReleaseResponse {
    ReleaseResponse {
        package: header(package),
        version: ReleaseDetail {
            version: release.version.clone(),
            created_at: release.created_at,
            changelog: release.changelog.clone(),
            dist_tags: dist_tags_of(&tags_of(package), &release.version),
            files: files_of(release),
            compatibility: json_column(release.compatibility_json.as_deref()),
            verification: verification(release),
            artifact: artifact_with_urls(base, package, release),
            sha256hash: None,
            static_scan: scan_of(release).map(|scan| StaticScanView {
                status: scan.status.as_str().to_owned(),
                reason_codes: scan.reason_codes,
                findings: scan.findings,
                summary: scan.overview,
                engine_version: scan.engine,
            }),
        },
    }
}

/// Answer of `GET /api/v1/packages/{name}/versions/{version}/artifact`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArtifactResponse {
    /// The package.
    pub package: PackageHeader,
    /// The release's version.
    pub version: String,
    /// The artifact and its URLs.
    pub artifact: ArtifactView,
    /// Files of the tarball.
    pub files: Vec<ReleaseFile>,
}

/// The release a security answer is about.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityRelease {
    /// Release id.
    pub release_id: String,
    /// Semver version.
    pub version: String,
    /// Always `npm-pack`.
    pub artifact_kind: String,
    /// SHA-256 of the tarball, hex.
    pub artifact_sha256: String,
    /// npm `integrity`.
    pub npm_integrity: String,
    /// npm `shasum`.
    pub npm_shasum: String,
    /// Tarball file name.
    pub npm_tarball_name: String,
    /// Publish time, ms since the epoch.
    pub created_at: i64,
}

/// The trust decision installers act on.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Trust {
    /// `clean`, `suspicious`, `malicious` or `not-run`.
    pub scan_status: String,
    /// `approved` or `quarantined`.
    pub moderation_state: String,
    /// Downloads are refused.
    pub blocked_from_download: bool,
    /// Why the release is not plainly clean (`scan:suspicious`, `scan:pending`, ...).
    pub reasons: Vec<String>,
    /// No readable scan yet.
    pub pending: bool,
    /// Scanned by an older engine.
    pub stale: bool,
}

/// The scan in a security answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityScan {
    /// Scanner name and version.
    pub engine: String,
    /// `clean`, `suspicious` or `malicious`.
    pub status: String,
    /// Codes of the findings that count.
    pub reason_codes: Vec<String>,
    /// Every finding.
    pub findings: Vec<PackageFinding>,
    /// Files looked at.
    pub files_scanned: u32,
}

/// Answer of `GET /api/v1/packages/{name}/versions/{version}/security`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityResponse {
    /// The package.
    pub package: PackageHeader,
    /// The release's version.
    pub version: String,
    /// The release.
    pub release: SecurityRelease,
    /// The trust decision.
    pub trust: Trust,
    /// One paragraph for people.
    pub overview: String,
    /// This report's URL.
    pub security_audit_url: String,
    /// The scan, null when the stored scan cannot be read.
    pub scan: Option<SecurityScan>,
}

/// The security report of `release`.
pub fn security_response(
    base: &str,
    package: &PackageRow,
    release: &ReleaseRow,
) -> SecurityResponse {
    let scan = scan_of(release);
    let freshness = crate::packages::scan::freshness(scan.as_ref());
    // Without a readable stored scan the release counts as not scanned yet, whatever the
    // status column says; the installer then warns instead of calling it clean.
    let status = if freshness.pending {
        "not-run"
    } else {
        release.scan_status.as_str()
    };
    let blocked = status == "malicious";
    let mut reasons = Vec::new();
    if status != "clean" && status != "not-run" {
        reasons.push(format!("scan:{status}"));
    }
    if freshness.pending {
        reasons.push("scan:pending".to_owned());
    }
    if freshness.stale {
        reasons.push("scan:stale".to_owned());
    }
    if blocked {
        reasons.push("package:malicious".to_owned());
    }
    let path = url_path(package);
    SecurityResponse {
        package: header(package),
        version: release.version.clone(),
        release: SecurityRelease {
            release_id: release.id.to_string(),
            version: release.version.clone(),
            artifact_kind: "npm-pack".into(),
            artifact_sha256: release.artifact_sha256.clone(),
            npm_integrity: release.integrity.clone(),
            npm_shasum: release.shasum.clone(),
            npm_tarball_name: release.tarball_name.clone(),
            created_at: release.created_at,
        },
        trust: Trust {
            scan_status: status.to_owned(),
            moderation_state: if blocked { "quarantined" } else { "approved" }.into(),
            blocked_from_download: blocked,
            reasons,
            pending: freshness.pending,
            stale: freshness.stale,
        },
        overview: scan.as_ref().map_or_else(
            || format!("Static scan result: {status}."),
            |scan| scan.overview.clone(),
        ),
        security_audit_url: format!(
            "{base}/api/v1/packages/{path}/versions/{}/security",
            release.version
        ),
        scan: scan.map(|scan| SecurityScan {
            engine: scan.engine,
            status: scan.status.as_str().to_owned(),
            reason_codes: scan.reason_codes,
            findings: scan.findings,
            files_scanned: scan.files_scanned,
        }),
    }
}

/// A search hit.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackageSearchHit {
    /// Relevance, higher first.
    pub score: f64,
    /// The package.
    pub package: PackageListItem,
}

/// Answer of `GET /api/v1/packages/search`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackageSearchResponse {
    /// Hits, best first.
    pub results: Vec<PackageSearchHit>,
}

/// Answer of `GET /api/v1/packages`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackagePage {
    /// Packages, most downloaded first.
    pub items: Vec<PackageListItem>,
    /// Cursor of the next page, null on the last.
    pub next_cursor: Option<String>,
}

/// Answer of a package publish.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackagePublished {
    /// Always true.
    pub ok: bool,
    /// Package id.
    pub package_id: String,
    /// Id of the new release.
    pub release_id: String,
    /// Always `published`.
    pub publication_status: String,
    /// Package name.
    pub name: String,
    /// The version.
    pub version: String,
    /// Scan status of the new release.
    pub scan_status: String,
}

/// Answer of a package transfer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageTransferred {
    /// Always true.
    pub ok: bool,
    /// Package id.
    pub package_id: String,
    /// Package name.
    pub name: String,
    /// Id of the new owner.
    pub owner_user_id: String,
    /// Channel.
    pub channel: String,
    /// On the official channel.
    pub is_official: bool,
}
