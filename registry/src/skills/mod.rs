//! The skill domain: typed requests in, decisions out. No HTTP types and no SQL here;
//! surfaces call these functions and the store applies what they decide.
//!
//! - [`versions`]: which version becomes `latest`.
//! - [`visibility`]: who may see a skill (the one [`Visibility`]).
//! - [`publish`]: a typed publish request in, the new version decided and stored.

pub mod publish;
pub mod versions;
pub mod visibility;

pub use visibility::Visibility;
