//! End to end with two clients nobody here wrote: the published `clawhub` CLI
//! (`clawhub@0.23.3`) publishes three packages — a plain one (a bundle plugin with a
//! `package.json`, sent as loose files), a scoped code plugin and an unscoped code plugin
//! (both packed by the CLI with `npm pack`) — and the real `npm` client installs each from
//! our `/api/npm/` surface with no other registry configured.
//!
//! npm runs with its own empty user config, global config and cache, so nothing can come
//! from registry.npmjs.org. The installed files must equal the published ones, npm's
//! lockfile must carry our integrity and tarball URL (npm checks the tarball against that
//! integrity while installing), and after `clawhub package delete` the package no longer
//! installs. The CLI is installed like the other end-to-end test does, into
//! `target/e2e-cache/clawhub-0.23.3`; without node/npm the test fails with the reason.

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::thread;

use anyhow::{Context as _, Result, bail};
use registry::app::AppState;
use registry::config::Config;
use registry::db::Role;
use serde_json::Value;

const CLAWHUB_VERSION: &str = "0.23.3";

#[test]
fn npm_installs_packages_published_with_the_clawhub_cli() {
    let work = tempfile::tempdir().expect("temp dir");
    let database = format!(
        "sqlite://{}?mode=rwc",
        work.path().join("registry.db").display()
    );
    let registry = Registry::start(&database, work.path().join("blobs")).expect("registry starts");
    let cli = Clawhub {
        binary: clawhub_binary(),
        base: registry.base.clone(),
        home: work.path().join("home"),
        config: work.path().join("alice.json"),
    };
    fs::create_dir_all(&cli.home).expect("home");
    let login = cli.run(&["login", "--token", &registry.token, "--no-input"]);
    assert!(login.contains("Logged in as @alice"), "{login}");

    // 1. A plain package: a bundle plugin whose files include a package.json.
    let plain = work.path().join("hello-bundle");
    write_files(
        &plain,
        &[
            (
                "package.json",
                r#"{"name":"hello-bundle","version":"0.1.0","description":"Bundled hello skill","main":"index.js"}"#,
            ),
            (
                "openclaw.plugin.json",
                r#"{"id":"hello-bundle","name":"Hello Bundle"}"#,
            ),
            ("index.js", "module.exports = 'hello';\n"),
            (
                "skills/hello/SKILL.md",
                "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n",
            ),
        ],
    );
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&plain),
        "--family",
        "bundle-plugin",
        "--version",
        "0.1.0",
    ]);
    assert!(out.contains("Published hello-bundle@0.1.0"), "{out}");

    // 2. A scoped code plugin and 3. an unscoped one, packed by the CLI with `npm pack`.
    let scoped = code_plugin(work.path(), "@alice/scoped-plug", "1.2.3");
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&scoped),
        "--family",
        "code-plugin",
        "--source-repo",
        "alice/scoped-plug",
        "--source-commit",
        "0123456789abcdef0123456789abcdef01234567",
    ]);
    assert!(out.contains("Published @alice/scoped-plug@1.2.3"), "{out}");
    let code = code_plugin(work.path(), "demo-code-plugin", "2.0.0");
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&code),
        "--family",
        "code-plugin",
        "--source-repo",
        "alice/demo-code-plugin",
        "--source-commit",
        "89abcdef0123456789abcdef0123456789abcdef",
    ]);
    assert!(out.contains("Published demo-code-plugin@2.0.0"), "{out}");

    let npm = Npm::new(work.path(), &registry.base);
    for (name, version, source) in [
        ("hello-bundle", "0.1.0", &plain),
        ("@alice/scoped-plug", "1.2.3", &scoped),
        ("demo-code-plugin", "2.0.0", &code),
    ] {
        let project = npm.project(&format!("install-{}", name.replace(['@', '/'], "_")));
        let output = npm.install(&project, name);
        assert!(
            output.status.success(),
            "npm install {name} failed\n{}",
            show(&output)
        );
        let installed = project.join("node_modules").join(name);
        assert_same_files(source, &installed);
        // npm verified the tarball against the packument's integrity; the lockfile shows
        // which integrity and which tarball URL it used.
        let artifact = registry.json(&format!(
            "/api/v1/packages/{}/versions/{version}/artifact",
            name.replace('@', "%40").replace('/', "%2F")
        ));
        let lock: Value = serde_json::from_str(
            &fs::read_to_string(project.join("package-lock.json")).expect("npm wrote a lockfile"),
        )
        .expect("lockfile is JSON");
        let entry = &lock["packages"][format!("node_modules/{name}")];
        assert_eq!(entry["version"], version, "{name}");
        assert_eq!(
            entry["integrity"], artifact["artifact"]["npmIntegrity"],
            "{name}"
        );
        assert_eq!(
            entry["resolved"], artifact["artifact"]["tarballUrl"],
            "{name}"
        );
    }

    // A deleted package no longer installs (fresh cache, so npm must ask the registry).
    let out = cli.run(&["package", "delete", "demo-code-plugin", "--yes"]);
    assert!(!out.is_empty());
    let npm_after = Npm::new(&work.path().join("after-delete"), &registry.base);
    let project = npm_after.project("install-deleted");
    let output = npm_after.install(&project, "demo-code-plugin");
    assert!(
        !output.status.success(),
        "a deleted package installed\n{}",
        show(&output)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("404"),
        "npm reports the 404\n{}",
        show(&output)
    );
    assert!(!project.join("node_modules/demo-code-plugin").exists());
}

