//! The bit forms (`CodecInfo::bit_forms`) the compiler derives for the
//! built-in codecs of byte units, the formula they state against each
//! codec's own encoder, and the bulk encoder that writes with them
//! (`DynCodec::encode_block`, through `placemat_simd::encode_bit_forms`
//! where the machine has AVX-512) against one value at a time
//! (`DynCodec::encode_push`): the same units, and the same index refused;
//! and the decoder of the forms whose first units name them
//! (`placemat_simd::decode_bit_forms_into`, behind `DynCodec::decode_block`)
//! against the table walk: the same values, stopping at the same unit.

use placemat_codec::simd::{decode_bit_forms_into, decodes_bit_forms_on, encodes_bit_forms_on, BitForms, Isa};
use placemat_codec::{Codec, DynCodec};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::{Printable6, SourcemapVlq};
use placemat_variants::registry;

use crate::common::{agrees, xorshift, Noting};

/// The codecs with bit forms, and how many forms each has (at most eight:
/// SQLite's ninth, of nine units, is the encoder's alone). The printable
/// encodings' 64 symbols, their premap and the signed codecs' ZigZag and
/// low sign bit have them too (of raw values); SLEB128's two's complement
/// and UTF-1's digits have none.
const EXPECTED: [(&str, u8); 21] = [
    ("utf8", 4),
    ("fss-utf-xopen", 5),
    ("fss-utf-plan9", 6),
    ("ken-draft", 6),
    ("utf8-ext36", 7),
    ("utf8-ext42", 8),
    ("utf-ebcdic", 6),
    ("wtf8", 4),
    ("cesu8", 4),
    ("mutf8", 5),
    ("perl-utf8", 7),
    ("vlq", 4),
    ("git-ofs", 8),
    ("quic-varint", 4),
    ("sqlite-varint", 8),
    ("leb128", 8),
    ("hpack-int5", 8),
    ("hpack-int7", 8),
    ("printable6", 5),
    ("protobuf-sint64", 8),
    ("sourcemap-vlq", 7),
];

/// The codecs above whose values map to raw values before their forms.
const MAPPED: [&str; 3] = ["printable6", "protobuf-sint64", "sourcemap-vlq"];

#[test]
fn the_byte_codecs_have_the_forms_their_descriptions_spell() {
    for codec in registry::all() {
        let name = &codec.info().name;
        let want = EXPECTED.iter().find(|(n, _)| n == name).map(|&(_, count)| count);
        let forms = codec.info().bit_forms;
        assert_eq!(forms.map(|f| f.count), want, "{name}");
        assert_eq!(forms.map(|f| f.check()), want.map(|_| Ok(())), "{name}");
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        assert_eq!(loaded.info().bit_forms, forms, "{name}, loaded");
    }
    // X/Open's forms start at their biases; UTF-EBCDIC spells its I8 units by its map.
    let xopen = registry::find("fss-utf-xopen").unwrap().info().bit_forms.unwrap();
    assert_eq!(xopen.first[..5], [0, 0x80, 0x2080, 0x8_2080, 0x208_2080]);
    assert_eq!((xopen.bias, xopen.unit_map), (xopen.first, None));
    let ebcdic = registry::find("utf-ebcdic").unwrap().info().bit_forms.unwrap();
    assert_eq!(ebcdic.unit_map.map(|m| (m[0x0A], m[0x41])), Some((0x15, 0xC1)));
    // The printable encoding spells digits by its alphabet and maps ASCII
    // first (a space is the value 0); the source maps' VLQ has no raw 1.
    let printable = registry::find("printable6").unwrap().info();
    let forms = printable.bit_forms.unwrap();
    assert_eq!(forms.unit_map.map(|m| (m[0], m[0x3F])), Some((b' ', b'_')));
    assert_eq!((forms.value_map.map(|m| m[0x20]), printable.forms_raw(0x20)), (Some(0), Some(0)));
    let vlq = registry::find("sourcemap-vlq").unwrap().info();
    assert_eq!(vlq.bit_forms.unwrap().allowed, [(0, 0), (2, 0xFFFF_FFFF)]);
    assert_eq!([-1i64, 1, 1 << 31].map(|v| vlq.forms_raw(v as u64)), [Some(3), Some(2), None]);
    for codec in registry::all() {
        let mapped = codec.premapped() && codec.info().bit_forms.is_some();
        assert_eq!(mapped, MAPPED.contains(&&*codec.info().name), "{}", codec.info().name);
    }
}

/// `raws` as the codec's values: a signed codec's raw values read back by
/// its sign, and their negations, which sit in the same forms.
fn values_of(codec: &dyn DynCodec, raws: Vec<u64>) -> Vec<u64> {
    let info = codec.info();
    match info.sign {
        Some(sign) => raws.iter().flat_map(|&r| [sign.value(r, info.value_bits), r.wrapping_neg()]).collect(),
        None => raws,
    }
}

