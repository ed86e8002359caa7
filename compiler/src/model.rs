//! Pass 3's output: the span-free, canonical model of an encoding — the single
//! source of truth that the automaton builder, the reference interpreter, the code
//! generator and the analyses read. Splitting its value ranges into payload
//! ranges and per-unit digit ranges ([`Model::valid_ranges`],
//! [`Model::split_payloads`]) is in `sequences.rs`.
//!
//! ```
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF, layout: shortest,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let forms = d.model.concrete_forms();
//! assert_eq!(forms.len(), 2);
//! assert_eq!((forms[1].lo.to_string(), forms[1].hi.to_string()), ("128".into(), "2047".into()));
//! ```

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use placemat_codec::Unit;

/// A set of units: bit `b` of word `b / 64` is set for unit `b`.
pub type UnitSet = [u64; 4];

/// The integer type of a codec's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// 32-bit values.
    U32,
    /// 64-bit values.
    U64,
    /// Values of any size.
    Unbounded,
}

impl ValueType {
    /// Width in bits (`None` for unbounded).
    pub fn bits(self) -> Option<u32> {
        match self {
            ValueType::U32 => Some(32),
            ValueType::U64 => Some(64),
            ValueType::Unbounded => None,
        }
    }
}

/// How form ranges and biases are derived from the order of the forms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Each form starts where the previous one ended, bias 0: a value must use the
    /// shortest form that holds it (UTF-8).
    Shortest,
    /// Each form starts where the previous one ended and is biased by its first value,
    /// so payload 0 is that value (X/Open FSS-UTF).
    Biased,
    /// Every form states its range (and optionally its bias).
    Explicit,
    /// Every form holds every value its payload spells, bias 0: the decoder also
    /// accepts longer-than-needed (padded) encodings, the encoder writes the first
    /// form that holds a value. A repeated unit repeats only as often as the
    /// encoder needs (QUIC, SQLite and LEB128 integers).
    Padded,
}

/// How far a padded codec's decoder reads zero groups (`padding`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Padding {
    /// Up to the encoder's longest form (the default, and every layout but
    /// `padded`).
    Limited,
    /// Any number: the repeated unit of the last form may repeat past the
    /// longest form the encoder writes, as long as the copies past it carry
    /// only zero payload (ECMA-426's Base64 VLQ, LLVM's LEB128 reader). The
    /// value stays bounded; only the sequence has no length limit.
    Unlimited,
}

/// The order of a form's payload groups, one per unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GroupOrder {
    /// The first unit carries the most significant bits (UTF-8, MIDI, QUIC).
    MsbFirst,
    /// The first unit carries the least significant bits (LEB128).
    LsbFirst,
}

/// How the bytes of a unit wider than a byte are serialized.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Most significant byte first (UTF-16BE), and every byte unit.
    Big,
    /// Least significant byte first (UTF-16LE).
    Little,
}

/// Where the payload of each byte pattern of a form lands: the bit of the
/// form's payload its lowest payload bit takes. Code units are `unit_bytes`
/// consecutive patterns serialized in `order`; a code unit's payload is its low
/// bits, the code units' payloads follow `groups`.
pub fn places(units: &[UnitPattern], unit_bytes: u32, order: ByteOrder, groups: GroupOrder) -> Vec<u32> {
    let n = (unit_bytes as usize).max(1);
    let code_units: Vec<&[UnitPattern]> = units.chunks(n).collect();
    let widths: Vec<u32> = code_units.iter().map(|c| c.iter().map(|u| u.payload_bits).sum()).collect();
    let mut out = Vec::with_capacity(units.len());
    for (j, code_unit) in code_units.iter().enumerate() {
        let base: u32 = match groups {
            GroupOrder::MsbFirst => widths[j + 1..].iter().sum(),
            GroupOrder::LsbFirst => widths[..j].iter().sum(),
        };
        for (b, _) in code_unit.iter().enumerate() {
            // The bytes of lower significance in this code unit hold its low bits.
            let lower = |k: usize| match order {
                ByteOrder::Big => k > b,
                ByteOrder::Little => k < b,
            };
            let below: u32 = code_unit.iter().enumerate().filter(|&(k, _)| lower(k)).map(|(_, u)| u.payload_bits).sum();
            out.push(base + below);
        }
    }
    out
}

