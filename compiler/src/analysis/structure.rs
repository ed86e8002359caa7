//! Structural properties, proved from the model: which values, in which forms, and
//! what the set of encodings looks like as a code.
//!
//! ```
//! use placemat_compiler::analysis::structure;
//! use placemat_compiler::Description;
//! let model = Description::parse_str(r#"
//!     pub X { name: "x", value: u32, range: 0 ..= 0x207F, layout: biased,
//!             forms: { "0zzzzzzz", "10zzzzzz 1zzzzzzz" } }
//! "#).unwrap().model;
//! let s = structure::analyze(&model);
//! assert_eq!(s.max_units, Some(2));
//! assert!(s.prefix_free.is_yes() && s.uniquely_decodable.is_yes());
//! assert!(s.ascii_transparent.is_yes() && s.fs_safe.is_yes());
//! // Byte order follows value order inside each form, and every 2-byte encoding
//! // (lead 80–BF) sorts after every 1-byte one.
//! assert!(s.order_preserving.is_yes());
//! ```
//!
//! # How
//! Each concrete form's valid values are split ([`crate::split_range`]) into
//! *blocks*: products of one payload range per unit, so a block's encodings are
//! every combination of its units. The properties reduce to questions about blocks:
//!
//! * *prefix-free*: no block of one form agrees, unit set by unit set, with the
//!   start of a block of another form that is at least as long;
//! * *uniquely decodable*: prefix-free, or else the Sardinas–Patterson test on the
//!   explicit list of encodings when it is small;
//! * *ASCII-transparent*: U+0000–U+007F encode as the single bytes 00–7F, and no
//!   byte below 80 occurs in a multi-unit encoding; *file-system safe*: the same
//!   for U+0000 and U+002F (`/`) only, X/Open's 1992 requirement;
//! * *order-preserving*: sorting encodings byte-wise sorts their values. Inside a
//!   block this holds if each unit's byte grows with its payload; across blocks, if
//!   each block's largest encoding sorts before the next block's smallest; values
//!   moved by a pre-mapping are compared one by one. A "no" is always a pair of
//!   values whose encodings sort the wrong way.
//!
//! A model with unbounded values is examined on its forms up to a length beyond
//! which every form repeats the same unit sets with unrestricted payloads
//! ([`Structure::checked_units`]).

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use super::units_text;
use crate::model::{ConcreteForm, Model};
use crate::reference::Reference;

/// A property's value: proved, refuted with a witness, or not decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The property holds.
    Yes,
    /// It does not; the text is a witness.
    No(String),
    /// It could not be decided; the text says why.
    Unknown(String),
}

impl Verdict {
    /// Whether the property holds.
    pub fn is_yes(&self) -> bool {
        matches!(self, Verdict::Yes)
    }
    /// Whether it was refuted.
    pub fn is_no(&self) -> bool {
        matches!(self, Verdict::No(_))
    }
    /// `yes`, `no` or `?`.
    pub fn short(&self) -> &'static str {
        match self {
            Verdict::Yes => "yes",
            Verdict::No(_) => "no",
            Verdict::Unknown(_) => "?",
        }
    }
}

/// One concrete form: its length and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormSummary {
    /// Units per value.
    pub units: usize,
    /// First value (before any pre-mapping is undone).
    pub lo: BigUint,
    /// Last value.
    pub hi: BigUint,
    /// How many valid values it encodes.
    pub values: BigUint,
}

