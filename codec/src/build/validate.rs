//! Pass 2: checks an [`Ast`] and builds the span-free [`Model`], reporting every
//! problem at once, each at the tokens it concerns (and, for conflicts, at both).
//!
//! ```
//! use placemat_codec::build::Description;
//! let errors = Description::parse_str(r#"
//!     pub Bad { name: "bad", value: u32, range: 0 ..= 0xFF, colour: "red",
//!               forms: { "0xxxxxxx", "0xxxxxxx 10xxxxxx" } }
//! "#).unwrap_err();
//! let messages: Vec<_> = errors.iter().map(|d| d.message.as_str()).collect();
//! assert!(messages.iter().any(|m| m.contains("unknown key `colour`")));
//! assert!(messages.iter().any(|m| m.contains("is a prefix of")));
//! ```
//!
//! Follow-on errors are avoided: a field that failed to check is treated as absent
//! by later checks, and checks that need it are skipped.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proc_macro2::Span;

use super::model::{ConcreteForm, Form, Layout, Model, UnitPattern, ValueType};
use super::syntax::{Ast, FieldValue, FormLit, IntLit, RangeLit};
use super::{Diagnostic, Diagnostics};
use crate::Unit;

const KEYS: &[&str] = &["name", "summary", "unit", "value", "range", "exclude", "layout", "premap", "forms"];

struct Checker {
    errors: Vec<Diagnostic>,
}

impl Checker {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::new(span, message));
    }

    fn error_range(&mut self, r: &RangeLit, message: impl Into<String>) {
        self.errors.push(Diagnostic::new(r.span, message).to(r.end));
    }

    fn error2(&mut self, span: Span, message: impl Into<String>, other: Span, note: impl Into<String>) {
        self.errors.push(Diagnostic::new(span, message).with_note(other, note));
    }

    /// A conflict between two written ranges: the error covers the whole of `first`
    /// (`(start, end)` spans), the note points at the other.
    fn error2_range(&mut self, at: (Span, Span), message: impl Into<String>, other: Span, note: impl Into<String>) {
        self.errors.push(Diagnostic::new(at.0, message).to(at.1).with_note(other, note));
    }

    fn int(&mut self, lit: &IntLit) -> Option<BigUint> {
        match lit.value {
            Some(v) => Some(BigUint::from(v)),
            None => {
                self.error(lit.span, "integer does not fit in 128 bits");
                None
            }
        }
    }

    fn range(&mut self, r: &RangeLit) -> Option<(BigUint, Option<BigUint>)> {
        let lo = self.int(&r.lo)?;
        let hi = match &r.hi {
            Some(h) => Some(self.int(h)?),
            None => None,
        };
        if let Some(h) = &hi {
            if *h < lo {
                self.error_range(r, format!("empty range: {} is greater than {}", hex(&lo), hex(h)));
                return None;
            }
        }
        Some((lo, hi))
    }

    fn closed_range(&mut self, r: &RangeLit) -> Option<(BigUint, BigUint)> {
        let (lo, hi) = self.range(r)?;
        match hi {
            Some(hi) => Some((lo, hi)),
            None => {
                self.error_range(r, "this range needs an upper bound (`lo ..= hi`)");
                None
            }
        }
    }
}

/// Formats a value as `0x…`.
pub(crate) fn hex(v: &BigUint) -> String {
    format!("{v:#X}").replace("0X", "0x")
}

fn expect_str<'a>(c: &mut Checker, v: &'a FieldValue, what: &str) -> Option<&'a syn::LitStr> {
    match v {
        FieldValue::Str(s) => Some(s),
        other => {
            c.error(other.span(), format!("`{what}` takes a string, like `{what}: \"…\"`"));
            None
        }
    }
}

fn expect_word<'a>(c: &mut Checker, v: &'a FieldValue, what: &str, words: &[&str]) -> Option<&'a syn::Ident> {
    match v {
        FieldValue::Word(w) if words.iter().any(|x| w == x) => Some(w),
        other => {
            c.error(
                other.span(),
                format!(
                    "`{what}` takes one of: {}",
                    words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
                ),
            );
            None
        }
    }
}

