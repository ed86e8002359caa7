//! Converting 16- or 32-bit code units (UTF-16, UTF-32) straight into the
//! units of a codec whose encoder writes values as UTF-8 does, in one pass
//! that also checks the source: the conversion engine's fast path from the
//! wide-unit codecs to the UTF-8 family.
//!
//! The source is described by its [`Units`] (the code units that are values
//! of themselves) and its [`Pair`] (two units that make one value: UTF-16's
//! surrogates); the target by its [`ByteForms`]: for sequences of one to
//! four units, the values each length writes (consecutive ranges, shortest
//! first), the lead unit `lead[n] + (v >> 6(n−1))` and the continuation units
//! `continuation + 6 bits`, which the compiler derives from the target's
//! description and proves bit by bit against its encoder.
//!
//! The AVX-512 kernel reads sixteen code units at a time as 32-bit lanes,
//! with the sixteen after each one (for the second unit of a pair). It keeps
//! the lanes up to the first unit that is neither a single unit nor half of a
//! whole pair, and up to the first value the target does not write as one of
//! the forms (which the caller converts, or reports). Each value's length
//! comes from three comparisons; its units are made with variable shifts and
//! one lookup of the lead's base by length, laid out four bytes to a lane,
//! and one byte compress (VBMI2) packs the lanes' first `n` bytes.
//!
//! Text without errors mostly takes a faster step (`short.rs`): thirty-two
//! units in 16-bit lanes at once (32-bit units packed where all are below
//! 10000), when each is a single unit the forms write in at most three bytes
//! or half of a pair they write in four.
//! Each lane makes its lead and digits with fixed shifts (a pair's first
//! half the value's lead and first digit, its second half the other two),
//! and one or two byte compresses pack them. Thirty-two ASCII units in a row
//! are narrowed without any of it.
//!
//! With 16-byte vectors (SSE4.1, AVX2, NEON: `kernel.rs`, instantiated by
//! `x86.rs` and `neon.rs`), four units a group in 32-bit lanes, each lane
//! deciding alone from its unit and its neighbours whether it is a single
//! unit or which half of a pair, its length from three comparisons, its
//! bytes as `[lead, c2, c1, c0]` so that its form is its last `n` bytes, and
//! one byte shuffle (by the four lengths) packs them. Eight single units
//! the target writes in one or two units (Cyrillic, Greek, …) are made in
//! 16-bit lanes, eight at a time, with one shuffle; eight it writes in one
//! or three (Hangul or Han between spaces and ASCII punctuation) in 16-bit
//! lanes too, leads apart from digits, interleaved into the groups' bytes
//! and packed four at a time; 32-bit units below 10000 are packed to 16
//! bits and take the same steps. With AVX2, sixteen
//! single units are told apart in one 32-byte vector and the forms of eight
//! are made in one (`x86.rs`'s `avx2::wide`, the same `forms` over wider
//! lanes), where SSE4.1 makes them four at a time. What a group
//! refuses, the first value and the last units are converted one at a time
//! (`lanes.rs`), so a run stops exactly where the AVX-512 kernel's does.
//!
//! Input that is not valid stops the kernel before the first unit it cannot
//! read; the kernel never reads or writes out of bounds: it writes at most
//! four bytes per code unit taken.
//!
//! ```
//! use placemat_simd::{encode_from_units, ByteForms, Isa, Pair, Units};
//! let utf16le = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
//! let utf8 = ByteForms {
//!     lengths: 4,
//!     first: 0,
//!     last: [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF],
//!     lead: [0, 0xC0, 0xE0, 0xF0],
//!     continuation: 0x80,
//!     allowed: [(0, 0xD7FF), (0xE000, 0x10_FFFF)],
//! };
//! let text = "Ünïcödé, 漢字 and 🎉 ".repeat(20);
//! let units: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| encode_from_units(isa, &utf16le, Some(&pair), &utf8, &units, &mut out));
//! // The text, or a prefix of it at a value boundary, as UTF-8 (none
//! // without SIMD).
//! let prefix: Vec<u16> = units[..taken].chunks(2).map(|u| u16::from_le_bytes([u[0], u[1]])).collect();
//! assert_eq!(out, String::from_utf16(&prefix).unwrap().as_bytes());
//! ```

