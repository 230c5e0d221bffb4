//! Lucky, played exactly: the re-roll POP over face-class states.
//!
//! Dice are exchangeable, so a roll is a *state*: how many dice show each
//! class of face that matters ([`FaceClasses`]). Re-rolling `r` dice of a
//! state keeps the rest and adds `r` fresh dice; each stage of the POP is
//! solved over every state as integers over a power of 6 (see the policy
//! module's documentation). The starting laws are split by what the roll
//! before re-rolls showed (Backfire's 3, Focus's 5), which re-rolls can't
//! change.

use super::states::{Counts, Simplex, outcomes, states_of};
use super::*;
use crate::kept::Kept;

/// Most (states × re-roll choices) one Lucky stage may examine.
pub(crate) const MAX_LUCKY_WORK: u64 = 200_000_000;
/// Most values one Lucky stage may hold at once (states × (re-rolls + 2)),
/// which keeps memory well under 1 GiB.
pub(crate) const MAX_LUCKY_VALUES: u64 = 4_500_000;

/// A side's re-roll choice in one state: how many dice of each class.
pub(crate) type Choice = State;

/// The simple (web calculator) choice of `side` with Lucky `x` in state `c`
/// (dice per class, see [`FaceClasses`]): the attacker re-rolls missed dice,
/// natural 1s first, then the other misses lowest face first (a natural 2
/// before the rest), then missed 6s; the defender forces hitting dice,
/// natural 6s first, then the other hits highest face first (a natural 2
/// last of them), then hitting 1s. Pinned by the unit test
/// `simple_choice_rerolls_missed_ones_first_and_hitting_sixes_first`.
pub(crate) fn simple_choice(classes: &FaceClasses, side: Side, x: u32, c: &State) -> Choice {
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
pub(super) struct Stage {
    pub(super) value: Vec<Num>,
    pub(super) choice: Vec<Choice>,
}

pub(super) fn lucky_stage(
    classes: &FaceClasses,
    m: u32,
    x: u32,
    side: Side,
    lucky: LuckyPolicy,
    next: &[Num],
) -> Stage {
    // Every value of the stage is at most the largest next value times
    // 6^x (a re-roll's outcomes weigh 6 in all per die): in machine words
    // when that fits, as most stages do (40 dice and Lucky 3: 6^46).
    let most = next.iter().max().cloned().unwrap_or_else(Num::zero);
    let fits = matches!(most.mul_ref(&Num::pow(6, x)), Num::Small(_));
    if fits {
        let next: Vec<u128> = next.iter().map(u128::from_num).collect();
        let (value, choice) = stage_with::<u128>(classes, m, x, side, lucky, &next);
        Stage {
            value: value.into_iter().map(Num::Small).collect(),
            choice,
        }
    } else {
        let (value, choice) = stage_with::<Num>(classes, m, x, side, lucky, next);
        Stage { value, choice }
    }
}

/// [`lucky_stage`] in the weight `W` (which holds every value).
fn stage_with<W: Weight>(
    classes: &FaceClasses,
    m: u32,
    x: u32,
    side: Side,
    lucky: LuckyPolicy,
    next: &[W],
) -> (Vec<W>, Vec<Choice>) {
    let k = classes.k;
    let top = Simplex::new(m, k);
    let states = top.states();
    // g[r]: over the states of m − r dice, the value of keeping the state
    // and re-rolling r dice, over 6^r.
    let mut g: Vec<Vec<W>> = vec![next.to_vec()];
    let mut simplices = vec![top.clone()];
    for r in 1..=x.min(m) {
        let sx = Simplex::new(m - r, k);
        let above = &simplices[r as usize - 1];
        let prev = &g[r as usize - 1];
        let vals = if k == CLASSES {
            reroll_one::<CLASSES, W>(classes, &sx, above, prev)
        } else {
            reroll_one_4(classes, m - r, above, prev)
        };
        g.push(vals);
        simplices.push(sx);
    }
    // Each g[r] over 6^x: scaled once here, not at each state's choice.
    for (r, values) in g.iter_mut().enumerate() {
        let up = W::pow(6, x - r as u32);
        if !up.is_zero() && up != W::one() {
            for v in values.iter_mut() {
                *v = v.mul_ref(&up);
            }
        }
    }
    // The value of keeping `kept` and re-rolling `r` dice.
    let at =
        |kept: &State, r: u32| -> W { g[r as usize][simplices[r as usize].rank(kept)].clone() };
    let eval = |c: &State, d: &Choice| -> W {
        let r: u32 = d.iter().sum();
        let mut kept = *c;
        for (kv, dv) in kept.iter_mut().zip(d) {
            *kv -= dv;
        }
        at(&kept, r)
    };
    if lucky == LuckyPolicy::Optimal {
        return if k == CLASSES {
            best_rerolls::<CLASSES, W>(&states, x.min(m), side, &g, &simplices)
        } else {
            best_rerolls::<4, W>(&states, x.min(m), side, &g, &simplices)
        };
    }
    let mut value = Vec::with_capacity(states.len());
    let mut choice = Vec::with_capacity(states.len());
    for (i, c) in states.iter().enumerate() {
        if i.is_multiple_of(1024) && crate::cancel::expired() {
            // Past the deadline: the caller reports it; the values left
            // are never read.
            value.resize(states.len(), W::zero());
            choice.resize(states.len(), [0; CLASSES]);
            break;
        }
        let d = simple_choice(classes, side, x, c);
        value.push(eval(c, &d));
        choice.push(d);
    }
    (value, choice)
}

/// The best re-roll of every state of `states` (the top simplex,
/// `simplices[0]`), one die at a time: what the tests' `best_reroll` finds
/// state by state over its `C(x + K, K)` re-rolls, found in `x` passes over the
/// simplices of `K` candidates each (issue 35: Lucky 3's 35 re-rolls a
/// state become 12 candidates).
///
/// `best[t]` over the states `s` of `m − t` dice is the best value of
/// keeping some `kept ⊆ s` with at most `x − t` more dice taken away, and
/// that `kept`: either `s` itself (the value `g[t][s]`, `t` dice
/// re-rolled) or the best of `s` less one die of some class. At the top,
/// the re-roll is the state less what is kept. Ties go as
/// that search's enumeration sends them: it keeps the first of equal
/// values in the lexicographic order of the re-rolls, that is the
/// lexicographically largest `kept` (so keeping every die wins a tie).
pub(super) fn best_rerolls<const K: usize, W: Weight>(
    states: &[State],
    x: u32,
    side: Side,
    g: &[Vec<W>],
    simplices: &[Simplex],
) -> (Vec<W>, Vec<Choice>) {
    let better = |v: &W, kept: &State, best: &(W, State)| match v.cmp(&best.0) {
        std::cmp::Ordering::Equal => *kept > best.1,
        o => (o == std::cmp::Ordering::Greater) == (side == Side::Attacking),
    };
    // best[x]: nothing more may be taken away.
    let mut best: Vec<(W, State)> = simplices[x as usize]
        .states()
        .iter()
        .zip(&g[x as usize])
        .map(|(s, v)| (v.clone(), *s))
        .collect();
    for t in (0..x as usize).rev() {
        let listed;
        let here: &[State] = if t == 0 {
            states
        } else {
            listed = simplices[t].states();
            &listed
        };
        let below = &simplices[t + 1];
        if crate::cancel::expired() {
            // Past the deadline: the caller reports it; the values are
            // never read.
            return (
                vec![W::zero(); states.len()],
                vec![[0; CLASSES]; states.len()],
            );
        }
        // Each state with the ranks in `below` of the state less one die
        // of each class (None where the class is empty).
        let mut next = Vec::with_capacity(here.len());
        let mut level = |i: usize, s: &State, less: [Option<usize>; CLASSES]| {
            let mut top = (g[t][i].clone(), *s);
            for at in less.iter().take(K).flatten() {
                let cand = &best[*at];
                if better(&cand.0, &cand.1, &top) {
                    top = cand.clone();
                }
            }
            next.push(top);
        };
        if K == 4 {
            less_ranks_4(simplices[t].m, below, &mut level);
        } else {
            for (i, s) in here.iter().enumerate() {
                let mut less = [None; CLASSES];
                for (class, at) in less.iter_mut().enumerate().take(K) {
                    if s[class] > 0 {
                        let mut l = *s;
                        l[class] -= 1;
                        *at = Some(below.rank_k::<K>(&l));
                    }
                }
                level(i, s, less);
            }
        }
        best = next;
    }
    let mut value = Vec::with_capacity(states.len());
    let mut choice = Vec::with_capacity(states.len());
    for (c, (v, kept)) in states.iter().zip(best) {
        let mut d = [0; CLASSES];
        for j in 0..CLASSES {
            d[j] = c[j] - kept[j];
        }
        value.push(v);
        choice.push(d);
    }
    (value, choice)
}

/// One more die re-rolled: for each state of `sx` (one die fewer than
/// `above`), the sum over the faces of a fresh die of `prev` at the state
/// with that die added (`prev` over `above`'s states), in `K` classes.
fn reroll_one<const K: usize, W: Weight>(
    classes: &FaceClasses,
    sx: &Simplex,
    above: &Simplex,
    prev: &[W],
) -> Vec<W> {
    let classes_used: Vec<(usize, u64)> = (0..K)
        .filter(|&c| classes.faces[c] > 0)
        .map(|c| (c, classes.faces[c]))
        .collect();
    let states = sx.states();
    let mut out = Vec::with_capacity(states.len());
    for (i, st) in states.iter().enumerate() {
        if i.is_multiple_of(1024) && crate::cancel::expired() {
            // Past the deadline: the caller reports it; the values left
            // are never read.
            out.resize(states.len(), W::zero());
            break;
        }
        let mut acc = W::zero();
        for &(class, faces) in &classes_used {
            let mut up = *st;
            up[class] += 1;
            acc.add_assign_ref(&prev[above.rank_k::<K>(&up)].mul_u64(faces));
        }
        out.push(acc);
    }
    out
}

/// Every state of `n` dice in 4 classes, in rank order (with its rank),
/// and the ranks in `below` (`n − 1` dice) of the state less one die of
/// each class, from sums the nested loops share (the rank's closed form,
/// see [`Simplex::rank`]).
fn less_ranks_4(
    n: u32,
    below: &Simplex,
    mut f: impl FnMut(usize, &State, [Option<usize>; CLASSES]),
) {
    debug_assert!(n >= 1 && below.m == n - 1);
    let s3 = |v: u32| states_of(v, 3);
    let mut i = 0;
    for a in 0..=n {
        for b in 0..=n - a {
            // Less a die of class 0 (a > 0), of class 1 (b > 0), of class 2
            // or 3 (a + b < n: the last two classes hold a die), less the
            // third class's count.
            let r0 = (a > 0).then(|| below.first[a as usize - 1] + s3(n - a) - s3(n - a - b));
            let r1 = (b > 0).then(|| below.first[a as usize] + s3(n - 1 - a) - s3(n - a - b));
            let r23 =
                (a + b < n).then(|| below.first[a as usize] + s3(n - 1 - a) - s3(n - 1 - a - b));
            for c in 0..=n - a - b {
                let d = n - a - b - c;
                let cu = c as usize;
                let less = [
                    r0.map(|r| r + cu),
                    r1.map(|r| r + cu),
                    r23.filter(|_| c > 0).map(|r| r + cu - 1),
                    r23.filter(|_| d > 0).map(|r| r + cu),
                    None,
                ];
                f(i, &[a, b, c, d, 0], less);
                i += 1;
            }
        }
    }
}

/// [`reroll_one`] in 4 classes over the states of `n` dice, in their rank
/// order by nested loops, each added die's rank in `above` (`n + 1` dice)
/// from sums shared by the loops (the rank's closed form, see
/// [`Simplex::rank`]) rather than computed per state and class.
fn reroll_one_4<W: Weight>(classes: &FaceClasses, n: u32, above: &Simplex, prev: &[W]) -> Vec<W> {
    debug_assert_eq!(above.m, n + 1);
    let f = classes.faces;
    let s3 = |v: u32| states_of(v, 3);
    let mut out = Vec::with_capacity(states_of(n, 4));
    for a in 0..=n {
        if crate::cancel::expired() {
            // Past the deadline: the caller reports it; the values left
            // are never read.
            out.resize(states_of(n, 4), W::zero());
            break;
        }
        let (first, next) = (above.first[a as usize], above.first[a as usize + 1]);
        let (t1, t0) = (s3(n + 1 - a), s3(n - a));
        for b in 0..=n - a {
            let (u1, u0) = (s3(n + 1 - a - b), s3(n - a - b));
            // A die added in class 0, 1, 3 (class 2 is class 3's + 1),
            // less the third class's count.
            let (r0, r1, r3) = (next + t0 - u0, first + t1 - u0, first + t1 - u1);
            for c in 0..=(n - a - b) as usize {
                let mut acc = prev[r0 + c].mul_u64(f[0]);
                acc.add_assign_ref(&prev[r1 + c].mul_u64(f[1]));
                acc.add_assign_ref(&prev[r3 + c + 1].mul_u64(f[2]));
                acc.add_assign_ref(&prev[r3 + c].mul_u64(f[3]));
                out.push(acc);
            }
        }
    }
    out
}

/// Pushes a state distribution through one stage's choices: the new
/// distribution (denominator times `6^x`) and the weight of the states in
/// which the side re-rolled at least one die.
pub(super) fn forward(
    classes: &FaceClasses,
    m: u32,
    x: u32,
    dist: &[Num],
    choice: &[Choice],
) -> (Vec<Num>, Num) {
    // Every weight after the stage is at most the total before times 6^x:
    // in machine words when that fits.
    let total = dist.iter().fold(Num::zero(), |mut t, w| {
        t.add_assign_ref(w);
        t
    });
    if matches!(total.mul_ref(&Num::pow(6, x)), Num::Small(_)) {
        let dist: Vec<u128> = dist.iter().map(u128::from_num).collect();
        let (next, used) = forward_with::<u128>(classes, m, x, &dist, choice);
        return (next.into_iter().map(Num::Small).collect(), Num::Small(used));
    }
    forward_with::<Num>(classes, m, x, dist, choice)
}

/// [`forward`] in the weight `W` (which holds every weight).
fn forward_with<W: Weight>(
    classes: &FaceClasses,
    m: u32,
    x: u32,
    dist: &[W],
    choice: &[Choice],
) -> (Vec<W>, W) {
    let simplex = Simplex::new(m, classes.k);
    let states = simplex.states();
    let outs: Vec<Vec<(State, W)>> = (0..=x.min(m))
        .map(|r| {
            outcomes(classes, r)
                .into_iter()
                .map(|(o, w)| (o, W::from_num(&w)))
                .collect()
        })
        .collect();
    let pow6: Vec<W> = (0..=x).map(|e| W::pow(6, e)).collect();
    let mut next = vec![W::zero(); simplex.len];
    let mut used = W::zero();
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
        if r == 0 {
            // Kept whole: the state itself.
            next[i].add_assign_ref(&base);
            continue;
        }
        let mut kept = *c;
        for j in 0..CLASSES {
            kept[j] -= d[j];
        }
        for (o, wo) in &outs[r as usize] {
            let mut s = kept;
            for j in 0..CLASSES {
                s[j] += o[j];
            }
            let at = if classes.k == CLASSES {
                simplex.rank_k::<CLASSES>(&s)
            } else {
                simplex.rank_k::<4>(&s)
            };
            next[at].add_assign_ref(&base.mul_ref(wo));
        }
    }
    (next, used)
}

