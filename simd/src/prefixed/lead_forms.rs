//! Decoding by bit forms whose first unit names the form
//! ([`BitForms::leads`]): X/Open FSS-UTF, UTF-EBCDIC, Perl's extended
//! UTF-8, read 64 units at a time on AVX-512 by the length-prefix kernels'
//! chain of starts.
//!
//! Each unit's form as a first unit comes from the leads (two two-table
//! byte permutations and a blend) and its length from its form (one byte
//! permutation); the pairs' lengths feed the shared chain
//! ([`chain_starts`](super::chain::chain_starts)), and the values go eight
//! at a time: each start's eight units laid out as a big-endian word
//! (`vpermt2b`), the word shifted down to its form's units, its fixed bits
//! compared, and its fields gathered by rounds of shift, mask and shift,
//! one a unit, as many as the longest of the eight has units (there is no
//! vector `pext`). A value is the kernel's only if its units are the
//! encoder's for it: fixed bits as the form's, the value in the form's
//! range (which is how a shorter form's value spelled long is refused) and
//! among the allowed values; the compiler states leads only for a codec
//! whose every valid sequence is the encoder's writing of its value,
//! without rules across values, so that such a value is exactly what the
//! codec's table decodes. Any other first unit goes to the caller's step.
//!
//! ```
//! use placemat_simd::{decode_bit_forms_into, BitForms, Isa};
//! // X/Open FSS-UTF's first two forms: 0xxxxxxx, and 10xxxxxx 1xxxxxxx from 0x80 up.
//! let mut forms = BitForms::EMPTY;
//! forms.count = 2;
//! forms.allowed = [(0, 0x207F); 2];
//! forms.first[..2].copy_from_slice(&[0, 0x80]);
//! forms.bias[..2].copy_from_slice(&[0, 0x80]);
//! forms.units[..2].copy_from_slice(&[1, 2]);
//! forms.shift[1] = u64::from_le_bytes([7, 0, 0, 0, 0, 0, 0, 0]);
//! forms.mask[..2].copy_from_slice(&[0x7F, 0x7F_3F]);
//! forms.fixed[..2].copy_from_slice(&[0, 0x80_80]);
//! let mut leads = [0xFF; 256];
//! leads[..0x80].fill(0);
//! leads[0x80..0xC0].fill(1);
//! forms.leads = Some(leads);
//! let mut input = Vec::new();
//! for v in 0..200u64 {
//!     let mut units = [0u8; 8];
//!     let n = forms.write(v * 37, &mut units).unwrap();
//!     input.extend_from_slice(&units[..n]);
//! }
//! let mut out = Vec::new();
//! if let Some(isa) = Isa::detect() {
//!     let (values, units) = decode_bit_forms_into(isa, &forms, &input, usize::MAX, &mut out, |_: &[u8]| None::<(u64, usize)>);
//!     // Where the machine has the kernel (AVX-512), all but the last units.
//!     assert_eq!(out.len(), values);
//!     assert!(out.iter().enumerate().all(|(k, &v)| v == 37 * k as u64));
//!     assert!(units == 0 || units + 72 > input.len());
//! }
//! ```

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::encode::BitForms;
use crate::flagged::{fill_spare, Slot};
use crate::shared::Isa;

/// Whether [`decode_bit_forms_into`] has a kernel for `isa` on this machine
/// (AVX-512 with VBMI and BMI2) that reads `forms`: with leads, and passing
/// [`BitForms::check`].
pub fn decodes_bit_forms_on(isa: Isa, forms: &BitForms) -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "sse2"))
        && isa == Isa::Avx512
        && forms.leads.is_some()
        && forms.check().is_ok()
}

