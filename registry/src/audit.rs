//! The audit log: every state change writes one row saying who did what to which record,
//! from which state to which, and when. Admins read it through `GET /api/v1/audit`
//! (`routes/audit.rs`) and operators with `registry audit`.
//!
//! # Recording an event from another domain
//!
//! 1. Build the event with [`AuditEvent::new`] in the domain function that decides the
//!    change (actor, an action string `<domain>.<verb>` such as `skill.transfer.accept`,
//!    the target) and add the before and after states with [`AuditEvent::from`] /
//!    [`AuditEvent::to`] (any `Serialize`, kept small: the fields that changed).
//! 2. Hand `event.into_row()` ([`NewAuditEvent`]) to your store method together with the
//!    change, and in its SQL (`db/<domain>.rs`, mounted per backend) call
//!    `super::audit::insert_event(&mut *tx, &event).await?` inside the same write
//!    transaction, so the change and its row commit or roll back together.
//! 3. Only when there is no transaction to join (a command-line action), call
//!    [`AuditStore::record_audit`](crate::db::audit_store::AuditStore::record_audit).
//!
//! Actions recorded so far: `skill.publish`, `skill.delete`, `skill.undelete`,
//! `skill.hard_delete`, `skill.rename`, `skill.merge`, `skill.version.delete`,
//! `skill.version.restore`, `package.delete`, `package.undelete`, `package.transfer` (its
//! `to` state keeps the new owner and the caller's `reason`). Every skill event targets
//! the skill (kind `skill`, its slug at the time), so `?target=<slug>` tells a skill's
//! whole story; version events name the version in their states. Package events target
//! the package (kind `package`, its full name).

use serde::Serialize;

use crate::db::User;
use crate::db::audit_store::NewAuditEvent;

/// A state change about to be recorded.
#[derive(Debug, Clone)]
pub struct AuditEvent {
    row: NewAuditEvent,
}

/// What kind of record an event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// A skill (name: its slug).
    Skill,
    /// A package (name: its full name).
    Package,
    /// A user (name: the handle).
    User,
}

impl TargetKind {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Skill => "skill",
            Self::Package => "package",
            Self::User => "user",
        }
    }
}

impl AuditEvent {
    /// An event by `actor` (`None`: the server itself), doing `action` to the record of
    /// `kind` with row id `target_id` and name `target_name`, now.
    pub fn new(
        actor: Option<&User>,
        action: &str,
        kind: TargetKind,
        target_id: Option<i64>,
        target_name: impl Into<String>,
    ) -> Self {
        Self {
            row: NewAuditEvent {
                actor_id: actor.map(|user| user.id),
                action: action.to_owned(),
                target_kind: kind.as_str().to_owned(),
                target_id,
                target_name: Some(target_name.into()),
                from_json: None,
                to_json: None,
                at: chrono::Utc::now().timestamp_millis(),
            },
        }
    }

    /// Same, for an actor known only by id (inside the store, where the user row is not
    /// at hand).
    pub fn by_user_id(
        actor_id: i64,
        action: &str,
        kind: TargetKind,
        target_id: Option<i64>,
        target_name: impl Into<String>,
        at: i64,
    ) -> Self {
        let mut event = Self::new(None, action, kind, target_id, target_name);
        event.row.actor_id = Some(actor_id);
        event.row.at = at;
        event
    }

    /// The state before the change.
    #[must_use]
    pub fn from(mut self, state: impl Serialize) -> Self {
        self.row.from_json = serde_json::to_string(&state).ok();
        self
    }

    /// The state after the change.
    #[must_use]
    pub fn to(mut self, state: impl Serialize) -> Self {
        self.row.to_json = serde_json::to_string(&state).ok();
        self
    }

    /// Sets the time of the change (use the same `now` the change itself stores).
    #[must_use]
    pub fn at(mut self, at: i64) -> Self {
        self.row.at = at;
        self
    }

    /// The row the store writes.
    pub fn into_row(self) -> NewAuditEvent {
        self.row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_carries_actor_target_and_both_states() {
        let user = User {
            id: 4,
            handle: "alice".into(),
            display_name: None,
            image: None,
            role: "user".into(),
        };
        let row = AuditEvent::new(Some(&user), "skill.rename", TargetKind::Skill, Some(9), "b")
            .from(serde_json::json!({"slug": "a"}))
            .to(serde_json::json!({"slug": "b"}))
            .at(77)
            .into_row();
        assert_eq!(row.actor_id, Some(4));
        assert_eq!(row.action, "skill.rename");
        assert_eq!(row.target_kind, "skill");
        assert_eq!(row.target_id, Some(9));
        assert_eq!(row.target_name.as_deref(), Some("b"));
        assert_eq!(row.from_json.as_deref(), Some(r#"{"slug":"a"}"#));
        assert_eq!(row.to_json.as_deref(), Some(r#"{"slug":"b"}"#));
        assert_eq!(row.at, 77);
    }
}
