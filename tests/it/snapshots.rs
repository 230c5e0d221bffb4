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

use swtcg_odds::cards::CardDb;
use swtcg_odds::cards::check::check;

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
        "{} differs from the readings ({} lines against {}); first differences:\n{}\nreview with UPDATE_EXPECT=1 cargo test --test it snapshots, then git diff",
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
