//! The battle phase, exactly: every unit of both sides attacks in turn, the
//! counters carry from attack to attack, and each side plays its choices
//! (which unit attacks next within a tie of speed, its target, whether to
//! attack at all) for its objective: who controls each arena at the end.
//!
//! The battle is a game tree. Its states are the counters on every unit,
//! the power each has lost to Stun, which units have attacked (or declined
//! to), and the Force left to each side. Its chance nodes are the exact
//! outcome laws of single attacks, each solved by the engine's attack solver
//! ([`crate::policy::solve`]) with every keyword and every choice inside the
//! attack. Its choice nodes are the battle's own choices. States are
//! memoised; the number of states is bounded before the solve starts
//! ([`Battle::estimate_states`]) and as it goes.
//!
//! The rules followed (docs/rules.md, "The battle phase"):
//! - the arenas are fought in order: Space, Ground, Character;
//! - in an arena, among the units that have not attacked, the fastest
//!   attacks first; between players, the Dark Side's units tied for the
//!   highest speed go first; among one player's tied units, that player
//!   chooses;
//! - the attacking unit's player picks an enemy unit of the arena as its
//!   target (or of the arena its Bombard, Ion Cannon or Barrage reaches),
//!   or declines to attack with it;
//! - a discarded unit leaves at once; Stun lowers power until the end of the
//!   battle; Force spent in one attack is gone for the rest of the battle.
//!
//! ```
//! use swtcg_engine::battle::Battle;
//! let b = Battle::from_json(r#"{"units": [
//!   {"name": "V", "side": "dark", "arena": "Character", "speed": 50, "power": 1, "health": 1},
//!   {"name": "L", "side": "light", "arena": "Character", "speed": 40, "power": 1, "health": 1}]}"#).unwrap();
//! let r = b.solve().unwrap();
//! // V attacks first: 1/2 it discards L; else L attacks back, 1/2 it discards V.
//! assert_eq!(r.arena(swtcg_engine::unit::Arena::Character).dark.to_string(), "1/2");
//! assert_eq!(r.arena(swtcg_engine::unit::Arena::Character).light.to_string(), "1/4");
//! ```

use crate::attack::Side;
use crate::dist::{Fraction, Weight};
use crate::error::{Error, Result, quote};
use crate::files::{Applied, CardUnits, DbPaths, FromFile, UnitFile};
use crate::keywords::{KeywordKind, Keywords};
use crate::policy::{ForceBudget, Game, Policy, solve};
use crate::unit::{Arena, Unit};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use serde::{Deserialize, Serialize};
use sixths::{Int, Packed, Sixths, pow6};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::rc::Rc;

mod report;
mod sixths;
mod solve;

pub use report::{ArenaControl, BattleReport, UnitFate};
pub(crate) use report::{FirstDecision, FirstOption};
pub use solve::BattleProgress;
use solve::{Forward, Solver, Values};

/// Most health a unit of a battle may have (a state holds its counters in
/// a byte).
pub(crate) const MAX_BATTLE_HEALTH: u32 = 255;
/// Most power a unit of a battle may have (the power it loses to Stun is
/// held in a byte, so that it is exact up to 255).
pub(crate) const MAX_BATTLE_POWER: u32 = 100;

/// Most units one battle may have (all arenas).
pub(crate) const MAX_BATTLE_UNITS: usize = 16;
/// The default bound on a battle's estimated states
/// ([`Battle::estimate_states`]); a file raises it with `"max_states"`, the
/// command line with `--max-states`. The estimate is a product over the
/// units, and the battles measured reach 1 in 10 (the smallest) to 1 in
/// 10^5 of it (README, "Battles").
pub(crate) const MAX_BATTLE_STATES: u64 = 100_000_000_000;
/// Most states a battle may really solve, whatever its bound (checked as it
/// goes): the memory of one state's values is a few hundred bytes (1.4
/// million states took 0.6 GB).
pub(crate) const MAX_SOLVED_STATES: u64 = 4_000_000;

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Player {
    /// The Dark Side: its units tied for the highest speed attack first.
    Dark,
    /// The Light Side.
    Light,
}

impl Player {
    /// Its index in per-player arrays: 0 dark, 1 light.
    pub(crate) fn index(self) -> usize {
        match self {
            Player::Dark => 0,
            Player::Light => 1,
        }
    }

    /// The other player.
    pub(crate) fn other(self) -> Player {
        match self {
            Player::Dark => Player::Light,
            Player::Light => Player::Dark,
        }
    }

    /// Its word: `dark` or `light`.
    pub fn word(self) -> &'static str {
        match self {
            Player::Dark => "dark",
            Player::Light => "light",
        }
    }

    const BOTH: [Player; 2] = [Player::Dark, Player::Light];
}

/// What each side plays its battle choices for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum BattleObjective {
    /// P(it alone has units in the arena); over several arenas, the
    /// expected number of arenas it controls.
    Control,
    /// P(it controls two or more of the arenas given).
    ControlTwo,
    /// The expected number of enemy units discarded minus its own.
    DiscardDifference,
}

