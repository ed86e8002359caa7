//! The leads two codecs may read apart (`Dfa::leads_apart`, kept per pair
//! by `placemat_codec::io::leads_apart`): the sets the walk finds in the
//! UTF-8 family, the same for codecs loaded at run time, and the fact's
//! soundness: valid input of the first codec without those leads is read
//! by the second as the same values, and no unit of the set continues a
//! sequence read alike. The conversions that rest on it are held to the
//! per-value path in `transcode_bulk`, the borrows in `text`.

use placemat_codec::io::{leads_apart, ErrorMode, Transcoder};
use placemat_codec::{DynCodec, Step, Strategy, Unit};
use placemat_compiler::LoadedCodec;
use placemat_variants::registry;

fn codec(name: &str) -> &'static dyn DynCodec {
    registry::find(name).unwrap()
}

fn units(from: &str, to: &str) -> Option<Vec<u8>> {
    leads_apart(codec(from), codec(to)).map(|leads| leads.units().collect())
}

#[test]
fn the_utf8_family_is_read_apart_only_at_the_leads_of_its_differences() {
    let supplementary = [0xF0, 0xF1, 0xF2, 0xF3, 0xF4];
    // CESU-8 and modified UTF-8 write characters above U+FFFF as surrogate
    // halves led by ED; UTF-8 writes them with F0-F4; modified UTF-8 writes
    // U+0000 as C0 80.
    assert_eq!(units("cesu8", "utf8"), Some(vec![0xED]));
    assert_eq!(units("utf8", "cesu8"), Some(supplementary.to_vec()));
    assert_eq!(units("mutf8", "utf8"), Some(vec![0xC0, 0xED]));
    assert_eq!(units("utf8", "mutf8"), Some([&[0x00][..], &supplementary].concat()));
    assert_eq!(units("cesu8", "mutf8"), Some(vec![0x00, 0xED]));
    // WTF-8 reads all of UTF-8 alike; UTF-8 refuses its surrogates.
    assert_eq!(units("utf8", "wtf8"), Some(vec![]));
    assert_eq!(units("wtf8", "utf8"), Some(vec![0xED]));
    // The drafts and extensions read UTF-8 alike.
    for wider in ["fss-utf-plan9", "ken-draft", "perl-utf8", "utf8-ext36", "utf8-ext42"] {
        assert_eq!(units("utf8", wider), Some(vec![]), "{wider}");
    }
    // Codecs of wide units have no such fact, nor pairs whose walk is too long.
    assert_eq!(units("utf8", "utf16le"), None);
    assert_eq!(units("ken-draft", "fss-utf-plan9"), None);
}

#[test]
fn a_loaded_codec_has_its_compiled_twins_fact() {
    let names = ["utf8", "cesu8", "mutf8", "wtf8", "fss-utf-plan9", "leb128"];
    let loaded: Vec<LoadedCodec> =
        names.iter().map(|n| LoadedCodec::from_text(codec(n).description()).unwrap()).collect();
    for (a, from) in names.iter().zip(&loaded) {
        for (b, to) in names.iter().zip(&loaded) {
            let fact = from.dfa().leads_apart(&to.dfa());
            assert_eq!(fact, codec(a).dfa().leads_apart(&codec(b).dfa()), "{a} -> {b}");
            assert_eq!(fact, leads_apart(from, to), "{a} -> {b}");
        }
    }
}

/// `from`'s encodings of values around the edges of the UTF-8 family's
/// forms (U+0000, the surrogates, U+10000 and past), alone and in pairs.
fn edges(from: &dyn DynCodec) -> Vec<Vec<u8>> {
    let values = [0, 0x7F, 0x80, 0x7FF, 0xD7FF, 0xD800, 0xDFFF, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0x110000];
    let one = |v: u64| {
        let mut out = Vec::new();
        from.encode_push(v, &mut out).ok().map(|()| out)
    };
    let mut all: Vec<Vec<u8>> = values.iter().filter_map(|&v| one(v)).collect();
    for &a in &values {
        all.extend(values.iter().filter_map(|&b| Some([one(a)?, one(b)?].concat())));
    }
    all
}

