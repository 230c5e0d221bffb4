//! The attack sequence, step by step as in RULES.md.
//!
//! 1. Declare (the defending unit is fixed; Retaliate is activated).
//! 2. Roll `power − Shields` attack dice, plus Fury's extra dice
//!    ([`crate::dice::attack_roll`]).
//! 3. (Re-roll POP: Lucky, in the [`crate::policy`] module.)
//! 4. Hits go to the defending unit; with Overkill, excess hits may go to one
//!    other unit.
//! 5. Pending damage: hits, plus Critical Hit on a natural 6.
//! 6. Damage-prevention POP, packet by packet ([`Packet`]): a toll first
//!    (damage prevented unless its source's player pays), then Parry (it is
//!    triggered: attack damage only, on a natural 1), then the damaged
//!    unit's Deflect (activated: as much as it can of what is still
//!    pending; the deflected damage becomes a new packet from the
//!    deflecting unit, resolved next, depth first), then Evade. Ferocity
//!    makes damage unpreventable unless the damaged unit has Fortitude.
//! 7. Damage is placed, all at once; units whose counters reach their health
//!    are discarded. Stun lands where counters were placed. An attack that
//!    placed nothing on the defending unit may then put counters (a
//!    consolation ability).
//! 8. The attack ends ([`Ending`]): each activated Retaliate is its own roll
//!    of dice of damage to the attacker, a new packet with its own
//!    prevention POP, even if the defending unit was discarded; then the
//!    damage units do to themselves (Overload).
//!
//! Every keyword's effect lives here, once. The choices inside steps 4–8
//! (Overkill's split, playing a Deflect and its target, paying for Evade or
//! a toll, a consolation) are made by the arena's [`Play`]: `Static` uses
//! everything to the full and deflects back at the source; `Optimal` solves
//! them exactly by minimax on an [`Objective`], with each roll at the end of
//! the attack as a chance node. Force spent is tracked against each side's
//! budget ([`Fight::force`]).
//! Every step maps an exact [`Joint`] distribution to the next; nothing is
//! sampled.
//!
//! ```
//! use swtcg_engine::attack::attack;
//! use swtcg_engine::unit::Unit;
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

use crate::dice::{Roll, Track, attack_roll_tracking, damage_dice};
use crate::dist::{Dist, Joint, Num, Weight, fits_u128};
use crate::error::{Error, Result};
use crate::unit::{Paid, Unit};
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
pub enum DamageKind {
    /// The attack damage to the defending unit (hits plus Critical Hit).
    Attack,
    /// Damage moved to a second unit by Overkill.
    Overkill,
    /// Damage done by a Deflect.
    Deflected,
    /// Dice of damage from Retaliate.
    Retaliate,
    /// Damage a unit does to itself when the attack ends (Overload,
    /// Backfire).
    SelfDamage,
    /// Riposte's damage to the attacker.
    Riposte,
    /// Avenge's dice of damage to the attacker.
    Avenge,
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
    pub kind: DamageKind,
}

/// Bits of [`Tally::used`], shifted by `4 * unit`: which optional abilities a
/// unit used in this attack.
pub(crate) mod used {
    /// The paid part of Evade.
    pub const EVADE: u32 = 1;
    /// A Deflect was played.
    pub const DEFLECT: u32 = 2;
    /// Overkill moved hits.
    pub const OVERKILL: u32 = 4;
    /// A consolation ability put its counters.
    pub const CONSOLATION: u32 = 8;

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
    /// Counters this attack placed on each unit (by arena index). One
    /// attack's damage is bounded far below `u16::MAX` by the units' bounds
    /// ([`Fight::damage_bound`]); a small tally is a fast one.
    pub damage: [u16; MAX_UNITS],
    /// Bit `i`: unit `i` placed counters on some unit (its Stun lands).
    pub damaged_by: u8,
    /// `deflect_used[i]` bit `s`: unit `i` has used its Deflect against source `s`.
    pub deflect_used: [u8; MAX_UNITS],
    /// Optional abilities used (bits as in the crate's `used` module).
    pub used: u32,
    /// Force spent in the damage steps by each side (see [`side_index`]).
    pub spent: [u32; 2],
    /// What the roll showed that endings read (see [`flags`]).
    pub flags: u8,
    /// Bit `i`: unit `i` was discarded in the attack's POP with damage
    /// from the attacking unit among what was placed on it (Avenge).
    pub felled: u8,
}

/// Bits of [`Tally::flags`].
pub mod flags {
    /// A natural 2 in the final roll (Riposte).
    pub const TWO: u8 = 1;
    /// A natural 3 in the roll before re-rolls (Backfire).
    pub const THREE: u8 = 2;
    /// A natural 5 in the roll before re-rolls (Focus).
    pub const FIVE: u8 = 4;
}

/// The index of a side in per-side arrays: 0 attacking, 1 defending.
pub fn side_index(side: Side) -> usize {
    match side {
        Side::Attacking => 0,
        Side::Defending => 1,
    }
}

/// Damage done when the attack ends: a Retaliate roll, or damage a unit
/// does to itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// The unit doing it.
    pub source: usize,
    /// The unit taking it.
    pub target: usize,
    /// Dice rolled, or damage done.
    pub amount: u32,
    /// Whether `amount` is dice of damage (4+, 5+ against the target's
    /// Armor).
    pub dice: bool,
    /// What it is.
    pub kind: DamageKind,
    /// Trigger it happens.
    pub when: Trigger,
}

/// Trigger an [`Ending`] happens (besides having damage to do and its target
/// in play).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// Always (Retaliate, Overload).
    Always,
    /// The final roll showed a natural 2, and the source is still in play
    /// (Riposte).
    Two,
    /// The roll before re-rolls showed a natural 3 (Backfire).
    Three,
    /// Unit `.0` was discarded in the attack's POP by damage from the
    /// attacking unit (Avenge).
    Felled(usize),
}

