//! Unit tests of the card reader.

use super::*;

#[test]
fn sentences_and_continuations() {
    let t = "Pay 1 Force -> Anakin gets +2 power for this attack. Pay 2 Force -> Evade 2 (Prevent up to 2 damage to this unit. ); Pay 1 Force -> Prevent up to 3 damage to Padme Amidala.";
    assert_eq!(split_abilities(t).len(), 3);
    let t = "Tap -> 2 Force you gain. Only when Yoda would attack play. 8 Force Pay -> Yoda untap; 2 Force Pay -> Evade 4";
    assert_eq!(split_abilities(t).len(), 3);
    let t = "Overkill (When this unit attacks...) Shields 1 (Each unit gets -1 power as long as it_s attacking this unit.)";
    assert_eq!(split_abilities(t).len(), 2);
}

#[test]
fn self_references() {
    let n = self_names("Darth Vader (B)");
    assert!(n.contains(&"Vader".to_string()));
    assert_eq!(mark_self("Vader gets +2 power", &n), "THIS gets +2 power");
    let n = self_names("Luke Skywalker (C)");
    assert_eq!(
        mark_self("Anakin Skywalker gets +2 power", &n),
        "Anakin Skywalker gets +2 power"
    );
}
