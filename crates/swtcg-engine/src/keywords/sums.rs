//! A unit's keywords summed ([`Keywords`]): cumulative keywords added up,
//! the abilities the solver prices kept apart with their price ([`Paid`]),
//! and what is not a keyword ([`UnitEffect`]: the options before the roll,
//! [`Boost`] and [`Change`], among them). How each keyword is added, read
//! and lost is the keyword table's (`super`).

use super::{Ability, Keyword, KeywordKind, adapt_abilities};

/// The combat keywords of a unit, with their summed values, and its
/// effects beyond them. Given through [`Keywords::add`] (abilities as
/// printed), [`Keywords::set`], [`Keywords::lose`] and
/// [`Keywords::apply`] (a [`UnitEffect`]); read through
/// [`Keywords::number`], [`Keywords::has`], [`Keywords::paid`],
/// [`Keywords::texts`] and [`Keywords::effects`]. Its fields are the
/// engine's own.
///
/// ```
/// use swtcg_engine::keywords::{Keyword, KeywordKind, Keywords, UnitEffect, parse};
/// let mut k = Keywords::default();
/// k.add(&[parse("Pay 1 Force -> Evade 1").unwrap(), parse("Parry 1").unwrap()]);
/// k.set(Keyword::Parry(2)).apply(UnitEffect::ExtraDamage(1));
/// assert_eq!(k.number(KeywordKind::Parry), 2);
/// assert_eq!(k.number(KeywordKind::Evade), 0);
/// assert_eq!(k.paid(KeywordKind::Evade)[0].cost, 1);
/// assert_eq!(k.effects(), [UnitEffect::ExtraDamage(1)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keywords {
    /// Accuracy X (negative for Accuracy −X): added to each attack die.
    pub(crate) accuracy: i32,
    /// Armor: attack dice against this unit need 5+ (dice of damage too).
    pub(crate) armor: bool,
    /// Shields X: the attacker rolls X fewer attack dice against this unit.
    pub(crate) shields: u32,
    /// Fury X: a natural 4 in the first roll adds X attack dice, once.
    pub(crate) fury: u32,
    /// Critical Hit X: a natural 6 in the final roll adds X damage.
    pub(crate) crit: u32,
    /// Parry X: a natural 1 in the attacker's final roll prevents X attack damage.
    pub(crate) parry: u32,
    /// Evade X without a cost: prevents up to X damage, once per instance
    /// of damage (its paid abilities are in `paid_evades`).
    pub(crate) evade: u32,
    /// Deflect X without a cost: prevents X damage and does that much to a
    /// chosen unit, once per source of damage (its paid abilities are in
    /// `paid_deflects`; all are played together, once per source).
    pub(crate) deflect: u32,
    /// Retaliate abilities, in printed order: each is optional (activated
    /// in the attack POP, a printed cost or `Pay 0 Force`), and each is its
    /// own roll of X dice of damage to the attacker when the attack ends.
    pub(crate) retaliates: Vec<Paid>,
    /// Stun X: a unit this unit damages gets −X power.
    pub(crate) stun: u32,
    /// Ferocity: this unit's damage can't be prevented (unless the damaged
    /// unit has Fortitude).
    pub(crate) ferocity: bool,
    /// Fortitude: this unit can prevent damage from a unit with Ferocity.
    pub(crate) fortitude: bool,
    /// Lucky X: re-roll up to X attack dice once per attack (the defender's
    /// forces the attacker to re-roll).
    pub(crate) lucky: u32,
    /// Overkill: hits beyond the defender's remaining health may go to
    /// another unit.
    pub(crate) overkill: bool,
    /// Intercept: may become the defender of an attack on its side.
    pub(crate) intercept: bool,
    /// The Force its Intercept costs (the cheapest of its Intercepts; 0 for
    /// one without a Force cost, or costing X).
    pub(crate) intercept_cost: u32,
    /// Precision (Elude): this unit's attacks can't be intercepted.
    pub(crate) precision: bool,
    /// Foresight: the effect gained on guessing the hits of this unit's attack.
    pub(crate) foresight: Option<String>,
    /// Forewarning: the effect gained on guessing the hits of an attack on it.
    pub(crate) forewarning: Option<String>,
    /// Stack: the cards that may go beneath this one.
    pub(crate) stack: Vec<String>,
    /// Evade abilities behind a Force cost, played per instance of damage
    /// when their owner pays.
    pub(crate) paid_evades: Vec<Paid>,
    /// Deflect abilities behind a Force cost, played with the free Deflect
    /// when their owner pays (once per source).
    pub(crate) paid_deflects: Vec<Paid>,
    /// Power per damage counter on the unit (`This unit gets -1 power for
    /// each damage counter on it`).
    pub(crate) power_per_counter: i32,
    /// Damage the unit's attack does beyond its hits (no roll needed).
    pub(crate) bonus_damage: u32,
    /// Options its owner may take before the roll (paid in Force, or paid
    /// for by damage to itself): see [`Boost`].
    pub(crate) boosts: Vec<Boost>,
    /// No Intercept may be activated while this unit is attacked.
    pub(crate) no_intercept: bool,
    /// Tolls: each instance of damage from its opponent to this unit is
    /// prevented unless the opponent pays this much Force.
    pub(crate) tolls: Vec<u32>,
    /// All damage from this unit is prevented.
    pub(crate) harmless: bool,
    /// When its attack placed no counters on the defending unit, it may put
    /// `.0` counters on itself and then `.1` on the defending unit.
    pub(crate) consolation: Option<(u32, u32)>,
    /// It rolls half its attack dice, rounded up (a boost taken).
    pub(crate) half_dice: bool,
    /// Damage it does to itself when the attack ends: the amount, and
    /// whether it is dice of damage (Overload taken).
    pub(crate) self_damage: Vec<(u32, bool)>,
    /// Backfire X: a natural 3 in its attack roll before re-rolls: X dice of
    /// damage to itself when the attack ends.
    pub(crate) backfire: u32,
    /// Riposte X: a natural 2 in the final roll of an attack on it: X damage
    /// to the attacker when the attack ends, unless it was discarded.
    pub(crate) riposte: u32,
    /// Double Damage: one more counter on the defending unit per point of
    /// its attack damage not prevented.
    pub(crate) double_damage: bool,
    /// Absorb X (prevention like Evade; the power it gains matters after
    /// the attack).
    pub(crate) absorb: u32,
    /// Persuade X (prevention like Evade; the attacker's power loss matters
    /// after the attack).
    pub(crate) persuade: u32,
    /// Resilience ±X (cumulative): power ±X with at least X counters.
    pub(crate) resilience: i32,
    /// Cunning: the defending unit's damage prevention in its attacks is
    /// played before the dice are seen.
    pub(crate) cunning: bool,
    /// Redirect: when attacked, its player may move the attack to another
    /// of its units.
    pub(crate) redirect: bool,
    /// Protect X: prevents up to X damage to each instance of damage to
    /// another unit of its side.
    pub(crate) protect: u32,
    /// Intimidation: +1 power and health per opposing unit in the arena.
    pub(crate) intimidation: bool,
    /// Inspiration: its side's other units get +1 power and health.
    pub(crate) inspiration: bool,
    /// Focus X: a natural 5 before re-rolls gives +X power for its next
    /// attack (battle plans).
    pub(crate) focus: u32,
    /// Surge X (its effect lasts beyond the attack).
    pub(crate) surge: u32,
    /// Tenacity X: a first attack doing less than X damage is made again
    /// (battle plans).
    pub(crate) tenacity: u32,
    /// Area Damage X: when its attack discards a unit, X dice of damage to
    /// another unit of that arena.
    pub(crate) area_damage: u32,
    /// Avenge X: when an attack discards another unit of its side in its
    /// arena, X dice of damage to the attacker when the attack ends.
    pub(crate) avenge: u32,
    /// Power to attack another arena with: (Bombard: Ground, Ion Cannon:
    /// Space, Barrage: Character), 0 when absent.
    pub(crate) bombard: u32,
    /// Ion Cannon X.
    pub(crate) ion_cannon: u32,
    /// Barrage X.
    pub(crate) barrage: u32,
    /// Adapt: the texts its player chooses one of.
    pub(crate) adapt: Vec<String>,
    /// Abilities behind a Force cost whose use the solver does not price
    /// (`Pay X Force -> Critical Hit X`: the solver prices Force costs of
    /// Evade, Absorb, Persuade, Deflect, Retaliate and Intercept): they do
    /// nothing here, and a unit or game where one could act is refused as
    /// not modelled, never solved as if it were free (one acting only
    /// through another unit of its side, such as Protect, where its side
    /// has another unit).
    pub(crate) unpriced: Vec<Ability>,
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
    /// The keyword it is when its list holds another's (a paid Absorb or
    /// Persuade among the Evades, whose prevention it shares); `None` for
    /// the list's own keyword.
    pub from: Option<KeywordKind>,
}

