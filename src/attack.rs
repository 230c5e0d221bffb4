//! The attack sequence, step by step as in RULES.md.
//!
//! 1. Declare (the defending unit is fixed; Retaliate is activated).
//! 2. Roll `power − Shields` attack dice, plus Fury's extra dice
//!    ([`crate::dice::attack_roll`]).
//! 3. (Re-roll POP: Lucky, in the [`crate::policy`] module.)
//! 4. Hits go to the defending unit; with Overkill, excess hits may go to one
//!    other unit.
//! 5. Pending damage: hits, plus Critical Hit on a natural 6.
//! 6. Damage-prevention POP, packet by packet ([`Packet`]): the damaged
//!    unit's Deflect first (the deflected damage becomes a new packet from
//!    the deflecting unit, resolved next, depth first), then Parry (attack
//!    damage only, on a natural 1), then Evade. Ferocity makes damage
//!    unpreventable unless the damaged unit has Fortitude.
//! 7. Damage is placed, all at once; units whose counters reach their health
//!    are discarded. Stun lands where counters were placed.
//! 8. Retaliate: dice of damage to the attacker, a new packet with its own
//!    prevention POP, even if the defending unit was discarded.
//!
//! Every keyword's effect lives here, once. The choices inside steps 4–8
//! (Overkill's split, playing a Deflect and its target, paying for Evade)
//! are made by the arena's [`Play`]: `Static` uses everything to the full
//! and deflects back at the source; `Optimal` solves them exactly by
//! minimax on an [`Objective`], with the Retaliate roll as a chance node.
//! Every step maps an exact [`Joint`] distribution to the next; nothing is
//! sampled.
//!
//! ```
//! use swtcg_odds::attack::attack;
//! use swtcg_odds::unit::Unit;
//!
//! let mut attacker = Unit::new("Trooper", 3);
//! attacker.keywords.crit = 1;
//! let mut defender = Unit::new("Target", 3);
//! defender.keywords.parry = 1;
//! defender.health = Some(3);
//! let out = attack(&attacker, &defender).unwrap();
//! assert!(out.defender_damage.sums_to_one());
//! println!("{}", out.defender_damage.mean());
//! ```

use crate::dice::{Roll, attack_roll, damage_dice};
use crate::dist::{Dist, Joint, Num, Weight, fits_u128};
use crate::error::{Error, Result};
use crate::unit::Unit;
use num_rational::BigRational;
use std::rc::Rc;

/// Index of the attacking unit in an arena.
pub const ATTACKER: usize = 0;
/// Index of the declared defender in an arena.
pub const DEFENDER: usize = 1;
/// Most units one attack can involve.
pub const MAX_UNITS: usize = 6;
/// Most packets pending at once in one POP: it starts with at most two (the
/// attack and Overkill packets), and resolving one packet adds at most one
/// (its deflected damage), depth first.
const STACK: usize = 3;

/// What kind of damage a packet carries (RULES.md: an *instance* of damage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The attack damage to the defending unit (hits plus Critical Hit).
    Attack,
    /// Damage moved to a second unit by Overkill.
    Overkill,
    /// Damage done by a Deflect.
    Deflected,
    /// Dice of damage from Retaliate.
    Retaliate,
}

/// One instance of damage: from a source unit to a target unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Packet {
    /// The unit doing the damage (the source, for Deflect's once-per-source).
    pub source: usize,
    /// The unit taking it.
    pub target: usize,
    /// Pending damage.
    pub amount: u32,
    /// What it is.
    pub kind: Kind,
}

/// Bits of [`Tally::used`], shifted by `4 * unit`: which optional abilities a
/// unit used in this attack.
pub mod used {
    /// The paid part of Evade.
    pub const EVADE: u32 = 1;
    /// A Deflect was played.
    pub const DEFLECT: u32 = 2;
    /// Overkill moved hits.
    pub const OVERKILL: u32 = 4;

    /// The bit for `what` of unit `unit`.
    pub fn bit(unit: usize, what: u32) -> u32 {
        what << (4 * unit)
    }
}

