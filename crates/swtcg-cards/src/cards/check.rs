//! `cards check`: how much of a card database the tool reads.
//!
//! For each set: rows, units, non-unit cards and skipped rows with their
//! reasons; the units' abilities by class; the most frequent texts not
//! understood. As JSON, every unit with its abilities (`text`, `class`,
//! `subject`, `when`, `decidable`) and every skipped row.

use super::text::{Class, ReadAbility, Reading, first_unread_words};
use super::{CardDb, read::FileReport};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One unit in the check's JSON.
#[derive(Clone, Debug, Serialize)]
pub struct UnitRow {
    /// Its name.
    pub name: String,
    /// Its set.
    pub set: String,
    /// Its abilities.
    pub abilities: Vec<ReadAbility>,
}

/// A skipped row in the check's JSON.
#[derive(Clone, Debug, Serialize)]
pub struct SkippedRow {
    /// Its set.
    pub set: String,
    /// Its name.
    pub name: String,
    /// Why.
    pub reason: String,
}

/// The counts of one set.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SetCounts {
    /// The set code.
    pub set: String,
    /// Data rows.
    pub rows: usize,
    /// Unit cards ready to use.
    pub units: usize,
    /// Non-unit cards.
    pub non_units: usize,
    /// Skipped rows (units needing values included).
    pub skipped: usize,
    /// Skipped rows by reason.
    pub skipped_reasons: BTreeMap<String, usize>,
    /// Unit abilities by class.
    pub abilities: BTreeMap<String, usize>,
    /// All unit abilities.
    pub ability_total: usize,
    /// The grants of pilot abilities, by class (each read as the piloted
    /// unit's own ability).
    pub grants: BTreeMap<String, usize>,
    /// What coverage counts: every ability but pilot abilities, and each
    /// pilot grant (see [`ReadAbility::readings`]).
    pub readings: usize,
    /// Not-understood readings (abilities and pilot grants) as a share of
    /// all readings.
    pub not_understood_share: f64,
    /// Not-understood readings.
    #[serde(skip)]
    pub not_understood: Option<usize>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The files read, and what they were.
    pub files: Vec<FileReport>,
    /// Per set.
    pub sets: Vec<SetCounts>,
    /// The not-understood texts, most frequent first, with their counts.
    pub not_understood: Vec<(String, usize)>,
    /// Unit abilities by the rule that read them (`clauses`: read clause by
    /// clause).
    pub rules: BTreeMap<String, usize>,
    /// The clauses of abilities read clause by clause, by the rule that
    /// read each (`outside-attacks`, `unread`: left, with why).
    pub clause_rules: BTreeMap<String, usize>,
    /// Not-understood abilities grouped by their first unread words (see
    /// [`first_unread_words`]), most frequent first: the words, how many,
    /// and one text.
    pub unread: Vec<(String, usize, String)>,
    /// Every unit with its abilities.
    pub units: Vec<UnitRow>,
    /// Every skipped row.
    pub skipped: Vec<SkippedRow>,
}

