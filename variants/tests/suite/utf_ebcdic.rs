//! `utf-ebcdic` (Unicode Technical Report #16) against its sources' vectors,
//! through every strategy (table, branching, run-time tables, the reference
//! interpreter) and the encoder; the unit map's construction; every scalar
//! value round-tripped; malformed input refused at the right offset.
//!
//! Sources of the vectors:
//! * UTR #16: `A` is C1 (an EBCDIC invariant keeps its byte); U+00FF is
//!   `8B 73` (I8 `C7 BF`); the signature U+FEFF is `DD 73 66 73`, as the byte
//!   order mark tables list it (I8 `F1 BF B7 BF`);
//! * the EBCDIC invariant characters of code page 1047 (letters in C1–C9,
//!   D1–D9, E2–E9 and 81–89, 91–99, A2–A9; digits F0–F9; space 40), which
//!   UTF-EBCDIC keeps as single bytes;
//! * the forms' boundaries (0x9F, 0xA0, 0x3FF, 0x400, 0x3FFF, 0x4000,
//!   0x3FFFF, 0x40000, 0x10FFFF), computed outside this project (a short
//!   script written from UTR #16's table of I8 forms and its rule for the
//!   byte map: I8 bytes A0–FF take the bytes that 00–9F leave, in ascending
//!   order).

use placemat_codec::{Codec, Decoder, Encoder, Step};
use placemat_compiler::Description;
use placemat_variants::codecs::{UtfEbcdic, UtfEbcdicBranching};
use proptest::prelude::*;

use crate::common::{check_agreement, check_round_trip, model_of, strategies};
use crate::real_world::{check_exhaustive, check_invalid, check_vectors};

const VECTORS: &[(u64, &[u8])] = &[
    (0x00, &[0x00]),
    (0x41, &[0xC1]),
    (0x0A, &[0x15]),
    (0x85, &[0x25]),
    (0x9F, &[0xFF]),
    (0xA0, &[0x80, 0x41]),
    (0xFF, &[0x8B, 0x73]),
    (0x3FF, &[0xB6, 0x73]),
    (0x400, &[0xB8, 0x41, 0x41]),
    (0x3FFF, &[0xDB, 0x73, 0x73]),
    (0x4000, &[0xDC, 0x57, 0x41, 0x41]),
    (0xFEFF, &[0xDD, 0x73, 0x66, 0x73]),
    (0x3FFFF, &[0xEC, 0x73, 0x73, 0x73]),
    (0x40000, &[0xED, 0x49, 0x41, 0x41, 0x41]),
    (0x10FFFF, &[0xEE, 0x42, 0x73, 0x73, 0x73]),
];

#[test]
fn utf_ebcdic_vectors() {
    check_vectors::<UtfEbcdic>(VECTORS);
}

/// The EBCDIC invariant characters keep their code page 1047 bytes.
#[test]
fn utf_ebcdic_keeps_the_ebcdic_invariants() {
    let runs: [(char, u8, u8); 7] = [
        ('A', 0xC1, 9),
        ('J', 0xD1, 9),
        ('S', 0xE2, 8),
        ('a', 0x81, 9),
        ('j', 0x91, 9),
        ('s', 0xA2, 8),
        ('0', 0xF0, 10),
    ];
    for (first, byte, n) in runs {
        for k in 0..n {
            let c = u32::from(first) + u32::from(k);
            let mut out = Vec::new();
            UtfEbcdic.encode_push(c, &mut out).unwrap();
            assert_eq!(out, [byte + k], "{:?}", char::from_u32(c));
        }
    }
    assert_eq!(
        UtfEbcdic.decode(b"\x40\xC8\x85\x93\x93\x96").unwrap(),
        " Hello".chars().map(u32::from).collect::<Vec<_>>()
    );
}

/// The unit map is a permutation whose upper 96 entries (the I8 lead and
/// trailing bytes) are the bytes the 160 single-byte characters leave, in
/// ascending order, as UTR #16 builds it.
#[test]
fn utf_ebcdic_unit_map_follows_its_rule() {
    let model = Description::parse_str(UtfEbcdic::DESCRIPTION).unwrap().model;
    let map = model.unit_map.clone().expect("utf-ebcdic maps its units");
    let mut sorted = map.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..=255u8).collect::<Vec<_>>());
    let left: Vec<u8> = (0..=255u8).filter(|b| !map[..0xA0].contains(b)).collect();
    assert_eq!(map[0xA0..], left[..]);
    // The decoders read the mapped bytes: no byte is its own I8 byte in general.
    assert_ne!(model.digit_of(0xC1), Some(0xC1));
    assert_eq!(model.digit_of(0xC1), Some(0x41));
}

