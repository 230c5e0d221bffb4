//! The command line, as a library module: clap's definitions, each flag
//! documented where it is defined (flags shared by several commands live in
//! flattened structs), and one `run` per command over the library. The
//! binary only calls [`main`]; tests and the fuzz harness call [`run_args`]
//! in-process.
//!
//! ```
//! let out = swtcg_odds::cli::run_args(["swtcg-odds", "attack", "--power", "2", "--json"]);
//! assert_eq!(out.status, 0);
//! let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
//! assert_eq!(v["defender_damage"]["mean"], "1/1");
//! ```

use crate::plot::{Series, svg};
use crate::writers::{
    ListingWriter, PageHeader, markdown_header, markdown_row, matchup_cells, matchups_table,
    rankings_markdown, write_docs_page,
};
use clap::{Arg, ArgMatches, Args, Parser, Subcommand};
use swtcg_cards::cards::CardDb;
use swtcg_cards::cards::stack::Switches;
use swtcg_cards::matchups::{
    DEFAULT_TIME_LIMIT, MatchupRow, Options as MatchupOptions, RowRef, SortBy, Summary, count,
    duel, field_line, rank, stream_rows,
};
use swtcg_engine::attack::Objective;
use swtcg_engine::error::{Error, ErrorKind, Result};
use swtcg_engine::input::read_file;
use swtcg_engine::policy::{ForceBudget, LuckyOrder, LuckyPolicy, Policy};
use swtcg_engine::report::to_json_text;
use swtcg_engine::request::{AttackAnswer, AttackRequest, PolicyRequest, Words};
use swtcg_engine::request::{Format, Param, ValueKind, parse_values};
use swtcg_engine::sample::{Model, Quantity, Variant};
use swtcg_engine::scenario::ScenarioReport;
use swtcg_engine::table::{Grid, pivot};
use swtcg_engine::unit::Arena;
use swtcg_engine::verify::check;

/// The value parser of a choice typed as a word ([`Words`]): its words are
/// the possible values clap lists and suggests.
fn words<T: Words + Clone + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(T::all_words())
        .map(|w| T::from_word(&w).expect("a possible value is a word"))
}
/// A Force budget as typed: a whole number or `unlimited`.
fn force_budget(w: &str) -> std::result::Result<ForceBudget, String> {
    ForceBudget::from_word(w)
        .ok_or_else(|| format!("'{w}' is not a whole number from 0 or unlimited"))
}
use std::ffi::OsString;
use std::io::Write;

mod counts;
mod deferred;
mod refusal;
mod terminal;
pub use counts::parse_counts;
use deferred::Deferred;
use refusal::refused;
use terminal::Progress;
pub use terminal::terminal_safe;

/// Exact odds for Star Wars TCG attacks: no sampling, exact fractions.
#[derive(Parser, Debug)]
#[command(name = "swtcg-odds", version, about)]
pub struct Cli {
    #[command(flatten)]
    db: DbArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The exact outcome of one attack.
    Attack(Deferred<AttackCmd>),
    /// Expected damage and P(discard) over ranges of parameters (with no flags: a default table).
    Table(Deferred<TableCmd>),
    /// Solves a scenario file exactly: units in the cards' wording, every choice played.
    #[command(after_help = SCENARIO_HELP)]
    Scenario(Deferred<ScenarioCmd>),
    /// Checks a simulator's counts against the exact law (exit 0: consistent, 1: disagrees).
    Verify(Deferred<VerifyCmd>),
    /// A seeded, reproducible Monte Carlo sample of an attack, as counts.
    Sample(Deferred<SampleCmd>),
    /// Real cards from LackeyCCG set files: find them, check them, attack with them.
    Cards(Deferred<CardsCmd>),
    /// Expected damage and P(discard) between sets of cards, both directions.
    Matchups(Deferred<MatchupsCmd>),
    /// A battle plan: several attacks in order against one defender, exactly.
    #[command(after_help = PLAN_HELP)]
    Plan(Deferred<PlanCmd>),
    /// The battle phase, exactly: who controls each arena once every unit has attacked.
    #[command(after_help = BATTLE_HELP)]
    Battle(Deferred<BattleCmd>),
    /// The web calculator: serves a page and its JSON API (see the README).
    Serve(Deferred<ServeCmd>),
}

#[derive(Args, Debug)]
struct ServeCmd {
    #[command(flatten)]
    server: crate::web::ServeOptions,
}

/// The units' numbers and keywords: one flag per [`Param`] (`--power 5`,
/// `--armor`, `--armor off`), each taking one value. Switches take `on` or
/// `off`, `on` when the value is left out.
#[derive(Debug, Clone, Default)]
pub struct UnitFlags {
    given: Vec<(Param, String)>,
}

/// The same flags taking ranges (`--power 1..10`, `--crit 0,2`, `--armor
/// both`), for tables.
#[derive(Debug, Clone, Default)]
pub struct RangeFlags {
    given: Vec<(Param, String)>,
}

fn param_args(cmd: clap::Command, ranges: bool) -> clap::Command {
    let mut cmd = cmd;
    for p in Param::ALL {
        let mut arg = Arg::new(p.name())
            .long(p.name())
            .help(p.doc())
            // Numbers may be negative (and then get a clear error); on/off
            // values never start with a hyphen, so `--armor --json` works.
            .allow_hyphen_values(p.kind() != ValueKind::Switch)
            .help_heading(if ranges {
                "Parameters (N, A..B or a comma list)"
            } else {
                "Units"
            });
        if let Some(a) = p.alias() {
            arg = arg.alias(a);
        }
        arg = match p.kind() {
            ValueKind::Switch => arg
                .num_args(0..=1)
                .default_missing_value("on")
                .value_name(if ranges { "on|off|both" } else { "on|off" }),
            ValueKind::Health => arg.value_name(if ranges { "RANGE" } else { "H" }),
            _ => arg.value_name(if ranges { "RANGE" } else { "X" }),
        };
        cmd = cmd.arg(arg);
    }
    cmd
}

