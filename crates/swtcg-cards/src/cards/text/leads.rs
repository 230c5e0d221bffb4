//! Leading clauses (`As long as S,`, `When ...,`, `Choose one:`): their situations and timings.

use super::*;

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

/// Strips leading clauses, reading them.
pub(super) fn strip_leads<'t>(text: &'t str, leads: &mut Leads) -> &'t str {
    let mut t = text.trim();
    loop {
        let l = t.to_ascii_lowercase();
        let mut stripped = false;
        for p in [
            "this turn, ",
            "for this attack, ",
            "each turn, ",
            "then ",
            "or: ",
            "or ",
            "you may ",
            "in addition to each set of abilities, ",
        ] {
            if l.starts_with(p) && p != "you may " {
                t = t[p.len()..].trim_start();
                stripped = true;
            }
        }
        if stripped {
            continue;
        }
        for p in ["choose one: ", "choose one:"] {
            if l.starts_with(p) {
                leads.choice = true;
                t = t[p.len()..].trim_start();
                stripped = true;
                break;
            }
        }
        if stripped {
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
        let Some(mut comma) = top_level_find(&l, ", ") else {
            break;
        };
        // "When X damages Y, and Y is discarded as a result, ...": one clause.
        while lead.starts_with("when")
            && (l[comma + 2..].starts_with("and ") || l[comma + 2..].starts_with("if "))
        {
            match top_level_find(&l[comma + 2..], ", ") {
                Some(next) => comma = comma + 2 + next,
                None => break,
            }
        }
        let clause = &t[lead.len()..comma];
        let cl = clause.to_ascii_lowercase();
        if let Some(from) = cl.strip_suffix(" would damage this") {
            let from_orig = &clause[..from.len()];
            leads.damaged = Some(read_recipient(from_orig));
            t = t[comma + 2..].trim_start();
            continue;
        }
        if let Some(who) = cl.strip_suffix(" would be damaged") {
            let who_orig = &clause[..who.len()];
            leads.damaged = Some(read_recipient(who_orig));
            t = t[comma + 2..].trim_start();
            continue;
        }
        match lead {
            "as long as " | "while " => {
                leads.situation = add_situation(leads.situation.take(), read_situation(clause))
            }
            "if " => {
                leads.situation = add_situation(
                    leads.situation.take(),
                    Situation::Other {
                        text: format!("if {clause}"),
                    },
                )
            }
            _ => {
                let outside = lead.starts_with("at the")
                    || OUTSIDE_ATTACKS
                        .iter()
                        .any(|o| format!("{lead}{cl}").contains(o))
                    || cl.contains("discarded")
                    || cl.contains("battle step")
                    || cl.contains("battle phase")
                    || cl.contains("step starts")
                    || cl.contains("step begins")
                    || cl.contains("step ends")
                    || cl.contains("phase starts")
                    || cl.contains("phase ends")
                    || cl.contains("deploy")
                    || cl.contains("build");
                if outside {
                    leads.outside = true;
                } else {
                    match trigger_situation(clause) {
                        Some(s) => leads.situation = add_situation(leads.situation.take(), s),
                        None => {
                            leads.situation = add_situation(
                                leads.situation.take(),
                                Situation::Other {
                                    text: format!("{lead}{clause}"),
                                },
                            )
                        }
                    }
                }
            }
        }
        t = t[comma + 2..].trim_start();
    }
    t
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
    let desc = |start: usize| read_descriptor(orig[start..].split(" in ").next().unwrap_or(""));
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