impl BattleObjective {
    /// Its word in files and output.
    pub(crate) fn word(self) -> &'static str {
        match self {
            BattleObjective::Control => "control",
            BattleObjective::ControlTwo => "control-two",
            BattleObjective::DiscardDifference => "discard-difference",
        }
    }
}

/// The Force of each side for the whole battle: `{"dark": 4, "light":
/// "unlimited"}`; a side not given has 4.
#[derive(Deserialize, Default, Clone, Copy, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct BattleForce {
    /// The Dark Side's.
    pub dark: Option<ForceBudget>,
    /// The Light Side's.
    pub light: Option<ForceBudget>,
}

/// A unit of a battle file: a unit as in scenario files, with its side, its
/// arena and its speed.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BattleUnitFile {
    /// Its name (a card unit's name by default).
    pub name: Option<String>,
    /// The card.
    pub card: Option<String>,
    /// Conditions of the card switched on.
    #[serde(default)]
    pub conditions: Vec<String>,
    /// Power (a card's printed power when not given).
    pub power: Option<u32>,
    /// Health (a card's printed health when not given).
    pub health: Option<u32>,
    /// Damage counters on it when the battle starts.
    #[serde(default)]
    pub counters: u32,
    /// Keyword texts.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// `"dark"` or `"light"`.
    pub side: Player,
    /// `"Space"`, `"Ground"` or `"Character"` (a card's arena when it has
    /// one).
    pub arena: Option<String>,
    /// Its speed (a card's printed speed when not given).
    pub speed: Option<u32>,
}

impl BattleUnitFile {
    /// The unit as a scenario file gives it.
    fn unit_file(&self) -> UnitFile {
        UnitFile {
            name: self.name.clone(),
            card: self.card.clone(),
            conditions: self.conditions.clone(),
            power: self.power,
            health: self.health,
            counters: self.counters,
            keywords: self.keywords.clone(),
            side: None,
        }
    }
}

/// A battle file, as read.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    /// Every unit of both sides.
    pub(crate) units: Vec<BattleUnitFile>,
    /// What both sides play for (control; control-two when units are in
    /// several arenas).
    pub(crate) objective: Option<BattleObjective>,
    /// How the choices inside each attack are played.
    #[serde(default)]
    pub policy: Policy,
    /// The Force of each side for the whole battle.
    pub(crate) force: Option<BattleForce>,
    /// List unknown keywords instead of failing.
    #[serde(default)]
    pub ignore_unknown: bool,
    /// A card database for units given as `"card"` (relative to the file).
    pub db: Option<DbPaths>,
    /// The bound on the estimated states (`MAX_BATTLE_STATES` when not
    /// given).
    pub max_states: Option<u64>,
}

impl BattleFile {
    /// Reads a battle file's JSON (`file` names it in errors).
    pub(crate) fn parse(text: &str, file: &str) -> Result<BattleFile> {
        serde_json::from_str(crate::input::strip_bom(text)).map_err(|e| Error::json(file, &e))
    }
}

/// A unit in a battle.
#[derive(Clone, Debug)]
pub(crate) struct BattleUnit {
    /// The unit, as it stands before the battle (before it meets an
    /// opponent: card conditions decided by two cards are applied per
    /// attack).
    pub unit: Unit,
    /// Its side.
    pub player: Player,
    /// Its arena.
    pub arena: Arena,
    /// Its speed.
    pub speed: u32,
}

/// A battle: units of both sides in one or more arenas.
#[derive(Clone, Debug)]
pub struct Battle {
    /// The units.
    pub(crate) units: Vec<BattleUnit>,
    /// `pairs[i][j]`: unit `i` attacking unit `j` and unit `j` defending
    /// against it (conditions two cards decide applied), for enemies of one
    /// arena.
    pairs: Vec<Vec<Option<(Unit, Unit)>>>,
    /// `bystanders[k][f]`: unit `k` as another unit of an attack, facing
    /// unit `f` (the attacker when `k` is its enemy, else the defender).
    bystanders: Vec<Vec<Option<Unit>>>,
    /// What both sides play for.
    pub(crate) objective: BattleObjective,
    /// How choices inside an attack are played.
    pub policy: Policy,
    /// The Force of each side for the battle, by `Player::index` (`None`:
    /// unlimited).
    pub force: [Option<u32>; 2],
    /// The bound on the estimated states.
    pub max_states: u64,
    /// The most states the solve may really solve (`MAX_SOLVED_STATES`
    /// unless a front-end lowers it, as the web server does).
    pub max_solved: u64,
    /// Every unit of an arena takes part in each attack there, and each
    /// attack is keyed by every unit's state and both sides' Force: the
    /// solver without its shortcuts, to check them in tests.
    no_shortcuts: bool,
    /// How each unit's keywords reach other units of an attack, over all
    /// its versions.
    reach: Vec<Reach>,
    /// `(unit, text)` of keywords ignored under `ignore_unknown`.
    pub ignored: Vec<(String, String)>,
    /// Conditions of the cards applied.
    pub applied: Vec<Applied>,
    /// Conditions the cards cannot decide, not switched on.
    pub waiting: Vec<(String, String)>,
}

