//! Transcoding between any two codecs over `std::io`, in constant memory.
//!
//! [`TranscodeReader`] wraps a reader of one codec's units and reads out another
//! codec's units; [`TranscodeWriter`] takes one codec's units and writes another's to
//! an inner writer. Both drive a [`Transcoder`], which keeps only the units of the
//! one sequence still open between chunks, so memory does not grow with the input.
//!
//! ```
//! use std::io::Read;
//! use placemat_codec::io::{ErrorMode, TranscodeError, TranscodeErrorKind, TranscodeReader};
//! # use placemat_codec::{dfa::Dfa, CodecInfo, DynCodec, EncodeError, Step, Strategy, Unit};
//! # /// Latin-1 as a toy codec: one byte per value, values 00–FF.
//! # struct Latin1(CodecInfo);
//! # impl DynCodec for Latin1 {
//! #     fn info(&self) -> &CodecInfo { &self.0 }
//! #     fn description(&self) -> &str { "" }
//! #     fn dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
//! #     fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//! #         let b = u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?;
//! #         out.push(b);
//! #         Ok(())
//! #     }
//! #     fn step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
//! #         input.first().map_or(Step::Incomplete, |&b| Step::Value { value: b.into(), len: 1 })
//! #     }
//! # }
//! # /// Seven-bit ASCII as a toy codec.
//! # struct Ascii(CodecInfo);
//! # impl DynCodec for Ascii {
//! #     fn info(&self) -> &CodecInfo { &self.0 }
//! #     fn description(&self) -> &str { "" }
//! #     fn dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
//! #     fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//! #         if value > 0x7F { return Err(EncodeError::Unencodable { value }); }
//! #         out.push(value as u8);
//! #         Ok(())
//! #     }
//! #     fn step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
//! #         match input.first() {
//! #             None => Step::Incomplete,
//! #             Some(&b) if b < 0x80 => Step::Value { value: b.into(), len: 1 },
//! #             Some(_) => Step::Invalid { len: 1 },
//! #         }
//! #     }
//! # }
//! # let latin1 = Latin1(CodecInfo::new("latin1", "", Unit::Byte, 32, 0, 0xFF, &[], Some(1)));
//! # let ascii = Ascii(CodecInfo::new("ascii", "", Unit::Byte, 32, 0, 0x7F, &[], Some(1)));
//! // Latin-1 "café" (63 61 66 E9) read out as ASCII: é (U+00E9) has no ASCII form.
//! let input: &[u8] = b"caf\xE9!";
//! let mut strict = TranscodeReader::new(input, &latin1, &ascii, ErrorMode::Strict).unwrap();
//! let mut out = Vec::new();
//! let err = strict.read_to_end(&mut out).unwrap_err();
//! assert_eq!(out, b"caf", "everything before the error is delivered");
//! let err: &TranscodeError = err.get_ref().unwrap().downcast_ref().unwrap();
//! assert_eq!(err.offset(), 3);
//! assert_eq!(*err.kind(), TranscodeErrorKind::Unencodable { value: 0xE9 });
//! ```
//!
//! # Errors
//!
//! In [`ErrorMode::Strict`] the first problem ends the transcoding: everything
//! before it is delivered, then an [`std::io::Error`] of kind
//! [`InvalidData`](std::io::ErrorKind::InvalidData) carries a [`TranscodeError`]
//! (reach it with `get_ref()` and `downcast_ref`) with the offset of the bad
//! sequence in the input stream's coordinates — counted from the first unit ever
//! read, whatever the chunking. In [`ErrorMode::Replace`] each maximal subpart, a
//! truncated tail, and each value the target cannot encode (a surrogate, or a value
//! above U+10FFFF, going to strict UTF-8) becomes the target's encoding of U+FFFD.
//!
//! # Memory
//!
//! A reader holds one input chunk ([`CHUNK`] units), the output of one chunk, and
//! the open sequence (fewer units than the source codec's longest sequence). A
//! writer holds the output of one [`CHUNK`] of its input and the open sequence. So
//! a stream of any length transcodes in memory bounded by the two codecs' longest
//! sequences times [`CHUNK`]; [`TranscodeReader::buffer_capacity`] and
//! [`TranscodeWriter::buffer_capacity`] report it, and the tests check it.

