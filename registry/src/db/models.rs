//! Plain records the store hands to handlers, identical for both backends.

use serde::{Deserialize, Serialize};

use crate::db::row::from_row;

/// Role of a user, as reported by `whoami`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A regular publisher.
    User,
    /// May see moderation details of every skill.
    Moderator,
    /// Full rights.
    Admin,
}

impl Role {
    /// The stored and wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Moderator => "moderator",
            Self::Admin => "admin",
        }
    }

    /// Parses the stored spelling; unknown values fall back to `user`.
    pub fn from_stored(text: &str) -> Self {
        match text {
            "admin" => Self::Admin,
            "moderator" => Self::Moderator,
            _ => Self::User,
        }
    }

    /// True for moderators and admins.
    pub fn is_staff(self) -> bool {
        matches!(self, Self::Moderator | Self::Admin)
    }
}

/// A registered user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Lowercase handle, the owner name in URLs.
    pub handle: String,
    /// Optional display name.
    pub display_name: Option<String>,
    /// Optional avatar URL.
    pub image: Option<String>,
    /// Stored role spelling (`user`, `moderator`, `admin`).
    pub role: String,
}

from_row!(User {
    id,
    handle,
    display_name,
    image,
    role
});

impl User {
    /// The parsed role.
    pub fn role(&self) -> Role {
        Role::from_stored(&self.role)
    }
}

/// A token looked up by its hash, with its owner.
#[derive(Debug, Clone)]
pub struct TokenRecord {
    /// The owner of the token.
    pub user: User,
    /// Set when the token was revoked.
    pub revoked_at: Option<i64>,
    /// The stored hash the row was found by, compared again in constant time.
    pub token_hash: String,
}

from_row!(TokenRecord { revoked_at, token_hash } flatten { user });

/// A pending or used upload ticket of the CLI's publish flow.
#[derive(Debug, Clone)]
pub struct UploadTicket {
    /// The opaque ticket string.
    pub ticket: String,
    /// The user the ticket was issued to.
    pub user_id: i64,
    /// Declared relative path.
    pub path: String,
    /// Declared size in bytes.
    pub size: i64,
    /// Declared SHA-256, lowercase hex.
    pub sha256: String,
    /// Declared, normalised content type.
    pub content_type: Option<String>,
    /// Storage id once the bytes were uploaded.
    pub storage_id: Option<String>,
    /// Expiry, Unix ms.
    pub expires_at: i64,
    /// When the bytes arrived, Unix ms.
    pub uploaded_at: Option<i64>,
    /// When a publish consumed the ticket, Unix ms.
    pub used_at: Option<i64>,
}

from_row!(UploadTicket {
    ticket,
    user_id,
    path,
    size,
    sha256,
    content_type,
    storage_id,
    expires_at,
    uploaded_at,
    used_at
});

/// A new upload ticket to store.
#[derive(Debug, Clone)]
pub struct NewUploadTicket {
    /// The opaque ticket string.
    pub ticket: String,
    /// The user the ticket is issued to.
    pub user_id: i64,
    /// Declared relative path.
    pub path: String,
    /// Declared size in bytes.
    pub size: i64,
    /// Declared SHA-256, lowercase hex.
    pub sha256: String,
    /// Declared, normalised content type.
    pub content_type: Option<String>,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// Expiry, Unix ms.
    pub expires_at: i64,
}

