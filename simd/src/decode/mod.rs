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
mod neon;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86;

use alloc::vec::Vec;

use crate::Isa;

/// How a codec's units make its values, for the decoding kernel.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The continuation units, `first..=last`: at most 64 of them, each worth
    /// itself minus `first`, carrying 6 bits.
    pub continuation: (u8, u8),
    /// `lead_base[n]`: what every lead of an `n`-unit sequence is worth less
    /// than itself (entry 0 unused; lengths past 15 are not decoded here).
    pub lead_base: [u8; 16],
}

impl Shape {
    /// Checks that the continuation units are a non-empty run of at most 64.
    pub const fn check(&self) -> Result<(), &'static str> {
        let (first, last) = self.continuation;
        if last < first || last - first >= 64 {
            return Err("continuation units must be a run of 1 to 64 units");
        }
        Ok(())
    }

    /// `K(n)` of the module docs for `n` in `1..=4`, as the lanes of one
    /// vector.
    #[cfg_attr(
        not(any(
            all(target_arch = "x86_64", target_feature = "sse2"),
            all(target_arch = "aarch64", target_feature = "neon")
        )),
        allow(dead_code)
    )]
    pub(crate) fn bias(&self) -> [u32; 4] {
        let first = u32::from(self.continuation.0);
        let mut k = [0u32; 4];
        let mut tail = 0u32;
        for (n, k) in k.iter_mut().enumerate() {
            *k = u32::from(self.lead_base[n + 1]).wrapping_mul(1 << (6 * n)).wrapping_add(first.wrapping_mul(tail));
            tail = tail * 64 + 1;
        }
        k
    }

    /// The value of the sequence `units` (a lead and its continuations), for
    /// the kernel's long sequences and as the reference for its steps.
    pub fn value(&self, units: &[u8]) -> u64 {
        let Some((&lead, rest)) = units.split_first() else { return 0 };
        let base = self.lead_base.get(units.len()).copied().unwrap_or(0);
        let first = self.continuation.0;
        rest.iter().fold(u64::from(lead.wrapping_sub(base)), |v, &c| v << 6 | u64::from(c.wrapping_sub(first) & 63))
    }
}

/// The kernel's tables, computed at compile time.
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(dead_code)
)]
pub(crate) mod steps {
    /// One step of the kernel: a shuffle that gathers up to four values' units
    /// into 32-bit lanes (last unit lowest), and one that picks each lane's `K`.
    #[derive(Copy, Clone)]
    #[repr(C, align(16))]
    pub(crate) struct Step {
        pub(crate) gather: [u8; 16],
        pub(crate) bias: [u8; 16],
    }

    /// The marks of units 1–12 after a lead (bit `j - 1` set when unit `j` is no
    /// continuation) → the step for the values they delimit: bits 0–8 the index
    /// into [`STEPS`], 9–12 the units the step takes, 13–15 the values it writes
    /// (0 when the first value is longer than four units).
    pub(crate) static BY_MARKS: [u16; 4096] = by_marks();

    /// Every run of one to four values of one to four units, by lengths.
    pub(crate) static STEPS: [Step; 340] = steps();

    /// The units and the step when the marks after a lead say that four
    /// values of `n` units follow, `n` 3 or 4 (units `0, n, …, 4n` are leads,
    /// and none between them): Chinese text, emoji. Not for two units:
    /// Cyrillic words are too short for four letters in a row to be the rule,
    /// and the branch would be mispredicted (measured 25 % slower on Russian).
    #[inline(always)]
    pub(crate) fn uniform(rest: u64) -> Option<(usize, usize)> {
        const fn run(n: usize) -> (u64, u64, usize) {
            let marks = 1 | 1 << n | 1 << (2 * n) | 1 << (3 * n) | 1 << (4 * n);
            (marks, (1 << (4 * n + 1)) - 1, step_index(&[n as u8; 4], 4))
        }
        const RUNS: [(u64, u64, usize); 2] = [run(3), run(4)];
        let [three, four] = RUNS;
        if rest & three.1 == three.0 {
            Some((12, three.2))
        } else if rest & four.1 == four.0 {
            Some((16, four.2))
        } else {
            None
        }
    }

