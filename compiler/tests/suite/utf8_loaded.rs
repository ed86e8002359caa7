//! The build pipeline on strict UTF-8, run at run time: table sizes, and the table
//! walker against `std` and the reference interpreter.

use num_bigint::BigUint;
use placemat_codec::{Decoder, Encoder, Step};
use placemat_compiler::{reference::Reference, Automaton, BuildOptions, Description, LoadedCodec};

/// The description the built-in `utf8` codec is generated from.
const UTF8: &str = include_str!("../../../variants/descriptions/utf8.placemat");

fn std_step(input: &[u8]) -> Step<u32> {
    match std::str::from_utf8(input) {
        Ok(s) => match s.chars().next() {
            Some(c) => Step::Value { value: c as u32, len: c.len_utf8() },
            None => Step::Incomplete,
        },
        Err(e) if e.valid_up_to() > 0 => {
            let c = std::str::from_utf8(&input[..e.valid_up_to()]).unwrap().chars().next().unwrap();
            Step::Value { value: c as u32, len: c.len_utf8() }
        }
        Err(e) => match e.error_len() {
            Some(n) => Step::Invalid { len: n },
            None => Step::Incomplete,
        },
    }
}

#[test]
fn utf8_has_12_classes_and_9_states() {
    let codec = LoadedCodec::from_text(UTF8).unwrap();
    assert_eq!(codec.dfa().class_count(), 12);
    assert_eq!(codec.dfa().state_count(), 9);
    assert!(codec.dfa().is_ascii_transparent());
}

#[test]
#[cfg_attr(miri, ignore = "exhaustive: minutes under Miri")]
fn minimization_and_classes_change_nothing() {
    let model = Description::parse_str(UTF8).unwrap().model;
    let full = Automaton::build(&model, BuildOptions::default()).unwrap().dfa();
    let raw = Automaton::build(&model, BuildOptions { minimize: false, classes: false }).unwrap().dfa();
    assert!(raw.state_count() >= full.state_count());
    assert_eq!(raw.class_count(), 256);
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            for c in [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                let s = [a, b, c, 0x80];
                assert_eq!(full.step::<u32>(&s), raw.step::<u32>(&s), "{s:02X?}");
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "exhaustive: minutes under Miri")]
fn table_walker_matches_std_on_all_short_sequences() {
    let codec = LoadedCodec::from_text(UTF8).unwrap();
    let dfa = codec.dfa();
    let mut buf = [0u8; 3];
    for len in 1..=3usize {
        let count = 1u32 << (8 * len);
        for n in 0..count {
            for (i, slot) in buf[..len].iter_mut().enumerate() {
                *slot = (n >> (8 * i)) as u8;
            }
            let s = &buf[..len];
            assert_eq!(dfa.step::<u32>(s), std_step(s), "{s:02X?}");
            let ours = dfa.validate(s);
            let theirs = std::str::from_utf8(s);
            assert_eq!(ours.is_ok(), theirs.is_ok());
            if let (Err(a), Err(b)) = (ours, theirs) {
                assert_eq!((a.valid_up_to(), a.error_len()), (b.valid_up_to(), b.error_len()), "{s:02X?}");
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "exhaustive: minutes under Miri")]
fn reference_agrees_with_tables_and_encoder() {
    let codec = LoadedCodec::from_text(UTF8).unwrap();
    let reference = Reference::new(codec.model());
    for v in (0..=0x10FFFFu64).step_by(97).chain([0xD7FF, 0xD800, 0xDFFF, 0xE000, 0x10FFFF, 0x110000]) {
        let ours = {
            let mut out = Vec::new();
            codec.encode_push(v, &mut out).ok().map(|_| out)
        };
        assert_eq!(ours, reference.encode(&BigUint::from(v)), "U+{v:X}");
    }
    let samples: &[&[u8]] =
        &[b"\xF0\x9F\x98\x80", b"\xED\xA0\x80", b"\xE0\x80", b"\xF4\x90", b"\xC2", b"a", b"\xF1\x80\x80\xE1"];
    for s in samples {
        let want = reference.step(s).map(|value| u64::try_from(value).unwrap());
        assert_eq!(codec.step(s), want, "{s:02X?}");
    }
}
