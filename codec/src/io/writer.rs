//! [`TranscodeWriter`]: an `io::Write` of one codec's units into a writer of
//! another's, keeping that trait's contract when the inner writer fails.

use std::io::{self, Write};

use super::{ErrorMode, Transcoder, CHUNK};
use crate::DynCodec;

/// Takes `from`'s units and writes `to`'s units to an inner writer.
///
/// Call [`TranscodeWriter::try_finish`] or [`TranscodeWriter::finish`] at the end:
/// they report (or replace) a truncated tail and deliver everything still
/// buffered. On a strict-mode error, the output of everything before the bad
/// sequence is delivered to the inner writer before the error is reported, and
/// every later call returns the same error.
///
/// # The `io::Write` contract
///
/// [`write`](Write::write) returns `Ok(n)` when it has taken exactly the first `n`
/// bytes of its input, and `Err` only when it has taken none of them: a caller
/// offers again what was not taken, and no byte is lost or transcoded twice. Output
/// the inner writer has not accepted stays in the adapter (at most the output of one
/// [`CHUNK`] of input; [`TranscodeWriter::buffer`] shows it) and is delivered first
/// by the next `write`, `flush`, `try_finish` or `finish`:
///
/// - Before taking any input, `write` delivers what is still buffered. If the inner
///   writer fails then, `write` returns its error having taken nothing.
/// - Having taken input, `write` delivers the output at once. If the inner writer
///   fails now, `write` still returns `Ok(n)` — the bytes were taken — and keeps the
///   output; the next call retries it and returns the error if it persists.
/// - In strict mode, `write` takes the bytes before a bad sequence (`Ok(n)` stops
///   there); the next call, once everything before the error is delivered, returns
///   the error.
/// - A short write of the inner writer (`Ok(k)` for fewer bytes than offered)
///   continues where it stopped; `Ok(0)` is an error of kind
///   [`WriteZero`](io::ErrorKind::WriteZero); [`Interrupted`](io::ErrorKind::Interrupted)
///   is retried (as `write_all` does); [`WouldBlock`](io::ErrorKind::WouldBlock)
///   and every other error are returned with the undelivered output kept, and the
///   next call goes on exactly where delivery stopped.
/// - [`flush`](Write::flush) and [`try_finish`](TranscodeWriter::try_finish) return
///   `Err` while output is undelivered and the inner writer fails; both can be
///   called again. `finish` returns the inner writer only when everything was
///   delivered and flushed.
///
/// Dropping the writer without finishing tries once to deliver what is still
/// buffered (ignoring errors, as [`std::io::BufWriter`] does), and leaves a
/// truncated tail unreported.
#[derive(Debug)]
pub struct TranscodeWriter<'a, W: Write> {
    /// `None` only once `finish` has taken it.
    inner: Option<W>,
    engine: Transcoder<'a>,
    /// Transcoded output; `output[delivered..]` is not yet accepted by `inner`.
    output: Vec<u8>,
    delivered: usize,
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
        let output = engine.output_buffer(CHUNK);
        Ok(TranscodeWriter { inner: Some(inner), engine, output, delivered: 0 })
    }

    /// The same adapter accepting sequences of at most `units` units (see
    /// [`super::DEFAULT_MAX_SEQUENCE`]).
    pub fn with_max_sequence(mut self, units: usize) -> Self {
        self.engine.set_max_sequence(units);
        self
    }

    /// Units of the input decoded so far.
    pub fn offset(&self) -> u64 {
        self.engine.offset()
    }

    /// Bytes of buffer memory the writer holds; it does not grow with the input.
    pub fn buffer_capacity(&self) -> usize {
        self.output.capacity() + self.engine.buffer_capacity()
    }

    /// Transcoded output the inner writer has not accepted yet; the next `write`,
    /// `flush`, `try_finish` or `finish` delivers it first.
    pub fn buffer(&self) -> &[u8] {
        &self.output[self.delivered..]
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        self.inner.as_ref().expect("the inner writer is only taken by `finish`, which consumes the adapter")
    }

    /// The inner writer. Writing to it directly puts bytes before the output still
    /// [buffered](TranscodeWriter::buffer).
    pub fn get_mut(&mut self) -> &mut W {
        self.inner.as_mut().expect("the inner writer is only taken by `finish`, which consumes the adapter")
    }

    /// Delivers the buffered output to the inner writer, continuing short writes and
    /// retrying `Interrupted`. On an error, what was not accepted stays buffered.
    fn deliver(&mut self) -> io::Result<()> {
        while self.delivered < self.output.len() {
            let Some(inner) = self.inner.as_mut() else {
                break;
            };
            let rest = &self.output[self.delivered..];
            match inner.write(rest) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "the inner writer accepted no bytes; the transcoded output is kept for a retry",
                    ))
                }
                // `min`: a writer claiming more than it was offered took all of it.
                Ok(n) => self.delivered += n.min(rest.len()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.output.clear();
        self.delivered = 0;
        Ok(())
    }

    /// Flushes the inner writer, retrying `Interrupted`.
    fn flush_inner(&mut self) -> io::Result<()> {
        loop {
            match self.get_mut().flush() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                result => return result,
            }
        }
    }

    /// Ends the input — reports (or replaces) a truncated tail — delivers everything
    /// still buffered and flushes the inner writer. On an error of the inner writer
    /// (`WouldBlock`, say) nothing is lost: call it again, and it goes on where it
    /// stopped; the tail is handled only once. `Ok` means every unit of output was
    /// delivered.
    pub fn try_finish(&mut self) -> io::Result<()> {
        self.deliver()?;
        let result = self.engine.finish(&mut self.output);
        self.deliver()?;
        result?;
        self.flush_inner()
    }

    /// [`try_finish`](TranscodeWriter::try_finish), then returns the inner writer.
    /// On an error the adapter is gone (dropping it tries once more to deliver its
    /// buffer); with an inner writer that can fail and recover (a non-blocking
    /// socket), call `try_finish` until it succeeds first.
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        Ok(self.inner.take().expect("taken only here"))
    }
}

