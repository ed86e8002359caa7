//! The Thompson–Pike FSS-UTF of September 1992, which RFC 2279 later published as
//! UTF-8: 1–6 bytes, 31-bit values, shortest form, self-synchronizing.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::FssUtfPlan9;
//! let mut out = Vec::new();
//! FssUtfPlan9.encode_push(0x7FFF_FFFF, &mut out).unwrap();
//! assert_eq!(out, [0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]);
//! assert!(FssUtfPlan9.encode_push(0xFFFF_FFFF, &mut out).is_err());
//! // Surrogates were not yet a thing: ED A0 80 decodes.
//! assert_eq!(FssUtfPlan9.decode(&[0xED, 0xA0, 0x80]).unwrap(), [0xD800]);
//! ```
//!
//! Thompson's redesign dropped the biases in favour of a rule — a value must use
//! the shortest form that holds it — and made every continuation unit `10xxxxxx`,
//! a pattern no lead unit has. FE and FF never occur.
//!
//! # Lineage
//! The `Tab`-driven `wctomb`/`mbtowc` mailed to X/Open on 8 Sept 1992 (quoted in
//! Rob Pike's mail "UTF-8 history", 2003); RFC 2279 (1998) §2;
//! `papers/specs/encodings.md#fss-utf-plan9`.

placemat_macros::codec!(file = "descriptions/fss-utf-plan9.placemat");
