//! Exact numbers over powers of 6: every probability of a battle is an
//! integer weight over a power of 6 (each outcome is a sequence of die
//! faces), so a battle's values are kept as `num / 6^exp`, summed and
//! compared without a gcd, in 128-bit integers while they fit and big ones
//! past that.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;

/// An integer: in 128 bits while it fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Int {
    Small(i128),
    Big(Box<BigInt>),
}

impl Int {
    pub(super) const ONE: Int = Int::Small(1);

    pub(super) fn small(x: i128) -> Int {
        Int::Small(x)
    }

    pub(super) fn from_big(b: BigInt) -> Int {
        match b.to_i128() {
            Some(x) => Int::Small(x),
            None => Int::Big(Box::new(b)),
        }
    }

    pub(super) fn big(&self) -> BigInt {
        match self {
            Int::Small(x) => BigInt::from(*x),
            Int::Big(b) => (**b).clone(),
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Int::Small(x) => *x == 0,
            Int::Big(b) => b.is_zero(),
        }
    }

    fn mul(&self, o: &Int) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, o)
            && let Some(x) = a.checked_mul(*b)
        {
            return Int::Small(x);
        }
        Int::from_big(self.big() * o.big())
    }

    fn add(&self, o: &Int) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, o)
            && let Some(x) = a.checked_add(*b)
        {
            return Int::Small(x);
        }
        Int::from_big(self.big() + o.big())
    }

    fn cmp(&self, o: &Int) -> Ordering {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.big().cmp(&o.big()),
        }
    }
}

/// `6^k`.
pub(super) fn pow6(k: u32) -> Int {
    // 6^49 is the last power of 6 below 2^127.
    match 6i128.checked_pow(k) {
        Some(x) => Int::Small(x),
        None => Int::Big(Box::new(BigInt::from(6u32).pow(k))),
    }
}

/// An exact number `num / 6^exp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Sixths {
    num: Int,
    exp: u32,
}

impl Sixths {
    pub(super) fn int(x: i64) -> Sixths {
        Sixths {
            num: Int::Small(i128::from(x)),
            exp: 0,
        }
    }

    /// `self += x * w / 6^wexp`.
    pub(super) fn add_product(&mut self, x: &Sixths, w: &Int, wexp: u32) {
        if x.num.is_zero() || w.is_zero() {
            return;
        }
        let e = x.exp + wexp;
        if e > self.exp {
            if !self.num.is_zero() {
                self.num = self.num.mul(&pow6(e - self.exp));
            }
            self.exp = e;
        }
        let mut term = x.num.mul(w);
        if self.exp > e {
            term = term.mul(&pow6(self.exp - e));
        }
        self.num = self.num.add(&term);
    }

    /// The same number with the fewest powers of 6 (kept small in memory
    /// and in later products).
    pub(super) fn reduced(mut self) -> Sixths {
        if let Int::Small(x) = &mut self.num {
            if *x == 0 {
                self.exp = 0;
            }
            while self.exp > 0 && *x % 6 == 0 {
                *x /= 6;
                self.exp -= 1;
            }
        }
        self
    }

    pub(super) fn cmp(&self, other: &Sixths) -> Ordering {
        match self.exp.cmp(&other.exp) {
            Ordering::Equal => self.num.cmp(&other.num),
            Ordering::Less => self.num.mul(&pow6(other.exp - self.exp)).cmp(&other.num),
            Ordering::Greater => self.num.cmp(&other.num.mul(&pow6(self.exp - other.exp))),
        }
    }

    pub(super) fn ratio(&self) -> BigRational {
        BigRational::new(self.num.big(), pow6(self.exp).big())
    }
}

/// Six numbers as a solved state keeps them: over one power of 6, in 128
/// bits each while they fit (a third of the memory of six [`Sixths`]).
#[derive(Clone, Debug)]
pub(super) enum Packed {
    Small { exp: u32, nums: [i128; 6] },
    Big(Box<[Sixths; 6]>),
}

impl Packed {
    pub(super) fn pack(v: &[Sixths; 6]) -> Packed {
        let v = &v.clone().map(Sixths::reduced);
        let exp = v.iter().map(|x| x.exp).max().unwrap_or(0);
        let mut nums = [0i128; 6];
        for (n, x) in nums.iter_mut().zip(v) {
            match x.num.mul(&pow6(exp - x.exp)) {
                Int::Small(y) => *n = y,
                Int::Big(_) => return Packed::Big(Box::new(v.clone())),
            }
        }
        Packed::Small { exp, nums }
    }

    pub(super) fn unpack(&self) -> [Sixths; 6] {
        match self {
            Packed::Small { exp, nums } => nums.map(|n| Sixths {
                num: Int::Small(n),
                exp: *exp,
            }),
            Packed::Big(v) => (**v).clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums and comparisons agree with exact rationals, across the
    /// change from 128-bit to big integers.
    #[test]
    fn sixths_are_exact_past_128_bits() {
        let r = |n: i64, e: u32| BigRational::new(BigInt::from(n), pow6(e).big());
        let mut acc = Sixths::int(0);
        let mut want = BigRational::zero();
        for k in 0..120u32 {
            let x = Sixths::int(i64::from(k % 7) - 3);
            let w = Int::small(i128::from(k % 5 + 1));
            acc.add_product(&x, &w, k);
            want += r((i64::from(k % 7) - 3) * i64::from(k % 5 + 1), k);
            assert_eq!(acc.ratio(), want, "{k}");
            assert_eq!(acc.clone().reduced().ratio(), want, "{k}");
        }
        assert!(matches!(acc.num, Int::Big(_)), "the sum went past 128 bits");
        let (a, b) = (Sixths::int(1), acc.clone());
        assert_eq!(a.cmp(&b), a.ratio().cmp(&b.ratio()));
        assert_eq!(b.cmp(&a), b.ratio().cmp(&a.ratio()));
        assert_eq!(b.cmp(&b.clone().reduced()), Ordering::Equal);
        // Packed and unpacked, small and big alike.
        let six = [
            a.clone(),
            b.clone(),
            Sixths::int(-4),
            a.clone(),
            Sixths::int(0),
            b,
        ];
        let back = Packed::pack(&six).unpack();
        assert!(six.iter().zip(&back).all(|(x, y)| x.ratio() == y.ratio()));
        let small = [0, 1, -2, 3, 4, 5].map(Sixths::int);
        assert!(matches!(Packed::pack(&small), Packed::Small { .. }));
        let back = Packed::pack(&small).unpack();
        assert!(small.iter().zip(&back).all(|(x, y)| x.ratio() == y.ratio()));
    }
}
