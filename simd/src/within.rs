//! The run of units at the start of a slice that lie in a range of unit
//! values: how the conversion engine skips text that holds no lead two codecs
//! read apart, and how a decoder into UTF-8 proves ASCII text is its own
//! `str` in one pass.
//!
//! With AVX2 a step takes 128 units: four loads, four subtractions of the
//! range's low end, the greatest difference, and one unsigned comparison
//! with the range's width. Elsewhere the same step is two reductions over
//! 128 units, which the compiler vectorises for the target.
//!
//! A set of units that no range covers well (modified UTF-8's leads read
//! apart from UTF-8's: `00`, `C0`, `ED`, `F0`–`F4`, which leave Cyrillic's
//! and Chinese leads out of the widest range between them) is a
//! [`UnitSet`]: each unit's row (its high four bits) and column (its low
//! four) look up a byte of bits each, one per distinct row of the set, and
//! the unit is in the set where the two share a bit. With AVX2 a step of 32
//! units is two shuffles and an `and`; elsewhere, and for a set of more
//! than eight distinct rows, the set is looked up unit by unit.
//!
//! ```
//! use placemat_simd::{ascii_within, units_within, Isa};
//! let text = "plain ASCII, then café".as_bytes();
//! assert_eq!(units_within(Isa::detect(), text, 0x00, 0x7F), 21);
//! assert_eq!(units_within(Isa::detect(), text, 0x00, 0xFF), text.len());
//! // No zero unit, all ASCII: the input is its own text.
//! assert_eq!(ascii_within(Isa::detect(), b"no zero here", 0x01, 0x7F), Ok("no zero here"));
//! assert_eq!(ascii_within(Isa::detect(), b"a\0b", 0x01, 0x7F), Err(1));
//! // The units before the first of a set.
//! let set = placemat_simd::UnitSet::of(&[0x00, 0xC0, 0xED, 0xF0, 0xF4]);
//! assert_eq!(placemat_simd::units_outside(Isa::detect(), "дом\0".as_bytes(), &set), 6);
//! ```

use crate::Isa;

/// Units a step looks at.
const STEP: usize = 128;

/// The number of units at the start of `units` that lie in `low..=high`.
/// `isa` picks the kernel (`None`: the portable step).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn units_within(isa: Option<Isa>, units: &[u8], low: u8, high: u8) -> usize {
    if let Some(isa) = isa {
        assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    }
    if low > high {
        return 0;
    }
    let skipped = match isa {
        Some(Isa::Avx2 | Isa::Avx512) => avx2_steps(units, low, high),
        _ => 0,
    };
    skipped + portable(&units[skipped..], low, high)
}

/// A set of unit values, with the lookup tables of its rows and columns
/// where it has at most eight distinct rows (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitSet {
    /// Unit `u` is bit `u % 64` of word `u / 64`.
    bits: [u64; 4],
    /// For each row (high four bits), the bit of its columns' pattern; for
    /// each column (low four bits), the bits of the patterns that hold it.
    nibbles: Option<([u8; 16], [u8; 16])>,
}

impl UnitSet {
    /// The set whose unit `u` is bit `u % 64` of word `u / 64`.
    pub fn new(bits: [u64; 4]) -> UnitSet {
        let row = |h: usize| (bits[h / 4] >> (16 * (h % 4))) as u16;
        // The distinct rows that hold units, each the columns it holds.
        let (mut distinct, mut count) = ([0u16; 16], 0);
        for p in (0..16).map(row).filter(|&p| p != 0) {
            if !distinct[..count].contains(&p) {
                (distinct[count], count) = (p, count + 1);
            }
        }
        let patterns = &distinct[..count];
        let nibbles = (count <= 8).then(|| {
            let bit = |p: u16| patterns.iter().position(|&q| q == p).map_or(0, |k| 1u8 << k);
            let rows = core::array::from_fn(|h| bit(row(h)));
            let columns = core::array::from_fn(|l| {
                patterns.iter().enumerate().filter(|(_, &p)| p >> l & 1 == 1).fold(0u8, |b, (k, _)| b | 1 << k)
            });
            (rows, columns)
        });
        UnitSet { bits, nibbles }
    }

    /// The set of `units`.
    pub fn of(units: &[u8]) -> UnitSet {
        let mut bits = [0u64; 4];
        units.iter().for_each(|&u| bits[usize::from(u / 64)] |= 1 << (u % 64));
        UnitSet::new(bits)
    }

