//! The card language: a unit's text split into abilities, each classified
//! and, where it can change an attack, read into typed effects.
//!
//! **Splitting.** Sets separate abilities with ` | `, with `; `, or only by
//! sentences (JG runs them together with parenthetical reminder text). The
//! text is cut into sentences (outside quotes and parentheses; a reminder in
//! parentheses followed by a capital also ends a sentence), and a sentence
//! that continues the one before ("Play only ...", "If you do, ...",
//! "Then ...") stays with it. A pilot ability (`[Pilot] Starfighter Pilot.
//! The Starfighter gets: ...`) takes the rest of its segment.
//!
//! **Classes.** Each ability is exactly one [`Class`]: a `keyword` the unit
//! has in every attack (free or paid); a `condition` that changes an attack
//! only in some situation; a `pilot` grant; `not-attack` when it cannot
//! change one attack between this unit and an opposing unit; `unmodelled`
//! for a glossary keyword the engine does not model; `not-understood`
//! otherwise. `not-attack` is only said when the text's effects are all of
//! kinds that cannot act on such an attack (speed, Force, cards, build,
//! other units, timing outside attacks); anything else unsure is
//! `not-understood`, never dropped silently.
//!
//! ```
//! use swtcg_cards::cards::text::{read_abilities, Class, Subject, When};
//! let a = read_abilities("Stun 3 | This unit gets -2 power as long as it's attacking a unique Character.", &["Stormtrooper TK-421"]);
//! assert_eq!(a[0].class, Class::Keyword);
//! assert_eq!(a[1].class, Class::Condition);
//! assert_eq!(a[1].subject, Some(Subject::This));
//! assert_eq!(a[1].when, Some(When::Attacking));
//! assert_eq!(a[1].decidable, Some(true));
//! ```

use crate::keywords::{Ability, Keyword, parse, split_cost};
use serde::Serialize;

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

pub use crate::keywords::When;

/// A description of a unit in card text: `a unique Character`, `a non-Jedi
/// Character`, `a Clone, Jedi or Rebel`, `a Dark Side unit`, `Jango`.
/// Alternatives (`or`) of conjunctions of terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Descriptor {
    /// Each alternative is a list of terms that must all hold.
    pub any_of: Vec<Vec<Term>>,
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
    /// Side: `L`, `D` or `N`.
    Side(String),
    /// Printed health at least N.
    HealthAtLeast(u32),
    /// Printed power at most N.
    PowerAtMost(u32),
    /// Has at least one damage counter.
    Damaged,
    /// Has the keyword.
    HasKeyword(String),
    /// The attack is in this arena (`units in the Ground arena`).
    InArena(String),
    /// Has one of the keywords.
    HasAnyKeyword(Vec<String>),
    /// Printed health above printed power.
    HealthAbovePower,
    /// Printed power above printed health.
    PowerAboveHealth,
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
        arena: String,
    },
    /// This unit has (or has no) damage counters.
    SelfDamaged {
        /// Whether it has some.
        damaged: bool,
    },
    /// This unit is piloted by a unit matching the description.
    PilotedBy {
        /// The pilot's description.
        pilot: Descriptor,
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
            Situation::Other { .. } => false,
            Situation::All { all } => all.iter().all(Situation::decidable),
            Situation::Not { not } => not.decidable(),
            _ => true,
        }
    }

    fn and(self, other: Situation) -> Situation {
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
        /// The keyword's name.
        keyword: String,
    },
    /// Power changes by N for each of something.
    PowerPer {
        /// Change per thing counted.
        n: i32,
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
    /// Power changes by `sign` × X (see [`ReadAbility::x`]).
    PowerX {
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
    /// Damage to this unit from the opponent is prevented unless the
    /// opponent pays this much Force (each time).
    Toll {
        /// The Force.
        force: u32,
    },
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
    },
    /// The user gives it when switching the condition on (`--condition
    /// a:2=3`).
    User,
}

pub use crate::keywords::Cost;

/// A pilot ability: the kinds of unit it fits and what the piloted unit gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PilotGrant {
    /// The subtypes it pilots (`Starfighter`, `Capital Ship`).
    pub kinds: Vec<String>,
    /// What the piloted unit gets, read as the piloted unit's own abilities.
    pub grants: Vec<ReadAbility>,
}

/// One ability of a card, read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadAbility {
    /// The ability's text as printed.
    pub text: String,
    /// Its class.
    pub class: Class,
    /// Who its effects apply to (keywords and conditions).
    pub subject: Option<Subject>,
    /// When (keywords and conditions).
    pub when: Option<When>,
    /// For conditions: whether the two units' own data decide it.
    pub decidable: Option<bool>,
    /// The situation of a condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub situation: Option<Situation>,
    /// Typed effects (keywords and conditions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// Per arena (`Switch`): the arena and its effects.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub switch: Vec<(String, Vec<Effect>)>,
    /// Its cost, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    /// `INSERT:` text: granted to the top card of a stack this card is in.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub insert: bool,
    /// The pilot grant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pilot: Option<PilotGrant>,
    /// The glossary keyword's name, when unmodelled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// Why: what makes it not-attack, or what was not understood.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where X comes from, when its effects use an X.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<XSource>,
    /// A choice among these effects (`gets Armor or "Pay 1 Force ->
    /// Retaliate 4"`): the user says which (`--condition a:N=K`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Vec<Effect>>,
    /// Parts with their own subject or situation (`Each of your Naboo units
    /// gets Fury 2. Each ... with Stealth gets Fury 4 instead`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<ReadAbility>,
}

impl ReadAbility {
    fn new(text: &str, class: Class) -> ReadAbility {
        ReadAbility {
            text: text.to_string(),
            class,
            subject: None,
            when: None,
            decidable: None,
            situation: None,
            effects: Vec::new(),
            switch: Vec::new(),
            cost: None,
            insert: false,
            pilot: None,
            keyword: None,
            note: None,
            x: None,
            choices: Vec::new(),
            parts: Vec::new(),
        }
    }

    fn not_attack(text: &str, why: &str) -> ReadAbility {
        let mut a = ReadAbility::new(text, Class::NotAttack);
        a.note = Some(why.to_string());
        a
    }

    fn not_understood(text: &str, why: &str) -> ReadAbility {
        let mut a = ReadAbility::new(text, Class::NotUnderstood);
        a.note = Some(why.to_string());
        a
    }

    fn unmodelled(text: &str, keyword: &str) -> ReadAbility {
        let mut a = ReadAbility::new(text, Class::Unmodelled);
        a.keyword = Some(keyword.to_string());
        a
    }
}

// ---------------------------------------------------------------------------
// Splitting

/// Splits a unit's text into abilities, whatever separator its set uses.
///
/// ```
/// use swtcg_cards::cards::text::split_abilities;
/// let jg = "As long as Mace is in the Character arena, each of your other Jedi gets +1 power. Overkill (When this unit attacks, you may divide hits.) Pay 3 Force -> Evade 3 (Prevent up to 3 damage to this unit. )";
/// assert_eq!(split_abilities(jg).len(), 3);
/// assert_eq!(split_abilities("Tap -> Draw a card. Play only during your build step. | Armor").len(), 2);
/// ```
pub fn split_abilities(text: &str) -> Vec<String> {
    split_abilities_in(text, text.contains('|'))
}

/// [`split_abilities`] for a text of a set that separates abilities with
/// `|` (`barred`) or not: in a barred set, the sentences of one segment are
/// one ability unless a sentence surely starts another.
pub fn split_abilities_in(text: &str, barred: bool) -> Vec<String> {
    let mut out = Vec::new();
    let barred = barred || text.contains('|');
    for segment in top_level_split(text, '|') {
        let sentences = sentences(&segment);
        let mut current: Option<String> = None;
        let mut in_pilot = false;
        for s in sentences {
            let starts_pilot = !in_pilot && pilot_start(&s).is_some();
            // Sets that separate abilities with `|` run one ability's
            // sentences together; the others need every sentence read.
            let cont = in_pilot
                || (!starts_pilot
                    && current.is_some()
                    && if barred {
                        !is_strong_start(&s)
                    } else {
                        is_continuation(&s)
                    });
            if cont {
                let c = current.get_or_insert_with(String::new);
                if !c.is_empty() {
                    c.push(' ');
                }
                c.push_str(&s);
            } else {
                if let Some(c) = current.take() {
                    out.push(c);
                }
                current = Some(s);
            }
            in_pilot |= starts_pilot;
        }
        if let Some(c) = current {
            out.push(c);
        }
    }
    out.retain(|s| !s.trim().is_empty() && s.chars().any(|c| c.is_alphanumeric()));
    out
}

/// Whether a sentence surely starts an ability of its own: a cost arrow, a
/// glossary keyword, a trigger (`When`, `Whenever`, `As long as`).
fn is_strong_start(s: &str) -> bool {
    let t = strip_reminders(s);
    let l = t.to_ascii_lowercase();
    if is_continuation(&t) {
        return false;
    }
    if split_cost(&t).0.is_some() {
        return true;
    }
    if parse(t.trim_end_matches('.')).is_ok() {
        return true;
    }
    let starts = [
        "when ",
        "whenever ",
        "as long as ",
        "at the start ",
        "at the end ",
        "treat ",
    ];
    starts.iter().any(|p| l.starts_with(p))
        || NOT_ATTACK_KEYWORDS
            .iter()
            .any(|(k, _)| starts_with_word(&l, k))
        || UNMODELLED_KEYWORDS
            .iter()
            .any(|k| starts_with_word(&l, &k.to_ascii_lowercase()))
}

