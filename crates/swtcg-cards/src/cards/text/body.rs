//! An ability's body: the whole-text rules of [`super::rules`] first; else
//! sentence by sentence and clause by clause, each clause read by the
//! first clause rule that reads it (`grant`, `prevention`, `damage`), then
//! the parts put together. Every clause is accounted for in the reading's
//! [`ReadAbility::clauses`]: read by a rule, skipped as outside attacks
//! (with why), or not understood.

use super::cost::CostPart;
use super::rules::{Ctx, RULES, Stage};
use super::{
    Class, Clause, ClauseNote, Cost, Draft, Effect, Leads, NON_ATTACK_EFFECT, OUTSIDE_ATTACKS,
    Recipient, Situation, Subject, Uncharged, WHO_ATTACKS, When, Who, add_situation, chosen,
    clauses, counters_only, damage_clause, find_any, gets, has_attack_word, holds_unknown_keyword,
    is_restriction, non_attack_clause, prevention, quote_short, read_descriptor, read_grants,
    read_losses, repeats, split_top, strip_leads, taps, top_level_find, uncharged,
    unmodelled_family,
};
use std::ops::ControlFlow;

/// Reads an ability's body (reminders removed, see [`classify_as`]).
pub(super) fn classify_body(printed: &str, clean: &str, who: &Who) -> Draft {
    let c = Ctx::new(printed, clean, who);
    for rule in RULES.iter().filter(|r| r.stage == Stage::Whole) {
        if let Some(read) = rule.read
            && let Some(mut a) = read(&c)
        {
            if a.rule.is_empty() {
                a.rule = rule.name;
            }
            return charged(&c, restricted_role(&c, restricted_situation(&c, a)));
        }
    }
    let mut a = clause_by_clause(&c);
    if a.rule.is_empty() {
        a.rule = "clauses";
    }
    family(&c, charged(&c, restricted_role(&c, a)))
}

/// An ability no rule read whole whose words show an effect of a family
/// the engine does not model (a die rolled for an effect, an attack that
/// ends, ...): unmodelled, named by its family, with its clauses as read.
/// One that happens outside attacks is not-attack.
fn family(c: &Ctx, a: Draft) -> Draft {
    if a.class != Class::NotUnderstood {
        return a;
    }
    let Some(name) = unmodelled_family(&c.lower) else {
        return a;
    };
    let outside = OUTSIDE_ATTACKS.iter().any(|o| c.lower.contains(o));
    let mut u = if outside {
        Draft::not_attack(&c.printed, &format!("{name}, outside attacks"))
    } else {
        Draft::unmodelled(&c.printed, name)
    };
    u.rule = "unmodelled-family";
    u.clauses = a.clauses;
    u
}

/// A keyword or condition is applied with its cost, or not at all: a cost
/// in a player's resources outside the attack (cards, build points) waits
/// for the user to say it was paid; one whose payment would change the
/// attack (damage counters, the unit leaving) makes it unmodelled, with the
/// part the engine can't charge; a unit that taps to pay is
/// not the unit attacking, so an effect that acts only while it attacks
/// does nothing.
fn charged(c: &Ctx, a: Draft) -> Draft {
    if !matches!(a.class, Class::Keyword | Class::Condition) {
        return a;
    }
    let a = adapt_outside_attacks(a);
    // A keyword behind a Force cost the engine refuses (a paid Lucky):
    // unmodelled, so that the card is still read without it.
    let alone = |ability: &swtcg_engine::keywords::Ability| {
        swtcg_engine::keywords::Keywords::from_abilities(std::slice::from_ref(ability))
    };
    let refused = a
        .effects
        .iter()
        .chain(a.switch.iter().flat_map(|(_, e)| e))
        .filter_map(Effect::ability)
        .find_map(|ability| {
            alone(ability)
                .refused()
                .map(|(r, why)| format!("{} {why}", r.keyword.name()))
        });
    // An Adapt whose texts the solver can't offer (`Adapt: Lucky 1, Parry
    // 1/...`, a paid Evade among them): unmodelled, as the engine says.
    let refused = refused.or_else(|| {
        a.effects.iter().find_map(|e| match e {
            Effect::Keyword { ability, .. } => alone(ability)
                .adapt_refused()
                .map(|(t, why)| format!("Adapt text '{t}'{why}")),
            _ => None,
        })
    });
    if let Some(why) = refused {
        let mut u = Draft::unmodelled(&c.printed, &why);
        u.cost = a.cost.clone();
        u.rule = a.rule;
        u.clauses = a.clauses;
        return u;
    }
    // A Switch's modes carry their own costs: an arrow in its text is a
    // mode's, not the ability's.
    let whole = Some(&c.cost)
        .filter(|_| a.switch.is_empty())
        .cloned()
        .flatten();
    let Some(cost) = a.cost.clone().or(whole) else {
        return charge_effects(a);
    };
    let a = match charge(a, &cost, false) {
        ControlFlow::Continue(a) => a,
        ControlFlow::Break(u) => return u,
    };
    if taps(&cost) && a.when == Some(When::Attacking) {
        let mut n = Draft::not_attack(
            &c.printed,
            "it taps the unit to pay, so that unit is not the one attacking",
        );
        n.rule = a.rule;
        n.clauses = a.clauses;
        return n;
    }
    a
}

