//! The benchmark matrix: one criterion group per operation
//! (`validate`, `decode`, `decode_lossy`, `encode`, `utf16`, and `step`: one
//! value at a time by each decoder), ids `<implementation>/<corpus>`.
//!
//! Within a group the corpora are the outer loop, so every implementation of one
//! corpus is measured back to back: ratios within a corpus are the numbers to read
//! on a noisy machine. `PLACEMAT_BENCH_QUICK=1` shortens every measurement (for a
//! smoke run); `BENCHMARKING.md` has the details.

use std::hint::black_box;
use std::sync::OnceLock;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use placemat_benches::{for_each_codec, hoehrmann, implementation, naive, Encoded};
use placemat_codec::simd::Isa;
use placemat_codec::{Codec, Decoder, Encoder, Step, Value};
use placemat_variants::corpus::{self, Corpus};

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// The corpora, generated once per process.
fn corpora() -> &'static [Corpus] {
    static CORPORA: OnceLock<Vec<Corpus>> = OnceLock::new();
    CORPORA.get_or_init(corpus::all)
}

fn bytes_of(n: usize) -> Throughput {
    Throughput::Bytes(n as u64)
}

/// Runs `f` on `input` as `<implementation>/<corpus>`, throughput `bytes`.
fn run<I: ?Sized>(g: &mut Group, imp: &str, corpus: &str, bytes: usize, input: &I, mut f: impl FnMut(&I)) {
    g.throughput(bytes_of(bytes));
    g.bench_with_input(BenchmarkId::new(imp, corpus), input, |b, i| b.iter(|| f(black_box(i))));
}

// ---------------------------------------------------------------- validate

fn validate_codec<C: Codec + Default>(g: &mut Group, c: &Corpus) {
    let name = &C::info().name;
    let e = Encoded::<C>::new(c);
    // `simd`: the best validation kernel (what `Decoder::validate` runs); for
    // utf8 also each other one the machine has.
    let isas: Vec<Isa> = Isa::all().into_iter().flatten().collect();
    for (i, &isa) in isas.iter().enumerate().take(if name == "utf8" { isas.len() } else { 1 }) {
        if C::dfa().simd().is_some() {
            let id = if i == 0 { "simd".to_string() } else { format!("simd-{}", isa.name()) };
            run(g, &implementation(name, &id), c.name, e.bytes.len(), &e.bytes[..], |b| {
                black_box(C::dfa().validate_simd(isa, b).is_some_and(|r| r.is_ok()));
            });
        }
    }
    run(g, &implementation(name, "table"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        black_box(C::dfa().validate_scalar(b).is_ok());
    });
    run(g, &implementation(name, "branching"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        black_box(C::Branching::default().validate(b).is_ok());
    });
}

fn validate(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("validate");
    for c in corpora() {
        let bytes = c.utf8();
        let n = bytes.len();
        let b = &bytes[..];
        run(&mut g, "std", c.name, n, b, |b| assert!(std::str::from_utf8(b).is_ok()));
        run(&mut g, "simdutf8-basic", c.name, n, b, |b| assert!(simdutf8::basic::from_utf8(b).is_ok()));
        run(&mut g, "simdutf8-compat", c.name, n, b, |b| assert!(simdutf8::compat::from_utf8(b).is_ok()));
        run(&mut g, "encoding_rs", c.name, n, b, |b| assert_eq!(encoding_rs::Encoding::utf8_valid_up_to(b), b.len()));
        run(&mut g, "hoehrmann-c", c.name, n, b, |b| assert!(hoehrmann::validate(b)));
        for_each_codec!(validate_codec(&mut g, c));
    }
    g.finish();
}

// ---------------------------------------------------------------- decode