fn param_values(m: &ArgMatches) -> Vec<(Param, String)> {
    Param::ALL
        .iter()
        .filter_map(|p| m.get_one::<String>(p.name()).map(|v| (*p, v.clone())))
        .collect()
}

macro_rules! param_flags {
    ($t:ident, $ranges:expr) => {
        impl clap::FromArgMatches for $t {
            fn from_arg_matches(m: &ArgMatches) -> std::result::Result<Self, clap::Error> {
                Ok($t {
                    given: param_values(m),
                })
            }
            fn update_from_arg_matches(
                &mut self,
                m: &ArgMatches,
            ) -> std::result::Result<(), clap::Error> {
                self.given = param_values(m);
                Ok(())
            }
        }
        impl Args for $t {
            fn augment_args(cmd: clap::Command) -> clap::Command {
                param_args(cmd, $ranges)
            }
            fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
                param_args(cmd, $ranges)
            }
        }
    };
}
param_flags!(UnitFlags, false);
param_flags!(RangeFlags, true);

impl UnitFlags {
    /// The values given, read.
    fn values(&self) -> Result<Vec<(Param, i64)>> {
        self.given
            .iter()
            .map(|(p, t)| Ok((*p, p.value(t)?)))
            .collect()
    }

    /// The attack in words, for titles: what was given.
    fn describe(&self) -> String {
        let words: Vec<String> = self
            .given
            .iter()
            .map(|(p, t)| match p.kind() {
                ValueKind::Switch if t == "on" => p.name().to_string(),
                _ => format!("{} {t}", p.name()),
            })
            .collect();
        format!("Attack: {}", words.join(", "))
    }
}

/// How choices are played: the words of a scenario file's policy, and the
/// Force budgets.
#[derive(Args, Debug, Clone, Default)]
struct PolicyArgs {
    /// How Lucky is played: `optimal` (both sides solved exactly) or `simple` (the web
    /// calculator's).
    #[arg(long, value_parser = words::<LuckyPolicy>())]
    lucky_policy: Option<LuckyPolicy>,
    /// How the two sides' Lucky take turns: `pop` (the rules' re-roll POP, the attacker's
    /// player first; the default), `pop-defender-first`, or the fixed orders `attacker-first`
    /// and `defender-first` (the web calculator's).
    #[arg(long, value_parser = words::<LuckyOrder>())]
    lucky_order: Option<LuckyOrder>,
    /// What the attacker maximises and the defender minimises (choices are then played exactly).
    #[arg(long, value_parser = words::<Objective>())]
    objective: Option<Objective>,
    /// Force the attacking side may spend in the attack, fixed costs and costs of X alike: a
    /// number or `unlimited` (default 4, a turn's income).
    #[arg(long, value_name = "N|unlimited", value_parser = force_budget)]
    force_attacker: Option<ForceBudget>,
    /// Force the defending side may spend in the attack, fixed costs and costs of X alike: a
    /// number or `unlimited` (default 4, a turn's income).
    #[arg(long, value_name = "N|unlimited", value_parser = force_budget)]
    force_defender: Option<ForceBudget>,
}

impl PolicyArgs {
    fn any(&self) -> bool {
        self.request().any()
    }

    /// The typed policy these flags ask for.
    fn request(&self) -> PolicyRequest {
        PolicyRequest {
            lucky: self.lucky_policy,
            lucky_order: self.lucky_order,
            objective: self.objective,
            force_attacker: self.force_attacker,
            force_defender: self.force_defender,
        }
    }

    /// The flags given, as typed on a command line (for a page's header).
    fn flags(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(v) = self.lucky_policy {
            out.push(format!("--lucky-policy {}", v.word()));
        }
        if let Some(v) = self.lucky_order {
            out.push(format!("--lucky-order {}", v.word()));
        }
        if let Some(v) = self.objective {
            out.push(format!("--objective {}", v.word()));
        }
        if let Some(v) = self.force_attacker {
            out.push(format!("--force-attacker {v}"));
        }
        if let Some(v) = self.force_defender {
            out.push(format!("--force-defender {v}"));
        }
        out
    }

    fn policy(&self) -> Policy {
        self.request().policy()
    }

    fn force(&self) -> [Option<u32>; 2] {
        self.request().force()
    }
}

/// One attack given by flags, with the choices around it.
#[derive(Args, Debug, Clone, Default)]
struct AttackArgs {
    #[command(flatten)]
    units: UnitFlags,
    /// Attacker has Overkill (excess hits may go to the other unit: give --other-health).
    #[arg(long)]
    overkill: bool,
    /// Adds a third unit on the defender's side, with this health (a target for Overkill and Deflect).
    #[arg(long, value_name = "H", allow_hyphen_values = true)]
    other_health: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
}

impl AttackArgs {
    /// The typed request these flags make.
    fn request(&self) -> Result<AttackRequest> {
        let other_health = match &self.other_health {
            None => None,
            Some(h) => {
                // Read as a health, said of --other-health.
                let at = |e: Error| e.at_param("other-health", Some(h));
                let values = swtcg_engine::request::parse_range::<i64>(Param::Health, h)
                    .map_err(|e| at(Error::new(e.kind(), e.detail())))?;
                let [v] = values.as_slice() else {
                    return Err(at(Error::new(ErrorKind::Syntax, "give one value")));
                };
                Some(*v as u32)
            }
        };
        Ok(AttackRequest {
            values: self.units.values()?,
            overkill: self.overkill,
            other_health,
            policy: self.policy.request(),
        })
    }

