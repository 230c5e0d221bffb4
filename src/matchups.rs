//! Card against card: one attack between two cards (or stacks) with
//! conditions switched on, and matrices of matchups for whole sets of cards,
//! in both directions, computed on every core.
//!
//! ```
//! use swtcg_odds::cards::CardDb;
//! use swtcg_odds::matchups::{matrix, Side2};
//! use swtcg_odds::policy::Policy;
//! let db = CardDb::parse("Name\tPower\tHealth\tText\nTrooper\t3\t3\tCritical Hit 1\nDroid\t4\t4\tArmor\n").unwrap();
//! let cards: Vec<_> = db.cards.iter().collect();
//! let m = matrix(&cards, &cards, &Policy::default()).unwrap();
//! assert_eq!(m.cells.len(), 2); // each against the other, not itself
//! let c = m.cell(0, 1).unwrap();
//! assert_eq!(c.attacker, "Trooper");
//! let _ = Side2::Attacker;
//! ```

use crate::attack::{ATTACKER, Side};
use crate::cards::{Card, CardDb, Stacked};
use crate::dist::{fraction_string, to_f64};
use crate::error::{Error, Result};
use crate::policy::{Game, Policy};
use crate::scenario::{Scenario, ScenarioReport};
use crate::unit::{Keywords, MAX_GAME_WORK, attack_work};
use ndarray::Array2;
use num_rational::BigRational;
use serde_json::{Value, json};
use std::fmt::Write;

/// Which of the two cards a condition belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side2 {
    /// The attacking card.
    Attacker,
    /// The defending card.
    Defender,
}

/// Resolves `--condition` arguments against the two cards' conditions:
/// `a:N` / `d:N` by index (from 1, as `cards find` lists them), or text
/// contained in exactly the conditions meant (case-insensitive). A stack's
/// own conditions (`As long as X is in ...'s stack`, with X beneath) are on
/// by themselves. Returns the indices switched on for the attacker and the
/// defender.
pub fn resolve_conditions(
    attacker: &Stacked,
    defender: &Stacked,
    args: &[String],
) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut on = (attacker.met_conditions(), defender.met_conditions());
    for arg in args {
        let by_index = arg.split_once(':').and_then(|(side, n)| {
            Some((
                side.trim().to_ascii_lowercase(),
                n.trim().parse::<usize>().ok()?,
            ))
        });
        if let Some((side, n)) = by_index
            && (side == "a" || side == "d")
        {
            let (stack, list) = if side == "a" {
                (attacker, &mut on.0)
            } else {
                (defender, &mut on.1)
            };
            if n == 0 || n > stack.conditions().len() {
                return Err(Error::input(format!(
                    "--condition {arg}: {} has {} condition(s)",
                    stack.top().name,
                    stack.conditions().len()
                )));
            }
            list.push(n - 1);
            continue;
        }
        let needle = arg.to_lowercase();
        let mut found = false;
        for (stack, list) in [(attacker, &mut on.0), (defender, &mut on.1)] {
            for (i, c) in stack.conditions().iter().enumerate() {
                if c.text.to_lowercase().contains(&needle) {
                    list.push(i);
                    found = true;
                }
            }
        }
        if !found {
            return Err(Error::input(format!(
                "--condition '{arg}' matches no condition of {} or {} (see `cards find`)",
                attacker.top().name,
                defender.top().name
            )));
        }
    }
    on.0.sort_unstable();
    on.0.dedup();
    on.1.sort_unstable();
    on.1.dedup();
    Ok(on)
}

/// The scenario of `attacker` attacking `defender`, conditions switched on.
pub fn duel(
    attacker: &Stacked,
    defender: &Stacked,
    on: &(Vec<usize>, Vec<usize>),
    policy: &Policy,
) -> Result<Scenario> {
    let mut a = attacker.unit(&on.0, defender.power_for_attacker(&on.1));
    let mut d = defender.unit(&on.1, 0);
    if a.name == d.name {
        a.name = format!("{} (attacking)", a.name);
        d.name = format!("{} (defending)", d.name);
    }
    Ok(Scenario {
        game: Game {
            units: vec![a, d],
            sides: vec![Side::Attacking, Side::Defending],
            policy: *policy,
        },
        ignored: Vec::new(),
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
    /// `grid[[i, j]]`: the index in `cells` of attacker i against defender j
    /// (`None` for a card against itself).
    pub grid: Array2<Option<usize>>,
    /// The computed matchups.
    pub cells: Vec<Cell>,
}

impl Matrix {
    /// Attacker `i` against defender `j`.
    pub fn cell(&self, i: usize, j: usize) -> Option<&Cell> {
        self.grid[[i, j]].map(|k| &self.cells[k])
    }
}

fn solve_pair(a: &Card, d: &Card, policy: &Policy) -> Result<Cell> {
    let (sa, sd) = (Stacked::new(vec![a])?, Stacked::new(vec![d])?);
    let report = duel(&sa, &sd, &(vec![], vec![]), policy)?.solve()?;
    Ok(cell(&report, &a.name, &d.name))
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
    let mut grid = Array2::from_elem((attackers.len(), defenders.len()), None);
    for (i, a) in attackers.iter().enumerate() {
        for (j, d) in defenders.iter().enumerate() {
            if !std::ptr::eq(*a, *d) {
                grid[[i, j]] = Some(pairs.len());
                pairs.push((*a, *d));
            }
        }
    }
    let dice = |c: &Card| c.power + Keywords::from_abilities(&c.read.abilities).fury;
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
        attackers: attackers.iter().map(|c| c.name.clone()).collect(),
        defenders: defenders.iter().map(|c| c.name.clone()).collect(),
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

/// The sample card file the documentation page is generated from.
pub const PAGE_SOURCE: &str = "../shared/reference/cards-sample.tsv";

/// The command that regenerates `docs/matchups.md`.
pub const PAGE_COMMAND: &str = "cargo run --release -- matchups --db ../shared/reference/cards-sample.tsv --page > docs/matchups.md";

/// The generated documentation page of matchups for a database read from
/// `source`: every unit card against every other, with the command that
/// regenerates it.
pub fn docs_page(db: &CardDb, source: &str) -> Result<String> {
    let command = PAGE_COMMAND;
    let cards: Vec<&Card> = db.cards.iter().collect();
    let m = matrix(&cards, &cards, &Policy::default())?;
    let mut out = String::new();
    let _ = writeln!(out, "# Matchups of the sample cards\n");
    let _ = writeln!(
        out,
        "Generated from `{source}` ({} unit cards) by\n\n```sh\n{command}\n```\n\nand checked by `tests/docs.rs::matchups_page_is_fresh`. Every attack is solved exactly with both sides playing optimally for expected damage (conditional text switched off); the tables round the exact values.\n",
        cards.len()
    );
    out.push_str(&render_markdown(&m, None));
    Ok(out)
}
