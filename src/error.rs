//! The crate's error type: what is wrong with the input, and where.
//!
//! Every error keeps its origin: the flag or unit it is about, the file and
//! line and column of a JSON file, the file, row and column of a card file.
//! Its `Display` is one line of at most about 300 characters: quoted input is
//! cut to 80 characters and control characters are escaped, so a hostile
//! input never produces a huge or multi-line message.

use std::fmt;

/// Longest piece of user input quoted in a message.
pub const MAX_QUOTE: usize = 80;
/// Longest message (longer ones are cut).
pub const MAX_MESSAGE: usize = 300;

/// An error for the user. Its `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad input: a flag, a unit, a keyword text, a value out of range.
    #[error("{}", one_line(.0))]
    Input(String),
    /// A value in a card file (a LackeyCCG set file).
    #[error("{}", one_line(&format!("{}: row {row}, column {column}: {message}", quote_middle(file, MAX_QUOTE))))]
    CardFile {
        /// The file.
        file: String,
        /// The row (line number; 1 is the header).
        row: usize,
        /// The column's name.
        column: String,
        /// What is wrong.
        message: String,
    },
    /// A JSON file that does not parse or does not fit its schema.
    #[error("{}", one_line(&format!("{}: line {line}, column {column}: {message}", quote_middle(file, MAX_QUOTE))))]
    Json {
        /// The file (or what the JSON is, such as `scenario`).
        file: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A file that could not be read.
    #[error("{}", one_line(&format!("{}: cannot read: {message}", quote_middle(path, MAX_QUOTE))))]
    Io {
        /// The path.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// The solve ran past its deadline and was stopped
    /// ([`crate::cancel`]).
    #[error("the solve ran past its time limit and was stopped")]
    Cancelled,
    /// An error said of something (a file, a flag, a unit): `what: error`.
    #[error("{}", one_line(&format!("{what}: {source}")))]
    About {
        /// What the error is about.
        what: String,
        /// The error.
        source: Box<Error>,
    },
}

impl Error {
    /// An error about the input, with a one-line message.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }

    /// The error of a solve stopped at its deadline.
    pub fn cancelled() -> Self {
        Error::Cancelled
    }

    /// Whether this is (or is about) a solve stopped at its deadline.
    pub fn is_cancelled(&self) -> bool {
        match self {
            Error::Cancelled => true,
            Error::About { source, .. } => source.is_cancelled(),
            _ => false,
        }
    }

    /// The message, as displayed.
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// The same error, said of `what` (a file, a flag): `what: message`.
    pub fn about(self, what: &str) -> Self {
        Error::About {
            what: what.to_string(),
            source: Box::new(self),
        }
    }

    /// The error from serde_json for the JSON of `file`, keeping its line
    /// and column.
    pub fn json(file: &str, e: &serde_json::Error) -> Self {
        let text = e.to_string();
        // serde_json appends " at line L column C": keep the reason only.
        let message = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        Error::Json {
            file: file.to_string(),
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

/// Quotes user input for a message: at most [`MAX_QUOTE`] characters (with
/// `...` when cut), control and bidi characters escaped.
pub fn quote(text: &str) -> String {
    escaped_prefix(text, MAX_QUOTE)
}

/// Whether `c` is a bidirectional control character (which can make text
/// read differently from what it is).
pub fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

fn push_escaped(out: &mut String, c: char) {
    if c.is_control() || is_bidi(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// One line of at most [`MAX_MESSAGE`] characters, control characters
/// escaped.
pub fn one_line(message: &str) -> String {
    escaped_prefix(message, MAX_MESSAGE)
}

/// At most `most` characters of `text` once escaped (with `...` when
/// cut), control and bidi characters escaped: the cap counts what is
/// printed, so a text of control characters can't grow past it.
fn escaped_prefix(text: &str, most: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        let mut one = String::new();
        push_escaped(&mut one, c);
        let n = one.chars().count();
        if count + n > most {
            out.push_str("...");
            break;
        }
        count += n;
        out.push_str(&one);
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

/// Most bytes read from one input file.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a whole file as text (invalid UTF-8 replaced, a UTF-8 byte order
/// mark dropped), or says which file could not be read and why. Files above
/// [`MAX_FILE_BYTES`] are refused, and only regular files are read (never a
/// FIFO or a device that could block or never end).
pub fn read_file(path: &str) -> Result<String> {
    use std::io::Read;
    let io = |message: String| Error::Io {
        path: path.to_string(),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io(if meta.is_dir() {
            "a folder, not a file".into()
        } else {
            "not a regular file".into()
        }));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(io(format!(
            "{} bytes is above the limit of {MAX_FILE_BYTES}",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(|e| io(e.to_string()))?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(format!("above the limit of {MAX_FILE_BYTES} bytes")));
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(strip_bom(&text).to_string())
}

/// The text without a leading UTF-8 byte order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote(self.0))
    }
}

/// User input to quote in a message (see [`quote`]): `format!("'{}'", Quoted(text))`.
pub struct Quoted<'a>(pub &'a str);

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_short_line() {
        let e = Error::input(format!("keyword '{}'", quote(&"x\n".repeat(1000))));
        let s = e.to_string();
        assert!(!s.contains('\n'));
        assert!(s.chars().count() <= MAX_MESSAGE + 3);
        let e = Error::input("a\u{202e}b\0c").about("unit 'x'");
        assert_eq!(e.to_string(), "unit 'x': a\\u{202e}b\\u{0}c");
        // The cap counts what is printed: control characters escape to
        // several characters each.
        let e = Error::Io {
            path: "\u{1}".repeat(300),
            message: "x".into(),
        };
        assert!(
            e.to_string().chars().count() <= MAX_MESSAGE + 3,
            "{}",
            e.to_string().len()
        );
        let e = Error::input("\u{1}".repeat(300));
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
