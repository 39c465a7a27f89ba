//! End to end with a client nobody here wrote: the published `clawhub` CLI (npm
//! `clawhub@0.23.3`) drives our registry, started in-process on `127.0.0.1:0`, once over
//! SQLite and once over a throwaway PostgreSQL.
//!
//! The CLI is installed with npm into `target/e2e-cache/clawhub-0.23.3` (reused when
//! present; `CLAWHUB_E2E_CACHE` moves it). Without node/npm, or when npm cannot install
//! it, the tests fail with the reason: they never skip.
//!
//! Every CLI call runs with its own `HOME`, a config file per user
//! (`CLAWHUB_CONFIG_PATH`), `CLAWHUB_REGISTRY`/`CLAWHUB_SITE` pointing at the server and
//! no proxy. The server records every HTTP exchange; when a step fails, the panic shows
//! the command, its exit status, stdout, stderr and the exchanges it caused.

#[path = "../registry/tests/support/postgres.rs"]
mod postgres;

use std::fmt::Write as _;
use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;

use anyhow::{Context as _, Result, bail};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::Response;
use registry::app::AppState;
use registry::config::Config;
use registry::db::Role;
use serde_json::Value;

/// The CLI release the registry must stay compatible with.
const CLAWHUB_VERSION: &str = "0.23.3";

/// Largest body kept verbatim in the exchange log.
const LOGGED_BODY_BYTES: usize = 2048;

#[test]
fn clawhub_cli_against_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("registry.db").display()
    );
    scenario(&url);
}

#[test]
fn clawhub_cli_against_postgres() {
    let server = postgres::shared().expect("throwaway PostgreSQL starts");
    let url = server.fresh_database("clawhub_e2e");
    scenario(&url);
}