impl Ending {
    /// The endings of an attack on `defending`, in RULES.md's order: each
    /// activated Retaliate (`retaliates`, in order), the defending unit's
    /// Riposte, its side's Avenges (one per unit the attack may discard),
    /// then the damage units do to themselves (the attacker's Backfire,
    /// then Overloads).
    pub fn of(
        units: &[&Unit],
        sides: &[Side],
        defending: usize,
        retaliates: &[u32],
    ) -> Vec<Ending> {
        let ending = |source, target, amount, dice, kind, when| Ending {
            source,
            target,
            amount,
            dice,
            kind,
            when,
        };
        let mut out: Vec<Ending> = retaliates
            .iter()
            .map(|&r| {
                ending(
                    defending,
                    ATTACKER,
                    r,
                    true,
                    DamageKind::Retaliate,
                    Trigger::Always,
                )
            })
            .collect();
        let riposte = units[defending].keywords.riposte;
        if riposte > 0 {
            out.push(ending(
                defending,
                ATTACKER,
                riposte,
                false,
                DamageKind::Riposte,
                Trigger::Two,
            ));
        }
        // Avenge: once for each other unit of its side that damage from
        // the attacking unit discards. Only the defending unit can be
        // discarded so, unless the attacker can put damage elsewhere
        // (Overkill, or a Deflect).
        let ak = &units[ATTACKER].keywords;
        let elsewhere = ak.overkill || ak.deflect > 0 || !ak.paid_deflects.is_empty();
        for (i, u) in units.iter().enumerate() {
            if sides.get(i) != sides.get(defending) || u.keywords.avenge == 0 {
                continue;
            }
            for j in 0..units.len() {
                let victim = j == defending || (elsewhere && sides.get(j) == sides.get(defending));
                if j != i && victim {
                    out.push(ending(
                        i,
                        ATTACKER,
                        u.keywords.avenge,
                        true,
                        DamageKind::Avenge,
                        Trigger::Felled(j),
                    ));
                }
            }
        }
        let backfire = units[ATTACKER].keywords.backfire;
        if backfire > 0 {
            out.push(ending(
                ATTACKER,
                ATTACKER,
                backfire,
                true,
                DamageKind::SelfDamage,
                Trigger::Three,
            ));
        }
        for (i, u) in units.iter().enumerate() {
            for &(amount, dice) in &u.keywords.self_damage {
                out.push(ending(
                    i,
                    i,
                    amount,
                    dice,
                    DamageKind::SelfDamage,
                    Trigger::Always,
                ));
            }
        }
        out
    }
}

/// Which side a unit is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The attacker's side.
    Attacking,
    /// The defender's side.
    Defending,
}

/// What the attacking side maximises and the defending side minimises
/// (the words `damage`, `discard`, `net` everywhere: flags, scenario files,
/// the web API, JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// Expected damage counters placed on the defending side's units, each
    /// counted up to its remaining health when that is known.
    #[default]
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
    /// What endings read from the roll (see [`flags`]).
    pub flags: u8,
}

/// Optimal play of the damage steps after one strike.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// Expected objective plus the arena's value offset, times the
    /// denominator of the rolls at the end ([`Fight::end_denom`]).
    pub value: Num,
    /// The law of the final tallies, weights over the same denominator.
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
            flags: roll_flags(r),
        }
    }
}

/// The [`flags`] of a roll.
pub fn roll_flags(r: &Roll) -> u8 {
    (r.two as u8 * flags::TWO) | (r.three as u8 * flags::THREE) | (r.five as u8 * flags::FIVE)
}

/// The units of one attack and how its choices are made.
#[derive(Clone, Debug)]
pub struct Fight<'a> {
    /// The units: the attacker at [`ATTACKER`], then the rest.
    pub units: Vec<&'a Unit>,
    /// The side of each unit.
    pub sides: Vec<Side>,
    /// The unit that ended up defending (after any Intercept).
    pub defending: usize,
    /// What happens when the attack ends, in order (see [`Ending::of`]).
    pub endings: Vec<Ending>,
    /// Force each side may still spend in the damage steps (`None`:
    /// unlimited), by [`side_index`].
    pub force: [Option<u32>; 2],
    /// The tally the damage steps start from (counters put before the roll,
    /// Force committed).
    pub start: Tally,
    /// Against an attacker with Cunning: the defending unit's plays on the
    /// attack damage, chosen before the roll.
    pub committed: Option<Committed>,
    /// How choices are made.
    pub play: Play,
    /// Search nodes the optimal play of this arena may still visit (see
    /// [`MAX_SEARCH_NODES`]).
    pub(crate) budget: std::cell::Cell<u64>,
}

/// Most nodes (packets and choices) the optimal play of one attack may
/// visit: scenarios with many units that can all deflect at each other grow
/// exponentially, and are refused rather than left to run for hours.
pub const MAX_SEARCH_NODES: u64 = 20_000_000;

/// The defending unit's damage prevention chosen before the roll (against
/// Cunning): its Deflect played for up to `amount` at `target` (or held),
/// and paid Evade bought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Committed {
    /// The Deflect: up to this much (free part and paid parts bought), at
    /// this unit (or none); `None` holds it.
    pub deflect: Option<(u32, Option<usize>)>,
    /// Paid Evade bought.
    pub evade: u32,
}

/// Which POP is running: 0 the attack's, `k` the POP of ending `k − 1`;
/// after POP `k` comes ending `k` (after the attack's, its consolation).
type Phase = usize;

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
    kind: DamageKind::Attack,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeflectChoice {
    /// Not played (it stays ready for this source).
    Hold,
    /// Played for `amount` (its free part and the paid parts bought), the
    /// prevented damage done to `target` (or to no unit).
    Play { amount: u32, target: Option<usize> },
}

/// The damaged unit's owner's decision on one packet: its Deflect, and the
/// paid Evade it buys, with what they cost.
#[derive(Clone, Copy, Debug)]
struct Defense {
    deflect: DeflectChoice,
    deflect_cost: u32,
    evade: u32,
    evade_cost: u32,
}

