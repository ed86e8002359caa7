//! Shared test harness: every decoding strategy of a codec, run side by side
//! against the reference interpreter, the oracle of every fast path.

#![allow(dead_code)]

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use num_bigint::BigUint;
use placemat_codec::{Codec, Decoder, Encoder, Item, Step, StreamDecoder, Value};
use placemat_compiler::{reference::Reference, BuildOptions, Description, LoadedCodec};

/// One decoding step with values widened to `u64`.
pub type StepFn = Box<dyn Fn(&[u8]) -> Step<u64>>;
/// One decoding step in a context (of the codec's rules across values).
pub type StepInFn = Box<dyn Fn(usize, &[u8]) -> Step<u64>>;

/// A named decoding strategy.
pub struct Strategy {
    pub name: &'static str,
    /// A step at the start of input (context 0).
    pub step: StepFn,
    /// A step in a context.
    pub step_in: StepInFn,
    /// The context after a value.
    pub after: Rc<dyn Fn(u64) -> usize>,
}

fn widen<V: Value>(s: Step<V>) -> Step<u64> {
    s.map(|value| value.to_u64())
}

pub use crate::rng::xorshift;

pub mod spy;

/// The codec's model, parsed back from the description it was generated from.
pub fn model_of<C: Codec>() -> placemat_compiler::Model {
    Description::parse_str(C::DESCRIPTION).expect("the built-in description parses").model
}

/// The codec type, table, branching, run-time tables without minimization, run-time tables with
/// classes off, and the reference interpreter; built once per codec and thread
/// (property tests ask for them in every case, and building the run-time
/// tables of the 1992 codecs twice per case was most of the suite's time).
pub fn strategies<C>() -> Rc<Vec<Strategy>>
where
    C: Codec + Default + 'static,
{
    thread_local! {
        static BUILT: RefCell<HashMap<TypeId, Rc<Vec<Strategy>>>> = RefCell::new(HashMap::new());
    }
    if let Some(built) = BUILT.with(|b| b.borrow().get(&TypeId::of::<C>()).cloned()) {
        return built;
    }
    let built = Rc::new(build_strategies::<C>());
    BUILT.with(|b| b.borrow_mut().insert(TypeId::of::<C>(), Rc::clone(&built)));
    built
}

fn build_strategies<C>() -> Vec<Strategy>
where
    C: Codec + Default + 'static,
{
    let model = model_of::<C>();
    let unminimized = LoadedCodec::new(model.clone(), BuildOptions { minimize: false, classes: true }).unwrap();
    let singleton = LoadedCodec::new(model.clone(), BuildOptions { minimize: true, classes: false }).unwrap();
    let model: &'static _ = Box::leak(Box::new(model));
    let reference: &'static _ = Box::leak(Box::new(Reference::new(model)));
    // The oracle's contexts: the reference interpreter's, from the model.
    let after: Rc<dyn Fn(u64) -> usize> = Rc::new(move |v| reference.context_after(&BigUint::from(v)));
    let (unminimized, singleton): (&'static _, &'static _) =
        (Box::leak(Box::new(unminimized)), Box::leak(Box::new(singleton)));
    vec![
        with_contexts("codec", Box::new(|c, s| widen(C::default().step_in(c, s))), &after),
        with_contexts("table", Box::new(|c, s| widen(C::Table::default().step_in(c, s))), &after),
        with_contexts("branching", Box::new(|c, s| widen(C::Branching::default().step_in(c, s))), &after),
        with_contexts("unminimized", Box::new(move |c, s| unminimized.step_in(c, s)), &after),
        with_contexts("classes-off", Box::new(move |c, s| singleton.step_in(c, s)), &after),
        with_contexts(
            "reference",
            Box::new(move |c, s| reference.step_in(c, s).map(|raw| widened(model, &raw))),
            &after,
        ),
    ]
}

/// The reference's value, a raw value of the model, as the 64-bit view of
/// the codec's value (a signed codec's: its sign-extended pattern).
pub fn widened(model: &placemat_compiler::Model, raw: &BigUint) -> u64 {
    model.view_of(raw).expect("bounded codecs have 64-bit values")
}

/// A strategy from its step in a context.
fn with_contexts(name: &'static str, step_in: StepInFn, after: &Rc<dyn Fn(u64) -> usize>) -> Strategy {
    let shared: Rc<StepInFn> = Rc::new(step_in);
    let at_start = Rc::clone(&shared);
    Strategy {
        name,
        step: Box::new(move |s| at_start(0, s)),
        step_in: Box::new(move |c, s| shared(c, s)),
        after: Rc::clone(after),
    }
}

