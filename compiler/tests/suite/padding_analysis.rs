//! The structure analysis of a description padded without a limit: bounded
//! values, sequences of any length, checked two lengths past the encoder's
//! longest form.

use num_bigint::BigUint;
use placemat_compiler::analysis::structure::{analyze, Verdict};
use placemat_compiler::Description;

#[test]
fn padding_without_a_limit_is_checked_past_the_longest_form() {
    let m = Description::parse_str(
        r#"pub T { name: "t", value: u32, range: 0 ..= 0x3FFF, layout: padded, padding: unlimited,
           groups: lsb_first, forms: { "1xxxxxxx* 0xxxxxxx" } }"#,
    )
    .unwrap()
    .model;
    let s = analyze(&m);
    assert_eq!((s.max_units, s.checked_units), (None, Some(4)));
    assert_eq!(s.forms.iter().map(|f| f.units).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(s.forms[2..].iter().all(|f| f.hi == BigUint::from(0x3FFFu32)));
    assert!(s.prefix_free.is_yes() && s.uniquely_decodable.is_yes());
    assert_eq!(s.canonical, Verdict::No("U+0000 is both 00 and 80 00".into()));
}
