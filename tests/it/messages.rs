//! Issue 33: the words of errors are pinned in one snapshot file per
//! front-end (`tests/snapshots/errors-cli.txt`, `errors-web.txt`), so that
//! a change of wording is one reviewed diff
//! (`UPDATE_EXPECT=1 cargo test --test it messages`), and the other tests
//! can assert on the kind and the origin.

use crate::snapshots::assert_snapshot as pinned;
use swtcg_odds::cli::run_args;
use swtcg_odds::web::{State, handle};

/// Bad command lines, one of each kind of error the command line says.
const CLI: &[&[&str]] = &[
    &["attack", "--power", "1001"],
    &["attack", "--power", "3", "--health", "0"],
    &["attack", "--power", "3", "--health", "3", "--counters", "3"],
    &["attack", "--power", "3", "--bogus"],
    &["attack", "--powr", "3"],
    &["attack", "--power", "3", "--defender-armr"],
    &["attack", "--power", "3", "--armor", "--defender-armor"],
    &["attack", "--power", "-1"],
    &["attack", "--power", "3", "--fury", "500"],
    &["attack", "--power", "3", "--lucky-policy", "greedy"],
    &["attack", "--power", "5", "--objective", "damge"],
    &["matchups", "--db", "tests/fixtures/lackey", "--any-arena"],
    &[
        "cards",
        "--db",
        "tests/fixtures/lackey",
        "attack",
        "Darth Mual (G)",
        "K'Kruhk (C)",
    ],
    &[
        "attack",
        "--overload",
        "100",
        "--power",
        "6",
        "--defender-lucky",
        "6",
        "--backfire",
        "5",
        "--double-damage",
    ],
    &["table", "--power", "1..x"],
    &["table", "--power", "5..1"],
    &["table", "--power", "1..1000000"],
    &["table", "--armor", "maybe"],
    &["table", "--format", "xml"],
    &["nonsense"],
    &["scenario", "/no/such/file.json"],
    &["verify", "--counts", "/no/such.json", "--power", "3"],
    &["sample", "--power", "3", "--trials", "0"],
    &["serve", "--host", "192.0.2.1", "--port", "0"],
    &["serve", "--host", "999.1.1.1", "--port", "0"],
    &["battle", "/no/such/battle.json"],
    &["battle", "tests/fixtures/battles/tenacity.json"],
    &[
        "battle",
        "examples/battles/duel.json",
        "--max-states",
        "100",
    ],
];

#[test]
fn the_command_lines_messages_are_pinned() {
    let mut text = String::new();
    // One line each on standard error, with the status given; a status
    // other than a bad command line's is written beside the command.
    let mut pin = |cases: &[&[&str]], status: u8| {
        for args in cases {
            let mut line = vec!["swtcg-odds"];
            line.extend_from_slice(args);
            let ran = run_args(line);
            assert_eq!(ran.status, status, "{args:?}: {}", ran.stderr);
            assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
            let shown = if status == 2 {
                String::new()
            } else {
                format!(" (status {status})")
            };
            text.push_str(&format!(
                "$ swtcg-odds {}{shown}\n{}",
                args.join(" "),
                ran.stderr
            ));
        }
    };
    pin(CLI, 2);
    // A search that finds nothing is not a bad command line: status 1,
    // with the nearest names on standard error.
    pin(FOUND_NONE, 1);
    pinned("errors-cli.txt", &text);
}

/// Searches that find nothing (status 1): what they say is pinned with the
/// bad command lines.
const FOUND_NONE: &[&[&str]] = &[
    &["cards", "--db", "tests/fixtures/lackey", "find", "beygor"],
    &[
        "cards",
        "--db",
        "tests/fixtures/lackey",
        "find",
        "Darth Mual (G)",
    ],
];

/// The binary itself says what the command line run in-process says: the
/// same one line on standard error, status 2, nothing on standard output.
#[test]
fn the_binary_says_what_run_args_says() {
    for args in CLI {
        let mut line = vec!["swtcg-odds"];
        line.extend_from_slice(args);
        let ran = run_args(line);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_swtcg-odds"))
            .args(*args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), ran.stderr, "{args:?}");
    }
}

