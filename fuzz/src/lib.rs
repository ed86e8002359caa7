//! The bodies of placemat's fuzz targets, as plain functions over `&[u8]`.
//!
//! `fuzz_targets/*.rs` hand libFuzzer's input to these functions
//! (`cargo +nightly fuzz run <target>`); `variants/tests/suite/fuzz_seeds.rs` runs the
//! same functions on stable over the checked-in seeds in `fuzz/seeds/<target>/`,
//! so `cargo test --workspace` keeps them compiling and correct. Each function
//! panics exactly when it finds a bug:
//!
//! | target | what must agree, or not panic |
//! |---|---|
//! | [`decoders`] | table, branching, run-time tables and the reference interpreter, item by item, with errors; the bulk paths (validate, decode, lossy, the prefix decoders) |
//! | [`utf8_std`] | strict UTF-8 against `std::str::from_utf8` and `String::from_utf8_lossy` |
//! | [`simd`] | every SIMD validator (each instruction set the machine has) against the scalar one and the kernels' formula, and utf8's against std |
//! | [`stream`] | streaming and `io` transcoding with random chunk splits against the whole input |
//! | [`transcode_pairs`] | transcoding between any two built-in codecs on the bulk paths (blocks of values, ASCII runs), in random chunks, against one value at a time over the whole input |
//! | [`round_trip`] | encode → decode, the generated encoder against the reference and run-time encoders, and the codec's range |
//! | [`description`] | the description parser and builder on arbitrary text: errors, never panics; a description that builds decodes like its reference interpreter |
//!
//! The first input byte of the codec targets picks the codec (`byte % 15`: the
//! six seeds of 1992 in the order of [`placemat_variants::registry::all`], then
//! `wtf8`, whose rule across adjacent values the decoders must carry from one
//! item to the next, then `mutf8`, whose lone surrogates are read by longest
//! match, then `leb128` and `sqlite-varint`, integer streams whose bulk
//! decoders read a word of units at a time, then `utf-ebcdic`, whose bytes go
//! through a unit map, `hpack-int5`, whose repeated unit has a bias, and the
//! signed `sleb128` and `sourcemap-vlq`, whose values a sign maps, and
//! `quic-varint`, whose bulk decoders read each value's length from its
//! first unit).

use std::io::Read;
use std::sync::OnceLock;

use num_bigint::BigUint;
use placemat_codec::io::{ErrorMode, TranscodeError, TranscodeReader, Transcoder};
use placemat_codec::{Codec, Decoder, DynCodec, Encoder, Item, Step, StreamDecoder, Value};
use placemat_compiler::model::Layout;
use placemat_compiler::{reference::Reference, BuildOptions, Description, LoadedCodec, Model};
use placemat_variants::codecs::{
    FssUtfPlan9, FssUtfXopen, HpackInt5, KenDraft, Leb128, Mutf8, QuicVarint, Sleb128, SourcemapVlq, SqliteVarint,
    Utf8, Utf8Branching, Utf8Ext36, Utf8Ext42, UtfEbcdic, Wtf8,
};

/// Longest input handed to the reference interpreter, which is slow.
const REFERENCE_LIMIT: usize = 40;

/// Calls `$body::<C>(…)` for the codec selected by `$sel`.
macro_rules! with_codec {
    ($sel:expr, $f:ident ( $($arg:expr),* )) => {
        match $sel % 15 {
            0 => $f::<Utf8>(0, $($arg),*),
            1 => $f::<FssUtfXopen>(1, $($arg),*),
            2 => $f::<FssUtfPlan9>(2, $($arg),*),
            3 => $f::<KenDraft>(3, $($arg),*),
            4 => $f::<Utf8Ext36>(4, $($arg),*),
            5 => $f::<Utf8Ext42>(5, $($arg),*),
            6 => $f::<Wtf8>(6, $($arg),*),
            7 => $f::<Mutf8>(7, $($arg),*),
            8 => $f::<Leb128>(8, $($arg),*),
            9 => $f::<SqliteVarint>(9, $($arg),*),
            10 => $f::<UtfEbcdic>(10, $($arg),*),
            11 => $f::<HpackInt5>(11, $($arg),*),
            12 => $f::<Sleb128>(12, $($arg),*),
            13 => $f::<SourcemapVlq>(13, $($arg),*),
            _ => $f::<QuicVarint>(14, $($arg),*),
        }
    };
}

