//! The `varints` group: integer codecs against the crates a user would pick
//! instead, on streams of 2^20 values in two distributions
//! ([`Distribution`]). Ids are `<codec>:<job>:<implementation>/<distribution>`:
//!
//! - job `step`: one value at a time, as a parser reads (placemat's codec
//!   type, and its branching and table decoders alone; `prost`,
//!   `integer-encoding`, `unsigned-varint` and `leb128` for LEB128;
//!   `octets` and `quinn-proto` for QUIC; a port of SQLite's reader; the
//!   `leb128` crate's signed reader for SLEB128, and integer-encoding's
//!   `i64` and prost's varint with ZigZag for `protobuf-sint64`);
//! - job `bulk`: every value of the stream (`decode_into`, the fastest, and
//!   for LEB128 the flagged-stream kernel of each instruction set alone;
//!   the branching decoder's bulk loop; `decode_prefix_into` and
//!   `decode_prefix` into a slice; `varint-simd` with its feature);
//! - job `encode`: every value into a buffer.
//!
//! Throughput is bytes of the encoded stream. Every implementation's sum of
//! values is checked against placemat's before it is timed. The signed
//! codecs' streams negate every other value (`i64` values, and 64-bit
//! patterns for the crates' functions).
//! `PLACEMAT_BENCH_QUICK=1` shortens the run (2^16 values).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use placemat_cli::baselines::{self, sqlite};
use placemat_codec::{Codec, Decoder, Encoder, Step, Value};
use placemat_variants::codecs::{Leb128, ProtobufSint64, QuicVarint, Sleb128, SqliteVarint};
use placemat_variants::corpus::integers::Distribution;

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

use placemat_cli::baselines::Read;

/// One codec's stream: its values (of the codec's type), their encoding
/// (padded with 16 zero bytes after `len` for readers that load 16 bytes at
/// a time) and the sum of their 64-bit views.
struct Stream<V> {
    codec: String,
    dist: Distribution,
    values: Vec<V>,
    bytes: Vec<u8>,
    len: usize,
    sum: u64,
}

impl<V: Value> Stream<V> {
    /// Values of `dist` up to `bits` bits; a signed codec's every other one
    /// negated.
    fn new<C: Codec + Encoder<Value = V> + Default>(dist: Distribution, bits: u32) -> Self {
        let n = if placemat_benches::quick() { 1 << 16 } else { 1 << 20 };
        let sign = |(i, v): (usize, u64)| if V::SIGNED && i % 2 == 1 { v.wrapping_neg() } else { v };
        let values: Vec<V> =
            dist.values(n, bits).into_iter().enumerate().map(sign).map(|v| V::from_u64(v).expect("fits")).collect();
        let mut bytes = Vec::new();
        C::default().encode_all(&values, &mut bytes).expect("every value drawn is encodable");
        let len = bytes.len();
        bytes.resize(len + 16, 0);
        let sum = values.iter().fold(0u64, |s, &v| s.wrapping_add(v.to_u64()));
        Stream { codec: C::info().name.to_string(), dist, values, bytes, len, sum }
    }

