//! Python's exact values made cheaply: `fractions.Fraction`s built from
//! reduced ratios without `Fraction.__new__`, their ints made once per
//! value, and the cycle collector paused while a table's many are made.

use super::{PyRes, big_ratio};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use swtcg_engine::dist::{Num, reduce};

/// Makes `fractions.Fraction`s from exact ratios without Python's
/// `Fraction.__new__` (which parses its arguments and takes their gcd
/// again, about 2 µs each): the ratio is reduced here (in machine words
/// while it fits), the object made bare and its two slots set, which is
/// what a Fraction holds: a reduced ratio with a positive denominator.
pub(crate) struct Fractions<'py> {
    pub(crate) py: Python<'py>,
    class: Bound<'py, pyo3::types::PyType>,
    /// The class's allocator: what `object.__new__(Fraction)` calls.
    alloc: pyo3::ffi::allocfunc,
    /// Whether its instances are tracked by the cycle collector.
    gc: bool,
    /// The setters of its two slots (`_numerator`, `_denominator`): what
    /// `setattr` finds on the class and calls, found once.
    slots: Option<[Slot; 2]>,
    /// The ints made, by value: the ratios of a law share few
    /// denominators, and the laws of a table many numerators, and an int
    /// past 64 bits costs several hundred instructions to make.
    ints: rustc_hash::FxHashMap<u128, Bound<'py, PyAny>>,
    /// Whether numerators are looked for among the ints made too (a
    /// table's laws share about half of theirs; one law's are nearly all
    /// distinct, and looking costs more than it finds).
    shared_numerators: bool,
}

impl<'py> Fractions<'py> {
    pub(crate) fn new(py: Python<'py>) -> PyRes<Fractions<'py>> {
        /// `fractions.Fraction` and its allocator, looked up once.
        type Class = (
            Py<pyo3::types::PyType>,
            pyo3::ffi::allocfunc,
            bool,
            Option<[Slot; 2]>,
        );
        static CLASS: PyOnceLock<Class> = PyOnceLock::new();
        let (class, alloc, gc, slots) = CLASS.get_or_try_init(py, || -> PyRes<Class> {
            let class = py
                .import("fractions")?
                .getattr("Fraction")?
                .cast_into::<pyo3::types::PyType>()?;
            // SAFETY: `class` is a live type object; `Py_tp_alloc` names
            // its allocator slot, an `allocfunc` (every type has one: it is
            // inherited from `object`).
            let slot =
                unsafe { pyo3::ffi::PyType_GetSlot(class.as_type_ptr(), pyo3::ffi::Py_tp_alloc) };
            if slot.is_null() {
                return Err(pyo3::exceptions::PySystemError::new_err(
                    "fractions.Fraction has no allocator",
                ));
            }
            // SAFETY: a non-null `Py_tp_alloc` slot holds an `allocfunc`.
            let alloc =
                unsafe { std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::allocfunc>(slot) };
            // SAFETY: `class` is a live type object.
            let flags = unsafe { pyo3::ffi::PyType_GetFlags(class.as_type_ptr()) };
            let gc = flags & pyo3::ffi::Py_TPFLAGS_HAVE_GC != 0;
            let slots = match (
                Slot::of(&class, pyo3::intern!(py, "_numerator"))?,
                Slot::of(&class, pyo3::intern!(py, "_denominator"))?,
            ) {
                (Some(n), Some(d)) => Some([n, d]),
                _ => None,
            };
            Ok((class.unbind(), alloc, gc, slots))
        })?;
        Ok(Fractions {
            py,
            class: class.bind(py).clone(),
            alloc: *alloc,
            gc: *gc,
            slots: slots
                .as_ref()
                .map(|[n, d]| [n.clone_ref(py), d.clone_ref(py)]),
            ints: Default::default(),
            shared_numerators: false,
        })
    }

    /// A maker for many laws (a table's rows), which share numerators.
    pub(crate) fn for_many(py: Python<'py>) -> PyRes<Fractions<'py>> {
        Ok(Fractions {
            shared_numerators: true,
            ..Fractions::new(py)?
        })
    }

    /// An int, by the machine word (or two) when it fits.
    fn int(&self, n: &BigInt) -> PyRes<Bound<'py, PyAny>> {
        if let Some(v) = n.to_i64() {
            return Ok(v.into_pyobject(self.py)?.into_any());
        }
        match n.to_u128() {
            Some(v) => self.uint(v),
            None => Ok(n.into_pyobject(self.py)?.into_any()),
        }
    }

    /// A non-negative int, by the machine word when it fits, else from
    /// its hexadecimal digits (what the limited API offers that is
    /// cheapest: `PyLong_FromString` reads a power-of-two base digit by
    /// digit; pyo3's own conversion shifts and ors three ints).
    fn uint(&self, n: u128) -> PyRes<Bound<'py, PyAny>> {
        if let Ok(v) = u64::try_from(n) {
            return Ok(v.into_pyobject(self.py)?.into_any());
        }
        // 32 hexadecimal digits at most, and the NUL that ends them.
        let mut digits = [0u8; 33];
        let len = 32 - (n.leading_zeros() / 4) as usize;
        for (i, d) in digits[..len].iter_mut().enumerate() {
            let nibble = (n >> (4 * (len - 1 - i))) as u8 & 0xf;
            *d = b"0123456789abcdef"[usize::from(nibble)];
        }
        // SAFETY: `digits` holds `len` hexadecimal digits and a NUL after
        // them; the end pointer may be null. It returns a new reference,
        // or NULL with an exception.
        unsafe {
            Bound::from_owned_ptr_or_err(
                self.py,
                pyo3::ffi::PyLong_FromString(digits.as_ptr().cast(), std::ptr::null_mut(), 16),
            )
        }
    }

