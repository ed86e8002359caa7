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

use std::collections::HashMap;
use std::string::{String, ToString};
use std::sync::Mutex;
use std::vec::Vec;

use crate::{ApartLeads, DynCodec, Step, Strategy};

/// The shortest run between two sequences read apart for the first of them
/// to be converted on this path (else the engine's blocks of values take
/// them).
const MIN_RUN: usize = 4;

/// The most codecs (distinct names and descriptions) whose pairs' facts are
/// kept: past it, all are forgotten and kept anew. Memory stays bounded
/// (their descriptions, and a fact per pair met) whatever a process loads.
const CODECS: usize = 128;

/// The codecs met so far and the fact of each pair of them met.
struct Kept {
    /// Names and descriptions, a codec's place its number in `facts`.
    codecs: Vec<(String, String)>,
    facts: HashMap<(usize, usize), Option<ApartLeads>>,
}

static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

/// The leads after which `to` may read valid input of `from` apart from it
/// ([`Dfa::leads_apart`](crate::dfa::Dfa::leads_apart)); `None` where
/// there is no such fact. Worked out once per pair of descriptions in a
/// process (a codec without a description is worked out at every call).
pub fn leads_apart(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<ApartLeads> {
    let work_out = || from.dfa().leads_apart(&to.dfa());
    if from.description().is_empty() || to.description().is_empty() {
        return work_out();
    }
    let (a, b) = (from.info(), to.info());
    kept_fact(&KEPT, [(&a.name, from.description()), (&b.name, to.description())], work_out)
}

/// The fact of the pair of codecs `key` (names and descriptions) in `kept`,
/// worked out by `work_out` and kept if it is not there.
fn kept_fact(
    kept: &Mutex<Option<Kept>>,
    [from, to]: [(&str, &str); 2],
    work_out: impl FnOnce() -> Option<ApartLeads>,
) -> Option<ApartLeads> {
    let lock = || kept.lock().unwrap_or_else(|e| e.into_inner());
    let pair = {
        let mut kept = lock();
        let kept = kept.get_or_insert_with(|| Kept { codecs: Vec::new(), facts: HashMap::new() });
        let pair = (kept.place(from), kept.place(to));
        if let Some(&fact) = kept.facts.get(&pair) {
            return fact;
        }
        pair
    };
    // Worked out without the lock (other threads' pairs go on meanwhile).
    let fact = work_out();
    // Kept unless the codecs were forgotten meanwhile (their places may now
    // be other codecs').
    if let Some(kept) = lock().as_mut().filter(|k| k.holds(pair.0, from) && k.holds(pair.1, to)) {
        kept.facts.insert(pair, fact);
    }
    fact
}

impl Kept {
    /// The place of the codec named `name` with the description `text`,
    /// given it if it has none (all forgotten first if [`CODECS`] are kept).
    fn place(&mut self, (name, text): (&str, &str)) -> usize {
        if let Some(place) = (0..self.codecs.len()).find(|&k| self.holds(k, (name, text))) {
            return place;
        }
        if self.codecs.len() == CODECS {
            self.codecs.clear();
            self.facts.clear();
        }
        self.codecs.push((name.to_string(), text.to_string()));
        self.codecs.len() - 1
    }

    /// Whether the codec named `name` with the description `text` is in `place`.
    fn holds(&self, place: usize, (name, text): (&str, &str)) -> bool {
        self.codecs.get(place).is_some_and(|(n, t)| n == name && t == text)
    }
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
    fn a_pairs_fact_is_worked_out_once_while_its_codecs_are_kept() {
        let kept = Mutex::new(None);
        let names: Vec<String> = (0..40).map(|k| format!("codec {k}")).collect();
        let mut worked = 0;
        let fact = |a: usize, b: usize| (a < b).then(|| ApartLeads::new([a as u64, b as u64, 0, 0]));
        // Every pair of 40 codecs, twice: 1600 pairs, more than the few
        // dozen a cache by pairs would keep.
        for _ in 0..2 {
            for (a, from) in names.iter().enumerate() {
                for (b, to) in names.iter().enumerate() {
                    let got = kept_fact(&kept, [(from, "text"), (to, "text")], || {
                        worked += 1;
                        fact(a, b)
                    });
                    assert_eq!(got, fact(a, b), "{from} -> {to}");
                }
            }
        }
        assert_eq!(worked, 40 * 40);
        // Another description under a known name is another codec.
        let other = kept_fact(&kept, [("codec 0", "other text"), ("codec 1", "text")], || None);
        assert_eq!(other, None);
        // Past CODECS codecs, all are forgotten and worked out again.
        for k in 0..CODECS {
            kept_fact(&kept, [(&format!("more {k}"), "text"), ("codec 0", "text")], || None);
        }
        let held = kept.lock().unwrap().as_ref().map(|k| k.codecs.len());
        assert!(held.is_some_and(|n| n <= CODECS), "{held:?} codecs kept");
        let again = kept_fact(&kept, [("codec 0", "text"), ("codec 1", "text")], || None);
        assert_eq!(again, None, "the pair was forgotten: worked out anew");
    }

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
