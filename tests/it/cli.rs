//! The command line: output shapes, exact fractions, and one-line errors for
//! bad input.

use crate::common;
use num_rational::BigRational;
use serde_json::Value;
use std::process::{Command, Output};
use swtcg_engine::error::ErrorKind;
use swtcg_odds::cli::run_args;

fn bin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swtcg-odds"))
        .args(args)
        .output()
        .expect("run the binary")
}

fn json(args: &[&str]) -> Value {
    let out = bin(args);
    assert!(
        out.status.success(),
        "{:?}: {}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Bad input, run in-process as the binary runs it: status 2, nothing on
/// stdout, one line on stderr (no panic), and an error of kind `kind` that
/// points at `at` (see [`common::at`]). The words are pinned in
/// `tests/snapshots/errors-cli.txt`, whose command lines
/// `messages::the_binary_says_what_run_args_says` also runs as processes.
#[track_caller]
fn fails(args: &[&str], kind: ErrorKind, at: &str) {
    let mut line = vec!["swtcg-odds"];
    line.extend_from_slice(args);
    let ran = run_args(line);
    assert_eq!(ran.status, 2, "{args:?} should fail");
    assert!(ran.stdout.is_empty(), "{args:?}");
    assert_eq!(
        ran.stderr.trim_end().lines().count(),
        1,
        "{args:?}: {}",
        ran.stderr
    );
    assert!(!ran.stderr.contains("panicked"), "{args:?}: {}", ran.stderr);
    let e = ran
        .error
        .unwrap_or_else(|| panic!("{args:?}: no typed error"));
    common::assert_error(&e, kind, at);
}

fn is_reduced_fraction(s: &str) -> bool {
    let Some((n, d)) = s.split_once('/') else {
        return false;
    };
    let (Ok(n), Ok(d)) = (n.parse::<u128>(), d.parse::<u128>()) else {
        return false;
    };
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    d > 0 && n <= d && gcd(n, d) == 1
}

#[test]
fn attack_json_has_the_documented_keys() {
    let v = json(&[
        "attack",
        "--power",
        "5",
        "--crit",
        "1",
        "--parry",
        "1",
        "--deflect",
        "1",
        "--retaliate",
        "2",
        "--health",
        "4",
        "--counters",
        "1",
        "--attacker-health",
        "3",
        "--json",
    ]);
    for key in ["hits", "defender_damage", "attacker_damage"] {
        let d = &v[key];
        let pmf = d["pmf"].as_object().unwrap();
        assert!(!pmf.is_empty());
        for (k, p) in pmf {
            k.parse::<i64>().unwrap();
            assert!(is_reduced_fraction(p.as_str().unwrap()), "{key}: {p}");
        }
        assert!(d["mean"].as_str().unwrap().contains('/'));
        // P(X >= k) is given for the same outcomes, and is the sum of the
        // P(X = j), j >= k, summed here independently.
        let at_least = d["at_least"].as_object().unwrap();
        assert_eq!(
            at_least.keys().collect::<Vec<_>>(),
            pmf.keys().collect::<Vec<_>>(),
            "{key}"
        );
        let frac = |s: &serde_json::Value| s.as_str().unwrap().parse::<BigRational>().unwrap();
        for (k, p) in at_least {
            let k: i64 = k.parse().unwrap();
            let sum: BigRational = pmf
                .iter()
                .filter(|(j, _)| j.parse::<i64>().unwrap() >= k)
                .map(|(_, q)| frac(q))
                .sum();
            assert_eq!(frac(p), sum, "{key}: P(>= {k})");
        }
    }
    // 5 dice on 4+: P(>= 4 hits) = 6/32, P(>= 0) = 1.
    assert_eq!(v["hits"]["at_least"]["4"], "3/16");
    assert_eq!(v["hits"]["at_least"]["0"], "1/1");
    for key in ["defender_discarded", "attacker_discarded"] {
        assert!(is_reduced_fraction(v[key].as_str().unwrap()), "{key}");
    }
    // 5 dice hitting on 4+: 5/2 hits on average.
    assert_eq!(v["hits"]["mean"], "5/2");
    assert_eq!(v["hits"]["pmf"]["0"], "1/32");
}

#[test]
fn discard_keys_only_with_health() {
    let v = json(&["attack", "--power", "3", "--json"]);
    assert!(v.get("defender_discarded").is_none());
    assert!(v.get("attacker_discarded").is_none());
    // 3 dice on 4+, 1 damage each: P(3) = 1/8.
    assert_eq!(v["defender_damage"]["pmf"]["3"], "1/8");
}

#[test]
fn attack_text_shows_fractions_and_percentages() {
    let out = bin(&["attack", "--power", "2", "--health", "2"]);
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("P(>= k)"));
    assert!(s.contains("1/4"));
    assert!(s.contains("25.00%"));
    assert!(s.contains("P(defender discarded) = 1/4 (25.00%)"));
}

#[test]
fn negative_accuracy_is_accepted() {
    let v = json(&["attack", "--power", "2", "--accuracy", "-1", "--json"]);
    // Hits on a natural 5+.
    assert_eq!(v["hits"]["mean"], "2/3");
}

#[test]
fn bad_input_is_one_clear_line() {
    let cases: &[(&[&str], ErrorKind, &str)] = &[
        (
            &["attack", "--power", "1001"],
            ErrorKind::Range,
            "param:power=1001",
        ),
        (
            &["attack", "--power", "3", "--health", "0"],
            ErrorKind::Range,
            "param:health=0",
        ),
        (
            &["attack", "--power", "3", "--health", "3", "--counters", "3"],
            ErrorKind::Range,
            "param:counters=3",
        ),
        (
            &["attack", "--power", "3", "--counters", "1"],
            ErrorKind::Missing,
            "param:counters=1",
        ),
        (
            &["attack", "--power", "3", "--health", "-2"],
            ErrorKind::Range,
            "param:health=-2",
        ),
        (
            &["attack", "--power", "3", "--bogus"],
            ErrorKind::Unknown,
            "param:bogus",
        ),
        (&["attack"], ErrorKind::Missing, "param:power"),
        (
            &["attack", "--power", "3", "--fury", "500"],
            ErrorKind::Range,
            "param:fury=500",
        ),
        (
            &["table", "--power", "1..x"],
            ErrorKind::Syntax,
            "param:power=1..x",
        ),
        (
            &["table", "--power", "5..1"],
            ErrorKind::Syntax,
            "param:power=5..1",
        ),
        (
            &["table", "--power", "1..1000000"],
            ErrorKind::Syntax,
            "param:power=1..1000000",
        ),
        (
            &["table", "--armor", "maybe"],
            ErrorKind::Syntax,
            "param:armor",
        ),
        (
            &["table", "--power", "1001"],
            ErrorKind::Range,
            "param:power=1001",
        ),
        (
            &["table", "--health", "0"],
            ErrorKind::Range,
            "param:health=0",
        ),
        (
            &["table", "--format", "xml"],
            ErrorKind::Syntax,
            "param:format=xml",
        ),
        (&["nonsense"], ErrorKind::Unknown, "param:command=nonsense"),
    ];
    for &(args, kind, at) in cases {
        fails(args, kind, at);
    }
}

#[test]
fn default_table_is_useful() {
    let out = bin(&["table"]);
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.starts_with("| power | armor | health | E[damage]"));
    // 10 powers, with and without Armor.
    assert_eq!(s.lines().count(), 2 + 20);
    assert!(s.contains("| 10 | off | 5 | 5.0000 | 5/1 |"));
}

