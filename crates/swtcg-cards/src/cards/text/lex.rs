//! One token stream per ability text: words, numbers, arrows, quotes and
//! punctuation, each with its span; then the glossary's keywords, the
//! unit's own names (`THIS`) and other cards' names (from the card
//! database) found over the words, longest first.
//!
//! The reader's rules read the text this stream renders ([`mark`]): the
//! unit's own names written `THIS`, every other token as it was. Because a
//! keyword is found before names are, a unit whose name holds a keyword
//! word (`Shield Generator`, `Armor Squad`) keeps its keywords; because
//! other cards' names are found too, a unit named in part like another
//! card (`Luke Skywalker` beside `Luke Skywalker's X-wing`) does not take
//! that card for itself.

use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A word (letters and digits, with `-`, `'` or `_` inside).
    Word,
    /// A number, with its sign when it has one (`2`, `+2`, `-1`, `+X`).
    Number,
    /// A cost arrow in any of its forms (`->`, `-->`, `- >`, `=>`).
    Arrow,
    /// A double quote.
    Quote,
    /// Punctuation (`,`, `.`, `;`, `:`, `(`, `)`, `*`, `/`, a list dash, ...).
    Punct,
    /// The unit itself: one of its names, or `this unit` / `this card` /
    /// `this <Type>`.
    This,
    /// Another card's name (from the card database).
    Card,
    /// A keyword of the glossary, by name (its value is the next token).
    Keyword,
}

/// One token: its kind and where it is in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Its bytes in the text.
    pub span: Range<usize>,
}

/// Other cards' names, as the card database knows them: every name of two
/// words or more (a one-word name never outweighs the unit's own names,
/// which win ties).
#[derive(Clone, Debug, Default)]
pub struct Lexicon {
    /// Each name as its words, grouped by first word.
    by_first: std::collections::HashMap<String, Vec<Vec<String>>>,
    /// The database's words, for misspelt ones (see [`super::spelling`]).
    pub(super) spelling: super::spelling::Spelling,
}

impl Lexicon {
    /// The lexicon of these card names (full names; versions and print
    /// tags are taken off).
    pub fn of_names<'n>(names: impl IntoIterator<Item = &'n str>) -> Lexicon {
        let mut lx = Lexicon::default();
        for n in names {
            let base = super::ascii_only(crate::cards::base_name(n));
            let words = word_texts(&base);
            if words.len() < 2 {
                continue;
            }
            let e = lx.by_first.entry(words[0].clone()).or_default();
            if !e.contains(&words) {
                e.push(words);
            }
        }
        for v in lx.by_first.values_mut() {
            v.sort_by_key(|w| std::cmp::Reverse(w.len()));
        }
        lx
    }

    /// The longest name starting at word `i` of `words`: its length in
    /// words.
    pub(super) fn longest_at(&self, words: &[&str], i: usize) -> usize {
        let Some(cands) = self.by_first.get(words[i]) else {
            return 0;
        };
        cands
            .iter()
            .find(|c| matches_words(c, &words[i..]))
            .map_or(0, Vec::len)
    }

    /// The lexicon with the spelling of a database: `texts` are its
    /// cards' texts, `names` its cards' names.
    pub fn with_spelling<'t>(
        mut self,
        texts: impl IntoIterator<Item = &'t str>,
        names: impl IntoIterator<Item = &'t str>,
    ) -> Lexicon {
        self.spelling = super::spelling::Spelling::of(texts, names);
        self
    }

    /// Whether it knows no name.
    pub fn is_empty(&self) -> bool {
        self.by_first.is_empty()
    }
}

/// The words of a name, as the scanner cuts them.
pub(super) fn word_texts(text: &str) -> Vec<String> {
    scan(text)
        .into_iter()
        .filter(|t| t.kind == Kind::Word || t.kind == Kind::Number)
        .map(|t| text[t.span].to_string())
        .collect()
}

