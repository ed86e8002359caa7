//! Panic-freedom: random input into every entry point of every codec — decoding,
//! validating, lossy decoding, items, streaming, encoding (with short buffers too),
//! values of any size, the `DynCodec` view in both strategies, and the `io`
//! transcoders between every pair of codecs in both error modes. Each call must
//! return, whatever it returns; a panic fails the property.
//!
//! And no strategy ever reports an invalid sequence of zero units, on random input
//! or on edited encodings: `DecodeError::new` refuses `Some(0)`, so this is an
//! invariant of every step function and bulk loop.

use std::io::{Read, Write};

use crate::common::apply_edits;
use placemat_codec::big::BigUint;
use placemat_codec::io::{ErrorMode, TranscodeReader, TranscodeWriter, Transcoder};
use placemat_codec::{
    Codec, DecodeError, Decoder, DynCodec, DynDecoder, Encoder, Item, Step, Strategy as Walk, StreamDecoder, Unit,
    Value,
};
use placemat_variants::codecs::{
    Cesu8, FssUtfPlan9, FssUtfXopen, GitOfs, HpackInt5, HpackInt7, KenDraft, Leb128, Mutf8, PerlUtf8, Printable6,
    Printable6Big, ProtobufSint64, QuicVarint, Sleb128, SourcemapVlq, SqliteVarint, Utf1, Utf16Be, Utf16Le, Utf32Be,
    Utf32Le, Utf8, Utf8Ext36, Utf8Ext42, UtfEbcdic, Vlq, Wtf8,
};
use placemat_variants::registry;
use proptest::prelude::*;

/// `[$check::<C>(args…), …]` for every generated codec type (each `C::Branching`,
/// `Printable6Branching` and the others, comes with it). Every check returns its
/// codec's name, and [`assert_covers_registry`] compares those with the registry,
/// so a codec left out here fails the test instead of going unchecked.
macro_rules! every_codec_type {
    ($check:ident($($arg:expr),*)) => {
        [
            $check::<Utf8>($($arg),*),
            $check::<FssUtfXopen>($($arg),*),
            $check::<FssUtfPlan9>($($arg),*),
            $check::<KenDraft>($($arg),*),
            $check::<Utf8Ext36>($($arg),*),
            $check::<Utf8Ext42>($($arg),*),
            $check::<Utf1>($($arg),*),
            $check::<UtfEbcdic>($($arg),*),
            $check::<Wtf8>($($arg),*),
            $check::<Printable6>($($arg),*),
            $check::<Printable6Big>($($arg),*),
            $check::<Utf16Le>($($arg),*),
            $check::<Utf16Be>($($arg),*),
            $check::<Utf32Le>($($arg),*),
            $check::<Utf32Be>($($arg),*),
            $check::<Cesu8>($($arg),*),
            $check::<Mutf8>($($arg),*),
            $check::<PerlUtf8>($($arg),*),
            $check::<Vlq>($($arg),*),
            $check::<GitOfs>($($arg),*),
            $check::<QuicVarint>($($arg),*),
            $check::<SqliteVarint>($($arg),*),
            $check::<Leb128>($($arg),*),
            $check::<HpackInt5>($($arg),*),
            $check::<HpackInt7>($($arg),*),
            $check::<Sleb128>($($arg),*),
            $check::<ProtobufSint64>($($arg),*),
            $check::<SourcemapVlq>($($arg),*),
        ]
    };
}

/// The static checks ran on exactly the registered codecs.
fn assert_covers_registry(checked: &[&str]) {
    let mut checked = checked.to_vec();
    checked.sort_unstable();
    let mut registered = registry::names();
    registered.sort_unstable();
    assert_eq!(checked, registered, "the static checks must cover every registered codec");
}

/// The symbols of the printable6 alphabet (shared by `printable6-big`).
fn alphabet() -> Vec<u8> {
    match &<Printable6 as Codec>::info().unit {
        Unit::Alphabet(symbols) => symbols.to_vec(),
        Unit::Byte => panic!("printable6 has alphabet units"),
    }
}

