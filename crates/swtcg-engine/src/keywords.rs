//! Card wording to typed keywords.
//!
//! A keyword is written as on the cards: its name and number (`Parry 3`,
//! `Critical Hit 4`, `Accuracy -1`), optionally behind a cost
//! (`Pay 2 Force -> Evade 2`, with `->`, `-->` or `→`). [`parse`] turns one
//! such text into an [`Ability`]; [`crate::unit::Keywords::from_abilities`] sums them into
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

/// One combat keyword with its value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keyword {
    /// Accuracy X (or −X): added to each attack die.
    Accuracy(i32),
    /// Armor: attack dice and dice of damage need 5+.
    Armor,
    /// Shields X: X fewer attack dice against this unit.
    Shields(u32),
    /// Fury X: X more attack dice on a natural 4 in the first roll.
    Fury(u32),
    /// Critical Hit X: X more damage on a natural 6.
    CriticalHit(u32),
    /// Parry X: prevent X attack damage on a natural 1.
    Parry(u32),
    /// Evade X: prevent up to X damage, once per instance.
    Evade(u32),
    /// Deflect X: prevent X and do it to a unit of the owner's choice.
    Deflect(u32),
    /// Overkill: excess hits may go to another unit.
    Overkill,
    /// Retaliate X: X dice of damage to the attacker when the attack ends.
    Retaliate(u32),
    /// Stun X: a unit this one damages gets −X power.
    Stun(u32),
    /// Lucky X: re-roll up to X attack dice, once per attack.
    Lucky(u32),
    /// Ferocity: this unit's damage can't be prevented.
    Ferocity,
    /// Fortitude: can prevent damage from Ferocity.
    Fortitude,
    /// Intercept: may become the defender of an attack on its side.
    Intercept,
    /// Precision (old name Elude): can't be intercepted.
    Precision,
    /// Foresight: \[effect\]: guess the attack's hits to gain the effect.
    Foresight(String),
    /// Forewarning: \[effect\]: the defender's twin of Foresight.
    Forewarning(String),
    /// Stack: \[list\]: the listed cards may go beneath this one.
    Stack(Vec<String>),
    /// Backfire X: a natural 3 in the roll before re-rolls: X dice of damage
    /// to itself when the attack ends.
    Backfire(u32),
    /// Riposte X: a natural 2 in the final roll against it: X damage to the
    /// attacker when the attack ends (not if it was discarded).
    Riposte(u32),
    /// Double Damage: one more counter on the defending unit per point of
    /// the attack's damage not prevented.
    DoubleDamage,
    /// Overload X: when it attacks, it may take +X power; then X dice of
    /// damage to itself when the attack ends.
    Overload(u32),
    /// Absorb X: prevent up to X damage (and gain that much power for the
    /// next attack).
    Absorb(u32),
    /// Persuade X: prevent up to X damage (and the attacker loses that much
    /// power for its next attack).
    Persuade(u32),
    /// Resilience ±X: power ±X as long as it has at least X damage counters.
    Resilience(i32),
    /// Cunning: the defender's damage prevention is played before it sees
    /// the dice.
    Cunning,
    /// Redirect: when attacked, its player may move the attack to another
    /// of its units.
    Redirect,
    /// Protect X: prevent up to X damage to one of its player's other units,
    /// once per instance.
    Protect(u32),
    /// Intimidation: +1 power and +1 health for each opposing unit in the
    /// arena.
    Intimidation,
    /// Inspiration: its player's other units in the arena get +1 power and
    /// +1 health.
    Inspiration,
    /// Focus X: a natural 5 in the roll before re-rolls: +X power for its
    /// next attack.
    Focus(u32),
    /// Surge X: when damaged, +X power to a unit of its player's choice
    /// until the end of the turn.
    Surge(u32),
    /// Tenacity X: its first attack of a turn doing less than X damage may
    /// attack the same target again.
    Tenacity(u32),
    /// Area Damage X: when its attack discards a unit, X dice of damage to
    /// another unit of that arena.
    AreaDamage(u32),
    /// Avenge X: when an attack discards one of its player's other units in
    /// its arena, X dice of damage to the attacker when the attack ends.
    Avenge(u32),
    /// Bombard X: may attack a Ground unit with X power.
    Bombard(u32),
    /// Ion Cannon X: may attack a Space unit with X power.
    IonCannon(u32),
    /// Barrage X: may attack a Character with X power.
    Barrage(u32),
    /// Adapt: \[a/b/...\]: its player chooses one of the texts for the turn.
    Adapt(Vec<String>),
}

