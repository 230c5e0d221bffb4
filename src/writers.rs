//! The writers: typed results out as JSON (serde), CSV (the `csv` crate)
//! and Markdown (one writer, [`markdown`], for every table), each format
//! written in one place.
//!
//! A result that is a table becomes a [`Table`] of cells (its columns named
//! and aligned), which [`markdown`] and [`csv()`] write; a result written as
//! JSON is its serde form ([`json`], [`jsonl`]).
//!
//! ```
//! use swtcg_odds::writers::{Table, markdown, csv};
//! let mut t = Table::new(&["unit", "damage"]);
//! t.push(vec!["Trooper | A".into(), "1.500".into()]);
//! assert_eq!(markdown(&t), "| unit | damage |\n|---|---:|\n| Trooper \\| A | 1.500 |\n");
//! assert_eq!(csv(&t), "unit,damage\nTrooper | A,1.500\n");
//! ```

use rustc_hash::FxHashMap;
use serde::Serialize;
use std::fmt::Write;
use swtcg_cards::cards::CardDb;
use swtcg_cards::matchups::{MatchupRow, Options, Rankings, RowRef, field_line, stream};
use swtcg_engine::dist::{Fraction, fraction_string};
use swtcg_engine::error::Result;
use swtcg_engine::report::{DistReport, percent};
use swtcg_engine::request::{CORE, Format, Param};
use swtcg_engine::table::{Pivot, Row};
use swtcg_engine::unit::Arena;

/// A table of text cells: its columns' names and, per column, whether its
/// cells are numbers (right-aligned in Markdown).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The columns' names.
    pub columns: Vec<String>,
    /// Whether each column holds numbers.
    pub numeric: Vec<bool>,
    /// The rows.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these columns: the first is text, the others numbers.
    pub fn new(columns: &[&str]) -> Table {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            numeric: (0..columns.len()).map(|i| i > 0).collect(),
            rows: Vec::new(),
        }
    }

    /// A table whose columns are numbers or text as `numeric` says.
    pub fn with(columns: Vec<String>, numeric: Vec<bool>) -> Table {
        Table {
            columns,
            numeric,
            rows: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }
}

/// A Markdown cell: `|` escaped, one line.
fn md_cell(c: &str) -> String {
    c.replace('|', "\\|").replace('\n', " ")
}

/// The header and rule of a Markdown table.
pub fn markdown_header(t: &Table) -> String {
    let head: Vec<String> = t.columns.iter().map(|c| md_cell(c)).collect();
    let rule: Vec<&str> = t
        .numeric
        .iter()
        .map(|&n| if n { "---:" } else { "---" })
        .collect();
    format!("| {} |\n|{}|\n", head.join(" | "), rule.join("|"))
}

