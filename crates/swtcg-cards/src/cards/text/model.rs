//! The reader's model: classes, subjects, descriptions, situations and effects (the reading of one ability is in `reading.rs`).

use super::{Ability, Arena, KeywordKind, ReadAbility, Serialize, title};

/// The class of an ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// The unit has it in every attack, free or paid.
    Keyword,
    /// It changes one attack's numbers only in some situation.
    Condition,
    /// It is granted to the unit the card pilots.
    Pilot,
    /// It cannot change the odds of one attack between this unit and an
    /// opposing unit.
    NotAttack,
    /// Not understood.
    NotUnderstood,
    /// A glossary keyword the engine does not model.
    Unmodelled,
}

impl Class {
    /// The class's name as printed (`not-attack`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Class::Keyword => "keyword",
            Class::Condition => "condition",
            Class::Pilot => "pilot",
            Class::NotAttack => "not-attack",
            Class::NotUnderstood => "not-understood",
            Class::Unmodelled => "unmodelled",
        }
    }

    /// Every class, in report order.
    pub const ALL: [Class; 6] = [
        Class::Keyword,
        Class::Condition,
        Class::Pilot,
        Class::NotAttack,
        Class::Unmodelled,
        Class::NotUnderstood,
    ];
}

/// Who an effect applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Subject {
    /// The card's own unit.
    #[serde(rename = "self")]
    This,
    /// The opposing unit in the attack.
    #[serde(rename = "opponent")]
    Opponent,
    /// Both.
    #[serde(rename = "both")]
    Both,
}

/// A description of a unit in card text: `a unique Character`, `a non-Jedi
/// Character`, `a Clone, Jedi or Rebel`, `a Dark Side unit`, `Jango`.
/// Alternatives (`or`) of conjunctions of terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Descriptor {
    /// Each alternative is a list of terms that must all hold.
    pub any_of: Vec<Vec<Term>>,
}

impl Descriptor {
    /// Whether the two units' cards decide it (no qualifier the user
    /// must say).
    pub fn decidable(&self) -> bool {
        self.any_of
            .iter()
            .flatten()
            .all(|t| !matches!(t, Term::Described(_)))
    }

    /// Any unit at all (`a unit`, the unit attacking this one).
    pub fn any_unit() -> Descriptor {
        Descriptor {
            any_of: vec![vec![Term::Unit]],
        }
    }
}

/// One term of a [`Descriptor`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "term", content = "value", rename_all = "kebab-case")]
pub enum Term {
    /// Any unit.
    Unit,
    /// Words found in the subtype, the type, or the name (`Jedi`, `Dark
    /// Jedi`, `Character`, `Space`, `Jango`).
    Words(String),
    /// Not those words.
    Not(String),
    /// A unique unit (one with a version).
    Unique,
    /// A non-unique unit.
    NonUnique,
    /// The side of the Force a card is on.
    Side(CardSide),
    /// Printed health at least N.
    HealthAtLeast(u32),
    /// Printed power at most N.
    PowerAtMost(u32),
    /// Has at least one damage counter.
    Damaged,
    /// Has the keyword.
    HasKeyword(KeywordName),
    /// The attack is in this arena (`units in the Ground arena`).
    InArena(Arena),
    /// Has one of the keywords.
    HasAnyKeyword(Vec<KeywordName>),
    /// Printed health above printed power.
    HealthAbovePower,
    /// Printed power above printed health.
    PowerAboveHealth,
    /// Piloted (`each of your units with a Pilot`): a pilot card is on it.
    Piloted,
    /// Its name holds one of these words (`with "Skywalker" in its name`).
    NameHas(Vec<String>),
    /// A qualifier the two units' cards can't decide (`with 1 or more
    /// Equipment attached`), as written: the user says whether it holds.
    Described(String),
}

/// A keyword named in card text (`a unit with Stealth`): one the engine
/// models, or another of the glossary (`Stealth`, `Intercept`), as written.
/// Serialised as its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeywordName {
    /// A keyword of the engine's table.
    Modelled(KeywordKind),
    /// Another keyword, in title case.
    Glossary(String),
}