impl Keyword {
    /// The same keyword with its number replaced (keywords without a number
    /// are unchanged): `Evade X` once X is known.
    pub fn with_number(&self, n: u32) -> Keyword {
        match self {
            Keyword::Accuracy(_) => Keyword::Accuracy(n as i32),
            Keyword::Shields(_) => Keyword::Shields(n),
            Keyword::Fury(_) => Keyword::Fury(n),
            Keyword::CriticalHit(_) => Keyword::CriticalHit(n),
            Keyword::Parry(_) => Keyword::Parry(n),
            Keyword::Evade(_) => Keyword::Evade(n),
            Keyword::Deflect(_) => Keyword::Deflect(n),
            Keyword::Retaliate(_) => Keyword::Retaliate(n),
            Keyword::Stun(_) => Keyword::Stun(n),
            Keyword::Lucky(_) => Keyword::Lucky(n),
            Keyword::Backfire(_) => Keyword::Backfire(n),
            Keyword::Riposte(_) => Keyword::Riposte(n),
            Keyword::Overload(_) => Keyword::Overload(n),
            Keyword::Absorb(_) => Keyword::Absorb(n),
            Keyword::Persuade(_) => Keyword::Persuade(n),
            Keyword::Resilience(_) => Keyword::Resilience(n as i32),
            Keyword::Protect(_) => Keyword::Protect(n),
            Keyword::Focus(_) => Keyword::Focus(n),
            Keyword::Surge(_) => Keyword::Surge(n),
            Keyword::Tenacity(_) => Keyword::Tenacity(n),
            Keyword::AreaDamage(_) => Keyword::AreaDamage(n),
            Keyword::Avenge(_) => Keyword::Avenge(n),
            Keyword::Bombard(_) => Keyword::Bombard(n),
            Keyword::IonCannon(_) => Keyword::IonCannon(n),
            Keyword::Barrage(_) => Keyword::Barrage(n),
            k => k.clone(),
        }
    }

