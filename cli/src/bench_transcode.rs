//! The strategies of `placemat bench A --to B`: the transcoder's paths and
//! the baselines a user would pick instead for the pair, where one converts
//! it (encoding_rs, validating, for UTF-8 ↔ UTF-16; std for UTF-8 into
//! UTF-16 and UTF-32, from UTF-16 and UTF-32, and between UTF-16 and UTF-32
//! either way; the `cesu8` crate for CESU-8 and
//! modified UTF-8 ↔ UTF-8, borrowing when nothing changes as it does).

use std::cell::RefCell;

use placemat_codec::io::{ErrorMode, Transcoder};
use placemat_codec::DynCodec;

use super::bench::Run;

/// The operation every conversion is filed under.
const OP: &str = "transcode";

/// The transcoder's paths `placemat bench A --to B` times.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Path {
    /// The engine as it runs: the one-pass path where the pair has one (a
    /// kernel, the copy of a codec into itself, or of the runs two codecs
    /// read alike), and between codecs of wide units the runs rewritten
    /// unit for unit.
    Engine,
    /// The engine without the one-pass kernel (listed where it has one).
    Blocks,
    /// The engine fed 4 KiB at a time, as a reader or writer feeds it.
    Pushes,
    /// The per-value path alone.
    PerValue,
}

/// What a stream's small pushes are in [`Path::Pushes`].
const PUSH: usize = 4096;

/// The conversions of `bytes` (in `from`'s encoding) into `to`'s, baselines first.
pub(super) fn conversions<'a>(
    from: &'a dyn DynCodec,
    to: &'a dyn DynCodec,
    bytes: &'a [u8],
) -> Vec<(&'static str, String, Run<'a>)> {
    let mut runs = baselines(&from.info().name, &to.info().name, bytes);
    let engine = Transcoder::new(from, to, ErrorMode::Strict).ok();
    let one_pass = engine.as_ref().is_some_and(|t| t.one_pass());
    let copies = engine.as_ref().is_some_and(|t| t.copies());
    let runs_alike = engine.as_ref().is_some_and(|t| t.copied_runs().is_some());
    let pair_units = engine.as_ref().is_some_and(|t| t.pair_units());
    let units_alike = engine.as_ref().is_some_and(|t| t.units_alike().is_some());
    // (The one-pass kernels run on the machine's best instruction set.)
    let isa = placemat_codec::simd::Isa::detect().map_or("", |isa| isa.name());
    for path in [Path::Engine, Path::Blocks, Path::Pushes, Path::PerValue] {
        let label = match path {
            Path::Engine if copies => "placemat copy of validated blocks".to_string(),
            Path::Engine if runs_alike && pair_units => {
                format!("placemat copy of runs read alike + 16-bit units ({isa})")
            }
            Path::Engine if runs_alike => "placemat copy of runs read alike".to_string(),
            Path::Engine if one_pass && pair_units => format!("placemat through 16-bit units ({isa})"),
            Path::Engine if one_pass => format!("placemat one pass ({isa})"),
            Path::Engine if units_alike => format!("placemat runs unit for unit ({isa})"),
            Path::Engine => "placemat runs and blocks".to_string(),
            Path::Blocks if one_pass => "placemat runs and blocks".to_string(),
            Path::Blocks => continue,
            Path::Pushes => "placemat 4 KiB pushes".to_string(),
            Path::PerValue => "placemat one value at a time".to_string(),
        };
        let buffer = RefCell::new(Vec::with_capacity(4 * bytes.len()));
        let run = move || {
            let mut out = buffer.borrow_mut();
            out.clear();
            let out = &mut *out;
            let Ok(t) = Transcoder::new(from, to, ErrorMode::Strict) else { return 0 };
            let mut t = match path {
                Path::Blocks => t.without_one_pass(),
                Path::PerValue => t.one_value_at_a_time(),
                Path::Engine | Path::Pushes => t,
            };
            let chunk = if path == Path::Pushes { PUSH } else { bytes.len().max(1) };
            let pushed = bytes.chunks(chunk).try_for_each(|piece| t.push(piece, out));
            let ok = pushed.and_then(|()| t.finish(out)).is_ok();
            out.len() * usize::from(ok)
        };
        runs.push((OP, label, Box::new(run)));
    }
    runs
}

