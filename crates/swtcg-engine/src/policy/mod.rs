//! Players' choices, played exactly.
//!
//! Lucky (the re-roll POP) is solved here; the choices inside the damage
//! steps (Overkill's split, Deflect and its target, paid Evade) are solved by
//! the attack pipeline under `Play::Optimal`; the declare-step choices
//! (Intercept, paying for Retaliate) are made in [`solve`] by comparing the
//! exact value of each option.
//!
//! **Lucky.** Dice are exchangeable, so a roll is a *state*: how many dice
//! show each class of face that matters — a natural 1, a natural 6, another
//! hitting face, another missing face. Re-rolling `r` dice of a state keeps
//! the rest and adds `r` fresh dice, and a fresh die falls in each class with
//! its number of faces out of 6. With `G_0 = V` (the value of the next
//! stage) and `G_r(K) = Σ_class faces · G_{r−1}(K + class)`, `G_r(K)` is
//! `6^r` times the expected value of keeping `K` and re-rolling `r` dice; a
//! side's best choice in state `c` is the best `G_|d|(c − d) · 6^(X−|d|)`
//! over the dice `d` it may re-roll. Everything is an integer over a power
//! of 6: exact, and compared exactly. `simple` play is the web calculator's:
//! the attacker re-rolls its missed dice, natural 1s first; the defender
//! makes it re-roll hitting dice, natural 6s first.

use crate::attack::{
    ATTACKER, DEFENDER, Ending, Fight, MAX_SEARCH_NODES, Objective, Play, Resolved, Side, Strike,
    Tally, attack_dice, side_index, track,
};
use crate::dice::{Roll, Track, hit_threshold, recent_roll};
use crate::dist::{Joint, Num, Weight, ratio};
use crate::error::{Error, Result};
use crate::unit::Unit;
use num_rational::BigRational;
use std::sync::Arc;

/// A plan of Retaliates: the declared defender's and the defending unit's
/// (each a Retaliate's index and its X), and their Force.
type RetaliatePlan = (Vec<(usize, u32)>, Vec<(usize, u32)>, u32);

/// How the Lucky re-rolls are chosen (the words `optimal`, `simple`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LuckyPolicy {
    /// Each side picks the re-rolls that serve its objective, knowing the
    /// other side's Lucky is still to come (exact expectimax).
    #[default]
    Optimal,
    /// The web calculator's play: the attacker re-rolls up to X missed dice,
    /// natural 1s first; the defender forces up to X hitting dice to be
    /// re-rolled, natural 6s first.
    Simple,
}

/// How the two sides' Lucky take turns in the re-roll POP (the words
/// `pop`, `pop-defender-first`, `attacker-first`, `defender-first`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LuckyOrder {
    /// The rules' POP: the players alternate, the attacker's player first;
    /// each may use its Lucky once or pass, and the POP ends when both pass
    /// in succession (so a player who passed may still answer a re-roll).
    #[default]
    Pop,
    /// The same POP with the first chance to the defender's player.
    PopDefenderFirst,
    /// A fixed order (the web calculator's): the attacker, then the
    /// defender, each once.
    AttackerFirst,
    /// A fixed order: the defender, then the attacker, each once.
    DefenderFirst,
}

impl LuckyOrder {
    /// The order as played under `lucky`: under `simple` play nobody waits,
    /// so a POP is its fixed order with the first actor first.
    pub(crate) fn played(self, lucky: LuckyPolicy) -> LuckyOrder {
        match (self, lucky) {
            (LuckyOrder::Pop, LuckyPolicy::Simple) => LuckyOrder::AttackerFirst,
            (LuckyOrder::PopDefenderFirst, LuckyPolicy::Simple) => LuckyOrder::DefenderFirst,
            (o, _) => o,
        }
    }
}

/// The Force each side may spend in one attack when no budget is given
/// (no `--force-attacker` / `--force-defender`, no `"force"` in a file): a
/// turn's usual income. Fixed costs and costs of X are paid from it alike;
/// a budget given (a number, or `unlimited`) overrides it.
pub(crate) const DEFAULT_FORCE: u32 = 4;

/// The budgets of both sides when none is given.
pub const DEFAULT_BUDGETS: [Option<u32>; 2] = [Some(DEFAULT_FORCE), Some(DEFAULT_FORCE)];

/// With unlimited Force, the most a cost of X buys for dice (a Retaliate
/// X): every die can only add to its chances, so X is bounded here.
pub(crate) const UNLIMITED_X_DICE: u32 = 12;

/// A side's Force budget as asked: a number, or `unlimited` (in files, a
/// number or the word `"unlimited"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForceBudget {
    /// At most this much Force.
    Limit(u32),
    /// As much as it takes.
    Unlimited,
}

impl ForceBudget {
    /// The budget (`None`: unlimited).
    pub(crate) fn budget(self) -> Option<u32> {
        match self {
            ForceBudget::Limit(n) => Some(n),
            ForceBudget::Unlimited => None,
        }
    }

    /// A budget as a player writes it: a whole number or `unlimited`.
    pub fn from_word(w: &str) -> Option<ForceBudget> {
        let w = w.trim();
        if w.eq_ignore_ascii_case("unlimited") {
            return Some(ForceBudget::Unlimited);
        }
        w.parse::<u32>().ok().map(ForceBudget::Limit)
    }

