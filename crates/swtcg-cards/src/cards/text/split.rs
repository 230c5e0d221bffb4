//! Splitting a unit's text into abilities: separators, sentences, and the sentences that continue the one before.

use super::{
    GLOSSARY_ONLY, GlossaryValue, NOT_ATTACK_KEYWORDS, UNMODELLED_KEYWORDS, is_restriction, parse,
    split_cost, starts_with_keyword, starts_with_word, strip_prefix_ci, strip_reminders,
};

/// Splits a unit's text into abilities, whatever separator its set uses.
///
/// ```
/// use swtcg_cards::cards::text::split_abilities;
/// let jg = "As long as Mace is in the Character arena, each of your other Jedi gets +1 power. Overkill (When this unit attacks, you may divide hits.) Pay 3 Force -> Evade 3 (Prevent up to 3 damage to this unit. )";
/// assert_eq!(split_abilities(jg).len(), 3);
/// assert_eq!(split_abilities("Tap -> Draw a card. Play only during your build step. | Armor").len(), 2);
/// ```
pub fn split_abilities(text: &str) -> Vec<String> {
    split_abilities_in(text, text.contains('|'))
}

/// [`split_abilities`] for a text of a set that separates abilities with
/// `|` (`barred`) or not: in a barred set, the sentences of one segment are
/// one ability unless a sentence surely starts another.
pub fn split_abilities_in(text: &str, barred: bool) -> Vec<String> {
    split_abilities_of(text, barred, &super::Who::default())
}

/// [`split_abilities_in`] for the text of the unit `who`: a name (its own
/// or another card's) is never cut where a keyword ends inside it
/// (`Stealth | Stealth Squadron gets Accuracy 1 ...`: the name is not the
/// keyword Stealth and the word `Squadron`).
pub(super) fn split_abilities_of(text: &str, barred: bool, who: &super::Who) -> Vec<String> {
    let mut out = Vec::new();
    let barred = barred || text.contains('|');
    for segment in top_level_split(text, '|') {
        let sentences = sentences(&segment);
        let mut current: Option<String> = None;
        let mut in_pilot = false;
        // Keywords run together in one sentence (`Accuracy 1 Shields 1 Pay
        // 1 Force -> Evade 1`): each is an ability of its own.
        let pieces = sentences.iter().flat_map(|s| {
            run_together_of(s, who)
                .into_iter()
                .enumerate()
                .map(|(k, p)| (p, k > 0))
        });
        for (s, split_off) in pieces {
            let starts_pilot = !in_pilot && pilot_start(&s).is_some();
            // A slash list closed by its reminder (`Adapt: ... / Pay 2
            // Force -> Protect 2 (When this arena's battle step starts,
            // ...)`) is whole: the next sentence is another ability's,
            // unless it is one more of the list's items.
            let closed_list = current.as_deref().is_some_and(|c| {
                slash_lead(c) && c.trim_end().ends_with(')') && !s.trim_start().starts_with('/')
            });
            // Sets that separate abilities with `|` run one ability's
            // sentences together; the others need every sentence read.
            let cont = in_pilot
                || (!starts_pilot
                    && !split_off
                    && !closed_list
                    && current.is_some()
                    && unknown_keyword_prefix(&s, who).is_none()
                    && if barred {
                        !is_strong_start(&s)
                    } else {
                        is_continuation(&s)
                    });
            if cont {
                let c = current.get_or_insert_with(String::new);
                if !c.is_empty() {
                    c.push(' ');
                }
                c.push_str(&s);
            } else {
                if let Some(c) = current.take() {
                    out.push(c);
                }
                current = Some(s);
            }
            in_pilot |= starts_pilot;
        }
        if let Some(c) = current {
            out.push(c);
        }
    }
    out.retain(|s| !s.trim().is_empty() && s.chars().any(|c| c.is_alphanumeric()));
    // A restriction set apart by a separator (`Pay 1 Force -> Evade 2 |
    // Play only when THIS is being attacked`) is its ability's.
    let mut merged: Vec<String> = Vec::with_capacity(out.len());
    for a in out {
        let only_restrictions = sentences(&a)
            .iter()
            .all(|s| is_restriction(&strip_reminders(s).to_ascii_lowercase()));
        match merged.last_mut() {
            Some(prev) if only_restrictions => {
                prev.push(' ');
                prev.push_str(&a);
            }
            _ => merged.push(a),
        }
    }
    merged
}

