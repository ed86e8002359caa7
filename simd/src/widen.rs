//! Widening ASCII bytes into 16- or 32-bit code units of the same value, in
//! one pass that also checks them: the conversion engine's first step from
//! the UTF-8 family into UTF-16 and UTF-32, where text that is ASCII needs
//! no validator in front of the conversion (each byte below 80 is a whole
//! sequence of its own value, a fact the compiler derives for the source).
//!
//! [`widen_ascii`] takes 64 bytes at a time while all 64 are below 80 and
//! writes them as code units in the target's byte order, one test of the
//! bytes' top bits and two (four) widening stores a step with AVX-512, twice
//! as many with AVX2's 32-byte vectors. It stops before
//! the first group of 64 with another byte, which the caller converts.
//! [`widen_ascii_u32`] and [`widen_ascii_u64`] write the same bytes as
//! values: the first step of decoding the UTF-8 family into values, before
//! the validator and the decoding kernel take the rest.
//!
//! ```
//! use placemat_simd::{widen_ascii, Isa, Units};
//! let text = "plain ASCII text, line after line\n".repeat(10);
//! let utf16be = Units { bytes: 2, big_endian: true, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| widen_ascii(isa, &utf16be, text.as_bytes(), &mut out));
//! // Whole groups of 64 (none without AVX2).
//! assert_eq!(taken % 64, 0);
//! let expected: Vec<u8> = text[..taken].encode_utf16().flat_map(u16::to_be_bytes).collect();
//! assert_eq!(out, expected);
//! ```

use alloc::vec::Vec;

use crate::{Isa, Units};

/// Appends the longest run of whole groups of 64 bytes of `input` that are
/// all below 80, each as the code unit of its value; returns the bytes taken
/// (a multiple of 64). Takes nothing without AVX2 ([`Isa::Avx512`] or
/// [`Isa::Avx2`]), for a width other than 2 and 4, or where `units.single` leaves out a value
/// below 80.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn widen_ascii(isa: Isa, units: &Units, input: &[u8], out: &mut Vec<u8>) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    let ascii = units.single.iter().any(|&(lo, hi)| lo == 0 && hi >= 0x7F);
    if !matches!(units.bytes, 2 | 4) || !ascii {
        return 0;
    }
    run(isa, units, input, out)
}

/// [`widen_ascii`] into values: the bytes below 80 of whole groups of 64 as
/// `u32` values, for a decoder whose bytes below 80 are each a sequence of
/// its own value (and, validated as they go, need no validator in front).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn widen_ascii_u32(isa: Isa, input: &[u8], out: &mut Vec<u32>) -> usize {
    widen_words(isa, input, out)
}

/// [`widen_ascii_u32`] for `u64` values.
pub fn widen_ascii_u64(isa: Isa, input: &[u8], out: &mut Vec<u64>) -> usize {
    widen_words(isa, input, out)
}

/// The values as words of `W`'s width, little-endian on every target the
/// kernel runs on.
fn widen_words<W: crate::shared::Word>(isa: Isa, input: &[u8], out: &mut Vec<W>) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    let units = Units { bytes: core::mem::size_of::<W>(), big_endian: false, single: [(0, 0x7F); 2] };
    run(isa, &units, input, out)
}