/// Splits at `sep` outside quotes and parentheses.
fn top_level_split(text: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quoted = false;
    // Unbalanced quotes (a typo in the file): don't let them hide separators.
    let balanced = text
        .chars()
        .filter(|c| matches!(c, '"' | '“' | '”'))
        .count()
        % 2
        == 0;
    for c in text.chars() {
        match c {
            '"' | '“' | '”' if balanced => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 && !quoted {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The sentences of a segment, each with its final `.`/`;` kept off and its
/// reminder text (parentheses) kept in. A reminder followed by a capital
/// letter ends its sentence.
fn sentences(segment: &str) -> Vec<String> {
    let chars: Vec<char> = segment.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut i = 0;
    let next_nonspace = |from: usize| chars[from..].iter().find(|c| !c.is_whitespace()).copied();
    while i < chars.len() {
        let c = chars[i];
        cur.push(c);
        match c {
            '"' | '“' | '”' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                if depth == 0 && next_nonspace(i + 1).is_some_and(|n| n.is_uppercase() || n == '*')
                {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '.' | ';' if depth == 0 && !quoted => {
                let prev_digit = i > 0 && chars[i - 1].is_ascii_digit();
                let next = chars.get(i + 1).copied();
                let next_digit = next.is_some_and(|n| n.is_ascii_digit());
                let after_quote = chars.get(i + 2).copied();
                let closing = |n: char| {
                    (n == '"' || n == '\'') && after_quote.is_none_or(|a| a.is_whitespace())
                };
                let boundary = next.is_none_or(|n| n.is_whitespace() || closing(n));
                if boundary && !(prev_digit && next_digit) {
                    // A closing quote right after the period belongs to this sentence.
                    if let Some(q) = next.filter(|n| *n == '"' || *n == '\'') {
                        cur.push(q);
                        i += 1;
                        if q == '"' {
                            quoted = !quoted;
                        }
                    }
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().trim_end_matches([';']).trim().to_string())
        .filter(|s| s.chars().any(|c| c.is_alphanumeric()))
        .collect()
}

/// Whether a sentence continues the ability before it.
fn is_continuation(s: &str) -> bool {
    let stripped = strip_reminders(s);
    let s = stripped.as_str();
    let l = s.trim_start_matches(['*', '-', ' ']).to_ascii_lowercase();
    if l.trim_end_matches(['.', ' ']).ends_with(" instead")
        && !l.starts_with("when")
        && !l.starts_with("whenever")
    {
        return true;
    }
    if s.starts_with('*') || s.starts_with("- ") {
        return true;
    }
    // A sentence about what the one before chose or showed.
    for r in [
        " that card",
        " that unit",
        " that character",
        " those ",
        " on it.",
        " on it ",
        " that arena",
        " the chosen",
        " of those",
    ] {
        if l.contains(r)
            && !l.starts_with("when")
            && !l.starts_with("as long as")
            && !l.contains(" -> ")
        {
            return true;
        }
    }
    const STARTS: [&str; 45] = [
        "play ",
        "use this",
        "only ",
        "if you do",
        "if he or she does",
        "if your opponent does",
        "if it ",
        "if it's",
        "if that",
        "if not",
        "if the ",
        "if there",
        "if you roll",
        "if you revealed",
        "then ",
        "otherwise",
        "shuffle",
        "that ",
        "those ",
        "the rest",
        "put the rest",
        "discard the rest",
        "you may play this",
        "you may also",
        "show ",
        "or:",
        "or ",
        "in addition",
        "when it does",
        "it gets",
        "it does",
        "he gets",
        "she gets",
        "your opponent shuffles",
        "discard the revealed",
        "discard any cards put",
        "this ability",
        "you may draw",
        "reroll",
        "put that card back",
        "if you're correct",
        "retreat that",
        "tap that",
        "untap that",
        "choose any",
    ];
    STARTS.iter().any(|p| l.starts_with(p))
}

/// If the text starts a pilot ability: the text after the pilot marker.
fn pilot_start(s: &str) -> Option<usize> {
    let t = s.trim_start();
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("[pilot]") || lower.starts_with(">o<") {
        return Some(0);
    }
    // "<Kinds> Pilot." / "<Kinds> Pilot:" at the start.
    let i = lower.find(" pilot")?;
    let after = lower[i + 6..].chars().next();
    if !matches!(after, Some('.') | Some(':')) {
        return None;
    }
    let kinds = &t[..i];
    let ok = kinds
        .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
        .filter(|w| !w.is_empty())
        .all(|w| w == "and" || w == "or" || w.chars().next().is_some_and(char::is_uppercase));
    ok.then_some(0)
}

// ---------------------------------------------------------------------------
// Normalising

/// Words that are titles or kinds, never a unit's nickname by themselves.
const TITLES: &[&str] = &[
    "darth",
    "captain",
    "general",
    "admiral",
    "commander",
    "lieutenant",
    "lietenant",
    "queen",
    "princess",
    "senator",
    "chancellor",
    "emperor",
    "grand",
    "moff",
    "count",
    "baron",
    "inquisitor",
    "master",
    "jedi",
    "sith",
    "the",
    "and",
    "of",
    "squad",
    "team",
    "imperial",
    "rebel",
    "republic",
    "trade",
    "federation",
    "droid",
    "fighter",
    "starfighter",
    "wing",
    "squadron",
    "clone",
    "trooper",
    "stormtrooper",
    "elite",
    "battle",
    "assault",
    "tie",
    "x-wing",
    "y-wing",
    "class",
    "shuttle",
    "transport",
    "tank",
    "speeder",
    "walker",
    "ship",
    "cruiser",
    "star",
    "destroyer",
    "apprentice",
    "guard",
    "crew",
    "twins",
    "force",
    "dark",
    "lord",
    "shadow",
    "red",
    "gold",
    "black",
    "lego",
    "promo",
    "preview",
    "alt",
    "old",
    "young",
    "boy",
    "child",
    "unit",
    "one",
    "two",
    "three",
    "five",
    "eight",
    "monsters",
    "strike",
    "hammer",
    "titan",
];

/// The ways a card's text names its own unit: its full name (without
/// version), and each distinctive word of it (`Vader`, `Obi-Wan`, `Tyranus`).
pub fn self_names(name: &str) -> Vec<String> {
    self_names_with(name, "")
}

/// [`self_names`], leaving out words of the card's subtype and type (a
/// `Jawa Leader`'s text says `each other Jawa` of other units).
pub fn self_names_with(name: &str, kinds: &str) -> Vec<String> {
    let kinds: Vec<String> = kinds
        .split(|c: char| !c.is_alphanumeric())
        .map(|w| singular(&w.to_ascii_lowercase()))
        .collect();
    let base = crate::cards::base_name(name).to_string();
    let mut out = vec![base.clone()];
    let words: Vec<&str> = base.split_whitespace().collect();
    // Runs of two or more words ("Jar Jar" of "Jar Jar Binks").
    for len in (2..words.len()).rev() {
        for start in 0..=words.len() - len {
            let run = &words[start..start + len];
            if run
                .iter()
                .any(|w| !TITLES.contains(&w.to_ascii_lowercase().as_str()))
            {
                out.push(run.join(" "));
            }
        }
    }
    if words.len() > 1 {
        for w in &words {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'');
            if w.chars().count() >= 2
                && w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().skip(1).any(char::is_lowercase)
                && !TITLES.contains(&w.to_ascii_lowercase().as_str())
                && !kinds.contains(&singular(&w.to_ascii_lowercase()))
            {
                out.push(w.to_string());
            }
        }
    }
    // "Padme" / "Padmé" / "Padm_": also without accents.
    let plain: Vec<String> = out.iter().map(|n| deaccent(n)).collect();
    for p in plain {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out.sort_by_key(|n| std::cmp::Reverse(n.len()));
    out
}

fn deaccent(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'é' | 'è' | 'ê' | 'É' | '_' | '?' => 'e',
            'á' | 'à' => 'a',
            'í' => 'i',
            'ó' => 'o',
            'ú' => 'u',
            c => c,
        })
        .collect()
}

/// Removes parenthetical reminder text and normalises quotes, spaces and the
/// files' replacement characters (`it_s` → `it's`).
pub fn strip_reminders(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(match c {
                '“' | '”' => '"',
                '’' | '‘' => '\'',
                '→' => '>',
                c => c,
            }),
            _ => {}
        }
    }
    let out = out
        .replace("_s ", "'s ")
        .replace("_s.", "'s.")
        .replace("_s,", "'s,");
    let out = out.replace('→', "->");
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ,", ",")
        .replace(" .", ".")
}

/// Granted text in single quotes (`gets 'Pay 1 Force -> Evade 3.'`, as
/// JG writes it) in double quotes, so that it is read as quoted text. An
/// apostrophe inside a word is left alone.
fn single_quotes_to_double(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = chars.clone();
    let mut open: Option<usize> = None;
    for i in 0..chars.len() {
        if chars[i] != '\'' {
            continue;
        }
        let prev = if i == 0 { None } else { Some(chars[i - 1]) };
        let next = chars.get(i + 1).copied();
        match open {
            None => {
                if prev.is_none_or(|p| p.is_whitespace() || p == ':')
                    && next.is_some_and(|n| n.is_uppercase() || n == '[')
                {
                    open = Some(i);
                }
            }
            Some(o) => {
                if prev.is_some_and(|p| !p.is_whitespace())
                    && next.is_none_or(|n| n.is_whitespace() || ".,;)".contains(n))
                {
                    out[o] = '"';
                    out[i] = '"';
                    open = None;
                }
            }
        }
    }
    out.into_iter().collect()
}

/// Replaces the unit's own names and `this unit` / `this card` / `this
/// <Type>` by `THIS` (word-bounded; a name word next to another capitalised
/// word, as in `Anakin Skywalker`, is another unit and is left alone).
fn mark_self(text: &str, names: &[String]) -> String {
    let mut t = format!(" {text} ");
    for n in names {
        t = replace_word(&t, n, "THIS", names[0] != *n);
        // "Vaders gets": a plural typo of a one-word name.
        if !n.contains(' ') && n.len() >= 4 {
            t = replace_word(&t, &format!("{n}s"), "THIS", true);
        }
        let d = deaccent(n);
        if d != *n {
            t = replace_word(&t, &d, "THIS", names[0] != *n);
        }
    }
    let lower_this = [
        "this unit's",
        "this unit",
        "this card",
        "this character",
        "this starfighter",
        "this capital ship",
        "this space unit",
        "this transport",
        "this patrol ship",
        "this speeder",
        "this creature",
        "this walker",
        "this squadron",
    ];
    for p in lower_this {
        let rep = if p.ends_with("'s") { "THIS's" } else { "THIS" };
        t = replace_ci_word(&t, p, rep);
    }
    t.trim().to_string()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// Replaces whole-word occurrences of `word` (case-sensitive). With
/// `standalone`, an occurrence next to another capitalised word is kept.
fn replace_word(text: &str, word: &str, rep: &str, standalone: bool) -> String {
    if word.is_empty() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let before = rest[..i].chars().last();
        let after = rest[i + word.len()..].chars().next();
        let bounded = before.is_none_or(|c| !is_word_char(c))
            && after.is_none_or(|c| !is_word_char(c) || c == '\'');
        let mut ok = bounded;
        // "each other Scurrier", "a Jawa": the word names a kind there.
        let prev_word = rest[..i]
            .trim_end()
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if [
            "other", "each", "another", "every", "a", "an", "any", "non", "your",
        ]
        .contains(&prev_word.as_str())
        {
            ok = false;
        }
        if ok && standalone {
            // "Anakin Skywalker": a capitalised word right before or after.
            let prev_word = rest[..i].trim_end().rsplit(' ').next().unwrap_or("");
            let next_word = rest[i + word.len()..]
                .trim_start()
                .split(' ')
                .next()
                .unwrap_or("");
            let cap = |w: &str| {
                w.chars().next().is_some_and(char::is_uppercase) && w != "THIS" && w.len() > 1
            };
            let before_prev = rest[..i].trim_end();
            let before_prev = before_prev[..before_prev.len() - prev_word.len()].trim_end();
            // A capitalised word starting a sentence may be a verb ("Roll
            // Sidious's attack dice"), not a name ("Anakin Skywalker").
            let sentence_start = before_prev.is_empty()
                || before_prev.ends_with(['.', ':', ';', '>', '"', '\''])
                || before_prev.ends_with("->");
            const VERBS: &[&str] = &[
                "Roll", "Pay", "Discard", "Put", "Prevent", "Tap", "Untap", "Remove", "Choose",
                "Search", "Draw", "Gain", "Reveal", "Each", "When", "Whenever", "As", "If",
                "Treat", "Retreat", "Move", "Return", "Take", "Show", "Look", "Damage", "Then",
                "Play", "Only", "Attach", "Stack", "While", "Until", "For", "Your", "All", "Give",
            ];
            let prev_is_name = cap(prev_word)
                && !(sentence_start && VERBS.contains(&prev_word))
                && rest[..i].ends_with(' ')
                && !prev_word.ends_with([',', '.', ':', ';']);
            let next_is_name = cap(next_word) && rest[i + word.len()..].starts_with(' ');
            if prev_is_name || next_is_name {
                ok = false;
            }
        }
        out.push_str(&rest[..i]);
        out.push_str(if ok { rep } else { word });
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

/// Case-insensitive whole-word replacement.
fn replace_ci_word(text: &str, phrase: &str, rep: &str) -> String {
    let lower = text.to_ascii_lowercase();
    if lower.len() != text.len() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut last = 0;
    let mut from = 0;
    while let Some(i) = lower[from..].find(phrase) {
        let i = from + i;
        let end = i + phrase.len();
        let before = text[..i].chars().last();
        let after = text[end..].chars().next();
        if before.is_none_or(|c| !is_word_char(c)) && after.is_none_or(|c| !is_word_char(c)) {
            out.push_str(&text[last..i]);
            out.push_str(rep);
            last = end;
        }
        from = end;
    }
    out.push_str(&text[last..]);
    out
}

// ---------------------------------------------------------------------------
// The glossary

/// Glossary keywords that cannot change one attack's odds, with why.
const NOT_ATTACK_KEYWORDS: &[(&str, &str)] = &[
    ("alternative cost", "a build cost"),
    ("hidden cost", "a build cost"),
    ("reduced cost", "a build cost"),
    ("upkeep", "paid when the build step starts"),
    ("bounty", "gained at the next build step"),
    ("deploy", "when the unit is deployed"),
    ("last stand", "when the unit is discarded"),
    ("meditate", "played from the discard pile"),
    ("equip", "attaching equipment"),
    ("velocity", "speed"),
    ("stealth", "who can be attacked, not the odds"),
    (
        "reserves",
        "works only in the build zone, where this card is not in an attack",
    ),
    ("double strike", "a second attack, not this attack's odds"),
    ("stack", "which cards may be stacked"),
    ("enhance", "an extra cost for an effect"),
    ("damage control", "when the build step starts"),
    ("ambush", "when a unit is deployed or moved"),
];

/// Glossary keywords that can change an attack but the engine does not
/// model (yet).
const UNMODELLED_KEYWORDS: &[&str] = &["Consume"];

/// When a keyword acts: in attacks by the unit, on it, or both.
pub fn keyword_when(k: &Keyword) -> When {
    k.when()
}

fn starts_with_word(lower: &str, word: &str) -> bool {
    lower.starts_with(word)
        && lower[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
}

// ---------------------------------------------------------------------------
// Classifying

/// Reads a unit's text: its abilities, each classified. `names` are the
/// unit's full name and, optionally, its subtype and type (words the text
/// uses of other units too; see [`self_names_with`]).
pub fn read_abilities(text: &str, names: &[impl AsRef<str>]) -> Vec<ReadAbility> {
    read_abilities_in(text, names, text.contains('|'))
}

/// [`read_abilities`] for a text of a set that separates abilities with `|`
/// or not (see [`split_abilities_in`]).
pub fn read_abilities_in(text: &str, names: &[impl AsRef<str>], barred: bool) -> Vec<ReadAbility> {
    let kinds = names.get(1).map_or("", |k| k.as_ref());
    let who = Who {
        names: match names.first() {
            Some(n) => self_names_with(n.as_ref(), kinds),
            None => Vec::new(),
        },
        kinds: kinds
            .replace(['-', '/', ','], " ")
            .split_whitespace()
            .map(|w| singular(&w.to_ascii_lowercase()))
            .collect(),
    };
    split_abilities_in(text, barred)
        .iter()
        .map(|a| classify_as(a, &who))
        .collect()
}

/// Classifies one ability text.
pub fn classify(text: &str, names: &[String]) -> ReadAbility {
    classify_as(
        text,
        &Who {
            names: names.to_vec(),
            kinds: Vec::new(),
        },
    )
}

/// How a card's text names its own unit, and what kinds of unit it is.
#[derive(Clone, Debug, Default)]
pub struct Who {
    /// The names the text uses for the unit (see [`self_names_with`]).
    pub names: Vec<String>,
    /// Its subtype and type words, singular, lowercase (empty: unknown).
    pub kinds: Vec<String>,
}

impl Who {
    /// A recipient among "your X" that cannot be this unit is elsewhere.
    fn narrow(&self, r: Recipient) -> Recipient {
        match r {
            Recipient::Own {
                which: Some(d),
                other: false,
            } if !self.could_be(&d) => Recipient::Elsewhere,
            Recipient::OneOfYours {
                which: Some(d),
                other: false,
            } if !self.could_be(&d) => Recipient::Elsewhere,
            r => r,
        }
    }

    /// Whether a description in the text could be this unit (by its kind
    /// words; other terms are not known here).
    fn could_be(&self, d: &Descriptor) -> bool {
        if self.kinds.is_empty() {
            return true;
        }
        let has = |w: &str| {
            let ph: Vec<String> = w
                .replace('-', " ")
                .split_whitespace()
                .map(|x| singular(&x.to_ascii_lowercase()))
                .collect();
            !ph.is_empty() && self.kinds.windows(ph.len()).any(|k| k == ph.as_slice())
        };
        d.any_of.iter().any(|terms| {
            terms.iter().all(|t| match t {
                Term::Words(w) => has(w),
                Term::Not(w) => !has(w),
                _ => true,
            })
        })
    }
}

/// Classifies one ability text of a unit (see [`Who`]).
pub fn classify_as(text: &str, who: &Who) -> ReadAbility {
    let ascii_names: Vec<String> = who.names.iter().map(|n| ascii_only(n)).collect();
    let who = &Who {
        names: ascii_names,
        kinds: who.kinds.clone(),
    };
    let names = &who.names;
    let printed = text.trim();
    let clean = single_quotes_to_double(&strip_reminders(&ascii_only(printed)));
    let clean = clean.trim().trim_end_matches('.').trim().to_string();
    if pilot_start(&clean).is_some() {
        return pilot(printed, &clean, names);
    }
    if let Some(rest) = strip_prefix_ci(&clean, "INSERT:") {
        let mut a = classify_body(printed, rest.trim(), who);
        a.insert = true;
        return a;
    }
    classify_body(printed, &clean, who)
}

fn strip_prefix_ci<'a>(s: &'a str, p: &str) -> Option<&'a str> {
    s.get(..p.len())
        .filter(|h| h.eq_ignore_ascii_case(p))
        .map(|_| &s[p.len()..])
}

/// The text in ASCII (accents dropped, other characters as `?`), so that
/// positions found in its lowercase copy cut it safely.
pub fn ascii_only(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_ascii() => c,
            '“' | '”' | '«' | '»' => '"',
            '’' | '‘' => '\'',
            '—' | '–' => '-',
            '→' => '>',
            c => {
                let d = deaccent(&c.to_string());
                d.chars().next().filter(char::is_ascii).unwrap_or('?')
            }
        })
        .collect()
}

/// Reads a pilot ability: the kinds it pilots and its grants.
fn pilot(printed: &str, clean: &str, names: &[String]) -> ReadAbility {
    let mut t = clean.trim();
    for m in ["[Pilot]", "[pilot]", ">o<"] {
        if let Some(r) = t.strip_prefix(m) {
            t = r.trim();
        }
    }
    let lower = t.to_ascii_lowercase();
    let (kinds_text, rest) = match lower.find(" pilot") {
        Some(i) => (&t[..i], t[i + 6..].trim_start_matches(['.', ':', ' '])),
        None => (t, ""),
    };
    let kinds: Vec<String> = kinds_text
        .replace(" and ", ",")
        .replace(" or ", ",")
        .split([',', '/'])
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .collect();
    // "The Starfighter gets: * a * b" / "the Patrol Ship gets 'text'".
    let rl = rest.to_ascii_lowercase();
    let mut grants = Vec::new();
    let body = match rl.find(" gets") {
        Some(i) => rest[i + 5..].trim_start_matches([':', ' ']),
        None => rest,
    };
    let mut piloted: Vec<String> = kinds.clone();
    piloted.extend(["Starfighter", "Space Unit", "Capital Ship", "Transport"].map(String::from));
    let items = pilot_items(body);
    for item in items {
        let item = item
            .trim()
            .trim_matches(|c| c == '\'' || c == '"')
            .trim()
            .to_string();
        if item.is_empty() {
            continue;
        }
        // The piloted unit's own text: "this Starfighter", "the Walker".
        let mut g = item.clone();
        for k in &piloted {
            for pre in ["this ", "This ", "the ", "The "] {
                g = g.replace(&format!("{pre}{k}"), "this unit");
            }
        }
        let _ = names;
        // Bare grants ("+1 power", "Critical Hit 2") or abilities.
        let bare = g.trim_end_matches('.');
        match read_grants(bare) {
            Ok(effects) if !effects.is_empty() => {
                let mut a = ReadAbility::new(&item, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(
                    if effects.iter().all(|e| matches!(e, Effect::Power { .. })) {
                        When::Attacking
                    } else {
                        When::Any
                    },
                );
                a.effects = effects;
                grants.push(a);
            }
            Ok(_) if !has_attack_word(&bare.to_ascii_lowercase()) => {
                grants.push(ReadAbility::not_attack(
                    &item,
                    "nothing an attack reads (speed, ...)",
                ));
            }
            _ => grants.push(classify(&g, &["this unit".to_string()])),
        }
    }
    let mut a = ReadAbility::new(printed, Class::Pilot);
    a.pilot = Some(PilotGrant { kinds, grants });
    a
}

/// The items a pilot grants: `* a * b`, `- a - b`, or `a, b`.
fn pilot_items(body: &str) -> Vec<String> {
    let b = body.trim();
    if b.contains('*') {
        return b
            .split('*')
            .map(|s| s.trim().trim_end_matches('.').to_string())
            .collect();
    }
    if b.starts_with('-') || b.contains("  -") || b.contains(" - ") {
        return b
            .split(" -")
            .flat_map(|s| s.split("  -"))
            .map(|s| {
                s.trim()
                    .trim_start_matches('-')
                    .trim()
                    .trim_end_matches('.')
                    .to_string()
            })
            .collect();
    }
    // "'quoted text'" or plain items separated by commas.
    if b.starts_with('\'') || b.starts_with('"') {
        return vec![b.to_string()];
    }
    b.split(", ")
        .map(|s| s.trim().trim_end_matches('.').to_string())
        .collect()
}

/// Reads a cost ([`Cost::read`]); one too large to read is kept as
/// written, as a cost in something else than Force (so never free).
pub fn read_cost(text: &str) -> Cost {
    Cost::read(text).unwrap_or_else(|_| Cost {
        text: text.trim().to_string(),
        force: None,
        x: false,
    })
}

/// Words that can only matter to an attack's numbers.
const ATTACK_WORDS: &[&str] = &[
    "power",
    "damage",
    "prevent",
    "health",
    "dice",
    "die",
    "roll",
    "reroll",
    "hit",
    "attack",
    "defending",
    "accuracy",
    "armor",
    "shields",
    "fury",
    "critical hit",
    "parry",
    "evade",
    "deflect",
    "retaliate",
    "stun",
    "lucky",
    "overkill",
    "ferocity",
    "fortitude",
    "intercept",
    "precision",
    "elude",
    "backfire",
    "riposte",
    "double damage",
    "overload",
    "absorb",
    "persuade",
    "resilience",
    "cunning",
    "redirect",
    "protect",
    "focus",
    "surge",
    "tenacity",
    "area damage",
    "avenge",
    "bombard",
    "ion cannon",
    "barrage",
    "intimidation",
    "inspiration",
    "consume",
    "foresight",
    "forewarning",
    "adapt",
    "switch",
    "activated abilit",
    "abilities granted",
    "ability text",
    "game text",
];

/// Timings that are never inside an attack.
const OUTSIDE_ATTACKS: &[&str] = &[
    "when you deploy",
    "whenever you deploy",
    "when you finish building",
    "when you complete",
    "whenever you complete",
    "during your build step",
    "during your build phase",
    "during the build step",
    "when your build step starts",
    "when our build step starts",
    "when your opponent's build step starts",
    "when the build step starts",
    "when the roll for build points",
    "play only when no unit is attacking",
    "play only if no unit is attacking",
    "only if no unit is attacking",
    "when the battle phase ends",
    "when end the battle phase does",
    "whenever you play a battle card",
    "whenever a disrupt effect",
    "whenever you gain force",
    "whenever you attach",
    "whenever your opponent uses alternative cost",
    "whenever your opponent deploys",
    "whenever your opponent uses",
    "when you use hidden cost",
];

/// Effects that never touch an attack's numbers.
const NON_ATTACK_EFFECT: &[&str] = &[
    "speed",
    "force",
    "draw",
    "card",
    "deck",
    "hand",
    "build point",
    "build counter",
    "retreat",
    "tap",
    "untap",
    "captivity",
    "credit counter",
    "control",
    "disrupt",
    "look at",
    "reveal",
    "search",
    "shuffle",
    "stealth",
    "hidden cost",
    "cost",
];

/// Whether a text has a word that can only matter to an attack's numbers
/// (at word starts: `roll` in `rolls`, not in `controlling`). Text quoted
/// for a token being created (`Take 1 ... Subordinate with "Armor"`) is the
/// token's, not this unit's.
fn has_attack_word(lower: &str) -> bool {
    let text = without_token_text(lower);
    let t = text.as_str();
    t.char_indices().any(|(i, _)| {
        let starts = i == 0 || !t[..i].chars().last().is_some_and(|c| c.is_alphanumeric());
        starts && ATTACK_WORDS.iter().any(|w| t[i..].starts_with(w))
    })
}

/// The text without the quoted text given to tokens it creates
/// (`... Subordinate(s) with "..." and "..."`).
fn without_token_text(lower: &str) -> String {
    let mut out = String::new();
    let mut rest = lower;
    while let Some(i) = rest.find("with \"") {
        let before = &rest[..i];
        let token = before.trim_end().ends_with("subordinate")
            || before.trim_end().ends_with("subordinates")
            || before.contains(" subordinate")
            || before.contains("take ");
        out.push_str(before);
        let after = &rest[i + 6..];
        match after.find('"') {
            Some(j) if token => {
                rest = &after[j + 1..];
                // `and "..."` after the first quote.
                while let Some(r) = rest
                    .strip_prefix(" and \"")
                    .or_else(|| rest.strip_prefix("  and \""))
                {
                    match r.find('"') {
                        Some(k) => rest = &r[k + 1..],
                        None => break,
                    }
                }
            }
            _ => {
                out.push_str("with \"");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Who-attacks-whom texts: they change which attacks happen, not their odds.
const WHO_ATTACKS: &[&str] = &[
    "can attack ",
    "may attack ",
    "must attack ",
    "can't attack",
    "can't be attacked",
    "can only attack",
    "must do so",
    "can attack units",
    "can't retreat",
];

/// Whether a later sentence only restricts when the ability is played.
fn is_restriction(l: &str) -> bool {
    let l = l.trim_start_matches(['*', '-', ' ']);
    l.starts_with("play ")
        || l.starts_with("use this ability")
        || l.starts_with("only ")
        || l.starts_with("you may play this ability")
}

/// Leading clauses of a sentence (`When ..., `, `As long as ..., `, `If
/// ..., `, `This turn, `): what they say, and the rest.
struct Leads {
    /// Situations they state.
    situation: Option<Situation>,
    /// A timing outside any attack (deploy, build step, a discard, the
    /// start or end of a step).
    outside: bool,
    /// A player's choice (`choose one:`).
    choice: bool,
    /// The unit whose damage a `whenever X would be damaged` clause is about.
    damaged: Option<Recipient>,
}

fn add_situation(a: Option<Situation>, b: Situation) -> Option<Situation> {
    Some(match a {
        Some(x) => x.and(b),
        None => b,
    })
}

/// Strips leading clauses, reading them.
fn strip_leads<'t>(text: &'t str, leads: &mut Leads) -> &'t str {
    let mut t = text.trim();
    loop {
        let l = t.to_ascii_lowercase();
        let mut stripped = false;
        for p in [
            "this turn, ",
            "for this attack, ",
            "each turn, ",
            "then ",
            "or: ",
            "or ",
            "you may ",
            "in addition to each set of abilities, ",
        ] {
            if l.starts_with(p) && p != "you may " {
                t = t[p.len()..].trim_start();
                stripped = true;
            }
        }
        if stripped {
            continue;
        }
        for p in ["choose one: ", "choose one:"] {
            if l.starts_with(p) {
                leads.choice = true;
                t = t[p.len()..].trim_start();
                stripped = true;
                break;
            }
        }
        if stripped {
            continue;
        }
        let lead = [
            "as long as ",
            "while ",
            "when ",
            "whenever ",
            "at the start of ",
            "at the end of ",
            "if ",
            "after ",
        ]
        .into_iter()
        .find(|p| l.starts_with(p));
        let Some(lead) = lead else { break };
        let Some(mut comma) = top_level_find(&l, ", ") else {
            break;
        };
        // "When X damages Y, and Y is discarded as a result, ...": one clause.
        while lead.starts_with("when")
            && (l[comma + 2..].starts_with("and ") || l[comma + 2..].starts_with("if "))
        {
            match top_level_find(&l[comma + 2..], ", ") {
                Some(next) => comma = comma + 2 + next,
                None => break,
            }
        }
        let clause = &t[lead.len()..comma];
        let cl = clause.to_ascii_lowercase();
        if let Some(from) = cl.strip_suffix(" would damage this") {
            let from_orig = &clause[..from.len()];
            leads.damaged = Some(read_recipient(from_orig));
            t = t[comma + 2..].trim_start();
            continue;
        }
        if let Some(who) = cl.strip_suffix(" would be damaged") {
            let who_orig = &clause[..who.len()];
            leads.damaged = Some(read_recipient(who_orig));
            t = t[comma + 2..].trim_start();
            continue;
        }
        match lead {
            "as long as " | "while " => {
                leads.situation = add_situation(leads.situation.take(), read_situation(clause))
            }
            "if " => {
                leads.situation = add_situation(
                    leads.situation.take(),
                    Situation::Other {
                        text: format!("if {clause}"),
                    },
                )
            }
            _ => {
                let outside = lead.starts_with("at the")
                    || OUTSIDE_ATTACKS
                        .iter()
                        .any(|o| format!("{lead}{cl}").contains(o))
                    || cl.contains("discarded")
                    || cl.contains("battle step")
                    || cl.contains("battle phase")
                    || cl.contains("step starts")
                    || cl.contains("step begins")
                    || cl.contains("step ends")
                    || cl.contains("phase starts")
                    || cl.contains("phase ends")
                    || cl.contains("deploy")
                    || cl.contains("build");
                if outside {
                    leads.outside = true;
                } else {
                    match trigger_situation(clause) {
                        Some(s) => leads.situation = add_situation(leads.situation.take(), s),
                        None => {
                            leads.situation = add_situation(
                                leads.situation.take(),
                                Situation::Other {
                                    text: format!("{lead}{clause}"),
                                },
                            )
                        }
                    }
                }
            }
        }
        t = t[comma + 2..].trim_start();
    }
    t
}

/// The referent of `that unit` / `the chosen Jedi` set by a `choose ...`.
fn chosen(core: &str) -> Option<Recipient> {
    let l = core.to_ascii_lowercase();
    let r = l.strip_prefix("choose ")?;
    let r = r
        .trim_start_matches("up to ")
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == 'x' || c == ' ')
        .trim_start_matches("of ");
    let orig = &core[core.len() - r.len()..];
    let desc = |start: usize| read_descriptor(orig[start..].split(" in ").next().unwrap_or(""));
    for p in [
        "one of your opponent's ",
        "your opponent's ",
        "an untapped ",
        "a ",
    ] {
        if let Some(x) = r.strip_prefix(p) {
            return Some(Recipient::Chosen(desc(r.len() - x.len())));
        }
    }
    for p in ["an attacking ", "the attacking "] {
        if let Some(x) = r.strip_prefix(p) {
            return Some(Recipient::Attacking(read_descriptor(
                &orig[r.len() - x.len()..],
            )));
        }
    }
    for (p, other) in [
        ("one of your other ", true),
        ("another ", true),
        ("one of your ", false),
        ("your ", false),
    ] {
        if let Some(x) = r.strip_prefix(p) {
            return Some(if other {
                Recipient::Elsewhere
            } else {
                Recipient::OneOfYours {
                    which: desc(r.len() - x.len()),
                    other: false,
                }
            });
        }
    }
    Some(Recipient::Chosen(None))
}

fn classify_body(printed: &str, clean: &str, who: &Who) -> ReadAbility {
    let marked = mark_self(clean, &who.names)
        .replace(" also gets ", " gets ")
        .replace(" also gets:", " gets:")
        .replace("the THIS", "THIS")
        .replace("The THIS", "THIS");
    let marked = marked.trim().trim_end_matches([',', '.']).to_string();
    let lower = marked.to_ascii_lowercase();
    // Switch: a/b(/c).
    if let Some(rest) = strip_prefix_ci(&marked, "Switch:") {
        return switch(printed, rest);
    }
    for (k, why) in NOT_ATTACK_KEYWORDS {
        if starts_with_word(&lower, k) {
            // A Stack list is kept: stacks are built from it.
            if *k == "stack"
                && let Ok(ab) = parse(clean)
            {
                return keyword(printed, ab, None);
            }
            return ReadAbility::not_attack(printed, &format!("{}: {why}", title(k)));
        }
    }
    // List items ("* 2: Accuracy 1") belong to the sentence before them.
    let mut sents: Vec<String> = Vec::new();
    for s in sentences(&marked) {
        match sents.last_mut() {
            Some(last)
                if s.trim_start().starts_with('*') && last.trim_end().ends_with(':')
                    || s.trim_start().starts_with("* ") && last.contains(": *") =>
            {
                last.push_str(". ");
                last.push_str(&s);
            }
            _ => sents.push(s),
        }
    }
    let first = sents.first().cloned().unwrap_or_default();
    let first = first.trim_end_matches('.');
    let (cost_text, effect) = split_cost(first);
    let cost = cost_text.map(read_cost);
    let eff_lower = effect.to_ascii_lowercase();
    for k in UNMODELLED_KEYWORDS {
        if starts_with_word(&eff_lower, &k.to_ascii_lowercase()) {
            let mut a = ReadAbility::unmodelled(printed, k);
            a.cost = cost;
            return a;
        }
    }
    // A whole keyword, or a keyword in words (some take two sentences).
    if sents.len() <= 1
        || sents[1..]
            .iter()
            .all(|s| is_restriction(&s.to_ascii_lowercase()))
    {
        let keyword_text = match &cost_text {
            Some(c) => format!("{c} -> {effect}"),
            None => effect.to_string(),
        };
        if let Ok(ab) = parse(&keyword_text.replace("THIS", "this unit")) {
            return keyword(printed, ab, cost);
        }
        // "Pay 2 Force -> Evade X, where X is the number of cards in ...".
        if let Some((k, x)) =
            split_top(&keyword_text, &[", where x is ", " where x is "]).split_first()
            && x.len() == 1
            && let Ok(ab) = crate::keywords::parse_with_x(k)
            && ab.x
        {
            let mut a = keyword(printed, ab, cost);
            match read_count(x[0]) {
                Some(per) => a.x = Some(XSource::Count { per }),
                None => {
                    a.class = Class::Condition;
                    a.x = Some(XSource::User);
                    a.situation = Some(Situation::Other {
                        text: "X is given by the user (=N)".into(),
                    });
                    a.decidable = Some(false);
                }
            }
            return a;
        }
    }
    // "Its power and health equal ...": the text sets the stats the card
    // prints as * (the user gives them).
    if (lower.starts_with("this's power") || lower.starts_with("this's speed, power"))
        && (lower.contains(" equal") || lower.contains(" is ") || lower.contains(" are "))
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.note = Some("it sets the stats printed as *: give them as NAME[power=N,health=N]".into());
        return a;
    }
    // Text that works from inside a stack: for the stack's top card, as
    // INSERT text is ("While this card is stacked or under Qui-Gon Jinn,
    // Qui-Gon's ...", "As long as this card is in Ferus's stack, Ferus gets").
    let clean_lower = clean.to_ascii_lowercase();
    for lead in [
        "while this card is stacked or under ",
        "while this card is stacked under ",
        "as long as this card is in ",
    ] {
        if let Some(r) = clean_lower.strip_prefix(lead)
            && let Some(comma) = r.find(", ")
        {
            let owner = clean[lead.len()..lead.len() + comma]
                .trim_end_matches("'s stack")
                .trim_end_matches("’s stack")
                .to_string();
            let rest = clean[lead.len() + comma + 2..].to_string();
            let mut names = who.names.clone();
            for w in crate::cards::text::self_names(&owner) {
                names.push(w);
            }
            let inner = Who {
                names,
                kinds: Vec::new(),
            };
            let mut a = classify_as(&rest, &inner);
            a.text = printed.to_string();
            a.insert = true;
            return a;
        }
    }
    // "THIS gets the abilities granted by those Pilots as if THIS were a
    // Starfighter": Starfighter Pilots' grants reach it.
    if let Some(r) =
        lower.strip_prefix("this gets the abilities granted by those pilots as if this were a ")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::PilotableAs {
            kind: title(r.trim_start_matches("n ").trim_end_matches('.')),
        });
        return a;
    }
    if lower.starts_with("this can be piloted by ")
        || lower.starts_with("this can only be piloted by ")
    {
        return ReadAbility::not_attack(printed, "which pilots it takes");
    }
    // "Prevent all damage to and from THIS".
    if lower == "prevent all damage to and from this" {
        let ab = Ability {
            keyword: Keyword::Evade(crate::unit::MAX_VALUE),
            cost: None,
            x: false,
        };
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::Keyword {
            text: ab.to_string(),
            ability: ab,
        });
        a.effects.push(Effect::Harmless);
        return a;
    }
    // A trigger on other units' damage: all of it happens to other units.
    if let Some(r) = lower
        .strip_prefix("whenever ")
        .or_else(|| lower.strip_prefix("when "))
        && let Some((who, _)) = r.split_once(" would be damaged")
        && (who.starts_with("one of your other")
            || who.starts_with("another")
            || (!who.contains("this") && !who.starts_with("one of your") && !who.starts_with("a ")))
    {
        return ReadAbility::not_attack(printed, "it acts when another unit would be damaged");
    }
    // "As long as THIS is being attacked, Intercept abilities can't be activated".
    if (lower.starts_with("as long as this is being attacked")
        || lower.starts_with("while this is being attacked"))
        && lower.contains("intercept")
        && lower.contains("can't be activated")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Defending);
        a.effects.push(Effect::NoIntercept);
        return a;
    }
    if let Some(a) = worded_keyword(printed, &marked, cost.clone()) {
        return a;
    }
    // A cost that taps or discards the unit: played instead of its attack
    // when "play only when this unit would attack".
    // A cost that discards or retreats this unit: it leaves the arena to
    // pay, so nothing the ability does can help it in an attack.
    let leaves = cost.as_ref().is_some_and(|c| {
        let l = c.text.to_ascii_lowercase();
        l.starts_with("discard this")
            || l.contains("discard this from")
            || l.starts_with("retreat this")
    });
    let tap_cost = cost.as_ref().is_some_and(|c| {
        let l = c.text.to_ascii_lowercase();
        l.split(|ch: char| !ch.is_alphanumeric())
            .any(|w| w == "tap")
            || l.contains("discard this")
    });
    let restricted_attacking = sents[1.min(sents.len())..].iter().any(|s| {
        let l = s.to_ascii_lowercase();
        is_restriction(&l)
            && (l.contains("would attack")
                || l.contains("is attacking")
                || l.contains("before the dice"))
    });
    // Sentence by sentence, clause by clause; restrictions first.
    let mut parts: Vec<ReadAbility> = Vec::new();
    let mut outside = false;
    let mut replaces_attack = false;
    let mut referent: Option<Recipient> = None;
    let mut choice = false;
    let mut not_attack_notes: Vec<String> = Vec::new();
    let mut restriction_situation: Option<Situation> = None;
    for sent in sents.iter().skip(1) {
        let sl = sent.to_ascii_lowercase();
        if is_restriction(&sl) {
            // "Play only if you attached an Equipment to Obi-Wan this turn":
            // a situation the cards can't tell.
            for part in sl.split(" and ") {
                let p = part
                    .trim()
                    .trim_start_matches("play ")
                    .trim_start_matches("only ")
                    .trim();
                if let Some(c) = p.strip_prefix("if ")
                    && !c.contains("attacking")
                    && !c.contains("would attack")
                    && !c.contains("damage is pending")
                {
                    restriction_situation = add_situation(
                        restriction_situation.take(),
                        Situation::Other {
                            text: format!("only if {c}"),
                        },
                    );
                }
            }
            if OUTSIDE_ATTACKS.iter().any(|t| sl.contains(t)) || sl.contains("build step") {
                outside = true;
            }
            if sl.contains("would attack") && tap_cost {
                replaces_attack = true;
            }
        }
    }
    for (i, sent) in sents.iter().enumerate() {
        let sent = sent.trim().trim_end_matches('.');
        let sl = sent.to_ascii_lowercase();
        if i > 0 && is_restriction(&sl) {
            continue;
        }
        let body = if i == 0 { effect } else { sent };
        let mut leads = Leads {
            situation: None,
            outside: false,
            choice: false,
            damaged: None,
        };
        let core = strip_leads(body, &mut leads);
        outside |= leads.outside;
        choice |= leads.choice;
        let cl = core.to_ascii_lowercase();
        if let Some(r) = cl.strip_prefix("tap one of your opponent's ") {
            // "Tap one of your opponent's Ground units and put 2 damage
            // counters on it": that unit is chosen.
            let orig = &core["tap one of your opponent's ".len()..];
            let d = read_descriptor(orig.split(" and ").next().unwrap_or(orig))
                .or_else(|| read_descriptor(r.split(" and ").next().unwrap_or(r)));
            referent = Some(Recipient::Chosen(d));
        }
        let choose_at = if cl.starts_with("choose ") {
            Some(0)
        } else {
            top_level_find(&cl, " you may choose ")
                .map(|i| i + 9)
                .or_else(|| top_level_find(&cl, ", choose ").map(|i| i + 2))
        };
        if let Some(at) = choose_at {
            // It only sets up what "that unit" means next.
            referent = chosen(&core[at..]).map(|r| who.narrow(r));
            continue;
        }
        // "A, or B": a choice among effects.
        let alternatives: Vec<&str> = if leads.choice || choice {
            split_top(core, &[", or ", " or: "])
        } else {
            vec![core]
        };
        if alternatives.len() > 1 {
            choice = true;
        }
        for alt in alternatives {
            for clause in clauses(alt) {
                let cl = clause.to_ascii_lowercase();
                let damaged_ref = leads.damaged.as_ref().or(referent.as_ref());
                let damaged_ref = damaged_ref.map(|r| who.narrow(r.clone()));
                let part = gets(
                    printed,
                    clause,
                    cost.clone(),
                    leads.situation.clone(),
                    referent.as_ref(),
                    who,
                )
                .or_else(|| {
                    prevention(
                        printed,
                        clause,
                        cost.clone(),
                        leads.situation.clone(),
                        damaged_ref.as_ref(),
                        who,
                    )
                })
                .or_else(|| {
                    damage_clause(
                        printed,
                        clause,
                        cost.clone(),
                        leads.situation.clone(),
                        damaged_ref.as_ref().or(referent.as_ref()),
                        restricted_attacking,
                        who,
                    )
                });
                if part.is_none() && non_attack_clause(&cl) {
                    continue;
                }
                match part {
                    Some(p) if p.class == Class::NotAttack => {
                        if let Some(n) = p.note {
                            not_attack_notes.push(n);
                        }
                    }
                    Some(mut p) => {
                        if cl.trim_end_matches('.').ends_with(" instead")
                            && matches!(p.class, Class::Keyword | Class::Condition)
                        {
                            p.note = Some("instead".into());
                        }
                        parts.push(p)
                    }
                    None => {
                        if !has_attack_word(&cl)
                            || (WHO_ATTACKS.iter().any(|w| cl.contains(w))
                                && !cl.contains(" power"))
                        {
                            continue;
                        }
                        if (outside || leads.outside) && counters_only(&cl) {
                            continue;
                        }
                        parts.push(ReadAbility::not_understood(
                            printed,
                            &format!("'{}'", quote_short(clause)),
                        ));
                    }
                }
            }
        }
    }
    if replaces_attack {
        return ReadAbility::not_attack(printed, "played instead of the unit's attack (it taps)");
    }
    if let Some(nu) = parts.iter().find(|p| p.class == Class::NotUnderstood) {
        return nu.clone();
    }
    if let Some(u) = parts.iter().find(|p| p.class == Class::Unmodelled) {
        let mut u = u.clone();
        u.text = printed.to_string();
        return u;
    }
    let mut attack: Vec<ReadAbility> = parts
        .into_iter()
        .filter(|p| matches!(p.class, Class::Keyword | Class::Condition))
        .collect();
    if attack.is_empty() {
        let why = if let Some(n) = not_attack_notes.first() {
            n.clone()
        } else if outside {
            "it happens outside attacks".to_string()
        } else {
            NON_ATTACK_EFFECT
                .iter()
                .find(|w| lower.contains(*w))
                .map_or("nothing in it acts on an attack".to_string(), |w| {
                    format!("its effect is about {w}, not an attack")
                })
        };
        return ReadAbility::not_attack(printed, &why);
    }
    if attack.len() > 1 && choice {
        // "Choose one: A. Or: B": one of them, as the player chooses.
        let mut whole = attack[0].clone();
        whole.text = printed.to_string();
        whole.choices = attack.iter().map(|p| p.effects.clone()).collect();
        whole.effects = whole.choices.iter().flatten().cloned().collect();
        let subj = attack[0].subject;
        if !attack.iter().all(|p| p.subject == subj) {
            return ReadAbility::not_understood(
                printed,
                "a choice among effects on different units",
            );
        }
        attack = vec![whole];
    }
    if attack.len() > 1 {
        let same = attack.windows(2).all(|w| {
            w[0].subject == w[1].subject
                && w[0].situation == w[1].situation
                && w[0].class == w[1].class
                && w[0].x == w[1].x
        });
        if same {
            // One subject and situation: merge the effects.
            let mut first = attack.remove(0);
            for a in attack {
                first.effects.extend(a.effects);
            }
            attack = vec![first];
        } else {
            // Parts, each with its subject and situation. A part written
            // "... instead" replaces the one before it where it applies.
            for k in 1..attack.len() {
                if attack[k].note.as_deref() == Some("instead")
                    && let Some(s) = attack[k].situation.clone()
                {
                    let prev = &mut attack[k - 1];
                    prev.situation =
                        add_situation(prev.situation.take(), Situation::Not { not: Box::new(s) });
                    prev.decidable = prev.situation.as_ref().map(Situation::decidable);
                    if prev.class == Class::Keyword {
                        prev.class = Class::Condition;
                    }
                }
            }
            let mut whole = ReadAbility::new(printed, Class::Keyword);
            if attack.iter().any(|p| p.class == Class::Condition) {
                whole.class = Class::Condition;
            }
            let subj = attack[0].subject;
            whole.subject = if attack.iter().all(|p| p.subject == subj) {
                subj
            } else {
                Some(Subject::Both)
            };
            let when = attack[0].when;
            whole.when = if attack.iter().all(|p| p.when == when) {
                when
            } else {
                Some(When::Any)
            };
            if whole.class == Class::Condition {
                whole.decidable = Some(attack.iter().all(|p| p.decidable != Some(false)));
            }
            whole.cost = cost.clone();
            for p in &mut attack {
                p.note = None;
            }
            whole.parts = attack;
            attack = vec![whole];
        }
    }
    let mut a = attack.remove(0);
    if let Some(r) = restriction_situation {
        a.situation = add_situation(a.situation.take(), r);
        a.class = Class::Condition;
        a.decidable = a.situation.as_ref().map(Situation::decidable);
    }
    if leaves && a.subject == Some(Subject::This) {
        return ReadAbility::not_attack(printed, "the unit leaves the arena to pay for it");
    }
    if outside || choice {
        // Played or triggered outside attacks (or a choice): only what lasts
        // into an attack counts, when the player chose it.
        let lasting = lower.contains("until end of")
            || lower.contains("until the end of")
            || lower.contains("until end of game");
        if outside && !lasting {
            return ReadAbility::not_attack(
                printed,
                "it happens outside attacks, and nothing of it lasts into one",
            );
        }
        a.class = Class::Condition;
        let why = if choice {
            "the player's choice"
        } else {
            "played or triggered before the attack"
        };
        a.situation = add_situation(a.situation.take(), Situation::Other { text: why.into() });
        a.decidable = Some(false);
    }
    a
}

