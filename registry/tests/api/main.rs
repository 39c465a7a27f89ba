//! API tests on a real server bound to `127.0.0.1:0`; every test runs on SQLite and on
//! PostgreSQL (`both_backends!`).

mod helpers;

mod audit;
mod auth;
mod bad_input;
mod concurrency;
mod cross_cutting;
mod leaks;
mod legacy;
mod lifecycle;
mod limits;
mod moderation;
mod moderation_actions;
mod package_uploads;
mod packages;
mod pages;
mod prompt_sets;
mod publish;
mod reads;
mod reservations;
mod search;
mod security;
mod skill_install;
mod transfers;
