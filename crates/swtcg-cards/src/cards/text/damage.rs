//! The `damage` clause rule: damage done and counters put (`put 2 damage
//! counters on the defending unit`, `THIS does 1 more damage`), attacks
//! cancelled or prevented (`Disrupt an attack`, `prevent that damage
//! unless your opponent pays 2 Force`), and what activated abilities cost.
//! Each pattern is a function; the first that recognises the clause gives
//! the answer (a reading, or none when the clause is of its kind but can't
//! be read).

use super::{
    Ability, Class, Clause, Descriptor, Draft, Effect, Keyword, KeywordKind, Recipient, Situation,
    Subject, When, XSource, add_situation, negated, read_descriptor, trailing_clause,
};

/// What a pattern says: `None` when the clause is not of its kind (the
/// next pattern is tried); `Some(answer)` when it is.
type Flow = Option<Option<Draft>>;

/// Damage in words: `This unit does 1 additional damage for this attack`
/// (extra attack damage), `Damage from THIS can only be prevented by a Jedi
/// or Sith` (Ferocity against the others), and the patterns below.
pub(super) fn damage_clause(d: &Clause) -> Option<Draft> {
    let patterns: [fn(&Clause) -> Flow; 14] = [
        cost_change,
        put_counters,
        remove_from_others,
        remove_from_this,
        attack_it_with,
        disrupt,
        does_x_damage,
        prevent_attackers_damage,
        toll,
        does_more_damage,
        only_prevented_by,
        not_prevented_by,
        cant_be_discarded,
        damage_when_chosen,
    ];
    patterns.iter().find_map(|p| p(d)).flatten()
}

/// "Each activated ability of your opponent's units costs 1 more Force to
/// play": the Force its paid abilities cost.
fn cost_change(d: &Clause) -> Flow {
    let l = d.l.as_str();
    let i = l
        .rfind(" cost")
        .filter(|_| l.contains("activated abilit"))?;
    let after = l[i..]
        .trim_start_matches(" costs")
        .trim_start_matches(" cost")
        .trim();
    let mut w = after.split_whitespace();
    let (n, dir, force) = (w.next()?, w.next()?, w.next()?);
    let n = n
        .parse::<i32>()
        .ok()
        .filter(|_| force.starts_with("force"))?;
    let n = match dir {
        "more" | "additional" => n,
        "less" | "fewer" => -n,
        _ => return Some(None),
    };
    let head = &l[..i];
    let subject = if head.contains("opponent") {
        Subject::Opponent
    } else if head.contains("this") {
        Subject::This
    } else {
        return Some(None);
    };
    let effects = vec![Effect::CostChange { n }];
    Some(Some(d.make(
        Class::Keyword,
        subject,
        When::Any,
        effects,
        d.situation.clone(),
    )))
}

/// "Put 3 damage counters on any Character unit" before the unit's attack;
/// "put 1 damage counter on the defending unit" in it.
fn put_counters(d: &Clause) -> Flow {
    let r = d.l.strip_prefix("put ")?;
    let (n, target) = r
        .split_once(" damage counters on ")
        .or_else(|| r.split_once(" damage counter on "))?;
    let n = n.parse::<u32>().ok()?;
    let orig = d.tail(target.len()).trim_end_matches('.');
    // "the defending unit": the unit this one attacks, in its attack; "the
    // attacking unit", "each unit attacking THIS": the unit attacking this
    // one, in that attack.
    let target = target.trim_end_matches('.');
    let defending = target == "the defending unit";
    let attacker = [
        "the attacking unit",
        "each unit attacking this",
        "the unit attacking this",
    ]
    .contains(&target);
    let attacking = d.attacking || defending;
    let desc = match (target, d.damaged.as_ref()) {
        _ if defending || attacker => Some(Descriptor::any_unit()),
        ("it" | "that unit", Some(Recipient::Chosen(Some(x)))) => Some(x.clone()),
        _ => ["any ", "a ", "an ", "one of your opponent's "]
            .iter()
            .find_map(|p| {
                target
                    .strip_prefix(p)
                    .map(|x| &orig[orig.len() - x.len()..])
            })
            .and_then(|x| read_descriptor(x.split(" in ").next().unwrap_or(x))),
    };
    let Some(desc) = desc else {
        return Some(None);
    };
    let mut sit = add_situation(d.situation.clone(), Situation::Opponent { opponent: desc });
    let when = match (attacking, attacker) {
        (true, _) => When::Attacking,
        (_, true) => When::Defending,
        _ => When::Any,
    };
    if !attacking && !attacker {
        let chosen = Situation::Other {
            text: "played when the player chooses".into(),
        };
        sit = add_situation(sit, chosen);
    }
    if !d.cost.as_ref().is_some_and(|c| c.force_only()) {
        let paid = Situation::Other {
            text: "its cost is paid".into(),
        };
        sit = add_situation(sit, paid);
    }
    let effects = vec![Effect::Counters { n: n as i32 }];
    Some(Some(d.make(
        Class::Condition,
        Subject::Opponent,
        when,
        effects,
        sit,
    )))
}