/// Decodes values from the start of `input`, appending up to `max` to
/// `out` (written into its spare capacity, never zero-filled), while at
/// least [`PREFIXED_TAIL`](super::PREFIXED_TAIL) units are left, reading
/// each value the forms do not decode by `other` (the codec's own step:
/// the value and its length, or `None` to stop there): the values and
/// units taken (`(0, 0)` without a kernel, [`decodes_bit_forms_on`]).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn decode_bit_forms_into<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    isa: Isa,
    forms: &BitForms,
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    mut other: F,
) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !decodes_bit_forms_on(isa, forms) {
        return (0, 0);
    }
    // SAFETY: `run` writes the first slots it counts.
    unsafe { fill_spare(input, max, out, |rest, slots| run(forms, rest, slots, &mut other)) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    forms: &BitForms,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    // SAFETY: the caller checked that the machine has AVX-512 (`Isa::all`,
    // whose AVX-512 includes BW, VL, VBMI, VBMI2, BMI1 and BMI2).
    unsafe { avx512::run(forms, input, out, other) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    _: &BitForms,
    _: &[u8],
    _: &mut [MaybeUninit<T>],
    _: &mut F,
) -> (usize, usize) {
    (0, 0)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use super::super::avx512::by_eights;
    use super::super::chain::{blocks, chain_starts, Block};
    use super::super::PREFIXED_TAIL;
    use crate::encode::BitForms;
    use crate::flagged::Slot;

    /// A table of 256 bytes, as four vectors.
    type Table = [__m512i; 4];

    /// The forms' tables as vectors; a form index of `count` or more is no
    /// form.
    struct Consts {
        /// The form each unit (unmapped) leads ([`BitForms::leads`]).
        form: Table,
        /// By form (64 entries, 0 past `count`): its units less one.
        less_one: __m512i,
        /// The number of forms, in every lane.
        count: __m512i,
        /// The unit map's inverse, for a codec that spells its units by one.
        unmap: Option<Table>,
        /// By form: the shift from a word of eight units to the form's,
        /// the fixed bits' mask and values (in that word), the bias and
        /// the range.
        right: __m512i,
        fixed_mask: __m512i,
        fixed: __m512i,
        bias: __m512i,
        lo: __m512i,
        hi: __m512i,
        /// By form, for byte `b` of the shifted word (unit `n − 1 − b`):
        /// its field's mask and where the field goes in the payload.
        field: [(__m512i, __m512i); 8],
        /// By form: its units.
        units: __m512i,
        allowed: [(__m512i, __m512i); 2],
    }

    fn table(bytes: &[u8; 256]) -> Table {
        // SAFETY: 256 readable bytes, 64 at each load.
        core::array::from_fn(|q| unsafe { _mm512_loadu_si512(bytes[64 * q..].as_ptr().cast()) })
    }

    fn words(w: &[u64; 8]) -> __m512i {
        // SAFETY: 64 readable bytes.
        unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
    }

    /// Byte `x` of every byte of `v` looked up in `t`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn lookup(t: &Table, v: __m512i) -> __m512i {
        let (low, high) = (_mm512_permutex2var_epi8(t[0], v, t[1]), _mm512_permutex2var_epi8(t[2], v, t[3]));
        _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high)
    }

    impl Consts {
        /// The vectors of `f`, made at every call: the per-form words in one
        /// pass over the forms (the tables of 256 are `f`'s own).
        #[target_feature(enable = "avx512f,avx512bw")]
        fn new(f: &BitForms) -> Consts {
            let count = usize::from(f.count);
            let end = f.allowed[0].1.max(f.allowed[1].1);
            let (mut right, mut fixed_mask, mut fixed, mut hi) = ([0u64; 8], [0u64; 8], [0u64; 8], [0u64; 8]);
            let (mut masks, mut places) = ([[0u64; 8]; 8], [[0u64; 8]; 8]);
            let mut less_one = [0u8; 64];
            for k in 0..count {
                let n = usize::from(f.units[k]);
                less_one[k] = (n - 1) as u8;
                right[k] = 64 - 8 * n as u64;
                hi[k] = if k + 1 < count { f.first[k + 1] - 1 } else { end };
                let (mask, fix, shift) = (f.mask[k].to_le_bytes(), f.fixed[k].to_le_bytes(), f.shift[k].to_le_bytes());
                // Unit `j` is byte `n − 1 − j` of the word of `n` units.
                for j in 0..n {
                    let b = n - 1 - j;
                    fixed_mask[k] |= u64::from(!mask[j]) << (8 * b);
                    fixed[k] |= u64::from(fix[j]) << (8 * b);
                    masks[b][k] = u64::from(mask[j]);
                    places[b][k] = u64::from(shift[j] & 63);
                }
            }
            let unmap = f.unit_map.map(|m| {
                let mut inverse = [0u8; 256];
                for (d, &b) in m.iter().enumerate() {
                    inverse[usize::from(b)] = d as u8;
                }
                table(&inverse)
            });
            Consts {
                form: table(&f.leads.unwrap_or([0xFF; 256])),
                // SAFETY: 64 readable bytes.
                less_one: unsafe { _mm512_loadu_si512(less_one.as_ptr().cast()) },
                count: _mm512_set1_epi64(count as i64),
                unmap,
                right: words(&right),
                fixed_mask: words(&fixed_mask),
                fixed: words(&fixed),
                bias: words(&f.bias),
                lo: words(&f.first),
                hi: words(&hi),
                field: core::array::from_fn(|b| (words(&masks[b]), words(&places[b]))),
                units: words(&f.units.map(u64::from)),
                allowed: f.allowed.map(|(lo, hi)| (_mm512_set1_epi64(lo as i64), _mm512_set1_epi64(hi as i64))),
            }
        }
    }

    /// The kernel, taking each value the forms do not decode by `other`.
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VL, VBMI and VBMI2, BMI1 and BMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
    pub(super) unsafe fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
        forms: &BitForms,
        input: &[u8],
        out: &mut [MaybeUninit<T>],
        other: &mut F,
    ) -> (usize, usize) {
        let c = Consts::new(forms);
        blocks(input, out, other, |units, out| {
            // SAFETY: the machine has the features this function enables.
            unsafe { block::<T>(&c, units, out) }
        })
    }

    /// One block of [`run`].
    ///
    /// # Safety
    /// As [`run`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
    #[inline]
    unsafe fn block<T: Slot>(c: &Consts, units: &[u8; PREFIXED_TAIL], out: &mut [MaybeUninit<T>]) -> Block {
        // SAFETY: 72 readable bytes: 64, and the 8 after them (masked).
        let (mut x, mut after) = unsafe {
            let p = units.as_ptr();
            (_mm512_loadu_si512(p.cast()), _mm512_maskz_loadu_epi8(0xFF, p.add(64).cast()))
        };
        if let Some(unmap) = &c.unmap {
            (x, after) = (lookup(unmap, x), lookup(unmap, after));
        }
        let forms = lookup(&c.form, x);
        // (A unit that leads no form, `FF`, picks entry 63: 0.)
        let less_one = _mm512_permutexvar_epi8(forms, c.less_one);
        // Each pair's lengths as one number below 64: `(a − 1) + 8 (b − 1)`.
        let pairs = _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(less_one, _mm512_set1_epi16(0x0801)));
        let mut index = [0u8; 32];
        // SAFETY: 32 writable bytes.
        unsafe { _mm256_storeu_si256(index.as_mut_ptr().cast(), pairs) };
        let (starts, taken) = chain_starts(&index, |word| _pext_u64(word, 0xC0C0_C0C0_C0C0_C0C0));
        let (wrote, stop) = values::<T>(c, (x, after), forms, starts, out);
        (wrote, stop, taken)
    }

    /// Writes the values starting at `starts` among `units` (64, and the
    /// eight after) into `out`, eight at a time, `forms` holding each unit's
    /// form as a lead: how many, and where the first not written starts, if
    /// `out` filled or a value is not the forms' to decode.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
    #[inline]
    fn values<T: Slot>(
        c: &Consts,
        units: (__m512i, __m512i),
        forms: __m512i,
        starts: u64,
        out: &mut [MaybeUninit<T>],
    ) -> (usize, Option<usize>) {
        by_eights(units, starts, out, |start, word| {
            let form = _mm512_srli_epi64::<56>(_mm512_permutexvar_epi8(start, forms));
            let pick = |t: __m512i| _mm512_permutexvar_epi64(form, t);
            let w = _mm512_srlv_epi64(word, pick(c.right));
            let mut ok = _mm512_cmplt_epu64_mask(form, c.count)
                & _mm512_cmpeq_epi64_mask(_mm512_and_si512(w, pick(c.fixed_mask)), pick(c.fixed));
            let mut v = _mm512_setzero_si512();
            // As many rounds as the longest of the eight has units (lanes of
            // no form read as form 0, and the word beyond a form's units is 0).
            let rounds = (_mm512_reduce_max_epu64(pick(c.units)) as usize).min(8);
            for (b, (mask, place)) in c.field[..rounds].iter().enumerate() {
                let byte = _mm512_srlv_epi64(w, _mm512_set1_epi64(8 * b as i64));
                v = _mm512_or_si512(v, _mm512_sllv_epi64(_mm512_and_si512(byte, pick(*mask)), pick(*place)));
            }
            let bias = pick(c.bias);
            v = _mm512_add_epi64(v, bias);
            // In the form's range, and the bias added without wrapping.
            ok &= _mm512_cmpge_epu64_mask(v, pick(c.lo))
                & _mm512_cmple_epu64_mask(v, pick(c.hi))
                & _mm512_cmpge_epu64_mask(v, bias);
            let [(a, b), (d, e)] = c.allowed;
            ok &= (_mm512_cmpge_epu64_mask(v, a) & _mm512_cmple_epu64_mask(v, b))
                | (_mm512_cmpge_epu64_mask(v, d) & _mm512_cmple_epu64_mask(v, e));
            (v, ok)
        })
    }
}