use alloc::vec::Vec;

use crate::{Isa, Pair, Shape, Units};

/// How a target writes values as sequences of one to four units, as UTF-8
/// does: a value of `n` units (`n` in `1..=lengths`) lies in
/// `first..=last[0]` for `n = 1`, `last[n − 2] + 1 ..= last[n − 1]` for the
/// others; its lead unit is `lead[n − 1] + (v >> 6(n − 1))` and its `k`-th
/// continuation unit `continuation + (v >> 6(n − 1 − k) & 63)`. Values
/// outside `allowed` (two ranges, one repeated when there is one) are not
/// written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ByteForms {
    /// How many lengths the forms cover, 1 to 4.
    pub lengths: u8,
    /// The least value of the one-unit form.
    pub first: u32,
    /// The greatest value of each length.
    pub last: [u32; 4],
    /// What each length's lead unit is worth more than the value's top bits.
    pub lead: [u8; 4],
    /// The continuation units' base: its low six bits are zero.
    pub continuation: u8,
    /// The values the target accepts (two inclusive ranges, or one repeated).
    pub allowed: [(u32, u32); 2],
}

impl ByteForms {
    /// The units `v` is written as (`None` when the forms do not write it):
    /// the definition the kernel is tested against.
    pub fn units(&self, v: u32) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.push(v, &mut out).then_some(out)
    }

    /// Appends the units `v` is written as; `false` (nothing appended) when
    /// the forms do not write it.
    pub fn push(&self, v: u32, out: &mut Vec<u8>) -> bool {
        let in_allowed = self.allowed.iter().any(|&(lo, hi)| lo <= v && v <= hi);
        let Some(n) = (0..usize::from(self.lengths)).find(|&n| v <= self.last[n]).map(|n| n + 1) else {
            return false;
        };
        if !in_allowed || v < self.first {
            return false;
        }
        out.push(self.lead[n - 1].wrapping_add((v >> (6 * (n - 1))) as u8));
        out.extend((1..n).map(|k| self.continuation + (v >> (6 * (n - 1 - k)) & 63) as u8));
        true
    }

    /// The decoding shape of these forms ([`Shape`]): continuation units
    /// `continuation + 6 bits`, each length's lead worth itself less its
    /// `lead`; text of the forms decodes with it by the kernel into code
    /// units (`decode_to_units`). `None` for forms the kernels cannot run.
    ///
    /// ```
    /// use placemat_simd::ByteForms;
    /// let utf8 = ByteForms {
    ///     lengths: 4, first: 0, last: [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF],
    ///     lead: [0x00, 0xC0, 0xE0, 0xF0], continuation: 0x80, allowed: [(0, 0xD7FF), (0xE000, 0x10_FFFF)],
    /// };
    /// let shape = utf8.shape().unwrap();
    /// assert_eq!((shape.continuation, &shape.lead_base[..5]), ((0x80, 0xBF), &[0, 0, 0xC0, 0xE0, 0xF0][..]));
    /// assert_eq!(shape.value("é".as_bytes()), 0xE9);
    /// ```
    pub fn shape(&self) -> Option<Shape> {
        if !self.usable() {
            return None;
        }
        let n = usize::from(self.lengths);
        let mut lead_base = [0u8; 16];
        lead_base[1..=n].copy_from_slice(&self.lead[..n]);
        let shape = Shape { continuation: (self.continuation, self.continuation + 63), lead_base };
        shape.check().ok().map(|()| shape)
    }

    /// Whether the forms have sequences of more than one unit, as the UTF-8
    /// family's: forms of one unit alone (an integer codec's shortest form,
    /// QUIC's values below 64) hold too few values of text for the kernel to
    /// pay, where such a codec's own bulk encoder writes every value.
    pub const fn multi_unit(&self) -> bool {
        self.lengths >= 2
    }

    /// Whether the kernel can run on these forms: 1 to 4 lengths whose
    /// ranges rise, a continuation base with its low six bits clear.
    const fn usable(&self) -> bool {
        let n = self.lengths as usize;
        if n == 0 || n > 4 || self.continuation & 63 != 0 || self.first > self.last[0] {
            return false;
        }
        let mut k = 1;
        while k < n {
            if self.last[k] <= self.last[k - 1] {
                return false;
            }
            k += 1;
        }
        true
    }
}

