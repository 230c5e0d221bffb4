//! Battle plans: several attacks in order against one defender, exactly.
//!
//! Damage counters carry over from attack to attack; a discarded defender
//! ends the plan; an attacker discarded by damage taken back makes no later
//! attack; Stun placed on an attacker (by the defender's deflected or
//! Retaliate damage) lowers its power for its later attacks. The plan is a
//! Markov chain over (counters on the defender, counters and Stun on each
//! attacker), each step one exactly solved attack ([`crate::policy`]), so
//! every probability is exact.
//!
//! ```json
//! {
//!   "defender": {"name": "Vader", "power": 6, "health": 6, "keywords": ["Pay 2 Force -> Evade 2"]},
//!   "attackers": [{"name": "Luke", "power": 4, "health": 4, "keywords": ["Critical Hit 1"]},
//!                 {"name": "Han", "power": 3, "health": 4}],
//!   "steps": ["Luke", "Han", "Luke"],
//!   "policy": {"objective": "damage"}
//! }
//! ```

use crate::attack::{ATTACKER, DEFENDER, Side};
use crate::dist::{Dist, Fraction, Joint, Num, fraction_string, to_f64};
use crate::error::{Error, Result, quote};
use crate::files::{Applied, CardUnits, DbPaths, FromFile, PlanFile};
use crate::keywords::KeywordKind;
use crate::policy::{Game, Policy, solve};
use crate::report::{DistReport, Distributions};
use crate::unit::{MAX_GAME_WORK, Unit, attack_work};
use num_rational::BigRational;
use serde::Serialize;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Most steps one plan may have.
pub(crate) const MAX_STEPS: usize = 20;
/// Most distinct situations a plan may carry from one step to the next.
pub(crate) const MAX_PLAN_STATES: usize = 20_000;
/// Most memory the exact weights of one step may take (estimated before
/// the step).
pub(crate) const MAX_PLAN_BYTES: usize = 256 * 1024 * 1024;
/// Most work a plan's upper bound ([`Plan::estimate_work`]) may reach
/// before its first step: the bound counts every situation that could
/// arise, and real plans reach a fraction of it, so it is looser than the
/// limit on the work actually done ([`MAX_GAME_WORK`], checked as it goes).
pub(crate) const MAX_PLAN_ESTIMATE: u64 = 5 * MAX_GAME_WORK;

/// Most time one plan may take.
pub(crate) const PLAN_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// The JSON of a plan (see [`PlanReport::json`]).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PlanJson {
    /// The defender's name.
    pub defender: String,
    /// P(the defender is discarded by the end of step k), k from 1.
    pub defender_discarded_by_step: Vec<Fraction>,
    /// Each step.
    pub steps: Vec<StepJson>,
    /// The law of all the counters placed on the defender.
    pub total_damage: DistReport,
    /// The law of all the counters taken back by the attackers.
    pub damage_taken_back: DistReport,
    /// Per attacker, the law of the counters it took back.
    pub damage_taken_back_by_unit: BTreeMap<String, DistReport>,
    /// Per attacker, P(it was discarded).
    pub attacker_discarded: BTreeMap<String, Fraction>,
}

/// One step of a plan.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct StepJson {
    /// Its number, from 1.
    pub step: usize,
    /// Who attacks.
    pub attacker: String,
    /// P(the defender is discarded by the end of this step).
    pub defender_discarded: Fraction,
    /// The expected counters this step places on the defender.
    pub expected_damage: Fraction,
}

/// A battle plan.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The defender (as the first attacker sees it).
    pub defender: Unit,
    /// The defender as each attacker sees it (its conditions depend on
    /// who attacks it).
    pub defender_against: Vec<Unit>,
    /// The attacking units.
    pub attackers: Vec<Unit>,
    /// Which attacker attacks at each step (index into `attackers`).
    pub steps: Vec<usize>,
    /// How every attack's choices are played.
    pub policy: Policy,
    /// `(unit, text)` of keywords ignored under `ignore_unknown`.
    pub ignored: Vec<(String, String)>,
    /// Conditions of the cards applied.
    pub applied: Vec<Applied>,
    /// Conditions the cards cannot decide, not switched on.
    pub waiting: Vec<(String, String)>,
}

/// Most attackers one plan may have.
pub(crate) const MAX_ATTACKERS: usize = 20;

