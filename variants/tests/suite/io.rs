//! The `std::io` transcoding adapters (`placemat_codec::io`) on the built-in
//! codecs: split invariance for every chunk size, errors in the stream's
//! coordinates, unencodable values in both modes, bounded buffers, and the
//! `std::io` contracts when the inner reader or writer fails (`WouldBlock`,
//! `Interrupted`, short transfers, `Ok(0)`, other errors), with and without a
//! caller that retries.

use std::cell::Cell;
use std::io::{self, Read, Write};
use std::rc::Rc;

use placemat_codec::io::{
    ErrorMode, TranscodeError, TranscodeErrorKind, TranscodeReader, TranscodeWriter, Transcoder, CHUNK,
};
use placemat_codec::{Decoder, DynCodec};
use placemat_variants::codecs::{FssUtfPlan9, FssUtfXopen, Utf8};

/// A reader that hands out at most `limit` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    limit: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.limit).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

type Outcome = (Vec<u8>, Option<TranscodeError>);

fn via_reader(input: &[u8], limit: usize, from: &dyn DynCodec, to: &dyn DynCodec, mode: ErrorMode) -> Outcome {
    let mut reader = TranscodeReader::new(Trickle { data: input, limit }, from, to, mode).unwrap();
    let mut out = Vec::new();
    let mut buf = vec![0u8; limit.clamp(3, 4096)];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(TranscodeError::from_io(&e).expect("a transcoding error").clone())),
        }
    }
}

fn via_writer(input: &[u8], size: usize, from: &dyn DynCodec, to: &dyn DynCodec, mode: ErrorMode) -> Outcome {
    let mut out = Vec::new();
    let mut writer = TranscodeWriter::new(&mut out, from, to, mode).unwrap();
    for piece in input.chunks(size) {
        if let Err(e) = writer.write_all(piece) {
            drop(writer);
            return (out, Some(TranscodeError::from_io(&e).unwrap().clone()));
        }
    }
    let err = writer.finish().err().map(|e| TranscodeError::from_io(&e).unwrap().clone());
    (out, err)
}

/// Every chunk size from 1 to past the input's length gives the same output and
/// error, through the reader and the writer, in both modes.
fn assert_split_invariant(input: &[u8], from: &dyn DynCodec, to: &dyn DynCodec) {
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        let whole = via_reader(input, usize::MAX, from, to, mode);
        for size in 1..=input.len() + 1 {
            assert_eq!(via_reader(input, size, from, to, mode), whole, "reader, chunks of {size}, {mode:?}");
            assert_eq!(via_writer(input, size, from, to, mode), whole, "writer, chunks of {size}, {mode:?}");
        }
    }
}

#[test]
fn split_invariance_on_mixed_input() {
    // Valid sequences of every length, maximal subparts, a surrogate and a value
    // above U+10FFFF (both valid FSS-UTF), and a truncated tail.
    let mut input = "aé€😀".as_bytes().to_vec();
    input.extend_from_slice(&[0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80]);
    input.extend_from_slice(&[0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0x41, 0xF0, 0x9F]);
    assert_split_invariant(&input, &Utf8, &Utf8);
    assert_split_invariant(&input, &FssUtfPlan9, &Utf8);
    assert_split_invariant(&input, &FssUtfXopen, &FssUtfPlan9);
    assert_split_invariant(&input, &Utf8, &FssUtfXopen);
}

#[test]
fn strict_errors_carry_the_stream_offset() {
    // The bad byte sits beyond several internal chunks.
    let mut input = vec![b'a'; 3 * CHUNK + 17];
    input.extend_from_slice(&[0xE0, 0x80, b'b']);
    for size in [1000, CHUNK - 1, CHUNK, usize::MAX] {
        let (out, err) = via_reader(&input, size, &Utf8, &Utf8, ErrorMode::Strict);
        assert_eq!(out.len(), 3 * CHUNK + 17, "everything before the error is delivered");
        let err = err.expect("strict mode stops");
        assert_eq!(err.offset(), (3 * CHUNK + 17) as u64);
        assert_eq!(*err.kind(), TranscodeErrorKind::Invalid { len: 1, found: vec![0xE0, 0x80] });
        let std_err = Decoder::validate(&Utf8, &input).unwrap_err();
        assert_eq!(err.offset(), std_err.valid_up_to() as u64, "same offset as the whole-input validator");
    }
    let (_, err) = via_writer(b"ok\xF0\x9F\x98", 1, &Utf8, &Utf8, ErrorMode::Strict);
    let err = err.unwrap();
    assert_eq!((err.offset(), err.kind()), (2, &TranscodeErrorKind::Incomplete { found: vec![0xF0, 0x9F, 0x98] }));
    assert_eq!(err.to_string(), "incomplete sequence at end of input at offset 2 (found F0 9F 98)");
}

