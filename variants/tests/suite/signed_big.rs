//! Signed values of any size (`value: unbounded` with `sign: zigzag` or
//! `low_bit`, `range: ..`): the `i64` fast path of every strategy against the
//! reference interpreter, and `step_bigint`/`encode_bigint` of the compiled
//! codec, of the codec loaded at run time and of `DynCodec`, against encoders
//! written here from the schemes' definitions (ZigZag: 0, −1, 1, −2, … are 0,
//! 1, 2, 3, …; the low sign bit: twice the magnitude, plus one if negative;
//! then the raw value's 7-bit groups, most significant first, bit 7 set on all
//! but the last), on values from 0 to ±2^200.

use num_bigint::{BigInt, BigUint};
use placemat_codec::io::{ErrorMode, TranscodeErrorKind, Transcoder};
use placemat_codec::{Codec, Decoder, DynCodec, EncodeError, Step, Strategy};
use placemat_compiler::reference::Reference;
use placemat_compiler::LoadedCodec;

use crate::common::{check_agreement, check_round_trip, model_of, strategies};

placemat_macros::codec! {
    /// ZigZag over a VLQ of any size, most significant group first.
    pub ZigzagAny {
        name: "zigzag-any",
        value: unbounded,
        sign: zigzag,
        range: ..,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

placemat_macros::codec! {
    /// The sign in the lowest payload bit, over a VLQ of any size.
    pub LowBitAny {
        name: "low-bit-any",
        value: unbounded,
        sign: low_bit,
        range: ..,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

/// The raw value's 7-bit groups, most significant first.
fn vlq(raw: &BigUint) -> Vec<u8> {
    let mut groups = vec![(raw % 128u32).try_into().unwrap_or(0u8)];
    let mut rest = raw >> 7u32;
    while rest > BigUint::ZERO {
        groups.push(u8::try_from(&rest % 128u32).unwrap() | 0x80);
        rest >>= 7u32;
    }
    groups.reverse();
    groups
}

fn zigzag(v: &BigInt) -> Vec<u8> {
    let twice: BigInt = v * 2;
    let raw = if *v < BigInt::ZERO { -twice - 1 } else { twice };
    vlq(raw.magnitude())
}

fn low_bit(v: &BigInt) -> Vec<u8> {
    vlq(&(v.magnitude() * 2u32 + u32::from(*v < BigInt::ZERO)))
}

/// Values around every power of two up to 2^200, of both signs.
fn values() -> Vec<BigInt> {
    let mut out = Vec::new();
    for bits in (0..=200u32).step_by(7).chain([31, 32, 62, 63, 64, 65]) {
        let p = BigInt::from(1u8) << bits;
        for v in [p.clone() - 1, p.clone(), p + 1] {
            out.extend([v.clone(), -v]);
        }
    }
    out
}

/// Every way to decode and encode `v` agrees with `write`'s bytes: the
/// compiled codec, the loaded one, `DynCodec`, and the reference interpreter;
/// values of the `i64` fast path also through `Decoder::step`.
fn check_values<C: Codec + Default + DynCodec + 'static>(write: fn(&BigInt) -> Vec<u8>) {
    let model = model_of::<C>();
    let signed = model.signed.clone().unwrap();
    let reference = Reference::new(&model);
    let loaded = LoadedCodec::from_text(C::DESCRIPTION).unwrap();
    let loaded: &dyn DynCodec = &loaded;
    let codec = C::default();
    let dynamic: &dyn DynCodec = &codec;
    for v in values() {
        let bytes = write(&v);
        let len = bytes.len();
        let mut out = Vec::new();
        codec.encode_bigint(&v, &mut out).unwrap();
        assert_eq!(out, bytes, "encoding {v}");
        for (name, got) in [
            ("codec", codec.step_bigint(&bytes)),
            ("dyn", dynamic.step_bigint(Strategy::Table, &bytes)),
            ("loaded", loaded.step_bigint(Strategy::Table, &bytes)),
            ("reference", reference.step(&bytes).map(|raw| signed.value(&raw))),
        ] {
            assert_eq!(got, Step::Value { value: v.clone(), len }, "{name} decoding {v}");
        }
        for encoder in [dynamic, loaded] {
            let mut out = Vec::new();
            encoder.encode_bigint(&v, &mut out).unwrap();
            assert_eq!(out, bytes, "{} encoding {v}", encoder.info().name);
        }
        let fast = i64::try_from(&v).ok().filter(|small| signed.raw(&BigInt::from(*small)).unwrap().bits() <= 64);
        match fast {
            Some(small) => {
                assert_eq!(
                    Decoder::step(&codec, &bytes).map(|x| x.to_string()),
                    Step::Value { value: v.to_string(), len }
                );
                check_round_trip::<C>(&strategies::<C>(), &model, small as u64);
            }
            // Past the fast path: the 64-bit view refuses the whole sequence.
            None => assert_eq!(Decoder::step(&codec, &bytes), Step::Invalid { len }, "{v} in the 64-bit view"),
        }
    }
}

#[test]
fn zigzag_values_of_any_size() {
    check_values::<ZigzagAny>(zigzag);
    // -2^63 is the fast path's least value; one less is not.
    assert_eq!(
        Decoder::step(&ZigzagAny, &zigzag(&BigInt::from(i64::MIN))).map(|v: i64| v),
        Step::Value { value: i64::MIN, len: 10 }
    );
}

#[test]
fn low_bit_values_of_any_size() {
    check_values::<LowBitAny>(low_bit);
    // Minus zero (raw 1) is no value.
    assert_eq!(LowBitAny.step_bigint(&[0x01]), Step::Invalid { len: 1 });
    check_agreement::<LowBitAny>(&strategies::<LowBitAny>(), &[0x01, 0x02, 0x81, 0x00]);
}

/// Every input of one and two units through every strategy's fast path.
#[test]
fn short_inputs_agree_with_the_reference() {
    let (zig, low) = (strategies::<ZigzagAny>(), strategies::<LowBitAny>());
    for a in 0..=255u8 {
        for b in (0..=255u8).step_by(5) {
            check_agreement::<ZigzagAny>(&zig, &[a, b]);
            check_agreement::<LowBitAny>(&low, &[a, b]);
        }
    }
}

/// The facts, the language, and values past the fast path through the
/// transcoder, which refuses those the target cannot hold.
#[test]
fn facts_and_transcoding() {
    let info = <ZigzagAny as Codec>::info();
    assert!(info.unbounded && info.sign == Some(placemat_codec::Sign::ZigZag));
    assert_eq!(info.range_text(), "any integer");
    assert_eq!(&LoadedCodec::from_text(ZigzagAny::DESCRIPTION).unwrap().dfa(), <ZigzagAny as Codec>::dfa());
    let big = -(BigInt::from(1u8) << 100u32);
    let mut input = Vec::new();
    for v in [BigInt::from(-5), big.clone(), BigInt::from(7)] {
        input.extend(zigzag(&v));
    }
    let mut t = Transcoder::new(&ZigzagAny, &LowBitAny, ErrorMode::Strict).unwrap();
    let mut out = Vec::new();
    t.push(&input, &mut out).unwrap();
    t.finish(&mut out).unwrap();
    let want: Vec<u8> = [BigInt::from(-5), big.clone(), BigInt::from(7)].iter().flat_map(low_bit).collect();
    assert_eq!(out, want);
    // Into an unsigned codec of any size: -5 is refused, in the fast path,
    // and so is -2^100 past it.
    let to = placemat_variants::codecs::Printable6Big;
    let mut t = Transcoder::new(&ZigzagAny, &to, ErrorMode::Strict).unwrap();
    let err = t.push(&zigzag(&big), &mut Vec::new()).and_then(|()| t.finish(&mut Vec::new())).unwrap_err();
    assert_eq!(err.kind(), &TranscodeErrorKind::UnencodableBig { hex: format!("{big:X}") });
    let shown = format!("-0x1{}, decoded at offset 0, cannot be encoded", "0".repeat(25));
    assert!(err.to_string().starts_with(&shown), "{err}");
    let mut t = Transcoder::new(&ZigzagAny, &to, ErrorMode::Strict).unwrap();
    let err = t.push(&zigzag(&BigInt::from(-5)), &mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), &TranscodeErrorKind::Unencodable { value: -5i64 as u64 });
    let mut out = Vec::new();
    let target: &dyn DynCodec = &to;
    assert_eq!(target.encode_bigint(&big, &mut out), Err(EncodeError::Negative));
    assert!(out.is_empty());
}
