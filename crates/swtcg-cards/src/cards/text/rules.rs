//! The reader's named rules. Each rule is one entry of [`RULES`]: its
//! name, what it reads, what it gives, and the texts it was written for
//! (every example is read by `cargo test`, and must be read by its rule).
//!
//! Two stages: *whole-text* rules look at the ability as a whole (a
//! keyword, `Switch:`, a keyword in words, ...), in the table's order, and
//! the first that reads it gives its reading; otherwise the ability is read
//! *clause by clause* (`body.rs`), each clause by the first clause
//! rule that reads it (a grant, a prevention, damage, ...). A reading says
//! which rule gave it ([`ReadAbility::rule`]) and, clause by clause, how
//! each clause was read ([`ReadAbility::clauses`]): `cards find --explain`
//! shows both.

use super::{
    Ability, Class, Clause, ClauseNote, Cost, Count, Draft, Effect, Keyword, NOT_ATTACK_KEYWORDS,
    ReadAbility, Situation, Subject, UNMODELLED_KEYWORDS, When, Who, XSource, XTerm,
    classify_draft, gets, has_attack_word, is_restriction, keyword, non_attack_clause, parse,
    quote_short, read_cost, read_count, self_names, sentences, split_cost, split_top,
    starts_with_keyword, starts_with_word, strip_prefix_ci, switch, title, top_level_find,
    without_duration, worded_keyword,
};

/// One ability's text, prepared once for the rules: the printed text,
/// the text without reminders, with the unit's own names marked `THIS`,
/// its sentences, and its first sentence's cost and effect.
pub(super) struct Ctx<'w> {
    /// As printed.
    pub(super) printed: String,
    /// Reminders removed, ASCII, quotes straightened.
    pub(super) clean: String,
    /// `clean` with the unit's names as `THIS`.
    pub(super) marked: String,
    /// `marked`, lowercase.
    pub(super) lower: String,
    /// How the text names its unit.
    pub(super) who: &'w Who,
    /// Its sentences (list items kept with the sentence they belong to).
    pub(super) sents: Vec<String>,
    /// The first sentence's cost, as written.
    pub(super) cost_text: Option<String>,
    /// The first sentence's effect (after the cost).
    pub(super) effect: String,
    /// The cost, read.
    pub(super) cost: Option<Cost>,
}

impl<'w> Ctx<'w> {
    pub(super) fn new(printed: &str, clean: &str, who: &'w Who) -> Ctx<'w> {
        let own = &who.names;
        let marked = super::lex::mark(
            clean,
            &super::lex::Names {
                own,
                others: &who.others,
            },
        )
        .replace(" also gets ", " gets ")
        .replace(" also gets:", " gets:")
        .replace("the THIS", "THIS")
        .replace("The THIS", "THIS");
        let marked = opponents_pronoun(&marked);
        let marked = marked.trim().trim_end_matches([',', '.']).to_string();
        // List items ("* 2: Accuracy 1") belong to the sentence before them.
        let mut sents: Vec<String> = Vec::new();
        for s in sentences(&marked) {
            match sents.last_mut() {
                Some(last)
                    if s.trim_start().starts_with('*') && last.trim_end().ends_with(':')
                        || s.trim_start().starts_with("* ") && last.contains(": *") =>
                {
                    last.push_str(". ");
                    last.push_str(&s);
                }
                // A slash list's next item after a period (`Adapt: Each of
                // your Jedi gets +1 power. / Evade 2`).
                Some(last) if s.trim_start().starts_with('/') => {
                    last.push(' ');
                    last.push_str(&s);
                }
                _ => sents.push(s),
            }
        }
        let first = sents.first().cloned().unwrap_or_default();
        let first = ["once per turn, ", "once per attack, ", "once each turn, "]
            .iter()
            .find_map(|p| strip_prefix_ci(&first, p))
            .unwrap_or(&first)
            .to_string();
        let (cost_text, effect) = split_cost(first.trim_end_matches('.'));
        Ctx {
            printed: printed.to_string(),
            clean: clean.to_string(),
            lower: marked.to_ascii_lowercase(),
            marked,
            who,
            sents,
            cost_text: cost_text.map(str::to_string),
            effect: effect.to_string(),
            cost: cost_text.map(read_cost),
        }
    }

    /// Whether the sentences after the first are all restrictions ("Play
    /// only ..."), so that the first can be read as a whole.
    fn one_sentence(&self) -> bool {
        self.sents.len() <= 1
            || self.sents[1..]
                .iter()
                .all(|s| is_restriction(&s.to_ascii_lowercase()))
    }

    /// The first sentence as a keyword would be written (`COST -> EFFECT`).
    fn keyword_text(&self) -> String {
        match &self.cost_text {
            Some(c) => format!("{c} -> {}", self.effect),
            None => self.effect.clone(),
        }
    }
}

/// The stage a rule belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reads the ability as a whole.
    Whole,
    /// Reads one clause of a sentence (`body.rs`).
    Clause,
}

