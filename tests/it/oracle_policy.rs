//! The game oracle: for small dice counts, every face sequence, every subset
//! of dice a Lucky side may re-roll and every legal choice of both players
//! (Overkill splits, Deflect targets and chains, paid Evade, paid
//! Retaliate, Intercept) is brute-forced, and the exact value must equal
//! the solver's, for every objective and both Lucky policies and orders.

use crate::common::game::{Brute, LuckyPlay, Obj, Order, Q, Who};
use crate::common::switch;
use itertools::iproduct;
use num_rational::BigRational;
use swtcg_engine::attack::{Objective, Side};
use swtcg_engine::keywords::{Keyword, KeywordKind, UnitEffect};
use swtcg_engine::policy::{Game, LuckyOrder, LuckyPolicy, Policy, solve};
use swtcg_engine::unit::Unit;

fn unit(name: &str, power: u32, health: Option<u32>, counters: u32, kws: &[&str]) -> Unit {
    let mut u = Unit::from_card_text(name, power, health, kws).unwrap();
    u.counters = counters;
    u
}

fn big(q: Q) -> BigRational {
    BigRational::new((*q.numer()).into(), (*q.denom()).into())
}

const OBJECTIVES: [(Objective, Obj); 3] = [
    (Objective::Damage, Obj::Damage),
    (Objective::Discard, Obj::Discard),
    (Objective::Net, Obj::Net),
];

/// Every objective when healths are known (discard and net need them), else
/// damage alone.
fn objectives_when(health_known: bool) -> &'static [(Objective, Obj)] {
    if health_known {
        &OBJECTIVES
    } else {
        &OBJECTIVES[..1]
    }
}

/// Every order of the two sides' Lucky.
const ORDERS: [LuckyOrder; 4] = [
    LuckyOrder::Pop,
    LuckyOrder::PopDefenderFirst,
    LuckyOrder::AttackerFirst,
    LuckyOrder::DefenderFirst,
];

fn order(o: LuckyOrder) -> Order {
    match o {
        LuckyOrder::Pop => Order::Pop,
        LuckyOrder::PopDefenderFirst => Order::PopDefenderFirst,
        LuckyOrder::AttackerFirst => Order::AttackerFirst,
        LuckyOrder::DefenderFirst => Order::DefenderFirst,
    }
}

fn who(s: Side) -> Who {
    if s == Side::Attacking {
        Who::Att
    } else {
        Who::Def
    }
}

/// Solver and brute force agree on the value of `units` (attacker first,
/// declared defender second) under every policy given, with unlimited
/// Force.
fn check(
    units: Vec<Unit>,
    sides: Vec<Side>,
    objectives: &[(Objective, Obj)],
    lucky: &[LuckyPolicy],
    orders: &[LuckyOrder],
) {
    check_with(units, sides, objectives, lucky, orders, [None, None]);
}

/// [`check`] with Force budgets.
fn check_with(
    units: Vec<Unit>,
    sides: Vec<Side>,
    objectives: &[(Objective, Obj)],
    lucky: &[LuckyPolicy],
    orders: &[LuckyOrder],
    force: [Option<u32>; 2],
) {
    for (&(objective, obj), &l, &lucky_order) in iproduct!(objectives, lucky, orders) {
        let policy = Policy {
            objective,
            lucky: l,
            lucky_order,
        };
        let game = Game {
            units: units.clone(),
            sides: sides.clone(),
            policy,
            force,
        };
        let mut brute = Brute::new(
            units.clone(),
            sides.iter().map(|s| who(*s)).collect(),
            obj,
            if l == LuckyPolicy::Optimal {
                LuckyPlay::Optimal
            } else {
                LuckyPlay::Simple
            },
            order(lucky_order),
        );
        brute.force = force;
        let got = solve(&game).unwrap();
        // Checks that can fail: the laws' weights sum to their denominators.
        assert_eq!(
            got.solution.tallies.prob(|_| true),
            BigRational::from_integer(1.into())
        );
        assert_eq!(
            got.solution.final_roll.prob(|_| true),
            BigRational::from_integer(1.into())
        );
        assert_eq!(
            got.solution.value,
            big(brute.value()),
            "{objective:?} {l:?} {lucky_order:?} force {force:?}\n{units:#?}"
        );
    }
}

fn duel() -> Vec<Side> {
    vec![Side::Attacking, Side::Defending]
}

#[test]
fn lucky_both_sides_every_policy() {
    // One case in five of the grid, every Lucky pairing among them; the
    // whole grid is `exhaustive_lucky_both_sides_every_policy`, which
    // .ci/run runs.
    let mut seen = std::collections::BTreeSet::new();
    let cases = lucky_both_sides(|i, la, ld| {
        let kept = i % 5 == 0;
        if kept {
            seen.insert((la, ld));
        }
        kept
    });
    assert!(cases > 60, "{cases}");
    assert_eq!(seen.len(), 8, "{seen:?}");
}

