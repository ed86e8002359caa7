//! Hostile descriptions and inputs cost bounded time and memory: each
//! reproducer is rejected with an error naming the limit it passed, or is
//! handled in time linear in its size. The figures (time, peak memory) before and
//! after are in the note; here the tests pin the behaviour, which a
//! quadratic or unbounded implementation could not reach in a test's time.

use std::fmt::Write as _;

use placemat_codec::big::BigUint;
use placemat_codec::io::{ErrorMode, TranscodeErrorKind, Transcoder};
use placemat_codec::{Codec, DynCodec, Step, Strategy};
use placemat_compiler::{limits, Description, LoadedCodec};
use placemat_variants::codecs::Printable6Big;

/// The error text of a description that must be refused.
fn refused(text: &str) -> String {
    match LoadedCodec::from_text(text) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.render("x.placemat"),
    }
}

/// `value: u64`, one form of eight free bytes, `n` two-value exclusions spread
/// over the range.
fn many_exclusions(n: u64) -> String {
    let step = u64::MAX / (n + 1);
    let mut ex = String::new();
    for k in 1..=n {
        let _ = write!(ex, "{:#X} ..= {:#X}, ", k * step, k * step + 1);
    }
    format!(
        "pub X {{ name: \"x\", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF, exclude: [{ex}], \
         forms: {{ \"xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx\" }} }}"
    )
}

#[test]
fn an_automaton_that_outgrows_the_state_limit_is_refused_while_it_grows() {
    for n in [1000, 3000] {
        let err = refused(&many_exclusions(n));
        assert!(err.contains(&format!("more than {} states", limits::MAX_STATES)), "{err}");
    }
    let err = refused(&many_exclusions(10_000));
    assert!(err.contains(&format!("a description has at most {}", limits::MAX_EXCLUSIONS)), "{err}");
}

#[test]
fn thousands_of_identical_forms_give_a_capped_list_of_errors() {
    let forms = |n: usize| {
        format!("pub X {{ name: \"x\", value: u32, range: 0 ..= 0x7F, forms: {{ {} }} }}", "\"0xxxxxxx\", ".repeat(n))
    };
    // Past the form limit, that is the one error.
    let err = refused(&forms(4000));
    assert!(err.contains("this is form 257 of 4000; a description has at most 256"), "{err}");
    assert_eq!(err.lines().filter(|l| l.contains("error:")).count(), 1, "{err}");
    // Within it, every form after the first holds no value of its own: 199
    // errors, of which the first ones are listed and the rest counted.
    let err = refused(&forms(200));
    assert!(err.contains("this form holds no value that an earlier form does not already hold"), "{err}");
    assert!(err.contains(&format!("… and {} more errors", 199 - limits::MAX_DIAGNOSTICS)), "{err}");
    assert_eq!(err.lines().filter(|l| l.contains("error:")).count(), limits::MAX_DIAGNOSTICS + 1, "{err}");
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let text = format!("#[a={}{}]\npub X {{ }}", "(".repeat(5000), ")".repeat(5000));
    let err = refused(&text);
    assert!(err.starts_with("x.placemat:1:20: error: the description is nested 17 deep"), "{err}");
    // Through tokens (the macro's path): the same limit, at the group.
    let tokens: proc_macro2::TokenStream =
        format!("pub X {{ a: {}{} }}", "[".repeat(40), "]".repeat(40)).parse().unwrap();
    let err = Description::parse(tokens).unwrap_err().to_string();
    assert!(err.contains("nested 17 deep"), "{err}");
}

#[test]
fn an_attribute_of_a_hundred_thousand_angle_brackets_is_refused_not_parsed() {
    // syn's parser of attribute values recursed once per `<` (a qualified
    // path) and overflowed the stack (the `description` fuzz target's find,
    // at 1,400 bytes); attributes other than doc comments are not parsed.
    let text = format!("#[b = {}bo]\n/// kept\npub X {{ }}", "<".repeat(100_000));
    let err = refused(&text);
    assert!(err.starts_with("x.placemat:1:2: error: only `///` doc comments may precede a description"), "{err}");
    let doc = Description::parse_str("/// one\n#[doc = \"two\"]\npub X { }").unwrap_err().to_string();
    assert!(!doc.contains("doc comments may precede"), "{doc}");
}

#[test]
fn long_literals_are_refused_before_they_are_read() {
    let text =
        format!("pub X {{ name: \"x\", value: u32, range: 0 ..= {}, forms: {{ \"0xxxxxxx\" }} }}", "9".repeat(100_000));
    let err = refused(&text);
    assert!(err.contains("this number has 100000 characters; numbers have at most 200"), "{err}");
}

