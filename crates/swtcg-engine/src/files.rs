//! Scenario and plan files: the units as written (numbers and keyword
//! texts, or cards), the Force budgets, and the hook through which a card
//! database builds the units given as cards ([`CardUnits`]).
//!
//! The engine reads units given by their numbers ([`NoCards`]); the card
//! crate's database implements [`CardUnits`] for units given as
//! `{"card": "Name"}`, so that one reader serves both.

use crate::error::{Error, Result, quote};
use crate::keywords::Keywords;
use crate::keywords::{Ability, parse};
use crate::policy::Policy;
use crate::unit::Unit;
use serde::{Deserialize, Serialize};

/// A unit as written in scenario and plan files: numbers and keyword
/// texts, or a card (or stack, or piloted unit) of the file's card
/// database, with conditions switched on and keywords added.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFile {
    /// Its name (a card unit's name by default).
    pub name: Option<String>,
    /// The card (`Name`, `Top + Beneath`, `Ship with Pilot`).
    pub card: Option<String>,
    /// Conditions of the card switched on (text, with `=N` for an X).
    #[serde(default)]
    pub conditions: Vec<String>,
    /// Power (a card's printed power when not given).
    pub power: Option<u32>,
    /// Health.
    pub health: Option<u32>,
    /// Damage counters already on it.
    #[serde(default)]
    pub counters: u32,
    /// Keyword texts, in the cards' wording.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// `"attacker"` or `"defender"`: the side of a scenario's other unit.
    pub side: Option<String>,
}

impl UnitFile {
    /// Its name, as given or from its card.
    pub fn label(&self) -> String {
        self.name
            .clone()
            .or_else(|| self.card.clone())
            .unwrap_or_default()
    }

    /// The unit given by its numbers and keyword texts, with the texts
    /// ignored (under `ignore_unknown`); a unit given as a card is an
    /// error here (see [`CardUnits`]).
    pub fn plain(&self, ignore_unknown: bool) -> Result<(Unit, Vec<String>)> {
        if self.card.is_some() {
            return Err(Error::missing(format!(
                "unit '{}': a \"card\" needs the file's \"db\" (a card database)",
                quote(&self.label())
            )));
        }
        let name = self
            .name
            .as_deref()
            .ok_or_else(|| Error::missing("a unit needs a \"name\" (or a \"card\")"))?;
        if name.trim().is_empty() {
            return Err(Error::missing("a unit's \"name\" is empty"));
        }
        if !self.conditions.is_empty() {
            return Err(Error::conflict(format!(
                "unit '{}': \"conditions\" go with a \"card\"",
                quote(name)
            )));
        }
        unit_from_texts(
            name,
            self.power.unwrap_or(0),
            self.health,
            self.counters,
            &self.keywords,
            ignore_unknown,
        )
    }
}

/// A `"db"` value: one path or several.
#[derive(Deserialize, Clone, Debug)]
#[serde(untagged)]
pub enum DbPaths {
    /// One set file or folder.
    One(String),
    /// Several.
    Many(Vec<String>),
}

impl DbPaths {
    /// The paths.
    pub fn list(&self) -> Vec<String> {
        match self {
            DbPaths::One(p) => vec![p.clone()],
            DbPaths::Many(v) => v.clone(),
        }
    }
}

/// The Force budgets of a scenario or plan file: `{"attacker": 3,
/// "defender": 2}`; a side not given has the default, 4 (a turn's income).
#[derive(Deserialize, Default, Clone, Copy, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct ForceFile {
    /// The attacking side's: a number, or `"unlimited"`
    /// ([`crate::policy::DEFAULT_FORCE`] when not given).
    pub attacker: Option<crate::policy::ForceBudget>,
    /// The defending side's.
    pub defender: Option<crate::policy::ForceBudget>,
}

impl ForceFile {
    /// The budgets by side index (`None`: unlimited), defaults filled in.
    pub(crate) fn budgets(f: &Option<ForceFile>) -> [Option<u32>; 2] {
        let f = f.unwrap_or_default();
        [
            crate::policy::ForceBudget::or_default(f.attacker),
            crate::policy::ForceBudget::or_default(f.defender),
        ]
    }
}

/// A scenario file, as read.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The attacker.
    pub attacker: UnitFile,
    /// The declared defender.
    pub defender: UnitFile,
    /// Other units, each with its `"side"`.
    #[serde(default)]
    pub others: Vec<UnitFile>,
    /// How choices are played.
    #[serde(default)]
    pub policy: Policy,
    /// List unknown keywords instead of failing.
    #[serde(default)]
    pub ignore_unknown: bool,
    /// A card database for units given as `"card"` (relative to the file).
    pub db: Option<DbPaths>,
    /// Force each side may spend in the attack.
    pub(crate) force: Option<ForceFile>,
}

impl ScenarioFile {
    /// Reads a scenario file's JSON (`file` names it in errors).
    pub(crate) fn parse(text: &str, file: &str) -> Result<ScenarioFile> {
        serde_json::from_str(crate::input::strip_bom(text)).map_err(|e| Error::json(file, &e))
    }
}

/// A plan file, as read.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    /// The defender.
    pub defender: UnitFile,
    /// The attackers.
    pub attackers: Vec<UnitFile>,
    /// The attackers' names in the order they attack (each once, in
    /// order, when not given).
    pub steps: Option<Vec<String>>,
    /// How choices are played.
    #[serde(default)]
    pub policy: Policy,
    /// List unknown keywords instead of failing.
    #[serde(default)]
    pub ignore_unknown: bool,
    /// A card database for units given as `"card"` (relative to the file).
    pub db: Option<DbPaths>,
}

