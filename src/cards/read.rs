//! Reading LackeyCCG set files as the plugin publishes them.
//!
//! A set file is tab-separated: a header naming the columns (mapped by name;
//! extra columns are ignored), then one card per line. Real files have CRLF
//! line ends, a byte order mark now and then, decimal numbers (`6.0`),
//! fields wrapped in quotes spreadsheet-style (`"... ""Pay 1 Force ->
//! Intercept"" ..."`), stray spaces, and `*` or `X` for stats set by the
//! card's text. Every row ends up as exactly one of: a unit, a non-unit card,
//! or a skipped row with its reason.

use crate::error::{Error, Result, read_file};
use std::path::Path;

/// The columns a card list must name.
pub const REQUIRED: [&str; 4] = ["Name", "Type", "Power", "Health"];

/// A number printed on a card: a whole number, or a value set by its text
/// (`*`, `X`), or nothing.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Stat {
    /// A whole number (`6` or `6.0`).
    Value(u32),
    /// Set by the card's text (`*`, `X`).
    Variable(String),
}

impl Stat {
    /// The whole number, if printed.
    pub fn value(&self) -> Option<u32> {
        match self {
            Stat::Value(v) => Some(*v),
            Stat::Variable(_) => None,
        }
    }
}

/// One data row of a set file, its fields by column name.
#[derive(Clone, Debug)]
pub struct RawRow {
    /// The file it came from.
    pub file: String,
    /// Its line number (1 is the header).
    pub row: usize,
    /// `(column name, value)` in file order, values unquoted and trimmed.
    pub fields: Vec<(String, String)>,
}

impl RawRow {
    /// The value of column `name` (case-insensitive), or "".
    pub fn get(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(name))
            .map_or("", |(_, v)| v.as_str())
    }

    /// An error about column `column` of this row.
    pub fn error(&self, column: &str, message: impl Into<String>) -> Error {
        Error::CardFile {
            file: self.file.clone(),
            row: self.row,
            column: column.to_string(),
            message: message.into(),
        }
    }

    /// A stat column: empty → `None`; `6` or `6.0` → a value; `*` / `X` →
    /// variable; `6.5`, `-1` or words → an error naming the file, row and
    /// column.
    pub fn stat(&self, column: &str) -> Result<Option<Stat>> {
        let v = self.get(column);
        if v.is_empty() {
            return Ok(None);
        }
        if v == "*" || v.eq_ignore_ascii_case("x") {
            return Ok(Some(Stat::Variable(v.to_string())));
        }
        parse_whole(v)
            .map(|n| Some(Stat::Value(n)))
            .map_err(|why| self.error(column, format!("'{}' {why}", crate::error::quote(v))))
    }
}

/// A whole number written `6` or `6.0` (`6.00`, `+6`); anything else says why not.
fn parse_whole(v: &str) -> std::result::Result<u32, &'static str> {
    let (int, frac) = match v.split_once('.') {
        Some((i, f)) => (i, f),
        None => (v, ""),
    };
    if !frac.chars().all(|c| c == '0') {
        return Err("is not a whole number");
    }
    let int = int.strip_prefix('+').unwrap_or(int);
    if int.is_empty() || !int.chars().all(|c| c.is_ascii_digit()) {
        return Err("is not a whole number");
    }
    int.parse::<u32>().map_err(|_| "is too large")
}

/// Unquotes a field written spreadsheet-style: wrapped in `"` with every
/// inner `"` doubled. Anything else is kept as written (literal quotes
/// appear in card text).
pub fn unquote(field: &str) -> String {
    let t = field.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        let inner = &t[1..t.len() - 1];
        // Every quote inside must be part of a doubled pair.
        let mut chars = inner.chars().peekable();
        let mut ok = true;
        while let Some(c) = chars.next() {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                } else {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            return inner.replace("\"\"", "\"").trim().to_string();
        }
    }
    t.to_string()
}

/// What a file turned out to be.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FileReport {
    /// The path.
    pub file: String,
    /// Whether its header names a card list.
    pub card_list: bool,
    /// Why it was not read as one, if not.
    pub reason: Option<String>,
}