/// Splits at any of `seps`, outside quotes.
fn split_top<'t>(text: &'t str, seps: &[&str]) -> Vec<&'t str> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    let mut i = 0;
    let bytes = lower.as_bytes();
    while i < lower.len() {
        if bytes[i] == b'"' {
            quoted = !quoted;
        }
        if !quoted && let Some(sep) = seps.iter().find(|s| lower[i..].starts_with(*s)) {
            out.push(text[start..i].trim());
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
        while i < lower.len() && !lower.is_char_boundary(i) {
            i += 1;
        }
    }
    out.push(text[start..].trim());
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// The clauses of a sentence joined by `and`: `each of your Jedi gets +10
/// speed and Anakin Skywalker gets +2 power` is two; `this unit gets +2
/// power and Critical Hit 2` is one (a piece without a verb joins the one
/// before).
fn clauses(text: &str) -> Vec<&str> {
    let pieces = split_top(text, &[", and ", " and "]);
    if pieces.len() < 2 {
        return vec![text];
    }
    let verb = |p: &str| {
        let l = unquoted(&p.to_ascii_lowercase());
        [
            " gets ",
            " gets:",
            " get ",
            " loses ",
            " lose ",
            " does ",
            " can't ",
            " can ",
            " is ",
            " are ",
            " prevent ",
            " cost ",
            " costs ",
        ]
        .iter()
        .any(|v| l.contains(v))
            || l.starts_with("prevent ")
            || l.starts_with("you ")
            || l.starts_with("put ")
            || l.starts_with("tap ")
            || l.starts_with("remove ")
    };
    // What only an effect does: after "... as long as S", a piece without
    // one continues the condition ("as long as it's attacking THIS and you
    // have another Geonosian ...": both clauses are the condition's).
    let effect_verb = |p: &str| {
        let l = unquoted(&p.to_ascii_lowercase());
        [" gets ", " gets:", " get ", " loses ", " lose ", " does ", " prevent ", " costs "]
            .iter()
            .any(|v| l.contains(v))
            || ["prevent ", "put ", "tap ", "remove "].iter().any(|v| l.starts_with(v))
    };
    let opens_condition = |p: &str| {
        let l = unquoted(&p.to_ascii_lowercase());
        [" as long as ", " while ", " if "].iter().any(|c| l.contains(c))
    };
    // A piece with a verb starts a new clause only once the current clause
    // has its own verb ("each of your opponent's Agents and Assassins gets
    // -2 power" is one clause).
    let mut out: Vec<&str> = Vec::new();
    let base = text.as_ptr() as usize;
    let mut start = 0usize;
    let mut has_verb = false;
    let mut in_condition = false;
    for p in pieces {
        let at = p.as_ptr() as usize - base;
        let v = verb(p) && !(in_condition && !effect_verb(p));
        if v && has_verb {
            in_condition = false;
            out.push(
                text[start..at]
                    .trim()
                    .trim_end_matches(", and")
                    .trim_end_matches(" and")
                    .trim_end_matches(','),
            );
            start = at;
        }
        has_verb |= v;
        in_condition |= has_verb && opens_condition(p);
    }
    out.push(text[start..].trim());
    out
}

/// The text with quoted parts removed.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut q = false;
    for c in text.chars() {
        if c == '"' {
            q = !q;
            continue;
        }
        if !q {
            out.push(c);
        }
    }
    out
}

