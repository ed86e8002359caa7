//! `wtf8` (Simon Sapin's WTF-8) through every strategy, the encoder and the
//! stream adapters (the CLI on it: `cli/tests/suite/codecs.rs`): its forms
//! are UTF-8's for every code point, surrogates included, and one rule spans
//! two values — a high surrogate is never directly followed by a low one. The
//! rule is what the product construction (one start state per context) must
//! get right.
//!
//! Source: Simon Sapin, "The WTF-8 encoding" (simonsapin.github.io/wtf-8/),
//! which defines WTF-8 as generalized UTF-8 without a surrogate pair (the
//! pair `ED A0 80 ED B0 80` is not WTF-8; U+10000 is `F0 90 80 80`). The
//! vectors below are UTF-8's arithmetic on the surrogates and the forms' ends.

use std::io::Read;

use placemat_codec::io::{ErrorMode, TranscodeError, TranscodeErrorKind, TranscodeReader};
use placemat_codec::{Codec, DecodeError, Decoder, DynCodec, EncodeError, Encoder, StreamValidator};
use placemat_variants::codecs::{PerlUtf8, Wtf8, Wtf8Branching};

use crate::common::{check_agreement, check_split, strategies};
use crate::real_world::{check_exhaustive, check_invalid, check_vectors};

const VECTORS: &[(u64, &[u8])] = &[
    (0x0000, &[0x00]),
    (0x007F, &[0x7F]),
    (0x0080, &[0xC2, 0x80]),
    (0x07FF, &[0xDF, 0xBF]),
    (0x0800, &[0xE0, 0xA0, 0x80]),
    (0xD7FF, &[0xED, 0x9F, 0xBF]),
    (0xD800, &[0xED, 0xA0, 0x80]),
    (0xDBFF, &[0xED, 0xAF, 0xBF]),
    (0xDC00, &[0xED, 0xB0, 0x80]),
    (0xDFFF, &[0xED, 0xBF, 0xBF]),
    (0xE000, &[0xEE, 0x80, 0x80]),
    (0xFFFF, &[0xEF, 0xBF, 0xBF]),
    (0x10000, &[0xF0, 0x90, 0x80, 0x80]),
    (0x10FFFF, &[0xF4, 0x8F, 0xBF, 0xBF]),
];

/// A high surrogate then a low one, the pair the rule forbids.
const PAIR: &[u8] = &[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80];

#[test]
fn vectors_and_the_rule_across_values() {
    check_vectors::<Wtf8>(VECTORS);
    check_invalid::<Wtf8>(&[
        // The forbidden pair: the error is at the low surrogate, whose `ED`
        // is the maximal subpart (`ED 80` would still be valid there).
        (PAIR, 3, Some(1)),
        (&[0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF], 3, Some(1)),
        (&[0x41, 0xED, 0xA0, 0x80, 0xED, 0xB0], 4, Some(1)),
        // After a high surrogate, `ED` alone is still open.
        (&[0xED, 0xA0, 0x80, 0xED], 3, None),
        // UTF-8's own errors: overlong, past U+10FFFF.
        (&[0xC0, 0x80], 0, Some(1)),
        (&[0xE0, 0x9F, 0xBF], 0, Some(1)),
        (&[0xF4, 0x90, 0x80, 0x80], 0, Some(1)),
    ]);
    // Every other order of surrogates is valid.
    for (input, values) in [
        (&[0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80][..], &[0xDC00, 0xD800][..]),
        (&[0xED, 0xA0, 0x80, 0xED, 0xA0, 0x80], &[0xD800, 0xD800]),
        (&[0xED, 0xA0, 0x80, 0x41, 0xED, 0xB0, 0x80], &[0xD800, 0x41, 0xDC00]),
        (&[0xED, 0xA0, 0x80, 0xED, 0x9F, 0xBF], &[0xD800, 0xD7FF]),
    ] {
        assert_eq!(Wtf8.decode(input).unwrap(), values, "{input:02X?}");
        assert_eq!(Wtf8Branching.decode(input).unwrap(), values, "{input:02X?}");
    }
    check_exhaustive::<Wtf8>();
}

/// Every pair of three-byte `ED` sequences, with and without text around,
/// agrees with the reference interpreter through every strategy.
#[test]
fn every_pair_of_ed_sequences_agrees_with_the_reference() {
    let strategies = strategies::<Wtf8>();
    for a in (0x80..=0xBF).step_by(3) {
        for b in (0x80..=0xBF).step_by(5) {
            let input = [0xED, a, 0x80, 0xED, b, 0xBF];
            check_agreement::<Wtf8>(&strategies, &input);
            check_agreement::<Wtf8>(&strategies, &[b"x".as_slice(), &input, b"y"].concat());
        }
    }
}

