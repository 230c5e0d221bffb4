//! Brute force for the exhaustive oracles: every face sequence of every die,
//! resolved by a direct, independent reading of RULES.md.
#![allow(dead_code)]

pub mod game;

use num_bigint::BigUint;
use num_rational::BigRational;
use std::collections::BTreeMap;
use swtcg_engine::keywords::{KeywordKind, Keywords, UnitEffect};
use swtcg_engine::sample::{Model, Sampled};
use swtcg_engine::unit::Unit;

/// The dice of a unit's Retaliate abilities together (each ability rolls
/// its own amount), counted here apart from the engine.
pub fn retaliate_dice(u: &Unit) -> u32 {
    u.keywords
        .paid(KeywordKind::Retaliate)
        .iter()
        .map(|r| r.amount)
        .sum()
}

/// The free prevention played per instance of damage: Evade, with Absorb
/// and Persuade, which prevent as Evade does (RULES.md, the glossary).
pub fn free_evade(k: &Keywords) -> u32 {
    [
        KeywordKind::Evade,
        KeywordKind::Absorb,
        KeywordKind::Persuade,
    ]
    .iter()
    .map(|&kind| k.number(kind) as u32)
    .sum()
}

/// Every sequence of `n` d6 faces (1..=6).
pub fn sequences(n: u32) -> Vec<Vec<i32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        let mut next = Vec::with_capacity(out.len() * 6);
        for s in &out {
            for f in 1..=6 {
                let mut t = s.clone();
                t.push(f);
                next.push(t);
            }
        }
        out = next;
    }
    out
}

/// An exact law built by counting: outcome → number of equally likely
/// sequences, over `total`.
#[derive(Clone, Debug, Default)]
pub struct Counts<K: Ord> {
    pub counts: BTreeMap<K, u128>,
    pub total: u128,
}

impl<K: Ord + Clone> Counts<K> {
    pub fn add(&mut self, k: K, w: u128) {
        *self.counts.entry(k).or_default() += w;
        self.total += w;
    }
    pub fn prob(&self, pred: impl Fn(&K) -> bool) -> BigRational {
        let w: u128 = self
            .counts
            .iter()
            .filter(|(k, _)| pred(k))
            .map(|(_, w)| *w)
            .sum();
        BigRational::new(BigUint::from(w).into(), BigUint::from(self.total).into())
    }
    pub fn marginal(&self, f: impl Fn(&K) -> i64) -> BTreeMap<i64, BigRational> {
        let mut m: BTreeMap<i64, u128> = BTreeMap::new();
        for (k, w) in &self.counts {
            *m.entry(f(k)).or_default() += w;
        }
        m.into_iter()
            .map(|(k, w)| {
                (
                    k,
                    BigRational::new(BigUint::from(w).into(), BigUint::from(self.total).into()),
                )
            })
            .collect()
    }
}

/// What one fully specified attack did.
pub type Result1 = Sampled;

/// The exact law of [`Result1`] by enumerating every face, each attack
/// resolved by the library's die-level simulator (which shares no code with
/// the exact engine): the first roll,
/// Fury's dice (only when the first roll shows a natural 4) and Retaliate's.
pub fn enumerate(a: &Unit, d: &Unit) -> Counts<Result1> {
    let n = a
        .dice()
        .saturating_sub(d.keywords.number(KeywordKind::Shields) as u32);
    let fury = a.keywords.number(KeywordKind::Fury) as u32;
    // Every die rolled at the end: each Retaliate's, then Backfire's.
    let ret = retaliate_dice(d) + a.keywords.number(KeywordKind::Backfire) as u32;
    let firsts = sequences(n);
    let extras = sequences(fury);
    let rets = sequences(ret);
    let model = Model::new(a.clone(), d.clone());
    let mut c = Counts::default();
    for first in &firsts {
        let fury_rolls: Vec<Vec<i32>> = if first.contains(&4) {
            extras
                .iter()
                .map(|e| first.iter().chain(e).copied().collect())
                .collect()
        } else {
            vec![first.clone()]
        };
        let weight = if first.contains(&4) {
            1
        } else {
            6u128.pow(fury)
        };
        for faces in &fury_rolls {
            for r in &rets {
                c.add(model.resolve(faces, r), weight);
            }
        }
    }
    c
}

/// Where an error points, as a short key that tests compare instead of the
/// error's words: `param:power`, `param:power=1001`, `path:FILE`,
/// `unit:Vader`, `card:NAME`, `row:COLUMN`, `json:LINE:COLUMN`, or `none`.
pub fn at(origin: &swtcg_engine::error::Origin) -> String {
    use swtcg_engine::error::Origin;
    match origin {
        Origin::Param { param, value: None } => format!("param:{param}"),
        Origin::Param {
            param,
            value: Some(v),
        } => format!("param:{param}={v}"),
        Origin::Path { path } => format!("path:{path}"),
        Origin::Unit { unit } => format!("unit:{unit}"),
        Origin::Card { card } => format!("card:{card}"),
        Origin::Row { row, column, .. } => format!("row:{row}:{column}"),
        Origin::Json { line, column, .. } => format!("json:{line}:{column}"),
        Origin::None => "none".into(),
        other => format!("{other:?}"),
    }
}

/// Asserts an error's kind and where it points (see [`at`]), never its
/// words (those are pinned in `tests/snapshots/errors-*.txt`).
#[track_caller]
pub fn assert_error(
    e: &swtcg_engine::error::Error,
    kind: swtcg_engine::error::ErrorKind,
    where_: &str,
) {
    assert_eq!(e.kind(), kind, "{e}");
    assert_eq!(at(e.origin()), where_, "{e}");
}

/// The first line a child process writes on its standard error (a server
/// says there where it listens), which is taken from the child.
pub fn first_stderr_line(child: &mut std::process::Child) -> String {
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().expect("stderr piped")),
        &mut line,
    )
    .unwrap();
    line
}

/// A unit's effects beyond its keywords, summed as the oracles read them,
/// through the public [`Keywords::effects`].
#[derive(Debug, Default)]
pub struct Fx {
    pub power_per_counter: i32,
    pub bonus_damage: u32,
    pub no_intercept: bool,
    pub tolls: Vec<u32>,
    pub harmless: bool,
    pub consolation: Option<(u32, u32)>,
    pub half_dice: bool,
    pub self_damage: Vec<(u32, bool)>,
}

/// Reads [`Fx`] from a unit's keywords (its options before the roll are
/// read apart, through `boosts()`).
pub fn fx(k: &Keywords) -> Fx {
    let mut f = Fx::default();
    for e in k.effects() {
        match e {
            UnitEffect::PowerPerCounter(n) => f.power_per_counter += n,
            UnitEffect::ExtraDamage(n) => f.bonus_damage += n,
            UnitEffect::NoIntercept => f.no_intercept = true,
            UnitEffect::Toll(t) => f.tolls.push(t),
            UnitEffect::Harmless => f.harmless = true,
            UnitEffect::Consolation { own, defender } => f.consolation = Some((own, defender)),
            UnitEffect::HalfDice => f.half_dice = true,
            UnitEffect::SelfDamage { amount, dice } => f.self_damage.push((amount, dice)),
            UnitEffect::Boost(_) => {}
            other => panic!("an effect the oracles don't know: {other:?}"),
        }
    }
    f
}

/// Gives `k` a keyword without a number when `on`, and takes it away when
/// not (a switch, as the tests' cases give it).
pub fn switch(k: &mut Keywords, keyword: swtcg_engine::keywords::Keyword, on: bool) {
    if on {
        k.set(keyword);
    } else {
        k.lose(keyword.kind());
    }
}
