//! Where each clause of a reading is in the printed text. A clause is
//! read from the text with reminders left out and the unit's names written
//! `THIS`; its span is found word by word: `THIS` stands for one to six
//! words (a name), a reminder in parentheses inside the clause is passed
//! over, and so are the words the reader leaves out (`also gets`, `the
//! THIS`). Clauses are found in order, each after the one before.
//!
//! ```
//! use swtcg_cards::cards::text::clause_spans;
//! let printed = "Pay 1 Force -> Rex gets +2 power (a reminder) for this attack.";
//! let spans = clause_spans(printed, &["THIS gets +2 power for this attack"]);
//! assert_eq!(spans[0].clone().map(|s| &printed[s]), Some("Rex gets +2 power (a reminder) for this attack"));
//! ```

use super::deaccent;
use std::ops::Range;

/// A word of a text: folded (ASCII, lowercase), its span, and whether it
/// is inside parentheses.
struct Word {
    folded: String,
    span: Range<usize>,
    reminder: bool,
}

fn fold(c: char) -> Option<char> {
    let c = if c.is_ascii() {
        c
    } else {
        deaccent(&c.to_string()).chars().next()?
    };
    c.is_ascii_alphanumeric().then(|| c.to_ascii_lowercase())
}

fn words(text: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut depth = 0usize;
    let mut open = false;
    for (i, c) in text.char_indices() {
        match (fold(c), c) {
            (Some(f), _) => {
                if open && let Some(w) = out.last_mut() {
                    w.folded.push(f);
                    w.span.end = i + c.len_utf8();
                } else {
                    out.push(Word {
                        folded: f.to_string(),
                        span: i..i + c.len_utf8(),
                        reminder: depth > 0,
                    });
                    open = true;
                }
            }
            (None, '(') => {
                depth += 1;
                open = false;
            }
            (None, ')') => {
                depth = depth.saturating_sub(1);
                open = false;
            }
            (None, _) => open = false,
        }
    }
    out
}

/// Words the reader leaves out of a clause (`also gets`, `the THIS`).
const LEFT_OUT: &[&str] = &["also", "the"];

/// Matches clause words `cw` against printed words from `p`; the index
/// after the last printed word matched. Each (clause word, printed word)
/// pair is tried once (`memo`): a clause of many `THIS`, each one to six
/// words, is linear in its words, not exponential.
fn matches(
    cw: &[(String, bool)],
    pw: &[Word],
    p: usize,
    memo: &mut rustc_hash::FxHashMap<(usize, usize), Option<usize>>,
) -> Option<usize> {
    let Some(((w, this), rest)) = cw.split_first() else {
        return Some(p);
    };
    // Clause words left: the key with `p`.
    let key = (cw.len(), p);
    if let Some(known) = memo.get(&key) {
        return *known;
    }
    let here = pw.get(p)?;
    let found = if here.reminder {
        // A reminder inside the clause is passed over.
        matches(cw, pw, p + 1, memo)
    } else if *this {
        // A name: one to six words (never the `also` the reader leaves
        // out after it).
        (1..=6)
            .take_while(|n| p + n <= pw.len() && pw[p + n - 1].folded != "also")
            .find_map(|n| matches(rest, pw, p + n, memo))
    } else if here.folded == *w
        && let Some(end) = matches(rest, pw, p + 1, memo)
    {
        Some(end)
    } else if LEFT_OUT.contains(&here.folded.as_str()) {
        matches(cw, pw, p + 1, memo)
    } else {
        None
    };
    memo.insert(key, found);
    found
}

/// The span of each clause in `printed`, in order (`None` for a clause the
/// words do not find, such as one the reader put together from a list).
pub fn clause_spans(printed: &str, clauses: &[&str]) -> Vec<Option<Range<usize>>> {
    let pw = words(printed);
    let mut from = 0;
    clauses
        .iter()
        .map(|clause| {
            let cw: Vec<(String, bool)> = words(clause)
                .into_iter()
                .map(|w| {
                    let this = &clause[w.span.clone()] == "THIS";
                    (w.folded, this)
                })
                .collect();
            if cw.is_empty() {
                return None;
            }
            // One memo per clause: what matches from a printed word does
            // not depend on where the search started.
            let mut memo = rustc_hash::FxHashMap::default();
            let (first, end) = (from..pw.len())
                .filter(|&s| !pw[s].reminder)
                .find_map(|s| matches(&cw, &pw, s, &mut memo).map(|e| (s, e)))?;
            // The tightest match ending there (`THIS` is a name, not the
            // cost before it: `Pay 2 Force -> Tyranus gets ...`).
            let start = (first..end)
                .rev()
                .find(|&s| !pw[s].reminder && matches(&cw, &pw, s, &mut memo) == Some(end))
                .unwrap_or(first);
            from = end;
            Some(pw[start].span.start..pw[end - 1].span.end)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_are_found_in_order_with_names_and_reminders() {
        let printed = "When Darth Vader attacks, the defending unit loses Shields (Prevent 1 damage.) for that attack. Vader also gets +2 power.";
        let clauses = [
            "When THIS attacks,",
            "the defending unit loses Shields for that attack",
            "THIS gets +2 power",
        ];
        let spans = clause_spans(printed, &clauses);
        let got: Vec<Option<&str>> = spans
            .iter()
            .map(|s| s.clone().map(|s| &printed[s]))
            .collect();
        assert_eq!(
            got,
            [
                Some("When Darth Vader attacks"),
                Some("the defending unit loses Shields (Prevent 1 damage.) for that attack"),
                Some("Vader also gets +2 power"),
            ]
        );
        // `THIS` is the name, not the cost before it.
        let printed = "Pay 2 Force -> Tyranus gets Critical Hit 2 (reminder) for this attack.";
        let spans = clause_spans(printed, &["THIS gets Critical Hit 2 for this attack"]);
        assert_eq!(
            spans[0].clone().map(|s| &printed[s]),
            Some("Tyranus gets Critical Hit 2 (reminder) for this attack")
        );
        // A clause that is not in the text has no span; the next is still
        // found.
        let spans = clause_spans(
            "Rex gets Evade 1.",
            &["THIS gets Parry 1", "THIS gets Evade 1"],
        );
        assert_eq!(spans[0], None);
        assert_eq!(spans[1], Some(0..16));
        // Accents and curly quotes fold as the reader folds them.
        let printed = "Padmé’s unit gets +1 power.";
        let spans = clause_spans(printed, &["Padme's unit gets +1 power"]);
        assert_eq!(spans[0], Some(0..printed.len() - 1));
    }
}
