//! Units built from cards for one attack: stacks, pilots, user-given stats,
//! and the conditions the two cards decide.
//!
//! A [`Piece`] is what a player puts in an arena: a stack of one to four
//! cards (top first) and optionally a pilot. [`CardDb::piece`] reads one
//! from words like `"Luke's X-Wing (A) with Luke Skywalker (E)"` or
//! `"Luke Skywalker (B2) + Luke Skywalker (A)"`, checking the Stack and
//! Pilot rules. [`pair`] builds the two engine [`Unit`]s of one attack,
//! applying every keyword, every condition the two cards decide (`applied:
//! attacking a unique Character`), and the conditions the user switched on.

use super::text::{
    CardSide, Count, Descriptor, Effect, ReadAbility, Situation, Subject, Term, effects_text,
};
use super::{Arena, Card, CardDb};
use decide::{count, counted_stat, evaluate};

mod decide;
use serde::Serialize;
use swtcg_engine::error::{Error, ErrorKind, Result, quote};
use swtcg_engine::keywords::Ability;
use swtcg_engine::keywords::{KeywordKind, Keywords, UnitEffect, When};
use swtcg_engine::unit::Unit;

/// Names that represent the same unit (the rules' "Different Versions with
/// Different Names"): built-in published pairs, plus the user's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SameUnits {
    /// `(name, name, source)` pairs; equivalence is their transitive closure.
    pub pairs: Vec<(String, String, String)>,
}

/// The built-in pairs, each with its source.
pub const PUBLISHED_SAME_UNITS: &[(&str, &str, &str)] = &[(
    "Padme Amidala",
    "Queen Amidala",
    "SWTCG rules, \"Different Versions with Different Names\" (cited in RULES.md, Stack, and the glossary's Stack text)",
)];

impl Default for SameUnits {
    fn default() -> Self {
        SameUnits {
            pairs: PUBLISHED_SAME_UNITS
                .iter()
                .map(|(a, b, s)| (a.to_string(), b.to_string(), s.to_string()))
                .collect(),
        }
    }
}

fn norm_name(n: &str) -> String {
    n.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'é' | 'è' | '_' | '?' => 'e',
            c => c,
        })
        .collect()
}

impl SameUnits {
    /// Adds `A=B` pairs from text: one per line (or per `--same-unit`), `#`
    /// comments and blank lines ignored.
    pub fn add_text(&mut self, text: &str, source: &str) -> Result<()> {
        for (i, line) in text.lines().enumerate() {
            let l = line.split('#').next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            let (a, b) = l.split_once('=').ok_or_else(|| {
                Error::new(
                    ErrorKind::Syntax,
                    format!("{source}: line {}: '{}' is not NAME=NAME", i + 1, quote(l)),
                )
            })?;
            let (a, b) = (super::base_name(a.trim()), super::base_name(b.trim()));
            if a.is_empty() || b.is_empty() {
                return Err(Error::new(
                    ErrorKind::Missing,
                    format!("{source}: line {}: an empty name in '{}'", i + 1, quote(l)),
                ));
            }
            self.pairs
                .push((a.to_string(), b.to_string(), source.to_string()));
        }
        Ok(())
    }

    /// Whether two unit names (versions and print tags ignored) represent
    /// the same unit.
    pub fn same(&self, a: &str, b: &str) -> bool {
        let (a, b) = (
            norm_name(super::base_name(a)),
            norm_name(super::base_name(b)),
        );
        if a == b {
            return true;
        }
        // Transitive closure over the pairs, from a.
        let mut seen = vec![a.clone()];
        let mut i = 0;
        while i < seen.len() {
            let cur = seen[i].clone();
            for (x, y, _) in &self.pairs {
                let (x, y) = (norm_name(x), norm_name(y));
                for (from, to) in [(&x, &y), (&y, &x)] {
                    if *from == cur && !seen.contains(to) {
                        seen.push(to.clone());
                    }
                }
            }
            i += 1;
        }
        seen.contains(&b)
    }
}

/// A unit as a player fields it: a stack (top first), a pilot, and values
/// the user gave for stats the card sets by its text.
#[derive(Clone, Debug)]
pub struct Piece<'a> {
    /// The stack, top card first (one card for a plain unit).
    pub cards: Vec<&'a Card>,
    /// The pilot, if any.
    pub pilot: Option<&'a Card>,
    /// Power given by the user (`[power=N]`).
    pub power: Option<u32>,
    /// Health given by the user (`[health=N]`).
    pub health: Option<u32>,
}

/// Where an ability of a piece comes from.
#[derive(Clone, Copy, Debug)]
pub struct Sourced<'a> {
    /// The card printing it.
    pub card: &'a Card,
    /// Its index among that card's abilities (from 0).
    pub index: usize,
    /// The ability.
    pub ability: &'a ReadAbility,
}

