//! Card wording to typed keywords.
//!
//! A keyword is written as on the cards: its name and number (`Parry 3`,
//! `Critical Hit 4`, `Accuracy -1`), optionally behind a cost
//! (`Pay 2 Force -> Evade 2`, with `->`, `-->` or `→`). [`parse`] turns one
//! such text into an [`Ability`]; `Keywords::from_abilities` sums them into
//! the typed values the attack pipeline reads.
//!
//! ```
//! use swtcg_engine::keywords::{parse, Keyword};
//! let a = parse("Pay 2 Force -> Evade 2").unwrap();
//! assert_eq!(a.keyword, Keyword::Evade(2));
//! assert_eq!(a.cost.unwrap().force, Some(2));
//! assert_eq!(parse("Elude").unwrap().keyword, Keyword::Precision);
//! assert!(parse("Parry lots").is_err());
//! ```

use crate::error::{Error, Result};
use std::fmt;

mod sums;
pub use sums::{Boost, BoostSource, Change, Keywords, Paid, UnitEffect};

/// When a keyword acts: while its unit attacks, defends, or in any attack
/// it takes part in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum When {
    /// This unit is the attacker.
    Attacking,
    /// This unit is the defender.
    Defending,
    /// Either.
    Any,
}

/// How a keyword's value is written after its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Nothing (`Armor`).
    None,
    /// A whole number from 0, or X with a cost of X (`Parry 3`).
    Count,
    /// A whole number, possibly negative (`Accuracy -1`).
    Signed,
    /// `: [effect]` (`Foresight: Gain 2 Force.`).
    Text,
    /// A whole number written with its sign (`Resilience +1`).
    SignedPlus,
    /// `: [list]` of names, comma-separated (`Stack: A, B and C`).
    ListComma,
    /// `: [list]` of texts, slash-separated (`Adapt: Evade 1/Parry 1`).
    ListSlash,
}

