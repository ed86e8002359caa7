//! The 6-bit printable continuation-bit encoding ("sort of UTF-6"): every unit is
//! one of 64 printable ASCII characters, its high bit says "more units follow" and
//! its low five bits are payload, most significant first.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::Printable6;
//! let text = "camelCase ¥";
//! let values: Vec<u32> = text.chars().map(|c| c as u32).collect();
//! let mut out = Vec::new();
//! Printable6.encode_all(&values, &mut out).unwrap();
//! assert_eq!(out, b"camelAcase Ee");
//! assert_eq!(Printable6.decode(&out).unwrap(), values);
//! // Lowercase letters, space and `;,-.?` stay as they are.
//! ```
//!
//! Before encoding, code points 0–127 go through a fixed permutation (`premap`)
//! that sends space, `a`–`z` and `;,-.?` to the single-unit values 0–31, so plain
//! lowercase prose reads unchanged; capitals become two units (`C` → `Ac`). Values
//! from 128 up are encoded as they are: `¥` U+00A5 → `Ee`, `€` → `HEl`,
//! `火` → `\Ck`, `🛶` → `C]Wv`.
//!
//! This codec carries Unicode scalar values (surrogates and values above U+10FFFF
//! are errors); [`crate::codecs::Printable6Big`] is the same encoding for
//! non-negative integers of any size.
//!
//! # Lineage
//! Ken Takusagawa, "Sort of UTF-6" (blog post, 2018), with the pre-mapping settled
//! by the post's worked example; `papers/specs/encodings.md#printable6`.

placemat_macros::codec! {
    /// The 6-bit printable continuation-bit encoding, carrying Unicode scalar values.
    pub Printable6 {
        name: "printable6",
        summary: "6-bit printable continuation-bit encoding (2018), Unicode scalar values only: surrogates and values above U+10FFFF are errors",
        unit: alphabet(" abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_"),
        value: u32,
        range: 0 ..= 0x10FFFF,
        exclude: [0xD800 ..= 0xDFFF],
        layout: shortest,
        // premap[v] is the value that code point v (below 128) is encoded as.
        premap: [
            0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F,
            0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F,
            0x00, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x7B, 0x1C, 0x1D, 0x1E, 0x7F,
            0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x1B, 0x6C, 0x6D, 0x6E, 0x1F,
            0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F,
            0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F,
            0x70, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
            0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x6B, 0x7C, 0x7D, 0x7E, 0x6F,
        ],
        forms: {
            "1xxxxx* 0xxxxx",
        },
    }
}
