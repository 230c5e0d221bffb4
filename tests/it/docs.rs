//! The documentation stays true: every test docs/rules.md names exists
//! (in `tests/` or a crate's `src/`).

use std::fs;

#[test]
fn rules_md_names_existing_tests() {
    let rules = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    let mut named = 0;
    for line in rules.lines().filter(|l| l.starts_with("- ")) {
        let refs: Vec<&str> = line
            .split('`')
            .filter(|s| {
                (s.starts_with("tests/") || s.starts_with("crates/")) && s.contains(".rs::")
            })
            .collect();
        assert!(!refs.is_empty(), "a reading without its test: {line}");
        for r in refs {
            let (file, test) = r.split_once("::").unwrap();
            let src =
                fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + file)
                    .unwrap_or_else(|_| panic!("{file} named in docs/rules.md does not exist"));
            assert!(
                src.contains(&format!("fn {test}(")),
                "{file} has no test {test} (named in docs/rules.md)"
            );
            named += 1;
        }
    }
    assert!(named >= 20, "{named}");
}

/// docs/matchups.md is what the documented command generates today.
#[test]
fn matchups_page_is_fresh() {
    use swtcg_cards::cards::CardDb;
    use swtcg_odds::writers::{PAGE_COMMAND, PAGE_SOURCE, docs_page};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + PAGE_SOURCE;
    let db = CardDb::from_file(&path).unwrap();
    let page = docs_page(&db, PAGE_SOURCE).unwrap();
    let committed =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/matchups.md")).unwrap();
    assert!(
        page == committed,
        "docs/matchups.md is stale: regenerate it with `{PAGE_COMMAND}`"
    );
}

/// A command found in the documentation: the file, the command line as
/// written, and the output shown after it (`$ swtcg-odds ...` transcripts).
#[derive(Debug)]
struct DocCommand {
    file: String,
    line: String,
    shown: Vec<String>,
}

/// Every `swtcg-odds ...` and `cargo run --release -- ...` command of a
/// Markdown text: in fenced blocks (with the output shown after a `$ `
/// command) and in inline code spans of its paragraphs.
fn doc_commands(file: &str, text: &str) -> Vec<DocCommand> {
    let mut out: Vec<DocCommand> = Vec::new();
    let is_command = |l: &str| l.starts_with("swtcg-odds ") || l.starts_with("cargo run ");
    let mut in_block = false;
    let mut transcript = false;
    let mut paragraph = String::new();
    let inline = |paragraph: &mut String, out: &mut Vec<DocCommand>| {
        for (i, span) in paragraph.split('`').enumerate() {
            // An inline span is a command when it gives flags; else it
            // only names one (`swtcg-odds sample`).
            if i % 2 == 1 && is_command(span.trim()) && span.contains(" --") {
                out.push(DocCommand {
                    file: file.into(),
                    line: span.trim().into(),
                    shown: vec![],
                });
            }
        }
        paragraph.clear();
    };
    for raw in text.lines() {
        if raw.trim_start().starts_with("```") {
            inline(&mut paragraph, &mut out);
            in_block = !in_block;
            transcript = false;
            continue;
        }
        if !in_block {
            if raw.trim().is_empty() {
                inline(&mut paragraph, &mut out);
            } else {
                paragraph.push(' ');
                paragraph.push_str(raw.trim());
            }
            continue;
        }
        let l = raw.trim();
        let (cmd, is_transcript) = match l.strip_prefix("$ ") {
            Some(c) => (c, true),
            None => (l, false),
        };
        if is_command(cmd) {
            out.push(DocCommand {
                file: file.into(),
                line: cmd.into(),
                shown: vec![],
            });
            transcript = is_transcript;
        } else if transcript && !l.is_empty() && l != "..." {
            out.last_mut()
                .unwrap()
                .shown
                .push(raw.trim_end().to_string());
        }
    }
    inline(&mut paragraph, &mut out);
    out
}

/// Splits a command line as a shell would (double quotes only).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}

