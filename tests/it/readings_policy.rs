//! One test per reading the choice solver takes (docs/rules.md names them).
//! Every expected number is worked out by hand in the comment beside it.

use num_rational::BigRational;
use swtcg_engine::attack::{Objective, Side};
use swtcg_engine::dist::{Dist, Num};
use swtcg_engine::keywords::{KeywordKind, UnitEffect};
use swtcg_engine::policy::{Game, GameOutcome, LuckyOrder, LuckyPolicy, Policy, solve};
use swtcg_engine::unit::Unit;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn unit(name: &str, power: u32, health: Option<u32>, counters: u32, kws: &[&str]) -> Unit {
    let mut u = Unit::from_card_text(name, power, health, kws).unwrap();
    u.counters = counters;
    u
}

fn play(units: Vec<Unit>, sides: Vec<Side>, policy: Policy) -> GameOutcome {
    solve(&Game {
        units,
        sides,
        policy,
        force: [None, None],
    })
    .unwrap()
}

fn duel(a: Unit, d: Unit, policy: Policy) -> GameOutcome {
    play(vec![a, d], vec![Side::Attacking, Side::Defending], policy)
}

fn simple() -> Policy {
    Policy {
        lucky: LuckyPolicy::Simple,
        ..Policy::default()
    }
}

fn hits(o: &GameOutcome) -> Dist<Num> {
    o.solution.final_roll.marginal(|r| r.hits as i64)
}

#[test]
fn a_rerolled_four_does_not_trigger_fury() {
    let a = unit("a", 1, None, 0, &["Fury 1", "Lucky 1"]);
    let o = duel(a, unit("d", 1, None, 0, &[]), simple());
    // 2 hits only from a first-roll 4 (1/6), the Fury die hitting, at once
    // or after its re-roll (1/2 + 1/4): 1/8. A miss re-rolled into a 4
    // adds no die.
    assert_eq!(hits(&o).prob(2), q(1, 8));
    assert_eq!(hits(&o).prob(0), q(1, 4));
}

#[test]
fn both_sides_may_reroll_the_same_die() {
    let a = unit("a", 1, None, 0, &["Lucky 1"]);
    let d = unit("d", 1, None, 0, &["Lucky 1"]);
    // A first hit (1/2) is re-rolled by the defender: 1/4. A miss (1/2) is
    // re-rolled by the attacker and, if it now hits (1/2), re-rolled again
    // by the defender (1/2): 1/8. P(hit) = 3/8.
    assert_eq!(hits(&duel(a, d, simple())).prob(1), q(3, 8));
}

/// Simple Lucky's order of dice (which faces each side re-rolls first) is
/// pinned on the choice itself by `policy::lucky`'s unit test
/// `simple_choice_rerolls_missed_ones_first_and_hitting_sixes_first` (the
/// choice is the engine's own); here, its effect on a whole attack.
#[test]
fn simple_lucky_rerolls_missed_ones_first_and_hitting_sixes_first() {
    // One die, attacker's Lucky 1 against Parry: any miss is re-rolled, so a
    // natural 1 ends up with 1/6 (a 1, re-rolled) x 1/6 plus
    // 2/6 (a 2 or 3) x 1/6: 1/12.
    let a = unit("a", 1, None, 0, &["Lucky 1"]);
    let d = unit("d", 1, None, 0, &["Parry 1"]);
    let o = duel(a, d, simple());
    assert_eq!(o.solution.final_roll.prob(|r| r.one), q(1, 12));
}

#[test]
fn the_damage_objective_caps_at_remaining_health() {
    let a = unit("a", 4, None, 0, &["Accuracy 3"]); // always 4 hits
    let d = unit("d", 1, Some(3), 1, &[]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.value, q(2, 1));
}

#[test]
fn optimal_deflect_may_send_damage_nowhere() {
    // 2 hits always. The attacker would deflect anything sent back at it,
    // so for the damage objective the defender deflects its 1 at no unit.
    let a = unit("a", 2, None, 0, &["Accuracy 3", "Deflect 5"]);
    let d = unit("d", 1, None, 0, &["Deflect 1"]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.value, q(1, 1));
    // Static play sends it back and takes both.
    let stat = swtcg_engine::attack::attack(
        &unit("a", 2, None, 0, &["Accuracy 3", "Deflect 5"]),
        &unit("d", 1, None, 0, &["Deflect 1"]),
    )
    .unwrap();
    assert_eq!(stat.defender_damage.prob(2), q(1, 1));
}

