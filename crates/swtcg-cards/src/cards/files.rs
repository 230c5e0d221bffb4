//! Scenario and plan files whose units are cards: the card database builds
//! them ([`DbUnits`], the engine's [`CardUnits`]), and the files' own
//! `"db"` is read relative to the file.
//!
//! ```
//! use swtcg_cards::cards::CardDb;
//! use swtcg_cards::cards::files::scenario_from_json_with_cards;
//! let db = CardDb::parse("Name\tType\tPower\tHealth\tText\nTrooper\tCharacter\t3\t3\tCritical Hit 1\nDroid\tCharacter\t4\t4\tArmor\n").unwrap();
//! let s = scenario_from_json_with_cards(r#"{"attacker": {"card": "Trooper"}, "defender": {"card": "Droid"}}"#, &db).unwrap();
//! use swtcg_engine::keywords::KeywordKind;
//! assert_eq!(s.game.units[0].keywords.number(KeywordKind::CriticalHit), 1);
//! ```

use super::stack::{Fielded, Switches, bystander, pair};
use super::{Arena, CardDb, Piece};
use swtcg_engine::battle::Battle;
use swtcg_engine::error::{Error, ErrorKind, Result, quote};
use swtcg_engine::files::{
    Applied, CardUnits, DbPaths, FromFile, NoCards, Paired, UnitFile, parse_texts,
};
use swtcg_engine::input::read_file;
use swtcg_engine::keywords::Ability;
use swtcg_engine::plan::Plan;
use swtcg_engine::scenario::Scenario;
use swtcg_engine::unit::Unit;

/// A unit read from a file, before it meets its opponent.
pub enum Spec<'db> {
    /// Given by its numbers.
    Plain(Box<Unit>),
    /// From cards.
    Card {
        /// Its cards.
        piece: Piece<'db>,
        /// Its name, when the file gives one.
        name: Option<String>,
        /// Damage counters already on it.
        counters: u32,
        /// Keywords the file adds.
        extra: Vec<Ability>,
        /// Conditions the file switches on.
        conditions: Vec<String>,
    },
}

/// A card database building a file's units ([`CardUnits`]).
pub struct DbUnits<'db> {
    /// The database.
    pub db: &'db CardDb,
}

impl<'db> CardUnits for DbUnits<'db> {
    type Spec = Spec<'db>;

    fn has_db(&self) -> bool {
        true
    }

    fn build(&self, u: &UnitFile, ignore_unknown: bool) -> Result<(Spec<'db>, Vec<String>)> {
        let Some(spec) = &u.card else {
            let (unit, ignored) = u.plain(ignore_unknown)?;
            return Ok((Spec::Plain(Box::new(unit)), ignored));
        };
        let label = u.label();
        let mut piece = self
            .db
            .piece(spec)
            .map_err(|e| e.about(&format!("unit '{}'", quote(&label))))?;
        if u.power.is_some() {
            piece.power = u.power;
        }
        if u.health.is_some() {
            piece.health = u.health;
        }
        let (extra, ignored) = parse_texts(&label, &u.keywords, ignore_unknown)?;
        Ok((
            Spec::Card {
                piece,
                name: u.name.clone(),
                counters: u.counters,
                extra,
                conditions: u.conditions.clone(),
            },
            ignored,
        ))
    }

    fn pair(&self, a: &Spec<'db>, d: &Spec<'db>) -> Result<Paired> {
        pair_specs(a, d, None)
    }

    fn pair_in(&self, a: &Spec<'db>, d: &Spec<'db>, arena: Arena) -> Result<Paired> {
        pair_specs(a, d, Some(arena))
    }

    fn other(&self, u: &Spec<'db>, facing: &Spec<'db>) -> Result<(Unit, Vec<Applied>)> {
        other_unit(u, facing)
    }

    /// A card's arenas and the printed speed of its top card.
    fn placement(&self, u: &Spec<'db>) -> (Vec<Arena>, Option<u32>) {
        match u {
            Spec::Plain(_) => (Vec::new(), None),
            Spec::Card { piece, .. } => {
                let top = piece.top();
                (
                    top.arenas.clone(),
                    top.speed.as_ref().and_then(|s| s.value()),
                )
            }
        }
    }
}