/// Where a plan stands between attacks.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct State {
    /// Counters the plan has placed on the defender.
    defender: u32,
    /// Per attacker: counters taken back, power lost to Stun, and power
    /// gained for its next attack (Focus).
    attackers: Vec<(u32, u32, u32)>,
    /// Per attacker: whether it has attacked (Tenacity works on the first
    /// attack of the turn).
    attacked: Vec<bool>,
}

/// One step of a solved plan.
#[derive(Clone, Debug)]
pub struct StepReport {
    /// Who attacked.
    pub attacker: String,
    /// P(the defender is discarded by the end of this step).
    pub defender_discarded: BigRational,
    /// Expected counters placed on the defender by this step.
    pub damage: BigRational,
    /// The law of the counters placed on the defender so far.
    pub total_so_far: Dist<Num>,
}

/// A solved plan.
#[derive(Clone, Debug)]
pub struct PlanReport {
    /// The plan.
    pub plan: Plan,
    /// Step by step.
    pub steps: Vec<StepReport>,
    /// The law of all the counters the plan placed on the defender.
    pub total_damage: Dist<Num>,
    /// Per attacker, the law of the counters it took back.
    pub taken_back: Vec<Dist<Num>>,
    /// The law of all the counters taken back.
    pub total_taken_back: Dist<Num>,
    /// Per attacker, P(it was discarded).
    pub attacker_discarded: Vec<BigRational>,
}

impl Plan {
    /// Reads a plan from JSON text (units by their numbers and keyword
    /// texts; a `"card"` unit needs a card database: see
    /// `Plan::from_parts`).
    pub fn from_json(text: &str) -> Result<Plan> {
        <Plan as FromFile>::from_json(text)
    }

    /// The plan of a file read ([`PlanFile::parse`]), its units built by
    /// `cards`.
    pub(crate) fn from_parts<C: CardUnits>(file: PlanFile, cards: &C) -> Result<Plan> {
        if file.db.is_some() && !cards.has_db() {
            return Err(Error::missing(
                "\"db\": this reader has no card database (read the file with its cards)",
            ));
        }
        let policy = file.policy;
        if file.attackers.len() > MAX_ATTACKERS {
            return Err(Error::limit(format!(
                "plan: {} attackers; at most {MAX_ATTACKERS}",
                file.attackers.len()
            )));
        }
        let mut ignored = Vec::new();
        if file.defender.side.is_some() || file.attackers.iter().any(|a| a.side.is_some()) {
            return Err(Error::conflict(
                "plan: \"side\" is for the others of a scenario, not a plan",
            ));
        }
        let (d, texts) = cards.build(&file.defender, file.ignore_unknown)?;
        ignored.extend(texts.into_iter().map(|t| (file.defender.label(), t)));
        let mut attackers: Vec<Unit> = Vec::new();
        let mut defender_against: Vec<Unit> = Vec::new();
        let mut applied = Vec::new();
        let mut waiting = Vec::new();
        for f in &file.attackers {
            let (a, texts) = cards.build(f, file.ignore_unknown)?;
            ignored.extend(texts.into_iter().map(|t| (f.label(), t)));
            let (u, dv, ap, w) = cards.pair(&a, &d)?;
            applied.extend(ap);
            for x in w {
                if !waiting.contains(&x) {
                    waiting.push(x);
                }
            }
            if attackers.iter().any(|x| x.name == u.name) || u.name == dv.name {
                return Err(Error::conflict(format!(
                    "plan: two units are named '{}'",
                    quote(&u.name)
                )));
            }
            attackers.push(u);
            defender_against.push(dv);
        }
        let Some(defender) = defender_against.first().cloned() else {
            return Err(Error::missing("plan: no attackers"));
        };
        if defender.health.is_none() {
            return Err(Error::missing(format!(
                "plan: the defender '{}' needs its health (a plan ends when it is discarded)",
                quote(&defender.name)
            )));
        }
        let steps = match &file.steps {
            None => (0..attackers.len()).collect(),
            Some(names) => {
                if names.len() > MAX_STEPS {
                    return Err(Error::limit(format!(
                        "plan: {} steps; a plan has 1 to {MAX_STEPS}",
                        names.len()
                    )));
                }
                names
                    .iter()
                    .map(|n| {
                        attackers.iter().position(|a| &a.name == n).ok_or_else(|| {
                            Error::not_found(format!("plan: step '{}' names no attacker", quote(n)))
                        })
                    })
                    .collect::<Result<Vec<_>>>()?
            }
        };
        if steps.is_empty() || steps.len() > MAX_STEPS {
            return Err(Error::limit(format!(
                "plan: {} steps; a plan has 1 to {MAX_STEPS}",
                steps.len()
            )));
        }
        refuse_unmodelled(&attackers, &defender_against)?;
        Ok(Plan {
            defender,
            defender_against,
            attackers,
            steps,
            policy,
            ignored,
            applied,
            waiting,
        })
    }

