//! Players' choices, played exactly.
//!
//! Lucky (the re-roll POP) is solved here; the choices inside the damage
//! steps (Overkill's split, Deflect and its target, paid Evade) are solved by
//! the attack pipeline under [`Play::Optimal`]; the declare-step choices
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
    ATTACKER, Arena, MAX_SEARCH_NODES, Objective, Play, Resolved, Side, Strike, Tally, attack_dice,
};
use crate::dice::{Roll, attack_roll, hit_threshold};
use crate::dist::{Joint, Num, Weight, ratio};
use crate::error::{Error, Result};
use crate::unit::Unit;
use num_rational::BigRational;
use std::collections::HashMap;

/// How the Lucky re-rolls are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuckyPolicy {
    /// Each side picks the re-rolls that serve its objective, knowing the
    /// other side's Lucky is still to come (exact expectimax).
    Optimal,
    /// The web calculator's play: the attacker re-rolls up to X missed dice,
    /// natural 1s first; the defender forces up to X hitting dice to be
    /// re-rolled, natural 6s first.
    Simple,
}

/// Which side's Lucky comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuckyOrder {
    /// The attacker re-rolls, then the defender.
    AttackerFirst,
    /// The defender forces re-rolls, then the attacker.
    DefenderFirst,
}

/// The policy of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// What the attacking side maximises and the defending side minimises.
    pub objective: Objective,
    /// How Lucky is played.
    pub lucky: LuckyPolicy,
    /// Whose Lucky comes first.
    pub lucky_order: LuckyOrder,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            objective: Objective::Damage,
            lucky: LuckyPolicy::Optimal,
            lucky_order: LuckyOrder::AttackerFirst,
        }
    }
}

/// Most (states × re-roll choices) one Lucky stage may examine.
pub const MAX_LUCKY_WORK: u64 = 200_000_000;
/// Most values one Lucky stage may hold at once (states × (re-rolls + 2)),
/// which keeps memory well under 1 GiB.
pub const MAX_LUCKY_VALUES: u64 = 4_500_000;

/// The classes of faces that matter after the roll: 0 a natural 1, 1 a
/// natural 6, 2 another hitting face, 3 another missing face.
#[derive(Clone, Copy, Debug)]
pub struct FaceClasses {
    /// Faces of a d6 in each class.
    pub faces: [u64; 4],
    /// Whether a die in each class hits.
    pub hits: [bool; 4],
}

impl FaceClasses {
    /// The classes for dice hitting on natural `threshold`+.
    pub fn new(threshold: i32) -> FaceClasses {
        let a = (2..=5).filter(|&f| f >= threshold).count() as u64;
        FaceClasses {
            faces: [1, 1, a, 4 - a],
            hits: [1 >= threshold, 6 >= threshold, true, false],
        }
    }

    /// What the rules read from a state.
    pub fn roll(&self, c: &[u32; 4]) -> Roll {
        Roll {
            hits: (0..4).filter(|&i| self.hits[i]).map(|i| c[i]).sum(),
            one: c[0] > 0,
            six: c[1] > 0,
        }
    }
}

/// The states of `m` dice (counts per class summing to `m`), densely ranked.
#[derive(Clone, Debug)]
struct Simplex {
    m: u32,
    /// `first[c0]`: rank of the first state with that many natural 1s.
    first: Vec<usize>,
    len: usize,
}

impl Simplex {
    fn new(m: u32) -> Simplex {
        let mut first = Vec::with_capacity(m as usize + 2);
        let mut acc = 0usize;
        for c0 in 0..=m as usize {
            first.push(acc);
            let k = m as usize - c0;
            acc += (k + 1) * (k + 2) / 2;
        }
        Simplex { m, first, len: acc }
    }

    fn rank(&self, c: &[u32; 4]) -> usize {
        let k = (self.m - c[0]) as usize;
        let c1 = c[1] as usize;
        self.first[c[0] as usize] + c1 * (k + 1) - c1 * c1.saturating_sub(1) / 2 + c[2] as usize
    }

