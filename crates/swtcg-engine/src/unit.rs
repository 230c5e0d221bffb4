//! Units: power, health, damage counters and typed keywords.
//!
//! A [`Unit`] is what the attack pipeline reads. Its [`Keywords`] hold the
//! summed value of each combat keyword (cumulative keywords such as Accuracy,
//! Critical Hit and Parry add up). [`Unit::validate`] bounds the work: power
//! above [`MAX_POWER`] and other out-of-range numbers are refused with a
//! message naming the unit and the field.

use crate::error::Error;
use crate::keywords::Ability;

/// The largest power (attack dice) the solver accepts.
pub const MAX_POWER: u32 = 1000;
/// The largest value accepted for keywords that add dice (Fury, Retaliate,
/// Lucky).
pub const MAX_EXTRA_DICE: u32 = 100;
/// The largest value accepted for any other keyword number and for health.
pub const MAX_VALUE: u32 = 1000;
/// Most Retaliate abilities one unit may have (each is a choice and a roll).
pub const MAX_RETALIATES: usize = 4;
/// Most paid abilities of one kind (Evade, Deflect, options before the
/// roll, tolls) one unit may have.
pub const MAX_PAID: usize = 4;

/// The work of solving one attack of `dice` attack dice, in units of
/// `(dice + 1)^2` (what the exact pipeline costs, roughly, as dice grow).
pub fn attack_work(dice: u32) -> u64 {
    (dice as u64 + 1).pow(2)
}

/// Most work one command may do with static play (a table): about 3 s at
/// power 1000, far more rows at everyday powers.
pub const MAX_STATIC_WORK: u64 = 2_000_000_000;

/// Most work one command may do with every choice solved (matchups, plans).
pub const MAX_GAME_WORK: u64 = 10_000_000;

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

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Arena::Space => "Space",
            Arena::Ground => "Ground",
            Arena::Character => "Character",
        }
    }

    /// The arenas of a type line (`Ground/Character`, `Space`), in order.
    pub fn of_type(t: &str) -> Vec<Arena> {
        t.split('/').filter_map(Arena::from_word).collect()
    }
}

