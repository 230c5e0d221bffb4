//! How a text names its own unit (self names, titles), and text clean-up: accents, reminders, quotes, whole-word replacement.

/// Words that are titles or kinds, never a unit's nickname by themselves.
pub(super) const TITLES: &[&str] = &[
    "darth",
    "captain",
    "general",
    "admiral",
    "commander",
    "lieutenant",
    "lietenant",
    "queen",
    "princess",
    "senator",
    "chancellor",
    "emperor",
    "grand",
    "moff",
    "count",
    "baron",
    "inquisitor",
    "master",
    "jedi",
    "sith",
    "the",
    "and",
    "of",
    "squad",
    "team",
    "imperial",
    "rebel",
    "republic",
    "trade",
    "federation",
    "droid",
    "fighter",
    "starfighter",
    "wing",
    "squadron",
    "clone",
    "trooper",
    "stormtrooper",
    "elite",
    "battle",
    "assault",
    "tie",
    "x-wing",
    "y-wing",
    "class",
    "shuttle",
    "transport",
    "tank",
    "speeder",
    "walker",
    "ship",
    "cruiser",
    "star",
    "destroyer",
    "apprentice",
    "guard",
    "crew",
    "twins",
    "force",
    "dark",
    "lord",
    "shadow",
    "red",
    "gold",
    "black",
    "lego",
    "promo",
    "preview",
    "alt",
    "old",
    "young",
    "boy",
    "child",
    "unit",
    "one",
    "two",
    "three",
    "five",
    "eight",
    "monsters",
    "strike",
    "hammer",
    "titan",
];

/// The ways a card's text names its own unit: its full name (without
/// version), and each distinctive word of it (`Vader`, `Obi-Wan`, `Tyranus`).
pub fn self_names(name: &str) -> Vec<String> {
    self_names_with(name, "")
}

/// [`self_names`], leaving out words of the card's subtype and type (a
/// `Jawa Leader`'s text says `each other Jawa` of other units).
pub fn self_names_with(name: &str, kinds: &str) -> Vec<String> {
    let kinds: Vec<String> = kinds
        .split(|c: char| !c.is_alphanumeric())
        .map(|w| singular(&w.to_ascii_lowercase()))
        .collect();
    let base = crate::cards::base_name(name).to_string();
    let mut out = vec![base.clone()];
    let words: Vec<&str> = base.split_whitespace().collect();
    // Runs of two or more words ("Jar Jar" of "Jar Jar Binks").
    for len in (2..words.len()).rev() {
        for start in 0..=words.len() - len {
            let run = &words[start..start + len];
            // A run that is a kind of unit (`One Sith` of a One Sith
            // Lord) names others too.
            let lower: Vec<String> = run
                .iter()
                .map(|w| singular(&w.to_ascii_lowercase()))
                .collect();
            if kinds.windows(len).any(|k| k == lower.as_slice()) {
                continue;
            }
            // Three words or more, or the name's first words, are the
            // unit's whatever they are (`Sith Master and Apprentice`,
            // `Rebel One`).
            if len >= 3
                || start == 0
                || run
                    .iter()
                    .any(|w| !TITLES.contains(&w.to_ascii_lowercase().as_str()))
            {
                out.push(run.join(" "));
            }
        }
    }
    if words.len() > 1 {
        for w in &words {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'');
            // `Vader`, and designations with a digit (`R5-D4`, `IG-88`).
            let designation = w
                .chars()
                .skip(1)
                .any(|c| c.is_lowercase() || c.is_ascii_digit())
                || (w.chars().count() >= 4 && w.chars().all(|c| c.is_ascii_uppercase()));
            if w.chars().count() >= 2
                && w.chars()
                    .next()
                    .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
                && designation
                && !TITLES.contains(&w.to_ascii_lowercase().as_str())
                && !kinds.contains(&singular(&w.to_ascii_lowercase()))
            {
                out.push(w.to_string());
            }
        }
    }
    // "Padme" / "Padmé" / "Padm_": also without accents.
    let plain: Vec<String> = out.iter().map(|n| deaccent(n)).collect();
    for p in plain {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out.sort_by_key(|n| std::cmp::Reverse(n.len()));
    out
}

/// The text without accents (the crate's one fold, [`crate::cards::unaccented`]),
/// and the files' `_` and `?` for a lost `é` (`Padm_`) read as `e`.
pub(super) fn deaccent(s: &str) -> String {
    crate::cards::unaccented(s)
        .chars()
        .map(|c| match c {
            '_' | '?' => 'e',
            c => c,
        })
        .collect()
}

