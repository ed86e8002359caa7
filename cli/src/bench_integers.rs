//! `placemat bench` on the integer codecs that crates implement too
//! (`leb128`, `quic-varint`, `sqlite-varint`, and the signed `sleb128` and
//! `protobuf-sint64`): before the text corpora, one
//! stream of 2^20 integers per distribution
//! ([`placemat_variants::corpus::integers`]), decoded and encoded by the
//! crates' readers and writers ([`crate::baselines`]) beside every placemat
//! strategy. A crate comes first in its operation, so every ratio is
//! placemat's speed against that crate's.

use std::cell::RefCell;

use placemat_codec::DynCodec;
use placemat_variants::corpus::integers::Distribution;

use super::baselines::{self, Read};
use super::bench::{reusing, Run};

/// The runs of the crates that implement `codec`, the first of them the
/// baseline: a decode and an encode run each.
fn crates<'a>(codec: &str, bytes: &'a [u8], values: &'a [u64]) -> Vec<[(&'static str, String, Run<'a>); 2]> {
    use baselines::{leb128, quic, signed, sqlite};
    match codec {
        "leb128" => vec![
            pair("prost", leb128::prost_read, leb128::prost_write, bytes, values),
            pair("integer-encoding", leb128::integer_encoding_read, leb128::integer_encoding_write, bytes, values),
            pair("unsigned-varint", leb128::unsigned_varint_read, leb128::unsigned_varint_write, bytes, values),
            pair("leb128 crate", leb128::leb128_read, leb128::leb128_write, bytes, values),
        ],
        "sleb128" => vec![pair("leb128 crate", signed::leb128_read, signed::leb128_write, bytes, values)],
        "protobuf-sint64" => vec![
            pair("prost", signed::prost_zigzag_read, signed::prost_zigzag_write, bytes, values),
            pair("integer-encoding", signed::integer_encoding_read, signed::integer_encoding_write, bytes, values),
        ],
        "quic-varint" => vec![pair("octets", quic::octets_read, quic::octets_write, bytes, values)],
        "sqlite-varint" => vec![pair("sqlite port", sqlite::get, sqlite::write, bytes, values)],
        _ => Vec::new(),
    }
}

/// The integer streams of `codec`, named by distribution, of values up to
/// its largest (a signed codec's: magnitudes up to its largest, every other
/// value negated); none for a codec no crate implements.
pub(super) fn streams(codec: &dyn DynCodec) -> Vec<(String, Vec<u64>)> {
    if crates(&codec.info().name, &[], &[]).is_empty() {
        return Vec::new();
    }
    let info = codec.info();
    let bits = 64 - info.max.leading_zeros();
    let signed = |values: Vec<u64>| -> Vec<u64> {
        let negated = |(i, v): (usize, u64)| if i % 2 == 1 { v.wrapping_neg() } else { v };
        values.into_iter().enumerate().map(negated).collect()
    };
    let stream = |d: &Distribution| match info.sign {
        Some(_) => signed(d.values(1 << 20, bits)),
        None => d.values(1 << 20, bits),
    };
    Distribution::ALL.iter().map(|d| (d.name().to_string(), stream(d))).collect()
}

/// The crates' runs on `bytes` (the encoding of `values`), merged into
/// `placemat`'s runs: each crate before the first placemat run of its
/// operation.
pub(super) fn with_crates<'a>(
    codec: &dyn DynCodec,
    bytes: &'a [u8],
    values: &'a [u64],
    placemat: Vec<(&'static str, String, Run<'a>)>,
) -> Vec<(&'static str, String, Run<'a>)> {
    let mut crates: Vec<_> = crates(&codec.info().name, bytes, values).into_iter().flatten().map(Some).collect();
    let mut out: Vec<(&'static str, String, Run<'a>)> = Vec::new();
    for run in placemat {
        if !out.iter().any(|(op, _, _)| *op == run.0) {
            out.extend(crates.iter_mut().filter(|c| c.as_ref().is_some_and(|c| c.0 == run.0)).filter_map(Option::take));
        }
        out.push(run);
    }
    out
}

/// One crate's decode and encode runs. Generic over the reader and the
/// writer, so each loop calls its crate's function directly (inlined), as a
/// program using the crate would.
fn pair<'a, R, W>(
    name: &'static str,
    read: R,
    write: W,
    bytes: &'a [u8],
    values: &'a [u64],
) -> [(&'static str, String, Run<'a>); 2]
where
    R: Fn(&[u8]) -> Read + 'a,
    W: Fn(u64, &mut [u8]) -> usize + 'a,
{
    let reads = reusing(values.len(), move |out: &mut Vec<u64>| {
        let mut pos = 0;
        while let Some((value, len)) = read(&bytes[pos..]) {
            out.push(value);
            pos += len;
        }
    });
    let encoded = RefCell::new(vec![0u8; values.len() * 10 + 16]);
    let writes = move || {
        let mut out = encoded.borrow_mut();
        values.iter().fold(0, |pos, &v| pos + write(v, &mut out[pos..]))
    };
    [("decode", name.into(), Box::new(reads)), ("encode", name.into(), Box::new(writes))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_variants::registry;

    /// Every crate decodes the whole stream to its values and encodes them to
    /// the codec's bytes (the runs return the values' and the bytes' counts),
    /// and it comes before placemat's runs of the same operation.
    #[test]
    fn the_crates_run_on_the_whole_stream_before_placemat() {
        for name in ["leb128", "quic-varint", "sqlite-varint", "sleb128", "protobuf-sint64"] {
            let codec = registry::find(name).unwrap();
            let streams = streams(codec);
            assert_eq!(streams.len(), 2, "{name}");
            let values = &streams[1].1;
            let mut bytes = Vec::new();
            codec.encode_block(None, values, &mut bytes).unwrap();
            let placemat: Vec<(&'static str, String, Run<'_>)> = ["validate", "decode", "encode"]
                .into_iter()
                .map(|op| (op, "placemat".to_string(), Box::new(|| 0usize) as Run<'_>))
                .collect();
            let runs = with_crates(codec, &bytes, values, placemat);
            let order: Vec<(&str, &str)> = runs.iter().map(|(op, s, _)| (*op, s.as_str())).collect();
            assert_eq!(order.first(), Some(&("validate", "placemat")), "{name}");
            let first = |op| runs.iter().position(|r| r.0 == op).unwrap();
            assert_ne!(runs[first("decode")].1, "placemat", "{name}: a crate is the baseline");
            for (op, strategy, run) in &runs {
                if strategy != "placemat" {
                    let want = if *op == "decode" { values.len() } else { bytes.len() };
                    assert_eq!(run(), want, "{name}: {strategy} {op}");
                }
            }
        }
        assert!(streams(registry::find("utf8").unwrap()).is_empty());
        // A signed codec's streams hold both signs.
        let signed = &streams(registry::find("sleb128").unwrap())[0].1;
        assert!(signed.iter().any(|&v| (v as i64) < 0) && signed.iter().any(|&v| (v as i64) > 0));
    }
}