/// The running tally of one attack: counters placed on each unit, who placed
/// counters (for Stun), which Deflects have been used against which source,
/// and which optional abilities were used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tally {
    /// Counters this attack placed on each unit (by arena index).
    pub damage: [u32; MAX_UNITS],
    /// Bit `i`: unit `i` placed counters on some unit (its Stun lands).
    pub damaged_by: u8,
    /// `deflect_used[i]` bit `s`: unit `i` has used its Deflect against source `s`.
    pub deflect_used: [u8; MAX_UNITS],
    /// Optional abilities used (see [`used`]).
    pub used: u32,
}

/// Which side a unit is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The attacker's side.
    Attacking,
    /// The defender's side.
    Defending,
}

/// What the attacking side maximises and the defending side minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Expected damage counters placed on the defending side's units, each
    /// counted up to its remaining health when that is known.
    Damage,
    /// Expected number of the defending side's units discarded.
    Discard,
    /// Effective damage dealt to the defending side minus effective damage
    /// taken by the attacking side.
    Net,
}

/// How the choices inside the damage steps are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Every ability used to the full, deflected damage back at its source,
    /// no Overkill split.
    Static,
    /// Every choice made by its owner to serve the objective, exactly.
    Optimal(Objective),
}

/// What reaches the damage steps from the final roll: the hits, the extra
/// damage (Critical Hit, when a natural 6 was rolled), and whether a natural
/// 1 was rolled (Parry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strike {
    /// Hits of the final roll.
    pub hits: u32,
    /// Extra damage for this attack (Critical Hit).
    pub bonus: u32,
    /// A natural 1 was rolled.
    pub one: bool,
}

/// Optimal play of the damage steps after one strike.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// Expected objective plus the arena's value offset, times `6^retaliate`.
    pub value: Num,
    /// The law of the final tallies, weights over `6^retaliate`.
    pub tallies: Vec<(Tally, Num)>,
}

impl Strike {
    /// What reaches the damage steps from a final roll, with Critical Hit
    /// `crit` (added on a natural 6, once).
    pub fn from_roll(r: &Roll, crit: u32) -> Strike {
        Strike {
            hits: r.hits,
            bonus: if r.six { crit } else { 0 },
            one: r.one,
        }
    }
}

/// The units of one attack and how its choices are made.
#[derive(Clone, Debug)]
pub struct Arena<'a> {
    /// The units: the attacker at [`ATTACKER`], then the rest.
    pub units: Vec<&'a Unit>,
    /// The side of each unit.
    pub sides: Vec<Side>,
    /// The unit that ended up defending (after any Intercept).
    pub defending: usize,
    /// Retaliate dice activated by the defending unit (0: none).
    pub retaliate: u32,
    /// How choices are made.
    pub play: Play,
    /// Search nodes the optimal play of this arena may still visit (see
    /// [`MAX_SEARCH_NODES`]).
    pub budget: std::cell::Cell<u64>,
}

/// Most nodes (packets and choices) the optimal play of one attack may
/// visit: scenarios with many units that can all deflect at each other grow
/// exponentially, and are refused rather than left to run for hours.
pub const MAX_SEARCH_NODES: u64 = 20_000_000;

/// Which phase follows a prevention POP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// The attack's POP: Retaliate follows.
    Attack,
    /// The Retaliate POP: the attack ends.
    End,
}

/// One prevention POP in progress (unused stack slots hold [`NO_PACKET`],
/// so that equal POPs compare equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pop {
    tally: Tally,
    landed: Landed,
    stack: [Packet; STACK],
    len: usize,
    natural_one: bool,
}

/// An empty stack slot.
const NO_PACKET: Packet = Packet {
    source: 0,
    target: 0,
    amount: 0,
    kind: Kind::Attack,
};

impl Pop {
    fn new(tally: Tally, packets: &[Packet], natural_one: bool) -> Pop {
        let mut pop = Pop {
            tally,
            landed: Landed::default(),
            stack: [NO_PACKET; STACK],
            len: 0,
            natural_one,
        };
        // Last pushed, first resolved: the attack packet goes first.
        for p in packets.iter().rev() {
            pop.stack[pop.len] = *p;
            pop.len += 1;
        }
        pop
    }
}