/// Keywords whose effect reaches past the attack in a way a battle does not
/// model yet: (name, whether a unit has it, given its keywords with its
/// options before the roll taken and its own).
type Unmodelled = (&'static str, fn(&Keywords, &Keywords) -> bool);

/// Each is checked with the unit's options before the roll taken
/// (`Keywords::with_options`, made once per unit): an option's keyword is
/// one the unit may have.
const NOT_MODELLED: &[Unmodelled] = &[
    ("Tenacity (a second attack)", |k, _| k.tenacity > 0),
    ("Focus (power for its next attack)", |k, _| k.focus > 0),
    ("Persuade (power lost for the next attack)", |k, _| {
        k.has(KeywordKind::Persuade)
    }),
    ("Absorb (power for its next attack)", |k, _| {
        k.has(KeywordKind::Absorb)
    }),
    ("Surge (power until the end of the turn)", |k, _| {
        k.surge > 0
    }),
    ("Stun from an option before the roll", |k, own| {
        k.stun > own.stun
    }),
];

/// How a unit's keywords reach units of an attack other than the attacker
/// and the defender (then other units of the arena take part in each
/// attack: [`Battle::taking_part`]).
#[derive(Clone, Copy, Debug)]
struct Reach {
    /// It has an ability paid with Force.
    pays: bool,
    /// It has Intercept.
    intercepts: bool,
    /// A keyword other than Intercept reaches other units.
    past_intercept: bool,
}

/// The arena a unit may attack from another arena: Ground with Bombard,
/// Space with Ion Cannon, Character with Barrage.
fn other_arena(u: &Unit) -> Option<Arena> {
    [Arena::Ground, Arena::Space, Arena::Character]
        .into_iter()
        .find(|a| u.keywords.number(a.attacked_with()) > 0)
}

/// The power a unit given by its numbers attacks another arena with: the X
/// of its Bombard, Ion Cannon or Barrage.
fn cross_power(u: &Unit) -> u32 {
    let k = &u.keywords;
    k.bombard.max(k.ion_cannon).max(k.barrage)
}

/// Whether a keyword other than Intercept reaches units of the attack other
/// than the attacker and the defender.
fn reaches_past_intercept(u: &Unit) -> bool {
    let k = &u.keywords;
    k.overkill
        || k.deflect > 0
        || !k.paid_deflects.is_empty()
        || k.redirect
        || k.intimidation
        || k.inspiration
        || k.avenge > 0
        || k.area_damage > 0
        || k.protect > 0
        // A paid Protect (or Redirect, ...) takes part, so that the
        // attack's game refuses it rather than leave it out unseen.
        || !k.unpriced.is_empty()
}

impl Battle {
    /// Reads a battle from JSON text (units by their numbers and keyword
    /// texts; a `"card"` unit needs a card database: see
    /// `Battle::from_parts`).
    pub fn from_json(text: &str) -> Result<Battle> {
        <Battle as FromFile>::from_json(text)
    }

    /// The battle of a file read ([`BattleFile::parse`]), its units built
    /// by `cards`.
    pub(crate) fn from_parts<C: CardUnits>(file: BattleFile, cards: &C) -> Result<Battle> {
        if file.db.is_some() && !cards.has_db() {
            return Err(Error::missing(
                "\"db\": this reader has no card database (read the file with its cards)",
            ));
        }
        let n = file.units.len();
        if n == 0 || n > MAX_BATTLE_UNITS {
            return Err(Error::limit(format!(
                "battle: {n} units; a battle has 1 to {MAX_BATTLE_UNITS}"
            )));
        }
        let mut specs = Vec::new();
        let mut ignored = Vec::new();
        let mut placed = Vec::new();
        for f in &file.units {
            let label = f.unit_file().label();
            let (spec, texts) = cards.build(&f.unit_file(), file.ignore_unknown)?;
            ignored.extend(texts.into_iter().map(|t| (label.clone(), t)));
            let (arenas, printed_speed) = cards.placement(&spec);
            let arena = match (&f.arena, arenas.as_slice()) {
                (Some(w), _) => {
                    let a = Arena::from_word(w).ok_or_else(|| {
                        Error::unknown(format!(
                            "unit '{}': arena '{}' is none of Space, Ground, Character",
                            quote(&label),
                            quote(w)
                        ))
                    })?;
                    if !arenas.is_empty() && !arenas.contains(&a) {
                        return Err(Error::rules(format!(
                            "unit '{}': its card is not a {} unit",
                            quote(&label),
                            a.name()
                        )));
                    }
                    a
                }
                (None, [one]) => *one,
                (None, _) => {
                    return Err(Error::missing(format!(
                        "unit '{}': \"arena\" (Space, Ground or Character) is required{}",
                        quote(&label),
                        if arenas.len() > 1 {
                            " (its card can be in several)"
                        } else {
                            ""
                        }
                    )));
                }
            };
            let speed = f.speed.or(printed_speed).ok_or_else(|| {
                Error::missing(format!(
                    "unit '{}': \"speed\" is required (who attacks first)",
                    quote(&label)
                ))
            })?;
            specs.push(spec);
            placed.push((f.side, arena, speed));
        }
        let mut applied: Vec<Applied> = Vec::new();
        let mut waiting: Vec<(String, String)> = Vec::new();
        let mut pairs = vec![vec![None; n]; n];
        let mut bystanders = vec![vec![None; n]; n];
        let mut units = Vec::new();
        for k in 0..n {
            let (unit, ap) = cards.other(&specs[k], &specs[k])?;
            applied.extend(ap);
            units.push(BattleUnit {
                unit,
                player: placed[k].0,
                arena: placed[k].1,
                speed: placed[k].2,
            });
        }
        for i in 0..n {
            for j in 0..n {
                let remote = placed[i].1 != placed[j].1;
                if i == j || (remote && other_arena(&units[i].unit) != Some(placed[j].1)) {
                    continue;
                }
                if placed[i].0 != placed[j].0 {
                    let (mut a, d, ap, w) = cards.pair_in(&specs[i], &specs[j], placed[j].1)?;
                    if remote && !a.from_another_arena {
                        // Given by its numbers: it attacks there with the
                        // X of its Bombard, Ion Cannon or Barrage.
                        a.power = cross_power(&a);
                        a.from_another_arena = true;
                    }
                    for x in ap {
                        if !applied.contains(&x) {
                            applied.push(x);
                        }
                    }
                    for x in w {
                        if !waiting.contains(&x) {
                            waiting.push(x);
                        }
                    }
                    pairs[i][j] = Some((a, d));
                }
                if remote {
                    continue;
                }
                let (u, ap) = cards.other(&specs[i], &specs[j])?;
                for x in ap {
                    if !applied.contains(&x) {
                        applied.push(x);
                    }
                }
                bystanders[i][j] = Some(u);
            }
        }
        for (k, b) in units.iter().enumerate() {
            let name = &b.unit.name;
            if units[..k].iter().any(|x| &x.unit.name == name) {
                return Err(Error::conflict(format!(
                    "battle: two units are named '{}' (give one a \"name\")",
                    quote(name)
                )));
            }
            if b.unit.health.is_some_and(|h| h > MAX_BATTLE_HEALTH)
                || b.unit.power > MAX_BATTLE_POWER
            {
                return Err(Error::range(format!(
                    "battle: unit '{}': a battle's units have health up to {MAX_BATTLE_HEALTH} and power up to {MAX_BATTLE_POWER}",
                    quote(name)
                )));
            }
            if b.unit.health.is_none() {
                return Err(Error::missing(format!(
                    "battle: unit '{}' needs its health (a battle discards units)",
                    quote(name)
                )));
            }
        }
        let arenas: Vec<Arena> = arenas_of(&units);
        let objective = match file.objective {
            Some(o) => o,
            None if arenas.len() > 1 => BattleObjective::ControlTwo,
            None => BattleObjective::Control,
        };
        if objective == BattleObjective::ControlTwo && arenas.len() < 2 {
            return Err(Error::conflict(format!(
                "battle: objective \"control-two\" needs units in two arenas or more; these are all in the {} arena",
                arenas.first().map_or("same", |a| a.name())
            )));
        }
        let f = file.force.unwrap_or_default();
        let mut battle = Battle {
            units,
            pairs,
            bystanders,
            objective,
            policy: file.policy,
            force: [
                ForceBudget::or_default(f.dark),
                ForceBudget::or_default(f.light),
            ],
            max_states: file.max_states.unwrap_or(MAX_BATTLE_STATES),
            max_solved: MAX_SOLVED_STATES,
            no_shortcuts: false,
            reach: Vec::new(),
            ignored,
            applied,
            waiting,
        };
        for (k, b) in battle.units.iter().enumerate() {
            let unmodelled = battle.versions(k).find_map(|u| {
                let k = u.keywords.with_options();
                NOT_MODELLED.iter().find(|(_, has)| has(&k, &u.keywords))
            });
            if let Some((what, _)) = unmodelled {
                return Err(Error::not_modelled(format!(
                    "battle: unit '{}': {what} is not modelled in battles",
                    quote(&b.unit.name)
                )));
            }
        }
        battle.reach = (0..battle.units.len())
            .map(|k| Reach {
                pays: battle.versions(k).any(pays_force),
                intercepts: battle.versions(k).any(|v| v.keywords.intercept),
                past_intercept: battle.versions(k).any(reaches_past_intercept),
            })
            .collect();
        Ok(battle)
    }

    /// The arenas that have units when the battle starts, in the order they
    /// are fought.
    pub(crate) fn arenas(&self) -> Vec<Arena> {
        arenas_of(&self.units)
    }

    /// An upper bound on the states the solve can reach, counted before it
    /// starts: the product over units of the counters each can end with and
    /// the power it can lose to Stun (when an enemy of its arena has Stun);
    /// over arenas, of the sets of units that can have attacked (the units
    /// faster than the speed whose turn it is, and any of the units of that
    /// speed: the sum over speeds of 2 to the number of units of that
    /// speed); and over sides, of the Force each can have left (when it has
    /// an ability to pay for).
    pub fn estimate_states(&self) -> u64 {
        let mut states: u64 = 1;
        for (k, b) in self.units.iter().enumerate() {
            let u = &b.unit;
            let counters = u.remaining_health().unwrap_or(0) as u64 + 1;
            let stunned = self.units.iter().enumerate().any(|(j, e)| {
                e.player != b.player
                    && e.arena == b.arena
                    && self.versions(j).any(|v| v.keywords.stun > 0)
            });
            let power = self.versions(k).map(|v| v.power).max().unwrap_or(0) as u64;
            let stun = if stunned { power + 1 } else { 1 };
            states = states.saturating_mul(counters).saturating_mul(stun);
        }
        for a in self.arenas() {
            let mut speeds: BTreeMap<u32, u32> = BTreeMap::new();
            for b in self.units.iter().filter(|b| b.arena == a) {
                *speeds.entry(b.speed).or_default() += 1;
            }
            let done: u64 = speeds
                .values()
                .map(|&n| 1u64.checked_shl(n).unwrap_or(u64::MAX))
                .fold(0, u64::saturating_add);
            states = states.saturating_mul(done);
        }
        for p in Player::BOTH {
            let pays = self
                .units
                .iter()
                .enumerate()
                .any(|(k, b)| b.player == p && self.versions(k).any(pays_force));
            if let (true, Some(f)) = (pays, self.force[p.index()]) {
                states = states.saturating_mul(f as u64 + 1);
            }
        }
        states
    }

    /// Every version of unit `k`: as it stands, attacking, defending and
    /// as a bystander.
    fn versions(&self, k: usize) -> impl Iterator<Item = &Unit> {
        std::iter::once(&self.units[k].unit)
            .chain(self.pairs[k].iter().flatten().map(|p| &p.0))
            .chain(
                self.pairs
                    .iter()
                    .filter_map(move |row| row[k].as_ref().map(|p| &p.1)),
            )
            .chain(self.bystanders[k].iter().flatten())
    }

    /// The units taking part in unit `a`'s attack on unit `t` in state `s`:
    /// the two, and the other units of the arena in play whose presence can
    /// change the attack. When no unit of the arena has a keyword reaching
    /// past the attacker and the defender ([`reaches_others`]), none; when
    /// the only such keyword is Intercept, the defending side's units that
    /// can intercept; otherwise every one (at most
    /// [`crate::attack::MAX_UNITS`] in all).
    fn taking_part(&self, s: &State, a: usize, t: usize) -> Result<Vec<usize>> {
        // The attack is in the defender's arena (an attack from another
        // arena too).
        let arena = self.units[t].arena;
        let others: Vec<usize> = (0..self.units.len())
            .filter(|&k| k != a && k != t && self.units[k].arena == arena && self.alive(s, k))
            .collect();
        let involved = || [a, t].into_iter().chain(others.iter().copied());
        let mut out = vec![a, t];
        if self.no_shortcuts {
            out.extend(&others);
        } else if !involved().any(|k| self.reach[k].intercepts || self.reach[k].past_intercept) {
            return Ok(out);
        } else if !involved().any(|k| self.reach[k].past_intercept) {
            out.extend(others.iter().copied().filter(|&k| {
                self.units[k].player != self.units[a].player && self.reach[k].intercepts
            }));
        } else {
            out.extend(&others);
        }
        if out.len() > crate::attack::MAX_UNITS {
            return Err(Error::not_modelled(format!(
                "battle: {} units of the {} arena take part in one attack (a keyword reaches other units: Overkill, Deflect, Intercept, ...); one attack takes at most {}",
                out.len(),
                arena.name(),
                crate::attack::MAX_UNITS
            )));
        }
        Ok(out)
    }

    /// State `s` with what can no longer matter forgotten, so that states
    /// that differ only there are solved once: the power lost to Stun by a
    /// unit that has attacked (only an attacker's power counts in an
    /// attack) or is discarded, and whether a discarded unit had attacked.
    fn canonical(&self, mut s: State) -> State {
        for k in 0..self.units.len() {
            if !self.alive(&s, k) {
                s.done &= !(1 << k);
                s.stun[k] = 0;
            } else if s.done & (1 << k) != 0 {
                s.stun[k] = 0;
            }
        }
        s
    }

    /// How far a state is in the battle: the units that have attacked or
    /// are discarded. Every choice raises it (its unit attacks or declines,
    /// and discarded units stay discarded).
    fn progress(&self, s: &State) -> u32 {
        (0..self.units.len())
            .filter(|&k| s.done & (1 << k) != 0 || !self.alive(s, k))
            .count() as u32
    }

    /// The state the battle starts in.
    fn start(&self) -> State {
        let mut counters = [0; MAX_BATTLE_UNITS];
        for (c, b) in counters.iter_mut().zip(&self.units) {
            *c = b.unit.counters.min(u32::from(u8::MAX)) as u8;
        }
        State {
            counters,
            stun: [0; MAX_BATTLE_UNITS],
            done: 0,
            force: self
                .force
                .map(|f| f.map_or(UNLIMITED, |x| x.min(MAX_FORCE))),
        }
    }

    fn alive(&self, s: &State, k: usize) -> bool {
        let h = self.units[k].unit.health.unwrap_or(u32::MAX);
        u32::from(s.counters[k]) < h
    }

    /// Whose turn it is and which of its units may attack next, or `None`
    /// when the battle is over.
    fn turn(&self, s: &State) -> Option<(Player, Vec<usize>)> {
        for arena in [Arena::Space, Arena::Ground, Arena::Character] {
            let able: Vec<usize> = (0..self.units.len())
                .filter(|&k| {
                    let b = &self.units[k];
                    b.arena == arena
                        && self.alive(s, k)
                        && s.done & (1 << k) == 0
                        && self.targets(s, k).next().is_some()
                })
                .collect();
            let Some(fastest) = able.iter().map(|&k| self.units[k].speed).max() else {
                continue;
            };
            let tied = |p: Player| -> Vec<usize> {
                able.iter()
                    .copied()
                    .filter(|&k| self.units[k].speed == fastest && self.units[k].player == p)
                    .collect()
            };
            let dark = tied(Player::Dark);
            return Some(if dark.is_empty() {
                (Player::Light, tied(Player::Light))
            } else {
                (Player::Dark, dark)
            });
        }
        None
    }

    /// The units unit `k` may attack: the enemies of its arena in play.
    fn targets<'s>(&'s self, s: &'s State, k: usize) -> impl Iterator<Item = usize> + 's {
        let b = &self.units[k];
        (0..self.units.len()).filter(move |&j| {
            let e = &self.units[j];
            e.player != b.player && self.alive(s, j) && self.pairs[k][j].is_some()
        })
    }

    /// The choices of the player whose turn it is: each unit tied for
    /// the turn attacking each target, then each declining.
    fn choices(&self, s: &State, units: &[usize]) -> Vec<Choice> {
        let mut out = Vec::new();
        for &c in units {
            for t in self.targets(s, c) {
                out.push(Choice::Attack(c, t));
            }
        }
        out.extend(units.iter().map(|&c| Choice::Decline(c)));
        out
    }

    /// The words of a choice: `V1 attacks L1`, `V1 declines to attack`.
    pub(crate) fn choice_words(&self, c: Choice) -> String {
        match c {
            Choice::Attack(a, t) => format!(
                "{} attacks {}",
                self.units[a].unit.name, self.units[t].unit.name
            ),
            Choice::Decline(a) => format!("{} declines to attack", self.units[a].unit.name),
        }
    }

    /// What a final state is worth ([`Values`]): each player's objective,
    /// the counters on each player's units, and the Force each has left.
    fn final_value(&self, s: &State) -> Values {
        let n = Sixths::int;
        let objective = match self.objective {
            BattleObjective::Control | BattleObjective::ControlTwo => {
                let mut held = [0i64; 2];
                for a in self.arenas() {
                    if let Some(p) = self.controller(s, a) {
                        held[p.index()] += 1;
                    }
                }
                if self.objective == BattleObjective::ControlTwo {
                    held.map(|h| i64::from(h >= 2))
                } else {
                    held
                }
            }
            BattleObjective::DiscardDifference => {
                let mut lost = [0i64; 2];
                for (k, b) in self.units.iter().enumerate() {
                    if !self.alive(s, k) {
                        lost[b.player.index()] += 1;
                    }
                }
                [lost[1] - lost[0], lost[0] - lost[1]]
            }
        };
        let mut counters = [0i64; 2];
        for (k, b) in self.units.iter().enumerate() {
            counters[b.player.index()] += i64::from(s.counters[k]);
        }
        let force = s
            .force
            .map(|f| if f == UNLIMITED { 0 } else { i64::from(f) });
        [
            n(objective[0]),
            n(objective[1]),
            n(counters[0]),
            n(counters[1]),
            n(force[0]),
            n(force[1]),
        ]
    }

    /// Whether each player (by [`Player::index`]) has units in play in
    /// arena `a`.
    fn presence(&self, s: &State, a: Arena) -> [bool; 2] {
        Player::BOTH.map(|p| {
            self.units
                .iter()
                .enumerate()
                .any(|(k, b)| b.arena == a && b.player == p && self.alive(s, k))
        })
    }

    /// Who alone has units in arena `a`, if one side does.
    fn controller(&self, s: &State, a: Arena) -> Option<Player> {
        match self.presence(s, a) {
            [true, false] => Some(Player::Dark),
            [false, true] => Some(Player::Light),
            _ => None,
        }
    }

    /// Solves the battle exactly.
    pub fn solve(&self) -> Result<BattleReport> {
        self.solve_with(&mut |_| {})
    }

    /// [`Battle::solve`], telling `progress` how far it is: after each
    /// alternative of the first decision, and every 4,096 states solved.
    pub fn solve_with(&self, progress: &mut dyn FnMut(BattleProgress)) -> Result<BattleReport> {
        let estimate = self.estimate_states();
        if estimate > self.max_states {
            return Err(Error::limit(format!(
                "battle: up to {estimate} states (counters x Stun x attacked x Force, per unit and side); the bound is {} (raise it with \"max_states\" in the file or --max-states)",
                self.max_states
            )));
        }
        let mut solver = Solver::new(self, self.max_states.min(self.max_solved), progress);
        let start = self.start();
        // The first decision, each alternative valued for its chooser
        // (solved first, so that progress counts them).
        let mut first = None;
        if let Some((player, units)) = self.turn(&start) {
            let mut options = Vec::new();
            let choices = self.choices(&start, &units);
            for (i, &c) in choices.iter().enumerate() {
                solver.first_decision(i, choices.len());
                let v = solver.choice_value(&start, c)?;
                options.push(FirstOption {
                    choice: c,
                    value: v[player.index()].ratio(),
                    values: [v[0].ratio(), v[1].ratio()],
                });
            }
            solver.first_decision(choices.len(), choices.len());
            solver.value(&start)?;
            first = Some(FirstDecision {
                player,
                best: solver.best(&start).expect("a turn has a choice"),
                options,
            });
        }
        let full = solver.value(&start)?;
        let value = [full[0].ratio(), full[1].ratio()];
        let forward = solver.forward(&start)?;
        Ok(BattleReport {
            battle: self.clone(),
            value,
            first,
            estimate,
            states: solver.states(),
            attacks_solved: solver.attacks_solved(),
            forward,
        })
    }
}

/// The arenas with units, in the order fought.
fn arenas_of(units: &[BattleUnit]) -> Vec<Arena> {
    [Arena::Space, Arena::Ground, Arena::Character]
        .into_iter()
        .filter(|a| units.iter().any(|b| b.arena == *a))
        .collect()
}

/// Whether a unit has an ability paid with Force.
fn pays_force(u: &Unit) -> bool {
    let k = &u.keywords;
    k.retaliates.iter().any(|p| p.cost > 0 || p.x)
        || k.paid_evades.iter().any(|p| p.cost > 0 || p.x)
        || k.paid_deflects.iter().any(|p| p.cost > 0 || p.x)
        || k.boosts.iter().any(|b| b.cost > 0)
        || !k.tolls.is_empty()
        || (k.intercept && k.intercept_cost > 0)
}

/// The largest power of 6 an attack's law may be over (its dice, re-rolls
/// included, are far fewer).
const MAX_EXP: u32 = 400;

/// Force left, as a state holds it: [`UNLIMITED`] for no limit.
const UNLIMITED: u32 = u32::MAX;
/// Most Force a state tracks (more is as good as unlimited within bounds).
const MAX_FORCE: u32 = 1_000;

/// A choice of the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Choice {
    /// Unit `.0` attacks unit `.1`.
    Attack(usize, usize),
    /// Unit `.0` declines to attack this battle.
    Decline(usize),
}

