//! Who an effect is for: recipients (`each of your other Naboo units`) and descriptions (`a unique Jedi`).

use super::*;

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
    let (core, arena) = match tl.find(" in ") {
        Some(i) => {
            let place = &tl[i + 4..];
            let arena = ["space", "ground", "character"]
                .into_iter()
                .find(|a| place == format!("the {a} arena") || place == format!("the {a} arenas"));
            let any = [
                "any arena",
                "each arena",
                "that arena",
                "this arena",
                "the arena",
                "the chosen arena",
            ]
            .contains(&place)
                || place.starts_with("the same arena");
            if arena.is_none() && !any {
                return None;
            }
            (&t[..i], arena.and_then(Arena::from_word))
        }
        None => (t, None),
    };
    let mut d = read_descriptor(core)?;
    if let Some(a) = arena {
        for alt in &mut d.any_of {
            alt.push(Term::InArena(a));
        }
    }
    Some(Some(d))
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

/// Reads a description of units: `a unique Character`, `non-Jedi
/// Characters`, `Clone, Jedi or Rebel`, `Dark Side unit`, `unit with 5
/// health or more`, `Jango`.
pub fn read_descriptor(text: &str) -> Option<Descriptor> {
    let ascii = ascii_only(text);
    let t = ascii.trim().trim_end_matches(['.', ',']).trim();
    let t = t
        .trim_start_matches("a ")
        .trim_start_matches("an ")
        .trim_start_matches("A ")
        .trim_start_matches("An ");
    if t.is_empty() {
        return None;
    }
    let l = t.to_ascii_lowercase();
    if l.contains(" that ") || l.contains(" who ") || l.contains(" if ") {
        return None;
    }
    // Stat clauses: "with 4 health or more", "with Stealth".
    let (core, extra) = match l.find(" with ") {
        Some(i) => (&t[..i], vec![with_term(&l[i + 6..])?]),
        None => (t, Vec::new()),
    };
    let mut words = core.to_string();
    let mut terms = lead_terms(&mut words);
    let (noun, head) = unit_noun(words.trim());
    if let Some(t) = plain_noun(&head) {
        terms.push(t);
        terms.extend(extra);
        return Some(Descriptor {
            any_of: vec![terms],
        });
    }
    alternatives(&head, &terms, noun, &extra)
}

/// What follows `with` in a description: a stat clause or keywords.
fn with_term(w: &str) -> Option<Term> {
    let words: Vec<&str> = w.split_whitespace().collect();
    Some(match words.as_slice() {
        [n, "health", "or", "more"] => Term::HealthAtLeast(n.parse().ok()?),
        ["power", n, "or", "less"] => Term::PowerAtMost(n.parse().ok()?),
        ["health", "higher", "than", "its", "power"] => Term::HealthAbovePower,
        ["power", "higher", "than", "its", "health"] => Term::PowerAboveHealth,
        [k] | ["a", k] | ["an", k] => Term::HasKeyword(title(k)),
        _ => {
            // "with Hidden Cost or Stealth": keywords, one of them.
            let names: Vec<String> = w.split(" or ").map(|k| title(k.trim())).collect();
            if names.len() > 1 && names.iter().all(|k| k.split(' ').count() <= 2) {
                Term::HasAnyKeyword(names)
            } else {
                return None;
            }
        }
    })
}

/// The leading words of a description (`unique`, `damaged`, a side),
/// taken off `words`.
fn lead_terms(words: &mut String) -> Vec<Term> {
    let mut terms = Vec::new();
    let strip_word = |w: &mut String, p: &str| -> bool {
        let yes = w.to_ascii_lowercase().starts_with(p);
        if yes {
            *w = w[p.len()..].to_string();
        }
        yes
    };
    if strip_word(words, "non-unique ") {
        terms.push(Term::NonUnique);
    } else if strip_word(words, "unique ") {
        terms.push(Term::Unique);
    }
    if strip_word(words, "damaged ") {
        terms.push(Term::Damaged);
    }
    for (p, side) in [
        ("dark side ", CardSide::Dark),
        ("light side ", CardSide::Light),
        ("neutral ", CardSide::Neutral),
    ] {
        if strip_word(words, p) {
            terms.push(Term::Side(side));
        }
    }
    terms
}

/// The unit noun at the end (`... Space units`, `... Characters`), and the
/// words before it.
fn unit_noun(w: &str) -> (Option<Term>, String) {
    let wl = w.to_ascii_lowercase();
    for (suffix, t) in [
        (" space units", Some("Space")),
        (" space unit", Some("Space")),
        (" ground units", Some("Ground")),
        (" ground unit", Some("Ground")),
        (" character units", Some("Character")),
        (" characters", Some("Character")),
        (" character", Some("Character")),
        (" units", None),
        (" unit", None),
    ] {
        if wl.ends_with(suffix) {
            let noun = t.map(|t| Term::Words(t.to_string()));
            return (noun, w[..w.len() - suffix.len()].to_string());
        }
    }
    (None, w.to_string())
}

/// A bare noun: any unit, any Character, any Space or Ground unit.
fn plain_noun(head: &str) -> Option<Term> {
    Some(match head.to_ascii_lowercase().as_str() {
        "character" | "characters" => Term::Words("Character".into()),
        "space unit" | "space units" => Term::Words("Space".into()),
        "ground unit" | "ground units" => Term::Words("Ground".into()),
        "unit" | "units" => Term::Unit,
        _ => return None,
    })
}

/// Alternatives: "Clone, Jedi or Rebel", "Jedi or Sith", each with the
/// leading terms, the noun and the stat clause.
fn alternatives(
    head: &str,
    terms: &[Term],
    noun: Option<Term>,
    extra: &[Term],
) -> Option<Descriptor> {
    let alts: Vec<String> = head
        .replace(", or ", ",")
        .replace(" or ", ",")
        .replace(" and ", ",")
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if alts.is_empty() {
        let mut t = terms.to_vec();
        t.push(noun.unwrap_or(Term::Unit));
        t.extend(extra.iter().cloned());
        return Some(Descriptor { any_of: vec![t] });
    }
    let mut any_of = Vec::new();
    for a in alts {
        let plain = a
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '\'');
        if !plain || a.split_whitespace().count() > 4 {
            return None;
        }
        let mut t = terms.to_vec();
        match a.strip_prefix("non-").or_else(|| a.strip_prefix("Non-")) {
            Some(r) => t.push(Term::Not(singular(r))),
            None if a.eq_ignore_ascii_case("this") => return None,
            None => t.push(Term::Words(singular(&a))),
        }
        t.extend(noun.clone());
        t.extend(extra.iter().cloned());
        any_of.push(t);
    }
    Some(Descriptor { any_of })
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