/// The damage of one POP that got through prevention, not yet placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Landed {
    incoming: [u32; MAX_UNITS],
    sources: [u8; MAX_UNITS],
}

impl Landed {
    fn land(&mut self, p: &Packet) {
        if p.amount > 0 {
            self.incoming[p.target] += p.amount;
            self.sources[p.target] |= 1 << p.source;
        }
    }
}

/// A Deflect decision.
#[derive(Clone, Copy, Debug)]
enum DeflectChoice {
    /// Not played (it stays ready for this source).
    Hold,
    /// Played for `amount` (its free part, or all of it), the prevented
    /// damage done to `target` (or to no unit).
    Play { amount: u32, target: Option<usize> },
}

/// A solved subtree of optimal play, for unit weight: its value (expected
/// objective plus offset, times the dice denominator still to come) and the
/// tallies it ends in (shared, as the best option's is passed up unchanged).
type Solved<W> = Rc<(Num, Vec<(Tally, W)>)>;

/// The resolver of the damage steps for one arena, with weights `W`.
struct Resolver<'r, 'a, W: Weight> {
    arena: &'r Arena<'a>,
    /// Weights of 0..=R Retaliate hits, over `dice_denom`.
    dice: Vec<W>,
    dice_denom: W,
    /// Added to every objective value so that it is never negative.
    offset: u64,
}

impl<'a> Arena<'a> {
    /// The two-unit arena of `attack`: attacker against defender, static play.
    pub fn duel(attacker: &'a Unit, defender: &'a Unit) -> Arena<'a> {
        Arena {
            units: vec![attacker, defender],
            sides: vec![Side::Attacking, Side::Defending],
            defending: DEFENDER,
            retaliate: defender.keywords.retaliate,
            play: Play::Static,
            budget: std::cell::Cell::new(MAX_SEARCH_NODES),
        }
    }

    /// Whether unit `i` is discarded given this attack's tally so far.
    pub fn discarded(&self, tally: &Tally, i: usize) -> bool {
        let u = self.units[i];
        u.health.is_some_and(|h| u.counters + tally.damage[i] >= h)
    }

    /// Damage to unit `i` counted up to its remaining health, when known.
    pub fn effective_damage(&self, tally: &Tally, i: usize) -> u32 {
        match self.units[i].remaining_health() {
            Some(r) => tally.damage[i].min(r),
            None => tally.damage[i],
        }
    }

    /// The objective's value of a final tally (without any offset).
    pub fn objective_value(&self, objective: Objective, tally: &Tally) -> i64 {
        let mut v = 0i64;
        for (i, side) in self.sides.iter().enumerate() {
            match (objective, side) {
                (Objective::Damage | Objective::Net, Side::Defending) => {
                    v += self.effective_damage(tally, i) as i64
                }
                (Objective::Net, Side::Attacking) => v -= self.effective_damage(tally, i) as i64,
                (Objective::Discard, Side::Defending) => v += self.discarded(tally, i) as i64,
                _ => {}
            }
        }
        v
    }

    /// An upper bound on the damage one attack can do in all (every counter
    /// comes from an attack die, Critical Hit or a Retaliate die; Deflect
    /// only moves damage): the offset that keeps Net values non-negative.
    pub fn damage_bound(&self) -> u64 {
        let a = self.units[ATTACKER];
        let d = self.units[self.defending];
        attack_dice(a, d) as u64
            + a.keywords.fury as u64
            + a.keywords.crit as u64
            + self.retaliate as u64
    }

    /// Optimal play of steps 4–8 after each strike: its value (expected
    /// objective plus [`Self::value_offset`], times `6^retaliate`) and the
    /// law of the final tallies (weights over `6^retaliate`). One search
    /// serves all the strikes, so POPs reached again are not solved again.
    /// Fails when the search exceeds [`MAX_SEARCH_NODES`].
    pub fn resolve_optimal(&self, strikes: &[Strike]) -> Result<Vec<Resolved>> {
        let r = self.resolver::<Num>();
        let out = strikes
            .iter()
            .map(|s| {
                let solved = r.strike(*s);
                Resolved {
                    value: solved.0.clone(),
                    tallies: solved.1.clone(),
                }
            })
            .collect();
        if self.budget.get() == 0 {
            return Err(Error::input(format!(
                "the choices of this attack ({} units, {} with Deflect) are beyond the solver's bound of {MAX_SEARCH_NODES} search nodes",
                self.units.len(),
                self.units.iter().filter(|u| u.keywords.deflect > 0).count()
            )));
        }
        Ok(out)
    }

    /// The constant added to every objective value under optimal play, so
    /// that values are never negative (non-zero for Net only).
    pub fn value_offset(&self) -> u64 {
        match self.play {
            Play::Optimal(Objective::Net) => self.damage_bound() * self.units.len() as u64,
            _ => 0,
        }
    }

    fn resolver<W: Weight>(&self) -> Resolver<'_, 'a, W> {
        let armor = self.units[ATTACKER].keywords.armor;
        let dice: Dist<W> = damage_dice(self.retaliate, armor);
        Resolver {
            arena: self,
            dice: (0..=self.retaliate as i64)
                .map(|k| dice.weight(k))
                .collect(),
            dice_denom: dice.denom().clone(),
            offset: self.value_offset(),
        }
    }

    /// Static play of steps 4–8: the law of the final tallies for a whole
    /// law of strikes (optimal play goes through [`Self::resolve_optimal`]).
    pub fn resolve_strikes<W: Weight>(&self, strikes: &Joint<Strike, W>) -> Joint<Tally, W> {
        debug_assert_eq!(self.play, Play::Static, "optimal play: use resolve_optimal");
        let r = self.resolver::<W>();
        // No choices: the attack's POP is a function of the strike, so its
        // tallies are merged before the Retaliate roll.
        let mut out = Vec::new();
        for (s, w) in strikes.entries() {
            let t = r.static_pop(Tally::default(), r.attack_packet(s, s.hits), s.one);
            out.push((t, w.clone()));
        }
        let placed = Joint::from_pairs(std::mem::take(&mut out), strikes.denom().clone());
        r.static_retaliate(&placed, &mut out);
        Joint::from_pairs(out, strikes.denom().mul_ref(&r.dice_denom))
    }
}

