//! The native half of the `swtcg_odds` Python package: thin bindings of
//! `swtcg-engine` and `swtcg-cards` (never the command line). Python's
//! `swtcg_odds/__init__.py` gives them their keyword signatures; this file
//! turns typed results into Python objects lazily (a result converts its
//! fractions only when asked), releases the GIL while solving, and turns
//! typed errors into `swtcg_odds.Error` subclasses that carry their kind
//! and origin.

use ndarray::{Array1, Array2};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;
use swtcg_cards::cards::CardDb;
use swtcg_cards::cards::stack::Switches;
use swtcg_cards::matchups::{Options, SortBy, duel, rank, stream};
use swtcg_engine::attack::{ATTACKER, Side};
use swtcg_engine::dist::{Dist, Num, Weight, reduce};
use swtcg_engine::error::{ErrorKind, Origin};
use swtcg_engine::plan::{Plan, PlanReport};
use swtcg_engine::policy::Policy;
use swtcg_engine::request::{AttackAnswer, AttackRequest, Words};
use swtcg_engine::request::{Param, ValueKind};
use swtcg_engine::sample::{Model, Quantity, Variant};
use swtcg_engine::scenario::{Scenario, ScenarioReport};
use swtcg_engine::table::Grid;

mod fractions;
use fractions::{Fractions, GcPause};

/// A typed error as a Python exception of its class, with `kind` and
/// `origin` attributes.
fn py_err(py: Python<'_>, e: swtcg_engine::error::Error) -> PyErr {
    let kind = e.kind();
    let origin = e.origin().clone();
    // A parameter is named as Python names it (snake_case, with its value).
    let message = match &origin {
        Origin::Param { param, value } => format!(
            "{}{}: {}",
            param.replace('-', "_"),
            value.as_ref().map_or(String::new(), |v| format!("={v}")),
            e.words()
        ),
        _ => e.to_string(),
    };
    // The classes live in `swtcg_odds._errors` (Python, for their second
    // bases: ValueError, OSError).
    let class = match (&origin, kind) {
        (Origin::Row { .. } | Origin::Path { .. } | Origin::Card { .. }, ErrorKind::Io) => {
            "CardFileReadError"
        }
        (Origin::Row { .. } | Origin::Path { .. } | Origin::Card { .. }, _) => "CardFileError",
        (Origin::Param { .. }, _) => "ParameterError",
        (
            _,
            ErrorKind::Limit | ErrorKind::Refused | ErrorKind::Cancelled | ErrorKind::NotModelled,
        ) => "RefusedError",
        (
            _,
            ErrorKind::Syntax
            | ErrorKind::Unknown
            | ErrorKind::Missing
            | ErrorKind::Conflict
            | ErrorKind::Range,
        ) => "ParameterError",
        _ => "Error",
    };
    let err = error_class(py, class).map_or_else(|e| e, |cls| PyErr::from_type(cls, message));
    let value = err.value(py);
    let kind_word = serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let _ = value.setattr("kind", kind_word);
    let _ = json_to_py(py, &serde_json::to_string(&origin).unwrap_or_default())
        .and_then(|o| value.setattr("origin", o));
    err
}

type PyRes<T> = PyResult<T>;

/// The exception class `name` of `swtcg_odds._errors`.
fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, pyo3::types::PyType>> {
    Ok(py
        .import("swtcg_odds._errors")?
        .getattr(name)?
        .cast_into::<pyo3::types::PyType>()?)
}

/// Runs `f` without the GIL, its typed error turned into a Python one.
/// The engine's loops ask every 50 ms whether a signal came (Ctrl-C):
/// then the solve stops and its exception (`KeyboardInterrupt`) is raised.
fn solve<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> swtcg_engine::error::Result<T> + Send,
) -> PyRes<T> {
    let result = py.detach(|| swtcg_engine::cancel::with_poll(signalled, f));
    // A signal's exception wins, whatever the solve made of the stop.
    if let Some(raised) = PyErr::take(py) {
        return Err(raised);
    }
    result.map_err(|e| py_err(py, e))
}

/// Whether a signal's handler raised (`KeyboardInterrupt` on Ctrl-C): its
/// exception is kept pending for [`solve`] to raise. Called without the
/// GIL, from the engine's loops.
fn signalled() -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            e.restore(py);
            true
        }
    })
}

/// JSON text as Python objects.
fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyRes<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// The exact law of a distribution: its outcomes with non-zero
/// probability, in order, each weight over one denominator as the engine
/// computed them (a probability is reduced only when it is shown), and its
/// mean.
#[derive(Clone, Debug)]
struct Law {
    weights: Vec<(i64, Num)>,
    denom: Num,
    mean: BigRational,
}

impl Law {
    fn of<W: Weight>(d: &Dist<W>) -> Law {
        Law {
            weights: d
                .iter()
                .filter(|(_, w)| !w.is_zero())
                .map(|(k, w)| (k, w.to_num()))
                .collect(),
            denom: d.denom().to_num(),
            mean: mean(d),
        }
    }

