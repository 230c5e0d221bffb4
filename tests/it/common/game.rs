//! Brute force for the game oracle: every ordered face sequence, every
//! subset of dice a Lucky side may re-roll in the re-roll POP, every legal
//! choice of both players at the declare step and in the damage steps,
//! solved by plain expectimax / minimax over exact rationals. Written from
//! RULES.md, independently of the crate's solver (no face classes, no state
//! counting, no shared code).
#![allow(dead_code)]

use super::{free_evade, fx, sequences};
use num_rational::Ratio;
use std::collections::HashMap;
use swtcg_engine::keywords::Paid;
use swtcg_engine::keywords::{KeywordKind, UnitEffect};
use swtcg_engine::unit::Unit;

pub type Q = Ratio<i128>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    Att,
    Def,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obj {
    Damage,
    Discard,
    Net,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuckyPlay {
    Optimal,
    Simple,
}

/// How the Lucky of the two sides take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The POP: alternate, the attacker first, until two passes in a row.
    Pop,
    /// The POP, the defender first.
    PopDefenderFirst,
    /// Fixed: the attacker once, then the defender once.
    AttackerFirst,
    /// Fixed: the defender once, then the attacker once.
    DefenderFirst,
}

pub struct Brute {
    pub units: Vec<Unit>,
    pub sides: Vec<Who>,
    pub objective: Obj,
    pub lucky: LuckyPlay,
    pub order: Order,
    /// Force of the attacking and the defending side (None: unlimited).
    pub force: [Option<u32>; 2],
}

