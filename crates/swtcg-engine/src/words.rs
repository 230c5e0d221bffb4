//! The words a user types for a choice (`optimal`, `pop`, `net`, `csv`,
//! `space`): each type's words are its serde names, declared once by the
//! derive's renames on the type, and every front-end (the command line,
//! the web API, files) reads them through [`Words`].
//!
//! ```
//! use swtcg_engine::request::Words;
//! use swtcg_engine::policy::LuckyOrder;
//! assert_eq!(LuckyOrder::from_word("attacker-first"), Some(LuckyOrder::AttackerFirst));
//! assert_eq!(LuckyOrder::AttackerFirst.word(), "attacker-first");
//! ```

use serde::Serialize;
use serde::de::{self, DeserializeOwned, Visitor};

/// A type whose values are typed as words: its words are its serde names,
/// declared once by the derive (`#[serde(rename_all = "kebab-case")]`,
/// `#[serde(rename = "md")]`), so a file, the web API and the command line
/// read the same words.
pub trait Words: Serialize + DeserializeOwned + Copy + PartialEq + 'static {
    /// Every word, in the order the type declares its values.
    fn all_words() -> Vec<&'static str> {
        variant_names::<Self>().to_vec()
    }

    /// The value a word names (ASCII case aside).
    fn from_word(word: &str) -> Option<Self> {
        let w = word.trim();
        let name = variant_names::<Self>()
            .iter()
            .find(|n| n.eq_ignore_ascii_case(w))?;
        Self::deserialize(de::value::BorrowedStrDeserializer::<de::value::Error>::new(
            name,
        ))
        .ok()
    }

    /// Its word.
    fn word(self) -> &'static str {
        let name = serde_json::to_value(self).ok();
        variant_names::<Self>()
            .iter()
            .find(|n| name.as_ref().and_then(|v| v.as_str()) == Some(**n))
            .copied()
            .unwrap_or("")
    }
}

/// The names serde's derive gives the values of an enum (its
/// `VARIANTS`), read by asking it to deserialize an enum from a reader
/// that only notes the names it is offered.
fn variant_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(Names(&mut names));
    names
}

/// A deserializer that holds no value: it notes the names of an enum's
/// values, and fails every request.
struct Names<'a>(&'a mut &'static [&'static str]);

impl<'de> de::Deserializer<'de> for Names<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = variants;
        Err(de::Error::custom("names noted"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

use crate::attack::Objective;
use crate::params::Format;
use crate::policy::{LuckyOrder, LuckyPolicy};
use crate::sample::{Quantity, Variant};
use crate::unit::Arena;

impl Words for Objective {}
impl Words for LuckyPolicy {}
impl Words for LuckyOrder {}
impl Words for Format {}
impl Words for Quantity {}
impl Words for Variant {}

/// An arena's words are its names in lower case (`space`): its serde
/// names are the names the cards print (`Space`), kept in every file and
/// report.
impl Words for Arena {
    fn all_words() -> Vec<&'static str> {
        ARENA_WORDS.to_vec()
    }

    fn word(self) -> &'static str {
        ARENA_WORDS[self as usize]
    }
}

/// The arenas' words, in the order of [`Arena`]'s values.
const ARENA_WORDS: [&str; 3] = ["space", "ground", "character"];

#[cfg(test)]
mod tests {
    use super::Words;

    /// A type's words are the ones users have typed all along (the lists
    /// below are those of the tables the words were declared in before
    /// serde's names served), in that order; each names its value and
    /// back, in any case; anything else names none.
    fn words_are<T: Words + std::fmt::Debug>(expected: &[&str]) {
        assert_eq!(T::all_words(), expected);
        for w in expected {
            let v = T::from_word(w).unwrap_or_else(|| panic!("{w}"));
            assert_eq!(v.word(), *w);
            assert_eq!(
                T::from_word(&format!(" {} ", w.to_ascii_uppercase())),
                Some(v)
            );
        }
        let values: Vec<T> = expected.iter().filter_map(|w| T::from_word(w)).collect();
        for (i, a) in values.iter().enumerate() {
            assert!(values[i + 1..].iter().all(|b| b != a), "{a:?} twice");
        }
        for w in ["", "x", "damage dealt", "pop-", "md,"] {
            if !expected.contains(&w) {
                assert_eq!(T::from_word(w), None, "{w:?}");
            }
        }
    }

    #[test]
    fn each_type_has_its_words() {
        words_are::<crate::attack::Objective>(&["damage", "discard", "net"]);
        words_are::<crate::policy::LuckyPolicy>(&["optimal", "simple"]);
        words_are::<crate::policy::LuckyOrder>(&[
            "pop",
            "pop-defender-first",
            "attacker-first",
            "defender-first",
        ]);
        words_are::<crate::params::Format>(&["md", "csv", "json", "jsonl"]);
        words_are::<crate::sample::Quantity>(&["hits", "defender_damage", "attacker_damage"]);
        words_are::<crate::sample::Variant>(&[
            "crit-per-six",
            "parry-on-two",
            "fury-on-reroll",
            "armor-ignored",
        ]);
        words_are::<crate::unit::Arena>(&["space", "ground", "character"]);
    }

    /// A file, the web API and the command line read the same words: each
    /// word is its value's serde name (an arena's in lower case).
    #[test]
    fn words_are_the_serde_names() {
        fn same<T: Words>() {
            for w in T::all_words() {
                let v = T::from_word(w).unwrap();
                let s = serde_json::to_value(v).unwrap();
                assert_eq!(s.as_str().map(str::to_ascii_lowercase), Some(w.to_string()));
            }
        }
        same::<crate::attack::Objective>();
        same::<crate::policy::LuckyPolicy>();
        same::<crate::policy::LuckyOrder>();
        same::<crate::params::Format>();
        same::<crate::sample::Quantity>();
        same::<crate::sample::Variant>();
        same::<crate::unit::Arena>();
    }
}