    /// The index of a run of `count` values of the given lengths in [`STEPS`].
    pub(crate) const fn step_index(lengths: &[u8; 4], count: usize) -> usize {
        let mut index = 0;
        let mut scale = 1;
        let mut j = 0;
        while j < count {
            index += (lengths[j] as usize - 1) * scale;
            scale *= 4;
            j += 1;
        }
        // Runs of fewer values come first: 4 of one value, 16 of two, 64 of three.
        let before = [0, 0, 4, 20, 84];
        before[count] + index
    }

    const fn by_marks() -> [u16; 4096] {
        let mut table = [0u16; 4096];
        let mut marks = 0;
        while marks < 4096 {
            let mut lengths = [0u8; 4];
            let (mut count, mut at) = (0, 0);
            'values: while count < 4 {
                let mut len = 1;
                while len <= 4 && at + len <= 12 {
                    if marks >> (at + len - 1) & 1 == 1 {
                        lengths[count] = len as u8;
                        count += 1;
                        at += len;
                        continue 'values;
                    }
                    len += 1;
                }
                break;
            }
            if count > 0 {
                table[marks] = (step_index(&lengths, count) | at << 9 | count << 13) as u16;
            }
            marks += 1;
        }
        table
    }

    const fn steps() -> [Step; 340] {
        let mut steps = [Step { gather: [0x80; 16], bias: [0x80; 16] }; 340];
        let mut count = 1;
        while count <= 4 {
            let mut code = 0;
            while code < 1 << (2 * count) {
                let mut lengths = [0u8; 4];
                let mut j = 0;
                while j < count {
                    lengths[j] = (code >> (2 * j) & 3) as u8 + 1;
                    j += 1;
                }
                steps[step_index(&lengths, count)] = step(&lengths, count);
                code += 1;
            }
            count += 1;
        }
        steps
    }

    const fn step(lengths: &[u8; 4], count: usize) -> Step {
        let mut s = Step { gather: [0x80; 16], bias: [0x80; 16] };
        let mut at = 0u8;
        let mut lane = 0;
        while lane < count {
            let len = lengths[lane];
            let mut b = 0;
            while b < 4 {
                if b < len {
                    // Byte `b` of the lane is the unit `b` places before the last.
                    s.gather[4 * lane + b as usize] = at + len - 1 - b;
                }
                s.bias[4 * lane + b as usize] = 4 * (len - 1) + b;
                b += 1;
            }
            at += len;
            lane += 1;
        }
        s
    }
}

/// Whether [`decode_u32`] and [`decode_u64`] have a kernel for `isa`: every
/// instruction set [`Isa::all`] can list (x86-64's SSE4.1 and AVX2, aarch64's
/// NEON); without one they take nothing and leave `input` to the caller.
pub const fn decodes_on(isa: Isa) -> bool {
    match isa {
        Isa::Sse41 | Isa::Avx2 => cfg!(all(target_arch = "x86_64", target_feature = "sse2")),
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

/// The words the kernel writes.
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(dead_code)
)]
pub(crate) trait Word: Copy {
    /// Whether the kernel widens its 32-bit lanes to 64 bits.
    const WIDE: bool;
    fn from_u64(v: u64) -> Self;
}

impl Word for u32 {
    const WIDE: bool = false;
    fn from_u64(v: u64) -> u32 {
        v as u32
    }
}

impl Word for u64 {
    const WIDE: bool = true;
    fn from_u64(v: u64) -> u64 {
        v
    }
}

