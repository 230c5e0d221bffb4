//! Battle plans against brute force: every face of every attack of every
//! step, counters carried over, Stun lowering later power, a discarded
//! defender ending the plan; and the pictures.

use num_rational::BigRational;
use std::collections::BTreeMap;
use swtcg_engine::error::ErrorKind;
use swtcg_engine::keywords::{Keyword, KeywordKind, UnitEffect};
use swtcg_engine::plan::Plan;
use swtcg_engine::sample::Model;
use swtcg_engine::unit::Unit;
use swtcg_odds::plot::{Series, svg};

// Defender counters, per attacker (counters, Stun taken, Focus power for
// its next attack, has attacked).
type State = (u32, Vec<(u32, u32, u32, bool)>);

/// The exact law of the plan's states after each step, by enumeration with
/// the die-level simulator. These plans have no Lucky and no paid
/// abilities; their one choice, the Deflect's target, ties for the damage
/// objective and optimal play then sends it back at the source, as the
/// simulator does. Focus X: a natural 5 gives +X power to the attacker's
/// next attack; Tenacity X: a first attack doing less than X damage is made
/// again.
fn brute(plan: &Plan) -> Vec<BTreeMap<State, BigRational>> {
    let one = BigRational::from_integer(1.into());
    let mut law: BTreeMap<State, BigRational> =
        BTreeMap::from([((0, vec![(0, 0, 0, false); plan.attackers.len()]), one)]);
    let mut out = vec![];
    let d_left = plan.defender.health.unwrap() - plan.defender.counters;
    let attack = |s: &State, p: &BigRational, i: usize, next: &mut BTreeMap<State, BigRational>| {
        let a0 = &plan.attackers[i];
        let gone_a = a0.health.is_some_and(|h| a0.counters + s.1[i].0 >= h);
        if s.0 >= d_left || gone_a {
            *next.entry(s.clone()).or_default() += p;
            return;
        }
        let mut a = a0.clone();
        a.counters += s.1[i].0;
        a.power = a.power.saturating_sub(s.1[i].1) + s.1[i].2;
        let mut d = plan.defender.clone();
        d.counters += s.0;
        let model = Model::new(a.clone(), d.clone());
        let n = a
            .dice()
            .saturating_sub(d.keywords.number(KeywordKind::Shields) as u32);
        let faces = crate::common::sequences(n);
        let rets = crate::common::sequences(crate::common::retaliate_dice(&d));
        let w = p / BigRational::from_integer(((faces.len() * rets.len()) as i64).into());
        for f in &faces {
            for r in &rets {
                let x = model.resolve(f, r);
                let mut t = s.clone();
                t.0 += x.def_dmg;
                t.1[i].0 += x.att_dmg;
                if x.def_stun && x.att_dmg > 0 {
                    t.1[i].1 += d.keywords.number(KeywordKind::Stun) as u32;
                }
                t.1[i].2 = if f.contains(&5) {
                    a0.keywords.number(KeywordKind::Focus) as u32
                } else {
                    0
                };
                t.1[i].3 = true;
                *next.entry(t).or_default() += &w;
            }
        }
    };
    for &i in &plan.steps {
        let mut next: BTreeMap<State, BigRational> = BTreeMap::new();
        for (s, p) in &law {
            attack(s, p, i, &mut next);
        }
        let x = plan.attackers[i].keywords.number(KeywordKind::Tenacity) as u32;
        if x > 0 {
            let mut redo: BTreeMap<State, BigRational> = BTreeMap::new();
            for (s, p) in &law {
                let mut one_attack = BTreeMap::new();
                attack(s, p, i, &mut one_attack);
                for (t, q) in one_attack {
                    if !s.1[i].3 && t.0 - s.0 < x && t.0 < d_left {
                        attack(&t, &q, i, &mut redo);
                    } else {
                        *redo.entry(t).or_default() += q;
                    }
                }
            }
            next = redo;
        }
        law = next;
        out.push(law.clone());
    }
    out
}

