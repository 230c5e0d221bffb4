//! Case generation and invariant checks of the fuzz harness, shared by the
//! long run (`cargo run --release --example fuzz -- --cases N`) and the
//! bounded run inside `cargo test` (`tests/it/fuzz.rs`).
//!
//! A case is a command line, with the files it names (scenario, plan, card
//! database, counts) written to a temporary folder: drawn from the words
//! the tool reads, plausible numbers, bounds and beyond, and garbage. It is
//! run in-process through the CLI's entry point, and must hold every
//! invariant: no panic; exit status 0 or 2 (1 only for `verify`'s verdict,
//! `cards find` finding nothing,
//! and for matchups with pairings left without a result);
//! one line on standard error on failure; JSON output that parses, every
//! distribution in it summing to exactly 1; within the time bound.

#![allow(dead_code)]

use num_bigint::BigInt;
use num_rational::BigRational;
use std::path::Path;
use std::time::{Duration, Instant};
use swtcg_engine::sample::Rng;

/// Most time one case may take.
pub const CASE_TIME: Duration = Duration::from_secs(10);

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The command line, program name first (empty for an HTTP case).
    pub args: Vec<String>,
    /// An HTTP case: the request's bytes, where the client stalls (it sends
    /// that many bytes, then nothing more), and whether it goes over a real
    /// socket to a running server (else in-process).
    pub http: Option<Http>,
    /// Files it reads: (name in the case folder, contents).
    pub files: Vec<(String, Vec<u8>)>,
    /// Its kind, for the report.
    pub kind: &'static str,
}

/// A hostile HTTP request.
#[derive(Clone, Debug)]
pub struct Http {
    /// The bytes a client sends.
    pub bytes: Vec<u8>,
    /// It stops after this many (then waits, or closes).
    pub stall_at: Option<usize>,
    /// Sent over a socket to the harness's running server.
    pub socket: bool,
    /// Over the socket, it then sends a byte every 20 ms until the server
    /// closes the connection.
    pub trickle: bool,
}

/// Most time a trickling client is kept once its request is sent: the
/// server's drain deadline (1 s), its reads' time-out, and slack.
pub const TRICKLE_TIME: Duration = Duration::from_secs(4);

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
    match below(rng, 12) {
        0 => return wide_cards(rng),
        1 => return repeated_cards(rng),
        2 => return text_bomb(rng),
        _ => {}
    }
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
            "Card {i}\tFZ\t{ty}\t{}\t{}\t{}\t{}{}",
            pick(rng, &["Jedi", "Imperial", "Droid", ""]),
            pick(rng, &["3", "6.0", "6.5", "*", "X", "-1", "", "4294967295"]),
            pick(rng, &["3", "4", "0", "", "99999999999"]),
            text_field.join(" | "),
            line_end(rng)
        ));
    }
    if below(rng, 6) == 0 {
        // Old Mac line ends throughout.
        text = text.replace("\r\n", "\r").replace('\n', "\r");
    }
    mangle(rng, text.into_bytes())
}

/// A line end: LF, CRLF, a lone CR, or (rarely) none between two lines.
fn line_end(rng: &mut Rng) -> &'static str {
    const ENDS: [&str; 6] = ["\n", "\n", "\r\n", "\r", "\n\n", "\r\r\n"];
    ENDS[below(rng, ENDS.len() as u64) as usize]
}

/// A card list under a very wide header, rows with thousands of fields.
fn wide_cards(rng: &mut Rng) -> Vec<u8> {
    let width = 1 + below(rng, 3000) as usize;
    let mut text = String::from("Name\tType\tPower\tHealth\tText");
    for i in 0..width {
        text.push_str(&format!(
            "\tExtra column {i} {}",
            "x".repeat(below(rng, 40) as usize)
        ));
    }
    text.push_str(line_end(rng));
    for i in 0..1 + below(rng, 30) {
        text.push_str(&format!("Card {i}\tCharacter\t3\t3\tParry 1"));
        text.push_str(&"\tv".repeat(below(rng, width as u64 + 50) as usize));
        text.push_str(line_end(rng));
    }
    text.into_bytes()
}