impl<'a> Piece<'a> {
    /// The top card.
    pub fn top(&self) -> &'a Card {
        self.cards[0]
    }

    /// The piece's name: the top card's, with the stack size and pilot.
    pub fn name(&self) -> String {
        let mut n = self.top().name.clone();
        if self.cards.len() > 1 {
            n = format!("{n} (stack of {})", self.cards.len());
        }
        if let Some(p) = self.pilot {
            n = format!("{n} with {}", p.name);
        }
        n
    }

    /// Power: the user's value, or the top card's plus 1 for each card
    /// beneath.
    pub fn power(&self) -> Result<u32> {
        let beneath = self.cards.len() as u32 - 1;
        match (self.power, self.top().power) {
            (Some(p), _) => Ok(p),
            (None, Some(p)) => Ok(p.saturating_add(beneath)),
            (None, None) => Err(self.needs("power")),
        }
    }

    /// Health: the user's value, or the top card's plus 1 for each card
    /// beneath.
    pub fn health(&self) -> Result<u32> {
        let beneath = self.cards.len() as u32 - 1;
        match (self.health, self.top().health) {
            (Some(h), _) => Ok(h),
            (None, Some(h)) => Ok(h.saturating_add(beneath)),
            (None, None) => Err(self.needs("health")),
        }
    }

    fn needs(&self, what: &str) -> Error {
        Error::new(
            ErrorKind::Syntax,
            format!(
                "{}: its {what} is set by its text ({}); give it as \"{}[{what}=N]\"",
                self.top().name,
                self.top().variable.as_deref().unwrap_or("not printed"),
                self.top().name
            ),
        )
    }

    /// The abilities that apply to this unit: the top card's; `INSERT:`
    /// text of every card of the stack; the pilot's grants.
    pub fn abilities(&self) -> Vec<Sourced<'a>> {
        let mut out = Vec::new();
        let top = self.top();
        for (i, a) in top.abilities.iter().enumerate() {
            out.push(Sourced {
                card: top,
                index: i,
                ability: a,
            });
        }
        for c in &self.cards[1..] {
            for (i, a) in c.abilities.iter().enumerate() {
                if a.insert {
                    out.push(Sourced {
                        card: c,
                        index: i,
                        ability: a,
                    });
                }
            }
        }
        if let Some(p) = self.pilot {
            for (i, a) in p.abilities.iter().enumerate() {
                if let super::text::Reading::Pilot(g) = &a.reading
                    && fits(g, self.top())
                {
                    for grant in &g.grants {
                        out.push(Sourced {
                            card: p,
                            index: i,
                            ability: grant,
                        });
                    }
                }
            }
        }
        out
    }

    /// Its descriptive words: subtype, arenas, name, and what it is treated as.
    fn words(&self) -> Vec<String> {
        let top = self.top();
        let mut text = format!("{} {} {}", top.subtype, top.card_type, top.base_name());
        for a in top.arenas.iter() {
            text.push(' ');
            text.push_str(a.name());
        }
        for s in self.abilities() {
            if let super::text::Reading::Keyword(k) = &s.ability.reading {
                for e in &k.effects {
                    if let Effect::TreatAs { words } = e {
                        text.push(' ');
                        text.push_str(words);
                    }
                }
            }
        }
        text.replace([',', '-', '/'], " ")
            .split_whitespace()
            .map(|w| super::text::singular(&w.to_lowercase()))
            .collect()
    }
}

/// Whether a pilot grant fits a unit: one of its kinds is in the unit's
/// subtype (or type), and the unit is not a Droid.
pub fn fits(g: &super::text::PilotGrant, unit: &Card) -> bool {
    let mut words = format!("{} {}", unit.subtype, unit.card_type).to_lowercase();
    for a in &unit.abilities {
        for e in a.effects() {
            if let Effect::PilotableAs { kind } = e {
                words.push(' ');
                words.push_str(&kind.to_lowercase());
            }
        }
    }
    let is_droid = unit
        .subtype
        .to_lowercase()
        .split_whitespace()
        .any(|w| w == "droid");
    !is_droid
        && g.kinds.iter().any(|k| {
            let k = super::text::singular(&k.to_lowercase());
            let k = k.trim_start_matches("unique ").to_string();
            k == "space unit" && unit.arenas.contains(&Arena::Space)
                || words.contains(&k)
                || words.contains(&k.replace(' ', ""))
        })
}

/// A card spec: `Name`, `Name@SET`, with `[power=N,health=N]` optional.
fn card_spec<'a>(db: &'a CardDb, spec: &str) -> Result<(&'a Card, Option<u32>, Option<u32>)> {
    let s = spec.trim();
    let (name, values) = match s.find('[') {
        Some(i) if s.ends_with(']') => (&s[..i], Some(&s[i + 1..s.len() - 1])),
        _ => (s, None),
    };
    let card = db.card(name)?;
    let (mut power, mut health) = (None, None);
    if let Some(v) = values {
        for kv in v.split(',').map(str::trim).filter(|k| !k.is_empty()) {
            let (k, n) = kv.split_once('=').ok_or_else(|| {
                Error::new(
                    ErrorKind::Syntax,
                    format!("'{}': expected [power=N,health=N]", quote(spec)),
                )
            })?;
            let n: u32 = n.trim().parse().map_err(|_| {
                Error::new(
                    ErrorKind::Unknown,
                    format!(
                        "'{}': '{}' is not a whole number",
                        quote(spec),
                        quote(n.trim())
                    ),
                )
            })?;
            let twice = || {
                Error::new(
                    ErrorKind::Conflict,
                    format!("'{}': {} is given twice", quote(spec), quote(k.trim())),
                )
            };
            match k.trim().to_lowercase().as_str() {
                "power" if power.is_some() => return Err(twice()),
                "health" if health.is_some() => return Err(twice()),
                "power" => power = Some(n),
                "health" => health = Some(n),
                other => {
                    return Err(Error::new(
                        ErrorKind::Unknown,
                        format!(
                            "'{}': '{}' is not power or health",
                            quote(spec),
                            quote(other)
                        ),
                    ));
                }
            }
        }
    }
    Ok((card, power, health))
}

