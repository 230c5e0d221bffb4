//! The battle phase against a brute-force game tree written apart from the
//! solver: plain recursion over the units' turns, every target and every
//! decline, and every face of every die of every attack. The units have
//! power, health, speed, Armor, Critical Hit, Stun and a free Retaliate:
//! enough to carry counters and lost power from attack to attack, to hurt
//! the attacker back, and to make the order of attacks matter.
//!
//! Then the properties: one attack is `attack`, a fixed order against one
//! defender is `plan`, a unit added never lowers its side's P(control); a
//! sampler playing the solved policy passes `verify`, and one playing a
//! worse policy fails it.

use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, HashMap};
use swtcg_engine::battle::{Battle, BattleReport};
use swtcg_engine::dist::Dist;
use swtcg_engine::unit::Arena;

#[derive(Clone, Debug)]
struct U {
    dark: bool,
    speed: u32,
    power: u32,
    health: u32,
    armor: bool,
    crit: u32,
    stun: u32,
    retaliate: u32,
}

fn r(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

/// The battle file of units `us`, all in the Character arena.
fn file(us: &[U], objective: &str) -> String {
    let units: Vec<String> = us
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let mut kw = Vec::new();
            if u.armor {
                kw.push("\"Armor\"".to_string());
            }
            if u.crit > 0 {
                kw.push(format!("\"Critical Hit {}\"", u.crit));
            }
            if u.stun > 0 {
                kw.push(format!("\"Stun {}\"", u.stun));
            }
            if u.retaliate > 0 {
                kw.push(format!("\"Retaliate {}\"", u.retaliate));
            }
            format!(
                r#"{{"name": "U{i}", "side": "{}", "arena": "Character", "speed": {}, "power": {}, "health": {}, "keywords": [{}]}}"#,
                if u.dark { "dark" } else { "light" },
                u.speed,
                u.power,
                u.health,
                kw.join(", ")
            )
        })
        .collect();
    format!(
        r#"{{"units": [{}], "objective": "{objective}"}}"#,
        units.join(", ")
    )
}

/// Every face of `n` dice, by recursion: the number of faces at least
/// `need`, whether a 6 showed, and how many ways.
fn faces(n: u32, need: u32) -> BTreeMap<(u32, bool), u64> {
    fn go(n: u32, need: u32, hits: u32, six: bool, out: &mut BTreeMap<(u32, bool), u64>) {
        if n == 0 {
            *out.entry((hits, six)).or_default() += 1;
            return;
        }
        for f in 1..=6 {
            go(n - 1, need, hits + u32::from(f >= need), six || f == 6, out);
        }
    }
    let mut out = BTreeMap::new();
    go(n, need, 0, false, &mut out);
    out
}

/// A choice: a unit, and its target (none: it declines).
type Opt = (usize, Option<usize>);

/// A state of the brute force: counters, power lost, and who has acted.
type S = (Vec<u32>, Vec<u32>, Vec<bool>);

/// What a state is worth: each side's objective, the counters on each
/// side's units, then (not compared) each unit's P(in play at the end).
type V = Vec<BigRational>;

struct Brute<'a> {
    us: &'a [U],
    control: bool,
    memo: HashMap<S, V>,
}