use std::fmt;
use std::io::{self, Read, Write};

use crate::{DynCodec, Step, Strategy};

/// Input units processed at a time.
pub const CHUNK: usize = 1 << 16;

/// The replacement value, U+FFFD.
const REPLACEMENT: u64 = 0xFFFD;

/// How bad input and unencodable values are handled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ErrorMode {
    /// Stop at the first problem with a [`TranscodeError`].
    #[default]
    Strict,
    /// Write the target's U+FFFD for each maximal subpart, truncated tail or
    /// unencodable value, and go on.
    Replace,
}

/// What went wrong, at [`TranscodeError::offset`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TranscodeErrorKind {
    /// `len` units form a maximal subpart that no valid sequence continues.
    Invalid {
        /// Units in the maximal subpart.
        len: usize,
        /// The maximal subpart followed by the unit that could not continue it (just
        /// the subpart when its first unit starts no sequence), for messages.
        found: Vec<u8>,
    },
    /// The input ended inside a sequence.
    Incomplete {
        /// The units of the unfinished sequence.
        found: Vec<u8>,
    },
    /// A value decoded correctly but the target codec cannot encode it.
    Unencodable {
        /// The value.
        value: u64,
    },
    /// A value of more than 64 bits (from an unbounded source codec) decoded
    /// correctly, but the target codec cannot encode it.
    UnencodableBig {
        /// The value, as uppercase hex digits.
        hex: String,
    },
}

/// A transcoding failure, located in the input stream.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TranscodeError {
    offset: u64,
    kind: TranscodeErrorKind,
}

impl TranscodeError {
    /// Offset of the bad sequence (or of the unencodable value's sequence), in units
    /// from the start of the input stream.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &TranscodeErrorKind {
        &self.kind
    }

    /// The error inside an [`io::Error`] returned by the adapters, if it is one.
    pub fn from_io(error: &io::Error) -> Option<&TranscodeError> {
        error.get_ref().and_then(|e| e.downcast_ref::<TranscodeError>())
    }
}

impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = |units: &[u8]| units.iter().map(|u| format!("{u:02X}")).collect::<Vec<_>>().join(" ");
        match &self.kind {
            TranscodeErrorKind::Invalid { len, found } => write!(
                f,
                "invalid sequence of {len} unit{} at offset {} (found {})",
                if *len == 1 { "" } else { "s" },
                self.offset,
                hex(found)
            ),
            TranscodeErrorKind::Incomplete { found } => {
                write!(f, "incomplete sequence at end of input at offset {} (found {})", self.offset, hex(found))
            }
            TranscodeErrorKind::Unencodable { value } => {
                write!(f, "U+{value:04X}, decoded at offset {}, cannot be encoded by the target codec", self.offset)
            }
            TranscodeErrorKind::UnencodableBig { hex } => {
                write!(f, "U+{hex}, decoded at offset {}, cannot be encoded by the target codec", self.offset)
            }
        }
    }
}

impl std::error::Error for TranscodeError {}

