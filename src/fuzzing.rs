//! The bodies of the `cargo fuzz` targets (`fuzz/fuzz_targets/`), shared
//! with `cargo test`, which runs every file of their corpora
//! (`fuzz/corpus/<target>/`) through them: a crash found once stays a
//! test. Each must return, never panic, on any bytes.

use swtcg_cards::cards::CardDb;

/// One card's text, read by the card reader (in a one-row set file, its
/// tabs and line ends made spaces).
pub fn card_text(data: &[u8]) {
    let text: String = String::from_utf8_lossy(data)
        .chars()
        .map(|c| {
            if matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let file =
        format!("Name\tSet\tType\tPower\tHealth\tText\nFuzz (A)\tFZ\tCharacter\t3\t3\t{text}\n");
    if let Ok(db) = CardDb::parse(&file) {
        // Every reading is counted, and explained without a panic.
        let _ = swtcg_cards::cards::check::check(&db);
        for c in &db.cards {
            let _ = c.to_text_with(true);
        }
    }
}

/// A whole set file, as LackeyCCG writes them.
pub fn set_file(data: &[u8]) {
    let _ = CardDb::parse(&String::from_utf8_lossy(data));
}

/// A scenario's or a plan's JSON, parsed and checked (not solved: the
/// solvers' bounds are the harness's business).
pub fn scenario_json(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = swtcg_engine::scenario::Scenario::from_json(&text);
    let _ = swtcg_engine::plan::Plan::from_json(&text);
}

/// An HTTP request's head and body, read within the server's limits and
/// checked as the server checks it.
pub fn http_head(data: &[u8]) {
    let limits = crate::web::server::Limits::default();
    let mut r = data;
    if let Ok(req) = crate::web::server::read_request(&mut r, &limits) {
        let hosts = crate::web::server::allowed_hosts("127.0.0.1", 8080, &[]);
        let _ = crate::web::server::check_request(&req, &hosts);
    }
}

/// A target's body.
pub type Body = fn(&[u8]);

/// The targets by name, as `cargo fuzz` knows them.
pub const TARGETS: &[(&str, Body)] = &[
    ("card_text", card_text),
    ("set_file", set_file),
    ("scenario_json", scenario_json),
    ("http_head", http_head),
];