/// The one declaration of every keyword: its variant and value, its name
/// (and older names), how its value is written, whether several add up,
/// when it acts, how it is added to a unit's [`Keywords`] and how the unit
/// loses it. Every list of keywords (the enum, names, display, parsing,
/// adding, losing, timing) is generated from it.
macro_rules! keyword_table {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $(($arg:ty))? = $name:literal $(| $alias:literal)*, $value:ident,
            cumulative: $cum:literal, when: $when:ident,
            get: $get:expr, add: $add:expr, lose: $lose:expr;
    )*) => {
        /// One combat keyword with its value.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Keyword {
            $($(#[doc = $doc])* $variant $(($arg))?,)*
        }

        /// Which keyword, without its value (`Critical Hit`, whatever its
        /// number): what a card loses, or asks a unit to have.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum KeywordKind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl KeywordKind {
            /// Every keyword, in the table's order.
            pub const ALL: &[KeywordKind] = &[$(KeywordKind::$variant,)*];

            /// Its name as printed.
            pub fn name(self) -> &'static str {
                match self {
                    $(KeywordKind::$variant => $name,)*
                }
            }

            /// The keyword a name (or an older name) means, in any case.
            pub fn from_name(name: &str) -> Option<KeywordKind> {
                let canonical = NAMES
                    .iter()
                    .find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))
                    .map(|(_, c, _)| *c)?;
                KeywordKind::ALL.iter().copied().find(|k| k.name() == canonical)
            }

            /// Takes it away from a unit's keywords (the unit *loses* it),
            /// its abilities behind a Force cost included (an option
            /// before the roll made of it, one the solver refuses).
            pub(crate) fn lose_from(self, k: &mut Keywords) {
                match self {
                    $(KeywordKind::$variant => {
                        let f: fn(&mut Keywords) = $lose;
                        f(k)
                    })*
                }
                k.forget_paid(self);
            }
        }

        impl Keywords {
            /// What it has of `kind`, as one number: a count's sum or a
            /// signed keyword's (0 when it has none), 1 or 0 for a keyword
            /// without a number (`Armor`) or with a text (`Foresight`), the
            /// items of a list (`Stack`, `Adapt`). For Evade, Deflect,
            /// Absorb and Persuade, the free ones (Absorb and Persuade
            /// prevent as Evade does, but are not counted as Evade here),
            /// those behind a Force cost apart ([`Keywords::paid`]); for
            /// Retaliate, the dice of them all (X counting 0); for
            /// Overload, the power its options give.
            ///
            /// ```
            /// use swtcg_engine::keywords::{Keyword, KeywordKind, Keywords};
            /// let mut k = Keywords::default();
            /// k.set(Keyword::CriticalHit(2)).set(Keyword::Armor).set(Keyword::Accuracy(-1));
            /// assert_eq!(k.number(KeywordKind::CriticalHit), 2);
            /// assert_eq!(k.number(KeywordKind::Accuracy), -1);
            /// assert!(k.has(KeywordKind::Armor) && !k.has(KeywordKind::Parry));
            /// ```
            pub fn number(&self, kind: KeywordKind) -> i64 {
                match kind {
                    $(KeywordKind::$variant => {
                        let f: fn(&Keywords) -> i64 = $get;
                        f(self)
                    })*
                }
            }
        }

        /// Serialised as its name (`"Critical Hit"`).
        impl serde::Serialize for KeywordKind {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl std::fmt::Display for KeywordKind {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        /// Every keyword's name as printed, with its older names, and how
        /// its value is written.
        pub const NAMES: &[(&str, &str, Value)] = &[
            $(($name, $name, Value::$value), $(($alias, $name, Value::$value),)*)*
        ];

        impl Keyword {
            /// The keyword's name as printed.
            pub fn name(&self) -> &'static str {
                match self {
                    $(keyword_table!(@pat $variant $value) => $name,)*
                }
            }

            /// How its value is written.
            pub(crate) fn value_kind(&self) -> Value {
                match self {
                    $(keyword_table!(@pat $variant $value) => Value::$value,)*
                }
            }

            /// Whether several of it add up (Critical Hit 1 and Critical
            /// Hit 2 are Critical Hit 3).
            pub fn cumulative(&self) -> bool {
                match self {
                    $(keyword_table!(@pat $variant $value) => $cum,)*
                }
            }

            /// When it acts.
            pub fn when(&self) -> When {
                match self {
                    $(keyword_table!(@pat $variant $value) => When::$when,)*
                }
            }

            /// Adds it (as `ability` printed it, its cost included) to a
            /// unit's keywords.
            pub(crate) fn add_to(&self, k: &mut Keywords, ability: &Ability) {
                match self {
                    $(keyword_table!(@bind $variant $value) => {
                        let f: fn(&mut Keywords, &Keyword, &Ability) = $add;
                        f(k, self, ability)
                    })*
                }
            }

            /// Which keyword it is, without its value.
            pub fn kind(&self) -> KeywordKind {
                match self {
                    $(keyword_table!(@pat $variant $value) => KeywordKind::$variant,)*
                }
            }

            /// Builds a keyword from its name and value as read.
            fn build(name: &str, v: Read) -> Keyword {
                $(if name == $name {
                    return keyword_table!(@make $variant v $value);
                })*
                unreachable!("every name of NAMES is built with its value kind")
            }

            /// Its number: a count's or a signed keyword's (`None` for the
            /// others).
            pub fn number(&self) -> Option<i64> {
                match self {
                    $(keyword_table!(@bind_x $variant x $value) => keyword_table!(@num x $value),)*
                }
            }

            /// The same keyword with its number replaced (keywords without a
            /// number are unchanged): `Evade X` once X is known.
            pub fn with_number(&self, n: u32) -> Keyword {
                match self {
                    $(keyword_table!(@bind_x $variant x $value) => keyword_table!(@with $variant x n $value),)*
                }
            }

            /// One example of every keyword (for tests and documentation).
            pub fn examples() -> Vec<Keyword> {
                vec![$(keyword_table!(@example $variant $value),)*]
            }
        }
    };
    (@bind_x $variant:ident $x:ident None) => { Keyword::$variant };
    (@bind_x $variant:ident $x:ident $kind:ident) => { Keyword::$variant($x) };
    (@num $x:ident Count) => { Some(*$x as i64) };
    (@num $x:ident Signed) => { Some(*$x as i64) };
    (@num $x:ident SignedPlus) => { Some(*$x as i64) };
    (@num $x:ident None) => { None };
    (@num $x:ident $kind:ident) => {{ let _ = $x; None }};
    (@with $variant:ident $x:ident $n:ident None) => { Keyword::$variant };
    (@with $variant:ident $x:ident $n:ident Count) => {{ let _ = $x; Keyword::$variant($n) }};
    (@with $variant:ident $x:ident $n:ident Signed) => {{ let _ = $x; Keyword::$variant($n as i32) }};
    (@with $variant:ident $x:ident $n:ident SignedPlus) => {{ let _ = $x; Keyword::$variant($n as i32) }};
    (@with $variant:ident $x:ident $n:ident $kind:ident) => { Keyword::$variant($x.clone()) };
    (@pat $variant:ident None) => { Keyword::$variant };
    (@pat $variant:ident $kind:ident) => { Keyword::$variant(_) };
    (@bind $variant:ident None) => { Keyword::$variant };
    (@bind $variant:ident $kind:ident) => { Keyword::$variant(_) };
    (@make $variant:ident $v:ident None) => { Keyword::$variant };
    (@make $variant:ident $v:ident Count) => {
        match $v { Read::Count(x) => Keyword::$variant(x), _ => unreachable!("a count") }
    };
    (@make $variant:ident $v:ident Signed) => {
        match $v { Read::Signed(x) => Keyword::$variant(x), _ => unreachable!("a signed number") }
    };
    (@make $variant:ident $v:ident SignedPlus) => {
        match $v { Read::Signed(x) => Keyword::$variant(x), _ => unreachable!("a signed number") }
    };
    (@make $variant:ident $v:ident Text) => {
        match $v { Read::Text(x) => Keyword::$variant(x), _ => unreachable!("a text") }
    };
    (@make $variant:ident $v:ident $kind:ident) => {
        match $v { Read::List(x) => Keyword::$variant(x), _ => unreachable!("a list") }
    };
    (@example $variant:ident None) => { Keyword::$variant };
    (@example $variant:ident Count) => { Keyword::$variant(2) };
    (@example $variant:ident Signed) => { Keyword::$variant(-1) };
    (@example $variant:ident SignedPlus) => { Keyword::$variant(1) };
    (@example $variant:ident Text) => { Keyword::$variant("Gain 2 Force".into()) };
    (@example $variant:ident $kind:ident) => { Keyword::$variant(vec!["Evade 1".into(), "Parry 1".into()]) };
}