/// The whole grid of [`lucky_both_sides_every_policy`] (about 45 s of one
/// core).
#[test]
#[ignore = "the full grid, about 45 s: run by .ci/run (cargo test --test it exhaustive -- --ignored)"]
fn exhaustive_lucky_both_sides_every_policy() {
    let cases = lucky_both_sides(|_, _, _| true);
    assert!(cases > 300, "{cases}");
}

/// Checks the cases of the Lucky grid that `keep` picks (by their index
/// among the grid's valid cases, and their Lucky numbers) against the brute
/// force, and returns how many it checked.
fn lucky_both_sides(mut keep: impl FnMut(usize, u32, u32) -> bool) -> usize {
    let mut cases = 0;
    let mut valid = 0;
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
        valid += 1;
        if !keep(valid - 1, la, ld) {
            continue;
        }
        let mut a = unit("a", power, None, 0, &[]);
        a.keywords.set(Keyword::Fury(fury));
        a.keywords.set(Keyword::Accuracy(accuracy));
        a.keywords.set(Keyword::CriticalHit(crit));
        a.keywords.set(Keyword::Lucky(la));
        let mut d = unit("d", 1, health, 0, &[]);
        switch(&mut d.keywords, Keyword::Armor, armor);
        d.keywords.set(Keyword::Parry(parry));
        d.keywords.set(Keyword::Lucky(ld));
        let objectives = objectives_when(health.is_some());
        check(
            vec![a, d],
            duel(),
            objectives,
            &[LuckyPolicy::Optimal, LuckyPolicy::Simple],
            &ORDERS,
        );
        cases += 1;
    }
    cases
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
        let objectives = objectives_when(ah.is_some());
        check(
            vec![a, d],
            duel(),
            objectives,
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
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
            &[LuckyOrder::Pop],
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
        a.keywords.set(Keyword::Accuracy(accuracy));
        a.keywords.set(Keyword::CriticalHit(crit));
        let mut d = unit("d", 1, Some(4), 0, &[]);
        d.keywords.set(Keyword::Parry(parry));
        if attacker_side {
            a.keywords.set(Keyword::Lucky(x));
        } else {
            d.keywords.set(Keyword::Lucky(x));
        }
        let value = |lucky| {
            let game = Game {
                units: vec![a.clone(), d.clone()],
                sides: duel(),
                policy: Policy {
                    lucky,
                    ..Policy::default()
                },
                force: [None, None],
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
    for (power, accuracy, la, ld, lucky_order) in
        iproduct!(1..=4u32, [-2, 0, 3], 0..=2u32, 0..=2u32, ORDERS)
    {
        let mut a = unit("a", power, None, 0, &[]);
        a.keywords.set(Keyword::Accuracy(accuracy));
        a.keywords.set(Keyword::Lucky(la));
        let mut d = unit("d", 1, None, 0, &[]);
        d.keywords.set(Keyword::Lucky(ld));
        let game = Game {
            units: vec![a.clone(), d.clone()],
            sides: duel(),
            policy: Policy {
                lucky: LuckyPolicy::Simple,
                lucky_order,
                ..Policy::default()
            },
            force: [None, None],
        };
        let got = solve(&game).unwrap().solution.final_roll;
        let brute = Brute::new(
            vec![a, d],
            vec![Who::Att, Who::Def],
            Obj::Damage,
            LuckyPlay::Simple,
            order(lucky_order),
        )
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
        &[LuckyOrder::Pop, LuckyOrder::AttackerFirst],
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
            force: [None, None],
        })
        .unwrap()
        .solution
        .value
    };
    assert!(value(LuckyPolicy::Optimal) > value(LuckyPolicy::Simple));
}