fn code_plugin(root: &Path, name: &str, version: &str) -> PathBuf {
    let dir = root.join(name.replace(['@', '/'], "_"));
    let manifest = format!(
        r#"{{"name":"{name}","version":"{version}","description":"A code plugin","main":"index.js",
  "openclaw":{{"extensions":["./index.js"],"compat":{{"pluginApi":">=2026.1.0"}},"build":{{"openclawVersion":"2026.9.6"}}}}}}
"#
    );
    write_files(
        &dir,
        &[
            ("package.json", manifest.as_str()),
            (
                "openclaw.plugin.json",
                r#"{"id":"plug","name":"Plug","configSchema":{"type":"object"}}"#,
            ),
            (
                "index.js",
                "module.exports = { register() { return 'registered'; } };\n",
            ),
            ("lib/util.js", "exports.twice = (x) => x * 2;\n"),
            ("README.md", "# Plug\n"),
        ],
    );
    dir
}

fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let target = dir.join(path);
        fs::create_dir_all(target.parent().expect("parent")).expect("dir");
        fs::write(&target, text).expect("write");
    }
}

fn path_arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

fn show(output: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Every file of the published folder exists in the installed copy with the same bytes.
fn assert_same_files(source: &Path, installed: &Path) {
    let mut files = Vec::new();
    collect_files(source, Path::new(""), &mut files);
    assert!(!files.is_empty());
    for relative in files {
        let expected = fs::read(source.join(&relative)).expect("source file");
        let actual = fs::read(installed.join(&relative)).unwrap_or_else(|error| {
            panic!(
                "`{}` was not installed in `{}`: {error}",
                relative.display(),
                installed.display()
            )
        });
        assert!(
            expected == actual,
            "`{}` differs after install",
            relative.display()
        );
    }
}

fn collect_files(root: &Path, relative: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(root.join(relative)).expect("readable dir") {
        let entry = entry.expect("entry");
        let path = relative.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            collect_files(root, &path, files);
        } else {
            files.push(path);
        }
    }
}

/// npm with an isolated configuration: empty user and global config, its own cache, and
/// our registry as the only one.
struct Npm {
    root: PathBuf,
    registry: String,
}

impl Npm {
    fn new(root: &Path, base: &str) -> Self {
        let root = root.join("npm");
        fs::create_dir_all(root.join("cache")).expect("npm cache dir");
        fs::write(root.join("userconfig"), "").expect("npm user config");
        fs::write(root.join("globalconfig"), "").expect("npm global config");
        Self {
            root,
            registry: format!("{base}/api/npm/"),
        }
    }

    fn project(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        fs::create_dir_all(&dir).expect("project dir");
        fs::write(
            dir.join("package.json"),
            r#"{"name":"consumer","version":"1.0.0","private":true}"#,
        )
        .expect("project package.json");
        dir
    }

