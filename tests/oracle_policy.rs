//! The game oracle: for small dice counts, every face sequence, every subset
//! of dice a Lucky side may re-roll and every legal choice of both players
//! (Overkill splits, Deflect targets and chains, paid Evade, paid
//! Retaliate, Intercept) is brute-forced, and the exact value must equal
//! the solver's, for every objective and both Lucky policies and orders.

mod common;

use common::game::{Brute, LuckyPlay, Obj, Q, Who};
use itertools::iproduct;
use num_rational::BigRational;
use swtcg_odds::attack::{Objective, Side};
use swtcg_odds::policy::{Game, LuckyOrder, LuckyPolicy, Policy, solve};
use swtcg_odds::scenario::unit_from_texts;
use swtcg_odds::unit::Unit;

fn unit(name: &str, power: u32, health: Option<u32>, counters: u32, kws: &[&str]) -> Unit {
    unit_from_texts(name, power, health, counters, kws, false)
        .unwrap()
        .0
}

fn big(q: Q) -> BigRational {
    BigRational::new((*q.numer()).into(), (*q.denom()).into())
}

const OBJECTIVES: [(Objective, Obj); 3] = [
    (Objective::Damage, Obj::Damage),
    (Objective::Discard, Obj::Discard),
    (Objective::Net, Obj::Net),
];

/// Solver and brute force agree on the value of `units` (attacker first,
/// declared defender second) under every policy given.
fn check(
    units: Vec<Unit>,
    sides: Vec<Side>,
    objectives: &[(Objective, Obj)],
    lucky: &[LuckyPolicy],
    orders: &[bool],
) {
    for (&(objective, obj), &l, &attacker_first) in iproduct!(objectives, lucky, orders) {
        let policy = Policy {
            objective,
            lucky: l,
            lucky_order: if attacker_first {
                LuckyOrder::AttackerFirst
            } else {
                LuckyOrder::DefenderFirst
            },
        };
        let game = Game {
            units: units.clone(),
            sides: sides.clone(),
            policy,
        };
        let brute = Brute {
            units: units.clone(),
            sides: sides
                .iter()
                .map(|s| {
                    if *s == Side::Attacking {
                        Who::Att
                    } else {
                        Who::Def
                    }
                })
                .collect(),
            objective: obj,
            lucky: if l == LuckyPolicy::Optimal {
                LuckyPlay::Optimal
            } else {
                LuckyPlay::Simple
            },
            attacker_first,
        };
        let got = solve(&game).unwrap();
        assert!(got.solution.tallies.sums_to_one());
        assert!(got.solution.final_roll.sums_to_one());
        assert_eq!(
            got.solution.value,
            big(brute.value()),
            "{objective:?} {l:?} attacker_first={attacker_first}\n{units:#?}"
        );
    }
}

fn duel() -> Vec<Side> {
    vec![Side::Attacking, Side::Defending]
}

#[test]
fn lucky_both_sides_every_policy() {
    let mut cases = 0;
    for (power, fury, accuracy, armor, crit, parry, la, ld, health) in iproduct!(
        1..=3u32,
        0..=1u32,
        [-1, 0, 2],
        [false, true],
        [0, 2],
        [0, 1],
        0..=2u32,
        0..=2u32,
        [None, Some(2)]
    ) {
        if power + fury > 4 || (la == 0 && ld == 0) || (fury == 1 && (la == 2 || ld == 2)) {
            continue;
        }
        let mut a = unit("a", power, None, 0, &[]);
        a.keywords.fury = fury;
        a.keywords.accuracy = accuracy;
        a.keywords.crit = crit;
        a.keywords.lucky = la;
        let mut d = unit("d", 1, health, 0, &[]);
        d.keywords.armor = armor;
        d.keywords.parry = parry;
        d.keywords.lucky = ld;
        let objectives: &[_] = if health.is_some() {
            &OBJECTIVES
        } else {
            &OBJECTIVES[..1]
        };
        check(
            vec![a, d],
            duel(),
            objectives,
            &[LuckyPolicy::Optimal, LuckyPolicy::Simple],
            &[true, false],
        );
        cases += 1;
    }
    assert!(cases > 300, "{cases}");
}

#[test]
fn deflect_evade_and_retaliate_choices() {
    let att_kws: [&[&str]; 5] = [
        &[],
        &["Deflect 1"],
        &["Pay 1 Force -> Deflect 2"],
        &["Evade 1", "Pay 1 Force -> Evade 1"],
        &["Ferocity", "Deflect 1"],
    ];
    let def_kws: [&[&str]; 7] = [
        &["Deflect 1"],
        &["Pay 2 Force -> Deflect 2", "Parry 1"],
        &["Pay 2 Force -> Evade 2"],
        &["Pay 1 Force -> Retaliate 2"],
        &["Retaliate 1", "Deflect 1"],
        &["Fortitude", "Deflect 1", "Pay 1 Force -> Evade 1"],
        &[
            "Armor",
            "Pay 1 Force -> Retaliate 1",
            "Pay 1 Force -> Deflect 1",
        ],
    ];
    for (ak, dk, (ah, dh)) in iproduct!(
        att_kws,
        def_kws,
        [(None, None), (Some(2), Some(2)), (Some(3), Some(1))]
    ) {
        let a = unit("a", 2, ah, 0, ak);
        let d = unit("d", 1, dh, 0, dk);
        let objectives: &[_] = if ah.is_some() {
            &OBJECTIVES
        } else {
            &OBJECTIVES[..1]
        };
        check(
            vec![a, d],
            duel(),
            objectives,
            &[LuckyPolicy::Optimal],
            &[true],
        );
    }
}

