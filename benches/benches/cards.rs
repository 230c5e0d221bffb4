//! Criterion benchmarks of issue 10: the matchups of a card pool, every
//! unit against every unit of its arena, both directions, streamed (the
//! repository's extracts of six sets; SWTCG_CARDS=path for another pool,
//! such as the shared files), and its rankings.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use swtcg_odds::cards::CardDb;
use swtcg_odds::matchups::{Options, SortBy, rank, stream};

fn pool() -> CardDb {
    let path = std::env::var("SWTCG_CARDS").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/lackey").into()
    });
    CardDb::load(&[path.as_str()]).expect("a card file or folder (set SWTCG_CARDS)")
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

criterion_group!(benches, matchups);
criterion_main!(benches);