/// Random small scenarios (seeded): Lucky in every order, several and
/// optional Retaliates, Parry with Deflect, paid and X prevention within
/// Force budgets, options before the roll, tolls, consolation, damage to
/// itself, extra damage. Each is brute-forced over every face and choice.
#[test]
fn random_small_scenarios() {
    use swtcg_engine::keywords::parse;
    use swtcg_engine::keywords::{Boost, Change};
    use swtcg_engine::sample::Rng;
    let att_pool: &[&str] = &[
        "Critical Hit 1",
        "Accuracy 1",
        "Evade 1",
        "Deflect 1",
        "Pay 1 Force -> Deflect 1",
        "Pay 1 Force -> Evade 1",
        "Pay X Force -> Evade X",
        "Lucky 1",
        "Fury 1",
        "Ferocity",
        "Stun 1",
        // A keyword read from the roll on, bought before the roll.
        "Pay 1 Force -> Critical Hit 1",
    ];
    let def_pool: &[&str] = &[
        "Parry 1",
        "Parry 2",
        "Deflect 1",
        "Evade 1",
        "Armor",
        "Retaliate 1",
        "Pay 0 Force -> Retaliate 1",
        "Pay 1 Force -> Retaliate 2",
        "Pay 1 Force -> Evade 1",
        "Pay X Force -> Evade X",
        "Pay 1 Force -> Deflect 1",
        "Lucky 1",
        "Fortitude",
        // Prevents as a paid Evade does.
        "Pay 1 Force -> Absorb 1",
        "Pay X Force -> Persuade X",
    ];
    let mut rng = Rng::new(2026);
    let mut pick = |n: u64| (rng.next_u64() % n) as usize;
    let mut cases = 0;
    let mut boosted = 0;
    let mut paid_absorbs = 0;
    for case in 0..800 {
        let mut a = unit("a", 1 + pick(2) as u32, Some(2 + pick(3) as u32), 0, &[]);
        let mut d = unit("d", 1, Some(1 + pick(4) as u32), 0, &[]);
        for _ in 0..1 + pick(3) {
            a.keywords
                .add(&[parse(att_pool[pick(att_pool.len() as u64)]).unwrap()]);
        }
        for _ in 0..1 + pick(3) {
            d.keywords
                .add(&[parse(def_pool[pick(def_pool.len() as u64)]).unwrap()]);
        }
        match pick(8) {
            0 => a.keywords.apply(UnitEffect::Boost(Boost {
                source: Default::default(),
                cost: pick(2) as u32,
                mine: Change {
                    power: 1,
                    abilities: vec![parse("Critical Hit 1").unwrap()],
                    ..Change::default()
                },
                text: "boost".into(),
                ..Boost::default()
            })),
            1 => a.keywords.apply(UnitEffect::Boost(Boost {
                source: Default::default(),
                mine: Change {
                    power: 1,
                    self_damage: Some((1, pick(2) == 0)),
                    ..Change::default()
                },
                text: "Overload".into(),
                ..Boost::default()
            })),
            2 => d.keywords.apply(UnitEffect::Toll(1)),
            3 => a.keywords.apply(UnitEffect::Consolation {
                own: 1,
                defender: 1,
            }),
            4 => d.keywords.apply(UnitEffect::Boost(Boost {
                source: Default::default(),
                cost: 1,
                theirs: Change {
                    power: -1,
                    ..Change::default()
                },
                text: "-1 power".into(),
                ..Boost::default()
            })),
            5 => a.keywords.apply(UnitEffect::ExtraDamage(1)),
            _ => &mut a.keywords,
        };
        boosted += !a.keywords.boosts().is_empty() as u32 + !d.keywords.boosts().is_empty() as u32;
        let absorbs = d
            .keywords
            .paid(KeywordKind::Evade)
            .iter()
            .any(|p| p.from.is_some());
        let dice = a.power + 1 + a.keywords.number(KeywordKind::Fury) as u32;
        let ret: u32 = crate::common::retaliate_dice(&d);
        if dice
            + ret
            + a.keywords.number(KeywordKind::Lucky) as u32
            + d.keywords.number(KeywordKind::Lucky) as u32
            > 7
        {
            continue;
        }
        let force = [
            [None, Some(0), Some(1), Some(2)][pick(4)],
            [None, Some(0), Some(1), Some(2)][pick(4)],
        ];
        let x_needs = |u: &Unit| {
            let k = &u.keywords;
            k.paid(KeywordKind::Evade)
                .iter()
                .chain(k.paid(KeywordKind::Deflect))
                .chain(k.paid(KeywordKind::Retaliate))
                .any(|p| p.x)
        };
        // A cost of X with no budget is priced by the default (X up to 4)
        // half the time.
        let budget = pick(2) == 0;
        let force = [
            force[0].or((budget && x_needs(&a)).then_some(2)),
            force[1].or((budget && x_needs(&d)).then_some(2)),
        ];
        let objective = OBJECTIVES[case % 3];
        let orders: &[LuckyOrder] = if a.keywords.number(KeywordKind::Lucky) as u32
            + d.keywords.number(KeywordKind::Lucky) as u32
            > 0
        {
            &ORDERS
        } else {
            &ORDERS[..1]
        };
        check_with(
            vec![a, d],
            duel(),
            &[objective],
            &[LuckyPolicy::Optimal],
            orders,
            force,
        );
        cases += 1;
        paid_absorbs += absorbs as u32;
    }
    assert!(cases >= 500, "{cases}");
    assert!(boosted >= 100, "{boosted}");
    assert!(paid_absorbs >= 50, "{paid_absorbs}");
}

