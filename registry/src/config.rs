//! Start-up configuration of `registry serve`: flags, environment variables and defaults.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

/// Default database: a SQLite file created on first start.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./registry-data/registry.db";

/// Per-minute limits of one rate-limit class: anonymous (per IP) and authenticated (per user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests per minute for anonymous callers, counted per IP.
    pub anonymous: u32,
    /// Requests per minute for callers with a valid token, counted per user.
    pub user: u32,
}

impl RateLimit {
    /// Parses `ANON` or `ANON/USER`; a lone `ANON` keeps `ratio` for users.
    pub fn parse(text: &str, ratio: u32) -> Result<Self, String> {
        let number = |part: &str| -> Result<u32, String> {
            let value: u32 = part.trim().parse().map_err(|_| {
                format!("invalid rate limit `{text}`: expected `ANON` or `ANON/USER` requests per minute")
            })?;
            if value == 0 {
                return Err(format!(
                    "invalid rate limit `{text}`: limits must be at least 1"
                ));
            }
            Ok(value)
        };
        match text.split_once('/') {
            Some((anonymous, user)) => Ok(Self {
                anonymous: number(anonymous)?,
                user: number(user)?,
            }),
            None => {
                let anonymous = number(text)?;
                Ok(Self {
                    anonymous,
                    user: anonymous.saturating_mul(ratio),
                })
            }
        }
    }
}

impl fmt::Display for RateLimit {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}/{}", self.anonymous, self.user)
    }
}

fn parse_read_limit(text: &str) -> Result<RateLimit, String> {
    RateLimit::parse(text, 4)
}

fn parse_write_limit(text: &str) -> Result<RateLimit, String> {
    RateLimit::parse(text, 10)
}

fn parse_download_limit(text: &str) -> Result<RateLimit, String> {
    RateLimit::parse(text, 5)
}

/// A database URL whose `Debug` and `Display` hide the password.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl(String);

impl DatabaseUrl {
    /// The full URL, password included; only for connecting.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// True when the URL selects PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.0.starts_with("postgres://") || self.0.starts_with("postgresql://")
    }

    /// The URL with any password replaced by `***`.
    pub fn redacted(&self) -> String {
        let Some((scheme, rest)) = self.0.split_once("://") else {
            return self.0.clone();
        };
        let Some((credentials, host)) = rest.split_once('@') else {
            return self.0.clone();
        };
        match credentials.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => self.0.clone(),
        }
    }
}

impl FromStr for DatabaseUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.starts_with("sqlite:")
            || text.starts_with("postgres://")
            || text.starts_with("postgresql://")
        {
            Ok(Self(text.to_owned()))
        } else {
            Err(format!(
                "unsupported database URL `{}`: expected `sqlite://PATH` or `postgres://...`",
                Self(text.to_owned()).redacted()
            ))
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{:?}", self.redacted())
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.redacted())
    }
}

/// Options shared by every command that opens the database.
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    /// Database URL: `sqlite://PATH` (created on first start) or `postgres://...`.
    #[arg(long = "database", env = "REGISTRY_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: DatabaseUrl,
}

/// Flags of `registry serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "REGISTRY_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Database URL: `sqlite://PATH` (created on first start) or `postgres://...`.
    #[arg(long = "database", env = "REGISTRY_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: DatabaseUrl,

    /// Directory of the content-addressed file blobs.
    #[arg(
        long = "storage",
        env = "REGISTRY_STORAGE",
        default_value = "./registry-data/blobs"
    )]
    pub storage_dir: PathBuf,

    /// Public base URL used in absolute URLs the server hands out (upload URLs, discovery).
    /// Unset: `http://` plus the request's `Host` header, else the listen address; set it
    /// behind a TLS proxy so clients get `https://` URLs.
    #[arg(long, env = "REGISTRY_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Read limit per minute: `ANON` or `ANON/USER`.
    #[arg(long, env = "REGISTRY_RATE_LIMIT_READ", default_value = "3000/12000", value_parser = parse_read_limit)]
    pub rate_limit_read: RateLimit,

    /// Write limit per minute: `ANON` or `ANON/USER`.
    #[arg(long, env = "REGISTRY_RATE_LIMIT_WRITE", default_value = "300/3000", value_parser = parse_write_limit)]
    pub rate_limit_write: RateLimit,

    /// Download limit per minute: `ANON` or `ANON/USER`.
    #[arg(long, env = "REGISTRY_RATE_LIMIT_DOWNLOAD", default_value = "1200/6000", value_parser = parse_download_limit)]
    pub rate_limit_download: RateLimit,

    /// Largest accepted request body in bytes (publish bodies included).
    #[arg(long, env = "REGISTRY_BODY_LIMIT", default_value_t = 60 * 1024 * 1024)]
    pub body_limit: usize,

    /// Take the client IP from `X-Forwarded-For`-style headers (only behind a trusted proxy).
    #[arg(long, env = "REGISTRY_TRUST_FORWARDED_IPS")]
    pub trust_forwarded_ips: bool,

    /// Connections in the database pool.
    #[arg(long, env = "REGISTRY_DATABASE_CONNECTIONS", default_value_t = 8)]
    pub database_connections: u32,

    /// Limits on what one skill publish may contain.
    #[command(flatten)]
    pub upload_limits: UploadLimits,
}

