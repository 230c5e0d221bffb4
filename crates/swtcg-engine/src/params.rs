//! The front-ends' registry of parameters: every number and keyword of
//! the attacker and the defender a user may give ([`Param`], with its name,
//! alias, kind, side, bounds and help text), how their values are written
//! (ranges, switches), the units an assignment of them makes, and the
//! output formats. The command line's flags, the web API's fields and
//! Python's keywords are all read through it, so a new parameter is added
//! here once. Its public path is `request`, beside the choice words and
//! the requests that read them.
//!
//! ```
//! use swtcg_engine::request::{Param, parse_values};
//! assert_eq!(Param::from_name("defender-armor"), Some(Param::Armor));
//! assert_eq!(parse_values(Param::Power, "1..3").unwrap(), vec![1, 2, 3]);
//! assert_eq!(parse_values(Param::Armor, "both").unwrap(), vec![0, 1]);
//! ```

use crate::attack::Side;
use crate::error::{Error, Result};
use crate::unit::Unit;

/// Most values one range may expand to.
pub(crate) const MAX_RANGE_LEN: usize = 10_000;

/// How a parameter's values are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A whole number from 0.
    Count,
    /// A whole number, possibly negative (Accuracy).
    Signed,
    /// On or off (1 or 0).
    Switch,
    /// A health, at least 1 (0: not given).
    Health,
}

macro_rules! params {
    ($($variant:ident, $name:literal, $kind:ident, $side:ident, $doc:literal;)*) => {
        /// One number or keyword of the attacker or the defender, named as
        /// its flag.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Param {
            $(#[doc = $doc] $variant,)*
        }

        impl Param {
            /// Every parameter, in column order.
            pub const ALL: &'static [Param] = &[$(Param::$variant,)*];

            /// Its flag's name (without `--`), and its column's.
            pub fn name(self) -> &'static str {
                match self {
                    $(Param::$variant => $name,)*
                }
            }

            /// How its values are written.
            pub fn kind(self) -> ValueKind {
                match self {
                    $(Param::$variant => ValueKind::$kind,)*
                }
            }

            /// Whose number or keyword it is.
            pub fn side(self) -> Side {
                match self {
                    $(Param::$variant => Side::$side,)*
                }
            }

            /// What it means, for help texts.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Param::$variant => $doc,)*
                }
            }

            /// Its name with whose it is spelled out, when its own name
            /// leaves that implied: `defender-armor` for `armor`,
            /// `attacker-power` for `power` (a newcomer's first guess, since
            /// `defender-stun` and `attacker-health` are names). `None` for
            /// a name that already says its side. Every front-end takes
            /// it wherever it takes the name ([`Param::from_name`]).
            ///
            /// ```
            /// use swtcg_engine::request::Param;
            /// assert_eq!(Param::Armor.alias(), Some("defender-armor"));
            /// assert_eq!(Param::Power.alias(), Some("attacker-power"));
            /// assert_eq!(Param::DefenderStun.alias(), None);
            /// assert_eq!(Param::from_name("defender-armor"), Some(Param::Armor));
            /// ```
            pub fn alias(self) -> Option<&'static str> {
                let (long, plain) = match self {
                    $(Param::$variant => (side_named!($side, $name), $name),)*
                };
                let named = ["attacker-", "defender-"].iter().any(|s| plain.starts_with(s));
                (!named).then_some(long)
            }
        }
    };
}

/// A parameter's name with its side's word in front (see [`Param::alias`]).
macro_rules! side_named {
    (Attacking, $name:literal) => {
        concat!("attacker-", $name)
    };
    (Defending, $name:literal) => {
        concat!("defender-", $name)
    };
}