/// Random small scenarios with the glossary's keywords (seeded): Backfire,
/// Riposte, Double Damage, Absorb, Persuade, Resilience and Cunning in
/// duels; Protect, Redirect, Avenge, Inspiration and Intimidation with a
/// third unit; Adapt's choice. Each is brute-forced over every face and
/// choice.
#[test]
fn random_glossary_scenarios() {
    use swtcg_engine::keywords::parse;
    use swtcg_engine::sample::Rng;
    let att_pool: &[&str] = &[
        "Backfire 1",
        "Double Damage",
        "Cunning",
        "Resilience 1",
        "Resilience -1",
        "Critical Hit 1",
        "Deflect 1",
        "Evade 1",
        "Precision",
        "Overkill",
    ];
    let def_pool: &[&str] = &[
        "Riposte 1",
        "Riposte 2",
        "Absorb 1",
        "Persuade 1",
        "Deflect 1",
        "Pay 1 Force -> Deflect 1",
        "Pay 1 Force -> Evade 1",
        "Parry 1",
        "Retaliate 1",
        "Redirect",
        "Armor",
    ];
    let third_pool: &[&str] = &[
        "Protect 1",
        "Avenge 1",
        "Inspiration",
        "Intimidation",
        "Deflect 1",
        "Evade 1",
    ];
    let mut rng = Rng::new(14);
    let mut pick = |n: u64| (rng.next_u64() % n) as usize;
    let mut cases = 0;
    for case in 0..500 {
        let mut a = unit(
            "a",
            1 + pick(3) as u32,
            Some(2 + pick(3) as u32),
            pick(2) as u32,
            &[],
        );
        let mut d = unit("d", 1, Some(1 + pick(3) as u32), 0, &[]);
        for _ in 0..1 + pick(2) {
            a.keywords
                .add(&[parse(att_pool[pick(att_pool.len() as u64)]).unwrap()]);
        }
        for _ in 0..1 + pick(3) {
            d.keywords
                .add(&[parse(def_pool[pick(def_pool.len() as u64)]).unwrap()]);
        }
        // Adapt's texts: one keyword each, a list of keywords, or `None`
        // (a text that changes nothing in an attack).
        if pick(5) == 0 {
            d.keywords.set(Keyword::Adapt(
                match pick(3) {
                    0 => vec!["Evade 1", "Retaliate 1"],
                    1 => vec!["Evade 1, Retaliate 1", "None"],
                    _ => vec!["None", "Parry 1, Armor"],
                }
                .into_iter()
                .map(String::from)
                .collect(),
            ));
        }
        if pick(6) == 0 {
            a.keywords.set(Keyword::Adapt(vec![
                "Critical Hit 1, Accuracy 1".into(),
                "None".into(),
            ]));
        }
        // An attack from another arena (Bombard and its kin): no Retaliate,
        // no Deflect back at the attacker.
        a.from_another_arena = pick(4) == 0;
        let mut units = vec![a, d];
        let mut sides = duel();
        if pick(2) == 0 {
            let mut t = unit("t", 1, Some(1 + pick(2) as u32), 0, &[]);
            t.keywords
                .add(&[parse(third_pool[pick(third_pool.len() as u64)]).unwrap()]);
            units.push(t);
            sides.push(if pick(4) == 0 {
                Side::Attacking
            } else {
                Side::Defending
            });
        }
        let dice = units[0].dice()
            + 1
            + units[0].keywords.number(KeywordKind::Backfire) as u32
            + units
                .iter()
                .map(|u| {
                    crate::common::retaliate_dice(u) + u.keywords.number(KeywordKind::Avenge) as u32
                })
                .sum::<u32>();
        if dice > 6 {
            continue;
        }
        let force = [None, [None, Some(0), Some(1)][pick(3)]];
        check_with(
            units,
            sides,
            &[OBJECTIVES[case % 3]],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
            force,
        );
        cases += 1;
    }
    assert!(cases >= 250, "{cases}");
}

