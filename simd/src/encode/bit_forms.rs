//! Encoding by forms whose units are fixed bits and fields of the payload
//! ([`BitForms`]), eight values at a time: the X/Open FSS-UTF's biased
//! forms, SQLite's varints, UTF-EBCDIC's I8 forms and its byte map.
//!
//! The fact lists up to eight forms, each of one to eight units, that
//! follow each other by value. A value's form is the number of forms whose
//! first value it reaches, less one (one compare a form); its payload is
//! the value less the form's bias. Unit `k` of a form is
//! `fixed[k] | (payload >> shift[k] & mask[k])`, for all eight bytes of a
//! lane at once: one `vpmultishiftqb` takes each byte's eight bits of the
//! payload from its own offset, one AND keeps each unit's field and one OR
//! adds its fixed bits. Each form's offsets, masks and fixed bits are one
//! 64-bit word (a byte a unit), and eight forms' words are one vector that
//! the value's form indexes (`vpermq`). A codec that spells its units by a
//! byte map ([`BitForms::unit_map`]) maps every byte with two two-table
//! byte permutations (`vpermi2b`) and a blend; a codec that maps its values
//! first ([`BitForms::value_map`], the printable encodings' premap) has
//! each lane's low byte permuted the same way, kept where the value is
//! below 128.
//!
//! ```
//! use placemat_simd::{encode_bit_forms, BitForms, Isa};
//! // UTF-8's first two forms: 0xxxxxxx and 110xxxxx 10xxxxxx.
//! let mut forms = BitForms::EMPTY;
//! forms.count = 2;
//! forms.allowed = [(0, 0x7FF); 2];
//! forms.first = [0, 0x80, 0, 0, 0, 0, 0, 0];
//! forms.units = [1, 2, 0, 0, 0, 0, 0, 0];
//! forms.shift[1] = u64::from_le_bytes([6, 0, 0, 0, 0, 0, 0, 0]);
//! forms.mask = [0x7F, 0x3F_1F, 0, 0, 0, 0, 0, 0];
//! forms.fixed = [0, 0x80_C0, 0, 0, 0, 0, 0, 0];
//! assert_eq!(forms.check(), Ok(()));
//! let mut one = [0u8; 8];
//! assert_eq!(forms.write(0xE9, &mut one), Some(2));
//! assert_eq!(one[..2], [0xC3, 0xA9]);
//! let values = [0x61u64, 0xE9, 0x7FF, 0x20];
//! let mut out = [0u8; 32];
//! if let Some(isa) = Isa::detect() {
//!     let (done, written) = encode_bit_forms(isa, &forms, &values, &mut out, |_, _| None);
//!     // Where the machine has no kernel, nothing is written.
//!     assert!(done == 0 || (done, written) == (4, 6));
//!     if done == 4 {
//!         assert_eq!(out[..6], [0x61, 0xC3, 0xA9, 0xDF, 0xBF, 0x20]);
//!     }
//! }
//! ```

use crate::flagged::Slot;
use crate::shared::Isa;

