//! Typed requests: what a front-end asks of the library, parsed once from
//! the words a user types (a command line, a web query) and solved by one
//! function, so that the command line and the web API give the same answer
//! to the same request.
//!
//! ```
//! use swtcg_engine::request::AttackRequest;
//! use swtcg_engine::request::Param;
//! let req = AttackRequest::from_pairs([("power", "3"), ("armor", "on")]).unwrap();
//! assert_eq!(req.get(Param::Power), Some(3));
//! let answer = req.solve().unwrap();
//! assert!(answer.json_text().contains("\"defender_damage\""));
//! ```

use crate::attack::{Objective, Side, attack};
use crate::error::{Error, Result, quote};
pub use crate::params::{CORE, Format, Param, ValueKind, parse_range, parse_values, units_of};
use crate::policy::{ForceBudget, Game, LuckyOrder, LuckyPolicy, Policy};
use crate::report::{AttackReport, attack_text, to_json_text};
use crate::scenario::{Scenario, ScenarioReport};
use crate::table::{Grid, Work};
use crate::unit::Unit;
pub use crate::words::Words;

/// How choices are played, as asked: each word optional (the policy's
/// default then), and each side's Force budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyRequest {
    /// `optimal` or `simple`.
    pub lucky: Option<LuckyPolicy>,
    /// `pop`, `pop-defender-first`, `attacker-first`, `defender-first`.
    pub lucky_order: Option<LuckyOrder>,
    /// `damage`, `discard` or `net`.
    pub objective: Option<Objective>,
    /// Force the attacking side may spend: a number or unlimited
    /// (4, a turn's income, if not given: [`crate::policy::DEFAULT_BUDGETS`]).
    pub force_attacker: Option<ForceBudget>,
    /// Force the defending side may spend.
    pub force_defender: Option<ForceBudget>,
}

impl PolicyRequest {
    /// Whether any word was given (the attack is then solved as a game).
    pub fn any(&self) -> bool {
        *self != PolicyRequest::default()
    }

    /// The policy, defaults filled in.
    pub fn policy(&self) -> Policy {
        let d = Policy::default();
        Policy {
            objective: self.objective.unwrap_or(d.objective),
            lucky: self.lucky.unwrap_or(d.lucky),
            lucky_order: self.lucky_order.unwrap_or(d.lucky_order),
        }
    }

    /// The Force budgets by side (`None`: unlimited), defaults filled in.
    pub fn force(&self) -> [Option<u32>; 2] {
        [
            ForceBudget::or_default(self.force_attacker),
            ForceBudget::or_default(self.force_defender),
        ]
    }
}

/// One attack given by its parameters: the units' numbers and keywords
/// ([`Param`]), Overkill with a third unit, and how choices are played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackRequest {
    /// The parameters given, each once.
    pub values: Vec<(Param, i64)>,
    /// The attacker has Overkill.
    pub overkill: bool,
    /// A third unit on the defender's side, with this health.
    pub other_health: Option<u32>,
    /// How choices are played.
    pub policy: PolicyRequest,
}

/// A word of a choice (`optimal`, `pop`, `net`, ...), read through its
/// type's [`Words`].
pub(crate) fn policy_word<T: Words>(what: &str, word: &str) -> Result<T> {
    T::from_word(word).ok_or_else(|| {
        Error::unknown(format!(
            "'{}' is not one of {}{}",
            quote(word),
            T::all_words().join(", "),
            crate::error::did_you_mean(word, T::all_words())
        ))
        .at_param(what, Some(word))
    })
}

/// A parameter of an attack request beside the units' numbers and
/// keywords ([`Param`]): the third unit of Overkill, and the players'
/// choices. [`AttackRequest::from_pairs`] reads each of them.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct ChoiceParam {
    /// Its name (a flag without `--`).
    pub name: &'static str,
    /// How its value is written: `switch`, `health`, `count` or `word`.
    pub kind: &'static str,
    /// What it is in a player's words.
    pub label: &'static str,
    /// What it means, for help texts.
    pub doc: &'static str,
    /// The words it takes (`word` parameters only).
    #[serde(serialize_with = "words_json")]
    pub words: fn() -> Vec<&'static str>,
}

/// A [`ChoiceParam`]'s words, as its JSON shows them.
fn words_json<S: serde::Serializer>(
    words: &fn() -> Vec<&'static str>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&words(), s)
}

