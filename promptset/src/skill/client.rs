//! A small client of registry API v1 for publishing prompt skills: resolve a bundle by
//! its fingerprint, ask who the token belongs to, and publish with one multipart request
//! (a JSON `payload` part and one `files` part per file, named by its relative path).
//!
//! Every request follows the seed's client rules for status 429: wait for `Retry-After`,
//! else `RateLimit-Reset`, else until `X-RateLimit-Reset`, plus random jitter, and give up
//! after a bounded number of retries or when asked to wait too long. Any other refusal is
//! returned with its status and the server's own text.

use std::hash::{BuildHasher, Hasher};
use std::io::Read;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use ureq::SendBody;

use super::pack::Bundle;

/// Where and as whom to talk to a registry.
#[derive(Debug, Clone)]
pub struct RegistryConfig {
    /// Base URL, e.g. `https://registry.example`; API paths are appended to it.
    pub base_url: String,
    /// API token for writes (`Authorization: Bearer …`).
    pub token: Option<String>,
    /// Retries after a 429 before giving up.
    pub max_retries: u32,
    /// Longest single wait a 429 may impose before the client gives up instead.
    pub max_wait: Duration,
    /// Time limit of one request, upload included.
    pub timeout: Duration,
}

impl RegistryConfig {
    /// A configuration with 4 retries, waits of at most 90 s and a 10-minute timeout.
    pub fn new(base_url: impl Into<String>, token: Option<String>) -> Self {
        RegistryConfig {
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            token,
            max_retries: 4,
            max_wait: Duration::from_secs(90),
            timeout: Duration::from_secs(600),
        }
    }
}

/// What went wrong talking to the registry.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The registry could not be reached at all.
    #[error("cannot reach the registry at `{url}`: {message}")]
    Unreachable {
        /// The URL of the request.
        url: String,
        /// What the transport said.
        message: String,
    },
    /// The registry answered with an error status.
    #[error("the registry refused `{method} {path}` with status {status}: {body}")]
    Refused {
        /// HTTP method.
        method: &'static str,
        /// Path of the request.
        path: String,
        /// The status code.
        status: u16,
        /// The server's text, trimmed and shortened.
        body: String,
    },
    /// 429 persisted through every retry, or the registry asked for too long a wait.
    #[error(
        "the registry is rate limiting `{method} {path}` (status 429: {body}); gave up after {attempts} attempts, it asked to wait {wait_seconds} s more"
    )]
    RateLimited {
        /// HTTP method.
        method: &'static str,
        /// Path of the request.
        path: String,
        /// Requests made.
        attempts: u32,
        /// The wait the last 429 asked for.
        wait_seconds: u64,
        /// The server's text.
        body: String,
    },
    /// The registry answered 2xx with a body this client does not understand.
    #[error("unexpected answer to `{method} {path}`: {message}")]
    Protocol {
        /// HTTP method.
        method: &'static str,
        /// Path of the request.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A write was attempted without a token.
    #[error("publishing needs an API token: pass --token or set PROMPTSET_TOKEN")]
    NoToken,
}

/// Progress worth telling a person about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A 429 arrived; the client sleeps `wait` before retry number `retry`.
    RateLimited {
        /// How long the client waits (jitter included).
        wait: Duration,
        /// 1 for the first retry.
        retry: u32,
    },
    /// `sent` of `total` bytes of the publish request are on their way.
    Upload {
        /// Bytes sent so far.
        sent: u64,
        /// Bytes in all.
        total: u64,
    },
}

/// The answer of `GET /api/v1/resolve`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolution {
    /// Whether the registry knows the slug at all.
    pub exists: bool,
    /// The newest version with exactly this fingerprint.
    pub matched: Option<String>,
    /// The current latest version.
    pub latest: Option<String>,
}

/// A successful publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The slug as the registry stored it.
    pub slug: String,
    /// The version as the registry stored it.
    pub version: String,
    /// The registry's id of the new version.
    pub version_id: String,
}

/// A client of one registry.
pub struct Registry {
    config: RegistryConfig,
    agent: ureq::Agent,
}

/// One request before it is sent.
struct Call<'b> {
    method: &'static str,
    path: String,
    authorized: bool,
    body: Option<(String, &'b [u8])>,
}

impl Registry {
    /// A client for `config`.
    pub fn new(config: RegistryConfig) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("promptset/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Registry { config, agent }
    }

    /// The registry's base URL.
    pub fn base_url(&self) -> &str {
        &self.config.base_url
    }

