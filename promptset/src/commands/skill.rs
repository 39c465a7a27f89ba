//! `promptset skill init|pack|publish`: make a prompt skill, check and bundle it, publish
//! it to a registry through API v1.
//!
//! `pack` and `publish` list every problem (file:line:col) and exit 1 without writing or
//! uploading anything; an unreachable or refusing registry is an error (exit 2) that
//! shows the status and the server's text.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use promptset::skill::client::{Event, Registry, RegistryConfig};
use promptset::skill::pack::{Bundle, CheckOptions, Checked, check};
use promptset::skill::scaffold::{InitOptions, init};

/// Arguments of `promptset skill`.
#[derive(Debug, Args)]
#[command(
    after_help = "A prompt skill is a folder: SKILL.md (frontmatter: name, description, version,
tags), templates/ (generator prompt and phrasing templates), schema/promptset.schema.json
and examples/ (briefs named *.brief.json|yaml and the prompt sets made from them).

Examples:
  promptset skill init geo-prompts
  promptset skill pack geo-prompts -o geo-prompts.zip
  PROMPTSET_REGISTRY=https://registry.example PROMPTSET_TOKEN=clh_... promptset skill publish geo-prompts

Exit codes: 0 success, 1 the skill has problems (all listed), 2 usage, I/O or registry error."
)]
pub struct SkillArgs {
    /// What to do with the skill.
    #[command(subcommand)]
    pub command: SkillCommand,
}

/// The `skill` subcommands.
#[derive(Debug, Subcommand)]
pub enum SkillCommand {
    /// Create a new prompt skill folder that packs cleanly.
    Init(InitArgs),
    /// Check a skill folder and write the exact bundle `publish` would upload.
    Pack(PackArgs),
    /// Check a skill folder and publish it to a registry (API v1).
    Publish(PublishArgs),
}

/// Arguments of `promptset skill init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The folder to create (or fill, when empty).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The skill's name (its slug in the registry); defaults to the folder's name.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Generate the example from this brief (JSON or YAML) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub brief: Option<PathBuf>,
    /// Write into a folder that is not empty, replacing the skill's files.
    #[arg(long)]
    pub force: bool,
}

/// What `pack` and `publish` share: the folder and how strict the check is.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The skill folder.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Fail when an example prompt set's lint score is below N (0-100).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: Option<u32>,
    /// Print no warnings, summary lines or progress.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Arguments of `promptset skill pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    #[command(flatten)]
    pub check: CheckArgs,
    /// Where to write the bundle (a ZIP); defaults to `NAME-VERSION.zip` here.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of `promptset skill publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    #[command(flatten)]
    pub check: CheckArgs,
    /// Base URL of the registry.
    #[arg(long, env = "PROMPTSET_REGISTRY", value_name = "URL")]
    pub registry: String,
    /// API token of the publishing account.
    #[arg(
        long,
        env = "PROMPTSET_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// The changelog of this version.
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub changelog: String,
    /// Retries after a 429 before giving up.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_retries: u32,
}

/// Runs `promptset skill`.
pub fn run(args: SkillArgs) -> Result<ExitCode> {
    match args.command {
        SkillCommand::Init(args) => run_init(args),
        SkillCommand::Pack(args) => run_pack(args),
        SkillCommand::Publish(args) => run_publish(args),
    }
}

fn run_init(args: InitArgs) -> Result<ExitCode> {
    let scaffolded = init(
        &args.dir,
        &InitOptions {
            name: args.name,
            brief: args.brief,
            force: args.force,
        },
    )?;
    say(&format!(
        "created prompt skill `{}` in `{}` ({} files)\nnext: edit SKILL.md, then `promptset skill pack {}`",
        scaffolded.name,
        args.dir.display(),
        scaffolded.files.len(),
        args.dir.display()
    ));
    Ok(ExitCode::SUCCESS)
}

