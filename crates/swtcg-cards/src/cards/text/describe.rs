//! Words for the reader's model, for reports and `--explain`: a
//! situation, a description, a count, effects.

use super::{Count, Descriptor, Effect, KeywordName, Situation, Term};
use std::fmt;

/// A situation as words: `attacking a unique Character`.
impl fmt::Display for Situation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Situation::Attacking { defender } => format!("attacking {}", defender),
            Situation::AttackedBy { attacker } => format!("attacked by {}", attacker),
            Situation::Opponent { opponent } => format!("the opponent is {}", opponent),
            Situation::Own { this } => format!("it is {}", this),
            Situation::InArena { arena } => format!("in the {} arena", arena.name()),
            Situation::SelfDamaged { damaged } => {
                if *damaged {
                    "it is damaged".into()
                } else {
                    "it has no damage counters".into()
                }
            }
            Situation::SelfCounters { at_least } => {
                format!("it has {at_least} or more damage counters")
            }
            Situation::All { all } => all
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            Situation::Not { not } => format!("not ({not})"),
            Situation::PilotedBy { pilot } => format!("piloted by {}", pilot),
            Situation::Present { text, .. } => {
                format!("{text} (true when one of the two units is one; else as the user says)")
            }
            Situation::Other { text } => text.clone(),
        };
        f.write_str(&text)
    }
}

/// A description as words: `a unique Character`.
impl fmt::Display for Descriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self
            .any_of
            .iter()
            .map(|terms| {
                let mut ws: Vec<String> = terms
                    .iter()
                    .map(|t| match t {
                        Term::Unit => "unit".into(),
                        Term::Words(w) => w.clone(),
                        Term::Not(w) => format!("non-{w}"),
                        Term::Unique => "unique".into(),
                        Term::NonUnique => "non-unique".into(),
                        Term::Side(s) => s.name().into(),
                        Term::HealthAtLeast(n) => format!("with health {n} or more"),
                        Term::PowerAtMost(n) => format!("with power {n} or less"),
                        Term::Damaged => "damaged".into(),
                        Term::HasKeyword(k) => format!("with {k}"),
                        Term::HasAnyKeyword(ks) => {
                            let names: Vec<&str> = ks.iter().map(KeywordName::name).collect();
                            format!("with {}", names.join(" or "))
                        }
                        Term::InArena(a) => format!("in the {} arena", a.name()),
                        Term::HealthAbovePower => "with health above its power".into(),
                        Term::PowerAboveHealth => "with power above its health".into(),
                        Term::Piloted => "piloted".into(),
                        Term::NameHas(n) => format!("with {} in its name", n.join(" or ")),
                        Term::Described(w) => format!("with {w} (as the user says)"),
                    })
                    .collect();
                if ws.len() > 1 {
                    ws.retain(|w| w != "unit");
                }
                // Words that name no kind (`damaged`, `with Upkeep`) are
                // said of a unit.
                let kind = ws.iter().any(|w| w == "unit")
                    || terms
                        .iter()
                        .any(|t| matches!(t, Term::Words(_) | Term::Not(_)));
                if !kind {
                    let at = ws
                        .iter()
                        .position(|w| w.starts_with("with ") || w.starts_with("in the "))
                        .unwrap_or(ws.len());
                    ws.insert(at, "unit".into());
                }
                let text = ws.join(" ");
                let lower = text.to_ascii_lowercase();
                let vowel = lower.starts_with(['a', 'e', 'i', 'o', 'u'])
                    && !["uni", "one", "use"].iter().any(|p| lower.starts_with(p));
                let article = if vowel { "an" } else { "a" };
                format!("{article} {text}")
            })
            .collect::<Vec<_>>()
            .join(" or ");
        f.write_str(&text)
    }
}

/// Effects as words, for reports.
pub fn effects_text(effects: &[Effect]) -> String {
    effects
        .iter()
        .map(|e| match e {
            Effect::Power { n } => format!("{n:+} power"),
            Effect::Health { n } => format!("{n:+} health"),
            Effect::Keyword { text, .. } => text.clone(),
            Effect::Lose { keyword } => format!("loses {keyword}"),
            Effect::PowerPer { n, per } => format!("{n:+} power per {}", per),
            Effect::HealthPer { n, per } => format!("{n:+} health per {}", per),
            Effect::KeywordPer { text, per, .. } => format!("{text} per {per}"),
            Effect::ExtraDamage { n } => format!("{n} extra damage"),
            Effect::Overload { power, self_damage, dice } => format!(
                "may take +{power} power, then {self_damage} {}damage to itself",
                if *dice { "dice of " } else { "" }
            ),
            Effect::TreatAs { words } => format!("treated as {words}"),
            Effect::PowerX { sign } => format!("{}X power", if *sign < 0 { "-" } else { "+" }),
            Effect::ExtraDamageX => "X extra damage".into(),
            Effect::HealthX { sign } => format!("{}X health", if *sign < 0 { "-" } else { "+" }),
            Effect::CancelAttack => "the attack is cancelled".into(),
            Effect::NoIntercept => "no Intercept while it is attacked".into(),
            Effect::Counters { n } if *n < 0 => format!("{} damage counters removed before the attack", -n),
            Effect::Counters { n } => format!("{n} damage counters before the attack"),
            Effect::HalfDice { force } => format!("may roll half its dice to gain {force} Force"),
            Effect::Consolation { own, defender } => format!(
                "if its attack does no damage, may put {own} counter(s) on itself and {defender} on the defender"
            ),
            Effect::Toll { force } => format!("damage to it prevented unless its opponent pays {force} Force"),
            Effect::CostChange { n } => format!("its activated abilities cost {n:+} Force"),
            Effect::NoActivated => "can't play activated abilities".into(),
            Effect::Harmless => "all damage from it is prevented".into(),
            Effect::PilotableAs { kind } => format!("piloted as a {kind}"),
            Effect::StatsFrom { power, health, per } => format!(
                "{} the number of {per}",
                match (power, health) {
                    (true, true) => "power and health are",
                    (true, false) => "power is",
                    _ => "health is",
                }
            ),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a count counts, as words (`damage counter`, `card beneath`).
impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = match self {
            Count::DamageCounters => "damage counter".into(),
            Count::StackedCards => "card beneath".into(),
            Count::StackSize => "card in its stack".into(),
            Count::Units {
                own,
                other,
                which,
                arena,
            } => {
                let whose = match own {
                    Some(true) => "own ",
                    Some(false) => "opposing ",
                    None => "",
                };
                let other = if *other { "other " } else { "" };
                match arena {
                    Some(a) => format!("{other}{whose}unit in the {} arena ({which})", a.name()),
                    None => format!("{other}{whose}unit in the arena ({which})"),
                }
            }
        };
        f.write_str(&text)
    }
}