    /// Every state, in rank order.
    fn states(&self) -> Vec<[u32; 4]> {
        let m = self.m;
        let mut out = Vec::with_capacity(self.len);
        for c0 in 0..=m {
            for c1 in 0..=m - c0 {
                for c2 in 0..=m - c0 - c1 {
                    out.push([c0, c1, c2, m - c0 - c1 - c2]);
                }
            }
        }
        debug_assert!(out.iter().enumerate().all(|(i, c)| self.rank(c) == i));
        out
    }
}

/// Every way `r` fresh dice fall into the classes, with its number of face
/// sequences (summing to `6^r`).
fn outcomes(classes: &FaceClasses, r: u32) -> Vec<([u32; 4], Num)> {
    let states = Simplex::new(r).states();
    states
        .into_iter()
        .map(|o| {
            let w = multinomial(r, &o).mul_ref(&class_weight(classes, &o));
            (o, w)
        })
        .filter(|(_, w)| !w.is_zero())
        .collect()
}

/// `m! / (c0! c1! c2! c3!)`.
fn multinomial(m: u32, c: &[u32; 4]) -> Num {
    let mut acc = Num::one();
    let mut left = m as u64;
    for &k in &c[..3] {
        // acc *= C(left, k), exactly, one factor at a time.
        let mut b = Num::one();
        for i in 0..k as u64 {
            b = b.mul_u64(left - i).div_exact(&Num::from_u64(i + 1));
        }
        acc = acc.mul_ref(&b);
        left -= k as u64;
    }
    acc
}

/// `Π faces_i ^ c_i`.
fn class_weight(classes: &FaceClasses, c: &[u32; 4]) -> Num {
    let mut w = Num::one();
    for (&faces, &k) in classes.faces.iter().zip(c) {
        w = w.mul_ref(&Num::pow(faces, k));
    }
    w
}

/// A side's re-roll choice in one state: how many dice of each class.
pub type Choice = [u32; 4];

/// The simple (web calculator) choice of `side` with Lucky `x` in state `c`
/// (dice per class, see [`FaceClasses`]): the attacker re-rolls missed dice,
/// natural 1s first, then other misses, then missed 6s; the defender forces
/// hitting dice, natural 6s first, then other hits, then hitting 1s.
///
/// ```
/// use swtcg_odds::attack::Side;
/// use swtcg_odds::policy::{simple_choice, FaceClasses};
/// let classes = FaceClasses::new(4); // hits on 4+
/// // A missed 1 and another miss: the attacker's Lucky 1 takes the 1.
/// assert_eq!(simple_choice(&classes, Side::Attacking, 1, &[1, 0, 0, 1]), [1, 0, 0, 0]);
/// // A 6 and another hit: the defender's Lucky 1 takes the 6.
/// assert_eq!(simple_choice(&classes, Side::Defending, 1, &[0, 1, 1, 0]), [0, 1, 0, 0]);
/// ```
pub fn simple_choice(classes: &FaceClasses, side: Side, x: u32, c: &[u32; 4]) -> Choice {
    // Classes in the order the side re-rolls them.
    let order: Vec<usize> = match side {
        Side::Attacking => [0, 3, 1]
            .into_iter()
            .filter(|&i| !classes.hits[i])
            .collect(),
        Side::Defending => [1, 2, 0].into_iter().filter(|&i| classes.hits[i]).collect(),
    };
    let mut left = x;
    let mut d = [0; 4];
    for i in order {
        let k = c[i].min(left);
        d[i] = k;
        left -= k;
    }
    d
}

/// One Lucky stage over the states of `m` dice: for each state, the side's
/// choice and the stage's value (`6^x` times the expected next value).
struct Stage {
    value: Vec<Num>,
    choice: Vec<Choice>,
}

