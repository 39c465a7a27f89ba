//! `promptset generate --llm`: the generator prompt sent to an OpenAI-compatible Chat
//! Completions endpoint (OpenAI, OpenRouter, Ollama, vLLM) with structured outputs.
//!
//! The request carries the `openai-strict` schema (`response_format: json_schema`,
//! `strict: true`). The answer is normalised (its `null`s dropped), validated with the
//! same validator as `promptset validate` and linted; when it fails, one repair request
//! quotes the problems, and if that fails too the caller gets [`LlmError::Rejected`]
//! with the raw answer so that it can be kept, never written as if it were valid.
//! Timeouts, connection failures, 429 (honouring `Retry-After`) and 5xx are retried with
//! bounded exponential backoff.

use std::time::Duration;

use serde_json::{Value, json};

use crate::brief::Brief;
use crate::diagnostic::Diagnostic;
use crate::generate::{GenerateError, Generator, Options, layer_counts, to_json};
use crate::lint::misfit;
use crate::model::PromptSet;
use crate::schema::{Variant, schema};
use crate::validate::Validator;

/// The template of the generator prompt.
pub const GENERATOR_TEMPLATE: &str = "generator-prompt.j2";

/// A set that scores below this in lint gets a repair request.
pub const MIN_SCORE: u32 = 85;

/// Where and how to reach the model.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URL of the API, e.g. `https://api.openai.com/v1` (`/chat/completions` is appended).
    pub base_url: String,
    /// Bearer token; optional because local servers (Ollama, vLLM) often need none.
    pub api_key: Option<String>,
    /// Model name, e.g. `gpt-4o-mini`.
    pub model: String,
    /// Time limit of one HTTP request.
    pub timeout: Duration,
    /// Retries after a timeout, a connection failure, a 429 or a 5xx.
    pub max_retries: u32,
    /// First backoff; doubled on every retry.
    pub backoff: Duration,
    /// Upper bound of any wait, including a server's `Retry-After`.
    pub max_wait: Duration,
}

impl LlmConfig {
    /// A configuration with the default timeout (120 s), retries (4) and backoff (1 s, at most 30 s).
    pub fn new(
        base_url: impl Into<String>,
        api_key: Option<String>,
        model: impl Into<String>,
    ) -> Self {
        LlmConfig {
            base_url: base_url.into(),
            api_key,
            model: model.into(),
            timeout: Duration::from_secs(120),
            max_retries: 4,
            backoff: Duration::from_secs(1),
            max_wait: Duration::from_secs(30),
        }
    }

    /// Reads `PROMPTSET_LLM_BASE_URL`, `PROMPTSET_LLM_API_KEY`, `PROMPTSET_LLM_MODEL`
    /// and, optionally, `PROMPTSET_LLM_TIMEOUT` (seconds).
    pub fn from_env() -> Result<Self, LlmError> {
        let get = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let base_url = get("PROMPTSET_LLM_BASE_URL").ok_or_else(|| {
            LlmError::Config("`PROMPTSET_LLM_BASE_URL` is not set (e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`)".into())
        })?;
        let model = get("PROMPTSET_LLM_MODEL").ok_or_else(|| {
            LlmError::Config("`PROMPTSET_LLM_MODEL` is not set (e.g. `gpt-4o-mini`)".into())
        })?;
        let mut config = LlmConfig::new(base_url, get("PROMPTSET_LLM_API_KEY"), model);
        if let Some(timeout) = get("PROMPTSET_LLM_TIMEOUT") {
            let seconds: u64 = timeout.trim().parse().map_err(|_| {
                LlmError::Config(format!(
                    "`PROMPTSET_LLM_TIMEOUT` must be a number of seconds, not `{timeout}`"
                ))
            })?;
            config.timeout = Duration::from_secs(seconds.max(1));
        }
        Ok(config)
    }
}

