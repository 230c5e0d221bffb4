//! The keyword parser: every keyword of RULES.md and the seeds, costs with
//! every arrow, and clear errors.

use swtcg_engine::error::ErrorKind;
use swtcg_engine::keywords::{Keyword, parse};

#[test]
fn every_keyword_parses() {
    let cases: Vec<(&str, Keyword)> = vec![
        ("Accuracy 2", Keyword::Accuracy(2)),
        ("Accuracy -1", Keyword::Accuracy(-1)),
        ("Accuracy +1", Keyword::Accuracy(1)),
        ("Armor", Keyword::Armor),
        ("Shields 1", Keyword::Shields(1)),
        ("Fury 2", Keyword::Fury(2)),
        ("Critical Hit 4", Keyword::CriticalHit(4)),
        ("critical hit 1", Keyword::CriticalHit(1)),
        ("Parry 3", Keyword::Parry(3)),
        ("Evade 2", Keyword::Evade(2)),
        ("Deflect 1", Keyword::Deflect(1)),
        ("Overkill", Keyword::Overkill),
        ("Retaliate 4", Keyword::Retaliate(4)),
        ("Stun 3", Keyword::Stun(3)),
        ("Lucky 1", Keyword::Lucky(1)),
        ("Ferocity", Keyword::Ferocity),
        ("Fortitude", Keyword::Fortitude),
        ("Intercept", Keyword::Intercept),
        ("Intercept.", Keyword::Intercept),
        ("Precision", Keyword::Precision),
        ("Elude", Keyword::Precision),
        (
            "Foresight: Gain 2 Force.",
            Keyword::Foresight("Gain 2 Force".into()),
        ),
        (
            "Forewarning: Gain 2 Force",
            Keyword::Forewarning("Gain 2 Force".into()),
        ),
        (
            "Stack: Chewbacca, Finn, and Han Solo.",
            Keyword::Stack(vec!["Chewbacca".into(), "Finn".into(), "Han Solo".into()]),
        ),
        (
            "Stack: Luke Skywalker and Mara Jade Skywalker",
            Keyword::Stack(vec!["Luke Skywalker".into(), "Mara Jade Skywalker".into()]),
        ),
    ];
    for (text, kw) in cases {
        let a = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(a.keyword, kw, "{text}");
        assert!(a.cost.is_none(), "{text}");
    }
}

/// Whether using an ability has a price: a cost other than `Pay 0 Force`.
fn is_paid(a: &swtcg_engine::keywords::Ability) -> bool {
    a.cost.as_ref().is_some_and(|c| c.x || c.force != Some(0))
}

#[test]
fn costs_with_every_arrow() {
    for text in [
        "Pay 2 Force -> Evade 2",
        "Pay 2 Force --> Evade 2",
        "Pay 2 Force → Evade 2",
        "  pay 2 force ->   Evade 2 ",
    ] {
        let a = parse(text).unwrap();
        assert_eq!(a.keyword, Keyword::Evade(2), "{text}");
        assert!(is_paid(&a));
        assert_eq!(a.cost.unwrap().force, Some(2), "{text}");
    }
    let free = parse("Pay 0 Force -> Intercept").unwrap();
    assert_eq!(free.keyword, Keyword::Intercept);
    assert!(!is_paid(&free));
    let other = parse("Discard the top card from your opponent's deck -> Retaliate 2").unwrap();
    assert_eq!(other.keyword, Keyword::Retaliate(2));
    assert_eq!(other.cost.as_ref().unwrap().force, None);
    assert!(is_paid(&other));
}

#[test]
fn bad_keywords_are_clear_errors() {
    for (text, kind, at) in [
        ("Parry", ErrorKind::Syntax, "none"),
        ("Parry lots", ErrorKind::Syntax, "none"),
        ("Parry -1", ErrorKind::Syntax, "none"),
        ("Armor 2", ErrorKind::Syntax, "none"),
        ("Jump 2", ErrorKind::Unknown, "none"),
        ("Pay 1 Force ->", ErrorKind::Syntax, "none"),
        ("Foresight", ErrorKind::Syntax, "none"),
        ("Parryx 2", ErrorKind::Unknown, "none"),
        ("", ErrorKind::Syntax, "none"),
    ] {
        let e = parse(text).unwrap_err();
        crate::common::assert_error(&e, kind, at);
        let e = e.to_string();
        assert_eq!(e.lines().count(), 1);
    }
}