/// What one file's text holds.
#[derive(Debug)]
pub enum Parsed {
    /// A card list's rows.
    Rows(Vec<RawRow>),
    /// Not a card list, and why.
    NotCards(String),
}

/// The rows of one set file's text, or why it is not a card list; an error
/// when it has more rows than a database may hold, found by counting its
/// lines before any row is built.
pub fn parse_rows(file: &str, text: &str) -> Result<Parsed> {
    let text = crate::error::strip_bom(text);
    let lines = text.split('\n').filter(|l| !l.trim().is_empty()).count();
    if lines > super::MAX_CARDS + 1 {
        return Err(Error::input(format!(
            "{}: {} card rows; a card database holds at most {}",
            crate::error::quote(file),
            lines - 1,
            super::MAX_CARDS
        )));
    }
    Ok(match card_rows(file, text) {
        Ok(rows) => Parsed::Rows(rows),
        Err(why) => Parsed::NotCards(why),
    })
}

fn card_rows(file: &str, text: &str) -> std::result::Result<Vec<RawRow>, String> {
    let mut lines = text.split('\n').enumerate();
    let header = loop {
        match lines.next() {
            Some((_, l)) if l.trim().is_empty() => continue,
            Some((_, l)) => break l.trim_end_matches('\r'),
            None => return Err("empty".into()),
        }
    };
    let names: Vec<String> = header.split('\t').map(|c| unquote(c).to_string()).collect();
    let missing: Vec<&str> = REQUIRED
        .iter()
        .filter(|r| !names.iter().any(|n| n.eq_ignore_ascii_case(r)))
        .copied()
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "its first line is not a card list header (no {} column)",
            missing.join(", ")
        ));
    }
    let mut rows = Vec::new();
    for (i, line) in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let fields = line
            .split('\t')
            .zip(&names)
            .map(|(v, n)| (n.clone(), unquote(v)))
            .collect();
        rows.push(RawRow {
            file: file.to_string(),
            row: i + 1,
            fields,
        });
    }
    Ok(rows)
}

/// The set files named by `path`: the file itself, or every file of a
/// folder (sorted by name; sub-folders and hidden files are not read).
pub fn files_of(path: &str) -> Result<Vec<String>> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| Error::Io {
        path: path.to_string(),
        message: e.to_string(),
    })?;
    if !meta.is_dir() {
        return Ok(vec![path.to_string()]);
    }
    let mut out = Vec::new();
    let entries = std::fs::read_dir(p).map_err(|e| Error::Io {
        path: path.to_string(),
        message: e.to_string(),
    })?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_file() {
            out.push((name, e.path().to_string_lossy().into_owned()));
        }
    }
    out.sort();
    Ok(out.into_iter().map(|(_, p)| p).collect())
}

/// Reads one file's rows; a file that is not a card list is reported, not
/// an error (a folder holds other files too).
pub fn read_rows(path: &str) -> Result<(FileReport, Vec<RawRow>)> {
    let name = Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned());
    if name.starts_with('.') {
        return Ok((
            FileReport {
                file: path.to_string(),
                card_list: false,
                reason: Some("a hidden or lock file".into()),
            },
            Vec::new(),
        ));
    }
    let text = read_file(path)?;
    Ok(match parse_rows(path, &text)? {
        Parsed::Rows(rows) => (
            FileReport {
                file: path.to_string(),
                card_list: true,
                reason: None,
            },
            rows,
        ),
        Parsed::NotCards(why) => (
            FileReport {
                file: path.to_string(),
                card_list: false,
                reason: Some(why),
            },
            Vec::new(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers() {
        assert_eq!(parse_whole("6"), Ok(6));
        assert_eq!(parse_whole("6.0"), Ok(6));
        assert_eq!(parse_whole("12.00"), Ok(12));
        assert!(parse_whole("6.5").is_err());
        assert!(parse_whole("-1").is_err());
        assert!(parse_whole("six").is_err());
        assert!(parse_whole("99999999999").is_err());
    }

    #[test]
    fn spreadsheet_quotes() {
        assert_eq!(unquote("\"a \"\"b\"\" c\""), "a \"b\" c");
        assert_eq!(unquote("\"a\" and \"b\""), "\"a\" and \"b\"");
        assert_eq!(unquote(" plain "), "plain");
    }
}