    fn input(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn run<I: ?Sized>(&self, g: &mut Group, job: &str, imp: &str, input: &I, mut f: impl FnMut(&I) -> u64) {
        let id = BenchmarkId::new(format!("{}:{job}:{imp}", self.codec), self.dist.name());
        g.throughput(Throughput::Bytes(self.len as u64));
        g.bench_with_input(id, input, |b, i| b.iter(|| f(black_box(i))));
    }

    /// Times `read` one value at a time over the stream, after checking its sum.
    fn steps(&self, g: &mut Group, imp: &str, read: impl Fn(&[u8]) -> Read) {
        let sum = |bytes: &[u8]| {
            let (mut pos, mut sum) = (0, 0u64);
            while pos < self.len {
                let Some((value, len)) = read(&bytes[pos..]) else { break };
                sum = sum.wrapping_add(value);
                pos += len;
            }
            sum
        };
        assert_eq!(sum(&self.bytes), self.sum, "{}: {imp} reads the stream", self.codec);
        self.run(g, "step", imp, &self.bytes[..], sum);
    }

    /// Times `write` of every value into a buffer of room enough, after
    /// checking that it writes the stream.
    fn encodes(&self, g: &mut Group, imp: &str, write: impl Fn(u64, &mut [u8]) -> usize) {
        self.encodes_typed(g, imp, |v: V, out| write(v.to_u64(), out));
    }

    /// [`Stream::encodes`] by a writer of the codec's value type.
    fn encodes_typed(&self, g: &mut Group, imp: &str, write: impl Fn(V, &mut [u8]) -> usize) {
        let mut out = vec![0u8; self.values.len() * 10 + 16];
        let all = |values: &[V], out: &mut [u8]| {
            let mut pos = 0;
            for &v in values {
                pos += write(v, &mut out[pos..]);
            }
            pos
        };
        assert_eq!(all(&self.values, &mut out), self.len, "{}: {imp} writes the stream", self.codec);
        assert_eq!(out[..self.len], self.bytes[..self.len], "{}: {imp}'s units", self.codec);
        self.run(g, "encode", imp, &self.values[..], |v| all(v, &mut out) as u64);
    }

    /// placemat's own readers and writers of the stream.
    fn placemat<C: Codec + Encoder<Value = V> + Default>(&self, g: &mut Group) {
        let of = |s: Step<V>| match s {
            Step::Value { value, len } => Some((value.to_u64(), len)),
            _ => None,
        };
        self.steps(g, "placemat", |b| of(C::default().step(b)));
        self.steps(g, "placemat-branching", |b| of(C::Branching::default().step(b)));
        self.steps(g, "placemat-table", |b| of(C::Table::default().step(b)));
        self.bulk(g, "placemat-decode-into", |b, out| C::default().decode_into(b, out).expect("a valid stream"));
        self.bulk(g, "placemat-branching-decode-into", |b, out| {
            C::Branching::default().decode_into(b, out).expect("a valid stream")
        });
        self.bulk(g, "placemat-decode-prefix-into", |b, out| {
            C::default().decode_prefix_into(b, usize::MAX, out);
        });
        let mut slots = vec![V::from_u64_lossy(0); self.values.len()];
        C::default().decode_prefix(self.input(), &mut slots);
        assert_eq!(slots, self.values, "{}: decode_prefix", self.codec);
        self.run(g, "bulk", "placemat-decode-prefix", self.input(), |b| {
            C::default().decode_prefix(b, &mut slots).values as u64
        });
        self.encodes_typed(g, "placemat", |v, out| C::default().encode(v, out).expect("encodable"));
        let mut out = Vec::with_capacity(self.len);
        let encode_all = |v: &[V], out: &mut Vec<u8>| {
            out.clear();
            C::default().encode_all(v, out).expect("encodable");
            out.len() as u64
        };
        encode_all(&self.values, &mut out);
        assert_eq!(out, self.input(), "{}: encode_all", self.codec);
        self.run(g, "encode", "placemat-encode-all", &self.values[..], |v| encode_all(v, &mut out));
    }

    /// Times `decode` of the whole stream into a `Vec`, after checking that
    /// it gives the stream's values.
    fn bulk<T: Value>(&self, g: &mut Group, imp: &str, decode: impl Fn(&[u8], &mut Vec<T>)) {
        let mut values = Vec::with_capacity(self.values.len() + 16);
        decode(&self.bytes[..self.len], &mut values);
        let views = |v: &[T]| v.iter().map(|x| x.to_u64()).collect::<Vec<_>>();
        assert_eq!(views(&values), views_of(&self.values), "{}: {imp} reads the stream", self.codec);
        self.run(g, "bulk", imp, &self.bytes[..self.len], |b| {
            values.clear();
            decode(b, &mut values);
            values.len() as u64
        });
    }
}

/// The 64-bit views of `values`.
fn views_of<V: Value>(values: &[V]) -> Vec<u64> {
    values.iter().map(|v| v.to_u64()).collect()
}

fn leb128(g: &mut Group, dist: Distribution) {
    use baselines::leb128::*;
    let s = Stream::new::<Leb128>(dist, 64);
    s.placemat::<Leb128>(g);
    s.steps(g, "prost", prost_read);
    s.steps(g, "integer-encoding", integer_encoding_read);
    s.steps(g, "unsigned-varint", unsigned_varint_read);
    s.steps(g, "leb128", leb128_read);
    s.encodes(g, "integer-encoding", integer_encoding_write);
    s.encodes(g, "prost", prost_write);
    s.encodes(g, "unsigned-varint", unsigned_varint_write);
    s.encodes(g, "leb128", leb128_write);
    varint_simd_baselines(g, &s);
    kernels(g, &s);
}

/// LEB128's flagged-stream kernel on each instruction set that has one here
/// (`decode_into` takes the best), the values it leaves read by the codec's step
/// and the last units by `decode_prefix_into`.
fn kernels(g: &mut Group, s: &Stream<u64>) {
    use placemat_codec::simd::{decode_flagged_into, flagged_on, Isa};
    let marks = Leb128::info().flagged.as_ref().expect("leb128 is flagged").marks();
    let step = |u: &[u8]| match Leb128.step(u) {
        Step::Value { value, len } => Some((value, len)),
        _ => None,
    };
    for isa in Isa::all().into_iter().flatten().filter(|&isa| flagged_on(isa)) {
        s.bulk(g, &format!("placemat-kernel-{}", isa.name()), |b, out: &mut Vec<u64>| {
            let (_, units) = decode_flagged_into(isa, &marks, b, usize::MAX, out, step);
            Leb128.decode_prefix_into(&b[units..], usize::MAX, out);
        });
    }
}

/// SLEB128 beside the `leb128` crate's signed reader and writer.
fn sleb128(g: &mut Group, dist: Distribution) {
    use baselines::signed::*;
    let s = Stream::new::<Sleb128>(dist, 63);
    s.placemat::<Sleb128>(g);
    s.steps(g, "leb128", leb128_read);
    s.encodes(g, "leb128", leb128_write);
}

/// ZigZag varints beside integer-encoding's `i64` and prost's ZigZag.
fn protobuf_sint64(g: &mut Group, dist: Distribution) {
    use baselines::signed::*;
    let s = Stream::new::<ProtobufSint64>(dist, 63);
    s.placemat::<ProtobufSint64>(g);
    s.steps(g, "prost", prost_zigzag_read);
    s.steps(g, "integer-encoding", integer_encoding_read);
    s.encodes(g, "prost", prost_zigzag_write);
    s.encodes(g, "integer-encoding", integer_encoding_write);
}

#[cfg(feature = "varint-simd")]
fn varint_simd_baselines(g: &mut Group, s: &Stream<u64>) {
    s.steps(g, "varint-simd", |b| varint_simd::decode::<u64>(b).ok().map(|(v, n)| (v, n)));
    // Reads up to 16 bytes past a value: the stream's padding is in reach.
    let padded = |len: usize| &s.bytes[..len + 16];
    s.bulk(g, "varint-simd", |b, out| {
        let all = padded(b.len());
        let mut pos = 0;
        while pos < b.len() {
            let (v, n) = varint_simd::decode::<u64>(&all[pos..]).expect("a valid stream");
            out.push(v);
            pos += n;
        }
    });
    s.encodes(g, "varint-simd", |v, out| usize::from(varint_simd::encode_to_slice::<u64>(v, out)));
}

#[cfg(not(feature = "varint-simd"))]
fn varint_simd_baselines(_: &mut Group, _: &Stream<u64>) {}

/// quinn-proto's `VarInt::decode`.
fn quinn_read(b: &[u8]) -> Read {
    use quinn_proto::coding::Codec as _;
    baselines::by_buf(b, |r| quinn_proto::VarInt::decode(r).map(quinn_proto::VarInt::into_inner))
}

/// quinn-proto's `VarInt::encode`.
fn quinn_write(v: u64, out: &mut [u8]) -> usize {
    use quinn_proto::coding::Codec as _;
    let v = quinn_proto::VarInt::from_u64(v).expect("below 2^62");
    baselines::into_buf(out, |buf| v.encode(buf))
}

fn quic(g: &mut Group, dist: Distribution) {
    use baselines::quic::*;
    let s = Stream::new::<QuicVarint>(dist, 62);
    s.placemat::<QuicVarint>(g);
    s.steps(g, "octets", octets_read);
    s.steps(g, "quinn-proto", quinn_read);
    s.encodes(g, "octets", octets_write);
    s.encodes(g, "quinn-proto", quinn_write);
    prefixed_kernels(g, &s);
}

/// QUIC's length-prefix kernel on each instruction set that has one here
/// (`decode_into` takes the best), the values it leaves read by the
/// codec's step and the last units by `decode_prefix_into`.
fn prefixed_kernels(g: &mut Group, s: &Stream<u64>) {
    use placemat_codec::simd::{decode_prefixed_into, prefixed_on, Isa};
    let prefixed = QuicVarint::info().prefixed.expect("quic-varint is prefixed");
    let tags = prefixed.tags();
    let step = |u: &[u8]| match QuicVarint.step(u) {
        Step::Value { value, len } => Some((value, len)),
        _ => None,
    };
    for isa in Isa::all().into_iter().flatten().filter(|&isa| prefixed_on(isa)) {
        s.bulk(g, &format!("placemat-kernel-{}", isa.name()), |b, out: &mut Vec<u64>| {
            let (_, units) = decode_prefixed_into(isa, &tags, b, usize::MAX, out, step);
            QuicVarint.decode_prefix_into(&b[units..], usize::MAX, out);
        });
    }
}

fn sqlite_varint(g: &mut Group, dist: Distribution) {
    let s = Stream::new::<SqliteVarint>(dist, 64);
    s.placemat::<SqliteVarint>(g);
    s.steps(g, "sqlite-port", sqlite::get);
    s.encodes(g, "sqlite-port", sqlite::write);
}

fn varints(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("varints");
    for dist in Distribution::ALL {
        leb128(&mut g, dist);
        quic(&mut g, dist);
        sqlite_varint(&mut g, dist);
        sleb128(&mut g, dist);
        protobuf_sint64(&mut g, dist);
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = placemat_benches::config();
    targets = varints
}
criterion_main!(benches);
