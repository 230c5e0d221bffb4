//! Tables over parameter ranges: expected damage and P(discard) for every
//! combination of the given values, as Markdown, CSV or JSON, in rows or as
//! a grid of one parameter against another (`--pivot`).
//!
//! Every flag of `attack` is a [`Param`], of the
//! front-ends' registry (`request`): the one place where the words a user
//! types for a unit's numbers and keywords are read into units (the
//! `attack` command reads its flags through it too). Ranges are written
//! `N`, `A..B` (inclusive), or comma lists of those (`0,2..4`); on/off
//! parameters take `on`, `off` or `both`.
//!
//! Rows are computed the way the design says: the dice law is computed once
//! per (dice, Accuracy, Armor, Fury), the damage steps once per distinct
//! strike and per set of the other keywords, and each row only combines
//! them, in machine integers where they fit.
//!
//! ```
//! use swtcg_engine::request::Param;
//! use swtcg_engine::table::Grid;
//! let grid = Grid::new().with(Param::Power, vec![1, 2, 3]);
//! let rows = grid.rows().unwrap();
//! assert_eq!(rows.len(), 3);
//! assert_eq!(rows[2].mean.to_string(), "3/2"); // 3 dice hitting on 4+
//! ```

use crate::attack::{
    DEFENDER, Fight, PlainRoll, Side, Strike, Tally, attack_dice, duel_damage_bound,
    duel_endings_damage, roll_damage_bound, strikes, total_dice, track,
};
use crate::dice::{Roll, Track, attack_roll_tracking};
use crate::dist::{Fraction, Joint, Num, Weight, fits_u128};
use crate::error::{Error, Result};
use crate::params::{CORE, Param, ValueKind, checks, first_error, neutral_units, units_of};
use crate::policy::{Game, Policy, solve};
use crate::unit::{MAX_GAME_WORK, MAX_STATIC_WORK, Unit, attack_work};
use ndarray::Array2;
use num_rational::BigRational;
use serde::Serialize;
use serde::ser::SerializeMap;

/// Most rows one table may have.
pub(crate) const MAX_ROWS: usize = 200_000;

/// The parameter ranges of a table: every combination is one row. Each
/// parameter given takes its values in order; the others stay neutral.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    /// The parameters given, each with its values, in [`Param::ALL`] order.
    pub params: Vec<(Param, Vec<i64>)>,
    /// The policy of rows with choices (Lucky); `None`: the default.
    pub policy: Option<Policy>,
}

/// One row: the parameters and the exact results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The value of each parameter given (in [`Param::ALL`] order).
    pub values: Vec<(Param, i64)>,
    /// Expected counters placed on the defender.
    pub mean: Fraction,
    /// P(the defender is discarded), when its health is given.
    pub p_discard: Option<Fraction>,
}

impl Row {
    /// The value of `p` in this row (neutral when not given).
    pub fn get(&self, p: Param) -> i64 {
        self.values
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(p.neutral(), |(_, v)| *v)
    }

    /// The two units this row describes.
    pub fn units(&self) -> Result<(Unit, Unit)> {
        units_of(&self.values)
    }
}

impl Row {
    /// Calls `f` with each value the row's JSON shows, in its order: every
    /// core parameter (`power`, `accuracy`, `armor`, `shields`, `fury`,
    /// `crit`, `parry`, `evade`, `deflect`, `health`) and each other
    /// parameter given, in [`Param::ALL`] order.
    fn each_shown<E>(
        &self,
        mut f: impl FnMut(Param, i64) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        // The core parameters, as a bit set of their places in `Param`.
        const CORE_MASK: u128 = {
            let mut mask = 0u128;
            let mut i = 0;
            while i < CORE.len() {
                mask |= 1 << (CORE[i] as usize);
                i += 1;
            }
            mask
        };
        const _: () = assert!(Param::ALL.len() <= 128);
        // The core parameters are in `Param`'s order.
        const _: () = {
            let mut i = 1;
            while i < CORE.len() {
                assert!((CORE[i - 1] as usize) < (CORE[i] as usize));
                i += 1;
            }
        };
        // Rows made by a grid hold their values in order, each once: the
        // core parameters and the values are merged, both in `Param`'s
        // order. Any other row is searched parameter by parameter.
        if self.values.windows(2).all(|w| w[0].0 < w[1].0) {
            let (mut core, mut given) = (CORE.iter().peekable(), self.values.iter().peekable());
            loop {
                let (p, v) = match (core.peek(), given.peek()) {
                    (None, None) => break,
                    (Some(&&c), Some(&&(g, v))) if g <= c => {
                        core.next_if(|&&c| c == g);
                        given.next();
                        (g, v)
                    }
                    (Some(&&c), _) => {
                        core.next();
                        (c, c.neutral())
                    }
                    (None, Some(&&(g, v))) => {
                        given.next();
                        (g, v)
                    }
                };
                f(p, v)?;
            }
        } else {
            for p in Param::ALL {
                let v = match self.values.iter().find(|(q, _)| q == p) {
                    Some((_, v)) => *v,
                    None if CORE_MASK >> (*p as usize) & 1 == 1 => p.neutral(),
                    None => continue,
                };
                f(*p, v)?;
            }
        }
        Ok(())
    }
}

