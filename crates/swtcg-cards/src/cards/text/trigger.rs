//! The trigger grammar, in winnow: who attacks whom in a leading `When
//! ...,` clause or a trailing `as long as` / `while` clause.
//!
//! ```text
//! trigger     = "THIS" (" attacks" | " is attacking") (" " descriptor)? eof
//!             | "THIS attack" eof                          (inverted words)
//!             | "THIS is " "being "? "attacked" (" by " descriptor)? eof
//!             | "attacked THIS is" eof                     (inverted words)
//! attacking   = subject? "attacking " target eof
//! subject     = "it's " | "its " | "it is " | "he's " | "she's " | "he is "
//!             | "she is " | "this is " | "that this is "
//! target      = "THIS" ...                  -> the unit attacking this one
//!             | descriptor                  -> whom it attacks
//!             | anything else               -> a situation the user decides
//! using       = "it's using " ...           -> a situation the user decides
//! attacked-by = ("it's " | "THIS is ")? "being "? "attacked by " descriptor
//! ```
//!
//! Words are matched without regard to case; `THIS` is the unit's own name
//! as the reader marks it. A `descriptor` is read by [`read_descriptor`].
//!
//! ```
//! use swtcg_cards::cards::text::trigger::trigger;
//! use swtcg_cards::cards::text::Situation;
//! assert!(matches!(trigger("THIS attacks a unique Jedi"), Some(Situation::Attacking { .. })));
//! assert!(matches!(trigger("THIS is being attacked"), Some(Situation::AttackedBy { .. })));
//! assert_eq!(trigger("you deploy THIS"), None);
//! ```

use super::{Descriptor, Situation, When, read_descriptor};
use winnow::ascii::Caseless;
use winnow::combinator::{alt, eof, opt, preceded, terminated};
use winnow::prelude::*;
use winnow::token::rest;

type In<'a> = &'a str;

/// A leading `When ...` clause about this unit's attack: whom it attacks,
/// or who attacks it; `None` for any other trigger (or a description the
/// reader can't read).
pub fn trigger(clause: &str) -> Option<Situation> {
    alt((attacks, attacked, inverted, attack_inverted))
        .parse(clause.trim())
        .ok()
        .flatten()
}

fn attacks(i: &mut In<'_>) -> winnow::Result<Option<Situation>> {
    preceded(
        (
            Caseless("this"),
            alt((Caseless(" attacks"), Caseless(" is attacking"))),
        ),
        alt((
            eof.value(Some(Descriptor::any_unit())),
            preceded(" ", rest).map(read_descriptor),
        )),
    )
    .map(|d| d.map(|defender| Situation::Attacking { defender }))
    .parse_next(i)
}

fn attacked(i: &mut In<'_>) -> winnow::Result<Option<Situation>> {
    preceded(
        (
            Caseless("this is "),
            opt(Caseless("being ")),
            Caseless("attacked"),
        ),
        alt((
            eof.value(Some(Descriptor::any_unit())),
            preceded(Caseless(" by "), rest).map(read_descriptor),
        )),
    )
    .map(|d| d.map(|attacker| Situation::AttackedBy { attacker }))
    .parse_next(i)
}

fn attack_inverted(i: &mut In<'_>) -> winnow::Result<Option<Situation>> {
    terminated(Caseless("this attack"), eof)
        .value(Some(Situation::Attacking {
            defender: Descriptor::any_unit(),
        }))
        .parse_next(i)
}

fn inverted(i: &mut In<'_>) -> winnow::Result<Option<Situation>> {
    terminated(Caseless("attacked this is"), eof)
        .value(Some(Situation::AttackedBy {
            attacker: Descriptor::any_unit(),
        }))
        .parse_next(i)
}