/// The structural properties of a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structure {
    /// Bits per unit.
    pub unit_bits: u32,
    /// Smallest value.
    pub min: BigUint,
    /// Largest value (`None`: unbounded).
    pub max: Option<BigUint>,
    /// Excluded ranges.
    pub excluded: Vec<(BigUint, BigUint)>,
    /// For a signed codec, its signed range and sign: `min`, `max`,
    /// `excluded` and the forms' ranges are then raw values
    /// ([`Structure::values_of`] gives a form's values).
    pub signed: Option<crate::signed::Signed>,
    /// Rules across adjacent values (`forbid`).
    pub forbid: Vec<crate::contexts::Forbid>,
    /// Whether values 0–127 are permuted before encoding.
    pub premapped: bool,
    /// The concrete forms (up to `checked_units` units for an unbounded model).
    pub forms: Vec<FormSummary>,
    /// For an unbounded model, the longest forms examined.
    pub checked_units: Option<usize>,
    /// Longest encoding in units (`None`: unbounded).
    pub max_units: Option<usize>,
    /// No encoding is a proper prefix of another, and no two values share one.
    pub prefix_free: Verdict,
    /// Every concatenation of encodings splits into encodings in one way only.
    pub uniquely_decodable: Verdict,
    /// Every value has exactly one encoding (no decode-only, padded forms).
    pub canonical: Verdict,
    /// U+0000–U+007F are the bytes 00–7F, which occur in no other encoding.
    pub ascii_transparent: Verdict,
    /// U+0000 and U+002F are the bytes 00 and 2F, which occur in no other encoding.
    pub fs_safe: Verdict,
    /// Byte-wise order of encodings is the order of values.
    pub order_preserving: Verdict,
}

/// Runs every structural check on `model`.
pub fn analyze(model: &Model) -> Structure {
    let checked_units = truncation(model);
    let forms = model.concrete_forms_upto(checked_units);
    let reference = Reference::new(model);
    let premap_len = premap_len(model);
    let all = blocks(model, &forms, &BigUint::zero());
    let prefix_free = prefix_free(model, &forms, &all);
    let uniquely_decodable = match prefix_free.is_yes() {
        true => Verdict::Yes,
        false => match sardinas_patterson(model, &forms, &all) {
            Verdict::Unknown(why) => split_codeword(model, &forms, &all).map_or(Verdict::Unknown(why), Verdict::No),
            known => known,
        },
    };
    let ascii: Vec<u8> = (0..0x80).collect();
    Structure {
        unit_bits: model.unit_width(),
        min: model.min.clone(),
        max: model.max.clone(),
        excluded: model.excluded.clone(),
        signed: model.signed.clone(),
        forbid: model.forbid.clone(),
        premapped: premap_len > 0,
        forms: forms
            .iter()
            .map(|f| FormSummary {
                units: f.units.len(),
                lo: f.lo.clone(),
                hi: f.hi.clone(),
                values: model.valid_ranges(f).iter().map(|(a, b)| b - a + 1u32).sum(),
            })
            .collect(),
        checked_units,
        max_units: model.max_units(),
        ascii_transparent: self_representing(model, &reference, &forms, &all, &ascii),
        fs_safe: self_representing(model, &reference, &forms, &all, &[0x00, 0x2F]),
        order_preserving: order_preserving(model, &reference, &forms, premap_len),
        prefix_free,
        uniquely_decodable,
        canonical: canonical(model, &forms),
    }
}

/// Whether every value has one encoding; otherwise the smallest value two forms
/// share, with both its encodings.
fn canonical(model: &Model, forms: &[ConcreteForm]) -> Verdict {
    let Some((v, a, b)) = model.shared_value(forms) else { return Verdict::Yes };
    let spell = |f: &ConcreteForm| -> Vec<u8> {
        let digits = model.payload_digits(&f.units, &(&v - &f.bias));
        f.units.iter().zip(digits).map(|(u, d)| model.digit_unit(u, d)).collect()
    };
    let (ea, eb) = (spell(&forms[a]), spell(&forms[b]));
    Verdict::No(format!("{} is both {} and {}", model.value_text(&v), units_text(model, &ea), units_text(model, &eb)))
}

