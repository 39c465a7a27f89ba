//! `GET /api/v1/audit`: the audit log for administrators, newest first, cursor-paged and
//! filtered by actor, action and target. The reference registry has no such route; this
//! path and shape are ours (documented in the OpenAPI document).

use axum::Json;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::app::AppState;
use crate::auth::RequireUser;
use crate::db::audit_store::{AuditQuery, AuditRow};
use crate::error::{AppError, AppResult};
use crate::extract::Params;
use crate::pagination;
use crate::policy;
use axum::extract::State;

/// Default and largest page sizes.
const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;

/// Query of `GET /api/v1/audit`.
#[derive(Debug, Clone, Default, PartialEq, Eq, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditParams {
    /// Only events by this actor handle (a leading `@` is ignored).
    pub actor: Option<String>,
    /// Only this action, or every action under a dotted prefix (`skill` matches
    /// `skill.delete`).
    pub action: Option<String>,
    /// Only events about the record of this name (slug or package name).
    pub target: Option<String>,
    /// Only events about records of this kind (`skill`, `package`, `user`, …).
    #[param(rename = "targetKind")]
    pub target_kind: Option<String>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1-200 (default 50).
    pub limit: Option<i64>,
}

impl AuditParams {
    /// Reads the typed query from the raw parameters (unknown names ignored).
    pub fn from_params(params: &Params) -> AppResult<Self> {
        Ok(Self {
            actor: params
                .text("actor")
                .map(|handle| handle.trim_start_matches('@').to_ascii_lowercase()),
            action: params.text("action").map(str::to_owned),
            target: params.text("target").map(str::to_owned),
            target_kind: params.text("targetKind").map(str::to_owned),
            cursor: params.text("cursor").map(str::to_owned),
            limit: Some(params.clamped("limit", DEFAULT_LIMIT, 1, MAX_LIMIT)?),
        })
    }

    /// The store query; an undecodable cursor is a 400 (an admin tool should not silently
    /// start over).
    pub fn into_query(self) -> AppResult<AuditQuery> {
        let before_id = match self.cursor.as_deref() {
            None => None,
            Some(cursor) => Some(
                pagination::decode_audit_cursor(cursor)
                    .ok_or_else(|| AppError::bad_request("Invalid cursor format"))?,
            ),
        };
        Ok(AuditQuery {
            actor: self.actor,
            action: self.action,
            target: self.target,
            target_kind: self.target_kind,
            before_id,
            limit: self.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT),
        })
    }
}

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditActor {
    /// User id, as a string like every id on the wire.
    pub user_id: Option<String>,
    /// Handle at the time of the change.
    pub handle: Option<String>,
}

/// Which record a change was about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditTarget {
    /// `skill`, `package`, `user`, …
    pub kind: String,
    /// Row id, as a string.
    pub id: Option<String>,
    /// Name at the time of the change.
    pub name: Option<String>,
}

/// One audit event.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// Event id, as a string.
    pub id: String,
    /// When, Unix ms.
    pub at: i64,
    /// The acting user; null for the server itself.
    pub actor: Option<AuditActor>,
    /// `<domain>.<verb>`, e.g. `skill.delete`.
    pub action: String,
    /// The changed record.
    pub target: AuditTarget,
    /// State before the change (the fields that changed), or null.
    #[schema(value_type = Option<Object>)]
    pub from: Option<Value>,
    /// State after the change, or null.
    #[schema(value_type = Option<Object>)]
    pub to: Option<Value>,
}

impl From<AuditRow> for AuditEntry {
    fn from(row: AuditRow) -> Self {
        let parse =
            |text: Option<String>| text.and_then(|text| serde_json::from_str::<Value>(&text).ok());
        let actor = (row.actor_id.is_some() || row.actor_handle.is_some()).then(|| AuditActor {
            user_id: row.actor_id.map(|id| id.to_string()),
            handle: row.actor_handle,
        });
        Self {
            id: row.id.to_string(),
            at: row.created_at,
            actor,
            action: row.action,
            target: AuditTarget {
                kind: row.target_kind,
                id: row.target_id.map(|id| id.to_string()),
                name: row.target_name,
            },
            from: parse(row.from_json),
            to: parse(row.to_json),
        }
    }
}

/// A page of the audit log.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    /// Events, newest first.
    pub items: Vec<AuditEntry>,
    /// Cursor of the next page; null at the end.
    pub next_cursor: Option<String>,
}

impl AuditPage {
    /// Builds a page from up to `limit + 1` rows.
    pub fn from_rows(mut rows: Vec<AuditRow>, limit: i64) -> Self {
        let limit = usize::try_from(limit).unwrap_or(0);
        let next_cursor = if rows.len() > limit {
            rows.truncate(limit);
            rows.last()
                .and_then(|row| pagination::encode_audit_cursor(row.id))
        } else {
            None
        };
        Self {
            items: rows.into_iter().map(AuditEntry::from).collect(),
            next_cursor,
        }
    }
}

/// The audit log (administrators only).
#[utoipa::path(get, path = "/api/v1/audit", tag = "audit",
    params(AuditParams),
    responses((status = 200, description = "events, newest first", body = AuditPage),
              (status = 400, description = "invalid `limit` or `cursor`", body = String, content_type = "text/plain"),
              (status = 401, description = "missing, invalid or revoked token", body = String, content_type = "text/plain"),
              (status = 403, description = "`Admin role required.`", body = String, content_type = "text/plain")))]
pub async fn list_audit(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
    params: Params,
) -> AppResult<Response> {
    if !policy::may_read_audit_log(&user) {
        return Err(AppError::Forbidden("Admin role required.".into()));
    }
    let query = AuditParams::from_params(&params)?.into_query()?;
    let limit = query.limit;
    let rows = state.store.list_audit(&query).await?;
    let mut response = Json(AuditPage::from_rows(rows, limit)).into_response();
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}
