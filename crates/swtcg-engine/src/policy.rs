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
    ATTACKER, Ending, Fight, MAX_SEARCH_NODES, Objective, Play, Resolved, Side, Strike, Tally,
    attack_dice, side_index, track,
};
use crate::dice::{Roll, Track, attack_roll_tracking, hit_threshold};
use crate::dist::{Joint, Num, Weight, ratio};
use crate::error::{Error, Result};
use crate::unit::Unit;
use num_rational::BigRational;
use std::collections::HashMap;
use std::sync::Arc;

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
    pub fn played(self, lucky: LuckyPolicy) -> LuckyOrder {
        match (self, lucky) {
            (LuckyOrder::Pop, LuckyPolicy::Simple) => LuckyOrder::AttackerFirst,
            (LuckyOrder::PopDefenderFirst, LuckyPolicy::Simple) => LuckyOrder::DefenderFirst,
            (o, _) => o,
        }
    }
}

/// The most Force a side pays for one cost of X when it has no Force budget
/// (no `--force-attacker` / `--force-defender`, no `"force"` in a file): X
/// is chosen by its owner, as it serves, from 1 to this. Four is a turn's
/// usual Force; a budget given overrides it.
pub const DEFAULT_X_FORCE: u32 = 4;

/// Whether any unit of `units` on a side without a Force budget has a cost
/// of X (it is then priced by [`DEFAULT_X_FORCE`]).
pub fn x_default_applies(units: &[Unit], sides: &[Side], force: [Option<u32>; 2]) -> bool {
    units.iter().zip(sides).any(|(u, s)| {
        let k = &u.keywords;
        force[side_index(*s)].is_none()
            && k.paid_evades
                .iter()
                .chain(&k.paid_deflects)
                .chain(&k.retaliates)
                .any(|p| p.x)
    })
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

/// Most (states × re-roll choices) one Lucky stage may examine.
pub const MAX_LUCKY_WORK: u64 = 200_000_000;
/// Most values one Lucky stage may hold at once (states × (re-rolls + 2)),
/// which keeps memory well under 1 GiB.
pub const MAX_LUCKY_VALUES: u64 = 4_500_000;

/// Most classes of faces a roll state tells apart.
pub const CLASSES: usize = 5;

/// How many dice of a roll show each class of face (see [`FaceClasses`]);
/// unused classes hold 0.
pub type State = [u32; CLASSES];

/// The classes of faces that matter after the roll: 0 a natural 1, 1 a
/// natural 6, 2 another hitting face, 3 another missing face, and, when
/// natural 2s are tracked (Riposte reads them in the final roll), 4 a
/// natural 2 (then not in class 2 or 3).
#[derive(Clone, Copy, Debug)]
pub struct FaceClasses {
    /// Faces of a d6 in each class.
    pub faces: [u64; CLASSES],
    /// Whether a die in each class hits.
    pub hits: [bool; CLASSES],
    /// Classes in use: 4, or 5 with natural 2s tracked.
    pub k: usize,
    /// The natural face dice need to hit.
    pub threshold: i32,
}

impl FaceClasses {
    /// The classes for dice hitting on natural `threshold`+.
    pub fn new(threshold: i32) -> FaceClasses {
        FaceClasses::tracking(threshold, false)
    }

    /// The classes for dice hitting on natural `threshold`+, with natural
    /// 2s in a class of their own when `two`.
    pub fn tracking(threshold: i32, two: bool) -> FaceClasses {
        let others = (2..=5).filter(|&f| !(two && f == 2));
        let a = others.clone().filter(|&f| f >= threshold).count() as u64;
        let b = others.count() as u64 - a;
        FaceClasses {
            faces: [1, 1, a, b, u64::from(two)],
            hits: [1 >= threshold, 6 >= threshold, true, false, 2 >= threshold],
            k: if two { 5 } else { 4 },
            threshold,
        }
    }

    /// The class of a natural face.
    pub fn class_of(&self, face: i32) -> usize {
        match face {
            1 => 0,
            6 => 1,
            2 if self.k == 5 => 4,
            f if f >= self.threshold => 2,
            _ => 3,
        }
    }

    /// What the rules read from a state (the flags of the roll before
    /// re-rolls are added by the caller).
    pub fn roll(&self, c: &State) -> Roll {
        Roll {
            hits: (0..self.k).filter(|&i| self.hits[i]).map(|i| c[i]).sum(),
            one: c[0] > 0,
            six: c[1] > 0,
            two: self.k == 5 && c[4] > 0,
            ..Roll::default()
        }
    }
}

/// `C(n + j − 1, j − 1)`: the states of `n` dice in `j` classes.
fn states_of(n: u32, j: usize) -> usize {
    let n = n as usize;
    match j {
        1 => 1,
        2 => n + 1,
        3 => (n + 1) * (n + 2) / 2,
        4 => (n + 1) * (n + 2) * (n + 3) / 6,
        _ => (n + 1) * (n + 2) * (n + 3) / 6 * (n + 4) / 4,
    }
}

/// The states of `m` dice in `k` classes (4 or 5; counts summing to `m`),
/// densely ranked in lexicographic order.
#[derive(Clone, Debug)]
struct Simplex {
    m: u32,
    k: usize,
    /// `first[c0]`: the rank of the first state with `c0` dice in class 0.
    first: Vec<usize>,
    len: usize,
}

impl Simplex {
    fn new(m: u32, k: usize) -> Simplex {
        debug_assert!(k == 4 || k == CLASSES);
        let mut first = Vec::with_capacity(m as usize + 2);
        let mut acc = 0usize;
        for c0 in 0..=m {
            first.push(acc);
            acc += states_of(m - c0, k - 1);
        }
        Simplex {
            m,
            k,
            first,
            len: acc,
        }
    }

    /// The rank of a state: the states before it, class by class (those
    /// with the same earlier counts and fewer dice in the class), in closed
    /// form: `Σ_{v < c} S(n − v, j) = S(n, j + 1) − S(n − c, j + 1)`.
    #[inline]
    fn rank(&self, c: &State) -> usize {
        if self.k == CLASSES {
            self.rank_k::<CLASSES>(c)
        } else {
            self.rank_k::<4>(c)
        }
    }

    /// [`Self::rank`] for `K` classes (the simplex's own).
    #[inline(always)]
    fn rank_k<const K: usize>(&self, c: &State) -> usize {
        let mut r = self.first[c[0] as usize];
        let mut left = self.m - c[0];
        let mut i = 1;
        if K == CLASSES {
            r += states_of(left, 4) - states_of(left - c[1], 4);
            left -= c[1];
            i = 2;
        }
        r + states_of(left, 3) - states_of(left - c[i], 3) + c[i + 1] as usize
    }

    /// Every state, in rank order.
    fn states(&self) -> Vec<State> {
        let m = self.m;
        let mut out = Vec::with_capacity(self.len);
        for c0 in 0..=m {
            for c1 in 0..=m - c0 {
                let l1 = m - c0 - c1;
                if self.k == CLASSES {
                    for c2 in 0..=l1 {
                        for c3 in 0..=l1 - c2 {
                            out.push([c0, c1, c2, c3, l1 - c2 - c3]);
                        }
                    }
                } else {
                    for c2 in 0..=l1 {
                        out.push([c0, c1, c2, l1 - c2, 0]);
                    }
                }
            }
        }
        debug_assert!(out.iter().enumerate().all(|(i, c)| self.rank(c) == i));
        out
    }
}

/// Every way `r` fresh dice fall into the classes, with its number of face
/// sequences (summing to `6^r`).
fn outcomes(classes: &FaceClasses, r: u32) -> Vec<(State, Num)> {
    let states = Simplex::new(r, classes.k).states();
    states
        .into_iter()
        .map(|o| {
            let w = multinomial(r, &o).mul_ref(&class_weight(&classes.faces, &o));
            (o, w)
        })
        .filter(|(_, w)| !w.is_zero())
        .collect()
}

/// `m! / (c0! c1! ...)`.
fn multinomial(m: u32, c: &State) -> Num {
    let mut acc = Num::one();
    let mut left = m as u64;
    for &k in &c[..CLASSES - 1] {
        if k as u64 == left {
            // C(left, left) = 1, and every later class is empty.
            break;
        }
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
fn class_weight(faces: &[u64; CLASSES], c: &State) -> Num {
    let mut w = Num::one();
    for (&f, &k) in faces.iter().zip(c) {
        if k > 0 {
            w = w.mul_ref(&Num::pow(f, k));
        }
    }
    w
}

/// A side's re-roll choice in one state: how many dice of each class.
pub type Choice = State;

/// The simple (web calculator) choice of `side` with Lucky `x` in state `c`
/// (dice per class, see [`FaceClasses`]): the attacker re-rolls missed dice,
/// natural 1s first, then the other misses lowest face first (a natural 2
/// before the rest), then missed 6s; the defender forces hitting dice,
/// natural 6s first, then the other hits highest face first (a natural 2
/// last of them), then hitting 1s.
///
/// ```
/// use swtcg_engine::attack::Side;
/// use swtcg_engine::policy::{simple_choice, FaceClasses};
/// let classes = FaceClasses::new(4); // hits on 4+
/// // A missed 1 and another miss: the attacker's Lucky 1 takes the 1.
/// assert_eq!(simple_choice(&classes, Side::Attacking, 1, &[1, 0, 0, 1, 0]), [1, 0, 0, 0, 0]);
/// // A 6 and another hit: the defender's Lucky 1 takes the 6.
/// assert_eq!(simple_choice(&classes, Side::Defending, 1, &[0, 1, 1, 0, 0]), [0, 1, 0, 0, 0]);
/// ```
pub fn simple_choice(classes: &FaceClasses, side: Side, x: u32, c: &State) -> Choice {
    // Classes in the order the side re-rolls them.
    let order: &[usize] = match side {
        Side::Attacking => &[0, 4, 3, 1],
        Side::Defending => &[1, 2, 4, 0],
    };
    let mut left = x;
    let mut d = [0; CLASSES];
    for &i in order {
        let eligible = i < classes.k
            && match side {
                Side::Attacking => !classes.hits[i],
                Side::Defending => classes.hits[i],
            };
        if !eligible {
            continue;
        }
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
    let k = classes.k;
    let top = Simplex::new(m, k);
    let states = top.states();
    // g[r]: over the states of m − r dice.
    let mut g: Vec<Vec<Num>> = vec![next.to_vec()];
    let mut simplices = vec![top.clone()];
    for r in 1..=x.min(m) {
        let sx = Simplex::new(m - r, k);
        let above = &simplices[r as usize - 1];
        let prev = &g[r as usize - 1];
        let vals = sx
            .states()
            .iter()
            .map(|st| {
                let mut acc = Num::zero();
                for class in 0..k {
                    if classes.faces[class] == 0 {
                        continue;
                    }
                    let mut up = *st;
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
    // The value of keeping `kept` and re-rolling `r` dice.
    let at = |kept: &State, r: u32| -> Num {
        g[r as usize][simplices[r as usize].rank(kept)].mul_ref(&pow6[(x - r) as usize])
    };
    let eval = |c: &State, d: &Choice| -> Num {
        let r: u32 = d.iter().sum();
        let mut kept = *c;
        for (kv, dv) in kept.iter_mut().zip(d) {
            *kv -= dv;
        }
        at(&kept, r)
    };
    let mut value = Vec::with_capacity(states.len());
    let mut choice = Vec::with_capacity(states.len());
    for (i, c) in states.iter().enumerate() {
        if i.is_multiple_of(1024) && crate::cancel::expired() {
            // Past the deadline: the caller reports it; the values left
            // are never read.
            value.resize(states.len(), Num::zero());
            choice.resize(states.len(), [0; CLASSES]);
            break;
        }
        let (v, d) = match lucky {
            LuckyPolicy::Simple => {
                let d = simple_choice(classes, side, x, c);
                (eval(c, &d), d)
            }
            LuckyPolicy::Optimal => {
                if k == CLASSES {
                    best_reroll::<CLASSES>(c, x, side, &g, &simplices, &pow6)
                } else {
                    best_reroll::<4>(c, x, side, &g, &simplices, &pow6)
                }
            }
        };
        value.push(v);
        choice.push(d);
    }
    Stage { value, choice }
}

/// The best re-roll of at most `x` dice of state `c` for `side` (keeping
/// everything first: a tie keeps the dice), over `K` classes: its value
/// and the re-roll. `g[r]` holds the values of keeping each state of the
/// simplex `simplices[r]` and re-rolling `r` dice.
#[inline(always)]
fn best_reroll<const K: usize>(
    c: &State,
    x: u32,
    side: Side,
    g: &[Vec<Num>],
    simplices: &[Simplex],
    pow6: &[Num],
) -> (Num, Choice) {
    let at = |kept: &State, r: u32| -> Num {
        g[r as usize][simplices[r as usize].rank_k::<K>(kept)].mul_ref(&pow6[(x - r) as usize])
    };
    let mut best = (at(c, 0), [0; CLASSES]);
    for d0 in 0..=c[0].min(x) {
        for d1 in 0..=c[1].min(x - d0) {
            let r1 = d0 + d1;
            for d2 in 0..=c[2].min(x - r1) {
                for d3 in 0..=c[3].min(x - r1 - d2) {
                    let r3 = r1 + d2 + d3;
                    let top4 = if K == CLASSES { c[4].min(x - r3) } else { 0 };
                    for d4 in 0..=top4 {
                        let r = r3 + d4;
                        if r == 0 {
                            continue;
                        }
                        let kept = [c[0] - d0, c[1] - d1, c[2] - d2, c[3] - d3, c[4] - d4];
                        let v = at(&kept, r);
                        let better = match side {
                            Side::Attacking => v > best.0,
                            Side::Defending => v < best.0,
                        };
                        if better {
                            best = (v, [d0, d1, d2, d3, d4]);
                        }
                    }
                }
            }
        }
    }
    best
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
    let simplex = Simplex::new(m, classes.k);
    let states = simplex.states();
    let outs: Vec<Vec<(State, Num)>> = (0..=x.min(m)).map(|r| outcomes(classes, r)).collect();
    let pow6: Vec<Num> = (0..=x).map(|e| Num::pow(6, e)).collect();
    let mut next = vec![Num::zero(); simplex.len];
    let mut used = Num::zero();
    for (i, c) in states.iter().enumerate() {
        if i.is_multiple_of(1024) && crate::cancel::expired() {
            break;
        }
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
            let mut s = *c;
            for j in 0..CLASSES {
                s[j] = s[j] - d[j] + o[j];
            }
            next[simplex.rank(&s)].add_assign_ref(&base.mul_ref(wo));
        }
    }
    (next, used)
}

/// `C(n, r)`, saturating.
fn choose(n: u64, r: u64) -> u64 {
    let mut acc: u64 = 1;
    for i in 0..r {
        acc = acc.saturating_mul(n - i) / (i + 1);
    }
    acc
}

/// Refuses a Lucky stage that would examine more than [`MAX_LUCKY_WORK`]
/// (state, choice) pairs — `C(m+k−1, k−1)` states of `m` dice in `k`
/// classes times `C(x+k, k)` ways to pick up to `x` dice to re-roll — or
/// hold more than [`MAX_LUCKY_VALUES`] values.
fn check_lucky_work(unit: &str, x: u32, m: u32, k: usize, lucky: LuckyPolicy) -> Result<()> {
    let (m, x, k) = (m as u64, x as u64, k as u64);
    let states = choose(m + k - 1, k - 1);
    let choices = match lucky {
        LuckyPolicy::Optimal => choose(x + k, k),
        LuckyPolicy::Simple => 1,
    };
    if states.saturating_mul(choices) > MAX_LUCKY_WORK {
        return Err(Error::limit(format!(
            "{unit}: Lucky {x} over {m} attack dice is beyond the solver's bound ({states} states x {choices} choices > {MAX_LUCKY_WORK})"
        )));
    }
    if states.saturating_mul(x + 2) > MAX_LUCKY_VALUES {
        return Err(Error::limit(format!(
            "{unit}: Lucky {x} over {m} attack dice is beyond the solver's memory bound ({states} states x {} values > {MAX_LUCKY_VALUES})",
            x + 2
        )));
    }
    Ok(())
}

/// The (state, choice) pairs the re-roll POP of `attacker` against
/// `defender` examines under `policy` (0 without Lucky): the work of its
/// Lucky stages, counted before any is run.
pub fn lucky_work(attacker: &Unit, defender: &Unit, policy: &Policy) -> u64 {
    let n = attack_dice(attacker, defender) + attacker.keywords.fury;
    let luck = [attacker.keywords.lucky, defender.keywords.lucky].map(|x| x.min(n));
    if luck == [0, 0] {
        return 0;
    }
    let k: u64 = if defender.keywords.riposte > 0 { 5 } else { 4 };
    let node = Node::pop(policy.lucky_order.played(policy.lucky), luck[0], luck[1]);
    let mut decisions = Vec::new();
    node.decisions(&mut decisions);
    let states = choose(n as u64 + k - 1, k - 1);
    decisions
        .iter()
        .map(|&(_, x)| {
            let choices = match policy.lucky {
                LuckyPolicy::Optimal => choose(x as u64 + k, k),
                LuckyPolicy::Simple => 1,
            };
            states.saturating_mul(choices)
        })
        .fold(0u64, u64::saturating_add)
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

/// A node of the re-roll POP: nobody may re-roll any more, or `side` may
/// re-roll up to `x` dice, with what follows a pass and what follows a use.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    End,
    Decide {
        side: Side,
        x: u32,
        pass: Box<Node>,
        used: Box<Node>,
    },
}

impl Node {
    /// The re-roll POP of `order` with Lucky `xa` (attacker) and `xd`
    /// (defender).
    fn pop(order: LuckyOrder, xa: u32, xd: u32) -> Node {
        let decide = |side, x, pass: Node, used: Node| {
            if x == 0 {
                return pass;
            }
            Node::Decide {
                side,
                x,
                pass: Box::new(pass),
                used: Box::new(used),
            }
        };
        match order {
            LuckyOrder::AttackerFirst | LuckyOrder::DefenderFirst => {
                let (first, x1, second, x2) = if order == LuckyOrder::AttackerFirst {
                    (Side::Attacking, xa, Side::Defending, xd)
                } else {
                    (Side::Defending, xd, Side::Attacking, xa)
                };
                let then = decide(second, x2, Node::End, Node::End);
                decide(first, x1, then.clone(), then)
            }
            LuckyOrder::Pop | LuckyOrder::PopDefenderFirst => {
                let first = if order == LuckyOrder::Pop {
                    Side::Attacking
                } else {
                    Side::Defending
                };
                Node::alternate(first, [xa, xd], [false, false], 0)
            }
        }
    }

    /// The POP from `turn` on, with `used[i]` for the side that has used
    /// its Lucky and `passes` passes in succession so far.
    fn alternate(turn: Side, xs: [u32; 2], used: [bool; 2], passes: u32) -> Node {
        if passes == 2 {
            return Node::End;
        }
        let other = match turn {
            Side::Attacking => Side::Defending,
            Side::Defending => Side::Attacking,
        };
        let i = crate::attack::side_index(turn);
        let pass = Node::alternate(other, xs, used, passes + 1);
        if used[i] || xs[i] == 0 {
            return pass;
        }
        let mut now = used;
        now[i] = true;
        Node::Decide {
            side: turn,
            x: xs[i],
            pass: Box::new(pass),
            used: Box::new(Node::alternate(other, xs, now, 0)),
        }
    }

    /// Every (side, x) of its decisions.
    fn decisions(&self, out: &mut Vec<(Side, u32)>) {
        if let Node::Decide {
            side,
            x,
            pass,
            used,
        } = self
        {
            out.push((*side, *x));
            pass.decisions(out);
            used.decisions(out);
        }
    }
}

/// A POP node solved over the states of `m` dice: values times `6^exp`,
/// and at each decision, per state, the re-roll used (`None`: a pass).
struct Evaluated {
    value: Vec<Num>,
    exp: u32,
    decide: Option<Decided>,
}

struct Decided {
    side: Side,
    x: u32,
    choice: Vec<Option<Choice>>,
    /// What follows a pass and what follows a use: one solve when the two
    /// are the same (in a fixed order, the second side's stage does not
    /// depend on the first side's choice).
    pass: Arc<Evaluated>,
    used: Arc<Evaluated>,
}

/// Solves the POP `node` over the states of `m` dice, with `finals` the
/// value of each final state.
fn evaluate(
    classes: &FaceClasses,
    m: u32,
    node: &Node,
    lucky: LuckyPolicy,
    finals: &[Num],
) -> Evaluated {
    let Node::Decide {
        side,
        x,
        pass,
        used,
    } = node
    else {
        return Evaluated {
            value: finals.to_vec(),
            exp: 0,
            decide: None,
        };
    };
    let p = Arc::new(evaluate(classes, m, pass, lucky, finals));
    let u = if pass == used {
        Arc::clone(&p)
    } else {
        Arc::new(evaluate(classes, m, used, lucky, finals))
    };
    let stage = lucky_stage(classes, m, *x, *side, lucky, &u.value);
    let exp = p.exp.max(u.exp + x);
    let up_p = Num::pow(6, exp - p.exp);
    let up_u = Num::pow(6, exp - u.exp - x);
    let mut value = Vec::with_capacity(p.value.len());
    let mut choice = Vec::with_capacity(p.value.len());
    for ((vp, vu), d) in p.value.iter().zip(&stage.value).zip(&stage.choice) {
        let vp = vp.mul_ref(&up_p);
        let vu = vu.mul_ref(&up_u);
        let use_it = match lucky {
            LuckyPolicy::Simple => *d != [0; CLASSES],
            LuckyPolicy::Optimal => match side {
                Side::Attacking => vu > vp,
                Side::Defending => vu < vp,
            },
        };
        if use_it {
            value.push(vu);
            choice.push(Some(*d));
        } else {
            value.push(vp);
            choice.push(None);
        }
    }
    Evaluated {
        value,
        exp,
        decide: Some(Decided {
            side: *side,
            x: *x,
            choice,
            pass: p,
            used: u,
        }),
    }
}

/// Pushes a law of states (weights over some `D`) through a solved POP:
/// the law of the final states and the weight of the states in which each
/// side re-rolled at least one die, both over `D · 6^exp`.
fn forward_pop(
    classes: &FaceClasses,
    m: u32,
    e: &Evaluated,
    dist: Vec<Num>,
) -> (Vec<Num>, [Num; 2]) {
    let Some(d) = &e.decide else {
        return (dist, [Num::zero(), Num::zero()]);
    };
    let n = dist.len();
    let mut pass = vec![Num::zero(); n];
    let mut rolled = vec![Num::zero(); n];
    let mut choices = vec![[0; CLASSES]; n];
    for (i, w) in dist.into_iter().enumerate() {
        match d.choice[i] {
            None => pass[i] = w,
            Some(c) => {
                choices[i] = c;
                rolled[i] = w;
            }
        }
    }
    let (after, used_here) = forward(classes, m, d.x, &rolled, &choices);
    let (fp, mut up) = forward_pop(classes, m, &d.pass, pass);
    let (fu, uu) = forward_pop(classes, m, &d.used, after);
    let sp = Num::pow(6, e.exp - d.pass.exp);
    let su = Num::pow(6, e.exp - d.x - d.used.exp);
    let out = fp
        .iter()
        .zip(&fu)
        .map(|(a, b)| {
            let mut v = a.mul_ref(&sp);
            v.add_assign_ref(&b.mul_ref(&su));
            v
        })
        .collect();
    for (s, u) in up.iter_mut().zip(uu) {
        *s = s.mul_ref(&sp);
        s.add_assign_ref(&u.mul_ref(&su));
    }
    up[crate::attack::side_index(d.side)].add_assign_ref(&used_here.mul_ref(&Num::pow(6, e.exp)));
    (out, up)
}

/// The laws of the states right after the roll (Fury's dice included),
/// one per number of dice and flags of the roll before re-rolls: weights
/// over `6^(n + fury)`.
struct Start {
    /// Dice in the state.
    m: u32,
    /// What the roll before re-rolls showed ([`Roll::three`],
    /// [`Roll::five`]), which re-rolls can't change.
    before: Roll,
    /// The weight of each state of `m` dice.
    weights: Vec<Num>,
}

/// The re-roll POP of an attack: its face classes, starting laws and tree.
struct Reroll {
    classes: FaceClasses,
    starts: Vec<Start>,
    node: Node,
    lucky: LuckyPolicy,
    /// The exponent of 6 of the starting laws' denominator.
    dice: u32,
}

impl Reroll {
    /// The re-roll POP of the attack in `arena` under `policy` (`None`
    /// without Lucky), refused before any work when beyond the bounds.
    fn of(arena: &Fight, policy: &Policy) -> Result<Option<Reroll>> {
        let a = arena.units[ATTACKER];
        let d = arena.units[arena.defending];
        let n = attack_dice(a, d);
        let fury = a.keywords.fury;
        // Lucky beyond the number of dice re-rolls them all: the same.
        let luck = [a.keywords.lucky, d.keywords.lucky].map(|x| x.min(n + fury));
        if luck == [0, 0] {
            return Ok(None);
        }
        let tracked = track(a, d);
        let classes = FaceClasses::tracking(
            hit_threshold(a.keywords.accuracy, d.keywords.armor),
            tracked.two,
        );
        let node = Node::pop(policy.lucky_order.played(policy.lucky), luck[0], luck[1]);
        let mut decisions = Vec::new();
        node.decisions(&mut decisions);
        for (side, x) in decisions {
            let name = if side == Side::Attacking {
                &a.name
            } else {
                &d.name
            };
            check_lucky_work(name, x, n + fury, classes.k, policy.lucky)?;
        }
        Ok(Some(Reroll {
            starts: initial_states(&classes, n, fury, tracked),
            classes,
            node,
            lucky: policy.lucky,
            dice: n + fury,
        }))
    }

    /// The final roll of state `c` from start `s`.
    fn roll(&self, s: &Start, c: &State) -> Roll {
        Roll {
            three: s.before.three,
            five: s.before.five,
            ..self.classes.roll(c)
        }
    }

    /// Every final roll that can occur.
    fn rolls(&self) -> Vec<Roll> {
        self.starts
            .iter()
            .flat_map(|s| {
                Simplex::new(s.m, self.classes.k)
                    .states()
                    .into_iter()
                    .map(|c| self.roll(s, &c))
            })
            .collect()
    }

    /// The value of the POP with `value_of` each final roll's value, and
    /// the solved trees (one per start), with the value's denominator
    /// exponent.
    fn solve(&self, value_of: impl Fn(Roll) -> Num) -> (Num, Vec<Evaluated>, u32) {
        let mut value = Num::zero();
        let mut trees = Vec::new();
        let mut exp = 0;
        for s in &self.starts {
            let states = Simplex::new(s.m, self.classes.k).states();
            let finals: Vec<Num> = states.iter().map(|c| value_of(self.roll(s, c))).collect();
            let e = evaluate(&self.classes, s.m, &self.node, self.lucky, &finals);
            for (w, v) in s.weights.iter().zip(&e.value) {
                value.add_assign_ref(&w.mul_ref(v));
            }
            exp = e.exp;
            trees.push(e);
        }
        (value, trees, self.dice + exp)
    }
}

/// Solves one attack in `arena` (whose play must be optimal, on the
/// policy's objective) under `policy`'s Lucky.
pub fn solve_attack(arena: &Fight, policy: &Policy) -> Result<AttackSolution> {
    let a = arena.units[ATTACKER];
    let d = arena.units[arena.defending];
    let n = attack_dice(a, d);
    let fury = a.keywords.fury;
    let crit = a.keywords.crit;
    let reroll = Reroll::of(arena, policy)?;
    // Every final roll that can occur: from the roll itself, or from any
    // state of the dice after Lucky.
    let plain_roll = reroll.is_none().then(|| {
        attack_roll_tracking::<Num>(n, a.keywords.accuracy, d.keywords.armor, fury, track(a, d))
    });
    let mut rolls: Vec<Roll> = match (&plain_roll, &reroll) {
        (Some(r), _) => r.entries().iter().map(|e| e.0).collect(),
        (None, Some(r)) => r.rolls(),
        (None, None) => unreachable!("a roll without Lucky or a re-roll POP"),
    };
    rolls.sort_unstable();
    rolls.dedup();
    // The damage steps, once per distinct final roll, in one search: its
    // value, and the law of its tallies (over the rolls at the end).
    let strikes: Vec<Strike> = rolls.iter().map(|r| Strike::from_roll(r, crit)).collect();
    let memo: HashMap<Roll, Resolved> = rolls
        .into_iter()
        .zip(arena.resolve_optimal(&strikes)?)
        .collect();
    let value_of = |roll: Roll| -> Num { memo[&roll].value.clone() };
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
                let (value, trees, exp) = reroll.solve(value_of);
                let mut pairs: Vec<(Roll, Num)> = Vec::new();
                let mut used = [Num::zero(), Num::zero()];
                for (start, tree) in reroll.starts.iter().zip(trees) {
                    let states = Simplex::new(start.m, reroll.classes.k).states();
                    let (end, u) =
                        forward_pop(&reroll.classes, start.m, &tree, start.weights.clone());
                    for (s, x) in used.iter_mut().zip(u) {
                        s.add_assign_ref(&x);
                    }
                    for (c, w) in states.iter().zip(end) {
                        if !w.is_zero() {
                            pairs.push((reroll.roll(start, c), w));
                        }
                    }
                }
                let denom = Num::pow(6, exp);
                let used = used.map(|u| ratio(&u, &denom));
                (Joint::from_pairs(pairs, denom), value, used)
            }
            (None, None) => unreachable!("a roll without Lucky or a re-roll POP"),
        };
    // The tallies: each final roll's law, weighted by its probability.
    let mut tallies = Vec::new();
    for (r, w) in final_roll.entries() {
        for (t, wt) in &memo[r].tallies {
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
pub fn aimed_guess(
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
        });
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
pub fn aimed_foresight(
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
    };
    aimed_guess(&arena, &game.policy, guesser)
}

/// The law of the class states after the roll (Fury included), split by
/// what the roll before re-rolls showed of the faces `track` asks for (a
/// natural 3 for Backfire, a natural 5 for Focus): for each number of dice
/// `m` (`n`, and `n + fury` when a natural 4 adds dice) and each such
/// pattern, the weights of the states of `m` dice, all over
/// `6^(n + fury)`.
///
/// Inclusion–exclusion over the marked faces (3, 5 and Fury's 4): the
/// sequences of a state whose marked faces lie within a set `T` are
/// counted with the other marked faces taken out of their classes, and a
/// Möbius inversion gives each exact pattern.
fn initial_states(classes: &FaceClasses, n: u32, fury: u32, track: Track) -> Vec<Start> {
    // Marked faces: bit 0 a natural 3, bit 1 a natural 5 (each when
    // tracked), bit 2 Fury's natural 4 (first roll only).
    let marked: Vec<(u8, i32)> = [(1u8, 3, track.three), (2, 5, track.five), (4, 4, fury > 0)]
        .into_iter()
        .filter(|m| m.2)
        .map(|m| (m.0, m.1))
        .collect();
    let first = patterns(classes, n, &marked);
    let before = |p: u8| Roll {
        three: p & 1 != 0,
        five: p & 2 != 0,
        ..Roll::default()
    };
    let mut out: Vec<Start> = Vec::new();
    let mut add = |m: u32, p: u8, rank: usize, len: usize, w: Num| {
        let b = before(p);
        let i = match out.iter().position(|s| s.m == m && s.before == b) {
            Some(i) => i,
            None => {
                out.push(Start {
                    m,
                    before: b,
                    weights: vec![Num::zero(); len],
                });
                out.len() - 1
            }
        };
        out[i].weights[rank].add_assign_ref(&w);
    };
    let plain = Simplex::new(n, classes.k);
    let big = Simplex::new(n + fury, classes.k);
    let scale = Num::pow(6, fury);
    let extra_marks: Vec<(u8, i32)> = marked.iter().copied().filter(|m| m.0 != 4).collect();
    let extra = if fury > 0 {
        patterns(classes, fury, &extra_marks)
    } else {
        Vec::new()
    };
    for (c, p, w) in first {
        if p & 4 == 0 {
            add(n, p, plain.rank(&c), plain.len, w.mul_ref(&scale));
            continue;
        }
        for (o, p2, wo) in &extra {
            let mut s = c;
            for j in 0..CLASSES {
                s[j] += o[j];
            }
            add(n + fury, (p & 3) | p2, big.rank(&s), big.len, w.mul_ref(wo));
        }
    }
    out.sort_by_key(|s| (s.m, s.before));
    out
}

/// For each state of `n` dice and each exact pattern of the `marked` faces
/// present (`(bit, face)`), its number of face sequences (zero weights
/// left out).
fn patterns(classes: &FaceClasses, n: u32, marked: &[(u8, i32)]) -> Vec<(State, u8, Num)> {
    let all: u8 = marked.iter().map(|m| m.0).fold(0, |a, b| a | b);
    // The subsets of the marks, as bit sets.
    let subsets: Vec<u8> = (0..=all).filter(|t| t & !all == 0).collect();
    let mut out = Vec::new();
    for (i, c) in Simplex::new(n, classes.k).states().into_iter().enumerate() {
        if i.is_multiple_of(1024) && crate::cancel::expired() {
            break;
        }
        let multi = multinomial(n, &c);
        // zeta[T]: sequences whose marked faces all lie in T.
        let mut zeta: Vec<(u8, Num)> = subsets
            .iter()
            .map(|&t| {
                let mut faces = classes.faces;
                for &(bit, face) in marked {
                    if t & bit == 0 {
                        faces[classes.class_of(face)] -= 1;
                    }
                }
                (t, multi.mul_ref(&class_weight(&faces, &c)))
            })
            .collect();
        // Möbius: exactly the marks of T present.
        for &(bit, _) in marked {
            for i in 0..zeta.len() {
                let t = zeta[i].0;
                if t & bit != 0 {
                    let j = subsets
                        .iter()
                        .position(|&u| u == t & !bit)
                        .expect("a subset");
                    let lower = zeta[j].1.clone();
                    zeta[i].1.sub_assign_ref(&lower);
                }
            }
        }
        for (t, w) in zeta {
            if !w.is_zero() {
                out.push((c, t, w));
            }
        }
    }
    out
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
    /// The options taken before the roll: (arena index of the unit, index
    /// into its `boosts`).
    pub boosts: Vec<(usize, usize)>,
    /// Adapt texts chosen: (arena index of the unit, index into its
    /// `adapt`).
    pub adapt: Vec<(usize, usize)>,
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
pub const MAX_DECLARE_OPTIONS: usize = 4096;

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
    /// [`side_index`]. Required where a cost is X.
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
    /// A scenario with unlimited Force.
    pub fn new(units: Vec<Unit>, sides: Vec<Side>, policy: Policy) -> Game {
        Game {
            units,
            sides,
            policy,
            force: [None, None],
        }
    }

    /// The defenders the defending side may pick: the declared one, or an
    /// interceptor (none against Precision, none while the declared
    /// defender forbids Intercept).
    pub fn defenders(&self) -> Vec<usize> {
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
                    let most = left.map_or(DEFAULT_X_FORCE, |l| l.saturating_sub(*cost));
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
            if let Some(a) = self.units[i]
                .keywords
                .adapt
                .get(o)
                .and_then(|t| crate::keywords::parse(t).ok())
            {
                units[i].keywords.add(&[a]);
            }
        }
        let mut force = self.force;
        let mut start = Tally::default();
        let mut cancelled = false;
        let d = declared.defending;
        for &(r, x) in &declared.retaliates {
            let p = units[d].keywords.retaliates[r];
            if let Some(f) = force[side_index(self.sides[d])].as_mut() {
                *f -= if p.x { x } else { p.cost };
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
        let retaliates: Vec<u32> = declared.retaliates.iter().map(|&(_, x)| x).collect();
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
        }
    }

    /// Refuses what the solver can't weigh: a unit out of bounds, too many
    /// declare options.
    fn check(&self) -> Result<()> {
        for u in &self.units {
            u.validate()?;
        }
        for (i, u) in self.units.iter().enumerate() {
            for t in &u.keywords.adapt {
                crate::keywords::parse(t).map_err(|e| {
                    Error::not_modelled(format!(
                        "{}: Adapt text '{}' is not modelled: {e}",
                        u.name,
                        crate::error::quote(t)
                    ))
                })?;
            }
            let k = &u.keywords;
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
            let r = self.retaliate_sets(d, self.force[1]).len();
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
        let buy = |paid: &[crate::unit::Paid], left: Option<u32>| {
            crate::attack::purchases(paid, cap, left)
        };
        let mut deflects: Vec<CommittedDeflect> = vec![(None, 0)];
        if k.deflect > 0 || !k.paid_deflects.is_empty() {
            for (extra, cost) in buy(&k.paid_deflects, left) {
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
            for (evade, ec) in buy(&k.paid_evades, left.map(|l| l - dc)) {
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
                if best.as_ref().is_none_or(|b| sol.value < b.value) {
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
            for rs in game.retaliate_sets(d, game.force[1]) {
                let rk = &game.units[d].keywords.retaliates;
                let rcost: u32 = rs
                    .iter()
                    .map(|&(r, x)| if rk[r].x { x } else { rk[r].cost })
                    .sum();
                for (db, da) in game
                    .boost_sets(d, game.force[1].map(|l| l - rcost))
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
                            .any(|&(r, x)| rk[r].cost > 0 || (rk[r].x && x > 0)),
                        retaliates: rs.clone(),
                        boosts: ab
                            .iter()
                            .map(|&b| (ATTACKER, b))
                            .chain(db.iter().map(|&b| (d, b)))
                            .collect(),
                    };
                    crate::cancel::check()?;
                    let (sol, units) = game.solve_declared(&declared)?;
                    options.push((declared.clone(), sol.value.clone()));
                    if best_resp
                        .as_ref()
                        .is_none_or(|(_, b, _)| sol.value < b.value)
                    {
                        best_resp = Some((declared, sol, units));
                    }
                }
            }
            let (declared, solution, units) =
                best_resp.expect("declining everything is always an option");
            if best_att
                .as_ref()
                .is_none_or(|b| solution.value > b.solution.value)
            {
                best_att = Some(GameOutcome {
                    declared,
                    solution,
                    units,
                    options,
                });
            }
        }
        let outcome = best_att.expect("taking no option is always an option");
        if best
            .as_ref()
            .is_none_or(|b| outcome.solution.value < b.solution.value)
        {
            best = Some(outcome);
        }
    }
    Ok(best.expect("the declared defender is always an option"))
}