    /// P(X = k) for each k, reduced.
    fn pmf(&self) -> impl DoubleEndedIterator<Item = (i64, BigRational)> + '_ {
        self.weights
            .iter()
            .map(|(k, w)| (*k, big_ratio(w, &self.denom)))
    }
}

/// The mean of `d`: in machine words, reduced by [`reduce`], while the
/// sum of its outcomes times their weights fits (no negative outcome);
/// else as the engine computes it.
fn mean<W: Weight>(d: &Dist<W>) -> BigRational {
    let small = || -> Option<BigRational> {
        let Num::Small(denom) = d.denom().to_num() else {
            return None;
        };
        let mut sum = 0u128;
        for (k, w) in d.iter() {
            let Num::Small(w) = w.to_num() else {
                return None;
            };
            sum = sum.checked_add(w.checked_mul(u128::try_from(k).ok()?)?)?;
        }
        let (n, d) = reduce(sum, denom);
        Some(BigRational::new_raw(BigInt::from(n), BigInt::from(d)))
    };
    small().unwrap_or_else(|| d.mean())
}

/// `n / d` as a reduced `BigRational`.
fn big_ratio(n: &Num, d: &Num) -> BigRational {
    BigRational::new(BigInt::from(n.to_big()), BigInt::from(d.to_big()))
}

/// The greatest common divisor, in machine words while they fit.
fn gcd(a: &Num, b: &Num) -> Num {
    match (a, b) {
        (Num::Small(a), Num::Small(b)) => Num::Small(num_integer::Integer::gcd(a, b)),
        _ => Num::big(num_integer::Integer::gcd(&a.to_big(), &b.to_big())),
    }
}

/// `a / b`, exact (`b` divides `a`).
fn div_exact(a: &Num, b: &Num) -> Num {
    match (a, b) {
        (Num::Small(a), Num::Small(b)) => Num::Small(a / b),
        _ => Num::big(a.to_big() / b.to_big()),
    }
}

/// A Fraction, or None.
fn optional_fraction<'py>(
    py: Python<'py>,
    r: Option<&BigRational>,
) -> PyRes<Option<Bound<'py, PyAny>>> {
    r.map(|r| Fractions::new(py)?.of(r)).transpose()
}

/// A distribution of whole numbers with exact probabilities.
///
/// `.pmf`, `.cdf` (P(X <= k)) and `.tail` (P(X >= k)) are dicts of int to
/// `fractions.Fraction`; `.mean` is a Fraction; `float(d)` is the mean as
/// a float; `.pmf_array()` is a numpy array indexed by outcome.
#[pyclass(frozen, module = "swtcg_odds")]
#[derive(Clone)]
struct Distribution {
    law: Law,
}

impl Distribution {
    /// `.pmf`, its Fractions made by `f` (which a table's rows share).
    fn pmf_with<'py>(&self, f: &mut Fractions<'py>) -> PyRes<Bound<'py, PyDict>> {
        let d = PyDict::new(f.py);
        for (k, w) in &self.law.weights {
            d.set_item(k, f.ratio(w, &self.law.denom)?)?;
        }
        Ok(d)
    }
}

#[pymethods]
impl Distribution {
    /// P(X = k) for every k with non-zero probability.
    #[getter]
    fn pmf<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.pmf_with(&mut Fractions::new(py)?)
    }

    /// P(X = k) as integers over one denominator: `(weights, denominator)`,
    /// `weights[i]` the numerator of the i-th outcome of `.pmf`, in order;
    /// the least such denominator.
    fn pmf_weights(&self) -> (Vec<(i64, BigInt)>, BigInt) {
        let law = &self.law;
        let g = law
            .weights
            .iter()
            .fold(law.denom.clone(), |g, (_, w)| gcd(&g, w));
        let int = |n: &Num| BigInt::from(div_exact(n, &g).to_big());
        let weights = law.weights.iter().map(|(k, w)| (*k, int(w))).collect();
        (weights, int(&law.denom))
    }

    /// P(X <= k) for the same k.
    #[getter]
    fn cdf<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let mut f = Fractions::new(py)?;
        let mut acc = Num::zero();
        for (k, w) in &self.law.weights {
            acc.add_assign_ref(w);
            d.set_item(k, f.ratio(&acc, &self.law.denom)?)?;
        }
        Ok(d)
    }

    /// P(X >= k) for the same k.
    #[getter]
    fn tail<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let mut acc = Num::zero();
        let mut out = Vec::with_capacity(self.law.weights.len());
        for (k, w) in self.law.weights.iter().rev() {
            acc.add_assign_ref(w);
            out.push((*k, acc.clone()));
        }
        let mut f = Fractions::new(py)?;
        for (k, w) in out.into_iter().rev() {
            d.set_item(k, f.ratio(&w, &self.law.denom)?)?;
        }
        Ok(d)
    }

    /// The expectation, exactly.
    #[getter]
    fn mean<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        Fractions::new(py)?.of(&self.law.mean)
    }

    /// The expectation as a float.
    fn __float__(&self) -> f64 {
        self.law.mean.to_f64().unwrap_or(f64::NAN)
    }

    /// P(X = k) as a numpy array of floats, index k from 0 to the largest
    /// outcome.
    fn pmf_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let n = self
            .law
            .weights
            .last()
            .map_or(0, |(k, _)| (*k).max(0) as usize + 1);
        let mut a = Array1::<f64>::zeros(n);
        for (k, p) in self.law.pmf() {
            if k >= 0 {
                a[k as usize] = p.to_f64().unwrap_or(f64::NAN);
            }
        }
        a.into_pyarray(py)
    }

    /// Outcomes with non-zero probability.
    fn __len__(&self) -> usize {
        self.law.weights.len()
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self
            .law
            .pmf()
            .take(8)
            .map(|(k, p)| format!("{k}: {p}"))
            .collect();
        format!(
            "Distribution(mean={} ≈ {:.4}, pmf={{{}{}}})",
            self.law.mean,
            self.__float__(),
            shown.join(", "),
            if self.law.weights.len() > 8 {
                ", ..."
            } else {
                ""
            }
        )
    }
}

