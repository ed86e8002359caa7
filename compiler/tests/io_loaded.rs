//! The `io` transcoders on codecs built at run time (no generated code, so this
//! also runs under Miri: `cargo +nightly miri test -p placemat-codec --features
//! build`): chunk-split invariance, stream offsets, and both error modes.

use std::io::{Read, Write};

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
