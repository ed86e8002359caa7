//! The transcoder's bulk path (blocks of values from `DynCodec::decode_block`
//! into `DynCodec::encode_block`) against the per-value path it replaces:
//! for every pair of built-in codecs, on valid, mutated and boundary inputs,
//! cut into chunks in several ways, the output, the strict error (offset and
//! kind) and the replacement output are the same.

use placemat_codec::io::{ErrorMode, TranscodeError, Transcoder};
use placemat_codec::DynCodec;
use placemat_compiler::analysis::Rng;
use placemat_variants::registry;

use super::fuzz_seeds::targets::PerValue;
use crate::common::spy::counting;

/// What a transcoding gives: the output and the error that stopped it.
pub(super) type Outcome = (Vec<u8>, Option<TranscodeError>);

/// `input` transcoded in the pieces `cuts` makes of it.
pub(super) fn transcode(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    mode: ErrorMode,
    input: &[u8],
    cuts: &[usize],
) -> Outcome {
    transcode_with(Transcoder::new(from, to, mode).unwrap(), input, cuts)
}

/// `input` transcoded one value at a time ([`PerValue`] codecs, and no copy
/// of a codec into itself), in the pieces `cuts` makes of it: the reference.
pub(super) fn per_value(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    mode: ErrorMode,
    input: &[u8],
    cuts: &[usize],
) -> Outcome {
    let (from, to) = (PerValue(from), PerValue(to));
    let engine = Transcoder::new(&from, &to, mode).unwrap();
    transcode_with(engine.one_value_at_a_time(), input, cuts)
}

/// `input` transcoded by `engine` in the pieces `cuts` makes of it.
fn transcode_with(mut engine: Transcoder, input: &[u8], cuts: &[usize]) -> Outcome {
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain([&input.len()]) {
        if let Err(e) = engine.push(&input[at..cut], &mut out) {
            return (out, Some(e));
        }
        at = cut;
    }
    let err = engine.finish(&mut out).err();
    (out, err)
}

/// Random values the codec encodes: ASCII but for one in `other` (long
/// runs where `other` is large), those anywhere in its range, encoded back
/// to back.
fn valid_text(rng: &mut Rng, codec: &dyn DynCodec, values: usize, other: usize) -> Vec<u8> {
    let info = codec.info();
    let top = if info.unbounded { u64::from(u32::MAX) } else { info.max.min(u64::MAX - 1) };
    let mut out = Vec::new();
    // A signed codec's bounds are patterns: values of either sign from 0 up.
    let (min, signed) = if info.sign.is_some() { (0, true) } else { (info.min, false) };
    for _ in 0..values {
        let v = if rng.one_in(other) { rng.range(min, top) } else { rng.range(0x20, 0x7E) };
        let mut v = v.max(min);
        if rng.one_in(4) {
            v = v.min(0x7FF).max(min);
        }
        if signed && rng.one_in(2) {
            v = v.wrapping_neg();
        }
        // Unencodable picks are skipped: the text stays valid.
        let _ = codec.encode_push(v, &mut out);
    }
    out
}

/// Inputs for one source: valid text, the same with edits (a flipped, a
/// dropped, an inserted unit), an open sequence at the end, and text of long
/// ASCII runs (with U+0000 among them) with an edit.
pub(super) fn inputs(rng: &mut Rng, codec: &dyn DynCodec) -> Vec<Vec<u8>> {
    let text = valid_text(rng, codec, 300, 3);
    let mut runs = valid_text(rng, codec, 400, 60);
    let _ = codec.encode_push(0, &mut runs);
    runs.extend(valid_text(rng, codec, 100, 60));
    let mut all = vec![text.clone(), runs.clone()];
    if let Some(at) = runs.len().checked_sub(150) {
        runs[at] ^= 0x80;
        all.push(runs);
    }
    for _ in 0..3 {
        let mut bad = text.clone();
        if bad.is_empty() {
            break;
        }
        let at = rng.below(bad.len());
        match rng.below(3) {
            0 => bad[at] ^= 1 << rng.below(8),
            1 => {
                bad.remove(at);
            }
            _ => bad.insert(at, rng.range(0, 255) as u8),
        }
        all.push(bad);
    }
    let mut cut = text.clone();
    cut.truncate(text.len().saturating_sub(1));
    all.push(cut);
    all
}

