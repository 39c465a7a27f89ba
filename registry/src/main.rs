//! The `registry` binary: `serve`, `migrate` and `token create`.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use registry::app::AppState;
use registry::config::{Config, DatabaseArgs};
use registry::db::Role;

// mimalloc instead of glibc's allocator: profiles of uncached search under load spent a
// quarter of the server's CPU in malloc and free (many small, short-lived allocations
// from many threads), which glibc's arenas handle poorly.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Print the audit log, newest first.
    Audit(AuditArgs),
    /// Delete blobs no version, package or pending upload references, and stale
    /// temporary files (safe next to running servers: young files are kept).
    Gc(GcArgs),
    /// Manage API tokens.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
}

/// Flags of `registry audit`.
#[derive(Debug, clap::Args)]
struct AuditArgs {
    /// Most events to print.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i64).range(1..=10000))]
    limit: i64,
    /// Print a JSON array (the items of `GET /api/v1/audit`) instead of text lines.
    #[arg(long)]
    json: bool,
    /// Only events by this actor handle.
    #[arg(long)]
    actor: Option<String>,
    /// Only this action or dotted action prefix (e.g. `skill` or `skill.delete`).
    #[arg(long)]
    action: Option<String>,
    /// Only events about the record of this name (slug, `slug@version`, package).
    #[arg(long)]
    target: Option<String>,
    #[command(flatten)]
    database: DatabaseArgs,
}

/// Flags of `registry gc`.
#[derive(Debug, clap::Args)]
struct GcArgs {
    #[command(flatten)]
    database: DatabaseArgs,
    /// Directory of the content-addressed file blobs.
    #[arg(
        long = "storage",
        env = "REGISTRY_STORAGE",
        default_value = "./registry-data/blobs"
    )]
    storage_dir: std::path::PathBuf,
    /// Only delete files at least this old (`3600`, `90s`, `15m`, `1h`): publishes in
    /// flight on a running server have written blobs they have not committed yet.
    #[arg(long, default_value = "1h", value_parser = registry::gc::parse_age)]
    min_age: std::time::Duration,
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
        Command::Audit(args) => {
            let store = registry::db::connect(&args.database.database_url, 1)
                .await
                .with_context(|| format!("failed to open `{}`", args.database.database_url))?;
            print_audit(store.as_ref(), args).await
        }
        Command::Gc(args) => {
            let report =
                registry::gc::collect(&args.database.database_url, &args.storage_dir, args.min_age)
                    .await?;
            eprintln!(
                "removed {} unreferenced blobs ({} bytes) and {} temporary files; kept {}",
                report.removed, report.removed_bytes, report.temporaries, report.kept
            );
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

/// Prints the newest audit events, following the cursor until `limit` are printed.
async fn print_audit(store: &dyn registry::db::Store, args: AuditArgs) -> anyhow::Result<()> {
    use registry::db::audit_store::AuditQuery;
    use registry::routes::audit::AuditEntry;
    let mut entries: Vec<AuditEntry> = Vec::new();
    let mut before_id = None;
    while (entries.len() as i64) < args.limit {
        let page = (args.limit - entries.len() as i64).min(500);
        let rows = store
            .list_audit(&AuditQuery {
                actor: args
                    .actor
                    .as_deref()
                    .map(|handle| handle.trim_start_matches('@').to_ascii_lowercase()),
                action: args.action.clone(),
                target: args.target.clone(),
                target_kind: None,
                before_id,
                limit: page,
            })
            .await
            .context("failed to read the audit log")?;
        let more = rows.len() as i64 > page;
        let mut rows = rows;
        rows.truncate(usize::try_from(page).unwrap_or(0));
        before_id = rows.last().map(|row| row.id);
        entries.extend(rows.into_iter().map(AuditEntry::from));
        if !more {
            break;
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(());
    }
    for entry in entries {
        let at = chrono::DateTime::from_timestamp_millis(entry.at).map_or_else(
            || entry.at.to_string(),
            |at| at.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        );
        let actor = entry
            .actor
            .as_ref()
            .and_then(|actor| actor.handle.as_deref())
            .map_or_else(|| "-".to_owned(), |handle| format!("@{handle}"));
        let target = entry.target.name.as_deref().unwrap_or("-");
        let show = |value: &Option<serde_json::Value>| {
            value
                .as_ref()
                .map_or_else(|| "-".to_owned(), serde_json::Value::to_string)
        };
        println!(
            "{at}  {actor}  {action}  {kind} {target}  {from} -> {to}",
            action = entry.action,
            kind = entry.target.kind,
            from = show(&entry.from),
            to = show(&entry.to),
        );
    }
    Ok(())
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
