//! Real cards: LackeyCCG card databases, card text to keywords and
//! conditions, and stacks.
//!
//! A database is the tab-separated file the community's LackeyCCG plugin
//! uses: a header row (`Name Set ImageFile Side Type Subtype Cost Speed
//! Power Health Rarity Number Usage Text`) and one card per row, abilities in
//! `Text` separated by ` | `. Real files are messy; [`CardDb::parse`] loads
//! every row that is a unit (whole-number power and health), skips the rest
//! with the reason, and never panics.
//!
//! Card text is read ability by ability ([`read_text`]): an unconditional
//! combat keyword (with its cost, if any) is applied; conditional text
//! (`gets Critical Hit 4 when attacking a unique unit`, `As long as ...`,
//! `Switch: a/b`, `INSERT: ...`) becomes a named [`Condition`] the user can
//! switch on, never applied or dropped silently; the rest is reported as
//! not understood.
//!
//! ```
//! use swtcg_odds::cards::read_text;
//! let t = read_text("Elude | Parry 3 | Beyghor gets Critical Hit 4 when attacking a unique unit. | Bombard 6");
//! assert_eq!(t.abilities.len(), 2);
//! assert_eq!(t.conditions.len(), 1);
//! assert_eq!(t.not_understood, vec!["Bombard 6".to_string()]);
//! ```

use crate::error::{Error, Result, read_file};
use crate::keywords::{Ability, Keyword, parse};
use crate::unit::{Keywords, Unit};

/// Who a condition's effect applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The card's own unit.
    This,
    /// The unit attacking this card's unit (`Each non-Jedi Character gets
    /// −2 power as long as it's attacking Obi-Wan`).
    ItsAttacker,
}

/// Conditional text: what it grants when the user switches it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The text as printed (matched by `--condition`).
    pub text: String,
    /// Keywords granted.
    pub grants: Vec<Ability>,
    /// Power added (negative: taken).
    pub power: i32,
    /// Who gets it.
    pub target: Target,
}

/// What a card's text says, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardText {
    /// Unconditional combat keywords.
    pub abilities: Vec<Ability>,
    /// Conditional text, each a switchable condition.
    pub conditions: Vec<Condition>,
    /// Ability texts not understood (not combat keywords, or unknown).
    pub not_understood: Vec<String>,
}

