//! Grants: `SUBJECT gets GRANTS [as long as S] [for this attack]`, losses, and counts (`for each`, `where X is`).

use super::*;

/// The `gets` grammar:
/// `[As long as S,] SUBJECT gets GRANTS [as long as / when S] [for this attack | until ...]`.
pub(super) fn gets(
    printed: &str,
    core: &str,
    cost: Option<Cost>,
    situation: Option<Situation>,
    referent: Option<&Recipient>,
    who: &Who,
) -> Option<ReadAbility> {
    let body = core.trim().trim_end_matches('.');
    let bl = body.to_ascii_lowercase();
    let has_gets = find_word(&bl, " gets ")
        .or_else(|| find_word(&bl, " gets:"))
        .or_else(|| find_word(&bl, " get "))
        .is_some();
    if !has_gets && !has_attack_word(&bl) {
        return None;
    }
    let (gi, verb_len, loses) = match (
        find_word(&bl, " gets ").or_else(|| find_word(&bl, " gets:")),
        find_word(&bl, " get "),
        find_word(&bl, " lose "),
        find_word(&bl, " loses "),
    ) {
        (Some(i), _, _, _) => (i, 6, false),
        (None, Some(i), _, _) => (i, 5, false),
        (None, None, Some(i), _) => (i, 6, true),
        (None, None, None, Some(i)) => (i, 7, true),
        _ => return None,
    };
    let subject_text = first_clause_subject(body[..gi].trim());
    let rest_all = &body[gi + verb_len..];
    // "..., where X is the number of ...": what X is.
    let (rest, x_text) = match find_any(
        &rest_all.to_ascii_lowercase(),
        &[
            ", where x is ",
            " where x is ",
            ", where x equals ",
            " where x equals ",
        ],
    ) {
        Some((i, len)) => (&rest_all[..i], Some(rest_all[i + len..].to_string())),
        None => (rest_all, None),
    };
    let rl = rest.to_ascii_lowercase();
    // Trailing clause.
    let (grant_end, trailing) = match find_any(
        &rl,
        &[
            " as long as ",
            " when ",
            " while ",
            " for this attack",
            " for that attack",
            " during that attack",
            " during this attack",
            " during the attack",
            " until ",
            " for each ",
        ],
    ) {
        Some((i, _)) => (i, &rest[i..]),
        None => (rest.len(), ""),
    };
    let grants_text = rest[..grant_end].trim_end();
    let grants_text = grants_text.strip_suffix(" instead").unwrap_or(grants_text);
    let tl = trailing.to_ascii_lowercase();
    // "for each" belongs to the grant (count-based).
    let (grants_text, trailing, tl) = if tl.starts_with(" for each ") {
        let end = find_any(&tl[1..], &[" as long as ", " when ", " while ", " until "])
            .map_or(trailing.len(), |(i, _)| i + 1);
        (
            &rest[..grant_end + end],
            &trailing[end..],
            tl[end..].to_string(),
        )
    } else {
        (grants_text, trailing, tl)
    };
    if !loses && matches!(read_grants(grants_text), Ok(e) if e.is_empty()) && x_text.is_none() {
        return Some(ReadAbility::not_attack(
            printed,
            "grants nothing that acts on an attack (speed, Stealth, costs, ...)",
        ));
    }
    let mut recipient = read_recipient(subject_text);
    let sl = subject_text.to_ascii_lowercase();
    if (sl.starts_with("that ")
        || sl.starts_with("the chosen")
        || sl == "it"
        || sl == "he"
        || sl == "she")
        && let Some(r) = referent
    {
        recipient = r.clone();
    }
    recipient = who.narrow(recipient);
    let mut choices = Vec::new();
    // Tiers: ": * 2: Accuracy 1 and Shields 1. * 4: +2 power ..." (each
    // tier in addition to those before it): a choice by tier.
    let gl = grants_text.trim_start_matches(':').trim();
    if gl.starts_with("* ") {
        let mut acc: Vec<Effect> = Vec::new();
        for tier in gl.split('*').map(str::trim).filter(|t| !t.is_empty()) {
            let Some((n, eff)) = tier.split_once(':') else {
                return Some(ReadAbility::not_understood(printed, "a list of tiers"));
            };
            if n.trim().parse::<u32>().is_err() {
                return Some(ReadAbility::not_understood(printed, "a list of tiers"));
            }
            match read_grants(eff.trim().trim_end_matches('.')) {
                Ok(e) => acc.extend(e),
                Err(why) => return Some(ReadAbility::not_understood(printed, &why)),
            }
            choices.push(acc.clone());
        }
    }
    let effects = match if !choices.is_empty() {
        Ok(choices.iter().flatten().cloned().collect())
    } else if loses {
        read_losses(grants_text)
    } else {
        read_grants(grants_text)
    } {
        Ok(e) => e,
        Err(_) if !loses && split_top(grants_text, &[" or "]).len() > 1 => {
            // A choice: "gets Armor or "Pay 1 Force -> Retaliate 4"".
            for alt in split_top(grants_text, &[" or "]) {
                match read_grants(alt) {
                    Ok(e) => choices.push(e),
                    Err(why) => return Some(ReadAbility::not_understood(printed, &why)),
                }
            }
            choices.iter().flatten().cloned().collect()
        }
        Err(why) if why.ends_with(" (unmodelled)") => {
            let k = why.trim_end_matches(" (unmodelled)");
            return Some(ReadAbility::unmodelled(printed, k));
        }
        Err(why) => {
            if recipient == Recipient::Elsewhere && !has_attack_word(&tl) {
                return Some(ReadAbility::not_attack(printed, "affects other units only"));
            }
            return Some(ReadAbility::not_understood(printed, &why));
        }
    };
    let mut trailing_situation: Option<Situation> = None;
    let mut when_from_trailing: Option<When> = None;
    let tt = tl.trim();
    if let Some(r) = tt
        .strip_prefix("as long as ")
        .or_else(|| tt.strip_prefix("when "))
        .or_else(|| tt.strip_prefix("while "))
    {
        let r = r.trim_end_matches('.');
        let (s, w) = trailing_clause(&trailing.trim()[tt.len() - r.len()..], r);
        trailing_situation = Some(s);
        when_from_trailing = w;
    } else if tt.starts_with("for this attack") || tt.starts_with("for that attack") {
        when_from_trailing = Some(When::Attacking);
    } else if tt.starts_with("during th") {
        // "... loses Shields during that attack": the attack it is in (its
        // recipient says whose).
    } else if tt.starts_with("until") || tt.is_empty() {
    } else {
        return Some(ReadAbility::not_understood(
            printed,
            "a clause after the effect",
        ));
    }
    if effects.is_empty() {
        // Only speed, Stealth and the like.
        return Some(ReadAbility::not_attack(
            printed,
            "grants nothing that acts on an attack (speed, Stealth, costs, ...)",
        ));
    }
    let attacking_this = when_from_trailing == Some(When::Defending)
        && match &trailing_situation {
            Some(Situation::Opponent { .. }) => true,
            Some(Situation::All { all }) => {
                all.iter().any(|s| matches!(s, Situation::Opponent { .. }))
            }
            _ => false,
        };
    // "The attacking Naboo Starfighter gets +X power": a unit that attacks.
    // Its owner pays to help its own attacker (+power, keywords) and to
    // hinder the opponent's (-power).
    if let Recipient::Attacking(d) = &recipient {
        let hinders = effects.iter().all(|e| match e {
            Effect::Power { n } => *n < 0,
            Effect::PowerX { sign } => *sign < 0,
            Effect::Keyword { ability, .. } => {
                matches!(ability.keyword, Keyword::Accuracy(a) if a < 0)
            }
            Effect::Lose { .. } => true,
            _ => false,
        });
        if !hinders {
            recipient = Recipient::Own {
                which: d.clone(),
                other: false,
            };
            when_from_trailing = Some(When::Attacking);
        }
    }
    // "Each of your opponent's units gets -2 power as long as it's
    // attacking a Diplomat": the opponent attacks this unit, a Diplomat.
    let opponent_recipient = matches!(
        recipient,
        Recipient::Opponent(_)
            | Recipient::Each { .. }
            | Recipient::Attacking(_)
            | Recipient::Chosen(_)
    );
    if opponent_recipient
        && let Some(Situation::Attacking { defender }) = trailing_situation.clone()
    {
        trailing_situation = Some(Situation::Own { this: defender });
        when_from_trailing = Some(When::Defending);
    }
    let recipient_kind = match &recipient {
        Recipient::This | Recipient::Own { .. } | Recipient::OneOfYours { .. } => {
            RecipientKind::This
        }
        Recipient::Each { other: false, .. } if !attacking_this => RecipientKind::Both,
        _ => RecipientKind::Opponent,
    };
    let (subject, own_situation, when_default) = match recipient {
        Recipient::This => (Subject::This, None, None),
        Recipient::Opponent(d) => (
            Subject::Opponent,
            d.map(|d| Situation::Opponent { opponent: d }),
            None,
        ),
        Recipient::Attacking(d) => (
            Subject::Opponent,
            d.map(|d| Situation::Opponent { opponent: d }),
            Some(When::Defending),
        ),
        Recipient::DefendingUnit => (Subject::Opponent, None, Some(When::Attacking)),
        Recipient::Each { which, other } => {
            let opp = Situation::Opponent {
                opponent: which.clone(),
            };
            if other || attacking_this {
                (Subject::Opponent, Some(opp), None)
            } else {
                (Subject::Both, Some(opp), None)
            }
        }
        Recipient::Own { which, other } => {
            if other {
                return Some(ReadAbility::not_attack(
                    printed,
                    "affects the controller's other units only",
                ));
            }
            (
                Subject::This,
                which.map(|d| Situation::Own { this: d }),
                None,
            )
        }
        Recipient::OneOfYours { which, other } => {
            if other {
                return Some(ReadAbility::not_attack(
                    printed,
                    "affects the controller's other units only",
                ));
            }
            let mut s = Situation::Other {
                text: "a unit chosen by its controller".into(),
            };
            if let Some(d) = which {
                s = s.and(Situation::Own { this: d });
            }
            (Subject::This, Some(s), None)
        }
        Recipient::Elsewhere => {
            return Some(ReadAbility::not_attack(printed, "affects other units only"));
        }
        Recipient::Chosen(d) => (
            Subject::Opponent,
            add_situation(
                d.map(|d| Situation::Opponent { opponent: d }),
                Situation::Other {
                    text: "a unit chosen by a player".into(),
                },
            ),
            None,
        ),
        Recipient::Unknown => {
            return Some(ReadAbility::not_understood(
                printed,
                "whom the effect is for",
            ));
        }
    };
    // Paid effects for this attack are keywords (choices), free ones with a
    // situation are conditions.
    let mut all = situation;
    for s in [own_situation, trailing_situation].into_iter().flatten() {
        all = Some(match all {
            Some(a) => a.and(s),
            None => s,
        });
    }
    // When, from the card's unit's part: what the clause says, or the
    // situation (attacking X), or what the effects act on (power acts when
    // its holder attacks: for the opponent, when this unit defends).
    let from_situation = |s: &Option<Situation>| -> Option<When> {
        let mut found = None;
        let mut visit = vec![s.as_ref()?];
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
    let holder = if effects.iter().all(|e| matches!(e, Effect::Keyword { ability, .. } if keyword_when(&ability.keyword) == When::Defending)) {
        When::Defending
    } else if effects.iter().all(|e| match e {
        Effect::Keyword { ability, .. } => keyword_when(&ability.keyword) == When::Attacking,
        Effect::Power { .. } | Effect::PowerPer { .. } | Effect::PowerX { .. } | Effect::ExtraDamage { .. } | Effect::ExtraDamageX => true,
        _ => false,
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
    let when = when_default
        .or(when_from_trailing)
        .or_else(|| from_situation(&all))
        .unwrap_or(match recipient_kind {
            RecipientKind::This => holder,
            RecipientKind::Opponent => flip(holder),
            RecipientKind::Both => When::Any,
        });
    let mut a = ReadAbility::new(printed, Class::Condition);
    if let Some(c) = &cost {
        if !c.force_only() && !c.text.to_ascii_lowercase().contains("pay 0") {
            // A cost other than Force (tap, discard, counters): a choice we
            // do not price — the user switches it on.
            all = Some(match all {
                Some(s) => s.and(Situation::Other {
                    text: format!("its cost is paid: {}", c.text),
                }),
                None => Situation::Other {
                    text: format!("its cost is paid: {}", c.text),
                },
            });
        } else if all.is_none() && subject == Subject::This {
            a.class = Class::Keyword;
        }
    } else if all.is_none() && subject == Subject::This {
        a.class = Class::Keyword;
    }
    if a.class == Class::Condition && all.is_none() {
        all = Some(Situation::Opponent {
            opponent: Descriptor {
                any_of: vec![vec![Term::Unit]],
            },
        });
    }
    if !choices.is_empty() {
        a.class = Class::Condition;
        all = add_situation(
            all,
            Situation::Other {
                text: "the player's choice among its effects".into(),
            },
        );
    }
    if effects_use_x(&effects) {
        let source = x_text
            .as_deref()
            .and_then(read_count)
            .map(|per| XSource::Count { per });
        if source.is_none() {
            a.class = Class::Condition;
            all = add_situation(
                all,
                Situation::Other {
                    text: "X is given by the user (=N)".into(),
                },
            );
        }
        a.x = Some(source.unwrap_or(XSource::User));
    } else if x_text.is_some() {
        return Some(ReadAbility::not_understood(
            printed,
            "an X the effect does not use",
        ));
    }
    a.subject = Some(subject);
    a.when = Some(when);
    a.decidable = all.as_ref().map(Situation::decidable);
    if a.class == Class::Keyword {
        a.decidable = None;
    }
    a.situation = all;
    a.effects = effects;
    a.choices = choices;
    a.cost = cost;
    Some(a)
}

/// Whether effects use an X that is not the Force paid.
pub(super) fn effects_use_x(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::PowerX { .. } | Effect::ExtraDamageX => true,
        Effect::Keyword { ability, .. } => ability.x && !ability.cost.as_ref().is_some_and(|c| c.x),
        _ => false,
    })
}

/// Reads granted effects: `+2 power and Critical Hit 2`, `Accuracy 1,
/// Critical Hit 1, and "Damage from Dass can't be prevented."`, `+1 power
/// for each damage counter on it`. Speed, Stealth and other things that do
/// not act on an attack are dropped. Fails on anything unknown.
pub fn read_grants(text: &str) -> Result<Vec<Effect>, String> {
    let mut out = Vec::new();
    for item in grant_items(text) {
        read_grant_item(&item, &mut out)?;
    }
    Ok(out)
}

pub(super) fn grant_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            quoted = !quoted;
        }
        let rest: String = chars[i..].iter().take(6).collect();
        if !quoted
            && (rest.starts_with(", and ") || rest.starts_with(" and ") || rest.starts_with(", "))
        {
            items.push(std::mem::take(&mut cur));
            i += if rest.starts_with(", and ") {
                6
            } else if rest.starts_with(" and ") {
                5
            } else {
                2
            };
            continue;
        }
        cur.push(c);
        i += 1;
    }
    items.push(cur);
    items
        .into_iter()
        .map(|s| s.trim().trim_end_matches('.').trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

pub(super) fn read_grant_item(item: &str, out: &mut Vec<Effect>) -> Result<(), String> {
    let it = item.trim().trim_end_matches('.').trim();
    // Quoted ability text: read as the unit's own ability.
    if (it.starts_with('"') && it.ends_with('"') && it.len() > 1)
        || (it.starts_with('\'') && it.ends_with('\'') && it.len() > 1)
    {
        let inner = &it[1..it.len() - 1];
        let a = classify(inner, &["this unit".to_string()]);
        return match a.class {
            Class::Keyword => {
                out.extend(a.effects);
                Ok(())
            }
            Class::NotAttack => Ok(()),
            _ => Err(format!("granted text '{}'", crate::error::quote(inner))),
        };
    }
    let l = it.to_ascii_lowercase();
    if l == "can't play activated abilities" || l == "can't use activated abilities" {
        out.push(Effect::NoActivated);
        return Ok(());
    }
    if let Some(r) = l
        .strip_prefix("the ")
        .and_then(|r| r.strip_suffix(" subtype"))
    {
        out.push(Effect::TreatAs {
            words: it[4..4 + r.len()].to_string(),
        });
        return Ok(());
    }
    // Build points, speed, costs: nothing an attack reads.
    if !has_attack_word(&l)
        && !crate::keywords::parse(it).is_ok_and(|a| a.keyword.name() != "Stack")
    {
        return Ok(());
    }
    let words: Vec<&str> = l.split_whitespace().collect();
    let num = |w: &str| -> Option<i32> { w.trim_start_matches('+').parse::<i32>().ok() };
    match words.as_slice() {
        ["+x", "power"] | ["x", "power"] => {
            out.push(Effect::PowerX { sign: 1 });
            return Ok(());
        }
        ["-x", "power"] => {
            out.push(Effect::PowerX { sign: -1 });
            return Ok(());
        }
        [n, "power"] if num(n).is_some() => {
            out.push(Effect::Power { n: num(n).unwrap() });
            return Ok(());
        }
        [n, "health"] if num(n).is_some() => {
            out.push(Effect::Health { n: num(n).unwrap() });
            return Ok(());
        }
        [n, "speed"] if num(n).is_some() => return Ok(()),
        [n, "power", "for", "each", rest @ ..] if num(n).is_some() => {
            match read_count(&rest.join(" ")) {
                Some(per) => out.push(Effect::PowerPer {
                    n: num(n).unwrap(),
                    per,
                }),
                // A count the cards can't tell (equipment, a discard pile):
                // the user gives it.
                None => out.push(Effect::PowerX {
                    sign: num(n).unwrap(),
                }),
            }
            return Ok(());
        }
        [n, "health", "for", "each", rest @ ..] if num(n).is_some() => {
            let per = read_count(&rest.join(" "))
                .ok_or_else(|| format!("health for each {}", rest.join(" ")))?;
            out.push(Effect::HealthPer {
                n: num(n).unwrap(),
                per,
            });
            return Ok(());
        }
        [n, "speed", "for", "each", ..] if num(n).is_some() => return Ok(()),
        _ => {}
    }
    for non in [
        "stealth",
        "double strike",
        "hidden cost",
        "upkeep",
        "bounty",
        "velocity",
    ] {
        if starts_with_word(&l, non) {
            return Ok(());
        }
    }
    if let Some(r) = l.strip_prefix("loses ").or_else(|| l.strip_prefix("lose ")) {
        out.extend(read_losses(&it[it.len() - r.len()..])?);
        return Ok(());
    }
    if l == "armor" || l == "overkill" || l == "elude" {
        // Handled by parse below.
    }
    if let Some(k) = UNMODELLED_KEYWORDS
        .iter()
        .find(|k| starts_with_word(&l, &k.to_ascii_lowercase()))
    {
        return Err(format!("{k} (unmodelled)"));
    }
    match crate::keywords::parse_with_x(it) {
        Ok(a) => {
            out.push(Effect::Keyword {
                text: a.to_string(),
                ability: a,
            });
            Ok(())
        }
        Err(_) => Err(format!("'{}'", crate::error::quote(it))),
    }
}

pub(super) fn read_losses(text: &str) -> Result<Vec<Effect>, String> {
    let mut out = Vec::new();
    for item in grant_items(text) {
        let l = item.to_ascii_lowercase();
        if ["stealth", "upkeep", "hidden cost"]
            .iter()
            .any(|n| starts_with_word(&l, n))
        {
            continue;
        }
        let bare = [
            "shields",
            "parry",
            "evade",
            "deflect",
            "retaliate",
            "accuracy",
            "critical hit",
            "fury",
            "stun",
            "lucky",
        ];
        if let Some(b) = bare.iter().find(|b| l == **b) {
            out.push(Effect::Lose { keyword: title(b) });
            continue;
        }
        match parse(&item) {
            Ok(a) => out.push(Effect::Lose {
                keyword: a.keyword.name().to_string(),
            }),
            Err(_) => {
                if let Some(k) = UNMODELLED_KEYWORDS
                    .iter()
                    .find(|k| l == k.to_ascii_lowercase())
                {
                    return Err(format!("{k} (unmodelled)"));
                } else {
                    return Err(format!("loses '{}'", crate::error::quote(&item)));
                }
            }
        }
    }
    Ok(out)
}

/// What `for each ...` counts.
pub(super) fn read_count(text: &str) -> Option<Count> {
    let l = text.trim().trim_end_matches('.').to_ascii_lowercase();
    let l = l
        .trim_start_matches("equal to ")
        .trim_start_matches("the number of ")
        .trim_start_matches("each ")
        .to_string();
    if [
        "damage counter on it",
        "damage counter on this",
        "damage counter on him",
        "damage counter on her",
        "damage counters on it",
        "damage counters on this",
    ]
    .contains(&l.as_str())
    {
        return Some(Count::DamageCounters);
    }
    if [
        "card stacked beneath him",
        "card stacked beneath her",
        "card stacked beneath it",
        "card stacked beneath this",
        "cards stacked beneath this",
    ]
    .contains(&l.as_str())
    {
        return Some(Count::StackedCards);
    }
    if [
        "cards in this's stack",
        "card in this's stack",
        "cards in its stack",
        "cards in his stack",
        "cards in her stack",
    ]
    .contains(&l.as_str())
    {
        return Some(Count::StackSize);
    }
    // "other unit you have in the Space arena", "of your opponent's units in
    // the Ground arena", "Naboo unit in the Character arena" (both sides).
    let (mut own, other, rest) = if let Some(r) = l
        .strip_prefix("of your opponent's ")
        .or_else(|| l.strip_prefix("your opponent's "))
    {
        (Some(false), false, r.to_string())
    } else if let Some(r) = l
        .strip_prefix("of your other ")
        .or_else(|| l.strip_prefix("your other "))
    {
        (Some(true), true, r.to_string())
    } else if let Some(r) = l.strip_prefix("of your ") {
        (Some(true), false, r.to_string())
    } else if let Some(r) = l.strip_prefix("other ") {
        (None, true, r.to_string())
    } else {
        (None, false, l.clone())
    };
    let (which, place) = rest.split_once(" in ")?;
    let arena_ok = place.starts_with("the ") && place.ends_with(" arena") && !place.contains("any")
        || place == "this arena"
        || place == "that arena";
    if !arena_ok {
        return None;
    }
    let mut which = which.to_string();
    for (suffix, side) in [
        (" you have", Some(true)),
        (" your opponent has", Some(false)),
    ] {
        if let Some(w) = which.strip_suffix(suffix) {
            which = w.to_string();
            own = side;
        }
    }
    let d = read_descriptor(&which)?;
    Some(Count::Units {
        own,
        other,
        which: d,
    })
}

/// The subject of `SUBJECT VERBS ... and gets ...`: the grant's subject is
/// the first clause's ("THIS costs 1 less build counter to deploy and gets
/// Ferocity": THIS); the first clause itself is outside attacks.
fn first_clause_subject(subject: &str) -> &str {
    let l = subject.to_ascii_lowercase();
    if !l.ends_with(" and") {
        return subject;
    }
    [
        " costs ",
        " cost ",
        " can ",
        " has ",
        " is ",
        " deploys ",
        " enters ",
    ]
    .iter()
    .filter_map(|v| find_word(&l, v))
    .min()
    .map_or(subject, |i| subject[..i].trim())
}
