//! Card against card: one attack between two cards (or stacks) with
//! conditions switched on, and matrices of matchups for whole sets of cards,
//! in both directions, computed on every core.
//!
//! ```
//! use swtcg_odds::cards::CardDb;
//! use swtcg_odds::matchups::matrix;
//! use swtcg_odds::policy::Policy;
//! let db = CardDb::parse("Name\tType\tPower\tHealth\tText\nTrooper\tCharacter\t3\t3\tCritical Hit 1\nDroid\tCharacter\t4\t4\tArmor\n").unwrap();
//! let cards: Vec<_> = db.cards.iter().collect();
//! let m = matrix(&cards, &cards, &Policy::default()).unwrap();
//! assert_eq!(m.cells.len(), 2); // each against the other, not itself
//! let c = m.cell(0, 1).unwrap();
//! assert_eq!(c.attacker, "Trooper");
//! ```

use crate::attack::{ATTACKER, Side};
use crate::cards::stack::{Fielded, Switches, pair};
use crate::cards::{Arena, Card, CardDb, Piece};
use crate::dist::{fraction_string, to_f64};
use crate::error::{Error, Result};
use crate::policy::{Game, Policy};
use crate::scenario::{Scenario, ScenarioReport};
use crate::unit::{MAX_GAME_WORK, attack_work};
use num_rational::BigRational;
use serde_json::{Value, json};
use std::fmt::Write;

/// The arena two cards fight in: the first arena of the attacker's type line
/// that the defender shares.
pub fn common_arena(a: &Card, d: &Card) -> Option<Arena> {
    a.arenas.iter().find(|x| d.arenas.contains(x)).copied()
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
            return Err(Error::input(format!(
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

/// One matchup: expected damage and P(discard) of the defending card.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Attacking card.
    pub attacker: String,
    /// Defending card.
    pub defender: String,
    /// Expected counters on the defender.
    pub mean: BigRational,
    /// P(defender discarded).
    pub p_discard: BigRational,
    /// Expected counters back on the attacker (deflected, retaliation).
    pub back: BigRational,
}

/// A matrix of matchups.
#[derive(Clone, Debug)]
pub struct Matrix {
    /// Attacking cards, in order.
    pub attackers: Vec<String>,
    /// Defending cards, in order.
    pub defenders: Vec<String>,
    /// `grid[i][j]`: the index in `cells` of attacker i against defender j
    /// (`None` for a card against itself).
    pub grid: Vec<Vec<Option<usize>>>,
    /// The computed matchups.
    pub cells: Vec<Cell>,
}

impl Matrix {
    /// Attacker `i` against defender `j`.
    pub fn cell(&self, i: usize, j: usize) -> Option<&Cell> {
        self.grid.get(i)?.get(j)?.map(|k| &self.cells[k])
    }
}

fn solve_pair(a: &Card, d: &Card, policy: &Policy) -> Result<Cell> {
    let single = |c| Piece {
        cards: vec![c],
        pilot: None,
        power: None,
        health: None,
    };
    let (sa, sd) = (single(a), single(d));
    let arena = common_arena(a, d).or_else(|| a.arenas.first().copied());
    let report = duel(&sa, &sd, &Switches::default(), arena, policy)?.solve()?;
    Ok(cell(&report, &a.key(), &d.key()))
}

fn cell(r: &ScenarioReport, attacker: &str, defender: &str) -> Cell {
    let d = r.outcome.declared.defending;
    Cell {
        attacker: attacker.to_string(),
        defender: defender.to_string(),
        mean: r.damage(d).mean(),
        p_discard: r.discarded(d),
        back: r.damage(ATTACKER).mean(),
    }
}

/// Most matchups one matrix may hold.
pub const MAX_MATCHUPS: usize = 250_000;

/// Every attacker against every defender (a card never against itself),
/// conditions off, on all cores.
pub fn matrix(attackers: &[&Card], defenders: &[&Card], policy: &Policy) -> Result<Matrix> {
    let size = attackers.len().saturating_mul(defenders.len());
    if size > MAX_MATCHUPS {
        return Err(Error::input(format!(
            "{} attackers x {} defenders = {size} matchups; the limit is {MAX_MATCHUPS} (select fewer cards)",
            attackers.len(),
            defenders.len()
        )));
    }
    let mut pairs = Vec::new();
    let mut grid = vec![vec![None; defenders.len()]; attackers.len()];
    for (i, a) in attackers.iter().enumerate() {
        for (j, d) in defenders.iter().enumerate() {
            if !std::ptr::eq(*a, *d) {
                grid[i][j] = Some(pairs.len());
                pairs.push((*a, *d));
            }
        }
    }
    let dice = |c: &Card| c.power.unwrap_or(0) + 10;
    let work: u64 = pairs.iter().map(|(a, _)| attack_work(dice(a))).sum();
    if work > MAX_GAME_WORK {
        return Err(Error::input(format!(
            "{} matchups would take {work} units of work (matchups x (dice + 1)^2); the limit is {MAX_GAME_WORK} (select fewer cards)",
            pairs.len()
        )));
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = pairs.len().div_ceil(threads).max(1);
    let results: Vec<Result<Vec<Cell>>> = std::thread::scope(|s| {
        let handles: Vec<_> = pairs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || part.iter().map(|(a, d)| solve_pair(a, d, policy)).collect())
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::input("a matchup computation failed")))
            })
            .collect()
    });
    let mut cells = Vec::with_capacity(pairs.len());
    for r in results {
        cells.extend(r?);
    }
    Ok(Matrix {
        attackers: attackers.iter().map(|c| c.key()).collect(),
        defenders: defenders.iter().map(|c| c.key()).collect(),
        grid,
        cells,
    })
}

