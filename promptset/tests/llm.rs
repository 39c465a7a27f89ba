//! `generate --llm` against a small OpenAI-compatible Chat Completions server started in
//! the test (127.0.0.1:0) that answers with recorded responses: valid, invalid then
//! repaired, malformed, cut off, rate-limited (429 + Retry-After), 5xx then OK.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use promptset::brief::{Brief, BriefFormat, parse_brief};
use promptset::generate::{Generator, Options};
use promptset::llm::{LlmConfig, LlmError, generate};
use serde_json::{Value, json};

/// One recorded answer: status, `Retry-After`, body.
type Recorded = (u16, Option<&'static str>, String);

#[derive(Clone, Default)]
struct Recorder {
    answers: Arc<Mutex<VecDeque<Recorded>>>,
    requests: Arc<Mutex<Vec<(HeaderMap, Value)>>>,
}

async fn chat_completions(
    State(recorder): State<Recorder>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    recorder
        .requests
        .lock()
        .expect("lock")
        .push((headers, request));
    let next = recorder.answers.lock().expect("lock").pop_front();
    let Some((status, retry_after, body)) = next else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no recorded answer left").into_response();
    };
    let mut response = (StatusCode::from_u16(status).expect("valid status"), body).into_response();
    response
        .headers_mut()
        .insert("content-type", "application/json".parse().expect("header"));
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert("retry-after", seconds.parse().expect("header"));
    }
    response
}

/// A server on 127.0.0.1:0 answering `answers` in order; returns its base URL.
fn serve(answers: Vec<Recorded>) -> (String, Recorder) {
    let recorder = Recorder::default();
    recorder.answers.lock().expect("lock").extend(answers);
    let app = Router::new()
        .route("/v1/chat/completions", post(chat_completions))
        .with_state(recorder.clone());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            axum::serve(listener, app).await.expect("serve");
        });
    });
    (format!("http://{address}/v1"), recorder)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn brief() -> Brief {
    let path = root().join("fixtures/briefs/saas-analytics.json");
    parse_brief(
        &std::fs::read(&path).expect("fixture"),
        BriefFormat::from_path(&path),
    )
    .expect("valid brief")
}

/// A valid answer as a model would give it under the strict schema: absent optional
/// fields spelled as `null`. It is the hand-written clean set of `fixtures/flawed/`,
/// which scores high and has no misfit, so it needs no repair.
fn valid_content() -> String {
    strict_answer("fixtures/flawed/baseline.json")
}

/// A fixture set as a strict-schema answer (two optional fields as `null`).
fn strict_answer(fixture: &str) -> String {
    let text = std::fs::read_to_string(root().join(fixture)).expect("fixture");
    let mut value: Value = serde_json::from_str(&text).expect("json");
    value["prompts"][0]["recommended_asset_type"] = Value::Null;
    value["client_summary"]["input_topics"] = Value::Null;
    value.to_string()
}

fn completion(content: &str, finish_reason: &str) -> String {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}]
    })
    .to_string()
}

fn config(base_url: &str) -> LlmConfig {
    let mut config = LlmConfig::new(base_url, Some("sk-test".into()), "test-model");
    config.backoff = Duration::from_millis(10);
    config.max_wait = Duration::from_millis(200);
    config.timeout = Duration::from_secs(10);
    config
}

fn run(answers: Vec<Recorded>) -> (Result<promptset::llm::LlmAnswer, LlmError>, Recorder) {
    let (url, recorder) = serve(answers);
    let generator = Generator::new(None).expect("templates");
    let result = generate(&generator, &config(&url), &brief(), &Options::default());
    (result, recorder)
}

#[test]
fn valid_answer_is_normalised_and_request_uses_the_strict_schema() {
    let (result, recorder) = run(vec![(200, None, completion(&valid_content(), "stop"))]);
    let answer = result.expect("valid answer");
    assert_eq!(answer.attempts, 1);
    assert!(!answer.json.contains("null"), "nulls are dropped");
    let requests = recorder.requests.lock().expect("lock");
    let (headers, body) = &requests[0];
    assert_eq!(
        headers.get("authorization").and_then(|v| v.to_str().ok()),
        Some("Bearer sk-test")
    );
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    assert_eq!(
        body["response_format"]["json_schema"]["schema"],
        promptset::schema::schema(promptset::schema::Variant::OpenAiStrict)
    );
    let prompt = body["messages"][1]["content"]
        .as_str()
        .expect("user prompt");
    assert!(
        prompt.contains("Metricly") && prompt.contains("\"business_model\": \"saas\""),
        "the brief is in the prompt"
    );
}

#[test]
fn invalid_answer_is_repaired_with_the_errors_quoted() {
    let mut broken: Value = serde_json::from_str(&valid_content()).expect("json");
    broken.as_object_mut().expect("object").remove("strategy");
    broken["prompts"][1]["layer"] = json!("brand");
    let (result, recorder) = run(vec![
        (200, None, completion(&broken.to_string(), "stop")),
        (200, None, completion(&valid_content(), "stop")),
    ]);
    let answer = result.expect("repaired");
    assert_eq!(answer.attempts, 2);
    let requests = recorder.requests.lock().expect("lock");
    assert_eq!(requests.len(), 2);
    let repair = requests[1].1["messages"][3]["content"]
        .as_str()
        .expect("repair request");
    assert!(
        repair.contains("missing required field `strategy`"),
        "{repair}"
    );
    assert!(repair.contains("/prompts/1/layer"), "{repair}");
    assert_eq!(requests[1].1["messages"][2]["role"], "assistant");
}

