//! The variable-length integers of file formats and protocols, each a description
//! of a few lines in `variants/descriptions/`.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//! use placemat_variants::codecs::{GitOfs, HpackInt5, Leb128, QuicVarint, SqliteVarint, Vlq};
//! let mut out = Vec::new();
//! Vlq.encode_push(0x2000, &mut out).unwrap();
//! assert_eq!(out, [0xC0, 0x00]);
//! // Git's offsets: every continuation adds one, so 80 00 is 128, not 0.
//! assert_eq!(GitOfs.decode(&[0x80, 0x00]).unwrap(), [128]);
//! // QUIC and SQLite accept longer encodings than needed; encoders write the shortest.
//! assert_eq!(QuicVarint.decode(&[0x40, 0x25]).unwrap(), [37]);
//! out.clear();
//! QuicVarint.encode_push(37, &mut out).unwrap();
//! assert_eq!(out, [0x25]);
//! assert_eq!(SqliteVarint.decode(&[0x80, 0x05]).unwrap(), [5]);
//! // LEB128: least significant group first.
//! out.clear();
//! Leb128.encode_push(624_485, &mut out).unwrap();
//! assert_eq!(out, [0xE5, 0x8E, 0x26]);
//! // HPACK: a full prefix, then the rest; zero groups past the value decode too.
//! out.clear();
//! HpackInt5.encode_push(1337, &mut out).unwrap();
//! assert_eq!(out, [0x1F, 0x9A, 0x0A]);
//! assert_eq!(HpackInt5.decode(&[0x1F, 0x80, 0x00]).unwrap(), [31]);
//! ```
//!
//! | codec | bytes | groups | longer encodings of a value |
//! |---|---|---|---|
//! | `vlq` | 1–4 | 7 bits, most significant first | invalid (shortest form) |
//! | `git-ofs` | 1–10 | 7 bits, most significant first, +1 per continuation | none exist (biased) |
//! | `quic-varint` | 1, 2, 4, 8 | 2-bit length prefix, then 6 + 8k bits | valid (`layout: padded`) |
//! | `sqlite-varint` | 1–9 | 7 bits, most significant first; the ninth byte 8 bits | valid (`layout: padded`) |
//! | `leb128` | 1–10 | 7 bits, least significant first (`groups: lsb_first`) | valid (`layout: padded`) |
//! | `hpack-int5`, `hpack-int7` | 1–11 | a 5- or 7-bit prefix, then value − 31 (− 127) in 7-bit groups, least significant first | valid (a repeated unit in `layout: explicit`) |
//!
//! # Lineage
//! Standard MIDI Files 1.0, "Variable-Length Quantities"; git's
//! `Documentation/gitformat-pack.txt` (`OFS_DELTA`); RFC 9000 §16 and appendix A.1;
//! DWARF 5 §7.6 (unsigned LEB128); SQLite's file format §1.6 and `sqlite3PutVarint` in `src/util.c`;
//! RFC 7541 §5.1 and appendix C.1 (HPACK);
//! `papers/specs/encodings.md#vlq` and the sections after it.

placemat_macros::codec!(file = "descriptions/vlq.placemat");
placemat_macros::codec!(file = "descriptions/git-ofs.placemat");
placemat_macros::codec!(file = "descriptions/quic-varint.placemat");
placemat_macros::codec!(file = "descriptions/sqlite-varint.placemat");
placemat_macros::codec!(file = "descriptions/leb128.placemat");
placemat_macros::codec!(file = "descriptions/hpack-int5.placemat");
placemat_macros::codec!(file = "descriptions/hpack-int7.placemat");