#[test]
fn a_paid_ability_is_used_only_when_it_serves() {
    // 3 hits against remaining health 1: evading 2 still discards it, the
    // same value; the tie is broken as a player breaks it (issue 30): less
    // damage to its own side, so it evades.
    let a = unit("a", 3, None, 0, &["Accuracy 3"]);
    let d = unit("d", 1, Some(3), 2, &["Pay 2 Force -> Evade 2"]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.value, q(1, 1));
    assert_eq!(o.solution.tallies.prob(|t| t.used != 0), q(1, 1));
    // Nothing to prevent (no hits against Armor-like odds): no Force spent.
    let a = unit("a", 0, None, 0, &[]);
    let d = unit("d", 1, Some(3), 0, &["Pay 2 Force -> Evade 2"]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.tallies.prob(|t| t.used != 0), q(0, 1));
    // 2 hits: evading 2 saves it.
    let a = unit("a", 2, None, 0, &["Accuracy 3"]);
    let d = unit("d", 1, Some(3), 2, &["Pay 2 Force -> Evade 2"]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.value, q(0, 1));
    assert_eq!(o.solution.tallies.prob(|t| t.used != 0), q(1, 1));
}

#[test]
fn paid_retaliate_serves_net_not_damage() {
    let a = unit("a", 1, None, 0, &[]);
    let d = unit("d", 1, None, 0, &["Pay 1 Force -> Retaliate 2"]);
    // Damage: retaliation does not count, so the value ties; the tie goes
    // to more damage to the other side (issue 30): paid; 1 die on 4+.
    let o = duel(a.clone(), d.clone(), Policy::default());
    assert!(o.declared.retaliate_paid);
    assert_eq!(o.solution.value, q(1, 2));
    // Net: 1/2 dealt minus 2 dice on 4+ taken back: −1/2; paid.
    let net = Policy {
        objective: Objective::Net,
        ..Policy::default()
    };
    let o = duel(a, d, net);
    assert!(o.declared.retaliate_paid);
    assert_eq!(o.solution.value, q(-1, 2));
}

#[test]
fn intercept_is_the_defending_sides_choice_and_precision_forbids_it() {
    let d = unit("d", 1, Some(2), 0, &[]);
    let guard = unit("guard", 1, Some(5), 0, &["Intercept", "Evade 1"]);
    let sides = vec![Side::Attacking, Side::Defending, Side::Defending];
    // 2 hits always: the defender takes 2, the guard evades 1 of them.
    let a = unit("a", 2, None, 0, &["Accuracy 3"]);
    let o = play(
        vec![a, d.clone(), guard.clone()],
        sides.clone(),
        Policy::default(),
    );
    assert_eq!(o.declared.defending, 2);
    assert_eq!(o.solution.value, q(1, 1));
    let a = unit("a", 2, None, 0, &["Accuracy 3", "Precision"]);
    let o = play(vec![a, d, guard], sides, Policy::default());
    assert_eq!(o.declared.defending, 1);
    assert_eq!(o.solution.value, q(2, 1));
}

#[test]
fn overkill_moves_excess_hits_which_parry_cannot_touch() {
    // 3 hits always; the defender has 1 health left and Parry 5.
    let a = unit("a", 3, None, 0, &["Accuracy 3", "Overkill"]);
    let d = unit("d", 1, Some(1), 0, &["Parry 5"]);
    let other = unit("other", 1, Some(5), 0, &[]);
    let sides = vec![Side::Attacking, Side::Defending, Side::Defending];
    let o = play(vec![a, d, other], sides, Policy::default());
    // No natural 1 (125/216): 1 to the defender, 2 moved: 3. A natural 1
    // (91/216): Parry stops what goes to the defender, the 2 moved still
    // land: 2. (125*3 + 91*2)/216 = 557/216.
    assert_eq!(o.solution.value, q(557, 216));
    assert_eq!(o.solution.tallies.prob(|t| t.damage[2] == 2), q(1, 1));
    assert_eq!(o.solution.tallies.prob(|t| t.damage[1] >= 1), q(125, 216));
}

#[test]
fn optimal_lucky_beats_simple_when_a_reroll_only_adds_risk() {
    // Power 3, Critical Hit 2, Lucky 1 against Parry 2 and health 4. The
    // brute-force oracle (tests/oracle_policy.rs) checks both values; here:
    // optimal play declines re-rolls that can only lose (a natural 1 costs
    // 2), so it is strictly better.
    let a = unit("a", 3, None, 0, &["Critical Hit 2", "Lucky 1"]);
    let d = unit("d", 1, Some(4), 0, &["Parry 2"]);
    let opt = duel(a.clone(), d.clone(), Policy::default()).solution.value;
    let simple = duel(a, d, simple()).solution.value;
    assert!(opt > simple, "{opt} <= {simple}");
}

#[test]
fn a_tied_deflect_goes_back_at_its_source() {
    // For the damage objective, where the deflected damage goes does not
    // matter to the defender: it goes back at the attacker, as in static play.
    let a = unit("a", 2, None, 0, &["Accuracy 3"]); // 2 hits always
    let d = unit("d", 1, None, 0, &["Deflect 1"]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.tallies.prob(|t| t.damage[0] == 1), q(1, 1));
    assert_eq!(o.solution.value, q(1, 1));
}

