//! What every codec is: a name, a range, an encoder, decoders and tables, reachable
//! both statically (the [`Codec`] trait) and dynamically ([`DynCodec`], for the CLI
//! and for descriptions loaded at run time).
//!
//! ```
//! use placemat_codec::{CodecInfo, Unit};
//! let info = CodecInfo::new("toy", "a toy codec", Unit::Byte, 32, 0, 0x7F, &[], Some(1));
//! assert!(info.contains(0x41));
//! assert!(!info.contains(0x80));
//! assert_eq!(info.range_text(), "U+0000..=U+007F");
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::{dfa::Dfa, AsciiRuns, Decoder, Encoder, WideForms};
#[cfg(feature = "big")]
use crate::{EncodeError, Step};

/// What a codec's units are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// 8-bit bytes.
    Byte,
    /// Symbols of an alphabet, each written as one byte (ASCII character); symbol `i`
    /// is the digit `i`.
    Alphabet(Cow<'static, [u8]>),
}

/// Static facts about a codec.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodecInfo {
    /// The codec's name, as `placemat list` prints it.
    pub name: Cow<'static, str>,
    /// One line describing it.
    pub summary: Cow<'static, str>,
    /// Its units.
    pub unit: Unit,
    /// Width of its value type in bits.
    pub value_bits: u32,
    /// Smallest encodable value (of a signed codec: its sign-extended
    /// pattern, as in every 64-bit view of its values).
    pub min: u64,
    /// Largest encodable value (of a signed codec: its sign-extended pattern).
    pub max: u64,
    /// Values inside `min..=max` that are not encodable (inclusive ranges,
    /// disjoint and in order: [`CodecInfo::contains`] searches them).
    pub excluded: Cow<'static, [(u64, u64)]>,
    /// The longest sequence, in units (`None`: unbounded).
    pub max_units: Option<usize>,
    /// Whether values of any size are encodable. `max` is then `u64::MAX`, the end of
    /// the 64-bit view; larger values go through `Codec::encode_big`/`step_big`.
    pub unbounded: bool,
    /// Why the codec has no SIMD validator, in one sentence: the compiler's
    /// verdict (`placemat_compiler::automaton::local`), carried with the
    /// codec so that a tool can say it without rebuilding the automaton.
    /// Empty for a codec whose tables have SIMD tables.
    pub no_simd: Cow<'static, str>,
    /// For a codec of 16- or 32-bit code units, the forms its encoder writes
    /// most values with, as data ([`WideForms`]): derived by the compiler
    /// from the description's forms, they are part of the encoder, and the
    /// bulk encoder ([`DynCodec::encode_block`](crate::DynCodec::encode_block)) writes with them.
    pub wide_forms: WideForms,
    /// For a codec of byte units whose encoder writes values as UTF-8 does,
    /// those forms as data ([`ByteForms`](crate::simd::ByteForms)): derived
    /// and proved by the compiler, they let the conversion engine write into
    /// the codec from UTF-16/32 in one SIMD pass.
    pub byte_forms: Option<crate::simd::ByteForms>,
    /// For a codec of byte units whose encoder writes each unit as fixed
    /// bits and one field of the payload, up to eight such forms as data
    /// ([`BitForms`](crate::simd::BitForms)): derived and proved by the
    /// compiler, they let the bulk encoder
    /// ([`DynCodec::encode_block`](crate::DynCodec::encode_block)) write
    /// eight values at a time where the machine has the kernel, and, with
    /// [`leads`](crate::simd::BitForms::leads), the bulk decoder
    /// ([`DynCodec::decode_block`](crate::DynCodec::decode_block)) read
    /// 64 units at a time.
    pub bit_forms: Option<crate::simd::BitForms>,
    /// For a codec of [`byte_forms`](CodecInfo::byte_forms) that writes some
    /// values as the byte forms of a pair of 16-bit units, as CESU-8 writes a
    /// supplementary character as the three-byte forms of its UTF-16
    /// surrogates, that pair ([`PairForm`](crate::PairForm)): derived and
    /// proved by the compiler, it lets the conversion engine write the codec
    /// from the UTF-8 family through 16-bit units with SIMD.
    pub pair_forms: Option<crate::PairForm>,
    /// With [`pair_forms`](CodecInfo::pair_forms), the SIMD validator's
    /// tables of the language the codec's 16-bit units make each written
    /// alone (its forms of `0`–`FFFF`, a pair's halves included, without
    /// rules across values): derived and proved by the compiler, they check
    /// the codec's text before the conversion engine reads it as 16-bit
    /// units (whose pairs the engine then checks).
    pub pair_unit_tables: Option<crate::simd::Tables>,
    /// The values after which a rule across values looks at the next one
    /// (the decoder's context after them is not 0): disjoint inclusive
    /// ranges in order, empty for a codec without such rules. A value
    /// outside them never makes the next value forbidden.
    pub rule_values: Cow<'static, [(u64, u64)]>,
    /// For an integer codec whose units mark where values end, how
    /// ([`Flagged`](crate::Flagged)): derived by the compiler, it lets bulk
    /// decoding read values a word at a time. The words give raw values,
    /// which a signed codec maps by its [`sign`](CodecInfo::sign) after.
    pub flagged: Option<crate::Flagged>,
    /// For an integer codec whose first unit gives a value's length, how
    /// ([`Prefixed`](crate::Prefixed)): derived by the compiler, it lets bulk
    /// decoding read each value with one load.
    pub prefixed: Option<crate::Prefixed>,
    /// For a signed codec (`value: i32` or `i64`), how its values map to the
    /// raw values its forms spell ([`Sign`](crate::Sign)); `None` for an
    /// unsigned codec. `min`, `max` and the values of
    /// [`DynCodec`](crate::DynCodec) are then sign-extended patterns.
    pub sign: Option<crate::Sign>,
    /// Every valid sequence is the encoder's writing of its value (`compare`'s
    /// "canonical": one encoding per value, bounded values, no padding
    /// beyond a limit), as the compiler proved: valid input is then its own
    /// re-encoding, and a transcoder from the codec to itself copies what
    /// it validates ([`crate::io::Transcoder`]). `false` where not proved.
    pub canonical: bool,
}

