//! Transfers of skills between owners: the owner offers a skill to another user's handle,
//! the recipient accepts or rejects it, the sender cancels it, and an offer lapses after
//! [`TRANSFER_PERIOD_MS`]. Expiry is computed from stored timestamps against the `now`
//! the caller passes in, so it is applied lazily (on the next action or list) and tests
//! control the clock without sleeping.
//!
//! Refusals use the reference registry's statuses and texts, which the `clawhub` CLI
//! prints as they are.

use crate::audit::{AuditEvent, TargetKind};
use crate::db::transfer_store::{
    NewTransfer, TransferCreated, TransferDirection, TransferEnd, TransferEnded, TransferRow,
};
use crate::db::{SkillRow, Store, User};
use crate::error::{AppError, AppResult};
use crate::policy::{self, SkillManagement, TransferAction};
use crate::skills::Visibility;

/// How long an offer stays open: 7 days, as on the reference registry.
pub const TRANSFER_PERIOD_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Most characters of a transfer message.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// When a transfer requested at `requested_at` lapses.
pub fn expires_at(requested_at: i64) -> i64 {
    requested_at.saturating_add(TRANSFER_PERIOD_MS)
}

/// Whether a transfer can no longer be acted on at `now`.
pub fn is_expired(transfer: &TransferRow, now: i64) -> bool {
    transfer.expires_at <= now
}

/// A transfer request, whichever fields the client used.
#[derive(Debug, Clone, Default)]
pub struct StartTransfer {
    /// The recipient user's handle (`toUserHandle`).
    pub to_user_handle: Option<String>,
    /// A publisher handle for an immediate move (`toOwner` / `toPublisherHandle`).
    pub to_publisher_handle: Option<String>,
    /// The sender's note.
    pub message: Option<String>,
}

/// What starting a transfer did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Started {
    /// An offer is pending for the recipient.
    Pending {
        /// Transfer id.
        transfer_id: i64,
        /// Recipient handle.
        to_user_handle: String,
        /// When it lapses.
        expires_at: i64,
    },
    /// The skill moved at once (an administrator's publisher transfer).
    Moved {
        /// The skill's slug.
        skill_slug: String,
        /// The new owner.
        to: User,
    },
}

fn clean_handle(handle: &str) -> String {
    handle.trim().trim_start_matches('@').to_ascii_lowercase()
}

fn clean_message(message: Option<&str>) -> AppResult<Option<String>> {
    let Some(message) = message.map(str::trim).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    if message.chars().count() > MAX_MESSAGE_CHARS {
        return Err(AppError::BadRequest(format!(
            "message is too long (max {MAX_MESSAGE_CHARS} characters)"
        )));
    }
    Ok(Some(message.to_owned()))
}

/// Starts a transfer of `skill` by `actor`.
pub async fn start(
    store: &dyn Store,
    actor: &User,
    skill: &SkillRow,
    request: StartTransfer,
    now: i64,
) -> AppResult<Started> {
    let immediate = request
        .to_publisher_handle
        .as_deref()
        .map(clean_handle)
        .filter(|handle| !handle.is_empty());
    let handle = match (
        &immediate,
        request.to_user_handle.as_deref().map(clean_handle),
    ) {
        (Some(handle), _) => handle.clone(),
        (None, Some(handle)) if !handle.is_empty() => handle,
        (None, _) => return Err(AppError::bad_request("toUserHandle required")),
    };
    let message = clean_message(request.message.as_deref())?;
    let visibility = Visibility::of(skill);
    if !policy::may_manage(Some(actor), SkillManagement::Transfer, skill) {
        // A skill the caller cannot see is not revealed by a 403.
        if visibility.is_removed() {
            return Err(AppError::not_found("Skill not found"));
        }
        return Err(AppError::Forbidden("Forbidden".into()));
    }
    let recipient = store
        .find_user(&handle)
        .await?
        .ok_or_else(|| AppError::not_found("User not found"))?;
    if recipient.id == skill.owner_id {
        return Err(AppError::bad_request("Cannot transfer to yourself"));
    }
    let deleted = visibility == Visibility::SoftDeleted;
    if deleted && message.is_none() {
        return Err(AppError::bad_request(
            "message required for soft-deleted skill transfer",
        ));
    }
    if immediate.is_some() || deleted {
        // An immediate move needs the right to administer both sides: here only an
        // administrator has it (personal publishers are their users).
        if !policy::is_admin(Some(actor)) {
            return Err(AppError::Forbidden("Forbidden".into()));
        }
        let audit = AuditEvent::new(
            Some(actor),
            "skill.transfer.move",
            TargetKind::Skill,
            Some(skill.id),
            &skill.slug,
        )
        .from(serde_json::json!({ "owner": skill.owner_handle }))
        .to(serde_json::json!({ "owner": recipient.handle, "message": message }))
        .at(now)
        .into_row();
        if !store
            .move_skill(skill.id, skill.owner_id, recipient.id, now, &audit)
            .await?
        {
            return Err(AppError::bad_request("Transfer is no longer valid"));
        }
        return Ok(Started::Moved {
            skill_slug: skill.slug.clone(),
            to: recipient,
        });
    }
    let expires_at = expires_at(now);
    let audit = AuditEvent::new(
        Some(actor),
        "skill.transfer.request",
        TargetKind::Skill,
        Some(skill.id),
        &skill.slug,
    )
    .from(serde_json::json!({ "owner": skill.owner_handle }))
    .to(serde_json::json!({ "status": "pending", "toUser": recipient.handle, "expiresAt": expires_at }))
    .at(now)
    .into_row();
    let new = NewTransfer {
        skill_id: skill.id,
        from_user_id: skill.owner_id,
        to_user_id: recipient.id,
        message,
        requested_at: now,
        expires_at,
        audit,
    };
    match store.create_transfer(&new).await? {
        TransferCreated::Created(transfer_id) => Ok(Started::Pending {
            transfer_id,
            to_user_handle: recipient.handle,
            expires_at,
        }),
        TransferCreated::AlreadyPending => Err(AppError::bad_request(
            "A transfer is already pending for this skill",
        )),
    }
}

