//! The seeded generators behind [`super::all`]: a small PRNG and one function per
//! corpus that picks and orders words until the text is long enough.
//!
//! Every corpus is drawn word by word (or value by value), so no paragraph ever
//! repeats: a branch predictor cannot learn the text, as it could learn one
//! paragraph pasted a thousand times.

use super::words;

/// The corpora's generator: the same SplitMix64 the analyses sample with.
pub use placemat_compiler::analysis::Rng;

/// The entries of a word list.
pub fn list(text: &'static str) -> Vec<&'static str> {
    text.split_whitespace().collect()
}

/// Text under construction: scalar values plus a running UTF-8 length.
pub struct Text {
    pub values: Vec<u32>,
    pub utf8_len: usize,
}

impl Text {
    pub fn new() -> Self {
        Text { values: Vec::new(), utf8_len: 0 }
    }
    pub fn push(&mut self, c: char) {
        self.values.push(c as u32);
        self.utf8_len += c.len_utf8();
    }
    pub fn push_str(&mut self, s: &str) {
        for c in s.chars() {
            self.push(c);
        }
    }
    /// Appends `word` with its first letter in upper case.
    pub fn push_capitalized(&mut self, word: &str) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            for up in first.to_uppercase() {
                self.push(up);
            }
        }
        for c in chars {
            self.push(c);
        }
    }
}

