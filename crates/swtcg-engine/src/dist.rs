//! Exact probability distributions.
//!
//! Every probability in this crate is an exact rational. A distribution is
//! stored as integer *weights* over one common integer *denominator*: the
//! probability of an outcome is `weight / denom`. Because every random event in
//! the game is a roll of six-sided dice, the denominators the engine produces
//! are powers of 6, so the weights of an attack with up to 49 dice fit in a
//! `u128`; larger attacks use [`BigUint`]. The [`Weight`] trait lets the same
//! code run on both.
//!
//! Two shapes are provided:
//! - [`Dist`]: a distribution over a contiguous range of integers (damage,
//!   hits), stored densely, with convolution, map, mixture, mean, variance,
//!   tail probabilities and mode;
//! - [`Joint`]: a distribution over arbitrary ordered keys (for example the
//!   triple *(hits, any natural 1, any natural 6)*), stored sparsely, with map,
//!   bind (sequential composition), product and marginals.
//!
//! Both check in debug builds that their weights sum exactly to the
//! denominator, i.e. that the probabilities sum to exactly 1.
//!
//! ```
//! use swtcg_engine::dist::{Dist, sum_of};
//! use num_rational::BigRational;
//!
//! let d6: Dist = Dist::uniform(1, 6);
//! let two_d6 = sum_of(&[d6.to_big(), d6.to_big()]).unwrap();
//! assert_eq!(two_d6.prob(7), BigRational::new(1.into(), 6.into()));
//! assert_eq!(two_d6.mean(), BigRational::from_integer(7.into()));
//! assert_eq!(two_d6.mode(), 7);
//! ```

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::fmt::Debug;
use std::hash::Hash;

/// An exact non-negative integer weight: `u128` for speed, [`BigUint`] for size.
///
/// The engine picks `u128` only when it can prove the largest number it will
/// form fits (the crate's `fits_u128`).
pub trait Weight: Clone + Debug + Eq + Ord + Hash + Send + Sync + 'static {
    /// 0.
    fn zero() -> Self;
    /// 1.
    fn one() -> Self;
    /// Conversion from a machine integer.
    fn from_u64(x: u64) -> Self;
    /// Whether this is 0.
    fn is_zero(&self) -> bool;
    /// `self += other`.
    fn add_assign_ref(&mut self, other: &Self);
    /// `self -= other`; the caller guarantees `other <= self`.
    fn sub_assign_ref(&mut self, other: &Self);
    /// `self * other`.
    fn mul_ref(&self, other: &Self) -> Self;
    /// `self / other`, exact; the caller guarantees divisibility.
    fn div_exact(&self, other: &Self) -> Self;
    /// Greatest common divisor.
    fn gcd_ref(&self, other: &Self) -> Self;
    /// The same number as a [`BigUint`].
    fn to_big(&self) -> BigUint;
    /// The number from a [`BigUint`] (which must fit).
    fn from_big(b: &BigUint) -> Self;
    /// The same number as a [`Num`].
    fn to_num(&self) -> Num {
        Num::big(self.to_big())
    }
    /// The number from a [`Num`] (which must fit).
    fn from_num(n: &Num) -> Self {
        Self::from_big(&n.to_big())
    }
    /// `self * x` for a machine integer.
    fn mul_u64(&self, x: u64) -> Self {
        self.mul_ref(&Self::from_u64(x))
    }
    /// `base ^ exp`.
    fn pow(base: u64, exp: u32) -> Self {
        let mut acc = Self::one();
        let b = Self::from_u64(base);
        for _ in 0..exp {
            acc = acc.mul_ref(&b);
        }
        acc
    }
}

