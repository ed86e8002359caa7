//! The `transcode` group: converting a whole buffer from one encoding to
//! another, placemat's engine (`placemat_variants::text` and
//! `transcode_into`, validating, strict) beside the libraries a user would
//! pick for the same pair ([`placemat_benches::converters`]): encoding_rs
//! for UTF-8 ↔ UTF-16, the `cesu8` crate for CESU-8 and modified UTF-8,
//! simdutf (with `--features simdutf`) for UTF-8 ↔ UTF-16LE and UTF-32,
//! UTF-16LE ↔ UTF-32LE, UTF-8 validation and UTF-8 decoded to values; placemat's engine also
//! fed 4 KiB at a time (`placemat-4k-pushes`). Ids are
//! `<implementation>/<pair>/<corpus>`, throughput in bytes of the source.
//! Every output buffer is allocated once, outside the timed loop.
//!
//! ```sh
//! cargo bench -p placemat-benches --features criterion --bench transcode [--features simdutf]
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use placemat_benches::converters;
use placemat_codec::io::{transcode_into, ErrorMode, Transcoder};
use placemat_codec::{Decoder, DynCodec};
use placemat_variants::codecs::{Cesu8, Mutf8, Utf16Le, Utf32Le, Utf8};
use placemat_variants::corpus;
use placemat_variants::text;

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// Times `f` as `<imp>/<pair>/<corpus>` over `bytes` of input.
fn run(g: &mut Group, imp: &str, pair: &str, corpus: &str, bytes: usize, mut f: impl FnMut() -> usize) {
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function(BenchmarkId::new(format!("{imp}/{pair}"), corpus), |b| b.iter(|| black_box(f())));
}

/// placemat's engine from `from` to `to` on `input`, into a kept buffer:
/// one call (`placemat`), and a `Transcoder` fed 4 KiB at a time, as
/// `TranscodeReader` and `TranscodeWriter` feed it (`placemat-4k-pushes`).
fn placemat(g: &mut Group, pair: &str, corpus: &str, from: &dyn DynCodec, to: &dyn DynCodec, input: &[u8]) {
    let mut out = Vec::with_capacity(4 * input.len());
    run(g, "placemat", pair, corpus, input.len(), || {
        out.clear();
        transcode_into(from, to, ErrorMode::Strict, input, &mut out).map_or(0, |()| out.len())
    });
    run(g, "placemat-4k-pushes", pair, corpus, input.len(), || {
        out.clear();
        let Ok(mut t) = Transcoder::new(from, to, ErrorMode::Strict) else { return 0 };
        let pushed = input.chunks(4096).try_for_each(|piece| t.push(piece, &mut out));
        pushed.and_then(|()| t.finish(&mut out)).map_or(0, |()| out.len())
    });
}

fn transcode(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("transcode");
    for c in corpus::all() {
        let name = c.name;
        let text: String = c.text.iter().filter_map(|&v| char::from_u32(v)).collect();
        let utf8 = text.as_bytes();
        let utf16: Vec<u16> = text.encode_utf16().collect();
        let utf16le: Vec<u8> = utf16.iter().flat_map(|u| u.to_le_bytes()).collect();

        placemat(&mut g, "utf8-utf16le", name, &Utf8, &Utf16Le, utf8);
        let mut units = vec![0u16; utf8.len() + 1];
        run(&mut g, "encoding_rs", "utf8-utf16le", name, utf8.len(), || {
            converters::encoding_rs_utf8_to_utf16(utf8, &mut units).unwrap_or(0)
        });
        #[cfg(feature = "simdutf")]
        run(&mut g, "simdutf", "utf8-utf16le", name, utf8.len(), || {
            converters::simdutf::utf8_to_utf16le(utf8, &mut units).unwrap_or(0)
        });

        placemat(&mut g, "utf16le-utf8", name, &Utf16Le, &Utf8, &utf16le);
        let mut bytes = vec![0u8; 3 * utf16.len() + 16];
        run(&mut g, "encoding_rs", "utf16le-utf8", name, utf16le.len(), || {
            converters::encoding_rs_utf16le_to_utf8(&utf16le, &mut bytes).unwrap_or(0)
        });
        #[cfg(feature = "simdutf")]
        run(&mut g, "simdutf", "utf16le-utf8", name, utf16le.len(), || {
            converters::simdutf::utf16le_to_utf8(&utf16, &mut bytes).unwrap_or(0)
        });

        placemat(&mut g, "utf8-utf32le", name, &Utf8, &Utf32Le, utf8);
        utf8_values(&mut g, name, utf8);
        #[cfg(feature = "simdutf")]
        {
            let mut wide = vec![0u32; utf8.len()];
            run(&mut g, "simdutf", "utf8-utf32le", name, utf8.len(), || {
                converters::simdutf::utf8_to_utf32(utf8, &mut wide).unwrap_or(0)
            });
        }

        let wide: Vec<u32> = text.chars().map(u32::from).collect();
        let utf32le: Vec<u8> = wide.iter().flat_map(|u| u.to_le_bytes()).collect();
        placemat(&mut g, "utf32le-utf8", name, &Utf32Le, &Utf8, &utf32le);
        #[cfg(feature = "simdutf")]
        {
            let mut bytes = vec![0u8; 4 * wide.len()];
            run(&mut g, "simdutf", "utf32le-utf8", name, utf32le.len(), || {
                converters::simdutf::utf32_to_utf8(&wide, &mut bytes).unwrap_or(0)
            });
        }

        wide_pairs(&mut g, name, &utf16, &wide);
        cesu8_pairs(&mut g, name, &text);
    }
    g.finish();
}

