//! The publish decision: a payload and an upload in, one prepared release (or a reason
//! for refusing it) out. Everything that can be checked without the database happens
//! here, before a single byte is stored, so a refused publish leaves no trace.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::integrity::{self, Digests};
use super::manifest::Manifest;
use super::name::PackageName;
use super::scan::{self, PackageScan};
use super::tarball::{self, Limits, PackFile, TarballError};

/// Largest uploaded tarball, as the reference registry allows.
pub const MAX_CLAWPACK_BYTES: usize = 120 * 1024 * 1024;

/// The `payload` part of a package publish. Unknown keys are refused, as the reference
/// registry does, so a typo in a client does not silently drop metadata.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PublishPayload {
    /// Package name, `name` or `@scope/name`.
    pub name: String,
    /// Human name; defaults to the package name.
    pub display_name: Option<String>,
    /// Publisher handle the caller publishes as.
    pub owner_handle: Option<String>,
    /// `code-plugin`, `bundle-plugin` or `skill`.
    pub family: String,
    /// Semver version.
    pub version: String,
    /// Release notes.
    #[serde(default)]
    pub changelog: String,
    /// Accepted and ignored: there is no manual review queue here.
    pub manual_override_reason: Option<String>,
    /// `community` (default), `private`, or `official` (the `openclaw` publisher only).
    pub channel: Option<String>,
    /// Dist-tags to point at this version; `["latest"]` when absent.
    pub tags: Option<Vec<String>>,
    /// Catalogue categories.
    pub categories: Option<Vec<String>>,
    /// Catalogue topics.
    pub topics: Option<Vec<String>>,
    /// Where the code comes from (GitHub repository, commit, path).
    #[schema(value_type = Option<Object>)]
    pub source: Option<Value>,
    /// Bundle plugin metadata (`format`, `hostTargets`).
    #[schema(value_type = Option<Object>)]
    pub bundle: Option<Value>,
}

/// Package families.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// An OpenClaw code plugin (`npm pack` tarball with `openclaw` metadata).
    CodePlugin,
    /// A bundle plugin (skills, commands, agents).
    BundlePlugin,
    /// A skill distributed as a package.
    Skill,
}

impl Family {
    /// Parses the wire name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "code-plugin" => Some(Self::CodePlugin),
            "bundle-plugin" => Some(Self::BundlePlugin),
            "skill" => Some(Self::Skill),
            _ => None,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CodePlugin => "code-plugin",
            Self::BundlePlugin => "bundle-plugin",
            Self::Skill => "skill",
        }
    }

    /// True for the two plugin families.
    pub fn is_plugin(self) -> bool {
        matches!(self, Self::CodePlugin | Self::BundlePlugin)
    }
}

/// What was uploaded with the payload.
#[derive(Debug, Clone)]
pub enum Upload {
    /// One `npm pack` tarball.
    Clawpack(Vec<u8>),
    /// Loose files by relative path.
    Files(Vec<(String, Vec<u8>)>),
}

/// One file of a release, as listed by the artifact endpoint.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, Deserialize, utoipa::ToSchema)]
pub struct ReleaseFile {
    /// Path relative to the package root.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Hex SHA-256 of the content.
    pub sha256: String,
}

/// A release that passed every check, ready to be stored.
#[derive(Debug, Clone)]
pub struct PreparedRelease {
    /// The package name.
    pub name: PackageName,
    /// Display name.
    pub display_name: String,
    /// Family.
    pub family: Family,
    /// Channel: `community`, `private` or `official`.
    pub channel: String,
    /// The version.
    pub version: semver::Version,
    /// Release notes.
    pub changelog: String,
    /// Dist-tags this release takes.
    pub tags: Vec<String>,
    /// Catalogue categories.
    pub categories: Vec<String>,
    /// Catalogue topics.
    pub topics: Vec<String>,
    /// Source metadata, as sent.
    pub source: Option<Value>,
    /// Bundle metadata, as sent.
    pub bundle: Option<Value>,
    /// OpenClaw compatibility from `package.json`.
    pub compatibility: Option<Map<String, Value>>,
    /// One-line summary (`package.json` description or the plugin manifest's).
    pub summary: Option<String>,
    /// `package.json` install fields for the packument; `None` without a `package.json`,
    /// which keeps the release off the npm surface.
    pub install_fields: Option<Map<String, Value>>,
    /// Whether installing runs a script.
    pub has_install_script: bool,
    /// Files of the release, sorted by path.
    pub files: Vec<ReleaseFile>,
    /// The tarball bytes as stored and served.
    pub artifact: Vec<u8>,
    /// Its digests.
    pub digests: Digests,
    /// Its file name on the npm surface.
    pub tarball_name: String,
    /// Bytes of the files unpacked.
    pub unpacked_size: u64,
    /// The security scan.
    pub scan: PackageScan,
}

