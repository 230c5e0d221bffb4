//! The fuzz harness's long run:
//!
//! ```sh
//! cargo run --release --example fuzz -- --cases 1000000 [--seed 1] [--threads N]
//! ```
//!
//! Generates that many cases (command lines with the files they read: see
//! `gen.rs`), runs each in-process through the CLI's entry point, checks
//! every invariant, and reports the cases run, the errors by kind, the
//! slowest case and the peak memory. Exits 1 at the first broken invariant,
//! printing the case (its seed reproduces it).

mod r#gen;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, default: u64| -> u64 {
        args.windows(2).find(|w| w[0] == name).map_or(default, |w| {
            w[1].parse()
                .unwrap_or_else(|_| panic!("{name} takes a whole number"))
        })
    };
    let cases = flag("--cases", 10_000);
    let seed = flag("--seed", 1);
    let threads = flag(
        "--threads",
        std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
    );
    // Bad input is expected: keep panics (there should be none) off the
    // terminal's way but counted.
    std::panic::set_hook(Box::new(|_| {}));
    let next = AtomicU64::new(0);
    let errors: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
    let slowest: Mutex<(Duration, u64)> = Mutex::new((Duration::ZERO, 0));
    let statuses: Mutex<BTreeMap<u8, u64>> = Mutex::new(BTreeMap::new());
    let failed: Mutex<Option<(u64, String)>> = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let dir = tempfile::tempdir().expect("a temporary folder");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cases || failed.lock().unwrap().is_some() {
                        break;
                    }
                    let case_seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(i);
                    let case = r#gen::case(case_seed);
                    match r#gen::run(&case, dir.path()) {
                        Ok(o) => {
                            *statuses.lock().unwrap().entry(o.status).or_default() += 1;
                            if let Some(e) = o.error {
                                let kind: String = e.chars().take(60).collect();
                                *errors.lock().unwrap().entry(kind).or_default() += 1;
                            }
                            let mut sl = slowest.lock().unwrap();
                            if o.time > sl.0 {
                                *sl = (o.time, case_seed);
                            }
                        }
                        Err(why) => {
                            *failed.lock().unwrap() =
                                Some((case_seed, format!("{why}\n  case: {:?}", case.args)));
                        }
                    }
                    if i > 0 && i.is_multiple_of(100_000) {
                        eprintln!("{i} cases, {:.0} s", start.elapsed().as_secs_f64());
                    }
                }
            });
        }
    });
    let run = next.load(Ordering::Relaxed).min(cases);
    println!(
        "cases run: {run} in {:.1} s ({threads} threads), seed {seed}",
        start.elapsed().as_secs_f64()
    );
    println!("exit statuses: {:?}", statuses.lock().unwrap());
    let (t, s) = *slowest.lock().unwrap();
    println!(
        "slowest case: {:.3} s (seed {s}: {:?})",
        t.as_secs_f64(),
        r#gen::case(s).args
    );
    println!("peak memory: {:.0} MiB", peak_mib());
    let errors = errors.lock().unwrap();
    println!(
        "errors by kind ({} kinds; the 25 most frequent):",
        errors.len()
    );
    let mut by: Vec<(&String, &u64)> = errors.iter().collect();
    by.sort_by(|a, b| b.1.cmp(a.1));
    for (k, n) in by.iter().take(25) {
        println!("  {n:>8}  {k}");
    }
    if let Some((s, why)) = failed.lock().unwrap().take() {
        println!("INVARIANT BROKEN (seed {s}): {why}");
        std::process::exit(1);
    }
    println!("invariant failures: 0");
}