/// The bytes of a digit unit and the digit each byte stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DigitUnit {
    /// `[lo-hi]`: the bytes `lo..=hi`, byte `b` being digit `b − lo` (radix
    /// `hi − lo + 1`; UTF-1's lead bytes).
    Range(u8, u8),
    /// `T`: the codec's digit set ([`Model::digit_set`]), its `i`-th byte
    /// being digit `i` (radix: its size; UTF-1's 190 bytes of T(z)).
    Set,
}

/// One unit of a form's pattern: fixed bits and payload bits (the low bits),
/// or a digit unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnitPattern {
    /// Which bits of the digit are fixed.
    pub fixed_mask: u8,
    /// Their values.
    pub fixed_bits: u8,
    /// How many low bits carry payload.
    pub payload_bits: u32,
    /// A digit unit instead of a bit pattern (then the bit fields are 0): a
    /// form's value is its bias plus the mixed-radix number its digits spell.
    pub digits: Option<DigitUnit>,
}

impl UnitPattern {
    /// A bit pattern.
    pub const fn bits(fixed_mask: u8, fixed_bits: u8, payload_bits: u32) -> Self {
        UnitPattern { fixed_mask, fixed_bits, payload_bits, digits: None }
    }
    /// Whether digit `d` matches the fixed bits.
    pub fn matches(&self, d: u8) -> bool {
        d & self.fixed_mask == self.fixed_bits
    }
    /// Whether some digit matches both patterns.
    pub fn overlaps(&self, other: &UnitPattern) -> bool {
        (self.fixed_bits ^ other.fixed_bits) & self.fixed_mask & other.fixed_mask == 0
    }
    /// The digit carrying payload `p`.
    pub fn digit(&self, p: u8) -> u8 {
        self.fixed_bits | p
    }
}

/// A form as declared: its unit patterns, at most one of them repeated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    /// The patterns, in order.
    pub units: Vec<UnitPattern>,
    /// Index of the unit that may repeat (`1xxxxx*`), if any.
    pub repeat: Option<usize>,
    /// Range given in an explicit layout.
    pub range: Option<(BigUint, BigUint)>,
    /// Bias given in an explicit layout.
    pub bias: Option<BigUint>,
}

impl Form {
    /// The unit patterns with the repeated unit written `reps` times.
    pub fn expand(&self, reps: usize) -> Vec<UnitPattern> {
        match self.repeat {
            None => self.units.clone(),
            Some(r) => {
                let mut out = self.units[..r].to_vec();
                out.extend(std::iter::repeat_n(self.units[r], reps));
                out.extend_from_slice(&self.units[r + 1..]);
                out
            }
        }
    }
}

/// A form of fixed length with its derived values: what decoders are built from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConcreteForm {
    /// Which declared form it comes from.
    pub form: usize,
    /// How many times the repeated unit is written.
    pub reps: usize,
    /// The unit patterns.
    pub units: Vec<UnitPattern>,
    /// First value.
    pub lo: BigUint,
    /// Last value.
    pub hi: BigUint,
    /// Value of payload 0.
    pub bias: BigUint,
}

impl ConcreteForm {
    /// Total payload bits.
    pub fn payload_bits(&self) -> u32 {
        self.units.iter().map(|u| u.payload_bits).sum()
    }
}

/// A validated description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Rust type name of the generated codec.
    pub type_name: String,
    /// Codec name (`utf8`).
    pub name: String,
    /// One-line summary.
    pub summary: String,
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// Units.
    pub unit: Unit,
    /// `unit_map[u]` is the byte that unit `u` of the forms is written as
    /// (byte units only; a permutation of the 256 bytes).
    pub unit_map: Option<Vec<u8>>,
    /// Value type.
    pub value: ValueType,
    /// Smallest value (of a signed codec: smallest raw value, see `signed`).
    pub min: BigUint,
    /// Largest value (`None`: unbounded; of a signed codec: largest raw value).
    pub max: Option<BigUint>,
    /// For a signed codec (`value: i32 | i64`), its signed range and how its
    /// values map to the raw values its forms spell; `min`, `max`,
    /// `excluded` and every form's range are then raw values.
    pub signed: Option<crate::signed::Signed>,
    /// Excluded ranges, sorted and disjoint.
    pub excluded: Vec<(BigUint, BigUint)>,
    /// Rules across adjacent values (`forbid`), in the order written.
    pub forbid: Vec<crate::contexts::Forbid>,
    /// `overlap: longest`: a sequence that starts a longer one is read as
    /// its own value only where the longer one cannot go on (longest match).
    pub longest: bool,
    /// `premap[v]` is what value `v < premap.len()` becomes before encoding.
    pub premap: Option<Vec<u32>>,
    /// Form derivation.
    pub layout: Layout,
    /// How many zero groups a `padded` decoder reads.
    pub padding: Padding,
    /// The order of payload groups (code units).
    pub groups: GroupOrder,
    /// Bytes per code unit: 1, or 2 and 4 for `u16be`, `u16le`, `u32be`, `u32le`.
    /// The forms' unit patterns are bytes either way.
    pub unit_bytes: u32,
    /// How a wider code unit's bytes are serialized (`Big` for byte units).
    pub byte_order: ByteOrder,
    /// The digit set of `T` units (`digits: [0x21 ..= 0x7E, …]`), in digit
    /// order; `None` without one.
    pub digit_set: Option<Vec<u8>>,
    /// Declared forms.
    pub forms: Vec<Form>,
}

