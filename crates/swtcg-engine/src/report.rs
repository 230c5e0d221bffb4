//! Output: typed results that derive `Serialize` (exact probabilities as
//! [`Fraction`]s, written `"num/den"`), and readable text with fractions and
//! percentages. The JSON contract is in `docs/json.md`.

use crate::attack::AttackOutcome;
use crate::dist::{Dist, Fraction, Weight, fraction_string, to_f64};
use num_rational::BigRational;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A distribution in a result: `{"pmf": {"<k>": "<p>", ...}, "at_least":
/// {"<k>": "<p>", ...}, "mean": "<p>"}`, every outcome with non-zero
/// probability, as reduced fractions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DistReport {
    /// P(X = k) for each outcome `k` with non-zero probability.
    pub pmf: BTreeMap<String, Fraction>,
    /// P(X >= k) for the same outcomes `k`: the tail the page draws and
    /// tables show, summed exactly here so no reader re-derives it.
    pub at_least: BTreeMap<String, Fraction>,
    /// The expectation.
    pub mean: Fraction,
}

impl DistReport {
    /// The report of a distribution.
    pub fn of<W: Weight>(d: &Dist<W>) -> DistReport {
        let zero = BigRational::from_integer(0.into());
        DistReport {
            pmf: d
                .pmf()
                .into_iter()
                .filter(|(_, p)| *p != zero)
                .map(|(k, p)| (k.to_string(), Fraction(p)))
                .collect(),
            at_least: d
                .tail()
                .into_iter()
                .filter(|(k, _)| d.prob(*k) != zero)
                .map(|(k, p)| (k.to_string(), Fraction(p)))
                .collect(),
            mean: Fraction(d.mean()),
        }
    }
}

/// The result of one attack (`attack --json`, and the first keys of every
/// command that reports an attack): the hits, the damage to the defender
/// and to the attacker, P(discarded) where health is known, and P(each
/// side's Stun lands) for a side with Stun (figures for keywords nobody
/// has are left out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackReport {
    /// Hits of the final roll.
    pub hits: DistReport,
    /// Counters placed on the unit that defended.
    pub defender_damage: DistReport,
    /// Counters placed on the attacker.
    pub attacker_damage: DistReport,
    /// P(the defender is discarded), when its health is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defender_discarded: Option<Fraction>,
    /// P(the attacker is discarded), when its health is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker_discarded: Option<Fraction>,
    /// P(the attacker placed counters: its Stun lands), when it has Stun.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker_stun_lands: Option<Fraction>,
    /// P(the defender placed counters: its Stun lands), when it has Stun.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defender_stun_lands: Option<Fraction>,
}

impl AttackReport {
    /// The report of a static attack; `stun`: whether the attacker, then
    /// the defender, has Stun (its figure is given only then).
    pub fn of<W: Weight>(o: &AttackOutcome<W>, stun: [bool; 2]) -> AttackReport {
        AttackReport::from_parts(
            &o.hits,
            [&o.defender_damage, &o.attacker_damage],
            [o.defender_discarded(), o.attacker_discarded()],
            [
                stun[0].then(|| o.attacker_stun_lands()),
                stun[1].then(|| o.defender_stun_lands()),
            ],
        )
    }

    /// The report from its parts: the hits; `damage` and `discarded` of the
    /// defender then the attacker; `stun` landing for the attacker then the
    /// defender (for a side with Stun).
    pub(crate) fn from_parts<W: Weight>(
        hits: &Dist<W>,
        damage: [&Dist<W>; 2],
        discarded: [Option<BigRational>; 2],
        stun: [Option<BigRational>; 2],
    ) -> AttackReport {
        let [dd, ad] = discarded;
        let [sa, sd] = stun;
        AttackReport {
            hits: DistReport::of(hits),
            defender_damage: DistReport::of(damage[0]),
            attacker_damage: DistReport::of(damage[1]),
            defender_discarded: dd.map(Fraction),
            attacker_discarded: ad.map(Fraction),
            attacker_stun_lands: sa.map(Fraction),
            defender_stun_lands: sd.map(Fraction),
        }
    }
}

/// A result as pretty JSON, with a final newline.
pub fn to_json_text<T: Serialize + ?Sized>(value: &T) -> String {
    // Results are plain data (strings, numbers, maps with string keys):
    // serialising them cannot fail.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// A probability as `"num/den (12.34%)"`.
pub(crate) fn fraction_and_percent(p: &BigRational) -> String {
    format!("{} ({})", fraction_string(p), percent(p))
}

/// A probability as a percentage with two decimals.
pub fn percent(p: &BigRational) -> String {
    format!("{:.2}%", 100.0 * to_f64(p))
}

/// A text table of one distribution: `k`, P(X = k) and P(X >= k), each as an
/// exact fraction and a percentage, then the mean.
pub(crate) fn dist_text<W: Weight>(title: &str, d: &Dist<W>) -> String {
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
        "  expected value: {} = {:.4}",
        fraction_string(&mean),
        to_f64(&mean)
    );
    out
}

/// The human report of an attack; the Stun lines only for a side whose
/// Stun is in play (`stun`: the attacker's, the defender's).
pub(crate) fn attack_text<W: Weight>(o: &AttackOutcome<W>, stun: [bool; 2]) -> String {
    let mut out = String::new();
    // The answer first: the expected damage, plainly named.
    let mean = o.defender_damage.mean();
    let _ = writeln!(
        out,
        "Expected damage to the defender: {} = {:.4}",
        fraction_string(&mean),
        to_f64(&mean)
    );
    if let Some(p) = o.defender_discarded() {
        let _ = writeln!(out, "P(defender discarded) = {}", fraction_and_percent(&p));
    }
    out.push('\n');
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
    if let Some(p) = o.attacker_discarded() {
        out.push('\n');
        let _ = writeln!(out, "P(attacker discarded) = {}", fraction_and_percent(&p));
    }
    if stun[0] {
        let _ = writeln!(
            out,
            "P(attacker's Stun lands) = {}",
            fraction_and_percent(&o.attacker_stun_lands())
        );
    }
    if stun[1] {
        let _ = writeln!(
            out,
            "P(defender's Stun lands) = {}",
            fraction_and_percent(&o.defender_stun_lands())
        );
    }
    out
}

/// The distributions a result reports, each with its title: what the CSV
/// and Markdown exports of the result hold (the web API's `format=csv` and
/// `format=md`, the page's export buttons).
pub trait Distributions {
    /// Each distribution with its title, in the order the result gives them.
    fn distributions(&self) -> Vec<(String, &DistReport)>;
}

impl Distributions for AttackReport {
    fn distributions(&self) -> Vec<(String, &DistReport)> {
        vec![
            ("damage to the defender".into(), &self.defender_damage),
            ("damage to the attacker".into(), &self.attacker_damage),
            ("hits of the final roll".into(), &self.hits),
        ]
    }
}
