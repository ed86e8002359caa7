//! The [`Transcoder`]: chunks of one codec's units in, another's out, with a
//! sequence left open at a chunk's end held back for the next.
//!
//! Clean stretches go through in blocks: the source's bulk decoder
//! ([`DynCodec::decode_block`], SIMD where the codec has it) fills a block of
//! values up to a cut, and the target's bulk encoder
//! ([`DynCodec::encode_block`]) writes them, or, into the UTF-8 family and
//! UTF-16 on a machine with AVX2 or AVX-512, a kernel from code units with
//! the values as UTF-32 (`values_kernel.rs`); a source of pair forms
//! (CESU-8, modified UTF-8) fills its blocks through its 16-bit units
//! (`pair_units.rs`, [`Transcoder::pair_blocks`]); from a source the SIMD decoding
//! kernel reads to a target of wide code units and back, a valid block goes
//! in one pass, without values (`fused.rs`). The per-value path takes over
//! for what the blocks leave: an invalid or unencodable item (so that errors
//! and replacements are exactly those of one value at a time), a sequence
//! cut by the chunk's end, a context other than 0, and codecs without bulk
//! operations.

use std::fmt;

mod blocks;
mod paths;

pub(super) use self::blocks::Alike;
use super::fused::Fused;
use super::pair_units::PairUnits;
use super::values_kernel::ValuesKernel;
use super::{ErrorMode, TranscodeError, TranscodeErrorKind, DEFAULT_MAX_SEQUENCE, REPLACEMENT};
use crate::dfa::DEAD;
use crate::{DynCodec, Step, Strategy};

/// The transcoding engine without I/O: push chunks of source units, collect target
/// units.
///
/// ```
/// use placemat_codec::io::{ErrorMode, Transcoder};
/// # use placemat_codec::{dfa::Dfa, CodecInfo, DynCodec, EncodeError, Step, Strategy, Unit};
/// # /// A toy codec: `01 x` is the value `x`, anything else is invalid.
/// # struct Pairs(CodecInfo);
/// # impl DynCodec for Pairs {
/// #     fn dyn_info(&self) -> &CodecInfo { &self.0 }
/// #     fn description(&self) -> &str { "" }
/// #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
/// #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
/// #         let b = u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?;
/// #         out.extend_from_slice(&[1, b]);
/// #         Ok(())
/// #     }
/// #     fn dyn_step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
/// #         match input {
/// #             [] | [1] => Step::Incomplete,
/// #             [1, x, ..] => Step::Value { value: (*x).into(), len: 2 },
/// #             _ => Step::Invalid { len: 1 },
/// #         }
/// #     }
/// # }
/// # let pairs = Pairs(CodecInfo::new("pairs", "", Unit::Byte, 32, 0, 0xFF, &[], Some(2)));
/// let mut t = Transcoder::new(&pairs, &pairs, ErrorMode::Strict).unwrap();
/// let mut out = Vec::new();
/// t.push(&[1], &mut out).unwrap(); // the pair is still open
/// assert!(out.is_empty());
/// t.push(&[7, 1, 9], &mut out).unwrap();
/// t.finish(&mut out).unwrap();
/// assert_eq!(out, [1, 7, 1, 9]);
/// assert_eq!(t.offset(), 4);
/// ```
pub struct Transcoder<'a> {
    from: &'a dyn DynCodec,
    to: &'a dyn DynCodec,
    mode: ErrorMode,
    /// The target's encoding of U+FFFD (empty in strict mode).
    replacement: Vec<u8>,
    /// Units of the sequence still open at the end of the last chunk.
    pending: Vec<u8>,
    /// Whether `pending` is a sequence still open (its end not yet seen).
    open: bool,
    /// For a source without a length limit, the state of its table walk
    /// after `pending`, so that a long sequence arriving over many chunks is
    /// walked once, not once per chunk.
    pending_state: usize,
    /// The longest sequence accepted, in units.
    max_sequence: usize,
    /// Where `pending` is moved while it is decoded (kept to reuse its memory).
    scratch: Vec<u8>,
    /// Stream offset of the first unit not yet decoded (the first pending unit).
    offset: u64,
    /// The error that stopped a strict transcoding; every later call repeats it.
    pub(super) failed: Option<TranscodeError>,
    /// The source's context after the last item ([`DynCodec::context_after`]).
    context: usize,
    /// The last value written to the target, for its rules across values
    /// ([`DynCodec::forbids`]); `None` at the start, after a replacement,
    /// and after a copied block (whose codec has no such rules).
    last: Option<u64>,
    /// The values of the block in hand (kept to reuse its memory).
    values: Vec<u64>,
    /// Units the next block may take: [`BLOCK`], less after blocks that the
    /// target refused early, so that a source the target mostly refuses costs
    /// a bounded factor more than stepping.
    block: usize,
    /// Whether the runs and blocks are taken ([`Transcoder::one_value_at_a_time`]).
    bulk: bool,
    /// Units to step before the bulk path is tried again after it took
    /// nothing ([`RETRY`]).
    retry: usize,
    /// The one-pass path for this pair of codecs, looked up at the first
    /// block (`None` until then).
    fused: Option<Option<Fused>>,
    /// The kernel that writes blocks of values into the target, looked up at
    /// the first block of values (`None` until then).
    values_kernel: Option<Option<ValuesKernel>>,
    /// The kernels that decode a source of pair forms into blocks of values
    /// (`pair_units.rs`), looked up at the first block of values (`None`
    /// until then).
    pair_values: Option<Option<Box<PairUnits>>>,
    /// Scratch memory for the 32-bit units those kernels join pairs into.
    wide: Vec<u8>,
    /// Units the one-pass path took since the last block of values.
    copied: usize,
    /// Scratch memory for the 16-bit units of the path into pair forms
    /// (`pair_path.rs`).
    units: Vec<u8>,
    /// What is left of a block through 16-bit units that the chunk's end
    /// cut: the next chunk goes on with it, as one big chunk would.
    apart_left: usize,
    /// Whether one codec is signed and the other not: a 64-bit view with its
    /// top bit set (a negative value, or an unsigned one past 2^63 − 1) then
    /// means different values in the two, and is refused.
    mixed_sign: bool,
    /// What the bulk paths read of the two codecs' tables at every block,
    /// read at the first ([`DynCodec::dfa`] copies the tables).
    facts: Option<BulkFacts>,
}

