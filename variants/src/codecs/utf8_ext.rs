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

placemat_macros::codec! {
    /// UTF-8 extended to 36 bits: the RFC 2279 forms plus FE + 6 continuation bytes.
    pub Utf8Ext36 {
        name: "utf8-ext36",
        summary: "UTF-8 extended to 36 bits: the 1-6 byte forms plus FE + 6 continuation bytes",
        unit: byte,
        value: u64,
        range: 0 ..= 0xFFFFFFFFF,
        layout: shortest,
        forms: {
            0x000000000 ..= 0x00000007F => "0xxxxxxx",
            0x000000080 ..= 0x0000007FF => "110xxxxx 10xxxxxx",
            0x000000800 ..= 0x00000FFFF => "1110xxxx 10xxxxxx 10xxxxxx",
            0x000010000 ..= 0x0001FFFFF => "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x000200000 ..= 0x003FFFFFF => "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x004000000 ..= 0x07FFFFFFF => "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x080000000 ..= 0xFFFFFFFFF => "11111110 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        },
    }
}

placemat_macros::codec! {
    /// UTF-8 extended to 42 bits: as `utf8-ext36`, plus FF + 7 continuation bytes.
    pub Utf8Ext42 {
        name: "utf8-ext42",
        summary: "UTF-8 extended to 42 bits: as utf8-ext36 plus FF + 7 continuation bytes (64-bit values)",
        unit: byte,
        value: u64,
        range: 0 ..= 0x3FFFFFFFFFF,
        layout: shortest,
        forms: {
            0x00000000000 ..= 0x0000000007F => "0xxxxxxx",
            0x00000000080 ..= 0x000000007FF => "110xxxxx 10xxxxxx",
            0x00000000800 ..= 0x0000000FFFF => "1110xxxx 10xxxxxx 10xxxxxx",
            0x00000010000 ..= 0x000001FFFFF => "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x00000200000 ..= 0x00003FFFFFF => "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x00004000000 ..= 0x0007FFFFFFF => "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x00080000000 ..= 0x00FFFFFFFFF => "11111110 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            0x01000000000 ..= 0x3FFFFFFFFFF => "11111111 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        },
    }
}