/// The whole user story of the issue, step by step.
fn scenario(database_url: &str) {
    let cli = clawhub_binary();
    let registry = RunningRegistry::start(database_url).expect("registry starts");
    let work = tempfile::tempdir().expect("temp dir");
    let home = work.path().join("home");
    fs::create_dir_all(&home).expect("home dir");
    let alice = Clawhub {
        cli: cli.clone(),
        registry: &registry,
        home: home.clone(),
        config: work.path().join("alice.json"),
    };
    let anonymous = Clawhub {
        config: work.path().join("nobody.json"),
        ..alice.clone()
    };

    // the binary is the release we target
    let version = alice.run(&["--cli-version"]);
    assert_eq!(version.stdout.trim(), CLAWHUB_VERSION);

    // logging in: no token, a wrong token, the right token
    let not_logged_in = anonymous.run_failing(&["whoami"]);
    assert!(
        not_logged_in.stderr.contains("Not logged in"),
        "{not_logged_in}"
    );
    let wrong = alice.run_failing(&[
        "login",
        "--token",
        "clh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "--no-input",
    ]);
    assert!(
        wrong.stderr.contains("API token is invalid or revoked"),
        "the server's 401 text reaches the user\n{wrong}"
    );
    // The CLI caches the registry URL in its config before verifying the token, so the
    // file may exist; what matters is that the refused token was not saved.
    if let Ok(text) = fs::read_to_string(&alice.config) {
        let config: Value = serde_json::from_str(&text).expect("config is JSON");
        assert!(
            config.get("token").is_none_or(Value::is_null),
            "a failed login stores no token: {text}"
        );
    }
    let login = alice.run(&["login", "--token", &registry.alice_token, "--no-input"]);
    assert!(login.stdout.contains("OK. Logged in as @alice."), "{login}");
    let config: Value = serde_json::from_str(
        &fs::read_to_string(&alice.config).expect("login wrote the config file"),
    )
    .expect("config is JSON");
    assert_eq!(config["token"], registry.alice_token.as_str());
    let whoami = alice.run(&["whoami"]);
    assert!(whoami.stdout.contains("alice"), "{whoami}");

    // publish a skill folder (the dotfile stays local)
    let skill_dir = work.path().join("demo-skill");
    copy_dir(&fixture("demo-skill"), &skill_dir).expect("copy the fixture skill");
    let published = alice.run(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--slug",
        "demo-skill",
        "--name",
        "Demo Skill",
        "--version",
        "1.0.0",
        "--changelog",
        "Initial",
        "--tags",
        "latest,stable",
        "--json",
    ]);
    let result = published.json();
    assert_eq!(result["status"], "published", "{published}");
    assert_eq!(result["version"], "1.0.0", "{published}");
    assert_eq!(result["fileCount"], 2, "{published}");
    assert!(
        registry
            .exchanges_since(published.first_exchange)
            .iter()
            .filter(|line| line.contains("POST /api/v1/skills/-/upload-url"))
            .count()
            == 2,
        "one upload ticket per file\n{published}"
    );

    // publishing unchanged content is recognised through the fingerprint
    let unchanged = alice.run(&["skill", "publish", path_arg(&skill_dir)]);
    assert!(
        unchanged
            .stdout
            .contains("OK. demo-skill@1.0.0 is already published"),
        "{unchanged}"
    );
    assert!(
        !unchanged
            .exchanges()
            .iter()
            .any(|line| line.contains("upload")),
        "nothing is uploaded again\n{unchanged}"
    );

    // search and browse, logged in and anonymously
    for user in [&alice, &anonymous] {
        let search = user.run(&["search", "demo"]);
        assert!(search.stdout.contains("demo-skill v1.0.0"), "{search}");
        assert!(search.stdout.contains("@alice"), "{search}");
        let exact = user.run(&["search", "demo-skill", "--exact"]);
        assert!(exact.stdout.contains("demo-skill"), "{exact}");
    }
    let prefix = anonymous.run(&["search", "demo", "--prefix"]);
    assert!(prefix.stdout.contains("demo-skill"), "{prefix}");
    let explore = anonymous.run(&["explore", "--json"]);
    let listing = explore.json();
    let items = listing["items"].as_array().expect("items array");
    assert!(
        items.iter().any(|item| item["slug"] == "demo-skill"),
        "{explore}"
    );
    anonymous.run(&["explore", "--sort", "downloads"]);

    // inspect: metadata, file list, one file's bytes, versions
    let inspect = anonymous.run(&["inspect", "demo-skill", "--json"]);
    let detail = inspect.json();
    assert_eq!(detail["skill"]["tags"]["latest"], "1.0.0", "{inspect}");
    assert_eq!(detail["skill"]["tags"]["stable"], "1.0.0", "{inspect}");
    assert_eq!(detail["owner"]["handle"], "alice", "{inspect}");
    let files = alice.run(&["inspect", "demo-skill", "--files"]);
    assert!(files.stdout.contains("scripts/run.sh"), "{files}");
    assert!(files.stdout.contains("SKILL.md"), "{files}");
    assert!(!files.stdout.contains(".notes"), "{files}");
    let one_file = anonymous.run(&["inspect", "demo-skill", "--file", "scripts/run.sh"]);
    let run_sh = fs::read_to_string(skill_dir.join("scripts/run.sh")).expect("fixture file");
    assert!(one_file.stdout.contains(run_sh.trim_end()), "{one_file}");
    alice.run(&[
        "inspect",
        "@alice/demo-skill",
        "--tag",
        "stable",
        "--versions",
    ]);

    // install into a temp workdir: files byte-identical to the published folder
    let install_dir = work.path().join("install");
    fs::create_dir_all(&install_dir).expect("install dir");
    let install = alice.run(&["--workdir", path_arg(&install_dir), "install", "demo-skill"]);
    assert!(
        install.stdout.contains("Installed demo-skill v1.0.0"),
        "{install}"
    );
    let installed = install_dir.join("skills/demo-skill");
    assert_same_files(&skill_dir, &installed);
    assert!(
        installed.join("_meta.json").is_file(),
        "the archive carries `_meta.json`"
    );
    assert!(
        !installed.join(".notes").exists(),
        "dotfiles are never published"
    );
    let lock: Value = serde_json::from_str(
        &fs::read_to_string(install_dir.join(".clawhub/lock.json")).expect("lock file"),
    )
    .expect("lock is JSON");
    assert_eq!(lock["skills"]["demo-skill"]["version"], "1.0.0");
    let list = alice.run(&["--workdir", path_arg(&install_dir), "list"]);
    assert!(list.stdout.contains("demo-skill"), "{list}");

    // a second version, then update the installed copy
    let mut skill_md = fs::read_to_string(skill_dir.join("SKILL.md")).expect("SKILL.md");
    skill_md.push_str("\n## Goodbye\n\nSay goodbye when the user leaves.\n");
    fs::write(skill_dir.join("SKILL.md"), &skill_md).expect("edit SKILL.md");
    let second = alice.run(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--version",
        "1.1.0",
        "--changelog",
        "Add goodbye",
        "--json",
    ]);
    assert_eq!(second.json()["version"], "1.1.0", "{second}");
    let versions = anonymous.run(&["inspect", "demo-skill", "--versions"]);
    let newer = versions.stdout.find("1.1.0");
    let older = versions.stdout.find("1.0.0");
    assert!(
        matches!((newer, older), (Some(newer), Some(older)) if newer < older),
        "both versions, newest first\n{versions}"
    );
    let update = alice.run(&["--workdir", path_arg(&install_dir), "update", "demo-skill"]);
    assert!(
        update.stdout.contains("Updated demo-skill -> v1.1.0"),
        "{update}"
    );
    assert_same_files(&skill_dir, &installed);
    let again = alice.run(&["--workdir", path_arg(&install_dir), "update", "--all"]);
    assert!(again.stdout.contains("up to date"), "{again}");

    // unchanged content after the second version is recognised too
    let unchanged = alice.run(&["skill", "publish", path_arg(&skill_dir)]);
    assert!(
        unchanged
            .stdout
            .contains("OK. demo-skill@1.1.0 is already published"),
        "{unchanged}"
    );

    // the scanner's verdict reaches the CLI: a suspicious skill needs --force
    let risky_dir = work.path().join("risky-skill");
    copy_dir(&fixture("risky-skill"), &risky_dir).expect("copy the risky fixture");
    alice.run(&[
        "skill",
        "publish",
        path_arg(&risky_dir),
        "--version",
        "1.0.0",
    ]);
    let refused = alice.run_failing(&[
        "--workdir",
        path_arg(&install_dir),
        "install",
        "risky-skill",
    ]);
    assert!(
        refused.stderr.contains("suspicious") || refused.stdout.contains("suspicious"),
        "{refused}"
    );
    let forced = alice.run(&[
        "--workdir",
        path_arg(&install_dir),
        "install",
        "risky-skill",
        "--force",
    ]);
    assert!(forced.stdout.contains("Installed risky-skill"), "{forced}");

    registry.stop();
}