/// The combat keywords of a unit, with their summed values (0 / `false` =
/// absent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keywords {
    /// Accuracy X (negative for Accuracy −X): added to each attack die.
    pub accuracy: i32,
    /// Armor: attack dice against this unit need 5+ (dice of damage too).
    pub armor: bool,
    /// Shields X: the attacker rolls X fewer attack dice against this unit.
    pub shields: u32,
    /// Fury X: a natural 4 in the first roll adds X attack dice, once.
    pub fury: u32,
    /// Critical Hit X: a natural 6 in the final roll adds X damage.
    pub crit: u32,
    /// Parry X: a natural 1 in the attacker's final roll prevents X attack damage.
    pub parry: u32,
    /// Evade X without a cost: prevents up to X damage, once per instance
    /// of damage (its paid abilities are in `paid_evades`).
    pub evade: u32,
    /// Deflect X without a cost: prevents X damage and does that much to a
    /// chosen unit, once per source of damage (its paid abilities are in
    /// `paid_deflects`; all are played together, once per source).
    pub deflect: u32,
    /// Retaliate abilities, in printed order: each is optional (activated
    /// in the attack POP, a printed cost or `Pay 0 Force`), and each is its
    /// own roll of X dice of damage to the attacker when the attack ends.
    pub retaliates: Vec<Paid>,
    /// Stun X: a unit this unit damages gets −X power.
    pub stun: u32,
    /// Ferocity: this unit's damage can't be prevented (unless the damaged
    /// unit has Fortitude).
    pub ferocity: bool,
    /// Fortitude: this unit can prevent damage from a unit with Ferocity.
    pub fortitude: bool,
    /// Lucky X: re-roll up to X attack dice once per attack (the defender's
    /// forces the attacker to re-roll).
    pub lucky: u32,
    /// Overkill: hits beyond the defender's remaining health may go to
    /// another unit.
    pub overkill: bool,
    /// Intercept: may become the defender of an attack on its side.
    pub intercept: bool,
    /// Precision (Elude): this unit's attacks can't be intercepted.
    pub precision: bool,
    /// Foresight: the effect gained on guessing the hits of this unit's attack.
    pub foresight: Option<String>,
    /// Forewarning: the effect gained on guessing the hits of an attack on it.
    pub forewarning: Option<String>,
    /// Stack: the cards that may go beneath this one.
    pub stack: Vec<String>,
    /// Evade abilities behind a Force cost, played per instance of damage
    /// when their owner pays.
    pub paid_evades: Vec<Paid>,
    /// Deflect abilities behind a Force cost, played with the free Deflect
    /// when their owner pays (once per source).
    pub paid_deflects: Vec<Paid>,
    /// Power per damage counter on the unit (`This unit gets -1 power for
    /// each damage counter on it`).
    pub power_per_counter: i32,
    /// Damage the unit's attack does beyond its hits (no roll needed).
    pub bonus_damage: u32,
    /// Options its owner may take before the roll (paid in Force, or paid
    /// for by damage to itself): see [`Boost`].
    pub boosts: Vec<Boost>,
    /// No Intercept may be activated while this unit is attacked.
    pub no_intercept: bool,
    /// Tolls: each instance of damage from its opponent to this unit is
    /// prevented unless the opponent pays this much Force.
    pub tolls: Vec<u32>,
    /// All damage from this unit is prevented.
    pub harmless: bool,
    /// When its attack placed no counters on the defending unit, it may put
    /// `.0` counters on itself and then `.1` on the defending unit.
    pub consolation: Option<(u32, u32)>,
    /// It rolls half its attack dice, rounded up (a boost taken).
    pub half_dice: bool,
    /// Damage it does to itself when the attack ends: the amount, and
    /// whether it is dice of damage (Overload taken).
    pub self_damage: Vec<(u32, bool)>,
    /// Backfire X: a natural 3 in its attack roll before re-rolls: X dice of
    /// damage to itself when the attack ends.
    pub backfire: u32,
    /// Riposte X: a natural 2 in the final roll of an attack on it: X damage
    /// to the attacker when the attack ends, unless it was discarded.
    pub riposte: u32,
    /// Double Damage: one more counter on the defending unit per point of
    /// its attack damage not prevented.
    pub double_damage: bool,
    /// Absorb X (prevention like Evade; the power it gains matters after
    /// the attack).
    pub absorb: u32,
    /// Persuade X (prevention like Evade; the attacker's power loss matters
    /// after the attack).
    pub persuade: u32,
    /// Resilience ±X (cumulative): power ±X with at least X counters.
    pub resilience: i32,
    /// Cunning: the defending unit's damage prevention in its attacks is
    /// played before the dice are seen.
    pub cunning: bool,
    /// Redirect: when attacked, its player may move the attack to another
    /// of its units.
    pub redirect: bool,
    /// Protect X: prevents up to X damage to each instance of damage to
    /// another unit of its side.
    pub protect: u32,
    /// Intimidation: +1 power and health per opposing unit in the arena.
    pub intimidation: bool,
    /// Inspiration: its side's other units get +1 power and health.
    pub inspiration: bool,
    /// Focus X: a natural 5 before re-rolls gives +X power for its next
    /// attack (battle plans).
    pub focus: u32,
    /// Surge X (its effect lasts beyond the attack).
    pub surge: u32,
    /// Tenacity X: a first attack doing less than X damage is made again
    /// (battle plans).
    pub tenacity: u32,
    /// Area Damage X: when its attack discards a unit, X dice of damage to
    /// another unit of that arena.
    pub area_damage: u32,
    /// Avenge X: when an attack discards another unit of its side in its
    /// arena, X dice of damage to the attacker when the attack ends.
    pub avenge: u32,
    /// Power to attack another arena with: (Bombard: Ground, Ion Cannon:
    /// Space, Barrage: Character), 0 when absent.
    pub bombard: u32,
    /// Ion Cannon X.
    pub ion_cannon: u32,
    /// Barrage X.
    pub barrage: u32,
    /// Adapt: the texts its player chooses one of.
    pub adapt: Vec<String>,
}

/// An activated keyword behind a Force cost: `Pay 2 Force -> Evade 2`, or
/// `Pay X Force -> Evade X` (`x`: the amount is the Force paid, chosen when
/// it is played).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Paid {
    /// The keyword's number (0 when it is X).
    pub amount: u32,
    /// The Force it costs (0 when it is X, or `Pay 0 Force`).
    pub cost: u32,
    /// Amount and cost are X, chosen when played.
    pub x: bool,
}

impl Paid {
    /// An ability without a cost (`Pay 0 Force` when it is activated).
    pub fn free(amount: u32) -> Paid {
        Paid {
            amount,
            cost: 0,
            x: false,
        }
    }

    /// An ability costing `cost` Force.
    pub fn costing(amount: u32, cost: u32) -> Paid {
        Paid {
            amount,
            cost,
            x: false,
        }
    }
}

