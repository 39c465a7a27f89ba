//! Helpers shared by the end-to-end tests: the registry started in-process
//! ([`registry::Registry`]), pinned npm tools cached under `target/e2e-cache`
//! ([`tools`]), clients run with an isolated home ([`clients`]), file helpers ([`files`]),
//! publishable folders ([`fixtures`]) and headless Chromium on the pages ([`browser`]).
//!
//! Every helper fails loudly with the reason (a missing `node`, an npm install that
//! failed); none skips a test.

pub mod browser;
pub mod clients;
pub mod files;
pub mod fixtures;
pub mod registry;
pub mod tools;