    /// A plan of `attackers` attacking `defender` in the order of `steps`
    /// (indices into `attackers`), checked as a plan file is: names
    /// distinct, the defender's health known, at most `MAX_ATTACKERS`
    /// and `MAX_STEPS`.
    pub fn new(
        defender: Unit,
        attackers: Vec<Unit>,
        steps: Vec<usize>,
        policy: Policy,
    ) -> Result<Plan> {
        if defender.health.is_none() {
            return Err(Error::missing(format!(
                "plan: the defender '{}' needs its health (a plan ends when it is discarded)",
                quote(&defender.name)
            )));
        }
        if attackers.is_empty()
            || attackers.len() > MAX_ATTACKERS
            || steps.is_empty()
            || steps.len() > MAX_STEPS
        {
            return Err(Error::limit(format!(
                "plan: 1 to {MAX_ATTACKERS} attackers and 1 to {MAX_STEPS} steps"
            )));
        }
        if steps.iter().any(|&s| s >= attackers.len()) {
            return Err(Error::not_found("plan: a step names no attacker"));
        }
        for (i, a) in attackers.iter().enumerate() {
            a.validate()?;
            if attackers[..i].iter().any(|b| b.name == a.name) || a.name == defender.name {
                return Err(Error::conflict(format!(
                    "plan: two units are named '{}'",
                    quote(&a.name)
                )));
            }
        }
        defender.validate()?;
        let defender_against = vec![defender.clone(); attackers.len()];
        refuse_unmodelled(&attackers, &defender_against)?;
        Ok(Plan {
            defender_against,
            defender,
            attackers,
            steps,
            policy,
            ignored: Vec::new(),
            applied: Vec::new(),
            waiting: Vec::new(),
        })
    }

    fn defender_gone(&self, s: &State) -> bool {
        self.defender
            .remaining_health()
            .is_some_and(|r| s.defender >= r)
    }

    fn attacker_gone(&self, s: &State, i: usize) -> bool {
        self.attackers[i]
            .remaining_health()
            .is_some_and(|r| s.attackers[i].0 >= r)
    }

    /// The law of the next state when attacker `i` attacks from state `s`:
    /// once, and once more with Tenacity X when its first attack of the
    /// plan does less than X damage (the same target, never a worse
    /// choice for the damage it does).
    fn step(&self, s: &State, i: usize) -> Result<Joint<State, Num>> {
        let first = self.attack(s, i)?;
        let x = self.attackers[i].keywords.tenacity;
        if x == 0 || s.attacked[i] {
            return Ok(first);
        }
        let mut again = HashMap::new();
        for (t, _) in first.entries() {
            if t.defender - s.defender < x && !again.contains_key(t) {
                again.insert(t.clone(), self.attack(t, i)?);
            }
        }
        Ok(first.bind(|t| {
            again
                .get(t)
                .cloned()
                .unwrap_or_else(|| Joint::point(t.clone()))
        }))
    }

    /// One attack of attacker `i` from state `s`.
    fn attack(&self, s: &State, i: usize) -> Result<Joint<State, Num>> {
        if self.defender_gone(s) || self.attacker_gone(s, i) {
            return Ok(Joint::point(s.clone()));
        }
        let mut a = self.attackers[i].clone();
        a.counters += s.attackers[i].0;
        a.power = a
            .power
            .saturating_sub(s.attackers[i].1)
            .saturating_add(s.attackers[i].2);
        let mut d = self.defender_against[i].clone();
        d.counters += s.defender;
        let game = Game {
            units: vec![a, d],
            sides: vec![Side::Attacking, Side::Defending],
            policy: self.policy,
            force: crate::policy::DEFAULT_BUDGETS,
        };
        let out = solve(&game)?;
        let stun = self.defender_against[i].keywords.stun;
        let focus = self.attackers[i].keywords.focus;
        Ok(out.solution.tallies.map(|t| {
            let mut next = s.clone();
            next.defender += u32::from(t.damage[DEFENDER]);
            next.attackers[i].0 += u32::from(t.damage[ATTACKER]);
            next.attacked[i] = true;
            // Focus: a natural 5 before re-rolls, +X power for its next
            // attack only.
            next.attackers[i].2 = if t.flags & crate::attack::flags::FIVE != 0 {
                focus
            } else {
                0
            };
            if t.damage[ATTACKER] > 0 && t.damaged_by & (1 << DEFENDER) != 0 {
                next.attackers[i].1 += stun;
            }
            next
        }))
    }

