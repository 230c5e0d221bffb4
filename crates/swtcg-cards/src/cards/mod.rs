//! Real cards: LackeyCCG set files, the card language, stacks and pilots.
//!
//! A database is read from set files or folders of them ([`CardDb::load`]),
//! as the community's LackeyCCG plugin publishes them (see [`read`]). Every
//! row becomes exactly one of: a unit [`Card`], a [`NonUnit`] card (Battle,
//! Mission, Location, Equipment, ...), or a [`Skipped`] row with its reason.
//! A unit's text is split into abilities and each is classified ([`text`]);
//! [`stack`] builds units from cards, stacks and pilots for one attack,
//! applying the conditions the two cards decide.
//!
//! ```
//! use swtcg_cards::cards::CardDb;
//! let db = CardDb::parse("Name\tSet\tType\tSubtype\tPower\tHealth\tText\n\
//!     Stormtrooper TK-421\tANH\tCharacter\tImperial Clone Stormtrooper\t6.0\t5\tThis unit gets -2 power as long as it's attacking a unique Character.\n\
//!     Coup de Grace\tJG\tBattle\t\t\t\tPay 8 Force -> ...\n").unwrap();
//! assert_eq!(db.cards.len(), 1);
//! assert_eq!(db.cards[0].power, Some(6));
//! assert_eq!(db.non_units.len(), 1);
//! ```

pub mod check;
pub mod files;
pub mod read;
mod show;
pub mod stack;
pub mod text;

use read::{FileReport, RawRow, Stat};
use serde::Serialize;
use swtcg_engine::error::{Error, ErrorKind, Result, quote};
use text::{Class, ReadAbility};

pub use stack::{Piece, SameUnits};

/// Most rows (cards of every kind) one card database may hold.
pub const MAX_CARDS: usize = 50_000;

use swtcg_engine::unit::Arena;

/// A unit card.
#[derive(Clone, Debug, Serialize)]
pub struct Card {
    /// The file it was read from.
    pub file: String,
    /// Its row in the file (1 is the header).
    pub row: usize,
    /// Its name, version included: `Luke Skywalker (B2)`.
    pub name: String,
    /// Set code.
    pub set: String,
    /// Side: `L`, `D` or `N`.
    pub side: String,
    /// Type as printed (`Character`, `Ground/Character`, `Subordinate`).
    pub card_type: String,
    /// The arenas it can be in, in type-line order.
    pub arenas: Vec<Arena>,
    /// Subtype (for a Subordinate, after its arena).
    pub subtype: String,
    /// Build cost.
    pub cost: Option<Stat>,
    /// Speed.
    pub speed: Option<Stat>,
    /// Power, when printed as a number.
    pub power: Option<u32>,
    /// Health, when printed as a number.
    pub health: Option<u32>,
    /// Why the card cannot be used without values from the user (`power is
    /// *: set by its text`), if so.
    pub variable: Option<String>,
    /// A token some cards create (`Subordinate`).
    pub subordinate: bool,
    /// The card text as printed.
    pub text: String,
    /// Its abilities, read.
    pub abilities: Vec<ReadAbility>,
    /// Whether its name is shared with a card of another set (then it is
    /// addressed as `Name@SET`).
    pub ambiguous: bool,
}

impl Card {
    /// The unit's name without its version: `Luke Skywalker`.
    pub fn base_name(&self) -> &str {
        base_name(&self.name)
    }

    /// The version in parentheses (`B2`), for unique units.
    pub fn version(&self) -> Option<&str> {
        let n = strip_print_tags(&self.name);
        let n = n.trim_end();
        let open = n.rfind(" (")?;
        n.ends_with(')').then(|| &n[open + 2..n.len() - 1])
    }

    /// Unique units have versions.
    pub fn is_unique(&self) -> bool {
        self.version().is_some()
    }

    /// How to name it unambiguously: `Name`, or `Name@SET` when another
    /// set has a card of that name.
    pub fn key(&self) -> String {
        if self.ambiguous {
            format!("{}@{}", self.name, self.set)
        } else {
            self.name.clone()
        }
    }

