//! Every route of the server, grouped by surface, and small response helpers.
//!
//! Each surface is its own router with its own layers: API v1 and the legacy aliases count
//! reads and writes by method and downloads in their own bucket (route layers from
//! [`crate::rate_limit`]) and answer CORS preflights ([`api_preflight`]); the discovery
//! documents are not limited. Errors are plain text on both API surfaces.

pub mod audit;
pub mod legacy;
pub mod lifecycle;
pub mod moderation;
pub mod npm;
pub mod package_uploads;
pub mod packages;
pub mod pages;
pub mod publish;
pub mod skill_install;
pub mod skills;
pub mod transfers;
pub mod users;
pub mod views;

use crate::cache::Scope;
use axum::Router;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::rate_limit;

/// The documented API routes together with their OpenAPI description.
pub fn documented_routes() -> OpenApiRouter<AppState> {
    let downloads = OpenApiRouter::new()
        .routes(routes!(skills::download_skill))
        .route_layer(middleware::from_fn(rate_limit::downloads));
    let meta = OpenApiRouter::new().routes(routes!(crate::openapi::openapi_document));
    // A POST that only reads: counted as a read, as the reference classes it.
    let verdicts = OpenApiRouter::new()
        .routes(routes!(skill_install::security_verdicts))
        .route_layer(middleware::from_fn(rate_limit::reads));
    let mut document = crate::openapi::base_document();
    // The package routes are served by catch-alls (scoped names), so their paths are
    // described by a derived document rather than by the router.
    document.merge(<packages::PackagesApi as utoipa::OpenApi>::openapi());
    document.merge(<legacy::LegacyApi as utoipa::OpenApi>::openapi());
    document.merge(<pages::PagesApi as utoipa::OpenApi>::openapi());
    OpenApiRouter::with_openapi(document)
        .routes(routes!(skills::search_skills))
        .routes(routes!(skills::list_skills, publish::publish_skill))
        .routes(routes!(publish::create_upload_url))
        .routes(routes!(publish::upload_file))
        .routes(routes!(skills::get_skill))
        .routes(routes!(skills::get_moderation))
        .routes(routes!(skills::list_versions))
        .routes(routes!(skills::get_version))
        .routes(routes!(skills::get_scan))
        .routes(routes!(skills::get_file))
        .routes(routes!(skills::resolve_skill))
        .routes(routes!(skills::star_skill, skills::unstar_skill))
        .routes(routes!(skill_install::resolve_install))
        .routes(routes!(skill_install::verify_skill))
        .routes(routes!(skill_install::trending))
        .routes(routes!(users::whoami))
        .routes(routes!(transfers::start_transfer))
        .routes(routes!(transfers::act_on_transfer))
        .routes(routes!(transfers::incoming_transfers))
        .routes(routes!(transfers::outgoing_transfers))
        .routes(routes!(moderation::hide_skill))
        .routes(routes!(moderation::unhide_skill))
        .routes(routes!(moderation::report_skill))
        .routes(routes!(moderation::appeal_skill))
        .routes(routes!(moderation::rescan_skill))
        .routes(routes!(moderation::list_reports))
        .routes(routes!(moderation::list_appeals))
        .routes(routes!(moderation::triage_report))
        .routes(routes!(moderation::triage_appeal))
        .routes(routes!(moderation::reserve))
        .routes(routes!(audit::list_audit))
        .routes(routes!(lifecycle::delete_skill))
        .routes(routes!(lifecycle::undelete_skill))
        .routes(routes!(lifecycle::delete_version))
        .routes(routes!(lifecycle::restore_version))
        .routes(routes!(lifecycle::rename_skill))
        .routes(routes!(lifecycle::merge_skill))
        .route_layer(middleware::from_fn(rate_limit::by_method))
        .merge(downloads)
        .merge(verdicts)
        .merge(meta)
}