/// The facts of the two codecs' tables that the bulk paths read at every block.
#[derive(Copy, Clone)]
pub(super) struct BulkFacts {
    /// The source's runs of wide code units ([`WideRuns::NONE`] for a codec
    /// with rules across values).
    pub(super) wide_runs: crate::WideRuns,
    /// Whether a SIMD kernel decodes the source's blocks, ASCII as fast as
    /// the runs move it: the UTF-8 family's decoding kernel, an integer
    /// codec's fact, or the wide units' kernel for a source of pairs
    /// ([`crate::decode_to_cut`]).
    pub(super) fast: bool,
    /// The source's SIMD tables, which tell continuation units from leads.
    pub(super) simd: Option<crate::simd::Tables>,
    /// Between two codecs of wide code units, what runs of the source's
    /// units are rewritten unit for unit by ([`crate::simd::convert_units`]).
    pub(super) alike: Option<Alike>,
    /// The facts of the source's table, which tell where a sequence starts
    /// whatever follows ([`crate::dfa::Dfa::last_cut`]).
    pub(super) table: crate::dfa::Facts,
}

impl BulkFacts {
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Self {
        let dfa = from.dfa();
        let wide_runs = if dfa.contexts() > 1 { crate::WideRuns::NONE } else { dfa.facts().wide_runs };
        let info = from.info();
        let fact = info.flagged.is_some() || info.prefixed.is_some();
        // (A source of single units only takes them as wide runs, faster.)
        let wide = crate::wide::wide_source(info, &dfa).is_some_and(|(_, _, pair)| pair.is_some());
        let fast = dfa.decoding_shape().is_some() || fact && !info.unbounded || wide;
        let alike = Alike::of(from, wide_runs, &to.info().wide_forms);
        BulkFacts { wide_runs, fast, simd: dfa.simd().copied(), alike, table: *dfa.facts() }
    }
}

/// The most units the bulk path decodes at once.
const BLOCK: usize = 1 << 14;
/// The units the copy of runs read alike takes between two blocks of values
/// for the second to end after the cluster of sequences read apart that
/// starts it.
const LONG_COPY: usize = 256;
/// The fewest units left in a chunk for the bulk path to be tried.
const MIN_BULK: usize = 16;
/// Units stepped one at a time after a block that took nothing, before the
/// bulk path is tried again; twice as many after each further block that
/// took nothing (a source none of whose input the bulk paths take, such as
/// one of values past 64 bits, is then stepped at the per-value path's
/// speed), up to [`MAX_RETRY`].
const RETRY: usize = 64;
/// The most units stepped before the bulk path is tried again.
const MAX_RETRY: usize = 1 << 16;

