//! Decoding input that the SIMD validator has passed, without the table.
//!
//! For a codec with SIMD tables whose continuation units all carry the same
//! payload bits and no bias ([`Facts::continuation_bits`]), a valid sequence's
//! value is its lead's payload followed by each continuation's: the lead says
//! how many follow (its level in [`Tables::thresholds`], plus one), and no
//! check is left to make. Input is cut into blocks of up to 16 KiB ending at a
//! unit that is no continuation; each block is validated by SIMD and, if it passes,
//! decoded here. The first block that fails goes to the table decoder, which
//! finds the exact error.
//!
//! Where the compiler gave the codec a [`Shape`] (continuation units worth
//! themselves less one base, leads of each length likewise; checked here by
//! [`shape_holds`] when the table is built), the SIMD decoding kernel of
//! `placemat-simd` takes each block but for its last units, four values per
//! step; the scalar loop here takes the rest, and every block of codecs
//! without a shape. Bytes below 80 at a block's start, in a codec where each
//! is a sequence of its own value ([`AsciiRuns::Bytes`]), are widened into
//! values in the pass that checks them (`placemat_simd::widen_ascii_u32`),
//! before the validator sees the rest.
//!
//! [`Facts::continuation_bits`]: super::Facts::continuation_bits
//! [`Tables::thresholds`]: crate::simd::Tables::thresholds

use alloc::vec::Vec;

use super::{Dfa, Facts, Parts, BITS_SHIFT, DEAD, STATE_MASK};
use crate::simd::{Isa, Shape, Tables};
use crate::{AsciiRuns, Value};

/// Input validated and decoded at a time, at most; blocks start at
/// [`FIRST_BLOCK`] and double, so that an error early in the input (or, in
/// lossy decoding, after the last one) costs the SIMD pass little.
const BLOCK: usize = 1 << 14;
/// The first block's length.
const FIRST_BLOCK: usize = 1 << 10;
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
    let (Some(prepared), Some(u), Some(isa)) = (dfa.simd.as_ref(), dfa.unchecked.as_ref(), Isa::detect()) else {
        return Err(0);
    };
    if input.len() < MIN_INPUT {
        return Err(0);
    }
    let (leads, shape, t) = (&u.leads, u.shape, prepared.tables());
    let (mut from, mut block_len) = (0, FIRST_BLOCK);
    while from < input.len() {
        let mut end = (from + block_len).min(input.len());
        block_len = (2 * block_len).min(BLOCK);
        // A block of valid sequences ends where the next begins: at a unit that
        // is no continuation (at most `need` units back in valid input).
        while end < input.len() && end > from && t.is_continuation(input[end]) {
            end -= 1;
        }
        if end == from {
            return Err(from);
        }
        // ASCII at the block's start, where each byte below 80 is a sequence
        // of its own value, is valid as it is: widened in the pass that
        // checks it, without the validator.
        if dfa.facts.ascii_runs == AsciiRuns::Bytes {
            from += V::widen_ascii_simd(isa, &input[from..end], out);
            if from == end {
                continue;
            }
        }
        let block = &input[from..end];
        if prepared.validate(isa, block).is_err() {
            return Err(from);
        }
        let taken = shape.map_or(0, |shape| V::decode_simd(isa, &shape, block, out));
        leads.decode(&block[taken..], bits, (!dfa.facts.byte_digits).then_some(&dfa.digits), t, out);
        from = end;
    }
    Ok(())
}

/// What decoding behind SIMD validation reads of a codec, set up once when
/// its table is built ([`Dfa::new`], [`Dfa::from_static`]): the leads, and
/// the SIMD decoding kernel's [`Shape`] where the compiler found one
/// ([`Parts::decoding_shape`], held to the table by [`shape_holds`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unchecked {
    leads: Leads,
    pub(crate) shape: Option<Shape>,
}

impl Unchecked {
    /// For a codec with SIMD tables whose continuation units carry a common
    /// payload ([`super::Facts::continuation_bits`]), else `None`.
    pub(crate) const fn of(p: &Parts<'_>, facts: &Facts, stride: usize) -> Option<Unchecked> {
        let Some(simd) = &p.simd else { return None };
        let t = &simd.tables;
        if facts.continuation_bits == 0 {
            return None;
        }
        let mut leads = [1u16 << 8; 256];
        let mut u = 0;
        while u < 256 {
            if let Some((n, payload)) = lead(p, t, stride, u) {
                leads[u] = (n as u16) << 8 | payload;
            }
            u += 1;
        }
        Some(Unchecked { leads: Leads(leads), shape: simd.decoding })
    }
}

/// The length of the sequence unit `u` leads (its level in the SIMD tables,
/// plus one) and its payload, if the start state takes it.
const fn lead(p: &Parts<'_>, t: &Tables, stride: usize, u: usize) -> Option<(usize, u16)> {
    let e = p.table.transitions[stride + p.table.classes[u] as usize];
    if e & STATE_MASK == DEAD as u32 {
        return None;
    }
    let payload = p.table.digits[u] as u16 & ((1u16 << ((e >> BITS_SHIFT) & 0xF)) - 1);
    Some((t.level(u as u8) as usize + 1, payload))
}

/// Whether the claimed [`Parts::decoding_shape`] holds: no claim always does
/// (it gives up the kernel); a claim needs SIMD tables, 6-bit continuation
/// payloads and byte digits, the continuation units exactly its run, and
/// every lead of `n` units worth itself less `lead_base[n]`.
pub(crate) const fn shape_holds(p: &Parts<'_>, facts: &Facts, stride: usize) -> bool {
    let Some(simd) = &p.simd else { return true };
    let (Some(shape), t) = (&simd.decoding, &simd.tables) else { return true };
    if facts.continuation_bits != 6 || !facts.byte_digits || shape.check().is_err() {
        return false;
    }
    match t.continuation_run() {
        Some((first, last)) if first == shape.continuation.0 && last == shape.continuation.1 => {}
        _ => return false,
    }
    let mut u = 0;
    while u < 256 {
        if let Some((n, payload)) = lead(p, t, stride, u) {
            if n >= 16 || (u as u16).wrapping_sub(payload) as u8 != shape.lead_base[n] {
                return false;
            }
        }
        u += 1;
    }
    true
}

/// For every lead: the units in its sequence (above bit 8) and its payload.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Leads([u16; 256]);

impl Leads {
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
