//! One module per subcommand: its clap arguments and its `run` function.
//!
//! Every `run` returns the process exit code on success (0, or 1 when the input is
//! invalid or a check failed); errors bubble up as `anyhow::Error` and exit with 2.

pub mod generate;
pub mod lint;
pub mod report;
pub mod schema;
pub mod validate;
