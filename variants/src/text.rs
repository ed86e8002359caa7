//! Conversions between any codec and Rust's own text types: `str`/`String`
//! (UTF-8), UTF-16 code units (`u16`, as Windows, Java, JavaScript and ICU
//! hold text) and UTF-32 code units (`u32`, or `char`'s values).
//!
//! Each call is one run of the conversion engine
//! ([`placemat_codec::io::Transcoder`], the same strict errors and
//! replacements as [`placemat_codec::io::transcode_into`]) into the built-in
//! [`Utf8`], [`Utf16Le`] or [`Utf32Le`] codec, or out of it; code units are
//! read and written as numbers, whatever the machine's byte order.
//!
//! | from | to | call |
//! |---|---|---|
//! | a codec's bytes | `Cow<str>` (borrowed when the bytes are that very text in UTF-8) | [`to_str`] |
//! | `&str` | `Cow<[u8]>` (borrowed likewise) | [`from_str`] |
//! | a codec's bytes | `Vec<u16>` / `Vec<u32>` | [`to_utf16`] / [`to_utf32`] |
//! | `&[u16]` / `&[u32]` | a codec's bytes | [`from_utf16`] / [`from_utf32`] |
//!
//! ```
//! use std::borrow::Cow;
//! use placemat_codec::io::ErrorMode::{Replace, Strict};
//! use placemat_variants::codecs::{Cesu8, Mutf8};
//! use placemat_variants::text;
//! // Modified UTF-8 (JNI, class files) into a String: borrowed when nothing changes…
//! assert!(matches!(text::to_str(&Mutf8, b"plain", Strict).unwrap(), Cow::Borrowed("plain")));
//! // …owned when something does: U+0000 is C0 80, an emoji a pair of surrogates.
//! let java = b"a\xC0\x80\xED\xA0\xBD\xED\xB8\x80";
//! assert_eq!(text::to_str(&Mutf8, java, Strict).unwrap(), "a\0😀");
//! assert_eq!(text::from_str(&Cesu8, "😀", Strict).unwrap().as_ref(), b"\xED\xA0\xBD\xED\xB8\x80");
//! // UTF-16 code units in and out.
//! let units = text::to_utf16(&Cesu8, b"caf\xC3\xA9", Strict).unwrap();
//! assert_eq!(units, "café".encode_utf16().collect::<Vec<u16>>());
//! assert_eq!(text::from_utf16(&units, &Mutf8, Strict).unwrap(), "café".as_bytes());
//! // A lone surrogate: strict mode says where, replace mode writes U+FFFD.
//! assert_eq!(text::from_utf16(&[0x61, 0xD800], &Mutf8, Strict).unwrap_err().offset(), 2);
//! assert_eq!(text::to_str(&Mutf8, b"a\xFF", Replace).unwrap(), "a\u{FFFD}");
//! ```

use std::borrow::Cow;

use placemat_codec::io::{leads_apart, ErrorMode, TranscodeError, TranscodeErrorKind, Transcoder};
use placemat_codec::DynCodec;

use crate::codecs::{Utf16Le, Utf32Le, Utf8};

/// Input converted per push (the engine's output for it is compared or moved
/// while it is in cache).
const CHUNK: usize = 1 << 16;

/// Decodes `input` with `from` into text: [`Cow::Borrowed`] when the UTF-8
/// the conversion writes is `input` itself (no allocation), else an owned
/// `String`.
///
/// # Errors
/// As [`placemat_codec::io::transcode_into`]: in strict mode the first
/// problem, at its offset in `input`.
pub fn to_str<'a>(from: &dyn DynCodec, input: &'a [u8], mode: ErrorMode) -> Result<Cow<'a, str>, TranscodeError> {
    if let Some(text) = already_utf8(from, input) {
        return Ok(Cow::Borrowed(text));
    }
    // The engine writes UTF-8 only valid (the suite's tests hold it to std),
    // so the checks of `String`'s `Owned` do not fail; if one did, its offset
    // would be reported.
    same_or_converted::<String>(from, &Utf8, input, mode)
}

/// Encodes `text` with `to`: [`Cow::Borrowed`] when `to` writes it as the
/// same bytes as UTF-8 (no allocation), else an owned buffer.
///
/// # Errors
/// In strict mode, the first value `to` cannot encode, at its byte offset
/// in `text`.
pub fn from_str<'a>(to: &dyn DynCodec, text: &'a str, mode: ErrorMode) -> Result<Cow<'a, [u8]>, TranscodeError> {
    // Text without a lead `to` may read apart is read by `to` as the same
    // values, and a canonical codec writes each value as the one sequence
    // it reads it from: that text is its own encoding.
    let plain = to.info().canonical && !to.info().unbounded && !to.premapped();
    if plain && leads_apart(&Utf8, to).is_some_and(|leads| leads.first(text.as_bytes()) == text.len()) {
        return Ok(Cow::Borrowed(text.as_bytes()));
    }
    same_or_converted::<Vec<u8>>(&Utf8, to, text.as_bytes(), mode)
}

