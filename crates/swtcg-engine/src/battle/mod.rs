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
use crate::files::{Applied, CardUnits, DbPaths, NoCards, UnitFile};
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

mod sixths;

/// Most health a unit of a battle may have (a state holds its counters in
/// a byte).
pub const MAX_BATTLE_HEALTH: u32 = 255;
/// Most power a unit of a battle may have (the power it loses to Stun is
/// held in a byte, so that it is exact up to 255).
pub const MAX_BATTLE_POWER: u32 = 100;

/// Most units one battle may have (all arenas).
pub const MAX_BATTLE_UNITS: usize = 16;
/// The default bound on a battle's estimated states
/// ([`Battle::estimate_states`]); a file raises it with `"max_states"`, the
/// command line with `--max-states`. The estimate is a product over the
/// units, and the battles measured reach 1 in 10 (the smallest) to 1 in
/// 10^5 of it (README, "Battles").
pub const MAX_BATTLE_STATES: u64 = 100_000_000_000;
/// Most states a battle may really solve, whatever its bound (checked as it
/// goes): the memory of one state's values is a few hundred bytes (1.4
/// million states took 0.6 GB).
pub const MAX_SOLVED_STATES: u64 = 4_000_000;
/// Most states a battle may solve for the web server, which serves several
/// at once (about 0.2 GB each).
pub const WEB_SOLVED_STATES: u64 = 500_000;

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The Dark Side: its units tied for the highest speed attack first.
    Dark,
    /// The Light Side.
    Light,
}

impl Player {
    /// Its index in per-player arrays: 0 dark, 1 light.
    pub fn index(self) -> usize {
        match self {
            Player::Dark => 0,
            Player::Light => 1,
        }
    }