impl KeywordName {
    /// The keyword a name means (older names and any case accepted).
    ///
    /// ```
    /// use swtcg_cards::cards::text::KeywordName;
    /// use swtcg_engine::keywords::KeywordKind;
    /// assert_eq!(KeywordName::read("critical hit"), KeywordName::Modelled(KeywordKind::CriticalHit));
    /// assert_eq!(KeywordName::read("hidden cost"), KeywordName::Glossary("Hidden Cost".into()));
    /// ```
    pub fn read(name: &str) -> KeywordName {
        KeywordKind::from_name(name).map_or_else(
            || KeywordName::Glossary(title(&name.trim().to_ascii_lowercase())),
            KeywordName::Modelled,
        )
    }

    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            KeywordName::Modelled(k) => k.name(),
            KeywordName::Glossary(n) => n,
        }
    }
}

impl std::fmt::Display for KeywordName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for KeywordName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The side of the Force a card is on: the set files' `D`, `L`, `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CardSide {
    /// The Dark Side (`D`).
    #[serde(rename = "D")]
    Dark,
    /// The Light Side (`L`).
    #[serde(rename = "L")]
    Light,
    /// Neutral (`N`).
    #[serde(rename = "N")]
    Neutral,
}

impl CardSide {
    /// The side a set file's letter (`D`, `L`, `N`) names.
    pub fn from_letter(letter: &str) -> Option<CardSide> {
        match letter.trim().to_ascii_uppercase().as_str() {
            "D" => Some(CardSide::Dark),
            "L" => Some(CardSide::Light),
            "N" => Some(CardSide::Neutral),
            _ => None,
        }
    }

    /// Its name in a player's words.
    pub fn name(self) -> &'static str {
        match self {
            CardSide::Dark => "Dark Side",
            CardSide::Light => "Light Side",
            CardSide::Neutral => "Neutral",
        }
    }
}

/// The situation a condition depends on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "situation", rename_all = "kebab-case")]
pub enum Situation {
    /// This unit attacks a unit matching the description.
    Attacking {
        /// The defender's description.
        defender: Descriptor,
    },
    /// This unit is attacked by a unit matching the description.
    AttackedBy {
        /// The attacker's description.
        attacker: Descriptor,
    },
    /// The opposing unit matches the description (an aura).
    Opponent {
        /// The opponent's description.
        opponent: Descriptor,
    },
    /// This unit matches the description (`each of your Clones`).
    Own {
        /// This unit's description.
        this: Descriptor,
    },
    /// This unit is in the named arena.
    InArena {
        /// `Space`, `Ground` or `Character`.
        arena: Arena,
    },
    /// This unit has (or has no) damage counters.
    SelfDamaged {
        /// Whether it has some.
        damaged: bool,
    },
    /// This unit has at least this many damage counters (2 or more; one
    /// or more is [`Situation::SelfDamaged`]).
    SelfCounters {
        /// How many at least.
        at_least: u32,
    },
    /// This unit is piloted by a unit matching the description.
    PilotedBy {
        /// The pilot's description.
        pilot: Descriptor,
    },
    /// A unit matching the description is in play on a side (`you have a
    /// Jedi in the Character arena`: `own` true; `your opponent has ...`:
    /// false; `there is ...`, `Darth Vader is in any arena`: either), in
    /// the named arena or any (`arena` none), this unit left out when
    /// `other` (`another Jedi`). It holds when one of the attack's two
    /// units is one; else the user says (the other units in play are no
    /// card of the two).
    Present {
        /// This unit's side, the opponent's, or either.
        own: Option<bool>,
        /// Whether this unit itself is left out.
        other: bool,
        /// Which units.
        which: Descriptor,
        /// The arena named, or none for any.
        arena: Option<Arena>,
        /// The clause as written.
        text: String,
    },
    /// All of these hold.
    All {
        /// The situations.
        all: Vec<Situation>,
    },
    /// This does not hold (the first effect of `... gets Fury 2. Each ...
    /// with Stealth gets Fury 4 instead`).
    Not {
        /// The situation that must not hold.
        not: Box<Situation>,
    },
    /// A situation the two units' cards cannot decide (other units, a
    /// player's choice, equipment, ...): it waits for `--condition`.
    Other {
        /// The text.
        text: String,
    },
}

impl Situation {
    /// Whether the two units' own data decide it.
    pub fn decidable(&self) -> bool {
        match self {
            Situation::Other { .. } | Situation::Present { .. } => false,
            Situation::All { all } => all.iter().all(Situation::decidable),
            Situation::Not { not } => not.decidable(),
            Situation::Attacking { defender: d }
            | Situation::AttackedBy { attacker: d }
            | Situation::Opponent { opponent: d }
            | Situation::Own { this: d }
            | Situation::PilotedBy { pilot: d } => d.decidable(),
            _ => true,
        }
    }

