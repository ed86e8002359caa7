//! `mutf8` (Java's modified UTF-8) with lone surrogates: the one codec whose
//! forms overlap by design (`overlap: longest`). `ED A0 80` is U+D800 on its
//! own and the first half of a pair; only the units after it (or the end of
//! the input) say which, so every strategy reads the longest match, the
//! stream adapters hold a lone high surrogate back until the next chunk
//! shows whether its low half follows, and the encoder refuses a high
//! surrogate value directly followed by a low one (which would read back as
//! the pair).
//!
//! Sources: `java.io.DataInput` ("Modified UTF-8": a supplementary character
//! is written as its two UTF-16 surrogates, each in the three-byte format;
//! every `char`, a lone surrogate among them, is written on its own, so
//! `writeUTF("\uD800")` writes `ED A0 80`), and the JNI specification
//! ("Modified UTF-8 Strings"). U+1F600 as `ED A0 BD ED B8 80` is the JNI
//! form of that emoji; the rest are the three-byte format's arithmetic.

use std::io::Read;

use placemat_codec::io::{ErrorMode, TranscodeReader};
use placemat_codec::{Codec, DecodeError, Decoder, DynCodec, EncodeError, Encoder, Item, StreamValidator};
use placemat_variants::codecs::{Mutf8, Mutf8Branching, Wtf8};

use crate::common::{check_agreement, check_split, strategies};
use crate::real_world::{check_exhaustive, check_invalid, check_vectors};

const VECTORS: &[(u64, &[u8])] = &[
    (0x0000, &[0xC0, 0x80]),
    (0x0041, &[0x41]),
    (0x07FF, &[0xDF, 0xBF]),
    (0xD7FF, &[0xED, 0x9F, 0xBF]),
    // Lone surrogates, each on its own.
    (0xD800, &[0xED, 0xA0, 0x80]),
    (0xDBFF, &[0xED, 0xAF, 0xBF]),
    (0xDC00, &[0xED, 0xB0, 0x80]),
    (0xDFFF, &[0xED, 0xBF, 0xBF]),
    (0xFFFF, &[0xEF, 0xBF, 0xBF]),
    // Supplementary values: the pair.
    (0x10000, &[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]),
    (0x1F600, &[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]),
    (0x10FFFF, &[0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF]),
];

const HIGH: &[u8] = &[0xED, 0xA0, 0x80];
const LOW: &[u8] = &[0xED, 0xB0, 0x80];

/// Inputs of several values, with the values every decoder reads.
const SEQUENCES: &[(&[u8], &[u32])] = &[
    (&[0xED, 0xA0, 0x80, 0x41], &[0xD800, 0x41]),
    (&[0xED, 0xA0, 0x80, 0xED, 0xA0, 0x80], &[0xD800, 0xD800]),
    (&[0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80], &[0xDC00, 0xD800]),
    (&[0xED, 0xA0, 0x80, 0xED, 0x9F, 0xBF], &[0xD800, 0xD7FF]),
    (&[0xED, 0xA0, 0x80, 0xC0, 0x80], &[0xD800, 0]),
    (&[0xED, 0xA0, 0x80, 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80], &[0xD800, 0x10000]),
    (&[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80, 0xED, 0xB0, 0x80], &[0x10000, 0xDC00]),
    (&[0x41, 0xED, 0xAF, 0xBF], &[0x41, 0xDBFF]),
];

#[test]
fn vectors_and_the_longest_match() {
    check_vectors::<Mutf8>(VECTORS);
    for &(input, values) in SEQUENCES {
        assert_eq!(Mutf8.decode(input).unwrap(), values, "{input:02X?}");
        assert_eq!(Mutf8Branching.decode(input).unwrap(), values, "{input:02X?}");
        assert!(Decoder::validate(&Mutf8, input).is_ok() && Mutf8Branching.validate(input).is_ok(), "{input:02X?}");
        check_agreement::<Mutf8>(&strategies::<Mutf8>(), input);
    }
    check_invalid::<Mutf8>(&[
        // After a lone high surrogate, a low one cannot start (the pair would
        // have been read): `ED` then `B0` is the error, at the second value.
        (&[0xED, 0xA0, 0x80, 0xED, 0xB0], 3, Some(1)),
        (&[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x41], 3, Some(1)),
        // `ED` alone after a high surrogate is still open.
        (&[0xED, 0xA0, 0x80, 0xED], 3, None),
        (&[0xED, 0xA0], 0, None),
        // UTF-8's four-byte form, the zero byte, C0 other than `C0 80`.
        (&[0xF0, 0x90, 0x80, 0x80], 0, Some(1)),
        (&[0x41, 0x00], 1, Some(1)),
        (&[0xC0, 0x81], 0, Some(1)),
    ]);
    check_exhaustive::<Mutf8>();
}

