//! Attack dice and dice of damage.
//!
//! An attack roll matters to the rules only through three numbers: how many
//! dice hit, whether any die shows a natural 1 (Parry) and whether any shows a
//! natural 6 (Critical Hit). Fury adds one more: whether the first roll shows
//! a natural 4. The joint law of these has a closed form: the number of face
//! sequences of `n` dice with exactly `h` hits using only a set of allowed
//! faces is `C(n, h) a^h b^(n-h)` (with `a` hitting and `b` missing faces
//! allowed), and inclusion–exclusion over which of the marked faces are
//! present gives the exact counts. All counts are over `6^n`.

use crate::dist::{Dist, Joint, Weight};
use crate::kept::Kept;
use std::any::{Any, TypeId};

/// The natural face an attack die needs to hit: 4 (5 against Armor) minus
/// Accuracy. May be below 1 (every face hits) or above 6 (nothing hits).
pub(crate) fn hit_threshold(accuracy: i32, armor: bool) -> i32 {
    let base = if armor { 5 } else { 4 };
    base - accuracy
}

/// What the rules read from one attack roll (after re-rolls).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Roll {
    /// Dice whose modified value hits.
    pub hits: u32,
    /// At least one natural 1 (triggers Parry).
    pub one: bool,
    /// At least one natural 6 (triggers Critical Hit).
    pub six: bool,
    /// At least one natural 2 (triggers Riposte); tracked only when asked
    /// (`Track`).
    pub two: bool,
    /// At least one natural 3 in the roll before re-rolls (triggers
    /// Backfire); tracked only when asked.
    pub three: bool,
    /// At least one natural 5 in the roll before re-rolls (triggers Focus);
    /// tracked only when asked.
    pub five: bool,
}

/// Which more natural faces a roll law tracks (each doubles its size).
/// Without re-rolls the roll before and after re-rolls is the same, so
/// `three` and `five` read the same faces as `two`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Track {
    /// Natural 2s (Riposte).
    pub two: bool,
    /// Natural 3s (Backfire).
    pub three: bool,
    /// Natural 5s (Focus).
    pub five: bool,
}

/// Binomial coefficients `C(n, 0..=n)` as weights.
fn binomial_row<W: Weight>(n: u32) -> Vec<W> {
    let mut row = Vec::with_capacity(n as usize + 1);
    let mut c = W::one();
    for k in 0..=n as u64 {
        row.push(c.clone());
        // C(n, k+1) = C(n, k) (n − k) / (k + 1), exactly.
        c = c.mul_u64(n as u64 - k).div_exact(&W::from_u64(k + 1));
    }
    row
}

/// Powers `b^0..=b^n` of a small base.
fn powers<W: Weight>(b: u64, n: u32) -> Vec<W> {
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut acc = W::one();
    out.push(acc.clone());
    for _ in 0..n {
        acc = acc.mul_u64(b);
        out.push(acc.clone());
    }
    out
}

/// Zeta-domain counts of face sequences of `n` dice: `zeta[hits * 2^marks +
/// T]` is the number of sequences with `hits` hits whose marked faces all
/// lie in the set `T` (bit mask), `C(n, hits) a^hits b^(n-hits)` with `a`
/// hitting and `b` missing faces allowed. `mark[f - 1]` is the bit of face
/// `f` (0 for an unmarked face); every mark is a single bit below
/// `1 << marks`.
fn face_zeta<W: Weight>(n: u32, threshold: i32, mark: [u8; 6], marks: u32) -> Vec<W> {
    let subsets = 1usize << marks;
    let binom = binomial_row::<W>(n);
    // For each allowed set T: (#hitting faces, #missing faces) allowed.
    let ab: Vec<(u64, u64)> = (0..subsets)
        .map(|t| {
            let mut a = 0;
            let mut b = 0;
            for (i, &m) in mark.iter().enumerate() {
                if m as usize & !t == 0 {
                    if (i as i32 + 1) >= threshold {
                        a += 1;
                    } else {
                        b += 1;
                    }
                }
            }
            (a, b)
        })
        .collect();
    // Powers of the bases that occur.
    let mut pows: Vec<Vec<W>> = vec![Vec::new(); 7];
    for &(a, b) in &ab {
        for base in [a, b] {
            if pows[base as usize].is_empty() {
                pows[base as usize] = powers::<W>(base, n);
            }
        }
    }
    let mut zeta = vec![W::zero(); subsets * (n as usize + 1)];
    for (h, row) in zeta.chunks_mut(subsets).enumerate() {
        for (t, cell) in row.iter_mut().enumerate() {
            let (a, b) = ab[t];
            *cell = binom[h]
                .mul_ref(&pows[a as usize][h])
                .mul_ref(&pows[b as usize][n as usize - h]);
        }
    }
    zeta
}