    /// The work of one attack of attacker `i` (the units as in the plan,
    /// before counters): `(dice + 1)^2` for the damage steps, plus the
    /// (state, choice) pairs of its Lucky stages.
    fn attack_cost(&self, i: usize) -> u64 {
        let (a, d) = (&self.attackers[i], &self.defender_against[i]);
        let dice = crate::attack::total_dice(a, d) as u32 + a.keywords.lucky + d.keywords.lucky;
        attack_work(dice).saturating_add(crate::policy::lucky_work(a, d, &self.policy))
    }

    /// An upper bound on the plan's work, counted before its first step:
    /// for each step, the most distinct situations it can start from (the
    /// product, over what a situation holds, of how many values each can
    /// have by then: the defender's counters, each attacker's counters
    /// taken back, Stun taken and Focus, whether it has attacked) times the
    /// work of one attack.
    pub(crate) fn estimate_work(&self) -> u64 {
        let n = self.attackers.len();
        let remaining = self.defender.remaining_health().unwrap_or(u32::MAX) as u64;
        // The most each attack can do to the defender, and back to its
        // attacker (the defender's Retaliate dice, Riposte and Avenge, the
        // attacker's damage to itself, and what a Deflect sends back, at
        // most the attack's damage).
        let bound: Vec<u64> = (0..n)
            .map(|i| {
                crate::attack::Fight::duel(&self.attackers[i], &self.defender_against[i])
                    .damage_bound()
            })
            .collect();
        let back_bound: Vec<u64> = (0..n)
            .map(|i| {
                let (a, d) = (
                    &self.attackers[i].keywords,
                    &self.defender_against[i].keywords,
                );
                let deflect = d.deflect > 0 || !d.paid_deflects.is_empty();
                let own: u64 = a.self_damage.iter().map(|s| s.0 as u64).sum::<u64>()
                    + a.boosts
                        .iter()
                        .filter_map(|b| b.mine.self_damage.map(|s| s.0 as u64))
                        .sum::<u64>();
                self.defender_against[i].retaliate_dice() as u64
                    + d.riposte as u64
                    + d.avenge as u64
                    + a.backfire as u64
                    + own
                    + a.consolation.map_or(0, |c| c.0 as u64)
                    + if deflect { bound[i] } else { 0 }
            })
            .collect();
        let mut dealt = 0u64;
        let mut back = vec![0u64; n];
        let mut attacks = vec![0u64; n];
        let mut total = 0u64;
        for &i in &self.steps {
            let mut situations = dealt.min(remaining) + 1;
            for j in 0..n {
                let a = &self.attackers[j];
                let hp = a.remaining_health().map_or(u64::MAX, |h| h as u64);
                situations = situations.saturating_mul(back[j].min(hp) + 1);
                if self.defender_against[j].keywords.stun > 0 {
                    situations = situations.saturating_mul(attacks[j] + 1);
                }
                if a.keywords.focus > 0 && attacks[j] > 0 {
                    situations = situations.saturating_mul(2);
                }
                if a.keywords.tenacity > 0 && attacks[j] > 0 {
                    situations = situations.saturating_mul(2);
                }
            }
            let situations = situations.min(MAX_PLAN_STATES as u64);
            total = total.saturating_add(situations.saturating_mul(self.attack_cost(i)));
            // Tenacity may make the attack twice.
            let times = if self.attackers[i].keywords.tenacity > 0 {
                2
            } else {
                1
            };
            dealt = dealt.saturating_add(bound[i] * times);
            back[i] = back[i].saturating_add(back_bound[i] * times);
            attacks[i] += 1;
        }
        total
    }

