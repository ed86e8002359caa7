//! Signed codecs loaded at run time (`sleb128`, `protobuf-sint64`,
//! `sourcemap-vlq`): the vectors of their sources, padded forms, and values
//! refused by value. (The generated codecs, against the reference and
//! against encoders written from the sources' algorithms, are tested in
//! `placemat-variants`' `signed` module.)

use placemat_codec::{Decoder, DynCodec, EncodeError, Encoder, Step};
use placemat_compiler::LoadedCodec;

fn load(text: &str) -> LoadedCodec {
    LoadedCodec::from_text(text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn sleb128() -> LoadedCodec {
    load(include_str!("../../../variants/descriptions/sleb128.placemat"))
}
fn sint64() -> LoadedCodec {
    load(include_str!("../../../variants/descriptions/protobuf-sint64.placemat"))
}
fn vlq() -> LoadedCodec {
    load(include_str!("../../../variants/descriptions/sourcemap-vlq.placemat"))
}

fn encode(codec: &LoadedCodec, v: i64) -> Vec<u8> {
    let mut out = Vec::new();
    codec.encode_push(v as u64, &mut out).unwrap_or_else(|e| panic!("{v}: {e}"));
    out
}

fn decode(codec: &LoadedCodec, units: &[u8]) -> Vec<i64> {
    codec.decode(units).unwrap().into_iter().map(|v| v as i64).collect()
}

#[test]
fn sources_vectors() {
    let (s, z, q) = (sleb128(), sint64(), vlq());
    for (v, bytes) in
        [(2, &[0x02][..]), (-2, &[0x7E]), (127, &[0xFF, 0x00]), (-127, &[0x81, 0x7F]), (-128, &[0x80, 0x7F])]
    {
        assert_eq!(encode(&s, v), bytes, "sleb128 {v}");
        assert_eq!(decode(&s, bytes), [v]);
    }
    for (v, bytes) in [(-1, &[0x01][..]), (1, &[0x02]), (-2, &[0x03]), (0, &[0x00])] {
        assert_eq!(encode(&z, v), bytes, "sint64 {v}");
        assert_eq!(decode(&z, bytes), [v]);
    }
    for (v, text) in [(0, "A"), (1, "C"), (-1, "D"), (16, "gB")] {
        assert_eq!(encode(&q, v), text.as_bytes(), "vlq {v}");
        assert_eq!(decode(&q, text.as_bytes()), [v]);
    }
}

#[test]
fn padded_forms_decode_and_overlong_ones_do_not() {
    let s = sleb128();
    // Extra groups that repeat the sign.
    assert_eq!(decode(&s, &[0xFF, 0x7F]), [-1]);
    assert_eq!(decode(&s, &[0x80, 0x80, 0x00]), [0]);
    assert_eq!(decode(&s, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), [-1]);
    // Ten bytes whose last group is not the sign of bit 63: past i64.
    let err = s.validate(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]).unwrap_err();
    assert_eq!((err.valid_up_to(), err.error_len()), (0, Some(9)));
    assert_eq!(decode(&s, &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F]), [i64::MIN]);
    assert!(s.validate(&[0x80; 10]).is_err());
    let q = vlq();
    assert_eq!(decode(&q, b"gA"), [0]);
    // Minus zero, and a magnitude of 2^31.
    assert_eq!(q.step(b"B"), Step::Invalid { len: 1 });
    assert_eq!(q.step(b"ggggggE"), Step::Invalid { len: 6 });
    assert_eq!(decode(&q, b"//////D"), [-0x7FFF_FFFF]);
    assert_eq!(decode(&q, b"+/////D"), [0x7FFF_FFFF]);
}

#[test]
fn values_outside_the_range_are_refused_by_value() {
    let q = vlq();
    let refused = q.encode_push(i32::MIN as i64 as u64, &mut Vec::new()).unwrap_err();
    assert_eq!(refused, EncodeError::SignedUnencodable { value: i32::MIN as i64 });
    assert_eq!(refused.to_string(), "-2147483648 cannot be encoded by this codec");
    assert!(q.encode_push(1 << 31, &mut Vec::new()).is_err());
    assert_eq!(q.info().range_text(), "-2147483647..=2147483647");
    assert_eq!(sleb128().info().range_text(), "-9223372036854775808..=9223372036854775807");
    // The bulk decoder of the tables' raw values is not used.
    assert!(q.premapped());
}
