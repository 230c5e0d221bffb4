//! The crate's error type: what is wrong with the input, and where.
//!
//! Every error keeps its origin: the flag or unit it is about, the file and
//! line and column of a JSON file, the file, row and column of a card file.
//! Its `Display` is one line of at most about 300 characters: quoted input is
//! cut to 80 characters and control characters are escaped, so a hostile
//! input never produces a huge or multi-line message.

use std::fmt;

/// Longest piece of user input quoted in a message.
pub(crate) const MAX_QUOTE: usize = 80;
/// Longest message (longer ones are cut).
pub(crate) const MAX_MESSAGE: usize = 300;

/// What went wrong: the kind of an error. Front-ends choose how to answer
/// from it (the web API's status, for one); no code reads an error's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// Text that can't be read as what it should be: a number, a range, a
    /// JSON document, a keyword's wording.
    Syntax,
    /// A name the tool doesn't know: a parameter, a flag's word, a keyword.
    Unknown,
    /// Something required is missing.
    Missing,
    /// Inputs that contradict each other, or one given twice.
    Conflict,
    /// A value outside what it may be (health 0, power above 1000).
    Range,
    /// Beyond the work or memory the solver allows.
    Limit,
    /// Rules the solver does not model.
    NotModelled,
    /// What the game's rules forbid (a stack, a pilot, an arena).
    Rules,
    /// No such card (or unit, or file entry).
    NotFound,
    /// A file or stream that can't be read or written.
    Io,
    /// A solve stopped at its deadline.
    Cancelled,
    /// A run stopped by its user (Ctrl-C, or a termination signal).
    Interrupted,
    /// What a front-end won't do (a web request naming files, a method it
    /// doesn't serve, a page of another site).
    Refused,
    /// A fault of the tool itself (a solve that failed where it should
    /// not have): never the input's.
    Internal,
}

/// Where an error comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Origin {
    /// Nowhere in particular.
    #[default]
    None,
    /// A parameter (an attack's `health`, a command's flag without `--`),
    /// with the value given when there is one.
    Param {
        /// Its name, as the flag without `--`.
        param: String,
        /// The value given.
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<String>,
    },
    /// A card file's row and column.
    Row {
        /// The file.
        file: String,
        /// The row (line number; 1 is the header).
        row: usize,
        /// The column's name.
        column: String,
    },
    /// A JSON document's line and column.
    Json {
        /// The file (or what the JSON is, such as `scenario`).
        file: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
    },
    /// A file or folder.
    Path {
        /// Its path.
        path: String,
    },
    /// A unit.
    Unit {
        /// Its name.
        unit: String,
    },
    /// A card's text.
    Card {
        /// The card.
        card: String,
    },
}

impl Origin {
    /// The same origin with every text in it cut to at most
    /// [`MAX_QUOTE`] characters (a path in its middle), so that an error
    /// never echoes a long input whole (the web API sends the origin).
    fn capped(self) -> Origin {
        let cut = |t: String| -> String {
            if t.chars().count() <= MAX_QUOTE {
                t
            } else {
                let mut c: String = t.chars().take(MAX_QUOTE).collect();
                c.push('…');
                c
            }
        };
        match self {
            Origin::None => Origin::None,
            Origin::Param { param, value } => Origin::Param {
                param: cut(param),
                value: value.map(cut),
            },
            Origin::Row { file, row, column } => Origin::Row {
                file: quote_middle(&file, MAX_QUOTE),
                row,
                column: cut(column),
            },
            Origin::Json { file, line, column } => Origin::Json {
                file: quote_middle(&file, MAX_QUOTE),
                line,
                column,
            },
            Origin::Path { path } => Origin::Path {
                path: quote_middle(&path, MAX_QUOTE),
            },
            Origin::Unit { unit } => Origin::Unit { unit: cut(unit) },
            Origin::Card { card } => Origin::Card { card: cut(card) },
        }
    }
}

