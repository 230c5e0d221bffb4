//! Keywords: a keyword as the keyword table reads it, a keyword in words, costs, `Switch:`.

use super::{
    Ability, Class, Cost, Draft, Effect, Keyword, Situation, Subject, When, Who, classify_draft,
    keyword_when, quote_short, read_grants,
};
use swtcg_engine::keywords::parse;
use swtcg_engine::unit::Arena;

/// Reads a cost ([`Cost::read`]); one too large to read is kept as
/// written, as a cost in something else than Force (so never free).
pub fn read_cost(text: &str) -> Cost {
    let cost = Cost::read(text).unwrap_or_else(|_| Cost {
        text: text.trim().to_string(),
        force: None,
        x: false,
    });
    if cost.force.is_some() || cost.x {
        return cost;
    }
    // Tapping beside Force (`[tap], Pay 2 Force`): the Force is what the
    // attack charges (tapping costs nothing in it; see [`uncharged`]).
    use super::cost::{Amount, CostPart, cost_parts};
    let parts = cost_parts(text);
    let mut force = None;
    let mut x = false;
    for p in &parts {
        match p.part {
            CostPart::Tap => {}
            CostPart::Force(Amount::N(n)) => force = Some(force.unwrap_or(0u32).saturating_add(n)),
            CostPart::Force(Amount::X) => x = true,
            _ => return cost,
        }
    }
    if force.is_none() && !x {
        return cost;
    }
    Cost { force, x, ..cost }
}

/// Who pays a cost's part the engine does not charge.
pub(super) enum Uncharged {
    /// A player's resources outside the attack (cards, build points,
    /// counters other than damage): the user says whether it was paid
    /// (`--condition`), and the attack's numbers do not change with it.
    User,
    /// A part whose payment changes the attack (damage counters, the unit
    /// leaving, a roll) or that is not read: the engine can't charge it,
    /// so the ability is unmodelled.
    Never(String),
}

/// The part of a cost the engine does not charge (anything but Force and
/// tapping), and who pays it; `None` when the engine charges all of it.
/// The verbs a part of a cost starts with (the cost grammar's parts, and
/// what it leaves as text: `Reveal a card`, `Roll a die`).
const COST_VERBS: &[&str] = &[
    "pay",
    "tap",
    "untap",
    "put",
    "place",
    "remove",
    "discard",
    "retreat",
    "return",
    "reveal",
    "roll",
    "move",
    "shuffle",
    "sacrifice",
    "take",
    "lose",
    "give",
    "attach",
    "detach",
    "switch",
    "adapt",
    "search",
    "draw",
    "choose",
    "destroy",
    "exile",
    "flip",
    "turn",
    "stack",
    "spend",
    "add",
    "gain",
];

pub(super) fn uncharged(cost: &Cost) -> Option<Uncharged> {
    use super::cost::{CostPart, cost_parts};
    if cost.force.is_some() || cost.x {
        return None;
    }
    let mut user = None;
    // The verb of the part before: a part with no verb of its own shares
    // it (`Remove X, up to 3, non-damage counters from ...`; `Remove 1
    // non-damage counter and 1 damage counter from THIS`), and is read
    // with it.
    let mut verb: Option<String> = None;
    for p in cost_parts(&cost.text) {
        let own = cost.text[p.span.clone()]
            .split_whitespace()
            .next()
            .map(str::to_ascii_lowercase)
            .filter(|w| COST_VERBS.contains(&w.as_str()));
        let part = match (&p.part, &own, &verb) {
            (CostPart::Other(t), None, Some(v)) => CostPart::Other(format!("{v} {t}")),
            (part, _, _) => part.clone(),
        };
        if own.is_some() {
            verb = own;
        }
        match &part {
            CostPart::Tap | CostPart::Force(_) => {}
            // Counters on a unit of neither side of the attack change
            // neither unit of it.
            CostPart::Counters(_, on)
                if ["attacking", "defending", "this"]
                    .iter()
                    .any(|w| on.to_ascii_lowercase().contains(w)) =>
            {
                return Some(Uncharged::Never(part.to_string()));
            }
            CostPart::BuildPoints(_) | CostPart::Discard(_) | CostPart::Counters(..) => {
                user = Some(Uncharged::User)
            }
            CostPart::Other(t) => {
                let l = t.to_ascii_lowercase();
                // Damage counters removed change the unit's health; other
                // counters ("non-damage", corruption) are resources.
                let damage = l
                    .match_indices("damage counter")
                    .any(|(i, _)| !l[..i].ends_with("non-"));
                // Another unit of the player's tapped (`Tap one of your
                // Soldiers`, `Tap Princess Leia`): not a unit of the attack
                // (the unit itself tapping is `Tap`).
                let other_unit = l.starts_with("tap ") && !l.contains("this");
                let resource = (l.starts_with("remove ") && !damage)
                    || other_unit
                    || l.starts_with("discard ")
                    || l.starts_with("reveal ")
                    || l.starts_with("return ");
                if resource {
                    user = Some(Uncharged::User);
                } else {
                    return Some(Uncharged::Never(format!("'{}'", quote_short(t))));
                }
            }
            part => return Some(Uncharged::Never(part.to_string())),
        }
    }
    user
}