impl Weight for u128 {
    #[inline]
    fn zero() -> Self {
        0
    }
    #[inline]
    fn one() -> Self {
        1
    }
    #[inline]
    fn from_u64(x: u64) -> Self {
        x as u128
    }
    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn add_assign_ref(&mut self, other: &Self) {
        *self += *other;
    }
    #[inline]
    fn sub_assign_ref(&mut self, other: &Self) {
        *self -= *other;
    }
    #[inline]
    fn mul_ref(&self, other: &Self) -> Self {
        self * other
    }
    fn div_exact(&self, other: &Self) -> Self {
        debug_assert!(u128::is_multiple_of(*self, *other));
        self / other
    }
    fn gcd_ref(&self, other: &Self) -> Self {
        self.gcd(other)
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn from_big(b: &BigUint) -> Self {
        u128::try_from(b).expect("value fits in u128")
    }
    fn to_num(&self) -> Num {
        Num::Small(*self)
    }
    fn from_num(n: &Num) -> Self {
        match n {
            Num::Small(x) => *x,
            Num::Big(_) => panic!("value does not fit in u128"),
        }
    }
    fn pow(base: u64, exp: u32) -> Self {
        (base as u128).pow(exp)
    }
}

impl Weight for BigUint {
    #[inline]
    fn zero() -> Self {
        Zero::zero()
    }
    #[inline]
    fn one() -> Self {
        One::one()
    }
    #[inline]
    fn from_u64(x: u64) -> Self {
        BigUint::from(x)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    #[inline]
    fn add_assign_ref(&mut self, other: &Self) {
        *self += other;
    }
    #[inline]
    fn sub_assign_ref(&mut self, other: &Self) {
        *self -= other;
    }
    #[inline]
    fn mul_ref(&self, other: &Self) -> Self {
        self * other
    }
    fn mul_u64(&self, x: u64) -> Self {
        self * x
    }
    fn div_exact(&self, other: &Self) -> Self {
        debug_assert!(Zero::is_zero(&(self % other)));
        self / other
    }
    fn gcd_ref(&self, other: &Self) -> Self {
        self.gcd(other)
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn from_big(b: &BigUint) -> Self {
        b.clone()
    }
    fn pow(base: u64, exp: u32) -> Self {
        num_traits::pow(BigUint::from(base), exp as usize)
    }
}

/// An exact non-negative integer that is a `u128` while it fits and a
/// [`BigUint`] beyond: the default weight of the crate. Arithmetic on small
/// values costs about what `u128` arithmetic costs; overflow promotes.
///
/// ```
/// use swtcg_engine::dist::{Num, Weight};
/// let big = Num::pow(6, 60); // beyond u128
/// assert_eq!(big.div_exact(&Num::pow(6, 59)), Num::from_u64(6));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Num {
    /// A value below 2^128.
    Small(u128),
    /// A value of 2^128 or more (never a value that fits `Small`).
    Big(BigUint),
}

impl Num {
    /// The sum past `u128`, out of the inlined fast path.
    #[cold]
    #[inline(never)]
    fn add_big(&self, other: &Num) -> Num {
        Num::big(self.to_big() + other.to_big())
    }

    /// The product past `u128`, out of the inlined fast path.
    #[cold]
    #[inline(never)]
    fn mul_big(&self, other: &Num) -> Num {
        Num::big(self.to_big() * other.to_big())
    }

