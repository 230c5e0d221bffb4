//! The `swtcg-odds` command line: a thin layer over the library.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;
use swtcg_odds::attack::{ATTACKER, Side, attack};
use swtcg_odds::cards::stack::Switches;
use swtcg_odds::cards::{Arena, CardDb};
use swtcg_odds::dist::{Dist, Num};
use swtcg_odds::error::{Error, Result, read_file};
use swtcg_odds::matchups::{docs_page, duel, matrix, render_csv, render_json, render_markdown};
use swtcg_odds::plan::Plan;
use swtcg_odds::plot::{Series, svg};
use swtcg_odds::policy::{Game, LuckyOrder, LuckyPolicy, Policy};
use swtcg_odds::report::{attack_json, attack_text};
use swtcg_odds::sample::{Model, Quantity, Variant};
use swtcg_odds::scenario::{Scenario, ScenarioReport};
use swtcg_odds::table::{Format, Grid, parse_range, parse_switch, render};
use swtcg_odds::unit::Unit;
use swtcg_odds::verify::{check, parse_counts};

/// Exact odds for Star Wars TCG attacks: no sampling, exact fractions.
#[derive(Parser, Debug)]
#[command(name = "swtcg-odds", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The exact outcome of one attack.
    Attack(AttackCmd),
    /// Expected damage and P(discard) over ranges of parameters (with no flags: a default table).
    Table(TableCmd),
    /// Solves a scenario file exactly: units in the cards' wording, every choice played.
    Scenario(ScenarioCmd),
    /// Checks a simulator's counts against the exact law (exit 0: consistent, 1: disagrees).
    Verify(VerifyCmd),
    /// A seeded, reproducible Monte Carlo sample of an attack, as counts.
    Sample(SampleCmd),
    /// Real cards from a LackeyCCG card database: find them, attack with them.
    Cards(CardsCmd),
    /// Matrices of expected damage and P(discard) between sets of cards, both directions.
    Matchups(MatchupsCmd),
    /// A battle plan: several attacks in order against one defender, exactly.
    Plan(PlanCmd),
}

/// Writes an SVG picture, if asked to.
fn write_plot(path: &Option<String>, title: &str, series: &[Series]) -> Result<()> {
    if let Some(p) = path {
        std::fs::write(p, svg(title, "damage k", series))
            .map_err(|e| Error::input(format!("--plot {p}: cannot write: {e}")))?;
    }
    Ok(())
}

/// The curves of a solved scenario: damage to every unit that took some.
fn scenario_series(r: &ScenarioReport) -> Vec<Series> {
    r.scenario
        .game
        .units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| {
            let d = r.damage(i);
            (d.max() > 0).then(|| Series::at_least(&format!("damage to {}", u.name), &d))
        })
        .collect()
}

#[derive(Args, Debug)]
struct CardsCmd {
    #[command(flatten)]
    db: DbArgs,
    #[command(subcommand)]
    action: CardsAction,
}

/// Where the cards come from.
#[derive(Args, Debug)]
struct DbArgs {
    /// A LackeyCCG set file, or a folder of them (the plugin's `sets/`
    /// folder); may be repeated.
    #[arg(long, value_name = "PATH", required = true)]
    db: Vec<String>,
    /// Two names of the same unit (the rules' "Different Versions with
    /// Different Names"), for stacks: NAME=NAME; may be repeated.
    #[arg(long, value_name = "A=B")]
    same_unit: Vec<String>,
    /// A file of such pairs, one NAME=NAME per line.
    #[arg(long, value_name = "FILE")]
    same_units: Option<String>,
}

impl DbArgs {
    fn load(&self) -> Result<CardDb> {
        let mut db = CardDb::load(&self.db)?;
        for s in &self.same_unit {
            db.same.add_text(s, "--same-unit")?;
        }
        if let Some(f) = &self.same_units {
            db.same.add_text(&read_file(f)?, f)?;
        }
        Ok(db)
    }
}