fn decode_codec<C: Codec + Default>(g: &mut Group, c: &Corpus) {
    let name = &C::info().name;
    let e = Encoded::<C>::new(c);
    let mut out = Vec::with_capacity(e.values.len());
    // The table decoder: where the SIMD decoding kernel reads the codec, its
    // `decode_into` decodes behind SIMD validation (`simd-unchecked` below).
    let shaped = C::dfa().decoding_shape().is_some();
    run(g, &implementation(name, "table"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        out.clear();
        match shaped {
            true => C::dfa().decode_table_into(b, &mut out),
            false => C::default().decode_into(b, &mut out),
        }
        .unwrap();
        black_box(out.len());
    });
    run(g, &implementation(name, "branching"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        out.clear();
        C::Branching::default().decode_into(b, &mut out).unwrap();
        black_box(out.len());
    });
    if C::dfa().simd().is_some() && C::dfa().facts().continuation_bits != 0 {
        run(g, &implementation(name, "simd-unchecked"), c.name, e.bytes.len(), &e.bytes[..], |b| {
            out.clear();
            C::dfa().decode_validated_into(b, &mut out).unwrap();
            black_box(out.len());
        });
    }
}

fn decode(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("decode");
    for c in corpora() {
        let bytes = c.utf8();
        let n = bytes.len();
        let b = &bytes[..];
        let text = std::str::from_utf8(b).unwrap();
        let mut out: Vec<u32> = Vec::with_capacity(n);
        run(&mut g, "std", c.name, n, b, |b| {
            out.clear();
            out.extend(std::str::from_utf8(b).unwrap().chars().map(u32::from));
            black_box(out.len());
        });
        run(&mut g, "std-chars", c.name, n, text, |s| {
            out.clear();
            out.extend(s.chars().map(u32::from));
            black_box(out.len());
        });
        let mut utf16 = vec![0u16; n + 1];
        run(&mut g, "encoding_rs", c.name, n, b, |b| {
            let mut d = encoding_rs::UTF_8.new_decoder_without_bom_handling();
            let (result, read, written) = d.decode_to_utf16_without_replacement(b, &mut utf16, true);
            assert_eq!((result, read), (encoding_rs::DecoderResult::InputEmpty, b.len()));
            black_box(written);
        });
        run(&mut g, "hoehrmann-c", c.name, n, b, |b| {
            hoehrmann::decode_into(b, &mut out).unwrap();
            black_box(out.len());
        });
        run(&mut g, "naive", c.name, n, b, |b| {
            naive::decode_into(b, &mut out).unwrap();
            black_box(out.len());
        });
        for_each_codec!(decode_codec(&mut g, c));
    }
    g.finish();
}

// ---------------------------------------------------------------- decode_lossy

fn lossy_codec<C: Codec + Default>(g: &mut Group, mixed: &Corpus) {
    let name = &C::info().name;
    let bad = Encoded::<C>::mutated(mixed);
    lossy_strategies::<C>(g, &implementation(name, ""), corpus::MUTATED, &bad);
}

/// `table` and `branching` lossy decoding of `bytes` (`prefix` names the codec).
fn lossy_strategies<C: Codec + Default>(g: &mut Group, prefix: &str, corpus: &str, bytes: &[u8]) {
    let mut out = Vec::with_capacity(bytes.len());
    run(g, &format!("{prefix}table"), corpus, bytes.len(), bytes, |b| {
        out.clear();
        C::default().decode_lossy_into(b, &mut out);
        black_box(out.len());
    });
    run(g, &format!("{prefix}branching"), corpus, bytes.len(), bytes, |b| {
        out.clear();
        C::Branching::default().decode_lossy_into(b, &mut out);
        black_box(out.len());
    });
}

