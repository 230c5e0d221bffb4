//! Values made once in a process and shared, bounded ([`Kept`]): the
//! Lucky solver's roll states and the attack roll's laws.

use std::sync::Arc;

/// Values made once in a process and shared by whoever asks for the same
/// key, bounded by the total size of what it keeps (the oldest go first;
/// a value larger than the bound is made and not kept). Two threads asking
/// at once may both make a value; it is the same value.
pub(crate) struct Kept<K, V> {
    items: std::sync::Mutex<Items<K, V>>,
    bound: usize,
}

/// The values kept, newest last, each with its size, and their total size.
type Items<K, V> = (Vec<(K, Arc<V>, usize)>, usize);

impl<K: PartialEq, V> Kept<K, V> {
    pub(crate) const fn new(bound: usize) -> Kept<K, V> {
        Kept {
            items: std::sync::Mutex::new((Vec::new(), 0)),
            bound,
        }
    }

    /// The value of `key`, made by `make` (of size `size`) the first time.
    pub(crate) fn get(
        &self,
        key: K,
        make: impl FnOnce() -> V,
        size: impl Fn(&V) -> usize,
    ) -> Arc<V> {
        // A poisoned lock (a thread panicked while holding it) still holds
        // whole values: each is inserted complete.
        let lock = || self.items.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, v, _)) = lock().0.iter().find(|(k, _, _)| *k == key) {
            return Arc::clone(v);
        }
        let value = Arc::new(make());
        let n = size(&value);
        if n <= self.bound {
            let mut items = lock();
            if !items.0.iter().any(|(k, _, _)| *k == key) {
                while items.1 + n > self.bound {
                    let (_, _, old) = items.0.remove(0);
                    items.1 -= old;
                }
                items.0.push((key, Arc::clone(&value), n));
                items.1 += n;
            }
        }
        value
    }

    /// The sizes kept, and their recorded total (for the tests).
    #[cfg(test)]
    pub(crate) fn sizes(&self) -> (Vec<usize>, usize) {
        let items = self.items.lock().unwrap();
        (items.0.iter().map(|i| i.2).collect(), items.1)
    }
}
