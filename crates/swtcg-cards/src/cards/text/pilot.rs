//! Pilot abilities: the kinds of unit a pilot fits and what the piloted unit gets.

use super::{
    Class, Draft, Effect, PilotGrant, Subject, When, Who, classify_draft, has_attack_word,
    read_grants,
};

/// Reads a pilot ability: the kinds it pilots and its grants. `others`:
/// the card database's names, the pilot's own among them (in a grant it
/// names the pilot card, not the piloted unit).
pub(super) fn pilot(
    printed: &str,
    clean: &str,
    others: &std::sync::Arc<super::lex::Lexicon>,
) -> Draft {
    let mut t = clean.trim();
    for m in ["[Pilot]", "[pilot]", ">o<"] {
        if let Some(r) = t.strip_prefix(m) {
            t = r.trim();
        }
    }
    let lower = t.to_ascii_lowercase();
    let (kinds_text, rest) = match lower.find(" pilot") {
        Some(i) => (&t[..i], t[i + 6..].trim_start_matches(['.', ':', ' '])),
        None => (t, ""),
    };
    let kinds: Vec<String> = kinds_text
        .replace(" and ", ",")
        .replace(" or ", ",")
        .split([',', '/'])
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .collect();
    // "The Starfighter gets: * a * b" / "the Patrol Ship gets 'text'".
    let rl = rest.to_ascii_lowercase();
    let mut grants = Vec::new();
    // ... or `Speeder and Vehicle get: ...` (the kinds, plural): the
    // first of the two.
    let gets = [" gets", " get:"]
        .iter()
        .filter_map(|w| rl.find(w).map(|i| (i, w.len())))
        .min();
    let body = match gets {
        Some((i, len)) => rest[i + len..].trim_start_matches([':', ' ']),
        None => rest,
    };
    let mut piloted: Vec<String> = kinds.clone();
    piloted.extend(["Starfighter", "Space Unit", "Capital Ship", "Transport"].map(String::from));
    let items = pilot_items(body);
    for item in items {
        let item = item.trim();
        // A grant in quotes whole (`'Pay 3 Force -> Evade 4'`): its text.
        let quoted = item.len() > 1
            && ((item.starts_with('"') && item.ends_with('"'))
                || (item.starts_with('\'') && item.ends_with('\'')));
        let item = if quoted {
            &item[1..item.len() - 1]
        } else {
            item
        };
        let item = item.trim().to_string();
        if item.is_empty() {
            continue;
        }
        // The piloted unit's own text: "this Starfighter", "the Walker".
        let mut g = item.clone();
        for k in &piloted {
            for pre in ["this ", "This ", "the ", "The "] {
                g = g.replace(&format!("{pre}{k}"), "this unit");
            }
        }
        grants.push(pilot_grant(&item, &g, others));
    }
    let mut a = Draft::new(printed, Class::Pilot);
    a.pilot = Some(PilotGrant {
        kinds,
        grants: grants.into_iter().map(Draft::finish).collect(),
    });
    a
}

/// One item a pilot grants (`g`: the item with the piloted unit written
/// `this unit`): bare grants (`+1 power`, `Critical Hit 2`) are the
/// piloted unit's keywords; anything else is read as its own ability.
fn pilot_grant(item: &str, g: &str, others: &std::sync::Arc<super::lex::Lexicon>) -> Draft {
    let bare = g.trim_end_matches('.');
    let grants = read_grants(bare);
    if let Ok(effects) = &grants
        && !effects.is_empty()
    {
        let mut a = Draft::new(item, Class::Keyword);
        a.subject = Some(Subject::This);
        a.when = Some(
            if effects.iter().all(|e| matches!(e, Effect::Power { .. })) {
                When::Attacking
            } else {
                When::Any
            },
        );
        a.effects = effects.clone();
        a.rule = "pilot";
        // A grant with its own cost (`Put 1 damage counter on one of your
        // Imperial Space units -> Evade 2`) is charged as an ability's.
        return super::body::charge_effects(a);
    }
    let piloted = Who {
        names: vec!["this unit".to_string()],
        kinds: Vec::new(),
        others: others.clone(),
    };
    let mut read = classify_draft(g, &piloted);
    read.text = item.to_string();
    // Another card's abilities granted (`Each of Kazuda Xiono's non-Pilot
    // abilities`) hold no word of an attack, and are not nothing.
    let family = super::unmodelled_family(&g.to_ascii_lowercase());
    if read.class == Class::NotAttack && family == Some(super::ANOTHER_CARDS_ABILITIES) {
        let mut u = Draft::unmodelled(item, super::ANOTHER_CARDS_ABILITIES);
        u.rule = read.rule;
        u.clauses = read.clauses;
        return u;
    }
    if read.class == Class::NotUnderstood
        && grants.is_ok()
        && !has_attack_word(&bare.to_ascii_lowercase())
    {
        return Draft::not_attack(item, "nothing an attack reads (speed, ...)");
    }
    read
}