/// Whether a cost taps the unit itself (`Tap`, `[tap], Pay 2 Force`):
/// attacking taps it, so it can't pay such a cost in its own attack.
pub fn taps(cost: &Cost) -> bool {
    super::cost::cost_parts(&cost.text)
        .iter()
        .any(|p| p.part == super::cost::CostPart::Tap)
}

pub(super) fn keyword(printed: &str, ab: Ability, cost: Option<Cost>) -> Draft {
    let mut a = Draft::new(printed, Class::Keyword);
    // Stack lists are about building stacks, not attacks.
    if let Keyword::Stack(_) = ab.keyword {
        let mut n = Draft::not_attack(printed, "Stack: which cards may be stacked");
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
pub(super) fn worded_keyword(printed: &str, marked: &str, cost: Option<Cost>) -> Option<Draft> {
    let l = marked.to_ascii_lowercase();
    let w = Wk {
        printed,
        marked,
        l: l.trim_end_matches('.').to_string(),
        cost,
    };
    let patterns: [fn(&Wk) -> Option<Draft>; 13] = [
        unpreventable,
        arena_power,
        not_intercepted,
        dice_added,
        treat_as,
        overload,
        half_dice,
        no_damage_counters,
        consolation,
        cunning,
        foresight,
        lucky_on_every_die,
        reroll_own_dice,
    ];
    patterns.iter().find_map(|p| p(&w))
}

/// One ability's text for the keywords in words.
struct Wk<'a> {
    printed: &'a str,
    /// With the unit's names as `THIS`.
    marked: &'a str,
    /// `marked`, lowercase, without its final period.
    l: String,
    cost: Option<Cost>,
}

impl Wk<'_> {
    fn kw(&self, k: Keyword) -> Option<Draft> {
        let ab = Ability {
            keyword: k,
            cost: None,
            x: false,
        };
        Some(keyword(self.printed, ab, self.cost.clone()))
    }

    /// A keyword-class reading of this unit with one effect.
    fn own(&self, when: When, effect: Effect) -> Draft {
        let mut a = Draft::new(self.printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(when);
        a.effects.push(effect);
        a
    }
}

/// An arena power written out: "THIS may attack a unit in the Character
/// arena instead of a unit in the Space arena, with 5 power (plus any
/// other effects)" is Barrage 5; the Ground arena's is Bombard, the Space
/// arena's Ion Cannon (the glossary's own words). One that names no power
/// of its own is not this keyword.
fn arena_power(w: &Wk) -> Option<Draft> {
    let r = w.l.strip_prefix("this may attack a unit in the ")?;
    let (arena, rest) = r.split_once(" arena instead of ")?;
    let before = &rest[..rest.find(" power")?];
    let (how, n) = before.rsplit_once(' ')?;
    let n = n.parse::<u32>().ok()?;
    if !(how.ends_with(" with") || how.ends_with(" using")) {
        return None;
    }
    // The keyword's own text, read by the keyword table.
    let kind = Arena::from_word(arena)?.attacked_with();
    w.kw(parse(&format!("{} {n}", kind.name())).ok()?.keyword)
}

/// "THIS can't be intercepted", "Your units can't be intercepted" (this
/// unit among them): Precision.
fn not_intercepted(w: &Wk) -> Option<Draft> {
    let who = w.l.strip_suffix(" can't be intercepted")?;
    [
        "this",
        "this unit",
        "your units",
        "each of your units",
        "units you control",
    ]
    .contains(&who)
    .then(|| w.kw(Keyword::Precision))
    .flatten()
}

/// "Damage from THIS can't be prevented": Ferocity.
fn unpreventable(w: &Wk) -> Option<Draft> {
    let said = [
        "damage from this can't be prevented",
        "damage from this's attack can't be prevented",
        "damage from this unit's attack can't be prevented",
        "damage from this's attacks can't be prevented",
        "this's attacks can't be prevented",
        "this's damage can't be prevented",
    ]
    .contains(&w.l.as_str());
    if w.cost.is_none() && said {
        return w.kw(Keyword::Ferocity);
    }
    None
}

/// "Add 1 to each of THIS's attack dice": Accuracy.
fn dice_added(w: &Wk) -> Option<Draft> {
    for (pre, sign) in [("add ", 1), ("subtract ", -1)] {
        if let Some(r) = w.l.strip_prefix(pre)
            && let Some((n, rest)) = r.split_once(' ')
            && (rest == "to each of this's attack dice"
                || rest == "from each of this's attack dice")
            && let Ok(n) = n.trim_start_matches('+').parse::<i32>()
        {
            return w.kw(Keyword::Accuracy(sign * n));
        }
    }
    None
}

/// "Treat THIS as a Dark Jedi" / "as if her name is Queen Amidala".
fn treat_as(w: &Wk) -> Option<Draft> {
    let r = w.l.strip_prefix("treat this as ")?;
    let words = r
        .trim_start_matches("if her name is ")
        .trim_start_matches("if his name is ")
        .trim_start_matches("a ")
        .trim_start_matches("an ");
    let start = w.marked.len() - words.len();
    let words = w.marked[start..].trim_end_matches('.').to_string();
    Some(w.own(When::Any, Effect::TreatAs { words }))
}

/// Overload written out: "When THIS attacks, you may give it +3 power for
/// that attack. If you do, THIS does 2 damage to itself when the attack
/// ends." (it, him or her). Paid in damage counters put on itself instead
/// ("put 2 damage counters on THIS when the attack ends"), it is read and
/// named, but not modelled: counters are not damage, and the engine's
/// option pays in damage.
fn overload(w: &Wk) -> Option<Draft> {
    let l = &w.l;
    let r = [
        "when this attacks, you may give ",
        "whenever this attacks, you may give ",
    ]
    .iter()
    .find_map(|lead| l.strip_prefix(lead))?;
    let r = ["it +", "him +", "her +", "this +"]
        .iter()
        .find_map(|who| r.strip_prefix(who))?;
    let (n, rest) = r.split_once(" power")?;
    let power = n.parse::<u32>().ok()?;
    let counters = rest.find("put ").is_some_and(|i| {
        let t = &rest[i..];
        t.contains(" damage counter")
            && [
                " on this when the attack ends",
                " on itself when the attack ends",
            ]
            .iter()
            .any(|end| t.trim_end_matches('.').ends_with(end))
    });
    if counters {
        return Some(Draft::unmodelled(
            w.printed,
            "an option before the roll paid in damage counters on itself when the attack ends",
        ));
    }
    let i = rest.find("does ")?;
    let (m, tail) = rest[i + 5..].split_once(' ')?;
    let dice = tail.starts_with("dice of damage");
    let self_damage = m.parse::<u32>().ok()?;
    let to_itself = (tail.starts_with("damage to") || dice)
        && (tail.contains("itself") || tail.contains("to this"));
    to_itself.then(|| {
        let mut a = w.own(
            When::Attacking,
            Effect::Overload {
                power,
                self_damage,
                dice,
            },
        );
        a.cost = w.cost.clone();
        a
    })
}

/// "Whenever THIS attacks, you may roll only half of the attack dice
/// (rounded up) instead. If you do, gain 3 Force."
fn half_dice(w: &Wk) -> Option<Draft> {
    let l = &w.l;
    let lead = l.starts_with("whenever this attacks, you may roll only half of the attack dice")
        || l.starts_with("when this attacks, you may roll only half of the attack dice");
    let i = l.find("gain ").filter(|_| lead)?;
    let force = l[i + 5..].split(' ').next()?.parse::<u32>().ok()?;
    l[i + 5..]
        .contains("force")
        .then(|| w.own(When::Attacking, Effect::HalfDice { force }))
}

/// "Whenever THIS attacks and does no damage, put 1 damage counter on
/// THIS": counters it must put on itself, which the engine does not model
/// (the optional kind is Consolation).
fn no_damage_counters(w: &Wk) -> Option<Draft> {
    let lead = [
        "whenever this attacks and does no damage, put ",
        "whenever this attacks but does no damage, put ",
    ]
    .iter()
    .any(|lead| w.l.starts_with(lead));
    (lead && w.l.ends_with(" on this")).then(|| {
        Draft::unmodelled(
            w.printed,
            "damage counters on itself when its attack does no damage",
        )
    })
}

/// "Whenever THIS attacks but does no damage, you may put 1 damage counter
/// on THIS. If you do, put 2 damage counters on the defending unit."
fn consolation(w: &Wk) -> Option<Draft> {
    let r =
        w.l.strip_prefix("whenever this attacks but does no damage, you may put ")?;
    let (own, rest) = r.split_once(" damage counter")?;
    let own = own.parse::<u32>().ok()?;
    let i = rest.find("if you do, put ")?;
    let (d, tail) = rest[i + 15..].split_once(" damage counter")?;
    let defender = d.parse::<u32>().ok()?;
    tail.contains("on the defending unit")
        .then(|| w.own(When::Attacking, Effect::Consolation { own, defender }))
}

/// "Roll THIS's attack dice secretly": Cunning.
fn cunning(w: &Wk) -> Option<Draft> {
    w.l.starts_with("roll this's attack dice secretly")
        .then(|| {
            let ab = Ability {
                keyword: Keyword::Cunning,
                cost: None,
                x: false,
            };
            keyword(w.printed, ab, None)
        })
}

/// "When THIS attacks, predict the number of hits you'll roll": Foresight.
fn foresight(w: &Wk) -> Option<Draft> {
    let l = &w.l;
    let lead = l.starts_with("when this attacks, predict the number of hits")
        || l.starts_with("whenever this attacks, predict the number of hits");
    let i = l.find("if you're correct, ").filter(|_| lead)?;
    let effect = w.marked[i + "if you're correct, ".len()..]
        .trim_end_matches('.')
        .to_string();
    w.kw(Keyword::Foresight(effect))
}

/// "When your opponent rolls one or more dice in an attack on THIS, you may
/// reroll any of those dice": Lucky on every die.
fn lucky_on_every_die(w: &Wk) -> Option<Draft> {
    let l = &w.l;
    if l.starts_with("when your opponent rolls")
        && l.contains("attack on this")
        && l.contains("reroll any")
    {
        return w.kw(Keyword::Lucky(swtcg_engine::unit::MAX_EXTRA_DICE));
    }
    None
}

/// The word a `Switch:` list starts with.
pub(super) const SWITCH: &str = "Switch";

/// `Switch: a/b(/c)`: each arena of the type line gets its effects.
pub(super) fn switch(printed: &str, rest: &str) -> Draft {
    let mut a = Draft::new(printed, Class::Condition);
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
                // A mode written as an ability of its own (`Each of your
                // other Jedi gets +1 power`): its effects on this unit, or
                // none when it acts on other units only.
                if super::holds_unknown_keyword(mode) {
                    return Draft::not_understood(printed, &why);
                }
                let m = classify_draft(mode, &Who::named("this unit"));
                match m.class {
                    Class::NotAttack => a.switch.push((format!("{}", i + 1), Vec::new())),
                    // A mode with its own cost (`Switch: Riposte 2/Pay 1
                    // Force -> Retaliate 3`): the arrow is the mode's, and
                    // its keyword carries the cost (charged with the
                    // Switch's reading, `body::charge_effects`).
                    Class::Keyword if m.subject == Some(Subject::This) => {
                        a.switch.push((format!("{}", i + 1), m.effects))
                    }
                    Class::Unmodelled => {
                        let why = m.keyword.unwrap_or_default();
                        return Draft::unmodelled(printed, &why);
                    }
                    _ => return Draft::not_understood(printed, &why),
                }
            }
        }
    }
    a.situation = Some(Situation::Other {
        text: "the arena of the attack (Switch)".into(),
    });
    a
}

