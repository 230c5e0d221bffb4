//! Scenario files: units in the cards' own wording, and a policy.
//!
//! ```json
//! {
//!   "attacker": {"name": "Beyghor", "power": 6, "health": 3,
//!                "keywords": ["Parry 3", "Precision", "Lucky 1"]},
//!   "defender": {"name": "Apprentice", "power": 5, "health": 5, "counters": 1,
//!                "keywords": ["Armor", "Pay 2 Force -> Evade 2"]},
//!   "others":   [{"name": "Guard", "side": "defender", "power": 3, "health": 4,
//!                 "keywords": ["Pay 0 Force -> Intercept"]}],
//!   "policy":   {"objective": "damage", "lucky": "optimal", "lucky_order": "attacker-first"}
//! }
//! ```
//!
//! [`Scenario::from_json`] reads it (errors name the unit and quote the
//! keyword text); [`Scenario::solve`] plays it exactly ([`crate::policy`]);
//! [`ScenarioReport`] renders the result as JSON or text.

use crate::attack::{ATTACKER, MAX_UNITS, Objective, Side, Tally, used};
use crate::cards::CardDb;
use crate::dist::{Dist, Num, fraction_string, to_f64};
use crate::error::{Error, Result, read_file};
use crate::keywords::{Ability, parse};
use crate::policy::{Game, GameOutcome, LuckyOrder, LuckyPolicy, Policy, solve};
use crate::report::{attack_keys, dist_json, dist_text, fraction_and_percent};
use crate::unit::{Keywords, Unit};
use num_rational::BigRational;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// A unit as written in scenario and plan files: numbers and keyword
/// texts, or a card (or stack) of the file's card database, with
/// conditions switched on and keywords added.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnitFile {
    name: Option<String>,
    card: Option<String>,
    #[serde(default)]
    conditions: Vec<String>,
    power: Option<u32>,
    health: Option<u32>,
    #[serde(default)]
    counters: u32,
    #[serde(default)]
    keywords: Vec<String>,
    pub(crate) side: Option<String>,
}

/// What a file's units are read with.
pub(crate) struct FileContext {
    /// List unknown keywords instead of failing.
    pub ignore_unknown: bool,
    /// The card database named by the file's `"db"`.
    pub db: Option<CardDb>,
}

impl FileContext {
    /// The context of a file: its `ignore_unknown` and its card database
    /// (`db`, a path relative to the working directory).
    pub(crate) fn new(ignore_unknown: bool, db: &Option<String>) -> Result<FileContext> {
        Ok(FileContext {
            ignore_unknown,
            db: db.as_deref().map(CardDb::from_file).transpose()?,
        })
    }
}

/// A unit read from a file.
pub(crate) struct Built {
    /// The unit.
    pub unit: Unit,
    /// Keyword texts ignored.
    pub ignored: Vec<String>,
    /// Power its conditions give the unit attacking it.
    pub power_for_attacker: i32,
}

impl UnitFile {
    /// Its name, as given or from its card.
    pub(crate) fn label(&self) -> String {
        self.name
            .clone()
            .or_else(|| self.card.clone())
            .unwrap_or_default()
    }

