//! `promptset schema`: prints the derived JSON Schema.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use promptset::schema::{Variant, schema_text};

use crate::io::write_output;

/// Arguments of `promptset schema`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  promptset schema > schemas/promptset.schema.json
  promptset schema --variant openai-strict -o openai-schema.json")]
pub struct SchemaArgs {
    /// Which variant: `canonical` (the committed file) or `openai-strict` (every property
    /// required, optional ones nullable, for OpenAI structured outputs in strict mode).
    #[arg(long, value_enum, default_value_t = VariantArg::Canonical)]
    pub variant: VariantArg,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--variant` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// The format as specified: optional fields absent, never null.
    Canonical,
    /// Every property required, optional ones nullable (OpenAI strict mode).
    OpenaiStrict,
}

impl From<VariantArg> for Variant {
    fn from(value: VariantArg) -> Self {
        match value {
            VariantArg::Canonical => Variant::Canonical,
            VariantArg::OpenaiStrict => Variant::OpenAiStrict,
        }
    }
}

/// Runs `promptset schema`.
pub fn run(args: SchemaArgs) -> Result<ExitCode> {
    write_output(
        args.output.as_deref(),
        schema_text(args.variant.into()).as_bytes(),
    )?;
    Ok(ExitCode::SUCCESS)
}
