//! The exhaustive oracle for the attack engine: for every combination of the
//! static keywords over small ranges, every face sequence of the attack dice,
//! Fury's dice and Retaliate's dice (up to 6 dice in all) is enumerated and
//! resolved directly from RULES.md, and every distribution the engine
//! produces must equal the enumeration to the exact fraction.

use crate::common::{Counts, Result1, enumerate, switch};
use itertools::iproduct;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use std::collections::BTreeMap;
use swtcg_engine::attack::{ATTACKER, AttackOutcome, DEFENDER, attack, attack_with};
use swtcg_engine::dist::{Dist, ratio};
use swtcg_engine::keywords::Keyword;
use swtcg_engine::unit::Unit;

fn pmf(d: &Dist) -> BTreeMap<i64, BigRational> {
    d.pmf()
        .into_iter()
        .filter(|(_, p)| *p != BigRational::from_integer(0.into()))
        .collect()
}

fn check(a: &Unit, d: &Unit) {
    let o = attack(a, d).unwrap();
    let e = enumerate(a, d);
    compare(a, d, &o, &e);
}

fn compare(a: &Unit, d: &Unit, o: &AttackOutcome, e: &Counts<Result1>) {
    let ctx = || format!("attacker {a:?}\ndefender {d:?}");
    assert_eq!(
        pmf(&o.hits),
        e.marginal(|r| r.hits as i64),
        "hits\n{}",
        ctx()
    );
    assert_eq!(
        pmf(&o.defender_damage),
        e.marginal(|r| r.def_dmg as i64),
        "defender damage\n{}",
        ctx()
    );
    assert_eq!(
        pmf(&o.attacker_damage),
        e.marginal(|r| r.att_dmg as i64),
        "attacker damage\n{}",
        ctx()
    );
    // The joint law of both damages.
    let joint: BTreeMap<(u32, u32), BigRational> = {
        let m = o
            .tallies
            .map(|t| (u32::from(t.damage[DEFENDER]), u32::from(t.damage[ATTACKER])));
        m.entries()
            .iter()
            .map(|(k, w)| (*k, ratio(w, m.denom())))
            .collect()
    };
    let mut ejoint = BTreeMap::new();
    for (r, w) in &e.counts {
        *ejoint.entry((r.def_dmg, r.att_dmg)).or_insert(0u128) += w;
    }
    let ejoint: BTreeMap<(u32, u32), BigRational> = ejoint
        .into_iter()
        .map(|(k, w)| {
            (
                k,
                BigRational::new(BigUint::from(w).into(), BigUint::from(e.total).into()),
            )
        })
        .collect();
    assert_eq!(joint, ejoint, "joint damage\n{}", ctx());
    let disc = |u: &Unit, f: &dyn Fn(&Result1) -> u32| {
        u.health.map(|h| e.prob(|r| u.counters + f(r) >= h))
    };
    assert_eq!(
        o.defender_discarded(),
        disc(d, &|r| r.def_dmg),
        "defender discarded\n{}",
        ctx()
    );
    assert_eq!(
        o.attacker_discarded(),
        disc(a, &|r| r.att_dmg),
        "attacker discarded\n{}",
        ctx()
    );
    assert_eq!(o.attacker_stun_lands(), e.prob(|r| r.att_stun), "{}", ctx());
    assert_eq!(o.defender_stun_lands(), e.prob(|r| r.def_stun), "{}", ctx());
}

/// Dice, Accuracy (negative too), Armor, Shields, Fury, Critical Hit and
/// Parry: every face of up to 6 dice.
#[test]
fn oracle_dice_keywords() {
    let mut cases = 0;
    for (power, shields, accuracy, armor, fury, crit, parry) in iproduct!(
        0..=5u32,
        0..=1u32,
        [-3, -2, -1, 0, 1, 2, 3],
        [false, true],
        0..=2u32,
        [0, 1, 3],
        [0, 1, 2]
    ) {
        let n = power.saturating_sub(shields);
        if n + fury > 6 || (fury > 0 && n > 4) {
            continue;
        }
        let mut a = Unit::new("a", power);
        a.keywords.set(Keyword::Accuracy(accuracy));
        a.keywords.set(Keyword::Fury(fury));
        a.keywords.set(Keyword::CriticalHit(crit));
        let mut d = Unit::new("d", 3);
        switch(&mut d.keywords, Keyword::Armor, armor);
        d.keywords.set(Keyword::Shields(shields));
        d.keywords.set(Keyword::Parry(parry));
        check(&a, &d);
        cases += 1;
    }
    assert!(cases > 1000, "{cases}");
}

