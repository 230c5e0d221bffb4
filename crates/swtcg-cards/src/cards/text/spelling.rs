//! Misspelt words, read as the word the card means: a keyword's name one
//! letter off (`Pay 1 Force -> Defelct 1`, `Defect 1`), however often,
//! or a word the database writes many times and this text at most twice,
//! one letter off (`unqiue`, `yourt`). Without it such an ability is not understood, or
//! worse, read as outside attacks ("no word of an attack in it"): a paid
//! Deflect silently lost.
//!
//! A keyword's name misspelt is read as the keyword wherever it is
//! written (in a list of grants it was dropped: `gets Fury 1 and Acucracy
//! 1` read as Fury 1). Another word is respelt only in an ability that
//! was not understood or was read as outside attacks, and kept only when
//! it then reads as something else that is understood. Either way the
//! reading says so: a first clause `spelling`, with the word each
//! misspelt word was read as.

use std::collections::{HashMap, HashSet};

/// A word at most this often in the database can be a misspelling.
const RARE: u32 = 2;
/// A lowercase word at least this often in the database is a spelling a
/// rare word may be read as.
const COMMON: u32 = 8;
/// The shortest word respelt: shorter words are too near each other
/// (`tht` is one letter from `that` and from `the`).
const SHORTEST: usize = 4;
/// The shortest keyword word respelt (`Luck` is a word of its own).
const SHORTEST_KEYWORD: usize = 5;

/// Words grouped by length: a word one letter off another is within one
/// letter of its length.
#[derive(Clone, Debug, Default)]
struct ByLength(Vec<Vec<String>>);

impl ByLength {
    fn of(words: impl IntoIterator<Item = String>) -> ByLength {
        let mut by = ByLength::default();
        for w in words {
            if by.0.len() <= w.len() {
                by.0.resize(w.len() + 1, Vec::new());
            }
            by.0[w.len()].push(w);
        }
        by.0.iter_mut().for_each(|v| v.sort());
        by
    }

    fn contains(&self, w: &str) -> bool {
        self.0
            .get(w.len())
            .is_some_and(|v| v.iter().any(|x| x == w))
    }

    /// The words within one letter of `w`'s length.
    fn near(&self, w: &str) -> impl Iterator<Item = &String> {
        let lo = w.len().saturating_sub(1);
        self.0
            .iter()
            .skip(lo)
            .take(if w.is_empty() { 2 } else { 3 })
            .flatten()
    }
}

/// A word respelt: where it starts in the printed text, as printed, and as
/// read.
type Respelt = (usize, String, String);

/// The database's words, counted, and its cards' names' words.
#[derive(Clone, Debug, Default)]
pub struct Spelling {
    /// Each word (a run of ASCII letters) as written, with how many times
    /// the database's texts write it.
    counts: HashMap<String, u32>,
    /// Lowercase words written at least [`COMMON`] times.
    common: ByLength,
    /// The words of every card's name, lowercase: never respelt.
    names: HashSet<String>,
}

/// The words of keywords' names (`Critical`, `Hit`, `Deflect`, ...), of
/// five letters or more: the engine's and the glossary's, as the lexer
/// knows them (`lex::keyword_names`).
fn keyword_words() -> &'static ByLength {
    static WORDS: std::sync::OnceLock<ByLength> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let mut out: Vec<String> = super::lex::keyword_names()
            .iter()
            .flat_map(|(words, _)| words)
            .flat_map(|n| letter_runs(n).map(|(_, w)| capitalised(w)))
            .filter(|w| w.len() >= SHORTEST_KEYWORD)
            .collect();
        out.sort();
        out.dedup();
        ByLength::of(out)
    })
}

/// The keyword's word `w` is one letter off, when exactly one (`None`
/// for a keyword's word itself), remembered per thread: the same words
/// come again in every card.
fn keyword_meant(w: &str) -> Option<&'static String> {
    thread_local! {
        static MEANT: std::cell::RefCell<rustc_hash::FxHashMap<String, Option<&'static String>>> =
            Default::default();
    }
    if let Some(m) = MEANT.with_borrow(|c| c.get(w).copied()) {
        return m;
    }
    let kw = keyword_words();
    let mut found = kw
        .near(w)
        .filter(|c| one_letter_off(w, c) && !a_form_of(w, c));
    let m = match (kw.contains(w), found.next(), found.next()) {
        (false, Some(one), None) => Some(one),
        _ => None,
    };
    MEANT.with_borrow_mut(|c| c.insert(w.to_string(), m));
    m
}

fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    c.next().map_or(String::new(), |f| {
        f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase()
    })
}

/// Runs of ASCII letters, with where each starts.
fn letter_runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !b[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        Some((start, &text[start..i]))
    })
}

/// Whether two words are one letter apart: one added or dropped, one
/// changed, or two neighbours swapped (an edit distance of 1, in the
/// optimal-string-alignment sense). ASCII words; linear in their length.
fn one_letter_off(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    // One edit leaves the first letter or the last one as it was (words
    // of three letters or more): most pairs are told apart here.
    if a.len() >= 3 && b.len() >= 3 && a[0] != b[0] && a.last() != b.last() {
        return false;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // The common start and end, then what is left between them.
    let pre = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    if pre == long.len() {
        return false;
    }
    let post = short[pre..]
        .iter()
        .rev()
        .zip(long[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (s, l) = (
        &short[pre..short.len() - post],
        &long[pre..long.len() - post],
    );
    match (s.len(), l.len()) {
        // One added, or one changed.
        (0, 1) | (1, 1) => true,
        // Two neighbours swapped.
        (2, 2) => s[0] == l[1] && s[1] == l[0],
        _ => false,
    }
}

/// Whether one word is the other with an ending a word may take (`units`,
/// `tapped`, `attacker`): two right spellings, not a misspelling.
fn a_form_of(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    long.len() == short.len() + 1
        && long.starts_with(short)
        && long.ends_with(['s', 'd', 'r', 'n', 'y', 'e'])
}

impl Spelling {
    /// The spelling of a database: its texts' words, and its cards' names.
    pub fn of<'t>(
        texts: impl IntoIterator<Item = &'t str>,
        names: impl IntoIterator<Item = &'t str>,
    ) -> Spelling {
        let mut seen: HashMap<&str, u32> = HashMap::new();
        for t in texts {
            for (_, w) in letter_runs(t) {
                *seen.entry(w).or_default() += 1;
            }
        }
        let counts: HashMap<String, u32> =
            seen.into_iter().map(|(w, n)| (w.to_string(), n)).collect();
        let common = ByLength::of(
            counts
                .iter()
                .filter(|(w, n)| **n >= COMMON && w.bytes().all(|b| b.is_ascii_lowercase()))
                .map(|(w, _)| w.clone()),
        );
        let names = names
            .into_iter()
            .flat_map(|n| letter_runs(n).map(|(_, w)| w.to_ascii_lowercase()))
            .collect();
        Spelling {
            counts,
            common,
            names,
        }
    }

    /// How many times the database's texts write `w` as it is.
    pub(super) fn count(&self, w: &str) -> u32 {
        self.counts.get(w).copied().unwrap_or(0)
    }

    /// The word `w` means, when it is misspelt: one letter off (added,
    /// dropped, changed, or two neighbours swapped) from exactly one word
    /// it could mean, and no word of `own` (the unit's own names) or of a
    /// card's name.
    fn meant(&self, w: &str, own: &[String], common: bool) -> Option<String> {
        let one_off = |c: &&String| one_letter_off(w, c) && !a_form_of(w, c);
        let first_upper = w.starts_with(|c: char| c.is_ascii_uppercase());
        let rest_lower = w[1..].bytes().all(|b| b.is_ascii_lowercase());
        let found: Vec<&String> = if first_upper && rest_lower && w.len() >= SHORTEST_KEYWORD {
            keyword_meant(w).into_iter().collect()
        } else if common
            && w.len() >= SHORTEST
            && w.bytes().all(|b| b.is_ascii_lowercase())
            // A word the database writes often is no misspelling (a
            // keyword's name is one however often it is misspelt).
            && self.counts.get(w).copied().unwrap_or(0) <= RARE
        {
            self.common.near(w).filter(one_off).collect()
        } else {
            return None;
        };
        let [one] = found.as_slice() else {
            return None;
        };
        let own_word = own
            .iter()
            .any(|n| letter_runs(n).any(|(_, x)| x.eq_ignore_ascii_case(w)));
        if own_word || self.names.contains(&w.to_ascii_lowercase()) {
            return None;
        }
        Some((*one).clone())
    }

    /// `text` with each misspelt word written as the word it means, and
    /// the changes (misspelt, meant) in order; `None` when no word is
    /// misspelt. Keywords' names only, or common words too (`common`).
    pub fn respell(
        &self,
        text: &str,
        own: &[String],
        common: bool,
    ) -> Option<(String, Vec<(String, String)>)> {
        self.respelt(text, own, common)
            .map(|(t, c)| (t, c.into_iter().map(|(_, w, m)| (w, m)).collect()))
    }

    /// [`Self::respell`], each change with where its word starts in `text`.
    fn respelt(&self, text: &str, own: &[String], common: bool) -> Option<(String, Vec<Respelt>)> {
        let mut out = String::with_capacity(text.len());
        let mut changes = Vec::new();
        let mut at = 0;
        for (start, w) in letter_runs(text) {
            if let Some(m) = self.meant(w, own, common) {
                out.push_str(&text[at..start]);
                out.push_str(&m);
                at = start + w.len();
                changes.push((start, w.to_string(), m));
            }
        }
        if changes.is_empty() {
            return None;
        }
        out.push_str(&text[at..]);
        Some((out, changes))
    }
}

/// The pieces of a text, each as printed: `split` cuts the text with
/// keywords' names respelt (a misspelt keyword is where an ability
/// starts or ends, as the rightly spelt one is), and each piece is then
/// taken from the printed text where it is found there (the reading says
/// which word it read as which); a piece not found is kept as cut.
pub(super) fn split_as_printed(
    spelling: &Spelling,
    text: &str,
    own: &[String],
    split: impl Fn(&str) -> Vec<String>,
) -> Vec<String> {
    let Some((fixed, changes)) = spelling.respelt(text, own, false) else {
        return split(text);
    };
    // A position in `fixed` as one in `text`.
    let printed_at = |p: usize| -> usize {
        let mut delta: isize = 0;
        for (at, from, to) in &changes {
            let start = at.saturating_add_signed(delta);
            if p <= start {
                break;
            }
            if p < start + to.len() {
                return at + (p - start).min(from.len());
            }
            delta += to.len() as isize - from.len() as isize;
        }
        p.saturating_add_signed(-delta)
    };
    let mut from = 0;
    split(&fixed)
        .into_iter()
        .map(|piece| match fixed[from..].find(&piece) {
            Some(i) => {
                let (s, e) = (from + i, from + i + piece.len());
                from = e;
                text.get(printed_at(s)..printed_at(e))
                    .map_or(piece, str::to_string)
            }
            None => piece,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::text::{Class, Effect, Reading, lex::Lexicon, read_abilities_among};

    fn db(texts: &[&str], names: &[&str]) -> Spelling {
        Spelling::of(texts.iter().copied(), names.iter().copied())
    }

    #[test]
    fn a_keyword_one_letter_off_is_the_keyword() {
        let s = Spelling::default();
        let fixed = |t: &str| s.respell(t, &[], false).map(|(t, _)| t);
        assert_eq!(
            fixed("Pay 1 Force -> Defelct 1").as_deref(),
            Some("Pay 1 Force -> Deflect 1")
        );
        assert_eq!(
            fixed("Pay 1 Force -> Defect 1").as_deref(),
            Some("Pay 1 Force -> Deflect 1")
        );
        assert_eq!(fixed("Crtiical Hit 2").as_deref(), Some("Critical Hit 2"));
        assert_eq!(
            fixed("Sheilds 1 and Evdae 2").as_deref(),
            Some("Shields 1 and Evade 2")
        );
        assert_eq!(fixed("Armour").as_deref(), Some("Armor"));
        // Right already, a form of a keyword's word, too short, or not
        // one letter off: left.
        for t in [
            "Deflect 1",
            "Shield 1",
            "Evaded",
            "Luck 2",
            "Fuyr 2",
            "Dfeelct 1",
        ] {
            assert_eq!(fixed(t), None, "{t}");
        }
    }

    #[test]
    fn a_name_is_never_respelt() {
        // `Parry` is a keyword; `Barry` a card's name here, and `Harry`
        // the unit's own.
        let s = db(&[], &["Barry Tallon (A)"]);
        assert_eq!(s.respell("Barry gets Parry 1", &[], false), None);
        assert_eq!(
            s.respell("Harry gets Parry 1", &["Harry".into()], false),
            None
        );
        assert!(s.respell("Harry gets Parry 1", &[], false).is_some());
    }

    #[test]
    fn a_rare_word_near_a_common_one_is_respelt_only_when_asked() {
        let common = ["each of your unique units gets Lucky 1"; COMMON as usize];
        let mut texts: Vec<&str> = common.to_vec();
        texts.push("each of your unqiue units gets Lucky 1");
        let s = db(&texts, &[]);
        let t = "each of your unqiue units";
        assert_eq!(s.respell(t, &[], false), None);
        assert_eq!(
            s.respell(t, &[], true),
            Some((
                "each of your unique units".into(),
                vec![("unqiue".into(), "unique".into())]
            ))
        );
        // A word the database writes often is its own word; a form of a
        // common word (`uniques`) is a word too.
        let mut often = texts.clone();
        often.extend(["unqiue"; 3]);
        assert_eq!(db(&often, &[]).respell(t, &[], true), None);
        assert_eq!(s.respell("your uniques", &[], true), None);
    }

    #[test]
    fn one_letter_off_is_an_edit_distance_of_one() {
        // Against strsim's optimal string alignment, on every pair of a
        // few words and their one-letter changes.
        let mut words: Vec<String> = ["Deflect", "unique", "your", "aa", "abba", "Evade"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        for w in words.clone() {
            for i in 0..w.len() {
                let mut b = w.clone().into_bytes();
                b.remove(i);
                words.push(String::from_utf8(b).unwrap());
                let mut b = w.clone().into_bytes();
                b[i] = b'x';
                words.push(String::from_utf8(b).unwrap());
                if i + 1 < w.len() {
                    let mut b = w.clone().into_bytes();
                    b.swap(i, i + 1);
                    words.push(String::from_utf8(b).unwrap());
                }
            }
        }
        for a in &words {
            for b in &words {
                assert_eq!(
                    one_letter_off(a, b),
                    strsim::osa_distance(a, b) == 1,
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn forms_are_words() {
        assert!(a_form_of("units", "unit"));
        assert!(a_form_of("tapped", "tappe"));
        assert!(!a_form_of("yourt", "your"));
        assert!(!a_form_of("unqiue", "unique"));
    }

    #[test]
    fn abilities_cut_and_read_as_respelt_keep_their_printed_text() {
        let lx = std::sync::Arc::new(Lexicon::default());
        let read = read_abilities_among(
            "Sheilds 1 Bobmard 8 INSERT: Overkill",
            &["Imperious (A)", "Capital Ship"],
            false,
            &lx,
        );
        let texts: Vec<&str> = read.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(texts, ["Sheilds 1", "Bobmard 8", "INSERT: Overkill"]);
        assert!(
            read.iter().all(|a| a.class() == Class::Keyword),
            "{read:#?}"
        );
        let Reading::Keyword(g) = &read[1].reading else {
            panic!()
        };
        let Effect::Keyword { ability, .. } = &g.effects[0] else {
            panic!("{g:?}")
        };
        assert_eq!(ability.to_string(), "Bombard 8");
        assert_eq!(read[1].clauses[0].rule, "spelling");
        assert_eq!(read[1].clauses[0].how, "'Bobmard' read as 'Bombard'");
        assert_eq!(
            g.note.as_deref(),
            Some("misspelt: 'Bobmard' read as 'Bombard'")
        );
    }

    #[test]
    fn a_keyword_misspelt_in_a_list_of_grants_is_not_dropped() {
        let lx = std::sync::Arc::new(Lexicon::default());
        let read = read_abilities_among(
            "Each of your Naboo units gets Fury 1 and Acucracy 1.",
            &["Queen Amidala (J)", "Naboo Diplomat"],
            true,
            &lx,
        );
        let Reading::Condition(c) = &read[0].reading else {
            panic!("{read:?}")
        };
        let effects: Vec<String> = c
            .grant
            .effects
            .iter()
            .map(|e| match e {
                Effect::Keyword { ability, .. } => ability.to_string(),
                e => format!("{e:?}"),
            })
            .collect();
        assert_eq!(effects, ["Fury 1", "Accuracy 1"]);
    }
}
