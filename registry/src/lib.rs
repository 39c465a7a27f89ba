//! The skill registry.

pub mod moderation;
