//! One module per subcommand: its clap arguments and its `run` function.
//!
//! Every `run` returns the process exit code on success (0, or 1 when the input is
//! invalid or a check failed); errors bubble up as `anyhow::Error` and exit with 2.
//! `validate` and `lint` share one batch runner ([`batch`]): a new command over many
//! documents supplies only its per-document check.

pub mod batch;
pub mod generate;
pub mod lint;
pub mod report;
pub mod schema;
pub mod skill;
pub mod validate;

use clap::ValueEnum;
use promptset::output::Format;

/// `--format` of `validate` and `lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// `file:line:col: error[rule]: message`, like a compiler.
    Text,
    /// One JSON document with every file and finding.
    Json,
    /// GitHub Actions annotations (`::error file=…,line=…`).
    Github,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// JUnit XML, one test case per file.
    Junit,
}

impl From<FormatArg> for Format {
    fn from(value: FormatArg) -> Self {
        match value {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Github => Format::Github,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Junit => Format::Junit,
        }
    }
}
