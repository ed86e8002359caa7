//! The pair-forms fact: a codec of byte forms ([`ByteForms`], `byte_forms.rs`)
//! that writes some values as the byte forms of two 16-bit units, as CESU-8
//! writes a supplementary character as the three-byte forms of its UTF-16
//! surrogates. The fact is a [`Pair`]: the values the form writes, the bias,
//! the two units' bases and how many low bits the second unit carries; with
//! it the conversion engine writes the codec from UTF-8 in two SIMD passes
//! (UTF-8 into 16-bit units with the pair, then each unit as its byte form).
//!
//! As the byte forms are, it is proved, not matched by name: the form must
//! have twice as many units as the longest byte form, each half must read
//! back (by the byte forms) as a value of that length, and for payload 0 and
//! every payload of one bit the halves must be the pair's two units, the low
//! bits of the payload in the second, the others in the first, each landing
//! on zero bits of its unit's base; the encoder writes each bit of a unit as
//! a fixed bit or one payload bit, so this decides every payload.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Cesu8 { name: "cesu8", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
//!         layout: explicit,
//!         forms: { 0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x7FF => "110xxxxx 10xxxxxx",
//!                  0x800 ..= 0xFFFF => "1110xxxx 10xxxxxx 10xxxxxx",
//!                  0x10000 ..= 0x10FFFF bias 0x10000 =>
//!                      "11101101 1010xxxx 10xxxxxx 11101101 1011xxxx 10xxxxxx" } }
//! "#).unwrap();
//! let pair = Automaton::build(&d.model, BuildOptions::default()).unwrap().pair_forms.unwrap();
//! assert_eq!((pair.lo, pair.hi, pair.bias), (0x1_0000, 0x10_FFFF, 0x1_0000));
//! assert_eq!((pair.high, pair.low, pair.low_bits), (0xD800, 0xDC00, 10));
//! ```

use num_bigint::BigUint;
use placemat_codec::simd::{ByteForms, Pair, Tables};

use super::{Automaton, BuildOptions, EncodeForm};
use crate::model::Model;

/// The pair form of `a` over its byte `forms`, built from `model`; `None`
/// where the codec has no form of twice the longest byte form's units that
/// writes the byte forms of two 16-bit units.
pub(super) fn derive(a: &Automaton, model: &Model, forms: &ByteForms) -> Option<Pair> {
    let n = usize::from(forms.lengths);
    let top = u64::from(forms.last[n - 1]);
    let (at, f) = a.encode_forms.iter().enumerate().find(|(_, f)| f.units.len() == 2 * n && f.lo > top)?;
    // The encoder takes the first form that covers a value.
    if a.encode_forms[..at].iter().any(|g| g.lo <= f.hi && f.lo <= g.hi) || f.hi > u64::from(u32::MAX) {
        return None;
    }
    let halves = |payload: u64| {
        let units = written(f, model, payload);
        Some((read(forms, &units[..n])?, read(forms, &units[n..])?))
    };
    let (high, low) = halves(0)?;
    let widest = f.hi - f.bias;
    // The payload's low bits go to the second unit, the others to the first.
    let mut low_bits = 0u8;
    for t in 0..64 - widest.leading_zeros() {
        let (h, l) = halves(1 << t)?;
        if u32::from(low_bits) == t && h == high && l == low + (1 << t) {
            low_bits += 1;
        } else if l != low || h != high + (1 << (t - u32::from(low_bits))) {
            return None;
        }
    }
    let high_part = u32::try_from(widest >> low_bits).ok()?;
    let low_part = (1u32 << low_bits) - 1;
    let fits = high & high_part == 0 && low & low_part == 0 && high + high_part <= 0xFFFF && low + low_part <= 0xFFFF;
    let pair = Pair {
        lo: u32::try_from(f.lo).ok()?,
        hi: u32::try_from(f.hi).ok()?,
        bias: u32::try_from(f.bias).ok()?,
        high,
        low,
        low_bits,
    };
    (fits && low_bits > 0 && f.bias <= f.lo).then_some(pair)
}

/// The SIMD validator's tables of the language the codec's 16-bit units
/// make, each written alone: the forms the encoder writes the values
/// `0`–`FFFF` with (a pair's halves included, which the codec's values may
/// exclude; modified UTF-8's `C0 80` for U+0000 too), with no rules across
/// values. The automaton of that model (the codec's forms cut at `FFFF`) is
/// built and its own checks derived (`local`, with their proof). They are
/// the fact where every sequence that automaton accepts is the encoder's
/// form of its value (canonical) and the byte forms' decoding shape, with
/// which the engine's first kernel reads the units, reads each of the
/// 65 536 forms as its value: text the checks pass is then a run of such
/// forms, whose pairs the engine's second kernel checks.
pub(super) fn unit_tables(model: &Model, forms: &ByteForms) -> Option<Tables> {
    let top = BigUint::from(0xFFFFu32);
    let mut units = model.clone();
    units.max = Some(top.clone());
    units.excluded.clear();
    units.forbid.clear();
    units.longest = false;
    units.forms.retain(|f| f.range.as_ref().is_none_or(|(lo, _)| *lo <= top));
    for (_, hi) in units.forms.iter_mut().filter_map(|f| f.range.as_mut()) {
        if *hi > top {
            *hi = top.clone();
        }
    }
    let a = Automaton::build(&units, BuildOptions::default()).ok()?;
    let shape = forms.shape()?;
    let continues = |u: u8| (shape.continuation.0..=shape.continuation.1).contains(&u);
    let reads = |v: u64| {
        // The encoder takes the first form that covers a value.
        let Some(f) = a.encode_forms.iter().find(|f| f.lo <= v && v <= f.hi) else { return false };
        let w = written(f, &units, v - f.bias);
        (1..=4).contains(&w.len()) && !continues(w[0]) && w[1..].iter().all(|&u| continues(u)) && shape.value(&w) == v
    };
    (a.canonical && (0..=0xFFFF).all(reads)).then_some(a.local.ok()?.tables)
}