/// A keyword's value as read.
enum Read {
    None,
    Count(u32),
    Signed(i32),
    Text(String),
    List(Vec<String>),
}

/// The number of a count keyword (0 for X, or another kind).
fn n(k: &Keyword) -> u32 {
    k.number().unwrap_or(0).max(0) as u32
}

/// The signed number of a keyword.
fn s(k: &Keyword) -> i32 {
    k.number()
        .unwrap_or(0)
        .clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

impl KeywordKind {
    /// Whether the solver prices a Force cost for it: the prevention played
    /// per instance or per source of damage (Evade, and Absorb and
    /// Persuade, which prevent as Evade does; Deflect), Retaliate activated
    /// at the declare step, and Intercept. Any other keyword behind a Force
    /// cost (`Pay 1 Force -> Critical Hit 1`) is kept apart
    /// ([`Keywords::unpriced`]): when such a cost is paid is not modelled.
    pub(crate) fn prices_force(self) -> bool {
        matches!(
            self,
            KeywordKind::Evade
                | KeywordKind::Absorb
                | KeywordKind::Persuade
                | KeywordKind::Deflect
                | KeywordKind::Retaliate
                | KeywordKind::Intercept
        )
    }

    /// Whether, behind a fixed Force cost, it is an option taken in the
    /// attack POP, before the roll (a [`Boost`]): the POPs after the roll
    /// are reserved for re-rolls and damage prevention (the glossary,
    /// Hidden Cost), and each of these is read only from the roll on, by
    /// the attack itself. Not Lucky (a re-roll), Parry and Protect
    /// (prevention), nor a keyword read before the options or after the
    /// attack (Intercept and Precision, arena powers, Stun, Focus, Surge,
    /// Tenacity, Intimidation, Area Damage, Overload's own option).
    pub(crate) fn bought_before_the_roll(self) -> bool {
        matches!(
            self,
            KeywordKind::Accuracy
                | KeywordKind::Armor
                | KeywordKind::Shields
                | KeywordKind::Fury
                | KeywordKind::CriticalHit
                | KeywordKind::Overkill
                | KeywordKind::Ferocity
                | KeywordKind::Fortitude
                | KeywordKind::Backfire
                | KeywordKind::Riposte
                | KeywordKind::DoubleDamage
                | KeywordKind::Resilience
                | KeywordKind::Cunning
        )
    }

    /// Whether it acts only through another unit of its side (Protect,
    /// Redirect, Avenge, Inspiration): alone on its side, it does nothing.
    pub(crate) fn acts_through_its_side(self) -> bool {
        matches!(
            self,
            KeywordKind::Protect
                | KeywordKind::Redirect
                | KeywordKind::Avenge
                | KeywordKind::Inspiration
        )
    }
}

/// Adds an Absorb or Persuade (`kind`, its sum `own`): prevention as an
/// Evade's, paid apart when it has a cost (with its kind, so that losing
/// it takes its paid part).
fn evade_like(
    k: &mut Keywords,
    kw: &Keyword,
    a: &Ability,
    kind: KeywordKind,
    own: fn(&mut Keywords) -> &mut u32,
) {
    if a.is_paid() || a.x {
        k.paid_evades.push(Paid {
            from: Some(kind),
            ..priced(kw, a)
        })
    } else {
        let x = own(k);
        *x = x.saturating_add(n(kw));
        k.evade = k.evade.saturating_add(n(kw));
    }
}

/// Takes an Absorb or Persuade away: its part of the Evade sum and its
/// paid abilities.
fn lose_evade_like(k: &mut Keywords, kind: KeywordKind, own: fn(&mut Keywords) -> &mut u32) {
    let x = std::mem::take(own(k));
    k.evade = k.evade.saturating_sub(x);
    k.paid_evades.retain(|p| p.from != Some(kind))
}

/// A paid ability's price and amount (X when its cost or number is X).
fn priced(k: &Keyword, a: &Ability) -> Paid {
    Paid {
        amount: if a.x { 0 } else { n(k) },
        cost: a.force().unwrap_or(0),
        x: a.x || a.force().is_none(),
        from: None,
    }
}

keyword_table! {
    /// Accuracy X (or −X): added to each attack die.
    Accuracy(i32) = "Accuracy", Signed, cumulative: true, when: Attacking,
        get: |k| k.accuracy as i64,
        add: |k, kw, _| k.accuracy = k.accuracy.saturating_add(s(kw)),
        lose: |k| k.accuracy = 0;
    /// Armor: attack dice and dice of damage need 5+.
    Armor = "Armor", None, cumulative: false, when: Any,
        get: |k| k.armor as i64,
        add: |k, _, _| k.armor = true, lose: |k| k.armor = false;
    /// Shields X: X fewer attack dice against this unit.
    Shields(u32) = "Shields", Count, cumulative: true, when: Defending,
        get: |k| k.shields as i64,
        add: |k, kw, _| k.shields = k.shields.saturating_add(n(kw)), lose: |k| k.shields = 0;
    /// Fury X: X more attack dice on a natural 4 in the first roll.
    Fury(u32) = "Fury", Count, cumulative: true, when: Attacking,
        get: |k| k.fury as i64,
        add: |k, kw, _| k.fury = k.fury.saturating_add(n(kw)), lose: |k| k.fury = 0;
    /// Critical Hit X: X more damage on a natural 6.
    CriticalHit(u32) = "Critical Hit", Count, cumulative: true, when: Attacking,
        get: |k| k.crit as i64,
        add: |k, kw, _| k.crit = k.crit.saturating_add(n(kw)), lose: |k| k.crit = 0;
    /// Parry X: prevent X attack damage on a natural 1.
    Parry(u32) = "Parry", Count, cumulative: true, when: Defending,
        get: |k| k.parry as i64,
        add: |k, kw, _| k.parry = k.parry.saturating_add(n(kw)), lose: |k| k.parry = 0;
    /// Evade X: prevent up to X damage, once per instance.
    Evade(u32) = "Evade", Count, cumulative: true, when: Any,
        get: |k| k.evade.saturating_sub(k.absorb.saturating_add(k.persuade)) as i64,
        add: |k, kw, a| {
            if a.is_paid() || a.x {
                k.paid_evades.push(priced(kw, a))
            } else {
                k.evade = k.evade.saturating_add(n(kw))
            }
        },
        lose: |k| {
            k.evade = k.absorb.saturating_add(k.persuade);
            k.paid_evades.retain(|p| p.from.is_some())
        };
    /// Deflect X: prevent X and do it to a unit of the owner's choice.
    Deflect(u32) = "Deflect", Count, cumulative: true, when: Any,
        get: |k| k.deflect as i64,
        add: |k, kw, a| {
            if a.is_paid() || a.x {
                k.paid_deflects.push(priced(kw, a))
            } else {
                k.deflect = k.deflect.saturating_add(n(kw))
            }
        },
        lose: |k| {
            k.deflect = 0;
            k.paid_deflects.clear()
        };
    /// Overkill: excess hits may go to another unit.
    Overkill = "Overkill", None, cumulative: false, when: Attacking,
        get: |k| k.overkill as i64,
        add: |k, _, _| k.overkill = true, lose: |k| k.overkill = false;
    /// Retaliate X: X dice of damage to the attacker when the attack ends.
    Retaliate(u32) = "Retaliate", Count, cumulative: false, when: Defending,
        get: |k| k.retaliates.iter().map(|p| p.amount as i64).sum(),
        add: |k, kw, a| k.retaliates.push(priced(kw, a)), lose: |k| k.retaliates.clear();
    /// Stun X: a unit this one damages gets −X power.
    Stun(u32) = "Stun", Count, cumulative: true, when: Any,
        get: |k| k.stun as i64,
        add: |k, kw, _| k.stun = k.stun.saturating_add(n(kw)), lose: |k| k.stun = 0;
    /// Lucky X: re-roll up to X attack dice, once per attack.
    Lucky(u32) = "Lucky", Count, cumulative: true, when: Any,
        get: |k| k.lucky as i64,
        add: |k, kw, _| k.lucky = k.lucky.saturating_add(n(kw)), lose: |k| k.lucky = 0;
    /// Ferocity: this unit's damage can't be prevented.
    Ferocity = "Ferocity", None, cumulative: false, when: Any,
        get: |k| k.ferocity as i64,
        add: |k, _, _| k.ferocity = true, lose: |k| k.ferocity = false;
    /// Fortitude: can prevent damage from Ferocity.
    Fortitude = "Fortitude", None, cumulative: false, when: Any,
        get: |k| k.fortitude as i64,
        add: |k, _, _| k.fortitude = true, lose: |k| k.fortitude = false;
    /// Intercept: may become the defender of an attack on its side.
    Intercept = "Intercept", None, cumulative: false, when: Defending,
        get: |k| k.intercept as i64,
        add: |k, _, a| {
            let cost = a.force().unwrap_or(0);
            k.intercept_cost = if k.intercept { k.intercept_cost.min(cost) } else { cost };
            k.intercept = true
        },
        lose: |k| {
            k.intercept = false;
            k.intercept_cost = 0
        };
    /// Precision (old name Elude): can't be intercepted.
    Precision = "Precision" | "Elude", None, cumulative: false, when: Attacking,
        get: |k| k.precision as i64,
        add: |k, _, _| k.precision = true, lose: |k| k.precision = false;
    /// Foresight: \[effect\]: guess the attack's hits to gain the effect.
    Foresight(String) = "Foresight", Text, cumulative: false, when: Attacking,
        get: |k| k.foresight.is_some() as i64,
        add: |k, kw, _| k.foresight = kw.text().map(str::to_string), lose: |k| k.foresight = None;
    /// Forewarning: \[effect\]: the defender's twin of Foresight.
    Forewarning(String) = "Forewarning", Text, cumulative: false, when: Defending,
        get: |k| k.forewarning.is_some() as i64,
        add: |k, kw, _| k.forewarning = kw.text().map(str::to_string), lose: |k| k.forewarning = None;
    /// Stack: \[list\]: the listed cards may go beneath this one.
    Stack(Vec<String>) = "Stack", ListComma, cumulative: true, when: Any,
        get: |k| k.stack.len() as i64,
        add: |k, kw, _| k.stack.extend(kw.list().iter().cloned()), lose: |k| k.stack.clear();
    /// Backfire X: a natural 3 in the roll before re-rolls: X dice of damage
    /// to itself when the attack ends.
    Backfire(u32) = "Backfire", Count, cumulative: true, when: Attacking,
        get: |k| k.backfire as i64,
        add: |k, kw, _| k.backfire = k.backfire.saturating_add(n(kw)), lose: |k| k.backfire = 0;
    /// Riposte X: a natural 2 in the final roll against it: X damage to the
    /// attacker when the attack ends (not if it was discarded).
    Riposte(u32) = "Riposte", Count, cumulative: true, when: Defending,
        get: |k| k.riposte as i64,
        add: |k, kw, _| k.riposte = k.riposte.saturating_add(n(kw)), lose: |k| k.riposte = 0;
    /// Double Damage: one more counter on the defending unit per point of
    /// the attack's damage not prevented.
    DoubleDamage = "Double Damage", None, cumulative: false, when: Attacking,
        get: |k| k.double_damage as i64,
        add: |k, _, _| k.double_damage = true, lose: |k| k.double_damage = false;
    /// Overload X: when it attacks, it may take +X power; then X dice of
    /// damage to itself when the attack ends.
    Overload(u32) = "Overload", Count, cumulative: false, when: Attacking,
        get: |k| k.boosts.iter()
            .filter(|b| b.source == BoostSource::Overload)
            .map(|b| b.mine.power as i64)
            .sum(),
        add: |k, kw, _| {
            let x = n(kw);
            k.boosts.push(Boost {
                source: BoostSource::Overload,
                cost: 0,
                mine: Change {
                    power: x.min(i32::MAX as u32) as i32,
                    self_damage: Some((x, true)),
                    ..Change::default()
                },
                theirs: Change::default(),
                text: format!("Overload {x}"),
            })
        },
        lose: |k| k.boosts.retain(|b| b.source != BoostSource::Overload);
    /// Absorb X: prevent up to X damage (and gain that much power for the
    /// next attack).
    Absorb(u32) = "Absorb", Count, cumulative: true, when: Any,
        get: |k| k.absorb as i64,
        add: |k, kw, a| evade_like(k, kw, a, KeywordKind::Absorb, |k| &mut k.absorb),
        lose: |k| lose_evade_like(k, KeywordKind::Absorb, |k| &mut k.absorb);
    /// Persuade X: prevent up to X damage (and the attacker loses that much
    /// power for its next attack).
    Persuade(u32) = "Persuade", Count, cumulative: true, when: Any,
        get: |k| k.persuade as i64,
        add: |k, kw, a| evade_like(k, kw, a, KeywordKind::Persuade, |k| &mut k.persuade),
        lose: |k| lose_evade_like(k, KeywordKind::Persuade, |k| &mut k.persuade);
    /// Resilience ±X: power ±X as long as it has at least X damage counters.
    Resilience(i32) = "Resilience", SignedPlus, cumulative: true, when: Any,
        get: |k| k.resilience as i64,
        add: |k, kw, _| k.resilience = k.resilience.saturating_add(s(kw)),
        lose: |k| k.resilience = 0;
    /// Cunning: the defender's damage prevention is played before it sees
    /// the dice.
    Cunning = "Cunning", None, cumulative: false, when: Attacking,
        get: |k| k.cunning as i64,
        add: |k, _, _| k.cunning = true, lose: |k| k.cunning = false;
    /// Redirect: when attacked, its player may move the attack to another
    /// of its units.
    Redirect = "Redirect", None, cumulative: false, when: Defending,
        get: |k| k.redirect as i64,
        add: |k, _, _| k.redirect = true, lose: |k| k.redirect = false;
    /// Protect X: prevent up to X damage to one of its player's other units,
    /// once per instance.
    Protect(u32) = "Protect", Count, cumulative: true, when: Any,
        get: |k| k.protect as i64,
        add: |k, kw, _| k.protect = k.protect.saturating_add(n(kw)), lose: |k| k.protect = 0;
    /// Intimidation: +1 power and +1 health for each opposing unit in the
    /// arena.
    Intimidation = "Intimidation", None, cumulative: false, when: Any,
        get: |k| k.intimidation as i64,
        add: |k, _, _| k.intimidation = true, lose: |k| k.intimidation = false;
    /// Inspiration: its player's other units in the arena get +1 power and
    /// +1 health.
    Inspiration = "Inspiration", None, cumulative: false, when: Any,
        get: |k| k.inspiration as i64,
        add: |k, _, _| k.inspiration = true, lose: |k| k.inspiration = false;
    /// Focus X: a natural 5 in the roll before re-rolls: +X power for its
    /// next attack.
    Focus(u32) = "Focus", Count, cumulative: true, when: Attacking,
        get: |k| k.focus as i64,
        add: |k, kw, _| k.focus = k.focus.saturating_add(n(kw)), lose: |k| k.focus = 0;
    /// Surge X: when damaged, +X power to a unit of its player's choice
    /// until the end of the turn.
    Surge(u32) = "Surge", Count, cumulative: true, when: Any,
        get: |k| k.surge as i64,
        add: |k, kw, _| k.surge = k.surge.saturating_add(n(kw)), lose: |k| k.surge = 0;
    /// Tenacity X: its first attack of a turn doing less than X damage may
    /// attack the same target again.
    Tenacity(u32) = "Tenacity", Count, cumulative: true, when: Attacking,
        get: |k| k.tenacity as i64,
        add: |k, kw, _| k.tenacity = k.tenacity.saturating_add(n(kw)), lose: |k| k.tenacity = 0;
    /// Area Damage X: when its attack discards a unit, X dice of damage to
    /// another unit of that arena.
    AreaDamage(u32) = "Area Damage", Count, cumulative: true, when: Attacking,
        get: |k| k.area_damage as i64,
        add: |k, kw, _| k.area_damage = k.area_damage.saturating_add(n(kw)),
        lose: |k| k.area_damage = 0;
    /// Avenge X: when an attack discards one of its player's other units in
    /// its arena, X dice of damage to the attacker when the attack ends.
    Avenge(u32) = "Avenge", Count, cumulative: true, when: Any,
        get: |k| k.avenge as i64,
        add: |k, kw, _| k.avenge = k.avenge.saturating_add(n(kw)), lose: |k| k.avenge = 0;
    /// Bombard X: may attack a Ground unit with X power.
    Bombard(u32) = "Bombard", Count, cumulative: true, when: Attacking,
        get: |k| k.bombard as i64,
        add: |k, kw, _| k.bombard = k.bombard.saturating_add(n(kw)), lose: |k| k.bombard = 0;
    /// Ion Cannon X: may attack a Space unit with X power.
    IonCannon(u32) = "Ion Cannon", Count, cumulative: true, when: Attacking,
        get: |k| k.ion_cannon as i64,
        add: |k, kw, _| k.ion_cannon = k.ion_cannon.saturating_add(n(kw)),
        lose: |k| k.ion_cannon = 0;
    /// Barrage X: may attack a Character with X power.
    Barrage(u32) = "Barrage", Count, cumulative: true, when: Attacking,
        get: |k| k.barrage as i64,
        add: |k, kw, _| k.barrage = k.barrage.saturating_add(n(kw)), lose: |k| k.barrage = 0;
    /// Adapt: \[a/b/...\]: its player chooses one of the texts for the turn.
    Adapt(Vec<String>) = "Adapt", ListSlash, cumulative: false, when: Any,
        get: |k| k.adapt.len() as i64,
        add: |k, kw, _| k.adapt = kw.list().to_vec(), lose: |k| k.adapt.clear();
}

impl Keyword {
    /// The text of a text keyword (Foresight's effect).
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Keyword::Foresight(e) | Keyword::Forewarning(e) => Some(e),
            _ => None,
        }
    }

    /// The items of a list keyword (Stack's cards, Adapt's texts).
    pub(crate) fn list(&self) -> &[String] {
        match self {
            Keyword::Stack(l) | Keyword::Adapt(l) => l,
            _ => &[],
        }
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match (self.value_kind(), self.number()) {
            (Value::None, _) => f.write_str(name),
            (Value::SignedPlus, Some(x)) => write!(f, "{name} {x:+}"),
            (Value::Count | Value::Signed, Some(x)) => write!(f, "{name} {x}"),
            (Value::Text, _) => write!(f, "{name}: {}", self.text().unwrap_or("")),
            (Value::ListComma, _) => write!(f, "{name}: {}", self.list().join(", ")),
            (Value::ListSlash, _) => write!(f, "{name}: {}", self.list().join("/")),
            _ => f.write_str(name),
        }
    }
}

