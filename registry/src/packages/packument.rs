//! The npm view of a package: the "packument" that `npm install` reads from
//! `GET /api/npm/{package}`, in its full form and in the abbreviated form npm asks for
//! with `Accept: application/vnd.npm.install-v1+json`.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// Media type of the abbreviated packument.
pub const ABBREVIATED_MEDIA_TYPE: &str = "application/vnd.npm.install-v1+json";

/// Install fields the abbreviated form keeps (npm's "corgi" document).
const ABBREVIATED_FIELDS: &[&str] = &[
    "bin",
    "directories",
    "dependencies",
    "optionalDependencies",
    "peerDependencies",
    "peerDependenciesMeta",
    "bundleDependencies",
    "bundledDependencies",
    "engines",
    "os",
    "cpu",
    "libc",
    "deprecated",
    "funding",
    "license",
];

/// One installable version.
#[derive(Debug, Clone)]
pub struct VersionEntry {
    /// The version string.
    pub version: String,
    /// `package.json` fields npm installs from (see `Manifest::install_fields`).
    pub install_fields: Map<String, Value>,
    /// Absolute tarball URL.
    pub tarball_url: String,
    /// `sha512-…` integrity.
    pub integrity: String,
    /// Hex SHA-1.
    pub shasum: String,
    /// Files in the tarball.
    pub file_count: u64,
    /// Bytes of the files unpacked.
    pub unpacked_size: u64,
    /// Publish time, Unix milliseconds.
    pub published_at: i64,
    /// Whether installing runs a script (npm skips a manifest fetch when it knows).
    pub has_install_script: bool,
}

/// Everything a packument is built from.
#[derive(Debug, Clone)]
pub struct Packument {
    /// The package name.
    pub name: String,
    /// Package summary.
    pub description: Option<String>,
    /// Tag → version, only tags whose version is listed.
    pub dist_tags: BTreeMap<String, String>,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
    /// Last change, Unix milliseconds.
    pub modified_at: i64,
    /// Versions, any order.
    pub versions: Vec<VersionEntry>,
}