    /// A [`BigUint`] as a `Num`, small when it fits.
    pub fn big(b: BigUint) -> Num {
        match u128::try_from(&b) {
            Ok(x) => Num::Small(x),
            Err(_) => Num::Big(b),
        }
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Num {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        match (self, other) {
            (Num::Small(a), Num::Small(b)) => a.cmp(b),
            (Num::Small(_), Num::Big(_)) => Less,
            (Num::Big(_), Num::Small(_)) => Greater,
            (Num::Big(a), Num::Big(b)) => a.cmp(b),
        }
    }
}

impl Weight for Num {
    #[inline]
    fn zero() -> Self {
        Num::Small(0)
    }
    #[inline]
    fn one() -> Self {
        Num::Small(1)
    }
    #[inline]
    fn from_u64(x: u64) -> Self {
        Num::Small(x as u128)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        matches!(self, Num::Small(0))
    }
    #[inline]
    fn add_assign_ref(&mut self, other: &Self) {
        if let (Num::Small(a), Num::Small(b)) = (&mut *self, other)
            && let Some(c) = a.checked_add(*b)
        {
            *a = c;
            return;
        }
        *self = self.add_big(other);
    }
    #[inline]
    fn sub_assign_ref(&mut self, other: &Self) {
        *self = match (&*self, other) {
            (Num::Small(a), Num::Small(b)) => Num::Small(a - b),
            _ => Num::big(self.to_big() - other.to_big()),
        };
    }
    #[inline]
    fn mul_ref(&self, other: &Self) -> Self {
        if let (Num::Small(a), Num::Small(b)) = (self, other)
            && let Some(c) = a.checked_mul(*b)
        {
            return Num::Small(c);
        }
        self.mul_big(other)
    }
    fn div_exact(&self, other: &Self) -> Self {
        match (self, other) {
            (Num::Small(a), Num::Small(b)) => Num::Small(a.div_exact(b)),
            _ => Num::big(self.to_big().div_exact(&other.to_big())),
        }
    }
    fn gcd_ref(&self, other: &Self) -> Self {
        match (self, other) {
            (Num::Small(a), Num::Small(b)) => Num::Small(a.gcd(b)),
            _ => Num::big(self.to_big().gcd(&other.to_big())),
        }
    }
    fn to_big(&self) -> BigUint {
        match self {
            Num::Small(x) => BigUint::from(*x),
            Num::Big(b) => b.clone(),
        }
    }
    fn from_big(b: &BigUint) -> Self {
        Num::big(b.clone())
    }
    fn to_num(&self) -> Num {
        self.clone()
    }
    fn from_num(n: &Num) -> Self {
        n.clone()
    }
    fn pow(base: u64, exp: u32) -> Self {
        match (base as u128).checked_pow(exp) {
            Some(x) => Num::Small(x),
            None => Num::big(num_traits::pow(BigUint::from(base), exp as usize)),
        }
    }
}

/// Whether every weight of a computation whose probabilities all have
/// denominator dividing `6^dice` fits in a `u128` (it does up to 49 dice).
pub(crate) fn fits_u128(dice: u64) -> bool {
    dice <= 49
}

/// Most work [`sum_of`] takes on: products of weights, each counted as the
/// product of its two factors' sizes in 64-bit words (about 10 seconds
/// here).
pub(crate) const MAX_SUM_WORK: f64 = 1.5e10;

/// The exact law of the sum of independent outcomes: the convolution of
/// `dists`, its work estimated before it starts (refused past
/// `MAX_SUM_WORK`, with the estimate said) and checked against the
/// engine's deadline as it goes ([`crate::cancel`]).
///
/// ```
/// use swtcg_engine::dist::{Dist, sum_of};
/// use num_bigint::BigUint;
/// let die: Dist<BigUint> = Dist::uniform(1, 6);
/// let two = sum_of(&[die.clone(), die]).unwrap();
/// assert_eq!(two.mean().to_string(), "7");
/// ```
pub fn sum_of(dists: &[Dist<BigUint>]) -> crate::error::Result<Dist<BigUint>> {
    let words = |w: &BigUint| (w.bits() / 64 + 1) as f64;
    let mut work = 0.0;
    let (mut len, mut size) = (1.0f64, 1.0f64);
    for d in dists {
        let nonzero = d.weights.iter().filter(|w| !Weight::is_zero(*w)).count() as f64;
        let dsize = words(&d.denom);
        work += len * nonzero * size * dsize;
        len += d.weights.len() as f64 - 1.0;
        size += dsize;
    }
    if work > MAX_SUM_WORK {
        return Err(crate::error::Error::limit(format!(
            "the sum of these {} attacks is about {work:.1e} steps of work, above the limit of {MAX_SUM_WORK:.0e}: combine fewer or smaller attacks",
            dists.len()
        )));
    }
    let mut total = Dist::point(0);
    for d in dists {
        total = total.convolve_cancellable(d)?;
    }
    Ok(total)
}

/// An exact rational `num/den` from two weights (reduced in machine words
/// while they fit, see [`reduce`]).
pub fn ratio<W: Weight>(num: &W, den: &W) -> BigRational {
    if let (Num::Small(n), Num::Small(d)) = (num.to_num(), den.to_num())
        && d != 0
    {
        let (n, d) = reduce(n, d);
        return BigRational::new_raw(BigInt::from(n), BigInt::from(d));
    }
    BigRational::new(BigInt::from(num.to_big()), BigInt::from(den.to_big()))
}

/// `n / d` in lowest terms (`d` not 0). A dice law's denominator is `2^a ·
/// 3^b` (a power of six, less what was cancelled): its gcd with `n` is then
/// the powers of 2 and 3 they share, counted (a bit count, and divisions
/// by 3 as exact multiplications by its inverse modulo 2^128) rather than
/// searched; any other denominator by Euclid's
/// (Stein's) gcd. The Python package reduces its Fractions with it.
///
/// ```
/// use swtcg_engine::dist::reduce;
/// assert_eq!(reduce(6 * 35, 6u128.pow(3)), (35, 36));
/// assert_eq!(reduce(3u128.pow(40) * 4, 6u128.pow(45)), (1, 2u128.pow(43) * 3u128.pow(5)));
/// assert_eq!(reduce(14, 35), (2, 5));
/// assert_eq!(reduce(0, 36), (0, 1));
/// ```
pub fn reduce(n: u128, d: u128) -> (u128, u128) {
    /// The inverse of 3 modulo 2^128: `x · INV3` is `x / 3` when 3
    /// divides `x`.
    const INV3: u128 = 0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaab;
    /// `3^b` for every `b` whose power fits in 128 bits.
    const POW3: [u128; 81] = {
        let mut p = [1u128; 81];
        let mut b = 1;
        while b < 81 {
            p[b] = p[b - 1] * 3;
            b += 1;
        }
        p
    };
    let twos = d.trailing_zeros();
    let rest = d >> twos;
    // rest = 3^b? b is about log2(rest) / log2(3).
    let threes = {
        let guess = (u64::from(rest.ilog2()) * 1_000_000 / 1_584_963) as usize;
        (guess.saturating_sub(1)..=guess + 1).find(|&b| POW3.get(b) == Some(&rest))
    };
    let Some(threes) = threes else {
        let g = num_integer::Integer::gcd(&n, &d);
        return (n / g, d / g);
    };
    let shift = n.trailing_zeros().min(twos);
    let (mut n, mut d) = (n >> shift, d >> shift);
    // Threes, one at a time: `n · INV3` is `n / 3` when 3 divides `n`, and
    // above `MAX / 3` when it doesn't, so one multiplication tells and
    // divides (most numerators have no factor 3 and stop at once).
    for _ in 0..threes {
        let third = n.wrapping_mul(INV3);
        if third > u128::MAX / 3 {
            break;
        }
        n = third;
        d = d.wrapping_mul(INV3);
    }
    (n, d)
}

/// A reduced fraction as the string `"num/den"` (always with a denominator,
/// so `"0/1"` and `"1/1"`), the format of every probability in JSON output.
pub fn fraction_string(r: &BigRational) -> String {
    match small_text(r, &mut [0; 80]) {
        Some(s) => s.to_string(),
        None => format!("{}/{}", r.numer(), r.denom()),
    }
}

/// A rational's numerator and denominator when both fit machine integers
/// (read from their 64-bit digits: num-bigint's general conversion costs
/// several times as much, once per value of every row written).
pub(crate) fn small_parts(r: &BigRational) -> Option<(i128, u128)> {
    fn word(b: &BigUint) -> Option<u128> {
        let mut digits = b.iter_u64_digits();
        let low = u128::from(digits.next().unwrap_or(0));
        let high = u128::from(digits.next().unwrap_or(0));
        match digits.next() {
            None => Some(high << 64 | low),
            Some(_) => None,
        }
    }
    let n = i128::try_from(word(r.numer().magnitude())?).ok()?;
    let n = if r.numer().sign() == num_bigint::Sign::Minus {
        -n
    } else {
        n
    };
    Some((n, word(r.denom().magnitude())?))
}

/// `"num/den"` written by itoa in two pieces, when both fit machine integers
/// (most results: big-integer formatting divides limb by limb).
pub(crate) fn small_pieces<'a>(
    r: &BigRational,
    bufs: &'a mut (itoa::Buffer, itoa::Buffer),
) -> Option<(&'a str, &'a str)> {
    let (n, d) = small_parts(r)?;
    Some((bufs.0.format(n), bufs.1.format(d)))
}

/// `"num/den"` written into `out` when both fit machine integers.
fn small_text<'a>(r: &BigRational, out: &'a mut [u8; 80]) -> Option<&'a str> {
    let mut bufs = (itoa::Buffer::new(), itoa::Buffer::new());
    let (n, d) = small_pieces(r, &mut bufs)?;
    let (n, d) = (n.as_bytes(), d.as_bytes());
    // At most 40 + 1 + 39 bytes.
    let len = n.len() + 1 + d.len();
    out[..n.len()].copy_from_slice(n);
    out[n.len()] = b'/';
    out[n.len() + 1..len].copy_from_slice(d);
    std::str::from_utf8(&out[..len]).ok()
}

