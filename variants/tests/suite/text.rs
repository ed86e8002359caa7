//! `placemat_variants::text` against std and against the engine's own
//! `transcode_into`: every built-in codec to and from `str`, UTF-16 and UTF-32
//! code units, the borrowed results exactly when nothing changes, and strict
//! errors at the offsets `transcode_into` reports.

use std::borrow::Cow;

use placemat_codec::io::{transcode_into, ErrorMode};
use placemat_codec::DynCodec;
use placemat_variants::codecs::{Cesu8, Mutf8, Utf16Le, Utf8};
use placemat_variants::{corpus, registry, text};

/// Characters of the mixed and emoji corpora (and U+0000) that `codec` can
/// encode, and their encoding.
fn sample(codec: &dyn DynCodec) -> (String, Vec<u8>) {
    let mut chars: Vec<u32> = vec![0, 0x41, 0xE9];
    for name in ["mixed", "emoji"] {
        chars.extend(corpus::by_name(name).unwrap().text.iter().take(6000));
    }
    let (mut text, mut bytes) = (String::new(), Vec::new());
    for c in chars {
        if codec.encode_push(u64::from(c), &mut bytes).is_ok() {
            text.push(char::from_u32(c).unwrap());
        }
    }
    (text, bytes)
}

#[test]
fn every_codec_to_and_from_text_and_code_units() {
    for &codec in registry::all() {
        let name = &codec.info().name;
        let (want, bytes) = sample(codec);
        let got = text::to_str(codec, &bytes, ErrorMode::Strict).unwrap();
        assert_eq!(got, want, "{name}");
        assert_eq!(matches!(got, Cow::Borrowed(_)), bytes == want.as_bytes(), "{name}: borrowed only when unchanged");
        let back = text::from_str(codec, &want, ErrorMode::Strict).unwrap();
        assert_eq!(back, bytes, "{name}");
        assert_eq!(matches!(back, Cow::Borrowed(_)), bytes == want.as_bytes(), "{name}");
        let utf16: Vec<u16> = want.encode_utf16().collect();
        let utf32: Vec<u32> = want.chars().map(u32::from).collect();
        assert_eq!(text::to_utf16(codec, &bytes, ErrorMode::Strict).unwrap(), utf16, "{name}");
        assert_eq!(text::to_utf32(codec, &bytes, ErrorMode::Strict).unwrap(), utf32, "{name}");
        assert_eq!(text::from_utf16(&utf16, codec, ErrorMode::Strict).unwrap(), bytes, "{name}");
        assert_eq!(text::from_utf32(&utf32, codec, ErrorMode::Strict).unwrap(), bytes, "{name}");
    }
}

#[test]
fn errors_and_replacements_are_the_engines() {
    for &codec in registry::all() {
        let name = &codec.info().name;
        let (_, mut bytes) = sample(codec);
        bytes.truncate(3000);
        // A flipped byte, and a cut at the end.
        for at in [7, 1000, 2999] {
            let mut bad = bytes.clone();
            bad[at] ^= 0xA5;
            bad.truncate(2999);
            for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                let engine = transcode_into(codec, &Utf8, mode, &bad, &mut Vec::new());
                let ours = text::to_str(codec, &bad, mode);
                match (engine, ours) {
                    (Ok(()), Ok(_)) => {}
                    (Err(e), Err(o)) => assert_eq!(e, o, "{name} at {at}"),
                    (e, o) => panic!("{name} at {at} {mode:?}: the engine gives {e:?}, to_str {o:?}"),
                }
                let mut engine_units = Vec::new();
                let engine = transcode_into(codec, &Utf16Le, mode, &bad, &mut engine_units).map(|()| engine_units);
                let ours = text::to_utf16(codec, &bad, mode).map(|u| u.iter().flat_map(|u| u.to_le_bytes()).collect());
                assert_eq!(ours, engine, "{name} at {at} {mode:?}");
            }
        }
    }
}

#[test]
fn code_units_that_are_no_text() {
    // A lone surrogate at unit 1 is at byte offset 2 of UTF-16, 4 of UTF-32.
    let lone = text::from_utf16(&[0x61, 0xD800, 0x62], &Utf8, ErrorMode::Strict).unwrap_err();
    assert_eq!(lone.offset(), 2);
    let lone = text::from_utf32(&[0x61, 0xDFFF], &Utf8, ErrorMode::Strict).unwrap_err();
    assert_eq!(lone.offset(), 4);
    let big = text::from_utf32(&[0x61, 0x11_0000], &Mutf8, ErrorMode::Replace).unwrap();
    assert_eq!(big, "a\u{FFFD}".as_bytes());
    // CESU-8 keeps a lone surrogate; UTF-16 units carry it on.
    let units = text::to_utf16(&Cesu8, b"\xED\xA0\x80", ErrorMode::Strict);
    assert_eq!(units.unwrap_err().offset(), 0, "U+D800 alone is no UTF-16");
    // Text borrowed through a codec that changes nothing, owned through one that does.
    assert!(matches!(text::from_str(&Cesu8, "abc é", ErrorMode::Strict).unwrap(), Cow::Borrowed(_)));
    assert!(matches!(text::from_str(&Mutf8, "a\0b", ErrorMode::Strict).unwrap(), Cow::Owned(_)));
    assert_eq!(text::to_str(&Utf8, b"", ErrorMode::Strict).unwrap(), "");
}

