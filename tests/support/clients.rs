//! Real clients run with an isolated home and configuration, pointed at one registry and
//! nothing else: `npm` (no other registry, empty user/global config, own cache), the
//! `clawhub` CLI and the `openclaw` agent.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use super::files::show;
use super::tools;

/// The environment every client starts from: only `PATH` (optionally with a folder put
/// first), `HOME`, and no proxy for the loopback registry.
fn isolated(
    program: impl AsRef<std::ffi::OsStr>,
    home: &Path,
    first_on_path: Option<&Path>,
) -> Command {
    let mut path = OsString::new();
    if let Some(bin) = first_on_path {
        path.push(bin.as_os_str());
        path.push(":");
    }
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let mut command = Command::new(program);
    command
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("NO_COLOR", "1")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost")
        .stdin(Stdio::null());
    command
}

/// npm with an isolated configuration: empty user and global config, its own cache, and
/// the registry's `/api/npm/` as the only registry.
pub struct Npm {
    root: PathBuf,
    registry: String,
}

impl Npm {
    /// An npm home below `root` for the registry at `base`.
    pub fn new(root: &Path, base: &str) -> Self {
        let root = root.join("npm");
        fs::create_dir_all(root.join("cache")).expect("npm cache dir");
        fs::write(root.join("userconfig"), "").expect("npm user config");
        fs::write(root.join("globalconfig"), "").expect("npm global config");
        Self {
            root,
            registry: format!("{base}/api/npm/"),
        }
    }

    /// A fresh consumer project folder.
    pub fn project(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        fs::create_dir_all(&dir).expect("project dir");
        fs::write(
            dir.join("package.json"),
            r#"{"name":"consumer","version":"1.0.0","private":true}"#,
        )
        .expect("project package.json");
        dir
    }

    /// `npm install NAME` in `project`; the caller checks the outcome.
    pub fn install(&self, project: &Path, name: &str) -> Output {
        isolated("npm", &self.root, None)
            .args(["install", "--registry", &self.registry, name])
            .args([
                "--no-audit",
                "--no-fund",
                "--no-update-notifier",
                "--fetch-retries=0",
            ])
            .env("npm_config_userconfig", self.root.join("userconfig"))
            .env("npm_config_globalconfig", self.root.join("globalconfig"))
            .env("npm_config_cache", self.root.join("cache"))
            .current_dir(project)
            .output()
            .expect("`npm` runs")
    }
}

/// The `clawhub` CLI with its own home and config file (one per user).
#[derive(Clone)]
pub struct Clawhub {
    /// The CLI binary.
    pub binary: PathBuf,
    /// Registry base URL.
    pub base: String,
    /// Home directory (also the working directory).
    pub home: PathBuf,
    /// The CLI config file (holds the token after `login`).
    pub config: PathBuf,
}

impl Clawhub {
    /// The pinned CLI for the registry at `base`, with `home` and `config`.
    pub fn new(base: &str, home: &Path, config: &Path) -> Self {
        fs::create_dir_all(home).expect("home dir");
        Self {
            binary: tools::clawhub_binary(),
            base: base.to_owned(),
            home: home.to_owned(),
            config: config.to_owned(),
        }
    }

    /// The command with its environment; telemetry stays on (the registry counts it).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = isolated(&self.binary, &self.home, None);
        command
            .args(args)
            .env("CLAWHUB_CONFIG_PATH", &self.config)
            .env("CLAWHUB_REGISTRY", &self.base)
            .env("CLAWHUB_SITE", &self.base)
            .current_dir(&self.home);
        command
    }

    /// Runs the CLI; the caller checks the outcome.
    pub fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("the CLI runs")
    }

    /// Runs the CLI, requires success and returns its stdout alone (for `--json`).
    pub fn stdout(&self, args: &[&str]) -> String {
        let output = self.output(args);
        assert!(
            output.status.success(),
            "clawhub {} failed\n{}",
            args.join(" "),
            show(&output)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Runs the CLI, requires exit code 1 and returns its stderr (where the server's
    /// refusal is printed).
    pub fn fails(&self, args: &[&str]) -> String {
        let output = self.output(args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "clawhub {} should fail\n{}",
            args.join(" "),
            show(&output)
        );
        String::from_utf8_lossy(&output.stderr).into_owned()
    }

    /// Runs the CLI, requires success and returns stdout and stderr together.
    pub fn run(&self, args: &[&str]) -> String {
        let output = self.output(args);
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

/// The `openclaw` agent on Node.js 24, with its state, config and workspace in `home`.
pub struct Openclaw {
    node_bin: PathBuf,
    entry: PathBuf,
    base: String,
    token: Option<String>,
    /// Home directory; the agent's state lives in `home/.openclaw`.
    pub home: PathBuf,
}

impl Openclaw {
    /// The pinned agent for the registry at `base`, authenticated with `token` if given.
    pub fn new(base: &str, home: &Path, token: Option<&str>) -> Self {
        fs::create_dir_all(home).expect("home dir");
        Self {
            node_bin: tools::node24_bin(),
            entry: tools::openclaw_entry(),
            base: base.to_owned(),
            token: token.map(str::to_owned),
            home: home.to_owned(),
        }
    }

    /// The agent's state folder.
    pub fn state_dir(&self) -> PathBuf {
        self.home.join(".openclaw")
    }

    /// Runs `openclaw ARGS`; the caller checks the outcome.
    pub fn output(&self, args: &[&str]) -> Output {
        let mut command = isolated(self.node_bin.join("node"), &self.home, Some(&self.node_bin));
        command
            .arg(&self.entry)
            .args(args)
            .env("OPENCLAW_CLAWHUB_URL", &self.base)
            .env("CLAWHUB_URL", &self.base)
            .env("OPENCLAW_HOME", &self.home)
            .env("OPENCLAW_STATE_DIR", self.state_dir())
            .env(
                "OPENCLAW_CONFIG_PATH",
                self.state_dir().join("openclaw.json"),
            )
            .env("CLAWHUB_CONFIG_PATH", self.home.join("clawhub.json"))
            .current_dir(&self.home);
        if let Some(token) = &self.token {
            command.env("CLAWHUB_TOKEN", token);
        }
        command.output().expect("openclaw runs")
    }

    /// Runs `openclaw ARGS`, requires success and returns stdout and stderr together.
    pub fn run(&self, args: &[&str]) -> String {
        let output = self.output(args);
        assert!(
            output.status.success(),
            "openclaw {} failed\n{}",
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
