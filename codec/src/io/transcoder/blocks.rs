//! The [`Transcoder`]'s bulk paths: what it takes without stepping, a
//! run or a block at a time, before the per-value path (`transcoder.rs`)
//! takes the rest: the one-pass kernels and copies (`fused.rs`), runs of
//! ASCII and of wide code units moved without values (between two codecs of
//! wide units, rewritten unit for unit by `placemat_simd::convert_units`),
//! and blocks of values
//! decoded by the source's bulk decoder and written by the target's bulk
//! encoder (or the kernel of `values_kernel.rs`); where each block ends.

use std::vec::Vec;

use super::{BulkFacts, PairUnits, Transcoder, BLOCK, LONG_COPY, MIN_BULK};
use crate::io::fused::{sequence_end, Fused};
use crate::io::values_kernel::ValuesKernel;
use crate::simd::{Pair, Units};
use crate::{AsciiRuns, DynCodec, Step, Strategy, WideForms, WideRuns};

/// What the source's code units and the target's share: the source's units
/// that are sequences of their own value and that the target writes as
/// themselves ([`WideRuns::written_alike`](crate::WideRuns::written_alike)),
/// and a pair form: the source's where the target writes its values alike
/// (the same pair in 16-bit units, single units in 32-bit ones), or from
/// 32-bit units the target's where the source reads its values as single
/// units.
#[derive(Copy, Clone)]
pub(in crate::io) struct Alike {
    pub(in crate::io) from: Units,
    pub(in crate::io) pair: Option<Pair>,
    pub(in crate::io) to: Units,
}

impl Alike {
    /// The fact for a source of `wide_runs` (read from context 0) into a
    /// target of `forms`: `None` where no unit is written alike (a target
    /// with rules across values, or that maps its values, has no wide forms).
    pub(in crate::io) fn of(from: &dyn DynCodec, wide_runs: WideRuns, forms: &WideForms) -> Option<Alike> {
        let (units, pair) = crate::io::fused::source_units(from)?;
        Alike::between(units, pair, wide_runs, forms)
    }

    /// The fact for a source of code units read as `units` and `pair` (whose
    /// sequences of their own value are `wide_runs`) into a target of `forms`.
    pub(in crate::io) fn between(
        units: Units,
        pair: Option<Pair>,
        wide_runs: WideRuns,
        forms: &WideForms,
    ) -> Option<Alike> {
        let single = wide_runs.written_alike(forms)?;
        let within = |ranges: [(u32, u32); 2], p: &Pair| ranges.iter().any(|&(lo, hi)| lo <= p.lo && p.hi <= hi);
        // A pair read as a pair, as the same pair, as single units or
        // from single units.
        let pair = match (units.bytes, forms.units.unit_bytes()) {
            (2, 2) => pair.filter(|p| forms.pair == Some(*p)),
            (2, _) => pair.filter(|p| within(forms.single, p)),
            (_, 2) => forms.pair.filter(|p| within(wide_runs.ranges, p)),
            _ => None,
        };
        Some(Alike { from: Units { single, ..units }, pair, to: forms.simd_units().0 })
    }
}

