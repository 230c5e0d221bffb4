//! A card as `cards find` shows it: its line, then each ability with its
//! class, subject, timing, effects and notes (and, explained, the rule
//! that read it and how each clause was read).

use super::{Card, Stat, text};

impl Card {
    /// [`Card::to_text`], with `explain`: for each ability, the rule that
    /// read it and, clause by clause, how each clause was read.
    pub fn to_text_with(&self, explain: bool) -> String {
        let stat = |s: &Option<Stat>| match s {
            Some(Stat::Value(v)) => v.to_string(),
            Some(Stat::Variable(v)) => v.clone(),
            None => "-".into(),
        };
        let mut out = format!(
            "{} [{} {} {}{}] power {} health {} cost {} speed {} ({}: row {})\n",
            self.key(),
            self.set,
            self.side,
            self.card_type,
            if self.subtype.is_empty() {
                String::new()
            } else {
                format!(" - {}", self.subtype)
            },
            self.power.map_or("*".into(), |v| v.to_string()),
            self.health.map_or("*".into(), |v| v.to_string()),
            stat(&self.cost),
            stat(&self.speed),
            self.file,
            self.row
        );
        if let Some(v) = &self.variable {
            out.push_str(&format!("  (needs values: {v})\n"));
        }
        for (i, a) in self.abilities.iter().enumerate() {
            ability_text(&mut out, &format!("  {}.", i + 1), a, explain);
        }
        out
    }
}

/// One ability: its class and text, its detail, with `explain` the rule
/// and clauses; its parts (each with its own subject or situation) and a
/// pilot ability's grants (each read as the piloted unit's own ability)
/// below it.
fn ability_text(out: &mut String, label: &str, a: &text::ReadAbility, explain: bool) {
    let pad = " ".repeat(label.len() + 1);
    out.push_str(&format!("{label} [{}] {}\n", a.class().name(), a.text));
    let d = detail(a);
    if !d.is_empty() {
        out.push_str(&format!("{pad}{}\n", d.join("; ")));
    }
    if explain {
        out.push_str(&text::explain(a));
    }
    if let Some(g) = a.grant() {
        for (k, part) in g.parts.iter().enumerate() {
            out.push_str(&format!(
                "{pad}part {}. [{}] {}\n",
                k + 1,
                part.class().name(),
                detail(part).join("; ")
            ));
        }
    }
    if let text::Reading::Pilot(p) = &a.reading {
        out.push_str(&format!(
            "{pad}pilots: {}; grants {}\n",
            p.kinds.join(", "),
            p.grants.len()
        ));
        for (k, g) in p.grants.iter().enumerate() {
            ability_text(out, &format!("{pad}grant {}.", k + 1), g, explain);
        }
    }
}

/// What a reading says, in words: subject, timing, situation, effects,
/// modes, choices, X, notes.
fn detail(a: &text::ReadAbility) -> Vec<String> {
    let word = |v: serde_json::Result<serde_json::Value>| {
        v.ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    };
    let mut detail = Vec::new();
    if let Some(g) = a.grant() {
        detail.push(format!("subject {}", word(serde_json::to_value(g.subject))));
        detail.push(format!("when {}", word(serde_json::to_value(g.when))));
    }
    if let Some(d) = a.decidable() {
        detail.push(if d {
            "decided by the two cards".into()
        } else {
            "needs --condition".into()
        });
    }
    if let Some(s) = a.situation() {
        detail.push(format!("if {s}"));
    }
    if !a.effects().is_empty() {
        detail.push(format!("effects: {}", text::effects_text(a.effects())));
    }
    if let Some(g) = a.grant() {
        if !g.switch.is_empty() {
            let modes: Vec<String> = g
                .switch
                .iter()
                .map(|(m, e)| format!("{m}: {}", text::effects_text(e)))
                .collect();
            detail.push(format!("switch {}", modes.join(" / ")));
        }
        if !g.choices.is_empty() {
            let c: Vec<String> = g.choices.iter().map(|e| text::effects_text(e)).collect();
            detail.push(format!("one of: {}", c.join(" | ")));
        }
        if let Some(x) = &g.x {
            detail.push(format!(
                "X: {}",
                serde_json::to_string(x).unwrap_or_default()
            ));
        }
    }
    if let Some(n) = a.why().or(a.grant().and_then(|g| g.note.as_deref())) {
        detail.push(n.to_string());
    }
    if let text::Reading::Unmodelled { keyword } = &a.reading {
        detail.push(format!("not modelled: {keyword}"));
    }
    detail
}
