//! The skill domain: typed requests in, decisions out. No HTTP types and no SQL here;
//! surfaces call these functions and the store applies what they decide.
//!
//! - [`versions`]: which version becomes `latest`.
//! - [`visibility`]: who may see a skill (the one [`Visibility`]).
//! - [`publish`]: a typed publish request in, the new version decided and stored.
//! - [`lifecycle`]: delete/undelete, version withdraw/restore, rename, merge, hard delete.
//! - [`promptsets`]: the prompt sets of a bundle validated and linted with `promptset`.
//! - [`transfers`]: offers of a skill to another owner, accepted, rejected, cancelled or lapsed.
//! - [`reservations`]: slugs and package names an administrator holds for an owner.
//! - [`ranking`]: the order search hits are shown in.
//! - [`reports`]: hide/unhide by moderators, reports, appeals, triage and rescans.

pub mod lifecycle;
pub mod promptsets;
pub mod publish;
pub mod ranking;
pub mod reports;
pub mod reservations;
pub mod transfers;
pub mod versions;
pub mod visibility;

pub use visibility::Visibility;
