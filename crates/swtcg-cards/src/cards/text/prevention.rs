//! The `prevention` clause rule: `Prevent up to N damage to THIS`,
//! `Whenever THIS would be damaged, prevent N of that damage`, damage to
//! units of an arena, to one of your units, or to other units only.

use super::{
    Ability, Arena, Class, Clause, Descriptor, Draft, Keyword, Recipient, Situation, Subject,
    add_situation, keyword, outside_reason, quote_short, read_descriptor, without_duration,
};

/// What the prevention patterns add to a clause.
impl Clause<'_> {
    /// Evade `n` (X: the Force paid) for this unit, or for `own` among
    /// the controller's units; a cost other than Force is a choice the
    /// user switches on.
    fn evade(&self, n: u32, x: bool, own: Option<Descriptor>) -> Draft {
        let ab = Ability {
            keyword: Keyword::Evade(n),
            cost: self.cost.clone(),
            x,
        };
        let mut a = keyword(self.printed, ab, self.cost.clone());
        let mut sit = self.situation.clone();
        if let Some(d) = own {
            sit = add_situation(sit, Situation::Own { this: d });
        }
        if let Some(c) = &self.cost
            && !c.force_only()
            && !c.text.to_ascii_lowercase().starts_with("pay 0")
        {
            let paid = Situation::Other {
                text: format!("its cost is paid: {}", c.text),
            };
            sit = add_situation(sit, paid);
        }
        if sit.is_some() {
            a.class = Class::Condition;
            a.decidable = sit.as_ref().map(Situation::decidable);
            a.situation = sit;
        }
        a
    }

    fn others_only(&self, why: &str) -> Option<Draft> {
        Some(Draft::not_attack(self.printed, why))
    }
}

/// The prevention grammar: `Prevent up to N damage to THIS`, `Whenever
/// THIS would be damaged, prevent N of that damage`.
pub(super) fn prevention(p: &Clause) -> Option<Draft> {
    let printed = p.printed;
    // A retreat after the prevention (`Prevent all damage to THIS and
    // retreat her`): the unit leaves once the damage is prevented, which
    // changes nothing of the attack's damage; noted.
    let mut rider = None;
    let mut effect = p.l.trim();
    for r in [
        " and retreat her",
        " and retreat him",
        " and retreat it",
        " and retreat this",
        " and retreat that unit",
    ] {
        if let Some(e) = effect.strip_suffix(r) {
            effect = e;
            rider = Some(format!("then{}", &r[4..]));
        }
    }
    let (effect, _) = without_duration(effect);
    let mut a = prevention_of(p, effect)?;
    if let Some(r) = rider
        && matches!(a.class, Class::Keyword | Class::Condition)
    {
        a.note = Some(format!("'{r}': after the damage is prevented"));
    }
    let _ = printed;
    Some(a)
}

fn prevention_of(p: &Clause, effect: &str) -> Option<Draft> {
    let printed = p.printed;
    // "prevent all but N of that damage": a cap on the damage taken, which
    // the engine does not model.
    if effect.starts_with("prevent all but ") && effect.contains(" of that damage") {
        let mut a = Draft::unmodelled(printed, "a cap on damage taken (prevent all but N)");
        a.cost = p.cost.clone();
        return Some(a);
    }
    let effect = effect.strip_prefix("you may ").unwrap_or(effect);
    if let Some(a) = immune_to(p, effect) {
        return Some(a);
    }
    for pre in ["prevent up to ", "prevent "] {
        if let Some(r) = effect.strip_prefix(pre)
            && let Some((n, rest)) = r.split_once(' ')
            && let Some(target) = rest
                .strip_prefix("damage to ")
                .or_else(|| rest.strip_prefix("damage done to "))
        {
            let x = n == "x" && p.cost.as_ref().is_some_and(|c| c.x);
            let amount = match n {
                "all" => swtcg_engine::unit::MAX_VALUE,
                _ if x => 0,
                _ => n.parse::<u32>().ok()?,
            };
            return prevent_to(p, amount, x, target);
        }
    }
    // After "whenever X would be damaged": "prevent N of that damage [if ...]".
    let r = effect.strip_prefix("prevent ")?;
    prevent_that(p, r)
}

