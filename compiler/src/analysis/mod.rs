//! What an encoding buys and costs, computed from its model and its automaton: the
//! properties `placemat compare` tabulates and `papers/comparison.md` discusses.
//!
//! Everything here works at run time on any description (a built-in codec's
//! [`placemat_codec::Codec::DESCRIPTION`] or a file loaded with `--spec`), never on a codec's
//! name. One file per family of properties:
//!
//! * [`structure`] — value range, forms, longest sequence, prefix-freeness and
//!   unique decodability, ASCII transparency, file-system safety, order preservation,
//!   each proved from the model's unit patterns and value ranges (a "no" comes with
//!   a witness);
//! * [`sync`] — self-synchronization, computed exactly by a subset construction over
//!   the automaton, and confirmed by restarting the decoder at random offsets;
//! * [`spread`] — how many decoded values one dropped, flipped or inserted unit
//!   damages;
//! * [`size`] — units per character on a corpus, and the automaton's size;
//! * [`units`] — which units lead a sequence and which continue one
//!   ([`UnitRoles`]).
//!
//! ```
//! use placemat_compiler::analysis::{analyze, Corpus, Options, Subject};
//! use placemat_compiler::LoadedCodec;
//! // Strict UTF-8 cut down to two forms.
//! let codec = LoadedCodec::from_text(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF, layout: shortest,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let text: Vec<u32> = "añb".chars().map(u32::from).collect();
//! let corpora = [Corpus { name: "tiny", values: &text }];
//! let options = Options { spread_trials: 20, sync_samples: 20, ..Options::default() };
//! let a = analyze(&Subject::from_loaded(&codec), &corpora, &options, &mut |_| {});
//! assert!(a.structure.ascii_transparent.is_yes());
//! assert_eq!(a.sync.as_ref().unwrap().bound.units(), Some(1));
//! assert_eq!(a.corpora[0].size.units, 4);
//! ```
//!
//! # Lineage
//! The properties are the ones argued over in September 1992 (Pike's account of the
//! X/Open FSS-UTF proposal and its redesign, in his 2003 mail "UTF-8 history"; see
//! `papers/specs/encodings.md`): file-system safety was
//! X/Open's requirement, self-synchronization the reason for the redesign.
//! Prefix-freeness and the Sardinas–Patterson test are textbook coding theory
//! (Sardinas & Patterson, 1953).

mod signed_values;
pub mod size;
pub mod spread;
pub mod structure;
pub mod sync;
pub mod units;

use std::fmt;

use placemat_codec::DynCodec;

use super::model::Model;
use crate::automaton::{Automaton, BuildOptions};
use crate::{Description, Diagnostic, Diagnostics, LoadedCodec};

pub use size::{AutomatonSize, CorpusSize, Encoded};
pub use spread::{Mutation, SpreadStats};
pub use structure::{Structure, Verdict};
pub use sync::{Bound, SelfSync, SyncError};
pub use units::UnitRoles;

/// A named text, as Unicode scalar values (the corpora of `placemat_variants::corpus`).
#[derive(Copy, Clone, Debug)]
pub struct Corpus<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its values.
    pub values: &'a [u32],
}

/// What the analyses run on: a codec and the model it was built from.
pub struct Subject<'a> {
    /// The model (from the codec's description).
    pub model: Model,
    /// The model's automaton.
    pub automaton: Automaton,
    /// The codec: its encoder, decoder and tables.
    pub codec: &'a dyn DynCodec,
}

/// A codec whose description does not parse (a bug in the codec).
#[derive(Debug)]
pub struct SubjectError {
    /// The codec's name.
    pub name: String,
    /// What the parser said.
    pub diagnostics: Diagnostics,
}

impl fmt::Display for SubjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the description of `{}` does not parse: {}", self.name, self.diagnostics)
    }
}

impl std::error::Error for SubjectError {}

impl<'a> Subject<'a> {
    /// Any codec, its model parsed back from [`DynCodec::description`].
    pub fn from_dyn(codec: &'a dyn DynCodec) -> Result<Self, SubjectError> {
        let fail = |diagnostics| SubjectError { name: codec.info().name.to_string(), diagnostics };
        let model = Description::parse_str(codec.description()).map_err(fail)?.model;
        let automaton = Automaton::build(&model, BuildOptions::default())
            .map_err(|e| fail(Diagnostics(vec![Diagnostic::new(proc_macro2::Span::call_site(), e.to_string())])))?;
        Ok(Subject { model, automaton, codec })
    }

    /// A codec built at run time (`--spec`), with its model.
    pub fn from_loaded(codec: &'a LoadedCodec) -> Self {
        Subject { model: codec.model().clone(), automaton: codec.automaton().clone(), codec }
    }

