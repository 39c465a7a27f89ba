//! `promptset generate`: a prompt set from a client brief, with the templates or an LLM.
//!
//! A brief that fails its schema is reported like `validate` reports a document (every
//! problem, with line:column) and exits 1. Whatever is written is first checked by the
//! same validator `promptset validate` uses: an invalid set never reaches the output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use promptset::brief::{Brief, BriefFormat, is_brief_path, parse_brief};
use promptset::diagnostic::rules::{self, Category};
use promptset::generate::{Generator, Options, to_json};
use promptset::output::{FileReport, Format, Tool, render};
use promptset::validate::Validator;
use rayon::prelude::*;

use crate::io::{Input, interactive, write_output};

/// Arguments of `promptset generate`.
#[derive(Debug, Args)]
#[command(
    after_help = "The brief is JSON or YAML (see schemas/brief.schema.json). The default pack is
5 topics x 10 prompts: about 65 % non-brand discovery, 22 % competitor comparison and
13 % brand defense, spread over TOFU, MOFU and BOFU. The same brief and --seed always
give the same output.

Examples:
  promptset generate --brief fixtures/briefs/saas-analytics.json -o set.json
  promptset generate --brief brief.yaml --topics 8 --prompts-per-topic 12 --seed 7
  promptset generate --brief briefs/ -o sets/
  promptset generate --brief brief.json --lang zh
  cat brief.yaml | promptset generate --brief - -o set.json
  PROMPTSET_LLM_BASE_URL=https://api.openai.com/v1 PROMPTSET_LLM_API_KEY=... \\
    PROMPTSET_LLM_MODEL=gpt-4o-mini promptset generate --brief brief.json --llm -o set.json

