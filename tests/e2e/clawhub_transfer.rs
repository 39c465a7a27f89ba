//! End to end with the published `clawhub` CLI 0.23.3: alice transfers a skill to bob,
//! who accepts it; `inspect` and `install` then show bob as the owner. A moderator hides
//! the skill, and `install` fails with a clear message. SQLite only.
//!
//! The few helpers (server, CLI runner, npm install of the CLI) are local and small until
//! the end-to-end helpers move into one shared module.

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, OnceLock};

use registry::app::AppState;
use registry::config::Config;
use registry::db::Role;
use serde_json::Value;

/// The CLI release the registry must work with.
const CLAWHUB_VERSION: &str = "0.23.3";

/// The registry served on `127.0.0.1:0` from a thread with its own runtime.
struct Registry {
    base: String,
    token: String,
    state: AppState,
    runtime: tokio::runtime::Runtime,
    _storage: tempfile::TempDir,
}

impl Registry {
    fn start(database_url: &str) -> anyhow::Result<Self> {
        let storage = tempfile::tempdir()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let (base, token, state) = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let base = format!("http://{}", listener.local_addr()?);
            let mut config = Config::for_tests(database_url, storage.path().to_owned())?;
            config.public_url = Some(base.clone());
            let state = AppState::new(config).await?;
            let token =
                registry::tokens::create_token(state.store.as_ref(), "alice", Role::User).await?;
            let app =
                registry::router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
            tokio::spawn(async move { axum::serve(listener, app).await });
            Ok::<_, anyhow::Error>((base, token, state))
        })?;
        Ok(Self {
            base,
            token,
            state,
            runtime,
            _storage: storage,
        })
    }

    fn token_for(&self, handle: &str) -> String {
        token_with_role(self, handle, Role::User)
    }

    fn stop(self) {
        self.runtime.shutdown_background();
    }
}

/// The CLI with its own home and config file (one per user).
struct Clawhub {
    base: String,
    home: PathBuf,
    config: PathBuf,
}

impl Clawhub {
    fn new(base: &str, home: &Path, config: &Path) -> Self {
        fs::create_dir_all(home).expect("home dir");
        Self {
            base: base.to_owned(),
            home: home.to_owned(),
            config: config.to_owned(),
        }
    }

    fn output(&self, args: &[&str]) -> Output {
        Command::new(clawhub_binary())
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("CLAWHUB_CONFIG_PATH", &self.config)
            .env("CLAWHUB_REGISTRY", &self.base)
            .env("CLAWHUB_SITE", &self.base)
            .env("NO_COLOR", "1")
            .env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost")
            .current_dir(&self.home)
            .stdin(Stdio::null())
            .output()
            .expect("the CLI runs")
    }
}

/// `clawhub` 0.23.3 from npm, installed once into `target/e2e-cache` (shared with the
/// other end-to-end tests; `CLAWHUB_E2E_CACHE` moves it). Fails, never skips, without npm.
fn clawhub_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let cache = std::env::var_os("CLAWHUB_E2E_CACHE").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e-cache"),
            PathBuf::from,
        );
        let prefix = cache.join(format!("clawhub-{CLAWHUB_VERSION}"));
        let binary = prefix.join("node_modules/.bin/clawhub");
        if !binary.exists() {
            fs::create_dir_all(&prefix).expect("cache dir");
            let output = Command::new("npm")
                .args(["install", "--prefix"])
                .arg(&prefix)
                .arg(format!("clawhub@{CLAWHUB_VERSION}"))
                .args(["--no-audit", "--no-fund", "--no-save", "--loglevel=error"])
                .stdin(Stdio::null())
                .output()
                .expect("this test needs `npm` (Node.js 22+) on PATH");
            assert!(
                output.status.success(),
                "npm install clawhub failed\n{}",
                show(&output)
            );
        }
        binary
    })
}

