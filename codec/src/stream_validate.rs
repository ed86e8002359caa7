//! Streaming validation: input arrives in chunks, each is checked by a
//! whole-buffer validator (the codec's fastest: SIMD where it has one), and only
//! the one sequence still open at a chunk's end is carried over, with the
//! context the codec's rules across adjacent values keep (0 for codecs
//! without rules; see [`crate::Decoder::step_in`]).
//!
//! ```
//! use placemat_codec::{DecodeError, StreamValidator};
//!
//! // A toy validator: `0x01 x` pairs only, in the one context 0 (no pair is
//! // the start of a longer one, so whether more input follows is no matter).
//! fn pairs(_context: usize, input: &[u8], _open: bool) -> (Result<(), DecodeError>, usize) {
//!     let mut i = 0;
//!     while i < input.len() {
//!         match input[i..] {
//!             [1] => return (Err(DecodeError::new(i, None)), 0),
//!             [1, _, ..] => i += 2,
//!             _ => return (Err(DecodeError::new(i, Some(1))), 0),
//!         }
//!     }
//!     (Ok(()), 0)
//! }
//!
//! let mut v = StreamValidator::new(pairs);
//! v.push(&[1, 7, 1]).unwrap(); // `01` is held: its pair is open
//! assert_eq!(v.pending(), [1]);
//! v.push(&[9, 1]).unwrap();
//! assert_eq!(v.finish(), Err(DecodeError::new(4, None))); // cut short at offset 4
//!
//! let mut v = StreamValidator::new(pairs);
//! assert_eq!(v.push(&[1, 2, 5]), Err(DecodeError::new(2, Some(1))));
//! ```

use alloc::vec::Vec;

use crate::DecodeError;

/// A validator over chunks, with errors at stream offsets.
///
/// `check(context, buffer, open)` validates a whole buffer read in `context`
/// as [`crate::dfa::Dfa::validate_in`] does, or, when `open` (more input
/// follows), as [`crate::dfa::Dfa::validate_open`] does, returning the
/// verdict and the context at the end of the valid prefix. (For a codec
/// whose forms overlap by design, a sequence at a chunk's end that the next
/// chunk could lengthen is held back; at [`StreamValidator::finish`] it is
/// read as the end.) The state kept between chunks is the stream
/// offset, that context, and the units of the open sequence (at most the
/// codec's longest sequence; all of an unbounded value).
/// After an error, every call returns that error.
#[derive(Clone, Debug)]
pub struct StreamValidator<F> {
    check: F,
    pending: Vec<u8>,
    offset: usize,
    context: usize,
    error: Option<DecodeError>,
}

impl<F: Fn(usize, &[u8], bool) -> (Result<(), DecodeError>, usize)> StreamValidator<F> {
    /// A validator at offset 0, in context 0, that checks buffers with `check`.
    pub fn new(check: F) -> Self {
        StreamValidator { check, pending: Vec::new(), offset: 0, context: 0, error: None }
    }

    /// The stream offset where the open sequence (or the next) starts.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The units of the sequence still open.
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    /// Validates the next chunk; an invalid sequence is an error at its
    /// stream offset. A sequence cut by the chunk's end is held for the next.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), DecodeError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let result = self.run(chunk);
        if let Err(e) = result {
            self.error = Some(e);
        }
        result
    }

    /// Ends the stream: the units held back are checked as the end of the
    /// input; a sequence still open is an error (cut short).
    pub fn finish(self) -> Result<(), DecodeError> {
        match self.error {
            Some(e) => Err(e),
            None if self.pending.is_empty() => Ok(()),
            None => (self.check)(self.context, &self.pending, false).0.map_err(|e| self.shifted(e)),
        }
    }

    fn run(&mut self, chunk: &[u8]) -> Result<(), DecodeError> {
        let rest = match self.close(chunk)? {
            Some(rest) => rest,
            None => return Ok(()),
        };
        let (verdict, context) = (self.check)(self.context, rest, true);
        self.context = context;
        match verdict {
            Ok(()) => {
                self.offset += rest.len();
                Ok(())
            }
            Err(e) if e.error_len().is_some() => Err(self.shifted(e)),
            Err(e) => {
                self.offset += e.valid_up_to();
                self.pending.extend_from_slice(&rest[e.valid_up_to()..]);
                Ok(())
            }
        }
    }

    /// Completes the open sequence from the head of `chunk`, reading twice as
    /// far each time it is still open; the rest of the chunk, or `None` if the
    /// whole chunk went into the open sequence.
    fn close<'c>(&mut self, chunk: &'c [u8]) -> Result<Option<&'c [u8]>, DecodeError> {
        if self.pending.is_empty() {
            return Ok(Some(chunk));
        }
        let held = self.pending.len();
        let mut n = chunk.len().min(64);
        loop {
            self.pending.extend_from_slice(&chunk[self.pending.len() - held..n]);
            let (verdict, context) = (self.check)(self.context, &self.pending, true);
            match verdict {
                Ok(()) => {
                    self.context = context;
                    self.offset += self.pending.len();
                    self.pending.clear();
                    return Ok(Some(&chunk[n..]));
                }
                Err(e) if e.error_len().is_some() => return Err(self.shifted(e)),
                // The open sequence ended inside the chunk and another began.
                Err(e) if e.valid_up_to() >= held => {
                    self.context = context;
                    self.offset += e.valid_up_to();
                    self.pending.clear();
                    return Ok(Some(&chunk[e.valid_up_to() - held..]));
                }
                Err(_) if n == chunk.len() => return Ok(None),
                Err(_) => n = chunk.len().min(2 * n),
            }
        }
    }

    fn shifted(&self, e: DecodeError) -> DecodeError {
        DecodeError::new(self.offset + e.valid_up_to(), e.error_len())
    }
}
