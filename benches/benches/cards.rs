//! Criterion benchmarks of issue 10: the matchups of a card pool, every
//! unit against every unit of its arena, both directions, streamed (the
//! repository's extracts of six sets; SWTCG_CARDS=path for another pool,
//! such as the shared files), and its rankings. Issue 24: the rankings
//! and the CSV listing of a synthetic pool of ten copies of that pool
//! (generated into a temporary folder, never committed), the copies the
//! same or with perturbed stats. The card reader over the fixture sets.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use swtcg_cards::cards::CardDb;
use swtcg_cards::matchups::{Options, SortBy, rank, stream, stream_rows};
use swtcg_engine::request::Format;
use swtcg_odds::writers::ListingWriter;

fn pool_path() -> String {
    std::env::var("SWTCG_CARDS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/lackey").into())
}

fn pool() -> CardDb {
    CardDb::load(&[pool_path().as_str()]).expect("a card file or folder (set SWTCG_CARDS)")
}

/// Ten copies of the pool, the same or perturbed, in a temporary folder.
fn copies(perturb: bool) -> (std::path::PathBuf, CardDb) {
    let dir = std::env::temp_dir().join(format!(
        "swtcg-pool-{}-{}",
        std::process::id(),
        if perturb { "perturbed" } else { "same" }
    ));
    swtcg_odds_bench::synthetic_pool(pool_path().as_ref(), &dir, 10, perturb, 1)
        .expect("the synthetic pool");
    let db = CardDb::load(&[dir.to_str().expect("a UTF-8 path")]).expect("the synthetic pool");
    (dir, db)
}

fn whole_game(c: &mut Criterion) {
    let mut g = c.benchmark_group("whole game");
    g.sample_size(10);
    for perturb in [false, true] {
        let (dir, db) = copies(perturb);
        let cards: Vec<_> = db.units().collect();
        let what = if perturb { "perturbed" } else { "same" };
        g.bench_function(
            format!("ten copies ({what}), {} units, rankings", cards.len()),
            |b| {
                b.iter(|| {
                    rank(
                        black_box(&cards),
                        black_box(&cards),
                        &Options::default(),
                        SortBy::DamageDealt,
                        |_, _| {},
                    )
                    .unwrap()
                })
            },
        );
        if !perturb {
            g.bench_function(
                format!("ten copies, {} units, CSV listing", cards.len()),
                |b| {
                    b.iter(|| {
                        let mut w = ListingWriter::new(Format::Csv, cards.len(), cards.len());
                        let mut sink = std::io::sink();
                        stream_rows(
                            &cards,
                            &cards,
                            &Options::default(),
                            &mut |r| w.write(&mut sink, &r),
                            |_, _| {},
                        )
                        .unwrap()
                    })
                },
            );
        }
        let _ = std::fs::remove_dir_all(dir);
    }
    g.finish();
}

fn matchups(c: &mut Criterion) {
    let db = pool();
    let cards: Vec<_> = db.units().collect();
    let mut g = c.benchmark_group("matchups");
    g.sample_size(10);
    g.bench_function(
        format!("{} units, every pairing, streamed", cards.len()),
        |b| {
            b.iter(|| {
                stream(
                    black_box(&cards),
                    black_box(&cards),
                    &Options::default(),
                    |_| Ok(()),
                )
                .unwrap()
            })
        },
    );
    g.bench_function(format!("{} units, rankings", cards.len()), |b| {
        b.iter(|| {
            rank(
                black_box(&cards),
                black_box(&cards),
                &Options::default(),
                SortBy::DamageDealt,
                |_, _| {},
            )
            .unwrap()
        })
    });
    g.finish();
}

/// The card reader: every row of the fixture sets read (the six sets'
/// extracts and the sixteen more), as `CardDb::load` reads a folder.
fn reading(c: &mut Criterion) {
    let mut g = c.benchmark_group("reading");
    g.sample_size(10);
    for which in ["six", "more"] {
        let dir =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/sets/").to_string() + which;
        let rows = CardDb::load(&[dir.as_str()])
            .expect("the fixture sets")
            .cards
            .len();
        g.bench_function(format!("tests/fixtures/sets/{which} ({rows} cards)"), |b| {
            b.iter(|| CardDb::load(&[black_box(dir.as_str())]).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, matchups, whole_game, reading);
criterion_main!(benches);