    /// Whether it says that this unit attacks (alone or among others).
    pub(super) fn this_attacks(&self) -> bool {
        match self {
            Situation::Attacking { .. } => true,
            Situation::All { all } => all.iter().any(Situation::this_attacks),
            _ => false,
        }
    }

    pub(super) fn and(self, other: Situation) -> Situation {
        match (self, other) {
            (Situation::All { mut all }, s) | (s, Situation::All { mut all }) => {
                all.push(s);
                Situation::All { all }
            }
            (a, b) => Situation::All { all: vec![a, b] },
        }
    }
}

/// What a count-based effect counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "count", rename_all = "kebab-case")]
pub enum Count {
    /// Damage counters on this unit.
    DamageCounters,
    /// Cards stacked beneath this unit.
    StackedCards,
    /// Cards in this unit's stack, the top card included.
    StackSize,
    /// Units in this unit's arena matching the description, on its
    /// controller's side (`own`: true), the opponent's (false) or both
    /// (none), this unit excluded when `other`.
    Units {
        /// This unit's side, the opponent's, or both.
        own: Option<bool>,
        /// Whether this unit itself is excluded.
        other: bool,
        /// Which units.
        which: Descriptor,
        /// The arena it names (`in the Character arena`); none for this
        /// unit's own (`this arena`, `that arena`). In another arena than
        /// the attack's, neither unit of the attack counts.
        #[serde(skip_serializing_if = "Option::is_none")]
        arena: Option<Arena>,
    },
}

/// A typed effect of a keyword or condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum Effect {
    /// Power changes by N.
    Power {
        /// The change.
        n: i32,
    },
    /// Health changes by N.
    Health {
        /// The change.
        n: i32,
    },
    /// A keyword (with its cost, if any).
    Keyword {
        /// The keyword as written.
        text: String,
        /// The keyword.
        #[serde(skip)]
        ability: Ability,
    },
    /// Loses a keyword.
    Lose {
        /// The keyword.
        keyword: KeywordKind,
    },
    /// Power changes by N for each of something.
    PowerPer {
        /// Change per thing counted.
        n: i32,
        /// What is counted.
        per: Count,
    },
    /// A keyword whose number is N for each of something (`Critical Hit 1
    /// for each Jedi your opponent has in the Character arena`).
    KeywordPer {
        /// The keyword as written, with its N.
        text: String,
        /// The keyword, with its N.
        #[serde(skip)]
        ability: Ability,
        /// What is counted.
        per: Count,
    },
    /// Health changes by N for each of something.
    HealthPer {
        /// Change per thing counted.
        n: i32,
        /// What is counted.
        per: Count,
    },
    /// The attack does N more damage (no roll needed).
    ExtraDamage {
        /// The extra damage.
        n: u32,
    },
    /// Optional before the roll: +N power for that attack, then the unit
    /// does damage to itself when the attack ends.
    Overload {
        /// Power gained.
        power: u32,
        /// Damage to itself at the end.
        self_damage: u32,
        /// Whether the self-damage is dice of damage (else plain damage).
        dice: bool,
    },
    /// The unit counts as having these subtype words (`Treat Aurra as a
    /// Dark Jedi`).
    TreatAs {
        /// The words.
        words: String,
    },
    /// Power changes by `sign` × X (see [`Grant::x`](super::Grant::x)).
    PowerX {
        /// +1 or −1.
        sign: i32,
    },
    /// Health changes by `sign` × X (a count the cards can't tell; the
    /// user gives X).
    HealthX {
        /// +1 or −1.
        sign: i32,
    },
    /// The attack does X more damage.
    ExtraDamageX,
    /// The unit's owner may cancel an attack on it (`Disrupt an attack`):
    /// nothing of the attack happens.
    CancelAttack,
    /// No Intercept can be activated while this unit is attacked.
    NoIntercept,
    /// Damage counters put on the unit before the attack (negative:
    /// removed).
    Counters {
        /// How many.
        n: i32,
    },
    /// It can't play activated abilities (those with a cost).
    NoActivated,
    /// All damage from it is prevented.
    Harmless,
    /// Pilots of this kind can pilot it, and it gets their grants as if it
    /// were of that kind.
    PilotableAs {
        /// The kind (`Starfighter`).
        kind: String,
    },
    /// The Force its activated abilities cost changes by N (never below 0).
    CostChange {
        /// The change.
        n: i32,
    },
    /// Optional when it attacks: roll half its attack dice (rounded up) and
    /// gain Force.
    HalfDice {
        /// Force gained.
        force: u32,
    },
    /// Optional when its attack placed no damage on the defending unit: put
    /// counters on itself, then on the defending unit.
    Consolation {
        /// Counters on itself.
        own: u32,
        /// Counters on the defending unit.
        defender: u32,
    },
    /// The stats the card prints as `*`, set by its text to a count the
    /// two units decide (`This unit's power is equal to the number of
    /// cards in its stack`).
    StatsFrom {
        /// Its power is the count.
        power: bool,
        /// Its health is the count.
        health: bool,
        /// What is counted.
        per: Count,
    },
    /// Damage to this unit from the opponent is prevented unless the
    /// opponent pays this much Force (each time).
    Toll {
        /// The Force.
        force: u32,
    },
}