/// Cut points: none, pieces of 1 to 7 units, and pieces of about a block.
pub(super) fn cuttings(rng: &mut Rng, len: usize) -> Vec<Vec<usize>> {
    let pieces = |rng: &mut Rng, most: u64| {
        let mut cuts = Vec::new();
        let mut at = 0;
        while at < len {
            at = (at + rng.range(1, most) as usize).min(len);
            cuts.push(at);
        }
        cuts
    };
    vec![Vec::new(), pieces(rng, 7), pieces(rng, 400)]
}

#[test]
fn every_pair_transcodes_in_bulk_as_value_by_value() {
    let mut rng = Rng::new(0x7A4E_5C0D);
    let codecs = registry::all();
    for &from in codecs {
        let texts = inputs(&mut rng, from);
        for &to in codecs {
            for input in &texts {
                for cuts in cuttings(&mut rng, input.len()) {
                    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                        if mode == ErrorMode::Replace && Transcoder::new(from, to, mode).is_err() {
                            continue;
                        }
                        let bulk = transcode(from, to, mode, input, &cuts);
                        let single = per_value(from, to, mode, input, &cuts);
                        let (f, t) = (&from.info().name, &to.info().name);
                        assert!(bulk == single, "{f} -> {t} {mode:?} {input:02X?} cut at {cuts:?}");
                    }
                }
            }
        }
    }
}

/// `PLACEMAT_ISA` caps the instruction sets the kernels use (CI runs this
/// file's tests as an AVX2, an SSE4.1 and a scalar machine): where it names
/// one this machine has, that is the one detected, and none is listed above it.
#[test]
fn the_probe_is_capped_by_placemat_isa() {
    use placemat_codec::simd::Isa;
    let Some(name) = std::env::var("PLACEMAT_ISA").ok() else { return };
    let allowed = Isa::below(&name).unwrap_or_else(|| panic!("CI names a known instruction set, not {name:?}"));
    assert!(Isa::all().into_iter().flatten().all(|isa| allowed.contains(&isa)), "{name}: {:?}", Isa::all());
    let best = allowed.first().copied();
    assert!(Isa::detect() == best || best.is_some_and(|isa| !Isa::all().contains(&Some(isa))), "{name}");
}

/// Between the UTF-8 family and UTF-16/32, in both directions, clean blocks
/// go through a one-pass kernel where the machine has one: on long texts of
/// every script mix, with errors, cut in every way, it gives what the blocks
/// of values and the per-value path give.
#[test]
fn the_one_pass_kernels_agree_with_the_blocks_and_the_per_value_path() {
    let mut rng = Rng::new(0x0E_BA55);
    let wide: Vec<_> = ["utf16le", "utf16be", "utf32le", "utf32be"].map(|n| registry::find(n).unwrap()).into();
    let (utf8, utf16) = (registry::find("utf8").unwrap(), wide[0]);
    // The pairs the kernels exist for qualify, exactly where the machine
    // has SIMD (`PLACEMAT_ISA` caps what it has: CI runs this test as an
    // AVX2, an SSE4.1 and a scalar machine too).
    let kernel = placemat_codec::simd::Isa::detect().is_some();
    assert_eq!(Transcoder::new(utf8, utf16, ErrorMode::Strict).unwrap().one_pass(), kernel);
    assert_eq!(Transcoder::new(utf16, utf8, ErrorMode::Strict).unwrap().one_pass(), kernel);
    // Forms of one unit alone (QUIC's values below 64) are no target of the
    // kernel: its own bulk encoder writes every value.
    let quic = registry::find("quic-varint").unwrap();
    assert!(quic.info().byte_forms.is_some_and(|f| !f.multi_unit()));
    assert!(!Transcoder::new(utf16, quic, ErrorMode::Strict).unwrap().one_pass());
    let family: Vec<_> = registry::all().iter().copied().filter(|c| c.dfa().decoding_shape().is_some()).collect();
    let written: Vec<_> = registry::all().iter().copied().filter(|c| c.info().byte_forms.is_some()).collect();
    assert!(written.iter().any(|c| c.info().name == "utf8") && written.len() >= 5, "{}", written.len());
    let pairs = family.iter().flat_map(|&f| wide.iter().map(move |&t| (f, t)));
    let pairs = pairs.chain(wide.iter().flat_map(|&f| written.iter().map(move |&t| (f, t))));
    for (from, to) in pairs {
        let mut texts = Vec::new();
        for other in [1, 3, 40] {
            let text = valid_text(&mut rng, from, 3000, other);
            let mut bad = text.clone();
            let at = rng.below(bad.len());
            bad[at] = rng.range(0x80, 0xFF) as u8;
            texts.extend([text, bad]);
        }
        for input in &texts {
            for cuts in cuttings(&mut rng, input.len()) {
                for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                    let Ok(engine) = Transcoder::new(from, to, mode) else { continue };
                    let fused = transcode_with(engine, input, &cuts);
                    let blocks =
                        transcode_with(Transcoder::new(from, to, mode).unwrap().without_one_pass(), input, &cuts);
                    let single = per_value(from, to, mode, input, &cuts);
                    let (f, t) = (&from.info().name, &to.info().name);
                    assert!(fused == blocks && blocks == single, "{f} -> {t} {mode:?} cut at {cuts:?}");
                }
            }
        }
    }
}