/// Where the last item of a dash list starts (`  -Pay 1 Force`: after its
/// dash), or 0.
fn list_mark_before(t: &str) -> usize {
    let b = t.as_bytes();
    (1..b.len())
        .rev()
        .find(|&j| {
            b[j] == b'-'
                && b[j - 1] == b' '
                && b.get(j + 1)
                    .is_some_and(|&n| n != b' ' && n != b'>' && !n.is_ascii_digit())
        })
        .map_or(0, |j| j + 1)
}

/// The text from the last capitalised word a cost starts with (`Deflect 1
/// Pay 1 Force` → `Pay 1 Force`), or all of it.
fn last_cost_start(head: &str) -> &str {
    let mut at = 0;
    let mut pos = 0;
    for w in head.split(' ') {
        let l = w.to_ascii_lowercase();
        let l = l.trim_end_matches(',');
        if pos > 0
            && w.starts_with(|c: char| c.is_ascii_uppercase() || c == '[')
            && COST_VERBS.contains(&l)
        {
            at = pos;
        }
        pos += w.len() + 1;
    }
    &head[at..]
}

/// The words a cost starts with.
const COST_VERBS: &[&str] = &[
    "pay", "tap", "[tap]", "discard", "put", "retreat", "remove", "reveal", "return", "roll",
    "untap",
];

/// Every cost arrow in one form, `->`: `→`, `-->`, `- >`, `–>`, and a
/// dash set apart by spaces (` - `, ` – `, ` — `) or a colon right after a
/// cost (`Pay 1 Force - Evade 1`, `Tap – Draw a card`, `Pay 2 Force:
/// Evade 2`). A dash or colon after words that are not a cost is left as
/// it is (`Bounty: Discard ...`, `Upkeep: Pay 1 Force`).
pub fn arrows(text: &str) -> String {
    // Every form above holds one of these characters.
    if !text.contains(['\u{2192}', '-', '\u{2013}', '\u{2014}', ':']) {
        return text.to_string();
    }
    let mut t = text
        .replace('\u{2192}', "->")
        .replace("-->", "->")
        .replace("- >", "->")
        .replace("\u{2013}>", "->")
        .replace("\u{2014}>", "->");
    for dash in [" - ", " \u{2013} ", " \u{2014} ", ": "] {
        let mut from = 0;
        while let Some(i) = t[from..].find(dash).map(|i| i + from) {
            // The words since the last sentence or ability start.
            let start = t[..i]
                .rfind(['.', '|', ';', '"', ':', '*', '>', '/'])
                .map_or(0, |j| j + 1)
                .max(t[..i].rfind(dash).map_or(0, |j| j + dash.len()))
                .max(t[..i].rfind(" '").map_or(0, |j| j + 2))
                .max(list_mark_before(&t[..i]));
            // A list's mark before the cost (`- Pay 1 Force - Evade 1`);
            // a keyword run together before it (`Deflect 1 Pay 1 Force -
            // Evade 1`): the cost starts at its last capitalised verb.
            let head = t[start..i].trim().trim_start_matches(['-', '*', '>', ' ']);
            let inverted = head.to_ascii_lowercase().ends_with(" force pay");
            let head = if inverted {
                head
            } else {
                last_cost_start(head)
            };
            // A cost starts with what it asks (`Pay`, `Tap`, `Discard`,
            // `Put`, ...) or is Force paid in inverted words (`2 Force
            // pay`).
            let l = head.to_ascii_lowercase();
            let first = l.split([' ', ',']).next().unwrap_or("");
            let is_cost = !head.is_empty()
                && !head.contains("->")
                && (inverted
                    || COST_VERBS.contains(&first)
                        && (first != "pay"
                            || super::cost::cost_parts(head).first().is_some_and(|p| {
                                !matches!(p.part, super::cost::CostPart::Other(_))
                            })));
            if is_cost {
                t.replace_range(i..i + dash.len(), " -> ");
                from = i + 4;
            } else {
                from = i + dash.len();
            }
        }
    }
    t
}

/// The most words (outside reminders) of one keyword with its cost
/// (`Pay 1 Force -> Critical Hit 2` has 7).
const MAX_KEYWORD_WORDS: usize = 16;

