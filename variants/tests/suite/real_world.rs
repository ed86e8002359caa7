//! The real-world codecs against their specifications' own vectors, through every
//! strategy (table, branching, run-time tables, the reference interpreter) and the
//! encoder; then exhaustive agreement on short inputs and round trips at every
//! form boundary.
//!
//! Sources of the vectors, by codec:
//! * `vlq`: Standard MIDI Files 1.0, "Variable-Length Quantities", the table of
//!   examples (all twelve rows).
//! * `git-ofs`: git's `Documentation/gitformat-pack.txt` ("offset encoding") and its
//!   encoder in `builtin/pack-objects.c`; 128, 16511, 16512 and 2113663 as printed in
//!   go-git's `readNegativeOffset` comment; the rest computed from git's rule.
//! * `quic-varint`: RFC 9000, appendix A.1 (the four samples and the two-byte
//!   encoding of 37) and §12.4 (`40 01` is 1); boundaries from §16's table.
//! * `sqlite-varint`: SQLite's file format, §1.6, and `putVarint64` in `src/util.c`
//!   (SQLite prints no byte vectors: the boundaries are computed from that code).
//! * `leb128`: DWARF 5 §7.6's table of unsigned examples (2, 127, 128, 129, 130,
//!   12857), the widely cited 624485 → `E5 8E 26`, and LLVM's
//!   `unittests/Support/LEB128Test.cpp` (padded encodings, `80 C1 80 80 10`, and
//!   the ten-byte value that does not fit 64 bits).
//! * `hpack-int5`, `hpack-int7`: RFC 7541 appendix C.1 (10 and 1337 with a
//!   5-bit prefix), 1337 with a 7-bit prefix (`7F BA 09`) and `1F 80 00` = 31
//!   as the issue quotes them from §5.1's decoder; the boundaries (2^N − 1 and
//!   2^N − 1 + 127) and `u64::MAX` computed from §5.1's pseudocode.
//! * `cesu8`: Unicode Technical Report #26 (its example U+10400 → `ED A0 81 ED B0
//!   80`; four-byte forms are not CESU-8); the surrogate pairs of RFC 2781 §2.1.
//! * `mutf8`: `java.io.DataInput`'s "Modified UTF-8" and the JNI specification's
//!   "Modified UTF-8 Strings" (U+0000 as `C0 80`, supplementary values as two
//!   three-byte surrogates, no zero byte).
//! * `perl-utf8`: perl's `utf8.h` table of start bytes and the encodings in
//!   `ext/XS-APItest/t/utf8.t` (2^31, 2^36 − 1, 2^36, 2^63 − 1); perl refuses code
//!   points above 2^63 − 1 (`IV_MAX`).

use placemat_codec::{Codec, Encoder, Value};
use placemat_variants::codecs::{
    Cesu8, GitOfs, HpackInt5, HpackInt7, Leb128, Mutf8, PerlUtf8, QuicVarint, SqliteVarint, Vlq,
};

use crate::common::{check_agreement, check_round_trip, model_of, strategies, widened};