impl CardDb {
    /// A piece from words: `Top + Beneath + ...` (a stack, top first),
    /// optionally `... with Pilot`; each card `Name`, `Name@SET` or
    /// `Name[power=N,health=N]`. Stack and Pilot rules are checked, with an
    /// error naming the rule broken.
    pub fn piece(&self, spec: &str) -> Result<Piece<'_>> {
        let (stack_spec, pilot_spec) = match spec.rsplit_once(" with ") {
            Some((s, p)) => (s, Some(p)),
            None => (spec, None),
        };
        // Bounded before any name is looked up: a stack holds at most 4
        // cards.
        let parts = stack_spec.matches(" + ").count() + 1;
        if parts > 4 {
            return Err(Error::new(
                ErrorKind::Rules,
                format!(
                    "stack '{}': {parts} cards; a stack holds at most 4 (rule: Stack)",
                    quote(stack_spec)
                ),
            ));
        }
        let mut cards = Vec::new();
        let (mut power, mut health) = (None, None);
        for (i, part) in stack_spec.split(" + ").enumerate() {
            let (c, p, h) = card_spec(self, part)?;
            if i == 0 {
                power = p;
                health = h;
            } else if p.is_some() || h.is_some() {
                return Err(Error::new(
                    ErrorKind::Conflict,
                    format!("'{}': values go on the top card", quote(part)),
                ));
            }
            cards.push(c);
        }
        check_stack(&cards, &self.same)?;
        let pilot = match pilot_spec {
            None => None,
            Some(p) => {
                let (pc, _, _) = card_spec(self, p)?;
                let grants: Vec<&super::text::PilotGrant> = pc
                    .abilities
                    .iter()
                    .filter_map(|a| match &a.reading {
                        super::text::Reading::Pilot(g) => Some(g),
                        _ => None,
                    })
                    .collect();
                if grants.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Rules,
                        format!(
                            "{} has no Pilot ability, so it can't pilot {} (rule: Pilot)",
                            pc.name, cards[0].name
                        ),
                    ));
                }
                if !grants.iter().any(|g| fits(g, cards[0])) {
                    let kinds: Vec<String> = grants.iter().flat_map(|g| g.kinds.clone()).collect();
                    return Err(Error::new(
                        ErrorKind::Rules,
                        format!(
                            "{} is a {} Pilot and {} is a {} {}{}: it doesn't fit (rule: Pilot)",
                            pc.name,
                            kinds.join("/"),
                            cards[0].name,
                            cards[0].card_type,
                            cards[0].subtype,
                            if cards[0].subtype.to_lowercase().contains("droid") {
                                " (a Droid can't be piloted)"
                            } else {
                                ""
                            }
                        ),
                    ));
                }
                if cards.iter().any(|c| std::ptr::eq(*c, pc)) {
                    return Err(Error::new(
                        ErrorKind::Rules,
                        format!("{} can't pilot its own stack", pc.name),
                    ));
                }
                Some(pc)
            }
        };
        Ok(Piece {
            cards,
            pilot,
            power,
            health,
        })
    }
}

/// Whether a Stack list item admits a card: by name (or a name of the same
/// unit), or by a criterion (`Any unique Jedi Character`).
fn admits(item: &str, c: &Card, same: &SameUnits) -> bool {
    let l = item.trim().trim_end_matches('.').to_lowercase();
    if let Some(crit) = l.strip_prefix("any ") {
        let orig = &item.trim()[4..];
        let _ = crit;
        return match super::text::read_descriptor(orig) {
            Some(d) => {
                let p = Piece {
                    cards: vec![c],
                    pilot: None,
                    power: None,
                    health: None,
                };
                matches(&d, &p, 0, None) == Some(true)
            }
            None => false,
        };
    }
    same.same(item, c.base_name()) || item.eq_ignore_ascii_case(&c.name)
}