/// Every pair of three-byte `ED` sequences, cut short or followed by text,
/// agrees with the reference interpreter's longest match through every
/// strategy.
#[test]
fn every_pair_of_ed_sequences_agrees_with_the_reference() {
    let strategies = strategies::<Mutf8>();
    for a in (0x80..=0xBF).step_by(3) {
        for b in (0x80..=0xBF).step_by(5) {
            let input = [0xED, a, 0x80, 0xED, b, 0xBF];
            for end in [4, 5, 6] {
                check_agreement::<Mutf8>(&strategies, &input[..end]);
            }
            check_agreement::<Mutf8>(&strategies, &[b"x".as_slice(), &input, b"y"].concat());
        }
    }
}

/// Long inputs: the two-walk decoder and the shift validator stop at a lone
/// high surrogate (their tables follow the pair only), and the step function
/// takes it and hands the rest back to them. They agree with the items,
/// wherever the surrogates fall, and many lone surrogates in a row cost no
/// more than reading them.
#[test]
fn long_inputs_with_lone_surrogates_anywhere() {
    let text = "modified \u{1F600} text, ünïcödé ".repeat(400);
    let mut base = Vec::new();
    Mutf8.encode_all(&text.chars().map(u32::from).collect::<Vec<_>>(), &mut base).unwrap();
    let mut rng = placemat_variants::corpus::Rng::new(15);
    for round in 0..60 {
        let mut input = base.clone();
        for _ in 0..=round % 5 {
            let at = rng.below(input.len());
            // At a sequence start, so that the text stays valid.
            let at = (0..=at).rev().find(|&k| input[k] < 0x80).unwrap_or(0);
            let lone = if rng.one_in(2) { HIGH } else { LOW };
            input.splice(at..at, lone.iter().copied());
        }
        let want: Vec<u32> = Mutf8.items(&input).map(|i| i.value.unwrap()).collect();
        assert_eq!(Mutf8.decode(&input).unwrap(), want, "round {round}");
        assert_eq!(Mutf8Branching.decode(&input).unwrap(), want, "round {round}");
        assert_eq!(Mutf8::dfa().validate_scalar(&input), Ok(()), "round {round}");
        assert_eq!(Mutf8::dfa().validate_by_table(&input), Ok(()), "round {round}");
        // A low surrogate right after a lone high one is an error there.
        let at = input.len() / 2;
        let at = (0..=at).rev().find(|&k| input[k] < 0x80).unwrap();
        let bad = [&input[..at], HIGH, &LOW[..2], &input[at..]].concat();
        let err = DecodeError::new(at + 3, Some(1));
        assert_eq!(
            (Decoder::validate(&Mutf8, &bad), Mutf8.decode(&bad).unwrap_err()),
            (Err(err), err),
            "round {round}"
        );
        assert_eq!(Mutf8Branching.decode(&bad).unwrap_err(), err, "round {round}");
    }
    let lone_highs = HIGH.repeat(5000);
    assert_eq!(Mutf8.decode(&lone_highs).unwrap(), vec![0xD800; 5000]);
    assert_eq!(Mutf8Branching.decode(&lone_highs).unwrap(), vec![0xD800; 5000]);
}

/// Runs of `01`-`7F` are copied 16 units at a time by the table walkers and
/// the branching decoder; a `00` anywhere in one (or in the tail after it) is
/// still the error at its own offset, in every strategy.
#[test]
fn a_zero_byte_anywhere_in_a_long_ascii_run_is_an_error_there() {
    let text: Vec<u8> = b"plain ascii text, long enough for several blocks: ".repeat(2);
    let inputs: Vec<Vec<u8>> = (0..text.len())
        .map(|at| {
            let mut bad = text.clone();
            bad[at] = 0;
            bad
        })
        .collect();
    let cases: Vec<(&[u8], usize, Option<usize>)> =
        inputs.iter().enumerate().map(|(at, bad)| (&bad[..], at, Some(1))).collect();
    check_invalid::<Mutf8>(&cases);
    for (at, bad) in inputs.iter().enumerate() {
        let err = DecodeError::new(at, Some(1));
        assert_eq!((Mutf8Branching.validate(bad), Mutf8Branching.decode(bad).unwrap_err()), (Err(err), err));
    }
}

