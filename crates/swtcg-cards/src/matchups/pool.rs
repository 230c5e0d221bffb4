//! A pool's pairings solved once per distinct pair of units.
//!
//! Cards are grouped by their **signature**: every field of the card an
//! attack between two cards can read (name, side, type, arenas, subtype,
//! cost, speed, power, health, text). Only where a card was read from and
//! its set code are left out, so the ten copies of a set under other codes
//! are one signature, and a reprint with the same text is too. The units
//! of two cards are built from their two signatures together, since a
//! condition one card decides may depend on the other card: the pair of
//! signatures is the key, never one card alone.
//!
//! Two levels of sharing follow:
//! - a pair of signatures is built and solved once, however many pairs of
//!   cards have it (`PairTable`);
//! - pairs of signatures whose *units* come out the same (a vanilla
//!   trooper and another) share one solve ([`Solver`]).
//!
//! Both tables are bounded ([`super::Options::max_shared`],
//! [`super::Options::max_pairs`]): past the
//! bound a table starts anew, so memory stays constant whatever the pool;
//! an entry is forgotten only after every row that needed it was written.

use super::{Options, Solved, Summary, arenas, solve, units};
use crate::cards::Card;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use swtcg_engine::error::{Error, ErrorKind, Result};
use swtcg_engine::unit::Arena;
use swtcg_engine::unit::Unit;

/// A pairing's result (or why it has none), shared by every row that has
/// it, with a number of its own: a writer that formats each distinct result
/// once keeps its texts by that number.
#[derive(Debug)]
pub struct Shared {
    /// The result, or why there is none.
    pub outcome: Result<Solved>,
    /// This result's number: no other result of the process has it, so it
    /// names this one even after the result is dropped and its memory
    /// reused.
    pub id: u64,
}

impl Shared {
    fn new(outcome: Result<Solved>) -> Arc<Shared> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Arc::new(Shared {
            outcome,
            id: NEXT.fetch_add(1, Ordering::Relaxed),
        })
    }
}

/// Every field of a card an attack between two cards can read.
type SigKey<'c> = (
    &'c str,
    &'c str,
    &'c str,
    &'c [Arena],
    &'c str,
    &'c Option<crate::cards::read::Stat>,
    &'c Option<crate::cards::read::Stat>,
    Option<u32>,
    Option<u32>,
    &'c Option<String>,
    bool,
    &'c str,
);

fn sig_key(c: &Card) -> SigKey<'_> {
    (
        &c.name,
        &c.side,
        &c.card_type,
        &c.arenas,
        &c.subtype,
        &c.cost,
        &c.speed,
        c.power,
        c.health,
        &c.variable,
        c.subordinate,
        &c.text,
    )
}

/// The signatures of some lists of cards, numbered in one space: `of(l, i)`
/// is the signature of card `i` of list `l`; `rep[s]` a card that has it.
#[derive(Debug)]
pub struct Signatures<'c> {
    ids: Vec<Vec<u32>>,
    /// A card of each signature.
    pub rep: Vec<&'c Card>,
}

