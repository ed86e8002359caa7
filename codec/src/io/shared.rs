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

/// The shortest run between two sequences read apart for the first of them
/// to be converted on this path (else the engine's blocks of values take
/// them).
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
/// Stops before a sequence read apart that another follows within
/// [`MIN_RUN`] units, so takes nothing where `block` starts with one.
pub(super) fn convert(
    (from, to, check): (&dyn DynCodec, &dyn DynCodec, &dyn DynCodec),
    leads: &ApartLeads,
    mut last: Option<u64>,
    block: &[u8],
    out: &mut Vec<u8>,
) -> (usize, Option<u64>) {
    // A run holds no value either codec's rules look back at (after such a
    // value, neither automaton is back at its first start state: its lead
    // is one of `leads`), so it is read from both first contexts.
    // `stop`: where the run from `pos` ends, at the next unit of `leads`.
    let (mut pos, mut stop) = (0, leads.first(block));
    while pos < block.len() {
        if last.is_none_or(|v| to.context_after(v) == 0 && from.context_after(v) == 0) {
            let run = &block[pos..stop];
            let valid = check.validate_open(0, run).0.map_or_else(|e| e.valid_up_to(), |()| run.len());
            out.extend_from_slice(&run[..valid]);
            pos += valid;
            if valid > 0 {
                last = None;
            }
            if valid < run.len() || pos == block.len() {
                break;
            }
        }
        let context = last.map_or(0, |v| from.context_after(v));
        let Step::Value { value, len } = from.step_open(Strategy::Branching, context, &block[pos..]) else { break };
        // A sequence read apart is converted here unless another follows
        // it within a few units: where they come close together (emoji,
        // text in CESU-8 of a script above U+FFFF), the engine's blocks of
        // values convert them faster.
        let next = pos + len + leads.first(&block[pos + len..]);
        if next - (pos + len) < MIN_RUN && next < block.len() {
            break;
        }
        if last.is_some_and(|before| to.forbids(before, value)) || to.encode_push(value, out).is_err() {
            break;
        }
        last = Some(value);
        (pos, stop) = (pos + len, next);
    }
    (pos, last)
}

/// Sequences read apart at most this many units from the one before are
/// one cluster ([`cluster_end`]).
const GAP: usize = 16;
/// How far [`cluster_end`] looks for a cluster's end.
const REACH: usize = 512;

/// Where the cluster of sequences read apart that starts `block` ends:
/// after the last lead of `leads` that is fewer than [`GAP`] units after the
/// one before, plus the longest sequence (`max_units`), if a run of at
/// least [`GAP`] units without a lead follows within [`REACH`] units; else
/// `None` (text dense with such sequences, or too short a block to tell).
pub(super) fn cluster_end(leads: &ApartLeads, block: &[u8], max_units: usize) -> Option<usize> {
    let reach = block.len().min(REACH);
    let mut last = 0;
    while last + 1 < reach {
        let next = last + 1 + leads.first(&block[last + 1..reach]);
        if next - last >= GAP {
            return Some((last + max_units).min(block.len()));
        }
        if next == reach {
            break;
        }
        last = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_ends_after_its_last_lead_before_a_long_run() {
        let mut set = [0u64; 4];
        set[3] = 1 << (0xED - 0xC0);
        let leads = ApartLeads::new(set);
        // Leads 6 units apart, then a run of 40 units without one.
        let mut block = b"\xED....\xED....\xED....".to_vec();
        block.extend([b'a'; 40]);
        block.push(0xED);
        assert_eq!(cluster_end(&leads, &block, 6), Some(16));
        // Leads that never stop coming within reach: no end.
        assert_eq!(cluster_end(&leads, &b"\xED....".repeat(200), 6), None);
        // Too short a block to tell.
        assert_eq!(cluster_end(&leads, b"\xED....\xED..", 6), None);
        // A lone lead with a long run after it.
        let lone = [&[0xED][..], &[b'z'; 30]].concat();
        assert_eq!(cluster_end(&leads, &lone, 3), Some(3));
    }
}
