//! Site-level documents: registry discovery for the CLI.

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::AppState;
use crate::routes::{base_url, json_ok};

/// Discovery routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/.well-known/clawhub.json", get(discovery))
        .route("/.well-known/clawdhub.json", get(discovery))
}

/// The discovery document a client reads to find this registry's API.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Discovery {
    /// Base URL of the API (`…/api/v1/…` lives under it).
    pub api_base: String,
    /// The same base, under the name older clients read.
    pub registry: String,
    /// Where to log in (this server: tokens are created with `registry token create`).
    pub auth_base: String,
    /// Oldest CLI version this server answers.
    pub min_cli_version: String,
}

/// `{apiBase, registry, authBase, minCliVersion}` pointing the CLI at this server.
#[utoipa::path(get, path = "/.well-known/clawhub.json", tag = "meta",
    responses((status = 200, description = "where this registry's API is (also served as `/.well-known/clawdhub.json`)", body = Discovery)))]
pub async fn discovery(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let base = base_url(&state, &headers);
    json_ok(Discovery {
        api_base: base.clone(),
        registry: base.clone(),
        auth_base: base,
        min_cli_version: "0.1.0".into(),
    })
}

/// The OpenAPI description of the discovery document (served outside the API routers).
#[derive(utoipa::OpenApi)]
#[openapi(paths(discovery))]
pub struct PagesApi;
