//! The battle's solver: a memoised game tree over [`State`]s, each attack's
//! exact law solved once per distinct situation, values over powers of 6
//! ([`super::sixths`]), then the law of the battle's end under the solved
//! play.

use super::*;

/// What one attack changes: `(unit, its counters, the power it loses)` for
/// each unit of the attack, and the Force each player spent (less what it
/// gained), by [`Player::index`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Effect {
    units: Vec<(usize, u8, u8)>,
    spent: [i64; 2],
}

/// What a state is worth under the solved play, in expectation: each
/// player's objective (by [`Player::index`]), the counters on the Dark
/// Side's units and on the Light Side's, and the Force left to each.
pub(super) type Values = [Sixths; 6];

pub(super) fn zero_values() -> Values {
    std::array::from_fn(|_| Sixths::int(0))
}

/// Whether player `me` prefers values `a` to `b`: a higher objective; on a
/// tie, as players break ties in an attack (docs/rules.md): more counters on
/// the other side's units, then fewer on its own, then more Force left; on a
/// tie of all, the earlier choice (`b`) stays.
fn prefers(me: usize, a: &Values, b: &Values) -> bool {
    use std::cmp::Ordering::{Equal, Greater};
    let o = 1 - me;
    let order = a[me]
        .cmp(&b[me])
        .then_with(|| a[2 + o].cmp(&b[2 + o]))
        .then_with(|| b[2 + me].cmp(&a[2 + me]))
        .then_with(|| a[4 + me].cmp(&b[4 + me]));
    order != Equal && order == Greater
}

/// The exact law of one attack: each effect with its integer weight over
/// `6^exp`.
#[derive(Debug)]
struct Law {
    exp: u32,
    outcomes: Vec<(Effect, Int)>,
}

/// A solved state: what it is worth, and the choice made.
struct Node {
    value: Packed,
    best: Option<Choice>,
}

/// The key of an attack's law: attacker, target, and the units taking part
/// with their counters and Stun, and the Force of both players.
type AttackKey = (usize, usize, Vec<(usize, u8, u8)>, [u32; 2]);

/// A fast hash for the solver's keys (small integers, never chosen by an
/// adversary: the keys are the battle's own states): FxHash's mix.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Fast = std::hash::BuildHasherDefault<FxHasher>;

pub(super) struct Solver<'a> {
    battle: &'a Battle,
    memo: HashMap<State, Node, Fast>,
    attacks: HashMap<AttackKey, Rc<Law>, Fast>,
    limit: u64,
    progress: &'a mut dyn FnMut(BattleProgress),
    /// The alternatives of the first decision solved, of how many.
    first: (usize, usize),
}

/// How far a battle's solve is.
#[derive(Clone, Copy, Debug)]
pub struct BattleProgress {
    /// States solved so far.
    pub states: u64,
    /// Alternatives of the first decision solved.
    pub first_done: usize,
    /// Alternatives of the first decision.
    pub first_total: usize,
}

/// The law of the end of a battle under the solved play, and what was
/// chosen on the way.
#[derive(Clone, Debug)]
pub(super) struct Forward {
    /// `(final state, units discarded in the first attack that discarded
    /// any, probability)`.
    pub(super) finals: Vec<(State, u32, Sixths)>,
    /// Each state reached where a choice is made, its chooser, choice and
    /// values, and the probability of reaching it.
    pub(super) decisions: Vec<(State, Player, Choice, Sixths, Sixths)>,
}