/// Removes reminder text in parentheses: `Fortitude (D'Qar ... itself.)`.
fn strip_reminder(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads what a conditional phrase grants: `+2 power and Critical Hit 2`,
/// `Parry 1 and "Pay 1 Force -> Deflect 1"`. Returns the abilities, the
/// power change, and whether everything was understood.
fn grants(phrase: &str) -> (Vec<Ability>, i32, bool) {
    let mut abilities = Vec::new();
    let mut power = 0;
    let mut all = true;
    let cleaned = phrase.replace(['"', '“', '”'], "");
    let items = cleaned
        .split(" and ")
        .flat_map(|s| s.split(','))
        .map(|s| s.trim().trim_end_matches('.').trim())
        .filter(|s| !s.is_empty());
    for item in items {
        let words: Vec<&str> = item.split_whitespace().collect();
        match words.as_slice() {
            [n, unit] if unit.eq_ignore_ascii_case("power") => {
                match n.replace('+', "").parse::<i32>() {
                    Ok(v) => power += v,
                    Err(_) => all = false,
                }
            }
            [_, unit] if unit.eq_ignore_ascii_case("speed") => {} // speed plays no part in an attack
            _ => match parse(item) {
                Ok(a) => abilities.push(a),
                Err(_) => all = false,
            },
        }
    }
    (abilities, power, all)
}

/// Cuts a granted phrase at the start of a trailing condition.
fn cut_clause(s: &str) -> &str {
    let lower = s.to_ascii_lowercase();
    let mut end = s.len();
    for marker in [" when ", " until ", " as long as ", " while "] {
        if let Some(i) = lower.find(marker) {
            end = end.min(i);
        }
    }
    &s[..end]
}

/// Reads one conditional ability text, if it grants anything understood.
fn condition(text: &str) -> Option<Condition> {
    let body = text.strip_prefix("INSERT:").map(str::trim).unwrap_or(text);
    let lower = body.to_ascii_lowercase();
    let at = lower.find(" gets ")?;
    let granted = cut_clause(&body[at + 6..]);
    let (abilities, power, _) = grants(granted);
    if abilities.is_empty() && power == 0 {
        return None;
    }
    let target = if lower.starts_with("each non-") || lower.contains("as long as it's attacking") {
        Target::ItsAttacker
    } else {
        Target::This
    };
    Some(Condition {
        text: text.to_string(),
        grants: abilities,
        power,
        target,
    })
}

/// Reads a card's text: abilities separated by `|`.
pub fn read_text(text: &str) -> CardText {
    let mut out = CardText::default();
    for raw in text.split('|') {
        let original = raw.trim();
        if original.is_empty() {
            continue;
        }
        let seg = strip_reminder(original);
        if let Some(modes) = seg.strip_prefix("Switch:") {
            // Each mode of a switch is a condition of its own.
            for mode in modes.split('/') {
                let mode = mode.trim();
                let (abilities, power, all) = grants(mode);
                let label = format!("Switch: {mode}");
                if abilities.is_empty() && power == 0 {
                    out.not_understood.push(label);
                    continue;
                }
                if !all {
                    out.not_understood.push(label.clone());
                }
                out.conditions.push(Condition {
                    text: label,
                    grants: abilities,
                    power,
                    target: Target::This,
                });
            }
            continue;
        }
        match parse(&seg) {
            Ok(a) => out.abilities.push(a),
            Err(_) => match condition(&seg) {
                Some(c) => out.conditions.push(c),
                None => out.not_understood.push(original.to_string()),
            },
        }
    }
    out
}

/// A unit card from a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its row in the file (1 = the header).
    pub row: usize,
    /// Its name, version included: `Luke Skywalker (B2)`.
    pub name: String,
    /// Set code.
    pub set: String,
    /// Side (L, D, N).
    pub side: String,
    /// Type (Character, Ground, Space, ...).
    pub card_type: String,
    /// Subtype.
    pub subtype: String,
    /// Build cost, when printed.
    pub cost: Option<u32>,
    /// Speed, when printed.
    pub speed: Option<u32>,
    /// Power.
    pub power: u32,
    /// Health.
    pub health: u32,
    /// The card text as printed.
    pub text: String,
    /// The text, read.
    pub read: CardText,
}

impl Card {
    /// The unit's name without its version: `Luke Skywalker`.
    pub fn base_name(&self) -> &str {
        base_name(&self.name)
    }

    /// The version in parentheses (`B2`), for unique units.
    pub fn version(&self) -> Option<&str> {
        let n = self.name.trim_end();
        let open = n.rfind(" (")?;
        n.ends_with(')').then(|| &n[open + 2..n.len() - 1])
    }

    /// Unique units have versions.
    pub fn is_unique(&self) -> bool {
        self.version().is_some()
    }