/// A clause whose act is not about an attack, whatever it measures by
/// (`you gain additional Force equal to the damage prevented`).
fn non_attack_clause(l: &str) -> bool {
    let l = l.trim_start_matches("then ").trim();
    [
        "you gain ",
        "gain ",
        "you lose ",
        "your opponent loses ",
        "lose ",
        "draw ",
        "you may draw ",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        && !l.contains("power")
        && !l.contains("health")
}

/// Whether a sentence only moves damage counters (between attacks, that is
/// the state a unit brings into an attack, given by the user).
fn counters_only(l: &str) -> bool {
    let l = l.split(", where").next().unwrap_or(l);
    let damage = l.contains("damage counter")
        || l.contains("captivity counter")
        || (l.contains(" does ") && l.contains(" damage to"))
        || l.starts_with("roll a die")
        || l.contains(" roll a die");
    damage && !l.contains("power") && !l.contains("prevent") && !l.contains("dice of damage")
}

fn quote_short(s: &str) -> String {
    crate::error::quote(s)
}

fn title(k: &str) -> String {
    k.split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn keyword(printed: &str, ab: Ability, cost: Option<Cost>) -> ReadAbility {
    let mut a = ReadAbility::new(printed, Class::Keyword);
    // Stack lists are about building stacks, not attacks.
    if let Keyword::Stack(_) = ab.keyword {
        let mut n = ReadAbility::not_attack(printed, "Stack: which cards may be stacked");
        n.effects.push(Effect::Keyword {
            text: ab.to_string(),
            ability: ab,
        });
        return n;
    }
    a.subject = Some(Subject::This);
    a.when = Some(keyword_when(&ab.keyword));
    a.effects.push(Effect::Keyword {
        text: ab.to_string(),
        ability: ab,
    });
    a.cost = cost;
    a
}

/// Keywords written in plain words.
fn worded_keyword(printed: &str, marked: &str, cost: Option<Cost>) -> Option<ReadAbility> {
    let l = marked.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    let kw = |k: Keyword| {
        Some(keyword(
            printed,
            Ability {
                keyword: k,
                cost: None,
                x: false,
            },
            cost.clone(),
        ))
    };
    if cost.is_none()
        && (l == "damage from this can't be prevented"
            || l == "damage from this's attack can't be prevented"
            || l == "damage from this unit's attack can't be prevented")
    {
        return kw(Keyword::Ferocity);
    }
    for (pre, sign) in [("add ", 1), ("subtract ", -1)] {
        if let Some(r) = l.strip_prefix(pre)
            && let Some((n, rest)) = r.split_once(' ')
            && (rest == "to each of this's attack dice"
                || rest == "from each of this's attack dice")
            && let Ok(n) = n.trim_start_matches('+').parse::<i32>()
        {
            return kw(Keyword::Accuracy(sign * n));
        }
    }
    // "Treat THIS as a Dark Jedi" / "as if her name is Queen Amidala".
    if let Some(r) = l.strip_prefix("treat this as ") {
        let words = r
            .trim_start_matches("if her name is ")
            .trim_start_matches("if his name is ")
            .trim_start_matches("a ")
            .trim_start_matches("an ");
        let start = marked.len() - words.len();
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::TreatAs {
            words: marked[start..].trim_end_matches('.').to_string(),
        });
        return Some(a);
    }
    // Overload written out: "When THIS attacks, you may give it +3 power for
    // that attack. If you do, THIS does 2 damage to itself when the attack ends."
    if let Some(r) = l
        .strip_prefix("when this attacks, you may give it +")
        .or_else(|| l.strip_prefix("whenever this attacks, you may give it +"))
        && let Some((n, rest)) = r.split_once(" power")
        && let Ok(power) = n.parse::<u32>()
        && let Some(i) = rest.find("does ")
    {
        let after = &rest[i + 5..];
        if let Some((m, tail)) = after.split_once(' ') {
            let dice = tail.starts_with("dice of damage");
            if let Ok(self_damage) = m.parse::<u32>()
                && (tail.starts_with("damage to") || dice)
                && (tail.contains("itself") || tail.contains("to this"))
            {
                let mut a = ReadAbility::new(printed, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(When::Attacking);
                a.effects.push(Effect::Overload {
                    power,
                    self_damage,
                    dice,
                });
                a.cost = cost;
                return Some(a);
            }
        }
    }
    // "Whenever THIS attacks, you may roll only half of the attack dice
    // (rounded up) instead. If you do, gain 3 Force."
    if (l.starts_with("whenever this attacks, you may roll only half of the attack dice")
        || l.starts_with("when this attacks, you may roll only half of the attack dice"))
        && let Some(i) = l.find("gain ")
        && let Some(n) = l[i + 5..]
            .split(' ')
            .next()
            .and_then(|n| n.parse::<u32>().ok())
        && l[i + 5..].contains("force")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Attacking);
        a.effects.push(Effect::HalfDice { force: n });
        return Some(a);
    }
    // "Whenever THIS attacks but does no damage, you may put 1 damage counter
    // on THIS. If you do, put 2 damage counters on the defending unit."
    if let Some(r) = l.strip_prefix("whenever this attacks but does no damage, you may put ")
        && let Some((own, rest)) = r.split_once(" damage counter")
        && let Ok(own) = own.parse::<u32>()
        && let Some(i) = rest.find("if you do, put ")
        && let Some((d, tail)) = rest[i + 15..].split_once(" damage counter")
        && let Ok(defender) = d.parse::<u32>()
        && tail.contains("on the defending unit")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Attacking);
        a.effects.push(Effect::Consolation { own, defender });
        return Some(a);
    }
    // "Roll THIS's attack dice secretly": Cunning.
    if l.starts_with("roll this's attack dice secretly") {
        let ab = Ability {
            keyword: Keyword::Cunning,
            cost: None,
            x: false,
        };
        return Some(keyword(printed, ab, None));
    }
    // "When THIS attacks, predict the number of hits you'll roll": Foresight.
    if (l.starts_with("when this attacks, predict the number of hits")
        || l.starts_with("whenever this attacks, predict the number of hits"))
        && let Some(i) = l.find("if you're correct, ")
    {
        let effect = marked[i + "if you're correct, ".len()..]
            .trim_end_matches('.')
            .to_string();
        return kw(Keyword::Foresight(effect));
    }
    // "When your opponent rolls one or more dice in an attack on THIS, you
    // may reroll any of those dice": Lucky on every die.
    if l.starts_with("when your opponent rolls")
        && l.contains("attack on this")
        && l.contains("reroll any")
    {
        return kw(Keyword::Lucky(crate::unit::MAX_EXTRA_DICE));
    }
    None
}