/// Each built-in codec's model and run-time codec, built once.
fn built(index: usize) -> &'static (Model, LoadedCodec) {
    static BUILT: OnceLock<Vec<(Model, LoadedCodec)>> = OnceLock::new();
    &BUILT.get_or_init(|| {
        [
            Utf8::DESCRIPTION,
            FssUtfXopen::DESCRIPTION,
            FssUtfPlan9::DESCRIPTION,
            KenDraft::DESCRIPTION,
            Utf8Ext36::DESCRIPTION,
            Utf8Ext42::DESCRIPTION,
            Wtf8::DESCRIPTION,
            Mutf8::DESCRIPTION,
            Leb128::DESCRIPTION,
            SqliteVarint::DESCRIPTION,
            UtfEbcdic::DESCRIPTION,
            HpackInt5::DESCRIPTION,
            Sleb128::DESCRIPTION,
            SourcemapVlq::DESCRIPTION,
            QuicVarint::DESCRIPTION,
        ]
        .iter()
        .map(|text| {
            let model = Description::parse_str(text).expect("built-in descriptions are valid").model;
            let runtime = LoadedCodec::new(model.clone(), BuildOptions::default()).expect("built-in tables build");
            (model, runtime)
        })
        .collect()
    })[index]
}

fn widen<V: Value>(s: Step<V>) -> Step<u64> {
    s.map(|value| value.to_u64())
}

/// The reference's step, its raw value as the 64-bit view of the codec's
/// value (a signed codec's: its sign-extended pattern).
fn viewed(model: &Model, s: Step<BigUint>) -> Step<u64> {
    s.map(|raw| model.view_of(&raw).expect("bounded codecs have 64-bit values"))
}

/// Adapts a step function in a context, and the context after a value, to
/// [`Decoder`], for its derived methods.
struct StepFn<F, A>(F, A);

impl<F: Fn(usize, &[u8]) -> Step<u64>, A: Fn(u64) -> usize> Decoder for StepFn<F, A> {
    type Value = u64;
    fn step(&self, input: &[u8]) -> Step<u64> {
        (self.0)(0, input)
    }
    fn step_in(&self, context: usize, input: &[u8]) -> Step<u64> {
        (self.0)(context, input)
    }
    fn context_after(&self, value: &u64) -> usize {
        (self.1)(*value)
    }
}

/// The items of `input` by `step`, each in the context the item before leaves
/// (`after`, the reference interpreter's).
fn items(step: impl Fn(usize, &[u8]) -> Step<u64>, after: impl Fn(u64) -> usize, input: &[u8]) -> Vec<Item<u64>> {
    StepFn(step, after).items(input).collect()
}

/// Differential decoding: every strategy of one codec, item by item, and its bulk
/// paths against the items.
pub fn decoders(data: &[u8]) {
    let Some((&sel, input)) = data.split_first() else {
        return;
    };
    with_codec!(sel, decoders_of(input));
}