fn with_order(order: LuckyOrder) -> Policy {
    Policy {
        lucky_order: order,
        ..Policy::default()
    }
}

fn budget(units: Vec<Unit>, policy: Policy, force: [Option<u32>; 2]) -> GameOutcome {
    solve(&Game {
        units,
        sides: vec![Side::Attacking, Side::Defending],
        policy,
        force,
    })
    .unwrap()
}

/// RULES.md step 3: Lucky is played in the re-roll POP, the attacker's
/// player first; fixed orders stay available.
#[test]
fn lucky_is_played_in_the_reroll_pop() {
    let a = unit("a", 1, None, 0, &["Lucky 1"]);
    let d = unit("d", 1, None, 0, &["Lucky 1"]);
    let value = |o| duel(a.clone(), d.clone(), with_order(o)).solution.value;
    // Attacker first: a miss re-rolled, P(hit) = 3/4; the defender forces
    // a hit again: 3/8.
    assert_eq!(value(LuckyOrder::AttackerFirst), q(3, 8));
    // Defender first: P(hit) = 1/4, then a miss re-rolled: 1/4 + 3/8 = 5/8.
    assert_eq!(value(LuckyOrder::DefenderFirst), q(5, 8));
    // POP: on a hit the attacker passes; the defender re-rolls it and the
    // attacker, who passed, answers a miss: 1/2 + 1/4 = 3/4. On a miss the
    // attacker re-rolls; a hit is re-rolled by the defender: 1/4. Half
    // each: 1/2.
    assert_eq!(value(LuckyOrder::Pop), q(1, 2));
    // The issue's second row, also checked against brute force over every
    // face and choice in tests/oracle_policy.rs.
    let a = unit("a", 2, None, 0, &["Critical Hit 2", "Lucky 1"]);
    let d = unit("d", 1, Some(4), 0, &["Parry 2", "Lucky 1"]);
    let value = |o| duel(a.clone(), d.clone(), with_order(o)).solution.value;
    assert_eq!(value(LuckyOrder::AttackerFirst), q(1495, 1296));
    assert_eq!(value(LuckyOrder::DefenderFirst), q(641, 432));
    assert_eq!(value(LuckyOrder::Pop), q(823, 648));
}

/// Under simple play nobody waits: the POP is its fixed order.
#[test]
fn simple_lucky_plays_the_pop_as_its_fixed_order() {
    let a = unit("a", 1, None, 0, &["Lucky 1"]);
    let d = unit("d", 1, None, 0, &["Lucky 1"]);
    let value = |o| {
        duel(
            a.clone(),
            d.clone(),
            Policy {
                lucky: LuckyPolicy::Simple,
                lucky_order: o,
                ..Policy::default()
            },
        )
        .solution
        .value
    };
    assert_eq!(value(LuckyOrder::Pop), value(LuckyOrder::AttackerFirst));
    assert_eq!(
        value(LuckyOrder::PopDefenderFirst),
        value(LuckyOrder::DefenderFirst)
    );
    assert_eq!(value(LuckyOrder::Pop), q(3, 8));
}

/// RULES.md step 8: every Retaliate is optional (no printed cost is "Pay 0
/// Force").
#[test]
fn every_retaliate_is_optional() {
    let a = unit("a", 3, None, 0, &["Pay 1 Force -> Deflect 2"]);
    let d = unit("d", 1, Some(4), 0, &["Retaliate 3"]);
    let o = duel(a, d, Policy::default());
    // Retaliating would only bring the attacker's Deflect back onto the
    // defender: it declines, and the value is the 3 dice's 3/2 hits.
    assert_eq!(o.solution.value, q(3, 2));
    assert!(o.declared.retaliates.is_empty());
}

/// RULES.md step 8: each Retaliate ability is its own roll and instance.
#[test]
fn each_retaliate_is_its_own_roll() {
    let a = unit("a", 1, None, 0, &["Evade 1"]);
    let d = unit(
        "d",
        1,
        None,
        0,
        &["Retaliate 2", "Pay 0 Force -> Retaliate 2"],
    );
    let o = duel(
        a,
        d,
        Policy {
            objective: Objective::Net,
            ..Policy::default()
        },
    );
    // Dealt 1/2. Each roll of 2 dice, Evade 1 each: 1 only on 2 hits
    // (1/4), so 1/2 back in all; net 0 (one merged roll of 4 would be
    // 17/16 back).
    assert_eq!(o.solution.value, q(0, 1));
}

