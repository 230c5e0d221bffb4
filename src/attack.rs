//! The attack sequence, step by step as in RULES.md.
//!
//! 1. Declare (the defender is given; Retaliate is activated).
//! 2. Roll `power − Shields` attack dice, plus Fury's extra dice
//!    ([`crate::dice::attack_roll`]).
//! 3. (Re-roll POP: Lucky, in the `policy` module.)
//! 4. All hits go to the defender.
//! 5. Pending damage: hits, plus Critical Hit on a natural 6.
//! 6. Damage-prevention POP: the damaged unit's Deflect first (the deflected
//!    damage becomes a new packet from the deflecting unit, resolved in the
//!    same POP), then Parry (attack damage only, on a natural 1), then Evade.
//!    Ferocity makes damage unpreventable unless the damaged unit has
//!    Fortitude.
//! 7. Damage is placed, all at once; units whose counters reach their health
//!    are discarded. Stun lands where counters were placed.
//! 8. Retaliate: dice of damage to the attacker, a new packet with its own
//!    prevention POP, even if the defender was discarded.
//!
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
//! // Expected damage: 3/2 from the hits, plus 1 per natural 6, minus the Parry.
//! println!("{}", out.defender_damage.mean());
//! assert!(out.defender_damage.sums_to_one());
//! ```

use crate::dice::{Roll, attack_roll, damage_dice};
use crate::dist::{Dist, Joint, Weight, fits_u128};
use crate::error::Result;
use crate::unit::Unit;
use num_bigint::BigUint;
use num_rational::BigRational;
use std::collections::VecDeque;

/// Index of the attacking unit in an arena.
pub const ATTACKER: usize = 0;
/// Index of the defending unit in an arena.
pub const DEFENDER: usize = 1;
/// Most units one attack can involve.
pub const MAX_UNITS: usize = 8;

/// What kind of damage a packet carries (RULES.md: an *instance* of damage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The running tally of one attack: counters placed on each unit, who placed
/// counters (for Stun), and which Deflects have been used against which
/// source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tally {
    /// Counters this attack placed on each unit (by arena index).
    pub damage: [u32; MAX_UNITS],
    /// Bit `i`: unit `i` placed counters on some unit (its Stun lands).
    pub damaged_by: u8,
    /// `deflect_used[i]` bit `s`: unit `i` has used its Deflect against source `s`.
    pub deflect_used: [u8; MAX_UNITS],
}

/// The units of one attack: index [`ATTACKER`], index [`DEFENDER`], then any
/// others in the arena.
#[derive(Clone, Debug)]
pub struct Arena<'a> {
    /// The units.
    pub units: Vec<&'a Unit>,
}

impl<'a> Arena<'a> {
    /// Whether unit `i` is discarded given this attack's tally so far.
    pub fn discarded(&self, tally: &Tally, i: usize) -> bool {
        let u = self.units[i];
        match u.health {
            Some(h) => u.counters + tally.damage[i] >= h,
            None => false,
        }
    }

    /// One damage-prevention POP: resolve `first` and every packet its
    /// Deflects create, then place all the damage at once. `natural_one`
    /// says whether the attack roll showed a natural 1 (for Parry).
    ///
    /// Static play: every ability is used to the full, and deflected damage
    /// goes back to the source of the packet it came from.
    pub fn prevention_pop(&self, tally: &mut Tally, first: Packet, natural_one: bool) {
        let mut queue = VecDeque::from([first]);
        let mut placed: Vec<Packet> = Vec::new();
        while let Some(mut p) = queue.pop_front() {
            let target = self.units[p.target];
            let source = self.units[p.source];
            let unpreventable = source.keywords.ferocity && !target.keywords.fortitude;
            if !unpreventable && p.amount > 0 && !self.discarded(tally, p.target) {
                let k = &target.keywords;
                let bit = 1u8 << p.source;
                if k.deflect > 0 && tally.deflect_used[p.target] & bit == 0 {
                    let d = p.amount.min(k.deflect);
                    tally.deflect_used[p.target] |= bit;
                    p.amount -= d;
                    queue.push_back(Packet {
                        source: p.target,
                        target: p.source,
                        amount: d,
                        kind: Kind::Deflected,
                    });
                }
                if p.kind == Kind::Attack && natural_one {
                    p.amount -= p.amount.min(k.parry);
                }
                p.amount -= p.amount.min(k.evade);
            }
            placed.push(p);
        }
        self.place(tally, &placed);
    }

    /// Places packets simultaneously: a unit already discarded before this
    /// placement takes nothing.
    fn place(&self, tally: &mut Tally, packets: &[Packet]) {
        let before = *tally;
        for p in packets {
            if p.amount > 0 && !self.discarded(&before, p.target) {
                tally.damage[p.target] += p.amount;
                tally.damaged_by |= 1 << p.source;
            }
        }
    }
}

/// Everything one attack can do, as exact distributions.
#[derive(Clone, Debug)]
pub struct AttackOutcome<W: Weight = BigUint> {
    /// Hits of the final attack roll.
    pub hits: Dist<W>,
    /// Counters placed on the defender by this attack (the attack damage that
    /// got through, plus anything deflected back at it).
    pub defender_damage: Dist<W>,
    /// Counters placed on the attacker (deflected damage plus retaliation).
    pub attacker_damage: Dist<W>,
    /// P(the defender is discarded), when its health is known.
    pub defender_discarded: Option<BigRational>,
    /// P(the attacker is discarded), when its health is known.
    pub attacker_discarded: Option<BigRational>,
    /// P(the attacker placed counters on some unit): its Stun lands.
    pub attacker_stun_lands: BigRational,
    /// P(the defender placed counters on some unit): its Stun lands.
    pub defender_stun_lands: BigRational,
    /// The full joint law of the final tallies.
    pub tallies: Joint<Tally, W>,
}

