//! The count grammar, in winnow: what `for each ...`, `equal to the number
//! of ...` and `where X is the number of ...` count, with the span of the
//! counted phrase.
//!
//! ```text
//! count    = lead* (own | units) "."? eof
//! lead     = "equal to " | "the number of " | "each "      (in that order)
//! own      = counters | beneath | stack
//! counters = "damage counter" "s"? " on " pronoun           -> DamageCounters
//! beneath  = "card" "s"? " stacked " ("beneath" | "under") " " pronoun
//!                                                           -> StackedCards
//! stack    = "card" "s"? " in " possessive " stack"         -> StackSize
//! pronoun  = "this unit" | "this" | "it" | "him" | "her"
//! possessive = "this's" | "its" | "his" | "her"
//! units    = side which " in " place                        -> Units
//! side     = "of "? "your opponent's "  (the opponent's units)
//!          | "of "? "your other "      (its controller's, itself excluded)
//!          | "of your "                (its controller's)
//!          | "other "                  (both sides, itself excluded)
//!          | ""                        (both sides)
//! which    = a description, up to the first " in ", optionally ending
//!            " you have" / " your opponent has" (which side)
//! place    = "the " arena " arena"                       (that arena)
//!          | "the " word " arena" (not "any") | "this arena" | "that arena"
//!                                                           (the unit's own)
//! ```
//!
//! Words are matched without regard to case; `THIS` is the unit's own name
//! as the reader marks it.
//!
//! ```
//! use swtcg_cards::cards::text::count::read_count_spanned;
//! use swtcg_cards::cards::text::Count;
//! let text = "the number of cards stacked beneath him";
//! let (count, span) = read_count_spanned(text).unwrap();
//! assert_eq!(count, Count::StackedCards);
//! assert_eq!(&text[span], "cards stacked beneath him");
//! let (count, _) = read_count_spanned("each other Naboo unit you have in the Space arena").unwrap();
//! assert!(matches!(count, Count::Units { own: Some(true), other: true, .. }));
//! assert!(read_count_spanned("each card in your hand").is_none());
//! ```

use super::{Count, read_descriptor};
use std::ops::Range;
use swtcg_engine::unit::Arena;
use winnow::ascii::Caseless;
use winnow::combinator::{alt, eof, opt, preceded, terminated};
use winnow::prelude::*;
use winnow::stream::LocatingSlice;
use winnow::token::take_until;

type In<'a> = LocatingSlice<&'a str>;

/// What a `for each` phrase counts, or `None` when the grammar does not
/// cover it.
pub fn read_count(text: &str) -> Option<Count> {
    read_count_spanned(text).map(|(c, _)| c)
}

/// [`read_count`] with the span of the counted phrase (the leads `equal
/// to`, `the number of`, `each` left out) in `text`.
pub fn read_count_spanned(text: &str) -> Option<(Count, Range<usize>)> {
    // Spans stay on the text as given: leading spaces are skipped, and
    // ASCII lowercase keeps every byte where it was.
    let skipped = text.len() - text.trim_start().len();
    let lower = text.trim().to_ascii_lowercase();
    let mut input = LocatingSlice::new(lower.as_str());
    let parsed: winnow::Result<(Option<Count>, Range<usize>)> = preceded(
        (
            opt(Caseless("equal to ")),
            opt(Caseless("the number of ")),
            opt(Caseless("each ")),
        ),
        terminated(alt((own.map(Some), units)).with_span(), (opt("."), eof)),
    )
    .parse_next(&mut input);
    match parsed {
        Ok((Some(c), span)) => Some((c, span.start + skipped..span.end + skipped)),
        _ => None,
    }
}

fn own(i: &mut In<'_>) -> winnow::Result<Count> {
    alt((counters, beneath, stack)).parse_next(i)
}

fn plural<'a>(word: &'static str) -> impl Parser<In<'a>, (), winnow::error::ContextError> {
    (Caseless(word), opt(Caseless("s"))).void()
}

fn pronoun(i: &mut In<'_>) -> winnow::Result<()> {
    alt((
        Caseless("this unit"),
        Caseless("this"),
        Caseless("it"),
        Caseless("him"),
        Caseless("her"),
    ))
    .void()
    .parse_next(i)
}

fn counters(i: &mut In<'_>) -> winnow::Result<Count> {
    (plural("damage counter"), Caseless(" on "), pronoun)
        .value(Count::DamageCounters)
        .parse_next(i)
}

fn beneath(i: &mut In<'_>) -> winnow::Result<Count> {
    (
        plural("card"),
        Caseless(" stacked "),
        alt((Caseless("beneath"), Caseless("under"))),
        " ",
        pronoun,
    )
        .value(Count::StackedCards)
        .parse_next(i)
}

