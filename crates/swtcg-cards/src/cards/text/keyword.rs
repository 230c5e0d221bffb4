//! Keywords: a keyword as the keyword table reads it, a keyword in words, costs, `Switch:`.

use super::*;

/// Reads a cost ([`Cost::read`]); one too large to read is kept as
/// written, as a cost in something else than Force (so never free).
pub fn read_cost(text: &str) -> Cost {
    Cost::read(text).unwrap_or_else(|_| Cost {
        text: text.trim().to_string(),
        force: None,
        x: false,
    })
}

pub(super) fn keyword(printed: &str, ab: Ability, cost: Option<Cost>) -> ReadAbility {
    let mut a = ReadAbility::new(printed, Class::Keyword);
    // Stack lists are about building stacks, not attacks.
    if let Keyword::Stack(_) = ab.keyword {
        let mut n = ReadAbility::not_attack(printed, "Stack: which cards may be stacked");
        n.effects.push(Effect::Keyword {
            text: ab.to_string(),
            ability: ab,
        });
        return n;
    }
    a.subject = Some(Subject::This);
    a.when = Some(keyword_when(&ab.keyword));
    a.effects.push(Effect::Keyword {
        text: ab.to_string(),
        ability: ab,
    });
    a.cost = cost;
    a
}

/// Keywords written in plain words.
pub(super) fn worded_keyword(
    printed: &str,
    marked: &str,
    cost: Option<Cost>,
) -> Option<ReadAbility> {
    let l = marked.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    let kw = |k: Keyword| {
        Some(keyword(
            printed,
            Ability {
                keyword: k,
                cost: None,
                x: false,
            },
            cost.clone(),
        ))
    };
    if cost.is_none()
        && (l == "damage from this can't be prevented"
            || l == "damage from this's attack can't be prevented"
            || l == "damage from this unit's attack can't be prevented")
    {
        return kw(Keyword::Ferocity);
    }
    for (pre, sign) in [("add ", 1), ("subtract ", -1)] {
        if let Some(r) = l.strip_prefix(pre)
            && let Some((n, rest)) = r.split_once(' ')
            && (rest == "to each of this's attack dice"
                || rest == "from each of this's attack dice")
            && let Ok(n) = n.trim_start_matches('+').parse::<i32>()
        {
            return kw(Keyword::Accuracy(sign * n));
        }
    }
    // "Treat THIS as a Dark Jedi" / "as if her name is Queen Amidala".
    if let Some(r) = l.strip_prefix("treat this as ") {
        let words = r
            .trim_start_matches("if her name is ")
            .trim_start_matches("if his name is ")
            .trim_start_matches("a ")
            .trim_start_matches("an ");
        let start = marked.len() - words.len();
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::TreatAs {
            words: marked[start..].trim_end_matches('.').to_string(),
        });
        return Some(a);
    }
    // Overload written out: "When THIS attacks, you may give it +3 power for
    // that attack. If you do, THIS does 2 damage to itself when the attack ends."
    if let Some(r) = l
        .strip_prefix("when this attacks, you may give it +")
        .or_else(|| l.strip_prefix("whenever this attacks, you may give it +"))
        && let Some((n, rest)) = r.split_once(" power")
        && let Ok(power) = n.parse::<u32>()
        && let Some(i) = rest.find("does ")
    {
        let after = &rest[i + 5..];
        if let Some((m, tail)) = after.split_once(' ') {
            let dice = tail.starts_with("dice of damage");
            if let Ok(self_damage) = m.parse::<u32>()
                && (tail.starts_with("damage to") || dice)
                && (tail.contains("itself") || tail.contains("to this"))
            {
                let mut a = ReadAbility::new(printed, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(When::Attacking);
                a.effects.push(Effect::Overload {
                    power,
                    self_damage,
                    dice,
                });
                a.cost = cost;
                return Some(a);
            }
        }
    }
    // "Whenever THIS attacks, you may roll only half of the attack dice
    // (rounded up) instead. If you do, gain 3 Force."
    if (l.starts_with("whenever this attacks, you may roll only half of the attack dice")
        || l.starts_with("when this attacks, you may roll only half of the attack dice"))
        && let Some(i) = l.find("gain ")
        && let Some(n) = l[i + 5..]
            .split(' ')
            .next()
            .and_then(|n| n.parse::<u32>().ok())
        && l[i + 5..].contains("force")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Attacking);
        a.effects.push(Effect::HalfDice { force: n });
        return Some(a);
    }
    // "Whenever THIS attacks and does no damage, put 1 damage counter on
    // THIS": counters it must put on itself, which the engine does not
    // model (the optional kind below is Consolation).
    for lead in [
        "whenever this attacks and does no damage, put ",
        "whenever this attacks but does no damage, put ",
    ] {
        if l.starts_with(lead) && l.ends_with(" on this") {
            return Some(ReadAbility::unmodelled(
                printed,
                "damage counters on itself when its attack does no damage",
            ));
        }
    }
    // "Whenever THIS attacks but does no damage, you may put 1 damage counter
    // on THIS. If you do, put 2 damage counters on the defending unit."
    if let Some(r) = l.strip_prefix("whenever this attacks but does no damage, you may put ")
        && let Some((own, rest)) = r.split_once(" damage counter")
        && let Ok(own) = own.parse::<u32>()
        && let Some(i) = rest.find("if you do, put ")
        && let Some((d, tail)) = rest[i + 15..].split_once(" damage counter")
        && let Ok(defender) = d.parse::<u32>()
        && tail.contains("on the defending unit")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Attacking);
        a.effects.push(Effect::Consolation { own, defender });
        return Some(a);
    }
    // "Roll THIS's attack dice secretly": Cunning.
    if l.starts_with("roll this's attack dice secretly") {
        let ab = Ability {
            keyword: Keyword::Cunning,
            cost: None,
            x: false,
        };
        return Some(keyword(printed, ab, None));
    }
    // "When THIS attacks, predict the number of hits you'll roll": Foresight.
    if (l.starts_with("when this attacks, predict the number of hits")
        || l.starts_with("whenever this attacks, predict the number of hits"))
        && let Some(i) = l.find("if you're correct, ")
    {
        let effect = marked[i + "if you're correct, ".len()..]
            .trim_end_matches('.')
            .to_string();
        return kw(Keyword::Foresight(effect));
    }
    // "When your opponent rolls one or more dice in an attack on THIS, you
    // may reroll any of those dice": Lucky on every die.
    if l.starts_with("when your opponent rolls")
        && l.contains("attack on this")
        && l.contains("reroll any")
    {
        return kw(Keyword::Lucky(crate::unit::MAX_EXTRA_DICE));
    }
    None
}

/// `Switch: a/b(/c)`: each arena of the type line gets its effects.
pub(super) fn switch(printed: &str, rest: &str) -> ReadAbility {
    let mut a = ReadAbility::new(printed, Class::Condition);
    a.subject = Some(Subject::This);
    a.when = Some(When::Any);
    a.decidable = Some(true);
    for (i, mode) in rest.split('/').enumerate() {
        let mode = mode.trim();
        match read_grants(mode) {
            Ok(e) => a.switch.push((format!("{}", i + 1), e)),
            Err(why) => {
                if mode.eq_ignore_ascii_case("none") {
                    a.switch.push((format!("{}", i + 1), Vec::new()));
                    continue;
                }
                return ReadAbility::not_understood(printed, &why);
            }
        }
    }
    a.situation = Some(Situation::Other {
        text: "the arena of the attack (Switch)".into(),
    });
    a
}
