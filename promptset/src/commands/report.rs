//! `promptset report` (being built).

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

/// Arguments of `promptset report`.
#[derive(Debug, Args)]
pub struct ReportArgs {}

/// Runs `promptset report`.
pub fn run(_args: ReportArgs) -> Result<ExitCode> {
    bail!("`promptset report` is not available in this build yet")
}