/// A CLI identity: one config file (token) and one home directory.
#[derive(Clone)]
struct Clawhub<'r> {
    cli: PathBuf,
    registry: &'r RunningRegistry,
    home: PathBuf,
    config: PathBuf,
}

/// What one CLI call did.
struct Run<'r> {
    command: String,
    status: std::process::ExitStatus,
    stdout: String,
    stderr: String,
    registry: &'r RunningRegistry,
    first_exchange: usize,
}

impl Run<'_> {
    fn exchanges(&self) -> Vec<String> {
        self.registry.exchanges_since(self.first_exchange)
    }

    fn json(&self) -> Value {
        match serde_json::from_str(&self.stdout) {
            Ok(value) => value,
            Err(error) => panic!("stdout is not JSON ({error})\n{self}"),
        }
    }
}

impl std::fmt::Display for Run<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(formatter, "$ {}", self.command)?;
        writeln!(formatter, "exit: {}", self.status)?;
        writeln!(formatter, "--- stdout\n{}", self.stdout.trim_end())?;
        writeln!(formatter, "--- stderr\n{}", self.stderr.trim_end())?;
        writeln!(formatter, "--- HTTP exchanges")?;
        for line in self.exchanges() {
            writeln!(formatter, "{line}")?;
        }
        Ok(())
    }
}

