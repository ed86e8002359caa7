//! Panic-freedom: random input into every entry point of every codec — decoding,
//! validating, lossy decoding, items, streaming, encoding (with short buffers too),
//! the `DynCodec` view in both strategies, and the `io` transcoders between every
//! pair of codecs in both error modes. Each call must return, whatever it returns;
//! a panic fails the property.

use std::io::{Read, Write};

use placemat_codec::io::{ErrorMode, TranscodeReader, TranscodeWriter, Transcoder};
use placemat_codec::{Codec, Decoder, DynCodec, DynDecoder, Encoder, Strategy as Walk, StreamDecoder, Value};
use placemat_variants::codecs::{FssUtfPlan9, FssUtfXopen, KenDraft, Utf8, Utf8Ext36, Utf8Ext42};
use placemat_variants::registry;
use proptest::prelude::*;

/// Bytes biased towards the interesting ones: ASCII, continuation and lead units.
fn units() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(prop_oneof![any::<u8>(), 0x80u8..=0xBF, 0xC0u8..=0xFF, Just(0u8)], 0..96)
}

/// Values across the whole of u64, and near the boundaries of forms.
fn values() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::vec(
        prop_oneof![any::<u64>(), 0u64..0x11_0000, (0u32..64).prop_map(|s| (1u64 << s).wrapping_sub(1))],
        0..24,
    )
}

/// Every static entry point of a generated codec.
fn exercise_static<C: Codec + Default>(input: &[u8], values: &[u64]) {
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
}

/// Every entry point of the dynamic view.
fn exercise_dyn(codec: &dyn DynCodec, input: &[u8], values: &[u64]) {
    let _ = codec.info().range_text();
    let _ = codec.validate(input);
    let _ = codec.dfa().validate(input);
    for strategy in [Walk::Table, Walk::Branching] {
        let _ = codec.step(strategy, input);
        let decoder = DynDecoder { codec, strategy };
        let _ = decoder.decode(input);
        let _ = decoder.decode_lossy(input);
        let _ = decoder.items(input).count();
    }
    let mut out = Vec::new();
    for &v in values {
        let _ = codec.encode_push(v, &mut out);
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generated_codecs_never_panic(input in units(), values in values()) {
        exercise_static::<Utf8>(&input, &values);
        exercise_static::<FssUtfXopen>(&input, &values);
        exercise_static::<FssUtfPlan9>(&input, &values);
        exercise_static::<KenDraft>(&input, &values);
        exercise_static::<Utf8Ext36>(&input, &values);
        exercise_static::<Utf8Ext42>(&input, &values);
    }

    #[test]
    fn every_registered_codec_never_panics(input in units(), values in values()) {
        for codec in registry::all() {
            exercise_dyn(*codec, &input, &values);
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
