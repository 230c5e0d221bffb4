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

/// Damage in words: `This unit does 1 additional damage for this attack`
/// (extra attack damage), `Damage from THIS can only be prevented by a Jedi
/// or Sith` (Ferocity against the others).
pub(super) fn damage_clause(
    printed: &str,
    clause: &str,
    cost: Option<Cost>,
    situation: Option<Situation>,
    referent: Option<&Recipient>,
    attacking: bool,
    who: &Who,
) -> Option<ReadAbility> {
    let l = clause.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    let make = |class: Class,
                subject: Subject,
                when: When,
                effects: Vec<Effect>,
                sit: Option<Situation>| {
        let mut a = ReadAbility::new(printed, class);
        a.subject = Some(subject);
        a.when = Some(when);
        a.effects = effects;
        a.decidable = sit.as_ref().map(Situation::decidable);
        a.situation = sit;
        a.cost = cost.clone();
        if a.class == Class::Keyword && a.situation.is_some() {
            a.class = Class::Condition;
        }
        a
    };
    // "Each activated ability of your opponent's units costs 1 more Force to
    // play": the Force its paid abilities cost.
    if l.contains("activated abilit")
        && let Some(i) = l.rfind(" cost")
    {
        let after = l[i..]
            .trim_start_matches(" costs")
            .trim_start_matches(" cost")
            .trim();
        let mut w = after.split_whitespace();
        if let (Some(n), Some(dir), Some(force)) = (w.next(), w.next(), w.next())
            && force.starts_with("force")
            && let Ok(n) = n.parse::<i32>()
        {
            let n = match dir {
                "more" | "additional" => n,
                "less" | "fewer" => -n,
                _ => return None,
            };
            let head = &l[..i];
            let subject = if head.contains("opponent") {
                Subject::Opponent
            } else if head.contains("this") {
                Subject::This
            } else {
                return None;
            };
            return Some(make(
                Class::Keyword,
                subject,
                When::Any,
                vec![Effect::CostChange { n }],
                situation,
            ));
        }
    }
    // "Put 3 damage counters on any Character unit" before the unit's attack.
    if let Some(r) = l.strip_prefix("put ")
        && let Some((n, target)) = r
            .split_once(" damage counters on ")
            .or_else(|| r.split_once(" damage counter on "))
        && let Ok(n) = n.parse::<u32>()
    {
        let orig = &clause[clause.len() - target.len()..].trim_end_matches('.');
        // "the defending unit": the unit this one attacks, in its attack.
        let defending = target.trim_end_matches('.') == "the defending unit";
        let attacking = attacking || defending;
        let d = match (target, referent) {
            _ if defending => Descriptor {
                any_of: vec![vec![Term::Unit]],
            },
            ("it" | "that unit", Some(Recipient::Chosen(Some(d)))) => d.clone(),
            _ => ["any ", "a ", "an ", "one of your opponent's "]
                .iter()
                .find_map(|p| {
                    target
                        .strip_prefix(p)
                        .map(|x| &orig[orig.len() - x.len()..])
                })
                .and_then(|x| read_descriptor(x.split(" in ").next().unwrap_or(x)))?,
        };
        let mut sit = add_situation(situation, Situation::Opponent { opponent: d });
        let when = if attacking {
            When::Attacking
        } else {
            When::Any
        };
        if !attacking {
            sit = add_situation(
                sit,
                Situation::Other {
                    text: "played when the player chooses".into(),
                },
            );
        }
        if !cost.as_ref().is_some_and(|c| c.force_only()) {
            sit = add_situation(
                sit,
                Situation::Other {
                    text: "its cost is paid".into(),
                },
            );
        }
        return Some(make(
            Class::Condition,
            Subject::Opponent,
            when,
            vec![Effect::Counters { n: n as i32 }],
            sit,
        ));
    }
    // "Remove 2 damage counters from one of your Transports" where this
    // unit is no Transport: other units only.
    if let Some(r) = l.strip_prefix("remove ")
        && let Some((_, target)) = r
            .split_once(" damage counters from ")
            .or_else(|| r.split_once(" damage counter from "))
        && let Some(d) = target
            .strip_prefix("one of your ")
            .or_else(|| target.strip_prefix("a "))
    {
        let orig = &clause[clause.len() - d.len()..];
        let orig = orig.split(" and put").next().unwrap_or(orig);
        if let Some(desc) = read_descriptor(orig.split(" in ").next().unwrap_or(orig))
            && !who.could_be(&desc)
        {
            return Some(ReadAbility::not_attack(
                printed,
                "removes counters from other units only",
            ));
        }
    }
    // "Remove 2 damage counters from THIS": read as used before the attack.
    if let Some(r) = l.strip_prefix("remove ")
        && let Some((n, target)) = r
            .split_once(" damage counters from ")
            .or_else(|| r.split_once(" damage counter from "))
        && target == "this"
        && situation.is_none()
        && let Ok(n) = n.trim_start_matches("up to ").parse::<i32>()
    {
        let sit = add_situation(
            situation,
            Situation::Other {
                text: "used before the attack".into(),
            },
        );
        return Some(make(
            Class::Condition,
            Subject::This,
            When::Any,
            vec![Effect::Counters { n: -n }],
            sit,
        ));
    }
    // "THIS may tap and attack it with +5 power" (it: a unit chosen before).
    for p in [
        "this may tap and attack it with ",
        "this may attack it with ",
        "this attacks it with ",
    ] {
        if let Some(r) = l.strip_prefix(p)
            && let Some(n) = r.strip_suffix(" power")
            && let Ok(n) = n.trim_start_matches('+').parse::<i32>()
        {
            let d = match referent {
                Some(Recipient::Chosen(Some(d))) => d.clone(),
                _ => return None,
            };
            let sit = add_situation(situation, Situation::Attacking { defender: d });
            return Some(make(
                Class::Condition,
                Subject::This,
                When::Attacking,
                vec![Effect::Power { n }],
                sit,
            ));
        }
    }
    // "Disrupt an attack [from a unit that is not a Jedi or a Sith]".
    if let Some(r) = l.strip_prefix("disrupt an attack") {
        let r = r.trim();
        let mut sit = situation;
        if let Some(from) = r.strip_prefix("from ") {
            let from = from
                .trim_start_matches("a unit that is not ")
                .trim_start_matches("a unit that isn't ");
            if from.len() == r.len() - 5 {
                return None;
            }
            let orig = &clause[clause.len() - from.len()..].trim_end_matches('.');
            let d = read_descriptor(orig)?;
            let not = negated(&d)?;
            sit = add_situation(
                sit,
                Situation::AttackedBy {
                    attacker: Descriptor { any_of: vec![not] },
                },
            );
        } else if !r.is_empty() && r != "on this" {
            return None;
        }
        return Some(make(
            Class::Keyword,
            Subject::This,
            When::Defending,
            vec![Effect::CancelAttack],
            sit,
        ));
    }
    // "THIS does X damage to the defending unit" (X given by the user).
    if let Some(r) = l.strip_prefix("this does x damage to the defending unit") {
        let _ = r;
        let mut a = make(
            Class::Condition,
            Subject::This,
            When::Attacking,
            vec![Effect::ExtraDamageX],
            situation,
        );
        a.x = Some(XSource::User);
        a.situation = add_situation(
            a.situation.take(),
            Situation::Other {
                text: "X is given by the user (=N)".into(),
            },
        );
        a.decidable = Some(false);
        return Some(a);
    }
    // "Whenever a unit attacks THIS, prevent all damage the attacking unit would do".
    if l == "prevent all damage the attacking unit would do"
        || l == "prevent all damage that unit would do"
    {
        let ab = Ability {
            keyword: Keyword::Evade(crate::unit::MAX_VALUE),
            cost: None,
            x: false,
        };
        return Some(make(
            Class::Keyword,
            Subject::This,
            When::Defending,
            vec![Effect::Keyword {
                text: ab.to_string(),
                ability: ab,
            }],
            situation,
        ));
    }
    // "Prevent that damage unless your opponent pays 2 Force" (after "when
    // one of your opponent's X would damage THIS").
    if let Some(r) = l.strip_prefix("prevent that damage unless your opponent pays ")
        && let Some(n) = r.strip_suffix(" force")
        && let Ok(force) = n.parse::<u32>()
    {
        let from = match referent {
            Some(Recipient::Opponent(d)) => d.clone().unwrap_or(Descriptor {
                any_of: vec![vec![Term::Unit]],
            }),
            _ => return None,
        };
        let mut a = make(
            Class::Keyword,
            Subject::This,
            When::Any,
            vec![Effect::Toll { force }],
            situation,
        );
        a.situation = add_situation(a.situation.take(), Situation::Opponent { opponent: from });
        a.class = Class::Condition;
        a.decidable = a.situation.as_ref().map(Situation::decidable);
        return Some(a);
    }
    for p in ["this does ", "it does ", "he does ", "she does "] {
        if let Some(r) = l.strip_prefix(p) {
            let (n, rest) = r.split_once(' ')?;
            if rest == "additional damage for this attack"
                || rest == "more damage for this attack"
                || rest == "more damage"
            {
                let n: u32 = n.parse().ok()?;
                let mut a = ReadAbility::new(
                    printed,
                    if situation.is_some() {
                        Class::Condition
                    } else {
                        Class::Keyword
                    },
                );
                a.subject = Some(Subject::This);
                a.when = Some(When::Attacking);
                a.effects.push(Effect::ExtraDamage { n });
                a.decidable = situation.as_ref().map(Situation::decidable);
                a.situation = situation;
                a.cost = cost;
                return Some(a);
            }
        }
    }
    if let Some(r) = l.strip_prefix("damage from this can only be prevented by ") {
        let orig = &clause[clause.len() - r.len()..];
        let d = read_descriptor(orig.trim_end_matches('.'))?;
        // Unpreventable unless the damaged unit is one of those.
        let not = negated(&d)?;
        let mut a = ReadAbility::new(printed, Class::Condition);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::Keyword {
            text: "Ferocity".into(),
            ability: Ability {
                keyword: Keyword::Ferocity,
                cost: None,
                x: false,
            },
        });
        a.situation = add_situation(
            situation,
            Situation::Opponent {
                opponent: Descriptor { any_of: vec![not] },
            },
        );
        a.decidable = a.situation.as_ref().map(Situation::decidable);
        return Some(a);
    }
    None
}