#[test]
fn values_the_target_cannot_encode() {
    // FSS-UTF (Plan 9) encodes the surrogate U+D800 and U+110000; strict UTF-8 has
    // neither.
    let input = b"a\xED\xA0\x80b\xF4\x90\x80\x80c";
    let (out, err) = via_reader(input, usize::MAX, &FssUtfPlan9, &Utf8, ErrorMode::Strict);
    assert_eq!(out, b"a");
    let err = err.unwrap();
    assert_eq!((err.offset(), err.kind()), (1, &TranscodeErrorKind::Unencodable { value: 0xD800 }));
    assert_eq!(err.to_string(), "U+D800, decoded at offset 1, cannot be encoded by the target codec");
    let (out, err) = via_reader(input, usize::MAX, &FssUtfPlan9, &Utf8, ErrorMode::Replace);
    assert_eq!(err, None);
    assert_eq!(out, "a\u{FFFD}b\u{FFFD}c".as_bytes());
    // The io::Error is InvalidData and displays the inner error.
    let mut reader = TranscodeReader::new(&b"\xFF"[..], &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    let e = reader.read(&mut [0u8; 8]).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert_eq!(e.to_string(), "invalid sequence of 1 unit at offset 0 (found FF)");
    // Errors repeat: a failed transcoding does not resume.
    assert!(reader.read(&mut [0u8; 8]).is_err());
}

#[test]
fn replace_mode_needs_a_target_that_encodes_u_fffd() {
    // Every built-in codec encodes U+FFFD, so replace mode is always available.
    for codec in placemat_variants::registry::all() {
        assert!(TranscodeReader::new(&b""[..], &Utf8, *codec, ErrorMode::Replace).is_ok());
    }
}

#[test]
fn buffers_stay_bounded_whatever_the_input_length() {
    // 8 MiB of random-looking bytes (mostly invalid as X/Open FSS-UTF, full of
    // replacements) through the reader and the writer: the buffers never grow past
    // what they hold after the first chunk.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let input: Vec<u8> = (0..8 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let mut reader = TranscodeReader::new(&input[..], &FssUtfXopen, &Utf8, ErrorMode::Replace).unwrap();
    let mut buf = vec![0u8; 4096];
    let first = reader.buffer_capacity();
    let mut total = 0;
    loop {
        let n = reader.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        total += n;
        assert_eq!(reader.buffer_capacity(), first, "reader buffers grew after {total} bytes");
    }
    assert!(total > input.len() / 2);
    assert!(first < 16 * CHUNK, "reader holds {first} bytes");
    assert_eq!(reader.offset(), input.len() as u64);

    let mut writer = TranscodeWriter::new(io::sink(), &FssUtfXopen, &Utf8, ErrorMode::Replace).unwrap();
    let first = writer.buffer_capacity();
    for piece in input.chunks(100_000) {
        writer.write_all(piece).unwrap();
        assert_eq!(writer.buffer_capacity(), first, "writer buffers grew");
    }
    // Only an open sequence (shorter than 5 units) is still undecoded.
    assert!(input.len() as u64 - writer.offset() < 5);
    writer.finish().unwrap();
}

// ---------------------------------------------------------------------------
// Faulty inner readers and writers.
// ---------------------------------------------------------------------------

/// A small deterministic generator (xorshift64*): every run is reproducible from
/// its seed, which the assertion messages print.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// What a faulty reader or writer does wrong; 0 (or `None`) turns a fault off.
/// Calls are counted from 1, `read`, `write` and `flush` alike.
#[derive(Clone, Copy, Debug, Default)]
struct Faults {
    /// Every k-th call fails with `WouldBlock`.
    would_block_every: usize,
    /// Every k-th call fails with `Interrupted`.
    interrupted_every: usize,
    /// Every k-th `write` returns `Ok(0)`.
    zero_every: usize,
    /// Each call moves only 1 to 3 bytes.
    short: bool,
    /// Once this many bytes have passed, fail with an error of kind `Other` (the
    /// call that would cross the mark moves the bytes up to it only)...
    fail_after: Option<usize>,
    /// ...on every call from then on (until healed), rather than once.
    permanent: bool,
}

/// Fault sets that come back by themselves, for callers that retry.
fn transient_faults() -> Vec<(&'static str, Faults)> {
    let f = Faults::default();
    vec![
        ("none", f),
        ("would-block every 2nd call", Faults { would_block_every: 2, ..f }),
        ("would-block every 3rd call, short", Faults { would_block_every: 3, short: true, ..f }),
        ("interrupted every 2nd call", Faults { interrupted_every: 2, ..f }),
        ("interrupted every 3rd call, short", Faults { interrupted_every: 3, short: true, ..f }),
        ("short", Faults { short: true, ..f }),
        ("Ok(0) every 4th write", Faults { zero_every: 4, ..f }),
        ("fails once after 5 bytes", Faults { fail_after: Some(5), ..f }),
        ("fails once after 37 bytes, short", Faults { fail_after: Some(37), short: true, ..f }),
        (
            "all of them",
            Faults {
                would_block_every: 3,
                interrupted_every: 5,
                zero_every: 7,
                short: true,
                fail_after: Some(23),
                permanent: false,
            },
        ),
    ]
}

/// Fault sets that stay broken once they strike, for callers that stop.
fn permanent_faults() -> Vec<(&'static str, Faults)> {
    let f = Faults { permanent: true, ..Faults::default() };
    vec![
        ("fails for good at once", Faults { fail_after: Some(0), ..f }),
        ("fails for good after 11 bytes", Faults { fail_after: Some(11), ..f }),
        ("fails for good after 40 bytes, short", Faults { fail_after: Some(40), short: true, ..f }),
        (
            "fails for good after 64 bytes, would-block every 2nd call, interrupted every 3rd",
            Faults { fail_after: Some(64), would_block_every: 2, interrupted_every: 3, ..f },
        ),
    ]
}

/// A random fault set (each fault on or off), transient or permanent.
fn random_faults(rng: &mut Rng, permanent: bool) -> Faults {
    let mut every = |percent| if rng.chance(percent) { rng.range(2, 6) } else { 0 };
    let would_block_every = every(50);
    let interrupted_every = every(40);
    let zero_every = every(30);
    let short = rng.chance(50);
    let fail_after = if permanent || rng.chance(40) { Some(rng.range(0, 80)) } else { None };
    Faults { would_block_every, interrupted_every, zero_every, short, fail_after, permanent }
}

/// Decides, call by call, what a faulty reader or writer does.
#[derive(Debug)]
struct Injector {
    faults: Faults,
    calls: usize,
    rng: Rng,
    /// The one-off failure has happened.
    failed: bool,
    /// Every fault is off from now on (shared with the test, which flips it).
    healed: Rc<Cell<bool>>,
}

impl Injector {
    fn new(faults: Faults, seed: u64) -> Self {
        Injector { faults, calls: 0, rng: Rng::new(seed ^ 0xFA17), failed: false, healed: Rc::default() }
    }

    /// The fate of a call offering `offered` bytes after `passed` bytes went
    /// through: an error, or how many bytes to move (0 only if `zero_ok`).
    fn fate(&mut self, offered: usize, passed: usize, zero_ok: bool) -> io::Result<usize> {
        self.calls += 1;
        if self.healed.get() {
            return Ok(offered);
        }
        let f = self.faults;
        let calls = self.calls;
        let hit = |k: usize| k != 0 && calls.is_multiple_of(k);
        if hit(f.interrupted_every) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "injected: interrupted"));
        }
        if hit(f.would_block_every) {
            return Err(io::Error::new(io::ErrorKind::WouldBlock, "injected: would block"));
        }
        if zero_ok && hit(f.zero_every) {
            return Ok(0);
        }
        let mut n = offered;
        if f.short {
            n = n.min(self.rng.range(1, 3));
        }
        if let Some(limit) = f.fail_after {
            if f.permanent || !self.failed {
                if passed >= limit {
                    self.failed = true;
                    return Err(io::Error::other("injected: broken"));
                }
                n = n.min(limit - passed);
            }
        }
        Ok(n)
    }
}

