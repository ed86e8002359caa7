//! The types the validator (`validate/`) and the decoder (`decode/`) share,
//! and those their kernels need: the instruction sets ([`Isa`]), the
//! validator's [`Tables`] with the invariants its kernels rely on and its
//! [`CHUNK`], the decoder's [`Shape`] and the words it writes ([`Word`]).
//! This file imports nothing from the rest of the crate, so that every module
//! takes these from here and none imports a module that imports it back.

/// The kernels check for errors once per chunk of this many bytes.
pub const CHUNK: usize = 64;

/// How many bits each byte has set: the lanes a byte shuffle's row keeps,
/// for kernels that may not ask for `popcnt` (AVX2 does not imply it).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) static ONES: [u8; 256] = ones();

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const fn ones() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u32).count_ones() as u8;
        byte += 1;
    }
    table
}

/// An instruction set the kernel is built for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// x86-64 with AVX-512 F, BW, VL, VBMI and VBMI2 (and AVX2, BMI2, POPCNT): 64-byte
    /// vectors for the conversion kernel ([`crate::decode_to_units`]); the
    /// validator and the other kernels run their AVX2 code on it.
    Avx512,
    /// x86-64 with SSSE3 and SSE4.1: 16-byte vectors.
    Sse41,
    /// x86-64 with AVX2: 32-byte vectors.
    Avx2,
    /// aarch64 with NEON: 16-byte vectors.
    Neon,
}

impl Isa {
    /// The best instruction set this machine has, or `None` (also with the
    /// `no-simd` feature, and under Miri). With `std`, x86-64 is probed at run
    /// time, once, and capped by `PLACEMAT_ISA` ([`Isa::below`]); without
    /// it, only what the target enables at compile time counts.
    #[inline]
    pub fn detect() -> Option<Isa> {
        Isa::all().into_iter().flatten().next()
    }

    /// Every instruction set this machine has, best first, for tests and
    /// benchmarks that compare them.
    #[inline]
    pub fn all() -> [Option<Isa>; 4] {
        if cfg!(any(feature = "no-simd", miri)) {
            return [None; 4];
        }
        // (One probe, read once: the kernels' callers ask at every call.)
        let bits = machine();
        [Isa::Avx512, Isa::Avx2, Isa::Sse41, Isa::Neon].map(|isa| (bits >> isa as u8 & 1 == 1).then_some(isa))
    }

    /// The instruction sets at or below the one `name`d ([`Isa::name`], or
    /// `none` for none), which the environment variable `PLACEMAT_ISA` caps
    /// the probe to: on an AVX-512 machine, `PLACEMAT_ISA=avx2` runs the
    /// kernels as a machine with AVX2 would, for tests and benchmarks. An
    /// unknown name caps nothing.
    pub fn below(name: &str) -> Option<&'static [Isa]> {
        match name {
            "avx512" => Some(&[Isa::Avx512, Isa::Avx2, Isa::Sse41]),
            "avx2" => Some(&[Isa::Avx2, Isa::Sse41]),
            "sse4.1" => Some(&[Isa::Sse41]),
            "neon" => Some(&[Isa::Neon]),
            "none" => Some(&[]),
            _ => None,
        }
    }

    /// The name used by `placemat bench` and the reports.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Avx512 => "avx512",
            Isa::Sse41 => "sse4.1",
            Isa::Avx2 => "avx2",
            Isa::Neon => "neon",
        }
    }
}

/// Whether this x86-64 machine has BMI1 and BMI2 (`tzcnt`, `blsr`, `pext`),
/// which the flagged-stream kernels of every width use beside their vectors
/// (AVX-512 includes them: [`Isa::Avx512`]).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "std"))]
pub(crate) fn has_bmi() -> bool {
    !cfg!(any(feature = "no-simd", miri))
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
}

/// Whether this x86-64 machine has BMI1 and BMI2 (without `std`: whether
/// the target enables them at compile time).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "std")))]
pub(crate) fn has_bmi() -> bool {
    !cfg!(any(feature = "no-simd", miri)) && cfg!(all(target_feature = "bmi1", target_feature = "bmi2"))
}

/// Bit `isa as u8` for each instruction set this machine has: probed once
/// per process (the kernels' callers ask at every call, some for a few
/// units), and bit 7 once probed.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "std"))]
#[inline]
fn machine() -> u8 {
    use core::sync::atomic::Ordering;
    match PROBED.load(Ordering::Relaxed) {
        0 => probe_machine(),
        bits => bits,
    }
}

