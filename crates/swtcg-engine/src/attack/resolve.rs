//! The damage steps of one attack (steps 4–8 of RULES.md): packets of
//! damage through the prevention POP, placement, the endings; static play,
//! or optimal play searched exactly. The attack module's types are its
//! inputs and outputs.

use super::*;

/// Which POP is running: 0 the attack's, `k` the POP of ending `k − 1`;
/// after POP `k` comes ending `k` (after the attack's, its consolation).
type Phase = usize;

/// One prevention POP in progress (unused stack slots hold [`NO_PACKET`],
/// so that equal POPs compare equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pop {
    tally: Tally,
    landed: Landed,
    stack: [Packet; STACK],
    len: usize,
    natural_one: bool,
}

/// An empty stack slot.
const NO_PACKET: Packet = Packet {
    source: 0,
    target: 0,
    amount: 0,
    kind: DamageKind::Attack,
};

impl Pop {
    fn new(tally: Tally, packets: &[Packet], natural_one: bool) -> Pop {
        let mut pop = Pop {
            tally,
            landed: Landed::default(),
            stack: [NO_PACKET; STACK],
            len: 0,
            natural_one,
        };
        // Last pushed, first resolved: the attack packet goes first.
        for p in packets.iter().rev() {
            pop.stack[pop.len] = *p;
            pop.len += 1;
        }
        pop
    }
}

/// The damage of one POP that got through prevention, not yet placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Landed {
    incoming: [u32; MAX_UNITS],
    sources: [u8; MAX_UNITS],
}

impl Landed {
    fn land(&mut self, p: &Packet) {
        if p.amount > 0 {
            self.incoming[p.target] += p.amount;
            self.sources[p.target] |= 1 << p.source;
        }
    }
}

/// A Deflect decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeflectChoice {
    /// Not played (it stays ready for this source).
    Hold,
    /// Played for `amount` (its free part and the paid parts bought), the
    /// prevented damage done to `target` (or to no unit).
    Play { amount: u32, target: Option<usize> },
}

/// The damaged unit's owner's decision on one packet: its Deflect, and the
/// paid Evade it buys, with what they cost.
#[derive(Clone, Copy, Debug)]
struct Defense {
    deflect: DeflectChoice,
    deflect_cost: u32,
    evade: u32,
    evade_cost: u32,
    /// The free Evade used, when less than all of it (`None`: all): "You
    /// don't have to use all of the Evade. You choose how much damage to
    /// Evade up to X" (Absorb and Persuade too, and `Pay 0 Force ->
    /// Evade`).
    free: Option<u32>,
}

/// Every worthwhile way to buy from `paid` abilities up to `cap` more
/// prevention with at most `left` Force (`None`: unlimited): `(amount,
/// cost)` pairs, none dominated by another (as much for less), cheapest
/// first, starting with `(0, 0)`. An X ability buys any X up to what is
/// left (all that is needed, when Force is unlimited).
pub(crate) fn purchases(
    paid: &[Paid],
    cap: u32,
    left: Option<u32>,
) -> std::borrow::Cow<'static, [(u32, u32)]> {
    use std::borrow::Cow;
    match paid {
        // Nothing to buy: buying nothing, for nothing (not allocated: most
        // units at most nodes of a search).
        [] => Cow::Borrowed(&[(0, 0)]),
        // One ability of a fixed number, the usual case: its prevention
        // (up to `cap`) when it buys any and can be paid; at no cost, only
        // that.
        [p] if !p.x => {
            let amount = p.amount.min(cap);
            if amount == 0 || left.is_some_and(|l| p.cost > l) {
                Cow::Borrowed(&[(0, 0)])
            } else if p.cost == 0 {
                Cow::Owned(vec![(amount, 0)])
            } else {
                Cow::Owned(vec![(0, 0), (amount, p.cost)])
            }
        }
        _ => Cow::Owned(every_purchase(paid, cap, left)),
    }
}

/// [`purchases`] of any abilities: every combination bought, then those
/// no cheaper one matches.
fn every_purchase(paid: &[Paid], cap: u32, left: Option<u32>) -> Vec<(u32, u32)> {
    let mut all: Vec<(u32, u32)> = vec![(0, 0)];
    for p in paid {
        let mut next = all.clone();
        for &(a, c) in &all {
            if p.x {
                let most = match left {
                    Some(l) => cap.saturating_sub(a).min(l.saturating_sub(c)),
                    None => cap.saturating_sub(a),
                };
                for x in 1..=most {
                    next.push((a + x, c + x));
                }
                if left.is_none() && most > 0 {
                    // Unlimited Force: only "as much as needed" matters.
                    next.retain(|&(na, nc)| !(nc > c && na < a + most && na > a));
                }
            } else {
                let c2 = c + p.cost;
                if left.is_none_or(|l| c2 <= l) {
                    next.push(((a + p.amount).min(cap), c2));
                }
            }
        }
        all = next;
    }
    all.sort_by_key(|&(a, c)| (c, std::cmp::Reverse(a)));
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (a, c) in all {
        // Cheapest first: keep it only if it buys more than anything cheaper.
        if out.iter().all(|&(oa, _)| a > oa) {
            out.push((a, c));
        }
    }
    out
}

