//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in the library, by cause.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("failed to read `{}`", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A template failed to load or render.
    #[error("template error: {0:#}")]
    Template(#[from] minijinja::Error),
    /// Writing CSV failed.
    #[error("failed to write CSV: {0}")]
    Csv(#[from] csv::Error),
    /// Writing output failed.
    #[error("failed to write output: {0}")]
    Io(#[from] std::io::Error),
    /// A JSON (de)serialization failed.
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
}