/// Cards whose text repeats a phrase the reader must not take quadratic
/// time or memory over (issue 32), below and past a card's bounds (2,000
/// characters, 24 abilities), and names past theirs (200 characters).
fn text_bomb(rng: &mut Rng) -> Vec<u8> {
    const PHRASES: [&str; 10] = [
        "When THIS attacks, ",
        "When Card 0 attacks, ",
        "he gets +1 power and ",
        "Critical Hit 1 ",
        "Pay 1 Force -> ",
        "Parry 1 | ",
        "(",
        "\"",
        "As long as you have a Jedi, ",
        "choose one: ",
    ];
    let mut text = String::from("Name\tSet\tType\tPower\tHealth\tText\n");
    for i in 0..1 + below(rng, 3) {
        let phrase = pick(rng, &PHRASES);
        let reps = below(rng, 2_400 / phrase.len() as u64 * 2) as usize;
        let name = if below(rng, 8) == 0 {
            "N".repeat(150 + below(rng, 200) as usize)
        } else {
            format!("Card {i}")
        };
        text.push_str(&format!(
            "{name}\tFZ\tCharacter\t3\t3\t{}Card 0 gets +1 power.\n",
            phrase.repeat(reps)
        ));
    }
    text.into_bytes()
}

/// A card list of many rows sharing one name (or differing only in case).
fn repeated_cards(rng: &mut Rng) -> Vec<u8> {
    let mut text = String::from("Name\tSet\tType\tPower\tHealth\tText\n");
    for i in 0..below(rng, 3000) {
        let name = if i % 2 == 0 { "Card 0" } else { "card 0" };
        text.push_str(&format!(
            "{name}\tFZ\tCharacter\t{}\t3\tParry 1\n",
            1 + i % 5
        ));
    }
    text.into_bytes()
}

