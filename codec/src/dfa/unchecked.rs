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
//! Where the codec has a [`Shape`] (continuation units worth themselves less
//! one base, leads of each length likewise), the SIMD decoding kernel of
//! `placemat-simd` takes each block but for its last units, four values per
//! step; the scalar loop here takes the rest, and every block of codecs
//! without a shape.
//!
//! [`Facts::continuation_bits`]: super::Facts::continuation_bits
//! [`Tables::thresholds`]: crate::simd::Tables::thresholds

use alloc::vec::Vec;

use super::{Dfa, DEAD};
use crate::simd::{self, Isa, Shape, Tables};
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
    let shape = shape(dfa);
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
        let taken = shape.map_or(0, |shape| V::decode_simd(isa, &shape, block, out));
        leads.decode(&block[taken..], bits, (!dfa.facts.byte_digits).then_some(&dfa.digits), t, out);
        from = end;
    }
    Ok(())
}

/// The SIMD decoding kernel's view of a codec with SIMD tables, 6-bit
/// continuation payload and byte digits: its continuation units one run of at most 64 from a
/// multiple of 64 (so each is worth itself less the first), and the leads of
/// each length worth themselves less one base. `None` otherwise.
pub(super) fn shape<T: AsRef<[u32]>, B: AsRef<[u64]>>(dfa: &Dfa<T, B>) -> Option<Shape> {
    let t = dfa.simd.as_ref()?;
    if dfa.facts.continuation_bits != 6 || !dfa.facts.byte_digits {
        return None;
    }
    let continuation: Vec<u8> = (0..=255u8).filter(|&u| t.is_continuation(u)).collect();
    let (&first, &last) = (continuation.first()?, continuation.last()?);
    if first % 64 != 0 || usize::from(last - first) + 1 != continuation.len() {
        return None;
    }
    let mut lead_base = [None; 16];
    for u in 0..=255u8 {
        let tr = dfa.transition(dfa.start(), u);
        if tr.next == DEAD {
            continue;
        }
        let payload = u & ((1u16 << tr.payload_bits) - 1) as u8;
        let base = lead_base.get_mut(usize::from(t.level(u)) + 1)?.get_or_insert(u - payload);
        if *base != u - payload {
            return None;
        }
    }
    let shape = Shape { continuation: (first, last), lead_base: lead_base.map(|b| b.unwrap_or(0)) };
    shape.check().ok().map(|()| shape)
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

    /// Decodes a block the SIMD validator has passed: the common widths of
    /// continuation payload, with byte digits, as constants (the calls below
    /// are inlined with them).
    fn decode<V: Value>(&self, block: &[u8], bits: u32, digits: Option<&[u8; 256]>, t: &Tables, out: &mut Vec<V>) {
        match (bits, digits) {
            (6, None) => self.decode_with(block, 6, None, t, out),
            (7, None) => self.decode_with(block, 7, None, t, out),
            _ => self.decode_with(block, bits, digits, t, out),
        }
    }

    /// Per value a branch on the lead against the thresholds, as `str::chars`
    /// does for UTF-8: the processor predicts where the next value starts
    /// instead of waiting for a table to say (a length looked up per lead
    /// puts two loads in the chain from one value to the next). Runs of ASCII
    /// are copied 16 at a time; `digits` is `None` where every unit is its own
    /// digit.
    #[inline(always)]
    fn decode_with<V: Value>(&self, block: &[u8], bits: u32, digits: Option<&[u8; 256]>, t: &Tables, out: &mut Vec<V>) {
        let mask = (1u64 << bits) - 1;
        let digit = |c: u8| match digits {
            Some(d) => u64::from(d[usize::from(c)]),
            None => u64::from(c),
        };
        let cont = |v: u64, c: u8| v << bits | digit(c) & mask;
        // The first unit of each length (past `need`, none: 100).
        let first = |k: u8| if t.need >= k { u16::from(t.thresholds[usize::from(k)]) } else { 0x100 };
        let (one, two, three, ascii) = (first(1), first(2), first(3), t.ascii);
        out.reserve(block.len());
        let mut i = 0;
        // While four units remain, a sequence of up to four reads them from
        // one window.
        while let Some(w) = block.get(i..).and_then(|r| r.first_chunk::<4>()) {
            let lead = w[0];
            let v = u64::from(self.0[usize::from(lead)] & 0xFF);
            let lead16 = u16::from(lead);
            if lead16 < one {
                // ASCII lies below the first lead (`Tables::ascii`).
                if ascii && lead < 0x80 {
                    let run = crate::ascii_prefix(&block[i..]);
                    if run > 0 {
                        out.extend(block[i..i + run].iter().map(|&u| V::from_u64_lossy(u64::from(u))));
                        i += run;
                        continue;
                    }
                }
                out.push(V::from_u64_lossy(v));
                i += 1;
            } else if lead16 < two {
                out.push(V::from_u64_lossy(cont(v, w[1])));
                i += 2;
            } else if lead16 < three {
                out.push(V::from_u64_lossy(cont(cont(v, w[1]), w[2])));
                i += 3;
            } else {
                let n = usize::from(self.0[usize::from(lead)] >> 8);
                let v = cont(cont(cont(v, w[1]), w[2]), w[3]);
                let v = block.get(i + 4..i + n).unwrap_or_default().iter().fold(v, |v, &c| cont(v, c));
                out.push(V::from_u64_lossy(v));
                i += n;
            }
        }
        while let Some(&lead) = block.get(i) {
            let info = self.0[usize::from(lead)];
            let n = usize::from(info >> 8);
            let units = block.get(i + 1..i + n).unwrap_or_default();
            out.push(V::from_u64_lossy(units.iter().fold(u64::from(info & 0xFF), |v, &c| cont(v, c))));
            i += n;
        }
    }
}