impl<W: Weight> AttackOutcome<W> {
    /// The same outcome with [`BigUint`] weights.
    pub fn to_big(&self) -> AttackOutcome<BigUint> {
        AttackOutcome {
            hits: self.hits.to_big(),
            defender_damage: self.defender_damage.to_big(),
            attacker_damage: self.attacker_damage.to_big(),
            defender_discarded: self.defender_discarded.clone(),
            attacker_discarded: self.attacker_discarded.clone(),
            attacker_stun_lands: self.attacker_stun_lands.clone(),
            defender_stun_lands: self.defender_stun_lands.clone(),
            tallies: self.tallies.to_big(),
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

/// Steps 4–8 of the attack from a given final roll distribution: pending
/// damage, prevention, placement, Retaliate. Returns the law of the final
/// tallies.
pub fn resolve_from_roll<W: Weight>(
    attacker: &Unit,
    defender: &Unit,
    roll: &Joint<Roll, W>,
) -> Joint<Tally, W> {
    let arena = Arena {
        units: vec![attacker, defender],
    };
    let crit = attacker.keywords.crit;
    // Only the pending damage and the natural 1 matter from here on.
    let pending = roll.map(|r| (r.hits + if r.six { crit } else { 0 }, r.one));
    let after_attack = pending.map(|&(amount, one)| {
        let mut t = Tally::default();
        arena.prevention_pop(
            &mut t,
            Packet {
                source: ATTACKER,
                target: DEFENDER,
                amount,
                kind: Kind::Attack,
            },
            one,
        );
        t
    });
    let r = defender.keywords.retaliate;
    if r == 0 {
        return after_attack;
    }
    let dice = damage_dice::<W>(r, attacker.keywords.armor);
    let dice: Joint<i64, W> = dice.into();
    after_attack.bind(|t| {
        if arena.discarded(t, ATTACKER) {
            return Joint::point(*t);
        }
        dice.map(|&hits| {
            let mut t2 = *t;
            arena.prevention_pop(
                &mut t2,
                Packet {
                    source: DEFENDER,
                    target: ATTACKER,
                    amount: hits as u32,
                    kind: Kind::Retaliate,
                },
                false,
            );
            t2
        })
    })
}

/// The whole attack with weights of type `W`. The caller guarantees that `W`
/// can hold `6^total_dice` (always true for `BigUint`).
pub fn attack_with<W: Weight>(attacker: &Unit, defender: &Unit) -> AttackOutcome<W> {
    let roll = roll::<W>(attacker, defender);
    let hits = roll.marginal(|r| r.hits as i64);
    let tallies = resolve_from_roll(attacker, defender, &roll);
    outcome(attacker, defender, hits, tallies)
}

/// Marginals of a final tally law.
pub fn outcome<W: Weight>(
    attacker: &Unit,
    defender: &Unit,
    hits: Dist<W>,
    tallies: Joint<Tally, W>,
) -> AttackOutcome<W> {
    let arena = Arena {
        units: vec![attacker, defender],
    };
    let discard = |i: usize| {
        arena.units[i]
            .health
            .map(|_| tallies.prob(|t| arena.discarded(t, i)))
    };
    AttackOutcome {
        hits,
        defender_damage: tallies.marginal(|t| t.damage[DEFENDER] as i64),
        attacker_damage: tallies.marginal(|t| t.damage[ATTACKER] as i64),
        defender_discarded: discard(DEFENDER),
        attacker_discarded: discard(ATTACKER),
        attacker_stun_lands: tallies.prob(|t| t.damaged_by & (1 << ATTACKER) != 0),
        defender_stun_lands: tallies.prob(|t| t.damaged_by & (1 << DEFENDER) != 0),
        tallies,
    }
}

/// The exact outcome of `attacker` attacking `defender`, with every static
/// keyword applied. Validates both units first.
pub fn attack(attacker: &Unit, defender: &Unit) -> Result<AttackOutcome> {
    attacker.validate()?;
    defender.validate()?;
    Ok(if fits_u128(total_dice(attacker, defender)) {
        attack_with::<u128>(attacker, defender).to_big()
    } else {
        attack_with::<BigUint>(attacker, defender)
    })
}

/// Expected counters on the defender and P(defender discarded) (if its
/// health is known), the two numbers of a table row, computed on the fastest
/// exact path.
pub fn mean_and_discard(attacker: &Unit, defender: &Unit) -> (BigRational, Option<BigRational>) {
    fn go<W: Weight>(a: &Unit, d: &Unit) -> (BigRational, Option<BigRational>) {
        let roll = roll::<W>(a, d);
        let tallies = resolve_from_roll(a, d, &roll);
        let arena = Arena { units: vec![a, d] };
        let mean = tallies.marginal(|t| t.damage[DEFENDER] as i64).mean();
        let disc = d
            .health
            .map(|_| tallies.prob(|t| arena.discarded(t, DEFENDER)));
        (mean, disc)
    }
    if fits_u128(total_dice(attacker, defender)) {
        go::<u128>(attacker, defender)
    } else {
        go::<BigUint>(attacker, defender)
    }
}