impl Paid {
    /// An ability without a cost (`Pay 0 Force` when it is activated).
    pub fn free(amount: u32) -> Paid {
        Paid {
            amount,
            cost: 0,
            x: false,
            from: None,
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

/// An effect on a unit beyond its keywords ([`Keywords::apply`]): a
/// standing effect of its card's text, or what an option it took does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnitEffect {
    /// Its power changes by this much per damage counter on it (`This
    /// unit gets -1 power for each damage counter on it`).
    PowerPerCounter(i32),
    /// Its attack does this much damage beyond its hits (no roll needed).
    ExtraDamage(u32),
    /// An option its owner may take before the roll.
    Boost(Boost),
    /// No Intercept may be activated while it is attacked.
    NoIntercept,
    /// Each instance of damage from its opponent to it is prevented unless
    /// the opponent pays this much Force.
    Toll(u32),
    /// All damage from it is prevented.
    Harmless,
    /// When its attack placed no counters on the defending unit, it may put
    /// `own` counters on itself and then `defender` on the defending unit.
    Consolation {
        /// Counters on itself.
        own: u32,
        /// Counters then on the defending unit.
        defender: u32,
    },
    /// It rolls half its attack dice, rounded up.
    HalfDice,
    /// Damage it does to itself when the attack ends.
    SelfDamage {
        /// How much.
        amount: u32,
        /// Whether it is dice of damage (Overload's).
        dice: bool,
    },
}

/// Where a [`Boost`] comes from: the Overload keyword (which a later
/// Overload replaces), or another ability (a card's option, a scenario's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoostSource {
    /// Overload X.
    Overload,
    /// Any other option before the roll.
    #[default]
    Ability,
    /// A keyword behind a fixed Force cost, bought before the roll
    /// (`Pay 1 Force -> Critical Hit 2`): losing the keyword takes it.
    Paid(KeywordKind),
}

/// An option a unit's owner may take before the roll of an attack the unit
/// is in: `Pay 2 Force -> Vader gets +2 power and Stun 2 for this attack`;
/// `When this unit attacks, you may give it +3 power for that attack. If you
/// do, this unit does 2 damage to itself when the attack ends` (Overload);
/// `Pay 3 Force -> Disrupt an attack`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Boost {
    /// Where it comes from: Overload, or another ability.
    pub source: BoostSource,
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
    /// use swtcg_engine::keywords::{KeywordKind, Keywords, Paid};
    /// let k = Keywords::from_abilities(
    ///     &["Parry 1", "Parry 2", "Pay 2 Force -> Evade 2", "Evade 1", "Retaliate 2"].map(|t| parse(t).unwrap()),
    /// );
    /// assert_eq!((k.number(KeywordKind::Parry), k.number(KeywordKind::Evade)), (3, 1));
    /// assert_eq!(k.paid(KeywordKind::Evade), [Paid { cost: 2, ..Paid::free(2) }]);
    /// assert_eq!(k.paid(KeywordKind::Retaliate), [Paid::free(2)]);
    /// ```
    pub fn from_abilities(abilities: &[Ability]) -> Keywords {
        let mut k = Keywords::default();
        k.add(abilities);
        k
    }

