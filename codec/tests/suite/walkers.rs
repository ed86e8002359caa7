//! The walkers of `Dfa` — `step`, `step_in`, `step_checked`, `validate`,
//! `validate_scalar`, `validate_by_table`, `decode_table_into` — on every
//! hand-built table in every form it has (class-compressed, expanded or
//! direct decoding; shifted, placed or radix payload; with and without shift
//! rows) agree with the reference decoder that walks the spec's edges: on
//! every input of up to four code units over each codec's alphabet, and on
//! long pseudo-random inputs that the bulk walks cut in two.

use super::common::reference::{inputs, long_input, reference_decode, reference_step, RefStep};
use super::common::{codecs, Built, Dec, Spec};
use placemat_codec::dfa::Dfa;
use placemat_codec::{DecodeError, Step};

type Owned = Dfa<Vec<u32>, Vec<u64>>;

/// The reference step as the runtime reports it.
fn expected_step(spec: &Spec, context: usize, input: &[u8]) -> Step<u64> {
    match reference_step(spec, 1 + context, input) {
        RefStep::Value { value, len, .. } => Step::Value { value, len },
        RefStep::Invalid { len } => Step::Invalid { len },
        RefStep::Incomplete => Step::Incomplete,
    }
}

/// What `step_checked` gives for the wrapping step `step`: an invalid
/// sequence where the value does not fit 64 bits (shifted payload: the only
/// kind a cyclic table has).
fn checked(spec: &Spec, input: &[u8], step: Step<u64>) -> Step<u64> {
    let Step::Value { len, .. } = step else { return step };
    if !spec.cyclic {
        return step;
    }
    let (mut v, mut state, mut bias) = (Some(0u64), 1, 0);
    for &u in &input[..len] {
        let e = spec.edge(state, u).unwrap();
        v = v.filter(|v| v.leading_zeros() >= e.bits).map(|v| spec.join(v, e, u));
        (state, bias) = (e.to, spec.biases[e.bias]);
    }
    match v.and_then(|v| v.checked_add(bias)) {
        Some(value) => Step::Value { value, len },
        None => Step::Invalid { len },
    }
}

/// The input as an assertion shows it: its first bytes and its length.
fn show(input: &[u8]) -> String {
    format!("{:02X?}{} ({} bytes)", &input[..input.len().min(12)], if input.len() > 12 { "…" } else { "" }, input.len())
}

fn error_of(r: Result<(), DecodeError>) -> Result<(), (usize, Option<usize>)> {
    r.map_err(|e| (e.valid_up_to(), e.error_len()))
}

/// Every walker on `input` against the reference.
fn agree(dfa: &Owned, spec: &Spec, what: &str, input: &[u8]) {
    for context in 0..usize::from(spec.contexts) {
        let want = expected_step(spec, context, input);
        assert_eq!(dfa.step_in::<u64>(context, input), want, "{what}: step_in {context} {}", show(input));
    }
    let want = expected_step(spec, 0, input);
    assert_eq!(dfa.step::<u64>(input), want, "{what}: step {}", show(input));
    assert_eq!(dfa.step_checked(input), checked(spec, input, want), "{what}: step_checked {}", show(input));
    let (values, verdict) = reference_decode(spec, input);
    assert_eq!(error_of(dfa.validate(input)), verdict, "{what}: validate {}", show(input));
    assert_eq!(error_of(dfa.validate_scalar(input)), verdict, "{what}: validate_scalar {}", show(input));
    assert_eq!(error_of(dfa.validate_by_table(input)), verdict, "{what}: validate_by_table {}", show(input));
    let mut out = Vec::new();
    assert_eq!(error_of(dfa.decode_table_into::<u64>(input, &mut out)), verdict, "{what}: decode {}", show(input));
    assert_eq!(out, values, "{what}: decoded values {}", show(input));
}