    /// The budget of a side not given one (`None`) or given `b`.
    pub(crate) fn or_default(b: Option<ForceBudget>) -> Option<u32> {
        b.map_or(Some(DEFAULT_FORCE), ForceBudget::budget)
    }
}

impl std::fmt::Display for ForceBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ForceBudget::Limit(n) => write!(f, "{n}"),
            ForceBudget::Unlimited => f.write_str("unlimited"),
        }
    }
}

impl serde::Serialize for ForceBudget {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            ForceBudget::Limit(n) => s.serialize_u32(*n),
            ForceBudget::Unlimited => s.serialize_str("unlimited"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for ForceBudget {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            W(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(ForceBudget::Limit(n)),
            Raw::W(w) => ForceBudget::from_word(&w).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "a Force budget is a whole number or \"unlimited\", not \"{}\"",
                    crate::error::quote(&w)
                ))
            }),
        }
    }
}

/// The policy of a scenario (in files: `{"objective": ..., "lucky": ...,
/// "lucky_order": ...}`, each optional).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// What the attacking side maximises and the defending side minimises.
    pub objective: Objective,
    /// How Lucky is played.
    pub lucky: LuckyPolicy,
    /// How the two sides' Lucky take turns.
    pub lucky_order: LuckyOrder,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            objective: Objective::Damage,
            lucky: LuckyPolicy::Optimal,
            lucky_order: LuckyOrder::Pop,
        }
    }
}

/// The exact solution of one attack with a fixed defending unit.
#[derive(Clone, Debug)]
pub struct AttackSolution {
    /// The expected objective under the policy.
    pub value: BigRational,
    /// The law of the final roll (after re-rolls).
    pub final_roll: Joint<Roll, Num>,
    /// The law of the final tallies.
    pub tallies: Joint<Tally, Num>,
    /// P(the attacker's Lucky re-rolled at least one die), P(the
    /// defender's did).
    pub lucky_used: [BigRational; 2],
}

/// A roll's place in the order of rolls, as a number: its hits, then its
/// flags in the order `Roll` compares them (`one`, `six`, `two`, `three`,
/// `five`), so that keys order as rolls do.
fn roll_key(r: &Roll) -> usize {
    (r.hits as usize) << 5
        | usize::from(r.one) << 4
        | usize::from(r.six) << 3
        | usize::from(r.two) << 2
        | usize::from(r.three) << 1
        | usize::from(r.five)
}

/// The roll of a key ([`roll_key`]'s inverse).
fn roll_of_key(k: usize) -> Roll {
    Roll {
        hits: (k >> 5) as u32,
        one: k >> 4 & 1 == 1,
        six: k >> 3 & 1 == 1,
        two: k >> 2 & 1 == 1,
        three: k >> 1 & 1 == 1,
        five: k & 1 == 1,
    }
}