fn stack(i: &mut In<'_>) -> winnow::Result<Count> {
    (
        plural("card"),
        Caseless(" in "),
        alt((
            Caseless("this's"),
            Caseless("its"),
            Caseless("his"),
            Caseless("her"),
        )),
        Caseless(" stack"),
    )
        .value(Count::StackSize)
        .parse_next(i)
}

/// Whose units: (`own`: this unit's side, the opponent's, or both;
/// `other`: this unit excluded).
fn side(i: &mut In<'_>) -> winnow::Result<(Option<bool>, bool)> {
    alt((
        (opt(Caseless("of ")), Caseless("your opponent's ")).value((Some(false), false)),
        (opt(Caseless("of ")), Caseless("your other ")).value((Some(true), true)),
        Caseless("of your ").value((Some(true), false)),
        Caseless("other ").value((None, true)),
        "".value((None, false)),
    ))
    .parse_next(i)
}

/// `the Space arena` (that arena), `this arena`, `that arena` (the
/// unit's own; never `any arena`).
fn place(i: &mut In<'_>) -> winnow::Result<Option<Arena>> {
    alt((
        (
            Caseless("the "),
            take_until(1.., " arena").verify(|w: &str| !w.split(' ').any(|x| x == "any")),
            Caseless(" arena"),
        )
            .map(|(_, w, _): (_, &str, _)| Arena::from_word(w)),
        Caseless("this arena").value(None),
        Caseless("that arena").value(None),
    ))
    .parse_next(i)
}

/// Units in the arena; `None` when the description is not one the reader
/// knows (the phrase is then not a count).
fn units(i: &mut In<'_>) -> winnow::Result<Option<Count>> {
    let (mut own, other) = side.parse_next(i)?;
    let which: &str = take_until(1.., " in ").parse_next(i)?;
    let arena = preceded(" in ", place).parse_next(i)?;
    let mut which = which;
    for (suffix, whose) in [
        (" you have", Some(true)),
        (" your opponent has", Some(false)),
    ] {
        if let Some(w) = which.strip_suffix(suffix) {
            which = w;
            own = whose;
        }
    }
    Ok(read_descriptor(which).map(|which| Count::Units {
        own,
        other,
        which,
        arena,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every phrase the reader counted before the grammar is read the same,
    /// with the forms around them.
    #[test]
    fn counts_are_read_with_their_spans() {
        for (text, want) in [
            ("damage counter on it", Count::DamageCounters),
            ("each damage counter on him", Count::DamageCounters),
            ("damage counters on this", Count::DamageCounters),
            ("card stacked beneath her", Count::StackedCards),
            ("cards stacked under this unit", Count::StackedCards),
            ("the number of cards in his stack", Count::StackSize),
            (
                "equal to the number of cards in its stack.",
                Count::StackSize,
            ),
            ("card in this's stack", Count::StackSize),
        ] {
            assert_eq!(read_count(text), Some(want), "{text}");
        }
        let text = "each of your opponent's Droid units in the Ground arena";
        let (c, span) = read_count_spanned(text).unwrap();
        assert_eq!(
            &text[span],
            "of your opponent's Droid units in the Ground arena"
        );
        let Count::Units {
            own, other, which, ..
        } = c
        else {
            panic!("{c:?}")
        };
        assert_eq!((own, other), (Some(false), false));
        assert_eq!(which.to_string(), "a droid");
        // The arena named, or none for the unit's own.
        for (text, want) in [
            ("Naboo unit in the Character arena", Some(Arena::Character)),
            ("of your Clones in the Space arena", Some(Arena::Space)),
            ("of your Clones in this arena", None),
            ("your other Jedi in that arena", None),
        ] {
            match read_count(text) {
                Some(Count::Units { arena, .. }) => assert_eq!(arena, want, "{text}"),
                c => panic!("{text}: {c:?}"),
            }
        }
        for (text, own, other) in [
            ("other unit you have in the Space arena", Some(true), true),
            ("Naboo unit in the Character arena", None, false),
            ("of your Clones in this arena", Some(true), false),
            ("your other Jedi in that arena", Some(true), true),
            (
                "Sith your opponent has in the Character arena",
                Some(false),
                false,
            ),
        ] {
            match read_count(text) {
                Some(Count::Units {
                    own: o, other: x, ..
                }) => {
                    assert_eq!((o, x), (own, other), "{text}")
                }
                c => panic!("{text}: {c:?}"),
            }
        }
        for text in [
            "card in your hand",
            "unit in any arena",
            "Jedi in play",
            "damage counter on the defending unit",
            "",
        ] {
            assert_eq!(read_count(text), None, "{text}");
        }
    }
}