/// Backfire (a natural 3 before re-rolls), Riposte (a natural 2 in the
/// final roll), Focus (a natural 5 before re-rolls) and Cunning (prevention
/// committed before the roll) with Lucky on either side or both: the value
/// of every objective, in every Lucky order, equals the brute force over
/// every face, every re-roll and every choice.
#[test]
fn faces_before_and_after_rerolls_with_lucky() {
    use swtcg_engine::keywords::parse;
    use swtcg_engine::sample::Rng;
    let mut rng = Rng::new(18);
    let mut pick = |n: u64| (rng.next_u64() % n) as usize;
    let att_pool: &[&str] = &[
        "Backfire 1",
        "Backfire 2",
        "Cunning",
        "Focus 1",
        "Critical Hit 1",
        "Fury 1",
        "Accuracy 2",
    ];
    let def_pool: &[&str] = &[
        "Riposte 1",
        "Riposte 2",
        "Deflect 1",
        "Pay 1 Force -> Evade 1",
        "Parry 1",
        "Armor",
        "Evade 1",
    ];
    let mut cases = 0;
    let mut kinds = [0usize; 4];
    for case in 0..400 {
        let mut a = unit("a", 1 + pick(2) as u32, Some(2 + pick(3) as u32), 0, &[]);
        let mut d = unit("d", 1, Some(1 + pick(3) as u32), 0, &[]);
        for _ in 0..1 + pick(2) {
            a.keywords
                .add(&[parse(att_pool[pick(att_pool.len() as u64)]).unwrap()]);
        }
        for _ in 0..1 + pick(2) {
            d.keywords
                .add(&[parse(def_pool[pick(def_pool.len() as u64)]).unwrap()]);
        }
        match pick(3) {
            0 => {
                a.keywords.set(Keyword::Lucky(1));
            }
            1 => {
                d.keywords.set(Keyword::Lucky(1));
            }
            _ => {
                a.keywords.set(Keyword::Lucky(1));
                d.keywords.set(Keyword::Lucky(1));
            }
        }
        let k = &a.keywords;
        let dk = &d.keywords;
        let glossary = [
            k.number(KeywordKind::Backfire) as u32 > 0,
            dk.number(KeywordKind::Riposte) as u32 > 0,
            k.number(KeywordKind::Focus) as u32 > 0,
            k.has(KeywordKind::Cunning),
        ];
        if !glossary.iter().any(|&g| g) {
            continue;
        }
        let dice =
            a.dice() + k.number(KeywordKind::Fury) as u32 + k.number(KeywordKind::Backfire) as u32;
        if dice > 4 {
            continue;
        }
        if k.has(KeywordKind::Cunning)
            && dk.number(KeywordKind::Lucky) as u32 > 0
            && (k.number(KeywordKind::Lucky) as u32 > 0 || k.number(KeywordKind::Fury) as u32 > 0)
        {
            // Lucky on both sides against Cunning, or the defender's blind
            // Lucky with Fury's extra dice, is refused (issue 30).
            let game = Game::new(vec![a.clone(), d.clone()], duel(), Default::default());
            let e = solve(&game).unwrap_err();
            assert_eq!(e.kind(), swtcg_engine::error::ErrorKind::NotModelled);
            continue;
        }
        for (n, g) in kinds.iter_mut().zip(glossary) {
            *n += g as usize;
        }
        let force = [None, [None, Some(0), Some(1)][pick(3)]];
        check_with(
            vec![a, d],
            duel(),
            &[OBJECTIVES[case % 3]],
            &[LuckyPolicy::Optimal, LuckyPolicy::Simple],
            &ORDERS,
            force,
        );
        cases += 1;
    }
    assert!(cases >= 150, "{cases}");
    assert!(kinds.iter().all(|&n| n >= 20), "{kinds:?}");
}

/// With Lucky, the roll law carries what the rules read before and after
/// the re-rolls: the joint law of (hits, a natural 2 in the final roll, a
/// natural 3 and a natural 5 before re-rolls) under simple Lucky equals the
/// brute force over every face sequence and every re-roll.
#[test]
fn the_roll_law_keeps_faces_before_and_after_rerolls() {
    use std::collections::HashMap;
    for (power, fury, la, ld, acc) in iproduct!(1..=3u32, 0..=1u32, 0..=2u32, 0..=1u32, [0, 2]) {
        if la + ld == 0 || power + fury > 4 {
            continue;
        }
        let mut a = unit("a", power, None, 0, &["Backfire 1", "Focus 1"]);
        a.keywords.set(Keyword::Fury(fury));
        a.keywords.set(Keyword::Lucky(la));
        a.keywords.set(Keyword::Accuracy(acc));
        let mut d = unit("d", 1, None, 0, &["Riposte 1"]);
        d.keywords.set(Keyword::Lucky(ld));
        for lucky_order in [LuckyOrder::AttackerFirst, LuckyOrder::DefenderFirst] {
            let game = Game {
                units: vec![a.clone(), d.clone()],
                sides: duel(),
                policy: Policy {
                    objective: Objective::Damage,
                    lucky: LuckyPolicy::Simple,
                    lucky_order,
                },
                force: [None, None],
            };
            let got = solve(&game).unwrap();
            let brute = Brute::new(
                vec![a.clone(), d.clone()],
                vec![Who::Att, Who::Def],
                Obj::Damage,
                LuckyPlay::Simple,
                order(lucky_order),
            )
            .simple_flags();
            let mut mine: HashMap<(u32, bool, bool, bool), BigRational> = HashMap::new();
            for (r, _) in got.solution.final_roll.entries() {
                let key = (r.hits, r.two, r.three, r.five);
                let p = got.solution.final_roll.prob(|x| x == r);
                *mine
                    .entry(key)
                    .or_insert_with(|| BigRational::from_integer(0.into())) += p;
            }
            for (k, p) in &brute {
                let m = mine
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| BigRational::from_integer(0.into()));
                assert_eq!(
                    m,
                    big(*p),
                    "{k:?} power {power} fury {fury} lucky {la}/{ld} {lucky_order:?}"
                );
            }
            let total: BigRational = mine.values().cloned().sum();
            assert_eq!(total, BigRational::from_integer(1.into()));
        }
    }
}