/// The kernel into `out`, whose elements are `T`: each byte taken is
/// `units.bytes / size_of::<T>()` of them (a code unit's bytes, or a word).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T>(isa: Isa, units: &Units, input: &[u8], out: &mut Vec<T>) -> usize {
    if !matches!(isa, Isa::Avx512 | Isa::Avx2) {
        return 0;
    }
    let per = units.bytes / core::mem::size_of::<T>();
    out.reserve(input.len() * per);
    let start = out.len();
    let at = out.as_mut_ptr().wrapping_add(start).cast();
    // SAFETY: the callers checked that the machine has `isa` (AVX-512 or
    // AVX2) and that `units.bytes` is 2 or 4 (bytes), or 4 or 8 little-endian
    // (words, as x86 holds them); `out` has room for `units.bytes` bytes per
    // byte of `input`.
    let taken = unsafe {
        match isa {
            Isa::Avx512 => avx512::widen(units, input, at),
            _ => avx2::widen(units, input, at),
        }
    };
    // SAFETY: the kernel initialised `units.bytes` bytes per byte taken.
    unsafe { out.set_len(start + taken * per) };
    taken
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run<T>(_: Isa, _: &Units, _: &[u8], _: &mut Vec<T>) -> usize {
    0
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod avx512 {
    use core::arch::x86_64::*;

    use crate::Units;

    /// The kernel: bytes taken.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW; `units.bytes` be 2, 4 or 8 (8:
    /// little-endian only); `out` be valid for writes of `units.bytes *
    /// input.len()` bytes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn widen(units: &Units, input: &[u8], out: *mut u8) -> usize {
        let mut i = 0;
        while i + 64 <= input.len() {
            // SAFETY: 64 bytes readable at `i`.
            let x = unsafe { _mm512_loadu_si512(input.as_ptr().add(i).cast()) };
            if _mm512_movepi8_mask(x) != 0 {
                break;
            }
            // SAFETY: `units.bytes` bytes per unit writable from `bytes * i`.
            unsafe { widen64(units.bytes, units.big_endian, x, out.add(units.bytes * i)) };
            i += 64;
        }
        i
    }

    /// Writes the 64 bytes of `x` as code units of `bytes` bytes (2, 4, or
    /// 8 little-endian), each of the byte's value, in the order `big_endian`
    /// says: the bytes written.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW; `out` be valid for writes of
    /// `64 * bytes` bytes.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(crate) unsafe fn widen64(bytes: usize, big_endian: bool, x: __m512i, out: *mut u8) -> usize {
        if bytes == 2 {
            for h in 0..2 {
                let half = if h == 0 { _mm512_castsi512_si256(x) } else { _mm512_extracti64x4_epi64::<1>(x) };
                let wide = _mm512_cvtepu8_epi16(half);
                // A big-endian unit's value is its second byte.
                let wide = if big_endian { _mm512_slli_epi16::<8>(wide) } else { wide };
                // SAFETY: 64 bytes at `64h`, within the caller's 128.
                unsafe { _mm512_storeu_si512(out.add(64 * h).cast(), wide) };
            }
        } else if bytes == 4 {
            let quarters = [
                _mm512_extracti32x4_epi32::<0>(x),
                _mm512_extracti32x4_epi32::<1>(x),
                _mm512_extracti32x4_epi32::<2>(x),
                _mm512_extracti32x4_epi32::<3>(x),
            ];
            for (q, quarter) in quarters.into_iter().enumerate() {
                let wide = _mm512_cvtepu8_epi32(quarter);
                let wide = if big_endian { _mm512_slli_epi32::<24>(wide) } else { wide };
                // SAFETY: 64 bytes at `64q`, within the caller's 256.
                unsafe { _mm512_storeu_si512(out.add(64 * q).cast(), wide) };
            }
        } else {
            let mut bytes8 = [0u64; 8];
            // SAFETY: 64 writable bytes.
            unsafe { _mm512_storeu_si512(bytes8.as_mut_ptr().cast(), x) };
            for (k, eight) in bytes8.into_iter().enumerate() {
                let wide = _mm512_cvtepu8_epi64(_mm_cvtsi64_si128(eight as i64));
                // SAFETY: 64 bytes at `64k`, within the caller's 512.
                unsafe { _mm512_storeu_si512(out.add(64 * k).cast(), wide) };
            }
        }
        64 * bytes
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx2 {
    use core::arch::x86_64::*;

    use crate::Units;

    /// The kernel: bytes taken, 64 at a time as [`super::avx512::widen`].
    ///
    /// # Safety
    /// The machine must have AVX2; `units.bytes` be 2, 4 or 8 (8:
    /// little-endian only); `out` be valid for writes of `units.bytes *
    /// input.len()` bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn widen(units: &Units, input: &[u8], out: *mut u8) -> usize {
        let mut i = 0;
        while i + 64 <= input.len() {
            // SAFETY: 64 bytes readable at `i`.
            let (a, b) = unsafe {
                let p = input.as_ptr().add(i);
                (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast()))
            };
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                break;
            }
            // SAFETY: 64 bytes readable at `i`; `units.bytes` bytes per
            // unit writable from `bytes * i`.
            unsafe { widen64(units.bytes, units.big_endian, input.as_ptr().add(i), out.add(units.bytes * i)) };
            i += 64;
        }
        i
    }

    /// Writes the 64 bytes at `p`, all below 80, as code units of `bytes`
    /// bytes (2, 4, or 8 little-endian), each of the byte's value, in the
    /// order `big_endian` says: a vector of units from each piece of
    /// `32 / bytes` bytes.
    ///
    /// # Safety
    /// The machine must have AVX2; `p` be valid for reads of 64 bytes and
    /// `out` for writes of `64 * bytes` bytes.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn widen64(bytes: usize, big_endian: bool, p: *const u8, out: *mut u8) {
        let piece = 32 / bytes;
        for k in 0..2 * bytes {
            // SAFETY: `piece` bytes at `piece * k < 64`.
            let x = unsafe {
                let at = p.add(piece * k);
                match bytes {
                    2 => _mm_loadu_si128(at.cast()),
                    4 => _mm_loadl_epi64(at.cast()),
                    _ => _mm_cvtsi32_si128(at.cast::<i32>().read_unaligned()),
                }
            };
            let wide = match bytes {
                2 if big_endian => _mm256_slli_epi16::<8>(_mm256_cvtepu8_epi16(x)),
                2 => _mm256_cvtepu8_epi16(x),
                4 if big_endian => _mm256_slli_epi32::<24>(_mm256_cvtepu8_epi32(x)),
                4 => _mm256_cvtepu8_epi32(x),
                _ => _mm256_cvtepu8_epi64(x),
            };
            // SAFETY: 32 bytes at `32k`, within the caller's `64 * bytes`.
            unsafe { _mm256_storeu_si256(out.add(32 * k).cast(), wide) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_widens_to_every_width_order_and_value_type_up_to_the_first_other_group() {
        for isa in Isa::all().into_iter().flatten() {
            widens_on(isa);
        }
    }

    fn widens_on(isa: Isa) {
        let single = [(0, 0xD7FF), (0xE000, 0xFFFF)];
        for len in [0, 63, 64, 65, 200, 640] {
            for stop in [None, Some(0), Some(70), Some(130)] {
                let mut input: Vec<u8> = (0..len).map(|k| (k * 7 % 128) as u8).collect();
                if let Some(at) = stop.filter(|&at| at < len) {
                    input[at] = 0xC3;
                }
                for (bytes, big_endian) in [(2, false), (2, true), (4, false), (4, true)] {
                    let units = Units { bytes, big_endian, single };
                    let mut out = vec![1];
                    let taken = widen_ascii(isa, &units, &input, &mut out);
                    let whole = stop.filter(|&at| at < len).unwrap_or(len) / 64 * 64;
                    let want = if matches!(isa, Isa::Avx512 | Isa::Avx2) { whole } else { 0 };
                    let expected: Vec<u8> = input[..want]
                        .iter()
                        .flat_map(|&b| {
                            let v = u32::from(b).to_be_bytes();
                            let mut unit = v[4 - bytes..].to_vec();
                            if !big_endian {
                                unit.reverse();
                            }
                            unit
                        })
                        .collect();
                    let case = format!("{len} bytes, other at {stop:?}, {bytes} bytes, big {big_endian}");
                    assert_eq!((taken, &out[1..]), (want, &expected[..]), "{case}");
                }
            }
        }
        // As values: the same groups, each byte its value.
        for len in [0, 63, 64, 65, 200, 640] {
            let mut input: Vec<u8> = (0..len).map(|k| (k * 5 % 128) as u8).collect();
            if len > 130 {
                input[130] = 0x80;
            }
            let whole = if len > 130 { 128 } else { len / 64 * 64 };
            let want = if matches!(isa, Isa::Avx512 | Isa::Avx2) { whole } else { 0 };
            let (mut narrow, mut wide) = (vec![7u32], vec![7u64]);
            assert_eq!(widen_ascii_u32(isa, &input, &mut narrow), want, "{len} bytes as u32");
            assert_eq!(widen_ascii_u64(isa, &input, &mut wide), want, "{len} bytes as u64");
            assert!(narrow[1..].iter().map(|&v| v as u8).eq(input[..want].iter().copied()));
            assert!(wide[1..].iter().map(|&v| v as u8).eq(input[..want].iter().copied()));
            assert!(narrow[1..].iter().all(|&v| v < 0x80) && wide[1..].iter().all(|&v| v < 0x80));
            assert_eq!((narrow.len(), wide.len()), (want + 1, want + 1));
        }
        // A target without the ASCII values as units of themselves takes nothing.
        let units = Units { bytes: 2, big_endian: false, single: [(0x20, 0xFFFF); 2] };
        assert_eq!(widen_ascii(isa, &units, &[b'a'; 128], &mut Vec::new()), 0);
    }
}