/// For an unbounded model: a form length past the declared patterns and past every
/// finite bound (minimum, exclusions, pre-mapping), so that longer forms repeat the
/// same unit sets with unrestricted payloads. For a model padded without a
/// limit: two lengths past the encoder's longest, where the zero groups
/// begin to repeat. `None` for any other bounded model.
fn truncation(model: &Model) -> Option<usize> {
    if model.pads_without_limit() {
        return Some(model.concrete_forms().iter().map(|f| f.units.len()).max().unwrap_or(1) + 2);
    }
    if model.is_bounded() {
        return None;
    }
    let mut bound = model.min.clone();
    for (_, hi) in &model.excluded {
        bound = bound.max(hi.clone());
    }
    bound = bound.max(BigUint::from(premap_len(model)));
    let declared = model.forms.iter().map(|f| f.units.len()).max().unwrap_or(1);
    let mut limit = declared + 2;
    loop {
        let forms = model.concrete_forms_upto(Some(limit + 1));
        let Some(last) = forms.last() else { return Some(limit) };
        // Stay within split_range's 128-bit payloads.
        if last.payload_bits() > 120 || last.lo > bound {
            return Some(limit);
        }
        limit += 1;
    }
}

/// How many leading values a non-identity pre-mapping moves (0 if none).
fn premap_len(model: &Model) -> usize {
    match &model.premap {
        Some(p) if p.iter().enumerate().any(|(i, &m)| i as u32 != m) => p.len(),
        _ => 0,
    }
}

/// A 256-bit set of bytes.
type ByteSet = [u64; 4];

fn has(s: &ByteSet, b: u8) -> bool {
    s[(b >> 6) as usize] >> (b & 63) & 1 == 1
}

fn first_common(a: &ByteSet, b: &ByteSet) -> Option<u8> {
    (0..=255u8).find(|&u| has(a, u) && has(b, u))
}

/// A product of payload ranges, one per unit, inside one concrete form.
struct Block {
    form: usize,
    payloads: Vec<(u32, u32)>,
    bytes: Vec<ByteSet>,
}

impl Block {
    fn len(&self) -> usize {
        self.payloads.len()
    }

    /// The encoding with payload `pick(i, lo, hi)` at each unit `i`.
    fn encoding(
        &self,
        model: &Model,
        form: &ConcreteForm,
        pick: impl Fn(usize, u32, u32) -> u32,
    ) -> (Vec<u32>, Vec<u8>) {
        let payloads: Vec<u32> = self.payloads.iter().enumerate().map(|(i, &(lo, hi))| pick(i, lo, hi)).collect();
        let units = payloads.iter().zip(&form.units).map(|(&p, pat)| model.digit_unit(pat, u64::from(p))).collect();
        (payloads, units)
    }

    /// The value and the encoding of the block's codeword made of `units`
    /// where given (each unit's own digit), of each range's low end after them.
    fn read(&self, model: &Model, form: &ConcreteForm, units: &[u8]) -> (BigUint, Vec<u8>) {
        let (payloads, encoding) = self.encoding(model, form, |i, lo, _| {
            units.get(i).and_then(|&u| model.form_digit(&form.units[i], u)).map_or(lo, |d| d as u32)
        });
        (Block::value(model, form, &payloads), encoding)
    }

    /// The value carrying `payloads` (pre-mapping undone).
    fn value(model: &Model, form: &ConcreteForm, payloads: &[u32]) -> BigUint {
        let digits: Vec<u64> = payloads.iter().map(|&p| u64::from(p)).collect();
        let raw = model.payload(&form.units, &digits) + &form.bias;
        match (model.premap_inverse(), raw.to_usize()) {
            (Some(inv), Some(i)) if i < inv.len() => BigUint::from(inv[i]),
            _ => raw,
        }
    }
}

/// Every form's valid values from `from` on, as blocks, in value order.
fn blocks(model: &Model, forms: &[ConcreteForm], from: &BigUint) -> Vec<Block> {
    let mut out = Vec::new();
    let mut order: Vec<(BigUint, usize)> = Vec::new();
    for (fi, f) in forms.iter().enumerate() {
        for (lo, hi) in model.valid_ranges(f) {
            let lo = lo.max(from.clone());
            if lo > hi {
                continue;
            }
            let (Some(plo), Some(phi)) = ((&lo - &f.bias).to_u128(), (&hi - &f.bias).to_u128()) else { continue };
            for seq in model.split_payloads(&f.units, plo, phi) {
                let bytes = seq.iter().zip(&f.units).map(|(&(dlo, dhi), pat)| model.unit_set(pat, dlo, dhi)).collect();
                let block = Block { form: fi, payloads: seq, bytes };
                let (p, _) = block.encoding(model, f, |_, lo, _| lo);
                order.push((Block::value(model, f, &p), out.len()));
                out.push(block);
            }
        }
    }
    order.sort();
    let mut slots: Vec<Option<Block>> = out.into_iter().map(Some).collect();
    order.into_iter().map(|(_, i)| slots[i].take().expect("each block once")).collect()
}

