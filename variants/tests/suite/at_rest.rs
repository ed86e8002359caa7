//! `Transcoder::at_rest`, the promise `placemat transcode` splits large files
//! on: where a transcoder is at rest, a new one (counting offsets from there)
//! given the rest of the input writes what it would, so the two parts may be
//! converted apart and joined. Every pair of built-in codecs, on valid,
//! mutated and cut inputs, every cut point, both modes.

use placemat_codec::io::{ErrorMode, Transcoder};
use placemat_compiler::analysis::Rng;
use placemat_variants::registry;

use super::transcode_bulk::{inputs, transcode, Outcome};

/// `input` cut at `at`: the first part by one transcoder; if it is then at
/// rest, the rest by a new one, and the outcome of the two joined
/// (`Ok(None)` where it is not at rest, `Err` where the first part failed).
fn split(
    from: &dyn placemat_codec::DynCodec,
    to: &dyn placemat_codec::DynCodec,
    mode: ErrorMode,
    input: &[u8],
    at: usize,
) -> Result<Option<Outcome>, ()> {
    let mut first = Transcoder::new(from, to, mode).unwrap();
    let mut out = Vec::new();
    first.push(&input[..at], &mut out).map_err(|_| ())?;
    if !first.at_rest() {
        return Ok(None);
    }
    let mut rest = Transcoder::new(from, to, mode).unwrap().with_offset(first.offset());
    let err = rest.push(&input[at..], &mut out).and_then(|()| rest.finish(&mut out)).err();
    Ok(Some((out, err)))
}

#[test]
fn the_rest_after_a_transcoder_at_rest_converts_apart_as_it_would_whole() {
    let mut rng = Rng::new(0xA7_4E57);
    let codecs = registry::all();
    let (mut rested, mut held) = (0, 0);
    for &from in codecs {
        let texts = inputs(&mut rng, from);
        for &to in codecs {
            for input in &texts {
                for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                    if mode == ErrorMode::Replace && Transcoder::new(from, to, mode).is_err() {
                        continue;
                    }
                    let whole = transcode(from, to, mode, input, &[]);
                    for _ in 0..4 {
                        let at = rng.below(input.len() + 1);
                        let Ok(split) = split(from, to, mode, input, at) else { continue };
                        let Some(joined) = split else {
                            held += 1;
                            continue;
                        };
                        rested += 1;
                        let (f, t) = (&from.info().name, &to.info().name);
                        assert!(joined == whole, "{f} -> {t} {mode:?} {input:02X?} cut at {at}");
                    }
                }
            }
        }
    }
    // Both happen, many times (a random cut falls inside a sequence of
    // several units about as often as not).
    assert!(rested > 10_000 && held > 10_000, "{rested} at rest, {held} not");
}

#[test]
fn a_transcoder_is_not_at_rest_inside_a_sequence_or_a_rule() {
    let [utf8, utf16le, cesu8, wtf8, plan9] =
        ["utf8", "utf16le", "cesu8", "wtf8", "fss-utf-plan9"].map(|n| registry::find(n).unwrap());
    let rests = |from, to, chunk: &[u8]| {
        let mut t = Transcoder::new(from, to, ErrorMode::Replace).unwrap();
        t.push(chunk, &mut Vec::new()).unwrap();
        t.at_rest()
    };
    assert!(rests(utf8, utf16le, "a\u{e9}".as_bytes()));
    assert!(!rests(utf8, utf16le, &"\u{1F389}".as_bytes()[..2]));
    // UTF-16's high surrogate alone, and CESU-8's form of one: the pair is
    // still open.
    assert!(!rests(utf16le, utf8, &[0x3C, 0xD8]));
    assert!(!rests(cesu8, utf8, &[0xED, 0xA0, 0xBC]));
    assert!(rests(cesu8, utf8, &[0xED, 0xA0, 0xBC, 0xED, 0xBE, 0x89]));
    // WTF-8's lone high surrogate: a whole sequence, after which the
    // source's rule looks at the next value (its context), ...
    assert!(!rests(wtf8, utf16le, &[0xED, 0xA0, 0xBC]));
    // ... and, written into WTF-8 from a source without rules, after which
    // the target's rule looks at the next one.
    assert!(!rests(plan9, wtf8, &[0xED, 0xA0, 0xBC]));
    assert!(rests(plan9, wtf8, &[0xED, 0xA0, 0xBC, 0x41]));
    // Failed: never at rest again.
    let mut t = Transcoder::new(utf8, utf16le, ErrorMode::Strict).unwrap();
    assert!(t.push(&[0xFF], &mut Vec::new()).is_err());
    assert!(!t.at_rest());
}