/// The matrices of both directions as Markdown: expected damage and
/// P(discard), rows attacking, columns defending (numbered, with a legend).
pub fn render_markdown(forward: &Matrix, backward: Option<&Matrix>) -> String {
    let mut out = String::new();
    let mut one = |m: &Matrix, title: &str| {
        let _ = writeln!(out, "### {title}\n");
        let _ = writeln!(out, "Columns (defenders):");
        for (j, d) in m.defenders.iter().enumerate() {
            let _ = writeln!(out, "{}. {d}", j + 1);
        }
        for (what, f) in [
            (
                "Expected damage",
                (|c: &Cell| format!("{:.2}", to_f64(&c.mean))) as fn(&Cell) -> String,
            ),
            ("P(defender discarded)", |c: &Cell| {
                format!("{:.0}%", 100.0 * to_f64(&c.p_discard))
            }),
        ] {
            let _ = writeln!(out, "\n{what}, row attacking column:\n");
            let mut header = String::from("| attacker |");
            let mut rule = String::from("|---|");
            for j in 0..m.defenders.len() {
                let _ = write!(header, " {} |", j + 1);
                rule.push_str("---:|");
            }
            let _ = writeln!(out, "{header}\n{rule}");
            for (i, a) in m.attackers.iter().enumerate() {
                let _ = write!(out, "| {a} |");
                for j in 0..m.defenders.len() {
                    let v = m.cell(i, j).map_or("—".to_string(), f);
                    let _ = write!(out, " {v} |");
                }
                out.push('\n');
            }
        }
        out.push('\n');
    };
    one(forward, "Attackers against defenders");
    if let Some(b) = backward {
        one(b, "Defenders against attackers");
    }
    out
}

/// Every cell of both directions as CSV.
pub fn render_csv(forward: &Matrix, backward: Option<&Matrix>) -> String {
    let mut out = String::from(
        "direction,attacker,defender,mean,mean_f64,p_discard,p_discard_f64,damage_back,damage_back_f64\n",
    );
    for (dir, m) in [("forward", Some(forward)), ("backward", backward)] {
        let Some(m) = m else { continue };
        for c in &m.cells {
            let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
            let _ = writeln!(
                out,
                "{dir},{},{},{},{},{},{},{},{}",
                q(&c.attacker),
                q(&c.defender),
                fraction_string(&c.mean),
                to_f64(&c.mean),
                fraction_string(&c.p_discard),
                to_f64(&c.p_discard),
                fraction_string(&c.back),
                to_f64(&c.back)
            );
        }
    }
    out
}

/// Every cell of both directions as JSON.
pub fn render_json(forward: &Matrix, backward: Option<&Matrix>) -> Value {
    let cells = |m: &Matrix| -> Vec<Value> {
        m.cells
            .iter()
            .map(|c| {
                json!({"attacker": c.attacker, "defender": c.defender,
                       "mean": fraction_string(&c.mean), "mean_f64": to_f64(&c.mean),
                       "p_discard": fraction_string(&c.p_discard), "p_discard_f64": to_f64(&c.p_discard),
                       "damage_back": fraction_string(&c.back), "damage_back_f64": to_f64(&c.back)})
            })
            .collect()
    };
    json!({"forward": cells(forward), "backward": backward.map(cells)})
}

/// The card file the documentation page is generated from: an extract of
/// the real *A New Hope* set kept in the repository.
pub const PAGE_SOURCE: &str = "tests/fixtures/lackey/ANH.txt";

/// The command that regenerates `docs/matchups.md`.
pub const PAGE_COMMAND: &str = "cargo run --release -- matchups --db tests/fixtures/lackey/ANH.txt --page --output docs/matchups.md";

/// The generated documentation page of matchups for a database read from
/// `source`: every unit card against every other, with the command that
/// regenerates it.
pub fn docs_page(db: &CardDb, source: &str) -> Result<String> {
    let command = PAGE_COMMAND;
    let cards: Vec<&Card> = db.units().collect();
    let m = matrix(&cards, &cards, &Policy::default())?;
    let mut out = String::new();
    let _ = writeln!(out, "# Matchups of sample cards\n");
    let _ = writeln!(
        out,
        "Generated from `{source}` ({} unit cards) by\n\n```sh\n{command}\n```\n\nand checked by `tests/it/docs.rs::matchups_page_is_fresh`. Every attack is solved exactly with both sides playing optimally for expected damage (conditional text switched off); the tables round the exact values.\n",
        cards.len()
    );
    out.push_str(&render_markdown(&m, None));
    Ok(out)
}