/// Every [`ChoiceParam`], in the order a form shows them.
pub const CHOICE_PARAMS: &[ChoiceParam] = &[
    ChoiceParam {
        name: "overkill",
        kind: "switch",
        label: "Overkill",
        doc: "The attacker has Overkill (damage past the defender's health goes to a third unit).",
        words: Vec::new,
    },
    ChoiceParam {
        name: "other-health",
        kind: "health",
        label: "Third unit's health",
        doc: "Health of a third unit on the defender's side (for Overkill).",
        words: Vec::new,
    },
    ChoiceParam {
        name: "lucky-policy",
        kind: "word",
        label: "How Lucky is played",
        doc: "How Lucky is played: optimal or simple.",
        words: LuckyPolicy::all_words,
    },
    ChoiceParam {
        name: "lucky-order",
        kind: "word",
        label: "Who re-rolls first",
        doc: "How the two Lucky take turns: pop, pop-defender-first, attacker-first, defender-first.",
        words: LuckyOrder::all_words,
    },
    ChoiceParam {
        name: "objective",
        kind: "word",
        label: "What each side plays for",
        doc: "What each side plays for: damage, discard or net.",
        words: Objective::all_words,
    },
    ChoiceParam {
        name: "force-attacker",
        kind: "budget",
        label: "Attacker's Force",
        doc: "Force the attacker may spend in the attack: a number or unlimited (default 4, a turn's income).",
        words: Vec::new,
    },
    ChoiceParam {
        name: "force-defender",
        kind: "budget",
        label: "Defender's Force",
        doc: "Force the defender may spend in the attack: a number or unlimited (default 4, a turn's income).",
        words: Vec::new,
    },
];

impl AttackRequest {
    /// The value of `p`, if given.
    pub fn get(&self, p: Param) -> Option<i64> {
        self.values.iter().find(|(q, _)| *q == p).map(|(_, v)| *v)
    }

    /// A request from `name=value` pairs, as a web query gives them: each
    /// parameter's name as its flag without `--`, switches `true`/`false`
    /// (or `on`/`off`); the policy words; `overkill`, `other-health`.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<AttackRequest> {
        let mut req = AttackRequest::default();
        let mut seen: Vec<String> = Vec::new();
        for (k, v) in pairs {
            let (k, v) = (k.as_ref(), v.as_ref());
            // Every error of a pair is about that parameter.
            req.read_pair(k, v, &mut seen)
                .map_err(|e| e.at_param(k, Some(v)))?;
        }
        req.values.sort_by_key(|(p, _)| *p);
        Ok(req)
    }

    /// Reads one `name=value` pair into the request.
    fn read_pair(&mut self, k: &str, v: &str, seen: &mut Vec<String>) -> Result<()> {
        // A parameter given by its name and by its alias is given twice.
        let param = Param::from_name(k);
        let name = param.map_or(k, |p| p.name());
        if seen.iter().any(|s| s == name) {
            return Err(Error::conflict(if name == k {
                "given twice".to_string()
            } else {
                format!("given twice ({k} is {name})")
            }));
        }
        seen.push(name.to_string());
        let switch = |v: &str| match v {
            "true" | "on" | "1" | "" => Ok(true),
            "false" | "off" | "0" => Ok(false),
            _ => Err(Error::syntax("give true or false")),
        };
        if let Some(p) = param {
            let value = if p.kind() == ValueKind::Switch {
                switch(v)? as i64
            } else {
                p.value(v)?
            };
            self.values.push((p, value));
            return Ok(());
        }
        let budget = |v: &str| -> Result<ForceBudget> {
            ForceBudget::from_word(v)
                .ok_or_else(|| Error::syntax("not a whole number from 0 or unlimited"))
        };
        let number = |v: &str| -> Result<u32> {
            v.trim()
                .parse::<u32>()
                .map_err(|_| Error::syntax("not a whole number from 0"))
        };
        match k {
            "overkill" => self.overkill = switch(v)?,
            "other-health" => self.other_health = Some(number(v)?),
            "lucky-policy" => self.policy.lucky = Some(policy_word(k, v)?),
            "lucky-order" => self.policy.lucky_order = Some(policy_word(k, v)?),
            "objective" => self.policy.objective = Some(policy_word(k, v)?),
            "force-attacker" => self.policy.force_attacker = Some(budget(v)?),
            "force-defender" => self.policy.force_defender = Some(budget(v)?),
            _ => {
                let names = Param::ALL
                    .iter()
                    .map(|p| p.name())
                    .chain(Param::ALL.iter().filter_map(|p| p.alias()))
                    .chain(CHOICE_PARAMS.iter().map(|o| o.name));
                return Err(Error::unknown(format!(
                    "'{}' is not a parameter of an attack (power, crit, parry, ...){}",
                    quote(k),
                    crate::error::did_you_mean(k, names)
                )));
            }
        }
        Ok(())
    }

    /// One request for each row of `grid`, in the grid's order: this
    /// request's values and choices, with the row's values in place of its
    /// own, and power 1 when neither gives it (as a table's rows have it).
    /// Refused before any row is solved, as a table is: too many rows, a
    /// value out of range (naming it), or too much work.
    pub fn over(&self, grid: &Grid) -> Result<Vec<AttackRequest>> {
        grid.check()?;
        let mut work = Work::default();
        let mut out = Vec::with_capacity(grid.len());
        for i in 0..grid.len() {
            let row = grid.assignment(i);
            let mut req = self.clone();
            req.values.retain(|(p, _)| !row.iter().any(|(q, _)| q == p));
            req.values.extend(row);
            if req.get(Param::Power).is_none() {
                req.values.push((Param::Power, Param::Power.neutral()));
            }
            req.values.sort_by_key(|(p, _)| *p);
            let (a, d) = req.units()?;
            work.add(&a, &d, req.has_choices());
            out.push(req);
        }
        work.check()?;
        Ok(out)
    }

    /// Whether the attack involves choices (then it is solved as a game).
    pub(crate) fn has_choices(&self) -> bool {
        let on = |p| self.get(p).unwrap_or(0) > 0;
        on(Param::Lucky)
            || on(Param::DefenderLucky)
            || on(Param::Overload)
            || self.overkill
            || self.other_health.is_some()
            || self.policy.any()
    }

    /// The attacker and the defender (power is required).
    pub fn units(&self) -> Result<(Unit, Unit)> {
        if self.get(Param::Power).is_none() {
            return Err(Error::missing("the attacker's power is required").at_param("power", None));
        }
        units_of(&self.values)
    }

    /// The attack as a game: the two units (and the other unit, if any),
    /// with the policy.
    pub(crate) fn game(&self) -> Result<Game> {
        let (mut a, d) = self.units()?;
        a.keywords.overkill = self.overkill;
        if self.overkill && self.other_health.is_none() {
            return Err(Error::missing(
                "Overkill moves excess hits to another unit: give that unit's health (other-health)",
            )
            .at_param("overkill", None));
        }
        let mut units = vec![a, d];
        let mut sides = vec![Side::Attacking, Side::Defending];
        if let Some(h) = self.other_health {
            let mut o = Unit::new("other", 0);
            o.health = Some(h);
            o.validate()
                .map_err(|e| e.at_param("other-health", Some(&h.to_string())))?;
            units.push(o);
            sides.push(Side::Defending);
        }
        Ok(Game {
            units,
            sides,
            policy: self.policy.policy(),
            force: self.policy.force(),
        })
    }

    /// Solves the attack: with every static keyword to the full, or as a
    /// game when it has choices.
    pub fn solve(&self) -> Result<AttackAnswer> {
        if self.has_choices() {
            return Ok(AttackAnswer::Game(Box::new(
                Scenario::new(self.game()?).solve()?,
            )));
        }
        let (a, d) = self.units()?;
        let outcome = attack(&a, &d)?;
        Ok(AttackAnswer::Static {
            stun: [a.keywords.stun > 0, d.keywords.stun > 0],
            outcome: Box::new(outcome),
        })
    }
}