/// Issue 30, item 2: a free Evade is optional ("You don't have to use all
/// of the Evade. You choose how much damage to Evade up to X"), Absorb,
/// Persuade and `Pay 0 Force -> Evade` too: under optimal play its owner
/// uses any part of it. Brute-forced over every amount, and pinned on the
/// issue's case: D declines its Evade and is discarded, so V's Avenge rolls
/// 3 dice at A: -1/2 under net, as without the Evade (adding an optional
/// ability never makes its side worse off).
#[test]
fn a_free_evade_is_optional() {
    use swtcg_engine::policy::Policy;
    let a = unit("a", 1, Some(9), 0, &["Accuracy 3"]);
    let v = unit("v", 1, Some(9), 0, &["Avenge 3"]);
    let sides = vec![Side::Attacking, Side::Defending, Side::Defending];
    let net = Policy {
        objective: Objective::Net,
        ..Policy::default()
    };
    let value = |d: &Unit| {
        solve(&Game::new(
            vec![a.clone(), d.clone(), v.clone()],
            sides.clone(),
            net,
        ))
        .unwrap()
        .solution
        .value
    };
    let half = "-1/2".parse::<BigRational>().unwrap();
    assert_eq!(value(&unit("d", 1, Some(1), 0, &["Evade 1"])), half);
    assert_eq!(value(&unit("d", 1, Some(1), 0, &[])), half);
    for kw in [
        "Evade 1",
        "Absorb 1",
        "Persuade 1",
        "Pay 0 Force -> Evade 1",
    ] {
        let d = unit("d", 1, Some(1), 0, &[kw]);
        for objective in OBJECTIVES {
            check(
                vec![a.clone(), d.clone(), v.clone()],
                sides.clone(),
                &[objective],
                &[LuckyPolicy::Optimal],
                &[LuckyOrder::Pop],
            );
        }
    }
    // Part of it: Evade 2 against 3 damage, Retaliate back.
    let a = unit("a", 3, Some(4), 0, &["Accuracy 3"]);
    let d = unit("d", 1, Some(3), 0, &["Evade 2", "Retaliate 1"]);
    for objective in OBJECTIVES {
        check(
            vec![a.clone(), d.clone()],
            duel(),
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
        );
    }
}

/// Issue 30, item 3: after an Intercept, the first defender's Retaliate
/// still resolves ("Each defending unit can activate Retaliate during the
/// attack POP"; "each intercepting unit has been attacked"; each enemy
/// unit may use each of its Retaliates once). Brute-forced, and pinned on
/// the case: under net, D activates Retaliate, O intercepts and
/// evades both hits, and D's 2 dice still hit A: -1.
#[test]
fn retaliate_still_resolves_after_an_intercept() {
    use swtcg_engine::policy::Policy;
    let a = unit("a", 2, Some(9), 0, &[]);
    let d = unit("d", 1, Some(1), 0, &["Retaliate 2"]);
    let o = unit("o", 1, Some(9), 0, &["Evade 2", "Pay 0 Force -> Intercept"]);
    let sides = vec![Side::Attacking, Side::Defending, Side::Defending];
    for objective in OBJECTIVES {
        check(
            vec![a.clone(), d.clone(), o.clone()],
            sides.clone(),
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
        );
    }
    let game = Game::new(
        vec![a, d.clone(), o.clone()],
        sides.clone(),
        Policy {
            objective: Objective::Net,
            ..Policy::default()
        },
    );
    let out = solve(&game).unwrap();
    assert_eq!(out.solution.value, BigRational::from_integer((-1).into()));
    assert_eq!(out.declared.defending, 2);
    assert_eq!(out.declared.declared_retaliates, vec![(0, 2)]);
    // The interceptor's own Retaliate too, with a paid one of the first.
    let a = unit("a", 2, Some(6), 0, &["Accuracy 1"]);
    let d = unit("d", 1, Some(2), 0, &["Pay 1 Force -> Retaliate 1"]);
    let o = unit(
        "o",
        1,
        Some(3),
        0,
        &["Retaliate 1", "Pay 0 Force -> Intercept"],
    );
    for objective in OBJECTIVES {
        check_with(
            vec![a.clone(), d.clone(), o.clone()],
            sides.clone(),
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
            [None, Some(1)],
        );
    }
}

