//! The skill registry: a ClawHub-compatible HTTP API v1 over SQLite or PostgreSQL.
//!
//! [`router`] builds every route and the cross-cutting layers (request ids, tracing,
//! authentication, rate limits, CORS, body limits, plain-text errors); [`serve`] runs it
//! on a listener until the shutdown future completes.

pub mod app;
pub mod archive;
pub mod auth;
pub mod bundle;
pub mod cache;
pub mod config;
pub mod db;
pub mod error;
pub mod extract;
pub mod moderation;
pub mod openapi;
pub mod packages;
pub mod pagination;
pub mod policy;
pub mod rate_limit;
pub mod routes;
pub mod skills;
pub mod storage;
pub mod tokens;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::app::AppState;
use crate::auth::{ClientIp, Credential};
use crate::error::{AppError, text_response};
use crate::rate_limit::{Actor, Class};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Builds the whole HTTP application.
pub fn router(state: AppState) -> Router {
    let body_limit = state.config.body_limit;
    routes::api_routes()
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            request_context,
        ))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request| {
                    let request_id = request
                        .headers()
                        .get(&REQUEST_ID)
                        .and_then(|value| value.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path(),
                        request_id = %request_id,
                    )
                })
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}

/// Serves the application on `listener` until `shutdown` completes, then drains
/// in-flight requests.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let address = listener.local_addr().ok();
    tracing::info!(address = ?address, "registry listening");
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|error| anyhow::anyhow!("server failed: {error}"))
}

async fn not_found() -> AppError {
    AppError::not_found("Not found")
}

async fn method_not_allowed() -> Response {
    text_response(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
}

fn client_ip(state: &AppState, request: &Request) -> Option<IpAddr> {
    if state.config.trust_forwarded_ips {
        let headers = request.headers();
        let forwarded = [
            "cf-connecting-ip",
            "x-forwarded-for",
            "x-real-ip",
            "fly-client-ip",
        ]
        .iter()
        .find_map(|name| {
            let value = headers.get(*name)?.to_str().ok()?;
            value.split(',').next()?.trim().parse::<IpAddr>().ok()
        });
        if forwarded.is_some() {
            return forwarded;
        }
    }
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| address.ip())
}

fn add_cors(headers: &mut HeaderMap) {
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
}

fn preflight(request: &Request) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    add_cors(headers);
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, PUT, DELETE, OPTIONS, PATCH, HEAD"),
    );
    let requested = request
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned();
    match requested {
        Some(value) => {
            headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, value);
            headers.insert(
                header::VARY,
                HeaderValue::from_static("Access-Control-Request-Headers"),
            );
        }
        None => {
            headers.insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("Content-Type, Authorization, Digest, X-Clawhub-Version"),
            );
        }
    }
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("86400"),
    );
    response
}

/// Resolves the credential, counts the request against its rate-limit bucket, answers
/// CORS preflights and adds the CORS and rate-limit headers to every response.
async fn request_context(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    if request.method() == Method::OPTIONS && path.starts_with("/api/") {
        return preflight(&request);
    }
    let credential = if request.headers().contains_key(header::AUTHORIZATION) {
        match Credential::resolve(request.headers(), state.store.as_ref()).await {
            Ok(credential) => credential,
            Err(error) => {
                let mut response = AppError::Db(error).into_response();
                add_cors(response.headers_mut());
                return response;
            }
        }
    } else {
        Credential::Missing
    };
    let ip = client_ip(&state, &request);
    let class = Class::of(request.method(), &path);
    let decision = match class {
        None => None,
        Some(class) => {
            let actor = match credential.user() {
                Some(user) => Actor::User(user.id),
                None => Actor::Ip(ip),
            };
            let now = chrono::Utc::now().timestamp_millis();
            match state.rate_limiter.check(actor, class, now).await {
                Ok(decision) => Some(decision),
                Err(error) => {
                    tracing::error!(error = %error, "rate limiter unavailable");
                    let mut response = text_response(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "Rate limit temporarily unavailable",
                    );
                    response
                        .headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(1));
                    add_cors(response.headers_mut());
                    return response;
                }
            }
        }
    };
    let mut response = match decision {
        Some(decision) if !decision.allowed => AppError::TooManyRequests.into_response(),
        _ => {
            request.extensions_mut().insert(credential);
            request.extensions_mut().insert(ClientIp(ip));
            next.run(request).await
        }
    };
    let headers = response.headers_mut();
    add_cors(headers);
    if let Some(decision) = decision {
        decision.apply(headers);
    }
    response
}
