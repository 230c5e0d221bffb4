//! The descriptor grammar, in winnow: a description of units in card text
//! (`a unique Jedi`, `non-unique Space units`, `Clone, Jedi or Rebel
//! Characters`, `Character with 4 health or more`, `unit with Stealth`).
//!
//! ```text
//! descriptor = article* core (" with " with)? eof
//!                        (refused when it says " that ", " who " or " if ")
//! core     = leads body                 (up to the first " with ")
//! article  = "a " | "an "
//! leads    = ("non-unique " | "unique ")? "damaged "? "dark side "?
//!            "light side "? "neutral "?
//! body     = head unit-noun?            (the unit noun at the end split off)
//! head     = noun                       (a bare noun: any such unit)
//!          | alts                       (alternatives, each with the noun)
//! noun     = "character" "s"? | "space unit" "s"? | "ground unit" "s"?
//!          | "unit" "s"?
//! alts     = alt (("," | ", or " | " or " | " and ") alt)*
//! alt      = "non-" words -> Not | words -> Words     (at most 4 words of
//!            letters, digits, '-' and '\''; never "this")
//! unit-noun = " space unit" "s"? | " ground unit" "s"? | " character units"
//!          | " character" "s"? | " unit" "s"?        (at the end)
//! with     = n " health or more" | "power " n " or less"
//!          | "health higher than its power" | "power higher than its health"
//!          | ("a " | "an ")? keyword | keyword (" or " keyword)+
//! ```
//!
//! Words are matched without regard to case; plural words are made
//! singular (`Clones` → `Clone`).
//!
//! ```
//! use swtcg_cards::cards::text::{read_descriptor, Term};
//! let d = read_descriptor("a unique Jedi or Sith Character").unwrap();
//! assert_eq!(d.any_of.len(), 2);
//! assert_eq!(d.any_of[0], vec![Term::Unique, Term::Words("Jedi".into()), Term::Words("Character".into())]);
//! let d = read_descriptor("unit with 4 health or more").unwrap();
//! assert_eq!(d.any_of[0], vec![Term::Unit, Term::HealthAtLeast(4)]);
//! assert!(read_descriptor("unit that attacked this turn").is_none());
//! ```

use super::{CardSide, Descriptor, KeywordName, Term, ascii_only, singular};
use winnow::ascii::{Caseless, digit1};
use winnow::combinator::{
    alt, eof, opt, peek, preceded, repeat, repeat_till, separated, terminated,
};
use winnow::prelude::*;
use winnow::token::any;

type In<'a> = &'a str;

/// Reads a description of units: `a unique Character`, `non-Jedi
/// Characters`, `Clone, Jedi or Rebel`, `Dark Side unit`, `unit with 5
/// health or more`, `Jango`; `None` when the grammar does not cover it.
pub fn read_descriptor(text: &str) -> Option<Descriptor> {
    let ascii = ascii_only(text);
    let mut t = ascii.trim().trim_end_matches(['.', ',']).trim();
    // How long the effect lasts is no part of whom it is about (`when
    // attacking a Neutral unit until end of turn`).
    for d in [
        " until end of turn",
        " until the end of the turn",
        " until end of game",
        " for this attack",
        " for that attack",
        " this turn",
    ] {
        if let Some(h) = t.get(..t.len().saturating_sub(d.len()))
            && t[h.len()..].eq_ignore_ascii_case(d)
        {
            t = h.trim_end();
        }
    }
    // `that unit`, `the chosen Jedi`: a unit named before, not a kind.
    let l = t.to_ascii_lowercase();
    if ["that ", "those ", "the chosen ", "this "]
        .iter()
        .any(|p| l.starts_with(p))
    {
        return None;
    }
    descriptor.parse(t).ok().flatten()
}

