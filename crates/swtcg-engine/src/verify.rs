//! Checking a Monte Carlo simulator against the exact law.
//!
//! A simulator prints counts (outcome → how many times it came up);
//! [`check`] sets them against the exact distribution: observed and expected
//! counts with standardized residuals, Pearson's chi-square and the G
//! statistic on pooled bins with their p-values, the total variation
//! distance with a confidence bound, and a verdict at a significance level.
//! An outcome the exact law calls impossible fails at once.
//!
//! ```
//! use swtcg_engine::attack::attack;
//! use swtcg_engine::sample::{Model, Quantity};
//! use swtcg_engine::unit::Unit;
//! use swtcg_engine::verify::check;
//!
//! let (a, d) = (Unit::new("a", 5), Unit::new("d", 3));
//! let exact = attack(&a, &d).unwrap().defender_damage;
//! let counts = Model::new(a, d).sample(Quantity::DefenderDamage, 20_000, 7);
//! let v = check(&exact, &counts, 0.001).unwrap();
//! assert!(v.consistent());
//! ```

use crate::dist::{Dist, Fraction, Num, to_f64};
use crate::error::{Error, Result};
use num_rational::BigRational;
use serde::Serialize;

use std::collections::BTreeMap;
use std::fmt::Write;

/// The JSON of a verification (`verify --json`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct VerificationJson {
    /// What was counted.
    pub quantity: String,
    /// Number of samples.
    pub samples: u64,
    /// Every outcome possible or observed.
    pub outcomes: Vec<OutcomeJson>,
    /// The pooling rule.
    pub pooling: &'static str,
    /// The pooled bins.
    pub bins: Vec<BinJson>,
    /// Pearson's chi-square test.
    pub pearson: TestJson,
    /// The G test.
    pub g_test: TestJson,
    /// The total variation distance and its bound.
    pub total_variation: TotalVariation,
    /// The significance level.
    pub alpha: f64,
    /// Outcomes observed that the exact law calls impossible.
    pub impossible: Vec<i64>,
    /// The three outcomes with the largest residuals.
    pub worst: Vec<i64>,
    /// The verdict: true when consistent.
    pub consistent: bool,
    /// The verdict in words.
    pub verdict: String,
}

/// One outcome of a verification.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct OutcomeJson {
    /// The outcome.
    pub outcome: i64,
    /// Its exact probability.
    pub probability: Fraction,
    /// Times observed.
    pub observed: u64,
    /// Samples × probability.
    pub expected: f64,
    /// The standardized residual.
    pub residual: f64,
}

/// One pooled bin.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct BinJson {
    /// First outcome.
    pub from: i64,
    /// Last outcome.
    pub to: i64,
    /// Observed count.
    pub observed: u64,
    /// Expected count.
    pub expected: f64,
}

/// A test statistic.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct TestJson {
    /// The statistic.
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: usize,
    /// Its p-value.
    pub p_value: f64,
}

/// The total variation distance.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct TotalVariation {
    /// Observed.
    pub observed: f64,
    /// Upper confidence bound on the simulator's own distance.
    pub upper_bound: f64,
    /// Its confidence.
    pub confidence: f64,
}

/// Bins expecting fewer counts than this are pooled with their neighbours.
pub(crate) const MIN_EXPECTED: f64 = 5.0;

/// The pooling rule, as stated in every report.
pub(crate) const POOLING_RULE: &str = "outcomes are pooled with their neighbours in increasing order until each bin expects at least 5 counts; a short last bin joins the one before it";

/// One outcome: its exact probability, observed and expected counts, and
/// standardized residual.
#[derive(Clone, Debug)]
pub struct Row {
    /// The outcome.
    pub outcome: i64,
    /// Its exact probability.
    pub probability: BigRational,
    /// Times the simulator produced it.
    pub observed: u64,
    /// Samples × probability.
    pub expected: f64,
    /// (observed − expected) / sqrt(expected (1 − p)): about N(0, 1) when the
    /// simulator is right.
    pub residual: f64,
}

/// A pooled bin of the chi-square tests.
#[derive(Clone, Debug)]
pub(crate) struct Bin {
    /// First outcome of the bin.
    pub from: i64,
    /// Last outcome of the bin.
    pub to: i64,
    /// Observed count.
    pub observed: u64,
    /// Expected count.
    pub expected: f64,
}

