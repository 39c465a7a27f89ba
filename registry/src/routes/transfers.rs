//! Skill transfers: `POST /api/v1/skills/{slug}/transfer` starts one,
//! `POST /api/v1/skills/{slug}/transfer/{accept|reject|cancel}` ends it, and
//! `GET /api/v1/transfers/{incoming|outgoing}` lists the caller's pending ones, in the
//! shapes `clawhub transfer …` 0.23.3 reads (`_id` strings, `message` absent rather than
//! null). The rules live in [`crate::skills::transfers`].

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::db::SkillRow;
use crate::db::transfer_store::{TransferDirection, TransferRow};
use crate::error::{AppError, AppResult};
use crate::extract::{AppBytes, AppPath, Params, optional_body, owner_of};
use crate::policy::TransferAction;
use crate::routes::json_ok;
use crate::routes::skills::find_any_skill;
use crate::skills::transfers::{self, StartTransfer, Started};

/// Body of `POST /api/v1/skills/{slug}/transfer`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferRequest {
    /// The recipient's handle (`@` and case ignored).
    pub to_user_handle: Option<String>,
    /// A publisher to move the skill to at once (administrators only).
    pub to_owner: Option<String>,
    /// Same as `toOwner`.
    pub to_publisher_handle: Option<String>,
    /// A note for the recipient (required for a soft-deleted skill).
    pub message: Option<String>,
    /// Owner qualifier of the slug (wins over the query's).
    pub owner_handle: Option<String>,
}

/// An offer waiting for the recipient.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferRequested {
    /// Always true.
    pub ok: bool,
    /// The transfer's id.
    pub transfer_id: String,
    /// The recipient.
    pub to_user_handle: String,
    /// When the offer lapses, Unix ms.
    pub expires_at: i64,
}

/// A skill moved at once.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferMoved {
    /// Always true.
    pub ok: bool,
    /// Always true.
    pub transferred: bool,
    /// The skill.
    pub skill_slug: String,
    /// The new owner's handle.
    pub to_publisher_handle: String,
    /// The new owner's user id.
    pub owner_user_id: String,
    /// The new owner's publisher id (a user is their own publisher here).
    pub owner_publisher_id: String,
}

/// Answer to a transfer request.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum TransferStarted {
    /// Pending for the recipient.
    Requested(TransferRequested),
    /// Done at once.
    Moved(TransferMoved),
}

/// Optional body of accept, reject and cancel (the CLI sends `{}`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferActionRequest {
    /// Owner qualifier of the slug (wins over the query's).
    pub owner_handle: Option<String>,
}

/// Answer to accept (`skillSlug` set), reject and cancel.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferActionResponse {
    /// Always true.
    pub ok: bool,
    /// The accepted skill's slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_slug: Option<String>,
}

/// The skill of a listed transfer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferSkill {
    /// Skill id.
    #[serde(rename = "_id")]
    pub id: String,
    /// Slug.
    pub slug: String,
    /// Display name.
    pub display_name: String,
}

/// The other party of a listed transfer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferParty {
    /// User id.
    #[serde(rename = "_id")]
    pub id: String,
    /// Handle.
    pub handle: Option<String>,
    /// Display name.
    pub display_name: Option<String>,
}

/// One pending transfer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferItem {
    /// Transfer id.
    #[serde(rename = "_id")]
    pub id: String,
    /// The skill.
    pub skill: TransferSkill,
    /// The sender (incoming lists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_user: Option<TransferParty>,
    /// The recipient (outgoing lists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_user: Option<TransferParty>,
    /// The sender's note; absent rather than null, as the CLI requires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Unix ms.
    pub requested_at: i64,
    /// Unix ms.
    pub expires_at: i64,
}

/// `GET /api/v1/transfers/incoming` and `/outgoing`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TransferList {
    /// Oldest first.
    pub transfers: Vec<TransferItem>,
}

impl TransferItem {
    fn from_row(row: TransferRow, direction: TransferDirection) -> Self {
        let (from_user, to_user) = match direction {
            TransferDirection::Incoming => (
                Some(TransferParty {
                    id: row.from_user_id.to_string(),
                    handle: Some(row.from_handle),
                    display_name: row.from_display_name,
                }),
                None,
            ),
            TransferDirection::Outgoing => (
                None,
                Some(TransferParty {
                    id: row.to_user_id.to_string(),
                    handle: Some(row.to_handle),
                    display_name: row.to_display_name,
                }),
            ),
        };
        Self {
            id: row.id.to_string(),
            skill: TransferSkill {
                id: row.skill_id.to_string(),
                slug: row.skill_slug,
                display_name: row.skill_display_name,
            },
            from_user,
            to_user,
            message: row.message,
            requested_at: row.requested_at,
            expires_at: row.expires_at,
        }
    }
}

/// Now, Unix ms.
fn now() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