/// RULES.md, Foresight with Lucky: the guess is made before the roll and
/// the re-rolls may aim at it.
#[test]
fn foresight_aims_its_rerolls_at_the_guess() {
    let scenario = swtcg_engine::scenario::Scenario::from_json(
        r#"{"attacker": {"name": "a", "power": 2, "keywords": ["Lucky 1", "Foresight: Gain 1 Force"]},
            "defender": {"name": "d", "power": 1}}"#,
    )
    .unwrap();
    let r = scenario.solve().unwrap();
    // Played for damage: 2 hits with 1/4 + 1/2 x 1/2 = 1/2.
    let h = r.hits();
    assert_eq!((h.mode(), h.prob(2)), (2, q(1, 2)));
    // Aimed at 1: keep one hit, re-roll the other of two hits (1/2), keep
    // a hit and a miss, re-roll one of two misses (1/2): 1/8 + 1/2 + 1/8.
    assert_eq!(r.aimed[0], Some((1, q(3, 4))));
}

/// Force budgets: paid prevention within the side's Force, X chosen.
#[test]
fn paid_prevention_is_bounded_by_the_sides_force() {
    let a = unit("a", 2, None, 0, &["Accuracy 3"]); // always 2 hits
    let d = unit(
        "d",
        1,
        Some(5),
        0,
        &["Pay 1 Force -> Evade 1", "Pay 1 Force -> Evade 1"],
    );
    let v = |f| {
        budget(vec![a.clone(), d.clone()], Policy::default(), [None, f])
            .solution
            .value
    };
    assert_eq!(v(None), q(0, 1));
    assert_eq!(v(Some(1)), q(1, 1));
    assert_eq!(v(Some(2)), q(0, 1));
    let dx = unit("d", 1, Some(5), 0, &["Pay X Force -> Evade X"]);
    let v = |f| budget(vec![a.clone(), dx.clone()], Policy::default(), [None, f]);
    assert_eq!(v(Some(1)).solution.value, q(1, 1));
    assert_eq!(v(Some(5)).solution.value, q(0, 1));
    // Without a budget, X is at most 4 (issue 18's default): 2 hits, all
    // evaded.
    let out = solve(&Game::new(
        vec![a.clone(), dx.clone()],
        vec![Side::Attacking, Side::Defending],
        Policy::default(),
    ))
    .unwrap();
    assert_eq!(out.solution.value, q(0, 1));
}

/// Options before the roll (paid boosts, Overload, disrupting an attack)
/// are declare-step choices within the Force budget.
#[test]
fn options_before_the_roll_are_declare_choices() {
    use swtcg_engine::keywords::parse;
    use swtcg_engine::keywords::{Boost, Change};
    let mut a = unit("Vader", 1, Some(5), 0, &[]);
    a.keywords.apply(UnitEffect::Boost(Boost {
        source: Default::default(),
        cost: 2,
        mine: Change {
            power: 2,
            abilities: vec![parse("Stun 2").unwrap()],
            ..Change::default()
        },
        theirs: Change::default(),
        text: "+2 power and Stun 2".into(),
    }));
    let d = unit("d", 1, Some(5), 0, &[]);
    let v = |f| budget(vec![a.clone(), d.clone()], Policy::default(), [f, None]);
    // Power 1: 1/2; with the boost, power 3: 3/2 (and Stun 2 for it).
    assert_eq!(v(Some(1)).solution.value, q(1, 2));
    let o = v(Some(2));
    assert_eq!(o.solution.value, q(3, 2));
    assert_eq!(o.declared.boosts, vec![(0, 0)]);
    assert_eq!(o.units[0].keywords.number(KeywordKind::Stun) as u32, 2);
    // The defender may disrupt the attack for 3 Force: nothing happens.
    let mut d2 = d.clone();
    d2.keywords.apply(UnitEffect::Boost(Boost {
        source: Default::default(),
        cost: 3,
        mine: Change {
            cancel_attack: true,
            ..Change::default()
        },
        theirs: Change::default(),
        text: "Disrupt".into(),
    }));
    let o = budget(vec![a.clone(), d2], Policy::default(), [Some(2), Some(3)]);
    assert_eq!(o.solution.value, q(0, 1));
    // Overload: +3 power for 2 damage to itself at the end: taken for
    // damage (power 4: 2), declined for net (2 − 2 < 1/2).
    let mut a = unit("a", 1, Some(5), 0, &[]);
    a.keywords.apply(UnitEffect::Boost(Boost {
        source: Default::default(),
        cost: 0,
        mine: Change {
            power: 3,
            self_damage: Some((2, false)),
            ..Change::default()
        },
        theirs: Change::default(),
        text: "Overload".into(),
    }));
    let o = duel(a.clone(), d.clone(), Policy::default());
    assert_eq!(o.solution.value, q(2, 1));
    assert_eq!(o.solution.tallies.prob(|t| t.damage[0] == 2), q(1, 1));
    let net = Policy {
        objective: Objective::Net,
        ..Policy::default()
    };
    assert_eq!(duel(a, d, net).solution.value, q(1, 2));
}

