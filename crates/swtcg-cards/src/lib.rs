//! # swtcg-cards
//!
//! Real Star Wars TCG cards for [`swtcg_engine`]: the LackeyCCG plugin's set
//! files ([`cards::read`]), the card language ([`cards::text`]), stacks and
//! pilots ([`cards::stack`]), coverage ([`cards::check`]), scenario and plan
//! files whose units are cards ([`cards::files`]), and the matchups and
//! rankings of whole card pools ([`matchups`]).
//!
//! Data flows one way: set files → cards with read abilities → units with
//! typed keywords (as two cards face each other) → the engine.
//!
//! ```
//! use swtcg_cards::cards::CardDb;
//! let db = CardDb::parse("Name\tType\tPower\tHealth\tText\nTrooper\tCharacter\t3\t3\tCritical Hit 1\n").unwrap();
//! assert_eq!(db.card("Trooper").unwrap().power, Some(3));
//! ```

#![warn(missing_docs)]

pub mod cards;
pub mod matchups;