impl CodecInfo {
    /// Builds the info of a codec (generated code calls this in a `const`).
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        name: &'static str,
        summary: &'static str,
        unit: Unit,
        value_bits: u32,
        min: u64,
        max: u64,
        excluded: &'static [(u64, u64)],
        max_units: Option<usize>,
    ) -> Self {
        CodecInfo {
            name: Cow::Borrowed(name),
            summary: Cow::Borrowed(summary),
            unit,
            value_bits,
            min,
            max,
            excluded: Cow::Borrowed(excluded),
            max_units,
            unbounded: false,
            no_simd: Cow::Borrowed(""),
            wide_forms: WideForms::NONE,
            byte_forms: None,
            bit_forms: None,
            pair_forms: None,
            pair_unit_tables: None,
            rule_values: Cow::Borrowed(&[]),
            flagged: None,
            prefixed: None,
            sign: None,
            canonical: false,
        }
    }

    /// The same facts for a codec whose every valid sequence is the
    /// encoder's writing of its value ([`CodecInfo::canonical`]).
    pub const fn with_canonical(mut self) -> Self {
        self.canonical = true;
        self
    }

    /// The same facts for a signed codec whose values map to raw values by
    /// `sign`; `min` and `max` are sign-extended patterns.
    pub const fn with_sign(mut self, sign: crate::Sign) -> Self {
        self.sign = Some(sign);
        self
    }

    /// The same facts for an integer codec whose units mark where values end.
    pub const fn with_flagged(mut self, flagged: crate::Flagged) -> Self {
        self.flagged = Some(flagged);
        self
    }

    /// The same facts for an integer codec whose first unit gives a value's length.
    pub const fn with_prefixed(mut self, prefixed: crate::Prefixed) -> Self {
        self.prefixed = Some(prefixed);
        self
    }

    /// The same facts for a codec whose encoder writes most values with `forms`.
    pub const fn with_wide_forms(mut self, forms: WideForms) -> Self {
        self.wide_forms = forms;
        self
    }

    /// The same facts for a codec whose encoder writes values of one to four
    /// bytes with `forms`.
    pub const fn with_byte_forms(mut self, forms: crate::simd::ByteForms) -> Self {
        self.byte_forms = Some(forms);
        self
    }

    /// The same facts for a codec whose encoder writes values with the bit
    /// forms `forms`.
    pub const fn with_bit_forms(mut self, forms: crate::simd::BitForms) -> Self {
        self.bit_forms = Some(forms);
        self
    }

    /// The same facts for a codec of byte forms that writes the values of
    /// `pair` as the byte forms of its two units.
    pub const fn with_pair_forms(mut self, pair: crate::PairForm) -> Self {
        self.pair_forms = Some(pair);
        self
    }

    /// The same facts for a codec of pair forms whose 16-bit units, each
    /// written alone, `tables` check ([`CodecInfo::pair_unit_tables`]).
    pub const fn with_pair_unit_tables(mut self, tables: crate::simd::Tables) -> Self {
        self.pair_unit_tables = Some(tables);
        self
    }

    /// The same facts for a codec whose rules across values look at the
    /// value after each of `values` ([`CodecInfo::rule_values`]).
    pub const fn with_rule_values(mut self, values: &'static [(u64, u64)]) -> Self {
        // Replaced and forgotten, as in `with_no_simd`: `new` leaves it borrowed.
        core::mem::forget(core::mem::replace(&mut self.rule_values, Cow::Borrowed(values)));
        self
    }

    /// The same facts for a codec that has no SIMD validator, for the reason `why`.
    pub const fn with_no_simd(mut self, why: &'static str) -> Self {
        // Replaced and forgotten, not assigned: a `const fn` cannot run the
        // old value's destructor. `new` leaves it borrowed, so nothing leaks.
        core::mem::forget(core::mem::replace(&mut self.no_simd, Cow::Borrowed(why)));
        self
    }

    /// The same facts for a codec whose values have no upper bound.
    pub const fn with_unbounded_values(mut self) -> Self {
        self.unbounded = true;
        self.max = u64::MAX;
        self
    }

    /// Whether `value` is encodable (for values that fit `u64`).
    ///
    /// ```
    /// use placemat_codec::{CodecInfo, Unit};
    /// let holes = &[(0xD800, 0xDFFF), (0xFDD0, 0xFDEF)];
    /// let info = CodecInfo::new("bmp", "", Unit::Byte, 16, 0, 0xFFFF, holes, Some(3));
    /// let encodable: Vec<bool> = [0, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFDEF, 0xFDF0, 0x10000]
    ///     .map(|v| info.contains(v))
    ///     .into();
    /// assert_eq!(encodable, [true, true, false, false, true, false, true, false]);
    /// ```
    pub fn contains(&self, value: u64) -> bool {
        if self.sign.is_some() {
            // Patterns compare as the values they are; a signed codec has no
            // excluded ranges.
            let v = value as i64;
            return self.min as i64 <= v && v <= self.max as i64;
        }
        // The first excluded range that does not end below `value`.
        let next = self.excluded.partition_point(|&(_, hi)| hi < value);
        self.min <= value && value <= self.max && self.excluded.get(next).is_none_or(|&(lo, _)| value < lo)
    }

    /// The values the codec takes (`min..=max` less what it excludes), as
    /// ranges in order; of an unsigned codec (a signed one's, as patterns,
    /// are not ordered so).
    ///
    /// ```
    /// use placemat_codec::{CodecInfo, Unit};
    /// let info = CodecInfo::new("utf8", "", Unit::Byte, 21, 0, 0x10_FFFF, &[(0xD800, 0xDFFF)], Some(4));
    /// assert_eq!(info.value_ranges(), [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
    /// ```
    pub fn value_ranges(&self) -> Vec<(u64, u64)> {
        let (mut ranges, mut at) = (Vec::new(), Some(self.min));
        for &(lo, hi) in self.excluded.iter() {
            match at {
                Some(a) if hi < a => {}
                Some(a) => {
                    if lo > a {
                        ranges.push((a, (lo - 1).min(self.max)));
                    }
                    at = hi.checked_add(1);
                }
                None => break,
            }
        }
        ranges.extend(at.filter(|&a| a <= self.max).map(|a| (a, self.max)));
        ranges
    }

    /// Whether no value this codec takes is one after which a rule of
    /// `target` looks at the next ([`CodecInfo::rule_values`]): then, for
    /// values that come from this codec, `target` has no rules across values
    /// (UTF-16's values into WTF-8, which forbids only a high surrogate
    /// before a low one). Never for a signed target, whose rules are not
    /// facts of its 64-bit views (its rule values are none), or a signed
    /// source.
    ///
    /// ```
    /// use placemat_codec::{CodecInfo, Unit};
    /// let wtf8 = CodecInfo::new("wtf8", "", Unit::Byte, 21, 0, 0x10_FFFF, &[], Some(4));
    /// let wtf8 = wtf8.with_rule_values(&[(0xD800, 0xDBFF)]);
    /// // (UTF-16's values; its units are not what matters here.)
    /// let utf16 = CodecInfo::new("utf16le", "", Unit::Byte, 21, 0, 0x10_FFFF, &[(0xD800, 0xDFFF)], Some(4));
    /// assert!(utf16.never_meets_rules_of(&wtf8));
    /// // WTF-8's own values include the high surrogates.
    /// assert!(!wtf8.never_meets_rules_of(&wtf8));
    /// ```
    pub fn never_meets_rules_of(&self, target: &CodecInfo) -> bool {
        let met = |(lo, hi)| target.rules_look_after(lo, hi);
        self.sign.is_none() && target.sign.is_none() && !self.value_ranges().into_iter().any(met)
    }

    /// Whether a value of `lo..=hi` is one after which a rule across values
    /// looks at the next ([`CodecInfo::rule_values`]).
    ///
    /// ```
    /// use placemat_codec::{CodecInfo, Unit};
    /// let wtf8 = CodecInfo::new("wtf8", "", Unit::Byte, 21, 0, 0x10_FFFF, &[], Some(4));
    /// let wtf8 = wtf8.with_rule_values(&[(0xD800, 0xDBFF)]);
    /// assert!(wtf8.rules_look_after(0xDBFF, 0xDBFF) && wtf8.rules_look_after(0, 0xD800));
    /// assert!(!wtf8.rules_look_after(0xDC00, 0x10_FFFF));
    /// ```
    pub fn rules_look_after(&self, lo: u64, hi: u64) -> bool {
        self.rule_values.iter().any(|&(a, b)| a <= hi && lo <= b)
    }

    /// The range as text, `U+0000..=U+10FFFF except U+D800..=U+DFFF`, or in
    /// decimal for a signed codec: `-2147483647..=2147483647`.
    ///
    /// ```
    /// use placemat_codec::{CodecInfo, Sign, Unit};
    /// let info = CodecInfo::new("s8", "", Unit::Byte, 32, -128i64 as u64, 127, &[], Some(1))
    ///     .with_sign(Sign::TwosComplement);
    /// assert_eq!(info.range_text(), "-128..=127");
    /// assert!(info.contains(-128i64 as u64) && !info.contains(-129i64 as u64) && !info.contains(128));
    /// ```
    pub fn range_text(&self) -> String {
        let mut s = String::new();
        if self.sign.is_some() {
            match self.unbounded {
                true => s.push_str("any integer"),
                false => {
                    let _ = write!(s, "{}..={}", self.min as i64, self.max as i64);
                }
            }
            return s;
        }
        if self.unbounded {
            let _ = write!(s, "U+{:04X} and up, of any size", self.min);
        } else {
            let _ = write!(s, "U+{:04X}..=U+{:04X}", self.min, self.max);
        }
        for (i, &(lo, hi)) in self.excluded.iter().enumerate() {
            let _ = write!(s, "{}U+{lo:04X}..=U+{hi:04X}", if i == 0 { " except " } else { ", " });
        }
        s
    }
}