/// Issue 30, item 1: Cunning rolls the attack dice secretly, so the
/// defender's Lucky re-rolls dice it cannot see: brute-forced as a blind
/// choice of positions before any face is seen (the defender takes the
/// lowest), which leaves the law unchanged; pinned on the case
/// (415/216, the value without the defender's Lucky); Lucky on both sides
/// is refused, not solved as if the dice were seen.
#[test]
fn cunning_makes_the_defenders_lucky_blind() {
    use swtcg_engine::error::ErrorKind;
    use swtcg_engine::policy::Policy;
    for (power, crit, lucky, health, backfire) in
        iproduct!(1..=3u32, [0, 1], 1..=2u32, [2, 4], [0, 1])
    {
        let a = unit(
            "a",
            power,
            Some(5),
            0,
            &[
                "Cunning",
                &format!("Critical Hit {crit}"),
                &format!("Backfire {backfire}"),
            ],
        );
        let d = unit(
            "d",
            1,
            Some(health),
            0,
            &[&format!("Lucky {lucky}"), "Parry 1"],
        );
        check(
            vec![a, d],
            duel(),
            &OBJECTIVES,
            &[LuckyPolicy::Optimal, LuckyPolicy::Simple],
            &[LuckyOrder::Pop],
        );
    }
    let a = unit("a", 3, None, 0, &["Cunning", "Critical Hit 1"]);
    let d = unit("d", 1, Some(4), 0, &["Lucky 1"]);
    let out = solve(&Game::new(vec![a.clone(), d], duel(), Policy::default())).unwrap();
    let mean = out.solution.tallies.marginal(|t| t.damage[1] as i64).mean();
    assert_eq!(mean, "415/216".parse::<BigRational>().unwrap());
    let mut both = a;
    both.keywords.set(Keyword::Lucky(1));
    let d = unit("d", 1, Some(4), 0, &["Lucky 1"]);
    let e = solve(&Game::new(vec![both, d.clone()], duel(), Policy::default())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotModelled);
    // With Fury the dice are not exchangeable: refused too.
    let fury = unit("a", 2, None, 0, &["Cunning", "Fury 1"]);
    let e = solve(&Game::new(vec![fury, d], duel(), Policy::default())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotModelled);
}

/// Issue 30, item 5: a unit discarded in the attack does nothing when the
/// attack ends unless its text says so (Retaliate does: "even if your unit
/// gets discarded"). An Overkill attacker discards the defender and the
/// unit with Avenge 2 at once: its Avenge rolls no dice. Brute-forced, and
/// pinned: the attacker takes no damage when both are discarded.
#[test]
fn a_discarded_unit_does_nothing_when_the_attack_ends() {
    use swtcg_engine::policy::Policy;
    let a = unit("a", 4, Some(20), 0, &["Overkill", "Accuracy 3"]);
    let d = unit("d", 1, Some(1), 0, &[]);
    let v = unit("v", 1, Some(1), 0, &["Avenge 2"]);
    let sides = vec![Side::Attacking, Side::Defending, Side::Defending];
    for objective in OBJECTIVES {
        check(
            vec![a.clone(), d.clone(), v.clone()],
            sides.clone(),
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
        );
    }
    let game = Game::new(
        vec![a.clone(), d.clone(), v.clone()],
        sides,
        Policy::default(),
    );
    let out = solve(&game).unwrap();
    let zero = BigRational::from_integer(0.into());
    let both = out.solution.tallies.prob(|t| t.felled & 0b110 == 0b110);
    assert!(both > zero, "the Overkill discards both");
    assert_eq!(
        out.solution
            .tallies
            .prob(|t| t.felled & 0b110 == 0b110 && t.damage[0] > 0),
        zero,
        "a discarded Avenge rolls no dice"
    );
    // Its Retaliate does: a defender discarded still rolls it.
    let d = unit("d", 1, Some(1), 0, &["Retaliate 2"]);
    let a = unit("a", 3, Some(9), 0, &["Accuracy 3"]);
    let game = Game::new(vec![a, d], duel(), Policy::default());
    let out = solve(&game).unwrap();
    assert!(out.solution.tallies.prob(|t| t.damage[0] > 0) > zero);
}