/// Decodes `input` with `from` into UTF-16 code units.
///
/// # Errors
/// As [`to_str`].
pub fn to_utf16(from: &dyn DynCodec, input: &[u8], mode: ErrorMode) -> Result<Vec<u16>, TranscodeError> {
    let mut units = Vec::with_capacity(input.len());
    convert_chunks(from, &Utf16Le, input, mode, |bytes| {
        units.extend(bytes.chunks_exact(2).map(|u| u16::from_le_bytes([u[0], u[1]])));
    })?;
    Ok(units)
}

/// Decodes `input` with `from` into UTF-32 code units (scalar values).
///
/// # Errors
/// As [`to_str`].
pub fn to_utf32(from: &dyn DynCodec, input: &[u8], mode: ErrorMode) -> Result<Vec<u32>, TranscodeError> {
    let mut units = Vec::with_capacity(input.len());
    convert_chunks(from, &Utf32Le, input, mode, |bytes| {
        units.extend(bytes.chunks_exact(4).map(|u| u32::from_le_bytes([u[0], u[1], u[2], u[3]])));
    })?;
    Ok(units)
}

/// Encodes UTF-16 code units with `to`.
///
/// # Errors
/// In strict mode the first problem (a lone surrogate, a value `to` cannot
/// encode), at its offset in bytes of UTF-16 (twice the index of its unit).
pub fn from_utf16(units: &[u16], to: &dyn DynCodec, mode: ErrorMode) -> Result<Vec<u8>, TranscodeError> {
    from_code_units(units, &Utf16Le, to, mode, |u: &u16| u.to_le_bytes())
}

/// Encodes UTF-32 code units with `to`.
///
/// # Errors
/// As [`from_utf16`], at four bytes per unit.
pub fn from_utf32(units: &[u32], to: &dyn DynCodec, mode: ErrorMode) -> Result<Vec<u8>, TranscodeError> {
    from_code_units(units, &Utf32Le, to, mode, |u: &u32| u.to_le_bytes())
}

/// Code units through their little-endian codec into `to`, a chunk at a time.
fn from_code_units<U, const N: usize>(
    units: &[U],
    wide: &dyn DynCodec,
    to: &dyn DynCodec,
    mode: ErrorMode,
    bytes: impl Fn(&U) -> [u8; N],
) -> Result<Vec<u8>, TranscodeError> {
    let mut engine = engine(wide, to, mode)?;
    let (mut out, mut chunk) = (Vec::with_capacity(units.len() * N), Vec::with_capacity(CHUNK));
    for part in units.chunks(CHUNK / N) {
        chunk.clear();
        chunk.extend(part.iter().flat_map(&bytes));
        engine.push(&chunk, &mut out)?;
    }
    engine.finish(&mut out)?;
    Ok(out)
}

/// How much of its input [`already_utf8`] validates first on its own.
const PROBE: usize = 1 << 16;

/// `input` as text, without converting, when it is valid UTF-8 and holds
/// no lead after which `from` may read UTF-8 apart from it
/// ([`leads_apart`], derived from the two automata; values not mapped
/// after): `from` then reads `input` as the same values, and the conversion
/// would write `input` itself (UTF-8 has one encoding per value). CESU-8
/// and modified UTF-8 that hold no character above U+FFFF (nor, for the
/// latter, U+0000) are borrowed at the speed of a UTF-8 validator.
fn already_utf8<'a>(from: &dyn DynCodec, input: &'a [u8]) -> Option<&'a str> {
    if from.premapped() {
        return None;
    }
    let leads = leads_apart(&Utf8, from)?;
    // ASCII without those leads in one pass; else the scan past the ASCII
    // start and a validator. (The validator reads all its input before it
    // fails: it reads the first 64 KiB on their own first, where CESU-8
    // text above U+FFFF, no UTF-8, shows it at once.)
    let ascii = match leads.ascii_text(input) {
        Ok(text) => return Some(text),
        Err(ascii) => ascii,
    };
    let probe = (input.len().min(PROBE)..=input.len()).find(|&k| input.get(k).is_none_or(|&u| u & 0xC0 != 0x80))?;
    simdutf8::basic::from_utf8(&input[..probe]).ok()?;
    if ascii + leads.first(&input[ascii..]) < input.len() {
        return None;
    }
    simdutf8::basic::from_utf8(input).ok()
}