/// Whether `name`'s words start `words` (the last word may carry a
/// possessive, which the scanner cut off already).
fn matches_words(name: &[String], words: &[&str]) -> bool {
    name.len() <= words.len() && name.iter().zip(words).all(|(n, w)| n == w)
}

/// The raw tokens of a text: words, numbers, arrows, quotes, punctuation.
/// A possessive (`'s`, or `'` after an `s`) is a word of its own, so that
/// `Vader's` holds the name `Vader`. Any text is read (letters beyond
/// ASCII are word letters; curly quotes are quotes); nothing is dropped
/// but spaces.
pub fn scan(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let tok = |kind, span| Token { kind, span };
    while i < b.len() {
        let Some(ch) = text[i..].chars().next() else {
            break;
        };
        let c = b[i];
        if ch.is_whitespace() {
            i += ch.len_utf8();
            continue;
        }
        let prev_word = text[..i].chars().next_back().is_some_and(word_char);
        // Arrows: `-->`, `->`, `- >`, `=>`, `→`.
        if let Some(arrow) = ["-->", "->", "- >", "=>", "\u{2192}"]
            .iter()
            .find(|a| text[i..].starts_with(*a))
        {
            out.push(tok(Kind::Arrow, i..i + arrow.len()));
            i += arrow.len();
            continue;
        }
        // Signed numbers: `+2`, `-1`, `+X`, `+ 1` (a space after the sign).
        if (c == b'+' || c == b'-') && !prev_word {
            let mut j = i + 1;
            if c == b'+' {
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
            }
            let digits = j < b.len() && b[j].is_ascii_digit();
            let x = j < b.len()
                && (b[j] == b'X' || b[j] == b'x')
                && !text[j + 1..].chars().next().is_some_and(word_char);
            if digits || x {
                let mut k = j + 1;
                while digits && k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                out.push(tok(Kind::Number, i..k));
                i = k;
                continue;
            }
        }
        if c.is_ascii_digit() {
            let mut k = i;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            // `2nd`, `1st`: a word.
            if text[k..].chars().next().is_some_and(char::is_alphabetic) {
                let end = word_end(text, k);
                out.push(tok(Kind::Word, i..end));
                i = end;
                continue;
            }
            out.push(tok(Kind::Number, i..k));
            i = k;
            continue;
        }
        if word_char(ch) {
            let end = word_end(text, i);
            // A possessive is its own word: `Vader` `'s`, `Jedis` `'`.
            let w = &text[i..end];
            if let Some(stem) = w.strip_suffix("'s").or_else(|| w.strip_suffix("'S"))
                && !stem.is_empty()
            {
                let cut = i + stem.len();
                out.push(tok(Kind::Word, i..cut));
                out.push(tok(Kind::Word, cut..end));
            } else if w.len() > 1 && w.ends_with('\'') {
                out.push(tok(Kind::Word, i..end - 1));
                out.push(tok(Kind::Word, end - 1..end));
            } else {
                out.push(tok(Kind::Word, i..end));
            }
            i = end;
            continue;
        }
        let kind = if matches!(ch, '"' | '\u{201c}' | '\u{201d}') {
            Kind::Quote
        } else {
            Kind::Punct
        };
        out.push(tok(kind, i..i + ch.len_utf8()));
        i += ch.len_utf8();
    }
    out
}

/// Whether a character can be inside a word.
fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where a word that starts at `i` ends: word characters, with `-`, `'`
/// inside it.
fn word_end(text: &str, i: usize) -> usize {
    let mut k = i;
    let mut chars = text[i..].char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        if word_char(c) {
            k = i + at + c.len_utf8();
        } else if matches!(c, '-' | '\'') && next.is_some_and(word_char) {
            k = i + at + 1;
        } else if c == '\'' {
            // A closing possessive (`Jedis'`), not a closing quote.
            let s_before = text[..i + at].ends_with(['s', 'S']) && i + at > i;
            if s_before && !next.is_some_and(word_char) {
                k = i + at + 1;
            }
            break;
        } else {
            break;
        }
    }
    k
}