/// Forms whose every unit is fixed bits and one field of the payload, in
/// value order, as data (derived and proved from a description by
/// `placemat_compiler::automaton::bit_forms`). Entries past
/// [`count`](BitForms::count) are unused (0).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitForms {
    /// How many forms, 1 to 8.
    pub count: u8,
    /// The first value each form writes; form `k` writes
    /// `first[k]..first[k + 1]` (the last, up to the end of the allowed
    /// values).
    pub first: [u64; 8],
    /// The value of payload 0 in each form.
    pub bias: [u64; 8],
    /// Each form's units, 1 to 8.
    pub units: [u8; 8],
    /// Byte `j` of word `k`: where unit `j` of form `k` takes its field
    /// from, as the bit of the payload that lands in the unit's bit 0 (mod
    /// 64: a field above bit 0 of its unit starts below it).
    pub shift: [u64; 8],
    /// Byte `j` of word `k`: the bits of unit `j` of form `k` that carry
    /// its field.
    pub mask: [u64; 8],
    /// Byte `j` of word `k`: the fixed bits of unit `j` of form `k`.
    pub fixed: [u64; 8],
    /// The values the forms write: two ranges (the same twice for one),
    /// within `first[0]` and the last form's last value. Any other value is
    /// left to the codec's encoder.
    pub allowed: [(u64, u64); 2],
    /// The byte each unit is written as, for a codec that spells its units
    /// by a map (UTF-EBCDIC's 256 bytes, or an alphabet of fewer, such as
    /// the printable encodings' 64 symbols, whose forms write no unit past
    /// its last: the entries after it are never read); `None` where units
    /// are written as they are.
    pub unit_map: Option<[u8; 256]>,
    /// For a codec that maps its values before its forms (a description's
    /// `premap`, a permutation of the values below its length, at most
    /// 128): the value the forms write for each value below 128 (those
    /// past the map's length map to themselves); values from 128 up are
    /// written as they are. The forms' other fields are of the mapped
    /// values; [`BitForms::write`] and the kernel map each value first.
    /// `None` where values are not mapped.
    pub value_map: Option<[u8; 128]>,
    /// For a codec whose first units name their form and whose every valid
    /// sequence is the encoder's writing of its value, without rules across
    /// values: the form each unit (before the map) leads, `FF` for none.
    /// The decoder of the forms (`decode_bit_forms_into`) reads them;
    /// `None` where the forms are only written.
    pub leads: Option<[u8; 256]>,
}

impl BitForms {
    /// No forms: the start of a fact to fill in.
    pub const EMPTY: BitForms = BitForms {
        count: 0,
        first: [0; 8],
        bias: [0; 8],
        units: [0; 8],
        shift: [0; 8],
        mask: [0; 8],
        fixed: [0; 8],
        allowed: [(1, 0); 2],
        unit_map: None,
        value_map: None,
        leads: None,
    };

    /// Checks what the kernels rely on: one to eight forms of one to eight
    /// units, first values rising, allowed values within the forms', leads
    /// that name forms, and a value map into the values below 128.
    pub const fn check(&self) -> Result<(), &'static str> {
        if let Err(e) = self.check_forms() {
            return Err(e);
        }
        if let Some(map) = &self.value_map {
            let mut v = 0;
            while v < 128 {
                if map[v] >= 128 {
                    return Err("the value map must map into the values below 128");
                }
                v += 1;
            }
        }
        if let Some(leads) = &self.leads {
            let mut d = 0;
            while d < 256 {
                if leads[d] != 0xFF && leads[d] >= self.count {
                    return Err("a lead names a form past `count`");
                }
                d += 1;
            }
        }
        Ok(())
    }

    /// [`BitForms::check`] but for the leads, which the encoder does not
    /// read: what [`encodes_bit_forms_on`] asks at every call, without a
    /// pass over 256 leads.
    const fn check_forms(&self) -> Result<(), &'static str> {
        if self.count == 0 || self.count > 8 {
            return Err("`count` must be in 1..=8");
        }
        let mut k = 0;
        while k < self.count as usize {
            if self.units[k] == 0 || self.units[k] > 8 {
                return Err("every form has 1 to 8 units");
            }
            if k > 0 && self.first[k] <= self.first[k - 1] {
                return Err("first values must rise");
            }
            k += 1;
        }
        let mut r = 0;
        while r < 2 {
            let (lo, hi) = self.allowed[r];
            if lo > hi || lo < self.first[0] {
                return Err("allowed values must be ranges the forms start at or after");
            }
            r += 1;
        }
        Ok(())
    }

    /// Whether the forms write `value` (one of the two allowed ranges).
    #[inline(always)]
    pub fn allows(&self, value: u64) -> bool {
        let [(a, b), (c, d)] = self.allowed;
        (a..=b).contains(&value) || (c..=d).contains(&value)
    }

    /// The value the forms write for `value`: through the
    /// [`value_map`](BitForms::value_map) below 128, else itself.
    #[inline(always)]
    pub fn mapped(&self, value: u64) -> u64 {
        match &self.value_map {
            Some(map) if value < 128 => u64::from(map[value as usize]),
            _ => value,
        }
    }

    /// The form of `value`, if the forms write it.
    pub fn form(&self, value: u64) -> Option<usize> {
        if !self.allows(value) {
            return None;
        }
        Some(self.first[1..usize::from(self.count)].iter().filter(|&&f| f <= value).count())
    }

    /// Writes `value` by the formula into the start of `out` (all eight of
    /// the form's bytes are written; the value through the
    /// [`value_map`](BitForms::value_map) first, as the kernel does), the
    /// reference the kernel is tested against: the units, or `None` where
    /// the forms do not write it.
    pub fn write(&self, value: u64, out: &mut [u8; 8]) -> Option<usize> {
        let value = self.mapped(value);
        let k = self.form(value)?;
        Some(self.write_form(k, value.wrapping_sub(self.bias[k]), out))
    }

    /// Writes `payload` in form `k` by the formula (all eight bytes): the
    /// form's units.
    pub fn write_form(&self, k: usize, payload: u64, out: &mut [u8; 8]) -> usize {
        let (shift, mask, fixed) =
            (self.shift[k].to_le_bytes(), self.mask[k].to_le_bytes(), self.fixed[k].to_le_bytes());
        for (j, slot) in out.iter_mut().enumerate() {
            let field = payload.rotate_right(u32::from(shift[j] & 63)) as u8;
            let unit = field & mask[j] | fixed[j];
            *slot = self.unit_map.map_or(unit, |m| m[usize::from(unit)]);
        }
        usize::from(self.units[k])
    }
}

