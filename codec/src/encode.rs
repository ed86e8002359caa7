//! The encoding half of the runtime API.
//!
//! Which call to use:
//!
//! | to write | call |
//! |---|---|
//! | one value into a slice | [`Encoder::encode`] |
//! | one value onto a `Vec` | [`Encoder::encode_push`] |
//! | many values onto a `Vec` | [`Encoder::encode_all`] |
//! | many values into a caller's slice, nothing filled first | [`Encoder::encode_into`], sized by [`Encoder::max_encoded_len`] (worst case) or [`Encoder::encoded_len`] (exact) |
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

use crate::{EncodeError, EncodeIntoError, Value};

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
    ///
    /// It writes [`ENCODE_RUN`] values at a time into room for their longest
    /// encodings, so the room made ready beforehand stays small (and in
    /// cache) whatever the number of values.
    fn encode_all(&self, values: &[Self::Value], out: &mut Vec<u8>) -> Result<(), (usize, EncodeError)> {
        for (k, run) in values.chunks(ENCODE_RUN).enumerate() {
            let done = k * ENCODE_RUN;
            if let Some(e) = forbidden(self, values, done) {
                return Err((done, e));
            }
            let start = out.len();
            out.resize(start + self.max_encoded_len(run.len()), 0);
            let result = self.encode_into(run, &mut out[start..]);
            out.truncate(start + result.as_ref().map_or_else(|e| e.written, |&n| n));
            result.map_err(|e| (done + e.index, e.error))?;
        }
        Ok(())
    }

    /// The length of `value`'s encoding, in units: what [`Encoder::encode`]
    /// returns for it, and its error for a value it refuses. The default
    /// encodes it into a scratch buffer; generated codecs choose the form as
    /// their encoder does, without writing.
    fn encoded_units(&self, value: Self::Value) -> Result<usize, EncodeError> {
        let mut scratch = [0u8; SCRATCH];
        if self.max_units() <= SCRATCH {
            self.encode(value, &mut scratch)
        } else {
            self.encode(value, &mut alloc::vec![0; self.max_units()])
        }
    }

    /// The exact length of the encodings of `values`, in units: what
    /// [`Encoder::encode_all`] appends and [`Encoder::encode_into`] writes.
    /// Refuses what they refuse, with the same index and error.
    fn encoded_len(&self, values: &[Self::Value]) -> Result<usize, (usize, EncodeError)> {
        let mut len = 0usize;
        for (i, &v) in values.iter().enumerate() {
            if let Some(e) = forbidden(self, values, i) {
                return Err((i, e));
            }
            len = len.saturating_add(self.encoded_units(v).map_err(|e| (i, e))?);
        }
        Ok(len)
    }

    /// Writes the encodings of `values` into `out` from its start and returns
    /// the units written. Nothing is written past them, and `out` is not
    /// filled beforehand: a buffer of [`Encoder::max_encoded_len`] units (the
    /// worst case) or of [`Encoder::encoded_len`] (exact) always has room.
    ///
    /// On error, `out[..written]` holds the encodings of the values before
    /// `index` ([`EncodeIntoError`]); a value that does not fit in the rest of
    /// `out` is refused with [`EncodeError::BufferTooSmall`].
    ///
    /// ```
    /// use placemat_codec::{EncodeError, Encoder};
    /// # struct Ascii;
    /// # impl Encoder for Ascii {
    /// #     type Value = u32;
    /// #     fn max_units(&self) -> usize { 1 }
    /// #     fn encode(&self, value: u32, out: &mut [u8]) -> Result<usize, EncodeError> {
    /// #         if value >= 0x80 { return Err(EncodeError::Unencodable { value: value.into() }) }
    /// #         *out.first_mut().ok_or(EncodeError::BufferTooSmall { needed: 1 })? = value as u8;
    /// #         Ok(1)
    /// #     }
    /// # }
    /// let mut out = [0u8; 4];
    /// assert_eq!(Ascii.encode_into(&[0x68, 0x69], &mut out), Ok(2));
    /// assert_eq!(&out[..2], b"hi");
    /// let err = Ascii.encode_into(&[0x68, 0x69, 0x21, 0x3F, 0x2E], &mut out).unwrap_err();
    /// assert_eq!((err.index, err.written), (4, 4));
    /// assert_eq!(err.error, EncodeError::BufferTooSmall { needed: 1 });
    /// assert_eq!(Ascii.encoded_len(&[0x68, 0x69, 0x21]), Ok(3));
    /// ```
    fn encode_into(&self, values: &[Self::Value], out: &mut [u8]) -> Result<usize, EncodeIntoError> {
        let mut written = 0;
        for (index, &v) in values.iter().enumerate() {
            let result = match forbidden(self, values, index) {
                Some(e) => Err(e),
                None => self.encode(v, &mut out[written..]),
            };
            match result {
                Ok(n) => written += n,
                Err(error) => return Err(EncodeIntoError { index, written, error }),
            }
        }
        Ok(written)
    }
}

/// How many values [`Encoder::encode_all`] writes at a time.
pub const ENCODE_RUN: usize = 256;

/// Scratch room, in units, for [`Encoder::encoded_units`]'s default: longer
/// encodings take a buffer from the heap.
const SCRATCH: usize = 64;

/// The error of a rule across values on `values[i]` ([`Encoder::forbids`]), if any.
fn forbidden<E: Encoder + ?Sized>(encoder: &E, values: &[E::Value], i: usize) -> Option<EncodeError> {
    let (&before, &value) = (values.get(i.checked_sub(1)?)?, values.get(i)?);
    encoder
        .forbids(before, value)
        .then(|| EncodeError::ForbiddenAfter { before: before.to_u64(), value: value.to_u64() })
}