/// Values at and around each form's first value and the allowed values'
/// ends, the largest values, and random values of every size.
fn probes(forms: &BitForms, seed: u64) -> Vec<u64> {
    let mut edges: Vec<u64> = forms.first[..usize::from(forms.count)].to_vec();
    edges.extend(forms.allowed.iter().flat_map(|&(lo, hi)| [lo, hi, hi.wrapping_add(1)]));
    edges.extend([u64::MAX, 1 << 63, 0x7FFF_FFFF, 0x10_FFFF, 0xD800, 0xDFFF]);
    let mut next = xorshift(seed);
    let mut values: Vec<u64> = edges.iter().flat_map(|&e| [e.wrapping_sub(1), e, e.wrapping_add(1)]).collect();
    for _ in 0..3000 {
        let (r, at) = (next(), next());
        let v = match at % 4 {
            0 => r >> (at >> 2 & 63),
            1 => edges[(at >> 2) as usize % edges.len()].wrapping_add(r % 5),
            _ => r & 0x7F,
        };
        values.push(v);
    }
    values
}

#[test]
fn the_formula_writes_what_each_encoder_writes() {
    for &(name, _) in &EXPECTED {
        let codec = registry::find(name).unwrap();
        let forms = codec.info().bit_forms.unwrap();
        for v in values_of(codec, probes(&forms, 7)) {
            let mut units = [0u8; 8];
            let Some(raw) = codec.info().forms_raw(v) else { continue };
            // The formula maps by the forms' value map itself; a sign, the
            // caller.
            let n = forms.write(if codec.info().sign.is_some() { raw } else { v }, &mut units).unwrap();
            let mut want = Vec::new();
            codec.encode_push(v, &mut want).unwrap_or_else(|e| panic!("{name}: {v:#x} written by the forms: {e:?}"));
            assert_eq!(units[..n], want[..], "{name}: {v:#x}");
        }
    }
}

#[test]
fn every_codec_of_bit_forms_encodes_in_bulk_as_one_at_a_time() {
    for &(name, _) in &EXPECTED {
        let codec = registry::find(name).unwrap();
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        let forms = codec.info().bit_forms.unwrap();
        // Text-like runs: mostly short values, now and then any.
        let values = values_of(codec, probes(&forms, 11));
        let text: Vec<u64> = values.iter().map(|&v| if v % 7 == 0 { v } else { v & 0x7FF }).collect();
        let text = values_of(codec, text);
        for values in [&values, &text] {
            agrees(codec, values);
            agrees(&loaded, values);
        }
    }
}

#[test]
fn the_bulk_encoder_runs_the_kernel_where_the_machine_has_it() {
    let Some(isa) = Isa::detect().filter(|&isa| isa == Isa::Avx512) else { return };
    for &(name, _) in &EXPECTED {
        let codec = LoadedCodec::from_text(registry::find(name).unwrap().description()).unwrap();
        let info = codec.info();
        assert!(encodes_bit_forms_on(isa, info.bit_forms.as_ref().unwrap()), "{name}");
        let mut out = Vec::new();
        let ran = placemat_codec::encode_by_words(&codec, info, codec.premapped(), &[0x41, 0x80, 0x7FF], &mut out);
        assert_eq!(ran, Some(Ok(())), "{name}");
    }
}

/// A mapped codec's values written by the kernel after their map: its own
/// encoder sees only the value it refuses (once from the kernel, once
/// where the bulk encoder looks for the error), and the units are its own.
fn the_kernel_writes_mapped<C: Codec + Default + Send + Sync>(values: &[i64], refused: i64) {
    let name = &C::info().name;
    let mut values: Vec<u64> = values.iter().map(|&v| v as u64).collect();
    values.push(refused as u64);
    let noting = Noting::new(C::default());
    let mut bulk = Vec::new();
    let Some(result) = placemat_codec::encode_by_words(&noting, C::info(), C::PREMAPPED, &values, &mut bulk) else {
        return;
    };
    let (want, refused) = crate::common::one_at_a_time(&C::default(), &values);
    assert_eq!((result, &bulk[..]), (refused, &want[..]), "{name}");
    assert_eq!(refused, Err(values.len() - 1), "{name}");
    let seen = noting.seen();
    assert!(!seen.is_empty() && seen.iter().all(|&v| Some(&v) == values.last()), "{name}: the encoder saw {seen:x?}");
}

#[test]
fn mapped_values_are_written_by_the_kernel() {
    let text: Vec<i64> =
        (0..3000).map(|k| [k % 128, 0x400 + k, 0x4E00 + 7 * k, 0x1F600 + k % 80][k as usize % 4]).collect();
    the_kernel_writes_mapped::<Printable6>(&text, 0xD800);
    let offsets: Vec<i64> = (0..3000).map(|k| (k * k * 7919 % 100_003) - 50_000).collect();
    the_kernel_writes_mapped::<SourcemapVlq>(&offsets, i32::MIN.into());
    the_kernel_writes_mapped::<SourcemapVlq>(&[0, -1, 1, 0x7FFF_FFFF, -0x7FFF_FFFF], i32::MIN.into());
}

/// The codecs whose first units name their form, and which the SIMD
/// decoding kernel does not read: the decoder of the forms reads them.
const LEADS: [&str; 3] = ["fss-utf-xopen", "utf-ebcdic", "perl-utf8"];