impl Model {
    /// Bits per code unit (16 for `u16le`).
    pub fn unit_width(&self) -> u32 {
        match &self.unit {
            Unit::Byte => 8 * self.unit_bytes,
            Unit::Alphabet(a) => a.len().trailing_zeros(),
        }
    }

    /// The bytes spelling each unit of the forms, when they are not the
    /// units themselves: an alphabet's symbols, or the unit map.
    pub fn symbols(&self) -> Option<&[u8]> {
        match (&self.unit, &self.unit_map) {
            (Unit::Alphabet(a), _) => Some(a),
            (Unit::Byte, map) => map.as_deref(),
        }
    }

    /// The byte spelling digit `d`.
    pub fn unit_byte(&self, d: u8) -> u8 {
        self.symbols().map_or(d, |s| s[d as usize])
    }

    /// The digit a byte spells, if any: the table walkers' digit map. With a
    /// digit set, a byte of the set is its place in it and any other byte
    /// itself (what a form reads from a unit differs from this by a constant
    /// per path, which the path's bias takes: see `automaton::paths`).
    pub fn digit_of(&self, b: u8) -> Option<u8> {
        match (self.symbols(), &self.digit_set) {
            (None, Some(set)) => Some(set.iter().position(|&x| x == b).map_or(b, |i| i as u8)),
            (None, None) => Some(b),
            (Some(symbols), _) => symbols.iter().position(|&x| x == b).map(|i| i as u8),
        }
    }

    /// Whether the forms read digit units (mixed-radix numbers) rather than
    /// bit patterns: validation keeps a model to one or the other.
    pub fn is_radix(&self) -> bool {
        self.forms.iter().any(|f| f.units.iter().any(|u| u.digits.is_some()))
    }

    /// How many digits pattern `pat` carries: 2^payload bits, or a digit unit's
    /// radix.
    pub fn radix(&self, pat: &UnitPattern) -> u64 {
        match pat.digits {
            None => 1u64 << pat.payload_bits,
            Some(DigitUnit::Range(lo, hi)) => u64::from(hi - lo) + 1,
            Some(DigitUnit::Set) => self.digit_set.as_ref().map_or(0, |s| s.len() as u64),
        }
    }

    /// The digit unit `b` carries in pattern `pat`, if it matches.
    pub fn form_digit(&self, pat: &UnitPattern, b: u8) -> Option<u64> {
        match pat.digits {
            None => {
                let d = self.digit_of(b)?;
                pat.matches(d).then(|| u64::from(d) & ((1u64 << pat.payload_bits) - 1))
            }
            Some(DigitUnit::Range(lo, hi)) => (lo..=hi).contains(&b).then(|| u64::from(b - lo)),
            Some(DigitUnit::Set) => self.digit_set.as_ref()?.iter().position(|&x| x == b).map(|i| i as u64),
        }
    }

    /// The unit carrying digit `d` in pattern `pat` (the inverse of
    /// [`Model::form_digit`]; `d` below the pattern's radix).
    pub fn digit_unit(&self, pat: &UnitPattern, d: u64) -> u8 {
        match pat.digits {
            None => self.unit_byte(pat.digit(d as u8)),
            Some(DigitUnit::Range(lo, _)) => lo + d as u8,
            Some(DigitUnit::Set) => self.digit_set.as_ref().map_or(0, |s| s[d as usize]),
        }
    }