    /// Its Stack list, if it has the Stack ability.
    pub fn stack_list(&self) -> Vec<String> {
        let mut out = Vec::new();
        for a in &self.abilities {
            for e in a.effects() {
                if let text::Effect::Keyword { ability, .. } = e
                    && let swtcg_engine::keywords::Keyword::Stack(l) = &ability.keyword
                {
                    out.extend(l.iter().cloned());
                }
            }
        }
        out
    }

    /// Whether a description in card text (a subtype word, type, side, name)
    /// applies to this card.
    pub fn words(&self) -> String {
        format!("{} {} {}", self.subtype, self.card_type, self.base_name())
    }

    /// Abilities of one class.
    pub fn of_class(&self, class: Class) -> impl Iterator<Item = &ReadAbility> {
        self.abilities.iter().filter(move |a| a.class() == class)
    }

    /// A card as text: stats, then each ability with its class.
    pub fn to_text(&self) -> String {
        self.to_text_with(false)
    }
}

/// Print tags the files add after a version: `(Promo)`, `(LEGO)`, `(Preview)`.
fn strip_print_tags(name: &str) -> &str {
    let mut n = name.trim();
    loop {
        let lower = n.to_ascii_lowercase();
        let tag = [
            "(promo)",
            "(promo 1)",
            "(promo 2)",
            "(promo alt)",
            "(lego)",
            "(preview)",
        ]
        .iter()
        .find(|t| lower.ends_with(*t));
        match tag {
            Some(t) => n = n[..n.len() - t.len()].trim_end(),
            None => return n,
        }
    }
}

/// The text with its accents taken off (canonical decomposition, then
/// the combining marks dropped: `Padmé` is `Padme`, `Ñ` is `N`): the one
/// fold of text the card reader and the name matching share.
///
/// ```
/// use swtcg_cards::cards::unaccented;
/// assert_eq!(unaccented("Padmé Amidala"), "Padme Amidala");
/// assert_eq!(unaccented("ÉÑö"), "ENo");
/// ```
pub fn unaccented(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    if text.is_ascii() {
        return text.to_string();
    }
    text.nfd().filter(|c| !is_combining_mark(*c)).collect()
}

/// A character as a keyboard types it: curly quotes and apostrophes (and
/// the primes and accents used as apostrophes) as `"` and `'`, dashes and
/// the minus sign as `-`, a space of any other kind as ` `; any other
/// character as it is. The crate's one table of them: names
/// ([`fold_name`]), card text (`strip_reminders`) and the reader's ASCII
/// copy (`ascii_only`) read them through it.
///
/// ```
/// use swtcg_cards::cards::typed;
/// assert_eq!("K’Kruhk – “Jedi”".chars().map(typed).collect::<String>(), "K'Kruhk - \"Jedi\"");
/// ```
pub fn typed(c: char) -> char {
    if c.is_ascii() {
        // The one key of ASCII read as another (most text is ASCII).
        return if c == '`' { '\'' } else { c };
    }
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201b}' | '\u{b4}' | '\u{2032}' => '\'',
        '\u{201c}' | '\u{201d}' | '\u{ab}' | '\u{bb}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        c if c.is_whitespace() => ' ',
        c => c,
    }
}

/// A name as compared: lowercased, accents taken off (`Padmé` is
/// `padme`), every apostrophe (`’`, `‘`, `` ` ``, `´`) read as `'`, every
/// dash as `-`, and runs of spaces as one.
///
/// ```
/// use swtcg_cards::cards::fold_name;
/// assert_eq!(fold_name("K’Kruhk (B)"), fold_name("k'kruhk (b)"));
/// assert_eq!(fold_name("Padmé Amidala"), "padme amidala");
/// ```
pub fn fold_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in unaccented(name.trim()).chars().map(typed) {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
            }
            space = true;
            continue;
        }
        space = false;
        out.extend(c.to_lowercase());
    }
    out
}

/// A name without its trailing `(version)` and print tags.
pub fn base_name(name: &str) -> &str {
    let n = strip_print_tags(name);
    match n.rfind(" (") {
        Some(i) if n.ends_with(')') => &n[..i],
        _ => n,
    }
}