/// "Remove 2 damage counters from one of your Transports" where this unit
/// is no Transport: other units only.
fn remove_from_others(d: &Clause) -> Flow {
    let r = d.l.strip_prefix("remove ")?;
    let (_, target) = r
        .split_once(" damage counters from ")
        .or_else(|| r.split_once(" damage counter from "))?;
    let which = target
        .strip_prefix("one of your ")
        .or_else(|| target.strip_prefix("a "))?;
    let orig = d.tail(which.len());
    let orig = orig.split(" and put").next().unwrap_or(orig);
    let desc = read_descriptor(orig.split(" in ").next().unwrap_or(orig))?;
    (!d.who.could_be(&desc)).then(|| {
        Some(Draft::not_attack(
            d.printed,
            "removes counters from other units only",
        ))
    })
}

/// "Remove 2 damage counters from THIS": read as used before the attack.
fn remove_from_this(d: &Clause) -> Flow {
    let r = d.l.strip_prefix("remove ")?;
    let (n, target) = r
        .split_once(" damage counters from ")
        .or_else(|| r.split_once(" damage counter from "))?;
    if target != "this" || d.situation.is_some() {
        return None;
    }
    let n = n.trim_start_matches("up to ").parse::<i32>().ok()?;
    let before = Situation::Other {
        text: "used before the attack".into(),
    };
    let sit = add_situation(d.situation.clone(), before);
    let effects = vec![Effect::Counters { n: -n }];
    Some(Some(d.make(
        Class::Condition,
        Subject::This,
        When::Any,
        effects,
        sit,
    )))
}

/// "THIS may tap and attack it with +5 power" (it: a unit chosen before).
fn attack_it_with(d: &Clause) -> Flow {
    let n = [
        "this may tap and attack it with ",
        "this may attack it with ",
        "this attacks it with ",
    ]
    .iter()
    .find_map(|p| {
        let n = d.l.strip_prefix(p)?.strip_suffix(" power")?;
        n.trim_start_matches('+').parse::<i32>().ok()
    })?;
    let Some(Recipient::Chosen(Some(target))) = d.damaged.as_ref() else {
        return Some(None);
    };
    let sit = add_situation(
        d.situation.clone(),
        Situation::Attacking {
            defender: target.clone(),
        },
    );
    let effects = vec![Effect::Power { n }];
    Some(Some(d.make(
        Class::Condition,
        Subject::This,
        When::Attacking,
        effects,
        sit,
    )))
}

