//! Bulk decoding of flagged integer streams (`placemat_codec::Flagged`, a
//! word of eight units at a time) against the reference interpreter: which
//! codecs the compiler finds flagged, and for each of them streams of values
//! of every length starting at every offset of a word, with a unit damaged
//! at each place of a window, cut short, and with sequences longer than a
//! word, decoded whole (`decode_into`), as a prefix (`decode_prefix_into`)
//! and by the codec loaded at run time.

use placemat_codec::{Codec, Decoder, Encoder, Value};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::{GitOfs, Leb128, ProtobufSint64, Sleb128, SqliteVarint, Vlq};
use placemat_variants::registry;

use crate::common::{check_agreement, strategies};

#[test]
fn the_flagged_codecs_are_the_integer_codecs_with_a_flag_per_unit() {
    let flagged: Vec<String> =
        registry::all().iter().filter(|c| c.info().flagged.is_some()).map(|c| c.info().name.to_string()).collect();
    assert_eq!(flagged, ["vlq", "git-ofs", "sqlite-varint", "leb128", "sleb128", "protobuf-sint64"]);
    for codec in registry::all() {
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        assert_eq!(loaded.info().flagged, codec.info().flagged, "{}", codec.info().name);
    }
}

/// The values at the edges of each of the encoder's forms (raw values,
/// which a signed codec's sign maps).
fn edges<C: Codec>() -> Vec<u64> {
    let model = crate::common::model_of::<C>();
    let a = placemat_compiler::Automaton::build(&model, Default::default()).unwrap();
    let raw = a.encode_forms.iter().flat_map(|f| [f.lo, f.lo.saturating_add(1), f.hi.saturating_sub(1), f.hi]);
    raw.map(|r| crate::common::widened(&model, &r.into())).collect()
}

pub(crate) fn streams<C: Codec + Default + 'static>() {
    let strategies = strategies::<C>();
    let codec = C::default();
    let loaded = LoadedCodec::from_text(C::DESCRIPTION).unwrap();
    let mut stream = Vec::new();
    for v in edges::<C>() {
        if let Some(v) = <C as Encoder>::Value::from_u64(v) {
            let _ = codec.encode_push(v, &mut stream);
        }
    }
    let check = |input: &[u8]| {
        check_agreement::<C>(&strategies, input);
        assert_eq!(
            loaded.decode(input).map_err(|e| e.valid_up_to()),
            C::default().decode(input).map(widen).map_err(|e| e.valid_up_to())
        );
    };
    for offset in 0..8 {
        let mut input = vec![0x05; offset];
        input.extend_from_slice(&stream);
        check(&input);
        check(&input[..input.len() - 1]);
        for at in offset..(offset + 24).min(input.len()) {
            for unit in [0x00, 0x7F, 0x80, 0xFF] {
                let mut damaged = input.clone();
                damaged[at] = unit;
                check(&damaged);
            }
        }
    }
    // Runs of continuing units longer than a word, then an end.
    for run in [7, 8, 9, 10, 11] {
        let mut input = vec![0x01, 0x02];
        input.extend(std::iter::repeat_n(0x80, run));
        input.extend_from_slice(&[0x01, 0x03]);
        check(&input);
    }
}

fn widen<V: Value>(values: Vec<V>) -> Vec<u64> {
    values.into_iter().map(Value::to_u64).collect()
}

#[test]
fn leb128_streams() {
    streams::<Leb128>();
}

#[test]
fn vlq_streams() {
    streams::<Vlq>();
}

#[test]
fn git_ofs_streams() {
    streams::<GitOfs>();
}

#[test]
fn sqlite_varint_streams() {
    streams::<SqliteVarint>();
}

/// ZigZag values: the words give raw values, which the codec maps after.
#[test]
fn protobuf_sint64_streams() {
    streams::<ProtobufSint64>();
}

/// Two's complement: the words sign-extend each payload from its top bit.
#[test]
fn sleb128_streams() {
    streams::<Sleb128>();
}

