//! The shift-DFA validator (`Dfa::validate`) against the plain table walker
//! (`Dfa::validate_by_table`) and the step-by-step decoder, for every built-in
//! codec and for run-time tables built without minimization or byte classes.

use placemat_codec::build::{BuildOptions, Description, RuntimeCodec};
use placemat_codec::dfa::Dfa;
use placemat_codec::{Codec, DecodeError, Decoder};
use placemat_variants::codecs::Utf8;
use placemat_variants::{corpus, registry};

/// Validation by `step`, the definition the fast paths must agree with.
fn by_steps(dfa: &Dfa<&[u32], &[u64]>, input: &[u8]) -> Result<(), DecodeError> {
    let mut pos = 0;
    while pos < input.len() {
        match dfa.step::<u64>(&input[pos..]) {
            placemat_codec::Step::Value { len, .. } => pos += len,
            placemat_codec::Step::Invalid { len } => return Err(DecodeError::new(pos, Some(len))),
            placemat_codec::Step::Incomplete => return Err(DecodeError::new(pos, None)),
        }
    }
    Ok(())
}

fn check(dfa: &Dfa<&[u32], &[u64]>, input: &[u8], what: &str) {
    let expected = by_steps(dfa, input);
    assert_eq!(dfa.validate(input), expected, "{what}: shift validator, {} bytes", input.len());
    assert_eq!(dfa.validate_by_table(input), expected, "{what}: table walker, {} bytes", input.len());
}

/// Valid text, then the same text with one error placed at many offsets (so that
/// errors land in both halves, at block edges and in the tails).
fn inputs_for(dfa: &Dfa<&[u32], &[u64]>, valid: &[u8]) -> Vec<Vec<u8>> {
    let mut v = vec![valid.to_vec()];
    let mut rng = corpus::Rng::new(11);
    for _ in 0..40 {
        let mut bad = valid.to_vec();
        let at = rng.below(bad.len());
        bad[at] = rng.range(0, 255) as u8;
        v.push(bad);
    }
    for cut in [1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, valid.len() / 2, valid.len() / 2 + 1] {
        if cut < valid.len() {
            v.push(valid[..valid.len() - cut].to_vec());
            v.push(valid[cut..].to_vec());
        }
    }
    let _ = dfa;
    v
}

#[test]
fn strict_utf8_uses_64_bit_rows() {
    assert_eq!(Utf8::dfa().shift_width(), 6);
}

#[test]
fn every_builtin_codec_has_shift_rows() {
    for codec in registry::all() {
        let w = codec.dfa().shift_width();
        assert!(w == 6 || w == 7, "{}: width {w}", codec.info().name);
    }
}

#[test]
fn shift_validator_agrees_on_every_codec_and_corpus() {
    let corpora: Vec<_> = ["mixed", "emoji", "random-lengths"].iter().map(|n| corpus::by_name(n).unwrap()).collect();
    for codec in registry::all() {
        let dfa = codec.dfa();
        let name = &codec.info().name;
        for c in &corpora {
            let mut bytes = Vec::new();
            for &v in &c.text[..20_000.min(c.text.len())] {
                codec.encode_push(u64::from(v), &mut bytes).unwrap();
            }
            for input in inputs_for(&dfa, &bytes) {
                check(&dfa, &input, &format!("{name} {}", c.name));
            }
        }
    }
}

#[test]
fn shift_validator_agrees_on_random_bytes() {
    let mut rng = corpus::Rng::new(5);
    for codec in registry::all() {
        let dfa = codec.dfa();
        for len in [0, 1, 2, 5, 31, 32, 33, 127, 128, 129, 300, 1000] {
            for _ in 0..30 {
                // Mostly continuation-like bytes, so sequences get long before failing.
                let input: Vec<u8> = (0..len)
                    .map(|_| if rng.one_in(3) { rng.range(0, 0x7F) as u8 } else { rng.range(0x80, 0xFF) as u8 })
                    .collect();
                check(&dfa, &input, &codec.info().name);
            }
        }
    }
}