    fn install(&self, project: &Path, name: &str) -> Output {
        Command::new("npm")
            .args(["install", "--registry", &self.registry, name])
            .args([
                "--no-audit",
                "--no-fund",
                "--no-update-notifier",
                "--fetch-retries=0",
            ])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.root)
            .env("npm_config_userconfig", self.root.join("userconfig"))
            .env("npm_config_globalconfig", self.root.join("globalconfig"))
            .env("npm_config_cache", self.root.join("cache"))
            .env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost")
            .current_dir(project)
            .stdin(Stdio::null())
            .output()
            .expect("`npm` runs")
    }
}

/// The `clawhub` CLI with its own home and config file.
struct Clawhub {
    binary: PathBuf,
    base: String,
    home: PathBuf,
    config: PathBuf,
}

impl Clawhub {
    /// Runs the CLI, requires success and returns stdout and stderr together.
    fn run(&self, args: &[&str]) -> String {
        let output = Command::new(&self.binary)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("CLAWHUB_CONFIG_PATH", &self.config)
            .env("CLAWHUB_REGISTRY", &self.base)
            .env("CLAWHUB_SITE", &self.base)
            .env("CLAWHUB_DISABLE_TELEMETRY", "1")
            .env("NO_COLOR", "1")
            .env("NO_PROXY", "127.0.0.1,localhost")
            .current_dir(&self.home)
            .stdin(Stdio::null())
            .output()
            .expect("the CLI runs");
        assert!(
            output.status.success(),
            "clawhub {} failed\n{}",
            args.join(" "),
            show(&output)
        );
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    }
}

/// The registry on its own thread and runtime.
struct Registry {
    base: String,
    token: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Registry {
    fn start(database_url: &str, storage_dir: PathBuf) -> Result<Self> {
        let database_url = database_url.to_owned();
        let (ready_sender, ready) = std::sync::mpsc::channel::<Result<(String, String)>>();
        let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("server runtime");
            runtime.block_on(async move {
                let started = async {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                    let base = format!("http://{}", listener.local_addr()?);
                    let mut config = Config::for_tests(&database_url, storage_dir)?;
                    config.public_url = Some(base.clone());
                    let state = AppState::new(config).await?;
                    let token =
                        registry::tokens::create_token(state.store.as_ref(), "alice", Role::User)
                            .await?;
                    Ok::<_, anyhow::Error>((listener, state, base, token))
                };
                match started.await {
                    Ok((listener, state, base, token)) => {
                        let _ = ready_sender.send(Ok((base, token)));
                        let app = registry::router(state)
                            .into_make_service_with_connect_info::<SocketAddr>();
                        let _ = axum::serve(listener, app)
                            .with_graceful_shutdown(async move {
                                let _ = stopped.await;
                            })
                            .await;
                    }
                    Err(error) => {
                        let _ = ready_sender.send(Err(error));
                    }
                }
            });
        });
        let (base, token) = ready.recv().context("the registry thread ended early")??;
        Ok(Self {
            base,
            token,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    /// GETs a JSON document with curl-free std networking (a one-shot HTTP/1.0 request).
    fn json(&self, path: &str) -> Value {
        use std::io::{Read as _, Write as _};
        let address = self.base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(address).expect("connect");
        write!(stream, "GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n").expect("request");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("response");
        let (head, body) = response.split_once("\r\n\r\n").expect("HTTP response");
        assert!(
            head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"),
            "{head}\n{body}"
        );
        serde_json::from_str(body).expect("JSON body")
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Path of the `clawhub` binary, installing the pinned release with npm on first use.
fn clawhub_binary() -> PathBuf {
    static BINARY: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    let binary = BINARY.get_or_init(|| install_clawhub().map_err(|error| format!("{error:#}")));
    match binary {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "the end-to-end test needs the real `clawhub@{CLAWHUB_VERSION}` CLI and npm: {message}\n\
             hint: install Node.js 22+ with npm (`.ci/run` does)"
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
    // Install next to the cache and rename, so a concurrent run (the other end-to-end test
    // installs the same release) never sees half an installation.
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
            "`npm install clawhub@{CLAWHUB_VERSION}` failed\n{}",
            show(&output)
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
