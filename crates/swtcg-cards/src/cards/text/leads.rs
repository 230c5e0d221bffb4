//! Leading clauses (`As long as S,`, `When ...,`, `Choose one:`): their situations and timings.

use super::{
    OUTSIDE_ATTACKS, Recipient, Situation, read_descriptor, read_recipient, read_situation,
    top_level_find,
};

/// Leading clauses of a sentence (`When ..., `, `As long as ..., `, `If
/// ..., `, `This turn, `): what they say, and the rest.
pub(super) struct Leads {
    /// Situations they state.
    pub(super) situation: Option<Situation>,
    /// A timing outside any attack (deploy, build step, a discard, the
    /// start or end of a step).
    pub(super) outside: bool,
    /// A player's choice (`choose one:`).
    pub(super) choice: bool,
    /// The unit whose damage a `whenever X would be damaged` clause is about.
    pub(super) damaged: Option<Recipient>,
}

pub(super) fn add_situation(a: Option<Situation>, b: Situation) -> Option<Situation> {
    Some(match a {
        Some(x) => x.and(b),
        None => b,
    })
}

/// Strips leading clauses, reading them. Linear in the text: it is
/// lowercased once, and each clause read once.
pub(super) fn strip_leads<'t>(text: &'t str, leads: &mut Leads) -> &'t str {
    let text = text.trim();
    // ASCII lowercasing keeps every byte offset.
    let lower = text.to_ascii_lowercase();
    let mut at = 0;
    loop {
        let (t, l) = (&text[at..], &lower[at..]);
        if let Some(skip) = strip_words(l, leads) {
            at += skip;
            at += text[at..].len() - text[at..].trim_start().len();
            continue;
        }
        let lead = [
            "as long as ",
            "while ",
            "when ",
            "whenever ",
            "at the start of ",
            "at the end of ",
            "if ",
            "after ",
        ]
        .into_iter()
        .find(|p| l.starts_with(p));
        let Some(lead) = lead else { break };
        // `When the Character battle step starts choose one: ...`: a
        // lead whose comma is missing before its choice ends there.
        let choice = l.find(" choose one:");
        let (end, skip) = match (lead_end(t, l, lead), choice) {
            (Some(comma), Some(c)) if c < comma => (c, 1),
            (Some(comma), _) => (comma, 2),
            (None, Some(c)) => (c, 1),
            (None, None) => break,
        };
        read_lead(lead, &t[lead.len()..end], leads);
        at += end + skip;
        at += text[at..].len() - text[at..].trim_start().len();
    }
    &text[at..]
}

/// Leading words that only set the timing or a choice ("this turn, ",
/// "then ", "choose one: ") at the start of `l` (lowercase): how many
/// bytes they take, or `None`.
fn strip_words(l: &str, leads: &mut Leads) -> Option<usize> {
    let mut out = None;
    let mut rest = l;
    for p in [
        "this turn, ",
        "until end of turn, ",
        "for this attack, ",
        "each turn, ",
        "then ",
        "or: ",
        "or ",
        "in addition to each set of abilities, ",
    ] {
        if l.starts_with(p) {
            rest = rest[p.len()..].trim_start();
            out = Some(l.len() - rest.len());
        }
    }
    if out.is_some() {
        return out;
    }
    for p in ["choose one: ", "choose one:"] {
        if l.starts_with(p) {
            leads.choice = true;
            return Some(p.len());
        }
    }
    None
}

/// Where a leading clause ends (its comma). "When X damages Y, and Y is
/// discarded as a result, ...": one clause.
fn lead_end(t: &str, l: &str, lead: &str) -> Option<usize> {
    let mut comma = top_level_find(l, ", ")?;
    // A name (capitalised) starts the text at `at`.
    let named = |at: usize| t[at..].starts_with(|c: char| c.is_uppercase());
    loop {
        let after = &l[comma + 2..];
        let next = top_level_find(after, ", ");
        let joined =
            lead.starts_with("when") && (after.starts_with("and ") || after.starts_with("if "));
        // A list of names' commas (`As long as A, B, or C is in any arena,
        // ...`): the one before `or` and a name, and the one before a
        // short name that `, or` / `, and` follows.
        let list = ["or ", "and "]
            .iter()
            .any(|w| after.starts_with(w) && named(comma + 2 + w.len()))
            && next.is_some()
            || next.is_some_and(|n| {
                let then = &after[n + 2..];
                named(comma + 2)
                    && after[..n].split_whitespace().count() <= 3
                    && (then.starts_with("or ") || then.starts_with("and "))
            });
        if !(joined || list) {
            break;
        }
        match next {
            Some(n) => comma = comma + 2 + n,
            None => break,
        }
    }
    Some(comma)
}

