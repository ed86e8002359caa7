//! Decoding input that the validator has passed, up to four values per step.
//!
//! A codec whose continuation units are one run of at most 64 units, each
//! worth itself minus the first of them, and whose leads of each length are
//! worth themselves minus one base per length (a [`Shape`]), decodes a valid
//! sequence of `n` units as
//!
//! ```text
//! value = lead · 64^(n-1) + c1 · 64^(n-2) + … + c(n-1)  −  K(n)
//! K(n)  = base(n) · 64^(n-1) + first · (64^(n-2) + … + 1)
//! ```
//!
//! so no unit needs masking: the kernel gathers each value's units into a
//! 32-bit lane with one shuffle, weighs them with two multiply-adds and takes
//! `K(n)` off. Which shuffle comes from where the leads are: the kernel marks
//! the units that are no continuation over 64 units at a time, and the marks
//! of the 12 units after the current lead pick one of 340 steps (up to four
//! values of up to four units). Sixteen single-unit values in a row (ASCII) are
//! widened at once, and sequences of five units or more are folded unit by unit.
//!
//! Input that is not valid decodes to unspecified values but never reads or
//! writes out of bounds: the kernel only trusts the marks to say how far to
//! move, and each step moves at least one unit per value written.
//!
//! Here are the entry points and the call into the kernel for each instruction
//! set; the kernel is written once in `kernel.rs` (a macro) over the step
//! tables of `steps.rs`, and instantiated by `x86.rs` and `neon.rs`. [`Shape`]
//! and the words written are in the crate's `shared.rs`.
//!
//! ```
//! use placemat_simd::{decode_u32, Isa, Shape};
//! // UTF-8: continuations 80–BF; leads 00, C0, E0, F0 less their payload.
//! let utf8 = Shape { continuation: (0x80, 0xBF), lead_base: [0, 0, 0xC0, 0xE0, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
//! let text = "Ünïcödé, 漢字 and 🎉 ".repeat(8);
//! let mut out = Vec::new();
//! let done = Isa::detect().map_or(0, |isa| decode_u32(isa, &utf8, text.as_bytes(), &mut out));
//! // The kernel stops some way before the end, at a value boundary.
//! let expected: Vec<u32> = text[..done].chars().map(u32::from).collect();
//! assert_eq!(out, expected);
//! ```

#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
#[macro_use]
mod kernel;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod neon;
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(dead_code)
)]
mod steps;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod x86;

use alloc::vec::Vec;

use crate::shared::{Isa, Shape, Word};

/// Whether [`decode_u32`] and [`decode_u64`] have a kernel for `isa`: every
/// instruction set [`Isa::all`] can list (x86-64's SSE4.1 and AVX2, aarch64's
/// NEON); without one they take nothing and leave `input` to the caller.
pub const fn decodes_on(isa: Isa) -> bool {
    match isa {
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 => cfg!(all(target_arch = "x86_64", target_feature = "sse2")),
        Isa::Neon => cfg!(all(target_arch = "aarch64", target_feature = "neon")),
    }
}

/// Decodes a prefix of `input`, which must be valid for a codec of this
/// `shape` (else the values are unspecified), appending its values to `out`;
/// returns the units taken: at a value boundary, and `0` without a kernel for
/// `isa`. The kernel leaves the last 80 units or so to the caller.
///
/// Panics if `isa` is not one [`Isa::all`] lists or `shape` fails
/// [`Shape::check`].
pub fn decode_u32(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<u32>) -> usize {
    decode(isa, shape, input, out)
}

/// [`decode_u32`] for 64-bit values (the lanes are still 32 bits: sequences of
/// up to four units; longer ones are folded in 64 bits).
pub fn decode_u64(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<u64>) -> usize {
    decode(isa, shape, input, out)
}

fn decode<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<W>) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if let Err(e) = shape.check() {
        panic!("invalid decoding shape: {e}");
    }
    run(isa, shape, input, out)
}

#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
fn run<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<W>) -> usize {
    out.reserve(input.len());
    let start = out.len();
    // With AVX-512, 32-bit values come from the one-pass kernel of
    // `to_units.rs` (UTF-32LE is the values' own bytes), up to a sequence of
    // five units or more; the kernel below takes the rest.
    // SAFETY: `decode` checked that the machine has `isa`; `out` has room for
    // `input.len()` more words.
    let (taken, written) = unsafe { words_first(isa, shape, input, out.as_mut_ptr().add(start)) };
    // SAFETY: `decode` checked that `isa` is one the machine has; `out` has
    // room for `input.len() - taken` more words after the `written <= taken`
    // ones, which bounds what the kernel writes.
    let (units, words) = unsafe { kernel(isa, shape, &input[taken..], out.as_mut_ptr().add(start + written)) };
    // SAFETY: the kernels initialised `written + words` words after `start`,
    // at most `input.len()`, within the capacity reserved.
    unsafe { out.set_len(start + written + words) };
    taken + units
}

