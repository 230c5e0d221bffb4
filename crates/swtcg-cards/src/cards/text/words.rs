//! Word lists and small helpers shared by the rules: attack words, restrictions, top-level splitting into clauses.

use super::{Keyword, When};

/// Glossary keywords that cannot change one attack's odds, with why.
pub(super) const NOT_ATTACK_KEYWORDS: &[(&str, &str)] = &[
    ("alternative cost", "a build cost"),
    ("hidden cost", "a build cost"),
    ("reduced cost", "a build cost"),
    ("upkeep", "paid when the build step starts"),
    ("bounty", "gained at the next build step"),
    ("deploy", "when the unit is deployed"),
    ("last stand", "when the unit is discarded"),
    ("meditate", "played from the discard pile"),
    ("equip", "attaching equipment"),
    ("velocity", "speed"),
    ("stealth", "who can be attacked, not the odds"),
    (
        "reserves",
        "works only in the build zone, where this card is not in an attack",
    ),
    ("double strike", "a second attack, not this attack's odds"),
    ("stack", "which cards may be stacked"),
    ("enhance", "an extra cost for an effect"),
    ("damage control", "when the build step starts"),
    ("ambush", "when a unit is deployed or moved"),
];

/// How a glossary keyword's value is written after its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GlossaryValue {
    /// Nothing (`Stealth`).
    Bare,
    /// A number or X (`Damage Control 2`).
    Number,
    /// `: [text]` (`Bounty: Draw a card`).
    Colon,
}

/// The glossary's keywords that the engine's table does not hold, with
/// how each is written: the lexer knows them as keywords, so that no name
/// takes their words, and a keyword run together with the next ability
/// is cut off it.
pub(super) const GLOSSARY_ONLY: &[(&str, GlossaryValue)] = &[
    ("Alternative Cost", GlossaryValue::Colon),
    ("Ambush", GlossaryValue::Number),
    ("Bounty", GlossaryValue::Colon),
    ("Consume", GlossaryValue::Number),
    ("Damage Control", GlossaryValue::Number),
    ("Deploy", GlossaryValue::Colon),
    ("Double Strike", GlossaryValue::Bare),
    ("Enhance", GlossaryValue::Colon),
    ("Equip", GlossaryValue::Colon),
    ("Hidden Cost", GlossaryValue::Number),
    ("Last Stand", GlossaryValue::Colon),
    ("Meditate", GlossaryValue::Colon),
    ("Reduced Cost", GlossaryValue::Number),
    ("Reserves", GlossaryValue::Bare),
    ("Stealth", GlossaryValue::Bare),
    ("Upkeep", GlossaryValue::Number),
    ("Velocity", GlossaryValue::Number),
];

/// Glossary keywords that can change an attack but the engine does not
/// model (yet).
pub(super) const UNMODELLED_KEYWORDS: &[&str] = &["Consume"];

/// When a keyword acts: in attacks by the unit, on it, or both.
pub fn keyword_when(k: &Keyword) -> When {
    k.when()
}