    /// How many payloads a form with `units` spells: the product of their radices.
    pub fn capacity(&self, units: &[UnitPattern]) -> BigUint {
        units.iter().map(|u| BigUint::from(self.radix(u))).product()
    }

    /// The units spelling pattern `pat` with payload digits `lo..=hi`, as a 256-bit
    /// set (bit `b` set for unit `b`).
    pub fn unit_set(&self, pat: &UnitPattern, lo: u32, hi: u32) -> UnitSet {
        let mut set = [0u64; 4];
        for d in lo..=hi {
            let b = self.digit_unit(pat, u64::from(d));
            set[(b >> 6) as usize] |= 1 << (b & 63);
        }
        set
    }

    /// Whether the value set is bounded (so the encoder has finitely many
    /// forms; the decoder too, unless padding has no limit).
    pub fn is_bounded(&self) -> bool {
        self.max.is_some()
    }

    /// Whether valid sequences have no length limit though values are bounded:
    /// `padding: unlimited`.
    pub fn pads_without_limit(&self) -> bool {
        self.padding == Padding::Unlimited
    }

    /// Whether `v` is in the range and not excluded.
    pub fn contains(&self, v: &BigUint) -> bool {
        // The first excluded range that does not end below `v`.
        let next = self.excluded.partition_point(|(_, hi)| hi < v);
        *v >= self.min
            && self.max.as_ref().is_none_or(|m| v <= m)
            && self.excluded.get(next).is_none_or(|(lo, _)| v < lo)
    }