/// How the text names its own unit, and the other cards it may name.
pub struct Names<'a> {
    /// The unit's names, full name first (see [`super::self_names_with`]).
    pub own: &'a [String],
    /// Other cards' names.
    pub others: &'a Lexicon,
}

/// Words after `this` that name the unit itself (`this unit`, `this
/// Starfighter`).
const THIS_KINDS: &[&str] = &[
    "unit",
    "units",
    "card",
    "character",
    "starfighter",
    "capital ship",
    "space unit",
    "transport",
    "patrol ship",
    "speeder",
    "creature",
    "walker",
    "squadron",
];

/// Words before a name that make it a kind of unit (`each other Jawa`, `a
/// Scurrier`), not this unit.
const KIND_BEFORE: &[&str] = &[
    "other", "each", "another", "every", "a", "an", "any", "non", "your",
];

/// A capitalised word starting a sentence may be a verb, not a name: `Roll
/// Sidious's attack dice`.
pub(super) const VERBS: &[&str] = &[
    "Roll", "Pay", "Discard", "Put", "Prevent", "Tap", "Untap", "Remove", "Choose", "Search",
    "Draw", "Gain", "Reveal", "Each", "When", "Whenever", "As", "If", "Treat", "Retreat", "Move",
    "Return", "Take", "Show", "Look", "Damage", "Then", "Play", "Only", "Attach", "Stack", "While",
    "Until", "For", "Your", "All", "Give",
];

/// The glossary's keyword names, as words, longest first, with whether
/// each takes a number.
pub(super) fn keyword_names() -> &'static [(Vec<String>, bool)] {
    static K: std::sync::OnceLock<Vec<(Vec<String>, bool)>> = std::sync::OnceLock::new();
    K.get_or_init(|| {
        use swtcg_engine::keywords::{NAMES, Value};
        let mut v: Vec<(Vec<String>, bool)> = NAMES
            .iter()
            .map(|(n, _, value)| {
                let numbered = matches!(value, Value::Count | Value::Signed | Value::SignedPlus);
                (word_texts(n), numbered)
            })
            .collect();
        for (n, value) in super::words::GLOSSARY_ONLY {
            v.push((word_texts(n), *value == super::words::GlossaryValue::Number));
        }
        v.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        v
    })
}

/// Whether the text names one of the engine's keywords, capitalised as a
/// keyword is (`Fury 3`, `Armor`; a Stack list aside): text that does is
/// never "nothing an attack reads".
pub(super) fn names_an_engine_keyword(text: &str) -> bool {
    static K: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    let names = K.get_or_init(|| {
        swtcg_engine::keywords::NAMES
            .iter()
            .filter(|(_, canonical, _)| *canonical != "Stack")
            .map(|(n, _, _)| word_texts(n))
            .collect()
    });
    let raw = scan(text);
    let words: Vec<&str> = raw.iter().map(|t| &text[t.span.clone()]).collect();
    (0..words.len()).any(|i| {
        raw[i].kind == Kind::Word
            && words[i].starts_with(|c: char| c.is_ascii_uppercase())
            && names.iter().any(|n| {
                n.len() <= words.len() - i
                    && n.iter()
                        .zip(&words[i..])
                        .all(|(a, b)| a.eq_ignore_ascii_case(b))
            })
    })
}

/// The keyword name starting at word `i`: its length in words and whether
/// its value (a number, or X) follows it.
fn keyword_at(
    words: &[&str],
    i: usize,
    value_after: impl Fn(usize) -> bool,
) -> Option<(usize, bool)> {
    let first = words[i];
    if !first.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    keyword_names().iter().find_map(|(k, numbered)| {
        let hit = k.len() <= words.len() - i
            && k.iter()
                .zip(&words[i..])
                .all(|(a, b)| a.eq_ignore_ascii_case(b));
        hit.then(|| (k.len(), *numbered && value_after(i + k.len())))
    })
}

