//! Who an effect is for: recipients (`each of your other Naboo units`) and descriptions (`a unique Jedi`).

use super::{Arena, Descriptor, Term, read_descriptor};

/// Whose effect, for when it acts.
#[derive(Clone, Copy)]
pub(super) enum RecipientKind {
    This,
    Opponent,
    Both,
}

/// Who a `gets` applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Recipient {
    This,
    /// The opponent's units (matching, if described).
    Opponent(Option<Descriptor>),
    /// `each X` / `each other X`: any unit matching, either side.
    Each {
        which: Descriptor,
        other: bool,
    },
    /// `each of your X`: this unit if it matches and not `other`.
    Own {
        which: Option<Descriptor>,
        other: bool,
    },
    /// `one of your X`: chosen by the controller.
    OneOfYours {
        which: Option<Descriptor>,
        other: bool,
    },
    /// `an attacking X` chosen: the unit attacking this one, if it matches.
    Attacking(Option<Descriptor>),
    /// `the defending unit` (this unit attacks).
    DefendingUnit,
    /// Another, named unit, or units not in this attack.
    Elsewhere,
    /// A unit a player chooses (`choose one of your opponent's units`):
    /// possibly the opponent, the cards can't tell.
    Chosen(Option<Descriptor>),
    Unknown,
}

pub(super) fn read_recipient(subject: &str) -> Recipient {
    let s = subject.trim().trim_start_matches(',').trim();
    if let Some(r) = controlled(s) {
        return read_recipient(&r);
    }
    let l = s.to_ascii_lowercase();
    if l == "this" || l == "it" || l == "he" || l == "she" || l == "this's" {
        return Recipient::This;
    }
    // `X of your units each get`: each of them.
    if let Some(h) = l.strip_suffix(" each")
        && !h.starts_with("this and ")
        && !h.ends_with(" and this")
    {
        return read_recipient(&s[..h.len()]);
    }
    // `THIS and Phantom each get`: this unit among them.
    let both = l.strip_suffix(" each").unwrap_or(&l);
    if both.starts_with("this and ") || both.ends_with(" and this") {
        return Recipient::This;
    }
    if let Some(r) = attacking_this(s, &l) {
        return r;
    }
    let desc = |r: &str| place_descriptor(&s[s.len() - r.len()..]);
    for p in [
        "each of your opponent's ",
        "one of your opponent's ",
        "your opponent's ",
        "each of your opponents ",
        "your opponents' ",
    ] {
        if let Some(r) = l.strip_prefix(p) {
            return desc(r).map_or(Recipient::Unknown, Recipient::Opponent);
        }
    }
    if let Some(r) = l.strip_prefix("the attacking ") {
        return desc(r).map_or(Recipient::Unknown, Recipient::Attacking);
    }
    if l.starts_with("the defending ") {
        return Recipient::DefendingUnit;
    }
    if let Some(r) = group_recipient(&l, desc) {
        return r;
    }
    // A named unit other than this one ("Anakin Skywalker", "Galen Marek").
    if s.chars().next().is_some_and(char::is_uppercase) && !l.contains("this") {
        return Recipient::Elsewhere;
    }
    Recipient::Unknown
}

/// A description, with "in the X arena" read as the arena of the attack:
/// `Some(None)` for nothing, `None` when it can't be read.
fn place_descriptor(t: &str) -> Option<Option<Descriptor>> {
    let t = t.trim();
    if t.is_empty() {
        return Some(None);
    }
    let tl = t.to_ascii_lowercase();
    // A place is an arena (`in the Space arena`, `in any arena`); `in its
    // name` is the description's own.
    let (core, arenas) = match tl.rfind(" in ").filter(|&i| tl[i..].contains("arena")) {
        Some(i) => {
            let place = tl[i + 4..].trim_end_matches('.');
            let arenas = arenas_named(place);
            let any = [
                "any arena",
                "any arenas",
                "each arena",
                "that arena",
                "this arena",
                "the arena",
                "the chosen arena",
            ]
            .contains(&place)
                || place.starts_with("the same arena");
            if arenas.is_empty() && !any {
                return None;
            }
            (&t[..i], arenas)
        }
        None => (t, Vec::new()),
    };
    let d = read_descriptor(core)?;
    if arenas.is_empty() {
        return Some(Some(d));
    }
    // `in the Ground or Character arena`: in either.
    let mut any_of = Vec::new();
    for alt in &d.any_of {
        for a in &arenas {
            let mut t = alt.clone();
            t.push(Term::InArena(*a));
            any_of.push(t);
        }
    }
    Some(Some(Descriptor { any_of }))
}

