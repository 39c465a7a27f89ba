//! The deterministic download ZIP: every file at its stored path (no wrapper folder),
//! ordered like JavaScript's `localeCompare`, DEFLATE level 6, all times 1980-01-01, plus a
//! generated `_meta.json`.

use std::io::{Cursor, Write as _};

use anyhow::Context as _;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::bundle::locale_compare;

/// `_meta.json` contents of a download.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveMeta<'a> {
    /// Owner user id (as a string).
    pub owner_id: String,
    /// Canonical slug.
    pub slug: &'a str,
    /// Version string.
    pub version: &'a str,
    /// Publication time of the version, Unix ms.
    pub published_at: i64,
}

/// Builds the ZIP of `files` (path, bytes) plus `_meta.json`.
pub fn build_zip(
    files: &[(String, axum::body::Bytes)],
    meta: &ArchiveMeta<'_>,
) -> anyhow::Result<Vec<u8>> {
    let mut entries: Vec<(&str, &[u8])> = files
        .iter()
        .filter(|(path, _)| path != "_meta.json")
        .map(|(path, bytes)| (path.as_str(), bytes.as_ref()))
        .collect();
    let meta_json = serde_json::to_vec_pretty(meta).context("failed to encode `_meta.json`")?;
    entries.push(("_meta.json", &meta_json));
    entries.sort_by(|a, b| locale_compare(a.0, b.0));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(6))
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    let total: usize = entries.iter().map(|(_, bytes)| bytes.len()).sum();
    let mut writer = ZipWriter::new(Cursor::new(Vec::with_capacity(total / 2 + 1024)));
    for (path, bytes) in entries {
        writer
            .start_file(path, options)
            .with_context(|| format!("failed to add `{path}` to the archive"))?;
        writer
            .write_all(bytes)
            .with_context(|| format!("failed to compress `{path}`"))?;
    }
    Ok(writer
        .finish()
        .context("failed to finish the archive")?
        .into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archives_are_deterministic_and_flat() {
        let files = vec![
            (
                "scripts/run.sh".to_owned(),
                axum::body::Bytes::from_static(b"echo hi\n"),
            ),
            (
                "SKILL.md".to_owned(),
                axum::body::Bytes::from_static(b"# Demo\n"),
            ),
        ];
        let meta = ArchiveMeta {
            owner_id: "1".into(),
            slug: "demo",
            version: "1.0.0",
            published_at: 5,
        };
        let first = build_zip(&files, &meta).expect("zip");
        assert_eq!(first, build_zip(&files, &meta).expect("zip"));
        let archive = zip::ZipArchive::new(Cursor::new(first)).expect("readable");
        let names: Vec<String> = archive
            .file_names()
            .map(|name| name.expect("utf-8 name").into_owned())
            .collect();
        assert_eq!(names, ["_meta.json", "scripts/run.sh", "SKILL.md"]);
    }
}
