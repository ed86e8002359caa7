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
//! #     fn dyn_info(&self) -> &CodecInfo { &self.0 }
//! #     fn description(&self) -> &str { "" }
//! #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
//! #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//! #         let b = u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?;
//! #         out.push(b);
//! #         Ok(())
//! #     }
//! #     fn dyn_step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
//! #         input.first().map_or(Step::Incomplete, |&b| Step::Value { value: b.into(), len: 1 })
//! #     }
//! # }
//! # /// Seven-bit ASCII as a toy codec.
//! # struct Ascii(CodecInfo);
//! # impl DynCodec for Ascii {
//! #     fn dyn_info(&self) -> &CodecInfo { &self.0 }
//! #     fn description(&self) -> &str { "" }
//! #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
//! #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//! #         if value > 0x7F { return Err(EncodeError::Unencodable { value }); }
//! #         out.push(value as u8);
//! #         Ok(())
//! #     }
//! #     fn dyn_step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
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
//! # Errors of the inner reader or writer
//!
//! Both adapters keep the [`std::io`] contracts when the stream under them fails,
//! so a caller can retry — a non-blocking event loop on
//! [`WouldBlock`](std::io::ErrorKind::WouldBlock), say — without losing or
//! duplicating a byte:
//!
//! - [`Interrupted`](std::io::ErrorKind::Interrupted) from the inner reader or
//!   writer is retried inside the adapter, as `read_to_end` and `write_all` do.
//! - Any other error is returned to the caller, and the next call goes on exactly
//!   where the failed one stopped. A reader's failed `read` has read out nothing; a
//!   short read of the inner reader is just a smaller chunk.
//! - [`TranscodeWriter::write`](std::io::Write::write) returns `Ok(n)` for exactly
//!   the `n` bytes it took and `Err` only when it took none. Output the inner writer
//!   did not accept (after an error, or a short write) stays buffered and is
//!   delivered first by the next `write`, `flush`, [`TranscodeWriter::try_finish`] or
//!   [`TranscodeWriter::finish`]; `flush` and `try_finish` return `Err` while it is
//!   undelivered, and `finish` returns `Ok` only once everything is delivered. An
//!   inner `write` returning `Ok(0)` is reported as
//!   [`WriteZero`](std::io::ErrorKind::WriteZero).
//!
//! ```
//! use std::io::{self, Write};
//! use placemat_codec::io::{ErrorMode, TranscodeWriter};
//! # use placemat_codec::{dfa::Dfa, CodecInfo, DynCodec, EncodeError, Step, Strategy, Unit};
//! # struct Latin1(CodecInfo);
//! # impl DynCodec for Latin1 {
//! #     fn dyn_info(&self) -> &CodecInfo { &self.0 }
//! #     fn description(&self) -> &str { "" }
//! #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
//! #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//! #         let b = u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?;
//! #         out.push(b);
//! #         Ok(())
//! #     }
//! #     fn dyn_step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
//! #         input.first().map_or(Step::Incomplete, |&b| Step::Value { value: b.into(), len: 1 })
//! #     }
//! # }
//! # let latin1 = Latin1(CodecInfo::new("latin1", "", Unit::Byte, 32, 0, 0xFF, &[], Some(1)));
//! /// A non-blocking socket: it takes at most 4 bytes a call, and every other call
//! /// would block.
//! struct Socket { sent: Vec<u8>, calls: u32 }
//! impl Write for Socket {
//!     fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
//!         self.calls += 1;
//!         if self.calls % 2 == 0 {
//!             return Err(io::ErrorKind::WouldBlock.into());
//!         }
//!         let n = buf.len().min(4);
//!         self.sent.extend_from_slice(&buf[..n]);
//!         Ok(n)
//!     }
//!     fn flush(&mut self) -> io::Result<()> { Ok(()) }
//! }
//!
//! let socket = Socket { sent: Vec::new(), calls: 0 };
//! let mut writer = TranscodeWriter::new(socket, &latin1, &latin1, ErrorMode::Strict).unwrap();
//! let mut input: &[u8] = b"hello, world";
//! while !input.is_empty() {
//!     match writer.write(input) {
//!         Ok(n) => input = &input[n..], // taken: never offered again
//!         // Nothing taken: offer the same bytes again (once the socket is ready).
//!         Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
//!         Err(e) => panic!("{e}"),
//!     }
//! }
//! // Output the socket has not accepted yet is delivered by `try_finish`, which can
//! // be retried; `finish` then hands the socket back.
//! while let Err(e) = writer.try_finish() {
//!     assert_eq!(e.kind(), io::ErrorKind::WouldBlock);
//! }
//! assert!(writer.buffer().is_empty());
//! assert_eq!(writer.finish().unwrap().sent, b"hello, world");
//! ```
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
use std::io;