params! {
    Power, "power", Count, Attacking, "Attacker's power (attack dice).";
    Accuracy, "accuracy", Signed, Attacking, "Attacker's Accuracy (may be negative).";
    Armor, "armor", Switch, Defending, "Defender has Armor.";
    Shields, "shields", Count, Defending, "Defender's Shields X.";
    Fury, "fury", Count, Attacking, "Attacker's Fury X.";
    Crit, "crit", Count, Attacking, "Attacker's Critical Hit X.";
    Parry, "parry", Count, Defending, "Defender's Parry X.";
    Evade, "evade", Count, Defending, "Defender's Evade X.";
    Deflect, "deflect", Count, Defending, "Defender's Deflect X (deflected damage goes to the attacker).";
    Health, "health", Health, Defending, "Defender's health (adds P(discard)).";
    Ferocity, "ferocity", Switch, Attacking, "Attacker has Ferocity.";
    Stun, "stun", Count, Attacking, "Attacker's Stun X.";
    Lucky, "lucky", Count, Attacking, "Attacker's Lucky X (re-rolls up to X of its dice).";
    Retaliate, "retaliate", Count, Defending, "Defender's Retaliate X (dice of damage to the attacker).";
    Fortitude, "fortitude", Switch, Defending, "Defender has Fortitude.";
    DefenderFerocity, "defender-ferocity", Switch, Defending, "Defender has Ferocity (its deflected and Retaliate damage can't be prevented).";
    Counters, "counters", Count, Defending, "Damage counters already on the defender.";
    DefenderStun, "defender-stun", Count, Defending, "Defender's Stun X (lands when it damages the attacker).";
    DefenderLucky, "defender-lucky", Count, Defending, "Defender's Lucky X (forces up to X attack dice to be re-rolled).";
    AttackerHealth, "attacker-health", Health, Attacking, "Attacker's health.";
    AttackerCounters, "attacker-counters", Count, Attacking, "Damage counters already on the attacker.";
    AttackerArmor, "attacker-armor", Switch, Attacking, "Attacker has Armor (Retaliate dice need 5+).";
    AttackerEvade, "attacker-evade", Count, Attacking, "Attacker's Evade X (against deflected and Retaliate damage).";
    AttackerDeflect, "attacker-deflect", Count, Attacking, "Attacker's Deflect X (against deflected and Retaliate damage).";
    AttackerFortitude, "attacker-fortitude", Switch, Attacking, "Attacker has Fortitude.";
    Backfire, "backfire", Count, Attacking, "Attacker's Backfire X (a natural 3 before re-rolls: X dice of damage to itself at the end).";
    Riposte, "riposte", Count, Defending, "Defender's Riposte X (a natural 2 in the final roll: X damage to the attacker at the end).";
    DoubleDamage, "double-damage", Switch, Attacking, "Attacker has Double Damage (one more counter per point of attack damage not prevented).";
    Overload, "overload", Count, Attacking, "Attacker's Overload X (it may take +X power, then X dice of damage to itself at the end).";
    Absorb, "absorb", Count, Defending, "Defender's Absorb X (prevents up to X, like Evade).";
    Persuade, "persuade", Count, Defending, "Defender's Persuade X (prevents up to X, like Evade).";
    Resilience, "resilience", Signed, Attacking, "Attacker's Resilience X (power +X with at least |X| counters; may be negative).";
    Cunning, "cunning", Switch, Attacking, "Attacker has Cunning (the defender's damage prevention is chosen before the roll).";
}

/// The columns every machine-readable table carries (today's keys).
pub const CORE: [Param; 10] = [
    Param::Power,
    Param::Accuracy,
    Param::Armor,
    Param::Shields,
    Param::Fury,
    Param::Crit,
    Param::Parry,
    Param::Evade,
    Param::Deflect,
    Param::Health,
];

impl Param {
    /// The parameter named `name` (a flag without `--`).
    pub fn from_name(name: &str) -> Option<Param> {
        Param::ALL
            .iter()
            .copied()
            .find(|p| p.name() == name || p.alias() == Some(name))
    }

    /// Its value when not given: power 1, everything else 0 (off, health
    /// unknown).
    pub fn neutral(self) -> i64 {
        if self == Param::Power { 1 } else { 0 }
    }

