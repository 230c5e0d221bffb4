//! The attack sequence, step by step as in RULES.md.
//!
//! 1. Declare (the defending unit is fixed; Retaliate is activated).
//! 2. Roll `power − Shields` attack dice, plus Fury's extra dice
//!    (`crate::dice::attack_roll`).
//! 3. (Re-roll POP: Lucky, in the [`crate::policy`] module.)
//! 4. Hits go to the defending unit; with Overkill, excess hits may go to one
//!    other unit.
//! 5. Pending damage: hits, plus Critical Hit on a natural 6.
//! 6. Damage-prevention POP, packet by packet (`Packet`): a toll first
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
//! 8. The attack ends (`Ending`): each activated Retaliate is its own roll
//!    of dice of damage to the attacker, a new packet with its own
//!    prevention POP, even if the defending unit was discarded; then the
//!    damage units do to themselves (Overload).
//!
//! Every keyword's effect lives here, once. The choices inside steps 4–8
//! (Overkill's split, playing a Deflect and its target, paying for Evade or
//! a toll, a consolation) are made by the arena's `Play`: `Static` uses
//! everything to the full and deflects back at the source; `Optimal` solves
//! them exactly by minimax on an [`Objective`], with each roll at the end of
//! the attack as a chance node. Force spent is tracked against each side's
//! budget (`Fight::force`).
//! Every step maps an exact [`Joint`] distribution to the next; nothing is
//! sampled.
//!
//! ```
//! use swtcg_engine::attack::attack;
//! use swtcg_engine::keywords::Keyword;
//! use swtcg_engine::unit::Unit;
//!
//! let mut attacker = Unit::new("Trooper", 3);
//! attacker.keywords.set(Keyword::CriticalHit(1));
//! let mut defender = Unit::new("Target", 3);
//! defender.keywords.set(Keyword::Parry(1));
//! defender.health = Some(3);
//! let out = attack(&attacker, &defender).unwrap();
//! assert!(out.defender_damage.sums_to_one());
//! println!("{}", out.defender_damage.mean());
//! ```

pub use crate::dice::Roll;
use crate::dice::{Track, damage_dice};
use crate::dist::{Dist, Joint, Num, Weight, fits_u128};
use crate::error::{Error, Result};
use crate::keywords::Paid;
use crate::unit::Unit;
use num_rational::BigRational;
use std::rc::Rc;

/// Index of the attacking unit in an arena.
pub const ATTACKER: usize = 0;
/// Index of the declared defender in an arena.
pub const DEFENDER: usize = 1;
/// Most units one attack can involve.
pub(crate) const MAX_UNITS: usize = 6;
/// Most packets pending at once in one POP: it starts with at most two (the
/// attack and Overkill packets), and resolving one packet adds at most one
/// (its deflected damage), depth first.
const STACK: usize = 3;

/// What kind of damage a packet carries (RULES.md: an *instance* of damage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum DamageKind {
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
pub(crate) struct Packet {
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
    pub(crate) const EVADE: u32 = 1;
    /// A Deflect was played.
    pub(crate) const DEFLECT: u32 = 2;
    /// Overkill moved hits.
    pub(crate) const OVERKILL: u32 = 4;
    /// A consolation ability put its counters.
    pub(crate) const CONSOLATION: u32 = 8;