fn decoders_of<C: Codec + Default>(index: usize, input: &[u8]) {
    let (model, runtime) = built(index);
    let reference = Reference::new(model);
    let after = |v: u64| reference.context_after(&BigUint::from(v));
    let table = items(|c, s| widen(C::default().step_in(c, s)), after, input);
    let branching = items(|c, s| widen(C::Branching::default().step_in(c, s)), after, input);
    let run_time = items(|c, s| Decoder::step_in(runtime, c, s), after, input);
    assert_eq!(branching, table, "branching vs table on {input:02X?}");
    assert_eq!(run_time, table, "run-time tables vs table on {input:02X?}");
    let short = &input[..input.len().min(REFERENCE_LIMIT)];
    let by_reference = items(|c, s| viewed(model, reference.step_in(c, s)), after, short);
    let by_table = items(|c, s| widen(C::default().step_in(c, s)), after, short);
    assert_eq!(by_reference, by_table, "reference vs table on {short:02X?}");

    // The bulk paths say what the items say.
    let codec = C::default();
    let first_error = table.iter().find(|i| i.value.is_err());
    let validate = codec.validate(input);
    let decoded = codec.decode(input);
    assert_eq!(C::Branching::default().validate(input), validate, "branching validate on {input:02X?}");
    assert_eq!(Decoder::validate(runtime, input), validate, "run-time validate on {input:02X?}");
    match first_error {
        None => {
            assert_eq!(validate, Ok(()), "validate on {input:02X?}");
            let values: Vec<u64> = decoded.expect("valid input decodes").into_iter().map(Value::to_u64).collect();
            let want: Vec<u64> = table.iter().filter_map(|i| i.value.ok()).collect();
            assert_eq!(values, want, "decode on {input:02X?}");
        }
        Some(item) => {
            let err = validate.expect_err("invalid input fails validation");
            assert_eq!(err.valid_up_to(), item.span.start, "valid_up_to on {input:02X?}");
            let len = match item.value {
                Err(placemat_codec::ItemError::Invalid) => Some(item.span.len()),
                _ => None,
            };
            assert_eq!(err.error_len(), len, "error_len on {input:02X?}");
            assert_eq!(decoded, Err(err), "decode on {input:02X?}");
        }
    }
    let lossy: Vec<u64> = codec.decode_lossy(input).into_iter().map(Value::to_u64).collect();
    assert_eq!(lossy, table.iter().map(|i| i.value.unwrap_or(0xFFFD)).collect::<Vec<_>>(), "lossy on {input:02X?}");
    prefixes(&codec, runtime, input, &table);
}

/// The prefix decoders (`decode_prefix` into a slice, `decode_prefix_into`,
/// the word decoder of flagged integer codecs and the one-load decoder of
/// length-prefixed ones among them) take the items
/// before the first error, up to their room: a count the input's first unit
/// gives, and no limit.
fn prefixes<C: Codec>(codec: &C, runtime: &LoadedCodec, input: &[u8], items: &[Item<u64>]) {
    let leading: Vec<u64> = items.iter().map_while(|i| i.value.ok()).collect();
    let count = usize::from(input.first().map_or(0, |u| u % 16));
    for room in [count, usize::MAX] {
        let n = room.min(leading.len());
        let units = items.get(..n).and_then(|i| i.last()).map_or(0, |i| i.span.end);
        let want = placemat_codec::Prefix { values: n, units };
        let mut out = Vec::new();
        assert_eq!(codec.decode_prefix_into(input, room, &mut out), want, "prefix of {room} on {input:02X?}");
        assert_eq!(out.into_iter().map(Value::to_u64).collect::<Vec<_>>(), leading[..n], "its values");
        let mut out = Vec::new();
        assert_eq!(runtime.decode_prefix_into(input, room, &mut out), want, "run-time prefix on {input:02X?}");
        assert_eq!(out, leading[..n], "its values");
    }
    let mut slots = vec![<C as Decoder>::Value::from_u64_lossy(0); count];
    let want = count.min(leading.len());
    assert_eq!(codec.decode_prefix(input, &mut slots).values, want, "prefix into a slice on {input:02X?}");
}

