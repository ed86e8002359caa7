//! The flagged-stream fact ([`Flagged`]): for an integer codec whose units
//! say where a value ends, how, so that the runtime decodes a stream of its
//! values a word of eight units at a time (`placemat_codec::Flagged`).
//!
//! Derived from the encoder's concrete forms and the layout, never from a
//! name. A codec qualifies when, for every length of one to eight units
//! (up to ten where groups go least significant first), there is one form,
//! each of whose units is bit 7 fixed and seven payload bits; bit 7 has one
//! value in the units before the last (they continue)
//! and the other in the last; the forms' places put the groups least or
//! most significant first, all the same way; and every longer form starts
//! with eight continuing units (so the decoder, finding no end in eight
//! units, hands the value to the codec's step). The values a sequence of
//! each length may take are the form's range where each value has one
//! spelling (`shortest`, `biased`), and everything up to the form's last
//! value where shorter values may be padded (`padded`). Codecs with
//! pre-mapped values, excluded values, rules across values, overlapping
//! forms or digit units do not qualify; nor does a first unit that gives the
//! length (QUIC), which is another fact. A padded `sign: extend` codec
//! qualifies with each length's two halves joined into one range of
//! sign-extended payloads (`Flagged::signed`).
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Leb128 { name: "leb128", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF,
//!         layout: padded, groups: lsb_first, forms: { "1xxxxxxx* 0xxxxxxx" } }
//! "#).unwrap();
//! let f = Automaton::build(&d.model, BuildOptions::default()).unwrap().flagged.unwrap();
//! assert!(f.continues_when_set && f.lsb_first);
//! assert_eq!((f.lengths, f.lo[1], f.hi[1], f.hi[9]), (10, 0, 0x3FFF, u64::MAX));
//! ```

use num_traits::ToPrimitive;
use placemat_codec::Flagged;

use super::{Automaton, EncodeForm};
use crate::model::{Layout, Model};

/// The longest sequence the runtime's word decoder reads.
const WORD: usize = 8;

/// The longest sequence the fact describes where groups go least
/// significant first (LEB128's 64-bit values: the SIMD kernel reads the
/// last two units' groups apart); most significant first, [`WORD`].
const LONGEST: usize = 10;

/// The fact for `a`, or why it has none (one sentence for `tables`).
pub(super) fn derive(a: &Automaton, model: &Model) -> Result<Flagged, String> {
    if a.unit_bytes != 1 || a.radix || model.symbols().is_some() {
        return Err("its units are not bytes with bit patterns".into());
    }
    if model.premap.is_some() || !model.excluded.is_empty() || a.contexts > 1 || a.has_pending() {
        return Err("it maps or excludes values or has rules across values or overlapping forms".into());
    }
    if model.layout == Layout::Explicit {
        return Err("its forms state their ranges (`layout: explicit`)".into());
    }
    let signed = model.extended();
    let mut forms: Vec<EncodeForm> = match signed {
        Some(s) => extended_forms(model, s)?,
        None => (1..=LONGEST).map_while(|n| one_form_of(a, n).cloned()).collect(),
    };
    let [_, second, ..] = &forms[..] else {
        let shared = (1..=2).find(|&n| a.encode_forms.iter().filter(|f| f.units.len() == n).count() > 1);
        return Err(match shared {
            // SLEB128: a length's negative values have a bias of their own.
            Some(n) => format!("its encoder has two forms of {n} unit{}", if n == 1 { "" } else { "s" }),
            None => "it has no form of two units".into(),
        });
    };
    let continues = second.units[0].fixed_bits & 0x80 != 0;
    let lsb_first = second.places[0] == 0;
    if !lsb_first {
        forms.truncate(WORD);
    }
    let mut f = Flagged {
        continues_when_set: continues,
        lsb_first,
        lengths: 0,
        lo: [0; LONGEST],
        hi: [0; LONGEST],
        bias: [0; LONGEST],
        signed: signed.is_some(),
    };
    for (i, form) in forms.iter().enumerate() {
        if !flagged_units(form, continues) || !ordered(form, lsb_first) {
            return Err(format!(
                "its form of {} unit{} is not seven payload bits and a flag per unit",
                i + 1,
                if i == 0 { "" } else { "s" }
            ));
        }
        f.lengths = i as u8 + 1;
        f.bias[i] = form.bias;
        f.hi[i] = form.hi;
        f.lo[i] = match model.layout {
            Layout::Padded if signed.is_none() => model.min.to_u64().ok_or("its least value does not fit 64 bits")?,
            _ => form.lo,
        };
    }
    let longer_continue = a.encode_forms.iter().filter(|form| form.units.len() > WORD).all(|form| {
        form.units[..WORD].iter().all(|u| u.fixed_mask & 0x80 != 0 && (u.fixed_bits & 0x80 != 0) == continues)
    });
    if !longer_continue
        || a.encode_forms.iter().any(|form| form.units.len() > usize::from(f.lengths) && form.units.len() <= WORD)
    {
        return Err("a longer form does not start with eight continuing units".into());
    }
    Ok(f)
}

/// For a `sign: extend` codec, one form per length of one to eight units
/// whose value is its payload sign-extended: the length's two halves
/// (non-negative and negative payloads) joined, their values the halves'
/// least and greatest as patterns, bias 0. Under `layout: shortest` a
/// length's values are two runs (a shorter length holds the ones between),
/// which one range per length does not say.
fn extended_forms(model: &Model, s: &crate::signed::Signed) -> Result<Vec<EncodeForm>, String> {
    use crate::signed::Signed;
    if model.layout != Layout::Padded {
        return Err("a length's values are two runs (the shortest two's complement)".into());
    }
    let concrete = model.concrete_forms();
    let mut out = Vec::new();
    // Up to nine units: a sign-extended payload of ten (70 bits) is not a
    // 64-bit pattern.
    for n in 1..LONGEST {
        let halves: Vec<_> = concrete.iter().filter(|f| f.units.len() == n).collect();
        let Some(first) = halves.first() else { break };
        if halves.iter().any(|h| h.units != first.units) {
            // Past eight units the fact stops short (SLEB128's tenth unit
            // fixes bits that differ by sign); the codec's step reads them.
            if n > WORD {
                break;
            }
            return Err(format!("its halves of {n} units differ in their units"));
        }
        let lo = halves.iter().map(|h| s.value(&h.lo)).min().unwrap_or_default();
        let hi = halves.iter().map(|h| s.value(&h.hi)).max().unwrap_or_default();
        let (lo, hi) = (Signed::pattern(&lo), Signed::pattern(&hi));
        out.push(EncodeForm { lo, hi, bias: 0, units: first.units.clone(), places: model.places(&first.units) });
    }
    Ok(out)
}

/// The encoder's one form of `n` units, if it has exactly one.
fn one_form_of(a: &Automaton, n: usize) -> Option<&EncodeForm> {
    let mut of_n = a.encode_forms.iter().filter(|f| f.units.len() == n);
    let form = of_n.next()?;
    of_n.next().is_none().then_some(form)
}

/// Whether every unit of `form` is bit 7 fixed and seven payload bits, bit 7
/// set as `continues` in all but the last unit and the other way there.
fn flagged_units(form: &EncodeForm, continues: bool) -> bool {
    let last = form.units.len() - 1;
    form.units.iter().enumerate().all(|(i, u)| {
        u.digits.is_none()
            && u.fixed_mask == 0x80
            && u.payload_bits == 7
            && (u.fixed_bits & 0x80 != 0) == (continues == (i < last))
    })
}

/// Whether `form`'s groups go least significant first (`lsb_first`) or most
/// significant first, seven bits apart.
fn ordered(form: &EncodeForm, lsb_first: bool) -> bool {
    let n = form.units.len() as u32;
    form.places.iter().zip(0..).all(|(&place, i)| place == 7 * if lsb_first { i } else { n - 1 - i })
}

/// The fact in a few words, for `tables` and `compare` (no commas: a CSV
/// cell): `yes: bit 7 set continues; groups least significant first; 1-8
/// units`, or `no: ` and why.
pub fn verdict(flagged: &Result<Flagged, String>) -> String {
    match flagged {
        Ok(f) => format!(
            "yes: bit 7 {} continues; groups {} significant first; 1-{} units{}",
            if f.continues_when_set { "set" } else { "clear" },
            if f.lsb_first { "least" } else { "most" },
            f.lengths,
            if f.signed { "; sign-extended" } else { "" }
        ),
        Err(why) => format!("no: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::automaton::{Automaton, BuildOptions};
    use crate::Description;

    fn fact(layout: &str) -> Result<placemat_codec::Flagged, String> {
        let text = format!(
            "pub S {{ name: \"s\", value: i64, sign: extend, range: -0x8000000000000000 ..= 0x7FFFFFFFFFFFFFFF, \
             layout: {layout}, groups: lsb_first, forms: {{ \"1xxxxxxx* 0xxxxxxx\" }} }}"
        );
        let model = Description::parse_str(&text).unwrap().model;
        Automaton::build(&model, BuildOptions::default()).unwrap().flagged
    }

    /// Padded two's complement is one range per length, sign-extended; the
    /// shortest is two runs per length, which the fact cannot say.
    #[test]
    fn sign_extension_is_a_flagged_stream_when_padded() {
        let f = fact("padded").unwrap();
        assert!(f.signed && f.lsb_first && f.lengths == 9);
        assert_eq!((f.lo[0] as i64, f.hi[0] as i64), (-64, 63));
        assert_eq!((f.lo[1] as i64, f.hi[1] as i64), (-8192, 8191));
        assert_eq!(f.bias, [0; 10]);
        // Nine units: 63 bits, sign-extended; the tenth unit fixes its bits
        // by sign, which one form per length does not say.
        assert_eq!((f.lo[8] as i64, f.hi[8] as i64), (-(1 << 62), (1 << 62) - 1));
        assert_eq!(f.step(&[0x7E]), Some((-2i64 as u64, 1)));
        assert_eq!(f.step(&[0x80, 0x7F, 0, 0, 0, 0, 0, 0]), Some((-128i64 as u64, 2)));
        assert_eq!(fact("shortest").unwrap_err(), "a length's values are two runs (the shortest two's complement)");
    }
}