/// A parameter's value as the rows' JSON shows it.
#[derive(Serialize)]
#[serde(untagged)]
enum Shown {
    Switch(bool),
    Number(Option<i64>),
}

impl Shown {
    fn of(p: Param, v: i64) -> Shown {
        match p.kind() {
            ValueKind::Switch => Shown::Switch(v != 0),
            ValueKind::Health => Shown::Number((v > 0).then_some(v)),
            _ => Shown::Number(Some(v)),
        }
    }
}

impl Serialize for Row {
    /// Every core parameter (`power`, `accuracy`, `armor`, `shields`,
    /// `fury`, `crit`, `parry`, `evade`, `deflect`, `health`), each other
    /// parameter given, `mean` (a fraction string) and `mean_f64`, and
    /// `p_discard` / `p_discard_f64` when health is given.
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        self.each_shown(|p, v| m.serialize_entry(p.name(), &Shown::of(p, v)))?;
        m.serialize_entry("mean", &self.mean)?;
        m.serialize_entry("mean_f64", &self.mean.to_f64())?;
        if let Some(p) = &self.p_discard {
            m.serialize_entry("p_discard", p)?;
            m.serialize_entry("p_discard_f64", &p.to_f64())?;
        }
        m.end()
    }
}

/// Rows as pretty JSON with a final newline: the bytes of
/// [`crate::report::to_json_text`] of `rows`, made of serde's pieces. Each
/// key is escaped by serde once per call, not once per row; a parameter's
/// key and value are serialized once per distinct value (a grid's rows
/// repeat theirs), the rest value by value; a row's layout is serde_json's
/// pretty one (a test holds every byte to it). Serde's writer spent most
/// of the 800-row table's instructions on its 9,600 keys (issue 35).
pub fn rows_json(rows: &[Row]) -> String {
    // Writing into a Vec can't fail; a value that would (none here: plain
    // numbers, booleans and fraction strings) would be left out, not panic.
    fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
        let _ = serde_json::to_writer(&mut *out, value);
    }
    if rows.is_empty() {
        return "[]\n".into();
    }
    // `,\n    "name": ` for each key: the comma is left out of a row's first.
    let key = |name: &str| {
        let mut k = b",\n    ".to_vec();
        put(&mut k, name);
        k.extend_from_slice(b": ");
        k
    };
    let params: Vec<Vec<u8>> = Param::ALL.iter().map(|p| key(p.name())).collect();
    let [mean, mean_f64, p_discard, p_discard_f64] =
        ["mean", "mean_f64", "p_discard", "p_discard_f64"].map(key);
    // A key, after a comma unless it is its row's first, and its value.
    fn field<T: Serialize + ?Sized>(out: &mut Vec<u8>, first: &mut bool, key: &[u8], value: &T) {
        write_key(out, first, key);
        put(out, value);
    }
    fn write_key(out: &mut Vec<u8>, first: &mut bool, key: &[u8]) {
        out.extend_from_slice(if *first { &key[1..] } else { key });
        *first = false;
    }
    // A fraction's string: digits, a minus and a slash, which JSON doesn't
    // escape, written between its quotes without serde's scan for escapes
    // (when it fits machine integers; serde writes it otherwise).
    fn fraction(out: &mut Vec<u8>, first: &mut bool, key: &[u8], value: &Fraction) {
        let mut bufs = (itoa::Buffer::new(), itoa::Buffer::new());
        match crate::dist::small_pieces(value, &mut bufs) {
            Some((n, d)) => {
                write_key(out, first, key);
                out.push(b'"');
                out.extend_from_slice(n.as_bytes());
                out.push(b'/');
                out.extend_from_slice(d.as_bytes());
                out.push(b'"');
            }
            None => field(out, first, key, value),
        }
    }
    // Each parameter's `,\n    "name": value`, serialized once per distinct
    // value (a grid's rows repeat theirs), kept in `texts` and found by a
    // small cache per parameter: 64 slots by the value's low bits, each
    // with its value and where its text is.
    const SLOTS: usize = 64;
    type Slots = [(i64, usize, usize); SLOTS];
    let mut texts: Vec<u8> = Vec::new();
    let mut cache: Vec<Option<Box<Slots>>> = vec![None; Param::ALL.len()];
    let mut out = Vec::with_capacity(64 + rows.len() * 300);
    out.push(b'[');
    for (i, row) in rows.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n  {" } else { b",\n  {" });
        let mut first = true;
        let _ = row.each_shown(|p, v| -> std::result::Result<(), ()> {
            let slots =
                cache[p as usize].get_or_insert_with(|| Box::new([(0, usize::MAX, 0); SLOTS]));
            let slot = &mut slots[(v as u64 % SLOTS as u64) as usize];
            if slot.1 == usize::MAX || slot.0 != v {
                let start = texts.len();
                texts.extend_from_slice(&params[p as usize]);
                put(&mut texts, &Shown::of(p, v));
                *slot = (v, start, texts.len());
            }
            write_key(&mut out, &mut first, &texts[slot.1..slot.2]);
            Ok(())
        });
        fraction(&mut out, &mut first, &mean, &row.mean);
        field(&mut out, &mut first, &mean_f64, &row.mean.to_f64());
        if let Some(p) = &row.p_discard {
            fraction(&mut out, &mut first, &p_discard, p);
            field(&mut out, &mut first, &p_discard_f64, &p.to_f64());
        }
        out.extend_from_slice(b"\n  }");
    }
    out.extend_from_slice(b"\n]\n");
    String::from_utf8(out).unwrap_or_default()
}