/// Strict UTF-8 against `std`.
pub fn utf8_std(input: &[u8]) {
    let ours = Decoder::validate(&Utf8, input);
    match std::str::from_utf8(input) {
        Ok(s) => {
            assert_eq!(ours, Ok(()), "validate on {input:02X?}");
            let want: Vec<u32> = s.chars().map(u32::from).collect();
            assert_eq!(Utf8.decode(input).as_deref(), Ok(&want[..]), "decode on {input:02X?}");
            assert_eq!(Utf8Branching.decode(input).as_deref(), Ok(&want[..]));
        }
        Err(e) => {
            let ours = ours.expect_err("std refuses it");
            assert_eq!((ours.valid_up_to(), ours.error_len()), (e.valid_up_to(), e.error_len()), "on {input:02X?}");
            assert_eq!(Utf8Branching.validate(input), Err(ours));
            assert_eq!(Utf8.decode(input), Err(ours));
        }
    }
    let lossy: String = Utf8
        .decode_lossy(input)
        .into_iter()
        .map(|v| char::from_u32(v).expect("lossy output is scalar values"))
        .collect();
    assert_eq!(lossy, String::from_utf8_lossy(input), "lossy on {input:02X?}");
}

/// The SIMD validators of the codecs that have one (the first byte picks the
/// codec) against the scalar validator, exactly, and against the formula they
/// compute (`placemat_simd::reference`), per 64-byte chunk.
pub fn simd(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else { return };
    let local: Vec<&dyn DynCodec> =
        placemat_variants::registry::all().iter().copied().filter(|c| c.dfa().simd().is_some()).collect();
    let codec = local[usize::from(pick) % local.len()];
    let dfa = codec.dfa();
    let t = dfa.simd().expect("filtered on SIMD tables");
    let expected = dfa.validate_scalar(input);
    let flagged = placemat_codec::simd::reference::first_error(t, input);
    assert_eq!(flagged.is_none(), expected.is_ok(), "formula of {} on {input:02X?}", codec.info().name);
    for isa in placemat_codec::simd::Isa::all().into_iter().flatten() {
        assert_eq!(dfa.validate_simd(isa, input), Some(expected), "{isa:?} {} on {input:02X?}", codec.info().name);
        let chunk = placemat_codec::simd::validate(isa, t, input);
        assert_eq!(chunk, flagged.map_or(Ok(()), |at| Err(at / 64 * 64)), "{isa:?} chunk on {input:02X?}");
    }
    decoding_behind_simd(&dfa, input);
    if codec.info().name == "utf8" {
        let std = std::str::from_utf8(input).map(drop).map_err(|e| (e.valid_up_to(), e.error_len()));
        assert_eq!(expected.map_err(|e| (e.valid_up_to(), e.error_len())), std, "utf8 on {input:02X?}");
    }
}

/// Decoding behind SIMD validation against the table decoder, and the
/// decoding kernel on its own: on any input it stays in bounds, and on valid
/// input it writes the table decoder's values.
fn decoding_behind_simd(dfa: &placemat_codec::dfa::Dfa<&[u32], &[u64]>, input: &[u8]) {
    let (mut fast, mut table) = (Vec::<u64>::new(), Vec::<u64>::new());
    let got = dfa.decode_validated_into(input, &mut fast);
    assert_eq!(got, dfa.decode_table_into(input, &mut table), "decode_validated_into on {input:02X?}");
    assert_eq!(fast, table, "decode_validated_into on {input:02X?}");
    let (Some(shape), Some(isa)) = (dfa.decoding_shape(), placemat_codec::simd::Isa::detect()) else { return };
    let mut kernel = Vec::new();
    let taken = placemat_codec::simd::decode_u64(isa, &shape, input, &mut kernel);
    assert!(taken <= input.len() && kernel.len() <= taken, "kernel bounds on {input:02X?}");
    if got.is_ok() {
        table.clear();
        dfa.decode_table_into(&input[..taken], &mut table).expect("a prefix at a value boundary");
        assert_eq!(kernel, table, "kernel on {input:02X?}");
    }
}

/// A small deterministic generator of chunk lengths.
struct Chunks(u32);

impl Chunks {
    fn next(&mut self, max: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        1 + (self.0 as usize) % max.max(1)
    }
}