fn descriptor(i: &mut In<'_>) -> winnow::Result<Option<Descriptor>> {
    // Whose units (`one of your opponent's Jedi`, `an enemy unit`): in an
    // attack, the unit on the other side is the opponent's.
    let _ = opt(alt((
        Caseless("one of your opponent's "),
        Caseless("one of your opponents' "),
        Caseless("your opponent's "),
        Caseless("an opponent's "),
        Caseless("opponent's "),
        Caseless("an enemy "),
        Caseless("enemy "),
    )))
    .parse_next(i)?;
    let _: () = repeat(0.., alt((Caseless("a "), Caseless("an ")))).parse_next(i)?;
    let l = i.to_ascii_lowercase();
    if l.contains(" that ") || l.contains(" who ") || l.contains(" if ") {
        return Ok(None);
    }
    // The core runs to the first " with ", or to the end.
    let core: &str = repeat_till(0.., any, peek(alt((Caseless(" with ").void(), eof.void()))))
        .map(|((), ())| ())
        .take()
        .parse_next(i)?;
    let extra = opt(preceded(Caseless(" with "), with_clause)).parse_next(i)?;
    eof.parse_next(i)?;
    let extra = match extra {
        // " with " followed by words no grammar reads: not a description.
        Some(None) => return Ok(None),
        Some(Some(t)) => vec![t],
        None => Vec::new(),
    };
    let Ok((terms, body)) = (leads, winnow::token::rest).parse(core) else {
        return Ok(None);
    };
    Ok(body_terms(body, terms, extra))
}

/// `non-unique`, `unique`, `damaged`, the sides: in that order.
fn leads(i: &mut In<'_>) -> winnow::Result<Vec<Term>> {
    let unique = opt(alt((
        Caseless("non-unique ").value(Term::NonUnique),
        Caseless("unique ").value(Term::Unique),
    )))
    .parse_next(i)?;
    let damaged = opt(Caseless("damaged ").value(Term::Damaged)).parse_next(i)?;
    // Whether it is tapped is the game's state, not its cards': the user
    // says; a pilot on it, the pairing does.
    let state = opt(alt((
        Caseless("untapped ").value(Term::Described("untapped".into())),
        Caseless("tapped ").value(Term::Described("tapped".into())),
        Caseless("piloted ").value(Term::Piloted),
    )))
    .parse_next(i)?;
    let dark = opt(Caseless("dark side ").value(Term::Side(CardSide::Dark))).parse_next(i)?;
    let light = opt(Caseless("light side ").value(Term::Side(CardSide::Light))).parse_next(i)?;
    let neutral = opt(Caseless("neutral ").value(Term::Side(CardSide::Neutral))).parse_next(i)?;
    Ok([unique, damaged, state, dark, light, neutral]
        .into_iter()
        .flatten()
        .collect())
}

/// A bare noun (the whole body): any unit, Character, Space or Ground unit.
fn noun(i: &mut In<'_>) -> winnow::Result<Term> {
    terminated(
        alt((
            (Caseless("character"), opt(Caseless("s"))).value(Term::Words("Character".into())),
            (Caseless("space unit"), opt(Caseless("s"))).value(Term::Words("Space".into())),
            (Caseless("ground unit"), opt(Caseless("s"))).value(Term::Words("Ground".into())),
            (Caseless("unit"), opt(Caseless("s"))).value(Term::Unit),
        )),
        eof,
    )
    .parse_next(i)
}

/// The unit noun that ends a body (` Space units`, ` Characters`), as a
/// term (`None` for plain ` units`).
fn unit_noun(i: &mut In<'_>) -> winnow::Result<Option<Term>> {
    let words = |w: &str| Some(Term::Words(w.to_string()));
    terminated(
        alt((
            (Caseless(" space unit"), opt(Caseless("s"))).value(words("Space")),
            (Caseless(" ground unit"), opt(Caseless("s"))).value(words("Ground")),
            Caseless(" character units").value(words("Character")),
            (Caseless(" character"), opt(Caseless("s"))).value(words("Character")),
            (Caseless(" unit"), opt(Caseless("s"))).value(None),
        )),
        eof,
    )
    .parse_next(i)
}

