//! Tables over parameter ranges: expected damage and P(discard) for every
//! combination of the given values, as Markdown, CSV or JSON.
//!
//! Ranges are written `N`, `A..B` (inclusive), or comma lists of those
//! (`0,2..4`); on/off parameters take `on`, `off` or `both`.
//!
//! ```
//! use swtcg_odds::table::{Grid, parse_range};
//! let mut grid = Grid::default();
//! grid.power = parse_range("--power", "1..3").unwrap();
//! let rows = grid.rows().unwrap();
//! assert_eq!(rows.len(), 3);
//! assert_eq!(rows[2].mean.to_string(), "3/2"); // 3 dice hitting on 4+
//! ```

use crate::attack::{DEFENDER, resolve_from_roll, roll, total_dice};
use crate::dice::Roll;
use crate::dist::{Joint, Num, Weight, fits_u128};
use crate::dist::{fraction_string, to_f64};
use crate::error::{Error, Result};
use crate::unit::{MAX_STATIC_WORK, Unit, attack_work};
use num_rational::BigRational;
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// Most values one range may expand to.
pub const MAX_RANGE_LEN: usize = 10_000;
/// Most rows one table may have.
pub const MAX_ROWS: usize = 200_000;

/// Parses a range of integers for the flag `flag`: `N`, `A..B` or `A..=B`
/// (both inclusive), or a comma list of those.
pub fn parse_range<T: TryFrom<i64>>(flag: &str, text: &str) -> Result<Vec<T>> {
    let bad = |why: &str| {
        Error::input(format!(
            "{flag}: malformed range '{text}': {why} (expected N, A..B or a comma list such as 0,2..4)"
        ))
    };
    let num = |s: &str| -> Result<i64> {
        s.trim()
            .parse::<i64>()
            .map_err(|_| bad(&format!("'{}' is not a whole number", s.trim())))
    };
    let mut out = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(bad("empty item"));
        }
        let (lo, hi) = match item.split_once("..") {
            Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
            None => {
                let v = num(item)?;
                (v, v)
            }
        };
        if lo > hi {
            return Err(bad(&format!("{lo} is above {hi}")));
        }
        if (hi - lo) as usize >= MAX_RANGE_LEN || out.len() + ((hi - lo) as usize) > MAX_RANGE_LEN {
            return Err(bad(&format!("more than {MAX_RANGE_LEN} values")));
        }
        for v in lo..=hi {
            let t =
                T::try_from(v).map_err(|_| bad(&format!("{v} is out of range for this flag")))?;
            out.push(t);
        }
    }
    Ok(out)
}

/// Parses an on/off parameter: `on`, `off`, `both` (or `yes`/`no`,
/// `true`/`false`, `1`/`0`), or a comma list of those.
pub fn parse_switch(flag: &str, text: &str) -> Result<Vec<bool>> {
    let mut out = Vec::new();
    for item in text.split(',') {
        match item.trim().to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" | "1" => out.push(true),
            "off" | "no" | "false" | "0" => out.push(false),
            "both" => out.extend([false, true]),
            other => {
                return Err(Error::input(format!(
                    "{flag}: '{other}' is not on, off or both"
                )));
            }
        }
    }
    Ok(out)
}

/// The parameter ranges of a table. Every combination is one row.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Attacker's power.
    pub power: Vec<u32>,
    /// Attacker's Accuracy.
    pub accuracy: Vec<i32>,
    /// Defender has Armor.
    pub armor: Vec<bool>,
    /// Defender's Shields.
    pub shields: Vec<u32>,
    /// Attacker's Fury.
    pub fury: Vec<u32>,
    /// Attacker's Critical Hit.
    pub crit: Vec<u32>,
    /// Defender's Parry.
    pub parry: Vec<u32>,
    /// Defender's Evade.
    pub evade: Vec<u32>,
    /// Defender's Deflect.
    pub deflect: Vec<u32>,
    /// Defender's health (`None`: unknown, no discard column).
    pub health: Vec<Option<u32>>,
}

impl Default for Grid {
    /// Every parameter at its neutral value: power 1, nothing else.
    fn default() -> Self {
        Grid {
            power: vec![1],
            accuracy: vec![0],
            armor: vec![false],
            shields: vec![0],
            fury: vec![0],
            crit: vec![0],
            parry: vec![0],
            evade: vec![0],
            deflect: vec![0],
            health: vec![None],
        }
    }
}

/// One row: the parameters and the exact results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Attacker's power.
    pub power: u32,
    /// Attacker's Accuracy.
    pub accuracy: i32,
    /// Defender has Armor.
    pub armor: bool,
    /// Defender's Shields.
    pub shields: u32,
    /// Attacker's Fury.
    pub fury: u32,
    /// Attacker's Critical Hit.
    pub crit: u32,
    /// Defender's Parry.
    pub parry: u32,
    /// Defender's Evade.
    pub evade: u32,
    /// Defender's Deflect.
    pub deflect: u32,
    /// Defender's health.
    pub health: Option<u32>,
    /// Expected counters placed on the defender.
    pub mean: BigRational,
    /// P(the defender is discarded), when health is given.
    pub p_discard: Option<BigRational>,
}