/// Checks the stack rules: at most 4 cards; each unique version once;
/// versions of one unit (or names of the same unit) stack; other cards only
/// when the top card's Stack admits them (each listed unique unit once).
/// Only the top card's text is active, so only its Stack list decides: a
/// card beneath that lists the top card changes nothing (two cards that
/// list each other stack in either order).
pub fn check_stack(cards: &[&Card], same: &SameUnits) -> Result<()> {
    let names = || {
        cards
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    };
    if cards.is_empty() {
        return Err(Error::new(ErrorKind::Missing, "an empty stack"));
    }
    if cards.len() > 4 {
        return Err(Error::new(
            ErrorKind::Rules,
            format!(
                "stack {}: {} cards; a stack holds at most 4 (rule: Stack)",
                names(),
                cards.len()
            ),
        ));
    }
    let top = cards[0];
    for (i, c) in cards.iter().enumerate() {
        for d in &cards[i + 1..] {
            if c.is_unique()
                && super::base_name(&c.name) == super::base_name(&d.name)
                && c.version() == d.version()
            {
                return Err(Error::new(
                    ErrorKind::Rules,
                    format!(
                        "stack {}: {} appears twice; a stack holds each unique version once (rule: Stack)",
                        names(),
                        c.name
                    ),
                ));
            }
        }
    }
    let mut listed_units: Vec<&str> = Vec::new();
    for below in &cards[1..] {
        if top.is_unique() && below.is_unique() && same.same(top.base_name(), below.base_name()) {
            continue;
        }
        if top.stack_list().iter().any(|l| admits(l, below, same)) {
            if below.is_unique() {
                if listed_units.iter().any(|u| same.same(u, below.base_name())) {
                    return Err(Error::new(
                        ErrorKind::Rules,
                        format!(
                            "stack {}: two versions of {} from {}'s Stack list; only one of each listed unique unit (rule: Stack)",
                            names(),
                            below.base_name(),
                            top.name
                        ),
                    ));
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
        return Err(Error::new(
            ErrorKind::Rules,
            format!(
                "stack {}: {} can't go beneath {}: {why}, unless the top card's Stack admits it or they are the same unit (same-unit) (rule: Stack)",
                names(),
                below.name,
                top.name
            ),
        ));
    }
    Ok(())
}

/// Whether a description matches a piece (`counters`: its damage counters).
fn matches(d: &Descriptor, p: &Piece, counters: u32, arena: Option<Arena>) -> Option<bool> {
    let words = p.words();
    let has = |phrase: &str| {
        let ph: Vec<String> = phrase
            .replace('-', " ")
            .split_whitespace()
            .map(|w| super::text::singular(&w.to_lowercase()))
            .collect();
        !ph.is_empty() && words.windows(ph.len()).any(|w| w == ph.as_slice())
    };
    let top = p.top();
    // Each term holds, fails, or can't be told (a qualifier the user says).
    let term = |t: &Term| -> Option<bool> {
        Some(match t {
            Term::Unit => true,
            Term::Words(w) => has(w),
            Term::Not(w) => !has(w),
            Term::Unique => top.is_unique(),
            Term::NonUnique => !top.is_unique(),
            Term::Side(s) => CardSide::from_letter(&top.side) == Some(*s),
            Term::HealthAtLeast(n) => p.health().is_ok_and(|h| h >= *n),
            Term::PowerAtMost(n) => p.power().is_ok_and(|v| v <= *n),
            Term::Damaged => counters > 0,
            Term::HasKeyword(k) => has_keyword(p, k),
            Term::HasAnyKeyword(ks) => ks.iter().any(|k| has_keyword(p, k)),
            Term::InArena(a) => arena.is_none_or(|x| x == *a),
            Term::HealthAbovePower => matches!((p.health(), p.power()), (Ok(h), Ok(w)) if h > w),
            Term::PowerAboveHealth => matches!((p.health(), p.power()), (Ok(h), Ok(w)) if w > h),
            Term::Piloted => p.pilot.is_some(),
            Term::NameHas(names) => names.iter().any(|n| {
                let n = n.to_lowercase();
                p.cards.iter().any(|c| c.name.to_lowercase().contains(&n))
            }),
            Term::Described(_) => return None,
        })
    };
    let mut undecided = false;
    for terms in &d.any_of {
        let mut alt = Some(true);
        for t in terms {
            match term(t) {
                Some(false) => {
                    alt = Some(false);
                    break;
                }
                None => alt = None,
                Some(true) => {}
            }
        }
        match alt {
            Some(true) => return Some(true),
            None => undecided = true,
            Some(false) => {}
        }
    }
    (!undecided).then_some(false)
}

/// Whether a piece has a keyword: one it has as a keyword, one read as
/// unmodelled, or one its text starts with (a glossary keyword such as
/// `Stealth`, read as not-attack).
fn has_keyword(p: &Piece, k: &super::text::KeywordName) -> bool {
    let name = k.name().to_ascii_lowercase();
    p.abilities().iter().any(|s| {
        (match (&s.ability.reading, k) {
            (super::text::Reading::Keyword(g), super::text::KeywordName::Modelled(kind)) => {
                g.effects.iter().any(|e| {
                    matches!(e, Effect::Keyword { ability, .. } if ability.keyword.kind() == *kind)
                })
            }
            (super::text::Reading::Unmodelled { keyword }, _) => {
                keyword.eq_ignore_ascii_case(k.name())
            }
            _ => false,
        }) || s.ability.text.to_ascii_lowercase().starts_with(&name)
    })
}

/// A unit in an attack: from cards, or given by its numbers (then no card
/// data describes it).
#[derive(Clone, Copy, Debug)]
pub enum Fielded<'p, 'a> {
    /// Cards: a stack, a pilot.
    Card(&'p Piece<'a>),
    /// A unit given by its numbers and keywords.
    Plain(&'p Unit),
}

impl Fielded<'_, '_> {
    fn name(&self) -> String {
        match self {
            Fielded::Card(p) => p.name(),
            Fielded::Plain(u) => u.name.clone(),
        }
    }
}

/// A unit's part in an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// It attacks.
    Attacker,
    /// It is attacked.
    Defender,
    /// It is in the arena, neither attacking nor attacked (a scenario's
    /// other units).
    Bystander,
}

/// One side of an attack being built.
struct Seat<'p, 'a> {
    unit: Fielded<'p, 'a>,
    role: Role,
    counters: u32,
    arena: Arena,
}

impl Seat<'_, '_> {
    fn matches(&self, d: &Descriptor) -> Option<bool> {
        match self.unit {
            Fielded::Card(p) => matches(d, p, self.counters, Some(self.arena)),
            Fielded::Plain(_) => {
                let any = d.any_of.iter().any(|t| t.iter().all(|t| *t == Term::Unit));
                any.then_some(true)
            }
        }
    }
}

use swtcg_engine::files::Applied;

/// The user's switches: conditions to apply that the cards cannot decide.
#[derive(Clone, Debug, Default)]
pub struct Switches {
    /// `a:N` / `d:N`: the Nth ability (from 1, as `cards find` lists them)
    /// of the attacker's or defender's top card, with a value (`a:2=3`: its
    /// X, or which choice) if given.
    pub by_index: Vec<(bool, usize, Option<u32>)>,
    /// Text contained in the ability, of the attacker's cards (`Some(true)`),
    /// the defender's (`Some(false)`) or either (`None`), with a value
    /// (`text=3`) if given.
    pub by_text: Vec<(Option<bool>, String, Option<u32>)>,
}

/// `text=3` → (`text`, Some(3)); `text` → (`text`, None).
pub fn split_value(t: &str) -> (&str, Option<u32>) {
    match t.rsplit_once('=') {
        Some((a, v)) if v.trim().parse::<u32>().is_ok() => (a.trim(), v.trim().parse().ok()),
        _ => (t, None),
    }
}

impl Switches {
    /// Reads `--condition` words: `a:N`, `d:N`, or text. An empty text is
    /// an error (it would match everything).
    pub fn parse(args: &[String]) -> Result<Switches> {
        let mut s = Switches::default();
        for arg in args {
            let t = arg.trim();
            if t.is_empty() {
                return Err(Error::new(
                    ErrorKind::Missing,
                    "an empty condition would match every ability",
                )
                .at_param("condition", Some(t)));
            }
            let (t, value) = split_value(t);
            if let Some((side, n)) = t.split_once(':')
                && let Ok(n) = n.trim().parse::<usize>()
                && (side.trim().eq_ignore_ascii_case("a") || side.trim().eq_ignore_ascii_case("d"))
            {
                if n == 0 {
                    return Err(
                        Error::new(ErrorKind::Range, "abilities are numbered from 1")
                            .at_param("condition", Some(t)),
                    );
                }
                s.by_index
                    .push((side.trim().eq_ignore_ascii_case("a"), n - 1, value));
                continue;
            }
            s.by_text.push((None, t.to_lowercase(), value));
        }
        Ok(s)
    }
}

/// The two units of one attack, with what was applied and what waits.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The attacking unit.
    pub attacker: Unit,
    /// The defending unit.
    pub defender: Unit,
    /// Conditions applied (decided by the cards, or switched on).
    pub applied: Vec<Applied>,
    /// Conditions the cards cannot decide, not switched on (`card: text`).
    pub waiting: Vec<(String, String)>,
}

/// An optional effect its owner pays Force for before the roll (`Pay 2
/// Force -> Vader gets +2 power and Stun 2 for this attack`).
#[derive(Clone, Debug, Default)]
struct BoostSpec {
    cost: u32,
    to_me: Vec<Effect>,
    to_other: Vec<Effect>,
}

/// What the abilities of one side do in an attack: effects on itself and
/// on the unit it faces, and paid options.
struct Gathered {
    to_me: Vec<Effect>,
    to_other: Vec<Effect>,
    boosts: Vec<BoostSpec>,
    applied: Vec<Applied>,
    waiting: Vec<(String, String)>,
}

/// A switch's answer for one ability: off, or on with the user's value.
type Switched = Option<Option<u32>>;

/// Replaces X in effects by its value.
fn resolve_x(effects: &[Effect], x: u32) -> Vec<Effect> {
    effects
        .iter()
        .map(|e| match e {
            Effect::PowerX { sign } => Effect::Power {
                n: sign.saturating_mul(i32::try_from(x).unwrap_or(i32::MAX)),
            },
            Effect::HealthX { sign } => Effect::Health {
                n: sign.saturating_mul(i32::try_from(x).unwrap_or(i32::MAX)),
            },
            Effect::ExtraDamageX => Effect::ExtraDamage { n: x },
            Effect::Keyword { text, ability }
                if ability.x && !ability.cost.as_ref().is_some_and(|c| c.x) =>
            {
                let mut a = ability.clone();
                a.keyword = a.keyword.with_number(x);
                a.x = false;
                Effect::Keyword {
                    text: text.replace(" X", &format!(" {x}")),
                    ability: a,
                }
            }
            e => e.clone(),
        })
        .collect()
}

/// Whether an ability's effects use an X that is not the Force paid.
/// Gathers the effects of `me`'s abilities facing `other`. `switched(card,
/// index, ability)` says whether the user switched an ability on, and with
/// which value (`a:2=3`).
fn gather(
    me: &Seat,
    other: &Seat,
    arena: Arena,
    switched: &mut dyn FnMut(&Card, usize, &ReadAbility) -> Switched,
) -> Result<Gathered> {
    let mut g = Gathered {
        to_me: Vec::new(),
        to_other: Vec::new(),
        boosts: Vec::new(),
        applied: Vec::new(),
        waiting: Vec::new(),
    };
    let Fielded::Card(piece) = me.unit else {
        return Ok(g);
    };
    for s in piece.abilities() {
        let a = s.ability;
        let Some(whole) = a.grant() else {
            continue;
        };
        let on_switch = switched(s.card, s.index, a);
        // Switch: the effects of this arena's mode.
        if !whole.switch.is_empty() {
            let pos = piece.top().arenas.iter().position(|x| *x == arena);
            if let Some(pos) = pos
                && let Some((_, effects)) = whole.switch.get(pos)
            {
                let effects: Vec<Effect> = effects
                    .iter()
                    .filter(|e| effect_payable(me, e))
                    .cloned()
                    .collect();
                g.to_me.extend(effects.iter().cloned());
                if !effects.is_empty() {
                    g.applied.push(Applied {
                        card: s.card.name.clone(),
                        text: a.text.clone(),
                        to: piece.name(),
                        how: format!("applied: in the {} arena (Switch)", arena.name()),
                    });
                }
            }
            continue;
        }
        let parts: Vec<&ReadAbility> = if whole.parts.is_empty() {
            vec![a]
        } else {
            whole.parts.iter().collect()
        };
        for part in parts {
            let whole = (a.text.as_str(), whole);
            gather_part(me, other, arena, s.card, whole, part, on_switch, &mut g)?;
        }
    }
    Ok(g)
}

/// Whether the unit in `me`'s seat can pay `cost`: attacking taps the unit
/// (docs/rules.md), so in its own attack it can't pay an ability by tapping
/// itself (`Tap -> Evade 2`, a Switch's mode `Tap -> Protect 5`); anything
/// else is charged or waits as read.
fn payable(me: &Seat, cost: Option<&swtcg_engine::keywords::Cost>) -> bool {
    !(me.role == Role::Attacker && cost.is_some_and(super::text::taps))
}

/// [`payable`] for what an effect's own keyword costs.
fn effect_payable(me: &Seat, e: &Effect) -> bool {
    payable(me, e.ability().and_then(|a| a.cost.as_ref()))
}

/// Gathers one part of an ability (`whole` is the ability printed: its
/// text and what it grants, with its choices, X and cost).
#[allow(clippy::too_many_arguments)]
fn gather_part(
    me: &Seat,
    other: &Seat,
    arena: Arena,
    card: &Card,
    (whole_text, whole): (&str, &super::text::Grant),
    a: &ReadAbility,
    on_switch: Switched,
    g: &mut Gathered,
) -> Result<()> {
    // A part is a keyword or a condition (a reading with a part of
    // another class is not understood as a whole).
    let Some(part) = a.grant() else {
        return Ok(());
    };
    let role_ok = match part.when {
        When::Attacking => me.role == Role::Attacker,
        When::Defending => me.role == Role::Defender,
        _ => true,
    };
    // Paid by tapping itself: not had in its own attack.
    if !payable(me, part.cost.as_ref()) {
        return Ok(());
    }
    // The effects, with X and choices resolved.
    let mut effects = part.effects.clone();
    effects.retain(|e| effect_payable(me, e));
    if !whole.choices.is_empty() {
        match on_switch {
            Some(Some(k)) if k >= 1 && (k as usize) <= whole.choices.len() => {
                effects = whole.choices[k as usize - 1].clone();
            }
            Some(_) => {
                return Err(Error::new(
                    ErrorKind::Missing,
                    format!(
                        "{}: '{}' is a choice: switch it on with =1 to ={}",
                        card.name,
                        quote(whole_text),
                        whole.choices.len()
                    ),
                ));
            }
            None => {
                let entry = (card.name.clone(), whole_text.to_string());
                if !g.waiting.contains(&entry) {
                    g.waiting.push(entry);
                }
                return Ok(());
            }
        }
    }
    if super::text::effects_use_x(&effects) {
        let x = match &whole.x {
            Some(super::text::XSource::Count { per, .. }) => count(per, me, other),
            _ => on_switch.flatten().map(|v| v as i64),
        };
        // The number printed from X (`X+1`), once X is known.
        let term = whole.x.as_ref().map_or(super::text::XTerm::X, |s| s.term());
        match x {
            Some(x) => {
                effects = resolve_x(&effects, term.of(x.clamp(0, u32::MAX as i64) as u32));
            }
            None => {
                let entry = (card.name.clone(), whole_text.to_string());
                if on_switch.is_some() {
                    return Err(Error::new(
                        ErrorKind::Range,
                        format!(
                            "{}: '{}' needs its X: switch it on with =N",
                            card.name,
                            quote(whole_text)
                        ),
                    ));
                }
                if !g.waiting.contains(&entry) {
                    g.waiting.push(entry);
                }
                return Ok(());
            }
        }
    }
    // A Force cost on the whole effect makes it an option its owner pays for.
    let boost_cost = whole.cost.as_ref().filter(|_| {
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Keyword { ability, .. } if ability.cost.is_some()))
    });
    let push = |to_me: bool, effects: Vec<Effect>, g: &mut Gathered| match boost_cost {
        Some(c) if c.force_only() && c.force.unwrap_or(0) > 0 || c.x => {
            let cost = c.force.unwrap_or(0);
            let b = BoostSpec {
                cost,
                to_me: if to_me { effects.clone() } else { Vec::new() },
                to_other: if to_me { Vec::new() } else { effects },
            };
            g.boosts.push(b);
        }
        _ => {
            if to_me {
                g.to_me.extend(effects);
            } else {
                g.to_other.extend(effects);
            }
        }
    };
    let super::text::Reading::Condition(cond) = &a.reading else {
        // A keyword.
        match part.subject {
            Subject::Opponent if role_ok => push(false, effects, g),
            Subject::Opponent => {}
            _ => push(true, effects, g),
        }
        return Ok(());
    };
    // A condition: to itself, its opponent, or both.
    let targets: &[bool] = match part.subject {
        Subject::This => &[true],
        Subject::Opponent => &[false],
        Subject::Both => &[true, false],
    };
    for &to_me in targets {
        let target = if to_me { me } else { other };
        let decided = if !role_ok || (!to_me && other.role == Role::Bystander) {
            Some(false)
        } else {
            cond.situation
                .as_ref()
                .map_or(Some(true), |sit| evaluate(sit, me, other, target, arena))
        };
        let on = decided.unwrap_or(on_switch.is_some());
        if decided.is_none() && on_switch.is_none() {
            let entry = (card.name.clone(), whole_text.to_string());
            if !g.waiting.contains(&entry) {
                g.waiting.push(entry);
            }
        }
        if on {
            push(to_me, effects.clone(), g);
            g.applied.push(Applied {
                card: card.name.clone(),
                text: whole_text.to_string(),
                to: target.unit.name(),
                how: if decided == Some(true) {
                    situation_text(cond.situation.as_ref())
                } else {
                    "switched on".into()
                },
            });
        }
    }
    Ok(())
}

