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
use crate::dist::{Dist, Joint, Num, Weight, fits_u128};
use crate::error::Result;
use crate::unit::Unit;
use num_rational::BigRational;

/// Index of the attacking unit in an arena.
pub const ATTACKER: usize = 0;
/// Index of the defending unit in an arena.
pub const DEFENDER: usize = 1;
/// Most units one attack can involve.
pub const MAX_UNITS: usize = 6;

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
        let mut incoming = [0u32; MAX_UNITS];
        let mut sources = [0u8; MAX_UNITS];
        self.prevent(tally, first, natural_one, &mut incoming, &mut sources);
        self.place(tally, &incoming, &sources);
    }

    /// Prevention of one packet, then (depth first) of the packet its
    /// target's Deflect creates; what gets through is added to `incoming`.
    fn prevent(
        &self,
        tally: &mut Tally,
        mut p: Packet,
        natural_one: bool,
        incoming: &mut [u32; MAX_UNITS],
        sources: &mut [u8; MAX_UNITS],
    ) {
        let target = self.units[p.target];
        let source = self.units[p.source];
        let unpreventable = source.keywords.ferocity && !target.keywords.fortitude;
        let mut deflected = None;
        if !unpreventable && p.amount > 0 && !self.discarded(tally, p.target) {
            let k = &target.keywords;
            let bit = 1u8 << p.source;
            if k.deflect > 0 && tally.deflect_used[p.target] & bit == 0 {
                let d = p.amount.min(k.deflect);
                tally.deflect_used[p.target] |= bit;
                p.amount -= d;
                deflected = Some(Packet {
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
        if p.amount > 0 {
            incoming[p.target] += p.amount;
            sources[p.target] |= 1 << p.source;
        }
        if let Some(d) = deflected {
            self.prevent(tally, d, false, incoming, sources);
        }
    }

    /// Places the damage of one POP simultaneously: a unit already discarded
    /// before this placement takes nothing.
    fn place(&self, tally: &mut Tally, incoming: &[u32; MAX_UNITS], sources: &[u8; MAX_UNITS]) {
        let before = *tally;
        for i in 0..self.units.len() {
            if incoming[i] > 0 && !self.discarded(&before, i) {
                tally.damage[i] += incoming[i];
                tally.damaged_by |= sources[i];
            }
        }
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

/// Step 5: the law of (pending damage, natural 1) — all that matters of the
/// roll from here on — with Critical Hit `crit` added on a natural 6.
pub fn pending_damage<W: Weight>(roll: &Joint<Roll, W>, crit: u32) -> Joint<(u32, bool), W> {
    let top = roll.entries().last().map_or(0, |e| e.0.hits) + crit;
    let mut dense = vec![W::zero(); 2 * (top as usize + 1)];
    for (r, w) in roll.entries() {
        let pending = r.hits + if r.six { crit } else { 0 };
        dense[2 * pending as usize + r.one as usize].add_assign_ref(w);
    }
    let entries = dense
        .into_iter()
        .enumerate()
        .map(|(i, w)| (((i / 2) as u32, i % 2 == 1), w))
        .collect();
    Joint::from_sorted(entries, roll.denom().clone())
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
    let pending = pending_damage(roll, crit);
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
    let mut pairs = Vec::with_capacity(after_attack.len() * (r as usize + 1));
    for (t, w) in after_attack.entries() {
        if arena.discarded(t, ATTACKER) {
            // Nothing left to damage: the roll does not matter.
            pairs.push((*t, w.mul_ref(dice.denom())));
            continue;
        }
        for (hits, wh) in dice.iter() {
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
            pairs.push((t2, w.mul_ref(wh)));
        }
    }
    Joint::from_pairs(pairs, after_attack.denom().mul_ref(dice.denom()))
}

/// The whole attack with weights of type `W` (which must hold
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
/// keyword applied. Validates both units first.
pub fn attack(attacker: &Unit, defender: &Unit) -> Result<AttackOutcome> {
    attacker.validate()?;
    defender.validate()?;
    Ok(if fits_u128(total_dice(attacker, defender)) {
        attack_with::<u128>(attacker, defender).convert()
    } else {
        attack_with::<Num>(attacker, defender)
    })
}
