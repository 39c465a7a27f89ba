//! The plugin export archive (`GET /api/v1/plugins/export`): one ZIP per page holding each
//! plugin's latest release files under `<family>/<package name>/`, a
//! `__clawhub_export/<family>/<package name>/plugin_meta.json` per plugin, a root
//! `_manifest.json`, and `_errors.json` when some plugin could not be exported.
//!
//! The archive is deterministic like the skill downloads: entries in path order, DEFLATE,
//! every time 1980-01-01.

use std::io::{Cursor, Write as _};

use anyhow::Context as _;
use serde_json::Value;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

/// Most files in one export page, as the reference registry caps it.
pub const MAX_EXPORT_FILES: usize = 10_000;
/// Most file bytes in one export page.
pub const MAX_EXPORT_BYTES: u64 = 256 * 1024 * 1024;

/// One plugin of the page.
#[derive(Debug, Clone)]
pub struct ExportedPlugin {
    /// `code-plugin` or `bundle-plugin`.
    pub family: String,
    /// Package name (scoped names keep their `@scope/` directory).
    pub name: String,
    /// Files of the latest release.
    pub files: Vec<(String, Vec<u8>)>,
    /// `plugin_meta.json` contents.
    pub meta: Value,
}

/// Builds the page archive.
pub fn build_archive(
    plugins: &[ExportedPlugin],
    manifest: &Value,
    errors: &[Value],
) -> anyhow::Result<Vec<u8>> {
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    for plugin in plugins {
        for (path, bytes) in &plugin.files {
            entries.push((
                format!("{}/{}/{path}", plugin.family, plugin.name),
                bytes.clone(),
            ));
        }
        entries.push((
            format!(
                "__clawhub_export/{}/{}/plugin_meta.json",
                plugin.family, plugin.name
            ),
            serde_json::to_vec_pretty(&plugin.meta).context("failed to encode plugin_meta.json")?,
        ));
    }
    entries.push((
        "_manifest.json".to_owned(),
        serde_json::to_vec_pretty(manifest).context("failed to encode _manifest.json")?,
    ));
    if !errors.is_empty() {
        entries.push((
            "_errors.json".to_owned(),
            serde_json::to_vec_pretty(errors).context("failed to encode _errors.json")?,
        ));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(6))
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (path, bytes) in entries {
        writer
            .start_file(path.as_str(), options)
            .with_context(|| format!("failed to add `{path}` to the export"))?;
        writer
            .write_all(&bytes)
            .with_context(|| format!("failed to compress `{path}`"))?;
    }
    Ok(writer
        .finish()
        .context("failed to finish the export")?
        .into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn archives_are_deterministic_and_laid_out_by_family_and_name() {
        let plugins = vec![ExportedPlugin {
            family: "code-plugin".into(),
            name: "@alice/plug".into(),
            files: vec![("package.json".into(), b"{}".to_vec())],
            meta: json!({"name": "@alice/plug"}),
        }];
        let first = build_archive(&plugins, &json!([]), &[]).expect("zip");
        assert_eq!(
            first,
            build_archive(&plugins, &json!([]), &[]).expect("zip")
        );
        let mut archive = zip::ZipArchive::new(Cursor::new(first)).expect("readable");
        let names: Vec<String> = (0..archive.len())
            .map(|i| {
                archive
                    .by_index(i)
                    .expect("entry")
                    .name()
                    .expect("name")
                    .into_owned()
            })
            .collect();
        assert_eq!(
            names,
            [
                "__clawhub_export/code-plugin/@alice/plug/plugin_meta.json",
                "_manifest.json",
                "code-plugin/@alice/plug/package.json",
            ]
        );
    }
}
