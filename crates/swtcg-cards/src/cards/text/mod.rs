//! The card language: a unit's text split into abilities, each classified
//! and, where it can change an attack, read into typed effects.
//!
//! **Splitting.** Sets separate abilities with ` | `, with `; `, or only by
//! sentences (JG runs them together with parenthetical reminder text). The
//! text is cut into sentences (outside quotes and parentheses; a reminder in
//! parentheses followed by a capital also ends a sentence), and a sentence
//! that continues the one before ("Play only ...", "If you do, ...",
//! "Then ...") stays with it. A pilot ability (`[Pilot] Starfighter Pilot.
//! The Starfighter gets: ...`) takes the rest of its segment.
//!
//! **Classes.** Each ability is exactly one [`Class`], and its typed
//! [`Reading`] has one variant per class with that class's fields: a
//! `Keyword` the unit has in every attack (free or paid: a [`Grant`] with
//! subject, timing, effects and cost); a `Condition` that changes an attack
//! only in some situation (a [`Conditional`]: the situation, whether the two
//! cards decide it, the grant); a `Pilot` grant; `NotAttack { why }` when it
//! cannot change one attack between this unit and an opposing unit;
//! `Unmodelled { keyword }` for what is understood but not modelled by the
//! engine; `NotUnderstood { why }` otherwise. `not-attack` is only said
//! when the text's effects are all of kinds that cannot act on such an
//! attack (speed, Force, cards, build, other units, timing outside
//! attacks); anything else unsure is `not-understood`, never dropped
//! silently.
//!
//! **Rules.** The rules (see [`RULES`]) work on a draft of the reading
//! (`draft.rs`); the draft is made typed once, on the way out
//! (`reading.rs`).
//!
//! ```
//! use swtcg_cards::cards::text::{read_abilities, Class, Reading, Subject};
//! use swtcg_engine::keywords::When;
//! let a = read_abilities("Stun 3 | This unit gets -2 power as long as it's attacking a unique Character.", &["Stormtrooper TK-421"]);
//! assert_eq!(a[0].class(), Class::Keyword);
//! let Reading::Condition(c) = &a[1].reading else { panic!("{:?}", a[1]) };
//! assert_eq!(c.grant.subject, Subject::This);
//! assert_eq!(c.grant.when, When::Attacking);
//! assert!(c.decidable);
//! ```

use serde::Serialize;
use swtcg_engine::keywords::{Ability, Keyword, parse, split_cost};
use swtcg_engine::unit::Arena;

use swtcg_engine::keywords::{Cost, KeywordKind, When};

mod body;
mod clause;
pub mod cost;
pub mod count;
mod damage;
mod describe;
pub mod descriptor;
mod draft;
mod grant;
mod grants;
mod keyword;
mod leads;
pub mod lex;
mod model;
mod names;
mod pilot;
mod prevention;
mod reading;
mod recipient;
pub mod rules;
mod situation;
mod span;
mod spelling;
mod split;
pub mod state;
#[cfg(test)]
mod tests;
pub mod trigger;
mod words;

use body::*;
use clause::Clause;
use count::read_count;
use damage::*;
pub use describe::*;
pub use descriptor::read_descriptor;
use draft::*;
use grant::*;
pub use grants::*;
pub use keyword::*;
use leads::*;
pub use model::*;
pub use names::*;
use pilot::*;
use prevention::*;
pub use reading::*;
use recipient::*;
pub use rules::{RULES, Rule, Stage, explain, first_unread_words, rule};
use situation::*;
pub use span::clause_spans;
pub use split::*;
pub use words::*;

/// Reads a unit's text: its abilities, each classified. `names` are the
/// unit's full name and, optionally, its subtype and type (words the text
/// uses of other units too; see [`self_names_with`]).
pub fn read_abilities(text: &str, names: &[impl AsRef<str>]) -> Vec<ReadAbility> {
    read_abilities_in(text, names, text.contains('|'))
}

/// [`read_abilities`] for a text of a set that separates abilities with `|`
/// or not (see [`split_abilities_in`]).
pub fn read_abilities_in(text: &str, names: &[impl AsRef<str>], barred: bool) -> Vec<ReadAbility> {
    read_abilities_among(text, names, barred, &std::sync::Arc::default())
}

/// [`read_abilities_in`] for a card among others: `others` are the other
/// cards' names of its database, which the text may use beside its own.
pub fn read_abilities_among(
    text: &str,
    names: &[impl AsRef<str>],
    barred: bool,
    others: &std::sync::Arc<lex::Lexicon>,
) -> Vec<ReadAbility> {
    let text = &plain_spaces(text);
    let kinds = names.get(1).map_or("", |k| k.as_ref());
    let who = Who {
        names: match names.first() {
            Some(n) => self_names_with(n.as_ref(), kinds),
            None => Vec::new(),
        },
        kinds: kinds
            .replace(['-', '/', ','], " ")
            .split_whitespace()
            .map(|w| singular(&w.to_ascii_lowercase()))
            .collect(),
        others: others.clone(),
    };
    // Every arrow in one form before anything reads the text: the
    // abilities' texts show it so.
    spelling::split_as_printed(&others.spelling, &arrows(text), &who.names, |t| {
        split::split_abilities_of(t, barred, &who)
    })
    .iter()
    .map(|a| classify_as(a, &who))
    .collect()
}