/// An Adapt's texts that act outside attacks (`Adapt: Accuracy 1/Bounty:
/// Gain 2 build points`) are options that change nothing in an attack:
/// written `None`, which the engine offers as such, as a Switch's mode
/// outside attacks has no effects. Other texts stay as printed, for the
/// engine to take or refuse.
fn adapt_outside_attacks(mut a: Draft) -> Draft {
    use swtcg_engine::keywords::{Ability, Keyword, Keywords};
    for e in &mut a.effects {
        let Effect::Keyword { ability, text } = e else {
            continue;
        };
        let Keyword::Adapt(texts) = &ability.keyword else {
            continue;
        };
        let refused = |t: &str| {
            let k = Keywords::from_abilities(&[Ability {
                keyword: Keyword::Adapt(vec![t.to_string()]),
                cost: None,
                x: false,
            }]);
            k.adapt_refused().is_some()
        };
        let texts: Vec<String> = texts
            .iter()
            .map(|t| {
                let outside = refused(t)
                    && super::classify_draft(t, &Who::named("this unit")).class == Class::NotAttack;
                if outside {
                    "None".to_string()
                } else {
                    t.clone()
                }
            })
            .collect();
        ability.keyword = Keyword::Adapt(texts);
        *text = ability.to_string();
    }
    a
}

/// A reading without a cost of its own whose effects carry costs (a quoted
/// ability, a Switch mode, a pilot's grant: `gets "Put 1 damage counter on
/// one of your Soldiers -> Evade 2"`): each cost is charged as the
/// ability's own would be. One whose payment changes the attack makes the
/// reading unmodelled, naming it; one the user pays makes a keyword a
/// condition that waits for the user, or, in one mode of several (a Switch,
/// a choice), the reading unmodelled. Otherwise an effect whose cost the
/// engine can't charge would act as if free.
pub(super) fn charge_effects(a: Draft) -> Draft {
    let modes = !a.switch.is_empty() || !a.choices.is_empty();
    let costs: Vec<Cost> = a
        .effects
        .iter()
        .chain(a.switch.iter().flat_map(|(_, e)| e))
        .chain(a.choices.iter().flatten())
        .filter_map(|e| e.ability()?.cost.clone())
        .collect();
    let mut a = a;
    for cost in costs {
        a = match charge(a, &cost, modes) {
            ControlFlow::Continue(a) => a,
            ControlFlow::Break(u) => return u,
        };
    }
    a
}

/// Charges `cost` on a reading: unchanged when the engine charges it
/// (Force, tapping the unit itself); a keyword made a condition that waits
/// for the user when a player's resources outside the attack pay it (or,
/// in one mode of several, `modes`, unmodelled); unmodelled (`Break`),
/// with the part named, when paying it changes the attack.
fn charge(mut a: Draft, cost: &Cost, modes: bool) -> ControlFlow<Draft, Draft> {
    let unmodelled = |a: Draft, why: &str| {
        let mut u = Draft::unmodelled(&a.text, why);
        u.cost = Some(cost.clone());
        u.rule = a.rule;
        u.clauses = a.clauses;
        u
    };
    match uncharged(cost) {
        None => {}
        Some(Uncharged::Never(part)) => {
            return ControlFlow::Break(unmodelled(
                a,
                &format!("a cost the engine can't charge ({part})"),
            ));
        }
        Some(Uncharged::User) if modes => {
            return ControlFlow::Break(unmodelled(
                a,
                &format!("a cost the user pays, in one of its modes ({})", cost.text),
            ));
        }
        Some(Uncharged::User) if a.class == Class::Keyword => {
            // Never free: the user says it was paid.
            let paid = Situation::Other {
                text: format!("its cost is paid: {}", cost.text),
            };
            a.situation = add_situation(a.situation.take(), paid);
            a.class = Class::Condition;
            a.decidable = Some(false);
        }
        Some(Uncharged::User) => {}
    }
    ControlFlow::Continue(a)
}