/// What can go wrong when asking the model.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The environment does not say where the model is.
    #[error("{0}")]
    Config(String),
    /// The generator prompt failed to render.
    #[error(transparent)]
    Template(#[from] GenerateError),
    /// The endpoint answered with an error that retrying does not fix.
    #[error("the LLM endpoint answered {status}: {body}")]
    Status {
        /// HTTP status.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// The endpoint could not be reached, or kept failing, within the retries.
    #[error("the LLM endpoint failed after {attempts} attempts: {last}")]
    Unavailable {
        /// Requests made.
        attempts: u32,
        /// The last failure.
        last: String,
    },
    /// The endpoint's answer is not a Chat Completions response.
    #[error("the LLM endpoint's answer is not a chat completion: {0}")]
    Protocol(String),
    /// The model refused to answer.
    #[error("the model refused: {0}")]
    Refused(String),
    /// The model's answer stayed invalid after the repair request.
    #[error("the LLM answer is not a valid prompt set after {attempts} attempts")]
    Rejected {
        /// The last raw answer, to keep for inspection.
        raw: String,
        /// What is wrong with it.
        diagnostics: Vec<Diagnostic>,
        /// Answers received.
        attempts: usize,
    },
}

/// A valid prompt set from the model.
#[derive(Debug, Clone)]
pub struct LlmAnswer {
    /// The set.
    pub set: PromptSet<'static>,
    /// The set as written: canonical JSON, nulls dropped, pretty, trailing newline.
    pub json: String,
    /// Remarks worth a warning (a repair was needed, the score stayed low).
    pub warnings: Vec<String>,
    /// Answers received (1, or 2 after a repair).
    pub attempts: usize,
}

/// Renders the generator prompt for `brief`.
pub fn render_prompt(
    generator: &Generator,
    brief: &Brief,
    options: &Options,
) -> Result<String, GenerateError> {
    let counts = layer_counts(options.topics.max(1), options.prompts_per_topic.max(1));
    let first = counts.first().copied().unwrap_or([0, 0, 0]);
    let language = options
        .lang
        .clone()
        .or_else(|| brief.languages.first().cloned())
        .unwrap_or_else(|| "en".to_owned());
    let brief_json = serde_json::to_string_pretty(brief).expect("a brief always serializes");
    // The same offer facts the templates follow, stated or inferred, so the model does
    // not ask about warranties for a donation or cancellations for goods.
    let offer = brief.offering.clone().unwrap_or_default();
    let facts = crate::generate::offer::facts(brief, &offer, &mut Vec::new());
    let context = minijinja::context! {
        offer_kind => facts.kind.map_or("", |k| k.as_str()),
        buyers => facts.buyers.map_or("", |b| b.as_str()),
        brand => brief.brand_name.trim(),
        business_model => brief.business_model.as_str(),
        brief_json => brief_json,
        topics => options.topics,
        prompts_per_topic => options.prompts_per_topic,
        language => language,
        non_brand => first[0],
        competitor => first[1],
        brand_defense => first[2],
    };
    generator.templates().render(GENERATOR_TEMPLATE, &context)
}

/// Asks the model for a prompt set, validates and lints it, and repairs it once.
pub fn generate(
    generator: &Generator,
    config: &LlmConfig,
    brief: &Brief,
    options: &Options,
) -> Result<LlmAnswer, LlmError> {
    let prompt = render_prompt(generator, brief, options)?;
    let client = Client::new(config);
    let mut messages = vec![
        json!({"role": "system", "content": "You build topic-first prompt sets for generative engine optimization. Answer with one JSON object that follows the given schema exactly."}),
        json!({"role": "user", "content": prompt}),
    ];
    let validator = Validator::new(Variant::OpenAiStrict);
    // The brief knows the channels and audiences a set does not carry, so the answer's
    // wording is judged against the brief itself.
    let context = misfit::Context::from_brief(brief);
    let mut warnings = Vec::new();
    let mut attempts = 0;
    loop {
        let raw = client.complete(&messages)?;
        attempts += 1;
        let problems = match check(&validator, &raw) {
            Ok((set, score)) => {
                let misfits = misfit::check_set(&set, &context);
                if (score >= MIN_SCORE && misfits.is_empty()) || attempts >= 2 {
                    if score < MIN_SCORE {
                        warnings.push(format!("the LLM's prompt set scores {score} in lint, below {MIN_SCORE}; run `promptset lint` on it"));
                    }
                    if !misfits.is_empty() {
                        warnings.push(format!(
                            "{} prompt(s) of the LLM's set still have misfits after the repair request; run `promptset lint` on it",
                            misfits.iter().map(|(index, _)| index).collect::<std::collections::BTreeSet<_>>().len()
                        ));
                    }
                    if attempts > 1 {
                        warnings.push("the LLM's first answer needed a repair request".to_owned());
                    }
                    let json = to_json(&set);
                    return Ok(LlmAnswer {
                        set,
                        json,
                        warnings,
                        attempts,
                    });
                }
                if misfits.is_empty() {
                    Problems::LowScore(score, lint_findings(&set))
                } else {
                    Problems::Misfits(misfits)
                }
            }
            Err(diagnostics) => Problems::Invalid(diagnostics),
        };
        if attempts >= 2 {
            let diagnostics = match problems {
                Problems::Invalid(d) => d,
                Problems::LowScore(_, d) => d,
                Problems::Misfits(_) => Vec::new(),
            };
            return Err(LlmError::Rejected {
                raw,
                diagnostics,
                attempts,
            });
        }
        messages.push(json!({"role": "assistant", "content": raw}));
        messages.push(json!({"role": "user", "content": repair_request(&problems)}));
    }
}

enum Problems {
    Invalid(Vec<Diagnostic>),
    LowScore(u32, Vec<Diagnostic>),
    /// Prompts an analyst would reject: `(prompt index, misfit)`.
    Misfits(Vec<(usize, misfit::Misfit)>),
}

fn lint_findings(set: &PromptSet<'_>) -> Vec<Diagnostic> {
    crate::lint::lint(set, None).diagnostics
}

fn repair_request(problems: &Problems) -> String {
    let (intro, diagnostics) = match problems {
        Problems::Misfits(misfits) => return misfit_request(misfits),
        Problems::Invalid(d) => (
            "Your answer is not a valid prompt set. Fix these problems:".to_owned(),
            d,
        ),
        Problems::LowScore(score, d) => (
            format!(
                "Your prompt set is valid but scores {score}/100 in quality lint (at least {MIN_SCORE} is required). Fix these findings:"
            ),
            d,
        ),
    };
    let mut text = intro;
    for diagnostic in diagnostics.iter().take(40) {
        let place = if diagnostic.pointer.is_empty() {
            "(document)".to_owned()
        } else {
            diagnostic.pointer.clone()
        };
        text.push_str(&format!(
            "\n- {place}: [{}] {}",
            diagnostic.rule, diagnostic.message
        ));
    }
    if diagnostics.len() > 40 {
        text.push_str(&format!(
            "\n- … and {} more of the same kinds",
            diagnostics.len() - 40
        ));
    }
    text.push_str("\nAnswer with the complete corrected JSON object only.");
    text
}

/// The repair request for prompts with misfits: each prompt's pointer, what is wrong
/// and, where the lint has one, the rewrite it suggests.
fn misfit_request(misfits: &[(usize, misfit::Misfit)]) -> String {
    let mut text = "Your prompt set is valid, but a client's analyst would reject these prompts. \
Rewrite each one as a buyer of this business would type it, keeping its topic, layer and funnel stage:"
        .to_owned();
    for (index, misfit) in misfits.iter().take(40) {
        text.push_str(&format!(
            "\n- /prompts/{index}/prompt: [{}] {}",
            misfit.rule, misfit.message
        ));
        if let Some(rewrite) = &misfit.suggestion {
            text.push_str(&format!(" (for example: {rewrite})"));
        }
    }
    if misfits.len() > 40 {
        text.push_str(&format!(
            "\n- … and {} more of the same kinds",
            misfits.len() - 40
        ));
    }
    text.push_str("\nAnswer with the complete corrected JSON object only.");
    text
}

/// Validates an answer (nulls dropped) and scores it; the diagnostics on failure.
fn check(validator: &Validator, raw: &str) -> Result<(PromptSet<'static>, u32), Vec<Diagnostic>> {
    let validation = validator.validate(raw.as_bytes());
    match validation.document {
        Some(set) => {
            let set = set.into_owned();
            let score = crate::lint::score(&set).overall_score;
            Ok((set, score))
        }
        None => Err(validation.diagnostics),
    }
}

struct Client<'c> {
    config: &'c LlmConfig,
    agent: ureq::Agent,
    url: String,
}