/// Items of a whole input by repeated steps of `s`, each in the context the
/// value before it leaves (0 after an error).
pub fn items_by(s: &Strategy, input: &[u8]) -> Vec<Item<u64>> {
    struct D<'a>(&'a Strategy);
    impl Decoder for D<'_> {
        type Value = u64;
        fn step(&self, input: &[u8]) -> Step<u64> {
            (self.0.step)(input)
        }
        fn step_in(&self, context: usize, input: &[u8]) -> Step<u64> {
            (self.0.step_in)(context, input)
        }
        fn context_after(&self, value: &u64) -> usize {
            (self.0.after)(*value)
        }
    }
    D(s).items(input).collect()
}

/// All strategies agree on every item of `input`, and the codec's bulk methods
/// (validate, decode, lossy) agree with the items.
pub fn check_agreement<C>(strategies: &[Strategy], input: &[u8])
where
    C: Codec + Default,
{
    let want = items_by(&strategies[strategies.len() - 1], input);
    for s in &strategies[..strategies.len() - 1] {
        let got = items_by(s, input);
        assert_eq!(got, want, "strategy {} on {input:02X?}", s.name);
    }
    // Bulk paths, derived from the items.
    let first_error = want.iter().find(|i| i.value.is_err());
    let codec = C::default();
    let validate = codec.validate(input);
    let decoded = codec.decode(input);
    // The branching and table decoders' bulk loops give the same values and errors.
    assert_eq!(C::Branching::default().decode(input), decoded, "branching decode on {input:02X?}");
    assert_eq!(C::Table::default().decode(input), decoded, "table decode on {input:02X?}");
    assert_eq!(C::Table::default().validate(input), validate, "table validate on {input:02X?}");
    check_prefix(&codec, input, &want);
    match first_error {
        None => {
            assert!(validate.is_ok(), "validate on {input:02X?}");
            let values: Vec<u64> = decoded.unwrap().into_iter().map(Value::to_u64).collect();
            assert_eq!(values, want.iter().map(|i| *i.value.as_ref().unwrap()).collect::<Vec<_>>());
        }
        Some(item) => {
            let err = validate.unwrap_err();
            assert_eq!(err.valid_up_to(), item.span.start, "valid_up_to on {input:02X?}");
            let len = match item.value {
                Err(placemat_codec::ItemError::Invalid) => Some(item.span.len()),
                _ => None,
            };
            assert_eq!(err.error_len(), len, "error_len on {input:02X?}");
            assert_eq!(decoded.unwrap_err(), err);
            let branching = C::Branching::default().validate(input).unwrap_err();
            assert_eq!(branching, err);
        }
    }
    let lossy: Vec<u64> = codec.decode_lossy(input).into_iter().map(Value::to_u64).collect();
    assert_eq!(lossy, want.iter().map(|i| i.value.unwrap_or(0xFFFD)).collect::<Vec<_>>());
    let branching: Vec<u64> = C::Branching::default().decode_lossy(input).into_iter().map(Value::to_u64).collect();
    assert_eq!(branching, lossy, "branching lossy on {input:02X?}");
}

/// Decoding a prefix (`Decoder::decode_prefix`, `decode_prefix_into`) takes
/// the items before the first error, up to the room given: every count from
/// none to all of them, and more room than values.
fn check_prefix<C: Codec>(codec: &C, input: &[u8], items: &[Item<u64>]) {
    let leading: Vec<&Item<u64>> = items.iter().take_while(|i| i.value.is_ok()).collect();
    let counts = [0, 1, leading.len() / 2, leading.len().saturating_sub(1), leading.len(), leading.len() + 3];
    for room in counts {
        let n = room.min(leading.len());
        let want = placemat_codec::Prefix { values: n, units: n.checked_sub(1).map_or(0, |k| leading[k].span.end) };
        let mut slots = vec![<C as Decoder>::Value::from_u64_lossy(0); room];
        assert_eq!(codec.decode_prefix(input, &mut slots), want, "prefix of {room} values of {input:02X?}");
        let mut out = vec![<C as Decoder>::Value::from_u64_lossy(7)];
        assert_eq!(codec.decode_prefix_into(input, room, &mut out), want, "prefix into a Vec, {room}");
        let values: Vec<u64> = leading[..n].iter().map(|i| *i.value.as_ref().unwrap()).collect();
        assert_eq!(slots[..n].iter().map(|v| v.to_u64()).collect::<Vec<_>>(), values);
        assert_eq!(out[1..].iter().map(|v| v.to_u64()).collect::<Vec<_>>(), values, "after what was in the Vec");
    }
}

