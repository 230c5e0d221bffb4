//! Card against card: one attack between two cards (or stacks), and the
//! matchups of a whole card pool in both directions, streamed.
//!
//! Units attack only units of an arena they share (or reach: Bombard,
//! Ion Cannon, Barrage); a unit of two types fights in the arena of each
//! pairing, and both are listed. Every pairing is solved exactly as `cards
//! attack` solves it (the conditions the two cards decide applied, each
//! side's Force budget), pairs whose units are the same in everything the
//! attack reads share one solve, blocks of pairs are solved on every core,
//! and rows are written as they are computed: the work is bounded by time,
//! not by the number of pairs, and memory does not grow with it.
//!
//! ```
//! use swtcg_cards::cards::CardDb;
//! use swtcg_cards::matchups::{Options, stream};
//! let db = CardDb::parse("Name\tType\tPower\tHealth\tText\nTrooper\tCharacter\t3\t3\tCritical Hit 1\nDroid\tCharacter\t4\t4\tArmor\nFighter\tSpace\t2\t2\t\n").unwrap();
//! let cards: Vec<_> = db.units().collect();
//! let mut rows = Vec::new();
//! let summary = stream(&cards, &cards, &Options::default(), |r| {
//!     rows.push(r);
//!     Ok(())
//! })
//! .unwrap();
//! assert_eq!(rows.len(), 2); // the Characters against each other; the Fighter has no opponent
//! assert_eq!(summary.rows, 2);
//! assert_eq!(rows[0].attacker, "Trooper");
//! ```

use crate::cards::stack::{Fielded, Switches, pair};
use crate::cards::text::Effect;
use crate::cards::{Card, Piece};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;
use swtcg_engine::attack::{ATTACKER, Side};
use swtcg_engine::dist::Fraction;
use swtcg_engine::error::{Error, ErrorKind, Result};
use swtcg_engine::policy::{Game, Policy};
use swtcg_engine::scenario::Scenario;
use swtcg_engine::unit::Arena;
use swtcg_engine::unit::Unit;

pub mod pool;
pub mod rank;

pub use pool::{RowRef, Shared, Signatures, stream_rows};
pub use rank::{Figures, Ranked, Rankings, SortBy, field_line, rank};

/// The arenas a card is in, then those it may attack into (Bombard: Ground,
/// Ion Cannon: Space, Barrage: Character).
pub fn reach(card: &Card) -> Vec<Arena> {
    let mut out = card.arenas.clone();
    for a in &card.abilities {
        let crate::cards::text::Reading::Keyword(k) = &a.reading else {
            continue;
        };
        for e in &k.effects {
            if let Effect::Keyword { ability, .. } = e {
                let kind = ability.keyword.kind();
                let Some(arena) = [Arena::Ground, Arena::Space, Arena::Character]
                    .into_iter()
                    .find(|a| a.attacked_with() == kind)
                else {
                    continue;
                };
                if !out.contains(&arena) {
                    out.push(arena);
                }
            }
        }
    }
    out
}

/// The arenas `a` can attack `d` in: each arena `d` is in that `a` is in
/// or reaches.
pub fn arenas(a: &Card, d: &Card) -> Vec<Arena> {
    let r = reach(a);
    d.arenas.iter().filter(|x| r.contains(x)).copied().collect()
}

/// The arena two cards fight in by default: the first they share (or that
/// the attacker reaches).
pub fn common_arena(a: &Card, d: &Card) -> Option<Arena> {
    a.arenas
        .iter()
        .find(|x| d.arenas.contains(x))
        .copied()
        .or_else(|| arenas(a, d).first().copied())
}

/// The scenario of `attacker` attacking `defender` in `arena` (by default
/// their common arena), with the conditions the two cards decide applied
/// and those in `switches` switched on.
pub fn duel(
    attacker: &Piece,
    defender: &Piece,
    switches: &Switches,
    arena: Option<Arena>,
    policy: &Policy,
) -> Result<Scenario> {
    let arena = match arena.or_else(|| common_arena(attacker.top(), defender.top())) {
        Some(a) => a,
        None => {
            return Err(Error::new(
                ErrorKind::Rules,
                format!(
                    "{} ({}) and {} ({}) share no arena: they can't fight",
                    attacker.top().name,
                    attacker.top().card_type,
                    defender.top().name,
                    defender.top().card_type
                ),
            ));
        }
    };
    let p = pair(
        Fielded::Card(attacker),
        Fielded::Card(defender),
        arena,
        [0, 0],
        switches,
    )?;
    p.attacker.validate()?;
    p.defender.validate()?;
    Ok(Scenario {
        game: Game {
            units: vec![p.attacker, p.defender],
            sides: vec![Side::Attacking, Side::Defending],
            policy: *policy,
            force: swtcg_engine::policy::DEFAULT_BUDGETS,
        },
        ignored: Vec::new(),
        applied: p.applied,
        waiting: p.waiting,
    })
}

