//! The table checks of `Dfa::new` on small hand-built tables: every good
//! table passes in every form it has, and each `TableError` is produced by
//! the smallest corruption of a good table.

mod common;

use common::{codecs, Built, Dec};
use placemat_codec::dfa::Dfa;

#[test]
fn every_good_table_passes_in_every_form() {
    for spec in codecs::all() {
        let b = Built::of(spec);
        for (dec, shift, p) in b.variants() {
            assert_eq!(Dfa::new(p).err(), None, "{} {dec:?} shift {shift}", b.spec.name);
        }
    }
}

#[test]
fn the_forms_each_table_has() {
    let has = |b: &Built, dec| b.parts(dec, false).is_some();
    let b = Built::of(codecs::utf8());
    assert!(has(&b, Dec::Expanded) && has(&b, Dec::Direct));
    let b = Built::of(codecs::leb128());
    assert!(!has(&b, Dec::Expanded) && has(&b, Dec::Direct));
    let b = Built::of(codecs::radix());
    assert!(has(&b, Dec::Expanded) && !has(&b, Dec::Direct));
}