/// Classifies one ability text.
pub fn classify(text: &str, names: &[String]) -> ReadAbility {
    classify_draft(
        text,
        &Who {
            names: names.to_vec(),
            kinds: Vec::new(),
            others: Default::default(),
        },
    )
    .finish()
}

/// How a card's text names its own unit, and what kinds of unit it is.
#[derive(Clone, Debug, Default)]
pub struct Who {
    /// The names the text uses for the unit (see [`self_names_with`]).
    pub names: Vec<String>,
    /// Its subtype and type words, singular, lowercase (empty: unknown).
    pub kinds: Vec<String>,
    /// Other cards' names (the card database's).
    pub others: std::sync::Arc<lex::Lexicon>,
}

impl Who {
    /// A unit known by one name only.
    pub(crate) fn named(name: &str) -> Who {
        Who {
            names: vec![name.to_string()],
            kinds: Vec::new(),
            others: Default::default(),
        }
    }

    /// A recipient among "your X" that cannot be this unit is elsewhere.
    fn narrow(&self, r: Recipient) -> Recipient {
        match r {
            Recipient::Own {
                which: Some(d),
                other: false,
            } if !self.could_be(&d) => Recipient::Elsewhere,
            Recipient::OneOfYours {
                which: Some(d),
                other: false,
            } if !self.could_be(&d) => Recipient::Elsewhere,
            r => r,
        }
    }

    /// Whether a description in the text could be this unit (by its kind
    /// words; other terms are not known here).
    fn could_be(&self, d: &Descriptor) -> bool {
        if self.kinds.is_empty() {
            return true;
        }
        let has = |w: &str| {
            let ph: Vec<String> = w
                .replace('-', " ")
                .split_whitespace()
                .map(|x| singular(&x.to_ascii_lowercase()))
                .collect();
            !ph.is_empty() && self.kinds.windows(ph.len()).any(|k| k == ph.as_slice())
        };
        d.any_of.iter().any(|terms| {
            terms.iter().all(|t| match t {
                Term::Words(w) => has(w),
                Term::Not(w) => !has(w),
                _ => true,
            })
        })
    }
}

/// Classifies one ability text of a unit (see [`Who`]).
pub fn classify_as(text: &str, who: &Who) -> ReadAbility {
    classify_draft(text, who).finish()
}

/// [`classify_as`], as the rules' working form (granted text read inside
/// an ability).
pub(crate) fn classify_draft(text: &str, who: &Who) -> Draft {
    if let Some((fixed, changes)) = who.others.spelling.respell(text, &who.names, false) {
        return said_respelt(classify_printed(&fixed, who), text, &changes);
    }
    let read = classify_printed(text, who);
    respelt(&read, text, who).unwrap_or(read)
}

/// An ability not understood, or read as outside attacks, read again with
/// its misspelt words respelt (see [`spelling`]): the new reading when it
/// is understood and of another class, with a first clause that says
/// which word was read as which.
fn respelt(read: &Draft, text: &str, who: &Who) -> Option<Draft> {
    if !matches!(read.class, Class::NotUnderstood | Class::NotAttack) {
        return None;
    }
    let (fixed, changes) = who.others.spelling.respell(text, &who.names, true)?;
    let again = classify_printed(&fixed, who);
    if matches!(again.class, Class::NotUnderstood) || again.class == read.class {
        return None;
    }
    Some(said_respelt(again, &read.text, &changes))
}

/// A reading of a respelt text, as the printed text's: which word was read
/// as which is its first clause, and its note when it has none.
fn said_respelt(mut again: Draft, printed: &str, changes: &[(String, String)]) -> Draft {
    let said = changes
        .iter()
        .map(|(w, m)| format!("'{w}' read as '{m}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let words: Vec<&str> = changes.iter().map(|(w, _)| w.as_str()).collect();
    again.text = printed.trim().to_string();
    again
        .clauses
        .insert(0, ClauseNote::new(&words.join(" "), "spelling", &said));
    if matches!(again.class, Class::Keyword | Class::Condition) && again.note.is_none() {
        again.note = Some(format!("misspelt: {said}"));
    }
    again
}

/// [`classify_draft`] of the text as printed, no word respelt.
fn classify_printed(text: &str, who: &Who) -> Draft {
    let ascii_names: Vec<String> = who.names.iter().map(|n| ascii_only(n)).collect();
    let who = &Who {
        names: ascii_names,
        kinds: who.kinds.clone(),
        others: who.others.clone(),
    };
    let printed = text.trim();
    let clean = single_quotes_to_double(&strip_reminders(&ascii_only(&arrows(printed))));
    let clean = clean.trim().trim_end_matches('.').trim().to_string();
    // `INSERT:` text (a pilot's too) is read as the text after it, for the
    // top card of a stack this card is in.
    let (body, insert) = match strip_prefix_ci(&clean, INSERT) {
        Some(rest) => (rest.trim(), true),
        None => (clean.as_str(), false),
    };
    let mut a = if pilot_start(body).is_some() {
        let mut a = pilot(printed, body, &who.others);
        a.rule = "pilot";
        a
    } else {
        classify_body(printed, body, who)
    };
    a.insert |= insert;
    a
}

/// The lead of text a card gives the top card of a stack it is in
/// (`INSERT: Armor`): an ability of its own wherever it is written.
pub(super) const INSERT: &str = "INSERT:";