    /// Whether any flag of the attack was given.
    fn any(&self) -> bool {
        !self.units.given.is_empty()
            || self.overkill
            || self.other_health.is_some()
            || self.policy.any()
    }
}

#[derive(Args, Debug)]
struct AttackCmd {
    #[command(flatten)]
    attack: AttackArgs,
    /// One JSON object, every probability a reduced fraction "num/den".
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    plot: PlotArg,
}

/// Where to draw a picture.
#[derive(Args, Debug, Default)]
struct PlotArg {
    /// Also draw the exact P(damage >= k) curves to this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
}

impl PlotArg {
    /// Refuses a picture path that is one of the command's `inputs`
    /// (before any work).
    fn check(&self, inputs: &[String]) -> Result<()> {
        match &self.plot {
            Some(p) => crate::output::refuse_inputs(p, inputs).map_err(|e| e.about("--plot")),
            None => Ok(()),
        }
    }

    /// Writes the picture, if asked to.
    fn write(&self, title: &str, series: &[Series]) -> Result<()> {
        if let Some(p) = &self.plot {
            crate::output::write_file(p, &svg(title, "damage k", series))
                .map_err(|e| e.about("--plot"))?;
        }
        Ok(())
    }
}

#[derive(Args, Debug)]
struct TableCmd {
    #[command(flatten)]
    params: RangeFlags,
    /// Output format: md shows the parameters given that vary; csv, json and jsonl carry every
    /// core parameter (power, accuracy, armor, shields, fury, crit, parry, evade, deflect,
    /// health) and each one given.
    #[arg(long, value_parser = words::<Format>(), default_value = "md")]
    format: Format,
    /// Lay the table out as a grid: ROW down, COL across (every other parameter fixed).
    #[arg(long, value_name = "ROW,COL")]
    pivot: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// The default table, the first thing a newcomer sees: expected damage and
/// P(discard) of power 1 to 10 against a health-5 defender, without and
/// with Armor.
fn newcomer_grid() -> Grid {
    Grid::new()
        .with(Param::Power, (1..=10).collect())
        .with(Param::Armor, vec![0, 1])
        .with(Param::Health, vec![5])
}

impl TableCmd {
    fn grid(&self) -> Result<Grid> {
        if self.params.given.is_empty() {
            return Ok(newcomer_grid());
        }
        if self.policy.force_attacker.is_some()
            || self.policy.force_defender.is_some()
            || self.policy.objective.is_some()
        {
            return Err(Error::new(
                ErrorKind::Syntax,
                "table gives expected damage to the defender with Lucky played for damage: --objective and --force-* are for attack and scenario",
            ));
        }
        let mut g = Grid::new();
        for (p, text) in &self.params.given {
            g = g.with(*p, parse_values(*p, text)?);
        }
        g.policy = Some(self.policy.policy());
        Ok(g)
    }

    fn run(&self) -> Result<String> {
        let grid = self.grid()?;
        if let Some(pv) = &self.pivot {
            let (r, c) = pv.split_once(',').ok_or_else(|| {
                Error::new(
                    ErrorKind::Syntax,
                    format!(
                        "--pivot '{}': give ROW,COL, such as power,crit",
                        swtcg_engine::error::quote(pv)
                    ),
                )
            })?;
            let name = |n: &str| {
                Param::from_name(n.trim()).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Unknown,
                        format!(
                            "--pivot: '{}' is not a parameter (power, crit, parry, ...)",
                            swtcg_engine::error::quote(n.trim())
                        ),
                    )
                })
            };
            let (r, c) = (name(r)?, name(c)?);
            let rows = grid.rows()?;
            return Ok(crate::writers::pivot(
                &pivot(&grid, &rows, r, c)?,
                self.format,
            ));
        }
        Ok(crate::writers::rows(&grid.rows()?, self.format))
    }
}

/// Where `scenario --help` sends a reader for the file's format.
const SCENARIO_HELP: &str = "The file's format (every field, every keyword's wording, cards as units, the policy and Force), with a complete example: docs/scenarios.md in the repository. Example: examples/scenarios/beyghor.json.";

/// Where `plan --help` sends a reader for the file's format.
const PLAN_HELP: &str = "The file's format (the defender, the attackers, the steps, the policy), with complete examples: docs/scenarios.md#plans in the repository. Examples: examples/scenarios/plan.json, examples/scenarios/cards-plan.json.";

#[derive(Args, Debug)]
struct ScenarioCmd {
    /// The scenario file (JSON; its format: docs/scenarios.md).
    file: String,
    /// One JSON object, every probability a reduced fraction "num/den".
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    plot: PlotArg,
}

#[derive(Args, Debug)]
struct PlanCmd {
    /// The plan file (JSON): a defender, attackers, the order of their attacks (its format:
    /// docs/scenarios.md#plans).
    file: String,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    /// Also draw P(total damage >= k) after each step to this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
}

/// Where `battle --help` sends a reader for the file's format.
const BATTLE_HELP: &str = "The file's format (units with their side, arena and speed; the objective; the Force of each side): docs/battle.md in the repository. Example: examples/battles/throne-room.json.";

#[derive(Args, Debug)]
struct BattleCmd {
    /// The battle file (JSON; its format: docs/battle.md).
    file: String,
    /// One JSON object, every probability a reduced fraction "num/den".
    #[arg(long)]
    json: bool,
    /// The JSON object with the best choice in every state the battle reaches.
    #[arg(long)]
    policy: bool,
    /// The bound on the states estimated before the solve (the file's "max_states").
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Stop with an error after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT)]
    time_limit: u64,
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
    attack: AttackArgs,
}

#[derive(Args, Debug)]
struct SampleCmd {
    /// Number of simulated attacks.
    #[arg(long, value_name = "N")]
    trials: u64,
    /// Seed of the generator (the same seed gives the same counts).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// What to count.
    #[arg(long, value_parser = words::<Quantity>(), default_value = "defender_damage")]
    quantity: Quantity,
    /// A deliberately wrong rule, to test a checker.
    #[arg(long, value_parser = words::<Variant>())]
    variant: Option<Variant>,
    #[command(flatten)]
    attack: AttackArgs,
}