/// A writer that collects what it accepts and fails as its [`Faults`] say.
#[derive(Debug)]
struct FaultyWriter {
    out: Vec<u8>,
    injector: Injector,
}

impl FaultyWriter {
    fn new(faults: Faults, seed: u64) -> Self {
        FaultyWriter { out: Vec::new(), injector: Injector::new(faults, seed) }
    }

    /// Every fault off from now on (the connection came back).
    fn heal(&mut self) {
        self.injector.healed.set(true);
    }
}

impl Write for FaultyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        assert!(!buf.is_empty(), "the adapter offered an empty buffer, where Ok(0) would be ambiguous");
        let n = self.injector.fate(buf.len(), self.out.len(), true)?;
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.injector.fate(1, self.out.len(), false).map(drop)
    }
}

/// A reader of `data` that fails as its [`Faults`] say (`zero_every` is ignored:
/// `Ok(0)` is the end of a reader's input).
#[derive(Debug)]
struct FaultyReader<'a> {
    data: &'a [u8],
    pos: usize,
    injector: Injector,
}

impl<'a> FaultyReader<'a> {
    fn new(data: &'a [u8], faults: Faults, seed: u64) -> Self {
        FaultyReader { data, pos: 0, injector: Injector::new(faults, seed) }
    }

    /// A switch that turns every fault off (the reader is moved into the adapter).
    fn heal_switch(&self) -> Rc<Cell<bool>> {
        Rc::clone(&self.injector.healed)
    }
}

impl Read for FaultyReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = buf.len().min(self.data.len() - self.pos);
        // Faults strike at the end of the input too; a 0-byte move is the end.
        let n = self.injector.fate(available.max(1), self.pos, false)?.min(available);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

// ---------------------------------------------------------------------------
// Drivers and the reference.
// ---------------------------------------------------------------------------