/// Solves one attack in `arena` (whose play must be optimal, on the
/// policy's objective) under `policy`'s Lucky.
pub(crate) fn solve_attack(arena: &Fight, policy: &Policy) -> Result<AttackSolution> {
    let a = arena.units[ATTACKER];
    let d = arena.units[arena.defending];
    let n = attack_dice(a, d);
    let fury = a.keywords.fury;
    let crit = a.keywords.crit;
    let reroll = Reroll::of(arena, policy)?;
    // Every final roll that can occur: from the roll itself, or from any
    // state of the dice after Lucky.
    let plain_roll = reroll
        .is_none()
        .then(|| recent_roll::<Num>((n, a.keywords.accuracy, d.keywords.armor, fury, track(a, d))));
    // Each final state's roll key, per start (made once: the states' rolls
    // are read again below), or each roll's of a plain roll.
    let state_keys: Vec<Vec<usize>> = match &reroll {
        Some(r) => r
            .starts
            .iter()
            .map(|s| {
                Simplex::new(s.m, r.classes.k)
                    .states()
                    .iter()
                    .map(|c| roll_key(&r.roll(s, c)))
                    .collect()
            })
            .collect(),
        None => Vec::new(),
    };
    let all: Vec<usize> = match (&plain_roll, &reroll) {
        (Some(r), _) => r.entries().iter().map(|e| roll_key(&e.0)).collect(),
        (None, Some(_)) => state_keys.iter().flatten().copied().collect(),
        (None, None) => unreachable!("a roll without Lucky or a re-roll POP"),
    };
    // The distinct final rolls, in order, by their keys (a roll's key
    // orders as the roll does): tens of thousands of states share a few
    // hundred rolls, and a key finds a roll's place without a search.
    let span = all.iter().max().map_or(0, |k| k + 1);
    let mut seen = vec![false; span];
    for &k in &all {
        seen[k] = true;
    }
    drop(all);
    let rolls: Vec<Roll> = (0..span).filter(|&k| seen[k]).map(roll_of_key).collect();
    let mut place = vec![0u32; span];
    for (i, r) in rolls.iter().enumerate() {
        place[roll_key(r)] = i as u32;
    }
    debug_assert!(rolls.windows(2).all(|w| w[0] < w[1]));
    // The damage steps, once per distinct final roll, in one search: its
    // value, and the law of its tallies (over the rolls at the end).
    let strikes: Vec<Strike> = rolls.iter().map(|r| Strike::from_roll(r, crit)).collect();
    let resolved: Vec<Resolved> = arena.resolve_optimal(&strikes)?;
    let of = |roll: &Roll| -> &Resolved { &resolved[place[roll_key(roll)] as usize] };
    let value_of = |roll: Roll| -> Num { of(&roll).value.clone() };
    let end_denom = arena.end_denom();
    let offset = arena.value_offset();
    let zero = BigRational::from_integer(0.into());
    let (final_roll, value_num, lucky_used): (Joint<Roll, Num>, Num, [BigRational; 2]) =
        match (plain_roll, reroll) {
            (Some(roll), _) => {
                let mut v = Num::zero();
                for (r, w) in roll.entries() {
                    v.add_assign_ref(&value_of(*r).mul_ref(w));
                }
                (roll, v, [zero.clone(), zero.clone()])
            }
            (None, Some(reroll)) => {
                let (value, trees, exp) = reroll.solve_finals(|j| {
                    state_keys[j]
                        .iter()
                        .map(|&k| resolved[place[k] as usize].value.clone())
                        .collect()
                })?;
                // The final states' weights summed by their roll, in the
                // rolls' order (their places): no sort of the states.
                let mut by_place = vec![Num::zero(); rolls.len()];
                let mut used = [Num::zero(), Num::zero()];
                for ((start, tree), keys) in reroll.starts.iter().zip(trees).zip(&state_keys) {
                    let (end, u) =
                        forward_pop(&reroll.classes, start.m, &tree, start.weights.clone())?;
                    for (s, x) in used.iter_mut().zip(u) {
                        s.add_assign_ref(&x);
                    }
                    for (&k, w) in keys.iter().zip(end) {
                        if !w.is_zero() {
                            by_place[place[k] as usize].add_assign_ref(&w);
                        }
                    }
                }
                let denom = Num::pow(6, exp);
                let used = used.map(|u| ratio(&u, &denom));
                let entries = rolls
                    .iter()
                    .zip(by_place)
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(r, w)| (*r, w))
                    .collect();
                (Joint::from_sorted(entries, denom), value, used)
            }
            (None, None) => unreachable!("a roll without Lucky or a re-roll POP"),
        };
    // The tallies: each final roll's law, weighted by its probability.
    let mut tallies = Vec::new();
    for (r, w) in final_roll.entries() {
        for (t, wt) in &of(r).tallies {
            tallies.push((*t, wt.mul_ref(w)));
        }
    }
    let scale = final_roll.denom().mul_ref(&end_denom);
    let tallies = Joint::from_pairs(tallies, scale.clone());
    crate::cancel::check()?;
    let value = ratio(&value_num, &scale) - BigRational::from_integer((offset as i64).into());
    Ok(AttackSolution {
        value,
        final_roll,
        tallies,
        lucky_used,
    })
}

/// The best guess of the number of hits when the guessing side aims its
/// re-rolls at it (Foresight: the attacker; Forewarning: the defender):
/// for each guess, the guesser's Lucky maximises P(final hits = guess) and
/// the other side's Lucky minimises it, in the same re-roll POP. Returns
/// the guess with the highest probability (the lowest guess on ties) and
/// that probability; `None` without any Lucky (aiming then changes
/// nothing).
pub(crate) fn aimed_guess(
    arena: &Fight,
    policy: &Policy,
    guesser: Side,
) -> Result<Option<(u32, BigRational)>> {
    let Some(reroll) = Reroll::of(arena, policy)? else {
        return Ok(None);
    };
    let mut best: Option<(u32, BigRational)> = None;
    for g in 0..=reroll.dice {
        // The attacker maximises the value: P(right) for Foresight, P(wrong)
        // for Forewarning.
        let right = guesser == Side::Attacking;
        let (v, _, exp) = reroll.solve(|r| {
            if (r.hits == g) == right {
                Num::one()
            } else {
                Num::zero()
            }
        })?;
        let mut p = ratio(&v, &Num::pow(6, exp));
        if !right {
            p = BigRational::from_integer(1.into()) - p;
        }
        if best.as_ref().is_none_or(|(_, b)| p > *b) {
            best = Some((g, p));
        }
    }
    Ok(best)
}

/// [`aimed_guess`] for the attack of a solved scenario, as declared.
pub(crate) fn aimed_foresight(
    game: &Game,
    outcome: &GameOutcome,
    guesser: Side,
) -> Result<Option<(u32, BigRational)>> {
    let units: Vec<&Unit> = outcome.units.iter().collect();
    let arena = Fight {
        endings: Vec::new(),
        units,
        sides: game.sides.clone(),
        defending: outcome.declared.defending,
        force: game.force,
        start: Tally::default(),
        committed: None,
        play: Play::Optimal(game.policy.objective),
        budget: std::cell::Cell::new(MAX_SEARCH_NODES),
        fast_path: true,
    };
    aimed_guess(&arena, &game.policy, guesser)
}