/// A cut point: the first of these markers.
fn find_any(l: &str, markers: &[&str]) -> Option<(usize, usize)> {
    markers
        .iter()
        .filter_map(|m| top_level_find(l, m).map(|i| (i, m.len())))
        .min()
}

/// The `gets` grammar:
/// `[As long as S,] SUBJECT gets GRANTS [as long as / when S] [for this attack | until ...]`.
fn gets(
    printed: &str,
    core: &str,
    cost: Option<Cost>,
    situation: Option<Situation>,
    referent: Option<&Recipient>,
    who: &Who,
) -> Option<ReadAbility> {
    let body = core.trim().trim_end_matches('.');
    let bl = body.to_ascii_lowercase();
    let has_gets = find_word(&bl, " gets ")
        .or_else(|| find_word(&bl, " gets:"))
        .or_else(|| find_word(&bl, " get "))
        .is_some();
    if !has_gets && !has_attack_word(&bl) {
        return None;
    }
    let (gi, verb_len, loses) = match (
        find_word(&bl, " gets ").or_else(|| find_word(&bl, " gets:")),
        find_word(&bl, " get "),
        find_word(&bl, " lose "),
        find_word(&bl, " loses "),
    ) {
        (Some(i), _, _, _) => (i, 6, false),
        (None, Some(i), _, _) => (i, 5, false),
        (None, None, Some(i), _) => (i, 6, true),
        (None, None, None, Some(i)) => (i, 7, true),
        _ => return None,
    };
    let subject_text = body[..gi].trim();
    let rest_all = &body[gi + verb_len..];
    // "..., where X is the number of ...": what X is.
    let (rest, x_text) = match find_any(
        &rest_all.to_ascii_lowercase(),
        &[
            ", where x is ",
            " where x is ",
            ", where x equals ",
            " where x equals ",
        ],
    ) {
        Some((i, len)) => (&rest_all[..i], Some(rest_all[i + len..].to_string())),
        None => (rest_all, None),
    };
    let rl = rest.to_ascii_lowercase();
    // Trailing clause.
    let (grant_end, trailing) = match find_any(
        &rl,
        &[
            " as long as ",
            " when ",
            " while ",
            " for this attack",
            " for that attack",
            " until ",
            " for each ",
        ],
    ) {
        Some((i, _)) => (i, &rest[i..]),
        None => (rest.len(), ""),
    };
    let grants_text = rest[..grant_end].trim_end();
    let grants_text = grants_text.strip_suffix(" instead").unwrap_or(grants_text);
    let tl = trailing.to_ascii_lowercase();
    // "for each" belongs to the grant (count-based).
    let (grants_text, trailing, tl) = if tl.starts_with(" for each ") {
        let end = find_any(&tl[1..], &[" as long as ", " when ", " while ", " until "])
            .map_or(trailing.len(), |(i, _)| i + 1);
        (
            &rest[..grant_end + end],
            &trailing[end..],
            tl[end..].to_string(),
        )
    } else {
        (grants_text, trailing, tl)
    };
    if !loses && matches!(read_grants(grants_text), Ok(e) if e.is_empty()) && x_text.is_none() {
        return Some(ReadAbility::not_attack(
            printed,
            "grants nothing that acts on an attack (speed, Stealth, costs, ...)",
        ));
    }
    let mut recipient = read_recipient(subject_text);
    let sl = subject_text.to_ascii_lowercase();
    if (sl.starts_with("that ")
        || sl.starts_with("the chosen")
        || sl == "it"
        || sl == "he"
        || sl == "she")
        && let Some(r) = referent
    {
        recipient = r.clone();
    }
    recipient = who.narrow(recipient);
    let mut choices = Vec::new();
    // Tiers: ": * 2: Accuracy 1 and Shields 1. * 4: +2 power ..." (each
    // tier in addition to those before it): a choice by tier.
    let gl = grants_text.trim_start_matches(':').trim();
    if gl.starts_with("* ") {
        let mut acc: Vec<Effect> = Vec::new();
        for tier in gl.split('*').map(str::trim).filter(|t| !t.is_empty()) {
            let Some((n, eff)) = tier.split_once(':') else {
                return Some(ReadAbility::not_understood(printed, "a list of tiers"));
            };
            if n.trim().parse::<u32>().is_err() {
                return Some(ReadAbility::not_understood(printed, "a list of tiers"));
            }
            match read_grants(eff.trim().trim_end_matches('.')) {
                Ok(e) => acc.extend(e),
                Err(why) => return Some(ReadAbility::not_understood(printed, &why)),
            }
            choices.push(acc.clone());
        }
    }
    let effects = match if !choices.is_empty() {
        Ok(choices.iter().flatten().cloned().collect())
    } else if loses {
        read_losses(grants_text)
    } else {
        read_grants(grants_text)
    } {
        Ok(e) => e,
        Err(_) if !loses && split_top(grants_text, &[" or "]).len() > 1 => {
            // A choice: "gets Armor or "Pay 1 Force -> Retaliate 4"".
            for alt in split_top(grants_text, &[" or "]) {
                match read_grants(alt) {
                    Ok(e) => choices.push(e),
                    Err(why) => return Some(ReadAbility::not_understood(printed, &why)),
                }
            }
            choices.iter().flatten().cloned().collect()
        }
        Err(why) if why.ends_with(" (unmodelled)") => {
            let k = why.trim_end_matches(" (unmodelled)");
            return Some(ReadAbility::unmodelled(printed, k));
        }
        Err(why) => {
            if recipient == Recipient::Elsewhere && !has_attack_word(&tl) {
                return Some(ReadAbility::not_attack(printed, "affects other units only"));
            }
            return Some(ReadAbility::not_understood(printed, &why));
        }
    };
    let mut trailing_situation: Option<Situation> = None;
    let mut when_from_trailing: Option<When> = None;
    let tt = tl.trim();
    if let Some(r) = tt
        .strip_prefix("as long as ")
        .or_else(|| tt.strip_prefix("when "))
        .or_else(|| tt.strip_prefix("while "))
    {
        let r = r.trim_end_matches('.');
        let (s, w) = trailing_clause(&trailing.trim()[tt.len() - r.len()..], r);
        trailing_situation = Some(s);
        when_from_trailing = w;
    } else if tt.starts_with("for this attack") || tt.starts_with("for that attack") {
        when_from_trailing = Some(When::Attacking);
    } else if tt.starts_with("until") || tt.is_empty() {
    } else {
        return Some(ReadAbility::not_understood(
            printed,
            "a clause after the effect",
        ));
    }
    if effects.is_empty() {
        // Only speed, Stealth and the like.
        return Some(ReadAbility::not_attack(
            printed,
            "grants nothing that acts on an attack (speed, Stealth, costs, ...)",
        ));
    }
    let attacking_this = when_from_trailing == Some(When::Defending)
        && match &trailing_situation {
            Some(Situation::Opponent { .. }) => true,
            Some(Situation::All { all }) => {
                all.iter().any(|s| matches!(s, Situation::Opponent { .. }))
            }
            _ => false,
        };
    // "The attacking Naboo Starfighter gets +X power": a unit that attacks.
    // Its owner pays to help its own attacker (+power, keywords) and to
    // hinder the opponent's (-power).
    if let Recipient::Attacking(d) = &recipient {
        let hinders = effects.iter().all(|e| match e {
            Effect::Power { n } => *n < 0,
            Effect::PowerX { sign } => *sign < 0,
            Effect::Keyword { ability, .. } => {
                matches!(ability.keyword, Keyword::Accuracy(a) if a < 0)
            }
            Effect::Lose { .. } => true,
            _ => false,
        });
        if !hinders {
            recipient = Recipient::Own {
                which: d.clone(),
                other: false,
            };
            when_from_trailing = Some(When::Attacking);
        }
    }
    // "Each of your opponent's units gets -2 power as long as it's
    // attacking a Diplomat": the opponent attacks this unit, a Diplomat.
    let opponent_recipient = matches!(
        recipient,
        Recipient::Opponent(_)
            | Recipient::Each { .. }
            | Recipient::Attacking(_)
            | Recipient::Chosen(_)
    );
    if opponent_recipient
        && let Some(Situation::Attacking { defender }) = trailing_situation.clone()
    {
        trailing_situation = Some(Situation::Own { this: defender });
        when_from_trailing = Some(When::Defending);
    }
    let recipient_kind = match &recipient {
        Recipient::This | Recipient::Own { .. } | Recipient::OneOfYours { .. } => {
            RecipientKind::This
        }
        Recipient::Each { other: false, .. } if !attacking_this => RecipientKind::Both,
        _ => RecipientKind::Opponent,
    };
    let (subject, own_situation, when_default) = match recipient {
        Recipient::This => (Subject::This, None, None),
        Recipient::Opponent(d) => (
            Subject::Opponent,
            d.map(|d| Situation::Opponent { opponent: d }),
            None,
        ),
        Recipient::Attacking(d) => (
            Subject::Opponent,
            d.map(|d| Situation::Opponent { opponent: d }),
            Some(When::Defending),
        ),
        Recipient::DefendingUnit => (Subject::Opponent, None, Some(When::Attacking)),
        Recipient::Each { which, other } => {
            let opp = Situation::Opponent {
                opponent: which.clone(),
            };
            if other || attacking_this {
                (Subject::Opponent, Some(opp), None)
            } else {
                (Subject::Both, Some(opp), None)
            }
        }
        Recipient::Own { which, other } => {
            if other {
                return Some(ReadAbility::not_attack(
                    printed,
                    "affects the controller's other units only",
                ));
            }
            (
                Subject::This,
                which.map(|d| Situation::Own { this: d }),
                None,
            )
        }
        Recipient::OneOfYours { which, other } => {
            if other {
                return Some(ReadAbility::not_attack(
                    printed,
                    "affects the controller's other units only",
                ));
            }
            let mut s = Situation::Other {
                text: "a unit chosen by its controller".into(),
            };
            if let Some(d) = which {
                s = s.and(Situation::Own { this: d });
            }
            (Subject::This, Some(s), None)
        }
        Recipient::Elsewhere => {
            return Some(ReadAbility::not_attack(printed, "affects other units only"));
        }
        Recipient::Chosen(d) => (
            Subject::Opponent,
            add_situation(
                d.map(|d| Situation::Opponent { opponent: d }),
                Situation::Other {
                    text: "a unit chosen by a player".into(),
                },
            ),
            None,
        ),
        Recipient::Unknown => {
            return Some(ReadAbility::not_understood(
                printed,
                "whom the effect is for",
            ));
        }
    };
    // Paid effects for this attack are keywords (choices), free ones with a
    // situation are conditions.
    let mut all = situation;
    for s in [own_situation, trailing_situation].into_iter().flatten() {
        all = Some(match all {
            Some(a) => a.and(s),
            None => s,
        });
    }
    // When, from the card's unit's part: what the clause says, or the
    // situation (attacking X), or what the effects act on (power acts when
    // its holder attacks: for the opponent, when this unit defends).
    let from_situation = |s: &Option<Situation>| -> Option<When> {
        let mut found = None;
        let mut visit = vec![s.as_ref()?];
        while let Some(x) = visit.pop() {
            match x {
                Situation::Attacking { .. } => found = Some(When::Attacking),
                Situation::AttackedBy { .. } => found = Some(When::Defending),
                Situation::All { all } => visit.extend(all.iter()),
                _ => {}
            }
        }
        found
    };
    let holder = if effects.iter().all(|e| matches!(e, Effect::Keyword { ability, .. } if keyword_when(&ability.keyword) == When::Defending)) {
        When::Defending
    } else if effects.iter().all(|e| match e {
        Effect::Keyword { ability, .. } => keyword_when(&ability.keyword) == When::Attacking,
        Effect::Power { .. } | Effect::PowerPer { .. } | Effect::PowerX { .. } | Effect::ExtraDamage { .. } | Effect::ExtraDamageX => true,
        _ => false,
    }) {
        When::Attacking
    } else {
        When::Any
    };
    let flip = |w: When| match w {
        When::Attacking => When::Defending,
        When::Defending => When::Attacking,
        When::Any => When::Any,
    };
    let when = when_default
        .or(when_from_trailing)
        .or_else(|| from_situation(&all))
        .unwrap_or(match recipient_kind {
            RecipientKind::This => holder,
            RecipientKind::Opponent => flip(holder),
            RecipientKind::Both => When::Any,
        });
    let mut a = ReadAbility::new(printed, Class::Condition);
    if let Some(c) = &cost {
        if !c.force_only() && !c.text.to_ascii_lowercase().contains("pay 0") {
            // A cost other than Force (tap, discard, counters): a choice we
            // do not price — the user switches it on.
            all = Some(match all {
                Some(s) => s.and(Situation::Other {
                    text: format!("its cost is paid: {}", c.text),
                }),
                None => Situation::Other {
                    text: format!("its cost is paid: {}", c.text),
                },
            });
        } else if all.is_none() && subject == Subject::This {
            a.class = Class::Keyword;
        }
    } else if all.is_none() && subject == Subject::This {
        a.class = Class::Keyword;
    }
    if a.class == Class::Condition && all.is_none() {
        all = Some(Situation::Opponent {
            opponent: Descriptor {
                any_of: vec![vec![Term::Unit]],
            },
        });
    }
    if !choices.is_empty() {
        a.class = Class::Condition;
        all = add_situation(
            all,
            Situation::Other {
                text: "the player's choice among its effects".into(),
            },
        );
    }
    if effects_use_x(&effects) {
        let source = x_text
            .as_deref()
            .and_then(read_count)
            .map(|per| XSource::Count { per });
        if source.is_none() {
            a.class = Class::Condition;
            all = add_situation(
                all,
                Situation::Other {
                    text: "X is given by the user (=N)".into(),
                },
            );
        }
        a.x = Some(source.unwrap_or(XSource::User));
    } else if x_text.is_some() {
        return Some(ReadAbility::not_understood(
            printed,
            "an X the effect does not use",
        ));
    }
    a.subject = Some(subject);
    a.when = Some(when);
    a.decidable = all.as_ref().map(Situation::decidable);
    if a.class == Class::Keyword {
        a.decidable = None;
    }
    a.situation = all;
    a.effects = effects;
    a.choices = choices;
    a.cost = cost;
    Some(a)
}