    /// Gives it `keyword` in place of what it had of that keyword: it
    /// loses the keyword (its abilities behind a Force cost included), then
    /// gains this one without a cost, unless its number is 0 (`Retaliate
    /// 0` leaves it without Retaliate). Returns itself, to chain.
    pub fn set(&mut self, keyword: Keyword) -> &mut Keywords {
        keyword.kind().lose_from(self);
        if keyword.number() != Some(0) {
            self.add(&[Ability {
                keyword,
                cost: None,
                x: false,
            }]);
        }
        self
    }

    /// Takes `kind` away, as the keyword table says it is lost (the unit
    /// *loses* it), its abilities behind a Force cost included. Returns
    /// itself, to chain.
    pub fn lose(&mut self, kind: KeywordKind) -> &mut Keywords {
        kind.lose_from(self);
        self
    }

    /// Whether it has `kind`, free or behind a Force cost the solver
    /// prices ([`Keywords::paid`]); an Absorb or Persuade is not an Evade
    /// here, though it prevents as one (its paid abilities are among the
    /// Evades', marked by [`Paid::from`]).
    pub fn has(&self, kind: KeywordKind) -> bool {
        let paid = match kind {
            KeywordKind::Evade | KeywordKind::Absorb | KeywordKind::Persuade => {
                let from = (kind != KeywordKind::Evade).then_some(kind);
                self.paid_evades.iter().any(|p| p.from == from)
            }
            _ => !self.paid(kind).is_empty(),
        };
        paid || self.number(kind) != 0
    }