/// A unit pattern as parsed from a form's string, before checks that need the model.
struct ParsedForm {
    units: Vec<UnitPattern>,
    repeat: Option<usize>,
    span: Span,
    text: String,
}

fn parse_pattern(c: &mut Checker, lit: &syn::LitStr, width: u32) -> Option<ParsedForm> {
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
        if rep {
            if repeat.is_some() {
                c.error(span, format!("`{text}`: only one unit of a form may repeat"));
                ok = false;
            }
            repeat = Some(i);
        }
        if body.len() != width as usize {
            c.error(
                span,
                format!(
                    "`{word}` has {} bit{}, but a unit has {width}",
                    body.len(),
                    if body.len() == 1 { "" } else { "s" }
                ),
            );
            ok = false;
            continue;
        }
        let mut mask = 0u8;
        let mut bits = 0u8;
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
                        ok = false;
                        break;
                    }
                    mask |= 1;
                    bits |= (ch == '1') as u8;
                }
                c2 if c2.is_ascii_alphabetic() => payload += 1,
                other => {
                    c.error(
                        span,
                        format!("`{word}`: `{other}` is not a bit; write 0, 1 or a payload letter (x, v, z …)"),
                    );
                    ok = false;
                    break;
                }
            }
        }
        units.push(UnitPattern { fixed_mask: mask, fixed_bits: bits, payload_bits: payload });
    }
    if units.is_empty() && ok {
        c.error(span, "a form needs at least one unit");
        ok = false;
    }
    if let Some(r) = repeat {
        if ok && r + 1 == units.len() {
            c.error(span, format!("`{text}`: a repeated unit needs a unit after it that ends the form"));
            ok = false;
        }
        if ok && units[r].overlaps(&units[r + 1]) {
            c.error(span, format!("`{text}`: the repeated unit and the unit after it match the same units, so the end of the repetition cannot be told"));
            ok = false;
        }
    }
    ok.then_some(ParsedForm { units, repeat, span, text })
}

/// Whether some unit sequence matches expansion of `a` and a prefix of an expansion
/// of `b` (or the other way round). Returns `(prefix_of, same_length)`.
fn conflict(a: &ParsedForm, b: &ParsedForm) -> Option<bool> {
    let expand = |f: &ParsedForm, reps: usize| -> Vec<UnitPattern> {
        Form { units: f.units.clone(), repeat: f.repeat, range: None, bias: None }.expand(reps)
    };
    let reps_a = if a.repeat.is_some() { 0..=3 } else { 0..=0 };
    for ra in reps_a {
        let ea = expand(a, ra);
        let reps_b = if b.repeat.is_some() { 0..=3 } else { 0..=0 };
        for rb in reps_b {
            let eb = expand(b, rb);
            if ea.len() <= eb.len() && ea.iter().zip(&eb).all(|(x, y)| x.overlaps(y)) {
                return Some(ea.len() == eb.len());
            }
        }
    }
    None
}

