//! Encoding into a caller's buffer (`Encoder::encode_into`), the exact length
//! (`Encoder::encoded_len`) and `Encoder::encode_all` (which runs
//! `encode_into`) against one value at a time (`Encoder::encode_push` and
//! `Encoder::forbids`): the same units, the same refusals at the same index,
//! nothing written past the units written, and a buffer one unit short
//! refused at the last value.

use placemat_codec::{EncodeError, EncodeIntoError, Encoder, Value};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::{Cesu8, Leb128, Utf16Le, Utf8, Wtf8};
use placemat_variants::registry;

/// A unit no encoder here writes after the end of its output in these tests.
const UNTOUCHED: u8 = 0xA5;

/// What the bulk calls must give: each value's units in turn, up to the first
/// value refused (by itself, or by a rule after the value before it).
fn one_at_a_time<E: Encoder>(encoder: &E, values: &[E::Value]) -> (Vec<u8>, Result<(), (usize, EncodeError)>) {
    let mut out = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        if let Some(&before) = i.checked_sub(1).map(|k| &values[k]) {
            if encoder.forbids(before, v) {
                let (before, value) = (before.to_u64(), v.to_u64());
                return (out, Err((i, EncodeError::ForbiddenAfter { before, value })));
            }
        }
        if let Err(e) = encoder.encode_push(v, &mut out) {
            return (out, Err((i, e)));
        }
    }
    (out, Ok(()))
}

/// `encode_all`, `encode_into` and `encoded_len` agree with one value at a
/// time on `values`.
fn agrees<E: Encoder>(encoder: &E, values: &[E::Value]) {
    let (all, appended) = one_at_a_time(encoder, values);
    let mut bulk = vec![UNTOUCHED];
    assert_eq!(encoder.encode_all(values, &mut bulk), appended, "encode_all of {values:X?}");
    assert_eq!((bulk[0], &bulk[1..]), (UNTOUCHED, &all[..]), "encode_all appends, {values:X?}");
    assert_eq!(encoder.encoded_len(values), appended.map(|()| all.len()), "encoded_len of {values:X?}");
    let mut out = vec![UNTOUCHED; encoder.max_encoded_len(values.len()) + 8];
    let written = encoder.encode_into(values, &mut out);
    match appended {
        Ok(()) => assert_eq!(written, Ok(all.len()), "{values:X?}"),
        Err((index, error)) => assert_eq!(written, Err(EncodeIntoError { index, written: all.len(), error })),
    }
    assert_eq!(&out[..all.len()], &all[..], "the units written, {values:X?}");
    assert!(out[all.len()..].iter().all(|&u| u == UNTOUCHED), "nothing past them, {values:X?}");
    if appended.is_ok() {
        exact_and_one_short(encoder, values, &all);
    }
}

/// An exact buffer takes every value; one unit less refuses the last value
/// with `BufferTooSmall`, after the others' units.
fn exact_and_one_short<E: Encoder>(encoder: &E, values: &[E::Value], all: &[u8]) {
    let mut exact = vec![UNTOUCHED; all.len()];
    assert_eq!(encoder.encode_into(values, &mut exact), Ok(all.len()));
    assert_eq!(exact, all);
    let Some((&last, _)) = values.split_last() else { return };
    let last_len = encoder.encoded_units(last).unwrap();
    let mut short = vec![UNTOUCHED; all.len() - 1];
    let err = encoder.encode_into(values, &mut short).unwrap_err();
    let before = all.len() - last_len;
    let expected = EncodeIntoError { index: values.len() - 1, written: before, error: err.error };
    assert_eq!(err, expected, "{values:X?}");
    assert!(matches!(err.error, EncodeError::BufferTooSmall { .. }), "{err}");
    assert_eq!(&short[..before], &all[..before]);
}

/// Values of up to `bits` bits: the edges of every width, and pseudo-random
/// ones (an LCG, so a failure repeats).
fn values(bits: u32, count: usize) -> Vec<u64> {
    let mask = if bits >= 64 { u64::MAX } else { (1 << bits) - 1 };
    let mut out: Vec<u64> = (0..bits.min(64)).flat_map(|b| [(1u64 << b) - 1, 1 << b]).collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..count {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        out.push((x >> (x % 48)) & mask);
    }
    out
}

