//! Bulk decoding of length-prefixed integer streams (`placemat_codec::Prefixed`,
//! one load per value) against the reference interpreter: which codecs the
//! compiler finds prefixed, the fact's one-value step at every offset of
//! random and damaged input, and streams of every length decoded whole, as
//! a prefix and by the codec loaded at run time (the flagged streams' checks).

use placemat_codec::{Decoder, Encoder, Step};
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