/// Where the cards come from: given before or after the command
/// (`cards --db X check`, `cards check --db X`).
#[derive(Args, Debug, Default)]
struct DbArgs {
    /// A LackeyCCG set file, or a folder of them (the plugin's `sets/` folder); may be repeated.
    /// Needed by `cards` and `matchups`; optional for `serve` (its card picker).
    #[arg(long, value_name = "PATH", global = true)]
    db: Vec<String>,
    /// Two names of the same unit (the rules' "Different Versions with Different Names"), for
    /// stacks: NAME=NAME; may be repeated.
    #[arg(long, value_name = "A=B", global = true)]
    same_unit: Vec<String>,
    /// A file of such pairs, one NAME=NAME per line.
    #[arg(long, value_name = "FILE", global = true)]
    same_units: Option<String>,
}

impl DbArgs {
    /// The files and folders these options read.
    fn inputs(&self) -> Vec<String> {
        self.db.iter().chain(&self.same_units).cloned().collect()
    }

    /// Whether any card option was given.
    fn any(&self) -> bool {
        !self.db.is_empty() || !self.same_unit.is_empty() || self.same_units.is_some()
    }

    /// Loads the database (`what`: the command, for the message when no
    /// `--db` was given); what the reader says of the files as a whole
    /// goes to `notes` (standard error).
    fn load(&self, what: &str, notes: &mut Vec<String>) -> Result<CardDb> {
        if self.db.is_empty() {
            return Err(Error::new(
                ErrorKind::Missing,
                format!(
                    "{what} needs cards: give --db PATH (a LackeyCCG set file or a folder of them)"
                ),
            ));
        }
        let mut db = CardDb::load(&self.db)?;
        for s in &self.same_unit {
            db.same.add_text(s, "--same-unit")?;
        }
        if let Some(f) = &self.same_units {
            db.same.add_text(&read_file(f)?, f)?;
        }
        notes.extend(db.notes.iter().cloned());
        Ok(db)
    }
}

#[derive(Args, Debug)]
struct CardsCmd {
    #[command(subcommand)]
    action: CardsAction,
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
        /// For each ability, the rule of the card language that read it and,
        /// clause by clause, how each clause was read.
        #[arg(long)]
        explain: bool,
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
        /// After the counts, every unit's abilities with the rule that read
        /// each and how each clause was read (as `cards find --explain`).
        #[arg(long)]
        explain: bool,
    },
}

#[derive(Args, Debug)]
struct CardAttackCmd {
    /// The attacking card: "Name", "Name@SET", "Name[power=N,health=N]", a stack "Top + Beneath + ...", or "Unit with Pilot".
    attacker: String,
    /// The defending card, or a stack.
    defender: String,
    /// Switch on a conditional ability the cards cannot decide: text it contains, or a:N / d:N (the attacker's or defender's Nth ability, as `cards find` numbers them), with =N for an X.
    #[arg(long, value_name = "C")]
    condition: Vec<String>,
    /// The arena of the attack (by default the first the two cards share).
    #[arg(long, value_parser = words::<Arena>())]
    arena: Option<Arena>,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    plot: PlotArg,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Args, Debug)]
struct MatchupsCmd {
    /// Attacking cards: all, name:TEXT, set:CODE, type:TYPE, or a name fragment (comma-separated).
    #[arg(long, default_value = "all")]
    attackers: String,
    /// Defending cards, selected the same way.
    #[arg(long, default_value = "all")]
    defenders: String,
    /// Output format: md (the default), csv, json or jsonl; every format streams in constant
    /// memory.
    #[arg(long, value_parser = words::<Format>(), default_value = "md")]
    format: Format,
    /// Rank each attacking card against the defending cards of its arena (both directions):
    /// mean damage dealt, P(discard) attacking, mean damage taken, P(survive) attacked.
    #[arg(long)]
    rank: bool,
    /// The column rankings are sorted by.
    #[arg(long, value_parser = words::<SortBy>(), requires = "rank")]
    sort: Option<SortBy>,
    /// Removed: refused with the reason (pairings across arenas are not
    /// attacks the rules allow).
    #[arg(long, hide = true)]
    any_arena: bool,
    /// Stop with an error after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT)]
    time_limit: u64,
    /// Write the documentation page of every unit against every other instead (Markdown).
    #[arg(long)]
    page: bool,
    /// Write to this file (whole or not at all) instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<String>,
    /// Exit 0 even when some pairings have no result (they are rows with their reason, and
    /// counted on standard error, either way; without this flag the exit status is then 1).
    #[arg(long)]
    keep_going: bool,
    /// The title of the rankings page (`--rank`, Markdown; by default "Rankings of" its sets).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// What a command prints, and its exit status (0, 1 when `verify` finds
/// the simulator wrong).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// What goes to standard output.
    pub text: String,
    /// The exit status.
    pub status: u8,
}

