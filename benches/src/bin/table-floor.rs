//! The floor of the 800-row table (issue 35): the least work that prints
//! what `swtcg-odds table --power 1..40 --crit 0..4 --parry 0..3 --format
//! json` prints, byte for byte, written apart from the engine (plain `u128`,
//! no crate), so that the table's cost is measured against a program and not
//! an estimate (`benches/instructions.sh` counts both and compares their
//! output). Being written apart from the engine, it is also an oracle of the
//! table: `tests/it/oracle_attack.rs` includes it and compares its text with
//! the command's, byte for byte.
//!
//! The rules it needs (RULES.md): each die hits on 4, 5 or 6; Critical Hit X
//! adds X damage when the roll has a natural 6; Parry X prevents X of the
//! attack's damage when the roll has a natural 1. So a roll of `n` dice is
//! summed up by (hits, any 1, any 6), whose counts have a closed form: of
//! the `C(n, h)` ways to place `h` hits, the hits' faces avoid a 6 in `2^h`
//! of their `3^h` ways and the misses' faces avoid a 1 in `2^(n-h)` of
//! their `3^(n-h)`.

use std::fmt::Write;

/// Powers of the table, and the numbers of Critical Hit and Parry.
const POWERS: std::ops::RangeInclusive<u32> = 1..=40;
const CRITS: std::ops::RangeInclusive<u32> = 0..=4;
const PARRIES: std::ops::RangeInclusive<u32> = 0..=3;

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `p / q` as the nearest `f64` (ties to even), by long division: `q` is at
/// most `6^40 < 2^104`, so a remainder doubled still fits.
fn to_f64(p: u128, q: u128) -> f64 {
    if p == 0 {
        return 0.0;
    }
    let int = p / q;
    let mut r = p % q;
    // The quotient's bits: the integer part's (at most 2 * 200 here, far
    // below 2^53), then fractional ones, until 53 significant bits and one
    // more to round with.
    let mut m: u128 = int;
    let mut bits = 128 - int.leading_zeros();
    let mut exp: i32 = 0;
    while bits < 54 {
        r <<= 1;
        let bit = r >= q;
        if bit {
            r -= q;
        }
        m = (m << 1) | bit as u128;
        exp -= 1;
        if m != 0 {
            bits += 1;
        }
    }
    // m has 54 significant bits: round the last off, ties to even (a
    // remainder left is above the tie).
    let half = m & 1 == 1;
    let mut mant = m >> 1;
    exp += 1;
    if half && (r != 0 || mant & 1 == 1) {
        mant += 1;
    }
    mant as f64 * 2f64.powi(exp)
}

fn main() {
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(table().as_bytes());
}

/// The table's JSON text.
pub fn table() -> String {
    let mut out = String::with_capacity(300 * 800);
    out.push('[');
    let mut first = true;
    for n in POWERS {
        // Counts of (hits, any 1, any 6) over the 6^n rolls.
        let mut choose: u128 = 1; // C(n, h)
        let mut counts: Vec<[[u128; 2]; 2]> = Vec::with_capacity(n as usize + 1);
        for h in 0..=n {
            let (p2h, p3h) = (2u128.pow(h), 3u128.pow(h));
            let (p2m, p3m) = (2u128.pow(n - h), 3u128.pow(n - h));
            let (no6, six) = (p2h, p3h - p2h);
            let (no1, one) = (p2m, p3m - p2m);
            counts.push([
                [choose * no1 * no6, choose * no1 * six],
                [choose * one * no6, choose * one * six],
            ]);
            choose = choose * (n - h) as u128 / (h + 1) as u128;
        }
        let total = 6u128.pow(n);
        for crit in CRITS {
            for parry in PARRIES {
                let mut sum: u128 = 0;
                for (h, c) in counts.iter().enumerate() {
                    for (one, by6) in c.iter().enumerate() {
                        for (six, w) in by6.iter().enumerate() {
                            let damage = h as u128 + six as u128 * crit as u128;
                            let prevented = one as u128 * parry as u128;
                            sum += w * damage.saturating_sub(prevented);
                        }
                    }
                }
                let g = gcd(sum, total).max(1);
                let (p, q) = (sum / g, total / g);
                let mean = to_f64(p, q);
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(
                    out,
                    "\n  {{\n    \"power\": {n},\n    \"accuracy\": 0,\n    \"armor\": false,\n    \"shields\": 0,\n    \"fury\": 0,\n    \"crit\": {crit},\n    \"parry\": {parry},\n    \"evade\": 0,\n    \"deflect\": 0,\n    \"health\": null,\n    \"mean\": \"{p}/{q}\",\n    \"mean_f64\": {mean:?}\n  }}"
                );
            }
        }
    }
    out.push_str("\n]\n");
    out
}
