//! UTF-8 extended "in the obvious way": lead bytes FE and FF carry no payload and
//! are followed by six or seven continuation bytes, for 36- and 42-bit values.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::{Utf8Ext36, Utf8Ext42};
//! let mut out = Vec::new();
//! Utf8Ext42.encode_push(0x3FF_FFFF_FFFF, &mut out).unwrap();
//! assert_eq!(out, [0xFF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]);
//! assert_eq!(Utf8Ext42.decode(&out).unwrap(), [0x3FF_FFFF_FFFF]);
//! // FF is not a lead byte in the 36-bit extension.
//! assert!(Utf8Ext36.decode(&out).is_err());
//! ```
//!
//! Forms 1–6 are those of RFC 2279; shortest form is required, so the byte after FE
//! is at least 82 and the byte after FF at least 81.
//!
//! # Lineage
//! A Russian-language article on UTF-8 ("maximum potential" of the scheme) and
//! Takusagawa's "Sort of UTF-6" (2018) on UTF-8 "extended in the obvious way";
//! `papers/specs/encodings.md#utf8-ext36` and `#utf8-ext42`. Perl's internal
//! extended UTF-8 gives FF a different meaning (13 bytes).

placemat_macros::codec!(file = "descriptions/utf8-ext36.placemat");

placemat_macros::codec!(file = "descriptions/utf8-ext42.placemat");
