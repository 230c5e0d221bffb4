//! The typed result of reading one ability: [`ReadAbility`] holds the
//! printed text, how it was read (rule and clauses), and a [`Reading`],
//! one variant per class, each with exactly the fields that class has.
//!
//! Serialised (`cards find --json`, the server, the Python package), a
//! reading is one flat object with a `class` key, as it always was.

use super::{
    Class, ClauseNote, Cost, Draft, Effect, PilotGrant, Situation, Subject, When, XSource,
    clause_spans,
};
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// One ability of a card, read.
///
/// ```
/// use swtcg_cards::cards::text::{read_abilities, Class, Reading, Subject};
/// use swtcg_engine::keywords::When;
/// let a = read_abilities("Pay 2 Force -> Evade 2 | Vader gets +2 power as long as he's attacking a Jedi.", &["Darth Vader (B)"]);
/// let Reading::Keyword(k) = &a[0].reading else { panic!("{:?}", a[0]) };
/// assert_eq!((k.subject, k.when), (Subject::This, When::Any));
/// assert_eq!(k.cost.as_ref().and_then(|c| c.force), Some(2));
/// let Reading::Condition(c) = &a[1].reading else { panic!("{:?}", a[1]) };
/// assert!(c.decidable);
/// assert_eq!(c.grant.when, When::Attacking);
/// assert_eq!(a[1].class(), Class::Condition);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadAbility {
    /// The ability's text as printed.
    pub text: String,
    /// What it does to an attack, by class.
    pub reading: Reading,
    /// `INSERT:` text: granted to the top card of a stack this card is in
    /// (any class can be inserted).
    pub insert: bool,
    /// The rule that gave this reading (see [`super::RULES`]); `clauses`
    /// when it was read clause by clause, `pilot` for a pilot ability.
    pub rule: &'static str,
    /// Clause by clause, how each clause was read (empty when a
    /// whole-text rule read the ability).
    pub clauses: Vec<ClauseNote>,
}

/// What an ability does to an attack: one variant per [`Class`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The unit has it in every attack, free or paid.
    Keyword(Grant),
    /// It changes one attack's numbers only in some situation.
    Condition(Conditional),
    /// It is granted to the unit the card pilots.
    Pilot(PilotGrant),
    /// It cannot change the odds of one attack between this unit and an
    /// opposing unit.
    NotAttack {
        /// Why (its effect is about speed, it happens outside attacks, ...).
        why: String,
        /// Effects read all the same, for what is not an attack (a `Stack`
        /// list, which stacks read).
        effects: Vec<Effect>,
    },
    /// Understood, and not modelled by the engine: a glossary keyword, or
    /// an effect named here.
    Unmodelled {
        /// The keyword's name, or the effect in words.
        keyword: String,
    },
    /// Not understood.
    NotUnderstood {
        /// The words that were not read.
        why: String,
    },
}

/// What a keyword or a condition gives, and to whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// Who its effects apply to.
    pub subject: Subject,
    /// When.
    pub when: When,
    /// Typed effects.
    pub effects: Vec<Effect>,
    /// Its cost, if any.
    pub cost: Option<Cost>,
    /// Where X comes from, when its effects use an X.
    pub x: Option<XSource>,
    /// A note on the reading (`instead`, a rider read as outside attacks).
    pub note: Option<String>,
    /// `Switch` modes: each mode's label and its effects.
    pub switch: Vec<(String, Vec<Effect>)>,
    /// A choice among these effects (`gets Armor or "Pay 1 Force ->
    /// Retaliate 4"`): the user says which (`--condition a:N=K`).
    pub choices: Vec<Vec<Effect>>,
    /// Parts with their own subject or situation (`Each of your Naboo units
    /// gets Fury 2. Each ... with Stealth gets Fury 4 instead`); each is a
    /// keyword or a condition. When there are parts, they are the effects.
    pub parts: Vec<ReadAbility>,
}

/// A condition: a [`Grant`] that acts when its situation holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditional {
    /// The situation (none for a `Switch`, where the mode is the choice).
    pub situation: Option<Situation>,
    /// Whether the two units' own data decide it (else it waits for
    /// `--condition`).
    pub decidable: bool,
    /// What it gives.
    pub grant: Grant,
}

impl ReadAbility {
    /// What it counts as when a set's coverage is measured: a pilot
    /// ability's grants, each read as the piloted unit's own ability (the
    /// pilot ability itself when it grants nothing); any other ability,
    /// itself.
    pub fn readings(&self) -> Vec<&ReadAbility> {
        match &self.reading {
            Reading::Pilot(p) if !p.grants.is_empty() => p.grants.iter().collect(),
            _ => vec![self],
        }
    }

