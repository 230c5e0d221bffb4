//! The cost grammar, in winnow: what an ability's cost (before its arrow)
//! asks, part by part, each part with its span in the cost's text.
//!
//! ```text
//! cost    = part (sep part)*            sep = ", and " | ", " | " and "
//! part    = build | force | force-pay | tap | counters | discard | retreat | other
//! build   = "Pay " amount " build " ("point" | "counter") "s"?
//! force   = "Pay " amount (" Force")?
//! force-pay = amount " Force pay"             (inverted words)
//! tap     = "[tap]" | "tap" (" this unit" | " THIS")?
//! counters = "Put " amount " damage counter" "s"? " on " phrase
//! discard = "Discard THIS" phrase? | "Discard " phrase
//! retreat = "Retreat THIS" | "retreat this unit"
//! amount  = digits | "X" | "all"
//! ```
//!
//! Words are matched without regard to case; `THIS` is the unit's own name
//! as the reader marks it.
//!
//! ```
//! use swtcg_cards::cards::text::cost::{cost_parts, Amount, CostPart};
//! let parts = cost_parts("[tap], Pay 2 Force");
//! assert_eq!(parts[0].part, CostPart::Tap);
//! assert_eq!(parts[1].part, CostPart::Force(Amount::N(2)));
//! assert_eq!(parts[1].span, 7..18);
//! let parts = cost_parts("Put 1 damage counter on THIS and retreat THIS");
//! assert_eq!(parts[0].part, CostPart::CountersOnThis(Amount::N(1)));
//! assert_eq!(parts[1].part, CostPart::RetreatThis);
//! ```

use std::ops::Range;
use winnow::ascii::{Caseless, digit1};
use winnow::combinator::{alt, eof, opt, peek, preceded, repeat_till, separated, terminated};
use winnow::prelude::*;
use winnow::stream::LocatingSlice;
use winnow::token::any;

/// How much a part of a cost asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Amount {
    /// A number.
    N(u32),
    /// X, chosen when the ability is played.
    X,
    /// All of them.
    All,
}

/// One part of a cost.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "part", content = "of", rename_all = "kebab-case")]
pub enum CostPart {
    /// Force paid (`Pay 2 Force`, `Pay X Force`, `2 Force pay`).
    Force(Amount),
    /// Build points or counters paid.
    BuildPoints(Amount),
    /// Tapping the unit (`[tap]`, `Tap`).
    Tap,
    /// Damage counters put on the unit itself.
    CountersOnThis(Amount),
    /// Damage counters put on another unit (which, as written).
    Counters(Amount, String),
    /// Discarding the unit itself (it leaves the arena).
    DiscardThis,
    /// Retreating the unit itself.
    RetreatThis,
    /// Discarding cards (which, as written).
    Discard(String),
    /// Anything else, as written.
    Other(String),
}

impl CostPart {
    /// Whether paying it takes the unit out of the arena.
    pub fn leaves(&self) -> bool {
        matches!(self, CostPart::DiscardThis | CostPart::RetreatThis)
    }
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Amount::N(n) => write!(f, "{n}"),
            Amount::X => f.write_str("X"),
            Amount::All => f.write_str("all"),
        }
    }
}

impl std::fmt::Display for CostPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CostPart::Force(n) => write!(f, "Force {n}"),
            CostPart::BuildPoints(n) => write!(f, "build points {n}"),
            CostPart::Tap => f.write_str("tap"),
            CostPart::CountersOnThis(n) => write!(f, "{n} damage counter(s) on itself"),
            CostPart::Counters(n, on) => write!(f, "{n} damage counter(s) on {on}"),
            CostPart::DiscardThis => f.write_str("discard itself"),
            CostPart::RetreatThis => f.write_str("retreat itself"),
            CostPart::Discard(what) => write!(f, "discard {what}"),
            CostPart::Other(text) => write!(f, "not read: {text}"),
        }
    }
}

/// A part of a cost and where it is in the cost's text (bytes).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CostItem {
    /// The part.
    pub part: CostPart,
    /// Its span in the cost's text.
    pub span: Range<usize>,
}

type In<'a> = LocatingSlice<&'a str>;

/// The parts of a cost, in order, each with its span. A text the grammar
/// does not cover is one `Other` part; nothing is dropped.
pub fn cost_parts(text: &str) -> Vec<CostItem> {
    let mut input = LocatingSlice::new(text);
    let parsed: winnow::Result<Vec<CostItem>> =
        terminated(separated(1.., item, sep), eof).parse_next(&mut input);
    parsed.unwrap_or_else(|_| {
        vec![CostItem {
            part: CostPart::Other(text.to_string()),
            span: 0..text.len(),
        }]
    })
}

fn item(i: &mut In<'_>) -> winnow::Result<CostItem> {
    part.with_span()
        .map(|(part, span)| CostItem { part, span })
        .parse_next(i)
}

fn sep<'a>(i: &mut In<'a>) -> winnow::Result<&'a str> {
    alt((", and ", ", ", " and ")).parse_next(i)
}

/// The end of a part: a separator next, or the end of the text.
fn end(i: &mut In<'_>) -> winnow::Result<()> {
    peek(alt((sep.void(), eof.void()))).parse_next(i)
}

