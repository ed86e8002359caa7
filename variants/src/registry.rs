//! Every built-in codec, by name, behind [`DynCodec`], in the order `placemat list`
//! prints them.
//!
//! ```
//! use placemat_variants::registry;
//! assert!(registry::names().contains(&"utf8"));
//! assert!(registry::find("no-such-codec").is_none());
//! ```

use placemat_codec::DynCodec;

use crate::codecs;

static ALL: &[&dyn DynCodec] = &[
    &codecs::Utf8,
    &codecs::FssUtfXopen,
    &codecs::FssUtfPlan9,
    &codecs::KenDraft,
    &codecs::Utf8Ext36,
    &codecs::Utf8Ext42,
    &codecs::Utf1,
    &codecs::UtfEbcdic,
    &codecs::Wtf8,
    &codecs::Utf16Le,
    &codecs::Utf16Be,
    &codecs::Utf32Le,
    &codecs::Utf32Be,
    &codecs::Cesu8,
    &codecs::Mutf8,
    &codecs::PerlUtf8,
    &codecs::Printable6,
    &codecs::Printable6Big,
    &codecs::Vlq,
    &codecs::GitOfs,
    &codecs::QuicVarint,
    &codecs::SqliteVarint,
    &codecs::Leb128,
    &codecs::HpackInt5,
    &codecs::HpackInt7,
    &codecs::Sleb128,
    &codecs::ProtobufSint64,
    &codecs::SourcemapVlq,
];

/// All built-in codecs.
pub fn all() -> &'static [&'static dyn DynCodec] {
    ALL
}

/// The codec called `name`.
pub fn find(name: &str) -> Option<&'static dyn DynCodec> {
    ALL.iter().copied().find(|c| c.info().name == name)
}

/// The names of all built-in codecs.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|c| c.info().name.as_ref()).collect()
}