/// A generated codec: an encoder, a decoder that runs the fastest strategy
/// for each call, each strategy on its own (the branching and the table
/// decoder), and the tables.
pub trait Codec: Encoder + Decoder<Value = <Self as Encoder>::Value> {
    /// The branching decoder generated from the same description (what the
    /// codec type's [`Decoder::step`] runs).
    type Branching: Decoder<Value = <Self as Encoder>::Value> + Default;
    /// The table decoder generated from the same description: the table
    /// walker alone, one unit at a time (what the codec type's bulk calls run
    /// where no SIMD kernel reads the codec).
    type Table: Decoder<Value = <Self as Encoder>::Value> + Default;
    /// The description the codec was generated from, as token text (it parses with
    /// `placemat_compiler::Description::parse_str`, giving the same model and tables).
    const DESCRIPTION: &'static str;
    /// The codec's facts.
    fn info() -> &'static CodecInfo;
    /// The codec's tables.
    fn dfa() -> &'static Dfa;
    /// Whether values are mapped after decoding (`premap`, or a signed
    /// codec's `sign`): the table's values are then not the codec's, and
    /// [`DynCodec::decode_block`](crate::DynCodec::decode_block) maps each
    /// by [`Codec::map_raw`].
    const PREMAPPED: bool = false;