    /// The unit, the keyword texts ignored, and the power its conditions
    /// give its attacker.
    pub(crate) fn build(&self, ctx: &FileContext) -> Result<Built> {
        let Some(spec) = &self.card else {
            let name = self
                .name
                .as_deref()
                .ok_or_else(|| Error::input("a unit needs a \"name\" (or a \"card\")"))?;
            if !self.conditions.is_empty() {
                return Err(Error::input(format!(
                    "unit '{name}': \"conditions\" go with a \"card\""
                )));
            }
            let (unit, ignored) = unit_from_texts(
                name,
                self.power.unwrap_or(0),
                self.health,
                self.counters,
                &self.keywords,
                ctx.ignore_unknown,
            )?;
            return Ok(Built {
                unit,
                ignored,
                power_for_attacker: 0,
            });
        };
        let label = self.label();
        let db = ctx.db.as_ref().ok_or_else(|| {
            Error::input(format!(
                "unit '{label}': a \"card\" needs the file's \"db\" (a card database)"
            ))
        })?;
        let stack = db
            .stack(spec)
            .map_err(|e| e.about(&format!("unit '{label}'")))?;
        let mut on = Vec::new();
        for c in &self.conditions {
            let needle = c.to_lowercase();
            let found: Vec<usize> = stack
                .conditions()
                .iter()
                .enumerate()
                .filter(|(_, k)| k.text.to_lowercase().contains(&needle))
                .map(|(i, _)| i)
                .collect();
            if found.is_empty() {
                return Err(Error::input(format!(
                    "unit '{label}': condition '{c}' matches none of {}'s conditions",
                    stack.top().name
                )));
            }
            on.extend(found);
        }
        on.sort_unstable();
        on.dedup();
        let (extra, ignored) = parse_texts(&label, &self.keywords, ctx.ignore_unknown)?;
        let mut unit = stack.unit_with(&on, 0, &extra);
        if let Some(n) = &self.name {
            unit.name = n.clone();
        }
        if let Some(p) = self.power {
            unit.power = p;
        }
        if let Some(h) = self.health {
            unit.health = Some(h);
        }
        unit.counters = self.counters;
        unit.validate()?;
        Ok(Built {
            unit,
            ignored,
            power_for_attacker: stack.power_for_attacker(&on),
        })
    }
}

/// The policy words of scenario and plan files.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PolicyFile {
    objective: Option<String>,
    lucky: Option<String>,
    lucky_order: Option<String>,
}

impl PolicyFile {
    /// The policy (defaults where a word is missing).
    pub(crate) fn policy(file: &Option<PolicyFile>) -> Result<Policy> {
        match file {
            Some(p) => Policy::from_words(
                p.objective.as_deref(),
                p.lucky.as_deref(),
                p.lucky_order.as_deref(),
            ),
            None => Ok(Policy::default()),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    attacker: UnitFile,
    defender: UnitFile,
    #[serde(default)]
    others: Vec<UnitFile>,
    policy: Option<PolicyFile>,
    #[serde(default)]
    ignore_unknown: bool,
    /// A card database for units given as `"card"`.
    db: Option<String>,
}

/// A scenario: the game to solve, and the keyword texts that were ignored.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The units, sides and policy.
    pub game: Game,
    /// `(unit, text)` of each keyword ignored under `"ignore_unknown": true`.
    pub ignored: Vec<(String, String)>,
}

/// Parses a policy word for `field`, naming the accepted words on error.
fn word<T: Copy>(field: &str, text: Option<&str>, default: T, words: &[(&str, T)]) -> Result<T> {
    let Some(text) = text else {
        return Ok(default);
    };
    words
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(text))
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = words.iter().map(|w| w.0).collect();
            Error::input(format!(
                "policy.{field}: '{text}' is not one of {}",
                names.join(", ")
            ))
        })
}

impl Policy {
    /// Parses the policy words of a scenario (`objective`, `lucky`,
    /// `lucky_order`), each optional.
    pub fn from_words(
        objective: Option<&str>,
        lucky: Option<&str>,
        lucky_order: Option<&str>,
    ) -> Result<Policy> {
        let d = Policy::default();
        Ok(Policy {
            objective: word(
                "objective",
                objective,
                d.objective,
                &[
                    ("damage", Objective::Damage),
                    ("discard", Objective::Discard),
                    ("net", Objective::Net),
                ],
            )?,
            lucky: word(
                "lucky",
                lucky,
                d.lucky,
                &[
                    ("optimal", LuckyPolicy::Optimal),
                    ("simple", LuckyPolicy::Simple),
                ],
            )?,
            lucky_order: word(
                "lucky_order",
                lucky_order,
                d.lucky_order,
                &[
                    ("attacker-first", LuckyOrder::AttackerFirst),
                    ("defender-first", LuckyOrder::DefenderFirst),
                ],
            )?,
        })
    }
}

/// Parses the keyword texts of unit `name`: the abilities, and (with
/// `ignore_unknown`) the texts ignored; otherwise an unknown or malformed
/// text is an error naming the unit and quoting it.
fn parse_texts(
    name: &str,
    texts: &[impl AsRef<str>],
    ignore_unknown: bool,
) -> Result<(Vec<Ability>, Vec<String>)> {
    let mut abilities = Vec::new();
    let mut ignored = Vec::new();
    for t in texts {
        let t = t.as_ref();
        match parse(t) {
            Ok(a) => abilities.push(a),
            Err(_) if ignore_unknown => ignored.push(t.to_string()),
            Err(e) => return Err(e.about(&format!("unit '{name}'"))),
        }
    }
    Ok((abilities, ignored))
}