/// UTF-16LE ↔ UTF-32LE (the text as `utf16` and `wide` code units), beside
/// simdutf's `convert_utf16le_to_utf32` and `convert_utf32_to_utf16le`.
fn wide_pairs(g: &mut Group, name: &str, utf16: &[u16], wide: &[u32]) {
    let utf16le: Vec<u8> = utf16.iter().flat_map(|u| u.to_le_bytes()).collect();
    let utf32le: Vec<u8> = wide.iter().flat_map(|u| u.to_le_bytes()).collect();
    placemat(g, "utf16le-utf32le", name, &Utf16Le, &Utf32Le, &utf16le);
    placemat(g, "utf32le-utf16le", name, &Utf32Le, &Utf16Le, &utf32le);
    #[cfg(feature = "simdutf")]
    {
        let mut values = vec![0u32; utf16.len()];
        run(g, "simdutf", "utf16le-utf32le", name, utf16le.len(), || {
            converters::simdutf::utf16le_to_utf32(utf16, &mut values).unwrap_or(0)
        });
        let mut units = vec![0u16; 2 * wide.len()];
        run(g, "simdutf", "utf32le-utf16le", name, utf32le.len(), || {
            converters::simdutf::utf32_to_utf16le(wide, &mut units).unwrap_or(0)
        });
    }
}

/// UTF-8 validated (`Decoder::validate`) and decoded to values
/// (`Decoder::decode_into` a `Vec<u32>`, the job of simdutf's
/// `convert_utf8_to_utf32`, timed as `simdutf/utf8-utf32le`), beside
/// simdutf's `validate_utf8`.
fn utf8_values(g: &mut Group, name: &str, utf8: &[u8]) {
    let mut values = Vec::with_capacity(utf8.len());
    run(g, "placemat-decode-into", "utf8-utf32le", name, utf8.len(), || {
        values.clear();
        Decoder::decode_into(&Utf8, utf8, &mut values).map_or(0, |()| values.len())
    });
    run(g, "placemat", "utf8-validate", name, utf8.len(), || usize::from(Decoder::validate(&Utf8, utf8).is_ok()));
    #[cfg(feature = "simdutf")]
    run(g, "simdutf", "utf8-validate", name, utf8.len(), || usize::from(converters::simdutf::validate_utf8(utf8)));
}

/// CESU-8 and modified UTF-8 to and from text: `text::to_str`/`from_str`
/// beside the `cesu8` crate.
fn cesu8_pairs(g: &mut Group, name: &str, text: &str) {
    let cesu = converters::utf8_to_cesu8(text).into_owned();
    let java = converters::utf8_to_mutf8(text).into_owned();
    run(g, "placemat", "cesu8-string", name, cesu.len(), || {
        text::to_str(&Cesu8, &cesu, ErrorMode::Strict).map_or(0, |s| s.len())
    });
    run(g, "cesu8-crate", "cesu8-string", name, cesu.len(), || converters::cesu8_to_utf8(&cesu).map_or(0, |s| s.len()));
    run(g, "placemat", "mutf8-string", name, java.len(), || {
        text::to_str(&Mutf8, &java, ErrorMode::Strict).map_or(0, |s| s.len())
    });
    run(g, "cesu8-crate", "mutf8-string", name, java.len(), || converters::mutf8_to_utf8(&java).map_or(0, |s| s.len()));
    run(g, "placemat", "string-cesu8", name, text.len(), || {
        text::from_str(&Cesu8, text, ErrorMode::Strict).map_or(0, |b| b.len())
    });
    run(g, "cesu8-crate", "string-cesu8", name, text.len(), || converters::utf8_to_cesu8(text).len());
    run(g, "placemat", "string-mutf8", name, text.len(), || {
        text::from_str(&Mutf8, text, ErrorMode::Strict).map_or(0, |b| b.len())
    });
    run(g, "cesu8-crate", "string-mutf8", name, text.len(), || converters::utf8_to_mutf8(text).len());
}

criterion_group! {
    name = benches;
    config = placemat_benches::config();
    targets = transcode
}
criterion_main!(benches);