/// The purchases a player weighs: all of them under optimal play; under
/// static play only the last (the most prevention its Force buys).
fn played_purchases(buys: &[(u32, u32)], stat: bool) -> &[(u32, u32)] {
    if stat { &buys[buys.len() - 1..] } else { buys }
}

/// A solved subtree of optimal play, for unit weight: its value (expected
/// objective plus offset, times the dice denominator still to come) and the
/// tallies it ends in (shared, as the best option's is passed up unchanged).
type Solved<W> = Rc<(Num, Vec<(Tally, W)>)>;

/// What the damage steps read of one unit, packed (the unit's keywords are
/// large; these few numbers are read for every packet).
#[derive(Clone, Copy, Debug, Default)]
struct Hot {
    /// Health minus counters (`u32::MAX` when unknown).
    remaining: u32,
    parry: u32,
    evade: u32,
    deflect: u32,
    /// It has a Deflect (free or paid).
    can_deflect: bool,
    ferocity: bool,
    fortitude: bool,
    double_damage: bool,
    /// It attacks from another arena: no Deflect reaches it.
    remote: bool,
}

/// How a side breaks a tie between options of equal value, compared in
/// order (greater is better): more damage to the other side, less to its
/// own, less Force spent.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TieBreak<W: Weight> {
    other: W,
    own: std::cmp::Reverse<W>,
    force: std::cmp::Reverse<W>,
}

/// The resolver of the damage steps for one arena, with weights `W`.
struct Resolver<'r, 'a, W: Weight> {
    arena: &'r Fight<'a>,
    /// For each ending: the weights of each damage it can do, and their
    /// denominator.
    rolls: Vec<(Vec<W>, W)>,
    /// Added to every objective value so that it is never negative.
    offset: u64,
    /// No unit has a paid ability, a toll or all its damage prevented: the
    /// fast path of static play.
    plain: bool,
    /// Each unit's numbers the damage steps read.
    hot: [Hot; MAX_UNITS],
    /// The attacker's damage beyond its hits.
    bonus: u32,
}

impl<'a> Fight<'a> {
    /// Optimal play of steps 4–8 after each strike: its value (expected
    /// objective plus [`Self::value_offset`], times [`Self::end_denom`])
    /// and the law of the final tallies (weights over the same). One search
    /// serves all the strikes, so POPs reached again are not solved again.
    /// Fails when the search exceeds [`MAX_SEARCH_NODES`].
    pub(crate) fn resolve_optimal(&self, strikes: &[Strike]) -> Result<Vec<Resolved>> {
        let r = self.resolver::<Num>();
        let out = strikes
            .iter()
            .map(|s| {
                let solved = r.strike(*s);
                Resolved {
                    value: solved.0.clone(),
                    tallies: solved.1.clone(),
                }
            })
            .collect();
        crate::cancel::check()?;
        if self.budget.get() == 0 {
            return Err(Error::limit(format!(
                "the choices of this attack ({} units, {} with Deflect) are beyond the solver's bound of {MAX_SEARCH_NODES} search nodes",
                self.units.len(),
                self.units.iter().filter(|u| u.keywords.deflect > 0).count()
            )));
        }
        Ok(out)
    }

    fn resolver<W: Weight>(&self) -> Resolver<'_, 'a, W> {
        let rolls: Vec<(Vec<W>, W)> = self
            .endings
            .iter()
            .map(|e| {
                if e.dice {
                    let armor = self.units[e.target].keywords.armor;
                    let dice: Dist<W> = damage_dice(e.amount, armor);
                    let w = (0..=e.amount as i64).map(|k| dice.weight(k)).collect();
                    (w, dice.denom().clone())
                } else {
                    let mut w = vec![W::zero(); e.amount as usize + 1];
                    w[e.amount as usize] = W::one();
                    (w, W::one())
                }
            })
            .collect();
        let plain = self.fast_path
            && self.units.iter().all(|u| {
                let k = &u.keywords;
                k.paid_evades.is_empty()
                    && k.paid_deflects.is_empty()
                    && k.tolls.is_empty()
                    && !k.harmless
                    && k.protect == 0
            });
        let mut hot = [Hot::default(); MAX_UNITS];
        for (h, u) in hot.iter_mut().zip(&self.units) {
            let k = &u.keywords;
            *h = Hot {
                remaining: u.remaining_health().unwrap_or(u32::MAX),
                parry: k.parry,
                evade: k.evade,
                deflect: k.deflect,
                can_deflect: k.deflect > 0 || !k.paid_deflects.is_empty(),
                ferocity: k.ferocity,
                fortitude: k.fortitude,
                double_damage: k.double_damage,
                remote: u.from_another_arena,
            };
        }
        Resolver {
            arena: self,
            rolls,
            offset: self.value_offset(),
            plain,
            hot,
            bonus: self.units[ATTACKER].keywords.bonus_damage,
        }
    }

