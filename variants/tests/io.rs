//! The `std::io` transcoding adapters (`placemat_codec::io`) on the built-in
//! codecs: split invariance for every chunk size, errors in the stream's
//! coordinates, unencodable values in both modes, and bounded buffers.

use std::io::{self, Read, Write};

use placemat_codec::io::{ErrorMode, TranscodeError, TranscodeErrorKind, TranscodeReader, TranscodeWriter, CHUNK};
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