    /// The value (its 64-bit view) that a raw value of the automaton spells:
    /// the pre-mapping undone, or a signed codec's sign applied. The raw
    /// value itself for a codec that does not map values.
    #[inline(always)]
    fn map_raw(raw: u64) -> u64 {
        raw
    }

    /// Decodes the sequence at the start of `input` to a value of any size. For a
    /// bounded codec this widens [`Decoder::step`]; unbounded codecs override it.
    /// (A signed codec's values are their 64-bit patterns here: read them
    /// with [`Codec::step_bigint`].)
    #[cfg(feature = "big")]
    fn step_big(&self, input: &[u8]) -> Step<crate::big::BigUint> {
        widen_big(Decoder::step(self, input))
    }

    /// Appends the encoding of a value of any size. For a bounded codec this is
    /// [`Encoder::encode_push`] for values that fit the value type.
    #[cfg(feature = "big")]
    fn encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match u64::try_from(value).ok().and_then(crate::Value::from_u64) {
            Some(v) => Encoder::encode_push(self, v, out),
            None => Err(EncodeError::TooLarge { bits: value.bits() }),
        }
    }

    /// Decodes the sequence at the start of `input` to a signed value of any
    /// size: a signed codec's value, or an unsigned codec's (by
    /// [`Codec::step_big`]). Signed codecs of any size override it.
    #[cfg(feature = "big")]
    fn step_bigint(&self, input: &[u8]) -> Step<crate::big::BigInt> {
        match <<Self as Decoder>::Value as crate::simd::Slot>::SIGNED {
            true => widen_bigint(Decoder::step(self, input)),
            false => self.step_big(input).map(crate::big::BigInt::from),
        }
    }

    /// Appends the encoding of a signed value of any size: for a signed
    /// codec, values that fit its value type; for an unsigned one, the
    /// non-negative values [`Codec::encode_big`] takes
    /// ([`EncodeError::Negative`] for the others). Signed codecs of any size
    /// override it.
    #[cfg(feature = "big")]
    fn encode_bigint(&self, value: &crate::big::BigInt, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if <<Self as Encoder>::Value as crate::simd::Slot>::SIGNED {
            return match i64::try_from(value).ok().and_then(|v| crate::Value::from_u64(v as u64)) {
                Some(v) => Encoder::encode_push(self, v, out),
                None => Err(EncodeError::TooLarge { bits: value.bits() }),
            };
        }
        match crate::big::BigUint::try_from(value) {
            Ok(magnitude) => self.encode_big(&magnitude, out),
            Err(_) => Err(EncodeError::Negative),
        }
    }
}