    /// The other player.
    pub fn other(self) -> Player {
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
pub enum BattleObjective {
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
    pub fn word(self) -> &'static str {
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
pub struct BattleForce {
    /// The Dark Side's.
    pub dark: Option<ForceBudget>,
    /// The Light Side's.
    pub light: Option<ForceBudget>,
}

/// A unit of a battle file: a unit as in scenario files, with its side, its
/// arena and its speed.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleUnitFile {
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
    pub units: Vec<BattleUnitFile>,
    /// What both sides play for (control; control-two when units are in
    /// several arenas).
    pub objective: Option<BattleObjective>,
    /// How the choices inside each attack are played.
    #[serde(default)]
    pub policy: Policy,
    /// The Force of each side for the whole battle.
    pub force: Option<BattleForce>,
    /// List unknown keywords instead of failing.
    #[serde(default)]
    pub ignore_unknown: bool,
    /// A card database for units given as `"card"` (relative to the file).
    pub db: Option<DbPaths>,
    /// The bound on the estimated states ([`MAX_BATTLE_STATES`] when not
    /// given).
    pub max_states: Option<u64>,
}

impl BattleFile {
    /// Reads a battle file's JSON (`file` names it in errors).
    pub fn parse(text: &str, file: &str) -> Result<BattleFile> {
        serde_json::from_str(crate::input::strip_bom(text)).map_err(|e| Error::json(file, &e))
    }
}

/// A unit in a battle.
#[derive(Clone, Debug)]
pub struct BattleUnit {
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
    pub units: Vec<BattleUnit>,
    /// `pairs[i][j]`: unit `i` attacking unit `j` and unit `j` defending
    /// against it (conditions two cards decide applied), for enemies of one
    /// arena.
    pairs: Vec<Vec<Option<(Unit, Unit)>>>,
    /// `bystanders[k][f]`: unit `k` as another unit of an attack, facing
    /// unit `f` (the attacker when `k` is its enemy, else the defender).
    bystanders: Vec<Vec<Option<Unit>>>,
    /// What both sides play for.
    pub objective: BattleObjective,
    /// How choices inside an attack are played.
    pub policy: Policy,
    /// The Force of each side for the battle, by [`Player::index`] (`None`:
    /// unlimited).
    pub force: [Option<u32>; 2],
    /// The bound on the estimated states.
    pub max_states: u64,
    /// The most states the solve may really solve ([`MAX_SOLVED_STATES`]
    /// unless a front-end lowers it: the web server's is
    /// [`WEB_SOLVED_STATES`]).
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
/// model yet: (name, whether unit `u` has it).
type Unmodelled = (&'static str, fn(&Unit) -> bool);

const NOT_MODELLED: &[Unmodelled] = &[
    ("Tenacity (a second attack)", |u| u.keywords.tenacity > 0),
    ("Focus (power for its next attack)", |u| {
        u.keywords.focus > 0
    }),
    ("Persuade (power lost for the next attack)", |u| {
        u.keywords.persuade > 0
    }),
    ("Absorb (power for its next attack)", |u| {
        u.keywords.absorb > 0
    }),
    ("Surge (power until the end of the turn)", |u| {
        u.keywords.surge > 0
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
    let k = &u.keywords;
    [
        (k.bombard, Arena::Ground),
        (k.ion_cannon, Arena::Space),
        (k.barrage, Arena::Character),
    ]
    .into_iter()
    .find(|(x, _)| *x > 0)
    .map(|(_, a)| a)
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
}

impl Battle {
    /// Reads a battle from JSON text (units by their numbers and keyword
    /// texts; a `"card"` unit needs a card database: see
    /// [`Battle::from_parts`]).
    pub fn from_json(text: &str) -> Result<Battle> {
        Battle::from_parts(BattleFile::parse(text, "battle")?, &NoCards)
    }

    /// The battle of a file read ([`BattleFile::parse`]), its units built
    /// by `cards`.
    pub fn from_parts<C: CardUnits>(file: BattleFile, cards: &C) -> Result<Battle> {
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
            let versions = std::iter::once(&b.unit)
                .chain(pairs[k].iter().flatten().map(|p| &p.0))
                .chain(pairs.iter().filter_map(|row| row[k].as_ref().map(|p| &p.1)))
                .chain(bystanders[k].iter().flatten());
            for u in versions {
                if let Some((what, _)) = NOT_MODELLED.iter().find(|(_, has)| has(u)) {
                    return Err(Error::not_modelled(format!(
                        "battle: unit '{}': {what} is not modelled in battles",
                        quote(name)
                    )));
                }
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
    pub fn arenas(&self) -> Vec<Arena> {
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
    pub fn choice_words(&self, c: Choice) -> String {
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

    /// Who alone has units in arena `a`, if one side does.
    fn controller(&self, s: &State, a: Arena) -> Option<Player> {
        let has = |p: Player| {
            self.units
                .iter()
                .enumerate()
                .any(|(k, b)| b.arena == a && b.player == p && self.alive(s, k))
        };
        match (has(Player::Dark), has(Player::Light)) {
            (true, false) => Some(Player::Dark),
            (false, true) => Some(Player::Light),
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
        let mut solver = Solver {
            battle: self,
            memo: HashMap::default(),
            attacks: HashMap::default(),
            limit: self.max_states.min(self.max_solved),
            progress,
            first: (0, 0),
        };
        let start = self.start();
        // The first decision, each alternative valued for its chooser
        // (solved first, so that progress counts them).
        let mut first = None;
        if let Some((player, units)) = self.turn(&start) {
            let mut options = Vec::new();
            let choices = self.choices(&start, &units);
            for (i, &c) in choices.iter().enumerate() {
                solver.first = (i, choices.len());
                let v = solver.choice_value(&start, c)?;
                options.push(FirstOption {
                    choice: c,
                    value: v[player.index()].ratio(),
                    values: [v[0].ratio(), v[1].ratio()],
                });
            }
            solver.first = (choices.len(), choices.len());
            solver.tell();
            solver.value(&start)?;
            first = Some(FirstDecision {
                player,
                best: solver.memo[&start].best.expect("a turn has a choice"),
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
            states: solver.memo.len() as u64,
            attacks_solved: solver.attacks.len() as u64,
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
pub enum Choice {
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

/// What one attack changes: `(unit, its counters, the power it loses)` for
/// each unit of the attack, and the Force each player spent (less what it
/// gained), by [`Player::index`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Effect {
    units: Vec<(usize, u8, u8)>,
    spent: [i64; 2],
}

/// What a state is worth under the solved play, in expectation: each
/// player's objective (by [`Player::index`]), the counters on the Dark
/// Side's units and on the Light Side's, and the Force left to each.
type Values = [Sixths; 6];

fn zero_values() -> Values {
    std::array::from_fn(|_| Sixths::int(0))
}

/// Whether player `me` prefers values `a` to `b`: a higher objective; on a
/// tie, as players break ties in an attack (docs/rules.md): more counters on
/// the other side's units, then fewer on its own, then more Force left; on a
/// tie of all, the earlier choice (`b`) stays.
fn prefers(me: usize, a: &Values, b: &Values) -> bool {
    use std::cmp::Ordering::{Equal, Greater};
    let o = 1 - me;
    let order = a[me]
        .cmp(&b[me])
        .then_with(|| a[2 + o].cmp(&b[2 + o]))
        .then_with(|| b[2 + me].cmp(&a[2 + me]))
        .then_with(|| a[4 + me].cmp(&b[4 + me]));
    order != Equal && order == Greater
}

/// The exact law of one attack: each effect with its integer weight over
/// `6^exp`.
#[derive(Debug)]
struct Law {
    exp: u32,
    outcomes: Vec<(Effect, Int)>,
}

/// A solved state: what it is worth, and the choice made.
struct Node {
    value: Packed,
    best: Option<Choice>,
}

/// The key of an attack's law: attacker, target, and the units taking part
/// with their counters and Stun, and the Force of both players.
type AttackKey = (usize, usize, Vec<(usize, u8, u8)>, [u32; 2]);

/// A fast hash for the solver's keys (small integers, never chosen by an
/// adversary: the keys are the battle's own states): FxHash's mix.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Fast = std::hash::BuildHasherDefault<FxHasher>;

struct Solver<'a> {
    battle: &'a Battle,
    memo: HashMap<State, Node, Fast>,
    attacks: HashMap<AttackKey, Rc<Law>, Fast>,
    limit: u64,
    progress: &'a mut dyn FnMut(BattleProgress),
    /// The alternatives of the first decision solved, of how many.
    first: (usize, usize),
}

/// How far a battle's solve is.
#[derive(Clone, Copy, Debug)]
pub struct BattleProgress {
    /// States solved so far.
    pub states: u64,
    /// Alternatives of the first decision solved.
    pub first_done: usize,
    /// Alternatives of the first decision.
    pub first_total: usize,
}

/// The law of the end of a battle under the solved play, and what was
/// chosen on the way.
#[derive(Clone, Debug)]
struct Forward {
    /// `(final state, units discarded in the first attack that discarded
    /// any, probability)`.
    finals: Vec<(State, u32, Sixths)>,
    /// Each state reached where a choice is made, its chooser, choice and
    /// values, and the probability of reaching it.
    decisions: Vec<(State, Player, Choice, Sixths, Sixths)>,
}

impl Solver<'_> {
    fn tell(&mut self) {
        (self.progress)(BattleProgress {
            states: self.memo.len() as u64,
            first_done: self.first.0,
            first_total: self.first.1,
        });
    }

    /// The value of state `s` for each player under both players' best play.
    fn value(&mut self, s: &State) -> Result<Values> {
        if let Some(n) = self.memo.get(s) {
            return Ok(n.value.unpack());
        }
        crate::cancel::check()?;
        let b = self.battle;
        let (v, best) = match b.turn(s) {
            None => (b.final_value(s), None),
            Some((player, units)) => {
                let me = player.index();
                let mut best: Option<(Choice, Values)> = None;
                for c in b.choices(s, &units) {
                    let v = self.choice_value(s, c)?;
                    if best.as_ref().is_none_or(|(_, bv)| prefers(me, &v, bv)) {
                        best = Some((c, v));
                    }
                }
                let (c, value) = best.expect("a turn has a choice");
                (value, Some(c))
            }
        };
        if self.memo.len() % 4096 == 4095 {
            self.tell();
        }
        if self.memo.len() as u64 >= self.limit {
            return Err(Error::limit(format!(
                "battle: more than {} states solved (raise \"max_states\" or --max-states, up to {})",
                self.limit, self.battle.max_solved
            )));
        }
        let node = Node {
            value: Packed::pack(&v),
            best,
        };
        self.memo.insert(*s, node);
        Ok(v)
    }

    /// The value of choice `c` in state `s`.
    fn choice_value(&mut self, s: &State, c: Choice) -> Result<Values> {
        let mut total = zero_values();
        let (exp, next) = self.next(s, c)?;
        for (n, w) in next {
            let v = self.value(&n)?;
            for (t, x) in total.iter_mut().zip(&v) {
                t.add_product(x, &w, exp);
            }
        }
        Ok(total)
    }

    /// The law of the state after choice `c` in state `s`: each next
    /// state with its weight over `6^exp`, and `exp`.
    fn next(&mut self, s: &State, c: Choice) -> Result<(u32, Vec<(State, Int)>)> {
        match c {
            Choice::Decline(a) => {
                let mut n = *s;
                n.done |= 1 << a;
                Ok((0, vec![(self.battle.canonical(n), Int::ONE)]))
            }
            Choice::Attack(a, t) => {
                let law = self.attack(s, a, t)?;
                let next = law
                    .outcomes
                    .iter()
                    .map(|(e, p)| {
                        let mut n = *s;
                        n.done |= 1 << a;
                        for &(k, counters, stun) in &e.units {
                            n.counters[k] = counters;
                            n.stun[k] = n.stun[k].saturating_add(stun);
                        }
                        for (f, spent) in n.force.iter_mut().zip(e.spent) {
                            if *f != UNLIMITED {
                                *f = (i64::from(*f) - spent).clamp(0, i64::from(MAX_FORCE)) as u32;
                            }
                        }
                        (self.battle.canonical(n), p.clone())
                    })
                    .collect();
                Ok((law.exp, next))
            }
        }
    }

    /// The exact law of unit `a` attacking unit `t` in state `s`.
    fn attack(&mut self, s: &State, a: usize, t: usize) -> Result<Rc<Law>> {
        let b = self.battle;
        let taking_part = b.taking_part(s, a, t)?;
        let pa = b.units[a].player;
        let force = [s.force[pa.index()], s.force[pa.other().index()]];
        // When no unit here has an ability paid with Force (a toll is paid
        // by the other side, so any unit's counts for both), the Force
        // doesn't change the attack: one law serves every value.
        let pays = taking_part.iter().any(|&k| b.reach[k].pays);
        let key: AttackKey = (
            a,
            t,
            taking_part
                .iter()
                // Only the attacker's lost power counts in an attack.
                .map(|&k| {
                    let own = k == a || b.no_shortcuts;
                    (k, s.counters[k], if own { s.stun[k] } else { 0 })
                })
                .collect(),
            if pays || b.no_shortcuts {
                force
            } else {
                [0, 0]
            },
        );
        if let Some(law) = self.attacks.get(&key) {
            return Ok(law.clone());
        }
        let (att, def) = b.pairs[a][t]
            .clone()
            .expect("enemies of one arena are paired");
        let mut units = vec![att, def];
        for &k in &taking_part[2..] {
            let facing = if b.units[k].player != pa { a } else { t };
            // Facing an attacker from another arena, a unit is read as it
            // stands beside the defender.
            units.push(
                b.bystanders[k][facing]
                    .clone()
                    .or_else(|| b.bystanders[k][t].clone())
                    .expect("units of one arena face each other"),
            );
        }
        for (u, &k) in units.iter_mut().zip(&taking_part) {
            u.counters = u32::from(s.counters[k]);
        }
        // Stun lowers the attacker's dice; no other unit's power counts in
        // an attack.
        units[0].power = units[0].power.saturating_sub(u32::from(s.stun[a]));
        let sides: Vec<Side> = taking_part
            .iter()
            .map(|&k| {
                if b.units[k].player == pa {
                    Side::Attacking
                } else {
                    Side::Defending
                }
            })
            .collect();
        let game = Game {
            units,
            sides,
            policy: b.policy,
            force: force.map(|f| (f != UNLIMITED).then_some(f)),
        };
        let out = solve(&game)?;
        let after = game.force_after(&out.declared);
        let mut effects: BTreeMap<Effect, BigInt> = BTreeMap::new();
        let denom = BigInt::from(out.solution.tallies.denom().to_big());
        // The weights over a power of 6 (each outcome is a sequence of die
        // faces, so its denominator divides one).
        let exp = (0..=MAX_EXP)
            .find(|&k| (pow6(k).big() % &denom).is_zero())
            .ok_or_else(|| {
                Error::not_modelled(format!(
                    "battle: an attack's law has the denominator {denom}, which divides no power of 6 up to 6^{MAX_EXP}"
                ))
            })?;
        let scale = pow6(exp).big() / &denom;
        for (tally, w) in out.solution.tallies.entries() {
            let mut eff = Vec::new();
            for (m, &k) in taking_part.iter().enumerate() {
                let health = b.units[k].unit.health.unwrap_or(u32::MAX);
                let counters = (out.units[m].counters + u32::from(tally.damage[m])).min(health);
                // Stun: a unit that placed counters lowers the power of
                // the enemies that took counters in the attack.
                let mut stun = 0u32;
                if tally.damage[m] > 0 {
                    for (src, &j) in taking_part.iter().enumerate() {
                        if b.units[j].player != b.units[k].player
                            && tally.damaged_by & (1 << src) != 0
                        {
                            stun += game.units[src].keywords.stun;
                        }
                    }
                }
                eff.push((
                    k,
                    counters.min(u32::from(u8::MAX)) as u8,
                    stun.min(u32::from(u8::MAX)) as u8,
                ));
            }
            // Force spent, by side of the attack (gains count negative).
            let spent = |x: usize| match after[x] {
                None => 0,
                Some(f) => i64::from(force[x]) - i64::from(f.saturating_sub(tally.spent[x])),
            };
            let mut by_player = [0i64; 2];
            by_player[pa.index()] = spent(0);
            by_player[pa.other().index()] = spent(1);
            let e = Effect {
                units: eff,
                spent: by_player,
            };
            *effects.entry(e).or_insert_with(BigInt::zero) += BigInt::from(w.to_big()) * &scale;
        }
        let law = Rc::new(Law {
            exp,
            outcomes: effects
                .into_iter()
                .map(|(e, w)| (e, Int::from_big(w)))
                .collect(),
        });
        self.attacks.insert(key, law.clone());
        Ok(law)
    }

    /// The law of the battle's end under the solved play, from `start`.
    fn forward(&mut self, start: &State) -> Result<Forward> {
        let b = self.battle;
        // Ordered by the number of units that have acted, which every
        // choice raises: a state is expanded once all its ways in are in.
        let mut frontier: BTreeMap<(u32, State, u32), Sixths> = BTreeMap::new();
        frontier.insert((b.progress(start), *start, 0), Sixths::int(1));
        let mut finals = Vec::new();
        let mut decisions = Vec::new();
        while let Some(((_, s, first), p)) = frontier.pop_first() {
            crate::cancel::check()?;
            let Some((player, _)) = b.turn(&s) else {
                finals.push((s, first, p));
                continue;
            };
            self.value(&s)?;
            let node = &self.memo[&s];
            let c = node.best.expect("a turn has a choice");
            let mine = node.value.unpack()[player.index()].clone();
            decisions.push((s, player, c, mine, p.clone()));
            let (exp, next) = self.next(&s, c)?;
            for (next, q) in next {
                let mut f = first;
                if f == 0 {
                    for k in 0..b.units.len() {
                        if b.alive(&s, k) && !b.alive(&next, k) {
                            f |= 1 << k;
                        }
                    }
                }
                frontier
                    .entry((b.progress(&next), next, f))
                    .or_insert_with(|| Sixths::int(0))
                    .add_product(&p, &q, exp);
            }
        }
        Ok(Forward { finals, decisions })
    }
}

/// One alternative of the first decision.
#[derive(Clone, Debug)]
pub struct FirstOption {
    /// The choice.
    pub choice: Choice,
    /// Its value for the player choosing.
    pub value: BigRational,
    /// Its value for each player, by [`Player::index`].
    pub values: [BigRational; 2],
}

/// The battle's first decision.
#[derive(Clone, Debug)]
pub struct FirstDecision {
    /// Who chooses.
    pub player: Player,
    /// The choice made.
    pub best: Choice,
    /// Every alternative with its value.
    pub options: Vec<FirstOption>,
}

/// The control of one arena at the end of the battle.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaControl {
    /// P(only the Dark Side has units there).
    pub dark: Fraction,
    /// P(only the Light Side has units there).
    pub light: Fraction,
    /// P(both have).
    pub contested: Fraction,
    /// P(neither has).
    pub empty: Fraction,
}

/// What happens to one unit.
#[derive(Clone, Debug, Serialize)]
pub struct UnitFate {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Player,
    /// Its arena.
    pub arena: Arena,
    /// P(it is in play when the battle ends).
    pub survives: Fraction,
    /// The expected counters on it at the end (a discarded unit counts its
    /// health).
    pub expected_counters: Fraction,
    /// P(it is discarded in the first attack that discards any unit).
    pub discarded_first: Fraction,
}

/// A solved battle.
#[derive(Clone, Debug)]
pub struct BattleReport {
    /// The battle.
    pub battle: Battle,
    /// The objective's value for each player, by [`Player::index`].
    pub value: [BigRational; 2],
    /// The first decision, unless no unit can attack.
    pub first: Option<FirstDecision>,
    /// The states estimated before the solve.
    pub estimate: u64,
    /// The states solved.
    pub states: u64,
    /// The distinct attacks solved.
    pub attacks_solved: u64,
    forward: Forward,
}

/// The JSON of a battle.
#[derive(Clone, Debug, Serialize)]
pub struct BattleJson {
    /// The objective both sides play for.
    pub objective: &'static str,
    /// Per arena with units: who controls it at the end.
    pub arenas: BTreeMap<&'static str, ArenaControl>,
    /// P(each side controls two or more of the arenas given).
    pub control_two: BTreeMap<&'static str, Fraction>,
    /// The objective's value for the Dark Side (which moves first on a
    /// tie).
    pub value: Fraction,
    /// The objective's value for each side.
    pub values: BTreeMap<&'static str, Fraction>,
    /// The first decision: each alternative and its value for the player
    /// choosing, the best first.
    pub first: Option<FirstJson>,
    /// Every unit's fate.
    pub units: Vec<UnitFate>,
    /// The Force of each side for the battle (`"unlimited"` or a number).
    pub force: BTreeMap<&'static str, String>,
    /// The states estimated before solving, and solved.
    pub states: StatesJson,
    /// The best choice in every state reached under the solved play (on
    /// request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<Vec<PolicyEntry>>,
    /// Keywords ignored.
    pub ignored: Vec<crate::scenario::Ignored>,
    /// Card conditions applied.
    pub applied: Vec<Applied>,
    /// Card conditions not switched on.
    pub waiting: Vec<crate::scenario::Waiting>,
}

/// The first decision, in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct FirstJson {
    /// Who chooses.
    pub player: Player,
    /// The choice made.
    pub best: String,
    /// Each alternative, the best first, then in the order considered.
    pub options: Vec<OptionJson>,
}

/// One alternative.
#[derive(Clone, Debug, Serialize)]
pub struct OptionJson {
    /// Its words.
    pub choice: String,
    /// Its value for the player choosing.
    pub value: Fraction,
    /// Its value for the other player.
    pub other: Fraction,
}

/// State counts.
#[derive(Clone, Debug, Serialize)]
pub struct StatesJson {
    /// The bound counted before the solve.
    pub estimate: u64,
    /// The states solved.
    pub solved: u64,
    /// The distinct attacks solved.
    pub attacks: u64,
}

/// One state of the policy.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyEntry {
    /// Counters on each unit in play (by name).
    pub counters: BTreeMap<String, u32>,
    /// Power lost to Stun, for units that lost any.
    pub stunned: BTreeMap<String, u32>,
    /// Units that have attacked or declined to.
    pub done: Vec<String>,
    /// Units discarded.
    pub discarded: Vec<String>,
    /// Force left to each side.
    pub force: BTreeMap<&'static str, String>,
    /// Who chooses.
    pub player: Player,
    /// The best choice.
    pub choice: String,
    /// The value for the player choosing.
    pub value: Fraction,
    /// P(the battle reaches this state).
    pub reached: Fraction,
}

fn force_words(f: [Option<u32>; 2]) -> BTreeMap<&'static str, String> {
    Player::BOTH
        .iter()
        .map(|p| {
            (
                p.word(),
                f[p.index()].map_or("unlimited".to_string(), |x| x.to_string()),
            )
        })
        .collect()
}

impl BattleReport {
    /// Who controls arena `a` at the end.
    pub fn arena(&self, a: Arena) -> ArenaControl {
        let b = &self.battle;
        let one = Int::ONE;
        let mut p: [Sixths; 4] = std::array::from_fn(|_| Sixths::int(0));
        for (s, _, q) in &self.forward.finals {
            let has = |pl: Player| {
                b.units
                    .iter()
                    .enumerate()
                    .any(|(k, u)| u.arena == a && u.player == pl && b.alive(s, k))
            };
            let i = match (has(Player::Dark), has(Player::Light)) {
                (true, false) => 0,
                (false, true) => 1,
                (true, true) => 2,
                (false, false) => 3,
            };
            p[i].add_product(q, &one, 0);
        }
        let [dark, light, contested, empty] = p.map(|x| Fraction(x.ratio()));
        ArenaControl {
            dark,
            light,
            contested,
            empty,
        }
    }

    /// P(each player controls two or more of the arenas given).
    pub fn control_two(&self) -> [BigRational; 2] {
        let b = &self.battle;
        let one = Int::ONE;
        let mut out = [Sixths::int(0), Sixths::int(0)];
        for (s, _, q) in &self.forward.finals {
            let mut held = [0; 2];
            for a in b.arenas() {
                if let Some(p) = b.controller(s, a) {
                    held[p.index()] += 1;
                }
            }
            for i in 0..2 {
                if held[i] >= 2 {
                    out[i].add_product(q, &one, 0);
                }
            }
        }
        out.map(|x| x.ratio())
    }

    /// Every unit's fate.
    pub fn units(&self) -> Vec<UnitFate> {
        let b = &self.battle;
        b.units
            .iter()
            .enumerate()
            .map(|(k, u)| {
                let one = Int::ONE;
                let [mut survives, mut counters, mut first] =
                    std::array::from_fn(|_| Sixths::int(0));
                for (s, f, q) in &self.forward.finals {
                    if b.alive(s, k) {
                        survives.add_product(q, &one, 0);
                    }
                    counters.add_product(q, &Int::small(i128::from(s.counters[k])), 0);
                    if f & (1 << k) != 0 {
                        first.add_product(q, &one, 0);
                    }
                }
                let [survives, counters, first] = [survives, counters, first].map(|x| x.ratio());
                UnitFate {
                    name: u.unit.name.clone(),
                    side: u.player,
                    arena: u.arena,
                    survives: Fraction(survives),
                    expected_counters: Fraction(counters),
                    discarded_first: Fraction(first),
                }
            })
            .collect()
    }

    /// The first decision in JSON: the best choice first.
    fn first_json(&self) -> Option<FirstJson> {
        let f = self.first.as_ref()?;
        let b = &self.battle;
        let mut options: Vec<&FirstOption> = f.options.iter().collect();
        options.sort_by_key(|o| o.choice != f.best);
        let other = f.player.other().index();
        Some(FirstJson {
            player: f.player,
            best: b.choice_words(f.best),
            options: options
                .into_iter()
                .map(|o| OptionJson {
                    choice: b.choice_words(o.choice),
                    value: Fraction(o.value.clone()),
                    other: Fraction(o.values[other].clone()),
                })
                .collect(),
        })
    }

    /// The best choice in every state reached under the solved play.
    pub fn policy(&self) -> Vec<PolicyEntry> {
        let b = &self.battle;
        self.forward
            .decisions
            .iter()
            .map(|(s, player, c, v, p)| {
                let name = |k: usize| b.units[k].unit.name.clone();
                let live = |k: &usize| b.alive(s, *k);
                let all = 0..b.units.len();
                PolicyEntry {
                    counters: all
                        .clone()
                        .filter(live)
                        .map(|k| (name(k), u32::from(s.counters[k])))
                        .collect(),
                    stunned: all
                        .clone()
                        .filter(|&k| live(&k) && s.stun[k] > 0)
                        .map(|k| (name(k), u32::from(s.stun[k])))
                        .collect(),
                    done: all
                        .clone()
                        .filter(|&k| live(&k) && s.done & (1 << k) != 0)
                        .map(name)
                        .collect(),
                    discarded: all.clone().filter(|k| !live(k)).map(name).collect(),
                    force: force_words(s.force.map(|f| (f != UNLIMITED).then_some(f))),
                    player: *player,
                    choice: b.choice_words(*c),
                    value: Fraction(v.ratio()),
                    reached: Fraction(p.ratio()),
                }
            })
            .collect()
    }

    /// The report as one JSON value (`policy`: with every state's choice).
    pub fn json(&self, policy: bool) -> BattleJson {
        let b = &self.battle;
        let two = self.control_two();
        BattleJson {
            objective: b.objective.word(),
            arenas: b
                .arenas()
                .into_iter()
                .map(|a| (a.name(), self.arena(a)))
                .collect(),
            control_two: Player::BOTH
                .iter()
                .map(|p| (p.word(), Fraction(two[p.index()].clone())))
                .collect(),
            value: Fraction(self.value[0].clone()),
            values: Player::BOTH
                .iter()
                .map(|p| (p.word(), Fraction(self.value[p.index()].clone())))
                .collect(),
            first: self.first_json(),
            units: self.units(),
            force: force_words(b.force),
            states: StatesJson {
                estimate: self.estimate,
                solved: self.states,
                attacks: self.attacks_solved,
            },
            policy: policy.then(|| self.policy()),
            ignored: b
                .ignored
                .iter()
                .map(|(unit, text)| crate::scenario::Ignored {
                    unit: unit.clone(),
                    text: text.clone(),
                })
                .collect(),
            applied: b.applied.clone(),
            waiting: b
                .waiting
                .iter()
                .map(|(card, text)| crate::scenario::Waiting {
                    card: card.clone(),
                    text: text.clone(),
                })
                .collect(),
        }
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let b = &self.battle;
        let pct = |r: &BigRational| format!("{:.2}%", 100.0 * crate::dist::to_f64(r));
        let mut out = String::new();
        let what = match b.objective {
            BattleObjective::Control => "P(it controls the arena), summed over the arenas",
            BattleObjective::ControlTwo => "P(it controls two arenas or more)",
            BattleObjective::DiscardDifference => "expected enemy units discarded minus its own",
        };
        let force = force_words(b.force);
        let _ = writeln!(
            out,
            "Battle: each side plays for {what} (objective {}); Force dark {}, light {}",
            b.objective.word(),
            force["dark"],
            force["light"]
        );
        let _ = writeln!(
            out,
            "Value: dark {} ({}), light {} ({})",
            fmt_value(&self.value[0]),
            crate::dist::fraction_string(&self.value[0]),
            fmt_value(&self.value[1]),
            crate::dist::fraction_string(&self.value[1])
        );
        if let Some(f) = self.first_json() {
            let _ = writeln!(out, "\nFirst decision ({}):", f.player.word());
            for (i, o) in f.options.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {}: {}{}",
                    o.choice,
                    fmt_value(&o.value),
                    if i == 0 { "  <- best" } else { "" }
                );
            }
        } else {
            let _ = writeln!(
                out,
                "\nNo unit can attack: no arena has units of both sides."
            );
        }
        let _ = writeln!(out, "\nArenas at the end of the battle:");
        for a in b.arenas() {
            let c = self.arena(a);
            let _ = writeln!(
                out,
                "  {:<9} dark controls {}, light controls {}, contested {}, empty {}",
                a.name(),
                pct(&c.dark),
                pct(&c.light),
                pct(&c.contested),
                pct(&c.empty)
            );
        }
        if b.arenas().len() > 1 {
            let two = self.control_two();
            let _ = writeln!(
                out,
                "  two arenas or more: dark {}, light {}",
                pct(&two[0]),
                pct(&two[1])
            );
        }
        let _ = writeln!(
            out,
            "\n  {:<28} {:<5} {:<9} {:>9} {:>9} {:>15}",
            "unit", "side", "arena", "survives", "E[ctrs]", "discarded first"
        );
        for u in self.units() {
            let _ = writeln!(
                out,
                "  {:<28} {:<5} {:<9} {:>9} {:>9.3} {:>15}",
                crate::error::quote(&u.name),
                u.side.word(),
                u.arena.name(),
                pct(&u.survives),
                u.expected_counters.to_f64(),
                pct(&u.discarded_first)
            );
        }
        let _ = writeln!(
            out,
            "\n{} states solved (estimated at most {}), {} distinct attacks.",
            self.states, self.estimate, self.attacks_solved
        );
        for (unit, text) in &b.ignored {
            let _ = writeln!(out, "ignored: {unit}: '{}'", quote(text));
        }
        for (card, text) in &b.waiting {
            let _ = writeln!(
                out,
                "not switched on: {card}: '{}' (switch it on with \"conditions\")",
                quote(text)
            );
        }
        out
    }
}

/// A value as a person reads it: a probability as a percentage is for
/// control; every objective's value as a decimal.
fn fmt_value(r: &BigRational) -> String {
    format!("{:.4}", crate::dist::to_f64(r))
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