/// With AVX-512, 32-bit values by the one-pass kernel: units taken and
/// words written (none otherwise).
///
/// # Safety
/// The machine must have `isa`, and `out` must be valid for writes of
/// `input.len()` words.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
unsafe fn words_first<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
    if isa != Isa::Avx512 {
        return (0, 0);
    }
    if W::WIDE {
        // SAFETY: as the caller vouches.
        return unsafe { widened_words(shape, input, out) };
    }
    // SAFETY: the machine has AVX-512; `out` holds `input.len()` words of
    // four bytes, and the kernel writes at most four bytes per unit it takes.
    let (units, bytes) = unsafe { crate::to_units::decode_words(shape, input, out.cast()) };
    (units, bytes / 4)
}

/// [`words_first`] for 64-bit words: the one-pass kernel's 32-bit words, a
/// piece of the input at a time into a buffer that stays in cache, each
/// widened after (a loop the compiler makes vector zero-extensions of).
///
/// # Safety
/// As [`words_first`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
unsafe fn widened_words<W: Word>(shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
    /// Units a piece: 8 KiB of words.
    const PIECE: usize = 2048;
    let mut words = [0u32; PIECE];
    let (mut taken, mut written) = (0, 0);
    while taken < input.len() {
        let piece = &input[taken..input.len().min(taken + PIECE)];
        // SAFETY: the machine has AVX-512; `words` holds `piece.len()` words
        // of four bytes, at most four bytes a unit taken.
        let (units, bytes) = unsafe { crate::to_units::decode_words(shape, piece, words.as_mut_ptr().cast()) };
        for (k, &w) in words[..bytes / 4].iter().enumerate() {
            // SAFETY: at most one word a unit: `written + k < taken + units
            // <= input.len()`, the words the caller vouches for.
            unsafe { out.add(written + k).write(W::from_u64(u64::from(w))) };
        }
        // A piece that is not the input's last may end inside a sequence,
        // which the kernel leaves; it stopped for good anywhere else.
        let cut = taken + piece.len() < input.len() && piece.len() - units < 16;
        (taken, written) = (taken + units, written + bytes / 4);
        if units == 0 || (units < piece.len() && !cut) {
            break;
        }
    }
    (taken, written)
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
unsafe fn words_first<W: Word>(_: Isa, _: &Shape, _: &[u8], _: *mut W) -> (usize, usize) {
    (0, 0)
}

/// The kernel for `isa`: units taken and words written.
///
/// # Safety
/// The machine must have `isa`, and `out` must be valid for writes of
/// `input.len()` words.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
unsafe fn kernel<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
    match isa {
        // SAFETY: the machine has AVX2 (AVX-512 machines too); `out` as the
        // caller vouches.
        Isa::Avx512 | Isa::Avx2 => unsafe { x86::avx2::decode(shape, input, out) },
        // SAFETY: the machine has SSSE3 and SSE4.1; `out` as the caller vouches.
        Isa::Sse41 => unsafe { x86::sse41::decode(shape, input, out) },
        Isa::Neon => unreachable!("not listed by Isa::all on x86-64"),
    }
}