    /// The keyword's name as printed.
    pub fn name(&self) -> &'static str {
        match self {
            Keyword::Accuracy(_) => "Accuracy",
            Keyword::Armor => "Armor",
            Keyword::Shields(_) => "Shields",
            Keyword::Fury(_) => "Fury",
            Keyword::CriticalHit(_) => "Critical Hit",
            Keyword::Parry(_) => "Parry",
            Keyword::Evade(_) => "Evade",
            Keyword::Deflect(_) => "Deflect",
            Keyword::Overkill => "Overkill",
            Keyword::Retaliate(_) => "Retaliate",
            Keyword::Stun(_) => "Stun",
            Keyword::Lucky(_) => "Lucky",
            Keyword::Ferocity => "Ferocity",
            Keyword::Fortitude => "Fortitude",
            Keyword::Intercept => "Intercept",
            Keyword::Precision => "Precision",
            Keyword::Foresight(_) => "Foresight",
            Keyword::Forewarning(_) => "Forewarning",
            Keyword::Stack(_) => "Stack",
            Keyword::Backfire(_) => "Backfire",
            Keyword::Riposte(_) => "Riposte",
            Keyword::DoubleDamage => "Double Damage",
            Keyword::Overload(_) => "Overload",
            Keyword::Absorb(_) => "Absorb",
            Keyword::Persuade(_) => "Persuade",
            Keyword::Resilience(_) => "Resilience",
            Keyword::Cunning => "Cunning",
            Keyword::Redirect => "Redirect",
            Keyword::Protect(_) => "Protect",
            Keyword::Intimidation => "Intimidation",
            Keyword::Inspiration => "Inspiration",
            Keyword::Focus(_) => "Focus",
            Keyword::Surge(_) => "Surge",
            Keyword::Tenacity(_) => "Tenacity",
            Keyword::AreaDamage(_) => "Area Damage",
            Keyword::Avenge(_) => "Avenge",
            Keyword::Bombard(_) => "Bombard",
            Keyword::IonCannon(_) => "Ion Cannon",
            Keyword::Barrage(_) => "Barrage",
            Keyword::Adapt(_) => "Adapt",
        }
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Keyword::Accuracy(x) => write!(f, "Accuracy {x}"),
            Keyword::Shields(x)
            | Keyword::Fury(x)
            | Keyword::CriticalHit(x)
            | Keyword::Parry(x)
            | Keyword::Evade(x)
            | Keyword::Deflect(x)
            | Keyword::Retaliate(x)
            | Keyword::Stun(x)
            | Keyword::Lucky(x)
            | Keyword::Backfire(x)
            | Keyword::Riposte(x)
            | Keyword::Overload(x)
            | Keyword::Absorb(x)
            | Keyword::Persuade(x)
            | Keyword::Protect(x)
            | Keyword::Focus(x)
            | Keyword::Surge(x)
            | Keyword::Tenacity(x)
            | Keyword::AreaDamage(x)
            | Keyword::Avenge(x)
            | Keyword::Bombard(x)
            | Keyword::IonCannon(x)
            | Keyword::Barrage(x) => write!(f, "{} {x}", self.name()),
            Keyword::Resilience(x) => write!(f, "Resilience {x:+}"),
            Keyword::Adapt(list) => write!(f, "Adapt: {}", list.join("/")),
            Keyword::Foresight(e) | Keyword::Forewarning(e) => write!(f, "{}: {e}", self.name()),
            Keyword::Stack(list) => write!(f, "Stack: {}", list.join(", ")),
            _ => f.write_str(self.name()),
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
    pub fn is_free(&self) -> bool {
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
/// quotes: `->`, `-->`, `- >` (as the plugin writes them) or `→`.
///
/// ```
/// use swtcg_engine::keywords::split_cost;
/// assert_eq!(split_cost("Pay 2 Force -> Evade 2"), (Some("Pay 2 Force"), "Evade 2"));
/// assert_eq!(split_cost("Tap → Protect 1"), (Some("Tap"), "Protect 1"));
/// assert_eq!(split_cost("Pay 1 - > Evade 1"), (Some("Pay 1"), "Evade 1"));
/// assert_eq!(split_cost("Parry 1"), (None, "Parry 1"));
/// ```
pub fn split_cost(text: &str) -> (Option<&str>, &str) {
    let mut depth = 0i32;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' => depth += 1,
            ')' => depth -= 1,
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
    /// Whether using it is a choice with a price (a cost other than
    /// `Pay 0 Force`).
    pub fn is_paid(&self) -> bool {
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

/// The keyword names, longest first so that `Critical Hit` wins over
/// shorter prefixes.
const NAMES: [&str; 41] = [
    "Double Damage",
    "Critical Hit",
    "Intimidation",
    "Forewarning",
    "Area Damage",
    "Inspiration",
    "Ion Cannon",
    "Resilience",
    "Precision",
    "Retaliate",
    "Foresight",
    "Fortitude",
    "Intercept",
    "Accuracy",
    "Ferocity",
    "Overkill",
    "Backfire",
    "Overload",
    "Persuade",
    "Redirect",
    "Tenacity",
    "Deflect",
    "Shields",
    "Riposte",
    "Cunning",
    "Protect",
    "Bombard",
    "Barrage",
    "Absorb",
    "Avenge",
    "Elude",
    "Armor",
    "Evade",
    "Lucky",
    "Parry",
    "Stack",
    "Focus",
    "Surge",
    "Adapt",
    "Fury",
    "Stun",
];

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
    let name = NAMES
        .iter()
        .find(|n| {
            let n = n.to_ascii_lowercase();
            lower.starts_with(&n)
                && lower[n.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c == ':' || c == '-' || c == '+')
        })
        .ok_or_else(|| bad("not a keyword this solver knows"))?;
    let rest = effect[name.len()..].trim();
    let number = || -> Result<u32> {
        if rest.is_empty() {
            return Err(bad(&format!("{name} needs a number")));
        }
        if rest.eq_ignore_ascii_case("x") && x_cost {
            return Ok(0);
        }
        rest.parse::<u32>().map_err(|_| {
            bad(&format!(
                "'{}' is not a whole number",
                crate::error::quote(rest)
            ))
        })
    };
    let x = x_cost && rest.eq_ignore_ascii_case("x");
    let none = || -> Result<()> {
        if rest.is_empty() {
            Ok(())
        } else {
            Err(bad(&format!("{name} takes no number, found '{rest}'")))
        }
    };
    let text_after_colon = || -> Result<String> {
        let t = rest.strip_prefix(':').map(str::trim).unwrap_or("");
        if t.is_empty() {
            Err(bad(&format!("{name} needs ': [effect]'")))
        } else {
            Ok(t.to_string())
        }
    };
    let keyword = match *name {
        "Accuracy" => {
            let r = rest.replace(' ', "");
            let v = r
                .strip_prefix('+')
                .unwrap_or(&r)
                .parse::<i32>()
                .map_err(|_| bad(&format!("'{rest}' is not a whole number")))?;
            Keyword::Accuracy(v)
        }
        "Armor" => none().map(|_| Keyword::Armor)?,
        "Shields" => Keyword::Shields(number()?),
        "Fury" => Keyword::Fury(number()?),
        "Critical Hit" => Keyword::CriticalHit(number()?),
        "Parry" => Keyword::Parry(number()?),
        "Evade" => Keyword::Evade(number()?),
        "Deflect" => Keyword::Deflect(number()?),
        "Overkill" => none().map(|_| Keyword::Overkill)?,
        "Retaliate" => Keyword::Retaliate(number()?),
        "Stun" => Keyword::Stun(number()?),
        "Lucky" => Keyword::Lucky(number()?),
        "Ferocity" => none().map(|_| Keyword::Ferocity)?,
        "Fortitude" => none().map(|_| Keyword::Fortitude)?,
        "Intercept" => none().map(|_| Keyword::Intercept)?,
        "Precision" | "Elude" => none().map(|_| Keyword::Precision)?,
        "Foresight" => Keyword::Foresight(text_after_colon()?),
        "Forewarning" => Keyword::Forewarning(text_after_colon()?),
        "Backfire" => Keyword::Backfire(number()?),
        "Riposte" => Keyword::Riposte(number()?),
        "Double Damage" => none().map(|_| Keyword::DoubleDamage)?,
        "Overload" => Keyword::Overload(number()?),
        "Absorb" => Keyword::Absorb(number()?),
        "Persuade" => Keyword::Persuade(number()?),
        "Resilience" => {
            let r = rest.replace(' ', "");
            let r = r.trim_matches('\'');
            let v = r
                .strip_prefix('+')
                .unwrap_or(r)
                .parse::<i32>()
                .map_err(|_| bad(&format!("'{rest}' is not a whole number")))?;
            Keyword::Resilience(v)
        }
        "Cunning" => none().map(|_| Keyword::Cunning)?,
        "Redirect" => none().map(|_| Keyword::Redirect)?,
        "Protect" => Keyword::Protect(number()?),
        "Intimidation" => none().map(|_| Keyword::Intimidation)?,
        "Inspiration" => none().map(|_| Keyword::Inspiration)?,
        "Focus" => Keyword::Focus(number()?),
        "Surge" => Keyword::Surge(number()?),
        "Tenacity" => Keyword::Tenacity(number()?),
        "Area Damage" => Keyword::AreaDamage(number()?),
        "Avenge" => Keyword::Avenge(number()?),
        "Bombard" => Keyword::Bombard(number()?),
        "Ion Cannon" => Keyword::IonCannon(number()?),
        "Barrage" => Keyword::Barrage(number()?),
        "Adapt" => {
            let list = text_after_colon()?;
            let items: Vec<String> = list
                .trim_matches(|c| c == '[' || c == ']')
                .split('/')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            if items.len() < 2 {
                return Err(bad("Adapt needs two or more texts separated by /"));
            }
            Keyword::Adapt(items)
        }
        "Stack" => {
            let list = text_after_colon()?;
            let items: Vec<String> = list
                .replace(", and ", ", ")
                .replace(" and ", ", ")
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            Keyword::Stack(items)
        }
        _ => unreachable!("every name in NAMES is matched"),
    };
    Ok(Ability { keyword, cost, x })
}