/// A hostile HTTP request: sizes, headers, methods, bodies, stalls.
fn http(rng: &mut Rng) -> Http {
    let method = pick(
        rng,
        &[
            "GET", "GET", "POST", "POST", "HEAD", "OPTIONS", "PUT", "BREW", "G\u{e9}T", "",
        ],
    )
    .to_string();
    let method = if below(rng, 50) == 0 {
        "M".repeat(20_000)
    } else {
        method
    };
    let path = pick(
        rng,
        &[
            "/",
            "/api/params",
            "/api/attack?power=3&crit=1",
            "/api/attack?power=2&lucky=1&defender-lucky=1",
            "/api/attack?power=x",
            "/api/attack?power=5&power=6",
            "/api/scenario",
            "/api/plan",
            "/api/combine",
            "/api/cards?q=a",
            "/api/cards/nearest?name=Vadr",
            "/api/nothing",
            "/%zz",
            "/\u{e9}",
            "*",
        ],
    )
    .to_string();
    // Long names (issue 32): the nearest-name search is bounded.
    let path = if below(rng, 30) == 0 {
        format!(
            "{}{}",
            pick(
                rng,
                &[
                    "/api/cards/piece?name=",
                    "/api/cards/nearest?name=",
                    "/api/attack?"
                ]
            ),
            "Darth Vadr".repeat(1 + below(rng, 800) as usize)
        )
    } else {
        path
    };
    let host = pick(
        rng,
        &["127.0.0.1:0", "evil.example", "localhost", "", "127.0.0.1"],
    )
    .to_string();
    let body = match below(rng, 6) {
        0 => String::new(),
        1 => r#"{"attacker": {"name": "a", "power": 2}, "defender": {"name": "d", "power": 1}}"#
            .into(),
        2 => r#"{"how": "convolve", "attacks": [{"power": "3"}, {"power": "2", "crit": "1"}]}"#
            .into(),
        3 => garbage(rng),
        4 => "x".repeat(below(rng, 70_000) as usize),
        // Slow combines (issue 32): attacks whose sum is beyond the work
        // bound, refused before it starts, or solved under the deadline.
        5 if below(rng, 2) == 0 => {
            let one = r#"{"power": "1000", "crit": "1000"}"#;
            let n = 2 + below(rng, 20) as usize;
            format!(
                r#"{{"how": "convolve", "attacks": [{}]}}"#,
                vec![one; n].join(", ")
            )
        }
        _ => r#"{"db": "/etc"}"#.into(),
    };
    let eol = if below(rng, 5) == 0 { "\n" } else { "\r\n" };
    let mut head = format!("{method} {path} HTTP/1.1{eol}");
    if !host.is_empty() {
        head.push_str(&format!("Host: {host}{eol}"));
    }
    if below(rng, 4) == 0 {
        head.push_str(&format!(
            "Origin: {}{eol}",
            pick(rng, &["http://evil.example", "http://127.0.0.1:0", "null"])
        ));
    }
    if below(rng, 3) != 0 {
        head.push_str(&format!(
            "Content-Type: {}{eol}",
            pick(
                rng,
                &[
                    "application/json",
                    "text/plain",
                    "application/json; charset=utf-8"
                ]
            )
        ));
    }
    let chunked = below(rng, 6) == 0;
    if chunked {
        head.push_str(&format!("Transfer-Encoding: chunked{eol}"));
    } else {
        let length = match below(rng, 8) {
            0 => "99999999999".to_string(),
            1 => "-1".into(),
            2 => "18446744073709551616".into(),
            3 => (body.len() + 100).to_string(),
            _ => body.len().to_string(),
        };
        head.push_str(&format!("Content-Length: {length}{eol}"));
    }
    if below(rng, 20) == 0 {
        head.push_str(&format!(
            "X-Big: {}{eol}",
            "h".repeat(below(rng, 40_000) as usize)
        ));
    }
    head.push_str(eol);
    let mut bytes = head.into_bytes();
    if chunked {
        match below(rng, 3) {
            0 => bytes
                .extend_from_slice(format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len()).as_bytes()),
            1 => bytes.extend_from_slice(b"zz\r\n"),
            _ => bytes.extend_from_slice(b"ffffffffff\r\nab"),
        }
    } else {
        bytes.extend_from_slice(body.as_bytes());
    }
    let stall_at = (below(rng, 4) == 0).then(|| below(rng, bytes.len() as u64 + 1) as usize);
    let socket = below(rng, 200) == 0;
    Http {
        bytes: mangle(rng, bytes),
        stall_at,
        socket,
        // A client that goes on trickling bytes after its request (issue
        // 32): the server closes it within its drain deadline.
        trickle: socket && below(rng, 10) == 0,
    }
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
            "sample", "flags", "http", "http",
        ],
    );
    if kind == "http" {
        return Case {
            args: Vec::new(),
            http: Some(http(rng)),
            files,
            kind,
        };
    }
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
                1 => {
                    let name = if below(rng, 10) == 0 {
                        "Card Zero ".repeat(1 + below(rng, 900) as usize)
                    } else {
                        pick(rng, &["Card", "", "\u{0}", "Crad 1"]).to_string()
                    };
                    args.extend(["find".into(), name]);
                }
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
    Case {
        args,
        http: None,
        files,
        kind,
    }
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
/// The server of the HTTP cases: in-process state, and a running server
/// on a free port (started once) for the cases sent over a socket.
fn server() -> &'static (std::sync::Arc<swtcg_odds::web::State>, String, Vec<String>) {
    static SERVER: std::sync::OnceLock<(
        std::sync::Arc<swtcg_odds::web::State>,
        String,
        Vec<String>,
    )> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| {
        use swtcg_odds::web::{ServeOptions, Solver, State, server::Limits};
        let solver = Solver::new(2, 8, Duration::from_secs(1), Duration::from_secs(2));
        let state = std::sync::Arc::new(State::with_solver(None, solver));
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let opts = ServeOptions {
                host: "127.0.0.1".into(),
                port: 0,
                open: false,
            };
            let limits = Limits {
                connections: 64,
                header_time: Duration::from_millis(500),
                body_time: Duration::from_millis(500),
                io_time: Duration::from_millis(500),
            };
            let solver = Solver::new(2, 8, Duration::from_secs(1), Duration::from_secs(2));
            let _ =
                swtcg_odds::web::serve_with(State::with_solver(None, solver), &opts, limits, |u| {
                    let _ = tx.send(u.to_string());
                });
        });
        let url = rx.recv().expect("the harness's server starts");
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let port: u16 = addr
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let hosts = swtcg_odds::web::server::allowed_hosts("127.0.0.1", port, &[]);
        (state, addr, hosts)
    })
}

/// A reader of `bytes` that sends them in small pieces and, at `stall_at`,
/// stops: a read then times out (as a stalled client's socket does).
struct Stalling<'a> {
    bytes: &'a [u8],
    at: usize,
    stall_at: Option<usize>,
    piece: usize,
}