/// Converts a prefix of `input`, code units as `units` and `pair` read them,
/// into the units `forms` writes, appending them to `out`; returns the bytes
/// of `input` taken: at a value boundary, before the first unit that is no
/// single unit nor half of a whole pair and before the first value `forms`
/// does not write (with AVX-512, for a source all of whose units are single
/// units, the last 34 units or so are left to the caller). Takes nothing for
/// a width other than 2 and 4 or forms the kernel cannot run
/// ([`ByteForms`]), and ignores a pair with 4-byte units. Runs on every
/// instruction set [`Isa::all`] can list: AVX-512's 64-byte kernel, the
/// 16-byte one on the others.
/// A caller that converts many pieces makes the kernel once instead
/// ([`UnitsEncoder`]).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn encode_from_units(
    isa: Isa,
    units: &Units,
    pair: Option<&Pair>,
    forms: &ByteForms,
    input: &[u8],
    out: &mut Vec<u8>,
) -> usize {
    UnitsEncoder::new(isa, units, pair, forms).map_or(0, |kernel| kernel.encode(input, out))
}

/// The kernel of [`encode_from_units`] made once for a source and a target:
/// its constants (about two kilobytes of vectors) are built by
/// [`UnitsEncoder::new`] and kept, so that converting a stream piece by
/// piece (4 KiB pushes into a transcoder) does not build them per piece.
///
/// ```
/// use placemat_simd::{ByteForms, Isa, Pair, Units, UnitsEncoder};
/// let utf16le = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
/// let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
/// let utf8 = ByteForms {
///     lengths: 4, first: 0, last: [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF],
///     lead: [0x00, 0xC0, 0xE0, 0xF0], continuation: 0x80, allowed: [(0, 0xD7FF), (0xE000, 0x10_FFFF)],
/// };
/// let text: Vec<u8> = "naïve café, ".repeat(40).encode_utf16().flat_map(u16::to_le_bytes).collect();
/// if let Some(kernel) = Isa::detect().and_then(|isa| UnitsEncoder::new(isa, &utf16le, Some(&pair), &utf8)) {
///     let mut out = Vec::new();
///     let mut taken = 0;
///     for piece in text.chunks(128) {
///         taken += kernel.encode(piece, &mut out);
///     }
///     // Each piece is taken whole up to its last units, which the caller converts.
///     assert!(taken > 0 && std::str::from_utf8(&out).is_ok());
/// }
/// ```
pub struct UnitsEncoder {
    kernel: Kernel,
}

/// The kernel an encoder runs, with its constants.
enum Kernel {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Avx512(alloc::boxed::Box<avx512::Consts>),
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Sse41(lanes::Plan, alloc::boxed::Box<x86::sse41::Consts>),
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Avx2(lanes::Plan, alloc::boxed::Box<x86::avx2::Consts>),
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    Neon(lanes::Plan, alloc::boxed::Box<neon::Consts>),
}