impl Transcoder<'_> {
    /// Transcodes a run or a block at the start of `data` without stepping;
    /// returns the units taken (0 when neither takes anything).
    pub(super) fn bulk_item(&mut self, data: &[u8], out: &mut Vec<u8>) -> usize {
        if self.facts.is_none() {
            self.facts = Some(BulkFacts::of(self.from, self.to));
        }
        if self.fused.get_or_insert_with(|| Fused::of(self.from, self.to)).is_some() {
            // The one-pass kernel takes ASCII as fast as the runs would.
            return self.bulk(data, out);
        }
        // Between codecs of wide units, a wide run takes ASCII too, and
        // faster than the ASCII path, which moves unit by unit.
        let wide_first = self.to.info().wide_forms.is_some();
        let mut took = 0;
        if wide_first {
            took = match self.units_run(data, out) {
                0 => self.wide_run(data, out),
                n => n,
            };
        }
        if took == 0 {
            took = self.ascii_run(data, out);
        }
        // (A source whose blocks a wide units' kernel decodes takes its runs
        // in its blocks, which then end only at long ASCII runs.)
        if took == 0 && !wide_first && !self.facts().fast {
            took = self.wide_run(data, out);
        }
        if took == 0 {
            took = self.bulk(data, out);
        }
        took
    }

    /// Moves the run of ASCII code units at the start of `data` that are
    /// values of themselves in both codecs ([`DynCodec::ascii_runs`](crate::DynCodec::ascii_runs)) to the
    /// target's code units, without values; returns its length (whole
    /// 16-byte blocks: 0 for a short run).
    fn ascii_run(&mut self, data: &[u8], out: &mut Vec<u8>) -> usize {
        let Some((from, to)) = self.run_kinds() else { return 0 };
        let n = from.prefix(data);
        // (Neither codec has rules across values: their runs would be none.)
        let Some(last) = from.last_value(&data[..n]) else { return 0 };
        crate::convert_run(from, to, &data[..n], out);
        self.last = Some(u64::from(last));
        self.context = self.from.context_after(u64::from(last));
        self.offset += n as u64;
        n
    }

    /// The kinds of ASCII run that the source's units and the target's share
    /// (the source's narrowed to `01`–`7F` where the target has no `00` of
    /// its own value: modified UTF-8), if any.
    fn run_kinds(&self) -> Option<(AsciiRuns, AsciiRuns)> {
        let (from, to) = (self.from.ascii_runs(), self.to.ascii_runs());
        let from = match (from, to.includes(0)) {
            (_, true) | (AsciiRuns::NonZeroBytes, _) => from,
            (AsciiRuns::Bytes, false) => AsciiRuns::NonZeroBytes,
            _ => AsciiRuns::None,
        };
        (from != AsciiRuns::None && to != AsciiRuns::None).then_some((from, to))
    }

    /// Where a block at the start of `data` ends: for a source with wide
    /// runs, before the first long one (which [`Self::wide_run`] then takes);
    /// else at the first run of 16-byte blocks of ASCII the two codecs share
    /// (which [`Self::ascii_run`] then takes without values); else after
    /// `self.block` units. A block may
    /// end inside a sequence: the source's bulk decoder stops before it.
    fn block_end(&self, data: &[u8]) -> usize {
        let end = self.before_lead(data, data.len().min(self.block));
        let wide = self.wide_runs();
        // (A source of pairs that its kernel decodes into a target of other
        // units takes its runs in its blocks.)
        let in_blocks = self.facts().fast && !self.to.info().wide_forms.is_some();
        if wide.is_some() && !in_blocks {
            // Before a run of 32 code units (which `wide_run` then takes), found
            // by looking every 16 units.
            let (step, span) = (16 * wide.units.unit_bytes(), 32 * wide.units.unit_bytes());
            return first_run(&data[..end], step, span, |w| wide.prefix(w)).unwrap_or(end);
        }
        let Some((from, _)) = self.run_kinds() else { return end };
        // Blocks end only at long runs, so that text which changes script
        // every few words is not cut into short blocks: a source that a
        // SIMD kernel decodes (the UTF-8 family's, an integer codec's fact)
        // takes ASCII at its speed, and the table walk skips the runs it
        // meets at the start state (cut at runs of 32 units, UTF-1 into
        // LEB128 ran at 0.36 GB/s on the mixed corpus, at 256 at 0.42).
        // But where the copy of runs read alike declined, the block ends at
        // the first short run, where the copy goes on (Perl's UTF-8 into
        // UTF-8, mixed: 2.0 GB/s, against 1.0 cut at runs of 256).
        let copy = matches!(&self.fused, Some(Some(Fused::Shared { .. })));
        let span = if copy && !self.facts().fast { 2 } else { 16 } * crate::ASCII_BLOCK;
        from.run_start(&data[..end], span).unwrap_or(end)
    }

    /// `end` moved back to where a sequence ends, so that the block's last
    /// sequence is whole and its bulk decoder does not stop at a cut one (a
    /// block whose SIMD validation fails at its end would be decoded whole by
    /// the table walk, and a walk cut at its end steps again from its last
    /// block boundary); what is left of a chunk's end, which may cut a
    /// sequence, goes to the per-value path. For a source with SIMD tables,
    /// by [`sequence_end`]; for another, to the last cut
    /// ([`crate::dfa::Dfa::last_cut`]). `end` itself where there is none near
    /// it.
    fn before_lead(&self, data: &[u8], end: usize) -> usize {
        let facts = self.facts();
        let cut = match facts.simd {
            Some(t) => sequence_end(&t, data, end),
            None => facts.table.last_cut(&data[..end]),
        };
        cut.filter(|&k| k > 0).unwrap_or(end)
    }

    /// Transcodes a block at the start of `data` in bulk; returns the units
    /// taken: those of the values the target took, up to the first one it
    /// refused (found again by stepping, and left to the per-value path).
    fn bulk(&mut self, data: &[u8], out: &mut Vec<u8>) -> usize {
        let mut limit = data.len();
        if let Some(Some(fused)) = &self.fused {
            // The rest of a block through 16-bit units that the last chunk's
            // end cut (in text dense with sequences read apart, where the
            // copy of runs would step through most of each chunk).
            if self.apart_left > 0 {
                let apart = (self.last, &data[..data.len().min(self.apart_left)], false);
                let taken = fused.convert_apart((self.from, self.to), apart, &mut self.units, out);
                self.apart_left = taken.map_or(0, |(took, _)| self.apart_left.saturating_sub(took));
                if let Some((took, last)) = taken {
                    return self.took_apart(took, last);
                }
            }
            if let Some((took, last)) = fused.convert((self.from, self.to), (self.last, data), &mut self.units, out) {
                self.last = last;
                self.context = last.map_or(0, |last| self.from.context_after(last));
                self.offset += took as u64;
                self.copied += took;
                return took;
            }
            // After a long copy, a cluster of sequences read apart takes a
            // block of its own; where copies are short, the text is dense
            // with them, and whole blocks take it. (A codec of the copy of
            // runs is bounded: it has a longest sequence.)
            let longest = self.from.info().max_units.unwrap_or(1);
            let cluster = std::mem::take(&mut self.copied) >= LONG_COPY;
            // Into a target of pair forms, through 16-bit units.
            let apart = (self.last, data, cluster);
            if let Some((took, last)) = fused.convert_apart((self.from, self.to), apart, &mut self.units, out) {
                // A block (not a cluster's: none, or one that reaches far)
                // that the chunk's end cut goes on in the next chunk.
                let block = !cluster || fused.cluster_end(data, longest).is_none();
                if block && data.len() < BLOCK {
                    self.apart_left = BLOCK - took;
                }
                return self.took_apart(took, last);
            }
            if cluster {
                limit = fused.cluster_end(data, longest).unwrap_or(limit);
            }
        }
        if let Some(took) = self.pair_values(&data[..limit], out) {
            return took;
        }
        let block = &data[..self.block_end(&data[..limit])];
        self.values.clear();
        let took = self.from.decode_block(block, &mut self.values);
        self.encode_values(block, took, out)
    }

    /// Transcodes a block at the start of `data` of a source of pair forms
    /// (CESU-8, modified UTF-8), decoded into values by the kernels of its
    /// 16-bit units (`pair_units.rs`) and written by the target's bulk
    /// encoder; returns the units taken, or `None` for another source and
    /// where the kernels take nothing (the source's bulk decoder then
    /// tries the block).
    fn pair_values(&mut self, data: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        let from = self.from;
        let kernels = self.pair_values.get_or_insert_with(|| PairUnits::for_values(from).map(Box::new)).as_deref()?;
        let block = &data[..kernels.block_end(data, data.len().min(self.block))];
        self.values.clear();
        let took = kernels.decode_values(from, block, (&mut self.units, &mut self.wide), &mut self.values);
        (took > 0).then(|| self.encode_values(&block[..took], took, out))
    }

    /// Records `took` units converted through 16-bit units, `last` the value
    /// of the last of them; returns `took`.
    fn took_apart(&mut self, took: usize, last: u64) -> usize {
        self.last = Some(last);
        self.context = self.from.context_after(last);
        self.offset += took as u64;
        took
    }

    /// Transcodes the run of wide code units at the start of `data` that are
    /// whole sequences of their own value in the source ([`WideRuns`], from
    /// context 0) without walking its automaton: the code units are the
    /// values the target's bulk encoder writes. Returns the units taken: 0
    /// for a source without wide runs or a run shorter than [`MIN_BULK`]
    /// units (a surrogate pair in UTF-16 text, say, goes to the blocks).
    fn wide_run(&mut self, data: &[u8], out: &mut Vec<u8>) -> usize {
        let runs = self.wide_runs();
        // (At most a block's values at a time, so that they stay in cache.)
        let n = runs.prefix(&data[..data.len().min(BLOCK * runs.units.unit_bytes())]);
        if n < MIN_BULK * runs.units.unit_bytes() {
            return 0;
        }
        self.values.clear();
        self.values.extend(runs.values(&data[..n]).map(u64::from));
        self.encode_values(&data[..n], n, out)
    }

    /// Rewrites the run of wide code units at the start of `data` that the
    /// two codecs write alike ([`BulkFacts::alike`]: single units, and
    /// pairs where both write them so) unit for unit, without values, by the
    /// SIMD kernel ([`crate::simd::convert_units`]); returns the units taken
    /// (0 without such runs or a kernel, or for a run shorter than the
    /// kernel's step).
    fn units_run(&mut self, data: &[u8], out: &mut Vec<u8>) -> usize {
        let (Some(alike), Some(isa)) = (self.facts().alike, crate::simd::Isa::detect()) else { return 0 };
        let n = crate::simd::convert_units(isa, &alike.from, alike.pair.as_ref(), &alike.to, data, out);
        self.took_units(&alike, &data[..n])
    }

    /// Records `taken`, rewritten by [`Self::units_run`]'s kernel, as
    /// converted; returns its length (0 where it has no whole unit).
    fn took_units(&mut self, alike: &Alike, taken: &[u8]) -> usize {
        let Some(last) = alike.from.last_value(alike.pair.as_ref(), taken) else { return 0 };
        self.last = Some(u64::from(last));
        self.context = self.from.context_after(u64::from(last));
        self.offset += taken.len() as u64;
        taken.len()
    }

    /// Where the last chunk's run of wide units ended before the first unit
    /// of a pair (held back, the chunk's last) and `chunk` starts with a unit
    /// that completes it, rewrites the two by the same kernel
    /// ([`Self::units_run`]), as a run over both chunks would have; returns
    /// the rest of `chunk` (all of it where the kernel does not take the two:
    /// the per-value path then decides).
    pub(super) fn pending_pair<'c>(&mut self, chunk: &'c [u8], out: &mut Vec<u8>) -> &'c [u8] {
        let Some(alike) = self.facts.and_then(|f| f.alike).filter(|a| a.pair.is_some()) else { return chunk };
        let b = alike.from.bytes;
        let (Some(isa), Some(second)) = (crate::simd::Isa::detect(), chunk.get(..b)) else { return chunk };
        if self.pending.len() != b || self.context != 0 {
            return chunk;
        }
        let mut both = [0; 8];
        both[..b].copy_from_slice(&self.pending);
        both[b..2 * b].copy_from_slice(second);
        let both = &both[..2 * b];
        let taken = crate::simd::convert_units(isa, &alike.from, alike.pair.as_ref(), &alike.to, both, out);
        if taken != both.len() || self.took_units(&alike, both) == 0 {
            return chunk;
        }
        self.pending.clear();
        self.open = false;
        &chunk[b..]
    }

    /// The source's wide runs, none for a codec with rules across values.
    fn wide_runs(&self) -> WideRuns {
        self.facts().wide_runs
    }

    /// The codecs' facts the bulk paths read, as [`Self::bulk_item`] keeps
    /// them.
    fn facts(&self) -> BulkFacts {
        self.facts.unwrap_or_else(|| BulkFacts::of(self.from, self.to))
    }

    /// Writes the values in hand, which are those of the first `took` units
    /// of `block`, with the target's bulk encoder; returns the units of the
    /// values the target took, up to the first one it refused (found again
    /// by stepping, and left to the per-value path).
    fn encode_values(&mut self, block: &[u8], mut took: usize, out: &mut Vec<u8>) -> usize {
        // Between a signed and an unsigned codec, a 64-bit view with its top
        // bit set is refused: the block stops before the first one.
        // (An OR of them all first: a loop the compiler vectorizes, where
        // the search's early exit is a value at a time.)
        let any = |values: &[u64]| values.iter().fold(0, |all, &v| all | v) >> 63 == 1;
        let negative =
            if self.mixed_sign && any(&self.values) { self.values.iter().position(|&v| (v as i64) < 0) } else { None };
        self.values.truncate(negative.unwrap_or(self.values.len()));
        let to = self.to;
        let kernel = self.values_kernel.get_or_insert_with(|| ValuesKernel::of(to));
        let encoded = match kernel {
            Some(kernel) => {
                let plain = |values: &[u64], out: &mut Vec<u8>| kernel.encode(to, values, out);
                crate::encode_around_rules(to, self.last, &self.values, out, plain)
            }
            None => to.encode_block(self.last, &self.values, out),
        };
        let encoded = match encoded.and_then(|()| negative.map_or(Ok(()), Err)) {
            Ok(()) => {
                self.block = (self.block * 2).min(BLOCK);
                self.values.len()
            }
            Err(refused) => {
                self.block = (self.block / 4).max(4 * MIN_BULK);
                took = self.units_of(block, refused);
                refused
            }
        };
        if let Some(&last) = self.values[..encoded].last() {
            self.last = Some(last);
            self.context = self.from.context_after(last);
        }
        self.offset += took as u64;
        took
    }

    /// The units of the first `count` values of `data`, stepped from context 0.
    fn units_of(&self, data: &[u8], count: usize) -> usize {
        let (mut pos, mut context) = (0, 0);
        for _ in 0..count {
            match self.from.step_open(Strategy::Table, context, &data[pos..]) {
                Step::Value { value, len } => {
                    context = self.from.context_after(value);
                    pos += len;
                }
                // Not reached: `decode_block` takes its values from whole
                // valid sequences, as stepping does.
                _ => break,
            }
        }
        pos
    }
}

