//! Pictures: the exact P(damage ≥ k) curves of one or several attacks, as a
//! self-contained SVG file (no dependencies, readable labels, every point
//! carrying its exact value as a tooltip).
//!
//! ```
//! use swtcg_odds::dist::Dist;
//! use swtcg_odds::plot::{Series, svg};
//! let d: Dist = Dist::uniform(0, 3);
//! let picture = svg("Damage", "damage k", &[Series::at_least("4 dice", &d)]);
//! assert!(picture.starts_with("<svg") && picture.contains("75.0%"));
//! ```

use crate::dist::{Dist, Weight, fraction_string, to_f64};
use num_rational::BigRational;
use std::fmt::Write;

/// One curve: P(X ≥ k) for k = 0, 1, ...
#[derive(Clone, Debug)]
pub struct Series {
    /// Its label in the legend.
    pub label: String,
    /// `(k, P(X ≥ k))`, exact.
    pub points: Vec<(i64, BigRational)>,
}

impl Series {
    /// The curve P(X ≥ k) of a distribution, from k = 0 to one past its
    /// largest outcome (where it is 0).
    pub fn at_least<W: Weight>(label: &str, d: &Dist<W>) -> Series {
        let one = BigRational::from_integer(1.into());
        let mut points: Vec<(i64, BigRational)> =
            (0..d.min().max(0)).map(|k| (k, one.clone())).collect();
        points.extend(d.tail().into_iter().filter(|(k, _)| *k >= 0));
        points.push((d.max() + 1, BigRational::from_integer(0.into())));
        Series {
            label: label.to_string(),
            points,
        }
    }
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

const COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// An SVG chart of the curves: x is k, y is P(X ≥ k) in percent.
pub fn svg(title: &str, x_label: &str, series: &[Series]) -> String {
    // The legend's width follows its longest label (about 7.5 px a character).
    let longest = series
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0);
    let (left, top, bottom) = (70.0, 50.0, 60.0);
    let right = 60.0 + 7.5 * longest as f64;
    let (pw, ph) = (520.0, 350.0);
    let (w, h) = (left + pw + right, top + ph + bottom);
    let max_k = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(1)
        .max(1);
    let x = |k: i64| left + pw * k as f64 / max_k as f64;
    let y = |p: f64| top + ph * (1.0 - p);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
        left + pw / 2.0,
        esc(title)
    );
    // Horizontal grid and y labels.
    for pct in [0, 25, 50, 75, 100] {
        let yy = y(pct as f64 / 100.0);
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{pct}%</text>"##,
            left + pw,
            left - 8.0,
            yy + 4.0
        );
    }
    // x ticks: at most about 20.
    let step = (max_k as f64 / 20.0).ceil().max(1.0) as i64;
    let mut k = 0;
    while k <= max_k {
        let xx = x(k);
        let _ = writeln!(
            out,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#999"/><text x="{xx:.1}" y="{:.1}" text-anchor="middle">{k}</text>"##,
            top + ph,
            top + ph + 5.0,
            top + ph + 20.0
        );
        k += step;
    }
    let _ = writeln!(
        out,
        r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{:.1}" stroke="#333"/><line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333"/>"##,
        top + ph,
        top + ph,
        left + pw,
        top + ph
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        left + pw / 2.0,
        h - 15.0,
        esc(x_label)
    );
    let _ = writeln!(
        out,
        r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">P(at least k)</text>"#,
        top + ph / 2.0,
        top + ph / 2.0
    );
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<String> = s
            .points
            .iter()
            .map(|(k, p)| format!("{:.1},{:.1}", x(*k), y(to_f64(p))))
            .collect();
        let _ = writeln!(
            out,
            r#"<g class="series" data-label="{}"><polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            esc(&s.label),
            pts.join(" ")
        );
        for (k, p) in &s.points {
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{color}" data-k="{k}" data-p="{}"><title>{}: P(at least {k}) = {} = {:.1}%</title></circle>"#,
                x(*k),
                y(to_f64(p)),
                fraction_string(p),
                esc(&s.label),
                fraction_string(p),
                100.0 * to_f64(p)
            );
        }
        let ly = top + 10.0 + 22.0 * i as f64;
        let lx = left + pw + 20.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{color}" stroke-width="3"/><text x="{:.1}" y="{:.1}">{}</text></g>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
            esc(&s.label)
        );
    }
    out.push_str("</svg>\n");
    out
}
