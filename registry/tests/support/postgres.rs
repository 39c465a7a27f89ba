//! A throwaway PostgreSQL server for tests, started with `initdb` + `pg_ctl` in a temp dir.
//!
//! Include it with `#[path = ".../support/postgres.rs"] mod postgres;` and call
//! [`shared`] to get the one server of the test binary, then
//! [`TempPostgres::fresh_database`] once per test. When `REGISTRY_TEST_POSTGRES_URL` is set
//! (`postgres://user:pass@host:port/db`), that server is used instead and nothing is
//! started.
//!
//! The server listens on a free loopback port and a unix socket inside its temp dir, with
//! `fsync=off` and small buffers: it is for tests only. `initdb` refuses to run as root,
//! so when the tests run as root the server runs as `nobody` (through `setpriv`, or
//! `runuser` as a fallback) and its temp dir is handed to that user.
//!
//! Statics are never dropped, so the shared server would outlive its test binary; a tiny
//! watchdog shell process started next to it waits for the test process to exit (normally,
//! by panic=abort, or killed) and then stops the server with SIGQUIT (PostgreSQL's
//! immediate shutdown) and removes the temp dir.
//!
//! Only std, `anyhow` and `tempfile`; databases are created with the `psql` client that
//! ships with the server.

#![allow(
    dead_code,
    reason = "each including test binary uses a different subset"
)]

use std::env;
use std::fs;
use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

/// Environment variable naming an existing server to use instead of starting one.
pub const POSTGRES_URL_ENV: &str = "REGISTRY_TEST_POSTGRES_URL";

/// Unprivileged account the server runs as when the tests run as root.
const UNPRIVILEGED_USER: &str = "nobody";

/// Superuser created by `initdb`; connections are trusted on loopback and the socket.
const SUPERUSER: &str = "postgres";

/// How often [`TempPostgres::start`] retries when another process grabbed the port.
const START_ATTEMPTS: u32 = 3;

/// The per-binary server, started on first use.
static SHARED: OnceLock<std::result::Result<TempPostgres, String>> = OnceLock::new();

/// Counter that keeps database names unique within one test process.
static DATABASE_COUNTER: AtomicU32 = AtomicU32::new(0);

/// The one server of this test binary: the external one of `REGISTRY_TEST_POSTGRES_URL`,
/// or a local one started on first call and stopped when the process exits.
pub fn shared() -> Result<&'static TempPostgres> {
    let server = SHARED.get_or_init(|| match TempPostgres::start() {
        Ok(server) => Ok(server),
        Err(error) => Err(format!("{error:#}")),
    });
    match server {
        Ok(server) => Ok(server),
        Err(message) => bail!("{message}"),
    }
}

/// A fresh, empty database on the shared server; `name` is a readable prefix.
pub fn fresh_database_url(name: &str) -> Result<String> {
    shared()?.try_fresh_database(name)
}

/// A running PostgreSQL server the tests may create databases on.
#[derive(Debug)]
pub struct TempPostgres {
    /// URL of the maintenance database (`postgres`), used to create test databases.
    admin_url: String,
    /// Present when this process started the server.
    local: Option<LocalServer>,
}

#[derive(Debug)]
struct LocalServer {
    /// Temp dir holding the data directory, the socket and the log; removed on drop.
    root: tempfile::TempDir,
    data_dir: PathBuf,
    port: u16,
    binaries: PathBuf,
    run_as: Option<String>,
}

impl TempPostgres {
    /// Starts a new server, or connects to `REGISTRY_TEST_POSTGRES_URL` when it is set.
    pub fn start() -> Result<TempPostgres> {
        if let Ok(url) = env::var(POSTGRES_URL_ENV) {
            let url = url.trim().to_owned();
            if !url.is_empty() {
                let server = TempPostgres {
                    admin_url: url,
                    local: None,
                };
                server
                    .psql(&server.admin_url, "SELECT 1")
                    .with_context(|| {
                        format!("failed to reach the server of `{POSTGRES_URL_ENV}`")
                    })?;
                return Ok(server);
            }
        }
        let binaries = find_server_binaries()?;
        let run_as = if running_as_root() {
            Some(UNPRIVILEGED_USER.to_owned())
        } else {
            None
        };
        let mut last_error = None;
        for _ in 0..START_ATTEMPTS {
            match LocalServer::start(&binaries, run_as.clone()) {
                Ok(local) => {
                    let admin_url =
                        format!("postgres://{SUPERUSER}@127.0.0.1:{}/postgres", local.port);
                    return Ok(TempPostgres {
                        admin_url,
                        local: Some(local),
                    });
                }
                Err(error) => last_error = Some(error),
            }
        }
        Err(last_error.unwrap_or_else(|| anyhow::anyhow!("failed to start PostgreSQL")))
    }

    /// URL of the server's maintenance database.
    pub fn url(&self) -> &str {
        &self.admin_url
    }

