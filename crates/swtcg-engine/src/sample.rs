//! A seeded, reproducible Monte Carlo simulator of static attacks, die by
//! die: the reference simulator for [`crate::verify`], and the per-sequence
//! resolver of the exhaustive oracles (which feed it every face sequence).
//!
//! It reads RULES.md directly and shares no code with the exact engine
//! ([`crate::attack`]), so agreement between the two is evidence, not
//! tautology. It plays the static attack (every ability to the full,
//! deflected damage back at its source) with `simple` Lucky, and it can be
//! made deliberately wrong ([`Variant`]) to show that `verify` catches
//! wrong simulators.
//!
//! ```
//! use swtcg_engine::sample::{Model, Quantity};
//! use swtcg_engine::unit::Unit;
//! let model = Model::new(Unit::new("a", 4), Unit::new("d", 3));
//! let counts = model.sample(Quantity::DefenderDamage, 1000, 42);
//! assert_eq!(counts.values().sum::<u64>(), 1000);
//! // Same seed, same counts.
//! assert_eq!(counts, model.sample(Quantity::DefenderDamage, 1000, 42));
//! ```

use crate::error::{Error, Result};
use crate::unit::Unit;
use std::collections::BTreeMap;

/// xoshiro256** seeded by SplitMix64: small, fast, and the same on every
/// platform and version (so a seed names the same samples forever).
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A fair d6 (rejection sampling: no modulo bias).
    pub fn d6(&mut self) -> i32 {
        loop {
            let x = self.next_u64() >> 61;
            if x < 6 {
                return x as i32 + 1;
            }
        }
    }
}

/// Most trials one `sample` run may simulate.
pub(crate) const MAX_TRIALS: u64 = 100_000_000;
/// Most steps one `sample` run may take in all (trials × (dice + 8) per
/// attack): about 2 s.
pub(crate) const MAX_SAMPLE_WORK: u64 = 300_000_000;

/// A deliberately wrong rule, for testing that `verify` catches it (the
/// words `crit-per-six`, `parry-on-two`, `fury-on-reroll`, `armor-ignored`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Critical Hit added once per natural 6 (the rule: once per attack).
    CritPerSix,
    /// Parry triggered by a natural 2 as well as a 1.
    ParryOnTwo,
    /// Fury triggered by a 4 rolled on a Lucky re-roll.
    FuryOnReroll,
    /// The defender's Armor ignored (hits on 4+).
    ArmorIgnored,
}

/// What a sample counts (the words `hits`, `defender_damage`,
/// `attacker_damage`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// Hits of the final roll.
    Hits,
    /// Counters placed on the defender.
    #[default]
    DefenderDamage,
    /// Counters placed on the attacker.
    AttackerDamage,
}

impl Quantity {}

/// What one attack did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sampled {
    /// Hits of the final roll.
    pub hits: u32,
    /// Counters placed on the defender.
    pub def_dmg: u32,
    /// Counters placed on the attacker.
    pub att_dmg: u32,
    /// The attacker placed counters on some unit (its Stun lands).
    pub att_stun: bool,
    /// The defender placed counters on some unit.
    pub def_stun: bool,
}

impl Sampled {
    /// The value of a quantity.
    pub(crate) fn get(&self, q: Quantity) -> i64 {
        (match q {
            Quantity::Hits => self.hits,
            Quantity::DefenderDamage => self.def_dmg,
            Quantity::AttackerDamage => self.att_dmg,
        }) as i64
    }
}

/// A simulated attack: two units, static play, simple Lucky.
#[derive(Clone, Debug)]
pub struct Model {
    /// The attacker.
    pub attacker: Unit,
    /// The defender.
    pub defender: Unit,
    /// Whether the attacker's Lucky comes first.
    pub attacker_first: bool,
    /// A deliberately wrong rule, if any.
    pub variant: Option<Variant>,
}

fn discarded(u: &Unit, dmg: u32) -> bool {
    u.health.is_some_and(|h| u.counters + dmg >= h)
}

impl Model {
    /// The model of `attacker` attacking `defender`, rules as written.
    pub fn new(attacker: Unit, defender: Unit) -> Model {
        Model {
            attacker,
            defender,
            attacker_first: true,
            variant: None,
        }
    }

