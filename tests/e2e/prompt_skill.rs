//! A prompt skill from nothing to installed and browsable: `promptset skill init`, `pack`
//! and `publish` against a fresh registry started in-process, then `clawhub install` (the
//! published npm CLI) of it with byte-identical files, and its page opened in headless
//! Chromium (its text and install command in the DOM, a screenshot that is not blank).
//! Publishing again unchanged is recognised by fingerprint and uploads nothing; a bumped
//! version is published; a wrong token gets the server's refusal; a registry with a write
//! limit of one per minute answers 429, which the CLI waits out (Retry-After plus jitter)
//! and then publishes. A skill with an invalid example is refused by `promptset skill
//! publish`; published anyway with `clawhub`, it is marked invalid in its scan
//! information, in listings and on its page.
//!
//! The `clawhub` CLI comes from the shared e2e cache (`support::tools`); without
//! node/npm or Chromium the tests fail with the reason. With `E2E_SCREENSHOT_DIR` set,
//! the screenshots are kept there for looking at.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result, bail};
use e2e::support::browser;
use e2e::support::clients::Clawhub;
use e2e::support::files::{assert_same_files, path_arg, publishable_files, write_files};
use e2e::support::registry::Registry;
use registry::config::RateLimit;

const INVALID_SET: &str = include_str!("../../fixtures/invalid/integrity-unknown-topic.json");

/// A registry on a fresh SQLite file in `work`.
fn start_registry(work: &Path, write_limit: Option<RateLimit>) -> Registry {
    let database = format!("sqlite://{}?mode=rwc", work.join("registry.db").display());
    Registry::start_with(&database, move |config| {
        if let Some(limit) = write_limit {
            config.rate_limit_write = limit;
        }
    })
    .expect("registry starts")
}

/// `promptset skill publish DIR` against `registry` as alice.
fn publish(registry: &Registry, work: &Path, skill: &str) -> Run {
    promptset(
        work,
        &[
            "skill",
            "publish",
            skill,
            "--registry",
            &registry.base,
            "--token",
            &registry.token,
        ],
    )
}