    /// A Fraction of two ints, reduced already.
    fn make(
        &self,
        numerator: Bound<'py, PyAny>,
        denominator: Bound<'py, PyAny>,
    ) -> PyRes<Bound<'py, PyAny>> {
        // What `object.__new__(Fraction)` does (the class is not
        // abstract, and takes no arguments here): a bare instance from the
        // class's allocator, its slots empty until set below.
        // SAFETY: `alloc` is the class's own allocator, called with the
        // class (kept alive by `self`) and no items, as `object.__new__`
        // calls it; it returns a new reference, or NULL with an exception.
        let f = unsafe {
            Bound::from_owned_ptr_or_err(self.py, (self.alloc)(self.class.as_type_ptr(), 0))?
        };
        match &self.slots {
            Some([n, d]) => {
                n.set(&f, &numerator)?;
                d.set(&f, &denominator)?;
            }
            None => {
                f.setattr(pyo3::intern!(self.py, "_numerator"), numerator)?;
                f.setattr(pyo3::intern!(self.py, "_denominator"), denominator)?;
            }
        }
        if self.gc {
            // A Fraction holds two ints and no `__dict__`: it can't be part
            // of a reference cycle, so the cycle collector need not visit
            // it (CPython untracks tuples and dicts of atomic values for
            // the same reason). Tens of thousands of them otherwise make
            // every young collection walk them all.
            // SAFETY: `f` is a live instance of a garbage-collected class
            // (checked when the class was looked up).
            unsafe { pyo3::ffi::PyObject_GC_UnTrack(f.as_ptr().cast()) };
        }
        Ok(f)
    }

    /// The int `n`, made once.
    fn made(&mut self, n: u128) -> PyRes<Bound<'py, PyAny>> {
        if let Some(made) = self.ints.get(&n) {
            return Ok(made.clone());
        }
        let made = self.uint(n)?;
        self.ints.insert(n, made.clone());
        Ok(made)
    }

    /// The Fraction of a reduced rational.
    pub(crate) fn of(&self, r: &BigRational) -> PyRes<Bound<'py, PyAny>> {
        self.make(self.int(r.numer())?, self.int(r.denom())?)
    }

    /// The Fraction `n / d` (`d` positive), reduced here.
    pub(crate) fn ratio(&mut self, n: &Num, d: &Num) -> PyRes<Bound<'py, PyAny>> {
        let (Num::Small(n), Num::Small(d)) = (n, d) else {
            return self.of(&big_ratio(n, d));
        };
        let (n, d) = reduce(*n, *d);
        let numerator = if self.shared_numerators {
            self.made(n)?
        } else {
            self.uint(n)?
        };
        let denominator = self.made(d)?;
        self.make(numerator, denominator)
    }
}