impl Grid {
    /// A grid with every parameter neutral (one row: power 1).
    pub fn new() -> Grid {
        Grid::default()
    }

    /// The grid with `param` taking `values` (replacing any earlier ones).
    pub fn with(mut self, param: Param, values: Vec<i64>) -> Grid {
        self.params.retain(|(p, _)| *p != param);
        self.params.push((param, values));
        self.params
            .sort_by_key(|(p, _)| Param::ALL.iter().position(|q| q == p));
        self
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.params
            .iter()
            .fold(1usize, |acc, (_, v)| acc.saturating_mul(v.len()))
    }

    /// Whether the grid has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Refuses a grid of more than `MAX_ROWS` rows, or with a value out of
    /// its parameter's bounds (a grid made in code, not parsed: Python's
    /// `table`); a parameter's neutral value is it not given (health 0:
    /// unknown).
    pub(crate) fn check(&self) -> Result<()> {
        if self.len() > MAX_ROWS {
            return Err(Error::limit(format!(
                "the table would have {} rows; the limit is {MAX_ROWS}",
                self.len()
            )));
        }
        for (p, values) in &self.params {
            for &v in values {
                if v != p.neutral() {
                    p.check(v)?;
                }
            }
        }
        Ok(())
    }

    /// The values of row `i`, the first parameter varying slowest (rows
    /// are made one at a time: a grid is never held whole before it is
    /// checked).
    pub(crate) fn assignment(&self, i: usize) -> Vec<(Param, i64)> {
        let mut out = Vec::with_capacity(self.params.len());
        let mut rest = i;
        for (p, values) in self.params.iter().rev() {
            out.push((*p, values[rest % values.len()]));
            rest /= values.len();
        }
        out.reverse();
        out
    }