/// Removes parenthetical reminder text and normalises quotes, spaces and the
/// files' replacement characters (`it_s` → `it's`).
pub fn strip_reminders(text: &str) -> String {
    // A reminder that ended its sentence (`beneath PROXY (... not in
    // play.) PROXY gains ...`) leaves a mark: a sentence end when the next
    // word starts a sentence.
    const END: char = '\u{1}';
    let mut out = String::new();
    let mut depth = 0;
    let mut last_inside = ' ';
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 && matches!(last_inside, '.' | '!') {
                    out.push(END);
                }
            }
            c if depth > 0 && !c.is_whitespace() => last_inside = c,
            _ if depth == 0 => out.push(crate::cards::typed(c)),
            _ => {}
        }
    }
    let out = if out.contains("_s") {
        out.replace("_s ", "'s ")
            .replace("_s.", "'s.")
            .replace("_s,", "'s,")
    } else {
        out
    };
    // The files' `?` for a lost apostrophe between letters (`can?t`), and
    // a sign set apart from its number (`+ 1 power`).
    let out = lost_apostrophes(&out);
    let out = number_words(&out);
    let out = without_flavor(&out);
    let out = if out.contains('→') {
        out.replace('→', "->")
    } else {
        out
    };
    let out = if out.contains(END) {
        sentence_ends(&out, END)
    } else {
        out
    };
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // A space before a comma or a period (looked for byte by byte: most
    // texts have none, and a substring search costs more to set up).
    if out
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b' ' && matches!(w[1], b',' | b'.'))
    {
        out.replace(" ,", ",").replace(" .", ".")
    } else {
        out
    }
}

/// The text without a quote of flavor at its end (`"Rakghouls! Attack, my
/// children!" -Celeste Morne`): a quoted sentence, then a dash and a name.
fn without_flavor(text: &str) -> String {
    let t = text.trim_end();
    for dash in ["\" -", "\" \u{2014}", "\"-", "\"\u{2014}", "\" \u{2013}"] {
        let Some(at) = t.rfind(dash) else { continue };
        let who = t[at + dash.len()..].trim();
        let name_like = !who.is_empty()
            && who.split_whitespace().count() <= 5
            && who
                .split_whitespace()
                .all(|w| w.starts_with(|c: char| c.is_uppercase()));
        let Some(open) = t[..at].rfind('"') else {
            continue;
        };
        let quoted = &t[open + 1..at];
        if name_like && quoted.trim_end().ends_with(['!', '.', '?']) {
            return t[..open].trim_end().to_string();
        }
    }
    text.to_string()
}

/// Numbers in words before what they count (`two damage counters`, `one
/// of that damage`) as digits.
fn number_words(text: &str) -> String {
    const NUMBERS: [(&str, &str); 6] = [
        ("one", "1"),
        ("two", "2"),
        ("three", "3"),
        ("four", "4"),
        ("five", "5"),
        ("six", "6"),
    ];
    const COUNTED: [&str; 6] = [
        "damage",
        "counter",
        "counters",
        "dice",
        "more",
        "additional",
    ];
    let words: Vec<&str> = text.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    // Whether "one" or "two" is a word (the replacements below need one).
    let mut one_or_two = false;
    for (i, w) in words.iter().enumerate() {
        one_or_two |= *w == "one" || *w == "two";
        // The next word, its trailing period or comma aside, among the
        // counted (each lowercase: compared without case, no allocation).
        let counted = || {
            words.get(i + 1).is_some_and(|n| {
                let n = n.trim_end_matches([',', '.']);
                COUNTED.iter().any(|c| n.eq_ignore_ascii_case(c))
            })
        };
        let digit = NUMBERS
            .iter()
            .find(|(n, _)| w.eq_ignore_ascii_case(n))
            .filter(|_| counted())
            .map(|(_, d)| *d);
        out.push(digit.unwrap_or(w));
    }
    let out = out.join(" ");
    if one_or_two {
        out.replace(" one of that damage", " 1 of that damage")
            .replace(" two of that damage", " 2 of that damage")
    } else {
        out
    }
}

