//! UTF-16 and UTF-32 in both byte orders against their specifications' vectors,
//! against std (`char::encode_utf16`, `String::from_utf16`, `from_utf16_lossy`),
//! and against the WHATWG Encoding Standard's UTF-16 decoder on bad input: one
//! U+FFFD per unpaired surrogate unit and one for an odd trailing byte.
//!
//! Sources: RFC 2781 §2.1 (U+10000 → `D800 DC00`, U+12345 → `D808 DF45`) and
//! §3 (byte order); the Unicode Standard, chapter 3 (D90–D92, and §3.9's
//! example <U+004D, U+0430, U+4E8C, U+10302> in UTF-32 `0000004D 00000430
//! 00004E8C 00010302` and UTF-16 `004D 0430 4E8C D800 DF02`); the WHATWG
//! Encoding Standard, §14.2.1 "shared UTF-16 decoder".

use placemat_codec::{Codec, Decoder, Encoder, Value};
use placemat_variants::codecs::{Utf16Be, Utf16Le, Utf32Be, Utf32Le};
use placemat_variants::corpus;

use crate::common::{check_agreement, check_round_trip, model_of, strategies};

/// 16-bit code units as little- or big-endian bytes.
fn bytes16(units: &[u16], little: bool) -> Vec<u8> {
    units.iter().flat_map(|u| if little { u.to_le_bytes() } else { u.to_be_bytes() }).collect()
}

fn bytes32(units: &[u32], little: bool) -> Vec<u8> {
    units.iter().flat_map(|u| if little { u.to_le_bytes() } else { u.to_be_bytes() }).collect()
}

const EXAMPLE: [u32; 4] = [0x4D, 0x430, 0x4E8C, 0x10302];

#[test]
fn the_standards_examples() {
    let utf16 = [0x004D, 0x0430, 0x4E8C, 0xD800, 0xDF02];
    let utf32 = [0x4D, 0x430, 0x4E8C, 0x10302];
    for (little, encoded16, encoded32) in
        [(true, bytes16(&utf16, true), bytes32(&utf32, true)), (false, bytes16(&utf16, false), bytes32(&utf32, false))]
    {
        let mut out16 = Vec::new();
        let mut out32 = Vec::new();
        for v in EXAMPLE {
            if little {
                Utf16Le.encode_push(v, &mut out16).unwrap();
                Utf32Le.encode_push(v, &mut out32).unwrap();
            } else {
                Utf16Be.encode_push(v, &mut out16).unwrap();
                Utf32Be.encode_push(v, &mut out32).unwrap();
            }
        }
        assert_eq!(out16, encoded16, "little: {little}");
        assert_eq!(out32, encoded32, "little: {little}");
    }
    assert_eq!(Utf16Be.decode(&[0xD8, 0x00, 0xDC, 0x00, 0xD8, 0x08, 0xDF, 0x45]).unwrap(), [0x10000, 0x12345]);
    assert_eq!(Utf16Le.decode(&[0x00, 0xD8, 0x00, 0xDC, 0x08, 0xD8, 0x45, 0xDF]).unwrap(), [0x10000, 0x12345]);
}

/// Every scalar value (a sample of them) encodes as std encodes it, and every
/// strategy decodes it back; so do the values around each form's ends.
fn check_against_std<C: Codec + Default + 'static>(little: bool, wide: bool) {
    let (strategies, model) = (strategies::<C>(), model_of::<C>());
    let values = (0..=0x10_FFFFu32).step_by(97).chain([0, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10_FFFF]);
    for v in values.filter_map(char::from_u32) {
        let want = if wide { bytes32(&[u32::from(v)], little) } else { bytes16(v.encode_utf16(&mut [0; 2]), little) };
        let mut out = Vec::new();
        C::default().encode_push(<C as Encoder>::Value::from_u64(u64::from(u32::from(v))).unwrap(), &mut out).unwrap();
        assert_eq!(out, want, "{} U+{:04X}", C::info().name, u32::from(v));
        check_round_trip::<C>(&strategies, &model, u64::from(u32::from(v)));
    }
    for surrogate in [0xD800u64, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000] {
        assert!(C::default()
            .encode_push(<C as Encoder>::Value::from_u64(surrogate).unwrap(), &mut Vec::new())
            .is_err());
    }
}

#[test]
fn utf16_and_utf32_encode_like_std() {
    check_against_std::<Utf16Le>(true, false);
    check_against_std::<Utf16Be>(false, false);
    check_against_std::<Utf32Le>(true, true);
    check_against_std::<Utf32Be>(false, true);
}