#[test]
fn table_json_rows() {
    let v = json(&[
        "table", "--power", "1..3", "--crit", "0..1", "--parry", "0,1", "--armor", "both",
        "--health", "2", "--format", "json",
    ]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3 * 2 * 2 * 2);
    for r in rows {
        for key in [
            "power", "accuracy", "armor", "shields", "fury", "crit", "parry", "evade", "deflect",
            "health", "mean", "mean_f64",
        ] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
        let mean = r["mean"].as_str().unwrap();
        let (n, d) = mean.split_once('/').unwrap();
        let f = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        approx::assert_relative_eq!(f, r["mean_f64"].as_f64().unwrap(), max_relative = 1e-12);
    }
    // Power 1, no Armor, no crit, no parry: one die on 4+.
    assert_eq!(rows[0]["mean"], "1/2");
    assert_eq!(rows[0]["p_discard"], "0/1");
}

#[test]
fn table_csv_has_every_column() {
    let out = bin(&[
        "table",
        "--power",
        "2",
        "--accuracy",
        "-1..1",
        "--format",
        "csv",
    ]);
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    let mut lines = s.lines();
    assert_eq!(
        lines.next().unwrap(),
        "power,accuracy,armor,shields,fury,crit,parry,evade,deflect,health,mean,mean_f64,p_discard,p_discard_f64"
    );
    assert_eq!(
        lines.next().unwrap(),
        "2,-1,off,0,0,0,0,0,0,,2/3,0.6666666666666666,,"
    );
    assert_eq!(lines.count(), 2);
}

/// Writes `text` to a file of its own (tests run in parallel: each gets a
/// fresh temporary folder, kept until the process ends).
fn write_tmp(name: &str, text: &str) -> String {
    let dir = tempfile::tempdir().unwrap().keep();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn scenario_json_has_every_key() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/beyghor.json"
    );
    let v = json(&["scenario", path, "--json"]);
    for key in [
        "hits",
        "defender_damage",
        "attacker_damage",
        "defender_discarded",
        "attacker_discarded",
        "damage_by_unit",
        "discarded_by_unit",
        "defending_unit",
        "used",
        "objective",
    ] {
        assert!(v.get(key).is_some(), "{key} missing");
    }
    for name in ["Beyghor", "Apprentice", "Guard"] {
        assert!(v["damage_by_unit"][name]["pmf"].is_object(), "{name}");
        assert!(is_reduced_fraction(
            v["discarded_by_unit"][name].as_str().unwrap()
        ));
    }
    let defending = v["defending_unit"].as_object().unwrap();
    assert_eq!(defending.len(), 1);
    assert!(v["used"]["Beyghor: Lucky 1"].as_str().is_some());
    assert!(v["used"]["Apprentice: Evade"].as_str().is_some());
    assert!(v.get("foresight").is_none());
}

#[test]
fn scenario_foresight_and_arrows() {
    let path = write_tmp(
        "foresight.json",
        r#"{"attacker": {"name": "Luke", "power": 4, "keywords": ["Foresight: Gain 2 Force.", "Pay 0 Force → Lucky 1"]},
            "defender": {"name": "Trooper", "power": 2, "health": 3, "keywords": ["Forewarning: Gain 1 Force", "Armor"]},
            "policy": {"lucky": "simple"}}"#,
    );
    let v = json(&["scenario", &path, "--json"]);
    for key in ["foresight", "forewarning"] {
        let f = &v[key];
        let best = f["best_guess"].as_i64().unwrap();
        let by = f["by_guess"].as_object().unwrap();
        assert_eq!(f["probability"], by[&best.to_string()]);
        // The best guess is the most likely number of hits.
        for (k, p) in by {
            let (n, d) = p.as_str().unwrap().split_once('/').unwrap();
            let (bn, bd) = f["probability"].as_str().unwrap().split_once('/').unwrap();
            let lhs = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
            let rhs = bn.parse::<f64>().unwrap() / bd.parse::<f64>().unwrap();
            assert!(lhs <= rhs, "guess {k}");
        }
    }
}

#[test]
fn scenario_errors_name_the_unit_and_quote_the_text() {
    let bad = write_tmp(
        "bad.json",
        r#"{"attacker": {"name": "Vader", "power": 6, "keywords": ["Parry lots"]}, "defender": {"name": "Luke", "power": 4}}"#,
    );
    fails(&["scenario", &bad], ErrorKind::Syntax, "none");
    let unknown = write_tmp(
        "unknown.json",
        r#"{"attacker": {"name": "Vader", "power": 6, "keywords": ["Force Choke 3"]}, "defender": {"name": "Luke", "power": 4}}"#,
    );
    fails(&["scenario", &unknown], ErrorKind::Unknown, "none");
    let ignored = write_tmp(
        "ignored.json",
        r#"{"attacker": {"name": "Vader", "power": 6, "keywords": ["Force Choke 3"]}, "defender": {"name": "Luke", "power": 4}, "ignore_unknown": true}"#,
    );
    let v = json(&["scenario", &ignored, "--json"]);
    assert_eq!(v["ignored"][0]["unit"], "Vader");
    assert_eq!(v["ignored"][0]["text"], "Force Choke 3");
    let field = write_tmp(
        "field.json",
        r#"{"attacker": {"name": "A", "powr": 3}, "defender": {"name": "D"}}"#,
    );
    fails(&["scenario", &field], ErrorKind::Syntax, "json:1:33");
    let policy = write_tmp(
        "policy.json",
        r#"{"attacker": {"name": "A", "power": 3}, "defender": {"name": "D"}, "policy": {"lucky": "greedy"}}"#,
    );
    fails(&["scenario", &policy], ErrorKind::Syntax, "json:1:95");
    let twins = write_tmp(
        "twins.json",
        r#"{"attacker": {"name": "A", "power": 3}, "defender": {"name": "A"}}"#,
    );
    fails(&["scenario", &twins], ErrorKind::Conflict, "none");
    fails(
        &["scenario", "/no/such/file.json"],
        ErrorKind::Io,
        "path:/no/such/file.json",
    );
    let huge = write_tmp(
        "huge.json",
        r#"{"attacker": {"name": "A", "power": 1000, "keywords": ["Lucky 9"]}, "defender": {"name": "D"}}"#,
    );
    fails(&["scenario", &huge], ErrorKind::Limit, "none");
}

