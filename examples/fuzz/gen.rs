//! Case generation and invariant checks of the fuzz harness, shared by the
//! long run (`cargo run --release --example fuzz -- --cases N`) and the
//! bounded run inside `cargo test` (`tests/it/fuzz.rs`).
//!
//! A case is a command line, with the files it names (scenario, plan, card
//! database, counts) written to a temporary folder: drawn from the words
//! the tool reads, plausible numbers, bounds and beyond, and garbage. It is
//! run in-process through the CLI's entry point, and must hold every
//! invariant: no panic; exit status 0 or 2 (1 only for `verify`'s verdict,
//! and for matchups with pairings left without a result);
//! one line on standard error on failure; JSON output that parses, every
//! distribution in it summing to exactly 1; within the time bound.

#![allow(dead_code)]

use num_bigint::BigInt;
use num_rational::BigRational;
use std::path::Path;
use std::time::{Duration, Instant};
use swtcg_odds::sample::Rng;

/// Most time one case may take.
pub const CASE_TIME: Duration = Duration::from_secs(10);

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The command line, program name first.
    pub args: Vec<String>,
    /// Files it reads: (name in the case folder, contents).
    pub files: Vec<(String, Vec<u8>)>,
    /// Its kind, for the report.
    pub kind: &'static str,
}

/// What a case did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The exit status.
    pub status: u8,
    /// The error line, if any (its first word, for the report).
    pub error: Option<String>,
    /// How long it took.
    pub time: Duration,
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

fn below(rng: &mut Rng, n: u64) -> u64 {
    rng.next_u64() % n.max(1)
}

/// A number as a user might type it: small and plausible most often, then
/// bounds, negatives, huge, malformed.
fn number(rng: &mut Rng) -> String {
    match below(rng, 20) {
        0 => pick(
            rng,
            &[
                "-1",
                "-5",
                "0",
                "4294967295",
                "4294967296",
                "99999999999",
                "1e3",
                "2.5",
                "",
                "x",
                "٣",
                "1..",
                "..3",
                "3..1",
                "1,,2",
            ],
        )
        .to_string(),
        1 => pick(rng, &["100", "101", "1000", "1001", "50", "200"]).to_string(),
        2..=4 => format!("{}..{}", below(rng, 3), below(rng, 6)),
        5 => format!("{},{}", below(rng, 4), below(rng, 4)),
        _ => below(rng, 7).to_string(),
    }
}

/// A word of garbage.
fn garbage(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "",
            " ",
            "\u{0}",
            "\n",
            "\u{202e}evil",
            "é",
            "💥",
            "--",
            "-",
            "null",
            "[]",
            "{}",
            "'\"",
            "a\tb",
            "x".repeat(300).as_str(),
        ],
    )
    .to_string()
}

const UNIT_FLAGS: &[&str] = &[
    "--power",
    "--accuracy",
    "--fury",
    "--crit",
    "--stun",
    "--shields",
    "--parry",
    "--evade",
    "--deflect",
    "--retaliate",
    "--health",
    "--counters",
    "--defender-stun",
    "--attacker-health",
    "--attacker-counters",
    "--attacker-evade",
    "--attacker-deflect",
    "--lucky",
    "--defender-lucky",
    "--backfire",
    "--riposte",
    "--overload",
    "--absorb",
    "--persuade",
    "--resilience",
];
const SWITCHES: &[&str] = &[
    "--armor",
    "--ferocity",
    "--fortitude",
    "--defender-ferocity",
    "--attacker-armor",
    "--attacker-fortitude",
    "--double-damage",
    "--cunning",
    "--overkill",
];
const POLICY: &[(&str, &[&str])] = &[
    ("--lucky-policy", &["optimal", "simple", "greedy"]),
    (
        "--lucky-order",
        &[
            "pop",
            "pop-defender-first",
            "attacker-first",
            "defender-first",
            "never",
        ],
    ),
    ("--objective", &["damage", "discard", "net", "fun"]),
    ("--force-attacker", &["0", "1", "3", "-1", "99999999999"]),
    ("--force-defender", &["0", "1", "3", "x"]),
];

