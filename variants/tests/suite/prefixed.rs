//! Bulk decoding of length-prefixed integer streams (`placemat_codec::Prefixed`,
//! one load per value) against the reference interpreter: which codecs the
//! compiler finds prefixed, the fact's one-value step at every offset of
//! random and damaged input, and streams of every length decoded whole, as
//! a prefix and by the codec loaded at run time (the flagged streams' checks).

use placemat_codec::{Codec, Decoder, DynCodec, Encoder, Step};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::QuicVarint;
use placemat_variants::registry;

use crate::common::{strategies, xorshift};

#[test]
fn the_prefixed_codecs_are_the_integer_codecs_whose_first_unit_gives_the_length() {
    let prefixed: Vec<String> =
        registry::all().iter().filter(|c| c.info().prefixed.is_some()).map(|c| c.info().name.to_string()).collect();
    assert_eq!(prefixed, ["quic-varint"]);
    for codec in registry::all() {
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        assert_eq!(loaded.info().prefixed, codec.info().prefixed, "{}", codec.info().name);
    }
    let quic = QuicVarint::PREFIXED;
    assert_eq!((quic.shift, &quic.lengths[..4], quic.hi[3]), (6, &[1u8, 2, 4, 8][..], 0x3FFF_FFFF_FFFF_FFFF));
}

#[test]
fn quic_varint_streams() {
    crate::flagged::streams::<QuicVarint>();
}

/// Where the fact decodes a value, the reference decodes the same value of
/// the same length, at every offset of random bytes and of valid streams of
/// random widths, cut anywhere; and on a valid stream the fact leaves none
/// of its values to the step but those the input's end cuts.
#[test]
fn the_facts_step_agrees_with_the_reference_at_every_offset() {
    let reference = &strategies::<QuicVarint>()[5];
    assert_eq!(reference.name, "reference");
    let fact = QuicVarint::PREFIXED;
    let mut next = xorshift(0x9E37_79B9);
    let mut valid = Vec::new();
    for _ in 0..2000 {
        let bits = next() % 63;
        let _ = QuicVarint.encode_push(next() >> (63 - bits) >> 1, &mut valid);
    }
    let random: Vec<u8> = (0..4000).map(|_| next() as u8).collect();
    for input in [&valid[..], &random[..]] {
        for at in 0..input.len() {
            for end in [input.len(), (at + 1 + (next() % 9) as usize).min(input.len())] {
                let rest = &input[at..end];
                let want = (reference.step)(rest);
                match fact.step(rest) {
                    Some((value, len)) => assert_eq!(want, Step::Value { value, len }, "at {at} of {rest:02X?}"),
                    // Only a value cut by the end is left on a valid stream.
                    None => assert!(
                        !matches!(want, Step::Value { .. }) || input.as_ptr() == random.as_ptr(),
                        "the fact leaves a whole value at {at}: {want:?}"
                    ),
                }
            }
        }
    }
    // The codec's bulk call decodes the stream whole.
    let mut values = Vec::new();
    QuicVarint.decode_into(&valid, &mut values).unwrap();
    assert_eq!(values.len(), 2000);
}

/// `encode_into` of the codec type (the SIMD kernel where the machine has
/// one, the encoder for each value it leaves) against the encoder one
/// value at a time, on values of random widths, with room for all and with
/// too little: the same units, or the same error at the same value after
/// the same units, and nothing written past them; `DynCodec::encode_block`
/// of the codec and of its description loaded at run time, the same. Then the kernel alone
/// (`placemat_simd::encode_prefixed`) for QUIC and the descriptions whose
/// tags keep their own ranges, each value it leaves written by the loaded
/// codec's encoder: the same units as that encoder one by one, up to the
/// first value it refuses.
#[test]
fn the_simd_encoder_agrees_with_the_encoder() {
    use crate::flagged::one_by_one;
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut random = |n: u64| -> Vec<u64> { (0..n).map(|_| next() >> (next() % 64)).collect() };
    let loaded_quic = LoadedCodec::from_text(<QuicVarint as Codec>::DESCRIPTION).unwrap();
    for round in 0..300u64 {
        let values = random(round % 90);
        let room = QuicVarint.max_encoded_len(values.len());
        let room = if round % 3 == 0 { (round as usize * 7) % (room + 1) } else { room };
        let mut got = vec![0xEEu8; room];
        let result = QuicVarint.encode_into(&values, &mut got);
        let mut want = vec![0u8; room];
        assert_eq!(result, one_by_one(&QuicVarint, &values, &mut want), "round {round}: room {room} for {values:?}");
        let written = result.unwrap_or_else(|e| e.written);
        assert_eq!(got[..written], want[..written], "round {round}");
        assert!(got[written..].iter().all(|&b| b == 0xEE), "round {round}: written past {written}");
        // Behind `DynCodec`, compiled and loaded: the same units.
        if round % 3 != 0 {
            for dynamic in [&QuicVarint as &dyn DynCodec, &loaded_quic] {
                let mut bytes = Vec::new();
                assert_eq!(dynamic.encode_block(None, &values, &mut bytes), result.map(|_| ()).map_err(|e| e.index));
                assert_eq!(bytes, want[..written], "round {round}: encode_block");
            }
        }
    }
    let quic = LoadedCodec::from_text(<QuicVarint as Codec>::DESCRIPTION).unwrap();
    let loaded: Vec<LoadedCodec> = std::iter::once(quic)
        .chain(crate::prefixed_descriptions::RANGED.iter().map(|text| LoadedCodec::from_text(text).unwrap()))
        .collect();
    for isa in encoders() {
        for codec in &loaded {
            let tags = codec.info().prefixed.expect("a prefixed codec").tags();
            let name = &codec.info().name;
            for round in 0..200u64 {
                let values = random(round % 90);
                let mut out = vec![0u8; codec.max_encoded_len(values.len())];
                let other = |v, out: &mut [u8]| codec.encode(v, out).ok();
                let (done, written) = placemat_codec::simd::encode_prefixed(isa, &tags, &values, &mut out, other);
                let mut want = vec![0u8; out.len()];
                let expected = one_by_one(codec, &values, &mut want);
                let stop = expected.as_ref().map_or_else(|e| e.index, |_| values.len());
                assert_eq!(done, stop, "{name} round {round}: {values:?}");
                assert_eq!(out[..written], want[..written], "{name} round {round}: {values:?}");
                assert_eq!(written, expected.unwrap_or_else(|e| e.written), "{name} round {round}");
            }
        }
    }
}

/// The instruction sets with a length-prefix encoder on this machine.
fn encoders() -> Vec<placemat_codec::simd::Isa> {
    let quic = QuicVarint::PREFIXED.tags();
    let all = placemat_codec::simd::Isa::all();
    all.into_iter().flatten().filter(|&isa| placemat_codec::simd::encodes_prefixed_on(isa, &quic)).collect()
}