#[test]
fn the_encoder_refuses_a_high_surrogate_then_a_low_one() {
    let mut out = Vec::new();
    let err = Mutf8.encode_all(&[0x41, 0xD800, 0xDC00], &mut out).unwrap_err();
    assert_eq!(err, (2, EncodeError::ForbiddenAfter { before: 0xD800, value: 0xDC00 }));
    assert_eq!(out, [0x41, 0xED, 0xA0, 0x80]);
    out.clear();
    Mutf8.encode_all(&[0xDC00, 0xD800, 0, 0x10000], &mut out).unwrap();
    assert_eq!(out, [LOW, HIGH, &[0xC0, 0x80], HIGH, LOW].concat());
    assert_eq!(Mutf8.decode(&out).unwrap(), [0xDC00, 0xD800, 0, 0x10000]);
}

/// A lone high surrogate at a chunk's end is held back: the next chunk may
/// start its low half. Every cut gives the whole input's items, from the
/// stream decoder, the stream validator and the transcoder.
#[test]
fn streams_hold_a_high_surrogate_back() {
    let input = [HIGH, LOW, HIGH, b"a", HIGH, HIGH, LOW, LOW, HIGH].concat();
    let whole: Vec<Item<u32>> = Mutf8.items(&input).collect();
    let values: Vec<u32> = whole.iter().map(|i| i.value.unwrap()).collect();
    assert_eq!(values, [0x10000, 0xD800, 0x61, 0xD800, 0x10000, 0xDC00, 0xD800]);
    let mut wtf8 = Vec::new();
    Wtf8.encode_all(&values, &mut wtf8).unwrap();
    for cut in 0..=input.len() {
        for second in cut..=input.len() {
            assert_eq!(check_split(Mutf8, &input, &[cut, second]), whole, "cuts at {cut}, {second}");
        }
        assert_eq!(check_split(Mutf8Branching, &input, &[cut]), whole, "cut at {cut}");
        let mut stream = StreamValidator::new(|context, b: &[u8], open| match open {
            true => DynCodec::validate_open(&Mutf8, context, b),
            false => DynCodec::validate_in(&Mutf8, context, b),
        });
        let pushed = stream.push(&input[..cut]).and_then(|()| stream.push(&input[cut..]));
        assert_eq!(pushed.and_then(|()| stream.finish()), Ok(()), "cut at {cut}");
        // Into WTF-8, which writes every surrogate on its own, in any chunks.
        let mut out = Vec::new();
        let chunks = ChunkedReader { data: &input, cut, at: 0 };
        TranscodeReader::new(chunks, &Mutf8, &Wtf8, ErrorMode::Strict).unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, wtf8, "cut at {cut}");
    }
}

/// A reader that hands its data over in two reads, split at `cut`.
struct ChunkedReader<'a> {
    data: &'a [u8],
    cut: usize,
    at: usize,
}

impl Read for ChunkedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = if self.at < self.cut { self.cut } else { self.data.len() };
        let n = buf.len().min(end - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// No SIMD validator: validity depends on what follows a lone high
/// surrogate, and the analysis names the shortest such sequence.
#[test]
fn longest_match_is_not_local() {
    let a = placemat_compiler::automaton_of(&Mutf8).unwrap();
    let not = a.local.unwrap_err();
    assert_eq!((not.short.as_str(), not.witness.as_deref()), ("longest match", Some(HIGH)));
    assert!(Mutf8::dfa().simd().is_none() && Mutf8::dfa().has_pending());
    // The three states on the pair's way after a lone high surrogate hold
    // its value (bias 0xD800), 0, 1 and 2 units back.
    let backs: Vec<u32> = a.pending.iter().flatten().map(|p| p.back).collect();
    assert_eq!(backs, [0, 1, 2]);
    assert!(a.pending.iter().flatten().all(|p| p.bias == 0xD800 && p.to == 1));
}