    /// Computes every row exactly. Refuses grids of more than `MAX_ROWS`
    /// rows, out-of-range values (naming them) and too much work, before
    /// any work. Each side's unit depends only on the parameters of that
    /// side ([`Param::side`]): the distinct attackers and defenders are
    /// built and checked once each (800 rows of power, Critical Hit and
    /// Parry are 200 attackers and 4 defenders), each row's pair found from
    /// its index.
    /// A grid with more than 10,000 of either is counted in constant memory
    /// (each row's units built, counted and dropped), and its rows' units
    /// built again once accepted.
    pub fn rows(&self) -> Result<Vec<Row>> {
        /// Sides of up to this many units are built once each.
        const KEEP_UNITS: usize = 10_000;
        self.check()?;
        // A parameter given no values: no rows (and no side's units).
        if self.is_empty() {
            return Ok(Vec::new());
        }
        let mut work = Work::default();
        let sides = self.sides(KEEP_UNITS);
        // Row i's attacker and defender, among those built.
        let pair = |i: usize| match &sides {
            Some([on_a, on_d]) => (on_a.index(i), on_d.index(i)),
            None => (i, i),
        };
        let (attackers, defenders) = match &sides {
            Some([on_a, on_d]) => {
                let attackers = self.side_units(on_a);
                let defenders = self.side_units(on_d);
                for i in 0..self.len() {
                    let (ia, id) = pair(i);
                    let ((a, checks_a), (d, checks_d)) = (&attackers[ia], &defenders[id]);
                    if let Some(e) = first_error(checks_a, checks_d) {
                        return Err(e.clone());
                    }
                    work.add(a, d, false);
                }
                work.check()?;
                let units = |side: Vec<(Unit, [Option<Error>; 2])>| -> Vec<Unit> {
                    side.into_iter().map(|(u, _)| u).collect()
                };
                (units(attackers), units(defenders))
            }
            None => {
                for i in 0..self.len() {
                    let (a, d) = units_of(&self.assignment(i))?;
                    work.add(&a, &d, false);
                }
                work.check()?;
                (0..self.len())
                    .map(|i| units_of(&self.assignment(i)))
                    .collect::<Result<(Vec<Unit>, Vec<Unit>)>>()?
            }
        };
        let mut rows: Vec<(Row, &Unit, &Unit)> = (0..self.len())
            .map(|i| {
                let (ia, id) = pair(i);
                let row = Row {
                    values: self.assignment(i),
                    mean: Fraction::default(),
                    p_discard: None,
                };
                (row, &attackers[ia], &defenders[id])
            })
            .collect();
        // Rows are computed on every core; within a thread, dice laws and
        // damage steps are shared.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = rows.len().div_ceil(threads).max(1);
        let policy = self.policy.unwrap_or_default();
        // The parts stop as one: this thread watches its deadline and its
        // front-end's question (Ctrl-C in Python) while they run.
        let group = crate::cancel::Group::new();
        let results: Vec<Result<()>> = std::thread::scope(|s| {
            let group = &group;
            let handles: Vec<_> = rows
                .chunks_mut(chunk)
                .map(|part| s.spawn(move || group.run(|| fill(part, &policy))))
                .collect();
            group.watch(handles.len());
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(Error::limit("a table worker failed")))
                })
                .collect()
        });
        for r in results {
            r?;
        }
        Ok(rows.into_iter().map(|(r, _, _)| r).collect())
    }

    /// The grid's parameters of each side, as [`SideGrid`]s; `None` when
    /// either side has more than `keep` distinct units.
    fn sides(&self, keep: usize) -> Option<[SideGrid; 2]> {
        let mut out = [Side::Attacking, Side::Defending].map(|side| SideGrid {
            side,
            digits: Vec::new(),
            len: 1,
        });
        // Row i's digit of parameter j is (i / stride_j) % len_j, the first
        // parameter varying slowest.
        let mut stride = 1usize;
        for (j, (p, values)) in self.params.iter().enumerate().rev() {
            let n = values.len().max(1);
            let g = &mut out[usize::from(p.side() == Side::Defending)];
            g.digits.push((j, stride, n, g.len));
            g.len = g.len.checked_mul(n)?;
            stride = stride.saturating_mul(n);
        }
        out.iter().all(|g| g.len <= keep).then_some(out)
    }

    /// The distinct units of one side, in the order of [`SideGrid::index`],
    /// each with its checks' errors (see [`checks`]).
    fn side_units(&self, g: &SideGrid) -> Vec<(Unit, [Option<Error>; 2])> {
        (0..g.len)
            .map(|k| {
                let (mut a, mut d) = neutral_units();
                // In the parameters' order, as `units_of` applies them.
                for &(j, _, n, below) in g.digits.iter().rev() {
                    let (p, values) = &self.params[j];
                    p.apply(values[(k / below) % n], &mut a, &mut d);
                }
                let u = match g.side {
                    Side::Attacking => a,
                    Side::Defending => d,
                };
                let errors = checks(&u, g.side);
                (u, errors)
            })
            .collect()
    }
}