impl From<TranscodeError> for io::Error {
    fn from(e: TranscodeError) -> Self {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// The transcoding engine without I/O: push chunks of source units, collect target
/// units.
///
/// ```
/// use placemat_codec::io::{ErrorMode, Transcoder};
/// # use placemat_codec::{dfa::Dfa, CodecInfo, DynCodec, EncodeError, Step, Strategy, Unit};
/// # /// A toy codec: `01 x` is the value `x`, anything else is invalid.
/// # struct Pairs(CodecInfo);
/// # impl DynCodec for Pairs {
/// #     fn info(&self) -> &CodecInfo { &self.0 }
/// #     fn description(&self) -> &str { "" }
/// #     fn dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
/// #     fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
/// #         let b = u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?;
/// #         out.extend_from_slice(&[1, b]);
/// #         Ok(())
/// #     }
/// #     fn step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
/// #         match input {
/// #             [] | [1] => Step::Incomplete,
/// #             [1, x, ..] => Step::Value { value: (*x).into(), len: 2 },
/// #             _ => Step::Invalid { len: 1 },
/// #         }
/// #     }
/// # }
/// # let pairs = Pairs(CodecInfo::new("pairs", "", Unit::Byte, 32, 0, 0xFF, &[], Some(2)));
/// let mut t = Transcoder::new(&pairs, &pairs, ErrorMode::Strict).unwrap();
/// let mut out = Vec::new();
/// t.push(&[1], &mut out).unwrap(); // the pair is still open
/// assert!(out.is_empty());
/// t.push(&[7, 1, 9], &mut out).unwrap();
/// t.finish(&mut out).unwrap();
/// assert_eq!(out, [1, 7, 1, 9]);
/// assert_eq!(t.offset(), 4);
/// ```
pub struct Transcoder<'a> {
    from: &'a dyn DynCodec,
    to: &'a dyn DynCodec,
    mode: ErrorMode,
    /// The target's encoding of U+FFFD (empty in strict mode).
    replacement: Vec<u8>,
    /// Units of the sequence still open at the end of the last chunk.
    pending: Vec<u8>,
    /// Where `pending` is moved while it is decoded (kept to reuse its memory).
    scratch: Vec<u8>,
    /// Stream offset of the first unit not yet decoded (the first pending unit).
    offset: u64,
    /// The error that stopped a strict transcoding; every later call repeats it.
    failed: Option<TranscodeError>,
}

impl fmt::Debug for Transcoder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transcoder")
            .field("from", &self.from.info().name)
            .field("to", &self.to.info().name)
            .field("mode", &self.mode)
            .field("offset", &self.offset)
            .field("pending", &self.pending)
            .finish()
    }
}

impl<'a> Transcoder<'a> {
    /// A transcoder from `from`'s units to `to`'s. In replace mode the target must
    /// be able to encode U+FFFD; if it cannot, the refusal is returned.
    pub fn new(from: &'a dyn DynCodec, to: &'a dyn DynCodec, mode: ErrorMode) -> Result<Self, crate::EncodeError> {
        let mut replacement = Vec::new();
        if mode == ErrorMode::Replace {
            to.encode_push(REPLACEMENT, &mut replacement)?;
        }
        // An open sequence is shorter than the longest one; with the unit that
        // completes it, it fits these buffers, which therefore never grow.
        let longest = from.info().max_units.unwrap_or(16) + 1;
        Ok(Transcoder {
            from,
            to,
            mode,
            replacement,
            pending: Vec::with_capacity(longest),
            scratch: Vec::with_capacity(longest),
            offset: 0,
            failed: None,
        })
    }

    /// Units decoded so far (the stream offset of the next unit to decode).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Units held back because the next chunk may complete their sequence.
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    /// Bytes of memory the transcoder holds (its open sequence and replacement).
    pub fn buffer_capacity(&self) -> usize {
        self.pending.capacity() + self.scratch.capacity() + self.replacement.capacity()
    }

    /// The longest output one input unit can cause: a value's longest encoding
    /// (spread over its units, at least one) or one replacement.
    fn max_output_per_unit(&self) -> usize {
        self.to.info().max_units.unwrap_or(1).max(self.replacement.len()).max(1)
    }

