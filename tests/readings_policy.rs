//! One test per reading the choice solver takes (docs/rules.md names them).
//! Every expected number is worked out by hand in the comment beside it.

use num_rational::BigRational;
use swtcg_odds::attack::{Objective, Side};
use swtcg_odds::dist::{Dist, Num};
use swtcg_odds::policy::{Game, GameOutcome, LuckyPolicy, Policy, solve};
use swtcg_odds::scenario::unit_from_texts;
use swtcg_odds::unit::Unit;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn unit(name: &str, power: u32, health: Option<u32>, counters: u32, kws: &[&str]) -> Unit {
    unit_from_texts(name, power, health, counters, kws, false)
        .unwrap()
        .0
}

fn play(units: Vec<Unit>, sides: Vec<Side>, policy: Policy) -> GameOutcome {
    solve(&Game {
        units,
        sides,
        policy,
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

#[test]
fn simple_lucky_rerolls_missed_ones_first_and_hitting_sixes_first() {
    use swtcg_odds::policy::{FaceClasses, simple_choice};
    let c = FaceClasses::new(4);
    // Classes: [natural 1, natural 6, other hit, other miss].
    assert_eq!(
        simple_choice(&c, Side::Attacking, 1, &[1, 0, 0, 1]),
        [1, 0, 0, 0]
    );
    assert_eq!(
        simple_choice(&c, Side::Attacking, 3, &[1, 1, 1, 1]),
        [1, 0, 0, 1]
    );
    assert_eq!(
        simple_choice(&c, Side::Defending, 1, &[0, 1, 1, 0]),
        [0, 1, 0, 0]
    );
    assert_eq!(
        simple_choice(&c, Side::Defending, 3, &[1, 1, 1, 1]),
        [0, 1, 1, 0]
    );
    // Accuracy 3 (hits on a natural 1): the hitting 1 is forced last.
    let c = FaceClasses::new(1);
    assert_eq!(
        simple_choice(&c, Side::Defending, 1, &[1, 0, 1, 0]),
        [0, 0, 1, 0]
    );
    assert_eq!(
        simple_choice(&c, Side::Defending, 2, &[1, 0, 1, 0]),
        [1, 0, 1, 0]
    );
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
    let stat = swtcg_odds::attack::attack(
        &unit("a", 2, None, 0, &["Accuracy 3", "Deflect 5"]),
        &unit("d", 1, None, 0, &["Deflect 1"]),
    )
    .unwrap();
    assert_eq!(stat.defender_damage.prob(2), q(1, 1));
}

#[test]
fn a_paid_ability_is_used_only_when_it_serves() {
    // 3 hits against remaining health 1: evading 2 still discards it.
    let a = unit("a", 3, None, 0, &["Accuracy 3"]);
    let d = unit("d", 1, Some(3), 2, &["Pay 2 Force -> Evade 2"]);
    let o = duel(a, d, Policy::default());
    assert_eq!(o.solution.value, q(1, 1));
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
    // Damage: retaliation does not count; not paid; 1 die on 4+.
    let o = duel(a.clone(), d.clone(), Policy::default());
    assert!(!o.declared.retaliate_paid);
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
