//! Situations in words: trailing `as long as` / `when` clauses, triggers, and clause-by-clause conditions.

use super::{Arena, Descriptor, Situation, When, add_situation, read_descriptor};

/// A trailing `as long as` / `when` clause: its situation, and when it
/// applies if the clause says (`it's attacking X`: attacking).
pub(super) fn trailing_clause(orig: &str, lower: &str) -> (Situation, Option<When>) {
    // "it's attacking THIS and you have another Geonosian in the Character
    // arena": every clause is read, and all of them must hold. None is
    // dropped: a clause the reader can't decide makes the whole condition
    // wait for the user.
    let parts = and_clauses(orig);
    if parts.len() > 1 {
        let mut situation: Option<Situation> = None;
        let mut when = None;
        for part in parts {
            let (s, w) = one_trailing_clause(part, &part.to_ascii_lowercase());
            situation = add_situation(situation, s);
            when = when.or(w);
        }
        return (
            situation.unwrap_or(Situation::Other {
                text: orig.trim().to_string(),
            }),
            when,
        );
    }
    one_trailing_clause(orig, lower)
}

/// The words that open a clause of their own after " and " (a subject
/// and its verb follow), as against " and " inside a description ("a
/// Jedi and Sith unit", "Shields and Armor").
pub(super) const CLAUSE_OPENERS: &[&str] = &[
    "you ",
    "your ",
    "this ",
    "this's ",
    "it ",
    "it's ",
    "its ",
    "he ",
    "he's ",
    "she ",
    "she's ",
    "there ",
    "another ",
    "no ",
    "an opponent",
    "that ",
    "the defending ",
    "the attacking ",
    "each ",
    "at least ",
    "one of ",
];