    /// Transcodes `chunk`, appending to `out`. On a strict-mode error, the output of
    /// everything before the bad sequence has been appended.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        // Finish the sequence left open by the previous chunk one unit at a time:
        // it is short, and a step looks at no unit past the sequence it reports.
        while !self.pending.is_empty() {
            let Some((&unit, rest)) = chunk.split_first() else {
                return Ok(());
            };
            self.pending.push(unit);
            chunk = rest;
            let step = self.from.step(Strategy::Table, &self.pending);
            if step == Step::Incomplete {
                continue;
            }
            // Move the sequence out of `pending` (which then starts empty), decode
            // it, and decode the units after the item again from a sequence start.
            let mut held = std::mem::take(&mut self.scratch);
            held.clear();
            std::mem::swap(&mut held, &mut self.pending);
            let result = self.item(step, &held, out).and_then(|len| self.run(&held[len..], out));
            self.scratch = held;
            result?;
        }
        self.run(chunk, out)
    }

    /// Decodes `data` with nothing pending, keeping an open tail in `pending`.
    fn run(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        let mut pos = 0;
        while pos < data.len() {
            let step = self.from.step(Strategy::Table, &data[pos..]);
            if step == Step::Incomplete {
                self.pending.extend_from_slice(&data[pos..]);
                return Ok(());
            }
            pos += self.item(step, &data[pos..], out)?;
        }
        Ok(())
    }

    /// Handles one complete item at the start of `data`; returns its length.
    fn item(&mut self, step: Step<u64>, data: &[u8], out: &mut Vec<u8>) -> Result<usize, TranscodeError> {
        let (len, problem) = match step {
            Step::Value { value, len } => match self.to.encode_push(value, out) {
                Ok(()) => (len, None),
                Err(_) => (len, Some(TranscodeErrorKind::Unencodable { value })),
            },
            // An unbounded source reports values above 64 bits as invalid in its
            // 64-bit view; decode those exactly and hand them on whole.
            #[cfg(feature = "big")]
            Step::Invalid { len } if self.from.info().unbounded && self.big_value(&data[..len]).is_some() => {
                let value = self.big_value(&data[..len]).unwrap_or_default();
                match self.to.encode_big(&value, out) {
                    Ok(()) => (len, None),
                    Err(_) => (len, Some(TranscodeErrorKind::UnencodableBig { hex: format!("{value:X}") })),
                }
            }
            Step::Invalid { len } => {
                // The maximal subpart, and the unit that ended it if a unit did
                // (rather than the subpart's own first unit starting nothing): the
                // units the decision rests on, whatever the chunking.
                let ended = self.from.step(Strategy::Table, &data[..len]) == Step::Incomplete;
                let found = data[..(len + usize::from(ended)).min(data.len())].to_vec();
                (len, Some(TranscodeErrorKind::Invalid { len, found }))
            }
            Step::Incomplete => unreachable!("incomplete steps are held back, never handled as items"),
        };
        if let Some(kind) = problem {
            self.problem(kind, out)?;
        }
        self.offset += len as u64;
        Ok(len)
    }

    /// The value of `units` if they are exactly one valid sequence (any size).
    #[cfg(feature = "big")]
    fn big_value(&self, units: &[u8]) -> Option<crate::big::BigUint> {
        match self.from.step_big(Strategy::Table, units) {
            Step::Value { value, len } if len == units.len() => Some(value),
            _ => None,
        }
    }

    /// Replaces, or fails with, a problem at the current offset.
    fn problem(&mut self, kind: TranscodeErrorKind, out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        match self.mode {
            ErrorMode::Replace => {
                out.extend_from_slice(&self.replacement);
                Ok(())
            }
            ErrorMode::Strict => {
                let e = TranscodeError { offset: self.offset, kind };
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Ends the stream: a sequence still open is a truncated tail (an error in
    /// strict mode, one U+FFFD in replace mode). Calling it again does nothing more.
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.pending.is_empty() {
            return Ok(());
        }
        let found = self.pending.clone();
        self.pending.clear();
        let len = found.len() as u64;
        self.problem(TranscodeErrorKind::Incomplete { found }, out)?;
        self.offset += len;
        Ok(())
    }
}

/// Reads `from`'s units from an inner reader and yields `to`'s units.
///
/// On a strict-mode error, every unit transcoded before the bad sequence is read out
/// first; the next read returns the error (and so does every read after it).
#[derive(Debug)]
pub struct TranscodeReader<'a, R> {
    inner: R,
    engine: Transcoder<'a>,
    input: Box<[u8]>,
    output: Vec<u8>,
    /// Bytes of `output` already read out.
    taken: usize,
    eof: bool,
}

impl<'a, R: Read> TranscodeReader<'a, R> {
    /// A reader transcoding `inner` from `from` to `to`. Fails (in replace mode) if
    /// `to` cannot encode U+FFFD.
    pub fn new(
        inner: R,
        from: &'a dyn DynCodec,
        to: &'a dyn DynCodec,
        mode: ErrorMode,
    ) -> Result<Self, crate::EncodeError> {
        let engine = Transcoder::new(from, to, mode)?;
        let output = Vec::with_capacity(CHUNK * engine.max_output_per_unit());
        Ok(TranscodeReader { inner, engine, input: vec![0; CHUNK].into_boxed_slice(), output, taken: 0, eof: false })
    }

    /// Units of the input decoded so far.
    pub fn offset(&self) -> u64 {
        self.engine.offset()
    }

    /// Bytes of buffer memory the reader holds; it does not grow with the input.
    pub fn buffer_capacity(&self) -> usize {
        self.input.len() + self.output.capacity() + self.engine.buffer_capacity()
    }

    /// The inner reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Refills `output` from the next input chunk. Returns `Ok(false)` at the end.
    fn refill(&mut self) -> io::Result<bool> {
        self.output.clear();
        self.taken = 0;
        while self.output.is_empty() {
            if let Some(e) = &self.engine.failed {
                return Err(e.clone().into());
            }
            if self.eof {
                return Ok(false);
            }
            let n = match self.inner.read(&mut self.input) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let result = if n == 0 {
                self.eof = true;
                self.engine.finish(&mut self.output)
            } else {
                self.engine.push(&self.input[..n], &mut self.output)
            };
            // On an error, what came before it is delivered first; the next refill
            // returns the error.
            if let Err(e) = result {
                if self.output.is_empty() {
                    return Err(e.into());
                }
            }
        }
        Ok(true)
    }
}

impl<R: Read> Read for TranscodeReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.taken == self.output.len() && !self.refill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.output.len() - self.taken);
        buf[..n].copy_from_slice(&self.output[self.taken..self.taken + n]);
        self.taken += n;
        Ok(n)
    }
}

