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
use crate::dist::{Dist, Fraction, Num, fraction_string, to_f64};
use crate::error::{Error, Result, quote};
use crate::files::{Applied, CardUnits, DbPaths, ForceFile, FromFile, ScenarioFile};
use crate::policy::{Game, GameOutcome, LuckyOrder, LuckyPolicy, aimed_foresight, solve};
use crate::report::{AttackReport, DistReport, Distributions, dist_text, fraction_and_percent};
use crate::unit::Unit;
use num_rational::BigRational;
use serde::Serialize;

use std::collections::BTreeMap;
use std::fmt::Write;

/// A scenario: the game to solve, and the keyword texts that were ignored.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The units, sides and policy.
    pub game: Game,
    /// `(unit, text)` of each keyword ignored under `"ignore_unknown": true`.
    pub ignored: Vec<(String, String)>,
    /// Conditions of the cards applied (decided by the two cards, or
    /// switched on).
    pub applied: Vec<Applied>,
    /// Conditions the cards cannot decide and nobody switched on
    /// (`card`, `text`).
    pub waiting: Vec<(String, String)>,
}

impl Scenario {
    /// The scenario of a game given by its units.
    pub fn new(game: Game) -> Scenario {
        Scenario {
            game,
            ignored: Vec::new(),
            applied: Vec::new(),
            waiting: Vec::new(),
        }
    }

    /// Reads a scenario from JSON text (units by their numbers and keyword
    /// texts; a `"card"` unit needs a card database: see
    /// `Scenario::from_parts`). Errors say where and what.
    pub fn from_json(text: &str) -> Result<Scenario> {
        <Scenario as FromFile>::from_json(text)
    }

    /// The scenario of a file read ([`ScenarioFile::parse`]), its units
    /// built by `cards` (whose `"card"` units it can read, if any).
    pub(crate) fn from_parts<C: CardUnits>(file: ScenarioFile, cards: &C) -> Result<Scenario> {
        let policy = file.policy;
        let force = ForceFile::budgets(&file.force);
        let others_count = file.others.len() + 2;
        if others_count > MAX_UNITS {
            return Err(Error::limit(format!(
                "scenario: {others_count} units; at most {MAX_UNITS} can take part in one attack"
            )));
        }
        if file.db.is_some() && !cards.has_db() {
            return Err(Error::missing(
                "\"db\": this reader has no card database (read the file with its cards)",
            ));
        }
        let mut specs = Vec::new();
        let mut sides = Vec::new();
        let mut ignored = Vec::new();
        let all = [
            (&file.attacker, Some(Side::Attacking)),
            (&file.defender, Some(Side::Defending)),
        ]
        .into_iter()
        .chain(file.others.iter().map(|u| (u, None)));
        for (u, fixed) in all {
            let side = match (fixed, u.side.as_deref()) {
                (Some(s), None) => s,
                (Some(_), Some(_)) => {
                    return Err(Error::conflict(format!(
                        "unit '{}': \"side\" is only for the others (the attacker and defender have theirs)",
                        quote(&u.label())
                    )));
                }
                (None, Some(s)) if s.eq_ignore_ascii_case("attacker") => Side::Attacking,
                (None, Some(s)) if s.eq_ignore_ascii_case("defender") => Side::Defending,
                (None, other) => {
                    return Err(Error::unknown(format!(
                        "unit '{}': \"side\" must be \"attacker\" or \"defender\", found '{}'",
                        quote(&u.label()),
                        quote(other.unwrap_or("nothing"))
                    )));
                }
            };
            let (spec, texts) = cards.build(u, file.ignore_unknown)?;
            ignored.extend(texts.into_iter().map(|t| (u.label(), t)));
            specs.push(spec);
            sides.push(side);
        }
        let (a, d, mut applied, waiting) = cards.pair(&specs[0], &specs[1])?;
        let mut units = vec![a, d];
        for (i, s) in specs.iter().enumerate().skip(2) {
            let facing = if sides[i] == Side::Defending {
                &specs[0]
            } else {
                &specs[1]
            };
            let (u, ap) = cards.other(s, facing)?;
            applied.extend(ap);
            units.push(u);
        }
        for (i, u) in units.iter().enumerate() {
            if units[..i].iter().any(|x| x.name == u.name) {
                return Err(Error::conflict(format!(
                    "two units are named '{}'",
                    quote(&u.name)
                )));
            }
        }
        Ok(Scenario {
            game: Game {
                units,
                sides,
                policy,
                force,
            },
            ignored,
            applied,
            waiting,
        })
    }

