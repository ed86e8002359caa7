//! The bit forms of codecs whose values are mapped before their forms: a
//! description's `premap` (the printable encodings' reordering of ASCII),
//! which the forms' [`value_map`](crate::simd::BitForms::value_map) holds
//! and the kernel applies itself, and a signed codec's sign (ZigZag, or the
//! sign in the lowest bit, as the source maps' Base64 VLQ puts it), which
//! the bulk encoder applies to a run of values before the kernel. The forms
//! ([`BitForms`](crate::simd::BitForms)) write *raw* values, as the codec's
//! automaton reads them.
//!
//! A raw value is one the forms write only if its value is the codec's: both
//! maps are one to one, and the forms' allowed ranges are the raw images of
//! the codec's values (the compiler derives them from the model's raw
//! range), so the kernel stops at a value the codec refuses and the codec's
//! own encoder reports it.
//!
//! ```
//! use placemat_codec::{CodecInfo, Sign, Unit};
//! use placemat_codec::simd::BitForms;
//! // A signed codec of values -3..=3, sign in the lowest bit: raw values
//! // 0 and 2..=7 (1 would be minus zero), one form of one unit.
//! let mut forms = BitForms::EMPTY;
//! forms.count = 1;
//! forms.units[0] = 1;
//! forms.mask[0] = 0x07;
//! forms.allowed = [(0, 0), (2, 7)];
//! let mut info = CodecInfo::new("s", "", Unit::Byte, 32, -3i64 as u64, 3, &[], Some(1)).with_bit_forms(forms);
//! info.sign = Some(Sign::LowBit);
//! assert_eq!(info.forms_raw(-3i64 as u64), Some(7));
//! assert_eq!(info.forms_raw(2), Some(4));
//! assert_eq!(info.forms_raw(4), None);
//! ```

use crate::CodecInfo;

impl CodecInfo {
    /// The raw value the codec's [`bit_forms`](CodecInfo::bit_forms) write
    /// for `value` (its [`sign`](CodecInfo::sign)'s, or its value map's, or
    /// `value` itself), or `None` where the codec has no bit forms or they
    /// do not write the value (it is not the codec's, or it is one the
    /// codec's encoder writes by itself).
    pub fn forms_raw(&self, value: u64) -> Option<u64> {
        let forms = self.bit_forms.as_ref()?;
        let raw = match self.sign {
            Some(sign) => sign.raw(value, self.value_bits)?,
            None => forms.mapped(value),
        };
        forms.allows(raw).then_some(raw)
    }
}

/// A prefix of `values` written into `out` by the bit forms of a signed
/// codec, in runs whose raw values are made on the stack: the values and
/// units taken, stopping at the first value the forms do not write (the
/// caller's encoder goes on from there). `None` where no kernel runs on
/// this machine, or the codec is not signed.
pub(crate) fn encode_signed(info: &CodecInfo, values: &[u64], out: &mut [u8]) -> Option<(usize, usize)> {
    let (forms, sign) = (info.bit_forms.as_ref()?, info.sign?);
    // The kernel sees raw values: at one it does not write, stop (the
    // caller's encoder has the value). Where `Sign::raw` has no raw value,
    // the runs hold 1, minus zero, which no form writes.
    let stop = |_: u64, _: &mut [u8]| None;
    // Whether a kernel runs here at all.
    crate::kernels::encode_bit_forms(forms, &[], &mut [], stop)?;
    let kernel =
        |raws: &[u64], out: &mut [u8]| crate::kernels::encode_bit_forms(forms, raws, out, stop).unwrap_or((0, 0));
    Some(crate::sign::raw_runs(sign, info.value_bits, values, out, <[u64]>::len, kernel))
}