    fn need(&self) -> i32 {
        let armor = self.defender.keywords.armor && self.variant != Some(Variant::ArmorIgnored);
        (if armor { 5 } else { 4 }) - self.attacker.keywords.accuracy
    }

    fn hits(&self, faces: &[i32]) -> u32 {
        let need = self.need();
        faces.iter().filter(|&&f| f >= need).count() as u32
    }

    /// [`Self::roll`], with whether the roll before re-rolls (the first roll
    /// and Fury's dice) showed a natural 3.
    pub(crate) fn roll_full(&self, rng: &mut Rng) -> (bool, Vec<i32>) {
        let a = &self.attacker.keywords;
        let n = self
            .attacker
            .dice()
            .saturating_sub(self.defender.keywords.shields);
        let mut faces: Vec<i32> = (0..n).map(|_| rng.d6()).collect();
        let mut fury_done = false;
        if a.fury > 0 && faces.contains(&4) {
            faces.extend((0..a.fury).map(|_| rng.d6()));
            fury_done = true;
        }
        let initial_three = faces.contains(&3);
        let need = self.need();
        let sides = if self.attacker_first {
            [true, false]
        } else {
            [false, true]
        };
        for attacker_side in sides {
            let x = if attacker_side {
                a.lucky
            } else {
                self.defender.keywords.lucky
            };
            if x == 0 {
                continue;
            }
            // Rank of each die in the side's re-roll order (None: not eligible).
            let rank = |f: i32| -> Option<u8> {
                let hit = f >= need;
                match attacker_side {
                    true if !hit => Some(if f == 1 {
                        0
                    } else if f == 6 {
                        2
                    } else {
                        1
                    }),
                    false if hit => Some(if f == 6 {
                        0
                    } else if f == 1 {
                        2
                    } else {
                        1
                    }),
                    _ => None,
                }
            };
            let mut order: Vec<usize> = (0..faces.len())
                .filter(|&i| rank(faces[i]).is_some())
                .collect();
            // Among equal ranks: the attacker's lowest faces first, the
            // defender's highest first.
            order.sort_by_key(|&i| {
                let f = faces[i];
                (rank(f), if attacker_side { f } else { -f })
            });
            order.truncate(x as usize);
            let mut rerolled_four = false;
            for i in order {
                faces[i] = rng.d6();
                rerolled_four |= faces[i] == 4;
            }
            if self.variant == Some(Variant::FuryOnReroll)
                && rerolled_four
                && !fury_done
                && a.fury > 0
            {
                faces.extend((0..a.fury).map(|_| rng.d6()));
                fury_done = true;
            }
        }
        (initial_three, faces)
    }

    /// One whole attack.
    pub(crate) fn one(&self, rng: &mut Rng) -> Sampled {
        let (three, faces) = self.roll_full(rng);
        let n = self.defender.retaliate_dice() + self.attacker.keywords.backfire;
        let r: Vec<i32> = (0..n).map(|_| rng.d6()).collect();
        self.resolve_with(three, &faces, &r)
    }

    /// The model the `sample` command runs for two units given by flags:
    /// refused where the simulator would not play what the exact model
    /// solves (optimal Lucky, or Deflect choices with Lucky), so that
    /// `verify` compares like with like. `lucky_policy_given`: the user
    /// chose the Lucky policy.
    pub fn for_flags(
        a: Unit,
        d: Unit,
        policy: &crate::policy::Policy,
        lucky_policy_given: bool,
        variant: Option<Variant>,
    ) -> Result<Model> {
        use crate::policy::{LuckyOrder, LuckyPolicy};
        let lucky = a.keywords.lucky > 0 || d.keywords.lucky > 0;
        if lucky && (!lucky_policy_given || policy.lucky != LuckyPolicy::Simple) {
            return Err(Error::not_modelled(
                "sample plays simple Lucky only: ask for simple (so that verify compares like with like)",
            )
            .at_param("lucky-policy", None));
        }
        if lucky && (d.keywords.deflect > 0 || a.keywords.deflect > 0) {
            return Err(Error::conflict(
                "with Lucky the exact model plays Deflect optimally, which the sampler does not: drop the Deflect",
            )
            .at_param("deflect", None));
        }
        let attacker_first =
            policy.lucky_order.played(LuckyPolicy::Simple) == LuckyOrder::AttackerFirst;
        let mut model = Model::new(a, d);
        model.attacker_first = attacker_first;
        model.variant = variant;
        Ok(model)
    }

