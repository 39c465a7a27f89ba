//! The skill registry.