/// The branching decoder matches I8 bytes (digits): the start state's live
/// arms are the I8 table's few runs, not the map's scattered bytes.
#[test]
fn utf_ebcdic_branches_on_i8_bytes() {
    use placemat_compiler::listing::{arms, digit_arms};
    let model = Description::parse_str(UtfEbcdic::DESCRIPTION).unwrap().model;
    let a = placemat_compiler::Automaton::build(&model, Default::default()).unwrap();
    let live = |arms: Vec<placemat_compiler::listing::Arm>| arms.into_iter().filter(|a| a.next != 0).count();
    let (by_digit, by_byte) = (live(digit_arms(&a, 1).expect("a unit map")), live(arms(&a, 1)));
    // 00-7F, 80-9F, C5-DF, E1-EF, F0 (a second byte from B0), F1 (the
    // surrogates' lead), F2-F7, F8 (a second byte from A8), F9 (up to U+10FFFF):
    // nine runs, as UTF-8's start state has.
    assert_eq!(by_digit, 9);
    assert!(by_byte > 40, "{by_byte}");
    // No unit map, no digit arms.
    let utf8 = Description::parse_str(placemat_variants::codecs::Utf8::DESCRIPTION).unwrap().model;
    assert!(digit_arms(&placemat_compiler::Automaton::build(&utf8, Default::default()).unwrap(), 1).is_none());
}

/// What UTF-EBCDIC refuses, with the exact error every strategy gives.
#[test]
fn utf_ebcdic_invalid_inputs() {
    check_invalid::<UtfEbcdic>(&[
        // I8 A0 (a trailing byte) cannot start a sequence.
        (&[0x41], 0, Some(1)),
        (&[0xC1, 0x41], 1, Some(1)),
        // I8 C0–C4 would be longer than needed for values below A0.
        (&[0x74, 0x41], 0, Some(1)),
        // A lead, then a byte that is no I8 trailing byte (EBCDIC `A`).
        (&[0x8B, 0xC1], 0, Some(1)),
        // Cut short.
        (&[0xC1, 0x8B], 1, None),
        (&[0xDD, 0x73, 0x66], 0, None),
        // The surrogates D800–DFFF (I8 F1 B6 … and F1 B7 …) are not scalar values.
        (&[0xDD, 0x65, 0x41, 0x41], 0, Some(1)),
        (&[0xDD, 0x66, 0x73, 0x73], 0, Some(1)),
        // Past U+10FFFF (I8 F9 A2 …).
        (&[0xEE, 0x43, 0x41, 0x41, 0x41], 0, Some(1)),
    ]);
    assert!(UtfEbcdic.encode_push(0xD800, &mut Vec::new()).is_err());
    assert!(UtfEbcdic.encode_push(0x11_0000, &mut Vec::new()).is_err());
}

#[test]
fn utf_ebcdic_short_inputs_agree_with_the_reference() {
    check_exhaustive::<UtfEbcdic>();
}

/// Every scalar value through the encoder and both generated decoders; every
/// 97th (and the excluded values) against the reference and all strategies.
#[test]
fn utf_ebcdic_every_scalar_value_round_trips() {
    let (strategies, model) = (strategies::<UtfEbcdic>(), model_of::<UtfEbcdic>());
    let mut buf = [0u8; 8];
    for v in (0..=0x10_FFFFu32).filter(|v| !(0xD800..=0xDFFF).contains(v)) {
        let n = UtfEbcdic.encode(v, &mut buf).unwrap();
        assert_eq!(UtfEbcdic.step(&buf[..n]), Step::Value { value: v, len: n }, "U+{v:X}");
        assert_eq!(UtfEbcdicBranching.step(&buf[..n]), Step::Value { value: v, len: n }, "U+{v:X}");
    }
    for v in (0..=0x11_0000u64).step_by(97).chain(0xD7FF..=0xE000) {
        check_round_trip::<UtfEbcdic>(&strategies, &model, v);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Random bytes, weighted towards the I8 trailing bytes' images.
    #[test]
    fn utf_ebcdic_strategies_agree_on_random_bytes(
        input in prop::collection::vec(prop_oneof![any::<u8>(), 0x41..0x74u8], 0..24)
    ) {
        check_agreement::<UtfEbcdic>(&strategies::<UtfEbcdic>(), &input);
    }
}