mod fused;
mod pair_path;
mod pair_source;
mod pair_units;
mod reader;
mod shared;
mod transcoder;
mod values_kernel;
mod wide_to_pairs;
mod writer;

pub use reader::TranscodeReader;
pub use shared::leads_apart;
pub use transcoder::Transcoder;

pub use writer::TranscodeWriter;

/// Input units processed at a time.
pub const CHUNK: usize = 1 << 16;

/// Whether `to`'s rules across values never look at what `from` writes into
/// it: `to` has none, or no value of `from` is one after which they look
/// ([`CodecInfo::never_meets_rules_of`](crate::CodecInfo::never_meets_rules_of):
/// UTF-16 into WTF-8). Then the paths without rules take the pair.
fn rules_unmet(from: &dyn crate::DynCodec, to: &dyn crate::DynCodec) -> bool {
    to.dfa().contexts() == 1 || from.info().never_meets_rules_of(to.info())
}

/// Transcodes a whole buffer of `from`'s units into `to`'s, appending to
/// `out`: one call for what [`Transcoder::push`] and [`Transcoder::finish`]
/// do over a stream, on the same paths (blocks of values, runs of ASCII, one
/// value at a time only where those stop). On a strict-mode error the
/// output of everything before it has been appended. `placemat_variants`'
/// crate docs show it between UTF-8 and UTF-16.
///
/// # Errors
/// A [`TranscodeError`] at the offset of the first input the target refuses
/// (strict mode); in replace mode only when the target cannot encode U+FFFD
/// ([`TranscodeErrorKind::Unencodable`] at offset 0).
pub fn transcode_into(
    from: &dyn crate::DynCodec,
    to: &dyn crate::DynCodec,
    mode: ErrorMode,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), TranscodeError> {
    let mut engine = Transcoder::new(from, to, mode)
        .map_err(|_| TranscodeError { offset: 0, kind: TranscodeErrorKind::Unencodable { value: REPLACEMENT } })?;
    engine.push(input, out)?;
    engine.finish(out)
}

/// The longest sequence a [`Transcoder`] accepts by default, in units (16 Mi):
/// one value of an unbounded codec (or of one padded without a limit) is held
/// whole until it ends, so untrusted
/// input must not make it grow without limit. Change it with
/// [`Transcoder::with_max_sequence`].
pub const DEFAULT_MAX_SEQUENCE: usize = 1 << 24;

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
        /// The value, in the source's 64-bit view (a signed source's value
        /// as its sign-extended pattern).
        value: u64,
    },
    /// A value past the 64-bit view (from an unbounded source codec) decoded
    /// correctly, but the target codec cannot encode it.
    UnencodableBig {
        /// The value, as uppercase hex digits (after a `-` if negative).
        hex: String,
    },
    /// A sequence ran past the longest the transcoder accepts (in both modes:
    /// a resource limit, not a decoding error).
    TooLong {
        /// The limit, in units.
        limit: usize,
    },
    /// A value decoded correctly, but a rule of the target codec forbids it
    /// right after the value before it (a low surrogate after a high one,
    /// going to WTF-8).
    ForbiddenAfter {
        /// The value before.
        before: u64,
        /// The value.
        value: u64,
    },
}

/// A transcoding failure, located in the input stream.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TranscodeError {
    offset: u64,
    kind: TranscodeErrorKind,
}

impl TranscodeError {
    /// The error `kind` at `offset` units from the start of the input stream
    /// (for adapters built on [`Transcoder`] that report its errors' kinds).
    pub fn new(offset: u64, kind: TranscodeErrorKind) -> Self {
        TranscodeError { offset, kind }
    }

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
            TranscodeErrorKind::ForbiddenAfter { before, value } => write!(
                f,
                "U+{value:04X}, decoded at offset {}, may not follow U+{before:04X} in the target codec",
                self.offset
            ),
            TranscodeErrorKind::UnencodableBig { hex } => {
                let shown = match hex.strip_prefix('-') {
                    Some(magnitude) => format!("-0x{magnitude}"),
                    None => format!("U+{hex}"),
                };
                write!(f, "{shown}, decoded at offset {}, cannot be encoded by the target codec", self.offset)
            }
            TranscodeErrorKind::TooLong { limit } => {
                write!(f, "the sequence at offset {} is longer than {limit} units, the limit on one value", self.offset)
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
