//! Checking your own Monte Carlo engine against the exact law, the way you
//! would in `cargo test`.
//!
//! Run: `cargo run --release --example verify_simulator`
//!
//! "Your engine" here is a small hand-written simulator of one attack:
//! power 5 with Critical Hit 1, against a defender with Parry 1. It rolls
//! dice with the crate's seeded generator; yours would use its own.

use std::collections::BTreeMap;
use swtcg_engine::attack::attack;
use swtcg_engine::keywords::Keyword;
use swtcg_engine::sample::Rng;
use swtcg_engine::unit::Unit;
use swtcg_engine::verify::check;

/// Your engine: damage of one attack.
fn my_engine(rng: &mut Rng) -> i64 {
    let faces: Vec<i32> = (0..5).map(|_| rng.d6()).collect();
    let hits = faces.iter().filter(|&&f| f >= 4).count() as i64;
    let crit = if faces.contains(&6) { 1 } else { 0 };
    let parry = if faces.contains(&1) { 1 } else { 0 };
    (hits + crit - parry).max(0)
}

pub fn main() {
    // 1. Your engine's counts.
    let mut rng = Rng::new(2026);
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    for _ in 0..200_000 {
        *counts.entry(my_engine(&mut rng)).or_insert(0) += 1;
    }
    // 2. The exact law of the same attack.
    let mut attacker = Unit::new("attacker", 5);
    attacker.keywords.set(Keyword::CriticalHit(1));
    let mut defender = Unit::new("defender", 3);
    defender.keywords.set(Keyword::Parry(1));
    let exact = attack(&attacker, &defender)
        .expect("valid units")
        .defender_damage;
    // 3. The verdict.
    let v = check(&exact, &counts, 0.001).expect("valid counts");
    print!("{}", v.to_text("defender_damage"));
    assert!(v.consistent(), "the engine disagrees with the exact law");
}