Exit codes: 0 written, 1 a brief is invalid or the LLM gave no valid set, 2 usage, I/O,
template or internal error."
)]
pub struct GenerateArgs {
    /// The client brief (JSON or YAML; `-` reads stdin), or a directory of briefs (`*.json`,
    /// `*.yaml`, `*.yml`).
    #[arg(long, value_name = "BRIEF")]
    pub brief: PathBuf,
    /// Number of topics in the topic map.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub topics: usize,
    /// Prompts per topic.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub prompts_per_topic: usize,
    /// Chooses among template variants; the same seed gives byte-identical output.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Language of the prompts (a template folder such as `en` or `zh`); defaults to
    /// the brief's first language that has templates.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// A folder laid out like `templates/` whose files replace the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Where to write the set (`-` for stdout); a directory when --brief is one.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Ask an OpenAI-compatible endpoint instead of the templates (PROMPTSET_LLM_BASE_URL,
    /// PROMPTSET_LLM_API_KEY, PROMPTSET_LLM_MODEL).
    #[arg(long)]
    pub llm: bool,
    /// No warnings and no progress bar on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `promptset generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode> {
    let options = Options {
        topics: args.topics,
        prompts_per_topic: args.prompts_per_topic,
        seed: args.seed,
        lang: args.lang.clone(),
    };
    let generator = Generator::new(args.templates.as_deref())?;
    if args.brief.is_dir() {
        return run_directory(&args, &generator, &options);
    }
    // `-` reads the brief from stdin (JSON or YAML, told apart by its first character).
    let input = Input::from_arg(&args.brief);
    let name = input.name();
    let bytes = input.read()?;
    let brief = match parse_brief(&bytes, BriefFormat::from_path(&args.brief)) {
        Ok(brief) => brief,
        Err(diagnostics) => {
            report_brief(&name, diagnostics)?;
            return Ok(ExitCode::from(1));
        }
    };
    if args.llm {
        return run_llm(&args, &generator, &brief, &options);
    }
    let generated = generator.generate(&brief, &options)?;
    let json = to_json(&generated.set);
    ensure_valid(&name, &json)?;
    if !args.quiet {
        for warning in &generated.warnings {
            warn(&format!("{name}: {warning}"));
        }
    }
    write_output(args.output.as_deref(), json.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn run_llm(
    args: &GenerateArgs,
    generator: &Generator,
    brief: &Brief,
    options: &Options,
) -> Result<ExitCode> {
    let config = promptset::llm::LlmConfig::from_env()?;
    let raw_path = raw_answer_path(args.output.as_deref());
    match promptset::llm::generate(generator, &config, brief, options) {
        Ok(answer) => {
            if !args.quiet {
                for warning in &answer.warnings {
                    warn(warning);
                }
            }
            write_output(args.output.as_deref(), answer.json.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(promptset::llm::LlmError::Rejected {
            raw,
            diagnostics,
            attempts,
        }) => {
            std::fs::write(&raw_path, &raw)
                .with_context(|| format!("failed to write `{}`", raw_path.display()))?;
            report_brief("llm-answer", diagnostics)?;
            #[expect(clippy::print_stderr, reason = "the binary reports its own errors")]
            {
                eprintln!(
                    "error: the LLM gave no valid prompt set after {attempts} {}; nothing was written to the output\nhint: its last answer is kept in `{}`",
                    if attempts == 1 { "attempt" } else { "attempts" },
                    raw_path.display()
                );
            }
            Ok(ExitCode::from(1))
        }
        Err(other) => Err(other.into()),
    }
}

/// Where a rejected LLM answer is kept: beside the output, or in the working directory.
fn raw_answer_path(output: Option<&Path>) -> PathBuf {
    match output {
        Some(path) if path != Path::new("-") => {
            let mut name = path.file_name().unwrap_or_default().to_os_string();
            name.push(".llm-raw.txt");
            path.with_file_name(name)
        }
        _ => PathBuf::from("promptset-llm-raw.txt"),
    }
}

fn run_directory(
    args: &GenerateArgs,
    generator: &Generator,
    options: &Options,
) -> Result<ExitCode> {
    if args.llm {
        bail!("`--llm` takes one brief file, not a directory");
    }
    let Some(out_dir) = args.output.as_deref().filter(|p| *p != Path::new("-")) else {
        bail!("`--brief` is a directory, so `-o` must name an output directory");
    };
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("failed to create `{}`", out_dir.display()))?;
    let mut briefs = Vec::new();
    collect_briefs(&args.brief, &mut briefs)?;
    briefs.sort();
    let progress = if args.quiet || !interactive() || briefs.len() < 2 {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(briefs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {pos}/{len} briefs [{bar:30}] {per_sec} eta {eta}",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        bar
    };
    let results: Vec<(PathBuf, Result<Outcome>)> = briefs
        .par_iter()
        .map(|path| {
            let outcome = generate_one(path, out_dir, generator, options);
            progress.inc(1);
            (path.clone(), outcome)
        })
        .collect();
    progress.finish_and_clear();
    let (mut written, mut invalid, mut failed) = (0usize, 0usize, 0usize);
    for (path, result) in results {
        match result {
            Ok(Outcome::Written(warnings)) => {
                written += 1;
                if !args.quiet {
                    for warning in warnings {
                        warn(&format!("{}: {warning}", path.display()));
                    }
                }
            }
            Ok(Outcome::Invalid(diagnostics)) => {
                invalid += 1;
                report_brief(&path.display().to_string(), diagnostics)?;
            }
            Err(error) => {
                failed += 1;
                #[expect(clippy::print_stderr, reason = "errors go to stderr")]
                {
                    eprintln!("error: {error:#}");
                }
            }
        }
    }
    if !args.quiet {
        #[expect(clippy::print_stderr, reason = "the summary is for people")]
        {
            eprintln!(
                "generated {written} of {} prompt sets into `{}` ({invalid} invalid briefs, {failed} errors)",
                briefs.len(),
                out_dir.display()
            );
        }
    }
    Ok(if failed > 0 {
        ExitCode::from(2)
    } else if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

enum Outcome {
    Written(Vec<String>),
    Invalid(Vec<promptset::diagnostic::Diagnostic>),
}

fn generate_one(
    path: &Path,
    out_dir: &Path,
    generator: &Generator,
    options: &Options,
) -> Result<Outcome> {
    let bytes =
        std::fs::read(path).with_context(|| format!("failed to read `{}`", path.display()))?;
    let brief = match parse_brief(&bytes, BriefFormat::from_path(path)) {
        Ok(brief) => brief,
        Err(diagnostics) => return Ok(Outcome::Invalid(diagnostics)),
    };
    let generated = generator
        .generate(&brief, options)
        .with_context(|| format!("failed to generate from `{}`", path.display()))?;
    let json = to_json(&generated.set);
    ensure_valid(&path.display().to_string(), &json)?;
    let stem = path.file_stem().unwrap_or_default();
    let target = out_dir.join(stem).with_extension("json");
    std::fs::write(&target, json)
        .with_context(|| format!("failed to write `{}`", target.display()))?;
    Ok(Outcome::Written(generated.warnings))
}

fn collect_briefs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)
        .with_context(|| format!("failed to read directory `{}`", dir.display()))?
    {
        let path = entry
            .with_context(|| format!("failed to list `{}`", dir.display()))?
            .path();
        let is_dir = std::fs::symlink_metadata(&path)
            .map(|m| m.is_dir())
            .unwrap_or(false);
        if is_dir {
            collect_briefs(&path, out)?;
        } else if is_brief_path(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// The generator's own output must validate; anything else is a bug, reported as one.
fn ensure_valid(name: &str, json: &str) -> Result<()> {
    static VALIDATOR: std::sync::OnceLock<Validator> = std::sync::OnceLock::new();
    let validator = VALIDATOR.get_or_init(Validator::default);
    let validation = validator.validate(json.as_bytes());
    if let Some(first) = validation.diagnostics.first() {
        bail!(
            "internal error: the set generated from `{name}` does not validate ({} at {}: {}); please report it",
            first.rule,
            first.pointer,
            first.message
        );
    }
    Ok(())
}

fn report_brief(name: &str, diagnostics: Vec<promptset::diagnostic::Diagnostic>) -> Result<()> {
    let reports = [FileReport::new(name, diagnostics)];
    let rules = rules::of(&[Category::Document]);
    let tool = Tool::new("promptset generate", &rules);
    let mut stderr = std::io::stderr().lock();
    render(Format::Text, tool, &reports, &mut stderr).context("failed to write to stderr")
}

fn warn(message: &str) {
    #[expect(clippy::print_stderr, reason = "warnings go to stderr")]
    {
        eprintln!("warning: {message}");
    }
}