/// The block operations of a generated codec: a long valid text is decoded
/// in one block (this fails if the generated codecs lose their bulk decoder)
/// and encoded in one, and a block stops at the first error with the values
/// before it.
#[test]
fn clean_text_goes_through_blocks() {
    let utf8 = registry::find("utf8").unwrap();
    let utf16 = registry::find("utf16le").unwrap();
    let text = "ab€😀".repeat(1000);
    let mut values = Vec::new();
    assert_eq!(utf8.decode_block(text.as_bytes(), &mut values), text.len());
    assert_eq!(values.len(), 4000);
    let mut out = Vec::new();
    utf16.encode_block(None, &values, &mut out).unwrap();
    let want: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert_eq!(out, want);
    // A block stops at the first error, with the values before it.
    let mut bad = text.as_bytes().to_vec();
    bad[7] = 0xFF;
    values.clear();
    assert_eq!(utf8.decode_block(&bad, &mut values), 5);
    assert_eq!(values, [0x61, 0x62, 0x20AC]);
    // Codecs that map the table's values (a sign, a pre-mapping) decode in
    // blocks too, each value mapped; so does the same description loaded at
    // run time.
    for name in ["protobuf-sint64", "sleb128", "sourcemap-vlq", "printable6"] {
        let codec = registry::find(name).unwrap();
        let loaded = placemat_compiler::LoadedCodec::from_text(codec.description()).unwrap();
        let wanted: Vec<u64> = match codec.info().sign {
            Some(_) => [-1i64, 5, -300, 70_000, 0].map(|v| v as u64).into(),
            None => "Hello, World 42".chars().map(u64::from).collect(),
        };
        let mut bytes = Vec::new();
        wanted.iter().for_each(|&v| codec.encode_push(v, &mut bytes).unwrap());
        for c in [codec, &loaded as &dyn DynCodec] {
            values.clear();
            assert_eq!(c.decode_block(&bytes, &mut values), bytes.len(), "{name}");
            assert_eq!(values, wanted, "{name}");
        }
    }
}