/// A skill with its owner and latest version, as listed and fetched.
#[derive(Debug, Clone)]
pub struct SkillRow {
    /// Row id.
    pub id: i64,
    /// Canonical slug.
    pub slug: String,
    /// Owner user id.
    pub owner_id: i64,
    /// Owner handle.
    pub owner_handle: String,
    /// Owner display name.
    pub owner_display_name: Option<String>,
    /// Owner avatar.
    pub owner_image: Option<String>,
    /// Display name (follows the latest version).
    pub display_name: String,
    /// Summary from the latest version's frontmatter.
    pub summary: Option<String>,
    /// Tag → version string map as JSON text.
    pub tags_json: String,
    /// Counted downloads (unique per actor and day).
    pub downloads: i64,
    /// Stars.
    pub stars: i64,
    /// Current installs.
    pub installs_current: i64,
    /// All-time installs.
    pub installs_all_time: i64,
    /// Published versions.
    pub versions_count: i64,
    /// Chosen for `highlightedOnly`.
    pub highlighted: bool,
    /// Flagged suspicious (or worse) by the scanner.
    pub is_suspicious: bool,
    /// Blocked as malware.
    pub is_malware_blocked: bool,
    /// Version the skill-level moderation was computed on.
    pub moderation_version_id: Option<i64>,
    /// When the moderation last changed, Unix ms.
    pub moderation_updated_at: Option<i64>,
    /// Soft deletion time, Unix ms.
    pub soft_deleted_at: Option<i64>,
    /// When a moderator hid the skill, Unix ms.
    pub hidden_at: Option<i64>,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// Last change, Unix ms.
    pub updated_at: i64,
    /// Latest version id.
    pub latest_version_id: Option<i64>,
    /// Latest version string.
    pub latest_version: Option<String>,
    /// Latest version creation time.
    pub latest_created_at: Option<i64>,
    /// Latest version changelog.
    pub latest_changelog: Option<String>,
    /// Runtime metadata of the latest version (JSON text).
    pub latest_metadata_json: Option<String>,
    /// Prompt-set status of the latest version: `valid`, `invalid`, or none without sets.
    pub prompt_sets_status: Option<String>,
}

from_row!(SkillRow {
    id,
    slug,
    owner_id,
    owner_handle,
    owner_display_name,
    owner_image,
    display_name,
    summary,
    tags_json,
    downloads,
    stars,
    installs_current,
    installs_all_time,
    versions_count,
    highlighted,
    is_suspicious,
    is_malware_blocked,
    moderation_version_id,
    moderation_updated_at,
    soft_deleted_at,
    hidden_at,
    created_at,
    updated_at,
    latest_version_id,
    latest_version,
    latest_created_at,
    latest_changelog,
    latest_metadata_json,
    prompt_sets_status
});

/// A skill with the extra columns of the detail view.
#[derive(Debug, Clone)]
pub struct SkillDetailRow {
    /// The listed columns.
    pub skill: SkillRow,
    /// Full SKILL.md text of the latest version.
    pub latest_skill_md: Option<String>,
    /// Scan report (JSON) of the version the moderation was computed on.
    pub moderation_scan_json: Option<String>,
}

from_row!(SkillDetailRow { latest_skill_md, moderation_scan_json } flatten { skill });

/// A listed skill with its search relevance.
#[derive(Debug, Clone)]
pub struct SearchRow {
    /// The listed columns, shared with the search row cache (a search reads dozens of
    /// candidates and shows ten: they are not copied).
    pub skill: std::sync::Arc<SkillRow>,
    /// Backend text relevance, larger is better.
    pub text_rank: f64,
}

/// By hand rather than `from_row!`: the row is read into an `Arc`.
macro_rules! search_row_from_row {
    ($row:ty) => {
        impl<'r> sqlx::FromRow<'r, $row> for SearchRow {
            fn from_row(row: &'r $row) -> Result<Self, sqlx::Error> {
                use sqlx::Row as _;
                Ok(Self {
                    skill: std::sync::Arc::new(SkillRow::from_row(row)?),
                    text_rank: row.try_get("text_rank")?,
                })
            }
        }
    };
}
search_row_from_row!(sqlx::sqlite::SqliteRow);
search_row_from_row!(sqlx::postgres::PgRow);

/// One version of a skill.
#[derive(Debug, Clone)]
pub struct VersionRow {
    /// Row id.
    pub id: i64,
    /// Owning skill.
    pub skill_id: i64,
    /// Semver string.
    pub version: String,
    /// Changelog text.
    pub changelog: String,
    /// `user` or `auto`.
    pub changelog_source: String,
    /// Bundle fingerprint.
    pub fingerprint: String,
    /// Scan report as JSON.
    pub scan_json: String,
    /// Scan verdict.
    pub verdict: String,
    /// Publisher.
    pub published_by: i64,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// Withdrawal time, Unix ms.
    pub soft_deleted_at: Option<i64>,
    /// Prompt-set check (JSON of `skills::promptsets::PromptSetsReport`), none without sets.
    pub prompt_sets_json: Option<String>,
}