/// The body's terms: the unit noun at its end is split off first; what is
/// left is a bare noun (`Character units`: any Character), or
/// alternatives, each with the unit noun.
fn body_terms(body: &str, mut terms: Vec<Term>, extra: Vec<Term>) -> Option<Descriptor> {
    let body = body.trim();
    if body.is_empty() {
        return None;
    }
    let (head, noun) = alt((
        (take_until_last_noun, unit_noun),
        winnow::token::rest.map(|h| (h, None)),
    ))
    .parse(body)
    .ok()?;
    if let Ok(t) = self::noun.parse(head) {
        terms.push(t);
        terms.extend(extra);
        return Some(Descriptor {
            any_of: vec![terms],
        });
    }
    let alts = alternatives.parse(head).ok()?;
    if alts.is_empty() {
        terms.push(noun.unwrap_or(Term::Unit));
        terms.extend(extra);
        return Some(Descriptor {
            any_of: vec![terms],
        });
    }
    // `a Light Side unit or damaged unit`: a first alternative with a noun
    // of its own ends the words before it, which are then its alone.
    let first_own = matches!(alts.first(), Some(Some((_, Some(_)))));
    let count = alts.len();
    let mut any_of = Vec::new();
    for (k, a) in alts.into_iter().enumerate() {
        let mut t = if k > 0 && first_own {
            Vec::new()
        } else {
            terms.clone()
        };
        let (a, own) = a?;
        t.extend(a);
        // An alternative with its own noun (`Jedi units or Sith`) keeps it;
        // the others take the one at the end.
        match own {
            Some(n) => t.extend(n),
            None => t.extend(noun.clone()),
        }
        // `a damaged unit or a unit with 1 or more captivity counters`:
        // after alternatives with nouns of their own, the `with` clause is
        // the last one's.
        if !first_own || k + 1 == count {
            t.extend(extra.iter().cloned());
        }
        any_of.push(t);
    }
    Some(Descriptor { any_of })
}

/// The words before a unit noun that ends the text.
fn take_until_last_noun<'a>(i: &mut In<'a>) -> winnow::Result<&'a str> {
    repeat_till(0.., any, peek(unit_noun))
        .map(|((), _)| ())
        .take()
        .parse_next(i)
}

/// Alternatives: each its terms, or `None` when it is not plain words
/// (which makes the whole no description). Empty ones are left out.
/// One alternative of a description: its terms (its own leads, then its
/// words), and its own unit noun when it has one (`Some(None)`: `units`,
/// any unit).
type Alternative = Option<(Vec<Term>, Option<Option<Term>>)>;

fn alternatives(i: &mut In<'_>) -> winnow::Result<Vec<Alternative>> {
    let sep = || alt((", or ", " or ", " and ", ","));
    let item = repeat_till(0.., any, peek(alt((sep().void(), eof.void()))))
        .map(|((), ())| ())
        .take();
    let items: Vec<&str> = separated(0.., item, sep()).parse_next(i)?;
    eof.parse_next(i)?;
    // Each item's own article (`a Jedi or a Sith`) is no word of it.
    let article = |s: &str| -> usize {
        ["a ", "an "]
            .iter()
            .find(|a| s.get(..a.len()).is_some_and(|h| h.eq_ignore_ascii_case(a)))
            .map_or(0, |a| a.len())
    };
    Ok(items
        .into_iter()
        .map(str::trim)
        .map(|s| &s[article(s)..])
        .filter(|s| !s.is_empty())
        .map(alternative)
        .collect())
}

/// One alternative: its own leads (`damaged unit`), its words as a term,
/// and its own unit noun when it ends with one or is one (`Jedi units`:
/// Jedi, any unit; `Clone Characters`: Clone, Character; `unit`).
fn alternative(a: &str) -> Alternative {
    // A lead may be all the item is (`unit or damaged` before the noun).
    let padded = format!("{a} ");
    let (mut terms, rest) = (leads, winnow::token::rest).parse(padded.as_str()).ok()?;
    let rest = rest.trim();
    if let Ok(n) = self::noun.parse(rest) {
        // A bare noun: `unit` is any unit, `Characters` a Character.
        return Some((terms, Some((n != Term::Unit).then_some(n))));
    }
    if rest.is_empty() || rest.eq_ignore_ascii_case("a") || rest.eq_ignore_ascii_case("an") {
        // Leads alone, or an article alone (`a damaged unit or a unit
        // with ...`, the noun split off): the noun at the end is its.
        return Some((terms, None));
    }
    if let Ok((head, noun)) = (take_until_last_noun, unit_noun).parse(rest)
        && !head.trim().is_empty()
    {
        terms.push(words_term(head.trim())?);
        return Some((terms, Some(noun)));
    }
    terms.push(words_term(rest)?);
    Some((terms, None))
}