#[test]
fn overkill_intercept_and_third_units() {
    let thirds: [(&[&str], Side); 5] = [
        (&[], Side::Defending),
        (&["Pay 0 Force -> Intercept"], Side::Defending),
        (
            &["Pay 1 Force -> Intercept", "Armor", "Deflect 1"],
            Side::Defending,
        ),
        (&["Deflect 1"], Side::Attacking),
        (&["Intercept", "Pay 1 Force -> Evade 1"], Side::Defending),
    ];
    let attackers: [&[&str]; 4] = [
        &["Overkill"],
        &["Overkill", "Critical Hit 1"],
        &["Precision"],
        &["Overkill", "Lucky 1"],
    ];
    let defenders: [&[&str]; 3] = [&[], &["Deflect 1"], &["Pay 1 Force -> Retaliate 1"]];
    for (ak, dk, (tk, side), power) in iproduct!(attackers, defenders, thirds, [2u32, 3]) {
        let a = unit("a", power, Some(3), 0, ak);
        let d = unit("d", 1, Some(2), 1, dk);
        let t = unit("t", 1, Some(2), 0, tk);
        check(
            vec![a, d, t],
            vec![Side::Attacking, Side::Defending, side],
            &OBJECTIVES,
            &[LuckyPolicy::Optimal],
            &[true],
        );
    }
}

/// Optimal Lucky is never worse for its side than simple Lucky.
#[test]
fn optimal_lucky_never_worse_than_simple() {
    for (power, accuracy, crit, parry, x, attacker_side) in iproduct!(
        1..=6u32,
        [-1, 0, 1],
        [0, 2],
        [0, 2],
        1..=3u32,
        [true, false]
    ) {
        let mut a = unit("a", power, None, 0, &[]);
        a.keywords.accuracy = accuracy;
        a.keywords.crit = crit;
        let mut d = unit("d", 1, Some(4), 0, &[]);
        d.keywords.parry = parry;
        if attacker_side {
            a.keywords.lucky = x;
        } else {
            d.keywords.lucky = x;
        }
        let value = |lucky| {
            let game = Game {
                units: vec![a.clone(), d.clone()],
                sides: duel(),
                policy: Policy {
                    lucky,
                    ..Policy::default()
                },
            };
            solve(&game).unwrap().solution.value
        };
        let (opt, simple) = (value(LuckyPolicy::Optimal), value(LuckyPolicy::Simple));
        if attacker_side {
            assert!(opt >= simple, "{a:?} {d:?}: {opt} < {simple}");
        } else {
            assert!(opt <= simple, "{a:?} {d:?}: {opt} > {simple}");
        }
    }
}

/// Under simple play, the law of the final hits matches the brute force.
#[test]
fn simple_lucky_hits_law() {
    for (power, accuracy, la, ld, first) in
        iproduct!(1..=4u32, [-2, 0, 3], 0..=2u32, 0..=2u32, [true, false])
    {
        let mut a = unit("a", power, None, 0, &[]);
        a.keywords.accuracy = accuracy;
        a.keywords.lucky = la;
        let mut d = unit("d", 1, None, 0, &[]);
        d.keywords.lucky = ld;
        let game = Game {
            units: vec![a.clone(), d.clone()],
            sides: duel(),
            policy: Policy {
                lucky: LuckyPolicy::Simple,
                lucky_order: if first {
                    LuckyOrder::AttackerFirst
                } else {
                    LuckyOrder::DefenderFirst
                },
                ..Policy::default()
            },
        };
        let got = solve(&game).unwrap().solution.final_roll;
        let brute = Brute {
            units: vec![a, d],
            sides: vec![Who::Att, Who::Def],
            objective: Obj::Damage,
            lucky: LuckyPlay::Simple,
            attacker_first: first,
        }
        .simple_hits();
        for (h, p) in brute {
            assert_eq!(got.prob(|r| r.hits == h), big(p), "hits {h}");
        }
    }
}

/// The example of docs/policy.md: optimal Lucky strictly beats simple, and
/// both values are the brute force's.
#[test]
fn docs_example_optimal_beats_simple() {
    let a = unit("a", 3, None, 0, &["Critical Hit 2", "Lucky 1"]);
    let d = unit("d", 1, Some(4), 0, &["Parry 2"]);
    check(
        vec![a.clone(), d.clone()],
        duel(),
        &OBJECTIVES[..1],
        &[LuckyPolicy::Optimal, LuckyPolicy::Simple],
        &[true],
    );
    let value = |lucky| {
        let policy = Policy {
            lucky,
            ..Policy::default()
        };
        solve(&Game {
            units: vec![a.clone(), d.clone()],
            sides: duel(),
            policy,
        })
        .unwrap()
        .solution
        .value
    };
    assert!(value(LuckyPolicy::Optimal) > value(LuckyPolicy::Simple));
}