/// The parameters of one side of a grid, each as (its place in the grid,
/// its stride among the grid's rows, its number of values, its stride
/// among the side's units), the last parameter first; `len`: the number of
/// the side's distinct units.
struct SideGrid {
    side: Side,
    digits: Vec<(usize, usize, usize, usize)>,
    len: usize,
}

impl SideGrid {
    /// The index among the side's units of row `i`'s unit.
    fn index(&self, i: usize) -> usize {
        self.digits
            .iter()
            .map(|&(_, stride, n, below)| (i / stride) % n * below)
            .sum()
    }
}

/// The work of a table's rows, counted before any is solved: static rows
/// and rows solved as games, each against its own limit.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Work {
    fixed: u64,
    game: u64,
}

impl Work {
    /// Counts one row of these units; `game`: solved as a game whatever
    /// its keywords (a row with choices).
    pub(crate) fn add(&mut self, a: &Unit, d: &Unit, game: bool) {
        let dice = attack_dice(a, d) + a.keywords.fury;
        if game || a.keywords.lucky > 0 || d.keywords.lucky > 0 {
            self.game = self
                .game
                .saturating_add(attack_work(dice + a.keywords.lucky + d.keywords.lucky));
        } else {
            self.fixed = self.fixed.saturating_add(attack_work(dice));
        }
    }

    /// Refuses work past the limits, with the figures.
    pub(crate) fn check(self) -> Result<()> {
        if self.fixed > MAX_STATIC_WORK || self.game > MAX_GAME_WORK {
            return Err(Error::limit(format!(
                "the table would take {} units of work (rows x (dice + 1)^2; {} with Lucky); the limits are {MAX_STATIC_WORK} and {MAX_GAME_WORK}: fewer rows or less power",
                self.fixed, self.game
            )));
        }
        Ok(())
    }
}

/// Whether a row has choices that static play would not make (Lucky,
/// options before the roll such as Overload): it is then solved as a game.
fn is_game(a: &Unit, d: &Unit) -> bool {
    a.keywords.lucky > 0
        || d.keywords.lucky > 0
        || !a.keywords.boosts.is_empty()
        || !d.keywords.boosts.is_empty()
}

/// The damage steps of one set of the other parameters: the row values
/// that key them, the units, and what each strike does there.
struct Steps<W: Weight> {
    key: Vec<(Param, i64)>,
    attacker: Unit,
    defender: Unit,
    /// The denominator the damage steps add to the roll's.
    end: W,
    sums: StrikeSums<W>,
}

/// What each strike does in one set of damage steps, summed over the
/// steps' own law (`Σ w · damage`, and the weight of discarding the
/// defender, over the denominator of the rolls at the end of the attack),
/// by [`strike_index`].
struct StrikeSums<W> {
    /// The places of a strike's flags: 8 when the steps' rolls track faces
    /// (Riposte, Backfire, Focus), else 1 (no flags).
    stride: usize,
    /// Whether a strike's sums are made yet.
    made: Vec<bool>,
    mean: Vec<W>,
    discard: Vec<W>,
}

impl<W: Weight> StrikeSums<W> {
    /// No sums yet, for rolls that track `track`.
    fn new(track: Track) -> Self {
        StrikeSums {
            stride: if track == Track::default() { 1 } else { 8 },
            made: Vec::new(),
            mean: Vec::new(),
            discard: Vec::new(),
        }
    }

    /// Room for the strikes up to `top`.
    fn reserve(&mut self, top: usize) {
        if self.made.len() <= top {
            self.made.resize(top + 1, false);
            self.mean.resize(top + 1, W::zero());
            self.discard.resize(top + 1, W::zero());
        }
    }

    /// Makes the sums of the strike kept at `i`, in the steps' `arena`, for
    /// a defender with `remaining` health (`None`: unknown, no discard).
    #[inline(never)]
    fn make(&mut self, i: usize, arena: &Fight<'_>, remaining: Option<u32>) {
        let strike = strike_at(i, self.stride);
        let tallies: Joint<Tally, W> = arena.resolve_strikes(&Joint::point(strike));
        let (mut m, mut p) = (W::zero(), W::zero());
        for (t, wt) in tallies.entries() {
            let dmg = t.damage[DEFENDER];
            m.add_assign_ref(&wt.mul_u64(dmg as u64));
            if remaining.is_some_and(|r| u32::from(dmg) >= r) {
                p.add_assign_ref(wt);
            }
        }
        (self.mean[i], self.discard[i], self.made[i]) = (m, p, true);
    }
}