/// A value of a bounded codec as a [`crate::big::BigInt`]: a signed codec's
/// from its pattern.
#[cfg(feature = "big")]
pub(crate) fn widen_bigint<V: crate::Value>(s: Step<V>) -> Step<crate::big::BigInt> {
    s.map(|value| match V::SIGNED {
        true => crate::big::BigInt::from(value.to_u64() as i64),
        false => crate::big::BigInt::from(value.to_u64()),
    })
}

#[cfg(feature = "big")]
pub(crate) fn widen_big<V: crate::Value>(s: Step<V>) -> Step<crate::big::BigUint> {
    s.map(|value| crate::big::BigUint::from(value.to_u64()))
}

/// [`DynCodec::decode_block`](crate::DynCodec::decode_block) by a codec's
/// fastest bulk decoder of raw values (the table's, before a codec's map): the
/// values of `input` up to its first error or a sequence its end cuts,
/// appended to `out`; the units they take. A whole sequence at the end of
/// `input` is final, but for a codec whose forms overlap by design (a pending
/// value a longer sequence may replace): its values are taken up to the last
/// cut ([`Dfa::last_cut`]).
///
/// An integer codec whose units mark the ends of its values
/// ([`CodecInfo::flagged`]) or whose first unit gives the length
/// ([`CodecInfo::prefixed`]) is read by that fact (its SIMD kernel where the
/// machine has one, then words), the table's steps taking what the fact
/// leaves; a codec whose first units name their bit forms
/// ([`BitForms::leads`](crate::simd::BitForms::leads)) and which the SIMD
/// decoding kernel does not read, by the forms' SIMD decoder where the
/// machine has it, then the table; a codec of wide code units (UTF-16,
/// UTF-32) by the units' SIMD kernel, pairs joined, then the table; any
/// other codec by [`Dfa::decode_into`]. An unbounded codec (values of any
/// size) is stepped with checked arithmetic ([`Dfa::step_checked`]) up to
/// its first value past 64 bits, which its caller decodes exactly.
///
/// Not generic over the table's storage (pass [`Dfa::as_ref`] of an owned
/// table): the bulk decoder behind it, SIMD kernels included, is compiled once,
/// in this crate, instead of again in every crate that converts text.
pub fn decode_to_cut(info: &CodecInfo, dfa: &Dfa<&[u32], &[u64]>, input: &[u8], out: &mut Vec<u64>) -> usize {
    if info.unbounded {
        return decode_checked(dfa, input, out);
    }
    let (steps, plain) = (TableSteps(dfa), dfa.contexts() == 1 && !dfa.has_pending());
    match (&info.flagged, &info.prefixed, &info.bit_forms) {
        (Some(f), _, _) if plain => crate::decode_flagged_prefix(f, &steps, input, usize::MAX, out).0.units,
        (None, Some(p), _) if plain => crate::decode_prefixed_prefix(p, &steps, input, usize::MAX, out).0.units,
        // Not where the SIMD decoding kernel reads the codec (the UTF-8
        // family: faster), nor for a few units (the kernel's tables are made
        // at every call).
        (None, None, Some(forms))
            if plain && forms.leads.is_some() && input.len() >= 1024 && dfa.decoding_shape().is_none() =>
        {
            let step = |rest: &[u8]| match dfa.step(rest) {
                crate::Step::Value { value, len } => Some((value, len)),
                _ => None,
            };
            let taken = crate::kernels::decode_bit_forms_into(forms, input, out, step).map_or(0, |(_, units)| units);
            taken + decode_by_table(dfa, &input[taken..], out)
        }
        _ if plain && info.wide_forms.is_some() => {
            let taken = crate::wide::decode_wide(info, dfa, input, out);
            taken + decode_by_table(dfa, &input[taken..], out)
        }
        _ => decode_by_table(dfa, input, out),
    }
}

