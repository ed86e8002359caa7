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

fn streams<C: Codec + Default + 'static>() {
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