/// Where a strike's sums are kept: static tables have no Overkill, so a
/// strike is its pending damage, whether a natural 1 was rolled (when the
/// defender has Parry), and what endings read from the roll (its flags,
/// below `stride`).
fn strike_index(s: &Strike, stride: usize) -> usize {
    debug_assert!(s.bonus == 0 && usize::from(s.flags) < stride);
    (2 * s.hits as usize + s.one as usize) * stride + s.flags as usize
}

/// The strike kept at `i` ([`strike_index`]'s inverse).
fn strike_at(i: usize, stride: usize) -> Strike {
    let s = Strike {
        hits: (i / stride / 2) as u32,
        bonus: 0,
        one: i / stride % 2 == 1,
        flags: (i % stride) as u8,
    };
    debug_assert_eq!(strike_index(&s, stride), i);
    s
}

/// A row's strike law (step 5, without Overkill).
enum StrikeWeights<W: Weight> {
    /// A roll without flags: by `2 · pending + natural 1`
    /// ([`PlainRoll::strikes`]); zero where no roll lands.
    Dense(Vec<W>),
    /// A roll with flags ([`strikes`]).
    Sparse(Joint<Strike, W>),
}

impl<W: Weight> StrikeWeights<W> {
    /// The law of `roll` (`plain` when it has no flags) with Critical Hit
    /// `crit`, against Parry or not (`parry`).
    fn of(roll: &Joint<Roll, W>, plain: Option<&PlainRoll<W>>, crit: u32, parry: bool) -> Self {
        match plain {
            Some(plain) => StrikeWeights::Dense(plain.strikes(crit, parry)),
            None => StrikeWeights::Sparse(strikes(roll, crit, false, parry)),
        }
    }

    /// The greatest place of a strike ([`strike_index`]; where no strike
    /// lands, at most its weight is 0).
    fn top(&self, stride: usize) -> usize {
        match self {
            StrikeWeights::Dense(d) => stride * d.len().saturating_sub(1),
            StrikeWeights::Sparse(s) => s
                .entries()
                .last()
                .map_or(0, |(s, _)| strike_index(s, stride)),
        }
    }

    /// Each strike that has weight: its place ([`strike_index`]) and weight.
    #[inline(always)]
    fn for_each(&self, stride: usize, mut f: impl FnMut(usize, &W)) {
        match self {
            StrikeWeights::Dense(d) => {
                for (i, w) in d.iter().enumerate() {
                    if !w.is_zero() {
                        f(stride * i, w);
                    }
                }
            }
            StrikeWeights::Sparse(s) => {
                for (s, w) in s.entries() {
                    f(strike_index(s, stride), w);
                }
            }
        }
    }
}

/// What only the roll reads (power, Accuracy, Fury, Critical Hit — merged
/// into the strike — Shields, Armor): rows equal in everything else share
/// their damage steps.
const DICE_ONLY: [Param; 6] = [
    Param::Power,
    Param::Accuracy,
    Param::Fury,
    Param::Crit,
    Param::Shields,
    Param::Armor,
];

fn steps_key(values: &[(Param, i64)]) -> impl Iterator<Item = (Param, i64)> + '_ {
    values
        .iter()
        .filter(|(p, _)| !DICE_ONLY.contains(p))
        .copied()
}

/// Computes the results of `rows` (each with its units).
fn fill(rows: &mut [(Row, &Unit, &Unit)], policy: &Policy) -> Result<()> {
    // Sums of weight × damage must fit too: 6^dice × (the most damage + 1).
    // The endings read none of what only the roll reads: rows that share
    // their damage steps share their endings' damage (made once each).
    let mut endings: Vec<(Vec<(Param, i64)>, u64)> = Vec::new();
    let small = rows.iter().all(|(row, a, d)| {
        let dice = total_dice(a, d);
        if !fits_u128(dice) {
            return false;
        }
        let key = || steps_key(&row.values);
        let ending = match endings
            .iter()
            .rposition(|(k, _)| k.iter().copied().eq(key()))
        {
            Some(i) => endings[i].1,
            None => {
                let e = duel_endings_damage(a, d);
                endings.push((key().collect(), e));
                e
            }
        };
        let bound = roll_damage_bound(a, d) + ending;
        debug_assert_eq!(bound, duel_damage_bound(a, d));
        6u128
            .checked_pow(dice as u32)
            .and_then(|x| x.checked_mul(u128::from(bound.saturating_add(1))))
            .is_some()
    });
    if small {
        fill_with::<u128>(rows, policy)
    } else {
        fill_with::<Num>(rows, policy)
    }
}