/// `(value, canonical encoding)`.
type Vector = (u64, &'static [u8]);

const VLQ: &[Vector] = &[
    (0x00, &[0x00]),
    (0x40, &[0x40]),
    (0x7F, &[0x7F]),
    (0x80, &[0x81, 0x00]),
    (0x2000, &[0xC0, 0x00]),
    (0x3FFF, &[0xFF, 0x7F]),
    (0x4000, &[0x81, 0x80, 0x00]),
    (0x10_0000, &[0xC0, 0x80, 0x00]),
    (0x1F_FFFF, &[0xFF, 0xFF, 0x7F]),
    (0x20_0000, &[0x81, 0x80, 0x80, 0x00]),
    (0x800_0000, &[0xC0, 0x80, 0x80, 0x00]),
    (0xFFF_FFFF, &[0xFF, 0xFF, 0xFF, 0x7F]),
];

const GIT_OFS: &[Vector] = &[
    (0, &[0x00]),
    (127, &[0x7F]),
    (128, &[0x80, 0x00]),
    (255, &[0x80, 0x7F]),
    (16511, &[0xFF, 0x7F]),
    (16512, &[0x80, 0x80, 0x00]),
    (2113663, &[0xFF, 0xFF, 0x7F]),
    (2113664, &[0x80, 0x80, 0x80, 0x00]),
    (i64::MAX as u64, &[0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x7F]),
    (u64::MAX, &[0x80, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x7F]),
];

const QUIC: &[Vector] = &[
    (0x0219_7C5E_FF14_E88C, &[0xC2, 0x19, 0x7C, 0x5E, 0xFF, 0x14, 0xE8, 0x8C]),
    (494878333, &[0x9D, 0x7F, 0x3E, 0x7D]),
    (15293, &[0x7B, 0xBD]),
    (37, &[0x25]),
    (63, &[0x3F]),
    (64, &[0x40, 0x40]),
    (16383, &[0x7F, 0xFF]),
    (16384, &[0x80, 0x00, 0x40, 0x00]),
    (0x3FFF_FFFF, &[0xBF, 0xFF, 0xFF, 0xFF]),
    (0x4000_0000, &[0xC0, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00]),
    ((1 << 62) - 1, &[0xFF; 8]),
];

const SQLITE: &[Vector] = &[
    (0, &[0x00]),
    (127, &[0x7F]),
    (128, &[0x81, 0x00]),
    (16383, &[0xFF, 0x7F]),
    (16384, &[0x81, 0x80, 0x00]),
    (0xFFF_FFFF, &[0xFF, 0xFF, 0xFF, 0x7F]),
    (0x1000_0000, &[0x81, 0x80, 0x80, 0x80, 0x00]),
    ((1 << 56) - 1, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
    (1 << 56, &[0x80, 0xC0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
    (i64::MAX as u64, &[0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
    (u64::MAX - 1, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]),
    (u64::MAX, &[0xFF; 9]),
];

const LEB128: &[Vector] = &[
    (2, &[0x02]),
    (127, &[0x7F]),
    (128, &[0x80, 0x01]),
    (129, &[0x81, 0x01]),
    (130, &[0x82, 0x01]),
    (12857, &[0xB9, 0x64]),
    (624485, &[0xE5, 0x8E, 0x26]),
    (0x100, &[0x80, 0x02]),
    (0x1_0000_2080, &[0x80, 0xC1, 0x80, 0x80, 0x10]),
    (1 << 63, &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
    (u64::MAX, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
];

const CESU8: &[Vector] = &[
    (0x00, &[0x00]),
    (0x41, &[0x41]),
    (0x7FF, &[0xDF, 0xBF]),
    (0xD7FF, &[0xED, 0x9F, 0xBF]),
    (0xE000, &[0xEE, 0x80, 0x80]),
    (0xFFFF, &[0xEF, 0xBF, 0xBF]),
    (0x10000, &[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]),
    (0x10400, &[0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80]),
    (0x10401, &[0xED, 0xA0, 0x81, 0xED, 0xB0, 0x81]),
    (0x1F600, &[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]),
    (0x10FFFF, &[0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF]),
];

const PERL: &[Vector] = &[
    (0x41, &[0x41]),
    (0xD800, &[0xED, 0xA0, 0x80]),
    (0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
    (0x8000_0000, &[0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80]),
    (0xF_FFFF_FFFF, &[0xFE, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
    (0x10_0000_0000, &[0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]),
    (i64::MAX as u64, &[0xFF, 0x80, 0x87, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
];

/// Every vector encodes to its bytes, and decodes back through every strategy.
pub(crate) fn check_vectors<C: Codec + Default + 'static>(vectors: &[Vector]) {
    let (strategies, model) = (strategies::<C>(), model_of::<C>());
    let name = &C::info().name;
    for &(value, bytes) in vectors {
        let mut out = Vec::new();
        C::default().encode_push(<C as Encoder>::Value::from_u64(value).unwrap(), &mut out).unwrap();
        assert_eq!(out, bytes, "{name}: encoding {value:#X}");
        check_round_trip::<C>(&strategies, &model, value);
        check_agreement::<C>(&strategies, bytes);
    }
}

/// Longer-than-needed encodings decode to their value through every strategy.
pub(crate) fn check_padded<C: Codec + Default + 'static>(vectors: &[(&[u8], u64)]) {
    let strategies = strategies::<C>();
    for &(bytes, value) in vectors {
        for s in strategies.iter() {
            let got = (s.step)(bytes);
            assert_eq!(got, placemat_codec::Step::Value { value, len: bytes.len() }, "{} on {bytes:02X?}", s.name);
        }
        check_agreement::<C>(&strategies, bytes);
    }
}

/// Invalid inputs: `(bytes, valid_up_to, error_len)`, the same from every strategy.
pub(crate) fn check_invalid<C: Codec + Default + 'static>(cases: &[(&[u8], usize, Option<usize>)]) {
    let strategies = strategies::<C>();
    for &(bytes, valid_up_to, error_len) in cases {
        let err = C::default().validate(bytes).unwrap_err();
        assert_eq!((err.valid_up_to(), err.error_len()), (valid_up_to, error_len), "{bytes:02X?}");
        check_agreement::<C>(&strategies, bytes);
    }
}

/// Every input of one and two units, and of three whose first unit is a lead:
/// every strategy agrees with the reference; values at each encoder form's ends
/// (and one past them) round-trip.
pub(crate) fn check_exhaustive<C: Codec + Default + 'static>() {
    let (strategies, model) = (strategies::<C>(), model_of::<C>());
    for a in 0..=255u8 {
        check_agreement::<C>(&strategies, &[a]);
        for b in (0..=255u8).step_by(3) {
            check_agreement::<C>(&strategies, &[a, b]);
            check_agreement::<C>(&strategies, &[a, b, a ^ 0x80]);
        }
    }
    let automaton = placemat_compiler::Automaton::build(&model, Default::default()).unwrap();
    for f in &automaton.encode_forms {
        // The forms' ends are raw values (a signed codec's: spelling others).
        for raw in [f.lo, f.lo.wrapping_sub(1), f.hi, f.hi.wrapping_add(1)] {
            check_round_trip::<C>(&strategies, &model, widened(&model, &raw.into()));
        }
    }
}

#[test]
fn vlq_midi_table() {
    check_vectors::<Vlq>(VLQ);
    // Shortest form only (a leading 80 is a zero group), four bytes at most.
    check_invalid::<Vlq>(&[
        (&[0x80, 0x00], 0, Some(1)),
        (&[0x81, 0x80, 0x80, 0x80, 0x00], 0, Some(3)),
        (&[0x7F, 0x81], 1, None),
    ]);
    check_exhaustive::<Vlq>();
}

#[test]
fn git_ofs_offsets() {
    check_vectors::<GitOfs>(GIT_OFS);
    // Past 2^64 − 1: a ninth continuation byte after a first group of 1 makes a
    // ten-byte value too large (git's "overflow"); the error is at that byte.
    check_invalid::<GitOfs>(&[(&[0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0, Some(8))]);
    check_exhaustive::<GitOfs>();
}

#[test]
fn quic_rfc9000_samples() {
    check_vectors::<QuicVarint>(QUIC);
    check_padded::<QuicVarint>(&[
        (&[0x40, 0x25], 37),
        (&[0x40, 0x01], 1),
        (&[0x80, 0x00, 0x00, 0x25], 37),
        (&[0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x25], 37),
    ]);
    check_invalid::<QuicVarint>(&[(&[0x40], 0, None), (&[0x25, 0x80, 0x00, 0x00], 1, None)]);
    check_exhaustive::<QuicVarint>();
}

#[test]
fn sqlite_varints() {
    check_vectors::<SqliteVarint>(SQLITE);
    check_padded::<SqliteVarint>(&[
        (&[0x80, 0x00], 0),
        (&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0),
        (&[0x80, 0x81, 0x00], 128),
    ]);
    check_invalid::<SqliteVarint>(&[(&[0x81], 0, None), (&[0x80; 8], 0, None)]);
    check_exhaustive::<SqliteVarint>();
}

#[test]
fn leb128_dwarf_and_llvm() {
    check_vectors::<Leb128>(LEB128);
    // LLVM's padded encodings (`PadTo`).
    check_padded::<Leb128>(&[
        (&[0x80, 0x00], 0),
        (&[0x80, 0x80, 0x00], 0),
        (&[0xFF, 0x00], 0x7F),
        (&[0xFF, 0x80, 0x00], 0x7F),
        (&[0x80, 0x81, 0x00], 0x80),
        (&[0x80, 0x81, 0x80, 0x00], 0x80),
        (&[0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0x80),
    ]);
    // LLVM's invalid ones: truncated, and a tenth byte past bit 63 (at offset 9).
    check_invalid::<Leb128>(&[
        (&[0x80], 0, None),
        (&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02], 0, Some(9)),
        (&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02], 0, Some(9)),
    ]);
    check_exhaustive::<Leb128>();
}

const HPACK5: &[Vector] = &[
    (0, &[0x00]),
    (10, &[0x0A]),
    (30, &[0x1E]),
    (31, &[0x1F, 0x00]),
    (158, &[0x1F, 0x7F]),
    (159, &[0x1F, 0x80, 0x01]),
    (1337, &[0x1F, 0x9A, 0x0A]),
    (u64::MAX, &[0x1F, 0xE0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
];

const HPACK7: &[Vector] = &[
    (0, &[0x00]),
    (126, &[0x7E]),
    (127, &[0x7F, 0x00]),
    (254, &[0x7F, 0x7F]),
    (255, &[0x7F, 0x80, 0x01]),
    (1337, &[0x7F, 0xBA, 0x09]),
    (u64::MAX, &[0x7F, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
];

#[test]
fn hpack_integers_rfc7541() {
    check_vectors::<HpackInt5>(HPACK5);
    check_vectors::<HpackInt7>(HPACK7);
    // Zero groups past the value: the decoder of §5.1 reads them as the same value.
    check_padded::<HpackInt5>(&[
        (&[0x1F, 0x80, 0x00], 31),
        (&[0x1F, 0x9A, 0x8A, 0x00], 1337),
        (&[0x1F, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 31),
    ]);
    check_padded::<HpackInt7>(&[(&[0x7F, 0x80, 0x00], 127), (&[0x7F, 0xBA, 0x89, 0x80, 0x00], 1337)]);
    check_invalid::<HpackInt5>(&[
        // The prefix's other bits are zero here.
        (&[0x20], 0, Some(1)),
        (&[0x0A, 0xFF], 1, Some(1)),
        // Cut short after a full prefix, and after a continuation.
        (&[0x1F], 0, None),
        (&[0x0A, 0x1F, 0x9A], 1, None),
        // Past the longest length (eleven bytes), and past u64::MAX.
        (&[0x1F, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0, Some(10)),
        (&[0x1F, 0xE0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], 0, Some(10)),
        (&[0x1F, 0xE1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], 0, Some(10)),
    ]);
    check_invalid::<HpackInt7>(&[(&[0x80], 0, Some(1)), (&[0x7F, 0xFF], 0, None)]);
    check_exhaustive::<HpackInt5>();
    check_exhaustive::<HpackInt7>();
    check_random_round_trips::<HpackInt5>(5);
    check_random_round_trips::<HpackInt7>(7);
}

/// Random values of every bit width up to 64 round-trip through the encoder
/// and every strategy, against the reference.
pub(crate) fn check_random_round_trips<C: Codec + Default + 'static>(seed: u64) {
    let (strategies, model) = (strategies::<C>(), model_of::<C>());
    let mut rng = placemat_compiler::analysis::Rng::new(seed);
    for _ in 0..3000 {
        let z = rng.next_u64();
        check_round_trip::<C>(&strategies, &model, z >> (rng.next_u64() % 64));
    }
}

/// Inputs CESU-8 and modified UTF-8 both refuse: UTF-8's four-byte form, lone
/// and reversed surrogates, a high surrogate followed by a non-surrogate.
const SURROGATE_ERRORS: &[(&[u8], usize, Option<usize>)] = &[
    (&[0xF0, 0x90, 0x80, 0x80], 0, Some(1)),
    (&[0xED, 0xA0, 0x80], 0, None),
    (&[0xED, 0xB0, 0x80], 0, Some(1)),
    (&[0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80], 0, Some(1)),
    (&[0xED, 0xA0, 0x80, 0x41], 0, Some(3)),
    (&[0xED, 0xA0, 0x80, 0xED, 0x9F, 0xBF], 0, Some(4)),
];

#[test]
fn cesu8_tr26() {
    check_vectors::<Cesu8>(CESU8);
    check_invalid::<Cesu8>(SURROGATE_ERRORS);
    check_exhaustive::<Cesu8>();
}

/// Modified UTF-8 writes CESU-8's vectors, U+0000 as `C0 80` (its lone
/// surrogates are in the `mutf8` module).
#[test]
fn mutf8_java() {
    let mutf8: Vec<Vector> = CESU8.iter().map(|&(v, b)| if v == 0 { (0, &[0xC0, 0x80][..]) } else { (v, b) }).collect();
    check_vectors::<Mutf8>(&mutf8);
    // No zero byte; C0 is a lead only for U+0000.
    check_invalid::<Mutf8>(&[(&[0x00], 0, Some(1)), (&[0x41, 0x00], 1, Some(1)), (&[0xC0, 0x81], 0, Some(1))]);
}

#[test]
fn perl_extended_utf8() {
    check_vectors::<PerlUtf8>(PERL);
    check_invalid::<PerlUtf8>(&[
        // 2^63: past IV_MAX.
        (&[0xFF, 0x80, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], 0, Some(2)),
        // Overlong: 0x41 in two bytes; 2^31 in 13 (all six groups that reach 2^36 are zero).
        (&[0xC1, 0x81], 0, Some(1)),
        (&[0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x82, 0x80, 0x80, 0x80, 0x80], 0, Some(6)),
    ]);
    check_exhaustive::<PerlUtf8>();
}

/// `layout: padded` codecs are the non-canonical ones, and the analysis shows
/// a value with two encodings; the encoder writes the shorter.
#[test]
fn canonical_forms() {
    let cases = [
        ("vlq", None),
        ("git-ofs", None),
        ("perl-utf8", None),
        ("cesu8", None),
        ("quic-varint", Some("U+0000 is both 00 and 40 00")),
        ("sqlite-varint", Some("U+0000 is both 00 and 80 00")),
        ("leb128", Some("U+0000 is both 00 and 80 00")),
    ];
    for (name, witness) in cases {
        let codec = placemat_variants::registry::find(name).unwrap();
        let model = placemat_compiler::Description::parse_str(codec.description()).unwrap().model;
        let verdict = placemat_compiler::analysis::structure::analyze(&model).canonical;
        match witness {
            None => assert!(verdict.is_yes(), "{name}: {verdict:?}"),
            Some(w) => assert_eq!(verdict, placemat_compiler::analysis::Verdict::No(w.into()), "{name}"),
        }
        let mut out = Vec::new();
        codec.encode_push(0, &mut out).unwrap();
        assert_eq!(out, [0], "{name}: the shortest form");
    }
}