    /// Port of a server this process started (None for an external server).
    pub fn port(&self) -> Option<u16> {
        self.local.as_ref().map(|local| local.port)
    }

    /// Creates a new empty database whose name starts with `name` and returns its URL.
    ///
    /// # Panics
    ///
    /// When the database cannot be created; tests want the failure at the call site.
    pub fn fresh_database(&self, name: &str) -> String {
        match self.try_fresh_database(name) {
            Ok(url) => url,
            Err(error) => panic!("failed to create a test database: {error:#}"),
        }
    }

    /// Creates a new empty database whose name starts with `name` and returns its URL.
    pub fn try_fresh_database(&self, name: &str) -> Result<String> {
        let database = unique_database_name(name);
        self.psql(
            &self.admin_url,
            &format!("CREATE DATABASE \"{database}\" TEMPLATE template0 ENCODING 'UTF8'"),
        )
        .with_context(|| format!("failed to create database `{database}`"))?;
        Ok(with_database(&self.admin_url, &database))
    }

    /// Runs one SQL statement with `psql` and returns its unaligned output.
    pub fn psql(&self, url: &str, sql: &str) -> Result<String> {
        let psql = find_binary("psql")?;
        let output = Command::new(&psql)
            .args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                url,
                "-c",
                sql,
            ])
            .env_remove("PGPASSFILE")
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("failed to run `{}`", psql.display()))?;
        check(&output, "psql")?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }

    /// The server log of a local server, for diagnosing failed tests.
    pub fn log(&self) -> Option<String> {
        let local = self.local.as_ref()?;
        fs::read_to_string(local.root.path().join("postgres.log")).ok()
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        if let Some(local) = &self.local {
            local.stop();
        }
    }
}

impl LocalServer {
    fn start(binaries: &Path, run_as: Option<String>) -> Result<LocalServer> {
        let root = tempfile::Builder::new()
            .prefix("registry-pg-")
            .tempdir()
            .context("failed to create a temp dir for PostgreSQL")?;
        let data_dir = root.path().join("data");
        if let Some(user) = &run_as {
            hand_over(root.path(), user)?;
        }
        let port = free_port()?;
        let server = LocalServer {
            root,
            data_dir,
            port,
            binaries: binaries.to_owned(),
            run_as,
        };
        server.init()?;
        server.launch()?;
        Ok(server)
    }

    fn command(&self, program: &str) -> Command {
        let binary = self.binaries.join(program);
        let mut command = match &self.run_as {
            Some(user) => privilege_drop_command(user, &binary),
            None => Command::new(binary),
        };
        command
            .current_dir(self.root.path())
            .env("LC_ALL", "C")
            .env_remove("PGDATA")
            .stdin(Stdio::null());
        command
    }

    fn init(&self) -> Result<()> {
        let output = self
            .command("initdb")
            .arg("-D")
            .arg(&self.data_dir)
            .args([
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ])
            .output()
            .context("failed to run `initdb`")?;
        check(&output, "initdb")
    }