/// Splits a situation in words at each top-level " and " that opens a
/// clause of its own: `it's attacking THIS and you have another Geonosian
/// ...` is two clauses.
pub(super) fn and_clauses(orig: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = orig.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        let mut cut = None;
        let mut from = 0;
        while let Some(i) = lower[from..].find(" and ") {
            let at = from + i;
            let after = &lower[at + 5..];
            if CLAUSE_OPENERS.iter().any(|o| after.starts_with(o)) {
                cut = Some(at);
                break;
            }
            from = at + 5;
        }
        match cut {
            Some(at) => {
                out.push(rest[..at].trim());
                rest = rest[at + 5..].trim();
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

/// One clause of a trailing situation.
pub(super) fn one_trailing_clause(orig: &str, lower: &str) -> (Situation, Option<When>) {
    let l = lower.trim();
    // "as long as that Jedi is attacking THIS": the unit attacking this one.
    for p in ["that ", "the "] {
        if let Some(r) = l.strip_prefix(p)
            && let Some((_, after)) = r.split_once(" is attacking ")
            && (after == "this" || after.starts_with("this "))
        {
            let opponent = Situation::Opponent {
                opponent: Descriptor::any_unit(),
            };
            return (opponent, Some(When::Defending));
        }
    }
    if let Some(read) = against_clause(orig, l) {
        return read;
    }
    if let Some(read) = super::trigger::attacking(orig) {
        return read;
    }
    if is_defending(l) {
        let attacked = Situation::AttackedBy {
            attacker: Descriptor::any_unit(),
        };
        return (attacked, Some(When::Defending));
    }
    if l == "it has a pilot on it" || l == "this has a pilot on it" {
        return (
            Situation::PilotedBy {
                pilot: Descriptor::any_unit(),
            },
            None,
        );
    }
    if let Some(read) = super::trigger::attacked_by(orig) {
        return read;
    }
    (read_situation(orig), None)
}

/// A situation in words: arena, damage counters, attacking; the rest
/// depends on other units or choices and waits for the user.
pub(super) fn read_situation(orig: &str) -> Situation {
    let parts = and_clauses(orig);
    if parts.len() > 1 {
        return parts
            .into_iter()
            .map(read_one_situation)
            .reduce(Situation::and)
            .unwrap_or(Situation::Other {
                text: orig.trim().to_string(),
            });
    }
    read_one_situation(orig)
}

/// One clause of a situation in words.
pub(super) fn read_one_situation(orig: &str) -> Situation {
    let l = this_for_pronouns(&orig.to_ascii_lowercase());
    if is_defending(l.trim().trim_end_matches('.')) {
        return Situation::AttackedBy {
            attacker: Descriptor::any_unit(),
        };
    }
    let l = l.trim().trim_end_matches('.');
    for (arena, names) in [
        (
            Arena::Character,
            [
                "this is in the character arena",
                "this in the character arena is",
            ],
        ),
        (
            Arena::Ground,
            ["this is in the ground arena", "this in the ground arena is"],
        ),
        (
            Arena::Space,
            ["this is in the space arena", "this in the space arena is"],
        ),
    ] {
        if names.contains(&l) {
            return Situation::InArena { arena };
        }
    }
    if let Some(s) = present(orig.trim(), l) {
        return s;
    }
    if l == "this has a pilot on it"
        || l == "it has a pilot on it"
        || l == "this is piloted"
        || l == "this has a pilot"
    {
        return Situation::PilotedBy {
            pilot: Descriptor::any_unit(),
        };
    }
    for p in ["this is piloted by ", "it is piloted by "] {
        if let Some(r) = l.strip_prefix(p)
            && let Some(d) = read_descriptor(&orig.trim()[orig.trim().len() - r.len()..])
        {
            return Situation::PilotedBy { pilot: d };
        }
    }
    if let Some(s) = super::state::own_damage(l) {
        return s;
    }
    for p in [
        "this is attacking ",
        "it's attacking ",
        "he's attacking ",
        "she's attacking ",
    ] {
        if let Some(r) = l.strip_prefix(p) {
            let start = orig.trim().len() - r.len();
            if let Some(d) = read_descriptor(&orig.trim()[start..]) {
                return Situation::Attacking { defender: d };
            }
        }
    }
    Situation::Other {
        text: orig.trim().to_string(),
    }
}

/// `you have a Jedi in the Character arena`, `your opponent has a Dark
/// Side unit in any arena`, `there is a Jedi Master in any arena`, `Darth
/// Vader is in any arena`: a unit in play on a side ([`Situation::Present`]);
/// `None` for any other clause (counts, Locations, build zones, stacks).
fn present(orig: &str, l: &str) -> Option<Situation> {
    let (own, rest) = [
        ("you have ", Some(true)),
        ("your opponent has ", Some(false)),
        ("there is ", None),
    ]
    .iter()
    .find_map(|(p, own)| l.strip_prefix(p).map(|r| (*own, r)))
    .map_or((None, None), |(own, r)| (own, Some(r)));
    let (body, place) = match rest {
        Some(r) => {
            let at = r.rfind(" in ")?;
            (&r[..at], &r[at + 4..])
        }
        // `Darth Vader is in any arena`: a named unit.
        None => {
            let at = l.find(" is in ")?;
            (&l[..at], &l[at + 7..])
        }
    };
    let arena = match place {
        "any arena" | "any arenas" | "this arena" | "play" => None,
        p => match super::recipient::arenas_named(p)[..] {
            [a] => Some(a),
            _ => return None,
        },
    };
    let (other, body) = match body.strip_prefix("another ") {
        Some(b) => (true, b),
        None => (
            false,
            body.strip_prefix("a ")
                .or_else(|| body.strip_prefix("an "))
                .unwrap_or(body),
        ),
    };
    // `you have another Jedi`: no unit of the attack can be it (this one
    // is left out, the other is the opponent's).
    if own == Some(true) && other {
        return None;
    }
    // Locations, Equipment and counts are no units of the attack.
    if body.is_empty()
        || [
            "location",
            "equipment",
            " or more",
            "more ",
            "no ",
            "at least",
            "only",
            "card",
        ]
        .iter()
        .any(|w| body.contains(w))
    {
        return None;
    }
    // The description in the words as written (its case), found in the
    // lowercase copy of the same text.
    let start = orig.to_ascii_lowercase().find(body)?;
    let which = read_descriptor(orig.get(start..start + body.len())?)?;
    Some(Situation::Present {
        own,
        other,
        which,
        arena,
        text: orig.to_string(),
    })
}

/// A situation's pronouns for the unit, as `this`: "he has 1 or more
/// damage counters on him" is "this has one or more damage counters on it".
fn this_for_pronouns(l: &str) -> String {
    let mut t = l.trim().to_string();
    for (p, this) in [
        ("it's ", "this is "),
        ("he's ", "this is "),
        ("she's ", "this is "),
    ] {
        if let Some(r) = t.strip_prefix(p) {
            t = format!("{this}{r}");
            break;
        }
    }
    for p in ["he ", "she ", "it "] {
        if let Some(r) = t.strip_prefix(p) {
            t = format!("this {r}");
            break;
        }
    }
    t.replace(" on him", " on it")
        .replace(" on her", " on it")
        .replace("1 or more damage counter", "one or more damage counter")
}

/// "defending", "THIS is defending", "it's being attacked": the unit is
/// attacked (any attacker).
fn is_defending(l: &str) -> bool {
    let l = this_for_pronouns(l);
    [
        "defending",
        "this is defending",
        "this's defending",
        "being attacked",
        "this is being attacked",
        "it's defending",
        "he's defending",
        "she's defending",
        "it's being attacked",
        "he's being attacked",
        "she's being attacked",
    ]
    .contains(&l.trim())
}

/// "attacking or defending against a Jedi" (the opposing unit, either
/// way), "defending against a Sith" (the unit attacking this one).
fn against_clause(orig: &str, l: &str) -> Option<(Situation, Option<When>)> {
    let forms = [
        ("attacking or defending against ", false),
        ("it's attacking or defending against ", false),
        ("defending against ", true),
    ];
    let (r, defending) = forms
        .iter()
        .find_map(|(p, d)| l.strip_prefix(p).map(|r| (r, *d)))?;
    let o = orig.trim();
    let d = read_descriptor(&o[o.len() - r.len()..])?;
    Some(if defending {
        (Situation::AttackedBy { attacker: d }, Some(When::Defending))
    } else {
        (Situation::Opponent { opponent: d }, None)
    })
}