impl Brute<'_> {
    fn alive(&self, s: &S, k: usize) -> bool {
        s.0[k] < self.us[k].health
    }

    fn end(&self, s: &S) -> V {
        let n = self.us.len();
        let live = |dark: bool| (0..n).any(|k| self.us[k].dark == dark && self.alive(s, k));
        let lost = |dark: bool| {
            (0..n)
                .filter(|&k| self.us[k].dark == dark && !self.alive(s, k))
                .count() as i64
        };
        let (d, l) = (live(true), live(false));
        let obj = if self.control {
            [r(i64::from(d && !l)), r(i64::from(l && !d))]
        } else {
            [r(lost(false) - lost(true)), r(lost(true) - lost(false))]
        };
        let ctr = |dark: bool| {
            r((0..n)
                .filter(|&k| self.us[k].dark == dark)
                .map(|k| i64::from(s.0[k]))
                .sum())
        };
        let mut v = vec![obj[0].clone(), obj[1].clone(), ctr(true), ctr(false)];
        v.extend((0..n).map(|k| r(i64::from(self.alive(s, k)))));
        v
    }

    /// The options of the side to move, in the solver's documented order:
    /// each tied unit (in file order) at each target (in file order), then
    /// each tied unit declining. `None`: the battle is over.
    fn options(&self, s: &S) -> Option<(usize, Vec<Opt>)> {
        let n = self.us.len();
        let enemies = |k: usize| {
            (0..n)
                .filter(|&j| self.us[j].dark != self.us[k].dark && self.alive(s, j))
                .collect::<Vec<_>>()
        };
        let able: Vec<usize> = (0..n)
            .filter(|&k| self.alive(s, k) && !s.2[k] && !enemies(k).is_empty())
            .collect();
        let top = able.iter().map(|&k| self.us[k].speed).max()?;
        let dark_tied = able
            .iter()
            .any(|&k| self.us[k].speed == top && self.us[k].dark);
        let tied: Vec<usize> = able
            .into_iter()
            .filter(|&k| self.us[k].speed == top && self.us[k].dark == dark_tied)
            .collect();
        let mut out = Vec::new();
        for &c in &tied {
            for t in enemies(c) {
                out.push((c, Some(t)));
            }
        }
        out.extend(tied.iter().map(|&c| (c, None)));
        Some((if dark_tied { 0 } else { 1 }, out))
    }

    /// The law of the state after unit `a` attacks unit `t`: the attack
    /// dice, then the target's Retaliate dice, every face enumerated.
    fn attack(&self, s: &S, a: usize, t: usize) -> Vec<(S, BigRational)> {
        let (ua, ut) = (&self.us[a], &self.us[t]);
        let dice = ua.power.saturating_sub(s.1[a]);
        let attack = faces(dice, if ut.armor { 5 } else { 4 });
        let back = faces(ut.retaliate, if ua.armor { 5 } else { 4 });
        let den = r(6i64.pow(dice + ut.retaliate));
        let mut out: BTreeMap<S, BigRational> = BTreeMap::new();
        for (&(hits, six), &w1) in &attack {
            for (&(back_hits, _), &w2) in &back {
                let mut n = s.clone();
                n.2[a] = true;
                let dmg = hits + if six { ua.crit } else { 0 };
                let placed = dmg.min(ut.health - s.0[t]);
                n.0[t] += placed;
                if placed > 0 {
                    n.1[t] += ua.stun;
                }
                let back_placed = back_hits.min(ua.health - n.0[a]);
                n.0[a] += back_placed;
                if back_placed > 0 {
                    n.1[a] += ut.stun;
                }
                *out.entry(n).or_insert_with(BigRational::zero) += r((w1 * w2) as i64) / &den;
            }
        }
        out.into_iter().collect()
    }

    fn choice(&mut self, s: &S, (c, t): (usize, Option<usize>)) -> V {
        let next = match t {
            Some(t) => self.attack(s, c, t),
            None => {
                let mut n = s.clone();
                n.2[c] = true;
                vec![(n, BigRational::one())]
            }
        };
        let mut total: V = vec![BigRational::zero(); 4 + self.us.len()];
        for (n, p) in next {
            let v = self.value(&n);
            for (x, y) in total.iter_mut().zip(&v) {
                *x += y * &p;
            }
        }
        total
    }

    fn value(&mut self, s: &S) -> V {
        if let Some(v) = self.memo.get(s) {
            return v.clone();
        }
        let v = match self.options(s) {
            None => self.end(s),
            Some((me, options)) => {
                let mut best: Option<V> = None;
                for o in options {
                    let v = self.choice(s, o);
                    let key = |v: &V| (v[me].clone(), v[2 + (1 - me)].clone(), -v[2 + me].clone());
                    if best.as_ref().is_none_or(|b| key(&v) > key(b)) {
                        best = Some(v);
                    }
                }
                best.unwrap()
            }
        };
        self.memo.insert(s.clone(), v.clone());
        v
    }
}

/// The brute force's root values, and its first options' values for the
/// side to move.
fn brute(us: &[U], control: bool) -> (V, Vec<BigRational>) {
    let mut b = Brute {
        us,
        control,
        memo: HashMap::new(),
    };
    let n = us.len();
    let s: S = (vec![0; n], vec![0; n], vec![false; n]);
    let root = b.value(&s);
    let firsts = match b.options(&s) {
        None => Vec::new(),
        Some((me, options)) => options
            .into_iter()
            .map(|o| b.choice(&s, o)[me].clone())
            .collect(),
    };
    (root, firsts)
}

/// A small seeded generator (the tests' cases must not depend on the
/// solver).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