/// `can?t` → `can't`: a `?` between two letters is an apostrophe the
/// file lost; `+ 1` → `+1`.
fn lost_apostrophes(text: &str) -> String {
    // Only a `?` or a `+` changes anything.
    if !text.contains(['?', '+']) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let between = i > 0
            && chars[i - 1].is_alphabetic()
            && chars.get(i + 1).is_some_and(|n| n.is_alphabetic());
        let spaced_sign = c == ' '
            && i > 0
            && chars[i - 1] == '+'
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        match c {
            '?' if between => out.push('\''),
            _ if spaced_sign => {}
            c => out.push(c),
        }
    }
    out
}

/// Each `end` mark as a period when the next word starts a sentence (an
/// uppercase letter, after no period already), else removed.
fn sentence_ends(text: &str, end: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(end) {
        let before = &rest[..at];
        let after = &rest[at + end.len_utf8()..];
        out.push_str(before);
        let starts = after.trim_start().starts_with(|c: char| c.is_uppercase());
        let ended = out.trim_end().ends_with(['.', '!', ':', '"']) || out.trim().is_empty();
        if starts && !ended {
            let keep = out.trim_end().len();
            out.truncate(keep);
            out.push('.');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Granted text in single quotes (`gets 'Pay 1 Force -> Evade 3.'`, as
/// JG writes it) in double quotes, so that it is read as quoted text. An
/// apostrophe inside a word is left alone.
pub(super) fn single_quotes_to_double(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = chars.clone();
    let mut open: Option<usize> = None;
    for i in 0..chars.len() {
        if chars[i] != '\'' {
            continue;
        }
        let prev = if i == 0 { None } else { Some(chars[i - 1]) };
        let next = chars.get(i + 1).copied();
        match open {
            None => {
                if prev.is_none_or(|p| p.is_whitespace() || p == ':')
                    && next.is_some_and(|n| n.is_uppercase() || n == '[')
                {
                    open = Some(i);
                }
            }
            Some(o) => {
                if prev.is_some_and(|p| !p.is_whitespace())
                    && next.is_none_or(|n| n.is_whitespace() || ".,;)".contains(n))
                {
                    out[o] = '"';
                    out[i] = '"';
                    open = None;
                }
            }
        }
    }
    out.into_iter().collect()
}

pub(super) fn strip_prefix_ci<'a>(s: &'a str, p: &str) -> Option<&'a str> {
    s.get(..p.len())
        .filter(|h| h.eq_ignore_ascii_case(p))
        .map(|_| &s[p.len()..])
}

/// Every space as a plain one: a no-break space, a thin space and the
/// others (`char::is_whitespace` beyond ASCII) are spaces, and the
/// invisible joiners and marks (zero-width space, word joiner, a byte
/// order mark inside a field) are nothing. A set whose text was copied
/// from a web page reads as one typed (with no-break spaces between its
/// words, 57% of the six sets' abilities were not understood).
pub fn plain_spaces(text: &str) -> std::borrow::Cow<'_, str> {
    let invisible = |c: char| {
        matches!(
            c,
            '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
        )
    };
    if text.is_ascii()
        || !text
            .chars()
            .any(|c| !c.is_ascii() && (c.is_whitespace() || invisible(c)))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .filter(|&c| !invisible(c))
        .map(|c| {
            if !c.is_ascii() && c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .into()
}

/// The text in ASCII (accents dropped, other characters as `?`), so that
/// positions found in its lowercase copy cut it safely.
pub fn ascii_only(text: &str) -> String {
    text.chars()
        .map(|c| match crate::cards::typed(c) {
            c if c.is_ascii() => c,
            '→' => '>',
            c => {
                let d = deaccent(&c.to_string());
                d.chars().next().filter(char::is_ascii).unwrap_or('?')
            }
        })
        .collect()
}

/// `Stormtroopers` → `Stormtrooper`, word by word (not `Jedi`, `Sith`, ...).
pub fn singular(words: &str) -> String {
    words
        .split_whitespace()
        .map(|w| {
            let l = w.to_ascii_lowercase();
            // `Spies`, `Armies`: -ies is -y.
            if l.len() > 4 && l.ends_with("ies") && w.is_char_boundary(w.len() - 3) {
                format!("{}y", &w[..w.len() - 3])
            } else if l.len() > 3
                && l.ends_with('s')
                && !l.ends_with("ss")
                && !l.ends_with("us")
                && !l.ends_with("is")
            {
                w[..w.len() - 1].to_string()
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