/// Where a battle stands between attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct State {
    /// Counters on each unit.
    counters: [u8; MAX_BATTLE_UNITS],
    /// Power each unit has lost to Stun (at most 255: more than any
    /// battle unit's power, [`MAX_BATTLE_POWER`], can lose).
    stun: [u8; MAX_BATTLE_UNITS],
    /// Bit `k`: unit `k` has attacked or declined to.
    done: u32,
    /// Force left to each player ([`UNLIMITED`] for no limit).
    force: [u32; 2],
}

impl FromFile for Battle {
    type File = BattleFile;
    const KIND: &'static str = "battle";

    fn parse(text: &str, file: &str) -> Result<BattleFile> {
        BattleFile::parse(text, file)
    }

    fn db(file: &BattleFile) -> Option<&DbPaths> {
        file.db.as_ref()
    }

    fn from_parts<C: CardUnits>(file: BattleFile, cards: &C) -> Result<Battle> {
        Battle::from_parts(file, cards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Progress is told after each alternative of the first decision, and
    /// ends with all of them solved.
    #[test]
    fn progress_counts_the_first_decisions_alternatives() {
        let b = Battle::from_json(
            r#"{"units": [
              {"name": "A", "side": "dark", "arena": "Character", "speed": 50, "power": 3, "health": 3},
              {"name": "C", "side": "light", "arena": "Character", "speed": 40, "power": 3, "health": 2},
              {"name": "D", "side": "light", "arena": "Character", "speed": 40, "power": 2, "health": 3}]}"#,
        )
        .unwrap();
        let mut told = Vec::new();
        b.solve_with(&mut |p| told.push((p.first_done, p.first_total)))
            .unwrap();
        // A attacks C, attacks D, or declines.
        assert_eq!(told.last(), Some(&(3, 3)));
        assert!(told.iter().all(|&(d, t)| t == 3 && d <= 3));
    }