    /// Parses one value of this parameter; an error's origin is the
    /// parameter and the text given.
    pub fn value(self, text: &str) -> Result<i64> {
        let at = |e: Error| e.at_param(self.name(), Some(text));
        match self.kind() {
            ValueKind::Switch => match parse_switch(self.name(), text)?.as_slice() {
                [b] => Ok(*b as i64),
                _ => Err(at(Error::syntax("give on or off"))),
            },
            _ => match parse_range::<i64>(self, text)?.as_slice() {
                [v] => Ok(*v),
                _ => Err(at(Error::syntax("give one value"))),
            },
        }
    }

    /// What it is in a player's words, from its doc: `Attacker's Lucky`,
    /// `Defender's health`.
    pub(crate) fn label(self) -> String {
        let d = self.doc();
        let end = d.find(" (").or_else(|| d.find('.')).unwrap_or(d.len());
        d[..end].trim_end_matches(" X").to_string()
    }

    /// What it is in a player's words without whose it is, for a form
    /// that groups parameters by side: `Critical Hit`, `Health`, `Armor`,
    /// `Damage counters`.
    ///
    /// ```
    /// use swtcg_engine::request::Param;
    /// assert_eq!(Param::Crit.short_label(), "Critical Hit");
    /// assert_eq!(Param::AttackerHealth.short_label(), "Health");
    /// assert_eq!(Param::DefenderFerocity.short_label(), "Ferocity");
    /// assert_eq!(Param::Counters.short_label(), "Damage counters");
    /// ```
    pub fn short_label(self) -> String {
        let label = self.label();
        let owners = [
            "Attacker's ",
            "Defender's ",
            "Attacker has ",
            "Defender has ",
        ];
        let rest = owners
            .iter()
            .find_map(|o| label.strip_prefix(o))
            .unwrap_or(&label);
        let rest = [" already on the attacker", " already on the defender"]
            .iter()
            .find_map(|o| rest.strip_suffix(o))
            .unwrap_or(rest);
        let mut c = rest.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    }

    /// The values it may take: at least 0 (a health at least 1, a switch 0
    /// or 1, Accuracy and Resilience from −1000), at most the solver's
    /// bound for its keyword (`crate::unit::MAX_POWER`, dice-adding
    /// keywords [`crate::unit::MAX_EXTRA_DICE`], the others
    /// [`crate::unit::MAX_VALUE`]).
    pub fn bounds(self) -> (i64, i64) {
        use crate::unit::{MAX_EXTRA_DICE, MAX_POWER, MAX_VALUE};
        let (extra, value) = (MAX_EXTRA_DICE as i64, MAX_VALUE as i64);
        match self {
            Param::Power => (0, MAX_POWER as i64),
            Param::Fury | Param::Lucky | Param::DefenderLucky | Param::Retaliate => (0, extra),
            Param::Backfire | Param::Overload => (0, extra),
            _ => match self.kind() {
                ValueKind::Count => (0, value),
                ValueKind::Signed => (-value, value),
                ValueKind::Switch => (0, 1),
                ValueKind::Health => (1, value),
            },
        }
    }

    /// Refuses `v` outside [`Param::bounds`], naming the parameter and
    /// the value.
    pub(crate) fn check(self, v: i64) -> Result<()> {
        let (min, max) = self.bounds();
        if (min..=max).contains(&v) {
            return Ok(());
        }
        let words = self.label();
        let why = match self.kind() {
            ValueKind::Health if v < 1 => format!("{words} must be at least 1"),
            ValueKind::Switch => format!("{words}: give on or off"),
            _ if v > max => format!("{words} {v} is above the limit of {max}"),
            _ if min < 0 => format!("{words} must be within {min}..{max}"),
            _ => format!("{words} must be at least {min}"),
        };
        Err(Error::range(why).at_param(self.name(), Some(&v.to_string())))
    }