/// Prevention: Deflect (and its chains), Evade, Parry, Ferocity / Fortitude
/// on both sides, Retaliate (5+ against an armored attacker), health and
/// counters on both sides.
#[test]
fn oracle_prevention_and_retaliate() {
    // One in seven of the grid's cases, spread so that every outer
    // combination meets a seventh of the inner ones and each inner one a
    // seventh of the outer ones; the whole grid is
    // `exhaustive_prevention_and_retaliate`, which .ci/run runs.
    let checked = prevention_and_retaliate(|outer, inner| (outer * 3 + inner) % 7 == 0);
    assert_eq!(checked, (192 * 432usize).div_ceil(7));
}

/// The whole grid of [`oracle_prevention_and_retaliate`]: 82,944 attacks,
/// every face sequence of each (about 40 s of one core).
#[test]
#[ignore = "the full grid, about 40 s: run by .ci/run (cargo test --test it exhaustive -- --ignored)"]
fn exhaustive_prevention_and_retaliate() {
    assert_eq!(prevention_and_retaliate(|_, _| true), 192 * 432);
}

/// Checks the cases of the prevention grid that `keep` picks (by the index
/// of the defender's and of the attacker's combination) against the brute
/// force, and returns how many it checked.
fn prevention_and_retaliate(keep: impl Fn(usize, usize) -> bool) -> usize {
    let mut cases = 0;
    for (outer, (crit, parry, evade, deflect, ferocity, fortitude, def_ferocity)) in iproduct!(
        [0, 1],
        [0, 2],
        [0, 1],
        [0, 1, 2],
        [false, true],
        [false, true],
        [false, true]
    )
    .enumerate()
    {
        for (
            inner,
            (att_evade, att_deflect, att_fortitude, retaliate, att_armor, health, att_health),
        ) in iproduct!(
            [0, 1],
            [0, 1, 3],
            [false, true],
            [0, 2],
            [false, true],
            [None, Some((3, 0)), Some((3, 2))],
            [None, Some((2, 0)), Some((4, 1))]
        )
        .enumerate()
        {
            if !keep(outer, inner) {
                continue;
            }
            let mut a = Unit::new("a", 3);
            let k = &mut a.keywords;
            k.set(Keyword::CriticalHit(crit));
            switch(k, Keyword::Ferocity, ferocity);
            k.set(Keyword::Evade(att_evade));
            k.set(Keyword::Deflect(att_deflect));
            switch(k, Keyword::Fortitude, att_fortitude);
            switch(k, Keyword::Armor, att_armor);
            if let Some((h, c)) = att_health {
                a.health = Some(h);
                a.counters = c;
            }
            let mut d = Unit::new("d", 3);
            let k = &mut d.keywords;
            k.set(Keyword::Parry(parry));
            k.set(Keyword::Evade(evade));
            k.set(Keyword::Deflect(deflect));
            switch(k, Keyword::Fortitude, fortitude);
            switch(k, Keyword::Ferocity, def_ferocity);
            k.set(Keyword::Retaliate(retaliate));
            if let Some((h, c)) = health {
                d.health = Some(h);
                d.counters = c;
            }
            check(&a, &d);
            cases += 1;
        }
    }
    // crit..def_ferocity: 2*2*2*3*2*2*2; att_evade..att_health: 2*3*2*2*2*3*3.
    cases
}

/// Fury with Retaliate and Critical Hit together, at the 6-dice limit.
#[test]
fn oracle_fury_with_retaliate() {
    for (power, fury, retaliate, crit, deflect, att_deflect) in
        iproduct!(1..=3u32, 1..=2u32, 1..=2u32, [0, 2], [0, 1], [0, 1])
    {
        if power + fury + retaliate > 6 {
            continue;
        }
        let mut a = Unit::new("a", power);
        a.keywords.set(Keyword::Fury(fury));
        a.keywords.set(Keyword::CriticalHit(crit));
        a.keywords.set(Keyword::Deflect(att_deflect));
        a.health = Some(3);
        let mut d = Unit::new("d", 2);
        d.keywords.set(Keyword::Retaliate(retaliate));
        d.keywords.set(Keyword::Deflect(deflect));
        d.health = Some(2);
        check(&a, &d);
    }
}