/// Builds the two units of `attacker` attacking `defender` in `arena`:
/// printed stats and stack bonus, every keyword, every condition the cards
/// decide, the switched-on ones, and the pilots' grants. Counters are those
/// already on each unit.
pub fn pair(
    attacker: Fielded,
    defender: Fielded,
    arena: Arena,
    counters: [u32; 2],
    switches: &Switches,
) -> Result<Pairing> {
    let sides = [
        Seat {
            unit: attacker,
            role: Role::Attacker,
            counters: counters[0],
            arena,
        },
        Seat {
            unit: defender,
            role: Role::Defender,
            counters: counters[1],
            arena,
        },
    ];
    let mut used = vec![false; switches.by_index.len() + switches.by_text.len()];
    let mut gathered = Vec::new();
    for me in 0..2 {
        let is_att = me == 0;
        let top = match sides[me].unit {
            Fielded::Card(p) => Some(p.top()),
            Fielded::Plain(_) => None,
        };
        let mut switched = |card: &Card, index: usize, a: &ReadAbility| -> Switched {
            let mut on = None;
            if top.is_some_and(|t| std::ptr::eq(card, t)) {
                for (k, (att, idx, v)) in switches.by_index.iter().enumerate() {
                    if *att == is_att && *idx == index {
                        on = Some(*v);
                        used[k] = true;
                    }
                }
            }
            for (k, (side, t, v)) in switches.by_text.iter().enumerate() {
                if side.is_none_or(|s| s == is_att) && a.text.to_lowercase().contains(t) {
                    on = Some(*v);
                    used[switches.by_index.len() + k] = true;
                }
            }
            on
        };
        gathered.push(gather(&sides[me], &sides[1 - me], arena, &mut switched)?);
    }
    if let Some(k) = used.iter().position(|u| !u) {
        let (given, what) = if k < switches.by_index.len() {
            let (a, i, _) = switches.by_index[k];
            let p = if a { attacker } else { defender };
            let given = format!("{}:{}", if a { "a" } else { "d" }, i + 1);
            let what = match p {
                Fielded::Card(p) => {
                    format!("{} has {} abilities", p.top().name, p.top().abilities.len())
                }
                Fielded::Plain(u) => format!("{} is not a card", u.name),
            };
            (given, what)
        } else {
            let (_, t, _) = &switches.by_text[k - switches.by_index.len()];
            (
                t.clone(),
                format!(
                    "matches no ability of {} or {}",
                    attacker.name(),
                    defender.name()
                ),
            )
        };
        return Err(Error::new(ErrorKind::NotFound, what).at_param("condition", Some(&given)));
    }
    let mut effects = [gathered[0].to_me.clone(), gathered[1].to_me.clone()];
    effects[0].extend(gathered[1].to_other.iter().cloned());
    effects[1].extend(gathered[0].to_other.iter().cloned());
    let boosts = [gathered[0].boosts.clone(), gathered[1].boosts.clone()];
    let mut attacker_unit = build_unit(&sides[0], &sides[1], &effects[0], &boosts[0])?;
    let defender_unit = build_unit(&sides[1], &sides[0], &effects[1], &boosts[1])?;
    if attacker_unit.name == defender_unit.name {
        attacker_unit.name = format!("{} (attacking)", attacker_unit.name);
    }
    let mut applied = Vec::new();
    let mut waiting = Vec::new();
    for g in gathered {
        applied.extend(g.applied);
        waiting.extend(g.waiting);
    }
    Ok(Pairing {
        attacker: attacker_unit,
        defender: defender_unit,
        applied,
        waiting,
    })
}