/// The whole input transcoded at once: the output (everything before the error,
/// in strict mode) and the error.
fn reference(input: &[u8], from: &dyn DynCodec, to: &dyn DynCodec, mode: ErrorMode) -> Outcome {
    let mut engine = Transcoder::new(from, to, mode).unwrap();
    let mut out = Vec::new();
    let err = engine.push(input, &mut out).and_then(|()| engine.finish(&mut out)).err();
    (out, err)
}

/// Consecutive failures after which a retrying caller decides it is stuck.
const PATIENCE: usize = 10_000;

/// Consecutive failures without progress: `failures + 1`, or 0 if the inner
/// writer holds more than `seen` bytes now (then `seen` is updated).
fn stuck(failures: usize, seen: &mut usize, now: usize) -> usize {
    if now > *seen {
        *seen = now;
        0
    } else {
        failures + 1
    }
}

/// Random cut points: pieces of 1 to `max` bytes.
fn random_pieces<'a>(rng: &mut Rng, input: &'a [u8], max: usize) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let n = rng.range(1, max.max(1)).min(rest.len());
        pieces.push(&rest[..n]);
        rest = &rest[n..];
    }
    pieces
}

/// The transcoding error an `io::Error` of the adapters carries, if any; panics on
/// an `Interrupted` error, which the adapters retry themselves.
fn transcode_error(e: &io::Error) -> Option<TranscodeError> {
    assert_ne!(e.kind(), io::ErrorKind::Interrupted, "the adapter passed Interrupted on instead of retrying");
    let t = TranscodeError::from_io(e).cloned();
    assert_eq!(t.is_some(), e.kind() == io::ErrorKind::InvalidData, "{e}");
    t
}

/// One run of an adapter over a faulty inner writer or reader.
struct Case<'c> {
    input: &'c [u8],
    from: &'c dyn DynCodec,
    to: &'c dyn DynCodec,
    mode: ErrorMode,
    faults: Faults,
    seed: u64,
    /// The caller's largest write (the reader reads pieces of random sizes).
    max_piece: usize,
    label: String,
}

