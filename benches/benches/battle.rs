//! Criterion benchmarks for issue 34, the battle phase: three units against
//! three in one arena with the keywords the shared cards have most
//! (Critical Hit, paid Evade, Accuracy, Stun, paid Intercept, Lucky, Parry,
//! paid Deflect, Armor, Retaliate, Fury, Shields; health up to 6), the
//! same four against four (paid Evade for the Deflect), and the real cards
//! of `examples/battles/cards-character.json`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use swtcg_engine::battle::Battle;

fn file(name: &str) -> String {
    format!("{}/../{name}", env!("CARGO_MANIFEST_DIR"))
}

fn battles(c: &mut Criterion) {
    let mut g = c.benchmark_group("battle");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, path) in [
        ("three against three", "benches/battles/three.json"),
        ("four against four", "benches/battles/four.json"),
        (
            "real cards, three against three",
            "examples/battles/cards-character.json",
        ),
    ] {
        let b = swtcg_cards::cards::files::battle_from_file(&file(path)).unwrap();
        let b: Battle = b;
        g.bench_function(name, |x| x.iter(|| black_box(&b).solve().unwrap()));
    }
    g.finish();
}

criterion_group!(benches, battles);
criterion_main!(benches);