/// A unit of a scenario that is neither the attacker nor the defender, as
/// it stands facing `facing`: its keywords, the conditions that hold for a
/// bystander and those the user switched on (`switched`: texts).
pub fn bystander(
    piece: &Piece,
    facing: Fielded,
    arena: Arena,
    counters: [u32; 2],
    switched: &[String],
) -> Result<(Unit, Vec<Applied>)> {
    let me = Seat {
        unit: Fielded::Card(piece),
        role: Role::Bystander,
        counters: counters[0],
        arena,
    };
    let other = Seat {
        unit: facing,
        role: Role::Bystander,
        counters: counters[1],
        arena,
    };
    let lower: Vec<String> = switched.iter().map(|s| s.to_lowercase()).collect();
    let mut used = vec![false; lower.len()];
    let g = gather(&me, &other, arena, &mut |_, _, a| {
        let mut on = None;
        for (k, t) in lower.iter().enumerate() {
            let (t, v) = split_value(t);
            if a.text.to_lowercase().contains(t) {
                on = Some(v);
                used[k] = true;
            }
        }
        on
    })?;
    if let Some(k) = used.iter().position(|u| !u) {
        return Err(Error::new(
            ErrorKind::NotFound,
            format!(
                "condition '{}' matches no ability of {}",
                quote(&switched[k]),
                piece.name()
            ),
        ));
    }
    let unit = build_unit(&me, &other, &g.to_me, &g.boosts)?;
    Ok((unit, g.applied))
}