impl fmt::Debug for Transcoder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transcoder")
            .field("from", &self.from.info().name)
            .field("to", &self.to.info().name)
            .field("mode", &self.mode)
            .field("offset", &self.offset)
            .field("pending", &self.pending)
            .finish()
    }
}

impl<'a> Transcoder<'a> {
    /// A transcoder from `from`'s units to `to`'s. In replace mode the target must
    /// be able to encode U+FFFD; if it cannot, the refusal is returned.
    pub fn new(from: &'a dyn DynCodec, to: &'a dyn DynCodec, mode: ErrorMode) -> Result<Self, crate::EncodeError> {
        let mut replacement = Vec::new();
        if mode == ErrorMode::Replace {
            to.encode_push(REPLACEMENT, &mut replacement)?;
        }
        Ok(Self::made(from, to, mode, replacement))
    }

    /// A new transcoder of the same codecs, mode, sequence limit and paths
    /// ([`one_value_at_a_time`](Transcoder::one_value_at_a_time),
    /// [`without_one_pass`](Transcoder::without_one_pass)), at the start of
    /// a stream: for another stream, or for a part of this one
    /// ([`at_rest`](Transcoder::at_rest)).
    pub fn fresh(&self) -> Self {
        let mut t = Self::made(self.from, self.to, self.mode, self.replacement.clone());
        t.max_sequence = self.max_sequence;
        t.bulk = self.bulk;
        if matches!(self.fused, Some(None)) {
            t.fused = Some(None);
        }
        t
    }

    /// The transcoder at the start of a stream, with the target's encoding
    /// of U+FFFD in hand (empty in strict mode).
    fn made(from: &'a dyn DynCodec, to: &'a dyn DynCodec, mode: ErrorMode, replacement: Vec<u8>) -> Self {
        // An open sequence is shorter than the longest one; with the unit that
        // completes it, it fits these buffers, which therefore never grow.
        let longest = from.info().max_units.unwrap_or(16) + 1;
        let mixed_sign = from.info().sign.is_some() != to.info().sign.is_some();
        Transcoder {
            from,
            to,
            mode,
            replacement,
            pending: Vec::with_capacity(longest),
            open: false,
            pending_state: 0,
            max_sequence: DEFAULT_MAX_SEQUENCE,
            scratch: Vec::with_capacity(longest),
            offset: 0,
            failed: None,
            context: 0,
            last: None,
            values: Vec::new(),
            block: BLOCK,
            bulk: true,
            retry: RETRY,
            fused: None,
            values_kernel: None,
            pair_values: None,
            wide: Vec::new(),
            copied: 0,
            units: Vec::new(),
            apart_left: 0,
            mixed_sign,
            facts: None,
        }
    }

    /// The same transcoder on the per-value path alone: no runs, no blocks.
    /// The output is the same; it is there to be compared and measured
    /// (`placemat bench A --to B`).
    pub fn one_value_at_a_time(mut self) -> Self {
        self.bulk = false;
        self
    }

    /// The same transcoder without the one-pass kernel (so on the blocks of
    /// values where it would run; [`Transcoder::one_pass`]). The output is
    /// the same; it is there to be compared and measured.
    pub fn without_one_pass(mut self) -> Self {
        self.fused = Some(None);
        self
    }

    /// The same transcoder accepting sequences of at most `units` units (see
    /// [`DEFAULT_MAX_SEQUENCE`]); a longer one is a [`TranscodeErrorKind::TooLong`]
    /// error, in both modes.
    pub fn with_max_sequence(mut self, units: usize) -> Self {
        self.set_max_sequence(units);
        self
    }

    /// Sets the longest sequence accepted (see [`Transcoder::with_max_sequence`]).
    pub fn set_max_sequence(&mut self, units: usize) {
        self.max_sequence = units;
    }

    /// The same transcoder counting offsets from `offset`: for the rest of
    /// a stream whose first `offset` units another transcoder takes, its
    /// errors then name offsets in the whole stream.
    pub fn with_offset(mut self, offset: u64) -> Self {
        self.offset = offset;
        self
    }

