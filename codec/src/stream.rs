//! Streaming decoding: input arrives in chunks, items come out with offsets in the
//! stream's coordinates, and any split of the input gives the items of the whole.
//!
//! ```
//! use placemat_codec::{Decoder, Item, ItemError, Step, StreamDecoder};
//!
//! /// A toy codec: `0x01 x` is a two-unit value `x`; anything else is invalid.
//! struct Pairs;
//! impl Decoder for Pairs {
//!     type Value = u32;
//!     fn step(&self, input: &[u8]) -> Step<u32> {
//!         match input {
//!             [] | [1] => Step::Incomplete,
//!             [1, x, ..] => Step::Value { value: (*x).into(), len: 2 },
//!             _ => Step::Invalid { len: 1 },
//!         }
//!     }
//! }
//!
//! let mut stream = StreamDecoder::new(Pairs);
//! let mut items = Vec::new();
//! stream.push(&[1], |item| items.push(item));   // nothing yet: the pair is open
//! stream.push(&[7, 9, 1], |item| items.push(item));
//! stream.finish(|item| items.push(item));
//! assert_eq!(items, [
//!     Item { span: 0..2, value: Ok(7) },
//!     Item { span: 2..3, value: Err(ItemError::Invalid) },
//!     Item { span: 3..4, value: Err(ItemError::Incomplete) },
//! ]);
//! ```

use alloc::vec::Vec;

use crate::{Decoder, Item, ItemError, Step};

/// A decoder that carries an open sequence across chunk boundaries.
///
/// The only state kept between chunks is the units of the one sequence that is still
/// open (at most the codec's longest sequence) and the stream offset.
#[derive(Clone, Debug)]
pub struct StreamDecoder<D> {
    decoder: D,
    pending: Vec<u8>,
    offset: usize,
    /// The context after the last item ([`Decoder::context_after`]).
    context: usize,
}

impl<D: Decoder> StreamDecoder<D> {
    /// A stream decoder at offset 0.
    pub fn new(decoder: D) -> Self {
        StreamDecoder { decoder, pending: Vec::new(), offset: 0, context: 0 }
    }

    /// The strategy this stream runs.
    pub fn decoder(&self) -> &D {
        &self.decoder
    }

    /// Units consumed so far that belong to complete items.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Units held back because they may start a sequence the next chunk completes.
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    fn emit(&mut self, step: Step<D::Value>, sink: &mut impl FnMut(Item<D::Value>)) -> usize {
        let (len, value) = match step {
            Step::Value { value, len } => {
                self.context = self.decoder.context_after(&value);
                (len, Ok(value))
            }
            Step::Invalid { len } => {
                self.context = 0;
                (len, Err(ItemError::Invalid))
            }
            Step::Incomplete => unreachable!("incomplete steps are held back"),
        };
        sink(Item { span: self.offset..self.offset + len, value });
        self.offset += len;
        len
    }

    /// Decodes `chunk`, calling `sink` for every item that is complete.
    pub fn push(&mut self, mut chunk: &[u8], mut sink: impl FnMut(Item<D::Value>)) {
        // First finish the sequence left open by the previous chunk, feeding it one
        // unit at a time: it is short, and the step never looks past its end.
        while !self.pending.is_empty() {
            let Some((&b, rest)) = chunk.split_first() else {
                return;
            };
            self.pending.push(b);
            chunk = rest;
            let step = self.decoder.step_open(self.context, &self.pending);
            if step == Step::Incomplete {
                continue;
            }
            let len = self.emit(step, &mut sink);
            // Units the item did not consume are decoded again from the start.
            let mut held = core::mem::take(&mut self.pending);
            held.drain(..len);
            self.run(&held, &mut sink);
        }
        self.run(chunk, &mut sink);
    }

    /// Decodes `chunk` with nothing pending, holding back an open tail.
    fn run(&mut self, chunk: &[u8], sink: &mut impl FnMut(Item<D::Value>)) {
        let mut pos = 0;
        while pos < chunk.len() {
            let step = self.decoder.step_open(self.context, &chunk[pos..]);
            if step == Step::Incomplete {
                self.pending.extend_from_slice(&chunk[pos..]);
                return;
            }
            pos += self.emit(step, sink);
        }
    }

    /// Ends the stream: the units held back are read as the end of the
    /// input ([`Decoder::step_in`]; a whole sequence that only more input
    /// could have lengthened is a value), and a sequence still open is
    /// reported as [`ItemError::Incomplete`].
    pub fn finish(mut self, mut sink: impl FnMut(Item<D::Value>)) -> usize {
        let held = core::mem::take(&mut self.pending);
        let mut pos = 0;
        while pos < held.len() {
            let step = self.decoder.step_in(self.context, &held[pos..]);
            if step == Step::Incomplete {
                let len = held.len() - pos;
                sink(Item { span: self.offset..self.offset + len, value: Err(ItemError::Incomplete) });
                self.offset += len;
                break;
            }
            pos += self.emit(step, &mut sink);
        }
        self.offset
    }
}
