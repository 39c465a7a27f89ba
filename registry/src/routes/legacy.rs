//! Legacy `/api/*` and `/api/cli/*` routes the CLI still calls.

use axum::Router;
use axum::extract::State;
use axum::middleware;
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::error::{AppError, AppResult};
use crate::extract::{AppJson, Params};
use crate::rate_limit;
use crate::routes::{json_ok, skills, views};
use crate::skills::Visibility;

/// Legacy routes, with the same rate-limit classes as their v1 equivalents.
pub fn routes() -> Router<AppState> {
    let downloads = Router::new()
        .route("/api/download", get(skills::download_skill))
        .route_layer(middleware::from_fn(rate_limit::downloads));
    Router::new()
        .route("/api/search", get(skills::search_skills))
        .route("/api/skill", get(get_skill))
        .route("/api/skill/resolve", get(skills::resolve_skill))
        .route("/api/cli/whoami", get(whoami))
        .route("/api/cli/telemetry/install", post(install_telemetry))
        .route_layer(middleware::from_fn(rate_limit::by_method))
        .merge(downloads)
}

async fn whoami(RequireUser(user): RequireUser) -> Response {
    json_ok(json!({
        "user": { "handle": user.handle, "displayName": user.display_name, "image": user.image }
    }))
}

async fn get_skill(State(state): State<AppState>, params: Params) -> AppResult<Response> {
    let slug = params
        .text("slug")
        .ok_or_else(|| AppError::bad_request("Missing slug"))?;
    let detail = skills::find_any_skill(&state, slug, params.owner().as_deref()).await?;
    let row = &detail.skill;
    if !Visibility::of(row).is_listed() {
        return Err(AppError::not_found("Skill not found"));
    }
    Ok(json_ok(json!({
        "skill": {
            "slug": row.slug,
            "displayName": row.display_name,
            "summary": row.summary,
            "tags": views::tags(row),
            "stats": views::stats(row),
            "createdAt": row.created_at,
            "updatedAt": row.updated_at,
        },
        "latestVersion": views::latest_version(row),
        "owner": { "handle": row.owner_handle, "displayName": row.owner_display_name, "image": row.owner_image },
    })))
}

/// Counts an install reported by the CLI after `clawhub install`.
async fn install_telemetry(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppJson(body): AppJson<Value>,
) -> AppResult<Response> {
    let now = chrono::Utc::now().timestamp_millis();
    let mut installs: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    if let Some(slug) = body.get("slug").and_then(Value::as_str) {
        let owner = body
            .get("ownerHandle")
            .and_then(Value::as_str)
            .map(|h| h.trim_start_matches('@').to_ascii_lowercase());
        let version = body
            .get("version")
            .and_then(Value::as_str)
            .map(str::to_owned);
        installs.push((slug.to_owned(), owner, version));
    }
    for root in body
        .get("roots")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for skill in root
            .get("skills")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .take(200)
        {
            if let Some(slug) = skill.get("slug").and_then(Value::as_str) {
                let version = skill
                    .get("version")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                installs.push((slug.to_owned(), None, version));
            }
        }
    }
    for (slug, owner, version) in installs {
        match skills::find_any_skill(&state, &slug, owner.as_deref()).await {
            Ok(detail) if !Visibility::of(&detail.skill).is_removed() => {
                state
                    .store
                    .record_install(detail.skill.id, Some(user.id), version.as_deref(), now)
                    .await?;
            }
            Ok(_) | Err(AppError::NotFound(_)) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(json_ok(json!({ "ok": true })))
}