/// "Once per attack, you may reroll one of THIS's attack dice": Lucky 1
/// ("up to 2 of": Lucky 2; "his", "her", "its" dice; "THIS may reroll").
/// "When THIS attacks, you may reroll 1 of his attack dice" is Lucky 1
/// when it attacks only: a condition decided by its role.
fn reroll_own_dice(w: &Wk) -> Option<Draft> {
    let mut l = w.l.as_str();
    let mut attacking = false;
    for p in ["when this attacks, ", "whenever this attacks, "] {
        if let Some(r) = l.strip_prefix(p) {
            l = r;
            attacking = true;
        }
    }
    let l = ["once per attack, ", "once per turn, "]
        .iter()
        .find_map(|p| l.strip_prefix(p))
        .unwrap_or(l);
    let l = [
        "once per attack",
        "once per turn",
        "for that attack",
        "for this attack",
        "once",
    ]
    .iter()
    .find_map(|s| l.strip_suffix(s).map(str::trim_end))
    .unwrap_or(l);
    let r = ["you may reroll ", "this may reroll ", "reroll "]
        .iter()
        .find_map(|p| l.strip_prefix(p))?;
    let r = [
        " of this's attack dice",
        " of his attack dice",
        " of her attack dice",
        " of its attack dice",
        " of the attack dice",
        " attack dice",
    ]
    .iter()
    .find_map(|s| r.strip_suffix(s))?;
    let n = match r.trim_start_matches("up to ") {
        // Every die it rolled.
        "any number of" | "any of" | "all of" => swtcg_engine::unit::MAX_EXTRA_DICE,
        "one" | "1" => 1,
        "two" | "2" => 2,
        "three" | "3" => 3,
        n => n.parse::<u32>().ok()?,
    };
    let mut a = w.kw(Keyword::Lucky(n))?;
    if attacking {
        a.class = Class::Condition;
        a.when = Some(When::Attacking);
        a.decidable = Some(true);
    }
    Some(a)
}