    /// Whether `unit` is in the set.
    #[inline]
    pub fn contains(&self, unit: u8) -> bool {
        self.bits[usize::from(unit / 64)] >> (unit % 64) & 1 == 1
    }

    /// Whether [`units_outside`] looks this set up a vector at a time with
    /// `isa` (AVX2 or AVX-512, and at most eight distinct rows), rather than
    /// unit by unit.
    pub fn vector_scan(&self, isa: Option<Isa>) -> bool {
        matches!(isa, Some(Isa::Avx2 | Isa::Avx512)) && self.nibbles.is_some()
    }
}

/// The number of units at the start of `units` that are not in `set`.
/// `isa` picks the kernel (`None`: the portable lookup).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn units_outside(isa: Option<Isa>, units: &[u8], set: &UnitSet) -> usize {
    if let Some(isa) = isa {
        assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    }
    let skipped = match &set.nibbles {
        Some(tables) if set.vector_scan(isa) => avx2_outside(units, tables),
        _ => 0,
    };
    skipped + units[skipped..].iter().position(|&u| set.contains(u)).unwrap_or(units.len() - skipped)
}

/// `units` as text when every unit lies in `low..=high` and `high` is below
/// `80` (ASCII, whose every unit is a character of UTF-8); else the index of
/// the first unit outside (0 for a range that reaches past `7F`).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn ascii_within(isa: Option<Isa>, units: &[u8], low: u8, high: u8) -> Result<&str, usize> {
    if high >= 0x80 {
        return Err(0);
    }
    match units_within(isa, units, low, high) {
        n if n == units.len() => {
            // SAFETY: every unit is below 0x80: one-byte characters of UTF-8.
            Ok(unsafe { core::str::from_utf8_unchecked(units) })
        }
        n => Err(n),
    }
}