/// The units `f` writes for `payload`.
fn written(f: &EncodeForm, model: &Model, payload: u64) -> Vec<u8> {
    let mut out = vec![0u8; f.units.len()];
    f.write(model, false, payload, &mut out);
    out
}

/// The value `units` (one sequence of the byte forms) is the form of, if it
/// is one: its lead, less the lead base of its length, then six bits per
/// continuation unit, within the values of that length.
fn read(forms: &ByteForms, units: &[u8]) -> Option<u32> {
    let n = units.len();
    let mut v = u32::from(units[0].checked_sub(*forms.lead.get(n - 1)?)?);
    for &u in &units[1..] {
        let digit = u.checked_sub(forms.continuation).filter(|&d| d < 64)?;
        v = v << 6 | u32::from(digit);
    }
    let least = if n == 1 { forms.first } else { forms.last[n - 2] + 1 };
    (least <= v && v <= forms.last[n - 1]).then_some(v)
}

#[cfg(test)]
mod tests {
    use placemat_codec::simd::ByteForms;

    use crate::automaton::{Automaton, BuildOptions};
    use crate::Description;

    fn built(text: &str) -> (Automaton, crate::model::Model) {
        let d = Description::parse_str(text).unwrap();
        (Automaton::build(&d.model, BuildOptions::default()).unwrap(), d.model)
    }

    const FORMS: &str = r#"0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x7FF => "110xxxxx 10xxxxxx",
        0x800 ..= 0xFFFF => "1110xxxx 10xxxxxx 10xxxxxx","#;

    /// A codec of UTF-8's first three forms and `pair` for 10000–10FFFF.
    fn codec(pair: &str) -> String {
        format!(
            r#"pub C {{ name: "c", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
                layout: explicit, forms: {{ {FORMS} 0x10000 ..= 0x10FFFF bias 0x10000 => "{pair}" }} }}"#
        )
    }

    #[test]
    fn the_pair_writes_what_the_encoder_writes() {
        let (a, model) = built(&codec("11101101 1010xxxx 10xxxxxx 11101101 1011xxxx 10xxxxxx"));
        let (forms, pair) = (a.byte_forms.unwrap(), a.pair_forms.unwrap());
        // The units' forms, surrogates included (which the codec's values exclude).
        let open = ByteForms { allowed: [(0, u32::MAX); 2], ..forms };
        let f = a.encode_forms.iter().find(|f| f.units.len() == 6).unwrap();
        for v in (0x1_0000u32..=0x10_FFFF).step_by(0x1_0001).chain([0x1_0000, 0x10_FFFF, 0x1_F600]) {
            let (high, low) = pair.units(v);
            let want: Vec<u8> = [high, low].iter().flat_map(|&u| open.units(u).unwrap()).collect();
            assert_eq!(super::written(f, &model, u64::from(v) - f.bias), want, "{v:X}");
        }
    }

    #[test]
    fn a_form_whose_halves_are_no_forms_is_none() {
        // Read the other way round it is still a pair (the second unit's
        // base the lower one).
        let (a, _) = built(&codec("11101101 1011xxxx 10xxxxxx 11101101 1010xxxx 10xxxxxx"));
        let pair = a.pair_forms.unwrap();
        assert_eq!((pair.high, pair.low, pair.low_bits), (0xDC00, 0xD800, 10));
        // A first half whose lead is no lead of three units (`FD`) is none.
        let (b, _) = built(&codec("11111101 1010xxxx 10xxxxxx 11101101 1011xxxx 10xxxxxx"));
        assert!(b.byte_forms.is_some());
        assert_eq!(b.pair_forms, None);
    }

    #[test]
    fn utf8_has_none() {
        let (a, _) = built(&codec("11110xxx 10xxxxxx 10xxxxxx 10xxxxxx").replace(" bias 0x10000", ""));
        assert_eq!((a.byte_forms.map(|f| f.lengths), a.pair_forms), (Some(4), None));
        assert_eq!(a.pair_unit_tables, None);
    }

    #[test]
    fn the_units_alone_are_checked_where_the_byte_forms_read_them() {
        // CESU-8's units alone: UTF-8's forms of 0-FFFF, surrogates included.
        let (a, _) = built(&codec("11101101 1010xxxx 10xxxxxx 11101101 1011xxxx 10xxxxxx"));
        let tables = a.pair_unit_tables.unwrap();
        assert_eq!((tables.need, &tables.thresholds[1..3]), (2, &[0xC0, 0xE0][..]));
        // A form of 0 that the byte forms' shape reads as another value
        // (`C1 80`, read as 40): no such checks.
        let odd = codec("11101101 1010xxxx 10xxxxxx 11101101 1011xxxx 10xxxxxx")
            .replace("0 ..= 0x7F => \"0xxxxxxx\"", "0 ..= 0 => \"11000001 10000000\", 1 ..= 0x7F => \"0xxxxxxx\"");
        let (b, _) = built(&odd);
        assert!(b.pair_forms.is_some() && b.pair_unit_tables.is_none());
    }
}