/// Words for why a decided condition applied.
fn situation_text(s: Option<&Situation>) -> String {
    match s {
        None => "always".into(),
        Some(s) => format!("applied: {s}"),
    }
}

/// The engine unit of one side, with its gathered effects.
fn build_unit(side: &Seat, other: &Seat, effects: &[Effect], boosts: &[BoostSpec]) -> Result<Unit> {
    let (name, mut power, mut health, mut keywords) = match side.unit {
        Fielded::Card(p) => (
            p.name(),
            counted_stat(p, p.power(), true, side, other, effects)?,
            Some(counted_stat(p, p.health(), false, side, other, effects)?),
            Keywords::default(),
        ),
        Fielded::Plain(u) => (
            u.name.clone(),
            u.power as i64,
            u.health.map(|h| h as i64),
            u.keywords.clone(),
        ),
    };
    let mut abilities: Vec<Ability> = Vec::new();
    let mut lost: Vec<KeywordKind> = Vec::new();
    let mut extra_counters = 0i64;
    let mut cost_change = 0i32;
    let mut no_activated = false;
    for e in effects {
        match e {
            Effect::Power { n } => power += *n as i64,
            Effect::Health { n } => {
                if let Some(h) = health.as_mut() {
                    *h += *n as i64;
                }
            }
            Effect::Keyword { ability, .. } => abilities.push(ability.clone()),
            Effect::Lose { keyword } => lost.push(*keyword),
            Effect::PowerPer { n, per } => match per {
                Count::DamageCounters => {
                    keywords.apply(UnitEffect::PowerPerCounter(*n));
                }
                _ => {
                    let c = count(per, side, other).ok_or_else(|| {
                        Error::new(
                            ErrorKind::NotModelled,
                            format!("{name}: what its power counts is not known here"),
                        )
                    })?;
                    power += *n as i64 * c;
                }
            },
            Effect::KeywordPer { ability, per, .. } => {
                let c = count(per, side, other).ok_or_else(|| {
                    Error::new(
                        ErrorKind::NotModelled,
                        format!("{name}: what its keyword counts is not known here"),
                    )
                })?;
                abilities.extend(times(ability, c));
            }
            Effect::HealthPer { n, per } => {
                let c = count(per, side, other).ok_or_else(|| {
                    Error::new(
                        ErrorKind::NotModelled,
                        format!("{name}: what its health counts is not known here"),
                    )
                })?;
                if let Some(h) = health.as_mut() {
                    *h += *n as i64 * c;
                }
            }
            Effect::ExtraDamage { n } => {
                keywords.apply(UnitEffect::ExtraDamage(*n));
            }
            Effect::Overload {
                power: pw,
                self_damage,
                dice,
            } => {
                keywords.apply(free_boost(
                    e,
                    swtcg_engine::keywords::Change {
                        power: *pw as i32,
                        self_damage: Some((*self_damage, *dice)),
                        ..Default::default()
                    },
                ));
            }
            Effect::NoIntercept => {
                keywords.apply(UnitEffect::NoIntercept);
            }
            Effect::Counters { n } => extra_counters += *n as i64,
            Effect::Toll { force } => {
                keywords.apply(UnitEffect::Toll(*force));
            }
            Effect::StatsFrom { .. } => {}
            Effect::CostChange { n } => cost_change = cost_change.saturating_add(*n),
            Effect::NoActivated => no_activated = true,
            Effect::Harmless => {
                keywords.apply(UnitEffect::Harmless);
            }
            Effect::PilotableAs { .. } => {}
            Effect::HalfDice { force } => {
                keywords.apply(free_boost(
                    e,
                    swtcg_engine::keywords::Change {
                        half_dice: true,
                        force_gain: *force,
                        ..Default::default()
                    },
                ));
            }
            Effect::Consolation { own, defender } => {
                keywords.apply(UnitEffect::Consolation {
                    own: *own,
                    defender: *defender,
                });
            }
            Effect::CancelAttack => {
                return Err(Error::new(
                    ErrorKind::Rules,
                    format!(
                        "{name}: cancelling an attack is an option with a cost, not a standing effect"
                    ),
                ));
            }
            Effect::TreatAs { .. } => {}
            Effect::PowerX { .. } | Effect::HealthX { .. } | Effect::ExtraDamageX => {
                return Err(Error::new(
                    ErrorKind::Missing,
                    format!("{name}: an effect's X has no value"),
                ));
            }
        }
    }
    reprice(&mut abilities, cost_change);
    if no_activated {
        abilities.retain(|a| a.cost.is_none());
    }
    keywords.add(&abilities);
    for &l in &lost {
        keywords.lose(l);
    }
    if no_activated {
        keywords.clear_boosts();
    }
    for b in boosts.iter().filter(|_| !no_activated) {
        keywords.apply(UnitEffect::Boost(swtcg_engine::keywords::Boost {
            source: Default::default(),
            cost: (b.cost as i32 + cost_change).max(0) as u32,
            mine: change_of(&b.to_me)?,
            theirs: change_of(&b.to_other)?,
            text: effects_text(&b.to_me) + &effects_text(&b.to_other),
        }));
    }
    let (power, from_another_arena) = arena_power(side, &keywords, &name, power)?;
    if let Some(h) = health
        && h < 1
    {
        return Err(Error::new(
            ErrorKind::Rules,
            format!("{name}: its effects leave it with health {h}"),
        ));
    }
    Ok(Unit {
        name,
        power: power.clamp(0, u32::MAX as i64) as u32,
        health: health.map(|h| h.min(u32::MAX as i64) as u32),
        counters: (side.counters as i64 + extra_counters).clamp(0, u32::MAX as i64) as u32,
        keywords,
        from_another_arena,
    })
}