#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
fn run<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<W>) -> usize {
    out.reserve(input.len());
    let start = out.len();
    // SAFETY: `decode` checked that `isa` is one the machine has; `out` has
    // room for `input.len()` more words, which bounds what the kernel writes.
    let (taken, written) = unsafe { kernel(isa, shape, input, out.as_mut_ptr().add(start)) };
    // SAFETY: the kernel initialised the `written` words after `start`, and
    // `written <= input.len()`, within the capacity reserved.
    unsafe { out.set_len(start + written) };
    taken
}

/// The kernel for `isa`: units taken and words written.
///
/// # Safety
/// The machine must have `isa`, and `out` must be valid for writes of
/// `input.len()` words.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
unsafe fn kernel<W: Word>(isa: Isa, shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
    match isa {
        // SAFETY: both instruction sets include SSSE3 and SSE4.1; `out` as
        // the caller vouches.
        Isa::Avx2 | Isa::Sse41 => unsafe { x86::decode(shape, input, out) },
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
        Isa::Avx2 | Isa::Sse41 => unreachable!("not listed by Isa::all on aarch64"),
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
mod tests {
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

    #[test]
    fn the_bias_is_what_the_weights_add_beyond_the_value() {
        let shape =
            Shape { continuation: (0x80, 0xBF), lead_base: [0, 0, 0xC0, 0xE0, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
        let k = shape.bias();
        for units in [&b"A"[..], "é".as_bytes(), "漢".as_bytes(), "🎉".as_bytes()] {
            let raw = units.iter().fold(0u32, |v, &u| v * 64 + u32::from(u));
            let want = u64::from(char::from_u32(raw - k[units.len() - 1]).unwrap() as u32);
            assert_eq!(shape.value(units), want);
            assert_eq!(std::str::from_utf8(units).unwrap().chars().next().unwrap() as u64, want);
        }
    }

    /// A 1992-style shape (leads of 1–7 units) and text of its sequences:
    /// `lengths` picks each sequence's length from a random byte.
    fn text(seed: u64, lengths: &[usize], values: usize) -> (Shape, Vec<u8>) {
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
        let Some(isa) = Isa::detect() else { return };
        // The kernel exists for every instruction set the machine can have.
        assert!(decodes_on(isa), "{isa:?}");
        let mixes: [&[usize]; 5] = [&[1], &[1, 1, 1, 2], &[3], &[1, 2, 3, 4], &[1, 2, 3, 4, 5, 6, 7]];
        for (seed, lengths) in mixes.iter().enumerate() {
            let (shape, bytes) = text(seed as u64 + 1, lengths, 3000);
            for start in 0..70 {
                let input = &bytes[start..];
                let input = &input[input.iter().position(|&u| !(0x80..=0xBF).contains(&u)).unwrap()..];
                let (mut narrow, mut wide) = (vec![7u32], vec![7u64]);
                let taken = decode_u32(isa, &shape, input, &mut narrow);
                assert_eq!(decode_u64(isa, &shape, input, &mut wide), taken);
                assert!(taken + 80 > input.len() && taken > 0, "mix {seed}: took {taken} of {}", input.len());
                let want = reference(&shape, &input[..taken]);
                assert_eq!(wide[1..], want[..], "mix {seed} from {start}");
                let want: Vec<u32> = want.iter().map(|&v| v as u32).collect();
                assert_eq!(narrow[1..], want[..], "mix {seed} from {start}");
            }
        }
    }

    #[test]
    fn any_input_is_decoded_within_bounds() {
        let Some(isa) = Isa::detect() else { return };
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

    #[test]
    fn a_shape_with_too_many_continuation_units_is_refused() {
        let mut shape = Shape { continuation: (0x80, 0xC0), lead_base: [0; 16] };
        assert!(shape.check().is_err());
        shape.continuation = (0x90, 0x80);
        assert!(shape.check().is_err());
        shape.continuation = (0x80, 0xBF);
        assert_eq!(shape.check(), Ok(()));
    }
}