impl Effect {
    /// The keyword it gives, with its cost: a keyword's, or one given per
    /// count (`KeywordPer`); `None` for the other effects.
    pub fn ability(&self) -> Option<&Ability> {
        match self {
            Effect::Keyword { ability, .. } | Effect::KeywordPer { ability, .. } => Some(ability),
            _ => None,
        }
    }
}

/// Where an ability's X comes from (when it is not the Force paid).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "x", rename_all = "kebab-case")]
pub enum XSource {
    /// A count the cards decide (`where X is the number of Naboo units in
    /// the Space arena`).
    Count {
        /// What is counted.
        per: Count,
        /// The number printed from X (`X+1`).
        #[serde(skip_serializing_if = "XTerm::is_x")]
        term: XTerm,
    },
    /// The user gives it when switching the condition on (`--condition
    /// a:2=3`).
    User {
        /// The number printed from X (`X+1`).
        #[serde(skip_serializing_if = "XTerm::is_x")]
        term: XTerm,
    },
}

impl XSource {
    /// X given by the user, printed as X.
    pub const USER: XSource = XSource::User { term: XTerm::X };

    /// The number printed from X.
    pub fn term(&self) -> XTerm {
        match self {
            XSource::Count { term, .. } | XSource::User { term } => *term,
        }
    }
}

/// The number an ability prints from its X: `X` itself, `X+1`, `X times 2`
/// (`times` × X + `plus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct XTerm {
    /// X is multiplied by it (`X times 2`).
    pub times: u32,
    /// Then this is added (`X+1`).
    pub plus: u32,
}

impl XTerm {
    /// X itself.
    pub const X: XTerm = XTerm { times: 1, plus: 0 };

    /// Whether it is X itself.
    pub fn is_x(&self) -> bool {
        *self == XTerm::X
    }

    /// The number for a value of X (saturating).
    pub fn of(self, x: u32) -> u32 {
        x.saturating_mul(self.times).saturating_add(self.plus)
    }
}

/// A pilot ability: the kinds of unit it fits and what the piloted unit gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PilotGrant {
    /// The subtypes it pilots (`Starfighter`, `Capital Ship`).
    pub kinds: Vec<String>,
    /// What the piloted unit gets, read as the piloted unit's own abilities.
    pub grants: Vec<ReadAbility>,
}

/// How one clause of an ability was read: by which rule, or why it was
/// left (outside attacks, or not understood).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClauseNote {
    /// The clause (the unit's own names written `THIS`).
    pub text: String,
    /// The rule that read it; `outside-attacks` when its words are about
    /// no attack; `unread` when nothing read it.
    pub rule: &'static str,
    /// What it gave (its class), or why it was left.
    pub how: String,
    /// Where it is in the ability's printed text (bytes), when its words
    /// are found there (see [`clause_spans`](super::clause_spans)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<std::ops::Range<usize>>,
}

impl ClauseNote {
    pub(super) fn new(text: &str, rule: &'static str, how: &str) -> ClauseNote {
        ClauseNote {
            text: text.trim().to_string(),
            rule,
            how: how.to_string(),
            span: None,
        }
    }
}
