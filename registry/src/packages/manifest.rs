//! `package.json`: parsing it from a tarball, checking it agrees with the publish payload,
//! and the parts the registry keeps — npm's install fields for the packument, the scripts
//! for the security scan, and OpenClaw's compatibility block.

use serde_json::{Map, Value};

use super::name::PackageName;

/// Largest `package.json` accepted, as the reference CLI allows.
pub const MAX_MANIFEST_BYTES: usize = 256 * 1024;

/// Fields of `package.json` that npm needs to install a version, copied into the
/// packument; everything else stays in the tarball.
const INSTALL_FIELDS: &[&str] = &[
    "description",
    "main",
    "type",
    "exports",
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
    "license",
    "scripts",
    "funding",
    "deprecated",
    "gypfile",
];

/// Lifecycle scripts npm runs when the package is installed from a registry.
pub const INSTALL_SCRIPTS: &[&str] = &["preinstall", "install", "postinstall"];

/// A parsed `package.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The `name` field.
    pub name: String,
    /// The `version` field, valid semver.
    pub version: semver::Version,
    /// The whole document.
    pub document: Map<String, Value>,
}

impl Manifest {
    /// Parses `bytes` as a `package.json` whose name and version are valid.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() > MAX_MANIFEST_BYTES {
            return Err(format!(
                "package.json is larger than the {} KB limit",
                MAX_MANIFEST_BYTES / 1024
            ));
        }
        let text =
            std::str::from_utf8(bytes).map_err(|_| "package.json is not valid UTF-8".to_owned())?;
        // npm itself tolerates a UTF-8 byte order mark in package.json.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: Value = serde_json::from_str(text).map_err(|error| {
            format!(
                "package.json is not valid JSON (line {}, column {}): {error}",
                error.line(),
                error.column()
            )
        })?;
        let Value::Object(document) = value else {
            return Err("package.json must be a JSON object".to_owned());
        };
        let name = match document.get("name") {
            Some(Value::String(name)) => name.clone(),
            _ => return Err("package.json has no `name` string".to_owned()),
        };
        PackageName::parse(&name).map_err(|error| format!("package.json: {error}"))?;
        let version = match document.get("version") {
            Some(Value::String(version)) => semver::Version::parse(version).map_err(|error| {
                format!("package.json version `{version}` is not valid semver: {error}")
            })?,
            _ => return Err("package.json has no `version` string".to_owned()),
        };
        Ok(Self {
            name,
            version,
            document,
        })
    }

    /// Checks the manifest names the same package and version as the payload.
    pub fn agrees_with(&self, name: &str, version: &semver::Version) -> Result<(), String> {
        if self.name != name {
            return Err(format!(
                "package.json name `{}` does not match the published name `{name}`",
                self.name
            ));
        }
        if &self.version != version {
            return Err(format!(
                "package.json version `{}` does not match the published version `{version}`",
                self.version
            ));
        }
        Ok(())
    }

    /// The fields npm installs from, for the packument.
    pub fn install_fields(&self) -> Map<String, Value> {
        INSTALL_FIELDS
            .iter()
            .filter_map(|field| {
                self.document
                    .get(*field)
                    .map(|value| ((*field).to_owned(), value.clone()))
            })
            .collect()
    }

    /// The `description` string, if any.
    pub fn description(&self) -> Option<&str> {
        self.document.get("description").and_then(Value::as_str)
    }

    /// The string-valued scripts by name.
    pub fn scripts(&self) -> Vec<(&str, &str)> {
        self.document
            .get("scripts")
            .and_then(Value::as_object)
            .map(|scripts| {
                scripts
                    .iter()
                    .filter_map(|(name, body)| Some((name.as_str(), body.as_str()?)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Dependencies of every kind with string specs, `(kind, name, spec)`.
    pub fn dependencies(&self) -> Vec<(&str, &str, &str)> {
        ["dependencies", "optionalDependencies", "peerDependencies"]
            .iter()
            .filter_map(|kind| Some((*kind, self.document.get(*kind)?.as_object()?)))
            .flat_map(|(kind, deps)| {
                deps.iter()
                    .filter_map(move |(name, spec)| Some((kind, name.as_str(), spec.as_str()?)))
            })
            .collect()
    }

    /// True when npm would run an install-time script: one of [`INSTALL_SCRIPTS`], or a
    /// `binding.gyp` that npm builds with node-gyp unless `gypfile` is false.
    pub fn has_install_script(&self, has_binding_gyp: bool) -> bool {
        let explicit = self
            .scripts()
            .iter()
            .any(|(name, _)| INSTALL_SCRIPTS.contains(name));
        let gyp = has_binding_gyp && self.document.get("gypfile") != Some(&Value::Bool(false));
        explicit || gyp
    }

    /// OpenClaw's compatibility metadata (`pluginApiRange`, `minGatewayVersion`,
    /// `builtWithOpenClawVersion`, `pluginSdkVersion`) read from the `openclaw` block,
    /// `None` when it names none of them.
    pub fn compatibility(&self) -> Option<Map<String, Value>> {
        let openclaw = self.document.get("openclaw").and_then(Value::as_object);
        let block = |key: &str| openclaw.and_then(|o| o.get(key)).and_then(Value::as_object);
        let text = |object: Option<&Map<String, Value>>, key: &str| {
            object
                .and_then(|o| o.get(key))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|value| !value.is_empty())
                .map(str::to_owned)
        };
        let compat = block("compat");
        let build = block("build");
        let install = block("install");
        let mut out = Map::new();
        if let Some(range) = text(compat, "pluginApi") {
            out.insert("pluginApiRange".to_owned(), Value::String(range));
        }
        if let Some(min) =
            text(compat, "minGatewayVersion").or_else(|| text(install, "minHostVersion"))
        {
            out.insert("minGatewayVersion".to_owned(), Value::String(min));
        }
        if let Some(built) = text(build, "openclawVersion") {
            out.insert("builtWithOpenClawVersion".to_owned(), Value::String(built));
        }
        if let Some(sdk) = text(build, "pluginSdkVersion") {
            out.insert("pluginSdkVersion".to_owned(), Value::String(sdk));
        }
        (!out.is_empty()).then_some(out)
    }

    /// The fields a code plugin must declare that this manifest lacks.
    pub fn missing_code_plugin_fields(&self) -> Vec<&'static str> {
        let compatibility = self.compatibility().unwrap_or_default();
        let mut missing = Vec::new();
        if !compatibility.contains_key("pluginApiRange") {
            missing.push("openclaw.compat.pluginApi");
        }
        if !compatibility.contains_key("builtWithOpenClawVersion") {
            missing.push("openclaw.build.openclawVersion");
        }
        missing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLUGIN: &str = r#"{
        "name": "@alice/code-plug", "version": "1.2.3", "description": "A plug",
        "main": "dist/index.js", "dependencies": {"left-pad": "^1.3.0"},
        "scripts": {"postinstall": "node setup.js", "test": "vitest"},
        "private": true,
        "openclaw": {"compat": {"pluginApi": ">=1.0.0"}, "build": {"openclawVersion": "2026.9.6"},
                     "install": {"minHostVersion": "2026.1.0"}}
    }"#;

    #[test]
    fn parses_a_plugin_manifest() {
        let manifest = Manifest::parse(PLUGIN.as_bytes()).expect("valid");
        assert_eq!(manifest.name, "@alice/code-plug");
        assert_eq!(manifest.version.to_string(), "1.2.3");
        assert_eq!(manifest.description(), Some("A plug"));
        let fields = manifest.install_fields();
        assert!(fields.contains_key("dependencies") && fields.contains_key("main"));
        assert!(!fields.contains_key("private") && !fields.contains_key("openclaw"));
        assert!(manifest.has_install_script(false));
        assert_eq!(
            manifest.dependencies(),
            [("dependencies", "left-pad", "^1.3.0")]
        );
        let compatibility = manifest.compatibility().expect("compat");
        assert_eq!(compatibility["pluginApiRange"], ">=1.0.0");
        assert_eq!(compatibility["minGatewayVersion"], "2026.1.0");
        assert_eq!(compatibility["builtWithOpenClawVersion"], "2026.9.6");
        assert!(manifest.missing_code_plugin_fields().is_empty());
    }

    #[test]
    fn refuses_broken_manifests_with_reasons() {
        for (bytes, needle) in [
            (&b"{not json"[..], "not valid JSON (line 1"),
            (b"[1]", "JSON object"),
            (b"{\"version\":\"1.0.0\"}", "no `name`"),
            (b"{\"name\":\"Bad\",\"version\":\"1.0.0\"}", "lowercase"),
            (b"{\"name\":\"ok\"}", "no `version`"),
            (b"{\"name\":\"ok\",\"version\":\"1.0\"}", "not valid semver"),
            (b"\xff\xfe", "UTF-8"),
        ] {
            let error = Manifest::parse(bytes).expect_err(needle);
            assert!(error.contains(needle), "{needle}: {error}");
        }
    }

    #[test]
    fn checks_agreement_with_the_payload() {
        let manifest = Manifest::parse(br#"{"name":"demo","version":"0.1.0"}"#).expect("valid");
        let version = semver::Version::new(0, 1, 0);
        assert!(manifest.agrees_with("demo", &version).is_ok());
        let error = manifest.agrees_with("other", &version).unwrap_err();
        assert!(error.contains("`demo` does not match the published name `other`"));
        let error = manifest
            .agrees_with("demo", &semver::Version::new(0, 2, 0))
            .unwrap_err();
        assert!(error.contains("version `0.1.0` does not match"));
        assert_eq!(
            manifest.missing_code_plugin_fields(),
            [
                "openclaw.compat.pluginApi",
                "openclaw.build.openclawVersion"
            ]
        );
        assert!(!manifest.has_install_script(false));
        assert!(manifest.has_install_script(true));
    }
}