    /// [`Self::sample`], refused before it starts when it would take more
    /// than `MAX_SAMPLE_WORK` steps in all (about 2 s) or no trials.
    pub fn sample_bounded(
        &self,
        quantity: Quantity,
        trials: u64,
        seed: u64,
    ) -> Result<BTreeMap<i64, u64>> {
        let dice = self.attacker.dice() as u64
            + self.attacker.keywords.fury as u64
            + self.attacker.keywords.lucky as u64
            + self.defender.keywords.lucky as u64
            + self.defender.retaliate_dice() as u64
            + self.attacker.keywords.backfire as u64
            // The work of one trial besides its dice.
            + 8;
        if trials == 0 || trials > MAX_TRIALS {
            return Err(
                Error::range(format!("trials must be between 1 and {MAX_TRIALS}"))
                    .at_param("trials", Some(&trials.to_string())),
            );
        }
        if trials.saturating_mul(dice) > MAX_SAMPLE_WORK {
            return Err(Error::limit(format!(
                "{trials} trials of about {dice} steps each is beyond {MAX_SAMPLE_WORK} steps (about 2 s): fewer trials"
            ))
            .at_param("trials", Some(&trials.to_string())));
        }
        Ok(self.sample(quantity, trials, seed))
    }

    /// `trials` attacks from `seed`: outcome of `quantity` → count.
    pub fn sample(&self, quantity: Quantity, trials: u64, seed: u64) -> BTreeMap<i64, u64> {
        let mut rng = Rng::new(seed);
        let mut counts = BTreeMap::new();
        for _ in 0..trials {
            *counts.entry(self.one(&mut rng).get(quantity)).or_insert(0) += 1;
        }
        counts
    }

    /// Resolves one attack with every face known (the final attack faces
    /// and the Retaliate faces, each Retaliate's dice in turn), straight
    /// from RULES.md: two units, every ability to the full (paid ones too),
    /// deflected damage back at its source.
    pub fn resolve(&self, attack_faces: &[i32], end_faces: &[i32]) -> Sampled {
        self.resolve_with(attack_faces.contains(&3), attack_faces, end_faces)
    }

