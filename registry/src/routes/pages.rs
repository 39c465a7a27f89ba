//! Site-level documents: registry discovery for the CLI.

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use crate::app::AppState;
use crate::routes::{base_url, json_ok};

/// Discovery routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/.well-known/clawhub.json", get(discovery))
        .route("/.well-known/clawdhub.json", get(discovery))
}

/// `{apiBase, authBase, minCliVersion}` pointing the CLI at this server.
async fn discovery(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let base = base_url(&state, &headers);
    json_ok(
        json!({ "apiBase": base, "registry": base, "authBase": base, "minCliVersion": "0.1.0" }),
    )
}
