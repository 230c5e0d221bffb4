//! Roll states: a roll of exchangeable dice as the number of dice showing
//! each class of face that matters ([`FaceClasses`]), the states of `m`
//! dice densely ranked ([`Simplex`]), the counts of face sequences a state
//! stands for ([`Counts`]): what the Lucky solver (`lucky`) works over,
//! its tables shared through [`Kept`].

use super::*;
use crate::kept::Kept;

/// Most classes of faces a roll state tells apart.
pub(crate) const CLASSES: usize = 5;

/// How many dice of a roll show each class of face (see [`FaceClasses`]);
/// unused classes hold 0.
pub(crate) type State = [u32; CLASSES];

/// The classes of faces that matter after the roll: 0 a natural 1, 1 a
/// natural 6, 2 another hitting face, 3 another missing face, and, when
/// natural 2s are tracked (Riposte reads them in the final roll), 4 a
/// natural 2 (then not in class 2 or 3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FaceClasses {
    /// Faces of a d6 in each class.
    pub faces: [u64; CLASSES],
    /// Whether a die in each class hits.
    pub hits: [bool; CLASSES],
    /// Classes in use: 4, or 5 with natural 2s tracked.
    pub k: usize,
    /// The natural face dice need to hit.
    pub threshold: i32,
}

impl FaceClasses {
    /// The classes for dice hitting on natural `threshold`+.
    #[cfg(test)]
    pub(crate) fn new(threshold: i32) -> FaceClasses {
        FaceClasses::tracking(threshold, false)
    }

    /// The classes for dice hitting on natural `threshold`+, with natural
    /// 2s in a class of their own when `two`.
    pub(crate) fn tracking(threshold: i32, two: bool) -> FaceClasses {
        let others = (2..=5).filter(|&f| !(two && f == 2));
        let a = others.clone().filter(|&f| f >= threshold).count() as u64;
        let b = others.count() as u64 - a;
        FaceClasses {
            faces: [1, 1, a, b, u64::from(two)],
            hits: [1 >= threshold, 6 >= threshold, true, false, 2 >= threshold],
            k: if two { 5 } else { 4 },
            threshold,
        }
    }

    /// The class of a natural face.
    pub(crate) fn class_of(&self, face: i32) -> usize {
        match face {
            1 => 0,
            6 => 1,
            2 if self.k == 5 => 4,
            f if f >= self.threshold => 2,
            _ => 3,
        }
    }

    /// What the rules read from a state (the flags of the roll before
    /// re-rolls are added by the caller).
    pub(crate) fn roll(&self, c: &State) -> Roll {
        Roll {
            hits: (0..self.k).filter(|&i| self.hits[i]).map(|i| c[i]).sum(),
            one: c[0] > 0,
            six: c[1] > 0,
            two: self.k == 5 && c[4] > 0,
            ..Roll::default()
        }
    }
}

/// `C(n + j − 1, j − 1)`: the states of `n` dice in `j` classes.
pub(super) fn states_of(n: u32, j: usize) -> usize {
    let n = n as usize;
    match j {
        1 => 1,
        2 => n + 1,
        3 => (n + 1) * (n + 2) / 2,
        4 => (n + 1) * (n + 2) * (n + 3) / 6,
        _ => (n + 1) * (n + 2) * (n + 3) / 6 * (n + 4) / 4,
    }
}

/// The states of `m` dice in `k` classes (4 or 5; counts summing to `m`),
/// densely ranked in lexicographic order.
#[derive(Clone, Debug)]
pub(super) struct Simplex {
    pub(super) m: u32,
    pub(super) k: usize,
    /// `first[c0]`: the rank of the first state with `c0` dice in class 0.
    pub(super) first: Vec<usize>,
    pub(super) len: usize,
}

impl Simplex {
    pub(super) fn new(m: u32, k: usize) -> Simplex {
        debug_assert!(k == 4 || k == CLASSES);
        let mut first = Vec::with_capacity(m as usize + 2);
        let mut acc = 0usize;
        for c0 in 0..=m {
            first.push(acc);
            acc += states_of(m - c0, k - 1);
        }
        Simplex {
            m,
            k,
            first,
            len: acc,
        }
    }

    /// The rank of a state: the states before it, class by class (those
    /// with the same earlier counts and fewer dice in the class), in closed
    /// form: `Σ_{v < c} S(n − v, j) = S(n, j + 1) − S(n − c, j + 1)`.
    #[inline]
    pub(super) fn rank(&self, c: &State) -> usize {
        if self.k == CLASSES {
            self.rank_k::<CLASSES>(c)
        } else {
            self.rank_k::<4>(c)
        }
    }

