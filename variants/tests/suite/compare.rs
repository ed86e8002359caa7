//! The computed properties of every built-in codec pinned one by one (the CLI's
//! `placemat compare` as a process is tested in `cli/tests/suite/compare.rs`).

use placemat_compiler::analysis::{self, structure, sync, Bound, Encoded, Rng, Subject, Verdict};
use placemat_variants::{corpus, registry};

fn subject(name: &str) -> Subject<'static> {
    Subject::from_dyn(registry::find(name).unwrap()).unwrap()
}

fn bound(name: &str) -> Bound {
    sync::self_sync(&placemat_compiler::automaton_of(registry::find(name).unwrap()).unwrap()).unwrap().bound
}

#[test]
fn utf8_family_properties() {
    for (name, longest, sync) in
        [("utf8", 4, 3), ("fss-utf-plan9", 6, 5), ("ken-draft", 6, 5), ("utf8-ext36", 7, 6), ("utf8-ext42", 8, 7)]
    {
        let s = structure::analyze(&subject(name).model);
        assert_eq!(s.max_units, Some(longest), "{name}");
        for (what, v) in [
            ("prefix-free", &s.prefix_free),
            ("uniquely decodable", &s.uniquely_decodable),
            ("ASCII", &s.ascii_transparent),
            ("fs-safe", &s.fs_safe),
            ("order", &s.order_preserving),
        ] {
            assert_eq!(*v, Verdict::Yes, "{name}: {what}");
        }
        assert_eq!(bound(name), Bound::Units(sync), "{name}");
    }
}

/// Modified UTF-8 writes U+10000 as the two surrogates' encodings, each of
/// which is a codeword of its own (lone surrogates): the code is not uniquely
/// decodable, and the analysis says so with the word (the code is too large
/// for the Sardinas-Patterson test on its list).
#[test]
fn mutf8_is_not_uniquely_decodable_and_the_witness_shows_it() {
    let s = structure::analyze(&subject("mutf8").model);
    assert_eq!(
        s.uniquely_decodable,
        Verdict::No(
            "ED A0 80 ED B0 80 is U+10000 and also U+D800 then U+DC00 \
             (the decoder takes the longest match, `overlap: longest`)"
                .into()
        )
    );
    // CESU-8 has no lone surrogates: the same word is one codeword only.
    assert!(structure::analyze(&subject("cesu8").model).uniquely_decodable.is_yes());
}

#[test]
fn xopen_is_safe_but_not_self_synchronizing() {
    let s = structure::analyze(&subject("fss-utf-xopen").model);
    assert!(s.ascii_transparent.is_yes() && s.fs_safe.is_yes() && s.prefix_free.is_yes());
    assert!(s.order_preserving.is_yes());
    assert_eq!(s.max_units, Some(5));
    assert_eq!(bound("fss-utf-xopen"), Bound::Unbounded);
}

#[test]
fn printable6_profiles() {
    // Both codecs must be registered: `subject` and `bound` fail on a missing name.
    for name in ["printable6", "printable6-big"] {
        let codec = registry::find(name).unwrap_or_else(|| panic!("{name} is not in the registry"));
        let s = structure::analyze(&Subject::from_dyn(codec).unwrap().model);
        assert_eq!(s.unit_bits, 6, "{name}");
        assert!(s.order_preserving.is_no(), "{name}");
        assert!(s.ascii_transparent.is_no() && s.fs_safe.is_no(), "{name}");
        assert!(s.prefix_free.is_yes(), "{name}");
    }
    assert_eq!(structure::analyze(&subject("printable6").model).max_units, Some(5));
    assert_eq!(bound("printable6"), Bound::Units(4));
    assert_eq!(structure::analyze(&subject("printable6-big").model).max_units, None);
    assert_eq!(bound("printable6-big"), Bound::Unbounded);
}

/// The decoder restarted at random offsets never needs more units than the exact
/// bound for the UTF-8 family; X/Open's needs more than any of them on Chinese.
#[test]
fn realignment_confirms_the_exact_bounds() {
    let chinese = corpus::by_name("chinese").unwrap();
    let text = &chinese.text[..20_000];
    for name in ["utf8", "fss-utf-plan9", "ken-draft", "utf8-ext36", "utf8-ext42", "fss-utf-xopen"] {
        let codec = registry::find(name).unwrap();
        let e = Encoded::new(codec, text);
        let worst = *sync::realignment(codec, &e, 3000, 1 << 12, &mut Rng::new(11)).iter().max().unwrap();
        match bound(name) {
            Bound::Units(n) => assert!(worst as usize <= n, "{name}: {worst} > {n}"),
            Bound::Unbounded => assert!(worst > 8, "{name}: {worst}"),
        }
    }
}

#[test]
fn the_whole_analysis_runs_on_a_small_corpus() {
    let values: Vec<u32> = "Grüße, 世界! 🛶".chars().map(u32::from).collect();
    let corpora = [analysis::Corpus { name: "tiny", values: &values }];
    let options = analysis::Options { spread_trials: 50, sync_samples: 50, ..Default::default() };
    let a = analysis::analyze(&subject("utf8"), &corpora, &options, &mut |_| {});
    assert_eq!(a.corpora[0].size.units, "Grüße, 世界! 🛶".len());
    assert!(a.spread(analysis::Mutation::Drop).max <= 4);
}
