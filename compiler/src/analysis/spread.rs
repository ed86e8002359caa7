//! Error spread: damage one unit of an encoded text, decode it lossily, and count
//! how many decoded values differ from the original text.
//!
//! ```
//! use placemat_compiler::analysis::{spread, Encoded, Mutation, Rng};
//! use placemat_compiler::LoadedCodec;
//! let codec = LoadedCodec::from_text(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF, layout: shortest,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let text: Vec<u32> = "ññññ".chars().map(u32::from).collect();
//! let e = Encoded::new(&codec, &text);
//! // Dropping any unit of a two-unit character damages that character only.
//! let hits = spread::error_spread(&codec, &e, Mutation::Drop, 50, 1000, &mut Rng::new(1));
//! assert!(hits.iter().all(|&h| h == 1));
//! ```
//!
//! # Method
//! A trial picks a unit uniformly at random (fixed seed) and drops it, flips one of
//! its bits (for alphabet units, one bit of the digit, so the unit stays in the
//! alphabet), or inserts a random unit before it. Decoding restarts at the start
//! of the damaged character (everything before decodes as before: a step never
//! looks past the sequence it reports) and follows the damaged stream until the
//! decoder ends a step exactly where an original sequence ends. The damaged stretch
//! of original values and the decoded stretch are then compared; values equal at
//! either end of the two stretches are not counted, so the count is
//! `max(original, decoded) − (common prefix + common suffix)`. A decoding that has
//! not realigned after `cap` values is counted as `cap`.

use placemat_codec::{DynCodec, Step, Strategy, Unit};

use super::size::Encoded;
use super::Rng;

/// A kind of damage to one unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// The unit is lost.
    Drop,
    /// One bit of the unit is inverted.
    Flip,
    /// A random unit is inserted before it.
    Insert,
}

impl Mutation {
    /// Every kind, in the order analyses store them.
    pub const ALL: [Mutation; 3] = [Mutation::Drop, Mutation::Flip, Mutation::Insert];

    /// The position of this kind in [`Mutation::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// `drop`, `flip` or `insert`.
    pub fn name(self) -> &'static str {
        match self {
            Mutation::Drop => "drop",
            Mutation::Flip => "flip",
            Mutation::Insert => "insert",
        }
    }
}

/// Summary statistics of a list of counts.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SpreadStats {
    /// How many samples.
    pub samples: usize,
    /// Their mean.
    pub mean: f64,
    /// The 99th percentile (nearest rank).
    pub p99: u32,
    /// The largest.
    pub max: u32,
}

impl SpreadStats {
    /// Statistics of `samples` (all zero if there are none).
    pub fn from_samples(samples: impl IntoIterator<Item = u32>) -> Self {
        let mut v: Vec<u32> = samples.into_iter().collect();
        if v.is_empty() {
            return SpreadStats { samples: 0, mean: 0.0, p99: 0, max: 0 };
        }
        v.sort_unstable();
        let n = v.len();
        let rank = (99 * n).div_ceil(100).max(1);
        let mean = v.iter().map(|&x| f64::from(x)).sum::<f64>() / n as f64;
        SpreadStats { samples: n, mean, p99: v[rank - 1], max: v[n - 1] }
    }
}

/// The unit replacing `unit` when bit `bit` of its digit is flipped.
fn flipped(unit_kind: &Unit, digits: &[u8; 256], unit: u8, bit: usize) -> u8 {
    match unit_kind {
        Unit::Byte => unit ^ (1 << (bit % 8)),
        Unit::Alphabet(a) => {
            let width = a.len().trailing_zeros() as usize;
            a[(digits[unit as usize] ^ (1 << (bit % width))) as usize % a.len()]
        }
    }
}

/// A random unit of the codec's kind.
fn random_unit(unit_kind: &Unit, rng: &mut Rng) -> u8 {
    match unit_kind {
        Unit::Byte => rng.below(256) as u8,
        Unit::Alphabet(a) => a[rng.below(a.len())],
    }
}

/// Runs `trials` trials of `mutation` on `encoded`, returning the number of damaged
/// values of each.
pub fn error_spread(
    codec: &dyn DynCodec,
    encoded: &Encoded,
    mutation: Mutation,
    trials: usize,
    cap: usize,
    rng: &mut Rng,
) -> Vec<u32> {
    let n = encoded.units.len();
    if n == 0 {
        return Vec::new();
    }
    let unit_kind = &codec.info().unit;
    let digits = *codec.dfa().digits();
    (0..trials)
        .map(|_| {
            let at = rng.below(n);
            let damage = match mutation {
                Mutation::Drop => Damage::Drop,
                Mutation::Flip => Damage::Replace(flipped(unit_kind, &digits, encoded.units[at], rng.below(8))),
                Mutation::Insert => Damage::Insert(random_unit(unit_kind, rng)),
            };
            damaged_values(codec, encoded, at, damage, cap)
        })
        .collect()
}

/// What happens to the unit at the damaged offset.
#[derive(Copy, Clone)]
enum Damage {
    Drop,
    Replace(u8),
    Insert(u8),
}

/// The damaged text for original offsets `start..end`, damaged at `at`.
fn damaged(encoded: &Encoded, start: usize, end: usize, at: usize, damage: Damage) -> Vec<u8> {
    let mut w = encoded.units[start..end].to_vec();
    let rel = at - start;
    match damage {
        Damage::Drop => {
            w.remove(rel);
        }
        Damage::Replace(u) => w[rel] = u,
        Damage::Insert(u) => w.insert(rel, u),
    }
    w
}

