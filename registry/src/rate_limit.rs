//! Fixed-window rate limits per minute by class (read, write, download), per user for a
//! valid token and per client IP otherwise.
//!
//! SQLite deployments are one process, so the counters live in memory. With PostgreSQL
//! several instances may serve one database, so the counters live in the database
//! (`rate_limit_buckets`, one upsert per request) and are shared.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::RateLimit;
use crate::db::Store;

/// Rate-limit classes of the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// GET requests.
    Read,
    /// Mutations.
    Write,
    /// Skill downloads.
    Download,
    /// Bulk exports (`/api/v1/plugins/export`): far smaller limits, fixed by the reference.
    Export,
}

/// Limits of the export class: 10/min per IP, 60/min per user, as the reference sets them.
pub const EXPORT_LIMIT: RateLimit = RateLimit {
    anonymous: 10,
    user: 60,
};

impl Class {
    fn name(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Write => "write",
            Self::Download => "download",
            Self::Export => "export",
        }
    }
}

/// Who a request is counted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    /// A user with a valid token.
    User(i64),
    /// An anonymous client (or one with an invalid token), by IP when known.
    Ip(Option<IpAddr>),
}

/// Outcome of counting one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request may proceed.
    pub allowed: bool,
    /// Limit in force.
    pub limit: u32,
    /// Requests left in the window.
    pub remaining: u32,
    /// Window end, Unix seconds.
    pub reset_at: i64,
    /// Seconds until the window ends, at least 1.
    pub reset_after: i64,
}

impl Decision {
    /// Writes the rate-limit headers of the seed (plus `Retry-After` when refused).
    pub fn apply(&self, headers: &mut HeaderMap) {
        let number = |value: i64| HeaderValue::from(value);
        headers.insert("x-ratelimit-limit", number(i64::from(self.limit)));
        headers.insert("x-ratelimit-remaining", number(i64::from(self.remaining)));
        headers.insert("x-ratelimit-reset", number(self.reset_at));
        headers.insert("ratelimit-limit", number(i64::from(self.limit)));
        headers.insert("ratelimit-remaining", number(i64::from(self.remaining)));
        headers.insert("ratelimit-reset", number(self.reset_after));
        if !self.allowed {
            headers.insert("retry-after", number(self.reset_after));
        }
    }
}

/// The counters could not be read.
#[derive(Debug, thiserror::Error)]
#[error("rate limit store failed: {0}")]
pub struct LimiterUnavailable(String);

enum Counters {
    Memory(Mutex<MemoryWindow>),
    Database {
        store: Arc<dyn Store>,
        pruned_window: AtomicI64,
    },
}

struct MemoryWindow {
    start: i64,
    counts: HashMap<(Actor, Class), u32>,
}

/// The limiter of one server.
pub struct RateLimiter {
    read: RateLimit,
    write: RateLimit,
    download: RateLimit,
    counters: Counters,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("RateLimiter")
            .field("read", &self.read)
            .field("write", &self.write)
            .field("download", &self.download)
            .finish_non_exhaustive()
    }
}

impl RateLimiter {
    /// Counters in process memory (one instance).
    pub fn in_memory(read: RateLimit, write: RateLimit, download: RateLimit) -> Self {
        Self {
            read,
            write,
            download,
            counters: Counters::Memory(Mutex::new(MemoryWindow {
                start: 0,
                counts: HashMap::new(),
            })),
        }
    }

    /// Counters in the database, shared by every instance on it.
    pub fn in_database(
        read: RateLimit,
        write: RateLimit,
        download: RateLimit,
        store: Arc<dyn Store>,
    ) -> Self {
        Self {
            read,
            write,
            download,
            counters: Counters::Database {
                store,
                pruned_window: AtomicI64::new(0),
            },
        }
    }

    fn limit(&self, class: Class, actor: Actor) -> u32 {
        let limits = match class {
            Class::Read => self.read,
            Class::Write => self.write,
            Class::Download => self.download,
            Class::Export => EXPORT_LIMIT,
        };
        match actor {
            Actor::User(_) => limits.user,
            Actor::Ip(_) => limits.anonymous,
        }
    }

    /// Counts one request of `actor` in `class` at `now_ms`.
    pub async fn check(
        &self,
        actor: Actor,
        class: Class,
        now_ms: i64,
    ) -> Result<Decision, LimiterUnavailable> {
        let now = now_ms.div_euclid(1000);
        let window = now - now.rem_euclid(60);
        let limit = self.limit(class, actor);
        let count: u64 = match &self.counters {
            Counters::Memory(state) => {
                let mut state = state
                    .lock()
                    .map_err(|_| LimiterUnavailable("counter lock poisoned".into()))?;
                if state.start != window {
                    state.start = window;
                    state.counts.clear();
                }
                let count = state.counts.entry((actor, class)).or_insert(0);
                *count = count.saturating_add(1);
                u64::from(*count)
            }
            Counters::Database {
                store,
                pruned_window,
            } => {
                let bucket = match actor {
                    Actor::User(id) => format!("user:{id}:{}", class.name()),
                    Actor::Ip(Some(ip)) => format!("ip:{ip}:{}", class.name()),
                    Actor::Ip(None) => format!("ip:unknown:{}", class.name()),
                };
                if pruned_window.swap(window, Ordering::Relaxed) != window {
                    // Old windows are garbage; whichever instance sees a new window first cleans up.
                    if let Err(error) = store.prune_rate_limits(window - 60).await {
                        tracing::warn!(error = %error, "failed to prune rate-limit buckets");
                    }
                }
                let count = store
                    .hit_rate_limit(&bucket, window)
                    .await
                    .map_err(|error| LimiterUnavailable(error.to_string()))?;
                u64::try_from(count).unwrap_or(u64::MAX)
            }
        };
        let allowed = count <= u64::from(limit);
        let remaining = u64::from(limit).saturating_sub(count);
        Ok(Decision {
            allowed,
            limit,
            remaining: u32::try_from(remaining).unwrap_or(u32::MAX),
            reset_at: window + 60,
            reset_after: (window + 60 - now).max(1),
        })
    }
}