fn lucky_stage(
    classes: &FaceClasses,
    m: u32,
    x: u32,
    side: Side,
    lucky: LuckyPolicy,
    next: &[Num],
) -> Stage {
    let top = Simplex::new(m);
    let states = top.states();
    // g[r]: over the states of m − r dice.
    let mut g: Vec<Vec<Num>> = vec![next.to_vec()];
    let mut simplices = vec![top.clone()];
    for r in 1..=x.min(m) {
        let sx = Simplex::new(m - r);
        let above = &simplices[r as usize - 1];
        let prev = &g[r as usize - 1];
        let vals = sx
            .states()
            .iter()
            .map(|k| {
                let mut acc = Num::zero();
                for class in 0..4 {
                    if classes.faces[class] == 0 {
                        continue;
                    }
                    let mut up = *k;
                    up[class] += 1;
                    acc.add_assign_ref(&prev[above.rank(&up)].mul_u64(classes.faces[class]));
                }
                acc
            })
            .collect();
        g.push(vals);
        simplices.push(sx);
    }
    let pow6: Vec<Num> = (0..=x).map(|e| Num::pow(6, e)).collect();
    let eval = |c: &[u32; 4], d: &Choice| -> Num {
        let r: u32 = d.iter().sum();
        let kept = [c[0] - d[0], c[1] - d[1], c[2] - d[2], c[3] - d[3]];
        g[r as usize][simplices[r as usize].rank(&kept)].mul_ref(&pow6[(x - r) as usize])
    };
    let mut value = Vec::with_capacity(states.len());
    let mut choice = Vec::with_capacity(states.len());
    for c in &states {
        let (v, d) = match lucky {
            LuckyPolicy::Simple => {
                let d = simple_choice(classes, side, x, c);
                (eval(c, &d), d)
            }
            LuckyPolicy::Optimal => {
                let mut best = (eval(c, &[0; 4]), [0; 4]);
                for d0 in 0..=c[0].min(x) {
                    for d1 in 0..=c[1].min(x - d0) {
                        for d2 in 0..=c[2].min(x - d0 - d1) {
                            for d3 in 0..=c[3].min(x - d0 - d1 - d2) {
                                let d = [d0, d1, d2, d3];
                                if d == [0; 4] {
                                    continue;
                                }
                                let v = eval(c, &d);
                                let better = match side {
                                    Side::Attacking => v > best.0,
                                    Side::Defending => v < best.0,
                                };
                                if better {
                                    best = (v, d);
                                }
                            }
                        }
                    }
                }
                best
            }
        };
        value.push(v);
        choice.push(d);
    }
    Stage { value, choice }
}

/// Pushes a state distribution through one stage's choices: the new
/// distribution (denominator times `6^x`) and the weight of the states in
/// which the side re-rolled at least one die.
fn forward(
    classes: &FaceClasses,
    m: u32,
    x: u32,
    dist: &[Num],
    choice: &[Choice],
) -> (Vec<Num>, Num) {
    let simplex = Simplex::new(m);
    let states = simplex.states();
    let outs: Vec<Vec<([u32; 4], Num)>> = (0..=x.min(m)).map(|r| outcomes(classes, r)).collect();
    let pow6: Vec<Num> = (0..=x).map(|e| Num::pow(6, e)).collect();
    let mut next = vec![Num::zero(); simplex.len];
    let mut used = Num::zero();
    for (i, c) in states.iter().enumerate() {
        let w = &dist[i];
        if w.is_zero() {
            continue;
        }
        let d = &choice[i];
        let r: u32 = d.iter().sum();
        if r > 0 {
            used.add_assign_ref(w);
        }
        let base = w.mul_ref(&pow6[(x - r) as usize]);
        for (o, wo) in &outs[r as usize] {
            let s = [
                c[0] - d[0] + o[0],
                c[1] - d[1] + o[1],
                c[2] - d[2] + o[2],
                c[3] - d[3] + o[3],
            ];
            next[simplex.rank(&s)].add_assign_ref(&base.mul_ref(wo));
        }
    }
    (next, used)
}