#[test]
fn prompt_skill_from_init_to_install() {
    let work = tempfile::tempdir().expect("temp dir");
    let registry = start_registry(work.path(), None);
    let dir = work.path().join("geo-prompts");
    let skill = path_arg(&dir);

    let init = promptset(work.path(), &["skill", "init", skill]);
    init.success();
    let pack = promptset(work.path(), &["skill", "pack", skill, "-o", "bundle.zip"]);
    pack.success();
    assert!(work.path().join("bundle.zip").is_file(), "{pack}");

    // first publish: a new version and its canonical page
    let first = publish(&registry, work.path(), skill);
    first.success();
    assert!(
        first.stdout.contains("published geo-prompts@1.0.0"),
        "{first}"
    );
    assert!(
        first
            .stdout
            .contains(&format!("{}/alice/geo-prompts", registry.base)),
        "the canonical URL is reported\n{first}"
    );
    assert_eq!(
        registry.write_statuses(),
        [200],
        "one multipart publish request"
    );

    // the real clawhub CLI installs it with the very same bytes
    let cli = Clawhub::new(
        &registry.base,
        &work.path().join("home"),
        &work.path().join("clawhub.json"),
    );
    let install_dir = work.path().join("install");
    fs::create_dir_all(&install_dir).expect("install dir");
    let install = clawhub(
        &cli,
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
    assert!(
        publishable_files(&dir).len() > 10,
        "the skill has its templates and examples"
    );
    assert_same_files(&dir, &install_dir.join("skills/geo-prompts"));

    // its page, as a browser shows it: the SKILL.md text, the install commands, the
    // prompt-set check, and a screenshot with something on it
    let dom = open_page(
        &registry,
        work.path(),
        "/alice/geo-prompts",
        &[
            "<h1>Geo Prompts",
            "A prompt skill: it turns a client brief",
            &format!("clawhub --registry {} install geo-prompts", registry.base),
            "openclaw skills install @alice/geo-prompts",
            "prompt sets valid",
            "HTML report",
        ],
        "skill-page.png",
    );
    let report = dom_link(&dom, "/-/report?path=").expect("a link to the set's report");
    open_page(
        &registry,
        work.path(),
        &report,
        &["Geo Prompts"],
        "report.png",
    );

    // unchanged: recognised by fingerprint, nothing uploaded
    let again = publish(&registry, work.path(), skill);
    again.success();
    assert!(
        again.stdout.contains("already published as 1.0.0"),
        "{again}"
    );
    assert_eq!(
        registry.write_statuses(),
        [200],
        "nothing uploaded\n{again}"
    );

    // changed files under the same version: refused before any upload
    let skill_md = dir.join("SKILL.md");
    let text = fs::read_to_string(&skill_md).expect("SKILL.md");
    fs::write(
        &skill_md,
        format!("{text}\n## Notes\n\nReview sets monthly.\n"),
    )
    .expect("edit");
    let same_version = publish(&registry, work.path(), skill);
    assert_eq!(same_version.code, 1, "{same_version}");
    assert!(
        same_version
            .stderr
            .contains("version 1.0.0 of `geo-prompts` is already published"),
        "{same_version}"
    );
    assert_eq!(
        registry.write_statuses(),
        [200],
        "nothing uploaded\n{same_version}"
    );

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
            &registry.base,
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

    let bumped = publish(&registry, work.path(), skill);
    bumped.success();
    assert!(
        bumped.stdout.contains("published geo-prompts@1.1.0"),
        "{bumped}"
    );
    let update = clawhub(
        &cli,
        &["--workdir", path_arg(&install_dir), "update", "geo-prompts"],
    );
    update.success();
    assert_same_files(&dir, &install_dir.join("skills/geo-prompts"));

    registry.stop();
}

#[test]
fn invalid_example_is_refused_then_shown_as_invalid() {
    let work = tempfile::tempdir().expect("temp dir");
    let registry = start_registry(work.path(), None);
    let dir = work.path().join("broken-prompts");
    let skill = path_arg(&dir);
    promptset(work.path(), &["skill", "init", skill]).success();
    fs::write(dir.join("examples/broken.promptset.json"), INVALID_SET).expect("invalid example");

    // promptset refuses it, naming the file, and publishes nothing
    let pack = promptset(work.path(), &["skill", "pack", skill]);
    assert_eq!(pack.code, 1, "{pack}");
    assert!(
        pack.stderr.contains("examples/broken.promptset.json"),
        "{pack}"
    );
    let refused = publish(&registry, work.path(), skill);
    assert_eq!(refused.code, 1, "{refused}");
    assert!(
        refused.stderr.contains("examples/broken.promptset.json"),
        "{refused}"
    );
    assert!(
        registry.write_statuses().is_empty(),
        "nothing uploaded: {:?}",
        registry.write_statuses()
    );

    // clawhub publishes whatever it is given; the registry checks the sets
    let cli = Clawhub::new(
        &registry.base,
        &work.path().join("home"),
        &work.path().join("clawhub.json"),
    );
    cli.run(&["login", "--token", &registry.token, "--no-input"]);
    cli.run(&[
        "publish",
        skill,
        "--slug",
        "broken-prompts",
        "--name",
        "Broken Prompts",
        "--version",
        "1.0.0",
        "--changelog",
        "First cut",
        "--tags",
        "latest",
    ]);
    // and a package beside it, for the owner page
    let package = work.path().join("hello-bundle");
    write_files(
        &package,
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
        ],
    );
    cli.run(&[
        "package",
        "publish",
        path_arg(&package),
        "--family",
        "bundle-plugin",
        "--version",
        "0.1.0",
    ]);

    // the scan information and the listings say it is invalid
    let detail = registry.json("/api/v1/skills/broken-prompts");
    assert_eq!(
        detail["skill"]["promptSets"]["status"], "invalid",
        "{detail}"
    );
    let scan = registry.json("/api/v1/skills/broken-prompts/scan");
    let sets = &scan["promptSets"];
    assert_eq!(sets["status"], "invalid", "{scan}");
    assert_eq!(sets["invalid"], 1, "{scan}");
    let broken = sets["sets"]
        .as_array()
        .expect("sets")
        .iter()
        .find(|set| set["path"] == "examples/broken.promptset.json")
        .expect("the invalid example is checked");
    assert_eq!(broken["valid"], false, "{scan}");
    assert_eq!(
        broken["errors"][0]["rule"], "integrity/unknown-topic",
        "{scan}"
    );
    let version = registry.json("/api/v1/skills/broken-prompts/versions/1.0.0");
    assert_eq!(
        version["version"]["promptSets"]["status"], "invalid",
        "{version}"
    );
    let listed = registry.json("/api/v1/skills");
    let item = listed["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|item| item["slug"] == "broken-prompts")
        .expect("listed");
    assert_eq!(item["promptSets"]["status"], "invalid", "{listed}");

    // the page shows it too, error by error
    open_page(
        &registry,
        work.path(),
        "/alice/broken-prompts",
        &[
            "<h1>Broken Prompts",
            "invalid prompt sets",
            "examples/broken.promptset.json",
            "integrity/unknown-topic",
            "2 prompt sets checked, 1 invalid.",
        ],
        "invalid-skill-page.png",
    );
    // the list, the owner page and the package page
    open_page(
        &registry,
        work.path(),
        "/",
        &["Broken Prompts", "invalid prompt sets"],
        "home.png",
    );
    open_page(
        &registry,
        work.path(),
        "/alice",
        &["/alice/broken-prompts", "/alice/hello-bundle"],
        "owner.png",
    );
    open_page(
        &registry,
        work.path(),
        "/alice/hello-bundle",
        &[
            "hello-bundle",
            &format!(
                "npm install hello-bundle --registry {}/api/npm/",
                registry.base
            ),
        ],
        "package.png",
    );
    registry.stop();
}

#[test]
fn rate_limited_publish_waits_for_retry_after() {
    let work = tempfile::tempdir().expect("temp dir");
    let registry = start_registry(
        work.path(),
        Some(RateLimit {
            anonymous: 1,
            user: 1,
        }),
    );
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
    publish(&registry, work.path(), skill).success();
    let skill_md = dir.join("SKILL.md");
    let text = fs::read_to_string(&skill_md).expect("SKILL.md");
    fs::write(
        &skill_md,
        text.replacen("version: 1.0.0", "version: 1.0.1", 1),
    )
    .expect("bump");
    let limited = publish(&registry, work.path(), skill);
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
    assert_eq!(
        registry.write_statuses(),
        [200, 429, 200],
        "publish, refused, retried"
    );
    registry.stop();
}

/// Opens `path` of the registry in headless Chromium: every `expected` text is in the
/// DOM it built, and its screenshot (kept as `screenshot` in `E2E_SCREENSHOT_DIR` when
/// that is set) shows a styled page. Returns the DOM.
fn open_page(
    registry: &Registry,
    work: &Path,
    path: &str,
    expected: &[&str],
    screenshot: &str,
) -> String {
    let url = format!("{}{path}", registry.base);
    let dom = browser::dom(&url, work);
    for text in expected {
        assert!(dom.contains(text), "`{text}` is not on {path}\n{dom}");
    }
    let png = browser::screenshot(&url, &work.join(screenshot), work);
    // Kept before the check, so a failing page can be looked at.
    if let Some(dir) = std::env::var_os("E2E_SCREENSHOT_DIR") {
        let dir = PathBuf::from(dir);
        fs::create_dir_all(&dir).expect("screenshot dir");
        fs::write(dir.join(screenshot), &png).expect("keep the screenshot");
    }
    browser::assert_not_blank(&png, path);
    dom
}

/// The first `href` on the page that contains `part` (attribute-decoded).
fn dom_link(dom: &str, part: &str) -> Option<String> {
    dom.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| href.replace("&amp;", "&"))
        .find(|href| href.contains(part))
}

/// What one run of a CLI gave.
struct Run {
    command: String,
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn new(command: String, output: Output) -> Self {
        Self {
            command,
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

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

fn promptset(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(promptset_binary())
        .args(args)
        .current_dir(dir)
        .env_remove("PROMPTSET_REGISTRY")
        .env_remove("PROMPTSET_TOKEN")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost")
        .stdin(Stdio::null())
        .output()
        .expect("the promptset binary runs");
    Run::new(format!("promptset {}", args.join(" ")), output)
}

fn clawhub(cli: &Clawhub, args: &[&str]) -> Run {
    Run::new(format!("clawhub {}", args.join(" ")), cli.output(args))
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