from_row!(VersionRow {
    id,
    skill_id,
    version,
    changelog,
    changelog_source,
    fingerprint,
    scan_json,
    verdict,
    published_by,
    created_at,
    soft_deleted_at,
    prompt_sets_json
});

/// A stored file of a version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRow {
    /// Relative path.
    pub path: String,
    /// Size in bytes.
    pub size: i64,
    /// SHA-256 of the bytes, the blob address.
    pub sha256: String,
    /// Normalised content type.
    pub content_type: Option<String>,
}

from_row!(FileRow {
    path,
    size,
    sha256,
    content_type
});

/// Everything a publish writes in one transaction.
#[derive(Debug, Clone)]
pub struct NewVersion {
    /// Normalised slug.
    pub slug: String,
    /// Publishing user (and owner of a new skill).
    pub user_id: i64,
    /// Display name.
    pub display_name: String,
    /// Summary from the frontmatter.
    pub summary: Option<String>,
    /// Semver string.
    pub version: String,
    /// Changelog text.
    pub changelog: String,
    /// `user` or `auto`.
    pub changelog_source: String,
    /// Bundle fingerprint.
    pub fingerprint: String,
    /// SKILL.md text.
    pub skill_md: String,
    /// Runtime metadata (JSON text).
    pub metadata_json: Option<String>,
    /// Scan report (JSON text).
    pub scan_json: String,
    /// Scan verdict.
    pub verdict: String,
    /// Verdict is suspicious or worse.
    pub is_suspicious: bool,
    /// Verdict is malicious.
    pub is_malware_blocked: bool,
    /// Prompt-set check (JSON text), none when the bundle has no prompt sets.
    pub prompt_sets_json: Option<String>,
    /// `valid` / `invalid` of that check, none without prompt sets.
    pub prompt_sets_status: Option<String>,
    /// Tags to point at the new version (without `latest`).
    pub tags: Vec<String>,
    /// Files in stored order.
    pub files: Vec<FileRow>,
    /// Upload tickets the publish consumes.
    pub tickets: Vec<String>,
    /// Publish time, Unix ms.
    pub now: i64,
}

/// Result of a publish transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublishOutcome {
    /// Stored.
    Published {
        /// Skill row id.
        skill_id: i64,
        /// Version row id.
        version_id: i64,
    },
    /// The slug belongs to another owner.
    SlugTaken,
    /// This version number is already used by the skill.
    VersionExists,
    /// An upload ticket was consumed concurrently.
    TicketReused,
}

/// Sort orders of the skill list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListSort {
    /// `updatedAt` desc.
    Updated,
    /// Stars, then downloads, then `updatedAt`, desc.
    Recommended,
    /// `createdAt` desc.
    Created,
    /// Downloads desc.
    Downloads,
    /// Stars desc.
    Stars,
    /// Current installs desc.
    InstallsCurrent,
    /// All-time installs desc.
    InstallsAllTime,
    /// Recent installs and downloads desc, no cursor.
    Trending,
    /// Slug asc.
    Name,
}

impl ListSort {
    /// Parses a `sort` value with the seed's and the reference's aliases.
    pub fn parse(text: &str) -> Option<Self> {
        let sort = match text.trim().to_ascii_lowercase().as_str() {
            "updated" => Self::Updated,
            "recommended" | "default" => Self::Recommended,
            "createdat" | "created-at" | "newest" => Self::Created,
            "downloads" => Self::Downloads,
            "stars" | "rating" => Self::Stars,
            "installscurrent" | "installs-current" | "installs" | "install" | "current" => {
                Self::InstallsCurrent
            }
            "installsalltime" | "installs-all-time" => Self::InstallsAllTime,
            "trending" => Self::Trending,
            "name" => Self::Name,
            _ => return None,
        };
        Some(sort)
    }