/// The cost in front of an ability (`Pay 2 Force -> ...`), in a keyword
/// text or a card's text: Force, or something else (tapping, discarding,
/// damage counters, build points), as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Cost {
    /// The cost as written.
    pub text: String,
    /// The Force to pay, when the cost is `Pay N Force` and nothing else.
    pub force: Option<u32>,
    /// The cost is `Pay X Force` (X chosen when played).
    pub x: bool,
}

impl Cost {
    /// Whether the cost is nothing at all (`Pay 0 Force`): such an ability is
    /// the same as one without a cost.
    pub(crate) fn is_free(&self) -> bool {
        self.force == Some(0) && !self.x
    }

    /// Whether the cost is Force and nothing else (N or X).
    pub fn force_only(&self) -> bool {
        self.force.is_some() || self.x
    }

    /// Reads a cost: Force (`Pay 2 Force`, `Pay 2`, `2 Force pay`, `Pay X
    /// Force`) or something else (tap, discard, counters, build points,
    /// kept as written). A Force cost whose number can't be read (`Pay
    /// 99999999999 Force`) is an error, never free.
    pub fn read(text: &str) -> std::result::Result<Cost, String> {
        let lower = text.to_ascii_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let other = Cost {
            text: text.trim().to_string(),
            force: None,
            x: false,
        };
        let n = match words.as_slice() {
            ["pay", n, "force"] | ["pay", n] | [n, "force", "pay"] => *n,
            _ => return Ok(other),
        };
        if n == "x" {
            return Ok(Cost { x: true, ..other });
        }
        if !n.chars().all(|c| c.is_ascii_digit()) {
            return Ok(other);
        }
        let v = n.parse::<u32>().map_err(|_| {
            format!(
                "a cost of {} Force is above the largest the solver reads",
                crate::error::quote(n)
            )
        })?;
        Ok(Cost {
            force: Some(v),
            ..other
        })
    }
}

