//! Rankings: each unit against the field of each arena it fights in,
//! folded exactly from the pool's pairs of signatures with their
//! multiplicities.

use super::pool::{Signatures, Solver};
use super::{Options, Summary, reach};
use crate::cards::Card;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;
use swtcg_engine::dist::to_f64;
use swtcg_engine::error::{Error, ErrorKind, Result};
use swtcg_engine::unit::Arena;

/// A unit's standing against the field of its arena.
///
/// A figure is `None` when there is nothing to average: no unit of the
/// field can attack this one (then it has no figures as a defender), or it
/// can attack none (no figures as an attacker); `note` says which.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// Its rank in its arena (1 is best by the sort column).
    pub rank: usize,
    /// The unit.
    pub unit: String,
    /// The arena.
    pub arena: Arena,
    /// The mean of its expected damage dealt to each unit of the field it
    /// attacks.
    pub damage_dealt: Option<f64>,
    /// The mean of P(discarding) each unit of the field when attacking it.
    pub p_discard: Option<f64>,
    /// The mean of the expected damage each unit of the field that can
    /// attack it deals it.
    pub damage_taken: Option<f64>,
    /// The mean of P(surviving) an attack of each unit of the field.
    pub p_survive: Option<f64>,
    /// Pairings with a result it attacks in (what `damage_dealt` and
    /// `p_discard` rest on).
    pub attacking: usize,
    /// Pairings with a result it is attacked in (what `damage_taken` and
    /// `p_survive` rest on).
    pub attacked: usize,
    /// Its pairings without a result (left out of its means: its figures
    /// are then marked).
    pub missing: usize,
    /// Why a figure is missing, or empty.
    pub note: Option<String>,
    /// The four figures exactly (the floats above are these, rounded).
    #[serde(skip)]
    pub exact: Figures,
}

/// A unit's four figures as exact fractions: each a mean over the pairings
/// with a result, `None` when there is none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Mean expected damage dealt.
    pub damage_dealt: Option<BigRational>,
    /// Mean P(discard) when attacking.
    pub p_discard: Option<BigRational>,
    /// Mean expected damage taken.
    pub damage_taken: Option<BigRational>,
    /// Mean P(survive) when attacked.
    pub p_survive: Option<BigRational>,
}

/// The columns rankings can be sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SortBy {
    /// Mean damage dealt (highest first).
    #[default]
    DamageDealt,
    /// Mean P(discard) when attacking (highest first).
    PDiscard,
    /// Mean damage taken (lowest first).
    DamageTaken,
    /// Mean P(survive) when attacked (highest first).
    PSurvive,
    /// The unit's name.
    Unit,
}

/// Rankings of a pool: each unit against the field of each arena it fights
/// in, the size of each arena's field, and what the run of the pairings
/// did (how many rows had no result, and why).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rankings {
    /// The ranked units, arena by arena, in rank order.
    pub rows: Vec<Ranked>,
    /// Units of the field in each arena.
    pub fields: BTreeMap<Arena, usize>,
    /// Distinct signatures among them, in each arena: the pairs of these
    /// are what was solved ([`super::pool`]).
    pub signatures: BTreeMap<Arena, usize>,
    /// The run of the pairings the figures come from.
    pub summary: Summary,
}

/// An exact sum of fractions, each added any number of times: numerators
/// are summed per denominator (the denominators of a pool's results are
/// few), and the fraction is formed once at the end.
#[derive(Clone, Debug, Default)]
struct ExactSum {
    by_denom: Vec<(BigInt, BigInt)>,
}

impl ExactSum {
    fn add(&mut self, f: &BigRational, times: usize) {
        if times == 0 || f.numer().is_zero() {
            return;
        }
        let n = f.numer() * BigInt::from(times);
        match self.by_denom.iter_mut().find(|(d, _)| d == f.denom()) {
            Some((_, sum)) => *sum += n,
            None => self.by_denom.push((f.denom().clone(), n)),
        }
    }

    fn merge(&mut self, other: ExactSum) {
        for (d, n) in other.by_denom {
            self.add(&BigRational::new_raw(n, d), 1);
        }
    }

    fn total(&self) -> BigRational {
        self.by_denom
            .iter()
            .fold(BigRational::zero(), |acc, (d, n)| {
                acc + BigRational::new(n.clone(), d.clone())
            })
    }
}

/// Sums of one signature's pairings in one arena, each pairing counted as
/// many times as cards have it.
#[derive(Clone, Debug, Default)]
struct Sums {
    dealt: ExactSum,
    discard: ExactSum,
    attacking: usize,
    taken: ExactSum,
    discarded: ExactSum,
    attacked: usize,
    missing: usize,
}