/// The portable step: whole steps of [`STEP`] units while their least and
/// greatest lie in the range, then unit by unit.
fn portable(units: &[u8], low: u8, high: u8) -> usize {
    let mut n = 0;
    for step in units.chunks_exact(STEP) {
        let least = step.iter().fold(u8::MAX, |m, &u| m.min(u));
        let greatest = step.iter().fold(0, |m, &u| m.max(u));
        if least < low || greatest > high {
            break;
        }
        n += STEP;
    }
    n + units[n..].iter().position(|&u| u < low || u > high).unwrap_or(units.len() - n)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn avx2_steps(units: &[u8], low: u8, high: u8) -> usize {
    // SAFETY: `units_within` checked that the machine has the caller's
    // `isa`, AVX2 or AVX-512 (which `Isa::all` lists only with AVX2); the
    // kernel reads within `units`.
    unsafe { avx2::steps(units, low, high) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn avx2_steps(_: &[u8], _: u8, _: u8) -> usize {
    0
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn avx2_outside(units: &[u8], tables: &([u8; 16], [u8; 16])) -> usize {
    // SAFETY: `units_outside` checked that the machine has the caller's
    // `isa`, AVX2 or AVX-512 (which `Isa::all` lists only with AVX2); the
    // kernel reads within `units`.
    unsafe { avx2::outside(units, tables) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn avx2_outside(_: &[u8], _: &([u8; 16], [u8; 16])) -> usize {
    0
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx2 {
    use core::arch::x86_64::*;

    use super::STEP;

    /// Whole steps of [`STEP`] units at the start of `units` that lie in
    /// `low..=high`.
    ///
    /// # Safety
    /// The machine must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn steps(units: &[u8], low: u8, high: u8) -> usize {
        let (low, wide) = (_mm256_set1_epi8(low as i8), _mm256_set1_epi8(high.wrapping_sub(low) as i8));
        let mut n = 0;
        while let Some(step) = units.get(n..n + STEP) {
            let p = step.as_ptr();
            // SAFETY: `step` is STEP = 4 × 32 readable bytes.
            let [a, b, c, d] = [0, 32, 64, 96].map(|k| unsafe { _mm256_loadu_si256(p.add(k).cast()) });
            let off = |v: __m256i| _mm256_sub_epi8(v, low);
            let most = _mm256_max_epu8(_mm256_max_epu8(off(a), off(b)), _mm256_max_epu8(off(c), off(d)));
            // Every lane's offset is at most the width: min(most, wide) == most.
            if _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(most, wide), most)) != -1 {
                break;
            }
            n += STEP;
        }
        n
    }

    /// The units at the start of `units`, in whole steps of 32 and then up
    /// to the first unit of the set where a step holds one, that are not in
    /// the set of the row and column `tables` ([`super::UnitSet`]).
    ///
    /// # Safety
    /// The machine must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn outside(units: &[u8], (rows, columns): &([u8; 16], [u8; 16])) -> usize {
        // SAFETY: each table is 16 readable bytes.
        let [rows, columns] = [rows, columns].map(|t| unsafe { _mm_loadu_si128(t.as_ptr().cast()) });
        let (rows, columns) = (_mm256_broadcastsi128_si256(rows), _mm256_broadcastsi128_si256(columns));
        let low = _mm256_set1_epi8(0x0F);
        let mut n = 0;
        while let Some(step) = units.get(n..n + 32) {
            // SAFETY: `step` is 32 readable bytes.
            let v = unsafe { _mm256_loadu_si256(step.as_ptr().cast()) };
            let row = _mm256_shuffle_epi8(rows, _mm256_and_si256(_mm256_srli_epi16::<4>(v), low));
            let column = _mm256_shuffle_epi8(columns, _mm256_and_si256(v, low));
            let apart = _mm256_cmpeq_epi8(_mm256_and_si256(row, column), _mm256_setzero_si256());
            let inside = !(_mm256_movemask_epi8(apart) as u32);
            if inside != 0 {
                return n + inside.trailing_zeros() as usize;
            }
            n += 32;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_finds_the_first_unit_of_a_set() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Modified UTF-8's leads apart, one unit, none, and random sets of
        // few units and of many (more than eight distinct rows: no tables).
        let mut sets = vec![UnitSet::of(&[0x00, 0xC0, 0xED, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4]), UnitSet::of(&[0xED])];
        sets.push(UnitSet::of(&[]));
        for k in 0..40 {
            let few: Vec<u8> = (0..1 + k % 6).map(|_| next() as u8).collect();
            sets.push(UnitSet::of(&few));
            sets.push(UnitSet::new([next(), next(), next(), next()]));
        }
        assert!(sets[0].nibbles.is_some() && sets.iter().any(|s| s.nibbles.is_none()));
        for set in &sets {
            let outside: Vec<u8> = (0..=255u8).filter(|&u| !set.contains(u)).collect();
            for len in [0usize, 1, 31, 32, 33, 100, 300] {
                for place in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
                    let mut units: Vec<u8> = (0..len)
                        .map(|_| if outside.is_empty() { 0 } else { outside[next() as usize % outside.len()] })
                        .collect();
                    let member = (0..=255u8).find(|&u| set.contains(u));
                    if let (Some(at), Some(u)) = (place.filter(|&p| p < len), member) {
                        units[at] = u;
                    }
                    let expected = units.iter().position(|&u| set.contains(u)).unwrap_or(len);
                    for isa in Isa::all().into_iter().chain([None]) {
                        assert_eq!(units_outside(isa, &units, set), expected, "{isa:?} {len} {set:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_kernel_finds_the_first_unit_outside() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in [0usize, 1, 31, 127, 128, 129, 255, 256, 600] {
            for (low, high) in [(0x00u8, 0x7Fu8), (0x01, 0xEF), (0x00, 0xEC), (0x41, 0x41), (0x00, 0xFF)] {
                for place in [None, Some(0), Some(len / 3), Some(len.saturating_sub(1))] {
                    let mut units: Vec<u8> = (0..len)
                        .map(|_| {
                            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                            low + ((seed >> 33) as u8) % (high - low).saturating_add(1).max(1)
                        })
                        .collect();
                    if let Some(at) = place.filter(|&p| p < len) {
                        units[at] = if low > 0 { low - 1 } else { high.wrapping_add(1) };
                    }
                    let expected = units.iter().position(|&u| u < low || u > high).unwrap_or(len);
                    for isa in Isa::all().into_iter().chain([None]) {
                        assert_eq!(
                            units_within(isa, &units, low, high),
                            expected,
                            "{isa:?} {len} {low:02X}-{high:02X}"
                        );
                        let text = ascii_within(isa, &units, low, high);
                        match high < 0x80 && expected == len {
                            true => assert_eq!(text.map(str::as_bytes), Ok(&units[..])),
                            false => assert!(text.is_err()),
                        }
                    }
                }
            }
        }
    }
}