    /// Its class.
    pub fn class(&self) -> Class {
        self.reading.class()
    }

    /// What it gives, for a keyword or a condition.
    pub fn grant(&self) -> Option<&Grant> {
        match &self.reading {
            Reading::Keyword(g) => Some(g),
            Reading::Condition(c) => Some(&c.grant),
            _ => None,
        }
    }

    /// Who a keyword or a condition acts on.
    pub fn subject(&self) -> Option<Subject> {
        self.grant().map(|g| g.subject)
    }

    /// When a keyword or a condition acts.
    pub fn when(&self) -> Option<When> {
        self.grant().map(|g| g.when)
    }

    /// The situation of a condition.
    pub fn situation(&self) -> Option<&Situation> {
        match &self.reading {
            Reading::Condition(c) => c.situation.as_ref(),
            _ => None,
        }
    }

    /// For a condition, whether the two units' data decide it.
    pub fn decidable(&self) -> Option<bool> {
        match &self.reading {
            Reading::Condition(c) => Some(c.decidable),
            _ => None,
        }
    }

    /// Its effects: a grant's, or a not-attack reading's.
    pub fn effects(&self) -> &[Effect] {
        match &self.reading {
            Reading::Keyword(g) => &g.effects,
            Reading::Condition(c) => &c.grant.effects,
            Reading::NotAttack { effects, .. } => effects,
            _ => &[],
        }
    }

    /// Whether it can take part in an attack in which its unit attacks
    /// (`attacking`) or defends: a keyword or condition whose timing, and
    /// the timing of every keyword it gives, fit that side (a keyword given
    /// to the opponent acts on the opponent's side); a pilot ability when
    /// one of its grants does. Not-attack, unmodelled and not-understood
    /// abilities take no part on either side.
    ///
    /// ```
    /// use swtcg_cards::cards::text::read_abilities;
    /// let a = read_abilities("Parry 2 | Foresight: Gain 2 Force. | Critical Hit 1", &["X"]);
    /// assert_eq!((a[0].acts(true), a[0].acts(false)), (false, true));
    /// assert_eq!((a[1].acts(true), a[1].acts(false)), (true, false));
    /// assert_eq!((a[2].acts(true), a[2].acts(false)), (true, false));
    /// ```
    pub fn acts(&self, attacking: bool) -> bool {
        let fits = |w: When, attacking: bool| match w {
            When::Any => true,
            When::Attacking => attacking,
            When::Defending => !attacking,
        };
        let grant = match &self.reading {
            Reading::Pilot(p) => return p.grants.iter().any(|g| g.acts(attacking)),
            Reading::Keyword(g) => g,
            Reading::Condition(c) => &c.grant,
            _ => return false,
        };
        if !fits(grant.when, attacking) {
            return false;
        }
        if !grant.parts.is_empty() {
            return grant.parts.iter().any(|p| p.acts(attacking));
        }
        // A keyword acts on the side of the unit that has it.
        let sides: &[bool] = match grant.subject {
            Subject::This => &[attacking],
            Subject::Opponent => &[!attacking],
            Subject::Both => &[true, false],
        };
        let effect_acts = |e: &Effect| match e.ability() {
            Some(ability) => sides.iter().any(|&s| fits(ability.keyword.when(), s)),
            None => true,
        };
        let lists = std::iter::once(&grant.effects)
            .chain(grant.switch.iter().map(|(_, e)| e))
            .chain(grant.choices.iter())
            .filter(|l| !l.is_empty());
        let mut any_list = false;
        for l in lists {
            any_list = true;
            if l.iter().any(effect_acts) {
                return true;
            }
        }
        !any_list
    }

    /// Why it is not-attack or not understood.
    pub fn why(&self) -> Option<&str> {
        match &self.reading {
            Reading::NotAttack { why, .. } | Reading::NotUnderstood { why } => Some(why),
            _ => None,
        }
    }
}

impl Reading {
    /// Its class.
    pub fn class(&self) -> Class {
        match self {
            Reading::Keyword(_) => Class::Keyword,
            Reading::Condition(_) => Class::Condition,
            Reading::Pilot(_) => Class::Pilot,
            Reading::NotAttack { .. } => Class::NotAttack,
            Reading::Unmodelled { .. } => Class::Unmodelled,
            Reading::NotUnderstood { .. } => Class::NotUnderstood,
        }
    }
}