fn random_units(g: &mut Lcg, dark: usize, light: usize) -> Vec<U> {
    let mut us = Vec::new();
    for k in 0..dark + light {
        us.push(U {
            dark: k < dark,
            speed: 10 * (1 + g.below(2)),
            power: 1 + g.below(3),
            health: 1 + g.below(3),
            armor: g.below(4) == 0,
            crit: if g.below(3) == 0 { 1 } else { 0 },
            stun: if g.below(4) == 0 { 1 } else { 0 },
            retaliate: if g.below(4) == 0 { 1 } else { 0 },
        });
    }
    // The dice of one attack stay few: power + Retaliate at most 4.
    us
}

fn solve(us: &[U], objective: &str) -> BattleReport {
    Battle::from_json(&file(us, objective))
        .unwrap()
        .solve()
        .unwrap()
}

fn fraction(f: &swtcg_engine::dist::Fraction) -> BigRational {
    f.0.clone()
}

#[test]
fn battles_agree_with_a_brute_force_game_tree() {
    let mut g = Lcg(34);
    let mut cases = 0;
    for (dark, light) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
        for _ in 0..12 {
            let us = random_units(&mut g, dark, light);
            for control in [true, false] {
                let objective = if control {
                    "control"
                } else {
                    "discard-difference"
                };
                let report = solve(&us, objective);
                let (root, firsts) = brute(&us, control);
                let what = format!("{objective} {us:?}");
                assert_eq!(report.value[0], root[0], "dark's value: {what}");
                assert_eq!(report.value[1], root[1], "light's value: {what}");
                let fates = report.units();
                assert_eq!(fates.len(), us.len(), "a fate for every unit");
                for (k, f) in fates.iter().enumerate() {
                    assert_eq!(fraction(&f.survives), root[4 + k], "U{k} survives: {what}");
                }
                // The first decision as a user reads it: every alternative's
                // exact value for the player choosing, the best first.
                let json = json_of(&report, false);
                let mut values: Vec<BigRational> = json["first"]["options"]
                    .as_array()
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .map(|o| text(&o["value"]).parse().unwrap())
                    .collect();
                assert_eq!(values.len(), firsts.len(), "{what}");
                if let Some(best) = firsts.iter().max() {
                    assert_eq!(&values[0], best, "the best first: {what}");
                }
                let mut want = firsts.clone();
                values.sort();
                want.sort();
                assert_eq!(values, want, "first options: {what}");
                if control {
                    let c = report.arena(Arena::Character);
                    assert_eq!(fraction(&c.dark), root[0], "{what}");
                    assert_eq!(fraction(&c.light), root[1], "{what}");
                    let total = fraction(&c.dark)
                        + fraction(&c.light)
                        + fraction(&c.contested)
                        + fraction(&c.empty);
                    assert_eq!(total, BigRational::one(), "{what}");
                }
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 96);
}

#[test]
fn a_battle_of_one_attack_is_that_attack() {
    for (kw, power, health) in [
        ("\"Critical Hit 2\"", 4, 5),
        ("\"Lucky 1\", \"Accuracy 1\"", 3, 3),
        ("\"Fury 1\"", 2, 3),
    ] {
        let text = format!(
            r#"{{"units": [{{"name": "A", "side": "dark", "arena": "Space", "speed": 60, "power": {power}, "health": 5, "keywords": [{kw}]}},
                          {{"name": "D", "side": "light", "arena": "Space", "speed": 10, "power": 0, "health": {health}, "keywords": ["Parry 1"]}}]}}"#
        );
        let report = Battle::from_json(&text).unwrap().solve().unwrap();
        // The same attack as a scenario (Lucky is a choice: a game).
        let scenario = swtcg_engine::scenario::Scenario::from_json(&format!(
            r#"{{"attacker": {{"name": "A", "power": {power}, "health": 5, "keywords": [{kw}]}},
                "defender": {{"name": "D", "power": 0, "health": {health}, "keywords": ["Parry 1"]}}}}"#
        ))
        .unwrap()
        .solve()
        .unwrap();
        let p = scenario.discarded(1);
        assert!(
            p > BigRational::zero(),
            "{kw}: a case where the attack matters"
        );
        assert_eq!(report.arena(Arena::Space).dark.0, p, "{kw}");
        assert_eq!(report.value[0], p, "{kw}");
    }
}

