//! The `registry` binary: `serve`, `migrate` and `token create`.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use registry::app::AppState;
use registry::config::{Config, DatabaseArgs};
use registry::db::Role;

/// Skill registry server (ClawHub-compatible API v1).
#[derive(Debug, Parser)]
#[command(name = "registry", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the v1 API.
    Serve(Config),
    /// Apply database migrations and exit.
    Migrate(DatabaseArgs),
    /// Print the OpenAPI document of the API (committed as `registry/openapi.json`).
    Openapi,
    /// Manage API tokens.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
}

#[derive(Debug, Subcommand)]
enum TokenCommand {
    /// Create the user if missing and print one new API token.
    Create {
        /// Handle of the user.
        #[arg(long)]
        user: String,
        /// Role to give the user (an existing user keeps its role when omitted).
        #[arg(long, value_enum)]
        role: Option<Role>,
        #[command(flatten)]
        database: DatabaseArgs,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a person watching a terminal: a log redirected to a file
        // (or a pipe) must stay plain text, and NO_COLOR turns them off everywhere.
        .with_ansi(
            std::io::stderr().is_terminal()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none(),
        )
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: failed to start the async runtime: {error}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(config) => {
            let listen = config.listen;
            let state = AppState::new(config).await?;
            let listener = tokio::net::TcpListener::bind(listen)
                .await
                .with_context(|| format!("failed to listen on `{listen}`"))?;
            registry::serve(listener, state, shutdown_signal()).await
        }
        Command::Openapi => {
            println!("{}", registry::openapi::document_json());
            Ok(())
        }
        Command::Migrate(database) => {
            registry::db::connect(&database.database_url, 1)
                .await
                .with_context(|| format!("failed to migrate `{}`", database.database_url))?;
            eprintln!("migrations applied to `{}`", database.database_url);
            Ok(())
        }
        Command::Token {
            command:
                TokenCommand::Create {
                    user,
                    role,
                    database,
                },
        } => {
            let store = registry::db::connect(&database.database_url, 1)
                .await
                .with_context(|| format!("failed to open `{}`", database.database_url))?;
            let token =
                registry::tokens::create_token_with_role(store.as_ref(), &user, role).await?;
            println!("{token}");
            Ok(())
        }
    }
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
