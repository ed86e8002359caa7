//! The automaton: the one layer between the model and every output.
//!
//! [`Automaton::build`] runs the passes model → `paths` (unit-range sequences
//! per form) → `determinize` (subset construction) → `minimize` (Hopcroft)
//! → unit classes, and then derives, once, every fact the outputs need
//! ([`certificates`], [`pack`], [`shift_layout`]): whether it is cyclic or
//! ASCII-transparent, its sync units, the payload bits still to come in each
//! state, the validator's shift layout, the decoder's expanded table, the
//! packed transitions, and the forms each state can still be in. The listings,
//! the Graphviz pictures, the analyses, the code generator and codecs loaded at
//! run time all read it; none re-derives anything.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let a = Automaton::build(&d.model, BuildOptions::default()).unwrap();
//! // Classes: 00–7F, 80–BF, C0–C1 (overlong leads) with F8.., C2–DF, E0–FF.
//! assert_eq!(a.class_count(), 4);
//! // States: dead, start, "one continuation to go".
//! assert_eq!(a.state_count(), 3);
//! assert!(a.facts.is_ascii_transparent() && !a.facts.cyclic);
//! assert_eq!(a.edge(1, 0xC3).next, 2);
//! assert_eq!(a.state_forms[2], [1]); // in the middle of the second form
//! ```
//!
//! A description with rules across adjacent values ([`crate::contexts`])
//! gets one start state per context: the paths are built in each context from
//! the values it allows, and each ends in the start state of the context its
//! values leave ([`Automaton::contexts`]; WTF-8 has two).
//!
//! The automaton is a transducer, not just a recognizer: each transition says how
//! many payload bits the unit contributes and which bias a completing transition
//! adds. Minimization treats those outputs as part of a transition's label, so two
//! states that accept the same unit sequences but compute different values (as in
//! X/Open FSS-UTF, whose forms have different biases) are never merged.
//!
//! # Lineage
//! Subset construction and Hopcroft's partition refinement (Hopcroft 1971, in the
//! worklist form of regex-automata's `dfa/minimize.rs`), extended to Mealy outputs;
//! the result for strict UTF-8 is Höhrmann's 12-class, 9-state automaton, derived
//! rather than transcribed.

pub mod bit_forms;
pub mod byte_forms;
mod determinize;
pub mod pair_forms;
pub use determinize::ConflictKind;
use determinize::Failure;
pub mod certificates;
pub mod flagged;
pub mod local;
mod machine;
pub mod prefixed;
pub use machine::Pending;
mod minimize;
pub mod pack;
mod paths;
pub mod shift_layout;
mod shift_search;
pub mod wide_forms;
pub mod wide_runs;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::fmt;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::model::{ConcreteForm, Model, UnitPattern};
pub use certificates::Certificates;
use machine::Machine;
pub use placemat_codec::dfa::Facts;
pub use shift_layout::ShiftLayout;

/// Switches for the automaton builder. The defaults build the production tables;
/// the others exist to test that minimization and classes change nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Run Hopcroft minimization.
    pub minimize: bool,
    /// Group units into classes (otherwise every byte is its own class).
    pub classes: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { minimize: true, classes: true }
    }
}

/// Two declared forms that no deterministic automaton can tell apart, with the
/// units that show it: both accept them, one accepts them and the other goes
/// on, or both read the last of them but take its payload differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// How the forms clash.
    pub kind: ConflictKind,
    /// The two declared forms (indices into the model's forms).
    pub forms: [usize; 2],
    /// The units from the start of a sequence to the one that shows the clash.
    pub units: Vec<u8>,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units: Vec<String> = self.units.iter().map(|u| format!("{u:02X}")).collect();
        let units = units.join(" ");
        let [a, b] = self.forms.map(|k| k + 1);
        match self.kind {
            ConflictKind::SameUnits => write!(f, "forms {a} and {b} both accept `{units}`"),
            ConflictKind::Prefix => {
                write!(f, "`{units}` is a whole sequence of form {a} and the start of one of form {b}")
            }
            ConflictKind::Payload => {
                write!(f, "forms {a} and {b} both read `{units}` but take the payload of its last unit differently")
            }
        }
    }
}