    /// Looks the bundle fingerprint up: which version (if any) has exactly these files.
    pub fn resolve(
        &self,
        slug: &str,
        fingerprint: &str,
        events: &dyn Fn(Event),
    ) -> Result<Resolution, RegistryError> {
        let call = Call {
            method: "GET",
            path: format!(
                "/api/v1/resolve?slug={}&hash={}",
                query_escape(slug),
                query_escape(fingerprint)
            ),
            authorized: false,
            body: None,
        };
        let (status, text) = self.send(&call, events)?;
        // A 404 means the slug is new: nothing is published under it yet.
        if status == 404 {
            return Ok(Resolution::default());
        }
        let value = self.expect_json(&call, status, &text)?;
        let version = |key: &str| {
            value
                .get(key)
                .and_then(|entry| entry.get("version"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Ok(Resolution {
            exists: true,
            matched: version("match"),
            latest: version("latestVersion"),
        })
    }

    /// The handle of the user the token belongs to.
    pub fn whoami(&self, events: &dyn Fn(Event)) -> Result<String, RegistryError> {
        let call = Call {
            method: "GET",
            path: "/api/v1/whoami".into(),
            authorized: true,
            body: None,
        };
        let (status, text) = self.send(&call, events)?;
        let value = self.expect_json(&call, status, &text)?;
        value
            .pointer("/user/handle")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| RegistryError::Protocol {
                method: call.method,
                path: call.path.clone(),
                message: "no `user.handle` in the answer".into(),
            })
    }

    /// Publishes `bundle` as a new version.
    pub fn publish(
        &self,
        bundle: &Bundle,
        changelog: &str,
        events: &dyn Fn(Event),
    ) -> Result<Published, RegistryError> {
        let frontmatter = &bundle.frontmatter;
        let payload = json!({
            "slug": frontmatter.name,
            "displayName": frontmatter.display_name(),
            "version": frontmatter.version,
            "changelog": changelog,
            "acceptLicenseTerms": true,
            "tags": ["latest"],
            "topics": frontmatter.tags,
        });
        let boundary = format!("promptset-{:016x}", random_u64());
        let body = multipart(&boundary, &payload.to_string(), bundle);
        let call = Call {
            method: "POST",
            path: "/api/v1/skills".into(),
            authorized: true,
            body: Some((format!("multipart/form-data; boundary={boundary}"), &body)),
        };
        let (status, text) = self.send(&call, events)?;
        let value = self.expect_json(&call, status, &text)?;
        let field = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        match (value.get("ok"), field("versionId"), field("version")) {
            (Some(Value::Bool(true)), Some(version_id), Some(version)) => Ok(Published {
                slug: field("slug").unwrap_or_else(|| frontmatter.name.clone()),
                version,
                version_id,
            }),
            _ => Err(RegistryError::Protocol {
                method: call.method,
                path: call.path.clone(),
                message: format!(
                    "expected `ok: true`, `versionId` and `version` in `{}`",
                    excerpt(&text)
                ),
            }),
        }
    }

    fn expect_json(
        &self,
        call: &Call<'_>,
        status: u16,
        text: &str,
    ) -> Result<Value, RegistryError> {
        if !(200..300).contains(&status) {
            return Err(RegistryError::Refused {
                method: call.method,
                path: call.path.clone(),
                status,
                body: excerpt(text),
            });
        }
        serde_json::from_str(text).map_err(|error| RegistryError::Protocol {
            method: call.method,
            path: call.path.clone(),
            message: format!("{error} in `{}`", excerpt(text)),
        })
    }

    /// Sends `call`, retrying on 429 as the seed's client rules say; returns the final
    /// status and body text.
    fn send(
        &self,
        call: &Call<'_>,
        events: &dyn Fn(Event),
    ) -> Result<(u16, String), RegistryError> {
        let url = format!("{}{}", self.config.base_url, call.path);
        let token = match (call.authorized, &self.config.token) {
            (false, _) => None,
            (true, Some(token)) => Some(token.as_str()),
            (true, None) => return Err(RegistryError::NoToken),
        };
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let unreachable = |error: ureq::Error| RegistryError::Unreachable {
                url: url.clone(),
                message: error.to_string(),
            };
            let result = match &call.body {
                None => {
                    let mut request = self.agent.get(&url);
                    if let Some(token) = token {
                        request = request.header("Authorization", format!("Bearer {token}"));
                    }
                    request.call()
                }
                Some((content_type, bytes)) => {
                    let mut request = self
                        .agent
                        .post(&url)
                        .header("Content-Type", content_type.as_str())
                        .header("Content-Length", bytes.len().to_string());
                    if let Some(token) = token {
                        request = request.header("Authorization", format!("Bearer {token}"));
                    }
                    let mut reader = ProgressReader {
                        bytes,
                        sent: 0,
                        events,
                    };
                    request.send(SendBody::from_reader(&mut reader))
                }
            };
            let mut response = result.map_err(unreachable)?;
            let status = response.status().as_u16();
            let wait = (status == 429).then(|| retry_delay(response.headers(), attempt));
            let text = response
                .body_mut()
                .with_config()
                .limit(16 * 1024 * 1024)
                .read_to_string()
                .map_err(unreachable)?;
            let Some(wait) = wait else {
                return Ok((status, text));
            };
            if attempt > self.config.max_retries || wait > self.config.max_wait {
                return Err(RegistryError::RateLimited {
                    method: call.method,
                    path: call.path.clone(),
                    attempts: attempt,
                    wait_seconds: wait.as_secs(),
                    body: excerpt(&text),
                });
            }
            let wait = wait + jitter(wait);
            events(Event::RateLimited {
                wait,
                retry: attempt,
            });
            std::thread::sleep(wait);
        }
    }
}

/// The delay a 429 asks for: `Retry-After`, else `RateLimit-Reset`, else the distance to
/// `X-RateLimit-Reset`, else an exponential backoff from one second.
fn retry_delay(headers: &ureq::http::HeaderMap, attempt: u32) -> Duration {
    let number = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u64>().ok())
    };
    if let Some(seconds) = number("retry-after").or_else(|| number("ratelimit-reset")) {
        return Duration::from_secs(seconds);
    }
    if let Some(reset_at) = number("x-ratelimit-reset") {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs())
            .unwrap_or(0);
        return Duration::from_secs(reset_at.saturating_sub(now));
    }
    Duration::from_secs(1 << attempt.min(6))
}