/// The arena two units fight in: the first of the attacker's arenas that the
/// defender shares; with a unit given by numbers, the card's first arena.
fn arena_of(a: &Spec, d: &Spec) -> Result<Arena> {
    let arenas = |s: &Spec| match s {
        Spec::Card { piece, .. } => Some(piece.top().arenas.clone()),
        Spec::Plain(_) => None,
    };
    match (arenas(a), arenas(d)) {
        (Some(x), Some(y)) => x.iter().find(|t| y.contains(t)).copied().ok_or_else(|| {
            let names = |s: &Spec| match s {
                Spec::Card { piece, .. } => piece.top().name.clone(),
                Spec::Plain(u) => u.name.clone(),
            };
            Error::new(
                ErrorKind::Rules,
                format!(
                    "{} ({}) and {} ({}) are in no common arena: they can't fight",
                    names(a),
                    x.iter().map(|a| a.name()).collect::<Vec<_>>().join("/"),
                    names(d),
                    y.iter().map(|a| a.name()).collect::<Vec<_>>().join("/")
                ),
            )
        }),
        (Some(x), None) | (None, Some(x)) => Ok(x[0]),
        (None, None) => Ok(Arena::Character),
    }
}

fn fielded<'s, 'db>(s: &'s Spec<'db>) -> (Fielded<'s, 'db>, u32) {
    match s {
        Spec::Plain(u) => (Fielded::Plain(u), u.counters),
        Spec::Card {
            piece, counters, ..
        } => (Fielded::Card(piece), *counters),
    }
}

/// Finishes a unit built from cards: its name, and the keywords added.
fn finish(mut u: Unit, s: &Spec) -> Result<Unit> {
    if let Spec::Card { name, extra, .. } = s {
        if let Some(n) = name {
            u.name = n.clone();
        }
        u.keywords.add(extra);
    }
    u.validate()?;
    Ok(u)
}

/// The attacker and defender of a file, paired: conditions the cards decide
/// applied, those the file switches on applied, and what waits.
fn pair_specs(a: &Spec, d: &Spec, arena: Option<Arena>) -> Result<Paired> {
    if let (Spec::Plain(x), Spec::Plain(y)) = (a, d) {
        return Ok(((**x).clone(), (**y).clone(), Vec::new(), Vec::new()));
    }
    let arena = match arena {
        Some(a) => a,
        None => arena_of(a, d)?,
    };
    let mut switches = Switches::default();
    for (s, is_att) in [(a, true), (d, false)] {
        if let Spec::Card { conditions, .. } = s {
            for c in conditions {
                if c.trim().is_empty() {
                    return Err(Error::new(
                        ErrorKind::Missing,
                        "an empty condition would match every ability",
                    ));
                }
                let (t, v) = super::stack::split_value(c);
                switches.by_text.push((Some(is_att), t.to_lowercase(), v));
            }
        }
    }
    let (fa, ca) = fielded(a);
    let (fd, cd) = fielded(d);
    let p = pair(fa, fd, arena, [ca, cd], &switches)?;
    Ok((
        finish(p.attacker, a)?,
        finish(p.defender, d)?,
        p.applied,
        p.waiting,
    ))
}

/// A scenario's other unit, facing `facing`.
fn other_unit(s: &Spec, facing: &Spec) -> Result<(Unit, Vec<Applied>)> {
    match s {
        Spec::Plain(u) => Ok(((**u).clone(), Vec::new())),
        Spec::Card {
            piece,
            counters,
            conditions,
            ..
        } => {
            let arena = arena_of(s, facing)?;
            let (f, c) = fielded(facing);
            let (u, applied) = bystander(piece, f, arena, [*counters, c], conditions)?;
            Ok((finish(u, s)?, applied))
        }
    }
}

/// The paths a `"db"` names, relative to `base` (the file's folder).
fn db_paths(paths: &DbPaths, base: Option<&std::path::Path>) -> Vec<String> {
    paths
        .list()
        .into_iter()
        .map(|p| match base {
            Some(b) if std::path::Path::new(&p).is_relative() => {
                b.join(&p).to_string_lossy().into_owned()
            }
            _ => p,
        })
        .collect()
}