fn fill_with<W: Weight>(rows: &mut [(Row, &Unit, &Unit)], policy: &Policy) -> Result<()> {
    // (dice, accuracy, armor, fury, faces tracked) -> roll law.
    type DiceKey = (u32, i32, bool, u32, Track);
    // With each roll, its strike laws by (Critical Hit, Parry present):
    // rows that differ only in Parry's number (or in what the damage steps
    // read) share one.
    type StrikeLaws<W> = Vec<((u32, bool), StrikeWeights<W>)>;
    // Each roll law, split by its natural 1 and 6 when it has no flags.
    type RollLaw<W> = (Joint<Roll, W>, Option<PlainRoll<W>>);
    let mut rolls: Vec<(DiceKey, RollLaw<W>, StrikeLaws<W>)> = Vec::new();
    let mut steps: Vec<Steps<W>> = Vec::new();
    for (row, a, d) in rows.iter_mut() {
        let (a, d): (&Unit, &Unit) = (a, d);
        crate::cancel::check()?;
        let remaining = d.remaining_health();
        if is_game(a, d) {
            // A game: solved exactly with both sides' choices.
            let game = Game::new(
                vec![a.clone(), d.clone()],
                vec![Side::Attacking, Side::Defending],
                *policy,
            );
            let out = solve(&game)?;
            let t = &out.solution.tallies;
            row.mean = Fraction(t.marginal(|t| t.damage[DEFENDER] as i64).mean());
            row.p_discard =
                remaining.map(|r| Fraction(t.prob(|t| u32::from(t.damage[DEFENDER]) >= r)));
            continue;
        }
        let key = (
            attack_dice(a, d),
            a.keywords.accuracy,
            d.keywords.armor,
            a.keywords.fury,
            track(a, d),
        );
        // From the last made: a grid's rows keep their roll for a while.
        let at = match rolls.iter().rposition(|(k, _, _)| *k == key) {
            Some(i) => i,
            None => {
                let roll = attack_roll_tracking::<W>(key.0, key.1, key.2, key.3, key.4);
                let plain = PlainRoll::of(&roll);
                rolls.push((key, (roll, plain), Vec::new()));
                rolls.len() - 1
            }
        };
        let (_, (roll, plain), laws) = &mut rolls[at];
        let (roll, plain) = (&*roll, plain.as_ref());
        let si = match steps
            .iter()
            .position(|s| s.key.iter().copied().eq(steps_key(&row.values)))
        {
            Some(i) => i,
            None => {
                let (mut ka, mut kd) = (a.clone(), d.clone());
                for p in DICE_ONLY {
                    p.apply(p.neutral(), &mut ka, &mut kd);
                }
                let end = W::from_num(&Fight::duel(&ka, &kd).end_denom());
                steps.push(Steps {
                    key: steps_key(&row.values).collect(),
                    attacker: ka,
                    defender: kd,
                    end,
                    sums: StrikeSums::new(key.4),
                });
                steps.len() - 1
            }
        };
        let st = &mut steps[si];
        // The arena of the steps, made when a strike's are first needed.
        let mut arena = None;
        let parry = d.keywords.parry > 0;
        let by = (a.keywords.crit, parry);
        let li = match laws.iter().position(|(k, _)| *k == by) {
            Some(i) => i,
            None => {
                laws.push((by, StrikeWeights::of(roll, plain, by.0, by.1)));
                laws.len() - 1
            }
        };
        let law = &laws[li].1;
        // Each strike's sums in these steps, made when a row first needs them.
        let stride = st.sums.stride;
        // The rows of one set of steps track the same faces (what tracks
        // them is read by the damage steps, not the roll only).
        assert!(
            stride == 8 || matches!(law, StrikeWeights::Dense(_)),
            "a strike with flags in steps that track none"
        );
        st.sums.reserve(law.top(stride));
        law.for_each(stride, |i, _| {
            if !st.sums.made[i] {
                let arena = arena.get_or_insert_with(|| Fight::duel(&st.attacker, &st.defender));
                st.sums.make(i, arena, remaining);
            }
        });
        // The row's sums: each strike's weight times its sums.
        let dot = |sums: &[W]| {
            let mut total = W::zero();
            law.for_each(stride, |i, w| total.add_assign_ref(&sums[i].mul_ref(w)));
            total
        };
        let mean = dot(&st.sums.mean);
        // P(discard) only when health is given.
        let disc = if remaining.is_some() {
            dot(&st.sums.discard)
        } else {
            W::zero()
        };
        let denom = roll.denom().mul_ref(&st.end);
        row.mean = Fraction(reduced(&mean, &denom));
        row.p_discard = remaining.map(|_| Fraction(reduced(&disc, &denom)));
    }
    Ok(())
}

