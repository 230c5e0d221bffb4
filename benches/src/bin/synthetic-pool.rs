//! Writes a synthetic whole-game pool for timings:
//!
//! ```sh
//! cargo run --release -p swtcg-odds-bench --bin synthetic-pool -- ../shared/reference/lackey /tmp/pool10 10 [--perturb] [--seed N]
//! ```

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: synthetic-pool SRC OUT COPIES [--perturb] [--seed N]";
    let (Some(src), Some(out), Some(copies)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(copies) = copies.parse::<usize>() else {
        eprintln!("COPIES must be a whole number: {usage}");
        std::process::exit(2);
    };
    let perturb = args.iter().any(|a| a == "--perturb");
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    match swtcg_odds_bench::synthetic_pool(src.as_ref(), out.as_ref(), copies, perturb, seed) {
        Ok(files) => eprintln!("{} files written to {out}", files.len()),
        Err(e) => {
            eprintln!("synthetic-pool: {e}");
            std::process::exit(2);
        }
    }
}
