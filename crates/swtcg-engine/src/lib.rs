//! # swtcg-engine
//!
//! Exact odds for attacks in the Star Wars Trading Card Game. Nothing is
//! sampled: dice outcomes are enumerated as distributions over exact rational
//! probabilities, and the keyword rules (Critical Hit, Parry, Deflect,
//! Retaliate, ...) are composed over them in the order of the attack.
//!
//! Data flows one way: a typed request ([`request`], [`table`], a scenario
//! or plan file: [`files`]) → units with typed keywords ([`unit`](mod@unit),
//! [`keywords`]) → the attack dice and pipeline ([`attack`])
//! and the players' choices ([`policy`]) → exact distributions ([`dist`]) →
//! typed results ([`report`], [`scenario`], [`plan`], [`verify`]). Errors
//! are typed values with a kind and an origin ([`error`]).
//!
//! The crate depends only on numeric crates and serde: the command line,
//! the web server and the card reader are other crates.
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
#![warn(unnameable_types)]

pub mod attack;
pub mod battle;
pub mod cancel;
mod dice;
pub mod dist;
pub mod error;
pub mod files;
pub mod input;
pub(crate) mod kept;
pub mod keywords;
mod params;
pub mod plan;
pub mod policy;
pub mod report;
pub mod request;
pub mod sample;
pub mod scenario;
pub mod table;
pub mod unit;
pub mod verify;
mod words;