/// One side's damage and P(discarded).
#[pyclass(frozen, module = "swtcg_odds")]
#[derive(Clone)]
struct SideResult {
    damage: Distribution,
    discarded: Option<BigRational>,
}

#[pymethods]
impl SideResult {
    /// The law of the damage placed on this side's unit.
    #[getter]
    fn damage(&self) -> Distribution {
        self.damage.clone()
    }
    #[getter]
    fn pmf<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.damage.pmf(py)
    }
    /// P(damage = k) as integers over one denominator.
    fn pmf_weights(&self) -> (Vec<(i64, BigInt)>, BigInt) {
        self.damage.pmf_weights()
    }
    #[getter]
    fn cdf<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.damage.cdf(py)
    }
    #[getter]
    fn tail<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.damage.tail(py)
    }
    #[getter]
    fn mean<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        self.damage.mean(py)
    }
    /// P(discarded), when its health is known.
    #[getter]
    fn p_discard<'py>(&self, py: Python<'py>) -> PyRes<Option<Bound<'py, PyAny>>> {
        optional_fraction(py, self.discarded.as_ref())
    }
    fn __float__(&self) -> f64 {
        self.damage.__float__()
    }
    fn pmf_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.damage.pmf_array(py)
    }
    fn __repr__(&self) -> String {
        format!(
            "Side(mean={} ≈ {:.4}, p_discard={})",
            self.damage.law.mean,
            self.__float__(),
            self.discarded
                .as_ref()
                .map_or("None".to_string(), |p| p.to_string())
        )
    }
}

/// The result of an attack (or a scenario): the damage to the defender
/// (`.pmf`, `.cdf`, `.tail`, `.mean`, `.p_discard`), `.attacker` the same
/// way, `.hits`, `.used`, `.to_dict()` (the keys of `attack --json`) and
/// `.joint_array()`. Fractions are made when asked for.
#[pyclass(frozen, module = "swtcg_odds")]
struct AttackResult {
    answer: AttackAnswer,
    /// The two sides' laws, made once when first asked for (defender,
    /// attacker).
    sides: [std::sync::OnceLock<SideResult>; 2],
}

impl AttackResult {
    fn new(answer: AttackAnswer) -> AttackResult {
        AttackResult {
            answer,
            sides: Default::default(),
        }
    }

    fn side(&self, defender: bool) -> &SideResult {
        self.sides[usize::from(!defender)].get_or_init(|| self.make_side(defender))
    }

    fn make_side(&self, defender: bool) -> SideResult {
        match &self.answer {
            AttackAnswer::Static { outcome, .. } => {
                if defender {
                    SideResult {
                        damage: Distribution {
                            law: Law::of(&outcome.defender_damage),
                        },
                        discarded: outcome.defender_discarded(),
                    }
                } else {
                    SideResult {
                        damage: Distribution {
                            law: Law::of(&outcome.attacker_damage),
                        },
                        discarded: outcome.attacker_discarded(),
                    }
                }
            }
            AttackAnswer::Game(r) => {
                let i = if defender {
                    r.outcome.declared.defending
                } else {
                    ATTACKER
                };
                let health = r.units()[i].remaining_health();
                SideResult {
                    damage: Distribution {
                        law: Law::of(&r.damage(i)),
                    },
                    discarded: health.map(|_| r.discarded(i)),
                }
            }
        }
    }
}