/// The card database a file names (`"db"`: set files or folders, relative
/// to `base`, the file's folder).
fn load_db(paths: &DbPaths, base: Option<&std::path::Path>) -> Result<CardDb> {
    CardDb::load(&db_paths(paths, base)).map_err(|e| e.about("\"db\""))
}

/// The files a scenario or plan file makes the tool read: itself, and the
/// set files or folders of its `"db"` (none when it can't be read: its
/// reading says why).
pub fn input_paths(path: &str) -> Vec<String> {
    let mut out = vec![path.to_string()];
    #[derive(serde::Deserialize)]
    struct JustDb {
        db: Option<DbPaths>,
    }
    if let Ok(text) = read_file(path)
        && let Ok(JustDb { db: Some(db) }) = serde_json::from_str::<JustDb>(&text)
    {
        out.extend(db_paths(&db, std::path::Path::new(path).parent()));
    }
    out
}

/// Refuses a file naming a `"db"` of its own when its cards are given (so
/// that a request never reaches the file system).
fn no_db(db: Option<&DbPaths>) -> Result<()> {
    if db.is_some() {
        return Err(Error::new(
            ErrorKind::Refused,
            "\"db\": the cards are those of the database given (serve --db), not files",
        ));
    }
    Ok(())
}

/// Reads a file of kind `T` (a scenario, a plan, a battle) from JSON text
/// read from `file`: its `"card"` units from its `"db"`, relative to `base`
/// (the file's folder), when it names one.
pub fn from_json_in<T: FromFile>(
    text: &str,
    file: &str,
    base: Option<&std::path::Path>,
) -> Result<T> {
    let parsed = T::parse(text, file)?;
    match T::db(&parsed) {
        Some(paths) => {
            let db = load_db(paths, base)?;
            T::from_parts(parsed, &DbUnits { db: &db })
        }
        None => T::from_parts(parsed, &NoCards),
    }
}

/// Reads a file of kind `T` (its `"db"` relative to its folder).
pub fn from_file<T: FromFile>(path: &str) -> Result<T> {
    let base = std::path::Path::new(path).parent();
    from_json_in(&read_file(path)?, path, base)
}

/// Reads a file of kind `T` from JSON text whose `"card"` units come from
/// `db` (a `"db"` in the text is refused: a request never reaches the file
/// system).
pub fn from_json_with_cards<T: FromFile>(text: &str, db: &CardDb) -> Result<T> {
    let parsed = T::parse(text, T::KIND)?;
    no_db(T::db(&parsed))?;
    T::from_parts(parsed, &DbUnits { db })
}

/// Reads a file of kind `T` from JSON text: its `"card"` units from `db`
/// when given ([`from_json_with_cards`]), else units given by their numbers
/// only.
pub fn from_json_in_db<T: FromFile>(text: &str, db: Option<&CardDb>) -> Result<T> {
    match db {
        Some(db) => from_json_with_cards(text, db),
        None => T::from_json(text),
    }
}

/// Reads a scenario file (its `"db"` relative to its folder).
pub fn scenario_from_file(path: &str) -> Result<Scenario> {
    from_file(path)
}

/// Reads a scenario from JSON text whose `"card"` units come from `db`.
pub fn scenario_from_json_with_cards(text: &str, db: &CardDb) -> Result<Scenario> {
    from_json_with_cards(text, db)
}

/// Reads a plan file (its `"db"` relative to its folder).
pub fn plan_from_file(path: &str) -> Result<Plan> {
    from_file(path)
}

/// Reads a plan from JSON text whose `"card"` units come from `db`.
pub fn plan_from_json_with_cards(text: &str, db: &CardDb) -> Result<Plan> {
    from_json_with_cards(text, db)
}

/// Reads a battle file (its `"db"` relative to its folder).
pub fn battle_from_file(path: &str) -> Result<Battle> {
    from_file(path)
}

/// Reads a battle from JSON text whose `"card"` units come from `db`.
pub fn battle_from_json_with_cards(text: &str, db: &CardDb) -> Result<Battle> {
    from_json_with_cards(text, db)
}
