//! `promptset lint` (being built).

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

/// Arguments of `promptset lint`.
#[derive(Debug, Args)]
pub struct LintArgs {}

/// Runs `promptset lint`.
pub fn run(_args: LintArgs) -> Result<ExitCode> {
    bail!("`promptset lint` is not available in this build yet")
}