    /// Static play of steps 4–8: the law of the final tallies for a whole
    /// law of strikes (optimal play goes through [`Self::resolve_optimal`]).
    pub(crate) fn resolve_strikes<W: Weight>(&self, strikes: &Joint<Strike, W>) -> Joint<Tally, W> {
        debug_assert_eq!(self.play, Play::Static, "optimal play: use resolve_optimal");
        let r = self.resolver::<W>();
        // No choices: the attack's POP is a function of the strike, so its
        // tallies are merged before each roll at the end.
        let consoled = self.units[ATTACKER].keywords.consolation.is_some();
        let mut out = Vec::with_capacity(strikes.len());
        for (s, w) in strikes.entries() {
            let mut start = self.start;
            start.flags = s.flags;
            let mut t = r.static_pop(start, r.attack_packet(s, s.hits), s.one, true);
            if consoled && let Some(c) = r.consolation(&t) {
                t = c;
            }
            out.push((t, w.clone()));
        }
        let mut placed = Joint::from_pairs(out, strikes.denom().clone());
        for k in 0..self.endings.len() {
            placed = r.static_ending(&placed, k);
        }
        placed
    }
}

impl<W: Weight> Resolver<'_, '_, W> {
    /// Static play of ending `k` after every placed tally. Its POP reads a
    /// tally only through the Deflects already used, which units are
    /// discarded and the Force spent, and only adds to it: so it is played
    /// once per such state and damage, and its increments added to each
    /// tally.
    fn static_ending(&self, placed: &Joint<Tally, W>, k: usize) -> Joint<Tally, W> {
        let a = self.arena;
        let (weights, denom) = &self.rolls[k];
        let mut out = Vec::new();
        // (Deflects used, discarded units, Force spent) -> increments. The
        // POP never reads who placed counters or what was used: it runs from
        // a copy with those bits cleared, so that its increments carry only
        // its own.
        type State = ([u8; MAX_UNITS], u8, [u32; 2]);
        let mut memo: Vec<(State, Vec<Tally>)> = Vec::new();
        for (t, w) in placed.entries() {
            if !self.ending_happens(t, k) {
                out.push((*t, w.mul_ref(denom)));
                continue;
            }
            let discards = (0..a.units.len()).fold(0u8, |m, i| m | ((self.gone(t, i) as u8) << i));
            let key = (t.deflect_used, discards, t.spent);
            let at = match memo.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let increments = (0..weights.len() as u32)
                        .map(|hits| {
                            let mut clean = *t;
                            clean.damaged_by = 0;
                            clean.used = 0;
                            let after =
                                self.static_pop(clean, self.ending_packet(k, hits), false, false);
                            let mut inc = after;
                            for i in 0..MAX_UNITS {
                                inc.damage[i] -= t.damage[i];
                            }
                            for s in 0..2 {
                                inc.spent[s] -= t.spent[s];
                            }
                            inc
                        })
                        .collect();
                    memo.push((key, increments));
                    memo.len() - 1
                }
            };
            for (hits, wr) in weights.iter().enumerate() {
                if wr.is_zero() {
                    continue;
                }
                let inc = &memo[at].1[hits];
                let mut t2 = *t;
                for i in 0..MAX_UNITS {
                    t2.damage[i] += inc.damage[i];
                    t2.deflect_used[i] |= inc.deflect_used[i];
                }
                for s in 0..2 {
                    t2.spent[s] += inc.spent[s];
                }
                t2.damaged_by |= inc.damaged_by;
                t2.used |= inc.used;
                out.push((t2, w.mul_ref(wr)));
            }
        }
        Joint::from_pairs(out, placed.denom().mul_ref(denom))
    }

    /// Whether ending `k` does anything after `tally`: it has damage to do,
    /// its target is still in play, and so is its source. A discarded unit
    /// does nothing when the attack ends unless its text says so: only
    /// Retaliate does ("even if your unit gets discarded"), so Riposte and
    /// Avenge of a discarded unit do nothing (RULES.md; one rule for every
    /// keyword that acts when the attack ends).
    fn ending_happens(&self, tally: &Tally, k: usize) -> bool {
        let a = self.arena;
        let e = &a.endings[k];
        let when = match e.when {
            Trigger::Always => true,
            Trigger::Two => tally.flags & flags::TWO != 0,
            Trigger::Three => tally.flags & flags::THREE != 0,
            Trigger::Felled(j) => tally.felled & (1 << j) != 0,
        };
        let source_acts = e.kind == DamageKind::Retaliate || !self.gone(tally, e.source);
        when && source_acts && e.amount > 0 && !self.gone(tally, e.target)
    }

    /// The packet of ending `k` doing `hits` damage.
    fn ending_packet(&self, k: usize, hits: u32) -> Packet {
        let e = &self.arena.endings[k];
        Packet {
            source: e.source,
            target: e.target,
            amount: hits,
            kind: e.kind,
        }
    }

    /// The tally after the attacker's consolation ability, when its attack
    /// placed no counters on the defending unit (still in play): `None`
    /// when it has none or may not use it.
    fn consolation(&self, tally: &Tally) -> Option<Tally> {
        let a = self.arena;
        let (own, theirs) = a.units[ATTACKER].keywords.consolation?;
        let d = a.defending;
        if tally.damage[d] > a.start.damage[d] || self.gone(tally, d) || self.gone(tally, ATTACKER)
        {
            return None;
        }
        let mut t = *tally;
        t.damage[ATTACKER] += own as u16;
        t.damage[d] += theirs as u16;
        t.used |= used::bit(ATTACKER, used::CONSOLATION);
        Some(t)
    }

    fn optimal(&self) -> Option<Objective> {
        match self.arena.play {
            Play::Optimal(o) => Some(o),
            Play::Static => None,
        }
    }

    /// The attack packet of a strike with `hits` of its hits left to the
    /// defending unit.
    fn attack_packet(&self, s: &Strike, hits: u32) -> Packet {
        Packet {
            source: ATTACKER,
            target: self.arena.defending,
            amount: hits + s.bonus + self.bonus,
            kind: DamageKind::Attack,
        }
    }

    /// Optimal play of steps 4–8 from a strike, with the Overkill decision.
    fn strike(&self, s: Strike) -> Solved<W> {
        let a = self.arena;
        let d = a.defending;
        let attack = |hits: u32| self.attack_packet(&s, hits);
        let excess = match a.units[d].remaining_health() {
            Some(r) if a.units[ATTACKER].keywords.overkill => s.hits.saturating_sub(r),
            _ => 0,
        };
        let mut start = a.start;
        start.flags = s.flags;
        let plain = Pop::new(start, &[attack(s.hits)], s.one);
        if excess == 0 {
            return self.run(plain, 0);
        }
        // Overkill: the attacker moves 0..=excess hits to one other unit.
        let mut options = vec![plain];
        for u in 0..a.units.len() {
            if u == d || u == ATTACKER {
                continue;
            }
            for m in 1..=excess {
                let mut t = start;
                t.used |= used::bit(ATTACKER, used::OVERKILL);
                let moved = Packet {
                    source: ATTACKER,
                    target: u,
                    amount: m,
                    kind: DamageKind::Overkill,
                };
                options.push(Pop::new(t, &[attack(s.hits - m), moved], s.one));
            }
        }
        self.best(Side::Attacking, options, 0)
    }

    /// The owner's best option (the first, on full ties).
    fn best(&self, owner: Side, options: Vec<Pop>, phase: Phase) -> Solved<W> {
        self.best_of(owner, options.into_iter().map(|pop| self.run(pop, phase)))
    }

    /// The owner's best of solved options: the best value of its
    /// objective; on a tie, as a player breaks it ([`TieBreak`]): more
    /// damage to the other side, then less to its own, then less Force
    /// spent; the first on a full tie.
    fn best_of(&self, owner: Side, options: impl Iterator<Item = Solved<W>>) -> Solved<W> {
        let mut best: Option<(Solved<W>, Option<TieBreak<W>>)> = None;
        for s in options {
            let better = match &mut best {
                None => true,
                Some((b, key)) => {
                    let ord = match owner {
                        Side::Attacking => s.0.cmp(&b.0),
                        Side::Defending => b.0.cmp(&s.0),
                    };
                    match ord {
                        std::cmp::Ordering::Greater => true,
                        std::cmp::Ordering::Less => false,
                        std::cmp::Ordering::Equal => {
                            let bk = key.get_or_insert_with(|| self.tie_break(owner, b));
                            self.tie_break(owner, &s) > *bk
                        }
                    }
                }
            };
            if better {
                best = Some((s, None));
            }
        }
        best.expect("at least one option").0
    }

    /// What breaks a tie for `owner` between options of equal value: its
    /// expected damage to the other side, to its own (less is better), and
    /// the Force it spends (less is better), each as weights over the
    /// option's denominator (options of one decision share it).
    fn tie_break(&self, owner: Side, s: &Solved<W>) -> TieBreak<W> {
        let sides = &self.arena.sides;
        let me = side_index(owner);
        let mut other = W::zero();
        let mut own = W::zero();
        let mut force = W::zero();
        for (t, w) in &s.1 {
            let (mut o, mut m) = (0u64, 0u64);
            for (i, side) in sides.iter().enumerate() {
                let d = u64::from(t.damage[i]);
                if side_index(*side) == me {
                    m += d;
                } else {
                    o += d;
                }
            }
            other.add_assign_ref(&w.mul_u64(o));
            own.add_assign_ref(&w.mul_u64(m));
            force.add_assign_ref(&w.mul_u64(u64::from(t.spent[me])));
        }
        TieBreak {
            other,
            own: std::cmp::Reverse(own),
            force: std::cmp::Reverse(force),
        }
    }

    /// What happens to packet `p` before its target's owner decides:
    /// `Land` when nothing can prevent it (no damage, its target already
    /// discarded, or unpreventable: Ferocity against a unit without
    /// Fortitude), `Gone` when it is all prevented (its source's damage is
    /// all prevented), `Toll(n)` when the source's player must pay `n` Force
    /// or see it prevented, else `Open`.
    #[inline]
    fn gate(&self, tally: &Tally, p: &Packet) -> Gate {
        let a = self.arena;
        let (hs, ht) = (&self.hot[p.source], &self.hot[p.target]);
        let unpreventable = hs.ferocity && !ht.fortitude;
        if p.amount == 0 || unpreventable || self.gone(tally, p.target) {
            return Gate::Land;
        }
        if self.plain {
            return Gate::Open;
        }
        let (src, tgt) = (a.units[p.source], a.units[p.target]);
        if src.keywords.harmless {
            return Gate::Gone;
        }
        let toll: u32 = tgt.keywords.tolls.iter().sum();
        if toll > 0 && a.sides[p.source] != a.sides[p.target] {
            return Gate::Toll(toll);
        }
        Gate::Open
    }

    /// The pending damage of `p` after Parry (attack damage only, on a
    /// natural 1).
    #[inline]
    fn after_parry(&self, p: &Packet, natural_one: bool) -> u32 {
        let parry = self.hot[p.target].parry;
        if p.kind == DamageKind::Attack && natural_one {
            p.amount - p.amount.min(parry)
        } else {
            p.amount
        }
    }

    /// Prevention of one packet, given its owner's decision: Parry first
    /// (triggered: the attack damage only, on a natural 1), then the Deflect
    /// played (as much as it can of what is still pending), then Evade (its
    /// free part, and the paid part bought). Returns what gets through and
    /// the deflected packet, if any. Every prevention keyword acts here.
    #[inline]
    fn prevent(
        &self,
        tally: &mut Tally,
        mut p: Packet,
        natural_one: bool,
        defense: &Defense,
    ) -> (Packet, Option<Packet>) {
        let evade = defense.free.unwrap_or(self.hot[p.target].evade);
        p.amount = self.after_parry(&p, natural_one);
        let mut deflected = None;
        if let DeflectChoice::Play { amount, target } = defense.deflect {
            let d = p.amount.min(amount);
            p.amount -= d;
            tally.deflect_used[p.target] |= 1 << p.source;
            tally.used |= used::bit(p.target, used::DEFLECT);
            deflected = target.filter(|_| d > 0).map(|t| Packet {
                source: p.target,
                target: t,
                amount: d,
                kind: DamageKind::Deflected,
            });
        }
        if defense.evade > 0 {
            tally.used |= used::bit(p.target, used::EVADE);
        }
        let protect = if self.plain {
            0
        } else {
            self.protect(tally, &p)
        };
        p.amount -= p
            .amount
            .min(evade.saturating_add(defense.evade).saturating_add(protect));
        let cost = defense.deflect_cost + defense.evade_cost;
        if cost > 0 {
            tally.spent[side_index(self.arena.sides[p.target])] += cost;
        }
        (p, deflected)
    }

    /// Damage that got through lands: the attack damage of an attacker
    /// with Double Damage puts one more counter per point on the defending
    /// unit (Overkill and deflected damage are not doubled).
    #[inline]
    fn land(&self, landed: &mut Landed, p: &Packet) {
        if p.kind == DamageKind::Attack && self.hot[ATTACKER].double_damage {
            landed.land(&Packet {
                amount: p.amount.saturating_mul(2),
                ..*p
            });
        } else {
            landed.land(p);
        }
    }

    /// The prevention other units of the side of `p`'s target give it with
    /// Protect (each its whole X, once per instance), or 0.
    #[inline]
    fn protect(&self, tally: &Tally, p: &Packet) -> u32 {
        let a = self.arena;
        a.units
            .iter()
            .enumerate()
            .filter(|(i, u)| {
                *i != p.target
                    && u.keywords.protect > 0
                    && a.sides[*i] == a.sides[p.target]
                    && !self.gone(tally, *i)
            })
            .map(|(_, u)| u.keywords.protect)
            .fold(0, u32::saturating_add)
    }

    /// Whether units `i` and `j` are in the same arena: only an attacker
    /// from another arena is not in its defenders' (Deflect reaches only
    /// units of the deflector's arena).
    #[inline]
    fn same_arena(&self, i: usize, j: usize) -> bool {
        self.hot[i].remote == self.hot[j].remote
    }

    /// Whether the target of `p` has a Deflect ready against its source.
    #[inline]
    fn deflect_ready(&self, tally: &Tally, p: &Packet) -> bool {
        self.hot[p.target].can_deflect && tally.deflect_used[p.target] & (1 << p.source) == 0
    }

    /// Whether unit `i` is discarded given `tally` ([`Fight::discarded`],
    /// from the packed numbers).
    #[inline]
    fn gone(&self, tally: &Tally, i: usize) -> bool {
        u32::from(tally.damage[i]) >= self.hot[i].remaining
    }

    /// The decisions of the owner of `p`'s target. Static play has one: its
    /// Deflect to the full back at the source, as much paid Evade as it can
    /// buy. Optimal play has every option: Deflect held or played (its free
    /// part with any worthwhile purchase of its paid parts) at the source,
    /// at no unit or at any other unit in play; any worthwhile purchase of
    /// paid Evade; all within the side's Force. The first option is the
    /// cheapest (kept on ties): holding, then back at the source.
    fn defenses(&self, tally: &Tally, p: &Packet, natural_one: bool) -> Vec<Defense> {
        let a = self.arena;
        let k = &a.units[p.target].keywords;
        if let Some(c) = a
            .committed
            .filter(|_| p.kind == DamageKind::Attack && p.target == a.defending)
        {
            // Cunning: chosen before the roll, paid then.
            let pending = self.after_parry(p, natural_one);
            let deflect = match c.deflect {
                Some((amount, target)) if pending > 0 && self.deflect_ready(tally, p) => {
                    DeflectChoice::Play {
                        amount: amount.min(pending),
                        target,
                    }
                }
                _ => DeflectChoice::Hold,
            };
            return vec![Defense {
                deflect,
                deflect_cost: 0,
                evade: c.evade,
                evade_cost: 0,
                free: None,
            }];
        }
        let left = a.left(tally, a.sides[p.target]);
        let pending = self.after_parry(p, natural_one);
        let stat = a.play == Play::Static;
        let mut deflects = vec![(DeflectChoice::Hold, 0)];
        if pending > 0 && self.deflect_ready(tally, p) {
            let buys = purchases(&k.paid_deflects, pending.saturating_sub(k.deflect), left);
            for &(extra, cost) in played_purchases(&buys, stat) {
                let amount = (k.deflect + extra).min(pending);
                if amount == 0 {
                    continue;
                }
                // Back at the source first (static play's only target, when
                // the source is in the deflector's arena; else nowhere).
                let back = self.same_arena(p.target, p.source);
                let mut targets = vec![back.then_some(p.source)];
                if !stat {
                    if !back || self.gone(tally, p.source) {
                        targets.clear();
                    }
                    targets.push(None);
                    targets.extend(
                        (0..a.units.len())
                            .filter(|&t| {
                                t != p.source
                                    && !self.gone(tally, t)
                                    && self.same_arena(p.target, t)
                            })
                            .map(Some),
                    );
                }
                for target in targets {
                    deflects.push((DeflectChoice::Play { amount, target }, cost));
                }
            }
            if stat {
                deflects.remove(0);
            }
        }
        let mut out = Vec::new();
        for (deflect, deflect_cost) in deflects {
            let played = match deflect {
                DeflectChoice::Play { amount, .. } => amount,
                DeflectChoice::Hold => 0,
            };
            let rest = pending - played;
            let left = left.map(|l| l - deflect_cost);
            let buys = purchases(&k.paid_evades, rest.saturating_sub(k.evade), left);
            for &(evade, evade_cost) in played_purchases(&buys, stat) {
                out.push(Defense {
                    deflect,
                    deflect_cost,
                    evade,
                    evade_cost,
                    free: None,
                });
                // A free Evade is optional, in part too: less of it, as its
                // owner chooses (after all of it, which ties keep).
                if !stat {
                    let full = k.evade.min(rest);
                    for free in (0..full).rev() {
                        out.push(Defense {
                            deflect,
                            deflect_cost,
                            evade,
                            evade_cost,
                            free: Some(free),
                        });
                    }
                }
            }
        }
        out
    }

    /// Static play's decision on packet `p` (the first of
    /// [`Self::defenses`], without building the others): the Deflect to
    /// the full back at the source, as much paid Evade as can be bought.
    #[inline]
    fn static_defense(&self, tally: &Tally, p: &Packet, natural_one: bool) -> Defense {
        let a = self.arena;
        if self.plain {
            let deflect = self.hot[p.target].deflect;
            let pending = self.after_parry(p, natural_one);
            let played = if pending > 0 && deflect > 0 && self.deflect_ready(tally, p) {
                deflect.min(pending)
            } else {
                0
            };
            return Defense {
                deflect: if played > 0 {
                    DeflectChoice::Play {
                        amount: played,
                        target: self.same_arena(p.target, p.source).then_some(p.source),
                    }
                } else {
                    DeflectChoice::Hold
                },
                deflect_cost: 0,
                evade: 0,
                evade_cost: 0,
                free: None,
            };
        }
        let k = &a.units[p.target].keywords;
        let left = a.left(tally, a.sides[p.target]);
        let pending = self.after_parry(p, natural_one);
        let most = |paid: &[Paid], cap: u32, left: Option<u32>| -> (u32, u32) {
            if paid.is_empty() || cap == 0 {
                (0, 0)
            } else {
                *purchases(paid, cap, left)
                    .last()
                    .expect("(0, 0) is always a purchase")
            }
        };
        let mut d = Defense {
            deflect: DeflectChoice::Hold,
            deflect_cost: 0,
            evade: 0,
            evade_cost: 0,
            free: None,
        };
        let mut played = 0;
        if pending > 0 && self.deflect_ready(tally, p) {
            let (extra, cost) = most(&k.paid_deflects, pending.saturating_sub(k.deflect), left);
            let amount = (k.deflect + extra).min(pending);
            if amount > 0 {
                d.deflect = DeflectChoice::Play {
                    amount,
                    target: self.same_arena(p.target, p.source).then_some(p.source),
                };
                d.deflect_cost = cost;
                played = amount;
            }
        }
        let rest = pending - played;
        let (evade, cost) = most(
            &k.paid_evades,
            rest.saturating_sub(k.evade),
            left.map(|l| l - d.deflect_cost),
        );
        d.evade = evade;
        d.evade_cost = cost;
        d
    }

    /// Static play of one POP: a toll paid when it can be, every ability to
    /// the full, deflected damage back at its source, depth first. Returns
    /// the tally after placement.
    fn static_pop(
        &self,
        tally: Tally,
        first: Packet,
        natural_one: bool,
        attack_pop: bool,
    ) -> Tally {
        if self.plain {
            return self.static_pop_plain(tally, first, natural_one, attack_pop);
        }
        let mut t = tally;
        let mut landed = Landed::default();
        let mut next = Some(first);
        while let Some(p) = next.take() {
            match self.gate(&t, &p) {
                Gate::Land => {
                    self.land(&mut landed, &p);
                    continue;
                }
                Gate::Gone => continue,
                Gate::Toll(n) => {
                    let payer = self.arena.sides[p.source];
                    if self.arena.left(&t, payer).is_some_and(|l| l < n) {
                        continue;
                    }
                    t.spent[side_index(payer)] += n;
                }
                Gate::Open => {}
            }
            let defense = self.static_defense(&t, &p, natural_one);
            let (q, d) = self.prevent(&mut t, p, natural_one, &defense);
            self.land(&mut landed, &q);
            next = d;
        }
        self.place(&t, &landed, attack_pop)
    }

    /// [`Self::static_pop`] when no unit has a paid ability, a toll,
    /// Protect or all its damage prevented (the common case, kept tight):
    /// Parry, the free Deflect to the full back at the source, the free
    /// Evade.
    fn static_pop_plain(
        &self,
        tally: Tally,
        first: Packet,
        natural_one: bool,
        attack_pop: bool,
    ) -> Tally {
        let mut t = tally;
        let mut landed = Landed::default();
        let mut next = Some(first);
        while let Some(mut p) = next.take() {
            let (hs, ht) = (&self.hot[p.source], &self.hot[p.target]);
            if p.amount == 0 || (hs.ferocity && !ht.fortitude) || self.gone(&t, p.target) {
                self.land(&mut landed, &p);
                continue;
            }
            if p.kind == DamageKind::Attack && natural_one {
                p.amount -= p.amount.min(ht.parry);
            }
            if p.amount > 0 && ht.deflect > 0 && t.deflect_used[p.target] & (1 << p.source) == 0 {
                let d = p.amount.min(ht.deflect);
                p.amount -= d;
                t.deflect_used[p.target] |= 1 << p.source;
                t.used |= used::bit(p.target, used::DEFLECT);
                // Back at the source, when it is in the deflector's arena
                // (else the damage is prevented and goes nowhere).
                next = (hs.remote == ht.remote).then_some(Packet {
                    source: p.target,
                    target: p.source,
                    amount: d,
                    kind: DamageKind::Deflected,
                });
            }
            p.amount -= p.amount.min(ht.evade);
            self.land(&mut landed, &p);
        }
        self.place(&t, &landed, attack_pop)
    }

    /// Optimal play of a POP to its end (branching at each choice: a toll
    /// paid or not by the source's player, every decision of the damaged
    /// unit's owner), then what follows. Not memoized: a table of POPs
    /// (tried) outgrows memory long before it saves time; the search is
    /// bounded by the arena's budget instead.
    fn run(&self, mut pop: Pop, phase: Phase) -> Solved<W> {
        loop {
            // Out of budget: stop searching (the caller reports it).
            let left = self.arena.budget.get();
            if left == 0 {
                return Rc::new((Num::zero(), Vec::new()));
            }
            self.arena.budget.set(left - 1);
            // A deadline passed ends the search like an exhausted budget.
            if left.is_multiple_of(4096) && crate::cancel::expired() {
                self.arena.budget.set(0);
            }
            if pop.len == 0 {
                let tally = self.place(&pop.tally, &pop.landed, phase == 0);
                return self.after(tally, phase);
            }
            pop.len -= 1;
            let p = pop.stack[pop.len];
            pop.stack[pop.len] = NO_PACKET;
            match self.gate(&pop.tally, &p) {
                Gate::Land => {
                    self.land(&mut pop.landed, &p);
                    continue;
                }
                Gate::Gone => continue,
                Gate::Toll(n) => {
                    // The source's player pays (and the packet goes on to
                    // its prevention), or not (and it is prevented).
                    let payer = self.arena.sides[p.source];
                    let mut options = vec![self.run(pop, phase)];
                    if self.arena.left(&pop.tally, payer).is_none_or(|l| l >= n) {
                        let mut paid = pop;
                        paid.tally.spent[side_index(payer)] += n;
                        options.push(self.defend(paid, p, phase));
                    }
                    return self.best_of(payer, options.into_iter());
                }
                Gate::Open => {}
            }
            let defenses = self.defenses(&pop.tally, &p, pop.natural_one);
            if defenses.len() == 1 {
                self.apply(&mut pop, p, &defenses[0]);
                continue;
            }
            return self.defend_with(pop, p, phase, &defenses);
        }
    }

    /// Packet `p` met by its target's owner's decision.
    fn apply(&self, pop: &mut Pop, p: Packet, defense: &Defense) {
        let (q, deflected) = self.prevent(&mut pop.tally, p, pop.natural_one, defense);
        self.land(&mut pop.landed, &q);
        if let Some(d) = deflected {
            pop.stack[pop.len] = d;
            pop.len += 1;
        }
    }

    /// The best of the decisions of `p`'s target's owner, then the rest of
    /// the POP.
    fn defend(&self, pop: Pop, p: Packet, phase: Phase) -> Solved<W> {
        let defenses = self.defenses(&pop.tally, &p, pop.natural_one);
        self.defend_with(pop, p, phase, &defenses)
    }

    /// [`Self::defend`] with `p`'s defenses already listed.
    fn defend_with(&self, pop: Pop, p: Packet, phase: Phase, defenses: &[Defense]) -> Solved<W> {
        let options = defenses.iter().map(|d| {
            let mut child = pop;
            self.apply(&mut child, p, d);
            self.run(child, phase)
        });
        self.best_of(self.arena.sides[p.target], options)
    }

    /// Places the POP's damage at once: a unit already discarded before
    /// this placement takes nothing. In the attack's POP (`attack_pop`), a
    /// unit discarded with damage from the attacking unit among what was
    /// placed is marked felled (Avenge).
    #[inline]
    fn place(&self, before: &Tally, landed: &Landed, attack_pop: bool) -> Tally {
        let a = self.arena;
        let mut t = *before;
        for i in 0..a.units.len() {
            if landed.incoming[i] > 0 && !self.gone(before, i) {
                t.damage[i] += landed.incoming[i] as u16;
                t.damaged_by |= landed.sources[i];
                if attack_pop && landed.sources[i] & (1 << ATTACKER) != 0 && self.gone(&t, i) {
                    t.felled |= 1 << i;
                }
            }
        }
        t
    }

    /// What follows POP `phase` under optimal play: after the attack's, the
    /// attacker's consolation (a choice); then each ending in turn (a
    /// chance node for dice); the objective at the end.
    fn after(&self, tally: Tally, phase: Phase) -> Solved<W> {
        if phase == 0
            && let Some(t) = self.consolation(&tally)
        {
            let options = [tally, t].into_iter().map(|t| self.ending(t, 0));
            return self.best_of(Side::Attacking, options);
        }
        // After the attack's POP comes ending 0; after ending k's, ending k + 1.
        self.ending(tally, phase)
    }

    /// Ending `k` and everything after it, under optimal play.
    fn ending(&self, tally: Tally, k: usize) -> Solved<W> {
        let a = self.arena;
        if k == a.endings.len() {
            let objective = self.optimal().expect("optimal play");
            let v = a.objective_value(objective, &tally) + self.offset as i64;
            return Rc::new((Num::from_u64(v as u64), vec![(tally, W::one())]));
        }
        let (weights, denom) = &self.rolls[k];
        if !self.ending_happens(&tally, k) {
            // Nothing to damage: the roll does not matter, so its whole
            // weight goes to what follows.
            let next = self.ending(tally, k + 1);
            if *denom == W::one() {
                return next;
            }
            return Rc::new((
                next.0.mul_ref(&denom.to_num()),
                next.1.iter().map(|(t, w)| (*t, w.mul_ref(denom))).collect(),
            ));
        }
        // Every roll's subtree first, then their tallies in one vector of
        // the right size (grown roll by roll, it was copied at each).
        let children: Vec<(&W, Solved<W>)> = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(|(hits, w)| {
                let pop = Pop::new(tally, &[self.ending_packet(k, hits as u32)], false);
                (w, self.run(pop, k + 1))
            })
            .collect();
        let mut value = Num::zero();
        let mut tallies = Vec::with_capacity(children.iter().map(|(_, c)| c.1.len()).sum());
        for (w, child) in &children {
            value.add_assign_ref(&child.0.mul_ref(&w.to_num()));
            tallies.extend(child.1.iter().map(|(t, wt)| (*t, wt.mul_ref(w))));
        }
        Rc::new((value, tallies))
    }
}

