//! # placemat-benches
//!
//! Everything the benchmarks (`benches/codecs.rs`, `benches/transcode.rs`)
//! share: the list of codecs under test, the corpora transcoded into each
//! codec, the baselines that are not in a crate ([`hoehrmann`], Bjoern
//! Hoehrmann's DFA decoder in C; [`naive`], a plain branching decoder), and the
//! other libraries' conversions behind one signature ([`converters`]). The report generator `bench-report`
//! (`bin/bench-report.rs`) runs them and writes `papers/benchmarks.md` with
//! `placemat_cli::report::benchmarks`.
//!
//! ```
//! use placemat_benches::{codec_names, Encoded};
//! use placemat_variants::codecs::FssUtfXopen;
//! use placemat_variants::corpus;
//!
//! assert_eq!(codec_names()[0], "utf8");
//! let korean = corpus::by_name("korean").unwrap();
//! let xopen = Encoded::<FssUtfXopen>::new(&korean);
//! // Hangul syllables take three units in X/Open FSS-UTF as in UTF-8.
//! assert!(xopen.bytes.len() >= korean.utf8_len());
//! assert_eq!(xopen.values.len(), korean.text.len());
//! ```
//!
//! See `BENCHMARKING.md` beside this crate for how to run and read them.

use placemat_codec::{Codec, Encoder, Value};
use placemat_variants::corpus::{self, Corpus};

pub mod converters;
pub mod hoehrmann;
pub mod naive;

/// Re-exported so that [`for_each_codec!`] expands anywhere.
pub use placemat_variants::codecs;

/// Calls the generic function `f::<C>(args…)` once for every built-in generated
/// codec `C`, strict UTF-8 first. This is the one list the benchmarks run over:
/// adding a codec to the matrix is adding a line here.
///
/// ```
/// use placemat_codec::Codec;
/// fn name<C: Codec>(names: &mut Vec<&'static str>) {
///     names.push(&C::info().name);
/// }
/// let mut names = Vec::new();
/// placemat_benches::for_each_codec!(name(&mut names));
/// assert_eq!(names, placemat_benches::codec_names());
/// ```
#[macro_export]
macro_rules! for_each_codec {
    ($f:ident ( $($arg:expr),* $(,)? )) => {{
        $f::<$crate::codecs::Utf8>($($arg),*);
        $f::<$crate::codecs::FssUtfXopen>($($arg),*);
        $f::<$crate::codecs::FssUtfPlan9>($($arg),*);
        $f::<$crate::codecs::KenDraft>($($arg),*);
        $f::<$crate::codecs::Utf8Ext36>($($arg),*);
        $f::<$crate::codecs::Utf8Ext42>($($arg),*);
        $f::<$crate::codecs::Utf1>($($arg),*);
        $f::<$crate::codecs::UtfEbcdic>($($arg),*);
        $f::<$crate::codecs::Wtf8>($($arg),*);
        $f::<$crate::codecs::Printable6>($($arg),*);
        $f::<$crate::codecs::Printable6Big>($($arg),*);
        $f::<$crate::codecs::Utf16Le>($($arg),*);
        $f::<$crate::codecs::Utf16Be>($($arg),*);
        $f::<$crate::codecs::Utf32Le>($($arg),*);
        $f::<$crate::codecs::Utf32Be>($($arg),*);
        $f::<$crate::codecs::Cesu8>($($arg),*);
        $f::<$crate::codecs::Mutf8>($($arg),*);
        $f::<$crate::codecs::PerlUtf8>($($arg),*);
        $f::<$crate::codecs::Vlq>($($arg),*);
        $f::<$crate::codecs::GitOfs>($($arg),*);
        $f::<$crate::codecs::QuicVarint>($($arg),*);
        $f::<$crate::codecs::SqliteVarint>($($arg),*);
        $f::<$crate::codecs::Leb128>($($arg),*);
        $f::<$crate::codecs::HpackInt5>($($arg),*);
        $f::<$crate::codecs::HpackInt7>($($arg),*);
        $f::<$crate::codecs::Sleb128>($($arg),*);
        $f::<$crate::codecs::ProtobufSint64>($($arg),*);
        $f::<$crate::codecs::SourcemapVlq>($($arg),*);
    }};
}