impl Case<'_> {
    /// A caller that offers the same bytes again after `WouldBlock` (or any other
    /// I/O error), like a non-blocking event loop, then retries `try_finish` until
    /// it succeeds: the inner writer ends up with exactly the whole-input result.
    fn with_retries(&self) {
        let Self { input, from, to, mode, .. } = *self;
        let label = &self.label;
        let expected = reference(input, from, to, mode);
        let mut rng = Rng::new(self.seed);
        let mut writer = TranscodeWriter::new(FaultyWriter::new(self.faults, self.seed), from, to, mode).unwrap();
        let first_capacity = writer.buffer_capacity();
        let mut consumed = 0;
        let mut error = None;
        let mut delivered = 0;
        'pieces: for piece in random_pieces(&mut rng, input, self.max_piece) {
            let mut rest = piece;
            let mut failures = 0;
            while !rest.is_empty() {
                match writer.write(rest) {
                    Ok(n) => {
                        assert!(0 < n && n <= rest.len(), "{label}: Ok({n}) for {} bytes", rest.len());
                        consumed += n;
                        rest = &rest[n..];
                        failures = 0;
                    }
                    Err(e) => {
                        if let Some(t) = transcode_error(&e) {
                            error = Some(t);
                            break 'pieces;
                        }
                        failures = stuck(failures, &mut delivered, writer.get_ref().out.len());
                        assert!(failures < PATIENCE, "{label}: write stuck on {e}");
                    }
                }
            }
        }
        let mut failures = 0;
        let finish_error = loop {
            match writer.try_finish() {
                Ok(()) => break None,
                Err(e) => {
                    if let Some(t) = transcode_error(&e) {
                        break Some(t);
                    }
                    failures = stuck(failures, &mut delivered, writer.get_ref().out.len());
                    assert!(failures < PATIENCE, "{label}: try_finish stuck on {e}");
                }
            }
        };
        assert_eq!(writer.buffer_capacity(), first_capacity, "{label}: the buffers grew");
        if let Some(t) = &error {
            // A strict error from `write` repeats, and nothing is written after it.
            assert_eq!(finish_error.as_ref(), Some(t), "{label}: try_finish after a write error");
            // `write` took the units before the bad sequence (and the start of the
            // sequence if an earlier call took it), not the rest.
            let offset = usize::try_from(t.offset()).unwrap();
            assert!(offset <= consumed && consumed - offset < 16, "{label}: took {consumed}, error at {offset}");
        } else {
            assert_eq!(consumed, input.len(), "{label}");
        }
        let error = error.or(finish_error);
        assert!(writer.buffer().is_empty(), "{label}: output left undelivered");
        assert_eq!(writer.get_ref().out, expected.0, "{label}: output differs from the whole-input transcoding");
        assert_eq!(error, expected.1, "{label}: error differs from the whole-input transcoding");
        if error.is_none() {
            writer.get_mut().heal();
            let inner = writer.finish().unwrap_or_else(|e| panic!("{label}: finish after try_finish: {e}"));
            assert_eq!(inner.out, expected.0, "{label}");
        }
    }

    /// A caller that stops at the first error and calls `try_finish` once: what the
    /// inner writer holds is a prefix of the transcoding of the bytes `write`
    /// reported as taken, complete if `try_finish` says `Ok`; what is missing is
    /// still buffered, and delivered once the inner writer heals — never lost, never
    /// written twice.
    fn without_retries(&self) {
        let Self { input, from, to, mode, .. } = *self;
        let label = &self.label;
        let whole = reference(input, from, to, mode);
        let mut rng = Rng::new(self.seed);
        let mut writer = TranscodeWriter::new(FaultyWriter::new(self.faults, self.seed), from, to, mode).unwrap();
        let mut consumed = 0;
        let mut stopped = false;
        'pieces: for piece in random_pieces(&mut rng, input, self.max_piece) {
            let mut rest = piece;
            while !rest.is_empty() {
                match writer.write(rest) {
                    Ok(n) => {
                        assert!(0 < n && n <= rest.len(), "{label}: Ok({n}) for {} bytes", rest.len());
                        consumed += n;
                        rest = &rest[n..];
                    }
                    Err(e) => {
                        if let Some(t) = transcode_error(&e) {
                            assert_eq!(Some(&t), whole.1.as_ref(), "{label}: the first error is the whole input's");
                        }
                        stopped = true;
                        break 'pieces;
                    }
                }
            }
        }
        // The result the bytes reported as taken call for.
        let taken = reference(&input[..consumed], from, to, mode);
        let finished = writer.try_finish();
        let delivered = writer.get_ref().out.clone();
        let buffered = writer.buffer().to_vec();
        let mut seen = delivered.clone();
        seen.extend_from_slice(&buffered);
        assert!(taken.0.starts_with(&seen), "{label}: delivered + buffered is not a prefix of the expected output");
        match &finished {
            Ok(()) => {
                assert!(buffered.is_empty(), "{label}: try_finish said Ok with output undelivered");
                assert_eq!(delivered, taken.0, "{label}: try_finish said Ok with output missing");
                assert_eq!(taken.1, None, "{label}: try_finish said Ok on a bad stream");
            }
            Err(e) => match transcode_error(e) {
                Some(t) => {
                    // Reported only once everything before it is delivered. The
                    // adapter saw the bad sequence whole (the whole input's error) or
                    // only the taken units (a truncated tail at their end).
                    assert!(buffered.is_empty(), "{label}");
                    assert_eq!(delivered, taken.0, "{label}: output before the error is incomplete");
                    assert!(Some(&t) == whole.1.as_ref() || Some(&t) == taken.1.as_ref(), "{label}: {t:?}");
                }
                // Undelivered output is buffered, or only the inner flush failed.
                None => assert!(!buffered.is_empty() || delivered == taken.0, "{label}: {e} without a cause"),
            },
        }
        if !stopped {
            assert_eq!(consumed, input.len(), "{label}");
        }
        // Nothing was lost: once the inner writer works, the rest goes through.
        writer.get_mut().heal();
        let again = writer.try_finish().err().map(|e| transcode_error(&e).expect("healed, only transcoding fails"));
        assert_eq!(writer.get_ref().out, taken.0, "{label}: output lost or duplicated");
        if finished.is_ok() {
            assert_eq!(again, None, "{label}");
        } else if let Some(t) = &again {
            assert!(Some(t) == whole.1.as_ref() || Some(t) == taken.1.as_ref(), "{label}: {t:?}");
        } else {
            assert_eq!(taken.1, None, "{label}");
        }
    }

    /// A [`TranscodeReader`] over a [`FaultyReader`], read in random-sized pieces.
    /// With retries the whole-input result comes out; without, the caller stops at
    /// the first error, which loses nothing: what was read is a prefix of the
    /// result, and reading on once the inner reader heals gives the rest.
    fn reader(&self, retry: bool) {
        let Self { input, from, to, mode, faults, seed, .. } = *self;
        let label = &format!("{}, retry {retry}", self.label);
        let expected = reference(input, from, to, mode);
        let mut rng = Rng::new(seed);
        let inner = FaultyReader::new(input, faults, seed);
        let heal = inner.heal_switch();
        let mut reader = TranscodeReader::new(inner, from, to, mode).unwrap();
        let mut out = Vec::new();
        let mut buf = vec![0u8; 4096];
        let mut failures = 0;
        let error = loop {
            let max = if rng.chance(20) { 4096 } else { 7 };
            let size = rng.range(1, max);
            match reader.read(&mut buf[..size]) {
                Ok(0) => break None,
                Ok(n) => {
                    out.extend_from_slice(&buf[..n]);
                    failures = 0;
                }
                Err(e) => {
                    if let Some(t) = transcode_error(&e) {
                        break Some(t);
                    }
                    assert!(expected.0.starts_with(&out), "{label}: read out something that is not in the result");
                    if !retry {
                        // A caller that stops here could come back later: once the
                        // inner reader works again, reading goes on where it stopped.
                        heal.set(true);
                    }
                    failures += 1;
                    assert!(failures < PATIENCE, "{label}: read stuck on {e}");
                }
            }
        };
        assert_eq!(out, expected.0, "{label}: output differs from the whole-input transcoding");
        assert_eq!(error, expected.1, "{label}: error differs from the whole-input transcoding");
        if error.is_some() {
            assert!(reader.read(&mut buf).is_err(), "{label}: the error repeats");
        }
    }
}

