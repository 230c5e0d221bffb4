//! Reading LackeyCCG set files as the plugin publishes them.
//!
//! A set file is tab-separated: a header naming the columns (mapped by name;
//! extra columns are ignored), then one card per line. Real files have CRLF
//! line ends, a byte order mark now and then, decimal numbers (`6.0`),
//! fields wrapped in quotes spreadsheet-style (`"... ""Pay 1 Force ->
//! Intercept"" ..."`), stray spaces, and `*` or `X` for stats set by the
//! card's text. Every row ends up as exactly one of: a unit, a non-unit card,
//! or a skipped row with its reason.

use std::path::Path;
use swtcg_engine::error::{Error, ErrorKind, Result};
use swtcg_engine::input::read_file;

/// The columns a card list must name.
pub const REQUIRED: [&str; 4] = ["Name", "Type", "Power", "Health"];

/// A number printed on a card: a whole number, or a value set by its text
/// (`*`, `X`), or nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
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

/// The columns the reader keeps (every other column is skipped as it is
/// read, so memory never grows with a file's other columns).
pub const COLUMNS: [&str; 10] = [
    "Name", "Set", "Side", "Type", "Subtype", "Cost", "Speed", "Power", "Health", "Text",
];

/// One data row of a set file: the values of the columns the reader keeps
/// ([`COLUMNS`]), unquoted and trimmed.
#[derive(Clone, Debug)]
pub struct RawRow {
    /// The file it came from.
    pub file: std::sync::Arc<str>,
    /// Its line number (1 is the header).
    pub row: usize,
    /// The value of each of [`COLUMNS`] ("" when absent).
    pub fields: [String; COLUMNS.len()],
}

impl RawRow {
    /// The value of column `name` (one of [`COLUMNS`], case-insensitive),
    /// or "".
    pub fn get(&self, name: &str) -> &str {
        COLUMNS
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .map_or("", |i| self.fields[i].as_str())
    }

    /// An error about column `column` of this row.
    pub fn error(&self, column: &str, message: impl Into<String>) -> Error {
        Error::card_file(ErrorKind::Syntax, &self.file, self.row, column, message)
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
            .map_err(|why| self.error(column, format!("'{}' {why}", swtcg_engine::error::quote(v))))
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

/// The number of lines of a text: its line ends, `\n`, `\r\n` or a lone
/// `\r` (old Mac files), plus a last line without one.
pub fn count_lines(text: &str) -> usize {
    let b = text.as_bytes();
    let mut n = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            n += 1;
        }
    }
    n + usize::from(!b.is_empty() && !matches!(b.last(), Some(b'\n' | b'\r')))
}

/// The rows of one set file's text, or why it is not a card list; an error
/// when it has more rows than a database may hold, found by counting its
/// lines before any row is built. Lines may end in `\n`, `\r\n` or `\r`.
pub fn parse_rows(file: &str, text: &str) -> Result<Parsed> {
    let text = swtcg_engine::input::strip_bom(text);
    let lines = count_lines(text);
    if lines > super::MAX_CARDS + 1 {
        return Err(Error::new(
            ErrorKind::Limit,
            format!(
                "{}: {} card rows; a card database holds at most {}",
                swtcg_engine::error::quote(file),
                lines - 1,
                super::MAX_CARDS
            ),
        ));
    }
    Ok(match card_rows(file, text) {
        Ok(rows) => Parsed::Rows(rows),
        Err(why) => Parsed::NotCards(why),
    })
}

/// The rows of a card list, read with the `csv` crate: tab-separated,
/// records of any length, no CSV quoting (fields quoted spreadsheet-style
/// are undone by [`unquote`]), any line end.
fn card_rows(file: &str, text: &str) -> std::result::Result<Vec<RawRow>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .has_headers(false)
        .flexible(true)
        .quoting(false)
        .from_reader(text.as_bytes());
    let mut record = csv::ByteRecord::new();
    // Line numbers from byte offsets: where each line starts, whatever its
    // line end.
    let b = text.as_bytes();
    let mut starts = vec![0usize];
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            starts.push(i + 1);
        }
    }
    let line_of = |r: &csv::ByteRecord| {
        // (The csv crate may place a record after a CRLF on its LF.)
        let mut at = r.position().map_or(0, |p| p.byte() as usize);
        while matches!(b.get(at), Some(b'\r' | b'\n')) {
            at += 1;
        }
        starts.partition_point(|&s| s <= at)
    };
    let blank = |r: &csv::ByteRecord| r.iter().all(|f| f.iter().all(u8::is_ascii_whitespace));
    // The header: the first line that is not blank.
    let header = loop {
        match reader.read_byte_record(&mut record) {
            Ok(true) if blank(&record) => continue,
            Ok(true) => break record.clone(),
            Ok(false) => return Err("empty".into()),
            Err(e) => return Err(format!("unreadable: {e}")),
        }
    };
    // For each column of the file, the kept column it is (if any).
    let slots: Vec<Option<usize>> = header
        .iter()
        .map(|h| {
            let name = unquote(&String::from_utf8_lossy(h));
            COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(&name))
        })
        .collect();
    let missing: Vec<&str> = REQUIRED
        .iter()
        .filter(|r| {
            let i = COLUMNS
                .iter()
                .position(|c| c == *r)
                .expect("required columns are kept");
            !slots.contains(&Some(i))
        })
        .copied()
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "its first line is not a card list header (no {} column)",
            missing.join(", ")
        ));
    }
    let file: std::sync::Arc<str> = file.into();
    let mut rows = Vec::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(format!("unreadable: {e}")),
        }
        if blank(&record) {
            continue;
        }
        let mut fields: [String; COLUMNS.len()] = Default::default();
        for (v, slot) in record.iter().zip(&slots) {
            if let Some(i) = slot {
                fields[*i] =
                    super::text::plain_spaces(&unquote(&String::from_utf8_lossy(v))).into_owned();
            }
        }
        rows.push(RawRow {
            file: file.clone(),
            row: line_of(&record),
            fields,
        });
    }
    Ok(rows)
}

/// The set files named by `path`: the file itself, or every file of a
/// folder (sorted by name; sub-folders and hidden files are not read).
pub fn files_of(path: &str) -> Result<Vec<String>> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| Error::io(path, e.to_string()))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_string()]);
    }
    let mut out = Vec::new();
    let entries = std::fs::read_dir(p).map_err(|e| Error::io(path, e.to_string()))?;
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
