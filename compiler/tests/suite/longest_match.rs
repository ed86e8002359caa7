//! `overlap: longest` on a small description whose forms overlap by design:
//! a byte `0xxxxxxx` is its own value unless a byte `1xxxxxxx` follows, which
//! makes the two one value. The automaton's pending values, the step
//! function's longest match (at the end of the input and, with more to
//! come, held open), and the bulk walkers, which do not know about pending
//! values and hand the input to the step function where they stop — all held
//! to the reference interpreter's maximal munch.

use num_bigint::BigUint;
use placemat_codec::{DecodeError, Decoder, Step};
use placemat_compiler::{reference::Reference, Automaton, BuildOptions, Description, LoadedCodec};

const PEEK: &str = r#"
    pub Peek {
        name: "peek",
        value: u32,
        range: 0 ..= 0x407F,
        overlap: longest,
        layout: explicit,
        forms: {
            0 ..= 0x7F => "0xxxxxxx",
            0x80 ..= 0x407F bias 0x80 => "0xxxxxxx 1xxxxxxx",
        },
    }
"#;

fn small(step: Step<BigUint>) -> Step<u64> {
    step.map(|v| u64::try_from(v).unwrap())
}

/// Items by repeated steps of the reference interpreter.
fn reference_items(r: &Reference<'_>, input: &[u8]) -> (Vec<u64>, Result<(), DecodeError>) {
    let (mut values, mut pos) = (Vec::new(), 0);
    while pos < input.len() {
        match small(r.step(&input[pos..])) {
            Step::Value { value, len } => {
                values.push(value);
                pos += len;
            }
            Step::Invalid { len } => return (values, Err(DecodeError::new(pos, Some(len)))),
            Step::Incomplete => return (values, Err(DecodeError::new(pos, None))),
        }
    }
    (values, Ok(()))
}

#[test]
fn the_first_units_value_is_pending() {
    let model = Description::parse_str(PEEK).unwrap().model;
    assert!(model.longest);
    let a = Automaton::build(&model, BuildOptions::default()).unwrap();
    let pending: Vec<_> = a.pending.iter().enumerate().filter_map(|(s, p)| p.map(|p| (s, p.bias, p.back))).collect();
    assert_eq!(pending, [(2, 0, 0)], "one state: after the first unit, its value as it stands");
    assert!(a.local.is_err() && a.expanded.is_none());
    // Without `overlap: longest` the forms are a prefix conflict.
    let plain = PEEK.replace("overlap: longest,", "");
    let errors = Description::parse_str(&plain).unwrap_err().to_string();
    assert!(errors.contains("not prefix-free (with `overlap: longest`"), "{errors}");
}

#[test]
fn steps_take_the_longest_match() {
    let codec = LoadedCodec::from_text(PEEK).unwrap();
    let dfa = codec.dfa();
    assert_eq!(codec.step(&[0x41, 0x80]), Step::Value { value: 0x80 + (0x41 << 7), len: 2 });
    assert_eq!(codec.step(&[0x41, 0x41]), Step::Value { value: 0x41, len: 1 });
    // At the end of the input the shorter sequence stands; with more input to
    // come it is open.
    assert_eq!(codec.step(&[0x41]), Step::Value { value: 0x41, len: 1 });
    assert_eq!(dfa.step_open::<u64>(0, &[0x41]), Step::Incomplete);
    assert_eq!(codec.step_open(0, &[0x41, 0x41]), Step::Value { value: 0x41, len: 1 });
    assert_eq!(codec.step(&[0x80]), Step::Invalid { len: 1 });
    assert_eq!(codec.decode(&[0x01, 0x02, 0x83, 0x04]).unwrap(), [1, 0x80 + (2 << 7) + 3, 4]);
    // The stream check holds the open value back; the whole-input one takes it.
    assert_eq!(dfa.validate_open(0, &[0x01, 0x02]).0, Err(DecodeError::new(1, None)));
    assert_eq!(dfa.validate_in(0, &[0x01, 0x02]).0, Ok(()));
}

#[test]
fn every_short_input_agrees_with_the_reference() {
    let model = Description::parse_str(PEEK).unwrap().model;
    let r = Reference::new(&model);
    let codec = LoadedCodec::from_text(PEEK).unwrap();
    let dfa = codec.dfa();
    let mut inputs: Vec<Vec<u8>> = (0..=255u8).map(|a| vec![a]).collect();
    for a in (0..=255u8).step_by(3) {
        for b in (0..=255u8).step_by(5) {
            inputs.push(vec![a, b]);
            inputs.push(vec![a, b, 0x80 | a]);
            inputs.push(vec![a, b, a ^ 0x80]);
        }
    }
    for input in inputs {
        assert_eq!(codec.step(&input), small(r.step(&input)), "{input:02X?}");
        assert_eq!(dfa.step_open::<u64>(0, &input), small(r.step_open(0, &input)), "open, {input:02X?}");
        let (values, verdict) = reference_items(&r, &input);
        let mut got: Vec<u64> = Vec::new();
        assert_eq!(dfa.decode_into(&input, &mut got), verdict, "{input:02X?}");
        assert_eq!(got, values, "{input:02X?}");
        assert_eq!(dfa.validate(&input), verdict, "{input:02X?}");
    }
}

/// Long inputs: the two walks stop at every value that stands because the
/// next byte does not continue it, and the step function reads on from
/// there; mostly two-byte values with lone bytes among them, and errors.
#[test]
fn long_inputs_go_through_the_bulk_walkers_and_back() {
    let model = Description::parse_str(PEEK).unwrap().model;
    let r = Reference::new(&model);
    let codec = LoadedCodec::from_text(PEEK).unwrap();
    let dfa = codec.dfa();
    let mut seed = 7u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..40 {
        let len = [3000, 5000, 9000][round % 3];
        let mut input = Vec::with_capacity(len);
        while input.len() < len {
            let x = next();
            input.push((x & 0x7F) as u8);
            if x % 17 != 0 {
                input.push(0x80 | (x >> 8) as u8);
            }
        }
        if round % 4 == 3 {
            let at = (next() as usize) % input.len();
            input[at] = 0x80;
        }
        let (values, verdict) = reference_items(&r, &input);
        let mut got: Vec<u64> = vec![9];
        assert_eq!(dfa.decode_into(&input, &mut got), verdict, "round {round}");
        assert_eq!(got[1..], values[..], "round {round}");
        assert_eq!(dfa.validate_scalar(&input), verdict, "round {round}");
        assert_eq!(dfa.validate_by_table(&input), verdict, "round {round}");
    }
}
