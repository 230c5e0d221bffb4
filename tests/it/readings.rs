//! One test per reading of the rules (docs/rules.md names them). Every
//! expected number here is worked out by hand in the comment beside it.

use num_rational::BigRational;
use swtcg_engine::attack::{AttackOutcome, attack};
use swtcg_engine::keywords::Keyword;
use swtcg_engine::unit::Unit;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn run(a: &Unit, d: &Unit) -> AttackOutcome {
    attack(a, d).unwrap()
}

fn attacker(power: u32) -> Unit {
    Unit::new("attacker", power)
}

fn defender() -> Unit {
    Unit::new("defender", 3)
}

#[test]
fn no_automatic_hit_or_miss() {
    let mut a = attacker(1);
    a.keywords.set(Keyword::Accuracy(3)); // a natural 1 + 3 = 4 hits
    assert_eq!(run(&a, &defender()).hits.mean(), q(1, 1));
    a.keywords.set(Keyword::Accuracy(-3)); // a natural 6 − 3 = 3 misses
    assert_eq!(run(&a, &defender()).hits.mean(), q(0, 1));
    let mut d = defender();
    d.keywords.set(Keyword::Armor);
    a.keywords.set(Keyword::Accuracy(1)); // against Armor: natural 4+ hits
    assert_eq!(run(&a, &d).hits.mean(), q(1, 2));
}

#[test]
fn critical_hit_counts_a_natural_six_that_missed() {
    let mut a = attacker(1);
    a.keywords.set(Keyword::Accuracy(-3)); // nothing hits
    a.keywords.set(Keyword::CriticalHit(2));
    // A natural 6 (1/6) still adds 2 damage.
    assert_eq!(run(&a, &defender()).defender_damage.prob(2), q(1, 6));
}

#[test]
fn only_one_six_counts() {
    let mut a = attacker(2);
    a.keywords.set(Keyword::Accuracy(-3));
    a.keywords.set(Keyword::CriticalHit(1));
    // Two natural 6s (1/36) still make only 1 damage: P(1) = 11/36.
    let dmg = run(&a, &defender()).defender_damage;
    assert_eq!(dmg.prob(1), q(11, 36));
    assert_eq!(dmg.max(), 1);
}

#[test]
fn parry_counts_a_natural_one_that_hit() {
    let mut a = attacker(1);
    a.keywords.set(Keyword::Accuracy(3)); // every face hits
    let mut d = defender();
    d.keywords.set(Keyword::Parry(1));
    // A natural 1 (1/6) is parried.
    assert_eq!(run(&a, &d).defender_damage.prob(0), q(1, 6));
}

#[test]
fn shields_never_below_zero_dice() {
    let a = attacker(1);
    let mut d = defender();
    d.keywords.set(Keyword::Shields(3));
    let o = run(&a, &d);
    assert_eq!(o.hits.prob(0), q(1, 1));
    assert_eq!(o.defender_damage.prob(0), q(1, 1));
}

#[test]
fn fury_only_on_a_natural_four_of_the_first_roll() {
    let mut a = attacker(1);
    a.keywords.set(Keyword::Fury(1));
    let h = run(&a, &defender()).hits;
    // 2 hits: the first die is a 4 (1/6) and the extra die hits (1/2).
    assert_eq!(h.prob(2), q(1, 12));
    // Never a third die: a 4 on the extra die does not trigger Fury again.
    assert_eq!(h.max(), 2);
    // 0 hits: the first die misses (1/2).
    assert_eq!(h.prob(0), q(1, 2));
}

/// RULES.md, prevention order: Parry is triggered and resolves first, then
/// the Deflect reflects what it can of what is still pending, then Evade.
#[test]
fn prevention_order_parry_then_deflect_then_evade() {
    let mut a = attacker(3);
    a.keywords.set(Keyword::Accuracy(3)); // always 3 hits
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(2));
    d.keywords.set(Keyword::Parry(2));
    d.keywords.set(Keyword::Evade(5));
    let o = run(&a, &d);
    // Without a natural 1 (5/6)^3 the Deflect takes 2; with one, Parry
    // leaves 1 and the Deflect takes that 1.
    assert_eq!(o.attacker_damage.prob(2), q(125, 216));
    assert_eq!(o.attacker_damage.prob(1), q(91, 216));
    assert_eq!(o.defender_damage.prob(0), q(1, 1));
}

/// The examples of Parry before Deflect: damage deflected back.
#[test]
fn parry_before_deflect_examples() {
    let mut d = defender();
    d.keywords.set(Keyword::Parry(3));
    d.keywords.set(Keyword::Deflect(1));
    d.health = Some(3);
    assert_eq!(run(&attacker(4), &d).attacker_damage.mean(), q(203, 432));
    let mut d = defender();
    d.keywords.set(Keyword::Parry(1));
    d.keywords.set(Keyword::Deflect(1));
    assert_eq!(run(&attacker(3), &d).attacker_damage.mean(), q(2, 3));
}

#[test]
fn deflected_damage_goes_to_the_attacker() {
    let mut a = attacker(2);
    a.keywords.set(Keyword::Accuracy(3));
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(1));
    let o = run(&a, &d);
    assert_eq!(o.attacker_damage.prob(1), q(1, 1));
    assert_eq!(o.defender_damage.prob(1), q(1, 1));
}

#[test]
fn deflect_works_once_per_source() {
    let mut a = attacker(2);
    a.keywords.set(Keyword::Accuracy(3)); // 2 hits
    a.keywords.set(Keyword::Deflect(5));
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(5));
    let o = run(&a, &d);
    // Defender deflects 2 to the attacker, the attacker deflects them back
    // (source: the defender), and the defender's Deflect, spent on the
    // attacker as a source, cannot send them again.
    assert_eq!(o.defender_damage.prob(2), q(1, 1));
    assert_eq!(o.attacker_damage.prob(0), q(1, 1));
}