/// Streaming with random chunk splits against the whole input: the stream
/// decoder's items, and the `io` transcoder's output and error.
pub fn stream(data: &[u8]) {
    let [sel, a, b, input @ ..] = data else {
        return;
    };
    let seed = u32::from(*a) << 8 | u32::from(*b) | 1;
    with_codec!(*sel, stream_of(seed, input));
}

fn stream_of<C: Codec + Default + Send + Sync>(index: usize, seed: u32, input: &[u8]) {
    // Items of a stream split at random points.
    let whole: Vec<Item<_>> = C::default().items(input).collect();
    let mut chunks = Chunks(seed);
    let mut stream = StreamDecoder::new(C::default());
    let mut got = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        let n = chunks.next(9).min(input.len() - pos);
        stream.push(&input[pos..pos + n], |i| got.push(i));
        pos += n;
    }
    let end = stream.finish(|i| got.push(i));
    assert_eq!(got, whole, "stream split with seed {seed} on {input:02X?}");
    assert_eq!(end, input.len());

    // Transcoding to strict UTF-8 and to the codec itself, both modes.
    let from: &dyn DynCodec = &built(index).1;
    for to in [&Utf8 as &dyn DynCodec, &C::default()] {
        for mode in [ErrorMode::Strict, ErrorMode::Replace] {
            let mut once = Transcoder::new(from, to, mode).expect("both targets encode U+FFFD");
            let mut want = Vec::new();
            let want_err = once.push(input, &mut want).and_then(|()| once.finish(&mut want)).err();

            let mut split = Transcoder::new(from, to, mode).expect("as above");
            let mut out = Vec::new();
            let mut chunks = Chunks(seed);
            let mut pos = 0;
            let mut err = None;
            while pos < input.len() && err.is_none() {
                let n = chunks.next(7).min(input.len() - pos);
                err = split.push(&input[pos..pos + n], &mut out).err();
                pos += n;
            }
            let err = err.or_else(|| split.finish(&mut out).err());
            assert_eq!((&out, &err), (&want, &want_err), "transcoder split with seed {seed} on {input:02X?}");

            // The reader adapter, read in odd-sized pieces.
            let mut reader = TranscodeReader::new(input, from, to, mode).expect("as above");
            let mut out = Vec::new();
            let mut buf = [0u8; 5];
            let err = loop {
                match reader.read(&mut buf[..chunks.next(5)]) {
                    Ok(0) => break None,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(e) => break Some(TranscodeError::from_io(&e).expect("a transcoding error").clone()),
                }
            };
            assert_eq!((&out, &err), (&want, &want_err), "reader on {input:02X?}");
            if mode == ErrorMode::Replace {
                assert_eq!(want_err, None);
            }
        }
    }
}

/// The methods of a codec that wraps another (`Self(inner, ..)`) which
/// step in the contexts of its rules across values, forwarded to the inner
/// one (the trait's defaults ignore the contexts): for `PerValue` and the
/// suite's counting codec.
macro_rules! forward_contexts {
    () => {
        fn dyn_step_in(
            &self,
            strategy: ::placemat_codec::Strategy,
            context: usize,
            input: &[u8],
        ) -> ::placemat_codec::Step<u64> {
            self.0.step_in(strategy, context, input)
        }
        fn dyn_step_open(
            &self,
            strategy: ::placemat_codec::Strategy,
            context: usize,
            input: &[u8],
        ) -> ::placemat_codec::Step<u64> {
            self.0.step_open(strategy, context, input)
        }
        fn dyn_context_after(&self, value: u64) -> usize {
            self.0.context_after(value)
        }
        fn dyn_forbids(&self, before: u64, value: u64) -> bool {
            self.0.forbids(before, value)
        }
    };
}
// (By path: the suite, which includes this file, uses it from outside.)
#[allow(unused_imports)]
pub(crate) use forward_contexts;