impl<'r> Clawhub<'r> {
    fn output(&self, args: &[&str]) -> Run<'r> {
        let first_exchange = self.registry.exchange_count();
        let base = self.registry.base_url.as_str();
        let mut command = Command::new(&self.cli);
        command
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("CLAWHUB_CONFIG_PATH", &self.config)
            .env("CLAWHUB_REGISTRY", base)
            .env("CLAWHUB_SITE", base)
            .env("NO_COLOR", "1")
            .env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost")
            .current_dir(&self.home)
            .stdin(Stdio::null());
        let Output {
            status,
            stdout,
            stderr,
        } = match command.output() {
            Ok(output) => output,
            Err(error) => panic!("failed to run `{}`: {error}", self.cli.display()),
        };
        Run {
            command: format!("clawhub {}", args.join(" ")),
            status,
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            registry: self.registry,
            first_exchange,
        }
    }

    /// Runs the CLI and requires success.
    fn run(&self, args: &[&str]) -> Run<'r> {
        let run = self.output(args);
        assert!(run.status.success(), "the CLI failed\n{run}");
        run
    }

    /// Runs the CLI and requires exit status 1 (the CLI's error status).
    fn run_failing(&self, args: &[&str]) -> Run<'r> {
        let run = self.output(args);
        assert_eq!(
            run.status.code(),
            Some(1),
            "the CLI should have failed\n{run}"
        );
        run
    }
}

/// The registry running in its own thread and runtime, with an HTTP exchange log.
struct RunningRegistry {
    base_url: String,
    alice_token: String,
    log: Arc<Mutex<Vec<String>>>,
    shutdown: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Mutex<Option<thread::JoinHandle<Result<()>>>>,
    _storage: tempfile::TempDir,
}

impl RunningRegistry {
    fn start(database_url: &str) -> Result<RunningRegistry> {
        let storage = tempfile::tempdir().context("failed to create the storage dir")?;
        let storage_dir = storage.path().to_owned();
        let database_url = database_url.to_owned();
        let log = Arc::new(Mutex::new(Vec::new()));
        let server_log = Arc::clone(&log);
        let (ready_sender, ready) = std::sync::mpsc::channel::<Result<(String, String)>>();
        let (shutdown_sender, shutdown) = tokio::sync::oneshot::channel::<()>();
        let thread = thread::spawn(move || -> Result<()> {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .context("failed to build the server runtime")?;
            runtime.block_on(async move {
                let started = async {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                        .await
                        .context("failed to bind 127.0.0.1:0")?;
                    let address = listener.local_addr()?;
                    let base_url = format!("http://{address}");
                    let mut config = Config::for_tests(&database_url, storage_dir)?;
                    config.public_url = Some(base_url.clone());
                    let state = AppState::new(config).await?;
                    let token =
                        registry::tokens::create_token(state.store.as_ref(), "alice", Role::User)
                            .await?;
                    Ok::<_, anyhow::Error>((listener, state, base_url, token))
                };
                let (listener, state, base_url, token) = match started.await {
                    Ok(started) => started,
                    Err(error) => {
                        let message = format!("{error:#}");
                        let _ = ready_sender.send(Err(error));
                        bail!("registry failed to start: {message}");
                    }
                };
                let app = registry::router(state)
                    .layer(middleware::from_fn_with_state(server_log, record_exchange));
                let _ = ready_sender.send(Ok((base_url, token)));
                axum::serve(
                    listener,
                    app.into_make_service_with_connect_info::<SocketAddr>(),
                )
                .with_graceful_shutdown(async move {
                    let _ = shutdown.await;
                })
                .await
                .context("the registry server failed")
            })
        });
        let (base_url, alice_token) = ready
            .recv()
            .context("the registry thread ended before it was ready")??;
        Ok(RunningRegistry {
            base_url,
            alice_token,
            log,
            shutdown: Mutex::new(Some(shutdown_sender)),
            thread: Mutex::new(Some(thread)),
            _storage: storage,
        })
    }