#[test]
fn display_round_trips() {
    for text in [
        "Pay 2 Force -> Evade 2",
        "Critical Hit 4",
        "Accuracy -1",
        "Foresight: Gain 2 Force",
        "Stack: A, B",
    ] {
        let a = parse(text).unwrap();
        assert_eq!(parse(&a.to_string()).unwrap(), a, "{text}");
    }
}

/// The keyword table (issue 19): every keyword, declared once, can be
/// displayed and parsed back, added to a unit and lost again; its facts
/// (name, value, cumulative, when) come from the same declaration.
#[test]
fn every_keyword_parses_displays_adds_and_is_lost() {
    use swtcg_engine::keywords::Keywords;
    use swtcg_engine::keywords::{Keyword, KeywordKind, NAMES, When, parse};
    let all = Keyword::examples();
    // One kind per keyword, in the same order, named as the keyword is.
    assert_eq!(KeywordKind::ALL.len(), all.len());
    for (k, kind) in all.iter().zip(KeywordKind::ALL) {
        assert_eq!(k.kind(), *kind);
        assert_eq!(kind.name(), k.name());
        assert_eq!(
            KeywordKind::from_name(&k.name().to_uppercase()),
            Some(*kind)
        );
    }
    assert_eq!(
        KeywordKind::from_name("Elude"),
        Some(KeywordKind::Precision)
    );
    assert_eq!(KeywordKind::from_name("Mana"), None);
    // One example per declared name (older names aside).
    let canonical: std::collections::BTreeSet<&str> = NAMES.iter().map(|(_, c, _)| *c).collect();
    assert_eq!(all.len(), canonical.len());
    for k in &all {
        assert!(canonical.contains(k.name()), "{k:?}");
        let text = k.to_string();
        let back = parse(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .keyword;
        assert_eq!(&back, k, "{text}");
        let mut ks = Keywords::default();
        ks.add(&[parse(&text).unwrap()]);
        assert_ne!(ks, Keywords::default(), "{text} adds nothing");
        if k.cumulative() {
            let mut twice = Keywords::default();
            twice.add(&[parse(&text).unwrap(), parse(&text).unwrap()]);
            assert_ne!(twice, ks, "{text} is cumulative");
        }
        assert!(ks.lose(k.name()), "{text}: not a name");
        assert_eq!(ks, Keywords::default(), "{text} is not lost");
        let _: When = k.when();
    }
    // Older names read as the keyword; a name that is no keyword's loses
    // nothing and says so.
    assert_eq!(parse("Elude").unwrap().keyword, Keyword::Precision);
    let mut ks = Keywords::default();
    ks.add(&[parse("Bombard 3").unwrap()]);
    assert!(!ks.lose("Mana"));
    assert!(ks.lose("bombard"));
    assert_eq!(ks, Keywords::default());
}

/// A keyword's number given as X (its value set by a count the card
/// states): counted and signed keywords alike, not a number otherwise.
#[test]
fn a_keyword_of_x_is_read_with_x() {
    for text in [
        "Resilience X",
        "Accuracy X",
        "Critical Hit X",
        "Pay 1 Force -> Evade X",
    ] {
        let a = swtcg_engine::keywords::parse_with_x(text).unwrap();
        assert!(a.x, "{text}: {a:?}");
    }
    assert!(swtcg_engine::keywords::parse("Resilience X").is_err());
    assert!(swtcg_engine::keywords::parse("Pay X Force -> Accuracy X").is_err());
    assert!(
        !swtcg_engine::keywords::parse_with_x("Resilience +2")
            .unwrap()
            .x
    );
}
