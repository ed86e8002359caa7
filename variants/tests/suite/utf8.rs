//! Strict UTF-8: every strategy against `std` (exhaustively where the space
//! allows), against the reference interpreter, lossy against
//! `String::from_utf8_lossy`, and streaming split invariance.

use crate::common::{check_agreement, check_round_trip, check_split, model_of, strategies};
use placemat_codec::{Decoder, Encoder, Item, ItemError, Step};
use placemat_variants::codecs::{Utf8, Utf8Branching};
use proptest::prelude::*;

/// What `std` says about the first sequence of `input`.
fn std_step(input: &[u8]) -> Step<u32> {
    let valid = match std::str::from_utf8(input) {
        Ok(s) => s,
        Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&input[..e.valid_up_to()]).unwrap(),
        Err(e) => {
            return match e.error_len() {
                Some(n) => Step::Invalid { len: n },
                None => Step::Incomplete,
            }
        }
    };
    match valid.chars().next() {
        Some(c) => Step::Value { value: c as u32, len: c.len_utf8() },
        None => Step::Incomplete,
    }
}

fn assert_like_std(input: &[u8]) {
    let want = std_step(input);
    assert_eq!(Utf8.step(input), want, "table on {input:02X?}");
    assert_eq!(Utf8Branching.step(input), want, "branching on {input:02X?}");
    let ours = Utf8.validate(input);
    match std::str::from_utf8(input) {
        Ok(_) => assert!(ours.is_ok(), "{input:02X?}"),
        Err(e) => {
            let ours = ours.unwrap_err();
            assert_eq!((ours.valid_up_to(), ours.error_len()), (e.valid_up_to(), e.error_len()), "{input:02X?}");
        }
    }
}

#[test]
fn every_scalar_value_round_trips() {
    let mut buf = [0u8; 4];
    for v in 0..=0x10FFFFu32 {
        let mut out = [0u8; 4];
        let got = Utf8.encode(v, &mut out);
        match char::from_u32(v) {
            Some(c) => {
                let want = c.encode_utf8(&mut buf).as_bytes();
                assert_eq!(got, Ok(want.len()), "U+{v:X}");
                assert_eq!(&out[..want.len()], want);
                assert_eq!(Utf8.step(want), Step::Value { value: v, len: want.len() });
                assert_eq!(Utf8Branching.step(want), Step::Value { value: v, len: want.len() });
            }
            None => assert!(got.is_err(), "surrogate U+{v:X} must not encode"),
        }
    }
    for v in [0x110000, 0x7FFF_FFFF, u32::MAX] {
        assert!(Utf8.encode(v, &mut buf).is_err());
    }
}

#[test]
fn encoder_reports_short_buffers() {
    let mut small = [0u8; 2];
    assert_eq!(Utf8.encode(0x4E16, &mut small), Err(placemat_codec::EncodeError::BufferTooSmall { needed: 3 }));
    assert_eq!(Utf8.max_units(), 4);
    assert_eq!(Utf8.max_encoded_len(10), 40);
}

#[test]
fn every_sequence_of_one_two_and_three_bytes_matches_std() {
    for a in 0..=255u8 {
        assert_like_std(&[a]);
        for b in 0..=255u8 {
            assert_like_std(&[a, b]);
            for c in 0..=255u8 {
                assert_like_std(&[a, b, c]);
            }
        }
    }
}

#[test]
fn every_four_byte_sequence_from_f0_to_f4_matches_std() {
    for a in 0xF0..=0xF4u8 {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                for d in 0..=255u8 {
                    let s = [a, b, c, d];
                    let want = std_step(&s);
                    assert_eq!(Utf8.step(&s), want, "{s:02X?}");
                    assert_eq!(Utf8Branching.step(&s), want, "{s:02X?}");
                }
            }
        }
    }
}

/// The five lossy vectors of `papers/specs/encodings.md#utf8`, input → lossy output.
const LOSSY_VECTORS: &[(&[u8], &[u32])] = &[
    (
        &[0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64],
        &[0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD, 0x63, 0xFFFD, 0xFFFD, 0x64],
    ),
    (
        &[0xC0, 0xAF, 0xE0, 0x80, 0xBF, 0xF0, 0x81, 0x82, 0x41],
        &[0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0x41],
    ),
    (
        &[0xED, 0xA0, 0x80, 0xED, 0xBF, 0xBF, 0xED, 0xAF, 0x41],
        &[0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0x41],
    ),
    (
        &[0xF4, 0x91, 0x92, 0x93, 0xFF, 0x41, 0x80, 0xBF, 0x42],
        &[0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0x41, 0xFFFD, 0xFFFD, 0x42],
    ),
    (&[0xE1, 0x80, 0xE2, 0xF0, 0x91, 0x92, 0xF1, 0xBF, 0x41], &[0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0x41]),
];