    /// Its abilities of `kind` that the solver prices one by one: Evade's
    /// behind a Force cost (Absorb's and Persuade's among them, marked by
    /// [`Paid::from`]), Deflect's behind a Force cost, and every Retaliate
    /// (a free one at cost 0). Empty for any other keyword.
    pub fn paid(&self, kind: KeywordKind) -> &[Paid] {
        match kind {
            KeywordKind::Evade => &self.paid_evades,
            KeywordKind::Deflect => &self.paid_deflects,
            KeywordKind::Retaliate => &self.retaliates,
            _ => &[],
        }
    }

    /// The texts of a keyword written with a text or a list: Foresight's
    /// or Forewarning's effect, Stack's cards, Adapt's choices. Empty for
    /// any other keyword, or one it lacks.
    pub fn texts(&self, kind: KeywordKind) -> &[String] {
        match kind {
            KeywordKind::Foresight => self.foresight.as_slice(),
            KeywordKind::Forewarning => self.forewarning.as_slice(),
            KeywordKind::Stack => &self.stack,
            KeywordKind::Adapt => &self.adapt,
            _ => &[],
        }
    }

    /// Adds an effect beyond its keywords (counts add up; a later
    /// Consolation replaces an earlier one). Returns itself, to chain.
    ///
    /// ```
    /// use swtcg_engine::keywords::{Keywords, UnitEffect};
    /// let mut k = Keywords::default();
    /// k.apply(UnitEffect::ExtraDamage(1)).apply(UnitEffect::ExtraDamage(2));
    /// k.apply(UnitEffect::Harmless);
    /// assert_eq!(k.effects(), [UnitEffect::ExtraDamage(3), UnitEffect::Harmless]);
    /// ```
    pub fn apply(&mut self, effect: UnitEffect) -> &mut Keywords {
        match effect {
            UnitEffect::PowerPerCounter(n) => {
                self.power_per_counter = self.power_per_counter.saturating_add(n)
            }
            UnitEffect::ExtraDamage(n) => self.bonus_damage = self.bonus_damage.saturating_add(n),
            UnitEffect::Boost(b) => self.boosts.push(b),
            UnitEffect::NoIntercept => self.no_intercept = true,
            UnitEffect::Toll(force) => self.tolls.push(force),
            UnitEffect::Harmless => self.harmless = true,
            UnitEffect::Consolation { own, defender } => self.consolation = Some((own, defender)),
            UnitEffect::HalfDice => self.half_dice = true,
            UnitEffect::SelfDamage { amount, dice } => self.self_damage.push((amount, dice)),
        }
        self
    }

    /// Its effects beyond its keywords, in [`UnitEffect`]'s order, each
    /// count summed: what [`Keywords::apply`] gave it, with the options
    /// its keywords make (Overload, a keyword bought before the roll).
    pub fn effects(&self) -> Vec<UnitEffect> {
        let mut out = Vec::new();
        if self.power_per_counter != 0 {
            out.push(UnitEffect::PowerPerCounter(self.power_per_counter));
        }
        if self.bonus_damage != 0 {
            out.push(UnitEffect::ExtraDamage(self.bonus_damage));
        }
        out.extend(self.boosts.iter().cloned().map(UnitEffect::Boost));
        if self.no_intercept {
            out.push(UnitEffect::NoIntercept);
        }
        out.extend(self.tolls.iter().map(|&t| UnitEffect::Toll(t)));
        if self.harmless {
            out.push(UnitEffect::Harmless);
        }
        if let Some((own, defender)) = self.consolation {
            out.push(UnitEffect::Consolation { own, defender });
        }
        if self.half_dice {
            out.push(UnitEffect::HalfDice);
        }
        out.extend(
            self.self_damage
                .iter()
                .map(|&(amount, dice)| UnitEffect::SelfDamage { amount, dice }),
        );
        out
    }

