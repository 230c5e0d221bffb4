//! Units: power, health, damage counters and typed keywords.
//!
//! A [`Unit`] is what the attack pipeline reads. Its [`Keywords`] hold the
//! summed value of each combat keyword (cumulative keywords such as Accuracy,
//! Critical Hit and Parry add up). [`Unit::validate`] bounds the work: power
//! above `MAX_POWER` and other out-of-range numbers are refused with a
//! message naming the unit and the field.

use crate::error::Error;
use crate::keywords::{KeywordKind, Keywords};

/// The largest power (attack dice) the solver accepts.
pub(crate) const MAX_POWER: u32 = 1000;
/// The largest value accepted for keywords that add dice (Fury, Retaliate,
/// Lucky).
pub const MAX_EXTRA_DICE: u32 = 100;
/// The largest value accepted for any other keyword number and for health.
pub const MAX_VALUE: u32 = 1000;
/// Most Retaliate abilities one unit may have (each is a choice and a roll).
pub(crate) const MAX_RETALIATES: usize = 4;
/// Most paid abilities of one kind (Evade, Deflect, options before the
/// roll, tolls) one unit may have.
pub(crate) const MAX_PAID: usize = 4;

/// The work of solving one attack of `dice` attack dice, in units of
/// `(dice + 1)^2` (what the exact pipeline costs, roughly, as dice grow).
pub(crate) fn attack_work(dice: u32) -> u64 {
    (dice as u64 + 1).pow(2)
}

/// Most work one command may do with static play (a table): about 3 s at
/// power 1000, far more rows at everyday powers.
pub(crate) const MAX_STATIC_WORK: u64 = 2_000_000_000;

/// Most work one command may do with every choice solved (matchups, plans).
pub(crate) const MAX_GAME_WORK: u64 = 10_000_000;

/// The three arenas (the words `space`, `ground`, `character`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Arena {
    /// The Space arena.
    Space,
    /// The Ground arena.
    Ground,
    /// The Character arena.
    Character,
}

impl Arena {
    /// The arena named by a word (`Space`, `ground`, `Characters`).
    pub fn from_word(w: &str) -> Option<Arena> {
        match w.trim().trim_end_matches('s').to_ascii_lowercase().as_str() {
            "space" => Some(Arena::Space),
            "ground" => Some(Arena::Ground),
            "character" => Some(Arena::Character),
            _ => None,
        }
    }

    /// The keyword a unit of another arena attacks this one with, its X
    /// the power it attacks with: Bombard (Ground), Ion Cannon (Space),
    /// Barrage (Character).
    ///
    /// ```
    /// use swtcg_engine::keywords::KeywordKind;
    /// use swtcg_engine::unit::Arena;
    /// assert_eq!(Arena::Ground.attacked_with(), KeywordKind::Bombard);
    /// ```
    pub fn attacked_with(self) -> KeywordKind {
        match self {
            Arena::Ground => KeywordKind::Bombard,
            Arena::Space => KeywordKind::IonCannon,
            Arena::Character => KeywordKind::Barrage,
        }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Arena::Space => "Space",
            Arena::Ground => "Ground",
            Arena::Character => "Character",
        }
    }
}

/// A unit in an attack.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Its name, used in messages and reports.
    pub name: String,
    /// Power: the number of attack dice it rolls.
    pub power: u32,
    /// Health, when known (damage then stops counting at discard).
    pub health: Option<u32>,
    /// Damage counters already on it.
    pub counters: u32,
    /// Its combat keywords.
    pub keywords: Keywords,
    /// It attacks from another arena (Bombard, Ion Cannon, Barrage): the
    /// defender can't Retaliate against it, and no Deflect can send damage
    /// to it (a Deflect reaches only units of the deflector's arena).
    pub from_another_arena: bool,
}

impl Unit {
    /// A unit with the given name and power, unknown health, no keywords.
    pub fn new(name: &str, power: u32) -> Self {
        Unit {
            name: name.to_string(),
            power,
            health: None,
            counters: 0,
            keywords: Keywords::default(),
            from_another_arena: false,
        }
    }