impl Brute {
    pub fn new(
        units: Vec<Unit>,
        sides: Vec<Who>,
        objective: Obj,
        lucky: LuckyPlay,
        order: Order,
    ) -> Brute {
        Brute {
            units,
            sides,
            objective,
            lucky,
            order,
            force: [None, None],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PKind {
    Attack,
    Overkill,
    Deflected,
    End,
}

#[derive(Clone, Copy, Debug)]
struct P {
    from: usize,
    to: usize,
    amount: u32,
    kind: PKind,
}

#[derive(Clone, Debug)]
struct St {
    dmg: Vec<u32>,
    /// (unit, source) pairs whose Deflect is spent.
    spent: Vec<(usize, usize)>,
    /// Force spent by each side.
    force: [u32; 2],
    /// The final roll showed a natural 2; the roll a natural 3.
    two: bool,
    three: bool,
    /// Units the attack's POP discarded with damage from the attacker
    /// (Avenge).
    felled: Vec<bool>,
}

/// When an end-of-attack damage happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cond {
    Always,
    /// A natural 2 in the final roll, its source still there.
    Two,
    /// A natural 3 in the roll.
    Three,
    /// Unit `.0` discarded by damage from the attacking unit in the
    /// attack's POP.
    Felled(usize),
}

/// Values of the re-roll POP by (faces, what the roll before re-rolls
/// showed, turn).
type LuckyMemo = HashMap<(Vec<i32>, (bool, bool), Turn), Q>;

/// One damage done when the attack ends: (from, to, amount, dice?, when).
type EndDmg = (usize, usize, u32, bool, Cond);

/// A defender's commitment against Cunning: its Deflect (up to an amount,
/// at a unit or none; or held) and the paid Evade it buys.
type Commitment = (Option<(u32, Option<usize>)>, u32);

/// One declared attack: the units as the options before the roll left them.
struct Decl<'a> {
    b: &'a Brute,
    units: Vec<Unit>,
    def: usize,
    ends: Vec<EndDmg>,
    force: [Option<u32>; 2],
    start: Vec<u32>,
    /// Against Cunning: the defender's plays on the attack damage, chosen
    /// before the roll (Deflect up to an amount at a target, or held; paid
    /// Evade bought), already paid for.
    committed: Option<Commitment>,
    /// Force paid before the roll by the defending side (its commitment).
    committed_cost: u32,
}

fn q(n: i128) -> Q {
    Q::from_integer(n)
}

fn average(values: impl Iterator<Item = Q>) -> Q {
    let mut total = q(0);
    let mut n = 0i128;
    for v in values {
        total += v;
        n += 1;
    }
    total / q(n)
}

fn side(w: Who) -> usize {
    match w {
        Who::Att => 0,
        Who::Def => 1,
    }
}

fn best(who: Who, vals: impl Iterator<Item = Q>) -> Q {
    let mut b: Option<Q> = None;
    for v in vals {
        b = Some(match (b, who) {
            (None, _) => v,
            (Some(x), Who::Att) => x.max(v),
            (Some(x), Who::Def) => x.min(v),
        });
    }
    b.unwrap()
}

/// Every subset of `items` (indices), with the sum of `cost` over it.
fn subsets<T>(items: &[T]) -> Vec<Vec<usize>> {
    (0..1u32 << items.len())
        .map(|m| (0..items.len()).filter(|i| m & (1 << i) != 0).collect())
        .collect()
}

/// Every purchase from paid abilities with at most `left` Force: (amount,
/// cost). X abilities buy any X from 1 to what is left (to `cap`, all that
/// can be needed, when Force is unlimited).
fn buys(paid: &[Paid], left: Option<u32>, cap: u32) -> Vec<(u32, u32)> {
    let mut out = vec![(0u32, 0u32)];
    for p in paid {
        let mut next = out.clone();
        for &(a, c) in &out {
            if p.x {
                // Unlimited Force: X up to all that can be needed.
                let most = match left {
                    Some(l) => l.saturating_sub(c),
                    None => cap,
                };
                for x in 1..=most {
                    next.push((a + x, c + x));
                }
            } else if left.is_none_or(|l| c + p.cost <= l) {
                next.push((a + p.amount, c + p.cost));
            }
        }
        out = next;
    }
    out
}

impl Brute {
    /// The value of the whole scenario. The declare step, in order: the
    /// defending side picks the defender (or an interceptor); the attacker
    /// takes any of its options before the roll; the defending side
    /// activates any of its Retaliates and takes any of its defender's
    /// options.
    pub fn value(&self) -> Q {
        let mut defs = vec![1];
        let precision = self.units[0].keywords.has(KeywordKind::Precision);
        for i in 2..self.units.len() {
            if self.sides[i] != Who::Def {
                continue;
            }
            let k = &self.units[i].keywords;
            let intercepts = !precision
                && !fx(&self.units[1].keywords).no_intercept
                && k.has(KeywordKind::Intercept);
            // Redirect: to another of its side's units that can be damaged.
            let redirected = !precision
                && self.units[1].keywords.has(KeywordKind::Redirect)
                && free_evade(k) < 1000;
            if intercepts || redirected {
                defs.push(i);
            }
        }
        best(
            Who::Def,
            defs.into_iter().map(|d| {
                let ab = &self.units[0].keywords.boosts();
                let att_sets: Vec<Vec<usize>> = subsets(ab)
                    .into_iter()
                    .filter(|s| {
                        self.force[0]
                            .is_none_or(|f| s.iter().map(|&i| ab[i].cost).sum::<u32>() <= f)
                    })
                    .collect();
                let adapts = |u: usize| -> Vec<Option<usize>> {
                    let n = self.units[u].keywords.texts(KeywordKind::Adapt).len();
                    if n == 0 {
                        vec![None]
                    } else {
                        (0..n).map(Some).collect()
                    }
                };
                let att_sets: Vec<(Vec<usize>, Option<usize>)> = att_sets
                    .into_iter()
                    .flat_map(|s| adapts(0).into_iter().map(move |a| (s.clone(), a)))
                    .collect();
                best(
                    Who::Att,
                    att_sets.into_iter().map(|(aset, aadapt)| {
                        let mut vals = vec![];
                        let dk = &self.units[d].keywords;
                        // Every Retaliate of a unit that was attacked: the
                        // defender's, and the declared defender's when
                        // another unit intercepted (each enemy unit may use
                        // each of its Retaliates once). None against an
                        // attack from another arena.
                        let mut retaliates: Vec<(usize, usize)> = vec![];
                        if !self.units[0].from_another_arena {
                            if d != 1 {
                                retaliates.extend(
                                    (0..self.units[1].keywords.paid(KeywordKind::Retaliate).len())
                                        .map(|r| (1, r)),
                                );
                            }
                            retaliates
                                .extend((0..dk.paid(KeywordKind::Retaliate).len()).map(|r| (d, r)));
                        }
                        for rset in subsets(&retaliates) {
                            // X for each X Retaliate in the set.
                            // (unit, Retaliate, X) each, and the Force.
                            type Chosen = Vec<(usize, usize, u32)>;
                            let mut choices: Vec<(Chosen, u32)> = vec![(vec![], 0)];
                            for &i in &rset {
                                let (u, r) = retaliates[i];
                                let p = self.units[u].keywords.paid(KeywordKind::Retaliate)[r];
                                let mut next = vec![];
                                for (c, cost) in &choices {
                                    let xs: Vec<u32> = if p.x {
                                        // Unlimited: up to 12 dice (the
                                        // documented bound).
                                        (1..=self.force[1].unwrap_or(12)).collect()
                                    } else {
                                        vec![p.amount]
                                    };
                                    for x in xs {
                                        let mut c2 = c.clone();
                                        c2.push((u, r, x));
                                        next.push((c2, cost + if p.x { x } else { p.cost }));
                                    }
                                }
                                choices = next;
                            }
                            for (rs, rcost) in choices {
                                if self.force[1].is_some_and(|f| rcost > f) {
                                    continue;
                                }
                                for dset in subsets(dk.boosts()) {
                                    let dcost: u32 =
                                        dset.iter().map(|&i| dk.boosts()[i].cost).sum();
                                    if self.force[1].is_some_and(|f| rcost + dcost > f) {
                                        continue;
                                    }
                                    for dadapt in adapts(d) {
                                        let adapt = [(0, aadapt), (d, dadapt)];
                                        vals.push(self.declared(d, &aset, &rs, &dset, &adapt));
                                    }
                                }
                            }
                        }
                        best(Who::Def, vals.into_iter())
                    }),
                )
            }),
        )
    }