/// Every worthwhile way to buy from `paid` abilities up to `cap` more
/// prevention with at most `left` Force (`None`: unlimited): `(amount,
/// cost)` pairs, none dominated by another (as much for less), cheapest
/// first, starting with `(0, 0)`. An X ability buys any X up to what is
/// left (all that is needed, up to [`crate::policy::DEFAULT_X_FORCE`], when
/// Force is unlimited).
pub(crate) fn purchases(paid: &[Paid], cap: u32, left: Option<u32>) -> Vec<(u32, u32)> {
    let mut all: Vec<(u32, u32)> = vec![(0, 0)];
    for p in paid {
        let mut next = all.clone();
        for &(a, c) in &all {
            if p.x {
                let most = match left {
                    Some(l) => cap.saturating_sub(a).min(l.saturating_sub(c)),
                    None => cap.saturating_sub(a).min(crate::policy::DEFAULT_X_FORCE),
                };
                for x in 1..=most {
                    next.push((a + x, c + x));
                }
                if left.is_none() && most > 0 {
                    // Unlimited Force: only "as much as needed" matters.
                    next.retain(|&(na, nc)| !(nc > c && na < a + most && na > a));
                }
            } else {
                let c2 = c + p.cost;
                if left.is_none_or(|l| c2 <= l) {
                    next.push(((a + p.amount).min(cap), c2));
                }
            }
        }
        all = next;
    }
    all.sort_by_key(|&(a, c)| (c, std::cmp::Reverse(a)));
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (a, c) in all {
        // Cheapest first: keep it only if it buys more than anything cheaper.
        if out.iter().all(|&(oa, _)| a > oa) {
            out.push((a, c));
        }
    }
    out
}

/// The purchases a player weighs: all of them under optimal play; under
/// static play only the last (the most prevention its Force buys).
fn played_purchases(buys: &[(u32, u32)], stat: bool) -> &[(u32, u32)] {
    if stat { &buys[buys.len() - 1..] } else { buys }
}

/// A solved subtree of optimal play, for unit weight: its value (expected
/// objective plus offset, times the dice denominator still to come) and the
/// tallies it ends in (shared, as the best option's is passed up unchanged).
type Solved<W> = Rc<(Num, Vec<(Tally, W)>)>;

/// What the damage steps read of one unit, packed (the unit's keywords are
/// large; these few numbers are read for every packet).
#[derive(Clone, Copy, Debug, Default)]
struct Hot {
    /// Health minus counters (`u32::MAX` when unknown).
    remaining: u32,
    parry: u32,
    evade: u32,
    deflect: u32,
    /// It has a Deflect (free or paid).
    can_deflect: bool,
    ferocity: bool,
    fortitude: bool,
    double_damage: bool,
    /// It attacks from another arena: no Deflect reaches it.
    remote: bool,
}

/// The resolver of the damage steps for one arena, with weights `W`.
struct Resolver<'r, 'a, W: Weight> {
    arena: &'r Fight<'a>,
    /// For each ending: the weights of each damage it can do, and their
    /// denominator.
    rolls: Vec<(Vec<W>, W)>,
    /// Added to every objective value so that it is never negative.
    offset: u64,
    /// No unit has a paid ability, a toll or all its damage prevented: the
    /// fast path of static play.
    plain: bool,
    /// Each unit's numbers the damage steps read.
    hot: [Hot; MAX_UNITS],
    /// The attacker's damage beyond its hits.
    bonus: u32,
}

