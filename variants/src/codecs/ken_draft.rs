//! Ken Thompson's draft of 2 September 1992, "7 byte types": as the final FSS-UTF
//! for 1–5 bytes, but the sixth type `111111xx` carries two payload bits, so six
//! bytes reach 32-bit values and every byte FC–FF is a lead.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::KenDraft;
//! let mut out = Vec::new();
//! KenDraft.encode_push(0xFFFF_FFFF, &mut out).unwrap();
//! assert_eq!(out, [0xFF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]);
//! assert_eq!(KenDraft.decode(&[0xFE, 0x80, 0x80, 0x80, 0x80, 0x80]).unwrap(), [0x8000_0000]);
//! ```
//!
//! # Lineage
//! Thompson's "7 byte types" note (T0, Tx, T1–T5), quoted in Rob Pike's mail
//! "UTF-8 history" (2003); `papers/specs/encodings.md#ken-draft`.

placemat_macros::codec!(file = "descriptions/ken-draft.placemat");