fn check(json: &str) {
    let plan = Plan::from_json(json).unwrap();
    let report = plan.solve().unwrap();
    let laws = brute(&plan);
    let d_left = plan.defender.health.unwrap() - plan.defender.counters;
    for (k, law) in laws.iter().enumerate() {
        let p: BigRational = law
            .iter()
            .filter(|(s, _)| s.0 >= d_left)
            .map(|(_, p)| p)
            .sum();
        assert_eq!(report.steps[k].defender_discarded, p, "step {}", k + 1);
        let mean: BigRational = law
            .iter()
            .map(|(s, p)| p * BigRational::from_integer(s.0.into()))
            .sum();
        assert_eq!(report.steps[k].total_so_far.mean(), mean, "step {}", k + 1);
    }
    let last = laws.last().unwrap();
    for (v, p) in report.total_damage.pmf() {
        let want: BigRational = last
            .iter()
            .filter(|(s, _)| s.0 as i64 == v)
            .map(|(_, p)| p)
            .sum();
        assert_eq!(p, want, "P(total = {v})");
    }
    for i in 0..plan.attackers.len() {
        let want: BigRational = last
            .iter()
            .map(|(s, p)| p * BigRational::from_integer(s.1[i].0.into()))
            .sum();
        assert_eq!(report.taken_back[i].mean(), want, "taken back by {i}");
    }
    assert!(report.total_damage.sums_to_one());
}

#[test]
fn plans_match_brute_force() {
    // Counters carry over; the defender's Stun (through Retaliate) lowers
    // the repeated attacker's later power.
    check(
        r#"{"defender": {"name": "D", "power": 3, "health": 5, "counters": 1, "keywords": ["Retaliate 1", "Stun 1"]},
            "attackers": [{"name": "A", "power": 3, "health": 4, "keywords": ["Critical Hit 1"]},
                          {"name": "B", "power": 2, "health": 2}],
            "steps": ["A", "B", "A"]}"#,
    );
    // Deflect back at the attackers, an attacker discarded by it, Armor.
    check(
        r#"{"defender": {"name": "D", "power": 3, "health": 4, "keywords": ["Deflect 1", "Armor", "Stun 2"]},
            "attackers": [{"name": "A", "power": 3, "health": 1}, {"name": "B", "power": 2, "health": 3, "keywords": ["Accuracy 1"]}],
            "steps": ["A", "A", "B"]}"#,
    );
    // Focus: a natural 5 gives the attacker +2 power for its next attack;
    // Tenacity 2: a first attack doing less than 2 damage is made again.
    check(
        r#"{"defender": {"name": "D", "power": 3, "health": 6, "keywords": ["Retaliate 1"]},
            "attackers": [{"name": "A", "power": 2, "health": 4, "keywords": ["Focus 2"]},
                          {"name": "B", "power": 2, "health": 3, "keywords": ["Tenacity 2"]}],
            "steps": ["A", "B", "A", "B"]}"#,
    );
}

#[test]
fn a_discarded_defender_ends_the_plan() {
    let plan = Plan::from_json(
        r#"{"defender": {"name": "D", "power": 1, "health": 1},
            "attackers": [{"name": "A", "power": 2, "keywords": ["Accuracy 3"]}],
            "steps": ["A", "A"]}"#,
    )
    .unwrap();
    let r = plan.solve().unwrap();
    // 2 hits always: discarded by step 1; step 2 adds nothing.
    assert_eq!(
        r.steps[0].defender_discarded,
        BigRational::from_integer(1.into())
    );
    assert_eq!(r.steps[1].damage, BigRational::from_integer(0.into()));
    assert_eq!(r.total_damage.mean(), BigRational::from_integer(2.into()));
}

#[test]
fn bad_plans_are_clear_errors() {
    for (text, kind, at) in [
        (
            r#"{"defender": {"name": "D", "power": 1}, "attackers": [{"name": "A", "power": 2}]}"#,
            ErrorKind::Missing,
            "none",
        ),
        (
            r#"{"defender": {"name": "D", "health": 3}, "attackers": []}"#,
            ErrorKind::Missing,
            "none",
        ),
        (
            r#"{"defender": {"name": "D", "health": 3}, "attackers": [{"name": "A", "power": 2}], "steps": ["Z"]}"#,
            ErrorKind::NotFound,
            "none",
        ),
        (
            r#"{"defender": {"name": "D", "health": 3}, "attackers": [{"name": "A", "power": 2, "keywords": ["Jump"]}]}"#,
            ErrorKind::Unknown,
            "none",
        ),
        (
            r#"{"defender": {"name": "D", "health": 3}, "attackers": [{"name": "A"}], "extra": 1}"#,
            ErrorKind::Syntax,
            "json:1:78",
        ),
    ] {
        let e = Plan::from_json(text).unwrap_err();
        crate::common::assert_error(&e, kind, at);
    }
}

