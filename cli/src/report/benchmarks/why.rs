//! Why a codec missed "within 1.5x the time of utf8's": the mechanisms the
//! report can check from the run's own numbers and the codec's derived facts,
//! each stated only where it holds.
//!
//! - *Size*: the codec's encoding of the text is larger than UTF-8's (the
//!   measured bytes of the two on the same corpus), and every strategy's time
//!   grows with the units it reads or writes.
//! - *Value width*: a decoder of values wider than 32 bits writes `u64`s, twice
//!   utf8's output bytes, which bounds the copy of ASCII text.
//! - *Runs*: no code unit is a value of itself from the start state, so ASCII
//!   text is walked unit by unit where utf8 copies or skips it 16 at a time.
//! - *Cuts*: no unit of the encodings of non-ASCII letters marks where a
//!   sequence starts or ends, so text without ASCII is read by one walk where
//!   utf8's table walkers run two.
//! - *Rows*: the shift-DFA validator's rows are 128 bits wide, or the
//!   automaton fits no row and its validator walks the transition table.
//! - *Digits*: UTF-1's encoder divides by 190 per digit.
//!
//! Where none applies, the text says so: no mechanism is guessed.
//!
//! ```
//! use placemat_cli::report::benchmarks::{variant_why, Measurement, Results};
//! let m = |imp: &str, ns: f64, bytes| Measurement {
//!     group: "decode".into(),
//!     implementation: imp.into(),
//!     corpus: "english".into(),
//!     median_ns: ns,
//!     bytes,
//! };
//! let r = Results::new(vec![m("table", 100.0, 1000), m("utf16le:table", 200.0, 2000)]);
//! let why = variant_why("utf16le", "decode", "table", &["english"], &r);
//! assert!(why.contains("2.00x utf8's bytes on english"), "{why}");
//! ```

use placemat_variants::registry;

/// The encoding is counted as larger from this ratio of bytes on.
const LARGER: f64 = 1.15;

/// The sentences that explain `codec`'s miss in `group` with `strategy` on the
/// corpora `missed`, from `results` and the codec's facts.
pub fn variant_why(
    codec: &str,
    group: &str,
    strategy: &str,
    missed: &[&str],
    results: &crate::report::benchmarks::Results,
) -> String {
    let why = mechanisms(codec, group, strategy, missed, results);
    if why.is_empty() {
        return "None of the mechanisms this report checks applies (encoded size, value width, runs of units, \
            cuts for a second walk, validator rows); not profiled."
            .into();
    }
    why.join(" ")
}

/// The sentences of [`variant_why`] that hold (none, if none does).
pub(super) fn mechanisms(
    codec: &str,
    group: &str,
    strategy: &str,
    missed: &[&str],
    results: &crate::report::benchmarks::Results,
) -> Vec<String> {
    let mut why = Vec::new();
    let larger: Vec<String> = missed
        .iter()
        .filter_map(|&c| {
            let ours = results.get(group, &format!("{codec}:{strategy}"), c)?.bytes as f64;
            let theirs = results.get(group, strategy, c)?.bytes as f64;
            (ours >= LARGER * theirs).then(|| format!("{:.2}x utf8's bytes on {c}", ours / theirs))
        })
        .collect();
    if !larger.is_empty() {
        why.push(format!(
            "Its encoding of the text is larger ({}), and the time grows with the units.",
            larger.join(", ")
        ));
    }
    let english = missed.contains(&"english");
    if let Some(c) = registry::find(codec) {
        let (dfa, info) = (c.dfa(), c.info());
        let facts = dfa.facts();
        if group == "decode" && info.value_bits > 32 && english {
            why.push("It decodes to u64: on English, where both copy units into values, it writes twice utf8's output bytes.".into());
        }
        let runs =
            facts.ascii_runs != placemat_codec::AsciiRuns::None || facts.wide_runs != placemat_codec::WideRuns::NONE;
        if group != "encode" && !runs && english {
            why.push("No unit is a value of itself from the start state, so ASCII text is walked unit by unit where utf8 copies or skips it 16 units at a time.".into());
        }
        // A sample of non-ASCII letters, encoded: does any unit mark a cut?
        let mut sample = Vec::new();
        for v in [0xE9, 0x44F, 0x4E2D, 0xD55C, 0x1F600] {
            let _ = c.encode_push(v, &mut sample);
        }
        let bit = |set: &[u64; 4], u: u8| set[usize::from(u / 64)] >> (u % 64) & 1 == 1;
        // Sync units of wide code units are bytes at one place of a code unit.
        let w = usize::from(facts.unit_bytes.max(1));
        let sync = sample
            .chunks(w)
            .any(|unit| unit.get(usize::from(facts.sync_lane)).is_some_and(|&u| bit(&facts.sync_units, u)));
        let cuts = sync || sample.iter().any(|&u| bit(&facts.end_units, u));
        if strategy == "table" && !cuts && missed.iter().any(|&c| c != "english") {
            why.push("No unit of its encodings of non-ASCII letters marks where a sequence starts or ends (a sync or end unit), so such text is read by one walk, latency-bound, where utf8's table walkers run two side by side.".into());
        }
        match (group, strategy, dfa.shift_width()) {
            ("validate", "table", 0) => why.push(format!(
                "Its {} states fit no shift-DFA row of 64 or 128 bits, so it validates by walking the class-compressed table, a class lookup and a transition per unit where utf8's shift DFA takes one row load.",
                dfa.state_count()
            )),
            ("validate", "table", 7..) => why.push("Its shift-DFA validator needs 128-bit rows, several instructions per variable shift where utf8's 64-bit rows take one.".into()),
            _ => {}
        }
    }
    if codec == "utf1" && group == "encode" {
        why.push("UTF-1's encoder splits a payload into base-190 digits, a division by the constant 190 per digit (a multiply-high and a multiply-subtract), where UTF-8's shifts and masks; a CJK character is two such digits.".into());
    }
    why
}