/// An error for the user: its kind, its origin, and a message. Its
/// `Display` is one line of at most about 300 characters (`MAX_MESSAGE`): where
/// (the origin, and what it is said of) then what.
///
/// It is one pointer wide (its payload is boxed), so that a `Result<T,
/// Error>` costs no more than `T` and a word; an I/O or JSON cause is kept
/// as its [`source`](std::error::Error::source).
#[derive(Clone, Debug)]
pub struct Error(Box<Inner>);

#[derive(Clone, Debug)]
struct Inner {
    kind: ErrorKind,
    origin: Origin,
    /// What it is said of, outermost first (`--counts`, `unit 'x'`).
    about: Vec<String>,
    message: String,
    /// The cause (an I/O or JSON error), if any.
    source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync + 'static>>,
}

impl PartialEq for Error {
    /// Two errors are equal when they say the same of the same: the cause
    /// is not compared.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&*self.0, &*other.0);
        a.kind == b.kind && a.origin == b.origin && a.about == b.about && a.message == b.message
    }
}

impl Eq for Error {}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// A JSON document's error as a cause: serde_json's message and position.
#[derive(Debug)]
struct JsonCause {
    message: String,
}

impl fmt::Display for JsonCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonCause {}

/// One line, where then what: a parameter named as the library knows it
/// (`power 5: ...`). A front-end names it its own way: the command line as
/// its flag ([`Error::with_flags`]), the web page by its field, Python by
/// its keyword (both from [`Error::origin`] and [`Error::words`]).
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line(false))
    }
}

impl Error {
    /// The message as a command line says it: a parameter as its flag
    /// (`--power 5: ...`).
    pub fn with_flags(&self) -> String {
        self.line(true)
    }

    fn line(&self, flags: bool) -> String {
        let mut line = String::new();
        for a in &self.0.about {
            line.push_str(a);
            line.push_str(": ");
        }
        match &self.0.origin {
            Origin::Param { param, value } => {
                if flags {
                    line.push_str("--");
                }
                line.push_str(param);
                if let Some(v) = value {
                    line.push(' ');
                    line.push_str(&quote(v));
                }
                line.push_str(": ");
            }
            Origin::Row { file, row, column } => {
                line.push_str(&format!(
                    "{}: row {row}, column {column}: ",
                    quote_middle(file, MAX_QUOTE)
                ));
            }
            Origin::Json {
                file,
                line: l,
                column,
            } => {
                line.push_str(&format!(
                    "{}: line {l}, column {column}: ",
                    quote_middle(file, MAX_QUOTE)
                ));
            }
            Origin::Path { path } => {
                line.push_str(&quote_middle(path, MAX_QUOTE));
                line.push_str(": ");
                if self.0.kind == ErrorKind::Io {
                    line.push_str("cannot read: ");
                }
            }
            Origin::Unit { unit } => {
                line.push_str(&quote(unit));
                line.push_str(": ");
            }
            Origin::Card { .. } | Origin::None => {}
        }
        line.push_str(&self.0.message);
        one_line(&line)
    }
}