fn prefix_free(model: &Model, forms: &[ConcreteForm], blocks: &[Block]) -> Verdict {
    for a in blocks {
        for b in blocks {
            if a.form == b.form || a.len() > b.len() {
                continue;
            }
            let common: Option<Vec<u8>> = (0..a.len()).map(|i| first_common(&a.bytes[i], &b.bytes[i])).collect();
            let Some(common) = common else { continue };
            let (va, ea) = a.read(model, &forms[a.form], &common);
            let (vb, eb) = b.read(model, &forms[b.form], &common);
            return Verdict::No(if a.len() == b.len() {
                format!(
                    "{} and {} are both encoded as {}",
                    model.value_text(&va),
                    model.value_text(&vb),
                    units_text(model, &ea)
                )
            } else {
                format!(
                    "{} ({}) is a prefix of {} ({})",
                    units_text(model, &ea),
                    model.value_text(&va),
                    units_text(model, &eb),
                    model.value_text(&vb)
                )
            });
        }
    }
    Verdict::Yes
}

/// The largest code the Sardinas–Patterson test is run on.
const SARDINAS_PATTERSON_LIMIT: usize = 1 << 12;

/// The Sardinas–Patterson test on the explicit list of encodings, if it is small.
fn sardinas_patterson(model: &Model, forms: &[ConcreteForm], blocks: &[Block]) -> Verdict {
    let total: f64 =
        blocks.iter().map(|b| b.payloads.iter().map(|&(lo, hi)| f64::from(hi - lo + 1)).product::<f64>()).sum();
    if !model.is_bounded() || total > SARDINAS_PATTERSON_LIMIT as f64 {
        return Verdict::Unknown(format!("not prefix-free, and too many encodings ({total}) to test"));
    }
    let mut code: Vec<Vec<u8>> = Vec::new();
    for b in blocks {
        let form = &forms[b.form];
        let mut digits: Vec<u32> = b.payloads.iter().map(|&(lo, _)| lo).collect();
        loop {
            code.push(b.encoding(model, form, |i, _, _| digits[i]).1);
            if !advance(&mut digits, &b.payloads) {
                break;
            }
        }
    }
    code.sort();
    let before = code.len();
    code.dedup();
    if code.len() != before {
        return Verdict::No("two values share an encoding".into());
    }
    let dangling = |from: &[Vec<u8>], against: &[Vec<u8>]| -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for u in from {
            for w in against {
                if w.len() > u.len() && w.starts_with(u) {
                    out.push(w[u.len()..].to_vec());
                }
                if u.len() > w.len() && u.starts_with(w) {
                    out.push(u[w.len()..].to_vec());
                }
            }
        }
        out.sort();
        out.dedup();
        out
    };
    let mut seen: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut current: Vec<Vec<u8>> = {
        let mut first = Vec::new();
        for u in &code {
            for w in &code {
                if w.len() > u.len() && w.starts_with(u) {
                    first.push(w[u.len()..].to_vec());
                }
            }
        }
        first.sort();
        first.dedup();
        first
    };
    while !current.is_empty() && !seen.contains(&current) {
        if let Some(w) = current.iter().find(|w| code.binary_search(w).is_ok()) {
            return Verdict::No(format!(
                "the Sardinas-Patterson test reaches the encoding {} as a dangling suffix",
                units_text(model, w)
            ));
        }
        let next = dangling(&current, &code);
        seen.push(std::mem::replace(&mut current, next));
    }
    Verdict::Yes
}

