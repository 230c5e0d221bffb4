//! The grammar of a unit's own damage, in winnow: `as long as he is
//! damaged`, `while it has 2 or more damage counters on it`, `as long as
//! she isn't damaged`. The two cards decide it (a unit's counters are
//! known in a pairing).
//!
//! ```text
//! state   = "this " (damaged | undamaged | counters) eof
//! damaged = "is damaged"                                   -> 1 or more
//! undamaged = ("isn't" | "is not") " damaged" | "is undamaged"
//!           | "has no damage counter" "s"? on?             -> none
//! counters = "has " (at-most | amount)? "damage counter" "s"? on?
//!                                                       -> N or more / at most N
//! at-most = N (" or fewer" | " or less") " " | "at most " N " "
//! amount  = ("one" | "a" | "any" | N) (" or more")? " " | "at least " (N | "one") " "
//! on      = " on " ("it" | "this" | "him" | "her")
//! ```
//!
//! The text is lowercase, with the unit's pronouns written `this` (`he's`
//! is `this is`).
//!
//! ```
//! use swtcg_cards::cards::text::state::own_damage;
//! use swtcg_cards::cards::text::Situation;
//! assert_eq!(own_damage("this has 2 or more damage counters on it"), Some(Situation::SelfCounters { at_least: 2 }));
//! assert_eq!(own_damage("this isn't damaged"), Some(Situation::SelfDamaged { damaged: false }));
//! assert_eq!(own_damage("this is attacking"), None);
//! ```

use super::Situation;
use winnow::ascii::{Caseless, digit1};
use winnow::combinator::{alt, eof, opt, preceded, terminated};
use winnow::prelude::*;

type In<'a> = &'a str;

/// The unit's own damage the clause asks for; `None` when it is not
/// about that.
pub fn own_damage(l: &str) -> Option<Situation> {
    terminated(
        preceded(Caseless("this "), alt((damaged, undamaged, counters))),
        (opt(on), eof),
    )
    .parse(l.trim().trim_end_matches('.'))
    .ok()
}

fn damaged(i: &mut In<'_>) -> winnow::Result<Situation> {
    Caseless("is damaged")
        .value(Situation::SelfDamaged { damaged: true })
        .parse_next(i)
}

fn undamaged(i: &mut In<'_>) -> winnow::Result<Situation> {
    alt((
        (
            alt((Caseless("isn't"), Caseless("is not"))),
            Caseless(" damaged"),
        )
            .void(),
        Caseless("is undamaged").void(),
        (Caseless("has no damage counter"), opt(Caseless("s"))).void(),
    ))
    .value(Situation::SelfDamaged { damaged: false })
    .parse_next(i)
}

fn counters(i: &mut In<'_>) -> winnow::Result<Situation> {
    let bound = preceded(
        Caseless("has "),
        opt(alt((at_most, amount.map(Bound::AtLeast)))),
    )
    .parse_next(i)?;
    (Caseless("damage counter"), opt(Caseless("s"))).parse_next(i)?;
    Ok(match bound.unwrap_or(Bound::AtLeast(1)) {
        Bound::AtLeast(0 | 1) => Situation::SelfDamaged { damaged: true },
        Bound::AtLeast(at_least) => Situation::SelfCounters { at_least },
        // "3 or fewer": not 4 or more.
        Bound::AtMost(0) => Situation::SelfDamaged { damaged: false },
        Bound::AtMost(n) => Situation::Not {
            not: Box::new(Situation::SelfCounters {
                at_least: n.saturating_add(1),
            }),
        },
    })
}

#[derive(Clone, Copy)]
enum Bound {
    AtLeast(u32),
    AtMost(u32),
}

/// `3 or fewer `, `3 or less `, `at most 3 `.
fn at_most(i: &mut In<'_>) -> winnow::Result<Bound> {
    terminated(
        alt((
            preceded(Caseless("at most "), digit1.parse_to::<u32>()),
            terminated(
                digit1.parse_to::<u32>(),
                alt((Caseless(" or fewer"), Caseless(" or less"))),
            ),
        )),
        " ",
    )
    .map(Bound::AtMost)
    .parse_next(i)
}

/// How many at least (`one`, `a`, `2 or more`, `at least 3`).
fn amount(i: &mut In<'_>) -> winnow::Result<u32> {
    let number = || {
        alt((
            digit1.parse_to::<u32>(),
            alt((Caseless("one"), Caseless("a"), Caseless("any"))).value(1),
        ))
    };
    terminated(
        alt((
            preceded(Caseless("at least "), number()),
            terminated(number(), opt(Caseless(" or more"))),
        )),
        " ",
    )
    .parse_next(i)
}

fn on(i: &mut In<'_>) -> winnow::Result<()> {
    (
        Caseless(" on "),
        alt((
            Caseless("it"),
            Caseless("this"),
            Caseless("him"),
            Caseless("her"),
        )),
    )
        .void()
        .parse_next(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_units_own_damage() {
        let yes = Some(Situation::SelfDamaged { damaged: true });
        let no = Some(Situation::SelfDamaged { damaged: false });
        for (text, want) in [
            ("this is damaged", yes.clone()),
            ("this has damage counters on it", yes.clone()),
            ("this has one or more damage counters on it", yes.clone()),
            ("this has 1 or more damage counters on him", yes.clone()),
            ("this has at least one damage counter on her", yes.clone()),
            ("this has a damage counter on it", yes.clone()),
            ("this has no damage counters on it", no.clone()),
            ("this has no damage counters", no.clone()),
            ("this isn't damaged", no.clone()),
            ("this is not damaged.", no.clone()),
            (
                "this has 3 or more damage counters on it",
                Some(Situation::SelfCounters { at_least: 3 }),
            ),
            (
                "this has at least 2 damage counters on it",
                Some(Situation::SelfCounters { at_least: 2 }),
            ),
            (
                "this has 3 or fewer damage counters on him",
                Some(Situation::Not {
                    not: Box::new(Situation::SelfCounters { at_least: 4 }),
                }),
            ),
            ("this has at most 0 damage counters on it", no.clone()),
            ("this has 2 damage counters on the defending unit", None),
            ("this is attacking a jedi", None),
            ("this has a pilot on it", None),
        ] {
            assert_eq!(own_damage(text), want, "{text}");
        }
    }
}