    /// The bit for `what` of unit `unit`.
    pub(crate) fn bit(unit: usize, what: u32) -> u32 {
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
    /// (`Fight::damage_bound`); a small tally is a fast one.
    pub damage: [u16; MAX_UNITS],
    /// Bit `i`: unit `i` placed counters on some unit (its Stun lands).
    pub damaged_by: u8,
    /// `deflect_used[i]` bit `s`: unit `i` has used its Deflect against source `s`.
    pub deflect_used: [u8; MAX_UNITS],
    /// Optional abilities used (bits as in the crate's `used` module).
    pub used: u32,
    /// Force spent in the damage steps by each side (see `side_index`).
    pub spent: [u32; 2],
    /// What the roll showed that endings read (bits of the crate's `flags`).
    pub flags: u8,
    /// Bit `i`: unit `i` was discarded in the attack's POP with damage
    /// from the attacking unit among what was placed on it (Avenge).
    pub felled: u8,
}

/// Bits of [`Tally::flags`].
pub(crate) mod flags {
    /// A natural 2 in the final roll (Riposte).
    pub(crate) const TWO: u8 = 1;
    /// A natural 3 in the roll before re-rolls (Backfire).
    pub(crate) const THREE: u8 = 2;
    /// A natural 5 in the roll before re-rolls (Focus).
    pub(crate) const FIVE: u8 = 4;
}

/// The index of a side in per-side arrays: 0 attacking, 1 defending.
pub(crate) fn side_index(side: Side) -> usize {
    match side {
        Side::Attacking => 0,
        Side::Defending => 1,
    }
}

/// Damage done when the attack ends: a Retaliate roll, or damage a unit
/// does to itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Ending {
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
pub(crate) enum Trigger {
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
    /// activated Retaliate (`retaliates`: the unit activating it and its
    /// dice, in order), the defending unit's
    /// Riposte, its side's Avenges (one per unit the attack may discard),
    /// then the damage units do to themselves (the attacker's Backfire,
    /// then Overloads).
    pub(crate) fn of(
        units: &[&Unit],
        sides: &[Side],
        defending: usize,
        retaliates: &[(usize, u32)],
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
            .map(|&(source, r)| {
                ending(
                    source,
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
pub(crate) enum Play {
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
pub(crate) struct Strike {
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
pub(crate) struct Resolved {
    /// Expected objective plus the arena's value offset, times the
    /// denominator of the rolls at the end ([`Fight::end_denom`]).
    pub value: Num,
    /// The law of the final tallies, weights over the same denominator.
    pub tallies: Vec<(Tally, Num)>,
}

impl Strike {
    /// What reaches the damage steps from a final roll, with Critical Hit
    /// `crit` (added on a natural 6, once).
    pub(crate) fn from_roll(r: &Roll, crit: u32) -> Strike {
        Strike {
            hits: r.hits,
            bonus: if r.six { crit } else { 0 },
            one: r.one,
            flags: roll_flags(r),
        }
    }
}

/// The [`flags`] of a roll.
pub(crate) fn roll_flags(r: &Roll) -> u8 {
    (r.two as u8 * flags::TWO) | (r.three as u8 * flags::THREE) | (r.five as u8 * flags::FIVE)
}

/// The units of one attack and how its choices are made.
#[derive(Clone, Debug)]
pub(crate) struct Fight<'a> {
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
    /// Use the tight path of static play when no unit has a paid ability,
    /// a toll, Protect or all its damage prevented (off: the general path,
    /// to check the two agree).
    pub fast_path: bool,
}

/// Most nodes (packets and choices) the optimal play of one attack may
/// visit: scenarios with many units that can all deflect at each other grow
/// exponentially, and are refused rather than left to run for hours.
pub(crate) const MAX_SEARCH_NODES: u64 = 20_000_000;

/// The defending unit's damage prevention chosen before the roll (against
/// Cunning): its Deflect played for up to `amount` at `target` (or held),
/// and paid Evade bought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Committed {
    /// The Deflect: up to this much (free part and paid parts bought), at
    /// this unit (or none); `None` holds it.
    pub deflect: Option<(u32, Option<usize>)>,
    /// Paid Evade bought.
    pub evade: u32,
}

impl<'a> Fight<'a> {
    /// The two-unit arena of `attack`: attacker against defender, static play.
    pub(crate) fn duel(attacker: &'a Unit, defender: &'a Unit) -> Fight<'a> {
        Fight {
            endings: duel_endings(attacker, defender),
            units: vec![attacker, defender],
            sides: vec![Side::Attacking, Side::Defending],
            defending: DEFENDER,
            force: [None, None],
            start: Tally::default(),
            committed: None,
            play: Play::Static,
            budget: std::cell::Cell::new(MAX_SEARCH_NODES),
            fast_path: true,
        }
    }

    /// The Force `side` may still spend after `tally` (`None`: unlimited).
    pub(crate) fn left(&self, tally: &Tally, side: Side) -> Option<u32> {
        let i = side_index(side);
        self.force[i].map(|f| f.saturating_sub(tally.spent[i]))
    }

    /// The denominator of all the rolls at the end of the attack: `6^d`
    /// for `d` dice of damage in all.
    pub(crate) fn end_denom(&self) -> Num {
        Num::pow(6, self.end_dice())
    }

    /// Dice of damage rolled at the end of the attack, in all.
    pub(crate) fn end_dice(&self) -> u32 {
        self.endings
            .iter()
            .filter(|e| e.dice)
            .map(|e| e.amount)
            .sum()
    }

    /// Whether unit `i` is discarded given this attack's tally so far.
    pub(crate) fn discarded(&self, tally: &Tally, i: usize) -> bool {
        let u = self.units[i];
        u.health
            .is_some_and(|h| u.counters + u32::from(tally.damage[i]) >= h)
    }

    /// Damage to unit `i` counted up to its remaining health, when known.
    pub(crate) fn effective_damage(&self, tally: &Tally, i: usize) -> u32 {
        match self.units[i].remaining_health() {
            Some(r) => u32::from(tally.damage[i]).min(r),
            None => u32::from(tally.damage[i]),
        }
    }

    /// The objective's value of a final tally (without any offset).
    pub(crate) fn objective_value(&self, objective: Objective, tally: &Tally) -> i64 {
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
    pub(crate) fn damage_bound(&self) -> u64 {
        damage_bound(
            self.units[ATTACKER],
            self.units[self.defending],
            &self.start,
            &self.endings,
        )
    }

    /// The constant added to every objective value under optimal play, so
    /// that values are never negative (non-zero for Net only).
    pub(crate) fn value_offset(&self) -> u64 {
        match self.play {
            Play::Optimal(Objective::Net) => self.damage_bound() * self.units.len() as u64,
            _ => 0,
        }
    }
}

/// [`Fight::damage_bound`] of an attack by `a` on `d` from `start`, with
/// its `endings`.
fn damage_bound(a: &Unit, d: &Unit, start: &Tally, endings: &[Ending]) -> u64 {
    roll_damage_bound(a, d)
        + start.damage.iter().map(|&x| x as u64).sum::<u64>()
        + endings.iter().map(|e| e.amount as u64).sum::<u64>()
}

/// The part of [`Fight::damage_bound`] that comes with the attack roll:
/// its dice, Fury, Critical Hit, bonus damage and Consolation.
pub(crate) fn roll_damage_bound(a: &Unit, d: &Unit) -> u64 {
    attack_dice(a, d) as u64
        + a.keywords.fury as u64
        + a.keywords.crit as u64
        + a.keywords.bonus_damage as u64
        + a.keywords
            .consolation
            .map_or(0, |(x, y)| x as u64 + y as u64)
}

/// The part of [`Fight::damage_bound`] the endings of a static attack by
/// `attacker` on `defender` can do.
pub(crate) fn duel_endings_damage(attacker: &Unit, defender: &Unit) -> u64 {
    duel_endings(attacker, defender)
        .iter()
        .map(|e| e.amount as u64)
        .sum()
}

/// The endings of one unit's static attack on another ([`Fight::duel`]).
fn duel_endings(attacker: &Unit, defender: &Unit) -> Vec<Ending> {
    // Retaliate doesn't work with attacks from another arena.
    let retaliates: Vec<(usize, u32)> = defender
        .keywords
        .retaliates
        .iter()
        .filter(|_| !attacker.from_another_arena)
        .map(|r| (DEFENDER, r.amount))
        .collect();
    Ending::of(
        &[attacker, defender],
        &[Side::Attacking, Side::Defending],
        DEFENDER,
        &retaliates,
    )
}

/// `Fight::duel(attacker, defender).damage_bound()`, without building the
/// arena: what a table's check that its sums fit machine words, made of
/// [`roll_damage_bound`] and [`duel_endings_damage`], must equal (it
/// asserts so in debug builds).
pub(crate) fn duel_damage_bound(attacker: &Unit, defender: &Unit) -> u64 {
    damage_bound(
        attacker,
        defender,
        &Tally::default(),
        &duel_endings(attacker, defender),
    )
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

    /// The joint law of the counters placed on the defender (rows, from 0)
    /// and on the attacker (columns, from 0): `P(defender = i, attacker =
    /// j)`, exact.
    pub fn joint_damage(&self) -> ndarray::Array2<BigRational> {
        joint_damage(&self.tallies, DEFENDER, ATTACKER)
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
pub(crate) fn attack_dice(attacker: &Unit, defender: &Unit) -> u32 {
    attacker.dice().saturating_sub(defender.keywords.shields)
}

/// The most dice one attack between these two units can roll (the exponent
/// of 6 in every denominator).
pub(crate) fn total_dice(attacker: &Unit, defender: &Unit) -> u64 {
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
pub(crate) fn roll<W: Weight>(attacker: &Unit, defender: &Unit) -> Joint<Roll, W> {
    crate::dice::recent_roll::<W>((
        attack_dice(attacker, defender),
        attacker.keywords.accuracy,
        defender.keywords.armor,
        attacker.keywords.fury,
        track(attacker, defender),
    ))
}

/// The natural faces the endings and battle plans of this attack read:
/// 2s for the defender's Riposte, 3s for the attacker's Backfire, 5s for
/// its Focus.
pub(crate) fn track(attacker: &Unit, defender: &Unit) -> Track {
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
pub(crate) fn strikes<W: Weight>(
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
    let Some(dense) = PlainRoll::of(roll).map(|plain| plain.strikes(crit, parry)) else {
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
    };
    let mut entries = Vec::with_capacity(dense.len());
    for (i, w) in dense.into_iter().enumerate() {
        if !w.is_zero() {
            let s = Strike {
                hits: (i / 2) as u32,
                bonus: 0,
                one: i % 2 == 1,
                flags: 0,
            };
            entries.push((s, w));
        }
    }
    Joint::from_sorted(entries, roll.denom().clone())
}

/// A roll law without flags, by whether a natural 1 and a natural 6 were
/// rolled: `by[one][six][hits]` (zero where no roll lands).
pub(crate) struct PlainRoll<W> {
    by: [[Vec<W>; 2]; 2],
}

impl<W: Weight> PlainRoll<W> {
    /// `None` when endings read the roll (a tracked natural 2, 3 or 5).
    pub(crate) fn of(roll: &Joint<Roll, W>) -> Option<Self> {
        let len = roll.entries().last().map_or(0, |e| e.0.hits as usize) + 1;
        let zeros = || vec![W::zero(); len];
        let mut by = [[zeros(), zeros()], [zeros(), zeros()]];
        for (r, w) in roll.entries() {
            if roll_flags(r) != 0 {
                return None;
            }
            by[r.one as usize][r.six as usize][r.hits as usize].add_assign_ref(w);
        }
        Some(PlainRoll { by })
    }

    /// Step 5 without Overkill: the strikes' weights by `2 · pending +
    /// natural 1`, the pending damage being the hits plus Critical Hit
    /// `crit` on a natural 6, the natural 1 kept only against Parry
    /// (`parry`). Zero where no roll lands.
    pub(crate) fn strikes(&self, crit: u32, parry: bool) -> Vec<W> {
        let len = self.by[0][0].len();
        let mut dense = vec![W::zero(); 2 * (len + crit as usize)];
        for (one, by_six) in self.by.iter().enumerate() {
            let kept = (one == 1 && parry) as usize;
            for (six, by_hits) in by_six.iter().enumerate() {
                let shift = if six == 1 { crit as usize } else { 0 };
                let to = dense[2 * shift + kept..].iter_mut().step_by(2);
                for (d, w) in to.zip(by_hits) {
                    d.add_assign_ref(w);
                }
            }
        }
        dense
    }
}

/// Steps 4–8 of a static attack from a given final roll distribution: the
/// law of the final tallies.
pub(crate) fn resolve_from_roll<W: Weight>(
    attacker: &Unit,
    defender: &Unit,
    roll: &Joint<Roll, W>,
) -> Joint<Tally, W> {
    resolve_from_roll_with(attacker, defender, roll, true)
}

/// `resolve_from_roll`, with the tight path of static play or without
/// it (`fast_path`: see `Fight::fast_path`); the two must agree exactly.
pub(crate) fn resolve_from_roll_with<W: Weight>(
    attacker: &Unit,
    defender: &Unit,
    roll: &Joint<Roll, W>,
    fast_path: bool,
) -> Joint<Tally, W> {
    let mut arena = Fight::duel(attacker, defender);
    arena.fast_path = fast_path;
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

mod resolve;
pub(crate) use resolve::purchases;

/// The joint law of the counters placed on units `rows` and `columns` by
/// an attack's tallies: `P(rows = i, columns = j)`, exact, as a grid.
pub(crate) fn joint_damage<W: Weight>(
    tallies: &Joint<Tally, W>,
    rows: usize,
    columns: usize,
) -> ndarray::Array2<BigRational> {
    let (mut n, mut m) = (0usize, 0usize);
    for (t, _) in tallies.entries() {
        n = n.max(t.damage[rows] as usize + 1);
        m = m.max(t.damage[columns] as usize + 1);
    }
    let zero = BigRational::from_integer(0.into());
    let mut grid = ndarray::Array2::from_elem((n.max(1), m.max(1)), zero);
    let denom = tallies.denom().to_big();
    for (t, w) in tallies.entries() {
        let p = BigRational::new(w.to_big().into(), denom.clone().into());
        grid[(t.damage[rows] as usize, t.damage[columns] as usize)] += p;
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::Num;

    /// The fast path of static play (no paid ability, toll, Protect or
    /// harmless unit) agrees exactly with the general resolver on random
    /// units, Riposte, Backfire and Double Damage included (issue 19: the
    /// fast path is checked, its rules never copied unchecked). 400 cases
    /// from a fixed seed, each law compared tally by tally.
    #[test]
    fn the_fast_path_agrees_with_the_general_resolver() {
        let mut next = crate::dist::xorshift(0x5851_f42d_4c95_7f2d);
        let mut rand = |n: u64| next() % n;
        let mut checked = 0;
        while checked < 400 {
            let mut a = Unit::new("a", rand(25) as u32);
            let k = &mut a.keywords;
            k.accuracy = rand(7) as i32 - 3;
            k.fury = rand(3) as u32;
            k.crit = rand(4) as u32;
            k.ferocity = rand(2) == 0;
            k.stun = rand(3) as u32;
            k.armor = rand(2) == 0;
            k.fortitude = rand(2) == 0;
            k.evade = rand(3) as u32;
            k.deflect = rand(3) as u32;
            k.backfire = rand(2) as u32;
            k.double_damage = rand(2) == 0;
            a.health = (rand(2) == 0).then(|| 1 + rand(7) as u32);
            let mut d = Unit::new("d", 3);
            let k = &mut d.keywords;
            k.armor = rand(2) == 0;
            k.shields = rand(3) as u32;
            k.parry = rand(4) as u32;
            k.evade = rand(3) as u32;
            k.deflect = rand(3) as u32;
            k.set(crate::keywords::Keyword::Retaliate(rand(4) as u32));
            k.fortitude = rand(2) == 0;
            k.riposte = rand(2) as u32;
            d.health = (rand(2) == 0).then(|| 1 + rand(7) as u32);
            if let Some(h) = d.health {
                d.counters = (rand(3) as u32).min(h - 1);
            }
            if a.validate().is_err() || d.validate().is_err() {
                continue;
            }
            let r = roll::<Num>(&a, &d);
            let fast = resolve_from_roll_with(&a, &d, &r, true);
            let general = resolve_from_roll_with(&a, &d, &r, false);
            assert_eq!(fast.prob(|_| true), BigRational::from_integer(1.into()));
            for (t, _) in general.entries().iter().chain(fast.entries()) {
                assert_eq!(
                    fast.prob(|x| x == t),
                    general.prob(|x| x == t),
                    "{t:?}: {a:?} against {d:?}"
                );
            }
            checked += 1;
        }
    }
}
