//! The integer streams' SIMD kernels against their facts' one-value steps
//! and the reference interpreter: flagged streams
//! (`placemat_simd::decode_flagged`: LEB128, VLQ, SQLite's, …) and
//! length-prefixed ones (`placemat_simd::decode_prefixed`: QUIC and two
//! more descriptions), on every instruction set the machine has, NEON
//! included under emulation (`.ci/aarch64`).

use placemat_codec::{Codec, Decoder, Encoder, Step, Value};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::{GitOfs, Leb128, ProtobufSint64, QuicVarint, Sleb128, SqliteVarint, Vlq};

use crate::rng::xorshift;

/// The SIMD kernels (`placemat_simd::decode_flagged`, with AVX-512, AVX2
/// and SSE4.1 where the machine has them beside BMI2, NEON, and
/// `decode_flagged_into`, which writes a `Vec`'s spare room) against the
/// table walker's steps, as raw values, while each is no longer than the
/// fact's lengths (up to ten units): on streams of values of random widths,
/// some damaged, and on ten-unit values whose last unit holds bits past 64,
/// its values are the steps' first ones, and it stops only where a step
/// would not take the next value, where fewer than 72 units are left, or
/// where the slots run out. Each must take a stream of short values nearly
/// whole. The fact's word decoder (`Flagged::step`, up to eight units)
/// agrees with the same steps wherever it reads a value.
fn kernel_agrees_with_the_steps<C: Codec + Default>() {
    let codec = C::default();
    let name = &C::info().name;
    let flagged = C::info().flagged.expect("a flagged codec");
    let marks = flagged.marks();
    let table = C::Table::default();
    // The fact's values are raw: ZigZag's are mapped back.
    let (sign, bits) = (C::info().sign.filter(|_| !marks.signed), C::info().value_bits);
    let step = |rest: &[u8]| match table.step(rest) {
        Step::Value { value, len } if len <= usize::from(marks.lengths) => {
            let v = value.to_u64();
            let raw = sign.map_or(Some(v), |s| s.raw(v, bits)).expect("a raw value");
            if let Some(word) = flagged.step(rest) {
                assert_eq!(word, (raw, len), "{name}: the word decoder at {rest:02X?}");
            }
            Some((raw, len))
        }
        _ => None,
    };
    let check = |round: usize, input: &[u8], room: usize| {
        let mut want = Vec::new();
        let mut pos = 0;
        while let Some((value, len)) = step(&input[pos..]) {
            want.push(value);
            pos += len;
        }
        let room = room.min(want.len() + 8);
        for isa in flagged_kernels() {
            let mut out = vec![0u64; room];
            let (values, units) = placemat_codec::simd::decode_flagged(isa, &marks, input, &mut out);
            assert_eq!(out[..values], want[..values.min(want.len())], "{name} round {round} {isa:?}");
            // The same into a `Vec`'s spare room, after what it holds.
            let mut vec = vec![7u64];
            let got = placemat_codec::simd::decode_flagged_into(isa, &marks, input, room, &mut vec, |_| None);
            assert_eq!(
                (got, &vec[1..], vec[0]),
                ((values, units), &out[..values], 7),
                "{name} round {round} {isa:?} into a Vec"
            );
            let taken: usize = (0..values).fold(0, |at, _| at + step(&input[at..]).unwrap().1);
            assert_eq!(units, taken, "{name} round {round} {isa:?}");
            let stopped_at_a_value = step(&input[units..]).is_none();
            assert!(
                stopped_at_a_value || units + 72 > input.len() || values == room,
                "{name} round {round} {isa:?}: stopped at {units}"
            );
        }
    };
    let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
    for round in 0..300 {
        let mut input = Vec::new();
        for _ in 0..next() % 200 {
            let v = next() >> (next() % 64);
            if let Some(v) = <C as Encoder>::Value::from_u64(v) {
                let _ = codec.encode_push(v, &mut input);
            }
        }
        if round % 3 == 1 && !input.is_empty() {
            let at = (next() as usize) % input.len();
            input[at] = next() as u8;
        }
        // Whole, with the codec's step for what the kernel does not cover,
        // as the table walker decodes it.
        assert_eq!(codec.decode(&input), table.decode(&input), "{name} round {round}: decode");
        let room = if round % 5 == 0 { (next() % 40) as usize } else { usize::MAX };
        check(round, &input, room);
    }
    // Ten units whose last holds bits past 64 (or, signed, not copies of
    // bit 63), amid one-unit values, at each offset of a word.
    if marks.lengths == 10 {
        for (k, last) in [0x00u8, 0x01, 0x02, 0x03, 0x40, 0x7E, 0x7F].into_iter().enumerate() {
            for offset in 0..8 {
                let mut input = vec![0x01; 64 + offset];
                input.extend(std::iter::repeat_n(0xFF, 9));
                input.push(last);
                input.extend([0x01; 80]);
                check(300 + 8 * k + offset, &input, usize::MAX);
            }
        }
    }
    let mut short = Vec::new();
    for v in 0..1000u64 {
        if let Some(v) = <C as Encoder>::Value::from_u64(v % 100) {
            let _ = codec.encode_push(v, &mut short);
        }
    }
    for isa in flagged_kernels() {
        let (_, units) = placemat_codec::simd::decode_flagged(isa, &marks, &short, &mut [0u64; 1000]);
        assert!(units + 72 + 8 >= short.len(), "{name} {isa:?}: the kernel took {units} of {} units", short.len());
    }
}