impl<'a> Solver<'a> {
    pub(super) fn new(
        battle: &'a Battle,
        limit: u64,
        progress: &'a mut dyn FnMut(BattleProgress),
    ) -> Solver<'a> {
        Solver {
            battle,
            memo: HashMap::default(),
            attacks: HashMap::default(),
            limit,
            progress,
            first: (0, 0),
        }
    }

    /// `done` alternatives of the first decision's `of` are solved: told
    /// at once.
    pub(super) fn first_decision(&mut self, done: usize, of: usize) {
        self.first = (done, of);
        if done == of {
            self.tell();
        }
    }

    /// The choice made in a solved state.
    pub(super) fn best(&self, s: &State) -> Option<Choice> {
        self.memo.get(s).and_then(|n| n.best)
    }

    /// The states solved.
    pub(super) fn states(&self) -> u64 {
        self.memo.len() as u64
    }

    /// The distinct attacks solved.
    pub(super) fn attacks_solved(&self) -> u64 {
        self.attacks.len() as u64
    }

    fn tell(&mut self) {
        (self.progress)(BattleProgress {
            states: self.memo.len() as u64,
            first_done: self.first.0,
            first_total: self.first.1,
        });
    }

    /// The value of state `s` for each player under both players' best play.
    pub(super) fn value(&mut self, s: &State) -> Result<Values> {
        if let Some(n) = self.memo.get(s) {
            return Ok(n.value.unpack());
        }
        crate::cancel::check()?;
        let b = self.battle;
        let (v, best) = match b.turn(s) {
            None => (b.final_value(s), None),
            Some((player, units)) => {
                let me = player.index();
                let mut best: Option<(Choice, Values)> = None;
                for c in b.choices(s, &units) {
                    let v = self.choice_value(s, c)?;
                    if best.as_ref().is_none_or(|(_, bv)| prefers(me, &v, bv)) {
                        best = Some((c, v));
                    }
                }
                let (c, value) = best.expect("a turn has a choice");
                (value, Some(c))
            }
        };
        if self.memo.len() % 4096 == 4095 {
            self.tell();
        }
        if self.memo.len() as u64 >= self.limit {
            return Err(Error::limit(format!(
                "battle: more than {} states solved (raise \"max_states\" or --max-states, up to {})",
                self.limit, self.battle.max_solved
            )));
        }
        let node = Node {
            value: Packed::pack(&v),
            best,
        };
        self.memo.insert(*s, node);
        Ok(v)
    }

    /// The value of choice `c` in state `s`.
    pub(super) fn choice_value(&mut self, s: &State, c: Choice) -> Result<Values> {
        let mut total = zero_values();
        let (exp, next) = self.next(s, c)?;
        for (n, w) in next {
            let v = self.value(&n)?;
            for (t, x) in total.iter_mut().zip(&v) {
                t.add_product(x, &w, exp);
            }
        }
        Ok(total)
    }

    /// The law of the state after choice `c` in state `s`: each next
    /// state with its weight over `6^exp`, and `exp`.
    fn next(&mut self, s: &State, c: Choice) -> Result<(u32, Vec<(State, Int)>)> {
        match c {
            Choice::Decline(a) => {
                let mut n = *s;
                n.done |= 1 << a;
                Ok((0, vec![(self.battle.canonical(n), Int::ONE)]))
            }
            Choice::Attack(a, t) => {
                let law = self.attack(s, a, t)?;
                let next = law
                    .outcomes
                    .iter()
                    .map(|(e, p)| {
                        let mut n = *s;
                        n.done |= 1 << a;
                        for &(k, counters, stun) in &e.units {
                            n.counters[k] = counters;
                            n.stun[k] = n.stun[k].saturating_add(stun);
                        }
                        for (f, spent) in n.force.iter_mut().zip(e.spent) {
                            if *f != UNLIMITED {
                                *f = (i64::from(*f) - spent).clamp(0, i64::from(MAX_FORCE)) as u32;
                            }
                        }
                        (self.battle.canonical(n), p.clone())
                    })
                    .collect();
                Ok((law.exp, next))
            }
        }
    }

    /// The exact law of unit `a` attacking unit `t` in state `s`.
    fn attack(&mut self, s: &State, a: usize, t: usize) -> Result<Rc<Law>> {
        let b = self.battle;
        let taking_part = b.taking_part(s, a, t)?;
        let pa = b.units[a].player;
        let force = [s.force[pa.index()], s.force[pa.other().index()]];
        // When no unit here has an ability paid with Force (a toll is paid
        // by the other side, so any unit's counts for both), the Force
        // doesn't change the attack: one law serves every value.
        let pays = taking_part.iter().any(|&k| b.reach[k].pays);
        let key: AttackKey = (
            a,
            t,
            taking_part
                .iter()
                // Only the attacker's lost power counts in an attack.
                .map(|&k| {
                    let own = k == a || b.no_shortcuts;
                    (k, s.counters[k], if own { s.stun[k] } else { 0 })
                })
                .collect(),
            if pays || b.no_shortcuts {
                force
            } else {
                [0, 0]
            },
        );
        if let Some(law) = self.attacks.get(&key) {
            return Ok(law.clone());
        }
        let (att, def) = b.pairs[a][t]
            .clone()
            .expect("enemies of one arena are paired");
        let mut units = vec![att, def];
        for &k in &taking_part[2..] {
            let facing = if b.units[k].player != pa { a } else { t };
            // Facing an attacker from another arena, a unit is read as it
            // stands beside the defender.
            units.push(
                b.bystanders[k][facing]
                    .clone()
                    .or_else(|| b.bystanders[k][t].clone())
                    .expect("units of one arena face each other"),
            );
        }
        for (u, &k) in units.iter_mut().zip(&taking_part) {
            u.counters = u32::from(s.counters[k]);
        }
        // Stun lowers the attacker's dice; no other unit's power counts in
        // an attack.
        units[0].power = units[0].power.saturating_sub(u32::from(s.stun[a]));
        let sides: Vec<Side> = taking_part
            .iter()
            .map(|&k| {
                if b.units[k].player == pa {
                    Side::Attacking
                } else {
                    Side::Defending
                }
            })
            .collect();
        let game = Game {
            units,
            sides,
            policy: b.policy,
            force: force.map(|f| (f != UNLIMITED).then_some(f)),
        };
        let out = solve(&game)?;
        let after = game.force_after(&out.declared);
        let mut effects: BTreeMap<Effect, BigInt> = BTreeMap::new();
        let denom = BigInt::from(out.solution.tallies.denom().to_big());
        // The weights over a power of 6 (each outcome is a sequence of die
        // faces, so its denominator divides one).
        let exp = (0..=MAX_EXP)
            .find(|&k| (pow6(k).big() % &denom).is_zero())
            .ok_or_else(|| {
                Error::not_modelled(format!(
                    "battle: an attack's law has the denominator {denom}, which divides no power of 6 up to 6^{MAX_EXP}"
                ))
            })?;
        let scale = pow6(exp).big() / &denom;
        for (tally, w) in out.solution.tallies.entries() {
            let mut eff = Vec::new();
            for (m, &k) in taking_part.iter().enumerate() {
                let health = b.units[k].unit.health.unwrap_or(u32::MAX);
                let counters = (out.units[m].counters + u32::from(tally.damage[m])).min(health);
                // Stun: a unit that placed counters lowers the power of
                // the enemies that took counters in the attack.
                let mut stun = 0u32;
                if tally.damage[m] > 0 {
                    for (src, &j) in taking_part.iter().enumerate() {
                        if b.units[j].player != b.units[k].player
                            && tally.damaged_by & (1 << src) != 0
                        {
                            stun += game.units[src].keywords.stun;
                        }
                    }
                }
                eff.push((
                    k,
                    counters.min(u32::from(u8::MAX)) as u8,
                    stun.min(u32::from(u8::MAX)) as u8,
                ));
            }
            // Force spent, by side of the attack (gains count negative).
            let spent = |x: usize| match after[x] {
                None => 0,
                Some(f) => i64::from(force[x]) - i64::from(f.saturating_sub(tally.spent[x])),
            };
            let mut by_player = [0i64; 2];
            by_player[pa.index()] = spent(0);
            by_player[pa.other().index()] = spent(1);
            let e = Effect {
                units: eff,
                spent: by_player,
            };
            *effects.entry(e).or_insert_with(BigInt::zero) += BigInt::from(w.to_big()) * &scale;
        }
        let law = Rc::new(Law {
            exp,
            outcomes: effects
                .into_iter()
                .map(|(e, w)| (e, Int::from_big(w)))
                .collect(),
        });
        self.attacks.insert(key, law.clone());
        Ok(law)
    }

    /// The law of the battle's end under the solved play, from `start`.
    pub(super) fn forward(&mut self, start: &State) -> Result<Forward> {
        let b = self.battle;
        // Ordered by the number of units that have acted, which every
        // choice raises: a state is expanded once all its ways in are in.
        let mut frontier: BTreeMap<(u32, State, u32), Sixths> = BTreeMap::new();
        frontier.insert((b.progress(start), *start, 0), Sixths::int(1));
        let mut finals = Vec::new();
        let mut decisions = Vec::new();
        while let Some(((_, s, first), p)) = frontier.pop_first() {
            crate::cancel::check()?;
            let Some((player, _)) = b.turn(&s) else {
                finals.push((s, first, p));
                continue;
            };
            self.value(&s)?;
            let node = &self.memo[&s];
            let c = node.best.expect("a turn has a choice");
            let mine = node.value.unpack()[player.index()].clone();
            decisions.push((s, player, c, mine, p.clone()));
            let (exp, next) = self.next(&s, c)?;
            for (next, q) in next {
                let mut f = first;
                if f == 0 {
                    for k in 0..b.units.len() {
                        if b.alive(&s, k) && !b.alive(&next, k) {
                            f |= 1 << k;
                        }
                    }
                }
                frontier
                    .entry((b.progress(&next), next, f))
                    .or_insert_with(|| Sixths::int(0))
                    .add_product(&p, &q, exp);
            }
        }
        Ok(Forward { finals, decisions })
    }
}
