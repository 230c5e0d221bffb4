//! # swtcg-odds
//!
//! Exact odds for attacks in the Star Wars Trading Card Game: the command
//! line ([`cli`]), the local web calculator ([`web`]), and the writers of
//! files and pictures ([`output`], [`plot`]), over two library crates:
//! [`swtcg_engine`] (distributions, dice, units, the attack, policies,
//! scenarios, plans, typed results) and [`swtcg_cards`] (card files, the
//! card language, stacks, matchups). Their modules are re-exported here
//! under one name.
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

pub use swtcg_cards::{cards, matchups};
pub use swtcg_engine::{
    attack, battle, cancel, dice, dist, error, files, input, keywords, plan, policy, report,
    request, sample, scenario, table, unit, verify, words,
};

pub mod cli;
pub mod fuzzing;
pub mod output;
pub mod plot;
pub mod web;
pub mod writers;

/// The names most programs need.
///
/// ```
/// use swtcg_odds::prelude::*;
/// let out = attack(&Unit::new("a", 2), &Unit::new("d", 1)).unwrap();
/// assert_eq!(out.defender_damage.mean(), Fraction::from(num_rational::BigRational::from_integer(1.into())).0);
/// ```
pub mod prelude {
    pub use crate::attack::{AttackOutcome, Objective, Side, attack};
    pub use crate::cards::{CardDb, Piece};
    pub use crate::dist::{Dist, Fraction, Num};
    pub use crate::error::{Error, Result};
    pub use crate::keywords::Keywords;
    pub use crate::keywords::{Ability, Keyword, parse};
    pub use crate::plan::Plan;
    pub use crate::policy::{Game, LuckyOrder, LuckyPolicy, Policy, solve};
    pub use crate::report::{AttackReport, DistReport};
    pub use crate::scenario::Scenario;
    pub use crate::table::{Format, Grid, Param};
    pub use crate::unit::{Arena, Unit};
}

// The README's Rust examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// docs/verify.md's Rust example is compiled and run too.
#[doc = include_str!("../docs/verify.md")]
#[cfg(doctest)]
pub struct VerifyDocDoctests;