/// The role a restriction after the first sentence allows the unit in:
/// "Play only when THIS is attacking" (attacking), "Play only if THIS is
/// being attacked" (defending).
fn restriction_role(c: &Ctx) -> Option<When> {
    let mut role = None;
    for sent in c.sents.iter().skip(1) {
        let sl = sent.to_ascii_lowercase();
        if !is_restriction(&sl) {
            continue;
        }
        let says = |ps: &[&str]| {
            ps.iter().any(|p| {
                ["when ", "if ", "while ", "as long as "]
                    .iter()
                    .any(|w| sl.contains(&format!("{w}this {p}")))
            })
        };
        if says(&[
            "is being attacked",
            "is attacked",
            "is defending",
            "would be attacked",
        ]) {
            role = Some(When::Defending);
        } else if says(&["is attacking", "would attack", "attacks"]) {
            role = Some(When::Attacking);
        }
    }
    role
}

/// A keyword or condition played only in one role ("Play only when THIS
/// is attacking") acts in that role only; one whose effects act only in
/// the other role does nothing.
fn restricted_role(c: &Ctx, mut a: Draft) -> Draft {
    if !matches!(a.class, Class::Keyword | Class::Condition) {
        return a;
    }
    let Some(role) = restriction_role(c) else {
        return a;
    };
    match a.when {
        Some(w) if w == role => a,
        Some(When::Any) | None => {
            a.when = Some(role);
            for p in &mut a.parts {
                p.when = Some(role);
            }
            a
        }
        Some(_) => {
            let mut n = Draft::not_attack(
                &c.printed,
                &format!(
                    "it may be played only while the unit is {}, where its effects do nothing",
                    if role == When::Attacking {
                        "attacking"
                    } else {
                        "defending"
                    }
                ),
            );
            n.rule = a.rule;
            n.clauses = std::mem::take(&mut a.clauses);
            n
        }
    }
}

/// A situation a restriction after the first sentence states ("Pay 0
/// Force -> Absorb 1. Play only if you have an Officer in any arena"), on
/// a whole-text rule's reading: a keyword with it is a condition that
/// waits for the user, as the clause-by-clause reading takes it (the role
/// a restriction allows is `restricted_role`'s).
fn restricted_situation(c: &Ctx, mut a: Draft) -> Draft {
    if !matches!(a.class, Class::Keyword | Class::Condition) {
        return a;
    }
    let Some(s) = restrictions(c).situation else {
        return a;
    };
    a.situation = add_situation(a.situation.take(), s);
    a.class = Class::Condition;
    a.decidable = Some(false);
    a
}

/// What the restrictions after the first sentence say ("Play only if ...",
/// "Play only during your build step", "Play only when THIS would attack").
struct Restrictions {
    /// A situation the cards can't tell ("only if you attached ...").
    situation: Option<Situation>,
    /// Played outside attacks.
    outside: bool,
    /// Played instead of the unit's attack (a tap cost, "would attack").
    replaces_attack: bool,
    /// Played while the unit attacks ("would attack", "before the dice").
    attacking: bool,
}

fn restrictions(c: &Ctx) -> Restrictions {
    // A cost that taps the unit or discards it (the cost grammar's parts).
    let tap_cost = c.cost.as_ref().is_some_and(|k| {
        super::cost::cost_parts(&k.text)
            .iter()
            .any(|p| matches!(p.part, CostPart::Tap | CostPart::DiscardThis))
    });
    let mut r = Restrictions {
        situation: None,
        outside: false,
        replaces_attack: false,
        attacking: false,
    };
    for sent in c.sents.iter().skip(1) {
        let sl = sent.to_ascii_lowercase();
        if !is_restriction(&sl) {
            continue;
        }
        r.attacking |= sl.contains("would attack")
            || sl.contains("is attacking")
            || sl.contains("before the dice");
        for part in sl.split(" and ") {
            let p = part
                .trim()
                .trim_start_matches("play ")
                .trim_start_matches("only ")
                .trim();
            let Some(cond) = p.strip_prefix("if ") else {
                continue;
            };
            if cond.contains("attacking")
                || cond.contains("would attack")
                || cond.contains("damage is pending")
            {
                // "Play only if THIS is attacking a unique unit": the unit it
                // attacks is part of the condition (a bare "is attacking" is
                // only the timing).
                if let Some(s) = attacking_whom(cond) {
                    r.situation = add_situation(r.situation.take(), s);
                }
                continue;
            }
            // "Play only if THIS is being attacked": the role only
            // (`restriction_role`); by whom is a situation.
            let role_only = [
                "this is being attacked",
                "this is defending",
                "this is attacked",
            ]
            .contains(&cond.trim_end_matches('.'));
            if role_only {
                continue;
            }
            r.situation = add_situation(
                r.situation.take(),
                Situation::Other {
                    text: format!("only if {cond}"),
                },
            );
        }
        // "Play only when THIS would be discarded": the attack that put
        // it there has ended (as a `When THIS would be discarded` lead).
        if OUTSIDE_ATTACKS.iter().any(|t| sl.contains(t))
            || sl.contains("build step")
            || sl.contains("would be discarded")
        {
            r.outside = true;
        }
        if sl.contains("would attack") && tap_cost {
            r.replaces_attack = true;
        }
    }
    r
}