    /// Solves the plan exactly. Its work is bounded before the first step
    /// (`Self::estimate_work`), and again as it goes.
    pub fn solve(&self) -> Result<PlanReport> {
        // At least one situation per step: a plan whose attacks alone pass
        // the limit is refused at once; so is one whose bound passes the
        // looser one.
        let floor = self
            .steps
            .iter()
            .map(|&i| self.attack_cost(i))
            .fold(0u64, u64::saturating_add);
        if floor > MAX_GAME_WORK {
            return Err(Error::limit(format!(
                "plan: at least {floor} units of work (steps x ((dice + 1)^2 + Lucky's choices)); a plan may take {MAX_GAME_WORK}: fewer steps, dice or Lucky"
            )));
        }
        let estimate = self.estimate_work();
        if estimate > MAX_PLAN_ESTIMATE {
            return Err(Error::limit(format!(
                "plan: up to {estimate} units of work (situations x ((dice + 1)^2 + Lucky's choices)); a plan may take {MAX_PLAN_ESTIMATE}: fewer steps, attackers, dice or Lucky"
            )));
        }
        let mut law: Joint<State, Num> = Joint::point(State {
            defender: 0,
            attackers: vec![(0, 0, 0); self.attackers.len()],
            attacked: vec![false; self.attackers.len()],
        });
        let mut steps = Vec::new();
        let mut before = BigRational::from_integer(0.into());
        let mut work = 0u64;
        let start = std::time::Instant::now();
        for &i in &self.steps {
            // Each distinct state is solved once.
            let mut memo: HashMap<State, Joint<State, Num>> = HashMap::new();
            let (a, d) = (&self.attackers[i], &self.defender_against[i]);
            let dice = crate::attack::total_dice(a, d) as u32 + a.keywords.lucky + d.keywords.lucky;
            let too_big = |what: String| {
                Error::limit(format!(
                    "plan: {what} by step {}: beyond what one plan may take (fewer steps, attackers, or dice)",
                    steps.len() + 1
                ))
            };
            let mut next_len = 0usize;
            let cost = self.attack_cost(i);
            for (s, _) in law.entries() {
                crate::cancel::check()?;
                if !memo.contains_key(s) {
                    work = work.saturating_add(cost);
                    if work > MAX_GAME_WORK {
                        return Err(too_big(format!(
                            "{} distinct situations take more than {MAX_GAME_WORK} units of work (situations x (dice + 1)^2)",
                            law.len()
                        )));
                    }
                    if start.elapsed() > PLAN_TIME_LIMIT {
                        return Err(too_big(format!(
                            "more than {} s",
                            PLAN_TIME_LIMIT.as_secs()
                        )));
                    }
                    let next = self.step(s, i)?;
                    next_len = next_len.saturating_add(next.len());
                    memo.insert(s.clone(), next);
                }
            }
            // The next law: its states and the size of its weights (each
            // step multiplies the denominator by 6 per die).
            let entry = crate::dist::Weight::to_big(law.denom()).bits() as usize / 8
                + 3 * (dice as usize + 1)
                + 64;
            let bytes = entry.saturating_mul(next_len);
            if next_len > MAX_PLAN_STATES * 64 || bytes > MAX_PLAN_BYTES {
                return Err(too_big(format!(
                    "{next_len} outcomes of {} situations (about {} MB of exact weights)",
                    law.len(),
                    bytes / 1_000_000
                )));
            }
            law = law.bind(|s| memo[s].clone());
            if law.len() > MAX_PLAN_STATES {
                return Err(too_big(format!(
                    "{} distinct situations (the limit is {MAX_PLAN_STATES})",
                    law.len()
                )));
            }
            let total = law.marginal(|s| s.defender as i64);
            let mean = total.mean();
            steps.push(StepReport {
                attacker: self.attackers[i].name.clone(),
                defender_discarded: law.prob(|s| self.defender_gone(s)),
                damage: &mean - &before,
                total_so_far: total,
            });
            before = mean;
        }
        let n = self.attackers.len();
        Ok(PlanReport {
            plan: self.clone(),
            total_damage: law.marginal(|s| s.defender as i64),
            taken_back: (0..n)
                .map(|i| law.marginal(|s| s.attackers[i].0 as i64))
                .collect(),
            total_taken_back: law.marginal(|s| s.attackers.iter().map(|a| a.0 as i64).sum()),
            attacker_discarded: (0..n)
                .map(|i| law.prob(|s| self.attacker_gone(s, i)))
                .collect(),
            steps,
        })
    }
}

