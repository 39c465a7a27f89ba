//! Shared helpers for the end-to-end tests (see [`support`]).

pub mod support;
