//! `utf-ebcdic`: UTF-EBCDIC (Unicode Technical Report #16), the UTF-8 family's
//! member for EBCDIC systems. A scalar value is first written in UTF-8-Mod
//! ("I8"): values below 0xA0 take one byte, and a trailing byte carries five
//! payload bits under `101`. Then every byte goes through one fixed
//! permutation of the 256 bytes (the description's `unit_map`), chosen so that
//! the 160 one-byte characters keep their EBCDIC (code page 1047) bytes.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::UtfEbcdic;
//! let mut out = Vec::new();
//! for v in [0x41, 0xFF, 0xFEFF] {
//!     UtfEbcdic.encode_push(v, &mut out).unwrap();
//! }
//! // EBCDIC `A`; U+00FF (I8 C7 BF); the byte order mark (I8 F1 BF B7 BF).
//! assert_eq!(out, [0xC1, 0x8B, 0x73, 0xDD, 0x73, 0x66, 0x73]);
//! assert_eq!(UtfEbcdic.decode(&out).unwrap(), [0x41, 0xFF, 0xFEFF]);
//! ```
//!
//! The automaton is built over the mapped bytes, so the decoders read
//! UTF-EBCDIC directly, without an unmapping pass.
//!
//! # Lineage
//! Unicode Technical Report #16, "UTF-EBCDIC" (the I8 forms and the
//! I8-to-UTF-EBCDIC table); `papers/specs/encodings.md#utf-ebcdic`.

placemat_macros::codec!(file = "descriptions/utf-ebcdic.placemat");