/// RULES.md, issue 18: an attack from another arena can't be Retaliated,
/// and Deflect sends damage only within the deflector's arena (so none of
/// it reaches the attacker); Avenge triggers once for each other unit of
/// its side that damage from the attacker discards, an Overkill target too.
/// Checked against the brute force, with hand-made cases that pin each.
#[test]
fn another_arena_and_avenge_for_each_unit_discarded() {
    use swtcg_engine::policy::Policy;
    // A Retaliating, Deflecting defender: with the attacker in the same
    // arena, damage comes back; from another arena, none does.
    let a = unit("a", 3, Some(5), 0, &[]);
    let d = unit("d", 1, Some(5), 0, &["Retaliate 2", "Deflect 1"]);
    let solve_back = |a: &Unit| {
        let game = Game::new(vec![a.clone(), d.clone()], duel(), Policy::default());
        let out = solve(&game).unwrap();
        out.solution.tallies.prob(|t| t.damage[0] > 0)
    };
    assert!(solve_back(&a) > BigRational::from_integer(0.into()));
    let mut far = a.clone();
    far.from_another_arena = true;
    assert_eq!(solve_back(&far), BigRational::from_integer(0.into()));
    for objective in OBJECTIVES {
        check(
            vec![far.clone(), d.clone()],
            duel(),
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
        );
    }
    // Avenge: an Overkill attacker discards the defender and moves hits to
    // a second unit; a third unit with Avenge triggers once per discard.
    let a = unit("a", 4, Some(20), 0, &["Overkill", "Accuracy 3"]);
    let d = unit("d", 1, Some(1), 0, &[]);
    let o = unit("o", 1, Some(1), 0, &[]);
    let t = unit("t", 1, Some(3), 0, &["Avenge 1"]);
    let sides = vec![
        Side::Attacking,
        Side::Defending,
        Side::Defending,
        Side::Defending,
    ];
    let game = Game::new(
        vec![a.clone(), d.clone(), o.clone(), t.clone()],
        sides.clone(),
        Policy {
            objective: Objective::Net,
            ..Policy::default()
        },
    );
    let out = solve(&game).unwrap();
    // Every die hits (Accuracy 3): d takes 1, the Overkill packet may take
    // 1 to o (discarding it) or 2 to t, or stay. Under Net the attacker
    // weighs two Avenge dice against the discard.
    let both = out.solution.tallies.prob(|t| t.felled & 0b110 == 0b110);
    let one = out.solution.tallies.prob(|t| t.felled & 0b110 == 0b010);
    assert_eq!(
        both.clone() + one.clone(),
        BigRational::from_integer(1.into()),
        "the defender is always discarded"
    );
    for objective in OBJECTIVES {
        check(
            vec![a.clone(), d.clone(), o.clone(), t.clone()],
            sides.clone(),
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
        );
    }
    // Damage deflected by another unit does not trigger Avenge (its source
    // is the deflecting unit): brute-forced with a deflecting third unit.
    let a = unit("a", 2, Some(6), 0, &["Deflect 1"]);
    let d = unit("d", 1, Some(2), 0, &["Deflect 1", "Avenge 1"]);
    let o = unit("o", 1, Some(1), 0, &["Avenge 1"]);
    for objective in OBJECTIVES {
        check(
            vec![a.clone(), d.clone(), o.clone()],
            vec![Side::Attacking, Side::Defending, Side::Defending],
            &[objective],
            &[LuckyPolicy::Optimal],
            &[LuckyOrder::Pop],
        );
    }
}

/// One Force default for every cost (issue 30): with no budget given, each
/// side may spend 4 (a turn's income, `DEFAULT_BUDGETS`) on fixed costs and
/// costs of X alike; X is chosen by its owner as it serves; `unlimited`
/// lifts it (Evade X and Deflect X as much as is needed, Retaliate X up to
/// 12 dice); brute-forced, and a budget given overrides it.
#[test]
fn one_force_default_for_every_cost() {
    use swtcg_engine::policy::DEFAULT_BUDGETS;
    assert_eq!(DEFAULT_BUDGETS, [Some(4), Some(4)]);
    let a = unit("a", 2, Some(3), 0, &[]);
    for texts in [
        &["Pay X Force -> Retaliate X"][..],
        &["Pay X Force -> Evade X"],
        &["Pay X Force -> Deflect X", "Parry 1"],
    ] {
        let d = unit("d", 1, Some(3), 0, texts);
        for objective in OBJECTIVES {
            // Unlimited Retaliate X rolls up to 12 dice: the brute force
            // checks it where it stays small (prevention).
            let unlimited = !texts[0].contains("Retaliate");
            for force in [DEFAULT_BUDGETS, [None, None], [None, Some(1)]] {
                if force == [None, None] && !unlimited {
                    continue;
                }
                check_with(
                    vec![a.clone(), d.clone()],
                    duel(),
                    &[objective],
                    &[LuckyPolicy::Optimal],
                    &[LuckyOrder::Pop],
                    force,
                );
            }
        }
    }
    // Net: the defender pays for the most Retaliate dice it may, 4 by
    // default, 12 unlimited, 1 with a budget of 1.
    let d = unit("d", 1, Some(9), 0, &["Pay X Force -> Retaliate X"]);
    let policy = Policy {
        objective: Objective::Net,
        ..Policy::default()
    };
    let mut game = Game::new(vec![a.clone(), d.clone()], duel(), policy);
    assert_eq!(solve(&game).unwrap().declared.retaliates, vec![(0, 4)]);
    game.force = [None, None];
    assert_eq!(solve(&game).unwrap().declared.retaliates, vec![(0, 12)]);
    game.force = [None, Some(1)];
    assert_eq!(solve(&game).unwrap().declared.retaliates, vec![(0, 1)]);
}
