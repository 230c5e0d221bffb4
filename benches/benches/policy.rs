//! Criterion benchmarks for the targets of issue #3: optimal Lucky 3 on
//! both sides at power 20 and 40, Lucky 6 on both sides at power 60, in
//! the rules' re-roll POP (the default since issue 9: a player who passed
//! may still answer, so there are more stages to solve) and in the fixed
//! order attacker-then-defender that issue 3 measured.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use swtcg_engine::attack::Side;
use swtcg_engine::keywords::Keyword;
use swtcg_engine::policy::{Game, LuckyOrder, Policy, solve};
use swtcg_engine::unit::Unit;

/// Attacker with Critical Hit 2 and Lucky `x`, against a defender with Parry
/// 1, Lucky `x` and health 12, both playing optimally for damage.
fn game(power: u32, x: u32, lucky_order: LuckyOrder) -> Game {
    let mut a = Unit::new("attacker", power);
    a.keywords.set(Keyword::CriticalHit(2));
    a.keywords.set(Keyword::Lucky(x));
    let mut d = Unit::new("defender", 4);
    d.keywords.set(Keyword::Parry(1));
    d.keywords.set(Keyword::Lucky(x));
    d.health = Some(12);
    Game {
        units: vec![a, d],
        sides: vec![Side::Attacking, Side::Defending],
        policy: Policy {
            lucky_order,
            ..Policy::default()
        },
        force: [None, None],
    }
}

fn lucky(c: &mut Criterion) {
    let mut g = c.benchmark_group("optimal lucky");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (power, x) in [(20, 3), (40, 3), (60, 6)] {
        let pop = game(power, x, LuckyOrder::Pop);
        g.bench_function(format!("power {power}, Lucky {x} both sides"), |b| {
            b.iter(|| solve(black_box(&pop)).unwrap())
        });
        let fixed = game(power, x, LuckyOrder::AttackerFirst);
        g.bench_function(
            format!("power {power}, Lucky {x} both sides, attacker first"),
            |b| b.iter(|| solve(black_box(&fixed)).unwrap()),
        );
    }
    g.finish();
}

criterion_group!(benches, lucky);
criterion_main!(benches);