#[pymethods]
impl AttackResult {
    /// The defender's side: its damage and P(discarded).
    #[getter]
    fn defender(&self) -> SideResult {
        self.side(true).clone()
    }
    /// The attacker's side.
    #[getter]
    fn attacker(&self) -> SideResult {
        self.side(false).clone()
    }
    /// P(damage to the defender = k).
    #[getter]
    fn pmf<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.side(true).damage.pmf(py)
    }
    /// P(damage to the defender = k) as integers over one denominator:
    /// `([(k, weight), ...], denominator)`.
    fn pmf_weights(&self) -> (Vec<(i64, BigInt)>, BigInt) {
        self.side(true).damage.pmf_weights()
    }
    /// P(damage to the defender <= k).
    #[getter]
    fn cdf<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.side(true).damage.cdf(py)
    }
    /// P(damage to the defender >= k).
    #[getter]
    fn tail<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        self.side(true).damage.tail(py)
    }
    /// Expected damage to the defender.
    #[getter]
    fn mean<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        self.side(true).damage.mean(py)
    }
    /// P(the defender is discarded), when its health is given.
    #[getter]
    fn p_discard<'py>(&self, py: Python<'py>) -> PyRes<Option<Bound<'py, PyAny>>> {
        optional_fraction(py, self.side(true).discarded.as_ref())
    }
    /// The law of the hits of the final roll.
    #[getter]
    fn hits(&self) -> Distribution {
        let law = match &self.answer {
            AttackAnswer::Static { outcome, .. } => Law::of(&outcome.hits),
            AttackAnswer::Game(r) => Law::of(&r.hits()),
        };
        Distribution { law }
    }
    /// How often each optional ability was used (`"unit: ability"`).
    #[getter]
    fn used<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let AttackAnswer::Game(r) = &self.answer {
            for (k, p) in r.used() {
                d.set_item(k, p)?;
            }
        }
        Ok(d)
    }
    /// The damage to each unit by name (a scenario's units).
    #[getter]
    fn damage_by_unit<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let AttackAnswer::Game(r) = &self.answer {
            for (i, u) in r.units().iter().enumerate() {
                d.set_item(
                    u.name.clone(),
                    Distribution {
                        law: Law::of(&r.damage(i)),
                    },
                )?;
            }
        }
        Ok(d)
    }
    /// The result as `attack --json` prints it (fractions as "n/d").
    fn to_dict<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        json_to_py(py, &self.answer.json_text())
    }
    /// The joint law of (damage to the defender, damage to the attacker):
    /// a 2-D numpy array, `[i, j]` = P(i on the defender and j on the
    /// attacker).
    fn joint_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let exact: Array2<BigRational> = match &self.answer {
            AttackAnswer::Static { outcome, .. } => outcome.joint_damage(),
            AttackAnswer::Game(r) => r.joint_damage(),
        };
        exact
            .mapv(|p| p.to_f64().unwrap_or(f64::NAN))
            .into_pyarray(py)
    }
    /// Expected damage to the defender, as a float.
    fn __float__(&self) -> f64 {
        self.side(true).damage.__float__()
    }
    /// P(damage to the defender = k) as a numpy array, index k.
    fn pmf_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.side(true).damage.pmf_array(py)
    }
    fn __repr__(&self) -> String {
        let d = self.side(true);
        let a = self.side(false);
        format!(
            "AttackResult(defender: mean {} ≈ {:.4}{}; attacker: mean {} ≈ {:.4})",
            d.damage.law.mean,
            d.__float__(),
            d.discarded
                .as_ref()
                .map_or(String::new(), |p| format!(", P(discard) {p}")),
            a.damage.law.mean,
            a.__float__()
        )
    }
}

/// The Python value of a parameter (a switch `true`/`false`).
fn attack_request(pairs: Vec<(String, String)>) -> swtcg_engine::error::Result<AttackRequest> {
    AttackRequest::from_pairs(pairs)
}

/// Solves one attack from its parameters (names as the command line's
/// flags without `--`, values as text).
#[pyfunction]
fn attack(py: Python<'_>, pairs: Vec<(String, String)>) -> PyRes<AttackResult> {
    let answer = solve(py, move || attack_request(pairs)?.solve())?;
    Ok(AttackResult::new(answer))
}

/// For the package's benchmark (`python/benches/bench.py`): the mean seconds of
/// the Rust call alone (parse the pairs into a request, solve it), over
/// `n` runs, so that the Python layer's overhead can be told apart.
#[pyfunction]
fn _rust_attack_seconds(py: Python<'_>, pairs: Vec<(String, String)>, n: u32) -> PyRes<f64> {
    let n = n.max(1);
    solve(py, move || {
        let start = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(attack_request(pairs.clone())?.solve()?);
        }
        Ok(start.elapsed().as_secs_f64() / f64::from(n))
    })
}

