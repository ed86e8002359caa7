//! Converting valid input of a codec with a [`Shape`] (the UTF-8 family)
//! straight into 16- or 32-bit code units (UTF-16, UTF-32), in one pass and
//! without values in memory: the conversion engine's fast path between the
//! two families.
//!
//! The kernel reads 64 units at a time with AVX-512. Where the units that are
//! no continuation start sequences, one compress of the positions `0..64`
//! lists where the sequences start, and one of the positions before each
//! next start where they end; start and end give each sequence's length (1
//! to 4: a longer one ends the kernel's run). Sixteen sequences at a time, a
//! byte permute gathers each one's units into a 32-bit lane (its last unit
//! lowest, the bytes past its length zeroed), and the multiply-adds of the
//! decoding kernel (`decode/mod.rs`) weigh them and take `K(n)` off. The
//! values are then written as the target's forms say ([`Units`] and
//! [`Pair`], which the compiler derives from the target's description): one
//! unit of itself for a value in a single-unit range, two units for a value
//! in the pair's range (UTF-16's surrogates, joined and then compressed
//! into place with the words of their neighbours), and the run stops before
//! the first value the target writes otherwise, which the caller converts.
//!
//! Windows first take a faster step that needs no lists and no branch on
//! what they hold, decoding at every unit at once. Into 16-bit units
//! (`short.rs`), where the window's sequences have one to three units and
//! values of at most sixteen bits: every unit's value as a lead of each
//! length, in 16-bit lanes, the sequence's real length picking one, and one
//! compress of the leads' lanes per half; into a target with a pair of
//! 16-bit units (UTF-16), four-unit sequences too, their lead's lane writing
//! the pair's first unit and the lane after it the second. Into 32-bit
//! units (`quarters.rs`), where they have one to four units: each unit and
//! the three after it in a 32-bit lane, a quarter of the window at a time,
//! the four-unit value shifted right by the sequence's length.
//! Sixty-four single-unit values in a row (ASCII) are widened without the
//! gather.
//!
//! With AVX2 but not AVX-512 VBMI2, a window of 64 units whose sequences
//! have one to three units goes first through `short_avx2.rs`, the window
//! of `short.rs` sixteen units at a time in 32-byte vectors, its compress
//! done by a byte shuffle from a table per eight lanes. Other windows, and
//! all of them with 16-byte vectors (SSE4.1, NEON: `x86.rs`, `neon.rs`), go
//! through the decoding kernel of `decode/`, which makes up to four values
//! a step in 32-bit lanes, and a sink takes them where they are: it checks them against the
//! target's ranges, packs them to 16 bits or stores them as they are, or,
//! where a step holds a pair, makes each lane one unit or two and packs them
//! with one byte shuffle. A step it refuses, and the last units, which the
//! kernel leaves, are converted one sequence at a time (`lanes.rs`), so a
//! run stops exactly where the AVX-512 kernel's does.
//!
//! Input that is not valid converts to unspecified units but never
//! reads or writes out of bounds: the kernel only moves forward, at least one
//! unit per value written, and writes at most four bytes per unit taken.
//!
//! The lineage: the decoding by compressed positions is the one of Clausecker
//! and Lemire, "Transcoding Unicode Characters with AVX-512 Instructions"
//! (2023), which wrote it by hand for UTF-8; here the widths, byte order,
//! shape and forms are data.
//!
//! ```
//! use placemat_simd::{decode_to_units, Isa, Pair, Shape, Units};
//! let utf8 = Shape { continuation: (0x80, 0xBF), lead_base: [0, 0, 0xC0, 0xE0, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
//! let utf16le = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
//! let text = "Ünïcödé, 漢字 and 🎉 ".repeat(20);
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| decode_to_units(isa, &utf8, &utf16le, Some(&pair), text.as_bytes(), &mut out));
//! // The text, or a prefix of it at a sequence boundary, as UTF-16 (none
//! // without SIMD).
//! let expected: Vec<u8> = text[..taken].encode_utf16().flat_map(u16::to_le_bytes).collect();
//! assert_eq!(out, expected);
//! ```

use alloc::vec::Vec;

use crate::{Isa, Shape, Units};

