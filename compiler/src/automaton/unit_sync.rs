//! The sync units of an automaton of code units wider than a byte
//! (`placemat_codec::dfa::Facts::sync_lane`): bytes at one place of a code
//! unit that mark a code unit every state between code units, but the start,
//! rejects. UTF-16 has no byte that every state but the start rejects (any byte
//! may be a low byte), yet between code units only the start and the state
//! after a high surrogate occur, and the latter rejects every code unit whose
//! high byte is not `DC`–`DF`: those bytes, at the high byte's place, let two
//! walks cut UTF-16 text.
//!
//! The set at each place is the runtime's own definition
//! ([`placemat_codec::dfa::wide_sync_units`], over the packed transitions),
//! which `Dfa::new` recomputes to check the claim; this pass only picks the
//! place.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Ucs2 { name: "ucs2", unit: u16le, value: u32, range: 0 ..= 0xFFFF,
//!                forms: { "xxxxxxxxxxxxxxxx" } }
//! "#).unwrap();
//! let facts = Automaton::build(&d.model, BuildOptions::default()).unwrap().facts;
//! // Every code unit is a whole sequence: every place of every one is a cut.
//! assert_eq!((facts.sync_units, facts.sync_lane), ([u64::MAX; 4], 0));
//! ```

use super::Automaton;
use placemat_codec::dfa::wide_sync_units;

/// The sync units and their place in a code unit, for code units wider than
/// a byte (`None` for byte units): of the place with the most sync bytes, the
/// first of those (none with several contexts or more than
/// `placemat_codec::dfa::MAX_UNIT_SYNC_STATES` states). Reads the packed
/// transitions, which must be set.
pub(super) fn derive(a: &Automaton) -> Option<([u64; 4], u8)> {
    let w = u8::try_from(a.unit_bytes).ok().filter(|&w| w > 1)?;
    let contexts = u8::try_from(a.contexts).unwrap_or(u8::MAX);
    let count = |set: &[u64; 4]| set.iter().map(|x| x.count_ones()).sum::<u32>();
    (0..w)
        .map(|lane| (wide_sync_units(&a.classes, &a.transitions, w, contexts, lane), lane))
        .max_by_key(|(set, lane)| (count(set), std::cmp::Reverse(*lane)))
}