/// The arenas of a type line (`Ground/Character`, `Space`), in order.
fn arenas_of_type(t: &str) -> Vec<Arena> {
    t.split('/').filter_map(Arena::from_word).collect()
}

/// Whether every stat a card prints as `*` (and nothing else missing) is
/// set by its text to a count the two units of an attack decide.
fn stats_counted(c: &Card) -> bool {
    let Some(v) = &c.variable else {
        return false;
    };
    let counted = |stat: bool| {
        c.abilities.iter().any(|a| {
            a.class() == text::Class::Keyword
                && a.effects().iter().any(|e| {
                    matches!(e, text::Effect::StatsFrom { power, health, .. }
                        if (stat && *power) || (!stat && *health))
                })
        })
    };
    v.split(", ").all(|part| {
        (part.starts_with("power is ") && counted(true))
            || (part.starts_with("health is ") && counted(false))
    })
}

/// A card that is not a unit (Battle, Mission, Location, Equipment, ...).
#[derive(Clone, Debug, Serialize)]
pub struct NonUnit {
    /// The file.
    pub file: String,
    /// Its row.
    pub row: usize,
    /// Its name.
    pub name: String,
    /// Set code.
    pub set: String,
    /// Its type.
    pub card_type: String,
}

/// A row that is neither a unit nor a non-unit card, or a unit that needs
/// values from the user, with its reason.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// The file.
    pub file: String,
    /// Its row.
    pub row: usize,
    /// Set code.
    pub set: String,
    /// Its name.
    pub name: String,
    /// Why.
    pub reason: String,
    /// A unit card left out (its stats are set by text the two units
    /// can't count, or missing): listed with its reason wherever units
    /// are ranked.
    #[serde(skip)]
    pub unit: bool,
}

/// A loaded card database.
#[derive(Clone, Debug, Default)]
pub struct CardDb {
    /// The unit cards (those needing values from the user included; see
    /// [`Card::variable`]).
    pub cards: Vec<Card>,
    /// The other cards.
    pub non_units: Vec<NonUnit>,
    /// Rows skipped, with their reasons.
    pub skipped: Vec<Skipped>,
    /// The files read, and those that were not card lists.
    pub files: Vec<FileReport>,
    /// Units that are the same unit under other names (for stacks).
    pub same: SameUnits,
    /// What the reader says of the files as a whole: names in one set that
    /// differ only in case, card lists with no card.
    pub notes: Vec<String>,
    /// Unit rows that were the same card as a row read before (the same
    /// name, set and text: a set file beside an all-sets file), read once.
    pub repeated: usize,
    /// Each loaded unit by (name, set in lowercase): a card read twice is
    /// found in constant time.
    by_name: std::collections::HashMap<(String, String), usize>,
    /// Each loaded unit by (name and set in lowercase), for names that
    /// differ only in case.
    by_folded: std::collections::HashMap<(String, String), usize>,
    /// Units whose text is still to be read, once every card's name is
    /// known: the unit's index, its kind words, and whether its set
    /// separates abilities with `|`.
    unread: Vec<(usize, String, bool)>,
}

/// Types that are cards but not units (a type's first word: `Mission -
/// Trap` is a Mission).
const NON_UNIT_TYPES: [&str; 7] = [
    "battle",
    "event",
    "mission",
    "location",
    "equipment",
    "resource",
    "objective",
];

/// The most characters of one card's text (the longest real one holds
/// under 600).
pub const MAX_TEXT_CHARS: usize = 2_000;

/// The most characters of a card's name or subtype.
pub const MAX_NAME_CHARS: usize = 200;

/// The most abilities of one card (real cards hold at most 7).
pub const MAX_ABILITIES: usize = 24;

/// The longest text [`CardDb::nearest_names`] looks for (longer than any
/// card's name): the search costs the text's length times every name's.
pub const MAX_NEAR_TEXT: usize = 120;