/// How a target writes a value as two code units: `v − bias` split into its
/// high bits (added to `high`) and its low `low_bits` bits (added to `low`),
/// for values `lo..=hi`. UTF-16's surrogate pairs are
/// `Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 }`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// The least value written as a pair.
    pub lo: u32,
    /// The greatest value written as a pair.
    pub hi: u32,
    /// Taken off the value before it is split.
    pub bias: u32,
    /// Added to the high bits: the first unit.
    pub high: u32,
    /// Added to the low bits: the second unit.
    pub low: u32,
    /// How many bits the second unit carries.
    pub low_bits: u8,
}

impl Pair {
    /// The first units the pair writes (for its values `lo..=hi`), as an
    /// inclusive range.
    pub const fn high_units(&self) -> (u32, u32) {
        (self.high, self.units(self.hi).0)
    }

    /// The second units the pair may write, as an inclusive range.
    pub const fn low_units(&self) -> (u32, u32) {
        (self.low, self.low + ((1 << self.low_bits) - 1))
    }

    /// The value of the first unit `high` and the second `low`, if they are
    /// one of the pair's (each in its range, the value in `lo..=hi`).
    pub fn join(&self, high: u32, low: u32) -> Option<u32> {
        let ((h0, h1), (l0, l1)) = (self.high_units(), self.low_units());
        if !(h0..=h1).contains(&high) || !(l0..=l1).contains(&low) {
            return None;
        }
        let v = ((high - h0) << self.low_bits | (low - l0)).checked_add(self.bias)?;
        (self.lo..=self.hi).contains(&v).then_some(v)
    }

    /// The two units of `v` (which must be in `lo..=hi`).
    pub const fn units(&self, v: u32) -> (u32, u32) {
        let w = v - self.bias;
        (self.high + (w >> self.low_bits), self.low + (w & ((1 << self.low_bits) - 1)))
    }

    /// Whether both units of every value of the pair fit in 16 bits, which
    /// the kernel writes them in.
    pub(crate) const fn fits_16_bits(&self) -> bool {
        if self.lo > self.hi || self.lo < self.bias || self.low_bits > 16 {
            return false;
        }
        let (high, _) = self.units(self.hi);
        high <= 0xFFFF && self.low as u64 + (1u64 << self.low_bits) - 1 <= 0xFFFF && self.high <= 0xFFFF
    }
}

/// Converts a prefix of `input`, which must be valid for a codec of this
/// `shape` (else the units written are unspecified), into code units as
/// `units` and `pair` write them, appending their bytes to `out`; returns the
/// input units taken: at a sequence boundary, before the first value neither
/// writes (or a sequence of five units or more); `input` must end with a
/// whole sequence.
/// Takes nothing for a width other than 2 and 4, and ignores a pair with
/// 4-byte units or one whose units do not fit in 16 bits. Runs on every
/// instruction set [`Isa::all`] can list: AVX-512's 64-byte kernel, the
/// 16-byte one on the others.
///
/// Panics if `isa` is not one [`Isa::all`] lists or `shape` fails
/// [`Shape::check`].
pub fn decode_to_units(
    isa: Isa,
    shape: &Shape,
    units: &Units,
    pair: Option<&Pair>,
    input: &[u8],
    out: &mut Vec<u8>,
) -> usize {
    UnitsDecoder::new(isa, shape, units, pair).map_or(0, |kernel| kernel.decode(input, out))
}

/// [`decode_to_units`] with what it makes of its parameters made once, in
/// [`UnitsDecoder::new`], and kept, so that converting a stream piece by
/// piece does not make it again at every piece: with AVX-512 the kernel's
/// constants (kilobytes of vectors); the 16-byte kernels make their sink at
/// each call, as it holds where the call writes.
///
/// ```
/// use placemat_simd::{Isa, Pair, Shape, Units, UnitsDecoder};
/// let utf8 = Shape { continuation: (0x80, 0xBF), lead_base: [0, 0, 0xC0, 0xE0, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
/// let utf16le = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
/// let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
/// let text = "Ünïcödé, 漢字 and 🎉 ".repeat(20);
/// if let Some(kernel) = Isa::detect().and_then(|isa| UnitsDecoder::new(isa, &utf8, &utf16le, Some(&pair))) {
///     let mut out = Vec::new();
///     let mut taken = 0;
///     for line in text.split_inclusive(' ') {
///         taken += kernel.decode(line.as_bytes(), &mut out);
///     }
///     // Each piece ends with a whole sequence: each is taken whole.
///     let expected: Vec<u8> = text[..taken].encode_utf16().flat_map(u16::to_le_bytes).collect();
///     assert_eq!(out, expected);
/// }
/// ```
pub struct UnitsDecoder {
    shape: Shape,
    kernel: Kernel,
}