#[test]
fn attack_with_lucky_is_solved_as_a_game() {
    let v = json(&[
        "attack", "--power", "3", "--crit", "2", "--lucky", "1", "--parry", "2", "--health", "4",
        "--json",
    ]);
    for key in [
        "hits",
        "defender_damage",
        "attacker_damage",
        "defender_discarded",
        "used",
        "objective",
    ] {
        assert!(v.get(key).is_some(), "{key} missing");
    }
    let simple = json(&[
        "attack",
        "--power",
        "3",
        "--crit",
        "2",
        "--lucky",
        "1",
        "--parry",
        "2",
        "--health",
        "4",
        "--lucky-policy",
        "simple",
        "--json",
    ]);
    assert_ne!(v["objective"]["value"], simple["objective"]["value"]);
    fails(
        &["attack", "--power", "3", "--lucky-policy", "greedy"],
        ErrorKind::Syntax,
        "param:lucky-policy=greedy",
    );
    fails(
        &[
            "attack",
            "--power",
            "3",
            "--overkill",
            "--other-health",
            "0",
        ],
        ErrorKind::Range,
        "param:other-health=0",
    );
}

#[test]
fn sample_then_verify_both_ways() {
    let flags = ["--power", "5", "--crit", "2", "--parry", "1"];
    let run_sample = |extra: &[&str]| {
        let mut args = vec!["sample", "--trials", "100000", "--seed", "11"];
        args.extend(flags);
        args.extend(extra);
        let out = bin(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let good = run_sample(&[]);
    assert_eq!(good, run_sample(&[]), "same seed, same counts");
    let counts: Value = serde_json::from_str(&good).unwrap();
    let total: u64 = counts
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total, 100_000);
    let path = write_tmp("good.json", &good);
    let mut args = vec!["verify", "--counts", &path];
    args.extend(flags);
    let out = bin(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("consistent"));
    // JSON report.
    let mut jargs = args.clone();
    jargs.push("--json");
    let v: Value = serde_json::from_slice(&bin(&jargs).stdout).unwrap();
    for key in [
        "samples",
        "outcomes",
        "pooling",
        "bins",
        "pearson",
        "g_test",
        "total_variation",
        "verdict",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(v["samples"], 100_000);
    assert!(v["pearson"]["p_value"].as_f64().unwrap() >= 0.001);
    // A wrong simulator: exit 1, the outcomes that disagree named.
    let bad = write_tmp("bad.json", &run_sample(&["--variant", "parry-on-two"]));
    let mut args = vec!["verify", "--counts", &bad];
    args.extend(flags);
    let out = bin(&args);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("DISAGREES") && text.contains("most off"),
        "{text}"
    );
}

#[test]
fn verify_with_a_scenario_and_hits() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/beyghor.json"
    );
    // Counts the exact law calls impossible: 7 hits from 6 dice.
    let counts = write_tmp("hits.json", r#"{"2": 10, "7": 1}"#);
    let out = bin(&[
        "verify",
        "--counts",
        &counts,
        "--scenario",
        path,
        "--quantity",
        "hits",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("impossible"));
    let out = bin(&[
        "verify",
        "--counts",
        &counts,
        "--scenario",
        path,
        "--quantity",
        "damage:Guard",
    ]);
    assert_eq!(out.status.code(), Some(1));
    fails(
        &[
            "verify",
            "--counts",
            &counts,
            "--scenario",
            path,
            "--quantity",
            "damage:Nobody",
        ],
        ErrorKind::NotFound,
        "param:quantity=damage:Nobody",
    );
}

#[test]
fn verify_and_sample_bad_input() {
    let counts = write_tmp("c.json", r#"{"0": 10}"#);
    fails(
        &["verify", "--counts", "/no/such.json", "--power", "3"],
        ErrorKind::Io,
        "path:/no/such.json",
    );
    let bad = write_tmp("c2.json", r#"{"x": 10}"#);
    fails(
        &["verify", "--counts", &bad, "--power", "3"],
        ErrorKind::Unknown,
        "none",
    );
    fails(
        &["verify", "--counts", &counts],
        ErrorKind::Missing,
        "param:power",
    );
    fails(
        &[
            "verify", "--counts", &counts, "--power", "3", "--alpha", "2",
        ],
        ErrorKind::Range,
        "param:alpha=2",
    );
    fails(
        &[
            "verify",
            "--counts",
            &counts,
            "--power",
            "3",
            "--quantity",
            "mana",
        ],
        ErrorKind::Unknown,
        "param:quantity=mana",
    );
    fails(
        &["sample", "--power", "3", "--trials", "0"],
        ErrorKind::Range,
        "param:trials=0",
    );
    fails(
        &[
            "sample",
            "--power",
            "3",
            "--trials",
            "10",
            "--variant",
            "evil",
        ],
        ErrorKind::Syntax,
        "param:variant=evil",
    );
    fails(
        &["sample", "--power", "3", "--trials", "10", "--lucky", "1"],
        ErrorKind::NotModelled,
        "param:lucky-policy",
    );
    fails(
        &[
            "sample",
            "--power",
            "3",
            "--trials",
            "10",
            "--objective",
            "net",
        ],
        ErrorKind::NotModelled,
        "none",
    );
}

fn fixture() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/lackey")
}

#[test]
fn cards_find_check_and_attack() {
    let out = bin(&["cards", "--db", fixture(), "find", "stormtrooper tk-421"]);
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("[condition] This unit gets -2 power"), "{s}");
    assert!(
        s.contains("subject self; when attacking; decided by the two cards"),
        "{s}"
    );
    let v = json(&[
        "cards",
        "--db",
        fixture(),
        "find",
        "Obi-Wan Kenobi (E)",
        "--json",
    ]);
    assert_eq!(v[0]["abilities"][0]["subject"], "opponent");
    let check = json(&["cards", "--db", fixture(), "check", "--json"]);
    let unit = check["units"].as_array().unwrap()[0].clone();
    for key in ["name", "set", "abilities"] {
        assert!(unit.get(key).is_some(), "{key}");
    }
    for key in ["text", "class", "subject", "when", "decidable"] {
        assert!(unit["abilities"][0].get(key).is_some(), "{key}");
    }
    let skipped = check["skipped"].as_array().unwrap();
    assert!(
        skipped
            .iter()
            .any(|s| s["name"] == "Zam Wesell (D)" && s["reason"].as_str().unwrap().contains('*'))
    );
    let text = bin(&["cards", "--db", fixture(), "check"]);
    let t = String::from_utf8(text.stdout).unwrap();
    assert!(t.contains("TDT: 60 rows:"), "{t}");
    let v = json(&[
        "cards",
        "--db",
        fixture(),
        "attack",
        "Stormtrooper TK-421",
        "Darth Vader (Y)",
        "--json",
    ]);
    assert!(
        v["applied"][0]["how"]
            .as_str()
            .unwrap()
            .contains("attacking a unique Character")
    );
    // 4 dice (6 - 2) hitting on 5+ (Armor): 4/3 hits on average.
    assert_eq!(v["hits"]["mean"], "4/3");
    let v = json(&[
        "cards",
        "--db",
        fixture(),
        "attack",
        "Deena Shan (A)",
        "Darth Vader (Y)",
        "--condition",
        "Jedi in the Character arena",
        "--json",
    ]);
    assert!(v["used"]["Deena Shan (A): Lucky 1"].is_string(), "{v}");
    fails(
        &[
            "cards",
            "--db",
            fixture(),
            "attack",
            "Darth",
            "Deena Shan (A)",
        ],
        ErrorKind::Conflict,
        "none",
    );
    fails(
        &[
            "cards",
            "--db",
            fixture(),
            "attack",
            "Darth Vader (Y) + Deena Shan (A)",
            "Gorog (A)",
        ],
        ErrorKind::Rules,
        "none",
    );
    fails(
        &[
            "cards",
            "--db",
            fixture(),
            "attack",
            "Deena Shan (A)",
            "Darth Vader (Y)",
            "--condition",
            "zzz",
        ],
        ErrorKind::NotFound,
        "param:condition=zzz",
    );
    fails(
        &[
            "cards",
            "--db",
            fixture(),
            "attack",
            "Luke's X-Wing (A)",
            "Gorog (A)",
        ],
        ErrorKind::Rules,
        "none",
    );
    fails(
        &["cards", "--db", "/no/such.tsv", "find", "x"],
        ErrorKind::Io,
        "path:/no/such.tsv",
    );
}

#[test]
fn matchups_in_every_format() {
    let args = |format: &str| {
        vec![
            "matchups".to_string(),
            "--db".into(),
            fixture().into(),
            "--attackers".into(),
            "name:Stormtrooper".into(),
            "--defenders".into(),
            "name:Obi-Wan".into(),
            "--format".into(),
            format.into(),
        ]
    };
    let run = |format: &str| {
        let out = bin(&args(format).iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let md = run("md");
    assert!(md.starts_with("| attacker | defender | arena |"), "{md}");
    // Both directions: the Stormtroopers attack Obi-Wan and he attacks them.
    let jsonl = run("jsonl");
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        rows.iter()
            .any(|r| r["attacker"].as_str().unwrap().starts_with("Stormtrooper"))
    );
    assert!(
        rows.iter()
            .any(|r| r["attacker"].as_str().unwrap().starts_with("Obi-Wan"))
    );
    for r in &rows {
        assert!(is_reduced_fraction(r["p_discard"].as_str().unwrap()));
        assert_eq!(r["arena"], "Character");
    }
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(json.as_array().unwrap().len(), rows.len());
    let csv = run("csv");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(reader.records().count(), rows.len());
    fails(
        &["matchups", "--db", fixture(), "--attackers", "set:XYZ"],
        ErrorKind::NotFound,
        "none",
    );
    fails(
        &["matchups", "--db", fixture(), "--page", "--format", "json"],
        ErrorKind::Conflict,
        "none",
    );
    fails(
        &["matchups", "--db", fixture(), "--time-limit", "0"],
        ErrorKind::Limit,
        "param:time-limit=0",
    );
}

#[test]
fn plan_and_plots() {
    let plan = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scenarios/plan.json");
    let svg_path = write_tmp("plan.svg", "");
    let v = json(&["plan", plan, "--json", "--plot", &svg_path]);
    let by_step = v["defender_discarded_by_step"].as_array().unwrap();
    assert_eq!(by_step.len(), 3);
    for p in by_step {
        assert!(is_reduced_fraction(p.as_str().unwrap()));
    }
    for key in [
        "total_damage",
        "damage_taken_back",
        "damage_taken_back_by_unit",
        "attacker_discarded",
        "steps",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    roxmltree::Document::parse(&svg).expect("well-formed");
    assert!(svg.contains("after step 3 (Luke Skywalker (A))"));
    // attack, scenario and cards attack draw too.
    let a_svg = write_tmp("attack.svg", "");
    assert!(
        bin(&["attack", "--power", "4", "--deflect", "1", "--plot", &a_svg])
            .status
            .success()
    );
    let s = std::fs::read_to_string(&a_svg).unwrap();
    roxmltree::Document::parse(&s).expect("well-formed");
    assert!(s.contains("damage to the defender") && s.contains("damage to the attacker"));
    // P(damage >= 1) of 4 dice hitting on 4+, with 1 deflected: P(2+ hits) = 11/16.
    assert!(s.contains("data-p=\"11/16\""), "{s}");
    let sc = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/beyghor.json"
    );
    let s_svg = write_tmp("scenario.svg", "");
    assert!(bin(&["scenario", sc, "--plot", &s_svg]).status.success());
    roxmltree::Document::parse(&std::fs::read_to_string(&s_svg).unwrap()).expect("well-formed");
    fails(
        &["attack", "--power", "3", "--plot", "/no/such/dir/x.svg"],
        ErrorKind::Io,
        "none",
    );
    fails(
        &["plan", "/no/such/plan.json"],
        ErrorKind::Io,
        "path:/no/such/plan.json",
    );
}

#[test]
fn exponential_choice_trees_are_refused_not_run_for_hours() {
    let path = write_tmp(
        "deflectors.json",
        r#"{"attacker": {"name": "A", "power": 6, "keywords": ["Deflect 2", "Overkill"]},
            "defender": {"name": "D", "health": 3, "keywords": ["Deflect 2", "Pay 1 Force -> Evade 1"]},
            "others": [{"name": "O1", "side": "defender", "health": 4, "keywords": ["Deflect 2"]},
                       {"name": "O2", "side": "attacker", "health": 4, "keywords": ["Deflect 2"]},
                       {"name": "O3", "side": "defender", "health": 4, "keywords": ["Deflect 2"]},
                       {"name": "O4", "side": "attacker", "health": 4, "keywords": ["Deflect 2"]}]}"#,
    );
    fails(&["scenario", &path], ErrorKind::Limit, "none");
}

#[test]
fn heavy_tables_and_plans_are_refused() {
    fails(
        &[
            "table", "--power", "1..1000", "--crit", "0..9", "--armor", "both",
        ],
        ErrorKind::Limit,
        "none",
    );
    let plan = write_tmp(
        "heavy-plan.json",
        r#"{"defender": {"name": "D", "power": 1, "health": 1000, "keywords": ["Retaliate 3", "Stun 1"]},
            "attackers": [{"name": "A", "power": 300, "health": 50}, {"name": "B", "power": 250, "health": 40}],
            "steps": ["A", "B", "A", "B", "A", "B"]}"#,
    );
    fails(&["plan", &plan], ErrorKind::Limit, "none");
}