/// Source and target codecs the fault tests run over, by registry name.
const PAIRS: &[(&str, &str)] = &[
    ("utf8", "utf8"),
    ("utf8", "fss-utf-xopen"),
    ("utf8", "printable6"),
    ("fss-utf-plan9", "utf8"),
    ("fss-utf-xopen", "printable6"),
    ("printable6", "fss-utf-plan9"),
    // Shared lead units and folded biases; groups least significant first.
    ("cesu8", "leb128"),
    ("leb128", "mutf8"),
];

fn codec(name: &str) -> &'static dyn DynCodec {
    placemat_variants::registry::find(name).unwrap_or_else(|| panic!("no codec {name}"))
}

/// About `items` random values encoded by `from` (ASCII-heavy, every sequence
/// length, surrogates and values past U+10FFFF where `from` has them); if `dirty`,
/// a few bytes overwritten and the end possibly cut inside a sequence.
fn random_input(rng: &mut Rng, from: &dyn DynCodec, items: usize, dirty: bool) -> Vec<u8> {
    let max = from.info().max.min(0x7FFF_FFFF) as usize;
    let mut out = Vec::new();
    for _ in 0..items {
        let value = match rng.range(0, 9) {
            0..=3 => rng.range(0x20, 0x7E),
            4 | 5 => rng.range(0x80, 0x7FF),
            6 => rng.range(0x800, 0xFFFF),
            7 => rng.range(0x1_0000, 0x10_FFFF),
            8 => rng.range(0xD800, 0xDFFF),
            _ => rng.range(0x11_0000.min(max), max),
        };
        let _ = from.encode_push(value as u64, &mut out);
    }
    if dirty && !out.is_empty() {
        for _ in 0..rng.range(1, 3) {
            let at = rng.range(0, out.len() - 1);
            out[at] = rng.next() as u8;
        }
        if rng.chance(40) {
            let cut = rng.range(1, 3).min(out.len());
            out.truncate(out.len() - cut);
        }
    }
    out
}

const MODES: [ErrorMode; 2] = [ErrorMode::Strict, ErrorMode::Replace];