/// The variants of a documented command line: `# comments` dropped, each
/// `[optional part]` left out and put in, each `a|b|c` alternative taken
/// in turn; variants with a placeholder (`N`, `S`) are dropped.
fn variants(line: &str) -> Vec<Vec<String>> {
    let line = match line.find(" # ") {
        Some(i) => &line[..i],
        None => line,
    };
    // Optional groups: each in or out.
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find('[') {
        let Some(j) = rest[i..].find(']') else { break };
        parts.push((rest[..i].to_string(), false));
        parts.push((rest[i + 1..i + j].to_string(), true));
        rest = &rest[i + j + 1..];
    }
    parts.push((rest.to_string(), false));
    let optional = parts.iter().filter(|p| p.1).count();
    let mut out = Vec::new();
    for mask in 0..1u32 << optional {
        let mut k = 0;
        let mut text = String::new();
        for (p, opt) in &parts {
            if *opt {
                if mask & (1 << k) != 0 {
                    text.push(' ');
                    text.push_str(p);
                }
                k += 1;
            } else {
                text.push_str(p);
            }
        }
        let words = shell_words(&text);
        // Alternatives: a word with `|` (not a Markdown table) in turn.
        let mut alts: Vec<Vec<String>> = vec![vec![]];
        for w in words {
            let choices: Vec<String> = if w.contains('|') && !w.starts_with('|') {
                w.split('|').map(String::from).collect()
            } else {
                vec![w]
            };
            alts = alts
                .into_iter()
                .flat_map(|a| {
                    choices.iter().map(move |c| {
                        let mut a = a.clone();
                        a.push(c.clone());
                        a
                    })
                })
                .collect();
        }
        for a in alts {
            let placeholder = a.iter().any(|w| {
                w.len() <= 4 && !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase())
            });
            if !placeholder && !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// Every command in the README and `docs/` runs, in-process, on the files
/// of a fresh clone, as written (card examples name `tests/fixtures/`;
/// only the shared folder beside the repository reads the fixtures), files a command writes go to a temporary folder,
/// and the output a `$ ` transcript shows is what it prints. Commands that
/// are not the tool's (`cargo test`, the examples) are listed and checked
/// elsewhere.
#[test]
fn every_documented_command_runs() {
    let root = env!("CARGO_MANIFEST_DIR");
    let fixtures = format!("{root}/tests/fixtures/lackey");
    let mut files = vec![format!("{root}/README.md")];
    for e in fs::read_dir(format!("{root}/docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p.to_string_lossy().into_owned());
        }
    }
    files.sort();
    let mut ran = 0;
    let mut elsewhere = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().to_string_lossy().into_owned();
        for cmd in doc_commands(file, &text) {
            for words in variants(&cmd.line) {
                let args: Vec<String> = match words.first().map(String::as_str) {
                    Some("swtcg-odds") => words[1..].to_vec(),
                    Some("cargo")
                        if words.get(2) == Some(&"--release".into())
                            && words.get(3) == Some(&"--".into()) =>
                    {
                        words[4..].to_vec()
                    }
                    _ => {
                        elsewhere.push(cmd.line.clone());
                        continue;
                    }
                };
                if args.is_empty() {
                    // The program's name alone (`write ... in its place`).
                    continue;
                }
                if args.first().map(String::as_str) == Some("serve") {
                    // A server runs until stopped: tests/it/web.rs serves.
                    elsewhere.push(cmd.line.clone());
                    continue;
                }
                // Paths: card folders read the fixtures; repository files are
                // read where they are; anything written goes to the temporary
                // folder, and a `> file` redirection with it.
                let mut real = vec!["swtcg-odds".to_string()];
                let mut redirect = None;
                let mut it = args.iter().peekable();
                let mut prev = String::new();
                while let Some(a) = it.next() {
                    let mapped = if a == ">" {
                        redirect = it.next().map(|f| format!("{t}/{f}"));
                        continue;
                    } else if a.contains("shared/reference") {
                        // The shared files are beside the repository only in
                        // CI: the fixtures stand for them. Every other path
                        // runs as written.
                        fixtures.clone()
                    } else if prev == "--output" || prev == "--plot" {
                        format!("{t}/{}", a.rsplit('/').next().unwrap())
                    } else if std::path::Path::new(&format!("{root}/{a}")).exists()
                        && !a.is_empty()
                        && !a.starts_with('-')
                    {
                        format!("{root}/{a}")
                    } else if a.ends_with(".json") || a.ends_with(".svg") || a.ends_with(".csv") {
                        format!("{t}/{a}")
                    } else {
                        a.clone()
                    };
                    prev = a.clone();
                    real.push(mapped);
                }
                let out = swtcg_odds::cli::run_args(&real);
                // verify's verdict on a wrong simulator is exit status 1.
                let want = if real.iter().any(|a| a.ends_with("wrong.json")) {
                    1
                } else {
                    0
                };
                assert_eq!(
                    out.status, want,
                    "{}: `{}` ran as {real:?}: {}",
                    cmd.file, cmd.line, out.stderr
                );
                if let Some(f) = redirect {
                    fs::write(f, &out.stdout).unwrap();
                }
                if words == shell_words(&cmd.line) {
                    for shown in &cmd.shown {
                        assert!(
                            out.stdout.lines().any(|l| l.trim_end() == shown),
                            "{}: `{}` no longer prints {shown:?}:\n{}",
                            cmd.file,
                            cmd.line,
                            out.stdout
                        );
                    }
                }
                ran += 1;
            }
        }
    }
    elsewhere.sort();
    elsewhere.dedup();
    // Not the tool's commands, each checked elsewhere: `cargo test` is this
    // run; the fuzz example's generator runs in tests/it/fuzz.rs; the
    // verify_simulator example runs below; serve in tests/it/web.rs.
    for e in &elsewhere {
        assert!(
            e.starts_with("cargo test")
                || e.contains("--example fuzz")
                || e.contains("--example verify_simulator")
                || e.starts_with("swtcg-odds serve"),
            "a documented command this test does not run: {e}"
        );
    }
    assert!(ran >= 25, "{ran} commands run");
}

#[path = "../../examples/verify_simulator.rs"]
mod verify_simulator;

/// docs/verify.md's example program runs (and its planted bug is caught).
#[test]
fn the_verify_simulator_example_runs() {
    verify_simulator::main();
}

/// The Markdown files a reader follows links between: the README and
/// every page of docs/.
fn markdown_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for e in fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    files.sort();
    files
}