/// A trailing clause about attacking (`it's attacking a Jedi`, `he is
/// attacking THIS`, `it's using ...`): the situation and when it applies;
/// `None` when the clause is not about attacking.
pub fn attacking(clause: &str) -> Option<(Situation, Option<When>)> {
    let clause = clause.trim();
    let other = || Situation::Other {
        text: clause.to_string(),
    };
    let using = preceded(Caseless("it's using "), rest).map(|_| (other(), Some(When::Attacking)));
    let whom = preceded(
        (opt(subject), Caseless("attacking ")),
        alt((
            // "attacking THIS": the unit attacking this one.
            (Caseless("this"), rest)
                .verify(|(_, r): &(&str, &str)| !r.starts_with("'s"))
                .map(|_| {
                    let opponent = Situation::Opponent {
                        opponent: Descriptor::any_unit(),
                    };
                    (opponent, Some(When::Defending))
                }),
            rest.map(|r: &str| {
                let s = read_descriptor(r)
                    .map_or_else(other, |defender| Situation::Attacking { defender });
                (s, Some(When::Attacking))
            }),
        )),
    );
    alt((using, whom)).parse(clause).ok()
}

fn subject<'a>(i: &mut In<'a>) -> winnow::Result<&'a str> {
    alt((
        Caseless("it's "),
        Caseless("its "),
        Caseless("it is "),
        Caseless("he's "),
        Caseless("she's "),
        Caseless("he is "),
        Caseless("she is "),
        Caseless("this is "),
        Caseless("that this is "),
    ))
    .parse_next(i)
}

/// `it's being attacked by a Jedi`: the attacker, when it applies
/// (defending); `None` when the clause is not about being attacked.
pub fn attacked_by(clause: &str) -> Option<(Situation, Option<When>)> {
    let clause = clause.trim();
    preceded(attacked_by_lead, rest)
        .map(|r: &str| {
            let s = read_descriptor(r).map_or_else(
                || Situation::Other {
                    text: clause.to_string(),
                },
                |attacker| Situation::AttackedBy { attacker },
            );
            (s, Some(When::Defending))
        })
        .parse(clause)
        .ok()
}

fn attacked_by_lead(i: &mut In<'_>) -> winnow::Result<()> {
    (
        opt(alt((Caseless("it's "), Caseless("this is ")))),
        opt(Caseless("being ")),
        Caseless("attacked by "),
    )
        .void()
        .parse_next(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers_and_attacking_clauses() {
        let any = Descriptor::any_unit;
        assert_eq!(
            trigger("THIS attacks"),
            Some(Situation::Attacking { defender: any() })
        );
        assert_eq!(
            trigger("THIS attack"),
            Some(Situation::Attacking { defender: any() })
        );
        assert_eq!(
            trigger("attacked THIS is"),
            Some(Situation::AttackedBy { attacker: any() })
        );
        assert!(matches!(
            trigger("THIS is being attacked by a Sith"),
            Some(Situation::AttackedBy { attacker }) if attacker.to_string() == "a Sith"
        ));
        assert!(matches!(
            trigger("THIS is attacking a unique Jedi"),
            Some(Situation::Attacking { defender }) if defender.to_string() == "a unique Jedi"
        ));
        // A description the reader can't read is no trigger it knows.
        assert_eq!(trigger("THIS attacks a unit that attacked"), None);
        assert_eq!(trigger("you deploy THIS"), None);
        // Trailing clauses.
        assert_eq!(
            attacking("it's attacking THIS"),
            Some((
                Situation::Opponent { opponent: any() },
                Some(When::Defending)
            ))
        );
        assert!(matches!(
            attacking("he is attacking a Droid"),
            Some((Situation::Attacking { .. }, Some(When::Attacking)))
        ));
        assert!(matches!(
            attacking("it's attacking THIS's pilot"),
            Some((
                Situation::Attacking { .. } | Situation::Other { .. },
                Some(When::Attacking)
            ))
        ));
        assert!(matches!(
            attacking("it's using Force Push"),
            Some((Situation::Other { .. }, Some(When::Attacking)))
        ));
        assert_eq!(attacking("it has a pilot on it"), None);
        assert!(matches!(
            attacked_by("it's being attacked by a Wookiee"),
            Some((Situation::AttackedBy { .. }, Some(When::Defending)))
        ));
        assert!(matches!(
            attacked_by("attacked by a unit that is damaged"),
            Some((Situation::Other { .. }, Some(When::Defending)))
        ));
        assert_eq!(attacked_by("it is damaged"), None);
    }
}
