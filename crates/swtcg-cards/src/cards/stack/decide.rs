//! Deciding what a card's text says in one pairing: its situations
//! (whom it attacks, its own damage, units in play) and its counts, from
//! the two units of the attack alone; `None` where the cards can't tell.

use super::*;

/// Decides a situation for `side` (printing the condition) against `other`;
/// `target` is the unit the effect would go to (for `each X` auras). `None`:
/// the cards cannot decide it.
pub(super) fn evaluate(
    s: &Situation,
    side: &Seat,
    other: &Seat,
    target: &Seat,
    arena: Arena,
) -> Option<bool> {
    match s {
        Situation::Attacking { defender } => {
            if side.role != Role::Attacker {
                return Some(false);
            }
            other.matches(defender)
        }
        Situation::AttackedBy { attacker } => {
            if side.role != Role::Defender {
                return Some(false);
            }
            other.matches(attacker)
        }
        Situation::Opponent { opponent } => target.matches(opponent),
        Situation::Own { this } => side.matches(this),
        Situation::InArena { arena: a } => Some(*a == arena),
        Situation::SelfDamaged { damaged } => Some((side.counters > 0) == *damaged),
        Situation::SelfCounters { at_least } => Some(side.counters >= *at_least),
        Situation::All { all } => {
            let mut undecided = false;
            for x in all {
                match evaluate(x, side, other, target, arena) {
                    Some(false) => return Some(false),
                    None => undecided = true,
                    Some(true) => {}
                }
            }
            (!undecided).then_some(true)
        }
        Situation::Not { not } => evaluate(not, side, other, target, arena).map(|b| !b),
        Situation::PilotedBy { pilot } => match side.unit {
            Fielded::Card(p) => Some(p.pilot.is_some_and(|pc| {
                let piece = Piece {
                    cards: vec![pc],
                    pilot: None,
                    power: None,
                    health: None,
                };
                matches(pilot, &piece, 0, None) == Some(true)
            })),
            Fielded::Plain(_) => None,
        },
        Situation::Present {
            own,
            other: excluded,
            which,
            arena: named,
            ..
        } => {
            // Both units of the attack are in its arena.
            if named.is_some_and(|a| a != arena) {
                return None;
            }
            let mine = *own != Some(false) && !excluded && side.matches(which)?;
            let theirs = *own != Some(true) && other.matches(which)?;
            (mine || theirs).then_some(true)
        }
        Situation::Other { .. } => None,
    }
}

/// Counts what a count-based effect counts, in an arena holding the two
/// units of the attack (`None`: the cards cannot tell).
pub(super) fn count(c: &Count, side: &Seat, other: &Seat) -> Option<i64> {
    match c {
        Count::DamageCounters => Some(side.counters as i64),
        Count::StackedCards => match side.unit {
            Fielded::Card(p) => Some(p.cards.len() as i64 - 1),
            Fielded::Plain(_) => Some(0),
        },
        Count::StackSize => match side.unit {
            Fielded::Card(p) => Some(p.cards.len() as i64),
            Fielded::Plain(_) => Some(1),
        },
        Count::Units {
            own,
            other: excl,
            which,
            arena,
        } => {
            let mut n = 0;
            // Another arena than the attack's holds neither of its units.
            if arena.is_some_and(|a| a != side.arena) {
                return Some(0);
            }
            if *own != Some(false) && !excl && side.matches(which)? {
                n += 1;
            }
            if *own != Some(true) && other.matches(which)? {
                n += 1;
            }
            Some(n)
        }
    }
}

/// A stat of a card: as printed (or given), or, printed `*`, the count its
/// text sets it to, which the two units decide (plus 1 for each card
/// beneath, as a stack's printed stats are).
pub(super) fn counted_stat(
    p: &Piece,
    printed: Result<u32>,
    power: bool,
    side: &Seat,
    other: &Seat,
    effects: &[Effect],
) -> Result<i64> {
    let e = match printed {
        Ok(v) => return Ok(v as i64),
        Err(e) => e,
    };
    let per = effects.iter().find_map(|x| match x {
        Effect::StatsFrom {
            power: pw,
            health: h,
            per,
        } if (power && *pw) || (!power && *h) => Some(per),
        _ => None,
    });
    match per.and_then(|per| count(per, side, other)) {
        Some(n) => Ok(n + p.cards.len() as i64 - 1),
        None => Err(e),
    }
}