/// A named rule of the card language.
pub struct Rule {
    /// Its name, as `--explain` and `cards check` show it.
    pub name: &'static str,
    /// Whole text or clause.
    pub stage: Stage,
    /// What it reads, in words.
    pub reads: &'static str,
    /// What it gives.
    pub gives: &'static str,
    /// Texts it was written for, as abilities of a unit named `Rex`
    /// (a Clone Trooper).
    pub examples: &'static [&'static str],
    /// The rule itself (whole-text rules; clause rules run in
    /// `body.rs`).
    pub(super) read: Option<fn(&Ctx) -> Option<Draft>>,
}

/// Every rule, whole-text rules first, in the order they are tried.
pub static RULES: &[Rule] = &[
    Rule {
        name: "pilot",
        stage: Stage::Whole,
        reads: "`[Pilot] KIND Pilot. The KIND gets: ...` (read before every other rule)",
        gives: "a pilot grant: the kinds it fits, and the piloted unit's abilities",
        examples: &[
            "[Pilot] Starfighter Pilot. The Starfighter gets +1 power.",
            "[Pilot] Starfighter Pilot. The Starfighter gets: Evade 1.",
        ],
        read: None,
    },
    Rule {
        name: "switch",
        stage: Stage::Whole,
        reads: "`Switch: a/b(/c)`, one mode per arena of the type line",
        gives: "a condition with each arena's effects",
        examples: &["Switch: Accuracy 1/Evade 1", "Switch: +2 power/Armor/None"],
        read: Some(|c| {
            strip_prefix_ci(&c.marked, super::keyword::SWITCH)
                .and_then(|r| r.strip_prefix(':'))
                .map(|r| switch(&c.printed, r))
        }),
    },
    Rule {
        name: "keyword-outside-attacks",
        stage: Stage::Whole,
        reads: "a glossary keyword that acts outside attacks (Stealth, Hidden Cost, Upkeep, ...); a Stack list",
        gives: "not-attack with the keyword's reason (a Stack list: a keyword, stacks are built from it)",
        examples: &[
            "Hidden Cost 4",
            "Stealth",
            "Upkeep 1",
            "Pay 1 Force -> Damage Control 2",
        ],
        read: Some(keyword_outside_attacks),
    },
    Rule {
        name: "unmodelled-keyword",
        stage: Stage::Whole,
        reads: "a glossary keyword the engine does not model",
        gives: "unmodelled, with the keyword",
        examples: &["Consume 2", "Pay 1 Force -> Consume 1"],
        read: Some(|c| {
            let l = c.effect.to_ascii_lowercase();
            UNMODELLED_KEYWORDS
                .iter()
                .find(|k| starts_with_word(&l, &k.to_ascii_lowercase()))
                .map(|k| {
                    let mut a = Draft::unmodelled(&c.printed, k);
                    a.cost = c.cost.clone();
                    a
                })
        }),
    },
    Rule {
        name: "keyword",
        stage: Stage::Whole,
        reads: "a keyword as the keyword table writes it, free or paid (`Pay 2 Force -> Evade 2`, `Tap -> Protect 1`, `Put 1 damage counter on THIS -> Evade 2`)",
        gives: "a keyword of the unit",
        examples: &[
            "Critical Hit 2",
            "Pay 2 Force -> Evade 2",
            "Put 1 damage counter on Rex -> Evade 2",
            "Pay 2 Force -> Shields 2 until end of turn.",
            "Foresight: Choose a Location. Gain X Force, where X is the chosen Location's build cost.",
        ],
        read: Some(|c| {
            // A keyword whose value is a text (`Foresight: Look at ...
            // Your opponent shuffles.`) takes every sentence after it.
            let el = c.effect.to_ascii_lowercase();
            if !c.one_sentence() && (el.starts_with("foresight:") || el.starts_with("forewarning:"))
            {
                let whole = c.marked.trim_end_matches('.');
                let at = whole.to_ascii_lowercase().find(&el[..el.find(':')?])?;
                let ab = parse(&whole[at..].replace("THIS", "this unit")).ok()?;
                return Some(keyword(&c.printed, ab, c.cost.clone()));
            }
            if !c.one_sentence() {
                return None;
            }
            // A duration after the keyword (`Pay 2 Force -> Shields 2 until
            // end of turn`): it lasts through the attack it is paid for.
            let text = c.keyword_text().replace("THIS", "this unit");
            let (text, _) = without_duration(&text);
            let ab = parse(text).ok()?;
            Some(keyword(&c.printed, ab, c.cost.clone()))
        }),
    },
    Rule {
        name: "keyword-with-rider",
        stage: Stage::Whole,
        reads: "a keyword followed by `, and` an effect outside attacks (`Pay 0 Force -> Retaliate 2, and each player loses 1 Force`)",
        gives: "the keyword; the rider is noted as not-attack",
        examples: &[
            "Pay 0 Force -> Retaliate 2, and each player loses 1 Force.",
            "Pay 1 Force -> Evade 1 and draw a card.",
        ],
        read: Some(keyword_with_rider),
    },
    Rule {
        name: "keyword-list",
        stage: Stage::Whole,
        reads: "several keywords for one cost (`Pay 2 Force -> Critical Hit 2 and Fury 1`; `and/or`: both; `or`: one of them)",
        gives: "what `THIS gets K1 and K2` gives: the keywords, paid once (with `or`, a choice)",
        examples: &[
            "Pay 2 Force -> Critical Hit 2 and Fury 1",
            "Pay 1 Force -> Accuracy 1, Evade 1 and Shields 1.",
            "Pay 2 Force -> Absorb 1 and/or Persuade 1",
            "Pay 2 Force -> Evade 2 or Protect 2",
        ],
        read: Some(keyword_list),
    },
    Rule {
        name: "keyword-x",
        stage: Stage::Whole,
        reads: "a keyword with X and `where X is ...` or `where X equals ...` (`Pay 2 Force -> Evade X, where X is the number of cards in your hand`); the X may be left out after the keyword (`Retaliate, where X equals ...`); a number printed from X (`X+1`, `X times 2`) with X counted or given, for any keyword and cost; with X the Force paid, a cumulative keyword's X plus a number, without a cost or with a cost of X (`Pay X Force -> Evade X+1`); X paid in something other than Force (`Remove X counters from your Resource -> Absorb X`), given by the user",
        gives: "the keyword, X counted by the cards, given by the user or paid; a number printed from a counted or given X worked out once X is known; X the Force paid plus a number as the keyword with that number beside the keyword with X",
        examples: &[
            "Evade X, where X is the number of damage counters on Rex.",
            "Pay 2 Force -> Critical Hit X, where X is the number of cards in your hand.",
            "Pay 2 Force -> Retaliate, where X equals the number of Wookiees in the Ground arena.",
            "Pay X Force -> Evade X+1",
            "Tenacity X +1, where X is the number of damage counters on Rex.",
            "Pay 2 Force -> Retaliate X+1, where X is the number of Wookiees in this arena.",
            "Barrage X times 2, where X is the number of cards in Rex's stack.",
            "Remove X counters from your Resource -> Absorb X",
        ],
        read: Some(keyword_x),
    },
    Rule {
        name: "stats-set-by-text",
        stage: Stage::Whole,
        reads: "`Its power and health equal ...`: the stats the card prints as *",
        gives: "the stats from a count the two units decide (its stack, its counters, the units of the attack); else a note: the user gives the stats",
        examples: &[
            "Rex's power is equal to the number of cards in your hand.",
            "Rex's power and health are each equal to the number of Clones in the Ground arena.",
            "Rex's power is equal to the number of cards in his stack.",
        ],
        read: Some(|c| {
            let l = &c.lower;
            let sets = (l.starts_with("this's power")
                || l.starts_with("this's speed, power")
                || l.starts_with("this's health"))
                && (l.contains(" equal") || l.contains(" is ") || l.contains(" are "));
            sets.then(|| {
                let mut a = Draft::new(&c.printed, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(When::Any);
                let head = l.split(" equal").next().unwrap_or(l);
                let per = l
                    .find(" equal to ")
                    .and_then(|i| read_count(l[i + " equal to ".len()..].trim_end_matches('.')));
                match per {
                    Some(per) => a.effects.push(Effect::StatsFrom {
                        power: head.contains("power"),
                        health: head.contains("health"),
                        per,
                    }),
                    None => {
                        a.note = Some(
                            "it sets the stats printed as * from what the two units can't count: give them as NAME[power=N,health=N]"
                                .into(),
                        )
                    }
                }
                a
            })
        }),
    },
    Rule {
        name: "from-inside-a-stack",
        stage: Stage::Whole,
        reads: "`While this card is stacked under X, ...`, `As long as this card is in X's stack, ...`",
        gives: "the rest, read for the stack's top card, as INSERT text",
        examples: &[
            "While this card is stacked under Qui-Gon Jinn, Qui-Gon gets +1 power.",
            "As long as this card is in Ferus's stack, Ferus gets Evade 1.",
        ],
        read: Some(from_inside_a_stack),
    },
    Rule {
        name: "pilotable-as",
        stage: Stage::Whole,
        reads: "`THIS gets the abilities granted by those Pilots as if THIS were a Starfighter`",
        gives: "a keyword: those pilots' grants reach it",
        examples: &[
            "Rex gets the abilities granted by those Pilots as if Rex were a Starfighter.",
            "Rex gets the abilities granted by those Pilots as if Rex were a Transport.",
        ],
        read: Some(|c| {
            let r = c.lower.strip_prefix(
                "this gets the abilities granted by those pilots as if this were a ",
            )?;
            let mut a = Draft::new(&c.printed, Class::Keyword);
            a.subject = Some(Subject::This);
            a.when = Some(When::Any);
            a.effects.push(Effect::PilotableAs {
                kind: title(r.trim_start_matches("n ").trim_end_matches('.')),
            });
            Some(a)
        }),
    },
    Rule {
        name: "piloted-by",
        stage: Stage::Whole,
        reads: "`THIS can (only) be piloted by ...`",
        gives: "not-attack: which pilots it takes",
        examples: &[
            "Rex can be piloted by Clone Pilots.",
            "Rex can only be piloted by Jedi.",
        ],
        read: Some(|c| {
            (c.lower.starts_with("this can be piloted by ")
                || c.lower.starts_with("this can only be piloted by "))
            .then(|| Draft::not_attack(&c.printed, "which pilots it takes"))
        }),
    },
    Rule {
        name: "prevent-all-to-and-from",
        stage: Stage::Whole,
        reads: "`Prevent all damage to and from THIS`",
        gives: "a keyword: all damage to it prevented (Evade to the bound), all damage from it prevented",
        examples: &[
            "Prevent all damage to and from Rex.",
            "Prevent all damage to and from Rex",
        ],
        read: Some(|c| {
            (c.lower == "prevent all damage to and from this").then(|| {
                let ab = Ability {
                    keyword: Keyword::Evade(swtcg_engine::unit::MAX_VALUE),
                    cost: None,
                    x: false,
                };
                let mut a = Draft::new(&c.printed, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(When::Any);
                a.effects.push(Effect::Keyword {
                    text: ab.to_string(),
                    ability: ab,
                });
                a.effects.push(Effect::Harmless);
                a
            })
        }),
    },
    Rule {
        name: "others-damaged-trigger",
        stage: Stage::Whole,
        reads: "`Whenever another unit would be damaged, ...`",
        gives: "not-attack: it acts on other units' damage",
        examples: &[
            "Whenever one of your other units would be damaged, prevent 1 of that damage.",
            "Whenever another Clone would be damaged, you may put that damage on Rex instead.",
        ],
        read: Some(|c| {
            let r = c
                .lower
                .strip_prefix("whenever ")
                .or_else(|| c.lower.strip_prefix("when "))?;
            let (who, _) = r.split_once(" would be damaged")?;
            (who.starts_with("one of your other")
                || who.starts_with("another")
                || (!who.contains("this")
                    && !who.starts_with("one of your")
                    && !who.starts_with("a ")))
            .then(|| Draft::not_attack(&c.printed, "it acts when another unit would be damaged"))
        }),
    },
    Rule {
        name: "no-intercept",
        stage: Stage::Whole,
        reads: "`As long as THIS is being attacked, Intercept abilities can't be activated`",
        gives: "a keyword: no Intercept while it is attacked",
        examples: &[
            "As long as Rex is being attacked, Intercept abilities can't be activated.",
            "While Rex is being attacked, Intercept abilities can't be activated.",
        ],
        read: Some(|c| {
            let l = &c.lower;
            ((l.starts_with("as long as this is being attacked")
                || l.starts_with("while this is being attacked"))
                && l.contains("intercept")
                && l.contains("can't be activated"))
            .then(|| {
                let mut a = Draft::new(&c.printed, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(When::Defending);
                a.effects.push(Effect::NoIntercept);
                a
            })
        }),
    },
    Rule {
        name: "keyword-in-words",
        stage: Stage::Whole,
        reads: "a keyword written in words (`Damage from THIS can't be prevented`, `Add 1 to each of THIS's attack dice`, `Treat THIS as a Jedi`, ...)",
        gives: "the keyword",
        examples: &[
            "Damage from Rex can't be prevented.",
            "Add 1 to each of Rex's attack dice.",
            "Whenever Rex attacks and does no damage (after damage prevention), put 1 damage counter on Rex.",
            "Rex's attacks can't be prevented.",
            "Once per attack, you may reroll one of Rex's attack dice.",
            "When Rex attacks, you may reroll 1 of his attack dice.",
            "Rex can't be intercepted.",
            "Your units can't be intercepted.",
            "Rex may reroll up to 2 of his attack dice once per attack.",
        ],
        read: Some(|c| worded_keyword(&c.printed, &c.marked, c.cost.clone())),
    },
    Rule {
        name: "grant",
        stage: Stage::Clause,
        reads: "`SUBJECT gets GRANTS [as long as S] [for this attack]`, `SUBJECT loses K`",
        gives: "a keyword or a condition with its subject, situation and effects",
        examples: &[
            "Rex gets +2 power as long as he's attacking a Jedi.",
            "The defending unit loses Shields and Armor during that attack.",
            "When Rex attacks, the defending unit can't use Evade for that attack.",
            "When Rex is attacked by a Jedi, Rex gets Parry 2 for that attack.",
            "Rex gets Critical Hit 2 and Accuracy 1 as long as he is attacking a Sith.",
            "Each unit your opponent controls gets -1 power as long as it's attacking Rex.",
            "Pay 2 Force -> The defending unit loses all abilities for this attack.",
            "Rex gets Stun 2 as long as he has 1 or more damage counters on him.",
            "Once per turn, Pay 1 Force -> Rex gets Accuracy 2 for this attack.",
            "Pay 3 Force -> Rex gets Critical Hit 3 for this attack. Play only if Rex is attacking a unique unit.",
            "Rex gets Evade 2 while defending.",
            "Rex gets +1 power for each card stacked under him.",
            "Rex gets +3 power as long as it's piloted by a Jedi.",
            "Rex gets +2 power while attacking or defending against a Jedi.",
            "Rex gets Parry 2 while defending against a Sith.",
            "Each of your opponent's units attacking Rex gets -1 power for each damage counter on it.",
            "While Rex is defending, he gets Parry 2.",
            "Rex has Critical Hit 2 as long as he is attacking a Jedi.",
            "Pay 2 Force -> Rex gets Critical Hit X and Fury X for this attack, where X is the number of cards in his stack.",
            "Rex gets Critical Hit 1 for each Jedi your opponent has in the Character arena.",
            "Rex gets +2 power if he is attacking a Droid.",
            "Rex gets +2 power for this attack if the defending unit has Stealth.",
        ],
        read: None,
    },
    Rule {
        name: "prevention",
        stage: Stage::Clause,
        reads: "`prevent up to N damage to ...`, `prevent all but N of that damage`",
        gives: "an Evade-like keyword or condition (a cap: unmodelled)",
        examples: &[
            "Pay 1 Force -> Prevent up to 3 damage to Rex.",
            "Whenever Rex would be damaged, prevent all but 1 of that damage.",
            "Rex can't be damaged by Droids.",
            "Prevent all damage to Rex from Droids.",
        ],
        read: None,
    },
    Rule {
        name: "damage",
        stage: Stage::Clause,
        reads: "damage done, prevented on a condition, or counters put (`put 2 damage counters on the defending unit`, `prevent that damage unless your opponent pays 2 Force`)",
        gives: "extra damage, counters, or a consolation",
        examples: &[
            "When one of your opponent's Characters would damage Rex, prevent that damage unless your opponent pays 2 Force.",
            "Pay 2 Force -> Put 1 damage counter on the defending unit. Play only when Rex is attacking.",
            "Pay 2 Force -> Put 1 damage counter on each unit attacking Rex.",
            "When Rex attacks, he does 2 more damage.",
            "Rex deals 2 more damage while attacking a Droid.",
            "Rex's attacks do 1 additional damage.",
            "Damage from Rex can't be prevented by Evade.",
            "Pay 4 Force -> Rex does 3 dice of damage to a Jedi in the Character arena.",
            "Rex can't be discarded by damage during the battle step.",
            "When Rex is attacked, you may pay 1 Force. If you do, the attack is cancelled.",
        ],
        read: None,
    },
    Rule {
        name: "unmodelled-family",
        stage: Stage::Whole,
        reads: "(after the clauses) an ability no other rule read whole, whose words show a family of effects the engine does not model (a die rolled for an effect, an attack that ends or is redirected, X+1, another card's abilities, counters put during an attack, part of the damage prevented, ...: see `UNMODELLED_FAMILIES`)",
        gives: "unmodelled, named by the family (not-attack when it happens outside attacks)",
        examples: &[
            "Whenever Rex attacks, roll a die. If you roll a 6, Rex gets Double Strike until the second attack ends.",
            "Whenever one of your Jedi is attacked, you may pay 1 Force. If you do, have the attacking unit attack Rex instead.",
            "Pay X Force -> Rex gets Overload X+2 for this attack.",
        ],
        read: None,
    },
    Rule {
        name: "copied-text",
        stage: Stage::Clause,
        reads: "`THIS gets the (subtype and) ability text of that card`, `THIS gains the game text of that card`",
        gives: "unmodelled: another card's abilities, picked in play",
        examples: &[
            "Pay 2 Force -> Search your opponent's deck for a Character card. Rex gets the subtype and ability text of that card until end of turn.",
            "When your build step starts, you may search your deck for a Character unit card. If you do, put that card beneath Rex. Rex gains the game text of that card until end of turn.",
        ],
        read: None,
    },
];

/// The rule named `name`.
pub fn rule(name: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.name == name)
}

/// A glossary keyword that acts outside attacks; a Stack list is kept.
fn keyword_outside_attacks(c: &Ctx) -> Option<Draft> {
    // The keyword leads the text, or its effect after a cost (`Pay 1 Force
    // -> Damage Control 2`).
    let (k, why) = NOT_ATTACK_KEYWORDS.iter().find(|(k, _)| {
        starts_with_keyword(&c.marked, k) || (c.cost.is_some() && starts_with_keyword(&c.effect, k))
    })?;
    if *k == "stack"
        && let Ok(ab) = parse(&c.clean)
    {
        return Some(keyword(&c.printed, ab, None));
    }
    Some(Draft::not_attack(
        &c.printed,
        &format!("{}: {why}", title(k)),
    ))
}

/// `Pay 0 Force -> Retaliate 2, and each player loses 1 Force`: the
/// keyword, and a rider outside attacks.
fn keyword_with_rider(c: &Ctx) -> Option<Draft> {
    if !c.one_sentence() {
        return None;
    }
    let text = c.keyword_text();
    for sep in [", and ", " and ", ", then ", ". "] {
        let Some(at) = top_level_find(&text.to_ascii_lowercase(), sep) else {
            continue;
        };
        let (k, rider) = (&text[..at], text[at + sep.len()..].trim());
        let rider_l = rider.to_ascii_lowercase();
        let outside = non_attack_clause(&rider_l)
            || (!has_attack_word(&rider_l) && !rider_l.contains("damage"));
        if !outside {
            continue;
        }
        if let Ok(ab) = parse(&k.replace("THIS", "this unit")) {
            let mut a = keyword(&c.printed, ab, c.cost.clone());
            a.note = Some(format!("'{}': not part of an attack", quote_short(rider)));
            return Some(a);
        }
    }
    None
}

/// `Pay 2 Force -> Evade X, where X is ...`; a cumulative keyword's X plus
/// a number (`Pay X Force -> Evade X+1`, `Tenacity X+1, where X is ...`).
fn keyword_x(c: &Ctx) -> Option<Draft> {
    if !c.one_sentence() {
        return None;
    }
    let text = c.keyword_text();
    let parts = split_top(
        &text,
        &[
            ", where x is equal to ",
            ", where x equals ",
            ", where x is ",
            " where x is equal to ",
            " where x equals ",
            " where x is ",
        ],
    );
    let (k, x) = parts.split_first()?;
    if x.len() > 1 {
        return None;
    }
    let (k, term) = x_term(k).unwrap_or((k.to_string(), XTerm::X));
    // X set by a cost the user pays in something other than Force
    // (`Remove X counters from your Resource -> Absorb X`): X is the
    // user's, as the amount paid.
    let user_cost_x = term.is_x()
        && x.is_empty()
        && c.cost.as_ref().is_some_and(|k| !k.x && k.force.is_none())
        && c.cost_text.as_deref().is_some_and(|t| {
            t.split(|ch: char| !ch.is_ascii_alphanumeric())
                .any(|w| w == "X" || w == "x")
        });
    if user_cost_x {
        let ab = swtcg_engine::keywords::parse_with_x(&c.effect)
            .ok()
            .filter(|ab| ab.x && ab.cost.is_none())?;
        let mut a = keyword(&c.printed, ab, c.cost.clone());
        a.class = Class::Condition;
        a.x = Some(XSource::USER);
        a.situation = Some(Situation::Other {
            text: "X is given by the user (=N), as paid".into(),
        });
        a.decidable = Some(false);
        return Some(a);
    }
    if x.is_empty() && term.is_x() {
        // `Pay X Force -> Evade X`: the keyword rule's.
        return None;
    }
    // The X may be left out after the keyword it is the number of
    // (`Retaliate, where X equals ...`).
    let ab = swtcg_engine::keywords::parse_with_x(&k)
        .ok()
        .filter(|ab| ab.x)
        .or_else(|| {
            swtcg_engine::keywords::parse_with_x(&format!("{k} X"))
                .ok()
                .filter(|ab| ab.x)
        })?;
    let Some(x) = x.first() else {
        // X is the Force paid, plus a number: the keyword with the number
        // beside the keyword with X, which add up as two printed copies of
        // a cumulative keyword do (Evade 1 and `Pay X Force -> Evade X`
        // prevent together what `Evade X+1` does, for X Force). Only
        // without a cost or with a cost of X (a fixed cost would be
        // charged for both), and not X times a number.
        let x_cost = ab.cost.as_ref().is_some_and(|c| c.x);
        if term.times != 1 || !ab.keyword.cumulative() || (ab.cost.is_some() && !x_cost) {
            return None;
        }
        let fixed = swtcg_engine::keywords::Ability {
            keyword: ab.keyword.with_number(term.plus),
            cost: None,
            x: false,
        };
        let mut a = keyword(&c.printed, ab, c.cost.clone());
        a.effects.insert(
            0,
            Effect::Keyword {
                text: fixed.to_string(),
                ability: fixed,
            },
        );
        return Some(a);
    };
    // X counted by the cards or given by the user: the number printed
    // from it (`X+1`, `X times 2`) is worked out when X is known, for any
    // keyword and any cost.
    let mut a = keyword(&c.printed, ab, c.cost.clone());
    match read_count(x) {
        Some(per) => a.x = Some(XSource::Count { per, term }),
        None => {
            a.class = Class::Condition;
            a.x = Some(XSource::User { term });
            a.situation = Some(Situation::Other {
                text: "X is given by the user (=N)".into(),
            });
            a.decidable = Some(false);
        }
    }
    Some(a)
}

/// The number an ability's effect prints from X (`Evade X+1`, `X +1`, `X +
/// 1`, `Barrage X times 2`, `Tenacity X+1 until end of turn`): the text
/// with X alone, and the number. Only in the effect (after a cost's
/// arrow), and only one: `None` for X alone, or for two.
pub(super) fn x_term(text: &str) -> Option<(String, XTerm)> {
    let from = text.rfind("->").map_or(0, |i| i + 2);
    let b = text.as_bytes();
    let mut found = None;
    for i in from..b.len() {
        let alnum = |j: usize| b.get(j).is_some_and(u8::is_ascii_alphanumeric);
        if !matches!(b[i], b'X' | b'x') || i > 0 && alnum(i - 1) || alnum(i + 1) {
            continue;
        }
        let after = &text[i + 1..];
        let t = after.trim_start();
        let (rest, times) = if let Some(r) = t.strip_prefix('+') {
            (r.trim_start(), false)
        } else if t.get(..6).is_some_and(|w| w.eq_ignore_ascii_case("times ")) {
            (t[6..].trim_start(), true)
        } else {
            continue;
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let Some(n) = rest[..digits].parse::<u32>().ok().filter(|&n| n > 0) else {
            continue;
        };
        if rest[digits..].starts_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        let end = text.len() - (rest.len() - digits);
        let term = if times {
            XTerm { times: n, plus: 0 }
        } else {
            XTerm { times: 1, plus: n }
        };
        found = Some((format!("{}{}", &text[..=i], &text[end..]), term));
    }
    found
}

/// Text that works from inside a stack, for the stack's top card, as
/// INSERT text is.
fn from_inside_a_stack(c: &Ctx) -> Option<Draft> {
    let clean_lower = c.clean.to_ascii_lowercase();
    for lead in [
        "while this card is stacked or under ",
        "while this card is stacked under ",
        "as long as this card is in ",
    ] {
        if let Some(r) = clean_lower.strip_prefix(lead)
            && let Some(comma) = r.find(", ")
        {
            let owner = c.clean[lead.len()..lead.len() + comma]
                .trim_end_matches("'s stack")
                .trim_end_matches("’s stack")
                .to_string();
            let rest = c.clean[lead.len() + comma + 2..].to_string();
            let mut names = c.who.names.clone();
            names.extend(self_names(&owner));
            let inner = Who {
                names,
                kinds: Vec::new(),
                others: c.who.others.clone(),
            };
            let mut a = classify_draft(&rest, &inner);
            a.text = c.printed.clone();
            a.insert = true;
            // The rule that read the rest is kept in its clauses' notes.
            if a.clauses.is_empty() {
                a.clauses
                    .push(ClauseNote::new(&rest, a.rule, a.class.name()));
            }
            a.rule = "from-inside-a-stack";
            return Some(a);
        }
    }
    None
}

/// `Pay 2 Force -> Critical Hit 2 and Fury 1`: each item a keyword, read as
/// the unit getting them all for the one cost.
fn keyword_list(c: &Ctx) -> Option<Draft> {
    if !c.one_sentence() {
        return None;
    }
    // `A and/or B`: both (each is optional prevention or a gain the
    // player may use); `A or B`: one of them, as the player chooses.
    let effect = c.effect.replace(" and/or ", " and ");
    let items = split_top(&effect, &[", and ", " and ", ", ", " or "]);
    if items.len() < 2 || !items.iter().all(|i| parse(i.trim()).is_ok()) {
        return None;
    }
    let as_grant = format!("THIS gets {effect}");
    let mut a = gets(&Clause {
        printed: &c.printed,
        text: &as_grant,
        l: as_grant.to_ascii_lowercase(),
        cost: c.cost.clone(),
        situation: None,
        referent: None,
        damaged: None,
        attacking: false,
        own_attack: false,
        outside: false,
        who: c.who,
    })?;
    a.text = c.printed.clone();
    Some(a)
}

/// `each of his or her Ground units` after `your opponent`: the player a
/// card's text calls "he or she" is the opponent, so the units are
/// `your opponent's` (read as such by the grant rules).
fn opponents_pronoun(text: &str) -> String {
    const PRONOUNS: [&str; 2] = ["each of his or her ", "each of his/her "];
    // ASCII lowercasing keeps every byte offset.
    let lower = text.to_ascii_lowercase();
    let Some(mut from) = lower.find("your opponent") else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len() + 16);
    let mut at = 0;
    while let Some((i, pat)) = PRONOUNS
        .iter()
        .filter_map(|p| lower[from..].find(p).map(|i| (i + from, *p)))
        .min()
    {
        let keep = i + "each of ".len();
        out.push_str(&text[at..keep]);
        out.push_str("your opponent's ");
        at = i + pat.len();
        from = at;
    }
    out.push_str(&text[at..]);
    out
}

/// How an ability was read, for `--explain`: the rule, then each clause
/// with the rule that read it (or why it was left), one line each.
pub fn explain(a: &ReadAbility) -> String {
    let mut out = String::new();
    let rule = if a.rule.is_empty() { "-" } else { a.rule };
    out.push_str(&format!("     rule {rule}\n"));
    if let Some(c) = a.grant().and_then(|g| g.cost.as_ref()) {
        let parts: Vec<String> = super::cost::cost_parts(&c.text)
            .iter()
            .map(|p| format!("{} [{}..{})", p.part, p.span.start, p.span.end))
            .collect();
        out.push_str(&format!(
            "       cost \"{}\": {}\n",
            c.text,
            parts.join(", ")
        ));
    }
    for c in &a.clauses {
        let at = c
            .span
            .as_ref()
            .map_or(String::new(), |s| format!(" [{}..{})", s.start, s.end));
        out.push_str(&format!(
            "       clause \"{}\"{at} -> {} ({})\n",
            c.text, c.rule, c.how
        ));
        for (count, span) in counts_in(&c.text) {
            out.push_str(&format!(
                "         count \"{}\" [{}..{}) -> per {count}\n",
                &c.text[span.clone()],
                span.start,
                span.end
            ));
        }
    }
    out
}

/// The counts a clause reads (`for each ...`, `where X is ...`, `equal to
/// ...`), each the longest phrase the count grammar reads there, with its
/// span in the clause.
fn counts_in(clause: &str) -> Vec<(Count, std::ops::Range<usize>)> {
    let lower = clause.to_ascii_lowercase();
    let mut out = Vec::new();
    for lead in ["for each ", "where x is ", "equal to "] {
        for (at, _) in lower.match_indices(lead) {
            let from = at + lead.len();
            let rest = &clause[from..];
            // The longest run of words from here that is a count.
            let ends = rest
                .match_indices([' ', ','])
                .map(|(i, _)| i)
                .chain([rest.len()])
                .collect::<Vec<_>>();
            if let Some((c, span)) = ends
                .iter()
                .rev()
                .find_map(|&end| super::count::read_count_spanned(&rest[..end]))
            {
                let span = from + span.start..from + span.end;
                if !out.iter().any(|(_, s)| *s == span) {
                    out.push((c, span));
                }
            }
        }
    }
    out
}

/// The first words no rule read in a not-understood ability (lowercase, at
/// most three), to group what the next rule should read.
pub fn first_unread_words(a: &ReadAbility) -> Option<String> {
    if a.class() != Class::NotUnderstood {
        return None;
    }
    let text = a
        .clauses
        .iter()
        .find(|c| c.rule == "unread")
        .map(|c| c.text.clone())
        .or_else(|| {
            a.why()
                .and_then(|n| n.split('\'').nth(1))
                .map(str::to_string)
        })
        .unwrap_or_else(|| a.text.clone());
    let words: Vec<String> = text
        .split_whitespace()
        .take(3)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_ascii_lowercase()
        })
        .collect();
    Some(words.join(" "))
}