/// Whether effects use an X that is not the Force paid.
fn effects_use_x(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::PowerX { .. } | Effect::ExtraDamageX => true,
        Effect::Keyword { ability, .. } => ability.x && !ability.cost.as_ref().is_some_and(|c| c.x),
        _ => false,
    })
}

fn find_word(l: &str, w: &str) -> Option<usize> {
    top_level_find(l, w)
}

/// Finds `pat` outside quotes.
fn top_level_find(l: &str, pat: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in l.char_indices() {
        if c == '"' {
            quoted = !quoted;
        }
        if !quoted && l[i..].starts_with(pat) {
            return Some(i);
        }
    }
    None
}

/// A trailing `as long as` / `when` clause: its situation, and when it
/// applies if the clause says (`it's attacking X`: attacking).
fn trailing_clause(orig: &str, lower: &str) -> (Situation, Option<When>) {
    // "it's attacking THIS and you have another Geonosian in the Character
    // arena": every clause is read, and all of them must hold. None is
    // dropped: a clause the reader can't decide makes the whole condition
    // wait for the user.
    let parts = and_clauses(orig);
    if parts.len() > 1 {
        let mut situation: Option<Situation> = None;
        let mut when = None;
        for part in parts {
            let (s, w) = one_trailing_clause(part, &part.to_ascii_lowercase());
            situation = add_situation(situation, s);
            when = when.or(w);
        }
        return (situation.unwrap_or(Situation::Other { text: orig.trim().to_string() }), when);
    }
    one_trailing_clause(orig, lower)
}

/// The words that open a clause of their own after " and " (a subject
/// and its verb follow), as against " and " inside a description ("a
/// Jedi and Sith unit", "Shields and Armor").
const CLAUSE_OPENERS: &[&str] = &[
    "you ", "your ", "this ", "this's ", "it ", "it's ", "its ", "he ", "he's ", "she ", "she's ",
    "there ", "another ", "no ", "an opponent", "that ", "the defending ", "the attacking ",
    "each ", "at least ", "one of ",
];