/// Bytes biased towards the interesting ones: ASCII, continuation and lead units,
/// and the symbols of the printable6 alphabet.
fn units() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![any::<u8>(), 0x80u8..=0xBF, 0xC0u8..=0xFF, Just(0u8), proptest::sample::select(alphabet())],
        0..96,
    )
}

/// Values across the whole of u64, and near the boundaries of forms.
fn values() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::vec(
        prop_oneof![any::<u64>(), 0u64..0x11_0000, (0u32..64).prop_map(|s| (1u64 << s).wrapping_sub(1))],
        0..24,
    )
}

/// Values of any size, up to 320 bits.
fn bigs() -> impl Strategy<Value = Vec<BigUint>> {
    proptest::collection::vec(
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(|b| BigUint::from_bytes_be(&b)),
        0..4,
    )
}

/// `(position, byte, kind)` edits for [`apply_edits`]: overwrite, delete, insert.
fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    let byte = prop_oneof![any::<u8>(), proptest::sample::select(alphabet())];
    proptest::collection::vec((any::<usize>(), byte, 0u8..3), 0..4)
}

/// Every static entry point of a generated codec; returns its name.
fn exercise_static<C: Codec + Default>(input: &[u8], values: &[u64], bigs: &[BigUint]) -> &'static str {
    let codec = C::default();
    let branching = C::Branching::default();
    let _ = codec.step(input);
    let _ = branching.step(input);
    let _ = codec.validate(input);
    let _ = branching.validate(input);
    let _ = codec.decode(input);
    let _ = branching.decode(input);
    let mut out = Vec::new();
    let _ = codec.decode_into(input, &mut out);
    codec.decode_lossy_into(input, &mut out);
    let _ = branching.decode_lossy(input);
    let _ = codec.items(input).count();
    let _ = branching.items(input).count();
    let _ = C::dfa().validate(input);
    let _ = C::dfa().decode_into::<<C as Encoder>::Value>(input, &mut Vec::new());
    let mut stream = StreamDecoder::new(C::default());
    for piece in input.chunks(3) {
        stream.push(piece, |_| {});
    }
    stream.finish(|_| {});

    let narrowed: Vec<<C as Encoder>::Value> = values.iter().map(|&v| Value::from_u64_lossy(v)).collect();
    let mut bytes = Vec::new();
    let _ = codec.encode_all(&narrowed, &mut bytes);
    for &v in &narrowed {
        let _ = codec.encode_push(v, &mut bytes);
        // Every buffer size, the too-small ones included.
        for size in 0..=codec.max_units() {
            let mut buf = vec![0u8; size];
            let _ = codec.encode(v, &mut buf);
        }
    }
    let _ = codec.max_encoded_len(usize::MAX);

    // Values of any size: unbounded codecs encode them, the others refuse them.
    let _ = codec.step_big(input);
    for big in bigs {
        let mut out = Vec::new();
        let _ = codec.encode_big(big, &mut out);
        let _ = codec.step_big(&out);
        let _ = codec.decode_lossy(&out);
    }
    C::info().name.as_ref()
}

/// Every entry point of the dynamic view.
fn exercise_dyn(codec: &dyn DynCodec, input: &[u8], values: &[u64], bigs: &[BigUint]) {
    let _ = codec.info().range_text();
    let _ = codec.validate(input);
    let _ = codec.dfa().validate(input);
    for strategy in [Walk::Table, Walk::Branching] {
        let _ = codec.step(strategy, input);
        let _ = codec.step_big(strategy, input);
        let decoder = DynDecoder { codec, strategy };
        let _ = decoder.decode(input);
        let _ = decoder.decode_lossy(input);
        let _ = decoder.items(input).count();
    }
    let mut out = Vec::new();
    for &v in values {
        let _ = codec.encode_push(v, &mut out);
    }
    for big in bigs {
        let mut out = Vec::new();
        let _ = codec.encode_big(big, &mut out);
        for strategy in [Walk::Table, Walk::Branching] {
            let _ = codec.step_big(strategy, &out);
        }
    }
}