/// Splits `COST -> EFFECT` at the first arrow outside parentheses and
/// quotes: `->`, `-->`, `- >` (as the plugin writes them) or `→`. An
/// arrow after a colon is not the text's: a cost has no colon, so it is an
/// item's of a list after a keyword (`Adapt: Fury 4/Pay 1 Force -> Evade
/// 2`, `Switch: ...`, `Reserves: Tap -> ...`).
///
/// ```
/// use swtcg_engine::keywords::split_cost;
/// assert_eq!(split_cost("Pay 2 Force -> Evade 2"), (Some("Pay 2 Force"), "Evade 2"));
/// assert_eq!(split_cost("Tap → Protect 1"), (Some("Tap"), "Protect 1"));
/// assert_eq!(split_cost("Pay 1 - > Evade 1"), (Some("Pay 1"), "Evade 1"));
/// assert_eq!(split_cost("Parry 1"), (None, "Parry 1"));
/// let adapt = "Adapt: Fury 4/Pay 1 Force -> Evade 2";
/// assert_eq!(split_cost(adapt), (None, adapt));
/// ```
pub fn split_cost(text: &str) -> (Option<&str>, &str) {
    let mut depth = 0i32;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' => depth += 1,
            ')' => depth -= 1,
            ':' if depth == 0 && !quoted => return (None, text),
            '-' | '→' if depth == 0 && !quoted => {
                let rest = &text[i..];
                for arrow in ["-->", "->", "- >", "→"] {
                    if let Some(after) = rest.strip_prefix(arrow) {
                        return (Some(text[..i].trim()), after.trim());
                    }
                }
            }
            _ => {}
        }
    }
    (None, text)
}