impl UnitsEncoder {
    /// The kernel for `units`, `pair` and `forms`, as [`encode_from_units`]
    /// reads them; `None` where it would take nothing (a width other than 2
    /// and 4, forms the kernel cannot run, and for the 16-byte kernels a
    /// pair whose units are also single units).
    ///
    /// Panics if `isa` is not one [`Isa::all`] lists.
    pub fn new(isa: Isa, units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Option<UnitsEncoder> {
        assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
        let units = units.normalised()?;
        if !forms.usable() {
            return None;
        }
        let pair = pair.filter(|p| units.bytes == 2 && p.fits_16_bits());
        Self::made(isa, &units, pair, forms).map(|kernel| UnitsEncoder { kernel })
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    fn made(isa: Isa, units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Option<Kernel> {
        if isa == Isa::Avx512 {
            // SAFETY: `new` checked that the machine has AVX-512 (with BMI2).
            let consts = alloc::boxed::Box::new(unsafe { avx512::consts(units, pair, forms) });
            return Some(Kernel::Avx512(consts));
        }
        let plan = lanes::Plan::new(units, pair, forms)?;
        // SAFETY (both): `new` checked that the machine has `isa`.
        Some(match isa {
            Isa::Avx2 => Kernel::Avx2(plan, alloc::boxed::Box::new(unsafe { x86::avx2::consts(&plan) })),
            _ => Kernel::Sse41(plan, alloc::boxed::Box::new(unsafe { x86::sse41::consts(&plan) })),
        })
    }

    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    fn made(_: Isa, units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Option<Kernel> {
        let plan = lanes::Plan::new(units, pair, forms)?;
        // SAFETY: the target has NEON.
        Some(Kernel::Neon(plan, alloc::boxed::Box::new(unsafe { neon::consts(&plan) })))
    }

    #[cfg(not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    fn made(_: Isa, _: &Units, _: Option<&Pair>, _: &ByteForms) -> Option<Kernel> {
        None
    }

    /// [`encode_from_units`] with the kernel made: the bytes of `input`
    /// taken, their conversion appended to `out`.
    pub fn encode(&self, input: &[u8], out: &mut Vec<u8>) -> usize {
        match &self.kernel {
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx512(consts) => {
                // At most four bytes per code unit taken, each two bytes or more.
                out.reserve(2 * input.len());
                let start = out.len();
                // SAFETY: `new` checked that the machine has AVX-512 (with
                // BMI2) and made the constants from units
                // of a width of 2 or 4 (with a pair only for 2, fitting 16
                // bits) and usable forms; `out` has room for `2 * input.len()`
                // more bytes.
                let (taken, written) = unsafe { avx512::convert(consts, input, out.as_mut_ptr().add(start)) };
                // SAFETY: the kernel initialised `written <= 2 * taken` bytes
                // after `start`, within the capacity reserved.
                unsafe { out.set_len(start + written) };
                taken
            }
            // SAFETY (the three kernels): `new` checked that the machine has
            // the instruction set and made the constants from the plan;
            // `drive` gives each a piece whose first unit is readable before
            // the units it converts, and room for four bytes per unit.
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Sse41(plan, c) => lanes::drive(plan, input, out, |p, at| unsafe { x86::sse41::convert(c, p, at) }),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx2(plan, c) => lanes::drive(plan, input, out, |p, at| unsafe { x86::avx2::convert(c, p, at) }),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon(plan, c) => lanes::drive(plan, input, out, |p, at| unsafe { neon::convert(c, p, at) }),
            // (No kernel on this target: `new` never makes an encoder.)
            #[cfg(not(any(
                all(target_arch = "x86_64", target_feature = "sse2"),
                all(target_arch = "aarch64", target_feature = "neon")
            )))]
            _ => {
                let _ = (input, out);
                0
            }
        }
    }
}