/// The kernel for `isa`: units taken and words written.
///
/// # Safety
/// The machine must have `isa`, and `out` must be valid for writes of
/// `input.len()` words.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
unsafe fn kernel<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
    match isa {
        // SAFETY: the target has NEON; `out` as the caller vouches.
        Isa::Neon => unsafe { neon::decode(shape, input, out) },
        _ => unreachable!("not listed by Isa::all on aarch64"),
    }
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn run<W: Word>(_: Isa, _: &Shape, _: &[u8], _: &mut Vec<W>) -> usize {
    0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::steps::*;
    use super::*;

    #[test]
    fn every_step_gathers_the_values_its_marks_delimit() {
        for (marks, &e) in BY_MARKS.iter().enumerate() {
            let e = usize::from(e);
            let (index, units, count) = (e & 0x1FF, e >> 9 & 15, e >> 13);
            // Lengths from the marks, one by one.
            let mut at = 0;
            let mut lengths = Vec::new();
            while lengths.len() < 4 {
                match (at + 1..=(at + 4).min(12)).find(|&j| marks >> (j - 1) & 1 == 1) {
                    Some(j) => {
                        lengths.push(j - at);
                        at = j;
                    }
                    None => break,
                }
            }
            assert_eq!((count, units), (lengths.len(), at), "marks {marks:012b}");
            if count == 0 {
                continue;
            }
            let step = &STEPS[index];
            let mut start = 0;
            for (lane, &len) in lengths.iter().enumerate() {
                for b in 0..4 {
                    let want = if b < len { (start + len - 1 - b) as u8 } else { 0x80 };
                    assert_eq!(step.gather[4 * lane + b], want, "marks {marks:012b} lane {lane}");
                    assert_eq!(step.bias[4 * lane + b], (4 * (len - 1) + b) as u8);
                }
                start += len;
            }
        }
    }

    /// A 1992-style shape (leads of 1–7 units) and text of its sequences:
    /// `lengths` picks each sequence's length from a random byte (also the
    /// text of the one-pass kernel's tests, `to_units.rs`).
    pub(crate) fn text(seed: u64, lengths: &[usize], values: usize) -> (Shape, Vec<u8>) {
        let base = [0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE, 0, 0, 0, 0, 0, 0, 0, 0];
        let shape = Shape { continuation: (0x80, 0xBF), lead_base: base };
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut bytes = Vec::new();
        for _ in 0..values {
            let len = lengths[next() as usize % lengths.len()];
            let room = [0, 0x80, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01][len];
            bytes.push(base[len] + (next() % room) as u8);
            bytes.extend((1..len).map(|_| 0x80 + (next() % 64) as u8));
        }
        (shape, bytes)
    }

    /// The values of `units`, cut before each unit that is no continuation.
    fn reference(shape: &Shape, units: &[u8]) -> Vec<u64> {
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=units.len() {
            if i == units.len() || !(0x80..=0xBF).contains(&units[i]) {
                out.push(shape.value(&units[start..i]));
                start = i;
            }
        }
        out
    }

    #[test]
    fn the_kernel_agrees_with_the_formula_on_sequences_of_every_length() {
        for isa in Isa::all().into_iter().flatten() {
            agrees_with_the_formula(isa);
        }
    }

    fn agrees_with_the_formula(isa: Isa) {
        // The kernel exists for every instruction set the machine can have.
        assert!(decodes_on(isa), "{isa:?}");
        let mixes: [&[usize]; 5] = [&[1], &[1, 1, 1, 2], &[3], &[1, 2, 3, 4], &[1, 2, 3, 4, 5, 6, 7]];
        for (seed, lengths) in mixes.iter().enumerate() {
            let (shape, bytes) = text(seed as u64 + 1, lengths, 3000);
            for start in 0..70 {
                let input = &bytes[start..];
                let input = &input[input.iter().position(|&u| !(0x80..=0xBF).contains(&u)).unwrap()..];
                // (With AVX-512 the two widths run different kernels, which
                // may stop at different boundaries near the end.)
                let (mut narrow, mut wide) = (vec![7u32], vec![7u64]);
                let taken = decode_u64(isa, &shape, input, &mut wide);
                assert!(taken + 80 > input.len() && taken > 0, "mix {seed}: took {taken} of {}", input.len());
                assert_eq!(wide[1..], reference(&shape, &input[..taken])[..], "mix {seed} from {start}");
                let taken = decode_u32(isa, &shape, input, &mut narrow);
                assert!(taken + 80 > input.len() && taken > 0, "mix {seed}: took {taken} of {}", input.len());
                let want: Vec<u32> = reference(&shape, &input[..taken]).iter().map(|&v| v as u32).collect();
                assert_eq!(narrow[1..], want[..], "mix {seed} from {start}");
            }
        }
    }

    #[test]
    fn any_input_is_decoded_within_bounds() {
        for isa in Isa::all().into_iter().flatten() {
            decoded_within_bounds(isa);
        }
    }

    fn decoded_within_bounds(isa: Isa) {
        let (shape, mut bytes) = text(99, &[1, 2, 3, 4, 5, 6, 7], 2000);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..300 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (x >> 33) as usize % bytes.len();
            bytes[at] = (x >> 20) as u8;
            // Runs of continuations too long for any window, now and then.
            if round % 50 == 0 {
                bytes[at..].iter_mut().take(200).for_each(|u| *u = 0x80);
            }
            let mut out = Vec::new();
            let taken = decode_u32(isa, &shape, &bytes, &mut out);
            assert!(taken <= bytes.len() && out.len() <= taken, "round {round}");
        }
    }
}