impl Error {
    /// An error of `kind` with a one-line message and no origin.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error(Box::new(Inner {
            kind,
            origin: Origin::None,
            about: Vec::new(),
            message: message.into(),
            source: None,
        }))
    }

    /// The same error, caused by `cause` (an I/O or a JSON error), which
    /// [`source`](std::error::Error::source) gives.
    pub(crate) fn caused_by(
        mut self,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        self.0.source = Some(std::sync::Arc::new(cause));
        self
    }

    /// Text that can't be read ([`ErrorKind::Syntax`]).
    pub(crate) fn syntax(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Syntax, message)
    }

    /// A name the tool doesn't know ([`ErrorKind::Unknown`]).
    pub(crate) fn unknown(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Unknown, message)
    }

    /// Something required is missing ([`ErrorKind::Missing`]).
    pub(crate) fn missing(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Missing, message)
    }

    /// Inputs that contradict each other ([`ErrorKind::Conflict`]).
    pub(crate) fn conflict(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Conflict, message)
    }

    /// A value out of its range ([`ErrorKind::Range`]).
    pub(crate) fn range(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Range, message)
    }

    /// Beyond the solver's bounds ([`ErrorKind::Limit`]).
    pub(crate) fn limit(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Limit, message)
    }

    /// Rules not modelled ([`ErrorKind::NotModelled`]).
    pub(crate) fn not_modelled(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::NotModelled, message)
    }

    /// What the game's rules forbid ([`ErrorKind::Rules`]).
    pub(crate) fn rules(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Rules, message)
    }

    /// No such card or entry ([`ErrorKind::NotFound`]).
    pub(crate) fn not_found(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::NotFound, message)
    }

    /// A file or stream that can't be read or written ([`ErrorKind::Io`]).
    pub fn io(path: &str, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Io, message).at(Origin::Path {
            path: path.to_string(),
        })
    }

    /// A value in a card file, at its row and column.
    pub fn card_file(
        kind: ErrorKind,
        file: &str,
        row: usize,
        column: &str,
        message: impl Into<String>,
    ) -> Self {
        Error::new(kind, message).at(Origin::Row {
            file: file.to_string(),
            row,
            column: column.to_string(),
        })
    }

    /// The error of a solve stopped at its deadline.
    pub fn cancelled() -> Self {
        Error::new(
            ErrorKind::Cancelled,
            "the solve ran past its time limit and was stopped",
        )
    }

    /// The same error with this origin (replacing none; an error keeps the
    /// first, most precise origin it was given).
    pub(crate) fn at(mut self, origin: Origin) -> Self {
        if self.0.origin == Origin::None {
            self.0.origin = origin.capped();
        }
        self
    }

    /// The same error, about parameter `param` (a flag without `--`) given
    /// `value`.
    pub fn at_param(self, param: &str, value: Option<&str>) -> Self {
        self.at(Origin::Param {
            param: param.to_string(),
            value: value.map(str::to_string),
        })
    }

    /// The same error, about unit `unit`.
    pub(crate) fn at_unit(self, unit: &str) -> Self {
        self.at(Origin::Unit {
            unit: unit.to_string(),
        })
    }

    /// Its kind.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// Where it comes from.
    pub fn origin(&self) -> &Origin {
        &self.0.origin
    }

    /// What went wrong, without where: the message in the user's words
    /// (no flag, file or row).
    pub fn detail(&self) -> &str {
        &self.0.message
    }

    /// The message in a user's words: what it is said of, then what went
    /// wrong, without a parameter's flag (which the origin gives). Other
    /// origins (a file's row, a path) stay in the words.
    pub fn words(&self) -> String {
        match &self.0.origin {
            Origin::Param { .. } => {
                let mut line = String::new();
                for a in &self.0.about {
                    line.push_str(a);
                    line.push_str(": ");
                }
                line.push_str(&self.0.message);
                line
            }
            _ => self.to_string(),
        }
    }

    /// The same error, said of `what` (a file, a flag): `what: message`.
    pub fn about(mut self, what: &str) -> Self {
        self.0.about.insert(0, what.to_string());
        self
    }

    /// The error from serde_json for the JSON of `file`, keeping its line
    /// and column.
    pub fn json(file: &str, e: &serde_json::Error) -> Self {
        // serde_json's message ends with its own " at line L column C",
        // which the origin says: the position is dropped from the display.
        let text = e.to_string();
        let message = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        Error::new(ErrorKind::Syntax, message)
            .at(Origin::Json {
                file: file.to_string(),
                line: e.line(),
                column: e.column(),
            })
            .caused_by(JsonCause {
                message: e.to_string(),
            })
    }
}

/// Quotes user input for a message: at most `MAX_QUOTE` characters (with
/// `...` when cut), control and bidi characters escaped.
pub fn quote(text: &str) -> String {
    escaped_prefix(text, MAX_QUOTE)
}

/// Whether `c` is a bidirectional control character (which can make text
/// read differently from what it is).
pub(crate) fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

