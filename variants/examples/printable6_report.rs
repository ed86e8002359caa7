//! Figures for `papers/printable6.md`: how readable English stays under the 6-bit
//! printable encoding, and what it costs in bytes per character on every corpus,
//! next to UTF-8. Run with
//! `cargo run --release -p placemat-variants --example printable6_report`.

use placemat_codec::Encoder;
use placemat_variants::codecs::{Printable6, Utf8};
use placemat_variants::corpus;

/// A paragraph of plain English prose, written for this measurement.
const PROSE: &str = "The placemat was a paper one, the kind a diner lays under the plates. \
On it, one evening in September, two programmers worked out how a stream of bytes could \
carry every character of every script and still look like ASCII to old programs. Their \
answer fit on the back of that sheet; the sheet itself did not survive the meal. Years \
later the scheme carries most of the text on the web, and few people who use it know the \
story, or that a different design was on the table only a week before.";

/// Share of characters written as themselves (one unit, equal to the character).
fn unchanged_share(text: &[u32]) -> f64 {
    let mut buf = [0u8; 8];
    let same =
        text.iter().filter(|&&c| matches!(Printable6.encode(c, &mut buf), Ok(1) if u32::from(buf[0]) == c)).count();
    same as f64 / text.len() as f64
}

fn bytes_per_char<E: Encoder<Value = u32>>(codec: &E, text: &[u32]) -> f64 {
    let mut out = Vec::new();
    codec.encode_all(text, &mut out).expect("corpora hold scalar values");
    out.len() as f64 / text.len() as f64
}

fn main() {
    let prose: Vec<u32> = PROSE.chars().map(|c| c as u32).collect();
    println!("Characters written unchanged by printable6:");
    println!("| text | characters | unchanged |");
    println!("|---|---:|---:|");
    println!("| the paragraph in this example | {} | {:.1}% |", prose.len(), 100.0 * unchanged_share(&prose));
    let english = corpus::by_name("english").expect("the english corpus exists");
    println!("| corpus `english` | {} | {:.1}% |", english.text.len(), 100.0 * unchanged_share(&english.text));
    println!();
    println!("Bytes per character:");
    println!("| corpus | utf8 | printable6 | printable6 / utf8 |");
    println!("|---|---:|---:|---:|");
    for c in corpus::all() {
        let u = bytes_per_char(&Utf8, &c.text);
        let p = bytes_per_char(&Printable6, &c.text);
        println!("| {} | {u:.3} | {p:.3} | {:.2} |", c.name, p / u);
    }
}