#[test]
fn a_fixed_order_against_one_defender_is_that_plan() {
    // Speeds fix the order; the defender hits back with nothing, so every
    // attacker attacks (declining never helps).
    let battle = Battle::from_json(
        r#"{"units": [
          {"name": "A", "side": "dark", "arena": "Ground", "speed": 50, "power": 3, "health": 3, "keywords": ["Critical Hit 1"]},
          {"name": "B", "side": "dark", "arena": "Ground", "speed": 40, "power": 2, "health": 2, "keywords": ["Accuracy 1"]},
          {"name": "C", "side": "dark", "arena": "Ground", "speed": 30, "power": 4, "health": 2},
          {"name": "D", "side": "light", "arena": "Ground", "speed": 10, "power": 0, "health": 7, "keywords": ["Armor", "Parry 1"]}]}"#,
    )
    .unwrap();
    let report = battle.solve().unwrap();
    let plan = swtcg_engine::plan::Plan::from_json(
        r#"{"defender": {"name": "D", "power": 0, "health": 7, "keywords": ["Armor", "Parry 1"]},
            "attackers": [{"name": "A", "power": 3, "health": 3, "keywords": ["Critical Hit 1"]},
                          {"name": "B", "power": 2, "health": 2, "keywords": ["Accuracy 1"]},
                          {"name": "C", "power": 4, "health": 2}]}"#,
    )
    .unwrap()
    .solve()
    .unwrap();
    let p = plan.steps.last().unwrap().defender_discarded.clone();
    assert!(p > BigRational::zero());
    assert_eq!(report.arena(Arena::Ground).dark.0, p);
    let d = report.units().into_iter().find(|u| u.name == "D").unwrap();
    assert_eq!(
        d.expected_counters.0,
        plan.total_damage.map(|x| x.min(7)).mean()
    );
}

#[test]
fn a_unit_added_never_lowers_its_sides_control() {
    let mut g = Lcg(7);
    let mut compared = 0;
    for _ in 0..25 {
        let us = random_units(&mut g, 1, 2);
        let before = solve(&us, "control");
        let mut more = us.clone();
        let mut extra = random_units(&mut g, 1, 0).remove(0);
        extra.dark = true;
        more.insert(1, extra);
        let after = solve(&more, "control");
        assert!(
            after.value[0] >= before.value[0],
            "dark's P(control) fell from {} to {} when adding a unit: {more:?}",
            before.value[0],
            after.value[0]
        );
        compared += 1;
    }
    assert_eq!(compared, 25);
}

/// Plays the battle `report` solved with dice from a seeded generator,
/// choosing by `choose` (the solved policy, or another): the control of
/// the Character arena, as 0 dark, 1 light, 2 contested, 3 empty.
fn sample(
    us: &[U],
    report: &BattleReport,
    runs: u32,
    worse: bool,
    g: &mut Lcg,
) -> BTreeMap<i64, u64> {
    // The solved choice of every state the battle reaches, by what it
    // holds: counters of the units in play, and who has acted.
    let policy: HashMap<(BTreeMap<String, u32>, Vec<String>), String> =
        serde_json::from_value(json_of(report, true)["policy"].clone())
            .map(|entries: Vec<serde_json::Value>| {
                entries
                    .into_iter()
                    .map(|e| {
                        let counters = serde_json::from_value(e["counters"].clone()).unwrap();
                        let done = serde_json::from_value(e["done"].clone()).unwrap();
                        ((counters, done), text(&e["choice"]))
                    })
                    .collect()
            })
            .unwrap();
    let b = Brute {
        us,
        control: true,
        memo: HashMap::new(),
    };
    let mut counts = BTreeMap::new();
    for _ in 0..runs {
        let n = us.len();
        let mut s: S = (vec![0; n], vec![0; n], vec![false; n]);
        while let Some((_, options)) = b.options(&s) {
            let key = (
                (0..n)
                    .filter(|&k| b.alive(&s, k))
                    .map(|k| (format!("U{k}"), s.0[k]))
                    .collect(),
                (0..n)
                    .filter(|&k| b.alive(&s, k) && s.2[k])
                    .map(|k| format!("U{k}"))
                    .collect(),
            );
            let words = |(c, t): (usize, Option<usize>)| match t {
                Some(t) => format!("U{c} attacks U{t}"),
                None => format!("U{c} declines to attack"),
            };
            let (c, t) = if worse {
                // Declines whenever it may.
                *options.iter().find(|o| o.1.is_none()).unwrap()
            } else {
                let chosen = policy
                    .get(&key)
                    .expect("the policy covers every state reached");
                *options.iter().find(|&&o| &words(o) == chosen).unwrap()
            };
            match t {
                None => s.2[c] = true,
                Some(t) => {
                    // One outcome drawn from the brute force's exact law.
                    let law = b.attack(&s, c, t);
                    let den: u64 = 6u64.pow(us[c].power.saturating_sub(s.1[c]) + us[t].retaliate);
                    let mut x = u64::from(g.below(den as u32));
                    let mut next = law[0].0.clone();
                    for (n2, p) in &law {
                        let w = (p * r(den as i64)).to_integer().try_into().unwrap_or(0u64);
                        if x < w {
                            next = n2.clone();
                            break;
                        }
                        x -= w;
                    }
                    s = next;
                }
            }
        }
        let live = |dark: bool| (0..us.len()).any(|k| us[k].dark == dark && b.alive(&s, k));
        let outcome = match (live(true), live(false)) {
            (true, false) => 0,
            (false, true) => 1,
            (true, true) => 2,
            (false, false) => 3,
        };
        *counts.entry(outcome).or_default() += 1;
    }
    counts
}

