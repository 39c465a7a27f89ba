//! The caller's identity.

use axum::response::Response;
use serde_json::json;

use crate::auth::RequireUser;
use crate::error::AppResult;
use crate::routes::json_ok;

/// The user behind the Bearer token.
#[utoipa::path(get, path = "/api/v1/whoami", tag = "users",
    responses((status = 200, description = "`{user: {handle, displayName, image, role}}`", content_type = "application/json"),
              (status = 401, description = "missing, invalid or revoked token", body = String, content_type = "text/plain")))]
pub async fn whoami(RequireUser(user): RequireUser) -> AppResult<Response> {
    Ok(json_ok(json!({
        "user": {
            "handle": user.handle,
            "displayName": user.display_name,
            "image": user.image,
            "role": user.role().as_str(),
        }
    })))
}
