//! The signed integers (`sleb128`, `protobuf-sint64`, `sourcemap-vlq`)
//! through every strategy (codec, table, branching, run-time tables, the
//! reference interpreter) and the encoder: their sources' vectors, padded
//! forms, malformed input refused at the right offset, and values of every
//! width and both signs against encoders written here from the sources'
//! algorithms, independent of the descriptions.
//!
//! Sources of the vectors:
//! * `sleb128`: DWARF 5 §7.6, figure 23 (2 → `02`, −2 → `7E`, 127 → `FF 00`,
//!   −127 → `81 7F`, 128 → `80 01`, −128 → `80 7F`, 129 → `81 01`, −129 → `FF 7E`);
//! * `protobuf-sint64`: the Protocol Buffers encoding guide's ZigZag table
//!   (0, −1, 1, −2, 2147483647, −2147483648 → 0, 1, 2, 3, 4294967294, 4294967295);
//! * `sourcemap-vlq`: Source Map revision 3 and ECMA-426 §5.1 (0 → `A`,
//!   1 → `C`, −1 → `D`, 16 → `gB`), and ECMA-426's bound: magnitudes below 2^31.

use placemat_codec::{Codec, Decoder, Encoder, Value};
use placemat_variants::codecs::{ProtobufSint64, Sleb128, SourcemapVlq};

use crate::common::{check_agreement, check_round_trip, model_of, strategies};
use crate::real_world::{check_exhaustive, check_invalid, check_padded};

/// `(value, encoding)` with the value as its 64-bit pattern.
fn vectors(pairs: &[(i64, &'static [u8])]) -> Vec<(u64, &'static [u8])> {
    pairs.iter().map(|&(v, b)| (v as u64, b)).collect()
}

/// DWARF 5's SLEB128 encoder (§7.6): seven bits at a time, shifting
/// arithmetically, done once the rest is all sign and the group's bit 6 agrees.
fn dwarf_sleb128(mut v: i64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            return out;
        }
    }
}

/// protobuf's ZigZag, then the base-128 varint.
fn protobuf_sint64(v: i64) -> Vec<u8> {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    let mut out = Vec::new();
    while z >= 0x80 {
        out.push(z as u8 | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
    out
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// ECMA-426's Base64 VLQ: the sign in bit 0 of the first digit, then the
/// magnitude, five bits a digit, bit 5 set on all but the last.
fn ecma426_vlq(v: i64) -> Vec<u8> {
    let mut rest = (v.unsigned_abs() << 1) | u64::from(v < 0);
    let mut out = Vec::new();
    loop {
        let digit = (rest & 0x1F) as usize;
        rest >>= 5;
        out.push(BASE64[if rest == 0 { digit } else { digit | 0x20 }]);
        if rest == 0 {
            return out;
        }
    }
}

/// Values at every power of two of both signs (and one off), and random
/// values of every width and both signs, inside `lo..=hi`.
fn sample(lo: i64, hi: i64) -> Vec<i64> {
    let mut out = vec![0, 1, -1, lo, hi];
    for k in 0..63 {
        for base in [1i64 << k, -(1i64 << k)] {
            out.extend([base, base.wrapping_sub(1), base.wrapping_add(1)]);
        }
    }
    let mut rng = placemat_compiler::analysis::Rng::new(0x5EED);
    for _ in 0..3000 {
        out.push((rng.next_u64() as i64) >> (rng.next_u64() % 64));
    }
    out.retain(|v| (lo..=hi).contains(v));
    out
}

/// Every sampled value: the encoder writes what the source's algorithm
/// writes, and every strategy reads it back, against the reference.
fn check_against_source<C>(lo: i64, hi: i64, write: fn(i64) -> Vec<u8>)
where
    C: Codec + Default + 'static,
{
    let (strategies, model) = (strategies::<C>(), model_of::<C>());
    for v in sample(lo, hi) {
        let mut out = Vec::new();
        C::default().encode_push(<C as Encoder>::Value::from_u64(v as u64).unwrap(), &mut out).unwrap();
        assert_eq!(out, write(v), "{}: encoding {v}", C::info().name);
        check_round_trip::<C>(&strategies, &model, v as u64);
    }
}

#[test]
fn sleb128_dwarf() {
    crate::real_world::check_vectors::<Sleb128>(&vectors(&[
        (2, &[0x02]),
        (-2, &[0x7E]),
        (127, &[0xFF, 0x00]),
        (-127, &[0x81, 0x7F]),
        (128, &[0x80, 0x01]),
        (-128, &[0x80, 0x7F]),
        (129, &[0x81, 0x01]),
        (-129, &[0xFF, 0x7E]),
        (63, &[0x3F]),
        (-64, &[0x40]),
        (64, &[0xC0, 0x00]),
        (-65, &[0xBF, 0x7F]),
        (i64::MAX, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]),
        (i64::MIN, &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F]),
    ]));
    // Extra groups that repeat the sign decode to the same value.
    check_padded::<Sleb128>(&[
        (&[0xFF, 0x7F], -1i64 as u64),
        (&[0x80, 0x80, 0x00], 0),
        (&[0xBF, 0xFF, 0x7F], -65i64 as u64),
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], -1i64 as u64),
    ]);
    check_invalid::<Sleb128>(&[
        // Cut short.
        (&[0x80], 0, None),
        (&[0x02, 0xFF], 1, None),
        // Ten bytes whose last group is not the sign of bit 63: past i64.
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], 0, Some(9)),
        (&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7E], 0, Some(9)),
        // A tenth byte that goes on.
        (&[0x80; 11], 0, Some(9)),
    ]);
    check_exhaustive::<Sleb128>();
    check_against_source::<Sleb128>(i64::MIN, i64::MAX, dwarf_sleb128);
}