/// An exact probability (or expectation) in a result: serialised as a
/// reduced fraction string `"num/den"`, displayed the same way.
///
/// ```
/// use swtcg_engine::dist::Fraction;
/// use num_rational::BigRational;
/// let p = Fraction::from(BigRational::new(2.into(), 6.into()));
/// assert_eq!(serde_json::to_string(&p).unwrap(), "\"1/3\"");
/// assert_eq!(p.to_string(), "1/3");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fraction(pub BigRational);

impl Fraction {
    /// The nearest `f64`, for display only.
    pub fn to_f64(&self) -> f64 {
        to_f64(&self.0)
    }
}

impl From<BigRational> for Fraction {
    fn from(r: BigRational) -> Fraction {
        Fraction(r)
    }
}

impl std::ops::Deref for Fraction {
    type Target = BigRational;
    fn deref(&self) -> &BigRational {
        &self.0
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match small_text(&self.0, &mut [0; 80]) {
            Some(s) => f.write_str(s),
            None => write!(f, "{}/{}", self.0.numer(), self.0.denom()),
        }
    }
}

impl serde::Serialize for Fraction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        // One string, not the pieces `Display` writes.
        match small_text(&self.0, &mut [0; 80]) {
            Some(t) => s.serialize_str(t),
            None => s.collect_str(self),
        }
    }
}

impl PartialEq<BigRational> for Fraction {
    fn eq(&self, other: &BigRational) -> bool {
        self.0 == *other
    }
}

/// A rational as the nearest `f64` (ties to even), for display only.
pub fn to_f64(r: &BigRational) -> f64 {
    if let Some((n, d)) = small_parts(r)
        && let Some(x) = ratio_to_f64(n.unsigned_abs(), d)
    {
        return if n < 0 { -x } else { x };
    }
    r.to_f64().unwrap_or(f64::NAN)
}