/// What happens to a packet before its target's owner decides (see
/// [`Resolver::gate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gate {
    Land,
    Gone,
    Toll(u32),
    Open,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One ability of a fixed number: the short path gives what every
    /// combination, weighed, gives; and both what a player weighs by hand
    /// (buy it or not, keep what no cheaper choice matches), for every
    /// amount, cost, need and Force left.
    #[test]
    fn one_fixed_ability_is_bought_as_every_combination_says() {
        let mut checked = 0;
        for (amount, cost, cap) in amounts_costs_and_needs() {
            for left in std::iter::once(None).chain((0..5).map(Some)) {
                let paid = [Paid {
                    amount,
                    cost,
                    x: false,
                    from: None,
                }];
                let short = purchases(&paid, cap, left).into_owned();
                assert_eq!(
                    short,
                    every_purchase(&paid, cap, left),
                    "{paid:?} {cap} {left:?}"
                );
                // By hand: nothing, for nothing; the ability, if it is paid
                // for and buys more than nothing. At no cost it is all.
                let got = amount.min(cap);
                let affordable = left.is_none_or(|l| cost <= l);
                let by_hand = match (affordable && got > 0, cost) {
                    (false, _) => vec![(0, 0)],
                    (true, 0) => vec![(got, 0)],
                    (true, c) => vec![(0, 0), (got, c)],
                };
                assert_eq!(short, by_hand, "{paid:?} {cap} {left:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 5 * 4 * 6 * 6);
    }

    fn amounts_costs_and_needs() -> impl Iterator<Item = (u32, u32, u32)> {
        (0..5).flat_map(|a| (0..4).flat_map(move |c| (0..6).map(move |cap| (a, c, cap))))
    }
}
