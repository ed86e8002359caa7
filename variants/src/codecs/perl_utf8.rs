//! `perl-utf8`: the extended UTF-8 perl uses for strings, on 64-bit perls — RFC
//! 2279's forms with surrogates as ordinary values, FE + 6 continuation bytes for
//! 36 bits, and FF + 12 continuation bytes whose 72 payload bits carry values up to
//! 2^63−1 (perl refuses larger code points since 5.28).
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::PerlUtf8;
//! let mut out = Vec::new();
//! PerlUtf8.encode_push(0x8000_0000, &mut out).unwrap();
//! assert_eq!(out, [0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80]);
//! // Values past 2^63 − 1 do not exist, in either direction.
//! assert!(PerlUtf8.encode_push(1 << 63, &mut out).is_err());
//! let past = [0xFF, 0x80, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80];
//! assert!(PerlUtf8.decode(&past).is_err());
//! ```
//!
//! The 13-byte form's payload is wider than `u64`: its six most significant payload
//! bits (all of the first continuation byte, `80`) and the next two are fixed
//! zeros in the model, which is what perl's encoder writes ("reserved" bits).
//!
//! # Lineage
//! perl's `utf8.h` (`PL_utf8skip`, the table of start bytes) and `utf8.c`;
//! `papers/specs/encodings.md#perl-utf8`.

placemat_macros::codec!(file = "descriptions/perl-utf8.placemat");