    /// Units decoded so far (the stream offset of the next unit to decode).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether what this transcoder writes for the rest of the input is what
    /// a new one would write for it (made [`with_offset`](Transcoder::with_offset)
    /// this one's [`offset`](Transcoder::offset)): it holds no units of an open
    /// sequence, its source is in no context of a rule across values, the
    /// last value it wrote is none after which the target's rules look at
    /// the next, and it has not failed. Where it is, the input may be cut
    /// there and the two parts converted apart (on two threads) and their
    /// outputs joined, as `placemat transcode` does with large files.
    ///
    /// ```
    /// use placemat_codec::io::{ErrorMode, Transcoder};
    /// # use placemat_codec::{dfa::Dfa, CodecInfo, DynCodec, EncodeError, Step, Strategy, Unit};
    /// # /// A toy codec: `01 x` is the value `x`, anything else is invalid.
    /// # struct Pairs(CodecInfo);
    /// # impl DynCodec for Pairs {
    /// #     fn dyn_info(&self) -> &CodecInfo { &self.0 }
    /// #     fn description(&self) -> &str { "" }
    /// #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
    /// #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    /// #         let b = u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?;
    /// #         out.extend_from_slice(&[1, b]);
    /// #         Ok(())
    /// #     }
    /// #     fn dyn_step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
    /// #         match input {
    /// #             [] | [1] => Step::Incomplete,
    /// #             [1, x, ..] => Step::Value { value: (*x).into(), len: 2 },
    /// #             _ => Step::Invalid { len: 1 },
    /// #         }
    /// #     }
    /// # }
    /// # let pairs = Pairs(CodecInfo::new("pairs", "", Unit::Byte, 32, 0, 0xFF, &[], Some(2)));
    /// let input = [1, 7, 1, 9];
    /// let mut whole = Transcoder::new(&pairs, &pairs, ErrorMode::Strict)?;
    /// let mut out = Vec::new();
    /// whole.push(&input[..2], &mut out)?;
    /// assert!(whole.at_rest());
    /// // The rest converted apart, by a new transcoder, and joined.
    /// let mut rest = whole.fresh().with_offset(whole.offset());
    /// rest.push(&input[2..], &mut out)?;
    /// rest.finish(&mut out)?;
    /// assert_eq!(out, input);
    /// // Half of a pair is held until the next chunk.
    /// whole.push(&input[2..3], &mut Vec::new())?;
    /// assert!(!whole.at_rest());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn at_rest(&self) -> bool {
        let looked_at = |v: u64| self.to.info().rules_look_after(v, v);
        self.failed.is_none()
            && self.pending.is_empty()
            && !self.open
            && self.context == 0
            && !self.last.is_some_and(looked_at)
    }

    /// Units held back because the next chunk may complete their sequence.
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    /// Bytes of memory the transcoder holds (its open sequence and replacement).
    pub fn buffer_capacity(&self) -> usize {
        self.pending.capacity() + self.scratch.capacity() + self.replacement.capacity()
    }

    /// The longest output one input unit can cause: a value's longest encoding
    /// (spread over its units, at least one) or one replacement.
    fn max_output_per_unit(&self) -> usize {
        self.to.info().max_units.unwrap_or(1).max(self.replacement.len()).max(1)
    }

    /// An output buffer that holds the transcoding of `units` input units.
    pub(super) fn output_buffer(&self, units: usize) -> Vec<u8> {
        Vec::with_capacity(units * self.max_output_per_unit())
    }

    /// Transcodes `chunk`, appending to `out`. On a strict-mode error, the output of
    /// everything before the bad sequence has been appended.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.bulk && !self.pending.is_empty() {
            chunk = self.pending_pair(chunk, out);
        }
        // A sequence left open by the previous chunk: walk on from where its walk
        // stopped. Decoding it may leave another open sequence (the units after a
        // broken one start again), hence the loop.
        while !self.pending.is_empty() {
            let ended;
            (chunk, ended) = self.extend_pending(chunk);
            if self.is_open() {
                return self.check_length();
            }
            // The open sequence has ended (completed or broken): decode it once
            // (moved out of `pending`, which then starts empty), then the units
            // after the item again from a sequence start.
            let mut held = std::mem::take(&mut self.scratch);
            held.clear();
            std::mem::swap(&mut held, &mut self.pending);
            self.open = false;
            let step = ended.unwrap_or_else(|| self.from.step_open(Strategy::Table, self.context, &held));
            let result = match step {
                Step::Incomplete => self.hold(&held),
                _ => self.item(step, &held, out).and_then(|len| self.run(&held[len..], out)),
            };
            self.scratch = held;
            result?;
        }
        self.run(chunk, out)
    }

    /// Whether the sequence in `pending` is still open.
    fn is_open(&self) -> bool {
        self.open
    }

    /// Adds units of `chunk` to `pending` until the open sequence ends (or the
    /// chunk does), and returns the rest of the chunk and, where it is
    /// known, the step of the ended sequence in `pending`. A source with a
    /// length limit has short open sequences ([`Self::end_pending`]). A
    /// source without one (unbounded values, or padding without a limit) may
    /// have a long one: its table walk goes on from where it stopped.
    fn extend_pending<'c>(&mut self, chunk: &'c [u8]) -> (&'c [u8], Option<Step<u64>>) {
        if let Some(longest) = self.from.info().max_units {
            return self.end_pending(longest, chunk);
        }
        // (Such a codec has no rules across values: one context.)
        let dfa = self.from.dfa();
        let (mut k, mut state) = (0, self.pending_state);
        while k < chunk.len() && !dfa.is_boundary(state) && state != DEAD {
            state = dfa.transition(state, chunk[k]).next;
            k += 1;
        }
        self.pending_state = state;
        self.open = !dfa.is_boundary(state) && state != DEAD;
        self.pending.extend_from_slice(&chunk[..k]);
        (&chunk[k..], None)
    }

    /// [`Self::extend_pending`] for a source of sequences of at most
    /// `longest` units: one step over the units that can end the open
    /// sequence (more, one at a time, only while it stays open), where it
    /// was stepped again at every unit. `pending` is then cut back to the
    /// item (a value's units; an invalid sequence's and the unit after
    /// them) and the chunk goes on after it: the units the step read past
    /// the item are read again from the chunk, so that what follows is
    /// what units that came one at a time would give.
    fn end_pending<'c>(&mut self, longest: usize, chunk: &'c [u8]) -> (&'c [u8], Option<Step<u64>>) {
        let before = self.pending.len();
        if !self.open || chunk.is_empty() {
            return (chunk, None);
        }
        let mut take = longest.saturating_sub(before).clamp(1, chunk.len());
        let mut step;
        loop {
            let given = self.pending.len() - before;
            self.pending.extend_from_slice(&chunk[given..take]);
            step = self.from.step_open(Strategy::Table, self.context, &self.pending);
            if step != Step::Incomplete || take == chunk.len() {
                break;
            }
            take += 1;
        }
        let decided = match step {
            Step::Incomplete => self.pending.len(),
            Step::Value { len, .. } => len,
            Step::Invalid { len } => len + 1,
        }
        .clamp(before + 1, self.pending.len());
        self.pending.truncate(decided);
        self.open = step == Step::Incomplete;
        (&chunk[decided - before..], (!self.open).then_some(step))
    }

    /// A [`TranscodeErrorKind::TooLong`] error if the open sequence is longer
    /// than the limit.
    fn check_length(&mut self) -> Result<(), TranscodeError> {
        if self.pending.len() <= self.max_sequence {
            return Ok(());
        }
        let e = TranscodeError { offset: self.offset, kind: TranscodeErrorKind::TooLong { limit: self.max_sequence } };
        self.failed = Some(e.clone());
        Err(e)
    }

    /// Holds `tail` (an open sequence) back for the next chunk, with the state
    /// its walk ends in.
    fn hold(&mut self, tail: &[u8]) -> Result<(), TranscodeError> {
        if self.from.info().max_units.is_none() {
            let dfa = self.from.dfa();
            self.pending_state = tail.iter().fold(dfa.start(), |state, &u| dfa.transition(state, u).next);
        }
        self.open = true;
        self.pending.extend_from_slice(tail);
        self.check_length()
    }

    /// Decodes `data` with nothing pending, keeping an open tail in `pending`:
    /// in blocks while they take something, else one item at a time.
    fn run(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        let (mut pos, mut bulk_at) = (0, 0);
        while pos < data.len() {
            if self.bulk && pos >= bulk_at && self.context == 0 && data.len() - pos >= MIN_BULK {
                let took = self.bulk_item(&data[pos..], out);
                pos += took;
                self.retry = match took {
                    0 => {
                        bulk_at = pos + self.retry;
                        (2 * self.retry).min(MAX_RETRY)
                    }
                    _ => RETRY,
                };
                continue;
            }
            let step = self.from.step_open(Strategy::Table, self.context, &data[pos..]);
            if step == Step::Incomplete {
                return self.hold(&data[pos..]);
            }
            pos += self.item(step, &data[pos..], out)?;
        }
        Ok(())
    }

    /// Handles one complete item at the start of `data`; returns its length.
    fn item(&mut self, step: Step<u64>, data: &[u8], out: &mut Vec<u8>) -> Result<usize, TranscodeError> {
        let context = self.context;
        self.context = 0;
        let (len, problem) = match step {
            Step::Value { value, len } => {
                self.context = self.from.context_after(value);
                match self.last.filter(|&before| self.to.forbids(before, value)) {
                    Some(before) => (len, Some(TranscodeErrorKind::ForbiddenAfter { before, value })),
                    None if self.mixed_sign && (value as i64) < 0 => {
                        (len, Some(TranscodeErrorKind::Unencodable { value }))
                    }
                    None => match self.to.encode_push(value, out) {
                        Ok(()) => {
                            self.last = Some(value);
                            (len, None)
                        }
                        Err(_) => (len, Some(TranscodeErrorKind::Unencodable { value })),
                    },
                }
            }
            // An unbounded source reports values above 64 bits as invalid in its
            // 64-bit view; decode those exactly and hand them on whole.
            #[cfg(feature = "big")]
            Step::Invalid { len } if self.from.info().unbounded && self.big_value(&data[..len]).is_some() => {
                let value = self.big_value(&data[..len]).unwrap_or_default();
                match self.to.encode_bigint(&value, out) {
                    Ok(()) => {
                        // No rule across values reaches past 64 bits (`forbid`
                        // needs bounded values): nothing is adjacent to it.
                        self.last = None;
                        (len, None)
                    }
                    Err(_) => (len, Some(TranscodeErrorKind::UnencodableBig { hex: format!("{value:X}") })),
                }
            }
            Step::Invalid { len } => {
                // The maximal subpart, and the unit that ended it if a unit did
                // (rather than the subpart's own first unit starting nothing): the
                // units the decision rests on, whatever the chunking.
                let ended = self.from.step_in(Strategy::Table, context, &data[..len]) == Step::Incomplete;
                let found = data[..(len + usize::from(ended)).min(data.len())].to_vec();
                (len, Some(TranscodeErrorKind::Invalid { len, found }))
            }
            Step::Incomplete => unreachable!("incomplete steps are held back, never handled as items"),
        };
        if let Some(kind) = problem {
            self.problem(kind, out)?;
        }
        self.offset += len as u64;
        Ok(len)
    }

    /// The value of `units` if they are exactly one valid sequence (any size,
    /// either sign).
    #[cfg(feature = "big")]
    fn big_value(&self, units: &[u8]) -> Option<crate::big::BigInt> {
        match self.from.step_bigint(Strategy::Table, units) {
            Step::Value { value, len } if len == units.len() => Some(value),
            _ => None,
        }
    }

    /// Replaces, or fails with, a problem at the current offset.
    fn problem(&mut self, kind: TranscodeErrorKind, out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        match self.mode {
            ErrorMode::Replace => {
                out.extend_from_slice(&self.replacement);
                self.last = None;
                Ok(())
            }
            ErrorMode::Strict => {
                let e = TranscodeError { offset: self.offset, kind };
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Ends the stream: the units held back are read as the end of the input
    /// (a whole sequence that only more input could have lengthened is a
    /// value), and a sequence still open is a truncated tail (an error in
    /// strict mode, one U+FFFD in replace mode). Calling it again does
    /// nothing more.
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        // `pending` keeps its buffer: the caller's capacity stays as it was.
        let mut held = std::mem::take(&mut self.pending);
        self.open = false;
        let result = self.finish_held(&held, out);
        held.clear();
        self.pending = held;
        result
    }

    /// Transcodes the units held back at the end of the stream.
    fn finish_held(&mut self, held: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
        let mut pos = 0;
        while pos < held.len() {
            let step = self.from.step_in(Strategy::Table, self.context, &held[pos..]);
            if step == Step::Incomplete {
                let found = held[pos..].to_vec();
                let len = found.len() as u64;
                self.problem(TranscodeErrorKind::Incomplete { found }, out)?;
                self.offset += len;
                break;
            }
            pos += self.item(step, &held[pos..], out)?;
        }
        Ok(())
    }
}