impl<W: Write> Write for TranscodeWriter<'_, W> {
    /// Delivers what is still buffered, then transcodes `buf` (in [`CHUNK`]-sized
    /// pieces) and writes the result. See [the contract](TranscodeWriter#the-iowrite-contract).
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Nothing of `buf` is taken until the output of earlier input is delivered,
        // so the output buffer never holds more than one piece's output.
        self.deliver()?;
        if let Some(e) = &self.engine.failed {
            return Err(e.clone().into());
        }
        let mut taken = 0;
        for piece in buf.chunks(CHUNK) {
            // The stream offset of `piece[0]`: units decoded, then the open sequence.
            let start = self.engine.offset() + self.engine.pending().len() as u64;
            if let Err(e) = self.engine.push(piece, &mut self.output) {
                // The units before the bad sequence are taken; the sequence is not
                // (it may have begun in an earlier call, which took its first units).
                let before = e.offset().saturating_sub(start);
                taken += usize::try_from(before).map_or(piece.len(), |b| b.min(piece.len()));
                if taken == 0 {
                    self.deliver()?;
                    return Err(e.into());
                }
                // The next call delivers what is left and returns the error.
                let _ = self.deliver();
                return Ok(taken);
            }
            taken += piece.len();
            if self.deliver().is_err() {
                // `piece` is taken; its output waits for the next call, which
                // returns the error if it persists.
                return Ok(taken);
            }
        }
        Ok(taken)
    }

    /// Delivers what is still buffered and flushes the inner writer; `Err` if
    /// either fails (what was not delivered stays buffered).
    fn flush(&mut self) -> io::Result<()> {
        self.deliver()?;
        self.flush_inner()
    }
}

impl<W: Write> Drop for TranscodeWriter<'_, W> {
    /// Tries once to deliver what is still buffered, ignoring errors (not while
    /// panicking: the inner writer may be what panicked).
    fn drop(&mut self) {
        if self.inner.is_some() && !std::thread::panicking() {
            let _ = self.deliver();
        }
    }
}