/// Words up to the end of the part.
fn phrase(i: &mut In<'_>) -> winnow::Result<String> {
    repeat_till(1.., any, end)
        .map(|((), ())| ())
        .take()
        .map(|s: &str| s.to_string())
        .parse_next(i)
}

fn amount(i: &mut In<'_>) -> winnow::Result<Amount> {
    alt((
        digit1.parse_to::<u32>().map(Amount::N),
        Caseless("x").value(Amount::X),
        Caseless("all").value(Amount::All),
    ))
    .parse_next(i)
}

fn part(i: &mut In<'_>) -> winnow::Result<CostPart> {
    alt((
        terminated(build, end),
        terminated(force, end),
        terminated(force_pay, end),
        terminated(tap, end),
        counters,
        discard,
        terminated(retreat, end),
        phrase.map(CostPart::Other),
    ))
    .parse_next(i)
}

fn build(i: &mut In<'_>) -> winnow::Result<CostPart> {
    let n = preceded(Caseless("pay "), amount).parse_next(i)?;
    (
        Caseless(" build "),
        alt((Caseless("point"), Caseless("counter"))),
        opt(Caseless("s")),
    )
        .parse_next(i)?;
    Ok(CostPart::BuildPoints(n))
}

fn force(i: &mut In<'_>) -> winnow::Result<CostPart> {
    terminated(preceded(Caseless("pay "), amount), opt(Caseless(" force")))
        .map(CostPart::Force)
        .parse_next(i)
}

fn force_pay(i: &mut In<'_>) -> winnow::Result<CostPart> {
    terminated(amount, Caseless(" force pay"))
        .map(CostPart::Force)
        .parse_next(i)
}

fn tap(i: &mut In<'_>) -> winnow::Result<CostPart> {
    alt((
        "[tap]".void(),
        (
            Caseless("tap"),
            opt(alt((Caseless(" this unit"), Caseless(" this")))),
        )
            .void(),
    ))
    .value(CostPart::Tap)
    .parse_next(i)
}

fn counters(i: &mut In<'_>) -> winnow::Result<CostPart> {
    let n = preceded(Caseless("put "), amount).parse_next(i)?;
    (
        Caseless(" damage counter"),
        opt(Caseless("s")),
        Caseless(" on "),
    )
        .parse_next(i)?;
    let on = phrase.parse_next(i)?;
    Ok(match on.to_ascii_lowercase().as_str() {
        "this" | "this unit" | "it" | "him" | "her" => CostPart::CountersOnThis(n),
        _ => CostPart::Counters(n, on),
    })
}

fn discard(i: &mut In<'_>) -> winnow::Result<CostPart> {
    preceded(
        Caseless("discard "),
        alt((
            (alt((Caseless("this unit"), Caseless("this"))), opt(phrase))
                .value(CostPart::DiscardThis),
            phrase.map(CostPart::Discard),
        )),
    )
    .parse_next(i)
}

fn retreat(i: &mut In<'_>) -> winnow::Result<CostPart> {
    (
        Caseless("retreat "),
        alt((Caseless("this unit"), Caseless("this"))),
    )
        .value(CostPart::RetreatThis)
        .parse_next(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> Vec<CostPart> {
        cost_parts(text).into_iter().map(|c| c.part).collect()
    }

    #[test]
    fn each_part_of_a_cost_is_read_with_its_span() {
        assert_eq!(parts("Pay 2 Force"), vec![CostPart::Force(Amount::N(2))]);
        assert_eq!(parts("Pay X Force"), vec![CostPart::Force(Amount::X)]);
        assert_eq!(parts("pay 1"), vec![CostPart::Force(Amount::N(1))]);
        assert_eq!(parts("8 Force Pay"), vec![CostPart::Force(Amount::N(8))]);
        assert_eq!(
            parts("Pay 4 build points"),
            vec![CostPart::BuildPoints(Amount::N(4))]
        );
        assert_eq!(
            parts("Tap, Pay 4 build points"),
            vec![CostPart::Tap, CostPart::BuildPoints(Amount::N(4))]
        );
        assert_eq!(
            parts("Discard THIS from the Character arena"),
            vec![CostPart::DiscardThis]
        );
        assert_eq!(
            parts("[tap], Discard a Trade Federation card from your hand"),
            vec![
                CostPart::Tap,
                CostPart::Discard("a Trade Federation card from your hand".into())
            ]
        );
        assert_eq!(
            parts("Put 2 damage counters on one of your Clones"),
            vec![CostPart::Counters(
                Amount::N(2),
                "one of your Clones".into()
            )]
        );
        // Not covered: one part, as written, never dropped.
        assert_eq!(
            parts("Reveal X Sith unit cards from your hand"),
            vec![CostPart::Other(
                "Reveal X Sith unit cards from your hand".into()
            )]
        );
        let text = "Tap, Pay 2 Force and put 1 damage counter on THIS";
        let got = cost_parts(text);
        let spans: Vec<&str> = got.iter().map(|c| &text[c.span.clone()]).collect();
        assert_eq!(
            spans,
            ["Tap", "Pay 2 Force", "put 1 damage counter on THIS"]
        );
        assert!(cost_parts("Retreat THIS")[0].part.leaves());
    }
}
