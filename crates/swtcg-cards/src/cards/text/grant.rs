//! The `grant` clause rule: `[As long as S,] SUBJECT gets GRANTS [as long
//! as / when S] [for this attack | during that attack | until ...]`, and
//! `SUBJECT loses K`. In steps: the clause's parts ([`GrantText`]), its
//! effects, its trailing situation, its recipient as a subject, when it
//! acts, and the class its cost and situation give.

use super::{
    Class, Clause, Cost, Descriptor, Draft, Effect, Keyword, Recipient, RecipientKind, Situation,
    Subject, When, Who, XSource, XTerm, add_situation, effects_use_x, find_any, find_word,
    first_clause_subject, has_attack_word, keyword_when, outside_reason, quote_short, read_count,
    read_grants, read_losses, read_recipient, split_top, trailing_clause,
};

/// A reading that ends the rule early (not understood, not-attack, ...).
type Early<T> = Result<T, Box<Draft>>;

/// The parts of a grant clause.
struct GrantText<'a> {
    /// Who gets it.
    subject: &'a str,
    /// What it gets (or loses), with X alone where it prints a number
    /// from X (`Tenacity X+1`: `Tenacity X`, and `term`).
    grants: std::borrow::Cow<'a, str>,
    /// The number printed from X (`X+1`), with `x`.
    term: XTerm,
    /// The clause after the grants (`as long as ...`, `for this attack`).
    trailing: &'a str,
    /// `trailing`, lowercase.
    tl: String,
    /// What X is (`where X is ...`).
    x: Option<String>,
    /// `loses` rather than `gets`.
    loses: bool,
}

/// Cuts a grant clause into its parts; `None` when it has no `gets`,
/// `get`, `loses` or `lose`.
fn grant_text(body: &str) -> Option<GrantText<'_>> {
    let bl = body.to_ascii_lowercase();
    let (gi, verb_len, loses) = match (
        find_word(&bl, " gets ").or_else(|| find_word(&bl, " gets:")),
        find_word(&bl, " get "),
        find_word(&bl, " lose "),
        find_word(&bl, " loses "),
        find_word(&bl, " can't use "),
        find_word(&bl, " has "),
    ) {
        (Some(i), _, _, _, _, _) => (i, 6, false),
        (None, Some(i), _, _, _, _) => (i, 5, false),
        (None, None, Some(i), _, _, _) => (i, 6, true),
        (None, None, None, Some(i), _, _) => (i, 7, true),
        // "the defending unit can't use Evade for that attack": it loses it.
        (None, None, None, None, Some(i), _) => (i, 11, true),
        // "THIS has Critical Hit 2 as long as ...": read as "gets" when
        // what follows is grants (see `gets`).
        (None, None, None, None, None, Some(i)) => (i, 5, false),
        _ => return None,
    };
    let rest_all = &body[gi + verb_len..];
    // "..., where X is the number of ...": what X is.
    let wheres = [
        ", where x is ",
        ", when x is ",
        " where x is ",
        ", where x equals ",
        " where x equals ",
    ];
    let (rest, x) = match find_any(&rest_all.to_ascii_lowercase(), &wheres) {
        Some((i, len)) => (&rest_all[..i], Some(rest_all[i + len..].to_string())),
        None => (rest_all, None),
    };
    let rl = rest.to_ascii_lowercase();
    let ends = [
        " unless ",
        " as long as ",
        " when ",
        " while ",
        " if ",
        " for this attack",
        " for that attack",
        " during that attack",
        " during this attack",
        " during the attack",
        " until ",
        " this turn",
        " for each ",
    ];
    let (grant_end, trailing) = match find_any(&rl, &ends) {
        Some((i, _)) => (i, &rest[i..]),
        None => (rest.len(), ""),
    };
    let grants = rest[..grant_end].trim_end();
    let grants = grants.strip_suffix(" instead").unwrap_or(grants);
    let tl = trailing.to_ascii_lowercase();
    // "for each" belongs to the grant (count-based).
    let (grants, trailing, tl) = if tl.starts_with(" for each ") {
        let end = find_any(&tl[1..], &[" as long as ", " when ", " while ", " until "])
            .map_or(trailing.len(), |(i, _)| i + 1);
        (
            &rest[..grant_end + end],
            &trailing[end..],
            tl[end..].to_string(),
        )
    } else {
        (grants, trailing, tl)
    };
    // `gets Tenacity X+1 ..., where X is ...`: X alone, and the number.
    let (grants, term) = match x.as_ref().and_then(|_| super::rules::x_term(grants)) {
        Some((g, term)) => (std::borrow::Cow::Owned(g), term),
        None => (std::borrow::Cow::Borrowed(grants), XTerm::X),
    };
    Some(GrantText {
        subject: first_clause_subject(body[..gi].trim()),
        grants,
        term,
        trailing,
        tl,
        x,
        loses,
    })
}