/// The parameters of an attack: (name, kind, side, doc) for each unit
/// parameter, then the choices.
#[pyfunction]
fn params() -> Vec<(String, &'static str, &'static str, &'static str)> {
    let mut out: Vec<(String, &'static str, &'static str, &'static str)> = Param::ALL
        .iter()
        .map(|p| {
            (
                p.name().to_string(),
                match p.kind() {
                    ValueKind::Count => "count",
                    ValueKind::Signed => "signed",
                    ValueKind::Switch => "switch",
                    ValueKind::Health => "health",
                },
                match p.side() {
                    Side::Attacking => "attacker",
                    Side::Defending => "defender",
                },
                p.doc(),
            )
        })
        .collect();
    for c in swtcg_engine::request::CHOICE_PARAMS {
        out.push((c.name.to_string(), c.kind, "choice", c.doc));
    }
    out
}

/// Each unit parameter's other name, with whose it is spelled out, and
/// the name it stands for: `("defender-armor", "armor")`, ...
/// ([`Param::alias`]).
#[pyfunction]
fn aliases() -> Vec<(&'static str, &'static str)> {
    Param::ALL
        .iter()
        .filter_map(|p| p.alias().map(|a| (a, p.name())))
        .collect()
}

/// A scenario file's JSON, solved (units `{"card": ...}` from `cards`).
#[pyfunction]
#[pyo3(signature = (text, cards=None))]
fn scenario(py: Python<'_>, text: String, cards: Option<&Cards>) -> PyRes<AttackResult> {
    let db = cards.map(|c| &*c.db);
    let report = solve(py, move || {
        swtcg_cards::cards::files::from_json_in_db::<Scenario>(&text, db)?.solve()
    })?;
    Ok(AttackResult::new(AttackAnswer::Game(Box::new(report))))
}

/// The result of a battle plan.
#[pyclass(frozen, module = "swtcg_odds")]
struct PlanResult {
    report: PlanReport,
}

#[pymethods]
impl PlanResult {
    /// The law of all the counters placed on the defender.
    #[getter]
    fn total(&self) -> Distribution {
        Distribution {
            law: Law::of(&self.report.total_damage),
        }
    }
    /// The law of the counters the attackers took back.
    #[getter]
    fn damage_taken_back(&self) -> Distribution {
        Distribution {
            law: Law::of(&self.report.total_taken_back),
        }
    }
    /// P(the defender is discarded by the end of each step).
    #[getter]
    fn p_discard_by_step(&self) -> Vec<BigRational> {
        self.report
            .steps
            .iter()
            .map(|s| s.defender_discarded.clone())
            .collect()
    }
    /// The result as `plan --json` prints it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        json_to_py(
            py,
            &serde_json::to_string(&self.report.json()).unwrap_or_default(),
        )
    }
    fn __repr__(&self) -> String {
        let t = &self.report.total_damage;
        format!(
            "PlanResult(total damage: mean {} ≈ {:.4}, {} steps)",
            t.mean(),
            t.mean().to_f64().unwrap_or(f64::NAN),
            self.report.steps.len()
        )
    }
}

/// A plan file's JSON, solved.
#[pyfunction]
#[pyo3(signature = (text, cards=None))]
fn plan(py: Python<'_>, text: String, cards: Option<&Cards>) -> PyRes<PlanResult> {
    let db = cards.map(|c| &*c.db);
    let report = solve(py, move || {
        swtcg_cards::cards::files::from_json_in_db::<Plan>(&text, db)?.solve()
    })?;
    Ok(PlanResult { report })
}

/// A battle file's JSON, solved: the answer as `battle --json` writes it
/// (with every state's choice when `policy`).
#[pyfunction]
#[pyo3(signature = (text, cards=None, policy=false))]
fn battle(py: Python<'_>, text: String, cards: Option<&Cards>, policy: bool) -> PyRes<String> {
    let db = cards.map(|c| &*c.db);
    let report = solve(py, move || {
        swtcg_cards::cards::files::from_json_in_db::<swtcg_engine::battle::Battle>(&text, db)?
            .solve()
    })?;
    Ok(swtcg_engine::report::to_json_text(&report.json(policy)))
}

/// The grid of a table: each parameter (its flag's name) with its values.
fn grid_of(axes: Vec<(String, Vec<i64>)>) -> swtcg_engine::error::Result<Grid> {
    let mut grid = Grid::new();
    for (name, values) in axes {
        let p = Param::from_name(&name).ok_or_else(|| {
            swtcg_engine::error::Error::new(
                swtcg_engine::error::ErrorKind::Unknown,
                format!("'{name}' is not a parameter of a table"),
            )
            .at_param(&name, None)
        })?;
        grid = grid.with(p, values);
    }
    Ok(grid)
}

/// A table solved attack by attack, each row's cells as `table`'s are
/// (the pmf too, when asked for): `base` the parameters every row shares
/// (the choices too), `axes` each varying parameter with its values. The
/// rows are in the native table's order, and the whole table is bounded
/// before any row is solved. The rows' Fractions share their ints.
#[pyfunction]
fn table_attacks<'py>(
    py: Python<'py>,
    base: Vec<(String, String)>,
    axes: Vec<(String, Vec<i64>)>,
    pmfs: bool,
) -> PyRes<Vec<Cells<'py>>> {
    let results = solve(py, move || {
        let requests = attack_request(base)?.over(&grid_of(axes)?)?;
        solve_all(&requests)
    })?;
    let _paused = GcPause::new(py)?;
    let mut f = Fractions::for_many(py)?;
    results
        .iter()
        .map(|r| {
            let side = r.side(true);
            let pmf = if pmfs {
                Some(side.damage.pmf_with(&mut f)?)
            } else {
                None
            };
            cells(&f, &side.damage.law.mean, side.discarded.as_ref(), pmf)
        })
        .collect()
}

