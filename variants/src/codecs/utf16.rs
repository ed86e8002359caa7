//! UTF-16 and UTF-32 in both byte orders: code units of 16 and 32 bits
//! (`unit: u16le` and the like), read and written as bytes.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::{Utf16Be, Utf16Le, Utf32Le};
//! let mut out = Vec::new();
//! Utf16Le.encode_push(0x10302, &mut out).unwrap();
//! assert_eq!(out, [0x00, 0xD8, 0x02, 0xDF]);
//! assert_eq!(Utf16Be.decode(&[0xD8, 0x00, 0xDF, 0x02]).unwrap(), [0x10302]);
//! // A lone surrogate is one error of one code unit (two bytes), at its offset.
//! let err = Utf16Le.decode(&[0x41, 0x00, 0x00, 0xDC, 0x42, 0x00]).unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (2, Some(2)));
//! // Replacing: one U+FFFD per bad unit, and one for an odd trailing byte.
//! assert_eq!(Utf16Le.decode_lossy(&[0x00, 0xDC, 0x41, 0x00, 0x41]), [0xFFFD, 0x41, 0xFFFD]);
//! assert!(Utf32Le.decode(&[0x00, 0x00, 0x11, 0x00]).is_err());
//! ```
//!
//! A little-endian code unit's low byte comes first, so the first byte of a
//! surrogate pair carries bits 10–17 of the value less 0x10000 and the first
//! byte of a BMP unit bits 0–7: the automaton cannot know which until the second
//! byte. Its transitions therefore *place* each byte's payload (`v = (v << s) |
//! (payload << q)`, see `placemat_codec::dfa::Parts::places`): the first byte
//! goes to bit 0 in both forms, and a pair's third byte shifts the value read
//! so far up by ten. Errors cover whole code units, as WHATWG's UTF-16 decoder
//! reports them.
//!
//! # Lineage
//! RFC 2781 §2.1 (UTF-16) and §3 (byte order); Unicode 15, chapter 3, D90–D92
//! and the serializations of §3.10; the WHATWG Encoding Standard's UTF-16
//! decoder; `papers/specs/encodings.md#utf16le`.

placemat_macros::codec!(file = "descriptions/utf16le.placemat");
placemat_macros::codec!(file = "descriptions/utf16be.placemat");
placemat_macros::codec!(file = "descriptions/utf32le.placemat");
placemat_macros::codec!(file = "descriptions/utf32be.placemat");