/// The baselines that convert `from` into `to`, by the codecs' names.
fn baselines<'a>(from: &str, to: &str, bytes: &'a [u8]) -> Vec<(&'static str, String, Run<'a>)> {
    let mut runs: Vec<(&'static str, String, Run<'a>)> = Vec::new();
    match (from, to) {
        ("utf8", "utf16le" | "utf16be") => {
            let units = RefCell::new(vec![0u16; bytes.len() + 1]);
            runs.push((
                OP,
                "encoding_rs".into(),
                Box::new(move || encoding_rs_to_utf16(bytes, &mut units.borrow_mut())),
            ));
            let order = if to == "utf16le" { u16::to_le_bytes } else { u16::to_be_bytes };
            let out = RefCell::new(Vec::with_capacity(2 * bytes.len()));
            runs.push((
                OP,
                "std encode_utf16".into(),
                Box::new(move || std_to_utf16(bytes, order, &mut out.borrow_mut())),
            ));
        }
        ("utf16le" | "utf16be", "utf8") => {
            let (encoding, order) = match from {
                "utf16le" => (encoding_rs::UTF_16LE, u16::from_le_bytes as fn([u8; 2]) -> u16),
                _ => (encoding_rs::UTF_16BE, u16::from_be_bytes as fn([u8; 2]) -> u16),
            };
            let out = RefCell::new(vec![0u8; 3 * bytes.len() / 2 + 16]);
            let run = move || from_utf16_encoding_rs(encoding, bytes, &mut out.borrow_mut());
            runs.push((OP, "encoding_rs".into(), Box::new(run)));
            let units = RefCell::new(Vec::with_capacity(bytes.len() / 2));
            let run = move || std_from_utf16(bytes, order, &mut units.borrow_mut());
            runs.push((OP, "std from_utf16".into(), Box::new(run)));
        }
        ("utf8", "utf32le" | "utf32be") => {
            let out = RefCell::new(Vec::with_capacity(4 * bytes.len()));
            let big_endian = to == "utf32be";
            runs.push((
                OP,
                "std chars()".into(),
                Box::new(move || std_to_utf32(bytes, big_endian, &mut out.borrow_mut())),
            ));
        }
        ("utf32le" | "utf32be", "utf8") => {
            let order = if from == "utf32le" { u32::from_le_bytes } else { u32::from_be_bytes };
            let out = RefCell::new(Vec::with_capacity(bytes.len()));
            let run = move || std_from_utf32(bytes, order, &mut out.borrow_mut());
            runs.push((OP, "std char::from_u32".into(), Box::new(run)));
        }
        ("utf16le" | "utf16be", "utf32le" | "utf32be") => {
            let read = if from == "utf16le" { u16::from_le_bytes } else { u16::from_be_bytes };
            let write = if to == "utf32le" { u32::to_le_bytes } else { u32::to_be_bytes };
            let out = RefCell::new(Vec::with_capacity(2 * bytes.len()));
            let run = move || std_utf16_to_utf32(bytes, read, write, &mut out.borrow_mut());
            runs.push((OP, "std decode_utf16".into(), Box::new(run)));
        }
        ("utf32le" | "utf32be", "utf16le" | "utf16be") => {
            let read = if from == "utf32le" { u32::from_le_bytes } else { u32::from_be_bytes };
            let write = if to == "utf16le" { u16::to_le_bytes } else { u16::to_be_bytes };
            let out = RefCell::new(Vec::with_capacity(bytes.len()));
            let run = move || std_utf32_to_utf16(bytes, read, write, &mut out.borrow_mut());
            runs.push((OP, "std char::from_u32 + encode_utf16".into(), Box::new(run)));
        }
        ("cesu8" | "mutf8", "utf8") => {
            let java = from == "mutf8";
            let run = move || {
                let text = if java { cesu8::from_java_cesu8(bytes) } else { cesu8::from_cesu8(bytes) };
                text.map_or(0, |t| t.len())
            };
            runs.push((OP, "cesu8 crate".into(), Box::new(run)));
        }
        ("utf8", "cesu8" | "mutf8") => {
            let java = to == "mutf8";
            let run = move || {
                let Ok(text) = std::str::from_utf8(bytes) else { return 0 };
                if java {
                    cesu8::to_java_cesu8(text).len()
                } else {
                    cesu8::to_cesu8(text).len()
                }
            };
            runs.push((OP, "cesu8 crate".into(), Box::new(run)));
        }
        ("utf8", "utf8") => {
            let out = RefCell::new(Vec::with_capacity(bytes.len()));
            let run = move || {
                let mut out = out.borrow_mut();
                out.clear();
                std::str::from_utf8(bytes).map_or(0, |s| {
                    out.extend_from_slice(s.as_bytes());
                    out.len()
                })
            };
            runs.push((OP, "std from_utf8 + copy".into(), Box::new(run)));
        }
        _ => {}
    }
    runs
}