/// Solves every request on every core, each with its defender's law made
/// (what a table row reads). Rows are handed out one at a time, and this
/// thread takes its share: when its poll says stop (Ctrl-C reaches only
/// the main thread), no more rows are handed out, and the others finish
/// the row they hold.
fn solve_all(requests: &[AttackRequest]) -> swtcg_engine::error::Result<Vec<AttackResult>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let stopped = AtomicUsize::new(0);
    let work = |poll: bool| -> swtcg_engine::error::Result<Vec<(usize, AttackResult)>> {
        let mut done = Vec::new();
        loop {
            if poll && swtcg_engine::cancel::expired() {
                stopped.store(1, Ordering::Relaxed);
                return Err(swtcg_engine::error::Error::cancelled());
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= requests.len() || stopped.load(Ordering::Relaxed) == 1 {
                return Ok(done);
            }
            let result = AttackResult::new(requests[i].solve().inspect_err(|_| {
                stopped.store(1, Ordering::Relaxed);
            })?);
            result.side(true);
            done.push((i, result));
        }
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(requests.len().div_ceil(16))
        .max(1);
    let parts: Vec<_> = std::thread::scope(|s| {
        let workers: Vec<_> = (1..threads).map(|_| s.spawn(|| work(false))).collect();
        let mine = work(true);
        std::iter::once(mine)
            .chain(workers.into_iter().map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(swtcg_engine::error::Error::new(
                        swtcg_engine::error::ErrorKind::Limit,
                        "a table worker failed",
                    ))
                })
            }))
            .collect()
    });
    let mut out: Vec<Option<AttackResult>> = requests.iter().map(|_| None).collect();
    for part in parts {
        for (i, r) in part? {
            out[i] = Some(r);
        }
    }
    // Every row has its result (a part stops early only beside a part's
    // error, returned above); a row missing is an error, never a shorter
    // table.
    out.into_iter().collect::<Option<Vec<_>>>().ok_or_else(|| {
        swtcg_engine::error::Error::new(
            swtcg_engine::error::ErrorKind::Limit,
            "a table row was left unsolved",
        )
    })
}

/// A table row's results as Python values: the mean (a Fraction), the
/// mean as a float, P(discard) and its float (None without health), and
/// the pmf (None unless asked for).
type Cells<'py> = (
    Bound<'py, PyAny>,
    f64,
    Option<Bound<'py, PyAny>>,
    Option<f64>,
    Option<Bound<'py, PyDict>>,
);

/// A row's cells from its exact results (floats as the command line's
/// `mean_f64`, correctly rounded as Python's `float(Fraction)` is).
fn cells<'py>(
    f: &Fractions<'py>,
    mean: &BigRational,
    discard: Option<&BigRational>,
    pmf: Option<Bound<'py, PyDict>>,
) -> PyRes<Cells<'py>> {
    let float = |r: &BigRational| r.to_f64().unwrap_or(f64::NAN);
    Ok((
        f.of(mean)?,
        float(mean),
        discard.map(|p| f.of(p)).transpose()?,
        discard.map(float),
        pmf,
    ))
}

/// A table: each parameter with its values; returns the parameters' names
/// and the rows as (values, mean, mean's float, P(discard) or None, its
/// float or None, None).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn table<'py>(
    py: Python<'py>,
    axes: Vec<(String, Vec<i64>)>,
) -> PyRes<(Vec<String>, Vec<(Vec<i64>, Cells<'py>)>)> {
    let rows = solve(py, move || grid_of(axes)?.rows())?;
    let names = rows
        .first()
        .map(|r| r.values.iter().map(|(p, _)| p.name().to_string()).collect())
        .unwrap_or_default();
    let f = Fractions::new(py)?;
    let rows = rows
        .iter()
        .map(|r| {
            Ok((
                r.values.iter().map(|(_, v)| *v).collect(),
                cells(&f, &r.mean.0, r.p_discard.as_ref().map(|p| &p.0), None)?,
            ))
        })
        .collect::<PyRes<_>>()?;
    Ok((names, rows))
}

/// A check of a simulator's counts against the exact law: `bool(v)` is the
/// verdict, so `assert verify(...)` fails with the verdict as its message.
#[pyclass(frozen, module = "swtcg_odds")]
struct Verification {
    v: swtcg_engine::verify::Verification,
    quantity: String,
}

#[pymethods]
impl Verification {
    /// Pearson's chi-square statistic.
    #[getter]
    fn statistic(&self) -> f64 {
        self.v.pearson.statistic
    }
    /// Its degrees of freedom.
    #[getter]
    fn dof(&self) -> usize {
        self.v.pearson.df
    }
    /// Its p-value.
    #[getter]
    fn p_value(&self) -> f64 {
        self.v.pearson.p_value
    }
    /// The significance level.
    #[getter]
    fn alpha(&self) -> f64 {
        self.v.alpha
    }
    /// Whether the counts are consistent with the exact law at alpha.
    #[getter]
    fn consistent(&self) -> bool {
        self.v.consistent()
    }
    /// The verdict in one line.
    #[getter]
    fn verdict(&self) -> String {
        self.v.verdict()
    }
    /// Outcomes observed that the exact law calls impossible.
    #[getter]
    fn impossible(&self) -> Vec<i64> {
        self.v.impossible.clone()
    }
    /// The outcomes that disagree most: (outcome, observed, expected,
    /// residual), the largest |residual| first.
    #[getter]
    fn worst(&self) -> Vec<(i64, u64, f64, f64)> {
        self.v
            .worst(5)
            .into_iter()
            .map(|r| (r.outcome, r.observed, r.expected, r.residual))
            .collect()
    }
    /// Total variation distance between the counts' frequencies and the law.
    #[getter]
    fn total_variation(&self) -> f64 {
        self.v.total_variation
    }
    /// The result as `verify --json` prints it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        json_to_py(
            py,
            &serde_json::to_string(&self.v.json(&self.quantity)).unwrap_or_default(),
        )
    }
    fn __bool__(&self) -> bool {
        self.v.consistent()
    }
    fn __repr__(&self) -> String {
        format!("Verification({}: {})", self.quantity, self.v.verdict())
    }
}

