//! Publishable folders written on the fly.

use std::path::{Path, PathBuf};

use super::files::write_files;

/// A code plugin folder as `clawhub package publish --family code-plugin` packs it
/// (`npm pack`): a `package.json` with the `openclaw` block (extensions, plugin API
/// range, build version), an `openclaw.plugin.json` whose id is the unscoped name, an
/// entry point and one more module.
pub fn code_plugin(root: &Path, name: &str, version: &str) -> PathBuf {
    let dir = root.join(name.replace(['@', '/'], "_"));
    let id = name.rsplit('/').next().unwrap_or(name);
    let manifest = format!(
        r#"{{"name":"{name}","version":"{version}","description":"A code plugin","main":"index.js",
  "openclaw":{{"extensions":["./index.js"],"compat":{{"pluginApi":">=2026.1.0"}},"build":{{"openclawVersion":"2026.9.6"}}}}}}
"#
    );
    let plugin_manifest =
        format!(r#"{{"id":"{id}","name":"Plugin {id}","configSchema":{{"type":"object"}}}}"#);
    write_files(
        &dir,
        &[
            ("package.json", manifest.as_str()),
            ("openclaw.plugin.json", plugin_manifest.as_str()),
            (
                "index.js",
                "module.exports = { register() { return 'registered'; } };\n",
            ),
            ("lib/util.js", "exports.twice = (x) => x * 2;\n"),
            ("README.md", "# Plugin\n"),
        ],
    );
    dir
}