#[test]
fn a_sampler_playing_the_solved_policy_passes_verify_and_a_worse_one_fails() {
    let us = vec![
        U {
            dark: true,
            speed: 20,
            power: 3,
            health: 2,
            armor: false,
            crit: 1,
            stun: 0,
            retaliate: 0,
        },
        U {
            dark: true,
            speed: 10,
            power: 2,
            health: 2,
            armor: false,
            crit: 0,
            stun: 1,
            retaliate: 0,
        },
        U {
            dark: false,
            speed: 20,
            power: 2,
            health: 2,
            armor: true,
            crit: 0,
            stun: 0,
            retaliate: 1,
        },
        U {
            dark: false,
            speed: 10,
            power: 3,
            health: 1,
            armor: false,
            crit: 0,
            stun: 0,
            retaliate: 0,
        },
    ];
    let report = solve(&us, "control");
    let c = report.arena(Arena::Character);
    let law = Dist::from_pairs(
        [c.dark, c.light, c.contested, c.empty]
            .iter()
            .enumerate()
            .map(|(i, p)| {
                // Over 6^16, a multiple of every attack's denominator.
                let w = &p.0 * r(6i64.pow(16));
                assert!(w.is_integer());
                let w = w.to_integer();
                (
                    i as i64,
                    swtcg_engine::dist::Num::big(w.to_biguint().unwrap()),
                )
            }),
        swtcg_engine::dist::Num::big(num_bigint::BigUint::from(6u64.pow(16))),
    );
    assert!(law.sums_to_one(), "the four outcomes cover the battle");
    let mut g = Lcg(2026);
    let good = sample(&us, &report, 20_000, false, &mut g);
    assert_eq!(good.values().sum::<u64>(), 20_000);
    let v = swtcg_engine::verify::check(&law, &good, 0.001).unwrap();
    assert!(v.consistent(), "the solved policy's samples: {good:?}");
    let bad = sample(&us, &report, 20_000, true, &mut g);
    let v = swtcg_engine::verify::check(&law, &bad, 0.001).unwrap();
    assert!(!v.consistent(), "a policy declining every attack: {bad:?}");
}