/// A test statistic with its degrees of freedom and p-value.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    /// The statistic.
    pub statistic: f64,
    /// Degrees of freedom (bins − 1).
    pub df: usize,
    /// P(chi-square with `df` degrees of freedom ≥ statistic).
    pub p_value: f64,
}

/// The result of checking counts against the exact law.
#[derive(Clone, Debug)]
pub struct Verification {
    /// Number of samples.
    pub samples: u64,
    /// Every outcome possible or observed.
    pub rows: Vec<Row>,
    /// The pooled bins.
    pub(crate) bins: Vec<Bin>,
    /// Pearson's chi-square test.
    pub pearson: Test,
    /// The G (likelihood ratio) test.
    pub g_test: Test,
    /// Total variation distance between the observed frequencies and the
    /// exact law.
    pub total_variation: f64,
    /// With confidence 1 − alpha, the simulator's own law is within this
    /// total variation distance of the exact law.
    pub total_variation_bound: f64,
    /// The significance level.
    pub alpha: f64,
    /// Outcomes observed that the exact law calls impossible.
    pub impossible: Vec<i64>,
}

impl Verification {
    /// Whether the counts are consistent with the exact law at `alpha`: no
    /// impossible outcome, and Pearson's p-value at least alpha.
    pub fn consistent(&self) -> bool {
        self.impossible.is_empty() && self.pearson.p_value >= self.alpha
    }

    /// The outcomes that disagree most (largest |residual| first), up to `k`.
    pub fn worst(&self, k: usize) -> Vec<&Row> {
        let mut rows: Vec<&Row> = self.rows.iter().collect();
        rows.sort_by(|a, b| b.residual.abs().total_cmp(&a.residual.abs()));
        rows.truncate(k);
        rows
    }

    /// The verdict in one line.
    pub fn verdict(&self) -> String {
        if !self.impossible.is_empty() {
            let list: Vec<String> = self.impossible.iter().map(|k| k.to_string()).collect();
            return format!(
                "FAIL: the simulator produced outcome(s) {} that the exact law calls impossible",
                list.join(", ")
            );
        }
        if self.consistent() {
            return format!(
                "consistent: Pearson p = {:.4} >= alpha = {}",
                self.pearson.p_value, self.alpha
            );
        }
        let worst: Vec<String> = self
            .worst(3)
            .iter()
            .map(|r| {
                format!(
                    "{} (observed {}, expected {:.1}, residual {:+.2})",
                    r.outcome, r.observed, r.expected, r.residual
                )
            })
            .collect();
        format!(
            "DISAGREES: Pearson p = {:.3e} < alpha = {}; most off: {}",
            self.pearson.p_value,
            self.alpha,
            worst.join("; ")
        )
    }

    /// The typed result (`verify --json`).
    pub fn json(&self, quantity: &str) -> impl serde::Serialize + use<'_> {
        let test = |t: &Test| TestJson {
            statistic: t.statistic,
            df: t.df,
            p_value: t.p_value,
        };
        VerificationJson {
            quantity: quantity.to_string(),
            samples: self.samples,
            outcomes: self
                .rows
                .iter()
                .map(|r| OutcomeJson {
                    outcome: r.outcome,
                    probability: Fraction(r.probability.clone()),
                    observed: r.observed,
                    expected: r.expected,
                    residual: r.residual,
                })
                .collect(),
            pooling: POOLING_RULE,
            bins: self
                .bins
                .iter()
                .map(|b| BinJson {
                    from: b.from,
                    to: b.to,
                    observed: b.observed,
                    expected: b.expected,
                })
                .collect(),
            pearson: test(&self.pearson),
            g_test: test(&self.g_test),
            total_variation: TotalVariation {
                observed: self.total_variation,
                upper_bound: self.total_variation_bound,
                confidence: 1.0 - self.alpha,
            },
            alpha: self.alpha,
            impossible: self.impossible.clone(),
            worst: self.worst(3).iter().map(|r| r.outcome).collect(),
            consistent: self.consistent(),
            verdict: self.verdict(),
        }
    }

    /// The report as text.
    pub fn to_text(&self, quantity: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} samples of {quantity}", self.samples);
        let _ = writeln!(
            out,
            "{:>8} {:>12} {:>10} {:>12} {:>9}",
            "outcome", "exact P", "observed", "expected", "residual"
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{:>8} {:>12.6} {:>10} {:>12.1} {:>+9.2}",
                r.outcome,
                to_f64(&r.probability),
                r.observed,
                r.expected,
                r.residual
            );
        }
        let _ = writeln!(out, "pooling: {POOLING_RULE} ({} bins)", self.bins.len());
        for (name, t) in [
            ("Pearson chi-square", &self.pearson),
            ("G statistic", &self.g_test),
        ] {
            let _ = writeln!(
                out,
                "{name}: {:.3} on {} df, p = {:.4e}",
                t.statistic, t.df, t.p_value
            );
        }
        let _ = writeln!(
            out,
            "total variation: {:.5} observed; the simulator is within {:.5} of the exact law with confidence {}",
            self.total_variation,
            self.total_variation_bound,
            1.0 - self.alpha
        );
        let _ = writeln!(out, "{}", self.verdict());
        out
    }
}

