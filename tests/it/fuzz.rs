//! The fuzz harness's bounded run (a few seconds): generated command lines
//! with the files they read, run in-process through the CLI's entry point,
//! every invariant checked (see `examples/fuzz/gen.rs`, shared with the long
//! run `cargo run --release --example fuzz -- --cases N`).

#[path = "../../examples/fuzz/gen.rs"]
mod r#gen;

use proptest::prelude::*;
use swtcg_engine::error::ErrorKind;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1500,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_generated_case_holds_the_invariants(seed in any::<u64>()) {
        let dir = tempfile::tempdir().unwrap();
        let case = r#gen::case(seed);
        if let Err(why) = r#gen::run(&case, dir.path()) {
            prop_assert!(false, "seed {seed}: {why}\n{:?}", case.args);
        }
    }
}

/// The cases of issue 12, each a clear error (or the right answer) quickly.
#[test]
fn the_reported_cases_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], ErrorKind, &str)] = &[
        (
            &[
                "attack",
                "--power",
                "1",
                "--lucky",
                "100000",
                "--lucky-policy",
                "simple",
            ],
            ErrorKind::Range,
            "param:lucky=100000",
        ),
        (
            &["attack", "--power", "1", "--lucky", "4294967295"],
            ErrorKind::Range,
            "param:lucky=4294967295",
        ),
        (
            &["attack", "--power", "1", "--other-health", "99999999999"],
            ErrorKind::Range,
            "param:other-health=99999999999",
        ),
        (
            &["table", "--power", "1..10000"],
            ErrorKind::Range,
            "param:power=10000",
        ),
        (
            &["table", "--power", "-1"],
            ErrorKind::Range,
            "param:power=-1",
        ),
        (
            &["sample", "--trials", "100000000", "--power", "1000"],
            ErrorKind::Limit,
            "param:trials=100000000",
        ),
        (
            &["matchups", "--db", "x", "--page", "--format", "json"],
            ErrorKind::Conflict,
            "none",
        ),
        (
            &["attack", "--power", "3", "--overkill"],
            ErrorKind::Missing,
            "param:overkill",
        ),
    ];
    for &(args, kind, at) in cases {
        let mut argv = vec!["swtcg-odds"];
        argv.extend_from_slice(args);
        let start = std::time::Instant::now();
        let ran = swtcg_odds::cli::run_args(argv);
        assert!(start.elapsed().as_secs_f64() < 2.0, "{args:?}");
        assert_eq!(ran.status, 2, "{args:?}: {}", ran.stdout);
        crate::common::assert_error(ran.error.as_ref().unwrap(), kind, at);
        assert_eq!(ran.stderr.trim_end().lines().count(), 1);
    }
    // Keyword sums don't wrap: Parry 4294967295 and Parry 2 is too much,
    // not Parry 1.
    let s = dir.path().join("wrap.json");
    std::fs::write(&s, r#"{"attacker": {"name": "A", "power": 2}, "defender": {"name": "D", "keywords": ["Parry 4294967295", "Parry 2"]}}"#).unwrap();
    let ran = swtcg_odds::cli::run_args(["swtcg-odds", "scenario", s.to_str().unwrap()]);
    crate::common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::Range, "unit:D");
    // Names with control characters are refused, quoted escaped.
    std::fs::write(&s, "{\"attacker\": {\"name\": \"A\\u0000\\n\", \"power\": 2}, \"defender\": {\"name\": \"D\"}}").unwrap();
    let ran = swtcg_odds::cli::run_args(["swtcg-odds", "scenario", s.to_str().unwrap()]);
    crate::common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::Syntax, "none");
    assert!(!ran.stderr.contains('\u{0}'));
    // A 10 MB keyword text is quoted once, briefly.
    let long = "x".repeat(10_000_000);
    std::fs::write(&s, format!(r#"{{"attacker": {{"name": "A", "power": 2, "keywords": ["{long}"]}}, "defender": {{"name": "D"}}}}"#)).unwrap();
    let ran = swtcg_odds::cli::run_args(["swtcg-odds", "scenario", s.to_str().unwrap()]);
    assert!(ran.stderr.len() < 400, "{}", ran.stderr.len());
    // A scenario of 100,000 units is refused before any pairing.
    let many: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"name": "U{i}", "side": "defender"}}"#))
        .collect();
    std::fs::write(&s, format!(r#"{{"attacker": {{"name": "A", "power": 2}}, "defender": {{"name": "D"}}, "others": [{}]}}"#, many.join(","))).unwrap();
    let start = std::time::Instant::now();
    let ran = swtcg_odds::cli::run_args(["swtcg-odds", "scenario", s.to_str().unwrap()]);
    crate::common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::Limit, "none");
    assert!(start.elapsed().as_secs_f64() < 2.0);
    // A card file of more rows than a database holds is refused by counting
    // its lines, before any row is built.
    let big = dir.path().join("big.txt");
    let mut text = String::from("Name\tType\tPower\tHealth\n");
    for i in 0..60_000 {
        text.push_str(&format!("U{i}\tCharacter - Unit\t4\t4\n"));
    }
    std::fs::write(&big, text).unwrap();
    let start = std::time::Instant::now();
    let ran = swtcg_odds::cli::run_args([
        "swtcg-odds",
        "matchups",
        "--db",
        big.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert_eq!(ran.status, 2);
    crate::common::assert_error(ran.error.as_ref().unwrap(), ErrorKind::Limit, "none");
    assert!(start.elapsed().as_secs_f64() < 2.0);
}

/// Issue 32's new classes, a few of each drawn from the generator and run
/// with every invariant: card-text bombs, long names, slow combines and a
/// client that trickles bytes after its request (closed within the
/// server's drain deadline).
#[test]
fn the_new_classes_hold_the_invariants() {
    let dir = tempfile::tempdir().unwrap();
    type Class = (&'static str, fn(&r#gen::Case) -> bool);
    let classes: [Class; 4] = [
        ("text bomb", |c| {
            c.files.iter().any(|(_, b)| {
                let t = String::from_utf8_lossy(b);
                [
                    "When THIS attacks, When THIS",
                    "Pay 1 Force -> Pay 1 Force",
                    "he gets +1 power and he gets",
                ]
                .iter()
                .any(|p| t.contains(p))
            })
        }),
        ("long name", |c| {
            c.args.iter().any(|a| a.len() > 1000)
                || c.http.as_ref().is_some_and(|h| {
                    String::from_utf8_lossy(&h.bytes).contains(&"Darth Vadr".repeat(50))
                })
        }),
        ("slow combine", |c| {
            c.http.as_ref().is_some_and(|h| {
                String::from_utf8_lossy(&h.bytes)
                    .contains(r#"{"power": "1000", "crit": "1000"}, {"#)
            })
        }),
        ("trickle", |c| c.http.as_ref().is_some_and(|h| h.trickle)),
    ];
    for (name, is) in classes {
        let seeds: Vec<u64> = (0..400_000u64)
            .filter(|&s| is(&r#gen::case(s)))
            .take(3)
            .collect();
        assert!(!seeds.is_empty(), "no {name} case among 400,000 seeds");
        for seed in seeds {
            let case = r#gen::case(seed);
            if let Err(why) = r#gen::run(&case, dir.path()) {
                panic!("{name}, seed {seed}: {why}\n{:?}", case.args);
            }
        }
    }
}

/// Issue 33: every file of the `cargo fuzz` corpora (`fuzz/corpus/`) runs
/// through its target's body in `cargo test`, on the stable toolchain, so
/// that a crash found once by the fuzzer stays a test; and every target
/// of `fuzz/fuzz_targets/` has its body in `swtcg_odds::fuzzing`.
#[test]
fn the_fuzz_corpora_run_clean() {
    use std::path::Path;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut targets: Vec<String> = std::fs::read_dir(root.join("fuzz_targets"))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            p.file_stem().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    targets.sort();
    let mut bodies: Vec<String> = swtcg_odds::fuzzing::TARGETS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    bodies.sort();
    assert_eq!(targets, bodies);
    for (name, body) in swtcg_odds::fuzzing::TARGETS {
        let dir = root.join("corpus").join(name);
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        assert!(files.len() >= 3, "{name}: {} corpus files", files.len());
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let ran = std::panic::catch_unwind(|| body(&data));
            assert!(ran.is_ok(), "{name}: {} panics", f.display());
        }
    }
}
