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
        let kind = KeywordKind::from_name(k.name()).expect("a keyword's name");
        assert_eq!(kind, k.kind(), "{text}");
        ks.lose(kind);
        assert_eq!(ks, Keywords::default(), "{text} is not lost");
        let _: When = k.when();
    }
    // Older names read as the keyword; a name that is no keyword's loses
    // nothing and says so.
    assert_eq!(parse("Elude").unwrap().keyword, Keyword::Precision);
    let mut ks = Keywords::default();
    ks.add(&[parse("Bombard 3").unwrap()]);
    assert_eq!(KeywordKind::from_name("Mana"), None);
    ks.lose(KeywordKind::Bombard);
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

/// `Keywords`' methods, read against the keyword's own text: `set` is
/// what card text gives, `number` is the keyword's number (1 for one
/// without, the items of a list), `has` says it is there, `lose` takes it
/// all, and a number of 0 sets nothing.
#[test]
fn keywords_are_set_read_and_lost_through_methods() {
    use swtcg_engine::keywords::{KeywordKind, Keywords};
    let examples = Keyword::examples();
    assert_eq!(examples.len(), KeywordKind::ALL.len());
    for k in examples {
        let kind = k.kind();
        let mut set = Keywords::default();
        set.set(k.clone());
        let printed = Keywords::from_abilities(&[parse(&k.to_string()).unwrap()]);
        assert_eq!(set, printed, "{k}");
        assert!(set.has(kind), "{k}");
        let expected = match (k.number(), &k) {
            (Some(n), _) => n,
            (None, Keyword::Stack(l) | Keyword::Adapt(l)) => l.len() as i64,
            (None, _) => 1,
        };
        assert_eq!(set.number(kind), expected, "{k}");
        for other in KeywordKind::ALL.iter().filter(|&&o| o != kind) {
            assert_eq!(set.number(*other), 0, "{k} gives {other}");
        }
        // Set twice: the second replaces the first, even when it adds up.
        let again = set.clone().set(k.clone()).clone();
        assert_eq!(again, set, "{k}");
        set.lose(kind);
        assert_eq!(set, Keywords::default(), "{k} is not lost");
        assert!(!set.has(kind) && set.number(kind) == 0, "{k}");
        if k.number().is_some() {
            assert_eq!(*set.set(k.with_number(0)), Keywords::default(), "{k} 0");
        }
    }
    // Paid abilities are read apart from the free sums, and a paid one is
    // had as much as a free one.
    let k = Keywords::from_abilities(
        &[
            "Pay 1 Force -> Evade 2",
            "Absorb 1",
            "Pay X Force -> Deflect X",
            "Retaliate 1",
            "Pay 2 Force -> Retaliate 3",
            "Foresight: Gain 1 Force.",
        ]
        .map(|t| parse(t).unwrap()),
    );
    // Absorb prevents as Evade does, but is its own keyword here.
    assert_eq!(
        (k.number(KeywordKind::Evade), k.number(KeywordKind::Absorb)),
        (0, 1)
    );
    assert!(k.has(KeywordKind::Evade) && k.has(KeywordKind::Absorb));
    assert_eq!(k.paid(KeywordKind::Evade).len(), 1);
    assert!(k.paid(KeywordKind::Deflect)[0].x && k.has(KeywordKind::Deflect));
    assert_eq!(k.number(KeywordKind::Deflect), 0);
    assert_eq!(
        k.paid(KeywordKind::Retaliate)
            .iter()
            .map(|p| (p.amount, p.cost))
            .collect::<Vec<_>>(),
        [(1, 0), (3, 2)]
    );
    assert_eq!(k.number(KeywordKind::Retaliate), 4);
    assert_eq!(k.texts(KeywordKind::Foresight), ["Gain 1 Force"]);
    assert!(k.texts(KeywordKind::Adapt).is_empty() && k.paid(KeywordKind::Parry).is_empty());
    let only_absorb = Keywords::from_abilities(&[parse("Absorb 2").unwrap()]);
    assert!(!only_absorb.has(KeywordKind::Evade) && only_absorb.has(KeywordKind::Absorb));
}

/// Every effect beyond the keywords is given by `apply` and read back by
/// `effects`, in the enum's order, counts summed; applying what `effects`
/// lists to a bare unit gives the same keywords.
#[test]
fn effects_round_trip() {
    use swtcg_engine::keywords::{Boost, Keywords, UnitEffect};
    let boost = Boost {
        cost: 1,
        text: "a boost".into(),
        ..Boost::default()
    };
    let all = [
        UnitEffect::PowerPerCounter(-1),
        UnitEffect::ExtraDamage(2),
        UnitEffect::Boost(boost.clone()),
        UnitEffect::NoIntercept,
        UnitEffect::Toll(2),
        UnitEffect::Harmless,
        UnitEffect::Consolation {
            own: 1,
            defender: 2,
        },
        UnitEffect::HalfDice,
        UnitEffect::SelfDamage {
            amount: 2,
            dice: true,
        },
    ];
    let mut k = Keywords::default();
    for e in all.iter().rev() {
        k.apply(e.clone());
    }
    assert_eq!(k.effects(), all);
    assert_eq!(k.boosts(), [boost]);
    let mut again = Keywords::default();
    for e in k.effects() {
        again.apply(e);
    }
    assert_eq!(again, k);
    // Counts add up; lists keep each.
    k.apply(UnitEffect::ExtraDamage(1))
        .apply(UnitEffect::Toll(3));
    let effects = k.effects();
    assert!(effects.contains(&UnitEffect::ExtraDamage(3)));
    assert_eq!(
        effects
            .iter()
            .filter(|e| matches!(e, UnitEffect::Toll(_)))
            .count(),
        2
    );
    k.clear_boosts();
    assert!(k.boosts().is_empty());
    // Overload's option is an effect its keyword makes.
    let o = Keywords::from_abilities(&[parse("Overload 2").unwrap()]);
    assert_eq!(o.number(swtcg_engine::keywords::KeywordKind::Overload), 2);
    assert!(matches!(o.effects()[..], [UnitEffect::Boost(_)]));
}