/// The tokens of an ability's text, with keywords, the unit's names and
/// other cards' names found.
pub fn tokens(text: &str, names: &Names) -> Vec<Token> {
    let raw = scan(text);
    // Positions of word tokens, for matching names word by word.
    let words: Vec<&str> = raw.iter().map(|t| &text[t.span.clone()]).collect();
    // A name of no words (one of letters the text can't hold, `ÓÓÓ`
    // folded to nothing) names nothing.
    let own: Vec<Vec<String>> = names
        .own
        .iter()
        .map(|n| word_texts(n))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<Token> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if let Some(end) = quoted_own_at(text, &raw, &words, &own, i) {
            out.push(Token {
                kind: Kind::This,
                span: raw[i].span.start..raw[end].span.end,
            });
            i = end + 1;
            continue;
        }
        if raw[i].kind != Kind::Word {
            out.push(raw[i].clone());
            i += 1;
            continue;
        }
        // Words `a` and `b` = a + 1 are adjacent with only spaces between.
        let joined = |a: usize, b: usize| spaces_only(text, &raw, a, b);
        let run_ok = |len: usize| (i..i + len - 1).all(|k| joined(k, k + 1));
        // `this unit`, `this Starfighter`.
        if words[i].eq_ignore_ascii_case("this")
            && let Some(len) = THIS_KINDS.iter().find_map(|k| {
                let kw: Vec<&str> = k.split(' ').collect();
                (i + kw.len() < words.len()
                    && kw
                        .iter()
                        .zip(&words[i + 1..])
                        .all(|(a, b)| a.eq_ignore_ascii_case(b))
                    && raw[i + 1..=i + kw.len()]
                        .iter()
                        .all(|t| t.kind == Kind::Word))
                .then_some(kw.len() + 1)
            })
        {
            out.push(Token {
                kind: Kind::This,
                span: raw[i].span.start..raw[i + len - 1].span.end,
            });
            i += len;
            continue;
        }
        let value_after = |j: usize| {
            raw.get(j).is_some_and(|t| {
                t.kind == Kind::Number
                    || (t.kind == Kind::Word && words[j].eq_ignore_ascii_case("x"))
            })
        };
        let kw = keyword_at(&words, i, value_after).filter(|(len, _)| run_ok(*len));
        let other = names.others.longest_at(&words, i);
        let other = if other > 0 && run_ok(other) { other } else { 0 };
        let this = own_at(text, &raw, &words, &own, i, kw, &run_ok);
        let kw_len = kw.map_or(0, |(l, _)| l);
        // The longest wins; the unit's own names win ties with other
        // cards' names, keywords win ties with both.
        let best = this.max(other).max(kw_len);
        let (kind, len) = if best == 0 {
            (Kind::Word, 1)
        } else if kw_len == best {
            (Kind::Keyword, kw_len)
        } else if this == best {
            (Kind::This, this)
        } else {
            (Kind::Card, other)
        };
        out.push(Token {
            kind,
            span: raw[i].span.start..raw[i + len - 1].span.end,
        });
        i += len;
    }
    out
}

/// Whether only spaces (or nothing) stand between tokens `a` and `b`.
fn spaces_only(text: &str, raw: &[Token], a: usize, b: usize) -> bool {
    text[raw[a].span.end..raw[b].span.start]
        .bytes()
        .all(|c| c == b' ')
}

