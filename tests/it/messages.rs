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
    &["attack", "--power", "-1"],
    &["attack", "--power", "3", "--fury", "500"],
    &["attack", "--power", "3", "--lucky-policy", "greedy"],
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
    for args in CLI {
        let mut line = vec!["swtcg-odds"];
        line.extend_from_slice(args);
        let ran = run_args(line);
        assert_eq!(ran.status, 2, "{args:?}: {}", ran.stderr);
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
        text.push_str(&format!("$ swtcg-odds {}\n{}", args.join(" "), ran.stderr));
    }
    pinned("errors-cli.txt", &text);
}

/// Bad requests, one of each kind of error the web API says.
const WEB: &[(&str, &str, &str)] = &[
    ("GET", "/api/attack?power=1001", ""),
    ("GET", "/api/attack?power=-1", ""),
    ("GET", "/api/attack?powr=3", ""),
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

#[test]
fn the_web_apis_messages_are_pinned() {
    let state = State::new(None);
    let mut text = String::new();
    for (method, url, body) in WEB {
        let r = handle(&state, method, url, body.as_bytes());
        assert!(r.status >= 400, "{method} {url}: {}", r.status);
        text.push_str(&format!(
            "{method} {url} {body}\n{} {}\n",
            r.status,
            String::from_utf8_lossy(&r.body)
        ));
    }
    pinned("errors-web.txt", &text);
}
