//! The 6-bit printable encoding: the seed's example, the spec's table of code
//! points 0–127 in both directions, round trips of every scalar value and of big
//! integers, every strategy against the reference interpreter, strict rejections,
//! lossy decoding and streaming.

use crate::common::{check_agreement, check_split, model_of, strategies};
use num_bigint::BigUint;
use placemat_codec::{Codec, Decoder, Encoder, Item, Step};
use placemat_compiler::reference::Reference;
use placemat_variants::codecs::{Printable6, Printable6Big, Printable6BigBranching, Printable6Branching, Utf8};
use proptest::prelude::*;

fn encode_text(text: &str) -> String {
    let values: Vec<u32> = text.chars().map(|c| c as u32).collect();
    let mut out = Vec::new();
    Printable6.encode_all(&values, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn decode_text(units: &str) -> String {
    Printable6.decode(units.as_bytes()).unwrap().into_iter().map(|v| char::from_u32(v).unwrap()).collect()
}

/// The example line of seed 002 and its encoding as the page shows it (test data,
/// quoted from the source). The page collapsed one double space: `@` followed by a
/// space encodes as `A` and two spaces (VARIANTS.md §6).
const SEED_TEXT: &str = "lowercase Capitalized camelCase UPPERCASE numbers 0123456789 common punctuation ;,-.? at-sign @ bob@example.com http://example.com exclamation ! (parentheses) time 12:01 tilde ~ \u{2018}single curly quotes\u{2019} \u{201C}double curly quotes\u{201D} yen \u{A5} euro \u{20AC} en\u{2013}dash em\u{2014}dash ellipsis \u{2026} y-umlaut \u{FF} eng \u{14B} tent emoji \u{26FA} fire kanji \u{706B} canoe emoji \u{1F6F6} newline\n";
const SEED_ENCODED: &str = "lowercase Acapitalized camelAcase AuApApAeArAcAaAsAe numbers C CaCbCcCdCeCfCgChCi common punctuation ;,-.? at-sign A bobA example.com httpCjC?C?example.com exclamation Cq CxparenthesesCy time CaCbCjC Ca tilde C. H@xsingle curly quotesH@y H@,double curly quotesH@- yen Ee euro HEl enH@sdash emH@tdash ellipsis HAf y-umlaut G? eng Jk tent emoji IWz fire kanji \\Ck canoe emoji C]Wv newlineBj";

#[test]
fn the_seed_example_line() {
    let ours = encode_text(SEED_TEXT);
    assert_eq!(ours.replacen("at-sign A  bob", "at-sign A bob", 1), SEED_ENCODED);
    assert!(ours.contains("at-sign A  bobA"), "`@` then a space is `A` and two spaces");
    assert_eq!(decode_text(&ours), SEED_TEXT);
}

#[test]
fn the_issue_example() {
    let line = "lowercase Capitalized camelCase UPPERCASE ¥ € 🛶\n";
    assert_eq!(encode_text(line), "lowercase Acapitalized camelAcase AuApApAeArAcAaAsAe Ee HEl C]WvBj");
}

/// VARIANTS.md §6: the encoding of code points 0x00–0x7F, row by row.
const TABLE: [[&str; 16]; 8] = [
    ["B ", "Ba", "Bb", "Bc", "Bd", "Be", "Bf", "Bg", "Bh", "Bi", "Bj", "Bk", "Bl", "Bm", "Bn", "Bo"],
    ["Bp", "Bq", "Br", "Bs", "Bt", "Bu", "Bv", "Bw", "Bx", "By", "Bz", "B;", "B,", "B-", "B.", "B?"],
    [" ", "Cq", "Cr", "Cs", "Ct", "Cu", "Cv", "Cw", "Cx", "Cy", "Cz", "C;", ",", "-", ".", "C?"],
    ["C ", "Ca", "Cb", "Cc", "Cd", "Ce", "Cf", "Cg", "Ch", "Ci", "Cj", ";", "Cl", "Cm", "Cn", "?"],
    ["A ", "Aa", "Ab", "Ac", "Ad", "Ae", "Af", "Ag", "Ah", "Ai", "Aj", "Ak", "Al", "Am", "An", "Ao"],
    ["Ap", "Aq", "Ar", "As", "At", "Au", "Av", "Aw", "Ax", "Ay", "Az", "A;", "A,", "A-", "A.", "A?"],
    ["Cp", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o"],
    ["p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "Ck", "C,", "C-", "C.", "Co"],
];

#[test]
fn all_128_entries_of_the_table_both_directions() {
    for (row, cells) in TABLE.iter().enumerate() {
        for (col, want) in cells.iter().enumerate() {
            let v = (row * 16 + col) as u32;
            let mut out = Vec::new();
            Printable6.encode_push(v, &mut out).unwrap();
            assert_eq!(out, want.as_bytes(), "U+{v:04X}");
            let step = Step::Value { value: v, len: want.len() };
            assert_eq!(Printable6.step(want.as_bytes()), step);
            assert_eq!(Printable6Branching.step(want.as_bytes()), step);
            assert_eq!(Printable6Big.step(want.as_bytes()), Step::Value { value: u64::from(v), len: want.len() });
        }
    }
}

#[test]
fn both_profiles_share_units_alphabet_premap_and_forms() {
    // printable6-big is printable6 with an open range: everything else is equal.
    let (small, big) = (model_of::<Printable6>(), model_of::<Printable6Big>());
    assert_eq!(small.unit, big.unit);
    assert_eq!(small.premap, big.premap);
    assert_eq!(small.forms, big.forms);
    assert_eq!(small.layout, big.layout);
    assert_eq!((big.max.as_ref(), big.excluded.len()), (None, 0));
}

#[test]
fn higher_code_points() {
    for (c, want) in [('¥', "Ee"), ('€', "HEl"), ('火', "\\Ck"), ('🛶', "C]Wv"), ('\n', "Bj")] {
        assert_eq!(encode_text(&c.to_string()), want, "{c}");
        assert_eq!(decode_text(want), c.to_string());
    }
}

#[test]
fn every_scalar_value_round_trips_and_others_are_refused() {
    let mut buf = [0u8; 8];
    for v in 0..=0x10FFFFu32 {
        let got = Printable6.encode(v, &mut buf);
        if (0xD800..=0xDFFF).contains(&v) {
            assert!(got.is_err(), "surrogate U+{v:X}");
            continue;
        }
        let n = got.unwrap();
        let want = Step::Value { value: v, len: n };
        assert_eq!(Printable6.step(&buf[..n]), want, "U+{v:X}");
        assert_eq!(Printable6Branching.step(&buf[..n]), want, "U+{v:X}");
        // The unbounded profile writes the same units.
        let mut big = [0u8; 8];
        assert_eq!(Printable6Big.encode(u64::from(v), &mut big), Ok(n));
        assert_eq!(big[..n], buf[..n]);
    }
    assert!(Printable6.encode(0x110000, &mut buf).is_err());
    // Decoding refuses what encoding refuses: U+D800 and U+110000 written by the
    // unbounded profile are invalid in the Unicode profile.
    for v in [0xD800u64, 0x110000] {
        let mut out = Vec::new();
        Printable6Big.encode_push(v, &mut out).unwrap();
        assert!(matches!(Printable6.step(&out), Step::Invalid { .. }), "U+{v:X}");
        assert_eq!(Printable6Big.decode(&out).unwrap(), [v]);
    }
}

#[test]
fn strict_decoding_rejects_what_it_must() {
    // A character outside the alphabet.
    let e = Printable6.validate(b"ab1cd").unwrap_err();
    assert_eq!((e.valid_up_to(), e.error_len()), (2, Some(1)));
    // A multi-unit sequence starting with `@` (non-shortest).
    let e = Printable6.validate(b"ab@c").unwrap_err();
    assert_eq!((e.valid_up_to(), e.error_len()), (2, Some(1)));
    assert_eq!(Printable6Big.step(b"@a"), Step::Invalid { len: 1 });
    // Truncated at the end of the input.
    let e = Printable6.validate(b"abHE").unwrap_err();
    assert_eq!((e.valid_up_to(), e.error_len()), (2, None));
    // Too long for a scalar value: six units carry 30 bits.
    assert!(matches!(Printable6.step(b"AAAAAa"), Step::Invalid { .. }));
    // Lossy: one U+FFFD per maximal subpart.
    assert_eq!(Printable6.decode_lossy(b"a1@bH"), [0x61, 0xFFFD, 0xFFFD, 0x62, 0xFFFD]);
    assert_eq!(Printable6.decode_lossy(b"H@b"), [8194]);
}

#[test]
fn two_to_the_hundred_comes_back() {
    let big = BigUint::from(1u32) << 100u32;
    let mut out = Vec::new();
    Printable6Big.encode_big(&big, &mut out).unwrap();
    assert_eq!(out.len(), 21);
    assert_eq!(Printable6Big.step_big(&out), Step::Value { value: big.clone(), len: 21 });
    // The 64-bit view reports it as outside its range, not as a wrong value.
    assert_eq!(Printable6Big.step(&out), Step::Invalid { len: 21 });
    assert_eq!(Printable6BigBranching.step(&out), Step::Invalid { len: 21 });
    // The reference agrees on the units.
    let model = model_of::<Printable6Big>();
    assert_eq!(Reference::new(&model).encode(&big).unwrap(), out);
    // The Unicode profile cannot encode it.
    assert!(Printable6.encode_big(&big, &mut out).is_err());
}

#[test]
fn u64_boundaries_in_the_unbounded_profile() {
    let model = model_of::<Printable6Big>();
    let reference = Reference::new(&model);
    for v in [u64::MAX - 1, u64::MAX] {
        let mut out = Vec::new();
        Printable6Big.encode_push(v, &mut out).unwrap();
        assert_eq!(Some(out.clone()), reference.encode(&BigUint::from(v)));
        assert_eq!(Printable6Big.step(&out), Step::Value { value: v, len: out.len() });
        assert_eq!(Printable6BigBranching.step(&out), Step::Value { value: v, len: out.len() });
    }
    let just_above = BigUint::from(u64::MAX) + 1u32;
    let mut out = Vec::new();
    Printable6Big.encode_big(&just_above, &mut out).unwrap();
    assert_eq!(Some(out.clone()), reference.encode(&just_above));
    assert_eq!(Printable6Big.step_big(&out), Step::Value { value: just_above, len: out.len() });
    assert!(matches!(Printable6Big.step(&out), Step::Invalid { .. }));
}

#[test]
fn streaming_every_split_gives_the_whole() {
    let input = encode_text("Split me ¥ anywhere 🛶!");
    let mut bytes = input.into_bytes();
    bytes.extend_from_slice(b"1@aH");
    let whole: Vec<Item<u32>> = Printable6.items(&bytes).collect();
    for a in 0..=bytes.len() {
        for b in a..=bytes.len() {
            assert_eq!(check_split(Printable6, &bytes, &[a, b]), whole, "cut at {a}, {b}");
        }
    }
}

/// Mostly symbols of the alphabet, so that long sequences occur, and now and then
/// any byte at all, so that units outside the alphabet occur inside them too.
fn mostly_alphabet() -> impl Strategy<Value = Vec<u8>> {
    let alphabet = b" abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_";
    let unit = prop_oneof![7 => prop::sample::select(alphabet.to_vec()), 1 => any::<u8>()];
    prop::collection::vec(unit, 0..24)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn strategies_agree_with_the_reference(input in mostly_alphabet()) {
        check_agreement::<Printable6>(&strategies::<Printable6>(), &input);
    }

    #[test]
    fn unbounded_strategies_agree_with_the_reference(input in mostly_alphabet()) {
        // The common harness compares in u64; sequences here are at most 12
        // units (60 bits) long, so every value fits. (A run between final symbols
        // counts bytes outside the alphabet too, which only ends sequences sooner.)
        let short = input.split(|&b| b.is_ascii_lowercase() || b" ;,-.?".contains(&b)).all(|run| run.len() < 12);
        prop_assume!(short);
        check_agreement::<Printable6Big>(&strategies::<Printable6Big>(), &input);
    }

    #[test]
    fn random_big_values_round_trip(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        // Up to 512 bits.
        let v = BigUint::from_bytes_le(&bytes);
        let mut out = Vec::new();
        Printable6Big.encode_big(&v, &mut out).unwrap();
        thread_local!(static M: placemat_compiler::Model = model_of::<Printable6Big>());
        M.with(|m| {
            let reference = Reference::new(m);
            assert_eq!(reference.encode(&v).as_ref(), Some(&out));
            assert_eq!(reference.step(&out), Step::Value { value: v.clone(), len: out.len() });
        });
        prop_assert_eq!(Printable6Big.step_big(&out), Step::Value { value: v, len: out.len() });
    }

    #[test]
    fn mixtures_of_text_and_big_values(text in "[a-zA-Z ¥€🛶]{0,12}", bytes in prop::collection::vec(any::<u8>(), 9..40)) {
        let big = BigUint::from_bytes_le(&bytes) + (BigUint::from(1u32) << 64u32);
        let mut out = Vec::new();
        for c in text.chars() {
            Printable6Big.encode_push(c as u64, &mut out).unwrap();
        }
        Printable6Big.encode_big(&big, &mut out).unwrap();
        Printable6Big.encode_push(0x41, &mut out).unwrap();
        let mut pos = 0;
        let mut got = Vec::new();
        while pos < out.len() {
            match Printable6Big.step_big(&out[pos..]) {
                Step::Value { value, len } => { got.push(value); pos += len; }
                other => panic!("{other:?} at {pos}"),
            }
        }
        let mut want: Vec<BigUint> = text.chars().map(|c| BigUint::from(c as u32)).collect();
        want.push(big);
        want.push(BigUint::from(0x41u32));
        prop_assert_eq!(got, want);
    }

    #[test]
    fn any_utf8_transcodes_losslessly(s in any::<String>()) {
        let values = Utf8.decode(s.as_bytes()).unwrap();
        let mut units = Vec::new();
        Printable6.encode_all(&values, &mut units).unwrap();
        prop_assert!(units.iter().all(|u| u.is_ascii_graphic() || *u == b' '));
        prop_assert_eq!(Printable6.decode(&units).unwrap(), values);
    }
}