    /// Solves the scenario exactly.
    pub fn solve(&self) -> Result<ScenarioReport> {
        let outcome = solve(&self.game)?;
        let d = outcome.declared.defending;
        let mut aimed = [None, None];
        for (i, (side, has)) in [
            (
                Side::Attacking,
                outcome.units[ATTACKER].keywords.foresight.is_some(),
            ),
            (
                Side::Defending,
                outcome.units[d].keywords.forewarning.is_some(),
            ),
        ]
        .into_iter()
        .enumerate()
        {
            if has {
                aimed[i] = aimed_foresight(&self.game, &outcome, side)?;
            }
        }
        Ok(ScenarioReport {
            scenario: self.clone(),
            outcome,
            aimed,
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
    /// The best Foresight and Forewarning guesses when the guesser aims its
    /// re-rolls at them (with Lucky), with their probabilities.
    pub aimed: [Option<(u32, BigRational)>; 2],
}

/// The JSON of a scenario (see [`ScenarioReport::json`]; the contract is
/// in `docs/json.md`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ScenarioJson {
    /// The keys of `attack --json`, for the unit that ended up defending.
    #[serde(flatten)]
    pub attack: AttackReport,
    /// The damage to each unit, by name.
    pub damage_by_unit: BTreeMap<String, DistReport>,
    /// P(discarded) of each unit, by name.
    pub discarded_by_unit: BTreeMap<String, Fraction>,
    /// The unit that ended up defending, with probability 1.
    pub defending_unit: BTreeMap<String, Fraction>,
    /// `"<unit>: <ability>"` → how often it was used.
    pub used: BTreeMap<String, Fraction>,
    /// The attacker's Foresight guess, when it has Foresight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foresight: Option<GuessReport>,
    /// The defender's Forewarning guess, when it has Forewarning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forewarning: Option<GuessReport>,
    /// The objective and its exact value.
    pub objective: ObjectiveReport,
    /// The Force each side could spend in the attack, fixed costs and
    /// costs of X alike ([`crate::policy::DEFAULT_FORCE`] a side when no
    /// budget is given).
    pub force: ForceReport,
    /// The options weighed at the declare step by the defending side.
    pub declare_options: Vec<DeclareOption>,
    /// Keyword texts ignored (`"ignore_unknown": true`).
    pub ignored: Vec<Ignored>,
    /// Card conditions applied.
    pub applied: Vec<Applied>,
    /// Card conditions waiting for `--condition`.
    pub waiting: Vec<Waiting>,
}

/// The Force each side could spend in the attack: a number, or
/// `"unlimited"`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub(crate) struct ForceReport {
    /// The attacking side's.
    pub attacker: crate::policy::ForceBudget,
    /// The defending side's.
    pub defender: crate::policy::ForceBudget,
    /// Both are the default ([`crate::policy::DEFAULT_FORCE`], a turn's
    /// income).
    pub default: bool,
}

impl ForceReport {
    /// The report of budgets by side (`None`: unlimited).
    pub(crate) fn of(force: [Option<u32>; 2]) -> ForceReport {
        let b = |f: Option<u32>| {
            f.map_or(
                crate::policy::ForceBudget::Unlimited,
                crate::policy::ForceBudget::Limit,
            )
        };
        ForceReport {
            attacker: b(force[0]),
            defender: b(force[1]),
            default: force == crate::policy::DEFAULT_BUDGETS,
        }
    }