    fn launch(&self) -> Result<()> {
        let socket_dir = self.root.path();
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={socket} \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
             -c shared_buffers=32MB -c max_connections=400 -c max_wal_size=256MB \
             -c log_min_messages=warning",
            port = self.port,
            socket = socket_dir.display(),
        );
        let log = self.root.path().join("postgres.log");
        let output = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data_dir)
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "60", "-o", &options, "start"])
            .output()
            .context("failed to run `pg_ctl start`")?;
        if let Err(error) = check(&output, "pg_ctl start") {
            let log = fs::read_to_string(&log).unwrap_or_default();
            bail!("{error:#}\nserver log:\n{log}");
        }
        self.start_watchdog()
    }

    /// Starts a detached shell that stops the server once this test process is gone.
    fn start_watchdog(&self) -> Result<()> {
        let postmaster = self.postmaster_pid()?;
        let script = r#"
            while kill -0 "$1" 2>/dev/null; do sleep 0.5; done
            kill -QUIT "$2" 2>/dev/null
            for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$2" 2>/dev/null || break; sleep 0.2; done
            kill -KILL "$2" 2>/dev/null
            rm -rf "$3"
        "#;
        Command::new("sh")
            .args(["-c", script, "registry-pg-watchdog"])
            .arg(std::process::id().to_string())
            .arg(postmaster.to_string())
            .arg(self.root.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("failed to start the PostgreSQL watchdog")?;
        Ok(())
    }

    fn postmaster_pid(&self) -> Result<u32> {
        let pid_file = self.data_dir.join("postmaster.pid");
        let content = fs::read_to_string(&pid_file)
            .with_context(|| format!("failed to read `{}`", pid_file.display()))?;
        let first = content.lines().next().unwrap_or_default().trim();
        first
            .parse()
            .with_context(|| format!("invalid pid `{first}` in `{}`", pid_file.display()))
    }

    fn stop(&self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data_dir)
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// A command that runs `binary` as `user`: `setpriv` when present, else `runuser`.
fn privilege_drop_command(user: &str, binary: &Path) -> Command {
    if find_on_path("setpriv").is_some() {
        let mut command = Command::new("setpriv");
        command
            .arg(format!("--reuid={user}"))
            .arg(format!("--regid={}", primary_group(user)))
            .arg("--clear-groups")
            .arg("--")
            .arg(binary);
        command
    } else {
        let mut command = Command::new("runuser");
        command.args(["-u", user, "--"]).arg(binary);
        command
    }
}

fn primary_group(user: &str) -> String {
    Command::new("id")
        .args(["-g", user])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_else(|| "65534".to_owned())
}

/// Gives the temp dir to the unprivileged server user.
fn hand_over(dir: &Path, user: &str) -> Result<()> {
    let id = |flag: &str| -> Result<u32> {
        let output = Command::new("id")
            .args([flag, user])
            .output()
            .context("failed to run `id`")?;
        check(&output, "id")?;
        let text = String::from_utf8_lossy(&output.stdout);
        text.trim()
            .parse()
            .with_context(|| format!("invalid id `{}` for user `{user}`", text.trim()))
    };
    let (uid, gid) = (id("-u")?, id("-g")?);
    std::os::unix::fs::chown(dir, Some(uid), Some(gid))
        .with_context(|| format!("failed to hand `{}` to `{user}`", dir.display()))?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
        .with_context(|| format!("failed to set permissions on `{}`", dir.display()))?;
    Ok(())
}

fn running_as_root() -> bool {
    if let Ok(status) = fs::read_to_string("/proc/self/status") {
        for line in status.lines() {
            if let Some(ids) = line.strip_prefix("Uid:") {
                // real, effective, saved, filesystem
                return ids.split_whitespace().nth(1) == Some("0");
            }
        }
    }
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

fn free_port() -> Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .context("failed to find a free loopback port")?;
    Ok(listener.local_addr()?.port())
}

/// Directory of `initdb` and `pg_ctl`: PATH first, then the newest Debian-style
/// `/usr/lib/postgresql/*/bin`.
fn find_server_binaries() -> Result<PathBuf> {
    if let Some(initdb) = find_on_path("initdb") {
        let resolved = fs::canonicalize(&initdb).unwrap_or(initdb);
        if let Some(dir) = resolved.parent()
            && dir.join("pg_ctl").exists()
        {
            return Ok(dir.to_owned());
        }
    }
    if let Some(dir) = newest_versioned_bin_dir("initdb") {
        return Ok(dir);
    }
    bail!(
        "PostgreSQL server binaries (`initdb`, `pg_ctl`) were not found on PATH or under \
         `/usr/lib/postgresql/*/bin`\nhint: install the PostgreSQL server package \
         (e.g. `apt-get install postgresql`) or set `{POSTGRES_URL_ENV}` to an existing server"
    )
}

fn find_binary(name: &str) -> Result<PathBuf> {
    if let Some(path) = find_on_path(name) {
        return Ok(path);
    }
    if let Some(dir) = newest_versioned_bin_dir(name) {
        return Ok(dir.join(name));
    }
    bail!("`{name}` was not found on PATH or under `/usr/lib/postgresql/*/bin`")
}

fn newest_versioned_bin_dir(binary: &str) -> Option<PathBuf> {
    let mut candidates: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let version = entry.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join(binary).exists().then_some((version, bin))
        })
        .collect();
    candidates.sort();
    candidates.pop().map(|(_, bin)| bin)
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn check(output: &Output, what: &str) -> Result<()> {
    if output.status.success() {
        return Ok(());
    }
    bail!(
        "`{what}` failed with {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout).trim(),
        String::from_utf8_lossy(&output.stderr).trim()
    )
}

fn unique_database_name(name: &str) -> String {
    let mut prefix: String = name
        .chars()
        .map(|character| {
            if character.is_ascii_alphanumeric() {
                character.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(32)
        .collect();
    if prefix.is_empty() || prefix.starts_with(|character: char| character.is_ascii_digit()) {
        prefix.insert_str(0, "db_");
    }
    let counter = DATABASE_COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.subsec_nanos())
        .unwrap_or_default();
    format!("{prefix}_{}_{counter}_{nanos:x}", std::process::id())
}

/// `url` with its database path replaced by `database`, query string kept.
fn with_database(url: &str, database: &str) -> String {
    let (without_query, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let authority_start = without_query.find("://").map_or(0, |at| at + 3);
    let base = match without_query[authority_start..].find('/') {
        Some(slash) => &without_query[..authority_start + slash],
        None => without_query,
    };
    match query {
        Some(query) => format!("{base}/{database}?{query}"),
        None => format!("{base}/{database}"),
    }
}