fn words_term(a: &str) -> Option<Term> {
    let plain = a
        .chars()
        .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '\'');
    if !plain || a.split_whitespace().count() > 4 || a.eq_ignore_ascii_case("this") {
        return None;
    }
    Some(
        match a.strip_prefix("non-").or_else(|| a.strip_prefix("Non-")) {
            Some(r) => Term::Not(singular(r)),
            None => Term::Words(singular(a)),
        },
    )
}

/// What follows `with`: a stat clause or keywords; `None` when neither.
fn with_clause(i: &mut In<'_>) -> winnow::Result<Option<Term>> {
    let n = || digit1.parse_to::<u32>();
    alt((
        terminated(n(), (Caseless(" health or more"), eof)).map(|n| Some(Term::HealthAtLeast(n))),
        (Caseless("power "), n(), Caseless(" or less"), eof)
            .map(|(_, n, _, _)| Some(Term::PowerAtMost(n))),
        (Caseless("health higher than its power"), eof).value(Some(Term::HealthAbovePower)),
        (Caseless("power higher than its health"), eof).value(Some(Term::PowerAboveHealth)),
        (Caseless("printed power less than its printed health"), eof)
            .value(Some(Term::HealthAbovePower)),
        (Caseless("printed health less than its printed power"), eof)
            .value(Some(Term::PowerAboveHealth)),
        // `with "Skywalker" in its name`, `with "A" or "B" in their names`.
        name_has,
        // A pilot card on it, not a keyword called Pilot.
        (opt(Caseless("a ")), Caseless("pilot"), eof).value(Some(Term::Piloted)),
        winnow::token::rest.map(|w: &str| {
            // Keywords, or a qualifier the cards can't decide (`1 or more
            // Equipment attached`): the user says whether it holds. A
            // relative clause is not a qualifier.
            keywords(w).or_else(|| {
                let l = w.to_ascii_lowercase();
                (!l.trim().is_empty()
                    && !l.contains('"')
                    && ![" that ", " who ", " if ", ", "]
                        .iter()
                        .any(|p| l.contains(p))
                    && w.split_whitespace().count() <= 8)
                    .then(|| Term::Described(w.trim().to_string()))
            })
        }),
    ))
    .parse_next(i)
}

/// `"Skywalker" in its name`: words its name holds (one of several).
fn name_has(i: &mut In<'_>) -> winnow::Result<Option<Term>> {
    let quoted = || {
        winnow::combinator::delimited('"', winnow::token::take_till(1.., '"'), '"')
            .map(|s: &str| s.to_string())
    };
    let names: Vec<String> =
        separated(1.., quoted(), alt((" or ", ", or ", ", "))).parse_next(i)?;
    (
        Caseless(" in "),
        alt((Caseless("its "), Caseless("their "))),
        Caseless("name"),
        opt(Caseless("s")),
        eof,
    )
        .parse_next(i)?;
    Ok(Some(Term::NameHas(names)))
}

