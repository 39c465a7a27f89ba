//! Topic-first prompt sets for generative engine optimization (GEO).
//!
//! The crate owns the prompt-set format ([`model`]), its JSON Schema derived from the
//! types ([`schema`]), the validator with integrity rules ([`validate`]) and the
//! reports ([`report`]). Every check, of briefs and prompt sets alike, reports through
//! one pipeline ([`diagnostic`]: bytes, preflight, JSON or YAML with positions, schema,
//! rules from one catalogue) and one renderer ([`output`]). The `promptset` binary is a
//! thin CLI over it, and the registry validates uploads with the same validator.

pub mod brief;
pub mod diagnostic;
pub mod error;
pub mod generate;
pub mod html;
pub mod lint;
pub mod llm;
pub mod locate;
pub mod model;
pub mod output;
pub mod report;
pub mod schema;
pub mod skill;
pub mod validate;

pub use error::Error;
pub use model::PromptSet;