/// Every built-in codec, loaded from its description: the encodable values
/// in one call, then all of them (refused at the first that is not).
#[test]
fn every_codec_encodes_into_a_slice_as_into_a_vec() {
    for codec in registry::all() {
        let info = codec.info();
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        let all = values(info.value_bits.min(64), 2_000);
        let encodable: Vec<u64> = all.iter().copied().filter(|&v| info.contains(v)).collect();
        agrees(&loaded, &encodable);
        agrees(&loaded, &all);
        agrees(&loaded, &[]);
    }
}

/// The generated encoders, whose value types differ.
#[test]
fn generated_encoders_encode_into_a_slice_as_into_a_vec() {
    fn typed<E: Encoder>(encoder: &E, bits: u32) {
        let values: Vec<E::Value> = values(bits, 2_000).into_iter().filter_map(E::Value::from_u64).collect();
        let encodable: Vec<E::Value> = values.iter().copied().filter(|&v| encoder.encoded_units(v).is_ok()).collect();
        agrees(encoder, &encodable);
        agrees(encoder, &values);
    }
    typed(&Utf8, 21);
    typed(&Cesu8, 21);
    typed(&Utf16Le, 21);
    typed(&Wtf8, 21);
    typed(&Leb128, 64);
}

/// A rule across values refuses the pair in all three calls alike.
#[test]
fn a_forbidden_pair_is_refused_at_its_second_value() {
    let values = [0x41, 0xDBFF, 0xDFFF, 0x42];
    let mut out = [UNTOUCHED; 16];
    let err = Wtf8.encode_into(&values, &mut out).unwrap_err();
    let error = EncodeError::ForbiddenAfter { before: 0xDBFF, value: 0xDFFF };
    assert_eq!(err, EncodeIntoError { index: 2, written: 4, error });
    assert_eq!(out[..4], [0x41, 0xED, 0xAF, 0xBF]);
    assert_eq!(Wtf8.encoded_len(&values), Err((2, error)));
    agrees(&Wtf8, &values);
}

/// A forbidden pair across the edge of `encode_all`'s runs of values is
/// refused as inside one: the second value of the pair first in a run.
#[test]
fn a_forbidden_pair_across_two_runs_of_encode_all_is_refused() {
    let run = placemat_codec::ENCODE_RUN;
    let mut values = vec![0x41u32; 2 * run + 5];
    values[run - 1] = 0xDBFF;
    values[run] = 0xDFFF;
    let error = EncodeError::ForbiddenAfter { before: 0xDBFF, value: 0xDFFF };
    let mut out = Vec::new();
    assert_eq!(Wtf8.encode_all(&values, &mut out), Err((run, error)));
    assert_eq!(out.len(), run - 1 + 3, "the values before the pair's second, the first's three units");
    values[run] = 0x42;
    agrees(&Wtf8, &values);
}

/// The generated `encoded_units` (the form chosen without writing) gives
/// `encode`'s length, or its refusal, for every value tried.
#[test]
fn generated_encoded_units_is_the_length_encode_writes() {
    fn typed<E: Encoder>(encoder: &E, bits: u32) {
        let mut buf = vec![0u8; encoder.max_units()];
        for v in values(bits.min(64) + 1, 4_000).into_iter().filter_map(E::Value::from_u64) {
            assert_eq!(encoder.encoded_units(v), encoder.encode(v, &mut buf), "{v:X?}");
        }
    }
    typed(&Utf8, 21);
    typed(&Cesu8, 21);
    typed(&Utf16Le, 21);
    typed(&Wtf8, 21);
    typed(&Leb128, 64);
    typed(&placemat_variants::codecs::QuicVarint, 64);
    typed(&placemat_variants::codecs::SqliteVarint, 64);
    typed(&placemat_variants::codecs::Printable6, 21);
    typed(&placemat_variants::codecs::Utf1, 31);
}
