//! The `swtcg-odds` command line: a thin layer over the library.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;
use swtcg_odds::attack::attack;
use swtcg_odds::error::{Error, Result};
use swtcg_odds::report::{attack_json, attack_text};
use swtcg_odds::table::{Format, Grid, parse_range, parse_switch, render};
use swtcg_odds::unit::Unit;

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
}

/// The two units of one attack, as flags.
#[derive(Args, Debug, Clone)]
struct AttackArgs {
    /// Attacker's power (attack dice).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    power: u32,
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
        let mut a = Unit::new("attacker", self.power);
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
        let mut d = Unit::new("defender", 0);
        d.health = health("--health", self.health)?;
        d.counters = self.counters;
        let k = &mut d.keywords;
        k.armor = self.armor;
        k.shields = self.shields;
        k.parry = self.parry;
        k.evade = self.evade;
        k.deflect = self.deflect;
        k.retaliate = self.retaliate;
        k.fortitude = self.fortitude;
        k.ferocity = self.defender_ferocity;
        k.stun = self.defender_stun;
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
}

#[derive(Args, Debug)]
struct AttackCmd {
    #[command(flatten)]
    units: AttackArgs,
    /// One JSON object, every probability a reduced fraction "num/den".
    #[arg(long)]
    json: bool,
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

fn run(cli: Cli) -> Result<String> {
    match cli.command {
        Command::Attack(cmd) => {
            let (a, d) = cmd.units.units()?;
            let out = attack(&a, &d)?;
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
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
