//! The strategies of `placemat bench A --to B`: the transcoder's paths and
//! the baselines a user would pick instead for the pair, where one converts
//! it (encoding_rs, validating, for UTF-8 ↔ UTF-16; std for UTF-8 into
//! UTF-16 and UTF-32, and from UTF-16).

use placemat_codec::io::{ErrorMode, Transcoder};
use placemat_codec::DynCodec;

use super::bench::Run;

/// The operation every conversion is filed under.
const OP: &str = "transcode";

/// The conversions of `bytes` (in `from`'s encoding) into `to`'s, baselines first.
pub(super) fn conversions<'a>(
    from: &'a dyn DynCodec,
    to: &'a dyn DynCodec,
    bytes: &'a [u8],
) -> Vec<(&'static str, String, Run<'a>)> {
    let mut runs = baselines(&from.info().name, &to.info().name, bytes);
    for per_value in [false, true] {
        let label = if per_value { "placemat one value at a time" } else { "placemat runs and blocks" };
        let run = move || {
            let mut out = Vec::with_capacity(2 * bytes.len());
            let Ok(t) = Transcoder::new(from, to, ErrorMode::Strict) else { return 0 };
            let mut t = if per_value { t.one_value_at_a_time() } else { t };
            let ok = t.push(bytes, &mut out).and_then(|()| t.finish(&mut out)).is_ok();
            out.len() * usize::from(ok)
        };
        runs.push((OP, label.to_string(), Box::new(run)));
    }
    runs
}

/// The baselines that convert `from` into `to`, by the codecs' names.
fn baselines<'a>(from: &str, to: &str, bytes: &'a [u8]) -> Vec<(&'static str, String, Run<'a>)> {
    let mut runs: Vec<(&'static str, String, Run<'a>)> = Vec::new();
    match (from, to) {
        ("utf8", "utf16le") => {
            runs.push((OP, "encoding_rs".into(), Box::new(move || encoding_rs_to_utf16(bytes))));
            runs.push((OP, "std encode_utf16".into(), Box::new(move || std_to_utf16(bytes, u16::to_le_bytes))));
        }
        ("utf8", "utf16be") => {
            runs.push((OP, "encoding_rs".into(), Box::new(move || encoding_rs_to_utf16(bytes))));
            runs.push((OP, "std encode_utf16".into(), Box::new(move || std_to_utf16(bytes, u16::to_be_bytes))));
        }
        ("utf16le", "utf8") => {
            let run = move || from_utf16_encoding_rs(encoding_rs::UTF_16LE, bytes);
            runs.push((OP, "encoding_rs".into(), Box::new(run)));
            runs.push((OP, "std from_utf16".into(), Box::new(move || std_from_utf16(bytes, u16::from_le_bytes))));
        }
        ("utf16be", "utf8") => {
            let run = move || from_utf16_encoding_rs(encoding_rs::UTF_16BE, bytes);
            runs.push((OP, "encoding_rs".into(), Box::new(run)));
            runs.push((OP, "std from_utf16".into(), Box::new(move || std_from_utf16(bytes, u16::from_be_bytes))));
        }
        ("utf8", "utf32le") => runs.push((OP, "std chars()".into(), Box::new(move || std_to_utf32(bytes, false)))),
        ("utf8", "utf32be") => runs.push((OP, "std chars()".into(), Box::new(move || std_to_utf32(bytes, true)))),
        ("utf8", "utf8") => {
            let run = move || std::str::from_utf8(bytes).map_or(0, |s| s.as_bytes().to_vec().len());
            runs.push((OP, "std from_utf8 + copy".into(), Box::new(run)));
        }
        _ => {}
    }
    runs
}

/// encoding_rs's validating UTF-8 decoder into UTF-16 code units (in the
/// machine's byte order, as it writes them; the bytes they take).
fn encoding_rs_to_utf16(bytes: &[u8]) -> usize {
    let mut decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let mut units = vec![0u16; bytes.len() + 1];
    let (result, _, written) = decoder.decode_to_utf16_without_replacement(bytes, &mut units, true);
    if result != encoding_rs::DecoderResult::InputEmpty {
        return 0;
    }
    2 * written
}

/// encoding_rs's validating UTF-16 decoder (in its byte order) into UTF-8.
fn from_utf16_encoding_rs(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> usize {
    encoding.decode_without_bom_handling_and_without_replacement(bytes).map_or(0, |s| s.len())
}

/// std: `from_utf8`, then `encode_utf16`, as bytes.
fn std_to_utf16(bytes: &[u8], order: fn(u16) -> [u8; 2]) -> usize {
    let Ok(text) = std::str::from_utf8(bytes) else { return 0 };
    text.encode_utf16().flat_map(order).collect::<Vec<u8>>().len()
}

/// std: `from_utf8`, then each `char` as four bytes.
fn std_to_utf32(bytes: &[u8], big_endian: bool) -> usize {
    let Ok(text) = std::str::from_utf8(bytes) else { return 0 };
    let order = if big_endian { u32::to_be_bytes } else { u32::to_le_bytes };
    text.chars().flat_map(|c| order(u32::from(c))).collect::<Vec<u8>>().len()
}

/// std: the code units, then `String::from_utf16`.
fn std_from_utf16(bytes: &[u8], order: fn([u8; 2]) -> u16) -> usize {
    let units: Vec<u16> = bytes.chunks_exact(2).map(|p| order([p[0], p[1]])).collect();
    String::from_utf16(&units).map_or(0, |s| s.len())
}