impl<W: Weight> Resolver<'_, '_, W> {
    /// Static play of the Retaliate roll after every placed tally. Its POP
    /// reads a tally only through the Deflects already used and which units
    /// are discarded, and only adds to it: so it is played once per such
    /// state and hit count, and its increments added to each tally.
    fn static_retaliate(&self, placed: &Joint<Tally, W>, out: &mut Vec<(Tally, W)>) {
        let a = self.arena;
        // (Deflects used, discarded units) -> increments for 0..=R hits.
        type State = ([u8; MAX_UNITS], u8);
        let mut memo: Vec<(State, Vec<Tally>)> = Vec::new();
        for (t, w) in placed.entries() {
            if a.retaliate == 0 || a.discarded(t, ATTACKER) {
                out.push((*t, w.mul_ref(&self.dice_denom)));
                continue;
            }
            let discards =
                (0..a.units.len()).fold(0u8, |m, i| m | ((a.discarded(t, i) as u8) << i));
            let key = (t.deflect_used, discards);
            let at = match memo.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let increments = (0..=a.retaliate)
                        .map(|hits| {
                            let after = self.static_pop(*t, self.retaliate_packet(hits), false);
                            let mut inc = after;
                            for i in 0..MAX_UNITS {
                                inc.damage[i] -= t.damage[i];
                            }
                            inc
                        })
                        .collect();
                    memo.push((key, increments));
                    memo.len() - 1
                }
            };
            for (hits, wr) in self.dice.iter().enumerate() {
                if wr.is_zero() {
                    continue;
                }
                let inc = &memo[at].1[hits];
                let mut t2 = *t;
                for i in 0..MAX_UNITS {
                    t2.damage[i] += inc.damage[i];
                    t2.deflect_used[i] |= inc.deflect_used[i];
                }
                t2.damaged_by |= inc.damaged_by;
                t2.used |= inc.used;
                out.push((t2, w.mul_ref(wr)));
            }
        }
    }

    /// The Retaliate packet for `hits` hits.
    fn retaliate_packet(&self, hits: u32) -> Packet {
        Packet {
            source: self.arena.defending,
            target: ATTACKER,
            amount: hits,
            kind: Kind::Retaliate,
        }
    }

    fn optimal(&self) -> Option<Objective> {
        match self.arena.play {
            Play::Optimal(o) => Some(o),
            Play::Static => None,
        }
    }

    /// The attack packet of a strike with `hits` of its hits left to the
    /// defending unit.
    fn attack_packet(&self, s: &Strike, hits: u32) -> Packet {
        Packet {
            source: ATTACKER,
            target: self.arena.defending,
            amount: hits + s.bonus,
            kind: Kind::Attack,
        }
    }

    /// Optimal play of steps 4–8 from a strike, with the Overkill decision.
    fn strike(&self, s: Strike) -> Solved<W> {
        let a = self.arena;
        let d = a.defending;
        let attack = |hits: u32| self.attack_packet(&s, hits);
        let excess = match a.units[d].remaining_health() {
            Some(r) if a.units[ATTACKER].keywords.overkill => s.hits.saturating_sub(r),
            _ => 0,
        };
        let plain = Pop::new(Tally::default(), &[attack(s.hits)], s.one);
        if excess == 0 {
            return self.run(plain, Phase::Attack);
        }
        // Overkill: the attacker moves 0..=excess hits to one other unit.
        let mut options = vec![plain];
        for u in 0..a.units.len() {
            if u == d || u == ATTACKER {
                continue;
            }
            for m in 1..=excess {
                let mut t = Tally::default();
                t.used |= used::bit(ATTACKER, used::OVERKILL);
                let moved = Packet {
                    source: ATTACKER,
                    target: u,
                    amount: m,
                    kind: Kind::Overkill,
                };
                options.push(Pop::new(t, &[attack(s.hits - m), moved], s.one));
            }
        }
        self.best(Side::Attacking, options, Phase::Attack)
    }

    /// The owner's best option (the first, on ties).
    fn best(&self, owner: Side, options: Vec<Pop>, phase: Phase) -> Solved<W> {
        let mut best: Option<Solved<W>> = None;
        for pop in options {
            let s = self.run(pop, phase);
            let better = match &best {
                None => true,
                Some(b) => match owner {
                    Side::Attacking => s.0 > b.0,
                    Side::Defending => s.0 < b.0,
                },
            };
            if better {
                best = Some(s);
            }
        }
        best.expect("at least one option")
    }

    /// Whether packet `p` meets any prevention: it has damage, its target is
    /// still in play, and it is not unpreventable (Ferocity against a unit
    /// without Fortitude).
    fn preventable(&self, tally: &Tally, p: &Packet) -> bool {
        let a = self.arena;
        let unpreventable =
            a.units[p.source].keywords.ferocity && !a.units[p.target].keywords.fortitude;
        p.amount > 0 && !unpreventable && !a.discarded(tally, p.target)
    }

    /// Prevention of one packet, given its owner's two decisions: Deflect
    /// first (as much as it can, up to the amount played), then Parry (the
    /// attack damage only, on a natural 1), then Evade (its free part, and
    /// its paid part if `pay_evade`). Returns what gets through and the
    /// deflected packet, if any. Every prevention keyword acts here.
    fn prevent(
        &self,
        tally: &mut Tally,
        mut p: Packet,
        natural_one: bool,
        deflect: DeflectChoice,
        pay_evade: bool,
    ) -> (Packet, Option<Packet>) {
        let k = &self.arena.units[p.target].keywords;
        let mut deflected = None;
        if let DeflectChoice::Play { amount, target } = deflect {
            let d = p.amount.min(amount);
            p.amount -= d;
            tally.deflect_used[p.target] |= 1 << p.source;
            tally.used |= used::bit(p.target, used::DEFLECT);
            deflected = target.map(|t| Packet {
                source: p.target,
                target: t,
                amount: d,
                kind: Kind::Deflected,
            });
        }
        if p.kind == Kind::Attack && natural_one {
            p.amount -= p.amount.min(k.parry);
        }
        let mut evade = k.evade - k.paid_evade;
        if pay_evade && k.paid_evade > 0 && p.amount > evade {
            evade = k.evade;
            tally.used |= used::bit(p.target, used::EVADE);
        }
        p.amount -= p.amount.min(evade);
        (p, deflected)
    }

    /// Whether the target of `p` has a Deflect ready against its source.
    fn deflect_ready(&self, tally: &Tally, p: &Packet) -> bool {
        self.arena.units[p.target].keywords.deflect > 0
            && tally.deflect_used[p.target] & (1 << p.source) == 0
    }

    /// Static play of one POP: every ability to the full, deflected damage
    /// back at its source, depth first. Returns the tally after placement.
    fn static_pop(&self, tally: Tally, first: Packet, natural_one: bool) -> Tally {
        let mut t = tally;
        let mut landed = Landed::default();
        let mut next = Some(first);
        while let Some(p) = next.take() {
            if !self.preventable(&t, &p) {
                landed.land(&p);
                continue;
            }
            let deflect = if self.deflect_ready(&t, &p) {
                DeflectChoice::Play {
                    amount: self.arena.units[p.target].keywords.deflect,
                    target: Some(p.source),
                }
            } else {
                DeflectChoice::Hold
            };
            let (q, d) = self.prevent(&mut t, p, natural_one, deflect, true);
            landed.land(&q);
            next = d;
        }
        self.place(&t, &landed)
    }

    /// Optimal play of a POP to its end (branching at each choice, every
    /// option of the damaged unit's owner: Deflect held or played at any
    /// target, paid Evade or not), then what follows. Not memoized: a table
    /// of POPs (tried) outgrows memory long before it saves time; the search
    /// is bounded by the arena's budget instead.
    fn run(&self, mut pop: Pop, phase: Phase) -> Solved<W> {
        loop {
            // Out of budget: stop searching (the caller reports it).
            let left = self.arena.budget.get();
            if left == 0 {
                return Rc::new((Num::zero(), Vec::new()));
            }
            self.arena.budget.set(left - 1);
            if pop.len == 0 {
                let tally = self.place(&pop.tally, &pop.landed);
                return self.after(tally, phase);
            }
            pop.len -= 1;
            let p = pop.stack[pop.len];
            pop.stack[pop.len] = NO_PACKET;
            if !self.preventable(&pop.tally, &p) {
                pop.landed.land(&p);
                continue;
            }
            let deflects = if self.deflect_ready(&pop.tally, &p) {
                self.deflect_choices(&pop, &p)
            } else {
                vec![DeflectChoice::Hold]
            };
            let k = &self.arena.units[p.target].keywords;
            let pays: &[bool] = if k.paid_evade > 0 {
                &[false, true]
            } else {
                &[false]
            };
            let apply = |pop: &mut Pop, d: DeflectChoice, pay: bool| {
                let (q, deflected) = self.prevent(&mut pop.tally, p, pop.natural_one, d, pay);
                pop.landed.land(&q);
                if let Some(d) = deflected {
                    pop.stack[pop.len] = d;
                    pop.len += 1;
                }
            };
            if deflects.len() * pays.len() == 1 {
                apply(&mut pop, deflects[0], false);
                continue;
            }
            let mut options = Vec::with_capacity(deflects.len() * pays.len());
            for &d in &deflects {
                for &pay in pays {
                    let mut child = pop;
                    apply(&mut child, d, pay);
                    options.push(child);
                }
            }
            return self.best(self.arena.sides[p.target], options, phase);
        }
    }

    /// The Deflect options of the target of packet `p` under optimal play
    /// (its Deflect is ready): hold it, or play its free part or all of it,
    /// at any unit still in play or at none. The first best option is
    /// played, so on a tie: holding, then back at the source.
    fn deflect_choices(&self, pop: &Pop, p: &Packet) -> Vec<DeflectChoice> {
        let a = self.arena;
        let k = &a.units[p.target].keywords;
        let mut out = vec![DeflectChoice::Hold];
        let free = k.deflect - k.paid_deflect;
        let amounts = [free, k.deflect];
        for (i, &amount) in amounts.iter().enumerate() {
            if amount == 0 || (i == 1 && k.paid_deflect == 0) {
                continue;
            }
            // Back at the source first (static play's choice, kept on ties),
            // then at no unit, then at any other unit still in play.
            if !a.discarded(&pop.tally, p.source) {
                out.push(DeflectChoice::Play {
                    amount,
                    target: Some(p.source),
                });
            }
            out.push(DeflectChoice::Play {
                amount,
                target: None,
            });
            for t in 0..a.units.len() {
                if t != p.source && !a.discarded(&pop.tally, t) {
                    out.push(DeflectChoice::Play {
                        amount,
                        target: Some(t),
                    });
                }
            }
        }
        out
    }

    /// Places the POP's damage at once: a unit already discarded before
    /// this placement takes nothing.
    fn place(&self, before: &Tally, landed: &Landed) -> Tally {
        let a = self.arena;
        let mut t = *before;
        for i in 0..a.units.len() {
            if landed.incoming[i] > 0 && !a.discarded(before, i) {
                t.damage[i] += landed.incoming[i];
                t.damaged_by |= landed.sources[i];
            }
        }
        t
    }

    /// What follows a POP under optimal play: the Retaliate roll (a chance
    /// node) after the attack's POP, the end of the attack after Retaliate's.
    fn after(&self, tally: Tally, phase: Phase) -> Solved<W> {
        let a = self.arena;
        if phase == Phase::End {
            let objective = self.optimal().expect("optimal play");
            let v = a.objective_value(objective, &tally) + self.offset as i64;
            return Rc::new((Num::from_u64(v as u64), vec![(tally, W::one())]));
        }
        if a.retaliate == 0 || a.discarded(&tally, ATTACKER) {
            // No roll, or nothing left for it to damage: the roll does not
            // matter, so the whole weight of the dice goes to this tally.
            let leaf = self.after(tally, Phase::End);
            return Rc::new((
                leaf.0.mul_ref(&self.dice_denom.to_num()),
                vec![(tally, self.dice_denom.clone())],
            ));
        }
        let mut value = Num::zero();
        let mut tallies = Vec::new();
        for (hits, w) in self.dice.iter().enumerate() {
            if w.is_zero() {
                continue;
            }
            let pop = Pop::new(tally, &[self.retaliate_packet(hits as u32)], false);
            let child = self.run(pop, Phase::End);
            value.add_assign_ref(&child.0.mul_ref(&w.to_num()));
            tallies.extend(child.1.iter().map(|(t, wt)| (*t, wt.mul_ref(w))));
        }
        Rc::new((value, tallies))
    }
}