fn show(output: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn path_arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Runs the CLI and returns stdout and stderr of a successful run.
fn run(cli: &Clawhub, args: &[&str]) -> (String, String) {
    let output = cli.output(args);
    assert!(
        output.status.success(),
        "clawhub {} failed\n{}",
        args.join(" "),
        show(&output)
    );
    text(&output)
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A token of a user with `role`, made through the store as `registry token create` does.
fn token_with_role(registry: &Registry, handle: &str, role: Role) -> String {
    let store = Arc::clone(&registry.state.store);
    registry
        .runtime
        .block_on(registry::tokens::create_token(store.as_ref(), handle, role))
        .expect("token")
}

/// POSTs a JSON body with a bearer token (HTTP/1.0, no client library) and returns the
/// status and body.
fn post(registry: &Registry, path: &str, token: &str, body: &str) -> (u16, String) {
    use std::io::{Read as _, Write as _};
    let address = registry.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).expect("connect");
    write!(
        stream,
        "POST {path} HTTP/1.0\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response");
    let (head, body) = response.split_once("\r\n\r\n").expect("HTTP response");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("status line");
    (status, body.to_owned())
}

#[test]
fn transfer_accept_then_hide_with_the_real_cli() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("registry.db").display()
    );
    let registry = Registry::start(&url).expect("registry starts");
    let work = dir.path();
    let home = work.join("home");
    let alice = Clawhub::new(&registry.base, &home, &work.join("alice.json"));
    let bob = Clawhub::new(&registry.base, &home, &work.join("bob.json"));
    let carol = Clawhub::new(&registry.base, &home, &work.join("carol.json"));
    let bob_token = registry.token_for("bob");
    let carol_token = registry.token_for("carol");
    let moderator = token_with_role(&registry, "mod", Role::Moderator);
    run(&alice, &["login", "--token", &registry.token, "--no-input"]);
    run(&bob, &["login", "--token", &bob_token, "--no-input"]);
    run(&carol, &["login", "--token", &carol_token, "--no-input"]);

    let skill_dir = work.join("demo-skill");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/skills/demo-skill"),
        &skill_dir,
    )
    .expect("copy the fixture skill");
    run(
        &alice,
        &[
            "skill",
            "publish",
            path_arg(&skill_dir),
            "--slug",
            "demo-skill",
            "--name",
            "Demo Skill",
            "--version",
            "1.0.0",
        ],
    );

    // alice offers the skill to bob; bob sees it and accepts
    let (requested, _) = run(
        &alice,
        &[
            "transfer",
            "request",
            "demo-skill",
            "@bob",
            "--message",
            "all yours",
            "--yes",
        ],
    );
    assert!(
        requested.contains("Transfer requested") && requested.contains("@bob"),
        "{requested}"
    );
    let (outgoing, _) = run(&alice, &["transfer", "list", "--outgoing"]);
    assert!(
        outgoing.contains("demo-skill") && outgoing.contains("@bob"),
        "{outgoing}"
    );
    let (incoming, _) = run(&bob, &["transfer", "list"]);
    assert!(
        incoming.contains("demo-skill") && incoming.contains("@alice"),
        "{incoming}"
    );
    // carol is not the recipient: the server's text reaches her
    let refused = carol.output(&["transfer", "accept", "demo-skill", "--yes"]);
    assert_eq!(refused.status.code(), Some(1), "{}", show(&refused));
    assert!(
        text(&refused).1.contains("No pending transfer found"),
        "{}",
        show(&refused)
    );
    let (accepted, _) = run(&bob, &["transfer", "accept", "demo-skill", "--yes"]);
    assert!(accepted.contains("Transfer accepted"), "{accepted}");
    let (incoming, _) = run(&bob, &["transfer", "list"]);
    assert!(!incoming.contains("demo-skill"), "{incoming}");

    // inspect and install show the new owner
    let (inspect, _) = run(&carol, &["inspect", "demo-skill", "--json"]);
    let inspected: Value = serde_json::from_str(&inspect).expect("inspect --json");
    assert_eq!(inspected["owner"]["handle"], "bob", "{inspect}");
    let install_dir = work.join("install");
    fs::create_dir_all(&install_dir).expect("install dir");
    let (installed, _) = run(
        &carol,
        &["--workdir", path_arg(&install_dir), "install", "demo-skill"],
    );
    assert!(
        installed.contains("Installed demo-skill v1.0.0"),
        "{installed}"
    );
    let lock: Value = serde_json::from_str(
        &fs::read_to_string(install_dir.join(".clawhub/lock.json")).expect("lock file"),
    )
    .expect("lock JSON");
    assert_eq!(lock["skills"]["demo-skill"]["ownerHandle"], "bob", "{lock}");
    // the old owner may no longer publish under the slug
    let stale = alice.output(&[
        "skill",
        "publish",
        path_arg(&skill_dir),
        "--slug",
        "demo-skill",
        "--version",
        "1.0.1",
    ]);
    assert_eq!(stale.status.code(), Some(1), "{}", show(&stale));

    // a moderator hides it: installing now fails and says why
    let (status, body) = post(
        &registry,
        "/api/v1/skills/demo-skill/hide",
        &moderator,
        r#"{"reason":"under review"}"#,
    );
    assert_eq!(status, 200, "{body}");
    let again_dir = work.join("again");
    fs::create_dir_all(&again_dir).expect("install dir");
    let hidden = carol.output(&["--workdir", path_arg(&again_dir), "install", "demo-skill"]);
    assert_eq!(hidden.status.code(), Some(1), "{}", show(&hidden));
    assert!(
        text(&hidden).1.contains("Skill not found"),
        "{}",
        show(&hidden)
    );
    assert!(!again_dir.join("skills/demo-skill").exists());
    let (inspect, _) = text(&bob.output(&["inspect", "demo-skill"]));
    assert!(!inspect.contains("Demo Skill"), "{inspect}");

    registry.stop();
}