impl Sums {
    fn merge(&mut self, o: Sums) {
        self.dealt.merge(o.dealt);
        self.discard.merge(o.discard);
        self.taken.merge(o.taken);
        self.discarded.merge(o.discarded);
        self.attacking += o.attacking;
        self.attacked += o.attacked;
        self.missing += o.missing;
    }

    /// The exact means.
    fn figures(&self) -> Figures {
        let mean = |s: &ExactSum, n: usize| (n > 0).then(|| s.total() / BigInt::from(n));
        Figures {
            damage_dealt: mean(&self.dealt, self.attacking),
            p_discard: mean(&self.discard, self.attacking),
            damage_taken: mean(&self.taken, self.attacked),
            p_survive: (self.attacked > 0)
                .then(|| BigRational::one() - self.discarded.total() / BigInt::from(self.attacked)),
        }
    }
}

impl swtcg_engine::request::Words for SortBy {}

/// Ranks each unit of `units` against the field `field` in each arena it
/// fights in (both directions), sorted by `sort`. Every pairing of the
/// unit is counted: those with a result in its means, those without in its
/// `missing`.
///
/// Pairs of card signatures are solved once ([`super::pool`]) and folded
/// with their multiplicities: the work is signatures × signatures, not
/// cards × cards, and every sum is exact, the same as adding the pairings
/// one by one (`tests/it/matchups.rs` checks it on a pool of copies).
pub fn rank(
    units: &[&Card],
    field: &[&Card],
    opts: &Options,
    sort: SortBy,
    mut progress: impl FnMut(usize, usize),
) -> Result<Rankings> {
    let start = Instant::now();
    let mut both: Vec<&Card> = units.to_vec();
    {
        let mut seen: rustc_hash::FxHashSet<*const Card> =
            both.iter().map(|c| *c as *const Card).collect();
        for c in field {
            if seen.insert(*c as *const Card) {
                both.push(c);
            }
        }
    }
    let total = super::check_work(&both, &both, opts, false)?;
    let sigs = Signatures::of(&[&both]);
    let n = sigs.len();
    let mut count = vec![0usize; n];
    for i in 0..both.len() {
        count[sigs.id(0, i) as usize] += 1;
    }
    // The arenas each pair of signatures fights in, from the sides' arenas
    // and reach, computed once per signature.
    let reach_of: Vec<Vec<Arena>> = sigs.rep.iter().map(|c| reach(c)).collect();
    let fights = |sa: usize, sd: usize| -> Vec<Arena> {
        let r = &reach_of[sa];
        sigs.rep[sd]
            .arenas
            .iter()
            .filter(|x| r.contains(x))
            .copied()
            .collect::<Vec<_>>()
    };
    // Attacker and defender sums per (signature, arena).
    let mut att: FxHashMap<(u32, Arena), Sums> = FxHashMap::default();
    let mut def: FxHashMap<(u32, Arena), Sums> = FxHashMap::default();
    let mut summary = Summary::default();
    let mut solver = Solver::new(opts);
    let mut tasks: Vec<(&Card, &Card, Arena)> = Vec::new();
    let mut keys: Vec<(u32, u32, Arena)> = Vec::new();
    let block = opts.block.max(1);
    let mut fold = |tasks: &mut Vec<(&Card, &Card, Arena)>,
                    keys: &mut Vec<(u32, u32, Arena)>,
                    solver: &mut Solver,
                    summary: &mut Summary|
     -> Result<()> {
        super::stopped(opts)?;
        if start.elapsed() > opts.time_limit {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "matchups: stopped after {} s with {} of {total} matchups ranked (raise the time limit, or select fewer cards)",
                    opts.time_limit.as_secs(),
                    summary.rows
                ),
            ));
        }
        let results = solver.block(tasks);
        for (&(sa, sd, x), r) in keys.iter().zip(&results) {
            // Each card of signature `sa` attacks each card of signature
            // `sd` but itself.
            let same = usize::from(sa == sd);
            let (ma, md) = (count[sa as usize], count[sd as usize]);
            let per_attacker = md - same;
            let per_defender = ma - same;
            let rows = ma * md - same * ma;
            summary.rows += rows;
            let a = att.entry((sa, x)).or_default();
            let d = def.entry((sd, x)).or_default();
            match &r.outcome {
                Ok(s) => {
                    a.dealt.add(&s.mean.0, per_attacker);
                    a.discard.add(&s.p_discard.0, per_attacker);
                    a.attacking += per_attacker;
                    d.taken.add(&s.mean.0, per_defender);
                    d.discarded.add(&s.p_discard.0, per_defender);
                    d.attacked += per_defender;
                }
                Err(e) => {
                    a.missing += per_attacker;
                    d.missing += per_defender;
                    summary.errors += rows;
                    *summary.reasons.entry(e.to_string()).or_default() += rows;
                }
            }
        }
        tasks.clear();
        keys.clear();
        Ok(())
    };
    for (sa, &ca) in count.iter().enumerate() {
        for sd in 0..n {
            // A signature only one card has never meets itself.
            if sa == sd && ca < 2 {
                continue;
            }
            for x in fights(sa, sd) {
                tasks.push((sigs.rep[sa], sigs.rep[sd], x));
                keys.push((sa as u32, sd as u32, x));
            }
        }
        if tasks.len() >= block || sa + 1 == n {
            fold(&mut tasks, &mut keys, &mut solver, &mut summary)?;
            progress(summary.rows, total);
        }
    }
    summary.solved = solver.solved;
    debug_assert_eq!(summary.rows, total, "every pairing is counted");
    // Each unit of `units`, in each arena it is in or reaches, even with no
    // pairing there (its figures then say why).
    let mut signatures: BTreeMap<Arena, rustc_hash::FxHashSet<u32>> = BTreeMap::new();
    let mut fields: BTreeMap<Arena, usize> = BTreeMap::new();
    for (i, c) in both.iter().enumerate() {
        for a in &c.arenas {
            *fields.entry(*a).or_default() += 1;
            signatures.entry(*a).or_default().insert(sigs.id(0, i));
        }
    }
    let mut out: Vec<Ranked> = Vec::new();
    let mut listed: rustc_hash::FxHashSet<(String, Arena)> = rustc_hash::FxHashSet::default();
    for (i, c) in units.iter().enumerate() {
        let s = sigs.id(0, i);
        for arena in reach_of[s as usize].iter().copied() {
            if !listed.insert((c.key(), arena)) {
                continue;
            }
            let mut v = att.get(&(s, arena)).cloned().unwrap_or_default();
            if let Some(d) = def.get(&(s, arena)) {
                v.merge(d.clone());
            }
            out.push(ranked(c.key(), arena, &v));
        }
    }
    sort_ranked(&mut out, sort);
    Ok(Rankings {
        rows: out,
        fields,
        signatures: signatures.into_iter().map(|(a, s)| (a, s.len())).collect(),
        summary,
    })
}