/// A sentence cut where abilities run together without a separator: after
/// a piece that is a whole keyword (`Critical Hit 1`, `Pay 1 Force ->
/// Evade 1`, `Ferocity`, `Damage Control 1`), a capitalised word starts
/// the next ability. A sentence with no such piece is one piece.
pub(super) fn run_together(sentence: &str) -> Vec<String> {
    run_together_of(sentence, &super::Who::default())
}

/// How many words the longest name of `who` (its own, of two words or
/// more, or another card's) starting `text` has; 0 for none.
fn name_words_at(text: &str, who: &super::Who) -> usize {
    // A name is at most a few words: the words of a bounded head.
    let head = &text[..text.floor_char_boundary(120)];
    let words = super::lex::word_texts(head);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    if words.is_empty() {
        return 0;
    }
    let own = who
        .names
        .iter()
        .map(|n| super::lex::word_texts(n))
        .filter(|n| {
            n.len() >= 2 && n.len() <= words.len() && n.iter().zip(&words).all(|(a, b)| a == b)
        })
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    own.max(who.others.longest_at(&words, 0))
}

/// Whether a name of `who` starts at one of the last words of `before`
/// (the start of `text`) and runs on past its end.
fn name_across(before: &str, text: &str, who: &super::Who) -> bool {
    use super::lex::{Kind, scan};
    let words: Vec<usize> = scan(before)
        .into_iter()
        .filter(|t| t.kind == Kind::Word || t.kind == Kind::Number)
        .map(|t| t.span.start)
        .collect();
    // No name is longer than a few words.
    let n = words.len();
    (n.saturating_sub(6)..n).any(|j| name_words_at(&text[words[j]..], who) > n - j)
}

/// [`run_together`] for the text of the unit `who` (see
/// [`split_abilities_of`]).
fn run_together_of(sentence: &str, who: &super::Who) -> Vec<String> {
    use super::lex::{Kind, scan};
    let toks = scan(sentence);
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut depth = 0i32;
    let mut quoted = false;
    // Words of the piece outside reminders: a piece longer than any
    // keyword is not looked at again, so that the cut is linear in the
    // sentence.
    let mut words = 0usize;
    for (i, t) in toks.iter().enumerate() {
        let w = &sentence[t.span.clone()];
        match (t.kind, w) {
            (Kind::Punct, "(") => depth += 1,
            (Kind::Punct, ")") => depth -= 1,
            (Kind::Quote, _) => quoted = !quoted,
            _ => {}
        }
        if i == 0 || depth != 0 || quoted || t.kind != Kind::Word {
            continue;
        }
        words += 1;
        // A capitalised word, or a bracketed symbol (`[tap] -> ...`,
        // `[Pilot] Starfighter Pilot`): where the next ability would start.
        let at = match i.checked_sub(1).map(|j| &toks[j]) {
            Some(p) if &sentence[p.span.clone()] == "[" && p.span.end == t.span.start => {
                p.span.start
            }
            _ if w.starts_with(|c: char| c.is_ascii_uppercase()) => t.span.start,
            _ => continue,
        };
        // Only spaces (or a reminder) between the piece and this word.
        let before = &sentence[start..at];
        // A reminder closes a slash list, whatever its items and however
        // long (`Adapt: Each of your Jedi gets +1 power. / Pay 2 Force ->
        // Protect 2 (When this arena's battle step starts, ...) Your
        // opponent can't ...`; a sentence that starts with `/` is the
        // list's, after a period).
        let closed =
            before.trim_end().ends_with(')') && (before.starts_with('/') || slash_lead(before));
        if words > MAX_KEYWORD_WORDS + 1 && !closed {
            continue;
        }
        // Run together: nothing but spaces (or a reminder) after the
        // piece, never a comma or a list's `and`, nor quoted words (a
        // quote of flavor is the keyword's sentence's).
        if before.contains(['"', '\u{201c}', '\u{201d}'])
            || !before
                .trim_end()
                .ends_with(|c: char| c.is_alphanumeric() || c == ')')
        {
            continue;
        }
        let piece = strip_reminders(before);
        let piece = piece.trim();
        // (`INSERT: Armor` is as whole as `Armor`.)
        let whole = |p: &str| {
            let p = strip_prefix_ci(p, super::INSERT).map_or(p, str::trim_start);
            whole_slash_list(p).unwrap_or_else(|| whole_keyword(p))
                || unknown_keyword_prefix(p, who) == Some(p.len())
        };
        if !closed {
            if piece.is_empty() || !whole(piece) {
                continue;
            }
            // The next ability starts here, unless the keyword goes on (a
            // keyword name of two words: `Critical Hit`; a slash list's
            // last item: `Adapt: Fury 2/Critical Hit 2`).
            if whole(&format!("{piece} {w}")) {
                continue;
            }
            // A name that runs on past the keyword's end (`Stealth
            // Squadron gets ...`, `Pay 1 Force -> Intercept Squad gets
            // ...`) is not cut: a name starting at one of the piece's
            // last words and ending after it.
            if name_across(before, &sentence[start..], who) {
                continue;
            }
        }
        out.push(before.trim().to_string());
        start = at;
        words = 1;
    }
    out.push(sentence[start..].trim().to_string());
    out.retain(|p| !p.is_empty());
    out
}

