//! Padding without a limit (`padding: unlimited`) through every strategy
//! (codec, table, branching, run-time tables with and without minimization,
//! the reference interpreter), the encoder, the streaming decoder and the
//! transcoder: LEB128 as LLVM's reader takes it (any number of zero groups
//! past the value's bits, groups least significant first) and a VLQ read most
//! significant group first with any number of leading zero groups.
//!
//! The padded spellings are written here from the formats' definitions: a
//! value's shortest LEB128 with its last group's bit 7 set and then zero
//! groups (`0x80`, a final `0x00`); a VLQ's leading `0x80` units.

use placemat_codec::io::{ErrorMode, TranscodeErrorKind, Transcoder};
use placemat_codec::{Codec, Decoder, DynCodec, Encoder, Step};
use placemat_compiler::LoadedCodec;

use crate::common::{check_agreement, check_round_trip, check_split, model_of, strategies};
use crate::real_world::{check_exhaustive, check_invalid, check_padded};

placemat_macros::codec! {
    /// LEB128 read as LLVM reads it: any number of zero groups past the value.
    pub LebAny {
        name: "leb128-any",
        value: u64,
        range: 0 ..= 0xFFFFFFFFFFFFFFFF,
        layout: padded,
        padding: unlimited,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

placemat_macros::codec! {
    /// A 32-bit VLQ, most significant group first, with any number of
    /// leading zero groups.
    pub VlqAny {
        name: "vlq-any",
        value: u32,
        range: 0 ..= 0xFFFFFFFF,
        layout: padded,
        padding: unlimited,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

/// The encoding of `values` by `codec`.
fn encoded<E: Encoder>(codec: &E, values: &[E::Value]) -> Vec<u8> {
    let mut out = Vec::new();
    codec.encode_all(values, &mut out).unwrap();
    out
}

/// `v`'s shortest LEB128, then `extra` zero groups.
fn leb128_padded(mut v: u64, extra: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    if extra > 0 {
        *out.last_mut().unwrap() |= 0x80;
        out.extend(std::iter::repeat_n(0x80, extra - 1));
        out.push(0x00);
    }
    out
}

/// `extra` leading zero groups, then `v`'s shortest VLQ.
fn vlq_padded(v: u32, extra: usize) -> Vec<u8> {
    let mut groups = vec![v as u8 & 0x7F];
    let mut rest = v >> 7;
    while rest > 0 {
        groups.push(rest as u8 & 0x7F | 0x80);
        rest >>= 7;
    }
    let mut out = vec![0x80; extra];
    out.extend(groups.iter().rev());
    out
}

const VALUES: [u64; 9] = [0, 1, 0x7F, 0x80, 300, 0xFFFF_FFFF, 1 << 35, (1 << 63) - 1, u64::MAX];
// 130 zero groups: past two 64-unit blocks of the flagged kernel (a longer
// padding, cut anywhere, is the streaming test's below).
const EXTRA: [usize; 7] = [0, 1, 2, 9, 10, 31, 130];

#[test]
fn leb128_reads_any_number_of_zero_groups() {
    let mut cases = Vec::new();
    for v in VALUES {
        for extra in EXTRA {
            cases.push((leb128_padded(v, extra), v));
        }
    }
    let vectors: Vec<(&[u8], u64)> = cases.iter().map(|(b, v)| (b.as_slice(), *v)).collect();
    check_padded::<LebAny>(&vectors);
    // A group with payload past bit 63, anywhere in the padding, is refused
    // at the value's start, the maximal subpart ending at it.
    let mut high = leb128_padded(u64::MAX, 5);
    high[9] = 0x83;
    let mut late = leb128_padded(1, 20);
    late[15] = 0x81;
    check_invalid::<LebAny>(&[(&high, 0, Some(9)), (&late, 0, Some(15)), (&[0x80, 0x80], 0, None)]);
    check_exhaustive::<LebAny>();
}

#[test]
fn vlq_reads_any_number_of_leading_zero_groups() {
    let mut cases = Vec::new();
    for v in VALUES.map(|v| v as u32) {
        for extra in EXTRA {
            cases.push((vlq_padded(v, extra), u64::from(v)));
        }
    }
    let vectors: Vec<(&[u8], u64)> = cases.iter().map(|(b, v)| (b.as_slice(), *v)).collect();
    check_padded::<VlqAny>(&vectors);
    // After any number of zero groups, a value of more than 32 bits is
    // refused where it shows: `90` may start four groups, not five.
    let mut wide = vlq_padded(u32::MAX, 12);
    wide[12] = 0x90;
    check_invalid::<VlqAny>(&[(&wide, 0, Some(15)), (&[0x80; 40], 0, None)]);
    check_exhaustive::<VlqAny>();
}

/// The encoders write the shortest form, so `max_units` is the longest form
/// while the codec's facts say its sequences have no limit.
#[test]
fn encoders_write_the_shortest_form_and_the_facts_say_no_limit() {
    let (leb, vlq) = (strategies::<LebAny>(), strategies::<VlqAny>());
    let (leb_model, vlq_model) = (model_of::<LebAny>(), model_of::<VlqAny>());
    for v in VALUES {
        check_round_trip::<LebAny>(&leb, &leb_model, v);
        assert_eq!(encoded(&LebAny, &[v]), leb128_padded(v, 0));
        let v = v as u32;
        check_round_trip::<VlqAny>(&vlq, &vlq_model, u64::from(v));
        assert_eq!(encoded(&VlqAny, &[v]), vlq_padded(v, 0));
    }
    assert_eq!((LebAny.max_units(), VlqAny.max_units()), (10, 5));
    for info in [LebAny::info(), VlqAny::info()] {
        assert_eq!(info.max_units, None, "{}", info.name);
        assert!(!info.unbounded, "{}: the values are bounded", info.name);
    }
    assert!(LebAny::dfa().is_cyclic() && VlqAny::dfa().is_cyclic());
    // `--spec` builds the same tables from the same text.
    for (text, dfa) in [(LebAny::DESCRIPTION, LebAny::dfa()), (VlqAny::DESCRIPTION, VlqAny::dfa())] {
        assert_eq!(&LoadedCodec::from_text(text).unwrap().dfa(), dfa);
    }
}

/// Texts of padded and plain values and errors, built from a seed, agree
/// with the reference through every strategy and bulk call.
#[test]
fn mixed_streams_agree_with_the_reference() {
    let (leb, vlq) = (strategies::<LebAny>(), strategies::<VlqAny>());
    let mut next = crate::common::xorshift(0x9E37_79B9_7F4A_7C15u64);
    for _ in 0..300 {
        let mut text = Vec::new();
        for _ in 0..next() % 8 {
            let (v, extra) = (next() >> (next() % 64), (next() % 24) as usize);
            match next() % 4 {
                0 => text.extend(leb128_padded(v, extra)),
                1 => text.extend(vlq_padded(v as u32, extra)),
                2 => text.push(next() as u8),
                _ => text.extend(std::iter::repeat_n(0x80, extra)),
            }
        }
        check_agreement::<LebAny>(&leb, &text);
        check_agreement::<VlqAny>(&vlq, &text);
    }
}

/// A long padding cut anywhere by chunk boundaries decodes as one value, in
/// the streaming decoder and in the transcoder; the transcoder's limit on an
/// open sequence still holds.
#[test]
fn padding_across_chunks() {
    let mut input = leb128_padded(1337, 5000);
    input.extend(leb128_padded(7, 0));
    let want = [1337u64, 7];
    for cut in [1, 2, 3, 2500, 5001, 5002, input.len() - 1] {
        let items = check_split(LebAny, &input, &[cut]);
        let values: Vec<u64> = items.into_iter().map(|i| i.value.unwrap()).collect();
        assert_eq!(values, want, "cut at {cut}");
    }
    let to = placemat_variants::codecs::Leb128;
    let mut t = Transcoder::new(&LebAny, &to, ErrorMode::Strict).unwrap();
    let mut out = Vec::new();
    for chunk in input.chunks(64) {
        t.push(chunk, &mut out).unwrap();
    }
    t.finish(&mut out).unwrap();
    assert_eq!(out, encoded(&to, &want));
    let mut t = Transcoder::new(&LebAny, &to, ErrorMode::Strict).unwrap().with_max_sequence(1000);
    let err = input.chunks(64).try_for_each(|c| t.push(c, &mut Vec::new())).unwrap_err();
    assert_eq!((err.offset(), err.kind()), (0, &TranscodeErrorKind::TooLong { limit: 1000 }));
    assert_eq!(LebAny.step(&input[..4000]), Step::Incomplete);
    let dynamic: &dyn DynCodec = &LebAny;
    assert_eq!(dynamic.info().max_units, None);
}