/// Inputs: every one- and two-unit input, and random ones of three to six
/// units with the top bit set (the units of multi-unit sequences).
fn inputs() -> Vec<Vec<u8>> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut inputs: Vec<Vec<u8>> = (0..=0xFFu8).map(|b| vec![b]).collect();
    inputs.extend((0..=0xFFFFu32).map(|v| v.to_be_bytes()[2..].to_vec()));
    for _ in 0..100_000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let len = 3 + (x >> 60) as usize % 4;
        inputs.push(x.to_le_bytes()[..len].iter().map(|&b| b | 0x80).collect());
    }
    inputs
}

#[test]
fn input_without_the_leads_is_read_alike() {
    let inputs = inputs();
    let bytes: Vec<&dyn DynCodec> = registry::all().iter().copied().filter(|c| c.info().unit == Unit::Byte).collect();
    let mut checked = 0;
    for &from in &bytes {
        for &to in &bytes {
            let Some(leads) = leads_apart(from, to) else { continue };
            // (Each `dfa()` is a copy of the codec's tables, 5 KiB: once per pair.)
            let (from_dfa, to_dfa) = (from.dfa(), to.dfa());
            for input in inputs.iter().chain(&edges(from)) {
                let mut read = Vec::new();
                if from_dfa.decode_into::<u64>(input, &mut read).is_err() {
                    continue;
                }
                // No unit of the set continues a sequence it does not lead.
                let mut pos = 0;
                while let Step::Value { len, .. } = from.step(Strategy::Table, &input[pos..]) {
                    let inside = &input[pos + 1..pos + len];
                    let led = leads.contains(input[pos]);
                    assert!(led || !inside.iter().any(|&u| leads.contains(u)), "{} {input:02X?}", from.info().name);
                    pos += len;
                }
                if leads.first(input) < input.len() {
                    continue;
                }
                let mut again = Vec::new();
                let alike = to_dfa.decode_into::<u64>(input, &mut again).is_ok() && again == read;
                assert!(alike, "{} -> {}: {input:02X?}", from.info().name, to.info().name);
                checked += 1;
            }
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}

#[test]
fn the_inputs_find_a_difference_where_the_set_names_one() {
    // Were the set empty, the check above would fail for these pairs: some
    // input valid in the first codec is refused or read otherwise by the
    // second, and it holds a unit of the set.
    let inputs = inputs();
    for (from, to) in [("cesu8", "utf8"), ("utf8", "cesu8"), ("mutf8", "utf8"), ("wtf8", "utf8")] {
        let (from, to) = (codec(from), codec(to));
        let leads = leads_apart(from, to).unwrap();
        let differs = |input: &&Vec<u8>| {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            from.dfa().decode_into::<u64>(input, &mut a).is_ok()
                && (to.dfa().decode_into::<u64>(input, &mut b).is_err() || a != b)
        };
        let edges = edges(from);
        let found = inputs.iter().chain(&edges).find(differs);
        assert!(found.is_some_and(|i| leads.first(i) < i.len()), "{}", from.info().name);
    }
}

#[test]
fn the_engine_copies_the_runs_between_codecs_that_read_them_alike() {
    // From a source whose validation steps (WTF-8 and modified UTF-8 have
    // rules across values) where the target's validator checks the runs
    // (they hold no value those rules look back at), but not into a target
    // whose validation steps too; not into itself (copied whole), nor where
    // nothing is read alike, nor where only ASCII is (UTF-1 and X/Open
    // FSS-UTF into UTF-8 and back: the blocks copy ASCII runs themselves).
    let pairs = [
        ("cesu8", "utf8", true),
        ("utf1", "utf8", false),
        ("utf8", "utf1", false),
        ("fss-utf-xopen", "utf8", false),
        ("perl-utf8", "utf8", true),
        ("utf8", "mutf8", true),
        ("fss-utf-plan9", "perl-utf8", true),
        ("wtf8", "utf8", true),
        ("mutf8", "utf8", true),
        ("mutf8", "cesu8", true),
        ("mutf8", "wtf8", false),
        ("utf8", "utf8", false),
        ("utf8", "vlq", false),
    ];
    for (from, to, runs) in pairs {
        let engine = Transcoder::new(codec(from), codec(to), ErrorMode::Strict).unwrap();
        assert_eq!(engine.copied_runs().is_some(), runs, "{from} -> {to}");
        assert_eq!(engine.one_value_at_a_time().copied_runs(), None);
    }
}