    /// [`Self::resolve`] knowing whether the roll before re-rolls showed a
    /// natural 3 (Backfire); `end_faces` are the dice rolled at the end of
    /// the attack, in order: each Retaliate's, then Backfire's.
    pub(crate) fn resolve_with(
        &self,
        initial_three: bool,
        attack_faces: &[i32],
        end_faces: &[i32],
    ) -> Sampled {
        let (a, d) = (&self.attacker, &self.defender);
        let ak = &a.keywords;
        let dk = &d.keywords;
        let (evade, deflect) = (total_evade, total_deflect);
        let (a_evade, a_deflect, d_evade, d_deflect) = (evade(a), deflect(a), evade(d), deflect(d));
        let h = self.hits(attack_faces);
        let one = attack_faces.contains(&1)
            || (self.variant == Some(Variant::ParryOnTwo) && attack_faces.contains(&2));
        let sixes = attack_faces.iter().filter(|&&f| f == 6).count() as u32;
        let bonus = match (sixes, self.variant) {
            (0, _) => 0,
            (k, Some(Variant::CritPerSix)) => k * ak.crit,
            _ => ak.crit,
        };
        // Can damage from the attacker to the defender (and back) be prevented?
        let def_can_prevent = !ak.ferocity || dk.fortitude;
        let att_can_prevent = !dk.ferocity || ak.fortitude;
        let mut to_def = h + bonus;
        let mut to_att = 0;
        let mut def_deflect_used = false; // against the attacker
        let mut att_deflect_used = false; // against the defender
        let mut deflected = 0;
        let mut back_to_def = 0;
        if def_can_prevent && to_def > 0 {
            // Parry is triggered: it resolves first; then the Deflect
            // reflects what it can of what is left; then Evade.
            if one {
                to_def -= to_def.min(dk.parry);
            }
            if d_deflect > 0 && to_def > 0 {
                deflected = to_def.min(d_deflect);
                to_def -= deflected;
                def_deflect_used = true;
            }
            to_def -= to_def.min(d_evade);
        }
        if deflected > 0 {
            let mut y = deflected;
            let mut back = 0;
            if att_can_prevent {
                if a_deflect > 0 {
                    back = y.min(a_deflect);
                    y -= back;
                    att_deflect_used = true;
                }
                y -= y.min(a_evade);
            }
            to_att += y;
            if back > 0 {
                // Source: the attacker; the defender's Deflect is spent on it.
                if def_can_prevent {
                    back -= back.min(d_evade);
                }
                to_def += back;
                back_to_def = back;
            }
        }
        // Double Damage: one more counter per point of the attack damage
        // that got through (not the damage deflected back).
        let mut def_dmg = if ak.double_damage {
            2 * to_def - back_to_def
        } else {
            to_def
        };
        let mut att_dmg = to_att;
        // Who placed counters: in the attack's POP the attacker placed what
        // reached the defender, the defender what reached the attacker.
        let mut att_stun = to_def > 0;
        let mut def_stun = to_att > 0;
        // The end of the attack, in order: each Retaliate (its own roll of
        // dice of damage), Riposte (fixed damage, only if the defender is
        // still there), then Backfire (dice of damage to itself). Retaliate
        // and Riposte share one source (the defender): the attacker's
        // Deflect works on one of them at most.
        let need = if ak.armor { 5 } else { 4 };
        let mut faces = end_faces;
        let mut take = |n: u32| -> u32 {
            let (mine, rest) = faces.split_at((n as usize).min(faces.len()));
            faces = rest;
            mine.iter().filter(|&&f| f >= need).count() as u32
        };
        let mut from_defender: Vec<u32> = dk.retaliates.iter().map(|r| take(r.amount)).collect();
        let riposte = dk.riposte > 0 && attack_faces.contains(&2);
        if riposte {
            from_defender.push(u32::MAX);
        }
        for r in from_defender {
            let mut r = if r == u32::MAX {
                // Riposte: not if the defender was discarded.
                if discarded(d, def_dmg) {
                    continue;
                }
                dk.riposte
            } else {
                r
            };
            if discarded(a, att_dmg) {
                continue;
            }
            let mut back = 0;
            let mut again = 0;
            if att_can_prevent && r > 0 {
                if a_deflect > 0 && !att_deflect_used {
                    back = r.min(a_deflect);
                    r -= back;
                    att_deflect_used = true;
                }
                r -= r.min(a_evade);
            }
            if back > 0 && !discarded(d, def_dmg) {
                if def_can_prevent {
                    if d_deflect > 0 && !def_deflect_used {
                        again = back.min(d_deflect);
                        back -= again;
                        def_deflect_used = true;
                    }
                    back -= back.min(d_evade);
                }
                if again > 0 && att_can_prevent {
                    // Source: the defender again; the attacker's Deflect is spent.
                    again -= again.min(a_evade);
                }
                def_dmg += back;
                att_stun |= back > 0;
            }
            att_dmg += r + again;
            def_stun |= r + again > 0;
        }
        if ak.backfire > 0 && initial_three {
            let r = take(ak.backfire);
            if !discarded(a, att_dmg) && r > 0 {
                let landed = own_damage(a, r, a_deflect, a_evade);
                att_dmg += landed;
                att_stun |= landed > 0;
            }
        }
        Sampled {
            hits: h,
            def_dmg,
            att_dmg,
            att_stun,
            def_stun,
        }
    }
}

/// A unit's Evade, its paid parts bought.
fn total_evade(u: &Unit) -> u32 {
    u.keywords.evade + u.keywords.paid_evades.iter().map(|p| p.amount).sum::<u32>()
}

/// A unit's Deflect, its paid parts bought.
fn total_deflect(u: &Unit) -> u32 {
    u.keywords.deflect
        + u.keywords
            .paid_deflects
            .iter()
            .map(|p| p.amount)
            .sum::<u32>()
}

/// What lands of `r` damage a unit does to itself (Backfire): its Deflect
/// (against itself as a source) sends it back at itself, a new instance;
/// its Evade works on each.
fn own_damage(a: &Unit, mut r: u32, a_deflect: u32, a_evade: u32) -> u32 {
    let ak = &a.keywords;
    if ak.ferocity && !ak.fortitude {
        return r;
    }
    let mut again = 0;
    if a_deflect > 0 {
        again = r.min(a_deflect);
        r -= again;
    }
    r -= r.min(a_evade);
    again -= again.min(a_evade);
    r + again
}
