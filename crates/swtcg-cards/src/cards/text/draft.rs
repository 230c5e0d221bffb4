//! The reader's working form of one ability ([`Draft`]): the rules fill in
//! its class and fields, and [`Draft::finish`] gives the typed
//! [`ReadAbility`] the rest of the crate sees.

use super::{Class, ClauseNote, Cost, Effect, PilotGrant, Situation, Subject, When, XSource};

/// One ability as the rules build it: a class and the fields that class
/// uses. [`Draft::finish`] turns it into the typed [`ReadAbility`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Draft {
    /// The ability's text as printed.
    pub(crate) text: String,
    /// Its class.
    pub(crate) class: Class,
    /// Who its effects apply to (keywords and conditions).
    pub(crate) subject: Option<Subject>,
    /// When (keywords and conditions).
    pub(crate) when: Option<When>,
    /// For conditions: whether the two units' own data decide it.
    pub(crate) decidable: Option<bool>,
    /// The situation of a condition.
    pub(crate) situation: Option<Situation>,
    /// Typed effects (keywords and conditions).
    pub(crate) effects: Vec<Effect>,
    /// `Switch` modes: each mode's label and its effects.
    pub(crate) switch: Vec<(String, Vec<Effect>)>,
    /// Its cost, if any.
    pub(crate) cost: Option<Cost>,
    /// `INSERT:` text: granted to the top card of a stack this card is in.
    pub(crate) insert: bool,
    /// The pilot grant.
    pub(crate) pilot: Option<PilotGrant>,
    /// The glossary keyword's name, when unmodelled.
    pub(crate) keyword: Option<String>,
    /// Why: what makes it not-attack, or what was not understood.
    pub(crate) note: Option<String>,
    /// Where X comes from, when its effects use an X.
    pub(crate) x: Option<XSource>,
    /// A choice among these effects (`gets Armor or "Pay 1 Force ->
    /// Retaliate 4"`): the user says which (`--condition a:N=K`).
    pub(crate) choices: Vec<Vec<Effect>>,
    /// Parts with their own subject or situation (`Each of your Naboo units
    /// gets Fury 2. Each ... with Stealth gets Fury 4 instead`).
    pub(crate) parts: Vec<Draft>,
    /// The rule that gave this reading (see [`super::RULES`]); `clauses`
    /// when it was read clause by clause, `pilot` for a pilot ability.
    pub(crate) rule: &'static str,
    /// Clause by clause, how each clause was read (empty when a
    /// whole-text rule read the ability).
    pub(crate) clauses: Vec<ClauseNote>,
}

impl Draft {
    pub(super) fn new(text: &str, class: Class) -> Draft {
        Draft {
            text: text.to_string(),
            class,
            subject: None,
            when: None,
            decidable: None,
            situation: None,
            effects: Vec::new(),
            switch: Vec::new(),
            cost: None,
            insert: false,
            pilot: None,
            keyword: None,
            note: None,
            x: None,
            choices: Vec::new(),
            parts: Vec::new(),
            rule: "",
            clauses: Vec::new(),
        }
    }

    pub(super) fn not_attack(text: &str, why: &str) -> Draft {
        let mut a = Draft::new(text, Class::NotAttack);
        a.note = Some(why.to_string());
        a
    }

    pub(super) fn not_understood(text: &str, why: &str) -> Draft {
        let mut a = Draft::new(text, Class::NotUnderstood);
        a.note = Some(why.to_string());
        a
    }

    pub(super) fn unmodelled(text: &str, keyword: &str) -> Draft {
        let mut a = Draft::new(text, Class::Unmodelled);
        a.keyword = Some(keyword.to_string());
        a
    }
}