/// One of `fractions.Fraction`'s slots: its descriptor on the class and
/// that descriptor's setter. Setting through them is what `setattr` does
/// on an instance without a `__dict__` once it has found a data
/// descriptor on the class (the look-up through the class's dicts is what
/// is saved).
struct Slot {
    descriptor: Py<PyAny>,
    set: pyo3::ffi::descrsetfunc,
}

impl Slot {
    /// The slot `name` of `class`, or None where `setattr` must be used:
    /// the class sets attributes its own way, the attribute is not a data
    /// descriptor, or this Python can't give its setter (before 3.10,
    /// `PyType_GetSlot` reads heap types only).
    fn of(
        class: &Bound<'_, pyo3::types::PyType>,
        name: &Bound<'_, PyString>,
    ) -> PyRes<Option<Slot>> {
        let py = class.py();
        let object = py.get_type::<PyAny>();
        let setattr = pyo3::intern!(py, "__setattr__");
        if !class.getattr(setattr)?.is(&object.getattr(setattr)?) {
            return Ok(None);
        }
        let Ok(descriptor) = class.getattr(name) else {
            return Ok(None);
        };
        // SAFETY: the type of a live object is a live type object.
        let slot = unsafe {
            pyo3::ffi::PyType_GetSlot(
                descriptor.get_type().as_type_ptr(),
                pyo3::ffi::Py_tp_descr_set,
            )
        };
        if slot.is_null() {
            // A static type before 3.10 raises SystemError here.
            let _ = PyErr::take(py);
            return Ok(None);
        }
        // SAFETY: a non-null `Py_tp_descr_set` slot holds a `descrsetfunc`.
        let set =
            unsafe { std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::descrsetfunc>(slot) };
        Ok(Some(Slot {
            descriptor: descriptor.unbind(),
            set,
        }))
    }

    fn clone_ref(&self, py: Python<'_>) -> Slot {
        Slot {
            descriptor: self.descriptor.clone_ref(py),
            set: self.set,
        }
    }

    /// `instance.<slot> = value`.
    fn set(&self, instance: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyRes<()> {
        // SAFETY: `set` is the descriptor's type's own setter, called with
        // the descriptor, a live instance and a live value (it takes its
        // own reference to the value), as `setattr` calls it; it returns
        // 0, or -1 with an exception.
        let r = unsafe { (self.set)(self.descriptor.as_ptr(), instance.as_ptr(), value.as_ptr()) };
        if r == 0 {
            Ok(())
        } else {
            Err(PyErr::fetch(instance.py()))
        }
    }
}

/// The cycle collector paused while a table's values are made, and
/// resumed as it was when dropped (on an error too). Every Fraction counts
/// as an allocation towards the next young collection (one every 700), yet
/// none can be part of a cycle (they are untracked as made), nor can the
/// dicts of ints and Fractions that hold them: tens of collections that
/// find nothing become one. No Python code runs meanwhile (the GIL is
/// held and only C is called), so no other thread sees the pause.
pub(crate) struct GcPause<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> GcPause<'py> {
    pub(crate) fn new(py: Python<'py>) -> PyRes<GcPause<'py>> {
        let gc = py.import("gc")?;
        if !gc.call_method0("isenabled")?.is_truthy()? {
            return Ok(GcPause { gc: None });
        }
        gc.call_method0("disable")?;
        Ok(GcPause { gc: Some(gc) })
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc
            && let Err(e) = gc.call_method0("enable")
        {
            // Not expected (`gc.enable` takes no argument and can't fail);
            // shown where Python shows errors it can't raise.
            e.write_unraisable(gc.py(), Some(gc.as_any()));
        }
    }
}