/// `p / q` as the nearest `f64`, ties to even (what num-rational's
/// conversion gives, without big integers), when both are below 2^126;
/// `None` otherwise. The quotient is taken to 55 bits by long division in
/// machine words, the rest of the remainder kept as one sticky bit, then
/// rounded to the 53 bits of an `f64`.
fn ratio_to_f64(p: u128, q: u128) -> Option<f64> {
    if q == 0 || p >> 126 != 0 || q >> 126 != 0 {
        return None;
    }
    if p == 0 {
        return Some(0.0);
    }
    if p <= 1 << 53 && q <= 1 << 53 {
        // Both exact as f64: the division rounds once, correctly.
        return Some(p as f64 / q as f64);
    }
    let bits = |x: u128| 128 - x.leading_zeros() as i32;
    // p / q = (m + r / q) · 2^e throughout.
    let (mut m, mut r, mut e) = (p / q, p % q, 0i32);
    let sticky = if bits(m) > 55 {
        let drop = bits(m) - 55;
        let lost = m & ((1u128 << drop) - 1) != 0 || r != 0;
        m >>= drop;
        e += drop;
        lost
    } else {
        while bits(m) < 55 {
            // As many bits at once as the remainder's room allows (r < q,
            // so r · 2^k < 2^126 for k ≤ 126 − bits(q)), and no more than
            // m still needs.
            let k = (55 - bits(m)).min(126 - bits(q)).max(1);
            r <<= k;
            m = (m << k) | (r / q);
            r %= q;
            e -= k;
        }
        r != 0
    };
    // 55 bits: the 53 of the f64, a half bit, and one more.
    let low = m & 3;
    let mut top = m >> 2;
    e += 2;
    if low == 3 || low == 2 && (sticky || top & 1 == 1) {
        top += 1;
        if top == 1 << 53 {
            top >>= 1;
            e += 1;
        }
    }
    // top < 2^53 is exact, and 2^e is a normal power of two here
    // (|e| < 200), so the product is exact.
    Some(top as f64 * f64::from_bits(((e + 1023) as u64) << 52))
}

/// Least common multiple of two weights.
fn lcm<W: Weight>(a: &W, b: &W) -> W {
    a.div_exact(&a.gcd_ref(b)).mul_ref(b)
}

/// Least common multiple of denominators (no gcd work when they are equal,
/// the common case).
fn common_denom<'a, W: Weight>(denoms: impl IntoIterator<Item = &'a W>) -> W {
    let mut common: Option<W> = None;
    for d in denoms {
        common = Some(match common {
            None => d.clone(),
            Some(c) if c == *d => c,
            Some(c) => lcm(&c, d),
        });
    }
    common.unwrap_or_else(W::one)
}

/// Sum of a slice of weights.
fn total<'a, W: Weight>(ws: impl IntoIterator<Item = &'a W>) -> W {
    let mut t = W::zero();
    for w in ws {
        t.add_assign_ref(w);
    }
    t
}

/// An exact distribution over a contiguous range of integers.
///
/// Outcome `offset + i` has probability `weights[i] / denom`. The first and
/// last weights are non-zero, and the weights sum to `denom` exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dist<W: Weight = Num> {
    offset: i64,
    weights: Vec<W>,
    denom: W,
}

impl<W: Weight> Dist<W> {
    /// The distribution from raw weights over `denom`, first outcome `offset`.
    ///
    /// Zero weights at both ends are trimmed.
    ///
    /// # Panics
    /// If the weights do not sum to `denom` (the distribution would not sum
    /// to 1), or all are zero.
    pub fn from_weights(offset: i64, mut weights: Vec<W>, denom: W) -> Self {
        let first = weights
            .iter()
            .position(|w| !w.is_zero())
            .expect("a distribution needs an outcome with non-zero weight");
        let last = weights.iter().rposition(|w| !w.is_zero()).unwrap_or(first);
        weights.truncate(last + 1);
        weights.drain(..first);
        // Not checked here: `sums_to_one` is the check, and it can fail
        // (tests/it/properties.rs::invariant_checks_can_fail).
        Dist {
            offset: offset + first as i64,
            weights,
            denom,
        }
    }

