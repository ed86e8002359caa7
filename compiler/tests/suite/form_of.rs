//! `Model::form_of`: which form a whole sequence matches, what the page of
//! `placemat-web` colours each unit's fixed and payload bits by.

use num_bigint::BigUint;
use placemat_compiler::model::DigitUnit;
use placemat_compiler::{Description, Model};

fn model(text: &str) -> Model {
    Description::parse_str(text).unwrap().model
}

#[test]
fn a_utf8_sequence_matches_the_form_of_its_length() {
    let m = model(include_str!("../../../variants/descriptions/utf8.placemat"));
    let forms = m.concrete_forms_upto(Some(4));
    let form = m.form_of(&forms, &[0xC3, 0xA9], Some(&BigUint::from(0xE9u32))).unwrap();
    assert_eq!(form.units.len(), 2);
    assert_eq!((form.units[0].fixed_mask, form.units[0].fixed_bits, form.units[0].payload_bits), (0xE0, 0xC0, 5));
    assert_eq!((form.units[1].fixed_mask, form.units[1].fixed_bits, form.units[1].payload_bits), (0xC0, 0x80, 6));
    // A unit no form of that length takes, and a length no form has.
    assert!(m.form_of(&forms, &[0xC3], None).is_none());
    assert!(m.form_of(&forms, &[0x41, 0x41], None).is_none());
}

#[test]
fn a_utf1_sequence_matches_its_digit_units() {
    let m = model(include_str!("../../../variants/descriptions/utf1.placemat"));
    let forms = m.concrete_forms_upto(Some(5));
    // U+00F1 is A0 F1; U+4E2D is a lead byte and two base-190 digits.
    let form = m.form_of(&forms, &[0xA0, 0xF1], None).unwrap();
    assert_eq!(form.units[0].digits, Some(DigitUnit::Range(0xA0, 0xA0)));
    assert_eq!(form.units[1].digits, Some(DigitUnit::Range(0xA0, 0xFF)));
    let form = m.form_of(&forms, &[0xF6, 0x21, 0x21], None).unwrap();
    assert_eq!(form.units[1].digits, Some(DigitUnit::Set));
}

#[test]
fn of_the_forms_the_units_match_the_one_holding_the_raw_value_is_taken() {
    // SLEB128's one-unit values, -64 ..= 63, are two forms of the same
    // pattern: the negative ones and the others.
    let m = model(include_str!("../../../variants/descriptions/sleb128.placemat"));
    let forms = m.concrete_forms_upto(Some(1));
    assert!(forms.iter().filter(|f| f.units.len() == 1).count() >= 2, "{forms:?}");
    for v in [-64i64, -1, 0, 63] {
        let raw = m.raw_of(v as u64).unwrap();
        let form = m.form_of(&forms, &[v as u8 & 0x7F], Some(&raw)).unwrap();
        assert!(form.lo <= raw && raw <= form.hi, "{v}: {form:?}");
    }
}