/// The choices made at the declare step of a scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// The unit that ended up defending (arena index).
    pub defending: usize,
    /// Whether the defending unit activated a Retaliate with a cost above
    /// 0 Force.
    pub retaliate_paid: bool,
    /// The defending unit's Retaliate abilities activated (indices into its
    /// `retaliates`), in order, with X where X is chosen.
    pub retaliates: Vec<(usize, u32)>,
    /// When another unit intercepted: the Retaliate abilities the declared
    /// defender activated (it was attacked; they resolve when the attack
    /// ends, before the interceptor's), as `retaliates` are.
    pub declared_retaliates: Vec<(usize, u32)>,
    /// The options taken before the roll: (arena index of the unit, index
    /// into its `boosts`).
    pub boosts: Vec<(usize, usize)>,
    /// Adapt texts chosen: (arena index of the unit, index into its
    /// `adapt`).
    pub adapt: Vec<(usize, usize)>,
    /// The Force the defending side paid for the defending unit's Intercept
    /// (0 when the declared defender defends, or a Redirect moved the
    /// attack).
    pub intercept_paid: u32,
}

/// A committed Deflect (up to an amount, at a unit or none; or held) and
/// its cost.
type CommittedDeflect = (Option<(u32, Option<usize>)>, u32);

/// +n power and +n health (Intimidation, Inspiration).
fn grow(u: &mut Unit, n: u32) {
    u.power = u.power.saturating_add(n);
    u.health = u.health.map(|h| h.saturating_add(n));
}

/// Most declare options (defenders x options before the roll x Retaliates)
/// one scenario may weigh.
pub(crate) const MAX_DECLARE_OPTIONS: usize = 4096;

/// A whole scenario: units (the attacker at index 0, the declared defender
/// at 1, then the others), their sides, the policy and the Force budgets.
#[derive(Clone, Debug)]
pub struct Game {
    /// The units.
    pub units: Vec<Unit>,
    /// Their sides.
    pub sides: Vec<Side>,
    /// The policy.
    pub policy: Policy,
    /// Force each side may spend in this attack (`None`: unlimited), by
    /// `side_index`. Required where a cost is X.
    pub force: [Option<u32>; 2],
}

/// The exact solution of a scenario.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// What was chosen at the declare step.
    pub declared: Declared,
    /// The solution of the attack as declared.
    pub solution: AttackSolution,
    /// The units as declared (options before the roll applied).
    pub units: Vec<Unit>,
    /// The options the defending side weighed for the defender it chose,
    /// given the attacker's choice, with their values (it picks the lowest;
    /// ties go to the earlier, cheaper option).
    pub options: Vec<(Declared, BigRational)>,
}

/// The units and budgets of one declared attack.
struct Setup {
    units: Vec<Unit>,
    force: [Option<u32>; 2],
    start: Tally,
    cancelled: bool,
}

impl Game {
    /// A scenario with the default Force budgets ([`DEFAULT_BUDGETS`]: 4 a
    /// side).
    pub fn new(units: Vec<Unit>, sides: Vec<Side>, policy: Policy) -> Game {
        Game {
            units,
            sides,
            policy,
            force: DEFAULT_BUDGETS,
        }
    }

    /// The Force the defending side pays for unit `d` to defend: its
    /// Intercept's cost when it intercepts (nothing for the declared
    /// defender, or a unit a Redirect may move the attack to).
    pub(crate) fn intercept_price(&self, d: usize) -> u32 {
        let precision = self.units[ATTACKER].keywords.precision;
        let shielded = self.units[d].keywords.evade >= crate::unit::MAX_VALUE;
        if d == DEFENDER || (!precision && self.units[DEFENDER].keywords.redirect && !shielded) {
            0
        } else {
            self.units[d].keywords.intercept_cost
        }
    }

    /// The defenders the defending side may pick: the declared one, or an
    /// interceptor (none against Precision, none while the declared
    /// defender forbids Intercept).
    pub(crate) fn defenders(&self) -> Vec<usize> {
        let mut defenders = vec![1];
        let precision = self.units[ATTACKER].keywords.precision;
        let intercept = !precision && !self.units[1].keywords.no_intercept;
        // Redirect: the attacked unit's player moves the attack to another
        // of its units that can be damaged (not one preventing all damage).
        let redirect = !precision && self.units[1].keywords.redirect;
        for (i, u) in self.units.iter().enumerate().skip(2) {
            if self.sides[i] != Side::Defending {
                continue;
            }
            let shielded = u.keywords.evade >= crate::unit::MAX_VALUE;
            if (intercept && u.keywords.intercept) || (redirect && !shielded) {
                defenders.push(i);
            }
        }
        defenders
    }

    /// Every set of options before the roll unit `i` may take with at most
    /// `left` Force (cheapest first: none).
    fn boost_sets(&self, i: usize, left: Option<u32>) -> Vec<Vec<usize>> {
        let boosts = &self.units[i].keywords.boosts;
        let mut out = Vec::new();
        for mask in 0u32..1 << boosts.len() {
            let set: Vec<usize> = (0..boosts.len()).filter(|b| mask & (1 << b) != 0).collect();
            let cost: u32 = set.iter().map(|&b| boosts[b].cost).sum();
            if left.is_none_or(|l| cost <= l) {
                out.push(set);
            }
        }
        out.sort_by_key(|set| set.iter().map(|&b| boosts[b].cost).sum::<u32>());
        out
    }

