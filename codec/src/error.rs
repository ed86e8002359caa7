//! Error types shared by every codec.
//!
//! [`DecodeError`] has exactly the meaning of [`core::str::Utf8Error`]:
//!
//! ```
//! use placemat_codec::DecodeError;
//! // `61 E0 80 62`: `E0 80` can never start a strict UTF-8 sequence, so the
//! // maximal subpart is the lone `E0` and decoding may resume at `80`.
//! let err = DecodeError::new(1, Some(1));
//! assert_eq!(err.valid_up_to(), 1);
//! assert_eq!(err.error_len(), Some(1));
//! assert_eq!(err.to_string(), "invalid sequence of 1 unit at offset 1");
//! ```

use core::fmt;

/// A decoding failure: where the valid prefix ends and how long the bad sequence is.
///
/// * `valid_up_to` — the number of units, from the start of the input, that form
///   complete valid sequences.
/// * `error_len` — `Some(n)`: the `n` units at `valid_up_to` are a *maximal subpart*
///   (the longest prefix of some well-formed sequence, or a single unit that starts
///   none) and decoding may resume after them; `None`: the input ended inside a
///   sequence that more input could complete.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DecodeError {
    valid_up_to: usize,
    error_len: Option<usize>,
}

impl DecodeError {
    /// Builds an error.
    ///
    /// # Panics
    ///
    /// If `error_len` is `Some(0)`. An invalid sequence is at least one unit long:
    /// every strategy reports a unit that starts no sequence as a maximal subpart of
    /// one unit, so a zero length is a bug in the strategy that reported it (and
    /// would stall any loop that resumes after the error), never input to repair.
    ///
    /// ```should_panic
    /// # use placemat_codec::DecodeError;
    /// let _ = DecodeError::new(3, Some(0));
    /// ```
    pub const fn new(valid_up_to: usize, error_len: Option<usize>) -> Self {
        assert!(
            !matches!(error_len, Some(0)),
            "DecodeError::new: an invalid sequence of 0 units (every strategy must report at least one unit)"
        );
        DecodeError { valid_up_to, error_len }
    }

    /// Units before the error that decode completely.
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// Length of the invalid sequence, or `None` if the input is truncated.
    pub const fn error_len(&self) -> Option<usize> {
        self.error_len
    }

    /// The same error moved `offset` units later (for errors found in a slice of a
    /// larger stream).
    pub const fn shifted(self, offset: usize) -> Self {
        DecodeError { valid_up_to: self.valid_up_to + offset, error_len: self.error_len }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error_len {
            Some(n) => write!(
                f,
                "invalid sequence of {n} unit{} at offset {}",
                if n == 1 { "" } else { "s" },
                self.valid_up_to
            ),
            None => write!(f, "incomplete sequence at end of input at offset {}", self.valid_up_to),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecodeError {}

/// An encoding failure.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// The value is outside the codec's range or in one of its excluded ranges.
    Unencodable {
        /// The value that was refused.
        value: u64,
    },
    /// The value is outside a signed codec's range (or is a value its sign
    /// scheme cannot spell).
    SignedUnencodable {
        /// The value that was refused.
        value: i64,
    },
    /// The value has more bits than any value the codec can encode (for values
    /// given as big integers).
    TooLarge {
        /// Bits in the refused value.
        bits: u64,
    },
    /// A negative value (given as a big integer) for a codec whose values are
    /// unsigned.
    Negative,
    /// The output buffer is too small; `needed` units would have been written.
    BufferTooSmall {
        /// Units the encoding of this value needs.
        needed: usize,
    },
    /// A rule of the codec forbids this value right after the one before it
    /// (WTF-8: a low surrogate after a high one, which would decode as one
    /// supplementary value).
    ForbiddenAfter {
        /// The value before.
        before: u64,
        /// The value that was refused.
        value: u64,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodeError::Unencodable { value } => {
                write!(f, "U+{value:04X} cannot be encoded by this codec")
            }
            EncodeError::SignedUnencodable { value } => {
                write!(f, "{value} cannot be encoded by this codec")
            }
            EncodeError::TooLarge { bits } => {
                write!(f, "a value of {bits} bits cannot be encoded by this codec")
            }
            EncodeError::Negative => {
                f.write_str("a negative value cannot be encoded by this codec: its values are unsigned")
            }
            EncodeError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: {needed} units needed")
            }
            EncodeError::ForbiddenAfter { before, value } => {
                write!(f, "U+{value:04X} may not follow U+{before:04X} in this codec")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}

/// What [`Encoder::encode_into`](crate::Encoder::encode_into) reports when it
/// stops before the last value: `out[..written]` holds the encodings of the
/// values before `index`, and `error` says why `values[index]` was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EncodeIntoError {
    /// The refused value's index: the number of values encoded.
    pub index: usize,
    /// The units written, the encodings of the values before `index`.
    pub written: usize,
    /// Why the value was refused ([`EncodeError::BufferTooSmall`] when it did
    /// not fit in the rest of the output).
    pub error: EncodeError,
}

impl fmt::Display for EncodeIntoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value {} (after {} units): {}", self.index, self.written, self.error)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeIntoError {}