/// "Disrupt an attack [from a unit that is not a Jedi or a Sith]".
fn disrupt(d: &Clause) -> Flow {
    // "If you do, the attack is cancelled" (after "When THIS is attacked"):
    // the same, in words.
    let cancelled = [
        "the attack is cancelled",
        "the attack is canceled",
        "that attack is cancelled",
        "that attack is canceled",
        "cancel the attack",
        "cancel that attack",
        "the attack ends",
        "that attack ends",
    ];
    let r = if cancelled.contains(&d.l.as_str()) {
        ""
    } else {
        d.l.strip_prefix("disrupt an attack")?.trim()
    };
    // After `Whenever THIS attacks`, the attack that ends is this unit's
    // own: the opponent's option, which the engine does not model (the
    // defender's cancel is).
    if d.attacking || d.own_attack {
        return Some(None);
    }
    let mut sit = d.situation.clone();
    if let Some(from) = r.strip_prefix("from ") {
        let from = from
            .trim_start_matches("a unit that is not ")
            .trim_start_matches("a unit that isn't ");
        if from.len() == r.len() - 5 {
            return Some(None);
        }
        let orig = d.tail(from.len()).trim_end_matches('.');
        let Some(not) = read_descriptor(orig).and_then(|x| negated(&x)) else {
            return Some(None);
        };
        let from = Situation::AttackedBy {
            attacker: Descriptor { any_of: vec![not] },
        };
        sit = add_situation(sit, from);
    } else if !r.is_empty() && r != "on this" {
        return Some(None);
    }
    let effects = vec![Effect::CancelAttack];
    Some(Some(d.make(
        Class::Keyword,
        Subject::This,
        When::Defending,
        effects,
        sit,
    )))
}

/// "THIS does X damage to the defending unit" (X given by the user).
fn does_x_damage(d: &Clause) -> Flow {
    d.l.strip_prefix("this does x damage to the defending unit")?;
    let effects = vec![Effect::ExtraDamageX];
    let mut a = d.make(
        Class::Condition,
        Subject::This,
        When::Attacking,
        effects,
        d.situation.clone(),
    );
    a.x = Some(XSource::USER);
    let user = Situation::Other {
        text: "X is given by the user (=N)".into(),
    };
    a.situation = add_situation(a.situation.take(), user);
    a.decidable = Some(false);
    Some(Some(a))
}

/// "Whenever a unit attacks THIS, prevent all damage the attacking unit
/// would do".
fn prevent_attackers_damage(d: &Clause) -> Flow {
    if d.l != "prevent all damage the attacking unit would do"
        && d.l != "prevent all damage that unit would do"
    {
        return None;
    }
    let ab = Ability {
        keyword: Keyword::Evade(swtcg_engine::unit::MAX_VALUE),
        cost: None,
        x: false,
    };
    let effects = vec![Effect::Keyword {
        text: ab.to_string(),
        ability: ab,
    }];
    Some(Some(d.make(
        Class::Keyword,
        Subject::This,
        When::Defending,
        effects,
        d.situation.clone(),
    )))
}

/// "Prevent that damage unless your opponent pays 2 Force" (after "when
/// one of your opponent's X would damage THIS").
fn toll(d: &Clause) -> Flow {
    let r =
        d.l.strip_prefix("prevent that damage unless your opponent pays ")?;
    let force = r.strip_suffix(" force")?.parse::<u32>().ok()?;
    let Some(Recipient::Opponent(from)) = d.damaged.as_ref() else {
        return Some(None);
    };
    let from = from.clone().unwrap_or(Descriptor::any_unit());
    let effects = vec![Effect::Toll { force }];
    let mut a = d.make(
        Class::Keyword,
        Subject::This,
        When::Any,
        effects,
        d.situation.clone(),
    );
    a.situation = add_situation(a.situation.take(), Situation::Opponent { opponent: from });
    a.class = Class::Condition;
    a.decidable = a.situation.as_ref().map(Situation::decidable);
    Some(Some(a))
}

/// "THIS does 1 additional damage for this attack".
fn does_more_damage(d: &Clause) -> Flow {
    let r = [
        "this does ",
        "it does ",
        "he does ",
        "she does ",
        "this deals ",
        "this's attacks do ",
    ]
    .iter()
    .find_map(|p| d.l.strip_prefix(p))?;
    let Some((n, rest)) = r.split_once(' ') else {
        return Some(None);
    };
    // A trailing situation ("while attacking a Droid", "as long as ...").
    let (rest, trailing) = match ["while ", "as long as ", "when "]
        .iter()
        .find_map(|w| rest.find(&format!(" {w}")).map(|at| (at, w.len())))
    {
        Some((at, len)) => {
            let words = d.tail(rest.len() - at - 1 - len);
            (
                &rest[..at],
                Some(trailing_clause(words, &words.to_ascii_lowercase())),
            )
        }
        None => (rest, None),
    };
    if ![
        "additional damage for this attack",
        "more damage for this attack",
        "more damage",
        "additional damage",
    ]
    .contains(&rest)
    {
        return None;
    }
    let Ok(n) = n.parse::<u32>() else {
        return Some(None);
    };
    let mut situation = d.situation.clone();
    if let Some((s, _)) = trailing {
        situation = add_situation(situation, s);
    }
    let class = if situation.is_some() {
        Class::Condition
    } else {
        Class::Keyword
    };
    let mut a = Draft::new(d.printed, class);
    a.subject = Some(Subject::This);
    a.when = Some(When::Attacking);
    a.effects.push(Effect::ExtraDamage { n });
    a.decidable = situation.as_ref().map(Situation::decidable);
    a.situation = situation;
    a.cost = d.cost.clone();
    Some(Some(a))
}

