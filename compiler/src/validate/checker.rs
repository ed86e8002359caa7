//! The error collector every check writes to, and the checks of the literals that
//! several fields share: integers, ranges, strings and words.

use num_bigint::{BigInt, BigUint};
use proc_macro2::Span;

use super::hex;
use crate::limits::MAX_DIAGNOSTICS;
use crate::syntax::{FieldValue, IntLit, RangeLit};
use crate::{Diagnostic, Diagnostics};

/// Collects the diagnostics of one description, in the order they are found:
/// the first [`MAX_DIAGNOSTICS`], and a count of the rest.
#[derive(Default)]
pub(super) struct Checker {
    errors: Vec<Diagnostic>,
    more: usize,
}

impl Checker {
    /// Keeps `d` if there is room.
    fn push(&mut self, d: Diagnostic) {
        if self.errors.len() < MAX_DIAGNOSTICS {
            self.errors.push(d);
        } else {
            self.more += 1;
        }
    }

    /// Reports an error at `span`.
    pub(super) fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::new(span, message));
    }

    /// Reports an error covering the tokens from `at.0` to `at.1`.
    pub(super) fn error_between(&mut self, at: (Span, Span), message: impl Into<String>) {
        self.push(Diagnostic::new(at.0, message).to(at.1));
    }

    /// Reports an error covering a whole written range.
    pub(super) fn error_range(&mut self, r: &RangeLit, message: impl Into<String>) {
        self.error_between((r.span, r.end), message);
    }

    /// Reports a conflict: the error at `span`, a note at the `other` side.
    pub(super) fn error2(&mut self, span: Span, message: impl Into<String>, other: Span, note: impl Into<String>) {
        self.push(Diagnostic::new(span, message).with_note(other, note));
    }

    /// A conflict between two written ranges: the error covers the whole of `first`
    /// (`(start, end)` spans), the note points at the other.
    pub(super) fn error2_range(
        &mut self,
        at: (Span, Span),
        message: impl Into<String>,
        other: Span,
        note: impl Into<String>,
    ) {
        self.push(Diagnostic::new(at.0, message).to(at.1).with_note(other, note));
    }

    /// Whether nothing has been reported so far.
    /// How many errors so far.
    pub(super) fn error_count(&self) -> usize {
        self.errors.len()
    }

    pub(super) fn is_clean(&self) -> bool {
        self.errors.is_empty()
    }

    /// Everything reported, in order.
    pub(super) fn into_diagnostics(mut self) -> Diagnostics {
        if self.more > 0 {
            let message = format!("… and {} more error{}", self.more, if self.more == 1 { "" } else { "s" });
            self.errors.push(Diagnostic::new(Span::call_site(), message));
        }
        Diagnostics(self.errors)
    }

    /// `value` if nothing has been reported, else every diagnostic.
    pub(super) fn finish<T>(self, value: T) -> Result<T, Diagnostics> {
        if self.is_clean() {
            Ok(value)
        } else {
            Err(self.into_diagnostics())
        }
    }

    /// The value of an integer literal, which must fit in 128 bits and not
    /// be negative.
    pub(super) fn int(&mut self, lit: &IntLit) -> Option<BigUint> {
        match lit.magnitude {
            Some(_) if lit.negative => {
                self.error_between(
                    lit.at(),
                    "only the `range` of a signed codec (`value: i32` or `value: i64`, with a `sign`) takes \
                     negative numbers; every other number of a description is unsigned",
                );
                None
            }
            Some(v) => Some(BigUint::from(v)),
            None => {
                self.error(lit.span, "integer does not fit in 128 bits");
                None
            }
        }
    }

    /// The value of an integer literal that may be negative, which must fit
    /// in 128 bits.
    pub(super) fn signed_int(&mut self, lit: &IntLit) -> Option<BigInt> {
        let Some(v) = lit.magnitude else {
            self.error_between(lit.at(), "integer does not fit in 128 bits");
            return None;
        };
        let v = BigInt::from(v);
        Some(if lit.negative { -v } else { v })
    }

    /// The bounds of a range literal (`None` above for an open range), which must not
    /// be empty.
    pub(super) fn range(&mut self, r: &RangeLit) -> Option<(BigUint, Option<BigUint>)> {
        let Some(lo) = &r.lo else {
            self.error_range(r, "`..` alone (every integer) is the range of a signed codec of any size only");
            return None;
        };
        let lo = self.int(lo)?;
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

    /// The bounds of a range literal that must have an upper bound.
    pub(super) fn closed_range(&mut self, r: &RangeLit) -> Option<(BigUint, BigUint)> {
        let (lo, hi) = self.range(r)?;
        match hi {
            Some(hi) => Some((lo, hi)),
            None => {
                self.error_range(r, "this range needs an upper bound (`lo ..= hi`)");
                None
            }
        }
    }

    /// The string literal of field `what`.
    pub(super) fn expect_str<'a>(&mut self, v: &'a FieldValue, what: &str) -> Option<&'a syn::LitStr> {
        match v {
            FieldValue::Str(s) => Some(s),
            other => {
                self.error(other.span(), format!("`{what}` takes a string, like `{what}: \"…\"`"));
                None
            }
        }
    }

    /// The word of field `what`, which must be one of `words`.
    pub(super) fn expect_word<'a>(&mut self, v: &'a FieldValue, what: &str, words: &[&str]) -> Option<&'a syn::Ident> {
        match v {
            FieldValue::Word(w) if words.iter().any(|x| w == x) => Some(w),
            other => {
                let choices = words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
                self.error(other.span(), format!("`{what}` takes one of: {choices}"));
                None
            }
        }
    }
}
