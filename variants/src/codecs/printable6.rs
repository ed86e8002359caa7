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

placemat_macros::codec!(file = "descriptions/printable6.placemat");