impl From<String> for Output {
    fn from(text: String) -> Output {
        Output { text, status: 0 }
    }
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

fn scenario_output(report: &ScenarioReport, json: bool) -> String {
    if json {
        to_json_text(&report.json())
    } else {
        report.to_text()
    }
}

fn attack_cmd(cmd: &AttackCmd) -> Result<String> {
    let title = cmd.attack.units.describe();
    let answer = cmd.attack.request()?.solve()?;
    let series = match &answer {
        AttackAnswer::Game(report) => scenario_series(report),
        AttackAnswer::Static { outcome, .. } => {
            let mut series = vec![Series::at_least(
                "damage to the defender",
                &outcome.defender_damage,
            )];
            if outcome.attacker_damage.max() > 0 {
                series.push(Series::at_least(
                    "damage to the attacker",
                    &outcome.attacker_damage,
                ));
            }
            series
        }
    };
    cmd.plot.write(&title, &series)?;
    Ok(if cmd.json {
        answer.json_text()
    } else {
        answer.text()
    })
}

fn verify_cmd(cmd: &VerifyCmd) -> Result<Output> {
    if cmd.scenario.is_some() && cmd.attack.any() {
        return Err(Error::new(
            ErrorKind::Conflict,
            "--scenario takes the attack from its file: drop the attack flags (--power, --parry, ...)",
        ));
    }
    let text = read_file(&cmd.counts).map_err(|e| e.about("--counts"))?;
    let counts = parse_counts(&text).map_err(|e| e.about(&cmd.counts))?;
    let answer = match &cmd.scenario {
        Some(path) => AttackAnswer::Game(Box::new(
            swtcg_cards::cards::files::scenario_from_file(path)?.solve()?,
        )),
        None => cmd.attack.request()?.solve()?,
    };
    let exact = answer.law(&cmd.quantity)?;
    let v = check(&exact, &counts, cmd.alpha)?;
    let text = if cmd.json {
        to_json_text(&v.json(&cmd.quantity))
    } else {
        v.to_text(&cmd.quantity)
    };
    Ok(Output {
        text,
        status: if v.consistent() { 0 } else { 1 },
    })
}

fn sample_cmd(cmd: &SampleCmd) -> Result<String> {
    let u = &cmd.attack;
    if u.overkill
        || u.other_health.is_some()
        || u.policy.objective.is_some()
        || u.policy.force_attacker.is_some()
        || u.policy.force_defender.is_some()
    {
        return Err(Error::new(
            ErrorKind::NotModelled,
            "sample plays the static attack with simple Lucky: --overkill, --other-health, --objective and --force-* are not simulated",
        ));
    }
    let (a, d) = u.request()?.units()?;
    let model = Model::for_flags(
        a,
        d,
        &u.policy.policy(),
        u.policy.lucky_policy.is_some(),
        cmd.variant,
    )?;
    let counts = model.sample_bounded(cmd.quantity, cmd.trials, cmd.seed)?;
    Ok(serde_json::to_string(
        &counts
            .into_iter()
            .map(|(k, c)| (k.to_string(), c))
            .collect::<std::collections::BTreeMap<_, _>>(),
    )
    .unwrap_or_default()
        + "\n")
}

fn cards_cmd(cmd: &CardsCmd, db_args: &DbArgs, notes: &mut Vec<String>) -> Result<Output> {
    let db = db_args.load("cards", notes)?;
    match &cmd.action {
        CardsAction::Find {
            text,
            json,
            explain,
        } => {
            let found = db.find(text);
            // Nothing found: the nearest names, and status 1 (as grep).
            let status = if found.is_empty() {
                let near = db.nearest(text, 5);
                notes.push(format!(
                    "cards find: no card's name, set, type or text holds '{}'{}",
                    swtcg_engine::error::quote(text),
                    if near.is_empty() {
                        String::new()
                    } else {
                        format!("; nearest names: {}", near.join(", "))
                    }
                ));
                1
            } else {
                0
            };
            let text = if *json {
                to_json_text(&found)
            } else {
                let mut out = String::new();
                for c in &found {
                    out.push_str(&c.to_text_with(*explain));
                }
                out.push_str(&format!("{} card(s) found\n", found.len()));
                out
            };
            Ok(Output { text, status })
        }
        CardsAction::Check { json, top, explain } => {
            let report = swtcg_cards::cards::check::check(&db);
            Ok(Output::from(if *json {
                to_json_text(&report)
            } else if *explain {
                let mut out = report.to_text(*top);
                for c in &db.cards {
                    out.push_str(&c.to_text_with(true));
                }
                out
            } else {
                report.to_text(*top)
            }))
        }
        CardsAction::Attack(a) => {
            a.plot.check(&db_args.inputs())?;
            let attacker = db.piece(&a.attacker)?;
            let defender = db.piece(&a.defender)?;
            let switches = Switches::parse(&a.condition)?;
            let mut scenario = duel(&attacker, &defender, &switches, a.arena, &a.policy.policy())?;
            scenario.game.force = a.policy.force();
            let report = scenario.solve()?;
            a.plot.write(
                &format!("{} attacks {}", attacker.name(), defender.name()),
                &scenario_series(&report),
            )?;
            Ok(scenario_output(&report, a.json).into())
        }
    }
}

fn matchups_cmd(
    cmd: &MatchupsCmd,
    db_args: &DbArgs,
    out: &mut dyn Write,
    notes: &mut Vec<String>,
) -> Result<u8> {
    if cmd.page && (cmd.format != Format::Markdown || cmd.rank) {
        return Err(Error::new(
            ErrorKind::Conflict,
            "--page writes a Markdown page: drop --format and --rank",
        ));
    }
    if cmd.title.is_some() && !cmd.rank {
        return Err(Error::new(
            ErrorKind::Conflict,
            "--title names a rankings page: add --rank",
        ));
    }
    if cmd.any_arena {
        return Err(Error::new(
            ErrorKind::Unknown,
            "--any-arena was removed: a unit attacks only units of an arena it is in or reaches \
             (Bombard, Ion Cannon, Barrage), and those pairings are all listed without it",
        ));
    }
    if let Some(path) = &cmd.output {
        crate::output::refuse_inputs(path, &db_args.inputs()).map_err(|e| e.about("--output"))?;
    }
    let db_paths = db_args.db.join(" ");
    let db = db_args.load("matchups", notes)?;
    let Some(path) = &cmd.output else {
        return matchups_body(cmd, &db, &db_paths, out, notes);
    };
    let mut file = crate::output::OutputFile::create(path).map_err(|e| e.about("--output"))?;
    match matchups_body(cmd, &db, &db_paths, &mut file, notes) {
        Ok(status) => {
            file.commit().map_err(|e| e.about("--output"))?;
            Ok(status)
        }
        Err(e) => {
            // Stopped (a limit, an error, Ctrl-C or SIGTERM): the target is
            // left as it was, and what was written is kept beside it.
            let written = file.written();
            let shown = swtcg_engine::error::quote(file.path());
            let kept = match file.abandon(written > 0) {
                Some((partial, bytes)) => format!(
                    "{shown} is unchanged, the {bytes} bytes written so far are in {}",
                    swtcg_engine::error::quote(&partial.to_string_lossy())
                ),
                None => format!("{shown} is unchanged, nothing was written"),
            };
            Err(Error::new(e.kind(), format!("{}; {kept}", e.with_flags())))
        }
    }
}

/// The one-line summary of a matchups run for standard error, and its exit
/// `text` as one word of a POSIX shell: as is when it holds only safe
/// characters, else in single quotes.
fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_.:,/@+=".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// status: 1 when some pairing has no result, unless `keep_going`.
fn matchups_summary(s: &Summary, keep_going: bool) -> (String, u8) {
    if s.errors == 0 {
        return (
            format!(
                "matchups: {} pairings, every one with a result ({} distinct solves)",
                s.rows, s.solved
            ),
            0,
        );
    }
    let mut reasons: Vec<(&String, &usize)> = s.reasons.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = reasons
        .iter()
        .take(3)
        .map(|(r, n)| format!("{n} x '{}'", swtcg_engine::error::quote(r)))
        .collect();
    let more = if reasons.len() > 3 {
        format!(" and {} more reasons", reasons.len() - 3)
    } else {
        String::new()
    };
    let status = if keep_going { 0 } else { 1 };
    (
        format!(
            "matchups: {} pairings, {} without a result (each a row with its reason): {}{more}{}",
            s.rows,
            s.errors,
            top.join(", "),
            if keep_going {
                ""
            } else {
                "; exit status 1 (--keep-going: 0)"
            }
        ),
        status,
    )
}

fn matchups_body(
    cmd: &MatchupsCmd,
    db: &CardDb,
    db_paths: &str,
    w: &mut dyn Write,
    notes: &mut Vec<String>,
) -> Result<u8> {
    let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("writing the matchups: {e}"));
    if cmd.page {
        let opts = MatchupOptions {
            time_limit: std::time::Duration::from_secs(cmd.time_limit),
            stop: Some(stop_on_signals()),
            ..MatchupOptions::default()
        };
        write_docs_page(db, db_paths, &opts, w)?;
        return Ok(0);
    }
    let attackers = db.select(&cmd.attackers)?;
    let defenders = db.select(&cmd.defenders)?;
    let left_out: Vec<String> = db
        .skipped
        .iter()
        .filter(|s| s.unit)
        .map(|s| format!("{} ({}): {}", s.name, s.set, s.reason))
        .collect();
    // Said once the pairings are made (a refused request says only why).
    let left_out = (!left_out.is_empty()).then(|| {
        format!(
            "matchups: {} unit cards left out of every pairing: {}",
            left_out.len(),
            left_out.join("; ")
        )
    });
    let opts = MatchupOptions {
        policy: cmd.policy.policy(),
        force: cmd.policy.force(),
        time_limit: std::time::Duration::from_secs(cmd.time_limit),
        stop: Some(stop_on_signals()),
        ..MatchupOptions::default()
    };
    let mut bar = Progress::new();
    if cmd.rank {
        let ranked = rank(
            &attackers,
            &defenders,
            &opts,
            cmd.sort.unwrap_or_default(),
            |d, t| bar.tick(d, t),
        )?;
        bar.finish();
        notes.push(field_line(&ranked));
        let text = match cmd.format {
            Format::Markdown => {
                // The flags that change the figures, as a shell takes them.
                let mut options = Vec::new();
                for (flag, sel) in [
                    ("--attackers", &cmd.attackers),
                    ("--defenders", &cmd.defenders),
                ] {
                    if sel != "all" {
                        options.push(format!("{flag} {}", shell_word(sel)));
                    }
                }
                if let Some(s) = cmd.sort {
                    options.push(format!("--sort {}", Words::word(s)));
                }
                options.extend(cmd.policy.flags());
                let header = PageHeader::of(
                    db,
                    cmd.title.clone(),
                    (&attackers, &defenders),
                    [&cmd.attackers, &cmd.defenders],
                    &options,
                );
                rankings_markdown(&ranked, &header)
            }
            Format::Csv => {
                let mut c = csv::Writer::from_writer(Vec::new());
                for r in &ranked.rows {
                    let safe = swtcg_cards::matchups::Ranked {
                        unit: crate::writers::csv_text(&r.unit).into_owned(),
                        note: r
                            .note
                            .as_deref()
                            .map(|n| crate::writers::csv_text(n).into_owned()),
                        ..r.clone()
                    };
                    c.serialize(&safe)
                        .map_err(|e| Error::new(ErrorKind::Range, e.to_string()))?;
                }
                String::from_utf8(
                    c.into_inner()
                        .map_err(|e| Error::new(ErrorKind::Range, e.to_string()))?,
                )
                .unwrap_or_default()
            }
            Format::Json => to_json_text(&ranked.rows),
            Format::Jsonl => ranked
                .rows
                .iter()
                .map(|r| serde_json::to_string(r).unwrap_or_default() + "\n")
                .collect(),
        };
        w.write_all(text.as_bytes()).map_err(io)?;
        let (line, status) = matchups_summary(&ranked.summary, cmd.keep_going);
        notes.push(line);
        notes.extend(left_out);
        return Ok(status);
    }
    let both = cmd.attackers != cmd.defenders;
    let n = count(&attackers, &defenders)
        + if both {
            count(&defenders, &attackers)
        } else {
            0
        };
    let mut header = true;
    let format = cmd.format;
    if format == Format::Json {
        w.write_all(b"[\n").map_err(io)?;
    }
    let mut total = Summary::default();
    let mut done = 0;
    for (att, def) in [(&attackers, &defenders), (&defenders, &attackers)]
        .into_iter()
        .take(if both { 2 } else { 1 })
    {
        // CSV and JSON Lines format each distinct result once.
        let mut listing = ListingWriter::new(format, att.len(), def.len());
        let mut sink = |r: RowRef| -> std::io::Result<()> {
            match format {
                Format::Csv | Format::Jsonl => {
                    if header && format == Format::Csv {
                        w.write_all(crate::writers::matchup_csv_header().as_bytes())?;
                    }
                    header = false;
                    listing.write(&mut *w, &r)
                }
                Format::Json => {
                    if !header {
                        w.write_all(b",\n")?;
                    }
                    header = false;
                    serde_json::to_writer_pretty(&mut *w, &MatchupRow::of_ref(&r))?;
                    Ok(())
                }
                Format::Markdown => {
                    if header {
                        header = false;
                        w.write_all(markdown_header(&matchups_table()).as_bytes())?;
                    }
                    w.write_all(markdown_row(&matchup_cells(&MatchupRow::of_ref(&r))).as_bytes())
                }
            }
        };
        let s = stream_rows(att, def, &opts, &mut sink, |d, _| bar.tick(done + d, n))?;
        done += s.rows;
        total.rows += s.rows;
        total.solved += s.solved;
        total.errors += s.errors;
        for (r, k) in s.reasons {
            *total.reasons.entry(r).or_default() += k;
        }
    }
    bar.finish();
    match format {
        Format::Json => w.write_all(b"\n]\n").map_err(io)?,
        Format::Markdown if header => w
            .write_all(markdown_header(&matchups_table()).as_bytes())
            .map_err(io)?,
        _ => {}
    }
    let (line, status) = matchups_summary(&total, cmd.keep_going);
    notes.push(line);
    Ok(status)
}