    /// The attacks of a battle whose units have keywords reaching other
    /// units take only the units that can matter ([`Battle::taking_part`]):
    /// the same battle with every unit of the arena in every attack solves
    /// to the same values, fates and first options.
    #[test]
    fn attacks_take_only_the_units_that_can_matter() {
        let cases = [
            // Intercept only: the defending side's interceptors.
            r#"{"units": [
              {"name": "A", "side": "dark", "arena": "Character", "speed": 50, "power": 3, "health": 3, "keywords": ["Pay 1 Force -> Intercept"]},
              {"name": "B", "side": "dark", "arena": "Character", "speed": 30, "power": 2, "health": 2},
              {"name": "C", "side": "light", "arena": "Character", "speed": 40, "power": 3, "health": 2, "keywords": ["Pay 0 Force -> Intercept"]},
              {"name": "D", "side": "light", "arena": "Character", "speed": 40, "power": 2, "health": 3, "keywords": ["Critical Hit 1"]}]}"#,
            // Overkill and Deflect: everyone.
            r#"{"units": [
              {"name": "A", "side": "dark", "arena": "Ground", "speed": 50, "power": 4, "health": 3, "keywords": ["Overkill"]},
              {"name": "B", "side": "dark", "arena": "Ground", "speed": 20, "power": 2, "health": 2},
              {"name": "C", "side": "light", "arena": "Ground", "speed": 40, "power": 2, "health": 1, "keywords": ["Pay 1 Force -> Deflect 1"]},
              {"name": "D", "side": "light", "arena": "Ground", "speed": 30, "power": 2, "health": 2}]}"#,
            // Paid Intercepts (the dark side pays for one of two), Stun on both sides: the Force and
            // lost power that key each attack.
            r#"{"units": [
              {"name": "A", "side": "dark", "arena": "Character", "speed": 50, "power": 3, "health": 3, "keywords": ["Stun 1"]},
              {"name": "B", "side": "dark", "arena": "Character", "speed": 30, "power": 2, "health": 2, "keywords": ["Pay 2 Force -> Intercept"]},
              {"name": "C", "side": "light", "arena": "Character", "speed": 40, "power": 3, "health": 3, "keywords": ["Pay 3 Force -> Intercept", "Stun 2"]},
              {"name": "D", "side": "light", "arena": "Character", "speed": 40, "power": 2, "health": 2}],
              "force": {"dark": 3, "light": 3}}"#,
            // No keyword reaching others: the two alone.
            r#"{"units": [
              {"name": "A", "side": "dark", "arena": "Space", "speed": 50, "power": 3, "health": 3, "keywords": ["Stun 1", "Retaliate 1"]},
              {"name": "B", "side": "dark", "arena": "Space", "speed": 40, "power": 2, "health": 2, "keywords": ["Armor"]},
              {"name": "C", "side": "light", "arena": "Space", "speed": 40, "power": 3, "health": 3, "keywords": ["Lucky 1"]},
              {"name": "D", "side": "light", "arena": "Space", "speed": 10, "power": 2, "health": 2}]}"#,
        ];
        for (i, text) in cases.iter().enumerate() {
            let some = Battle::from_json(text).unwrap();
            let mut all = some.clone();
            all.no_shortcuts = true;
            let (x, y) = (some.solve().unwrap(), all.solve().unwrap());
            assert_eq!(x.value, y.value, "case {i}");
            let fates = |r: &BattleReport| {
                r.units()
                    .into_iter()
                    .map(|u| (u.survives.0, u.expected_counters.0))
                    .collect::<Vec<_>>()
            };
            assert_eq!(fates(&x), fates(&y), "case {i}");
            let firsts = |r: &BattleReport| {
                r.first
                    .as_ref()
                    .unwrap()
                    .options
                    .iter()
                    .map(|o| o.values.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(firsts(&x), firsts(&y), "case {i}");
            // The check checks something: fewer attacks solved with fewer
            // units, except where every unit can matter.
            if i != 1 {
                assert!(x.attacks_solved < y.attacks_solved, "case {i}");
            }
        }
    }
}
