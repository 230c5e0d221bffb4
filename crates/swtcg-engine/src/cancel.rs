//! Cancelling a solve that runs past its deadline.
//!
//! A front-end that must answer within a time (the web server) runs the
//! solve inside [`with_deadline`]. The long loops of the engine (the optimal
//! search, the Lucky stages, plans, tables) call [`expired`] every few
//! thousand steps; once the deadline has passed it stays true, the loops
//! stop early, and the solve returns [`Error::cancelled`] instead of a
//! result. Without a deadline (the command line), [`expired`] is one
//! thread-local read and is always false.
//!
//! ```
//! use std::time::Duration;
//! use swtcg_engine::cancel::{with_deadline, expired};
//! assert!(!expired());
//! let late = with_deadline(Duration::ZERO, || expired());
//! assert!(late);
//! assert!(!expired()); // the deadline ends with the call
//! ```

use crate::error::{Error, Result};
use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static EXPIRED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` on this thread with a deadline `limit` from now: the engine's
/// loops stop once it has passed (see the module's documentation).
/// Deadlines nest: the earlier one holds.
pub fn with_deadline<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let new = Instant::now() + limit;
    let before = DEADLINE.with(|d| d.get());
    let was = EXPIRED.with(|e| e.get());
    DEADLINE.with(|d| d.set(Some(before.map_or(new, |b| b.min(new)))));
    struct Restore(Option<Instant>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
            EXPIRED.with(|e| e.set(self.1));
        }
    }
    let _restore = Restore(before, was);
    f()
}

/// Whether this thread's deadline has passed (false without one). Once
/// true it stays true until [`with_deadline`] returns.
#[inline]
pub fn expired() -> bool {
    if EXPIRED.with(|e| e.get()) {
        return true;
    }
    let Some(d) = DEADLINE.with(|d| d.get()) else {
        return false;
    };
    let late = Instant::now() >= d;
    if late {
        EXPIRED.with(|e| e.set(true));
    }
    late
}

/// `Err(cancelled)` once the deadline has passed.
pub fn check() -> Result<()> {
    if expired() {
        Err(Error::cancelled())
    } else {
        Ok(())
    }
}
