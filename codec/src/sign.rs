//! How a signed codec's values become the unsigned numbers its forms spell,
//! and back (a description's `sign: extend | zigzag | low_bit`).
//!
//! A signed codec's automaton, tables and decoders read and write unsigned
//! numbers, the *raw* values; [`Sign`] maps them to the codec's signed values
//! where values leave a decoder and back where they enter an encoder. In the
//! 64-bit views of values ([`crate::DynCodec`], [`crate::Value::to_u64`]) a
//! signed value is its two's complement pattern, sign-extended to 64 bits.
//!
//! ```
//! use placemat_codec::Sign;
//! // protobuf's sint64: ZigZag, -1 is 1, 1 is 2.
//! assert_eq!(Sign::ZigZag.raw(-1i64 as u64, 64), Some(1));
//! assert_eq!(Sign::ZigZag.value(2, 64), 1);
//! // Source maps' VLQ: the sign in the lowest bit, -1 is 3.
//! assert_eq!(Sign::LowBit.raw(-1i64 as u64, 32), Some(3));
//! assert_eq!(Sign::LowBit.value(3, 32) as i64, -1);
//! // SLEB128: two's complement, the forms sign-extend their payload.
//! assert_eq!(Sign::TwosComplement.raw(-2i64 as u64, 32), Some(0xFFFF_FFFE));
//! assert_eq!(Sign::TwosComplement.value(0xFFFF_FFFE, 32) as i64, -2);
//! ```

/// How a signed codec's values map to the raw (unsigned) values its forms
/// spell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    /// Two's complement (`sign: extend`): the raw value is the value modulo
    /// 2^bits, and each form's payload is sign-extended from its top bit, so a
    /// negative value takes a form's upper half (DWARF's SLEB128).
    TwosComplement,
    /// ZigZag (`sign: zigzag`): 0, −1, 1, −2, … are the raw values 0, 1, 2,
    /// 3, … (protobuf's `sint32`/`sint64`).
    ZigZag,
    /// Sign and magnitude with the sign in the lowest bit (`sign: low_bit`):
    /// the raw value is twice the magnitude, plus one for a negative value
    /// (source maps' Base64 VLQ). The raw value 1 (−0) is no value.
    LowBit,
}

impl Sign {
    /// The value spelled by the raw value `raw` in a codec of `bits`-bit
    /// values (32 or 64), as its two's complement pattern sign-extended to 64
    /// bits.
    #[inline(always)]
    pub const fn value(self, raw: u64, bits: u32) -> u64 {
        match self {
            Sign::TwosComplement => {
                let unused = 64 - bits;
                (((raw << unused) as i64) >> unused) as u64
            }
            Sign::ZigZag => (raw >> 1) ^ (raw & 1).wrapping_neg(),
            Sign::LowBit => {
                let magnitude = raw >> 1;
                if raw & 1 == 1 {
                    magnitude.wrapping_neg()
                } else {
                    magnitude
                }
            }
        }
    }

    /// The raw value spelling `value` (a sign-extended pattern) in a codec of
    /// `bits`-bit values, or `None` where the scheme has none (−2^63 by
    /// [`Sign::LowBit`], whose magnitude needs 64 bits before the sign's).
    #[inline(always)]
    pub const fn raw(self, value: u64, bits: u32) -> Option<u64> {
        match self {
            Sign::LowBit if value == 1 << 63 => None,
            _ => Some(self.raw_wrapping(value, bits)),
        }
    }

    /// [`Sign::raw`] without a branch, for loops over many values: where
    /// `raw` has none (−2^63 by [`Sign::LowBit`]), the raw value 1, minus
    /// zero, which spells no value of that scheme.
    ///
    /// ```
    /// use placemat_codec::Sign;
    /// assert_eq!(Sign::LowBit.raw_wrapping(i64::MIN as u64, 64), 1);
    /// assert_eq!(Sign::LowBit.raw_wrapping(-5i64 as u64, 32), 11);
    /// ```
    #[inline(always)]
    pub const fn raw_wrapping(self, value: u64, bits: u32) -> u64 {
        let v = value as i64;
        match self {
            Sign::TwosComplement if bits >= 64 => value,
            Sign::TwosComplement => value & ((1 << bits) - 1),
            Sign::ZigZag => ((v << 1) ^ (v >> 63)) as u64,
            Sign::LowBit => (v.unsigned_abs() << 1) | (v < 0) as u64,
        }
    }

    /// The scheme's word in a description (`sign: extend`).
    pub const fn word(self) -> &'static str {
        match self {
            Sign::TwosComplement => "extend",
            Sign::ZigZag => "zigzag",
            Sign::LowBit => "low_bit",
        }
    }
}