/// Who gets it: the subject in words, or what "that unit" refers to.
fn grant_recipient(subject: &str, referent: Option<&Recipient>, who: &Who) -> Recipient {
    let sl = subject.to_ascii_lowercase();
    let pronoun = sl.starts_with("that ")
        || sl.starts_with("the chosen")
        || sl.starts_with("each of those ")
        || sl.starts_with("those ")
        || sl == "they"
        || sl == "it"
        || sl == "he"
        || sl == "she";
    let r = match referent {
        Some(r) if pronoun => r.clone(),
        _ => read_recipient(subject),
    };
    who.narrow(r)
}

/// Tiers: ": * 2: Accuracy 1 and Shields 1. * 4: +2 power ..." (each tier
/// in addition to those before it): a choice by tier.
fn tiers(printed: &str, grants: &str) -> Early<Vec<Vec<Effect>>> {
    let gl = grants.trim_start_matches(':').trim();
    // `each of the following abilities up to X: * 3: ...`.
    let gl = match gl.to_ascii_lowercase().find(": *") {
        Some(i) if gl.to_ascii_lowercase().starts_with("each of the following") => {
            gl[i + 1..].trim()
        }
        _ => gl,
    };
    let mut choices = Vec::new();
    if !gl.starts_with("* ") {
        return Ok(choices);
    }
    let mut acc: Vec<Effect> = Vec::new();
    for tier in gl.split('*').map(str::trim).filter(|t| !t.is_empty()) {
        let bad = || Box::new(Draft::not_understood(printed, "a list of tiers"));
        let (n, eff) = tier.split_once(':').ok_or_else(bad)?;
        n.trim().parse::<u32>().map_err(|_| bad())?;
        match read_grants(eff.trim().trim_end_matches('.')) {
            Ok(e) => acc.extend(e),
            Err(why) => return Err(Box::new(Draft::not_understood(printed, &why))),
        }
        choices.push(acc.clone());
    }
    Ok(choices)
}

/// The effects granted (or lost), and the choices among them.
fn grant_effects(
    printed: &str,
    g: &GrantText,
    recipient: &Recipient,
) -> Early<(Vec<Effect>, Vec<Vec<Effect>>)> {
    let mut choices = tiers(printed, &g.grants)?;
    let read = if !choices.is_empty() {
        Ok(choices.iter().flatten().cloned().collect())
    } else if g.loses {
        read_losses(&g.grants)
    } else {
        read_grants(&g.grants)
    };
    let effects = match read {
        Ok(e) => e,
        Err(_) if !g.loses && split_top(&g.grants, &[" or "]).len() > 1 => {
            // A choice: "gets Armor or "Pay 1 Force -> Retaliate 4"".
            for alt in split_top(&g.grants, &[" or "]) {
                match read_grants(alt) {
                    Ok(e) => choices.push(e),
                    Err(why) => return Err(Box::new(Draft::not_understood(printed, &why))),
                }
            }
            choices.iter().flatten().cloned().collect()
        }
        Err(why) if why.ends_with(" (unmodelled)") => {
            let k = why.trim_end_matches(" (unmodelled)");
            return Err(Box::new(Draft::unmodelled(printed, k)));
        }
        Err(why) => {
            if *recipient == Recipient::Elsewhere && !has_attack_word(&g.tl) {
                return Err(Box::new(Draft::not_attack(
                    printed,
                    "affects other units only",
                )));
            }
            return Err(Box::new(Draft::not_understood(printed, &why)));
        }
    };
    Ok((effects, choices))
}

/// `and can't attack this turn` after a duration: a rider outside attacks,
/// with why.
fn rider(after: &str) -> Option<String> {
    let r = after.trim().strip_prefix("and ")?;
    outside_reason(r, false)
        .map(|why| format!("with a rider outside attacks ({why}): '{}'", quote_short(r)))
}

/// What follows a grant's effects: its situation, when it applies, and a
/// rider outside attacks after its duration.
struct Trailing {
    situation: Option<Situation>,
    when: Option<When>,
    rider: Option<String>,
}

