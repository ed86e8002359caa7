//! The encoding half of the runtime API.
//!
//! ```
//! use placemat_codec::{EncodeError, Encoder};
//!
//! /// A toy codec that writes values below 0x80 as one unit.
//! struct Ascii;
//! impl Encoder for Ascii {
//!     type Value = u32;
//!     fn max_units(&self) -> usize {
//!         1
//!     }
//!     fn encode(&self, value: u32, out: &mut [u8]) -> Result<usize, EncodeError> {
//!         if value >= 0x80 {
//!             return Err(EncodeError::Unencodable { value: value.into() });
//!         }
//!         let slot = out.first_mut().ok_or(EncodeError::BufferTooSmall { needed: 1 })?;
//!         *slot = value as u8;
//!         Ok(1)
//!     }
//! }
//!
//! let mut out = Vec::new();
//! Ascii.encode_all(&[0x68, 0x69], &mut out).unwrap();
//! assert_eq!(out, b"hi");
//! assert_eq!(Ascii.max_encoded_len(2), 2);
//! ```

use alloc::vec::Vec;

use crate::{EncodeError, Value};

/// An encoding strategy.
pub trait Encoder {
    /// The value type.
    type Value: Value;
    /// The longest encoding of one value, in units.
    fn max_units(&self) -> usize;

    /// Writes the encoding of `value` at the start of `out` and returns its length.
    /// On error nothing meaningful has been written.
    fn encode(&self, value: Self::Value, out: &mut [u8]) -> Result<usize, EncodeError>;

    /// Whether a rule of the codec forbids `value` right after `before`
    /// (see [`Decoder::context_after`](crate::Decoder::context_after)):
    /// [`Encoder::encode_all`] refuses such a pair, so that what it writes
    /// decodes to the same values. `false` for codecs without rules.
    #[inline]
    fn forbids(&self, before: Self::Value, value: Self::Value) -> bool {
        let _ = (before, value);
        false
    }

    /// Worst-case output length for `values` values (saturating).
    fn max_encoded_len(&self, values: usize) -> usize {
        values.saturating_mul(self.max_units())
    }

    /// Appends the encoding of `value` to `out`.
    fn encode_push(&self, value: Self::Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let start = out.len();
        out.resize(start + self.max_units(), 0);
        match self.encode(value, &mut out[start..]) {
            Ok(n) => {
                out.truncate(start + n);
                Ok(())
            }
            Err(e) => {
                out.truncate(start);
                Err(e)
            }
        }
    }

    /// Appends the encodings of all `values` to `out`. On error, the encodings of the
    /// values before the refused one have been appended; the error's index is the
    /// number of values encoded. A value a rule forbids after the one before it
    /// ([`Encoder::forbids`]) is refused with [`EncodeError::ForbiddenAfter`].
    fn encode_all(&self, values: &[Self::Value], out: &mut Vec<u8>) -> Result<(), (usize, EncodeError)> {
        let start = out.len();
        out.resize(start + self.max_encoded_len(values.len()), 0);
        let mut pos = start;
        for (i, &v) in values.iter().enumerate() {
            if let Some(&before) = i.checked_sub(1).and_then(|k| values.get(k)) {
                if self.forbids(before, v) {
                    out.truncate(pos);
                    let (before, value) = (before.to_u64(), v.to_u64());
                    return Err((i, EncodeError::ForbiddenAfter { before, value }));
                }
            }
            match self.encode(v, &mut out[pos..]) {
                Ok(n) => pos += n,
                Err(e) => {
                    out.truncate(pos);
                    return Err((i, e));
                }
            }
        }
        out.truncate(pos);
        Ok(())
    }
}