    /// The budgets as one line of a report.
    pub(crate) fn line(&self) -> String {
        format!(
            "Force: the attacker may spend {}, the defender {}{}",
            self.attacker,
            self.defender,
            if self.default {
                " (the default, a turn's income; --force-attacker / --force-defender N or unlimited)"
            } else {
                ""
            }
        )
    }
}

/// A Foresight (or Forewarning) guess.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct GuessReport {
    /// The most likely number of hits (re-rolls played for damage).
    pub best_guess: i64,
    /// Its probability.
    pub probability: Fraction,
    /// P(final hits = k) for every k.
    pub by_guess: BTreeMap<String, Fraction>,
    /// The best guess and its probability when the guesser's Lucky aims at
    /// it (with Lucky only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aimed: Option<AimedGuess>,
}

/// The best guess when re-rolls aim at it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct AimedGuess {
    /// The guess.
    pub best_guess: u32,
    /// Its probability.
    pub probability: Fraction,
}

impl GuessReport {
    fn of(hits: &Dist<Num>, aimed: &Option<(u32, BigRational)>) -> GuessReport {
        let best = hits.mode();
        GuessReport {
            best_guess: best,
            probability: Fraction(hits.prob(best)),
            by_guess: hits
                .pmf()
                .into_iter()
                .map(|(k, p)| (k.to_string(), Fraction(p)))
                .collect(),
            aimed: aimed.as_ref().map(|(g, p)| AimedGuess {
                best_guess: *g,
                probability: Fraction(p.clone()),
            }),
        }
    }
}

/// The objective and its exact value.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ObjectiveReport {
    /// Its name.
    pub name: Objective,
    /// The exact expected value under the policy.
    pub value: Fraction,
    /// The same, as a float (display only).
    pub value_f64: f64,
}

/// One option weighed at the declare step.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct DeclareOption {
    /// The unit defending.
    pub defending: String,
    /// Whether a Retaliate with a cost was activated.
    pub retaliate_paid: bool,
    /// The Retaliates activated: (its number among the unit's Retaliates,
    /// from 1; its dice).
    pub retaliates: Vec<(usize, u32)>,
    /// When another unit intercepted: the declared defender's Retaliates
    /// activated, as `retaliates`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub declared_retaliates: Vec<(usize, u32)>,
    /// The options taken before the roll.
    pub options: Vec<String>,
    /// The exact value of the attack so declared.
    pub value: Fraction,
}

/// A keyword text ignored.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Ignored {
    /// The unit.
    pub unit: String,
    /// The text.
    pub text: String,
}

/// A condition waiting for `--condition`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Waiting {
    /// The card.
    pub card: String,
    /// The condition's text.
    pub text: String,
}

impl ScenarioReport {
    /// The joint law of the counters placed on the unit that defended
    /// (rows, from 0) and on the attacker (columns, from 0): `P(defender =
    /// i, attacker = j)`, exact.
    pub fn joint_damage(&self) -> ndarray::Array2<BigRational> {
        crate::attack::joint_damage(
            &self.outcome.solution.tallies,
            self.outcome.declared.defending,
            ATTACKER,
        )
    }

    /// The scenario's units, in order (the attacker first).
    pub fn units(&self) -> &[Unit] {
        &self.scenario.game.units
    }

    /// The Force budgets it was solved with, and whether they are the
    /// default.
    pub(crate) fn force(&self) -> ForceReport {
        ForceReport::of(self.scenario.game.force)
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
            Some(r) => self
                .outcome
                .solution
                .tallies
                .prob(|t| u32::from(t.damage[i]) >= r),
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
            if defending_side {
                for (r, p) in k.retaliates.iter().enumerate() {
                    let name = if p.x {
                        format!("Retaliate X (#{})", r + 1)
                    } else if k.retaliates.len() > 1 {
                        format!("Retaliate {} (#{})", p.amount, r + 1)
                    } else {
                        format!("Retaliate {}", p.amount)
                    };
                    let on = (decl.defending == i && decl.retaliates.iter().any(|&(x, _)| x == r))
                        || (i == crate::attack::DEFENDER
                            && decl.declared_retaliates.iter().any(|&(x, _)| x == r));
                    out.push((key(&name), bool_p(on)));
                }
            }
            for (b, boost) in k.boosts.iter().enumerate() {
                let on = decl.boosts.contains(&(i, b));
                out.push((key(&format!("option '{}'", boost.text)), bool_p(on)));
            }
            if k.deflect > 0 || !k.paid_deflects.is_empty() {
                out.push((key("Deflect"), self.prob_used(i, used::DEFLECT)));
            }
            if !k.paid_evades.is_empty() {
                // Named by the keywords it holds (a paid Absorb prevents as
                // a paid Evade does).
                let mut names: Vec<&str> = Vec::new();
                for p in &k.paid_evades {
                    let n = p.from.map_or("Evade", |f| f.name());
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
                out.push((key(&names.join(" or ")), self.prob_used(i, used::EVADE)));
            }
            if k.overkill && i == ATTACKER {
                out.push((key("Overkill"), self.prob_used(i, used::OVERKILL)));
            }
            if k.consolation.is_some() && i == ATTACKER {
                out.push((
                    key("consolation counters"),
                    self.prob_used(i, used::CONSOLATION),
                ));
            }
        }
        out
    }

