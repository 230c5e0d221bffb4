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
    // A sentence of reminder text only belongs to the one before.
    let t = "Aayla gets +1 power for each Jedi you have in the Character arena. (This includes herself.) Evade 1";
    assert_eq!(split_abilities_in(t, false).len(), 2);
}

#[test]
fn self_references() {
    let n = self_names("Darth Vader (B)");
    assert!(n.contains(&"Vader".to_string()));
    let none = lex::Lexicon::default();
    let mark = |t: &str, own: &[String]| lex::mark(t, &lex::Names { own, others: &none });
    assert_eq!(mark("Vader gets +2 power", &n), "THIS gets +2 power");
    let n = self_names("Luke Skywalker (C)");
    assert_eq!(
        mark("Anakin Skywalker gets +2 power", &n),
        "Anakin Skywalker gets +2 power"
    );
}

/// Every example of every rule is read by that rule: a whole-text rule
/// gives the reading itself; a clause rule reads one of its clauses. None
/// is not understood, and every rule has at least two examples.
#[test]
fn every_rule_reads_its_examples() {
    let mut names = std::collections::BTreeSet::new();
    for r in RULES {
        assert!(names.insert(r.name), "two rules named {}", r.name);
        assert!(
            r.examples.len() >= 2,
            "rule {} has {} example(s)",
            r.name,
            r.examples.len()
        );
        assert!(
            !r.reads.is_empty() && !r.gives.is_empty(),
            "rule {}",
            r.name
        );
        for ex in r.examples {
            let read = read_abilities_in(ex, &["Rex", "Clone Trooper"], true);
            assert_eq!(
                read.len(),
                1,
                "rule {}: {ex:?} split into {}",
                r.name,
                read.len()
            );
            let a = &read[0];
            assert_ne!(
                a.class(),
                Class::NotUnderstood,
                "rule {}: {ex:?}: {:?}",
                r.name,
                a.why()
            );
            match r.stage {
                Stage::Whole => assert_eq!(a.rule, r.name, "{ex:?} read by {}", a.rule),
                Stage::Clause => assert!(
                    a.rule == "clauses" && a.clauses.iter().any(|c| c.rule == r.name),
                    "rule {}: {ex:?} read by {} {:?}",
                    r.name,
                    a.rule,
                    a.clauses
                ),
            }
        }
    }
}

/// A condition's clauses are all kept: one the cards can't decide makes
/// the whole condition wait for the user; none is dropped.
#[test]
fn no_clause_of_a_condition_is_dropped() {
    let who = ["Poggle", "Geonosian"];
    let text = "Each unit gets -2 power as long as it's attacking Poggle and you have another Geonosian in the Character arena.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert_eq!(a.class(), Class::Condition);
    assert_eq!(a.subject(), Some(Subject::Opponent));
    assert_eq!(a.decidable(), Some(false), "{a:?}");
    match &a.situation() {
        Some(Situation::All { all }) => {
            assert!(
                all.iter().any(|s| matches!(s, Situation::Opponent { .. })),
                "{all:?}"
            );
            assert!(
                all.iter().any(|s| matches!(s, Situation::Other { .. })),
                "{all:?}"
            );
        }
        s => panic!("{s:?}"),
    }
    // Decided when every clause is.
    let text = "Each unit gets -2 power as long as it's attacking Poggle.";
    assert_eq!(
        read_abilities_in(text, &who, true)[0].decidable(),
        Some(true)
    );
    // A restriction naming whom it attacks is part of the condition.
    let text = "Pay 3 Force -> Poggle gets Critical Hit 3 for this attack. Play only if Poggle is attacking a unique unit.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert_eq!(a.class(), Class::Condition);
    assert!(
        matches!(&a.situation(), Some(Situation::Attacking { defender }) if defender.any_of[0].contains(&Term::Unique)),
        "{a:?}"
    );
    // A lead clause the same way.
    let text = "As long as Poggle is in the Character arena and you have another Geonosian in the Character arena, Poggle gets +2 power.";
    assert_eq!(
        read_abilities_in(text, &who, true)[0].decidable(),
        Some(false)
    );
}