/// Möbius inversion over the subsets, row by row (rows of `2^marks`): from
/// "marked faces within T" to "exactly the marked faces M present". After
/// each bit every cell still counts sequences, so unsigned subtraction never
/// goes below zero.
fn mobius<W: Weight>(counts: &mut [W], marks: u32) {
    let subsets = 1usize << marks;
    for row in counts.chunks_mut(subsets) {
        for bit in 0..marks {
            let b = 1usize << bit;
            for m in 0..subsets {
                if m & b != 0 {
                    let (lo, hi) = row.split_at_mut(m);
                    hi[0].sub_assign_ref(&lo[m ^ b]);
                }
            }
        }
    }
}

const ONE: u8 = 1;
const SIX: u8 = 2;
const FOUR: u8 = 4;

/// The joint law of [`Roll`] for `dice` attack dice with the given Accuracy,
/// against Armor or not, with Fury `fury` (if the first roll shows a natural
/// 4, `fury` more dice are rolled, once). The denominator is `6^(dice+fury)`.
/// (The common case, with the two marks of Parry and Critical Hit fixed:
/// [`attack_roll_tracking`] is its general form.)
pub(crate) fn attack_roll<W: Weight>(
    dice: u32,
    accuracy: i32,
    armor: bool,
    fury: u32,
) -> Joint<Roll, W> {
    let t = hit_threshold(accuracy, armor);
    // Zeta domain over the marks (ONE, SIX): cell [hits * 4 + T] counts the
    // sequences whose natural 1s and 6s are allowed by T.
    let mut zeta = if fury == 0 {
        face_zeta::<W>(dice, t, [ONE, 0, 0, 0, 0, SIX], 2)
    } else {
        // First roll with FOUR marked; Fury's dice join the sequences that
        // show a 4. In the zeta domain, the OR of the marks of two
        // independent rolls is a plain product, so only the hits convolve.
        let first = face_zeta::<W>(dice, t, [ONE, 0, 0, FOUR, 0, SIX], 3);
        let extra = face_zeta::<W>(fury, t, [ONE, 0, 0, 0, 0, SIX], 2);
        let no_fury_scale = W::pow(6, fury);
        let mut z = vec![W::zero(); 4 * (dice + fury + 1) as usize];
        for h in 0..=dice as usize {
            for m in 0..4usize {
                let without_four = &first[8 * h + m];
                let mut with_four = first[8 * h + (m | FOUR as usize)].clone();
                with_four.sub_assign_ref(without_four);
                z[4 * h + m].add_assign_ref(&without_four.mul_ref(&no_fury_scale));
                if with_four.is_zero() {
                    continue;
                }
                for h2 in 0..=fury as usize {
                    z[4 * (h + h2) + m].add_assign_ref(&with_four.mul_ref(&extra[4 * h2 + m]));
                }
            }
        }
        z
    };
    mobius(&mut zeta, 2);
    // Mask bit 0 is ONE and bit 1 is SIX; `Roll` orders (hits, one, six).
    let entries = (0..zeta.len())
        .map(|i| {
            let (h, one, six) = (i / 4, (i >> 1) & 1, i & 1);
            let r = Roll {
                hits: h as u32,
                one: one == 1,
                six: six == 1,
                ..Roll::default()
            };
            (r, zeta[4 * h + one + 2 * six].clone())
        })
        .collect();
    Joint::from_sorted(entries, W::pow(6, dice + fury))
}