/// Checks `counts` (outcome, count) against the exact law of the attack.
#[pyfunction]
fn verify(
    py: Python<'_>,
    counts: Vec<(i64, u64)>,
    pairs: Vec<(String, String)>,
    quantity: String,
    alpha: f64,
) -> PyRes<Verification> {
    let q = quantity.clone();
    let v = solve(py, move || {
        let mut map: BTreeMap<i64, u64> = BTreeMap::new();
        for (k, c) in counts {
            *map.entry(k).or_default() += c;
        }
        let exact = attack_request(pairs)?.solve()?.law(&q)?;
        swtcg_engine::verify::check(&exact, &map, alpha)
    })?;
    Ok(Verification { v, quantity })
}

/// Samples `trials` attacks die by die (the crate's independent sampler)
/// and counts `quantity`.
#[pyfunction]
#[pyo3(signature = (pairs, trials, seed, quantity, variant=None))]
fn sample(
    py: Python<'_>,
    pairs: Vec<(String, String)>,
    trials: u64,
    seed: u64,
    quantity: String,
    variant: Option<String>,
) -> PyRes<BTreeMap<i64, u64>> {
    solve(py, move || {
        let q = Quantity::from_word(&quantity).ok_or_else(|| {
            swtcg_engine::error::Error::new(
                swtcg_engine::error::ErrorKind::Unknown,
                format!("quantity '{quantity}': hits, defender_damage or attacker_damage"),
            )
            .at_param("quantity", Some(&quantity))
        })?;
        let variant = match variant {
            Some(w) => Some(Variant::from_word(&w).ok_or_else(|| {
                swtcg_engine::error::Error::new(
                    swtcg_engine::error::ErrorKind::Unknown,
                    format!("variant '{w}': {}", Variant::all_words().join(", ")),
                )
                .at_param("variant", Some(&w))
            })?),
            None => None,
        };
        let req = attack_request(pairs)?;
        let (a, d) = req.units()?;
        let model = Model::for_flags(
            a,
            d,
            &req.policy.policy(),
            req.policy.lucky.is_some(),
            variant,
        )?;
        model.sample_bounded(q, trials, seed)
    })
}

/// A card database: LackeyCCG set files.
#[pyclass(frozen, module = "swtcg_odds")]
struct Cards {
    db: std::sync::Arc<CardDb>,
}

