//! `utf1` (UTF-1, ISO/IEC 10646-1:1993 Annex G) against published vectors,
//! through every strategy (table, branching, run-time tables, the reference
//! interpreter) and the encoder; exhaustive agreement on short inputs; and the
//! property Pike's mail held against it: `/` inside multi-byte sequences.
//!
//! Sources of the vectors:
//! * ISO-IR 178 (the registration of UTF-1 in the ISO international register
//!   of coded character sets, 1993), which restates Annex G's table of forms
//!   and T(z);
//! * the example table of the English Wikipedia article "UTF-1" (code points
//!   U+007F to U+7FFFFFFF, among them U+00A0 → `A0 A0`, U+0100 → `A1 21`,
//!   U+FFFD → `F7 65 AD` and U+10FFFF → `FC 21 39 6E 6C`); 0000, 0041, 4015
//!   and 4016 are the forms' boundaries, computed from Annex G's table.

use placemat_codec::{Decoder, Encoder};
use placemat_variants::codecs::Utf1;

use crate::common::{check_agreement, check_round_trip, model_of, strategies};
use crate::real_world::{check_exhaustive, check_invalid, check_vectors};

const VECTORS: &[(u64, &[u8])] = &[
    (0x0000, &[0x00]),
    (0x0041, &[0x41]),
    (0x007F, &[0x7F]),
    (0x0080, &[0x80]),
    (0x009F, &[0x9F]),
    (0x00A0, &[0xA0, 0xA0]),
    (0x00BF, &[0xA0, 0xBF]),
    (0x00C0, &[0xA0, 0xC0]),
    (0x00FF, &[0xA0, 0xFF]),
    (0x0100, &[0xA1, 0x21]),
    (0x015D, &[0xA1, 0x7E]),
    (0x015E, &[0xA1, 0xA0]),
    (0x01BD, &[0xA1, 0xFF]),
    (0x01BE, &[0xA2, 0x21]),
    (0x07FF, &[0xAA, 0x72]),
    (0x0800, &[0xAA, 0x73]),
    (0x0FFF, &[0xB5, 0x48]),
    (0x1000, &[0xB5, 0x49]),
    (0x4015, &[0xF5, 0xFF]),
    (0x4016, &[0xF6, 0x21, 0x21]),
    (0xD7FF, &[0xF7, 0x2F, 0xC3]),
    (0xE000, &[0xF7, 0x3A, 0x79]),
    (0xF8FF, &[0xF7, 0x5C, 0x3C]),
    (0xFDD0, &[0xF7, 0x62, 0xBA]),
    (0xFDEF, &[0xF7, 0x62, 0xD9]),
    (0xFEFF, &[0xF7, 0x64, 0x4C]),
    (0xFFFD, &[0xF7, 0x65, 0xAD]),
    (0xFFFE, &[0xF7, 0x65, 0xAE]),
    (0xFFFF, &[0xF7, 0x65, 0xAF]),
    (0x1_0000, &[0xF7, 0x65, 0xB0]),
    (0x3_8E2D, &[0xFB, 0xFF, 0xFF]),
    (0x3_8E2E, &[0xFC, 0x21, 0x21, 0x21, 0x21]),
    (0xF_FFFF, &[0xFC, 0x21, 0x37, 0xB2, 0x7A]),
    (0x10_0000, &[0xFC, 0x21, 0x37, 0xB2, 0x7B]),
    (0x10_FFFF, &[0xFC, 0x21, 0x39, 0x6E, 0x6C]),
    (0x7FFF_FFFF, &[0xFD, 0xBD, 0x2B, 0xB9, 0x40]),
];

#[test]
fn utf1_published_vectors() {
    check_vectors::<Utf1>(VECTORS);
}

/// What UTF-1 refuses, with the exact error every strategy gives.
#[test]
fn utf1_invalid_inputs() {
    check_invalid::<Utf1>(&[
        // A0 takes A0–FF; 21 is no continuation of it (and a value of its own).
        (&[0xA0, 0x21], 0, Some(1)),
        // A digit is one of the 190 bytes of T(z): not a control, space or DEL.
        (&[0xA1, 0x20], 0, Some(1)),
        (&[0x41, 0xF7, 0x65, 0x7F], 1, Some(2)),
        (&[0xF6, 0x9F, 0x21], 0, Some(1)),
        // Cut short.
        (&[0xF7, 0x65], 0, None),
        (&[0x41, 0xFC, 0x21, 0x39, 0x6E], 1, None),
        // One past 0x7FFFFFFF: the last digit is where it stops being a value.
        (&[0xFD, 0xBD, 0x2B, 0xB9, 0x41], 0, Some(4)),
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 0, Some(1)),
    ]);
    // Values past 0x7FFFFFFF have no encoding.
    assert!(Utf1.encode_push(0x8000_0000, &mut Vec::new()).is_err());
}

#[test]
fn utf1_short_inputs_agree_with_the_reference() {
    check_exhaustive::<Utf1>();
}

/// Random values of every form round-trip through every strategy, and random
/// digit strings after every lead agree with the reference.
#[test]
fn utf1_random_values_and_digits() {
    let (strategies, model) = (strategies::<Utf1>(), model_of::<Utf1>());
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..3000 {
        let v = (next() % 0x8000_0000) >> (next() % 31);
        check_round_trip::<Utf1>(&strategies, &model, v);
        let lead = 0xA0 + (next() % 0x60) as u8;
        let digits: Vec<u8> = (0..5).map(|_| next() as u8).collect();
        let mut input = vec![lead];
        input.extend(&digits[..(next() % 6) as usize]);
        check_agreement::<Utf1>(&strategies, &input);
    }
}

/// The file-system hazard: `/` (2F) and the other ASCII graphic characters are
/// digits of T(z), so they occur inside multi-byte sequences, and a byte-wise
/// search for `/` splits characters. U+010E (Ď) is `A1 2F`.
#[test]
fn utf1_writes_slash_inside_sequences() {
    let mut out = Vec::new();
    Utf1.encode_push(0x010E, &mut out).unwrap();
    assert_eq!(out, b"\xA1/");
    let inside = (0x100u32..0x1_0000).filter(|&v| {
        let mut out = Vec::new();
        Utf1.encode_push(v, &mut out).unwrap();
        out[1..].contains(&b'/')
    });
    // Digit 14 is 2F: the 85 two-byte values whose digit is 14, and the 637
    // three-byte values of the BMP with it in either digit (counted from
    // Annex G's arithmetic, outside this project).
    assert_eq!(inside.count(), 85 + 637);
    assert_eq!(Utf1.decode(b"\xA1/").unwrap(), [0x010E]);
}