/// Damage prevented unless the opponent pays (a toll), a unit whose damage
/// is all prevented, a consolation when the attack does no damage, extra
/// damage without a roll.
#[test]
fn tolls_harmless_consolation_and_extra_damage() {
    let a = unit("a", 2, None, 0, &["Accuracy 3"]); // 2 hits
    let mut d = unit("d", 1, Some(5), 0, &[]);
    d.keywords.apply(UnitEffect::Toll(2));
    let v = |a: &Unit, d: &Unit, f| {
        budget(vec![a.clone(), d.clone()], Policy::default(), [f, None])
            .solution
            .value
    };
    assert_eq!(v(&a, &d, Some(1)), q(0, 1));
    assert_eq!(v(&a, &d, Some(2)), q(2, 1));
    let mut h = a.clone();
    h.keywords.apply(UnitEffect::Harmless);
    assert_eq!(v(&h, &unit("d", 1, Some(5), 0, &[]), None), q(0, 1));
    // Never hits (Accuracy −3): 1 counter on itself, then 2 on the defender.
    let mut c = unit("c", 1, Some(3), 0, &["Accuracy -3"]);
    c.keywords.apply(UnitEffect::Consolation {
        own: 1,
        defender: 2,
    });
    let o = duel(c, unit("d", 1, Some(5), 0, &[]), Policy::default());
    assert_eq!(o.solution.value, q(2, 1));
    assert_eq!(
        o.solution.tallies.prob(|t| t.damage == [1, 2, 0, 0, 0, 0]),
        q(1, 1)
    );
    let mut x = unit("x", 0, None, 0, &[]);
    x.keywords.apply(UnitEffect::ExtraDamage(2));
    let d = unit("d", 1, Some(5), 0, &["Parry 5"]);
    // No dice, so no natural 1: Parry does nothing to the 2 extra damage.
    assert_eq!(duel(x, d, Policy::default()).solution.value, q(2, 1));
}

/// RULES.md, Keywords of the glossary: Backfire, Riposte, Double Damage
/// (the issue's three values), each worked by hand.
#[test]
fn backfire_riposte_and_double_damage() {
    use swtcg_engine::attack::attack;
    let mut a = unit("a", 2, None, 0, &["Backfire 2"]);
    let d = unit("d", 1, None, 0, &[]);
    // A natural 3 among 2 dice: 11/36; then 2 dice of damage to itself, 1
    // hit on average.
    assert_eq!(attack(&a, &d).unwrap().attacker_damage.mean(), q(11, 36));
    a = unit("a", 1, None, 0, &[]);
    let d = unit("d", 1, None, 0, &["Riposte 3"]);
    // A natural 2 (1/6): 3 damage.
    assert_eq!(attack(&a, &d).unwrap().attacker_damage.mean(), q(1, 2));
    // Not if the defender was discarded: with Accuracy 3 the 2 hits.
    let a3 = unit("a", 1, None, 0, &["Accuracy 3"]);
    let d1 = unit("d", 1, Some(1), 0, &["Riposte 3"]);
    assert_eq!(attack(&a3, &d1).unwrap().attacker_damage.mean(), q(0, 1));
    let dd = unit("a", 2, None, 0, &["Double Damage"]);
    assert_eq!(
        attack(&dd, &unit("d", 1, None, 0, &[]))
            .unwrap()
            .defender_damage
            .mean(),
        q(2, 1)
    );
    // Prevention first: with Evade 1, only 2 hits (1/4) leave 1, doubled.
    let ev = unit("d", 1, None, 0, &["Evade 1"]);
    assert_eq!(attack(&dd, &ev).unwrap().defender_damage.mean(), q(1, 2));
}

/// Absorb and Persuade prevent like Evade; Resilience changes power with
/// counters.
#[test]
fn absorb_persuade_and_resilience() {
    use swtcg_engine::attack::attack;
    let a = unit("a", 2, None, 0, &["Accuracy 3"]); // 2 hits
    for k in ["Absorb 1", "Persuade 1", "Evade 1"] {
        let d = unit("d", 1, None, 0, &[k]);
        assert_eq!(
            attack(&a, &d).unwrap().defender_damage.mean(),
            q(1, 1),
            "{k}"
        );
    }
    let d = unit("d", 1, None, 0, &[]);
    // With 1 counter, Resilience 1 is +1 power (3 dice: 3/2), -1 is -1
    // (1 die: 1/2); without counters nothing.
    assert_eq!(
        attack(&unit("a", 2, Some(3), 1, &["Resilience 1"]), &d)
            .unwrap()
            .hits
            .mean(),
        q(3, 2)
    );
    assert_eq!(
        attack(&unit("a", 2, Some(3), 1, &["Resilience -1"]), &d)
            .unwrap()
            .hits
            .mean(),
        q(1, 2)
    );
    assert_eq!(
        attack(&unit("a", 2, Some(3), 0, &["Resilience 1"]), &d)
            .unwrap()
            .hits
            .mean(),
        q(1, 1)
    );
}