/// Everything one attack can do, as exact distributions.
#[derive(Clone, Debug)]
pub struct AttackOutcome<W: Weight = Num> {
    /// Hits of the final attack roll.
    pub hits: Dist<W>,
    /// Counters placed on the defender by this attack (the attack damage that
    /// got through, plus anything deflected back at it).
    pub defender_damage: Dist<W>,
    /// Counters placed on the attacker (deflected damage plus retaliation).
    pub attacker_damage: Dist<W>,
    /// The full joint law of the final tallies.
    pub tallies: Joint<Tally, W>,
    /// Remaining health of the attacker and the defender, when known.
    remaining: [Option<u32>; 2],
}

impl<W: Weight> AttackOutcome<W> {
    fn discarded(&self, i: usize) -> Option<BigRational> {
        self.remaining[i].map(|r| self.tallies.prob(|t| t.damage[i] >= r))
    }

    /// P(the defender is discarded), when its health is known.
    pub fn defender_discarded(&self) -> Option<BigRational> {
        self.discarded(DEFENDER)
    }

    /// P(the attacker is discarded), when its health is known.
    pub fn attacker_discarded(&self) -> Option<BigRational> {
        self.discarded(ATTACKER)
    }

    /// P(the attacker placed counters on some unit): its Stun lands.
    pub fn attacker_stun_lands(&self) -> BigRational {
        self.tallies.prob(|t| t.damaged_by & (1 << ATTACKER) != 0)
    }