impl CardDb {
    /// Reads set files and folders of them (the plugin's `sets/` folder):
    /// files that are not card lists are reported in [`CardDb::files`], a
    /// card read twice (the same name, set and text, as from `AllSets.txt`)
    /// is loaded once.
    pub fn load(paths: &[impl AsRef<str>]) -> Result<CardDb> {
        let mut db = CardDb::default();
        if paths.is_empty() {
            return Err(
                Error::new(ErrorKind::Missing, "no card database given").at_param("db", None)
            );
        }
        for p in paths {
            for f in read::files_of(p.as_ref())? {
                let (report, rows) = read::read_rows(&f)?;
                if report.card_list && rows.is_empty() {
                    db.notes.push(format!(
                        "{}: a card list with no card (only its header)",
                        quote(&f)
                    ));
                }
                db.files.push(report);
                db.add_rows(rows)?;
            }
        }
        if db.files.iter().any(|f| f.card_list)
            && db.cards.is_empty()
            && db.non_units.is_empty()
            && db.skipped.is_empty()
        {
            let names: Vec<String> = paths.iter().map(|p| p.as_ref().to_string()).collect();
            return Err(Error::new(
                ErrorKind::NotFound,
                format!(
                    "{}: no card in any card list (the files have only their header)",
                    quote(&names.join(", "))
                ),
            ));
        }
        if !db.files.iter().any(|f| f.card_list) {
            let names: Vec<String> = paths.iter().map(|p| p.as_ref().to_string()).collect();
            return Err(Error::new(
                ErrorKind::NotFound,
                format!(
                    "{}: no card list found (a card list's first line names the columns {})",
                    names.join(", "),
                    read::REQUIRED.join(", ")
                ),
            ));
        }
        db.finish();
        Ok(db)
    }

    /// Names every file relative to the `--db` path it was read from
    /// (`ANH.txt`, not `/home/me/sets/ANH.txt`): for answers that must not
    /// show where files live (the web server's).
    pub fn relative_names(&mut self, roots: &[impl AsRef<str>]) {
        let rel = |f: &str| -> String {
            for r in roots {
                let r = r.as_ref().trim_end_matches('/');
                if f == r {
                    return std::path::Path::new(f)
                        .file_name()
                        .map_or(f.to_string(), |n| n.to_string_lossy().into_owned());
                }
                if let Some(rest) = f.strip_prefix(r).and_then(|x| x.strip_prefix('/')) {
                    return rest.to_string();
                }
            }
            std::path::Path::new(f)
                .file_name()
                .map_or(f.to_string(), |n| n.to_string_lossy().into_owned())
        };
        for c in &mut self.cards {
            c.file = rel(&c.file);
        }
        for c in &mut self.non_units {
            c.file = rel(&c.file);
        }
        for c in &mut self.skipped {
            c.file = rel(&c.file);
        }
        for f in &mut self.files {
            f.file = rel(&f.file);
        }
    }

    /// Reads one database file.
    pub fn from_file(path: &str) -> Result<CardDb> {
        CardDb::load(&[path])
    }

    /// Parses database text (for tests and examples): a header row naming the
    /// columns, then cards.
    pub fn parse(text: &str) -> Result<CardDb> {
        CardDb::parse_named("cards", text)
    }

    /// Parses database text read from `file`.
    pub fn parse_named(file: &str, text: &str) -> Result<CardDb> {
        let rows = match read::parse_rows(file, text)? {
            read::Parsed::Rows(rows) => rows,
            read::Parsed::NotCards(why) => {
                return Err(Error::new(ErrorKind::Syntax, format!("{file}: {why}")));
            }
        };
        let mut db = CardDb::default();
        db.files.push(FileReport {
            file: file.to_string(),
            card_list: true,
            reason: None,
        });
        db.add_rows(rows)?;
        db.finish();
        Ok(db)
    }