/// An integer codec's blocks are read by its integer fact (where units mark
/// the ends, or the first unit gives the length), not by the table's walk:
/// given LEB128's fact and VLQ's table, `decode_to_cut` reads `81 00` as
/// LEB128's 1, where VLQ's walk gives 128; QUIC's fact beside UTF-8's table
/// (whose walk reads each of these units as a value) reads `40 25` as one
/// value. The integer codecs' blocks, generated and loaded, give the values
/// encoded on a long stream, and stop before a last value cut.
#[test]
fn integer_blocks_are_read_by_the_codecs_fact() {
    let [leb128, vlq, quic, utf8] = ["leb128", "vlq", "quic-varint", "utf8"].map(|n| registry::find(n).unwrap());
    let mut values = Vec::new();
    let took = placemat_codec::decode_to_cut(leb128.info(), &vlq.dyn_dfa(), &[0x81, 0x00], &mut values);
    assert_eq!((took, values.as_slice()), (2, &[1u64][..]));
    values.clear();
    assert_eq!(placemat_codec::decode_to_cut(vlq.info(), &vlq.dyn_dfa(), &[0x81, 0x00], &mut values), 2);
    assert_eq!(values, [128]);
    assert!(quic.info().prefixed.is_some() && utf8.info().prefixed.is_none());
    values.clear();
    let took = placemat_codec::decode_to_cut(quic.info(), &utf8.dyn_dfa(), &[0x40, 0x25, 0x07], &mut values);
    assert_eq!((took, values.as_slice()), (3, &[0x25u64, 7][..]));
    let mut rng = Rng::new(31);
    for codec in [leb128, vlq, quic, registry::find("sleb128").unwrap()] {
        let loaded = placemat_compiler::LoadedCodec::from_text(codec.description()).unwrap();
        let mut bytes = Vec::new();
        let mut wanted = Vec::new();
        // (The last value, 300, takes two units in each of them.)
        let random = (0..5000).map(|_| (rng.next_u64() & ((1 << 40) - 1)) >> rng.below(40));
        for v in random.chain([300]) {
            if codec.dyn_encode_push(v, &mut bytes).is_ok() {
                wanted.push(v);
            }
        }
        let mut last = Vec::new();
        codec.dyn_encode_push(300, &mut last).unwrap();
        assert_eq!((wanted.last(), last.len()), (Some(&300), 2), "{}", codec.info().name);
        for c in [codec, &loaded as &dyn DynCodec] {
            values.clear();
            let name = &c.info().name;
            assert_eq!(c.decode_block(&bytes, &mut values), bytes.len(), "{name}");
            assert_eq!(values, wanted, "{name}");
            // Cut inside the last value: the block ends before it.
            values.clear();
            assert_eq!(c.decode_block(&bytes[..bytes.len() - 1], &mut values), bytes.len() - 2, "{name}");
            assert_eq!(values, wanted[..wanted.len() - 1], "{name}");
        }
    }
}

/// A codec of wide code units reads its blocks by the units' kernel, pairs
/// joined (`convert_units`), and by the table's step where the kernel stops
/// short of an error: UTF-16 and UTF-32 in both byte orders, generated and
/// loaded, on text dense with pairs, give the table walk's values up to its
/// first error exactly: a lone low surrogate, a high one before another unit
/// or at the end, an odd last byte, a value above the range.
#[test]
fn wide_blocks_are_read_by_the_units_kernel() {
    let mut rng = Rng::new(47);
    for name in ["utf16le", "utf16be", "utf32le", "utf32be"] {
        let codec = registry::find(name).unwrap();
        let loaded = placemat_compiler::LoadedCodec::from_text(codec.description()).unwrap();
        let clean = valid_text(&mut rng, codec, 3000, 3);
        let unit = if name.starts_with("utf16") { 2 } else { 4 };
        let big = name.ends_with("be");
        let write = |v: u32| -> Vec<u8> {
            let bytes = v.to_be_bytes();
            let bytes = &bytes[4 - unit..];
            if big {
                bytes.to_vec()
            } else {
                bytes.iter().rev().copied().collect()
            }
        };
        let mut inputs = vec![clean.clone(), clean[..clean.len() - 1].to_vec()];
        for bad in [vec![0xDC00], vec![0xD800, 0x0041], vec![0xD800], vec![0x11_0000]] {
            for at in [0, 62, 64, 1000, clean.len() / unit] {
                let mut input = clean[..at * unit].to_vec();
                bad.iter().for_each(|&v| input.extend(write(v)));
                input.extend_from_slice(&clean[at * unit..]);
                inputs.push(input);
            }
        }
        for input in &inputs {
            let mut walked: Vec<u64> = Vec::new();
            let valid = codec
                .dyn_dfa()
                .decode_table_into(input, &mut walked)
                .map_or_else(|e| e.valid_up_to(), |()| input.len());
            for c in [codec, &loaded as &dyn DynCodec] {
                let mut values = Vec::new();
                assert_eq!(c.decode_block(input, &mut values), valid, "{name}");
                assert_eq!(values, walked, "{name}");
            }
        }
    }
}

