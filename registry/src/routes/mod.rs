//! Every route of the server, grouped by domain, and small response helpers.

pub mod legacy;
pub mod npm;
pub mod packages;
pub mod pages;
pub mod publish;
pub mod skills;
pub mod users;
pub mod views;

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;

/// The documented API routes together with their OpenAPI description.
pub fn documented_routes() -> OpenApiRouter<AppState> {
    let mut document = crate::openapi::base_document();
    // The package routes are served by catch-alls (scoped names), so their paths are
    // described by a derived document rather than by the router.
    document.merge(<packages::PackagesApi as utoipa::OpenApi>::openapi());
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
        .routes(routes!(skills::download_skill))
        .routes(routes!(skills::star_skill, skills::unstar_skill))
        .routes(routes!(users::whoami))
        .routes(routes!(crate::openapi::openapi_document))
}

/// Every route: the documented API plus legacy aliases and discovery.
pub fn api_routes() -> Router<AppState> {
    let (router, _) = documented_routes().split_for_parts();
    router
        .route(
            "/api/v1/skills/resolve",
            axum::routing::get(skills::resolve_skill),
        )
        .merge(packages::routes())
        .merge(npm::routes())
        .merge(legacy::routes())
        .merge(pages::routes())
}

/// A 200 JSON response with `Cache-Control: no-store`.
pub fn json_ok(value: serde_json::Value) -> Response {
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

/// Answers from the response cache, or computes, caches and answers the JSON body.
pub async fn cached_json<F>(
    state: &AppState,
    uri: &axum::http::Uri,
    compute: F,
) -> crate::error::AppResult<Response>
where
    F: std::future::Future<Output = crate::error::AppResult<serde_json::Value>>,
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
    let body = compute.await.and_then(|value| {
        serde_json::to_vec(&value)
            .map(axum::body::Bytes::from)
            .map_err(|error| crate::error::AppError::Internal(error.into()))
    });
    if let Ok(body) = &body {
        state.responses.put(key.clone(), generation, body.clone());
    }
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
