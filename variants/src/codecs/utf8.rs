//! Strict UTF-8, as RFC 3629 and Unicode chapter 3 define it.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::Utf8;
//! let mut out = Vec::new();
//! for v in [0x41, 0x3B1, 0x4E16, 0x1F600] {
//!     Utf8.encode_push(v, &mut out).unwrap();
//! }
//! assert_eq!(out, [0x41, 0xCE, 0xB1, 0xE4, 0xB8, 0x96, 0xF0, 0x9F, 0x98, 0x80]);
//! assert_eq!(Utf8.decode(&out).unwrap(), [0x41, 0x3B1, 0x4E16, 0x1F600]);
//! // The generated automaton is Höhrmann's size, derived from the description.
//! assert_eq!((Utf8::CLASS_COUNT, Utf8::STATE_COUNT), (12, 9));
//! ```
//!
//! Shortest form only, surrogates excluded, nothing above U+10FFFF: C0, C1 and
//! F5–FF never occur, and the second unit after E0, ED, F0 and F4 is narrowed
//! (A0–BF, 80–9F, 90–BF, 80–8F). All of that follows from the four lines below.
//!
//! # Lineage
//! RFC 3629 (2003) §3–4; Unicode 15, ch. 3, Table 3-7; `papers/specs/encodings.md#utf8`.

placemat_macros::codec!(file = "descriptions/utf8.placemat");