/// Blocks from CESU-8 and modified UTF-8 into targets without a one-pass
/// path go through the 16-bit units' kernels, and agree with the per-value
/// path around lone and cut halves of pairs, bad units and the kernels'
/// groups of 32 units, however the input is cut.
#[test]
fn pair_form_blocks_are_read_through_16_bit_units() {
    let mut rng = Rng::new(91);
    let simd = placemat_codec::simd::Isa::detect().is_some_and(placemat_codec::simd::converts_units_on);
    let lone_high = [0xED, 0xA0, 0x80];
    let lone_low = [0xED, 0xB0, 0x80];
    let bad: [&[u8]; 6] = [&lone_high, &lone_low, &[0xC0, 0x80], &[0xFF], &[0xED, 0xA0], &[0xE4, 0xB8]];
    for from in ["cesu8", "mutf8"].map(|n| registry::find(n).unwrap()) {
        let clean = valid_text(&mut rng, from, 3000, 2);
        let mut inputs = vec![clean.clone()];
        for bytes in bad {
            for at in [0, 62, 64, 95, 1000, clean.len() - 1] {
                // At a sequence's start at or after `at`.
                let at = (at..clean.len()).find(|&k| clean[k] & 0xC0 != 0x80).unwrap_or(clean.len());
                let mut input = clean[..at].to_vec();
                input.extend_from_slice(bytes);
                input.extend_from_slice(&clean[at..]);
                inputs.push(input);
            }
        }
        for to in ["leb128", "utf1", "utf-ebcdic", "fss-utf-xopen", "hpack-int5", "printable6"] {
            let to = registry::find(to).unwrap();
            let engine = Transcoder::new(from, to, ErrorMode::Strict).unwrap();
            assert_eq!(engine.pair_blocks(), simd, "{} -> {}", from.info().name, to.info().name);
            assert!(!engine.one_value_at_a_time().pair_blocks());
            for input in &inputs {
                for cuts in cuttings(&mut rng, input.len()) {
                    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                        let (f, t) = (&from.info().name, &to.info().name);
                        let bulk = transcode(from, to, mode, input, &cuts);
                        assert!(bulk == per_value(from, to, mode, input, &cuts), "{f} -> {t} {mode:?} cut at {cuts:?}");
                    }
                }
            }
        }
    }
}

/// An unbounded codec's blocks (`printable6-big`, compiled and loaded) are
/// stepped with checked arithmetic up to the first value past 64 bits,
/// which the per-value path then decodes exactly, and its 64-bit values are
/// written in one loop: the values and the transcodings are the per-value
/// path's, however the input is cut.
#[test]
fn unbounded_blocks_stop_before_values_past_64_bits() {
    use num_bigint::BigUint;
    let codec = registry::find("printable6-big").unwrap();
    let loaded = placemat_compiler::LoadedCodec::from_text(codec.description()).unwrap();
    let mut rng = Rng::new(5);
    let small = valid_text(&mut rng, codec, 2000, 3);
    let mut input = small.clone();
    let at = input.len();
    codec.dyn_encode_big(&(BigUint::from(1u8) << 70u32), &mut input).unwrap();
    input.extend_from_slice(&small);
    for c in [codec, &loaded as &dyn DynCodec] {
        let (mut bulk, mut stepped) = (Vec::new(), Vec::new());
        assert_eq!(c.decode_block(&input, &mut bulk), at);
        let mut pos = 0;
        while let placemat_codec::Step::Value { value, len } =
            c.step_open(placemat_codec::Strategy::Table, 0, &input[pos..])
        {
            stepped.push(value);
            pos += len;
        }
        assert_eq!((pos, bulk), (at, stepped));
    }
    // Its bulk encoder writes the 64-bit view as the encoder does, value by value.
    let values = [0, 1, 31, 32, 0x7F, 1 << 40, (1 << 63) - 1, 1 << 63, u64::MAX];
    for c in [codec, &loaded as &dyn DynCodec] {
        let (mut bulk, mut each) = (Vec::new(), Vec::new());
        c.encode_block(None, &values, &mut bulk).unwrap();
        values.iter().for_each(|&v| c.encode_push(v, &mut each).unwrap());
        assert_eq!(bulk, each);
    }
    for to in ["utf8-ext42", "leb128", "printable6-big", "vlq"].map(|n| registry::find(n).unwrap()) {
        for cuts in cuttings(&mut rng, input.len()) {
            for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                let name = &to.info().name;
                let bulk = transcode(codec, to, mode, &input, &cuts);
                assert!(bulk == per_value(codec, to, mode, &input, &cuts), "{name} {mode:?} cut at {cuts:?}");
            }
        }
    }
}