fn run_pack(args: PackArgs) -> Result<ExitCode> {
    let Some(bundle) = checked_bundle(&args.check)? else {
        return Ok(ExitCode::from(1));
    };
    let output = args.output.unwrap_or_else(|| {
        PathBuf::from(format!(
            "{}-{}.zip",
            bundle.frontmatter.name, bundle.frontmatter.version
        ))
    });
    let zip = bundle.to_zip()?;
    crate::io::write_output(Some(&output), &zip)?;
    if !args.check.quiet {
        note(&format!(
            "packed {}@{}: {} files, {} bytes, fingerprint {}\nwrote `{}`",
            bundle.frontmatter.name,
            bundle.frontmatter.version,
            bundle.files.len(),
            bundle.size(),
            bundle.fingerprint,
            output.display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn run_publish(args: PublishArgs) -> Result<ExitCode> {
    let Some(bundle) = checked_bundle(&args.check)? else {
        return Ok(ExitCode::from(1));
    };
    let quiet = args.check.quiet;
    let mut config = RegistryConfig::new(&args.registry, args.token.filter(|t| !t.is_empty()));
    config.max_retries = args.max_retries;
    let registry = Registry::new(config);
    let bar = upload_bar(quiet);
    let events = |event: Event| match event {
        Event::RateLimited { wait, retry } => {
            if !quiet {
                bar.suspend(|| {
                    note(&format!(
                        "the registry is rate limiting; retry {retry} in {:.1} s",
                        wait.as_secs_f64()
                    ));
                });
            }
        }
        Event::Upload { sent, total } => {
            bar.set_length(total);
            bar.set_position(sent);
        }
    };
    let name = &bundle.frontmatter.name;
    let version = &bundle.frontmatter.version;
    let resolution = registry
        .resolve(name, &bundle.fingerprint, &events)
        .with_context(|| format!("failed to look `{name}` up in the registry"))?;
    if let Some(matched) = &resolution.matched {
        say(&format!(
            "{name} is already published as {matched} (same files, fingerprint {}); nothing uploaded",
            bundle.fingerprint
        ));
        return Ok(ExitCode::SUCCESS);
    }
    if resolution.latest.as_deref() == Some(version.as_str()) {
        report_problems(&[promptset::skill::Problem::file(
            promptset::skill::rules::VERSION_PUBLISHED,
            "SKILL.md",
            format!(
                "version {version} of `{name}` is already published with other files; raise `version` in the frontmatter"
            ),
        )]);
        return Ok(ExitCode::from(1));
    }
    let owner = registry
        .whoami(&events)
        .context("failed to identify the token's account")?;
    let published = registry
        .publish(&bundle, &args.changelog, &events)
        .with_context(|| format!("failed to publish {name}@{version}"))?;
    bar.finish_and_clear();
    say(&format!(
        "published {}@{} ({} files, version id {})\n{}/{}/{}",
        published.slug,
        published.version,
        bundle.files.len(),
        published.version_id,
        registry.base_url(),
        owner,
        published.slug
    ));
    Ok(ExitCode::SUCCESS)
}

/// Checks the folder, prints every problem and warning; the bundle when there is no problem.
fn checked_bundle(args: &CheckArgs) -> Result<Option<Bundle>> {
    let Checked {
        bundle,
        problems,
        warnings,
        scores,
    } = check(
        &args.dir,
        &CheckOptions {
            min_score: args.min_score,
        },
    )
    .with_context(|| format!("failed to check the skill in `{}`", args.dir.display()))?;
    if !args.quiet {
        for warning in &warnings {
            note(&format!("warning: {}", located(&args.dir, warning)));
        }
        for (path, score) in &scores {
            note(&format!(
                "{}: lint score {score}/100",
                args.dir.join(path).display()
            ));
        }
    }
    if problems.is_empty() {
        return Ok(bundle);
    }
    let located: Vec<promptset::skill::Problem> = problems
        .iter()
        .map(|problem| promptset::skill::Problem {
            path: args.dir.join(&problem.path).display().to_string(),
            ..problem.clone()
        })
        .collect();
    report_problems(&located);
    note(&format!(
        "the skill in `{}` has {} {}; nothing was written or published",
        args.dir.display(),
        problems.len(),
        if problems.len() == 1 {
            "problem"
        } else {
            "problems"
        }
    ));
    Ok(None)
}

fn located(dir: &Path, problem: &promptset::skill::Problem) -> String {
    promptset::skill::Problem {
        path: dir.join(&problem.path).display().to_string(),
        ..problem.clone()
    }
    .to_string()
}

fn report_problems(problems: &[promptset::skill::Problem]) {
    for problem in problems {
        note(&format!("error: {problem}"));
    }
}

/// A byte progress bar on an interactive stderr; hidden otherwise.
fn upload_bar(quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("uploading [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}

/// The result a user asked for, on stdout.
fn say(text: &str) {
    #[expect(clippy::print_stdout, reason = "the command's result")]
    {
        println!("{text}");
    }
}

/// Findings and progress, on stderr.
fn note(text: &str) {
    #[expect(clippy::print_stderr, reason = "findings and progress for people")]
    {
        eprintln!("{text}");
    }
}