/// "this is attacking a unique unit": whom it attacks, when the clause
/// says more than that it attacks; a clause about attacking that can't be
/// read waits for the user.
fn attacking_whom(cond: &str) -> Option<Situation> {
    let whom = cond
        .strip_prefix("this is attacking ")
        .or_else(|| cond.strip_prefix("this attacks "))?
        .trim();
    if whom.is_empty() {
        return None;
    }
    Some(
        super::trigger::trigger(cond).unwrap_or_else(|| Situation::Other {
            text: format!("only if {cond}"),
        }),
    )
}

/// The state of a reading across sentences: the parts read, what "that
/// unit" refers to, and what makes the whole outside attacks or a choice.
#[derive(Default)]
struct Reading {
    parts: Vec<Draft>,
    clauses: Vec<ClauseNote>,
    not_attack_notes: Vec<String>,
    referent: Option<Recipient>,
    outside: bool,
    choice: bool,
    /// A lead so far said that this unit attacks (`Whenever THIS attacks,
    /// ...`): the attack of the sentences after it is its own.
    own_attack: bool,
    /// The situation the last sentence's lead set, which a sentence with no
    /// lead of its own goes on from.
    trigger: Option<(Situation, String)>,
}

fn clause_by_clause(c: &Ctx) -> Draft {
    let res = restrictions(c);
    let mut r = Reading {
        outside: res.outside,
        ..Reading::default()
    };
    for (i, sent) in c.sents.iter().enumerate() {
        let sent = sent.trim().trim_end_matches('.');
        let sl = sent.to_ascii_lowercase();
        if i > 0 && is_restriction(&sl) {
            // Restrictions are clauses too, noted with what they do to the
            // reading. One that lets the ability be played more than once
            // is read as one payment, and says so.
            let how = if repeats(&sl) {
                "played more than once: read as one payment"
            } else {
                "when it may be played"
            };
            r.clauses.push(ClauseNote::new(sent, "restriction", how));
            continue;
        }
        let body = if i == 0 { c.effect.as_str() } else { sent };
        read_sentence(c, body, res.attacking, &mut r);
    }
    let clauses = std::mem::take(&mut r.clauses);
    let mut a = if res.replaces_attack {
        Draft::not_attack(&c.printed, "played instead of the unit's attack (it taps)")
    } else {
        put_together(c, r, res.situation)
    };
    a.clauses = clauses;
    a
}

/// One sentence: its leading clauses, then each clause of each
/// alternative.
fn read_sentence(c: &Ctx, body: &str, restricted_attacking: bool, r: &mut Reading) {
    let mut leads = Leads {
        situation: None,
        outside: false,
        choice: false,
        damaged: None,
    };
    let core = strip_leads(body, &mut leads);
    let lead_text = body.trim()[..body.trim().len() - core.len()].trim();
    if !lead_text.is_empty() {
        let how = match &leads.situation {
            _ if leads.outside => "a timing outside attacks",
            Some(s) if s.decidable() => "a situation decided by the two cards",
            Some(_) => "a situation that waits for the user (--condition)",
            None if leads.choice => "a player's choice",
            None => "timing only",
        };
        r.clauses.push(ClauseNote::new(lead_text, "lead", how));
    }
    r.outside |= leads.outside;
    r.choice |= leads.choice;
    r.own_attack |= leads
        .situation
        .as_ref()
        .is_some_and(Situation::this_attacks);
    // A sentence that goes on from a trigger before it with a pronoun and
    // no lead of its own (`Whenever THIS is attacked, untap THIS. It gets
    // Fury 1 until end of turn.`): the trigger's situation is its too.
    // What it gets until end of turn is had after the trigger, in later
    // attacks too: a situation the user says (`--condition`).
    let lower_lead = lead_text.to_ascii_lowercase();
    if lead_text.is_empty() {
        let l = core.trim_start().to_ascii_lowercase();
        if ["it ", "he ", "she ", "they "]
            .iter()
            .any(|p| l.starts_with(p))
            && let Some((situation, lead)) = &r.trigger
        {
            let lasting = ["until end of turn", "until end of game", "until the end of"]
                .iter()
                .any(|w| l.contains(w));
            leads.situation = Some(if lasting {
                Situation::Other {
                    text: format!("after: {} (earlier this turn)", lead.trim_end_matches(',')),
                }
            } else {
                situation.clone()
            });
        }
    } else {
        r.trigger = leads
            .situation
            .clone()
            .filter(|_| lower_lead.starts_with("when"))
            .map(|s| (s, lead_text.to_string()));
    }
    let cl = core.to_ascii_lowercase();
    if let Some(rest) = cl.strip_prefix("tap one of your opponent's ") {
        // "Tap one of your opponent's Ground units and put 2 damage
        // counters on it": that unit is chosen.
        let orig = &core["tap one of your opponent's ".len()..];
        let d = read_descriptor(orig.split(" and ").next().unwrap_or(orig))
            .or_else(|| read_descriptor(rest.split(" and ").next().unwrap_or(rest)));
        r.referent = Some(Recipient::Chosen(d));
    }
    let choose_at = if cl.starts_with("choose ") {
        Some(0)
    } else if cl.starts_with("you may choose ") {
        Some(8)
    } else {
        top_level_find(&cl, " you may choose ")
            .map(|i| i + 9)
            .or_else(|| top_level_find(&cl, ", choose ").map(|i| i + 2))
    };
    if let Some(at) = choose_at {
        // It only sets up what "that unit" means next.
        r.referent = chosen(&core[at..]).map(|x| c.who.narrow(x));
        r.clauses.push(ClauseNote::new(
            core,
            "chosen-unit",
            "sets up what \"that unit\" means",
        ));
        return;
    }
    // "A, or B": a choice among effects.
    let alternatives: Vec<&str> = if leads.choice || r.choice {
        split_top(core, &[", or ", " or: "])
    } else {
        vec![core]
    };
    if alternatives.len() > 1 {
        r.choice = true;
    }
    for alt in alternatives {
        // `Each of your Agents costs 1 less ... and each gets Cunning`:
        // `each` is the group the clause before it named.
        let mut group: Option<&str> = None;
        for clause in clauses(alt) {
            let t = clause.trim_start();
            let l = t.to_ascii_lowercase();
            let rest = ["each gets ", "each get "]
                .iter()
                .find_map(|p| l.strip_prefix(p).map(|r| r.len()));
            match (rest, group) {
                (Some(n), Some(g)) => {
                    let said = format!("{g} gets {}", &t[t.len() - n..]);
                    read_clause(c, &said, &leads, restricted_attacking, r);
                }
                _ => read_clause(c, clause, &leads, restricted_attacking, r),
            }
            group = group_named(clause).or(group);
        }
    }
}