    fn exchange_count(&self) -> usize {
        self.log.lock().map(|log| log.len()).unwrap_or_default()
    }

    fn exchanges_since(&self, first: usize) -> Vec<String> {
        self.log
            .lock()
            .map(|log| log.get(first..).unwrap_or_default().to_vec())
            .unwrap_or_default()
    }

    fn stop(&self) {
        if let Some(sender) = self.shutdown.lock().ok().and_then(|mut slot| slot.take()) {
            let _ = sender.send(());
        }
        if let Some(handle) = self.thread.lock().ok().and_then(|mut slot| slot.take()) {
            match handle.join() {
                Ok(Ok(())) => {}
                Ok(Err(error)) => panic!("the registry stopped with an error: {error:#}"),
                Err(_) => panic!("the registry thread panicked"),
            }
        }
    }
}

impl Drop for RunningRegistry {
    fn drop(&mut self) {
        if let Some(sender) = self.shutdown.lock().ok().and_then(|mut slot| slot.take()) {
            let _ = sender.send(());
        }
    }
}

/// Middleware that writes one line per request: method, URI, auth presence, status and
/// both bodies (abridged), so a failing CLI step can show exactly what went over the wire.
async fn record_exchange(
    State(log): State<Arc<Mutex<Vec<String>>>>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let authorized = request.headers().contains_key(header::AUTHORIZATION);
    let request_type = content_type(request.headers());
    let (parts, body) = request.into_parts();
    let request_bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let request_text = abridge(&request_type, &request_bytes);
    let response = next
        .run(Request::from_parts(parts, Body::from(request_bytes)))
        .await;
    let status = response.status();
    let response_type = content_type(response.headers());
    let (parts, body) = response.into_parts();
    let response_bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let mut line = format!(
        "{method} {uri}{} -> {status}",
        if authorized { " [bearer]" } else { "" }
    );
    if !request_text.is_empty() {
        let _ = write!(line, "\n    > {request_text}");
    }
    let _ = write!(line, "\n    < {}", abridge(&response_type, &response_bytes));
    if let Ok(mut log) = log.lock() {
        log.push(line);
    }
    Response::from_parts(parts, Body::from(response_bytes))
}

fn content_type(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_owned()
}

fn abridge(content_type: &str, bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return String::new();
    }
    let textual = content_type.starts_with("text/")
        || content_type.contains("json")
        || content_type.is_empty();
    match std::str::from_utf8(bytes) {
        Ok(text) if textual => {
            let mut text = text.replace('\n', "\\n");
            if text.len() > LOGGED_BODY_BYTES {
                let mut cut = LOGGED_BODY_BYTES;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
                text.push('…');
            }
            format!("[{content_type}] {text}")
        }
        _ => format!("[{content_type}] {} bytes", bytes.len()),
    }
}

/// Path of the `clawhub` binary, installing the pinned release with npm on first use.
fn clawhub_binary() -> PathBuf {
    static BINARY: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    let binary = BINARY.get_or_init(|| install_clawhub().map_err(|error| format!("{error:#}")));
    match binary {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "the end-to-end test needs the real `clawhub@{CLAWHUB_VERSION}` CLI: {message}\n\
             hint: install Node.js 22+ with npm and make sure `npm install clawhub@{CLAWHUB_VERSION}` \
             can reach the npm registry (`.ci/run` does both)"
        ),
    }
}