#[test]
fn glossary_refusals_are_clear() {
    // Riposte, Backfire, Focus and Cunning with Lucky are modelled (issue
    // 18): solved, every law summing to 1.
    for args in [
        &[
            "attack",
            "--power",
            "2",
            "--riposte",
            "1",
            "--lucky",
            "1",
            "--json",
        ][..],
        &[
            "attack",
            "--power",
            "2",
            "--backfire",
            "1",
            "--defender-lucky",
            "1",
            "--json",
        ],
    ] {
        let v = json(args);
        assert!(v["defender_damage"]["pmf"].is_object(), "{args:?}");
    }
    let plan = write_tmp(
        "persuade.json",
        r#"{"defender": {"name": "D", "health": 3, "keywords": ["Persuade 1"]}, "attackers": [{"name": "A", "power": 2}]}"#,
    );
    fails(&["plan", &plan], ErrorKind::NotModelled, "none");
    let ok = bin(&["attack", "--power", "2", "--backfire", "2", "--json"]);
    assert!(ok.status.success());
}

/// A closed pipe ends the program quietly; a full disk is one line and
/// status 2; special files are refused, not read forever.
#[test]
fn closed_pipes_full_disks_and_special_files() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_swtcg-odds"))
        .args([
            "table", "--power", "1..400", "--crit", "0..4", "--format", "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if let Ok(full) = std::fs::File::create("/dev/full") {
        let out = Command::new(env!("CARGO_BIN_EXE_swtcg-odds"))
            .args(["attack", "--power", "5"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    fails(
        &["verify", "--counts", "/dev/zero", "--power", "2"],
        ErrorKind::Io,
        "path:/dev/zero",
    );
}

/// The binary starts without std's start-up on Linux (src/main.rs) and
/// does what it did that matters: a closed standard stream is reopened on
/// `/dev/null` (a command with all three closed ends with its own status,
/// never an abort, and a server started with its input closed has
/// `/dev/null` there, not its socket), and a closed pipe is an error it
/// handles (above).
#[cfg(target_os = "linux")]
#[test]
fn closed_standard_streams_are_reopened_on_dev_null() {
    let bin = env!("CARGO_BIN_EXE_swtcg-odds");
    let closed = |args: &str| {
        Command::new("sh")
            .args(["-c", &format!("exec \"$0\" {args} <&- >&- 2>&-"), bin])
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(closed("--version"), Some(0));
    assert_eq!(closed("attack --power 3"), Some(0));
    assert_eq!(closed("attack --power x"), Some(2));
    // Input closed: the server's first descriptor (its socket) would take
    // its number, and a read of standard input would read the network.
    let mut child = Command::new("sh")
        .args(["-c", "exec \"$0\" serve --host 127.0.0.1 --port 0 <&-", bin])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let first = crate::common::first_stderr_line(&mut child);
    let stdin = std::fs::read_link(format!("/proc/{}/fd/0", child.id()));
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.contains("http://"), "{first}");
    assert_eq!(stdin.unwrap(), std::path::Path::new("/dev/null"));
}

/// A flag that leaves its side implied answers to its side's name too
/// (`--defender-armor` is `--armor`, `--attacker-power` is `--power`), as
/// `--defender-stun` and `--attacker-health` are names: the same answer
/// byte for byte, in an attack and a table; the flag under both names is
/// given twice; a side's name in front of one that says it already is no
/// flag.
#[test]
fn flags_answer_to_their_side_spelled_out() {
    use swtcg_engine::attack::Side;
    use swtcg_engine::request::Param;
    let plain = [
        "attack", "--power", "4", "--crit", "1", "--lucky", "1", "--armor", "--health", "3",
        "--parry", "1", "--json",
    ];
    let spelled = [
        "attack",
        "--attacker-power",
        "4",
        "--attacker-crit",
        "1",
        "--attacker-lucky",
        "1",
        "--defender-armor",
        "--defender-health",
        "3",
        "--defender-parry",
        "1",
        "--json",
    ];
    let (a, b) = (bin(&plain), bin(&spelled));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(!a.stdout.is_empty());
    assert_eq!(a.stdout, b.stdout);
    let t =
        |power: &str, armor: &str| bin(&["table", power, "1..3", armor, "both", "--format", "csv"]);
    let (a, b) = (
        t("--power", "--armor"),
        t("--attacker-power", "--defender-armor"),
    );
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(String::from_utf8_lossy(&a.stdout).lines().count(), 7);
    assert_eq!(a.stdout, b.stdout);
    fails(
        &["attack", "--armor", "--defender-armor"],
        ErrorKind::Conflict,
        "param:armor",
    );
    fails(
        &["attack", "--power", "2", "--attacker-power", "3"],
        ErrorKind::Conflict,
        "param:power",
    );
    fails(
        &["attack", "--defender-defender-stun", "1"],
        ErrorKind::Unknown,
        "param:defender-defender-stun",
    );
    // The registry: every name without a side's word has exactly the alias
    // with its own side's word, which names no other parameter; a name
    // with one has none.
    let mut aliases = 0;
    for p in Param::ALL {
        let word = match p.side() {
            Side::Attacking => "attacker-",
            Side::Defending => "defender-",
        };
        let said = p.name().starts_with("attacker-") || p.name().starts_with("defender-");
        match p.alias() {
            None => assert!(said, "{p:?}"),
            Some(a) => {
                assert!(!said, "{p:?}");
                assert_eq!(a, format!("{word}{}", p.name()));
                assert!(Param::ALL.iter().all(|q| q.name() != a), "{a}");
                assert_eq!(Param::from_name(a), Some(*p));
                aliases += 1;
            }
        }
    }
    assert_eq!(aliases, Param::ALL.len() - 9);
}

/// The command line a newcomer meets (issue 18): a misspelled flag keeps
/// clap's suggestion in its one line; `--db` works before or after the
/// command; a card name not found gets the nearest names; apostrophes and
/// accents typed any way match; `--db` where no cards are read is refused.
#[test]
fn the_command_line_a_newcomer_meets() {
    fails(&["attack", "--powr", "3"], ErrorKind::Unknown, "param:powr");
    fails(&["atack"], ErrorKind::Unknown, "param:command=atack");
    let first = bin(&["cards", "--db", fixture(), "check"]);
    let after = bin(&["cards", "check", "--db", fixture()]);
    let before = bin(&["--db", fixture(), "cards", "check"]);
    assert!(first.status.success());
    assert_eq!(first.stdout, after.stdout);
    assert_eq!(first.stdout, before.stdout);
    let a = bin(&[
        "cards",
        "attack",
        "Darth Vader (A)",
        "Deena Shan (A)",
        "--db",
        fixture(),
    ]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    fails(
        &[
            "cards",
            "--db",
            fixture(),
            "attack",
            "Darth Vadr (A)",
            "Deena Shan (A)",
        ],
        ErrorKind::NotFound,
        "none",
    );
    fails(&["cards", "check"], ErrorKind::Missing, "none");
    fails(
        &["attack", "--power", "2", "--db", fixture()],
        ErrorKind::Conflict,
        "none",
    );
    // Accents and apostrophes: Padmé / Padme, ’ / '.
    let db = write_tmp(
        "names.txt",
        "Name\tType\tPower\tHealth\tText\nPadmé Amidala (A)\tCharacter\t3\t4\t\nK'Kruhk (B)\tCharacter\t5\t5\tParry 1\n",
    );
    for (a, d) in [
        ("Padme Amidala (A)", "K’Kruhk (B)"),
        ("PADMÉ AMIDALA (A)", "k'kruhk (b)"),
        ("Padmé", "K‘Kruhk"),
    ] {
        let out = bin(&["cards", "--db", &db, "attack", a, d, "--json"]);
        assert!(
            out.status.success(),
            "{a} {d}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Matchups in Markdown stream like the other formats: a selection of any
/// size is written (the README's `--format md` example was refused at
/// 20,000 rows).
#[test]
fn markdown_matchups_stream_any_number_of_rows() {
    let out = bin(&["matchups", "--db", fixture(), "--format", "md"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let rows = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| attacker"))
        .count();
    let csv = bin(&["matchups", "--db", fixture(), "--format", "csv"]);
    assert_eq!(
        rows + 1,
        String::from_utf8_lossy(&csv.stdout).lines().count()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("every one with a result"), "{err}");
}

/// `--any-arena` is gone: its pairings across arenas are not attacks the
/// rules allow (it gave no result for any of them and exited 1). It is
/// refused in one line that says why, before any card file is read.
#[test]
fn any_arena_is_refused_with_its_reason() {
    let out = bin(&[
        "matchups",
        "--db",
        fixture(),
        "--attackers",
        "name:Stormtrooper",
        "--defenders",
        "name:Obi-Wan",
        "--any-arena",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Its words (why, and what to use) are in tests/snapshots/errors-cli.txt.
    let ran = run_args(["swtcg-odds", "matchups", "--db", fixture(), "--any-arena"]);
    common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::Unknown, "none");
}

/// A rankings page made with filters says the field actually ranked, the
/// sets of its units only, and the command with its filters; its data line
/// is the files' content hash, the same for a copy with other dates, and
/// the read date is said as such.
#[test]
fn a_filtered_rankings_header_says_what_was_ranked() {
    let page = |db: &str| {
        let out = bin(&[
            "matchups",
            "--db",
            db,
            "--rank",
            "--attackers",
            "set:ANH",
            "--defenders",
            "set:TDT",
            "--objective",
            "discard",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let md = page(fixture());
    let line = |start: &str| {
        md.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start}: {md}"))
            .to_string()
    };
    assert!(
        line("- Ranked: ").contains("attackers `set:ANH`")
            && line("- Ranked: ").contains("defenders `set:TDT`"),
        "{md}"
    );
    assert!(
        line("- Made by").contains(
            "`matchups --rank --attackers set:ANH --defenders set:TDT --objective discard`"
        ),
        "{md}"
    );
    // The sets are those of the units ranked, not of every file read.
    let db = swtcg_cards::cards::CardDb::load(&[fixture()]).unwrap();
    let mut sets: Vec<String> = db
        .units()
        .filter(|c| c.set == "ANH" || c.set == "TDT")
        .map(|c| c.set.clone())
        .collect();
    sets.sort();
    sets.dedup();
    let all_sets: std::collections::BTreeSet<_> = db.cards.iter().map(|c| c.set.clone()).collect();
    assert!(sets.len() < all_sets.len(), "{sets:?} {all_sets:?}");
    assert_eq!(line("- Sets: "), format!("- Sets: {}", sets.join(", ")));
    assert!(
        md.starts_with(&format!("# Rankings of {}\n", sets.join(", "))),
        "{md}"
    );
    // The data: a hash of the files' contents, equal for a copy made
    // with other modification times; the read date said as such.
    let data = line("- Data: ");
    let hash = data.rsplit('`').nth(1).unwrap();
    assert_eq!(hash.len(), 64, "{data}");
    let copy = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(fixture()).unwrap() {
        let p = e.unwrap().path();
        let to = copy.path().join(p.file_name().unwrap());
        std::fs::copy(&p, &to).unwrap();
        let f = std::fs::File::options().write(true).open(&to).unwrap();
        f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000))
            .unwrap();
    }
    let again = page(copy.path().to_str().unwrap());
    assert!(again.contains(&data), "{again}");
    assert!(
        line("- Read on: ").contains("the date these files were read"),
        "{md}"
    );
    assert!(!md.contains("Data as of"), "{md}");
}

/// Ctrl-C (SIGINT) or SIGTERM during `matchups --output FILE`: the run stops
/// at its next block, FILE is left as it was, the rows written so far are
/// kept whole in `FILE.partial` (no hidden temporary file is left), one
/// line on standard error says so, and the exit status is 130.
#[cfg(unix)]
#[test]
fn a_signal_keeps_the_target_and_the_partial_output() {
    let sets = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sets");
    for (signal, name) in [("-INT", "SIGINT"), ("-TERM", "SIGTERM")] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.md");
        std::fs::write(&target, "old\n").unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_swtcg-odds"))
            .args(["matchups", "--db", &format!("{sets}/six"), "--db"])
            .arg(format!("{sets}/more"))
            .arg("--output")
            .arg(&target)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until rows are being written (the temporary file beside the
        // target has grown), then stop the run.
        let start = std::time::Instant::now();
        let growing = || {
            std::fs::read_dir(dir.path()).unwrap().any(|e| {
                let e = e.unwrap();
                e.file_name().to_string_lossy().ends_with(".tmp")
                    && e.metadata().unwrap().len() > 10_000
            })
        };
        while !growing() {
            assert!(start.elapsed().as_secs() < 60, "no rows written");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{name}: {err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
        let partial = dir.path().join("out.md.partial");
        let kept = std::fs::read_to_string(&partial).unwrap();
        assert!(
            kept.starts_with("| attacker | defender | arena |"),
            "{name}"
        );
        assert!(
            kept.ends_with('\n') && kept.lines().all(|l| l.starts_with('|') && l.ends_with('|'))
        );
        assert!(
            kept.lines().count() > 100,
            "{name}: {} lines",
            kept.lines().count()
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        let last = err.trim_end();
        // It names the signal and the partial file kept (its words are
        // not pinned here: the path is a temporary directory's).
        assert!(
            last.contains(name) && last.contains("out.md.partial"),
            "{err}"
        );
    }
}

/// A typo gets the nearest names or keywords wherever a name or keyword
/// is read: `cards find` (status 1, the nearest names on standard error),
/// `cards attack`, a scenario's keyword, an attack's flag word.
#[test]
fn a_typo_gets_the_nearest_names() {
    let out = bin(&["cards", "--db", fixture(), "find", "beygor"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 card(s) found"));
    // The nearest name is named (the words around it are pinned in
    // tests/snapshots/errors-cli.txt).
    let db = swtcg_cards::cards::CardDb::load(&[fixture()]).unwrap();
    assert_eq!(db.nearest_names("beygor", 1), ["Beyghor Sahdett (B)"]);
    assert!(err.contains("'Beyghor Sahdett (B)'"), "{err}");
    // A misspelt full name: the card meant comes first.
    let out = bin(&[
        "cards",
        "--db",
        fixture(),
        "attack",
        "Darth Mual (G)",
        "K'Kruhk (C)",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let ran = run_args([
        "swtcg-odds",
        "cards",
        "--db",
        fixture(),
        "attack",
        "Darth Mual (G)",
        "K'Kruhk (C)",
    ]);
    common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::NotFound, "none");
    assert_eq!(
        swtcg_cards::cards::CardDb::load(&[fixture()])
            .unwrap()
            .nearest_names("Darth Mual (G)", 1),
        ["Darth Maul (G) (LEGO)"]
    );
    // A misspelt keyword of a scenario, and a policy word.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(
        &file,
        r#"{"attacker": {"name": "A", "power": 5, "keywords": ["Critcal Hit 2"]}, "defender": {"name": "D", "power": 3, "health": 5}}"#,
    )
    .unwrap();
    // The words, with the nearest names, are in the snapshots
    // (errors-library.txt: `Parryx 2`; errors-cli.txt: `--objective damge`).
    fails(
        &["scenario", file.to_str().unwrap()],
        ErrorKind::Unknown,
        "none",
    );
    fails(
        &["attack", "--power", "5", "--objective", "damge"],
        ErrorKind::Syntax,
        "param:objective=damge",
    );
}

/// `--plot` draws as the page does: each P(>= k) curve a step (only
/// horizontal and vertical moves, flat across k's band at the exact
/// P(>= k) of that k, read back from the geometry), each series its own
/// dash pattern and marker shape as well as colour, the legend showing both.
#[test]
fn plots_draw_steps_told_apart_without_colour() {
    let plan = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scenarios/plan.json");
    let svg_path = write_tmp("steps.svg", "");
    assert!(bin(&["plan", plan, "--plot", &svg_path]).status.success());
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let grid = |p: &str| -> f64 {
        doc.descendants()
            .find(|n| n.attribute("class") == Some("grid") && n.attribute("data-prob") == Some(p))
            .and_then(|n| n.attribute("y1"))
            .unwrap()
            .parse()
            .unwrap()
    };
    let (y0, y1) = (grid("0"), grid("1"));
    let series: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("series"))
        .collect();
    assert!(series.len() >= 2, "{}", series.len());
    let mut looks = std::collections::BTreeSet::new();
    for s in &series {
        let path = s
            .descendants()
            .find(|n| n.attribute("class") == Some("step"))
            .expect("a step path");
        let d = path.attribute("d").unwrap();
        // Segments (x from, x to, y) of the path's M, H and V moves.
        let mut segs: Vec<(f64, f64, f64)> = Vec::new();
        let (mut x, mut y) = (0.0, 0.0);
        let mut rest = d;
        while let Some(c) = rest.chars().next() {
            let end = rest[1..]
                .find(|ch: char| ch.is_ascii_alphabetic())
                .map_or(rest.len(), |i| i + 1);
            let nums: Vec<f64> = rest[1..end]
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            match c {
                'M' => (x, y) = (nums[0], nums[1]),
                'H' => {
                    segs.push((x, nums[0], y));
                    x = nums[0];
                }
                'V' => y = nums[0],
                other => panic!("a sloped or curved move {other} in {d}"),
            }
            rest = &rest[end..];
        }
        let pts: Vec<_> = s
            .descendants()
            .filter(|n| n.attribute("class") == Some("pt"))
            .collect();
        assert!(!pts.is_empty());
        for pt in &pts {
            let exact: num_rational::BigRational = pt.attribute("data-p").unwrap().parse().unwrap();
            let p = num_traits::ToPrimitive::to_f64(&exact).unwrap();
            // The marker's centre: a circle's, or the middle of its box.
            let cx: f64 = match pt.tag_name().name() {
                "circle" => pt.attribute("cx").unwrap().parse().unwrap(),
                "rect" => {
                    pt.attribute("x").unwrap().parse::<f64>().unwrap()
                        + pt.attribute("width").unwrap().parse::<f64>().unwrap() / 2.0
                }
                _ => {
                    let d = pt.attribute("d").unwrap();
                    let xs: Vec<f64> = d
                        .split(|c: char| c.is_ascii_alphabetic())
                        .filter(|t| !t.trim().is_empty())
                        .map(|t| t.split_whitespace().next().unwrap().parse().unwrap())
                        .collect();
                    (xs.iter().cloned().fold(f64::MAX, f64::min)
                        + xs.iter().cloned().fold(f64::MIN, f64::max))
                        / 2.0
                }
            };
            let seg = segs
                .iter()
                .find(|(a, b, _)| *a <= cx && cx <= *b)
                .unwrap_or_else(|| panic!("no step under the marker at {cx}: {d}"));
            let drawn = (y0 - seg.2) / (y0 - y1);
            assert!((drawn - p).abs() < 1e-3, "drawn {drawn}, exact {p}");
        }
        let marker = pts[0].tag_name().name().to_string()
            + &pts[0]
                .attribute("d")
                .map_or(0, |d| d.matches('L').count())
                .to_string();
        let dash = path.attribute("stroke-dasharray").unwrap_or("").to_string();
        // The legend shows the same dash and marker.
        let legend_dash = s
            .children()
            .rfind(|n| n.tag_name().name() == "line")
            .and_then(|n| n.attribute("stroke-dasharray"))
            .unwrap_or("");
        assert_eq!(legend_dash, dash);
        assert!(looks.insert((dash, marker)), "two series look alike");
    }
}

/// Card names that would start a spreadsheet formula (`=`, `+`, `-`, `@`)
/// are written to CSV with a leading apostrophe (OWASP's advice on CSV
/// injection), in listings (fast path and not) and in rankings; numbers
/// keep their sign.
#[test]
fn csv_never_starts_a_formula() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("evil.txt");
    std::fs::write(
        &db,
        "Name\tSet\tType\tPower\tHealth\tText\n\
         =HYPERLINK(\"http://x\")\tEV\tCharacter\t3\t3\tCritical Hit 1\n\
         +Trooper\tEV\tCharacter\t4\t4\t\n\
         @Droid\tEV\tCharacter\t2\t5\tArmor\n\
         -Mine\tEV\tCharacter\t1\t2\t\n",
    )
    .unwrap();
    let db = db.to_str().unwrap();
    let mut cells = 0;
    for extra in [&["--format", "csv"][..], &["--rank", "--format", "csv"][..]] {
        let mut args = vec!["matchups", "--db", db];
        args.extend_from_slice(extra);
        let out = bin(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut r = csv::ReaderBuilder::new().from_reader(&out.stdout[..]);
        for rec in r.records() {
            for f in rec.unwrap().iter() {
                cells += 1;
                let risky = f.starts_with(['=', '+', '-', '@']);
                assert!(!risky || f.parse::<f64>().is_ok(), "a formula: {f}");
            }
        }
        assert!(String::from_utf8_lossy(&out.stdout).contains("'=HYPERLINK"));
    }
    assert!(cells > 50, "{cells}");
}

/// `--output` or `--plot` naming one of the command's input files (by its
/// name, through a hard link, or inside a `--db` folder) is refused before
/// any work, and the input is left whole (it was overwritten silently).
#[test]
fn an_output_never_overwrites_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let sets = dir.path().join("sets");
    std::fs::create_dir(&sets).unwrap();
    let anh = sets.join("ANH.txt");
    std::fs::copy(format!("{}/ANH.txt", fixture()), &anh).unwrap();
    let original = std::fs::read(&anh).unwrap();
    let alias = dir.path().join("alias.txt");
    std::fs::hard_link(&anh, &alias).unwrap();
    let scenario = dir.path().join("s.json");
    std::fs::write(
        &scenario,
        r#"{"db": "sets", "attacker": {"card": "Luke Skywalker (A)"}, "defender": {"card": "Darth Vader (A)"}}"#,
    )
    .unwrap();
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec![
            "matchups".into(),
            "--db".into(),
            s(&sets),
            "--output".into(),
            s(&anh),
        ],
        vec![
            "matchups".into(),
            "--db".into(),
            s(&sets),
            "--output".into(),
            s(&alias),
        ],
        vec![
            "matchups".into(),
            "--db".into(),
            s(&anh),
            "--format".into(),
            "csv".into(),
            "--output".into(),
            s(&alias),
        ],
        vec![
            "cards".into(),
            "--db".into(),
            s(&sets),
            "attack".into(),
            "Luke Skywalker (A)".into(),
            "Darth Vader (A)".into(),
            "--plot".into(),
            s(&alias),
        ],
        vec![
            "scenario".into(),
            s(&scenario),
            "--plot".into(),
            s(&scenario),
        ],
        vec!["scenario".into(), s(&scenario), "--plot".into(), s(&anh)],
        vec!["plan".into(), s(&scenario), "--plot".into(), s(&scenario)],
    ];
    for args in &cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut line = vec!["swtcg-odds"];
        line.extend(&a);
        let ran = run_args(line);
        assert_eq!(ran.status, 2, "{args:?}: {}", ran.stderr);
        // A file given as an input and as an output.
        common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::Conflict, "none");
        assert_eq!(std::fs::read(&anh).unwrap(), original, "{args:?}");
    }
    // A scenario's picture beside it is written.
    let ok = bin(&[
        "scenario",
        &s(&scenario),
        "--plot",
        &s(&dir.path().join("p.svg")),
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

/// Issue 32, minor: on a terminal, a card's control characters are shown
/// escaped, never obeyed (an escape sequence in a card file set the
/// window's title and cleared the screen); piped, the text is as it is.
/// The terminal is `script`'s pseudo-terminal (util-linux, essential in
/// Debian).
#[test]
fn a_terminal_never_gets_a_cards_escape_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("evil.txt");
    std::fs::write(
        &file,
        "Name\tSet\tType\tPower\tHealth\tText\nEvil\u{1b}]0;pwned\u{7} (A)\tX\tCharacter\t3\t3\tParry 1 \u{1b}[2J\u{9b}2J\n",
    )
    .unwrap();
    let command = format!(
        "{} cards find Evil --db {}",
        env!("CARGO_BIN_EXE_swtcg-odds"),
        file.display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs a command on a pseudo-terminal");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(shown.contains("Evil\\u{1b}]0;pwned\\u{7} (A)"), "{shown}");
    assert!(shown.contains("Parry 1 \\u{1b}[2J\\u{9b}2J"), "{shown}");
    assert!(!shown.contains(['\u{1b}', '\u{7}', '\u{9b}']), "{shown}");
    // Piped: as it is.
    let piped = bin(&["cards", "find", "Evil", "--db", file.to_str().unwrap()]);
    let piped = String::from_utf8_lossy(&piped.stdout);
    assert!(piped.contains("Evil\u{1b}]0;pwned\u{7} (A)"), "{piped}");
}
