//! `placemat decode` and `placemat transcode`: the input is read in chunks and
//! decoded item by item, so memory stays constant whatever the input's size.

use std::io::Write;

use placemat_codec::build::tables::arms;
use placemat_codec::dfa::DEAD;
use placemat_codec::{DynCodec, Step, Strategy, Value};

use super::input::{self, Input};
use super::{CliError, CliResult, ErrorMode};

const CHUNK: usize = 1 << 16;

/// One decoded item, with the buffer it came from (for error messages).
pub(super) enum Event<'a> {
    /// A value that started at stream offset `offset`.
    Value { value: u64, offset: usize },
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

/// Decodes all of `input` with `codec`, calling `f` for every item.
pub(super) fn for_each(
    codec: &dyn DynCodec,
    input: &mut Input,
    mut f: impl FnMut(Event<'_>) -> CliResult,
) -> CliResult {
    let mut data: Vec<u8> = Vec::with_capacity(2 * CHUNK);
    let mut base = 0usize;
    loop {
        let have = data.len();
        data.resize(have + CHUNK, 0);
        let n = input::fill(&mut input.reader, &mut data[have..])?;
        data.truncate(have + n);
        let eof = n < CHUNK;
        let mut pos = 0;
        while pos < data.len() {
            match codec.step(Strategy::Table, &data[pos..]) {
                Step::Value { value, len } => {
                    f(Event::Value { value, offset: base + pos })?;
                    pos += len;
                }
                Step::Invalid { len } => {
                    let end = (pos + len + 1).min(data.len());
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
        data.drain(..pos);
        base += pos;
        if eof {
            return Ok(());
        }
    }
}

fn hex_units(units: &[u8]) -> String {
    units.iter().map(|u| format!("{u:02X}")).collect::<Vec<_>>().join(" ")
}

/// "found E0 80, expected one of A0-BF" for a bad sequence.
pub(super) fn explain(codec: &dyn DynCodec, found: &[u8], len: usize) -> String {
    let dfa = codec.dfa();
    let mut state = dfa.start();
    for (i, &u) in found.iter().enumerate() {
        let next = dfa.transition(state, u).next;
        if next == DEAD {
            let expected: Vec<String> = arms(&dfa, state)
                .iter()
                .filter(|a| a.next != DEAD)
                .map(|a| if a.lo == a.hi { format!("{:02X}", a.lo) } else { format!("{:02X}-{:02X}", a.lo, a.hi) })
                .collect();
            let what = if i == 0 { "a unit that starts a sequence" } else { "a unit continuing the sequence" };
            return format!("found {}, expected {what} ({})", hex_units(&found[..=i]), expected.join(", "));
        }
        state = next;
    }
    format!(
        "found {} and then the end of the input, in the middle of a sequence",
        hex_units(&found[..len.min(found.len())])
    )
}

fn decode_error(codec: &dyn DynCodec, name: &str, offset: usize, found: &[u8], len: usize) -> CliError {
    CliError::msg(format!(
        "{name}: invalid {} input at offset {offset}: {}",
        codec.info().name,
        explain(codec, found, len)
    ))
}

/// `placemat decode`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, errors: ErrorMode, out: &mut dyn Write) -> CliResult {
    let mut input = input::open(file)?;
    let name = input.name.clone();
    for_each(codec, &mut input, |event| match event {
        Event::Value { value, .. } => Ok(writeln!(out, "U+{value:04X}")?),
        Event::Error { offset, found, len } => match errors {
            ErrorMode::Replace => Ok(writeln!(out, "U+{:04X}", u64::REPLACEMENT)?),
            ErrorMode::Strict => Err(decode_error(codec, &name, offset, found, len)),
        },
    })
}

/// `placemat transcode`.
pub fn transcode(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    file: Option<&str>,
    errors: ErrorMode,
    out: &mut dyn Write,
) -> CliResult {
    let mut input = input::open(file)?;
    let name = input.name.clone();
    let mut buf = Vec::with_capacity(CHUNK + 64);
    let mut replacement = Vec::new();
    if errors == ErrorMode::Replace {
        to.encode_push(u64::REPLACEMENT, &mut replacement).map_err(|_| {
            CliError::msg(format!("`--errors replace` needs U+FFFD, which {} cannot encode", to.info().name))
        })?;
    }
    for_each(from, &mut input, |event| {
        match event {
            Event::Value { value, offset } => {
                if let Err(e) = to.encode_push(value, &mut buf) {
                    match errors {
                        ErrorMode::Replace => buf.extend_from_slice(&replacement),
                        ErrorMode::Strict => {
                            out.write_all(&buf)?;
                            return Err(CliError::msg(format!(
                                "{name}: U+{value:04X} (decoded at offset {offset}) cannot be encoded by {}: {e}; its range is {}",
                                to.info().name,
                                to.info().range_text()
                            )));
                        }
                    }
                }
            }
            Event::Error { offset, found, len } => match errors {
                ErrorMode::Replace => buf.extend_from_slice(&replacement),
                ErrorMode::Strict => {
                    out.write_all(&buf)?;
                    return Err(decode_error(from, &name, offset, found, len));
                }
            },
        }
        if buf.len() >= CHUNK {
            out.write_all(&buf)?;
            buf.clear();
        }
        Ok(())
    })?;
    out.write_all(&buf)?;
    Ok(())
}
