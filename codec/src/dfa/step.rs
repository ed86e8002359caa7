//! The one step function of [`Dfa`] and the step-by-step reading built on
//! it: [`Dfa::step_with`] walks the table for one sequence (with
//! [`Dfa::step_longest`], its longest-match form, for a codec with pending
//! values), [`Dfa::steps`] reads on one sequence at a time, and
//! [`Dfa::rescued`] hands the input to it where the bulk walks (the `lockstep`
//! driver) stop.

use alloc::vec::Vec;

use super::{accumulate, dead_end, lockstep, pending_fields, Dfa, BIAS_SHIFT, BITS_SHIFT, DEAD, STATE_MASK};
use crate::{DecodeError, Step, Value};

/// Units a codec with pending values reads step by step after the bulk
/// walks stop, before they go on ([`Parts::pending`]).
const RESCUE: usize = 256;

/// How long [`Dfa`]'s step-by-step reading goes on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Resume {
    /// To the end of the input or the first error.
    Never,
    /// As `Never`, with more input to follow: a pending value at the end is
    /// unfinished.
    Open,
    /// Until this many units are read and the reading is at the start of
    /// context 0, where the bulk walks go on.
    After(usize),
}

/// The step for a sequence of `len` units whose value is `value` (`None`:
/// it does not fit the value type, so the whole sequence is invalid).
#[inline(always)]
pub(super) fn finished<V>(value: Option<V>, len: usize) -> Step<V> {
    match value {
        Some(value) => Step::Value { value, len },
        None => Step::Invalid { len },
    }
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> Dfa<T, B> {
    /// [`Dfa::step_from`], with the end of `input` the end of the input
    /// unless `open`.
    #[inline]
    pub(super) fn step_from_open<V: Value>(&self, from: usize, input: &[u8], open: bool) -> (Step<V>, usize) {
        if self.places.is_some() {
            return self.walk::<accumulate::Wrapping<V, accumulate::Place>>(from, input, open);
        }
        if self.radices.is_some() {
            return self.walk::<accumulate::Wrapping<V, accumulate::Multiply>>(from, input, open);
        }
        self.walk::<accumulate::Wrapping<V, accumulate::Shift>>(from, input, open)
    }

    /// The step function for accumulator `A`: longest match where the codec
    /// has pending values, else the plain walk.
    #[inline(always)]
    pub(super) fn walk<A: accumulate::Accumulator>(
        &self,
        from: usize,
        input: &[u8],
        open: bool,
    ) -> (Step<A::Out>, usize) {
        if self.has_pending() {
            self.step_longest::<A>(from, input, open)
        } else {
            self.step_with::<A>(from, input)
        }
    }

    /// One unit `b` through the table from `state`: its payload (and its
    /// transition's place or radix, if `A` reads one) to `acc`; returns the
    /// transition entry.
    #[inline(always)]
    fn take_unit<A: accumulate::Accumulator>(&self, acc: &mut A, state: usize, b: u8) -> u32 {
        let at = state + self.classes[b as usize] as usize;
        let e = self.trans.as_ref()[at];
        let word = if A::READS_WORD {
            let words = self.places.as_ref().or(self.radices.as_ref()).map_or(&[][..], |p| p.as_ref());
            words.get(at).copied().unwrap_or(0)
        } else {
            0
        };
        acc.take((e >> BITS_SHIFT) & 0xF, self.digits[b as usize], word);
        e
    }

    /// The one step function: walks the table from start state `from`,
    /// handing each unit's payload (and its transition's place or radix, if
    /// `A` reads one) to the accumulator `A`; returns the step and the state
    /// it ends in (the boundary reached, after a value).
    #[inline(always)]
    fn step_with<A: accumulate::Accumulator>(&self, from: usize, input: &[u8]) -> (Step<A::Out>, usize) {
        let mut state = from;
        let mut acc = A::default();
        for (i, &b) in input.iter().enumerate() {
            let e = self.take_unit(&mut acc, state, b);
            state = (e & STATE_MASK) as usize;
            if self.is_boundary(state) {
                let bias = self.biases.as_ref()[(e >> BIAS_SHIFT) as usize];
                return (finished(acc.finish(bias), i + 1), state);
            }
            if state == DEAD {
                // The maximal subpart: the units before this one, or this one
                // alone, in whole code units.
                return (dead_end(i, usize::from(self.facts.unit_bytes), input.len()), DEAD);
            }
        }
        (Step::Incomplete, state)
    }

    /// [`Dfa::step_with`] with longest match ([`Parts::pending`]): notes the
    /// value each pending state stands for when the walk enters it, and at
    /// the dead state or the end of the input (unless `open`) returns the
    /// last one noted, ending in the start state of the context it leaves.
    #[inline(never)]
    fn step_longest<A: accumulate::Accumulator>(&self, from: usize, input: &[u8], open: bool) -> (Step<A::Out>, usize) {
        let (pending, biases) = (self.pending.as_ref(), self.biases.as_ref());
        let mut state = from;
        let mut acc = A::default();
        let mut noted: Option<(Step<A::Out>, usize)> = None;
        for (i, &b) in input.iter().enumerate() {
            let e = self.take_unit(&mut acc, state, b);
            state = (e & STATE_MASK) as usize;
            if self.is_boundary(state) {
                return (finished(acc.finish(biases[(e >> BIAS_SHIFT) as usize]), i + 1), state);
            }
            if state == DEAD {
                return noted.unwrap_or_else(|| (dead_end(i, usize::from(self.facts.unit_bytes), input.len()), DEAD));
            }
            match pending.get(state / self.stride).copied().unwrap_or(0) {
                0 => {}
                entry => {
                    let (to, bias, back) = pending_fields(entry);
                    if back == 0 {
                        let value = acc.peek(biases.get(bias).copied().unwrap_or(0));
                        noted = Some((finished(value, i + 1), self.start_of(to)));
                    }
                }
            }
        }
        match noted {
            Some(step) if !open => step,
            _ => (Step::Incomplete, state),
        }
    }

    /// Runs the bulk walks `fast` over `input`, appending values to `out` if
    /// there is one. Where they stop ([`lockstep::Stop`]), the values after
    /// the stop are dropped and the input is read step by step from there:
    /// to the first error, or to the end for a codec without pending values
    /// (the walks stop only on errors); for one with them (the walks also stop
    /// where a pending value is taken, which they do not know about), for
    /// [`RESCUE`] units past the stop and on to a boundary in context 0,
    /// where the walks go on. Each round moves at least [`RESCUE`] units on.
    pub(super) fn rescued<V: Value>(
        &self,
        input: &[u8],
        mut out: Option<&mut Vec<V>>,
        mut fast: impl FnMut(&[u8], Option<&mut Vec<V>>) -> Result<(), lockstep::Stop>,
    ) -> Result<(), DecodeError> {
        if !self.has_pending() {
            // The walks stop only on errors: one round.
            let Err(stop) = fast(input, out.as_deref_mut()) else { return Ok(()) };
            if let Some(out) = out.as_deref_mut() {
                out.truncate(stop.values);
            }
            return self.steps(self.stride, input, stop.at, Resume::Never, out).0.map(drop);
        }
        let mut pos = 0;
        while pos < input.len() {
            let Err(stop) = fast(&input[pos..], out.as_deref_mut()) else { return Ok(()) };
            if let Some(out) = out.as_deref_mut() {
                out.truncate(stop.values);
            }
            pos = self.steps(self.stride, input, pos + stop.at, Resume::After(RESCUE), out.as_deref_mut()).0?;
        }
        Ok(())
    }

    /// Reads `input` one step at a time from unit `pos`, starting in start
    /// state `state`, appending values to `out` if there is one: until the
    /// end of the input, the first error, or where `resume` says the bulk
    /// walks may go on. Returns where it stopped (or the error) and the
    /// start state there.
    pub(super) fn steps<V: Value>(
        &self,
        mut state: usize,
        input: &[u8],
        mut pos: usize,
        resume: Resume,
        mut out: Option<&mut Vec<V>>,
    ) -> (Result<usize, DecodeError>, usize) {
        let until = match resume {
            Resume::After(n) => pos.saturating_add(n),
            Resume::Never | Resume::Open => usize::MAX,
        };
        while pos < input.len() && (pos < until || state != self.stride) {
            let (step, end) = self.step_from_open::<V>(state, &input[pos..], resume == Resume::Open);
            match step {
                Step::Value { len, value } => {
                    if let Some(out) = out.as_deref_mut() {
                        out.push(value);
                    }
                    pos += len;
                }
                Step::Invalid { len } => return (Err(DecodeError::new(pos, Some(len))), state),
                Step::Incomplete => return (Err(DecodeError::new(pos, None)), state),
            }
            state = end;
        }
        (Ok(pos), state)
    }

    /// Validates `input` read in `context` ([`crate::Decoder::step_in`]);
    /// returns the verdict and the context at the end of the valid prefix
    /// (where the next chunk of a stream goes on). Without rules across
    /// values or pending values this is [`Dfa::validate`]; with them, a walk
    /// step by step.
    pub fn validate_in(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        if self.contexts() == 1 && !self.has_pending() {
            return (self.validate(input), 0);
        }
        let (result, state) = self.steps(self.start_of(context), input, 0, Resume::Never, None::<&mut Vec<u64>>);
        (result.map(drop), self.context_of(state))
    }

    /// [`Dfa::validate_in`] where more input may follow `input` (a chunk of a
    /// stream): a pending value at the end that more input could replace by
    /// a longer one ([`Parts::pending`](super::Parts::pending)) is an unfinished sequence
    /// (`error_len` `None`), as for [`Dfa::step_open`]. The same as
    /// [`Dfa::validate_in`] for a codec whose forms do not overlap.
    pub fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        if !self.has_pending() {
            return self.validate_in(context, input);
        }
        let (result, state) = self.steps(self.start_of(context), input, 0, Resume::Open, None::<&mut Vec<u64>>);
        (result.map(drop), self.context_of(state))
    }
}