/// `input` converted from `from` to `to`, borrowed if the output is `input`
/// itself: the output is compared with the input as it is written, and
/// moved out into an owned `O` only from the first difference on.
fn same_or_converted<'a, O: Owned>(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    input: &'a [u8],
    mode: ErrorMode,
) -> Result<Cow<'a, O::Borrowed>, TranscodeError>
where
    O::Borrowed: ToOwned<Owned = O>,
{
    let mut engine = engine(from, to, mode)?;
    // While the output so far is `input[..same]`, it is written a chunk at a
    // time into `scratch` and compared; from the first difference on, each
    // chunk's output is added to the owned output while it is in cache.
    let (mut same, mut scratch) = (0, Vec::with_capacity(2 * CHUNK));
    let owned = |same: usize, scratch: &[u8]| {
        let mut out = O::with_capacity(input.len() + scratch.len());
        out.add(&input[..same], 0)?;
        out.add(scratch, same)?;
        Ok::<_, TranscodeError>(out)
    };
    for (k, chunk) in input.chunks(CHUNK).enumerate() {
        engine.push(chunk, &mut scratch)?;
        if input.get(same..same + scratch.len()) != Some(&scratch[..]) {
            let mut out = owned(same, &scratch)?;
            for chunk in input[((k + 1) * CHUNK).min(input.len())..].chunks(CHUNK) {
                scratch.clear();
                engine.push(chunk, &mut scratch)?;
                out.add(&scratch, out.len())?;
            }
            scratch.clear();
            engine.finish(&mut scratch)?;
            out.add(&scratch, out.len())?;
            return Ok(Cow::Owned(out));
        }
        same += scratch.len();
        scratch.clear();
    }
    engine.finish(&mut scratch)?;
    Ok(match input.get(same..same + scratch.len()) == Some(&scratch[..]) {
        true if same + scratch.len() == input.len() => Cow::Borrowed(O::borrow(input)?),
        // Shorter output that is a prefix of the input (units dropped in
        // replace mode never are: a replacement is written for them).
        true => Cow::Owned(owned(same + scratch.len(), &[])?),
        false => Cow::Owned(owned(same, &scratch)?),
    })
}

/// An owned output of [`same_or_converted`]: bytes, or text whose every
/// addition is checked to be UTF-8 (a `String` from the engine's bytes
/// without `unsafe`: the SIMD validator and a copy while the bytes are in
/// cache cost less than std's check of text outside ASCII).
trait Owned: Sized {
    /// The borrowed form (`[u8]`, `str`).
    type Borrowed: ?Sized;
    fn with_capacity(capacity: usize) -> Self;
    fn len(&self) -> usize;
    /// Appends `bytes`, whose first is at `offset` in the output.
    fn add(&mut self, bytes: &[u8], offset: usize) -> Result<(), TranscodeError>;
    /// `input` as the borrowed form.
    fn borrow(input: &[u8]) -> Result<&Self::Borrowed, TranscodeError>;
}

impl Owned for Vec<u8> {
    type Borrowed = [u8];
    fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity)
    }
    fn len(&self) -> usize {
        self.len()
    }
    fn add(&mut self, bytes: &[u8], _: usize) -> Result<(), TranscodeError> {
        self.extend_from_slice(bytes);
        Ok(())
    }
    fn borrow(input: &[u8]) -> Result<&[u8], TranscodeError> {
        Ok(input)
    }
}

impl Owned for String {
    type Borrowed = str;
    fn with_capacity(capacity: usize) -> Self {
        String::with_capacity(capacity)
    }
    fn len(&self) -> usize {
        self.len()
    }
    fn add(&mut self, bytes: &[u8], offset: usize) -> Result<(), TranscodeError> {
        self.push_str(simdutf8::compat::from_utf8(bytes).map_err(|e| not_utf8(bytes, offset, e))?);
        Ok(())
    }
    fn borrow(input: &[u8]) -> Result<&str, TranscodeError> {
        simdutf8::compat::from_utf8(input).map_err(|e| not_utf8(input, 0, e))
    }
}

/// Runs the engine over `input` a chunk at a time, handing each chunk's
/// output to `sink`.
fn convert_chunks(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    input: &[u8],
    mode: ErrorMode,
    mut sink: impl FnMut(&[u8]),
) -> Result<(), TranscodeError> {
    let mut engine = engine(from, to, mode)?;
    let mut scratch = Vec::with_capacity(4 * CHUNK);
    for chunk in input.chunks(CHUNK) {
        engine.push(chunk, &mut scratch)?;
        sink(&scratch);
        scratch.clear();
    }
    engine.finish(&mut scratch)?;
    sink(&scratch);
    Ok(())
}

/// A transcoder, or the error `transcode_into` gives when the target cannot
/// write U+FFFD in replace mode.
fn engine<'a>(from: &'a dyn DynCodec, to: &'a dyn DynCodec, mode: ErrorMode) -> Result<Transcoder<'a>, TranscodeError> {
    Transcoder::new(from, to, mode)
        .map_err(|_| TranscodeError::new(0, TranscodeErrorKind::Unencodable { value: 0xFFFD }))
}

/// Output that is not UTF-8, as the error at its first bad byte (`bytes`
/// start at `offset` in the output).
fn not_utf8(bytes: &[u8], offset: usize, e: simdutf8::compat::Utf8Error) -> TranscodeError {
    let at = e.valid_up_to();
    let len = e.error_len().unwrap_or(bytes.len() - at);
    let found = bytes[at..at + len].to_vec();
    TranscodeError::new((offset + at) as u64, TranscodeErrorKind::Invalid { len, found })
}