fn push_escaped(out: &mut String, c: char) {
    if c.is_control() || is_bidi(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// One line of at most 300 characters (`MAX_MESSAGE`), control characters
/// escaped.
pub fn one_line(message: &str) -> String {
    escaped_prefix(message, MAX_MESSAGE)
}

/// At most `most` characters of `text` once escaped (with `...` when
/// cut), control and bidi characters escaped: the cap counts what is
/// printed, so a text of control characters can't grow past it.
fn escaped_prefix(text: &str, most: usize) -> String {
    let mut out = String::with_capacity(text.len().min(most * 4));
    let mut count = 0;
    let mut one = String::new();
    for c in text.chars() {
        // Most characters print as themselves: one character, no buffer.
        let escape = c.is_control() || is_bidi(c);
        let n = if escape {
            one.clear();
            push_escaped(&mut one, c);
            one.chars().count()
        } else {
            1
        };
        if count + n > most {
            out.push_str("...");
            break;
        }
        count += n;
        if escape {
            out.push_str(&one);
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` escaped, shortened in the middle to at most `most` characters
/// (`/very/long/…/ANH.txt`): for paths and hosts, whose two ends say the
/// most.
pub fn quote_middle(text: &str, most: usize) -> String {
    let mut escaped = String::new();
    for c in text.chars() {
        push_escaped(&mut escaped, c);
    }
    let chars: Vec<char> = escaped.chars().collect();
    if chars.len() <= most {
        return escaped;
    }
    let keep = most.saturating_sub(3) / 2;
    let head: String = chars[..keep].iter().collect();
    let tail: String = chars[chars.len() - keep..].iter().collect();
    format!("{head}...{tail}")
}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Up to `most` of `candidates` nearest to `word`, nearest first: those
/// within an edit distance (insertions, deletions, substitutions and
/// swaps of two neighbouring letters, ASCII case aside) of a third of the
/// longer word's length, at least 1 (none for a word of more than 64
/// characters). For the "did you mean" of an unknown name or keyword.
pub(crate) fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    most: usize,
) -> Vec<&'a str> {
    let w: Vec<char> = word.to_lowercase().chars().collect();
    if w.len() > MAX_NEAR_WORD {
        return Vec::new();
    }
    let mut rows = Rows::default();
    let mut cc: Vec<char> = Vec::new();
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|c| {
            cc.clear();
            cc.extend(c.to_lowercase().chars());
            let d = near_distance(&w, &cc, &mut rows)?;
            Some((d, c))
        })
        .collect();
    scored.sort_by_key(|&(d, c)| (d, c));
    scored.dedup_by_key(|(_, c)| *c);
    scored.into_iter().take(most).map(|(_, c)| c).collect()
}

/// A lowered word's letters, and how many of them fall in each of 32
/// classes (a letter's code modulo 32): for [`is_near`].
pub(crate) struct Letters {
    chars: Vec<char>,
    counts: [u8; 32],
}

impl Letters {
    pub(crate) fn of(lowered: &str) -> Letters {
        let chars: Vec<char> = lowered.chars().collect();
        let mut counts = [0u8; 32];
        for &c in &chars {
            let k = &mut counts[c as usize % 32];
            *k = k.saturating_add(1);
        }
        Letters { chars, counts }
    }
}

/// Whether `candidate` is near `word` as [`nearest`] counts it (the
/// keyword reader's hint asks this of each name, with the word's letters
/// and each name's lowered and counted once). An edit changes the counts
/// of the letters' classes by 2 at most (a substitution takes one and
/// gives one; a swap changes none), so half their difference is a bound
/// below the distance, found before any alignment is computed.
pub(crate) fn is_near(word: &Letters, candidate: &Letters, rows: &mut Rows) -> bool {
    let (a, b) = (&word.chars, &candidate.chars);
    if a.len() > MAX_NEAR_WORD {
        return false;
    }
    // (A count saturates only past 255 letters.)
    if b.len() <= 255 {
        let bound = near_bound(a, b);
        let apart: usize = word
            .counts
            .iter()
            .zip(&candidate.counts)
            .map(|(x, y)| usize::from(x.abs_diff(*y)))
            .sum();
        if apart.div_ceil(2) > bound {
            return false;
        }
    }
    near_distance(a, b, rows).is_some()
}

/// The edit distance of two lowered words when they are near (above 0,
/// and at most a third of the longer one's length, at least 1), else None.
fn near_distance(a: &[char], b: &[char], rows: &mut Rows) -> Option<usize> {
    let bound = near_bound(a, b);
    let d = edit_distance_within(a, b, bound, rows)?;
    (d > 0).then_some(d)
}

/// The most edits for two words to be near: a third of the longer one's
/// length, at least 1.
fn near_bound(a: &[char], b: &[char]) -> usize {
    (a.len().max(b.len()) / 3).max(1)
}

/// The longest word given a nearest name (bounded: no name or keyword is
/// that long, and the cost is the word's length times each candidate's).
const MAX_NEAR_WORD: usize = 64;

/// The rows [`edit_distance_within`] works in, kept between calls.
#[derive(Default)]
pub(crate) struct Rows {
    two: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

/// The optimal string alignment distance of two words when it is at most
/// `bound`, else None. Their lengths' difference is a lower bound of it;
/// and once a row is all above `bound`, every later row is too, so the
/// rest is not computed: a row's least is at most one more than the row
/// before's (a deletion), and each cell is at least the least of the row
/// before or one more than the row before that (a swap), so the least
/// never falls. Either way the answer is the full distance's, whenever
/// that is within `bound`.
fn edit_distance_within(a: &[char], b: &[char], bound: usize, rows: &mut Rows) -> Option<usize> {
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let Rows { two, prev, cur } = rows;
    // Three rows: the one two back (for swaps), the previous, the current.
    two.clear();
    two.resize(b.len() + 1, 0);
    prev.clear();
    prev.extend(0..=b.len());
    for i in 1..=a.len() {
        cur.clear();
        cur.resize(b.len() + 1, i);
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(two[j - 2] + 1);
            }
        }
        if cur.iter().all(|&d| d > bound) {
            return None;
        }
        std::mem::swap(two, prev);
        std::mem::swap(prev, cur);
    }
    let d = prev[b.len()];
    (d <= bound).then_some(d)
}

/// `; did you mean 'a', 'b'?` for the nearest of `candidates` to `word`
/// (`nearest`), or nothing when none is near.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    let near = nearest(word, candidates, 3);
    if near.is_empty() {
        String::new()
    } else {
        let quoted: Vec<String> = near.iter().map(|n| format!("'{}'", quote(n))).collect();
        format!("; did you mean {}?", quoted.join(", "))
    }
}

#[cfg(test)]
mod tests {
    /// Equal errors say the same of the same, whatever their causes.
    #[test]
    fn equal_whatever_the_cause() {
        use super::{Error, ErrorKind};
        assert_eq!(
            Error::new(ErrorKind::Limit, "x"),
            Error::new(ErrorKind::Limit, "x").caused_by(std::fmt::Error)
        );
        assert_ne!(
            Error::new(ErrorKind::Limit, "x"),
            Error::new(ErrorKind::Limit, "y").caused_by(std::fmt::Error)
        );
    }

    #[test]
    fn nearest_names() {
        use super::nearest;
        assert_eq!(
            nearest("Critcal Hit", ["Critical Hit", "Parry", "Accuracy"], 3),
            ["Critical Hit"]
        );
        assert_eq!(nearest("crti", ["crit", "parry"], 3), ["crit"]);
        assert!(nearest("zzz", ["crit", "parry"], 3).is_empty());
    }

    use super::*;

    /// The optimal string alignment distance by its definition, the whole
    /// table (no bound, no early stop): the oracle of the bounded one.
    fn osa(a: &[char], b: &[char]) -> usize {
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        d[a.len()][b.len()]
    }

    /// Every word of up to `n` letters over `alphabet`.
    fn words(alphabet: &[char], n: usize) -> Vec<Vec<char>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..n {
            last = last
                .iter()
                .flat_map(|w: &Vec<char>| {
                    alphabet.iter().map(move |&c| {
                        let mut w = w.clone();
                        w.push(c);
                        w
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn the_bounded_distance_is_the_whole_tables_within_its_bound() {
        // Every pair of words of up to 5 letters over 3 (with swaps, and
        // lengths far apart): the bounded distance is the full one when
        // within the bound, else None; `is_near` (with its count filter)
        // is `nearest`'s rule, d > 0 and d <= a third of the longer, at
        // least 1.
        let all = words(&['a', 'b', 'c'], 5);
        assert_eq!(all.len(), 364);
        let mut rows = Rows::default();
        let (mut near, mut checked) = (0, 0);
        for a in &all {
            let la = Letters::of(&a.iter().collect::<String>());
            for b in &all {
                let d = osa(a, b);
                for bound in 0..4 {
                    let got = edit_distance_within(a, b, bound, &mut rows);
                    assert_eq!(got, (d <= bound).then_some(d), "{a:?} {b:?} {bound}");
                    checked += 1;
                }
                let lb = Letters::of(&b.iter().collect::<String>());
                let rule = d > 0 && d <= (a.len().max(b.len()) / 3).max(1);
                assert_eq!(is_near(&la, &lb, &mut rows), rule, "{a:?} {b:?}");
                let (sa, sb): (String, String) = (a.iter().collect(), b.iter().collect());
                assert_eq!(!nearest(&sa, [sb.as_str()], 1).is_empty(), rule);
                near += usize::from(rule);
            }
        }
        assert_eq!(checked, 364 * 364 * 4);
        assert!(near > 1000, "{near}");
    }

    #[test]
    fn quotes_are_cut_where_escapes_are_counted() {
        // The escaped prefix, by its definition: every character escaped,
        // then cut before the first that would pass `most`.
        for text in [
            "plain text",
            "a\u{1}b\nc",
            "\u{202e}x",
            "",
            "abcdefghij\u{7}k",
        ] {
            for most in 0..14 {
                let mut want = String::new();
                let mut count = 0;
                for c in text.chars() {
                    let one: String = if c.is_control() || is_bidi(c) {
                        c.escape_default().collect()
                    } else {
                        c.to_string()
                    };
                    if count + one.chars().count() > most {
                        want.push_str("...");
                        break;
                    }
                    count += one.chars().count();
                    want.push_str(&one);
                }
                assert_eq!(escaped_prefix(text, most), want, "{text:?} {most}");
            }
        }
    }

    #[test]
    fn messages_are_one_short_line() {
        let e = Error::syntax(format!("keyword '{}'", quote(&"x\n".repeat(1000))));
        let s = e.to_string();
        assert!(!s.contains('\n'));
        assert!(s.chars().count() <= MAX_MESSAGE + 3);
        let e = Error::syntax("a\u{202e}b\0c").about("unit 'x'");
        assert_eq!(e.to_string(), "unit 'x': a\\u{202e}b\\u{0}c");
        // The cap counts what is printed: control characters escape to
        // several characters each.
        let e = Error::io(&"\u{1}".repeat(300), "x");
        assert!(
            e.to_string().chars().count() <= MAX_MESSAGE + 3,
            "{}",
            e.to_string().len()
        );
        let e = Error::syntax("\u{1}".repeat(300));
        assert!(e.to_string().chars().count() <= MAX_MESSAGE + 3);
        // Paths are shortened in the middle: both ends stay.
        let long = format!("/{}/ANH.txt", "a".repeat(500));
        let q = quote_middle(&long, 40);
        assert!(
            q.starts_with("/aaa") && q.ends_with("ANH.txt") && q.chars().count() <= 40,
            "{q}"
        );
    }
}