/// The arenas a place names: `the Space arena`, `the Ground or Character
/// arena`, `the Ground and Character arenas` (none: not arenas named).
pub(super) fn arenas_named(place: &str) -> Vec<Arena> {
    let Some(names) = place.strip_prefix("the ").and_then(|p| {
        p.strip_suffix(" arenas")
            .or_else(|| p.strip_suffix(" arena"))
    }) else {
        return Vec::new();
    };
    let words: Vec<&str> = names
        .split([' ', ','])
        .filter(|w| !w.is_empty() && *w != "or" && *w != "and")
        .collect();
    let arenas: Option<Vec<Arena>> = words.iter().map(|w| Arena::from_word(w)).collect();
    arenas.unwrap_or_default()
}

/// `each of your other X`, `one of your X`, `each X`, `all X`: the
/// controller's own units, one of them, or every unit.
fn group_recipient(
    l: &str,
    desc: impl Fn(&str) -> Option<Option<Descriptor>>,
) -> Option<Recipient> {
    #[derive(Clone, Copy)]
    enum Group {
        Own,
        OneOfYours,
        Each,
    }
    let groups = [
        ("each of your other ", true, Group::Own),
        ("your other ", true, Group::Own),
        ("each of your ", false, Group::Own),
        ("your ", false, Group::Own),
        ("one of your other ", true, Group::OneOfYours),
        ("one of your ", false, Group::OneOfYours),
        ("x of your ", false, Group::OneOfYours),
        ("up to x of your ", false, Group::OneOfYours),
        ("two of your ", false, Group::OneOfYours),
        ("up to two of your ", false, Group::OneOfYours),
        ("up to 2 of your ", false, Group::OneOfYours),
        ("2 of your ", false, Group::OneOfYours),
        ("a unit of your choice", false, Group::OneOfYours),
        ("the unit of your choice", false, Group::OneOfYours),
        ("each other ", true, Group::Each),
        ("each ", false, Group::Each),
        ("every ", false, Group::Each),
        ("all ", false, Group::Each),
    ];
    let (r, other, group) = groups
        .iter()
        .find_map(|(p, other, group)| l.strip_prefix(p).map(|r| (r, *other, *group)))?;
    Some(match (group, desc(r)) {
        (Group::Own, Some(which)) => Recipient::Own { which, other },
        (Group::OneOfYours, Some(which)) => Recipient::OneOfYours { which, other },
        (Group::Each, Some(Some(which))) => Recipient::Each { which, other },
        (Group::Own | Group::OneOfYours, None) if other => Recipient::Elsewhere,
        _ => Recipient::Unknown,
    })
}

/// "Not any of" a descriptor of plain words (`a Jedi or a Sith` → not
/// Jedi, not Sith); `None` when some alternative is more than words.
pub(super) fn negated(d: &Descriptor) -> Option<Vec<Term>> {
    d.any_of
        .iter()
        .map(|t| match t.as_slice() {
            [Term::Words(w)] => Some(Term::Not(w.clone())),
            _ => None,
        })
        .collect()
}

/// `each unit attacking THIS`, `units attacking THIS`, `each Jedi that
/// attacks THIS`: the unit attacking this one (when it matches).
fn attacking_this(s: &str, l: &str) -> Option<Recipient> {
    let head_len = [
        " attacking this",
        " that attacks this",
        " that is attacking this",
    ]
    .iter()
    .find_map(|suffix| l.strip_suffix(suffix))?
    .len();
    let mut head = &s[..head_len];
    for p in [
        "each of your opponent's ",
        "your opponent's ",
        "each of your opponents ",
        "each ",
        "any ",
        "an ",
        "a ",
        "the ",
        "all ",
    ] {
        if head.len() > p.len() && head[..p.len()].eq_ignore_ascii_case(p) {
            head = &head[p.len()..];
        }
    }
    let hl = head.to_ascii_lowercase();
    if [
        "unit",
        "units",
        "opponent's unit",
        "opponent's units",
        "enemy unit",
        "enemy units",
    ]
    .contains(&hl.as_str())
    {
        return Some(Recipient::Attacking(None));
    }
    read_descriptor(head).map(|d| Recipient::Attacking(Some(d)))
}

/// `each other Clone you control` is `each of your other Clones`;
/// `each unit your opponent controls` is `each of your opponent's units`:
/// whose units, said the other way round.
fn controlled(s: &str) -> Option<String> {
    let l = s.to_ascii_lowercase();
    let (head, whose) = if let Some(h) = l.strip_suffix(" you control") {
        (h, "your ")
    } else {
        (
            l.strip_suffix(" your opponent controls")?,
            "your opponent's ",
        )
    };
    let head_orig = &s[..head.len()];
    let (lead, other) = [
        ("each other ", true),
        ("every other ", true),
        ("all other ", true),
        ("other ", true),
        ("each ", false),
        ("every ", false),
        ("all ", false),
        ("a ", false),
        ("an ", false),
    ]
    .iter()
    .find_map(|(p, o)| head.strip_prefix(p).map(|_| (p.len(), *o)))
    .unwrap_or((0, false));
    let other = if other && whose == "your " {
        "other "
    } else {
        ""
    };
    let lead_word = if lead == 0 { "" } else { "each of " };
    Some(format!("{lead_word}{whose}{other}{}", &head_orig[lead..]))
}