/// Takes `from`'s units and writes `to`'s units to an inner writer.
///
/// Call [`TranscodeWriter::finish`] at the end: it reports a truncated tail and
/// returns the inner writer. (Dropping the writer instead loses nothing that was
/// complete — output is written through on every call — but a truncated tail then
/// goes unreported.) On a strict-mode error, the output of everything
/// before the bad sequence has been written to the inner writer, and every later
/// call returns the same error.
#[derive(Debug)]
pub struct TranscodeWriter<'a, W: Write> {
    inner: Option<W>,
    engine: Transcoder<'a>,
    output: Vec<u8>,
}

impl<'a, W: Write> TranscodeWriter<'a, W> {
    /// A writer transcoding into `inner` from `from` to `to`. Fails (in replace
    /// mode) if `to` cannot encode U+FFFD.
    pub fn new(
        inner: W,
        from: &'a dyn DynCodec,
        to: &'a dyn DynCodec,
        mode: ErrorMode,
    ) -> Result<Self, crate::EncodeError> {
        let engine = Transcoder::new(from, to, mode)?;
        let output = Vec::with_capacity(CHUNK * engine.max_output_per_unit());
        Ok(TranscodeWriter { inner: Some(inner), engine, output })
    }

    /// Units of the input decoded so far.
    pub fn offset(&self) -> u64 {
        self.engine.offset()
    }

    /// Bytes of buffer memory the writer holds; it does not grow with the input.
    pub fn buffer_capacity(&self) -> usize {
        self.output.capacity() + self.engine.buffer_capacity()
    }

    fn inner(&mut self) -> &mut W {
        self.inner.as_mut().expect("the inner writer is only taken by `finish`, which consumes the adapter")
    }

    /// Writes `output` to the inner writer and empties it.
    fn drain(&mut self) -> io::Result<()> {
        let mut output = std::mem::take(&mut self.output);
        let result = self.inner().write_all(&output);
        output.clear();
        self.output = output;
        result
    }

    /// Ends the input: reports (or replaces) a truncated tail, flushes, and returns
    /// the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        let result = self.engine.finish(&mut self.output);
        self.drain()?;
        result?;
        let mut inner = self.inner.take().expect("taken only here");
        inner.flush()?;
        Ok(inner)
    }
}

impl<W: Write> Write for TranscodeWriter<'_, W> {
    /// Transcodes all of `buf` (in [`CHUNK`]-sized pieces) and writes the result.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for piece in buf.chunks(CHUNK) {
            let result = self.engine.push(piece, &mut self.output);
            self.drain()?;
            result?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.inner().flush()
    }
}
