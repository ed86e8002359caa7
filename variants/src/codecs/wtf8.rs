//! `wtf8`: WTF-8, the encoding of potentially ill-formed UTF-16 that Rust's
//! `OsString` uses on Windows. Its forms are UTF-8's, for every code point
//! including the surrogates, with one rule across adjacent values: a high
//! surrogate (U+D800..U+DBFF) is never directly followed by a low one
//! (U+DC00..U+DFFF), since that pair stands for a supplementary value, which
//! has its own 4-byte form. The decoders remember whether the value before
//! was a high surrogate (the automaton has a start state for each case), and
//! the encoder refuses the pair ([`Encoder::encode_all`] names the index of
//! the second value).
//!
//! ```
//! use placemat_codec::{DecodeError, Decoder, EncodeError, Encoder};
//! use placemat_variants::codecs::Wtf8;
//! // A lone surrogate is a value of its own.
//! assert_eq!(Wtf8.decode(&[0xED, 0xA0, 0x80, 0x41]).unwrap(), [0xD800, 0x41]);
//! // A high surrogate then a low one is not WTF-8: the error is at the second.
//! assert_eq!(Wtf8.decode(&[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]), Err(DecodeError::new(3, Some(1))));
//! // The encoder refuses the pair, naming the second value's index.
//! let mut out = Vec::new();
//! let err = Wtf8.encode_all(&[0x41, 0xD800, 0xDC00], &mut out).unwrap_err();
//! assert_eq!(err, (2, EncodeError::ForbiddenAfter { before: 0xD800, value: 0xDC00 }));
//! assert_eq!(out, [0x41, 0xED, 0xA0, 0x80]);
//! ```
//!
//! [`Encoder::encode_all`]: placemat_codec::Encoder::encode_all
//!
//! # Lineage
//! Simon Sapin, "The WTF-8 encoding" (2014–2016); `papers/specs/encodings.md#wtf8`.

placemat_macros::codec!(file = "descriptions/wtf8.placemat");