#[test]
fn evade_works_once_per_instance() {
    let mut a = attacker(3);
    a.keywords.set(Keyword::Accuracy(3)); // 3 hits
    a.keywords.set(Keyword::Deflect(1));
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(1));
    d.keywords.set(Keyword::Evade(1));
    // Attack packet: 3 − 1 deflected − 1 evaded = 1. The deflected 1 comes
    // back from the attacker: a new instance, evaded again. Total 1.
    assert_eq!(run(&a, &d).defender_damage.prob(1), q(1, 1));
}

#[test]
fn parry_touches_only_the_attack_damage() {
    let mut a = attacker(2);
    a.keywords.set(Keyword::Accuracy(3)); // 2 hits, a natural 1 with probability 11/36
    a.keywords.set(Keyword::Deflect(1));
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(1));
    d.keywords.set(Keyword::Parry(1));
    // With a natural 1: Parry leaves 1, deflected to the attacker, which
    // deflects it back (source: the defender, whose Deflect is spent on the
    // attacker): Parry cannot touch it, 1 damage. Without: 1 lands, 1 is
    // deflected and comes back, 2 damage.
    let o = run(&a, &d);
    assert_eq!(o.defender_damage.prob(1), q(11, 36));
    assert_eq!(o.defender_damage.prob(2), q(25, 36));
}

#[test]
fn a_deflect_with_nothing_to_prevent_is_not_spent() {
    let a = attacker(0); // no attack damage at all
    let mut a = a;
    a.keywords.set(Keyword::Deflect(1));
    let mut d = defender();
    d.keywords.set(Keyword::Retaliate(1));
    // The attacker's Deflect was not used in the attack, so it deflects the
    // Retaliate hit (1/2) back to the defender.
    let o = run(&a, &d);
    assert_eq!(o.defender_damage.prob(1), q(1, 2));
    assert_eq!(o.attacker_damage.prob(0), q(1, 1));
}

#[test]
fn ferocity_makes_every_packet_unpreventable_unless_fortitude() {
    let mut a = attacker(2);
    a.keywords.set(Keyword::Accuracy(3)); // 2 hits
    a.keywords.set(Keyword::Ferocity);
    let mut d = defender();
    d.keywords.set(Keyword::Evade(2));
    d.keywords.set(Keyword::Deflect(2));
    assert_eq!(run(&a, &d).defender_damage.prob(2), q(1, 1));
    d.keywords.set(Keyword::Fortitude);
    assert_eq!(run(&a, &d).defender_damage.prob(0), q(1, 1));
    // A defender with Ferocity: its Retaliate dice can't be evaded.
    let mut a = attacker(0);
    a.keywords.set(Keyword::Evade(3));
    let mut d = defender();
    d.keywords.set(Keyword::Retaliate(1));
    d.keywords.set(Keyword::Ferocity);
    assert_eq!(run(&a, &d).attacker_damage.prob(1), q(1, 2));
}

#[test]
fn retaliate_is_dice_of_damage_at_the_end() {
    let mut a = attacker(0);
    a.keywords.set(Keyword::Accuracy(3)); // no effect on dice of damage
    a.keywords.set(Keyword::Armor); // 5+ needed
    let mut d = defender();
    d.keywords.set(Keyword::Retaliate(3));
    d.keywords.set(Keyword::Parry(5)); // no effect on dice of damage
    assert_eq!(run(&a, &d).attacker_damage.mean(), q(1, 1));
}

#[test]
fn a_discarded_defender_still_retaliates() {
    let mut a = attacker(3);
    a.keywords.set(Keyword::Accuracy(3)); // 3 hits
    let mut d = defender();
    d.health = Some(1);
    d.keywords.set(Keyword::Retaliate(1));
    let o = run(&a, &d);
    assert_eq!(o.defender_discarded(), Some(q(1, 1)));
    assert_eq!(o.attacker_damage.prob(1), q(1, 2));
}

#[test]
fn damage_to_a_discarded_unit_is_not_counted() {
    let mut a = attacker(2);
    a.keywords.set(Keyword::Accuracy(3)); // 2 hits
    a.health = Some(1);
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(1));
    d.keywords.set(Keyword::Retaliate(3));
    // The deflected 1 discards the attacker; the Retaliate dice then have
    // nothing to damage.
    let o = run(&a, &d);
    assert_eq!(o.attacker_damage.prob(1), q(1, 1));
    assert_eq!(o.attacker_discarded(), Some(q(1, 1)));
}

#[test]
fn one_placement_is_not_capped_by_health() {
    let mut a = attacker(3);
    a.keywords.set(Keyword::Accuracy(3)); // 3 hits
    let mut d = defender();
    d.health = Some(2);
    // All three counters of one placement count, though 2 discard it.
    assert_eq!(run(&a, &d).defender_damage.prob(3), q(1, 1));
}

#[test]
fn stun_lands_only_when_counters_are_placed() {
    let mut a = attacker(1);
    a.keywords.set(Keyword::Stun(2));
    let mut d = defender();
    d.keywords.set(Keyword::Deflect(1));
    d.keywords.set(Keyword::Stun(1));
    let o = run(&a, &d);
    // Every hit is deflected: the attacker never places counters, the
    // defender (doing the deflected damage) does on a hit.
    assert_eq!(o.attacker_stun_lands(), q(0, 1));
    assert_eq!(o.defender_stun_lands(), q(1, 2));
}
