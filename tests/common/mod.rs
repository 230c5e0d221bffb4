//! Brute force for the exhaustive oracles: every face sequence of every die,
//! resolved by a direct, independent reading of RULES.md.
#![allow(dead_code)]

pub mod game;

use num_bigint::BigUint;
use num_rational::BigRational;
use std::collections::BTreeMap;
use swtcg_odds::unit::Unit;

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
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Result1 {
    pub hits: u32,
    pub def_dmg: u32,
    pub att_dmg: u32,
}

fn hits(faces: &[i32], accuracy: i32, armor: bool) -> u32 {
    let need = if armor { 5 } else { 4 };
    faces.iter().filter(|&&f| f + accuracy >= need).count() as u32
}

fn discarded(u: &Unit, dmg: u32) -> bool {
    u.health.is_some_and(|h| u.counters + dmg >= h)
}

/// Resolves one attack with every face known, straight from RULES.md, for two
/// units playing statically (every ability used to the full, deflected damage
/// back at its source).
pub fn resolve(a: &Unit, d: &Unit, attack_faces: &[i32], retaliate_faces: &[i32]) -> Result1 {
    let ak = &a.keywords;
    let dk = &d.keywords;
    let h = hits(attack_faces, ak.accuracy, dk.armor);
    let one = attack_faces.contains(&1);
    let six = attack_faces.contains(&6);
    let pending = h + if six { ak.crit } else { 0 };
    // Can damage from X to Y be prevented?
    let def_can_prevent = !ak.ferocity || dk.fortitude; // damage from attacker to defender
    let att_can_prevent = !dk.ferocity || ak.fortitude; // damage from defender to attacker
    let mut to_def = pending;
    let mut to_att = 0;
    let mut def_deflect_used = false; // against the attacker (the only other source)
    let mut att_deflect_used = false; // against the defender
    let mut deflected = 0;
    if def_can_prevent && to_def > 0 {
        if dk.deflect > 0 {
            deflected = to_def.min(dk.deflect);
            to_def -= deflected;
            def_deflect_used = true;
        }
        if one {
            to_def -= to_def.min(dk.parry);
        }
        to_def -= to_def.min(dk.evade);
    }
    if deflected > 0 {
        let mut y = deflected;
        let mut back = 0;
        if att_can_prevent {
            if ak.deflect > 0 {
                back = y.min(ak.deflect);
                y -= back;
                att_deflect_used = true;
            }
            y -= y.min(ak.evade);
        }
        to_att += y;
        if back > 0 {
            // Source: the attacker; the defender's Deflect is spent on it.
            if def_can_prevent {
                back -= back.min(dk.evade);
            }
            to_def += back;
        }
    }
    let mut def_dmg = to_def;
    let mut att_dmg = to_att;
    // Retaliate, only if the attacker survived.
    if dk.retaliate > 0 && !discarded(a, att_dmg) {
        let mut r = hits(retaliate_faces, 0, ak.armor);
        let mut back = 0;
        let mut again = 0;
        if att_can_prevent && r > 0 {
            if ak.deflect > 0 && !att_deflect_used {
                back = r.min(ak.deflect);
                r -= back;
            }
            r -= r.min(ak.evade);
        }
        if back > 0 && !discarded(d, def_dmg) {
            if def_can_prevent {
                if dk.deflect > 0 && !def_deflect_used {
                    again = back.min(dk.deflect);
                    back -= again;
                }
                back -= back.min(dk.evade);
            }
            if again > 0 && att_can_prevent {
                // Source: the defender again; the attacker's Deflect is spent.
                again -= again.min(ak.evade);
            }
            def_dmg += back;
        }
        att_dmg += r + again;
    }
    Result1 {
        hits: h,
        def_dmg,
        att_dmg,
    }
}

/// The exact law of [`Result1`] by enumerating every face: the first roll,
/// Fury's dice (only when the first roll shows a natural 4) and Retaliate's.
pub fn enumerate(a: &Unit, d: &Unit) -> Counts<Result1> {
    let n = a.power.saturating_sub(d.keywords.shields);
    let fury = a.keywords.fury;
    let ret = d.keywords.retaliate;
    let firsts = sequences(n);
    let extras = sequences(fury);
    let rets = sequences(ret);
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
                c.add(resolve(a, d, faces, r), weight);
            }
        }
    }
    c
}
