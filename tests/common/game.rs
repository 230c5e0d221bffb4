//! Brute force for the game oracle: every ordered face sequence, every
//! subset of dice a Lucky side may re-roll, every legal choice of both
//! players in the damage steps, solved by plain expectimax / minimax over
//! exact rationals. Written from RULES.md, independently of the crate's
//! solver (no face classes, no state counting, no shared code).
#![allow(dead_code)]

use num_rational::Ratio;
use std::collections::HashMap;
use swtcg_odds::unit::Unit;

pub type Q = Ratio<i128>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Att,
    Def,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obj {
    Damage,
    Discard,
    Net,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuckyPlay {
    Optimal,
    Simple,
}

pub struct Brute {
    pub units: Vec<Unit>,
    pub sides: Vec<Who>,
    pub objective: Obj,
    pub lucky: LuckyPlay,
    pub attacker_first: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PKind {
    Attack,
    Overkill,
    Deflected,
    Retaliate,
}

#[derive(Clone, Copy, Debug)]
struct P {
    from: usize,
    to: usize,
    amount: u32,
    kind: PKind,
}

#[derive(Clone, Debug)]
struct St {
    dmg: Vec<u32>,
    /// (unit, source) pairs whose Deflect is spent.
    spent: Vec<(usize, usize)>,
}

/// One declared attack.
struct Decl<'a> {
    b: &'a Brute,
    def: usize,
    retaliate: u32,
}

fn q(n: i128) -> Q {
    Q::from_integer(n)
}

/// Every ordered sequence of `n` faces.
pub fn seqs(n: usize) -> Vec<Vec<i32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|s| {
                (1..=6).map(move |f| {
                    let mut t = s.clone();
                    t.push(f);
                    t
                })
            })
            .collect();
    }
    out
}

fn average(values: impl Iterator<Item = Q>) -> Q {
    let mut total = q(0);
    let mut n = 0i128;
    for v in values {
        total += v;
        n += 1;
    }
    total / q(n)
}

impl Brute {
    fn remaining(&self, i: usize) -> Option<u32> {
        self.units[i].health.map(|h| h - self.units[i].counters)
    }

    fn gone(&self, st: &St, i: usize) -> bool {
        self.remaining(i).is_some_and(|r| st.dmg[i] >= r)
    }

    fn leaf(&self, st: &St) -> Q {
        let mut v = 0i128;
        for i in 0..self.units.len() {
            let eff = match self.remaining(i) {
                Some(r) => st.dmg[i].min(r),
                None => st.dmg[i],
            } as i128;
            match (self.objective, self.sides[i]) {
                (Obj::Damage | Obj::Net, Who::Def) => v += eff,
                (Obj::Net, Who::Att) => v -= eff,
                (Obj::Discard, Who::Def) => v += self.gone(st, i) as i128,
                _ => {}
            }
        }
        q(v)
    }

    fn best(&self, who: Who, vals: impl Iterator<Item = Q>) -> Q {
        let mut best: Option<Q> = None;
        for v in vals {
            best = Some(match (best, who) {
                (None, _) => v,
                (Some(b), Who::Att) => b.max(v),
                (Some(b), Who::Def) => b.min(v),
            });
        }
        best.unwrap()
    }

    /// The value of the whole scenario: the defending side picks the
    /// defender (or an interceptor) and whether to pay for Retaliate.
    pub fn value(&self) -> Q {
        let mut options = vec![];
        let mut defs = vec![1];
        if !self.units[0].keywords.precision {
            for i in 2..self.units.len() {
                if self.sides[i] == Who::Def && self.units[i].keywords.intercept {
                    defs.push(i);
                }
            }
        }
        for d in defs {
            let k = &self.units[d].keywords;
            options.push(Decl {
                b: self,
                def: d,
                retaliate: k.retaliate - k.paid_retaliate,
            });
            if k.paid_retaliate > 0 {
                options.push(Decl {
                    b: self,
                    def: d,
                    retaliate: k.retaliate,
                });
            }
        }
        self.best(Who::Def, options.iter().map(|d| d.value()))
    }

    /// The law of the final hits under simple Lucky with only the declared
    /// defender (for comparing distributions): hits -> probability.
    pub fn simple_hits(&self) -> HashMap<u32, Q> {
        let d = Decl {
            b: self,
            def: 1,
            retaliate: 0,
        };
        let mut out: HashMap<u32, Q> = HashMap::new();
        for (faces, p) in d.rolls() {
            let lucky = d.simple_lucky_law(&faces);
            for (f2, p2) in lucky {
                *out.entry(d.hits(&f2)).or_insert(q(0)) += p * p2;
            }
        }
        out
    }
}

