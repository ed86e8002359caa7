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

placemat_macros::codec! {
    /// The original X/Open FSS-UTF (1992): 1–5 bytes, biased forms, 7-bit continuations.
    pub FssUtfXopen {
        name: "fss-utf-xopen",
        summary: "original X/Open FSS-UTF (1992): 1-5 bytes, biased forms, 7-bit continuations, not self-synchronizing",
        unit: byte,
        value: u32,
        range: 0 ..= 0x7FFFFFFF,
        layout: biased,
        forms: {
            0x0000000 ..= 0x000007F                 => "0zzzzzzz",
            0x0000080 ..= 0x000207F  bias 0x0000080 => "10zzzzzz 1zzzzzzz",
            0x0002080 ..= 0x008207F  bias 0x0002080 => "110zzzzz 1zzzzzzz 1zzzzzzz",
            0x0082080 ..= 0x208207F  bias 0x0082080 => "1110zzzz 1zzzzzzz 1zzzzzzz 1zzzzzzz",
            0x2082080 ..= 0x7FFFFFFF bias 0x2082080 => "11110zzz 1zzzzzzz 1zzzzzzz 1zzzzzzz 1zzzzzzz",
        },
    }
}