fn plan_cmd(cmd: &PlanCmd) -> Result<String> {
    PlotArg {
        plot: cmd.plot.clone(),
    }
    .check(&swtcg_cards::cards::files::input_paths(&cmd.file))?;
    let report = swtcg_cards::cards::files::plan_from_file(&cmd.file)?.solve()?;
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
    PlotArg {
        plot: cmd.plot.clone(),
    }
    .write(
        &format!("Plan against {}", report.plan.defender.name),
        &series,
    )?;
    Ok(if cmd.json {
        to_json_text(&report.json())
    } else {
        report.to_text()
    })
}

fn battle_cmd(cmd: &BattleCmd) -> Result<String> {
    let mut battle = swtcg_cards::cards::files::battle_from_file(&cmd.file)?;
    if let Some(n) = cmd.max_states {
        battle.max_states = n;
    }
    // The first decision's alternatives as they are solved, on a terminal.
    let mut bar = Progress::new();
    let report =
        swtcg_engine::cancel::with_deadline(std::time::Duration::from_secs(cmd.time_limit), || {
            battle.solve_with(&mut |p| bar.tick(p.first_done, p.first_total))
        });
    bar.finish();
    let report = report.map_err(|e| {
        if e.kind() == ErrorKind::Cancelled {
            e.at_param("time-limit", Some(&cmd.time_limit.to_string()))
        } else {
            e
        }
    })?;
    Ok(if cmd.json || cmd.policy {
        to_json_text(&report.json(cmd.policy))
    } else {
        report.to_text()
    })
}