fn unit_flags(rng: &mut Rng, args: &mut Vec<String>, ranges: bool) {
    for _ in 0..below(rng, 6) {
        let f = pick(rng, UNIT_FLAGS).to_string();
        let mut v = number(rng);
        if !ranges && below(rng, 3) > 0 {
            v = below(rng, 6).to_string();
        }
        if f == "--power" && below(rng, 4) > 0 {
            v = (1 + below(rng, 6)).to_string();
        }
        args.push(f);
        args.push(v);
    }
    for _ in 0..below(rng, 3) {
        args.push(pick(rng, SWITCHES).to_string());
        if below(rng, 3) == 0 {
            args.push(pick(rng, &["on", "off", "both", "maybe"]).to_string());
        }
    }
    if below(rng, 3) == 0 {
        let (f, vals) = pick(rng, POLICY);
        args.push(f.to_string());
        args.push(pick(rng, vals).to_string());
    }
    if below(rng, 10) == 0 {
        args.push(garbage(rng));
    }
}

/// Keyword texts in the cards' wording, and garbage.
fn keyword(rng: &mut Rng) -> String {
    let n = below(rng, 4);
    match below(rng, 12) {
        0 => garbage(rng),
        1 => format!(
            "Pay {} Force -> {} {n}",
            below(rng, 3),
            pick(rng, &["Evade", "Deflect", "Retaliate"])
        ),
        2 => "Pay X Force -> Evade X".into(),
        3 => format!("Parry {}", pick(rng, &["4294967295", "2", "1"])),
        _ => format!(
            "{} {n}",
            pick(
                rng,
                &[
                    "Critical Hit",
                    "Parry",
                    "Evade",
                    "Deflect",
                    "Retaliate",
                    "Accuracy",
                    "Shields",
                    "Fury",
                    "Lucky",
                    "Stun",
                    "Backfire",
                    "Riposte",
                    "Overload",
                    "Absorb",
                    "Persuade",
                    "Resilience",
                    "Protect",
                    "Focus",
                    "Tenacity",
                ]
            )
        )
        .replace(" 0", if below(rng, 2) == 0 { " 0" } else { " 1" }),
    }
}

fn words(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "Armor",
            "Overkill",
            "Ferocity",
            "Fortitude",
            "Intercept",
            "Precision",
            "Double Damage",
            "Cunning",
            "Redirect",
            "Foresight: Gain 1 Force",
        ],
    )
    .to_string()
}

fn unit_json(rng: &mut Rng, name: &str) -> String {
    let mut kws: Vec<String> = (0..below(rng, 4))
        .map(|_| {
            if below(rng, 3) == 0 {
                words(rng)
            } else {
                keyword(rng)
            }
        })
        .collect();
    if below(rng, 8) == 0 {
        kws.push(garbage(rng));
    }
    let kws: Vec<String> = kws
        .iter()
        .map(|k| serde_json::to_string(k).unwrap())
        .collect();
    let health = match below(rng, 6) {
        0 => String::new(),
        1 => ", \"health\": 0".into(),
        _ => format!(", \"health\": {}", 1 + below(rng, 6)),
    };
    format!(
        "{{\"name\": {}, \"power\": {}{health}, \"keywords\": [{}]}}",
        serde_json::to_string(name).unwrap(),
        pick(rng, &["1", "2", "3", "4", "0", "-1", "1001", "\"x\""]),
        kws.join(", ")
    )
}

fn scenario(rng: &mut Rng) -> Vec<u8> {
    let dname = *pick(rng, &["D", "A", ""]);
    let mut text = format!(
        "{{\"attacker\": {}, \"defender\": {}",
        unit_json(rng, "A"),
        unit_json(rng, dname)
    );
    if below(rng, 3) == 0 {
        text.push_str(&format!(
            ", \"others\": [{}]",
            unit_json(rng, "T").replace('{', "{\"side\": \"defender\", ")
        ));
    }
    if below(rng, 3) == 0 {
        text.push_str(", \"policy\": {\"objective\": \"net\", \"lucky_order\": \"pop\"}");
    }
    if below(rng, 4) == 0 {
        text.push_str(", \"force\": {\"attacker\": 1, \"defender\": 2}");
    }
    if below(rng, 10) == 0 {
        text.push_str(", \"extra\": 1");
    }
    text.push('}');
    mangle(rng, text.into_bytes())
}

fn plan(rng: &mut Rng) -> Vec<u8> {
    let n = 1 + below(rng, 3);
    let attackers: Vec<String> = (0..n).map(|i| unit_json(rng, &format!("A{i}"))).collect();
    let steps: Vec<String> = (0..below(rng, 6))
        .map(|_| format!("\"A{}\"", below(rng, n + 1)))
        .collect();
    let text = format!(
        "{{\"defender\": {}, \"attackers\": [{}], \"steps\": [{}]}}",
        unit_json(rng, "D"),
        attackers.join(", "),
        steps.join(", ")
    );
    mangle(rng, text.into_bytes())
}

