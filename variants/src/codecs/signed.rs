//! Signed integers, each a description of a few lines in
//! `variants/descriptions/`: the forms spell unsigned raw values, and the
//! description's `sign` says how a value's sign becomes part of them.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::{ProtobufSint64, Sleb128, SourcemapVlq};
//! let mut out = Vec::new();
//! // Two's complement, sign-extended from the last group's top bit.
//! Sleb128.encode_push(-128, &mut out).unwrap();
//! assert_eq!(out, [0x80, 0x7F]);
//! assert_eq!(Sleb128.decode(&[0x7E, 0xFF, 0x00]).unwrap(), [-2, 127]);
//! // ZigZag: 0, -1, 1, -2 are 0, 1, 2, 3.
//! assert_eq!(ProtobufSint64.decode(&[0x01, 0x02, 0x03]).unwrap(), [-1, 1, -2]);
//! // The sign in the lowest bit, base64 digits as units.
//! assert_eq!(SourcemapVlq.decode(b"ACDgB").unwrap(), [0, 1, -1, 16]);
//! ```
//!
//! | codec | value | sign (`sign:`) | units | longer encodings of a value |
//! |---|---|---|---|---|
//! | `sleb128` | `i64` | two's complement, sign-extended from the last group (`extend`) | 1–10 bytes, 7 bits each, least significant first | valid: extra groups of the sign (`layout: padded`) |
//! | `protobuf-sint64` | `i64` | ZigZag (`zigzag`) | 1–10 bytes, as `leb128` | valid: zero groups (`layout: padded`) |
//! | `sourcemap-vlq` | `i32` (±(2^31 − 1)) | the lowest bit of the first group (`low_bit`) | 1–7 base64 digits, 5 bits each, least significant first | valid: zero digits (`layout: padded`) |
//!
//! # Lineage
//! DWARF 5 §7.6 (signed LEB128); Protocol Buffers' encoding guide, "Signed
//! Integers" (ZigZag); Source Map revision 3 and ECMA-426 §5.1 ("Decode a
//! base64 VLQ"); `papers/specs/encodings.md#sleb128` and the sections after it.

placemat_macros::codec!(file = "descriptions/sleb128.placemat");
placemat_macros::codec!(file = "descriptions/protobuf-sint64.placemat");
placemat_macros::codec!(file = "descriptions/sourcemap-vlq.placemat");