async fn skill_row(state: &AppState, slug: &str, owner: Option<&str>) -> AppResult<SkillRow> {
    Ok(find_any_skill(state, slug, owner).await?.skill)
}

/// Offers a skill to another user (or, for an administrator, moves it at once).
#[utoipa::path(post, path = "/api/v1/skills/{slug}/transfer", tag = "transfers",
    params(("slug" = String, Path, description = "skill slug"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    request_body(content = TransferRequest, content_type = "application/json"),
    responses((status = 200, description = "pending offer, or an immediate move", body = TransferStarted),
              (status = 400, description = "`toUserHandle required`, `Cannot transfer to yourself`, `A transfer is already pending for this skill`, `Invalid JSON`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Forbidden`", body = String, content_type = "text/plain"),
              (status = 404, description = "`Skill not found`, `User not found`", body = String, content_type = "text/plain")))]
pub async fn start_transfer(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath(slug): AppPath<String>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let request: TransferRequest = optional_body(&body)?;
    let owner = owner_of(request.owner_handle.as_deref(), &params);
    if request.to_user_handle.is_none()
        && request.to_owner.is_none()
        && request.to_publisher_handle.is_none()
    {
        return Err(AppError::bad_request("toUserHandle required"));
    }
    let skill = skill_row(&state, &slug, owner.as_deref()).await?;
    let started = transfers::start(
        state.store.as_ref(),
        &user,
        &skill,
        StartTransfer {
            to_user_handle: request.to_user_handle,
            to_publisher_handle: request.to_owner.or(request.to_publisher_handle),
            message: request.message,
        },
        now(),
    )
    .await?;
    Ok(json_ok(match started {
        Started::Pending {
            transfer_id,
            to_user_handle,
            expires_at,
        } => TransferStarted::Requested(TransferRequested {
            ok: true,
            transfer_id: transfer_id.to_string(),
            to_user_handle,
            expires_at,
        }),
        Started::Moved { skill_slug, to } => TransferStarted::Moved(TransferMoved {
            ok: true,
            transferred: true,
            skill_slug,
            to_publisher_handle: to.handle,
            owner_user_id: to.id.to_string(),
            owner_publisher_id: to.id.to_string(),
        }),
    }))
}

/// Accepts or rejects (recipient) or cancels (sender) the pending transfer of a skill.
#[utoipa::path(post, path = "/api/v1/skills/{slug}/transfer/{action}", tag = "transfers",
    params(("slug" = String, Path, description = "skill slug"),
           ("action" = String, Path, description = "`accept`, `reject` or `cancel`"),
           ("ownerHandle" = Option<String>, Query, description = "owner qualifier")),
    request_body(content = TransferActionRequest, content_type = "application/json"),
    responses((status = 200, description = "`{ok, skillSlug?}`", body = TransferActionResponse),
              (status = 400, description = "`Transfer has expired`, `Skill is under moderation`, `Transfer is no longer valid`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain"),
              (status = 404, description = "`No pending transfer found`, `Skill not found`, `Not found` (unknown action)", body = String, content_type = "text/plain")))]
pub async fn act_on_transfer(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    AppPath((slug, action)): AppPath<(String, String)>,
    params: Params,
    AppBytes(body): AppBytes,
) -> AppResult<Response> {
    let action = TransferAction::parse(&action).ok_or_else(|| AppError::not_found("Not found"))?;
    let request: TransferActionRequest = optional_body(&body)?;
    let owner = owner_of(request.owner_handle.as_deref(), &params);
    let skill = skill_row(&state, &slug, owner.as_deref()).await?;
    transfers::act(state.store.as_ref(), &user, &skill, action, now()).await?;
    Ok(json_ok(TransferActionResponse {
        ok: true,
        skill_slug: (action == TransferAction::Accept).then(|| skill.slug.clone()),
    }))
}

async fn list(
    state: &AppState,
    user: &crate::db::User,
    direction: TransferDirection,
) -> AppResult<Response> {
    let rows = transfers::list(state.store.as_ref(), user, direction, now()).await?;
    Ok(json_ok(TransferList {
        transfers: rows
            .into_iter()
            .map(|row| TransferItem::from_row(row, direction))
            .collect(),
    }))
}

/// Pending transfers addressed to the caller.
#[utoipa::path(get, path = "/api/v1/transfers/incoming", tag = "transfers",
    responses((status = 200, description = "pending, unexpired offers to the caller", body = TransferList),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain")))]
pub async fn incoming_transfers(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
) -> AppResult<Response> {
    list(&state, &user, TransferDirection::Incoming).await
}

/// Pending transfers the caller started.
#[utoipa::path(get, path = "/api/v1/transfers/outgoing", tag = "transfers",
    responses((status = 200, description = "pending, unexpired offers by the caller", body = TransferList),
              (status = 401, description = "missing or invalid token", body = String, content_type = "text/plain")))]
pub async fn outgoing_transfers(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
) -> AppResult<Response> {
    list(&state, &user, TransferDirection::Outgoing).await
}
