//! The words a user types for a choice (`optimal`, `pop`, `net`, `csv`,
//! `space`): each type's words are declared once, here, and every
//! front-end (the command line, the web API, files) reads them through
//! [`Words`].
//!
//! ```
//! use swtcg_engine::words::Words;
//! use swtcg_engine::policy::LuckyOrder;
//! assert_eq!(LuckyOrder::from_word("attacker-first"), Some(LuckyOrder::AttackerFirst));
//! assert_eq!(LuckyOrder::AttackerFirst.word(), "attacker-first");
//! ```

/// A type whose values are typed as words.
pub trait Words: Sized + Copy + PartialEq + 'static {
    /// Every value with its word (the first word of a value is its own).
    const WORDS: &'static [(&'static str, Self)];

    /// The value a word names (ASCII case aside).
    fn from_word(word: &str) -> Option<Self> {
        let w = word.trim();
        Self::WORDS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(w))
            .map(|(_, v)| *v)
    }

    /// Its word.
    fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(n, _)| n)
    }

    /// Every word, for help texts.
    fn all_words() -> Vec<&'static str> {
        Self::WORDS.iter().map(|(n, _)| *n).collect()
    }
}

/// Declares the words of a type: `words!(Type { "word" => Type::Value, ... })`.
#[macro_export]
macro_rules! words {
    ($t:ty { $($w:literal => $v:expr),* $(,)? }) => {
        impl $crate::words::Words for $t {
            const WORDS: &'static [(&'static str, Self)] = &[$(($w, $v)),*];
        }
    };
}

use crate::attack::Objective;
use crate::policy::{LuckyOrder, LuckyPolicy};
use crate::sample::{Quantity, Variant};
use crate::table::Format;
use crate::unit::Arena;

words!(Objective { "damage" => Objective::Damage, "discard" => Objective::Discard, "net" => Objective::Net });
words!(LuckyPolicy { "optimal" => LuckyPolicy::Optimal, "simple" => LuckyPolicy::Simple });
words!(LuckyOrder {
    "pop" => LuckyOrder::Pop,
    "pop-defender-first" => LuckyOrder::PopDefenderFirst,
    "attacker-first" => LuckyOrder::AttackerFirst,
    "defender-first" => LuckyOrder::DefenderFirst,
});
words!(Format { "md" => Format::Markdown, "csv" => Format::Csv, "json" => Format::Json, "jsonl" => Format::Jsonl });
words!(Quantity {
    "hits" => Quantity::Hits,
    "defender_damage" => Quantity::DefenderDamage,
    "attacker_damage" => Quantity::AttackerDamage,
});
words!(Variant {
    "crit-per-six" => Variant::CritPerSix,
    "parry-on-two" => Variant::ParryOnTwo,
    "fury-on-reroll" => Variant::FuryOnReroll,
    "armor-ignored" => Variant::ArmorIgnored,
});
words!(Arena { "space" => Arena::Space, "ground" => Arena::Ground, "character" => Arena::Character });

#[cfg(test)]
mod tests {
    use super::Words;

    /// Each type's words are its serde names: a file, the web API and the
    /// command line read the same words.
    fn same_as_serde<T: Words + serde::Serialize>() {
        for (w, v) in T::WORDS {
            let s = serde_json::to_value(v).unwrap();
            assert_eq!(s.as_str().map(str::to_ascii_lowercase), Some(w.to_string()));
        }
    }

    #[test]
    fn words_are_the_serde_names() {
        same_as_serde::<crate::attack::Objective>();
        same_as_serde::<crate::policy::LuckyPolicy>();
        same_as_serde::<crate::policy::LuckyOrder>();
        same_as_serde::<crate::table::Format>();
        same_as_serde::<crate::sample::Quantity>();
        same_as_serde::<crate::sample::Variant>();
        same_as_serde::<crate::unit::Arena>();
    }
}