fn install_clawhub() -> Result<PathBuf> {
    let cache_root = match std::env::var_os("CLAWHUB_E2E_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e-cache"),
    };
    let prefix = cache_root.join(format!("clawhub-{CLAWHUB_VERSION}"));
    let binary = prefix.join("node_modules/.bin/clawhub");
    if installed_version(&prefix).as_deref() == Some(CLAWHUB_VERSION) && binary.exists() {
        return Ok(binary);
    }
    let node = Command::new("node").arg("--version").output();
    match node {
        Ok(output) if output.status.success() => {}
        Ok(output) => bail!("`node --version` failed with {}", output.status),
        Err(error) => bail!("`node` is not installed or not on PATH ({error})"),
    }
    fs::create_dir_all(&cache_root)
        .with_context(|| format!("failed to create `{}`", cache_root.display()))?;
    // install next to the cache and rename, so a concurrent or interrupted run never
    // sees half an installation
    let staging = tempfile::Builder::new()
        .prefix("clawhub-install-")
        .tempdir_in(&cache_root)
        .context("failed to create the npm staging dir")?;
    let output = Command::new("npm")
        .args(["install", "--prefix"])
        .arg(staging.path())
        .arg(format!("clawhub@{CLAWHUB_VERSION}"))
        .args(["--no-audit", "--no-fund", "--no-save", "--loglevel=error"])
        .stdin(Stdio::null())
        .output()
        .context("`npm` is not installed or not on PATH")?;
    if !output.status.success() {
        bail!(
            "`npm install clawhub@{CLAWHUB_VERSION}` failed with {}\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout).trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let staged = staging.keep();
    if installed_version(&prefix).as_deref() != Some(CLAWHUB_VERSION) {
        let _ = fs::remove_dir_all(&prefix);
        if let Err(error) = fs::rename(&staged, &prefix) {
            // another test process may have won the race with a complete install
            if installed_version(&prefix).as_deref() != Some(CLAWHUB_VERSION) {
                return Err(error).with_context(|| {
                    format!("failed to move the CLI into `{}`", prefix.display())
                });
            }
        }
    }
    let _ = fs::remove_dir_all(&staged);
    if !binary.exists() {
        bail!(
            "npm installed clawhub but `{}` is missing",
            binary.display()
        );
    }
    Ok(binary)
}

fn installed_version(prefix: &Path) -> Option<String> {
    let manifest = fs::read_to_string(prefix.join("node_modules/clawhub/package.json")).ok()?;
    let manifest: Value = serde_json::from_str(&manifest).ok()?;
    manifest["version"].as_str().map(str::to_owned)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/skills")
        .join(name)
}

fn path_arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("failed to create `{}`", to.display()))?;
    for entry in
        fs::read_dir(from).with_context(|| format!("failed to read `{}`", from.display()))?
    {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("failed to copy `{}`", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Every publishable file of `source` (dotfiles excluded, as the CLI excludes them) exists
/// in `installed` with the same bytes.
fn assert_same_files(source: &Path, installed: &Path) {
    let mut files = Vec::new();
    collect_files(source, Path::new(""), &mut files);
    assert!(!files.is_empty());
    for relative in files {
        let expected = fs::read(source.join(&relative)).expect("source file");
        let actual = fs::read(installed.join(&relative))
            .unwrap_or_else(|error| panic!("`{}` was not installed: {error}", relative.display()));
        assert!(
            expected == actual,
            "`{}` differs between the published folder and the installed copy",
            relative.display()
        );
    }
}

fn collect_files(root: &Path, relative: &Path, files: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(root.join(relative)).expect("readable dir");
    for entry in entries {
        let entry = entry.expect("dir entry");
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = relative.join(&name);
        if entry.file_type().expect("file type").is_dir() {
            collect_files(root, &path, files);
        } else {
            files.push(path);
        }
    }
}