/// Decodes the text damaged at `at` from the start of the damaged character until
/// the decoder is back on an original boundary past the damage, and counts the
/// values that differ. The damaged text is materialized a window at a time.
fn damaged_values(codec: &dyn DynCodec, encoded: &Encoded, at: usize, damage: Damage, cap: usize) -> u32 {
    let n = encoded.units.len();
    // With code units of several bytes, every sequence, valid or not, is whole
    // units long: after a byte dropped or inserted the decoder's boundaries all
    // sit off the original ones until the text ends. When the rest of the text
    // holds more than `cap` of the longest sequences, the count is the cap.
    let longest = codec.info().max_units.unwrap_or(usize::MAX);
    let misaligned = codec.dfa().facts().unit_bytes > 1 && !matches!(damage, Damage::Replace(_));
    if misaligned && (n - at) / longest > cap {
        return cap.min(u32::MAX as usize) as u32;
    }
    let start = encoded.starts[encoded.value_at(at)];
    // Damaged offsets from `damage_end` on are original offsets minus `shift`.
    let (damage_end, shift) = match damage {
        Damage::Drop => (at - start, 1isize),
        Damage::Replace(_) => (at - start + 1, 0),
        Damage::Insert(_) => (at - start + 1, -1),
    };
    let mut end = n.min(at + 256);
    let mut window = damaged(encoded, start, end, at, damage);
    let mut decoded: Vec<u64> = Vec::new();
    // The context of the codec's rules across values (0 after an error).
    let (mut pos, mut context) = (0, 0);
    let original_end = loop {
        if pos >= damage_end {
            let original = start + pos.checked_add_signed(shift).expect("offsets past the damage map back");
            if encoded.is_boundary(original) {
                break original;
            }
        }
        if decoded.len() >= cap {
            return cap.min(u32::MAX as usize) as u32;
        }
        match codec.step_in(Strategy::Table, context, &window[pos..]) {
            Step::Value { value, len } => {
                context = codec.context_after(value);
                decoded.push(value);
                pos += len;
            }
            Step::Invalid { len } => {
                (context, pos) = (0, pos + len);
                decoded.push(0xFFFD);
            }
            Step::Incomplete if end < n => {
                end = n.min(end + 2 * (end - start));
                window = damaged(encoded, start, end, at, damage);
            }
            Step::Incomplete => {
                decoded.push(0xFFFD);
                pos = window.len();
            }
        }
    };
    let first = encoded.value_at(start);
    let last = if original_end == n { encoded.values.len() } else { encoded.value_at(original_end) };
    let original = &encoded.values[first..last];
    let common = original.len().min(decoded.len());
    let prefix = original.iter().zip(&decoded).take_while(|(a, b)| a == b).count();
    let suffix =
        original.iter().rev().zip(decoded.iter().rev()).take(common - prefix).take_while(|(a, b)| a == b).count();
    (original.len().max(decoded.len()) - prefix - suffix) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LoadedCodec;

    #[test]
    fn stats_use_nearest_rank() {
        let s = SpreadStats::from_samples((1..=200).rev());
        assert_eq!((s.samples, s.p99, s.max), (200, 198, 200));
        assert_eq!(s.mean, 100.5);
        assert_eq!(SpreadStats::from_samples([]).samples, 0);
    }

    #[test]
    fn a_continuation_bit_code_without_sync_spreads_further() {
        // Any unit with the high bit set continues: after a dropped unit, a run of
        // high units is read with the wrong phase until a low unit comes.
        let loose = LoadedCodec::from_text(
            r#"pub L { name: "loose", value: u32, range: 0 ..= 0x3FFF, layout: biased,
                      forms: { "0xxxxxxx", "1xxxxxxx 1xxxxxxx" } }"#,
        )
        .unwrap();
        let text: Vec<u32> = (0..400).map(|i| 0x100 + i).collect();
        let e = Encoded::new(&loose, &text);
        let hits = error_spread(&loose, &e, Mutation::Drop, 100, 10_000, &mut Rng::new(3));
        // Every value is two high units: one lost unit shifts the phase to the end.
        assert!(hits.iter().all(|&h| h > 1));
        assert!(hits.iter().any(|&h| h > 100));
        // With an ASCII value every 3 characters, the damage stops there.
        let text: Vec<u32> = (0..400).map(|i| if i % 3 == 2 { 0x20 } else { 0x100 + i }).collect();
        let e = Encoded::new(&loose, &text);
        let hits = error_spread(&loose, &e, Mutation::Drop, 100, 10_000, &mut Rng::new(3));
        assert!(hits.iter().all(|&h| h <= 3), "{hits:?}");
    }

    #[test]
    fn flips_and_inserts_stay_in_the_alphabet() {
        let alphabet: Vec<u8> = b" abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_".to_vec();
        let kind = Unit::Alphabet(alphabet.clone().into());
        let mut digits = [0u8; 256];
        for (i, &b) in alphabet.iter().enumerate() {
            digits[b as usize] = i as u8;
        }
        assert_eq!(flipped(&kind, &digits, b'a', 5), b'A');
        assert_eq!(flipped(&kind, &digits, b'a', 0), b' ');
        let mut rng = Rng::new(9);
        assert!((0..100).all(|_| alphabet.contains(&random_unit(&kind, &mut rng))));
        assert_eq!(flipped(&Unit::Byte, &digits, 0x41, 7), 0xC1);
    }
}