pub(super) fn starts_with_word(lower: &str, word: &str) -> bool {
    lower.starts_with(word)
        && lower[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
}

/// Whether `item` is written as a keyword with a number and is none the
/// reader knows (`Overpower 2`, `Sith Rage X`: one to three capitalised
/// words, then a number or X, and nothing else; neither the engine's
/// keyword nor the glossary's): a keyword of a set the glossary doesn't
/// have yet. It is not understood, never dropped as holding no word of an
/// attack.
pub(super) fn unknown_keyword(item: &str) -> bool {
    let item = item.trim().trim_end_matches('.').trim();
    let words: Vec<&str> = item.split_whitespace().collect();
    let Some((last, head)) = words.split_last() else {
        return false;
    };
    let number = *last == "X" || last.trim_start_matches(['+', '-']).parse::<u32>().is_ok();
    let titled = |w: &&str| {
        w.len() > 1
            && w.starts_with(|c: char| c.is_ascii_uppercase())
            && w[1..].bytes().all(|b| b.is_ascii_lowercase())
    };
    if !number || head.is_empty() || head.len() > 3 || !head.iter().all(titled) {
        return false;
    }
    // A glossary keyword's first words (`Hidden 4`, Hidden Cost's) are
    // that keyword's, misprinted.
    let head = head.join(" ").to_ascii_lowercase();
    swtcg_engine::keywords::parse_with_x(item).is_err()
        && !NOT_ATTACK_KEYWORDS
            .iter()
            .any(|(n, _)| starts_with_keyword(item, n) || n.starts_with(&format!("{head} ")))
        && !UNMODELLED_KEYWORDS
            .iter()
            .any(|n| starts_with_keyword(item, n))
}

/// Whether an item of `text`, read as a list (`+10 speed, Crushing Blow
/// 1`), is an unknown keyword.
pub(super) fn holds_unknown_keyword(text: &str) -> bool {
    // A keyword's number or X, first: most texts have none.
    if !text.bytes().any(|b| b.is_ascii_digit()) && !text.contains(" X") {
        return false;
    }
    super::grants::grant_items(text)
        .iter()
        .any(|i| unknown_keyword(i))
}

/// Whether `text` starts with the keyword `name` (in any case) as that
/// keyword, not as a word of a longer name: a capitalised word right
/// after it makes the two one name (`Bounty Hunter: Armor`, `Stealth
/// Squad gets +1 power`); its value `X` does not.
pub(super) fn starts_with_keyword(text: &str, name: &str) -> bool {
    let Some(head) = text.get(..name.len()) else {
        return false;
    };
    let rest = &text[name.len()..];
    if !head.eq_ignore_ascii_case(name) || rest.starts_with(|c: char| c.is_alphanumeric()) {
        return false;
    }
    let Some(next) = rest.strip_prefix(' ') else {
        return true;
    };
    let word: &str = next
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
        .next()
        .unwrap_or("");
    word == "X" || !word.starts_with(|c: char| c.is_uppercase())
}

/// Words that can only matter to an attack's numbers.
pub(super) const ATTACK_WORDS: &[&str] = &[
    "power",
    "damage",
    "prevent",
    "health",
    "dice",
    "die",
    "roll",
    "reroll",
    "hit",
    "attack",
    "defending",
    "accuracy",
    "armor",
    "shields",
    "fury",
    "critical hit",
    "parry",
    "evade",
    "deflect",
    "retaliate",
    "stun",
    "lucky",
    "overkill",
    "ferocity",
    "fortitude",
    "intercept",
    "precision",
    "elude",
    "backfire",
    "riposte",
    "double damage",
    "overload",
    "absorb",
    "persuade",
    "resilience",
    "cunning",
    "redirect",
    "protect",
    "focus",
    "surge",
    "tenacity",
    "area damage",
    "avenge",
    "bombard",
    "ion cannon",
    "barrage",
    "intimidation",
    "inspiration",
    "consume",
    "foresight",
    "forewarning",
    "adapt",
    "switch",
    "activated abilit",
    "chosen abilit",
    "that abilit",
    "chosen text",
    "abilities granted",
    "ability text",
    "game text",
];

/// Timings that are never inside an attack.
pub(super) const OUTSIDE_ATTACKS: &[&str] = &[
    "when you deploy",
    "whenever you deploy",
    "when you finish building",
    "when you complete",
    "whenever you complete",
    "during your build step",
    "during your build phase",
    "during the build step",
    "when your build step starts",
    "when our build step starts",
    "when your opponent's build step starts",
    "when the build step starts",
    "when the roll for build points",
    "play only when no unit is attacking",
    "play only if no unit is attacking",
    "only if no unit is attacking",
    "when the battle phase ends",
    "when end the battle phase does",
    "whenever you play a battle card",
    "whenever a disrupt effect",
    "whenever you gain force",
    "whenever you attach",
    "whenever your opponent uses alternative cost",
    "whenever your opponent deploys",
    "whenever your opponent uses",
    "when you use hidden cost",
];

/// Effects that never touch an attack's numbers.
pub(super) const NON_ATTACK_EFFECT: &[&str] = &[
    "subordinate",
    "speed",
    "force",
    "draw",
    "card",
    "deck",
    "hand",
    "build point",
    "build counter",
    "retreat",
    "tap",
    "untap",
    "captivity",
    "credit counter",
    "control",
    "disrupt",
    "look at",
    "reveal",
    "search",
    "shuffle",
    "stealth",
    "hidden cost",
    "cost",
];

/// Whether a text has a word that can only matter to an attack's numbers
/// (at word starts: `roll` in `rolls`, not in `controlling`). Text quoted
/// for a token being created (`Take 1 ... Subordinate with "Armor"`) is the
/// token's, not this unit's.
pub(super) fn has_attack_word(lower: &str) -> bool {
    let text = without_token_text(lower);
    let t = text.as_str();
    t.char_indices().any(|(i, _)| {
        let starts = i == 0 || !t[..i].chars().last().is_some_and(|c| c.is_alphanumeric());
        starts && ATTACK_WORDS.iter().any(|w| t[i..].starts_with(w))
    })
}

/// The text without the quoted text given to tokens it creates
/// (`... Subordinate(s) with "..." and "..."`).
pub(super) fn without_token_text(lower: &str) -> String {
    let mut out = String::new();
    let mut rest = lower;
    while let Some(i) = rest.find("with \"") {
        let before = &rest[..i];
        let token = before.trim_end().ends_with("subordinate")
            || before.trim_end().ends_with("subordinates")
            || before.contains(" subordinate")
            || before.contains("take ");
        out.push_str(before);
        let after = &rest[i + 6..];
        match after.find('"') {
            Some(j) if token => {
                rest = &after[j + 1..];
                // `and "..."` after the first quote.
                while let Some(r) = rest
                    .strip_prefix(" and \"")
                    .or_else(|| rest.strip_prefix("  and \""))
                {
                    match r.find('"') {
                        Some(k) => rest = &r[k + 1..],
                        None => break,
                    }
                }
            }
            _ => {
                out.push_str("with \"");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Who-attacks-whom texts: they change which attacks happen, not their odds.
pub(super) const WHO_ATTACKS: &[&str] = &[
    "can attack ",
    "may attack ",
    "must attack ",
    "can't attack",
    "can't be attacked",
    "can only attack",
    "must do so",
    "can attack units",
    "can't retreat",
];

/// Whether a later sentence only restricts when the ability is played.
pub(super) fn is_restriction(l: &str) -> bool {
    let l = l.trim_start_matches(['*', '-', ' ']);
    l.starts_with("play ")
        || l.starts_with("use this ability")
        || l.starts_with("only ")
        || l.starts_with("you may play this ability")
        || l.starts_with("you may use this ability")
        || l.starts_with("you can use this ability")
        || l.starts_with("you can play this ability")
}

/// Whether a restriction lets the ability be played more than once (each
/// time paid): `You can use this ability up to 3 times each turn`.
pub(super) fn repeats(l: &str) -> bool {
    is_restriction(l)
        && [" times", "any number of", "more than once", "twice"]
            .iter()
            .any(|w| l.contains(w))
}

/// Splits at any of `seps`, outside quotes.
pub(super) fn split_top<'t>(text: &'t str, seps: &[&str]) -> Vec<&'t str> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    let mut i = 0;
    let bytes = lower.as_bytes();
    while i < lower.len() {
        if bytes[i] == b'"' {
            quoted = !quoted;
        }
        if !quoted && let Some(sep) = seps.iter().find(|s| lower[i..].starts_with(*s)) {
            out.push(text[start..i].trim());
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
        while i < lower.len() && !lower.is_char_boundary(i) {
            i += 1;
        }
    }
    out.push(text[start..].trim());
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// The verbs only an effect has (a condition's own clauses have none).
const EFFECT_VERBS: [&str; 8] = [
    " gets ",
    " gets:",
    " get ",
    " loses ",
    " lose ",
    " does ",
    " prevent ",
    " costs ",
];

/// The verbs that make a piece a clause of its own besides an effect's
/// (`can't`, `is`, ...): a condition or a restriction.
const OTHER_CLAUSE_VERBS: [&str; 5] = [" can't ", " can ", " is ", " are ", " cost "];

/// Whether a piece (lowercase, quotes removed) has a verb only an effect
/// has, or starts as an effect does.
fn has_effect_verb(l: &str) -> bool {
    EFFECT_VERBS.iter().any(|v| l.contains(v))
        || ["prevent ", "put ", "tap ", "remove "]
            .iter()
            .any(|v| l.starts_with(v))
}

/// The clauses of a sentence joined by `and`: `each of your Jedi gets +10
/// speed and Anakin Skywalker gets +2 power` is two; `this unit gets +2
/// power and Critical Hit 2` is one (a piece without a verb joins the one
/// before).
pub(super) fn clauses(text: &str) -> Vec<&str> {
    let pieces = split_top(text, &[", and ", " and "]);
    if pieces.len() < 2 {
        return vec![text];
    }
    let verb = |p: &str| {
        let l = unquoted(&p.to_ascii_lowercase());
        // "..., where X is the number of ...": defines X, not a clause; a
        // trailing "as long as he is attacking a Sith" is the effect's
        // condition, its verbs not a clause's.
        let l = l.split(" where x ").next().unwrap_or(&l);
        // A duration after the effect (`... and Inspiration until it is
        // discarded`) is the effect's, its verbs not a clause's.
        let l = l.split(" until ").next().unwrap_or(l);
        let l = [" as long as ", " while "]
            .iter()
            .fold(l, |l, c| l.split(c).next().unwrap_or(l));
        has_effect_verb(l)
            || OTHER_CLAUSE_VERBS.iter().any(|v| l.contains(v))
            || l.starts_with("you ")
    };
    // What only an effect does: after "... as long as S", a piece without
    // one continues the condition ("as long as it's attacking THIS and you
    // have another Geonosian ...": both clauses are the condition's).
    let effect_verb = |p: &str| has_effect_verb(&unquoted(&p.to_ascii_lowercase()));
    let opens_condition = |p: &str| {
        let l = unquoted(&p.to_ascii_lowercase());
        [" as long as ", " while ", " if "]
            .iter()
            .any(|c| l.contains(c))
    };
    // A piece with a verb starts a new clause only once the current clause
    // has its own verb ("each of your opponent's Agents and Assassins gets
    // -2 power" is one clause).
    let mut out: Vec<&str> = Vec::new();
    let base = text.as_ptr() as usize;
    let mut start = 0usize;
    let mut has_verb = false;
    let mut in_condition = false;
    for p in pieces {
        let at = p.as_ptr() as usize - base;
        let v = verb(p) && (!in_condition || effect_verb(p));
        if v && has_verb {
            in_condition = false;
            out.push(
                text[start..at]
                    .trim()
                    .trim_end_matches(", and")
                    .trim_end_matches(" and")
                    .trim_end_matches(','),
            );
            start = at;
        }
        has_verb |= v;
        in_condition |= has_verb && opens_condition(p);
    }
    out.push(text[start..].trim());
    out
}

/// The text with quoted parts removed.
pub(super) fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut q = false;
    for c in text.chars() {
        if c == '"' {
            q = !q;
            continue;
        }
        if !q {
            out.push(c);
        }
    }
    out
}

/// A clause whose act is not about an attack, whatever it measures by
/// (`you gain additional Force equal to the damage prevented`).
pub(super) fn non_attack_clause(l: &str) -> bool {
    let l = l.trim_start_matches("then ").trim();
    let l = l.strip_prefix("you may ").unwrap_or(l);
    // What a card costs to deploy.
    if l.contains(" to deploy") && l.contains("cost") {
        return true;
    }
    // Cards found, looked at, shown; counters of other kinds than damage;
    // damage by Battle or Mission cards: not attacks.
    if ["search your", "search ", "look at ", "shuffle ", "reveal "]
        .iter()
        .any(|p| l.starts_with(p))
        || (l.starts_with("put ")
            && [
                "corruption counter",
                "captivity counter",
                "mastery counter",
                "credit counter",
                "redemption counter",
                "build counter",
            ]
            .iter()
            .any(|c| l.contains(c)))
        || l.contains("using battle")
        || l.contains("battle or mission card")
    {
        return true;
    }
    // Disrupting another card or ability, not an attack.
    if l.starts_with("disrupt ")
        && [
            "activated abilit",
            "battle card",
            "mission card",
            "a disrupt",
            "meditate",
        ]
        .iter()
        .any(|w| l.contains(w))
    {
        return true;
    }
    // A Subordinate token made (`take 1 60/3/3 Shark Wing Subordinate and
    // put it into the Ground arena`): a new unit, not this attack.
    if l.starts_with("take ") && l.contains("subordinate") {
        return true;
    }
    [
        "you gain ",
        "gain ",
        "you lose ",
        "your opponent loses ",
        "each player loses ",
        "each player gains ",
        "lose ",
        "draw ",
        "you may draw ",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        && !l.contains("power")
        && !l.contains("health")
}

/// Whether a sentence only moves damage counters (between attacks, that is
/// the state a unit brings into an attack, given by the user).
pub(super) fn counters_only(l: &str) -> bool {
    let l = l.split(", where").next().unwrap_or(l);
    let damage = l.contains("damage counter")
        || l.contains("captivity counter")
        || (l.contains(" does ") && l.contains(" damage to"))
        || l.starts_with("roll a die")
        || l.contains(" roll a die");
    damage && !l.contains("power") && !l.contains("prevent") && !l.contains("dice of damage")
}

pub(super) fn quote_short(s: &str) -> String {
    swtcg_engine::error::quote(s)
}

pub(super) fn title(k: &str) -> String {
    k.split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A cut point: the first of these markers.
pub(super) fn find_any(l: &str, markers: &[&str]) -> Option<(usize, usize)> {
    markers
        .iter()
        .filter_map(|m| top_level_find(l, m).map(|i| (i, m.len())))
        .min()
}

pub(super) fn find_word(l: &str, w: &str) -> Option<usize> {
    top_level_find(l, w)
}

/// Finds `pat` outside quotes.
pub(super) fn top_level_find(l: &str, pat: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in l.char_indices() {
        if c == '"' {
            quoted = !quoted;
        }
        if !quoted && l[i..].starts_with(pat) {
            return Some(i);
        }
    }
    None
}

/// Families of effects the reader understands and the engine does not
/// model, each with the words that show it: an ability no rule read whole
/// is unmodelled, named by its family, rather than not understood, when
/// its text shows one. The first family that matches names it.
pub(super) const UNMODELLED_FAMILIES: &[(&str, &[&str])] = &[
    (
        "a die rolled for an effect (the engine rolls attack dice and dice of damage)",
        &[
            "roll a die",
            "rolls a die",
            "roll 1 die",
            "roll one die",
            "roll 2 dice",
            "roll two dice",
            "roll 3 dice",
            "roll x dice",
            "roll a number of dice",
            "roll a die for each",
            "if you roll",
        ],
    ),
    (
        "hits only on a roll of 6",
        &["can only be hit on a roll of", "only be hit on a roll of"],
    ),
    (
        "an attack that ends, is redirected, cancelled on a choice or costs Force to make",
        &[
            ", the attack ends",
            ", that attack ends",
            "attack this instead",
            "attack this unit instead",
            "attacks this instead",
            "must pay",
            "disrupt that attack",
            "disrupt an attack against",
            "disrupt an attack by",
            "disrupt an attack from",
            "disrupt an attack",
            "choose to disrupt",
            "redirect",
        ],
    ),
    (
        "a keyword's number as X plus or times a number",
        &[
            "x+1",
            "x+2",
            "x+3",
            "x + 1",
            "x + 2",
            "x +1",
            "x +2",
            "x times 2",
            "2 times x",
            "times x",
        ],
    ),
    (
        ANOTHER_CARDS_ABILITIES,
        &[
            "abilities granted by",
            "ability text granted by",
            "the chosen ability",
            "activated ability of",
            "activated ability on",
            "activated abilities of",
            "tap-activated abilities",
            "chosen abilities",
            "text granted by",
            "that card's",
            "the chosen card's",
            "game text of",
            "non-pilot abilities",
        ],
    ),
    (
        "damage counters put or removed during an attack",
        &[
            "does no damage",
            "attacks and damages",
            "damages a",
            "damages another",
            "put another damage counter",
            "remove 1 damage counter from this",
            "remove all damage counters from this",
            "remove x damage counters",
            "damage counter on that unit",
            "damage counters on that unit",
        ],
    ),
    (
        "damage prevented unless the opponent pays in cards or counters",
        &["prevent that damage unless", "prevent all damage unless"],
    ),
    (
        "stats set by a choice",
        &[
            "speed, power, and health are",
            "speed, power and health are",
            "power and health are",
        ],
    ),
    (
        "an effect for a later attack",
        &["next attack", "second attack"],
    ),
    (
        "damage from Overload or from card effects, not attacks",
        &["overload damage", "from effects on", "from its overload"],
    ),
    ("protection from losing abilities", &["can't lose"]),
    (
        "damage from units prevented, or an attack that can't be disrupted",
        &[
            "prevent all damage done by",
            "prevent all damage from",
            "can't be disrupted",
        ],
    ),
    ("an ability it must use", &["must use"]),
    (
        "a change to what abilities cost",
        &[
            "ability costs",
            "abilities cost",
            "abilities costs",
            "costs 0 force to activate",
            "cost 1 less force",
            "cost 1 more force",
        ],
    ),
    (
        "a change to the dice of other abilities",
        &[
            "reroll a die for",
            "reroll odd",
            "double the lucky",
            "lucky total",
        ],
    ),
    (
        "a unit's own damage prevented on its player's choice",
        &[
            "would damage another unit",
            "would do damage to another unit",
        ],
    ),
    (
        "prevention of part of the damage (up to N of it, all but N, that much)",
        &[
            "up to 1 of that damage",
            "up to 2 of that damage",
            "up to 3 of that damage",
            "all but 1 of that damage",
            "all but 2 of that damage",
            "that much damage",
            "prevent 1 damage to that unit",
        ],
    ),
    (
        "damage done during the attack outside its dice",
        &[
            "does 1 damage to the defending unit",
            "does 2 damage to the defending unit",
            "dice of damage to the attacking unit",
            "damage to the attacking unit",
            "do one damage to",
            "do 1 damage to",
        ],
    ),
];

/// The family of effects the engine does not model that a text (the
/// unit's names marked, lowercase) shows, if any.
/// The family of a text that gives a unit another card's abilities: no
/// word of an attack in it, and not nothing either.
pub(super) const ANOTHER_CARDS_ABILITIES: &str = "another card's abilities (picked in play)";

pub(super) fn unmodelled_family(lower: &str) -> Option<&'static str> {
    UNMODELLED_FAMILIES
        .iter()
        .find(|(_, words)| words.iter().any(|w| lower.contains(w)))
        .map(|(name, _)| *name)
}

/// How long an effect lasts, as the cards write it: every duration the
/// reader knows, one list (the keyword rule strips them; the grant and
/// prevention rules read them).
pub(super) const DURATIONS: &[&str] = &[
    "until end of turn",
    "until the end of turn",
    "until the end of the turn",
    "until end of battle",
    "until the end of battle",
    "until the end of the battle phase",
    "until end of the battle phase",
    "until it is discarded",
    "until he is discarded",
    "until she is discarded",
    "until discarded",
    "until end of game",
    "for this attack",
    "for that attack",
    "during that attack",
    "during this attack",
    "during the attack",
    "this turn",
];

/// A text without the duration that ends it (lowercase match), and
/// whether it had one.
pub(super) fn without_duration(text: &str) -> (&str, bool) {
    let l = text.trim_end_matches('.').to_ascii_lowercase();
    for d in DURATIONS {
        if let Some(head) = l.strip_suffix(d)
            && (head.is_empty() || head.ends_with(' '))
        {
            return (text[..head.len()].trim_end(), true);
        }
    }
    (text, false)
}