/// Text borrowed or converted as it must be, long or short, both ways: the
/// borrow rests on the leads each codec may read UTF-8 apart at (held sound
/// in `apart`); its speed is in `papers/transcoding.md`.
#[test]
fn long_text_is_borrowed_when_it_is_already_utf8() {
    // BMP text without U+0000: the same bytes in CESU-8, modified UTF-8 and UTF-8.
    let (_, bytes) = sample(&Utf8);
    let bmp: String = String::from_utf8(bytes).unwrap().chars().filter(|&c| c > '\0' && c < '\u{10000}').collect();
    assert!(bmp.len() > 8192);
    for codec in [&Cesu8 as &dyn DynCodec, &Mutf8, &Utf8] {
        let got = text::to_str(codec, bmp.as_bytes(), ErrorMode::Strict).unwrap();
        assert!(matches!(got, Cow::Borrowed(t) if t == bmp), "{}", codec.info().name);
        // One emoji at the end, in each codec's form: converted, not borrowed.
        let mut with_emoji = bmp.as_bytes().to_vec();
        codec.encode_push(0x1F600, &mut with_emoji).unwrap();
        let got = text::to_str(codec, &with_emoji, ErrorMode::Strict).unwrap();
        assert_eq!(got, bmp.clone() + "😀", "{}", codec.info().name);
        assert_eq!(matches!(got, Cow::Borrowed(_)), codec.info().name == "utf8");
        // Back: the BMP text is its own encoding, the emoji is not.
        let back = text::from_str(codec, &bmp, ErrorMode::Strict).unwrap();
        assert!(matches!(back, Cow::Borrowed(b) if b == bmp.as_bytes()), "{}", codec.info().name);
        let emoji = bmp.clone() + "😀";
        let back = text::from_str(codec, &emoji, ErrorMode::Strict).unwrap();
        assert_eq!(back, with_emoji, "{}", codec.info().name);
        assert_eq!(matches!(back, Cow::Borrowed(_)), codec.info().name == "utf8");
        // Short text too, and U+0000, which modified UTF-8 writes C0 80.
        assert!(matches!(text::to_str(codec, b"ab", ErrorMode::Strict).unwrap(), Cow::Borrowed("ab")));
        let zero = text::from_str(codec, "a\0", ErrorMode::Strict).unwrap();
        let expected: &[u8] = if codec.info().name == "mutf8" { b"a\xC0\x80" } else { b"a\0" };
        assert_eq!((zero.as_ref(), matches!(zero, Cow::Borrowed(_))), (expected, expected == b"a\0"));
    }
    // Past the 64 KiB the borrow's first check reads on its own: borrowed;
    // an emoji (no UTF-8 in CESU-8 and modified UTF-8) before that point
    // or after it: converted.
    let long: String = "дом 漢字 ab ".repeat(20_000);
    for codec in [&Cesu8 as &dyn DynCodec, &Mutf8] {
        assert!(matches!(text::to_str(codec, long.as_bytes(), ErrorMode::Strict).unwrap(), Cow::Borrowed(_)));
        for at in [6, long.len() - 3] {
            let mut input = long.as_bytes()[..at].to_vec();
            codec.encode_push(0x1F600, &mut input).unwrap();
            input.extend_from_slice(&long.as_bytes()[at..]);
            let got = text::to_str(codec, &input, ErrorMode::Strict).unwrap();
            assert!(matches!(&got, Cow::Owned(t) if *t == format!("{}😀{}", &long[..at], &long[at..])));
        }
    }
    // Over several of the engine's chunks, a difference early on: the rest
    // goes chunk by chunk into the owned output (checked as text chunk by
    // chunk, into a `String`); an error in a later chunk is reported at its
    // offset, and replaced in replace mode.
    let early = format!("{}😀{}", &long[..99], &long[99..]);
    for codec in [&Cesu8 as &dyn DynCodec, &Mutf8] {
        let bytes = text::from_str(codec, &early, ErrorMode::Strict).unwrap();
        let mut expected = Vec::new();
        early.chars().for_each(|c| codec.encode_push(u64::from(u32::from(c)), &mut expected).unwrap());
        assert_eq!(bytes, expected, "{}", codec.info().name);
        assert_eq!(text::to_str(codec, &bytes, ErrorMode::Strict).unwrap(), early, "{}", codec.info().name);
        // (An ASCII unit made `FF`: one replacement, two bytes earlier in
        // the UTF-8, whose emoji takes four bytes to the codec's six.)
        let mut bad = expected.clone();
        let at = (200_000..).find(|&k| bad[k] < 0x80).unwrap();
        bad[at] = 0xFF;
        assert_eq!(text::to_str(codec, &bad, ErrorMode::Strict).unwrap_err().offset(), at as u64);
        let mut want = early.clone().into_bytes();
        want.splice(at - 2..at - 1, "\u{FFFD}".bytes());
        let replaced = text::to_str(codec, &bad, ErrorMode::Replace).unwrap();
        assert_eq!(replaced.as_bytes(), &want[..], "{}", codec.info().name);
    }
    // Four-unit UTF-8 is no CESU-8: an error at its offset, not a borrow.
    let err = text::to_str(&Cesu8, "ab😀".as_bytes(), ErrorMode::Strict).unwrap_err();
    assert_eq!(err.offset(), 2);
}
