//! The integration tests: one binary, one module per subject (a single
//! binary links once, which keeps a fresh clone's `cargo test` fast).
//!
//! `shared` checks the full shared card files beside the repository; its
//! tests are ignored here and run by `.ci/run` by name.

mod battle;
mod cards;
mod cli;
mod common;
mod docs;
mod fuzz;
mod keywords;
mod layering;
mod matchups;
mod messages;
mod oracle_attack;
mod oracle_policy;
mod plan;
mod properties;
mod properties_game;
mod reader;
mod readings;
mod readings_policy;
mod robustness;
mod shared;
mod snapshots;
mod verify;
mod web;
