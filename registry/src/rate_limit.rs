//! Fixed-window rate limits per minute by class (read, write, download), per user for a
//! valid token and per client IP otherwise.
//!
//! SQLite deployments are one process, so the counters live in memory. With PostgreSQL
//! several instances may serve one database, so the counters live in the database
//! (`rate_limit_buckets`) and are shared. An instance takes quota from a shared bucket in
//! leases of [`lease_size`] requests (one request for limits under 200 a minute) and
//! spends them locally, so a busy client costs one upsert per lease instead of one per
//! request. Every lease is counted in the shared bucket before it is spent, so clients
//! alternating instances never get more than the limit; they can be refused up to one
//! lease per instance early, while other instances hold quota not spent yet.

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
        leases: Mutex<Leases>,
    },
}

/// Quota this instance took from the shared buckets of the current window.
#[derive(Default)]
struct Leases {
    window: i64,
    /// Per bucket: requests left to spend, and the shared count after the last lease.
    left: HashMap<(Actor, Class), (u64, u64)>,
}

impl Leases {
    /// Spends one request of a lease of `key` in `window` under `limit`.
    fn spend(&mut self, window: i64, key: (Actor, Class), limit: u32) -> Spent {
        if self.window != window {
            self.window = window;
            self.left.clear();
        }
        let Some((left, shared)) = self.left.get_mut(&key) else {
            return Spent::Nothing;
        };
        if *left > 0 {
            *left -= 1;
            return Spent::Lease(*shared, *left);
        }
        // The shared count only grows within a window: once it reached the limit, no
        // lease can be had until the next one, and asking would only write.
        if *shared >= u64::from(limit) {
            Spent::Exhausted
        } else {
            Spent::Nothing
        }
    }
}

/// What [`Leases::spend`] found.
enum Spent {
    /// One request spent: the shared count after the lease, and what is left of it.
    Lease(u64, u64),
    /// No lease left, and the shared bucket is full for this window.
    Exhausted,
    /// No lease left: take one.
    Nothing,
}

/// Requests taken from a shared bucket at once: a hundredth of the limit, so an instance
/// holds back at most 1 % of a client's quota.
fn lease_size(limit: u32) -> u64 {
    u64::from(limit / 100).max(1)
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
                leases: Mutex::new(Leases::default()),
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
        let decision = |allowed: bool, remaining: u64| Decision {
            allowed,
            limit,
            remaining: u32::try_from(remaining).unwrap_or(u32::MAX),
            reset_at: window + 60,
            reset_after: (window + 60 - now).max(1),
        };
        match &self.counters {
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
                let count = u64::from(*count);
                Ok(decision(
                    count <= u64::from(limit),
                    u64::from(limit).saturating_sub(count),
                ))
            }
            Counters::Database {
                store,
                pruned_window,
                leases,
            } => {
                let lock = || {
                    leases
                        .lock()
                        .map_err(|_| LimiterUnavailable("lease lock poisoned".into()))
                };
                // What is left: the quota nobody has taken, plus this instance's unspent lease.
                let remaining = |shared: u64, left: u64| {
                    u64::from(limit).saturating_sub(shared).saturating_add(left)
                };
                match lock()?.spend(window, (actor, class), limit) {
                    Spent::Lease(shared, left) => {
                        return Ok(decision(true, remaining(shared, left)));
                    }
                    Spent::Exhausted => return Ok(decision(false, 0)),
                    Spent::Nothing => {}
                }
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
                let size = lease_size(limit);
                let shared = store
                    .hit_rate_limit(&bucket, window, i64::try_from(size).unwrap_or(1))
                    .await
                    .map_err(|error| LimiterUnavailable(error.to_string()))?;
                let shared = u64::try_from(shared).unwrap_or(u64::MAX);
                // The lease is what of it still fits under the limit.
                let before = shared.saturating_sub(size);
                let granted = u64::from(limit).saturating_sub(before).min(size);
                // This request spends one; the rest waits for the next ones.
                let left = granted.saturating_sub(1);
                let mut leases = lock()?;
                if leases.window == window {
                    let entry = leases.left.entry((actor, class)).or_insert((0, 0));
                    *entry = (entry.0 + left, shared.max(entry.1));
                }
                if granted == 0 {
                    return Ok(decision(false, 0));
                }
                Ok(decision(true, remaining(shared, left)))
            }
        }
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

    /// Two limiters on one database stand for two instances: a client alternating them
    /// gets at most its limit, loses at most a lease per instance, and costs one upsert
    /// per lease.
    #[tokio::test]
    async fn leases_from_a_shared_bucket_never_exceed_the_limit() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url: crate::config::DatabaseUrl =
            format!("sqlite://{}", dir.path().join("limits.db").display())
                .parse()
                .expect("url");
        let store = crate::db::connect(&url, 2).await.expect("store");
        let limit = RateLimit {
            anonymous: 1000,
            user: 1000,
        };
        let instances = [
            RateLimiter::in_database(limit, limit, limit, Arc::clone(&store)),
            RateLimiter::in_database(limit, limit, limit, Arc::clone(&store)),
        ];
        let actor = Actor::Ip(None);
        let now = 600_000 + 1_000;
        let mut allowed = 0;
        for request in 0..1200 {
            let decision = instances[request % 2]
                .check(actor, Class::Read, now)
                .await
                .expect("counted");
            if decision.allowed {
                allowed += 1;
            }
        }
        let lease = lease_size(1000);
        assert_eq!(lease, 10);
        assert!(
            (1000 - 2 * lease..=1000).contains(&allowed),
            "{allowed} allowed"
        );
        // The shared count moved by whole leases, and refused requests stopped asking once
        // each instance saw the bucket full: at most one more lease each.
        let shared = store
            .hit_rate_limit("ip:unknown:read", 600, 0)
            .await
            .expect("count");
        assert!((1000..=1000 + 2 * 10).contains(&shared), "{shared}");
        // A small limit leases one request at a time: exact.
        assert_eq!(lease_size(20), 1);
        let strict = RateLimit {
            anonymous: 20,
            user: 20,
        };
        let pair = [
            RateLimiter::in_database(strict, strict, strict, Arc::clone(&store)),
            RateLimiter::in_database(strict, strict, strict, store),
        ];
        let mut allowed = 0;
        for request in 0..30 {
            let decision = pair[request % 2]
                .check(actor, Class::Write, now)
                .await
                .expect("counted");
            allowed += usize::from(decision.allowed);
        }
        assert_eq!(allowed, 20);
    }
}