    /// Sets this parameter to `v` on the attacker `a` or the defender `d`.
    /// Values are range-checked when read ([`parse_range`]); here they are
    /// only stored.
    pub fn apply(self, v: i64, a: &mut Unit, d: &mut Unit) {
        let n = v.clamp(0, u32::MAX as i64) as u32;
        let on = v != 0;
        let health = (v > 0).then_some(n);
        match self {
            Param::Power => a.power = n,
            Param::Accuracy => {
                a.keywords.accuracy = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
            }
            Param::Armor => d.keywords.armor = on,
            Param::Shields => d.keywords.shields = n,
            Param::Fury => a.keywords.fury = n,
            Param::Crit => a.keywords.crit = n,
            Param::Parry => d.keywords.parry = n,
            Param::Evade => {
                d.keywords.evade = n.saturating_add(d.keywords.absorb + d.keywords.persuade)
            }
            Param::Deflect => d.keywords.deflect = n,
            Param::Health => d.health = health,
            Param::Ferocity => a.keywords.ferocity = on,
            Param::Stun => a.keywords.stun = n,
            Param::Lucky => a.keywords.lucky = n,
            Param::Retaliate => {
                d.keywords.set(crate::keywords::Keyword::Retaliate(n));
            }
            Param::Fortitude => d.keywords.fortitude = on,
            Param::DefenderFerocity => d.keywords.ferocity = on,
            Param::Counters => d.counters = n,
            Param::DefenderStun => d.keywords.stun = n,
            Param::DefenderLucky => d.keywords.lucky = n,
            Param::AttackerHealth => a.health = health,
            Param::AttackerCounters => a.counters = n,
            Param::AttackerArmor => a.keywords.armor = on,
            Param::AttackerEvade => a.keywords.evade = n,
            Param::AttackerDeflect => a.keywords.deflect = n,
            Param::AttackerFortitude => a.keywords.fortitude = on,
            Param::Backfire => a.keywords.backfire = n,
            Param::Riposte => d.keywords.riposte = n,
            Param::DoubleDamage => a.keywords.double_damage = on,
            Param::Overload => {
                a.keywords
                    .boosts
                    .retain(|b| b.source != crate::keywords::BoostSource::Overload);
                if n > 0 {
                    a.keywords.add(&[crate::keywords::Ability {
                        keyword: crate::keywords::Keyword::Overload(n),
                        cost: None,
                        x: false,
                    }]);
                }
            }
            Param::Absorb => {
                d.keywords.evade = d.keywords.evade - d.keywords.absorb + n;
                d.keywords.absorb = n;
            }
            Param::Persuade => {
                d.keywords.evade = d.keywords.evade - d.keywords.persuade + n;
                d.keywords.persuade = n;
            }
            Param::Resilience => {
                a.keywords.resilience = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
            }
            Param::Cunning => a.keywords.cunning = on,
        }
    }

    /// A value as a table cell: on/off for switches, empty for an unknown
    /// health.
    pub fn cell(self, v: i64) -> String {
        match self.kind() {
            ValueKind::Switch => if v != 0 { "on" } else { "off" }.to_string(),
            ValueKind::Health if v == 0 => String::new(),
            _ => v.to_string(),
        }
    }
}

/// The attacker and the defender of one assignment of parameters (those
/// not given at their neutral value), checked.
pub fn units_of(values: &[(Param, i64)]) -> Result<(Unit, Unit)> {
    let (mut a, mut d) = neutral_units();
    for &(p, v) in values {
        p.apply(v, &mut a, &mut d);
    }
    if let Some(e) = first_error(&checks(&a, Side::Attacking), &checks(&d, Side::Defending)) {
        return Err(e.clone());
    }
    Ok((a, d))
}

/// The first error of an attacker's and a defender's [`checks`], in the
/// order a row reports it: the defender's counters, the attacker's, then
/// each unit's own validation.
pub(crate) fn first_error<'e>(
    a: &'e [Option<Error>; 2],
    d: &'e [Option<Error>; 2],
) -> Option<&'e Error> {
    [&d[0], &a[0], &a[1], &d[1]].into_iter().flatten().next()
}

/// The units every assignment starts from.
pub(crate) fn neutral_units() -> (Unit, Unit) {
    (Unit::new("attacker", 1), Unit::new("defender", 0))
}