/// The keywords one Adapt text gives: a keyword (`Evade 1`), a list of
/// them (`Lucky 1, Parry 1`), or none (`None`: an option that changes
/// nothing in an attack). A text that is neither is the whole text's
/// error.
pub(crate) fn adapt_abilities(text: &str) -> Result<Vec<Ability>> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    match parse(text) {
        Ok(a) => Ok(vec![a]),
        Err(e) => text
            .split(", ")
            .map(parse)
            .collect::<Result<Vec<_>>>()
            .map_err(|_| e),
    }
}

/// A keyword, with its cost if it has one (then it is optional).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ability {
    /// The keyword.
    pub keyword: Keyword,
    /// Its activation cost, if any.
    pub cost: Option<Cost>,
    /// Its number is X, the Force paid for it (`Pay X Force -> Evade X`):
    /// the keyword's own number is then 0.
    pub x: bool,
}

impl Ability {
    /// Whether using it costs Force (`Pay 2 Force`, `Pay X Force`; not
    /// `Pay 0 Force`, nor a cost in something else).
    pub(crate) fn costs_force(&self) -> bool {
        self.cost
            .as_ref()
            .is_some_and(|c| c.x || c.force.is_some_and(|f| f > 0))
    }

    /// Whether its keyword's own table adds it, cost and all: no Force
    /// cost, or one the solver prices for that keyword (a cost of X pays
    /// for a number of X, `Pay X Force -> Evade X`, never for a fixed one
    /// or none, `Pay X Force -> Intercept`). Otherwise [`Keywords::add`]
    /// makes it an option before the roll or keeps it unpriced.
    pub(crate) fn adds_as_printed(&self) -> bool {
        let x_cost = self.cost.as_ref().is_some_and(|c| c.x);
        !self.costs_force() || (self.keyword.kind().prices_force() && (self.x || !x_cost))
    }