fn decode_lossy(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("decode_lossy");
    let mutated = corpus::mutated_utf8();
    let mut inputs: Vec<(&str, Vec<u8>)> = vec![(corpus::MUTATED, mutated)];
    inputs.extend(corpora().iter().map(|c| (c.name, c.utf8())));
    for (name, bytes) in &inputs {
        let n = bytes.len();
        let b = &bytes[..];
        let mut out: Vec<u32> = Vec::with_capacity(n);
        run(&mut g, "std", name, n, b, |b| {
            out.clear();
            out.extend(String::from_utf8_lossy(b).chars().map(u32::from));
            black_box(out.len());
        });
        let mut utf16 = vec![0u16; n + 1];
        run(&mut g, "encoding_rs", name, n, b, |b| {
            let mut d = encoding_rs::UTF_8.new_decoder_without_bom_handling();
            let (result, read, written, _) = d.decode_to_utf16(b, &mut utf16, true);
            assert_eq!((result, read), (encoding_rs::CoderResult::InputEmpty, b.len()));
            black_box(written);
        });
        lossy_strategies::<placemat_benches::codecs::Utf8>(&mut g, "", name, b);
    }
    let mixed = corpora().iter().find(|c| c.name == "mixed").expect("mixed corpus");
    fn others<C: Codec + Default>(g: &mut Group, mixed: &Corpus) {
        if C::info().name != "utf8" {
            lossy_codec::<C>(g, mixed);
        }
    }
    for_each_codec!(others(&mut g, mixed));
    g.finish();
}

// ---------------------------------------------------------------- step

/// Sums the values of `bytes` read one at a time by `step` (a sequence's
/// value and length), as a parser reads one value: no bulk loop.
fn sum_steps<V: Value>(bytes: &[u8], step: impl Fn(&[u8]) -> Step<V>) -> u64 {
    let (mut pos, mut sum) = (0, 0u64);
    while let Step::Value { value, len } = step(&bytes[pos..]) {
        sum = sum.wrapping_add(value.to_u64());
        pos += len;
    }
    sum
}

/// One value at a time: `table` (the table walker, [`Codec::Table`]),
/// `branching` ([`Codec::Branching`]) and `codec` (the codec type's own
/// `step`, which runs the faster of the two).
fn step_codec<C: Codec + Default>(g: &mut Group, c: &Corpus) {
    let name = &C::info().name;
    let e = Encoded::<C>::new(c);
    run(g, &implementation(name, "table"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        black_box(sum_steps(b, |i| C::Table::default().step(i)));
    });
    run(g, &implementation(name, "branching"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        black_box(sum_steps(b, |i| C::Branching::default().step(i)));
    });
    run(g, &implementation(name, "codec"), c.name, e.bytes.len(), &e.bytes[..], |b| {
        black_box(sum_steps(b, |i| C::default().step(i)));
    });
}

fn step(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("step");
    let mixed = corpora().iter().find(|c| c.name == "mixed").expect("the mixed corpus");
    for_each_codec!(step_codec(&mut g, mixed));
    g.finish();
}

// ---------------------------------------------------------------- encode

fn encode_codec<C: Codec + Default>(g: &mut Group, c: &Corpus) {
    let name = &C::info().name;
    let e = Encoded::<C>::new(c);
    let mut buf = vec![0u8; C::default().max_encoded_len(e.values.len())];
    run(g, &implementation(name, "encoder"), c.name, e.bytes.len(), &e.values[..], |values| {
        let codec = C::default();
        let mut pos = 0;
        for &v in values {
            pos += codec.encode(v, &mut buf[pos..]).unwrap();
        }
        black_box(pos);
    });
}

fn encode(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("encode");
    for c in corpora() {
        let n = c.utf8_len();
        let chars: Vec<char> = c.chars().collect();
        let mut s = String::with_capacity(n);
        run(&mut g, "std", c.name, n, &chars[..], |chars| {
            s.clear();
            for &ch in chars {
                s.push(ch);
            }
            black_box(s.len());
        });
        let mut buf = vec![0u8; 4 * chars.len()];
        run(&mut g, "std-encode_utf8", c.name, n, &chars[..], |chars| {
            let mut pos = 0;
            for &ch in chars {
                pos += ch.encode_utf8(&mut buf[pos..]).len();
            }
            black_box(pos);
        });
        let mut out = Vec::with_capacity(4 * chars.len());
        run(&mut g, "encode_all", c.name, n, &c.text[..], |values| {
            out.clear();
            placemat_benches::codecs::Utf8.encode_all(values, &mut out).unwrap();
            black_box(out.len());
        });
        for_each_codec!(encode_codec(&mut g, c));
    }
    g.finish();
}

