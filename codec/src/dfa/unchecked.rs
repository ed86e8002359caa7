//! Decoding input that the SIMD validator has passed, without the table.
//!
//! For a codec with SIMD tables whose continuation units all carry the same
//! payload bits and no bias ([`Facts::continuation_bits`]), a valid sequence's
//! value is its lead's payload followed by each continuation's: the lead says
//! how many follow (its level in [`Tables::thresholds`], plus one), and no
//! check is left to make. Input is cut into blocks of 16 KiB ending at a unit
//! that is no continuation; each block is validated by SIMD and, if it passes,
//! decoded here. The first block that fails goes to the table decoder, which
//! finds the exact error.
//!
//! [`Facts::continuation_bits`]: super::Facts::continuation_bits
//! [`Tables::thresholds`]: crate::simd::Tables::thresholds

use alloc::vec::Vec;

use super::{Dfa, DEAD};
use crate::simd::{self, Isa, Tables};
use crate::Value;

/// Input validated and decoded at a time.
const BLOCK: usize = 1 << 14;
/// Below this much input the table decoder starts as fast.
const MIN_INPUT: usize = 512;

/// Decodes `input` block by block while blocks validate; `Err(at)` names the
/// sequence boundary where the table decoder must take over (0 when there is
/// no fast path).
pub(super) fn decode_into<T: AsRef<[u32]>, B: AsRef<[u64]>, V: Value>(
    dfa: &Dfa<T, B>,
    input: &[u8],
    out: &mut Vec<V>,
) -> Result<(), usize> {
    let bits = u32::from(dfa.facts.continuation_bits);
    let (Some(t), Some(isa)) = (dfa.simd.as_ref(), Isa::detect()) else { return Err(0) };
    if bits == 0 || input.len() < MIN_INPUT {
        return Err(0);
    }
    let leads = Leads::of(dfa, t);
    let mut from = 0;
    while from < input.len() {
        let mut end = (from + BLOCK).min(input.len());
        // A block of valid sequences ends where the next begins: at a unit that
        // is no continuation (at most `need` units back in valid input).
        while end < input.len() && end > from && t.is_continuation(input[end]) {
            end -= 1;
        }
        let block = &input[from..end];
        if end == from || simd::validate(isa, t, block).is_err() {
            return Err(from);
        }
        leads.decode(block, bits, &dfa.digits, t.ascii, out);
        from = end;
    }
    Ok(())
}

/// For every lead: the units in its sequence (above bit 8) and its payload.
struct Leads([u16; 256]);

impl Leads {
    fn of<T: AsRef<[u32]>, B: AsRef<[u64]>>(dfa: &Dfa<T, B>, t: &Tables) -> Leads {
        let mut leads = [1 << 8; 256];
        for u in 0..=255u8 {
            let tr = dfa.transition(dfa.start(), u);
            if tr.next != DEAD {
                let payload = u16::from(dfa.digits[usize::from(u)]) & ((1 << tr.payload_bits) - 1);
                leads[usize::from(u)] = u16::from(t.level(u) + 1) << 8 | payload;
            }
        }
        Leads(leads)
    }

    /// Decodes a block the SIMD validator has passed.
    fn decode<V: Value>(&self, block: &[u8], bits: u32, digits: &[u8; 256], ascii: bool, out: &mut Vec<V>) {
        // One value per unit at most: write into the room, then cut it back.
        let base = out.len();
        out.resize(base + block.len(), V::default());
        let dst = &mut out[base..];
        let cont = |c: u8| u64::from(digits[usize::from(c)]) & ((1 << bits) - 1);
        let (mut i, mut k) = (0, 0);
        while let Some(&lead) = block.get(i) {
            if ascii && lead < 0x80 {
                // Sixteen single-unit values of themselves at a time, then one.
                let run = block.get(i..i + 16).map(|r| <[u8; 16]>::try_from(r).expect("16 units"));
                if let Some(run) =
                    run.filter(|r| u128::from_le_bytes(*r) & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0)
                {
                    for (d, &u) in dst[k..k + 16].iter_mut().zip(&run) {
                        *d = V::from_u64_lossy(u64::from(u));
                    }
                    i += 16;
                    k += 16;
                } else {
                    dst[k] = V::from_u64_lossy(u64::from(lead));
                    i += 1;
                    k += 1;
                }
                continue;
            }
            let info = self.0[usize::from(lead)];
            let n = usize::from(info >> 8);
            let mut v = u64::from(info & 0xFF);
            match block.get(i + 1..i + n).unwrap_or_default() {
                [] => {}
                [a] => v = v << bits | cont(*a),
                [a, b] => v = (v << bits | cont(*a)) << bits | cont(*b),
                [a, b, c] => v = ((v << bits | cont(*a)) << bits | cont(*b)) << bits | cont(*c),
                rest => {
                    for &c in rest {
                        v = v << bits | cont(c);
                    }
                }
            }
            dst[k] = V::from_u64_lossy(v);
            i += n;
            k += 1;
        }
        out.truncate(base + k);
    }
}