#[derive(Subcommand, Debug)]
enum CardsAction {
    /// Cards whose name, set, type or text contains TEXT, with what their text says.
    Find {
        /// Text to look for.
        text: String,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// One card (or stack "Top + Beneath + ...", or "Unit with Pilot") attacking another, solved exactly.
    Attack(CardAttackCmd),
    /// How much of the database is read: per set, rows, units, skipped rows, abilities by class.
    Check {
        /// Every unit with its abilities, and every skipped row, as JSON.
        #[arg(long)]
        json: bool,
        /// How many of the most frequent not-understood texts to list.
        #[arg(long, default_value_t = 20)]
        top: usize,
    },
}

#[derive(Args, Debug)]
struct CardAttackCmd {
    /// The attacking card: "Name", "Name@SET", "Name[power=N,health=N]", a stack "Top + Beneath + ...", or "Unit with Pilot".
    attacker: String,
    /// The defending card, or a stack.
    defender: String,
    /// Switch on a conditional ability the cards cannot decide: text it contains, or a:N / d:N (the attacker's or defender's Nth ability, as `cards find` numbers them).
    #[arg(long, value_name = "C")]
    condition: Vec<String>,
    /// The arena of the attack (by default the first the two cards share).
    #[arg(long, value_name = "ARENA")]
    arena: Option<String>,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    /// Also draw the exact P(damage >= k) curves to this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Args, Debug)]
struct MatchupsCmd {
    #[command(flatten)]
    db: DbArgs,
    /// Attacking cards: all, name:TEXT, set:CODE, type:TYPE, or a name fragment (comma-separated).
    #[arg(long, default_value = "all")]
    attackers: String,
    /// Defending cards, selected the same way.
    #[arg(long, default_value = "all")]
    defenders: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    format: FormatArg,
    /// Write the documentation page of every unit against every other instead (md only).
    #[arg(long)]
    page: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Args, Debug)]
struct VerifyCmd {
    /// The simulator's counts: a JSON object mapping outcome to count.
    #[arg(long, value_name = "FILE")]
    counts: String,
    /// What was counted: hits, defender_damage, attacker_damage (or damage:<unit> with --scenario).
    #[arg(long, default_value = "defender_damage")]
    quantity: String,
    /// Significance level of the verdict.
    #[arg(long, default_value_t = 0.001)]
    alpha: f64,
    /// The attack is this scenario file (instead of attack flags).
    #[arg(long, value_name = "FILE")]
    scenario: Option<String>,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    units: AttackArgs,
}

#[derive(Args, Debug)]
struct SampleCmd {
    /// Number of simulated attacks.
    #[arg(long, value_name = "N")]
    trials: u64,
    /// Seed of the generator (the same seed gives the same counts).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// What to count: hits, defender_damage, attacker_damage.
    #[arg(long, default_value = "defender_damage")]
    quantity: String,
    /// A deliberately wrong rule, to test a checker: crit-per-six, parry-on-two, fury-on-reroll, armor-ignored.
    #[arg(long, value_name = "V")]
    variant: Option<String>,
    #[command(flatten)]
    units: AttackArgs,
}

/// Most trials one `sample` run may simulate.
const MAX_TRIALS: u64 = 100_000_000;

/// The exact law of `quantity` for the attack given by a scenario file or
/// by attack flags.
fn exact_law(scenario: &Option<String>, units: &AttackArgs, quantity: &str) -> Result<Dist<Num>> {
    let report = match scenario {
        Some(path) => Some(Scenario::from_file(path)?.solve()?),
        None if units.has_choices() => Some(Scenario::new(units.game()?).solve()?),
        None => None,
    };
    match report {
        Some(r) => {
            let defending = r.outcome.declared.defending;
            match quantity {
                "hits" => Ok(r.hits()),
                "defender_damage" => Ok(r.damage(defending)),
                "attacker_damage" => Ok(r.damage(ATTACKER)),
                q => match q.strip_prefix("damage:") {
                    Some(name) => {
                        let i = r
                            .scenario
                            .game
                            .units
                            .iter()
                            .position(|u| u.name == name)
                            .ok_or_else(|| {
                                Error::input(format!("--quantity: no unit named '{name}'"))
                            })?;
                        Ok(r.damage(i))
                    }
                    None => Err(Error::input(format!(
                        "--quantity: '{q}' is not one of hits, defender_damage, attacker_damage, damage:<unit>"
                    ))),
                },
            }
        }
        None => {
            let (a, d) = units.units()?;
            let o = attack(&a, &d)?;
            Ok(match Quantity::parse(quantity)? {
                Quantity::Hits => o.hits,
                Quantity::DefenderDamage => o.defender_damage,
                Quantity::AttackerDamage => o.attacker_damage,
            })
        }
    }
}

#[derive(Args, Debug)]
struct ScenarioCmd {
    /// The scenario file (JSON).
    file: String,
    /// One JSON object, every probability a reduced fraction "num/den".
    #[arg(long)]
    json: bool,
    /// Also draw the exact P(damage >= k) curves to this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
}

#[derive(Args, Debug)]
struct PlanCmd {
    /// The plan file (JSON): a defender, attackers, the order of their attacks.
    file: String,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    /// Also draw P(total damage >= k) after each step to this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
}

/// The two units of one attack, as flags.
#[derive(Args, Debug, Clone)]
struct AttackArgs {
    /// Attacker's power (attack dice).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    power: Option<u32>,
    /// Attacker's Accuracy (may be negative).
    #[arg(
        long,
        value_name = "A",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    accuracy: i32,
    /// Attacker's Fury X.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    fury: u32,
    /// Attacker's Critical Hit X.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    crit: u32,
    /// Attacker has Ferocity.
    #[arg(long)]
    ferocity: bool,
    /// Attacker's Stun X.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    stun: u32,
    /// Defender has Armor.
    #[arg(long)]
    armor: bool,
    /// Defender's Shields X.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    shields: u32,
    /// Defender's Parry X.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    parry: u32,
    /// Defender's Evade X.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    evade: u32,
    /// Defender's Deflect X (deflected damage goes to the attacker).
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    deflect: u32,
    /// Defender's Retaliate X (dice of damage to the attacker).
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    retaliate: u32,
    /// Defender has Fortitude.
    #[arg(long)]
    fortitude: bool,
    /// Defender has Ferocity (its deflected and Retaliate damage can't be prevented).
    #[arg(long)]
    defender_ferocity: bool,
    /// Defender's health.
    #[arg(long, value_name = "H", allow_negative_numbers = true)]
    health: Option<i64>,
    /// Damage counters already on the defender.
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    counters: u32,
    /// Defender's Stun X (lands when it damages the attacker).
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    defender_stun: u32,
    /// Attacker's health.
    #[arg(long, value_name = "H", allow_negative_numbers = true)]
    attacker_health: Option<i64>,
    /// Damage counters already on the attacker.
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    attacker_counters: u32,
    /// Attacker has Armor (Retaliate dice need 5+).
    #[arg(long)]
    attacker_armor: bool,
    /// Attacker's Evade X (against deflected and Retaliate damage).
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    attacker_evade: u32,
    /// Attacker's Deflect X (against deflected and Retaliate damage).
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    attacker_deflect: u32,
    /// Attacker has Fortitude.
    #[arg(long)]
    attacker_fortitude: bool,
    /// Attacker's Lucky X (re-rolls up to X of its dice).
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    lucky: Option<u32>,
    /// Defender's Lucky X (forces up to X attack dice to be re-rolled).
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    defender_lucky: Option<u32>,
    /// Attacker has Overkill (excess hits may go to the other unit, see --other-health).
    #[arg(long)]
    overkill: bool,
    /// Adds a third unit on the defender's side, with this health (a target for Overkill and Deflect).
    #[arg(long, value_name = "H", allow_negative_numbers = true)]
    other_health: Option<i64>,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// How choices are played: the words of a scenario file's policy.
#[derive(Args, Debug, Clone)]
struct PolicyArgs {
    /// How Lucky is played.
    #[arg(long, value_parser = ["optimal", "simple"])]
    lucky_policy: Option<String>,
    /// How the two sides' Lucky take turns: `pop` (the rules' re-roll POP, the attacker's
    /// player first; the default), `pop-defender-first`, or the fixed orders `attacker-first`
    /// and `defender-first` (the web calculator's).
    #[arg(long, value_parser = ["pop", "pop-defender-first", "attacker-first", "defender-first"])]
    lucky_order: Option<String>,
    /// What the attacker maximises and the defender minimises (choices are then played exactly).
    #[arg(long, value_parser = ["damage", "discard", "net"])]
    objective: Option<String>,
    /// Force the attacking side may spend in the attack (unlimited if not given; required for
    /// costs of X).
    #[arg(long, value_name = "N")]
    force_attacker: Option<u32>,
    /// Force the defending side may spend in the attack (unlimited if not given; required for
    /// costs of X).
    #[arg(long, value_name = "N")]
    force_defender: Option<u32>,
}

impl PolicyArgs {
    fn any(&self) -> bool {
        self.lucky_policy.is_some()
            || self.lucky_order.is_some()
            || self.objective.is_some()
            || self.force_attacker.is_some()
            || self.force_defender.is_some()
    }

