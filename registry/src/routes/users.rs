//! The caller's identity.

use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::RequireUser;
use crate::error::AppResult;
use crate::routes::json_ok;

/// The user behind the Bearer token.
#[utoipa::path(get, path = "/api/v1/whoami", tag = "users",
    responses((status = 200, description = "the caller", body = WhoamiResponse),
              (status = 401, description = "missing, invalid or revoked token", body = String, content_type = "text/plain")))]
pub async fn whoami(RequireUser(user): RequireUser) -> AppResult<Response> {
    Ok(json_ok(WhoamiResponse {
        user: WhoamiUser {
            handle: user.handle.clone(),
            display_name: user.display_name.clone(),
            image: user.image.clone(),
            role: user.role().as_str().to_owned(),
        },
    }))
}

/// The caller of `GET /api/v1/whoami`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WhoamiUser {
    /// Handle.
    pub handle: String,
    /// Display name.
    pub display_name: Option<String>,
    /// Avatar URL.
    pub image: Option<String>,
    /// `user`, `moderator` or `admin`.
    pub role: String,
}

/// Answer of `GET /api/v1/whoami`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WhoamiResponse {
    /// The caller.
    pub user: WhoamiUser,
}