/// `C(n, r)`, saturating.
pub(super) fn choose(n: u64, r: u64) -> u64 {
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
///
/// The stage is solved once per start (what the roll before re-rolls
/// showed: `starts`), and its weights are integers over `6^m`: past 49
/// dice they take more than one 128-bit word each, and every operation
/// costs about as many words, so the work is counted in words.
pub(super) fn check_lucky_work(
    unit: &str,
    x: u32,
    m: u32,
    k: usize,
    lucky: LuckyPolicy,
    starts: u64,
) -> Result<()> {
    let (m, x, k) = (m as u64, x as u64, k as u64);
    let states = choose(m + k - 1, k - 1);
    let choices = match lucky {
        LuckyPolicy::Optimal => choose(x + k, k),
        LuckyPolicy::Simple => 1,
    };
    // 6^m in 128-bit words: log2(6) = 2.585 bits a die.
    let words = (m * 2585).div_ceil(128_000).max(1);
    let work = states
        .saturating_mul(choices)
        .saturating_mul(starts.max(1))
        .saturating_mul(words);
    if work > MAX_LUCKY_WORK {
        let times = if starts > 1 || words > 1 {
            format!(" x {starts} starts x {words} words a weight")
        } else {
            String::new()
        };
        return Err(Error::limit(format!(
            "{unit}: Lucky {x} over {m} attack dice is beyond the solver's bound ({states} states x {choices} choices{times} > {MAX_LUCKY_WORK})"
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
pub(crate) fn lucky_work(attacker: &Unit, defender: &Unit, policy: &Policy) -> u64 {
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

/// A node of the re-roll POP: nobody may re-roll any more, or `side` may
/// re-roll up to `x` dice, with what follows a pass and what follows a use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
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
    pub(super) fn pop(order: LuckyOrder, xa: u32, xd: u32) -> Node {
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
    pub(super) fn alternate(turn: Side, xs: [u32; 2], used: [bool; 2], passes: u32) -> Node {
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
    pub(super) fn decisions(&self, out: &mut Vec<(Side, u32)>) {
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
pub(super) struct Evaluated {
    pub(super) value: Vec<Num>,
    pub(super) exp: u32,
    pub(super) decide: Option<Decided>,
}

pub(super) struct Decided {
    pub(super) side: Side,
    pub(super) x: u32,
    pub(super) choice: Vec<Option<Choice>>,
    /// What follows a pass and what follows a use: one solve when the two
    /// are the same (in a fixed order, the second side's stage does not
    /// depend on the first side's choice).
    pub(super) pass: Arc<Evaluated>,
    pub(super) used: Arc<Evaluated>,
}

/// Solves the POP `node` over the states of `m` dice, with `finals` the
/// value of each final state.
pub(super) fn evaluate(
    classes: &FaceClasses,
    m: u32,
    node: &Node,
    lucky: LuckyPolicy,
    finals: &[Num],
) -> Result<Evaluated> {
    // A stopped solve (past its deadline, or Ctrl-C) returns here, at the
    // next node, not after the stages left: each lists and fills vectors
    // of every state (millions at power 140).
    crate::cancel::check()?;
    let Node::Decide {
        side,
        x,
        pass,
        used,
    } = node
    else {
        return Ok(Evaluated {
            value: finals.to_vec(),
            exp: 0,
            decide: None,
        });
    };
    let p = Arc::new(evaluate(classes, m, pass, lucky, finals)?);
    let u = if pass == used {
        Arc::clone(&p)
    } else {
        Arc::new(evaluate(classes, m, used, lucky, finals)?)
    };
    let stage = lucky_stage(classes, m, *x, *side, lucky, &u.value);
    // Its loops stop early once stopped: their values are never read.
    crate::cancel::check()?;
    let exp = p.exp.max(u.exp + x);
    let up_p = Num::pow(6, exp - p.exp);
    let up_u = Num::pow(6, exp - u.exp - x);
    let mut value = Vec::with_capacity(p.value.len());
    let mut choice = Vec::with_capacity(p.value.len());
    // Scaled to 6^exp (a factor of 1 left out: one side is at 6^exp).
    let scaled = |v: &Num, up: &Num| {
        if *up == Num::one() {
            v.clone()
        } else {
            v.mul_ref(up)
        }
    };
    for ((vp, vu), d) in p.value.iter().zip(stage.value).zip(&stage.choice) {
        let vp = scaled(vp, &up_p);
        let vu = scaled(&vu, &up_u);
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
    Ok(Evaluated {
        value,
        exp,
        decide: Some(Decided {
            side: *side,
            x: *x,
            choice,
            pass: p,
            used: u,
        }),
    })
}

/// Pushes a law of states (weights over some `D`) through a solved POP:
/// the law of the final states and the weight of the states in which each
/// side re-rolled at least one die, both over `D · 6^exp`.
pub(super) fn forward_pop(
    classes: &FaceClasses,
    m: u32,
    e: &Evaluated,
    dist: Vec<Num>,
) -> Result<(Vec<Num>, [Num; 2])> {
    crate::cancel::check()?;
    let Some(d) = &e.decide else {
        return Ok((dist, [Num::zero(), Num::zero()]));
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
    // Its loop stops early once stopped: the law is never read.
    crate::cancel::check()?;
    let (fp, mut up) = forward_pop(classes, m, &d.pass, pass)?;
    let (fu, uu) = forward_pop(classes, m, &d.used, after)?;
    let sp = Num::pow(6, e.exp - d.pass.exp);
    let su = Num::pow(6, e.exp - d.x - d.used.exp);
    // Both over 6^exp, summed in place (a factor of 1 left out).
    let one = Num::one();
    let mut out = fp;
    for (a, b) in out.iter_mut().zip(&fu) {
        if sp != one {
            *a = a.mul_ref(&sp);
        }
        if su == one {
            a.add_assign_ref(b);
        } else {
            a.add_assign_ref(&b.mul_ref(&su));
        }
    }
    for (s, u) in up.iter_mut().zip(uu) {
        *s = s.mul_ref(&sp);
        s.add_assign_ref(&u.mul_ref(&su));
    }
    up[crate::attack::side_index(d.side)].add_assign_ref(&used_here.mul_ref(&Num::pow(6, e.exp)));
    Ok((out, up))
}

/// The laws of the states right after the roll (Fury's dice included),
/// one per number of dice and flags of the roll before re-rolls: weights
/// over `6^(n + fury)`.
pub(super) struct Start {
    /// Dice in the state.
    pub(super) m: u32,
    /// What the roll before re-rolls showed ([`Roll::three`],
    /// [`Roll::five`]), which re-rolls can't change.
    pub(super) before: Roll,
    /// The weight of each state of `m` dice.
    pub(super) weights: Vec<Num>,
}

/// The re-roll POP of an attack: its face classes, starting laws and tree.
pub(super) struct Reroll {
    pub(super) classes: FaceClasses,
    pub(super) starts: Arc<Vec<Start>>,
    pub(super) node: Node,
    pub(super) lucky: LuckyPolicy,
    /// The exponent of 6 of the starting laws' denominator.
    pub(super) dice: u32,
}

impl Reroll {
    /// The re-roll POP of the attack in `arena` under `policy` (`None`
    /// without Lucky), refused before any work when beyond the bounds.
    pub(super) fn of(arena: &Fight, policy: &Policy) -> Result<Option<Reroll>> {
        let a = arena.units[ATTACKER];
        let d = arena.units[arena.defending];
        let n = attack_dice(a, d);
        let fury = a.keywords.fury;
        // Lucky beyond the number of dice re-rolls them all: the same.
        let mut luck = [a.keywords.lucky, d.keywords.lucky].map(|x| x.min(n + fury));
        // Cunning: the attack dice are rolled secretly, shown after damage
        // prevention, so the defender's Lucky re-rolls dice it cannot see.
        // A blind re-roll of exchangeable dice leaves the roll's law as it
        // was: it changes nothing. After the attacker's re-rolls (which it
        // sees) the dice are no longer exchangeable, and that is not solved.
        if a.keywords.cunning && luck[1] > 0 {
            if luck[0] > 0 {
                return Err(Error::not_modelled(format!(
                    "{}: Lucky on both sides against Cunning is not solved: the defender's re-rolls are blind (the dice are secret) while the attacker's are seen",
                    a.name
                )));
            }
            // Fury's extra dice follow a natural 4 of the first roll, so the
            // dice are not exchangeable then: a blind re-roll changes the
            // law, and that is not solved.
            if fury > 0 {
                return Err(Error::not_modelled(format!(
                    "{}: the defender's blind Lucky against Cunning with Fury is not solved (Fury's extra dice make the dice tell apart)",
                    a.name
                )));
            }
            luck[1] = 0;
        }
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
            // Starts: split by a natural 3 and a natural 5 before re-rolls
            // (each when tracked), and by Fury's extra dice.
            let starts = (1 + u64::from(tracked.three))
                * (1 + u64::from(tracked.five))
                * (1 + u64::from(fury > 0));
            check_lucky_work(name, x, n + fury, classes.k, policy.lucky, starts)?;
        }
        Ok(Some(Reroll {
            starts: cached_starts(&classes, n, fury, tracked),
            classes,
            node,
            lucky: policy.lucky,
            dice: n + fury,
        }))
    }

    /// The final roll of state `c` from start `s`.
    pub(super) fn roll(&self, s: &Start, c: &State) -> Roll {
        Roll {
            three: s.before.three,
            five: s.before.five,
            ..self.classes.roll(c)
        }
    }

    /// The value of the POP with `value_of` each final roll's value, and
    /// the solved trees (one per start), with the value's denominator
    /// exponent.
    pub(super) fn solve(
        &self,
        value_of: impl Fn(Roll) -> Num,
    ) -> Result<(Num, Vec<Evaluated>, u32)> {
        self.solve_finals(|j| {
            let s = &self.starts[j];
            let states = Simplex::new(s.m, self.classes.k).states();
            states.iter().map(|c| value_of(self.roll(s, c))).collect()
        })
    }

    /// [`Self::solve`] with `finals(j)` the value of each final state of
    /// start `j`, in rank order.
    pub(super) fn solve_finals(
        &self,
        finals: impl Fn(usize) -> Vec<Num>,
    ) -> Result<(Num, Vec<Evaluated>, u32)> {
        let mut value = Num::zero();
        let mut trees = Vec::new();
        let mut exp = 0;
        for (j, s) in self.starts.iter().enumerate() {
            let finals = finals(j);
            let e = evaluate(&self.classes, s.m, &self.node, self.lucky, &finals)?;
            for (w, v) in s.weights.iter().zip(&e.value) {
                value.add_assign_ref(&w.mul_ref(v));
            }
            exp = e.exp;
            trees.push(e);
        }
        Ok((value, trees, self.dice + exp))
    }
}

/// What the starting laws of a roll depend on: the face classes (faces per
/// class, which hit, how many classes), the dice, Fury's extra dice, and
/// whether natural 3s and 5s are tracked.
type StartsKey = ([u64; CLASSES], [bool; CLASSES], usize, u32, u32, bool, bool);

/// Most states the cache of starting laws keeps in all (about 32 bytes
/// each: some 64 MB).
const CACHED_STATES: usize = 2_000_000;

static STARTS: Kept<StartsKey, Vec<Start>> = Kept::new(CACHED_STATES);

/// [`initial_states`], made once per distinct roll in a process and shared
/// by every attack that rolls it: the rows of a table or a sweep, the
/// pairings of a matchup pool, a front-end's calls (issue 35: at power 40
/// they are a quarter of Lucky 1's work).
pub(super) fn cached_starts(
    classes: &FaceClasses,
    n: u32,
    fury: u32,
    track: Track,
) -> Arc<Vec<Start>> {
    let key = (
        classes.faces,
        classes.hits,
        classes.k,
        n,
        fury,
        track.three,
        track.five,
    );
    STARTS.get(
        key,
        || initial_states(classes, n, fury, track),
        |law| law.iter().map(|s| s.weights.len()).sum(),
    )
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
pub(super) fn initial_states(classes: &FaceClasses, n: u32, fury: u32, track: Track) -> Vec<Start> {
    // Marked faces: bit 0 a natural 3, bit 1 a natural 5 (each when
    // tracked), bit 2 Fury's natural 4 (first roll only).
    let marked: Vec<(u8, i32)> = [(1u8, 3, track.three), (2, 5, track.five), (4, 4, fury > 0)]
        .into_iter()
        .filter(|m| m.2)
        .map(|m| (m.0, m.1))
        .collect();
    if marked.is_empty() {
        // Nothing marked (no Fury, no face tracked): one start, each
        // state's weight its number of face sequences, in rank order.
        let states = Simplex::new(n, classes.k).states();
        let fits = matches!(Num::pow(6, n + 1), Num::Small(_));
        let weights = if fits && classes.k == 4 {
            // In 4 classes, by nested loops in rank order: C(n, a) f0^a ·
            // C(n − a, b) f1^b · C(n − a − b, c) f2^c f3^d, each factor
            // made once for the loops inside it.
            let counts = Counts::<u128>::new(n);
            let (binom, pow, f) = (&counts.binom, &counts.pow, classes.faces);
            let mut out = Vec::with_capacity(states.len());
            for a in 0..=n as usize {
                let pa = binom[n as usize][a] * pow[f[0] as usize][a];
                for b in 0..=n as usize - a {
                    let pb = pa * binom[n as usize - a][b] * pow[f[1] as usize][b];
                    let l = n as usize - a - b;
                    for c in 0..=l {
                        let w =
                            pb * binom[l][c] * pow[f[2] as usize][c] * pow[f[3] as usize][l - c];
                        out.push(Num::Small(w));
                    }
                }
            }
            out
        } else if fits {
            let counts = Counts::<u128>::new(n);
            states
                .iter()
                .map(|c| {
                    Num::Small(counts.multinomial(n, c) * counts.class_weight(&classes.faces, c))
                })
                .collect()
        } else {
            let counts = Counts::<Num>::new(n);
            states
                .iter()
                .map(|c| {
                    counts
                        .multinomial(n, c)
                        .mul_ref(&counts.class_weight(&classes.faces, c))
                })
                .collect()
        };
        return vec![Start {
            m: n,
            before: Roll::default(),
            weights,
        }];
    }
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
pub(super) fn patterns(
    classes: &FaceClasses,
    n: u32,
    marked: &[(u8, i32)],
) -> Vec<(State, u8, Num)> {
    // A state's sequences number at most 6^n, and the face powers made
    // reach 6^(n + 1): in machine words when that fits (up to 48 dice).
    if matches!(Num::pow(6, n + 1), Num::Small(_)) {
        return patterns_with::<u128>(classes, n, marked)
            .into_iter()
            .map(|(c, t, w)| (c, t, Num::Small(w)))
            .collect();
    }
    patterns_with::<Num>(classes, n, marked)
}

/// [`patterns`] in the weight `W` (which holds `6^n`).
fn patterns_with<W: Weight>(
    classes: &FaceClasses,
    n: u32,
    marked: &[(u8, i32)],
) -> Vec<(State, u8, W)> {
    let all: u8 = marked.iter().map(|m| m.0).fold(0, |a, b| a | b);
    // The subsets of the marks, as bit sets.
    let subsets: Vec<u8> = (0..=all).filter(|t| t & !all == 0).collect();
    // Each mark's bit and class, found once.
    let marks: Vec<(u8, usize)> = marked
        .iter()
        .map(|&(bit, face)| (bit, classes.class_of(face)))
        .collect();
    let mut out = Vec::new();
    let counts = Counts::<W>::new(n);
    // zeta, indexed by the subset's bits (slots of non-subsets unused),
    // reused from state to state.
    let mut zeta: Vec<W> = vec![W::zero(); all as usize + 1];
    for (i, &c) in Simplex::new(n, classes.k).states().iter().enumerate() {
        if i.is_multiple_of(1024) && crate::cancel::expired() {
            break;
        }
        let multi = counts.multinomial(n, &c);
        // zeta[T]: sequences whose marked faces all lie in T.
        for &t in &subsets {
            let mut faces = classes.faces;
            for &(bit, class) in &marks {
                if t & bit == 0 {
                    faces[class] -= 1;
                }
            }
            zeta[t as usize] = multi.mul_ref(&counts.class_weight(&faces, &c));
        }
        // Möbius: exactly the marks of T present.
        for &(bit, _) in &marks {
            for &t in &subsets {
                if t & bit != 0 {
                    let lower = zeta[(t & !bit) as usize].clone();
                    zeta[t as usize].sub_assign_ref(&lower);
                }
            }
        }
        for &t in &subsets {
            let w = &zeta[t as usize];
            if !w.is_zero() {
                out.push((c, t, w.clone()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::xorshift;

    /// Simple Lucky's choice (docs/rules.md): the attacker re-rolls missed
    /// dice, natural 1s first, then other misses (lowest faces first),
    /// then missed 6s; the defender forces hitting dice, natural 6s first,
    /// then other hits (highest first), then hitting 1s.
    #[test]
    fn simple_choice_rerolls_missed_ones_first_and_hitting_sixes_first() {
        use crate::attack::Side;
        let c = FaceClasses::new(4);
        // Classes: [natural 1, natural 6, other hit, other miss, natural 2
        // (tracked with Riposte only)].
        assert_eq!(
            simple_choice(&c, Side::Attacking, 1, &[1, 0, 0, 1, 0]),
            [1, 0, 0, 0, 0]
        );
        assert_eq!(
            simple_choice(&c, Side::Attacking, 3, &[1, 1, 1, 1, 0]),
            [1, 0, 0, 1, 0]
        );
        assert_eq!(
            simple_choice(&c, Side::Defending, 1, &[0, 1, 1, 0, 0]),
            [0, 1, 0, 0, 0]
        );
        assert_eq!(
            simple_choice(&c, Side::Defending, 3, &[1, 1, 1, 1, 0]),
            [0, 1, 1, 0, 0]
        );
        // With natural 2s tracked: the attacker re-rolls a missed 2 before the
        // other misses (lowest face first); the defender forces a hitting 2
        // after the other hits (highest face first).
        let c2 = FaceClasses::tracking(4, true);
        assert_eq!(
            simple_choice(&c2, Side::Attacking, 1, &[0, 0, 0, 1, 1]),
            [0, 0, 0, 0, 1]
        );
        let c2 = FaceClasses::tracking(2, true);
        assert_eq!(
            simple_choice(&c2, Side::Defending, 1, &[0, 0, 1, 0, 1]),
            [0, 0, 1, 0, 0]
        );
        // Accuracy 3 (hits on a natural 1): the hitting 1 is forced last.
        let c = FaceClasses::new(1);
        assert_eq!(
            simple_choice(&c, Side::Defending, 1, &[1, 0, 1, 0, 0]),
            [0, 0, 1, 0, 0]
        );
        assert_eq!(
            simple_choice(&c, Side::Defending, 2, &[1, 0, 1, 0, 0]),
            [1, 0, 1, 0, 0]
        );
    }

    /// The best re-roll of at most `x` dice of state `c` for `side` (keeping
    /// everything first: a tie keeps the dice), over `K` classes: its value
    /// and the re-roll, by trying every re-roll in lexicographic order. `g[r]`
    /// holds the values (over `6^x`) of keeping each state of the simplex
    /// `simplices[r]` and re-rolling `r` dice. The solver's `best_rerolls`
    /// finds the same one die at a time; this is its oracle.
    fn best_reroll<const K: usize, W: Weight>(
        c: &State,
        x: u32,
        side: Side,
        g: &[Vec<W>],
        simplices: &[Simplex],
    ) -> (W, Choice) {
        let at = |kept: &State, r: u32| -> &W {
            &g[r as usize][simplices[r as usize].rank_k::<K>(kept)]
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
        (best.0.clone(), best.1)
    }

    /// A stage solved in machine words is the stage solved in `Num`: the
    /// same values and the same choices (ties included), both sides, both
    /// policies, 4 and 5 classes.
    #[test]
    fn a_stage_in_machine_words_is_the_stage_in_num() {
        let mut next_u = xorshift(0x9e37_79b9_7f4a_7c15);
        for (classes, m, x) in [
            (FaceClasses::tracking(4, false), 7, 2),
            (FaceClasses::tracking(3, true), 6, 3),
            (FaceClasses::tracking(5, false), 5, 6),
        ] {
            let len = Simplex::new(m, classes.k).len;
            // Values with many ties (a few distinct ones) and without.
            for spread in [3u64, 1 << 40] {
                let next: Vec<Num> = (0..len)
                    .map(|_| Num::Small(u128::from(next_u() % spread)))
                    .collect();
                let small: Vec<u128> = next.iter().map(u128::from_num).collect();
                for side in [Side::Attacking, Side::Defending] {
                    for lucky in [LuckyPolicy::Optimal, LuckyPolicy::Simple] {
                        let (vs, cs) = stage_with::<u128>(&classes, m, x, side, lucky, &small);
                        let (vn, cn) = stage_with::<Num>(&classes, m, x, side, lucky, &next);
                        assert_eq!(cs, cn);
                        assert!(vs.iter().zip(&vn).all(|(a, b)| Num::Small(*a) == *b));
                        let stage = lucky_stage(&classes, m, x, side, lucky, &next);
                        assert_eq!(stage.choice, cn);
                        assert_eq!(stage.value, vn);
                    }
                }
            }
        }
    }

    /// Without marked faces, the starting law made directly is the one
    /// the patterns give (every state, zero weights included), in machine
    /// words and past them.
    #[test]
    fn a_start_without_marks_is_the_patterns_law() {
        for (threshold, two, n) in [
            (4, false, 0),
            (4, false, 9),
            (2, false, 40),
            (3, true, 7),
            (5, false, 52),
        ] {
            let classes = FaceClasses::tracking(threshold, two);
            let starts = initial_states(&classes, n, 0, Track::default());
            assert_eq!(starts.len(), 1);
            let simplex = Simplex::new(n, classes.k);
            let mut want = vec![Num::zero(); simplex.len];
            for (c, t, w) in patterns(&classes, n, &[]) {
                assert_eq!(t, 0);
                want[simplex.rank(&c)] = w;
            }
            assert_eq!(starts[0].weights, want);
            assert_eq!(starts[0].before, Roll::default());
            let total = starts[0].weights.iter().fold(Num::zero(), |mut a, w| {
                a.add_assign_ref(w);
                a
            });
            assert_eq!(total, Num::pow(6, n));
        }
    }

    /// One more die in 4 classes by the loops' shared sums is the same as
    /// by each state's ranks.
    #[test]
    fn one_more_die_in_four_classes_is_the_ranked_sum() {
        let mut rand = xorshift(0x1234_5678_9abc_def1);
        for (threshold, n) in [(4, 0u32), (4, 1), (3, 7), (5, 12), (2, 20)] {
            let classes = FaceClasses::tracking(threshold, false);
            let (sx, above) = (Simplex::new(n, 4), Simplex::new(n + 1, 4));
            let prev: Vec<u128> = (0..above.len).map(|_| u128::from(rand() >> 20)).collect();
            assert_eq!(
                reroll_one_4(&classes, n, &above, &prev),
                reroll_one::<4, u128>(&classes, &sx, &above, &prev)
            );
        }
    }

    /// The best re-rolls found one die at a time are those found by trying
    /// every re-roll of every state, value and choice, ties included (few
    /// distinct values make many ties), both sides, 4 and 5 classes, Lucky
    /// from 1 to past the dice.
    #[test]
    fn best_rerolls_one_die_at_a_time_are_every_rerolls_best() {
        let mut rand = xorshift(0x2545_f491_4f6c_dd1d);
        for (k, m) in [(4usize, 8u32), (CLASSES, 6), (4, 2)] {
            for x in [1u32, 2, 3, 5, 9] {
                let xm = x.min(m);
                let simplices: Vec<Simplex> = (0..=xm).map(|r| Simplex::new(m - r, k)).collect();
                for spread in [2u64, 5, 1 << 30] {
                    let g: Vec<Vec<u128>> = simplices
                        .iter()
                        .map(|sx| (0..sx.len).map(|_| u128::from(rand() % spread)).collect())
                        .collect();
                    let states = simplices[0].states();
                    for side in [Side::Attacking, Side::Defending] {
                        let (values, choices) = if k == CLASSES {
                            best_rerolls::<CLASSES, u128>(&states, xm, side, &g, &simplices)
                        } else {
                            best_rerolls::<4, u128>(&states, xm, side, &g, &simplices)
                        };
                        for (i, c) in states.iter().enumerate() {
                            let want = if k == CLASSES {
                                best_reroll::<CLASSES, u128>(c, xm, side, &g, &simplices)
                            } else {
                                best_reroll::<4, u128>(c, xm, side, &g, &simplices)
                            };
                            assert_eq!((values[i], choices[i]), want, "{c:?} x {x} {side:?}");
                        }
                    }
                }
            }
        }
    }

    /// The starting laws kept across calls are the laws made afresh, the
    /// second call shares the first's, and the cache never holds more than
    /// its bound, however many distinct rolls pass through it.
    #[test]
    fn starting_laws_are_shared_and_bounded() {
        let same = |a: &[Start], b: &[Start]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.m == y.m && x.before == y.before && x.weights == y.weights)
        };
        let track = Track {
            two: false,
            three: true,
            five: false,
        };
        let classes = FaceClasses::tracking(4, false);
        let first = cached_starts(&classes, 9, 1, track);
        assert!(same(&first, &initial_states(&classes, 9, 1, track)));
        assert!(Arc::ptr_eq(&first, &cached_starts(&classes, 9, 1, track)));
        // Another class set is another law.
        let other = FaceClasses::tracking(3, true);
        let second = cached_starts(&other, 9, 1, track);
        assert!(same(&second, &initial_states(&other, 9, 1, track)));
        assert!(!same(&first, &second));
        // The bound: a cache of its own, small values. The oldest go, the
        // total holds, a value past the bound is made and not kept.
        let kept: Kept<u32, Vec<u8>> = Kept::new(10);
        let made = std::cell::Cell::new(0);
        for (key, len) in [(1, 4), (2, 4), (1, 4), (3, 5), (4, 11), (5, 2)] {
            let v = kept.get(
                key,
                || {
                    made.set(made.get() + 1);
                    vec![0; len]
                },
                Vec::len,
            );
            assert_eq!(v.len(), len);
            let (sizes, total) = kept.sizes();
            assert!(total <= 10);
            assert_eq!(sizes.iter().sum::<usize>(), total);
        }
        // Key 1 was found the second time, not made again; 3 pushed out 1,
        // 5 pushed out 2; 11 was made and not kept.
        assert_eq!(made.get(), 5);
        assert_eq!(kept.sizes(), (vec![5, 2], 7));
    }
}