/// The `io` adapters from `from` to `to`, in both modes, read and written in pieces.
fn exercise_io(from: &dyn DynCodec, to: &dyn DynCodec, input: &[u8]) {
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        let Ok(mut engine) = Transcoder::new(from, to, mode) else {
            continue;
        };
        let mut out = Vec::new();
        for piece in input.chunks(5) {
            let _ = engine.push(piece, &mut out);
        }
        let _ = engine.finish(&mut out);
        let _ = engine.push(b"after the end", &mut out);

        if let Ok(mut reader) = TranscodeReader::new(input, from, to, mode) {
            let mut sink = Vec::new();
            let _ = reader.read_to_end(&mut sink);
            let _ = reader.read_to_end(&mut sink);
        }
        if let Ok(mut writer) = TranscodeWriter::new(Vec::new(), from, to, mode) {
            for piece in input.chunks(7) {
                if writer.write_all(piece).is_err() {
                    break;
                }
            }
            let _ = writer.flush();
            let _ = writer.finish();
        }
    }
}

/// `values` and `bigs` encoded by `codec` (those it cannot encode left out), then
/// edited: near-valid input, where the error paths of long sequences run.
fn edited(codec: &dyn DynCodec, values: &[u64], bigs: &[BigUint], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &v in values {
        let _ = codec.encode_push(v, &mut bytes);
    }
    for big in bigs {
        let _ = codec.encode_big(big, &mut bytes);
    }
    apply_edits(&mut bytes, edits);
    bytes
}

/// The inputs each codec is checked on, by name: shared random bytes, and that
/// codec's edited encoding whole and cut short.
type Inputs<'a> = dyn Fn(&str) -> Vec<Vec<u8>> + 'a;

fn assert_step_len<V: std::fmt::Debug>(step: &Step<V>, what: &str, input: &[u8], start: usize) {
    assert!(!matches!(step, Step::Invalid { len: 0 }), "{what}: Invalid {{ len: 0 }} at {start} of {input:02X?}");
}

fn assert_error_len(result: Result<(), DecodeError>, what: &str, input: &[u8]) {
    if let Err(e) = result {
        assert_ne!(e.error_len(), Some(0), "{what}: error_len 0 on {input:02X?}");
    }
}

fn assert_item_spans<V>(items: impl Iterator<Item = Item<V>>, what: &str, input: &[u8]) {
    let mut end = 0;
    for item in items {
        assert!(item.span.start == end && item.span.end > end, "{what}: item {:?} on {input:02X?}", item.span);
        end = item.span.end;
    }
    assert_eq!(end, input.len(), "{what}: items on {input:02X?}");
}

/// Lossy decoding resumes after every error, so it ends with at most one value
/// per unit.
fn assert_lossy_len<V>(values: Vec<V>, what: &str, input: &[u8]) {
    assert!(values.len() <= input.len(), "{what}: {} values from {input:02X?}", values.len());
}