/// A unit from its name, numbers and keyword texts. Unknown or malformed
/// keywords are errors naming the unit and quoting the text, unless
/// `ignore_unknown`, when they are returned as ignored.
pub fn unit_from_texts(
    name: &str,
    power: u32,
    health: Option<u32>,
    counters: u32,
    texts: &[impl AsRef<str>],
    ignore_unknown: bool,
) -> Result<(Unit, Vec<String>)> {
    let (abilities, ignored) = parse_texts(name, texts, ignore_unknown)?;
    let unit = Unit {
        name: name.to_string(),
        power,
        health,
        counters,
        keywords: Keywords::from_abilities(&abilities),
    };
    unit.validate()?;
    Ok((unit, ignored))
}

impl Scenario {
    /// Reads a scenario from JSON text; errors say where and what.
    pub fn from_json(text: &str) -> Result<Scenario> {
        let file: ScenarioFile =
            serde_json::from_str(text).map_err(|e| Error::input(format!("scenario: {e}")))?;
        let policy = PolicyFile::policy(&file.policy)?;
        let mut units = Vec::new();
        let mut sides = Vec::new();
        let mut ignored = Vec::new();
        let all = [
            (&file.attacker, Some(Side::Attacking)),
            (&file.defender, Some(Side::Defending)),
        ]
        .into_iter()
        .chain(file.others.iter().map(|u| (u, None)));
        let ctx = FileContext::new(file.ignore_unknown, &file.db)?;
        let mut attacker_power = 0;
        for (u, fixed) in all {
            let side = match (fixed, u.side.as_deref()) {
                (Some(s), None) => s,
                (Some(_), Some(_)) => {
                    return Err(Error::input(format!(
                        "unit '{}': \"side\" is only for the others (the attacker and defender have theirs)",
                        u.label()
                    )));
                }
                (None, Some(s)) if s.eq_ignore_ascii_case("attacker") => Side::Attacking,
                (None, Some(s)) if s.eq_ignore_ascii_case("defender") => Side::Defending,
                (None, other) => {
                    return Err(Error::input(format!(
                        "unit '{}': \"side\" must be \"attacker\" or \"defender\", found {:?}",
                        u.label(),
                        other.unwrap_or("nothing")
                    )));
                }
            };
            let built = u.build(&ctx)?;
            if units.iter().any(|x: &Unit| x.name == built.unit.name) {
                return Err(Error::input(format!(
                    "two units are named '{}'",
                    built.unit.name
                )));
            }
            if fixed == Some(Side::Defending) {
                attacker_power = built.power_for_attacker;
            }
            ignored.extend(
                built
                    .ignored
                    .into_iter()
                    .map(|t| (built.unit.name.clone(), t)),
            );
            units.push(built.unit);
            sides.push(side);
        }
        // The declared defender's conditions on the unit attacking it.
        let a = &mut units[ATTACKER];
        a.power = (a.power as i64 + attacker_power as i64).max(0) as u32;
        if units.len() > MAX_UNITS {
            return Err(Error::input(format!(
                "scenario: {} units; at most {MAX_UNITS} can take part in one attack",
                units.len()
            )));
        }
        Ok(Scenario {
            game: Game {
                units,
                sides,
                policy,
            },
            ignored,
        })
    }

    /// Reads a scenario file.
    pub fn from_file(path: &str) -> Result<Scenario> {
        Scenario::from_json(&read_file(path)?).map_err(|e| e.about(path))
    }

    /// Solves the scenario exactly.
    pub fn solve(&self) -> Result<ScenarioReport> {
        let outcome = solve(&self.game)?;
        Ok(ScenarioReport {
            scenario: self.clone(),
            outcome,
        })
    }
}

/// A solved scenario, ready to render.
#[derive(Clone, Debug)]
pub struct ScenarioReport {
    /// The scenario.
    pub scenario: Scenario,
    /// Its exact solution.
    pub outcome: GameOutcome,
}

