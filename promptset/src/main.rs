//! The `promptset` command line: parses arguments and dispatches to `commands/`.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;
mod io;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Schema(args) => commands::schema::run(args),
        Command::Validate(args) => commands::validate::run(args),
        Command::Lint(args) => commands::lint::run(args),
        Command::Generate(args) => commands::generate::run(args),
        Command::Report(args) => commands::report::run(args),
        Command::Skill(args) => commands::skill::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            #[expect(clippy::print_stderr, reason = "the binary reports its own errors")]
            {
                eprintln!("error: {err:#}");
            }
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