    /// Stable name used inside cursors.
    pub fn key(self) -> &'static str {
        match self {
            Self::Updated => "updated",
            Self::Recommended => "recommended",
            Self::Created => "created",
            Self::Downloads => "downloads",
            Self::Stars => "stars",
            Self::InstallsCurrent => "installsCurrent",
            Self::InstallsAllTime => "installsAllTime",
            Self::Trending => "trending",
            Self::Name => "name",
        }
    }

    /// The descending integer sort columns before the id tiebreak.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Self::Updated => &["s.updated_at"],
            Self::Recommended => &["s.stars", "s.downloads", "s.updated_at"],
            Self::Created => &["s.created_at"],
            Self::Downloads => &["s.downloads"],
            Self::Stars => &["s.stars"],
            Self::InstallsCurrent => &["s.installs_current"],
            Self::InstallsAllTime => &["s.installs_all_time"],
            Self::Trending | Self::Name => &[],
        }
    }

    /// The values of [`Self::columns`] for a row, used to build the next cursor.
    pub fn values(self, row: &SkillRow) -> Vec<i64> {
        match self {
            Self::Updated => vec![row.updated_at],
            Self::Recommended => vec![row.stars, row.downloads, row.updated_at],
            Self::Created => vec![row.created_at],
            Self::Downloads => vec![row.downloads],
            Self::Stars => vec![row.stars],
            Self::InstallsCurrent => vec![row.installs_current],
            Self::InstallsAllTime => vec![row.installs_all_time],
            Self::Trending | Self::Name => Vec::new(),
        }
    }
}

/// Position after which a keyset page starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seek {
    /// Integer sort keys plus the row id (descending orders).
    Keys {
        /// Values of the sort columns.
        values: Vec<i64>,
        /// Row id tiebreak.
        id: i64,
    },
    /// Slug of the last row (name order).
    Slug(String),
}

/// A skill list request.
#[derive(Debug, Clone)]
pub struct ListQuery {
    /// Order.
    pub sort: ListSort,
    /// Start after this position.
    pub after: Option<Seek>,
    /// Page size (already clamped); the store fetches one more to detect a next page.
    pub limit: i64,
    /// Drop suspicious skills.
    pub non_suspicious_only: bool,
    /// Only skills whose latest version has prompt sets that all validate.
    pub valid_prompt_sets_only: bool,
    /// Literal slug prefix (name order only).
    pub prefix: Option<String>,
    /// Lower bound of the trending window, Unix ms.
    pub trending_since: i64,
}

/// A search request.
#[derive(Debug, Clone)]
pub struct SearchQuery {
    /// Normalised search terms (lowercase alphanumerics).
    pub terms: Vec<String>,
    /// Candidates to fetch.
    pub limit: i64,
    /// Only highlighted skills.
    pub highlighted_only: bool,
    /// Drop suspicious skills.
    pub non_suspicious_only: bool,
    /// Only skills whose latest version has prompt sets that all validate.
    pub valid_prompt_sets_only: bool,
}

impl SearchQuery {
    /// Whether a listed row passes the query's filters: the in-memory twin of the filters
    /// `find_search_hits` adds to its SQL, for rows answered from the search row cache.
    pub fn admits(&self, row: &SkillRow) -> bool {
        (!self.highlighted_only || row.highlighted)
            && (!self.non_suspicious_only || !row.is_suspicious)
            && (!self.valid_prompt_sets_only
                || row.prompt_sets_status.as_deref()
                    == Some(crate::skills::promptsets::STATUS_VALID))
    }
}

/// One download to count: a skill, who downloaded it (`user:<id>` or `ip:<address>`),
/// the UTC day (days since the epoch) and when (Unix ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownloadEvent {
    /// The skill.
    pub skill_id: i64,
    /// The counting actor.
    pub actor: String,
    /// UTC day number.
    pub day: i64,
    /// Time of the download, Unix ms.
    pub at: i64,
}