/// The `u128` and `BigUint` paths give the same law.
#[test]
fn big_and_small_paths_agree() {
    let mut a = Unit::new("a", 9);
    a.keywords.set(Keyword::Fury(2));
    a.keywords.set(Keyword::CriticalHit(2));
    a.keywords.set(Keyword::Accuracy(1));
    let mut d = Unit::new("d", 3);
    d.keywords.set(Keyword::Parry(1));
    d.keywords.set(Keyword::Deflect(1));
    d.keywords.set(Keyword::Retaliate(3));
    d.health = Some(5);
    let small = attack_with::<u128>(&a, &d).convert::<BigUint>();
    let big = attack_with::<BigUint>(&a, &d);
    assert_eq!(small.defender_damage, big.defender_damage);
    assert_eq!(small.attacker_damage, big.attacker_damage);
    assert_eq!(small.tallies, big.tallies);
}

/// Beyond 49 dice the engine switches to big integers; 60 plain dice are a
/// Binomial(60, 1/2): P(k hits) = C(60, k) / 2^60.
#[test]
fn sixty_dice_are_binomial() {
    let a = Unit::new("a", 60);
    let d = Unit::new("d", 1);
    let o = attack(&a, &d).unwrap();
    let two60: BigUint = BigUint::from(1u8) << 60;
    let mut c = BigUint::from(1u8);
    for k in 0..=60u32 {
        assert_eq!(
            o.hits.prob(k as i64),
            BigRational::new(c.clone().into(), two60.clone().into())
        );
        c = c * BigUint::from(60 - k) / BigUint::from(k + 1);
    }
    assert_eq!(
        o.defender_damage.mean(),
        BigRational::from_integer(30.into())
    );
}

/// Several Retaliate abilities are several rolls, each its own instance
/// (Evade on each) from one source (one Deflect for all of them), played
/// die by die by the simulator; Parry resolves before Deflect.
#[test]
fn oracle_several_retaliates_and_parry_before_deflect() {
    use swtcg_engine::keywords::parse;
    let mut cases = 0;
    for (power, rets, att_evade, att_deflect, parry, deflect, att_health) in iproduct!(
        1..=2u32,
        [vec![1, 1], vec![2, 1], vec![1, 2]],
        [0, 1],
        [0, 1],
        [0, 1],
        [0, 1],
        [None, Some(2)]
    ) {
        let mut a = Unit::new("a", power);
        a.keywords.set(Keyword::Evade(att_evade));
        a.keywords.set(Keyword::Deflect(att_deflect));
        a.health = att_health;
        let mut d = Unit::new("d", 2);
        for &r in &rets {
            d.keywords.add(&[parse(&format!("Retaliate {r}")).unwrap()]);
        }
        d.keywords.set(Keyword::Parry(parry));
        d.keywords.set(Keyword::Deflect(deflect));
        d.health = Some(3);
        check(&a, &d);
        cases += 1;
    }
    assert_eq!(cases, 2 * 3 * 2 * 2 * 2 * 2 * 2);
}

/// The glossary's keywords of one attack, in static play, against the
/// die-level simulator over every face: Backfire (a natural 3), Riposte (a
/// natural 2), Double Damage, Absorb and Persuade (prevention like Evade),
/// Resilience (power with counters), alone and with the others.
#[test]
fn oracle_glossary_keywords() {
    let mut cases = 0;
    for (power, backfire, riposte, double, prevent, resilience, deflect, att_deflect) in iproduct!(
        1..=3u32,
        [0, 1, 2],
        [0, 2],
        [false, true],
        [0, 1],
        [0, -1, 1],
        [0, 1],
        [0, 1]
    ) {
        if power + backfire > 5 {
            continue;
        }
        let mut a = Unit::new("a", power);
        a.health = Some(3);
        a.counters = 1;
        a.keywords.set(Keyword::Backfire(backfire));
        switch(&mut a.keywords, Keyword::DoubleDamage, double);
        a.keywords.set(Keyword::Resilience(resilience));
        a.keywords.set(Keyword::Deflect(att_deflect));
        a.keywords.set(Keyword::Evade(prevent));
        let mut d = Unit::new("d", 2);
        d.health = Some(3);
        d.keywords.set(Keyword::Riposte(riposte));
        d.keywords.set(Keyword::Deflect(deflect));
        d.keywords.set(Keyword::Absorb(prevent));
        d.keywords.set(Keyword::Evade(prevent));
        d.keywords.set(Keyword::Retaliate(1));
        check(&a, &d);
        cases += 1;
    }
    assert!(cases > 300, "{cases}");
}

