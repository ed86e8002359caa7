//! Every trait of the runtime imported together, as a user does who converts
//! text (`DynCodec`, for the transcoder) and also calls a codec directly:
//! no call is ambiguous (this module would not compile if two traits in
//! scope named the same method for one type), and each resolves to the call
//! its documentation names, with the same answer through every path.

use placemat_codec::{Codec, DecodeError, Decoder, DynCodec, Encoder, Prefix, Step, Strategy};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::{Leb128, Utf8};

#[test]
fn a_generated_codec_answers_every_call_with_all_traits_in_scope() {
    let bad = b"ok\xFF";
    let want = Err(DecodeError::new(2, Some(1)));
    assert_eq!(Utf8.validate(bad), want);
    assert_eq!(Utf8::info().name, "utf8");
    assert_eq!(Utf8::dfa().validate(bad), want);
    assert_eq!(Utf8.step("é".as_bytes()), Step::Value { value: 0xE9, len: 2 });
    let mut out = Vec::new();
    Utf8.encode_push(0xE9, &mut out).unwrap();
    assert_eq!(out, "é".as_bytes());
    assert!(!Utf8.forbids(0x41, 0x42));
    // The trait object's calls go by the same names.
    let dynamic: &dyn DynCodec = &Utf8;
    assert_eq!(dynamic.validate(bad), want);
    assert_eq!(dynamic.info().name, "utf8");
    assert_eq!(dynamic.dfa().validate(bad), want);
    for strategy in [Strategy::Table, Strategy::Branching] {
        assert_eq!(dynamic.step(strategy, "é".as_bytes()), Step::Value { value: 0xE9, len: 2 });
    }
    out.clear();
    dynamic.encode_push(0xE9, &mut out).unwrap();
    assert_eq!(out, "é".as_bytes());
    // And the trait's own methods, on the type, by their `dyn_` names.
    assert_eq!(Utf8.dyn_validate(bad), want);
    assert_eq!(Utf8.dyn_step(Strategy::Table, b"A"), Step::Value { value: 0x41, len: 1 });
}

#[test]
fn a_loaded_codec_answers_every_call_with_all_traits_in_scope() {
    let loaded = LoadedCodec::from_text(Leb128::DESCRIPTION).unwrap();
    let input = [0xE5, 0x8E, 0x26, 0x80];
    assert_eq!(loaded.info().name, "leb128");
    assert_eq!(loaded.step(&input), Step::Value { value: 624_485, len: 3 });
    assert_eq!(loaded.validate(&input), Err(DecodeError::new(3, None)));
    assert_eq!(loaded.dfa(), Leb128::dfa().as_ref());
    let mut out = Vec::new();
    loaded.encode_push(624_485, &mut out).unwrap();
    assert_eq!(out, input[..3]);
    let mut values = [0u64; 4];
    assert_eq!(loaded.decode_prefix(&input, &mut values), Prefix { values: 1, units: 3 });
    assert_eq!(loaded.dyn_info().name, "leb128");
}