/// One row of a Markdown table.
pub fn markdown_row(row: &[String]) -> String {
    let cells: Vec<String> = row.iter().map(|c| md_cell(c)).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// A table as Markdown.
pub fn markdown(t: &Table) -> String {
    let mut out = markdown_header(t);
    for r in &t.rows {
        out.push_str(&markdown_row(r));
    }
    out
}

/// A text cell of CSV as a spreadsheet can open it safely: a text that
/// would start a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
/// first; a card named `=HYPERLINK(...)`) gets a leading apostrophe, as
/// OWASP's advice on CSV injection says. Numbers (`-1`, `-1/2`, `-0.5`)
/// are left as they are.
///
/// ```
/// use swtcg_odds::writers::csv_text;
/// assert_eq!(csv_text("=1+1"), "'=1+1");
/// assert_eq!(csv_text("@SUM(A1)"), "'@SUM(A1)");
/// assert_eq!(csv_text("-1/2"), "-1/2");
/// assert_eq!(csv_text("Darth Vader (A)"), "Darth Vader (A)");
/// ```
pub fn csv_text(text: &str) -> std::borrow::Cow<'_, str> {
    let risky = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let number = || {
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        n.parse::<f64>().is_ok() && d.parse::<f64>().is_ok()
    };
    if risky && !number() {
        std::borrow::Cow::Owned(format!("'{text}"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// A table as CSV (the `csv` crate: quoting where a cell needs it; text
/// cells made safe by [`csv_text`]).
pub fn csv(t: &Table) -> String {
    let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
    // Writing to memory cannot fail.
    let _ = w.write_record(t.columns.iter().map(|c| csv_text(c).into_owned()));
    for r in &t.rows {
        let _ = w.write_record(r.iter().map(|c| csv_text(c).into_owned()));
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// A value as pretty JSON, with a final newline.
pub fn json<T: Serialize + ?Sized>(value: &T) -> String {
    swtcg_engine::report::to_json_text(value)
}

/// Values as JSON Lines.
pub fn jsonl<T: Serialize>(values: &[T]) -> String {
    values
        .iter()
        .map(|v| serde_json::to_string(v).unwrap_or_default() + "\n")
        .collect()
}

/// The parameters a table shows: in Markdown, those given that vary or
/// differ from neutral (and power); in CSV and JSON every core parameter
/// and each one given.
fn columns(rows: &[Row], format: Format) -> Vec<Param> {
    let given: Vec<Param> = rows
        .first()
        .map(|r| r.values.iter().map(|(p, _)| *p).collect())
        .unwrap_or_default();
    Param::ALL
        .iter()
        .copied()
        .filter(|p| match format {
            Format::Markdown => {
                *p == Param::Power
                    || (given.contains(p) && rows.iter().any(|r| r.get(*p) != p.neutral()))
                    || (given.contains(p) && rows.iter().any(|r| r.get(*p) != rows[0].get(*p)))
            }
            _ => CORE.contains(p) || given.contains(p),
        })
        .collect()
}

/// Rows of a table of attacks in `format`.
pub fn rows(rows: &[Row], format: Format) -> String {
    match format {
        Format::Json => swtcg_engine::table::rows_json(rows),
        Format::Jsonl => jsonl(rows),
        Format::Csv => {
            let cols = columns(rows, format);
            let mut names: Vec<String> = cols.iter().map(|p| p.name().to_string()).collect();
            names.extend(["mean", "mean_f64", "p_discard", "p_discard_f64"].map(String::from));
            let n = names.len();
            let mut t = Table::with(names, vec![true; n]);
            for r in rows {
                let mut cells: Vec<String> = cols.iter().map(|p| p.cell(r.get(*p))).collect();
                cells.push(r.mean.to_string());
                cells.push(format!("{}", r.mean.to_f64()));
                match &r.p_discard {
                    Some(p) => cells.extend([p.to_string(), format!("{}", p.to_f64())]),
                    None => cells.extend([String::new(), String::new()]),
                }
                t.push(cells);
            }
            csv(&t)
        }
        Format::Markdown => {
            let cols = columns(rows, format);
            let with_discard = rows.iter().any(|r| r.p_discard.is_some());
            let mut names: Vec<String> = cols.iter().map(|p| p.name().to_string()).collect();
            names.extend(["E[damage]".into(), "exact".into()]);
            if with_discard {
                names.extend(["P(discard)".into(), "exact".into()]);
            }
            let n = names.len();
            let mut t = Table::with(names, vec![true; n]);
            for r in rows {
                let mut cells: Vec<String> = cols.iter().map(|p| p.cell(r.get(*p))).collect();
                cells.push(format!("{:.4}", r.mean.to_f64()));
                cells.push(r.mean.to_string());
                if with_discard {
                    match &r.p_discard {
                        Some(p) => {
                            cells.push(format!("{:.2}%", 100.0 * p.to_f64()));
                            cells.push(p.to_string());
                        }
                        None => cells.extend([String::new(), String::new()]),
                    }
                }
                t.push(cells);
            }
            markdown(&t)
        }
    }
}

/// A pivot in `format` (JSON formats: one object): the grid of expected
/// damage, then of P(discard) when health is given.
pub fn pivot(p: &Pivot, format: Format) -> String {
    if matches!(format, Format::Json | Format::Jsonl) {
        return json(p);
    }
    let cell = |name: &str, v: i64| Param::from_name(name).map_or(v.to_string(), |q| q.cell(v));
    let grid = |cells: &ndarray::Array2<Fraction>, percent: bool| -> Table {
        let mut names = vec![p.row.to_string()];
        names.extend(
            p.column_values
                .iter()
                .map(|&c| format!("{} {}", p.column, cell(p.column, c))),
        );
        let n = names.len();
        let mut t = Table::with(names, vec![true; n]);
        for (r, line) in p.row_values.iter().zip(cells.rows()) {
            let mut row = vec![cell(p.row, *r)];
            row.extend(line.iter().map(|f| match (format, percent) {
                (Format::Markdown, true) => format!("{:.2}%", 100.0 * f.to_f64()),
                (Format::Markdown, false) => format!("{:.4}", f.to_f64()),
                _ => f.to_string(),
            }));
            t.push(row);
        }
        t
    };
    let write = |title: &str, t: &Table| match format {
        Format::Markdown => format!("{title}\n\n{}", markdown(t)),
        _ => csv(t),
    };
    let mut out = write(
        "Expected damage (exact values: --format csv or json)",
        &grid(&p.mean, false),
    );
    if let Some(d) = &p.p_discard {
        out.push('\n');
        out.push_str(&write("P(discard)", &grid(d, true)));
    }
    out
}

/// The columns of a listing of matchups (and of `MatchupRow`'s fields).
pub const MATCHUP_FIELDS: [&str; 10] = [
    "attacker",
    "defender",
    "arena",
    "mean",
    "mean_f64",
    "p_discard",
    "p_discard_f64",
    "damage_back",
    "damage_back_f64",
    "error",
];

/// The Markdown table of matchup rows: its columns.
pub fn matchups_table() -> Table {
    Table::with(
        [
            "attacker",
            "defender",
            "arena",
            "E[damage]",
            "P(discard)",
            "damage back",
        ]
        .map(String::from)
        .to_vec(),
        vec![false, false, false, true, true, true],
    )
}

/// One matchup row as Markdown cells: a row without a result shows "—"
/// and its reason.
pub fn matchup_cells(r: &MatchupRow) -> Vec<String> {
    let cell = |f: Option<f64>, pct: bool| match f {
        Some(v) if pct => format!("{:.1}%", 100.0 * v),
        Some(v) => format!("{v:.3}"),
        None => "—".into(),
    };
    let mut back = cell(r.damage_back_f64, false);
    if let Some(e) = &r.error {
        back = format!("{back} {e}");
    }
    vec![
        r.attacker.clone(),
        r.defender.clone(),
        r.arena.name().to_string(),
        cell(r.mean_f64, false),
        cell(r.p_discard_f64, true),
        back,
    ]
}

/// One matchup row as a CSV record (the fields of [`MatchupRow`]).
pub fn matchup_csv(r: &MatchupRow) -> String {
    let mut w = ::csv::WriterBuilder::new()
        .has_headers(false)
        .buffer_capacity(256)
        .from_writer(Vec::with_capacity(256));
    let safe = MatchupRow {
        attacker: csv_text(&r.attacker).into_owned(),
        defender: csv_text(&r.defender).into_owned(),
        error: r.error.as_deref().map(|e| csv_text(e).into_owned()),
        ..r.clone()
    };
    let _ = w.serialize(&safe);
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The CSV header of a listing of matchups.
pub fn matchup_csv_header() -> String {
    MATCHUP_FIELDS.join(",") + "\n"
}

/// What the header of a rankings page says of its data.
#[derive(Clone, Debug, Default)]
pub struct PageHeader {
    /// The page's title (by default "Rankings of SETS").
    pub title: Option<String>,
    /// The set codes of the units ranked (attackers and defenders).
    pub sets: Vec<String>,
    /// The field when it is not the whole pool: the attackers' and
    /// defenders' selectors, each with its number of units.
    pub field: Option<String>,
    /// The command that makes the page, with every option that changes it.
    pub command: String,
    /// The card files read (their names), and the SHA-256 of their
    /// contents (names and bytes, in name order): what travels with the
    /// data, whatever its copy's dates.
    pub data: Option<(Vec<String>, String)>,
    /// The date the files were read here, `YYYY-MM-DD` (said as such).
    pub date: Option<String>,
    /// Unit cards read.
    pub units: usize,
    /// Unit rows that were the same card as an earlier row, read once.
    pub repeated: usize,
    /// Unit cards left out of every pairing, each with its reason (`Name
    /// (SET): why`).
    pub left_out: Vec<String>,
}

impl PageHeader {
    /// The header of rankings of `attackers` against `defenders` (all
    /// read from `db`, `selectors` their selectors, as given): the sets of
    /// the units ranked, the field when it is not every unit (said with its
    /// selectors), the content hash of the files read and today's date as
    /// the date they were read, and the command with its `options` (the
    /// flags that change the figures, as typed).
    pub fn of(
        db: &CardDb,
        title: Option<String>,
        (attackers, defenders): (&[&swtcg_cards::cards::Card], &[&swtcg_cards::cards::Card]),
        selectors: [&str; 2],
        options: &[String],
    ) -> PageHeader {
        let mut sets: Vec<String> = attackers
            .iter()
            .chain(defenders)
            .map(|c| c.set.clone())
            .collect();
        sets.sort();
        sets.dedup();
        let all = db.units().count();
        let field = (attackers.len() != all || defenders.len() != all).then(|| {
            format!(
                "attackers `{}` ({} units) against defenders `{}` ({} units), not the whole pool of {all} units",
                selectors[0],
                attackers.len(),
                selectors[1],
                defenders.len()
            )
        });
        let mut command = "matchups --rank".to_string();
        for o in options {
            command.push(' ');
            command.push_str(o);
        }
        PageHeader {
            title,
            sets,
            field,
            command,
            data: data_hash(db),
            date: Some(date_of(std::time::SystemTime::now())),
            units: db.cards.len(),
            left_out: db
                .skipped
                .iter()
                .filter(|s| s.unit)
                .map(|s| format!("{} ({}): {}", s.name, s.set, s.reason))
                .collect(),
            repeated: db.repeated,
        }
    }
}

/// The names of the card files `db` read and the SHA-256 of their
/// contents (each file's name, its length and its bytes, in name order), as
/// lowercase hex; none when a file can't be read again.
pub fn data_hash(db: &CardDb) -> Option<(Vec<String>, String)> {
    use sha2::{Digest, Sha256};
    let mut files: Vec<(String, &str)> = db
        .files
        .iter()
        .filter(|f| f.card_list)
        .map(|f| {
            let name = std::path::Path::new(&f.file)
                .file_name()
                .map_or_else(|| f.file.clone(), |n| n.to_string_lossy().into_owned());
            (name, f.file.as_str())
        })
        .collect();
    files.sort();
    let mut h = Sha256::new();
    for (name, path) in &files {
        let bytes = std::fs::read(path).ok()?;
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    let hex = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Some((files.into_iter().map(|(n, _)| n).collect(), hex))
}

/// A time as its UTC date, `YYYY-MM-DD` (the civil calendar from days since
/// 1970, Howard Hinnant's algorithm).
pub fn date_of(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The line of a rankings page that gives the date its files were read
/// (the one line that changes from day to day).
pub const DATE_LINE: &str = "Read on";

/// Rankings as a Markdown page: a title, what the figures are (the pool's
/// sets, the date of the data, the tool's version), the field line, one
/// table per arena. A figure without data is "—", with the reason in the
/// last column; a unit with pairings left without a result is marked.
pub fn rankings_markdown(r: &Rankings, header: &PageHeader) -> String {
    let mut out = String::new();
    let sets = if header.sets.is_empty() {
        "no set".to_string()
    } else {
        header.sets.join(", ")
    };
    let title = header
        .title
        .clone()
        .unwrap_or_else(|| format!("Rankings of {sets}"));
    let _ = writeln!(out, "# {}\n", title.replace('\n', " "));
    let _ = writeln!(
        out,
        "Each unit is ranked against the field of each arena it fights in: the means, over the units of that arena, of its expected damage dealt and P(discard) when attacking them, and of the expected damage taken and P(survive) when they attack it. Every attack is solved exactly, both sides playing optimally as the command below says (by default for expected damage, with 4 Force a side), with the conditions the two cards decide applied.\n"
    );
    let _ = writeln!(out, "- Sets: {sets}");
    if let Some(field) = &header.field {
        let _ = writeln!(out, "- Ranked: {field}");
    }
    match &header.data {
        Some((files, hash)) => {
            let _ = writeln!(
                out,
                "- Data: {} card files ({}), SHA-256 of their contents `{hash}`",
                files.len(),
                files.join(", ")
            );
        }
        None => {
            let _ = writeln!(
                out,
                "- Data: the card files could not be read again to hash them"
            );
        }
    }
    let _ = writeln!(
        out,
        "- {DATE_LINE}: {} (the date these files were read, not the data's own)",
        header.date.as_deref().unwrap_or("unknown")
    );
    let _ = writeln!(
        out,
        "- Made by swtcg-odds {}, `{}`",
        env!("CARGO_PKG_VERSION"),
        header.command
    );
    let _ = writeln!(
        out,
        "- {} unit cards read ({} more rows were the same card as an earlier row, read once)",
        header.units, header.repeated
    );
    if !header.left_out.is_empty() {
        let _ = writeln!(
            out,
            "- {} unit cards left out of every pairing, each with why: {}",
            header.left_out.len(),
            header.left_out.join("; ")
        );
    }
    let _ = writeln!(out, "- {}", field_line(r));
    let s = &r.summary;
    let _ = writeln!(
        out,
        "- {} pairings, {} with a result{}",
        s.rows,
        s.rows - s.errors,
        if s.errors > 0 {
            format!(
                "; **{} without a result**, left out of the means of the units marked †",
                s.errors
            )
        } else {
            String::new()
        }
    );
    let arenas: Vec<Arena> = {
        let mut a: Vec<Arena> = r.rows.iter().map(|x| x.arena).collect();
        a.dedup();
        a
    };
    for arena in arenas {
        let _ = writeln!(out, "\n### {} arena\n", arena.name());
        let mut t = Table::with(
            [
                "rank",
                "unit",
                "damage dealt",
                "P(discard) attacking",
                "damage taken",
                "P(survive) attacked",
                "pairings attacking / attacked",
                "note",
            ]
            .map(String::from)
            .to_vec(),
            vec![true, false, true, true, true, true, true, false],
        );
        for row in r.rows.iter().filter(|x| x.arena == arena) {
            let num = |v: Option<f64>| v.map_or("—".to_string(), |x| format!("{x:.3}"));
            let pct =
                |v: Option<f64>| v.map_or("—".to_string(), |x| format!("{:.1}%", 100.0 * x));
            let mut note = row.note.clone().unwrap_or_default();
            if row.missing > 0 {
                if !note.is_empty() {
                    note.push_str("; ");
                }
                note.push_str(&format!("† {} pairings without a result", row.missing));
            }
            t.push(vec![
                row.rank.to_string(),
                format!("{}{}", row.unit, if row.missing > 0 { " †" } else { "" }),
                num(row.damage_dealt),
                pct(row.p_discard),
                num(row.damage_taken),
                pct(row.p_survive),
                format!("{} / {}", row.attacking, row.attacked),
                note,
            ]);
        }
        out.push_str(&markdown(&t));
    }
    out
}

/// The command that regenerates `docs/rankings.md` from the shared card
/// files beside the repository.
pub const RANKINGS_COMMAND: &str = "cargo run --release -- matchups --db ../shared/reference/lackey --rank --output docs/rankings.md";

/// The card file the documentation page is generated from: an extract of
/// the real *A New Hope* set kept in the repository.
pub const PAGE_SOURCE: &str = "tests/fixtures/lackey/ANH.txt";

/// The command that regenerates `docs/matchups.md`.
pub const PAGE_COMMAND: &str = "cargo run --release -- matchups --db tests/fixtures/lackey/ANH.txt --page --output docs/matchups.md";

/// The generated documentation page of matchups for a database read from
/// `source`: every unit against every other of its arena, with the command
/// that regenerates it.
pub fn docs_page(db: &CardDb, source: &str) -> Result<String> {
    let mut out = Vec::new();
    write_docs_page(db, source, &Options::default(), &mut out)?;
    // Every byte written comes from a `String`.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// [`docs_page`], written to `w` row by row as the pairings are solved:
/// constant memory however many cards `db` has (the rows are never kept).
pub fn write_docs_page(
    db: &CardDb,
    source: &str,
    opts: &Options,
    w: &mut dyn std::io::Write,
) -> Result<()> {
    let io = |e: std::io::Error| {
        swtcg_engine::error::Error::new(
            swtcg_engine::error::ErrorKind::Io,
            format!("writing the matchups page: {e}"),
        )
    };
    let cards: Vec<_> = db.units().collect();
    let mut head = String::new();
    let _ = writeln!(head, "# Matchups of sample cards\n");
    let _ = writeln!(
        head,
        "Generated from `{source}` ({} unit cards) by\n\n```sh\n{PAGE_COMMAND}\n```\n\nand checked by `tests/it/docs.rs::matchups_page_is_fresh`. Units attack units of their arena; every attack is solved exactly with both sides playing optimally for expected damage, the conditions the two cards decide applied; the tables round the exact values.\n",
        cards.len()
    );
    head.push_str(&markdown_header(&matchups_table()));
    w.write_all(head.as_bytes()).map_err(io)?;
    stream(&cards, &cards, opts, |r| {
        w.write_all(markdown_row(&matchup_cells(&r)).as_bytes())
    })?;
    Ok(())
}

/// Distributions as one table: for each, every outcome `k` with P(= k)
/// and P(≥ k), as exact fractions and as percentages.
///
/// ```
/// use swtcg_engine::attack::attack;
/// use swtcg_engine::report::AttackReport;
/// use swtcg_engine::unit::Unit;
/// use swtcg_engine::report::Distributions;
/// use swtcg_odds::writers::{csv, distributions_table};
/// // One die hitting on 4+.
/// let out = attack(&Unit::new("A", 1), &Unit::new("D", 0)).unwrap();
/// let report = AttackReport::of(&out, [false, false]);
/// let text = csv(&distributions_table(&report.distributions()[..1]));
/// assert_eq!(text, "distribution,k,P(= k),P(≥ k),P(= k) %,P(≥ k) %\n\
///     damage to the defender,0,1/2,1/1,50.00%,100.00%\n\
///     damage to the defender,1,1/2,1/2,50.00%,50.00%\n");
/// ```
pub fn distributions_table(list: &[(String, &DistReport)]) -> Table {
    let mut t = Table::with(
        [
            "distribution",
            "k",
            "P(= k)",
            "P(≥ k)",
            "P(= k) %",
            "P(≥ k) %",
        ]
        .map(String::from)
        .to_vec(),
        vec![false, true, true, true, true, true],
    );
    for (title, d) in list {
        let mut ks: Vec<(i64, &String)> = d
            .pmf
            .keys()
            .filter_map(|k| k.parse().ok().map(|n| (n, k)))
            .collect();
        ks.sort();
        for (_, k) in ks {
            let eq = &d.pmf[k].0;
            // A report's `at_least` has the keys of its `pmf`
            // ([`DistReport::of`]); a cell it lacks is left empty.
            let ge = d.at_least.get(k).map(|f| &f.0);
            t.push(vec![
                title.clone(),
                k.clone(),
                fraction_string(eq),
                ge.map(fraction_string).unwrap_or_default(),
                percent(eq),
                ge.map(percent).unwrap_or_default(),
            ]);
        }
    }
    t
}

/// The rows of a listing in CSV or JSON Lines, written fast: each card's
/// name is escaped once, and each distinct result is formatted once (its
/// text kept here by the result's number, up to [`MAX_RESULT_TEXTS`]), so
/// a row costs a few copies. The bytes are those of [`matchup_csv`] and of
/// serde's JSON of a [`MatchupRow`] (checked in `tests/it/matchups.rs`).
pub struct ListingWriter {
    format: Format,
    attackers: Vec<Option<String>>,
    defenders: Vec<Option<String>>,
    arenas: Vec<(Arena, String)>,
    /// Each result's text after the arena, by the result's number.
    results: FxHashMap<u64, String>,
    /// Most texts kept in `results`.
    keep: usize,
}

/// Most result texts a [`ListingWriter`] keeps; past it, they are dropped
/// and made again as rows need them (the solver's table of results is
/// bounded the same way).
pub const MAX_RESULT_TEXTS: usize = 1 << 17;

/// A result's fields after the arena, in a listing's order.
#[derive(Serialize)]
struct ResultFields<'a> {
    mean: Option<&'a Fraction>,
    mean_f64: Option<f64>,
    p_discard: Option<&'a Fraction>,
    p_discard_f64: Option<f64>,
    damage_back: Option<&'a Fraction>,
    damage_back_f64: Option<f64>,
    error: Option<String>,
}

impl ListingWriter {
    /// A writer of `format` (CSV or JSON Lines) for rows of `attackers`
    /// against `defenders` counts of cards.
    pub fn new(format: Format, attackers: usize, defenders: usize) -> ListingWriter {
        ListingWriter {
            format,
            attackers: vec![None; attackers],
            defenders: vec![None; defenders],
            arenas: Vec::new(),
            results: FxHashMap::default(),
            keep: MAX_RESULT_TEXTS,
        }
    }

    /// The same writer, keeping at most `n` result texts (at least one):
    /// the bytes written are the same whatever it keeps.
    pub fn keeping(mut self, n: usize) -> ListingWriter {
        self.keep = n.max(1);
        self
    }

    /// Whether this format is written fast (CSV and JSON Lines).
    pub fn fast(format: Format) -> bool {
        matches!(format, Format::Csv | Format::Jsonl)
    }

    /// A text as this format writes it: for CSV, made safe ([`csv_text`]).
    fn text(&self, t: &str) -> String {
        match self.format {
            Format::Csv => csv_text(t).into_owned(),
            _ => t.to_string(),
        }
    }

    /// One value as a CSV field, or as JSON (with the separator after it).
    fn field<T: Serialize + ?Sized>(&self, v: &T) -> String {
        match self.format {
            Format::Csv => {
                let mut w = ::csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(Vec::new());
                let _ = w.serialize((v,));
                let mut s =
                    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default();
                s.pop();
                s.push(',');
                s
            }
            _ => serde_json::to_string(v).unwrap_or_default() + ",",
        }
    }

    /// The text of a result after the arena, through the end of the row.
    fn result_text(&self, r: &RowRef) -> String {
        let o = &r.result.outcome;
        let s = o.as_ref().ok();
        let fields = ResultFields {
            mean: s.map(|s| &s.mean),
            mean_f64: s.map(|s| s.mean.to_f64()),
            p_discard: s.map(|s| &s.p_discard),
            p_discard_f64: s.map(|s| s.p_discard.to_f64()),
            damage_back: s.map(|s| &s.back),
            damage_back_f64: s.map(|s| s.back.to_f64()),
            error: o.as_ref().err().map(|e| self.text(&e.to_string())),
        };
        match self.format {
            Format::Csv => {
                let mut w = ::csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(Vec::new());
                let _ = w.serialize(&fields);
                String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
            }
            _ => {
                let mut s = serde_json::to_string(&fields).unwrap_or_default();
                s.remove(0);
                s.push('\n');
                s
            }
        }
    }

    /// Writes one row.
    pub fn write(&mut self, w: &mut dyn std::io::Write, r: &RowRef) -> std::io::Result<()> {
        let json = self.format != Format::Csv;
        if self.attackers[r.attacker_index].is_none() {
            let key = self.field(&self.text(&r.attacker.key()));
            self.attackers[r.attacker_index] = Some(if json {
                format!("{{\"attacker\":{key}")
            } else {
                key
            });
        }
        if self.defenders[r.defender_index].is_none() {
            let key = self.field(&self.text(&r.defender.key()));
            self.defenders[r.defender_index] = Some(if json {
                format!("\"defender\":{key}")
            } else {
                key
            });
        }
        let arena = match self.arenas.iter().find(|(a, _)| *a == r.arena) {
            Some((_, t)) => t,
            None => {
                let t = self.field(&r.arena);
                let t = if json { format!("\"arena\":{t}") } else { t };
                self.arenas.push((r.arena, t));
                &self.arenas[self.arenas.len() - 1].1
            }
        };
        if !self.results.contains_key(&r.result.id) {
            if self.results.len() >= self.keep {
                self.results.clear();
            }
            let text = self.result_text(r);
            self.results.insert(r.result.id, text);
        }
        let text = &self.results[&r.result.id];
        w.write_all(
            self.attackers[r.attacker_index]
                .as_deref()
                .unwrap_or_default()
                .as_bytes(),
        )?;
        w.write_all(
            self.defenders[r.defender_index]
                .as_deref()
                .unwrap_or_default()
                .as_bytes(),
        )?;
        w.write_all(arena.as_bytes())?;
        w.write_all(text.as_bytes())
    }
}