/// Whether [`encode_bit_forms`] has a kernel for `isa` on this machine
/// (AVX-512 with VBMI) that writes `forms` ([`BitForms::check`], but for
/// the leads, which only the decoder reads).
pub fn encodes_bit_forms_on(isa: Isa, forms: &BitForms) -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "sse2")) && isa == Isa::Avx512 && forms.check_forms().is_ok()
}

/// Encodes values from the start of `values` into `out` from its start
/// (each through the [`value_map`](BitForms::value_map) first),
/// those the forms write eight at a time, and each other one by `other`
/// (the codec's own encoder: the units it wrote into the slice it is
/// given, or `None` to stop there), until the values end, `other` stops,
/// or a group of eight does not fit the room left: the values taken and
/// the units written (`(0, 0)` without a kernel for `isa` and `forms`,
/// [`encodes_bit_forms_on`]). Nothing is written past those units.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn encode_bit_forms<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    isa: Isa,
    forms: &BitForms,
    values: &[T],
    out: &mut [u8],
    mut other: F,
) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !encodes_bit_forms_on(isa, forms) {
        return (0, 0);
    }
    run(forms, values, out, &mut other)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    forms: &BitForms,
    values: &[T],
    out: &mut [u8],
    other: &mut F,
) -> (usize, usize) {
    // SAFETY: the caller checked that the machine has AVX-512 (`Isa::all`,
    // whose AVX-512 includes BW, VL, VBMI and VBMI2).
    unsafe { avx512::run(forms, values, out, other) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    _: &BitForms,
    _: &[T],
    _: &mut [u8],
    _: &mut F,
) -> (usize, usize) {
    (0, 0)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

    use super::BitForms;
    use crate::encode::x86::{groups, lane_base, place};
    use crate::flagged::Slot;

    /// Eight words, one a form, as one vector.
    fn per_form(words: &[u64; 8]) -> __m512i {
        // SAFETY: 64 readable bytes; the load is unaligned.
        unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
    }

    /// The kernel.
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VL, VBMI and VBMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt")]
    pub(super) unsafe fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
        forms: &BitForms,
        values: &[T],
        out: &mut [u8],
        other: &mut F,
    ) -> (usize, usize) {
        let b = |x: u64| _mm512_set1_epi64(x as i64);
        let firsts: [__m512i; 7] = core::array::from_fn(|k| b(forms.first.get(k + 1).copied().unwrap_or(0)));
        let firsts = &firsts[..usize::from(forms.count) - 1];
        let [(a, z), (c, d)] = forms.allowed.map(|(lo, hi)| (b(lo), b(hi)));
        let (bias, shift, mask, fixed) =
            (per_form(&forms.bias), per_form(&forms.shift), per_form(&forms.mask), per_form(&forms.fixed));
        let lengths = per_form(&forms.units.map(u64::from));
        let map: Option<[__m512i; 4]> = forms.unit_map.map(|m| {
            // SAFETY: 256 readable bytes, 64 at each load.
            core::array::from_fn(|q| unsafe { _mm512_loadu_si512(m[64 * q..].as_ptr().cast()) })
        });
        let values_map: Option<[__m512i; 2]> = forms.value_map.map(|m| {
            // SAFETY: 128 readable bytes, 64 at each load.
            core::array::from_fn(|q| unsafe { _mm512_loadu_si512(m[64 * q..].as_ptr().cast()) })
        });
        let (place, lane_base, one) = (place(), lane_base(), b(1));
        let group = |v: __m512i| {
            // Values below 128 through the value map: each lane's low byte
            // indexes the two tables (its low seven bits), the lane keeps
            // that byte alone.
            let v = match values_map {
                Some([t0, t1]) => {
                    let mapped = _mm512_and_si512(_mm512_permutex2var_epi8(t0, v, t1), b(0xFF));
                    _mm512_mask_mov_epi64(v, _mm512_cmplt_epu64_mask(v, b(128)), mapped)
                }
                None => v,
            };
            let held = (_mm512_cmpge_epu64_mask(v, a) & _mm512_cmple_epu64_mask(v, z))
                | (_mm512_cmpge_epu64_mask(v, c) & _mm512_cmple_epu64_mask(v, d));
            let mut form = _mm512_setzero_si512();
            for first in firsts {
                form = _mm512_mask_add_epi64(form, _mm512_cmpge_epu64_mask(v, *first), form, one);
            }
            let pick = |t: __m512i| _mm512_permutexvar_epi64(form, t);
            let payload = _mm512_sub_epi64(v, pick(bias));
            let fields = _mm512_multishift_epi64_epi8(pick(shift), payload);
            let mut bytes = _mm512_ternarylogic_epi64::<0xEA>(fields, pick(mask), pick(fixed));
            if let Some([t0, t1, t2, t3]) = map {
                let (low, high) = (_mm512_permutex2var_epi8(t0, bytes, t1), _mm512_permutex2var_epi8(t2, bytes, t3));
                bytes = _mm512_mask_blend_epi8(_mm512_movepi8_mask(bytes), low, high);
            }
            let len = _mm512_permutexvar_epi8(lane_base, pick(lengths));
            (bytes, _mm512_cmplt_epu8_mask(place, len), held)
        };
        groups(values, out, other, group, |_| None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// X/Open FSS-UTF's five biased forms, fields as in the description.
    fn xopen() -> BitForms {
        let mut f = BitForms::EMPTY;
        f.count = 5;
        f.first[..5].copy_from_slice(&[0, 0x80, 0x2080, 0x8_2080, 0x208_2080]);
        f.bias = f.first;
        f.allowed = [(0, 0x7FFF_FFFF); 2];
        let lead = [(0u8, 7u32), (0x80, 6), (0xC0, 5), (0xE0, 4), (0xF0, 3)];
        for (k, &(fixed, bits)) in lead.iter().enumerate() {
            let n = k + 1;
            f.units[k] = n as u8;
            let (mut s, mut m, mut x) = ([0u8; 8], [0u8; 8], [0u8; 8]);
            for j in 0..n {
                let below = 7 * (n - 1 - j) as u32;
                s[j] = below as u8;
                (m[j], x[j]) = if j == 0 { (((1u32 << bits) - 1) as u8, fixed) } else { (0x7F, 0x80) };
            }
            (f.shift[k], f.mask[k], f.fixed[k]) = (u64::from_le_bytes(s), u64::from_le_bytes(m), u64::from_le_bytes(x));
        }
        f
    }

    fn kernel(forms: &BitForms, values: &[u64]) -> Option<(usize, Vec<u8>)> {
        let isa = Isa::detect().filter(|&i| encodes_bit_forms_on(i, forms))?;
        let mut out = vec![0u8; 8 * values.len()];
        let (done, written) = encode_bit_forms(isa, forms, values, &mut out, |_, _| None);
        out.truncate(written);
        Some((done, out))
    }

    fn reference(forms: &BitForms, values: &[u64]) -> (usize, Vec<u8>) {
        let mut out = Vec::new();
        for (i, &v) in values.iter().enumerate() {
            let mut one = [0u8; 8];
            let Some(n) = forms.write(v, &mut one) else { return (i, out) };
            out.extend_from_slice(&one[..n]);
        }
        (values.len(), out)
    }

    fn values(seed: u64, count: usize, edges: &[u64]) -> Vec<u64> {
        let mut x = seed;
        (0..count)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let e = edges[i % edges.len()];
                match i % 3 {
                    0 => e,
                    1 => e.wrapping_sub(1 + x % 3),
                    _ => x >> (x % 64),
                }
            })
            .collect()
    }

    #[test]
    fn the_kernel_writes_the_formula_and_stops_where_it_does() {
        let f = xopen();
        assert_eq!(f.check(), Ok(()));
        let edges = [0, 0x7F, 0x80, 0x207F, 0x2080, 0x8_207F, 0x8_2080, 0x208_207F, 0x208_2080, 0x7FFF_FFFF];
        let mut one = [0u8; 8];
        assert_eq!(f.write(0x7FFF_FFFF, &mut one), Some(5));
        assert_eq!(one[..5], [0xF7, 0xEF, 0xDF, 0xBE, 0xFF]);
        for seed in 1..40 {
            let v = values(seed, 9 + seed as usize * 7, &edges);
            let want = reference(&f, &v);
            if let Some(got) = kernel(&f, &v) {
                assert_eq!(got, want, "seed {seed}");
            }
        }
    }

    #[test]
    fn a_byte_map_maps_every_unit() {
        let mut f = xopen();
        let mut map = [0u8; 256];
        for (i, m) in map.iter_mut().enumerate() {
            *m = (i as u8).wrapping_mul(167).wrapping_add(3);
        }
        f.unit_map = Some(map);
        let v: Vec<u64> = (0..300).map(|i| i * 0x1_2345 + i).collect();
        let want = reference(&f, &v);
        let plain = reference(&xopen(), &v);
        assert_eq!(want.1, plain.1.iter().map(|&u| map[usize::from(u)]).collect::<Vec<_>>());
        if let Some(got) = kernel(&f, &v) {
            assert_eq!(got, want);
        }
    }

    #[test]
    fn a_value_map_maps_the_values_below_128() {
        let mut f = xopen();
        // Reverses 0..100; 100..128 map to themselves.
        let mut map: [u8; 128] = core::array::from_fn(|v| v as u8);
        for (v, m) in map.iter_mut().enumerate().take(100) {
            *m = 99 - v as u8;
        }
        f.value_map = Some(map);
        assert_eq!(f.check(), Ok(()));
        let v: Vec<u64> = (0..400).map(|i| if i % 3 == 0 { i * 0x345 } else { i % 130 }).collect();
        let mapped: Vec<u64> = v.iter().map(|&x| if x < 128 { u64::from(map[x as usize]) } else { x }).collect();
        let want = reference(&f, &v);
        assert_eq!(want, reference(&xopen(), &mapped));
        assert_ne!(want, reference(&xopen(), &v));
        if let Some(got) = kernel(&f, &v) {
            assert_eq!(got, want);
        }
        // A map past 127 fails the check.
        map[5] = 200;
        f.value_map = Some(map);
        assert!(f.check().is_err());
    }

    #[test]
    fn bad_facts_are_refused() {
        let mut f = xopen();
        f.units[2] = 9;
        assert!(f.check().is_err());
        let mut f = xopen();
        f.first[3] = f.first[2];
        assert!(f.check().is_err());
        assert!(BitForms::EMPTY.check().is_err());
        // A lead past the forms fails the check, but not the encoder's,
        // which reads no leads.
        let mut f = xopen();
        let mut leads = [0xFF; 256];
        leads[0xC0] = f.count;
        f.leads = Some(leads);
        assert!(f.check().is_err());
        let on = cfg!(all(target_arch = "x86_64", target_feature = "sse2"));
        assert_eq!(encodes_bit_forms_on(Isa::Avx512, &f), on);
        assert!(!encodes_bit_forms_on(Isa::Avx512, &BitForms::EMPTY));
    }
}
