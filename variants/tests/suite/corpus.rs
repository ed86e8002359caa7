//! The built-in corpora: their sizes, scripts and determinism, the damage
//! of the mutated corpus, and the generator's PRNG.

use placemat_variants::corpus::*;

#[test]
fn every_corpus_has_its_size_and_valid_values() {
    let all = all();
    assert_eq!(all.len(), NAMES.len());
    for (c, name) in all.iter().zip(NAMES) {
        assert_eq!(c.name, name);
        let len = c.utf8_len();
        assert!((TARGET_BYTES..TARGET_BYTES + 4096).contains(&len), "{name}: {len} bytes");
        assert!(c.text.iter().all(|&v| char::from_u32(v).is_some()), "{name}");
        let bytes = c.utf8();
        assert_eq!(bytes.len(), len);
        assert_eq!(std::str::from_utf8(&bytes).unwrap().chars().count(), c.text.len());
    }
}

#[test]
fn corpora_are_deterministic_and_distinct() {
    let a = by_name("mixed").unwrap();
    let b = by_name("mixed").unwrap();
    assert_eq!(a, b);
    assert_ne!(by_name("english").unwrap().text, by_name("russian").unwrap().text);
    assert!(by_name("no-such-corpus").is_none());
    assert_eq!(mutated_utf8(), mutated_utf8());
}

/// No 4 KiB window reappears within 64 KiB after it (a short period would let
/// the branch predictor learn the text).
#[test]
fn no_short_period() {
    const WINDOW: usize = 4096;
    const REACH: usize = 64 * 1024;
    for c in all() {
        let bytes = c.utf8();
        let mut rng = Rng::new(7);
        for _ in 0..8 {
            let p = rng.below(bytes.len() - WINDOW - REACH);
            let window = &bytes[p..p + WINDOW];
            for d in 1..=REACH {
                assert_ne!(window, &bytes[p + d..p + d + WINDOW], "{}: period {d} at {p}", c.name);
            }
        }
    }
}

#[test]
fn corpora_have_the_scripts_they_claim() {
    let share = |name: &str, len: usize| {
        let c = by_name(name).unwrap();
        c.chars().filter(|ch| ch.len_utf8() == len).count() as f64 / c.text.len() as f64
    };
    assert!(by_name("english").unwrap().is_ascii());
    assert!(share("russian", 2) > 0.6);
    assert!(share("chinese", 3) > 0.8);
    assert!(share("korean", 3) > 0.6);
    // Emoji lines are mostly emoji by bytes (the words between them are ASCII).
    let emoji = by_name("emoji").unwrap();
    let four: usize = emoji.chars().filter(|ch| ch.len_utf8() == 4).map(char::len_utf8).sum();
    let share4 = four as f64 / emoji.utf8_len() as f64;
    assert!(share4 > 0.5, "{share4}");
    assert!(share("random-scalars", 4) > 0.9);
    for len in 1..=4 {
        let s = share("random-lengths", len);
        assert!((0.23..0.27).contains(&s), "length {len}: {s}");
    }
    let mixed = by_name("mixed").unwrap();
    for len in 1..=4 {
        assert!(mixed.chars().any(|ch| ch.len_utf8() == len), "mixed lacks {len}-byte characters");
    }
}

#[test]
fn mutated_input_is_invalid_throughout() {
    let bytes = mutated_utf8();
    let lossy = String::from_utf8_lossy(&bytes);
    let errors = lossy.chars().filter(|&c| c == '\u{FFFD}').count();
    // About one error per MUTATION_SPACING bytes (some mutations stay valid).
    assert!(errors > bytes.len() / (4 * MUTATION_SPACING), "{errors} errors");
    // Errors are spread out, not bunched at the start.
    let tail = String::from_utf8_lossy(&bytes[bytes.len() / 2..]);
    assert!(tail.contains('\u{FFFD}'));
}

#[test]
fn rng_is_splitmix64() {
    // The first output of SplitMix64 seeded with 0.
    assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    let mut r = Rng::new(1);
    assert!((0..1000).all(|_| r.below(10) < 10));
    assert!((0..1000).all(|_| (5..=9).contains(&r.range(5, 9))));
}

#[test]
fn mutate_changes_about_the_requested_share() {
    let clean = vec![b'a'; 64 * 1024];
    let damaged = mutate(&clean, 3, 64);
    let differing = clean.iter().zip(&damaged).filter(|(a, b)| a != b).count();
    assert!(differing > 0);
    assert_ne!(damaged, clean);
}
