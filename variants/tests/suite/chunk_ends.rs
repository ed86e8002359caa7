//! Where a chunk ends: the transcoder's blocks end where a sequence does,
//! so that a push of 4 KiB whose end cuts a sequence still goes through the
//! bulk decoder (a block whose end cuts a sequence fails its SIMD
//! validation and is decoded whole by the table walk; a walk cut at its end
//! steps again from its last block boundary), and ASCII at a chunk's end
//! goes with its block rather than to the per-value path.

use std::sync::atomic::Ordering::Relaxed;

use placemat_codec::io::ErrorMode;
use placemat_codec::DynCodec;
use placemat_variants::registry;

use super::transcode_bulk::{per_value, transcode};
use crate::common::spy::watched;

/// `text` in `codec`.
fn encoded(codec: &dyn DynCodec, text: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    text.chars().for_each(|c| codec.encode_push(u64::from(c), &mut bytes).unwrap());
    bytes
}

/// Cuts every `size` bytes of `len`.
fn every(size: usize, len: usize) -> Vec<usize> {
    (size..len).step_by(size).collect()
}

/// Text of two- to four-byte sequences in pushes of 4 KiB (and of an odd
/// size), most of whose ends cut a sequence, into targets without a
/// one-pass path: every block the source's bulk decoder is given is taken
/// whole, a few steps a push are left to the per-value path, and the output
/// is the per-value path's. The sources are one with SIMD tables (UTF-8) and
/// two with cuts (UTF-EBCDIC and UTF-1, found by their tables' sync units).
#[test]
fn a_chunk_end_that_cuts_a_sequence_leaves_the_blocks_whole() {
    let find = |name| registry::find(name).unwrap();
    let text = "дом и сад, 漢字と仮名, 😀🎉; ".repeat(2000);
    for (from, to) in [("utf8", "git-ofs"), ("utf-ebcdic", "utf8"), ("utf8", "utf1"), ("utf-ebcdic", "leb128")] {
        let (from, to) = (find(from), find(to));
        let input = encoded(from, &text);
        for size in [4096, 4093] {
            let cuts = every(size, input.len());
            let watched = watched(from);
            let got = transcode(&watched, to, ErrorMode::Strict, &input, &cuts);
            let case = format!("{} -> {} in pushes of {size}", from.info().name, to.info().name);
            assert!(got == per_value(from, to, ErrorMode::Strict, &input, &cuts) && got.1.is_none(), "{case}");
            assert_eq!(watched.1.cut_blocks.load(Relaxed), 0, "{case}: blocks the bulk decoder cut");
            let pushes = cuts.len() + 1;
            let steps = watched.1.steps.load(Relaxed);
            assert!(steps <= 4 * pushes, "{case}: {steps} steps in {pushes} pushes");
        }
    }
}

/// ASCII text in pushes of 4 KiB through the one-pass paths (the copy of
/// runs read alike, a codec into itself, the kernel into UTF-16): each
/// push goes whole, its last byte with it, and none to the per-value path.
#[test]
fn ascii_at_a_chunk_end_goes_with_its_block() {
    let find = |name| registry::find(name).unwrap();
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(1000);
    let pairs = [("utf8", "utf8-ext42"), ("utf8", "utf8"), ("fss-utf-plan9", "utf8"), ("utf8", "utf16le")];
    let simd = placemat_codec::simd::Isa::detect().is_some();
    for (from, to) in pairs {
        let (from, to) = (find(from), find(to));
        // Whole pushes: a short end of the last one may be stepped.
        let mut input = encoded(from, &text);
        input.truncate(input.len() / 4096 * 4096);
        let cuts = every(4096, input.len());
        let watched = watched(from);
        let got = transcode(&watched, to, ErrorMode::Strict, &input, &cuts);
        let case = format!("{} -> {}", from.info().name, to.info().name);
        assert!(got == per_value(from, to, ErrorMode::Strict, &input, &cuts) && got.1.is_none(), "{case}");
        if simd {
            assert_eq!(watched.1.steps.load(Relaxed), 0, "{case}: steps");
        }
    }
}

/// A unit ends alone where it is no continuation unit and no lead that
/// requires one: in UTF-8, ASCII.
#[test]
fn a_unit_ends_alone_where_it_is_a_whole_sequence() {
    let utf8 = registry::find("utf8").unwrap();
    let tables = *utf8.dfa().simd().unwrap();
    let alone: Vec<u8> = (0..=255u8).filter(|&u| tables.ends_alone(u)).collect();
    assert_eq!(alone, (0..0x80).collect::<Vec<u8>>());
}