/// The one-call API: the same as a `Transcoder` pushed the whole buffer, and
/// in replace mode a target without U+FFFD is refused at offset 0.
#[test]
fn a_whole_buffer_transcodes_in_one_call() {
    use placemat_codec::io::{transcode_into, TranscodeErrorKind};
    let utf8 = registry::find("utf8").unwrap();
    let ascii = placemat_compiler::LoadedCodec::from_text(
        r#"pub Ascii { name: "ascii", value: u32, range: 0 ..= 0x7F, forms: { "0xxxxxxx" } }"#,
    )
    .unwrap();
    let mut out = Vec::new();
    let err = transcode_into(utf8, &ascii, ErrorMode::Replace, b"abc", &mut out).unwrap_err();
    assert_eq!((err.offset(), err.kind()), (0, &TranscodeErrorKind::Unencodable { value: 0xFFFD }));
    let err = transcode_into(utf8, &ascii, ErrorMode::Strict, "ab\u{E9}".as_bytes(), &mut out).unwrap_err();
    assert_eq!((out.as_slice(), err.offset()), (&b"ab"[..], 2));
    let input = "añ😀".repeat(100);
    let mut whole = Vec::new();
    transcode_into(utf8, registry::find("utf32be").unwrap(), ErrorMode::Strict, input.as_bytes(), &mut whole).unwrap();
    let want: Vec<u8> = input.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect();
    assert_eq!(whole, want);
}

/// A codec into itself is copied where the compiler proved each valid
/// sequence to be its encoder's writing of its value (`compare`'s
/// `canonical`, values bounded, no rules across values), on every machine;
/// elsewhere it is decoded and encoded again, as a codec with two
/// encodings of one value needs (one of them is rewritten).
#[test]
fn a_codec_copies_into_itself_exactly_where_it_is_canonical() {
    let mut copied = Vec::new();
    for &codec in registry::all() {
        let name = &codec.info().name;
        let model = placemat_compiler::LoadedCodec::from_text(codec.description()).unwrap().model().clone();
        let canonical = placemat_compiler::analysis::structure::analyze(&model).canonical;
        let copies = canonical.is_yes() && model.is_bounded() && codec.dfa().contexts() == 1;
        let engine = Transcoder::new(codec, codec, ErrorMode::Strict).unwrap();
        assert_eq!(engine.copies(), copies, "{name}");
        // A codec not copied whole may still copy the runs it reads alike
        // in every context (modified UTF-8, WTF-8: all but their surrogates).
        let runs = engine.copied_runs().is_some();
        assert_eq!(engine.one_pass(), copies || runs, "{name}");
        assert!(!(copies && runs), "{name}");
        assert_eq!(codec.info().canonical, canonical.is_yes() && model.is_bounded(), "{name}");
        if copies {
            copied.push(name.to_string());
        }
    }
    for name in ["utf8", "utf16le", "utf32be", "cesu8", "utf1", "printable6"] {
        assert!(copied.iter().any(|c| c == name), "{name} is not copied into itself: {copied:?}");
    }
    // Copied: a long text with an error near its end, strict and replaced.
    let utf8 = registry::find("utf8").unwrap();
    let mut text = "ab€😀 дом 漢字 ".repeat(20_000).into_bytes();
    let at = text.len() - 5;
    text[at] = 0xFF;
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        let cuts = [100_000, 100_003, 300_001];
        assert!(transcode(utf8, utf8, mode, &text, &cuts) == per_value(utf8, utf8, mode, &text, &cuts), "{mode:?}");
    }
}