/// `Play only when THIS would be discarded` is a timing after the attack
/// (as the lead `When THIS would be discarded`): the attack's discard
/// stands. Another card's text, picked in play, is unmodelled; a reminder
/// that ended its sentence still ends it.
#[test]
fn timings_after_the_attack_and_copied_text() {
    let who = ["Rex", "Clone Trooper"];
    let a = &read_abilities_in(
        "[tap], Pay 2 Force -> Remove all damage counters from Rex. Play only when Rex would be discarded.",
        &who,
        true,
    )[0];
    assert_eq!(a.class(), Class::NotAttack, "{a:?}");
    // The same after `If THIS would be discarded,`.
    let a = &read_abilities_in(
        "If Rex would be discarded, you may pay 3 Force. If you do, remove all damage counters from him instead.",
        &who,
        true,
    )[0];
    assert_eq!(a.class(), Class::NotAttack, "{a:?}");
    // Without the restriction, removing counters from it is read as done
    // before the attack.
    let a = &read_abilities_in(
        "Pay 2 Force -> Remove 2 damage counters from Rex.",
        &who,
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
    for text in [
        "Pay 2 Force -> Search your opponent's deck for a Character card. Rex gets the ability text of that card until end of turn.",
        "If you do, put that card beneath Rex (Cards put under Rex in this way are not in play.) Rex gains the game text of that card until end of turn.",
    ] {
        let a = &read_abilities_in(text, &who, true)[0];
        assert_eq!(a.class(), Class::Unmodelled, "{text}: {a:?}");
        assert_eq!(
            a.clauses.last().map(|c| c.rule),
            Some("copied-text"),
            "{a:?}"
        );
    }
    // A named card's text is not "a card picked in play".
    let a = &read_abilities_in("Rex gets the ability text of Cody.", &who, true)[0];
    assert_ne!(a.class(), Class::Unmodelled, "{a:?}");
    // The reminder's period ends the sentence only before a new one.
    assert_eq!(
        strip_reminders("beneath Rex (not in play.) Rex gains"),
        "beneath Rex. Rex gains"
    );
    assert_eq!(
        strip_reminders("Critical Hit 2 (cumulative.) and Accuracy 1"),
        "Critical Hit 2 and Accuracy 1"
    );
    assert_eq!(strip_reminders("Evade 2 (reminder.)"), "Evade 2");
}

/// `--explain` shows each clause, and under it each count the count
/// grammar read, with its span in the clause.
#[test]
fn explain_shows_clauses_and_counts_with_spans() {
    let who = ["Rex", "Clone Trooper"];
    let a = &read_abilities_in(
        "Rex gets +1 power for each card stacked under him.",
        &who,
        true,
    )[0];
    let text = explain(a);
    let clause = "THIS gets +1 power for each card stacked under him";
    // The clause's span in the printed text.
    let printed = "Rex gets +1 power for each card stacked under him";
    assert!(
        text.contains(&format!(
            "clause \"{clause}\" [0..{}) -> grant",
            printed.len()
        )),
        "{text}"
    );
    let at = clause.find("card stacked").unwrap();
    assert!(
        text.contains(&format!(
            "count \"card stacked under him\" [{at}..{}) -> per card beneath",
            clause.len()
        )),
        "{text}"
    );
    let a = &read_abilities_in(
        "Pay 2 Force -> Rex gets Critical Hit X for this attack, where X is the number of other Clones you have in the Character arena.",
        &who,
        true,
    )[0];
    let text = explain(a);
    assert!(
        text.contains("-> per other own unit in the Character arena (a clone)"),
        "{text}"
    );
    assert_eq!(text.matches("count \"").count(), 1, "{text}");
}

/// What follows a grant is read too: words after a duration, a rider, a
/// trailing `if`, a cap, a restriction. None is dropped.
#[test]
fn what_follows_a_grant_is_read() {
    let who = ["Poggle", "Geonosian"];
    // Words after a duration are a clause too: not read, not dropped.
    let text = "When Poggle attacks, you may pay 1 Force. If you do, he gets +3 power for that attack and is discarded when the attack ends.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert_eq!(a.class(), Class::NotUnderstood, "{a:?}");
    assert!(
        a.why()
            .is_some_and(|w| w.contains("is discarded when the attack ends"))
    );
    let text = "Pay 1 Force -> Poggle gets +1 power for this attack. If Poggle has an Equipment attached, he gets +2 power for this attack instead.";
    assert_eq!(
        read_abilities_in(text, &who, true)[0].class(),
        Class::Condition
    );
    // A rider outside attacks after a duration is noted, and the grant read.
    let text = "Pay 2 Force -> Poggle gets Evade 2 until end of turn and can't attack this turn.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert_eq!(a.class(), Class::Keyword, "{a:?}");
    assert!(
        a.grant()
            .and_then(|g| g.note.as_deref())
            .is_some_and(|n| n.contains("can't attack this turn")),
        "{a:?}"
    );
    // A trailing `if` is the condition's situation; `deals N more damage
    // while ...` is extra damage in that situation.
    let text = "Poggle gets +2 power if he is attacking a Droid.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert!(
        matches!(a.situation(), Some(Situation::Attacking { .. })) && a.decidable() == Some(true),
        "{a:?}"
    );
    let text = "Poggle deals 2 more damage while attacking a Droid.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert_eq!(a.effects(), [Effect::ExtraDamage { n: 2 }]);
    assert!(
        matches!(a.situation(), Some(Situation::Attacking { .. })),
        "{a:?}"
    );
    // An `and` inside a situation is no rider.
    let text =
        "Poggle gets +1 power as long as he's attacking a Jedi and you have no cards in your hand.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert_eq!(a.grant().and_then(|g| g.note.as_deref()), None, "{a:?}");
    assert_eq!(a.decidable(), Some(false), "{a:?}");
    // A cap after a count is a clause too.
    let text = "Poggle gets +1 power for each damage counter on him. Max +3.";
    let a = &read_abilities_in(text, &who, false);
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(a[0].class(), Class::NotUnderstood, "{a:?}");
    // A restriction is noted; one that repeats the ability says it is read
    // as one payment.
    let text = "Pay 1 Force -> Poggle gets Parry 1 until end of turn. You can use this ability up to 3 times each turn.";
    let a = &read_abilities_in(text, &who, false);
    assert_eq!(a.len(), 1, "{a:?}");
    assert!(
        a[0].clauses
            .iter()
            .any(|c| c.rule == "restriction" && c.how.contains("one payment")),
        "{a:?}"
    );
}

/// An attack that ends after `Whenever THIS attacks` is this unit's own,
/// ended on the opponent's choice: unmodelled, not the defender's cancel
/// (which it would be, read in the defending role).
#[test]
fn ending_ones_own_attack_is_the_opponents_choice() {
    let who = ["Rex", "Clone Trooper"];
    for text in [
        "Whenever Rex attacks, your opponent may discard 2 cards from his or her hand. If he or she does, the attack ends.",
        "When Rex attacks, your opponent may put 1 damage counter on the defending unit. If he or she does, the attack ends.",
    ] {
        let a = &read_abilities_in(text, &who, true)[0];
        assert_eq!(a.class(), Class::Unmodelled, "{text}: {a:?}");
    }
    // The defender's cancel is still read as one.
    let a = &read_abilities_in(
        "When Rex is attacked, you may pay 1 Force. If you do, the attack is cancelled.",
        &who,
        true,
    )[0];
    assert!(
        matches!(a.class(), Class::Keyword | Class::Condition),
        "{a:?}"
    );
}