    /// Whether using it is a choice with a price (a cost other than
    /// `Pay 0 Force`).
    pub(crate) fn is_paid(&self) -> bool {
        self.cost.as_ref().is_some_and(|c| !c.is_free())
    }

    /// The Force it costs: `Some(n)` for `Pay n Force` (0 without a cost or
    /// with a cost in something else than Force), `None` for `Pay X Force`.
    pub fn force(&self) -> Option<u32> {
        match &self.cost {
            Some(c) if c.x => None,
            Some(c) => Some(c.force.unwrap_or(0)),
            None => Some(0),
        }
    }
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = if self.x {
            format!("{} X", self.keyword.name())
        } else {
            self.keyword.to_string()
        };
        match &self.cost {
            Some(c) => write!(f, "{} -> {k}", c.text),
            None => write!(f, "{k}"),
        }
    }
}

/// The keyword names and older names, longest first (so that `Critical
/// Hit` wins over shorter prefixes).
fn names_longest_first() -> &'static [(&'static str, &'static str, Value)] {
    static SORTED: std::sync::OnceLock<Vec<(&str, &str, Value)>> = std::sync::OnceLock::new();
    SORTED.get_or_init(|| {
        let mut v = NAMES.to_vec();
        v.sort_by_key(|(n, _, _)| std::cmp::Reverse(n.len()));
        v
    })
}

/// Each of [`NAMES`]' names lowered, as letters, and its number of words.
fn lowered_names() -> &'static [(crate::error::Letters, usize)] {
    static LOWERED: std::sync::OnceLock<Vec<(crate::error::Letters, usize)>> =
        std::sync::OnceLock::new();
    LOWERED.get_or_init(|| {
        NAMES
            .iter()
            .map(|(n, _, _)| {
                (
                    crate::error::Letters::of(&n.to_lowercase()),
                    n.split_whitespace().count(),
                )
            })
            .collect()
    })
}