/// "Damage from THIS can only be prevented by a Jedi or Sith": Ferocity,
/// unless the damaged unit is one of those.
fn only_prevented_by(d: &Clause) -> Flow {
    let r =
        d.l.strip_prefix("damage from this can only be prevented by ")?;
    let orig = d.tail(r.len()).trim_end_matches('.');
    let Some(not) = read_descriptor(orig).and_then(|x| negated(&x)) else {
        return Some(None);
    };
    let mut a = Draft::new(d.printed, Class::Condition);
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
    let from = Situation::Opponent {
        opponent: Descriptor { any_of: vec![not] },
    };
    a.situation = add_situation(d.situation.clone(), from);
    a.decidable = a.situation.as_ref().map(Situation::decidable);
    Some(Some(a))
}

/// "Damage from THIS can't be prevented by Evade (or Shields)": in every
/// attack with this unit, the opposing unit loses those keywords (all the
/// damage it takes there is from this unit).
fn not_prevented_by(d: &Clause) -> Flow {
    let r =
        d.l.strip_prefix("damage from this can't be prevented by ")?;
    let kinds: Option<Vec<KeywordKind>> = r
        .split(" or ")
        .flat_map(|k| k.split(", "))
        .map(|k| KeywordKind::from_name(k.trim()))
        .collect();
    let Some(kinds) = kinds else {
        return Some(None);
    };
    let effects = kinds
        .into_iter()
        .map(|keyword| Effect::Lose { keyword })
        .collect();
    let class = if d.situation.is_some() {
        Class::Condition
    } else {
        Class::Keyword
    };
    Some(Some(d.make(
        class,
        Subject::Opponent,
        When::Any,
        effects,
        d.situation.clone(),
    )))
}

/// "Pay 4 Force -> THIS does 3 dice of damage to a Jedi in the Character
/// arena": damage to another unit, played when the player chooses (not in
/// an attack, at no time outside attacks). Understood, and not modelled: it
/// may be prevented, and dice of damage are rolled, before the attack the
/// odds are for. (At a time outside attacks it is not-attack, as counters
/// put then are.)
fn damage_when_chosen(d: &Clause) -> Flow {
    if d.outside || d.attacking || d.situation.is_some() {
        return None;
    }
    let r = ["this does ", "it does ", "he does ", "she does "]
        .iter()
        .find_map(|p| d.l.strip_prefix(p))?;
    let (n, rest) = r.split_once(' ')?;
    let target = rest
        .strip_prefix("dice of damage to ")
        .or_else(|| rest.strip_prefix("damage to "))?;
    let to_itself = ["itself", "this", "the defending unit", "the attacking unit"]
        .iter()
        .any(|t| target.starts_with(t));
    (!to_itself && (n.parse::<u32>().is_ok() || n == "x")).then(|| {
        Some(Draft::unmodelled(
            d.printed,
            "damage to another unit outside an attack (preventable, before the attack)",
        ))
    })
}

/// "THIS can't be discarded by damage (during the battle step)": the unit
/// survives any damage. Understood, and not modelled (the engine discards
/// a unit whose damage reaches its health).
fn cant_be_discarded(d: &Clause) -> Flow {
    let r = ["this can't be discarded", "it can't be discarded"]
        .iter()
        .find_map(|p| d.l.strip_prefix(p))?;
    (r.is_empty() || r.starts_with(" by damage") || r.starts_with(" during")).then(|| {
        Some(Draft::unmodelled(
            d.printed,
            "it can't be discarded by damage",
        ))
    })
}