/// A battle of the units given (JSON unit objects), solved.
fn battle(units: &str) -> BattleReport {
    Battle::from_json(&format!(r#"{{"units": [{units}]}}"#))
        .unwrap()
        .solve()
        .unwrap()
}

fn first_choices(r: &BattleReport) -> Vec<String> {
    json_of(r, false)["first"]["options"]
        .as_array()
        .map(|o| o.iter().map(|o| text(&o["choice"])).collect())
        .unwrap_or_default()
}

/// A report's JSON, as a person reading `battle --json` sees it.
fn json_of(r: &BattleReport, policy: bool) -> serde_json::Value {
    serde_json::to_value(r.json(policy)).unwrap()
}

/// A JSON string's text (a missing or other value fails the test).
fn text(v: &serde_json::Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_string()
}

#[test]
fn arenas_are_fought_space_then_ground_then_character() {
    // The Character units are the fastest, yet the Space arena is fought
    // first, then Ground.
    let r = battle(
        r#"{"name": "C1", "side": "dark", "arena": "Character", "speed": 90, "power": 1, "health": 1},
           {"name": "C2", "side": "light", "arena": "Character", "speed": 90, "power": 1, "health": 1},
           {"name": "G1", "side": "light", "arena": "Ground", "speed": 20, "power": 1, "health": 1},
           {"name": "G2", "side": "dark", "arena": "Ground", "speed": 10, "power": 1, "health": 1},
           {"name": "S1", "side": "light", "arena": "Space", "speed": 10, "power": 1, "health": 1},
           {"name": "S2", "side": "dark", "arena": "Space", "speed": 5, "power": 1, "health": 1}"#,
    );
    let json = json_of(&r, true);
    assert_eq!(json["first"]["best"], "S1 attacks S2");
    // The order of the first choice made in each arena, along the play.
    let policy = json["policy"].as_array().unwrap();
    let mut order = Vec::new();
    for e in policy {
        let arena = &text(&e["choice"])[..1];
        if !order.contains(&arena.to_string()) {
            order.push(arena.to_string());
        }
    }
    assert_eq!(order, ["S", "G", "C"]);
    assert_eq!(json["arenas"].as_object().unwrap().len(), 3);
    // Two arenas or more given: the default objective is control-two.
    assert_eq!(json["objective"], "control-two");
}

#[test]
fn the_fastest_attacks_first_and_the_dark_side_wins_a_tie() {
    let tie = battle(
        r#"{"name": "L", "side": "light", "arena": "Character", "speed": 50, "power": 1, "health": 1},
           {"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1}"#,
    );
    assert_eq!(json_of(&tie, false)["first"]["player"], "dark");
    let faster = battle(
        r#"{"name": "L", "side": "light", "arena": "Character", "speed": 60, "power": 1, "health": 1},
           {"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1}"#,
    );
    assert_eq!(json_of(&faster, false)["first"]["player"], "light");
    // A player's tied units: it picks which attacks first (and its target).
    let two = battle(
        r#"{"name": "D1", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 2},
           {"name": "D2", "side": "dark", "arena": "Character", "speed": 50, "power": 2, "health": 2},
           {"name": "L", "side": "light", "arena": "Character", "speed": 50, "power": 1, "health": 2}"#,
    );
    assert_eq!(
        first_choices(&two)
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>(),
        [
            "D1 attacks L",
            "D2 attacks L",
            "D1 declines to attack",
            "D2 declines to attack"
        ]
        .map(String::from)
        .into_iter()
        .collect()
    );
}

#[test]
fn a_unit_may_decline_to_attack() {
    // Attacking C, whose Retaliate 6 discards a 1-health attacker 1 - (1/2)^6
    // of the time, loses the arena more often than waiting: D declines.
    let r = Battle::from_json(
        r#"{"units": [
          {"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1},
          {"name": "C", "side": "light", "arena": "Character", "speed": 10, "power": 0, "health": 6, "keywords": ["Retaliate 6"]}],
          "objective": "discard-difference"}"#,
    )
    .unwrap()
    .solve()
    .unwrap();
    let first = &json_of(&r, false)["first"];
    assert_eq!(first["best"], "D declines to attack");
    assert_eq!(first["options"][0]["value"], "0/1");
    assert!(text(&first["options"][1]["value"]).starts_with('-'));
    assert_eq!(r.units()[0].survives.0, BigRational::one());
}

#[test]
fn a_discarded_unit_attacks_no_more() {
    // D always hits (Accuracy 3) and discards L before L attacks.
    let r = battle(
        r#"{"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1, "keywords": ["Accuracy 3"]},
           {"name": "L", "side": "light", "arena": "Character", "speed": 40, "power": 6, "health": 1}"#,
    );
    assert_eq!(r.units()[0].survives.0, BigRational::one());
    assert_eq!(r.units()[1].survives.0, BigRational::zero());
    assert_eq!(r.units()[1].discarded_first.0, BigRational::one());
    assert_eq!(
        json_of(&r, true)["policy"].as_array().unwrap().len(),
        1,
        "one choice made in all"
    );
}

#[test]
fn stun_lowers_power_until_the_end_of_the_battle() {
    // D always hits L for 1 (Accuracy 3); Stun 2 takes L's 2 dice: D
    // survives L's attack. Without Stun, L's 2 dice hit 3/4 of the time.
    let with = battle(
        r#"{"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1, "keywords": ["Accuracy 3", "Stun 2"]},
           {"name": "L", "side": "light", "arena": "Character", "speed": 40, "power": 2, "health": 5}"#,
    );
    assert_eq!(with.units()[0].survives.0, BigRational::one());
    let without = battle(
        r#"{"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1, "keywords": ["Accuracy 3"]},
           {"name": "L", "side": "light", "arena": "Character", "speed": 40, "power": 2, "health": 5}"#,
    );
    assert_eq!(without.units()[0].survives.0, r(1) / r(4));
}

#[test]
fn force_is_shared_across_the_battle() {
    // L evades 2 of each attack while the Light Side's Force lasts: two
    // attackers of 2 always-hitting dice; L has health 2, so it survives
    // only if it evades both attacks.
    let with_force = |f: &str| {
        Battle::from_json(&format!(
            r#"{{"units": [
              {{"name": "D1", "side": "dark", "arena": "Character", "speed": 50, "power": 2, "health": 9, "keywords": ["Accuracy 3"]}},
              {{"name": "D2", "side": "dark", "arena": "Character", "speed": 40, "power": 2, "health": 9, "keywords": ["Accuracy 3"]}},
              {{"name": "L", "side": "light", "arena": "Character", "speed": 10, "power": 0, "health": 2, "keywords": ["Pay 2 Force -> Evade 2"]}}],
              "force": {{"light": {f}}}}}"#
        ))
        .unwrap()
        .solve()
        .unwrap()
        .units()[2]
            .survives
            .0
            .clone()
    };
    // 4 Force: both attacks evaded; 2 for the battle: only the first.
    assert_eq!(with_force("4"), BigRational::one());
    assert_eq!(with_force("\"unlimited\""), BigRational::one());
    assert_eq!(
        with_force("2"),
        BigRational::zero(),
        "2 Force pays one Evade, not two"
    );
    assert_eq!(with_force("0"), BigRational::zero());
}