    /// The codec's name.
    pub fn name(&self) -> &str {
        &self.model.name
    }
}

/// How much sampling the empirical measurements do. The defaults are what
/// `placemat compare` uses; every sample is drawn from a generator seeded with
/// `seed`, so results are reproducible.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seed of the sampling.
    pub seed: u64,
    /// Trials per corpus and per kind of damage for the error spread.
    pub spread_trials: usize,
    /// Random starting offsets per corpus for the empirical self-synchronization.
    pub sync_samples: usize,
    /// Stop following one damaged (or misaligned) decoding after this many values
    /// (or units); a trial that reaches it is counted at the cap.
    pub cap: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { seed: 0x1992_0902, spread_trials: 400, sync_samples: 2000, cap: 1 << 14 }
    }
}

/// One corpus's measurements for one codec.
#[derive(Clone, Debug)]
pub struct CorpusResult {
    /// Units per character.
    pub size: CorpusSize,
    /// Units a decoder restarted at a random offset skipped before its sequence
    /// boundaries matched the true ones, one entry per sample.
    pub realignment: Vec<u32>,
    /// Damaged values per trial, for each kind of damage in [`Mutation::ALL`] order.
    pub spread: [Vec<u32>; 3],
}

/// Everything computed for one codec.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The codec's name.
    pub name: String,
    /// Properties of the model.
    pub structure: Structure,
    /// The exact self-synchronization bound.
    pub sync: Result<SelfSync, SyncError>,
    /// The automaton's size.
    pub automaton: AutomatonSize,
    /// Per-corpus measurements, in the order the corpora were given.
    pub corpora: Vec<CorpusResult>,
}

impl Analysis {
    /// Realignment samples over all corpora.
    pub fn realignment(&self) -> SpreadStats {
        SpreadStats::from_samples(self.corpora.iter().flat_map(|c| c.realignment.iter().copied()))
    }

    /// Error-spread statistics for one kind of damage over all corpora.
    pub fn spread(&self, m: Mutation) -> SpreadStats {
        SpreadStats::from_samples(self.corpora.iter().flat_map(|c| c.spread[m.index()].iter().copied()))
    }
}

/// Runs every analysis on `subject` over `corpora`; `progress` hears one short
/// message per stage (for a progress line on stderr).
pub fn analyze(
    subject: &Subject<'_>,
    corpora: &[Corpus<'_>],
    options: &Options,
    progress: &mut dyn FnMut(&str),
) -> Analysis {
    let name = subject.name().to_string();
    progress(&format!("{name}: structure"));
    let structure = structure::analyze(&subject.model);
    progress(&format!("{name}: self-synchronization"));
    let sync = sync::self_sync(&subject.automaton);
    let automaton = AutomatonSize::of(&subject.automaton);
    let mut results = Vec::new();
    for (i, corpus) in corpora.iter().enumerate() {
        progress(&format!("{name}: corpus {}", corpus.name));
        let encoded = Encoded::new(subject.codec, corpus.values);
        let mut rng = Rng::new(options.seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let realignment = sync::realignment(subject.codec, &encoded, options.sync_samples, options.cap, &mut rng);
        let spread = Mutation::ALL
            .map(|m| spread::error_spread(subject.codec, &encoded, m, options.spread_trials, options.cap, &mut rng));
        results.push(CorpusResult { size: encoded.size(corpus.name), realignment, spread });
    }
    Analysis { name, structure, sync, automaton, corpora: results }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit state, one add and a
/// finalizing mix per output. The seedable generator behind every sampled
/// measurement here and behind the built-in corpora; not for anything secret.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift (Lemire); the bias is below
    /// 2⁻³² for the sizes used here.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + ((u128::from(self.next_u64()) * u128::from(hi - lo + 1)) >> 64) as u64
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Units as text: hex bytes (`C0 AF`) for byte units, the characters between
/// backquotes for alphabet units.
pub fn units_text(model: &Model, units: &[u8]) -> String {
    match model.unit {
        placemat_codec::Unit::Byte => units_bare(model, units),
        placemat_codec::Unit::Alphabet(_) => format!("`{}`", units_bare(model, units)),
    }
}

/// Units as [`units_text`] writes them, without the backquotes, for a message
/// that quotes them itself.
pub fn units_bare(model: &Model, units: &[u8]) -> String {
    match model.unit {
        placemat_codec::Unit::Byte => units.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(" "),
        placemat_codec::Unit::Alphabet(_) => String::from_utf8_lossy(units).into_owned(),
    }
}