    /// [`Self::rank`] for `K` classes (the simplex's own).
    #[inline(always)]
    pub(super) fn rank_k<const K: usize>(&self, c: &State) -> usize {
        let mut r = self.first[c[0] as usize];
        let mut left = self.m - c[0];
        let mut i = 1;
        if K == CLASSES {
            r += states_of(left, 4) - states_of(left - c[1], 4);
            left -= c[1];
            i = 2;
        }
        r + states_of(left, 3) - states_of(left - c[i], 3) + c[i + 1] as usize
    }

    /// Every state, in rank order: listed once per process for each
    /// (dice, classes) and shared (a Lucky stage reads the lists of its
    /// simplices several times; a table's rows read the same ones).
    pub(super) fn states(&self) -> Arc<Vec<State>> {
        /// Most states kept in all (20 bytes each).
        static STATES: Kept<(u32, usize), Vec<State>> = Kept::new(1_000_000);
        STATES.get((self.m, self.k), || self.list(), Vec::len)
    }

    /// Every state, in rank order, listed.
    fn list(&self) -> Vec<State> {
        let m = self.m;
        let mut out = Vec::with_capacity(self.len);
        for c0 in 0..=m {
            for c1 in 0..=m - c0 {
                let l1 = m - c0 - c1;
                if self.k == CLASSES {
                    for c2 in 0..=l1 {
                        for c3 in 0..=l1 - c2 {
                            out.push([c0, c1, c2, c3, l1 - c2 - c3]);
                        }
                    }
                } else {
                    for c2 in 0..=l1 {
                        out.push([c0, c1, c2, l1 - c2, 0]);
                    }
                }
            }
        }
        debug_assert!(out.iter().enumerate().all(|(i, c)| self.rank(c) == i));
        out
    }
}

/// Every way `r` fresh dice fall into the classes, with its number of face
/// sequences (summing to `6^r`).
pub(super) fn outcomes(classes: &FaceClasses, r: u32) -> Vec<(State, Num)> {
    let counts = Counts::<Num>::new(r);
    let states = Simplex::new(r, classes.k).states();
    states
        .iter()
        .map(|&o| {
            let w = counts
                .multinomial(r, &o)
                .mul_ref(&counts.class_weight(&classes.faces, &o));
            (o, w)
        })
        .filter(|(_, w)| !w.is_zero())
        .collect()
}

/// The binomials and powers a roll of up to `n` dice needs, made once (by
/// additions and products, no division), so that each state's multinomial
/// and class weight are a few lookups and products: the states of 40 dice
/// took 40 divisions each before.
pub(super) struct Counts<W: Weight = Num> {
    /// `binom[m][k]` = C(m, k), for m up to n.
    pub(super) binom: Vec<Vec<W>>,
    /// `pow[f][k]` = f^k, for f up to 6 faces and k up to n.
    pub(super) pow: Vec<Vec<W>>,
}

impl<W: Weight> Counts<W> {
    pub(super) fn new(n: u32) -> Counts<W> {
        let n = n as usize;
        let mut binom: Vec<Vec<W>> = vec![vec![W::one()]];
        for m in 1..=n {
            let prev = &binom[m - 1];
            let mut row = Vec::with_capacity(m + 1);
            row.push(W::one());
            for k in 1..m {
                let mut v = prev[k - 1].clone();
                v.add_assign_ref(&prev[k]);
                row.push(v);
            }
            row.push(W::one());
            binom.push(row);
        }
        let pow = (0..=6u64)
            .map(|f| {
                let mut row = Vec::with_capacity(n + 1);
                let mut acc = W::one();
                for _ in 0..=n {
                    let next = acc.mul_u64(f);
                    row.push(acc);
                    acc = next;
                }
                row
            })
            .collect();
        Counts { binom, pow }
    }

    /// `m! / (c0! c1! ...)`, for `m` up to the dice counted.
    pub(super) fn multinomial(&self, m: u32, c: &State) -> W {
        let mut acc = W::one();
        let mut left = m as usize;
        for &k in &c[..CLASSES - 1] {
            let k = k as usize;
            if k == left {
                // C(left, left) = 1, and every later class is empty.
                break;
            }
            acc = acc.mul_ref(&self.binom[left][k]);
            left -= k;
        }
        acc
    }

    /// `Π faces_i ^ c_i`.
    pub(super) fn class_weight(&self, faces: &[u64; CLASSES], c: &State) -> W {
        let mut w = W::one();
        for (&f, &k) in faces.iter().zip(c) {
            if k > 0 {
                let p = match self.pow.get(f as usize) {
                    Some(row) => row[k as usize].clone(),
                    None => W::pow(f, k),
                };
                w = w.mul_ref(&p);
            }
        }
        w
    }
}
