//! `promptset validate` (being built).

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

/// Arguments of `promptset validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {}

/// Runs `promptset validate`.
pub fn run(_args: ValidateArgs) -> Result<ExitCode> {
    bail!("`promptset validate` is not available in this build yet")
}