fn cards(rng: &mut Rng) -> Vec<u8> {
    let mut text = String::from("Name\tSet\tType\tSubtype\tPower\tHealth\tText\n");
    if below(rng, 10) == 0 {
        text = format!("\u{feff}{text}");
    }
    for i in 0..1 + below(rng, 6) {
        let ty = pick(
            rng,
            &["Character", "Space", "Ground", "Space/Ground", "Battle", ""],
        );
        let text_field: Vec<String> = (0..below(rng, 3)).map(|_| keyword(rng)).collect();
        text.push_str(&format!(
            "Card {i}\tFZ\t{ty}\t{}\t{}\t{}\t{}\n",
            pick(rng, &["Jedi", "Imperial", "Droid", ""]),
            pick(rng, &["3", "6.0", "6.5", "*", "X", "-1", "", "4294967295"]),
            pick(rng, &["3", "4", "0", "", "99999999999"]),
            text_field.join(" | ")
        ));
    }
    mangle(rng, text.into_bytes())
}

fn counts(rng: &mut Rng) -> Vec<u8> {
    let text = match below(rng, 8) {
        0 => "{\"0\": 18446744073709551615, \"1\": 1}".into(),
        1 => "{\"0\": 100, \"1\": 100, \"0\": 5}".into(),
        2 => "[1, 2]".into(),
        3 => "{\"x\": 3}".into(),
        _ => {
            let entries: Vec<String> = (0..1 + below(rng, 5))
                .map(|k| format!("\"{k}\": {}", below(rng, 5000)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    };
    mangle(rng, text.into_bytes())
}

/// Sometimes breaks bytes: truncation, a stray byte, a byte order mark.
fn mangle(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    match below(rng, 12) {
        0 => {
            let cut = below(rng, bytes.len() as u64 + 1) as usize;
            bytes.truncate(cut);
        }
        1 if !bytes.is_empty() => {
            let at = below(rng, bytes.len() as u64) as usize;
            bytes[at] = (rng.next_u64() & 0xff) as u8;
        }
        2 => {
            let mut b = vec![0xef, 0xbb, 0xbf];
            b.extend(bytes);
            bytes = b;
        }
        _ => {}
    }
    bytes
}

/// The case of `seed`.
pub fn case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let rng = &mut rng;
    let mut args = vec!["swtcg-odds".to_string()];
    let mut files = Vec::new();
    let kind = *pick(
        rng,
        &[
            "attack", "attack", "table", "scenario", "plan", "cards", "matchups", "verify",
            "sample", "flags",
        ],
    );
    match kind {
        "attack" => {
            args.push("attack".into());
            unit_flags(rng, &mut args, false);
            if below(rng, 2) == 0 {
                args.push("--json".into());
            }
        }
        "table" => {
            args.push("table".into());
            unit_flags(rng, &mut args, true);
            args.push("--format".into());
            args.push(pick(rng, &["md", "csv", "json", "jsonl", "xml"]).to_string());
            if below(rng, 5) == 0 {
                args.push("--pivot".into());
                args.push(
                    pick(
                        rng,
                        &["power,crit", "crit,power", "power,power", "x,y", "power"],
                    )
                    .to_string(),
                );
            }
        }
        "scenario" => {
            files.push(("s.json".into(), scenario(rng)));
            args.extend(["scenario".into(), "{dir}/s.json".into()]);
            if below(rng, 2) == 0 {
                args.push("--json".into());
            }
        }
        "plan" => {
            files.push(("p.json".into(), plan(rng)));
            args.extend(["plan".into(), "{dir}/p.json".into(), "--json".into()]);
        }
        "cards" => {
            files.push(("c.txt".into(), cards(rng)));
            args.extend(["cards".into(), "--db".into(), "{dir}/c.txt".into()]);
            match below(rng, 3) {
                0 => args.extend(["check".into(), "--json".into()]),
                1 => args.extend(["find".into(), pick(rng, &["Card", "", "\u{0}"]).to_string()]),
                _ => {
                    args.extend([
                        "attack".into(),
                        format!("Card {}", below(rng, 3)),
                        format!("Card {}", below(rng, 3)),
                        "--json".into(),
                    ]);
                    if below(rng, 3) == 0 {
                        args.extend([
                            "--condition".into(),
                            pick(rng, &["", "a:1", "d:9", "unique"]).to_string(),
                        ]);
                    }
                }
            }
        }
        "matchups" => {
            files.push(("c.txt".into(), cards(rng)));
            args.extend([
                "matchups".into(),
                "--db".into(),
                "{dir}/c.txt".into(),
                "--format".into(),
            ]);
            args.push(pick(rng, &["md", "csv", "json", "jsonl"]).to_string());
            if below(rng, 3) == 0 {
                args.push("--rank".into());
            }
        }
        "verify" => {
            files.push(("n.json".into(), counts(rng)));
            args.extend([
                "verify".into(),
                "--counts".into(),
                "{dir}/n.json".into(),
                "--json".into(),
            ]);
            unit_flags(rng, &mut args, false);
        }
        "sample" => {
            args.extend(["sample".into(), "--trials".into()]);
            args.push(pick(rng, &["10", "1000", "0", "100000000", "x"]).to_string());
            unit_flags(rng, &mut args, false);
        }
        _ => {
            for _ in 0..1 + below(rng, 5) {
                let w = match below(rng, 3) {
                    0 => garbage(rng),
                    1 => pick(rng, UNIT_FLAGS).to_string(),
                    _ => pick(
                        rng,
                        &["attack", "table", "--help", "--version", "cards", "x", "-h"],
                    )
                    .to_string(),
                };
                args.push(w);
            }
        }
    }
    Case { args, files, kind }
}

/// Sums every `"pmf"` object in a JSON value: each must be exactly 1.
fn check_pmfs(v: &serde_json::Value, path: &str) -> Result<(), String> {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(serde_json::Value::Object(p)) = m.get("pmf") {
                let mut sum = BigRational::from_integer(0.into());
                for (k, f) in p {
                    let s = f
                        .as_str()
                        .ok_or(format!("{path}.pmf.{k} is not a fraction"))?;
                    let (n, d) = s.split_once('/').ok_or(format!("{path}.pmf.{k} = {s}"))?;
                    let (n, d): (BigInt, BigInt) = (
                        n.parse().map_err(|_| s.to_string())?,
                        d.parse().map_err(|_| s.to_string())?,
                    );
                    sum += BigRational::new(n, d);
                }
                if sum != BigRational::from_integer(1.into()) {
                    return Err(format!("{path}.pmf sums to {sum}"));
                }
            }
            for (k, x) in m {
                check_pmfs(x, &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .try_for_each(|(i, x)| check_pmfs(x, &format!("{path}[{i}]"))),
        _ => Ok(()),
    }
}

/// Runs a case in `dir` and checks every invariant; the outcome, or what
/// broke.
pub fn run(case: &Case, dir: &Path) -> Result<Outcome, String> {
    for (name, bytes) in &case.files {
        std::fs::write(dir.join(name), bytes).map_err(|e| e.to_string())?;
    }
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| a.replace("{dir}", &dir.to_string_lossy()))
        .collect();
    let start = Instant::now();
    let ran =
        std::panic::catch_unwind(|| swtcg_odds::cli::run_args(args.clone())).map_err(|p| {
            format!(
                "panic: {:?}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or(p.downcast_ref::<&str>().map(|s| s.to_string()))
            )
        })?;
    let time = start.elapsed();
    if time > CASE_TIME {
        return Err(format!("took {time:?}"));
    }
    let verify = case.kind == "verify";
    match ran.status {
        0 => {}
        1 if verify => {}
        // Matchups with pairings left without a result: each is a row with
        // its reason, and the summary on stderr counts them.
        1 if case.kind == "matchups" => {
            if !ran.stderr.contains("without a result") {
                return Err(format!("status 1 without a summary: {}", ran.stderr));
            }
        }
        2 => {
            let lines = ran.stderr.trim_end().lines().count();
            let help =
                args.iter().any(|a| a == "--help" || a == "-h") || ran.stderr.contains("Usage");
            if lines != 1 && !help {
                return Err(format!(
                    "status 2 with {lines} lines on stderr: {}",
                    ran.stderr
                ));
            }
            if ran.stderr.chars().count() > 400 && !help {
                return Err(format!("a {}-character error", ran.stderr.chars().count()));
            }
        }
        s => return Err(format!("status {s}")),
    }
    let wants_json = args.iter().any(|a| a == "--json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json");
    if ran.status != 2 && wants_json && !args.iter().any(|a| a == "--pivot" || a == "--rank") {
        let v: serde_json::Value = serde_json::from_str(&ran.stdout)
            .map_err(|e| format!("JSON output does not parse: {e}"))?;
        check_pmfs(&v, "")?;
    }
    let error = (ran.status == 2).then(|| {
        ran.stderr
            .trim()
            .split(':')
            .take(2)
            .collect::<Vec<_>>()
            .join(":")
    });
    Ok(Outcome {
        status: ran.status,
        error,
        time,
    })
}