/// Cunning: the defender commits its damage prevention before the roll.
#[test]
fn cunning_commits_prevention_before_the_roll() {
    let d = unit("d", 1, Some(5), 0, &["Riposte 1", "Pay 1 Force -> Evade 1"]);
    let v = |a: Unit| {
        budget(vec![a, d.clone()], Policy::default(), [None, Some(1)])
            .solution
            .value
    };
    // Seeing the die, the defender pays its 1 Force to evade a hit (1/2)
    // or, on a natural 2 (1/6), the Riposte the attacker deflects back: 0.
    assert_eq!(v(unit("a", 1, None, 0, &["Deflect 1"])), q(0, 1));
    // Blind, it pays before the roll (then the deflected Riposte lands:
    // 1/6) or keeps its Force (then a hit lands: 1/2): 1/6.
    assert_eq!(v(unit("a", 1, None, 0, &["Deflect 1", "Cunning"])), q(1, 6));
}

/// Protect, Redirect, Avenge, Inspiration and Intimidation in a scenario.
#[test]
fn protect_redirect_avenge_and_the_arena() {
    let three = |a: Unit, d: Unit, t: Unit, side: Side| {
        play(
            vec![a, d, t],
            vec![Side::Attacking, Side::Defending, side],
            Policy::default(),
        )
    };
    let a = unit("a", 3, None, 0, &[]);
    // Protect 1 from another unit: 3 dice, hits beyond 1 counted up to
    // health 2: P(2) 3/8 x 1 + P(3) 1/8 x 2 = 5/8.
    let o = three(
        a.clone(),
        unit("d", 1, Some(2), 0, &[]),
        unit("t", 1, Some(2), 0, &["Protect 1"]),
        Side::Defending,
    );
    assert_eq!(o.solution.value, q(5, 8));
    // Redirect: the attack moves to the unit with Evade 5: 0 damage.
    let o = three(
        a.clone(),
        unit("d", 1, Some(2), 0, &["Redirect"]),
        unit("t", 1, Some(2), 0, &["Evade 5"]),
        Side::Defending,
    );
    assert_eq!(
        (o.solution.value.clone(), o.declared.defending),
        (q(0, 1), 2)
    );
    // Precision stops it.
    let p = unit("a", 3, None, 0, &["Precision"]);
    let o = three(
        p,
        unit("d", 1, Some(2), 0, &["Redirect"]),
        unit("t", 1, Some(2), 0, &["Evade 5"]),
        Side::Defending,
    );
    assert_eq!(o.declared.defending, 1);
    // Avenge 1: when the defender (health 1) is discarded, 1 die of damage
    // to the attacker: P(discard) 7/8 x 1/2.
    let o = three(
        a.clone(),
        unit("d", 1, Some(1), 0, &[]),
        unit("t", 1, Some(2), 0, &["Avenge 1"]),
        Side::Defending,
    );
    assert_eq!(
        o.solution.tallies.marginal(|t| t.damage[0] as i64).mean(),
        q(7, 16)
    );
    // Inspiration: the other unit of its side gets +1 power; Intimidation:
    // +1 power per opposing unit (two here).
    let o = three(
        unit("a", 1, None, 0, &[]),
        unit("d", 1, None, 0, &[]),
        unit("t", 1, None, 0, &["Inspiration"]),
        Side::Attacking,
    );
    assert_eq!(o.units[0].power, 2);
    let o = three(
        unit("a", 1, None, 0, &["Intimidation"]),
        unit("d", 1, None, 0, &[]),
        unit("t", 1, None, 0, &[]),
        Side::Defending,
    );
    assert_eq!(o.units[0].power, 3);
}

/// Issue 30, item 6: a side indifferent on its objective breaks the tie as
/// a player would: more damage to the other side, then less to its own,
/// then less Force spent. Under the default objective (damage) a paid
/// Retaliate that changes nothing of the damage taken is played (it does
/// damage back); a free one too; a Retaliate is not bought when it only
/// costs Force.
#[test]
fn ties_are_broken_as_players_break_them() {
    let a = unit("a", 3, Some(9), 0, &[]);
    let d = unit("d", 1, Some(9), 0, &["Pay 1 Force -> Retaliate 2"]);
    let out = solve(&Game::new(
        vec![a.clone(), d],
        vec![Side::Attacking, Side::Defending],
        Policy::default(),
    ))
    .unwrap();
    assert_eq!(out.declared.retaliates, vec![(0, 2)]);
    assert!(out.solution.tallies.prob(|t| t.damage[0] > 0) > BigRational::from_integer(0.into()));
    // The attacker from another arena: the Retaliate can do nothing, and
    // is not paid for.
    let mut far = a;
    far.from_another_arena = true;
    let d = unit("d", 1, Some(9), 0, &["Pay 1 Force -> Retaliate 2"]);
    let out = solve(&Game::new(
        vec![far, d],
        vec![Side::Attacking, Side::Defending],
        Policy::default(),
    ))
    .unwrap();
    assert!(out.declared.retaliates.is_empty());
}