/// Refuses a Lucky stage that would examine more than [`MAX_LUCKY_WORK`]
/// (state, choice) pairs — `C(m+3, 3)` states of `m` dice times `C(x+4, 4)`
/// ways to pick up to `x` dice to re-roll — or hold more than
/// [`MAX_LUCKY_VALUES`] values.
fn check_lucky_work(unit: &str, x: u32, m: u32, lucky: LuckyPolicy) -> Result<()> {
    let (m, x) = (m as u64, x as u64);
    let states = (m + 1) * (m + 2) * (m + 3) / 6;
    let choices = match lucky {
        LuckyPolicy::Optimal => (x + 1) * (x + 2) * (x + 3) * (x + 4) / 24,
        LuckyPolicy::Simple => 1,
    };
    if states.saturating_mul(choices) > MAX_LUCKY_WORK {
        return Err(Error::input(format!(
            "{unit}: Lucky {x} over {m} attack dice is beyond the solver's bound ({states} states x {choices} choices > {MAX_LUCKY_WORK})"
        )));
    }
    if states.saturating_mul(x + 2) > MAX_LUCKY_VALUES {
        return Err(Error::input(format!(
            "{unit}: Lucky {x} over {m} attack dice is beyond the solver's memory bound ({states} states x {} values > {MAX_LUCKY_VALUES})",
            x + 2
        )));
    }
    Ok(())
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

/// Solves one attack in `arena` (whose play must be optimal, on the
/// policy's objective) under `policy`'s Lucky.
pub fn solve_attack(arena: &Arena, policy: &Policy) -> Result<AttackSolution> {
    let a = arena.units[ATTACKER];
    let d = arena.units[arena.defending];
    let n = attack_dice(a, d);
    let fury = a.keywords.fury;
    let crit = a.keywords.crit;
    let luck = [a.keywords.lucky, d.keywords.lucky];
    let classes = FaceClasses::new(hit_threshold(a.keywords.accuracy, d.keywords.armor));
    // Whose Lucky comes first, and how many dice each re-rolls; refused
    // before any work when beyond the bounds.
    let (order, xs) = match policy.lucky_order {
        LuckyOrder::AttackerFirst => ([Side::Attacking, Side::Defending], [luck[0], luck[1]]),
        LuckyOrder::DefenderFirst => ([Side::Defending, Side::Attacking], [luck[1], luck[0]]),
    };
    if luck != [0, 0] {
        for (&x, side) in xs.iter().zip(order) {
            let name = if side == Side::Attacking {
                &a.name
            } else {
                &d.name
            };
            check_lucky_work(name, x, n + fury, policy.lucky)?;
        }
    }
    // Every final roll that can occur: from the roll itself, or from any
    // state of the dice after Lucky.
    let plain_roll = (luck == [0, 0])
        .then(|| attack_roll::<Num>(n, a.keywords.accuracy, d.keywords.armor, fury));
    let starts = if luck == [0, 0] {
        Vec::new()
    } else {
        initial_states(&classes, n, fury)
    };
    let mut rolls: Vec<Roll> = match &plain_roll {
        Some(r) => r.entries().iter().map(|e| e.0).collect(),
        None => starts
            .iter()
            .flat_map(|(m, _)| {
                Simplex::new(*m)
                    .states()
                    .into_iter()
                    .map(|c| classes.roll(&c))
            })
            .collect(),
    };
    rolls.sort_unstable();
    rolls.dedup();
    // The damage steps, once per distinct final roll, in one search: its
    // value, and the law of its tallies (over 6^retaliate).
    let strikes: Vec<Strike> = rolls.iter().map(|r| Strike::from_roll(r, crit)).collect();
    let memo: HashMap<Roll, Resolved> = rolls
        .into_iter()
        .zip(arena.resolve_optimal(&strikes)?)
        .collect();
    let value_of = |roll: Roll| -> Num { memo[&roll].value.clone() };
    let ret_denom = Num::pow(6, arena.retaliate);
    let offset = arena.value_offset();
    let zero = BigRational::from_integer(0.into());
    let (final_roll, value_num, lucky_used): (Joint<Roll, Num>, Num, [BigRational; 2]) =
        if luck == [0, 0] {
            let roll = plain_roll.expect("computed without Lucky");
            let mut v = Num::zero();
            for (r, w) in roll.entries() {
                v.add_assign_ref(&value_of(*r).mul_ref(w));
            }
            (roll, v, [zero.clone(), zero.clone()])
        } else {
            let mut value = Num::zero();
            let mut pairs: Vec<(Roll, Num)> = Vec::new();
            let mut used = [Num::zero(), Num::zero()];
            for (m, start) in starts {
                let simplex = Simplex::new(m);
                let states = simplex.states();
                let finals: Vec<Num> = states.iter().map(|c| value_of(classes.roll(c))).collect();
                let second = lucky_stage(&classes, m, xs[1], order[1], policy.lucky, &finals);
                let first = lucky_stage(&classes, m, xs[0], order[0], policy.lucky, &second.value);
                for (w, v) in start.iter().zip(&first.value) {
                    value.add_assign_ref(&w.mul_ref(v));
                }
                let (mid, used0) = forward(&classes, m, xs[0], &start, &first.choice);
                let (end, used1) = forward(&classes, m, xs[1], &mid, &second.choice);
                // Over 6^(n+fury) and 6^(n+fury+x0): scaled to the final denominator.
                let scaled = [
                    used0.mul_ref(&Num::pow(6, xs[0] + xs[1])),
                    used1.mul_ref(&Num::pow(6, xs[1])),
                ];
                for (u, side) in scaled.iter().zip(order) {
                    used[if side == Side::Attacking { 0 } else { 1 }].add_assign_ref(u);
                }
                for (c, w) in states.iter().zip(end) {
                    if !w.is_zero() {
                        pairs.push((classes.roll(c), w));
                    }
                }
            }
            let denom = Num::pow(6, n + fury + xs[0] + xs[1]);
            let used = used.map(|u| ratio(&u, &denom));
            (Joint::from_pairs(pairs, denom), value, used)
        };
    // The tallies: each final roll's law, weighted by its probability.
    let mut tallies = Vec::new();
    for (r, w) in final_roll.entries() {
        for (t, wt) in &memo[r].tallies {
            tallies.push((*t, wt.mul_ref(w)));
        }
    }
    let tallies = Joint::from_pairs(tallies, final_roll.denom().mul_ref(&ret_denom));
    let scale = final_roll.denom().mul_ref(&ret_denom);
    let value = ratio(&value_num, &scale) - BigRational::from_integer((offset as i64).into());
    Ok(AttackSolution {
        value,
        final_roll,
        tallies,
        lucky_used,
    })
}

/// The law of the class states after the roll (Fury included): for each
/// number of dice `m` (`n`, and `n + fury` when a natural 4 adds dice), the
/// weights of the states of `m` dice, all over `6^(n + fury)`.
fn initial_states(classes: &FaceClasses, n: u32, fury: u32) -> Vec<(u32, Vec<Num>)> {
    let plain = Simplex::new(n);
    let states = plain.states();
    let all: Vec<Num> = states
        .iter()
        .map(|c| multinomial(n, c).mul_ref(&class_weight(classes, c)))
        .collect();
    if fury == 0 {
        return vec![(n, all)];
    }
    // The 4 is one of the faces of class 2 (if it hits) or 3 (if it misses);
    // a state without any 4 has one face fewer in that class.
    let four = four_class(classes);
    let mut without = *classes;
    without.faces[four] -= 1;
    let scale = Num::pow(6, fury);
    let mut no_fury = Vec::with_capacity(states.len());
    let mut fury_states = vec![Num::zero(); Simplex::new(n + fury).len];
    let big = Simplex::new(n + fury);
    let extra = outcomes(classes, fury);
    for (c, w) in states.iter().zip(&all) {
        let w0 = multinomial(n, c).mul_ref(&class_weight(&without, c));
        let mut w4 = w.clone();
        w4.sub_assign_ref(&w0);
        no_fury.push(w0.mul_ref(&scale));
        if w4.is_zero() {
            continue;
        }
        for (o, wo) in &extra {
            let s = [c[0] + o[0], c[1] + o[1], c[2] + o[2], c[3] + o[3]];
            fury_states[big.rank(&s)].add_assign_ref(&w4.mul_ref(wo));
        }
    }
    vec![(n, no_fury), (n + fury, fury_states)]
}

/// The class of a natural 4: 2 if it hits, 3 if it misses.
fn four_class(classes: &FaceClasses) -> usize {
    // Classes 2 and 3 split the faces 2..=5 at the threshold: the hitting
    // ones are the top `faces[2]` of them.
    let lowest_hitting = 6 - classes.faces[2];
    if 4 >= lowest_hitting { 2 } else { 3 }
}

/// The choices made at the declare step of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The unit that ended up defending (arena index).
    pub defending: usize,
    /// Whether the defending unit paid for its Retaliate.
    pub retaliate_paid: bool,
}