/// Splits a situation in words at each top-level " and " that opens a
/// clause of its own: `it's attacking THIS and you have another Geonosian
/// ...` is two clauses.
fn and_clauses(orig: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = orig.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        let mut cut = None;
        let mut from = 0;
        while let Some(i) = lower[from..].find(" and ") {
            let at = from + i;
            let after = &lower[at + 5..];
            if CLAUSE_OPENERS.iter().any(|o| after.starts_with(o)) {
                cut = Some(at);
                break;
            }
            from = at + 5;
        }
        match cut {
            Some(at) => {
                out.push(rest[..at].trim());
                rest = rest[at + 5..].trim();
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

/// One clause of a trailing situation.
fn one_trailing_clause(orig: &str, lower: &str) -> (Situation, Option<When>) {
    let l = lower.trim();
    // "as long as that Jedi is attacking THIS": the unit attacking this one.
    for p in ["that ", "the "] {
        if let Some(r) = l.strip_prefix(p)
            && let Some((_, after)) = r.split_once(" is attacking ")
            && (after == "this" || after.starts_with("this "))
        {
            return (
                Situation::Opponent {
                    opponent: Descriptor {
                        any_of: vec![vec![Term::Unit]],
                    },
                },
                Some(When::Defending),
            );
        }
    }
    for p in [
        "it's attacking ",
        "its attacking ",
        "it is attacking ",
        "attacking ",
        "he's attacking ",
        "she's attacking ",
        "this is attacking ",
        "that this is attacking ",
        "it's using ",
    ] {
        if let Some(r) = l.strip_prefix(p) {
            if r.starts_with("this") && !r.starts_with("this's") {
                // "as long as it's attacking THIS": the unit attacking this one.
                return (
                    Situation::Opponent {
                        opponent: Descriptor {
                            any_of: vec![vec![Term::Unit]],
                        },
                    },
                    Some(When::Defending),
                );
            }
            if p.starts_with("it's using") {
                return (
                    Situation::Other {
                        text: orig.to_string(),
                    },
                    Some(When::Attacking),
                );
            }
            let start = orig.len() - r.len();
            return match read_descriptor(&orig[start..]) {
                Some(d) => (Situation::Attacking { defender: d }, Some(When::Attacking)),
                None => (
                    Situation::Other {
                        text: orig.to_string(),
                    },
                    Some(When::Attacking),
                ),
            };
        }
    }
    if l == "it has a pilot on it" || l == "this has a pilot on it" {
        return (
            Situation::PilotedBy {
                pilot: Descriptor {
                    any_of: vec![vec![Term::Unit]],
                },
            },
            None,
        );
    }
    for p in [
        "being attacked by ",
        "it's being attacked by ",
        "this is being attacked by ",
        "attacked by ",
    ] {
        if let Some(r) = l.strip_prefix(p) {
            let start = orig.len() - r.len();
            return match read_descriptor(&orig[start..]) {
                Some(d) => (Situation::AttackedBy { attacker: d }, Some(When::Defending)),
                None => (
                    Situation::Other {
                        text: orig.to_string(),
                    },
                    Some(When::Defending),
                ),
            };
        }
    }
    (read_situation(orig), None)
}

/// A leading `When ...,` trigger that is about this attack.
fn trigger_situation(clause: &str) -> Option<Situation> {
    let l = clause.to_ascii_lowercase();
    // "When this unit attacks": only timing — it applies in its attacks.
    if l == "this attacks" || l == "this is attacking" || l == "this attack" {
        return Some(Situation::Attacking {
            defender: Descriptor {
                any_of: vec![vec![Term::Unit]],
            },
        });
    }
    if l == "this is attacked" || l == "this is being attacked" || l == "attacked this is" {
        return Some(Situation::AttackedBy {
            attacker: Descriptor {
                any_of: vec![vec![Term::Unit]],
            },
        });
    }
    if let Some(r) = l.strip_prefix("this is attacking ") {
        let start = clause.len() - r.len();
        return read_descriptor(&clause[start..]).map(|d| Situation::Attacking { defender: d });
    }
    None
}

/// A situation in words: arena, damage counters, attacking; the rest
/// depends on other units or choices and waits for the user.
fn read_situation(orig: &str) -> Situation {
    let parts = and_clauses(orig);
    if parts.len() > 1 {
        return parts
            .into_iter()
            .map(read_one_situation)
            .reduce(Situation::and)
            .unwrap_or(Situation::Other { text: orig.trim().to_string() });
    }
    read_one_situation(orig)
}

/// One clause of a situation in words.
fn read_one_situation(orig: &str) -> Situation {
    let l = orig.to_ascii_lowercase();
    let l = l.trim().trim_end_matches('.');
    for (arena, names) in [
        (
            "Character",
            [
                "this is in the character arena",
                "this in the character arena is",
            ],
        ),
        (
            "Ground",
            ["this is in the ground arena", "this in the ground arena is"],
        ),
        (
            "Space",
            ["this is in the space arena", "this in the space arena is"],
        ),
    ] {
        if names.contains(&l) {
            return Situation::InArena {
                arena: arena.to_string(),
            };
        }
    }
    if l == "this has a pilot on it" || l == "it has a pilot on it" || l == "this is piloted" {
        return Situation::PilotedBy {
            pilot: Descriptor {
                any_of: vec![vec![Term::Unit]],
            },
        };
    }
    for p in ["this is piloted by ", "it is piloted by "] {
        if let Some(r) = l.strip_prefix(p)
            && let Some(d) = read_descriptor(&orig.trim()[orig.trim().len() - r.len()..])
        {
            return Situation::PilotedBy { pilot: d };
        }
    }
    if l == "this has no damage counters on it" {
        return Situation::SelfDamaged { damaged: false };
    }
    if l == "this has one or more damage counters on it"
        || l == "this has damage counters on it"
        || l == "this is damaged"
    {
        return Situation::SelfDamaged { damaged: true };
    }
    for p in [
        "this is attacking ",
        "it's attacking ",
        "he's attacking ",
        "she's attacking ",
    ] {
        if let Some(r) = l.strip_prefix(p) {
            let start = orig.trim().len() - r.len();
            if let Some(d) = read_descriptor(&orig.trim()[start..]) {
                return Situation::Attacking { defender: d };
            }
        }
    }
    Situation::Other {
        text: orig.trim().to_string(),
    }
}

/// Whose effect, for when it acts.
#[derive(Clone, Copy)]
enum RecipientKind {
    This,
    Opponent,
    Both,
}

/// Who a `gets` applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Recipient {
    This,
    /// The opponent's units (matching, if described).
    Opponent(Option<Descriptor>),
    /// `each X` / `each other X`: any unit matching, either side.
    Each {
        which: Descriptor,
        other: bool,
    },
    /// `each of your X`: this unit if it matches and not `other`.
    Own {
        which: Option<Descriptor>,
        other: bool,
    },
    /// `one of your X`: chosen by the controller.
    OneOfYours {
        which: Option<Descriptor>,
        other: bool,
    },
    /// `an attacking X` chosen: the unit attacking this one, if it matches.
    Attacking(Option<Descriptor>),
    /// `the defending unit` (this unit attacks).
    DefendingUnit,
    /// Another, named unit, or units not in this attack.
    Elsewhere,
    /// A unit a player chooses (`choose one of your opponent's units`):
    /// possibly the opponent, the cards can't tell.
    Chosen(Option<Descriptor>),
    Unknown,
}

fn read_recipient(subject: &str) -> Recipient {
    let s = subject.trim().trim_start_matches(',').trim();
    let l = s.to_ascii_lowercase();
    if l == "this" || l == "it" || l == "he" || l == "she" || l == "this's" {
        return Recipient::This;
    }
    // A description, with "in the X arena" read as the arena of the attack.
    let desc = |start: usize| -> Result<Option<Descriptor>, ()> {
        let t = s[start..].trim();
        if t.is_empty() {
            return Ok(None);
        }
        let tl = t.to_ascii_lowercase();
        let (core, arena) = match tl.find(" in ") {
            Some(i) => {
                let place = &tl[i + 4..];
                let arena = ["space", "ground", "character"].into_iter().find(|a| {
                    place == format!("the {a} arena") || place == format!("the {a} arenas")
                });
                let any = place == "any arena"
                    || place == "each arena"
                    || place == "that arena"
                    || place == "this arena"
                    || place == "the arena"
                    || place == "the chosen arena"
                    || place.starts_with("the same arena");
                if arena.is_none() && !any {
                    return Err(());
                }
                (&t[..i], arena.map(title))
            }
            None => (t, None),
        };
        let mut d = read_descriptor(core).ok_or(())?;
        if let Some(a) = arena {
            for alt in &mut d.any_of {
                alt.push(Term::InArena(a.clone()));
            }
        }
        Ok(Some(d))
    };
    for p in [
        "each of your opponent's ",
        "one of your opponent's ",
        "your opponent's ",
        "each of your opponents ",
        "your opponents' ",
    ] {
        if let Some(r) = l.strip_prefix(p) {
            return match desc(s.len() - r.len()) {
                Ok(d) => Recipient::Opponent(d),
                Err(()) => Recipient::Unknown,
            };
        }
    }
    if let Some(r) = l.strip_prefix("the attacking ") {
        return match desc(s.len() - r.len()) {
            Ok(d) => Recipient::Attacking(d),
            Err(()) => Recipient::Unknown,
        };
    }
    if l.starts_with("the defending ") {
        return Recipient::DefendingUnit;
    }
    #[derive(Clone, Copy)]
    enum Group {
        Own,
        OneOfYours,
        Each,
    }
    for (p, other, group) in [
        ("each of your other ", true, Group::Own),
        ("your other ", true, Group::Own),
        ("each of your ", false, Group::Own),
        ("your ", false, Group::Own),
        ("one of your other ", true, Group::OneOfYours),
        ("one of your ", false, Group::OneOfYours),
        ("a unit of your choice", false, Group::OneOfYours),
        ("the unit of your choice", false, Group::OneOfYours),
        ("each other ", true, Group::Each),
        ("each ", false, Group::Each),
        ("every ", false, Group::Each),
        ("all ", false, Group::Each),
    ] {
        if let Some(r) = l.strip_prefix(p) {
            return match (group, desc(s.len() - r.len())) {
                (Group::Own, Ok(which)) => Recipient::Own { which, other },
                (Group::OneOfYours, Ok(which)) => Recipient::OneOfYours { which, other },
                (Group::Each, Ok(Some(which))) => Recipient::Each { which, other },
                (Group::Own | Group::OneOfYours, Err(())) if other => Recipient::Elsewhere,
                _ => Recipient::Unknown,
            };
        }
    }
    // A named unit other than this one ("Anakin Skywalker", "Galen Marek").
    if s.chars().next().is_some_and(char::is_uppercase) && !l.contains("this") {
        return Recipient::Elsewhere;
    }
    Recipient::Unknown
}

/// Reads a description of units: `a unique Character`, `non-Jedi
/// Characters`, `Clone, Jedi or Rebel`, `Dark Side unit`, `unit with 5
/// health or more`, `Jango`.
pub fn read_descriptor(text: &str) -> Option<Descriptor> {
    let ascii = ascii_only(text);
    let t = ascii.trim().trim_end_matches(['.', ',']).trim();
    let t = t
        .trim_start_matches("a ")
        .trim_start_matches("an ")
        .trim_start_matches("A ")
        .trim_start_matches("An ");
    if t.is_empty() {
        return None;
    }
    let l = t.to_ascii_lowercase();
    if l.contains(" that ") || l.contains(" who ") || l.contains(" if ") {
        return None;
    }
    // Stat clauses.
    let mut extra = Vec::new();
    let mut core = t.to_string();
    if let Some(i) = l.find(" with ") {
        let w = &l[i + 6..];
        let words: Vec<&str> = w.split_whitespace().collect();
        match words.as_slice() {
            [n, "health", "or", "more"] => extra.push(Term::HealthAtLeast(n.parse().ok()?)),
            ["power", n, "or", "less"] => extra.push(Term::PowerAtMost(n.parse().ok()?)),
            ["health", "higher", "than", "its", "power"] => extra.push(Term::HealthAbovePower),
            ["power", "higher", "than", "its", "health"] => extra.push(Term::PowerAboveHealth),
            [k] | ["a", k] | ["an", k] => extra.push(Term::HasKeyword(title(k))),
            _ => {
                // "with Hidden Cost or Stealth": keywords, one of them.
                let names: Vec<String> = w.split(" or ").map(|k| title(k.trim())).collect();
                if names.len() > 1 && names.iter().all(|k| k.split(' ').count() <= 2) {
                    extra.push(Term::HasAnyKeyword(names));
                } else {
                    return None;
                }
            }
        }
        core = t[..i].to_string();
    }
    let core_l = core.to_ascii_lowercase();
    let mut terms = Vec::new();
    let mut words = core.clone();
    let strip_word = |w: &mut String, p: &str| -> bool {
        if w.to_ascii_lowercase().starts_with(p) {
            *w = w[p.len()..].to_string();
            true
        } else {
            false
        }
    };
    if strip_word(&mut words, "non-unique ") {
        terms.push(Term::NonUnique);
    } else if strip_word(&mut words, "unique ") {
        terms.push(Term::Unique);
    }
    if strip_word(&mut words, "damaged ") {
        terms.push(Term::Damaged);
    }
    let _ = core_l;
    // Sides.
    for (p, side) in [("dark side ", "D"), ("light side ", "L"), ("neutral ", "N")] {
        if strip_word(&mut words, p) {
            terms.push(Term::Side(side.into()));
        }
    }
    // The unit noun at the end.
    let w = words.trim().to_string();
    let wl = w.to_ascii_lowercase();
    let mut noun: Option<Term> = None;
    let mut head = w.clone();
    for (suffix, t) in [
        (" space units", Some("Space")),
        (" space unit", Some("Space")),
        (" ground units", Some("Ground")),
        (" ground unit", Some("Ground")),
        (" character units", Some("Character")),
        (" characters", Some("Character")),
        (" character", Some("Character")),
        (" units", None),
        (" unit", None),
    ] {
        if wl.ends_with(suffix) {
            noun = t.map(|t| Term::Words(t.to_string()));
            head = w[..w.len() - suffix.len()].to_string();
            break;
        }
    }
    let hl = head.to_ascii_lowercase();
    if [
        "unit",
        "units",
        "character",
        "characters",
        "space unit",
        "space units",
        "ground unit",
        "ground units",
    ]
    .contains(&hl.as_str())
    {
        let t = match hl.as_str() {
            "character" | "characters" => Term::Words("Character".into()),
            "space unit" | "space units" => Term::Words("Space".into()),
            "ground unit" | "ground units" => Term::Words("Ground".into()),
            _ => Term::Unit,
        };
        terms.push(t);
        terms.extend(extra);
        return Some(Descriptor {
            any_of: vec![terms],
        });
    }
    // Alternatives: "Clone, Jedi or Rebel", "Jedi or Sith".
    let alts: Vec<String> = head
        .replace(", or ", ",")
        .replace(" or ", ",")
        .replace(" and ", ",")
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if alts.is_empty() {
        let mut t = terms;
        t.push(noun.unwrap_or(Term::Unit));
        t.extend(extra);
        return Some(Descriptor { any_of: vec![t] });
    }
    let mut any_of = Vec::new();
    for a in alts {
        if !a
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '\'')
        {
            return None;
        }
        if a.split_whitespace().count() > 4 {
            return None;
        }
        let mut t = terms.clone();
        match a.strip_prefix("non-").or_else(|| a.strip_prefix("Non-")) {
            Some(r) => t.push(Term::Not(singular(r))),
            None => {
                if a.eq_ignore_ascii_case("this") {
                    return None;
                }
                t.push(Term::Words(singular(&a)))
            }
        }
        if let Some(n) = &noun {
            t.push(n.clone());
        }
        t.extend(extra.clone());
        any_of.push(t);
    }
    Some(Descriptor { any_of })
}

/// `Stormtroopers` → `Stormtrooper`, word by word (not `Jedi`, `Sith`, ...).
pub fn singular(words: &str) -> String {
    words
        .split_whitespace()
        .map(|w| {
            let l = w.to_ascii_lowercase();
            if l.len() > 3
                && l.ends_with('s')
                && !l.ends_with("ss")
                && !l.ends_with("us")
                && !l.ends_with("is")
            {
                w[..w.len() - 1].to_string()
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads granted effects: `+2 power and Critical Hit 2`, `Accuracy 1,
/// Critical Hit 1, and "Damage from Dass can't be prevented."`, `+1 power
/// for each damage counter on it`. Speed, Stealth and other things that do
/// not act on an attack are dropped. Fails on anything unknown.
pub fn read_grants(text: &str) -> Result<Vec<Effect>, String> {
    let mut out = Vec::new();
    for item in grant_items(text) {
        read_grant_item(&item, &mut out)?;
    }
    Ok(out)
}

fn grant_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            quoted = !quoted;
        }
        let rest: String = chars[i..].iter().take(6).collect();
        if !quoted
            && (rest.starts_with(", and ") || rest.starts_with(" and ") || rest.starts_with(", "))
        {
            items.push(std::mem::take(&mut cur));
            i += if rest.starts_with(", and ") {
                6
            } else if rest.starts_with(" and ") {
                5
            } else {
                2
            };
            continue;
        }
        cur.push(c);
        i += 1;
    }
    items.push(cur);
    items
        .into_iter()
        .map(|s| s.trim().trim_end_matches('.').trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn read_grant_item(item: &str, out: &mut Vec<Effect>) -> Result<(), String> {
    let it = item.trim().trim_end_matches('.').trim();
    // Quoted ability text: read as the unit's own ability.
    if (it.starts_with('"') && it.ends_with('"') && it.len() > 1)
        || (it.starts_with('\'') && it.ends_with('\'') && it.len() > 1)
    {
        let inner = &it[1..it.len() - 1];
        let a = classify(inner, &["this unit".to_string()]);
        return match a.class {
            Class::Keyword => {
                out.extend(a.effects);
                Ok(())
            }
            Class::NotAttack => Ok(()),
            _ => Err(format!("granted text '{}'", crate::error::quote(inner))),
        };
    }
    let l = it.to_ascii_lowercase();
    if l == "can't play activated abilities" || l == "can't use activated abilities" {
        out.push(Effect::NoActivated);
        return Ok(());
    }
    if let Some(r) = l
        .strip_prefix("the ")
        .and_then(|r| r.strip_suffix(" subtype"))
    {
        out.push(Effect::TreatAs {
            words: it[4..4 + r.len()].to_string(),
        });
        return Ok(());
    }
    // Build points, speed, costs: nothing an attack reads.
    if !has_attack_word(&l)
        && !crate::keywords::parse(it).is_ok_and(|a| a.keyword.name() != "Stack")
    {
        return Ok(());
    }
    let words: Vec<&str> = l.split_whitespace().collect();
    let num = |w: &str| -> Option<i32> { w.trim_start_matches('+').parse::<i32>().ok() };
    match words.as_slice() {
        ["+x", "power"] | ["x", "power"] => {
            out.push(Effect::PowerX { sign: 1 });
            return Ok(());
        }
        ["-x", "power"] => {
            out.push(Effect::PowerX { sign: -1 });
            return Ok(());
        }
        [n, "power"] if num(n).is_some() => {
            out.push(Effect::Power { n: num(n).unwrap() });
            return Ok(());
        }
        [n, "health"] if num(n).is_some() => {
            out.push(Effect::Health { n: num(n).unwrap() });
            return Ok(());
        }
        [n, "speed"] if num(n).is_some() => return Ok(()),
        [n, "power", "for", "each", rest @ ..] if num(n).is_some() => {
            match read_count(&rest.join(" ")) {
                Some(per) => out.push(Effect::PowerPer {
                    n: num(n).unwrap(),
                    per,
                }),
                // A count the cards can't tell (equipment, a discard pile):
                // the user gives it.
                None => out.push(Effect::PowerX {
                    sign: num(n).unwrap(),
                }),
            }
            return Ok(());
        }
        [n, "health", "for", "each", rest @ ..] if num(n).is_some() => {
            let per = read_count(&rest.join(" "))
                .ok_or_else(|| format!("health for each {}", rest.join(" ")))?;
            out.push(Effect::HealthPer {
                n: num(n).unwrap(),
                per,
            });
            return Ok(());
        }
        [n, "speed", "for", "each", ..] if num(n).is_some() => return Ok(()),
        _ => {}
    }
    for non in [
        "stealth",
        "double strike",
        "hidden cost",
        "upkeep",
        "bounty",
        "velocity",
    ] {
        if starts_with_word(&l, non) {
            return Ok(());
        }
    }
    if let Some(r) = l.strip_prefix("loses ").or_else(|| l.strip_prefix("lose ")) {
        out.extend(read_losses(&it[it.len() - r.len()..])?);
        return Ok(());
    }
    if l == "armor" || l == "overkill" || l == "elude" {
        // Handled by parse below.
    }
    if let Some(k) = UNMODELLED_KEYWORDS
        .iter()
        .find(|k| starts_with_word(&l, &k.to_ascii_lowercase()))
    {
        return Err(format!("{k} (unmodelled)"));
    }
    match crate::keywords::parse_with_x(it) {
        Ok(a) => {
            out.push(Effect::Keyword {
                text: a.to_string(),
                ability: a,
            });
            Ok(())
        }
        Err(_) => Err(format!("'{}'", crate::error::quote(it))),
    }
}

fn read_losses(text: &str) -> Result<Vec<Effect>, String> {
    let mut out = Vec::new();
    for item in grant_items(text) {
        let l = item.to_ascii_lowercase();
        if ["stealth", "upkeep", "hidden cost"]
            .iter()
            .any(|n| starts_with_word(&l, n))
        {
            continue;
        }
        let bare = [
            "shields",
            "parry",
            "evade",
            "deflect",
            "retaliate",
            "accuracy",
            "critical hit",
            "fury",
            "stun",
            "lucky",
        ];
        if let Some(b) = bare.iter().find(|b| l == **b) {
            out.push(Effect::Lose { keyword: title(b) });
            continue;
        }
        match parse(&item) {
            Ok(a) => out.push(Effect::Lose {
                keyword: a.keyword.name().to_string(),
            }),
            Err(_) => {
                if let Some(k) = UNMODELLED_KEYWORDS
                    .iter()
                    .find(|k| l == k.to_ascii_lowercase())
                {
                    return Err(format!("{k} (unmodelled)"));
                } else {
                    return Err(format!("loses '{}'", crate::error::quote(&item)));
                }
            }
        }
    }
    Ok(out)
}

/// What `for each ...` counts.
fn read_count(text: &str) -> Option<Count> {
    let l = text.trim().trim_end_matches('.').to_ascii_lowercase();
    let l = l
        .trim_start_matches("equal to ")
        .trim_start_matches("the number of ")
        .trim_start_matches("each ")
        .to_string();
    if [
        "damage counter on it",
        "damage counter on this",
        "damage counter on him",
        "damage counter on her",
        "damage counters on it",
        "damage counters on this",
    ]
    .contains(&l.as_str())
    {
        return Some(Count::DamageCounters);
    }
    if [
        "card stacked beneath him",
        "card stacked beneath her",
        "card stacked beneath it",
        "card stacked beneath this",
        "cards stacked beneath this",
    ]
    .contains(&l.as_str())
    {
        return Some(Count::StackedCards);
    }
    if l == "cards in this's stack" || l == "card in this's stack" {
        return Some(Count::StackSize);
    }
    // "other unit you have in the Space arena", "of your opponent's units in
    // the Ground arena", "Naboo unit in the Character arena" (both sides).
    let (mut own, other, rest) = if let Some(r) = l
        .strip_prefix("of your opponent's ")
        .or_else(|| l.strip_prefix("your opponent's "))
    {
        (Some(false), false, r.to_string())
    } else if let Some(r) = l
        .strip_prefix("of your other ")
        .or_else(|| l.strip_prefix("your other "))
    {
        (Some(true), true, r.to_string())
    } else if let Some(r) = l.strip_prefix("of your ") {
        (Some(true), false, r.to_string())
    } else if let Some(r) = l.strip_prefix("other ") {
        (None, true, r.to_string())
    } else {
        (None, false, l.clone())
    };
    let (which, place) = rest.split_once(" in ")?;
    let arena_ok = place.starts_with("the ") && place.ends_with(" arena") && !place.contains("any")
        || place == "this arena"
        || place == "that arena";
    if !arena_ok {
        return None;
    }
    let mut which = which.to_string();
    for (suffix, side) in [
        (" you have", Some(true)),
        (" your opponent has", Some(false)),
    ] {
        if let Some(w) = which.strip_suffix(suffix) {
            which = w.to_string();
            own = side;
        }
    }
    let d = read_descriptor(&which)?;
    Some(Count::Units {
        own,
        other,
        which: d,
    })
}

/// "Not any of" a descriptor of plain words (`a Jedi or a Sith` → not
/// Jedi, not Sith); `None` when some alternative is more than words.
fn negated(d: &Descriptor) -> Option<Vec<Term>> {
    d.any_of
        .iter()
        .map(|t| match t.as_slice() {
            [Term::Words(w)] => Some(Term::Not(w.clone())),
            _ => None,
        })
        .collect()
}

/// The prevention grammar: `Prevent up to N damage to THIS`, `Whenever
/// THIS would be damaged, prevent N of that damage`.
fn prevention(
    printed: &str,
    core: &str,
    cost: Option<Cost>,
    situation: Option<Situation>,
    referent: Option<&Recipient>,
    who: &Who,
) -> Option<ReadAbility> {
    let l = core.to_ascii_lowercase();
    let effect = l.trim_end_matches('.').trim();
    let evade = |n: u32, x: bool, own: Option<Descriptor>| {
        let ab = Ability {
            keyword: Keyword::Evade(n),
            cost: cost.clone(),
            x,
        };
        let mut a = keyword(printed, ab, cost.clone());
        let mut sit = situation.clone();
        if let Some(d) = own {
            sit = add_situation(sit, Situation::Own { this: d });
        }
        if let Some(c) = &cost
            && !c.force_only()
            && !c.text.to_ascii_lowercase().starts_with("pay 0")
        {
            sit = add_situation(
                sit,
                Situation::Other {
                    text: format!("its cost is paid: {}", c.text),
                },
            );
        }
        if sit.is_some() {
            a.class = Class::Condition;
            a.decidable = sit.as_ref().map(Situation::decidable);
            a.situation = sit;
        }
        a
    };
    let effect = effect.strip_prefix("you may ").unwrap_or(effect);
    for p in ["prevent up to ", "prevent "] {
        if let Some(r) = effect.strip_prefix(p)
            && let Some((n, rest)) = r.split_once(' ')
            && let Some(target) = rest
                .strip_prefix("damage to ")
                .or_else(|| rest.strip_prefix("damage done to "))
        {
            let x = n == "x" && cost.as_ref().is_some_and(|c| c.x);
            let amount = match n {
                "all" => crate::unit::MAX_VALUE,
                _ if x => 0,
                _ => n.parse::<u32>().ok()?,
            };
            if target == "this" || target == "itself" {
                return Some(evade(amount, x, None));
            }
            if target.starts_with("one of your other")
                || target.starts_with("your other")
                || target.starts_with("another")
            {
                return Some(ReadAbility::not_attack(
                    printed,
                    "prevents damage to other units only",
                ));
            }
            if target.starts_with("that ") || target.starts_with("the chosen") {
                return match referent {
                    Some(Recipient::Elsewhere) => Some(ReadAbility::not_attack(
                        printed,
                        "prevents damage to other units only",
                    )),
                    _ => None,
                };
            }
            // "Prevent all damage done to units in the Character arena this
            // turn": both units of an attack there.
            if let Some(r) = target.strip_prefix("units in the ")
                && let Some(arena) = r.split(" arena").next().map(str::trim)
                && ["space", "ground", "character"].contains(&arena)
            {
                let mut a = evade(amount, x, None);
                a.subject = Some(Subject::Both);
                a.class = Class::Condition;
                a.situation = add_situation(
                    a.situation.take(),
                    Situation::InArena {
                        arena: title(arena),
                    },
                );
                if !cost.as_ref().is_some_and(|c| c.force_only()) {
                    a.situation = add_situation(
                        a.situation.take(),
                        Situation::Other {
                            text: "its cost is paid".into(),
                        },
                    );
                }
                a.decidable = a.situation.as_ref().map(Situation::decidable);
                return Some(a);
            }
            for pre in ["one of your ", "any one ", "a ", "an ", "each of your "] {
                if let Some(d) = target.strip_prefix(pre) {
                    let orig_at = l.find(d).map(|i| &core[i..]).unwrap_or(d);
                    let orig_at = orig_at.trim_end_matches('.');
                    let desc = read_descriptor(orig_at.split(" in ").next().unwrap_or(orig_at))?;
                    if !who.could_be(&desc) {
                        return Some(ReadAbility::not_attack(
                            printed,
                            "prevents damage to other units only",
                        ));
                    }
                    return Some(evade(amount, x, Some(desc)));
                }
            }
            // A name of another unit (capitalised in the card's text).
            let orig_target = &core[core.len() - core.trim_end_matches('.').len()
                + (l.len() - l.trim_end_matches('.').len())..];
            let _ = orig_target;
            let at = l.find(target).unwrap_or(0);
            if core[at..].chars().next().is_some_and(char::is_uppercase) && !target.contains("this")
            {
                return Some(ReadAbility::not_attack(
                    printed,
                    "prevents damage to another, named unit",
                ));
            }
            return None;
        }
    }
    // After "whenever X would be damaged": "prevent N of that damage [if ...]".
    if let Some(r) = effect.strip_prefix("prevent ") {
        let (amount, cond) = match r.split_once(" of that damage") {
            Some((n, c)) => (n, c.trim()),
            None if r == "that damage" => ("all", ""),
            None => return None,
        };
        if matches!(
            referent,
            Some(Recipient::Own { other: true, .. })
                | Some(Recipient::OneOfYours { other: true, .. })
                | Some(Recipient::Elsewhere)
        ) {
            return Some(ReadAbility::not_attack(
                printed,
                "prevents damage to other units only",
            ));
        }
        if amount.starts_with("all but") {
            return None;
        }
        let n = if amount == "all" {
            crate::unit::MAX_VALUE
        } else {
            amount.parse::<u32>().ok()?
        };
        let extra = if cond.is_empty() {
            None
        } else {
            Some(Situation::Other {
                text: cond.to_string(),
            })
        };
        let mut a = match referent {
            Some(Recipient::This) | None => evade(n, false, None),
            Some(Recipient::Own {
                which: Some(d),
                other: false,
            })
            | Some(Recipient::OneOfYours {
                which: Some(d),
                other: false,
            }) => evade(n, false, Some(d.clone())),
            Some(Recipient::Own { other: true, .. })
            | Some(Recipient::OneOfYours { other: true, .. })
            | Some(Recipient::Elsewhere) => {
                return Some(ReadAbility::not_attack(
                    printed,
                    "prevents damage to other units only",
                ));
            }
            _ => return None,
        };
        if let Some(x) = extra {
            a.class = Class::Condition;
            a.situation = add_situation(a.situation.take(), x);
            a.decidable = a.situation.as_ref().map(Situation::decidable);
        }
        return Some(a);
    }
    None
}

/// Damage in words: `This unit does 1 additional damage for this attack`
/// (extra attack damage), `Damage from THIS can only be prevented by a Jedi
/// or Sith` (Ferocity against the others).
fn damage_clause(
    printed: &str,
    clause: &str,
    cost: Option<Cost>,
    situation: Option<Situation>,
    referent: Option<&Recipient>,
    attacking: bool,
    who: &Who,
) -> Option<ReadAbility> {
    let l = clause.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    let make = |class: Class,
                subject: Subject,
                when: When,
                effects: Vec<Effect>,
                sit: Option<Situation>| {
        let mut a = ReadAbility::new(printed, class);
        a.subject = Some(subject);
        a.when = Some(when);
        a.effects = effects;
        a.decidable = sit.as_ref().map(Situation::decidable);
        a.situation = sit;
        a.cost = cost.clone();
        if a.class == Class::Keyword && a.situation.is_some() {
            a.class = Class::Condition;
        }
        a
    };
    // "Each activated ability of your opponent's units costs 1 more Force to
    // play": the Force its paid abilities cost.
    if l.contains("activated abilit")
        && let Some(i) = l.rfind(" cost")
    {
        let after = l[i..]
            .trim_start_matches(" costs")
            .trim_start_matches(" cost")
            .trim();
        let mut w = after.split_whitespace();
        if let (Some(n), Some(dir), Some(force)) = (w.next(), w.next(), w.next())
            && force.starts_with("force")
            && let Ok(n) = n.parse::<i32>()
        {
            let n = match dir {
                "more" | "additional" => n,
                "less" | "fewer" => -n,
                _ => return None,
            };
            let head = &l[..i];
            let subject = if head.contains("opponent") {
                Subject::Opponent
            } else if head.contains("this") {
                Subject::This
            } else {
                return None;
            };
            return Some(make(
                Class::Keyword,
                subject,
                When::Any,
                vec![Effect::CostChange { n }],
                situation,
            ));
        }
    }
    // "Put 3 damage counters on any Character unit" before the unit's attack.
    if let Some(r) = l.strip_prefix("put ")
        && let Some((n, target)) = r
            .split_once(" damage counters on ")
            .or_else(|| r.split_once(" damage counter on "))
        && let Ok(n) = n.parse::<u32>()
    {
        let orig = &clause[clause.len() - target.len()..].trim_end_matches('.');
        let d = match (target, referent) {
            ("it" | "that unit", Some(Recipient::Chosen(Some(d)))) => d.clone(),
            _ => ["any ", "a ", "an ", "one of your opponent's "]
                .iter()
                .find_map(|p| {
                    target
                        .strip_prefix(p)
                        .map(|x| &orig[orig.len() - x.len()..])
                })
                .and_then(|x| read_descriptor(x.split(" in ").next().unwrap_or(x)))?,
        };
        let mut sit = add_situation(situation, Situation::Opponent { opponent: d });
        let when = if attacking {
            When::Attacking
        } else {
            When::Any
        };
        if !attacking {
            sit = add_situation(
                sit,
                Situation::Other {
                    text: "played when the player chooses".into(),
                },
            );
        }
        if !cost.as_ref().is_some_and(|c| c.force_only()) {
            sit = add_situation(
                sit,
                Situation::Other {
                    text: "its cost is paid".into(),
                },
            );
        }
        return Some(make(
            Class::Condition,
            Subject::Opponent,
            when,
            vec![Effect::Counters { n: n as i32 }],
            sit,
        ));
    }
    // "Remove 2 damage counters from one of your Transports" where this
    // unit is no Transport: other units only.
    if let Some(r) = l.strip_prefix("remove ")
        && let Some((_, target)) = r
            .split_once(" damage counters from ")
            .or_else(|| r.split_once(" damage counter from "))
        && let Some(d) = target
            .strip_prefix("one of your ")
            .or_else(|| target.strip_prefix("a "))
    {
        let orig = &clause[clause.len() - d.len()..];
        let orig = orig.split(" and put").next().unwrap_or(orig);
        if let Some(desc) = read_descriptor(orig.split(" in ").next().unwrap_or(orig))
            && !who.could_be(&desc)
        {
            return Some(ReadAbility::not_attack(
                printed,
                "removes counters from other units only",
            ));
        }
    }
    // "Remove 2 damage counters from THIS": read as used before the attack.
    if let Some(r) = l.strip_prefix("remove ")
        && let Some((n, target)) = r
            .split_once(" damage counters from ")
            .or_else(|| r.split_once(" damage counter from "))
        && target == "this"
        && situation.is_none()
        && let Ok(n) = n.trim_start_matches("up to ").parse::<i32>()
    {
        let sit = add_situation(
            situation,
            Situation::Other {
                text: "used before the attack".into(),
            },
        );
        return Some(make(
            Class::Condition,
            Subject::This,
            When::Any,
            vec![Effect::Counters { n: -n }],
            sit,
        ));
    }
    // "THIS may tap and attack it with +5 power" (it: a unit chosen before).
    for p in [
        "this may tap and attack it with ",
        "this may attack it with ",
        "this attacks it with ",
    ] {
        if let Some(r) = l.strip_prefix(p)
            && let Some(n) = r.strip_suffix(" power")
            && let Ok(n) = n.trim_start_matches('+').parse::<i32>()
        {
            let d = match referent {
                Some(Recipient::Chosen(Some(d))) => d.clone(),
                _ => return None,
            };
            let sit = add_situation(situation, Situation::Attacking { defender: d });
            return Some(make(
                Class::Condition,
                Subject::This,
                When::Attacking,
                vec![Effect::Power { n }],
                sit,
            ));
        }
    }
    // "Disrupt an attack [from a unit that is not a Jedi or a Sith]".
    if let Some(r) = l.strip_prefix("disrupt an attack") {
        let r = r.trim();
        let mut sit = situation;
        if let Some(from) = r.strip_prefix("from ") {
            let from = from
                .trim_start_matches("a unit that is not ")
                .trim_start_matches("a unit that isn't ");
            if from.len() == r.len() - 5 {
                return None;
            }
            let orig = &clause[clause.len() - from.len()..].trim_end_matches('.');
            let d = read_descriptor(orig)?;
            let not = negated(&d)?;
            sit = add_situation(
                sit,
                Situation::AttackedBy {
                    attacker: Descriptor { any_of: vec![not] },
                },
            );
        } else if !r.is_empty() && r != "on this" {
            return None;
        }
        return Some(make(
            Class::Keyword,
            Subject::This,
            When::Defending,
            vec![Effect::CancelAttack],
            sit,
        ));
    }
    // "THIS does X damage to the defending unit" (X given by the user).
    if let Some(r) = l.strip_prefix("this does x damage to the defending unit") {
        let _ = r;
        let mut a = make(
            Class::Condition,
            Subject::This,
            When::Attacking,
            vec![Effect::ExtraDamageX],
            situation,
        );
        a.x = Some(XSource::User);
        a.situation = add_situation(
            a.situation.take(),
            Situation::Other {
                text: "X is given by the user (=N)".into(),
            },
        );
        a.decidable = Some(false);
        return Some(a);
    }
    // "Whenever a unit attacks THIS, prevent all damage the attacking unit would do".
    if l == "prevent all damage the attacking unit would do"
        || l == "prevent all damage that unit would do"
    {
        let ab = Ability {
            keyword: Keyword::Evade(crate::unit::MAX_VALUE),
            cost: None,
            x: false,
        };
        return Some(make(
            Class::Keyword,
            Subject::This,
            When::Defending,
            vec![Effect::Keyword {
                text: ab.to_string(),
                ability: ab,
            }],
            situation,
        ));
    }
    // "Prevent that damage unless your opponent pays 2 Force" (after "when
    // one of your opponent's X would damage THIS").
    if let Some(r) = l.strip_prefix("prevent that damage unless your opponent pays ")
        && let Some(n) = r.strip_suffix(" force")
        && let Ok(force) = n.parse::<u32>()
    {
        let from = match referent {
            Some(Recipient::Opponent(d)) => d.clone().unwrap_or(Descriptor {
                any_of: vec![vec![Term::Unit]],
            }),
            _ => return None,
        };
        let mut a = make(
            Class::Keyword,
            Subject::This,
            When::Any,
            vec![Effect::Toll { force }],
            situation,
        );
        a.situation = add_situation(a.situation.take(), Situation::Opponent { opponent: from });
        a.class = Class::Condition;
        a.decidable = a.situation.as_ref().map(Situation::decidable);
        return Some(a);
    }
    for p in ["this does ", "it does "] {
        if let Some(r) = l.strip_prefix(p) {
            let (n, rest) = r.split_once(' ')?;
            if rest == "additional damage for this attack"
                || rest == "more damage for this attack"
                || rest == "more damage"
            {
                let n: u32 = n.parse().ok()?;
                let mut a = ReadAbility::new(
                    printed,
                    if situation.is_some() {
                        Class::Condition
                    } else {
                        Class::Keyword
                    },
                );
                a.subject = Some(Subject::This);
                a.when = Some(When::Attacking);
                a.effects.push(Effect::ExtraDamage { n });
                a.decidable = situation.as_ref().map(Situation::decidable);
                a.situation = situation;
                a.cost = cost;
                return Some(a);
            }
        }
    }
    if let Some(r) = l.strip_prefix("damage from this can only be prevented by ") {
        let orig = &clause[clause.len() - r.len()..];
        let d = read_descriptor(orig.trim_end_matches('.'))?;
        // Unpreventable unless the damaged unit is one of those.
        let not = negated(&d)?;
        let mut a = ReadAbility::new(printed, Class::Condition);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::Keyword {
            text: "Ferocity".into(),
            ability: Ability {
                keyword: Keyword::Ferocity,
                cost: None,
                x: false,
            },
        });
        a.situation = add_situation(
            situation,
            Situation::Opponent {
                opponent: Descriptor { any_of: vec![not] },
            },
        );
        a.decidable = a.situation.as_ref().map(Situation::decidable);
        return Some(a);
    }
    None
}

/// `Switch: a/b(/c)`: each arena of the type line gets its effects.
fn switch(printed: &str, rest: &str) -> ReadAbility {
    let mut a = ReadAbility::new(printed, Class::Condition);
    a.subject = Some(Subject::This);
    a.when = Some(When::Any);
    a.decidable = Some(true);
    for (i, mode) in rest.split('/').enumerate() {
        let mode = mode.trim();
        match read_grants(mode) {
            Ok(e) => a.switch.push((format!("{}", i + 1), e)),
            Err(why) => {
                if mode.eq_ignore_ascii_case("none") {
                    a.switch.push((format!("{}", i + 1), Vec::new()));
                    continue;
                }
                return ReadAbility::not_understood(printed, &why);
            }
        }
    }
    a.situation = Some(Situation::Other {
        text: "the arena of the attack (Switch)".into(),
    });
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_and_continuations() {
        let t = "Pay 1 Force -> Anakin gets +2 power for this attack. Pay 2 Force -> Evade 2 (Prevent up to 2 damage to this unit. ); Pay 1 Force -> Prevent up to 3 damage to Padme Amidala.";
        assert_eq!(split_abilities(t).len(), 3);
        let t = "Tap -> 2 Force you gain. Only when Yoda would attack play. 8 Force Pay -> Yoda untap; 2 Force Pay -> Evade 4";
        assert_eq!(split_abilities(t).len(), 3);
        let t = "Overkill (When this unit attacks...) Shields 1 (Each unit gets -1 power as long as it_s attacking this unit.)";
        assert_eq!(split_abilities(t).len(), 2);
    }

    #[test]
    fn self_references() {
        let n = self_names("Darth Vader (B)");
        assert!(n.contains(&"Vader".to_string()));
        assert_eq!(mark_self("Vader gets +2 power", &n), "THIS gets +2 power");
        let n = self_names("Luke Skywalker (C)");
        assert_eq!(
            mark_self("Anakin Skywalker gets +2 power", &n),
            "Anakin Skywalker gets +2 power"
        );
    }
}