/// Why an automaton could not be built from a (valid) model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The model has values of any size, but its longer lengths do not settle into
    /// a loop the automaton can follow.
    Unbounded,
    /// Two forms the automaton cannot tell apart: see [`Conflict`].
    Conflict(Conflict),
    /// A value the table format cannot hold (a bias or a range bound beyond 64
    /// bits), or more biases than it can index.
    TooLarge,
    /// The construction would pass one of the limits of [`crate::limits`].
    Limit {
        /// What would exceed its limit.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// The minimal automaton does not fit the table format: `states × classes`
    /// entries, where 16-bit state ids address at most 65,536.
    TableFull {
        /// States, the dead state included.
        states: usize,
        /// Unit classes.
        classes: usize,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Unbounded => {
                f.write_str("the lengths of this unbounded description do not settle into a repeating pattern")
            }
            BuildError::Conflict(c) => write!(f, "{c}"),
            BuildError::TooLarge => {
                f.write_str("a bias, a bound or the number of biases does not fit the table format")
            }
            BuildError::Limit { what, limit } => {
                write!(f, "the automaton needs more than {limit} {what}, the compiler's limit")
            }
            BuildError::TableFull { states, classes } => write!(
                f,
                "the automaton has {states} states × {classes} unit classes = {} table entries; \
                 the table format holds at most 65536",
                states * classes
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// One transition, unpacked.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The next state (0 dead, 1 start, `1..=contexts` the start states; not
    /// premultiplied).
    pub next: usize,
    /// How many low bits of the unit's digit are payload.
    pub payload_bits: u32,
    /// How the payload joins the value read so far, beyond `v << bits |
    /// payload`: in an automaton whose payload is placed, a place code of
    /// `placemat_codec::dfa::Parts::places`; in one of digit units
    /// ([`Automaton::radix`]), the multiplier (`v * place + digit`); else 0.
    pub place: u32,
    /// The bias added when the transition completes a sequence (0 otherwise).
    pub bias: u64,
}

/// A form as the `u64` encoders write it: its range, bias and unit patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeForm {
    /// First value.
    pub lo: u64,
    /// Last value (clipped to `u64::MAX` for unbounded codecs).
    pub hi: u64,
    /// The value of payload 0.
    pub bias: u64,
    /// The unit patterns.
    pub units: Vec<UnitPattern>,
    /// Where each unit's payload comes from in the payload ([`Model::places`]).
    pub places: Vec<u32>,
}

impl EncodeForm {
    /// The form writing `lo..=hi` with `bias`, if those fit `u64`.
    fn new(
        model: &Model,
        lo: &BigUint,
        hi: &BigUint,
        bias: &BigUint,
        units: &[UnitPattern],
    ) -> Result<Self, BuildError> {
        let to_u64 = |v: &BigUint| v.to_u64().ok_or(BuildError::TooLarge);
        Ok(EncodeForm {
            lo: to_u64(lo)?,
            hi: to_u64(hi)?,
            bias: to_u64(bias)?,
            units: units.to_vec(),
            places: model.places(units),
        })
    }

    /// Writes the units of `payload` (the value less [`EncodeForm::bias`])
    /// into `out`, which holds exactly one per unit pattern: with digit units
    /// the last digit is the payload modulo its radix, and so on; else each
    /// unit takes its share of the payload from its place.
    pub fn write(&self, model: &Model, radix: bool, payload: u64, out: &mut [u8]) {
        if radix {
            let mut rest = payload;
            for (u, slot) in self.units.iter().zip(out.iter_mut()).rev() {
                let radix = model.radix(u);
                *slot = model.digit_unit(u, rest % radix);
                rest /= radix;
            }
            return;
        }
        for ((u, at), slot) in self.units.iter().zip(&self.places).zip(out.iter_mut()) {
            let share = payload.checked_shr(*at).unwrap_or(0) & ((1u64 << u.payload_bits) - 1);
            *slot = model.unit_byte(u.fixed_bits | share as u8);
        }
    }
}

/// The minimal automaton of a model and everything derived from it.
#[derive(Clone, Debug)]
pub struct Automaton {
    /// The class of every unit.
    pub classes: [u8; 256],
    /// A unit of every class (its smallest).
    pub class_units: Vec<u8>,
    /// The digit of every unit (the byte itself, or its alphabet index).
    pub digits: [u8; 256],
    /// With a `unit_map`, the byte each digit (each unit of the forms) is
    /// written as: the inverse of `digits`.
    pub digit_units: Option<[u8; 256]>,
    /// `edges[state][class]`; state 0 is dead, state 1 the start, states
    /// `1..=contexts` the start states of the contexts.
    pub edges: Vec<Vec<Edge>>,
    /// The distinct biases, 0 first and the rest ascending.
    pub biases: Vec<u64>,
    /// The concrete forms the automaton was built from (for an unbounded model,
    /// the short lengths and the first looping one).
    pub forms: Vec<ConcreteForm>,
    /// For every state, the forms (indices into `forms`) a sequence may still
    /// be in there.
    pub state_forms: Vec<Vec<usize>>,
    /// The forms the `u64` encoders write, in value order.
    pub encode_forms: Vec<EncodeForm>,
    /// Whether transitions place their payload ([`Edge::place`]): groups least
    /// significant first, or units wider than a byte.
    pub placed: bool,
    /// Whether the forms are digit units ([`Model::is_radix`]): each
    /// transition multiplies the value read so far by its [`Edge::place`].
    pub radix: bool,
    /// The contexts of the rules across values ([`crate::contexts`]): state
    /// `1 + c` is where a sequence starts in context `c`, and states
    /// `1..=contexts` are the boundaries, where sequences end. 1 without rules.
    pub contexts: usize,
    /// The values after which the context is not 0, each with its context.
    pub context_ranges: Vec<(u64, u64, usize)>,
    /// Bytes per code unit (the model's).
    pub unit_bytes: u32,
    /// The facts of the packed tables, as the runtime derives them
    /// (`placemat_codec::dfa::Facts::of`), with the wide runs this crate's
    /// search found ([`wide_runs`]).
    pub facts: Facts,
    /// The forms the encoder writes most values of wide code units with
    /// ([`wide_forms`]), for the runtime's `CodecInfo`.
    pub wide_forms: placemat_codec::WideForms,
    /// The forms the encoder writes values of one to four byte units with,
    /// as UTF-8 does ([`byte_forms`]), for the runtime's `CodecInfo`.
    pub byte_forms: Option<placemat_codec::simd::ByteForms>,
    /// The forms whose units are fixed bits and fields of the payload, up to
    /// eight of up to eight bytes ([`bit_forms`]), for the runtime's `CodecInfo`.
    pub bit_forms: Option<placemat_codec::simd::BitForms>,
    /// The pair of 16-bit units whose byte forms the encoder writes some
    /// values as, as CESU-8 does ([`pair_forms`]), for the runtime's `CodecInfo`.
    pub pair_forms: Option<placemat_codec::simd::Pair>,
    /// With [`Automaton::pair_forms`], the SIMD tables of the language of
    /// the codec's 16-bit units written alone (`pair_forms::unit_tables`),
    /// for the runtime's `CodecInfo`.
    pub pair_unit_tables: Option<placemat_codec::simd::Tables>,
    /// How an integer codec's units mark where values end ([`flagged`]), for
    /// the runtime's `CodecInfo`, or why they do not.
    pub flagged: Result<placemat_codec::Flagged, String>,
    /// How an integer codec's first unit gives a value's length
    /// ([`prefixed`]), for the runtime's `CodecInfo`, or why it does not.
    pub prefixed: Result<placemat_codec::Prefixed, String>,
    /// Every valid sequence is the encoder's writing of its value: the model
    /// is bounded, without padding past its limit, and no two forms share a
    /// value ([`Model::shared_value`]). For the runtime's `CodecInfo`.
    pub canonical: bool,
    /// What the compiler's searches found, with their proofs ([`certificates`]).
    pub certificates: Certificates,
    /// The validator's shift layout.
    pub shift: ShiftLayout,
    /// The packed transition table (the runtime format, `placemat_codec::dfa`).
    pub transitions: Vec<u32>,
    /// The expanded decoding table, when the automaton has one.
    pub expanded: Option<pack::RowTable>,
    /// The direct decoding table (`placemat_codec::dfa::direct`), for an
    /// automaton without an expanded table, when it has one.
    pub direct: Option<pack::RowTable>,
    /// Each packed transition's place code, when [`Automaton::placed`].
    pub places: Option<Vec<u64>>,
    /// Each packed transition's multiplier, when [`Automaton::radix`].
    pub radices: Option<Vec<u64>>,
    /// The SIMD validator's checks, or why the codec is not local ([`local`]).
    pub local: Result<local::LocalChecks, local::NotLocal>,
    /// For `overlap: longest`, every state's pending value (the sequence
    /// read so far is a whole one that a longer one may still replace);
    /// all `None` otherwise.
    pub pending: Vec<Option<Pending>>,
    /// [`Automaton::pending`] packed for the runtime
    /// (`placemat_codec::dfa::Parts::pending`); empty without pending values.
    pub pending_entries: Vec<u32>,
}

impl Automaton {
    /// Builds the automaton of a validated model and derives its facts.
    pub fn build(model: &Model, options: BuildOptions) -> Result<Automaton, BuildError> {
        let (paths::Paths { forms, paths }, det) = determinized(model)?;
        let longest = model.longest;
        let block_of: Vec<usize> = if options.minimize {
            minimize::minimize(&det.machine, det.starts)
        } else {
            (0..det.machine.states()).collect()
        };
        let order = number(&det.machine, &block_of, det.starts);
        let (classes, class_units) = unit_classes(&det.machine, &block_of, &order, options.classes);
        let biases = biases(&paths);
        let edges = edges(&det.machine, &block_of, &order, &class_units);
        let mut state_forms = vec![BTreeSet::new(); order.len()];
        let mut pending = vec![None; order.len()];
        for (s, forms) in det.forms.iter().enumerate() {
            if let Some(&k) = order.get(&block_of[s]) {
                state_forms[k].extend(forms.iter().copied());
                pending[k] = det.machine.pending[s];
            }
        }
        let digits: [u8; 256] = std::array::from_fn(|b| model.digit_of(b as u8).unwrap_or(0));
        let digit_units = model.unit_map.as_deref().map(|map| std::array::from_fn(|d| map[d]));
        let mut a = Automaton {
            classes,
            class_units,
            digits,
            digit_units,
            edges,
            biases,
            forms,
            state_forms: state_forms.into_iter().map(|s| s.into_iter().collect()).collect(),
            encode_forms: encode_forms(model)?,
            placed: model.is_placed(),
            radix: model.is_radix(),
            contexts: det.starts,
            context_ranges: model.contexts().ranges,
            unit_bytes: model.unit_bytes,
            facts: pack::UNSET_FACTS,
            wide_forms: placemat_codec::WideForms::NONE,
            byte_forms: None,
            bit_forms: None,
            pair_forms: None,
            pair_unit_tables: None,
            flagged: Err(String::new()),
            prefixed: Err(String::new()),
            canonical: model.is_bounded()
                && !model.pads_without_limit()
                && model.shared_value(&model.concrete_forms()).is_none(),
            certificates: Certificates::default(),
            shift: ShiftLayout::default(),
            transitions: Vec::new(),
            expanded: None,
            direct: None,
            places: None,
            radices: None,
            local: Err(local::NotLocal { short: String::new(), reason: String::new(), witness: None }),
            pending,
            pending_entries: Vec::new(),
        };
        debug_assert!(longest || a.pending.iter().all(Option::is_none));
        a.transitions = pack::transitions(&a)?;
        a.places = pack::places(&a);
        a.radices = pack::radices(&a);
        a.pending_entries = pack::pending(&a)?;
        a.certificates = certificates::derive(&a);
        a.facts = pack::facts(&a, wide_runs::derive(&a));
        a.wide_forms = wide_forms::derive(&a, model);
        a.byte_forms = byte_forms::derive(&a, model);
        a.bit_forms = bit_forms::derive(&a, model);
        a.pair_forms = a.byte_forms.and_then(|forms| pair_forms::derive(&a, model, &forms));
        a.pair_unit_tables =
            a.byte_forms.filter(|_| a.pair_forms.is_some()).and_then(|f| pair_forms::unit_tables(model, &f));
        a.flagged = flagged::derive(&a, model);
        a.prefixed = prefixed::derive(&a, model);
        a.expanded = pack::expanded(&a);
        a.direct = pack::direct(&a);
        a.shift = shift_layout::layout(&a);
        a.local = local::derive(&a);
        Ok(a)
    }

    /// What edge `e` multiplies the value read so far by: its radix in an
    /// automaton of digit units, else 2 to its payload bits (for placed
    /// payload, a stand-in: those automata have no weights).
    pub fn multiplier(&self, e: &Edge) -> u64 {
        if self.radix {
            u64::from(e.place)
        } else {
            1u64 << e.payload_bits
        }
    }

    /// Whether the automaton has pending values (`overlap: longest`): a
    /// decoder that meets a dead end after one goes back to it.
    pub fn has_pending(&self) -> bool {
        self.pending.iter().any(Option::is_some)
    }

    /// Whether state `s` is a boundary: a start state, where a sequence ends
    /// and the next begins (one per context).
    pub fn is_boundary(&self, s: usize) -> bool {
        (1..=self.contexts).contains(&s)
    }

    /// Number of unit classes.
    pub fn class_count(&self) -> usize {
        self.class_units.len()
    }

    /// Number of states, the dead state included.
    pub fn state_count(&self) -> usize {
        self.edges.len()
    }

    /// The transition from `state` on `unit`.
    pub fn edge(&self, state: usize, unit: u8) -> Edge {
        self.edges[state][self.classes[unit as usize] as usize]
    }

    /// Size of the packed tables in bytes (class and digit maps, transitions, biases).
    pub fn table_bytes(&self) -> usize {
        512 + 4 * self.transitions.len() + 8 * self.biases.len()
    }

    /// The forms as decoders read them, every value each one accepts, in `u64`
    /// (`None` if a bound or bias does not fit). They overlap where the encoder's
    /// forms ([`Automaton::encode_forms`]) do not: padded encodings.
    pub fn decode_forms(&self, model: &Model) -> Option<Vec<EncodeForm>> {
        self.forms.iter().map(|f| EncodeForm::new(model, &f.lo, &f.hi, &f.bias, &f.units).ok()).collect()
    }
}

/// The paths of `model` and their subset construction, after folding the
/// constant payloads that kept forms sharing a unit apart
/// ([`paths::fold_constant`]); a clash that folding cannot resolve is a
/// [`Conflict`].
fn determinized(model: &Model) -> Result<(paths::Paths, determinize::Determinized), BuildError> {
    let mut all = paths::paths(model)?;
    loop {
        match determinize::determinize(&all.paths, model.longest) {
            Ok(det) => return Ok((all, det)),
            Err(Failure::Build(e)) => return Err(e),
            Err(Failure::Clash(c)) => {
                let paths = &mut all.paths;
                // Whole constant positions first, then constant high bits.
                let foldable = c.kind == ConflictKind::Payload
                    && [false, true]
                        .iter()
                        .any(|&partial| c.paths.iter().any(|&at| paths::fold_constant(model, paths, at, partial)));
                if !foldable {
                    let forms = c.paths.map(|(p, _)| all.forms[all.paths[p as usize].form].form);
                    return Err(BuildError::Conflict(Conflict { kind: c.kind, forms, units: c.units }));
                }
            }
        }
    }
}

/// The first pair of forms that no deterministic automaton tells apart, if
/// any: what the validator reports, at both forms.
pub fn conflict(model: &Model) -> Option<Conflict> {
    match determinized(model) {
        Err(BuildError::Conflict(c)) => Some(c),
        _ => None,
    }
}

/// Numbers the blocks: dead 0, the start states `1..=starts` (one per
/// context), the rest in breadth-first order from them. Maps a block to its
/// number.
fn number(m: &Machine, block_of: &[usize], starts: usize) -> HashMap<usize, usize> {
    let mut number: HashMap<usize, usize> = (0..=starts).map(|s| (block_of[s], s)).collect();
    let mut queue: VecDeque<usize> = (1..=starts).collect();
    while let Some(s) = queue.pop_front() {
        for b in 0..m.width {
            let t = m.next(s, b);
            let next = number.len();
            if let std::collections::hash_map::Entry::Vacant(e) = number.entry(block_of[t]) {
                e.insert(next);
                queue.push_back(t);
            }
        }
    }
    number
}

/// A representative machine state of every numbered state.
fn representatives(block_of: &[usize], order: &HashMap<usize, usize>) -> Vec<usize> {
    let mut rep = vec![usize::MAX; order.len()];
    for (s, b) in block_of.iter().enumerate() {
        if let Some(&k) = order.get(b) {
            if rep[k] == usize::MAX {
                rep[k] = s;
            }
        }
    }
    rep
}

/// Classes: units with identical columns over the numbered states.
fn unit_classes(m: &Machine, block_of: &[usize], order: &HashMap<usize, usize>, on: bool) -> ([u8; 256], Vec<u8>) {
    if !on {
        return (std::array::from_fn(|b| b as u8), (0..=255).collect());
    }
    let rep = representatives(block_of, order);
    let mut classes = [0u8; 256];
    let mut units = Vec::new();
    let mut seen: HashMap<Vec<(usize, machine::Output)>, u8> = HashMap::new();
    for b in 0..256 {
        let col: Vec<_> = rep.iter().map(|&s| (order[&block_of[m.next(s, b)]], m.out(s, b))).collect();
        let id = seen.len() as u8;
        classes[b] = *seen.entry(col).or_insert_with(|| {
            units.push(b as u8);
            id
        });
    }
    (classes, units)
}

/// The unpacked transitions of every numbered state and class.
fn edges(m: &Machine, block_of: &[usize], order: &HashMap<usize, usize>, class_units: &[u8]) -> Vec<Vec<Edge>> {
    representatives(block_of, order)
        .iter()
        .map(|&s| {
            class_units
                .iter()
                .map(|&b| {
                    let (payload_bits, place, bias) = m.out(s, b as usize);
                    Edge { next: order[&block_of[m.next(s, b as usize)]], payload_bits, place, bias }
                })
                .collect()
        })
        .collect()
}

/// The distinct biases of the paths, 0 first and the rest ascending.
fn biases(paths: &[paths::Path]) -> Vec<u64> {
    let mut biases: Vec<u64> = paths.iter().map(|p| p.bias).filter(|&b| b != 0).collect();
    biases.sort_unstable();
    biases.dedup();
    biases.insert(0, 0);
    biases
}

/// The forms the encoder writes, for values up to `u64::MAX`, in value order:
/// each concrete form for the values no earlier form holds (all of its values,
/// unless `layout: padded` makes forms overlap).
fn encode_forms(model: &Model) -> Result<Vec<EncodeForm>, BuildError> {
    let mut covered: Vec<(BigUint, BigUint)> = Vec::new();
    let mut forms = Vec::new();
    for f in model.forms_upto_u64() {
        for (lo, hi) in crate::sequences::subtract(&f.lo, &f.hi, &covered) {
            forms.push(EncodeForm::new(model, &lo, &hi, &f.bias, &f.units)?);
        }
        covered.push((f.lo.clone(), f.hi.clone()));
        covered = merge(covered);
    }
    forms.sort_by_key(|f| f.lo);
    Ok(forms)
}

/// Sorted, disjoint ranges covering the same values as `ranges`.
fn merge(mut ranges: Vec<(BigUint, BigUint)>) -> Vec<(BigUint, BigUint)> {
    ranges.sort();
    let mut out: Vec<(BigUint, BigUint)> = Vec::new();
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= &last.1 + 1u32 => last.1 = last.1.clone().max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}