/// encoding_rs's validating UTF-8 decoder into UTF-16 code units (in the
/// machine's byte order, as it writes them; the bytes they take).
fn encoding_rs_to_utf16(bytes: &[u8], units: &mut [u16]) -> usize {
    let mut decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let (result, _, written) = decoder.decode_to_utf16_without_replacement(bytes, units, true);
    if result != encoding_rs::DecoderResult::InputEmpty {
        return 0;
    }
    2 * written
}

/// encoding_rs's validating UTF-16 decoder (in its byte order) into UTF-8.
fn from_utf16_encoding_rs(encoding: &'static encoding_rs::Encoding, bytes: &[u8], out: &mut [u8]) -> usize {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let (result, _, written) = decoder.decode_to_utf8_without_replacement(bytes, out, true);
    if result != encoding_rs::DecoderResult::InputEmpty {
        return 0;
    }
    written
}

/// std: `from_utf8`, then `encode_utf16`, as bytes.
fn std_to_utf16(bytes: &[u8], order: fn(u16) -> [u8; 2], out: &mut Vec<u8>) -> usize {
    out.clear();
    let Ok(text) = std::str::from_utf8(bytes) else { return 0 };
    out.extend(text.encode_utf16().flat_map(order));
    out.len()
}

/// std: `from_utf8`, then each `char` as four bytes.
fn std_to_utf32(bytes: &[u8], big_endian: bool, out: &mut Vec<u8>) -> usize {
    out.clear();
    let Ok(text) = std::str::from_utf8(bytes) else { return 0 };
    let order = if big_endian { u32::to_be_bytes } else { u32::to_le_bytes };
    out.extend(text.chars().flat_map(|c| order(u32::from(c))));
    out.len()
}