/// How matchups are computed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The policy of every attack.
    pub policy: Policy,
    /// Each side's Force budget (`None`: unlimited;
    /// [`swtcg_engine::policy::DEFAULT_BUDGETS`] by default).
    pub force: [Option<u32>; 2],
    /// Stop with an error after this long.
    pub time_limit: Duration,
    /// Stop with an `Interrupted` error at the next block once this holds a
    /// signal's number (a front-end's signal handler sets it): what was
    /// written so far stays written.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    /// Most solved pairs of units kept for sharing between blocks; beyond
    /// it the table starts anew, so memory stays bounded whatever the pool.
    pub max_shared: usize,
    /// Most pairs of card signatures whose results a listing keeps (each a
    /// few dozen bytes); beyond it the table starts anew.
    pub max_pairs: usize,
    /// Pairings solved together, on every core, before their rows are
    /// written.
    pub block: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            policy: Policy::default(),
            force: swtcg_engine::policy::DEFAULT_BUDGETS,
            time_limit: Duration::from_secs(DEFAULT_TIME_LIMIT),
            stop: None,
            max_shared: MAX_SHARED,
            max_pairs: MAX_PAIRS,
            block: BLOCK,
        }
    }
}

/// The default bound on the time of one matchups run, in seconds.
pub const DEFAULT_TIME_LIMIT: u64 = 600;

/// One matchup: the attack of one card on another in one arena, exactly
/// as `cards attack` solves it (or the one-line reason it can't be).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchupRow {
    /// The attacking card (`Name@SET` when the name is in several sets).
    pub attacker: String,
    /// The defending card.
    pub defender: String,
    /// The arena of the attack.
    pub arena: Arena,
    /// Expected counters placed on the defender.
    pub mean: Option<Fraction>,
    /// The same, as a float (display only).
    pub mean_f64: Option<f64>,
    /// P(the defender is discarded).
    pub p_discard: Option<Fraction>,
    /// The same, as a float.
    pub p_discard_f64: Option<f64>,
    /// Expected counters placed on the attacker (deflected, retaliation).
    pub damage_back: Option<Fraction>,
    /// The same, as a float.
    pub damage_back_f64: Option<f64>,
    /// Why this pairing was not solved (the card text it can't read, a
    /// bound), or empty.
    pub error: Option<String>,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Rows written.
    pub rows: usize,
    /// Attacks solved (the others shared a solve).
    pub solved: usize,
    /// Rows without a result (each with its reason).
    pub errors: usize,
    /// How many rows gave each reason.
    pub reasons: BTreeMap<String, usize>,
}

/// The numbers of one solved pairing, exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Expected counters placed on the defender.
    pub mean: Fraction,
    /// P(the defender is discarded).
    pub p_discard: Fraction,
    /// Expected counters placed on the attacker.
    pub back: Fraction,
}

/// The default of [`Options::max_shared`].
pub const MAX_SHARED: usize = 30_000;

/// The default of [`Options::max_pairs`].
pub const MAX_PAIRS: usize = 1_000_000;

/// The default of [`Options::block`].
pub const BLOCK: usize = 4096;

/// The error of a run its user stopped (`signal`: `SIGINT`, `SIGTERM`).
fn interrupted(signal: &str) -> Error {
    Error::new(ErrorKind::Interrupted, format!("stopped by {signal}"))
}

/// `Err(interrupted)` once `opts.stop` holds a signal's number.
pub(crate) fn stopped(opts: &Options) -> Result<()> {
    let signal = opts
        .stop
        .as_ref()
        .map_or(0, |s| s.load(std::sync::atomic::Ordering::Relaxed));
    match signal {
        // A front-end's poll (Python's Ctrl-C) or a deadline.
        0 if swtcg_engine::cancel::expired() => Err(Error::cancelled()),
        0 => Ok(()),
        2 => Err(interrupted("SIGINT (Ctrl-C)").about("matchups")),
        15 => Err(interrupted("SIGTERM").about("matchups")),
        n => Err(interrupted(&format!("signal {n}")).about("matchups")),
    }
}

