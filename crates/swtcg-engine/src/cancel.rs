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
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static EXPIRED: Cell<bool> = const { Cell::new(false) };
    /// A front-end's question "should this stop?" (Python: a signal came),
    /// and when it was last asked.
    static POLL: Cell<Option<Poll>> = const { Cell::new(None) };
    /// The stop shared by the parts of a solve split over threads
    /// ([`Group`]), when this thread runs one.
    static GROUP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// A question "should this stop?", and when it was last asked.
type Poll = (fn() -> bool, Instant);

/// How often [`expired`] asks a [`with_poll`] question, at most.
pub(crate) const POLL_EVERY: Duration = Duration::from_millis(50);

/// Runs `f` on this thread asking `stop` every `POLL_EVERY` or so from
/// the engine's loops: once it says yes, [`expired`] is true and the solve
/// stops as at a deadline. The Python package asks whether a signal came
/// (Ctrl-C), so that a long call stops within a second.
///
/// ```
/// use swtcg_engine::cancel::{expired, with_poll};
/// fn signal_came() -> bool {
///     true
/// }
/// let stopped = with_poll(signal_came, || {
///     let first = expired(); // not asked yet: asked at most every 50 ms
///     std::thread::sleep(std::time::Duration::from_millis(50));
///     (first, expired())
/// });
/// assert_eq!(stopped, (false, true));
/// assert!(!expired());
/// ```
pub fn with_poll<T>(stop: fn() -> bool, f: impl FnOnce() -> T) -> T {
    let _restore = Saved::now();
    POLL.with(|p| p.set(Some((stop, Instant::now()))));
    f()
}

/// This thread's deadline, question and expiry as they were, put back when
/// dropped: a [`with_deadline`] or [`with_poll`] ends with its call, even
/// when `f` panics.
struct Saved(Option<Instant>, Option<Poll>, bool);

impl Saved {
    fn now() -> Saved {
        Saved(
            DEADLINE.with(|d| d.get()),
            POLL.with(|p| p.get()),
            EXPIRED.with(|e| e.get()),
        )
    }
}

impl Drop for Saved {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(self.0));
        POLL.with(|p| p.set(self.1));
        EXPIRED.with(|e| e.set(self.2));
    }
}

/// Runs `f` on this thread with a deadline `limit` from now: the engine's
/// loops stop once it has passed (see the module's documentation).
/// Deadlines nest: the earlier one holds.
pub fn with_deadline<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let new = Instant::now() + limit;
    let restore = Saved::now();
    DEADLINE.with(|d| d.set(Some(restore.0.map_or(new, |b| b.min(new)))));
    f()
}

/// Whether this thread's deadline has passed, or its [`with_poll`]
/// question said stop, or another part of its group (a solve split over
/// threads) stopped (false without any). Once true it stays true until
/// [`with_deadline`], [`with_poll`] or the group's run returns.
#[inline]
pub fn expired() -> bool {
    if EXPIRED.with(|e| e.get()) {
        return true;
    }
    let group = GROUP.with(|g| g.borrow().as_ref().map(|s| s.load(Ordering::Relaxed)));
    let deadline = DEADLINE.with(|d| d.get());
    let poll = POLL.with(|p| p.get());
    if deadline.is_none() && poll.is_none() && group != Some(true) {
        return false;
    }
    let now = Instant::now();
    let mut late = group == Some(true) || deadline.is_some_and(|d| now >= d);
    if let Some((stop, last)) = poll
        && !late
        && now.duration_since(last) >= POLL_EVERY
    {
        POLL.with(|p| p.set(Some((stop, now))));
        late = stop();
    }
    if late {
        EXPIRED.with(|e| e.set(true));
        GROUP.with(|g| {
            if let Some(s) = g.borrow().as_ref() {
                s.store(true, Ordering::Relaxed);
            }
        });
    }
    late
}

/// A solve split over threads that stops as one: the parts run on worker
/// threads ([`Group::run`], each with the deadline of the thread that made
/// the group), while that thread watches ([`Group::watch`]): its own
/// deadline or question (Python's Ctrl-C reaches only the main thread), or
/// any part found expired, stops every part at its next check.
pub(crate) struct Group {
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    /// Parts finished, and the thread to wake at each.
    done: AtomicUsize,
    watcher: std::thread::Thread,
}

impl Group {
    /// A group of the current thread's solve.
    pub(crate) fn new() -> Group {
        Group {
            stop: Arc::new(AtomicBool::new(false)),
            deadline: DEADLINE.with(|d| d.get()),
            done: AtomicUsize::new(0),
            watcher: std::thread::current(),
        }
    }

    /// Runs one part on this (worker) thread.
    pub(crate) fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        /// Puts the thread's state back and tells the watcher, even when
        /// the part panics (the watcher would otherwise wait for ever).
        struct Part<'a> {
            group: &'a Group,
            outer: Option<Arc<AtomicBool>>,
            _restore: Saved,
        }
        impl Drop for Part<'_> {
            fn drop(&mut self) {
                GROUP.with(|g| g.replace(self.outer.take()));
                self.group.done.fetch_add(1, Ordering::Release);
                self.group.watcher.unpark();
            }
        }
        let _restore = Saved::now();
        let outer = GROUP.with(|g| g.replace(Some(Arc::clone(&self.stop))));
        let _part = Part {
            group: self,
            outer,
            _restore,
        };
        DEADLINE.with(|d| d.set(self.deadline));
        POLL.with(|p| p.set(None));
        EXPIRED.with(|e| e.set(false));
        f()
    }

    /// On the thread that made the group: waits until `parts` parts have
    /// run, stopping them all once this thread's deadline passes or its
    /// question says stop.
    pub(crate) fn watch(&self, parts: usize) {
        while self.done.load(Ordering::Acquire) < parts {
            std::thread::park_timeout(POLL_EVERY);
            if expired() {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// `Err(cancelled)` once the deadline has passed.
pub fn check() -> Result<()> {
    if expired() {
        Err(Error::cancelled())
    } else {
        Ok(())
    }
}
