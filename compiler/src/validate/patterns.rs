//! A form's pattern text (`"110xxxxx 10xxxxxx"`, `"1xxxxxxx* 0xxxxxxx"`) → its unit
//! patterns: unit widths, bit characters, payload bits low, at most one repeated
//! unit that a distinguishable unit ends; and whether two patterns conflict.

use proc_macro2::Span;

use super::checker::Checker;
use crate::model::{ByteOrder, DigitUnit, UnitPattern};

/// A unit pattern as parsed from a form's string, before checks that need the model.
pub(super) struct ParsedForm {
    /// The unit patterns, in order.
    pub(super) units: Vec<UnitPattern>,
    /// Index of the repeated unit, if any.
    pub(super) repeat: Option<usize>,
    /// Where the pattern was written.
    pub(super) span: Span,
    /// The pattern text.
    pub(super) text: String,
}

/// Parses the pattern string `lit` for code units of `width` bits, reporting
/// every problem; `None` if there was one. A code unit wider than a byte
/// becomes its bytes' patterns, serialized in `order`.
pub(super) fn parse_pattern(c: &mut Checker, lit: &syn::LitStr, width: u32, order: ByteOrder) -> Option<ParsedForm> {
    let text = lit.value();
    let span = lit.span();
    let mut units = Vec::new();
    let mut repeat = None;
    let mut ok = true;
    for (i, word) in text.split_whitespace().enumerate() {
        let (body, rep) = match word.strip_suffix('*') {
            Some(b) => (b, true),
            None => (word, false),
        };
        if rep && width > 8 {
            c.error(span, format!("`{text}`: only units of a byte or an alphabet symbol may repeat"));
            ok = false;
        } else if rep {
            if repeat.is_some() {
                c.error(span, format!("`{text}`: only one unit of a form may repeat"));
                ok = false;
            }
            repeat = Some(i);
        }
        if is_digit_unit(body) {
            match parse_digit_unit(c, span, word, body, width) {
                Some(digits) => units.push(UnitPattern { digits: Some(digits), ..UnitPattern::bits(0, 0, 0) }),
                None => ok = false,
            }
            continue;
        }
        match parse_unit(c, span, word, body, width) {
            Some(unit) => units.extend(bytes_of(unit, width, order)),
            None => ok = false,
        }
    }
    let form = ParsedForm { units, repeat, span, text };
    (ok && check_shape(c, &form)).then_some(form)
}

/// Whether a unit is written as a digit unit: `T` or `[lo-hi]`.
fn is_digit_unit(body: &str) -> bool {
    body == "T" || body.starts_with('[')
}

/// A digit unit: `T` (a digit of the codec's `digits`) or `[lo-hi]` / `[b]`
/// (bytes in hex; byte `x` is digit `x − lo`). Byte units only.
fn parse_digit_unit(c: &mut Checker, span: Span, word: &str, body: &str, width: u32) -> Option<DigitUnit> {
    if width != 8 {
        c.error(
            span,
            format!("`{word}`: digit units (`T`, `[lo-hi]`) are bytes; this codec's units have {width} bits"),
        );
        return None;
    }
    if word.ends_with('*') {
        c.error(span, format!("`{word}`: a digit unit cannot repeat; write each length as its own form"));
        return None;
    }
    if body == "T" {
        return Some(DigitUnit::Set);
    }
    let hex = |t: &str| (t.len() == 2).then(|| u8::from_str_radix(t, 16).ok()).flatten();
    let inner = body.strip_prefix('[').and_then(|b| b.strip_suffix(']'));
    let bounds = inner.map(|t| t.split_once('-').unwrap_or((t, t)));
    match bounds.map(|(lo, hi)| (hex(lo), hex(hi))) {
        Some((Some(lo), Some(hi))) if lo <= hi => Some(DigitUnit::Range(lo, hi)),
        Some((Some(lo), Some(hi))) => {
            c.error(span, format!("`{word}`: empty byte range, {lo:02X} is above {hi:02X}"));
            None
        }
        _ => {
            c.error(span, format!("`{word}`: write a byte range as two hex digits each, `[A1-F5]` or `[A0]`"));
            None
        }
    }
}

/// A code unit's pattern: fixed-bit mask, fixed bits, payload bits (the low ones).
type Wide = (u32, u32, u32);

/// The byte patterns of a code unit of `width` bits, serialized in `order`
/// (the unit itself when it is a byte or a symbol).
fn bytes_of((mask, bits, payload): Wide, width: u32, order: ByteOrder) -> Vec<UnitPattern> {
    if width <= 8 {
        return vec![UnitPattern::bits(mask as u8, bits as u8, payload)];
    }
    let n = width / 8;
    let byte = |s: u32| {
        UnitPattern::bits((mask >> (8 * s)) as u8, (bits >> (8 * s)) as u8, payload.saturating_sub(8 * s).min(8))
    };
    match order {
        ByteOrder::Big => (0..n).rev().map(byte).collect(),
        ByteOrder::Little => (0..n).map(byte).collect(),
    }
}

/// One unit of a pattern: `body` is `word` without its `*`.
fn parse_unit(c: &mut Checker, span: Span, word: &str, body: &str, width: u32) -> Option<Wide> {
    // A character that is not a bit is the error, whatever the unit's length.
    if let Some(other) = body.chars().find(|&ch| !matches!(ch, '0' | '1' | 'a'..='z')) {
        let what = if other.is_ascii_uppercase() { "payload letters are lowercase; " } else { "" };
        c.error(
            span,
            format!(
                "`{word}`: `{}` is not a bit; {what}write 0, 1 or a payload letter (x, v, z …)",
                other.escape_debug()
            ),
        );
        return None;
    }
    if body.chars().count() != width as usize {
        let s = if body.len() == 1 { "" } else { "s" };
        c.error(span, format!("`{word}` has {} bit{s}, but a unit has {width}", body.len()));
        return None;
    }
    let mut mask = 0u32;
    let mut bits = 0u32;
    let mut payload = 0u32;
    for ch in body.chars() {
        mask <<= 1;
        bits <<= 1;
        match ch {
            '0' | '1' => {
                if payload > 0 {
                    c.error(
                        span,
                        format!("`{word}`: payload bits must be the low bits of a unit (a fixed bit follows one)"),
                    );
                    return None;
                }
                mask |= 1;
                bits |= u32::from(ch == '1');
            }
            _ => payload += 1,
        }
    }
    Some((mask, bits, payload))
}

/// Checks a pattern whose units all parsed: it has a unit, and a repeated unit
/// carries payload and is followed by a unit that tells where the repetition ends.
fn check_shape(c: &mut Checker, form: &ParsedForm) -> bool {
    let (units, text) = (&form.units, &form.text);
    if units.is_empty() {
        c.error(form.span, "a form needs at least one unit");
        return false;
    }
    let Some(r) = form.repeat else {
        return true;
    };
    if r + 1 == units.len() {
        c.error(form.span, format!("`{text}`: a repeated unit needs a unit after it that ends the form"));
        return false;
    }
    if units[r].overlaps(&units[r + 1]) {
        c.error(form.span, format!("`{text}`: the repeated unit and the unit after it match the same units, so the end of the repetition cannot be told"));
        return false;
    }
    if units[r].payload_bits == 0 {
        // Each repetition would add no values: no length would ever reach a
        // bounded range's end.
        c.error(
            form.span,
            format!("`{text}`: a repeated unit must carry payload bits (a letter), or repeating it adds no values"),
        );
        return false;
    }
    true
}