    /// P(the defender placed counters on some unit): its Stun lands.
    pub fn defender_stun_lands(&self) -> BigRational {
        self.tallies.prob(|t| t.damaged_by & (1 << DEFENDER) != 0)
    }

    /// The same outcome with weights of another type.
    pub fn convert<V: Weight>(&self) -> AttackOutcome<V> {
        AttackOutcome {
            hits: self.hits.convert(),
            defender_damage: self.defender_damage.convert(),
            attacker_damage: self.attacker_damage.convert(),
            tallies: self.tallies.convert(),
            remaining: self.remaining,
        }
    }
}

/// Number of attack dice the attacker rolls against the defender.
pub fn attack_dice(attacker: &Unit, defender: &Unit) -> u32 {
    attacker.power.saturating_sub(defender.keywords.shields)
}

/// The most dice one attack between these two units can roll (the exponent
/// of 6 in every denominator).
pub fn total_dice(attacker: &Unit, defender: &Unit) -> u64 {
    attack_dice(attacker, defender) as u64
        + attacker.keywords.fury as u64
        + defender.keywords.retaliate as u64
}

/// The attack roll of `attacker` against `defender` (Shields, Accuracy,
/// Armor and Fury applied).
pub fn roll<W: Weight>(attacker: &Unit, defender: &Unit) -> Joint<Roll, W> {
    attack_roll::<W>(
        attack_dice(attacker, defender),
        attacker.keywords.accuracy,
        defender.keywords.armor,
        attacker.keywords.fury,
    )
}