    /// The policy, read as a scenario file's words are.
    fn policy(&self) -> Result<Policy> {
        Policy::from_words(
            self.objective.as_deref(),
            self.lucky_policy.as_deref(),
            self.lucky_order.as_deref(),
        )
    }
}

impl AttackArgs {
    fn units(&self) -> Result<(Unit, Unit)> {
        let health = |flag: &str, h: Option<i64>| -> Result<Option<u32>> {
            match h {
                Some(h) if h < 1 => Err(Error::input(format!(
                    "{flag} {h}: health must be at least 1"
                ))),
                Some(h) => u32::try_from(h)
                    .map(Some)
                    .map_err(|_| Error::input(format!("{flag} {h}: health is above the limit"))),
                None => Ok(None),
            }
        };
        let power = self
            .power
            .ok_or_else(|| Error::input("the attacker's --power is required"))?;
        let mut a = Unit::new("attacker", power);
        a.health = health("--attacker-health", self.attacker_health)?;
        a.counters = self.attacker_counters;
        let k = &mut a.keywords;
        k.accuracy = self.accuracy;
        k.fury = self.fury;
        k.crit = self.crit;
        k.ferocity = self.ferocity;
        k.stun = self.stun;
        k.armor = self.attacker_armor;
        k.evade = self.attacker_evade;
        k.deflect = self.attacker_deflect;
        k.fortitude = self.attacker_fortitude;
        k.lucky = self.lucky.unwrap_or(0);
        k.overkill = self.overkill;
        let mut d = Unit::new("defender", 0);
        d.health = health("--health", self.health)?;
        d.counters = self.counters;
        let k = &mut d.keywords;
        k.armor = self.armor;
        k.shields = self.shields;
        k.parry = self.parry;
        k.evade = self.evade;
        k.deflect = self.deflect;
        if self.retaliate > 0 {
            k.retaliates = vec![swtcg_odds::unit::Paid::free(self.retaliate)];
        }
        k.fortitude = self.fortitude;
        k.ferocity = self.defender_ferocity;
        k.stun = self.defender_stun;
        k.lucky = self.defender_lucky.unwrap_or(0);
        for (flag, unit) in [("--counters", &d), ("--attacker-counters", &a)] {
            if unit.health.is_none() && unit.counters > 0 {
                return Err(Error::input(format!(
                    "{flag} needs the unit's health ({})",
                    if flag == "--counters" {
                        "--health"
                    } else {
                        "--attacker-health"
                    }
                )));
            }
        }
        a.validate()?;
        d.validate()?;
        Ok((a, d))
    }

