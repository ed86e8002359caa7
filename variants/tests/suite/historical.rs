//! The historical variants (`papers/specs/encodings.md`): the examples there in both
//! directions, exhaustive and boundary round trips, every strategy against the
//! reference interpreter on random and mutated input, streaming, and the
//! self-synchronization contrast between X/Open and Thompson–Pike.

use crate::common::{check_agreement, check_round_trip, check_split, model_of, strategies};
use num_bigint::BigUint;
use placemat_codec::{Codec, Decoder, Encoder, Item, Step, Value};
use placemat_compiler::reference::Reference;
use placemat_variants::codecs::*;
use proptest::prelude::*;

/// `(value, encoding)` pairs from `papers/specs/encodings.md`.
fn examples(name: &str) -> Vec<(u64, Vec<u8>)> {
    let v = |value: u64, units: &[u8]| (value, units.to_vec());
    match name {
        "fss-utf-xopen" => vec![
            v(0x80, &[0x80, 0x80]),
            v(0xE9, &[0x80, 0xE9]),
            v(0x207F, &[0xBF, 0xFF]),
            v(0x2080, &[0xC0, 0x80, 0x80]),
            v(0xFFFF, &[0xC3, 0xBE, 0xFF]),
            v(0x10FFFF, &[0xE0, 0xA3, 0xBE, 0xFF]),
            v(0x7FFF_FFFF, &[0xF7, 0xEF, 0xDF, 0xBE, 0xFF]),
            v(0x50E0, &[0xC0, 0xE0, 0xE0]),
        ],
        "fss-utf-plan9" => vec![
            v(0x20_0000, &[0xF8, 0x88, 0x80, 0x80, 0x80]),
            v(0x400_0000, &[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80]),
            v(0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
            v(0x11_0000, &[0xF4, 0x90, 0x80, 0x80]),
        ],
        "ken-draft" => vec![
            v(0x80, &[0xC2, 0x80]),
            v(0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
            v(0x8000_0000, &[0xFE, 0x80, 0x80, 0x80, 0x80, 0x80]),
            v(0xFFFF_FFFF, &[0xFF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
        ],
        "utf8-ext36" => vec![
            v(0x8000_0000, &[0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80]),
            v(0xF_FFFF_FFFF, &[0xFE, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
        ],
        "utf8-ext42" => vec![
            v(0x8000_0000, &[0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80]),
            v(0xF_FFFF_FFFF, &[0xFE, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
            v(1 << 36, &[0xFF, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]),
            v(0x3FF_FFFF_FFFF, &[0xFF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
        ],
        _ => unreachable!("no examples for {name}"),
    }
}

/// Sequences each codec must reject, with the expected first step.
fn rejections(name: &str) -> Vec<(Vec<u8>, Step<u64>)> {
    let r = |units: &[u8], step: Step<u64>| (units.to_vec(), step);
    let invalid = |len| Step::Invalid { len };
    match name {
        "fss-utf-xopen" => vec![
            r(&[0xF8, 0x80, 0x80, 0x80, 0x80], invalid(1)),
            r(&[0xFF], invalid(1)),
            r(&[0xC0, 0x41, 0x80], invalid(1)),
            r(&[0xF7, 0xEF, 0xDF, 0xBF, 0x80], invalid(3)),
            r(&[0xF7, 0xF0], invalid(1)),
            r(&[0xC0, 0x80], Step::Incomplete),
        ],
        "fss-utf-plan9" => vec![
            r(&[0xFE, 0x80], invalid(1)),
            r(&[0xFF], invalid(1)),
            r(&[0xC0, 0x80], invalid(1)),
            r(&[0xF8, 0x87, 0xBF, 0xBF, 0xBF], invalid(1)),
            r(&[0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF], invalid(1)),
            r(&[0xF8, 0x88, 0x80, 0x80, 0x41], invalid(4)),
        ],
        "ken-draft" => vec![r(&[0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF], invalid(1)), r(&[0xC1, 0xBF], invalid(1))],
        "utf8-ext36" => vec![r(&[0xFE, 0x81, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], invalid(1)), r(&[0xFF, 0x81], invalid(1))],
        "utf8-ext42" => {
            vec![r(&[0xFF, 0x80, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], invalid(1)), r(&[0xFE, 0x81, 0x80], invalid(1))]
        }
        _ => unreachable!(),
    }
}

fn check_spec_vectors<C: Codec + Default + 'static>() {
    let name = C::info().name.to_string();
    let codec = C::default();
    for (value, units) in examples(&name) {
        let mut out = Vec::new();
        codec.encode_push(<C as Encoder>::Value::from_u64(value).unwrap(), &mut out).unwrap();
        assert_eq!(out, units, "{name}: encoding U+{value:X}");
        let want = Step::Value { value, len: units.len() };
        let widen = |s: Step<<C as Encoder>::Value>| s.map(|value| value.to_u64());
        assert_eq!(widen(codec.step(&units)), want, "{name}: table decoding {units:02X?}");
        assert_eq!(widen(C::Branching::default().step(&units)), want, "{name}: branching decoding {units:02X?}");
    }
    let all = strategies::<C>();
    for (units, want) in rejections(&name) {
        for s in all.iter() {
            assert_eq!((s.step)(&units), want, "{name}: {} on {units:02X?}", s.name);
        }
    }
}

fn check_round_trips<C: Codec + Default + 'static>(seed: u64) {
    let codec = C::default();
    let name = C::info().name.to_string();
    // Every value up to 0x10FFFF through the encoder and both decoders.
    let mut buf = [0u8; 16];
    for v in 0..=0x10_FFFFu64 {
        let value = <C as Encoder>::Value::from_u64(v).unwrap();
        let n = codec.encode(value, &mut buf).unwrap_or_else(|e| panic!("{name}: U+{v:X}: {e}"));
        assert_eq!(codec.step(&buf[..n]), Step::Value { value, len: n }, "{name}: U+{v:X}");
        assert_eq!(C::Branching::default().step(&buf[..n]), Step::Value { value, len: n }, "{name}: U+{v:X}");
    }
    // Every form's first and last value, ±1, and a random sample, against the reference.
    let model = model_of::<C>();
    let all = strategies::<C>();
    let max = C::info().max;
    let mut probes = Vec::new();
    for f in model.concrete_forms() {
        for edge in [u64::try_from(&f.lo).unwrap(), u64::try_from(&f.hi).unwrap()] {
            probes.extend([edge.saturating_sub(1), edge, edge.saturating_add(1)]);
        }
    }
    probes.extend([max, max.saturating_add(1), u64::from(u32::MAX), u64::MAX]);
    let mut rng = placemat_compiler::analysis::Rng::new(seed);
    for _ in 0..20_000 {
        let z = rng.next_u64();
        // Spread over every magnitude up to the maximum.
        let bits = 64 - max.leading_zeros();
        probes.push((z >> 8) & ((1u64 << (z % u64::from(bits) + 1)) - 1));
    }
    for v in probes {
        check_round_trip::<C>(&all, &model, v);
    }
}

fn check_random_agreement<C: Codec + Default + 'static>(inputs: &[Vec<u8>]) {
    let all = strategies::<C>();
    for input in inputs {
        check_agreement::<C>(&all, input);
        let whole: Vec<Item<_>> = C::default().items(input).collect();
        let cuts: Vec<usize> = (0..=input.len()).step_by(3).collect();
        assert_eq!(check_split(C::default(), input, &cuts), whole);
        assert_eq!(check_split(C::Branching::default(), input, &[input.len() / 2]), whole);
    }
}

/// Encodings of random values, spliced and mutated.
fn mutated_stream(max: u64) -> impl Strategy<Value = (Vec<u64>, Vec<(usize, u8, u8)>)> {
    (
        prop::collection::vec(prop_oneof![0..0x80u64, 0..0x800u64, 0..0x11_0000u64, 0..=max], 0..12),
        prop::collection::vec((any::<usize>(), any::<u8>(), 0..3u8), 0..3),
    )
}

fn build_input<C: Codec + Default + 'static>(values: &[u64], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let codec = C::default();
    let mut bytes = Vec::new();
    for &v in values {
        if let Some(v) = <C as Encoder>::Value::from_u64(v) {
            let _ = codec.encode_push(v, &mut bytes);
        }
    }
    crate::common::apply_edits(&mut bytes, edits);
    bytes
}

macro_rules! codec_tests {
    ($module:ident, $codec:ty, $seed:expr) => {
        mod $module {
            use super::*;

            #[test]
            fn spec_vectors_both_directions() {
                check_spec_vectors::<$codec>();
            }

            #[test]
            fn round_trips_exhaustive_boundaries_and_random() {
                check_round_trips::<$codec>($seed);
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn strategies_agree_on_mutated_streams((values, edits) in mutated_stream(<$codec as Codec>::info().max)) {
                    let input = build_input::<$codec>(&values, &edits);
                    check_random_agreement::<$codec>(&[input]);
                }

                #[test]
                fn strategies_agree_on_random_bytes(input in prop::collection::vec(prop_oneof![any::<u8>(), 0x80..0xC0u8], 0..24)) {
                    check_random_agreement::<$codec>(&[input]);
                }
            }
        }
    };
}

codec_tests!(fss_utf_xopen, FssUtfXopen, 1);
codec_tests!(fss_utf_plan9, FssUtfPlan9, 2);
codec_tests!(ken_draft, KenDraft, 3);
codec_tests!(utf8_ext36, Utf8Ext36, 4);
codec_tests!(utf8_ext42, Utf8Ext42, 5);

/// How many decoded values differ once the byte at `drop` is removed.
fn damage<D: Decoder<Value = u32>>(decoder: &D, encoded: &[u8], drop: usize, original: &[u32]) -> usize {
    let mut damaged = encoded.to_vec();
    damaged.remove(drop);
    let decoded = decoder.decode_lossy(&damaged);
    // Align from both ends: values equal at the front and at the back are intact.
    let front = original.iter().zip(&decoded).take_while(|(a, b)| a == b).count();
    let back = original.iter().rev().zip(decoded.iter().rev()).take_while(|(a, b)| a == b).count();
    original.len().saturating_sub(front + back)
}

#[test]
fn xopen_is_not_self_synchronizing_but_plan9_is() {
    // C0 E0 E0 is one character: any byte from 80 up continues a sequence.
    assert_eq!(FssUtfXopen.decode(&[0xC0, 0xE0, 0xE0]).unwrap(), [0x50E0]);
    assert_eq!(FssUtfXopenBranching.decode(&[0xC0, 0xE0, 0xE0]).unwrap(), [0x50E0]);

    // A run of Greek and CJK text with no ASCII in it (an ASCII byte is the one
    // thing that resynchronizes an X/Open decoder), encoded by both.
    let text: Vec<u32> = "αβγδε世界和平ζηθ日本語のテキストκλμ".chars().map(|c| c as u32).cycle().take(400).collect();
    let mut xopen = Vec::new();
    let mut plan9 = Vec::new();
    FssUtfXopen.encode_all(&text, &mut xopen).unwrap();
    FssUtfPlan9.encode_all(&text, &mut plan9).unwrap();

    // Dropping one byte of the X/Open stream corrupts many values: continuation
    // units look like lead units, so the decoder reads on across character
    // boundaries until it happens to fall back into step.
    let spread: Vec<usize> = (0..xopen.len()).map(|i| damage(&FssUtfXopen, &xopen, i, &text)).collect();
    let worst_xopen = *spread.iter().max().unwrap();
    assert!(worst_xopen >= 10, "X/Open damage was only {worst_xopen} values");

    // In Thompson–Pike's design the damage stays inside one sequence: at most the
    // damaged character is replaced (a truncated sequence yields one U+FFFD).
    for drop in 0..plan9.len() {
        let d = damage(&FssUtfPlan9, &plan9, drop, &text);
        assert!(d <= 1, "dropping byte {drop} damaged {d} values");
    }
}

#[test]
fn reference_agrees_on_the_largest_values() {
    for (model, max) in [(model_of::<KenDraft>(), 0xFFFF_FFFFu64), (model_of::<Utf8Ext42>(), 0x3FF_FFFF_FFFF)] {
        let r = Reference::new(&model);
        let units = r.encode(&BigUint::from(max)).unwrap();
        assert_eq!(r.step(&units), Step::Value { value: BigUint::from(max), len: units.len() });
        assert!(r.encode(&(BigUint::from(max) + 1u32)).is_none());
    }
}