impl Decl<'_> {
    fn attacker(&self) -> &Unit {
        &self.b.units[0]
    }

    fn need(&self) -> i32 {
        let base = if self.b.units[self.def].keywords.armor {
            5
        } else {
            4
        };
        base - self.attacker().keywords.accuracy
    }

    fn hits(&self, faces: &[i32]) -> u32 {
        faces.iter().filter(|&&f| f >= self.need()).count() as u32
    }

    /// Every first roll with Fury applied, each with its probability.
    fn rolls(&self) -> Vec<(Vec<i32>, Q)> {
        let a = &self.attacker().keywords;
        let n = self
            .attacker()
            .power
            .saturating_sub(self.b.units[self.def].keywords.shields) as usize;
        let first = seqs(n);
        let mut out = vec![];
        let p1 = q(1) / q(6i128.pow(n as u32));
        for f in first {
            if a.fury > 0 && f.contains(&4) {
                let extra = seqs(a.fury as usize);
                let p2 = q(1) / q(extra.len() as i128);
                for e in extra {
                    let mut all = f.clone();
                    all.extend(e);
                    out.push((all, p1 * p2));
                }
            } else {
                out.push((f, p1));
            }
        }
        out
    }

    fn value(&self) -> Q {
        let mut memo = HashMap::new();
        let mut strikes = HashMap::new();
        let mut total = q(0);
        for (faces, p) in self.rolls() {
            total += p * self.lucky(&faces, 0, &mut memo, &mut strikes);
        }
        total
    }

    /// Who plays Lucky at `stage` (0, 1), with how many re-rolls.
    fn stage(&self, stage: usize) -> (Who, u32) {
        let att = (Who::Att, self.attacker().keywords.lucky);
        let def = (Who::Def, self.b.units[self.def].keywords.lucky);
        match (stage, self.b.attacker_first) {
            (0, true) | (1, false) => att,
            _ => def,
        }
    }

    /// The positions simple play re-rolls.
    fn simple_subset(&self, faces: &[i32], who: Who, x: u32) -> Vec<usize> {
        let need = self.need();
        let mut idx: Vec<usize> = (0..faces.len()).collect();
        let rank = |f: i32| -> Option<u8> {
            let hit = f >= need;
            match who {
                // missed dice: 1s first, then other misses, then missed 6s
                Who::Att if !hit => Some(if f == 1 {
                    0
                } else if f == 6 {
                    2
                } else {
                    1
                }),
                // hitting dice: 6s first, then other hits, then hitting 1s
                Who::Def if hit => Some(if f == 6 {
                    0
                } else if f == 1 {
                    2
                } else {
                    1
                }),
                _ => None,
            }
        };
        idx.retain(|&i| rank(faces[i]).is_some());
        idx.sort_by_key(|&i| rank(faces[i]));
        idx.truncate(x as usize);
        idx
    }

    fn subsets(n: usize, x: u32) -> Vec<Vec<usize>> {
        (0..1u32 << n)
            .filter(|m| m.count_ones() <= x)
            .map(|m| (0..n).filter(|i| m & (1 << i) != 0).collect())
            .collect()
    }

    fn reroll_all(faces: &[i32], subset: &[usize]) -> Vec<Vec<i32>> {
        seqs(subset.len())
            .into_iter()
            .map(|new| {
                let mut f = faces.to_vec();
                for (k, &i) in subset.iter().enumerate() {
                    f[i] = new[k];
                }
                f
            })
            .collect()
    }

    fn lucky(
        &self,
        faces: &[i32],
        stage: usize,
        memo: &mut HashMap<(Vec<i32>, usize), Q>,
        strikes: &mut HashMap<(u32, bool, bool), Q>,
    ) -> Q {
        if stage == 2 {
            let key = (self.hits(faces), faces.contains(&1), faces.contains(&6));
            if let Some(v) = strikes.get(&key) {
                return *v;
            }
            let v = self.strike(key.0, key.1, key.2);
            strikes.insert(key, v);
            return v;
        }
        if let Some(v) = memo.get(&(faces.to_vec(), stage)) {
            return *v;
        }
        let (who, x) = self.stage(stage);
        let v = if x == 0 {
            self.lucky(faces, stage + 1, memo, strikes)
        } else {
            let subsets = match self.b.lucky {
                LuckyPlay::Optimal => Self::subsets(faces.len(), x),
                LuckyPlay::Simple => vec![self.simple_subset(faces, who, x)],
            };
            let mut vals = vec![];
            for s in subsets {
                let outcomes = Self::reroll_all(faces, &s);
                let mut total = q(0);
                for f in &outcomes {
                    total += self.lucky(f, stage + 1, memo, strikes);
                }
                vals.push(total / q(outcomes.len() as i128));
            }
            self.b.best(who, vals.into_iter())
        };
        memo.insert((faces.to_vec(), stage), v);
        v
    }

    /// The law of the final faces under simple Lucky.
    fn simple_lucky_law(&self, faces: &[i32]) -> Vec<(Vec<i32>, Q)> {
        let mut cur = vec![(faces.to_vec(), q(1))];
        for stage in 0..2 {
            let (who, x) = self.stage(stage);
            if x == 0 {
                continue;
            }
            let mut next = vec![];
            for (f, p) in cur {
                let s = self.simple_subset(&f, who, x);
                let outs = Self::reroll_all(&f, &s);
                let n = outs.len() as i128;
                for o in outs {
                    next.push((o, p / q(n)));
                }
            }
            cur = next;
        }
        cur
    }

    /// Steps 4-8 from the final roll, with every choice.
    fn strike(&self, hits: u32, one: bool, six: bool) -> Q {
        let a = self.attacker();
        let bonus = if six { a.keywords.crit } else { 0 };
        let st = St {
            dmg: vec![0; self.b.units.len()],
            spent: vec![],
        };
        let attack = |h: u32| P {
            from: 0,
            to: self.def,
            amount: h + bonus,
            kind: PKind::Attack,
        };
        let mut vals = vec![self.pop(&st, vec![attack(hits)], one, true)];
        if a.keywords.overkill
            && let Some(r) = self.b.remaining(self.def)
            && hits > r
        {
            for u in 1..self.b.units.len() {
                if u == self.def {
                    continue;
                }
                for m in 1..=hits - r {
                    let moved = P {
                        from: 0,
                        to: u,
                        amount: m,
                        kind: PKind::Overkill,
                    };
                    // The attack packet resolves first (depth first).
                    vals.push(self.pop(&st, vec![moved, attack(hits - m)], one, true));
                }
            }
        }
        self.b.best(Who::Att, vals.into_iter())
    }

    /// A POP: `stack` pending (last = next), depth first; then placement
    /// and, after the attack's POP, the Retaliate roll.
    fn pop(&self, st: &St, stack: Vec<P>, one: bool, attack_pop: bool) -> Q {
        self.pop_acc(st, stack, vec![0; self.b.units.len()], one, attack_pop)
    }

    fn pop_acc(
        &self,
        st: &St,
        mut stack: Vec<P>,
        landed: Vec<u32>,
        one: bool,
        attack_pop: bool,
    ) -> Q {
        let b = self.b;
        let Some(p) = stack.pop() else {
            let mut placed = st.clone();
            for (i, &l) in landed.iter().enumerate() {
                if l > 0 && !b.gone(st, i) {
                    placed.dmg[i] += l;
                }
            }
            return if attack_pop {
                self.retaliate(&placed)
            } else {
                b.leaf(&placed)
            };
        };
        let tk = &b.units[p.to].keywords;
        let unpreventable = b.units[p.from].keywords.ferocity && !tk.fortitude;
        if p.amount == 0 || unpreventable || b.gone(st, p.to) {
            let mut l = landed;
            l[p.to] += p.amount;
            return self.pop_acc(st, stack, l, one, attack_pop);
        }
        let owner = b.sides[p.to];
        // Deflect options: hold, or play (free part or all) at none or any unit in play.
        let mut deflects: Vec<Option<(u32, Option<usize>)>> = vec![None];
        if tk.deflect > 0 && !st.spent.contains(&(p.to, p.from)) {
            let free = tk.deflect - tk.paid_deflect;
            let mut amounts = vec![];
            if free > 0 {
                amounts.push(free);
            }
            if tk.paid_deflect > 0 {
                amounts.push(tk.deflect);
            }
            for amt in amounts {
                deflects.push(Some((amt, None)));
                for t in 0..b.units.len() {
                    if !b.gone(st, t) {
                        deflects.push(Some((amt, Some(t))));
                    }
                }
            }
        }
        let pays: Vec<bool> = if tk.paid_evade > 0 {
            vec![false, true]
        } else {
            vec![false]
        };
        let mut vals = vec![];
        for dfl in &deflects {
            for &pay in &pays {
                let mut st2 = st.clone();
                let mut amount = p.amount;
                let mut stack2 = stack.clone();
                let mut new_packet = None;
                if let Some((amt, target)) = dfl {
                    let x = amount.min(*amt);
                    amount -= x;
                    st2.spent.push((p.to, p.from));
                    if let Some(t) = target {
                        new_packet = Some(P {
                            from: p.to,
                            to: *t,
                            amount: x,
                            kind: PKind::Deflected,
                        });
                    }
                }
                if p.kind == PKind::Attack && one {
                    amount -= amount.min(tk.parry);
                }
                let evade = if pay {
                    tk.evade
                } else {
                    tk.evade - tk.paid_evade
                };
                amount -= amount.min(evade);
                let mut l = landed.clone();
                l[p.to] += amount;
                if let Some(np) = new_packet {
                    stack2.push(np);
                }
                vals.push(self.pop_acc(&st2, stack2, l, one, attack_pop));
            }
        }
        b.best(owner, vals.into_iter())
    }

    fn retaliate(&self, st: &St) -> Q {
        let b = self.b;
        if self.retaliate == 0 || b.gone(st, 0) {
            return b.leaf(st);
        }
        let need = if b.units[0].keywords.armor { 5 } else { 4 };
        average(seqs(self.retaliate as usize).into_iter().map(|faces| {
            let r = faces.iter().filter(|&&f| f >= need).count() as u32;
            let p = P {
                from: self.def,
                to: 0,
                amount: r,
                kind: PKind::Retaliate,
            };
            self.pop(st, vec![p], false, false)
        }))
    }
}