/// Issue 30, item 6, the newcomer's second example: Beyghor Sahdett (B)
/// attacking K'Kruhk (C). With ties broken as players break them (and the
/// default Force), a defender about to be discarded anyway does not stop
/// preventing: the damage law has no gap at 6 and 7 below its top.
#[test]
fn a_defender_discarded_anyway_still_prevents() {
    use swtcg_cards::cards::CardDb;
    use swtcg_cards::cards::stack::Switches;
    use swtcg_cards::matchups::duel as card_duel;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/lackey");
    let db = CardDb::load(&[dir]).unwrap();
    let (b, k) = (
        db.piece("Beyghor Sahdett (B)").unwrap(),
        db.piece("K'Kruhk (C)").unwrap(),
    );
    let out = card_duel(&b, &k, &Switches::default(), None, &Policy::default())
        .unwrap()
        .solve()
        .unwrap();
    let law = out.damage(1);
    let zero = BigRational::from_integer(0.into());
    for k in 6..=8 {
        assert!(law.prob(k) > zero, "P(damage = {k}) = 0: {:?}", law.pmf());
    }
}

#[test]
fn an_intercept_is_paid_from_the_defending_sides_force() {
    // G's Intercept costs 3 Force. Played for discards, the defending side
    // intercepts with G (health 9) to save D (health 1), when it can pay.
    let with_force = |f: u32| {
        let game = Game {
            units: vec![
                unit("A", 4, Some(3), 0, &[]),
                unit("D", 1, Some(1), 0, &[]),
                unit("G", 1, Some(9), 0, &["Pay 3 Force -> Intercept"]),
            ],
            sides: vec![Side::Attacking, Side::Defending, Side::Defending],
            policy: Policy {
                objective: Objective::Discard,
                ..Policy::default()
            },
            force: [Some(4), Some(f)],
        };
        solve(&game).unwrap()
    };
    let paid = with_force(3);
    assert_eq!(paid.declared.defending, 2, "3 Force pays G's Intercept");
    assert_eq!(paid.declared.intercept_paid, 3);
    let unpaid = with_force(2);
    assert_eq!(
        unpaid.declared.defending, 1,
        "2 Force can't pay it: D defends"
    );
    assert_eq!(unpaid.solution.value, q(15, 16));
    // A Retaliate bought after the Intercept comes out of what is left:
    // with 4 Force, G intercepts and its 2-Force Retaliate can't follow.
    let mut g = unit(
        "G",
        1,
        Some(9),
        0,
        &["Pay 3 Force -> Intercept", "Pay 2 Force -> Retaliate 3"],
    );
    g.name = "G".into();
    let game = Game {
        units: vec![
            unit("A", 4, Some(3), 0, &[]),
            unit("D", 1, Some(1), 0, &[]),
            g,
        ],
        sides: vec![Side::Attacking, Side::Defending, Side::Defending],
        policy: Policy {
            objective: Objective::Discard,
            ..Policy::default()
        },
        force: [Some(4), Some(4)],
    };
    let out = solve(&game).unwrap();
    assert_eq!(out.declared.defending, 2);
    assert!(out.declared.retaliates.is_empty(), "{:?}", out.declared);
}

