//! CESU-8 and Java's modified UTF-8: UTF-8 for the Basic Multilingual Plane,
//! and a supplementary value as its UTF-16 surrogate pair, each half written as
//! a 3-byte sequence. Modified UTF-8 also writes U+0000 as `C0 80`, and, as
//! Java writes any string of UTF-16 code units, a lone surrogate on its own.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::{Cesu8, Mutf8};
//! let mut out = Vec::new();
//! Cesu8.encode_push(0x10400, &mut out).unwrap();
//! assert_eq!(out, [0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80]);
//! // UTF-8's four-byte form is not CESU-8.
//! assert!(Cesu8.decode(&[0xF0, 0x90, 0x90, 0x80]).is_err());
//! assert_eq!(Mutf8.decode(&[0xC0, 0x80, 0x41]).unwrap(), [0, 0x41]);
//! assert!(Mutf8.decode(&[0x00]).is_err());
//! // A lone surrogate, and a pair: the longest match.
//! assert_eq!(Mutf8.decode(&[0xED, 0xA0, 0x80, 0x41]).unwrap(), [0xD800, 0x41]);
//! assert_eq!(Mutf8.decode(&[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]).unwrap(), [0x10000]);
//! ```
//!
//! The six-byte form shares its first unit, `ED`, with the three-byte form of
//! U+D000–U+D7FF. The forms are still told apart by the values they accept: the
//! three-byte form excludes the surrogates, so after `ED` a unit `80–9F` can only
//! continue it and `A0–AF` only the six-byte form. Where both read `ED`, the
//! three-byte form's constant payload `1101` goes into a bias, so that the
//! shared transition reads no payload in either form.
//!
//! Modified UTF-8 keeps the surrogates in its three-byte form, so there the
//! forms do overlap: `ED A0 80` is U+D800 and the start of every pair of
//! U+10000–U+103FF. Its description says `overlap: longest` (the pair wins
//! where its low half follows) and forbids a high surrogate directly before a
//! low one (which would read back as the pair). The high surrogate's three
//! units and the pair's first three read the same payload once the constant
//! `10` of the high surrogate's second unit goes into the bias (`0xD800`).
//!
//! # Lineage
//! Unicode Technical Report #26 (CESU-8); `java.io.DataInput` ("Modified UTF-8")
//! and the JNI specification ("Modified UTF-8 Strings");
//! `papers/specs/encodings.md#cesu8`.

placemat_macros::codec!(file = "descriptions/cesu8.placemat");
placemat_macros::codec!(file = "descriptions/mutf8.placemat");