/// Every static strategy of `C` — the table decoder, `C::Branching`, the tables'
/// own walkers, values of any size — steps at every offset, validates, decodes and
/// decodes lossily without an invalid sequence of zero units; returns its name.
fn static_error_lengths<C: Codec + Default>(inputs: &Inputs) -> &'static str {
    let name: &'static str = C::info().name.as_ref();
    let codec = C::default();
    let branching = C::Branching::default();
    for input in inputs(name) {
        let input = &input[..];
        for start in 0..input.len() {
            let rest = &input[start..];
            assert_step_len(&codec.step(rest), &format!("{name} table step"), input, start);
            assert_step_len(&branching.step(rest), &format!("{name} branching step"), input, start);
            assert_step_len(&codec.step_big(rest), &format!("{name} step_big"), input, start);
            assert_step_len(&C::dfa().step_big(rest), &format!("{name} tables step_big"), input, start);
        }
        assert_error_len(codec.validate(input), &format!("{name} table validate"), input);
        assert_error_len(branching.validate(input), &format!("{name} branching validate"), input);
        assert_error_len(C::dfa().validate(input), &format!("{name} tables validate"), input);
        assert_error_len(C::dfa().validate_by_table(input), &format!("{name} validate_by_table"), input);
        assert_error_len(codec.decode(input).map(drop), &format!("{name} decode"), input);
        assert_error_len(branching.decode(input).map(drop), &format!("{name} branching decode"), input);
        let mut out: Vec<<C as Encoder>::Value> = Vec::new();
        assert_error_len(C::dfa().decode_into(input, &mut out), &format!("{name} tables decode"), input);
        out.clear();
        assert_error_len(C::dfa().decode_table_into(input, &mut out), &format!("{name} table walk decode"), input);
        assert_lossy_len(codec.decode_lossy(input), &format!("{name} table lossy"), input);
        assert_lossy_len(branching.decode_lossy(input), &format!("{name} branching lossy"), input);
        assert_item_spans(codec.items(input), &format!("{name} table items"), input);
        assert_item_spans(branching.items(input), &format!("{name} branching items"), input);
    }
    name
}

/// The same through [`DynCodec`], both strategies.
fn dyn_error_lengths(codec: &dyn DynCodec, inputs: &Inputs) {
    let name = codec.info().name.as_ref();
    for input in inputs(name) {
        let input = &input[..];
        for strategy in [Walk::Table, Walk::Branching] {
            for start in 0..input.len() {
                let rest = &input[start..];
                assert_step_len(&codec.step(strategy, rest), &format!("{name} {strategy:?} step"), input, start);
                assert_step_len(
                    &codec.step_big(strategy, rest),
                    &format!("{name} {strategy:?} step_big"),
                    input,
                    start,
                );
            }
            let decoder = DynDecoder { codec, strategy };
            assert_error_len(decoder.validate(input), &format!("{name} {strategy:?} validate"), input);
            assert_error_len(decoder.decode(input).map(drop), &format!("{name} {strategy:?} decode"), input);
            assert_lossy_len(decoder.decode_lossy(input), &format!("{name} {strategy:?} lossy"), input);
            assert_item_spans(decoder.items(input), &format!("{name} {strategy:?} items"), input);
        }
        assert_error_len(codec.validate(input), &format!("{name} validate"), input);
        assert_error_len(codec.dfa().validate(input), &format!("{name} tables validate"), input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generated_codecs_never_panic(input in units(), values in values(), bigs in bigs()) {
        assert_covers_registry(&every_codec_type!(exercise_static(&input, &values, &bigs)));
    }

    #[test]
    fn every_registered_codec_never_panics(input in units(), values in values(), bigs in bigs()) {
        for codec in registry::all() {
            exercise_dyn(*codec, &input, &values, &bigs);
        }
    }

    #[test]
    fn transcoding_between_every_pair_never_panics(input in units()) {
        for from in registry::all() {
            for to in registry::all() {
                exercise_io(*from, *to, &input);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn no_strategy_reports_an_invalid_sequence_of_zero_units(
        random in units(),
        values in values(),
        bigs in bigs(),
        edits in edits(),
        cut in any::<usize>(),
    ) {
        let inputs = |name: &str| {
            let codec = registry::find(name).unwrap_or_else(|| panic!("{name} is not in the registry"));
            let edited = edited(codec, &values, &bigs, &edits);
            let cut = edited[..cut % (edited.len() + 1)].to_vec();
            vec![random.clone(), edited, cut]
        };
        for codec in registry::all() {
            dyn_error_lengths(*codec, &inputs);
        }
        assert_covers_registry(&every_codec_type!(static_error_lengths(&inputs)));
    }
}