/// (Ours) A Force cost is priced where the solver knows when it is paid:
/// a paid Absorb or Persuade prevents per instance as a paid Evade does,
/// bounded by its side's Force (a paid Absorb was once solved as free); a
/// keyword read from the roll on is an option before the roll; any other
/// keyword behind a Force cost is refused, never solved as free
/// (a paid Protect only where it could act: another unit of its side in
/// the arena). Values by hand: two hits, always.
#[test]
fn a_force_cost_is_paid_or_refused_never_free() {
    use swtcg_engine::error::ErrorKind;
    let a = unit("a", 2, None, 0, &["Accuracy 3"]); // always 2 hits
    for kw in ["Absorb", "Persuade"] {
        let one = format!("Pay 1 Force -> {kw} 1");
        let d = unit("d", 1, Some(5), 0, &[one.as_str(), one.as_str()]);
        let v = |f| {
            budget(vec![a.clone(), d.clone()], Policy::default(), [None, f])
                .solution
                .value
        };
        assert_eq!(v(Some(0)), q(2, 1), "{kw}: no Force, nothing prevented");
        assert_eq!(v(Some(1)), q(1, 1), "{kw}: one paid");
        assert_eq!(v(Some(2)), q(0, 1), "{kw}: both paid");
        assert_eq!(v(None), q(0, 1));
        let x = format!("Pay X Force -> {kw} X");
        let dx = unit("d", 1, Some(5), 0, &[x.as_str()]);
        let v = |f| budget(vec![a.clone(), dx.clone()], Policy::default(), [None, f]);
        assert_eq!(v(Some(1)).solution.value, q(1, 1), "{kw} X with 1 Force");
        assert_eq!(v(Some(5)).solution.value, q(0, 1), "{kw} X with 5 Force");
    }
    // A free Absorb still prevents without Force.
    let free = unit("d", 1, Some(5), 0, &["Absorb 1"]);
    assert_eq!(
        budget(vec![a.clone(), free], Policy::default(), [None, Some(0)])
            .solution
            .value,
        q(1, 1)
    );
    // Losing Absorb takes its paid part; losing Evade leaves a paid Absorb.
    let mut d = unit(
        "d",
        1,
        Some(5),
        0,
        &["Pay 1 Force -> Absorb 1", "Pay 1 Force -> Evade 1"],
    );
    d.keywords.lose(KeywordKind::Evade);
    assert_eq!(d.keywords.paid(KeywordKind::Evade).len(), 1);
    d.keywords.lose(KeywordKind::Absorb);
    assert!(d.keywords.paid(KeywordKind::Evade).is_empty());
    // Losing a keyword takes the option made of its paid ability, and a
    // refused one with it (the unit no longer has it to refuse).
    let mut c = unit(
        "c",
        1,
        None,
        0,
        &["Pay 1 Force -> Critical Hit 2", "Critical Hit 1"],
    );
    assert_eq!(c.keywords.boosts().len(), 1);
    c.keywords.lose(KeywordKind::CriticalHit);
    assert!(c.keywords.boosts().is_empty() && c.keywords.number(KeywordKind::CriticalHit) == 0);
    let mut l = Unit::new("l", 1);
    l.keywords
        .add(&[swtcg_engine::keywords::parse("Pay 1 Force -> Lucky 1").unwrap()]);
    assert!(l.validate().is_err());
    l.keywords.lose(KeywordKind::Lucky);
    assert!(l.validate().is_ok());
    // A keyword read from the roll on, behind a fixed Force cost: an
    // option before the roll (the POPs after it are reserved for re-rolls
    // and prevention). One die: hits on 4+ (1/2); a natural 6 (1/6) adds 2.
    let crit = unit("c", 1, None, 0, &["Pay 1 Force -> Critical Hit 2"]);
    let target = unit("t", 0, Some(9), 0, &[]);
    let v = |f| {
        budget(
            vec![crit.clone(), target.clone()],
            Policy::default(),
            [f, None],
        )
        .solution
        .value
    };
    assert_eq!(v(Some(0)), q(1, 2), "no Force: no Critical Hit");
    assert_eq!(v(Some(1)), q(5, 6), "bought before the roll");
    // Other keywords behind a Force cost: refused with their kind (a
    // re-roll, prevention, a cost of X, one read after the attack).
    for text in [
        "Pay X Force -> Critical Hit X",
        "Pay 2 Force -> Stun 2",
        "Pay 1 Force -> Lucky 1",
        "Pay 1 Force -> Parry 1",
        "Pay X Force -> Intercept",
        "Pay X Force -> Evade 2",
    ] {
        let e = Unit::from_card_text("d", 1, Some(5), &[text]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotModelled, "{text}");
    }
    // `Pay 0 Force` and costs in something else than Force stay as before.
    let zero = unit("a", 2, None, 0, &["Pay 0 Force -> Critical Hit 1"]);
    assert_eq!(zero.keywords.number(KeywordKind::CriticalHit) as u32, 1);
    // A paid Protect: nothing to protect in a duel; refused beside another
    // unit of its side.
    let p = unit(
        "p",
        1,
        Some(5),
        0,
        &["Pay 1 Force -> Protect 1", "Pay 1 Force -> Redirect"],
    );
    assert_eq!(
        budget(
            vec![a.clone(), p.clone()],
            Policy::default(),
            [None, Some(3)]
        )
        .solution
        .value,
        q(2, 1)
    );
    let other = unit("o", 1, Some(5), 0, &[]);
    let e = solve(&Game {
        units: vec![a.clone(), other, p],
        sides: vec![Side::Attacking, Side::Defending, Side::Defending],
        policy: Policy::default(),
        force: [None, Some(3)],
    })
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotModelled);
}