    /// The value of the attack declared on `d` with the attacker's options
    /// `aset`, the Retaliates `rs` (index, X) and the defender's options
    /// `dset`.
    fn declared(
        &self,
        d: usize,
        aset: &[usize],
        rs: &[(usize, usize, u32)],
        dset: &[usize],
        adapt: &[(usize, Option<usize>)],
    ) -> Q {
        let mut units = self.units.clone();
        // Intimidation: +1/+1 per opposing unit; Inspiration: +1/+1 to each
        // other unit of its side.
        for i in 0..self.units.len() {
            if self.units[i].keywords.has(KeywordKind::Intimidation) {
                let n = self.sides.iter().filter(|s| **s != self.sides[i]).count() as u32;
                units[i].power += n;
                units[i].health = units[i].health.map(|h| h + n);
            }
            if self.units[i].keywords.has(KeywordKind::Inspiration) {
                for (j, u) in units.iter_mut().enumerate() {
                    if j != i && self.sides[j] == self.sides[i] {
                        u.power += 1;
                        u.health = u.health.map(|h| h + 1);
                    }
                }
            }
        }
        for &(u, o) in adapt {
            if let Some(o) = o {
                // A text is a keyword, keywords listed with commas, or
                // `None` (no keyword).
                let text = &self.units[u].keywords.texts(KeywordKind::Adapt)[o];
                if text != "None" {
                    for part in text.split(", ") {
                        units[u]
                            .keywords
                            .add(&[swtcg_engine::keywords::parse(part).unwrap()]);
                    }
                }
            }
        }
        let mut force = self.force;
        let mut start = vec![0u32; units.len()];
        let mut cancelled = false;
        for &(u, r, x) in rs {
            let p = self.units[u].keywords.paid(KeywordKind::Retaliate)[r];
            if let Some(f) = force[1].as_mut() {
                *f -= if p.x { x } else { p.cost };
            }
        }
        let chosen: Vec<(usize, usize)> = aset
            .iter()
            .map(|&b| (0, b))
            .chain(dset.iter().map(|&b| (d, b)))
            .collect();
        for (owner, b) in chosen {
            let boost = self.units[owner].keywords.boosts()[b].clone();
            let s = side(self.sides[owner]);
            if let Some(f) = force[s].as_mut() {
                *f = *f - boost.cost + boost.mine.force_gain;
            }
            let other = if owner == 0 { d } else { 0 };
            for (u, ch) in [(owner, &boost.mine), (other, &boost.theirs)] {
                let unit = &mut units[u];
                unit.power = (unit.power as i64 + ch.power as i64).max(0) as u32;
                unit.keywords.add(&ch.abilities);
                unit.keywords
                    .apply(UnitEffect::ExtraDamage(ch.extra_damage));
                if let Some((amount, dice)) = ch.self_damage {
                    unit.keywords.apply(UnitEffect::SelfDamage { amount, dice });
                }
                if ch.half_dice {
                    unit.keywords.apply(UnitEffect::HalfDice);
                }
                if ch.cancel_attack {
                    cancelled = true;
                }
                if ch.counters > 0 {
                    start[u] += ch.counters as u32;
                } else {
                    unit.counters = unit.counters.saturating_sub((-ch.counters) as u32);
                }
            }
        }
        // At the end, in order: Retaliates, Riposte (a natural 2, the
        // defender still there), Avenge (the defender discarded), Backfire (a
        // natural 3), Overload.
        let mut ends: Vec<EndDmg> = rs
            .iter()
            .map(|&(u, _, x)| (u, 0, x, true, Cond::Always))
            .collect();
        if units[d].keywords.number(KeywordKind::Riposte) as u32 > 0 {
            ends.push((
                d,
                0,
                units[d].keywords.number(KeywordKind::Riposte) as u32,
                false,
                Cond::Two,
            ));
        }
        // Avenge: once for each other unit of its side that damage from the
        // attacking unit discards.
        for (i, u) in units.iter().enumerate() {
            if self.sides[i] != self.sides[d] || u.keywords.number(KeywordKind::Avenge) as u32 == 0
            {
                continue;
            }
            for j in 0..units.len() {
                if j != i && self.sides[j] == self.sides[d] {
                    ends.push((
                        i,
                        0,
                        u.keywords.number(KeywordKind::Avenge) as u32,
                        true,
                        Cond::Felled(j),
                    ));
                }
            }
        }
        if units[0].keywords.number(KeywordKind::Backfire) as u32 > 0 {
            ends.push((
                0,
                0,
                units[0].keywords.number(KeywordKind::Backfire) as u32,
                true,
                Cond::Three,
            ));
        }
        for (i, u) in units.iter().enumerate() {
            for &(n, dice) in &fx(&u.keywords).self_damage {
                ends.push((i, i, n, dice, Cond::Always));
            }
        }
        let mut decl = Decl {
            b: self,
            units,
            def: d,
            ends,
            force,
            start,
            committed: None,
            committed_cost: 0,
        };
        if cancelled {
            return decl.leaf(&decl.start_state());
        }
        let dk = decl.units[d].keywords.clone();
        let choices = dk.number(KeywordKind::Deflect) as u32 > 0
            || !dk.paid(KeywordKind::Deflect).is_empty()
            || !dk.paid(KeywordKind::Evade).is_empty();
        if !(decl.units[0].keywords.has(KeywordKind::Cunning) && choices) {
            return decl.value();
        }
        // Cunning: every commitment, the defending side takes the best.
        let left = force[1];
        let cap = 20;
        let mut commitments = vec![(None, 0u32)];
        if dk.number(KeywordKind::Deflect) as u32 > 0 || !dk.paid(KeywordKind::Deflect).is_empty() {
            for (extra, cost) in buys(dk.paid(KeywordKind::Deflect), left, cap) {
                if dk.number(KeywordKind::Deflect) as u32 + extra == 0 {
                    continue;
                }
                let targets = (0..decl.units.len()).filter(|&t| decl.same_arena(d, t));
                for t in std::iter::once(None).chain(targets.map(Some)) {
                    commitments.push((
                        Some((dk.number(KeywordKind::Deflect) as u32 + extra, t)),
                        cost,
                    ));
                }
            }
        }
        let mut vals = vec![];
        for (deflect, dcost) in commitments {
            for (evade, ecost) in buys(
                dk.paid(KeywordKind::Evade),
                left.map(|l| l.saturating_sub(dcost)),
                cap,
            ) {
                if left.is_some_and(|l| dcost + ecost > l) {
                    continue;
                }
                decl.committed = Some((deflect, evade));
                decl.committed_cost = dcost + ecost;
                vals.push(decl.value());
            }
        }
        best(Who::Def, vals.into_iter())
    }

