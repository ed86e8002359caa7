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
//! ```
//! use placemat_simd::{ascii_within, units_within, Isa};
//! let text = "plain ASCII, then café".as_bytes();
//! assert_eq!(units_within(Isa::detect(), text, 0x00, 0x7F), 21);
//! assert_eq!(units_within(Isa::detect(), text, 0x00, 0xFF), text.len());
//! // No zero unit, all ASCII: the input is its own text.
//! assert_eq!(ascii_within(Isa::detect(), b"no zero here", 0x01, 0x7F), Ok("no zero here"));
//! assert_eq!(ascii_within(Isa::detect(), b"a\0b", 0x01, 0x7F), Err(1));
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
