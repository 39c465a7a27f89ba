//! Seeds a running registry with many published skills through its real HTTP API, for
//! load tests (`scripts/bench-registry.sh`).
//!
//! Every skill goes through `POST /api/v1/skills` as a multipart publish (a JSON `payload`
//! part plus one `files` part per file), so the scanner, fingerprinting, storage and
//! search indexing all run exactly as for a real publish. Content is deterministic: the
//! same `--count` always produces the same bundles.
//!
//! ```text
//! cargo run --release -p registry --example seed -- \
//!     --base http://127.0.0.1:8080 --token "$TOKEN" --count 10000 --concurrency 8
//! ```

use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use clap::Parser;
use reqwest::multipart::{Form, Part};
use tokio::task::JoinSet;

/// Words the generated skills are made of; search benchmarks query some of them.
const WORDS: &[&str] = &[
    "prompt",
    "topic",
    "brand",
    "search",
    "answer",
    "monitor",
    "layer",
    "funnel",
    "customer",
    "asset",
    "value",
    "registry",
    "skill",
    "package",
    "version",
    "publish",
    "install",
    "token",
    "market",
    "review",
    "weather",
    "calendar",
    "invoice",
    "email",
    "summary",
    "report",
    "chart",
    "database",
    "query",
    "deploy",
    "backup",
    "translate",
    "image",
    "audio",
    "notes",
    "tasks",
];

#[derive(Debug, Parser)]
#[command(about = "Publish many generated skills into a running registry")]
struct Args {
    /// Base URL of the registry.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// API token of the publishing user (`registry token create --user bench`).
    #[arg(long, env = "REGISTRY_SEED_TOKEN")]
    token: String,
    /// Number of skills to publish.
    #[arg(long, default_value_t = 10_000)]
    count: u32,
    /// First index, to add skills to an already seeded registry.
    #[arg(long, default_value_t = 0)]
    start: u32,
    /// Publishes in flight at once.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Slug prefix: skills are named `<prefix>-skill-00000` and up.
    #[arg(long, default_value = "bench")]
    prefix: String,
}

/// A tiny deterministic generator, so runs are reproducible without a rand dependency.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn word(&mut self) -> &'static str {
        let index = usize::try_from(self.next()).unwrap_or_default() % WORDS.len();
        WORDS[index]
    }

    fn sentence(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| self.word())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The files of skill number `index`: SKILL.md with frontmatter, a README and a helper.
fn skill_files(slug: &str, index: u32) -> Vec<(String, &'static str, Vec<u8>)> {
    let mut random = Lcg(u64::from(index) + 1);
    let mut skill_md = format!(
        "---\nname: {slug}\ndescription: {} {}\n---\n\n# {slug}\n\n",
        random.word(),
        random.sentence(10)
    );
    for step in 0..8 {
        skill_md.push_str(&format!("## Step {step}\n\n{}\n\n", random.sentence(24)));
    }
    let mut helper = String::from("\"\"\"Helper functions for the skill.\"\"\"\n\n");
    for function in 0..12 {
        helper.push_str(&format!(
            "def f{function}(x):\n    return x * {function}  # {}\n\n",
            random.sentence(4)
        ));
    }
    vec![
        (
            "SKILL.md".to_owned(),
            "text/markdown",
            skill_md.into_bytes(),
        ),
        (
            "scripts/helper.py".to_owned(),
            "text/x-python",
            helper.into_bytes(),
        ),
    ]
}

fn publish_form(slug: &str, index: u32) -> Result<Form> {
    let payload = serde_json::json!({
        "slug": slug,
        "displayName": format!("Bench Skill {index}"),
        "version": "1.0.0",
        "changelog": "Initial benchmark release",
        "acceptLicenseTerms": true,
        "tags": ["latest"],
    });
    let mut form = Form::new().text("payload", payload.to_string());
    for (path, content_type, bytes) in skill_files(slug, index) {
        let part = Part::bytes(bytes)
            .file_name(path)
            .mime_str(content_type)
            .context("invalid content type")?;
        form = form.part("files", part);
    }
    Ok(form)
}

/// Publishes one skill, waiting out rate limits (the benchmark raises them, but a seed
/// against default limits should still finish).
async fn publish(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    slug: &str,
    index: u32,
) -> Result<()> {
    const ATTEMPTS: u32 = 20;
    for attempt in 1..=ATTEMPTS {
        let response = client
            .post(format!("{base}/api/v1/skills"))
            .bearer_auth(token)
            .multipart(publish_form(slug, index)?)
            .send()
            .await
            .with_context(|| format!("failed to publish `{slug}`"))?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|value| value.to_str().ok()?.parse::<u64>().ok())
            .unwrap_or(1);
        let body = response.text().await.unwrap_or_default();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS && attempt < ATTEMPTS {
            tokio::time::sleep(std::time::Duration::from_secs(retry_after)).await;
            continue;
        }
        bail!("publishing `{slug}` failed with {status}: {body}");
    }
    bail!("publishing `{slug}` kept hitting the rate limit")
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    let base = args.base.trim_end_matches('/').to_owned();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.concurrency)
        .build()
        .context("failed to build the HTTP client")?;
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    let mut done = 0u32;
    let end = args.start + args.count;
    for index in args.start..end {
        if tasks.len() >= args.concurrency.max(1)
            && let Some(result) = tasks.join_next().await
        {
            result.context("a publish task panicked")??;
            done += 1;
            if done.is_multiple_of(1000) {
                eprintln!(
                    "seeded {done}/{} skills in {:.1?}",
                    args.count,
                    started.elapsed()
                );
            }
        }
        let client = client.clone();
        let base = base.clone();
        let token = args.token.clone();
        let slug = format!("{}-skill-{index:05}", args.prefix);
        tasks.spawn(async move { publish(&client, &base, &token, &slug, index).await });
    }
    while let Some(result) = tasks.join_next().await {
        result.context("a publish task panicked")??;
        done += 1;
    }
    let elapsed = started.elapsed();
    println!(
        "seeded {done} skills in {:.1} s ({:.0} publishes/s)",
        elapsed.as_secs_f64(),
        f64::from(done) / elapsed.as_secs_f64()
    );
    Ok(())
}