/// `{"best_guess": k, "probability": p, "by_guess": {...}}` for a hits law.
fn guess_json(hits: &Dist<Num>) -> Value {
    let best = hits.mode();
    let mut by = Map::new();
    for (k, p) in hits.pmf() {
        by.insert(k.to_string(), fraction_string(&p).into());
    }
    json!({"best_guess": best, "probability": fraction_string(&hits.prob(best)), "by_guess": by})
}

impl ScenarioReport {
    fn units(&self) -> &[Unit] {
        &self.scenario.game.units
    }

    /// The law of the damage placed on unit `i`.
    pub fn damage(&self, i: usize) -> Dist<Num> {
        self.outcome
            .solution
            .tallies
            .marginal(|t| t.damage[i] as i64)
    }

    /// P(unit `i` is discarded by this attack).
    pub fn discarded(&self, i: usize) -> BigRational {
        let u = &self.units()[i];
        match u.remaining_health() {
            Some(r) => self.outcome.solution.tallies.prob(|t| t.damage[i] >= r),
            None => BigRational::from_integer(0.into()),
        }
    }

    /// The law of the hits of the final roll.
    pub fn hits(&self) -> Dist<Num> {
        self.outcome.solution.final_roll.marginal(|r| r.hits as i64)
    }

    fn prob_used(&self, unit: usize, what: u32) -> BigRational {
        self.outcome
            .solution
            .tallies
            .prob(|t: &Tally| t.used & used::bit(unit, what) != 0)
    }

    /// `"<unit>: <ability>"` → P(used), for every optional ability.
    pub fn used(&self) -> Vec<(String, BigRational)> {
        let one = BigRational::from_integer(1.into());
        let zero = BigRational::from_integer(0.into());
        let bool_p = |b: bool| if b { one.clone() } else { zero.clone() };
        let decl = &self.outcome.declared;
        let mut out = Vec::new();
        for (i, u) in self.units().iter().enumerate() {
            let k = &u.keywords;
            let key = |a: &str| format!("{}: {a}", u.name);
            if k.lucky > 0 {
                let p = if i == ATTACKER {
                    Some(self.outcome.solution.lucky_used[0].clone())
                } else if i == decl.defending {
                    Some(self.outcome.solution.lucky_used[1].clone())
                } else {
                    None
                };
                if let Some(p) = p {
                    out.push((key(&format!("Lucky {}", k.lucky)), p));
                }
            }
            let defending_side = self.scenario.game.sides[i] == Side::Defending;
            if k.intercept && defending_side && i >= 2 {
                out.push((key("Intercept"), bool_p(decl.defending == i)));
            }
            if k.paid_retaliate > 0 && defending_side {
                out.push((
                    key("Retaliate"),
                    bool_p(decl.defending == i && decl.retaliate_paid),
                ));
            }
            if k.deflect > 0 {
                out.push((key("Deflect"), self.prob_used(i, used::DEFLECT)));
            }
            if k.paid_evade > 0 {
                out.push((key("Evade"), self.prob_used(i, used::EVADE)));
            }
            if k.overkill && i == ATTACKER {
                out.push((key("Overkill"), self.prob_used(i, used::OVERKILL)));
            }
        }
        out
    }