/// A code unit the kernels stop at, however many follow it, as its bytes in
/// the source's order (the first `units.bytes` of four): no single unit and
/// no pair's second unit (so it completes no pair, and a pair's first unit
/// followed by it starts none). The kernels convert the last units of their
/// input from a copy followed by such units.
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
fn stop_unit(units: &Units, pair: Option<&Pair>) -> Option<[u8; 4]> {
    let top = if units.bytes == 2 { 0xFFFF } else { u32::MAX };
    let taken = |u: u32| {
        units.single.iter().any(|&(lo, hi)| lo <= u && u <= hi)
            || pair.is_some_and(|p| p.low <= u && u - p.low < 1 << p.low_bits)
    };
    let high = pair.map_or(top, |p| p.high);
    let stop = [top, top - 1, high, 0].into_iter().find(|&u| !taken(u))?;
    let b = units.bytes;
    Some(if units.big_endian { (stop << (32 - 8 * b)).to_be_bytes() } else { stop.to_le_bytes() })
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
#[macro_use]
mod kernel;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod lanes;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod short;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86;

#[cfg(test)]
mod tests {
    use super::*;

    const UTF16: Pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };

    fn utf8_like(lengths: u8, first: u32, allowed: [(u32, u32); 2]) -> ByteForms {
        let last = [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF];
        ByteForms { lengths, first, last, lead: [0, 0xC0, 0xE0, 0xF0], continuation: 0x80, allowed }
    }

    /// The definition: units read one by one (a single unit, or a high unit
    /// and a low one), each value written by `forms.units`, up to the first
    /// that fails; the bytes of input converted and the output.
    fn reference(units: &Units, pair: Option<&Pair>, forms: &ByteForms, input: &[u8]) -> (usize, Vec<u8>) {
        let b = units.bytes;
        let read = |at: usize| input.get(at * b..at * b + b).map(|bytes| units.read(bytes));
        let top = if b == 2 { 0xFFFF } else { u32::MAX };
        let single = |u: u32| units.single.iter().any(|&(lo, hi)| lo <= u && u <= hi.min(top));
        let (mut at, mut out) = (0, Vec::new());
        while let Some(u) = read(at) {
            let (v, len) = if single(u) {
                (u, 1)
            } else {
                let joined = pair.filter(|_| b == 2).and_then(|p| p.join(u, read(at + 1)?));
                match joined {
                    Some(v) => (v, 2),
                    None => break,
                }
            };
            let Some(bytes) = forms.units(v) else { break };
            out.extend(bytes);
            at += len;
        }
        (at * b, out)
    }

    /// Random values, mostly of the given bit widths, now and then (with
    /// `errors`) a lone surrogate or a value past U+10FFFF, as code units.
    fn text(seed: u64, widths: &[u32], units: &Units, count: usize, errors: bool) -> Vec<u8> {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        let put = |u: u32, out: &mut Vec<u8>| match (units.bytes, units.big_endian) {
            (2, false) => out.extend((u as u16).to_le_bytes()),
            (2, true) => out.extend((u as u16).to_be_bytes()),
            (_, false) => out.extend(u.to_le_bytes()),
            (_, true) => out.extend(u.to_be_bytes()),
        };
        for _ in 0..count {
            let r = next();
            let v = match r % 500 {
                0 if errors => 0xD800 + (r >> 20) as u32 % 0x800,
                1 if errors => 0x11_0000 + (r >> 20) as u32 % 0x100,
                _ => match widths[(r >> 9) as usize % widths.len()] {
                    // Width 0: a value above FFFF, a pair in UTF-16.
                    0 => 0x1_0000 + (r >> 24) as u32 % 0x10_0000,
                    w => (r >> 24) as u32 & ((1 << w) - 1),
                },
            };
            // (Without errors, no lone surrogate either.)
            let v = if !errors && (0xD800..0xE000).contains(&v) { v - 0x800 } else { v };
            match char::from_u32(v).filter(|_| units.bytes == 2) {
                Some(c) => c.encode_utf16(&mut [0; 2]).iter().for_each(|&u| put(u32::from(u), &mut out)),
                None => put(v, &mut out),
            }
        }
        out
    }

    #[test]
    fn the_kernel_agrees_with_the_definition_for_every_source_and_target() {
        for isa in Isa::all().into_iter().flatten() {
            agrees_with_the_definition(isa);
        }
    }

    fn agrees_with_the_definition(isa: Isa) {
        let scalar = [(0, 0xD7FF), (0xE000, 0x10_FFFF)];
        let bmp = [(0, 0xD7FF), (0xE000, 0xFFFF)];
        let targets = [
            utf8_like(4, 0, scalar),
            utf8_like(3, 0, bmp),
            utf8_like(4, 1, scalar),
            utf8_like(2, 0x20, [(0, u32::MAX); 2]),
            ByteForms {
                lengths: 1,
                first: 0,
                last: [0xFF, 0, 0, 0],
                lead: [0; 4],
                continuation: 0,
                allowed: [(0, 0xFF); 2],
            },
        ];
        // (Width 0 stands for values above FFFF, 21 for any of 21 bits.)
        let mixes: [&[u32]; 9] =
            [&[7], &[11], &[16], &[21], &[7, 7, 7, 11, 16, 21], &[7, 0], &[11, 11, 11, 0], &[16, 0], &[7, 16, 16]];
        for (t, forms) in targets.iter().enumerate() {
            for (bytes, single) in [(2, bmp), (4, scalar)] {
                for big_endian in [false, true] {
                    let units = Units { bytes, big_endian, single };
                    for (m, widths) in mixes.iter().enumerate() {
                        let input = text(m as u64 + 3, widths, &units, 2000, true);
                        for skip in [0, 1, 3] {
                            let input = &input[skip * bytes..];
                            let mut out = vec![5];
                            let taken = encode_from_units(isa, &units, Some(&UTF16), forms, input, &mut out);
                            // It stops exactly at the first unit it cannot
                            // convert (a pair's first unit there), or at the end.
                            let (stop, _) = reference(&units, Some(&UTF16), forms, input);
                            let prefix = reference(&units, Some(&UTF16), forms, &input[..taken]);
                            let case =
                                format!("{isa:?}: target {t}, {bytes} bytes, big {big_endian}, mix {m}, skip {skip}");
                            crate::shared::check_run(true, taken, &out, prefix, stop, &case);
                        }
                    }
                }
            }
        }
    }

    /// Valid text of every mix goes through the kernel but for its first
    /// value: its last units too, from a copy padded with zeros.
    #[cfg(feature = "std")]
    #[test]
    fn valid_text_is_the_kernels_work() {
        let forms = utf8_like(4, 0, [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
        let mixes: [&[u32]; 7] = [&[7], &[11], &[16], &[7, 7, 7, 11, 16, 0], &[7, 0], &[0], &[7, 16, 16]];
        for isa in Isa::all().into_iter().flatten().filter(|&isa| isa != Isa::Avx512) {
            for (bytes, single) in [(2, [(0, 0xD7FF), (0xE000, 0xFFFF)]), (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)])] {
                for big_endian in [false, true] {
                    let units = Units { bytes, big_endian, single };
                    for (m, widths) in mixes.iter().enumerate() {
                        let input = text(m as u64 + 11, widths, &units, 3000, false);
                        lanes::ONE_BY_ONE.with(|n| n.set(0));
                        #[cfg(target_arch = "x86_64")]
                        x86::avx2::WIDE.with(|n| n.set(0));
                        #[cfg(target_arch = "x86_64")]
                        x86::avx2::GROUPS.with(|n| n.set(0));
                        #[cfg(target_arch = "x86_64")]
                        x86::avx2::BYTES32.with(|n| n.set(0));
                        #[cfg(target_arch = "x86_64")]
                        x86::avx2::ONE_THREES.with(|n| n.set(0));
                        let mut out = vec![5];
                        let taken = encode_from_units(isa, &units, Some(&UTF16), &forms, &input, &mut out);
                        let case = format!("{isa:?}: {bytes} bytes, big {big_endian}, mix {m}");
                        let prefix = reference(&units, Some(&UTF16), &forms, &input[..taken]);
                        crate::shared::check_run(true, taken, &out, prefix, input.len(), &case);
                        let by_one = lanes::ONE_BY_ONE.with(|n| n.get());
                        // The first value (a pair's two units at most): the
                        // last units go through the kernel from a copy
                        // padded with zeros, which it takes with them.
                        assert!(by_one <= 2, "{case}: {by_one} units one by one");
                        // With AVX2, sixteen single units of three bytes go
                        // through 16-bit lanes, and blocks with a unit of
                        // two bytes eight at a time through 32-byte vectors.
                        #[cfg(target_arch = "x86_64")]
                        if isa == Isa::Avx2 && widths == &[16] {
                            let wide = x86::avx2::WIDE.with(|n| n.get());
                            let steps = x86::avx2::ONE_THREES.with(|n| n.get());
                            let case = format!("{case}: {wide} groups of eight, {steps} of one and three units");
                            // Sixteen values of 16 bits all above 7FF: 3 % each below.
                            assert!(steps > 3000 / 16 / 4 && wide > 0, "{case}");
                        }
                        // ASCII in 32-bit units, sixteen a step in 32-byte vectors.
                        #[cfg(target_arch = "x86_64")]
                        if isa == Isa::Avx2 && bytes == 4 && widths == &[7] {
                            let steps = x86::avx2::BYTES32.with(|n| n.get());
                            assert!(steps > 3000 / 16 / 2, "{case}: {steps} steps of 32-bit units narrowed to bytes");
                        }
                        // Units of one and three units (ASCII and Hangul),
                        // sixteen a step in 16-bit lanes.
                        #[cfg(target_arch = "x86_64")]
                        if isa == Isa::Avx2 && widths == &[7, 16, 16] {
                            let steps = x86::avx2::ONE_THREES.with(|n| n.get());
                            assert!(steps > 3000 / 16 / 4, "{case}: {steps} steps of one and three units");
                        }
                        // And 16-bit units of pairs, eight at a time too.
                        #[cfg(target_arch = "x86_64")]
                        if isa == Isa::Avx2 && bytes == 2 && widths == &[0] {
                            let groups = x86::avx2::GROUPS.with(|n| n.get());
                            assert!(groups > 3000 / 8 / 2, "{case}: {groups} groups of pairs in 32-byte vectors");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_pair_cut_by_the_end_of_the_input_is_left() {
        for isa in Isa::all().into_iter().flatten() {
            pair_cut_by_the_end(isa);
        }
    }

    fn pair_cut_by_the_end(isa: Isa) {
        let forms = utf8_like(4, 0, [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
        let units = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        for len in 1..80 {
            // `len` letters, then the first half of a pair.
            let mut input: Vec<u8> = "é".repeat(len).encode_utf16().flat_map(u16::to_le_bytes).collect();
            input.extend(0xD83Du16.to_le_bytes());
            let mut out = Vec::new();
            let taken = encode_from_units(isa, &units, Some(&UTF16), &forms, &input, &mut out);
            assert_eq!((taken, out.len()), (2 * len, 2 * len), "{isa:?}: {len} letters");
        }
    }

    #[test]
    fn the_kernel_stores_nothing_past_two_bytes_per_byte_of_input() {
        // The AVX-512 step stores whole vectors past the bytes it writes: a
        // mark after the room `encode` reserves must stay, whatever the
        // input's length and where its last units are (the padded copy).
        let forms = utf8_like(4, 0, [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
        let texts: [&[u32]; 5] = [&[0x430], &[0x4E2D], &[0x430, 0x61], &[0x1F600, 0x4E2D, 0x61], &[0x7FF, 0x800]];
        for isa in Isa::all().into_iter().flatten() {
            for (width, single) in [(2, [(0, 0xD7FF), (0xE000, 0xFFFF)]), (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)])] {
                let units = Units { bytes: width, big_endian: false, single };
                for (text, len) in texts.iter().flat_map(|t| (0..140).map(move |n| (t, n))) {
                    let values = text.iter().copied().cycle().take(len);
                    let input: Vec<u8> = if width == 2 {
                        values
                            .flat_map(|v| char::from_u32(v).unwrap().encode_utf16(&mut [0; 2]).to_vec())
                            .flat_map(u16::to_le_bytes)
                            .collect()
                    } else {
                        values.flat_map(u32::to_le_bytes).collect()
                    };
                    let convert = |out: &mut Vec<u8>| {
                        encode_from_units(isa, &units, Some(&UTF16), &forms, &input, out);
                    };
                    assert!(crate::shared::stores_within(2 * input.len(), convert), "{isa:?} {width} {text:X?} {len}");
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
        let forms = utf8_like(4, 0, [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut bytes: Vec<u8> = (0..5000).map(|_| 0x20).collect();
        for round in 0..300 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (x >> 33) as usize % bytes.len();
            bytes[at] = (x >> 20) as u8;
            for (width, single) in [(2, [(0, 0xD7FF), (0xE000, 0xFFFF)]), (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)])] {
                let units = Units { bytes: width, big_endian: round % 2 == 0, single };
                let mut out = Vec::new();
                let taken = encode_from_units(isa, &units, Some(&UTF16), &forms, &bytes, &mut out);
                assert!(taken <= bytes.len() && out.len() <= 2 * taken, "round {round}");
            }
        }
    }
}