/// A heading's anchor as GitHub makes it: lowercase, punctuation other
/// than `-` and `_` dropped, spaces to `-`.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings (outside fenced blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for l in text.lines() {
        if l.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && l.starts_with('#') {
            out.push(anchor_of(l.trim_start_matches('#')));
        }
    }
    out
}

/// Every relative link of the README and docs/ resolves: its file exists
/// (beside the page that links it), and its `#anchor`, if any, is a
/// heading of the page it names.
#[test]
fn every_relative_link_resolves() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in markdown_files() {
        let text = fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap();
        let mut fenced = false;
        for line in text.lines() {
            if line.starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            // `](target)` links and `src="target"` images.
            let mut targets: Vec<&str> = line
                .split("](")
                .skip(1)
                .filter_map(|s| s.split(')').next())
                .collect();
            targets.extend(
                line.split("src=\"")
                    .skip(1)
                    .filter_map(|s| s.split('"').next()),
            );
            for t in targets {
                let t = t.split_whitespace().next().unwrap_or("");
                if t.is_empty() || t.contains("://") || t.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = match t.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (t, None),
                };
                let target = if path.is_empty() {
                    file.clone()
                } else {
                    dir.join(path)
                };
                checked += 1;
                if !target.exists() {
                    broken.push(format!("{}: {t} (no such file)", file.display()));
                    continue;
                }
                if let Some(a) = anchor {
                    let page = fs::read_to_string(&target).unwrap_or_default();
                    if !anchors(&page).iter().any(|h| h == a) {
                        broken.push(format!("{}: {t} (no such heading)", file.display()));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 20, "{checked} links checked");
}

/// docs/scenarios.md lists every keyword of the engine's table, each with
/// when it acts as the engine declares it, and a wording the engine reads.
#[test]
fn scenarios_md_lists_every_keyword() {
    use swtcg_engine::keywords::{KeywordKind, When, parse};
    let text =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md")).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" | `"))
        .map(|l| {
            l.split(" | ")
                .map(|c| c.trim_matches(|c| c == '|' || c == ' ').to_string())
                .collect()
        })
        .collect();
    for k in KeywordKind::ALL {
        let row = rows
            .iter()
            .find(|r| r[0] == k.name() || r[0].starts_with(&format!("{} (also", k.name())))
            .unwrap_or_else(|| panic!("docs/scenarios.md does not list {}", k.name()));
        // The first wording given reads as this keyword.
        let wording = row[1].split('`').nth(1).unwrap();
        let a = parse(wording).unwrap_or_else(|e| panic!("{wording}: {e}"));
        assert_eq!(a.keyword.kind(), *k, "{wording}");
        let when = match a.keyword.when() {
            When::Attacking => "attacking",
            When::Defending => "defending",
            When::Any => "either",
        };
        assert_eq!(row[2], when, "{}: acts while", k.name());
    }
    assert!(rows.len() >= KeywordKind::ALL.len());
}

/// Every JSON example of docs/scenarios.md is a scenario or a plan that
/// solves (its `"db"`, relative to docs/, read from there).
#[test]
fn scenarios_md_examples_solve() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = fs::read_to_string(format!("{root}/docs/scenarios.md")).unwrap();
    let mut blocks = Vec::new();
    let mut cur: Option<String> = None;
    for l in text.lines() {
        match (&mut cur, l) {
            (None, "```json") => cur = Some(String::new()),
            (Some(b), "```") => {
                blocks.push(std::mem::take(b));
                cur = None;
            }
            (Some(b), _) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    assert!(blocks.len() >= 4, "{}", blocks.len());
    for b in &blocks {
        let v: serde_json::Value = serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}: {b}"));
        let mut v = v;
        if let Some(db) = v.get("db").and_then(|d| d.as_str()) {
            // Relative to the page (docs/), or to examples/scenarios/.
            let base = if db.starts_with("../../") {
                format!("{root}/examples/scenarios")
            } else {
                format!("{root}/docs")
            };
            v["db"] = serde_json::Value::String(format!("{base}/{db}"));
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.json");
        fs::write(&file, v.to_string()).unwrap();
        let cmd = if v.get("attackers").is_some() {
            "plan"
        } else {
            "scenario"
        };
        let out = swtcg_odds::cli::run_args(["swtcg-odds", cmd, file.to_str().unwrap()]);
        assert_eq!(out.status, 0, "{cmd}: {}: {b}", out.stderr);
    }
}

/// `scenario --help` and `plan --help` send the reader to docs/scenarios.md.
#[test]
fn scenario_and_plan_help_name_their_format() {
    for cmd in ["scenario", "plan"] {
        let out = swtcg_odds::cli::run_args(["swtcg-odds", cmd, "--help"]);
        assert!(
            out.stdout.contains("docs/scenarios.md"),
            "{cmd}: {}",
            out.stdout
        );
    }
}