    /// Its Stack list, if it has the Stack ability.
    pub fn stack_list(&self) -> Vec<String> {
        self.read
            .abilities
            .iter()
            .filter_map(|a| match &a.keyword {
                Keyword::Stack(l) => Some(l.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    }
}

impl Card {
    /// A card as text: stats, keywords, numbered conditions, what was not understood.
    pub fn to_text(&self) -> String {
        let c = self;
        let mut out = format!(
            "{} [{} {} {}] power {} health {}{}{} (row {})\n",
            c.name,
            c.set,
            c.side,
            c.card_type,
            c.power,
            c.health,
            c.cost.map_or(String::new(), |v| format!(" cost {v}")),
            c.speed.map_or(String::new(), |v| format!(" speed {v}")),
            c.row
        );
        for a in &c.read.abilities {
            out.push_str(&format!("  keyword: {a}\n"));
        }
        for (i, k) in c.read.conditions.iter().enumerate() {
            let mut grants: Vec<String> = k.grants.iter().map(|a| a.to_string()).collect();
            if k.power != 0 {
                grants.push(format!("{:+} power", k.power));
            }
            let to = match k.target {
                Target::This => "",
                Target::ItsAttacker => " (to the unit attacking it)",
            };
            out.push_str(&format!(
                "  condition {}: \"{}\" -> {}{to}\n",
                i + 1,
                k.text,
                grants.join(", ")
            ));
        }
        for n in &c.read.not_understood {
            out.push_str(&format!("  not understood: {n}\n"));
        }
        out
    }

    /// A card as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        let c = self;
        serde_json::json!({
            "name": c.name, "set": c.set, "side": c.side, "type": c.card_type, "subtype": c.subtype,
            "cost": c.cost, "speed": c.speed, "power": c.power, "health": c.health, "row": c.row,
            "keywords": c.read.abilities.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            "conditions": c.read.conditions.iter().enumerate().map(|(i, k)| serde_json::json!({
                "index": i + 1, "text": k.text,
                "grants": k.grants.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
                "power": k.power,
                "to": match k.target { Target::This => "itself", Target::ItsAttacker => "its attacker" },
            })).collect::<Vec<_>>(),
            "not_understood": c.read.not_understood,
        })
    }
}

/// A name without its trailing `(version)`.
pub fn base_name(name: &str) -> &str {
    let n = name.trim();
    match n.rfind(" (") {
        Some(i) if n.ends_with(')') => &n[..i],
        _ => n,
    }
}

/// A loaded card database.
#[derive(Clone, Debug, Default)]
pub struct CardDb {
    /// The unit cards.
    pub cards: Vec<Card>,
    /// `(row, name, reason)` of every row skipped.
    pub skipped: Vec<(usize, String, String)>,
}

const COLUMNS: [&str; 14] = [
    "Name",
    "Set",
    "ImageFile",
    "Side",
    "Type",
    "Subtype",
    "Cost",
    "Speed",
    "Power",
    "Health",
    "Rarity",
    "Number",
    "Usage",
    "Text",
];

impl CardDb {
    /// Reads a database file.
    pub fn from_file(path: &str) -> Result<CardDb> {
        CardDb::parse(&read_file(path)?).map_err(|e| e.about(path))
    }

    /// Parses database text: a header row naming the columns, then cards.
    /// Rows that are not units are skipped (with the reason); only a
    /// missing header is an error.
    pub fn parse(text: &str) -> Result<CardDb> {
        let mut lines = text.lines().enumerate();
        let header = loop {
            match lines.next() {
                Some((_, l)) if l.trim().is_empty() => continue,
                Some((_, l)) => break l,
                None => return Err(Error::input("empty card database")),
            }
        };
        let names: Vec<String> = header
            .split('\t')
            .map(|c| c.trim().to_ascii_lowercase())
            .collect();
        let col = |name: &str| names.iter().position(|c| c == &name.to_ascii_lowercase());
        let (Some(name_col), Some(power_col), Some(health_col)) =
            (col("Name"), col("Power"), col("Health"))
        else {
            return Err(Error::input(format!(
                "row 1: the header must name the columns (expected {})",
                COLUMNS.join(", ")
            )));
        };
        let mut db = CardDb::default();
        for (i, line) in lines {
            let row = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            let get = |c: Option<usize>| c.and_then(|c| cells.get(c)).map_or("", |s| s.trim());
            let name = get(Some(name_col)).to_string();
            if name.is_empty() {
                db.skipped.push((row, String::new(), "no name".into()));
                continue;
            }
            let power = get(Some(power_col)).parse::<u32>();
            let health = get(Some(health_col)).parse::<u32>();
            let (Ok(power), Ok(health)) = (power, health) else {
                db.skipped.push((
                    row,
                    name,
                    "not a unit (no whole-number power and health)".into(),
                ));
                continue;
            };
            if health == 0 {
                db.skipped.push((row, name, "health 0".into()));
                continue;
            }
            let text = get(col("Text")).to_string();
            db.cards.push(Card {
                row,
                name,
                set: get(col("Set")).to_string(),
                side: get(col("Side")).to_string(),
                card_type: get(col("Type")).to_string(),
                subtype: get(col("Subtype")).to_string(),
                cost: get(col("Cost")).parse().ok(),
                speed: get(col("Speed")).parse().ok(),
                power,
                health,
                read: read_text(&text),
                text,
            });
        }
        Ok(db)
    }

    /// Cards whose name, set, type, subtype or text contains `text`
    /// (case-insensitive).
    pub fn find(&self, text: &str) -> Vec<&Card> {
        let t = text.to_lowercase();
        self.cards
            .iter()
            .filter(|c| {
                [&c.name, &c.set, &c.card_type, &c.subtype, &c.text]
                    .iter()
                    .any(|f| f.to_lowercase().contains(&t))
            })
            .collect()
    }

    /// The card named `name`: exactly (case-insensitive), or else the only
    /// card whose name contains it.
    pub fn card(&self, name: &str) -> Result<&Card> {
        let n = name.trim().to_lowercase();
        if let Some(c) = self.cards.iter().find(|c| c.name.to_lowercase() == n) {
            return Ok(c);
        }
        let matches: Vec<&Card> = self
            .cards
            .iter()
            .filter(|c| c.name.to_lowercase().contains(&n))
            .collect();
        match matches.as_slice() {
            [one] => Ok(one),
            [] => Err(Error::input(format!("no unit card named '{name}'"))),
            many => {
                let names: Vec<&str> = many.iter().take(6).map(|c| c.name.as_str()).collect();
                Err(Error::input(format!(
                    "'{name}' names {} cards ({}{}): be more precise",
                    many.len(),
                    names.join(", "),
                    if many.len() > 6 { ", ..." } else { "" }
                )))
            }
        }
    }

    /// Cards chosen by a selector: `all`, `name:TEXT`, `set:CODE`,
    /// `type:TYPE` (comma-separated to combine), or plain text (names
    /// containing it).
    pub fn select(&self, selector: &str) -> Result<Vec<&Card>> {
        let mut out: Vec<&Card> = Vec::new();
        for part in selector.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let lower = part.to_lowercase();
            let picked: Vec<&Card> = if lower == "all" {
                self.cards.iter().collect()
            } else if let Some(v) = lower.strip_prefix("set:") {
                self.cards
                    .iter()
                    .filter(|c| c.set.to_lowercase() == v.trim())
                    .collect()
            } else if let Some(v) = lower.strip_prefix("type:") {
                self.cards
                    .iter()
                    .filter(|c| c.card_type.to_lowercase().split('/').any(|t| t == v.trim()))
                    .collect()
            } else {
                let v = lower
                    .strip_prefix("name:")
                    .unwrap_or(&lower)
                    .trim()
                    .to_string();
                self.cards
                    .iter()
                    .filter(|c| c.name.to_lowercase().contains(&v))
                    .collect()
            };
            if picked.is_empty() {
                return Err(Error::input(format!(
                    "selector '{part}' picks no unit card"
                )));
            }
            for c in picked {
                if !out.iter().any(|o| std::ptr::eq(*o, c)) {
                    out.push(c);
                }
            }
        }
        if out.is_empty() {
            return Err(Error::input(format!(
                "selector '{selector}' picks no unit card"
            )));
        }
        Ok(out)
    }
}

/// A unit made of one to four cards: the top card's text and stats, +1
/// power, +1 health and +10 speed for each card beneath.
#[derive(Clone, Debug)]
pub struct Stacked<'a> {
    /// The cards, top first.
    pub cards: Vec<&'a Card>,
}

