//! # swtcg-odds
//!
//! Exact odds for attacks in the Star Wars Trading Card Game. Nothing is
//! sampled: dice outcomes are enumerated as distributions over exact rational
//! probabilities, and the keyword rules (Critical Hit, Parry, Deflect,
//! Retaliate, ...) are composed over them in the order of the attack.
//!
//! Data flows one way: units with typed keywords ([`unit`](mod@unit)) → attack dice
//! ([`dice`]) → the attack pipeline ([`attack`]) → exact distributions
//! ([`dist`]) → reports ([`report`], [`table`]).
//!
//! ```
//! use swtcg_odds::{attack::attack, unit::Unit};
//!
//! let attacker = Unit::new("Attacker", 4);
//! let mut defender = Unit::new("Defender", 3);
//! defender.keywords.armor = true;
//! let out = attack(&attacker, &defender).unwrap();
//! // Each die hits on 5+ against Armor: 4 dice, 1/3 each.
//! assert_eq!(out.defender_damage.mean().to_string(), "4/3");
//! ```

#![warn(missing_docs)]

pub mod attack;
pub mod cancel;
pub mod cards;
pub mod cli;
pub mod dice;
pub mod dist;
pub mod error;
pub mod files;
pub mod keywords;
pub mod matchups;
pub mod output;
pub mod plan;
pub mod plot;
pub mod policy;
pub mod report;
pub mod request;
pub mod sample;
pub mod scenario;
pub mod table;
pub mod unit;
pub mod verify;
pub mod web;
pub mod words;

/// The names most programs need.
///
/// ```
/// use swtcg_odds::prelude::*;
/// let out = attack(&Unit::new("a", 2), &Unit::new("d", 1)).unwrap();
/// assert_eq!(out.defender_damage.mean(), Fraction::from(num_rational::BigRational::from_integer(1.into())).0);
/// ```
pub mod prelude {
    pub use crate::attack::{AttackOutcome, Objective, Side, attack};
    pub use crate::cards::{Arena, CardDb, Piece};
    pub use crate::dist::{Dist, Fraction, Num};
    pub use crate::error::{Error, Result};
    pub use crate::keywords::{Ability, Keyword, parse};
    pub use crate::plan::Plan;
    pub use crate::policy::{Game, LuckyOrder, LuckyPolicy, Policy, solve};
    pub use crate::report::{AttackReport, DistReport};
    pub use crate::scenario::Scenario;
    pub use crate::table::{Format, Grid, Param};
    pub use crate::unit::{Keywords, Unit};
}

// The README's Rust examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// docs/verify.md's Rust example is compiled and run too.
#[doc = include_str!("../docs/verify.md")]
#[cfg(doctest)]
pub struct VerifyDocDoctests;