/// The ranked row of a unit from its sums.
fn ranked(unit: String, arena: Arena, v: &Sums) -> Ranked {
    let mut notes = Vec::new();
    if v.attacking == 0 && v.missing == 0 {
        notes.push("it can attack no unit of the field");
    }
    if v.attacked == 0 && v.missing == 0 {
        notes.push("no unit of the field can attack it");
    }
    let exact = v.figures();
    let f = |x: &Option<BigRational>| x.as_ref().map(to_f64);
    Ranked {
        rank: 0,
        unit,
        arena,
        damage_dealt: f(&exact.damage_dealt),
        p_discard: f(&exact.p_discard),
        damage_taken: f(&exact.damage_taken),
        p_survive: f(&exact.p_survive),
        attacking: v.attacking,
        attacked: v.attacked,
        missing: v.missing,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        exact,
    }
}

/// Sorts rankings arena by arena by `sort` (units without the sort
/// column's figure last) and numbers them.
fn sort_ranked(out: &mut [Ranked], sort: SortBy) {
    let key = |r: &Ranked| -> Option<f64> {
        match sort {
            SortBy::DamageDealt => r.damage_dealt.map(|x| -x),
            SortBy::PDiscard => r.p_discard.map(|x| -x),
            SortBy::DamageTaken => r.damage_taken,
            SortBy::PSurvive => r.p_survive.map(|x| -x),
            SortBy::Unit => Some(0.0),
        }
    };
    out.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        a.arena
            .cmp(&b.arena)
            .then(ka.is_none().cmp(&kb.is_none()))
            .then(ka.unwrap_or(0.0).total_cmp(&kb.unwrap_or(0.0)))
            .then(a.unit.cmp(&b.unit))
    });
    let mut last: Option<Arena> = None;
    let mut n = 0;
    for r in out.iter_mut() {
        if last != Some(r.arena) {
            last = Some(r.arena);
            n = 0;
        }
        n += 1;
        r.rank = n;
    }
}

/// The field line: each arena, its size and its distinct signatures.
pub fn field_line(r: &Rankings) -> String {
    let parts: Vec<String> = r
        .fields
        .iter()
        .map(|(a, n)| {
            let s = r.signatures.get(a).copied().unwrap_or(0);
            format!("{} arena, {n} units ({s} distinct)", a.name())
        })
        .collect();
    format!("field: {}", parts.join("; "))
}
