//! A simulator's counts, as `verify --counts` reads them from a file.

use std::collections::BTreeMap;
use swtcg_engine::error::{Error, ErrorKind, Result, quote};

/// Parses a simulator's counts (`verify --counts`): a JSON object mapping
/// each outcome (a whole number, as a string key) to a non-negative whole
/// count. A key given twice, a count beyond `u64` or a total beyond `u64`
/// is an error.
pub fn parse_counts(text: &str) -> Result<BTreeMap<i64, u64>> {
    let pairs: Pairs = serde_json::from_str(swtcg_engine::input::strip_bom(text))
        .map_err(|e| Error::json("counts", &e))?;
    let mut out = BTreeMap::new();
    let mut total: u64 = 0;
    for (k, c) in pairs.0 {
        let outcome: i64 = k.trim().parse().map_err(|_| {
            Error::new(
                ErrorKind::Unknown,
                format!(
                    "counts: key '{}' is not an outcome (a whole number)",
                    quote(&k)
                ),
            )
        })?;
        // The count as written (its raw text: a number too large for a
        // float is quoted as typed, never rounded).
        let raw = c.get().trim();
        let count = raw.parse::<u64>().map_err(|_| {
            Error::new(
                ErrorKind::Range,
                format!(
                    "counts: the count of '{}' is {}, not a whole number from 0 to {}",
                    quote(&k),
                    quote(raw),
                    u64::MAX
                ),
            )
        })?;
        if out.insert(outcome, count).is_some() {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!("counts: outcome {outcome} is given twice"),
            ));
        }
        total = total.checked_add(count).ok_or_else(|| {
            Error::new(
                ErrorKind::Limit,
                format!("counts: the counts add up to more than {}", u64::MAX),
            )
        })?;
    }
    if total == 0 {
        return Err(Error::new(
            ErrorKind::Missing,
            "counts: no samples (every count is zero)",
        ));
    }
    Ok(out)
}

/// A JSON object's entries in order, duplicates kept (serde_json's own map
/// would merge them silently).
struct Pairs(Vec<(String, Box<serde_json::value::RawValue>)>);

impl<'de> serde::Deserialize<'de> for Pairs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Pairs, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Pairs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object such as {\"0\": 36436, \"1\": 94259}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<Pairs, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) =
                    m.next_entry::<String, Box<serde_json::value::RawValue>>()?
                {
                    out.push((k, v));
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(Visit)
    }
}