    /// The distribution from `(outcome, weight)` pairs over `denom`; repeated
    /// outcomes add up.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (i64, W)>, denom: W) -> Self {
        let pairs: Vec<(i64, W)> = pairs.into_iter().collect();
        let lo = pairs.iter().map(|p| p.0).min().expect("no outcomes");
        let hi = pairs.iter().map(|p| p.0).max().expect("no outcomes");
        let mut weights = vec![W::zero(); (hi - lo + 1) as usize];
        for (k, w) in pairs {
            weights[(k - lo) as usize].add_assign_ref(&w);
        }
        Self::from_weights(lo, weights, denom)
    }

    /// The certain outcome `k`.
    pub(crate) fn point(k: i64) -> Self {
        Dist {
            offset: k,
            weights: vec![W::one()],
            denom: W::one(),
        }
    }

    /// Each integer of `lo..=hi` equally likely (`uniform(1, 6)` is a d6).
    pub fn uniform(lo: i64, hi: i64) -> Self {
        assert!(lo <= hi, "empty range");
        let n = (hi - lo + 1) as u64;
        Dist {
            offset: lo,
            weights: vec![W::one(); n as usize],
            denom: W::from_u64(n),
        }
    }

    /// The invariant: weights sum exactly to the denominator.
    pub fn sums_to_one(&self) -> bool {
        total(&self.weights) == self.denom
    }

    /// Smallest outcome with non-zero probability.
    pub fn min(&self) -> i64 {
        self.offset
    }

    /// Largest outcome with non-zero probability.
    pub fn max(&self) -> i64 {
        self.offset + self.weights.len() as i64 - 1
    }

    /// The common denominator of the weights.
    pub fn denom(&self) -> &W {
        &self.denom
    }

    /// The weight of outcome `k` (0 outside the support).
    pub fn weight(&self, k: i64) -> W {
        if k < self.min() || k > self.max() {
            W::zero()
        } else {
            self.weights[(k - self.offset) as usize].clone()
        }
    }

    /// `(outcome, weight)` for every outcome in `min()..=max()`, zeros included.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (i64, &W)> + '_ {
        self.weights
            .iter()
            .enumerate()
            .map(move |(i, w)| (self.offset + i as i64, w))
    }

    /// P(X = k), exactly.
    pub fn prob(&self, k: i64) -> BigRational {
        ratio(&self.weight(k), &self.denom)
    }

    /// P(X >= k), exactly.
    pub fn at_least(&self, k: i64) -> BigRational {
        let w = total(self.iter().filter(|(x, _)| *x >= k).map(|(_, w)| w));
        ratio(&w, &self.denom)
    }

    /// P(X >= k) for every k in `min()..=max()`, in one pass.
    pub fn tail(&self) -> Vec<(i64, BigRational)> {
        let mut acc = W::zero();
        let mut out: Vec<(i64, BigRational)> = self
            .iter()
            .rev()
            .map(|(k, w)| {
                acc.add_assign_ref(w);
                (k, ratio(&acc, &self.denom))
            })
            .collect();
        out.reverse();
        out
    }

    /// The expectation, exactly.
    pub fn mean(&self) -> BigRational {
        // Sums of k * weight, positive and negative outcomes apart, in `Num`
        // (machine arithmetic while it fits).
        let mut pos = Num::zero();
        let mut neg = Num::zero();
        for (k, w) in self.iter() {
            let term = w.to_num().mul_u64(k.unsigned_abs());
            if k >= 0 {
                pos.add_assign_ref(&term);
            } else {
                neg.add_assign_ref(&term);
            }
        }
        let s = BigInt::from(pos.to_big()) - BigInt::from(neg.to_big());
        BigRational::new(s, BigInt::from(self.denom.to_big()))
    }

    #[cfg(test)]
    /// The variance, exactly.
    pub(crate) fn variance(&self) -> BigRational {
        let m = self.mean();
        let mut s = BigRational::zero();
        for (k, w) in self.iter() {
            let d = BigRational::from_integer(k.into()) - &m;
            s += &d * &d * ratio(w, &self.denom);
        }
        s
    }

    /// The most likely outcome (the smallest, on a tie).
    pub fn mode(&self) -> i64 {
        let mut best = self.offset;
        let mut best_w = &self.weights[0];
        for (k, w) in self.iter() {
            if w > best_w {
                best = k;
                best_w = w;
            }
        }
        best
    }

    /// The distribution of `f(X)`.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Self {
        let pairs: Vec<(i64, W)> = self
            .iter()
            .filter(|(_, w)| !w.is_zero())
            .map(|(k, w)| (f(k), w.clone()))
            .collect();
        Self::from_pairs(pairs, self.denom.clone())
    }

    #[cfg(test)]
    /// The distribution of `X + Y` for independent `X` (self) and `Y`.
    pub(crate) fn convolve(&self, other: &Self) -> Self {
        self.convolve_until(other, || false).expect("never stopped")
    }

    /// [`Dist::convolve`], stopping early once the engine's deadline has
    /// passed ([`crate::cancel`]): then `Err(cancelled)`, never a wrong law.
    pub(crate) fn convolve_cancellable(&self, other: &Self) -> crate::error::Result<Self> {
        self.convolve_until(other, crate::cancel::expired)
            .ok_or_else(crate::error::Error::cancelled)
    }

    /// `X + Y`, asking `stop` every 16 rows: `None` once it says yes.
    fn convolve_until(&self, other: &Self, stop: impl Fn() -> bool) -> Option<Self> {
        let mut weights = vec![W::zero(); self.weights.len() + other.weights.len() - 1];
        for (i, a) in self.weights.iter().enumerate() {
            if i % 16 == 0 && stop() {
                return None;
            }
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.weights.iter().enumerate() {
                if !b.is_zero() {
                    weights[i + j].add_assign_ref(&a.mul_ref(b));
                }
            }
        }
        let d = Dist {
            offset: self.offset + other.offset,
            weights,
            denom: self.denom.mul_ref(&other.denom),
        };
        debug_assert!(d.sums_to_one());
        Some(d)
    }

    /// The sum of `n` independent copies.
    #[cfg(test)]
    fn repeat_sum(&self, n: u32) -> Self {
        let mut acc = Self::point(0);
        for _ in 0..n {
            acc = acc.convolve(self);
        }
        acc
    }

    #[cfg(test)]
    /// The mixture `sum_i (num_i / mix_denom) * dist_i`: with probability
    /// `num_i / mix_denom` the outcome is drawn from `dist_i`.
    ///
    /// # Panics
    /// If the mixture weights do not sum to `mix_denom`.
    pub(crate) fn mixture(parts: &[(W, Self)], mix_denom: &W) -> Self {
        assert!(
            total(parts.iter().map(|p| &p.0)) == *mix_denom,
            "mixture weights must sum to the denominator"
        );
        let common = common_denom(parts.iter().map(|p| &p.1.denom));
        let mut pairs = Vec::new();
        for (m, d) in parts {
            if m.is_zero() {
                continue;
            }
            let scale = common.div_exact(&d.denom).mul_ref(m);
            for (k, w) in d.iter() {
                pairs.push((k, w.mul_ref(&scale)));
            }
        }
        Self::from_pairs(pairs, common.mul_ref(mix_denom))
    }

    /// The same distribution with [`BigUint`] weights.
    pub fn to_big(&self) -> Dist<BigUint> {
        self.convert()
    }

    /// The same distribution with weights of another type (which must be
    /// able to hold them).
    pub(crate) fn convert<V: Weight>(&self) -> Dist<V> {
        let conv = |w: &W| V::from_num(&w.to_num());
        Dist {
            offset: self.offset,
            weights: self.weights.iter().map(conv).collect(),
            denom: conv(&self.denom),
        }
    }

    /// The probabilities as exact rationals, outcome by outcome.
    pub fn pmf(&self) -> Vec<(i64, BigRational)> {
        self.iter()
            .map(|(k, w)| (k, ratio(w, &self.denom)))
            .collect()
    }
}

