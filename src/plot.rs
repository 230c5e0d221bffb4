//! Pictures: the exact P(damage ≥ k) curves of one or several attacks, as a
//! self-contained SVG file (no dependencies, readable labels, every point
//! carrying its exact value as a tooltip), drawn as the page draws them:
//! steps with markers, series told apart by dash pattern and marker shape
//! as well as colour ([`STYLES`], which the page reads too).
//!
//! ```
//! use swtcg_engine::dist::Dist;
//! use swtcg_odds::plot::{Series, svg};
//! let d: Dist = Dist::uniform(0, 3);
//! let picture = svg("Damage", "damage k", &[Series::at_least("4 dice", &d)]);
//! assert!(picture.starts_with("<svg") && picture.contains("75.0%"));
//! ```

use num_rational::BigRational;
use std::fmt::Write;
use swtcg_engine::dist::{Dist, Weight, fraction_string, to_f64};

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

/// How one series is drawn: its colour, its line's dash pattern and its
/// marker's shape, so that series are told apart without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Style {
    /// The colour (CSS).
    pub color: &'static str,
    /// The line's `stroke-dasharray` (empty: solid).
    pub dash: &'static str,
    /// `circle`, `square`, `triangle`, `diamond` or `cross`.
    pub marker: &'static str,
}

/// The one description of the series' looks, in order: the CLI's SVG
/// files draw with it, and the page reads it from `/api/params`
/// (`chart_styles`).
pub const STYLES: &[Style] = &[
    Style {
        color: "#1f4fb8",
        dash: "",
        marker: "circle",
    },
    Style {
        color: "#b3261e",
        dash: "7 4",
        marker: "square",
    },
    Style {
        color: "#2a6f2d",
        dash: "2 3",
        marker: "triangle",
    },
    Style {
        color: "#7a5000",
        dash: "9 3 2 3",
        marker: "diamond",
    },
    Style {
        color: "#5a3e99",
        dash: "4 2",
        marker: "cross",
    },
    Style {
        color: "#006a73",
        dash: "1 2",
        marker: "circle",
    },
];

/// A marker of `shape` centred at (x, y), with `extra` attributes and
/// `inner` content (its tooltip).
fn marker(shape: &str, x: f64, y: f64, color: &str, extra: &str, inner: &str) -> String {
    let r = 4.0;
    let a = format!(r#"fill="{color}" {extra}"#);
    match shape {
        "square" => format!(
            r#"<rect x="{:.2}" y="{:.2}" width="{}" height="{}" {a}>{inner}</rect>"#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        "triangle" => format!(
            r#"<path d="M{x:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z" {a}>{inner}</path>"#,
            y - r - 1.0,
            x + r + 1.0,
            y + r,
            x - r - 1.0,
            y + r
        ),
        "diamond" => format!(
            r#"<path d="M{x:.2} {:.2}L{:.2} {y:.2}L{x:.2} {:.2}L{:.2} {y:.2}Z" {a}>{inner}</path>"#,
            y - r - 1.0,
            x + r + 1.0,
            y + r + 1.0,
            x - r - 1.0
        ),
        "cross" => format!(
            r#"<path d="M{:.2} {:.2}L{:.2} {:.2}M{:.2} {:.2}L{:.2} {:.2}" stroke="{color}" stroke-width="2.5" {extra}>{inner}</path>"#,
            x - r,
            y - r,
            x + r,
            y + r,
            x + r,
            y - r,
            x - r,
            y + r
        ),
        _ => format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r}" {a}>{inner}</circle>"#),
    }
}

/// An SVG chart of the curves as the page draws them: k's band on x,
/// P(X ≥ k) in percent on y, each curve a step (flat across k's band, the
/// value it holds for that k) with a marker at the band's centre, and each
/// series its own colour, dash pattern and marker shape ([`STYLES`]),
/// shown in the legend.
pub fn svg(title: &str, x_label: &str, series: &[Series]) -> String {
    // The legend's width follows its longest label (about 7.5 px a character).
    let longest = series
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0);
    let (left, top, bottom) = (70.0, 50.0, 60.0);
    let right = 70.0 + 7.5 * longest as f64;
    let (pw, ph) = (520.0, 350.0);
    let (w, h) = (left + pw + right, top + ph + bottom);
    let max_k = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(1)
        .max(1);
    // k's band is [edge(k), edge(k + 1)]; its centre is where k is marked.
    let band = pw / (max_k + 1) as f64;
    let edge = |k: i64| left + band * k as f64;
    let x = |k: i64| edge(k) + band / 2.0;
    let y = |p: f64| top + ph * (1.0 - p);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13" role="img" aria-label="{}">"#,
        esc(title)
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
            r##"<line class="grid" data-prob="{}" x1="{left}" y1="{yy:.2}" x2="{:.2}" y2="{yy:.2}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{pct}%</text>"##,
            pct as f64 / 100.0,
            left + pw,
            left - 8.0,
            yy + 4.0
        );
    }
    // k at the centre of its band: at most about 20 labels.
    let step = (max_k as f64 / 20.0).ceil().max(1.0) as i64;
    let mut k = 0;
    while k <= max_k {
        let xx = x(k);
        let _ = writeln!(
            out,
            r##"<line x1="{xx:.2}" y1="{:.1}" x2="{xx:.2}" y2="{:.1}" stroke="#999"/><text class="tick" data-k="{k}" x="{xx:.2}" y="{:.1}" text-anchor="middle">{k}</text>"##,
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
        let st = STYLES[i % STYLES.len()];
        let color = st.color;
        let mut path = String::new();
        for (j, (k, p)) in s.points.iter().enumerate() {
            let yy = y(to_f64(p));
            if j == 0 {
                let _ = write!(path, "M{:.2} {yy:.2}", edge(*k));
            } else {
                let _ = write!(path, "V{yy:.2}");
            }
            let _ = write!(path, "H{:.2}", edge(k + 1));
        }
        let _ = writeln!(
            out,
            r#"<g class="series" data-label="{}"><path class="step" d="{path}" fill="none" stroke="{color}" stroke-width="2" stroke-dasharray="{}"/>"#,
            esc(&s.label),
            st.dash
        );
        for (k, p) in &s.points {
            let tip = format!(
                "<title>{}: P(at least {k}) = {} = {:.1}%</title>",
                esc(&s.label),
                fraction_string(p),
                100.0 * to_f64(p)
            );
            let _ = writeln!(
                out,
                "{}",
                marker(
                    st.marker,
                    x(*k),
                    y(to_f64(p)),
                    color,
                    &format!(r#"class="pt" data-k="{k}" data-p="{}""#, fraction_string(p)),
                    &tip
                )
            );
        }
        let ly = top + 10.0 + 22.0 * i as f64;
        let lx = left + pw + 20.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{color}" stroke-width="2" stroke-dasharray="{}"/>{}<text x="{:.1}" y="{:.1}">{}</text></g>"#,
            lx + 28.0,
            st.dash,
            marker(st.marker, lx + 14.0, ly, color, "", ""),
            lx + 34.0,
            ly + 4.0,
            esc(&s.label)
        );
    }
    out.push_str("</svg>\n");
    out
}