/// A side's unit's checks: its damage counters against its health, then
/// the unit's own validation; the error of each that fails.
pub(crate) fn checks(u: &Unit, side: Side) -> [Option<Error>; 2] {
    let (param, health) = match side {
        Side::Attacking => (Param::AttackerCounters, Param::AttackerHealth),
        Side::Defending => (Param::Counters, Param::Health),
    };
    let counters = if u.health.is_none() && u.counters > 0 {
        Some(
            Error::missing(format!("{} need {}", param.label(), health.label()))
                .at_param(param.name(), Some(&u.counters.to_string())),
        )
    } else if let Some(h) = u.health
        && u.counters >= h
    {
        Some(Error::range(format!(
            "{} counters on a unit with health {h}: it would already be discarded (counters must be below health)",
            u.counters
        ))
        .at_param(param.name(), Some(&u.counters.to_string())))
    } else {
        None
    };
    [counters, u.validate().err()]
}

/// Parses a range of whole numbers for parameter `param`: `N`, `A..B` or
/// `A..=B` (both inclusive), or a comma list of those; each value within
/// [`Param::bounds`]. An error's origin is the parameter and the value.
pub fn parse_range<T: TryFrom<i64>>(param: Param, text: &str) -> Result<Vec<T>> {
    let name = param.name();
    let bad = |why: &str| {
        Error::syntax(format!(
            "malformed range: {why} (expected N, A..B or a comma list such as 0,2..4)"
        ))
        .at_param(name, Some(text))
    };
    let num = |s: &str| -> Result<i64> {
        s.trim().parse::<i64>().map_err(|_| {
            bad(&format!(
                "'{}' is not a whole number",
                crate::error::quote(s.trim())
            ))
        })
    };
    let mut out = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(bad("empty item"));
        }
        let (lo, hi) = match item.split_once("..") {
            Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
            None => {
                let v = num(item)?;
                (v, v)
            }
        };
        if lo > hi {
            return Err(bad(&format!("{lo} is above {hi}")));
        }
        if hi.saturating_sub(lo) as u64 >= MAX_RANGE_LEN as u64
            || out.len() as u64 + hi.saturating_sub(lo) as u64 > MAX_RANGE_LEN as u64
        {
            return Err(bad(&format!("more than {MAX_RANGE_LEN} values")));
        }
        for v in [lo, hi] {
            param.check(v)?;
        }
        for v in lo..=hi {
            let t =
                T::try_from(v).map_err(|_| bad(&format!("{v} is out of range for this flag")))?;
            out.push(t);
        }
    }
    Ok(out)
}

/// Parses an on/off parameter named `name`: `on`, `off`, `both` (or
/// `yes`/`no`, `true`/`false`, `1`/`0`), or a comma list of those.
pub(crate) fn parse_switch(name: &str, text: &str) -> Result<Vec<bool>> {
    let mut out = Vec::new();
    for item in text.split(',') {
        match item.trim().to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" | "1" => out.push(true),
            "off" | "no" | "false" | "0" => out.push(false),
            "both" => out.extend([false, true]),
            other => {
                return Err(Error::syntax(format!(
                    "'{}' is not on, off or both",
                    crate::error::quote(other)
                ))
                .at_param(name, None));
            }
        }
    }
    Ok(out)
}

/// Parses the values of `param` as written on the command line: a range, or
/// for a switch `on`, `off` or `both`.
pub fn parse_values(param: Param, text: &str) -> Result<Vec<i64>> {
    match param.kind() {
        ValueKind::Switch => Ok(parse_switch(param.name(), text)?
            .into_iter()
            .map(i64::from)
            .collect()),
        _ => parse_range(param, text),
    }
}

/// Output format of a table or a matchup listing (the words `md`, `csv`,
/// `json`, `jsonl`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// A Markdown table for people (the columns given or varied).
    #[default]
    #[serde(rename = "md")]
    Markdown,
    /// Comma-separated values: every core parameter and each one given.
    Csv,
    /// A JSON array of row objects: every core parameter and each one given.
    Json,
    /// JSON Lines: one row object per line.
    Jsonl,
}
