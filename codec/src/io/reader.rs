//! [`TranscodeReader`]: an `io::Read` of one codec's units over a reader of
//! another's.

use std::io::{self, Read};

use super::{ErrorMode, Transcoder, CHUNK};
use crate::DynCodec;

/// Reads `from`'s units from an inner reader and yields `to`'s units.
///
/// On a strict-mode error, every unit transcoded before the bad sequence is read out
/// first; the next read returns the error (and so does every read after it).
///
/// An [`Interrupted`](io::ErrorKind::Interrupted) error of the inner reader is
/// retried; any other (such as [`WouldBlock`](io::ErrorKind::WouldBlock)) is
/// returned from a `read` that read out nothing, and the next `read` goes on where
/// it stopped, the open sequence kept. A short read of the inner reader is a
/// smaller chunk, which transcodes to the same output.
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
        let output = engine.output_buffer(CHUNK);
        Ok(TranscodeReader { inner, engine, input: vec![0; CHUNK].into_boxed_slice(), output, taken: 0, eof: false })
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