/// Up to a quarter of the wait plus up to half a second, so clients refused in the same
/// window do not all come back in the same instant.
fn jitter(wait: Duration) -> Duration {
    let span = wait.as_millis() as u64 / 4 + 500;
    Duration::from_millis(random_u64() % (span + 1))
}

/// A random number from the standard library's per-process hash keys; enough for jitter
/// and multipart boundaries, which need to differ, not to be secret.
fn random_u64() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_nanos())
            .unwrap_or(0),
    );
    hasher.finish()
}

/// The request body, counting what ureq has read so the CLI can draw progress.
struct ProgressReader<'a> {
    bytes: &'a [u8],
    sent: usize,
    events: &'a dyn Fn(Event),
}

impl Read for ProgressReader<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        // Small slices keep the progress bar moving on slow links.
        let count = buffer
            .len()
            .min(64 * 1024)
            .min(self.bytes.len() - self.sent);
        buffer[..count].copy_from_slice(&self.bytes[self.sent..self.sent + count]);
        self.sent += count;
        if count > 0 {
            (self.events)(Event::Upload {
                sent: self.sent as u64,
                total: self.bytes.len() as u64,
            });
        }
        Ok(count)
    }
}

/// The `multipart/form-data` body: the payload part, then one part per file.
fn multipart(boundary: &str, payload: &str, bundle: &Bundle) -> Vec<u8> {
    let mut body = Vec::with_capacity(bundle.size() as usize + 1024 * (bundle.files.len() + 1));
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"payload\"\r\nContent-Type: application/json\r\n\r\n{payload}\r\n"
        )
        .as_bytes(),
    );
    for file in &bundle.files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{}\"\r\nContent-Type: {}\r\n\r\n",
                file.path,
                content_type(&file.path)
            )
            .as_bytes(),
        );
        body.extend_from_slice(&file.bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    body
}

fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match extension.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        _ => "text/plain",
    }
}

fn query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn excerpt(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return "(empty body)".into();
    }
    if text.chars().count() <= 500 {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(499).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_prefers_retry_after_then_reset() {
        let mut headers = ureq::http::HeaderMap::new();
        headers.insert("ratelimit-reset", "7".parse().expect("header"));
        assert_eq!(retry_delay(&headers, 1), Duration::from_secs(7));
        headers.insert("retry-after", "3".parse().expect("header"));
        assert_eq!(retry_delay(&headers, 1), Duration::from_secs(3));
        assert_eq!(
            retry_delay(&ureq::http::HeaderMap::new(), 2),
            Duration::from_secs(4)
        );
    }

    #[test]
    fn jitter_stays_bounded() {
        for _ in 0..100 {
            assert!(jitter(Duration::from_secs(4)) <= Duration::from_millis(1500));
        }
    }

    #[test]
    fn queries_are_escaped() {
        assert_eq!(query_escape("a b&c"), "a%20b%26c");
    }
}