/// The trailing clause's situation and timing.
fn trailing_of(printed: &str, g: &GrantText) -> Early<Trailing> {
    let tt = g.tl.trim();
    let situation = |r: &str| {
        let r = r.trim_end_matches('.');
        trailing_clause(&g.trailing.trim()[tt.len() - r.len()..], r)
    };
    if let Some(r) = ["as long as ", "when ", "while ", "if "]
        .iter()
        .find_map(|p| tt.strip_prefix(p))
    {
        let (s, when) = situation(r);
        return Ok(Trailing {
            situation: Some(s),
            when,
            rider: None,
        });
    }
    // `... Accuracy -1 unless it's attacking a Capital Ship`: when the
    // situation does not hold (in the role it names).
    if let Some(r) = tt.strip_prefix("unless ") {
        let (s, when) = situation(r);
        return Ok(Trailing {
            situation: Some(Situation::Not { not: Box::new(s) }),
            when,
            rider: None,
        });
    }
    // After a duration ("... loses Shields during that attack": the
    // attack it is in, its recipient says whose; "until ...": it lasts,
    // whatever the end), what else follows.
    let durations = [
        ("for this attack", Some(When::Attacking)),
        ("for that attack", Some(When::Attacking)),
        ("during that attack", None),
        ("during this attack", None),
        ("during the attack", None),
        ("this turn", None),
    ];
    let (when, after) = match durations.iter().find(|(d, _)| tt.starts_with(d)) {
        Some((d, when)) => (*when, tt[d.len()..].trim()),
        None if tt.starts_with("until") => (
            None,
            find_word(tt, " and ").map_or("", |at| tt[at..].trim()),
        ),
        None => (None, tt),
    };
    // `... for this attack if the defending unit has Stealth`: the
    // situation, in the attack the duration says.
    if let Some(r) = after.strip_prefix("if ") {
        let (s, w) = situation(r);
        return Ok(Trailing {
            situation: Some(s),
            when: w.or(when),
            rider: None,
        });
    }
    // `... for this attack instead`: the clause replaces another (noted by
    // the clause reader).
    let after = after.trim_end_matches('.').trim();
    if after.is_empty() || after == "instead" {
        return Ok(Trailing {
            situation: None,
            when,
            rider: None,
        });
    }
    // Nothing may follow unread: "gets +3 power for that attack and is
    // discarded when the attack ends" has a clause no rule read, and is not
    // understood rather than read without it. A rider outside attacks
    // ("and can't attack this turn") is noted.
    match rider(after) {
        Some(note) => Ok(Trailing {
            situation: None,
            when,
            rider: Some(note),
        }),
        None => Err(Box::new(Draft::not_understood(
            printed,
            &format!("a clause after the effect: '{}'", quote_short(after)),
        ))),
    }
}

/// Whether the situation is "the unit attacking this one".
fn is_attacking_this(when: Option<When>, situation: &Option<Situation>) -> bool {
    when == Some(When::Defending)
        && match situation {
            Some(Situation::Opponent { .. }) => true,
            Some(Situation::All { all }) => {
                all.iter().any(|s| matches!(s, Situation::Opponent { .. }))
            }
            _ => false,
        }
}

/// "The attacking Naboo Starfighter gets +X power": its owner pays to help
/// its own attacker (+power, keywords) and to hinder the opponent's
/// (-power). "Each of your opponent's units gets -2 power as long as it's
/// attacking a Diplomat": the opponent attacks this unit, a Diplomat.
fn whose_attack(
    recipient: &mut Recipient,
    effects: &[Effect],
    situation: &mut Option<Situation>,
    when: &mut Option<When>,
) {
    if let Recipient::Attacking(d) = &*recipient {
        let hinders = effects.iter().all(|e| match e {
            Effect::Power { n } => *n < 0,
            Effect::PowerPer { n, .. } => *n < 0,
            Effect::PowerX { sign } => *sign < 0,
            Effect::Keyword { ability, .. } => {
                matches!(ability.keyword, Keyword::Accuracy(a) if a < 0)
            }
            Effect::Lose { .. } => true,
            _ => false,
        });
        if !hinders {
            *recipient = Recipient::Own {
                which: d.clone(),
                other: false,
            };
            *when = Some(When::Attacking);
        }
    }
    let opponent = matches!(
        recipient,
        Recipient::Opponent(_)
            | Recipient::Each { .. }
            | Recipient::Attacking(_)
            | Recipient::Chosen(_)
    );
    if opponent && let Some(Situation::Attacking { defender }) = situation.clone() {
        *situation = Some(Situation::Own { this: defender });
        *when = Some(When::Defending);
    }
}