impl Draft {
    /// The typed reading. A keyword or condition the rules left without a
    /// subject or timing, or a pilot without its grant, is not understood,
    /// with that reason (never dropped, never guessed).
    pub(crate) fn finish(self) -> ReadAbility {
        let Draft {
            text,
            class,
            subject,
            when,
            decidable,
            situation,
            effects,
            switch,
            cost,
            insert,
            pilot,
            keyword,
            note,
            x,
            choices,
            parts,
            rule,
            mut clauses,
        } = self;
        let missing = |what: &str| Reading::NotUnderstood {
            why: format!("no {what} was read"),
        };
        let reading = match class {
            Class::Keyword | Class::Condition => {
                let grant = subject.zip(when).map(|(subject, when)| Grant {
                    subject,
                    when,
                    effects,
                    cost,
                    x,
                    note,
                    switch,
                    choices,
                    parts: parts.into_iter().map(Draft::finish).collect(),
                });
                match (class, grant, decidable) {
                    (_, None, _) => missing("subject"),
                    (Class::Keyword, Some(grant), _) => Reading::Keyword(grant),
                    (_, Some(grant), Some(decidable)) => Reading::Condition(Conditional {
                        situation,
                        decidable,
                        grant,
                    }),
                    (_, Some(_), None) => missing("decision"),
                }
            }
            Class::Pilot => pilot.map_or_else(|| missing("pilot grant"), Reading::Pilot),
            Class::NotAttack => Reading::NotAttack {
                why: note.unwrap_or_default(),
                effects,
            },
            Class::Unmodelled => Reading::Unmodelled {
                keyword: keyword.unwrap_or_default(),
            },
            Class::NotUnderstood => Reading::NotUnderstood {
                why: note.unwrap_or_default(),
            },
        };
        let reading = parts_checked(reading);
        spans_found(&text, &mut clauses);
        ReadAbility {
            text,
            reading,
            insert,
            rule,
            clauses,
        }
    }
}

/// Every part of a keyword or condition is a keyword or a condition, or
/// the whole is not understood.
fn parts_checked(reading: Reading) -> Reading {
    let part_class = |g: &Grant| {
        g.parts
            .iter()
            .map(ReadAbility::class)
            .find(|c| !matches!(c, Class::Keyword | Class::Condition))
    };
    match reading {
        Reading::Keyword(ref g) | Reading::Condition(Conditional { grant: ref g, .. }) => {
            match part_class(g) {
                Some(c) => Reading::NotUnderstood {
                    why: format!("a part read as {}", c.name()),
                },
                None => reading,
            }
        }
        r => r,
    }
}

/// Each clause's place in the printed text.
fn spans_found(text: &str, clauses: &mut [ClauseNote]) {
    let texts: Vec<&str> = clauses.iter().map(|c| c.text.as_str()).collect();
    let spans = clause_spans(text, &texts);
    for (c, span) in clauses.iter_mut().zip(spans) {
        c.span = span;
    }
}

/// One flat object, keys in the order they always had: `text`, `class`,
/// `subject`, `when`, `decidable` (null when the class has none), then the
/// rest when present.
impl Serialize for ReadAbility {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.grant();
        let mut o = s.serialize_struct("ReadAbility", 18)?;
        o.serialize_field("text", &self.text)?;
        o.serialize_field("class", &self.class())?;
        o.serialize_field("subject", &g.map(|g| g.subject))?;
        o.serialize_field("when", &g.map(|g| g.when))?;
        o.serialize_field("decidable", &self.decidable())?;
        if let Some(sit) = self.situation() {
            o.serialize_field("situation", sit)?;
        }
        if !self.effects().is_empty() {
            o.serialize_field("effects", self.effects())?;
        }
        if let Some(g) = g {
            if !g.switch.is_empty() {
                o.serialize_field("switch", &g.switch)?;
            }
            if let Some(c) = &g.cost {
                o.serialize_field("cost", c)?;
            }
        }
        if self.insert {
            o.serialize_field("insert", &true)?;
        }
        if let Reading::Pilot(p) = &self.reading {
            o.serialize_field("pilot", p)?;
        }
        if let Reading::Unmodelled { keyword } = &self.reading {
            o.serialize_field("keyword", keyword)?;
        }
        if let Some(note) = self
            .why()
            .or(g.and_then(|g| g.note.as_deref()))
            .filter(|n| !n.is_empty())
        {
            o.serialize_field("note", note)?;
        }
        if let Some(g) = g {
            if let Some(x) = &g.x {
                o.serialize_field("x", x)?;
            }
            if !g.choices.is_empty() {
                o.serialize_field("choices", &g.choices)?;
            }
            if !g.parts.is_empty() {
                o.serialize_field("parts", &g.parts)?;
            }
        }
        if !self.rule.is_empty() {
            o.serialize_field("rule", self.rule)?;
        }
        if !self.clauses.is_empty() {
            o.serialize_field("clauses", &self.clauses)?;
        }
        o.end()
    }
}
