//! The binary is linked at a fixed address on Linux with glibc (`-no-pie`):
//! the dynamic loader then has none of its 6,800 addresses to relocate at
//! every start (a sixth of `--version`'s instructions). Set
//! `SWTCG_ODDS_PIE=1` when building to link it position-independent, as
//! Rust does by default (the address of its code is then random on every
//! run). See docs/performance.md, "Start-up".
fn main() {
    println!("cargo::rerun-if-env-changed=SWTCG_ODDS_PIE");
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    if linux_gnu && std::env::var_os("SWTCG_ODDS_PIE").is_none() {
        println!("cargo::rustc-link-arg-bin=swtcg-odds=-no-pie");
    }
}