/// The recipient as a subject, the situation it brings, and its timing.
fn recipient_subject(
    printed: &str,
    recipient: Recipient,
    attacking_this: bool,
) -> Early<(Subject, Option<Situation>, Option<When>)> {
    let others_only = || {
        Box::new(Draft::not_attack(
            printed,
            "affects the controller's other units only",
        ))
    };
    let opp = |d: Option<Descriptor>| d.map(|d| Situation::Opponent { opponent: d });
    Ok(match recipient {
        Recipient::This => (Subject::This, None, None),
        Recipient::Opponent(d) => (Subject::Opponent, opp(d), None),
        Recipient::Attacking(d) => (Subject::Opponent, opp(d), Some(When::Defending)),
        Recipient::DefendingUnit => (Subject::Opponent, None, Some(When::Attacking)),
        Recipient::Each { which, other } => {
            let s = Some(Situation::Opponent { opponent: which });
            let subject = if other || attacking_this {
                Subject::Opponent
            } else {
                Subject::Both
            };
            (subject, s, None)
        }
        Recipient::Own { other: true, .. } | Recipient::OneOfYours { other: true, .. } => {
            return Err(others_only());
        }
        Recipient::Own { which, .. } => (
            Subject::This,
            which.map(|d| Situation::Own { this: d }),
            None,
        ),
        Recipient::OneOfYours { which, .. } => {
            let mut s = Situation::Other {
                text: "a unit chosen by its controller".into(),
            };
            if let Some(d) = which {
                s = s.and(Situation::Own { this: d });
            }
            (Subject::This, Some(s), None)
        }
        Recipient::Elsewhere => {
            return Err(Box::new(Draft::not_attack(
                printed,
                "affects other units only",
            )));
        }
        Recipient::Chosen(d) => {
            let chosen = Situation::Other {
                text: "a unit chosen by a player".into(),
            };
            (Subject::Opponent, add_situation(opp(d), chosen), None)
        }
        Recipient::Unknown => {
            return Err(Box::new(Draft::not_understood(
                printed,
                "whom the effect is for",
            )));
        }
    })
}

/// When it acts: what the clause says, or the situation (attacking X), or
/// what the effects act on (power acts when its holder attacks: for the
/// opponent, when this unit defends).
fn when_of(
    said: Option<When>,
    situation: &Option<Situation>,
    effects: &[Effect],
    kind: RecipientKind,
) -> When {
    let from_situation = || -> Option<When> {
        let mut found = None;
        let mut visit = vec![situation.as_ref()?];
        while let Some(x) = visit.pop() {
            match x {
                Situation::Attacking { .. } => found = Some(When::Attacking),
                Situation::AttackedBy { .. } => found = Some(When::Defending),
                Situation::All { all } => visit.extend(all.iter()),
                _ => {}
            }
        }
        found
    };
    let keyword_when_is = |e: &Effect, w: When| {
        matches!(e, Effect::Keyword { ability, .. } | Effect::KeywordPer { ability, .. }
            if keyword_when(&ability.keyword) == w)
    };
    let holder = if effects.iter().all(|e| keyword_when_is(e, When::Defending)) {
        When::Defending
    } else if effects.iter().all(|e| {
        keyword_when_is(e, When::Attacking)
            || matches!(
                e,
                Effect::Power { .. }
                    | Effect::PowerPer { .. }
                    | Effect::PowerX { .. }
                    | Effect::ExtraDamage { .. }
                    | Effect::ExtraDamageX
            )
    }) {
        When::Attacking
    } else {
        When::Any
    };
    let flip = |w: When| match w {
        When::Attacking => When::Defending,
        When::Defending => When::Attacking,
        When::Any => When::Any,
    };
    said.or_else(from_situation).unwrap_or(match kind {
        RecipientKind::This => holder,
        RecipientKind::Opponent => flip(holder),
        RecipientKind::Both => When::Any,
    })
}

/// A grant that read as nothing an attack reads: outside attacks, unless
/// its words name one of the engine's keywords that no rule placed (`gets
/// the following if ...: Sith: Fury 3; Smuggler: Lucky 2`), which is not
/// understood rather than nothing.
fn nothing_granted(printed: &str, g: &GrantText) -> Draft {
    let said = format!("{} {}", g.grants.trim(), g.trailing.trim());
    if super::lex::names_an_engine_keyword(&said) {
        return Draft::not_understood(
            printed,
            &format!("its grant names a keyword no rule read: '{}'", said.trim()),
        );
    }
    Draft::not_attack(
        printed,
        "grants nothing that acts on an attack (speed, Stealth, costs, ...)",
    )
}

