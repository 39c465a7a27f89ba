//! The skill-transfer use cases of the store: the [`TransferStore`] trait (a supertrait of
//! `Store`) and its row types. The SQL lives in `transfers.rs`, mounted once per backend.
//!
//! Every change of a transfer's status is a conditional update on `status = 'pending'`
//! (and on the expiry), so of two racing actions (accept and cancel, or two accepts)
//! exactly one changes the row and the other learns it lost.

use crate::db::row::from_row;
use async_trait::async_trait;

use crate::db::audit_store::NewAuditEvent;
use crate::error::DbError;

/// A transfer with the names its lists show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferRow {
    /// Row id.
    pub id: i64,
    /// The skill offered.
    pub skill_id: i64,
    /// Its slug now.
    pub skill_slug: String,
    /// Its display name now.
    pub skill_display_name: String,
    /// The sender (the owner when the transfer was requested).
    pub from_user_id: i64,
    /// Sender handle.
    pub from_handle: String,
    /// Sender display name.
    pub from_display_name: Option<String>,
    /// The recipient.
    pub to_user_id: i64,
    /// Recipient handle.
    pub to_handle: String,
    /// Recipient display name.
    pub to_display_name: Option<String>,
    /// The sender's note.
    pub message: Option<String>,
    /// `pending`, `accepted`, `rejected`, `cancelled` or `expired`.
    pub status: String,
    /// When it was requested, Unix ms.
    pub requested_at: i64,
    /// When it stops being actionable, Unix ms.
    pub expires_at: i64,
}

from_row!(TransferRow {
    id,
    skill_id,
    skill_slug,
    skill_display_name,
    from_user_id,
    from_handle,
    from_display_name,
    to_user_id,
    to_handle,
    to_display_name,
    message,
    status,
    requested_at,
    expires_at
});

/// A transfer to store.
#[derive(Debug, Clone)]
pub struct NewTransfer {
    /// The skill.
    pub skill_id: i64,
    /// The sender.
    pub from_user_id: i64,
    /// The recipient.
    pub to_user_id: i64,
    /// The sender's note.
    pub message: Option<String>,
    /// Request time.
    pub requested_at: i64,
    /// Expiry time.
    pub expires_at: i64,
    /// The audit row written with it.
    pub audit: NewAuditEvent,
}

/// How storing a transfer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferCreated {
    /// Stored with this id.
    Created(i64),
    /// Another transfer of the skill is pending and not expired.
    AlreadyPending,
}

/// How a pending transfer ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferEnd {
    /// The recipient took the skill: ownership moves in the same transaction.
    Accepted,
    /// The recipient declined.
    Rejected,
    /// The sender withdrew it, or it became invalid.
    Cancelled,
    /// Its period passed.
    Expired,
}

impl TransferEnd {
    /// The stored status.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Rejected => "rejected",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
        }
    }
}

/// What ending a transfer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferEnded {
    /// The status changed (and for an accept, the owner too).
    Done,
    /// The transfer was no longer pending (or, for accept/reject/cancel, had expired):
    /// another action won.
    NotPending,
    /// Accept only: the sender no longer owns the skill; the transfer was cancelled.
    SenderNoLongerOwner,
}

/// Which side of the caller's transfers to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferDirection {
    /// Addressed to the caller.
    Incoming,
    /// Started by the caller.
    Outgoing,
}

/// Skill-transfer use cases of the store.
#[async_trait]
pub trait TransferStore: Send + Sync {
    /// Stores a pending transfer (first marking the skill's expired ones `expired`), with
    /// its audit row, unless another one is pending.
    async fn create_transfer(&self, new: &NewTransfer) -> Result<TransferCreated, DbError>;
    /// The pending transfer of a skill, also when its period has passed (the caller
    /// decides, against its own `now`, whether it expired).
    async fn pending_transfer(&self, skill_id: i64) -> Result<Option<TransferRow>, DbError>;
    /// Ends a pending transfer if it is still pending (accept, reject and cancel also
    /// require `expires_at > now`; expire requires the opposite). An accept moves the
    /// skill to the recipient in the same transaction, provided the sender still owns
    /// it. The audit row is written in the same transaction when the status changes.
    async fn end_transfer(
        &self,
        transfer_id: i64,
        end: TransferEnd,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<TransferEnded, DbError>;
    /// Pending, unexpired transfers of a user, oldest first, skipping deleted skills.
    async fn list_transfers(
        &self,
        user_id: i64,
        direction: TransferDirection,
        now: i64,
    ) -> Result<Vec<TransferRow>, DbError>;
    /// Gives a skill to another owner at once (an administrator's immediate transfer),
    /// cancelling its pending transfer; false when `from_owner_id` no longer owns it.
    async fn move_skill(
        &self,
        skill_id: i64,
        from_owner_id: i64,
        to_owner_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError>;
}