    /// Whether the attack involves choices (then it is solved as a game).
    fn has_choices(&self) -> bool {
        self.lucky.is_some()
            || self.defender_lucky.is_some()
            || self.overkill
            || self.other_health.is_some()
            || self.policy.any()
    }

    /// The attack as a game: the two units (and the other unit, if any),
    /// with the policy flags.
    fn game(&self) -> Result<Game> {
        let (a, d) = self.units()?;
        let mut units = vec![a, d];
        let mut sides = vec![Side::Attacking, Side::Defending];
        if let Some(h) = self.other_health {
            if h < 1 {
                return Err(Error::input(format!(
                    "--other-health {h}: health must be at least 1"
                )));
            }
            let mut o = Unit::new("other", 0);
            o.health = Some(u32::try_from(h).unwrap_or(u32::MAX));
            o.validate()?;
            units.push(o);
            sides.push(Side::Defending);
        }
        let policy = self.policy.policy()?;
        Ok(Game {
            units,
            sides,
            policy,
            force: [self.policy.force_attacker, self.policy.force_defender],
        })
    }
}

#[derive(Args, Debug)]
struct AttackCmd {
    #[command(flatten)]
    units: AttackArgs,
    /// One JSON object, every probability a reduced fraction "num/den".
    #[arg(long)]
    json: bool,
    /// Also draw the exact P(damage >= k) curves to this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    Md,
    Csv,
    Json,
}

/// Each flag takes N, A..B (inclusive) or a comma list; on/off flags take on, off or both.
#[derive(Args, Debug)]
struct TableCmd {
    /// Attacker's power.
    #[arg(long, value_name = "RANGE")]
    power: Option<String>,
    /// Attacker's Accuracy.
    #[arg(long, value_name = "RANGE", allow_hyphen_values = true)]
    accuracy: Option<String>,
    /// Defender's Armor: on, off or both.
    #[arg(long, value_name = "SWITCH")]
    armor: Option<String>,
    /// Defender's Shields.
    #[arg(long, value_name = "RANGE")]
    shields: Option<String>,
    /// Attacker's Fury.
    #[arg(long, value_name = "RANGE")]
    fury: Option<String>,
    /// Attacker's Critical Hit.
    #[arg(long, value_name = "RANGE")]
    crit: Option<String>,
    /// Defender's Parry.
    #[arg(long, value_name = "RANGE")]
    parry: Option<String>,
    /// Defender's Evade.
    #[arg(long, value_name = "RANGE")]
    evade: Option<String>,
    /// Defender's Deflect.
    #[arg(long, value_name = "RANGE")]
    deflect: Option<String>,
    /// Defender's health (adds P(discard)).
    #[arg(long, value_name = "RANGE")]
    health: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    format: FormatArg,
}

impl TableCmd {
    fn grid(&self) -> Result<Grid> {
        let all = [
            &self.power,
            &self.accuracy,
            &self.armor,
            &self.shields,
            &self.fury,
            &self.crit,
            &self.parry,
            &self.evade,
            &self.deflect,
            &self.health,
        ];
        if all.iter().all(|o| o.is_none()) {
            return Ok(Grid::newcomer());
        }
        let mut g = Grid::default();
        fn set<T: TryFrom<i64>>(dst: &mut Vec<T>, flag: &str, v: &Option<String>) -> Result<()> {
            if let Some(text) = v {
                *dst = parse_range(flag, text)?;
            }
            Ok(())
        }
        set(&mut g.power, "--power", &self.power)?;
        set(&mut g.accuracy, "--accuracy", &self.accuracy)?;
        set(&mut g.shields, "--shields", &self.shields)?;
        set(&mut g.fury, "--fury", &self.fury)?;
        set(&mut g.crit, "--crit", &self.crit)?;
        set(&mut g.parry, "--parry", &self.parry)?;
        set(&mut g.evade, "--evade", &self.evade)?;
        set(&mut g.deflect, "--deflect", &self.deflect)?;
        if let Some(text) = &self.armor {
            g.armor = parse_switch("--armor", text)?;
        }
        if let Some(text) = &self.health {
            g.health = parse_range::<u32>("--health", text)?
                .into_iter()
                .map(Some)
                .collect();
        }
        Ok(g)
    }
}

/// `cards find`, `cards attack` and `cards check`.
fn cards(cmd: &CardsCmd) -> Result<String> {
    let db = cmd.db.load()?;
    match &cmd.action {
        CardsAction::Find { text, json } => {
            let found = db.find(text);
            if *json {
                return Ok(serde_json::to_string_pretty(&found).expect("plain JSON") + "\n");
            }
            let mut out = String::new();
            for c in &found {
                out.push_str(&c.to_text());
            }
            out.push_str(&format!("{} card(s) found", found.len()));
            out.push('\n');
            Ok(out)
        }
        CardsAction::Check { json, top } => {
            let report = swtcg_odds::cards::check::check(&db);
            Ok(if *json {
                serde_json::to_string_pretty(&report).expect("plain JSON") + "\n"
            } else {
                report.to_text(*top)
            })
        }
        CardsAction::Attack(a) => {
            let attacker = db.piece(&a.attacker)?;
            let defender = db.piece(&a.defender)?;
            let switches = Switches::parse(&a.condition)?;
            let arena = match &a.arena {
                Some(w) => Some(Arena::from_word(w).ok_or_else(|| {
                    Error::input(format!("--arena '{w}': not Space, Ground or Character"))
                })?),
                None => None,
            };
            let scenario = duel(&attacker, &defender, &switches, arena, &a.policy.policy()?)?;
            let report = scenario.solve()?;
            write_plot(
                &a.plot,
                &format!("{} attacks {}", attacker.name(), defender.name()),
                &scenario_series(&report),
            )?;
            Ok(if a.json {
                serde_json::to_string_pretty(&report.to_json()).expect("plain JSON") + "\n"
            } else {
                report.to_text()
            })
        }
    }
}

/// `matchups`.
fn matchups(cmd: &MatchupsCmd) -> Result<String> {
    let db = cmd.db.load()?;
    if cmd.page {
        return docs_page(&db, &cmd.db.db.join(" "));
    }
    let attackers = db.select(&cmd.attackers)?;
    let defenders = db.select(&cmd.defenders)?;
    let policy = cmd.policy.policy()?;
    let forward = matrix(&attackers, &defenders, &policy)?;
    let same = cmd.attackers == cmd.defenders;
    let backward = if same {
        None
    } else {
        Some(matrix(&defenders, &attackers, &policy)?)
    };
    Ok(match cmd.format {
        FormatArg::Md => render_markdown(&forward, backward.as_ref()),
        FormatArg::Csv => render_csv(&forward, backward.as_ref()),
        FormatArg::Json => {
            serde_json::to_string_pretty(&render_json(&forward, backward.as_ref()))
                .expect("plain JSON")
                + "\n"
        }
    })
}

/// `sample`: the die-level simulator's counts, as JSON.
fn sample(cmd: &SampleCmd) -> Result<String> {
    let u = &cmd.units;
    if u.overkill || u.other_health.is_some() || u.policy.objective.is_some() {
        return Err(Error::input(
            "sample plays the static attack with simple Lucky: --overkill, --other-health and --objective are not simulated",
        ));
    }
    let lucky = u.lucky.is_some() || u.defender_lucky.is_some();
    if lucky && u.policy.policy()?.lucky != LuckyPolicy::Simple {
        return Err(Error::input(
            "sample plays simple Lucky only: add --lucky-policy simple (so that verify compares like with like)",
        ));
    }
    if lucky && (u.deflect > 0 || u.attacker_deflect > 0) {
        return Err(Error::input(
            "sample: with Lucky the exact model plays Deflect optimally, which the sampler does not; drop --deflect / --attacker-deflect",
        ));
    }
    if cmd.trials == 0 || cmd.trials > MAX_TRIALS {
        return Err(Error::input(format!(
            "--trials {}: must be between 1 and {MAX_TRIALS}",
            cmd.trials
        )));
    }
    let quantity = Quantity::parse(&cmd.quantity)?;
    let (a, d) = u.units()?;
    let mut model = Model::new(a, d);
    model.attacker_first =
        u.policy.policy()?.lucky_order.played(LuckyPolicy::Simple) == LuckyOrder::AttackerFirst;
    model.variant = cmd.variant.as_deref().map(Variant::parse).transpose()?;
    let counts = model.sample(quantity, cmd.trials, cmd.seed);
    let obj: serde_json::Map<String, serde_json::Value> = counts
        .into_iter()
        .map(|(k, c)| (k.to_string(), c.into()))
        .collect();
    Ok(serde_json::to_string(&obj).expect("plain JSON") + "\n")
}

/// What a command prints, and its exit status (0, or 1 when `verify` finds
/// the simulator wrong).
struct Output {
    text: String,
    status: u8,
}

impl From<String> for Output {
    fn from(text: String) -> Output {
        Output { text, status: 0 }
    }
}

fn run(cli: Cli) -> Result<Output> {
    run_command(cli).map(Output::from).or_else(|e| match e {
        Failure::Disagrees(text) => Ok(Output { text, status: 1 }),
        Failure::Error(e) => Err(e),
    })
}

/// Why a command did not succeed.
enum Failure {
    /// Bad input (exit status 2).
    Error(Error),
    /// The report of a verification that failed (exit status 1).
    Disagrees(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Error(e)
    }
}

fn run_command(cli: Cli) -> std::result::Result<String, Failure> {
    match cli.command {
        Command::Attack(cmd) if cmd.units.has_choices() => {
            let scenario = Scenario::new(cmd.units.game()?);
            let report = scenario.solve()?;
            write_plot(&cmd.plot, "Attack", &scenario_series(&report))?;
            Ok(if cmd.json {
                serde_json::to_string_pretty(&report.to_json()).expect("plain JSON") + "\n"
            } else {
                report.to_text()
            })
        }
        Command::Verify(cmd) => {
            let text = read_file(&cmd.counts).map_err(|e| e.about("--counts"))?;
            let counts = parse_counts(&text).map_err(|e| e.about(&cmd.counts))?;
            let exact = exact_law(&cmd.scenario, &cmd.units, &cmd.quantity)?;
            let v = check(&exact, &counts, cmd.alpha)?;
            let text = if cmd.json {
                serde_json::to_string_pretty(&v.to_json(&cmd.quantity)).expect("plain JSON") + "\n"
            } else {
                v.to_text(&cmd.quantity)
            };
            if v.consistent() {
                Ok(text)
            } else {
                Err(Failure::Disagrees(text))
            }
        }
        Command::Sample(cmd) => Ok(sample(&cmd)?),
        Command::Cards(cmd) => Ok(cards(&cmd)?),
        Command::Matchups(cmd) => Ok(matchups(&cmd)?),
        Command::Plan(cmd) => {
            let report = Plan::from_file(&cmd.file)?.solve()?;
            let series: Vec<Series> = report
                .steps
                .iter()
                .enumerate()
                .map(|(k, st)| {
                    Series::at_least(
                        &format!("after step {} ({})", k + 1, st.attacker),
                        &st.total_so_far,
                    )
                })
                .collect();
            write_plot(
                &cmd.plot,
                &format!("Plan against {}", report.plan.defender.name),
                &series,
            )?;
            Ok(if cmd.json {
                serde_json::to_string_pretty(&report.to_json()).expect("plain JSON") + "\n"
            } else {
                report.to_text()
            })
        }
        Command::Scenario(cmd) => {
            let report = Scenario::from_file(&cmd.file)?.solve()?;
            write_plot(&cmd.plot, &cmd.file, &scenario_series(&report))?;
            Ok(if cmd.json {
                serde_json::to_string_pretty(&report.to_json()).expect("plain JSON") + "\n"
            } else {
                report.to_text()
            })
        }
        Command::Attack(cmd) => {
            let (a, d) = cmd.units.units()?;
            let out = attack(&a, &d)?;
            let mut series = vec![Series::at_least(
                "damage to the defender",
                &out.defender_damage,
            )];
            if out.attacker_damage.max() > 0 {
                series.push(Series::at_least(
                    "damage to the attacker",
                    &out.attacker_damage,
                ));
            }
            write_plot(&cmd.plot, "Attack", &series)?;
            Ok(if cmd.json {
                serde_json::to_string_pretty(&attack_json(&out)).expect("plain JSON") + "\n"
            } else {
                attack_text(&out)
            })
        }
        Command::Table(cmd) => {
            let rows = cmd.grid()?.rows()?;
            let format = match cmd.format {
                FormatArg::Md => Format::Markdown,
                FormatArg::Csv => Format::Csv,
                FormatArg::Json => Format::Json,
            };
            Ok(render(&rows, format))
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // One line: clap's first paragraph says what is wrong.
            let text = e.render().to_string();
            let first = text.split("\n\n").next().unwrap_or("error: bad arguments");
            let line: Vec<&str> = first.lines().map(str::trim).collect();
            eprintln!("{} (see --help)", line.join(" "));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(out) => {
            print!("{}", out.text);
            ExitCode::from(out.status)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
