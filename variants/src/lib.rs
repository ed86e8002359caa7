//! # placemat-variants
//!
//! The encodings of September 1992 and their descendants, each generated at compile
//! time from a description ([`codecs`]), the texts they are measured and analysed
//! on ([`corpus`]), the registry the `placemat` CLI (crate `placemat-cli`)
//! looks them up in ([`registry`]), and conversions between any codec and
//! Rust's text types, `str` and UTF-16/32 code units ([`text`]). Only the
//! codecs, the corpora, the registry and those conversions live here.
//!
//! ```
//! use placemat_variants::registry;
//! let utf8 = registry::find("utf8").unwrap();
//! assert_eq!(utf8.info().max, 0x10FFFF);
//! assert_eq!(utf8.dfa().state_count(), 9);
//! ```
//!
//! Converting a buffer from one codec to another
//! ([`placemat_codec::io::transcode_into`]; streams go through
//! [`placemat_codec::io::TranscodeReader`] and `TranscodeWriter`):
//!
//! ```
//! use placemat_codec::io::{transcode_into, ErrorMode};
//! use placemat_variants::codecs::{Cesu8, Utf16Le, Utf8};
//! let mut wide = Vec::new();
//! transcode_into(&Utf8, &Utf16Le, ErrorMode::Strict, "añ😀".as_bytes(), &mut wide).unwrap();
//! assert_eq!(wide, [0x61, 0, 0xF1, 0, 0x3D, 0xD8, 0x00, 0xDE]);
//! // CESU-8 writes the emoji as two three-byte surrogates.
//! let mut cesu = Vec::new();
//! transcode_into(&Utf16Le, &Cesu8, ErrorMode::Strict, &wide, &mut cesu).unwrap();
//! assert_eq!(cesu, b"a\xC3\xB1\xED\xA0\xBD\xED\xB8\x80");
//! // Invalid input: strict mode stops at its offset, replace mode writes U+FFFD.
//! let err = transcode_into(&Utf8, &Utf16Le, ErrorMode::Strict, b"ok\xFF", &mut Vec::new()).unwrap_err();
//! assert_eq!(err.offset(), 2);
//! let mut out = Vec::new();
//! transcode_into(&Utf8, &Utf8, ErrorMode::Replace, b"ok\xFF", &mut out).unwrap();
//! assert_eq!(out, "ok\u{FFFD}".as_bytes());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod codecs;
pub mod corpus;
pub mod registry;
pub mod text;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
