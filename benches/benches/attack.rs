//! Criterion benchmarks for the targets of issue #2: one attack with every
//! static keyword at power 10, 20 and 40, and the 800-attack table
//! (power 1..40 x crit 0..4 x parry 0..3).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use swtcg_engine::attack::attack;
use swtcg_engine::keywords::Keyword;
use swtcg_engine::request::Param;
use swtcg_engine::table::Grid;
use swtcg_engine::unit::Unit;

/// Attacker and defender with every static keyword.
fn loaded(power: u32) -> (Unit, Unit) {
    let mut a = Unit::new("attacker", power);
    a.health = Some(6);
    let k = &mut a.keywords;
    k.set(Keyword::Accuracy(1));
    k.set(Keyword::Fury(2));
    k.set(Keyword::CriticalHit(2));
    k.set(Keyword::Stun(1));
    k.set(Keyword::Evade(1));
    k.set(Keyword::Deflect(1));
    let mut d = Unit::new("defender", 5);
    d.health = Some(8);
    d.counters = 1;
    let k = &mut d.keywords;
    k.set(Keyword::Armor);
    k.set(Keyword::Shields(1));
    k.set(Keyword::Parry(1));
    k.set(Keyword::Evade(1));
    k.set(Keyword::Deflect(1));
    k.set(Keyword::Retaliate(3));
    k.set(Keyword::Stun(1));
    (a, d)
}

fn single(c: &mut Criterion) {
    for power in [10, 20, 40] {
        let (a, d) = loaded(power);
        c.bench_function(
            &format!("attack/power {power}, every static keyword"),
            |b| b.iter(|| attack(black_box(&a), black_box(&d)).unwrap()),
        );
        c.bench_function(&format!("attack_u128/power {power}"), |b| {
            b.iter(|| swtcg_engine::attack::attack_with::<u128>(black_box(&a), black_box(&d)))
        });
    }
}

fn table(c: &mut Criterion) {
    let grid = Grid::new()
        .with(Param::Power, (1..=40).collect())
        .with(Param::Crit, (0..=4).collect())
        .with(Param::Parry, (0..=3).collect());
    assert_eq!(grid.len(), 800);
    c.bench_function(
        "table/power 1..40 x crit 0..4 x parry 0..3 (800 attacks)",
        |b| b.iter(|| black_box(&grid).rows().unwrap()),
    );
}

criterion_group!(benches, single, table);
criterion_main!(benches);