/// Parses one keyword text, such as `Parry 3`, `Accuracy -1`,
/// `Pay 1 Force -> Deflect 1`, `Foresight: Gain 2 Force.`. The error quotes
/// the text and says what is wrong. A number may be X only when the cost is
/// `Pay X Force` (see [`parse_with_x`]).
pub fn parse(text: &str) -> Result<Ability> {
    parse_inner(text, false)
}

/// [`parse`], also taking X for the number whatever the cost (`Fury X`,
/// where X is given by the card's text or the user): the ability then has
/// `x` set and number 0.
pub fn parse_with_x(text: &str) -> Result<Ability> {
    parse_inner(text, true)
}

fn parse_inner(text: &str, any_x: bool) -> Result<Ability> {
    let bad = |why: &str| {
        Error::syntax(format!(
            "keyword '{}': {why}",
            crate::error::quote(text.trim())
        ))
    };
    let trimmed = text.trim().trim_end_matches('.').trim();
    if trimmed.is_empty() {
        return Err(bad("empty keyword"));
    }
    let (cost, effect) = split_cost(trimmed);
    if effect.is_empty() {
        return Err(bad("nothing after the cost"));
    }
    let cost = match cost {
        None => None,
        Some(c) => Some(Cost::read(c).map_err(|why| bad(&why))?),
    };
    let x_cost = cost.as_ref().is_some_and(|c| c.x) || any_x;
    let lower = effect.to_ascii_lowercase();
    let &(name, canonical, kind) = names_longest_first()
        .iter()
        .find(|(n, _, _)| {
            // `lower` starts with the name lowered (no allocation: `lower`
            // is lowered already, and ASCII lowering keeps every length).
            lower
                .as_bytes()
                .get(..n.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(n.as_bytes()))
                && lower[n.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c == ':' || c == '-' || c == '+')
        })
        .ok_or_else(|| {
            // The keyword names nearest to as many of its first words (each
            // head, and each name, lowered once: the card reader tries
            // every clause of a card's text as a keyword first).
            let words: Vec<&str> = effect.split_whitespace().collect();
            let mut heads: Vec<Option<crate::error::Letters>> = Vec::new();
            let mut rows = crate::error::Rows::default();
            let mut near: Vec<&str> = Vec::new();
            for (&(_, canonical, _), (letters, k)) in NAMES.iter().zip(lowered_names()) {
                if words.len() < *k {
                    continue;
                }
                if heads.len() <= *k {
                    heads.resize_with(k + 1, || None);
                }
                let head = heads[*k].get_or_insert_with(|| {
                    let head = words[..*k].join(" ");
                    crate::error::Letters::of(
                        &head.trim_end_matches([':', '.', ',']).to_lowercase(),
                    )
                });
                if crate::error::is_near(head, letters, &mut rows) && !near.contains(&canonical) {
                    near.push(canonical);
                }
            }
            let hint = if near.is_empty() {
                String::new()
            } else {
                let quoted: Vec<String> = near.iter().take(3).map(|n| format!("'{n}'")).collect();
                format!("; did you mean {}?", quoted.join(", "))
            };
            // A name it doesn't know (not malformed text): kind Unknown.
            Error::unknown(format!(
                "keyword '{}': not a keyword this solver knows{hint}",
                crate::error::quote(text.trim())
            ))
        })?;
    let rest = effect[name.len()..].trim();
    let x = x_cost && rest.eq_ignore_ascii_case("x");
    let text_after_colon = || -> Result<String> {
        let t = rest.strip_prefix(':').map(str::trim).unwrap_or("");
        if t.is_empty() {
            Err(bad(&format!("{name} needs ': [effect]'")))
        } else {
            Ok(t.to_string())
        }
    };
    let read = match kind {
        Value::None if rest.is_empty() => Read::None,
        Value::None => return Err(bad(&format!("{name} takes no number, found '{rest}'"))),
        Value::Count if rest.is_empty() => return Err(bad(&format!("{name} needs a number"))),
        Value::Count if x => Read::Count(0),
        Value::Count => Read::Count(rest.parse::<u32>().map_err(|_| {
            bad(&format!(
                "'{}' is not a whole number",
                crate::error::quote(rest)
            ))
        })?),
        // A signed number as X only where the caller sets X (a card's
        // count, `parse_with_x`); a Force cost of X pays for no signed
        // keyword (`Pay X Force -> Accuracy X` stays an error).
        Value::Signed | Value::SignedPlus if any_x && x => Read::Signed(0),
        Value::Signed | Value::SignedPlus => {
            let r = rest.replace(' ', "");
            let r = r.trim_matches('\'');
            Read::Signed(
                r.strip_prefix('+')
                    .unwrap_or(r)
                    .parse::<i32>()
                    .map_err(|_| bad(&format!("'{rest}' is not a whole number")))?,
            )
        }
        Value::Text => Read::Text(text_after_colon()?),
        Value::ListSlash => {
            let list = text_after_colon()?;
            let items: Vec<String> = list
                .trim_matches(|c| c == '[' || c == ']')
                .split('/')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            if items.len() < 2 {
                return Err(bad(&format!(
                    "{name} needs two or more texts separated by /"
                )));
            }
            Read::List(items)
        }
        Value::ListComma => {
            let list = text_after_colon()?;
            Read::List(
                list.replace(", and ", ", ")
                    .replace(" and ", ", ")
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
            )
        }
    };
    let keyword = Keyword::build(canonical, read);
    Ok(Ability { keyword, cost, x })
}
