//! The wide forms (`CodecInfo::wide_forms`) the compiler derives for the
//! built-in codecs of 16- and 32-bit units, and the bulk encoder that writes
//! with them (`DynCodec::encode_block`) against one value at a time
//! (`DynCodec::encode_push`), for every value up to past U+10FFFF and values
//! far beyond it: the same units, and the same index refused.

use placemat_codec::{AsciiRuns, PairForm, WideForms};

use crate::common::agrees;
use placemat_compiler::LoadedCodec;
use placemat_variants::registry;

const SURROGATES: PairForm =
    PairForm { lo: 0x10000, hi: 0x10FFFF, bias: 0x10000, high: 0xD800, low: 0xDC00, low_bits: 10 };

#[test]
fn the_wide_codecs_have_the_forms_their_standards_state() {
    let bmp = [(0, 0xD7FF), (0xE000, 0xFFFF)];
    let scalar = [(0, 0xD7FF), (0xE000, 0x10FFFF)];
    let expected = [
        ("utf16le", WideForms { units: AsciiRuns::U16Le, single: bmp, pair: Some(SURROGATES) }),
        ("utf16be", WideForms { units: AsciiRuns::U16Be, single: bmp, pair: Some(SURROGATES) }),
        ("utf32le", WideForms { units: AsciiRuns::U32Le, single: scalar, pair: None }),
        ("utf32be", WideForms { units: AsciiRuns::U32Be, single: scalar, pair: None }),
    ];
    for (name, forms) in expected {
        let codec = registry::find(name).unwrap();
        assert_eq!(codec.info().wide_forms, forms, "{name}, generated");
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        assert_eq!(loaded.info().wide_forms, forms, "{name}, loaded");
    }
    // Byte codecs have none.
    for codec in registry::all().iter().filter(|c| c.dfa().facts().unit_bytes == 1) {
        assert_eq!(codec.info().wide_forms, WideForms::NONE, "{}", codec.info().name);
    }
}

#[test]
fn every_value_encodes_in_bulk_as_one_at_a_time() {
    let mut beyond: Vec<u64> = (0..64).map(|k| 0x10_FFFF + (1 << (k % 40)) + k).collect();
    beyond.extend([u64::MAX, 1 << 32, (1 << 32) + 0x41, 0xFFFF_FFFF]);
    for name in ["utf16le", "utf16be", "utf32le", "utf32be"] {
        let codec = registry::find(name).unwrap();
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        // Every value to past the top, in order; values beyond, among them
        // ones whose low 32 bits are in range.
        let all: Vec<u64> = (0..=0x11_0100).collect();
        let mixed: Vec<u64> = beyond.iter().flat_map(|&v| [0x41, v, 0xE9, 0x1F600, 0xD800]).collect();
        for values in [&all, &mixed] {
            agrees(codec, values);
            agrees(&loaded, values);
        }
    }
}