/// Long inputs go through the two-walk table decoder and the shift validator,
/// which cut the input only where every context reads alike.
#[test]
fn long_inputs_find_the_pair_anywhere() {
    let text: Vec<u8> = "wobbly \u{10437} text ".repeat(300).into_bytes();
    for at in [0, 1, 700, 2500, text.len()] {
        let mut input = text.clone();
        let at = (0..=at.min(input.len())).rev().find(|&k| k == 0 || k == input.len() || input[k] == b' ').unwrap();
        input.splice(at..at, PAIR.iter().copied());
        let err = DecodeError::new(at + 3, Some(1));
        assert_eq!(Decoder::validate(&Wtf8, &input), Err(err), "pair at {at}");
        assert_eq!(Wtf8::dfa().validate_scalar(&input), Err(err), "pair at {at}");
        assert_eq!(Wtf8::dfa().validate_by_table(&input), Err(err), "pair at {at}");
        assert_eq!(Wtf8.decode(&input), Err(err), "pair at {at}");
        assert_eq!(Wtf8Branching.decode(&input), Err(err), "pair at {at}");
    }
    assert_eq!(Wtf8.decode(&text).unwrap().len(), text.len() - 300 * 3);
}

#[test]
fn the_encoder_refuses_the_pair_naming_the_second_value() {
    let mut out = Vec::new();
    let err = Wtf8.encode_all(&[0x41, 0xDBFF, 0xDFFF, 0x42], &mut out).unwrap_err();
    assert_eq!(err, (2, EncodeError::ForbiddenAfter { before: 0xDBFF, value: 0xDFFF }));
    assert_eq!(out, [0x41, 0xED, 0xAF, 0xBF]);
    out.clear();
    Wtf8.encode_all(&[0xDC00, 0xD800, 0x10000], &mut out).unwrap();
    assert_eq!(out, [0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80, 0xF0, 0x90, 0x80, 0x80]);
    // The codec loaded at run time says the same.
    let loaded = placemat_compiler::LoadedCodec::from_text(Wtf8::DESCRIPTION).unwrap();
    assert!(loaded.dyn_forbids(0xD800, 0xDC00) && !loaded.dyn_forbids(0xDC00, 0xD800));
    assert!(Wtf8.dyn_forbids(0xDBFF, 0xDFFF) && !Wtf8.dyn_forbids(0xD800, 0x41));
}

/// The context crosses chunk boundaries: the stream decoder and validator
/// give the whole input's answer wherever it is cut.
#[test]
fn streams_carry_the_context_across_chunks() {
    let input = [b"a".as_slice(), PAIR, b"b"].concat();
    let whole: Vec<_> = Wtf8.items(&input).collect();
    for cut in 0..=input.len() {
        assert_eq!(check_split(Wtf8, &input, &[cut]), whole, "cut at {cut}");
        assert_eq!(check_split(Wtf8Branching, &input, &[cut]), whole, "cut at {cut}");
        let mut stream = StreamValidator::new(|context, b: &[u8], _| DynCodec::validate_in(&Wtf8, context, b));
        let pushed = stream.push(&input[..cut]).and_then(|()| stream.push(&input[cut..]));
        let result = pushed.and_then(|()| stream.finish());
        assert_eq!(result, Err(DecodeError::new(4, Some(1))), "cut at {cut}");
    }
}

/// Transcoding into WTF-8 refuses the pair (Perl's extended UTF-8 writes
/// surrogates one by one); out of WTF-8 the pair is a decoding error.
#[test]
fn transcoding_keeps_the_rule() {
    let mut out = Vec::new();
    let mut reader = TranscodeReader::new(PAIR, &PerlUtf8, &Wtf8, ErrorMode::Strict).unwrap();
    let err = reader.read_to_end(&mut out).unwrap_err();
    let err = TranscodeError::from_io(&err).unwrap();
    assert_eq!((err.offset(), err.kind()), (3, &TranscodeErrorKind::ForbiddenAfter { before: 0xD800, value: 0xDC00 }));
    assert_eq!(out, [0xED, 0xA0, 0x80]);
    let mut out = Vec::new();
    TranscodeReader::new(PAIR, &PerlUtf8, &Wtf8, ErrorMode::Replace).unwrap().read_to_end(&mut out).unwrap();
    assert_eq!(out, [0xED, 0xA0, 0x80, 0xEF, 0xBF, 0xBD]);
    let mut out = Vec::new();
    let mut reader = TranscodeReader::new(PAIR, &Wtf8, &PerlUtf8, ErrorMode::Strict).unwrap();
    let err = reader.read_to_end(&mut out).unwrap_err();
    assert_eq!(TranscodeError::from_io(&err).unwrap().offset(), 3);
}

/// No SIMD validator: the analysis shows an input the unit and pair checks
/// would pass — the forbidden pair itself.
#[test]
fn the_rule_is_not_local() {
    let a = placemat_compiler::automaton_of(&Wtf8).unwrap();
    let not = a.local.unwrap_err();
    assert_eq!(not.witness.as_deref(), Some(PAIR));
    assert!(Wtf8::dfa().simd().is_none() && Wtf8::dfa().contexts() == 2);
}
