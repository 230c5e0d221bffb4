//! Output: exact distributions as JSON (fractions as `"num/den"` strings) and
//! as readable text tables with fractions and percentages.

use crate::attack::AttackOutcome;
use crate::dist::{Dist, Weight, fraction_string, to_f64};
use num_rational::BigRational;
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// `{"pmf": {"<k>": "<p>", ...}, "mean": "<p>"}`: every outcome with non-zero
/// probability, as reduced fractions.
pub fn dist_json<W: Weight>(d: &Dist<W>) -> Value {
    let mut pmf = Map::new();
    for (k, p) in d.pmf() {
        if p != BigRational::from_integer(0.into()) {
            pmf.insert(k.to_string(), Value::String(fraction_string(&p)));
        }
    }
    json!({"pmf": pmf, "mean": fraction_string(&d.mean())})
}

/// The JSON object of `attack --json`: `hits`, `defender_damage`,
/// `attacker_damage` (each a [`dist_json`]), `defender_discarded` and
/// `attacker_discarded` when the matching health is known, and the
/// probabilities that each side's Stun lands.
pub fn attack_json<W: Weight>(o: &AttackOutcome<W>) -> Map<String, Value> {
    attack_keys(
        &o.hits,
        [&o.defender_damage, &o.attacker_damage],
        [o.defender_discarded(), o.attacker_discarded()],
        [o.attacker_stun_lands(), o.defender_stun_lands()],
    )
}

/// The keys of `attack --json` (shared by every command that reports an
/// attack): the hits; `damage` and `discarded` of the defender then the
/// attacker (a discard probability only where health is known); `stun`
/// landing for the attacker then the defender.
pub fn attack_keys<W: Weight>(
    hits: &Dist<W>,
    damage: [&Dist<W>; 2],
    discarded: [Option<BigRational>; 2],
    stun: [BigRational; 2],
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("hits".into(), dist_json(hits));
    m.insert("defender_damage".into(), dist_json(damage[0]));
    m.insert("attacker_damage".into(), dist_json(damage[1]));
    for (key, p) in ["defender_discarded", "attacker_discarded"]
        .iter()
        .zip(&discarded)
    {
        if let Some(p) = p {
            m.insert(key.to_string(), fraction_string(p).into());
        }
    }
    m.insert(
        "attacker_stun_lands".into(),
        fraction_string(&stun[0]).into(),
    );
    m.insert(
        "defender_stun_lands".into(),
        fraction_string(&stun[1]).into(),
    );
    m
}

/// A probability as `"num/den (12.34%)"`.
pub fn fraction_and_percent(p: &BigRational) -> String {
    format!("{} ({})", fraction_string(p), percent(p))
}

/// A probability as a percentage with two decimals.
pub fn percent(p: &BigRational) -> String {
    format!("{:.2}%", 100.0 * to_f64(p))
}

/// A text table of one distribution: `k`, P(X = k) and P(X >= k), each as an
/// exact fraction and a percentage, then the mean.
pub fn dist_text<W: Weight>(title: &str, d: &Dist<W>) -> String {
    let rows: Vec<[String; 5]> = d
        .pmf()
        .into_iter()
        .zip(d.tail())
        .map(|((k, p), (_, t))| {
            [
                k.to_string(),
                fraction_string(&p),
                percent(&p),
                fraction_string(&t),
                percent(&t),
            ]
        })
        .collect();
    let header = ["k", "P(= k)", "%", "P(>= k)", "%"];
    let mut widths = header.map(str::len);
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let line = |cells: &[&str]| {
        let mut s = String::from(" ");
        for (i, c) in cells.iter().enumerate() {
            let _ = write!(s, " {:>w$}", c, w = widths[i]);
        }
        s
    };
    let _ = writeln!(out, "{}", line(&header));
    for r in &rows {
        let cells: Vec<&str> = r.iter().map(String::as_str).collect();
        let _ = writeln!(out, "{}", line(&cells));
    }
    let mean = d.mean();
    let _ = writeln!(
        out,
        "  expected: {} = {:.4}",
        fraction_string(&mean),
        to_f64(&mean)
    );
    out
}

/// The human report of an attack.
pub fn attack_text<W: Weight>(o: &AttackOutcome<W>) -> String {
    let mut out = String::new();
    out.push_str(&dist_text("Damage to the defender", &o.defender_damage));
    out.push('\n');
    if o.attacker_damage.max() > 0 {
        out.push_str(&dist_text(
            "Damage to the attacker (deflected and retaliation)",
            &o.attacker_damage,
        ));
        out.push('\n');
    }
    out.push_str(&dist_text("Hits of the final roll", &o.hits));
    out.push('\n');
    if let Some(p) = o.defender_discarded() {
        let _ = writeln!(out, "P(defender discarded) = {}", fraction_and_percent(&p));
    }
    if let Some(p) = o.attacker_discarded() {
        let _ = writeln!(out, "P(attacker discarded) = {}", fraction_and_percent(&p));
    }
    let _ = writeln!(
        out,
        "P(attacker's Stun lands) = {}",
        fraction_and_percent(&o.attacker_stun_lands())
    );
    let _ = writeln!(
        out,
        "P(defender's Stun lands) = {}",
        fraction_and_percent(&o.defender_stun_lands())
    );
    out
}