/// Every pair, mode, fault set and seed, with inputs clean and dirty.
fn for_each_case(seeds: u64, faults: &[(&str, Faults)], mut run: impl FnMut(Case<'_>)) {
    for &(from, to) in PAIRS {
        let (from, to) = (codec(from), codec(to));
        for mode in MODES {
            for (name, faults) in faults {
                for seed in 0..seeds {
                    let mut rng = Rng::new(seed.wrapping_mul(7919) ^ 0x5EED);
                    let dirty = seed % 2 == 1;
                    let items = rng.range(0, 60);
                    let input = random_input(&mut rng, from, items, dirty);
                    let max_piece = [1, 3, 8, 32, input.len() + 1][rng.range(0, 4)];
                    let label = format!(
                        "{} → {}, {mode:?}, {name}, seed {seed}, pieces ≤ {max_piece}, input {input:02X?}",
                        from.info().name,
                        to.info().name
                    );
                    run(Case { input: &input, from, to, mode, faults: *faults, seed, max_piece, label });
                }
            }
        }
    }
}

/// Random fault sets, named for the messages.
fn random_fault_sets(count: u64, permanent: bool) -> Vec<(&'static str, Faults)> {
    let mut rng = Rng::new(0xFA_0175 + u64::from(permanent));
    let name = if permanent { "random, permanent" } else { "random, transient" };
    (0..count).map(|_| (name, random_faults(&mut rng, permanent))).collect()
}

/// `io::Write`'s contract under a failing inner writer: it takes "hell", then fails with `WouldBlock`
/// once. The writer used to drop "o, world" and return `Err` after taking the input,
/// so a caller that retried wrote "hellhello, world", and one that did not lost
/// "o, world" while `finish` returned `Ok`.
#[test]
fn issue_12_would_block_once_neither_duplicates_nor_loses() {
    /// Takes 4 bytes on the first call, would block on the second, then takes all.
    #[derive(Default)]
    struct BlocksOnce {
        out: Vec<u8>,
        calls: usize,
    }
    impl Write for BlocksOnce {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.calls += 1;
            let n = match self.calls {
                1 => buf.len().min(4),
                2 => return Err(io::ErrorKind::WouldBlock.into()),
                _ => buf.len(),
            };
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    // A caller that retries what was not taken.
    let mut writer = TranscodeWriter::new(BlocksOnce::default(), &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    let mut input: &[u8] = b"hello, world";
    let mut results = Vec::new();
    while !input.is_empty() {
        let result = writer.write(input);
        results.push(result.as_ref().map(|&n| n).map_err(io::Error::kind));
        match result {
            Ok(n) => input = &input[n..],
            Err(e) => assert_eq!(e.kind(), io::ErrorKind::WouldBlock),
        }
    }
    // All 12 bytes taken; the "o, world" the inner writer refused stays buffered.
    assert_eq!(results, [Ok(12)]);
    assert_eq!(writer.buffer(), b"o, world");
    assert_eq!(writer.get_ref().out, b"hell");
    assert_eq!(writer.finish().unwrap().out, b"hello, world");

    // A caller that does not retry: one write, then finish. Still all of it.
    let mut writer = TranscodeWriter::new(BlocksOnce::default(), &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    assert_eq!(writer.write(b"hello, world").unwrap(), 12);
    assert_eq!(writer.finish().unwrap().out, b"hello, world");

    // With `write_all` (which retries `Interrupted` only), and a flush.
    let mut writer = TranscodeWriter::new(BlocksOnce::default(), &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    writer.write_all(b"hello, ").unwrap();
    writer.write_all(b"world").unwrap();
    writer.flush().unwrap();
    assert_eq!(writer.get_ref().out, b"hello, world");
}

#[test]
fn finish_and_flush_fail_while_output_is_undelivered() {
    // The inner writer would block for good: every write is taken, nothing is
    // delivered, and flush / try_finish / finish say so.
    let faults = Faults { would_block_every: 1, ..Faults::default() };
    let mut writer = TranscodeWriter::new(FaultyWriter::new(faults, 0), &Utf8, &Utf8, ErrorMode::Replace).unwrap();
    assert_eq!(writer.write(b"caf\xC3").unwrap(), 4);
    // Output of earlier input is delivered before anything more is taken.
    assert_eq!(writer.write(b"\xA9!").unwrap_err().kind(), io::ErrorKind::WouldBlock);
    assert_eq!(writer.buffer(), b"caf");
    assert_eq!(writer.flush().unwrap_err().kind(), io::ErrorKind::WouldBlock);
    assert_eq!(writer.try_finish().unwrap_err().kind(), io::ErrorKind::WouldBlock);
    assert_eq!(writer.try_finish().unwrap_err().kind(), io::ErrorKind::WouldBlock);
    assert_eq!(writer.buffer(), b"caf");
    assert!(writer.get_ref().out.is_empty());
    // Once it works: the truncated C3 is replaced once, however often try_finish ran.
    writer.get_mut().heal();
    writer.try_finish().unwrap();
    writer.try_finish().unwrap();
    assert_eq!(writer.get_ref().out, "caf\u{FFFD}".as_bytes());

    // `finish` consumes the writer, but never says Ok with output undelivered.
    let mut writer = TranscodeWriter::new(FaultyWriter::new(faults, 0), &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    assert_eq!(writer.write(b"abc").unwrap(), 3);
    assert_eq!(writer.finish().unwrap_err().kind(), io::ErrorKind::WouldBlock);

    // A broken inner writer: the error comes with the next call, output kept.
    let broken = Faults { fail_after: Some(2), permanent: true, ..Faults::default() };
    let mut writer = TranscodeWriter::new(FaultyWriter::new(broken, 0), &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    assert_eq!(writer.write(b"abcd").unwrap(), 4);
    assert_eq!(writer.write(b"e").unwrap_err().kind(), io::ErrorKind::Other);
    assert_eq!((writer.get_ref().out.as_slice(), writer.buffer()), (&b"ab"[..], &b"cd"[..]));
    assert_eq!(writer.flush().unwrap_err().kind(), io::ErrorKind::Other);
    writer.get_mut().heal();
    writer.write_all(b"e").unwrap();
    assert_eq!(writer.finish().unwrap().out, b"abcde");
}

#[test]
fn inner_write_of_zero_bytes_is_write_zero() {
    let faults = Faults { zero_every: 1, ..Faults::default() };
    let mut writer =
        TranscodeWriter::new(FaultyWriter::new(faults, 0), &Utf8, &FssUtfXopen, ErrorMode::Strict).unwrap();
    assert_eq!(writer.write("é".as_bytes()).unwrap(), 2);
    let e = writer.write(b"x").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::WriteZero);
    assert_eq!(writer.try_finish().unwrap_err().kind(), io::ErrorKind::WriteZero);
    let expected = reference("é".as_bytes(), &Utf8, &FssUtfXopen, ErrorMode::Strict).0;
    assert_eq!(writer.buffer(), expected);
    writer.get_mut().heal();
    writer.write_all(b"x").unwrap();
    let mut expected = expected;
    expected.push(b'x');
    assert_eq!(writer.finish().unwrap().out, expected);
}

#[test]
fn strict_error_after_short_writes_comes_at_its_offset() {
    // "ab€" then E0 80 (a maximal subpart, then a bad continuation), then more.
    let input = b"ab\xE2\x82\xAC\xE0\x80cd";
    let faults = Faults { short: true, would_block_every: 2, interrupted_every: 3, ..Faults::default() };
    let mut writer = TranscodeWriter::new(FaultyWriter::new(faults, 3), &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    let mut rest = &input[..];
    let mut taken = 0;
    let err = loop {
        match writer.write(rest) {
            Ok(n) => {
                taken += n;
                rest = &rest[n..];
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => break TranscodeError::from_io(&e).unwrap().clone(),
        }
    };
    // Exactly the units before the bad sequence were taken, and delivered before
    // the error came.
    assert_eq!(taken, 5);
    assert_eq!((err.offset(), err.kind()), (5, &TranscodeErrorKind::Invalid { len: 1, found: vec![0xE0, 0x80] }));
    assert_eq!(writer.get_ref().out, "ab€".as_bytes());
    assert!(writer.buffer().is_empty());
    // The error repeats from every call.
    assert_eq!(TranscodeError::from_io(&writer.write(b"x").unwrap_err()), Some(&err));
    assert_eq!(TranscodeError::from_io(&writer.try_finish().unwrap_err()), Some(&err));
    assert_eq!(writer.get_ref().out, "ab€".as_bytes());
}

#[test]
fn dropping_the_writer_delivers_what_is_buffered() {
    let faults = Faults { would_block_every: 2, short: true, ..Faults::default() };
    let mut inner = FaultyWriter::new(faults, 1);
    let mut writer = TranscodeWriter::new(&mut inner, &Utf8, &Utf8, ErrorMode::Strict).unwrap();
    assert_eq!(writer.write(b"hello").unwrap(), 5);
    assert!(!writer.buffer().is_empty());
    writer.get_mut().heal();
    drop(writer);
    assert_eq!(inner.out, b"hello");
}

#[test]
fn writer_survives_faults_with_retries() {
    for_each_case(12, &transient_faults(), |case| case.with_retries());
    for_each_case(2, &random_fault_sets(30, false), |case| case.with_retries());
}

#[test]
fn writer_loses_nothing_when_the_caller_stops() {
    let mut faults = permanent_faults();
    faults.extend(transient_faults());
    for_each_case(10, &faults, |case| case.without_retries());
    for_each_case(2, &random_fault_sets(30, true), |case| case.without_retries());
    for_each_case(2, &random_fault_sets(30, false), |case| case.without_retries());
}

#[test]
fn writer_survives_faults_over_several_chunks() {
    // Writes larger than CHUNK: the output of one piece waits while the rest of
    // the write is left untaken. A bad byte (strict mode) sits past two chunks.
    let mut rng = Rng::new(42);
    let mut clean = random_input(&mut rng, &Utf8, 3 * CHUNK / 2, false);
    clean.truncate(3 * CHUNK + 1234);
    let mut dirty = clean.clone();
    dirty[2 * CHUNK + 99] = 0xFF;
    let faults = [
        ("would-block every 3rd call, short", Faults { would_block_every: 3, short: true, ..Faults::default() }),
        ("would-block every 2nd call, fails once after 70000 bytes", {
            Faults { would_block_every: 2, fail_after: Some(70_000), ..Faults::default() }
        }),
    ];
    for (input, what) in [(&clean, "clean"), (&dirty, "dirty")] {
        for (to, max_piece) in [(&Utf8 as &dyn DynCodec, usize::MAX), (codec("printable6"), 100_000)] {
            for mode in MODES {
                for (name, faults) in faults {
                    let label = format!("{what}, → {}, {mode:?}, {name}", to.info().name);
                    let case = Case { input, from: &Utf8, to, mode, faults, seed: 1, max_piece, label };
                    case.with_retries();
                    case.without_retries();
                }
            }
        }
    }
}

#[test]
fn reader_survives_faults_with_and_without_retries() {
    let mut faults = transient_faults();
    faults.extend(permanent_faults());
    faults.extend(random_fault_sets(30, false));
    faults.extend(random_fault_sets(30, true));
    for_each_case(6, &faults, |case| {
        case.reader(false);
        if !case.faults.permanent {
            case.reader(true);
        }
    });
    // Over several chunks.
    let mut rng = Rng::new(7);
    let mut input = random_input(&mut rng, &Utf8, 3 * CHUNK / 2, false);
    input[2 * CHUNK + 5] = 0xC0;
    let faults = Faults { would_block_every: 3, interrupted_every: 4, short: true, ..Faults::default() };
    for mode in MODES {
        let label = format!("long input, {mode:?}");
        let case = Case { input: &input, from: &Utf8, to: &FssUtfPlan9, mode, faults, seed: 7, max_piece: 0, label };
        case.reader(true);
        case.reader(false);
    }
}
