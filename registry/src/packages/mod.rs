//! The package domain: everything the registry decides about packages (code plugins,
//! bundle plugins, skills published as packages) without HTTP types or SQL.
//!
//! A publish flows through here top to bottom: [`name`] checks the npm-style name (scoped
//! `@owner/name` included), [`tarball`] reads the uploaded `npm pack` tarball with hard
//! limits and refuses unsafe entries, [`manifest`] parses its `package.json` and checks it
//! agrees with the publish payload, [`integrity`] computes the digests npm and the clients
//! verify, [`scan`] looks for install scripts, native binaries, obfuscation and
//! credential or network access, and [`publish`] turns all of it into one prepared release
//! the store persists. [`packument`] renders the npm view of the stored releases,
//! [`export`] the plugin export archive, and [`serving`] keeps the in-process caches and
//! download counters that let tarballs be served without a database write per request.

pub mod export;
pub mod integrity;
pub mod lifecycle;
pub mod manifest;
pub mod name;
pub mod packument;
pub mod publish;
pub mod scan;
pub mod serving;
pub mod tarball;
pub mod views;