/// The first `k`, a multiple of `step` from `step` on, where a run of `span`
/// units passes `prefix` (`prefix(&data[k..k + span]) == span`) and ends
/// before `data` does; `None` where there is none. `prefix` gives the length
/// of the passing run at the start of its slice, up to the first unit that
/// fails (or, for whole blocks of `step` units, the first block). After a
/// window fails at its `n`th unit, the next one tried starts past that unit,
/// so each unit is read about once: trying every `k` read a short run's units
/// up to `span / step` times.
fn first_run(data: &[u8], step: usize, span: usize, prefix: impl Fn(&[u8]) -> usize) -> Option<usize> {
    let mut k = step;
    while k + span < data.len() {
        let n = prefix(&data[k..k + span]);
        if n == span {
            return Some(k);
        }
        k = (k + n) / step * step + step;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::first_run;

    /// [`first_run`] against trying every `k`, on runs of every length at
    /// every offset.
    #[test]
    fn the_first_run_is_that_of_trying_every_start() {
        let prefix = |w: &[u8]| w.iter().position(|&b| b != 0).unwrap_or(w.len());
        let blocks = |w: &[u8]| prefix(w) / 4 * 4;
        let mut state = 0x2545_f491_u32;
        for round in 0..2000 {
            let len = 8 + round % 120;
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    u8::from(state.is_multiple_of(2 + round as u32 % 40))
                })
                .collect();
            for (step, span) in [(1, 3), (4, 8), (4, 16), (2, 6)] {
                let every = |p: &dyn Fn(&[u8]) -> usize| {
                    (step..data.len().saturating_sub(span)).step_by(step).find(|&k| p(&data[k..k + span]) == span)
                };
                assert_eq!(first_run(&data, step, span, prefix), every(&prefix), "{data:?} {step} {span}");
                assert_eq!(first_run(&data, step, span, blocks), every(&blocks), "{data:?} {step} {span}");
            }
        }
    }
}