/// Runs one parsed command line, writing its output to `out` (streamed
/// where the command streams): its exit status (0, or 1 when `verify`
/// finds the simulator wrong).
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<u8> {
    run_noting(cli, out, &mut Vec::new())
}

/// [`run`], collecting the lines meant for standard error beside the
/// data (such as the field of a ranking) in `notes`.
pub fn run_noting(cli: Cli, out: &mut dyn Write, notes: &mut Vec<String>) -> Result<u8> {
    let cards = matches!(
        cli.command,
        Command::Cards(_) | Command::Matchups(_) | Command::Serve(_)
    );
    if cli.db.any() && !cards {
        return Err(Error::new(
            ErrorKind::Conflict,
            "--db, --same-unit and --same-units are for cards, matchups and serve (scenario and plan files name their \"db\")",
        ));
    }
    let text: Output = match cli.command {
        Command::Matchups(cmd) => return matchups_cmd(&cmd, &cli.db, out, notes),
        Command::Attack(cmd) => attack_cmd(&cmd)?.into(),
        Command::Table(cmd) => cmd.run()?.into(),
        Command::Scenario(cmd) => {
            cmd.plot
                .check(&swtcg_cards::cards::files::input_paths(&cmd.file))?;
            let report = swtcg_cards::cards::files::scenario_from_file(&cmd.file)?.solve()?;
            cmd.plot
                .write(&format!("Scenario {}", cmd.file), &scenario_series(&report))?;
            scenario_output(&report, cmd.json).into()
        }
        Command::Verify(cmd) => verify_cmd(&cmd)?,
        Command::Sample(cmd) => sample_cmd(&cmd)?.into(),
        Command::Cards(cmd) => cards_cmd(&cmd, &cli.db, notes)?,
        Command::Plan(cmd) => plan_cmd(&cmd)?.into(),
        Command::Battle(cmd) => battle_cmd(&cmd)?.into(),
        Command::Serve(cmd) => {
            let db = if cli.db.any() {
                // The API names files relative to the --db given.
                let mut db = cli.db.load("serve", notes)?;
                db.relative_names(&cli.db.db);
                Some(db)
            } else {
                None
            };
            let wildcard = crate::web::server::is_wildcard(&cmd.server.host);
            crate::web::serve(crate::web::State::new(db), &cmd.server, |url| {
                notes.push(format!("serving {url}"));
                eprintln!("swtcg-odds: serving {url} (Ctrl-C to stop)");
                if wildcard {
                    eprintln!(
                        "swtcg-odds: warning: --host {} listens on every address of this machine: \
                         the page and its API are reachable from the network",
                        cmd.server.host
                    );
                }
            })?;
            String::new().into()
        }
    };
    out.write_all(text.text.as_bytes())
        .map_err(|e| Error::new(ErrorKind::Io, format!("writing the output: {e}")))?;
    Ok(text.status)
}