/// The floor program of the 800-row table (benches/src/bin/table-floor.rs),
/// written apart from the engine from the closed form of (hits, any 1, any
/// 6), prints what the command prints, byte for byte: every mean of
/// power 1..40 x Critical Hit 0..4 x Parry 0..3, exact and as f64.
#[path = "../../benches/src/bin/table-floor.rs"]
#[allow(dead_code)]
mod table_floor;

#[test]
fn the_table_equals_its_floor_program() {
    let ran = swtcg_odds::cli::run_args([
        "swtcg-odds",
        "table",
        "--power",
        "1..40",
        "--crit",
        "0..4",
        "--parry",
        "0..3",
        "--format",
        "json",
    ]);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let floor = table_floor::table();
    assert_eq!(floor.matches("\"mean\"").count(), 800);
    assert!(
        ran.stdout == floor,
        "the table differs from its floor program"
    );
}

/// A row's JSON is the same whatever the order of its values (a grid's rows
/// hold them in order and are written by one walk; a row made by hand is
/// searched value by value).
#[test]
fn a_rows_json_does_not_depend_on_the_order_of_its_values() {
    use swtcg_engine::request::Param;
    use swtcg_engine::table::Row;
    let row = |values: Vec<(Param, i64)>| Row {
        values,
        mean: swtcg_engine::dist::Fraction(num_rational::BigRational::new(1.into(), 3.into())),
        p_discard: None,
    };
    let sorted = row(vec![
        (Param::Power, 3),
        (Param::Crit, 2),
        (Param::Retaliate, 1),
    ]);
    let shuffled = row(vec![
        (Param::Retaliate, 1),
        (Param::Power, 3),
        (Param::Crit, 2),
    ]);
    let a = serde_json::to_string(&sorted).unwrap();
    assert_eq!(a, serde_json::to_string(&shuffled).unwrap());
    assert!(
        a.contains("\"retaliate\":1") && a.contains("\"crit\":2") && a.contains("\"armor\":false"),
        "{a}"
    );
}

/// The table's JSON (`table::rows_json`, made of serde's pieces with each
/// key escaped once) is byte for byte serde_json's pretty JSON of the same
/// rows: rows of random parameters in any order (a grid's, in order, are
/// walked at once; others searched), switches, a health of 0 (`null`),
/// negative values, fractions in machine words and past them (and
/// negative), with and without P(discard), and no rows at all.
#[test]
fn the_tables_json_is_serdes_pretty_json() {
    use proptest::prelude::*;
    use swtcg_engine::dist::Fraction;
    use swtcg_engine::request::Param;
    use swtcg_engine::table::{Row, rows_json};
    let fraction = (any::<i64>(), 1u64.., 0u32..3).prop_map(|(n, d, big)| {
        // `big` scales past 2^128 (1: the numerator, 2: the denominator).
        let scale = BigInt::from(7u32).pow(60);
        let (mut n, mut d) = (BigInt::from(n), BigInt::from(d));
        match big {
            1 => n *= &scale,
            2 => d *= &scale,
            _ => {}
        }
        Fraction(BigRational::new(n, d))
    });
    let row = (
        // Values that share their low six bits (0, 64, -64, 128, ...) take
        // the same slot of the writer's cache of texts.
        proptest::collection::vec(
            (
                0..Param::ALL.len(),
                prop_oneof![
                    -3i64..50,
                    proptest::sample::select(vec![
                        0i64,
                        64,
                        -64,
                        128,
                        1,
                        65,
                        -63,
                        i64::MIN,
                        i64::MAX
                    ])
                ],
            ),
            0..12,
        ),
        any::<bool>(),
        fraction.clone(),
        proptest::option::of(fraction),
    )
        .prop_map(|(picked, sorted, mean, p_discard)| {
            let mut values: Vec<(Param, i64)> = Vec::new();
            for (i, v) in picked {
                if !values.iter().any(|(p, _)| *p == Param::ALL[i]) {
                    values.push((Param::ALL[i], v));
                }
            }
            if sorted {
                values.sort();
            }
            Row {
                values,
                mean,
                p_discard,
            }
        });
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261203),
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let sizes = std::cell::RefCell::new(std::collections::BTreeSet::new());
    runner
        .run(&proptest::collection::vec(row, 0..6), |rows| {
            sizes.borrow_mut().insert(rows.len());
            let serde = serde_json::to_string_pretty(&rows).unwrap() + "\n";
            prop_assert_eq!(rows_json(&rows), serde);
            Ok(())
        })
        .unwrap();
    // Every size was drawn, the empty table among them.
    let sizes = sizes.into_inner();
    assert_eq!(sizes.len(), 6, "{sizes:?}");
}
