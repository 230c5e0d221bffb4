//! The documentation stays true: every test docs/rules.md names exists.

use std::fs;

#[test]
fn rules_md_names_existing_tests() {
    let rules = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    let mut named = 0;
    for line in rules.lines().filter(|l| l.starts_with("- ")) {
        let refs: Vec<&str> = line
            .split('`')
            .filter(|s| s.starts_with("tests/") && s.contains("::"))
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
    use swtcg_odds::cards::CardDb;
    use swtcg_odds::matchups::{PAGE_COMMAND, PAGE_SOURCE, docs_page};
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