/// `num / den` as a reduced rational (in machine words while they fit).
fn reduced<W: Weight>(num: &W, den: &W) -> BigRational {
    crate::dist::ratio(num, den)
}

/// A grid of one parameter (rows) against another (columns): each cell the
/// expected damage, and a second grid of P(discard) when health is given.
/// Every other parameter must take one value.
#[derive(Clone, Debug, Serialize)]
pub struct Pivot {
    /// The parameter down the rows.
    pub row: &'static str,
    /// The parameter across the columns.
    pub column: &'static str,
    /// Its values down the rows.
    pub row_values: Vec<i64>,
    /// Its values across the columns.
    pub column_values: Vec<i64>,
    /// Expected damage, `[row, column]` (written as rows of cells).
    #[serde(serialize_with = "grid_rows")]
    pub mean: Array2<Fraction>,
    /// P(discard), `[row, column]`, when health is given.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "grid_rows_opt"
    )]
    pub p_discard: Option<Array2<Fraction>>,
}

/// A grid as rows of cells (the JSON of a pivot).
fn grid_rows<S: serde::Serializer>(
    a: &Array2<Fraction>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    let (n, m) = a.dim();
    let rows: Vec<Vec<&Fraction>> = (0..n)
        .map(|i| (0..m).map(|j| &a[(i, j)]).collect())
        .collect();
    rows.serialize(s)
}

fn grid_rows_opt<S: serde::Serializer>(
    a: &Option<Array2<Fraction>>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match a {
        Some(a) => grid_rows(a, s),
        None => s.serialize_none(),
    }
}

/// Lays `rows` of `grid` out as a [`Pivot`] of `row` against `column`.
pub fn pivot(grid: &Grid, rows: &[Row], row: Param, column: Param) -> Result<Pivot> {
    if row == column {
        return Err(Error::syntax("give two different parameters")
            .at_param("pivot", Some(&format!("{0},{0}", row.name()))));
    }
    let values = |p: Param| -> Vec<i64> {
        grid.params
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(vec![p.neutral()], |(_, v)| v.clone())
    };
    for (p, v) in &grid.params {
        if *p != row && *p != column && v.len() > 1 {
            return Err(Error::conflict(format!(
                "{} takes {} values; a pivot needs every other parameter fixed",
                p.name(),
                v.len()
            ))
            .at_param("pivot", Some(&format!("{},{}", row.name(), column.name()))));
        }
    }
    let (rv, cv) = (values(row), values(column));
    let find = |r: i64, c: i64| rows.iter().find(|x| x.get(row) == r && x.get(column) == c);
    let mut mean = Array2::from_elem((rv.len(), cv.len()), Fraction::default());
    let mut disc: Array2<Option<Fraction>> = Array2::from_elem((rv.len(), cv.len()), None);
    for (i, &r) in rv.iter().enumerate() {
        for (j, &c) in cv.iter().enumerate() {
            let x = find(r, c)
                .ok_or_else(|| Error::conflict("a cell has no row").at_param("pivot", None))?;
            mean[(i, j)] = x.mean.clone();
            disc[(i, j)] = x.p_discard.clone();
        }
    }
    let p_discard = disc
        .iter()
        .all(Option::is_some)
        .then(|| disc.mapv(|p| p.unwrap_or_default()));
    Ok(Pivot {
        row: row.name(),
        column: column.name(),
        row_values: rv,
        column_values: cv,
        mean,
        p_discard,
    })
}