impl PlanFile {
    /// Reads a plan file's JSON (`file` names it in errors).
    pub(crate) fn parse(text: &str, file: &str) -> Result<PlanFile> {
        serde_json::from_str(crate::input::strip_bom(text)).map_err(|e| Error::json(file, &e))
    }
}

/// A condition applied, for the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Applied {
    /// The card printing it.
    pub card: String,
    /// Its text.
    pub text: String,
    /// The unit it went to.
    pub to: String,
    /// Why: decided by the two cards (`applied: attacking a unique
    /// Character`), or switched on by the user.
    pub how: String,
}

/// Two units paired for an attack, with the conditions applied to them and
/// those waiting (`card`, `text`).
pub type Paired = (Unit, Unit, Vec<Applied>, Vec<(String, String)>);

/// Builds a file's units: each read once ([`CardUnits::build`]), then
/// paired as attacker and defender, or as another unit facing one (the
/// conditions two cards decide depend on both).
pub trait CardUnits {
    /// A unit read from a file, before it meets its opponent.
    type Spec;
    /// Whether a card database stands behind (a file's `"db"` is then
    /// read).
    fn has_db(&self) -> bool;
    /// Reads one unit, with the keyword texts ignored.
    fn build(&self, u: &UnitFile, ignore_unknown: bool) -> Result<(Self::Spec, Vec<String>)>;
    /// The attacker and the defender, as they face each other.
    fn pair(&self, attacker: &Self::Spec, defender: &Self::Spec) -> Result<Paired>;
    /// Another unit of a scenario, facing `facing`.
    fn other(&self, unit: &Self::Spec, facing: &Self::Spec) -> Result<(Unit, Vec<Applied>)>;
    /// The attacker and the defender as they face each other in `arena`,
    /// the defender's (for an attack from another arena: Bombard, Ion
    /// Cannon, Barrage).
    fn pair_in(
        &self,
        attacker: &Self::Spec,
        defender: &Self::Spec,
        _arena: crate::unit::Arena,
    ) -> Result<Paired> {
        self.pair(attacker, defender)
    }
    /// Where a unit's card puts it: the arenas its type line allows, and
    /// its printed speed (none for a unit given by its numbers).
    fn placement(&self, _unit: &Self::Spec) -> (Vec<crate::unit::Arena>, Option<u32>) {
        (Vec::new(), None)
    }
}

/// A file of units solved as a whole (a scenario, a plan, a battle): how it
/// is read, where its card database is, and how its units are built, so
/// that one reader serves every kind ([`FromFile::from_json`] here, the
/// card crate's readers for files naming a `"db"`).
pub trait FromFile: Sized {
    /// The file as read.
    type File;
    /// The file's kind, naming text read from no file (`scenario`).
    const KIND: &'static str;
    /// Reads the file's JSON (`file` names it in errors).
    fn parse(text: &str, file: &str) -> Result<Self::File>;
    /// The card database the file names.
    fn db(file: &Self::File) -> Option<&DbPaths>;
    /// The whole, its units built by `cards`.
    fn from_parts<C: CardUnits>(file: Self::File, cards: &C) -> Result<Self>;
    /// Reads it from JSON text with units given by their numbers (a
    /// `"card"` unit is an error here).
    fn from_json(text: &str) -> Result<Self> {
        Self::from_parts(Self::parse(text, Self::KIND)?, &NoCards)
    }
}

/// No card database: units are given by their numbers.
pub struct NoCards;

impl CardUnits for NoCards {
    type Spec = Unit;

    fn has_db(&self) -> bool {
        false
    }

    fn build(&self, u: &UnitFile, ignore_unknown: bool) -> Result<(Unit, Vec<String>)> {
        u.plain(ignore_unknown)
    }

    fn pair(&self, a: &Unit, d: &Unit) -> Result<Paired> {
        Ok((a.clone(), d.clone(), Vec::new(), Vec::new()))
    }

    fn other(&self, u: &Unit, _: &Unit) -> Result<(Unit, Vec<Applied>)> {
        Ok((u.clone(), Vec::new()))
    }
}

/// Parses the keyword texts of unit `name`: the abilities, and (with
/// `ignore_unknown`) the texts ignored; otherwise an unknown or malformed
/// text is an error naming the unit and quoting it.
pub fn parse_texts(
    name: &str,
    texts: &[impl AsRef<str>],
    ignore_unknown: bool,
) -> Result<(Vec<Ability>, Vec<String>)> {
    let mut abilities = Vec::new();
    let mut ignored = Vec::new();
    for t in texts {
        let t = t.as_ref();
        match parse(t) {
            Ok(a) => abilities.push(a),
            Err(_) if ignore_unknown => ignored.push(t.to_string()),
            Err(e) => return Err(e.about(&format!("unit '{name}'"))),
        }
    }
    Ok((abilities, ignored))
}

/// A unit from its name, numbers and keyword texts. Unknown or malformed
/// keywords are errors naming the unit and quoting the text, unless
/// `ignore_unknown`, when they are returned as ignored.
pub(crate) fn unit_from_texts(
    name: &str,
    power: u32,
    health: Option<u32>,
    counters: u32,
    texts: &[impl AsRef<str>],
    ignore_unknown: bool,
) -> Result<(Unit, Vec<String>)> {
    let (abilities, ignored) = parse_texts(name, texts, ignore_unknown)?;
    let unit = Unit {
        name: name.to_string(),
        power,
        health,
        counters,
        keywords: Keywords::from_abilities(&abilities),
        from_another_arena: false,
    };
    unit.validate()?;
    Ok((unit, ignored))
}
