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
            out.push_str(&format!("  {}. [{}] {}\n", i + 1, a.class().name(), a.text));
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
            if !a.effects().is_empty() {
                detail.push(format!("effects: {}", text::effects_text(a.effects())));
            }
            if let Some(n) = a.why().or(a.grant().and_then(|g| g.note.as_deref())) {
                detail.push(n.to_string());
            }
            if let text::Reading::Unmodelled { keyword } = &a.reading {
                detail.push(format!("not modelled: {keyword}"));
            }
            if !detail.is_empty() {
                out.push_str(&format!("     {}\n", detail.join("; ")));
            }
            if explain {
                out.push_str(&text::explain(a));
            }
        }
        out
    }
}
