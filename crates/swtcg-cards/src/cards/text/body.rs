//! An ability's body, sentence by sentence and clause by clause, after the whole-text rules ([`super::rules`]) had their turn.

use super::*;

pub(super) fn classify_body(printed: &str, clean: &str, who: &Who) -> ReadAbility {
    let marked = mark_self(clean, &who.names)
        .replace(" also gets ", " gets ")
        .replace(" also gets:", " gets:")
        .replace("the THIS", "THIS")
        .replace("The THIS", "THIS");
    let marked = marked.trim().trim_end_matches([',', '.']).to_string();
    let lower = marked.to_ascii_lowercase();
    // Switch: a/b(/c).
    if let Some(rest) = strip_prefix_ci(&marked, "Switch:") {
        return switch(printed, rest);
    }
    for (k, why) in NOT_ATTACK_KEYWORDS {
        if starts_with_word(&lower, k) {
            // A Stack list is kept: stacks are built from it.
            if *k == "stack"
                && let Ok(ab) = parse(clean)
            {
                return keyword(printed, ab, None);
            }
            return ReadAbility::not_attack(printed, &format!("{}: {why}", title(k)));
        }
    }
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
            _ => sents.push(s),
        }
    }
    let first = sents.first().cloned().unwrap_or_default();
    let first = first.trim_end_matches('.');
    let (cost_text, effect) = split_cost(first);
    let cost = cost_text.map(read_cost);
    let eff_lower = effect.to_ascii_lowercase();
    for k in UNMODELLED_KEYWORDS {
        if starts_with_word(&eff_lower, &k.to_ascii_lowercase()) {
            let mut a = ReadAbility::unmodelled(printed, k);
            a.cost = cost;
            return a;
        }
    }
    // A whole keyword, or a keyword in words (some take two sentences).
    if sents.len() <= 1
        || sents[1..]
            .iter()
            .all(|s| is_restriction(&s.to_ascii_lowercase()))
    {
        let keyword_text = match &cost_text {
            Some(c) => format!("{c} -> {effect}"),
            None => effect.to_string(),
        };
        if let Ok(ab) = parse(&keyword_text.replace("THIS", "this unit")) {
            return keyword(printed, ab, cost);
        }
        // "Pay 2 Force -> Evade X, where X is the number of cards in ...".
        if let Some((k, x)) =
            split_top(&keyword_text, &[", where x is ", " where x is "]).split_first()
            && x.len() == 1
            && let Ok(ab) = crate::keywords::parse_with_x(k)
            && ab.x
        {
            let mut a = keyword(printed, ab, cost);
            match read_count(x[0]) {
                Some(per) => a.x = Some(XSource::Count { per }),
                None => {
                    a.class = Class::Condition;
                    a.x = Some(XSource::User);
                    a.situation = Some(Situation::Other {
                        text: "X is given by the user (=N)".into(),
                    });
                    a.decidable = Some(false);
                }
            }
            return a;
        }
    }
    // "Its power and health equal ...": the text sets the stats the card
    // prints as * (the user gives them).
    if (lower.starts_with("this's power") || lower.starts_with("this's speed, power"))
        && (lower.contains(" equal") || lower.contains(" is ") || lower.contains(" are "))
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.note = Some("it sets the stats printed as *: give them as NAME[power=N,health=N]".into());
        return a;
    }
    // Text that works from inside a stack: for the stack's top card, as
    // INSERT text is ("While this card is stacked or under Qui-Gon Jinn,
    // Qui-Gon's ...", "As long as this card is in Ferus's stack, Ferus gets").
    let clean_lower = clean.to_ascii_lowercase();
    for lead in [
        "while this card is stacked or under ",
        "while this card is stacked under ",
        "as long as this card is in ",
    ] {
        if let Some(r) = clean_lower.strip_prefix(lead)
            && let Some(comma) = r.find(", ")
        {
            let owner = clean[lead.len()..lead.len() + comma]
                .trim_end_matches("'s stack")
                .trim_end_matches("’s stack")
                .to_string();
            let rest = clean[lead.len() + comma + 2..].to_string();
            let mut names = who.names.clone();
            for w in crate::cards::text::self_names(&owner) {
                names.push(w);
            }
            let inner = Who {
                names,
                kinds: Vec::new(),
            };
            let mut a = classify_as(&rest, &inner);
            a.text = printed.to_string();
            a.insert = true;
            return a;
        }
    }
    // "THIS gets the abilities granted by those Pilots as if THIS were a
    // Starfighter": Starfighter Pilots' grants reach it.
    if let Some(r) =
        lower.strip_prefix("this gets the abilities granted by those pilots as if this were a ")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::PilotableAs {
            kind: title(r.trim_start_matches("n ").trim_end_matches('.')),
        });
        return a;
    }
    if lower.starts_with("this can be piloted by ")
        || lower.starts_with("this can only be piloted by ")
    {
        return ReadAbility::not_attack(printed, "which pilots it takes");
    }
    // "Prevent all damage to and from THIS".
    if lower == "prevent all damage to and from this" {
        let ab = Ability {
            keyword: Keyword::Evade(crate::unit::MAX_VALUE),
            cost: None,
            x: false,
        };
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Any);
        a.effects.push(Effect::Keyword {
            text: ab.to_string(),
            ability: ab,
        });
        a.effects.push(Effect::Harmless);
        return a;
    }
    // A trigger on other units' damage: all of it happens to other units.
    if let Some(r) = lower
        .strip_prefix("whenever ")
        .or_else(|| lower.strip_prefix("when "))
        && let Some((who, _)) = r.split_once(" would be damaged")
        && (who.starts_with("one of your other")
            || who.starts_with("another")
            || (!who.contains("this") && !who.starts_with("one of your") && !who.starts_with("a ")))
    {
        return ReadAbility::not_attack(printed, "it acts when another unit would be damaged");
    }
    // "As long as THIS is being attacked, Intercept abilities can't be activated".
    if (lower.starts_with("as long as this is being attacked")
        || lower.starts_with("while this is being attacked"))
        && lower.contains("intercept")
        && lower.contains("can't be activated")
    {
        let mut a = ReadAbility::new(printed, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(When::Defending);
        a.effects.push(Effect::NoIntercept);
        return a;
    }
    if let Some(a) = worded_keyword(printed, &marked, cost.clone()) {
        return a;
    }
    // A cost that taps or discards the unit: played instead of its attack
    // when "play only when this unit would attack".
    // A cost that discards or retreats this unit: it leaves the arena to
    // pay, so nothing the ability does can help it in an attack.
    let leaves = cost.as_ref().is_some_and(|c| {
        let l = c.text.to_ascii_lowercase();
        l.starts_with("discard this")
            || l.contains("discard this from")
            || l.starts_with("retreat this")
    });
    let tap_cost = cost.as_ref().is_some_and(|c| {
        let l = c.text.to_ascii_lowercase();
        l.split(|ch: char| !ch.is_alphanumeric())
            .any(|w| w == "tap")
            || l.contains("discard this")
    });
    let restricted_attacking = sents[1.min(sents.len())..].iter().any(|s| {
        let l = s.to_ascii_lowercase();
        is_restriction(&l)
            && (l.contains("would attack")
                || l.contains("is attacking")
                || l.contains("before the dice"))
    });
    // Sentence by sentence, clause by clause; restrictions first.
    let mut parts: Vec<ReadAbility> = Vec::new();
    let mut outside = false;
    let mut replaces_attack = false;
    let mut referent: Option<Recipient> = None;
    let mut choice = false;
    let mut not_attack_notes: Vec<String> = Vec::new();
    let mut restriction_situation: Option<Situation> = None;
    for sent in sents.iter().skip(1) {
        let sl = sent.to_ascii_lowercase();
        if is_restriction(&sl) {
            // "Play only if you attached an Equipment to Obi-Wan this turn":
            // a situation the cards can't tell.
            for part in sl.split(" and ") {
                let p = part
                    .trim()
                    .trim_start_matches("play ")
                    .trim_start_matches("only ")
                    .trim();
                if let Some(c) = p.strip_prefix("if ")
                    && !c.contains("attacking")
                    && !c.contains("would attack")
                    && !c.contains("damage is pending")
                {
                    restriction_situation = add_situation(
                        restriction_situation.take(),
                        Situation::Other {
                            text: format!("only if {c}"),
                        },
                    );
                }
            }
            if OUTSIDE_ATTACKS.iter().any(|t| sl.contains(t)) || sl.contains("build step") {
                outside = true;
            }
            if sl.contains("would attack") && tap_cost {
                replaces_attack = true;
            }
        }
    }
    for (i, sent) in sents.iter().enumerate() {
        let sent = sent.trim().trim_end_matches('.');
        let sl = sent.to_ascii_lowercase();
        if i > 0 && is_restriction(&sl) {
            continue;
        }
        let body = if i == 0 { effect } else { sent };
        let mut leads = Leads {
            situation: None,
            outside: false,
            choice: false,
            damaged: None,
        };
        let core = strip_leads(body, &mut leads);
        outside |= leads.outside;
        choice |= leads.choice;
        let cl = core.to_ascii_lowercase();
        if let Some(r) = cl.strip_prefix("tap one of your opponent's ") {
            // "Tap one of your opponent's Ground units and put 2 damage
            // counters on it": that unit is chosen.
            let orig = &core["tap one of your opponent's ".len()..];
            let d = read_descriptor(orig.split(" and ").next().unwrap_or(orig))
                .or_else(|| read_descriptor(r.split(" and ").next().unwrap_or(r)));
            referent = Some(Recipient::Chosen(d));
        }
        let choose_at = if cl.starts_with("choose ") {
            Some(0)
        } else {
            top_level_find(&cl, " you may choose ")
                .map(|i| i + 9)
                .or_else(|| top_level_find(&cl, ", choose ").map(|i| i + 2))
        };
        if let Some(at) = choose_at {
            // It only sets up what "that unit" means next.
            referent = chosen(&core[at..]).map(|r| who.narrow(r));
            continue;
        }
        // "A, or B": a choice among effects.
        let alternatives: Vec<&str> = if leads.choice || choice {
            split_top(core, &[", or ", " or: "])
        } else {
            vec![core]
        };
        if alternatives.len() > 1 {
            choice = true;
        }
        for alt in alternatives {
            for clause in clauses(alt) {
                let cl = clause.to_ascii_lowercase();
                let damaged_ref = leads.damaged.as_ref().or(referent.as_ref());
                let damaged_ref = damaged_ref.map(|r| who.narrow(r.clone()));
                let part = gets(
                    printed,
                    clause,
                    cost.clone(),
                    leads.situation.clone(),
                    referent.as_ref(),
                    who,
                )
                .or_else(|| {
                    prevention(
                        printed,
                        clause,
                        cost.clone(),
                        leads.situation.clone(),
                        damaged_ref.as_ref(),
                        who,
                    )
                })
                .or_else(|| {
                    damage_clause(
                        printed,
                        clause,
                        cost.clone(),
                        leads.situation.clone(),
                        damaged_ref.as_ref().or(referent.as_ref()),
                        restricted_attacking,
                        who,
                    )
                });
                if part.is_none() && non_attack_clause(&cl) {
                    continue;
                }
                match part {
                    Some(p) if p.class == Class::NotAttack => {
                        if let Some(n) = p.note {
                            not_attack_notes.push(n);
                        }
                    }
                    Some(mut p) => {
                        if cl.trim_end_matches('.').ends_with(" instead")
                            && matches!(p.class, Class::Keyword | Class::Condition)
                        {
                            p.note = Some("instead".into());
                        }
                        parts.push(p)
                    }
                    None => {
                        if !has_attack_word(&cl)
                            || (WHO_ATTACKS.iter().any(|w| cl.contains(w))
                                && !cl.contains(" power"))
                        {
                            continue;
                        }
                        if (outside || leads.outside) && counters_only(&cl) {
                            continue;
                        }
                        parts.push(ReadAbility::not_understood(
                            printed,
                            &format!("'{}'", quote_short(clause)),
                        ));
                    }
                }
            }
        }
    }
    if replaces_attack {
        return ReadAbility::not_attack(printed, "played instead of the unit's attack (it taps)");
    }
    if let Some(nu) = parts.iter().find(|p| p.class == Class::NotUnderstood) {
        return nu.clone();
    }
    if let Some(u) = parts.iter().find(|p| p.class == Class::Unmodelled) {
        let mut u = u.clone();
        u.text = printed.to_string();
        return u;
    }
    let mut attack: Vec<ReadAbility> = parts
        .into_iter()
        .filter(|p| matches!(p.class, Class::Keyword | Class::Condition))
        .collect();
    if attack.is_empty() {
        let why = if let Some(n) = not_attack_notes.first() {
            n.clone()
        } else if outside {
            "it happens outside attacks".to_string()
        } else {
            NON_ATTACK_EFFECT
                .iter()
                .find(|w| lower.contains(*w))
                .map_or("nothing in it acts on an attack".to_string(), |w| {
                    format!("its effect is about {w}, not an attack")
                })
        };
        return ReadAbility::not_attack(printed, &why);
    }
    if attack.len() > 1 && choice {
        // "Choose one: A. Or: B": one of them, as the player chooses.
        let mut whole = attack[0].clone();
        whole.text = printed.to_string();
        whole.choices = attack.iter().map(|p| p.effects.clone()).collect();
        whole.effects = whole.choices.iter().flatten().cloned().collect();
        let subj = attack[0].subject;
        if !attack.iter().all(|p| p.subject == subj) {
            return ReadAbility::not_understood(
                printed,
                "a choice among effects on different units",
            );
        }
        attack = vec![whole];
    }
    if attack.len() > 1 {
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
            attack = vec![first];
        } else {
            // Parts, each with its subject and situation. A part written
            // "... instead" replaces the one before it where it applies.
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
            let mut whole = ReadAbility::new(printed, Class::Keyword);
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
            whole.cost = cost.clone();
            for p in &mut attack {
                p.note = None;
            }
            whole.parts = attack;
            attack = vec![whole];
        }
    }
    let mut a = attack.remove(0);
    if let Some(r) = restriction_situation {
        a.situation = add_situation(a.situation.take(), r);
        a.class = Class::Condition;
        a.decidable = a.situation.as_ref().map(Situation::decidable);
    }
    if leaves && a.subject == Some(Subject::This) {
        return ReadAbility::not_attack(printed, "the unit leaves the arena to pay for it");
    }
    if outside || choice {
        // Played or triggered outside attacks (or a choice): only what lasts
        // into an attack counts, when the player chose it.
        let lasting = lower.contains("until end of")
            || lower.contains("until the end of")
            || lower.contains("until end of game");
        if outside && !lasting {
            return ReadAbility::not_attack(
                printed,
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
    }
    a
}