impl TransferAction {
    fn end(self) -> TransferEnd {
        match self {
            Self::Accept => TransferEnd::Accepted,
            Self::Reject => TransferEnd::Rejected,
            Self::Cancel => TransferEnd::Cancelled,
        }
    }

    fn audit_action(self) -> &'static str {
        match self {
            Self::Accept => "skill.transfer.accept",
            Self::Reject => "skill.transfer.reject",
            Self::Cancel => "skill.transfer.cancel",
        }
    }

    /// Parses the last path segment (`accept`, `reject`, `cancel`).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "accept" => Some(Self::Accept),
            "reject" => Some(Self::Reject),
            "cancel" => Some(Self::Cancel),
            _ => None,
        }
    }
}

const NO_PENDING: &str = "No pending transfer found";

/// Accepts, rejects or cancels the pending transfer of `skill` as `actor`. Exactly one of
/// several racing actions succeeds; the others get `No pending transfer found`.
pub async fn act(
    store: &dyn Store,
    actor: &User,
    skill: &SkillRow,
    action: TransferAction,
    now: i64,
) -> AppResult<()> {
    let transfer = store
        .pending_transfer(skill.id)
        .await?
        .filter(|t| policy::may_transfer(actor, action, t.from_user_id, t.to_user_id))
        .ok_or_else(|| AppError::not_found(NO_PENDING))?;
    let event = |name: &str, status: &str| {
        AuditEvent::new(
            Some(actor),
            name,
            TargetKind::Skill,
            Some(skill.id),
            &skill.slug,
        )
        .from(serde_json::json!({ "transfer": transfer.id, "status": "pending", "owner": transfer.from_handle }))
        .to(serde_json::json!({ "transfer": transfer.id, "status": status }))
        .at(now)
        .into_row()
    };
    if is_expired(&transfer, now) {
        let audit = event("skill.transfer.expire", "expired");
        store
            .end_transfer(transfer.id, TransferEnd::Expired, now, &audit)
            .await?;
        return Err(AppError::bad_request("Transfer has expired"));
    }
    if action == TransferAction::Accept {
        let visibility = Visibility::of(skill);
        if visibility.is_removed() || visibility == Visibility::Blocked {
            let audit = event("skill.transfer.cancel", "cancelled");
            store
                .end_transfer(transfer.id, TransferEnd::Cancelled, now, &audit)
                .await?;
            return Err(AppError::bad_request("Skill is under moderation"));
        }
    }
    let mut audit = event(action.audit_action(), action.end().as_str());
    if action == TransferAction::Accept {
        audit.to_json = Some(
            serde_json::json!({ "transfer": transfer.id, "status": "accepted", "owner": transfer.to_handle })
                .to_string(),
        );
    }
    match store
        .end_transfer(transfer.id, action.end(), now, &audit)
        .await?
    {
        TransferEnded::Done => Ok(()),
        TransferEnded::NotPending => Err(AppError::not_found(NO_PENDING)),
        TransferEnded::SenderNoLongerOwner => {
            Err(AppError::bad_request("Transfer is no longer valid"))
        }
    }
}

/// The caller's pending, unexpired transfers.
pub async fn list(
    store: &dyn Store,
    user: &User,
    direction: TransferDirection,
    now: i64,
) -> AppResult<Vec<TransferRow>> {
    Ok(store.list_transfers(user.id, direction, now).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_lapses_seven_days_after_it_was_made() {
        let requested = 1_700_000_000_000;
        let row = TransferRow {
            id: 1,
            skill_id: 1,
            skill_slug: "demo".into(),
            skill_display_name: "Demo".into(),
            from_user_id: 1,
            from_handle: "alice".into(),
            from_display_name: None,
            to_user_id: 2,
            to_handle: "bob".into(),
            to_display_name: None,
            message: None,
            status: "pending".into(),
            requested_at: requested,
            expires_at: expires_at(requested),
        };
        assert!(!is_expired(&row, requested + TRANSFER_PERIOD_MS - 1));
        assert!(is_expired(&row, requested + TRANSFER_PERIOD_MS));
        assert_eq!(clean_handle(" @Bob "), "bob");
        assert!(clean_message(Some(&"x".repeat(MAX_MESSAGE_CHARS + 1))).is_err());
        assert_eq!(clean_message(Some("  ")).expect("empty is none"), None);
    }
}
