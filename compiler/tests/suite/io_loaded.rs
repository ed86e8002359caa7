//! The `io` transcoders on codecs built at run time (no generated code, so this
//! also runs under Miri: `cargo +nightly miri test -p placemat-codec --features
//! build`): chunk-split invariance, stream offsets, both error modes, and the
//! `std::io` contracts when the inner reader or writer fails.

use std::io::{self, Read, Write};

use placemat_codec::io::{ErrorMode, TranscodeError, TranscodeErrorKind, TranscodeReader, TranscodeWriter};
use placemat_compiler::LoadedCodec;

const UTF8: &str = r#"
    pub Utf8 {
        name: "utf8", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
        forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx",
                 "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx" },
    }
"#;

/// Two-byte X/Open-style biased forms: values up to 0x207F, no surrogate rule.
const BIASED: &str = r#"
    pub Biased {
        name: "biased", value: u32, range: 0 ..= 0x207F, layout: biased,
        forms: { "0zzzzzzz", "10zzzzzz 1zzzzzzz" },
    }
"#;

fn codecs() -> (LoadedCodec, LoadedCodec) {
    (LoadedCodec::from_text(UTF8).unwrap(), LoadedCodec::from_text(BIASED).unwrap())
}

fn read_all(
    input: &[u8],
    piece: usize,
    from: &LoadedCodec,
    to: &LoadedCodec,
    mode: ErrorMode,
) -> (Vec<u8>, Option<TranscodeError>) {
    let mut reader = TranscodeReader::new(input, from, to, mode).unwrap();
    let mut out = Vec::new();
    let mut buf = vec![0u8; piece];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, TranscodeError::from_io(&e).cloned()),
        }
    }
}

fn write_all(
    input: &[u8],
    piece: usize,
    from: &LoadedCodec,
    to: &LoadedCodec,
    mode: ErrorMode,
) -> (Vec<u8>, Option<TranscodeError>) {
    let mut out = Vec::new();
    let mut writer = TranscodeWriter::new(&mut out, from, to, mode).unwrap();
    for chunk in input.chunks(piece) {
        if let Err(e) = writer.write_all(chunk) {
            drop(writer);
            return (out, TranscodeError::from_io(&e).cloned());
        }
    }
    let err = writer.finish().err().map(|e| TranscodeError::from_io(&e).cloned().unwrap());
    (out, err)
}

#[test]
fn every_split_gives_the_whole_inputs_result() {
    let (utf8, biased) = codecs();
    // é and € in UTF-8, a bad continuation, a truncated tail.
    let input = b"a\xC3\xA9\xE2\x82\xAC\xC3(\xE2\x82";
    // The biased codec cannot encode U+FFFD, so it has no replace mode.
    for (to, mode) in [(&biased, ErrorMode::Strict), (&utf8, ErrorMode::Strict), (&utf8, ErrorMode::Replace)] {
        let whole = read_all(input, 64, &utf8, to, mode);
        for piece in 1..=input.len() {
            assert_eq!(read_all(input, piece, &utf8, to, mode), whole, "read by {piece}, {mode:?}");
            assert_eq!(write_all(input, piece, &utf8, to, mode), whole, "write by {piece}, {mode:?}");
        }
    }
    let (out, err) = read_all(input, 64, &utf8, &biased, ErrorMode::Strict);
    // a, é (0xE9 = 0x80 + 0x69 → 80 E9), € (0x20AC is above 0x207F: unencodable).
    assert_eq!(out, [0x61, 0x80, 0xE9]);
    let err = err.unwrap();
    assert_eq!((err.offset(), err.kind()), (3, &TranscodeErrorKind::Unencodable { value: 0x20AC }));
}

#[test]
fn replace_mode_writes_the_targets_replacement() {
    let (utf8, biased) = codecs();
    // U+FFFD is above the biased codec's range, so it has no replacement...
    assert!(TranscodeReader::new(&b""[..], &utf8, &biased, ErrorMode::Replace).is_err());
    // ...while UTF-8 writes EF BF BD for each maximal subpart and the truncated tail.
    let (out, err) = read_all(b"\xC3(\xE2\x82", 3, &utf8, &utf8, ErrorMode::Replace);
    assert_eq!(err, None);
    assert_eq!(out, "\u{FFFD}(\u{FFFD}".as_bytes());
}

/// An inner reader or writer that fails on schedule: `WouldBlock` every
/// `would_block`-th call, `Interrupted` every `interrupted`-th, moves at most
/// `short` bytes a call (cycling through 1..=short), and fails with `Other` once
/// `fail_at` bytes have passed (every time if `broken`, else once). 0 turns a
/// fault off.
#[derive(Clone, Copy, Debug, Default)]
struct Faults {
    would_block: usize,
    interrupted: usize,
    short: usize,
    fail_at: Option<usize>,
    broken: bool,
}

#[derive(Debug, Default)]
struct Faulty<'a> {
    faults: Faults,
    calls: usize,
    failed: bool,
    /// What a writer accepted.
    out: Vec<u8>,
    /// What a reader hands out, and how much of it it has.
    data: &'a [u8],
    pos: usize,
}

impl<'a> Faulty<'a> {
    fn new(faults: Faults, data: &'a [u8]) -> Self {
        Faulty { faults, data, ..Faulty::default() }
    }