    /// The typed result: the keys of `attack --json` (for the unit that
    /// ended up defending), plus `damage_by_unit`, `discarded_by_unit`,
    /// `defending_unit`, `used`, `foresight` / `forewarning`, the
    /// objective's exact value, the declare options, ignored keywords and
    /// the conditions applied and waiting.
    pub fn json(&self) -> impl serde::Serialize + Distributions + use<'_> {
        let units = self.units();
        let d = self.outcome.declared.defending;
        let sol = &self.outcome.solution;
        let hits = self.hits();
        let discarded = |i: usize| units[i].health.map(|_| self.discarded(i));
        // A side's Stun figure only when the unit has Stun.
        let stun = |i: usize| {
            (units[i].keywords.stun > 0).then(|| sol.tallies.prob(|t| t.damaged_by & (1 << i) != 0))
        };
        let attack = AttackReport::from_parts(
            &hits,
            [&self.damage(d), &self.damage(ATTACKER)],
            [discarded(d), discarded(ATTACKER)],
            [stun(ATTACKER), stun(d)],
        );
        let policy = &self.scenario.game.policy;
        ScenarioJson {
            attack,
            damage_by_unit: units
                .iter()
                .enumerate()
                .map(|(i, u)| (u.name.clone(), DistReport::of(&self.damage(i))))
                .collect(),
            discarded_by_unit: units
                .iter()
                .enumerate()
                .map(|(i, u)| (u.name.clone(), Fraction(self.discarded(i))))
                .collect(),
            defending_unit: BTreeMap::from([(
                units[d].name.clone(),
                Fraction(BigRational::from_integer(1.into())),
            )]),
            used: self
                .used()
                .into_iter()
                .map(|(k, p)| (k, Fraction(p)))
                .collect(),
            foresight: units[ATTACKER]
                .keywords
                .foresight
                .is_some()
                .then(|| GuessReport::of(&hits, &self.aimed[0])),
            forewarning: units[d]
                .keywords
                .forewarning
                .is_some()
                .then(|| GuessReport::of(&hits, &self.aimed[1])),
            objective: ObjectiveReport {
                name: policy.objective,
                value: Fraction(sol.value.clone()),
                value_f64: to_f64(&sol.value),
            },
            force: self.force(),
            declare_options: self
                .outcome
                .options
                .iter()
                .map(|(o, v)| DeclareOption {
                    defending: units[o.defending].name.clone(),
                    retaliate_paid: o.retaliate_paid,
                    retaliates: o.retaliates.iter().map(|&(r, x)| (r + 1, x)).collect(),
                    declared_retaliates: o
                        .declared_retaliates
                        .iter()
                        .map(|&(r, x)| (r + 1, x))
                        .collect(),
                    options: o
                        .boosts
                        .iter()
                        .map(|&(u, b)| {
                            format!("{}: {}", units[u].name, units[u].keywords.boosts[b].text)
                        })
                        .collect(),
                    value: Fraction(v.clone()),
                })
                .collect(),
            ignored: self
                .scenario
                .ignored
                .iter()
                .map(|(u, t)| Ignored {
                    unit: u.clone(),
                    text: t.clone(),
                })
                .collect(),
            applied: self.scenario.applied.clone(),
            waiting: self
                .scenario
                .waiting
                .iter()
                .map(|(c, t)| Waiting {
                    card: c.clone(),
                    text: t.clone(),
                })
                .collect(),
        }
    }

    /// The human report.
    pub fn to_text(&self) -> String {
        let units = self.units();
        let d = self.outcome.declared.defending;
        let sol = &self.outcome.solution;
        let policy = &self.scenario.game.policy;
        let mut out = String::new();
        for a in &self.scenario.applied {
            let _ = writeln!(out, "{}: {} -> {} ({})", a.card, a.text, a.to, a.how);
        }
        for (card, text) in &self.scenario.waiting {
            let _ = writeln!(
                out,
                "not applied (the cards can't decide; --condition to switch on): {card}: {text}"
            );
        }
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
        // The expected damage first, plainly named; the objective only when
        // it says something else, with why.
        let dd = self.damage(d);
        let mean = dd.mean();
        let _ = writeln!(
            out,
            "Expected damage to {}: {} = {:.4}",
            units[d].name,
            fraction_string(&mean),
            to_f64(&mean)
        );
        if units[d].health.is_some() {
            let _ = writeln!(
                out,
                "P({} discarded) = {}",
                units[d].name,
                fraction_and_percent(&self.discarded(d))
            );
        }
        if sol.value != mean {
            let why = match policy.objective {
                Objective::Damage => {
                    "the expected counters on the defending side, each unit counted only up to its remaining health"
                }
                Objective::Discard => "the expected number of the defending side's units discarded",
                Objective::Net => {
                    "the expected counters on the defending side minus those on the attacking side"
                }
            };
            let _ = writeln!(
                out,
                "Objective played for: {} = {:.4}, {why}",
                fraction_string(&sol.value),
                to_f64(&sol.value),
            );
        }
        let _ = writeln!(
            out,
            "Play: Lucky {}, {}",
            match policy.lucky {
                LuckyPolicy::Optimal => "optimal",
                LuckyPolicy::Simple => "simple",
            },
            match policy.lucky_order.played(policy.lucky) {
                LuckyOrder::Pop => "re-roll POP, attacker first",
                LuckyOrder::PopDefenderFirst => "re-roll POP, defender first",
                LuckyOrder::AttackerFirst => "attacker first",
                LuckyOrder::DefenderFirst => "defender first",
            }
        );
        let _ = writeln!(out, "{}", self.force().line());
        out.push('\n');
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
        for (i, (what, has)) in [
            ("Foresight", units[ATTACKER].keywords.foresight.is_some()),
            ("Forewarning", units[d].keywords.forewarning.is_some()),
        ]
        .into_iter()
        .enumerate()
        {
            if has {
                let hits = self.hits();
                let best = hits.mode();
                let _ = writeln!(
                    out,
                    "{what}: best guess {best} hits, right {} (re-rolls played for damage)",
                    fraction_and_percent(&hits.prob(best))
                );
                if let Some((g, p)) = &self.aimed[i] {
                    let _ = writeln!(
                        out,
                        "{what}: best guess {g} hits, right {} (re-rolls aimed at the guess)",
                        fraction_and_percent(p)
                    );
                }
            }
        }
        for (u, t) in &self.scenario.ignored {
            let _ = writeln!(out, "ignored: {u}: '{t}'");
        }
        out
    }
}

impl FromFile for Scenario {
    type File = ScenarioFile;
    const KIND: &'static str = "scenario";

    fn parse(text: &str, file: &str) -> Result<ScenarioFile> {
        ScenarioFile::parse(text, file)
    }

    fn db(file: &ScenarioFile) -> Option<&DbPaths> {
        file.db.as_ref()
    }

    fn from_parts<C: CardUnits>(file: ScenarioFile, cards: &C) -> Result<Scenario> {
        Scenario::from_parts(file, cards)
    }
}

impl Distributions for ScenarioJson {
    fn distributions(&self) -> Vec<(String, &DistReport)> {
        let mut out = self.attack.distributions();
        out.extend(
            self.damage_by_unit
                .iter()
                .map(|(name, d)| (format!("damage to {name}"), d)),
        );
        out
    }
}