/// The items a pilot grants: `* a * b`, `- a - b`, or `a, b`. A list's
/// marks are the lexer's: `*`, or a dash at the start of an item (a dash
/// in an arrow, `Pay 1 Force -> Deflect 1`, is the arrow's, and a sign
/// before a digit, `-1 power`, is the number's).
pub(super) fn pilot_items(body: &str) -> Vec<String> {
    let b = body.trim();
    let toks = super::lex::scan(b);
    let mark = |t: &super::lex::Token, c: &str| {
        t.kind == super::lex::Kind::Punct && &b[t.span.clone()] == c
    };
    let list_mark = if toks.iter().any(|t| mark(t, "*")) {
        Some("*")
    } else if toks.first().is_some_and(|t| mark(t, ">")) {
        Some(">")
    } else if toks.first().is_some_and(|t| mark(t, "-")) || b.contains("  -") || b.contains(" - ") {
        Some("-")
    } else {
        None
    };
    let clean = |s: &str| s.trim().trim_end_matches('.').trim().to_string();
    if let Some(m) = list_mark {
        let mut out = Vec::new();
        let mut start = 0;
        for t in toks.iter().filter(|t| mark(t, m)) {
            out.push(clean(&b[start..t.span.start]));
            start = t.span.end;
        }
        out.push(clean(&b[start..]));
        out.retain(|s| !s.is_empty());
        return out;
    }
    // "'quoted text'" or plain items separated by commas.
    if b.starts_with('\'') || b.starts_with('"') {
        return vec![b.to_string()];
    }
    b.split(", ").map(clean).collect()
}

#[cfg(test)]
mod tests {
    use super::pilot_items;

    #[test]
    fn a_list_dash_is_never_an_arrows() {
        assert_eq!(
            pilot_items("  -+30 speed   -Pay 1 Force -> Deflect 1   -Pay 0 Force -> Retaliate 2"),
            [
                "+30 speed",
                "Pay 1 Force -> Deflect 1",
                "Pay 0 Force -> Retaliate 2"
            ]
        );
        assert_eq!(
            pilot_items("- Lucky 2  - Tap -> Remove up to 2 counters"),
            ["Lucky 2", "Tap -> Remove up to 2 counters"]
        );
        assert_eq!(
            pilot_items("* +20 speed. * Pay 1 Force - > Evade 1."),
            ["+20 speed", "Pay 1 Force - > Evade 1"]
        );
        assert_eq!(
            pilot_items("> +3 power > Pay 1 Force -> Overkill"),
            ["+3 power", "Pay 1 Force -> Overkill"]
        );
        assert_eq!(pilot_items("+1 power, Evade 1"), ["+1 power", "Evade 1"]);
    }

    /// A grant of another card's abilities is unmodelled, not nothing.
    #[test]
    fn another_cards_abilities_are_not_nothing() {
        let text = "Starfighter Pilot. The Starfighter gets: -Each of Kazuda Xiono's non-Pilot abilities. -Lucky 1";
        let a = super::pilot(text, text, &Default::default());
        let grants = &a.pilot.as_ref().unwrap().grants;
        assert_eq!(grants.len(), 2, "{grants:?}");
        assert_eq!(grants[0].class(), super::Class::Unmodelled, "{grants:?}");
        assert_eq!(grants[1].class(), super::Class::Keyword, "{grants:?}");
    }

    /// `Speeder and Vehicle get:` (no article, the kinds plural) ends the
    /// head as `The Starfighter gets:` does: it is no grant of its own.
    #[test]
    fn the_kinds_get_their_grants() {
        for text in [
            "Speeder and Vehicle Pilot. Speeder and Vehicle get:  - Parry 1  -Overkill",
            "Speeder and Vehicle Pilot. The Speeder or Vehicle gets: - Parry 1 - Overkill",
            "Speeder and Vehicle Pilot. Speeder and Vehicle get: - Parry 1 - This unit gets Overkill",
        ] {
            let a = super::pilot(text, text, &Default::default());
            let grants = &a.pilot.as_ref().unwrap().grants;
            assert_eq!(grants.len(), 2, "{text}: {grants:?}");
            assert!(
                grants.iter().all(|g| g.class() == super::Class::Keyword),
                "{text}: {grants:?}"
            );
        }
    }
}