/// The group a clause's subject names (`Each of your Agents and Spies` of
/// `Each of your Agents and Spies costs 1 less ...`), if it names one.
fn group_named(clause: &str) -> Option<&str> {
    let t = clause.trim_start();
    let l = t.to_ascii_lowercase();
    if !l.starts_with("each ") {
        return None;
    }
    let verb = [" gets ", " get ", " costs ", " cost ", " loses ", " lose "]
        .iter()
        .filter_map(|v| l.find(v))
        .min()?;
    Some(&t[..verb])
}

/// One clause, by the first clause rule that reads it.
fn read_clause(c: &Ctx, clause: &str, leads: &Leads, restricted_attacking: bool, r: &mut Reading) {
    let rewritten = rewrite_clause(clause);
    let clause = rewritten.as_deref().unwrap_or(clause);
    let cl = clause.to_ascii_lowercase();
    let damaged = leads
        .damaged
        .as_ref()
        .or(r.referent.as_ref())
        .map(|x| c.who.narrow(x.clone()));
    let ctx = Clause {
        printed: &c.printed,
        text: clause,
        l: cl.trim_end_matches('.').to_string(),
        cost: c.cost.clone(),
        situation: leads.situation.clone(),
        referent: r.referent.as_ref(),
        damaged,
        attacking: restricted_attacking,
        own_attack: r.own_attack,
        outside: r.outside || leads.outside,
        who: c.who,
    };
    let read = copied_text(&c.printed, &cl)
        .map(|p| ("copied-text", p))
        .or_else(|| gets(&ctx).map(|p| ("grant", p)))
        .or_else(|| prevention(&ctx).map(|p| ("prevention", p)))
        .or_else(|| damage_clause(&ctx).map(|p| ("damage", p)))
        .or_else(|| subjectless_grant(&ctx).map(|p| ("grant", p)));
    let Some((rule, mut p)) = read else {
        // Counters moved by a unit that taps to do it: between attacks
        // (the state a unit brings into one).
        let tapped = c.cost.as_ref().is_some_and(taps) && counters_only(&cl);
        unread_clause(clause, &cl, ctx.outside || tapped, r, &c.printed);
        return;
    };
    let decided = match p.decidable {
        Some(true) => ", decided by the two cards",
        Some(false) => ", waits for the user (--condition)",
        None => "",
    };
    let how = format!("{}{decided}", p.class.name());
    r.clauses.push(ClauseNote::new(clause, rule, &how));
    match p.class {
        Class::NotAttack => r.not_attack_notes.extend(p.note),
        _ => {
            if cl.trim_end_matches('.').ends_with(" instead")
                && matches!(p.class, Class::Keyword | Class::Condition)
            {
                p.note = Some("instead".into());
            }
            r.parts.push(p);
        }
    }
}

