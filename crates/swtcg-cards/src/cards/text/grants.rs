//! Grants: `SUBJECT gets GRANTS [as long as S] [for this attack]`, losses, and counts (`for each`, `where X is`).

use super::*;

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
        return quoted_grant(&it[1..it.len() - 1], out);
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
    if let Some(read) = stat_grant(&l, out) {
        return read;
    }
    let outside = [
        "stealth",
        "double strike",
        "hidden cost",
        "upkeep",
        "bounty",
        "velocity",
    ];
    if outside.iter().any(|non| starts_with_word(&l, non)) {
        return Ok(());
    }
    if let Some(r) = l.strip_prefix("loses ").or_else(|| l.strip_prefix("lose ")) {
        out.extend(read_losses(&it[it.len() - r.len()..])?);
        return Ok(());
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

/// A granted ability in quotes, read as the unit's own.
fn quoted_grant(inner: &str, out: &mut Vec<Effect>) -> Result<(), String> {
    let a = classify_draft(inner, &Who::named("this unit"));
    match a.class {
        Class::Keyword => {
            out.extend(a.effects);
            Ok(())
        }
        Class::NotAttack => Ok(()),
        _ => Err(format!("granted text '{}'", crate::error::quote(inner))),
    }
}

/// Power, health and speed, fixed, X or per thing counted; `None` when the
/// item is none of those.
fn stat_grant(l: &str, out: &mut Vec<Effect>) -> Option<Result<(), String>> {
    let words: Vec<&str> = l.split_whitespace().collect();
    let num = |w: &str| -> Option<i32> { w.trim_start_matches('+').parse::<i32>().ok() };
    let n = words.first().and_then(|w| num(w));
    match (words.as_slice(), n) {
        (["+x", "power"] | ["x", "power"], _) => out.push(Effect::PowerX { sign: 1 }),
        (["-x", "power"], _) => out.push(Effect::PowerX { sign: -1 }),
        ([_, "power"], Some(n)) => out.push(Effect::Power { n }),
        ([_, "health"], Some(n)) => out.push(Effect::Health { n }),
        ([_, "speed"], Some(_)) | ([_, "speed", "for", "each", ..], Some(_)) => {}
        ([_, "power", "for", "each", rest @ ..], Some(n)) => match read_count(&rest.join(" ")) {
            Some(per) => out.push(Effect::PowerPer { n, per }),
            // A count the cards can't tell (equipment, a discard pile): the
            // user gives it.
            None => out.push(Effect::PowerX { sign: n }),
        },
        ([_, "health", "for", "each", rest @ ..], Some(n)) => match read_count(&rest.join(" ")) {
            Some(per) => out.push(Effect::HealthPer { n, per }),
            None => return Some(Err(format!("health for each {}", rest.join(" ")))),
        },
        _ => return None,
    }
    Some(Ok(()))
}

pub(super) fn read_losses(text: &str) -> Result<Vec<Effect>, String> {
    let mut out = Vec::new();
    let all = [
        "all abilities",
        "all its abilities",
        "all of its abilities",
        "all keywords",
        "all its keywords",
    ];
    if all.contains(
        &text
            .trim()
            .trim_end_matches('.')
            .to_ascii_lowercase()
            .as_str(),
    ) {
        // Every keyword the engine has, each once.
        let mut names: Vec<&str> = crate::keywords::NAMES.iter().map(|(_, c, _)| *c).collect();
        names.dedup();
        out.extend(names.into_iter().map(|k| Effect::Lose {
            keyword: k.to_string(),
        }));
        return Ok(out);
    }
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
    if let Some(c) = own_count(&l) {
        return Some(c);
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
pub(super) fn first_clause_subject(subject: &str) -> &str {
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

/// Counts of this unit's own things: its damage counters, the cards
/// beneath it, its stack.
fn own_count(l: &str) -> Option<Count> {
    let counters = [
        "damage counter on it",
        "damage counter on this",
        "damage counter on him",
        "damage counter on her",
        "damage counters on it",
        "damage counters on this",
    ];
    let beneath = [
        "card stacked beneath him",
        "card stacked beneath her",
        "card stacked beneath it",
        "card stacked beneath this",
        "cards stacked beneath this",
        "card stacked under him",
        "card stacked under her",
        "card stacked under it",
        "card stacked under this",
        "cards stacked under this",
    ];
    let stack = [
        "cards in this's stack",
        "card in this's stack",
        "cards in its stack",
        "cards in his stack",
        "cards in her stack",
    ];
    if counters.contains(&l) {
        Some(Count::DamageCounters)
    } else if beneath.contains(&l) {
        Some(Count::StackedCards)
    } else if stack.contains(&l) {
        Some(Count::StackSize)
    } else {
        None
    }
}