/// `his or her` units after `your opponent` are the opponent's.
#[test]
fn his_or_her_units_are_the_opponents() {
    let who = ["Rex", "Clone Trooper"];
    let text = "As long as your opponent has no Location in the Ground arena, each of his or her Ground units loses Armor.";
    let a = &read_abilities_in(text, &who, true)[0];
    let said = format!("{a:?}");
    assert!(said.contains("subject: Opponent"), "{said}");
    assert!(said.contains("\"Ground\""), "{said}");
    // Without an opponent named before it, the words are left as written.
    let text = "Each player discards each of his or her Ground units.";
    let a = &read_abilities_in(text, &who, true)[0];
    assert!(!format!("{a:?}").contains("subject: Opponent"), "{a:?}");
}

/// A keyword word that starts a longer name (`Bounty Hunter: Armor`,
/// `Stealth Squad`) is not that keyword; the keyword with its value, its
/// colon or nothing after it is.
#[test]
fn a_keyword_word_in_a_name_is_not_the_keyword() {
    for (text, name, is) in [
        ("Bounty: Draw a card.", "bounty", true),
        ("Bounty Hunter: Armor", "bounty", false),
        ("Stealth", "stealth", true),
        ("Stealth and +1 power", "stealth", true),
        ("Stealth Squad gets +1 power", "stealth", false),
        ("Damage Control X, where X is 2", "damage control", true),
        ("Damage Control 2", "damage control", true),
        ("Bountyhunter", "bounty", false),
    ] {
        assert_eq!(starts_with_keyword(text, name), is, "{text}");
    }
    // The labelled list stays one ability, and a grant that names keywords
    // no rule read is not understood, never "nothing an attack reads".
    let text = "Rex gets the following if a card with a listed subtype is in its stack: Agent: Cunning; Bounty Hunter: Armor; Sith: Fury 3. | Pay 2 Force -> Evade 2";
    let read = read_abilities_in(text, &["Rex", "Clone Trooper"], true);
    assert_eq!(read.len(), 2, "{read:?}");
    assert_eq!(read[0].class(), Class::NotUnderstood, "{:?}", read[0]);
    // A grant of speed alone is still nothing an attack reads.
    let a = &read_abilities_in("Rex gets +10 speed.", &["Rex"], true)[0];
    assert_eq!(a.class(), Class::NotAttack, "{a:?}");
}

/// `INSERT: Starfighter Pilot. ...`: a pilot ability, for the kinds it
/// names (`INSERT:` is not part of the first kind), marked INSERT text.
#[test]
fn an_insert_pilot_names_its_kinds() {
    let a = &read_abilities_in(
        "INSERT: Squadron and Starfighter Pilot. The Squadron or Starfighter gets: - Critical Hit 1 - Damage Control 1",
        &["Jag"],
        true,
    )[0];
    let Reading::Pilot(p) = &a.reading else {
        panic!("{a:?}")
    };
    assert_eq!(p.kinds, ["Squadron", "Starfighter"]);
    assert_eq!(p.grants.len(), 2);
    assert!(a.insert, "{a:?}");
}