/// std: each code unit through `char::from_u32` (which refuses surrogates
/// and values past 10FFFF) into a `String`'s bytes, in a buffer that is kept.
fn std_from_utf32(bytes: &[u8], order: fn([u8; 4]) -> u32, out: &mut Vec<u8>) -> usize {
    out.clear();
    let mut utf8 = [0; 4];
    for unit in bytes.chunks_exact(4) {
        let Some(c) = char::from_u32(order([unit[0], unit[1], unit[2], unit[3]])) else { return 0 };
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
    out.len()
}

/// std: the code units, then `char::decode_utf16` into a `String`'s bytes
/// (what `String::from_utf16` does, into a buffer that is kept).
fn std_from_utf16(bytes: &[u8], order: fn([u8; 2]) -> u16, out: &mut Vec<u8>) -> usize {
    out.clear();
    let units = bytes.chunks_exact(2).map(|p| order([p[0], p[1]]));
    let mut utf8 = [0; 4];
    for c in char::decode_utf16(units) {
        let Ok(c) = c else { return 0 };
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
    out.len()
}

/// std: the code units through `char::decode_utf16`, each `char` as a
/// UTF-32 unit in `write`'s byte order, into a buffer that is kept.
fn std_utf16_to_utf32(bytes: &[u8], read: fn([u8; 2]) -> u16, write: fn(u32) -> [u8; 4], out: &mut Vec<u8>) -> usize {
    out.clear();
    let units = bytes.chunks_exact(2).map(|p| read([p[0], p[1]]));
    for c in char::decode_utf16(units) {
        let Ok(c) = c else { return 0 };
        out.extend_from_slice(&write(u32::from(c)));
    }
    out.len()
}

/// std: each code unit through `char::from_u32`, then `encode_utf16` in
/// `write`'s byte order, into a buffer that is kept.
fn std_utf32_to_utf16(bytes: &[u8], read: fn([u8; 4]) -> u32, write: fn(u16) -> [u8; 2], out: &mut Vec<u8>) -> usize {
    out.clear();
    let mut units = [0; 2];
    for unit in bytes.chunks_exact(4) {
        let Some(c) = char::from_u32(read([unit[0], unit[1], unit[2], unit[3]])) else { return 0 };
        out.extend(c.encode_utf16(&mut units).iter().flat_map(|&u| write(u)));
    }
    out.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_std_baselines_convert_as_std_does() {
        let text = "añ😀 漢字";
        let (mut out, mut units) = (Vec::new(), Vec::new());
        for big_endian in [false, true] {
            let order = if big_endian { u32::from_be_bytes } else { u32::from_le_bytes };
            let to = if big_endian { u32::to_be_bytes } else { u32::to_le_bytes };
            let wide: Vec<u8> = text.chars().flat_map(|c| to(u32::from(c))).collect();
            assert_eq!(std_from_utf32(&wide, order, &mut out), text.len());
            assert_eq!(out, text.as_bytes());
            // A surrogate is no `char`: the baseline converts nothing.
            assert_eq!(std_from_utf32(&to(0xD800), order, &mut out), 0);
        }
        let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(std_from_utf16(&utf16, u16::from_le_bytes, &mut units), text.len());
        assert_eq!(units, text.as_bytes());
        // Between UTF-16 and UTF-32, either way, in either byte order.
        let (mut wide, mut narrow) = (Vec::new(), Vec::new());
        for (r16, w16) in
            [(u16::from_le_bytes as fn(_) -> _, u16::to_le_bytes as fn(_) -> _), (u16::from_be_bytes, u16::to_be_bytes)]
        {
            for (r32, w32) in [
                (u32::from_le_bytes as fn(_) -> _, u32::to_le_bytes as fn(_) -> _),
                (u32::from_be_bytes, u32::to_be_bytes),
            ] {
                let utf16: Vec<u8> = text.encode_utf16().flat_map(w16).collect();
                let utf32: Vec<u8> = text.chars().flat_map(|c| w32(u32::from(c))).collect();
                assert_eq!(std_utf16_to_utf32(&utf16, r16, w32, &mut wide), utf32.len());
                assert_eq!(wide, utf32);
                assert_eq!(std_utf32_to_utf16(&utf32, r32, w16, &mut narrow), utf16.len());
                assert_eq!(narrow, utf16);
                // A lone surrogate, a unit past 10FFFF: nothing converted.
                assert_eq!(std_utf16_to_utf32(&w16(0xDC00), r16, w32, &mut wide), 0);
                assert_eq!(std_utf32_to_utf16(&w32(0x11_0000), r32, w16, &mut narrow), 0);
            }
        }
    }
}