#[test]
fn descriptions_over_a_mebibyte_are_refused() {
    let text = format!("// {}\n", "x".repeat(limits::MAX_BYTES));
    assert!(refused(&text).contains("descriptions have at most 1048576"));
}

/// A `printable6-big` value of `units` units: its encoding, and the value.
fn big_value(units: usize) -> (Vec<u8>, BigUint) {
    let mut x = 0x1234_5678_9ABC_DEF1u64;
    let mut digits = Vec::with_capacity(units);
    digits.push(1u8);
    for _ in 2..units {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        digits.push((x % 32) as u8);
    }
    digits.push(9);
    // Five payload bits per unit, most significant first: base-32 digits.
    let value = BigUint::from_radix_be(&digits, 32).unwrap();
    let mut out = Vec::new();
    Codec::encode_big(&Printable6Big, &value, &mut out).unwrap();
    assert_eq!(out.len(), units);
    (out, value)
}

#[test]
fn a_long_value_decodes_and_transcodes_in_linear_time() {
    // 2^17 units, the reproducer: 12 s before (the decoder reshifted a
    // growing integer at every unit, the transcoder rescanned the open value at
    // every chunk), a few milliseconds now.
    let (units, value) = big_value(1 << 17);
    assert_eq!(Codec::step_big(&Printable6Big, &units), Step::Value { value: value.clone(), len: units.len() });
    let codec: &dyn DynCodec = &Printable6Big;
    let mut t = Transcoder::new(codec, codec, ErrorMode::Strict).unwrap();
    let mut out = Vec::new();
    for piece in units.chunks(1000) {
        t.push(piece, &mut out).unwrap();
    }
    t.finish(&mut out).unwrap();
    assert_eq!(out, units);
}

#[test]
fn a_value_longer_than_the_limit_is_an_error_in_both_modes() {
    let (units, _) = big_value(5000);
    let codec: &dyn DynCodec = &Printable6Big;
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        let mut t = Transcoder::new(codec, codec, mode).unwrap().with_max_sequence(4096);
        let mut out = Vec::new();
        let err = units.chunks(700).try_for_each(|piece| t.push(piece, &mut out)).unwrap_err();
        assert_eq!(err.kind(), &TranscodeErrorKind::TooLong { limit: 4096 });
        assert_eq!(err.offset(), 0);
    }
    let mut t = Transcoder::new(codec, codec, ErrorMode::Strict).unwrap().with_max_sequence(5000);
    let mut out = Vec::new();
    units.chunks(700).try_for_each(|piece| t.push(piece, &mut out)).unwrap();
    t.finish(&mut out).unwrap();
    assert_eq!(out, units);
}

/// Digit units whose digit set alternates with other bytes cut every position
/// into 256 runs, each with its own bias: eight positions would be 256^8
/// paths. The builder counts them before making any and refuses.
#[test]
fn digit_units_that_multiply_paths_are_refused_before_they_are_built() {
    let set: String = (0..=255u32).step_by(2).map(|b| format!("{b:#04X} ..= {b:#04X}, ")).collect();
    let text = format!(
        "pub X {{ name: \"x\", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF, digits: [{set}], layout: explicit, \
         forms: {{ 0 ..= 0xFFFFFFFFFFFFFFFF => \"{}\" }} }}",
        ["[00-FF]"; 8].join(" ")
    );
    let err = refused(&text);
    assert!(err.contains(&format!("more than {} unit-range paths", limits::MAX_PATHS)), "{err}");
}

/// Rules across values multiply the start states (one per combination of
/// rules a value can fall under): at most four rules, and four that overlap
/// everywhere still build a small automaton quickly.
#[test]
fn rules_across_values_are_bounded() {
    let rules = |n: usize| {
        let list: Vec<String> = (0..n)
            .map(|k| format!("0x{:X} ..= 0x7FF then 0x{:X} ..= 0x{:X}", 0x80 * k, 0x100 * k, 0x100 * k + 0x7F))
            .collect();
        format!(
            "pub R {{ name: \"r\", value: u32, range: 0 ..= 0x7FF, forbid: [{}], \
             forms: {{ \"0xxxxxxx\", \"110xxxxx 10xxxxxx\" }} }}",
            list.join(", ")
        )
    };
    assert!(refused(&rules(5)).contains("this is rule 5 of 5; a description has at most 4"));
    let model = Description::parse_str(&rules(4)).unwrap().model;
    assert_eq!(model.contexts().count(), 5, "context 0, then values under 1, 2, 3 and 4 rules");
    let codec = LoadedCodec::new(model, Default::default()).unwrap();
    assert_eq!(codec.automaton().contexts, 5);
    assert!(codec.automaton().state_count() < 64);
    // After 0x180 (all four rules look back at it), 0x310 (the fourth rule's)
    // is refused with its first unit as the maximal subpart; after 0x7F (the
    // first rule's alone) it is fine.
    assert_eq!(placemat_codec::Decoder::validate(&codec, &[0xC6, 0x80, 0xCC, 0x90]).unwrap_err().valid_up_to(), 2);
    assert!(placemat_codec::Decoder::validate(&codec, &[0x7F, 0xCC, 0x90]).is_ok());
}