    /// The attack dice it rolls before Shields: its power, with its power
    /// per damage counter (never below 0), halved rounded up when it rolls
    /// half its dice.
    ///
    /// ```
    /// use swtcg_engine::keywords::UnitEffect;
    /// use swtcg_engine::unit::Unit;
    /// let mut u = Unit::new("Wounded", 6);
    /// u.health = Some(5);
    /// u.counters = 2;
    /// u.keywords.apply(UnitEffect::PowerPerCounter(-1));
    /// assert_eq!(u.dice(), 4);
    /// u.keywords.apply(UnitEffect::HalfDice);
    /// assert_eq!(u.dice(), 2);
    /// ```
    pub fn dice(&self) -> u32 {
        let k = &self.keywords;
        let resilience = if k.resilience != 0 && self.counters as i64 >= (k.resilience as i64).abs()
        {
            k.resilience as i64
        } else {
            0
        };
        let p = self.power as i64 + k.power_per_counter as i64 * self.counters as i64 + resilience;
        let p = p.clamp(0, MAX_POWER as i64 * 2) as u32;
        if self.keywords.half_dice {
            p.div_ceil(2)
        } else {
            p
        }
    }

    /// The Retaliate dice of all its abilities together.
    pub(crate) fn retaliate_dice(&self) -> u32 {
        self.keywords.retaliates.iter().map(|r| r.amount).sum()
    }

    /// A unit from its numbers and keyword texts in the cards' wording,
    /// checked against every bound (an unknown or malformed keyword is an
    /// error quoting it).
    ///
    /// ```
    /// use swtcg_engine::keywords::KeywordKind;
    /// use swtcg_engine::unit::Unit;
    /// let u = Unit::from_card_text("Trooper", 4, Some(3), &["Critical Hit 1", "Pay 1 Force -> Evade 1"]).unwrap();
    /// assert_eq!(u.keywords.number(KeywordKind::CriticalHit), 1);
    /// assert_eq!(u.keywords.paid(KeywordKind::Evade).len(), 1);
    /// assert!(Unit::from_card_text("Trooper", 4, Some(3), &["Parry lots"]).is_err());
    /// ```
    pub fn from_card_text(
        name: &str,
        power: u32,
        health: Option<u32>,
        texts: &[impl AsRef<str>],
    ) -> Result<Unit, Error> {
        let abilities = texts
            .iter()
            .map(|t| crate::keywords::parse(t.as_ref()))
            .collect::<Result<Vec<_>, Error>>()
            .map_err(|e| e.at_unit(name))?;
        let mut u = Unit::new(name, power);
        u.health = health;
        u.keywords = Keywords::from_abilities(&abilities);
        u.validate()?;
        Ok(u)
    }

    /// Health minus counters, when health is known.
    pub fn remaining_health(&self) -> Option<u32> {
        self.health.map(|h| h.saturating_sub(self.counters))
    }

    /// Checks every number against its bound; the error names the unit and
    /// the field.
    pub fn validate(&self) -> Result<(), Error> {
        // Quoted only for a message: validation runs before every attack.
        let who = || crate::error::quote(&self.name);
        if self.name.trim().is_empty() {
            return Err(Error::missing("a unit needs a name (it is empty)"));
        }
        if self
            .name
            .chars()
            .any(|c| c.is_control() || crate::error::is_bidi(c))
        {
            return Err(Error::syntax(format!(
                "unit '{}': a name can't hold control or direction characters",
                who()
            )));
        }
        if self.power > MAX_POWER || self.dice() > MAX_POWER {
            return Err(Error::range(format!(
                "power {} is above the limit of {MAX_POWER}",
                self.power.max(self.dice())
            ))
            .at_unit(&self.name));
        }
        if let Some(h) = self.health {
            if h == 0 {
                return Err(Error::range("health must be at least 1").at_unit(&self.name));
            }
            if h > MAX_VALUE {
                return Err(
                    Error::range(format!("health {h} is above the limit of {MAX_VALUE}"))
                        .at_unit(&self.name),
                );
            }
            if self.counters >= h {
                return Err(Error::rules(format!("{} damage counters on a unit with health {h}: it would already be discarded (counters must be below health)", self.counters)).at_unit(&self.name));
            }
        } else if self.counters > 0 {
            return Err(Error::missing("damage counters given without health").at_unit(&self.name));
        }
        self.validate_keywords()
    }