fn std_lossy(input: &[u8]) -> Vec<u32> {
    String::from_utf8_lossy(input).chars().map(|c| c as u32).collect()
}

#[test]
fn lossy_vectors_of_the_spec() {
    for &(input, want) in LOSSY_VECTORS {
        assert_eq!(Utf8.decode_lossy(input), want, "{input:02X?}");
        assert_eq!(Utf8Branching.decode_lossy(input), want, "{input:02X?}");
        assert_eq!(std_lossy(input), want, "std disagrees with the spec on {input:02X?}");
    }
}

#[test]
fn vectors_behind_ascii_prefixes_and_at_block_boundaries() {
    let strategies = strategies::<Utf8>();
    let mut inputs: Vec<Vec<u8>> = LOSSY_VECTORS.iter().map(|(i, _)| i.to_vec()).collect();
    inputs.extend([b"\xF0\x9F\x98\x80".to_vec(), b"\xE4\xB8".to_vec(), b"\xCE\xB1\xCE".to_vec()]);
    for input in &inputs {
        // Shifted behind 0..32 ASCII bytes, and placed so the error straddles the
        // validator's 8-unit ASCII stride and its 64-unit block.
        for shift in (0..32).chain(56..72) {
            let mut s = vec![b'a'; shift];
            s.extend_from_slice(input);
            assert_like_std(&s);
            assert_eq!(Utf8.decode_lossy(&s), std_lossy(&s));
            check_agreement::<Utf8>(&strategies, &s);
        }
    }
}

#[test]
fn strategies_agree_with_the_reference_on_boundaries() {
    let strategies = strategies::<Utf8>();
    let model = model_of::<Utf8>();
    let edges: [u64; 13] =
        [0x0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF, 0x110000];
    for e in edges {
        for v in e.saturating_sub(2)..=e + 2 {
            check_round_trip::<Utf8>(&strategies, &model, v);
        }
    }
    for v in (0..=0x11_0000u64).step_by(251) {
        check_round_trip::<Utf8>(&strategies, &model, v);
    }
}

#[test]
fn streaming_every_split_gives_the_whole() {
    let mut inputs: Vec<Vec<u8>> = LOSSY_VECTORS.iter().map(|(i, _)| i.to_vec()).collect();
    inputs.push("aα世😀 — ok".as_bytes().to_vec());
    inputs.push(b"\xF0\x9F\x98".to_vec());
    for input in &inputs {
        let whole: Vec<Item<u32>> = Utf8.items(input).collect();
        for a in 0..=input.len() {
            for b in a..=input.len() {
                assert_eq!(check_split(Utf8, input, &[a, b]), whole, "{input:02X?} cut at {a}, {b}");
            }
        }
        assert_eq!(check_split(Utf8Branching, input, &(1..input.len()).collect::<Vec<_>>()), whole);
    }
    // A truncated tail is one incomplete item.
    let items = check_split(Utf8, b"a\xE4\xB8", &[2]);
    assert_eq!(items[1], Item { span: 1..3, value: Err(ItemError::Incomplete) });
}

fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (any::<String>(), prop::collection::vec((any::<usize>(), any::<u8>(), 0..3u8), 0..4)).prop_map(|(s, edits)| {
        let mut bytes = s.into_bytes();
        crate::common::apply_edits(&mut bytes, &edits);
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_match_std(input in prop::collection::vec(any::<u8>(), 0..64)) {
        assert_like_std(&input);
        prop_assert_eq!(Utf8.decode_lossy(&input), std_lossy(&input));
    }

    #[test]
    fn mutated_text_matches_std_and_the_reference(input in mutated()) {
        assert_like_std(&input);
        prop_assert_eq!(Utf8.decode_lossy(&input), std_lossy(&input));
        prop_assert_eq!(Utf8Branching.decode_lossy(&input), std_lossy(&input));
        check_agreement::<Utf8>(&strategies::<Utf8>(), &input);
    }

    #[test]
    fn valid_text_decodes_like_chars(s in any::<String>()) {
        let want: Vec<u32> = s.chars().map(|c| c as u32).collect();
        prop_assert_eq!(Utf8.decode(s.as_bytes()).unwrap(), want.clone());
        prop_assert_eq!(Utf8Branching.decode(s.as_bytes()).unwrap(), want.clone());
        let mut out = Vec::new();
        Utf8.encode_all(&want, &mut out).unwrap();
        prop_assert_eq!(out, s.into_bytes());
    }
}