#[test]
fn protobuf_sint64_zigzag() {
    crate::real_world::check_vectors::<ProtobufSint64>(&vectors(&[
        (0, &[0x00]),
        (-1, &[0x01]),
        (1, &[0x02]),
        (-2, &[0x03]),
        (-64, &[0x7F]),
        (64, &[0x80, 0x01]),
        (0x7FFF_FFFF, &[0xFE, 0xFF, 0xFF, 0xFF, 0x0F]),
        (-0x8000_0000, &[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (i64::MAX, &[0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        (i64::MIN, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]));
    check_padded::<ProtobufSint64>(&[(&[0x80, 0x00], 0), (&[0x81, 0x80, 0x00], -1i64 as u64)]);
    check_invalid::<ProtobufSint64>(&[
        (&[0xFF], 0, None),
        // Past 2^64 - 1.
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], 0, Some(9)),
        (&[0x80; 11], 0, Some(9)),
    ]);
    check_exhaustive::<ProtobufSint64>();
    check_against_source::<ProtobufSint64>(i64::MIN, i64::MAX, protobuf_sint64);
}

#[test]
fn sourcemap_vlq_ecma426() {
    crate::real_world::check_vectors::<SourcemapVlq>(&vectors(&[
        (0, b"A"),
        (1, b"C"),
        (-1, b"D"),
        (15, b"e"),
        (-15, b"f"),
        (16, b"gB"),
        (-16, b"hB"),
        (0x7FFF_FFFF, b"+/////D"),
        (-0x7FFF_FFFF, b"//////D"),
    ]));
    check_padded::<SourcemapVlq>(&[(b"gA", 0), (b"jgA", -1i64 as u64)]);
    check_invalid::<SourcemapVlq>(&[
        // Minus zero, which ECMA-426 reads as -2^31, outside this range.
        (b"B", 0, Some(1)),
        (b"hA", 0, Some(1)),
        // A magnitude of 2^31, past ECMA-426's bound.
        (b"ggggggE", 0, Some(6)),
        // Not a base64 digit; cut short.
        (b"A=", 1, Some(1)),
        (b"g", 0, None),
    ]);
    check_exhaustive::<SourcemapVlq>();
    check_against_source::<SourcemapVlq>(-0x7FFF_FFFF, 0x7FFF_FFFF, ecma426_vlq);
    let refused = SourcemapVlq.encode_push(i32::MIN, &mut Vec::new()).unwrap_err();
    assert_eq!(refused, placemat_codec::EncodeError::SignedUnencodable { value: i32::MIN.into() });
}

/// Runs of values decode in bulk by every path (the codec's, the table
/// decoder's and the branching decoder's loops, lossy decoding), and a
/// value's encoding decodes to it inside a run.
#[test]
fn runs_of_signed_values() {
    let values: Vec<i64> = sample(i64::MIN, i64::MAX).into_iter().take(500).collect();
    let mut bytes = Vec::new();
    Sleb128.encode_all(&values, &mut bytes).unwrap();
    assert_eq!(Sleb128.decode(&bytes).unwrap(), values);
    check_agreement::<Sleb128>(&strategies::<Sleb128>(), &bytes[..bytes.len().min(200)]);
    bytes.clear();
    ProtobufSint64.encode_all(&values, &mut bytes).unwrap();
    assert_eq!(ProtobufSint64.decode(&bytes).unwrap(), values);
    let mut text = Vec::new();
    let small: Vec<i32> = values.iter().map(|&v| (v >> 33) as i32).collect();
    SourcemapVlq.encode_all(&small, &mut text).unwrap();
    assert_eq!(SourcemapVlq.decode(&text).unwrap(), small);
}

/// The analyses speak of values, not raw values: their witnesses are signed
/// numbers, and `compare`'s ranges per length are values.
#[test]
fn analyses_name_signed_values() {
    use placemat_compiler::analysis::{structure, Verdict};
    let sleb = structure::analyze(&model_of::<Sleb128>());
    assert_eq!(sleb.canonical, Verdict::No("-64 is both 40 and C0 7F".into()));
    assert_eq!(sleb.ascii_transparent, Verdict::No("64 is encoded as C0 00".into()));
    assert_eq!(sleb.order_preserving, Verdict::No("-1 < 0 but 7F sorts after 00".into()));
    let first = sleb.values_of(&sleb.forms[0]).unwrap();
    assert_eq!((first.0.to_string(), first.1.to_string()), ("-64".into(), "-1".into()));
    let zigzag = structure::analyze(&model_of::<ProtobufSint64>());
    assert_eq!(zigzag.ascii_transparent, Verdict::No("1 is encoded as 02".into()));
    assert_eq!(zigzag.order_preserving, Verdict::No("-1 < 0 but 01 sorts after 00".into()));
    let one_byte = zigzag.values_of(&zigzag.forms[0]).unwrap();
    assert_eq!((one_byte.0.to_string(), one_byte.1.to_string()), ("-64".into(), "63".into()));
    // One digit holds a sign and four bits of magnitude; minus zero (`B`,
    // raw 1) is no value.
    let vlq = structure::analyze(&model_of::<SourcemapVlq>());
    let first = vlq.values_of(&vlq.forms[0]).unwrap();
    assert_eq!((first.0.to_string(), first.1.to_string()), ("-15".into(), "15".into()));
}

/// Between a signed and an unsigned codec a value means the same number or
/// nothing: a negative value has no unsigned spelling, and an unsigned one
/// past 2^63 − 1 no `i64` one, whatever their 64-bit views share; both are
/// refused at their offsets, in blocks as one value at a time.
#[test]
fn transcoding_keeps_values_across_signedness() {
    use placemat_codec::io::{transcode_into, ErrorMode, TranscodeErrorKind};
    use placemat_variants::codecs::Leb128;
    let to_vec = |from: &dyn placemat_codec::DynCodec, to: &dyn placemat_codec::DynCodec, input: &[u8]| {
        let mut out = Vec::new();
        transcode_into(from, to, ErrorMode::Strict, input, &mut out).map(|()| out)
    };
    // 2, 127 and -2 in SLEB128: the first two are LEB128's 02 and 7F.
    let err = to_vec(&Sleb128, &Leb128, &[0x02, 0xFF, 0x00, 0x7E]).unwrap_err();
    assert_eq!((err.offset(), err.kind()), (3, &TranscodeErrorKind::Unencodable { value: -2i64 as u64 }));
    assert_eq!(to_vec(&Sleb128, &Leb128, &[0x02, 0xFF, 0x00]).unwrap(), [0x02, 0x7F]);
    // LEB128's 2^64 - 1 is no i64; a long clean run before it goes through.
    let mut input = vec![0x05; 5000];
    input.extend([0xFF; 9]);
    input.push(0x01);
    let err = to_vec(&Leb128, &ProtobufSint64, &input).unwrap_err();
    assert_eq!((err.offset(), err.kind()), (5000, &TranscodeErrorKind::Unencodable { value: u64::MAX }));
    assert_eq!(to_vec(&Leb128, &ProtobufSint64, &input[..5000]).unwrap(), [0x0A; 5000]);
    // Signed to signed keeps the sign.
    assert_eq!(to_vec(&ProtobufSint64, &Sleb128, &[0x03, 0x01]).unwrap(), [0x7E, 0x7F]);
    assert_eq!(to_vec(&Sleb128, &SourcemapVlq, &[0x7E, 0x10]).unwrap(), b"FgB".to_vec());
}