/// Grants with no subject, the unit's own: `Critical Hit 2 as long as
/// he's attacking a Jedi`, `+2 power while THIS is attacking`: read as
/// `THIS gets ...` when what comes before the situation is grants.
fn subjectless_grant(c: &Clause) -> Option<Draft> {
    let l = &c.l;
    if [" gets ", " get ", " gets:"].iter().any(|v| l.contains(v)) {
        return None;
    }
    let (at, _) = find_any(l, &[" as long as ", " while ", " when ", " if "])?;
    let head = c.text[..at].trim();
    if !matches!(read_grants(head), Ok(e) if !e.is_empty()) {
        return None;
    }
    let text = format!("THIS gets {}", c.text.trim());
    gets(&Clause {
        text: &text,
        l: text.to_ascii_lowercase().trim_end_matches('.').to_string(),
        cost: c.cost.clone(),
        situation: c.situation.clone(),
        damaged: c.damaged.clone(),
        ..*c
    })
}

/// Clause forms said another way, in the words the rules read:
/// - `+2 power and +2 health, each of your Jedi gets`: the grants before
///   their subject (`each of your Jedi gets +2 power and +2 health`);
/// - `damage from THIS can't be prevented`: `THIS gets Ferocity`;
/// - `it ignores Shields` (after `When THIS attacks`): `the defending
///   unit loses Shields for that attack`.
fn rewrite_clause(clause: &str) -> Option<String> {
    let t = clause.trim().trim_end_matches('.');
    let l = t.to_ascii_lowercase();
    // `Treat THIS as a Bounty Hunter` inside a sentence: the subtype.
    for p in ["treat this as a ", "treat this as an "] {
        if let Some(w) = l.strip_prefix(p) {
            let kind = &t[t.len() - w.len()..];
            // `Treat THIS as a Bounty Hunter, and she gets Stun 2`: the
            // subtype, then what it gets besides.
            for and in [", and ", " and "] {
                for who in ["this", "he", "she", "it"] {
                    let joint = format!("{and}{who} gets ");
                    if let Some(at) = top_level_find(w, &joint) {
                        let grants = &kind[at + joint.len()..];
                        return Some(format!(
                            "THIS gets the {} subtype and {grants}",
                            &kind[..at]
                        ));
                    }
                }
            }
            return Some(format!("THIS gets the {kind} subtype"));
        }
    }
    // `Each of your Independent units +1 power, +1 health`: its verb lost.
    if l.starts_with("each of your ")
        && ![" gets ", " get ", " gets:"].iter().any(|v| l.contains(v))
        && let Some(at) = l.find(" +")
    {
        return Some(format!("{} gets {}", &t[..at], t[at + 1..].trim()));
    }
    for v in [" gets", " get"] {
        // The comma after the grants, or inside their closing quote
        // (`"Pay 1 Force -> Deflect 1," each of your Jedi gets`).
        let Some(head) = l.strip_suffix(v) else {
            continue;
        };
        let cut = top_level_find_last(head, ", ")
            .map(|c| (c, c + 2))
            .or_else(|| {
                head.rfind(",\" ")
                    .filter(|_| head.starts_with('"'))
                    .map(|c| (c, c + 3))
            });
        if let Some((comma, subject_at)) = cut {
            let grants = t[..comma].trim().trim_matches(',');
            let grants = if subject_at == comma + 3 {
                format!("{grants}\"")
            } else {
                grants.replace(",\"", "\"")
            };
            let grants = grants.as_str();
            let subject = &t[subject_at..head.len()];
            if matches!(read_grants(grants.trim_matches('"').trim_end_matches(',')), Ok(e) if !e.is_empty())
                || grants.starts_with('"')
            {
                return Some(format!("{subject}{v} {}", grants.trim_end_matches(',')));
            }
        }
    }
    for p in [
        "damage from this can't be prevented",
        "damage from this's attacks can't be prevented",
        "this's damage can't be prevented",
    ] {
        if let Some(rest) = l.strip_prefix(p)
            && (rest.is_empty()
                || [
                    " for ",
                    " until ",
                    " as long as ",
                    " while ",
                    " when ",
                    " this turn",
                ]
                .iter()
                .any(|w| rest.starts_with(w)))
        {
            return Some(format!("THIS gets Ferocity{}", &t[t.len() - rest.len()..]));
        }
    }
    for p in [
        "it ignores ",
        "this ignores ",
        "he ignores ",
        "she ignores ",
    ] {
        if let Some(k) = l.strip_prefix(p)
            && read_losses(&t[t.len() - k.len()..]).is_ok()
        {
            return Some(format!(
                "the defending unit loses {} for that attack",
                &t[t.len() - k.len()..]
            ));
        }
    }
    None
}

/// The last `pat` outside quotes.
fn top_level_find_last(l: &str, pat: &str) -> Option<usize> {
    let mut quoted = false;
    let mut last = None;
    for (i, c) in l.char_indices() {
        if c == '"' {
            quoted = !quoted;
        }
        if !quoted && l[i..].starts_with(pat) {
            last = Some(i);
        }
    }
    last
}