/// A whole scenario: units (the attacker at index 0, the declared defender
/// at 1, then the others), their sides, and the policy.
#[derive(Clone, Debug)]
pub struct Game {
    /// The units.
    pub units: Vec<Unit>,
    /// Their sides.
    pub sides: Vec<Side>,
    /// The policy.
    pub policy: Policy,
}

/// The exact solution of a scenario.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// What was chosen at the declare step.
    pub declared: Declared,
    /// The solution of the attack as declared.
    pub solution: AttackSolution,
    /// Every declare option with its value (the defending side picks the
    /// lowest; ties go to the earlier, cheaper option).
    pub options: Vec<(Declared, BigRational)>,
}

impl Game {
    /// The arena of a declared attack.
    pub fn arena(&self, declared: &Declared) -> Arena<'_> {
        let d = &self.units[declared.defending];
        let k = &d.keywords;
        Arena {
            units: self.units.iter().collect(),
            sides: self.sides.clone(),
            defending: declared.defending,
            retaliate: k.retaliate
                - if declared.retaliate_paid {
                    0
                } else {
                    k.paid_retaliate
                },
            play: Play::Optimal(self.policy.objective),
            budget: std::cell::Cell::new(MAX_SEARCH_NODES),
        }
    }

    /// Every legal declare option, cheapest first: the declared defender or
    /// an interceptor (none against Precision), paying for Retaliate or not.
    pub fn declare_options(&self) -> Vec<Declared> {
        let mut defenders = vec![1];
        if !self.units[ATTACKER].keywords.precision {
            for (i, u) in self.units.iter().enumerate().skip(2) {
                if self.sides[i] == Side::Defending && u.keywords.intercept {
                    defenders.push(i);
                }
            }
        }
        let mut out = Vec::new();
        for d in defenders {
            out.push(Declared {
                defending: d,
                retaliate_paid: false,
            });
            if self.units[d].keywords.paid_retaliate > 0 {
                out.push(Declared {
                    defending: d,
                    retaliate_paid: true,
                });
            }
        }
        out
    }
}

/// Solves a scenario exactly: every declare option is solved, and the
/// defending side takes the one with the lowest value.
pub fn solve(game: &Game) -> Result<GameOutcome> {
    for u in &game.units {
        u.validate()?;
    }
    let mut options = Vec::new();
    let mut best: Option<(Declared, AttackSolution)> = None;
    for declared in game.declare_options() {
        let sol = solve_attack(&game.arena(&declared), &game.policy)?;
        options.push((declared.clone(), sol.value.clone()));
        if best.as_ref().is_none_or(|(_, b)| sol.value < b.value) {
            best = Some((declared, sol));
        }
    }
    let (declared, solution) = best.expect("the declared defender is always an option");
    Ok(GameOutcome {
        declared,
        solution,
        options,
    })
}