/// An exact joint distribution over ordered keys, stored sparsely.
///
/// Keys are kept sorted and unique, each with a non-zero weight over the
/// common denominator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joint<K, W: Weight = Num> {
    entries: Vec<(K, W)>,
    denom: W,
}

impl<K: Ord + Clone, W: Weight> Joint<K, W> {
    /// The distribution from `(key, weight)` pairs over `denom`; repeated keys
    /// add up and zero weights are dropped.
    ///
    /// # Panics
    /// If the weights do not sum to `denom`.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (K, W)>, denom: W) -> Self {
        let mut entries: Vec<(K, W)> = pairs.into_iter().filter(|p| !p.1.is_zero()).collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        // Merge equal keys in place: `dedup_by` passes the later entry first.
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1.add_assign_ref(&later.1);
            }
            same
        });
        Joint { entries, denom }
    }

    /// The distribution from entries already sorted by key, keys unique
    /// (checked in debug builds); zero weights are dropped.
    pub(crate) fn from_sorted(entries: Vec<(K, W)>, denom: W) -> Self {
        let mut entries = entries;
        entries.retain(|e| !e.1.is_zero());
        let j = Joint { entries, denom };
        debug_assert!(
            j.entries.windows(2).all(|w| w[0].0 < w[1].0),
            "keys must be sorted and unique"
        );
        j
    }

    /// The certain outcome `k`.
    pub(crate) fn point(k: K) -> Self {
        Joint {
            entries: vec![(k, W::one())],
            denom: W::one(),
        }
    }

    /// The invariant: weights sum exactly to the denominator.
    pub fn sums_to_one(&self) -> bool {
        total(self.entries.iter().map(|e| &e.1)) == self.denom
    }

    /// The common denominator.
    pub fn denom(&self) -> &W {
        &self.denom
    }

    /// The `(key, weight)` entries, sorted by key.
    pub fn entries(&self) -> &[(K, W)] {
        &self.entries
    }

    /// Number of distinct outcomes.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The distribution of `f(key)`.
    pub fn map<K2: Ord + Clone>(&self, f: impl Fn(&K) -> K2) -> Joint<K2, W> {
        Joint::from_pairs(
            self.entries.iter().map(|(k, w)| (f(k), w.clone())),
            self.denom.clone(),
        )
    }

    /// Sequential composition: draw a key, then draw from `f(key)`.
    pub(crate) fn bind<K2: Ord + Clone>(&self, f: impl Fn(&K) -> Joint<K2, W>) -> Joint<K2, W> {
        let parts: Vec<(&W, Joint<K2, W>)> = self.entries.iter().map(|(k, w)| (w, f(k))).collect();
        let common = common_denom(parts.iter().map(|p| &p.1.denom));
        let mut pairs = Vec::new();
        for (m, j) in &parts {
            let scale = common.div_exact(&j.denom).mul_ref(m);
            for (k, w) in &j.entries {
                pairs.push((k.clone(), w.mul_ref(&scale)));
            }
        }
        Joint::from_pairs(pairs, common.mul_ref(&self.denom))
    }

    #[cfg(test)]
    /// The joint law of independent `(self, other)`, combined by `f`.
    pub(crate) fn product<K2: Ord + Clone, K3: Ord + Clone>(
        &self,
        other: &Joint<K2, W>,
        f: impl Fn(&K, &K2) -> K3,
    ) -> Joint<K3, W> {
        let mut pairs = Vec::with_capacity(self.len() * other.len());
        for (a, wa) in &self.entries {
            for (b, wb) in &other.entries {
                pairs.push((f(a, b), wa.mul_ref(wb)));
            }
        }
        Joint::from_pairs(pairs, self.denom.mul_ref(&other.denom))
    }

    /// The integer marginal `f(key)` as a [`Dist`].
    pub fn marginal(&self, f: impl Fn(&K) -> i64) -> Dist<W> {
        Dist::from_pairs(
            self.entries.iter().map(|(k, w)| (f(k), w.clone())),
            self.denom.clone(),
        )
    }

    /// P(pred(key)), exactly.
    pub fn prob(&self, pred: impl Fn(&K) -> bool) -> BigRational {
        let w = total(self.entries.iter().filter(|(k, _)| pred(k)).map(|e| &e.1));
        ratio(&w, &self.denom)
    }

    #[cfg(test)]
    /// The same distribution with [`BigUint`] weights.
    pub(crate) fn to_big(&self) -> Joint<K, BigUint> {
        self.convert()
    }

    /// The same distribution with weights of another type (which must be
    /// able to hold them).
    pub(crate) fn convert<V: Weight>(&self) -> Joint<K, V> {
        let conv = |w: &W| V::from_num(&w.to_num());
        Joint {
            entries: self
                .entries
                .iter()
                .map(|(k, w)| (k.clone(), conv(w)))
                .collect(),
            denom: conv(&self.denom),
        }
    }
}