impl<'a> Stacked<'a> {
    /// Builds a stack, checking the rules: at most 4 cards; each unique
    /// version once; cards of other units only when the top card's Stack
    /// lists them (each listed unique unit once); a card listed by another
    /// card's Stack never on top.
    pub fn new(cards: Vec<&'a Card>) -> Result<Stacked<'a>> {
        let names = || {
            cards
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(" + ")
        };
        if cards.is_empty() {
            return Err(Error::input("an empty stack"));
        }
        if cards.len() > 4 {
            return Err(Error::input(format!(
                "stack {}: {} cards; a stack holds at most 4 (rule: Stack)",
                names(),
                cards.len()
            )));
        }
        let top = cards[0];
        let listed = |by: &Card, c: &Card| {
            by.stack_list()
                .iter()
                .any(|l| l.eq_ignore_ascii_case(c.base_name()) || l.eq_ignore_ascii_case(&c.name))
        };
        for (i, c) in cards.iter().enumerate() {
            for d in &cards[i + 1..] {
                if c.is_unique() && c.name.eq_ignore_ascii_case(&d.name) {
                    return Err(Error::input(format!(
                        "stack {}: {} appears twice; a stack holds each unique version once (rule: Stack)",
                        names(),
                        c.name
                    )));
                }
            }
        }
        for below in &cards[1..] {
            if listed(below, top) {
                return Err(Error::input(format!(
                    "stack {}: {} is listed by {}'s Stack and can't be on top (rule: Stack)",
                    names(),
                    top.name,
                    below.name
                )));
            }
        }
        let mut listed_units: Vec<&str> = Vec::new();
        for below in &cards[1..] {
            let same_unit = top.is_unique()
                && below.is_unique()
                && top.base_name().eq_ignore_ascii_case(below.base_name());
            if same_unit {
                continue;
            }
            if listed(top, below) {
                if below.is_unique() {
                    if listed_units
                        .iter()
                        .any(|u| u.eq_ignore_ascii_case(below.base_name()))
                    {
                        return Err(Error::input(format!(
                            "stack {}: two versions of {} from {}'s Stack list; only one of each listed unique unit (rule: Stack)",
                            names(),
                            below.base_name(),
                            top.name
                        )));
                    }
                    listed_units.push(below.base_name());
                }
                continue;
            }
            let why = if !below.is_unique() || !top.is_unique() {
                "only versions of the same unique unit stack"
            } else {
                "they are different unique units"
            };
            return Err(Error::input(format!(
                "stack {}: {} can't go beneath {}: {why}, unless the top card's Stack lists it (rule: Stack)",
                names(),
                below.name,
                top.name
            )));
        }
        Ok(Stacked { cards })
    }

    /// The top card.
    pub fn top(&self) -> &'a Card {
        self.cards[0]
    }