/// A codeword that is also two codewords one after the other, so that a
/// word has two factorizations: for codes too large for the
/// Sardinas–Patterson test on their list, searched over the blocks (products
/// of unit sets), where it finds the two-codeword case only.
fn split_codeword(model: &Model, forms: &[ConcreteForm], blocks: &[Block]) -> Option<String> {
    // The first unit each position has in common, `a` against `b` from `at`.
    let common = |a: &Block, b: &Block, at: usize| -> Option<Vec<u8>> {
        (0..a.len()).map(|i| first_common(&a.bytes[i], &b.bytes[at + i])).collect()
    };
    let value = |b: &Block, units: &[u8]| b.read(model, &forms[b.form], units).0;
    for whole in blocks {
        for head in blocks.iter().filter(|h| h.len() < whole.len()) {
            let Some(first) = common(head, whole, 0) else { continue };
            for tail in blocks.iter().filter(|t| t.len() == whole.len() - head.len()) {
                let Some(second) = common(tail, whole, head.len()) else { continue };
                let units = [&first[..], &second[..]].concat();
                let longest =
                    if model.longest { " (the decoder takes the longest match, `overlap: longest`)" } else { "" };
                return Some(format!(
                    "{} is {} and also {} then {}{longest}",
                    units_text(model, &units),
                    model.value_text(&value(whole, &units)),
                    model.value_text(&value(head, &first)),
                    model.value_text(&value(tail, &second))
                ));
            }
        }
    }
    None
}

/// Steps `digits` to the next combination inside `ranges`, last unit fastest;
/// `false` after the last one.
fn advance(digits: &mut [u32], ranges: &[(u32, u32)]) -> bool {
    for i in (0..digits.len()).rev() {
        if digits[i] < ranges[i].1 {
            digits[i] += 1;
            return true;
        }
        digits[i] = ranges[i].0;
    }
    false
}

/// Values `targets` encode as the single bytes of the same number, and those bytes
/// occur in no multi-unit encoding.
fn self_representing(
    model: &Model,
    reference: &Reference<'_>,
    forms: &[ConcreteForm],
    blocks: &[Block],
    targets: &[u8],
) -> Verdict {
    for &t in targets {
        let Some(v) = model.raw_of(u64::from(t)) else {
            return Verdict::No(format!("{} is not a value", model.value_text(&BigUint::from(t))));
        };
        match reference.encode(&v) {
            Some(e) if e == [t] => {}
            Some(e) => return Verdict::No(format!("{} is encoded as {}", model.value_text(&v), units_text(model, &e))),
            None => return Verdict::No(format!("{} cannot be encoded", model.value_text(&v))),
        }
    }
    for b in blocks.iter().filter(|b| b.len() > 1) {
        let form = &forms[b.form];
        for (i, set) in b.bytes.iter().enumerate() {
            if let Some(&t) = targets.iter().find(|&&t| has(set, t)) {
                let digit = model.form_digit(&form.units[i], t).unwrap_or(0) as u32;
                let (p, e) = b.encoding(model, form, |j, lo, _| if j == i { digit } else { lo });
                let v = Block::value(model, form, &p);
                return Verdict::No(format!(
                    "byte {t:02X} occurs inside {} ({})",
                    units_text(model, &e),
                    model.value_text(&v)
                ));
            }
        }
    }
    Verdict::Yes
}

pub(crate) fn inversion(model: &Model, a: (&BigUint, &[u8]), b: (&BigUint, &[u8])) -> Verdict {
    Verdict::No(format!(
        "{} < {} but {} sorts after {}",
        model.value_text(a.0),
        model.value_text(b.0),
        units_text(model, a.1),
        units_text(model, b.1)
    ))
}

