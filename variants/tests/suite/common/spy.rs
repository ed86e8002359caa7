//! A codec that forwards every operation to another and tells a [`Watch`]
//! what the transcoder asked of it: the tests that count steps, values and
//! cut blocks (`chunk_ends.rs`, `transcode_bulk.rs`) wrap codecs in it.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use placemat_codec::{AsciiRuns, CodecInfo, DecodeError, DynCodec, EncodeError, Step, Strategy};

/// What a [`Spy`] reports; each report does nothing unless a watch says.
pub trait Watch: Send + Sync {
    /// One step of any kind (at the start, in a context, open).
    fn step(&self) {}
    /// Values given to the encoder: one by one, or a block.
    fn encoded(&self, _values: usize) {}
    /// A block given to the bulk decoder: its units, those taken and the
    /// values made.
    fn decoded(&self, _units: usize, _took: usize, _values: usize) {}
}

/// A codec (`.0`), watched by `.1`.
pub struct Spy<'a, W>(pub &'a dyn DynCodec, pub W);

/// Counts into one number: the values encoded and decoded.
pub struct Values(pub AtomicUsize);

/// A codec whose values encoded and decoded are counted.
pub type Counting<'a> = Spy<'a, Values>;

/// `codec`, its values counted from 0.
pub fn counting(codec: &dyn DynCodec) -> Counting<'_> {
    Spy(codec, Values(AtomicUsize::new(0)))
}

impl Counting<'_> {
    /// The values counted so far.
    pub fn count(&self) -> usize {
        self.1 .0.load(Relaxed)
    }
    /// Counts from 0 again.
    pub fn reset(&self) {
        self.1 .0.store(0, Relaxed);
    }
}

/// `codec`, its steps and cut blocks counted from 0.
pub fn watched(codec: &dyn DynCodec) -> Spy<'_, Steps> {
    Spy(codec, Steps::default())
}

impl Watch for Values {
    fn encoded(&self, values: usize) {
        self.0.fetch_add(values, Relaxed);
    }
    fn decoded(&self, _: usize, _: usize, values: usize) {
        self.0.fetch_add(values, Relaxed);
    }
}

/// Counts single steps, and blocks the bulk decoder did not take whole.
#[derive(Default)]
pub struct Steps {
    pub steps: AtomicUsize,
    pub cut_blocks: AtomicUsize,
}

impl Watch for Steps {
    fn step(&self) {
        self.steps.fetch_add(1, Relaxed);
    }
    fn decoded(&self, units: usize, took: usize, _: usize) {
        if took < units {
            self.cut_blocks.fetch_add(1, Relaxed);
        }
    }
}

impl<W: Watch> DynCodec for Spy<'_, W> {
    fn dyn_info(&self) -> &CodecInfo {
        self.0.info()
    }
    fn description(&self) -> &str {
        self.0.description()
    }
    fn dyn_dfa(&self) -> placemat_codec::dfa::Dfa<&[u32], &[u64]> {
        self.0.dfa()
    }
    fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.1.encoded(1);
        self.0.encode_push(value, out)
    }
    fn dyn_step(&self, strategy: Strategy, input: &[u8]) -> Step<u64> {
        self.1.step();
        self.0.step(strategy, input)
    }
    fn dyn_step_in(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        self.1.step();
        self.0.step_in(strategy, context, input)
    }
    fn dyn_step_open(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        self.1.step();
        self.0.step_open(strategy, context, input)
    }
    fn dyn_context_after(&self, value: u64) -> usize {
        self.0.context_after(value)
    }
    fn dyn_forbids(&self, before: u64, value: u64) -> bool {
        self.0.forbids(before, value)
    }
    fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        self.0.validate_open(context, input)
    }
    fn ascii_runs(&self) -> AsciiRuns {
        self.0.ascii_runs()
    }
    fn premapped(&self) -> bool {
        self.0.premapped()
    }
    fn encode_block(&self, before: Option<u64>, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        self.1.encoded(values.len());
        self.0.encode_block(before, values, out)
    }
    fn decode_block(&self, input: &[u8], out: &mut Vec<u64>) -> usize {
        let (before, took) = (out.len(), self.0.decode_block(input, out));
        self.1.decoded(input.len(), took, out.len() - before);
        took
    }
}