/// Every route: the v1 API, the legacy aliases and the discovery documents.
pub fn api_routes() -> Router<AppState> {
    let (v1, _) = documented_routes().split_for_parts();
    let v1 = v1
        .route(
            "/api/v1/skills/resolve",
            axum::routing::get(skills::resolve_skill)
                .route_layer(middleware::from_fn(rate_limit::by_method)),
        )
        .merge(packages::routes().route_layer(middleware::from_fn(rate_limit::packages)))
        // The 405 fallback is set before the layer so preflights of every method reach it.
        .method_not_allowed_fallback(crate::method_not_allowed)
        .layer(middleware::from_fn(api_preflight));
    let legacy = legacy::routes()
        .method_not_allowed_fallback(crate::method_not_allowed)
        .layer(middleware::from_fn(api_preflight));
    let npm = npm::routes().route_layer(middleware::from_fn(rate_limit::packages));
    v1.merge(legacy)
        .merge(npm)
        .merge(pages::routes())
        // The HTML pages: static API routes win over their `/{owner}/…` captures.
        .merge(crate::web::routes())
}

/// Answers CORS preflights of the API surfaces (any origin, the requested headers); the
/// `Access-Control-Allow-Origin` of other responses is added for every surface in `lib.rs`.
pub async fn api_preflight(request: axum::extract::Request, next: middleware::Next) -> Response {
    if request.method() != axum::http::Method::OPTIONS {
        return next.run(request).await;
    }
    let mut response = axum::http::StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, PUT, DELETE, OPTIONS, PATCH, HEAD"),
    );
    match request
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned()
    {
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

/// A 200 JSON response with `Cache-Control: no-store`.
pub fn json_ok(value: impl serde::Serialize) -> Response {
    let mut response = axum::Json(value).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A 200 response with an already serialized JSON body.
pub fn json_bytes(body: axum::body::Bytes) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Answers from the response cache, or computes, caches and answers a JSON body over many
/// records (a list or a search: invalidated by every write).
pub async fn cached_json<F, T>(
    state: &AppState,
    uri: &axum::http::Uri,
    compute: F,
) -> crate::error::AppResult<Response>
where
    F: std::future::Future<Output = crate::error::AppResult<T>>,
    T: serde::Serialize,
{
    cached_json_scoped(state, uri, async {
        compute.await.map(|value| (value, Scope::Listing))
    })
    .await
}

/// [`cached_json`] for a body whose computation says what it depends on (one skill's
/// detail survives writes to other skills).
pub async fn cached_json_scoped<F, T>(
    state: &AppState,
    uri: &axum::http::Uri,
    compute: F,
) -> crate::error::AppResult<Response>
where
    // The typed body is written straight to bytes: no `Value` in between.
    F: std::future::Future<Output = crate::error::AppResult<(T, Scope)>>,
    T: serde::Serialize,
{
    let key = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_owned(), |pq| pq.as_str().to_owned());
    if let Some(body) = state.responses.get(&key) {
        return Ok(json_bytes(body));
    }
    let flight = state.responses.flight(&key);
    let _computing = match &flight {
        Some(lock) => Some(lock.lock().await),
        None => None,
    };
    if let Some(body) = state.responses.get(&key) {
        return Ok(json_bytes(body));
    }
    let generation = state.responses.generation();
    let body = compute.await.and_then(|(value, scope)| {
        serde_json::to_vec(&value)
            .map(|bytes| (axum::body::Bytes::from(bytes), scope))
            .map_err(|error| crate::error::AppError::Internal(error.into()))
    });
    let body = body.map(|(body, scope)| {
        state
            .responses
            .put_scoped(key.clone(), generation, scope, body.clone());
        body
    });
    if flight.is_some() {
        state.responses.land(&key);
    }
    Ok(json_bytes(body?))
}

/// The public base URL: the configured one, else the request's `Host`.
pub fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.config.public_url {
        return url.trim_end_matches('/').to_owned();
    }
    match headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
    {
        Some(host) if !host.is_empty() && !host.contains(['/', ' ', '@']) => {
            format!("http://{host}")
        }
        _ => state.config.public_base_url(None),
    }
}