#[test]
fn answer_with_misfits_is_repaired_with_the_misfits_quoted() {
    // Valid and well scored, but one prompt says `a invoicing software`.
    let flawed = strict_answer("fixtures/flawed/agreement.json");
    let (result, recorder) = run(vec![
        (200, None, completion(&flawed, "stop")),
        (200, None, completion(&valid_content(), "stop")),
    ]);
    let answer = result.expect("repaired answer");
    assert_eq!(answer.attempts, 2);
    assert!(
        answer.warnings.iter().any(|w| w.contains("repair")),
        "{:?}",
        answer.warnings
    );
    let requests = recorder.requests.lock().expect("lock");
    assert_eq!(requests.len(), 2);
    let repair = requests[1].1["messages"][3]["content"]
        .as_str()
        .expect("repair request");
    assert!(
        repair.contains("/prompts/4/prompt: [agreement]"),
        "the repair request points at the prompt and names the rule: {repair}"
    );
    assert!(
        repair.contains("How much do an invoicing software cost"),
        "the suggested rewrite is quoted: {repair}"
    );
}

#[test]
fn answer_still_with_misfits_after_the_repair_is_kept_with_a_warning() {
    let flawed = strict_answer("fixtures/flawed/region-as-place.json");
    let (result, _) = run(vec![
        (200, None, completion(&flawed, "stop")),
        (200, None, completion(&flawed, "stop")),
    ]);
    let answer = result.expect("valid answer is kept");
    assert_eq!(answer.attempts, 2);
    assert!(
        answer.warnings.iter().any(|w| w.contains("misfits")),
        "{:?}",
        answer.warnings
    );
}

#[test]
fn malformed_answers_are_rejected_with_the_raw_text() {
    let (result, _) = run(vec![
        (
            200,
            None,
            completion("Sure! Here is your prompt set: {", "stop"),
        ),
        (200, None, completion("I cannot produce JSON", "stop")),
    ]);
    match result {
        Err(LlmError::Rejected {
            raw,
            diagnostics,
            attempts,
        }) => {
            assert_eq!(attempts, 2);
            assert_eq!(raw, "I cannot produce JSON");
            assert_eq!(diagnostics[0].rule, "syntax");
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn cut_off_answers_are_rejected() {
    let content = valid_content();
    let cut = &content[..content.len() / 2];
    let (result, _) = run(vec![
        (200, None, completion(cut, "length")),
        (200, None, completion(cut, "length")),
    ]);
    match result {
        Err(LlmError::Rejected { diagnostics, .. }) => {
            assert!(
                diagnostics[0].message.contains("cut off"),
                "{diagnostics:?}"
            );
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn rate_limits_and_server_errors_are_retried() {
    let (result, recorder) = run(vec![
        (
            429,
            Some("0"),
            r#"{"error":{"message":"rate limited"}}"#.to_owned(),
        ),
        (500, None, r#"{"error":{"message":"boom"}}"#.to_owned()),
        (503, None, "unavailable".to_owned()),
        (200, None, completion(&valid_content(), "stop")),
    ]);
    assert_eq!(result.expect("eventually valid").attempts, 1);
    assert_eq!(recorder.requests.lock().expect("lock").len(), 4);
}

#[test]
fn retries_are_bounded_and_client_errors_are_not_retried() {
    let answers = (0..10).map(|_| (503, None, "down".to_owned())).collect();
    let (result, recorder) = run(answers);
    assert!(
        matches!(result, Err(LlmError::Unavailable { attempts: 5, .. })),
        "{result:?}"
    );
    assert_eq!(recorder.requests.lock().expect("lock").len(), 5);

    let (result, recorder) = run(vec![(401, None, r#"{"error":"bad key"}"#.to_owned())]);
    assert!(
        matches!(result, Err(LlmError::Status { status: 401, .. })),
        "{result:?}"
    );
    assert_eq!(recorder.requests.lock().expect("lock").len(), 1);
}

#[test]
fn cli_keeps_a_rejected_answer_out_of_the_output() {
    let (url, _) = serve(vec![
        (200, None, completion("{\"client_summary\": {", "length")),
        (200, None, completion("{\"client_summary\": {", "length")),
    ]);
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("set.json");
    let result = std::process::Command::new(env!("CARGO_BIN_EXE_promptset"))
        .args(["generate", "--llm", "--brief"])
        .arg(root().join("fixtures/briefs/saas-analytics.json"))
        .arg("-o")
        .arg(&output)
        .env("PROMPTSET_LLM_BASE_URL", &url)
        .env("PROMPTSET_LLM_MODEL", "test-model")
        .env_remove("PROMPTSET_LLM_API_KEY")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    assert!(
        !output.exists(),
        "an invalid answer never reaches the output"
    );
    let raw = dir.path().join("set.json.llm-raw.txt");
    assert_eq!(
        std::fs::read_to_string(&raw).expect("raw kept"),
        "{\"client_summary\": {"
    );
    assert!(
        stderr.contains("the LLM gave no valid prompt set after 2 attempts"),
        "{stderr}"
    );
    assert!(stderr.contains("cut off"), "{stderr}");
}

#[test]
fn cli_writes_a_valid_answer() {
    let (url, _) = serve(vec![(200, None, completion(&valid_content(), "stop"))]);
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("set.json");
    let result = std::process::Command::new(env!("CARGO_BIN_EXE_promptset"))
        .args(["generate", "--llm", "--brief"])
        .arg(root().join("fixtures/briefs/saas-analytics.json"))
        .arg("-o")
        .arg(&output)
        .env("PROMPTSET_LLM_BASE_URL", &url)
        .env("PROMPTSET_LLM_MODEL", "test-model")
        .output()
        .expect("runs");
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let written = std::fs::read(&output).expect("written");
    assert!(
        promptset::validate::Validator::default()
            .validate(&written)
            .is_valid()
    );
}