/// The arguments of [`attack_roll_tracking`]: a roll law's key.
type RollKey = (u32, i32, bool, u32, Track);

/// Most law entries the process keeps in [`recent_roll`].
const RECENT_ENTRIES: usize = 1 << 15;

/// The roll laws made last, by key and weight type.
static RECENT: Kept<(RollKey, TypeId), Box<dyn Any + Send + Sync>> = Kept::new(RECENT_ENTRIES);

/// [`attack_roll_tracking`], remembered: the process keeps the laws it made
/// last (up to [`RECENT_ENTRIES`] entries in all, the oldest dropped
/// first), so that the attacks of a sweep, of a table solved attack by
/// attack, or of a pool of cards, which roll the same dice again and again,
/// make each law once. The law is a function of its arguments alone, so a
/// law remembered is the law made.
pub(crate) fn recent_roll<W: Weight>(key: RollKey) -> Joint<Roll, W> {
    let (dice, accuracy, armor, fury, track) = key;
    let make = || attack_roll_tracking::<W>(dice, accuracy, armor, fury, track);
    let law = RECENT.get(
        (key, TypeId::of::<W>()),
        || Box::new(make()),
        |law| law.downcast_ref::<Joint<Roll, W>>().map_or(0, Joint::len),
    );
    // The key holds the weight type, so the law is of it.
    match law.downcast_ref::<Joint<Roll, W>>() {
        Some(law) => law.clone(),
        None => make(),
    }
}

/// [`attack_roll`], also tracking the natural faces `track` asks for.
pub(crate) fn attack_roll_tracking<W: Weight>(
    dice: u32,
    accuracy: i32,
    armor: bool,
    fury: u32,
    track: Track,
) -> Joint<Roll, W> {
    if track == Track::default() {
        return attack_roll(dice, accuracy, armor, fury);
    }
    let t = hit_threshold(accuracy, armor);
    // Marks: bit 0 natural 1, bit 1 natural 6, then each tracked face; the
    // Fury 4 last (the first roll only).
    let mut faces: Vec<usize> = vec![1, 6];
    for (on, f) in [(track.two, 2), (track.three, 3), (track.five, 5)] {
        if on {
            faces.push(f);
        }
    }
    let marks = faces.len() as u32;
    let subsets = 1usize << marks;
    let mut mark = [0u8; 6];
    for (i, &f) in faces.iter().enumerate() {
        mark[f - 1] = 1 << i;
    }
    // Zeta domain over the marks: cell [hits * subsets + T] counts the
    // sequences whose marked faces are all allowed by T.
    let mut zeta = if fury == 0 {
        face_zeta::<W>(dice, t, mark, marks)
    } else {
        // First roll with the 4 marked too; Fury's dice join the sequences
        // that show a 4. In the zeta domain, the OR of the marks of two
        // independent rolls is a plain product, so only the hits convolve.
        let four = 1u8 << marks;
        let mut first_mark = mark;
        first_mark[3] |= four;
        let first = face_zeta::<W>(dice, t, first_mark, marks + 1);
        let extra = face_zeta::<W>(fury, t, mark, marks);
        let no_fury_scale = W::pow(6, fury);
        let mut z = vec![W::zero(); subsets * (dice + fury + 1) as usize];
        for h in 0..=dice as usize {
            for m in 0..subsets {
                let without_four = &first[2 * subsets * h + m];
                let mut with_four = first[2 * subsets * h + (m | four as usize)].clone();
                with_four.sub_assign_ref(without_four);
                z[subsets * h + m].add_assign_ref(&without_four.mul_ref(&no_fury_scale));
                if with_four.is_zero() {
                    continue;
                }
                for h2 in 0..=fury as usize {
                    z[subsets * (h + h2) + m]
                        .add_assign_ref(&with_four.mul_ref(&extra[subsets * h2 + m]));
                }
            }
        }
        z
    };
    mobius(&mut zeta, marks);
    let has = |m: usize, face: usize| {
        faces
            .iter()
            .position(|&f| f == face)
            .is_some_and(|i| m & (1 << i) != 0)
    };
    let pairs = zeta.into_iter().enumerate().map(|(i, w)| {
        let (h, m) = (i / subsets, i % subsets);
        let r = Roll {
            hits: h as u32,
            one: has(m, 1),
            six: has(m, 6),
            two: has(m, 2),
            three: has(m, 3),
            five: has(m, 5),
        };
        (r, w)
    });
    Joint::from_pairs(pairs, W::pow(6, dice + fury))
}

