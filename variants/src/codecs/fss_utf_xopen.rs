//! The original X/Open FSS-UTF proposal (1992): biased forms, 7-bit continuation
//! units, not self-synchronizing.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::FssUtfXopen;
//! let mut out = Vec::new();
//! for v in [0x80, 0x10FFFF, 0x7FFF_FFFF] {
//!     FssUtfXopen.encode_push(v, &mut out).unwrap();
//! }
//! assert_eq!(out, [0x80, 0x80, 0xE0, 0xA3, 0xBE, 0xFF, 0xF7, 0xEF, 0xDF, 0xBE, 0xFF]);
//! // Any byte from 0x80 up continues a sequence, so C0 E0 E0 is one character.
//! assert_eq!(FssUtfXopen.decode(&[0xC0, 0xE0, 0xE0]).unwrap(), [0x50E0]);
//! ```
//!
//! Every form adds its own first value to the payload (`OFF1`…`OFF4` of the
//! proposal's `mbtowc`), so no value can be spelled two ways and no overlong
//! spelling needs a rule against it. The price: continuation units (`1zzzzzzz`)
//! look like lead units, so a decoder dropped into the middle of a stream cannot
//! find the next character boundary.
//!
//! # Lineage
//! The X/Open FSS-UTF proposal of 1992 (usually credited to Dave Prosser of USL),
//! whose sample `mbtowc` is quoted in Rob Pike's mail "UTF-8 history" of
//! 30 April 2003; `papers/specs/encodings.md#fss-utf-xopen`.

placemat_macros::codec!(file = "descriptions/fss-utf-xopen.placemat");