#[test]
fn leads_are_stated_where_every_valid_sequence_is_its_values_encoding() {
    for &(name, _) in &EXPECTED {
        let codec = registry::find(name).unwrap();
        let forms = codec.info().bit_forms.unwrap();
        let unread = codec.dfa().decoding_shape().is_none();
        let read = forms.leads.is_some() && unread;
        assert_eq!(read, LEADS.contains(&name), "{name}");
    }
    // A unit leads the form whose first unit's fixed bits it has.
    let xopen = registry::find("fss-utf-xopen").unwrap().info().bit_forms.unwrap().leads.unwrap();
    assert_eq!([xopen[0x41], xopen[0x80], xopen[0xC0], xopen[0xE0], xopen[0xF0], xopen[0xF8]], [0, 1, 2, 3, 4, 0xFF]);
    // Modified UTF-8's C0 starts two forms (C0 80 is zero): no leads.
    assert_eq!(registry::find("mutf8").unwrap().info().bit_forms.unwrap().leads, None);
}

/// `codec`'s text of `values`, then cut, mutated and with stray units.
fn inputs(codec: &dyn DynCodec, seed: u64) -> Vec<Vec<u8>> {
    let mut next = xorshift(seed);
    let mut text = Vec::new();
    while text.len() < 6000 {
        let v = match next() % 8 {
            0..=2 => next() % 0x80,
            3 | 4 => 0x400 + next() % 0x100,
            5 => 0x4E00 + next() % 0x5000,
            6 => 0x1F600 + next() % 0x50,
            _ => next() % 0x11_0000,
        };
        let _ = codec.encode_push(v, &mut text);
    }
    let mut all = vec![text.clone()];
    for round in 0..6 {
        let mut bad = text.clone();
        let at = (next() as usize) % bad.len();
        match round % 3 {
            0 => bad[at] = next() as u8,
            1 => bad.insert(at, 0x80 | next() as u8),
            _ => bad.truncate(at),
        }
        all.push(bad);
    }
    all
}

#[test]
fn the_decoder_of_the_forms_agrees_with_the_table() {
    for name in LEADS {
        let codec = registry::find(name).unwrap();
        let forms = codec.info().bit_forms.unwrap();
        for (k, input) in inputs(codec, 5).iter().enumerate() {
            let mut walked: Vec<u64> = Vec::new();
            let valid =
                codec.dfa().decode_table_into(input, &mut walked).map_or_else(|e| e.valid_up_to(), |()| input.len());
            // The bulk decoder (the kernel where the machine has it, the
            // table after): the values up to the first error.
            let mut bulk = Vec::new();
            let took = codec.decode_block(input, &mut bulk);
            assert!(took <= valid && took + 16 >= valid, "{name} input {k}: {took} of {valid}");
            assert_eq!(bulk[..], walked[..bulk.len()], "{name} input {k}");
            // The kernel alone, stopping where its step says: at the first
            // value the forms do not hold, or the error.
            let Some(isa) = Isa::detect().filter(|&i| decodes_bit_forms_on(i, &forms)) else { continue };
            let mut fast: Vec<u64> = Vec::new();
            let (values, units) =
                decode_bit_forms_into(isa, &forms, input, usize::MAX, &mut fast, |_: &[u8]| None::<(u64, usize)>);
            assert_eq!(fast.len(), values);
            assert!(units <= valid, "{name} input {k}");
            assert_eq!(fast[..], walked[..values], "{name} input {k}");
            if k == 0 {
                assert!(units + 200 > valid, "{name}: the kernel took {units} of {valid} valid units");
            }
        }
    }
}

/// A form whose units could spell more than its range: the decoder refuses
/// a unit of the one-unit form above its last value, as the table does.
#[test]
fn the_decoder_keeps_to_each_forms_range() {
    let codec = LoadedCodec::from_text(
        r#"pub Short { name: "short", value: u32, range: 0 ..= 0x7FF, layout: explicit,
            forms: { 0 ..= 0x3F => "0xxxxxxx", 0x40 ..= 0x7FF => "110xxxxx 10xxxxxx" } }"#,
    )
    .unwrap();
    let forms = codec.info().bit_forms.unwrap();
    assert!(forms.leads.is_some());
    let codec: &dyn DynCodec = &codec;
    let mut input = Vec::new();
    for k in 0..1500u64 {
        codec.encode_push(if k % 3 == 0 { k % 0x40 } else { 0x40 + k }, &mut input).unwrap();
    }
    let at = input.len() / 2 + (input[input.len() / 2] >= 0xC0) as usize;
    input.insert(at, 0x50);
    let mut walked: Vec<u64> = Vec::new();
    let valid = codec.dfa().decode_table_into(&input, &mut walked).unwrap_err().valid_up_to();
    let Some(isa) = Isa::detect().filter(|&i| decodes_bit_forms_on(i, &forms)) else { return };
    let mut fast: Vec<u64> = Vec::new();
    let (values, units) =
        decode_bit_forms_into(isa, &forms, &input, usize::MAX, &mut fast, |_: &[u8]| None::<(u64, usize)>);
    assert_eq!((units, &fast[..]), (valid, &walked[..values]));
}