impl std::io::Read for Stalling<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = self
            .stall_at
            .unwrap_or(self.bytes.len())
            .min(self.bytes.len());
        if self.at >= end {
            return if self.stall_at.is_some() {
                Err(std::io::ErrorKind::TimedOut.into())
            } else {
                Ok(0)
            };
        }
        let n = buf.len().min(self.piece).min(end - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Runs an HTTP case: in-process through the server's reader and answer,
/// or over a socket to the running server. Invariants: no panic; an
/// answer (unless the client sent nothing); a status the server gives;
/// an error body that parses and is short; within the time bound.
fn run_http(h: &Http) -> Result<Outcome, String> {
    use swtcg_odds::web::server::{Limits, Refusal, answer, read_request, write_response};
    let (state, addr, hosts) = server();
    let start = Instant::now();
    let wire: Vec<u8> = if h.socket {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
        s.set_read_timeout(Some(Duration::from_secs(5)))
            .map_err(|e| e.to_string())?;
        let end = h.stall_at.unwrap_or(h.bytes.len()).min(h.bytes.len());
        let _ = s.write_all(&h.bytes[..end]);
        let sent = Instant::now();
        let trickler = h.trickle.then(|| {
            let mut w = s.try_clone().expect("a socket clones");
            std::thread::spawn(move || {
                while sent.elapsed() < CASE_TIME {
                    if w.write_all(b"x").is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        });
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        if let Some(t) = trickler {
            let _ = s.shutdown(std::net::Shutdown::Both);
            let _ = t.join();
            if sent.elapsed() > TRICKLE_TIME {
                return Err(format!(
                    "a trickling client was kept {:?} after its request",
                    sent.elapsed()
                ));
            }
        }
        out
    } else {
        let mut r = Stalling {
            bytes: &h.bytes,
            at: 0,
            stall_at: h.stall_at,
            piece: 1 + (h.bytes.len() % 997),
        };
        let limits = Limits::default();
        let resp = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            match read_request(&mut r, &limits) {
                Ok(req) => Some(answer(state, req, hosts)),
                Err(Refusal(r)) => r,
            }
        }))
        .map_err(|_| "panic in the server".to_string())?;
        let mut out = Vec::new();
        if let Some(r) = resp {
            write_response(&mut out, &r).map_err(|e| e.to_string())?;
        }
        out
    };
    let time = start.elapsed();
    if time > CASE_TIME {
        return Err(format!("took {time:?}"));
    }
    let sent = h.stall_at.unwrap_or(h.bytes.len()).min(h.bytes.len());
    if wire.is_empty() {
        if sent == 0 {
            return Ok(Outcome {
                status: 0,
                error: None,
                time,
            });
        }
        return Err("no answer".into());
    }
    let text = String::from_utf8_lossy(&wire);
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no status line: {}", &text[..text.len().min(80)]))?;
    const KNOWN: [u16; 18] = [
        200, 204, 400, 403, 404, 405, 408, 411, 413, 414, 415, 421, 422, 431, 500, 501, 503, 0,
    ];
    if !KNOWN.contains(&status) || status == 500 {
        return Err(format!("status {status}"));
    }
    if status >= 400 {
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
        if body.len() > 1000 {
            return Err(format!("an error of {} bytes", body.len()));
        }
        if !body.is_empty() {
            let v: serde_json::Value =
                serde_json::from_str(body).map_err(|e| format!("error body: {e}"))?;
            if !v["error"].is_string() {
                return Err("an error body without \"error\"".into());
            }
        }
    }
    Ok(Outcome {
        // HTTP answers as 202, 204, 205 (2xx, 4xx, 5xx) beside exit statuses.
        status: 200 + (status / 100) as u8,
        error: (status >= 400).then(|| format!("http {status}")),
        time,
    })
}

pub fn run(case: &Case, dir: &Path) -> Result<Outcome, String> {
    if let Some(h) = &case.http {
        return run_http(h);
    }
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
        // `cards find` that finds nothing (as grep), with the nearest names.
        // (Notes on the card file may come first.)
        1 if ran
            .stderr
            .lines()
            .any(|l| l.starts_with("cards find: no card")) => {}
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