/// A codec as the transcoder's per-value path sees it: every operation
/// forwarded but the block operations and the ASCII runs, which keep the
/// trait's defaults (nothing in bulk, one value at a time). A transcoder
/// between two of them is made [`Transcoder::one_value_at_a_time`] too: the
/// copy of a codec into itself needs none of the block operations.
pub struct PerValue<'a>(pub &'a dyn DynCodec);

impl DynCodec for PerValue<'_> {
    fn dyn_info(&self) -> &placemat_codec::CodecInfo {
        self.0.info()
    }
    fn description(&self) -> &str {
        self.0.description()
    }
    fn dyn_dfa(&self) -> placemat_codec::dfa::Dfa<&[u32], &[u64]> {
        self.0.dfa()
    }
    fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), placemat_codec::EncodeError> {
        self.0.encode_push(value, out)
    }
    fn dyn_step(&self, strategy: placemat_codec::Strategy, input: &[u8]) -> Step<u64> {
        self.0.step(strategy, input)
    }
    forward_contexts!();
    fn dyn_step_big(&self, strategy: placemat_codec::Strategy, input: &[u8]) -> Step<BigUint> {
        self.0.step_big(strategy, input)
    }
    fn dyn_encode_big(&self, value: &BigUint, out: &mut Vec<u8>) -> Result<(), placemat_codec::EncodeError> {
        self.0.encode_big(value, out)
    }
}

/// Transcoding between two built-in codecs (the first two bytes pick them
/// from [`placemat_variants::registry::all`]) in random chunks, both modes,
/// against the per-value path ([`PerValue`]) over the whole input: the same
/// output, the same error.
pub fn transcode_pairs(data: &[u8]) {
    let [f, t, a, b, input @ ..] = data else {
        return;
    };
    let all = placemat_variants::registry::all();
    let (from, to) = (all[usize::from(*f) % all.len()], all[usize::from(*t) % all.len()]);
    let seed = u32::from(*a) << 8 | u32::from(*b) | 1;
    let (one_from, one_to) = (PerValue(from), PerValue(to));
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        let Ok(once) = Transcoder::new(&one_from, &one_to, mode) else { continue };
        // (A codec into itself would otherwise copy what it validates.)
        let mut once = once.one_value_at_a_time();
        let mut want = Vec::new();
        let want_err = once.push(input, &mut want).and_then(|()| once.finish(&mut want)).err();
        let mut split = Transcoder::new(from, to, mode).expect("refused above if at all");
        let (mut out, mut chunks, mut pos, mut err) = (Vec::new(), Chunks(seed), 0, None);
        while pos < input.len() && err.is_none() {
            let n = chunks.next(if seed % 3 == 0 { 4096 } else { 40 }).min(input.len() - pos);
            err = split.push(&input[pos..pos + n], &mut out).err();
            pos += n;
        }
        let err = err.or_else(|| split.finish(&mut out).err());
        let (f, t) = (&from.info().name, &to.info().name);
        assert_eq!((&out, &err), (&want, &want_err), "{f} -> {t} {mode:?}, seed {seed}, on {input:02X?}");
    }
}

/// Encode → decode round trips over values spread across the codec's range.
pub fn round_trip(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    with_codec!(sel, round_trip_of(rest));
}