/// [`machine`]'s bits, once probed.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "std"))]
static PROBED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Probes the machine and the environment for [`machine`], out of line: the
/// probe's code kept `machine` from being inlined into the callers that ask
/// at every call.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "std"))]
#[cold]
#[inline(never)]
fn probe_machine() -> u8 {
    use core::sync::atomic::Ordering;
    let all = [Isa::Avx512, Isa::Avx2, Isa::Sse41, Isa::Neon];
    let cap = std::env::var("PLACEMAT_ISA").ok().and_then(|name| Isa::below(&name));
    let bits = all.into_iter().filter(|&i| probe(i) && cap.is_none_or(|cap| cap.contains(&i)));
    let bits = bits.fold(0x80, |b, i| b | 1 << i as u8);
    PROBED.store(bits, Ordering::Relaxed);
    bits
}

/// Whether this machine has `isa`, asked of the processor.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "std"))]
fn probe(isa: Isa) -> bool {
    match isa {
        Isa::Avx512 => {
            probe(Isa::Avx2)
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("avx512vbmi2")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
        }
        Isa::Avx2 => std::is_x86_feature_detected!("avx2"),
        Isa::Sse41 => std::is_x86_feature_detected!("ssse3") && std::is_x86_feature_detected!("sse4.1"),
        Isa::Neon => false,
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "std")))]
fn has(isa: Isa) -> bool {
    match isa {
        Isa::Avx512 => cfg!(all(
            target_feature = "avx2",
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512vl",
            target_feature = "avx512vbmi",
            target_feature = "avx512vbmi2",
            target_feature = "bmi2"
        )),
        Isa::Avx2 => cfg!(target_feature = "avx2"),
        Isa::Sse41 => cfg!(all(target_feature = "ssse3", target_feature = "sse4.1")),
        Isa::Neon => false,
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn has(isa: Isa) -> bool {
    isa == Isa::Neon && cfg!(target_feature = "neon")
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn has(_: Isa) -> bool {
    false
}

/// [`machine`]'s bits where they are known at compile time.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2", feature = "std")))]
#[inline]
fn machine() -> u8 {
    let all = [Isa::Avx512, Isa::Avx2, Isa::Sse41, Isa::Neon];
    all.into_iter().filter(|&i| has(i)).fold(0x80, |b, i| b | 1 << i as u8)
}

/// The data of one codec's SIMD validator (the crate docs give the formula it
/// feeds). `placemat-compiler` derives it and proves that the formula accepts
/// exactly the codec's valid inputs; [`Tables::check`] checks only what the
/// kernels need to run safely and as documented.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tables {
    /// Error classes (bits 0–6) and the continuation bit (7) by the previous
    /// unit's high nibble.
    pub prev_high: [u8; 16],
    /// The same by the previous unit's low nibble.
    pub prev_low: [u8; 16],
    /// The same by the current unit's high nibble.
    pub cur_high: [u8; 16],
    /// The same by the current unit's low nibble, when some class needs it (as
    /// after FSS-UTF's `F8`, whose forbidden continuations end at `87`).
    pub cur_low: Option<[u8; 16]>,
    /// `thresholds[k]`, for `k` in `1..=need`: every valid unit at least this
    /// large is a lead requiring `k` or more continuation units, and no unit
    /// below it is one. Entry 0 and entries past `need` are unused (`FF`).
    pub thresholds: [u8; 16],
    /// The most continuation units a lead requires, `1..=15`.
    pub need: u8,
    /// The unit assumed before the input and after its end: a single-unit value
    /// that may start and end any sequence of valid ones.
    pub start: u8,
    /// Units `00`–`7F` are single-unit values that any complete sequence may
    /// precede: a 64-byte chunk of them only needs the sequence before it to be
    /// complete.
    pub ascii: bool,
    /// When set, bit 7 of the four tables is an eighth error class, and
    /// continuation units are `80` up to (not including) this unit, told by
    /// a comparison: for codecs whose forbidden pairs need eight classes.
    pub continuation_end: Option<u8>,
    /// When set, the smallest unit that may follow each of `F0`–`FF` (by low
    /// nibble; 0 for none): a smaller one is an error. The overlong forms of
    /// the 1992 encodings' long leads (`F8 80`–`F8 87`, `FC 80`–`FC 83`, …)
    /// are such a staircase, which would otherwise take one class per step.
    /// The kernels test floors only in chunks with a unit from
    /// [`Tables::floored_from`] up (or a lead of five units or more).
    pub floor: Option<[u8; 16]>,
    /// An error is flagged at most `restart - 1` units after the unit that
    /// makes the input invalid, so the exact error lies after the last
    /// sequence boundary before `chunk - restart` (strictly before that unit,
    /// which a restart must not skip).
    pub restart: u8,
}

impl Tables {
    /// Whether `unit` is a continuation unit (bit 7 of its row, or below
    /// [`Tables::continuation_end`]).
    pub const fn is_continuation(&self, unit: u8) -> bool {
        match self.continuation_end {
            Some(end) => unit >= 0x80 && unit < end,
            None => self.row(unit) & 0x80 != 0,
        }
    }

    /// Whether `unit`, where it is valid, is a whole sequence of one unit: no
    /// continuation unit, and below every lead that requires continuation
    /// units ([`Tables::thresholds`]). A block of input may end after it
    /// without cutting a sequence.
    pub const fn ends_alone(&self, unit: u8) -> bool {
        !self.is_continuation(unit) && unit < self.thresholds[1]
    }

    /// The continuation units as `(first, last)`, if they are one run that
    /// starts at a multiple of 64 (what the SIMD decoding kernel's
    /// [`Shape`] needs).
    pub const fn continuation_run(&self) -> Option<(u8, u8)> {
        let (mut first, mut last, mut count) = (0u8, 0u8, 0usize);
        let mut u = 0;
        while u < 256 {
            if self.is_continuation(u as u8) {
                if count == 0 {
                    first = u as u8;
                }
                (last, count) = (u as u8, count + 1);
            }
            u += 1;
        }
        if count == 0 || first % 64 != 0 || (last - first) as usize + 1 != count {
            return None;
        }
        Some((first, last))
    }

    /// The smallest unit with a [`Tables::floor`] (above `00`), if any:
    /// chunks without it (nor a long lead) skip the floor test.
    pub const fn floored_from(&self) -> Option<u8> {
        let Some(floor) = &self.floor else { return None };
        let mut low = 0;
        while low < 16 {
            if floor[low] != 0 {
                return Some(0xF0 | low as u8);
            }
            low += 1;
        }
        None
    }

    /// The error classes the pair `p c` falls in (bits 0–6, and 7 with
    /// [`Tables::continuation_end`]), and whether it is two continuation
    /// units in a row.
    pub const fn pair(&self, p: u8, c: u8) -> (u8, bool) {
        let bits = self.row(p) & self.col(c);
        match self.continuation_end {
            Some(_) => (bits, self.is_continuation(p) && self.is_continuation(c)),
            None => (bits & 0x7F, bits & 0x80 != 0),
        }
    }

    /// The error classes and continuation bit of `unit` as the previous unit.
    pub const fn row(&self, unit: u8) -> u8 {
        self.prev_high[(unit >> 4) as usize] & self.prev_low[(unit & 15) as usize]
    }

    /// The error classes and continuation bit of `unit` as the current unit.
    pub const fn col(&self, unit: u8) -> u8 {
        let low = match &self.cur_low {
            Some(t) => t[(unit & 15) as usize],
            None => 0xFF,
        };
        self.cur_high[(unit >> 4) as usize] & low
    }

    /// The smallest unit that may follow `unit` ([`Tables::floor`]; 0 for no
    /// limit).
    pub const fn floor_of(&self, unit: u8) -> u8 {
        match &self.floor {
            Some(f) if unit >= 0xF0 => f[(unit & 15) as usize],
            _ => 0,
        }
    }

    /// The continuation units `unit` requires, as the thresholds tell: the
    /// largest `k` with `unit >= thresholds[k]`, or 0.
    pub const fn level(&self, unit: u8) -> u8 {
        let mut k = self.need;
        while k > 0 && unit < self.thresholds[k as usize] {
            k -= 1;
        }
        k
    }

    /// Checks what the kernels rely on: `need` in `1..=15`; thresholds that do
    /// not fall with `k`, with those the kernels compare by saturating
    /// subtraction (`k >= 2`) at least `80`; unused entries `FF`; a start unit
    /// that is no lead and no continuation.
    pub const fn check(&self) -> Result<(), &'static str> {
        if self.need == 0 || self.need > 15 {
            return Err("`need` must be in 1..=15");
        }
        if self.thresholds[0] != 0xFF {
            return Err("threshold 0 is unused and must be FF");
        }
        let mut k = 1;
        while k < 16 {
            let t = self.thresholds[k];
            if k > self.need as usize && t != 0xFF {
                return Err("thresholds past `need` must be FF");
            }
            if k >= 2 && k <= self.need as usize && (t < 0x80 || t < self.thresholds[k - 1]) {
                return Err("thresholds must not fall, and from k = 2 on must be at least 80");
            }
            k += 1;
        }
        if let Some(end) = self.continuation_end {
            if end <= 0x80 {
                return Err("`continuation_end` must be above 80");
            }
        }
        if self.level(self.start) != 0 || self.is_continuation(self.start) {
            return Err("the start unit must be no lead and no continuation");
        }
        Ok(())
    }
}

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

    /// `K(n)` of the docs of `decode/mod.rs` for `n` in `1..=4`, as the lanes
    /// of one vector.
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

/// A range test on the 16-bit lanes of an AVX-512 vector (the short steps
/// of both one-pass kernels): the low end and the width in every lane, the
/// high end cut at FFFF.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[derive(Copy, Clone)]
pub(crate) struct Range16(core::arch::x86_64::__m512i, core::arch::x86_64::__m512i);

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
impl Range16 {
    /// The test of `lo..=hi`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn new((lo, hi): (u32, u32)) -> Range16 {
        use core::arch::x86_64::_mm512_set1_epi16;
        let hi = hi.min(0xFFFF);
        Range16(_mm512_set1_epi16(lo as u16 as i16), _mm512_set1_epi16(hi.wrapping_sub(lo) as u16 as i16))
    }

    /// The lanes of `v` in the range.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn holds(self, v: core::arch::x86_64::__m512i) -> u32 {
        use core::arch::x86_64::{_mm512_cmple_epu16_mask, _mm512_sub_epi16};
        _mm512_cmple_epu16_mask(_mm512_sub_epi16(v, self.0), self.1)
    }
}