fn iso(millis: i64) -> String {
    chrono::DateTime::from_timestamp_millis(millis)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn sorted_versions(versions: &[VersionEntry]) -> Vec<&VersionEntry> {
    let mut sorted: Vec<&VersionEntry> = versions.iter().collect();
    sorted.sort_by(|a, b| {
        match (
            semver::Version::parse(&a.version),
            semver::Version::parse(&b.version),
        ) {
            (Ok(a), Ok(b)) => a.cmp(&b),
            _ => a.version.cmp(&b.version),
        }
    });
    sorted
}

fn dist(entry: &VersionEntry) -> Value {
    json!({
        "tarball": entry.tarball_url,
        "integrity": entry.integrity,
        "shasum": entry.shasum,
        "fileCount": entry.file_count,
        "unpackedSize": entry.unpacked_size,
    })
}

impl Packument {
    /// The dist-tags with `latest` guaranteed when any version exists: the tagged one, else
    /// the highest version.
    fn tags(&self) -> BTreeMap<String, String> {
        let mut tags: BTreeMap<String, String> = self
            .dist_tags
            .iter()
            .filter(|(_, version)| self.versions.iter().any(|v| &v.version == *version))
            .map(|(tag, version)| (tag.clone(), version.clone()))
            .collect();
        if !tags.contains_key("latest")
            && let Some(highest) = sorted_versions(&self.versions).last()
        {
            tags.insert("latest".to_owned(), highest.version.clone());
        }
        tags
    }

    /// The full packument (`application/json`).
    pub fn full(&self) -> Value {
        let mut versions = Map::new();
        let mut time = Map::new();
        time.insert("created".to_owned(), Value::String(iso(self.created_at)));
        time.insert("modified".to_owned(), Value::String(iso(self.modified_at)));
        for entry in sorted_versions(&self.versions) {
            let mut document = Map::new();
            document.insert("name".to_owned(), Value::String(self.name.clone()));
            document.insert("version".to_owned(), Value::String(entry.version.clone()));
            for (key, value) in &entry.install_fields {
                document.insert(key.clone(), value.clone());
            }
            document.insert(
                "_id".to_owned(),
                Value::String(format!("{}@{}", self.name, entry.version)),
            );
            document.insert("dist".to_owned(), dist(entry));
            versions.insert(entry.version.clone(), Value::Object(document));
            time.insert(
                entry.version.clone(),
                Value::String(iso(entry.published_at)),
            );
        }
        let mut body = Map::new();
        body.insert("_id".to_owned(), Value::String(self.name.clone()));
        body.insert("name".to_owned(), Value::String(self.name.clone()));
        if let Some(description) = &self.description {
            body.insert("description".to_owned(), Value::String(description.clone()));
        }
        body.insert("dist-tags".to_owned(), json!(self.tags()));
        body.insert("versions".to_owned(), Value::Object(versions));
        body.insert("time".to_owned(), Value::Object(time));
        Value::Object(body)
    }

    /// The abbreviated packument (`application/vnd.npm.install-v1+json`).
    pub fn abbreviated(&self) -> Value {
        let mut versions = Map::new();
        for entry in sorted_versions(&self.versions) {
            let mut document = Map::new();
            document.insert("name".to_owned(), Value::String(self.name.clone()));
            document.insert("version".to_owned(), Value::String(entry.version.clone()));
            for field in ABBREVIATED_FIELDS {
                if let Some(value) = entry.install_fields.get(*field) {
                    document.insert((*field).to_owned(), value.clone());
                }
            }
            if entry.has_install_script {
                document.insert("hasInstallScript".to_owned(), Value::Bool(true));
            }
            document.insert("dist".to_owned(), dist(entry));
            versions.insert(entry.version.clone(), Value::Object(document));
        }
        json!({
            "name": self.name,
            "modified": iso(self.modified_at),
            "dist-tags": self.tags(),
            "versions": versions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(version: &str, at: i64) -> VersionEntry {
        let mut install_fields = Map::new();
        install_fields.insert("dependencies".to_owned(), json!({"a": "^1"}));
        install_fields.insert("scripts".to_owned(), json!({"test": "x"}));
        VersionEntry {
            version: version.to_owned(),
            install_fields,
            tarball_url: format!("http://h/api/npm/@a/b/-/a-b-{version}.tgz"),
            integrity: "sha512-xyz".to_owned(),
            shasum: "abc".to_owned(),
            file_count: 2,
            unpacked_size: 10,
            published_at: at,
            has_install_script: version == "1.10.0",
        }
    }

    fn packument() -> Packument {
        Packument {
            name: "@a/b".to_owned(),
            description: Some("B".to_owned()),
            dist_tags: BTreeMap::from([
                ("beta".to_owned(), "1.10.0".to_owned()),
                ("gone".to_owned(), "9.9.9".to_owned()),
            ]),
            created_at: 1_000,
            modified_at: 2_000,
            versions: vec![entry("1.10.0", 2_000), entry("1.9.0", 1_000)],
        }
    }

    #[test]
    fn full_form_has_dist_time_and_semver_latest() {
        let body = packument().full();
        assert_eq!(
            body["dist-tags"],
            json!({"beta": "1.10.0", "latest": "1.10.0"})
        );
        let keys: Vec<&String> = body["versions"].as_object().expect("map").keys().collect();
        assert_eq!(keys, ["1.9.0", "1.10.0"]);
        assert_eq!(body["versions"]["1.9.0"]["_id"], "@a/b@1.9.0");
        assert_eq!(body["versions"]["1.9.0"]["dist"]["integrity"], "sha512-xyz");
        assert_eq!(body["versions"]["1.9.0"]["scripts"]["test"], "x");
        assert_eq!(body["time"]["created"], "1970-01-01T00:00:01.000Z");
        assert_eq!(body["time"]["1.10.0"], "1970-01-01T00:00:02.000Z");
    }

    #[test]
    fn abbreviated_form_keeps_only_install_fields() {
        let body = packument().abbreviated();
        assert_eq!(body["modified"], "1970-01-01T00:00:02.000Z");
        let version = &body["versions"]["1.10.0"];
        assert_eq!(version["dependencies"]["a"], "^1");
        assert!(version.get("scripts").is_none());
        assert_eq!(version["hasInstallScript"], true);
        assert!(body["versions"]["1.9.0"].get("hasInstallScript").is_none());
        assert!(body.get("time").is_none());
    }
}