/// The outcome of one HTTP exchange, before retry policy.
enum Exchange {
    Done(String),
    Retry {
        reason: String,
        wait: Option<Duration>,
    },
}

impl<'c> Client<'c> {
    fn new(config: &'c LlmConfig) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let url = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        Client { config, agent, url }
    }

    /// One chat completion, with retries; returns the message content.
    fn complete(&self, messages: &[Value]) -> Result<String, LlmError> {
        let body = json!({
            "model": self.config.model,
            "messages": messages,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "prompt_set",
                    "strict": true,
                    "schema": schema(Variant::OpenAiStrict),
                }
            }
        })
        .to_string();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let (reason, wait) = match self.exchange(&body)? {
                Exchange::Done(text) => return parse_completion(&text),
                Exchange::Retry { reason, wait } => (reason, wait),
            };
            if attempt > self.config.max_retries {
                return Err(LlmError::Unavailable {
                    attempts: attempt,
                    last: reason,
                });
            }
            let backoff = self
                .config
                .backoff
                .saturating_mul(1 << (attempt - 1).min(16));
            std::thread::sleep(wait.unwrap_or(backoff).min(self.config.max_wait));
        }
    }

    fn exchange(&self, body: &str) -> Result<Exchange, LlmError> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json");
        if let Some(key) = &self.config.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let mut response = match request.send(body) {
            Ok(response) => response,
            Err(error) => return transport_failure(error),
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = match response
            .body_mut()
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_to_string()
        {
            Ok(text) => text,
            Err(error) => return transport_failure(error),
        };
        match status {
            200..=299 => Ok(Exchange::Done(text)),
            429 => Ok(Exchange::Retry {
                reason: format!("429 Too Many Requests: {}", excerpt(&text)),
                wait: retry_after,
            }),
            408 | 500..=599 => Ok(Exchange::Retry {
                reason: format!("{status}: {}", excerpt(&text)),
                wait: retry_after,
            }),
            _ => Err(LlmError::Status {
                status,
                body: excerpt(&text),
            }),
        }
    }
}