#[test]
fn ties_of_the_objective_go_to_more_damage_to_the_other_side() {
    // D can't take the arena (L has health 9): control ties at 0 whatever
    // D does; it attacks the unit it damages most (the one without Armor)
    // rather than decline.
    let r = battle(
        r#"{"name": "D", "side": "dark", "arena": "Character", "speed": 50, "power": 3, "health": 9},
           {"name": "L1", "side": "light", "arena": "Character", "speed": 10, "power": 0, "health": 9, "keywords": ["Armor"]},
           {"name": "L2", "side": "light", "arena": "Character", "speed": 10, "power": 0, "health": 9}"#,
    );
    let first = &json_of(&r, false)["first"];
    let options = first["options"].as_array().unwrap();
    assert!(!options.is_empty() && options.iter().all(|o| o["value"] == "0/1"));
    assert_eq!(first["best"], "D attacks L2");
}

#[test]
fn keywords_a_battle_does_not_model_are_refused_by_name() {
    for kw in [
        "Tenacity 2",
        "Focus 1",
        "Persuade 1",
        "Absorb 1",
        "Pay 1 Force -> Persuade 1",
        "Pay X Force -> Absorb X",
    ] {
        let e = Battle::from_json(&format!(
            r#"{{"units": [{{"name": "D", "side": "dark", "arena": "Space", "speed": 50, "power": 2, "health": 2, "keywords": ["{kw}"]}},
                          {{"name": "L", "side": "light", "arena": "Space", "speed": 10, "power": 1, "health": 1}}]}}"#
        ))
        .unwrap_err();
        assert_eq!(
            e.kind(),
            swtcg_engine::error::ErrorKind::NotModelled,
            "{kw}"
        );
    }
}

#[test]
fn bad_battle_files_get_one_clear_error() {
    use swtcg_engine::error::ErrorKind;
    for (text, kind) in [
        (r#"{"units": []}"#, ErrorKind::Limit),
        (
            r#"{"units": [{"name": "D", "side": "grey", "arena": "Space", "speed": 1, "power": 1, "health": 1}]}"#,
            ErrorKind::Syntax,
        ),
        (
            r#"{"units": [{"name": "D", "side": "dark", "arena": "Moon", "speed": 1, "power": 1, "health": 1}]}"#,
            ErrorKind::Unknown,
        ),
        (
            r#"{"units": [{"name": "D", "side": "dark", "arena": "Space", "power": 1, "health": 1}]}"#,
            ErrorKind::Missing,
        ),
        (
            r#"{"units": [{"name": "D", "side": "dark", "arena": "Space", "speed": 1, "power": 1}]}"#,
            ErrorKind::Missing,
        ),
        (
            r#"{"units": [{"name": "D", "side": "dark", "arena": "Space", "speed": 1, "power": 1, "health": 1}], "objective": "control-two"}"#,
            ErrorKind::Conflict,
        ),
        (
            r#"{"units": [{"name": "D", "side": "dark", "arena": "Space", "speed": 1, "power": 1, "health": 1},
                          {"name": "D", "side": "light", "arena": "Space", "speed": 1, "power": 1, "health": 1}]}"#,
            ErrorKind::Conflict,
        ),
    ] {
        let e = Battle::from_json(text).unwrap_err();
        assert_eq!(e.kind(), kind, "{text}: {e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
    // A battle past its bound is refused before it starts, with the knob.
    let mut b = Battle::from_json(
        r#"{"units": [{"name": "D", "side": "dark", "arena": "Space", "speed": 1, "power": 3, "health": 9},
                      {"name": "L", "side": "light", "arena": "Space", "speed": 1, "power": 3, "health": 9}], "max_states": 10}"#,
    )
    .unwrap();
    let e = b.solve().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert!(b.estimate_states() > 10);
    b.max_states = b.estimate_states();
    assert!(b.solve().is_ok());
}

