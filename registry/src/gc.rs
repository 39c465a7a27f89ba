//! The orphan collector behind `registry gc`: deletes blobs no row references (in the
//! storage directory, and in the database on PostgreSQL) and temporary files left by
//! interrupted writes.
//!
//! A publish writes its blobs (durably) before the one transaction that references them,
//! so a server killed in between leaves blobs nobody points at; an interrupted blob write
//! leaves a file in `tmp/`. Both are harmless but take space. The collector lists the
//! storage directory, asks the database which addresses are referenced
//! ([`crate::db::blob_store`]) and deletes the rest that are older than `min_age`: the age
//! guard is what makes it safe to run next to live servers, whose in-flight publishes have
//! written blobs they have not committed yet (a publish takes seconds, the default guard
//! is an hour).

use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::Context as _;

use crate::config::DatabaseUrl;
use crate::db::pg_blobs::PgBlobStorage;
use crate::storage::is_sha256_hex;

/// What one collection did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GcReport {
    /// Blobs still referenced (or too young to judge), kept.
    pub kept: usize,
    /// Unreferenced blobs deleted.
    pub removed: usize,
    /// Bytes of the deleted blobs.
    pub removed_bytes: u64,
    /// Stale temporary files deleted.
    pub temporaries: usize,
}

/// Collects the orphans of the file store at `storage_dir` against the database at `url`.
pub async fn collect(
    url: &DatabaseUrl,
    storage_dir: &Path,
    min_age: Duration,
) -> anyhow::Result<GcReport> {
    // Read the references first: a blob written after this point is younger than the
    // listing below sees it, and the age guard keeps it.
    let now = chrono::Utc::now().timestamp_millis();
    let referenced = crate::db::blob_store::referenced_blobs(url, now)
        .await
        .with_context(|| format!("failed to read the blob references of `{url}`"))?;
    let root = storage_dir.to_owned();
    let in_database = url.is_postgres().then(|| referenced.clone());
    let mut report = tokio::task::spawn_blocking(move || sweep(&root, &referenced, min_age))
        .await
        .context("collector task failed")??;
    // On PostgreSQL the blobs are in the database ([`PgBlobStorage`]); the directory is
    // swept as well, for blobs written before a deployment moved to the database.
    if let Some(referenced) = in_database {
        let blobs = PgBlobStorage::connect(url.expose(), 2).await?;
        let older_than = now.saturating_sub(i64::try_from(min_age.as_millis()).unwrap_or(i64::MAX));
        let collected = blobs.collect(&referenced, older_than).await;
        blobs.close().await;
        let collected = collected
            .with_context(|| format!("failed to collect the database blobs of `{url}`"))?;
        report.kept += collected.kept;
        report.removed += collected.removed;
        report.removed_bytes += collected.removed_bytes;
    }
    Ok(report)
}

fn sweep(
    root: &Path,
    referenced: &std::collections::HashSet<String>,
    min_age: Duration,
) -> anyhow::Result<GcReport> {
    let now = SystemTime::now();
    let old_enough = |path: &Path| -> bool {
        std::fs::metadata(path)
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age >= min_age)
    };
    let mut report = GcReport::default();
    let temporary_dir = root.join("tmp");
    for entry in read_dir(&temporary_dir)? {
        if entry.is_file() && old_enough(&entry) {
            remove(&entry)?;
            report.temporaries += 1;
        }
    }
    // The layout of `FsStorage`: `ab/cd/abcd…`.
    for first in read_dir(root)? {
        if !first.is_dir() || first == temporary_dir {
            continue;
        }
        for second in read_dir(&first)? {
            if !second.is_dir() {
                continue;
            }
            for blob in read_dir(&second)? {
                let name = blob
                    .file_name()
                    .and_then(|name| name.to_str())
                    .unwrap_or_default()
                    .to_owned();
                if !is_sha256_hex(&name) || referenced.contains(&name) || !old_enough(&blob) {
                    report.kept += 1;
                    continue;
                }
                let size = std::fs::metadata(&blob).map(|meta| meta.len()).unwrap_or(0);
                remove(&blob)?;
                report.removed += 1;
                report.removed_bytes += size;
            }
        }
    }
    Ok(report)
}

fn read_dir(dir: &Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("failed to list `{}`", dir.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(error) => Err(error).with_context(|| format!("failed to list `{}`", dir.display())),
    }
}

fn remove(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        // Another collector got there first.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error).with_context(|| format!("failed to delete `{}`", path.display())),
    }
}

/// Parses a duration like `3600`, `90s`, `15m`, `1h` or `0`.
pub fn parse_age(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let value: u64 = number
        .parse()
        .map_err(|_| format!("invalid age `{text}`: expected e.g. `3600`, `90s`, `15m` or `1h`"))?;
    let seconds = match unit {
        "s" => value,
        "m" => value.saturating_mul(60),
        "h" => value.saturating_mul(3600),
        _ => {
            return Err(format!(
                "invalid age `{text}`: the unit must be `s`, `m` or `h`"
            ));
        }
    };
    Ok(Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_parse() {
        assert_eq!(parse_age("0"), Ok(Duration::ZERO));
        assert_eq!(parse_age("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_age("15m"), Ok(Duration::from_secs(900)));
        assert_eq!(parse_age("1h"), Ok(Duration::from_secs(3600)));
        assert!(parse_age("1d").is_err());
        assert!(parse_age("h").is_err());
    }
}
