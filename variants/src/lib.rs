//! # placemat-variants
//!
//! The encodings of September 1992 and their descendants, each generated at compile
//! time from a description ([`codecs`]), the texts they are measured and analysed
//! on ([`corpus`]), and the registry the `placemat` CLI (crate `placemat-cli`)
//! looks them up in ([`registry`]). Only the codecs, the corpora and the registry
//! live here.
//!
//! ```
//! use placemat_variants::registry;
//! let utf8 = registry::find("utf8").unwrap();
//! assert_eq!(utf8.info().max, 0x10FFFF);
//! assert_eq!(utf8.dfa().state_count(), 9);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod codecs;
pub mod corpus;
pub mod registry;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