/// Every form of `spec` on every short input and some long ones.
fn run(spec: Spec) {
    let b = Built::of(spec);
    let short = inputs(&b.spec.alphabet, 4);
    let long: Vec<Vec<u8>> = (0..40).map(|k| long_input(&b.spec.alphabet, 20 + 25 * k, k as u64)).collect();
    // Long inputs that are valid all through, so the bulk walks run to the end.
    let valid: Vec<Vec<u8>> = long.iter().map(|i| valid_prefix(&b.spec, i)).collect();
    assert!(valid.iter().any(|v| v.len() > 200), "{}: no long valid input", b.spec.name);
    let variants = b.variants();
    assert!(!variants.is_empty());
    for (dec, shift, parts) in variants {
        let what = format!("{} {dec:?} shift {shift}", b.spec.name);
        let dfa = Dfa::new(parts).unwrap();
        assert_eq!(dfa.shift_width() != 0, shift, "{what}");
        for input in short.iter().chain(&long).chain(&valid) {
            agree(&dfa, &b.spec, &what, input);
        }
    }
}

/// The valid prefix of `input` (as the reference reads it) repeated to the
/// length of `input`, for codecs whose values may follow one another freely.
fn valid_prefix(spec: &Spec, input: &[u8]) -> Vec<u8> {
    let end = reference_decode(spec, input).1.err().map_or(input.len(), |(at, _)| at);
    let mut out = input[..end].to_vec();
    while !out.is_empty() && out.len() < input.len() && end > 0 {
        out.extend_from_slice(&input[..end]);
    }
    out
}

#[test]
fn ascii() {
    run(codecs::ascii());
}

#[test]
fn utf8_two_forms() {
    run(codecs::utf8());
}

#[test]
fn cyclic_varint() {
    run(codecs::varint());
}

#[test]
fn leb128_placed() {
    run(codecs::leb128());
}

#[test]
fn radix_digits() {
    run(codecs::radix());
}

#[test]
fn utf16le_wide_units() {
    run(codecs::utf16le());
}

#[test]
fn two_contexts() {
    run(codecs::contexts());
}

#[test]
fn pending_values() {
    run(codecs::pending());
}

#[test]
fn every_form_is_walked() {
    let forms: Vec<(Dec, bool)> = codecs::all()
        .into_iter()
        .flat_map(|s| Built::of(s).variants().into_iter().map(|(d, s, _)| (d, s)).collect::<Vec<_>>())
        .collect();
    for dec in [Dec::Classes, Dec::Expanded, Dec::Direct] {
        for shift in [false, true] {
            assert!(forms.contains(&(dec, shift)), "{dec:?} shift {shift}");
        }
    }
}

#[test]
fn step_checked_refuses_what_outgrows_64_bits() {
    let b = Built::of(codecs::varint());
    let dfa = Dfa::new(b.base()).unwrap();
    // Ten groups of 7 bits: 70 bits, the top ones set.
    let mut input = vec![0xFF; 9];
    input.push(0x7F);
    assert_eq!(dfa.step_checked(&input), Step::Invalid { len: 10 });
    assert_eq!(dfa.step::<u64>(&input), Step::Value { value: u64::MAX, len: 10 }, "wrapping");
    // Nine groups (63 bits) fit.
    assert_eq!(dfa.step_checked(&input[1..]), Step::Value { value: (1 << 63) - 1, len: 9 });
}

#[test]
fn a_pending_value_is_unfinished_where_more_input_may_follow() {
    let b = Built::of(codecs::pending());
    let dfa = Dfa::new(b.base()).unwrap();
    assert_eq!(dfa.step::<u64>(b"\xC1"), Step::Value { value: 0x101, len: 1 });
    assert_eq!(dfa.step_open::<u64>(0, b"\xC1"), Step::Incomplete);
    assert_eq!(dfa.step::<u64>(b"\xC1\x80A"), Step::Value { value: 0x101, len: 1 });
    assert_eq!(dfa.step::<u64>(b"\xC1\x81\x82"), Step::Value { value: 1 << 12 | 1 << 6 | 2, len: 3 });
}
