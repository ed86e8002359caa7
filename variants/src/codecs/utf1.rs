//! `utf1`: UTF-1 (ISO/IEC 10646-1:1993, Annex G, withdrawn in 1996), the
//! multi-byte form Plan 9 used before UTF-8. A value below A0 is its own byte;
//! above, a lead byte picks a range and carries the top digit, and one, two or
//! four more bytes carry base-190 digits through T(z), which maps digits 0–93
//! to 21–7E and 94–189 to A0–FF. Its trailing bytes include ASCII: `/` (2F)
//! occurs inside multi-byte sequences, the file-system hazard that led to the
//! Thompson–Pike design.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::Utf1;
//! let mut out = Vec::new();
//! Utf1.encode_push(0xFFFD, &mut out).unwrap();
//! assert_eq!(out, [0xF7, 0x65, 0xAD]);
//! // U+010E (Ď): the second byte is `/`.
//! out.clear();
//! Utf1.encode_push(0x010E, &mut out).unwrap();
//! assert_eq!(out, b"\xA1/");
//! assert_eq!(Utf1.decode(&[0xA1, 0x21]).unwrap(), [0x100]);
//! ```
//!
//! # Lineage
//! ISO/IEC 10646-1:1993 Annex G (the forms and T(z));
//! `papers/specs/encodings.md#utf1`.

placemat_macros::codec!(file = "descriptions/utf1.placemat");