impl PlanReport {
    /// The typed result: `defender_discarded_by_step` (P(discarded by the
    /// end of step k), k from 1), per-step details, the law of the total
    /// damage, and the damage taken back, every probability a fraction.
    pub fn json(&self) -> impl serde::Serialize + Distributions + use<'_> {
        let attackers = &self.plan.attackers;
        PlanJson {
            defender: self.plan.defender.name.clone(),
            defender_discarded_by_step: self
                .steps
                .iter()
                .map(|s| Fraction(s.defender_discarded.clone()))
                .collect(),
            steps: self
                .steps
                .iter()
                .enumerate()
                .map(|(k, s)| StepJson {
                    step: k + 1,
                    attacker: s.attacker.clone(),
                    defender_discarded: Fraction(s.defender_discarded.clone()),
                    expected_damage: Fraction(s.damage.clone()),
                })
                .collect(),
            total_damage: DistReport::of(&self.total_damage),
            damage_taken_back: DistReport::of(&self.total_taken_back),
            damage_taken_back_by_unit: attackers
                .iter()
                .zip(&self.taken_back)
                .map(|(a, d)| (a.name.clone(), DistReport::of(d)))
                .collect(),
            attacker_discarded: attackers
                .iter()
                .zip(&self.attacker_discarded)
                .map(|(a, p)| (a.name.clone(), Fraction(p.clone())))
                .collect(),
        }
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Plan against {}", self.plan.defender.name);
        let _ = writeln!(
            out,
            "{:>4}  {:<24} {:>14} {:>24}",
            "step", "attacker", "E[damage]", "P(defender discarded)"
        );
        for (k, s) in self.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>4}  {:<24} {:>14.4} {:>15} = {:>6.2}%",
                k + 1,
                s.attacker,
                to_f64(&s.damage),
                fraction_string(&s.defender_discarded),
                100.0 * to_f64(&s.defender_discarded)
            );
        }
        let total = self.total_damage.mean();
        let back = self.total_taken_back.mean();
        let _ = writeln!(
            out,
            "expected total damage: {} = {:.4}",
            fraction_string(&total),
            to_f64(&total)
        );
        let _ = writeln!(
            out,
            "expected damage taken back: {} = {:.4}",
            fraction_string(&back),
            to_f64(&back)
        );
        for (i, a) in self.plan.attackers.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}: {:.4} taken back, P(discarded) = {:.2}%",
                a.name,
                to_f64(&self.taken_back[i].mean()),
                100.0 * to_f64(&self.attacker_discarded[i])
            );
        }
        for (u, t) in &self.plan.ignored {
            let _ = writeln!(out, "ignored: {u}: '{t}'");
        }
        out
    }
}

impl FromFile for Plan {
    type File = PlanFile;
    const KIND: &'static str = "plan";

    fn parse(text: &str, file: &str) -> Result<PlanFile> {
        PlanFile::parse(text, file)
    }

    fn db(file: &PlanFile) -> Option<&DbPaths> {
        file.db.as_ref()
    }

    fn from_parts<C: CardUnits>(file: PlanFile, cards: &C) -> Result<Plan> {
        Plan::from_parts(file, cards)
    }
}

/// Refuses what a plan doesn't model: what Absorb, Persuade and Surge do
/// after the attack, and a Stun, Focus or Tenacity an option before the
/// roll grants (the plan reads the units' own).
fn refuse_unmodelled(attackers: &[Unit], defender_against: &[Unit]) -> Result<()> {
    for (a, d) in attackers.iter().zip(defender_against) {
        // What each may have in its attack, its options taken: an
        // option's Stun, Focus or Tenacity is not what the plan reads.
        let (ak, dk) = (a.keywords.with_options(), d.keywords.with_options());
        for (on, who, what) in [
            (
                dk.has(KeywordKind::Persuade),
                &d.name,
                "Persuade (the attacker's power lost for its next attack)",
            ),
            (
                ak.has(KeywordKind::Absorb),
                &a.name,
                "Absorb (the power it gains for its next attack)",
            ),
            (
                ak.surge > 0,
                &a.name,
                "Surge (power it gives until the end of the turn)",
            ),
            (
                dk.stun > d.keywords.stun,
                &d.name,
                "Stun from an option before the roll (the power its attacker loses)",
            ),
            (
                ak.focus > a.keywords.focus || ak.tenacity > a.keywords.tenacity,
                &a.name,
                "Focus or Tenacity from an option before the roll",
            ),
        ] {
            if on {
                return Err(Error::not_modelled(format!(
                    "plan: {}: {what} is not modelled in battle plans",
                    quote(who)
                )));
            }
        }
    }
    Ok(())
}

impl Distributions for PlanJson {
    fn distributions(&self) -> Vec<(String, &DistReport)> {
        let mut out = vec![
            ("total damage".to_string(), &self.total_damage),
            ("damage taken back".to_string(), &self.damage_taken_back),
        ];
        out.extend(
            self.damage_taken_back_by_unit
                .iter()
                .map(|(name, d)| (format!("damage taken back by {name}"), d)),
        );
        out
    }
}
