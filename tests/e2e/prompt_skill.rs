//! A prompt skill from nothing to installed: `promptset skill init`, `pack` and `publish`
//! against a fresh registry started in-process, then `clawhub install` (the published
//! npm CLI) of it with byte-identical files. Publishing again unchanged is recognised by
//! fingerprint and uploads nothing; a bumped version is published; a wrong token gets the
//! server's refusal; and a registry with a write limit of one per minute answers 429,
//! which the CLI waits out (Retry-After plus jitter) and then publishes.
//!
//! The `clawhub` CLI is installed with npm into `target/e2e-cache/clawhub-0.23.3`, the
//! same cache `clawhub_cli.rs` uses; without node/npm the test fails with the reason.

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result, bail};
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use registry::app::AppState;
use registry::config::{Config, RateLimit};
use registry::db::Role;
use serde_json::Value;

const CLAWHUB_VERSION: &str = "0.23.3";

#[test]
fn prompt_skill_from_init_to_install() {
    let registry = Registry::start(None).expect("registry starts");
    let work = tempfile::tempdir().expect("temp dir");
    let dir = work.path().join("geo-prompts");
    let skill = path_arg(&dir);

    let init = promptset(work.path(), &["skill", "init", skill]);
    init.success();
    let pack = promptset(work.path(), &["skill", "pack", skill, "-o", "bundle.zip"]);
    pack.success();
    assert!(work.path().join("bundle.zip").is_file(), "{pack}");

    // first publish: a new version and its canonical page
    let first = registry.publish(work.path(), skill);
    first.success();
    assert!(
        first.stdout.contains("published geo-prompts@1.0.0"),
        "{first}"
    );
    assert!(
        first
            .stdout
            .contains(&format!("{}/alice/geo-prompts", registry.base_url)),
        "the canonical URL is reported\n{first}"
    );
    assert_eq!(registry.writes(), 1, "one multipart publish request");

    // the real clawhub CLI installs it with the very same bytes
    let install_dir = work.path().join("install");
    fs::create_dir_all(&install_dir).expect("install dir");
    let install = clawhub(
        &registry,
        work.path(),
        &[
            "--workdir",
            path_arg(&install_dir),
            "install",
            "geo-prompts",
        ],
    );
    install.success();
    assert!(
        install.stdout.contains("Installed geo-prompts v1.0.0"),
        "{install}"
    );
    assert_same_files(&dir, &install_dir.join("skills/geo-prompts"));

    // unchanged: recognised by fingerprint, nothing uploaded
    let again = registry.publish(work.path(), skill);
    again.success();
    assert!(
        again.stdout.contains("already published as 1.0.0"),
        "{again}"
    );
    assert_eq!(registry.writes(), 1, "nothing uploaded\n{again}");

    // changed files under the same version: refused before any upload
    let skill_md = dir.join("SKILL.md");
    let text = fs::read_to_string(&skill_md).expect("SKILL.md");
    fs::write(
        &skill_md,
        format!("{text}\n## Notes\n\nReview sets monthly.\n"),
    )
    .expect("edit");
    let same_version = registry.publish(work.path(), skill);
    assert_eq!(same_version.code, 1, "{same_version}");
    assert!(
        same_version
            .stderr
            .contains("version 1.0.0 of `geo-prompts` is already published"),
        "{same_version}"
    );
    assert_eq!(registry.writes(), 1, "nothing uploaded\n{same_version}");

    // bump the version: published, and clawhub sees the new one
    let text = fs::read_to_string(&skill_md).expect("SKILL.md");
    fs::write(
        &skill_md,
        text.replacen("version: 1.0.0", "version: 1.1.0", 1),
    )
    .expect("bump");

    // a refused token (the new version gets past resolve): the status and the server's own text reach the user
    let refused = promptset(
        work.path(),
        &[
            "skill",
            "publish",
            skill,
            "--registry",
            &registry.base_url,
            "--token",
            "clh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ],
    );
    assert_eq!(refused.code, 2, "{refused}");
    assert!(refused.stderr.contains("status 401"), "{refused}");
    assert!(
        refused.stderr.contains("API token is invalid or revoked"),
        "{refused}"
    );

    let bumped = registry.publish(work.path(), skill);
    bumped.success();
    assert!(
        bumped.stdout.contains("published geo-prompts@1.1.0"),
        "{bumped}"
    );
    let update = clawhub(
        &registry,
        work.path(),
        &["--workdir", path_arg(&install_dir), "update", "geo-prompts"],
    );
    update.success();
    assert_same_files(&dir, &install_dir.join("skills/geo-prompts"));

    registry.stop();
}

#[test]
fn rate_limited_publish_waits_for_retry_after() {
    let registry = Registry::start(Some(RateLimit {
        anonymous: 1,
        user: 1,
    }))
    .expect("registry starts");
    let work = tempfile::tempdir().expect("temp dir");
    let dir = work.path().join("limited-skill");
    let skill = path_arg(&dir);
    promptset(work.path(), &["skill", "init", skill]).success();

    // The limiter counts per calendar minute: start both publishes early in one minute,
    // so the second is refused rather than landing in a fresh window.
    let second_of_minute = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs()
        % 60;
    if second_of_minute > 40 {
        thread::sleep(Duration::from_secs(61 - second_of_minute));
    }
    registry.publish(work.path(), skill).success();
    let skill_md = dir.join("SKILL.md");
    let text = fs::read_to_string(&skill_md).expect("SKILL.md");
    fs::write(
        &skill_md,
        text.replacen("version: 1.0.0", "version: 1.0.1", 1),
    )
    .expect("bump");
    let limited = registry.publish(work.path(), skill);
    limited.success();
    assert!(
        limited
            .stderr
            .contains("the registry is rate limiting; retry 1 in"),
        "{limited}"
    );
    assert!(
        limited.stdout.contains("published limited-skill@1.0.1"),
        "{limited}"
    );
    let statuses = registry.write_statuses();
    assert_eq!(statuses, [200, 429, 200], "publish, refused, retried");
    registry.stop();
}

/// What one run of a CLI gave.
struct Run {
    command: String,
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn success(&self) {
        assert_eq!(self.code, 0, "the command failed\n{self}");
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "$ {}\nexit {}\n--- stdout\n{}\n--- stderr\n{}",
            self.command, self.code, self.stdout, self.stderr
        )
    }
}