    /// Checks the numbers of its keywords and abilities against their
    /// bounds (see [`Self::validate`]).
    fn validate_keywords(&self) -> Result<(), Error> {
        let k = &self.keywords;
        let retaliate: u32 = k
            .retaliates
            .iter()
            .map(|r| r.amount)
            .fold(0, u32::saturating_add);
        for (name, v) in [
            ("Fury", k.fury),
            ("Retaliate (all abilities)", retaliate),
            ("Lucky", k.lucky),
            ("Backfire", k.backfire),
            ("Avenge", k.avenge),
            ("Area Damage", k.area_damage),
        ] {
            if v > MAX_EXTRA_DICE {
                return Err(Error::range(format!(
                    "{name} {v} is above the limit of {MAX_EXTRA_DICE}"
                ))
                .at_unit(&self.name));
            }
        }
        // A Force cost the solver doesn't price is refused, never solved
        // as free; a paid Protect only where it could act (a game's check).
        if let Some((a, why)) = k.refused() {
            return Err(Error::not_modelled(format!(
                "'{}': {} {why} is not modelled; give it without its cost",
                crate::error::quote(&a.to_string()),
                a.keyword.name(),
            ))
            .at_unit(&self.name));
        }
        let simple = k.paid_evades.is_empty()
            && k.paid_deflects.is_empty()
            && k.retaliates.len() <= 1
            && k.boosts.is_empty()
            && k.tolls.is_empty()
            && k.consolation.is_none()
            && k.self_damage.is_empty();
        let paid_values = k
            .paid_evades
            .iter()
            .chain(&k.paid_deflects)
            .chain(&k.retaliates)
            .flat_map(|p| [p.amount, p.cost]);
        let boost_values = k.boosts.iter().flat_map(|b| {
            [
                b.cost,
                b.mine.extra_damage,
                b.theirs.extra_damage,
                b.mine.force_gain,
            ]
            .into_iter()
            .chain(b.mine.self_damage.map(|s| s.0))
            .chain([b.mine.power.unsigned_abs(), b.theirs.power.unsigned_abs()])
            .chain([
                b.mine.counters.unsigned_abs(),
                b.theirs.counters.unsigned_abs(),
            ])
        });
        let more = k
            .tolls
            .iter()
            .copied()
            .chain(k.consolation.map_or([0, 0], |(a, b)| [a, b]))
            .chain(k.self_damage.iter().map(|s| s.0))
            .chain([k.bonus_damage, k.power_per_counter.unsigned_abs()]);
        let worst = if simple
            && k.bonus_damage <= MAX_VALUE
            && k.power_per_counter.unsigned_abs() <= MAX_VALUE
        {
            k.retaliates.first().map_or(0, |r| r.amount.max(r.cost))
        } else {
            paid_values
                .chain(boost_values)
                .chain(more)
                .max()
                .unwrap_or(0)
        };
        if let Some(v) = Some(worst).filter(|&v| v > MAX_VALUE) {
            return Err(Error::range(format!(
                "a number of its abilities ({v}) is above the limit of {MAX_VALUE}"
            ))
            .at_unit(&self.name));
        }
        for (what, n, most) in [
            ("Retaliate abilities", k.retaliates.len(), MAX_RETALIATES),
            ("paid Evade abilities", k.paid_evades.len(), MAX_PAID),
            ("paid Deflect abilities", k.paid_deflects.len(), MAX_PAID),
            ("options before the roll", k.boosts.len(), MAX_PAID),
            ("tolls", k.tolls.len(), MAX_PAID),
        ] {
            if n > most {
                return Err(
                    Error::limit(format!("{n} {what}; the solver takes at most {most}"))
                        .at_unit(&self.name),
                );
            }
        }
        for (name, v) in [
            ("Shields", k.shields),
            ("Critical Hit", k.crit),
            ("Parry", k.parry),
            ("Evade", k.evade),
            ("Deflect", k.deflect),
            ("Stun", k.stun),
            ("Riposte", k.riposte),
            ("Protect", k.protect),
            ("Focus", k.focus),
            ("Tenacity", k.tenacity),
            ("Surge", k.surge),
            ("Resilience", k.resilience.unsigned_abs()),
            ("Bombard", k.bombard),
            ("Ion Cannon", k.ion_cannon),
            ("Barrage", k.barrage),
        ] {
            if v > MAX_VALUE {
                return Err(
                    Error::range(format!("{name} {v} is above the limit of {MAX_VALUE}"))
                        .at_unit(&self.name),
                );
            }
        }
        if k.accuracy.unsigned_abs() > MAX_VALUE {
            return Err(Error::range(format!(
                "Accuracy {} is outside -{MAX_VALUE}..{MAX_VALUE}",
                k.accuracy
            ))
            .at_unit(&self.name));
        }
        Ok(())
    }
}