/// `As long as A, B, or C is in any arena, ...`: the lead runs to the comma
/// after the list of names; `When ..., it gets X, and ...` is no list.
#[test]
fn a_lead_with_a_list_of_names_ends_after_it() {
    let who = ["Rex", "Clone Trooper"];
    let a = &read_abilities_in(
        "As long as Boc Aseca, Sariss, or Yun is in any arena, Rex gets Parry 1.",
        &who,
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
    assert!(
        format!("{a:?}").contains("Boc Aseca, Sariss, or Yun is in any arena"),
        "{a:?}"
    );
    let a = &read_abilities_in(
        "When Rex uses Overload, it gets Overkill, and the defending unit loses Shields for that attack.",
        &who,
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
}

/// Grants before their subject, quoted with the comma inside the quote
/// (`"1 Force pay -> Deflect 1," each of your Jedi Knights gets`): read
/// as `each of your Jedi Knights gets "1 Force pay -> Deflect 1"`.
#[test]
fn quoted_grants_before_their_subject() {
    let a = &read_abilities_in(
        "\"1 Force pay -> Deflect 1,\" each of your Jedi Knights gets.",
        &["Rex"],
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
    assert!(format!("{a:?}").contains("Deflect(1)"), "{a:?}");
}

/// `Treat THIS as a Bounty Hunter, and she gets Stun 2`: the subtype, and
/// the grants after it (not a subtype named "Bounty Hunter, and she gets
/// Stun 2").
#[test]
fn treat_as_then_gets() {
    let a = &read_abilities_in(
        "As long as Han Solo is in any arena, treat Leia as a Smuggler, and she gets Stun 2.",
        &["Leia"],
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
    let said = format!("{a:?}");
    assert!(said.contains("Stun(2)"), "{said}");
    assert!(said.contains("words: \"Smuggler\""), "{said}");
}

/// `Whenever THIS is attacked, untap THIS. It gets Fury 1 until end of
/// turn.`: the second sentence goes on from the trigger; Fury is had
/// after it, in later attacks, so it waits for the user. A sentence of its
/// own (no pronoun) is not tied to an earlier lead.
#[test]
fn a_sentence_goes_on_from_its_trigger() {
    let who = ["Rex"];
    let a = &read_abilities_in(
        "Whenever Rex is attacked, untap Rex. It gets Fury 1 until end of turn.",
        &who,
        true,
    )[0];
    assert_eq!(
        (a.class(), a.decidable()),
        (Class::Condition, Some(false)),
        "{a:?}"
    );
    let a = &read_abilities_in(
        "As long as there is a Location in any arena, Rex gets +1 power. Rex gets Ferocity when attacking a Droid.",
        &who,
        true,
    )[0];
    let ferocity = a
        .clauses
        .iter()
        .find(|c| c.text.contains("Ferocity"))
        .expect("the Ferocity clause");
    assert_eq!(ferocity.how, "condition, decided by the two cards", "{a:?}");
}

/// `Choose one of your opponent's units in each arena. Each of those units
/// gets -2 power`: "those" are the chosen units, as "that unit" is.
#[test]
fn those_are_the_chosen_units() {
    let a = &read_abilities_in(
        "Pay 3 Force -> Choose one of your opponent's Jedi in each arena. Each of those units gets -2 power until end of turn.",
        &["Rex"],
        true,
    )[0];
    let said = format!("{a:?}");
    assert!(said.contains("subject: Opponent"), "{said}");
    assert!(said.contains("Words(\"Jedi\")"), "{said}");
    assert!(!said.contains("Words(\"of those"), "{said}");
}

/// `When the Character battle step starts choose one: A, or B`: the lead
/// ends at its choice though its comma is missing; both options are kept.
#[test]
fn a_lead_ends_at_its_choice() {
    let a = &read_abilities_in(
        "When the Character battle step starts choose one: Rex gets +10 speed and Stun 3 until end of battle, or Rex gets +1 power and Accuracy 1 until end of battle.",
        &["Rex"],
        true,
    )[0];
    let said = format!("{a:?}");
    assert!(said.contains("Stun(3)"), "{said}");
    assert!(said.contains("Accuracy(1)"), "{said}");
    assert!(said.contains("choices: [["), "{said}");
}

/// `Each of your Agents and Spies costs 1 less ... and each gets Cunning`:
/// `each` is the group named before it; `Spies` is the Spy subtype.
#[test]
fn each_is_the_group_named_before_it() {
    assert_eq!(singular("Spies Armies Jedi Clones"), "Spy Army Jedi Clone");
    let a = &read_abilities_in(
        "Each of your Agents and Spies costs 1 less build counter to deploy and each gets Cunning.",
        &["Rex"],
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
    let said = format!("{a:?}");
    assert!(said.contains("Words(\"Spy\")"), "{said}");
    assert!(said.contains("Cunning"), "{said}");
}

/// A Switch mode with its own cost (`Switch: Riposte 2/Pay 1 Force ->
/// Retaliate 3`): the arrow is the mode's. The mode's keyword carries its
/// Force cost, the other mode has none, and the Switch is a condition of
/// the arena, not a keyword behind the cost "Switch: Riposte 2/Pay 1
/// Force". A mode whose cost changes the attack makes the Switch
/// unmodelled, naming that cost.
#[test]
fn a_switch_mode_has_its_own_cost() {
    let read = read_abilities_in(
        "Switch: Riposte 2/Pay 1 Force -> Retaliate 3",
        &["Rex"],
        true,
    );
    let Reading::Condition(c) = &read[0].reading else {
        panic!("{read:?}")
    };
    assert_eq!(c.grant.cost, None, "{c:?}");
    assert_eq!(c.grant.switch.len(), 2, "{c:?}");
    let ability = |mode: &[Effect]| match mode {
        [Effect::Keyword { ability, .. }] => ability.clone(),
        other => panic!("{other:?}"),
    };
    let first = ability(&c.grant.switch[0].1);
    assert_eq!(first.keyword, Keyword::Riposte(2));
    assert_eq!(first.force().unwrap_or(0), 0, "{first:?}");
    let second = ability(&c.grant.switch[1].1);
    assert_eq!(second.keyword, Keyword::Retaliate(3));
    assert_eq!(second.force(), Some(1));
    // Tapping itself is charged: a mode of its own too.
    let read = read_abilities_in("Switch: Riposte 3/Tap -> Protect 5", &["Rex"], true);
    assert_eq!(read[0].class(), Class::Condition, "{read:?}");
    // Damage counters on itself change the attack: unmodelled, named.
    let read = read_abilities_in(
        "Switch: Fury 1/Put 1 damage counter on Rex -> Evade 2",
        &["Rex"],
        true,
    );
    let Reading::Unmodelled { keyword } = &read[0].reading else {
        panic!("{read:?}")
    };
    assert!(keyword.contains("damage counter"), "{keyword}");
    // A Switch without costs is as before.
    let read = read_abilities_in("Switch: Shields 1/Fury 2", &["Rex"], true);
    let Reading::Condition(c) = &read[0].reading else {
        panic!("{read:?}")
    };
    assert_eq!(c.grant.switch.len(), 2);
}

/// Costs paid from a player's resources outside the attack wait for the
/// user (`--condition`): counters other than damage counters removed
/// ("non-damage", corruption), another unit of the player's tapped.
/// Damage counters removed from the unit itself change its health, so
/// that stays unmodelled.
#[test]
fn resources_outside_the_attack_are_the_users_to_pay() {
    for text in [
        "Remove 1 non-damage counter from Rex -> Deflect 1",
        "Remove 2 corruption counters from Rex -> Evade 2",
        "Tap one of your Soldiers -> Absorb 2",
        "Tap Princess Leia -> Evade 2",
    ] {
        let read = read_abilities_in(text, &["Rex"], true);
        let Reading::Condition(c) = &read[0].reading else {
            panic!("{text}: {read:?}")
        };
        assert!(!c.decidable, "{text}: {c:?}");
        assert!(
            matches!(&c.situation, Some(Situation::Other { text }) if text.starts_with("its cost is paid")),
            "{text}: {c:?}"
        );
    }
    for text in [
        "Remove 1 damage counter from Rex -> Evade 2",
        "Remove 1 non-damage counter and 1 damage counter from Rex -> Evade 2",
    ] {
        let read = read_abilities_in(text, &["Rex"], true);
        assert_eq!(read[0].class(), Class::Unmodelled, "{text}: {read:?}");
    }
}

/// Adapt's texts: an arrow in one is the text's (`Adapt: Fury 4/Pay 1
/// Force -> Evade 2` is not Evade 2 behind the cost "Adapt: Fury 4/Pay 1
/// Force"); a text that acts outside attacks is the option `None`; a list
/// of keywords is one option; a text the engine can't offer makes the
/// ability unmodelled, so that the card is read without it (never a
/// keyword that the solver refuses at the attack).
#[test]
fn adapts_texts_are_options() {
    let adapt = |text: &str| -> Vec<String> {
        let read = read_abilities_in(text, &["Rex"], true);
        let [Effect::Keyword { ability, .. }] = read[0].effects() else {
            panic!("{text}: {read:?}")
        };
        let Keyword::Adapt(texts) = &ability.keyword else {
            panic!("{text}: {ability:?}")
        };
        texts.clone()
    };
    assert_eq!(
        adapt("Adapt: Accuracy 1/Bounty: Gain 2 build points."),
        ["Accuracy 1", "None"]
    );
    assert_eq!(
        adapt("Adapt: Lucky 1, Parry 1/Pay 0 Force -> Evade 1"),
        ["Lucky 1, Parry 1", "Pay 0 Force -> Evade 1"]
    );
    // A paid Evade is offered: bought when it is needed, as printed.
    assert_eq!(
        adapt("Adapt: Fury 4/Pay 1 Force -> Evade 2"),
        ["Fury 4", "Pay 1 Force -> Evade 2"]
    );
    for text in [
        // A paid Protect would be an option never offered.
        "Adapt: Fury 4/Pay 1 Force -> Protect 2",
        // A power change is not a keyword.
        "Adapt: +1 power, Critical Hit 1/Armor",
    ] {
        let read = read_abilities_in(text, &["Rex"], true);
        let Reading::Unmodelled { keyword } = &read[0].reading else {
            panic!("{text}: {read:?}")
        };
        assert!(keyword.starts_with("Adapt text"), "{text}: {keyword}");
    }
}

/// A pilot's grant with its own cost is charged as an ability's: one the
/// user pays (damage counters on another of the player's units) waits for
/// the user, never acts as if free; one that changes the attack is
/// unmodelled.
#[test]
fn a_pilots_grant_pays_its_cost() {
    let read = read_abilities_in(
        "Squadron Pilot. The Squadron gets: > Fury 2 > Put 1 damage counter on one of your Imperial Space units -> Evade 2",
        &["Sith Fury Pilots"],
        true,
    );
    let Reading::Pilot(p) = &read[0].reading else {
        panic!("{read:?}")
    };
    assert_eq!(p.grants.len(), 2, "{p:?}");
    assert_eq!(p.grants[0].class(), Class::Keyword);
    let Reading::Condition(c) = &p.grants[1].reading else {
        panic!("{p:?}")
    };
    assert!(!c.decidable, "{c:?}");
    let read = read_abilities_in(
        "Squadron Pilot. The Squadron gets: > Fury 2 > Put 1 damage counter on this unit -> Evade 2",
        &["Sith Fury Pilots"],
        true,
    );
    let Reading::Pilot(p) = &read[0].reading else {
        panic!("{read:?}")
    };
    assert_eq!(p.grants[1].class(), Class::Unmodelled, "{p:?}");
}

/// "That damage" after `Whenever THIS would damage another unit` is damage
/// the unit does: preventing it on its player's choice is unmodelled,
/// never an Evade of the unit's own. After `Whenever THIS would be
/// damaged` it is damage the unit takes.
#[test]
fn damage_the_unit_does_is_not_damage_it_takes() {
    let read = read_abilities_in(
        "Whenever Rex would damage another unit during its attack, you may prevent 1 of that damage and draw a card.",
        &["Rex"],
        true,
    );
    assert_eq!(read[0].class(), Class::Unmodelled, "{read:?}");
    assert!(read[0].effects().is_empty(), "{read:?}");
    let read = read_abilities_in(
        "Whenever Rex would be damaged, prevent 1 of that damage.",
        &["Rex"],
        true,
    );
    let [Effect::Keyword { ability, .. }] = read[0].effects() else {
        panic!("{read:?}")
    };
    assert_eq!(ability.keyword, Keyword::Evade(1));
}

/// A restriction's situation after a keyword (`Play only if you have an
/// Officer in any arena`) makes it a condition that waits for the user,
/// as after a grant; a restriction of role only (`Play only if Rex is
/// being attacked`) sets its timing and keeps it a keyword.
#[test]
fn a_keywords_restriction_is_its_situation() {
    let read = read_abilities_in(
        "Pay 0 Force -> Absorb 1. Play only if you have an Officer in any arena.",
        &["Rex"],
        true,
    );
    let Reading::Condition(c) = &read[0].reading else {
        panic!("{read:?}")
    };
    assert!(!c.decidable, "{c:?}");
    for text in [
        "Pay 1 Force -> Evade 2. Play only if Rex is being attacked.",
        "Pay 1 Force -> Evade 2. Play only while Rex is defending.",
        "Pay 1 Force -> Critical Hit 1. Play only if Rex is attacking.",
    ] {
        let read = read_abilities_in(text, &["Rex"], true);
        assert_eq!(read[0].class(), Class::Keyword, "{text}: {read:?}");
    }
}

/// A trigger set up outside attacks for the turn (`whenever THIS would be
/// damaged ... this turn`) lasts into the turn's attacks: a condition that
/// waits for the user, not "nothing of it lasts into one".
#[test]
fn a_trigger_for_the_turn_lasts_into_its_attacks() {
    let read = read_abilities_in(
        "Pay 1 build point -> Whenever Rex would be damaged by an attacking unit this turn, prevent 1 of that damage. Play only during your build step.",
        &["Rex"],
        true,
    );
    assert_eq!(read[0].class(), Class::Condition, "{read:?}");
    let read = read_abilities_in(
        "Pay 1 build point -> Draw a card. Play only during your build step.",
        &["Rex"],
        true,
    );
    assert_eq!(read[0].class(), Class::NotAttack, "{read:?}");
}

/// X paid in something other than Force (`Remove X counters from your
/// Resource -> Absorb X`) is the user's to give, as the amount paid: a
/// condition with X from the user, never X = 0 or a Force cost.
#[test]
fn x_paid_in_other_things_is_the_users() {
    let read = read_abilities_in(
        "Remove X counters from your Resource -> Absorb X",
        &["Rex"],
        true,
    );
    let Reading::Condition(c) = &read[0].reading else {
        panic!("{read:?}")
    };
    assert!(!c.decidable, "{c:?}");
    assert_eq!(c.grant.x, Some(XSource::USER), "{c:?}");
    let [Effect::Keyword { ability, .. }] = c.grant.effects.as_slice() else {
        panic!("{c:?}")
    };
    assert!(ability.x && ability.cost.is_none(), "{ability:?}");
    // X in Force stays the keyword's own paid X.
    let read = read_abilities_in("Pay X Force -> Absorb X", &["Rex"], true);
    assert_eq!(read[0].class(), Class::Keyword, "{read:?}");
}

/// A part of a cost with no verb of its own qualifies the part before it
/// (`Remove X, up to 3, non-damage counters ...`; a list of subtypes with
/// commas): charged as that part is, not a cost the engine can't charge.
#[test]
fn a_cost_part_without_a_verb_belongs_to_the_one_before() {
    for text in [
        "Remove X, up to 3, non-damage counters from one of your units -> Absorb X",
        "Remove 2 Jedi, Sith, or Rebel cards in your discard pile from the game -> Evade 1",
    ] {
        let read = read_abilities_in(text, &["Rex"], true);
        assert_eq!(read[0].class(), Class::Condition, "{text}: {read:?}");
    }
    // A part with a verb is its own: damage counters on the unit itself
    // change the attack.
    let read = read_abilities_in(
        "Remove 1 mastery counter from Rex, put 1 damage counter on Rex -> Evade 2",
        &["Rex"],
        true,
    );
    assert_eq!(read[0].class(), Class::Unmodelled, "{read:?}");
}

/// The number an effect prints from X: `X+1` in its forms and `X times 2`,
/// after the cost's arrow only, one only, and X as a word of its own.
#[test]
fn numbers_printed_from_x() {
    use super::XTerm;
    use super::rules::x_term;
    let plus = |n| XTerm { times: 1, plus: n };
    for (text, want) in [
        ("Evade X+1", Some(("Evade X", plus(1)))),
        ("Tenacity X +1", Some(("Tenacity X", plus(1)))),
        ("Evade X + 2", Some(("Evade X", plus(2)))),
        (
            "Barrage X times 2",
            Some(("Barrage X", XTerm { times: 2, plus: 0 })),
        ),
        (
            "Tenacity X+1 until end of turn",
            Some(("Tenacity X until end of turn", plus(1))),
        ),
        (
            "Pay X Force -> Evade X+1",
            Some(("Pay X Force -> Evade X", plus(1))),
        ),
        ("Pay X+2 Force -> Meditate", None),
        ("Evade X+1 and Fury X+2", None),
        ("Evade X", None),
        ("Evade X+0", None),
        ("Evade X+1st", None),
        ("Max+1", None),
        ("Evade X+", None),
    ] {
        let got = x_term(text);
        assert_eq!(got.as_ref().map(|(t, n)| (t.as_str(), *n)), want, "{text}");
    }
}

/// Each text splits into the abilities given, in a set whose abilities
/// are separated by `|` and in one whose are not.
fn splits_as(cases: &[(&str, &[&str])]) {
    for barred in [false, true] {
        for (text, want) in cases {
            assert_eq!(
                &super::split_abilities_in(text, barred),
                want,
                "{text} (barred: {barred})"
            );
        }
    }
}

/// A slash list (`Adapt:`, `Switch:`) takes any text as its last item, so
/// an ability run on after it is cut off where the item stops being whole
/// (keywords, grants, `None`), and a reminder closes the list whatever its
/// items; an item after a period (`. / Evade 2`) is still the list's.
#[test]
fn abilities_run_on_after_a_slash_list_are_cut_off() {
    splits_as(&[
        (
            "Adapt: Focus 2/Stun 2 Pay 1 Force -> Evade 1",
            &["Adapt: Focus 2/Stun 2", "Pay 1 Force -> Evade 1"][..],
        ),
        (
            "Switch: Critical Hit 2/+20 speed, Shields 1 Armor",
            &["Switch: Critical Hit 2/+20 speed, Shields 1", "Armor"],
        ),
        (
            "Adapt: Double Damage/+2 power  Shields 1",
            &["Adapt: Double Damage/+2 power", "Shields 1"],
        ),
        (
            "Switch: Accuracy 1/Evade 1 (Its mode is its arena's.) Armor",
            &[
                "Switch: Accuracy 1/Evade 1 (Its mode is its arena's.)",
                "Armor",
            ],
        ),
        (
            "Adapt: Each of your Jedi gets +1 power. / Pay 2 Force -> Protect 2 (Choose one. Nat gets it.) Your opponent can't force your units to retreat.",
            &[
                "Adapt: Each of your Jedi gets +1 power. / Pay 2 Force -> Protect 2 (Choose one. Nat gets it.)",
                "Your opponent can't force your units to retreat.",
            ],
        ),
        // Whole as they are: a mode with its own cost, two keywords.
        (
            "Switch: Riposte 2/Pay 1 Force -> Retaliate 3",
            &["Switch: Riposte 2/Pay 1 Force -> Retaliate 3"],
        ),
        (
            "Adapt: Fury 4/Pay 1 Force -> Evade 2",
            &["Adapt: Fury 4/Pay 1 Force -> Evade 2"],
        ),
        (
            "Adapt: Fury 2/Critical Hit 2",
            &["Adapt: Fury 2/Critical Hit 2"],
        ),
    ]);
    // The item after a period is read with the list.
    let a = read_abilities(
        "Adapt: Each of your Jedi gets +1 power. / Evade 2",
        &["Rex"],
    )
    .remove(0);
    assert_ne!(a.class(), Class::NotUnderstood, "{a:?}");
}

/// `INSERT:` starts an ability of its own wherever it is written (after a
/// restriction, in a set whose abilities are separated by `|` or not), and
/// so do a bracketed symbol after a whole keyword (`Evade 1 [tap] -> ...`,
/// `[Pilot]`), a keyword list's end, a `Switch:` and a keyword with what
/// its X is after another sentence.
#[test]
fn abilities_start_at_insert_and_at_the_tap_symbol() {
    splits_as(&[
        (
            "Pay 1 build point -> Attach a card to Rex. Play only during your build step. INSERT: Treat Rex as a Jedi.",
            &[
                "Pay 1 build point -> Attach a card to Rex. Play only during your build step.",
                "INSERT: Treat Rex as a Jedi.",
            ][..],
        ),
        (
            "INSERT: Armor INSERT: Pay 0 Force -> Intercept",
            &["INSERT: Armor", "INSERT: Pay 0 Force -> Intercept"],
        ),
        (
            "Pay 2 Force -> Evade 1 [tap] -> Draw a card.",
            &["Pay 2 Force -> Evade 1", "[tap] -> Draw a card."],
        ),
        (
            "Shields 1 [tap], Pay 1 Force -> Draw a card.",
            &["Shields 1", "[tap], Pay 1 Force -> Draw a card."],
        ),
        (
            "Pay 2 Force -> Evade 2 [Pilot] Capital Ship Pilot. The Capital Ship gets +1 power.",
            &[
                "Pay 2 Force -> Evade 2",
                "[Pilot] Capital Ship Pilot. The Capital Ship gets +1 power.",
            ],
        ),
        (
            "Pay 2 Force -> Deflect 1 and Evade 1 INSERT: Pay 2 Force -> Protect 2",
            &[
                "Pay 2 Force -> Deflect 1 and Evade 1",
                "INSERT: Pay 2 Force -> Protect 2",
            ],
        ),
        (
            "Treat Rex as Force Sensitive. Switch: Critical Hit 2/Riposte 2",
            &[
                "Treat Rex as Force Sensitive.",
                "Switch: Critical Hit 2/Riposte 2",
            ],
        ),
        (
            "Bounty: Put Rex into your build zone. Fury X, where X is half the build cost of the defending unit.",
            &[
                "Bounty: Put Rex into your build zone.",
                "Fury X, where X is half the build cost of the defending unit.",
            ],
        ),
        // Not a start: the tap symbol inside a cost, INSERT quoted.
        (
            "Pay 1 Force, [tap] -> Evade 2",
            &["Pay 1 Force, [tap] -> Evade 2"],
        ),
    ]);
    let a = read_abilities(
        "Play only during your build step. INSERT: Treat Rex as a Jedi.",
        &["Rex"],
    );
    assert!(a.iter().any(|a| a.class() == Class::Keyword), "{a:?}");
}

#[test]
fn an_unknown_keyword_is_not_understood_never_dropped() {
    for k in ["Overpower 2", "Sith Rage X", "Crushing Blow 1."] {
        assert!(unknown_keyword(k), "{k}");
    }
    // Known keywords (the engine's, the glossary's, a glossary name's
    // first words), and what is no keyword's shape.
    for k in [
        "Critical Hit 2",
        "Velocity 20",
        "Hidden Cost 8",
        "Hidden 4",
        "+2 power",
        "Fury",
    ] {
        assert!(!unknown_keyword(k), "{k}");
    }
    let read = |t: &str| classify(t, &["Nomad (A)".into()]);
    assert_eq!(read("Overpower 2").class(), Class::NotUnderstood);
    // An item of a list of grants, and a Switch's mode.
    let a = read("This unit gets Fury 1 and Overpower 2.");
    assert_eq!(a.class(), Class::NotUnderstood, "{a:?}");
    let a = read("Switch: +1 health/+10 speed, Overpower 1");
    assert_eq!(a.class(), Class::NotUnderstood, "{a:?}");
    // Run together in a set with no separators: cut where it ends, and
    // where it starts after a sentence; a verb with a number is a
    // sentence's start (`Take 1 ...`), not a keyword.
    splits_as(&[
        ("Overpower 2 Armor", &["Overpower 2", "Armor"]),
        (
            "Bounty: Discard a card. Overpower 1 Armor",
            &["Bounty: Discard a card.", "Overpower 1", "Armor"],
        ),
    ]);
    assert_eq!(
        super::split_abilities_in(
            "Tap -> Take 1 Trooper Subordinate and put it into play.",
            false
        )
        .len(),
        1
    );
}

#[test]
fn spaces_of_every_kind_are_plain_spaces() {
    assert_eq!(
        plain_spaces("Pay\u{a0}1\u{2009}Force\u{200b} ->\u{3000}Evade 1\u{feff}"),
        "Pay 1 Force -> Evade 1"
    );
    assert!(matches!(
        plain_spaces("Evade 1"),
        std::borrow::Cow::Borrowed(_)
    ));
    assert!(matches!(
        plain_spaces("Padmé Amidala"),
        std::borrow::Cow::Borrowed(_)
    ));
    assert_eq!(ascii_only("a\u{a0}b"), "a b");
}

/// Names, card text and the reader's ASCII copy read a typographic
/// character the same way: through one table (`typed`). Each character
/// below (the list is written here, apart from the table) is the key a
/// keyboard types, in all three; and no other character is changed by the
/// table but spaces.
#[test]
fn typographic_characters_are_read_alike_everywhere() {
    let typographic = [
        ('\u{2018}', '\''),
        ('\u{2019}', '\''),
        ('\u{201b}', '\''),
        ('\u{b4}', '\''),
        ('\u{2032}', '\''),
        ('\u{201c}', '"'),
        ('\u{201d}', '"'),
        ('\u{ab}', '"'),
        ('\u{bb}', '"'),
        ('\u{2010}', '-'),
        ('\u{2013}', '-'),
        ('\u{2014}', '-'),
        ('\u{2212}', '-'),
        ('\u{a0}', ' '),
        ('\u{2009}', ' '),
    ];
    for (c, key) in typographic {
        let text = format!("a{c}b");
        let want = format!("a{key}b");
        assert_eq!(crate::cards::fold_name(&text), want, "{c:?} in a name");
        assert_eq!(strip_reminders(&text), want, "{c:?} in card text");
        assert_eq!(ascii_only(&text), want, "{c:?} in the ASCII copy");
    }
    for c in (0..0x3000u32).filter_map(char::from_u32) {
        let t = crate::cards::typed(c);
        let listed = typographic.iter().any(|&(x, _)| x == c) || c == '`';
        assert!(
            t == c || listed || c.is_whitespace() || ('\u{2010}'..='\u{2015}').contains(&c),
            "{c:?} changed to {t:?}"
        );
    }
}

/// Overload written out reads whatever pronoun the card gives the unit
/// (it, him, her); paid in damage counters on itself instead of damage,
/// it is named and not modelled, never read as Overload.
#[test]
fn overload_in_words_with_any_pronoun() {
    let who = ["Shae"];
    for (text, power) in [
        (
            "When Shae attacks, you may give her +3 power for that attack. If you do, Shae does 3 dice of damage to itself when the attack ends.",
            3,
        ),
        (
            "Whenever Shae attacks, you may give him +2 power for that attack. If you do, Shae does 1 damage to itself when the attack ends.",
            2,
        ),
    ] {
        let a = &read_abilities_in(text, &who, true)[0];
        assert_eq!(a.class(), Class::Keyword, "{a:?}");
        assert!(
            format!("{a:?}").contains(&format!("Overload {{ power: {power}")),
            "{a:?}"
        );
    }
    let a = &read_abilities_in(
        "Whenever Shae attacks, you may give her +5 power for this attack. If you do, put 2 damage counters on Shae when the attack ends.",
        &who,
        true,
    )[0];
    assert_eq!(a.class(), Class::Unmodelled, "{a:?}");
    assert!(!format!("{a:?}").contains("Overload {"), "{a:?}");
}

/// Putting a unit into an arena is deploying one: what it triggers
/// happens outside attacks; an effect of it that lasts into the battle is
/// a condition the user says (triggered before the attack).
#[test]
fn putting_a_unit_into_an_arena_is_outside_attacks() {
    let a = &read_abilities_in(
        "Whenever you put a Subordinate into the Character arena, you may remove 1 damage counter from one of your Ground units.",
        &["Rex"],
        true,
    )[0];
    assert_eq!(a.class(), Class::NotAttack, "{a:?}");
    let a = &read_abilities_in(
        "When you put a Jedi into any arena, Rex gets +2 power until end of turn.",
        &["Rex"],
        true,
    )[0];
    assert_eq!(a.class(), Class::Condition, "{a:?}");
    assert!(
        format!("{a:?}").contains("triggered before the attack"),
        "{a:?}"
    );
}

/// An arena power written out is its keyword, by the arena it attacks
/// (Ground: Bombard, Space: Ion Cannon, Character: Barrage); without a
/// power of its own it is not one.
#[test]
fn arena_powers_in_words() {
    for (text, k) in [
        (
            "Rex may attack a unit in the Character arena instead of a unit in the Space with 5 power, plus any other effects.",
            Keyword::Barrage(5),
        ),
        (
            "Rex may attack a unit in the Ground arena instead of a unit in the Space arena, using 2 power plus any other effects and power bonuses.",
            Keyword::Bombard(2),
        ),
        (
            "Rex may attack a unit in the Space arena instead of a unit in the Ground arena with 3 power.",
            Keyword::IonCannon(3),
        ),
    ] {
        let a = &read_abilities_in(text, &["Rex"], true)[0];
        assert_eq!(a.class(), Class::Keyword, "{a:?}");
        assert!(format!("{a:?}").contains(&format!("{k:?}")), "{k:?}: {a:?}");
    }
    let a = &read_abilities_in(
        "Rex may attack a unit in the Character arena instead of a unit in this arena.",
        &["Rex"],
        true,
    )[0];
    assert_ne!(a.class(), Class::Keyword, "{a:?}");
}