/// Values mapped to raw values at a time, on the stack, by [`raw_runs`].
const RUN: usize = 256;

/// Runs a bulk encoder over the raw values of a signed codec's `values`:
/// each run of up to 256 values, its first `mappable(run)` mapped by
/// `sign` ([`Sign::raw_wrapping`]) on the stack, is handed to `kernel` with
/// the room after what the runs before wrote; the values taken and the
/// units written, up to the first run the kernel does not take whole.
pub(crate) fn raw_runs<V: crate::Value>(
    sign: Sign,
    bits: u32,
    values: &[V],
    out: &mut [u8],
    mappable: impl Fn(&[V]) -> usize,
    mut kernel: impl FnMut(&[u64], &mut [u8]) -> (usize, usize),
) -> (usize, usize) {
    let mut raws = [0u64; RUN];
    let (mut done, mut written) = (0, 0);
    for run in values.chunks(RUN) {
        let mapped = mappable(run);
        for (slot, v) in raws.iter_mut().zip(&run[..mapped]) {
            *slot = sign.raw_wrapping(v.to_u64(), bits);
        }
        let (took, wrote) = kernel(&raws[..mapped], &mut out[written..]);
        (done, written) = (done + took, written + wrote);
        if took < run.len() {
            break;
        }
    }
    (done, written)
}

#[cfg(feature = "big")]
impl Sign {
    /// The value of any size that the raw value `raw` spells, for the schemes
    /// that are maps of the value alone (`None` for two's complement, whose
    /// value depends on the width of the form that spelled it).
    ///
    /// ```
    /// use placemat_codec::big::{BigInt, BigUint};
    /// use placemat_codec::Sign;
    /// let raw = (BigUint::from(1u8) << 100u32) + 1u8;
    /// assert_eq!(Sign::ZigZag.value_big(&raw), Some(-(BigInt::from(1u8) << 99u32) - 1));
    /// assert_eq!(Sign::LowBit.value_big(&raw), Some(-(BigInt::from(1u8) << 99u32)));
    /// ```
    pub fn value_big(self, raw: &crate::big::BigUint) -> Option<crate::big::BigInt> {
        use crate::big::BigInt;
        let half = BigInt::from(raw >> 1u32);
        let odd = raw.bit(0);
        match self {
            Sign::TwosComplement => None,
            Sign::ZigZag if odd => Some(-half - 1),
            Sign::LowBit if odd => Some(-half),
            Sign::ZigZag | Sign::LowBit => Some(half),
        }
    }

    /// The raw value spelling `value` (the inverse of [`Sign::value_big`];
    /// `None` for two's complement).
    pub fn raw_big(self, value: &crate::big::BigInt) -> Option<crate::big::BigUint> {
        let magnitude = value.magnitude().clone();
        let negative = value.sign() == num_bigint::Sign::Minus;
        match self {
            Sign::TwosComplement => None,
            Sign::ZigZag if negative => Some(magnitude * 2u32 - 1u32),
            Sign::ZigZag | Sign::LowBit => Some(magnitude * 2u32 + u32::from(negative)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Sign;

    /// Each scheme's raw value and back, over the edges of both widths.
    #[test]
    fn raw_and_value_are_inverses() {
        let values = [0i64, 1, -1, 2, -2, 63, -64, 0x7FFF_FFFF, -0x7FFF_FFFF, i32::MIN as i64, i64::MAX, i64::MIN + 1];
        for sign in [Sign::TwosComplement, Sign::ZigZag, Sign::LowBit] {
            for bits in [32, 64] {
                for &v in &values {
                    let fits = bits == 64 || i32::try_from(v).is_ok();
                    let Some(raw) = sign.raw(v as u64, bits).filter(|_| fits) else { continue };
                    assert_eq!(sign.value(raw, bits) as i64, v, "{sign:?} {bits}-bit {v}");
                }
            }
        }
    }

    #[test]
    fn schemes_spell_their_sources_examples() {
        // protobuf's encoding guide: 0, -1, 1, -2, 2147483647, -2147483648.
        let zigzag: Vec<u64> = [0i64, -1, 1, -2, 0x7FFF_FFFF, -0x8000_0000]
            .iter()
            .map(|&v| Sign::ZigZag.raw(v as u64, 64).unwrap())
            .collect();
        assert_eq!(zigzag, [0, 1, 2, 3, 0xFFFF_FFFE, 0xFFFF_FFFF]);
        assert_eq!(Sign::LowBit.raw(16, 32), Some(32));
        assert_eq!(Sign::LowBit.raw(i64::MIN as u64, 64), None);
        assert_eq!(Sign::TwosComplement.value(0x7F, 64), 0x7F);
        assert_eq!(Sign::TwosComplement.value(0xFFFF_FFFF, 32) as i64, -1);
    }
}