/// The exact law of `quantity` in a solved scenario: `hits`,
/// `defender_damage` (the unit that ended up defending),
/// `attacker_damage`, or `damage:<unit>`.
pub(crate) fn exact_law(r: &crate::scenario::ScenarioReport, quantity: &str) -> Result<Dist<Num>> {
    let defending = r.outcome.declared.defending;
    match quantity {
        "hits" => Ok(r.hits()),
        "defender_damage" => Ok(r.damage(defending)),
        "attacker_damage" => Ok(r.damage(crate::attack::ATTACKER)),
        q => match q.strip_prefix("damage:") {
            Some(name) => {
                let i = r
                    .scenario
                    .game
                    .units
                    .iter()
                    .position(|u| u.name == name)
                    .ok_or_else(|| {
                        Error::not_found(format!("no unit named '{}'", crate::error::quote(name)))
                            .at_param("quantity", Some(q))
                    })?;
                Ok(r.damage(i))
            }
            None => Err(Error::unknown(
                "not one of hits, defender_damage, attacker_damage, damage:<unit>",
            )
            .at_param("quantity", Some(q))),
        },
    }
}

/// The exact law of `quantity` (`hits`, `defender_damage`,
/// `attacker_damage`) of a static attack.
pub(crate) fn attack_law(o: &crate::attack::AttackOutcome, quantity: &str) -> Result<Dist<Num>> {
    Ok(match quantity {
        "hits" => o.hits.clone(),
        "defender_damage" => o.defender_damage.clone(),
        "attacker_damage" => o.attacker_damage.clone(),
        q => {
            return Err(Error::unknown(
                "not one of hits, defender_damage, attacker_damage (damage:<unit> needs a scenario)",
            )
            .at_param("quantity", Some(q)));
        }
    })
}