    /// The stack's name: the top card's, with `+N` for the cards beneath.
    pub fn name(&self) -> String {
        match self.cards.len() {
            1 => self.top().name.clone(),
            n => format!("{} (stack of {n})", self.top().name),
        }
    }

    /// Power with the stack bonus.
    pub fn power(&self) -> u32 {
        self.top().power + self.cards.len() as u32 - 1
    }

    /// Health with the stack bonus.
    pub fn health(&self) -> u32 {
        self.top().health + self.cards.len() as u32 - 1
    }

    /// Speed with the stack bonus, when printed.
    pub fn speed(&self) -> Option<u32> {
        self.top()
            .speed
            .map(|s| s + 10 * (self.cards.len() as u32 - 1))
    }

    /// The conditions of the top card.
    pub fn conditions(&self) -> &[Condition] {
        &self.top().read.conditions
    }

    /// The conditions this stack meets by itself: `As long as X is in
    /// ...'s stack` with a card of X beneath the top one.
    pub fn met_conditions(&self) -> Vec<usize> {
        self.conditions()
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                let t = c.text.to_lowercase();
                let Some(rest) = t.strip_prefix("as long as ") else {
                    return false;
                };
                let Some((who, place)) = rest.split_once(" is in ") else {
                    return false;
                };
                place.contains("stack")
                    && self.cards[1..]
                        .iter()
                        .any(|b| b.base_name().to_lowercase() == who.trim())
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The unit, with the given conditions (indices into [`Self::conditions`])
    /// switched on for itself, and `power_change` from its opponent's
    /// conditions.
    pub fn unit(&self, on: &[usize], power_change: i32) -> Unit {
        self.unit_with(on, power_change, &[])
    }

    /// [`Self::unit`] with `extra` abilities added to the card's.
    pub fn unit_with(&self, on: &[usize], power_change: i32, extra: &[Ability]) -> Unit {
        let top = self.top();
        let mut abilities = top.read.abilities.clone();
        abilities.extend(extra.iter().cloned());
        let mut power = self.power() as i64 + power_change as i64;
        for &i in on {
            let c = &top.read.conditions[i];
            if c.target == Target::This {
                abilities.extend(c.grants.iter().cloned());
                power += c.power as i64;
            }
        }
        Unit {
            name: self.name(),
            power: power.max(0) as u32,
            health: Some(self.health()),
            counters: 0,
            keywords: Keywords::from_abilities(&abilities),
        }
    }

    /// Power its opponent gets from the given conditions (those that apply
    /// to the unit attacking this one).
    pub fn power_for_attacker(&self, on: &[usize]) -> i32 {
        on.iter()
            .map(|&i| &self.top().read.conditions[i])
            .filter(|c| c.target == Target::ItsAttacker)
            .map(|c| c.power)
            .sum()
    }
}

impl CardDb {
    /// A stack from `spec`: card names separated by ` + `, top first.
    pub fn stack(&self, spec: &str) -> Result<Stacked<'_>> {
        let cards = spec
            .split(" + ")
            .map(|n| self.card(n))
            .collect::<Result<Vec<_>>>()?;
        Stacked::new(cards)
    }
}
