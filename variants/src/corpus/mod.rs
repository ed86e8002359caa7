//! The texts placemat measures codecs on: eight deterministic corpora of scalar
//! values, about 2 MiB each in UTF-8, plus damaged UTF-8 for lossy decoding.
//!
//! ```
//! use placemat_variants::corpus;
//! let korean = corpus::by_name("korean").unwrap();
//! let bytes = korean.utf8();
//! assert_eq!(bytes.len(), korean.utf8_len());
//! assert!(std::str::from_utf8(&bytes).is_ok());
//! assert!(bytes.len() >= corpus::TARGET_BYTES);
//! // The same name always gives the same text.
//! assert_eq!(corpus::by_name("korean").unwrap().text, korean.text);
//! ```
//!
//! | name | what |
//! |---|---|
//! | `english` | English prose, pure ASCII |
//! | `russian` | Russian prose: 2-byte letters between ASCII spaces and punctuation |
//! | `chinese` | Chinese prose: 3-byte characters, full-width punctuation |
//! | `korean` | Korean prose: 3-byte Hangul syllables separated by spaces |
//! | `emoji` | chat lines, mostly emoji (4-byte, with ZWJ sequences and flags) |
//! | `mixed` | JSON records and HTML fragments with strings in four scripts |
//! | `random-scalars` | uniformly random scalar values (mostly 4 bytes) |
//! | `random-lengths` | random scalar values whose UTF-8 length is uniform in 1–4 |
//!
//! and [`mutated_utf8`]: `mixed` in UTF-8, damaged about once every 64 bytes.
//! For the integer codecs, [`integers`] draws streams of integers.
//!
//! # Why generated
//! Every text is drawn word by word from the vocabularies in `words.rs` with a
//! fixed seed, so it is reproducible without shipping megabytes, and no stretch of
//! it repeats: a text made by pasting one paragraph many times has a short period
//! that a branch predictor learns, which flatters branching decoders severalfold.
//! The unit tests check that no 4 KiB window recurs within 64 KiB.
//!
//! # Lineage
//! Written for placemat's benchmarks; the vocabularies are the project's own word
//! lists. The PRNG is SplitMix64 (Steele, Lea, Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014).

mod generate;
pub mod integers;
mod words;

pub use generate::{mutate, Rng};

/// Each corpus is generated until its UTF-8 form reaches this many bytes (2 MiB).
pub const TARGET_BYTES: usize = 2 << 20;

/// The corpus names, in the order [`all`] returns them.
pub const NAMES: [&str; 8] =
    ["english", "russian", "chinese", "korean", "emoji", "mixed", "random-scalars", "random-lengths"];

/// The name under which benchmarks and reports list [`mutated_utf8`].
pub const MUTATED: &str = "mutated";

/// How often [`mutated_utf8`] damages its input: about once every this many bytes.
pub const MUTATION_SPACING: usize = 64;

/// One corpus: a name and a text of Unicode scalar values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corpus {
    /// The corpus name (one of [`NAMES`]).
    pub name: &'static str,
    /// One line describing it.
    pub summary: &'static str,
    /// The text, as scalar values (never a surrogate, never above U+10FFFF).
    pub text: Vec<u32>,
}

impl Corpus {
    /// The text in UTF-8.
    pub fn utf8(&self) -> Vec<u8> {
        self.to_string().into_bytes()
    }

    /// The length of the text in UTF-8, in bytes.
    pub fn utf8_len(&self) -> usize {
        self.chars().map(char::len_utf8).sum()
    }

    /// The text as `char`s.
    pub fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.text.iter().map(|&v| char::from_u32(v).expect("corpus values are scalar values"))
    }

    /// Whether every value is ASCII.
    pub fn is_ascii(&self) -> bool {
        self.text.iter().all(|&v| v < 0x80)
    }
}

impl std::fmt::Display for Corpus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s: String = self.chars().collect();
        f.write_str(&s)
    }
}

/// Seeds: fixed, one per corpus, so that changing one generator leaves the other
/// texts as they were.
fn seed(name: &str) -> u64 {
    // FNV-1a of the name: a stable, documented way to turn a name into 64 bits.
    name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3))
}

/// The corpus called `name` (one of [`NAMES`]).
pub fn by_name(name: &str) -> Option<Corpus> {
    let s = seed(name);
    let t = TARGET_BYTES;
    let (name, summary, text) = match name {
        "english" => ("english", "English prose, pure ASCII", generate::spaced_prose(s, t, words::ENGLISH, None)),
        "russian" => (
            "russian",
            "Russian prose: 2-byte Cyrillic between ASCII spaces and punctuation",
            generate::spaced_prose(s, t, words::RUSSIAN, Some("—")),
        ),
        "chinese" => ("chinese", "Chinese prose: 3-byte characters, full-width punctuation", generate::chinese(s, t)),
        "korean" => ("korean", "Korean prose: 3-byte Hangul syllables between spaces", generate::korean(s, t)),
        "emoji" => ("emoji", "chat lines, mostly emoji (4-byte, ZWJ sequences, flags)", generate::emoji(s, t)),
        "mixed" => ("mixed", "JSON records and HTML fragments with strings in four scripts", generate::mixed(s, t)),
        "random-scalars" => {
            ("random-scalars", "uniformly random scalar values (mostly 4 bytes)", generate::random_scalars(s, t))
        }
        "random-lengths" => {
            ("random-lengths", "random scalar values, UTF-8 length uniform in 1-4", generate::random_lengths(s, t))
        }
        _ => return None,
    };
    Some(Corpus { name, summary, text })
}

/// All corpora, in the order of [`NAMES`].
pub fn all() -> Vec<Corpus> {
    NAMES.iter().map(|n| by_name(n).expect("every listed name has a generator")).collect()
}

/// The `mixed` corpus in UTF-8, damaged about once every [`MUTATION_SPACING`]
/// bytes by [`mutate`]: invalid input for lossy decoding.
pub fn mutated_utf8() -> Vec<u8> {
    mutated(&by_name("mixed").expect("mixed exists").utf8())
}

/// Damages `encoded` — the `mixed` corpus in any encoding — exactly as
/// [`mutated_utf8`] damages its UTF-8 (same seed, same spacing), so every codec's
/// lossy path runs on comparable input.
pub fn mutated(encoded: &[u8]) -> Vec<u8> {
    mutate(encoded, seed(MUTATED), MUTATION_SPACING)
}