#[test]
fn pictures_are_well_formed_and_carry_the_numbers() {
    let mut d = Unit::new("d", 3);
    d.keywords.set(Keyword::Parry(1));
    let o = swtcg_engine::attack::attack(&Unit::new("a <&> \"b\"", 4), &d).unwrap();
    let series = vec![
        Series::at_least("damage <&>", &o.defender_damage),
        Series::at_least("hits", &o.hits),
    ];
    let text = svg("Attack \"4\" & <Parry>", "damage k", &series);
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // Every point carries its exact P(at least k).
    // Each series' markers have their own shape: every marker is a `pt`.
    let circles: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("pt"))
        .collect();
    let expected: usize = series.iter().map(|s| s.points.len()).sum();
    assert_eq!(circles.len(), expected);
    for (k, p) in o.defender_damage.tail() {
        let found = circles.iter().any(|c| {
            c.attribute("data-k") == Some(&k.to_string())
                && c.attribute("data-p") == Some(&swtcg_engine::dist::fraction_string(&p))
        });
        assert!(found, "P(damage >= {k}) = {p} not drawn");
    }
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert!(labels.contains(&"damage <&>"), "{labels:?}");
    assert!(labels.contains(&"50%"));
}

/// What Absorb and Persuade do after the attack is not modelled in plans,
/// and a paid one (which prevents among the Evades) is refused as a free
/// one is, never solved without its after-effect.
#[test]
fn paid_absorb_and_persuade_are_refused_as_free_ones_are() {
    for (who, kw) in [
        ("defender", "Persuade 1"),
        ("defender", "Pay 1 Force -> Persuade 1"),
        ("defender", "Pay X Force -> Persuade X"),
        ("attacker", "Absorb 1"),
        ("attacker", "Pay 1 Force -> Absorb 1"),
    ] {
        let (d, a) = if who == "defender" {
            (format!(r#", "keywords": ["{kw}"]"#), String::new())
        } else {
            (String::new(), format!(r#", "keywords": ["{kw}"]"#))
        };
        let text = format!(
            r#"{{"defender": {{"name": "D", "health": 3{d}}}, "attackers": [{{"name": "A", "power": 2{a}}}]}}"#
        );
        let e = swtcg_engine::plan::Plan::from_json(&text).unwrap_err();
        assert_eq!(
            e.kind(),
            swtcg_engine::error::ErrorKind::NotModelled,
            "{who}: {kw}"
        );
    }
}

/// A plan reads the units' own Stun, Focus and Tenacity: one that an
/// option before the roll grants (a card's "gets Stun 2 for this attack")
/// is refused, never left out of the plan unseen; `Plan::new` refuses what
/// a plan file's reading refuses.
#[test]
fn keywords_an_option_grants_are_refused_where_a_plan_reads_its_own() {
    use swtcg_engine::keywords::{Boost, Change, parse};
    use swtcg_engine::policy::Policy;
    let option = |text: &str| Boost {
        cost: 1,
        mine: Change {
            abilities: vec![parse(text).unwrap()],
            ..Change::default()
        },
        text: text.into(),
        ..Boost::default()
    };
    let plan = |d: Unit, a: Unit| Plan::new(d, vec![a], vec![0], Policy::default());
    let mut d = Unit::new("D", 1);
    d.health = Some(4);
    let a = Unit::new("A", 2);
    assert!(plan(d.clone(), a.clone()).is_ok());
    let mut stunning = d.clone();
    stunning.keywords.apply(UnitEffect::Boost(option("Stun 2")));
    assert_eq!(
        plan(stunning, a.clone()).unwrap_err().kind(),
        ErrorKind::NotModelled
    );
    let mut focused = a.clone();
    focused.keywords.apply(UnitEffect::Boost(option("Focus 1")));
    assert_eq!(
        plan(d.clone(), focused).unwrap_err().kind(),
        ErrorKind::NotModelled
    );
    // An option's Critical Hit is the attack's own: planned.
    let mut critical = a.clone();
    critical
        .keywords
        .apply(UnitEffect::Boost(option("Critical Hit 1")));
    assert!(plan(d.clone(), critical).is_ok());
    let mut persuading = d.clone();
    persuading.keywords.add(&[parse("Persuade 1").unwrap()]);
    assert_eq!(
        plan(persuading, a).unwrap_err().kind(),
        ErrorKind::NotModelled
    );
}