/// Random 16-bit units (surrogates frequent): strict decoding fails exactly
/// where `String::from_utf16` fails, at the bad unit's byte offset, and lossy
/// decoding gives `from_utf16_lossy`'s text (WHATWG's behaviour), plus one
/// U+FFFD for an odd trailing byte.
#[test]
fn bad_utf16_is_reported_like_std_and_whatwg() {
    let mut rng = corpus::Rng::new(16);
    for round in 0..3000 {
        let len = rng.range(0, 12);
        let units: Vec<u16> = (0..len)
            .map(|_| match rng.range(0, 5) {
                0 => rng.range(0xD800, 0xDBFF) as u16,
                1 => rng.range(0xDC00, 0xDFFF) as u16,
                _ => rng.range(0, 0xFFFF) as u16,
            })
            .collect();
        let odd = round % 5 == 0;
        for little in [true, false] {
            let mut bytes = bytes16(&units, little);
            if odd {
                bytes.push(0x41);
            }
            let (strict, lossy) = if little {
                (Utf16Le.decode(&bytes), Utf16Le.decode_lossy(&bytes))
            } else {
                (Utf16Be.decode(&bytes), Utf16Be.decode_lossy(&bytes))
            };
            let mut want: Vec<u32> = String::from_utf16_lossy(&units).chars().map(u32::from).collect();
            // An odd trailing byte is one more U+FFFD, unless it follows a high
            // surrogate left unpaired, whose error it joins (WHATWG: one error at
            // the end for the lead surrogate and the lead byte together).
            let dangling = units.last().is_some_and(|u| (0xD800..0xDC00).contains(u));
            if odd && !dangling {
                want.push(0xFFFD);
            }
            assert_eq!(lossy, want, "{units:04X?} odd {odd} little {little}");
            match (String::from_utf16(&units), odd) {
                (Ok(s), false) => assert_eq!(strict.unwrap(), s.chars().map(u32::from).collect::<Vec<_>>()),
                (Ok(_), true) => {
                    let e = strict.unwrap_err();
                    assert_eq!((e.valid_up_to(), e.error_len()), (2 * units.len(), None), "{units:04X?}");
                }
                (Err(_), _) => {
                    let e = strict.unwrap_err();
                    // The first unit std cannot pair: the error's offset, two bytes long
                    // (or the end, for a high surrogate left unpaired at the end).
                    let good = char::decode_utf16(units.iter().copied())
                        .take_while(Result::is_ok)
                        .map(|c| c.unwrap().len_utf16())
                        .sum::<usize>();
                    assert_eq!(e.valid_up_to(), 2 * good, "{units:04X?} little {little}");
                    let at_end = good + 1 == units.len() && (0xD800..0xDC00).contains(&units[good]);
                    let want_len = if at_end { None } else { Some(2) };
                    assert_eq!(e.error_len(), want_len, "{units:04X?} odd {odd} little {little}");
                }
            }
        }
    }
}

#[test]
fn every_strategy_agrees_on_short_inputs() {
    let (le, be) = (strategies::<Utf16Le>(), strategies::<Utf16Be>());
    let (le32, be32) = (strategies::<Utf32Le>(), strategies::<Utf32Be>());
    let interesting = [0x00u8, 0x41, 0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xFF, 0x10, 0x11];
    for &a in &interesting {
        for &b in &interesting {
            for &c in &interesting {
                for &d in &interesting {
                    let input = [a, b, c, d, 0x41, 0x00];
                    check_agreement::<Utf16Le>(&le, &input);
                    check_agreement::<Utf16Be>(&be, &input);
                    check_agreement::<Utf32Le>(&le32, &input);
                    check_agreement::<Utf32Be>(&be32, &input);
                }
            }
        }
    }
}

/// Long text whose code units are values of themselves (the table walkers
/// copy runs of them a unit at a time: `WideRuns`, checked 32 bytes at a
/// time, then unit by unit), broken at every offset of the first blocks by a
/// lone high or low surrogate, a pair, an out-of-range UTF-32 unit or an odd
/// trailing byte: every strategy agrees with the reference interpreter.
#[test]
fn runs_of_wide_units_break_exactly_where_the_text_does() {
    let (le, be) = (strategies::<Utf16Le>(), strategies::<Utf16Be>());
    let (le32, be32) = (strategies::<Utf32Le>(), strategies::<Utf32Be>());
    let text: Vec<u32> = "Ünïcödé 日本語 текст ".chars().cycle().take(120).map(u32::from).collect();
    let breaks16: [&[u16]; 4] = [&[0xD800, 0x41], &[0xDFFF], &[0xD83D, 0xDE00], &[0xDBFF]];
    let breaks32: [&[u32]; 3] = [&[0xD800], &[0x110000], &[0x1F600, 0xFFFF_FFFF]];
    for at in 0..40 {
        for insert in breaks16 {
            let mut units: Vec<u16> = text.iter().map(|&c| c as u16).collect();
            units.splice(at..at, insert.iter().copied());
            let (le_bytes, be_bytes) = (bytes16(&units, true), bytes16(&units, false));
            for cut in [0, 1] {
                check_agreement::<Utf16Le>(&le, &le_bytes[..le_bytes.len() - cut]);
                check_agreement::<Utf16Be>(&be, &be_bytes[..be_bytes.len() - cut]);
            }
        }
        for insert in breaks32 {
            let mut units = text.clone();
            units.splice(at..at, insert.iter().copied());
            let (le_bytes, be_bytes) = (bytes32(&units, true), bytes32(&units, false));
            for cut in [0, 3] {
                check_agreement::<Utf32Le>(&le32, &le_bytes[..le_bytes.len() - cut]);
                check_agreement::<Utf32Be>(&be32, &be_bytes[..be_bytes.len() - cut]);
            }
        }
    }
}
