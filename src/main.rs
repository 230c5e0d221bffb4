//! The `swtcg-odds` binary: everything is in the library's [`swtcg_odds::cli`].

fn main() -> std::process::ExitCode {
    swtcg_odds::cli::main()
}