    /// The JSON result: the keys of `attack --json` (for the unit that ended
    /// up defending), plus `damage_by_unit`, `discarded_by_unit`,
    /// `defending_unit`, `used`, `foresight` / `forewarning`, the
    /// objective's exact value, the declare options and ignored keywords.
    pub fn to_json(&self) -> Value {
        let units = self.units();
        let d = self.outcome.declared.defending;
        let sol = &self.outcome.solution;
        let hits = self.hits();
        let discarded = |i: usize| units[i].health.map(|_| self.discarded(i));
        let stun = |i: usize| sol.tallies.prob(|t| t.damaged_by & (1 << i) != 0);
        let mut m = attack_keys(
            &hits,
            [&self.damage(d), &self.damage(ATTACKER)],
            [discarded(d), discarded(ATTACKER)],
            [stun(ATTACKER), stun(d)],
        );
        let mut by_unit = Map::new();
        let mut disc = Map::new();
        for (i, u) in units.iter().enumerate() {
            by_unit.insert(u.name.clone(), dist_json(&self.damage(i)));
            disc.insert(u.name.clone(), fraction_string(&self.discarded(i)).into());
        }
        m.insert("damage_by_unit".into(), Value::Object(by_unit));
        m.insert("discarded_by_unit".into(), Value::Object(disc));
        let mut defending = Map::new();
        defending.insert(units[d].name.clone(), "1/1".into());
        m.insert("defending_unit".into(), Value::Object(defending));
        let mut used = Map::new();
        for (k, p) in self.used() {
            used.insert(k, fraction_string(&p).into());
        }
        m.insert("used".into(), Value::Object(used));
        if units[ATTACKER].keywords.foresight.is_some() {
            m.insert("foresight".into(), guess_json(&hits));
        }
        if units[d].keywords.forewarning.is_some() {
            m.insert("forewarning".into(), guess_json(&hits));
        }
        let policy = &self.scenario.game.policy;
        m.insert(
            "objective".into(),
            json!({
                "name": objective_name(policy.objective),
                "value": fraction_string(&sol.value),
                "value_f64": to_f64(&sol.value),
            }),
        );
        let options: Vec<Value> = self
            .outcome
            .options
            .iter()
            .map(|(o, v)| {
                json!({
                    "defending": units[o.defending].name,
                    "retaliate_paid": o.retaliate_paid,
                    "value": fraction_string(v),
                })
            })
            .collect();
        m.insert("declare_options".into(), Value::Array(options));
        let ignored: Vec<Value> = self
            .scenario
            .ignored
            .iter()
            .map(|(u, t)| json!({"unit": u, "text": t}))
            .collect();
        m.insert("ignored".into(), Value::Array(ignored));
        Value::Object(m)
    }

    /// The human report.
    pub fn to_text(&self) -> String {
        let units = self.units();
        let d = self.outcome.declared.defending;
        let sol = &self.outcome.solution;
        let policy = &self.scenario.game.policy;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} attacks {}{}",
            units[ATTACKER].name,
            units[d].name,
            if d != 1 {
                format!(" (intercepting for {})", units[1].name)
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            out,
            "Objective {}: {} = {:.4} (Lucky {}, {})\n",
            objective_name(policy.objective),
            fraction_string(&sol.value),
            to_f64(&sol.value),
            match policy.lucky {
                LuckyPolicy::Optimal => "optimal",
                LuckyPolicy::Simple => "simple",
            },
            match policy.lucky_order {
                LuckyOrder::AttackerFirst => "attacker first",
                LuckyOrder::DefenderFirst => "defender first",
            }
        );
        for (i, u) in units.iter().enumerate() {
            let dmg = self.damage(i);
            if dmg.max() == 0 {
                continue;
            }
            out.push_str(&dist_text(&format!("Damage to {}", u.name), &dmg));
            if u.health.is_some() {
                let _ = writeln!(
                    out,
                    "  P(discarded) = {}",
                    fraction_and_percent(&self.discarded(i))
                );
            }
            out.push('\n');
        }
        out.push_str(&dist_text("Hits of the final roll", &self.hits()));
        let used = self.used();
        if !used.is_empty() {
            out.push_str("\nOptional abilities used:\n");
            for (k, p) in used {
                let _ = writeln!(out, "  {k}: {}", fraction_and_percent(&p));
            }
        }
        for (what, has) in [
            ("Foresight", units[ATTACKER].keywords.foresight.is_some()),
            ("Forewarning", units[d].keywords.forewarning.is_some()),
        ] {
            if has {
                let hits = self.hits();
                let best = hits.mode();
                let _ = writeln!(
                    out,
                    "{what}: best guess {best} hits, right {}",
                    fraction_and_percent(&hits.prob(best))
                );
            }
        }
        for (u, t) in &self.scenario.ignored {
            let _ = writeln!(out, "ignored: {u}: '{t}'");
        }
        out
    }
}

/// The objective's name in scenario files.
pub fn objective_name(o: Objective) -> &'static str {
    match o {
        Objective::Damage => "damage",
        Objective::Discard => "discard",
        Objective::Net => "net",
    }
}
