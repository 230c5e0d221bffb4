//! One clause as the clause rules (`grant`, `prevention`, `damage`) see it:
//! its words, and what the sentence around it said (the cost, the
//! situation of its leading clauses, what "that unit" is, whose damage it
//! is about, whether it is played while the unit attacks). Built once per
//! clause in `body.rs`.

use super::{Class, Cost, Draft, Effect, Recipient, Situation, Subject, When, Who};

/// One clause and its sentence's context.
pub(super) struct Clause<'a> {
    /// The ability as printed.
    pub(super) printed: &'a str,
    /// The clause as written (the unit's names as `THIS`).
    pub(super) text: &'a str,
    /// The clause, lowercase, without its final period.
    pub(super) l: String,
    /// The ability's cost.
    pub(super) cost: Option<Cost>,
    /// The situation its leading clauses set.
    pub(super) situation: Option<Situation>,
    /// What "that unit" refers to (a `choose ...` before it).
    pub(super) referent: Option<&'a Recipient>,
    /// Whose damage it is about (`Whenever THIS would be damaged, ...`,
    /// else "that unit"), narrowed to what this unit can be.
    pub(super) damaged: Option<Recipient>,
    /// Played while this unit attacks (a restriction says so).
    pub(super) attacking: bool,
    /// A lead of its sentence or an earlier one says that this unit
    /// attacks (`Whenever THIS attacks, ...`).
    pub(super) own_attack: bool,
    /// Its ability happens outside attacks (a lead or a restriction says
    /// so).
    pub(super) outside: bool,
    /// How the text names its unit.
    pub(super) who: &'a Who,
}

impl Clause<'_> {
    /// A reading with its subject, timing, effects and situation; a keyword
    /// with a situation is a condition.
    pub(super) fn make(
        &self,
        class: Class,
        subject: Subject,
        when: When,
        effects: Vec<Effect>,
        sit: Option<Situation>,
    ) -> Draft {
        let mut a = Draft::new(self.printed, class);
        a.subject = Some(subject);
        a.when = Some(when);
        a.effects = effects;
        a.decidable = sit.as_ref().map(Situation::decidable);
        a.situation = sit;
        a.cost = self.cost.clone();
        if a.class == Class::Keyword && a.situation.is_some() {
            a.class = Class::Condition;
        }
        a
    }

    /// The original words of the clause's last `n` bytes (of the clause
    /// without its final period, as `l` is).
    pub(super) fn tail(&self, n: usize) -> &str {
        let text = self.text.trim_end_matches('.');
        &text[text.len().saturating_sub(n)..]
    }
}
