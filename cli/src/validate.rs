//! `placemat validate`: silent and exit 0 when the input is valid; otherwise the
//! message `decode` gives in strict mode, and exit 1. The input is read in
//! chunks of 64 KiB and validated chunk by chunk with the chosen strategy
//! (`placemat_codec::StreamValidator`); a sequence cut by a chunk's end is
//! carried into the next.

use placemat_codec::simd::Isa;
use placemat_codec::{validate_by_steps, DecodeError, DynCodec, Strategy, StreamValidator};

use super::decode::{decode_error, too_long};
use super::input;
use super::{CliError, CliResult};

const CHUNK: usize = 1 << 16;

/// Which validator runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ValidateStrategy {
    /// The fastest the codec and the machine have: SIMD, else the shift DFA.
    #[default]
    Auto,
    /// The SIMD validator (an error for a codec without one).
    Simd,
    /// The shift DFA, or the table walker where the codec has no shift rows.
    Table,
    /// The generated branching decoder, one sequence at a time.
    Branching,
}

/// A validator over a whole buffer read in a context (of the codec's rules
/// across values), with more input to follow if the flag says so: the verdict
/// and the context at the end of the valid prefix
/// (`placemat_codec::Dfa::validate_in` and `validate_open`).
pub(super) type Validator<'a> = Box<dyn Fn(usize, &[u8], bool) -> (Result<(), DecodeError>, usize) + 'a>;

/// The validator `strategy` names for `codec`, or why there is none.
pub(super) fn validator(codec: &dyn DynCodec, strategy: ValidateStrategy) -> Result<Validator<'_>, CliError> {
    Ok(match strategy {
        ValidateStrategy::Auto => Box::new(move |context, b, open| match open {
            true => codec.validate_open(context, b),
            false => codec.validate_in(context, b),
        }),
        ValidateStrategy::Table if codec.dfa().contexts() == 1 && !codec.dfa().has_pending() => {
            Box::new(move |_, b, _| (codec.dfa().validate_scalar(b), 0))
        }
        ValidateStrategy::Table => Box::new(move |context, b, open| match open {
            true => codec.dfa().validate_open(context, b),
            false => codec.dfa().validate_in(context, b),
        }),
        ValidateStrategy::Branching => {
            Box::new(move |context, b, open| validate_by_steps(codec, Strategy::Branching, context, b, open))
        }
        ValidateStrategy::Simd => {
            // A codec with SIMD tables has one context (no rules across
            // values) and no pending values.
            let isa = simd_isa(codec)?;
            Box::new(move |_, b, _| (codec.dfa().validate_simd(isa, b).expect("checked by simd_isa"), 0))
        }
    })
}

/// The instruction set for `codec`'s SIMD validator, or why it has none.
pub(super) fn simd_isa(codec: &dyn DynCodec) -> Result<Isa, CliError> {
    let name = &codec.info().name;
    if codec.dfa().simd().is_none() {
        let why = &codec.info().no_simd;
        return Err(CliError::msg(format!("{name} has no SIMD validator: {why}")));
    }
    Isa::detect()
        .ok_or_else(|| CliError::msg("this machine (or build) has no SSE4.1, AVX2 or NEON for the SIMD validator"))
}

/// Validation one step at a time with a decoding strategy.
pub(super) fn by_steps(codec: &dyn DynCodec, strategy: Strategy, input: &[u8]) -> Result<(), DecodeError> {
    validate_by_steps(codec, strategy, 0, input, false).0
}

/// `placemat validate`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, strategy: ValidateStrategy, max_units: usize) -> CliResult {
    let check = validator(codec, strategy)?;
    let mut input = input::open(file)?;
    let name = input.name.clone();
    let unit = usize::from(codec.dfa().facts().unit_bytes);
    let mut stream = StreamValidator::new(|context: usize, b: &[u8], open: bool| check(context, b, open));
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = input::fill(&mut input.reader, &mut chunk)?;
        // What the error message may need: the open sequence and this chunk.
        let (base, held) = (stream.offset(), stream.pending().to_vec());
        if let Err(e) = stream.push(&chunk[..n]) {
            let data = [&held[..], &chunk[..n]].concat();
            let at = e.valid_up_to() - base;
            let len = e.error_len().unwrap_or(data.len() - at);
            return Err(decode_error(codec, &name, e.valid_up_to(), &data[at..], len));
        }
        if stream.pending().len() / unit > max_units {
            return Err(too_long(codec, &name, stream.offset(), max_units));
        }
        if n < CHUNK {
            break;
        }
    }
    let (offset, held) = (stream.offset(), stream.pending().to_vec());
    match stream.finish() {
        Ok(()) => Ok(()),
        Err(e) => {
            // The error lies in the held units: a sequence cut short, or
            // (after a longest match taken at the end) a bad one.
            let at = e.valid_up_to() - offset;
            let len = e.error_len().unwrap_or(held.len() - at);
            Err(decode_error(codec, &name, e.valid_up_to(), &held[at..], len))
        }
    }
}