    /// The Adapt text unit `i` may choose: one of its texts, or nothing to
    /// choose.
    fn adapt_choices(&self, i: usize) -> Vec<Option<usize>> {
        let n = self.units[i].keywords.adapt.len();
        if n == 0 {
            vec![None]
        } else {
            (0..n).map(Some).collect()
        }
    }

    /// Every plan of Retaliates when `d` defends: the declared defender's
    /// (when `d` intercepted: it was attacked too, and each enemy unit may
    /// use each of its Retaliates once) and `d`'s, with at most `left`
    /// Force between them, and their cost (cheapest first: none).
    fn retaliate_plans(&self, d: usize, left: Option<u32>) -> Vec<RetaliatePlan> {
        let cost_of = |u: usize, rs: &[(usize, u32)]| -> u32 {
            let k = &self.units[u].keywords.retaliates;
            rs.iter()
                .map(|&(r, x)| if k[r].x { x } else { k[r].cost })
                .sum()
        };
        let firsts = if d != DEFENDER {
            self.retaliate_sets(DEFENDER, left)
        } else {
            vec![Vec::new()]
        };
        let mut out = Vec::new();
        for first in firsts {
            let c1 = cost_of(DEFENDER, &first);
            for rs in self.retaliate_sets(d, left.map(|l| l - c1)) {
                let c = c1 + cost_of(d, &rs);
                out.push((first.clone(), rs, c));
            }
        }
        out.sort_by_key(|(a, b, c)| (*c, std::cmp::Reverse(a.len() + b.len())));
        out
    }

    /// Every set of Retaliate abilities the defending unit `d` may activate
    /// with at most `left` Force, each with its X (cheapest first: none).
    fn retaliate_sets(&self, d: usize, left: Option<u32>) -> Vec<Vec<(usize, u32)>> {
        if self.units[ATTACKER].from_another_arena {
            // Retaliate doesn't work with attacks from another arena.
            return vec![Vec::new()];
        }
        let rs = &self.units[d].keywords.retaliates;
        let mut sets: Vec<(Vec<(usize, u32)>, u32)> = vec![(Vec::new(), 0)];
        for (i, r) in rs.iter().enumerate() {
            let mut next = sets.clone();
            for (set, cost) in &sets {
                let xs: Vec<u32> = if r.x {
                    let most = left.map_or(UNLIMITED_X_DICE, |l| l.saturating_sub(*cost));
                    (1..=most).collect()
                } else {
                    vec![r.amount]
                };
                for x in xs {
                    let c = cost + if r.x { x } else { r.cost };
                    if left.is_none_or(|l| c <= l) {
                        let mut s = set.clone();
                        s.push((i, x));
                        next.push((s, c));
                    }
                }
            }
            sets = next;
        }
        // Cheapest first; at equal cost, more Retaliates first (so that on
        // a tie a free Retaliate is activated, as printed).
        sets.sort_by_key(|(s, c)| (*c, std::cmp::Reverse(s.len())));
        sets.into_iter().map(|(s, _)| s).collect()
    }

    /// The units, budgets and starting counters of a declared attack:
    /// the options taken applied.
    fn setup(&self, declared: &Declared) -> Setup {
        let mut units = self.units.clone();
        // Intimidation and Inspiration count the units of the arena.
        for (i, u) in self.units.iter().enumerate() {
            let k = &u.keywords;
            if k.intimidation {
                let n = self.sides.iter().filter(|s| **s != self.sides[i]).count() as u32;
                grow(&mut units[i], n);
            }
            if k.inspiration {
                for (j, unit) in units.iter_mut().enumerate() {
                    if j != i && self.sides[j] == self.sides[i] {
                        grow(unit, 1);
                    }
                }
            }
        }
        for &(i, o) in &declared.adapt {
            // Refused in `check` unless every text is keywords or `None`.
            if let Some(list) = self.units[i]
                .keywords
                .adapt
                .get(o)
                .and_then(|t| crate::keywords::adapt_abilities(t).ok())
            {
                units[i].keywords.add(&list);
            }
        }
        let mut force = self.force;
        let mut start = Tally::default();
        let mut cancelled = false;
        let d = declared.defending;
        if let Some(f) = force[side_index(self.sides[d])].as_mut() {
            *f = f.saturating_sub(declared.intercept_paid);
        }
        for (u, rs) in [
            (DEFENDER, &declared.declared_retaliates),
            (d, &declared.retaliates),
        ] {
            for &(r, x) in rs {
                let p = units[u].keywords.retaliates[r];
                if let Some(f) = force[side_index(self.sides[u])].as_mut() {
                    *f -= if p.x { x } else { p.cost };
                }
            }
        }
        for &(i, b) in &declared.boosts {
            let boost = self.units[i].keywords.boosts[b].clone();
            let side = side_index(self.sides[i]);
            if let Some(f) = force[side].as_mut() {
                *f = f
                    .saturating_sub(boost.cost)
                    .saturating_add(boost.mine.force_gain);
            }
            let other = if i == ATTACKER { d } else { ATTACKER };
            for (u, change) in [(i, &boost.mine), (other, &boost.theirs)] {
                let unit = &mut units[u];
                unit.power = (unit.power as i64 + change.power as i64).max(0) as u32;
                unit.keywords.add(&change.abilities);
                unit.keywords.bonus_damage = unit
                    .keywords
                    .bonus_damage
                    .saturating_add(change.extra_damage);
                if let Some(sd) = change.self_damage {
                    unit.keywords.self_damage.push(sd);
                }
                unit.keywords.half_dice |= change.half_dice;
                cancelled |= change.cancel_attack;
                if change.counters >= 0 {
                    start.damage[u] += change.counters as u16;
                } else {
                    unit.counters = unit.counters.saturating_sub(change.counters.unsigned_abs());
                }
            }
        }
        Setup {
            units,
            force,
            start,
            cancelled,
        }
    }