/// What a [`Boost`] does to one unit for one attack.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Change {
    /// Power change.
    pub power: i32,
    /// Keywords gained for the attack.
    pub abilities: Vec<Ability>,
    /// Extra damage its attack does.
    pub extra_damage: u32,
    /// Damage the unit does to itself when the attack ends, and whether it
    /// is dice of damage.
    pub self_damage: Option<(u32, bool)>,
    /// The attack is cancelled (disrupted): nothing of it happens.
    pub cancel_attack: bool,
    /// Damage counters put on the unit before the roll (negative: removed).
    pub counters: i32,
    /// It rolls half its attack dice, rounded up.
    pub half_dice: bool,
    /// Force its owner gains.
    pub force_gain: u32,
}

impl Change {
    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Change::default()
    }
}

/// An option a unit's owner may take before the roll of an attack the unit
/// is in: `Pay 2 Force -> Vader gets +2 power and Stun 2 for this attack`;
/// `When this unit attacks, you may give it +3 power for that attack. If you
/// do, this unit does 2 damage to itself when the attack ends` (Overload);
/// `Pay 3 Force -> Disrupt an attack`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Boost {
    /// Force it costs.
    pub cost: u32,
    /// What it does to the unit itself.
    pub mine: Change,
    /// What it does to the unit it faces.
    pub theirs: Change,
    /// The ability's text, for reports.
    pub text: String,
}

impl Keywords {
    /// Sums abilities into typed values: cumulative keywords add up; an
    /// Evade or Deflect with a cost other than `Pay 0 Force` is kept apart
    /// with its cost (`paid_*`), and every Retaliate is kept as its own
    /// ability.
    ///
    /// ```
    /// use swtcg_engine::keywords::parse;
    /// use swtcg_engine::unit::{Keywords, Paid};
    /// let k = Keywords::from_abilities(
    ///     &["Parry 1", "Parry 2", "Pay 2 Force -> Evade 2", "Evade 1", "Retaliate 2"].map(|t| parse(t).unwrap()),
    /// );
    /// assert_eq!((k.parry, k.evade), (3, 1));
    /// assert_eq!(k.paid_evades, vec![Paid::costing(2, 2)]);
    /// assert_eq!(k.retaliates, vec![Paid::free(2)]);
    /// ```
    pub fn from_abilities(abilities: &[Ability]) -> Keywords {
        let mut k = Keywords::default();
        k.add(abilities);
        k
    }

    /// Sets one Retaliate X without a printed cost (none for 0), in place
    /// of any others.
    pub fn set_retaliate(&mut self, x: u32) {
        self.retaliates = if x > 0 {
            vec![Paid::free(x)]
        } else {
            Vec::new()
        };
    }

    /// Removes a keyword by name (`Elude` is Precision), as the keyword
    /// table says it is lost: the unit *loses* it. Returns whether the name
    /// is a keyword's.
    pub fn lose(&mut self, name: &str) -> bool {
        crate::keywords::Keyword::lose_from(name, self)
    }

    /// Adds abilities to the sums, each as the keyword table adds it
    /// ([`crate::keywords::Keyword::add_to`]): cumulative keywords add up,
    /// an Evade or Deflect with a cost other than `Pay 0 Force` is kept
    /// apart with its cost, every Retaliate is its own ability.
    pub fn add(&mut self, abilities: &[Ability]) {
        for a in abilities {
            a.keyword.add_to(self, a);
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
    /// use swtcg_engine::unit::Unit;
    /// let mut u = Unit::new("Wounded", 6);
    /// u.health = Some(5);
    /// u.counters = 2;
    /// u.keywords.power_per_counter = -1;
    /// assert_eq!(u.dice(), 4);
    /// u.keywords.half_dice = true;
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
    pub fn retaliate_dice(&self) -> u32 {
        self.keywords.retaliates.iter().map(|r| r.amount).sum()
    }

    /// A unit from its numbers and keyword texts in the cards' wording,
    /// checked against every bound (an unknown or malformed keyword is an
    /// error quoting it).
    ///
    /// ```
    /// use swtcg_engine::unit::Unit;
    /// let u = Unit::from_card_text("Trooper", 4, Some(3), &["Critical Hit 1", "Pay 1 Force -> Evade 1"]).unwrap();
    /// assert_eq!(u.keywords.crit, 1);
    /// assert!(Unit::from_card_text("Trooper", 4, Some(3), &["Parry lots"]).is_err());
    /// ```
    pub fn from_card_text(
        name: &str,
        power: u32,
        health: Option<u32>,
        texts: &[&str],
    ) -> Result<Unit, Error> {
        let abilities = texts
            .iter()
            .map(|t| crate::keywords::parse(t))
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