fn transport_failure(error: ureq::Error) -> Result<Exchange, LlmError> {
    match error {
        ureq::Error::Timeout(_)
        | ureq::Error::Io(_)
        | ureq::Error::ConnectionFailed
        | ureq::Error::HostNotFound
        | ureq::Error::BodyStalled
        | ureq::Error::Protocol(_) => Ok(Exchange::Retry {
            reason: error.to_string(),
            wait: None,
        }),
        other => Err(LlmError::Unavailable {
            attempts: 1,
            last: other.to_string(),
        }),
    }
}

fn excerpt(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= 300 {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(299).collect::<String>())
    }
}

/// The assistant message's content; a cut-off answer is returned as is (validation then
/// reports it as cut off), a refusal is an error.
fn parse_completion(text: &str) -> Result<String, LlmError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| LlmError::Protocol(format!("{e} in `{}`", excerpt(text))))?;
    let choice = value
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| LlmError::Protocol(format!("no `choices` in `{}`", excerpt(text))))?;
    let message = choice
        .get("message")
        .ok_or_else(|| LlmError::Protocol("the first choice has no `message`".into()))?;
    if let Some(refusal) = message.get("refusal").and_then(Value::as_str) {
        return Err(LlmError::Refused(refusal.to_owned()));
    }
    let content = message
        .get("content")
        .and_then(Value::as_str)
        .ok_or_else(|| LlmError::Protocol("the message has no text `content`".into()))?;
    Ok(strip_fences(content).to_owned())
}

/// Some servers wrap JSON in a Markdown fence even in JSON mode.
fn strip_fences(content: &str) -> &str {
    let trimmed = content.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return content;
    };
    let rest = rest.strip_prefix("json").unwrap_or(rest);
    rest.strip_suffix("```").map_or(content, str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_markdown_fences() {
        assert_eq!(strip_fences("```json\n{\"a\":1}\n```"), "{\"a\":1}");
        assert_eq!(strip_fences("{\"a\":1}"), "{\"a\":1}");
    }

    #[test]
    fn refusals_are_errors() {
        let text =
            r#"{"choices":[{"message":{"role":"assistant","content":null,"refusal":"no"}}]}"#;
        assert!(matches!(parse_completion(text), Err(LlmError::Refused(_))));
    }
}