/// One of the unit's own names written with a word or two of it between
/// quotes, as a nickname (`"Reb" Squadron` for Reb Squadron): the last
/// token of the longest such name starting at the quote at `i`. The
/// quoted words must be followed by the rest of the name (a name quoted
/// whole, `with "Skywalker" in its name`, is a word to look for in names,
/// not the unit), each word of it a word token, separated by spaces only.
fn quoted_own_at(
    text: &str,
    raw: &[Token],
    words: &[&str],
    own: &[Vec<String>],
    i: usize,
) -> Option<usize> {
    if raw[i].kind != Kind::Quote {
        return None;
    }
    // The closing quote, after one to three words.
    let close = (i + 2..raw.len().min(i + 5)).find(|&k| raw[k].kind == Kind::Quote)?;
    if raw[i + 1..close].iter().any(|t| t.kind != Kind::Word) {
        return None;
    }
    let quoted = &words[i + 1..close];
    let spaces = |a: usize, b: usize| spaces_only(text, raw, a, b);
    own.iter()
        .filter(|name| name.len() > quoted.len())
        .filter_map(|name| {
            let (head, rest) = name.split_at(quoted.len());
            let after = close + 1;
            let end = after + rest.len() - 1;
            let fits = head.iter().zip(quoted).all(|(n, w)| n == w)
                && end < raw.len()
                && raw[after..=end].iter().all(|t| t.kind == Kind::Word)
                && rest.iter().zip(&words[after..=end]).all(|(n, w)| n == w)
                && (close..end).all(|k| spaces(k, k + 1))
                && (i + 1..close - 1).all(|k| spaces(k, k + 1));
            fits.then_some(end)
        })
        .max()
}

/// The longest of the unit's own names at word `i` that names it there
/// (0: none). A keyword at `i` takes precedence over every name no longer
/// than itself; a short form (every name but the full one) is not the
/// unit next to another capitalised word (`Anakin Skywalker` in Luke's
/// text), nor after a word that makes it a kind (`each other Jawa`).
fn own_at(
    text: &str,
    raw: &[Token],
    words: &[&str],
    own: &[Vec<String>],
    i: usize,
    kw: Option<(usize, bool)>,
    run_ok: &dyn Fn(usize) -> bool,
) -> usize {
    let prev = (i > 0).then(|| i - 1);
    let prev_word = prev
        .filter(|&p| raw[p].kind == Kind::Word)
        .map(|p| words[p]);
    if prev_word.is_some_and(|w| KIND_BEFORE.contains(&w.to_ascii_lowercase().as_str())) {
        return 0;
    }
    for (n, name) in own.iter().enumerate() {
        let full = n == 0;
        let mut len = 0;
        let mut plural = false;
        if matches_words(name, &words[i..]) && run_ok(name.len()) {
            len = name.len();
        } else if name.len() == 1 && name[0].len() >= 4 && words[i] == format!("{}s", name[0]) {
            // `Vaders gets`: a plural typo of a one-word name.
            len = 1;
            plural = true;
        }
        if len == 0
            || raw[i..i + len]
                .iter()
                .any(|t| !matches!(t.kind, Kind::Word | Kind::Number))
        {
            continue;
        }
        // A name alone between quotes (`with "Skywalker" in its name`) is
        // a word to look for in names, not the unit.
        if i > 0
            && raw[i - 1].kind == Kind::Quote
            && raw.get(i + len).is_some_and(|t| t.kind == Kind::Quote)
        {
            return 0;
        }
        // A keyword no shorter than the name is the keyword (`Shields 1`
        // in Shield Generator's text, `Armor` in Armor Squad's); a
        // one-word full name that is a keyword is the keyword only with
        // its value after it.
        if let Some((kl, valued)) = kw
            && kl >= len
            && (!full || valued || kl > len)
        {
            return 0;
        }
        // A short form, or a one-word name, next to another name is part
        // of that name (`Anakin Skywalker` in Luke's text, `Galactic
        // Alliance` in Alliance's).
        if (!full || plural || len == 1) && next_to_a_name(text, raw, words, i, len) {
            continue;
        }
        return len;
    }
    0
}