/// Step 5: the law of strikes from the law of the final roll, with Critical
/// Hit `crit` added on a natural 6. Only what the later steps read is kept,
/// so that equal strikes merge: without Overkill only hits plus bonus
/// matters; without Parry (`parry` false), not the natural 1.
pub fn strikes<W: Weight>(
    roll: &Joint<Roll, W>,
    crit: u32,
    overkill: bool,
    parry: bool,
) -> Joint<Strike, W> {
    if overkill {
        return roll.map(|r| {
            let mut s = Strike::from_roll(r, crit);
            s.one &= parry;
            s
        });
    }
    let top = roll.entries().last().map_or(0, |e| e.0.hits) + crit;
    let mut dense = vec![W::zero(); 2 * (top as usize + 1)];
    for (r, w) in roll.entries() {
        let pending = r.hits + if r.six { crit } else { 0 };
        dense[2 * pending as usize + (r.one && parry) as usize].add_assign_ref(w);
    }
    let entries = dense
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let s = Strike {
                hits: (i / 2) as u32,
                bonus: 0,
                one: i % 2 == 1,
            };
            (s, w)
        })
        .collect();
    Joint::from_sorted(entries, roll.denom().clone())
}

/// Steps 4–8 of a static attack from a given final roll distribution: the
/// law of the final tallies.
pub fn resolve_from_roll<W: Weight>(
    attacker: &Unit,
    defender: &Unit,
    roll: &Joint<Roll, W>,
) -> Joint<Tally, W> {
    let arena = Arena::duel(attacker, defender);
    let parry = defender.keywords.parry > 0;
    arena.resolve_strikes(&strikes(roll, attacker.keywords.crit, false, parry))
}

/// The whole static attack with weights of type `W` (which must hold
/// `6^total_dice`; [`Num`] and `BigUint` always do).
pub fn attack_with<W: Weight>(attacker: &Unit, defender: &Unit) -> AttackOutcome<W> {
    let roll = roll::<W>(attacker, defender);
    let hits = roll.marginal(|r| r.hits as i64);
    let tallies = resolve_from_roll(attacker, defender, &roll);
    AttackOutcome {
        hits,
        defender_damage: tallies.marginal(|t| t.damage[DEFENDER] as i64),
        attacker_damage: tallies.marginal(|t| t.damage[ATTACKER] as i64),
        tallies,
        remaining: [attacker.remaining_health(), defender.remaining_health()],
    }
}

/// The exact outcome of `attacker` attacking `defender`, with every static
/// keyword applied to the full. Validates both units first.
pub fn attack(attacker: &Unit, defender: &Unit) -> Result<AttackOutcome> {
    attacker.validate()?;
    defender.validate()?;
    Ok(if fits_u128(total_dice(attacker, defender)) {
        attack_with::<u128>(attacker, defender).convert()
    } else {
        attack_with::<Num>(attacker, defender)
    })
}
