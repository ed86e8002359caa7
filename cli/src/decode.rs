//! `placemat decode` and `placemat transcode`: the input is read in chunks and
//! decoded item by item (`transcode` through `placemat_codec::io`), so memory stays
//! constant whatever the input's size.

use std::fmt::Display;
use std::io::{Read, Write};

use placemat_codec::big::{BigInt, BigUint};
use placemat_codec::dfa::{Dfa, DEAD};
use placemat_codec::io::{self, TranscodeError, TranscodeErrorKind, Transcoder};
use placemat_codec::{DynCodec, Step, Strategy, Unit, Value};

use super::input::{self, Input};
use super::segments::{Segments, Stopped};
use super::{CliError, CliResult, ErrorMode, ValueFormat};

const CHUNK: usize = 1 << 16;

/// A decoded value: a plain integer, a signed codec's, or one of any size
/// from an unbounded codec.
pub(super) enum Decoded {
    /// A value that fits 64 bits.
    Small(u64),
    /// A signed codec's value.
    Signed(i64),
    /// A larger value.
    Big(BigUint),
    /// A signed codec's value past `i64` (a codec of any size).
    BigSigned(BigInt),
}

impl Decoded {
    /// The value as `decode --values format` writes it (a signed value in
    /// `u` format as decimal: `run` keeps signed codecs from asking for it).
    pub(super) fn shown(&self, format: ValueFormat) -> String {
        match (self, format) {
            (Decoded::Small(v), ValueFormat::U) => format!("U+{v:04X}"),
            (Decoded::Big(v), ValueFormat::U) => format!("U+{v:04X}"),
            (Decoded::Small(v), ValueFormat::Dec) => v.to_string(),
            (Decoded::Big(v), ValueFormat::Dec) => v.to_string(),
            (Decoded::Signed(v), ValueFormat::U | ValueFormat::Dec) => v.to_string(),
            (Decoded::Small(v), ValueFormat::Hex) => format!("{v:#x}"),
            (Decoded::Big(v), ValueFormat::Hex) => format!("{v:#x}"),
            (Decoded::Signed(v), ValueFormat::Hex) => {
                format!("{}{:#x}", if *v < 0 { "-" } else { "" }, v.unsigned_abs())
            }
            (Decoded::BigSigned(v), ValueFormat::U | ValueFormat::Dec) => v.to_string(),
            (Decoded::BigSigned(v), ValueFormat::Hex) => {
                format!("{}{:#x}", if *v < BigInt::ZERO { "-" } else { "" }, v.magnitude())
            }
        }
    }
}

/// A value of `codec` (its 64-bit view) in messages: `U+00E9`, or a signed
/// codec's value in decimal.
pub(super) fn value_text(codec: &dyn DynCodec, v: u64) -> String {
    match codec.info().sign {
        Some(_) => (v as i64).to_string(),
        None => format!("U+{v:04X}"),
    }
}

/// One decoded item, with the buffer it came from (for error messages).
pub(super) enum Event<'a> {
    /// A decoded value.
    Value {
        /// The value.
        value: Decoded,
        /// Stream offset of its units.
        offset: usize,
        /// How many units it took.
        len: usize,
    },
    /// A maximal subpart (`Invalid`) or a truncated tail (`Incomplete`).
    Error {
        /// Stream offset of the bad sequence.
        offset: usize,
        /// Its units, and (for `Invalid`) the unit that could not continue it.
        found: &'a [u8],
        /// Units in the bad sequence.
        len: usize,
    },
}

/// A sequence still open at the end of the data read so far: where it starts,
/// how far the table walk has read it, and the walk's state there. A value that
/// spans many chunks is walked once, not again for every chunk.
struct Open {
    at: usize,
    walked: usize,
    state: usize,
}