/// Whether the words `i..i + len` stand next to another capitalised word
/// (`Anakin Skywalker`), which makes them part of another name.
fn next_to_a_name(text: &str, raw: &[Token], words: &[&str], i: usize, len: usize) -> bool {
    // A title (`Master Yoda`) is not another name.
    let cap = |k: usize| {
        raw[k].kind == Kind::Word
            && words[k].len() > 1
            && words[k].starts_with(|c: char| c.is_ascii_uppercase())
            && words[k] != "THIS"
            && !super::names::TITLES.contains(&words[k].to_ascii_lowercase().as_str())
    };
    let spaced = |a: usize, b: usize| {
        let gap = &text[raw[a].span.end..raw[b].span.start];
        !gap.is_empty() && gap.bytes().all(|c| c == b' ')
    };
    let end = i + len;
    let next = end < raw.len() && cap(end) && spaced(end - 1, end);
    let prev = i > 0 && cap(i - 1) && spaced(i - 1, i) && {
        // A capitalised word starting a sentence may be a verb.
        let p = i - 1;
        let sentence_start = p == 0
            || matches!(raw[p - 1].kind, Kind::Arrow | Kind::Quote)
            || (raw[p - 1].kind == Kind::Punct
                && matches!(&text[raw[p - 1].span.clone()], "." | ":" | ";" | "'"));
        !(sentence_start && VERBS.contains(&words[p]))
    };
    next || prev
}