/// Whether a text starts with a slash list's lead (`Adapt:`, `Switch:`),
/// looking at its first words only.
fn slash_lead(text: &str) -> bool {
    let head = &text[..text.floor_char_boundary(16)];
    head.split_once(':').is_some_and(|(lead, _)| {
        let lead = lead.trim();
        lead.eq_ignore_ascii_case(super::keyword::SWITCH)
            || swtcg_engine::keywords::KeywordKind::from_name(lead)
                == Some(swtcg_engine::keywords::KeywordKind::Adapt)
    })
}

/// Whether a slash list (`Adapt: A/B`, `Switch: A/B/C`) is whole: each of
/// its items a keyword (free or behind a cost), grants (`+20 speed,
/// Shields 1`) or `None`; `None` for a text that is not a slash list. A
/// slash list takes any text as its last item, so that an ability run on
/// after it (`Adapt: Focus 2/Stun 2 Pay 1 Force -> Evade 1`, with no
/// reminder between) is cut off where its last item stops being whole.
fn whole_slash_list(piece: &str) -> Option<bool> {
    if !slash_lead(piece) {
        return None;
    }
    let (_, items) = piece.split_once(':')?;
    // A stat change (`+2 power`, `-1 health`, `+20 speed`).
    let stat = |p: &str| {
        let w: Vec<&str> = p.split_whitespace().collect();
        w.len() == 2
            && w[0].starts_with(['+', '-'])
            && w[0][1..].parse::<u32>().is_ok()
            && ["power", "health", "speed"]
                .iter()
                .any(|s| w[1].eq_ignore_ascii_case(s))
    };
    Some(items.split('/').all(|item| {
        let item = item.trim();
        item.eq_ignore_ascii_case("none")
            || whole_keyword(item)
            || item
                .split(", ")
                .flat_map(|p| p.split(" and "))
                .all(|p| !p.trim().is_empty() && (whole_keyword(p.trim()) || stat(p.trim())))
    }))
}

/// Whether a text is one keyword, free or behind a cost, of the engine's
/// table or the glossary's (`Damage Control 1`, `Stealth`).
fn whole_keyword(piece: &str) -> bool {
    if parse(piece).is_ok() {
        return true;
    }
    let effect = split_cost(piece).1;
    // Keywords listed for one cost (`Pay 2 Force -> Deflect 1 and Evade 1`).
    let items: Vec<&str> = effect
        .split(", and ")
        .flat_map(|p| p.split(" and "))
        .flat_map(|p| p.split(", "))
        .collect();
    if items.len() > 1
        && items
            .iter()
            .all(|i| !i.contains(" and ") && parse(i.trim()).is_ok())
    {
        return true;
    }
    let words: Vec<&str> = effect.split_whitespace().collect();
    GLOSSARY_ONLY.iter().any(|(k, value)| {
        let kw: Vec<&str> = k.split(' ').collect();
        let n = kw.len();
        let numbered = *value == GlossaryValue::Number;
        *value != GlossaryValue::Colon
            && words.len() == n + usize::from(numbered)
            && kw
                .iter()
                .zip(&words)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
            && (!numbered || words[n].parse::<u32>().is_ok() || words[n].eq_ignore_ascii_case("x"))
    })
}