/// Why a publish was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublishError {
    /// 400: the payload or the upload is wrong.
    #[error("{0}")]
    Invalid(String),
    /// 403: the caller may not publish under this name or channel.
    #[error("{0}")]
    Forbidden(String),
    /// 413: the upload or what it expands to is too large.
    #[error("{0}")]
    TooLarge(String),
}

impl From<TarballError> for PublishError {
    fn from(error: TarballError) -> Self {
        match error {
            TarballError::Bomb { .. }
            | TarballError::Ratio { .. }
            | TarballError::TooLarge { .. } => Self::TooLarge(error.to_string()),
            other => Self::Invalid(other.to_string()),
        }
    }
}

/// Parses the `payload` part.
pub fn parse_payload(text: &str) -> Result<PublishPayload, PublishError> {
    serde_json::from_str(text)
        .map_err(|error| PublishError::Invalid(format!("Invalid publish payload: {error}")))
}

/// Checks a publish by `publisher` (a lowercase user handle) and prepares the release.
pub fn prepare(
    payload: PublishPayload,
    upload: Upload,
    publisher: &str,
    limits: &Limits,
) -> Result<PreparedRelease, PublishError> {
    let invalid = |message: String| PublishError::Invalid(message);
    let name = PackageName::parse(payload.name.trim()).map_err(invalid)?;
    if let Some(owner) = payload.owner_handle.as_deref() {
        let owner = owner.trim().trim_start_matches('@').to_lowercase();
        if !owner.is_empty() && owner != publisher {
            return Err(PublishError::Forbidden(format!(
                "Forbidden: you can only publish as @{publisher}, not @{owner}"
            )));
        }
    }
    if let Some(scope) = name.scope()
        && scope != publisher
    {
        return Err(PublishError::Forbidden(format!(
            "Forbidden: package scope \"@{scope}\" belongs to another publisher; publish scoped packages under \"@{publisher}/\""
        )));
    }
    let family = Family::parse(&payload.family).ok_or_else(|| {
        invalid(format!(
            "family must be code-plugin, bundle-plugin or skill (got `{}`)",
            payload.family
        ))
    })?;
    let version = semver::Version::parse(payload.version.trim()).map_err(|error| {
        invalid(format!(
            "version `{}` is not valid semver: {error}",
            payload.version
        ))
    })?;
    let channel = match payload.channel.as_deref().unwrap_or("community") {
        "community" => "community",
        "private" => "private",
        "official" if publisher == "openclaw" => "official",
        "official" => {
            return Err(PublishError::Forbidden(
                "Forbidden: only the openclaw publisher may use the official channel".to_owned(),
            ));
        }
        other => {
            return Err(invalid(format!(
                "channel must be community, private or official (got `{other}`)"
            )));
        }
    };
    let tags = check_tags(payload.tags.as_deref())?;

    let (artifact, unpacked) = match upload {
        Upload::Clawpack(bytes) => {
            if bytes.len() > MAX_CLAWPACK_BYTES {
                return Err(PublishError::TooLarge(format!(
                    "Package tarball exceeds the {} MB limit",
                    MAX_CLAWPACK_BYTES / (1024 * 1024)
                )));
            }
            let unpacked = tarball::read(&bytes, limits)?;
            if unpacked.file("package.json").is_none() {
                return Err(invalid(
                    "the package tarball must contain package/package.json".to_owned(),
                ));
            }
            (bytes, unpacked)
        }
        Upload::Files(files) => {
            let files = check_files(files, limits)?;
            let built = tarball::build(&files).map_err(|error| {
                PublishError::Invalid(format!("could not pack the uploaded files: {error}"))
            })?;
            let unpacked = tarball::read(&built, limits)?;
            (built, unpacked)
        }
    };

    let manifest = match unpacked.file("package.json") {
        Some(file) => {
            let manifest = Manifest::parse(&file.bytes).map_err(invalid)?;
            manifest
                .agrees_with(name.as_str(), &version)
                .map_err(invalid)?;
            Some(manifest)
        }
        None => None,
    };
    let has = |path: &str| unpacked.file(path).is_some();
    match family {
        Family::CodePlugin => {
            let Some(manifest) = &manifest else {
                return Err(invalid("code plugins need a package.json".to_owned()));
            };
            let missing = manifest.missing_code_plugin_fields();
            if !missing.is_empty() {
                return Err(invalid(
                    missing
                        .iter()
                        .map(|field| format!("{field} is required for code plugins."))
                        .collect::<Vec<_>>()
                        .join(" "),
                ));
            }
            if !has("openclaw.plugin.json") {
                return Err(invalid("openclaw.plugin.json required".to_owned()));
            }
        }
        Family::BundlePlugin => {
            if !has("openclaw.plugin.json") {
                return Err(invalid("openclaw.plugin.json required".to_owned()));
            }
        }
        Family::Skill => {
            if !has("SKILL.md") && !has("skill.md") {
                return Err(invalid("skill packages need a SKILL.md".to_owned()));
            }
        }
    }
    let plugin_manifest = unpacked
        .file("openclaw.plugin.json")
        .map(|file| {
            serde_json::from_slice::<Value>(&file.bytes).map_err(|error| {
                invalid(format!("openclaw.plugin.json is not valid JSON: {error}"))
            })
        })
        .transpose()?;

    let has_gyp = has("binding.gyp");
    let scan = scan::scan(&unpacked.files, manifest.as_ref(), &unpacked.anomalies);
    let summary = manifest
        .as_ref()
        .and_then(|m| m.description().map(str::to_owned))
        .or_else(|| {
            plugin_manifest
                .as_ref()
                .and_then(|m| m.get("description")?.as_str().map(str::to_owned))
        })
        .filter(|summary| !summary.trim().is_empty());
    let mut files: Vec<ReleaseFile> = unpacked
        .files
        .iter()
        .map(|file| ReleaseFile {
            path: file.path.clone(),
            size: file.bytes.len() as u64,
            sha256: integrity::sha256_hex(&file.bytes),
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let display_name = payload
        .display_name
        .map(|display| display.trim().to_owned())
        .filter(|display| !display.is_empty())
        .unwrap_or_else(|| name.as_str().to_owned());
    Ok(PreparedRelease {
        tarball_name: name.tarball_file_name(&version.to_string()),
        digests: integrity::digests(&artifact),
        unpacked_size: unpacked.unpacked_size,
        has_install_script: manifest
            .as_ref()
            .is_some_and(|m| m.has_install_script(has_gyp)),
        compatibility: manifest.as_ref().and_then(Manifest::compatibility),
        install_fields: manifest.as_ref().map(Manifest::install_fields),
        name,
        display_name,
        family,
        channel: channel.to_owned(),
        version,
        changelog: payload.changelog,
        tags,
        categories: payload.categories.unwrap_or_default(),
        topics: payload.topics.unwrap_or_default(),
        source: payload.source,
        bundle: payload.bundle,
        summary,
        files,
        artifact,
        scan,
    })
}

/// Validates dist-tags: npm refuses tags that parse as versions or ranges.
fn check_tags(tags: Option<&[String]>) -> Result<Vec<String>, PublishError> {
    let Some(tags) = tags else {
        return Ok(vec!["latest".to_owned()]);
    };
    let mut checked: Vec<String> = Vec::new();
    for tag in tags {
        let tag = tag.trim();
        if tag.is_empty() {
            continue;
        }
        let shape_ok = tag.len() <= 64
            && tag
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
        if !shape_ok || semver::VersionReq::parse(tag).is_ok() {
            return Err(PublishError::Invalid(format!(
                "tag `{tag}` is not allowed: tags are letters, digits, `-`, `.` and `_`, and must not look like a version"
            )));
        }
        if !checked.iter().any(|seen| seen == tag) {
            checked.push(tag.to_owned());
        }
    }
    Ok(checked)
}

/// Checks loose uploaded files and turns them into tarball entries.
fn check_files(
    files: Vec<(String, Vec<u8>)>,
    limits: &Limits,
) -> Result<Vec<PackFile>, PublishError> {
    if files.is_empty() {
        return Err(PublishError::Invalid("No files uploaded".to_owned()));
    }
    if files.len() > limits.max_files {
        return Err(PublishError::Invalid(format!(
            "more than {} files uploaded",
            limits.max_files
        )));
    }
    let total: u64 = files.iter().map(|(_, bytes)| bytes.len() as u64).sum();
    if total > limits.max_unpacked_bytes {
        return Err(PublishError::TooLarge(format!(
            "the package's files exceed the {} MB unpacked limit",
            limits.max_unpacked_bytes / (1024 * 1024)
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut checked = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let normalized = path.trim().trim_start_matches("./").to_owned();
        let unsafe_path = normalized.is_empty()
            || normalized.starts_with('/')
            || normalized.contains('\\')
            || normalized.chars().any(char::is_control)
            || normalized
                .split('/')
                .any(|segment| segment.is_empty() || segment == "." || segment == "..");
        if unsafe_path {
            return Err(PublishError::Invalid(format!(
                "file path `{path}` is not a safe relative path"
            )));
        }
        if !seen.insert(normalized.clone()) {
            return Err(PublishError::Invalid(format!(
                "file `{normalized}` uploaded twice"
            )));
        }
        checked.push(PackFile {
            path: normalized,
            bytes,
            mode: 0o644,
        });
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packages::tarball::tests::{RawEntry, raw_tgz};

    const PLUGIN_JSON: &str = r#"{"id":"demo","description":"Demo plugin"}"#;

    fn code_plugin(name: &str, version: &str) -> Vec<u8> {
        let manifest = format!(
            r#"{{"name":"{name}","version":"{version}","main":"index.js",
                "openclaw":{{"compat":{{"pluginApi":">=1.0.0"}},"build":{{"openclawVersion":"2026.9.6"}}}}}}"#
        );
        tarball::build(&[
            PackFile {
                path: "package.json".into(),
                bytes: manifest.into_bytes(),
                mode: 0o644,
            },
            PackFile {
                path: "openclaw.plugin.json".into(),
                bytes: PLUGIN_JSON.into(),
                mode: 0o644,
            },
            PackFile {
                path: "index.js".into(),
                bytes: b"module.exports = {};\n".to_vec(),
                mode: 0o644,
            },
        ])
        .expect("build")
    }

    fn payload(name: &str, family: &str, version: &str) -> PublishPayload {
        parse_payload(&format!(
            r#"{{"name":"{name}","family":"{family}","version":"{version}","changelog":"c","tags":["latest","beta"]}}"#
        ))
        .expect("payload")
    }

    #[test]
    fn prepares_a_scoped_code_plugin() {
        let bytes = code_plugin("@alice/plug", "1.2.3");
        let release = prepare(
            payload("@alice/plug", "code-plugin", "1.2.3"),
            Upload::Clawpack(bytes.clone()),
            "alice",
            &Limits::default(),
        )
        .expect("prepared");
        assert_eq!(release.tarball_name, "alice-plug-1.2.3.tgz");
        assert_eq!(release.artifact, bytes);
        assert_eq!(release.digests, integrity::digests(&bytes));
        assert_eq!(release.tags, ["latest", "beta"]);
        assert_eq!(release.summary.as_deref(), Some("Demo plugin"));
        assert_eq!(
            release.compatibility.expect("compat")["pluginApiRange"],
            ">=1.0.0"
        );
        let paths: Vec<&str> = release.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["index.js", "openclaw.plugin.json", "package.json"]);
        assert!(release.install_fields.expect("fields").contains_key("main"));
    }

    #[test]
    fn refuses_disagreement_and_foreign_scopes() {
        let bytes = code_plugin("@alice/plug", "1.2.3");
        let refuse = |payload, publisher: &str| {
            prepare(
                payload,
                Upload::Clawpack(bytes.clone()),
                publisher,
                &Limits::default(),
            )
            .expect_err("refused")
        };
        let error = refuse(payload("@alice/plug", "code-plugin", "1.2.4"), "alice");
        assert!(
            error
                .to_string()
                .contains("does not match the published version"),
            "{error}"
        );
        let error = refuse(payload("@alice/other", "code-plugin", "1.2.3"), "alice");
        assert!(
            error
                .to_string()
                .contains("does not match the published name"),
            "{error}"
        );
        let error = refuse(payload("@alice/plug", "code-plugin", "1.2.3"), "bob");
        assert!(matches!(error, PublishError::Forbidden(_)), "{error}");
        let error = refuse(payload("@alice/plug", "theme", "1.2.3"), "alice");
        assert!(error.to_string().contains("family must be"), "{error}");
        let error = refuse(payload("@alice/plug", "code-plugin", "one"), "alice");
        assert!(error.to_string().contains("not valid semver"), "{error}");
    }

    #[test]
    fn refuses_unknown_payload_keys_and_version_like_tags() {
        let error = parse_payload(r#"{"name":"a","family":"skill","version":"1.0.0","extra":1}"#)
            .expect_err("unknown key");
        assert!(
            error.to_string().contains("unknown field `extra`"),
            "{error}"
        );
        let mut bad = payload("demo", "bundle-plugin", "1.0.0");
        bad.tags = Some(vec!["1.0.0".to_owned()]);
        let error = prepare(
            bad,
            Upload::Files(vec![("openclaw.plugin.json".into(), b"{}".to_vec())]),
            "alice",
            &Limits::default(),
        )
        .expect_err("tag");
        assert!(
            error.to_string().contains("must not look like a version"),
            "{error}"
        );
    }

    #[test]
    fn loose_files_are_packed_and_checked() {
        let release = prepare(
            payload("my-bundle", "bundle-plugin", "0.1.0"),
            Upload::Files(vec![
                (
                    "openclaw.plugin.json".into(),
                    PLUGIN_JSON.as_bytes().to_vec(),
                ),
                ("skills/hello/SKILL.md".into(), b"# Hello\n".to_vec()),
            ]),
            "alice",
            &Limits::default(),
        )
        .expect("prepared");
        assert!(
            release.install_fields.is_none(),
            "no package.json: not on the npm surface"
        );
        assert_eq!(
            tarball::read(&release.artifact, &Limits::default())
                .expect("readable")
                .files
                .len(),
            2
        );
        let error = prepare(
            payload("my-bundle", "bundle-plugin", "0.1.0"),
            Upload::Files(vec![("../escape".into(), b"x".to_vec())]),
            "alice",
            &Limits::default(),
        )
        .expect_err("unsafe");
        assert!(
            error.to_string().contains("not a safe relative path"),
            "{error}"
        );
    }

    #[test]
    fn code_plugins_need_their_metadata() {
        let tgz = raw_tgz(&[RawEntry {
            path: "package/package.json",
            kind: b'0',
            link: "",
            bytes: br#"{"name":"demo","version":"1.0.0"}"#,
        }]);
        let error = prepare(
            payload("demo", "code-plugin", "1.0.0"),
            Upload::Clawpack(tgz),
            "alice",
            &Limits::default(),
        )
        .expect_err("missing compat");
        assert!(
            error
                .to_string()
                .contains("openclaw.compat.pluginApi is required"),
            "{error}"
        );
        let not_json = raw_tgz(&[RawEntry {
            path: "package/package.json",
            kind: b'0',
            link: "",
            bytes: b"{oops",
        }]);
        let error = prepare(
            payload("demo", "code-plugin", "1.0.0"),
            Upload::Clawpack(not_json),
            "alice",
            &Limits::default(),
        )
        .expect_err("bad json");
        assert!(
            error.to_string().contains("package.json is not valid JSON"),
            "{error}"
        );
    }
}
