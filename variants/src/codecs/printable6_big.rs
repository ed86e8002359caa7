//! `printable6-big`: the 6-bit printable continuation-bit encoding for
//! non-negative integers of any size.
//!
//! ```
//! use placemat_codec::big::BigUint;
//! use placemat_codec::{Codec, Decoder, Encoder, Step};
//! use placemat_variants::codecs::Printable6Big;
//! // 2^100 takes 21 units; it comes back exactly.
//! let big = BigUint::from(1u32) << 100u32;
//! let mut out = Vec::new();
//! Printable6Big.encode_big(&big, &mut out).unwrap();
//! assert_eq!(out.len(), 21);
//! assert_eq!(Printable6Big.step_big(&out), Step::Value { value: big, len: 21 });
//! // Values that fit 64 bits take the plain-integer path.
//! assert_eq!(Printable6Big.decode(b"HEl").unwrap(), [0x20AC]);
//! ```
//!
//! The units, the alphabet and the pre-mapping of code points 0–127 are those of
//! [`crate::codecs::Printable6`]; only the range differs: `0 ..`, so surrogates and
//! values above U+10FFFF are ordinary values here. The automaton has a loop (any
//! number of non-final units), and decoders accumulate in a `u64` until a value
//! outgrows it.
//!
//! # Lineage
//! Ken Takusagawa, "Sort of UTF-6" (2018: "values of arbitrary size");
//! `papers/specs/encodings.md#printable6-big`.

placemat_macros::codec!(file = "descriptions/printable6-big.placemat");