/// Blocks of values go into a target of the UTF-8 family by the SIMD kernel
/// from code units, and into UTF-16 by the kernel that rewrites units,
/// where the machine has them: the target's own encoder writes only the
/// values the kernel stops at (a value past what the target's forms hold
/// as data; without AVX-512, UTF-16's pairs) and a few around them, or, where the stops
/// come close together (a CESU-8 target's supplementary values, one in 27
/// here), takes the text over in growing stretches; the output is the
/// per-value path's.
#[test]
fn blocks_of_values_are_written_by_the_kernel_into_the_utf8_family() {
    // (Where the machine narrows values: AVX2.)
    let kernel = placemat_codec::simd::Isa::detect().is_some_and(placemat_codec::simd::narrows_on);
    let avx512 = placemat_codec::simd::Isa::detect() == Some(placemat_codec::simd::Isa::Avx512);
    let find = |name| registry::find(name).unwrap();
    let text: String = "naïve café, дом, 漢字 and 😀; ".repeat(400);
    // UTF-1 has no one-pass path: its text goes through blocks of values.
    let utf1 = find("utf1");
    let (mut plain, mut big) = (Vec::new(), Vec::new());
    for (k, c) in text.chars().enumerate() {
        utf1.encode_push(u64::from(c), &mut plain).unwrap();
        let v = if k % 97 == 0 { 0x70_0000 + k as u64 } else { u64::from(c) };
        utf1.encode_push(v, &mut big).unwrap();
    }
    let values = text.chars().count();
    let stops = values.div_ceil(97);
    // The values the target's encoder is given, at least and at most.
    let cases = [
        (find("utf8"), plain.clone(), (0, 64)),
        (find("utf16le"), plain.clone(), (0, 64)),
        (find("utf16be"), plain.clone(), (0, 64)),
        (find("cesu8"), plain, (values / 2, values)),
        (find("utf8-ext42"), big, (stops, 16 * stops + 64)),
    ];
    for (to, input, (least, most)) in cases {
        let counting = counting(to);
        let (names, mode) = ((&utf1.info().name, &to.info().name), ErrorMode::Strict);
        let got = transcode(utf1, &counting, mode, &input, &[input.len() / 3]);
        assert!(got == per_value(utf1, to, mode, &input, &[]) && got.1.is_none(), "{names:?}");
        let encoded = counting.count();
        // (Into UTF-16, the kernel that rewrites units writes pairs with
        // AVX-512; with AVX2 it stops at each.)
        let wide = to.info().wide_forms.units.unit_bytes() == 2;
        let (least, most) = match (kernel, to.info().byte_forms.is_some() || wide && avx512, wide) {
            (true, true, _) => (least, most),
            (true, false, true) => (0, values),
            _ => (values / 2, values),
        };
        assert!((least..=most).contains(&encoded), "{names:?}: {encoded} of {values}");
    }
}