fn run(mut command: Command, label: String) -> Run {
    let output = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|error| panic!("failed to run `{label}`: {error}"));
    Run {
        command: label,
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn promptset(dir: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(promptset_binary());
    command
        .args(args)
        .current_dir(dir)
        .env_remove("PROMPTSET_REGISTRY")
        .env_remove("PROMPTSET_TOKEN")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost");
    run(command, format!("promptset {}", args.join(" ")))
}

fn clawhub(registry: &Registry, home: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(clawhub_binary());
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CLAWHUB_CONFIG_PATH", home.join("clawhub.json"))
        .env("CLAWHUB_REGISTRY", &registry.base_url)
        .env("CLAWHUB_SITE", &registry.base_url)
        .env("NO_COLOR", "1")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost")
        .current_dir(home);
    run(command, format!("clawhub {}", args.join(" ")))
}

/// The `promptset` binary of this workspace, built on first use (a test of the `e2e`
/// crate does not get other packages' binaries built for it).
fn promptset_binary() -> PathBuf {
    static BINARY: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    let binary = BINARY.get_or_init(|| build_promptset().map_err(|error| format!("{error:#}")));
    match binary {
        Ok(path) => path.clone(),
        Err(message) => panic!("the test needs the `promptset` binary: {message}"),
    }
}

fn build_promptset() -> Result<PathBuf> {
    let output = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "-p", "promptset", "--bin", "promptset"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .context("failed to run cargo")?;
    if !output.status.success() {
        bail!(
            "`cargo build -p promptset` failed\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // This test runs from <target>/<profile>/deps/; the binary sits in <target>/<profile>/.
    let exe = std::env::current_exe().context("no path of the test binary")?;
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .context("unexpected test binary location")?;
    let binary = profile_dir.join(format!("promptset{}", std::env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        bail!("`{}` is missing after the build", binary.display());
    }
    Ok(binary)
}

/// The registry in its own thread and runtime; remembers the status of every write.
struct Registry {
    base_url: String,
    token: String,
    writes: Arc<Mutex<Vec<u16>>>,
    shutdown: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Mutex<Option<thread::JoinHandle<Result<()>>>>,
    _data: tempfile::TempDir,
}

impl Registry {
    fn start(write_limit: Option<RateLimit>) -> Result<Registry> {
        let data = tempfile::tempdir().context("failed to create the data dir")?;
        let database_url = format!(
            "sqlite://{}?mode=rwc",
            data.path().join("registry.db").display()
        );
        let storage_dir = data.path().join("storage");
        let writes = Arc::new(Mutex::new(Vec::new()));
        let server_writes = Arc::clone(&writes);
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
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                    let base_url = format!("http://{}", listener.local_addr()?);
                    let mut config = Config::for_tests(&database_url, storage_dir)?;
                    config.public_url = Some(base_url.clone());
                    if let Some(limit) = write_limit {
                        config.rate_limit_write = limit;
                    }
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
                    .layer(middleware::from_fn_with_state(server_writes, record_write));
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
        let (base_url, token) = ready
            .recv()
            .context("the registry thread ended before it was ready")??;
        Ok(Registry {
            base_url,
            token,
            writes,
            shutdown: Mutex::new(Some(shutdown_sender)),
            thread: Mutex::new(Some(thread)),
            _data: data,
        })
    }

    /// `promptset skill publish DIR` against this registry as alice.
    fn publish(&self, work: &Path, skill: &str) -> Run {
        promptset(
            work,
            &[
                "skill",
                "publish",
                skill,
                "--registry",
                &self.base_url,
                "--token",
                &self.token,
            ],
        )
    }

    /// Write requests (anything but GET/HEAD) seen so far.
    fn writes(&self) -> usize {
        self.write_statuses().len()
    }

    fn write_statuses(&self) -> Vec<u16> {
        self.writes.lock().map(|w| w.clone()).unwrap_or_default()
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

impl Drop for Registry {
    fn drop(&mut self) {
        if let Some(sender) = self.shutdown.lock().ok().and_then(|mut slot| slot.take()) {
            let _ = sender.send(());
        }
    }
}

async fn record_write(
    State(writes): State<Arc<Mutex<Vec<u16>>>>,
    request: Request,
    next: Next,
) -> Response {
    let is_write = !matches!(request.method().as_str(), "GET" | "HEAD" | "OPTIONS");
    let response = next.run(request).await;
    if is_write && let Ok(mut writes) = writes.lock() {
        writes.push(response.status().as_u16());
    }
    response
}

/// Path of the `clawhub` CLI, installed with npm into the shared e2e cache on first use.
fn clawhub_binary() -> PathBuf {
    static BINARY: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    let binary = BINARY.get_or_init(|| install_clawhub().map_err(|error| format!("{error:#}")));
    match binary {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "the test needs the real `clawhub@{CLAWHUB_VERSION}` CLI: {message}\n\
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
    fs::create_dir_all(&cache_root)
        .with_context(|| format!("failed to create `{}`", cache_root.display()))?;
    // Install beside the cache and move it in whole, so a concurrent test process never
    // sees half an installation.
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
            "`npm install clawhub@{CLAWHUB_VERSION}` failed with {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let staged = staging.keep();
    if installed_version(&prefix).as_deref() != Some(CLAWHUB_VERSION) {
        let _ = fs::remove_dir_all(&prefix);
        if let Err(error) = fs::rename(&staged, &prefix)
            && installed_version(&prefix).as_deref() != Some(CLAWHUB_VERSION)
        {
            return Err(error)
                .with_context(|| format!("failed to move the CLI into `{}`", prefix.display()));
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

fn path_arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// Every file of the skill folder is installed with the same bytes.
fn assert_same_files(source: &Path, installed: &Path) {
    let mut files = Vec::new();
    collect_files(source, Path::new(""), &mut files);
    assert!(files.len() > 10, "the skill has its templates and examples");
    for relative in files {
        let expected = fs::read(source.join(&relative)).expect("source file");
        let actual = fs::read(installed.join(&relative))
            .unwrap_or_else(|error| panic!("`{}` was not installed: {error}", relative.display()));
        assert!(
            expected == actual,
            "`{}` differs between the skill folder and the installed copy",
            relative.display()
        );
    }
}

fn collect_files(root: &Path, relative: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(root.join(relative)).expect("readable dir") {
        let entry = entry.expect("dir entry");
        let path = relative.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            collect_files(root, &path, files);
        } else {
            files.push(path);
        }
    }
}