/// The text with the unit's own names written `THIS`, everything else as
/// it was.
pub fn render(text: &str, tokens: &[Token]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for t in tokens {
        out.push_str(&text[at..t.span.start]);
        match t.kind {
            Kind::This => out.push_str("THIS"),
            _ => out.push_str(&text[t.span.clone()]),
        }
        at = t.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// [`render`] of [`tokens`]: the text as the rules read it.
pub fn mark(text: &str, names: &Names) -> String {
    render(text, &tokens(text, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(name: &str) -> Vec<String> {
        super::super::self_names(name)
    }

    fn marked(text: &str, name: &str, others: &[&str]) -> String {
        let lx = Lexicon::of_names(others.iter().copied());
        let own = own(name);
        mark(
            text,
            &Names {
                own: &own,
                others: &lx,
            },
        )
    }

    /// A name the text can't hold (letters folded to nothing) names
    /// nothing, and reading goes on (the set-file fuzz target's first
    /// crash: an empty name matched at the first word, and its length
    /// less one overflowed).
    #[test]
    fn a_name_of_no_words_names_nothing() {
        let lx = Lexicon::of_names(std::iter::empty::<&str>());
        for own in [
            vec![String::new()],
            vec![" ".to_string(), "Bob".to_string()],
        ] {
            let names = Names {
                own: &own,
                others: &lx,
            };
            assert_eq!(mark("Evade 1", &names), "Evade 1");
            assert_eq!(
                mark("Bob gets +1 power", &names).starts_with("THIS"),
                own.len() > 1
            );
        }
    }

    /// A name written with a nickname between quotes is the unit; a name
    /// quoted whole, or quoted words followed by anything but the rest of
    /// the name, is not.
    #[test]
    fn a_name_with_a_quoted_nickname_is_the_unit() {
        let lx = Lexicon::of_names(std::iter::empty::<&str>());
        let own = vec!["Reb Squadron".to_string(), "Skywalker".to_string()];
        let names = Names {
            own: &own,
            others: &lx,
        };
        for (text, marked) in [
            (
                "As long as \"Reb\" Squadron has a Pilot, \u{201c}Reb\u{201d} Squadron gets Lucky 1.",
                "As long as THIS has a Pilot, THIS gets Lucky 1.",
            ),
            ("\"Reb\" Squadron's attack", "THIS's attack"),
            // Not the rest of the name after the quote.
            ("\"Reb\" Jedi gets +1 power", "\"Reb\" Jedi gets +1 power"),
            ("\"Reb\", Squadron", "\"Reb\", Squadron"),
            // A name quoted whole is a word to look for.
            (
                "a unit with \"Skywalker\" in its name",
                "a unit with \"Skywalker\" in its name",
            ),
            ("\"Reb Squadron\" gets", "\"Reb Squadron\" gets"),
            // An unclosed quote.
            ("\"Reb Squadron gets", "\"THIS gets"),
        ] {
            assert_eq!(mark(text, &names), marked, "{text}");
        }
    }

    #[test]
    fn keywords_are_not_names() {
        assert_eq!(marked("Shields 1", "Shield Generator", &[]), "Shields 1");
        assert_eq!(
            marked("Armor. Critical Hit 1", "Armor Squad", &[]),
            "Armor. Critical Hit 1"
        );
        assert_eq!(
            marked("Armor Squad gets +1 power", "Armor Squad", &[]),
            "THIS gets +1 power"
        );
        assert_eq!(marked("Lucky 2", "Lucky and Ari", &[]), "Lucky 2");
        assert_eq!(
            marked("Untap Lucky and Ari", "Lucky and Ari", &[]),
            "Untap THIS"
        );
    }

    #[test]
    fn other_cards_are_not_this() {
        let others = ["Luke Skywalker (A)", "Jaina Solo (B)"];
        assert_eq!(
            marked(
                "As long as Luke Skywalker is in the Space arena, Luke's X-wing gets +1 power",
                "Luke's X-wing",
                &others
            ),
            "As long as Luke Skywalker is in the Space arena, THIS gets +1 power"
        );
        assert_eq!(
            marked(
                "Luke Skywalker gets +2 power",
                "Luke Skywalker (C)",
                &others
            ),
            "THIS gets +2 power"
        );
        assert_eq!(
            marked("Vader's attack dice", "Darth Vader (A)", &[]),
            "THIS's attack dice"
        );
        assert_eq!(
            marked("Anakin Skywalker gets +2 power", "Luke Skywalker (C)", &[]),
            "Anakin Skywalker gets +2 power"
        );
    }

    #[test]
    fn a_name_alone_in_quotes_is_a_word_to_look_for() {
        assert_eq!(
            marked(
                "Each of your units with \"Skywalker\" in its name gets +1 health",
                "Skywalker Family (A)",
                &[]
            ),
            "Each of your units with \"Skywalker\" in its name gets +1 health"
        );
        // Quoted text that is more than the name still names the unit.
        assert_eq!(
            marked(
                "Each Clone gets \"Pay 1 Force -> Rex gets +1 power.\"",
                "Captain Rex (B)",
                &[]
            ),
            "Each Clone gets \"Pay 1 Force -> THIS gets +1 power.\""
        );
    }

    #[test]
    fn any_text_is_scanned() {
        for t in [
            "Jedi: \u{201c}Pay 1 Force -> Deflect 1\u{201d}",
            "Padm\u{e9}'s \u{2192} +",
            "'''",
            "--",
            "+",
            "- >",
            "\u{2014}x\u{2013}",
        ] {
            let toks = scan(t);
            for w in toks.windows(2) {
                assert!(w[0].span.end <= w[1].span.start, "{t:?}");
            }
            for k in &toks {
                assert!(
                    t.is_char_boundary(k.span.start) && t.is_char_boundary(k.span.end),
                    "{t:?}"
                );
            }
        }
    }

    #[test]
    fn arrows_in_every_form() {
        for t in [
            "Pay 1 Force -> Evade 1",
            "Pay 1 Force - > Evade 1",
            "Pay 1 Force --> Evade 1",
            "Pay 1 Force => Evade 1",
        ] {
            let toks = scan(t);
            assert_eq!(
                toks.iter().filter(|t| t.kind == Kind::Arrow).count(),
                1,
                "{t}"
            );
        }
        let toks = scan("-+30 speed");
        assert_eq!(toks[0].kind, Kind::Punct);
        assert_eq!(toks[1].kind, Kind::Number);
    }
}