/// The `grant` rule.
pub(super) fn gets(c: &Clause) -> Option<Draft> {
    let printed = c.printed;
    let body = c.text.trim().trim_end_matches('.');
    let bl = body.to_ascii_lowercase();
    let has_gets = [" gets ", " gets:", " get "]
        .iter()
        .any(|v| find_word(&bl, v).is_some());
    if !has_gets && !has_attack_word(&bl) {
        return None;
    }
    let g = grant_text(body)?;
    let has_only = !has_gets && find_word(&bl, " has ").is_some() && !g.loses;
    if has_only && !matches!(read_grants(&g.grants), Ok(e) if !e.is_empty()) {
        return None;
    }
    if !g.loses && matches!(read_grants(&g.grants), Ok(e) if e.is_empty()) && g.x.is_none() {
        return Some(nothing_granted(printed, &g));
    }
    Some(read_grant(c, &g).unwrap_or_else(|e| *e))
}

fn read_grant(c: &Clause, g: &GrantText) -> Early<Draft> {
    let printed = c.printed;
    let mut recipient = grant_recipient(g.subject, c.referent, c.who);
    let (effects, choices) = grant_effects(printed, g, &recipient)?;
    let Trailing {
        situation: mut trailing,
        when: mut when_said,
        rider,
    } = trailing_of(printed, g)?;
    if effects.is_empty() {
        // Only speed, Stealth and the like.
        return Err(Box::new(nothing_granted(printed, g)));
    }
    let attacking_this = is_attacking_this(when_said, &trailing);
    whose_attack(&mut recipient, &effects, &mut trailing, &mut when_said);
    let kind = match &recipient {
        Recipient::This | Recipient::Own { .. } | Recipient::OneOfYours { .. } => {
            RecipientKind::This
        }
        Recipient::Each { other: false, .. } if !attacking_this => RecipientKind::Both,
        _ => RecipientKind::Opponent,
    };
    let (subject, own_situation, when_default) =
        recipient_subject(printed, recipient, attacking_this)?;
    let situation_lead = c.situation.clone();
    let mut all = c.situation.clone();
    for s in [own_situation, trailing].into_iter().flatten() {
        all = add_situation(all, s);
    }
    // "for that attack" only says how long: after "When THIS is attacked
    // by a Jedi," it is the attack this unit defends in.
    let duration =
        g.tl.trim().starts_with("for this attack") || g.tl.trim().starts_with("for that attack");
    let lead = match &situation_lead {
        Some(Situation::AttackedBy { .. }) if duration => Some(When::Defending),
        _ => None,
    };
    let when = when_of(when_default.or(lead).or(when_said), &all, &effects, kind);
    let mut a = Draft::new(printed, Class::Condition);
    a.subject = Some(subject);
    a.when = Some(when);
    a.effects = effects;
    a.choices = choices;
    a.note = rider;
    classify_grant(printed, a, all, c.cost.clone(), g.x.as_deref(), g.term)
}

/// The class its cost, situation, choices and X give: paid effects for
/// this attack are keywords (choices), free ones with a situation are
/// conditions.
fn classify_grant(
    printed: &str,
    mut a: Draft,
    mut all: Option<Situation>,
    cost: Option<Cost>,
    x_text: Option<&str>,
    term: XTerm,
) -> Early<Draft> {
    let mine = a.subject == Some(Subject::This);
    match &cost {
        // A cost other than Force (tap, discard, counters): a choice we do
        // not price — the user switches it on.
        Some(c) if !c.force_only() && !c.text.to_ascii_lowercase().contains("pay 0") => {
            let paid = Situation::Other {
                text: format!("its cost is paid: {}", c.text),
            };
            all = add_situation(all, paid);
        }
        _ if all.is_none() && mine => a.class = Class::Keyword,
        _ => {}
    }
    if a.class == Class::Condition && all.is_none() {
        all = Some(Situation::Opponent {
            opponent: Descriptor::any_unit(),
        });
    }
    if !a.choices.is_empty() {
        a.class = Class::Condition;
        let why = Situation::Other {
            text: "the player's choice among its effects".into(),
        };
        all = add_situation(all, why);
    }
    if effects_use_x(&a.effects) {
        let source = x_text
            .and_then(read_count)
            .map(|per| XSource::Count { per, term });
        if source.is_none() {
            a.class = Class::Condition;
            let user = Situation::Other {
                text: "X is given by the user (=N)".into(),
            };
            all = add_situation(all, user);
        }
        a.x = Some(source.unwrap_or(XSource::User { term }));
    } else if x_text.is_some() {
        return Err(Box::new(Draft::not_understood(
            printed,
            "an X the effect does not use",
        )));
    }
    a.decidable = all.as_ref().map(Situation::decidable);
    if a.class == Class::Keyword {
        a.decidable = None;
    }
    a.situation = all;
    a.cost = cost;
    Ok(a)
}