/// The number of hits of `dice` dice of damage (Retaliate and similar): each
/// hits on a natural 4+, or 5+ against Armor; nothing modifies them.
pub(crate) fn damage_dice<W: Weight>(dice: u32, armor: bool) -> Dist<W> {
    let a = if armor { 2 } else { 3 };
    let b = 6 - a;
    let binom = binomial_row::<W>(dice);
    let pa = powers::<W>(a, dice);
    let pb = powers::<W>(b, dice);
    let weights = (0..=dice as usize)
        .map(|h| binom[h].mul_ref(&pa[h]).mul_ref(&pb[dice as usize - h]))
        .collect();
    Dist::from_weights(0, weights, W::pow(6, dice))
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_dice_hitting_on_four() {
        use super::{Roll, attack_roll};
        // Two dice, hitting on 4+: P(2 hits, a natural 6 present, no natural 1).
        let roll = attack_roll::<u128>(2, 0, false, 0);
        let p = roll.prob(|r| {
            *r == Roll {
                hits: 2,
                one: false,
                six: true,
                ..Roll::default()
            }
        });
        assert_eq!(p.to_string(), "5/36"); // 4-6, 5-6, 6-4, 6-5, 6-6
    }

    #[test]
    fn a_tracked_two() {
        use super::{Track, attack_roll_tracking};
        let t = Track {
            two: true,
            ..Track::default()
        };
        let roll = attack_roll_tracking::<u128>(1, 0, false, 0, t);
        assert_eq!(roll.prob(|r| r.two).to_string(), "1/6");
    }

    use super::*;
    use num_bigint::BigUint;

    /// A remembered roll law is the law made afresh: keys asked in a
    /// random order with repeats, in two weight types, with laws large
    /// enough that older ones are dropped and made again; no more than the
    /// bound is kept.
    #[test]
    fn recent_rolls_are_the_laws_made_afresh() {
        let mut next = crate::dist::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut rand = |n: u64| next() % n;
        let mut dropped = false;
        for _ in 0..400 {
            let dice = if rand(4) == 0 {
                100 + rand(200)
            } else {
                rand(12)
            } as u32;
            let track = Track {
                two: rand(2) == 0,
                three: rand(3) == 0,
                five: false,
            };
            let key = (
                dice,
                rand(5) as i32 - 2,
                rand(2) == 0,
                rand(3) as u32,
                track,
            );
            let (d, a, ar, f, t) = key;
            // u128 holds 6^n for n up to 49 (the sums of the law too).
            if dice <= 40 && rand(2) == 0 {
                assert_eq!(
                    recent_roll::<u128>(key),
                    attack_roll_tracking::<u128>(d, a, ar, f, t),
                    "{key:?}"
                );
            } else {
                assert_eq!(
                    recent_roll::<BigUint>(key),
                    attack_roll_tracking::<BigUint>(d, a, ar, f, t),
                    "{key:?}"
                );
            }
            let (sizes, total) = RECENT.sizes();
            assert_eq!(sizes.iter().sum::<usize>(), total);
            assert!(total <= RECENT_ENTRIES);
            dropped |= total + 5000 > RECENT_ENTRIES;
        }
        assert!(
            dropped,
            "no law was ever dropped: the bound was not reached"
        );
    }

    #[test]
    fn counts_sum_and_match_small_enumeration() {
        for n in 0..4u32 {
            for acc in -3..=3 {
                for armor in [false, true] {
                    let j = attack_roll::<u128>(n, acc, armor, 0);
                    assert!(j.sums_to_one());
                    // Direct enumeration.
                    let t = hit_threshold(acc, armor);
                    let mut pairs = Vec::new();
                    for code in 0..6u32.pow(n) {
                        let mut c = code;
                        let mut r = Roll::default();
                        for _ in 0..n {
                            let f = (c % 6 + 1) as i32;
                            c /= 6;
                            r.hits += (f >= t) as u32;
                            r.one |= f == 1;
                            r.six |= f == 6;
                        }
                        pairs.push((r, 1u128));
                    }
                    assert_eq!(j, Joint::from_pairs(pairs, 6u128.pow(n)));
                }
            }
        }
    }

    #[test]
    fn fury_matches_small_enumeration() {
        let seq = |n: u32| -> Vec<Vec<i32>> {
            (0..6u32.pow(n))
                .map(|mut c| {
                    (0..n)
                        .map(|_| {
                            let f = (c % 6 + 1) as i32;
                            c /= 6;
                            f
                        })
                        .collect()
                })
                .collect()
        };
        for (n, fury, acc) in
            (0..=3u32).flat_map(|n| (1..=2u32).flat_map(move |f| (-2..=3).map(move |a| (n, f, a))))
        {
            let t = hit_threshold(acc, false);
            let roll = |faces: &[i32]| Roll {
                hits: faces.iter().filter(|&&f| f >= t).count() as u32,
                one: faces.contains(&1),
                six: faces.contains(&6),
                ..Roll::default()
            };
            let mut pairs = Vec::new();
            for first in seq(n) {
                if first.contains(&4) {
                    for extra in seq(fury) {
                        let all: Vec<i32> = first.iter().chain(&extra).copied().collect();
                        pairs.push((roll(&all), 1u128));
                    }
                } else {
                    pairs.push((roll(&first), 6u128.pow(fury)));
                }
            }
            let want = Joint::from_pairs(pairs, 6u128.pow(n + fury));
            assert_eq!(
                attack_roll::<u128>(n, acc, false, fury),
                want,
                "n={n} fury={fury} acc={acc}"
            );
        }
    }

    #[test]
    fn tracked_faces_match_small_enumeration() {
        let all = Track {
            two: true,
            three: true,
            five: true,
        };
        for (n, fury, acc) in (0..=3u32)
            .flat_map(|n| (0..=1u32).flat_map(move |f| [-1, 0, 2].map(move |a| (n, f, a))))
        {
            let t = hit_threshold(acc, true);
            let mut pairs = Vec::new();
            for code in 0..6u32.pow(n + fury) {
                let faces: Vec<i32> = (0..n + fury)
                    .map(|k| (code / 6u32.pow(k) % 6 + 1) as i32)
                    .collect();
                let (first, extra) = faces.split_at(n as usize);
                let all_faces: Vec<i32> = if first.contains(&4) {
                    faces.clone()
                } else {
                    first.to_vec()
                };
                let w = if first.contains(&4) || fury == 0 {
                    1u128
                } else if extra.iter().all(|&f| f == 1) {
                    // One representative of the unrolled Fury dice.
                    6u128.pow(fury)
                } else {
                    continue;
                };
                let r = Roll {
                    hits: all_faces.iter().filter(|&&f| f >= t).count() as u32,
                    one: all_faces.contains(&1),
                    six: all_faces.contains(&6),
                    two: all_faces.contains(&2),
                    three: all_faces.contains(&3),
                    five: all_faces.contains(&5),
                };
                pairs.push((r, w));
            }
            let want = Joint::from_pairs(pairs, 6u128.pow(n + fury));
            assert_eq!(
                attack_roll_tracking::<u128>(n, acc, true, fury, all),
                want,
                "n={n} fury={fury} acc={acc}"
            );
        }
    }

    #[test]
    fn big_weights_agree() {
        let s = attack_roll::<u128>(7, 1, true, 2);
        let b = attack_roll::<BigUint>(7, 1, true, 2);
        assert_eq!(s.to_big(), b);
        assert_eq!(
            damage_dice::<u128>(5, true).to_big(),
            damage_dice::<BigUint>(5, true)
        );
    }
}