/// Checks `ast` and builds its model.
pub fn validate(ast: &Ast) -> Result<Model, Diagnostics> {
    let mut c = Checker { errors: Vec::new() };
    for span in &ast.other_attrs {
        c.error(*span, "only `///` doc comments may precede a description");
    }

    // Keys: unknown and duplicate.
    let mut fields: BTreeMap<String, &FieldValue> = BTreeMap::new();
    let mut key_spans: BTreeMap<String, Span> = BTreeMap::new();
    for f in &ast.fields {
        let key = f.key.to_string();
        if !KEYS.contains(&key.as_str()) {
            c.error(f.key.span(), format!("unknown key `{key}`; expected one of: {}", KEYS.join(", ")));
            continue;
        }
        if let Some(first) = key_spans.get(&key) {
            c.error2(f.key.span(), format!("`{key}` is given twice"), *first, "first given here");
            continue;
        }
        key_spans.insert(key.clone(), f.key.span());
        fields.insert(key, &f.value);
    }
    let whole = ast.ident.span();
    for required in ["name", "value", "range", "forms"] {
        if !fields.contains_key(required) {
            c.error(whole, format!("missing `{required}: …`"));
        }
    }

    let name = fields.get("name").and_then(|v| expect_str(&mut c, v, "name")).and_then(|s| {
        let n = s.value();
        if n.is_empty() || !n.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-') {
            c.error(s.span(), "a codec name is lowercase letters, digits and `-`");
            None
        } else {
            Some(n)
        }
    });
    let summary = match fields.get("summary") {
        Some(v) => expect_str(&mut c, v, "summary").map(|s| s.value()),
        None => Some(ast.docs.first().map(|d| d.trim().to_string()).unwrap_or_default()),
    };

    let unit = match fields.get("unit") {
        None => Some(Unit::Byte),
        Some(FieldValue::Word(w)) if w == "byte" => Some(Unit::Byte),
        Some(FieldValue::Alphabet(w, text)) if w == "alphabet" => {
            let s = text.value();
            let mut ok = true;
            if !s.is_ascii() {
                c.error(text.span(), "alphabet symbols must be ASCII characters (one byte each)");
                ok = false;
            }
            let bytes = s.as_bytes();
            if ok && !(bytes.len() >= 2 && bytes.len() <= 256 && bytes.len().is_power_of_two()) {
                c.error(
                    text.span(),
                    format!("an alphabet has 2, 4, 8, … or 256 symbols; this one has {}", bytes.len()),
                );
                ok = false;
            }
            for (i, b) in bytes.iter().enumerate() {
                if let Some(j) = bytes[..i].iter().position(|x| x == b) {
                    c.error(
                        text.span(),
                        format!("alphabet symbol {:?} appears twice (digits {j} and {i})", *b as char),
                    );
                    ok = false;
                }
            }
            ok.then(|| Unit::Alphabet(bytes.to_vec().into()))
        }
        Some(other) => {
            c.error(other.span(), "`unit` takes `byte` or `alphabet(\"…\")`");
            None
        }
    };

    let value = fields.get("value").and_then(|v| expect_word(&mut c, v, "value", &["u32", "u64", "unbounded"])).map(
        |w| match w.to_string().as_str() {
            "u32" => ValueType::U32,
            "u64" => ValueType::U64,
            _ => ValueType::Unbounded,
        },
    );
    let layout = match fields.get("layout") {
        None => Some(Layout::Shortest),
        Some(v) => expect_word(&mut c, v, "layout", &["shortest", "biased", "explicit"]).map(|w| {
            match w.to_string().as_str() {
                "shortest" => Layout::Shortest,
                "biased" => Layout::Biased,
                _ => Layout::Explicit,
            }
        }),
    };

    // The value range.
    let range = match fields.get("range") {
        Some(FieldValue::Range(r)) => c.range(r).map(|x| (x, r)),
        Some(other) => {
            c.error(other.span(), "`range` takes `lo ..= hi` or `lo ..`");
            None
        }
        None => None,
    };
    if let (Some(((_, hi), lit)), Some(vt)) = (&range, value) {
        match (hi, vt.bits()) {
            (None, Some(bits)) => c.error_range(
                lit,
                format!(
                    "an open range needs `value: unbounded`; u{bits} values end at {}",
                    hex(&((BigUint::one() << bits) - 1u32))
                ),
            ),
            (Some(h), Some(bits)) if h.bits() > u64::from(bits) => {
                // At the bound that does not fit.
                let at = lit.hi.as_ref().map_or(lit.span, |h| h.span);
                c.error(at, format!("{} does not fit the value type u{bits}", hex(h)))
            }
            _ => {}
        }
    }

    // Excluded ranges.
    let mut excluded = Vec::new();
    match fields.get("exclude") {
        None => {}
        Some(FieldValue::Ranges(_, rs)) => {
            let mut spans = Vec::new();
            for r in rs {
                if let Some((lo, hi)) = c.closed_range(r) {
                    if let Some(((rlo, rhi), _)) = &range {
                        if lo < *rlo || rhi.as_ref().is_some_and(|m| hi > *m) {
                            c.error_range(r, "an excluded range must lie inside `range`");
                            continue;
                        }
                    }
                    excluded.push((lo, hi, (r.span, r.end)));
                    spans.push(r.span);
                }
            }
            excluded.sort_by(|a, b| a.0.cmp(&b.0));
            for w in excluded.windows(2) {
                if w[1].0 <= w[0].1 {
                    c.error2_range(w[1].2, "excluded ranges overlap", w[0].2 .0, "overlaps this one");
                }
            }
        }
        Some(other) => c.error(other.span(), "`exclude` takes a list of ranges: `[lo ..= hi, …]`"),
    }
    let excluded: Vec<(BigUint, BigUint)> = excluded.into_iter().map(|(lo, hi, _)| (lo, hi)).collect();

    // Pre-mapping.
    let premap = match fields.get("premap") {
        None => None,
        Some(FieldValue::Ints(span, items)) => {
            let n = items.len();
            let mut seen = vec![None::<usize>; n];
            let mut out = Vec::with_capacity(n);
            let mut ok = true;
            for (i, item) in items.iter().enumerate() {
                match item.value {
                    Some(v) if (v as usize) < n && v < u128::from(u32::MAX) => {
                        if let Some(j) = seen[v as usize] {
                            c.error2(
                                item.span,
                                format!(
                                    "the pre-mapping is not a bijection: {v:#X} is the image of both {j:#X} and {i:#X}"
                                ),
                                items[j].span,
                                "first image here",
                            );
                            ok = false;
                        }
                        seen[v as usize] = Some(i);
                        out.push(v as u32);
                    }
                    _ => {
                        c.error(
                            item.span,
                            format!("a pre-mapping of {n} values maps onto 0..{n}; this value is outside"),
                        );
                        ok = false;
                    }
                }
            }
            if ok {
                let missing: Vec<String> =
                    seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(v, _)| format!("{v:#X}")).collect();
                if !missing.is_empty() {
                    c.error(
                        *span,
                        format!("the pre-mapping is not a bijection: nothing maps to {}", missing.join(", ")),
                    );
                    ok = false;
                }
            }
            if ok {
                if let Some(((lo, _), _)) = &range {
                    let inside = lo.is_zero() && excluded.iter().all(|(elo, _)| *elo >= BigUint::from(n));
                    if !inside {
                        c.error(
                            *span,
                            "the pre-mapped values 0..N must all be valid values (in `range`, not excluded)",
                        );
                        ok = false;
                    }
                }
            }
            ok.then_some(out)
        }
        Some(other) => {
            c.error(other.span(), "`premap` takes a list of integers: `[v0, v1, …]`");
            None
        }
    };

    // Forms.
    let width = match &unit {
        Some(Unit::Byte) => Some(8),
        Some(Unit::Alphabet(a)) => Some(a.len().trailing_zeros()),
        None => None,
    };
    let mut forms: Vec<(Form, &FormLit, ParsedForm)> = Vec::new();
    let mut forms_ok = true;
    match fields.get("forms") {
        None => forms_ok = false,
        Some(FieldValue::Forms(span, lits)) => {
            if lits.is_empty() {
                c.error(*span, "`forms` needs at least one form");
                forms_ok = false;
            }
            for lit in lits {
                let Some(width) = width else {
                    forms_ok = false;
                    break;
                };
                let parsed = parse_pattern(&mut c, &lit.pattern, width);
                let range = lit.range.as_ref().and_then(|r| c.closed_range(r));
                let bias = lit.bias.as_ref().and_then(|b| c.int(b));
                // A written range or bias that failed its check has been reported;
                // the form must not reach the model as if none had been written.
                if (lit.range.is_some() && range.is_none()) || (lit.bias.is_some() && bias.is_none()) {
                    forms_ok = false;
                }
                match parsed {
                    Some(p) => forms.push((Form { units: p.units.clone(), repeat: p.repeat, range, bias }, lit, p)),
                    None => forms_ok = false,
                }
            }
        }
        Some(other) => {
            c.error(other.span(), "`forms` takes `{ \"pattern\", … }` or `{ lo ..= hi => \"pattern\", … }`");
            forms_ok = false;
        }
    }

    // Prefix-freeness, pairwise, pointing at both forms.
    for i in 0..forms.len() {
        for j in 0..forms.len() {
            if i == j {
                continue;
            }
            let (a, b) = (&forms[i].2, &forms[j].2);
            match conflict(a, b) {
                Some(true) if i < j => {
                    c.error2(
                        b.span,
                        format!("forms `{}` and `{}` accept the same units", a.text, b.text),
                        a.span,
                        "the other form",
                    );
                    forms_ok = false;
                }
                Some(false) => {
                    c.error2(
                        a.span,
                        format!("form `{}` is a prefix of form `{}`: the forms are not prefix-free", a.text, b.text),
                        b.span,
                        "the longer form",
                    );
                    forms_ok = false;
                }
                _ => {}
            }
        }
    }

    // Payload widths against the value type.
    if let Some(bits) = value.and_then(|v| v.bits()) {
        for (form, _, p) in &forms {
            if form.repeat.is_none() {
                let payload: u32 = form.units.iter().map(|u| u.payload_bits).sum();
                if payload > bits {
                    c.error(
                        p.span,
                        format!("this form carries {payload} payload bits, more than the value type u{bits} holds"),
                    );
                    forms_ok = false;
                }
            }
        }
    }

    // Layout-specific checks on given ranges and biases.
    if let Some(layout) = layout {
        for (form, lit, p) in &forms {
            match layout {
                Layout::Explicit => {
                    if lit.range.is_none() {
                        c.error(p.span, "with `layout: explicit` every form gives its range: `lo ..= hi => \"…\"`");
                        forms_ok = false;
                    }
                    if form.repeat.is_some() {
                        c.error(
                            p.span,
                            "a repeated unit needs `layout: shortest` or `biased`, which derive each length's range",
                        );
                        forms_ok = false;
                    }
                }
                Layout::Shortest | Layout::Biased => {
                    if let Some(b) = &lit.bias {
                        if layout == Layout::Shortest {
                            c.error(b.span, "`layout: shortest` has no biases; use `layout: explicit` to give one");
                            forms_ok = false;
                        }
                    }
                    if lit.range.is_some() && form.repeat.is_some() {
                        c.error(
                            p.span,
                            "a form with a repeated unit has one range per length; they are derived, not written",
                        );
                        forms_ok = false;
                    }
                }
            }
        }
    }

    let (Some(name), Some(summary), Some(unit), Some(value), Some(layout), Some(((min, max), range_span)), true) =
        (name, summary, unit, value, layout, range, forms_ok)
    else {
        return Err(Diagnostics(c.errors));
    };

    if max.is_none() {
        // Values of any size: the last form repeats, and lengths follow the shortest
        // rule, so one automaton loop and one big-integer writer cover them all.
        match forms.last() {
            Some((f, _, _)) if f.repeat.is_some() => {
                if layout != Layout::Shortest {
                    c.error_range(
                        range_span,
                        "an open range needs `layout: shortest` (biases would grow with the length)",
                    );
                }
                for (f, _, p) in &forms[..forms.len() - 1] {
                    if f.repeat.is_some() {
                        c.error(p.span, "with an open range only the last form may repeat");
                    }
                }
            }
            _ => c.error_range(range_span, "an open range needs a last form with a repeated unit to reach every value"),
        }
    }

    let model = Model {
        type_name: ast.ident.to_string(),
        name,
        summary,
        docs: ast.docs.clone(),
        unit,
        value,
        min,
        max,
        excluded,
        premap,
        layout,
        forms: forms.iter().map(|(f, _, _)| f.clone()).collect(),
    };

    // Derived ranges: agreement with given ones, explicit consistency, coverage.
    let limit =
        if model.is_bounded() { None } else { Some(model.forms.iter().map(|f| f.units.len()).max().unwrap_or(1) + 4) };
    let concrete = model.concrete_forms_upto(limit);
    for (i, (form, lit, p)) in forms.iter().enumerate() {
        let mine: Vec<&ConcreteForm> = concrete.iter().filter(|cf| cf.form == i).collect();
        if mine.is_empty() && model.layout != Layout::Explicit {
            c.error(p.span, "this form holds no value that an earlier form does not already hold");
            continue;
        }
        if let (Some(given), Some(range_lit)) = (&form.range, &lit.range) {
            match model.layout {
                Layout::Explicit => {
                    let bias = form.bias.clone().unwrap_or_default();
                    let bits: u32 = form.units.iter().map(|u| u.payload_bits).sum();
                    let bias_at = lit.bias.as_ref().map_or(range_lit.span, |b| b.span);
                    // An overflowing bias is the one problem reported for this form:
                    // it is also above the first value, which would only repeat it.
                    match model.value.bits() {
                        Some(vbits) if bias.bits() > u64::from(vbits) => c.error(
                            bias_at,
                            format!(
                                "the bias {} overflows the value type u{vbits}, whose largest value is {}",
                                hex(&bias),
                                hex(&((BigUint::one() << vbits) - 1u32))
                            ),
                        ),
                        _ if given.0 < bias => c.error(
                            bias_at,
                            format!("the bias {} is above the form's first value {}", hex(&bias), hex(&given.0)),
                        ),
                        _ if (&given.1 - &bias).bits() > u64::from(bits) => {
                            let less =
                                if bias.is_zero() { String::new() } else { format!(" less the bias {}", hex(&bias)) };
                            c.error_range(
                                range_lit,
                                format!(
                                    "the values {}..={}{less} need {} payload bits, but the form carries {bits}",
                                    hex(&given.0),
                                    hex(&given.1),
                                    (&given.1 - &bias).bits()
                                ),
                            )
                        }
                        _ => {}
                    }
                }
                _ => {
                    let derived = &mine[0];
                    if given.0 != derived.lo || given.1 != derived.hi {
                        c.error_range(
                            range_lit,
                            format!(
                                "this form's values are {}..={} (derived from the layout), not {}..={}",
                                hex(&derived.lo),
                                hex(&derived.hi),
                                hex(&given.0),
                                hex(&given.1)
                            ),
                        );
                    }
                    if let Some(b) = &form.bias {
                        if *b != derived.bias {
                            c.error(
                                lit.bias.as_ref().map(|b| b.span).unwrap_or(p.span),
                                format!("the derived bias is {}, not {}", hex(&derived.bias), hex(b)),
                            );
                        }
                    }
                }
            }
        }
    }
    if model.layout == Layout::Explicit {
        let mut spans: Vec<(BigUint, BigUint, (Span, Span))> = forms
            .iter()
            .filter_map(|(f, lit, _)| {
                let at = lit.range.as_ref().map_or((lit.pattern.span(), lit.pattern.span()), |r| (r.span, r.end));
                f.range.clone().map(|(lo, hi)| (lo, hi, at))
            })
            .collect();
        spans.sort_by(|a, b| a.0.cmp(&b.0));
        for w in spans.windows(2) {
            if w[1].0 <= w[0].1 {
                c.error2_range(w[1].2, "the value ranges of two forms overlap", w[0].2 .0, "overlaps this range");
            }
        }
        for (lo, hi, (span, end)) in &spans {
            if *lo < model.min || model.max.as_ref().is_some_and(|m| hi > m) {
                c.errors.push(Diagnostic::new(*span, "this form's range reaches outside `range`").to(*end));
            }
        }
    }
    if c.errors.is_empty() {
        if let Some(max) = &model.max {
            // Every valid value needs a form.
            let mut covered: Vec<(BigUint, BigUint)> = concrete.iter().map(|f| (f.lo.clone(), f.hi.clone())).collect();
            covered.extend(model.excluded.iter().cloned());
            covered.sort();
            let mut next = model.min.clone();
            for (lo, hi) in covered {
                if lo > next {
                    c.error_range(range_span, format!("values {}..={} have no form", hex(&next), hex(&(lo - 1u32))));
                    break;
                }
                if hi >= next {
                    next = hi + 1u32;
                }
            }
            if next <= *max {
                c.error_range(range_span, format!("values {}..={} have no form", hex(&next), hex(max)));
            }
        }
    }

    if c.errors.is_empty() {
        Ok(model)
    } else {
        Err(Diagnostics(c.errors))
    }
}