fn order_preserving(model: &Model, reference: &Reference<'_>, forms: &[ConcreteForm], premap_len: usize) -> Verdict {
    match &model.signed {
        // The raw values of non-negative two's complement are the values.
        Some(s) if s.sign != placemat_codec::Sign::TwosComplement || s.min < num_bigint::BigInt::ZERO => {
            return super::signed_values::order(model, reference, s)
        }
        _ => {}
    }
    // Values a pre-mapping moves, and the first value after them, one by one.
    let mut prev: Option<(BigUint, Vec<u8>)> = None;
    if premap_len > 0 {
        let mut v = model.min.clone();
        while v <= BigUint::from(premap_len) {
            if let Some(e) = reference.encode(&v) {
                if let Some((pv, pe)) = &prev {
                    if *pe >= e {
                        return inversion(model, (pv, pe), (&v, &e));
                    }
                }
                prev = Some((v.clone(), e));
            }
            v += 1u32;
        }
    }
    let from = BigUint::from(premap_len + usize::from(premap_len > 0));
    for b in blocks(model, forms, &from) {
        let form = &forms[b.form];
        // Inside the block: each unit's byte must grow with its payload.
        for (i, &(lo, hi)) in b.payloads.iter().enumerate() {
            for d in lo..hi {
                let byte = |d: u32| model.digit_unit(&form.units[i], u64::from(d));
                if byte(d) >= byte(d + 1) {
                    let (p1, e1) = b.encoding(model, form, |j, lo, _| if j == i { d } else { lo });
                    let (p2, e2) = b.encoding(model, form, |j, lo, _| if j == i { d + 1 } else { lo });
                    let (v1, v2) = (Block::value(model, form, &p1), Block::value(model, form, &p2));
                    return inversion(model, (&v1, &e1), (&v2, &e2));
                }
            }
        }
        // Across blocks: the previous largest before this smallest.
        let (p, e) = b.encoding(model, form, |_, lo, _| lo);
        let v = Block::value(model, form, &p);
        if let Some((pv, pe)) = &prev {
            if *pe >= e {
                return inversion(model, (pv, pe), (&v, &e));
            }
        }
        let (p, e) = b.encoding(model, form, |_, _, hi| hi);
        prev = Some((Block::value(model, form, &p), e));
    }
    Verdict::Yes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Description;

    fn model(body: &str) -> Model {
        Description::parse_str(&format!("pub T {{ name: \"t\", {body} }}")).unwrap().model
    }

    const ALPHABET: &str = " abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_";

    #[test]
    fn utf8_like_codes_have_every_property() {
        let m = model(
            r#"value: u32, range: 0 ..= 0xFFFF, exclude: [0xD800 ..= 0xDFFF], layout: shortest,
               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx" }"#,
        );
        let s = analyze(&m);
        assert_eq!(s.max_units, Some(3));
        assert_eq!(s.forms.iter().map(|f| f.units).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(s.forms[2].values, BigUint::from(0x10000u32 - 0x800 - 0x800));
        for v in [&s.prefix_free, &s.uniquely_decodable, &s.ascii_transparent, &s.fs_safe, &s.order_preserving] {
            assert_eq!(*v, Verdict::Yes);
        }
    }

    #[test]
    fn a_free_second_byte_breaks_file_system_safety() {
        // Like Shift-JIS: the second byte of a pair may be anything, `/` included.
        let m =
            model(r#"value: u32, range: 0 ..= 0x3FFF, layout: shortest, forms: { "0xxxxxxx", "11xxxxxx xxxxxxxx" }"#);
        let s = analyze(&m);
        assert!(s.prefix_free.is_yes() && s.order_preserving.is_yes());
        assert_eq!(s.fs_safe, Verdict::No("byte 00 occurs inside C1 00 (U+0100)".into()));
        assert!(s.ascii_transparent.is_no());
    }

    #[test]
    fn alphabet_codes_are_neither_ascii_transparent_nor_ordered() {
        let m = model(&format!(
            r#"unit: alphabet("{ALPHABET}"), value: u32, range: 0 ..= 0x7FFF, layout: shortest,
               forms: {{ "1xxxxx* 0xxxxx" }}"#
        ));
        let s = analyze(&m);
        assert_eq!(s.unit_bits, 6);
        assert_eq!(s.max_units, Some(3));
        assert!(s.prefix_free.is_yes() && s.uniquely_decodable.is_yes());
        assert_eq!(s.ascii_transparent, Verdict::No("U+0000 is encoded as ` `".into()));
        assert!(s.fs_safe.is_no());
        // Digit 0 is a space (20) but digit 1 is `a` (61) and digit 27 `;` (3B).
        assert_eq!(s.order_preserving, Verdict::No("U+001A < U+001B but `z` sorts after `;`".into()));
    }

    #[test]
    fn unbounded_models_are_checked_on_their_repeating_forms() {
        let m = model(&format!(
            r#"unit: alphabet("{ALPHABET}"), value: unbounded, range: 0 .., layout: shortest,
               forms: {{ "1xxxxx* 0xxxxx" }}"#
        ));
        let s = analyze(&m);
        assert_eq!(s.max, None);
        assert_eq!(s.max_units, None);
        let checked = s.checked_units.unwrap();
        assert!(checked >= 3);
        assert_eq!(s.forms.len(), checked);
        assert!(s.prefix_free.is_yes());
        assert!(s.order_preserving.is_no());
    }

    #[test]
    fn a_byte_order_code_with_a_premap_is_checked_value_by_value() {
        // Swapping 0x41 and 0x42 before encoding breaks order at exactly that pair.
        let premap: Vec<String> = (0..0x80u32)
            .map(|v| {
                format!(
                    "{:#X}",
                    if v == 0x41 {
                        0x42
                    } else if v == 0x42 {
                        0x41
                    } else {
                        v
                    }
                )
            })
            .collect();
        let m = model(&format!(
            r#"value: u32, range: 0 ..= 0x7FF, layout: shortest, premap: [{}],
               forms: {{ "0xxxxxxx", "110xxxxx 10xxxxxx" }}"#,
            premap.join(", ")
        ));
        let s = analyze(&m);
        assert_eq!(s.order_preserving, Verdict::No("U+0041 < U+0042 but 42 sorts after 41".into()));
        assert!(s.ascii_transparent.is_no());
        assert!(s.fs_safe.is_yes());
    }

    /// A model the validator would refuse, built by hand: the 2-unit form's lead
    /// pattern overlaps the 1-unit form.
    fn overlapping(first_lead_fixed: u8) -> Model {
        let mut m =
            model(r#"value: u32, range: 0 ..= 3, layout: shortest, forms: { "0000000x", "1000000x 0000000x" }"#);
        m.forms[1].units[0].fixed_bits = first_lead_fixed;
        m
    }

    #[test]
    fn prefix_codes_and_the_sardinas_patterson_test() {
        assert!(analyze(&overlapping(0x80)).prefix_free.is_yes());
        // Code {00, 01, 01 00, 01 01}: 01 00 is also 01 then 00.
        let s = analyze(&overlapping(0x00));
        assert_eq!(s.prefix_free, Verdict::No("01 (U+0001) is a prefix of 01 00 (U+0002)".into()));
        assert!(s.uniquely_decodable.is_no());
        // Code {00, 01, 01 02, 01 03} is not prefix-free but uniquely decodable:
        // 02 and 03 start no codeword.
        let mut m = overlapping(0x00);
        m.forms[1].units[1].fixed_bits = 0x02;
        let s = analyze(&m);
        assert!(s.prefix_free.is_no());
        assert_eq!(s.uniquely_decodable, Verdict::Yes);
    }

    #[test]
    fn a_codeword_that_is_two_codewords_decides_a_code_too_large_to_list() {
        // 00-7F alone, and every pair of them for U+0080 on: 16,512 codewords,
        // more than the Sardinas-Patterson test lists.
        let m = model(
            r#"value: u32, range: 0 ..= 0x407F, layout: explicit, overlap: longest,
            forms: { 0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x407F bias 0x80 => "0xxxxxxx 0xxxxxxx" }"#,
        );
        let s = analyze(&m);
        assert!(s.prefix_free.is_no());
        let longest = " (the decoder takes the longest match, `overlap: longest`)";
        assert_eq!(s.uniquely_decodable, Verdict::No(format!("00 00 is U+0080 and also U+0000 then U+0000{longest}")));
    }
}
