//! Criterion benchmarks of swtcg-odds: see `benches/`. Run `cargo bench -p swtcg-odds-bench`.
