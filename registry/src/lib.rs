//! The skill registry: a ClawHub-compatible HTTP API v1 over SQLite or PostgreSQL.
//!
//! [`router`] builds every route and the cross-cutting layers (request ids, tracing,
//! authentication, rate limits, CORS, body limits, plain-text errors); [`serve`] runs it
//! on a listener until the shutdown future completes.
//!
//! # Where things go
//!
//! A request reads top to bottom: surface handler (extract, authorize through [`policy`],
//! call the domain, render) → domain function → [`db::Store`]. Nothing calls upward.
//!
//! | You are adding…                         | Put it in                                            |
//! |-----------------------------------------|------------------------------------------------------|
//! | an HTTP endpoint of API v1              | `routes/` (one file per area; handlers stay thin)    |
//! | a legacy `/api/*` or `/api/cli/*` alias | `routes/legacy.rs`                                   |
//! | a skill rule (publish, visibility, …)   | `skills/` ([`skills::publish`], [`skills::Visibility`]) |
//! | package rules (issue 10)                | `packages/`                                          |
//! | "may this caller do this to this record"| [`policy`]                                           |
//! | SQL                                     | `db/<domain>.rs` as plain `async fn(pool, …)`, a [`db::Store`] method, one line in `db/store_impl.rs` and in [`cache::CachingStore`] |
//! | a visibility rule's SQL predicate       | beside its twin: `LISTED` in `db/skills.rs` ↔ [`skills::Visibility::is_listed`] |
//! | a schema change                         | `migrations/{sqlite,postgres}/NNNN_name.sql`, same file name in both; 0002–0019 skill lifecycle, 0020 and up packages |
//! | a response cached for anonymous reads   | [`routes::cached_json`]; invalidation is automatic: every [`cache::CachingStore`] write that changes a public read bumps the generation |
//! | an API route in the OpenAPI document    | annotate it with `#[utoipa::path]`, add it to [`routes::documented_routes`], then regenerate `registry/openapi.json` (`cargo run -p registry -- openapi > registry/openapi.json`; `tests/openapi.rs` fails until you do) |
//!
//! The db files are compiled once per backend: `db/sqlite.rs` and `db/postgres.rs` mount
//! them with their own `Db` type, so a new `db/<domain>.rs` needs one `#[path]` line in each.

pub mod app;
pub mod archive;
pub mod audit;
pub mod auth;
pub mod bundle;
pub mod cache;
pub mod config;
pub mod db;
pub mod downloads;
pub mod error;
pub mod extract;
pub mod gc;
pub mod moderation;
pub mod openapi;
pub mod packages;
pub mod pagination;
pub mod policy;
pub mod rate_limit;
pub mod routes;
pub mod search;
pub mod skills;
pub mod storage;
pub mod tokens;
pub mod web;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::app::AppState;
use crate::auth::{ClientIp, Credential};
use crate::error::{AppError, text_response};

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
    start_background_work(&state).await;
    tracing::info!(address = ?address, "registry listening");
    let app = router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|error| anyhow::anyhow!("server failed: {error}"));
    if let Err(error) = state.downloads.apply(state.store.as_ref()).await {
        tracing::warn!(error = %error, "download journal left for the next start");
    }
    served
}

/// What a serving process runs beside the requests: downloads journaled by a process that
/// died are counted before serving, then the journal is applied every second (and once
/// more by [`serve`] after the last request).
pub async fn start_background_work(state: &AppState) {
    if let Err(error) = state.downloads.apply(state.store.as_ref()).await {
        tracing::warn!(error = %error, "download journal not applied at start; retrying");
    }
    state.downloads.follow(
        std::sync::Arc::downgrade(&state.store),
        std::time::Duration::from_secs(1),
    );
}

async fn not_found() -> AppError {
    AppError::not_found("Not found")
}

pub(crate) async fn method_not_allowed() -> Response {
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

/// Resolves the credential and client IP for the handlers and the surfaces' rate-limit
/// layers, and adds `Access-Control-Allow-Origin: *` to every response (every surface is
/// a public API or document; preflights are answered by the API surfaces themselves).
async fn request_context(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
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
    request.extensions_mut().insert(credential);
    request.extensions_mut().insert(ClientIp(ip));
    request.extensions_mut().insert(state);
    let mut response = next.run(request).await;
    add_cors(response.headers_mut());
    response
}
