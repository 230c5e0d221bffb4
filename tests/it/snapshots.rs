//! Every reading of every unit of the shared sets, as a reviewed snapshot.
//!
//! The inputs are the shared set files' columns the reader reads
//! (`tests/fixtures/sets/six/` and `tests/fixtures/sets/more/`, kept apart
//! so that figures on the six stay comparable; `shared::fixture_sets_are_the_shared_sets`
//! checks that they are the shared files'). The outputs are
//! `tests/snapshots/readings-six.txt` and `readings-more.txt`: every unit
//! as `cards find` shows it, pilot grants included. A change of reading is
//! a change of these files, reviewed as a diff: run
//! `UPDATE_EXPECT=1 cargo test --test it snapshots` and read `git diff`.

use swtcg_cards::cards::CardDb;
use swtcg_cards::cards::check::check;

/// The folder of fixture sets `which` (`six` or `more`).
pub fn fixture_sets(which: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sets")
        .join(which)
}

/// The fixture sets `which`, loaded as `cards --db` loads a folder.
pub fn load(which: &str) -> CardDb {
    let dir = fixture_sets(which);
    let mut db = CardDb::load(&[dir.to_str().unwrap()]).unwrap();
    db.relative_names(&[dir.to_str().unwrap()]);
    db
}

/// Every unit, as `cards find` shows it, and every skipped row with its
/// reason.
pub fn readings(db: &CardDb) -> String {
    let mut out = String::new();
    for c in &db.cards {
        out.push_str(&c.to_text_with(false));
        out.push('\n');
    }
    for s in &db.skipped {
        out.push_str(&format!("skipped {} {}: {}\n", s.set, s.name, s.reason));
    }
    out
}

fn snapshot(which: &str) {
    let db = load(which);
    // Nothing is dropped: every row of every file is a unit, a non-unit
    // or a skipped row, and every unit has its text read.
    let report = check(&db);
    for s in &report.sets {
        assert_eq!(s.rows, s.units + s.non_units + s.skipped, "{}", s.set);
    }
    assert!(db.cards.len() > 500, "{} units", db.cards.len());
    assert!(
        db.cards
            .iter()
            .all(|c| c.text.trim().is_empty() || !c.abilities.is_empty()),
        "a unit with text and no ability"
    );
    assert_snapshot(&format!("readings-{which}.txt"), &readings(&db));
}

/// Compares `actual` with the snapshot file `name` (in `tests/snapshots/`),
/// line by line; with `UPDATE_EXPECT=1`, writes it instead. A difference
/// fails with the first lines that differ and how to review them.
pub fn assert_snapshot(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_EXPECT=1 writes it)", path.display()));
    if expected == actual {
        return;
    }
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut shown = Vec::new();
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            shown.push(format!(
                "line {}:\n  - {}\n  + {}",
                i + 1,
                x.unwrap_or(&"<none>"),
                y.unwrap_or(&"<none>")
            ));
            if shown.len() == 8 {
                break;
            }
        }
    }
    panic!(
        "{} differs ({} lines kept, {} now); first differences:\n{}\nreview with UPDATE_EXPECT=1 cargo test --test it, then git diff",
        path.display(),
        e.len(),
        a.len(),
        shown.join("\n")
    );
}

#[test]
fn every_reading_of_the_six_sets() {
    snapshot("six");
}

#[test]
fn every_reading_of_the_more_sets() {
    snapshot("more");
}

/// docs/cards.md: how much of each of the 22 shared sets is read, one row
/// a set, from the fixture sets (the shared files' read columns). The page
/// is written by this test (`UPDATE_EXPECT=1`) and checked by it.
#[test]
fn cards_page_is_fresh() {
    use std::fmt::Write;
    let mut page = String::new();
    page.push_str(CARDS_PAGE_HEAD);
    for (which, folder) in [("six", "lackey"), ("more", "lackey-more")] {
        let db = load(which);
        let report = check(&db);
        let _ = writeln!(
            page,
            "\n### `../shared/reference/{folder}/`\n\n| set | rows | units | non-units | skipped | abilities | pilot grants | readings | keyword | condition | not-attack | unmodelled | not understood |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        let mut total = (0, 0);
        for s in &report.sets {
            let class = |c: &str| {
                // Abilities and pilot grants of the class, as coverage counts them.
                db.cards
                    .iter()
                    .filter(|u| u.set == s.set)
                    .flat_map(|u| u.abilities.iter())
                    .flat_map(|a| a.readings())
                    .filter(|r| r.class().name() == c)
                    .count()
            };
            let nu = s.not_understood.unwrap_or(0);
            total = (total.0 + nu, total.1 + s.readings);
            let _ = writeln!(
                page,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} ({:.1}%) |",
                s.set,
                s.rows,
                s.units,
                s.non_units,
                s.skipped,
                s.ability_total,
                s.grants.values().sum::<usize>(),
                s.readings,
                class("keyword"),
                class("condition"),
                class("not-attack"),
                class("unmodelled"),
                nu,
                100.0 * s.not_understood_share
            );
        }
        let _ = writeln!(
            page,
            "| all | | | | | | | {} | | | | | {} ({:.1}%) |",
            total.1,
            total.0,
            100.0 * total.0 as f64 / total.1.max(1) as f64
        );
    }
    // Every set at most 2% not understood (issue 29's target).
    for which in ["six", "more"] {
        for s in &check(&load(which)).sets {
            assert!(
                s.not_understood.unwrap_or(0) * 100 <= s.readings * 2,
                "{}: {:.1}% not understood",
                s.set,
                100.0 * s.not_understood_share
            );
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cards.md");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == page,
        "docs/cards.md is stale: UPDATE_EXPECT=1 cargo test --test it cards_page_is_fresh"
    );
}

const CARDS_PAGE_HEAD: &str = "# How much of each set is read

Every ability of every unit of the 22 shared sets, read by the card
reader (`cards check` on each folder). This page is generated by
`tests/it/snapshots.rs::cards_page_is_fresh` from `tests/fixtures/sets/`
(the shared set files' columns the reader reads), and checked by it: a
change of reading that moves a figure changes this page, and every
reading is in `tests/snapshots/readings-six.txt` and `readings-more.txt`.

- **readings** are what coverage counts: every ability, but a pilot
  ability counts as its grants, each read as the piloted unit's own
  ability.
- **keyword**: the unit has it in every attack, free or paid;
  **condition**: it acts in some situation (decided by the two cards, or
  said by the user with `--condition`); **not-attack**: nothing of it can
  act on one attack between two units; **unmodelled**: understood, and
  named, but not modelled by the engine; **not understood**: none of the
  above, never applied.
- **skipped**: rows that are no unit and no known card type, and units
  left out of every pairing (stats printed `*` that the two units can't
  count), each with its reason (`cards check`).

Measured as we will be measured: four of the sixteen sets of
`lackey-more/` (BF, BOC, FOTR, TUF, drawn at random with a seed) were set
aside before their failures were read. Their figures as first seen, with
the reader built on the other eighteen, were BF 1.1%, BOC 2.3%, FOTR
2.7%, TUF 1.2% not understood (14 of 786 readings, 1.8%): the estimate
for sets the reader has not seen.
";