    /// Adds the rows of one file: whether its set separates abilities with
    /// `|` is decided over all its texts.
    fn add_rows(&mut self, rows: Vec<RawRow>) -> Result<()> {
        // Bounded before any card text is read: the whole game has a few
        // thousand cards.
        let total = self.cards.len() + self.non_units.len() + self.skipped.len() + rows.len();
        if total > MAX_CARDS {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "{} card rows; a card database holds at most {MAX_CARDS}",
                    total
                ),
            ));
        }
        let barred = rows.iter().any(|r| r.get("Text").contains('|'));
        for r in rows {
            self.add_row(r, barred)?;
        }
        Ok(())
    }

    fn skip(&mut self, r: &RawRow, reason: impl Into<String>) {
        self.skipped.push(Skipped {
            file: r.file.to_string(),
            row: r.row,
            set: r.get("Set").to_string(),
            name: r.get("Name").to_string(),
            reason: reason.into(),
            unit: false,
        });
    }

    fn add_row(&mut self, r: RawRow, barred: bool) -> Result<()> {
        let name = r.get("Name").to_string();
        if name.is_empty() {
            self.skip(&r, "no name");
            return Ok(());
        }
        let set = r.get("Set").to_string();
        let ty = r.get("Type").trim().to_string();
        // A repeated header (files pasted together).
        if name.eq_ignore_ascii_case("name") && ty.eq_ignore_ascii_case("type") {
            self.skip(&r, "a repeated header row");
            return Ok(());
        }
        let subordinate = ty.eq_ignore_ascii_case("subordinate");
        let (arenas, subtype) = if subordinate {
            // "Ground - Imperial Assault Walker": the arena comes first.
            let st = r.get("Subtype");
            let (arena, rest) = match st.split_once(" - ") {
                Some((a, rest)) => (a.trim(), rest.trim()),
                None => (st.split_whitespace().next().unwrap_or(""), ""),
            };
            (arenas_of_type(arena), rest.to_string())
        } else {
            (arenas_of_type(&ty), r.get("Subtype").to_string())
        };
        if arenas.is_empty() {
            let lt = ty.to_ascii_lowercase();
            if NON_UNIT_TYPES.iter().any(|t| {
                lt.split('/').any(|p| {
                    let first = p
                        .split([' ', '-', '\u{2013}', '\u{2014}'])
                        .next()
                        .unwrap_or("");
                    // `Missions`: a Mission.
                    p.trim() == *t || first == *t || first.strip_suffix('s') == Some(t)
                })
            }) {
                self.non_units.push(NonUnit {
                    file: r.file.to_string(),
                    row: r.row,
                    name,
                    set,
                    card_type: ty,
                });
            } else if ty.is_empty() {
                self.skip(&r, "no type");
            } else if subordinate {
                self.skip(
                    &r,
                    format!(
                        "a Subordinate whose Subtype '{}' names no arena",
                        quote(r.get("Subtype"))
                    ),
                );
            } else {
                self.skip(
                    &r,
                    format!(
                        "type '{}' is neither a unit nor a known card type",
                        quote(&ty)
                    ),
                );
            }
            return Ok(());
        }
        // What one card can hold is bounded (the longest real text is
        // under 600 characters in 7 abilities): the reader's work on a
        // card is then bounded too, and a file's is linear in its rows.
        for column in ["Name", "Subtype"] {
            let n = r.get(column).chars().count();
            if n > MAX_NAME_CHARS {
                return Err(r.error(
                    column,
                    format!("{n} characters: a card's {column} holds at most {MAX_NAME_CHARS}"),
                ));
            }
        }
        let text = r.get("Text").to_string();
        let chars = text.chars().count();
        if chars > MAX_TEXT_CHARS {
            return Err(r.error(
                "Text",
                format!("{chars} characters: a card's text holds at most {MAX_TEXT_CHARS}"),
            ));
        }
        let abilities = text::split_abilities_in(&text, barred).len();
        if abilities > MAX_ABILITIES {
            return Err(r.error(
                "Text",
                format!("{abilities} abilities: a card holds at most {MAX_ABILITIES}"),
            ));
        }
        // A card read twice (AllSets.txt beside the set files): once.
        let key = (name.clone(), set.to_lowercase());
        if let Some(c) = self.by_name.get(&key).map(|&i| &self.cards[i]) {
            let reason = if c.text == text {
                self.repeated += 1;
                format!("the same card as {} row {}", c.file, c.row)
            } else {
                format!(
                    "a second card named '{}' in set {set} ({} row {} is used)",
                    quote(&name),
                    c.file,
                    c.row
                )
            };
            self.skip(&r, reason);
            return Ok(());
        }
        let power = r.stat("Power")?;
        let health = r.stat("Health")?;
        let cost = r.stat("Cost")?;
        let speed = r.stat("Speed")?;
        let mut variable = Vec::new();
        let mut num = |s: &Option<Stat>, what: &str| -> Option<u32> {
            match s {
                Some(Stat::Value(v)) => Some(*v),
                Some(Stat::Variable(v)) => {
                    variable.push(format!("{what} is {v} (set by its text)"));
                    None
                }
                None => {
                    variable.push(format!("no {what} printed"));
                    None
                }
            }
        };
        let p = num(&power, "power");
        let h = num(&health, "health");
        if h == Some(0) {
            variable.push("health 0".into());
        }
        let kinds = format!(
            "{subtype} {ty} {}",
            arenas
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(" ")
        );
        self.unread.push((self.cards.len(), kinds, barred));
        let variable = (!variable.is_empty()).then(|| variable.join(", "));
        if let Some(v) = &variable {
            self.skip(&r, format!("{v}: give it as \"{name}[power=N,health=N]\""));
            if let Some(s) = self.skipped.last_mut() {
                s.unit = true;
            }
        }
        let folded = (name.to_lowercase(), set.to_lowercase());
        if let Some(&i) = self.by_folded.get(&folded) {
            let c = &self.cards[i];
            self.notes.push(format!(
                "{} row {} and {} row {}: '{}' and '{}' differ only in case; each is addressed by its exact case",
                c.file,
                c.row,
                r.file,
                r.row,
                quote(&c.name),
                quote(&name)
            ));
        } else {
            self.by_folded.insert(folded, self.cards.len());
        }
        self.by_name.insert(key, self.cards.len());
        self.cards.push(Card {
            file: r.file.to_string(),
            row: r.row,
            name,
            set,
            side: r.get("Side").to_string(),
            card_type: ty,
            arenas,
            subtype,
            cost,
            speed,
            power: p,
            health: h.filter(|&h| h > 0),
            variable,
            subordinate,
            text,
            abilities: Vec::new(),
            ambiguous: false,
        });
        Ok(())
    }

    /// Reads the units' texts (each among every card's name: a text that
    /// names another card does not take it for its own unit), and marks
    /// names shared by cards of different sets (addressed `Name@SET`).
    fn finish(&mut self) {
        let names: Vec<&str> = self
            .cards
            .iter()
            .map(|c| c.name.as_str())
            .chain(self.non_units.iter().map(|n| n.name.as_str()))
            .collect();
        let others = std::sync::Arc::new(
            text::lex::Lexicon::of_names(names.iter().copied()).with_spelling(
                self.cards.iter().map(|c| c.text.as_str()),
                names.iter().copied(),
            ),
        );
        for (i, kinds, barred) in std::mem::take(&mut self.unread) {
            let c = &self.cards[i];
            let abilities = text::read_abilities_among(
                &c.text,
                &[c.name.as_str(), kinds.as_str()],
                barred,
                &others,
            );
            self.cards[i].abilities = abilities;
            // Stats printed `*` that its text sets to a count the two
            // units decide: the unit is ready to use (each pairing counts).
            let c = &mut self.cards[i];
            if c.variable.is_some() && stats_counted(c) {
                c.variable = None;
                let (file, row) = (c.file.clone(), c.row);
                self.skipped.retain(|s| !(s.file == file && s.row == row));
            }
        }
        let mut names: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for c in &self.cards {
            *names.entry(c.name.to_lowercase()).or_default() += 1;
        }
        for c in &mut self.cards {
            c.ambiguous = names[&c.name.to_lowercase()] > 1;
        }
    }

    /// The unit cards that can be used as they are (not needing values).
    pub fn units(&self) -> impl Iterator<Item = &Card> {
        self.cards.iter().filter(|c| c.variable.is_none())
    }

    /// Cards whose name, set, type, subtype or text contains `text`
    /// (compared folded: case, accents and apostrophes don't matter).
    pub fn find(&self, text: &str) -> Vec<&Card> {
        let t = fold_name(text);
        self.cards
            .iter()
            .filter(|c| {
                [&c.name, &c.set, &c.card_type, &c.subtype, &c.text]
                    .iter()
                    .any(|f| fold_name(f).contains(&t))
            })
            .collect()
    }

    /// The card named `name`: `Name@SET`, or exactly, or else the only
    /// card whose name contains it. Names are compared folded (see
    /// [`fold_name`]: case, accents and the kind of apostrophe or dash
    /// typed don't matter). A name shared by cards of several sets must say
    /// which (`Name@SET`); a name not found gets up to three nearest names.
    pub fn card(&self, name: &str) -> Result<&Card> {
        let n = name.trim();
        let (n, set) = match n.rsplit_once('@') {
            Some((n, s)) => (n.trim(), Some(s.trim())),
            None => (n, None),
        };
        if n.is_empty() {
            return Err(Error::new(ErrorKind::Missing, "an empty card name"));
        }
        let nl = fold_name(n);
        let in_set = |c: &&Card| set.is_none_or(|s| c.set.eq_ignore_ascii_case(s));
        let exact: Vec<&Card> = self
            .cards
            .iter()
            .filter(|c| fold_name(&c.name) == nl)
            .filter(in_set)
            .collect();
        fn pick<'c>(name: &str, found: Vec<&'c Card>) -> Result<Option<&'c Card>> {
            match found.as_slice() {
                [] => Ok(None),
                [one] => Ok(Some(*one)),
                many => {
                    // The exact case typed wins among names that differ only
                    // in case.
                    let typed: Vec<&&Card> =
                        many.iter().filter(|c| c.name == name.trim()).collect();
                    if let [one] = typed.as_slice() {
                        return Ok(Some(**one));
                    }
                    let names: Vec<String> = many.iter().take(6).map(|c| c.key()).collect();
                    Err(Error::new(
                        ErrorKind::Conflict,
                        format!(
                            "'{}' names {} cards ({}{}): say which",
                            quote(name),
                            many.len(),
                            names.join(", "),
                            if many.len() > 6 { ", ..." } else { "" }
                        ),
                    ))
                }
            }
        }
        if let Some(c) = pick(n, exact)? {
            return Ok(c);
        }
        let partial: Vec<&Card> = self
            .cards
            .iter()
            .filter(|c| fold_name(&c.name).contains(&nl))
            .filter(in_set)
            .collect();
        match pick(n, partial)? {
            Some(c) => Ok(c),
            None => {
                let not_unit = self.non_units.iter().any(|c| fold_name(&c.name) == nl);
                let near = self.nearest(&nl, 3);
                Err(Error::new(
                    ErrorKind::NotFound,
                    format!(
                        "no unit card named '{}'{}",
                        quote(name),
                        if not_unit {
                            " (that card is not a unit)".to_string()
                        } else if near.is_empty() {
                            String::new()
                        } else {
                            format!("; did you mean {}?", near.join(", "))
                        }
                    ),
                ))
            }
        }
    }

    /// Up to `most` card names nearest to `folded` (a folded name), nearest
    /// first, quoted: see [`CardDb::nearest_names`].
    pub fn nearest(&self, folded: &str, most: usize) -> Vec<String> {
        self.nearest_names(folded, most)
            .into_iter()
            .map(|n| format!("'{n}'"))
            .collect()
    }

    /// Up to `most` card names (as [`Card::key`] writes them) nearest to
    /// `text` (empty for a text longer than [`MAX_NEAR_TEXT`] characters),
    /// nearest first, those at least 0.6 alike: by the normalised
    /// Damerau–Levenshtein similarity of the folded text to the whole
    /// folded name or to any run of as many of its words (so `beygor`
    /// finds `Beyghor (A)`, and `Darth Mual (G)` finds `Darth Maul (G)
    /// (LEGO)` first); ties go to the closer whole name.
    ///
    /// ```
    /// use swtcg_cards::cards::CardDb;
    /// let db = CardDb::parse("Name\tSet\tType\tPower\tHealth\tText\n\
    ///     Beyghor (A)\tX\tCharacter\t3\t3\t\n\
    ///     Darth Maul (G) (LEGO)\tX\tCharacter\t7\t5\t\n\
    ///     Darth Tyranus (G)\tX\tCharacter\t5\t5\t\n").unwrap();
    /// assert_eq!(db.nearest_names("beygor", 3), ["Beyghor (A)"]);
    /// assert_eq!(db.nearest_names("Darth Mual (G)", 1), ["Darth Maul (G) (LEGO)"]);
    /// ```
    pub fn nearest_names(&self, text: &str, most: usize) -> Vec<String> {
        let q = fold_name(text.trim());
        // Bounded before it starts: no name is that long, so a text past
        // the bound has no near name; and a name far longer or shorter
        // than the text can't be 0.6 alike as a whole (its runs of words
        // are what is compared then, each about the text's length).
        let ql = q.chars().count();
        if ql == 0 || ql > MAX_NEAR_TEXT {
            return Vec::new();
        }
        let n = q.split_whitespace().count().max(1);
        let mut scored: Vec<(f64, f64, String)> = self
            .cards
            .iter()
            .map(|c| {
                let name = fold_name(&c.name);
                let whole = strsim::normalized_damerau_levenshtein(&q, &name);
                let words: Vec<&str> = name.split_whitespace().collect();
                let best = words
                    .windows(n.min(words.len()).max(1))
                    .map(|w| strsim::normalized_damerau_levenshtein(&q, &w.join(" ")))
                    .fold(whole, f64::max);
                (best, whole, c.key())
            })
            .filter(|(sim, _, _)| *sim >= 0.6)
            .collect();
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(b.1.total_cmp(&a.1))
                .then(a.2.cmp(&b.2))
        });
        let mut out: Vec<String> = Vec::new();
        for (_, _, k) in scored {
            if !out.contains(&k) {
                out.push(k);
            }
            if out.len() == most {
                break;
            }
        }
        out
    }

    /// Unit cards chosen by a selector: `all`, `name:TEXT`, `set:CODE`,
    /// `type:TYPE` (`type:Space` takes `Space/Ground` units too),
    /// comma-separated to combine, or plain text (names containing it).
    /// Cards that need values from the user are not selected.
    pub fn select(&self, selector: &str) -> Result<Vec<&Card>> {
        let mut out: Vec<&Card> = Vec::new();
        for part in selector.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let lower = part.to_lowercase();
            let units = || self.units();
            let picked: Vec<&Card> = if lower == "all" {
                units().collect()
            } else if let Some(v) = lower.strip_prefix("set:") {
                units()
                    .filter(|c| c.set.to_lowercase() == v.trim())
                    .collect()
            } else if let Some(v) = lower.strip_prefix("type:") {
                let v = v.trim();
                units()
                    .filter(|c| {
                        c.arenas.iter().any(|a| a.name().eq_ignore_ascii_case(v))
                            || c.card_type.eq_ignore_ascii_case(v)
                    })
                    .collect()
            } else {
                let v = lower
                    .strip_prefix("name:")
                    .unwrap_or(&lower)
                    .trim()
                    .to_string();
                units()
                    .filter(|c| c.name.to_lowercase().contains(&v))
                    .collect()
            };
            if picked.is_empty() {
                // A unit it names that is left out says why.
                let name = lower.strip_prefix("name:").unwrap_or(&lower).trim();
                let why = self
                    .skipped
                    .iter()
                    .find(|s| s.unit && s.name.to_lowercase().contains(name))
                    .map(|s| format!(" ({} is left out: {})", s.name, s.reason))
                    .unwrap_or_default();
                return Err(Error::new(
                    ErrorKind::NotFound,
                    format!("selector '{}' picks no unit card{why}", quote(part)),
                ));
            }
            for c in picked {
                if !out.iter().any(|o| std::ptr::eq(*o, c)) {
                    out.push(c);
                }
            }
        }
        if out.is_empty() {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!("selector '{}' picks no unit card", quote(selector)),
            ));
        }
        Ok(out)
    }
}
