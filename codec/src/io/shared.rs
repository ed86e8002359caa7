//! Conversion between two codecs that write most text alike (CESU-8 and
//! UTF-8, UTF-8 and modified UTF-8, UTF-8 and its historical drafts): the
//! runs of valid input that hold no lead the two may read apart
//! ([`Dfa::leads_apart`](crate::dfa::Dfa::leads_apart), derived from the two
//! automata) are copied, and only the sequences those leads start are
//! decoded and encoded, one value at a time.
//!
//! The fact is a walk over both automata, tens of microseconds; it is kept
//! for the process, per pair of descriptions ([`leads_apart`]), so that a
//! transcoder made for a short text does not pay for it each time.
//! `Dfa::leads_apart`'s module docs show the fact on two small automata;
//! `placemat_variants`' suite (`apart.rs`) holds it for the built-in codecs,
//! CESU-8 into UTF-8 read apart at `ED` alone, for instance.

use std::sync::Mutex;
use std::vec::Vec;

use crate::{ApartLeads, DynCodec, Step, Strategy};

/// The shortest run after which a sequence read apart is converted on
/// this path.
const MIN_RUN: usize = 4;

/// Pairs of codecs whose fact is kept (the oldest goes first past this).
const KEPT: usize = 64;

/// The fact of each pair of descriptions met so far, by their names and texts.
type Kept = Vec<((String, String), Option<ApartLeads>)>;
static KEPT_FACTS: Mutex<Kept> = Mutex::new(Vec::new());

/// The leads after which `to` may read valid input of `from` apart from it
/// ([`Dfa::leads_apart`](crate::dfa::Dfa::leads_apart)); `None` where
/// there is no such fact. Worked out once per pair of descriptions in a
/// process (a codec without a description is worked out at every call).
pub fn leads_apart(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<ApartLeads> {
    let work_out = || from.dfa().leads_apart(&to.dfa());
    if from.description().is_empty() || to.description().is_empty() {
        return work_out();
    }
    let key = |from: &dyn DynCodec, to: &dyn DynCodec| {
        (format!("{}\n{}", from.info().name, from.description()), format!("{}\n{}", to.info().name, to.description()))
    };
    let found = |kept: &Kept| kept.iter().find(|((a, b), _)| same(a, from) && same(b, to)).map(|(_, fact)| *fact);
    if let Some(fact) = found(&KEPT_FACTS.lock().unwrap_or_else(|e| e.into_inner())) {
        return fact;
    }
    let fact = work_out();
    let mut kept = KEPT_FACTS.lock().unwrap_or_else(|e| e.into_inner());
    if found(&kept).is_none() {
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((key(from, to), fact));
    }
    fact
}

/// Whether `key` is `codec`'s name and description.
fn same(key: &str, codec: &dyn DynCodec) -> bool {
    let name = &codec.info().name;
    key.len() == name.len() + 1 + codec.description().len()
        && key.starts_with(name.as_ref())
        && key.ends_with(codec.description())
}

/// Converts a prefix of `block`, read by `from` from context 0, into `to`,
/// after `last` (the last value written to `to`, if a rule may look back at
/// it): runs without a unit of `leads` are validated by `check` (`from`, or
/// `to` where such runs are valid in both or in neither) and copied, the other
/// sequences decoded and encoded one value at a time. Stops before an
/// invalid or cut sequence, and before a value `to` refuses or forbids
/// after the one before, which the engine's per-value path then handles.
/// Returns the units taken and the last value written one at a time (`None`
/// after a copied run, after which no rule of either codec looks back).
/// Takes nothing where `block` starts with a unit of `leads`.
pub(super) fn convert(
    (from, to, check): (&dyn DynCodec, &dyn DynCodec, &dyn DynCodec),
    leads: &ApartLeads,
    mut last: Option<u64>,
    block: &[u8],
    out: &mut Vec<u8>,
) -> (usize, Option<u64>) {
    // (The source has no rules across values: `Fused::shares`.)
    let mut pos = 0;
    while pos < block.len() {
        // A run is read from the target's first context.
        if last.is_none_or(|v| to.context_after(v) == 0) {
            let run = &block[pos..pos + leads.first(&block[pos..])];
            let valid = check.validate_open(0, run).0.map_or_else(|e| e.valid_up_to(), |()| run.len());
            out.extend_from_slice(&run[..valid]);
            pos += valid;
            if valid > 0 {
                last = None;
            }
            // Sequences read apart are converted here only after a long
            // run: where they come close together (emoji, text in CESU-8
            // of a script above U+FFFF), the engine's blocks of values
            // convert them faster.
            if valid < run.len() || pos == block.len() || valid < MIN_RUN {
                break;
            }
        }
        let Step::Value { value, len } = from.step_open(Strategy::Branching, 0, &block[pos..]) else { break };
        if last.is_some_and(|before| to.forbids(before, value)) || to.encode_push(value, out).is_err() {
            break;
        }
        last = Some(value);
        pos += len;
    }
    (pos, last)
}
