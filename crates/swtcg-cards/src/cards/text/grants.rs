//! Grants: `SUBJECT gets GRANTS [as long as S] [for this attack]`, losses, and counts (`for each`, `where X is`).

use super::{
    Class, Effect, KeywordKind, NOT_ATTACK_KEYWORDS, UNMODELLED_KEYWORDS, WHO_ATTACKS, Who,
    classify_draft, find_word, has_attack_word, parse, read_count, starts_with_keyword,
    starts_with_word,
};

/// Whether effects use an X that is not the Force paid.
pub(crate) fn effects_use_x(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::PowerX { .. } | Effect::HealthX { .. } | Effect::ExtraDamageX => true,
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
    for item in per_each_item(grant_items(text)) {
        read_grant_item(&item, &mut out)?;
    }
    Ok(out)
}

/// `+1 power and +1 health for each C`: the count is each stat's, not
/// only the last one's (a run of stat changes before the item that says
/// `for each` shares it).
fn per_each_item(mut items: Vec<String>) -> Vec<String> {
    let stat = |i: &str| {
        let w: Vec<&str> = i.split_whitespace().collect();
        w.len() == 2
            && w[0].trim_start_matches(['+', '-']).parse::<u32>().is_ok()
            && ["power", "health"].contains(&w[1].to_ascii_lowercase().as_str())
    };
    for k in 1..items.len() {
        let Some(at) = items[k].to_ascii_lowercase().find(" for each ") else {
            continue;
        };
        if !stat(&items[k][..at]) {
            continue;
        }
        let per = items[k][at..].to_string();
        let mut j = k;
        while j > 0 && stat(&items[j - 1]) {
            items[j - 1].push_str(&per);
            j -= 1;
        }
    }
    items
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
    if [
        "can't play activated abilities",
        "can't use activated abilities",
        "can't use force activated abilities",
        "can't use force-activated abilities",
    ]
    .contains(&l.as_str())
    {
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
    if super::unknown_keyword(it) {
        return Err(format!(
            "an unknown keyword '{}'",
            swtcg_engine::error::quote(it)
        ));
    }
    // Build points, speed, costs: nothing an attack reads.
    if !has_attack_word(&l) && !super::lex::names_an_engine_keyword(it) {
        return Ok(());
    }
    if let Some(read) = stat_grant(&l, out) {
        return read;
    }
    // Which units it may attack, whether it may retreat: not this
    // attack's odds.
    if WHO_ATTACKS
        .iter()
        .any(|w| l.starts_with(w.trim_end()) || l.starts_with(&format!("can {}", w.trim())))
    {
        return Ok(());
    }
    // A glossary keyword that acts outside attacks (Damage Control,
    // Velocity, Bounty, Stealth, ...), whatever follows it.
    if NOT_ATTACK_KEYWORDS
        .iter()
        .any(|(non, _)| starts_with_keyword(it, non))
    {
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
    if let Some(at) = l.find(" for each ") {
        return keyword_per(it, &it[..at], &it[at + " for each ".len()..], out);
    }
    match swtcg_engine::keywords::parse_with_x(it) {
        Ok(a) => {
            out.push(Effect::Keyword {
                text: a.to_string(),
                ability: a,
            });
            Ok(())
        }
        Err(_) => {
            // Keywords run together with no separator (`Armor Velocity
            // 20`): each read.
            let pieces = super::split::run_together(it);
            if pieces.len() > 1 {
                for p in pieces {
                    read_grant_item(&p, out)?;
                }
                return Ok(());
            }
            Err(format!("'{}'", swtcg_engine::error::quote(it)))
        }
    }
}

/// `Critical Hit 1 for each Jedi ...`: a keyword with a number, N for
/// each of a count the cards decide.
fn keyword_per(
    item: &str,
    keyword: &str,
    count: &str,
    out: &mut Vec<Effect>,
) -> Result<(), String> {
    let unread = || format!("'{}'", swtcg_engine::error::quote(item));
    let ability = swtcg_engine::keywords::parse(keyword).map_err(|_| unread())?;
    if ability.cost.is_some() || ability.keyword.number().is_none_or(|n| n < 0) {
        return Err(unread());
    }
    let Some(per) = read_count(count) else {
        // A count the cards can't tell (a hand, a discard pile): the
        // keyword's number, N times that count, is X, which the user
        // gives.
        let mut ability = ability;
        ability.x = true;
        out.push(Effect::Keyword {
            text: format!("{} X", ability.keyword.name()),
            ability,
        });
        return Ok(());
    };
    out.push(Effect::KeywordPer {
        text: ability.to_string(),
        ability,
        per,
    });
    Ok(())
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
        Class::Unmodelled => Err(format!(
            "{} (unmodelled)",
            a.keyword.unwrap_or_else(|| "granted text".into())
        )),
        _ => Err(format!(
            "granted text '{}'",
            swtcg_engine::error::quote(inner)
        )),
    }
}

/// Power, health and speed, fixed, X or per thing counted; `None` when the
/// item is none of those.
fn stat_grant(l: &str, out: &mut Vec<Effect>) -> Option<Result<(), String>> {
    // A stat's name misspelt by one letter (`+1 healthl`) is that stat.
    let fixed: Vec<String> = l
        .split_whitespace()
        .map(|w| {
            ["power", "health", "speed"]
                .iter()
                .find(|s| w.len() >= 5 && **s != w && strsim::levenshtein(s, w) == 1)
                .map_or(w.to_string(), |s| s.to_string())
        })
        .collect();
    let words: Vec<&str> = fixed.iter().map(String::as_str).collect();
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
            // A count the cards can't tell: the user gives it.
            None => out.push(Effect::HealthX { sign: n }),
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
        "its game text",
        "their game text",
        "all game text",
        "all its game text",
        "its printed game text",
        "all of its game text",
    ];
    if all.contains(
        &text
            .trim()
            .trim_end_matches('.')
            .to_ascii_lowercase()
            .as_str(),
    ) {
        // Every keyword the engine has, each once.
        out.extend(
            KeywordKind::ALL
                .iter()
                .map(|&keyword| Effect::Lose { keyword }),
        );
        return Ok(out);
    }
    for item in grant_items(text) {
        let l = item.to_ascii_lowercase();
        if [
            "activated abilities",
            "force activated abilities",
            "force-activated abilities",
        ]
        .contains(&l.as_str())
        {
            out.push(Effect::NoActivated);
            continue;
        }
        if NOT_ATTACK_KEYWORDS
            .iter()
            .any(|(n, _)| starts_with_keyword(&item, n))
            || WHO_ATTACKS.iter().any(|w| l.starts_with(w.trim_end()))
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
        if let Some(keyword) = bare
            .iter()
            .find(|b| l == **b)
            .and_then(|b| KeywordKind::from_name(b))
        {
            out.push(Effect::Lose { keyword });
            continue;
        }
        match parse(&item) {
            Ok(a) => out.push(Effect::Lose {
                keyword: a.keyword.kind(),
            }),
            Err(_) => {
                if let Some(k) = UNMODELLED_KEYWORDS
                    .iter()
                    .find(|k| l == k.to_ascii_lowercase())
                {
                    return Err(format!("{k} (unmodelled)"));
                } else {
                    return Err(format!("loses '{}'", swtcg_engine::error::quote(&item)));
                }
            }
        }
    }
    Ok(out)
}

/// The subject of `SUBJECT VERBS ... and gets ...`: the grant's subject is
/// the first clause's ("THIS costs 1 less build counter to deploy and gets
/// Ferocity": THIS); the first clause itself is outside attacks.
pub(super) fn first_clause_subject(subject: &str) -> &str {
    let l = subject.to_ascii_lowercase();
    // `... and each gets`: each of the same subject.
    let (subject, l) = match l.strip_suffix(" each") {
        Some(h) if h.ends_with(" and") => (&subject[..h.len()], h.to_string()),
        _ => (subject, l),
    };
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
