//! Criterion benchmarks of swtcg-odds: see `benches/`. Run `cargo bench -p swtcg-odds-bench`.
//!
//! This library also makes the synthetic whole-game pools the benchmarks
//! and the README's timings use ([`synthetic_pool`]): the shared set files
//! copied N times under other set codes, optionally with perturbed stats,
//! generated on demand and never committed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// SplitMix64: a fixed seed names the same pool on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// -1, 0 or +1, equally likely.
    fn step(&mut self) -> i64 {
        (self.next() % 3) as i64 - 1
    }
}

/// Writes `copies` copies of every LackeyCCG set file of `src` (the `.txt`
/// files with a `Set` column) into `out`, copy `k` of set `S` under the set
/// code `S` + `k` (copy 0 keeps its code). With `perturb`, every copy but
/// the first has each printed power and health moved by -1, 0 or +1 (on
/// the seed; health stays at least 1, power at least 0), so that its units'
/// signatures really differ. Returns the files written.
pub fn synthetic_pool(
    src: &Path,
    out: &Path,
    copies: usize,
    perturb: bool,
    seed: u64,
) -> io::Result<Vec<PathBuf>> {
    fs::create_dir_all(out)?;
    let mut rng = Rng(seed);
    let mut files: Vec<PathBuf> = fs::read_dir(src)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut written = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f)?;
        let mut lines = text.lines();
        let Some(header) = lines.next() else { continue };
        let cols: Vec<&str> = header.split('\t').collect();
        let at = |name: &str| cols.iter().position(|c| *c == name);
        let (Some(set), power, health) = (at("Set"), at("Power"), at("Health")) else {
            continue;
        };
        let rows: Vec<&str> = lines.collect();
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("set");
        for k in 0..copies {
            let mut body = String::with_capacity(text.len());
            body.push_str(header);
            body.push('\n');
            for row in &rows {
                let mut cells: Vec<String> = row.split('\t').map(String::from).collect();
                if k > 0 {
                    if let Some(c) = cells.get_mut(set) {
                        *c = format!("{c}{k}");
                    }
                    if perturb {
                        for (col, least) in [(power, 0), (health, 1)] {
                            let Some(c) = col.and_then(|i| cells.get_mut(i)) else {
                                continue;
                            };
                            if let Ok(v) = c.trim().parse::<i64>() {
                                *c = (v + rng.step()).max(least).to_string();
                            }
                        }
                    }
                }
                body.push_str(&cells.join("\t"));
                body.push('\n');
            }
            let path = out.join(format!(
                "{stem}{}.txt",
                if k == 0 { String::new() } else { k.to_string() }
            ));
            fs::write(&path, body)?;
            written.push(path);
        }
    }
    Ok(written)
}
