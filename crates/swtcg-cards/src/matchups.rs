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

use crate::attack::{ATTACKER, Side};
use crate::cards::stack::{Fielded, Switches, pair};
use crate::cards::text::{Class, Effect};
use crate::cards::{Arena, Card, Piece};
use crate::dist::Fraction;
use crate::error::{Error, Result};
use crate::keywords::Keyword;
use crate::policy::{Game, Policy};
use crate::scenario::Scenario;
use crate::unit::Unit;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The arenas a card is in, then those it may attack into (Bombard: Ground,
/// Ion Cannon: Space, Barrage: Character).
pub fn reach(card: &Card) -> Vec<Arena> {
    let mut out = card.arenas.clone();
    for a in &card.abilities {
        if a.class != Class::Keyword {
            continue;
        }
        for e in &a.effects {
            if let Effect::Keyword { ability, .. } = e {
                let arena = match ability.keyword {
                    Keyword::Bombard(_) => Arena::Ground,
                    Keyword::IonCannon(_) => Arena::Space,
                    Keyword::Barrage(_) => Arena::Character,
                    _ => continue,
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
            return Err(Error::rules(format!(
                "{} ({}) and {} ({}) share no arena: they can't fight",
                attacker.top().name,
                attacker.top().card_type,
                defender.top().name,
                defender.top().card_type
            )));
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
            force: [None, None],
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
    /// Each side's Force budget (`None`: unlimited).
    pub force: [Option<u32>; 2],
    /// Pair units whatever their arenas (in the attacker's first arena
    /// when they share none), as before arenas were read.
    pub any_arena: bool,
    /// Stop with an error after this long.
    pub time_limit: Duration,
    /// Most solved pairings kept for sharing between blocks; beyond it the
    /// table starts anew, so memory stays bounded whatever the pool.
    pub max_shared: usize,
    /// Pairings solved together, on every core, before their rows are
    /// written.
    pub block: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            policy: Policy::default(),
            force: [None, None],
            any_arena: false,
            time_limit: Duration::from_secs(DEFAULT_TIME_LIMIT),
            max_shared: MAX_SHARED,
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

/// The numbers of one solved pairing.
#[derive(Clone, Debug)]
struct Solved {
    mean: Fraction,
    p_discard: Fraction,
    back: Fraction,
}

/// A pairing's units with names set aside: equal keys share one solve.
type Key = (Unit, Unit);

/// The default of [`Options::max_shared`].
pub const MAX_SHARED: usize = 30_000;

/// The default of [`Options::block`].
pub const BLOCK: usize = 4096;

/// Every pairing of `attackers` against `defenders` (never a card against
/// itself), in order, in each arena they can fight in.
fn pairings<'c>(
    attackers: &'c [&'c Card],
    defenders: &'c [&'c Card],
    any_arena: bool,
) -> impl Iterator<Item = (&'c Card, &'c Card, Arena)> + 'c {
    attackers.iter().flat_map(move |a| {
        defenders
            .iter()
            .filter(move |d| !std::ptr::eq(*a, **d))
            .flat_map(move |d| {
                let list = if any_arena {
                    common_arena(a, d)
                        .or_else(|| a.arenas.first().copied())
                        .into_iter()
                        .collect()
                } else {
                    arenas(a, d)
                };
                list.into_iter().map(move |x| (*a, *d, x))
            })
    })
}

/// The number of pairings [`stream`] will write, counted without pairing
/// them: cards are grouped by the arenas they are in and reach.
pub fn count(attackers: &[&Card], defenders: &[&Card], any_arena: bool) -> usize {
    let mut att: HashMap<(Vec<Arena>, Vec<Arena>), usize> = HashMap::new();
    for a in attackers {
        *att.entry((a.arenas.clone(), reach(a))).or_default() += 1;
    }
    let mut def: HashMap<Vec<Arena>, usize> = HashMap::new();
    for d in defenders {
        *def.entry(d.arenas.clone()).or_default() += 1;
    }
    let rows = |a_in: &[Arena], a_reach: &[Arena], d_in: &[Arena]| -> usize {
        if any_arena {
            usize::from(!a_in.is_empty() || d_in.iter().any(|x| a_reach.contains(x)))
        } else {
            d_in.iter().filter(|x| a_reach.contains(x)).count()
        }
    };
    let mut total = 0usize;
    for ((a_in, a_reach), na) in &att {
        for (d_in, nd) in &def {
            total = total.saturating_add(
                na.saturating_mul(*nd)
                    .saturating_mul(rows(a_in, a_reach, d_in)),
            );
        }
    }
    // A card never attacks itself.
    let in_defenders: std::collections::HashSet<*const Card> =
        defenders.iter().map(|d| *d as *const Card).collect();
    for a in attackers {
        if in_defenders.contains(&(*a as *const Card)) {
            total -= rows(&a.arenas, &reach(a), &a.arenas);
        }
    }
    total
}

/// Pairings per second no run reaches: a pool whose pairings would take
/// longer than the time limit even at this rate is refused before any
/// work.
pub const FASTEST_PAIRS_PER_SECOND: u64 = 500_000;

/// Refuses, before any work, a pool that could not finish within
/// `opts.time_limit`.
pub fn check_work(attackers: &[&Card], defenders: &[&Card], opts: &Options) -> Result<usize> {
    let n = count(attackers, defenders, opts.any_arena);
    let most = opts
        .time_limit
        .as_secs()
        .saturating_mul(FASTEST_PAIRS_PER_SECOND);
    if n as u64 > most {
        return Err(Error::limit(format!(
            "{n} matchups can't be solved within {} s: select fewer cards (or raise the limit)",
            opts.time_limit.as_secs()
        ))
        .at_param("time-limit", Some(&opts.time_limit.as_secs().to_string())));
    }
    Ok(n)
}

/// The two units of a pairing, built as `cards attack` builds them.
fn units(a: &Card, d: &Card, arena: Arena) -> Result<(Unit, Unit)> {
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

fn solve(a: &Unit, d: &Unit, opts: &Options) -> Result<Solved> {
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
/// Every pairing gets exactly one row, built from its own result: a
/// pairing's result is taken from the shared solves when the block is
/// planned (before the shared table may be cleared), or from the solve
/// the block itself runs, by index. There is no third way, so no pairing
/// can come back without a result; a pairing that truly can't be solved
/// gets its reason.
pub fn stream_with_progress(
    attackers: &[&Card],
    defenders: &[&Card],
    opts: &Options,
    sink: &mut dyn FnMut(MatchupRow) -> std::io::Result<()>,
    mut progress: impl FnMut(usize, usize),
) -> Result<Summary> {
    let start = Instant::now();
    let total = check_work(attackers, defenders, opts)?;
    let mut shared: HashMap<Key, Outcome> = HashMap::new();
    let mut summary = Summary::default();
    let mut it = pairings(attackers, defenders, opts.any_arena).peekable();
    while it.peek().is_some() {
        if start.elapsed() > opts.time_limit {
            return Err(Error::limit(format!(
                "matchups: stopped after {} s with {} of {total} matchups written (raise the time limit, or select fewer cards)",
                opts.time_limit.as_secs(),
                summary.rows
            )));
        }
        let block: Vec<(&Card, &Card, Arena)> = it.by_ref().take(opts.block.max(1)).collect();
        // The units of each pairing (in parallel).
        let built: Vec<Result<Key>> = block
            .par_iter()
            .map(|(a, d, x)| {
                units(a, d, *x).map(|(mut ua, mut ud)| {
                    ua.name = "attacker".into();
                    ud.name = "defender".into();
                    (ua, ud)
                })
            })
            .collect();
        // Each pairing's slot: its result already known (a reason, or a
        // shared solve, copied now), or the index of the solve this block
        // runs for it.
        let mut todo: Vec<Key> = Vec::new();
        let mut index: HashMap<&Key, usize> = HashMap::new();
        let slots: Vec<Slot> = built
            .iter()
            .map(|b| match b {
                Err(e) => Slot::Known(Err(e.clone())),
                Ok(k) => match shared.get(k) {
                    Some(v) => Slot::Known(v.clone()),
                    None => Slot::Solve(*index.entry(k).or_insert_with(|| {
                        todo.push(k.clone());
                        todo.len() - 1
                    })),
                },
            })
            .collect();
        drop(index);
        // Each distinct pair of units not solved yet (in parallel).
        let done: Vec<Outcome> = todo.par_iter().map(|k| solve(&k.0, &k.1, opts)).collect();
        summary.solved += done.len();
        for ((a, d, x), slot) in block.iter().zip(slots) {
            let result = match slot {
                Slot::Known(r) => r,
                Slot::Solve(i) => done[i].clone(),
            };
            let row = MatchupRow::of(a.key(), d.key(), *x, result);
            if let Some(e) = &row.error {
                summary.errors += 1;
                *summary.reasons.entry(e.clone()).or_default() += 1;
            }
            sink(row).map_err(|e| Error::write(format!("writing the matchups: {e}")))?;
            summary.rows += 1;
        }
        // Only now may the shared table forget: every row of this block has
        // its result.
        if shared.len() + done.len() > opts.max_shared {
            shared.clear();
        }
        shared.extend(todo.into_iter().zip(done));
        progress(summary.rows, total);
    }
    debug_assert_eq!(summary.rows, total, "every pairing has its row");
    Ok(summary)
}

/// A pairing's result, or why it has none.
type Outcome = Result<Solved>;

/// Where a pairing's result comes from within a block.
enum Slot {
    /// Known when the block was planned: a reason, or a shared solve.
    Known(Outcome),
    /// The solve of this index among the block's own.
    Solve(usize),
}

impl MatchupRow {
    /// The row of one pairing from its result.
    fn of(attacker: String, defender: String, arena: Arena, result: Outcome) -> MatchupRow {
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
    /// The run of the pairings the figures come from.
    pub summary: Summary,
}

/// Sums of one unit's pairings in one arena.
#[derive(Default)]
struct Sums {
    dealt: f64,
    discard: f64,
    attacking: usize,
    taken: f64,
    survive: f64,
    attacked: usize,
    missing: usize,
}

swtcg_engine::words!(SortBy {
    "damage-dealt" => SortBy::DamageDealt,
    "p-discard" => SortBy::PDiscard,
    "damage-taken" => SortBy::DamageTaken,
    "p-survive" => SortBy::PSurvive,
    "unit" => SortBy::Unit,
});

/// Ranks each unit of `units` against the field `field` in each arena it
/// fights in (both directions), sorted by `sort`. Every pairing of the
/// unit is counted: those with a result in its means, those without in its
/// `missing`.
pub fn rank(
    units: &[&Card],
    field: &[&Card],
    opts: &Options,
    sort: SortBy,
    progress: impl FnMut(usize, usize),
) -> Result<Rankings> {
    let mut acc: BTreeMap<(String, Arena), Sums> = BTreeMap::new();
    let keys: std::collections::HashSet<String> = units.iter().map(|c| c.key()).collect();
    let mut both: Vec<&Card> = units.to_vec();
    for c in field {
        if !both.iter().any(|u| std::ptr::eq(*u, *c)) {
            both.push(c);
        }
    }
    // Every unit is ranked in each arena it is in or reaches, even with no
    // pairing there (its figures then say why).
    for c in units {
        for a in reach(c) {
            acc.entry((c.key(), a)).or_default();
        }
    }
    let mut sink = |r: MatchupRow| -> std::io::Result<()> {
        let solved = match (&r.mean, &r.p_discard) {
            (Some(m), Some(p)) => Some((m.to_f64(), p.to_f64())),
            _ => None,
        };
        if keys.contains(&r.attacker) {
            let e = acc.entry((r.attacker.clone(), r.arena)).or_default();
            match solved {
                Some((m, p)) => {
                    e.dealt += m;
                    e.discard += p;
                    e.attacking += 1;
                }
                None => e.missing += 1,
            }
        }
        if keys.contains(&r.defender) {
            let e = acc.entry((r.defender.clone(), r.arena)).or_default();
            match solved {
                Some((m, p)) => {
                    e.taken += m;
                    e.survive += 1.0 - p;
                    e.attacked += 1;
                }
                None => e.missing += 1,
            }
        }
        Ok(())
    };
    let summary = stream_with_progress(&both, &both, opts, &mut sink, progress)?;
    let mut fields: BTreeMap<Arena, usize> = BTreeMap::new();
    for c in &both {
        for a in &c.arenas {
            *fields.entry(*a).or_default() += 1;
        }
    }
    let mut out: Vec<Ranked> = acc
        .into_iter()
        .map(|((unit, arena), v)| {
            let avg = |s: f64, n: usize| (n > 0).then(|| s / n as f64);
            let mut notes = Vec::new();
            if v.attacking == 0 && v.missing == 0 {
                notes.push("it can attack no unit of the field");
            }
            if v.attacked == 0 && v.missing == 0 {
                notes.push("no unit of the field can attack it");
            }
            Ranked {
                rank: 0,
                unit,
                arena,
                damage_dealt: avg(v.dealt, v.attacking),
                p_discard: avg(v.discard, v.attacking),
                damage_taken: avg(v.taken, v.attacked),
                p_survive: avg(v.survive, v.attacked),
                attacking: v.attacking,
                attacked: v.attacked,
                missing: v.missing,
                note: (!notes.is_empty()).then(|| notes.join("; ")),
            }
        })
        .collect();
    // Units without the sort column's figure go last in their arena.
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
    for r in &mut out {
        if last != Some(r.arena) {
            last = Some(r.arena);
            n = 0;
        }
        n += 1;
        r.rank = n;
    }
    Ok(Rankings {
        rows: out,
        fields,
        summary,
    })
}

/// The field line: each arena and its size.
pub fn field_line(fields: &BTreeMap<Arena, usize>) -> String {
    let parts: Vec<String> = fields
        .iter()
        .map(|(a, n)| format!("{} arena, {n} units", a.name()))
        .collect();
    format!("field: {}", parts.join("; "))
}

/// The command that regenerates `docs/rankings.md` from the shared card
/// files beside the repository.
pub const RANKINGS_COMMAND: &str = "cargo run --release -- matchups --db ../shared/reference/lackey --rank --output docs/rankings.md";