/// The number of pairings [`stream`] will write, counted without pairing
/// them: cards are grouped by the arenas they are in and reach.
pub fn count(attackers: &[&Card], defenders: &[&Card]) -> usize {
    let mut total = pairings_of(attackers, defenders);
    // A card never attacks itself.
    let in_defenders: std::collections::HashSet<*const Card> =
        defenders.iter().map(|d| *d as *const Card).collect();
    for a in attackers {
        if in_defenders.contains(&(*a as *const Card)) {
            total -= rows_of(&reach(a), &a.arenas);
        }
    }
    total
}

/// The arenas an attacker that reaches `a_reach` meets a defender in
/// `d_in`.
fn rows_of(a_reach: &[Arena], d_in: &[Arena]) -> usize {
    d_in.iter().filter(|x| a_reach.contains(x)).count()
}

/// Every attacker against every defender, in each arena they meet in
/// (a card against itself included).
fn pairings_of(attackers: &[&Card], defenders: &[&Card]) -> usize {
    let mut att: HashMap<Vec<Arena>, usize> = HashMap::new();
    for a in attackers {
        *att.entry(reach(a)).or_default() += 1;
    }
    let mut def: HashMap<Vec<Arena>, usize> = HashMap::new();
    for d in defenders {
        *def.entry(d.arenas.clone()).or_default() += 1;
    }
    let mut total = 0usize;
    for (a_reach, na) in &att {
        for (d_in, nd) in &def {
            total = total.saturating_add(
                na.saturating_mul(*nd)
                    .saturating_mul(rows_of(a_reach, d_in)),
            );
        }
    }
    total
}

/// Distinct solves per second no run reaches (runs reach about 70 000 on
/// one core): a pair of card signatures is built and solved once,
/// however many pairings share it.
pub const FASTEST_SOLVES_PER_SECOND: u64 = 500_000;

/// Rows per second no listing reaches (runs write 2 to 6 million).
pub const FASTEST_ROWS_PER_SECOND: u64 = 100_000_000;

/// What a run of matchups will do: its pairings, and the distinct pairs
/// of signatures it solves (at most one solve per arena of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// Pairings (rows of a listing).
    pub pairings: usize,
    /// Attacks solved: one per arena of each distinct pair of signatures.
    pub solves: usize,
}