#[test]
fn utf8_mutated_corpus_agrees_with_std() {
    let bytes = corpus::mutated_utf8();
    let ours = Utf8.validate(&bytes).unwrap_err();
    let std = std::str::from_utf8(&bytes).unwrap_err();
    assert_eq!((ours.valid_up_to(), ours.error_len()), (std.valid_up_to(), std.error_len()));
    // Valid text with one error far into the second half.
    let mut text = corpus::by_name("russian").unwrap().utf8();
    let at = text.len() * 3 / 4;
    let at = (at..).find(|&i| text[i] < 0x80).unwrap();
    text[at] = 0xFF;
    let ours = Utf8.validate(&text).unwrap_err();
    assert_eq!(ours.valid_up_to(), std::str::from_utf8(&text).unwrap_err().valid_up_to());
}

#[test]
fn runtime_tables_without_minimization_or_classes_validate_alike() {
    let model = Description::parse_str(Utf8::DESCRIPTION).unwrap().model;
    let text = corpus::by_name("random-lengths").unwrap().utf8();
    let sample = &text[..50_000];
    for options in [BuildOptions { minimize: false, classes: true }, BuildOptions { minimize: true, classes: false }] {
        let codec = RuntimeCodec::new(model.clone(), options).unwrap();
        let dfa = codec.dfa();
        assert_ne!(dfa.shift_width(), 0);
        for input in inputs_for(&dfa, sample) {
            check(&dfa, &input, "runtime utf8");
            assert_eq!(dfa.validate(&input).is_ok(), std::str::from_utf8(&input).is_ok());
        }
    }
}

#[test]
fn variants_of_eleven_and_twelve_states_get_overlapping_u64_rows() {
    // (codec, merged states, whether a u64 layout is found)
    for (name, solved) in [
        ("utf8", false),
        ("fss-utf-xopen", false),
        ("fss-utf-plan9", true),
        ("ken-draft", true),
        ("utf8-ext36", true),
        ("utf8-ext42", false),
    ] {
        let codec = registry::find(name).unwrap();
        let dfa = codec.dfa();
        assert_eq!(dfa.shift_offsets().is_some(), solved, "{name}");
        // Without a solved layout, more than 10 merged states need 128-bit rows.
        let want_width = if solved || name == "utf8" || name == "fss-utf-xopen" { 6 } else { 7 };
        assert_eq!(dfa.shift_width(), want_width, "{name}");
        if let Some(offsets) = dfa.shift_offsets() {
            assert!(offsets.len() > 10, "{name}: {offsets:?}");
            assert_eq!(offsets[0], 0, "{name}: the dead state sits at bit 0");
            let mut sorted = offsets.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), offsets.len(), "{name}: offsets are distinct");
            // Some fields overlap: 11 six-bit fields do not fit 64 bits side by side.
            assert!(sorted.windows(2).any(|w| w[1] - w[0] < 6), "{name}: {offsets:?}");
            // The search at run time finds the layout the macro passed on.
            let runtime = Dfa::new(*dfa.classes(), *dfa.digits(), dfa.transitions().to_vec(), dfa.biases().to_vec())
                .unwrap()
                .with_solved_shift();
            assert_eq!(runtime.shift_offsets(), Some(offsets), "{name}");
        }
    }
}

#[test]
fn solved_layouts_validate_like_the_table_on_mutated_text() {
    let text = corpus::by_name("mixed").unwrap();
    let mut rng = corpus::Rng::new(41);
    for name in ["fss-utf-plan9", "ken-draft", "utf8-ext36"] {
        let codec = registry::find(name).unwrap();
        let dfa = codec.dfa();
        let mut bytes = Vec::new();
        for &v in &text.text[..30_000] {
            codec.encode_push(u64::from(v), &mut bytes).unwrap();
        }
        // Every unit value in every position class: the rows hold all 256 units.
        for _ in 0..200 {
            let mut bad = bytes.clone();
            let at = rng.below(bad.len());
            bad[at] = rng.range(0, 255) as u8;
            bad.truncate(at + 1 + rng.below(64));
            check(&dfa, &bad, name);
        }
    }
}