    /// Its options before the roll ([`UnitEffect::Boost`]s, Overload's
    /// and bought keywords' among them).
    pub fn boosts(&self) -> &[Boost] {
        &self.boosts
    }

    /// Takes away every option before the roll (a unit that can't use
    /// its activated abilities, nor Overload).
    pub fn clear_boosts(&mut self) {
        self.boosts.clear();
    }

    /// Forgets the abilities of `kind` behind a Force cost that are kept
    /// apart from its sums: the options before the roll made of one
    /// ([`Keywords::add`]) and the ones the solver refuses.
    pub(super) fn forget_paid(&mut self, kind: KeywordKind) {
        self.boosts.retain(|b| b.source != BoostSource::Paid(kind));
        self.unpriced.retain(|a| a.keyword.kind() != kind);
    }

    /// Its keywords with every option before the roll taken: what it may
    /// have in an attack, for the checks of what plans and battles don't
    /// model (a Stun an option grants, which they would not see).
    pub(crate) fn with_options(&self) -> Keywords {
        let mut k = self.clone();
        for b in &self.boosts {
            k.add(&b.mine.abilities);
        }
        k
    }

    /// The first ability behind a Force cost the solver refuses wherever
    /// it is (a paid Lucky or Parry, `Pay X Force -> Critical Hit X`); one
    /// acting only through another unit of its side (a paid Protect) is
    /// refused only beside such a unit, by the game.
    ///
    /// With it, why (after the keyword's name): `with a cost of X ...` or
    /// `behind a Force cost ...`.
    pub fn refused(&self) -> Option<(&Ability, &'static str)> {
        let a = self
            .unpriced
            .iter()
            .find(|a| !a.keyword.kind().acts_through_its_side())?;
        let why = if a.cost.as_ref().is_some_and(|c| c.x) {
            "with a cost of X (X is paid for Evade, Absorb, Persuade, Deflect and Retaliate X only)"
        } else {
            "behind a Force cost (paid after the roll, or read after the attack)"
        };
        Some((a, why))
    }

    /// The first Adapt text the solver can't offer as an option, and why
    /// (written to follow the text: ` is not modelled: ...`, `: Evade
    /// behind a Force cost ...`): one that is not a keyword (`Lucky 1, Parry 1`),
    /// or a keyword its table keeps apart rather than adding as printed (a
    /// paid Evade: options are chosen before Adapt applies, so it would be
    /// an option never offered).
    ///
    /// `None` is an option that changes nothing (a text that acts outside
    /// attacks, as the card reader writes it).
    pub fn adapt_refused(&self) -> Option<(&str, String)> {
        self.adapt.iter().find_map(|t| match adapt_abilities(t) {
            Err(e) => Some((t.as_str(), format!(" is not modelled: {e}"))),
            Ok(list) => list.iter().find(|a| !a.adds_as_printed()).map(|a| {
                (
                    t.as_str(),
                    format!(
                        ": {} behind a Force cost is not modelled (when it is paid)",
                        a.keyword.name()
                    ),
                )
            }),
        })
    }

    /// Adds abilities to the sums, each as the keyword table adds it
    /// (`crate::keywords::Keyword::add_to`): cumulative keywords add up,
    /// an Evade or Deflect with a cost other than `Pay 0 Force` is kept
    /// apart with its cost, every Retaliate is its own ability.
    pub fn add(&mut self, abilities: &[Ability]) {
        for a in abilities {
            let kind = a.keyword.kind();
            if a.adds_as_printed() {
                a.keyword.add_to(self, a);
            } else if let Some(cost) = a.force().filter(|_| kind.bought_before_the_roll()) {
                // An option before the roll, for this attack.
                self.boosts.push(Boost {
                    source: BoostSource::Paid(kind),
                    cost,
                    mine: Change {
                        abilities: vec![Ability {
                            cost: None,
                            ..a.clone()
                        }],
                        ..Change::default()
                    },
                    theirs: Change::default(),
                    text: a.to_string(),
                });
            } else {
                self.unpriced.push(a.clone());
            }
        }
    }
}
