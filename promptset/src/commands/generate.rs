//! `promptset generate` (being built).

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

/// Arguments of `promptset generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {}

/// Runs `promptset generate`.
pub fn run(_args: GenerateArgs) -> Result<ExitCode> {
    bail!("`promptset generate` is not available in this build yet")
}