/// Longest match over forms that are each the start of the next: every
/// state on the way holds a pending value, the automaton stays linear in the
/// forms, and input that makes the decoder take the shorter value every time
/// (it reads one unit past each) costs linear time.
#[test]
fn longest_match_chains_are_bounded() {
    let forms: Vec<String> = (1..=8).map(|n| format!("\"0xxxxxxx{}\"", " 1xxxxxxx".repeat(n - 1))).collect();
    let text = format!(
        "pub L {{ name: \"l\", value: u64, range: 0 ..= 0x102_0408_1020_407F, overlap: longest, layout: biased, \
         forms: {{ {} }} }}",
        forms.join(", ")
    );
    let codec = LoadedCodec::from_text(&text).unwrap();
    let a = codec.automaton();
    assert!(a.state_count() <= 10, "{} states", a.state_count());
    assert_eq!(a.pending.iter().flatten().count(), 7, "after each of the seven shorter forms");
    // Seven units, then a unit no form continues with: the seven-unit value,
    // again and again.
    let chunk = [0x01, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81];
    let input = chunk.repeat(20_000);
    let values = placemat_codec::Decoder::decode(&codec, &input).unwrap();
    assert_eq!(values.len(), 20_000);
    assert!(values.iter().all(|&v| v == values[0]));
    assert!(placemat_codec::Decoder::validate(&codec, &input).is_ok());
}

/// 32-bit units with exclusions spread over the range: the search
/// for wide runs (code units that are values of themselves) splits each
/// byte position into many classes, and is bounded (`wide_runs`'s limits on
/// boxes, ranges and calls). What it finds, the runtime's check accepts, and
/// the table walkers copy those runs exactly as the step function reads them.
#[test]
fn wide_runs_of_a_fragmented_range_are_bounded_and_exact() {
    let mut ex = String::new();
    for k in 1..=40u64 {
        let at = k * u64::from(u32::MAX / 41);
        let _ = write!(ex, "{:#X} ..= {:#X}, ", at, at + 1);
    }
    let text = format!(
        "pub X {{ name: \"x\", unit: u32le, value: u32, range: 0 ..= 0xFFFFFFFF, exclude: [{ex}], \
         forms: {{ \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" }} }}"
    );
    let codec = LoadedCodec::from_text(&text).unwrap();
    let runs = codec.automaton().facts.wide_runs;
    assert!(runs.is_some(), "{runs:?}");
    // Units across the end of the first run, then an excluded one.
    let end = runs.ranges[0].1;
    let mut units: Vec<u32> = (end - 2047..=end + 2048).collect();
    units.extend([u32::MAX / 41, 0x41]);
    let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    let codec: &dyn DynCodec = &codec;
    let mut walked = Vec::new();
    let err = codec.dfa().decode_into::<u64>(&bytes, &mut walked).unwrap_err();
    assert_eq!((err.valid_up_to(), err.error_len()), (4 * 4096, Some(4)), "{runs:X?}");
    assert_eq!(codec.validate(&bytes), Err(err));
    let mut by_steps = Vec::new();
    let mut at = 0;
    while let Step::Value { value, len } = codec.step(Strategy::Table, &bytes[at..]) {
        by_steps.push(value);
        at += len;
    }
    assert_eq!(at, 4 * 4096);
    assert_eq!(walked, by_steps);
    assert_eq!(by_steps, units[..4096].iter().map(|&u| u64::from(u)).collect::<Vec<_>>());
}

/// The walk that finds the leads two codecs read apart visits at most 1024
/// pairs of states, each over the 256 units, and marks the pairs read apart
/// in one pass over its edges reversed: for an automaton of hundreds of
/// states (exclusions spread over eight free bytes) it ends, and finds
/// what it must.
#[test]
fn the_leads_apart_of_large_automata_are_worked_out_within_bounds() {
    let big = LoadedCodec::from_text(&many_exclusions(60)).unwrap();
    let utf8 = placemat_variants::registry::find("utf8").unwrap();
    assert!(big.dfa().state_count() > 300, "{}", big.dfa().state_count());
    // A codec reads its own input alike.
    assert_eq!(big.dfa().leads_apart(&big.dfa()).map(|l| l.is_empty()), Some(true));
    // UTF-8 refuses most of its first units, and reads none of its values alike.
    let apart = big.dfa().leads_apart(&utf8.dfa());
    assert!(apart.is_none_or(|l| l.units().count() == 256), "{apart:?}");
}