/// Every activated ability (a Force cost, Pay 0 included) costs
/// `change` more or less Force (never below 0).
fn reprice(abilities: &mut [Ability], change: i32) {
    if change == 0 {
        return;
    }
    for a in abilities {
        if let Some(c) = a.cost.as_mut()
            && let Some(f) = c.force
        {
            let nf = (f as i32 + change).max(0) as u32;
            c.force = Some(nf);
            c.text = format!("Pay {nf} Force");
        }
    }
}

/// An optional effect the unit takes for free (Overload, half dice).
fn free_boost(e: &Effect, mine: swtcg_engine::keywords::Change) -> UnitEffect {
    UnitEffect::Boost(swtcg_engine::keywords::Boost {
        source: Default::default(),
        cost: 0,
        mine,
        theirs: Default::default(),
        text: effects_text(std::slice::from_ref(e)),
    })
}

/// A keyword with `count` times its number (none at 0).
fn times(ability: &Ability, count: i64) -> Option<Ability> {
    let total = ability.keyword.number().unwrap_or(0).saturating_mul(count);
    (total > 0).then(|| {
        let mut a = ability.clone();
        a.keyword = a
            .keyword
            .with_number(u32::try_from(total).unwrap_or(u32::MAX));
        a
    })
}

/// The power of a unit fielded in `side.arena`: its own, or, for an
/// attacker from another arena, its Bombard (Ground), Ion Cannon (Space) or
/// Barrage (Character) X in place of its printed power (every other effect,
/// stacking included, kept); whether it attacks from another arena. A
/// defender is always in its own arena.
fn arena_power(side: &Seat, keywords: &Keywords, name: &str, power: i64) -> Result<(i64, bool)> {
    let Fielded::Card(p) = side.unit else {
        return Ok((power, false));
    };
    if p.top().arenas.contains(&side.arena) {
        return Ok((power, false));
    }
    let x = keywords.number(side.arena.attacked_with());
    let printed = p.top().power.unwrap_or(0) as i64;
    if side.role != Role::Attacker || x == 0 {
        return Err(Error::new(
            ErrorKind::Rules,
            format!(
                "{name} is not in the {} arena{}",
                side.arena.name(),
                if side.role == Role::Attacker {
                    " and has no Bombard, Ion Cannon or Barrage to attack there"
                } else {
                    ""
                }
            ),
        ));
    }
    let power = if p.power.is_none() {
        power - printed + x
    } else {
        power
    };
    Ok((power, true))
}

/// What a paid option's effects do to one unit.
fn change_of(effects: &[Effect]) -> Result<swtcg_engine::keywords::Change> {
    let mut c = swtcg_engine::keywords::Change::default();
    for e in effects {
        match e {
            Effect::Power { n } => c.power = c.power.saturating_add(*n),
            Effect::Keyword { ability, .. } => c.abilities.push(ability.clone()),
            Effect::ExtraDamage { n } => c.extra_damage = c.extra_damage.saturating_add(*n),
            Effect::CancelAttack => c.cancel_attack = true,
            Effect::Counters { n } => c.counters = c.counters.saturating_add(*n),
            Effect::HalfDice { force } => {
                c.half_dice = true;
                c.force_gain = c.force_gain.saturating_add(*force);
            }
            Effect::Overload {
                power,
                self_damage,
                dice,
            } => {
                c.power = c
                    .power
                    .saturating_add(i32::try_from(*power).unwrap_or(i32::MAX));
                c.self_damage = Some((*self_damage, *dice));
            }
            Effect::TreatAs { .. } => {}
            other => {
                return Err(Error::new(
                    ErrorKind::NotModelled,
                    format!(
                        "a paid option that gives {} for one attack is not modelled",
                        effects_text(std::slice::from_ref(other))
                    ),
                ));
            }
        }
    }
    Ok(c)
}