    /// The joint law of (final hits, a natural 2 in the final roll, a
    /// natural 3 before re-rolls, a natural 5 before re-rolls) under simple
    /// Lucky with only the declared defender.
    pub fn simple_flags(&self) -> HashMap<(u32, bool, bool, bool), Q> {
        let d = Decl {
            b: self,
            units: self.units.clone(),
            def: 1,
            ends: vec![],
            force: self.force,
            start: vec![0; self.units.len()],
            committed: None,
            committed_cost: 0,
        };
        let mut out: HashMap<(u32, bool, bool, bool), Q> = HashMap::new();
        for (faces, p) in d.rolls() {
            let (three, five) = (faces.contains(&3), faces.contains(&5));
            for (f2, p2) in d.simple_lucky_law(&faces) {
                *out.entry((d.hits(&f2), f2.contains(&2), three, five))
                    .or_insert(q(0)) += p * p2;
            }
        }
        out
    }

    /// The law of the final hits under simple Lucky with only the declared
    /// defender (for comparing distributions): hits -> probability.
    pub fn simple_hits(&self) -> HashMap<u32, Q> {
        let d = Decl {
            b: self,
            units: self.units.clone(),
            def: 1,
            ends: vec![],
            force: self.force,
            start: vec![0; self.units.len()],
            committed: None,
            committed_cost: 0,
        };
        let mut out: HashMap<u32, Q> = HashMap::new();
        for (faces, p) in d.rolls() {
            for (f2, p2) in d.simple_lucky_law(&faces) {
                *out.entry(d.hits(&f2)).or_insert(q(0)) += p * p2;
            }
        }
        out
    }
}

/// The state of the re-roll POP: whose turn, who has used its Lucky, how
/// many passes in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Turn {
    who: Who,
    used: [bool; 2],
    passes: u32,
    /// Fixed orders: the step (0, 1; 2 = done).
    step: u32,
}