    /// The concrete forms of at most `limit` units (all of them if `None`, which
    /// requires a bounded model), in order, with derived ranges and biases.
    /// Padding without a limit adds the last form's longer lengths up to
    /// `limit`; with `None`, the forms stop at the encoder's longest.
    ///
    /// An explicit form with a repeated unit has one concrete form per length,
    /// up to the first whose payload reaches the end of its range; each length
    /// holds every value of the range that its bias plus its payload spells, so
    /// longer spellings of a value (zero groups where the value has none) decode
    /// too, and the encoder writes the shortest (HPACK's integers).
    pub fn concrete_forms_upto(&self, limit: Option<usize>) -> Vec<ConcreteForm> {
        assert!(limit.is_some() || self.is_bounded(), "an unbounded model has infinitely many forms");
        if let Some(s) = self.extended() {
            // Validation bounds signed values (to the value type).
            return crate::signed::extend_forms(self, s);
        }
        let mut out = Vec::new();
        let mut next_lo = self.min.clone();
        'forms: for (i, form) in self.forms.iter().enumerate() {
            for reps in 0.. {
                // An explicit form's repeated unit stops at the length that
                // holds the end of its range.
                let mut last_length = false;
                let units = form.expand(reps);
                if limit.is_some_and(|l| units.len() > l) {
                    break;
                }
                // Padding without a limit goes on past the value's end with
                // the last form's longer lengths, each holding every value.
                let past_end = self.max.as_ref().is_some_and(|max| next_lo > *max);
                let padding = limit.is_some() && self.pads_without_limit() && i + 1 == self.forms.len();
                if past_end && self.layout != Layout::Explicit && !padding {
                    break 'forms;
                }
                let cap = self.capacity(&units);
                let (lo, hi, bias) = match self.layout {
                    Layout::Shortest | Layout::Padded => (next_lo.clone(), &cap - 1u32, BigUint::zero()),
                    Layout::Biased => (next_lo.clone(), &next_lo + &cap - 1u32, next_lo.clone()),
                    Layout::Explicit => {
                        let (lo, hi) = form.range.clone().expect("validated: explicit forms have ranges");
                        let bias = form.bias.clone().unwrap_or_default();
                        match form.repeat {
                            // Each length holds the values of the range its
                            // payload spells, from the range's first one.
                            Some(_) => {
                                let top = &bias + &cap - 1u32;
                                if top >= hi {
                                    last_length = true;
                                }
                                (lo, hi.min(top), bias)
                            }
                            None => (lo, hi, bias),
                        }
                    }
                };
                let hi = match &self.max {
                    Some(max) if hi > *max => max.clone(),
                    _ => hi,
                };
                if lo <= hi || (past_end && padding) {
                    next_lo = &hi + 1u32;
                    // A padded form decodes every value up to its own, and exists
                    // if the encoder needs it for some value.
                    let lo = if self.layout == Layout::Padded { self.min.clone() } else { lo };
                    out.push(ConcreteForm { form: i, reps, units, lo, hi, bias });
                }
                if form.repeat.is_none() || last_length {
                    break;
                }
            }
        }
        out
    }

    /// The smallest value that two of `forms` both hold, with the two forms'
    /// indices; `None` when every value has one encoding, so that what the
    /// decoder accepts is exactly what the encoder writes (`compare`'s
    /// `canonical`, and the runtime's [`CodecInfo::canonical`](placemat_codec::CodecInfo::canonical)).
    pub fn shared_value(&self, forms: &[ConcreteForm]) -> Option<(BigUint, usize, usize)> {
        for (i, a) in forms.iter().enumerate() {
            for (j, b) in forms.iter().enumerate().skip(i + 1) {
                let v = (&a.lo).max(&b.lo);
                if v <= (&a.hi).min(&b.hi) && self.contains(v) {
                    return Some((v.clone(), i, j));
                }
            }
        }
        None
    }

    /// Every concrete form of a bounded model.
    pub fn concrete_forms(&self) -> Vec<ConcreteForm> {
        self.concrete_forms_upto(None)
    }

    /// The concrete forms holding values up to `u64::MAX` (ranges clipped to it):
    /// every form of a bounded model, and the `u64` part of an unbounded one.
    pub fn forms_upto_u64(&self) -> Vec<ConcreteForm> {
        let cap = BigUint::from(u64::MAX);
        if self.is_bounded() {
            return self.concrete_forms();
        }
        let mut limit = self.forms.iter().map(|f| f.units.len()).max().unwrap_or(1);
        loop {
            let forms = self.concrete_forms_upto(Some(limit));
            if forms.last().is_some_and(|f| f.hi >= cap) {
                return forms
                    .into_iter()
                    .filter(|f| f.lo <= cap)
                    .map(|mut f| {
                        if f.hi > cap {
                            f.hi = cap.clone();
                        }
                        f
                    })
                    .collect();
            }
            limit += 1;
        }
    }

    /// Of `forms` (from [`Model::concrete_forms_upto`]), the one whose
    /// patterns the whole sequence `units` matches: of those, the first holding
    /// `raw` (the raw value the units spell, where known), else the first. What
    /// a picture of a sequence colours its fixed and payload bits by.
    pub fn form_of<'a>(
        &self,
        forms: &'a [ConcreteForm],
        units: &[u8],
        raw: Option<&BigUint>,
    ) -> Option<&'a ConcreteForm> {
        let mut matching = forms.iter().filter(|f| {
            f.units.len() == units.len() && f.units.iter().zip(units).all(|(p, &b)| self.form_digit(p, b).is_some())
        });
        let first = matching.next()?;
        let holds = |f: &&ConcreteForm| raw.is_some_and(|r| f.lo <= *r && *r <= f.hi);
        if holds(&first) {
            return Some(first);
        }
        Some(matching.find(holds).unwrap_or(first))
    }

    /// The longest sequence in units (`None` if unbounded, or padded without
    /// a limit).
    pub fn max_units(&self) -> Option<usize> {
        if !self.is_bounded() || self.pads_without_limit() {
            return None;
        }
        self.concrete_forms().iter().map(|f| f.units.len()).max()
    }

    /// The contexts of the rules across adjacent values ([`crate::contexts`]).
    pub fn contexts(&self) -> crate::contexts::Contexts {
        crate::contexts::Contexts::of(&self.forbid)
    }

    /// The values after which a rule across values looks at the next one
    /// (the runtime's `CodecInfo::rule_values`): the ranges of the contexts
    /// other than 0. None for a signed codec, whose rules are not facts of
    /// its 64-bit views.
    pub fn rule_values(&self) -> Vec<(u64, u64)> {
        if self.signed.is_some() {
            return Vec::new();
        }
        self.contexts().ranges.iter().map(|&(lo, hi, _)| (lo, hi)).collect()
    }

    /// Whether payload is placed (groups least significant first, or
    /// little-endian units wider than a byte), rather than read most significant
    /// group first, each unit's bits below those read before (byte units, and
    /// big-endian wide units, whose bytes come most significant first).
    pub fn is_placed(&self) -> bool {
        self.groups == GroupOrder::LsbFirst || (self.unit_bytes > 1 && self.byte_order == ByteOrder::Little)
    }

    /// Where each unit's payload bits go in a form's payload: the bit each
    /// unit's lowest payload bit lands on ([`places`]).
    pub fn places(&self, units: &[UnitPattern]) -> Vec<u32> {
        places(units, self.unit_bytes, self.byte_order, self.groups)
    }

    /// The payload that `digits` (one per pattern of `units`, payload bits only;
    /// fewer for a prefix, the rest read as zeros) spell: placed bit groups, or else a mixed-radix number, first unit most
    /// significant (for bit patterns, the bits one after the other).
    pub fn payload(&self, units: &[UnitPattern], digits: &[u64]) -> BigUint {
        if !self.is_placed() {
            // Missing digits (a prefix of the form) are zeros.
            let digit = |i: usize| digits.get(i).copied().unwrap_or(0);
            return units.iter().enumerate().fold(BigUint::zero(), |acc, (i, u)| acc * self.radix(u) + digit(i));
        }
        let places = self.places(units);
        digits.iter().zip(places).fold(BigUint::zero(), |acc, (&d, at)| acc | (BigUint::from(d) << at))
    }

    /// Each pattern's share of `payload` (the inverse of [`Model::payload`]).
    pub fn payload_digits(&self, units: &[UnitPattern], payload: &BigUint) -> Vec<u64> {
        if !self.is_placed() {
            let mut rest = payload.clone();
            let mut out: Vec<u64> = units
                .iter()
                .rev()
                .map(|u| {
                    let r = BigUint::from(self.radix(u));
                    let d = (&rest % &r).to_u64().unwrap_or(0);
                    rest /= r;
                    d
                })
                .collect();
            out.reverse();
            return out;
        }
        let mask = |bits: u32| (BigUint::one() << bits) - 1u32;
        units
            .iter()
            .zip(self.places(units))
            .map(|(u, at)| ((payload >> at) & mask(u.payload_bits)).iter_u64_digits().next().unwrap_or(0))
            .collect()
    }

    /// A raw value as the codec's value, for messages and witnesses:
    /// `U+00E9`, or a signed codec's value in decimal (`-2`).
    pub fn value_text(&self, raw: &BigUint) -> String {
        match &self.signed {
            Some(s) => s.value(raw).to_string(),
            None => format!("U+{raw:04X}"),
        }
    }

    /// The raw value spelling the value whose 64-bit view is `v` (itself,
    /// but for a signed codec, whose view is a sign-extended pattern), if it
    /// is one of the codec's values.
    pub fn raw_of(&self, v: u64) -> Option<BigUint> {
        match &self.signed {
            Some(s) => s.raw(&crate::signed::Signed::of_pattern(v)),
            None => Some(BigUint::from(v)).filter(|v| self.contains(v)),
        }
    }

    /// The 64-bit view of the value the raw value `raw` spells (a signed
    /// codec's: its sign-extended pattern), if it fits 64 bits (a signed
    /// codec of any size: if it is a value of its `i64` fast path).
    pub fn view_of(&self, raw: &BigUint) -> Option<u64> {
        match &self.signed {
            Some(s) => {
                let v = s.value(raw);
                (!s.any_size || (s.min <= v && v <= s.max)).then(|| crate::signed::Signed::pattern(&v))
            }
            None => u64::try_from(raw).ok(),
        }
    }

    /// A signed codec whose forms sign-extend their payload (`sign: extend`).
    pub fn extended(&self) -> Option<&crate::signed::Signed> {
        self.signed.as_ref().filter(|s| s.sign == placemat_codec::Sign::TwosComplement)
    }

    /// Whether the values the tables give are not the codec's until mapped
    /// (the pre-mapping undone, or a signed codec's sign applied).
    pub fn maps_values(&self) -> bool {
        self.premap.is_some() || self.signed.is_some()
    }

    /// The inverse of the pre-mapping, if any.
    pub fn premap_inverse(&self) -> Option<Vec<u32>> {
        self.premap.as_ref().map(|p| {
            let mut inv = vec![0u32; p.len()];
            for (v, &m) in p.iter().enumerate() {
                inv[m as usize] = v as u32;
            }
            inv
        })
    }
}
