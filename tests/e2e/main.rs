//! Every end-to-end scenario, as modules of one test binary: real clients (`clawhub`,
//! `npm`, `openclaw`, the `promptset` CLI) against a registry started in-process.
//!
//! One binary rather than one per scenario: the workspace links once instead of seven
//! times, and the scenarios, which spend most of their time waiting on node processes
//! and rate-limit windows, run side by side in the test harness's threads. Each scenario
//! starts its own server on `127.0.0.1:0` with its own storage; the throwaway PostgreSQL
//! server is shared (`postgres::shared`), one fresh database per scenario.

#[path = "../../registry/tests/support/postgres.rs"]
mod postgres;

mod clawhub_cli;
mod clawhub_large_package;
mod clawhub_lifecycle;
mod clawhub_transfer;
mod npm_client;
mod openclaw;
mod postgres_harness;
mod prompt_skill;