/// Counts the work of pairing `attackers` with `defenders`: the rows, and
/// the solves of their distinct signatures, without pairing them.
pub fn work(attackers: &[&Card], defenders: &[&Card]) -> Work {
    let sigs = pool::Signatures::of(&[attackers, defenders]);
    let distinct = |l: usize, list: &[&Card]| -> Vec<u32> {
        let mut ids: Vec<u32> = (0..list.len()).map(|i| sigs.id(l, i)).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let (ia, id) = (distinct(0, attackers), distinct(1, defenders));
    let reps = |ids: &[u32]| -> Vec<&Card> { ids.iter().map(|s| sigs.rep[*s as usize]).collect() };
    let mut solves = pairings_of(&reps(&ia), &reps(&id));
    // A signature meets itself only when two cards share it (a card never
    // attacks itself).
    let mut cards_of: FxHashMap<u32, FxHashSet<*const Card>> = FxHashMap::default();
    for (l, list) in [attackers, defenders].into_iter().enumerate() {
        for (i, c) in list.iter().enumerate() {
            cards_of
                .entry(sigs.id(l, i))
                .or_default()
                .insert(*c as *const Card);
        }
    }
    for s in &ia {
        if id.binary_search(s).is_ok() && cards_of[s].len() == 1 {
            let a = sigs.rep[*s as usize];
            solves -= rows_of(&reach(a), &a.arenas);
        }
    }
    Work {
        pairings: count(attackers, defenders),
        solves,
    }
}

/// Refuses, before any work, a pool that could not finish within
/// `opts.time_limit` even at the fastest rates: its distinct solves, and
/// its rows when `rows` are written (a ranking folds signatures, never
/// rows).
pub fn check_work(
    attackers: &[&Card],
    defenders: &[&Card],
    opts: &Options,
    rows: bool,
) -> Result<usize> {
    let w = work(attackers, defenders);
    let limit = opts.time_limit.as_secs_f64();
    let least = w.solves as f64 / FASTEST_SOLVES_PER_SECOND as f64
        + if rows {
            w.pairings as f64 / FASTEST_ROWS_PER_SECOND as f64
        } else {
            0.0
        };
    if least > limit {
        return Err(Error::new(ErrorKind::Limit, format!(
            "{} matchups ({} distinct solves) can't be solved within {} s: they need at least {least:.2} s; select fewer cards (or raise the limit)",
            w.pairings,
            w.solves,
            opts.time_limit.as_secs()
        ))
        .at_param("time-limit", Some(&opts.time_limit.as_secs().to_string())));
    }
    Ok(w.pairings)
}

/// The two units of a pairing, built as `cards attack` builds them.
pub(crate) fn units(a: &Card, d: &Card, arena: Arena) -> Result<(Unit, Unit)> {
    let one = |c| Piece {
        cards: vec![c],
        pilot: None,
        power: None,
        health: None,
    };
    let (pa, pd) = (one(a), one(d));
    let p = pair(
        Fielded::Card(&pa),
        Fielded::Card(&pd),
        arena,
        [0, 0],
        &Switches::default(),
    )?;
    p.attacker.validate()?;
    p.defender.validate()?;
    Ok((p.attacker, p.defender))
}

pub(crate) fn solve(a: &Unit, d: &Unit, opts: &Options) -> Result<Solved> {
    let game = Game {
        units: vec![a.clone(), d.clone()],
        sides: vec![Side::Attacking, Side::Defending],
        policy: opts.policy,
        force: opts.force,
    };
    let report = Scenario::new(game).solve()?;
    let dd = report.outcome.declared.defending;
    Ok(Solved {
        mean: Fraction(report.damage(dd).mean()),
        p_discard: Fraction(report.discarded(dd)),
        back: Fraction(report.damage(ATTACKER).mean()),
    })
}

/// Solves every pairing of `attackers` against `defenders` and hands each
/// row to `sink` in order, as blocks are done. Stops with an error naming
/// how far it got when `opts.time_limit` is reached, or when `sink` fails.
pub fn stream(
    attackers: &[&Card],
    defenders: &[&Card],
    opts: &Options,
    mut sink: impl FnMut(MatchupRow) -> std::io::Result<()>,
) -> Result<Summary> {
    stream_with_progress(attackers, defenders, opts, &mut sink, |_, _| {})
}

/// [`stream`], telling `progress(done, total)` after each block.
///
/// Every pairing gets exactly one row, built from its own result (see
/// [`pool::stream_rows`], which this wraps: a pair of card signatures is
/// solved once, and pairs with the same units share that solve); a
/// pairing that truly can't be solved gets its reason.
pub fn stream_with_progress(
    attackers: &[&Card],
    defenders: &[&Card],
    opts: &Options,
    sink: &mut dyn FnMut(MatchupRow) -> std::io::Result<()>,
    progress: impl FnMut(usize, usize),
) -> Result<Summary> {
    stream_rows(
        attackers,
        defenders,
        opts,
        &mut |r: RowRef| sink(MatchupRow::of_ref(&r)),
        progress,
    )
}

impl MatchupRow {
    /// The row of a listing's row.
    pub fn of_ref(r: &RowRef) -> MatchupRow {
        MatchupRow::of(
            r.attacker.key(),
            r.defender.key(),
            r.arena,
            r.result.outcome.clone(),
        )
    }

    /// The row of one pairing from its result.
    fn of(attacker: String, defender: String, arena: Arena, result: Result<Solved>) -> MatchupRow {
        match result {
            Ok(s) => MatchupRow {
                attacker,
                defender,
                arena,
                mean_f64: Some(s.mean.to_f64()),
                mean: Some(s.mean),
                p_discard_f64: Some(s.p_discard.to_f64()),
                p_discard: Some(s.p_discard),
                damage_back_f64: Some(s.back.to_f64()),
                damage_back: Some(s.back),
                error: None,
            },
            Err(e) => MatchupRow {
                attacker,
                defender,
                arena,
                mean: None,
                mean_f64: None,
                p_discard: None,
                p_discard_f64: None,
                damage_back: None,
                damage_back_f64: None,
                error: Some(e.to_string()),
            },
        }
    }
}