    /// How many of `offered` bytes this call moves after `passed`, or its error.
    fn fate(&mut self, offered: usize, passed: usize) -> io::Result<usize> {
        self.calls += 1;
        let Faults { would_block, interrupted, short, fail_at, broken } = self.faults;
        if interrupted != 0 && self.calls.is_multiple_of(interrupted) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if would_block != 0 && self.calls.is_multiple_of(would_block) {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        let mut n = offered;
        if short != 0 {
            n = n.min(1 + self.calls % short);
        }
        if let Some(limit) = fail_at.filter(|_| broken || !self.failed) {
            if passed >= limit {
                self.failed = true;
                return Err(io::Error::other("injected"));
            }
            n = n.min(limit - passed);
        }
        Ok(n)
    }
}

impl Write for Faulty<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        assert!(!buf.is_empty());
        let n = self.fate(buf.len(), self.out.len())?;
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.fate(1, self.out.len()).map(drop)
    }
}

impl Read for Faulty<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = buf.len().min(self.data.len() - self.pos);
        let n = self.fate(available.max(1), self.pos)?.min(available);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

const TRANSIENT: [Faults; 5] = [
    Faults { would_block: 2, interrupted: 0, short: 0, fail_at: None, broken: false },
    Faults { would_block: 3, interrupted: 0, short: 3, fail_at: None, broken: false },
    Faults { would_block: 0, interrupted: 2, short: 2, fail_at: None, broken: false },
    Faults { would_block: 0, interrupted: 0, short: 0, fail_at: Some(3), broken: false },
    Faults { would_block: 3, interrupted: 5, short: 3, fail_at: Some(4), broken: false },
];

/// The kind-checked transcoding error of an adapter's `io::Error`, if any.
fn transcode_error(e: &io::Error) -> Option<TranscodeError> {
    assert_ne!(e.kind(), io::ErrorKind::Interrupted, "Interrupted is retried inside the adapter");
    TranscodeError::from_io(e).cloned()
}

/// Writes `input` in pieces, offering again what was not taken after any I/O
/// error, then retries `try_finish`.
fn write_with_retries(
    input: &[u8],
    piece: usize,
    from: &LoadedCodec,
    to: &LoadedCodec,
    mode: ErrorMode,
    faults: Faults,
) -> (Vec<u8>, Option<TranscodeError>) {
    let mut writer = TranscodeWriter::new(Faulty::new(faults, &[]), from, to, mode).unwrap();
    let mut error = None;
    'pieces: for chunk in input.chunks(piece) {
        let mut rest = chunk;
        while !rest.is_empty() {
            match writer.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) => {
                    if let Some(t) = transcode_error(&e) {
                        error = Some(t);
                        break 'pieces;
                    }
                }
            }
        }
    }
    let finished = loop {
        match writer.try_finish() {
            Ok(()) => break None,
            Err(e) => {
                if let Some(t) = transcode_error(&e) {
                    break Some(t);
                }
            }
        }
    };
    assert!(writer.buffer().is_empty());
    (std::mem::take(&mut writer.get_mut().out), error.or(finished))
}

#[test]
fn writer_and_reader_keep_the_io_contracts_under_faults() {
    let (utf8, biased) = codecs();
    let input = b"a\xC3\xA9\xE2\x82\xAC\xC3(\xE2\x82";
    let valid = "a€é€ok".as_bytes();
    for (input, to, mode) in [
        (&input[..], &biased, ErrorMode::Strict),
        (&input[..], &utf8, ErrorMode::Strict),
        (&input[..], &utf8, ErrorMode::Replace),
        (valid, &utf8, ErrorMode::Strict),
    ] {
        let whole = read_all(input, 64, &utf8, to, mode);
        for faults in TRANSIENT {
            for piece in [1, 4, input.len()] {
                let label = format!("{faults:?}, pieces of {piece}, {mode:?}");
                assert_eq!(write_with_retries(input, piece, &utf8, to, mode, faults), whole, "write, {label}");
            }
            // The reader, retried after every I/O error.
            let mut reader = TranscodeReader::new(Faulty::new(faults, input), &utf8, to, mode).unwrap();
            let mut out = Vec::new();
            let mut buf = [0u8; 3];
            let error = loop {
                match reader.read(&mut buf) {
                    Ok(0) => break None,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(e) => {
                        if let Some(t) = transcode_error(&e) {
                            break Some(t);
                        }
                    }
                }
            };
            assert_eq!((out, error), whole, "read, {faults:?}, {mode:?}");
        }
    }
}

#[test]
fn a_caller_that_stops_at_the_first_error_loses_nothing() {
    let (utf8, _) = codecs();
    let input = "héllo, wörld".as_bytes();
    for fail_at in 0..6 {
        // The inner writer breaks for good after `fail_at` bytes; the caller stops
        // at the first error.
        let faults = Faults { fail_at: Some(fail_at), broken: true, ..Faults::default() };
        let mut writer = TranscodeWriter::new(Faulty::new(faults, &[]), &utf8, &utf8, ErrorMode::Strict).unwrap();
        let mut taken = 0;
        for chunk in input.chunks(3) {
            match writer.write(chunk) {
                Ok(n) => {
                    assert_eq!(n, chunk.len(), "nothing stops a write once it has taken input");
                    taken += n;
                }
                Err(e) => {
                    assert_eq!(e.kind(), io::ErrorKind::Other);
                    break;
                }
            }
        }
        // `finish` is not Ok while anything taken is undelivered...
        let finished = writer.try_finish();
        assert_eq!(finished.is_ok(), writer.buffer().is_empty() && writer.get_ref().out == input[..taken]);
        assert!(finished.is_err(), "the inner writer is broken, fail_at {fail_at}");
        assert_eq!([writer.get_ref().out.as_slice(), writer.buffer()].concat(), input[..taken]);
        // ...and all of it is still there for when the writer works again.
        writer.get_mut().faults = Faults::default();
        writer.try_finish().unwrap();
        assert_eq!(writer.finish().unwrap().out, input[..taken], "fail_at {fail_at}");
    }
}