impl<'a> Fight<'a> {
    /// The two-unit arena of `attack`: attacker against defender, static play.
    pub fn duel(attacker: &'a Unit, defender: &'a Unit) -> Fight<'a> {
        let units = vec![attacker, defender];
        // Retaliate doesn't work with attacks from another arena.
        let retaliates: Vec<u32> = defender
            .keywords
            .retaliates
            .iter()
            .filter(|_| !attacker.from_another_arena)
            .map(|r| r.amount)
            .collect();
        Fight {
            endings: Ending::of(
                &units,
                &[Side::Attacking, Side::Defending],
                DEFENDER,
                &retaliates,
            ),
            units,
            sides: vec![Side::Attacking, Side::Defending],
            defending: DEFENDER,
            force: [None, None],
            start: Tally::default(),
            committed: None,
            play: Play::Static,
            budget: std::cell::Cell::new(MAX_SEARCH_NODES),
        }
    }

    /// The Force `side` may still spend after `tally` (`None`: unlimited).
    pub fn left(&self, tally: &Tally, side: Side) -> Option<u32> {
        let i = side_index(side);
        self.force[i].map(|f| f.saturating_sub(tally.spent[i]))
    }

    /// The denominator of all the rolls at the end of the attack: `6^d`
    /// for `d` dice of damage in all.
    pub fn end_denom(&self) -> Num {
        Num::pow(6, self.end_dice())
    }

    /// Dice of damage rolled at the end of the attack, in all.
    pub fn end_dice(&self) -> u32 {
        self.endings
            .iter()
            .filter(|e| e.dice)
            .map(|e| e.amount)
            .sum()
    }

    /// Whether unit `i` is discarded given this attack's tally so far.
    pub fn discarded(&self, tally: &Tally, i: usize) -> bool {
        let u = self.units[i];
        u.health
            .is_some_and(|h| u.counters + u32::from(tally.damage[i]) >= h)
    }

    /// Damage to unit `i` counted up to its remaining health, when known.
    pub fn effective_damage(&self, tally: &Tally, i: usize) -> u32 {
        match self.units[i].remaining_health() {
            Some(r) => u32::from(tally.damage[i]).min(r),
            None => u32::from(tally.damage[i]),
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
            + a.keywords.bonus_damage as u64
            + a.keywords
                .consolation
                .map_or(0, |(x, y)| x as u64 + y as u64)
            + self.start.damage.iter().map(|&x| x as u64).sum::<u64>()
            + self.endings.iter().map(|e| e.amount as u64).sum::<u64>()
    }

    /// Optimal play of steps 4–8 after each strike: its value (expected
    /// objective plus [`Self::value_offset`], times [`Self::end_denom`])
    /// and the law of the final tallies (weights over the same). One search
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
        crate::cancel::check()?;
        if self.budget.get() == 0 {
            return Err(Error::limit(format!(
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
        let rolls: Vec<(Vec<W>, W)> = self
            .endings
            .iter()
            .map(|e| {
                if e.dice {
                    let armor = self.units[e.target].keywords.armor;
                    let dice: Dist<W> = damage_dice(e.amount, armor);
                    let w = (0..=e.amount as i64).map(|k| dice.weight(k)).collect();
                    (w, dice.denom().clone())
                } else {
                    let mut w = vec![W::zero(); e.amount as usize + 1];
                    w[e.amount as usize] = W::one();
                    (w, W::one())
                }
            })
            .collect();
        let plain = self.units.iter().all(|u| {
            let k = &u.keywords;
            k.paid_evades.is_empty()
                && k.paid_deflects.is_empty()
                && k.tolls.is_empty()
                && !k.harmless
                && k.protect == 0
        });
        let mut hot = [Hot::default(); MAX_UNITS];
        for (h, u) in hot.iter_mut().zip(&self.units) {
            let k = &u.keywords;
            *h = Hot {
                remaining: u.remaining_health().unwrap_or(u32::MAX),
                parry: k.parry,
                evade: k.evade,
                deflect: k.deflect,
                can_deflect: k.deflect > 0 || !k.paid_deflects.is_empty(),
                ferocity: k.ferocity,
                fortitude: k.fortitude,
                double_damage: k.double_damage,
                remote: u.from_another_arena,
            };
        }
        Resolver {
            arena: self,
            rolls,
            offset: self.value_offset(),
            plain,
            hot,
            bonus: self.units[ATTACKER].keywords.bonus_damage,
        }
    }

    /// Static play of steps 4–8: the law of the final tallies for a whole
    /// law of strikes (optimal play goes through [`Self::resolve_optimal`]).
    pub fn resolve_strikes<W: Weight>(&self, strikes: &Joint<Strike, W>) -> Joint<Tally, W> {
        debug_assert_eq!(self.play, Play::Static, "optimal play: use resolve_optimal");
        let r = self.resolver::<W>();
        // No choices: the attack's POP is a function of the strike, so its
        // tallies are merged before each roll at the end.
        let consoled = self.units[ATTACKER].keywords.consolation.is_some();
        let mut out = Vec::with_capacity(strikes.len());
        for (s, w) in strikes.entries() {
            let mut start = self.start;
            start.flags = s.flags;
            let mut t = r.static_pop(start, r.attack_packet(s, s.hits), s.one, true);
            if consoled && let Some(c) = r.consolation(&t) {
                t = c;
            }
            out.push((t, w.clone()));
        }
        let mut placed = Joint::from_pairs(out, strikes.denom().clone());
        for k in 0..self.endings.len() {
            placed = r.static_ending(&placed, k);
        }
        placed
    }
}

impl<W: Weight> Resolver<'_, '_, W> {
    /// Static play of ending `k` after every placed tally. Its POP reads a
    /// tally only through the Deflects already used, which units are
    /// discarded and the Force spent, and only adds to it: so it is played
    /// once per such state and damage, and its increments added to each
    /// tally.
    fn static_ending(&self, placed: &Joint<Tally, W>, k: usize) -> Joint<Tally, W> {
        let a = self.arena;
        let (weights, denom) = &self.rolls[k];
        let mut out = Vec::new();
        // (Deflects used, discarded units, Force spent) -> increments. The
        // POP never reads who placed counters or what was used: it runs from
        // a copy with those bits cleared, so that its increments carry only
        // its own.
        type State = ([u8; MAX_UNITS], u8, [u32; 2]);
        let mut memo: Vec<(State, Vec<Tally>)> = Vec::new();
        for (t, w) in placed.entries() {
            if !self.ending_happens(t, k) {
                out.push((*t, w.mul_ref(denom)));
                continue;
            }
            let discards = (0..a.units.len()).fold(0u8, |m, i| m | ((self.gone(t, i) as u8) << i));
            let key = (t.deflect_used, discards, t.spent);
            let at = match memo.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let increments = (0..weights.len() as u32)
                        .map(|hits| {
                            let mut clean = *t;
                            clean.damaged_by = 0;
                            clean.used = 0;
                            let after =
                                self.static_pop(clean, self.ending_packet(k, hits), false, false);
                            let mut inc = after;
                            for i in 0..MAX_UNITS {
                                inc.damage[i] -= t.damage[i];
                            }
                            for s in 0..2 {
                                inc.spent[s] -= t.spent[s];
                            }
                            inc
                        })
                        .collect();
                    memo.push((key, increments));
                    memo.len() - 1
                }
            };
            for (hits, wr) in weights.iter().enumerate() {
                if wr.is_zero() {
                    continue;
                }
                let inc = &memo[at].1[hits];
                let mut t2 = *t;
                for i in 0..MAX_UNITS {
                    t2.damage[i] += inc.damage[i];
                    t2.deflect_used[i] |= inc.deflect_used[i];
                }
                for s in 0..2 {
                    t2.spent[s] += inc.spent[s];
                }
                t2.damaged_by |= inc.damaged_by;
                t2.used |= inc.used;
                out.push((t2, w.mul_ref(wr)));
            }
        }
        Joint::from_pairs(out, placed.denom().mul_ref(denom))
    }

    /// Whether ending `k` does anything after `tally`: it has damage to do
    /// and its target is still in play.
    fn ending_happens(&self, tally: &Tally, k: usize) -> bool {
        let a = self.arena;
        let e = &a.endings[k];
        let when = match e.when {
            Trigger::Always => true,
            Trigger::Two => tally.flags & flags::TWO != 0 && !self.gone(tally, e.source),
            Trigger::Three => tally.flags & flags::THREE != 0,
            Trigger::Felled(j) => tally.felled & (1 << j) != 0,
        };
        when && e.amount > 0 && !self.gone(tally, e.target)
    }

    /// The packet of ending `k` doing `hits` damage.
    fn ending_packet(&self, k: usize, hits: u32) -> Packet {
        let e = &self.arena.endings[k];
        Packet {
            source: e.source,
            target: e.target,
            amount: hits,
            kind: e.kind,
        }
    }

    /// The tally after the attacker's consolation ability, when its attack
    /// placed no counters on the defending unit (still in play): `None`
    /// when it has none or may not use it.
    fn consolation(&self, tally: &Tally) -> Option<Tally> {
        let a = self.arena;
        let (own, theirs) = a.units[ATTACKER].keywords.consolation?;
        let d = a.defending;
        if tally.damage[d] > a.start.damage[d] || self.gone(tally, d) || self.gone(tally, ATTACKER)
        {
            return None;
        }
        let mut t = *tally;
        t.damage[ATTACKER] += own as u16;
        t.damage[d] += theirs as u16;
        t.used |= used::bit(ATTACKER, used::CONSOLATION);
        Some(t)
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
            amount: hits + s.bonus + self.bonus,
            kind: DamageKind::Attack,
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
        let mut start = a.start;
        start.flags = s.flags;
        let plain = Pop::new(start, &[attack(s.hits)], s.one);
        if excess == 0 {
            return self.run(plain, 0);
        }
        // Overkill: the attacker moves 0..=excess hits to one other unit.
        let mut options = vec![plain];
        for u in 0..a.units.len() {
            if u == d || u == ATTACKER {
                continue;
            }
            for m in 1..=excess {
                let mut t = start;
                t.used |= used::bit(ATTACKER, used::OVERKILL);
                let moved = Packet {
                    source: ATTACKER,
                    target: u,
                    amount: m,
                    kind: DamageKind::Overkill,
                };
                options.push(Pop::new(t, &[attack(s.hits - m), moved], s.one));
            }
        }
        self.best(Side::Attacking, options, 0)
    }

    /// The owner's best option (the first, on ties).
    fn best(&self, owner: Side, options: Vec<Pop>, phase: Phase) -> Solved<W> {
        Self::best_of(owner, options.into_iter().map(|pop| self.run(pop, phase)))
    }

    /// The owner's best of solved options (the first, on ties).
    fn best_of(owner: Side, options: impl Iterator<Item = Solved<W>>) -> Solved<W> {
        let mut best: Option<Solved<W>> = None;
        for s in options {
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

    /// What happens to packet `p` before its target's owner decides:
    /// `Land` when nothing can prevent it (no damage, its target already
    /// discarded, or unpreventable: Ferocity against a unit without
    /// Fortitude), `Gone` when it is all prevented (its source's damage is
    /// all prevented), `Toll(n)` when the source's player must pay `n` Force
    /// or see it prevented, else `Open`.
    #[inline]
    fn gate(&self, tally: &Tally, p: &Packet) -> Gate {
        let a = self.arena;
        let (hs, ht) = (&self.hot[p.source], &self.hot[p.target]);
        let unpreventable = hs.ferocity && !ht.fortitude;
        if p.amount == 0 || unpreventable || self.gone(tally, p.target) {
            return Gate::Land;
        }
        if self.plain {
            return Gate::Open;
        }
        let (src, tgt) = (a.units[p.source], a.units[p.target]);
        if src.keywords.harmless {
            return Gate::Gone;
        }
        let toll: u32 = tgt.keywords.tolls.iter().sum();
        if toll > 0 && a.sides[p.source] != a.sides[p.target] {
            return Gate::Toll(toll);
        }
        Gate::Open
    }

    /// The pending damage of `p` after Parry (attack damage only, on a
    /// natural 1).
    #[inline]
    fn after_parry(&self, p: &Packet, natural_one: bool) -> u32 {
        let parry = self.hot[p.target].parry;
        if p.kind == DamageKind::Attack && natural_one {
            p.amount - p.amount.min(parry)
        } else {
            p.amount
        }
    }

    /// Prevention of one packet, given its owner's decision: Parry first
    /// (triggered: the attack damage only, on a natural 1), then the Deflect
    /// played (as much as it can of what is still pending), then Evade (its
    /// free part, and the paid part bought). Returns what gets through and
    /// the deflected packet, if any. Every prevention keyword acts here.
    #[inline]
    fn prevent(
        &self,
        tally: &mut Tally,
        mut p: Packet,
        natural_one: bool,
        defense: &Defense,
    ) -> (Packet, Option<Packet>) {
        let evade = self.hot[p.target].evade;
        p.amount = self.after_parry(&p, natural_one);
        let mut deflected = None;
        if let DeflectChoice::Play { amount, target } = defense.deflect {
            let d = p.amount.min(amount);
            p.amount -= d;
            tally.deflect_used[p.target] |= 1 << p.source;
            tally.used |= used::bit(p.target, used::DEFLECT);
            deflected = target.filter(|_| d > 0).map(|t| Packet {
                source: p.target,
                target: t,
                amount: d,
                kind: DamageKind::Deflected,
            });
        }
        if defense.evade > 0 {
            tally.used |= used::bit(p.target, used::EVADE);
        }
        let protect = if self.plain {
            0
        } else {
            self.protect(tally, &p)
        };
        p.amount -= p
            .amount
            .min(evade.saturating_add(defense.evade).saturating_add(protect));
        let cost = defense.deflect_cost + defense.evade_cost;
        if cost > 0 {
            tally.spent[side_index(self.arena.sides[p.target])] += cost;
        }
        (p, deflected)
    }

    /// Damage that got through lands: the attack damage of an attacker
    /// with Double Damage puts one more counter per point on the defending
    /// unit (Overkill and deflected damage are not doubled).
    #[inline]
    fn land(&self, landed: &mut Landed, p: &Packet) {
        if p.kind == DamageKind::Attack && self.hot[ATTACKER].double_damage {
            landed.land(&Packet {
                amount: p.amount.saturating_mul(2),
                ..*p
            });
        } else {
            landed.land(p);
        }
    }

    /// The prevention other units of the side of `p`'s target give it with
    /// Protect (each its whole X, once per instance), or 0.
    #[inline]
    fn protect(&self, tally: &Tally, p: &Packet) -> u32 {
        let a = self.arena;
        a.units
            .iter()
            .enumerate()
            .filter(|(i, u)| {
                *i != p.target
                    && u.keywords.protect > 0
                    && a.sides[*i] == a.sides[p.target]
                    && !self.gone(tally, *i)
            })
            .map(|(_, u)| u.keywords.protect)
            .fold(0, u32::saturating_add)
    }

    /// Whether units `i` and `j` are in the same arena: only an attacker
    /// from another arena is not in its defenders' (Deflect reaches only
    /// units of the deflector's arena).
    #[inline]
    fn same_arena(&self, i: usize, j: usize) -> bool {
        self.hot[i].remote == self.hot[j].remote
    }

    /// Whether the target of `p` has a Deflect ready against its source.
    #[inline]
    fn deflect_ready(&self, tally: &Tally, p: &Packet) -> bool {
        self.hot[p.target].can_deflect && tally.deflect_used[p.target] & (1 << p.source) == 0
    }

    /// Whether unit `i` is discarded given `tally` ([`Fight::discarded`],
    /// from the packed numbers).
    #[inline]
    fn gone(&self, tally: &Tally, i: usize) -> bool {
        u32::from(tally.damage[i]) >= self.hot[i].remaining
    }

    /// The decisions of the owner of `p`'s target. Static play has one: its
    /// Deflect to the full back at the source, as much paid Evade as it can
    /// buy. Optimal play has every option: Deflect held or played (its free
    /// part with any worthwhile purchase of its paid parts) at the source,
    /// at no unit or at any other unit in play; any worthwhile purchase of
    /// paid Evade; all within the side's Force. The first option is the
    /// cheapest (kept on ties): holding, then back at the source.
    fn defenses(&self, tally: &Tally, p: &Packet, natural_one: bool) -> Vec<Defense> {
        let a = self.arena;
        let k = &a.units[p.target].keywords;
        if let Some(c) = a
            .committed
            .filter(|_| p.kind == DamageKind::Attack && p.target == a.defending)
        {
            // Cunning: chosen before the roll, paid then.
            let pending = self.after_parry(p, natural_one);
            let deflect = match c.deflect {
                Some((amount, target)) if pending > 0 && self.deflect_ready(tally, p) => {
                    DeflectChoice::Play {
                        amount: amount.min(pending),
                        target,
                    }
                }
                _ => DeflectChoice::Hold,
            };
            return vec![Defense {
                deflect,
                deflect_cost: 0,
                evade: c.evade,
                evade_cost: 0,
            }];
        }
        let left = a.left(tally, a.sides[p.target]);
        let pending = self.after_parry(p, natural_one);
        let stat = a.play == Play::Static;
        let mut deflects = vec![(DeflectChoice::Hold, 0)];
        if pending > 0 && self.deflect_ready(tally, p) {
            let buys = purchases(&k.paid_deflects, pending.saturating_sub(k.deflect), left);
            for &(extra, cost) in played_purchases(&buys, stat) {
                let amount = (k.deflect + extra).min(pending);
                if amount == 0 {
                    continue;
                }
                // Back at the source first (static play's only target, when
                // the source is in the deflector's arena; else nowhere).
                let back = self.same_arena(p.target, p.source);
                let mut targets = vec![back.then_some(p.source)];
                if !stat {
                    if !back || self.gone(tally, p.source) {
                        targets.clear();
                    }
                    targets.push(None);
                    targets.extend(
                        (0..a.units.len())
                            .filter(|&t| {
                                t != p.source
                                    && !self.gone(tally, t)
                                    && self.same_arena(p.target, t)
                            })
                            .map(Some),
                    );
                }
                for target in targets {
                    deflects.push((DeflectChoice::Play { amount, target }, cost));
                }
            }
            if stat {
                deflects.remove(0);
            }
        }
        let mut out = Vec::new();
        for (deflect, deflect_cost) in deflects {
            let played = match deflect {
                DeflectChoice::Play { amount, .. } => amount,
                DeflectChoice::Hold => 0,
            };
            let rest = pending - played;
            let left = left.map(|l| l - deflect_cost);
            let buys = purchases(&k.paid_evades, rest.saturating_sub(k.evade), left);
            for &(evade, evade_cost) in played_purchases(&buys, stat) {
                out.push(Defense {
                    deflect,
                    deflect_cost,
                    evade,
                    evade_cost,
                });
            }
        }
        out
    }

    /// Static play's decision on packet `p` (the first of
    /// [`Self::defenses`], without building the others): the Deflect to
    /// the full back at the source, as much paid Evade as can be bought.
    #[inline]
    fn static_defense(&self, tally: &Tally, p: &Packet, natural_one: bool) -> Defense {
        let a = self.arena;
        if self.plain {
            let deflect = self.hot[p.target].deflect;
            let pending = self.after_parry(p, natural_one);
            let played = if pending > 0 && deflect > 0 && self.deflect_ready(tally, p) {
                deflect.min(pending)
            } else {
                0
            };
            return Defense {
                deflect: if played > 0 {
                    DeflectChoice::Play {
                        amount: played,
                        target: self.same_arena(p.target, p.source).then_some(p.source),
                    }
                } else {
                    DeflectChoice::Hold
                },
                deflect_cost: 0,
                evade: 0,
                evade_cost: 0,
            };
        }
        let k = &a.units[p.target].keywords;
        let left = a.left(tally, a.sides[p.target]);
        let pending = self.after_parry(p, natural_one);
        let most = |paid: &[Paid], cap: u32, left: Option<u32>| -> (u32, u32) {
            if paid.is_empty() || cap == 0 {
                (0, 0)
            } else {
                *purchases(paid, cap, left)
                    .last()
                    .expect("(0, 0) is always a purchase")
            }
        };
        let mut d = Defense {
            deflect: DeflectChoice::Hold,
            deflect_cost: 0,
            evade: 0,
            evade_cost: 0,
        };
        let mut played = 0;
        if pending > 0 && self.deflect_ready(tally, p) {
            let (extra, cost) = most(&k.paid_deflects, pending.saturating_sub(k.deflect), left);
            let amount = (k.deflect + extra).min(pending);
            if amount > 0 {
                d.deflect = DeflectChoice::Play {
                    amount,
                    target: self.same_arena(p.target, p.source).then_some(p.source),
                };
                d.deflect_cost = cost;
                played = amount;
            }
        }
        let rest = pending - played;
        let (evade, cost) = most(
            &k.paid_evades,
            rest.saturating_sub(k.evade),
            left.map(|l| l - d.deflect_cost),
        );
        d.evade = evade;
        d.evade_cost = cost;
        d
    }

    /// Static play of one POP: a toll paid when it can be, every ability to
    /// the full, deflected damage back at its source, depth first. Returns
    /// the tally after placement.
    fn static_pop(
        &self,
        tally: Tally,
        first: Packet,
        natural_one: bool,
        attack_pop: bool,
    ) -> Tally {
        if self.plain {
            return self.static_pop_plain(tally, first, natural_one, attack_pop);
        }
        let mut t = tally;
        let mut landed = Landed::default();
        let mut next = Some(first);
        while let Some(p) = next.take() {
            match self.gate(&t, &p) {
                Gate::Land => {
                    self.land(&mut landed, &p);
                    continue;
                }
                Gate::Gone => continue,
                Gate::Toll(n) => {
                    let payer = self.arena.sides[p.source];
                    if self.arena.left(&t, payer).is_some_and(|l| l < n) {
                        continue;
                    }
                    t.spent[side_index(payer)] += n;
                }
                Gate::Open => {}
            }
            let defense = self.static_defense(&t, &p, natural_one);
            let (q, d) = self.prevent(&mut t, p, natural_one, &defense);
            self.land(&mut landed, &q);
            next = d;
        }
        self.place(&t, &landed, attack_pop)
    }

    /// [`Self::static_pop`] when no unit has a paid ability, a toll,
    /// Protect or all its damage prevented (the common case, kept tight):
    /// Parry, the free Deflect to the full back at the source, the free
    /// Evade.
    fn static_pop_plain(
        &self,
        tally: Tally,
        first: Packet,
        natural_one: bool,
        attack_pop: bool,
    ) -> Tally {
        let mut t = tally;
        let mut landed = Landed::default();
        let mut next = Some(first);
        while let Some(mut p) = next.take() {
            let (hs, ht) = (&self.hot[p.source], &self.hot[p.target]);
            if p.amount == 0 || (hs.ferocity && !ht.fortitude) || self.gone(&t, p.target) {
                self.land(&mut landed, &p);
                continue;
            }
            if p.kind == DamageKind::Attack && natural_one {
                p.amount -= p.amount.min(ht.parry);
            }
            if p.amount > 0 && ht.deflect > 0 && t.deflect_used[p.target] & (1 << p.source) == 0 {
                let d = p.amount.min(ht.deflect);
                p.amount -= d;
                t.deflect_used[p.target] |= 1 << p.source;
                t.used |= used::bit(p.target, used::DEFLECT);
                // Back at the source, when it is in the deflector's arena
                // (else the damage is prevented and goes nowhere).
                next = (hs.remote == ht.remote).then_some(Packet {
                    source: p.target,
                    target: p.source,
                    amount: d,
                    kind: DamageKind::Deflected,
                });
            }
            p.amount -= p.amount.min(ht.evade);
            self.land(&mut landed, &p);
        }
        self.place(&t, &landed, attack_pop)
    }

    /// Optimal play of a POP to its end (branching at each choice: a toll
    /// paid or not by the source's player, every decision of the damaged
    /// unit's owner), then what follows. Not memoized: a table of POPs
    /// (tried) outgrows memory long before it saves time; the search is
    /// bounded by the arena's budget instead.
    fn run(&self, mut pop: Pop, phase: Phase) -> Solved<W> {
        loop {
            // Out of budget: stop searching (the caller reports it).
            let left = self.arena.budget.get();
            if left == 0 {
                return Rc::new((Num::zero(), Vec::new()));
            }
            self.arena.budget.set(left - 1);
            // A deadline passed ends the search like an exhausted budget.
            if left.is_multiple_of(4096) && crate::cancel::expired() {
                self.arena.budget.set(0);
            }
            if pop.len == 0 {
                let tally = self.place(&pop.tally, &pop.landed, phase == 0);
                return self.after(tally, phase);
            }
            pop.len -= 1;
            let p = pop.stack[pop.len];
            pop.stack[pop.len] = NO_PACKET;
            match self.gate(&pop.tally, &p) {
                Gate::Land => {
                    self.land(&mut pop.landed, &p);
                    continue;
                }
                Gate::Gone => continue,
                Gate::Toll(n) => {
                    // The source's player pays (and the packet goes on to
                    // its prevention), or not (and it is prevented).
                    let payer = self.arena.sides[p.source];
                    let mut options = vec![self.run(pop, phase)];
                    if self.arena.left(&pop.tally, payer).is_none_or(|l| l >= n) {
                        let mut paid = pop;
                        paid.tally.spent[side_index(payer)] += n;
                        options.push(self.defend(paid, p, phase));
                    }
                    return Self::best_of(payer, options.into_iter());
                }
                Gate::Open => {}
            }
            let defenses = self.defenses(&pop.tally, &p, pop.natural_one);
            if defenses.len() == 1 {
                self.apply(&mut pop, p, &defenses[0]);
                continue;
            }
            return self.defend(pop, p, phase);
        }
    }

    /// Packet `p` met by its target's owner's decision.
    fn apply(&self, pop: &mut Pop, p: Packet, defense: &Defense) {
        let (q, deflected) = self.prevent(&mut pop.tally, p, pop.natural_one, defense);
        self.land(&mut pop.landed, &q);
        if let Some(d) = deflected {
            pop.stack[pop.len] = d;
            pop.len += 1;
        }
    }

    /// The best of the decisions of `p`'s target's owner, then the rest of
    /// the POP.
    fn defend(&self, pop: Pop, p: Packet, phase: Phase) -> Solved<W> {
        let options: Vec<Pop> = self
            .defenses(&pop.tally, &p, pop.natural_one)
            .iter()
            .map(|d| {
                let mut child = pop;
                self.apply(&mut child, p, d);
                child
            })
            .collect();
        self.best(self.arena.sides[p.target], options, phase)
    }

    /// Places the POP's damage at once: a unit already discarded before
    /// this placement takes nothing. In the attack's POP (`attack_pop`), a
    /// unit discarded with damage from the attacking unit among what was
    /// placed is marked felled (Avenge).
    #[inline]
    fn place(&self, before: &Tally, landed: &Landed, attack_pop: bool) -> Tally {
        let a = self.arena;
        let mut t = *before;
        for i in 0..a.units.len() {
            if landed.incoming[i] > 0 && !self.gone(before, i) {
                t.damage[i] += landed.incoming[i] as u16;
                t.damaged_by |= landed.sources[i];
                if attack_pop && landed.sources[i] & (1 << ATTACKER) != 0 && self.gone(&t, i) {
                    t.felled |= 1 << i;
                }
            }
        }
        t
    }

    /// What follows POP `phase` under optimal play: after the attack's, the
    /// attacker's consolation (a choice); then each ending in turn (a
    /// chance node for dice); the objective at the end.
    fn after(&self, tally: Tally, phase: Phase) -> Solved<W> {
        if phase == 0
            && let Some(t) = self.consolation(&tally)
        {
            let options = [tally, t].into_iter().map(|t| self.ending(t, 0));
            return Self::best_of(Side::Attacking, options);
        }
        // After the attack's POP comes ending 0; after ending k's, ending k + 1.
        self.ending(tally, phase)
    }

    /// Ending `k` and everything after it, under optimal play.
    fn ending(&self, tally: Tally, k: usize) -> Solved<W> {
        let a = self.arena;
        if k == a.endings.len() {
            let objective = self.optimal().expect("optimal play");
            let v = a.objective_value(objective, &tally) + self.offset as i64;
            return Rc::new((Num::from_u64(v as u64), vec![(tally, W::one())]));
        }
        let (weights, denom) = &self.rolls[k];
        if !self.ending_happens(&tally, k) {
            // Nothing to damage: the roll does not matter, so its whole
            // weight goes to what follows.
            let next = self.ending(tally, k + 1);
            if *denom == W::one() {
                return next;
            }
            return Rc::new((
                next.0.mul_ref(&denom.to_num()),
                next.1.iter().map(|(t, w)| (*t, w.mul_ref(denom))).collect(),
            ));
        }
        let mut value = Num::zero();
        let mut tallies = Vec::new();
        for (hits, w) in weights.iter().enumerate() {
            if w.is_zero() {
                continue;
            }
            let pop = Pop::new(tally, &[self.ending_packet(k, hits as u32)], false);
            let child = self.run(pop, k + 1);
            value.add_assign_ref(&child.0.mul_ref(&w.to_num()));
            tallies.extend(child.1.iter().map(|(t, wt)| (*t, wt.mul_ref(w))));
        }
        Rc::new((value, tallies))
    }
}

/// What happens to a packet before its target's owner decides (see
/// [`Resolver::gate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gate {
    Land,
    Gone,
    Toll(u32),
    Open,
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
        self.remaining[i].map(|r| self.tallies.prob(|t| u32::from(t.damage[i]) >= r))
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
    attacker.dice().saturating_sub(defender.keywords.shields)
}

/// The most dice one attack between these two units can roll (the exponent
/// of 6 in every denominator).
pub fn total_dice(attacker: &Unit, defender: &Unit) -> u64 {
    let (a, d) = (&attacker.keywords, &defender.keywords);
    let self_dice = |u: &Unit| {
        u.keywords
            .self_damage
            .iter()
            .filter(|s| s.1)
            .map(|s| s.0 as u64)
            .sum::<u64>()
    };
    attack_dice(attacker, defender) as u64
        + a.fury as u64
        + defender.retaliate_dice() as u64
        + a.backfire as u64
        + self_dice(attacker)
        + self_dice(defender)
        + d.avenge as u64
}

/// The attack roll of `attacker` against `defender` (Shields, Accuracy,
/// Armor and Fury applied).
pub fn roll<W: Weight>(attacker: &Unit, defender: &Unit) -> Joint<Roll, W> {
    attack_roll_tracking::<W>(
        attack_dice(attacker, defender),
        attacker.keywords.accuracy,
        defender.keywords.armor,
        attacker.keywords.fury,
        track(attacker, defender),
    )
}

/// The natural faces the endings and battle plans of this attack read:
/// 2s for the defender's Riposte, 3s for the attacker's Backfire, 5s for
/// its Focus.
pub fn track(attacker: &Unit, defender: &Unit) -> Track {
    Track {
        two: defender.keywords.riposte > 0,
        three: attacker.keywords.backfire > 0,
        five: attacker.keywords.focus > 0,
    }
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
    if roll.entries().iter().any(|(r, _)| roll_flags(r) != 0) {
        // Endings read the roll: keep its flags, merge the rest.
        return roll.map(|r| {
            let s = Strike::from_roll(r, crit);
            Strike {
                hits: s.hits + s.bonus,
                bonus: 0,
                one: s.one && parry,
                flags: s.flags,
            }
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
                flags: 0,
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
    let arena = Fight::duel(attacker, defender);
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
    for u in [attacker, defender] {
        let k = &u.keywords;
        if !k.boosts.is_empty() || k.lucky > 0 || !k.adapt.is_empty() {
            return Err(Error::not_modelled(format!(
                "{}: Lucky, Adapt and options before the roll (Overload, paid boosts) are choices: solve the attack as a game (a Game, or a scenario)",
                u.name
            )));
        }
        let x = k
            .paid_evades
            .iter()
            .chain(&k.paid_deflects)
            .chain(&k.retaliates)
            .any(|p| p.x);
        if x {
            return Err(Error::missing(format!(
                "{}: a cost of X needs a Force budget: solve the attack as a game with one",
                u.name
            )));
        }
    }
    Ok(if fits_u128(total_dice(attacker, defender)) {
        attack_with::<u128>(attacker, defender).convert()
    } else {
        attack_with::<Num>(attacker, defender)
    })
}