/// Decodes all of `input` with `codec`, calling `f` for every item. A sequence
/// longer than `max_units` units is an error (values of unbounded codecs are
/// held whole until they end).
pub(super) fn for_each(
    codec: &dyn DynCodec,
    input: &mut Input,
    max_units: usize,
    mut f: impl FnMut(Event<'_>) -> CliResult,
) -> CliResult {
    let mut data: Vec<u8> = Vec::with_capacity(2 * CHUNK);
    let mut base = 0usize;
    let mut open: Option<Open> = None;
    // The context of the codec's rules across values (0 without rules).
    let mut context = 0;
    let dfa = codec.dfa();
    loop {
        let have = data.len();
        data.resize(have + CHUNK, 0);
        let n = input::fill(&mut input.reader, &mut data[have..])?;
        data.truncate(have + n);
        let eof = n < CHUNK;
        if let Some(o) = &mut open {
            while o.walked < data.len() && o.state != DEAD && !dfa.is_boundary(o.state) {
                o.state = dfa.transition(o.state, data[o.walked]).next;
                o.walked += 1;
            }
            if o.walked - o.at > max_units {
                return Err(too_long(codec, &input.name, base + o.at, max_units));
            }
            if !eof && o.state != DEAD && !dfa.is_boundary(o.state) {
                continue;
            }
        }
        open = None;
        let pos = items(codec, &data, (base, &mut context), eof, &mut f)?;
        if pos < data.len() {
            let state = data[pos..].iter().fold(dfa.start_of(context), |s, &u| dfa.transition(s, u).next);
            open = Some(Open { at: 0, walked: data.len() - pos, state });
        }
        data.drain(..pos);
        base += pos;
        if eof {
            return Ok(());
        }
    }
}

/// The error of a sequence longer than the limit.
pub(super) fn too_long(codec: &dyn DynCodec, name: &str, offset: usize, max_units: usize) -> CliError {
    CliError::msg(format!(
        "{name}: the {} sequence at offset {offset} is longer than {max_units} units, the limit on one value \
         (raise it with --max-value-units)",
        codec.info().name
    ))
}

/// Decodes the items of `data` (at stream offset `base`, in `context`, which
/// it keeps up to date), calling `f` for each; returns where an open sequence
/// starts (the end of `data` if none is open).
fn items(
    codec: &dyn DynCodec,
    data: &[u8],
    (base, context): (usize, &mut usize),
    eof: bool,
    f: &mut impl FnMut(Event<'_>) -> CliResult,
) -> Result<usize, CliError> {
    let mut pos = 0;
    while pos < data.len() {
        let step = step(codec, *context, &data[pos..], !eof);
        *context = match &step {
            Step::Value { value: Decoded::Small(v), .. } => codec.context_after(*v),
            Step::Incomplete => *context,
            _ => 0,
        };
        match step {
            Step::Value { value, len } => {
                f(Event::Value { value, offset: base + pos, len })?;
                pos += len;
            }
            Step::Invalid { len } => {
                // The error's units and the code unit after them, which may be
                // the one that showed the error (errors cover whole code units).
                let unit = usize::from(codec.dfa().facts().unit_bytes);
                let end = (pos + len + unit).min(data.len());
                f(Event::Error { offset: base + pos, found: &data[pos..end], len })?;
                pos += len;
            }
            Step::Incomplete if !eof => break,
            Step::Incomplete => {
                let len = data.len() - pos;
                f(Event::Error { offset: base + pos, found: &data[pos..], len })?;
                pos = data.len();
            }
        }
    }
    Ok(pos)
}

/// One step in `context`, with more input to follow if `open`: values of
/// any size for unbounded codecs (which have one context and no pending
/// values), `u64` for the rest.
fn step(codec: &dyn DynCodec, context: usize, input: &[u8], open: bool) -> Step<Decoded> {
    if !codec.info().unbounded {
        let step = match open {
            true => codec.step_open(Strategy::Table, context, input),
            false => codec.step_in(Strategy::Table, context, input),
        };
        return match codec.info().sign {
            Some(_) => step.map(|v| Decoded::Signed(v as i64)),
            None => step.map(Decoded::Small),
        };
    }
    if codec.info().sign.is_some() {
        return codec.step_bigint(Strategy::Table, input).map(|value| match i64::try_from(&value) {
            Ok(v) => Decoded::Signed(v),
            Err(_) => Decoded::BigSigned(value),
        });
    }
    codec.step_big(Strategy::Table, input).map(|value| match u64::try_from(&value) {
        Ok(v) => Decoded::Small(v),
        Err(_) => Decoded::Big(value),
    })
}

fn hex_units(units: &[u8]) -> String {
    units.iter().map(|u| format!("{u:02X}")).collect::<Vec<_>>().join(" ")
}

/// How messages show units: hex bytes, and for a codec of alphabet units (its
/// units are characters), the characters too.
#[derive(Copy, Clone)]
struct Units {
    text: bool,
}

impl Units {
    fn of(codec: &dyn DynCodec) -> Self {
        Units { text: matches!(codec.info().unit, Unit::Alphabet(_)) }
    }

    /// One unit as a character: `/`, `\x07`.
    fn char(u: u8) -> String {
        (u as char).escape_default().to_string()
    }

    /// `E0 80`, or for text, `` `H/` (48 2F) ``.
    fn found(self, units: &[u8]) -> String {
        let hex = hex_units(units);
        if !self.text {
            return hex;
        }
        let text: String = units.iter().map(|&u| Self::char(u)).collect();
        format!("`{text}` ({hex})")
    }

    /// The units of `arms` as a list of maximal runs, `00-7F, C2-F4` (for text,
    /// `` `a`-`z`, `?` ``): adjacent runs are merged whatever their transitions.
    fn runs(self, arms: impl Iterator<Item = (u8, u8)>) -> String {
        let mut runs: Vec<(u8, u8)> = Vec::new();
        for (lo, hi) in arms {
            match runs.last_mut() {
                Some(last) if u16::from(last.1) + 1 == u16::from(lo) => last.1 = hi,
                _ => runs.push((lo, hi)),
            }
        }
        let one = |u: u8| if self.text { format!("`{}`", Self::char(u)) } else { format!("{u:02X}") };
        let text: Vec<String> =
            runs.iter().map(|&(lo, hi)| if lo == hi { one(lo) } else { format!("{}-{}", one(lo), one(hi)) }).collect();
        text.join(", ")
    }
}

/// "found E0 80, expected a unit continuing the sequence (A0-BF)" for a bad
/// sequence, read from the codec's own tables: the walk from the start state
/// in which the sequence fails, and the units the state it fails in takes.
/// Alphabet units are shown as characters too.
pub(super) fn explain(codec: &dyn DynCodec, found: &[u8], len: usize) -> String {
    let dfa = codec.dfa();
    let shown = Units::of(codec);
    let unit = usize::from(dfa.facts().unit_bytes);
    let mut state = start_for(&dfa, found, len);
    for (i, &u) in found.iter().enumerate() {
        let next = dfa.transition(state, u).next;
        // A code unit cut short by the end of the input is a truncation, even
        // where its first bytes already cannot continue the sequence.
        if next == DEAD && (i / unit + 1) * unit > found.len() {
            break;
        }
        if next == DEAD {
            let live = (0..=255u8).filter(|&b| dfa.transition(state, b).next != DEAD);
            let expected = shown.runs(live.map(|b| (b, b)));
            let what = if i == 0 { "a unit that starts a sequence" } else { "a unit continuing the sequence" };
            return format!("found {}, expected {what} ({expected})", shown.found(&found[..=i]));
        }
        state = next;
    }
    format!(
        "found {} and then the end of the input, in the middle of a sequence",
        shown.found(&found[..len.min(found.len())])
    )
}

/// The start state (of the contexts of rules across values) in which `found`
/// is a bad sequence of `len` units: the first whose walk dies where a
/// maximal subpart of `len` units ends; the start of context 0 if none does
/// (a truncated sequence).
fn start_for(dfa: &Dfa<&[u32], &[u64]>, found: &[u8], len: usize) -> usize {
    let dies_at = |start: usize| {
        let mut state = start;
        found.iter().position(|&u| {
            state = dfa.transition(state, u).next;
            state == DEAD
        })
    };
    let mut starts = (0..dfa.contexts()).map(|c| dfa.start_of(c));
    starts.find(|&s| dies_at(s).is_some_and(|i| i.max(1) == len)).unwrap_or(dfa.start())
}

pub(super) fn decode_error(
    codec: &dyn DynCodec,
    name: &str,
    offset: impl Display,
    found: &[u8],
    len: usize,
) -> CliError {
    CliError::msg(format!(
        "{name}: invalid {} input at offset {offset}: {}",
        codec.info().name,
        explain(codec, found, len)
    ))
}

/// `placemat decode`. Values are written as `values` says, by default `U+hex`,
/// or decimal for a signed codec (whose values are no code points: `u` is
/// refused for it).
pub fn run(
    codec: &dyn DynCodec,
    file: Option<&str>,
    errors: ErrorMode,
    values: Option<ValueFormat>,
    max_units: usize,
    out: &mut dyn Write,
) -> CliResult {
    let signed = codec.info().sign.is_some();
    let values = match values {
        Some(ValueFormat::U) if signed => {
            return Err(CliError::usage(format!(
                "`--values u` writes code points, and {}'s values are signed integers: use `--values dec` or `hex`",
                codec.info().name
            )))
        }
        Some(format) => format,
        None if signed => ValueFormat::Dec,
        None => ValueFormat::U,
    };
    let mut input = input::open(file)?;
    let name = input.name.clone();
    let replacement = Decoded::Small(u64::REPLACEMENT).shown(values);
    for_each(codec, &mut input, max_units, |event| match event {
        Event::Value { value, .. } => Ok(writeln!(out, "{}", value.shown(values))?),
        Event::Error { offset, found, len } => match errors {
            ErrorMode::Replace => Ok(writeln!(out, "{replacement}")?),
            ErrorMode::Strict => Err(decode_error(codec, &name, offset, found, len)),
        },
    })
}

/// A decoded value (as `value_text` or `U+hex` shows it) the target codec
/// cannot encode, in one sentence.
fn unencodable(to: &dyn DynCodec, name: &str, value: &str, offset: u64) -> CliError {
    let info = to.info();
    CliError::msg(format!(
        "{name}: {value} (decoded at offset {offset}) cannot be encoded by {} (its range is {})",
        info.name,
        info.range_text()
    ))
}

/// `placemat transcode`: the input is read in blocks of [`TRANSCODE_BLOCK`]
/// bytes, each pushed through a [`Transcoder`] and its output written in one
/// call, so memory stays constant whatever the input's size (the block, its
/// output, at most four bytes per input byte, and the one sequence held
/// between blocks). A large regular file is converted in segments on
/// `threads` threads (by default, the machine's cores up to four;
/// [`Segments`]), with the same output and errors.
pub fn transcode(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    file: Option<&str>,
    errors: ErrorMode,
    (max_units, threads): (usize, Option<usize>),
    out: &mut dyn Write,
) -> CliResult {
    let mut input = input::open(file)?;
    let mode = match errors {
        ErrorMode::Strict => io::ErrorMode::Strict,
        ErrorMode::Replace => io::ErrorMode::Replace,
    };
    let engine = Transcoder::new(from, to, mode)
        .map_err(|_| {
            CliError::usage(format!("`--errors replace` needs U+FFFD, which {} cannot encode", to.info().name))
        })?
        .with_max_sequence(max_units);
    let split = file.zip(input.size).filter(|&(path, _)| path != "-");
    let Some((path, size, segments)) = split.and_then(|(p, size)| Some((p, size, Segments::for_file(size, threads)?)))
    else {
        return pump((from, to), engine, &mut input, out);
    };
    let make = |offset| engine.fresh().with_offset(offset);
    let rest = segments.transcode(from, &make, path, size, out).map_err(|stop| match stop {
        Stopped::Transcode(e) => transcode_error(from, to, &input.name, &e),
        Stopped::Read(e) => CliError::msg(format!("cannot read `{path}`: {e}")),
        Stopped::Write(e) => CliError::Io(e),
    })?;
    // What the file holds past its size when it was opened, if it grew.
    pump((from, to), rest, &mut input::open_at(path, size)?, out)
}

/// Pushes `input` through `engine` block by block, writing each block's
/// output, then finishes it.
fn pump(
    (from, to): (&dyn DynCodec, &dyn DynCodec),
    mut engine: Transcoder<'_>,
    input: &mut Input,
    out: &mut dyn Write,
) -> CliResult {
    let mut block = vec![0u8; TRANSCODE_BLOCK];
    let mut output = Vec::new();
    loop {
        let n = match input.reader.read(&mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        output.clear();
        let result = match n {
            0 => engine.finish(&mut output),
            n => engine.push(&block[..n], &mut output),
        };
        // What came before an error is written first.
        out.write_all(&output)?;
        result.map_err(|e| transcode_error(from, to, &input.name, &e))?;
        if n == 0 {
            return Ok(());
        }
    }
}

/// The bytes `placemat transcode` reads at a time.
const TRANSCODE_BLOCK: usize = 1 << 18;

/// The message of a transcoding error, in the words of `decode` and `encode`.
fn transcode_error(from: &dyn DynCodec, to: &dyn DynCodec, name: &str, err: &TranscodeError) -> CliError {
    let offset = err.offset();
    match err.kind() {
        TranscodeErrorKind::Invalid { len, found } => decode_error(from, name, offset, found, *len),
        TranscodeErrorKind::Incomplete { found } => decode_error(from, name, offset, found, found.len()),
        TranscodeErrorKind::Unencodable { value } => unencodable(to, name, &value_text(from, *value), offset),
        TranscodeErrorKind::UnencodableBig { hex } => unencodable(to, name, &format!("U+{hex}"), offset),
        TranscodeErrorKind::ForbiddenAfter { before, value } => CliError::msg(format!(
            "{name}: {} (decoded at offset {offset}) may not follow {} in {}",
            value_text(from, *value),
            value_text(from, *before),
            to.info().name
        )),
        TranscodeErrorKind::TooLong { limit } => too_long(from, name, offset as usize, *limit),
        other => CliError::msg(format!("{name}: {other:?} at offset {offset}")),
    }
}