/// `prevent N damage to TARGET`.
fn prevent_to(p: &Clause, amount: u32, x: bool, target: &str) -> Option<Draft> {
    if target == "this" || target == "itself" {
        return Some(p.evade(amount, x, None));
    }
    if target.starts_with("one of your other")
        || target.starts_with("your other")
        || target.starts_with("another")
    {
        return p.others_only("prevents damage to other units only");
    }
    if target.starts_with("that ") || target.starts_with("the chosen") {
        return match p.damaged.as_ref() {
            Some(Recipient::Elsewhere) => p.others_only("prevents damage to other units only"),
            _ => None,
        };
    }
    if let Some(a) = prevent_in_arena(p, amount, x, target) {
        return Some(a);
    }
    for pre in [
        "one of your ",
        "any one ",
        "a ",
        "an ",
        "each of your ",
        "all of your ",
        "all your ",
        "your ",
    ] {
        if let Some(d) = target.strip_prefix(pre) {
            let orig_at = p.l.find(d).map(|i| &p.text[i..i + d.len()]).unwrap_or(d);
            let orig_at = orig_at.trim_end_matches('.');
            let desc = read_descriptor(orig_at.split(" in ").next().unwrap_or(orig_at))?;
            if !p.who.could_be(&desc) {
                return p.others_only("prevents damage to other units only");
            }
            return Some(p.evade(amount, x, Some(desc)));
        }
    }
    // A name of another unit (capitalised in the card's text).
    let at = p.l.find(target).unwrap_or(0);
    if p.text[at..].chars().next().is_some_and(char::is_uppercase) && !target.contains("this") {
        return p.others_only("prevents damage to another, named unit");
    }
    None
}

/// "Prevent all damage done to units in the Character arena this turn":
/// both units of an attack there.
fn prevent_in_arena(p: &Clause, amount: u32, x: bool, target: &str) -> Option<Draft> {
    let r = target.strip_prefix("units in the ")?;
    let arena = r.split(" arena").next().map(str::trim)?;
    if !["space", "ground", "character"].contains(&arena) {
        return None;
    }
    let mut a = p.evade(amount, x, None);
    a.subject = Some(Subject::Both);
    a.class = Class::Condition;
    let there = Situation::InArena {
        arena: Arena::from_word(arena)?,
    };
    a.situation = add_situation(a.situation.take(), there);
    if !p.cost.as_ref().is_some_and(|c| c.force_only()) {
        let paid = Situation::Other {
            text: "its cost is paid".into(),
        };
        a.situation = add_situation(a.situation.take(), paid);
    }
    a.decidable = a.situation.as_ref().map(Situation::decidable);
    Some(a)
}

/// `prevent N of that damage [if ...]`, `prevent that damage`, after
/// "whenever X would be damaged".
fn prevent_that(p: &Clause, r: &str) -> Option<Draft> {
    let (amount, cond) = match r.split_once(" of that damage") {
        Some((n, c)) => (n.strip_prefix("up to ").unwrap_or(n), c.trim()),
        None if r == "that damage" => ("all", ""),
        None => return None,
    };
    let others = matches!(
        p.damaged.as_ref(),
        Some(Recipient::Own { other: true, .. })
            | Some(Recipient::OneOfYours { other: true, .. })
            | Some(Recipient::Elsewhere)
    );
    if others {
        return p.others_only("prevents damage to other units only");
    }
    if amount.starts_with("all but") {
        return None;
    }
    let n = if amount == "all" {
        swtcg_engine::unit::MAX_VALUE
    } else {
        amount.parse::<u32>().ok()?
    };
    let mut a = match p.damaged.as_ref() {
        Some(Recipient::This) | None => p.evade(n, false, None),
        Some(Recipient::Own {
            which: Some(d),
            other: false,
        })
        | Some(Recipient::OneOfYours {
            which: Some(d),
            other: false,
        }) => p.evade(n, false, Some(d.clone())),
        _ => return None,
    };
    // `... and gain 1 Force`: a rider outside attacks, noted.
    if let Some(rider) = cond.strip_prefix("and ")
        && outside_reason(rider, false).is_some()
    {
        a.note = Some(format!("'{}': not part of an attack", quote_short(rider)));
        return Some(a);
    }
    if !cond.is_empty() {
        let extra = Situation::Other {
            text: cond.to_string(),
        };
        a.class = Class::Condition;
        a.situation = add_situation(a.situation.take(), extra);
        a.decidable = a.situation.as_ref().map(Situation::decidable);
    }
    Some(a)
}

/// "THIS can't be damaged by Droids", "Prevent all damage to THIS from
/// Droids": every damage to it from such a unit prevented.
fn immune_to(p: &Clause, effect: &str) -> Option<Draft> {
    let from = effect
        .strip_prefix("this can't be damaged by ")
        .or_else(|| effect.strip_prefix("prevent all damage to this from "))?;
    let orig = &p.text.trim().trim_end_matches('.')[effect.len() - from.len()..];
    let d = read_descriptor(orig)?;
    let mut a = p.evade(swtcg_engine::unit::MAX_VALUE, false, None);
    a.class = Class::Condition;
    a.situation = add_situation(a.situation.take(), Situation::Opponent { opponent: d });
    a.decidable = a.situation.as_ref().map(Situation::decidable);
    Some(a)
}