impl Row {
    /// The two units this row describes.
    pub fn units(&self) -> (Unit, Unit) {
        let mut a = Unit::new("attacker", self.power);
        a.keywords.accuracy = self.accuracy;
        a.keywords.fury = self.fury;
        a.keywords.crit = self.crit;
        let mut d = Unit::new("defender", 0);
        d.keywords.armor = self.armor;
        d.keywords.shields = self.shields;
        d.keywords.parry = self.parry;
        d.keywords.evade = self.evade;
        d.keywords.deflect = self.deflect;
        d.health = self.health;
        (a, d)
    }
}

impl Grid {
    /// The default table, the first thing a newcomer sees: expected damage and
    /// P(discard) of power 1 to 10 against a health-5 defender, without and
    /// with Armor.
    pub fn newcomer() -> Self {
        Grid {
            power: (1..=10).collect(),
            armor: vec![false, true],
            health: vec![Some(5)],
            ..Grid::default()
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        [
            self.power.len(),
            self.accuracy.len(),
            self.armor.len(),
            self.shields.len(),
            self.fury.len(),
            self.crit.len(),
            self.parry.len(),
            self.evade.len(),
            self.deflect.len(),
            self.health.len(),
        ]
        .iter()
        .fold(1usize, |acc, &n| acc.saturating_mul(n))
    }

    /// Whether the grid has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rows' parameters, power varying slowest, without results.
    fn params(&self) -> Vec<Row> {
        let zero = BigRational::from_integer(0.into());
        let mut out = Vec::with_capacity(self.len());
        for &power in &self.power {
            for &accuracy in &self.accuracy {
                for &armor in &self.armor {
                    for &shields in &self.shields {
                        for &fury in &self.fury {
                            for &crit in &self.crit {
                                for &parry in &self.parry {
                                    for &evade in &self.evade {
                                        for &deflect in &self.deflect {
                                            for &health in &self.health {
                                                out.push(Row {
                                                    power,
                                                    accuracy,
                                                    armor,
                                                    shields,
                                                    fury,
                                                    crit,
                                                    parry,
                                                    evade,
                                                    deflect,
                                                    health,
                                                    mean: zero.clone(),
                                                    p_discard: None,
                                                });
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Computes every row exactly. Refuses grids of more than [`MAX_ROWS`]
    /// rows and out-of-range values (naming them).
    pub fn rows(&self) -> Result<Vec<Row>> {
        if self.len() > MAX_ROWS {
            return Err(Error::input(format!(
                "the table would have {} rows; the limit is {MAX_ROWS}",
                self.len()
            )));
        }
        let mut rows = self.params();
        let work: u64 = rows.iter().map(|r| attack_work(r.power + r.fury)).sum();
        if work > MAX_STATIC_WORK {
            return Err(Error::input(format!(
                "the table would take {work} units of work (rows x (dice + 1)^2); the limit is {MAX_STATIC_WORK}: fewer rows or less power"
            )));
        }
        for row in &rows {
            let (a, d) = row.units();
            a.validate()?;
            d.validate()?;
        }
        // Rows are computed on both cores; within a thread, consecutive rows
        // with the same dice share one roll.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = rows.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            for part in rows.chunks_mut(chunk) {
                s.spawn(move || fill(part));
            }
        });
        Ok(rows)
    }
}

/// Computes the results of consecutive rows, reusing the attack roll while
/// the dice parameters stay the same.
fn fill(rows: &mut [Row]) {
    fn go<W: Weight>(rows: &mut [Row]) {
        // (power, accuracy, armor, shields, fury) and its roll.
        type DiceKey = (u32, i32, bool, u32, u32);
        let mut cached: Option<(DiceKey, Joint<Roll, W>)> = None;
        for row in rows {
            let (a, d) = row.units();
            let key = (row.power, row.accuracy, row.armor, row.shields, row.fury);
            let roll = match &cached {
                Some((k, r)) if *k == key => r,
                _ => &cached.insert((key, roll::<W>(&a, &d))).1,
            };
            let tallies = resolve_from_roll(&a, &d, roll);
            let remaining = d.remaining_health();
            row.mean = tallies.marginal(|t| t.damage[DEFENDER] as i64).mean();
            row.p_discard = remaining.map(|r| tallies.prob(|t| u32::from(t.damage[DEFENDER]) >= r));
        }
    }
    let small = rows.iter().all(|r| {
        let (a, d) = r.units();
        fits_u128(total_dice(&a, &d))
    });
    if small {
        go::<u128>(rows)
    } else {
        go::<Num>(rows)
    }
}

/// Output format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A Markdown table for people.
    Markdown,
    /// Comma-separated values, every parameter a column.
    Csv,
    /// A JSON array of row objects.
    Json,
}

const PARAMS: [&str; 10] = [
    "power", "accuracy", "armor", "shields", "fury", "crit", "parry", "evade", "deflect", "health",
];

fn param_values(r: &Row) -> [String; 10] {
    let sw = |b: bool| if b { "on" } else { "off" }.to_string();
    [
        r.power.to_string(),
        r.accuracy.to_string(),
        sw(r.armor),
        r.shields.to_string(),
        r.fury.to_string(),
        r.crit.to_string(),
        r.parry.to_string(),
        r.evade.to_string(),
        r.deflect.to_string(),
        r.health.map_or(String::new(), |h| h.to_string()),
    ]
}

/// The JSON value of one row: every parameter, `mean` (a fraction string)
/// and `mean_f64`, and `p_discard` / `p_discard_f64` when health is given.
pub fn row_json(r: &Row) -> Value {
    let mut m = Map::new();
    m.insert("power".into(), json!(r.power));
    m.insert("accuracy".into(), json!(r.accuracy));
    m.insert("armor".into(), json!(r.armor));
    m.insert("shields".into(), json!(r.shields));
    m.insert("fury".into(), json!(r.fury));
    m.insert("crit".into(), json!(r.crit));
    m.insert("parry".into(), json!(r.parry));
    m.insert("evade".into(), json!(r.evade));
    m.insert("deflect".into(), json!(r.deflect));
    m.insert("health".into(), json!(r.health));
    m.insert("mean".into(), json!(fraction_string(&r.mean)));
    m.insert("mean_f64".into(), json!(to_f64(&r.mean)));
    if let Some(p) = &r.p_discard {
        m.insert("p_discard".into(), json!(fraction_string(p)));
        m.insert("p_discard_f64".into(), json!(to_f64(p)));
    }
    Value::Object(m)
}

/// Renders rows in the given format. Markdown shows only the parameters that
/// vary or differ from neutral; CSV and JSON show them all.
pub fn render(rows: &[Row], format: Format) -> String {
    match format {
        Format::Json => {
            let arr: Vec<Value> = rows.iter().map(row_json).collect();
            serde_json::to_string_pretty(&arr).expect("JSON of plain values") + "\n"
        }
        Format::Csv => {
            let mut out = PARAMS.join(",");
            out.push_str(",mean,mean_f64,p_discard,p_discard_f64\n");
            for r in rows {
                let (pd, pdf) = match &r.p_discard {
                    Some(p) => (fraction_string(p), format!("{}", to_f64(p))),
                    None => (String::new(), String::new()),
                };
                let _ = writeln!(
                    out,
                    "{},{},{},{},{}",
                    param_values(r).join(","),
                    fraction_string(&r.mean),
                    to_f64(&r.mean),
                    pd,
                    pdf
                );
            }
            out
        }
        Format::Markdown => {
            let values: Vec<[String; 10]> = rows.iter().map(param_values).collect();
            let neutral = param_values(&Row {
                power: 0,
                accuracy: 0,
                armor: false,
                shields: 0,
                fury: 0,
                crit: 0,
                parry: 0,
                evade: 0,
                deflect: 0,
                health: None,
                mean: BigRational::from_integer(0.into()),
                p_discard: None,
            });
            let shown: Vec<usize> = (0..PARAMS.len())
                .filter(|&i| i == 0 || values.iter().any(|v| v[i] != neutral[i]))
                .collect();
            let with_discard = rows.iter().any(|r| r.p_discard.is_some());
            let mut header: Vec<String> = shown.iter().map(|&i| PARAMS[i].to_string()).collect();
            header.push("E[damage]".into());
            header.push("exact".into());
            if with_discard {
                header.push("P(discard)".into());
                header.push("exact".into());
            }
            let mut out = format!("| {} |\n", header.join(" | "));
            let _ = writeln!(
                out,
                "|{}",
                header.iter().map(|_| "---:|").collect::<String>()
            );
            for (r, v) in rows.iter().zip(&values) {
                let mut cells: Vec<String> = shown.iter().map(|&i| v[i].clone()).collect();
                cells.push(format!("{:.4}", to_f64(&r.mean)));
                cells.push(fraction_string(&r.mean));
                if with_discard {
                    match &r.p_discard {
                        Some(p) => {
                            cells.push(format!("{:.2}%", 100.0 * to_f64(p)));
                            cells.push(fraction_string(p));
                        }
                        None => cells.extend([String::new(), String::new()]),
                    }
                }
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
            out
        }
    }
}