fn end_mark(rng: &mut Rng, marks: [&'static str; 3]) -> &'static str {
    match rng.below(20) {
        0..=13 => marks[0],
        14..=16 => marks[1],
        _ => marks[2],
    }
}

/// A sentence of space-separated words: capitalized, with commas, an occasional
/// number and an occasional long dash (`dash`), ended by one of `marks`.
fn spaced_sentence(rng: &mut Rng, text: &mut Text, vocab: &[&str], dash: Option<&str>, marks: [&'static str; 3]) {
    let n = 4 + rng.below(13);
    for i in 0..n {
        if i > 0 {
            if rng.one_in(9) {
                text.push(',');
            }
            text.push(' ');
            if let Some(d) = dash {
                if rng.one_in(40) {
                    text.push_str(d);
                    text.push(' ');
                }
            }
        }
        if rng.one_in(35) {
            text.push_str(&rng.range(2, 2100).to_string());
            continue;
        }
        let w = rng.pick(vocab);
        if i == 0 {
            text.push_capitalized(w);
        } else {
            text.push_str(w);
        }
    }
    text.push_str(end_mark(rng, marks));
}

/// Paragraphs of [`spaced_sentence`]s until `target` UTF-8 bytes.
pub fn spaced_prose(seed: u64, target: usize, vocab: &'static str, dash: Option<&str>) -> Vec<u32> {
    let vocab = list(vocab);
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    while text.utf8_len < target {
        let sentences = 2 + rng.below(6);
        for s in 0..sentences {
            if s > 0 {
                text.push(' ');
            }
            spaced_sentence(&mut rng, &mut text, &vocab, dash, [".", "?", "!"]);
        }
        text.push_str("\n\n");
    }
    text.values
}

/// Chinese prose: words run together, full-width punctuation, one paragraph a line.
pub fn chinese(seed: u64, target: usize) -> Vec<u32> {
    let vocab = list(words::CHINESE);
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    while text.utf8_len < target {
        let sentences = 2 + rng.below(6);
        for _ in 0..sentences {
            let n = 4 + rng.below(14);
            for i in 0..n {
                if i > 0 && rng.one_in(6) {
                    text.push('，');
                }
                if rng.one_in(60) {
                    text.push_str(&rng.range(2, 2100).to_string());
                } else {
                    text.push_str(rng.pick(&vocab));
                }
            }
            text.push_str(end_mark(&mut rng, ["。", "？", "！"]));
        }
        text.push('\n');
    }
    text.values
}

/// Korean prose: noun + particle phrases, modifiers, a sentence-final verb.
pub fn korean(seed: u64, target: usize) -> Vec<u32> {
    let nouns = list(words::KOREAN_NOUNS);
    let particles = list(words::KOREAN_PARTICLES);
    let modifiers = list(words::KOREAN_MODIFIERS);
    let verbs = list(words::KOREAN_VERBS);
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    while text.utf8_len < target {
        let sentences = 2 + rng.below(6);
        for s in 0..sentences {
            if s > 0 {
                text.push(' ');
            }
            let phrases = 1 + rng.below(5);
            for _ in 0..phrases {
                if rng.one_in(3) {
                    text.push_str(rng.pick(&modifiers));
                    text.push(' ');
                }
                if rng.one_in(40) {
                    text.push_str(&rng.range(2, 2100).to_string());
                    text.push_str("개");
                } else {
                    text.push_str(rng.pick(&nouns));
                }
                text.push_str(rng.pick(&particles));
                if rng.one_in(8) {
                    text.push(',');
                }
                text.push(' ');
            }
            text.push_str(rng.pick(&verbs));
            text.push_str(end_mark(&mut rng, [".", "?", "!"]));
        }
        text.push('\n');
    }
    text.values
}

/// Chat-like lines where most tokens are emoji (with skin tones, ZWJ sequences,
/// flags and keycaps) between a few English words.
pub fn emoji(seed: u64, target: usize) -> Vec<u32> {
    let emoji = list(words::EMOJI);
    let english = list(words::ENGLISH);
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    while text.utf8_len < target {
        let tokens = 1 + rng.below(9);
        for i in 0..tokens {
            if i > 0 && !rng.one_in(4) {
                text.push(' ');
            }
            if rng.below(10) < 8 {
                let e = rng.pick(&emoji);
                for _ in 0..1 + usize::from(rng.one_in(4)) + usize::from(rng.one_in(8)) {
                    text.push_str(e);
                }
            } else {
                text.push_str(rng.pick(&english));
            }
        }
        text.push('\n');
    }
    text.values
}

/// The languages of the mixed corpus, with their tag and a phrase generator.
struct Languages {
    english: Vec<&'static str>,
    russian: Vec<&'static str>,
    chinese: Vec<&'static str>,
    korean: Vec<&'static str>,
    emoji: Vec<&'static str>,
}

impl Languages {
    fn new() -> Self {
        Languages {
            english: list(words::ENGLISH),
            russian: list(words::RUSSIAN),
            chinese: list(words::CHINESE),
            korean: list(words::KOREAN_NOUNS),
            emoji: list(words::EMOJI),
        }
    }

    /// A phrase of `min` to `min + spread - 1` words in a random language, and
    /// that language's tag.
    fn phrase(&self, rng: &mut Rng, min: usize, spread: usize) -> (&'static str, String) {
        let words = min + rng.below(spread);
        let (tag, vocab, sep) = match rng.below(5) {
            0 => ("en", &self.english, " "),
            1 => ("ru", &self.russian, " "),
            2 => ("zh", &self.chinese, ""),
            3 => ("ko", &self.korean, " "),
            _ => ("en", &self.english, " "),
        };
        let mut s = String::new();
        for i in 0..words {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(rng.pick(vocab));
            if rng.one_in(12) {
                s.push_str(sep);
                s.push_str(rng.pick(&self.emoji));
            }
        }
        (tag, s)
    }
}

/// A realistic mix: JSON records and HTML fragments whose strings are in several
/// scripts, with the markup, keys and numbers in ASCII.
pub fn mixed(seed: u64, target: usize) -> Vec<u32> {
    let langs = Languages::new();
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    let mut id = 1000u64;
    while text.utf8_len < target {
        id += 1 + rng.range(0, 40);
        if rng.one_in(2) {
            let (tag, title) = langs.phrase(&mut rng, 2, 6);
            let (_, body) = langs.phrase(&mut rng, 6, 20);
            let pretty = rng.one_in(3);
            let (nl, ind) = if pretty { ("\n", "  ") } else { ("", "") };
            let mut s =
                format!("{{{nl}{ind}\"id\": {id},{nl}{ind}\"lang\": \"{tag}\",{nl}{ind}\"title\": \"{title}\",");
            s.push_str(&format!("{nl}{ind}\"body\": \"{body}\",{nl}{ind}\"tags\": ["));
            for t in 0..1 + rng.below(4) {
                if t > 0 {
                    s.push_str(", ");
                }
                let (_, tag_word) = langs.phrase(&mut rng, 1, 1);
                s.push_str(&format!("\"{tag_word}\""));
            }
            let score = rng.range(0, 99_999);
            s.push_str(&format!(
                "],{nl}{ind}\"score\": {}.{:02},{nl}{ind}\"draft\": {}{nl}}}\n",
                score / 100,
                score % 100,
                rng.one_in(4)
            ));
            text.push_str(&s);
        } else {
            let (tag, title) = langs.phrase(&mut rng, 2, 5);
            let mut s = format!("<article id=\"a{id}\" lang=\"{tag}\">\n  <h2 class=\"title\">{title}</h2>\n");
            for _ in 0..1 + rng.below(3) {
                let (ptag, para) = langs.phrase(&mut rng, 5, 25);
                s.push_str(&format!("  <p lang=\"{ptag}\">{para}</p>\n"));
            }
            let (_, link) = langs.phrase(&mut rng, 1, 3);
            s.push_str(&format!("  <a href=\"/item/{}?ref={id}\">{link}</a>\n</article>\n", rng.range(1, 99_999)));
            text.push_str(&s);
        }
    }
    text.values
}

/// The first and last scalar value of each UTF-8 length, surrogates aside.
const LENGTHS: [(u32, u32); 4] = [(0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0x1_0000, 0x10_FFFF)];

fn scalar_in(rng: &mut Rng, lo: u32, hi: u32) -> u32 {
    // Draw from the range with the surrogates cut out, then step over them.
    let overlap = if lo <= 0xD800 && hi >= 0xDFFF { 0x800 } else { 0 };
    let v = rng.range(u64::from(lo), u64::from(hi) - overlap) as u32;
    if overlap != 0 && v >= 0xD800 {
        v + 0x800
    } else {
        v
    }
}

/// Uniformly random scalar values (so mostly 4-byte sequences in UTF-8).
pub fn random_scalars(seed: u64, target: usize) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    while text.utf8_len < target {
        let v = scalar_in(&mut rng, 0, 0x10_FFFF);
        text.push(char::from_u32(v).expect("a scalar value"));
    }
    text.values
}

/// Scalar values whose UTF-8 length is uniform in 1–4: the worst case for a
/// decoder that branches on the length.
pub fn random_lengths(seed: u64, target: usize) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut text = Text::new();
    while text.utf8_len < target {
        let (lo, hi) = LENGTHS[rng.below(4)];
        let v = scalar_in(&mut rng, lo, hi);
        text.push(char::from_u32(v).expect("a scalar value"));
    }
    text.values
}

/// Damages `bytes` about once every `every` bytes: a flipped bit, a dropped byte,
/// an inserted continuation-like byte (80–FF), a replaced byte, or a cut sequence.
pub fn mutate(bytes: &[u8], seed: u64, every: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / every.max(1) + 8);
    let mut next = rng.below(2 * every.max(1));
    let mut i = 0;
    while i < bytes.len() {
        if out.len() < next {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        next = out.len() + 1 + rng.below(2 * every.max(1));
        match rng.below(5) {
            0 => {
                out.push(bytes[i] ^ (1 << rng.below(8)));
                i += 1;
            }
            1 => i += 1,
            2 => out.push(rng.range(0x80, 0xFF) as u8),
            3 => {
                out.push(rng.range(0, 0xFF) as u8);
                i += 1;
            }
            _ => {
                // Keep a lead unit and drop what follows it up to the next unit
                // below 0x80 or at most three units.
                out.push(bytes[i]);
                i += 1;
                let mut dropped = 0;
                while i < bytes.len() && bytes[i] >= 0x80 && dropped < 3 && rng.one_in(2) {
                    i += 1;
                    dropped += 1;
                }
            }
        }
    }
    out
}