fn round_trip_of<C: Codec + Default>(index: usize, data: &[u8]) {
    let (model, runtime) = built(index);
    let reference = Reference::new(model);
    let info = C::info();
    for word in data.chunks(9) {
        let Some((&flag, bytes)) = word.split_first() else {
            continue;
        };
        let mut raw = [0u8; 8];
        raw[..bytes.len()].copy_from_slice(bytes);
        let raw = u64::from_le_bytes(raw);
        // The flag spreads values over the whole of u64, the codec's range, the
        // powers of two (where forms change length) and the range's end.
        let value = match flag % 4 {
            0 => raw,
            1 => raw % info.max.saturating_add(2),
            2 => (1u64 << (raw % 64)).wrapping_add((raw >> 8) % 5).wrapping_sub(2),
            _ => info.max.wrapping_add(raw % 3),
        };
        let mut ours = Vec::new();
        let encoded = match <C as Encoder>::Value::from_u64(value) {
            Some(v) => Encoder::encode_push(&C::default(), v, &mut ours).map(|()| ours),
            None => Err(placemat_codec::EncodeError::Unencodable { value }),
        };
        assert_eq!(encoded.is_ok(), info.contains(value), "U+{value:X}: encodable iff in the range");
        let want = model.raw_of(value).and_then(|raw| reference.encode(&raw));
        assert_eq!(encoded.as_ref().ok(), want.as_ref(), "generated vs reference encoder on U+{value:X}");
        let mut by_runtime = Vec::new();
        let runtime_ok = runtime.dyn_encode_push(value, &mut by_runtime).is_ok();
        assert_eq!(runtime_ok.then_some(&by_runtime), want.as_ref(), "run-time vs reference encoder on U+{value:X}");
        if let Ok(units) = encoded {
            let want = Step::Value { value, len: units.len() };
            assert_eq!(widen(C::default().step(&units)), want, "table decoding U+{value:X}");
            assert_eq!(widen(C::Branching::default().step(&units)), want, "branching decoding U+{value:X}");
            assert_eq!(viewed(model, reference.step(&units)), want, "reference decoding U+{value:X}");
            // A proper prefix never decodes while more input may follow (at
            // the end of the input, a longest-match codec takes a shorter
            // whole sequence).
            for cut in 1..units.len() {
                assert_eq!(C::default().step_open(0, &units[..cut]), Step::Incomplete, "prefix of U+{value:X}");
            }
        }
    }
}

/// The description parser and builder on arbitrary text: errors are reported, never
/// a panic. A description that builds must decode its own text (and a few units
/// around it) like its reference interpreter, and round-trip what it encodes.
pub fn description(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_description(text);
    // proc-macro2 keeps every parsed text for span locations; forget them so a long
    // fuzzing run does not grow without bound. No span outlives this call.
    proc_macro2::extra::invalidate_current_thread_spans();
}

fn check_description(text: &str) {
    let d = match Description::parse_str(text) {
        Ok(d) => d,
        Err(diagnostics) => {
            assert!(!diagnostics.0.is_empty(), "an error names at least one problem");
            let rendered = diagnostics.render("fuzz.placemat");
            assert!(rendered.lines().count() >= diagnostics.0.len());
            return;
        }
    };
    // Run-time building may refuse (unbounded or oversized descriptions); if it
    // agrees with `from_text`, that is all that is asked of it.
    let Ok(codec) = LoadedCodec::new(d.model.clone(), BuildOptions::default()) else {
        assert!(LoadedCodec::from_text(text).is_err());
        return;
    };
    let reference = Reference::new(&d.model);
    let probe: Vec<u8> = text.bytes().chain(0x80..=0x8F).chain([0xFF, 0xC0, 0x00]).take(REFERENCE_LIMIT).collect();
    let mut pos = 0;
    while pos < probe.len() {
        let input = &probe[pos..];
        let got = Decoder::step(&codec, input);
        let want = viewed(&d.model, reference.step(input));
        assert_eq!(got, want, "run-time tables vs reference on {input:02X?} for {text:?}");
        match got {
            Step::Value { value, len } => {
                let mut out = Vec::new();
                Encoder::encode_push(&codec, value, &mut out).expect("a decoded value encodes");
                if d.model.layout == Layout::Padded {
                    // A padded encoding decodes; the encoder writes the shortest.
                    assert!(out.len() <= len, "re-encoding U+{value:X} for {text:?}");
                    assert_eq!(Decoder::step(&codec, &out), Step::Value { value, len: out.len() });
                } else {
                    assert_eq!(out, &input[..len], "re-encoding U+{value:X} for {text:?}");
                }
                pos += len;
            }
            Step::Invalid { len } => pos += len,
            Step::Incomplete => break,
        }
    }
}
