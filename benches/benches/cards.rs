//! Criterion benchmark for issue #4: the full matchup matrix of every unit
//! in the sample card file against every other (both directions), on all
//! cores.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use swtcg_odds::cards::CardDb;
use swtcg_odds::matchups::matrix;
use swtcg_odds::policy::Policy;

fn matchups(c: &mut Criterion) {
    let path = std::env::var("SWTCG_CARDS_SAMPLE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/reference/lackey/ANH.txt"
        )
        .into()
    });
    let db = CardDb::from_file(&path).expect("the sample card file (set SWTCG_CARDS_SAMPLE)");
    let cards: Vec<_> = db.cards.iter().collect();
    c.bench_function(
        &format!(
            "matchups/{} units, every one against every other",
            cards.len()
        ),
        |b| b.iter(|| matrix(black_box(&cards), black_box(&cards), &Policy::default()).unwrap()),
    );
}

criterion_group!(benches, matchups);
criterion_main!(benches);
