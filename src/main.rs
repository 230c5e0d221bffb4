//! The `swtcg-odds` binary: everything is in the library's [`swtcg_odds::cli`].

/// mimalloc: the exact engine allocates many small vectors and big
/// integers, and a listing of a pool solves tens of thousands of attacks on
/// every core; glibc's allocator cost a quarter of that time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    swtcg_odds::cli::main()
}