/// Limits on one skill publish, checked before anything is stored. The defaults are the
/// reference registry's, which are also the ceilings: the `clawhub` CLI checks the same
/// numbers before it uploads, so a registry may tighten them but not loosen them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct UploadLimits {
    /// Most files in one skill version.
    #[arg(long, env = "REGISTRY_MAX_FILES", default_value_t = crate::bundle::MAX_FILES,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::bundle::MAX_FILES as u64))]
    pub max_files: usize,

    /// Largest file of a skill version, in bytes.
    #[arg(long, env = "REGISTRY_MAX_FILE_BYTES", default_value_t = crate::bundle::MAX_FILE_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=crate::bundle::MAX_FILE_BYTES))]
    pub max_file_bytes: u64,

    /// Most bytes of all files of a skill version together (the unpacked size).
    #[arg(long, env = "REGISTRY_MAX_BUNDLE_BYTES", default_value_t = crate::bundle::MAX_BUNDLE_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=crate::bundle::MAX_BUNDLE_BYTES))]
    pub max_bundle_bytes: u64,

    /// Longest file path, in characters.
    #[arg(long, env = "REGISTRY_MAX_PATH_CHARS", default_value_t = crate::bundle::MAX_PATH_CHARS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::bundle::MAX_PATH_CHARS as u64))]
    pub max_path_chars: usize,

    /// Deepest nesting of a file path, in directories (`a/b/c.md` is 2).
    #[arg(long, env = "REGISTRY_MAX_PATH_DEPTH", default_value_t = DEFAULT_MAX_PATH_DEPTH,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=DEFAULT_MAX_PATH_DEPTH as u64))]
    pub max_path_depth: usize,

    /// Most times a package tarball may expand past its compressed size (it may always
    /// reach 1 MiB): a small upload that inflates far beyond it is refused as a bomb.
    #[arg(long, env = "REGISTRY_MAX_ARCHIVE_RATIO", default_value_t = crate::packages::tarball::DEFAULT_MAX_RATIO,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_archive_ratio: u64,
}

/// Deepest accepted nesting by default: deeper trees are not skills but dumps.
pub const DEFAULT_MAX_PATH_DEPTH: usize = 16;

impl Default for UploadLimits {
    fn default() -> Self {
        Self {
            max_files: crate::bundle::MAX_FILES,
            max_file_bytes: crate::bundle::MAX_FILE_BYTES,
            max_bundle_bytes: crate::bundle::MAX_BUNDLE_BYTES,
            max_path_chars: crate::bundle::MAX_PATH_CHARS,
            max_path_depth: DEFAULT_MAX_PATH_DEPTH,
            max_archive_ratio: crate::packages::tarball::DEFAULT_MAX_RATIO,
        }
    }
}

impl UploadLimits {
    /// The limits of reading a package tarball under this configuration.
    pub fn tarball_limits(&self) -> crate::packages::tarball::Limits {
        crate::packages::tarball::Limits {
            max_ratio: self.max_archive_ratio,
            ..crate::packages::tarball::Limits::default()
        }
    }

    /// Checks one file as it arrives: its position (count), path and size. The reasons
    /// name the limit and its configured value.
    pub fn check_file(&self, index: usize, path: &str, size: u64) -> Result<(), String> {
        if index >= self.max_files {
            return Err(format!(
                "Skill bundle has more than {} files",
                self.max_files
            ));
        }
        if path.chars().count() > self.max_path_chars {
            return Err(format!(
                "File path is longer than {} characters",
                self.max_path_chars
            ));
        }
        let depth = path.trim_matches('/').matches('/').count();
        if depth > self.max_path_depth {
            return Err(format!(
                "File path \"{path}\" is nested deeper than {} directories",
                self.max_path_depth
            ));
        }
        if size > self.max_file_bytes {
            return Err(format!(
                "File \"{path}\" exceeds the {} byte file limit",
                self.max_file_bytes
            ));
        }
        Ok(())
    }

    /// Checks the running total of a bundle's bytes.
    pub fn check_total(&self, total: u64) -> Result<(), String> {
        if total > self.max_bundle_bytes {
            return Err(format!(
                "Skill bundle exceeds the {} byte limit",
                self.max_bundle_bytes
            ));
        }
        Ok(())
    }
}

impl Config {
    /// A configuration for tests: the given database and storage, loopback, seed limits.
    pub fn for_tests(database_url: &str, storage_dir: impl Into<PathBuf>) -> anyhow::Result<Self> {
        let database_url = database_url
            .parse::<DatabaseUrl>()
            .map_err(anyhow::Error::msg)?;
        Ok(Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url,
            storage_dir: storage_dir.into(),
            public_url: None,
            rate_limit_read: RateLimit {
                anonymous: 3000,
                user: 12000,
            },
            rate_limit_write: RateLimit {
                anonymous: 300,
                user: 3000,
            },
            rate_limit_download: RateLimit {
                anonymous: 1200,
                user: 6000,
            },
            body_limit: 60 * 1024 * 1024,
            trust_forwarded_ips: false,
            database_connections: 4,
            upload_limits: UploadLimits::default(),
        })
    }

    /// The public base URL without a trailing slash: the configured one, else from `listen`.
    pub fn public_base_url(&self, bound: Option<SocketAddr>) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}", bound.unwrap_or(self.listen)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits_parse_with_and_without_user_part() {
        assert_eq!(
            parse_read_limit("100").expect("valid"),
            RateLimit {
                anonymous: 100,
                user: 400
            }
        );
        assert_eq!(
            parse_write_limit("5/7").expect("valid"),
            RateLimit {
                anonymous: 5,
                user: 7
            }
        );
        assert!(parse_download_limit("x").is_err());
        assert!(parse_download_limit("0/1").is_err());
    }

    #[test]
    fn database_passwords_are_redacted() {
        let url: DatabaseUrl = "postgres://app:secret@db:5432/registry"
            .parse()
            .expect("valid");
        assert_eq!(
            format!("{url:?}"),
            "\"postgres://app:***@db:5432/registry\""
        );
        assert!(!format!("{url}").contains("secret"));
    }
}