/// Builds the report of a database.
pub fn check(db: &CardDb) -> CheckReport {
    let mut sets: BTreeMap<String, SetCounts> = BTreeMap::new();
    fn entry<'m>(sets: &'m mut BTreeMap<String, SetCounts>, set: &str) -> &'m mut SetCounts {
        let e = sets.entry(set.to_string()).or_default();
        e.set = set.to_string();
        e
    }
    let mut nu: BTreeMap<String, usize> = BTreeMap::new();
    let mut rules: BTreeMap<String, usize> = BTreeMap::new();
    let mut clause_rules: BTreeMap<String, usize> = BTreeMap::new();
    let mut unread: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for a in db
        .cards
        .iter()
        .flat_map(|c| &c.abilities)
        .flat_map(ReadAbility::readings)
    {
        *rules.entry(a.rule.to_string()).or_default() += 1;
        for c in &a.clauses {
            *clause_rules.entry(c.rule.to_string()).or_default() += 1;
        }
        if let Some(w) = first_unread_words(a) {
            let e = unread.entry(w).or_insert((0, a.text.clone()));
            e.0 += 1;
        }
    }
    let mut unread: Vec<(String, usize, String)> =
        unread.into_iter().map(|(w, (n, t))| (w, n, t)).collect();
    unread.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for c in &db.cards {
        let e = entry(&mut sets, &c.set);
        if c.variable.is_none() {
            e.units += 1;
            e.rows += 1;
        }
        for a in &c.abilities {
            *e.abilities.entry(a.class().name().to_string()).or_default() += 1;
            e.ability_total += 1;
            if let Reading::Pilot(p) = &a.reading {
                for g in &p.grants {
                    *e.grants.entry(g.class().name().to_string()).or_default() += 1;
                }
            }
            for r in a.readings() {
                e.readings += 1;
                if r.class() == Class::NotUnderstood {
                    *e.not_understood.get_or_insert(0) += 1;
                    *nu.entry(r.text.clone()).or_default() += 1;
                }
            }
        }
    }
    for n in &db.non_units {
        let e = entry(&mut sets, &n.set);
        e.non_units += 1;
        e.rows += 1;
    }
    for s in &db.skipped {
        let e = entry(&mut sets, &s.set);
        e.skipped += 1;
        e.rows += 1;
        let reason = s.reason.split(':').next().unwrap_or(&s.reason).to_string();
        *e.skipped_reasons.entry(reason).or_default() += 1;
    }
    for e in sets.values_mut() {
        let n = e.not_understood.unwrap_or(0);
        e.not_understood_share = if e.readings == 0 {
            0.0
        } else {
            n as f64 / e.readings as f64
        };
    }
    let mut not_understood: Vec<(String, usize)> = nu.into_iter().collect();
    not_understood.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    CheckReport {
        files: db.files.clone(),
        sets: sets.into_values().collect(),
        not_understood,
        rules,
        clause_rules,
        unread,
        units: db
            .cards
            .iter()
            .map(|c| UnitRow {
                name: c.key(),
                set: c.set.clone(),
                abilities: c.abilities.clone(),
            })
            .collect(),
        skipped: db
            .skipped
            .iter()
            .map(|s| SkippedRow {
                set: s.set.clone(),
                name: s.name.clone(),
                reason: s.reason.clone(),
            })
            .collect(),
    }
}

impl CheckReport {
    /// The report as text: per set, then the most frequent not-understood
    /// texts (up to `top`).
    pub fn to_text(&self, top: usize) -> String {
        let mut out = String::new();
        for f in self.files.iter().filter(|f| !f.card_list) {
            let _ = writeln!(
                out,
                "not a card list: {} ({})",
                f.file,
                f.reason.as_deref().unwrap_or("")
            );
        }
        for s in &self.sets {
            let _ = writeln!(
                out,
                "{}: {} rows: {} units, {} non-units, {} skipped",
                s.set, s.rows, s.units, s.non_units, s.skipped
            );
            for (r, n) in &s.skipped_reasons {
                let _ = writeln!(out, "  skipped {n}: {r}");
            }
            let classes: Vec<String> = Class::ALL
                .iter()
                .map(|c| {
                    format!(
                        "{} {}",
                        c.name(),
                        s.abilities.get(c.name()).copied().unwrap_or(0)
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "  {} unit abilities: {}",
                s.ability_total,
                classes.join(", "),
            );
            if !s.grants.is_empty() {
                let grants: Vec<String> = Class::ALL
                    .iter()
                    .filter_map(|c| s.grants.get(c.name()).map(|n| format!("{} {n}", c.name())))
                    .collect();
                let _ = writeln!(
                    out,
                    "  {} pilot grants: {}",
                    s.grants.values().sum::<usize>(),
                    grants.join(", ")
                );
            }
            let _ = writeln!(
                out,
                "  {:.1}% not understood ({} of {} readings: abilities, pilot grants counted one by one)",
                100.0 * s.not_understood_share,
                s.not_understood.unwrap_or(0),
                s.readings
            );
        }
        let by_count = |m: &BTreeMap<String, usize>| {
            let mut v: Vec<(&String, &usize)> = m.iter().collect();
            v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            v.iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "abilities by rule: {}", by_count(&self.rules));
        let _ = writeln!(out, "clauses by rule: {}", by_count(&self.clause_rules));
        if !self.unread.is_empty() {
            let _ = writeln!(out, "not understood, by their first unread words:");
            for (w, n, t) in self.unread.iter().take(top) {
                let _ = writeln!(out, "  {n} x \"{w} ...\", e.g. {t}");
            }
        }
        if !self.not_understood.is_empty() {
            let _ = writeln!(out, "most frequent not understood:");
            for (t, n) in self.not_understood.iter().take(top) {
                let _ = writeln!(out, "  {n} x {t}");
            }
        }
        out
    }
}