/// What a command line did, run in-process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// Standard output.
    pub stdout: String,
    /// Standard error: one line on failure.
    pub stderr: String,
    /// The exit status: 0, 1 (verify's verdict) or 2 (bad input).
    pub status: u8,
    /// On failure, the error as the library knows it: its kind and origin
    /// (a bad command line's too), for callers and tests that must not
    /// read its words.
    pub error: Option<Error>,
}

/// Runs a whole command line in-process (the program name first), as the
/// binary would, without touching the process's own streams.
pub fn run_args<I, T>(args: I) -> Ran
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return refused(&e),
    };
    let mut out: Vec<u8> = Vec::new();
    let mut notes = Vec::new();
    match run_noting(cli, &mut out, &mut notes) {
        Ok(status) => Ran {
            stdout: String::from_utf8_lossy(&out).into_owned(),
            stderr: notes.iter().map(|n| format!("{n}\n")).collect(),
            status,
            error: None,
        },
        Err(e) => Ran {
            stdout: String::from_utf8_lossy(&out).into_owned(),
            stderr: format!("error: {}\n", e.with_flags()),
            status: error_status(&e),
            error: Some(e),
        },
    }
}

/// Standard output, remembering whether the reader went away (a closed
/// pipe ends the program quietly, as ripgrep does).
struct Stdout {
    /// Buffered: a listing of millions of rows is not a write per line.
    inner: std::io::BufWriter<std::io::StdoutLock<'static>>,
    closed: bool,
    /// On a terminal: control characters are written escaped.
    terminal: bool,
    /// The start of a character a write cut (on a terminal).
    pending: Vec<u8>,
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = if self.terminal {
            // A character cut between two writes waits for its end.
            self.pending.extend_from_slice(buf);
            let cut = match std::str::from_utf8(&self.pending) {
                Ok(_) => self.pending.len(),
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(_) => self.pending.len(),
            };
            let text = String::from_utf8_lossy(&self.pending[..cut]).into_owned();
            self.pending.drain(..cut);
            self.inner
                .write_all(terminal_safe(&text).as_bytes())
                .map(|()| buf.len())
        } else {
            self.inner.write(buf)
        };
        result.inspect_err(|e| self.closed |= e.kind() == std::io::ErrorKind::BrokenPipe)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner
            .flush()
            .inspect_err(|e| self.closed |= e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// The program: runs the command line, its output written to standard
/// output as it comes. A closed standard output (`| head`) ends it quietly;
/// another write error is one line on standard error and status 2.
pub fn main() -> u8 {
    let cli = match Cli::try_parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            // Help, version and bad arguments: as run in-process (without
            // parsing the command line a second time).
            let ran = refused(&e);
            let _ = std::io::stdout().write_all(ran.stdout.as_bytes());
            let _ = std::io::stderr().write_all(ran.stderr.as_bytes());
            return ran.status;
        }
    };
    use std::io::IsTerminal;
    let mut out = Stdout {
        inner: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        closed: false,
        terminal: std::io::stdout().is_terminal(),
        pending: Vec::new(),
    };
    // Card files are anyone's text: on a terminal, their control
    // characters are shown, never obeyed.
    let err_terminal = std::io::stderr().is_terminal();
    let shown = |t: &str| -> String {
        if err_terminal {
            terminal_safe(t).into_owned()
        } else {
            t.to_string()
        }
    };
    let mut notes = Vec::new();
    let result = run_noting(cli, &mut out, &mut notes).and_then(|status| {
        out.flush()
            .map_err(|e| Error::new(ErrorKind::Io, format!("writing the output: {e}")))?;
        Ok(status)
    });
    for n in &notes {
        let _ = writeln!(std::io::stderr(), "{}", shown(n));
    }
    match result {
        Ok(status) => status,
        Err(_) if out.closed => 0,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {}", shown(&e.with_flags()));
            error_status(&e)
        }
    }
}

/// The exit status of an error: 130 for a run its user stopped (as a
/// shell gives a command stopped by Ctrl-C), else 2.
fn error_status(e: &Error) -> u8 {
    if e.kind() == ErrorKind::Interrupted {
        130
    } else {
        2
    }
}

/// The flag a matchups run stops on: set to the signal's number by SIGINT
/// (Ctrl-C) or SIGTERM, and cleared here for the run about to start. The
/// handlers are installed once; a second signal ends the process at once
/// (status 128 + the signal), as if none were installed.
fn stop_on_signals() -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    static FLAG: std::sync::OnceLock<Arc<AtomicUsize>> = std::sync::OnceLock::new();
    let flag = FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicUsize::new(0));
        let again = Arc::new(AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM] {
            // In this order: the second signal finds `again` set.
            let _ = signal_hook::flag::register_conditional_shutdown(
                sig,
                128 + sig,
                Arc::clone(&again),
            );
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(&flag), sig as usize);
            let _ = signal_hook::flag::register(sig, Arc::clone(&again));
        }
        flag
    });
    flag.store(0, Ordering::Relaxed);
    Arc::clone(flag)
}