impl<W: Weight> From<Dist<W>> for Joint<i64, W> {
    fn from(d: Dist<W>) -> Self {
        Joint::from_pairs(d.iter().map(|(k, w)| (k, w.clone())), d.denom.clone())
    }
}

/// A xorshift generator of test values from `seed` (not 0), shared by
/// the engine's unit tests.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// A fraction's text from its machine-word digits is num-bigint's own,
    /// at the edges of `i128` and `u128` and past them.
    #[test]
    fn small_parts_are_big_integers_own() {
        let edges: Vec<BigInt> = [
            BigInt::from(0),
            BigInt::from(1),
            BigInt::from(u64::MAX),
            BigInt::from(u64::MAX) + 1,
            BigInt::from(i128::MAX),
            BigInt::from(i128::MAX) + 1,
            BigInt::from(u128::MAX),
            BigInt::from(u128::MAX) + 1,
        ]
        .into_iter()
        .flat_map(|x| [x.clone(), -x])
        .collect();
        for n in &edges {
            for d in edges.iter().filter(|d| d.sign() == num_bigint::Sign::Plus) {
                let r = BigRational::new_raw(n.clone(), d.clone());
                let fits =
                    i128::try_from(n).is_ok_and(|n| n != i128::MIN) && u128::try_from(d).is_ok();
                assert_eq!(small_parts(&r).is_some(), fits, "{n}/{d}");
                if let Some((a, b)) = small_parts(&r) {
                    assert_eq!((BigInt::from(a), BigInt::from(b)), (n.clone(), d.clone()));
                }
                assert_eq!(fraction_string(&r), format!("{n}/{d}"));
                assert_eq!(Fraction(r.clone()).to_string(), format!("{n}/{d}"));
            }
        }
    }

    #[test]
    fn d6_basics() {
        let d: Dist<u128> = Dist::uniform(1, 6);
        assert_eq!(d.mean(), q(7, 2));
        assert_eq!(d.variance(), q(35, 12));
        assert_eq!(d.at_least(5), q(1, 3));
        assert_eq!(d.tail()[0], (1, q(1, 1)));
        assert!(d.sums_to_one());
    }

    #[test]
    fn mixture_and_map() {
        let a: Dist<u128> = Dist::point(0);
        let b: Dist<u128> = Dist::uniform(1, 2);
        let m = Dist::mixture(&[(1, a), (2, b)], &3);
        assert_eq!(m.prob(0), q(1, 3));
        assert_eq!(m.prob(2), q(1, 3));
        let doubled = m.map(|k| 2 * k);
        assert_eq!(doubled.prob(4), q(1, 3));
        assert_eq!(doubled.prob(3), q(0, 1));
    }

    #[test]
    fn big_and_small_agree() {
        let d: Dist<u128> = Dist::uniform(1, 6).repeat_sum(5);
        let b: Dist<BigUint> = Dist::uniform(1, 6).repeat_sum(5);
        assert_eq!(d.to_big(), b);
        assert_eq!(d.mean(), q(35, 2));
    }

    #[test]
    fn joint_bind_product() {
        let coin: Joint<u8, u128> = Joint::from_pairs([(0, 1), (1, 1)], 2);
        // Flip; on heads flip again.
        let j = coin.bind(|k| {
            if *k == 1 {
                coin.map(|x| 1 + x)
            } else {
                Joint::point(0)
            }
        });
        assert_eq!(j.prob(|k| *k == 2), q(1, 4));
        let p = coin.product(&coin, |a, b| a + b);
        assert_eq!(p.prob(|k| *k == 1), q(1, 2));
        assert_eq!(p.marginal(|k| *k as i64).mean(), q(1, 1));
    }

    #[test]
    fn bad_weights_fail_the_invariant() {
        assert!(!Dist::<u128>::from_weights(0, vec![1, 1], 3).sums_to_one());
    }
}