/// The SIMD kernels (`placemat_simd::decode_flagged`, with AVX-512, AVX2
/// and SSE4.1 where the machine has them beside BMI2, and
/// `decode_flagged_into`, which writes a `Vec`'s spare room) against
/// the fact's own one-value step (`Flagged::step`, the word decoder's
/// arithmetic): on streams of values of random widths, some damaged, its
/// values are the steps' first ones, and it stops only where a step would
/// not take the next value, where fewer than 72 units are left, or where the
/// slots run out. Each must take a stream of short values nearly whole.
fn kernel_agrees_with_the_steps<C: Codec + Default>() {
    let codec = C::default();
    let flagged = C::info().flagged.expect("a flagged codec");
    let marks = flagged.marks();
    let mut next = crate::common::xorshift(0x2545_F491_4F6C_DD1Du64);
    for round in 0..300 {
        let mut input = Vec::new();
        for _ in 0..next() % 200 {
            let v = next() >> (next() % 64);
            if let Some(v) = <C as Encoder>::Value::from_u64(v) {
                let _ = codec.encode_push(v, &mut input);
            }
        }
        if round % 3 == 1 && !input.is_empty() {
            let at = (next() as usize) % input.len();
            input[at] = next() as u8;
        }
        // Whole, with the codec's step for what the kernel does not cover,
        // as the table walker decodes it.
        assert_eq!(codec.decode(&input), C::Table::default().decode(&input), "round {round}: decode");
        let mut want = Vec::new();
        let mut pos = 0;
        while let Some((value, len)) = flagged.step(&input[pos..]) {
            want.push(value);
            pos += len;
        }
        let room = if round % 5 == 0 { (next() % 40) as usize } else { want.len() + 8 };
        for isa in kernels() {
            let mut out = vec![0u64; room];
            let (values, units) = placemat_codec::simd::decode_flagged(isa, &marks, &input, &mut out);
            assert_eq!(out[..values], want[..values], "round {round} {isa:?}");
            // The same into a `Vec`'s spare room, after what it holds.
            let mut vec = vec![7u64];
            let got = placemat_codec::simd::decode_flagged_into(isa, &marks, &input, room, &mut vec, |_| None);
            assert_eq!(
                (got, &vec[1..], vec[0]),
                ((values, units), &out[..values], 7),
                "round {round} {isa:?} into a Vec"
            );
            let taken: usize = (0..values).fold(0, |at, _| at + flagged.step(&input[at..]).unwrap().1);
            assert_eq!(units, taken, "round {round} {isa:?}");
            let stopped_at_a_value = flagged.step(&input[units..]).is_none();
            assert!(
                stopped_at_a_value || units + 72 > input.len() || values == room,
                "round {round} {isa:?}: stopped at {units}"
            );
        }
    }
    let mut short = Vec::new();
    for v in 0..1000u64 {
        if let Some(v) = <C as Encoder>::Value::from_u64(v % 100) {
            let _ = codec.encode_push(v, &mut short);
        }
    }
    for isa in kernels() {
        let (_, units) = placemat_codec::simd::decode_flagged(isa, &marks, &short, &mut [0u64; 1000]);
        let name = &C::info().name;
        assert!(units + 72 + 8 >= short.len(), "{name} {isa:?}: the kernel took {units} of {} units", short.len());
    }
}

/// The instruction sets with a flagged-stream kernel on this machine.
fn kernels() -> Vec<placemat_codec::simd::Isa> {
    let all = placemat_codec::simd::Isa::all();
    all.into_iter().flatten().filter(|&isa| placemat_codec::simd::flagged_on(isa)).collect()
}

#[test]
fn the_simd_kernel_agrees_with_the_steps() {
    kernel_agrees_with_the_steps::<Leb128>();
    kernel_agrees_with_the_steps::<Vlq>();
    kernel_agrees_with_the_steps::<GitOfs>();
    kernel_agrees_with_the_steps::<SqliteVarint>();
    kernel_agrees_with_the_steps::<Sleb128>();
    kernel_agrees_with_the_steps::<ProtobufSint64>();
}
