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
    ATTACKER, Arena, Ending, MAX_SEARCH_NODES, Objective, Play, Resolved, Side, Strike, Tally,
    attack_dice, side_index, track,
};
use crate::dice::{Roll, attack_roll_tracking, hit_threshold};
use crate::dist::{Joint, Num, Weight, ratio};
use crate::error::{Error, Result};
use crate::unit::Unit;
use num_rational::BigRational;
use std::collections::HashMap;
use std::sync::Arc;

/// How the Lucky re-rolls are chosen (the words `optimal`, `simple`).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
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
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
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
            ..Roll::default()
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
            LuckyPolicy::Simple => *d != [0; 4],
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
    let mut choices = vec![[0; 4]; n];
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

/// The re-roll POP of an attack: its face classes, starting laws and tree.
struct Reroll {
    classes: FaceClasses,
    starts: Vec<(u32, Vec<Num>)>,
    node: Node,
    lucky: LuckyPolicy,
    /// The exponent of 6 of the starting laws' denominator.
    dice: u32,
}

impl Reroll {
    /// The re-roll POP of the attack in `arena` under `policy` (`None`
    /// without Lucky), refused before any work when beyond the bounds.
    fn of(arena: &Arena, policy: &Policy) -> Result<Option<Reroll>> {
        let a = arena.units[ATTACKER];
        let d = arena.units[arena.defending];
        let n = attack_dice(a, d);
        let fury = a.keywords.fury;
        // Lucky beyond the number of dice re-rolls them all: the same.
        let luck = [a.keywords.lucky, d.keywords.lucky].map(|x| x.min(n + fury));
        if luck == [0, 0] {
            return Ok(None);
        }
        let node = Node::pop(policy.lucky_order.played(policy.lucky), luck[0], luck[1]);
        let mut decisions = Vec::new();
        node.decisions(&mut decisions);
        for (side, x) in decisions {
            let name = if side == Side::Attacking {
                &a.name
            } else {
                &d.name
            };
            check_lucky_work(name, x, n + fury, policy.lucky)?;
        }
        let classes = FaceClasses::new(hit_threshold(a.keywords.accuracy, d.keywords.armor));
        Ok(Some(Reroll {
            starts: initial_states(&classes, n, fury),
            classes,
            node,
            lucky: policy.lucky,
            dice: n + fury,
        }))
    }

    /// Every final roll that can occur.
    fn rolls(&self) -> Vec<Roll> {
        self.starts
            .iter()
            .flat_map(|(m, _)| {
                Simplex::new(*m)
                    .states()
                    .into_iter()
                    .map(|c| self.classes.roll(&c))
            })
            .collect()
    }

    /// The value of the POP with `value_of` each final roll's value, and
    /// the solved trees (one per starting number of dice), with the value's
    /// denominator exponent.
    fn solve(&self, value_of: impl Fn(Roll) -> Num) -> (Num, Vec<Evaluated>, u32) {
        let mut value = Num::zero();
        let mut trees = Vec::new();
        let mut exp = 0;
        for (m, start) in &self.starts {
            let states = Simplex::new(*m).states();
            let finals: Vec<Num> = states
                .iter()
                .map(|c| value_of(self.classes.roll(c)))
                .collect();
            let e = evaluate(&self.classes, *m, &self.node, self.lucky, &finals);
            for (w, v) in start.iter().zip(&e.value) {
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
pub fn solve_attack(arena: &Arena, policy: &Policy) -> Result<AttackSolution> {
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
                for ((m, start), tree) in reroll.starts.iter().zip(trees) {
                    let states = Simplex::new(*m).states();
                    let (end, u) = forward_pop(&reroll.classes, *m, &tree, start.clone());
                    for (s, x) in used.iter_mut().zip(u) {
                        s.add_assign_ref(&x);
                    }
                    for (c, w) in states.iter().zip(end) {
                        if !w.is_zero() {
                            pairs.push((reroll.classes.roll(c), w));
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
    arena: &Arena,
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
    let arena = Arena {
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
        let rs = &self.units[d].keywords.retaliates;
        let mut sets: Vec<(Vec<(usize, u32)>, u32)> = vec![(Vec::new(), 0)];
        for (i, r) in rs.iter().enumerate() {
            let mut next = sets.clone();
            for (set, cost) in &sets {
                let xs: Vec<u32> = if r.x {
                    let most = left.map_or(0, |l| l.saturating_sub(*cost));
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
    fn arena<'u>(&self, declared: &Declared, setup: &'u Setup) -> Arena<'u> {
        let units: Vec<&Unit> = setup.units.iter().collect();
        let retaliates: Vec<u32> = declared.retaliates.iter().map(|&(_, x)| x).collect();
        Arena {
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

    /// Refuses what the solver can't weigh: a unit out of bounds, a cost of
    /// X without a budget for its side, too many declare options.
    fn check(&self) -> Result<()> {
        for (u, side) in self.units.iter().zip(&self.sides) {
            u.validate()?;
            let k = &u.keywords;
            let x = k
                .paid_evades
                .iter()
                .chain(&k.paid_deflects)
                .chain(&k.retaliates)
                .any(|p| p.x);
            if x && self.force[side_index(*side)].is_none() {
                return Err(Error::input(format!(
                    "{}: a cost of X Force needs a Force budget for its side (--force-{} N, or \"force\" in a scenario file)",
                    u.name,
                    if *side == Side::Attacking {
                        "attacker"
                    } else {
                        "defender"
                    }
                )));
            }
        }
        for (i, u) in self.units.iter().enumerate() {
            for t in &u.keywords.adapt {
                crate::keywords::parse(t).map_err(|e| {
                    Error::input(format!(
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
                return Err(Error::input(format!(
                    "{}: Area Damage with other units in the arena (where its dice go) is not modelled; it does nothing in a duel",
                    u.name
                )));
            }
        }
        for d in self.defenders() {
            let (a, dk) = (&self.units[ATTACKER].keywords, &self.units[d].keywords);
            let lucky = a.lucky > 0 || dk.lucky > 0;
            for (on, what) in [
                (dk.riposte > 0, "Riposte"),
                (a.backfire > 0, "Backfire"),
                (a.focus > 0, "Focus"),
            ] {
                if on && lucky {
                    return Err(Error::input(format!(
                        "{what} with Lucky (faces before and after re-rolls) is not modelled: drop the Lucky or the {what}"
                    )));
                }
            }
            if a.cunning && dk.lucky > 0 {
                return Err(Error::input(
                    "Cunning against a defender with Lucky (re-rolls of dice it can't see) is not modelled",
                ));
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
            return Err(Error::input(format!(
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
    fn commitments(&self, arena: &Arena) -> Result<Option<Vec<(crate::attack::Committed, u32)>>> {
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
                let targets = std::iter::once(None).chain((0..arena.units.len()).map(Some));
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
            return Err(Error::input(format!(
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