/// Reads one leading clause into `leads`: whose damage it is about, its
/// situation, or a timing outside attacks.
fn read_lead(lead: &str, clause: &str, leads: &mut Leads) {
    let cl = clause.to_ascii_lowercase();
    if let Some(from) = cl
        .strip_suffix(" would damage this")
        .or_else(|| cl.strip_suffix(" would be damaged"))
    {
        leads.damaged = Some(read_recipient(&clause[..from.len()]));
        return;
    }
    // `Whenever THIS would damage another unit`: "that damage" is damage
    // the unit does, not damage it takes; no reading takes it for damage
    // to this unit.
    if cl.starts_with("this would damage ") || cl.starts_with("this would do damage to ") {
        leads.damaged = Some(Recipient::Unknown);
        return;
    }
    let situation = match lead {
        "as long as " | "while " => read_situation(clause),
        // "If THIS would be discarded, ...": after the attack, as the
        // `When` lead is.
        "if " if cl.contains(" would be discarded") => {
            leads.outside = true;
            return;
        }
        "if " => Situation::Other {
            text: format!("if {clause}"),
        },
        _ if outside_timing(lead, &cl) => {
            leads.outside = true;
            return;
        }
        _ => super::trigger::trigger(clause).unwrap_or_else(|| Situation::Other {
            text: format!("{lead}{clause}"),
        }),
    };
    leads.situation = add_situation(leads.situation.take(), situation);
}

/// Whether a `when ...` clause is a timing outside attacks (a step, a
/// phase, a deploy, a discard). Putting a unit into an arena (`Whenever
/// you put a Subordinate into the Character arena`) is deploying one:
/// nothing is put into an arena during an attack.
fn outside_timing(lead: &str, cl: &str) -> bool {
    lead.starts_with("at the")
        || cl.starts_with("you put ") && cl.contains(" into ") && cl.ends_with(" arena")
        || OUTSIDE_ATTACKS
            .iter()
            .any(|o| format!("{lead}{cl}").contains(o))
        || [
            "discarded",
            "battle step",
            "battle phase",
            "step starts",
            "step begins",
            "step ends",
            "phase starts",
            "phase ends",
            "deploy",
            "build",
        ]
        .iter()
        .any(|w| cl.contains(w))
}

/// The referent of `that unit` / `the chosen Jedi` set by a `choose ...`.
pub(super) fn chosen(core: &str) -> Option<Recipient> {
    let l = core.to_ascii_lowercase();
    let r = l.strip_prefix("choose ")?;
    let r = r
        .trim_start_matches("up to ")
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == 'x' || c == ' ')
        .trim_start_matches("of ");
    let orig = &core[core.len() - r.len()..];
    // The description runs to its place (` in `), or to an `and` that
    // starts another act (`your unique units and roll a die`).
    let desc = |start: usize| {
        let d = orig[start..].split(" in ").next().unwrap_or("");
        let act = [", and ", " and "].iter().find_map(|sep| {
            d.match_indices(sep)
                .find(|(i, _)| d[i + sep.len()..].starts_with(|c: char| c.is_lowercase()))
                .map(|(i, _)| i)
        });
        read_descriptor(&d[..act.unwrap_or(d.len())])
    };
    for p in [
        "one of your opponent's ",
        "your opponent's ",
        "an untapped ",
        "a ",
    ] {
        if let Some(x) = r.strip_prefix(p) {
            return Some(Recipient::Chosen(desc(r.len() - x.len())));
        }
    }
    for p in ["an attacking ", "the attacking "] {
        if let Some(x) = r.strip_prefix(p) {
            return Some(Recipient::Attacking(read_descriptor(
                &orig[r.len() - x.len()..],
            )));
        }
    }
    for (p, other) in [
        ("one of your other ", true),
        ("another ", true),
        ("one of your ", false),
        ("your ", false),
    ] {
        if let Some(x) = r.strip_prefix(p) {
            return Some(if other {
                Recipient::Elsewhere
            } else {
                Recipient::OneOfYours {
                    which: desc(r.len() - x.len()),
                    other: false,
                }
            });
        }
    }
    Some(Recipient::Chosen(None))
}