/// Where an unknown keyword (see [`super::unknown_keyword`]) that `s`
/// starts with ends: title-case words, then a number or X. Its first word
/// is no verb of the card language and none the database writes in lower
/// case: `Take 1 Phase III Dark Trooper ...` and `Draw 2 cards` are
/// sentences, `Crushing Blow 1 Armor` two keywords.
fn unknown_keyword_prefix(s: &str, who: &super::Who) -> Option<usize> {
    let s_trim = s.trim_start();
    let lead = s.len() - s_trim.len();
    let mut end = 0;
    for (k, w) in s_trim.split(' ').enumerate() {
        let at = end + usize::from(k > 0);
        let number = w == "X" || w.trim_start_matches(['+', '-']).parse::<u32>().is_ok();
        if number && k > 0 {
            let piece = &s_trim[..at + w.len()];
            let first = piece.split(' ').next().unwrap_or("");
            let verb = super::lex::VERBS.contains(&first)
                || COST_VERBS.contains(&first.to_ascii_lowercase().as_str());
            let written = who.others.spelling.count(&first.to_ascii_lowercase()) > 2;
            return (!verb && !written && super::unknown_keyword(piece))
                .then_some(lead + piece.len());
        }
        if k >= 3 || !w.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        end = at + w.len();
    }
    None
}

/// Whether a sentence surely starts an ability of its own: a cost arrow, a
/// glossary keyword, a trigger (`When`, `Whenever`, `As long as`).
pub(super) fn is_strong_start(s: &str) -> bool {
    // `INSERT: ...` starts an ability of its own, whatever follows.
    if strip_prefix_ci(s.trim_start(), super::INSERT).is_some() {
        return true;
    }
    let t = strip_reminders(&arrows(s));
    let l = t.to_ascii_lowercase();
    if is_continuation(&t) {
        return false;
    }
    if split_cost(&t).0.is_some() || slash_lead(&t) {
        return true;
    }
    // A keyword, also with what its X is (`Avenge X, where X is ...`).
    if parse(t.trim_end_matches('.')).is_ok()
        || l.find(", where x ")
            .is_some_and(|i| swtcg_engine::keywords::parse_with_x(&t[..i]).is_ok_and(|a| a.x))
    {
        return true;
    }
    let starts = [
        "when ",
        "whenever ",
        "as long as ",
        "at the start ",
        "at the end ",
        "treat ",
    ];
    starts.iter().any(|p| l.starts_with(p))
        || NOT_ATTACK_KEYWORDS
            .iter()
            .any(|(k, _)| starts_with_keyword(&t, k))
        || UNMODELLED_KEYWORDS
            .iter()
            .any(|k| starts_with_word(&l, &k.to_ascii_lowercase()))
}