/// Route layer of API routes: GET and HEAD count as reads, everything else as writes.
/// Each surface picks its layers per route group (`.route_layer(from_fn(by_method))`),
/// so no request is classified by sniffing its path.
pub async fn by_method(request: Request, next: Next) -> Response {
    let class = if matches!(*request.method(), Method::GET | Method::HEAD) {
        Class::Read
    } else {
        Class::Write
    };
    limit(class, request, next).await
}

/// Route layer of routes that only read whatever their method (a batch lookup sent as POST).
pub async fn reads(request: Request, next: Next) -> Response {
    limit(Class::Read, request, next).await
}

/// Route layer of archive downloads: their own, larger bucket.
pub async fn downloads(request: Request, next: Next) -> Response {
    limit(Class::Download, request, next).await
}

/// Route layer of the package and npm routes. Package names may hold a `/` (scoped
/// names), so those routes are catch-alls and the class comes from the path: artifact and
/// tarball downloads count as downloads, the plugin export in its own class, everything
/// else by method.
pub async fn packages(request: Request, next: Next) -> Response {
    let is_get = matches!(*request.method(), Method::GET | Method::HEAD);
    let path = request.uri().path();
    let class = if path == "/api/v1/plugins/export" {
        Class::Export
    } else if is_get && crate::packages::name::is_download_route(path) {
        Class::Download
    } else if is_get {
        Class::Read
    } else {
        Class::Write
    };
    limit(class, request, next).await
}

/// Counts the request for its user (valid token) or client IP, answers 429 when over the
/// limit and adds the rate-limit headers to the response.
async fn limit(class: Class, request: Request, next: Next) -> Response {
    // Both are put there by the outermost layer (`request_context` in lib.rs) before any
    // route runs; a router built without it is a bug, answered without counting.
    let Some(state) = request.extensions().get::<crate::app::AppState>().cloned() else {
        tracing::error!("rate-limit layer without application state");
        return next.run(request).await;
    };
    let actor = match request
        .extensions()
        .get::<crate::auth::Credential>()
        .and_then(crate::auth::Credential::user)
    {
        Some(user) => Actor::User(user.id),
        None => Actor::Ip(
            request
                .extensions()
                .get::<crate::auth::ClientIp>()
                .and_then(|ip| ip.0),
        ),
    };
    let now = chrono::Utc::now().timestamp_millis();
    let decision = match state.rate_limiter.check(actor, class, now).await {
        Ok(decision) => decision,
        Err(error) => {
            tracing::error!(error = %error, "rate limiter unavailable");
            let mut response = crate::error::text_response(
                StatusCode::SERVICE_UNAVAILABLE,
                "Rate limit temporarily unavailable",
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(1));
            return response;
        }
    };
    let mut response = if decision.allowed {
        next.run(request).await
    } else {
        drain_body(request).await;
        crate::error::AppError::TooManyRequests.into_response()
    };
    decision.apply(response.headers_mut());
    response
}

/// Most bytes of a refused request read (and dropped) before its 429 is sent.
const DRAIN_LIMIT: usize = 8 * 1024 * 1024;

/// Reads a refused request's body to its end (at most `DRAIN_LIMIT` bytes, at most five
/// seconds, nothing kept) before the 429 goes out. Without it, a client still uploading
/// a publish meets a closed connection (a broken pipe) instead of the answer and its
/// `Retry-After`, and cannot wait and retry as the seed's client rules ask.
async fn drain_body(request: Request) {
    use axum::body::HttpBody as _;
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<usize>().ok());
    if declared.is_some_and(|length| length > DRAIN_LIMIT) {
        return;
    }
    let mut body = request.into_body();
    let drain = async {
        let mut read = 0usize;
        while let Some(Ok(frame)) =
            std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await
        {
            read += frame.data_ref().map_or(0, |data| data.len());
            if read > DRAIN_LIMIT {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), drain).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn memory_limiter_refuses_after_the_limit_and_resets_each_minute() {
        let limit = RateLimit {
            anonymous: 2,
            user: 3,
        };
        let limiter = RateLimiter::in_memory(limit, limit, limit);
        let actor = Actor::Ip(None);
        let now = 120_000 + 10_000;
        assert!(
            limiter
                .check(actor, Class::Read, now)
                .await
                .expect("ok")
                .allowed
        );
        let second = limiter.check(actor, Class::Read, now).await.expect("ok");
        assert!(second.allowed);
        assert_eq!(second.remaining, 0);
        let third = limiter.check(actor, Class::Read, now).await.expect("ok");
        assert!(!third.allowed);
        assert_eq!(third.reset_after, 50);
        assert_eq!(third.reset_at, 180);
        assert!(
            limiter
                .check(actor, Class::Write, now)
                .await
                .expect("ok")
                .allowed
        );
        assert!(
            limiter
                .check(Actor::User(1), Class::Read, now)
                .await
                .expect("ok")
                .allowed
        );
        assert!(
            limiter
                .check(actor, Class::Read, now + 60_000)
                .await
                .expect("ok")
                .allowed
        );
    }
}