    /// The arena of a declared attack, with its units as set up.
    fn arena<'u>(&self, declared: &Declared, setup: &'u Setup) -> Fight<'u> {
        let units: Vec<&Unit> = setup.units.iter().collect();
        // The declared defender's Retaliates (when another unit
        // intercepted), then the defending unit's, in the order activated.
        let retaliates: Vec<(usize, u32)> = declared
            .declared_retaliates
            .iter()
            .map(|&(_, x)| (DEFENDER, x))
            .chain(
                declared
                    .retaliates
                    .iter()
                    .map(|&(_, x)| (declared.defending, x)),
            )
            .collect();
        Fight {
            endings: Ending::of(&units, &self.sides, declared.defending, &retaliates),
            units,
            sides: self.sides.clone(),
            defending: declared.defending,
            force: setup.force,
            start: setup.start,
            committed: None,
            play: Play::Optimal(self.policy.objective),
            budget: std::cell::Cell::new(MAX_SEARCH_NODES),
            fast_path: true,
        }
    }

    /// Refuses what the solver can't weigh: a unit out of bounds, too many
    /// declare options.
    fn check(&self) -> Result<()> {
        for u in &self.units {
            u.validate()?;
        }
        for (i, u) in self.units.iter().enumerate() {
            if let Some((t, why)) = u.keywords.adapt_refused() {
                return Err(Error::not_modelled(format!(
                    "{}: Adapt text '{}'{why}",
                    u.name,
                    crate::error::quote(t)
                )));
            }
            let k = &u.keywords;
            let others_of_its_side =
                (0..self.units.len()).any(|j| j != i && self.sides[j] == self.sides[i]);
            if let Some(a) = k.unpriced.first().filter(|_| others_of_its_side) {
                return Err(Error::not_modelled(format!(
                    "{}: '{}': {} behind a Force cost, with another unit of its side in the arena, is not modelled (when it is paid); give it without its cost",
                    u.name,
                    crate::error::quote(&a.to_string()),
                    a.keyword.name()
                )));
            }
            if k.area_damage > 0
                && i == ATTACKER
                && self.units.len() > 2
                && (2..self.units.len()).any(|j| self.sides[j] == Side::Defending)
            {
                return Err(Error::not_modelled(format!(
                    "{}: Area Damage with other units in the arena (where its dice go) is not modelled; it does nothing in a duel",
                    u.name
                )));
            }
        }
        let mut options = 0usize;
        for d in self.defenders() {
            let a = self.boost_sets(ATTACKER, self.force[0]).len();
            let r = self.retaliate_plans(d, self.force[1]).len();
            let b = self.boost_sets(d, self.force[1]).len();
            options = options.saturating_add(a.saturating_mul(r).saturating_mul(b));
        }
        if options > MAX_DECLARE_OPTIONS {
            return Err(Error::limit(format!(
                "{options} ways to declare this attack (Intercept, options before the roll, Retaliates); the solver weighs at most {MAX_DECLARE_OPTIONS}"
            )));
        }
        Ok(())
    }

    /// Against an attacker with Cunning, every way the defending unit may
    /// commit its plays on the attack damage before the roll (its Deflect
    /// held, or played for its free part and any purchase of its paid parts
    /// at any unit or none; any purchase of paid Evade), with their cost;
    /// `None` when Cunning changes nothing (no such choice).
    fn commitments(&self, arena: &Fight) -> Result<Option<Vec<(crate::attack::Committed, u32)>>> {
        let a = arena.units[ATTACKER];
        let d = arena.units[arena.defending];
        let k = &d.keywords;
        let choices = k.deflect > 0 || !k.paid_deflects.is_empty() || !k.paid_evades.is_empty();
        if !a.keywords.cunning || !choices {
            return Ok(None);
        }
        let cap = u32::try_from(arena.damage_bound()).unwrap_or(u32::MAX);
        let left = arena.force[side_index(arena.sides[arena.defending])];
        let buy = |paid: &[crate::keywords::Paid], left: Option<u32>| {
            crate::attack::purchases(paid, cap, left)
        };
        let mut deflects: Vec<CommittedDeflect> = vec![(None, 0)];
        if k.deflect > 0 || !k.paid_deflects.is_empty() {
            for &(extra, cost) in buy(&k.paid_deflects, left).iter() {
                let amount = k.deflect.saturating_add(extra);
                if amount == 0 {
                    continue;
                }
                // Only at a unit of its own arena (an attacker from another
                // arena is not).
                let apart = |u: usize| arena.units[u].from_another_arena;
                let same = |t: usize| apart(t) == apart(arena.defending);
                let targets = std::iter::once(None)
                    .chain((0..arena.units.len()).filter(|&t| same(t)).map(Some));
                for t in targets {
                    deflects.push((Some((amount, t)), cost));
                }
            }
        }
        let mut out = Vec::new();
        for (deflect, dc) in deflects {
            for &(evade, ec) in buy(&k.paid_evades, left.map(|l| l - dc)).iter() {
                out.push((crate::attack::Committed { deflect, evade }, dc + ec));
            }
        }
        if out.len() > MAX_DECLARE_OPTIONS {
            return Err(Error::limit(format!(
                "{}: {} ways to commit its damage prevention against Cunning; the solver weighs at most {MAX_DECLARE_OPTIONS}",
                d.name,
                out.len()
            )));
        }
        Ok(Some(out))
    }

    /// Whether `owner` prefers declaring `a` to `b`: the better value of
    /// the objective (the attacking side maximises it); on a tie, as a
    /// player breaks it: more damage to the other side, then less to its
    /// own, then less Force spent (at the declare step and in the damage
    /// steps); on a full tie, the earlier option (`b`) stays.
    fn prefers(
        &self,
        owner: Side,
        a: (&Declared, &AttackSolution),
        b: (&Declared, &AttackSolution),
    ) -> bool {
        use std::cmp::Ordering;
        let ord = match owner {
            Side::Attacking => a.1.value.cmp(&b.1.value),
            Side::Defending => b.1.value.cmp(&a.1.value),
        };
        match ord {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => self.tie_break(owner, a) > self.tie_break(owner, b),
        }
    }

    /// What breaks a tie for `owner` (greater is better): the expected
    /// damage placed on the other side's units, on its own (less is
    /// better), and the Force it spends in all (less is better).
    fn tie_break(
        &self,
        owner: Side,
        (declared, sol): (&Declared, &AttackSolution),
    ) -> (
        BigRational,
        std::cmp::Reverse<BigRational>,
        std::cmp::Reverse<BigRational>,
    ) {
        let me = side_index(owner);
        let sides = &self.sides;
        let on = |mine: bool| {
            sol.tallies
                .marginal(|t| {
                    (0..sides.len())
                        .filter(|&i| (side_index(sides[i]) == me) == mine)
                        .map(|i| i64::from(t.damage[i]))
                        .sum()
                })
                .mean()
        };
        // Force paid at the declare step, and in the damage steps.
        let mut paid = 0u64;
        if side_index(self.sides[declared.defending]) == me {
            paid += u64::from(declared.intercept_paid);
        }
        for &(u, b) in &declared.boosts {
            if side_index(self.sides[u]) == me {
                paid += u64::from(self.units[u].keywords.boosts[b].cost);
            }
        }
        for (u, rs) in [
            (DEFENDER, &declared.declared_retaliates),
            (declared.defending, &declared.retaliates),
        ] {
            if side_index(self.sides[u]) == me {
                for &(r, x) in rs {
                    let p = self.units[u].keywords.retaliates[r];
                    paid += u64::from(if p.x { x } else { p.cost });
                }
            }
        }
        let spent = sol.tallies.marginal(|t| i64::from(t.spent[me])).mean()
            + BigRational::from_integer((paid as i64).into());
        (
            on(false),
            std::cmp::Reverse(on(true)),
            std::cmp::Reverse(spent),
        )
    }

    /// The Force each side has left once the choices of `declared` are
    /// paid (before the damage steps, whose spending the attack's tallies
    /// hold), by [`side_index`].
    pub(crate) fn force_after(&self, declared: &Declared) -> [Option<u32>; 2] {
        self.setup(declared).force
    }

    /// Solves one declared attack.
    fn solve_declared(&self, declared: &Declared) -> Result<(AttackSolution, Vec<Unit>)> {
        let setup = self.setup(declared);
        for u in &setup.units {
            // Options before the roll may push a number past its bound.
            u.validate()?;
        }
        let arena = self.arena(declared, &setup);
        let sol = if setup.cancelled {
            // Disrupted: nothing of the attack happens.
            let objective = self.policy.objective;
            AttackSolution {
                value: BigRational::from_integer(
                    arena.objective_value(objective, &setup.start).into(),
                ),
                final_roll: Joint::point(Roll::default()),
                tallies: Joint::point(setup.start),
                lucky_used: [
                    BigRational::from_integer(0.into()),
                    BigRational::from_integer(0.into()),
                ],
            }
        } else if let Some(commitments) = self.commitments(&arena)? {
            // Cunning: the defending unit commits to its plays on the attack
            // damage before the roll (paying then); it takes the best.
            let mut best: Option<AttackSolution> = None;
            for (c, cost) in commitments {
                let mut a = arena.clone();
                a.committed = Some(c);
                a.start.spent[side_index(self.sides[declared.defending])] += cost;
                a.budget = std::cell::Cell::new(MAX_SEARCH_NODES);
                let sol = solve_attack(&a, &self.policy)?;
                if best
                    .as_ref()
                    .is_none_or(|b| self.prefers(Side::Defending, (declared, &sol), (declared, b)))
                {
                    best = Some(sol);
                }
            }
            best.expect("holding everything is a commitment")
        } else {
            solve_attack(&arena, &self.policy)?
        };
        drop(arena);
        Ok((sol, setup.units))
    }
}