#[pymethods]
impl Cards {
    /// Reads card files and folders.
    #[staticmethod]
    fn load(py: Python<'_>, paths: Vec<String>) -> PyRes<Cards> {
        let db = solve(py, move || CardDb::load(&paths))?;
        Ok(Cards {
            db: std::sync::Arc::new(db),
        })
    }
    /// The cards whose name contains `text` (folded for case and accents),
    /// as dicts.
    fn find<'py>(&self, py: Python<'py>, text: &str) -> PyRes<Bound<'py, PyAny>> {
        let found = self.db.find(text);
        json_to_py(py, &serde_json::to_string(&found).unwrap_or_default())
    }
    /// Unit cards read.
    fn __len__(&self) -> usize {
        self.db.cards.len()
    }
    /// Coverage: rows, units, abilities by class, not understood.
    fn check<'py>(&self, py: Python<'py>) -> PyRes<Bound<'py, PyAny>> {
        json_to_py(
            py,
            &serde_json::to_string(&swtcg_cards::cards::check::check(&self.db)).unwrap_or_default(),
        )
    }
    /// One card (or stack, or pilot) attacking another, solved as
    /// `cards attack` solves it.
    #[pyo3(signature = (attacker, defender, conditions=Vec::new(), arena=None))]
    fn attack(
        &self,
        py: Python<'_>,
        attacker: String,
        defender: String,
        conditions: Vec<String>,
        arena: Option<String>,
    ) -> PyRes<AttackResult> {
        let db = &self.db;
        let report: ScenarioReport = solve(py, move || {
            let arena = match arena {
                Some(w) => Some(
                    <swtcg_engine::unit::Arena as Words>::from_word(&w.to_lowercase()).ok_or_else(
                        || {
                            swtcg_engine::error::Error::new(
                                swtcg_engine::error::ErrorKind::Unknown,
                                format!("arena '{w}': Space, Ground or Character"),
                            )
                            .at_param("arena", Some(&w))
                        },
                    )?,
                ),
                None => None,
            };
            let a = db.piece(&attacker)?;
            let d = db.piece(&defender)?;
            let switches = Switches::parse(&conditions)?;
            duel(&a, &d, &switches, arena, &Policy::default())?.solve()
        })?;
        Ok(AttackResult::new(AttackAnswer::Game(Box::new(report))))
    }
    /// The rankings' rows of the selected cards (`all`, `set:ANH`, ...), as
    /// JSON.
    #[pyo3(signature = (attackers="all".to_string(), defenders="all".to_string()))]
    fn rankings_json(&self, py: Python<'_>, attackers: String, defenders: String) -> PyRes<String> {
        let db = &self.db;
        solve(py, move || {
            let a = db.select(&attackers)?;
            let d = db.select(&defenders)?;
            let r = rank(&a, &d, &Options::default(), SortBy::default(), |_, _| {})?;
            Ok(serde_json::to_string(&r.rows).unwrap_or_default())
        })
    }
    /// Every pairing of the selected cards, streamed: an iterator of JSON
    /// rows, solved on a thread of its own as they are read (at most
    /// [`ROWS_AHEAD`] rows ahead, so memory stays bounded; dropping the
    /// iterator stops the solve).
    #[pyo3(signature = (attackers="all".to_string(), defenders="all".to_string()))]
    fn matchup_rows(&self, attackers: String, defenders: String) -> MatchupRows {
        let (tx, rx) = std::sync::mpsc::sync_channel(ROWS_AHEAD);
        let db = std::sync::Arc::clone(&self.db);
        std::thread::spawn(move || {
            let run = || -> swtcg_engine::error::Result<()> {
                let a = db.select(&attackers)?;
                let d = db.select(&defenders)?;
                stream(&a, &d, &Options::default(), |r| {
                    let text = serde_json::to_string(&r).unwrap_or_default();
                    // The reader is gone: stop as a closed pipe would.
                    tx.send(Ok(text)).map_err(|_| {
                        std::io::Error::new(
                            std::io::ErrorKind::BrokenPipe,
                            "the rows' iterator was dropped",
                        )
                    })
                })
                .map(|_| ())
            };
            if let Err(e) = run() {
                // Nobody reads an error sent after the iterator is gone.
                let _ = tx.send(Err(e));
            }
        });
        MatchupRows {
            rx: std::sync::Mutex::new(rx),
        }
    }
}

/// How many rows a matchups iterator solves ahead of its reader.
const ROWS_AHEAD: usize = 4096;

/// The rows of a matchups run as they are solved (see
/// `Cards.matchup_rows`): each a JSON object, or the run's typed error.
#[pyclass(module = "swtcg_odds")]
struct MatchupRows {
    rx: std::sync::Mutex<std::sync::mpsc::Receiver<swtcg_engine::error::Result<String>>>,
}

#[pymethods]
impl MatchupRows {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    /// The next row's JSON; the end of the rows stops the iteration.
    fn __next__(&self, py: Python<'_>) -> PyRes<Option<String>> {
        // Waits a tenth of a second at a time, so that Ctrl-C is heard.
        let got = loop {
            let got = py.detach(|| match self.rx.lock() {
                Ok(rx) => match rx.recv_timeout(std::time::Duration::from_millis(100)) {
                    Ok(row) => Some(Some(row)),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Some(None),
                },
                Err(_) => Some(None),
            });
            match got {
                Some(got) => break got,
                None => py.check_signals()?,
            }
        };
        match got {
            Some(Ok(text)) => Ok(Some(text)),
            Some(Err(e)) => Err(py_err(py, e)),
            None => Ok(None),
        }
    }
}

/// A scenario's or plan's file as text, read as the command line reads it:
/// regular files only (never a FIFO or a device), at most 64 MiB, and
/// never waiting on a file whose reads block.
#[pyfunction]
fn _read_file(py: Python<'_>, path: String) -> PyRes<String> {
    solve(py, move || swtcg_engine::input::read_file(&path))
}

/// The exact integer `n` as a Python int (for tests of big values).
#[pyfunction]
fn _big(n: String) -> PyRes<BigInt> {
    n.parse::<BigInt>()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("not an integer: {e}")))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Distribution>()?;
    m.add_class::<SideResult>()?;
    m.add_class::<AttackResult>()?;
    m.add_class::<PlanResult>()?;
    m.add_class::<Verification>()?;
    m.add_class::<Cards>()?;
    m.add_class::<MatchupRows>()?;
    m.add_function(wrap_pyfunction!(attack, m)?)?;
    m.add_function(wrap_pyfunction!(params, m)?)?;
    m.add_function(wrap_pyfunction!(aliases, m)?)?;
    m.add_function(wrap_pyfunction!(scenario, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(battle, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(table_attacks, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(_big, m)?)?;
    m.add_function(wrap_pyfunction!(_read_file, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_attack_seconds, m)?)?;
    Ok(())
}