/// Whether `convert`, given an empty `Vec` with capacity past `room` bytes
/// (a mark in every byte of it), leaves the bytes past `room` as they were:
/// for the kernels that store whole vectors past what they write.
#[cfg(test)]
pub(crate) fn stores_within(room: usize, convert: impl FnOnce(&mut Vec<u8>)) -> bool {
    // The bytes past the room are initialised by `vec!` and kept by `clear`;
    // what `convert` writes there would change them.
    let mut out = vec![MARK; room + 512];
    out.clear();
    convert(&mut out);
    let written = out.len();
    // SAFETY: every byte of the capacity was initialised above.
    out.spare_capacity_mut()[room - written..].iter().all(|b| unsafe { b.assume_init() } == MARK)
}

/// The byte [`stores_within`] fills the memory past the room with.
#[cfg(test)]
const MARK: u8 = 0xA5;

/// What the one-pass kernels' tests (`to_units/`, `from_units/`) check of a
/// run: `out` (after one byte the test put there) is the definition's output
/// for the prefix taken, `prefix` (the units the definition converts of that
/// prefix, and its output), and the run stops exactly where the definition
/// stops on the whole input (`stop`) where the kernel `runs`, else takes
/// nothing.
#[cfg(test)]
pub(crate) fn check_run(
    runs: bool,
    taken: usize,
    out: &[u8],
    prefix: (usize, alloc::vec::Vec<u8>),
    stop: usize,
    case: &str,
) {
    assert_eq!((prefix.0, &out[1..]), (taken, &prefix.1[..]), "{case}");
    let want = if runs { stop } else { 0 };
    assert_eq!(taken, want, "{case}: where the run stops");
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn placemat_isa_names_the_sets_at_and_below_one() {
        for isa in [Isa::Avx512, Isa::Avx2, Isa::Sse41, Isa::Neon] {
            let below = Isa::below(isa.name()).unwrap();
            assert_eq!(below.first(), Some(&isa));
            // Best first, as `Isa::all` lists them.
            let order = [Isa::Avx512, Isa::Avx2, Isa::Sse41, Isa::Neon];
            let rank = |i: &Isa| order.iter().position(|o| o == i);
            assert!(below.windows(2).all(|w| rank(&w[0]) < rank(&w[1])), "{isa:?}");
        }
        assert_eq!(Isa::below("none"), Some(&[][..]));
        assert_eq!(Isa::below("avx-512"), None);
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