/// `THIS gets the subtype and ability text of that card`, `THIS gains
/// the game text of that card`: another card's abilities, known only once
/// the card is picked in play (unmodelled: no card file says which).
fn copied_text(printed: &str, cl: &str) -> Option<Draft> {
    let rest = ["this gets ", "this gains ", "it gets ", "it gains "]
        .iter()
        .find_map(|p| cl.strip_prefix(p))?;
    let rest = rest.strip_prefix("the ").unwrap_or(rest);
    let rest = rest.strip_prefix("subtype and ").unwrap_or(rest);
    let of = ["ability text of ", "game text of ", "abilities of "]
        .iter()
        .find_map(|p| rest.strip_prefix(p))?;
    // A card picked in play (`that card`, `the chosen card`), not a name.
    (of.starts_with("that ") || of.starts_with("the chosen ") || of.starts_with("a ")).then(|| {
        Draft::unmodelled(
            printed,
            "another card's ability text (the card is picked in play)",
        )
    })
}

/// A clause no rule read: outside attacks when its words say so, else not
/// understood. Either way it is noted.
fn unread_clause(clause: &str, cl: &str, outside: bool, r: &mut Reading, printed: &str) {
    // The damage a clause before does, limited (`This damage can only be
    // prevented by a Jedi`): part of that damage's reading.
    if cl.starts_with("this damage ") || cl.starts_with("that damage can") {
        r.clauses.push(ClauseNote::new(
            clause,
            "rider",
            "a limit on the damage before it",
        ));
        return;
    }
    let why = match outside_reason(cl, outside) {
        Some(_) if holds_unknown_keyword(clause) => None,
        why => why,
    };
    match why {
        Some(why) => r
            .clauses
            .push(ClauseNote::new(clause, "outside-attacks", why)),
        None => {
            r.clauses
                .push(ClauseNote::new(clause, "unread", "not understood"));
            r.parts.push(Draft::not_understood(
                printed,
                &format!("'{}'", quote_short(clause)),
            ));
        }
    }
}

/// Why a clause no rule read is outside attacks (`outside`: its ability
/// happens outside attacks), or `None` when it may act on one.
pub(super) fn outside_reason(cl: &str, outside: bool) -> Option<&'static str> {
    // A cap ("Max +3", "to a maximum of 3") limits the clause before it:
    // never outside attacks.
    let cap = cl.starts_with("max ") || cl.starts_with("maximum") || cl.contains("a maximum of");
    if cap {
        None
    } else if non_attack_clause(cl) {
        Some("Force, cards or a player's resources")
    } else if (cl.starts_with("tap ") || cl.starts_with("untap "))
        && !cl.contains(" and put ")
        && !cl.contains(" power")
    {
        Some("tapping or untapping a unit")
    } else if !has_attack_word(cl) {
        Some("no word of an attack in it")
    } else if WHO_ATTACKS.iter().any(|w| cl.contains(w)) && !cl.contains(" power") {
        Some("which units may attack")
    } else if outside && counters_only(cl) {
        Some("damage counters outside attacks")
    } else if cl.contains(" retreats when ") && cl.contains("attack ends") {
        Some("a retreat once the attack has ended")
    } else {
        None
    }
}

/// The parts read, as one reading.
fn put_together(c: &Ctx, r: Reading, restriction: Option<Situation>) -> Draft {
    let printed = c.printed.as_str();
    if let Some(nu) = r.parts.iter().find(|p| p.class == Class::NotUnderstood) {
        return nu.clone();
    }
    if let Some(u) = r.parts.iter().find(|p| p.class == Class::Unmodelled) {
        let mut u = u.clone();
        u.text = printed.to_string();
        return u;
    }
    let attack: Vec<Draft> = r
        .parts
        .into_iter()
        .filter(|p| matches!(p.class, Class::Keyword | Class::Condition))
        .collect();
    if attack.is_empty() {
        return nothing_for_an_attack(c, &r.not_attack_notes, r.outside);
    }
    let mut a = merge_parts(printed, attack, r.choice, c.cost.clone());
    if a.class == Class::NotUnderstood {
        return a;
    }
    if let Some(s) = restriction {
        a.situation = add_situation(a.situation.take(), s);
        a.class = Class::Condition;
        a.decidable = a.situation.as_ref().map(Situation::decidable);
    }
    // Paying it takes the unit out of the arena (discarded or retreated).
    let leaves = c.cost.as_ref().is_some_and(|k| {
        super::cost::cost_parts(&k.text)
            .iter()
            .any(|p| p.part.leaves())
    });
    if leaves && a.subject == Some(Subject::This) {
        // It leaves the arena to pay: nothing it does can help it.
        return Draft::not_attack(printed, "the unit leaves the arena to pay for it");
    }
    if r.outside || r.choice {
        return outside_or_choice(c, a, r.outside, r.choice);
    }
    a
}

