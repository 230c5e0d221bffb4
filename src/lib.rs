//! # swtcg-odds
//!
//! Exact odds for attacks in the Star Wars Trading Card Game: the command
//! line ([`cli`]), the local web calculator ([`web`]), and the writers of
//! files and pictures ([`output`], [`plot`]), over two library crates:
//! [`swtcg_engine`] (distributions, dice, units, the attack, policies,
//! scenarios, plans, typed results) and [`swtcg_cards`] (card files, the
//! card language, stacks, matchups). Those are not re-exported here: a
//! program imports them by their own names.
//!
//! ```
//! use swtcg_engine::{attack::attack, keywords::Keyword, unit::Unit};
//!
//! let attacker = Unit::new("Attacker", 4);
//! let mut defender = Unit::new("Defender", 3);
//! defender.keywords.set(Keyword::Armor);
//! let out = attack(&attacker, &defender).unwrap();
//! // Each die hits on 5+ against Armor: 4 dice, 1/3 each.
//! assert_eq!(out.defender_damage.mean().to_string(), "4/3");
//! ```

#![warn(missing_docs)]

pub mod cli;
pub mod fuzzing;
pub mod output;
pub mod plot;
pub mod web;
pub mod writers;

// The README's Rust examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// docs/verify.md's Rust example is compiled and run too.
#[doc = include_str!("../docs/verify.md")]
#[cfg(doctest)]
pub struct VerifyDocDoctests;
