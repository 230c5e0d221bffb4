//! Damage clauses: prevention (`prevent up to N damage to ...`) and damage done (`put N damage counters on ...`).

use super::*;

/// The prevention grammar: `Prevent up to N damage to THIS`, `Whenever
/// THIS would be damaged, prevent N of that damage`.
pub(super) fn prevention(
    printed: &str,
    core: &str,
    cost: Option<Cost>,
    situation: Option<Situation>,
    referent: Option<&Recipient>,
    who: &Who,
) -> Option<ReadAbility> {
    let l = core.to_ascii_lowercase();
    let effect = l.trim_end_matches('.').trim();
    // "prevent all but N of that damage": a cap on the damage taken, which
    // the engine does not model.
    if effect.starts_with("prevent all but ") && effect.contains(" of that damage") {
        let mut a = ReadAbility::unmodelled(printed, "a cap on damage taken (prevent all but N)");
        a.cost = cost;
        return Some(a);
    }
    let evade = |n: u32, x: bool, own: Option<Descriptor>| {
        let ab = Ability {
            keyword: Keyword::Evade(n),
            cost: cost.clone(),
            x,
        };
        let mut a = keyword(printed, ab, cost.clone());
        let mut sit = situation.clone();
        if let Some(d) = own {
            sit = add_situation(sit, Situation::Own { this: d });
        }
        if let Some(c) = &cost
            && !c.force_only()
            && !c.text.to_ascii_lowercase().starts_with("pay 0")
        {
            sit = add_situation(
                sit,
                Situation::Other {
                    text: format!("its cost is paid: {}", c.text),
                },
            );
        }
        if sit.is_some() {
            a.class = Class::Condition;
            a.decidable = sit.as_ref().map(Situation::decidable);
            a.situation = sit;
        }
        a
    };
    let effect = effect.strip_prefix("you may ").unwrap_or(effect);
    for p in ["prevent up to ", "prevent "] {
        if let Some(r) = effect.strip_prefix(p)
            && let Some((n, rest)) = r.split_once(' ')
            && let Some(target) = rest
                .strip_prefix("damage to ")
                .or_else(|| rest.strip_prefix("damage done to "))
        {
            let x = n == "x" && cost.as_ref().is_some_and(|c| c.x);
            let amount = match n {
                "all" => crate::unit::MAX_VALUE,
                _ if x => 0,
                _ => n.parse::<u32>().ok()?,
            };
            if target == "this" || target == "itself" {
                return Some(evade(amount, x, None));
            }
            if target.starts_with("one of your other")
                || target.starts_with("your other")
                || target.starts_with("another")
            {
                return Some(ReadAbility::not_attack(
                    printed,
                    "prevents damage to other units only",
                ));
            }
            if target.starts_with("that ") || target.starts_with("the chosen") {
                return match referent {
                    Some(Recipient::Elsewhere) => Some(ReadAbility::not_attack(
                        printed,
                        "prevents damage to other units only",
                    )),
                    _ => None,
                };
            }
            // "Prevent all damage done to units in the Character arena this
            // turn": both units of an attack there.
            if let Some(r) = target.strip_prefix("units in the ")
                && let Some(arena) = r.split(" arena").next().map(str::trim)
                && ["space", "ground", "character"].contains(&arena)
            {
                let mut a = evade(amount, x, None);
                a.subject = Some(Subject::Both);
                a.class = Class::Condition;
                a.situation = add_situation(
                    a.situation.take(),
                    Situation::InArena {
                        arena: title(arena),
                    },
                );
                if !cost.as_ref().is_some_and(|c| c.force_only()) {
                    a.situation = add_situation(
                        a.situation.take(),
                        Situation::Other {
                            text: "its cost is paid".into(),
                        },
                    );
                }
                a.decidable = a.situation.as_ref().map(Situation::decidable);
                return Some(a);
            }
            for pre in ["one of your ", "any one ", "a ", "an ", "each of your "] {
                if let Some(d) = target.strip_prefix(pre) {
                    let orig_at = l.find(d).map(|i| &core[i..]).unwrap_or(d);
                    let orig_at = orig_at.trim_end_matches('.');
                    let desc = read_descriptor(orig_at.split(" in ").next().unwrap_or(orig_at))?;
                    if !who.could_be(&desc) {
                        return Some(ReadAbility::not_attack(
                            printed,
                            "prevents damage to other units only",
                        ));
                    }
                    return Some(evade(amount, x, Some(desc)));
                }
            }
            // A name of another unit (capitalised in the card's text).
            let orig_target = &core[core.len() - core.trim_end_matches('.').len()
                + (l.len() - l.trim_end_matches('.').len())..];
            let _ = orig_target;
            let at = l.find(target).unwrap_or(0);
            if core[at..].chars().next().is_some_and(char::is_uppercase) && !target.contains("this")
            {
                return Some(ReadAbility::not_attack(
                    printed,
                    "prevents damage to another, named unit",
                ));
            }
            return None;
        }
    }
    // After "whenever X would be damaged": "prevent N of that damage [if ...]".
    if let Some(r) = effect.strip_prefix("prevent ") {
        let (amount, cond) = match r.split_once(" of that damage") {
            Some((n, c)) => (n, c.trim()),
            None if r == "that damage" => ("all", ""),
            None => return None,
        };
        if matches!(
            referent,
            Some(Recipient::Own { other: true, .. })
                | Some(Recipient::OneOfYours { other: true, .. })
                | Some(Recipient::Elsewhere)
        ) {
            return Some(ReadAbility::not_attack(
                printed,
                "prevents damage to other units only",
            ));
        }
        if amount.starts_with("all but") {
            return None;
        }
        let n = if amount == "all" {
            crate::unit::MAX_VALUE
        } else {
            amount.parse::<u32>().ok()?
        };
        let extra = if cond.is_empty() {
            None
        } else {
            Some(Situation::Other {
                text: cond.to_string(),
            })
        };
        let mut a = match referent {
            Some(Recipient::This) | None => evade(n, false, None),
            Some(Recipient::Own {
                which: Some(d),
                other: false,
            })
            | Some(Recipient::OneOfYours {
                which: Some(d),
                other: false,
            }) => evade(n, false, Some(d.clone())),
            Some(Recipient::Own { other: true, .. })
            | Some(Recipient::OneOfYours { other: true, .. })
            | Some(Recipient::Elsewhere) => {
                return Some(ReadAbility::not_attack(
                    printed,
                    "prevents damage to other units only",
                ));
            }
            _ => return None,
        };
        if let Some(x) = extra {
            a.class = Class::Condition;
            a.situation = add_situation(a.situation.take(), x);
            a.decidable = a.situation.as_ref().map(Situation::decidable);
        }
        return Some(a);
    }
    None
}