/// Bad requests, one of each kind of error the web API says.
const WEB: &[(&str, &str, &str)] = &[
    ("GET", "/api/attack?power=1001", ""),
    ("GET", "/api/attack?power=-1", ""),
    ("GET", "/api/attack?powr=3", ""),
    ("GET", "/api/attack?power=3&defender-armr=true", ""),
    (
        "GET",
        "/api/attack?power=3&armor=true&defender-armor=true",
        "",
    ),
    ("GET", "/api/attack?power=3&health=3&counters=3", ""),
    ("GET", "/api/attack?power=3&format=xml", ""),
    ("GET", "/api/params?format=csv", ""),
    ("POST", "/api/scenario", "{\"attacker\": "),
    (
        "POST",
        "/api/scenario",
        "{\"attacker\": {\"name\": \"A\", \"power\": 3}}",
    ),
    ("POST", "/api/plan", "[]"),
    ("POST", "/api/battle", "{\"units\": []}"),
    (
        "POST",
        "/api/battle",
        "{\"units\": [{\"name\": \"D\", \"side\": \"grey\"}]}",
    ),
    (
        "POST",
        "/api/combine",
        "{\"how\": \"convolve\", \"attacks\": []}",
    ),
    ("GET", "/api/cards?q=x", ""),
    ("DELETE", "/api/attack", ""),
    ("GET", "/nothing", ""),
];

/// Bad requests to a server with cards: a typo's nearest names.
const WEB_CARDS: &[(&str, &str, &str)] = &[
    (
        "GET",
        "/api/cards/attack?attacker=beygor&defender=K%27Kruhk%20(C)",
        "",
    ),
    ("GET", "/api/cards/attack?attacker=a&defnder=b", ""),
    ("GET", "/api/attack?power=5&crti=2", ""),
];

#[test]
fn the_web_apis_messages_are_pinned() {
    let state = State::new(None);
    let cards = State::new(Some(
        swtcg_cards::cards::CardDb::load(&[concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/lackey"
        )])
        .unwrap(),
    ));
    let mut text = String::new();
    let asked = WEB.iter().map(|q| (&state, q));
    for (state, (method, url, body)) in asked.chain(WEB_CARDS.iter().map(|q| (&cards, q))) {
        let r = handle(state, method, url, body.as_bytes());
        assert!(r.status >= 400, "{method} {url}: {}", r.status);
        text.push_str(&format!(
            "{method} {url} {body}\n{} {}\n",
            r.status,
            String::from_utf8_lossy(&r.body)
        ));
    }
    pinned("errors-web.txt", &text);
}

/// The library's own errors, as any front-end receives them: keyword texts,
/// sample counts, plan files and stacks of cards.
#[test]
fn the_librarys_messages_are_pinned() {
    use swtcg_cards::cards::CardDb;
    let mut text = String::new();
    let mut say = |what: &str, e: swtcg_engine::error::Error| {
        text.push_str(&format!("{what}\n{e}\n"));
    };
    for t in [
        "Parry",
        "Parry lots",
        "Parry -1",
        "Armor 2",
        "Jump 2",
        "Pay 1 Force ->",
        "Foresight",
        "Parryx 2",
        "",
        "Pay 99999999999 Force -> Evade 2",
    ] {
        say(
            &format!("keyword {t:?}"),
            swtcg_engine::keywords::parse(t).unwrap_err(),
        );
    }
    for t in [
        "[1, 2]",
        r#"{"x": 3}"#,
        r#"{"1": -3}"#,
        r#"{"0": 100, "1": 100, "0": 5}"#,
        r#"{"0": 18446744073709551615, "1": 1}"#,
        r#"{"1": 0}"#,
        "{",
    ] {
        say(
            &format!("counts {t}"),
            swtcg_odds::cli::parse_counts(t).unwrap_err(),
        );
    }
    for t in [
        r#"{"defender": {"name": "D", "power": 1}, "attackers": [{"name": "A", "power": 2}]}"#,
        r#"{"defender": {"name": "D", "health": 3}, "attackers": []}"#,
        r#"{"defender": {"name": "D", "health": 3}, "attackers": [{"name": "A", "power": 2}], "steps": ["Z"]}"#,
        r#"{"defender": {"name": "D", "health": 3}, "attackers": [{"name": "A"}], "extra": 1}"#,
    ] {
        say(
            &format!("plan {t}"),
            swtcg_engine::plan::Plan::from_json(t).unwrap_err(),
        );
    }
    let db = CardDb::load(&[concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/lackey"
    )])
    .unwrap();
    for t in [
        "Incom T-16 Skyhopper with TIE Fighter Elite Pilot",
        "Luke's X-Wing (A) with Rebel Squad",
        "Darth Vader (Y) + Deena Shan (A)",
        "Troper Number 12 (A)",
        "Darth",
    ] {
        say(&format!("piece {t}"), db.piece(t).unwrap_err());
    }
    pinned("errors-library.txt", &text);
}