/// The names of the codecs [`for_each_codec!`] visits, in its order.
pub fn codec_names() -> Vec<&'static str> {
    fn name<C: Codec>(names: &mut Vec<&'static str>) {
        names.push(match &C::info().name {
            std::borrow::Cow::Borrowed(s) => s,
            std::borrow::Cow::Owned(_) => unreachable!("generated codecs have static names"),
        });
    }
    let mut names = Vec::new();
    for_each_codec!(name(&mut names));
    names
}

/// The benchmark id's implementation part for strategy `what` of `codec`: bare for
/// strict UTF-8 (`table`), prefixed for the others (`ken-draft:table`).
pub fn implementation(codec: &str, what: &str) -> String {
    if codec == "utf8" {
        what.to_string()
    } else {
        format!("{codec}:{what}")
    }
}

/// Whether `PLACEMAT_BENCH_QUICK` asks for a short run (a smoke test of the
/// groups, not figures).
pub fn quick() -> bool {
    std::env::var_os("PLACEMAT_BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The settings of every criterion group: ten samples, no plots, and
/// shorter warm-up and measurement when [`quick`].
#[cfg(feature = "criterion")]
pub fn config() -> criterion::Criterion {
    use std::time::Duration;
    let c = criterion::Criterion::default().sample_size(10).without_plots();
    if quick() {
        c.warm_up_time(Duration::from_millis(50)).measurement_time(Duration::from_millis(150))
    } else {
        c.warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_millis(800))
    }
}

/// One corpus in one codec: its values and their encoding.
#[derive(Clone, Debug)]
pub struct Encoded<C: Codec> {
    /// The corpus name.
    pub corpus: &'static str,
    /// The text as the codec's values.
    pub values: Vec<<C as Encoder>::Value>,
    /// The text encoded by the codec.
    pub bytes: Vec<u8>,
}

impl<C: Codec + Default> Encoded<C> {
    /// Transcodes `corpus` into `C`. Panics if the codec cannot encode a value
    /// (every built-in codec covers the scalar values).
    pub fn new(corpus: &Corpus) -> Self {
        let values: Vec<_> = corpus
            .text
            .iter()
            .map(|&v| <<C as Encoder>::Value as Value>::from_u64(u64::from(v)).expect("a scalar value fits"))
            .collect();
        let mut bytes = Vec::new();
        C::default()
            .encode_all(&values, &mut bytes)
            .unwrap_or_else(|(i, e)| panic!("{}: value {i} of {}: {e}", C::info().name, corpus.name));
        Encoded { corpus: corpus.name, values, bytes }
    }

    /// The `mixed` corpus in `C`, damaged as [`corpus::mutated_utf8`] damages UTF-8.
    pub fn mutated(mixed: &Corpus) -> Vec<u8> {
        corpus::mutated(&Self::new(mixed).bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_codec::Decoder;

    #[test]
    fn the_matrix_covers_every_registered_codec() {
        let registered = placemat_variants::registry::names();
        for name in &registered {
            assert!(codec_names().contains(name), "add `{name}` to for_each_codec!");
        }
    }

    fn round_trip<C: Codec + Default>(corpora: &[Corpus]) {
        for c in corpora {
            let e = Encoded::<C>::new(c);
            assert_eq!(C::default().decode(&e.bytes).unwrap(), e.values, "{} {}", C::info().name, c.name);
            assert!(C::default().validate(&e.bytes).is_ok());
        }
        let mixed = corpora.iter().find(|c| c.name == "mixed").unwrap();
        let bad = Encoded::<C>::mutated(mixed);
        let table = C::default().decode_lossy(&bad);
        let branching = C::Branching::default().decode_lossy(&bad);
        assert_eq!(table, branching, "{}", C::info().name);
    }

    #[test]
    fn every_codec_round_trips_every_corpus() {
        let corpora = corpus::all();
        for_each_codec!(round_trip(&corpora));
    }

    #[test]
    fn implementation_ids() {
        assert_eq!(implementation("utf8", "table"), "table");
        assert_eq!(implementation("ken-draft", "table"), "ken-draft:table");
    }
}