// ------------------------------------------------------------------ utf16

/// `placemat transcode --from utf16le --to utf8` and back, and UTF-16
/// validation, beside encoding_rs and std. Ids `<direction>-<implementation>`:
/// `to_utf8` (UTF-16LE bytes in, UTF-8 out), `from_utf8` (UTF-8 in, UTF-16LE
/// out), `validate` (UTF-16LE bytes). `transcoder` is the CLI's engine
/// (`placemat_codec::io::Transcoder`: ASCII runs, blocks of values, one value
/// at a time where those stop);
/// `generated` decodes with one codec's `decode_into` into values (utf8's
/// behind SIMD validation, utf16le's the table walker) and encodes them with
/// the other's generated encoder.
fn utf16(cr: &mut Criterion) {
    use placemat_codec::io::{ErrorMode, Transcoder};
    use placemat_variants::codecs::{Utf16Le, Utf8};
    let mut g = cr.benchmark_group("utf16");
    for c in corpora() {
        let text: String = c.chars().collect();
        let units: Vec<u16> = text.encode_utf16().collect();
        let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let (mut out, mut values, mut wide) = (Vec::new(), Vec::new(), vec![0u16; text.len() + 1]);
        run(&mut g, "to_utf8-encoding_rs", c.name, le.len(), &le[..], |b| {
            black_box(encoding_rs::UTF_16LE.decode_without_bom_handling_and_without_replacement(b).map(|s| s.len()));
        });
        run(&mut g, "to_utf8-transcoder", c.name, le.len(), &le[..], |b| {
            out.clear();
            let mut t = Transcoder::new(&Utf16Le, &Utf8, ErrorMode::Strict).unwrap();
            t.push(b, &mut out).unwrap();
            t.finish(&mut out).unwrap();
            black_box(out.len());
        });
        run(&mut g, "to_utf8-generated", c.name, le.len(), &le[..], |b| {
            values.clear();
            out.clear();
            Utf16Le.decode_into(b, &mut values).unwrap();
            Utf8.encode_all(&values, &mut out).unwrap();
            black_box(out.len());
        });
        run(&mut g, "from_utf8-encoding_rs", c.name, text.len(), text.as_str(), |s| {
            black_box(encoding_rs::mem::convert_str_to_utf16(s, &mut wide));
        });
        run(&mut g, "from_utf8-transcoder", c.name, text.len(), text.as_bytes(), |b| {
            out.clear();
            let mut t = Transcoder::new(&Utf8, &Utf16Le, ErrorMode::Strict).unwrap();
            t.push(b, &mut out).unwrap();
            t.finish(&mut out).unwrap();
            black_box(out.len());
        });
        run(&mut g, "from_utf8-generated", c.name, text.len(), text.as_bytes(), |b| {
            values.clear();
            out.clear();
            Utf8.decode_into(b, &mut values).unwrap();
            Utf16Le.encode_all(&values, &mut out).unwrap();
            black_box(out.len());
        });
        run(&mut g, "validate-std", c.name, le.len(), &units[..], |u| {
            black_box(String::from_utf16(u).is_ok());
        });
        run(&mut g, "validate-table", c.name, le.len(), &le[..], |b| {
            black_box(Utf16Le.validate(b).is_ok());
        });
        run(&mut g, "validate-branching", c.name, le.len(), &le[..], |b| {
            black_box(<Utf16Le as Codec>::Branching::default().validate(b).is_ok());
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = placemat_benches::config();
    targets = validate, decode, decode_lossy, encode, utf16, step
}
criterion_main!(benches);