/// Feeding `input` split at `cut` gives the whole input's items.
pub fn check_split<D: Decoder>(decoder: D, input: &[u8], cuts: &[usize]) -> Vec<Item<D::Value>> {
    let mut stream = StreamDecoder::new(decoder);
    let mut items = Vec::new();
    let mut last = 0;
    for &cut in cuts {
        stream.push(&input[last..cut], |i| items.push(i));
        last = cut;
    }
    stream.push(&input[last..], |i| items.push(i));
    stream.finish(|i| items.push(i));
    items
}

/// Round trip: encode with the generated encoder, compare with the reference
/// encoder, decode with every strategy.
pub fn check_round_trip<C>(strategies: &[Strategy], reference_model: &placemat_compiler::Model, value: u64)
where
    C: Codec + Default,
{
    let codec = C::default();
    let reference = Reference::new(reference_model);
    let want = reference_model.raw_of(value).and_then(|raw| reference.encode(&raw));
    let got = match <C as Encoder>::Value::from_u64(value) {
        Some(v) => {
            let mut out = Vec::new();
            codec.encode_push(v, &mut out).ok().map(|_| out)
        }
        None => None,
    };
    assert_eq!(got, want, "encoding U+{value:X}");
    if let Some(units) = got {
        for s in strategies {
            assert_eq!((s.step)(&units), Step::Value { value, len: units.len() }, "{} decoding U+{value:X}", s.name);
        }
    }
}

/// Applies `(position, byte, kind)` edits: kind 0 overwrites, 1 deletes, 2 inserts
/// (positions wrap around the current length; an empty input gets the byte).
pub fn apply_edits(bytes: &mut Vec<u8>, edits: &[(usize, u8, u8)]) {
    for &(at, byte, kind) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let i = at % bytes.len();
        match kind {
            0 => bytes[i] = byte,
            1 => {
                bytes.remove(i);
            }
            _ => bytes.insert(i, byte),
        }
    }
}

/// What `encode_block` must give: each value by `encode_push`, up to the
/// first refused (unencodable, or forbidden after the one before it by the
/// codec's rules across values).
pub fn one_at_a_time(codec: &dyn placemat_codec::DynCodec, values: &[u64]) -> (Vec<u8>, Result<(), usize>) {
    let mut out = Vec::new();
    let mut before = None;
    for (i, &v) in values.iter().enumerate() {
        if before.is_some_and(|b| codec.forbids(b, v)) || codec.encode_push(v, &mut out).is_err() {
            return (out, Err(i));
        }
        before = Some(v);
    }
    (out, Ok(()))
}

/// Blocks of `values` (of every length from 1 to 40, so that refusals fall at
/// every place of the kernel's groups of eight) by `encode_block` and one at
/// a time.
pub fn agrees(codec: &dyn placemat_codec::DynCodec, values: &[u64]) {
    let name = &codec.info().name;
    let mut at = 0;
    for len in (1..=40).cycle() {
        if at >= values.len() {
            break;
        }
        let block = &values[at..values.len().min(at + len)];
        let mut bulk = vec![0xA5];
        let result = codec.encode_block(None, block, &mut bulk);
        let (want, refused) = one_at_a_time(codec, block);
        assert_eq!(result, refused, "{name}: block at {at}");
        assert_eq!((bulk[0], &bulk[1..]), (0xA5, &want[..]), "{name}: block at {at}");
        at += block.len();
    }
}

/// An encoder that notes the values it is asked to write (to show which
/// values a bulk path left to the codec's own encoder).
pub struct Noting<E>(E, std::cell::RefCell<Vec<u64>>);

impl<E> Noting<E> {
    pub fn new(encoder: E) -> Self {
        Noting(encoder, Default::default())
    }

    /// The values noted so far, taken.
    pub fn seen(&self) -> Vec<u64> {
        self.1.take()
    }
}

impl<E: placemat_codec::Encoder> placemat_codec::Encoder for Noting<E> {
    type Value = E::Value;
    fn max_units(&self) -> usize {
        self.0.max_units()
    }
    fn encode(&self, value: E::Value, out: &mut [u8]) -> Result<usize, placemat_codec::EncodeError> {
        self.1.borrow_mut().push(placemat_codec::Value::to_u64(value));
        self.0.encode(value, out)
    }
}