/// [`decode_to_cut`] for an unbounded codec: step by step, each value's
/// arithmetic checked, up to the first error, sequence cut by the end of
/// `input` or value past 64 bits (invalid in the 64-bit view); nothing for a
/// codec with rules across values or pending values (whose steps need the
/// context or what follows).
fn decode_checked(dfa: &Dfa<&[u32], &[u64]>, input: &[u8], out: &mut Vec<u64>) -> usize {
    if dfa.contexts() > 1 || dfa.has_pending() {
        return 0;
    }
    let mut taken = 0;
    while let crate::Step::Value { value, len } = dfa.step_checked(&input[taken..]) {
        out.push(value);
        taken += len;
    }
    taken
}

/// A table's one-value steps, of raw values: what an integer fact's bulk
/// decoder leaves (a value it does not cover, the input's last units).
struct TableSteps<'a, 'd>(&'a Dfa<&'d [u32], &'d [u64]>);

impl Decoder for TableSteps<'_, '_> {
    type Value = u64;
    #[inline]
    fn step(&self, input: &[u8]) -> crate::Step<u64> {
        self.0.step(input)
    }
}

/// [`decode_to_cut`] by the table's bulk decoder ([`Dfa::decode_into`]).
fn decode_by_table(dfa: &Dfa<&[u32], &[u64]>, input: &[u8], out: &mut Vec<u64>) -> usize {
    let cut = if dfa.has_pending() {
        let Some(cut) = dfa.last_cut(input) else { return 0 };
        cut
    } else {
        input.len()
    };
    match dfa.decode_into::<u64>(&input[..cut], out) {
        Ok(()) => cut,
        Err(e) => e.valid_up_to(),
    }
}

/// [`DynCodec::ascii_runs`](crate::DynCodec::ascii_runs) of a table: its facts' ASCII runs, none for a
/// codec with rules across values.
pub fn ascii_runs_of<T: AsRef<[u32]>, B: AsRef<[u64]>>(dfa: &Dfa<T, B>) -> AsciiRuns {
    if dfa.contexts() > 1 {
        AsciiRuns::None
    } else {
        dfa.facts().ascii_runs
    }
}

/// [`DynCodec::encode_block`](crate::DynCodec::encode_block) for a generated codec without rules across
/// values: runs of values its [`WideForms`] write as single units by the SIMD
/// kernel ([`WideForms::encode_singles`]), the rest by one loop over
/// `encoder` (whose generated code writes a pair of UTF-16 surrogates faster
/// than the forms' data-driven loop), writing in place into room for the
/// longest encodings, the rest cut off after. On a value the codec cannot
/// encode, the encodings before it have been appended, and its index is the
/// error.
pub fn encode_in_place<E: Encoder + ?Sized>(
    encoder: &E,
    forms: &WideForms,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    if !forms.is_some() {
        return encode_each_in_place(encoder, values, out);
    }
    encode_with(encoder, values, out, |rest, out| forms.encode_singles(rest, out))
}

/// [`encode_in_place`] for an encoder interpreted at run time (a codec
/// loaded from a description): both wide forms by [`WideForms::encode`],
/// whose loop beats the interpreter, the rest by `encoder`.
pub fn encode_by_forms<E: Encoder + ?Sized>(
    encoder: &E,
    forms: &WideForms,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    encode_with(encoder, values, out, |rest, out| forms.encode(rest, out))
}

/// [`encode_in_place`] for a codec whose integer fact a SIMD encoder writes
/// (`premapped`: whether its values are mapped before its forms, as
/// [`DynCodec::premapped`](crate::DynCodec::premapped) says): the flagged
/// fact of a codec whose values are its raw values (or two's complement,
/// which the fact reads as sign-extended payloads;
/// `placemat_simd::encode_flagged`), of a signed codec whose sign maps the
/// value alone (ZigZag: [`encode_flagged_signed`](crate::encode_flagged_signed)),
/// the length-prefix fact
/// (`placemat_simd::encode_prefixed`), or the bit forms of a codec whose
/// encoder writes each unit as fixed bits and a field of the payload
/// ([`CodecInfo::bit_forms`]: `placemat_simd::encode_bit_forms`; of a
/// signed codec, the raw values of [`CodecInfo::forms_raw`], mapped in
/// runs before the kernel). The kernel writes runs of values
/// eight at a time, each value its fact leaves by `encoder`; where it stops,
/// `encoder` finds the error. `None` where no kernel writes the codec on
/// this machine.
pub fn encode_by_words<E: Encoder + ?Sized>(
    encoder: &E,
    info: &CodecInfo,
    premapped: bool,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Option<Result<(), usize>> {
    /// Values a run: the room made ready for them stays in cache.
    const RUN: usize = 4096;
    let other = |v: u64, out: &mut [u8]| crate::Value::from_u64(v).and_then(|v| encoder.encode(v, out).ok());
    let kernel = |rest: &[u64], room: &mut [u8]| match (&info.flagged, &info.prefixed) {
        (Some(f), _) if !premapped || f.signed => crate::kernels::encode_flagged(&f.marks(), rest, room, other),
        // ZigZag: the raw values mapped first (a signed codec has no
        // pre-mapping table).
        (Some(f), _) if info.sign.is_some() => crate::flagged::signed_kernel(f, info, rest, room, other),
        (_, Some(p)) if !premapped => crate::kernels::encode_prefixed(&p.tags(), rest, room, other),
        _ if info.sign.is_some() => crate::mapped_forms::encode_signed(info, rest, room),
        // A premap is the forms' value map, which the kernel applies.
        _ => {
            let forms = info.bit_forms.as_ref().filter(|f| !premapped || f.value_map.is_some())?;
            crate::kernels::encode_bit_forms(forms, rest, room, other)
        }
    };
    // Whether a kernel runs here at all.
    kernel(&[], &mut [])?;
    let units = encoder.max_units();
    Some(encode_with(encoder, values, out, |rest, out| {
        let rest = &rest[..rest.len().min(RUN)];
        let start = out.len();
        out.resize(start + rest.len() * units, 0);
        let (taken, written) = kernel(rest, &mut out[start..]).unwrap_or((0, 0));
        out.truncate(start + written);
        taken
    }))
}

/// Values by `fast` wherever it takes some, else by `encoder` in runs of 64
/// (doubling, up to 1024, while `fast` takes nothing at their ends: text its
/// forms seldom write does not pay a failed try every 64 values).
fn encode_with<E: Encoder + ?Sized>(
    encoder: &E,
    values: &[u64],
    out: &mut Vec<u8>,
    mut fast: impl FnMut(&[u64], &mut Vec<u8>) -> usize,
) -> Result<(), usize> {
    let (mut done, mut run) = (0, 64);
    while done < values.len() {
        let taken = fast(&values[done..], out);
        done += taken;
        run = if taken == 0 { (2 * run).min(1024) } else { 64 };
        let end = values.len().min(done + run);
        encode_each_in_place(encoder, &values[done..end], out).map_err(|i| done + i)?;
        done = end;
    }
    Ok(())
}

/// [`encode_in_place`] without forms: each value by `encoder`.
fn encode_each_in_place<E: Encoder + ?Sized>(encoder: &E, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
    let start = out.len();
    out.resize(start + values.len().saturating_mul(encoder.max_units()), 0);
    let mut pos = start;
    for (i, &value) in values.iter().enumerate() {
        let written = crate::Value::from_u64(value).and_then(|v| encoder.encode(v, &mut out[pos..]).ok());
        match written {
            Some(n) => pos += n,
            None => {
                out.truncate(pos);
                return Err(i);
            }
        }
    }
    out.truncate(pos);
    Ok(())
}