/// The answer to an [`AttackRequest`].
#[derive(Clone, Debug)]
pub enum AttackAnswer {
    /// A static attack: the exact outcome, and whether each side (the
    /// attacker, the defender) has Stun (its figure is reported only then).
    Static {
        /// The exact outcome.
        outcome: Box<crate::attack::AttackOutcome>,
        /// Whether the attacker, then the defender, has Stun.
        stun: [bool; 2],
    },
    /// An attack with choices, solved as a scenario.
    Game(Box<ScenarioReport>),
}

impl AttackAnswer {
    /// The JSON text (`attack --json`, and the web API's answer).
    pub fn json_text(&self) -> String {
        match self {
            AttackAnswer::Static { outcome, stun } => {
                to_json_text(&AttackReport::of(outcome, *stun))
            }
            AttackAnswer::Game(r) => to_json_text(&r.json()),
        }
    }

    /// The human report.
    pub fn text(&self) -> String {
        match self {
            AttackAnswer::Static { outcome, stun } => attack_text(outcome, *stun),
            AttackAnswer::Game(r) => r.to_text(),
        }
    }

    /// The exact law of `quantity`, the simulator's quantity that `verify`
    /// checks counts against: `hits`, `defender_damage`, `attacker_damage`,
    /// or (an attack with choices) `damage:<unit>`.
    pub fn law(&self, quantity: &str) -> Result<crate::dist::Dist> {
        match self {
            AttackAnswer::Static { outcome, .. } => crate::verify::attack_law(outcome, quantity),
            AttackAnswer::Game(r) => crate::verify::exact_law(r, quantity),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter the table declares is one `from_pairs` reads (with
    /// each of its words), and nothing else beside [`Param`] is read.
    #[test]
    fn the_choices_table_is_what_the_request_reads() {
        for c in CHOICE_PARAMS {
            let values: Vec<&str> = match c.kind {
                "word" => (c.words)(),
                "switch" => vec!["true", "false"],
                _ => vec!["3"],
            };
            assert!(!values.is_empty(), "{}", c.name);
            for v in values {
                let r = AttackRequest::from_pairs([("power", "3"), (c.name, v)]);
                assert!(r.is_ok(), "{}={v}: {:?}", c.name, r.err());
            }
            let bad = AttackRequest::from_pairs([(c.name, "no such value")]).unwrap_err();
            assert_eq!(
                bad.origin(),
                &crate::error::Origin::Param {
                    param: c.name.into(),
                    value: Some("no such value".into())
                }
            );
        }
        assert_eq!(CHOICE_PARAMS.len(), 7);
        let unknown = AttackRequest::from_pairs([("lucky-polcy", "simple")]).unwrap_err();
        assert_eq!(unknown.kind(), crate::error::ErrorKind::Unknown);
    }
}