/// The instruction sets with a flagged-stream kernel on this machine.
/// NEON must be one of them on aarch64.
fn flagged_kernels() -> Vec<placemat_codec::simd::Isa> {
    let all = placemat_codec::simd::Isa::all();
    let on: Vec<_> = all.into_iter().flatten().filter(|&isa| placemat_codec::simd::flagged_on(isa)).collect();
    if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
        assert_eq!(on, [placemat_codec::simd::Isa::Neon]);
    }
    on
}

#[test]
fn the_flagged_kernel_agrees_with_the_steps() {
    kernel_agrees_with_the_steps::<Leb128>();
    kernel_agrees_with_the_steps::<Vlq>();
    kernel_agrees_with_the_steps::<GitOfs>();
    kernel_agrees_with_the_steps::<SqliteVarint>();
    kernel_agrees_with_the_steps::<Sleb128>();
    kernel_agrees_with_the_steps::<ProtobufSint64>();
}

/// The SIMD kernel (`placemat_simd::decode_prefixed` where the machine has
/// AVX-512, into slots of `u64` and of `u32`, and `decode_prefixed_into`,
/// which writes a `Vec`'s spare room) against the fact's own one-value
/// step (`Prefixed::step`): on streams of values of random widths, some
/// damaged, its values are the steps' first ones, and it stops only where a
/// step would not take the next value, where fewer than 72 units are left,
/// or where the slots run out. It must take a stream of short values
/// nearly whole. Then the codec decodes each stream as the reference
/// interpreter does, with the kernel inside.
#[test]
fn the_prefixed_kernel_agrees_with_the_steps() {
    let quic = LoadedCodec::from_text(<QuicVarint as Codec>::DESCRIPTION).unwrap();
    let loaded: Vec<LoadedCodec> = std::iter::once(quic)
        .chain(crate::prefixed_descriptions::RANGED.iter().map(|text| LoadedCodec::from_text(text).unwrap()))
        .collect();
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    for codec in &loaded {
        let fact = codec.info().prefixed.expect("a prefixed codec");
        let tags = fact.tags();
        let name = &codec.info().name;
        let reference = placemat_compiler::reference::Reference::new(codec.model());
        for round in 0..300 {
            let mut input = Vec::new();
            for _ in 0..next() % 300 {
                let _ = codec.encode_push(next() >> (next() % 64), &mut input);
            }
            if round % 3 == 1 && !input.is_empty() {
                let at = (next() as usize) % input.len();
                input[at] = next() as u8;
            }
            let mut want = Vec::new();
            let mut pos = 0;
            while let Some((value, len)) = fact.step(&input[pos..]) {
                want.push(value);
                pos += len;
            }
            let room = if round % 5 == 0 { (next() % 40) as usize } else { want.len() + 8 };
            for isa in prefixed_kernels() {
                let mut out = vec![0u64; room];
                let (values, units) = placemat_codec::simd::decode_prefixed(isa, &tags, &input, &mut out);
                assert_eq!(out[..values], want[..values], "{name} round {round}");
                let mut narrow = vec![0u32; room];
                let got = placemat_codec::simd::decode_prefixed(isa, &tags, &input, &mut narrow);
                let low: Vec<u32> = want[..values].iter().map(|&v| v as u32).collect();
                assert_eq!((got, &narrow[..values]), ((values, units), &low[..]), "{name} round {round}: u32");
                let mut vec = vec![7u64];
                let got = placemat_codec::simd::decode_prefixed_into(isa, &tags, &input, room, &mut vec, |_| None);
                assert_eq!((got, &vec[1..], vec[0]), ((values, units), &out[..values], 7), "{name} round {round}");
                let taken: usize = (0..values).fold(0, |at, _| at + fact.step(&input[at..]).unwrap().1);
                assert_eq!(units, taken, "{name} round {round}");
                let stopped_at_a_value = fact.step(&input[units..]).is_none();
                assert!(
                    stopped_at_a_value || units + 72 > input.len() || values == room,
                    "{name} round {round}: stopped at {units} of {}",
                    input.len()
                );
            }
            // The codec, kernel inside, against the reference interpreter.
            let mut at = 0;
            let mut values = Vec::new();
            let stop = loop {
                match reference.step(&input[at..]) {
                    Step::Value { value, len } => {
                        values.push(u64::try_from(value).unwrap());
                        at += len;
                    }
                    _ if at == input.len() => break None,
                    _ => break Some(at),
                }
            };
            let mut got = Vec::new();
            let result = codec.decode_into(&input, &mut got).map_err(|e| e.valid_up_to());
            assert_eq!((got, result), (values, stop.map_or(Ok(()), Err)), "{name} round {round}: decode_into");
        }
        let mut short = Vec::new();
        for v in 0..1000u64 {
            let _ = codec.encode_push(v % 100, &mut short);
        }
        for isa in prefixed_kernels() {
            let (_, units) = placemat_codec::simd::decode_prefixed(isa, &tags, &short, &mut [0u64; 1000]);
            assert!(units + 72 + 8 >= short.len(), "{name} {isa:?}: the kernel took {units} of {}", short.len());
        }
    }
}

/// The instruction sets with a length-prefix kernel on this machine.
/// NEON must be one of them on aarch64.
fn prefixed_kernels() -> Vec<placemat_codec::simd::Isa> {
    let all = placemat_codec::simd::Isa::all();
    let on: Vec<_> = all.into_iter().flatten().filter(|&isa| placemat_codec::simd::prefixed_on(isa)).collect();
    if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
        assert_eq!(on, [placemat_codec::simd::Isa::Neon]);
    }
    on
}