#[test]
fn an_attack_from_another_arena_is_made_in_its_own_arenas_turn() {
    // The ship (Space) bombards the trooper (Ground) with 2 dice in the
    // Space turn: 3/4 it is discarded. Retaliate doesn't work against an
    // attack from another arena, so the ship is never damaged. The
    // trooper can't attack the ship back (no Ion Cannon).
    let b = battle(
        r#"{"name": "Ship", "side": "dark", "arena": "Space", "speed": 10, "power": 6, "health": 5, "keywords": ["Bombard 2"]},
           {"name": "Trooper", "side": "light", "arena": "Ground", "speed": 90, "power": 3, "health": 1, "keywords": ["Retaliate 4"]}"#,
    );
    let json = json_of(&b, true);
    assert_eq!(json["first"]["best"], "Ship attacks Trooper");
    let ground = b.arena(Arena::Ground);
    assert_eq!(ground.empty.0, r(3) / r(4));
    assert_eq!(ground.light.0, r(1) / r(4));
    assert_eq!(b.arena(Arena::Space).dark.0, BigRational::one());
    assert_eq!(b.units()[0].expected_counters.0, BigRational::zero());
    assert_eq!(
        json["policy"].as_array().unwrap().len(),
        1,
        "the trooper has no target"
    );
    // Both arenas given: P(dark controls two) = 0 (it has no Ground unit);
    // light holds Ground 1/4 of the time, and never Space.
    assert_eq!(b.control_two(), [BigRational::zero(), BigRational::zero()]);
}

#[test]
fn an_attack_from_another_arena_is_the_engines_remote_attack() {
    // Ion Cannon 3 from Ground at a Space unit with Retaliate and a Deflect:
    // the battle's one attack is the scenario's attack from another arena.
    let r = Battle::from_json(
        r#"{"units": [
          {"name": "Gun", "side": "light", "arena": "Ground", "speed": 30, "power": 1, "health": 4, "keywords": ["Ion Cannon 3", "Critical Hit 1"]},
          {"name": "Fighter", "side": "dark", "arena": "Space", "speed": 10, "power": 0, "health": 3, "keywords": ["Retaliate 2", "Deflect 1"]}],
          "objective": "control"}"#,
    )
    .unwrap()
    .solve()
    .unwrap();
    let mut gun = swtcg_engine::unit::Unit::from_card_text(
        "Gun",
        3,
        Some(4),
        &["Ion Cannon 3", "Critical Hit 1"],
    )
    .unwrap();
    gun.from_another_arena = true;
    let fighter = swtcg_engine::unit::Unit::from_card_text(
        "Fighter",
        0,
        Some(3),
        &["Retaliate 2", "Deflect 1"],
    )
    .unwrap();
    let game = swtcg_engine::policy::Game::new(
        vec![gun, fighter],
        vec![
            swtcg_engine::attack::Side::Attacking,
            swtcg_engine::attack::Side::Defending,
        ],
        swtcg_engine::policy::Policy::default(),
    );
    let out = swtcg_engine::policy::solve(&game).unwrap();
    let discarded = out.solution.tallies.prob(|t| t.damage[1] >= 3);
    assert!(discarded > BigRational::zero());
    assert_eq!(r.arena(Arena::Space).empty.0, discarded);
    assert_eq!(
        r.units()[0].survives.0,
        BigRational::one(),
        "nothing reaches the gun"
    );
}

/// A paid Protect beside another unit of its side is refused when an
/// attack it could act in is solved, never left out of the attack unseen
/// (it is not priced: when it would be paid is not modelled).
#[test]
fn a_paid_protect_takes_part_and_is_refused() {
    let b = Battle::from_json(
        r#"{"units": [{"name": "D", "side": "dark", "arena": "Space", "speed": 50, "power": 3, "health": 9},
                      {"name": "L1", "side": "light", "arena": "Space", "speed": 10, "power": 1, "health": 3},
                      {"name": "L2", "side": "light", "arena": "Space", "speed": 10, "power": 1, "health": 3, "keywords": ["Pay 1 Force -> Protect 1"]}]}"#,
    )
    .unwrap();
    let e = b.solve().unwrap_err();
    assert_eq!(e.kind(), swtcg_engine::error::ErrorKind::NotModelled);
}