/// The kernel a decoder runs, with what it keeps of its parameters.
enum Kernel {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Avx512(alloc::boxed::Box<avx512::Consts>),
    /// A 16-byte kernel: its instruction set, the units (normalised) and the pair.
    Lanes(Isa, Units, Option<Pair>),
}

impl UnitsDecoder {
    /// The kernel for `shape`, `units` and `pair`, as [`decode_to_units`]
    /// reads them; `None` where it would take nothing (a width other than 2
    /// and 4).
    ///
    /// Panics if `isa` is not one [`Isa::all`] lists or `shape` fails
    /// [`Shape::check`].
    pub fn new(isa: Isa, shape: &Shape, units: &Units, pair: Option<&Pair>) -> Option<UnitsDecoder> {
        assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
        if let Err(e) = shape.check() {
            panic!("invalid decoding shape: {e}");
        }
        let units = units.normalised()?;
        let pair = pair.filter(|p| units.bytes == 2 && p.fits_16_bits()).copied();
        Some(UnitsDecoder { shape: *shape, kernel: Self::made(isa, shape, &units, pair) })
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    fn made(isa: Isa, shape: &Shape, units: &Units, pair: Option<Pair>) -> Kernel {
        if isa != Isa::Avx512 {
            return Kernel::Lanes(isa, *units, pair);
        }
        // SAFETY: `new` checked that the machine has AVX-512 (with BMI2).
        Kernel::Avx512(alloc::boxed::Box::new(unsafe { avx512::consts(shape, units, pair.as_ref()) }))
    }

    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    fn made(isa: Isa, _: &Shape, units: &Units, pair: Option<Pair>) -> Kernel {
        Kernel::Lanes(isa, *units, pair)
    }

    /// Converts a prefix of `input` as [`decode_to_units`] does, appending
    /// to `out`; returns the units taken.
    pub fn decode(&self, input: &[u8], out: &mut Vec<u8>) -> usize {
        match &self.kernel {
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx512(c) => {
                // At most four bytes per unit taken (the kernel's docs).
                out.reserve(4 * input.len());
                let start = out.len();
                // SAFETY: `new` checked that the machine has AVX-512 (with
                // BMI2), normalised the units and kept a pair only for a width
                // of 2 that fits 16 bits, and made `c` from them; `out` has
                // room for `4 * input.len()` more bytes.
                let (taken, written) =
                    unsafe { avx512::convert_with(c, &self.shape, input, out.as_mut_ptr().add(start), true) };
                // SAFETY: the kernel initialised `written <= 4 * taken` bytes
                // after `start`, within the capacity reserved.
                unsafe { out.set_len(start + written) };
                taken
            }
            Kernel::Lanes(isa, units, pair) => run(*isa, &self.shape, units, pair.as_ref(), input, out),
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, shape: &Shape, units: &Units, pair: Option<&Pair>, input: &[u8], out: &mut Vec<u8>) -> usize {
    debug_assert_ne!(isa, Isa::Avx512, "the AVX-512 kernel keeps its constants (UnitsDecoder)");
    let target = lanes::Target::new(shape, units, pair);
    // SAFETY: every instruction set listed on x86-64 has SSSE3 and SSE4.1.
    let mut sink = unsafe { x86::Lanes::new(&target) };
    if isa == Isa::Avx2 {
        // SAFETY: the machine has AVX2, and the sink goes to its kernel.
        sink = unsafe { sink.with_window(shape, &target) };
    }
    lanes::drive(&target, shape, input, out, |piece, at| {
        (sink.out, sink.written) = (at, 0);
        // SAFETY: the machine has `isa` (SSE4.1 at least); the sink
        // writes at `at`, which `drive` keeps valid for four bytes per
        // unit of `piece`, as many as the kernel lets it
        // (`decode/kernel.rs`'s `Sink`).
        let taken = unsafe {
            match isa {
                Isa::Avx2 => crate::decode::x86::avx2::run(shape, piece, &mut sink),
                _ => crate::decode::x86::sse41::run(shape, piece, &mut sink),
            }
        };
        (taken, sink.written)
    })
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn run(isa: Isa, shape: &Shape, units: &Units, pair: Option<&Pair>, input: &[u8], out: &mut Vec<u8>) -> usize {
    debug_assert_eq!(isa, Isa::Neon);
    let target = lanes::Target::new(shape, units, pair);
    // SAFETY: the target has NEON.
    let mut sink = unsafe { neon::Lanes::new(&target) };
    lanes::drive(&target, shape, input, out, |piece, at| {
        (sink.out, sink.written) = (at, 0);
        // SAFETY: as above; the sink writes at `at`, which `drive` keeps
        // valid for four bytes per unit of `piece`, as many as the kernel
        // lets it (`decode/kernel.rs`'s `Sink`).
        let taken = unsafe { crate::decode::neon::run(shape, piece, &mut sink) };
        (taken, sink.written)
    })
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn run(_: Isa, _: &Shape, _: &Units, _: Option<&Pair>, _: &[u8], _: &mut Vec<u8>) -> usize {
    0
}

/// The kernel writing every value as a 32-bit little-endian word (values
/// for `decode_u32`): units taken and bytes written.
///
/// # Safety
/// The machine must have AVX-512 ([`Isa::Avx512`]), and `out` must be valid
/// for writes of `4 * input.len()` bytes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) unsafe fn decode_words(shape: &Shape, input: &[u8], out: *mut u8) -> (usize, usize) {
    let words = Units { bytes: 4, big_endian: false, single: [(0, u32::MAX); 2] };
    // SAFETY: as the caller vouches; `words` is normalised, without a pair.
    unsafe { avx512::convert((shape, &words, None), input, out, false) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod lanes;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod marks;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod quarters;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod short;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod short_avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86;

#[cfg(test)]
mod tests {
    use super::*;

    /// Text of sequences of the 1992 shape (leads of 1–7 units), the lengths
    /// drawn from `lengths`.
    fn text(seed: u64, lengths: &[usize], values: usize) -> Vec<u8> {
        crate::decode::tests::text(seed, lengths, values).1
    }

    /// The 1992 shape the text is written in.
    fn shape() -> Shape {
        crate::decode::tests::text(0, &[1], 0).0
    }

    /// The definition: each sequence's value written as `units` and `pair`
    /// say, up to the first one that neither writes or that is five units or
    /// longer; the units converted and the bytes.
    fn reference(shape: &Shape, units: &Units, pair: Option<&Pair>, input: &[u8]) -> (usize, Vec<u8>) {
        let put = |u: u32, out: &mut Vec<u8>| match (units.bytes, units.big_endian) {
            (2, false) => out.extend((u as u16).to_le_bytes()),
            (2, true) => out.extend((u as u16).to_be_bytes()),
            (_, false) => out.extend(u.to_le_bytes()),
            (_, true) => out.extend(u.to_be_bytes()),
        };
        let top = if units.bytes == 2 { 0xFFFF } else { u32::MAX };
        let (mut out, mut start) = (Vec::new(), 0);
        while start < input.len() {
            let len = 1 + input[start + 1..].iter().take_while(|&&u| (0x80..=0xBF).contains(&u)).count();
            let v = shape.value(&input[start..start + len]) as u32;
            if len > 4 {
                break;
            }
            if units.single.iter().any(|&(lo, hi)| lo <= v && v <= hi.min(top)) {
                put(v, &mut out);
            } else if let Some(p) = pair.filter(|p| p.lo <= v && v <= p.hi) {
                let (high, low) = p.units(v);
                put(high, &mut out);
                put(low, &mut out);
            } else {
                break;
            }
            start += len;
        }
        (start, out)
    }

    #[test]
    fn the_kernel_agrees_with_the_definition_for_every_width_order_and_form() {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if std::is_x86_feature_detected!("avx512vbmi2")
            && std::is_x86_feature_detected!("avx512vl")
            && std::env::var_os("PLACEMAT_ISA").is_none()
        {
            assert_eq!(Isa::detect(), Some(Isa::Avx512), "the machine has AVX-512: the kernel must run");
        }
        for isa in Isa::all().into_iter().flatten() {
            agrees_with_the_definition(isa);
        }
    }

    fn agrees_with_the_definition(isa: Isa) {
        let shape = shape();
        let utf16 = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let odd = Pair { lo: 0x800, hi: 0xF_FFFF, bias: 0x800, high: 0x8000, low: 0xC000, low_bits: 12 };
        let targets = [
            (2, [(0, 0xD7FF), (0xE000, 0xFFFF)], Some(utf16)),
            (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)], None),
            (2, [(0, 0xD7FF), (0xE000, 0xFFFF)], None),
            (2, [(0x20, 0x7FF), (1, 0)], Some(odd)),
            (4, [(0, 0x1F_FFFF), (0, 0x1F_FFFF)], None),
            // Every 16-bit value one unit (no check of the values), and the
            // pair above.
            (2, [(0, 0xFFFF), (0, 0xFFFF)], Some(utf16)),
        ];
        let mixes: [&[usize]; 6] = [&[1], &[2], &[3], &[4], &[1, 1, 1, 2, 3], &[1, 2, 3, 4, 1, 2, 3, 4, 5]];
        for (t, (bytes, single, pair)) in targets.into_iter().enumerate() {
            for big_endian in [false, true] {
                let units = Units { bytes, big_endian, single };
                for (seed, lengths) in mixes.iter().enumerate() {
                    let input = text(seed as u64 + 7, lengths, 1500);
                    for skip in [0, 1, 5, 33] {
                        let input = &input[skip..];
                        let input = &input[input.iter().position(|&u| !(0x80..=0xBF).contains(&u)).unwrap()..];
                        let mut out = vec![9];
                        let taken = decode_to_units(isa, &shape, &units, pair.as_ref(), input, &mut out);
                        // It stops exactly at the first sequence it cannot
                        // write, or at the end.
                        let (stop, _) = reference(&shape, &units, pair.as_ref(), input);
                        let prefix = reference(&shape, &units, pair.as_ref(), &input[..taken]);
                        let case = format!("{isa:?}: target {t}, big {big_endian}, mix {seed}, skip {skip}");
                        crate::shared::check_run(true, taken, &out, prefix, stop, &case);
                    }
                }
            }
        }
    }

    #[test]
    fn leads_whose_values_pass_sixteen_bits_are_left_to_the_steps() {
        // A shape whose three-unit leads are worth 16 more: E0–EF give
        // values of 17 bits, which the windows decoding in 16-bit lanes
        // cannot make; the conversion must still be the definition's.
        let mut shape = shape();
        shape.lead_base[3] -= 16;
        let input = text(11, &[1, 3, 3, 2], 1500);
        for isa in Isa::all().into_iter().flatten() {
            for (bytes, single) in [(4, [(0, 0x1F_FFFF); 2]), (2, [(0, 0xFFFF); 2])] {
                let units = Units { bytes, big_endian: false, single };
                let mut out = vec![9];
                let taken = decode_to_units(isa, &shape, &units, None, &input, &mut out);
                let (stop, _) = reference(&shape, &units, None, &input);
                let prefix = reference(&shape, &units, None, &input[..taken]);
                crate::shared::check_run(true, taken, &out, prefix, stop, &format!("{isa:?}, {bytes} bytes"));
            }
        }
    }

    #[test]
    fn utf8_text_converts_whole_into_utf16_and_utf32_in_either_order() {
        for isa in Isa::all().into_iter().flatten() {
            converts_whole(isa);
        }
    }

    fn converts_whole(isa: Isa) {
        let shape = shape();
        let utf16 = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        // Characters drawn from ranges: ASCII, Cyrillic, CJK, emoji, and
        // mixes of them (every window shape of the kernel's steps).
        let ranges: [&[(u32, u32)]; 6] = [
            &[(0x20, 0x7E), (0x1_F600, 0x1_F64F)],
            &[(0x4E00, 0x9FFF), (0x1_F300, 0x1_F5FF)],
            &[(0x410, 0x44F), (0x20, 0x7E)],
            &[(0x20, 0x7E), (0x410, 0x44F), (0x4E00, 0x9FFF), (0x1_0000, 0x10_FFFF), (0xE000, 0xFFFF)],
            &[(0x1_F600, 0x1_F64F)],
            &[(0x20, 0x7E), (0x410, 0x44F), (0x4E00, 0x9FFF), (0x80, 0x7FF), (0xE000, 0xFFFF)],
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for (m, ranges) in ranges.iter().enumerate() {
            let text: String = (0..3000)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let (lo, hi) = ranges[(x >> 40) as usize % ranges.len()];
                    char::from_u32(lo + (x >> 8) as u32 % (hi - lo + 1)).unwrap_or('?')
                })
                .collect();
            for (bytes, single, pair) in
                [(2, [(0, 0xD7FF), (0xE000, 0xFFFF)], Some(&utf16)), (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)], None)]
            {
                for big_endian in [false, true] {
                    let units = Units { bytes, big_endian, single };
                    for skip in 0..4 {
                        let input = &text.as_bytes()[text.char_indices().nth(skip).map_or(0, |(at, _)| at)..];
                        let mut out = vec![9];
                        #[cfg(feature = "std")]
                        lanes::ONE_BY_ONE.with(|n| n.set(0));
                        #[cfg(all(feature = "std", target_arch = "x86_64"))]
                        avx512::GENERAL.with(|n| n.set(0));
                        #[cfg(all(feature = "std", target_arch = "x86_64"))]
                        x86::REFUSED.with(|n| n.set(0));
                        let taken = decode_to_units(isa, &shape, &units, pair, input, &mut out);
                        // Only the last units, which the 16-byte kernels
                        // leave, go one by one; with AVX-512, every window
                        // but the last few (of the padded copy of the last
                        // units, whose too long sequence stops the kernel)
                        // is one of those that decode at every unit.
                        #[cfg(feature = "std")]
                        assert!(lanes::ONE_BY_ONE.with(|n| n.get()) <= 80 + 3, "{isa:?}: ranges {m}");
                        #[cfg(all(feature = "std", target_arch = "x86_64"))]
                        assert!(avx512::GENERAL.with(|n| n.get()) <= 3, "{isa:?}: ranges {m}, {bytes} bytes");
                        // With AVX2, text without sequences of four units
                        // goes through the window that decodes at every unit.
                        #[cfg(all(feature = "std", target_arch = "x86_64"))]
                        if isa == Isa::Avx2 && ranges.iter().all(|&(_, hi)| hi <= 0xFFFF) {
                            assert_eq!(x86::REFUSED.with(|n| n.get()), 0, "{isa:?}: ranges {m}, {bytes} bytes");
                        }
                        let prefix = reference(&shape, &units, pair, &input[..taken]);
                        let case = format!("{isa:?}: ranges {m}, {bytes} bytes, big {big_endian}, skip {skip}");
                        crate::shared::check_run(true, taken, &out, prefix, input.len(), &case);
                    }
                }
            }
        }
    }

    #[test]
    fn the_kernel_stores_nothing_past_four_bytes_per_byte_of_input() {
        // The AVX-512 windows store whole vectors past the units they write:
        // a mark after the room `decode_to_units` reserves must stay,
        // whatever the input's length and where its last units are.
        let shape = shape();
        let utf16 = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let mixes: [&[usize]; 6] = [&[1], &[1, 2], &[2], &[3], &[1, 4], &[1, 2, 3, 4]];
        for isa in Isa::all().into_iter().flatten() {
            for (mix, n) in mixes.iter().flat_map(|m| (0..150).map(move |n| (m, n))) {
                let input = text(n as u64, mix, n);
                for units in [utf16, Units { bytes: 4, ..utf16 }] {
                    let convert = |out: &mut Vec<u8>| {
                        decode_to_units(isa, &shape, &units, Some(&pair), &input, out);
                    };
                    assert!(crate::shared::stores_within(4 * input.len(), convert), "{isa:?} {mix:?} {n}");
                }
            }
        }
    }

    #[test]
    fn any_input_is_converted_within_bounds() {
        for isa in Isa::all().into_iter().flatten() {
            within_bounds(isa);
        }
    }

    fn within_bounds(isa: Isa) {
        let shape = shape();
        let utf16 = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let mut bytes = text(3, &[1, 2, 3, 4], 3000);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..400 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (x >> 33) as usize % bytes.len();
            bytes[at] = (x >> 20) as u8;
            if round % 50 == 0 {
                bytes[at..].iter_mut().take(100).for_each(|u| *u = 0x80 + (round % 64) as u8);
            }
            for units in [utf16, Units { bytes: 4, ..utf16 }] {
                let mut out = Vec::new();
                let taken = decode_to_units(isa, &shape, &units, Some(&pair), &bytes, &mut out);
                assert!(taken <= bytes.len() && out.len() <= 4 * taken, "round {round}");
            }
        }
    }
}
