//! The `swtcg-odds` binary: everything is in the library's [`swtcg_odds::cli`].
//!
//! On Linux with glibc the process starts here, not in std's start-up
//! (`#![no_main]`): std's start asks glibc for the main thread's stack
//! (`pthread_getattr_np`, which reads the whole of `/proc/self/maps`: a
//! sixth of `--version`'s instructions), only to print "has overflowed its
//! stack" before the crash a stack overflow is anyway. What else std's
//! start does, this one does: the standard streams reopened on
//! `/dev/null` when closed, `SIGPIPE` ignored (a closed pipe is an error
//! the command line handles), and at the end standard output flushed
//! (`std::process::exit`). A panic ends with status 101, as from std's
//! `main`. The arguments are read by std as always (glibc hands them to
//! its initialisers). See docs/performance.md, "Start-up".
#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

/// mimalloc: the exact engine allocates many small vectors and big
/// integers, and a listing of a pool solves tens of thousands of attacks on
/// every core; glibc's allocator cost a quarter of that time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The process's entry, as glibc calls it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: called once, first, on the only thread: what std's start-up
    // does at the same point (`std::sys::pal::unix::init`).
    unsafe {
        standard_streams_open();
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let status = std::panic::catch_unwind(swtcg_odds::cli::main).unwrap_or(101);
    std::process::exit(i32::from(status))
}

/// A closed standard stream (`2>&-`) is reopened on `/dev/null`, so that a
/// file opened later never takes its number and receives what was meant
/// for it: as std's start-up does, by one `poll`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
unsafe fn standard_streams_open() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: three valid pollfd entries; a closed one is POLLNVAL.
    while unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } == -1 {
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            // As std does: without poll, one descriptor at a time.
            for fd in &mut fds {
                // SAFETY: F_GETFD on a number only reads its flags.
                let closed = unsafe { libc::fcntl(fd.fd, libc::F_GETFD) } == -1
                    && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
                fd.revents = if closed { libc::POLLNVAL } else { 0 };
            }
            break;
        }
    }
    for fd in fds.iter().filter(|f| f.revents & libc::POLLNVAL != 0) {
        // SAFETY: a constant C string; the new descriptor is the lowest
        // free number, the closed one.
        if unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) } != fd.fd {
            std::process::abort();
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(swtcg_odds::cli::main())
}