/// Between codecs that read most text alike (CESU-8 and modified UTF-8 and
/// UTF-8), long runs copied and clusters of sequences read apart between
/// them (which the engine takes as blocks of values of their own): valid,
/// mutated and cut in every way, the per-value path's output and errors.
#[test]
fn runs_read_alike_and_clusters_read_apart_agree_with_the_per_value_path() {
    let mut rng = Rng::new(0xC1_0573);
    let find = |name| registry::find(name).unwrap();
    let (utf8, cesu8, mutf8) = (find("utf8"), find("cesu8"), find("mutf8"));
    let text: String = (0..40)
        .map(|k| format!("{}{}", "дом и сад, 漢字 ".repeat(20 + k % 7), "😀🎉 ✨🚀".repeat(1 + k % 3)))
        .collect();
    for (from, to) in [(cesu8, utf8), (utf8, cesu8), (mutf8, utf8), (utf8, mutf8)] {
        let mut input = Vec::new();
        text.chars().for_each(|c| from.encode_push(u64::from(c), &mut input).unwrap());
        let mut bad = input.clone();
        let at = rng.below(bad.len());
        bad[at] = 0xED;
        for input in [input, bad] {
            for cuts in cuttings(&mut rng, input.len()) {
                for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                    let names = (&from.info().name, &to.info().name);
                    let got = transcode(from, to, mode, &input, &cuts);
                    assert!(got == per_value(from, to, mode, &input, &cuts), "{names:?} {mode:?} cut at {cuts:?}");
                }
            }
        }
    }
}

/// Between the codecs of wide code units, runs of units outside the
/// surrogates are rewritten unit for unit (where the machine has the
/// kernel), and the output, strict error and replacements are the per-value
/// path's: on text of long runs broken by surrogate pairs, a lone surrogate,
/// a unit past U+10FFFF, and a trailing odd byte, cut into chunks.
#[test]
fn wide_units_are_rewritten_unit_for_unit_as_values_would_be() {
    let mut rng = Rng::new(0x5EED_1632);
    let wide = ["utf16le", "utf16be", "utf32le", "utf32be"].map(|n| registry::find(n).unwrap());
    let kernel = placemat_codec::simd::Isa::detect().is_some_and(placemat_codec::simd::converts_units_on);
    let bmp = [(0, 0xD7FF), (0xE000, 0xFFFF)];
    // Not between a wide codec and one of bytes, nor for a codec of bytes.
    let utf8 = registry::find("utf8").unwrap();
    assert_eq!(Transcoder::new(utf8, wide[0], ErrorMode::Strict).unwrap().units_alike(), None);
    assert_eq!(Transcoder::new(wide[0], utf8, ErrorMode::Strict).unwrap().units_alike(), None);
    for from in wide {
        for to in wide {
            let engine = Transcoder::new(from, to, ErrorMode::Strict).unwrap();
            let (f, t) = (&from.info().name, &to.info().name);
            // Both 32-bit: every scalar value; else the BMP's.
            let alike =
                if f.starts_with("utf32") && t.starts_with("utf32") { [(0, 0xD7FF), (0xE000, 0x10_FFFF)] } else { bmp };
            // (A codec into itself copies its validated blocks instead.)
            let expected = (kernel && f != t).then_some(alike);
            assert_eq!(engine.units_alike(), expected, "{f} -> {t}");
            assert_eq!(engine.one_value_at_a_time().units_alike(), None);
            let mut inputs = Vec::new();
            for round in 0..6 {
                let mut input = Vec::new();
                for _ in 0..600 {
                    let c = match rng.below(60) {
                        0 => rng.range(0x1_0000, 0x10_FFFF),
                        1 if round > 2 => rng.range(0xD800, 0xDFFF),
                        2 if round > 2 => rng.range(0x11_0000, 0xFFFF_FFFF),
                        _ => rng.range(0x400, 0x4FF),
                    };
                    if from.encode_push(c, &mut input).is_err() {
                        // (A lone surrogate or a unit past the range, written raw.)
                        let unit = from.info().max_units.map_or(4, |m| m.min(4));
                        let bytes = if from.info().name.ends_with("be") { c.to_be_bytes() } else { c.to_le_bytes() };
                        let at = if from.info().name.ends_with("be") { 8 - unit } else { 0 };
                        input.extend_from_slice(&bytes[at..at + unit]);
                    }
                }
                if round == 5 {
                    input.push(0x41);
                }
                inputs.push(input);
            }
            for input in &inputs {
                for cuts in cuttings(&mut rng, input.len()) {
                    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                        let engine = transcode(from, to, mode, input, &cuts);
                        assert!(engine == per_value(from, to, mode, input, &cuts), "{f} -> {t} {mode:?} {cuts:?}");
                    }
                }
            }
        }
    }
}