/// Checks `counts` against the exact law `exact` at significance `alpha`.
pub fn check(exact: &Dist<Num>, counts: &BTreeMap<i64, u64>, alpha: f64) -> Result<Verification> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(
            Error::range("the significance level must be between 0 and 1")
                .at_param("alpha", Some(&alpha.to_string())),
        );
    }
    let n: u64 = counts.values().sum();
    if n == 0 {
        return Err(Error::missing("counts: no samples"));
    }
    let zero = BigRational::from_integer(0.into());
    let mut outcomes: Vec<i64> = exact
        .pmf()
        .into_iter()
        .filter(|(_, p)| *p != zero)
        .map(|(k, _)| k)
        .collect();
    // Outcomes the simulator lists with a zero count are only listed: an
    // impossible one observed zero times is no disagreement.
    outcomes.extend(counts.iter().filter(|(_, c)| **c > 0).map(|(k, _)| *k));
    outcomes.sort_unstable();
    outcomes.dedup();
    let nf = n as f64;
    let mut rows = Vec::new();
    let mut impossible = Vec::new();
    let mut tv = 0.0;
    for &k in &outcomes {
        let p = exact.prob(k);
        let observed = counts.get(&k).copied().unwrap_or(0);
        let pf = to_f64(&p);
        if p == zero {
            impossible.push(k);
        }
        let expected = nf * pf;
        let var = expected * (1.0 - pf);
        let residual = if var > 0.0 {
            (observed as f64 - expected) / var.sqrt()
        } else {
            0.0
        };
        tv += (observed as f64 / nf - pf).abs();
        rows.push(Row {
            outcome: k,
            probability: p,
            observed,
            expected,
            residual,
        });
    }
    tv /= 2.0;
    // Pooling, over the possible outcomes only, with the samples that fell
    // on them (so that the statistics stay proper when impossible outcomes
    // were observed: those fail the verdict on their own).
    let possible: u64 = rows
        .iter()
        .filter(|r| r.probability != zero)
        .map(|r| r.observed)
        .sum();
    let scale = possible as f64 / nf;
    let mut bins: Vec<Bin> = Vec::new();
    let mut cur: Option<Bin> = None;
    for r in rows.iter().filter(|r| r.probability != zero) {
        let b = cur.get_or_insert(Bin {
            from: r.outcome,
            to: r.outcome,
            observed: 0,
            expected: 0.0,
        });
        b.to = r.outcome;
        b.observed += r.observed;
        b.expected += r.expected * scale;
        if b.expected >= MIN_EXPECTED {
            bins.push(cur.take().expect("just set"));
        }
    }
    if let Some(rest) = cur {
        match bins.last_mut() {
            Some(last) => {
                last.to = rest.to;
                last.observed += rest.observed;
                last.expected += rest.expected;
            }
            None => bins.push(rest),
        }
    }
    let df = bins.len().saturating_sub(1);
    let mut x2 = 0.0;
    let mut g = 0.0;
    for b in bins.iter().filter(|b| b.expected > 0.0) {
        let o = b.observed as f64;
        x2 += (o - b.expected).powi(2) / b.expected;
        if b.observed > 0 {
            g += 2.0 * o * (o / b.expected).ln();
        }
    }
    let test = |s: f64| Test {
        statistic: s.max(0.0),
        df,
        p_value: if df == 0 {
            1.0
        } else {
            chi_square_sf(s, df as f64)
        },
    };
    let categories = outcomes.len() as f64;
    let bound =
        tv + ((categories * std::f64::consts::LN_2 + (1.0 / alpha).ln()) / (2.0 * nf)).sqrt();
    Ok(Verification {
        samples: n,
        rows,
        bins,
        pearson: test(x2),
        g_test: test(g),
        total_variation: tv,
        total_variation_bound: bound.min(1.0),
        alpha,
        impossible,
    })
}

/// P(X ≥ x) for X chi-square with `df` degrees of freedom: the regularized
/// upper incomplete gamma function Q(df/2, x/2).
pub(crate) fn chi_square_sf(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    gamma_q(df / 2.0, x / 2.0)
}

/// ln Γ(x), Lanczos approximation (g = 7, n = 9), for x > 0.
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Regularized upper incomplete gamma Q(a, x): series below a + 1,
/// continued fraction above (Numerical Recipes' gser / gcf).
fn gamma_q(a: f64, x: f64) -> f64 {
    let gln = ln_gamma(a);
    if x < a + 1.0 {
        let mut ap = a;
        let mut sum = 1.0 / a;
        let mut del = sum;
        for _ in 0..10_000 {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        let p = sum * (-x + a * x.ln() - gln).exp();
        (1.0 - p).max(0.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (-x + a * x.ln() - gln).exp() * h
    }
}

#[cfg(test)]
mod tests {
    use super::chi_square_sf;

    #[test]
    fn chi_square_tail_matches_tables() {
        // df = 2: the tail is exp(-x/2) exactly.
        for x in [0.1, 1.0, 5.0, 20.0, 60.0] {
            let want: f64 = (-x / 2.0f64).exp();
            assert!(
                (chi_square_sf(x, 2.0) - want).abs() < 1e-12 * want.max(1e-300) + 1e-15,
                "{x}"
            );
        }
        // Critical values from standard tables.
        for (x, df, p) in [
            (6.634896601021214, 1.0, 0.01),
            (10.827566170662733, 1.0, 0.001),
            (11.070497693516351, 5.0, 0.05),
            (124.34211340400407, 100.0, 0.05),
            (2.7326367934996, 8.0, 0.95),
            (3.841458820694124, 1.0, 0.05),
            (18.307038053275146, 10.0, 0.05),
        ] {
            let got = chi_square_sf(x, df);
            assert!((got - p).abs() < 1e-8, "x={x} df={df}: {got} vs {p}");
        }
        assert_eq!(chi_square_sf(0.0, 3.0), 1.0);
    }
}