/// Splits at `sep` outside quotes and parentheses.
pub(super) fn top_level_split(text: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quoted = false;
    // Unbalanced quotes (a typo in the file): don't let them hide separators.
    let balanced = text
        .chars()
        .filter(|c| matches!(c, '"' | '“' | '”'))
        .count()
        % 2
        == 0;
    for c in text.chars() {
        match c {
            '"' | '“' | '”' if balanced => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 && !quoted {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The sentences of a segment, each with its final `.`/`;` kept off and its
/// reminder text (parentheses) kept in. A reminder followed by a capital
/// letter ends its sentence.
pub(super) fn sentences(segment: &str) -> Vec<String> {
    let chars: Vec<char> = segment.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut i = 0;
    let next_nonspace = |from: usize| chars[from..].iter().find(|c| !c.is_whitespace()).copied();
    while i < chars.len() {
        let c = chars[i];
        cur.push(c);
        match c {
            '"' | '“' | '”' => {
                // Granted text that ends a sentence inside its quotes
                // (`gets "Pay 1 Force -> Evade 1." Shields 1`): the
                // sentence ends with the quote, when a capital follows.
                let ends = quoted
                    && depth == 0
                    && i > 0
                    && matches!(chars[i - 1], '.' | '!')
                    && next_nonspace(i + 1).is_some_and(char::is_uppercase);
                quoted = !quoted;
                if ends {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                if depth == 0 && next_nonspace(i + 1).is_some_and(|n| n.is_uppercase() || n == '*')
                {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '.' | ';' if depth == 0 && !quoted => {
                let prev_digit = i > 0 && chars[i - 1].is_ascii_digit();
                let next = chars.get(i + 1).copied();
                let next_digit = next.is_some_and(|n| n.is_ascii_digit());
                let after_quote = chars.get(i + 2).copied();
                let closing = |n: char| {
                    (n == '"' || n == '\'') && after_quote.is_none_or(|a| a.is_whitespace())
                };
                let boundary = next.is_none_or(|n| n.is_whitespace() || closing(n));
                if boundary && !(prev_digit && next_digit) {
                    // A closing quote right after the period belongs to this sentence.
                    if let Some(q) = next.filter(|n| *n == '"' || *n == '\'') {
                        cur.push(q);
                        i += 1;
                        if q == '"' {
                            quoted = !quoted;
                        }
                    }
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().trim_end_matches([';']).trim().to_string())
        .filter(|s| s.chars().any(|c| c.is_alphanumeric()))
        .collect()
}

/// How a sentence that continues the one before starts.
const CONTINUATION_STARTS: [&str; 50] = [
    "play ",
    "use this",
    "you can use this",
    "you can play this",
    "you may use this",
    "max ",
    "maximum ",
    "only ",
    "if you do",
    "if he or she does",
    "if your opponent does",
    "if it ",
    "if it's",
    "if that",
    "if not",
    "if the ",
    "if there",
    "if you roll",
    "if you revealed",
    "then ",
    "otherwise",
    "shuffle",
    "that ",
    "those ",
    "the rest",
    "put the rest",
    "discard the rest",
    "you may play this",
    "you may also",
    "show ",
    "or:",
    "or ",
    "in addition",
    "when it does",
    "it gets",
    "it does",
    "he gets",
    "she gets",
    "your opponent shuffles",
    "discard the revealed",
    "discard any cards put",
    "this ability",
    "you may draw",
    "reroll",
    "put that card back",
    "if you're correct",
    "retreat that",
    "tap that",
    "untap that",
    "choose any",
];

/// Whether a sentence continues the ability before it.
pub(super) fn is_continuation(s: &str) -> bool {
    if strip_prefix_ci(s.trim_start(), super::INSERT).is_some() {
        return false;
    }
    let stripped = strip_reminders(s);
    // Only reminder text ("(This includes herself.)"): it explains the
    // sentence before.
    if !stripped.chars().any(char::is_alphanumeric) {
        return true;
    }
    let s = stripped.as_str();
    let l = s.trim_start_matches(['*', '-', ' ']).to_ascii_lowercase();
    if l.trim_end_matches(['.', ' ']).ends_with(" instead")
        && !l.starts_with("when")
        && !l.starts_with("whenever")
    {
        return true;
    }
    // A list's next item: `- ...`, `* ...`, and a slash list's (`Adapt:
    // Each of your Jedi gets +1 power. / Pay 2 Force -> Protect 2`).
    if s.starts_with('*') || s.starts_with("- ") || s.trim_start().starts_with('/') {
        return true;
    }
    // A sentence about what the one before chose or showed.
    for r in [
        " that card",
        " that unit",
        " that character",
        " those ",
        " on it.",
        " on it ",
        " that arena",
        " the chosen",
        " of those",
    ] {
        if l.contains(r)
            && !l.starts_with("when")
            && !l.starts_with("as long as")
            && !l.contains(" -> ")
        {
            return true;
        }
    }
    CONTINUATION_STARTS.iter().any(|p| l.starts_with(p))
}

/// If the text starts a pilot ability: the text after the pilot marker.
pub(super) fn pilot_start(s: &str) -> Option<usize> {
    let t = s.trim_start();
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("[pilot]") || lower.starts_with(">o<") {
        return Some(0);
    }
    // "<Kinds> Pilot." / "<Kinds> Pilot:" at the start.
    let i = lower.find(" pilot")?;
    let after = lower[i + 6..].chars().next();
    if !matches!(after, Some('.') | Some(':')) {
        return None;
    }
    let kinds = &t[..i];
    let ok = kinds
        .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
        .filter(|w| !w.is_empty())
        .all(|w| w == "and" || w == "or" || w.chars().next().is_some_and(char::is_uppercase));
    ok.then_some(0)
}
