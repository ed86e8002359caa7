//! Targets with rules across values (WTF-8 and modified UTF-8: never a high
//! surrogate right before a low one). From a source none of whose values a
//! target's rules look past (UTF-16, UTF-32 and CESU-8 have no lone
//! surrogates), the pair takes the paths of a target without rules: the
//! one-pass kernels. Where the source's values do meet the rules, a block
//! of values is written in bulk between the values the rules look past.
//! Both against the per-value path.

use placemat_codec::io::{ErrorMode, TranscodeErrorKind, Transcoder};
use placemat_codec::{encode_by_values, DynCodec};
use placemat_compiler::analysis::Rng;
use placemat_variants::registry;

use super::transcode_bulk::{cuttings, inputs, per_value, transcode};
use crate::common::spy::counting;

fn find(name: &str) -> &'static dyn DynCodec {
    registry::find(name).unwrap()
}

/// The pairs whose source's values the target's rules never look past.
const UNMET: [(&str, &str); 7] = [
    ("utf16le", "wtf8"),
    ("utf16be", "wtf8"),
    ("utf32le", "wtf8"),
    ("utf32be", "wtf8"),
    ("cesu8", "wtf8"),
    ("utf16le", "mutf8"),
    ("utf32be", "mutf8"),
];

#[test]
fn which_sources_meet_a_targets_rules() {
    for (from, to) in UNMET {
        let (from, to) = (find(from), find(to));
        assert!(to.dfa().contexts() > 1, "{}", to.info().name);
        assert!(from.info().never_meets_rules_of(to.info()), "{} into {}", from.info().name, to.info().name);
    }
    // Lone surrogates are values of these sources.
    for (from, to) in [("mutf8", "wtf8"), ("wtf8", "mutf8"), ("wtf8", "wtf8"), ("fss-utf-plan9", "wtf8")] {
        assert!(!find(from).info().never_meets_rules_of(find(to).info()), "{from} into {to}");
    }
    // A signed codec's rules are no facts of its values.
    let signed = find("sleb128").info();
    assert!(!signed.never_meets_rules_of(find("wtf8").info()));
    assert!(!find("utf16le").info().never_meets_rules_of(signed));
}

#[test]
fn sources_the_rules_never_look_at_take_the_one_pass_kernels() {
    let simd = placemat_codec::simd::Isa::detect().is_some();
    let text: String = "naïve café, дом, 漢字 and 😀; ".repeat(400);
    let mut rng = Rng::new(0x0E5_7F8);
    for (from, to) in UNMET {
        let (from, to) = (find(from), find(to));
        let names = (&from.info().name, &to.info().name);
        let mut input = Vec::new();
        text.chars().for_each(|c| from.encode_push(u64::from(c), &mut input).unwrap());
        // The kernels write the text: the source's bulk decoder and the
        // target's encoder are given only the values at the cuts' ends.
        // (CESU-8 copies its runs read alike, and takes its pairs through
        // 16-bit units where they come in clusters, else as values.)
        let (source, target) = (counting(from), counting(to));
        let engine = Transcoder::new(&source, &target, ErrorMode::Strict).unwrap();
        // (CESU-8 copies its runs read alike on every machine.)
        assert!(engine.one_pass() || !simd, "{names:?}");
        let cuts = [input.len() / 3, input.len() / 2 + 1];
        let got = transcode(&source, &target, ErrorMode::Strict, &input, &cuts);
        assert!(got == per_value(from, to, ErrorMode::Strict, &input, &cuts) && got.1.is_none(), "{names:?}");
        if simd && from.info().pair_forms.is_none() && to.info().pair_forms.is_none() {
            let given = source.count() + target.count();
            assert!(given <= 64, "{names:?}: {given} values decoded or encoded one by one or in blocks");
        }
        // Valid, mutated and cut in every way, strict and replaced.
        for input in inputs(&mut rng, from) {
            for cuts in cuttings(&mut rng, input.len()) {
                for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                    let got = transcode(from, to, mode, &input, &cuts);
                    assert!(got == per_value(from, to, mode, &input, &cuts), "{names:?} {mode:?} {cuts:?}");
                }
            }
        }
    }
}

/// Where the source's values meet the rules (Plan 9's FSS-UTF writes any
/// surrogate), the first value a rule forbids is the strict error, and
/// replaced, the output is the per-value path's.
#[test]
fn values_a_rule_forbids_stop_a_block_where_the_per_value_path_stops() {
    let (plan9, wtf8) = (find("fss-utf-plan9"), find("wtf8"));
    let mut values: Vec<u64> = "a long run of text, дом и сад ".repeat(300).chars().map(u64::from).collect();
    let pair_at = values.len() - 40;
    values.splice(pair_at..pair_at, [0xD800, 0x41, 0xDBFF, 0xDC00]);
    let mut input = Vec::new();
    values.iter().for_each(|&v| plan9.encode_push(v, &mut input).unwrap());
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        for cuts in [vec![], vec![input.len() - 100], vec![1000, 2000, input.len() - 130]] {
            let got = transcode(plan9, wtf8, mode, &input, &cuts);
            assert!(got == per_value(plan9, wtf8, mode, &input, &cuts), "{mode:?} {cuts:?}");
        }
    }
    let (out, err) = transcode(plan9, wtf8, ErrorMode::Strict, &input, &[]);
    let err = err.unwrap();
    assert_eq!(err.kind(), &TranscodeErrorKind::ForbiddenAfter { before: 0xDBFF, value: 0xDC00 });
    // Everything before the low surrogate was written, the high one too.
    let mut before = Vec::new();
    values[..pair_at + 3].iter().for_each(|&v| wtf8.encode_push(v, &mut before).unwrap());
    assert_eq!(out, before);
    // (Plan 9's FSS-UTF and WTF-8 write these values alike: the low
    // surrogate starts where the output ends.)
    assert_eq!(err.offset(), before.len() as u64);
}

/// A codec's bulk encoder with rules across values (compiled, and loaded
/// from its description) against its encoder value by value, on values of
/// every kind around the rules: the same output, the same index refused.
#[test]
fn the_bulk_encoder_keeps_the_rules_across_values() {
    let mut rng = Rng::new(0x5_0AA7E);
    let picks = [0x41, 0x7F, 0xE9, 0x4E2D, 0x1F600, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000];
    let ruled: Vec<_> = registry::all().iter().filter(|c| c.dfa().contexts() > 1).collect();
    assert!(ruled.iter().any(|c| c.info().name == "wtf8") && ruled.iter().any(|c| c.info().name == "mutf8"));
    for &&codec in &ruled {
        let loaded = placemat_compiler::LoadedCodec::from_text(codec.description()).unwrap();
        for _ in 0..300 {
            let len = rng.below(200);
            // Mostly text, now and then a surrogate or a value past the range.
            let values: Vec<u64> =
                (0..len).map(|_| if rng.one_in(12) { rng.pick(&picks) } else { rng.range(0x20, 0x7E) }).collect();
            for before in [None, Some(0x41), Some(0xD800)] {
                for c in [codec, &loaded as &dyn DynCodec] {
                    let (mut bulk, mut each) = (Vec::new(), Vec::new());
                    let got = c.encode_block(before, &values, &mut bulk);
                    let want = encode_by_values(c, before, &values, &mut each);
                    assert_eq!((got, bulk), (want, each), "{} after {before:?}: {values:x?}", c.info().name);
                }
            }
        }
    }
}