/// `Stealth`, `a Stealth`, `Hidden Cost or Stealth`.
fn keywords(w: &str) -> Option<Term> {
    let w = w.to_ascii_lowercase();
    let words: Vec<&str> = w.split_whitespace().collect();
    match words.as_slice() {
        [k] | ["a", k] | ["an", k] => Some(Term::HasKeyword(KeywordName::read(k))),
        _ => {
            let names: Vec<&str> = w.split(" or ").map(str::trim).collect();
            (names.len() > 1 && names.iter().all(|k| k.split(' ').count() <= 2))
                .then(|| Term::HasAnyKeyword(names.into_iter().map(KeywordName::read).collect()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Option<Vec<Vec<Term>>> {
        read_descriptor(text).map(|d| d.any_of)
    }

    fn w(s: &str) -> Term {
        Term::Words(s.into())
    }

    #[test]
    fn descriptions_read_term_by_term() {
        assert_eq!(d("a unit"), Some(vec![vec![Term::Unit]]));
        assert_eq!(d("Characters"), Some(vec![vec![w("Character")]]));
        // The unit noun is split off first: `Character units` is any
        // Character.
        assert_eq!(d("Character units"), Some(vec![vec![w("Character")]]));
        assert_eq!(
            d("non-unique Space units"),
            Some(vec![vec![Term::NonUnique, w("Space")]])
        );
        assert_eq!(
            d("an unique damaged Dark Side Jedi"),
            Some(vec![vec![
                Term::Unique,
                Term::Damaged,
                Term::Side(CardSide::Dark),
                w("Jedi")
            ]])
        );
        assert_eq!(
            d("Clones, Jedi, and Rebels"),
            Some(vec![vec![w("Clone")], vec![w("Jedi")], vec![w("Rebel")]])
        );
        // Each alternative's article is no word of it.
        assert_eq!(
            d("a Jedi or a Sith"),
            Some(vec![vec![w("Jedi")], vec![w("Sith")]])
        );
        assert_eq!(d("Qin or an Xi'an unit card"), d("Qin or Xi'an unit card"));
        // A first alternative with a noun of its own keeps the words
        // before it; the second has its own.
        assert_eq!(
            d("Light Side unit or damaged unit"),
            Some(vec![vec![Term::Side(CardSide::Light)], vec![Term::Damaged]])
        );
        assert_eq!(
            d("unique Jedi or Sith"),
            Some(vec![
                vec![Term::Unique, w("Jedi")],
                vec![Term::Unique, w("Sith")]
            ])
        );
        assert_eq!(
            d("damaged unit or a unit with Upkeep"),
            Some(vec![
                vec![Term::Damaged],
                vec![Term::HasKeyword(KeywordName::read("Upkeep"))]
            ])
        );
        assert_eq!(
            d("a Neutral unit until end of turn"),
            Some(vec![vec![Term::Side(CardSide::Neutral), Term::Unit]])
        );
        assert_eq!(d("that unit until end of turn"), None);
        assert_eq!(
            d("piloted units"),
            Some(vec![vec![Term::Piloted, Term::Unit]])
        );
        assert_eq!(
            d("an untapped unit"),
            Some(vec![vec![Term::Described("untapped".into()), Term::Unit]])
        );
        assert_eq!(
            d("non-Jedi Characters"),
            Some(vec![vec![Term::Not("Jedi".into()), w("Character")]])
        );
        assert_eq!(
            d("unit with power 3 or less"),
            Some(vec![vec![Term::Unit, Term::PowerAtMost(3)]])
        );
        assert_eq!(
            d("Character with health higher than its power"),
            Some(vec![vec![w("Character"), Term::HealthAbovePower]])
        );
        assert_eq!(
            d("unit with Hidden Cost or Stealth"),
            Some(vec![vec![
                Term::Unit,
                Term::HasAnyKeyword(vec![
                    KeywordName::read("Hidden Cost"),
                    KeywordName::Glossary("Stealth".into())
                ])
            ]])
        );
        // Each alternative with its own noun; whose units they are.
        assert_eq!(
            d("one of your opponent's Jedi units or Sith"),
            Some(vec![vec![w("Jedi")], vec![w("Sith")]])
        );
        assert_eq!(
            d("Jedi Characters or Sith"),
            Some(vec![vec![w("Jedi"), w("Character")], vec![w("Sith")]])
        );
        assert_eq!(
            d("unit with a Pilot"),
            Some(vec![vec![Term::Unit, Term::Piloted]])
        );
        assert_eq!(
            d("unit with a Stealth"),
            Some(vec![vec![
                Term::Unit,
                Term::HasKeyword(KeywordName::Glossary("Stealth".into()))
            ]])
        );
        // Not descriptions: a relative clause, `this`, words after `with`
        // no grammar reads, more than four words, nothing.
        for text in [
            "unit that attacked",
            "Jedi who is damaged",
            "this",
            "very long name of some unit type",
            "",
            "Jedi \"Master\"",
        ] {
            assert_eq!(d(text), None, "{text:?}");
        }
    }
}