impl Decl<'_> {
    fn attacker(&self) -> &Unit {
        &self.units[0]
    }

    fn remaining(&self, i: usize) -> Option<u32> {
        self.units[i]
            .health
            .map(|h| h - self.units[i].counters.min(h))
    }

    fn gone(&self, st: &St, i: usize) -> bool {
        self.remaining(i).is_some_and(|r| st.dmg[i] >= r)
    }

    fn start_state(&self) -> St {
        St {
            dmg: self.start.clone(),
            spent: vec![],
            force: [0, self.committed_cost],
            two: false,
            three: false,
            felled: vec![false; self.units.len()],
        }
    }

    fn leaf(&self, st: &St) -> Q {
        let mut v = 0i128;
        for i in 0..self.units.len() {
            let eff = match self.remaining(i) {
                Some(r) => st.dmg[i].min(r),
                None => st.dmg[i],
            } as i128;
            match (self.b.objective, self.b.sides[i]) {
                (Obj::Damage | Obj::Net, Who::Def) => v += eff,
                (Obj::Net, Who::Att) => v -= eff,
                (Obj::Discard, Who::Def) => v += self.gone(st, i) as i128,
                _ => {}
            }
        }
        q(v)
    }

    fn left(&self, st: &St, who: Who) -> Option<u32> {
        self.force[side(who)].map(|f| f - st.force[side(who)])
    }

    fn need(&self) -> i32 {
        let base = if self.units[self.def].keywords.has(KeywordKind::Armor) {
            5
        } else {
            4
        };
        base - self.attacker().keywords.number(KeywordKind::Accuracy) as i32
    }

    fn hits(&self, faces: &[i32]) -> u32 {
        faces.iter().filter(|&&f| f >= self.need()).count() as u32
    }

    /// Every first roll with Fury applied, each with its probability.
    fn rolls(&self) -> Vec<(Vec<i32>, Q)> {
        let a = self.attacker();
        let k = &a.keywords;
        // Resilience ±X: ±X power with at least X counters.
        let resilience = if k.number(KeywordKind::Resilience) as i32 != 0
            && a.counters as i64 >= (k.number(KeywordKind::Resilience) as i32 as i64).abs()
        {
            k.number(KeywordKind::Resilience) as i32 as i64
        } else {
            0
        };
        let mut power =
            (a.power as i64 + fx(k).power_per_counter as i64 * a.counters as i64 + resilience)
                .max(0);
        if fx(k).half_dice {
            power = (power + 1) / 2;
        }
        let n = (power as u32)
            .saturating_sub(self.units[self.def].keywords.number(KeywordKind::Shields) as u32);
        let first = sequences(n);
        let mut out = vec![];
        let p1 = q(1) / q(6i128.pow(n));
        for f in first {
            if k.number(KeywordKind::Fury) as u32 > 0 && f.contains(&4) {
                let extra = sequences(k.number(KeywordKind::Fury) as u32);
                let p2 = q(1) / q(extra.len() as i128);
                for e in extra {
                    let mut all = f.clone();
                    all.extend(e);
                    out.push((all, p1 * p2));
                }
            } else {
                out.push((f, p1));
            }
        }
        out
    }

    fn value(&self) -> Q {
        let mut memo = HashMap::new();
        let mut strikes = HashMap::new();
        if self.attacker().keywords.has(KeywordKind::Cunning) && self.x(Who::Def) > 0 {
            return self.blind_defender_lucky(&mut strikes);
        }
        let mut total = q(0);
        let first = self.first_turn();
        for (faces, p) in self.rolls() {
            // What the roll before re-rolls showed (Backfire's 3, Focus's
            // 5): re-rolls can't change it.
            // (Only Backfire's 3 is read by the value; the memo is keyed
            // by it only when it matters.)
            let three = self.attacker().keywords.number(KeywordKind::Backfire) as u32 > 0
                && faces.contains(&3);
            total += p * self.lucky(&faces, (three, false), first, &mut memo, &mut strikes);
        }
        total
    }

    /// Cunning: the attack dice are secret, so the defender's Lucky picks
    /// dice it cannot see. It chooses which positions to re-roll (or none)
    /// before seeing any face; each choice is weighed over every roll and
    /// every re-roll, and the defender takes the lowest.
    fn blind_defender_lucky(&self, strikes: &mut HashMap<(u32, bool, bool, bool, bool), Q>) -> Q {
        assert_eq!(
            self.x(Who::Att),
            0,
            "the engine refuses Lucky on both sides against Cunning"
        );
        let rolls = self.rolls();
        let n = rolls.iter().map(|(f, _)| f.len()).min().unwrap_or(0);
        let mut choices = vec![vec![]];
        choices.extend(Self::lucky_subsets(n, self.x(Who::Def)));
        let mut best_v: Option<Q> = None;
        for s in choices {
            let mut total = q(0);
            for (faces, p) in &rolls {
                let three = self.attacker().keywords.number(KeywordKind::Backfire) as u32 > 0
                    && faces.contains(&3);
                let outs = Self::reroll_all(faces, &s);
                let mut sum = q(0);
                for f in &outs {
                    sum += self.final_value(f, three, strikes);
                }
                total += *p * sum / q(outs.len() as i128);
            }
            if best_v.is_none_or(|b| total < b) {
                best_v = Some(total);
            }
        }
        best_v.unwrap_or(q(0))
    }

    fn x(&self, who: Who) -> u32 {
        match who {
            Who::Att => self.attacker().keywords.number(KeywordKind::Lucky) as u32,
            Who::Def => self.units[self.def].keywords.number(KeywordKind::Lucky) as u32,
        }
    }

    /// Under simple play nobody waits: a POP is its fixed order.
    fn order(&self) -> Order {
        match (self.b.order, self.b.lucky) {
            (Order::Pop, LuckyPlay::Simple) => Order::AttackerFirst,
            (Order::PopDefenderFirst, LuckyPlay::Simple) => Order::DefenderFirst,
            (o, _) => o,
        }
    }

    fn first_turn(&self) -> Turn {
        let who = match self.order() {
            Order::Pop | Order::AttackerFirst => Who::Att,
            _ => Who::Def,
        };
        Turn {
            who,
            used: [false, false],
            passes: 0,
            step: 0,
        }
    }

    fn other(w: Who) -> Who {
        match w {
            Who::Att => Who::Def,
            Who::Def => Who::Att,
        }
    }

    /// The turns after `t` when its player passes, and when it uses its
    /// Lucky (None: the POP is over).
    fn next_turns(&self, t: Turn) -> (Option<Turn>, Option<Turn>) {
        match self.order() {
            Order::AttackerFirst | Order::DefenderFirst => {
                let n = Turn {
                    who: Self::other(t.who),
                    step: t.step + 1,
                    ..t
                };
                let n = (n.step < 2).then_some(n);
                (n, n)
            }
            _ => {
                let pass = Turn {
                    who: Self::other(t.who),
                    passes: t.passes + 1,
                    ..t
                };
                let mut used = t.used;
                used[side(t.who)] = true;
                let go = Turn {
                    who: Self::other(t.who),
                    passes: 0,
                    used,
                    step: 0,
                };
                ((pass.passes < 2).then_some(pass), Some(go))
            }
        }
    }

    /// The positions simple play re-rolls.
    fn simple_subset(&self, faces: &[i32], who: Who, x: u32) -> Vec<usize> {
        let need = self.need();
        let mut idx: Vec<usize> = (0..faces.len()).collect();
        let rank = |f: i32| -> Option<u8> {
            let hit = f >= need;
            match who {
                // missed dice: 1s first, then other misses, then missed 6s
                Who::Att if !hit => Some(if f == 1 {
                    0
                } else if f == 6 {
                    2
                } else {
                    1
                }),
                // hitting dice: 6s first, then other hits, then hitting 1s
                Who::Def if hit => Some(if f == 6 {
                    0
                } else if f == 1 {
                    2
                } else {
                    1
                }),
                _ => None,
            }
        };
        idx.retain(|&i| rank(faces[i]).is_some());
        // Among equal ranks: the attacker's lowest faces first, the
        // defender's highest first (only a tracked natural 2 tells them
        // apart).
        idx.sort_by_key(|&i| {
            let f = faces[i];
            (rank(f), if who == Who::Att { f } else { -f })
        });
        idx.truncate(x as usize);
        idx
    }

    fn lucky_subsets(n: usize, x: u32) -> Vec<Vec<usize>> {
        (0..1u32 << n)
            .filter(|m| m.count_ones() <= x && *m != 0)
            .map(|m| (0..n).filter(|i| m & (1 << i) != 0).collect())
            .collect()
    }

    fn reroll_all(faces: &[i32], subset: &[usize]) -> Vec<Vec<i32>> {
        sequences(subset.len() as u32)
            .into_iter()
            .map(|new| {
                let mut f = faces.to_vec();
                for (k, &i) in subset.iter().enumerate() {
                    f[i] = new[k];
                }
                f
            })
            .collect()
    }

    /// The value of the re-roll POP at turn `t` (None: over) with `faces`.
    fn lucky(
        &self,
        faces: &[i32],
        before: (bool, bool),
        t: Turn,
        memo: &mut LuckyMemo,
        strikes: &mut HashMap<(u32, bool, bool, bool, bool), Q>,
    ) -> Q {
        if let Some(v) = memo.get(&(faces.to_vec(), before, t)) {
            return *v;
        }
        let x = self.x(t.who);
        let (pass, go) = self.next_turns(t);
        let cont = |f: &[i32],
                    n: Option<Turn>,
                    memo: &mut HashMap<_, _>,
                    strikes: &mut HashMap<_, _>| match n {
            Some(n) => self.lucky(f, before, n, memo, strikes),
            None => self.final_value(f, before.0, strikes),
        };
        let v = if x == 0 || t.used[side(t.who)] {
            cont(faces, pass, memo, strikes)
        } else {
            let subsets = match self.b.lucky {
                LuckyPlay::Optimal => Self::lucky_subsets(faces.len(), x),
                LuckyPlay::Simple => {
                    let s = self.simple_subset(faces, t.who, x);
                    if s.is_empty() { vec![] } else { vec![s] }
                }
            };
            let pass_value = cont(faces, pass, memo, strikes);
            let mut vals = vec![];
            for s in subsets {
                let outcomes = Self::reroll_all(faces, &s);
                let mut total = q(0);
                for f in &outcomes {
                    total += cont(f, go, memo, strikes);
                }
                vals.push(total / q(outcomes.len() as i128));
            }
            match self.b.lucky {
                // Simple play re-rolls whenever it has dice to re-roll.
                LuckyPlay::Simple if !vals.is_empty() => vals[0],
                _ => best(t.who, std::iter::once(pass_value).chain(vals)),
            }
        };
        memo.insert((faces.to_vec(), before, t), v);
        v
    }

    /// The damage steps from the final faces; `three`: the roll before
    /// re-rolls showed a natural 3.
    fn final_value(
        &self,
        faces: &[i32],
        three: bool,
        strikes: &mut HashMap<(u32, bool, bool, bool, bool), Q>,
    ) -> Q {
        let key = (
            self.hits(faces),
            faces.contains(&1),
            faces.contains(&6),
            faces.contains(&2),
            three,
        );
        if let Some(v) = strikes.get(&key) {
            return *v;
        }
        let v = self.strike(key.0, key.1, key.2, key.3, key.4);
        strikes.insert(key, v);
        v
    }

    /// The law of the final faces under simple Lucky.
    fn simple_lucky_law(&self, faces: &[i32]) -> Vec<(Vec<i32>, Q)> {
        let mut cur = vec![(faces.to_vec(), q(1))];
        let mut t = Some(self.first_turn());
        while let Some(turn) = t {
            let x = self.x(turn.who);
            let mut next = vec![];
            for (f, p) in cur {
                let s = if x > 0 {
                    self.simple_subset(&f, turn.who, x)
                } else {
                    vec![]
                };
                let outs = Self::reroll_all(&f, &s);
                let n = outs.len() as i128;
                for o in outs {
                    next.push((o, p / q(n)));
                }
            }
            cur = next;
            t = self.next_turns(turn).0;
        }
        cur
    }

    /// Steps 4-8 from the final roll, with every choice.
    fn strike(&self, hits: u32, one: bool, six: bool, two: bool, three: bool) -> Q {
        let a = self.attacker();
        let bonus = if six {
            a.keywords.number(KeywordKind::CriticalHit) as u32
        } else {
            0
        } + fx(&a.keywords).bonus_damage;
        let mut st = self.start_state();
        st.two = two;
        st.three = three;
        // Cunning: the defender commits its plays on the attack damage
        // before the roll; it would take the best commitment, but the roll
        // is already known here: the commitment loop is in `value`.
        let attack = |h: u32| P {
            from: 0,
            to: self.def,
            amount: h + bonus,
            kind: PKind::Attack,
        };
        let mut vals = vec![self.pop(&st, vec![attack(hits)], one, 0)];
        if a.keywords.has(KeywordKind::Overkill)
            && let Some(r) = self.remaining(self.def)
            && hits > r
        {
            for u in 1..self.units.len() {
                if u == self.def {
                    continue;
                }
                for m in 1..=hits - r {
                    let moved = P {
                        from: 0,
                        to: u,
                        amount: m,
                        kind: PKind::Overkill,
                    };
                    // The attack packet resolves first (depth first).
                    vals.push(self.pop(&st, vec![moved, attack(hits - m)], one, 0));
                }
            }
        }
        best(Who::Att, vals.into_iter())
    }

    /// A POP: `stack` pending (last = next), depth first; then placement
    /// and what follows POP `phase` (0: the attack's; k: ending k - 1's).
    fn pop(&self, st: &St, stack: Vec<P>, one: bool, phase: usize) -> Q {
        // landed[i]: damage landed on unit i; landed[n + i]: whether some
        // of it came from the attacking unit.
        self.pop_acc(st, stack, vec![0; 2 * self.units.len()], one, phase)
    }

    /// Lands `x` of packet `p`'s damage.
    fn land(&self, l: &mut [u32], p: &P, x: u32) {
        l[p.to] += x;
        if p.from == 0 && x > 0 {
            l[self.units.len() + p.to] = 1;
        }
    }

    /// Whether units `i` and `j` are in the same arena (only an attacker
    /// from another arena is not in the defenders').
    fn same_arena(&self, i: usize, j: usize) -> bool {
        let apart = |u: usize| u == 0 && self.units[0].from_another_arena;
        i == j || apart(i) == apart(j)
    }

    fn pop_acc(&self, st: &St, mut stack: Vec<P>, landed: Vec<u32>, one: bool, phase: usize) -> Q {
        let n = self.units.len();
        let Some(p) = stack.pop() else {
            let mut placed = st.clone();
            for i in 0..n {
                let l = landed[i];
                if l > 0 && !self.gone(st, i) {
                    placed.dmg[i] += l;
                    if phase == 0 && landed[n + i] > 0 && self.gone(&placed, i) {
                        placed.felled[i] = true;
                    }
                }
            }
            return if phase == 0 {
                self.consolation(&placed)
            } else {
                self.end(&placed, phase)
            };
        };
        let b = self.b;
        let (src, tgt) = (&self.units[p.from], &self.units[p.to]);
        let tk = &tgt.keywords;
        let unpreventable =
            src.keywords.has(KeywordKind::Ferocity) && !tk.has(KeywordKind::Fortitude);
        if p.amount == 0 || unpreventable || self.gone(st, p.to) {
            let mut l = landed;
            let double =
                p.kind == PKind::Attack && self.units[0].keywords.has(KeywordKind::DoubleDamage);
            self.land(&mut l, &p, if double { 2 * p.amount } else { p.amount });
            return self.pop_acc(st, stack, l, one, phase);
        }
        if fx(&src.keywords).harmless {
            return self.pop_acc(st, stack, landed, one, phase);
        }
        let toll: u32 = fx(tk).tolls.iter().sum();
        if toll > 0 && b.sides[p.from] != b.sides[p.to] {
            let payer = b.sides[p.from];
            let refuse = self.pop_acc(st, stack.clone(), landed.clone(), one, phase);
            let mut vals = vec![refuse];
            if self.left(st, payer).is_none_or(|l| l >= toll) {
                let mut st2 = st.clone();
                st2.force[side(payer)] += toll;
                vals.push(self.defend(&st2, stack, landed, one, phase, p));
            }
            return best(payer, vals.into_iter());
        }
        self.defend(st, stack, landed, one, phase, p)
    }

    /// Every decision of the owner of packet `p`'s target: Parry first (it
    /// is triggered), then a Deflect (held, or played with any purchase of
    /// its paid parts, at any unit in play or none), then Evade (with any
    /// purchase of its paid parts), within the side's Force.
    fn defend(&self, st: &St, stack: Vec<P>, landed: Vec<u32>, one: bool, phase: usize, p: P) -> Q {
        let b = self.b;
        let tk = &self.units[p.to].keywords;
        let owner = b.sides[p.to];
        let left = self.left(st, owner);
        let mut amount = p.amount;
        if p.kind == PKind::Attack && one {
            amount -= amount.min(tk.number(KeywordKind::Parry) as u32);
        }
        // Protect: each other unit of the side, still there, prevents up to
        // its X of this instance.
        let protect: u32 = (0..self.units.len())
            .filter(|&i| i != p.to && b.sides[i] == owner && !self.gone(st, i))
            .map(|i| self.units[i].keywords.number(KeywordKind::Protect) as u32)
            .sum();
        let doubled = |x: u32| {
            if p.kind == PKind::Attack && self.units[0].keywords.has(KeywordKind::DoubleDamage) {
                2 * x
            } else {
                x
            }
        };
        if let Some((deflect, evade)) = self
            .committed
            .filter(|_| p.kind == PKind::Attack && p.to == self.def)
        {
            // Chosen before the roll (and paid then).
            let mut st2 = st.clone();
            let mut rest = amount;
            let mut stack2 = stack.clone();
            if let Some((d, target)) = deflect
                && amount > 0
                && !st.spent.contains(&(p.to, p.from))
            {
                let d = d.min(amount);
                rest -= d;
                st2.spent.push((p.to, p.from));
                if let Some(t) = target {
                    stack2.push(P {
                        from: p.to,
                        to: t,
                        amount: d,
                        kind: PKind::Deflected,
                    });
                }
            }
            let through = rest - rest.min(free_evade(tk) + evade + protect);
            let mut l = landed;
            self.land(&mut l, &p, doubled(through));
            return self.pop_acc(&st2, stack2, l, one, phase);
        }
        // (amount deflected, target, cost)
        let mut deflects: Vec<Option<(u32, Option<usize>, u32)>> = vec![None];
        let has_deflect =
            tk.number(KeywordKind::Deflect) as u32 > 0 || !tk.paid(KeywordKind::Deflect).is_empty();
        if has_deflect && amount > 0 && !st.spent.contains(&(p.to, p.from)) {
            for (extra, cost) in buys(tk.paid(KeywordKind::Deflect), left, amount) {
                let d = (tk.number(KeywordKind::Deflect) as u32 + extra).min(amount);
                if d == 0 {
                    continue;
                }
                deflects.push(Some((d, None, cost)));
                for t in 0..self.units.len() {
                    // Only to a unit in the deflector's own arena.
                    if !self.gone(st, t) && self.same_arena(p.to, t) {
                        deflects.push(Some((d, Some(t), cost)));
                    }
                }
            }
        }
        let mut vals = vec![];
        for dfl in &deflects {
            let mut st2 = st.clone();
            let mut rest = amount;
            let mut stack2 = stack.clone();
            let mut dcost = 0;
            if let Some((d, target, cost)) = *dfl {
                rest -= d;
                dcost = cost;
                st2.spent.push((p.to, p.from));
                if let Some(t) = target {
                    stack2.push(P {
                        from: p.to,
                        to: t,
                        amount: d,
                        kind: PKind::Deflected,
                    });
                }
            }
            let left2 = left.map(|l| l - dcost);
            for (extra, ecost) in buys(tk.paid(KeywordKind::Evade), left2, rest) {
                // The free Evade is optional: any part of it, none to all
                // (what can stop `rest`).
                for free in 0..=free_evade(tk).min(rest) {
                    let mut st3 = st2.clone();
                    st3.force[side(owner)] += dcost + ecost;
                    let through = rest - rest.min(free + extra + protect);
                    let mut l = landed.clone();
                    self.land(&mut l, &p, doubled(through));
                    vals.push(self.pop_acc(&st3, stack2.clone(), l, one, phase));
                }
            }
        }
        best(owner, vals.into_iter())
    }

    /// After the attack's POP: a consolation ability (when the attack put
    /// no counters on the defending unit), then the endings.
    fn consolation(&self, st: &St) -> Q {
        let without = self.end(st, 0);
        let Some((own, theirs)) = fx(&self.attacker().keywords).consolation else {
            return without;
        };
        if st.dmg[self.def] > self.start[self.def] || self.gone(st, self.def) || self.gone(st, 0) {
            return without;
        }
        let mut with = st.clone();
        with.dmg[0] += own;
        with.dmg[self.def] += theirs;
        best(Who::Att, [without, self.end(&with, 0)].into_iter())
    }

    /// Ending `k` (and the rest): a roll of dice of damage (or a fixed
    /// damage) from its source to its target, with its own POP.
    fn end(&self, st: &St, k: usize) -> Q {
        let Some(&(from, to, n, dice, cond)) = self.ends.get(k) else {
            return self.leaf(st);
        };
        // A discarded unit does nothing when the attack ends, but for its
        // Retaliate ("even if your unit gets discarded"): Riposte's and
        // Avenge's source must still be there.
        let happens = match cond {
            Cond::Always => true,
            Cond::Two => st.two && !self.gone(st, from),
            Cond::Three => st.three,
            Cond::Felled(j) => st.felled[j] && !self.gone(st, from),
        };
        if !happens || n == 0 || self.gone(st, to) {
            return self.end(st, k + 1);
        }
        let packet = |amount| P {
            from,
            to,
            amount,
            kind: PKind::End,
        };
        if !dice {
            return self.pop(st, vec![packet(n)], false, k + 1);
        }
        let need = if self.units[to].keywords.has(KeywordKind::Armor) {
            5
        } else {
            4
        };
        average(sequences(n).into_iter().map(|faces| {
            let r = faces.iter().filter(|&&f| f >= need).count() as u32;
            self.pop(st, vec![packet(r)], false, k + 1)
        }))
    }
}