impl<'c> Signatures<'c> {
    /// Numbers the signatures of the cards of `lists`.
    pub fn of(lists: &[&[&'c Card]]) -> Signatures<'c> {
        let mut index: FxHashMap<SigKey<'c>, u32> = FxHashMap::default();
        let mut rep = Vec::new();
        let ids = lists
            .iter()
            .map(|list| {
                list.iter()
                    .map(|c| {
                        *index.entry(sig_key(c)).or_insert_with(|| {
                            rep.push(*c);
                            (rep.len() - 1) as u32
                        })
                    })
                    .collect()
            })
            .collect();
        Signatures { ids, rep }
    }

    /// The signature of card `i` of list `l`.
    pub fn id(&self, l: usize, i: usize) -> u32 {
        self.ids[l][i]
    }

    /// How many signatures there are.
    pub fn len(&self) -> usize {
        self.rep.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rep.is_empty()
    }
}

/// A pairing's units with names set aside: equal keys share one solve.
type Key = (Unit, Unit);

/// Solves attacks between cards in blocks on every core, pairs with the
/// same units sharing one solve (kept between blocks up to
/// `opts.max_shared`).
pub struct Solver<'o> {
    opts: &'o Options,
    shared: FxHashMap<Key, Arc<Shared>>,
    /// Distinct attacks solved so far.
    pub solved: usize,
}

impl<'o> Solver<'o> {
    /// A solver with nothing shared yet.
    pub fn new(opts: &'o Options) -> Solver<'o> {
        Solver {
            opts,
            shared: FxHashMap::default(),
            solved: 0,
        }
    }

    /// The result of each attack of `tasks` (attacker, defender, arena), in
    /// order. Every task gets exactly one result: from the shared table
    /// (looked up before it may be cleared), or from the solve this block
    /// runs for it, by index.
    pub fn block(&mut self, tasks: &[(&Card, &Card, Arena)]) -> Vec<Arc<Shared>> {
        let built: Vec<Result<Key>> = tasks
            .par_iter()
            .map(|(a, d, x)| {
                units(a, d, *x).map(|(mut ua, mut ud)| {
                    ua.name = "attacker".into();
                    ud.name = "defender".into();
                    (ua, ud)
                })
            })
            .collect();
        enum Slot {
            Known(Arc<Shared>),
            Solve(usize),
        }
        let mut todo: Vec<Key> = Vec::new();
        let mut index: FxHashMap<&Key, usize> = FxHashMap::default();
        let slots: Vec<Slot> = built
            .iter()
            .map(|b| match b {
                Err(e) => Slot::Known(Shared::new(Err(e.clone()))),
                Ok(k) => match self.shared.get(k) {
                    Some(v) => Slot::Known(v.clone()),
                    None => Slot::Solve(*index.entry(k).or_insert_with(|| {
                        todo.push(k.clone());
                        todo.len() - 1
                    })),
                },
            })
            .collect();
        drop(index);
        let opts = self.opts;
        let done: Vec<Arc<Shared>> = todo
            .par_iter()
            .map(|k| Shared::new(solve(&k.0, &k.1, opts)))
            .collect();
        self.solved += done.len();
        let out = slots
            .into_iter()
            .map(|s| match s {
                Slot::Known(r) => r,
                Slot::Solve(i) => done[i].clone(),
            })
            .collect();
        if self.shared.len() + done.len() > self.opts.max_shared {
            self.shared.clear();
        }
        self.shared.extend(todo.into_iter().zip(done));
        out
    }
}

/// One row of a listing: the two cards (with their places in the lists
/// given), the arena, and the shared result.
#[derive(Clone, Copy, Debug)]
pub struct RowRef<'a> {
    /// The attacking card.
    pub attacker: &'a Card,
    /// Its index in the attackers given.
    pub attacker_index: usize,
    /// The defending card.
    pub defender: &'a Card,
    /// Its index in the defenders given.
    pub defender_index: usize,
    /// The arena of the attack.
    pub arena: Arena,
    /// The result, shared with every row of the same pair of units.
    pub result: &'a Shared,
}

/// The arenas and results of one pair of signatures.
type PairEntry = Arc<[(Arena, Arc<Shared>)]>;

/// Most pairs of cards one block of a listing looks at (so that progress
/// and the time limit are checked often on a pool the table already
/// covers).
const MAX_BLOCK_PAIRS: usize = 1 << 20;

/// The results of pairs of signatures, bounded like the solver's table.
struct PairTable {
    map: FxHashMap<(u32, u32), PairEntry>,
}

/// Solves every pairing of `attackers` against `defenders` (never a card
/// against itself; in each arena they can fight in) and hands each row to
/// `sink` in order, attacker by attacker, as blocks are done; tells
/// `progress(done, total)` after each block. A pair of signatures is built
/// and solved once; every row gets exactly one result, or its reason.
pub fn stream_rows(
    attackers: &[&Card],
    defenders: &[&Card],
    opts: &Options,
    sink: &mut dyn FnMut(RowRef) -> std::io::Result<()>,
    mut progress: impl FnMut(usize, usize),
) -> Result<Summary> {
    let start = Instant::now();
    let total = super::check_work(attackers, defenders, opts, true)?;
    let sigs = Signatures::of(&[attackers, defenders]);
    let mut solver = Solver::new(opts);
    let mut table = PairTable {
        map: FxHashMap::default(),
    };
    let mut summary = Summary::default();
    // Attackers are taken in blocks: as many as need about `opts.block`
    // new pairs of signatures (so every core has work), or all of the
    // rest when the table already has their pairs.
    let mut next = 0;
    while next < attackers.len() {
        super::stopped(opts)?;
        if start.elapsed() > opts.time_limit {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "matchups: stopped after {} s with {} of {total} matchups written (raise the time limit, or select fewer cards)",
                    opts.time_limit.as_secs(),
                    summary.rows
                ),
            ));
        }
        // The pairs of signatures this block needs that the table lacks,
        // and their attacks.
        let mut missing: Vec<(u32, u32)> = Vec::new();
        let mut seen: FxHashMap<(u32, u32), ()> = FxHashMap::default();
        let mut tasks = Vec::new();
        let mut spans = Vec::new();
        let first = next;
        let mut pairs = 0usize;
        while next < attackers.len() && tasks.len() < opts.block.max(1) && pairs < MAX_BLOCK_PAIRS {
            let sa = sigs.id(0, next);
            for j in 0..defenders.len() {
                let key = (sa, sigs.id(1, j));
                if !table.map.contains_key(&key) && seen.insert(key, ()).is_none() {
                    missing.push(key);
                    let (a, d) = (sigs.rep[key.0 as usize], sigs.rep[key.1 as usize]);
                    let from = tasks.len();
                    for x in arenas(a, d) {
                        tasks.push((a, d, x));
                    }
                    spans.push(from..tasks.len());
                }
            }
            pairs += defenders.len();
            next += 1;
        }
        let block = first..next;
        // Their attacks, solved together.
        let results = solver.block(&tasks);
        let mut fresh: FxHashMap<(u32, u32), PairEntry> = FxHashMap::default();
        for (key, span) in missing.into_iter().zip(spans) {
            let entry: PairEntry = span
                .map(|t| (tasks[t].2, results[t].clone()))
                .collect::<Vec<_>>()
                .into();
            fresh.insert(key, entry);
        }
        // The block's rows, in order.
        for i in block {
            let a = attackers[i];
            let sa = sigs.id(0, i);
            for (j, d) in defenders.iter().enumerate() {
                if std::ptr::eq(a, *d) {
                    continue;
                }
                let key = (sa, sigs.id(1, j));
                let entry = match table.map.get(&key) {
                    Some(e) => e,
                    None => &fresh[&key],
                };
                for (x, r) in entry.iter() {
                    if let Err(e) = &r.outcome {
                        summary.errors += 1;
                        *summary.reasons.entry(e.to_string()).or_default() += 1;
                    }
                    sink(RowRef {
                        attacker: a,
                        attacker_index: i,
                        defender: d,
                        defender_index: j,
                        arena: *x,
                        result: r,
                    })
                    .map_err(|e| Error::new(ErrorKind::Io, format!("writing the matchups: {e}")))?;
                    summary.rows += 1;
                }
            }
        }
        // Only now may the table forget: every row of the block is written.
        if table.map.len() + fresh.len() > opts.max_pairs {
            table.map.clear();
        }
        table.map.extend(fresh);
        progress(summary.rows, total);
    }
    summary.solved = solver.solved;
    debug_assert_eq!(summary.rows, total, "every pairing has its row");
    Ok(summary)
}