/// Why an ability with no attack part is not-attack.
fn nothing_for_an_attack(c: &Ctx, notes: &[String], outside: bool) -> Draft {
    let why = if let Some(n) = notes.first() {
        n.clone()
    } else if outside {
        "it happens outside attacks".to_string()
    } else {
        // What its effect is about (after its cost: `Pay 3 Force -> Take
        // 1 ... Subordinate` is about the Subordinate, not Force).
        let effect = c.effect.to_ascii_lowercase();
        NON_ATTACK_EFFECT
            .iter()
            .find(|w| effect.contains(*w))
            .or_else(|| NON_ATTACK_EFFECT.iter().find(|w| c.lower.contains(*w)))
            .map_or("nothing in it acts on an attack".to_string(), |w| {
                format!("its effect is about {w}, not an attack")
            })
    };
    Draft::not_attack(&c.printed, &why)
}

/// Played or triggered outside attacks (or a choice): only what lasts into
/// an attack counts, when the player chose it.
fn outside_or_choice(c: &Ctx, mut a: Draft, outside: bool, choice: bool) -> Draft {
    let l = &c.lower;
    // `until end of turn`, or a trigger set up for the turn (`whenever
    // THIS would be damaged ... this turn`).
    let lasting = l.contains("until end of")
        || l.contains("until the end of")
        || l.contains("until end of game")
        || (l.contains("whenever ") && l.contains(" this turn"));
    if outside && !lasting {
        return Draft::not_attack(
            &c.printed,
            "it happens outside attacks, and nothing of it lasts into one",
        );
    }
    a.class = Class::Condition;
    let why = if choice {
        "the player's choice"
    } else {
        "played or triggered before the attack"
    };
    a.situation = add_situation(a.situation.take(), Situation::Other { text: why.into() });
    a.decidable = Some(false);
    a
}

/// Several attack parts as one reading: a choice among them, one subject
/// and situation (effects merged), or parts with their own; a choice
/// among effects on different units is not understood.
fn merge_parts(printed: &str, mut attack: Vec<Draft>, choice: bool, cost: Option<Cost>) -> Draft {
    if attack.len() > 1 && choice {
        // "Choose one: A. Or: B": one of them, as the player chooses.
        let subj = attack[0].subject;
        if !attack.iter().all(|p| p.subject == subj) {
            return Draft::not_understood(printed, "a choice among effects on different units");
        }
        let mut whole = attack[0].clone();
        whole.text = printed.to_string();
        // Each choice acts in its own role: together, in any.
        if !attack.iter().all(|p| p.when == whole.when) {
            whole.when = Some(When::Any);
        }
        whole.choices = attack.iter().map(|p| p.effects.clone()).collect();
        whole.effects = whole.choices.iter().flatten().cloned().collect();
        return whole;
    }
    if attack.len() == 1 {
        return attack.remove(0);
    }
    let same = attack.windows(2).all(|w| {
        w[0].subject == w[1].subject
            && w[0].situation == w[1].situation
            && w[0].class == w[1].class
            && w[0].x == w[1].x
    });
    if same {
        // One subject and situation: merge the effects.
        let mut first = attack.remove(0);
        for a in attack {
            first.effects.extend(a.effects);
        }
        return first;
    }
    with_parts(printed, attack, cost)
}

/// Parts, each with its subject and situation. A part written "...
/// instead" replaces the one before it where it applies.
fn with_parts(printed: &str, mut attack: Vec<Draft>, cost: Option<Cost>) -> Draft {
    for k in 1..attack.len() {
        if attack[k].note.as_deref() == Some("instead")
            && let Some(s) = attack[k].situation.clone()
        {
            let prev = &mut attack[k - 1];
            prev.situation =
                add_situation(prev.situation.take(), Situation::Not { not: Box::new(s) });
            prev.decidable = prev.situation.as_ref().map(Situation::decidable);
            if prev.class == Class::Keyword {
                prev.class = Class::Condition;
            }
        }
    }
    let mut whole = Draft::new(printed, Class::Keyword);
    if attack.iter().any(|p| p.class == Class::Condition) {
        whole.class = Class::Condition;
    }
    let subj = attack[0].subject;
    whole.subject = if attack.iter().all(|p| p.subject == subj) {
        subj
    } else {
        Some(Subject::Both)
    };
    let when = attack[0].when;
    whole.when = if attack.iter().all(|p| p.when == when) {
        when
    } else {
        Some(When::Any)
    };
    if whole.class == Class::Condition {
        whole.decidable = Some(attack.iter().all(|p| p.decidable != Some(false)));
    }
    whole.cost = cost;
    for p in &mut attack {
        p.note = None;
    }
    whole.parts = attack;
    whole
}
