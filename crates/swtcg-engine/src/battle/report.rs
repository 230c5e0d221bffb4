//! A solved battle: who controls each arena, every unit's fate, the first
//! decision, the policy, as values, JSON and text.

use super::*;

/// One alternative of the first decision.
#[derive(Clone, Debug)]
pub(crate) struct FirstOption {
    /// The choice.
    pub(crate) choice: Choice,
    /// Its value for the player choosing.
    pub value: BigRational,
    /// Its value for each player, by `Player::index`.
    pub values: [BigRational; 2],
}

/// The battle's first decision.
#[derive(Clone, Debug)]
pub(crate) struct FirstDecision {
    /// Who chooses.
    pub(crate) player: Player,
    /// The choice made.
    pub(crate) best: Choice,
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
    pub(crate) side: Player,
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
    /// The objective's value for each player, by `Player::index`.
    pub value: [BigRational; 2],
    /// The first decision, unless no unit can attack.
    pub(crate) first: Option<FirstDecision>,
    /// The states estimated before the solve.
    pub estimate: u64,
    /// The states solved.
    pub states: u64,
    /// The distinct attacks solved.
    pub attacks_solved: u64,
    pub(super) forward: Forward,
}

/// The JSON of a battle.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct BattleJson {
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
pub(crate) struct FirstJson {
    /// Who chooses.
    pub player: Player,
    /// The choice made.
    pub best: String,
    /// Each alternative, the best first, then in the order considered.
    pub options: Vec<OptionJson>,
}

/// One alternative.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct OptionJson {
    /// Its words.
    pub choice: String,
    /// Its value for the player choosing.
    pub value: Fraction,
    /// Its value for the other player.
    pub other: Fraction,
}

/// State counts.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct StatesJson {
    /// The bound counted before the solve.
    pub estimate: u64,
    /// The states solved.
    pub solved: u64,
    /// The distinct attacks solved.
    pub attacks: u64,
}

/// One state of the policy.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PolicyEntry {
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
            let i = match b.presence(s, a) {
                [true, false] => 0,
                [false, true] => 1,
                [true, true] => 2,
                [false, false] => 3,
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
    pub(crate) fn policy(&self) -> Vec<PolicyEntry> {
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
    pub fn json(&self, policy: bool) -> impl serde::Serialize + use<'_> {
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