/// Solves a scenario exactly. The declare step is played in this order,
/// each choice knowing the earlier ones: the defending side picks the
/// defender (or an interceptor); the attacker takes its options before the
/// roll; the defending side activates any of its Retaliates and takes its
/// defending unit's options. The attacker maximises, the defending side
/// minimises, each option solved exactly.
pub fn solve(game: &Game) -> Result<GameOutcome> {
    game.check()?;
    let mut best: Option<GameOutcome> = None;
    for d in game.defenders() {
        // An interceptor's side pays its Intercept first: one it can't pay
        // for doesn't intercept.
        let price = game.intercept_price(d);
        if game.force[1].is_some_and(|f| f < price) {
            continue;
        }
        let defending_force = game.force[1].map(|f| f - price);
        let mut best_att: Option<GameOutcome> = None;
        for (ab, aa) in game
            .boost_sets(ATTACKER, game.force[0])
            .into_iter()
            .flat_map(|b| {
                game.adapt_choices(ATTACKER)
                    .into_iter()
                    .map(move |a| (b.clone(), a))
            })
        {
            let mut options = Vec::new();
            let mut best_resp: Option<(Declared, AttackSolution, Vec<Unit>)> = None;
            for (first, rs, rcost) in game.retaliate_plans(d, defending_force) {
                let rk = &game.units[d].keywords.retaliates;
                let fk = &game.units[DEFENDER].keywords.retaliates;
                for (db, da) in game
                    .boost_sets(d, defending_force.map(|l| l - rcost))
                    .into_iter()
                    .flat_map(|b| {
                        game.adapt_choices(d)
                            .into_iter()
                            .map(move |a| (b.clone(), a))
                    })
                {
                    let declared = Declared {
                        adapt: aa
                            .iter()
                            .map(|&o| (ATTACKER, o))
                            .chain(da.iter().map(|&o| (d, o)))
                            .collect(),
                        defending: d,
                        retaliate_paid: rs
                            .iter()
                            .any(|&(r, x)| rk[r].cost > 0 || (rk[r].x && x > 0))
                            || first
                                .iter()
                                .any(|&(r, x)| fk[r].cost > 0 || (fk[r].x && x > 0)),
                        retaliates: rs.clone(),
                        declared_retaliates: first.clone(),
                        boosts: ab
                            .iter()
                            .map(|&b| (ATTACKER, b))
                            .chain(db.iter().map(|&b| (d, b)))
                            .collect(),
                        intercept_paid: price,
                    };
                    crate::cancel::check()?;
                    let (sol, units) = game.solve_declared(&declared)?;
                    options.push((declared.clone(), sol.value.clone()));
                    if best_resp.as_ref().is_none_or(|(bd, b, _)| {
                        game.prefers(Side::Defending, (&declared, &sol), (bd, b))
                    }) {
                        best_resp = Some((declared, sol, units));
                    }
                }
            }
            let (declared, solution, units) =
                best_resp.expect("declining everything is always an option");
            if best_att.as_ref().is_none_or(|b| {
                game.prefers(
                    Side::Attacking,
                    (&declared, &solution),
                    (&b.declared, &b.solution),
                )
            }) {
                best_att = Some(GameOutcome {
                    declared,
                    solution,
                    units,
                    options,
                });
            }
        }
        let outcome = best_att.expect("taking no option is always an option");
        if best.as_ref().is_none_or(|b| {
            game.prefers(
                Side::Defending,
                (&outcome.declared, &outcome.solution),
                (&b.declared, &b.solution),
            )
        }) {
            best = Some(outcome);
        }
    }
    Ok(best.expect("the declared defender is always an option"))
}

mod states;
pub(crate) use states::CLASSES;
use states::Simplex;
pub(crate) use states::{FaceClasses, State};
mod lucky;
pub(crate) use lucky::lucky_work;
use lucky::{Reroll, forward_pop};

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys order as rolls do, and a key gives its roll back: every roll of
    /// up to 5 hits with every flag.
    #[test]
    fn roll_keys_order_as_rolls_do() {
        let rolls: Vec<Roll> = (0..6 << 5).map(roll_of_key).collect();
        for (k, r) in rolls.iter().enumerate() {
            assert_eq!(roll_key(r), k, "{r:?}");
        }
        for w in rolls.windows(2) {
            assert!(w[0] < w[1], "{:?} {:?}", w[0], w[1]);
        }
        let mut sorted = rolls.clone();
        sorted.reverse();
        sorted.sort();
        assert_eq!(sorted, rolls);
    }
}
