//! Pilot abilities: the kinds of unit a pilot fits and what the piloted unit gets.

use super::*;

/// Reads a pilot ability: the kinds it pilots and its grants.
pub(super) fn pilot(printed: &str, clean: &str, names: &[String]) -> Draft {
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
    let body = match rl.find(" gets") {
        Some(i) => rest[i + 5..].trim_start_matches([':', ' ']),
        None => rest,
    };
    let mut piloted: Vec<String> = kinds.clone();
    piloted.extend(["Starfighter", "Space Unit", "Capital Ship", "Transport"].map(String::from));
    let items = pilot_items(body);
    for item in items {
        let item = item
            .trim()
            .trim_matches(|c| c == '\'' || c == '"')
            .trim()
            .to_string();
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
        let _ = names;
        // Bare grants ("+1 power", "Critical Hit 2") or abilities.
        let bare = g.trim_end_matches('.');
        match read_grants(bare) {
            Ok(effects) if !effects.is_empty() => {
                let mut a = Draft::new(&item, Class::Keyword);
                a.subject = Some(Subject::This);
                a.when = Some(
                    if effects.iter().all(|e| matches!(e, Effect::Power { .. })) {
                        When::Attacking
                    } else {
                        When::Any
                    },
                );
                a.effects = effects;
                grants.push(a);
            }
            Ok(_) if !has_attack_word(&bare.to_ascii_lowercase()) => {
                grants.push(Draft::not_attack(
                    &item,
                    "nothing an attack reads (speed, ...)",
                ));
            }
            _ => grants.push(classify_draft(&g, &Who::named("this unit"))),
        }
    }
    let mut a = Draft::new(printed, Class::Pilot);
    a.pilot = Some(PilotGrant {
        kinds,
        grants: grants.into_iter().map(Draft::finish).collect(),
    });
    a
}

/// The items a pilot grants: `* a * b`, `- a - b`, or `a, b`.
pub(super) fn pilot_items(body: &str) -> Vec<String> {
    let b = body.trim();
    if b.contains('*') {
        return b
            .split('*')
            .map(|s| s.trim().trim_end_matches('.').to_string())
            .collect();
    }
    if b.starts_with('-') || b.contains("  -") || b.contains(" - ") {
        return b
            .split(" -")
            .flat_map(|s| s.split("  -"))
            .map(|s| {
                s.trim()
                    .trim_start_matches('-')
                    .trim()
                    .trim_end_matches('.')
                    .to_string()
            })
            .collect();
    }
    // "'quoted text'" or plain items separated by commas.
    if b.starts_with('\'') || b.starts_with('"') {
        return vec![b.to_string()];
    }
    b.split(", ")
        .map(|s| s.trim().trim_end_matches('.').to_string())
        .collect()
}
