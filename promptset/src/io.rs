//! Input and output helpers of the binary: `-` for stdin/stdout, context on every error.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path`, or to stdout when `path` is `None` or `-`.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match path {
        Some(path) if path != Path::new("-") => std::fs::write(path, bytes)
            .with_context(|| format!("failed to write `{}`", path.display())),
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|()| stdout.flush())
                .context("failed to write to stdout")
        }
    }
}
