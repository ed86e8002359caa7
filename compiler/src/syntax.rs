//! Pass 1: the one parser. Turns description tokens (from the `codec!` macro or from
//! a description file) into an [`Ast`] that keeps every token's span, and nothing
//! more: meaning is checked by [`super::validate`].
//!
//! ```
//! use placemat_compiler::syntax::Ast;
//! let ast: Ast = syn::parse_str(r#"
//!     pub Tiny { name: "tiny", value: u32, range: 0 ..= 0x7F, forms: { "0xxxxxxx" } }
//! "#).unwrap();
//! assert_eq!(ast.ident.to_string(), "Tiny");
//! assert_eq!(ast.fields.len(), 4);
//! ```
//!
//! The grammar is documented in the `placemat-macros` crate docs.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{braced, bracketed, parenthesized, Ident, LitInt, LitStr, Token};

/// A whole description, as written.
#[derive(Clone, Debug)]
pub struct Ast {
    /// `///` doc comments before the name, in order.
    pub docs: Vec<String>,
    /// Other attributes (refused by validation, kept for their spans).
    pub other_attrs: Vec<Span>,
    /// `pub`, `pub(crate)`, … (as written; empty for private).
    pub vis: syn::Visibility,
    /// The Rust type name of the generated codec.
    pub ident: Ident,
    /// The `key: value` fields, in order.
    pub fields: Vec<Field>,
}

/// One `key: value` entry.
#[derive(Clone, Debug)]
pub struct Field {
    /// The key.
    pub key: Ident,
    /// The value.
    pub value: FieldValue,
}

/// The value of a field, shaped by its key.
#[derive(Clone, Debug)]
pub enum FieldValue {
    /// `"text"` (name, summary).
    Str(LitStr),
    /// A bare word (`byte`, `u32`, `shortest`, …).
    Word(Ident),
    /// `alphabet("…")`.
    Alphabet(Ident, LitStr),
    /// `lo ..= hi` or `lo ..`.
    Range(RangeLit),
    /// `[range, …]`.
    Ranges(Span, Vec<RangeLit>),
    /// `[int, …]`.
    Ints(Span, Vec<IntLit>),
    /// `{ form, … }`.
    Forms(Span, Vec<FormLit>),
    /// `[lo ..= hi then lo ..= hi, …]` (`forbid`).
    Pairs(Span, Vec<PairLit>),
}

impl FieldValue {
    /// The span of the whole value.
    pub fn span(&self) -> Span {
        match self {
            FieldValue::Str(s) => s.span(),
            FieldValue::Word(w) => w.span(),
            FieldValue::Alphabet(w, _) => w.span(),
            FieldValue::Range(r) => r.span,
            FieldValue::Ranges(s, _) | FieldValue::Ints(s, _) | FieldValue::Forms(s, _) | FieldValue::Pairs(s, _) => *s,
        }
    }
}

/// An integer literal with its span.
#[derive(Clone, Debug)]
pub struct IntLit {
    /// The magnitude (`None` if it does not fit 128 bits).
    pub magnitude: Option<u128>,
    /// Whether a `-` precedes it (only a signed codec's `range` takes one).
    pub negative: bool,
    /// Where it was written (its `-`, if any).
    pub span: Span,
    /// Where its digits were written.
    pub end: Span,
}

impl IntLit {
    /// The value, if it is not negative and fits 128 bits.
    pub fn value(&self) -> Option<u128> {
        self.magnitude.filter(|_| !self.negative)
    }

    /// The spans from its first token to its last.
    pub fn at(&self) -> (Span, Span) {
        (self.span, self.end)
    }
}

/// `lo ..= hi` or the open `lo ..`.
#[derive(Clone, Debug)]
pub struct RangeLit {
    /// Lower bound (`None` for `..`, every integer: the range of a signed
    /// codec of any size).
    pub lo: Option<IntLit>,
    /// Upper bound (inclusive), or `None` for an open range.
    pub hi: Option<IntLit>,
    /// Span of the range's first token (the whole range where spans can be joined).
    pub span: Span,
    /// Span of the range's last token.
    pub end: Span,
}

/// One form: `[range [bias N] =>] "pattern"`.
#[derive(Clone, Debug)]
pub struct FormLit {
    /// The values the form covers, if written.
    pub range: Option<RangeLit>,
    /// The bias, if written.
    pub bias: Option<IntLit>,
    /// The unit patterns.
    pub pattern: LitStr,
}

/// One rule across adjacent values: `first then then`, a value of the first
/// range directly followed by one of the second.
#[derive(Clone, Debug)]
pub struct PairLit {
    /// The values the rule looks back at.
    pub first: RangeLit,
    /// The values that may not follow them.
    pub then: RangeLit,
}

impl Parse for PairLit {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let first: RangeLit = input.parse()?;
        let kw: Ident = input.parse().map_err(|e| syn::Error::new(e.span(), "expected `then` between two ranges"))?;
        if kw != "then" {
            return Err(syn::Error::new(kw.span(), "expected `then` between two ranges"));
        }
        Ok(PairLit { first, then: input.parse()? })
    }
}

impl Parse for IntLit {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let minus: Option<Token![-]> = input.parse()?;
        let lit: LitInt = input.parse()?;
        if !lit.suffix().is_empty() {
            return Err(syn::Error::new(lit.span(), "write integers without a type suffix"));
        }
        let span = minus.map_or(lit.span(), |m| m.span);
        Ok(IntLit { magnitude: lit.base10_parse::<u128>().ok(), negative: minus.is_some(), span, end: lit.span() })
    }
}

impl Parse for RangeLit {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![..]) && !input.peek(Token![..=]) {
            let op: Token![..] = input.parse()?;
            let (span, end) = (op.spans[0].join(op.spans[1]).unwrap_or(op.spans[0]), op.spans[1]);
            if !(input.is_empty() || input.peek(Token![,])) {
                return Err(input.error("write `..` alone (every integer), `lo ..= hi` or `lo ..`"));
            }
            return Ok(RangeLit { lo: None, hi: None, span, end });
        }
        let lo: IntLit = input.parse()?;
        let mut span = lo.span;
        if input.peek(Token![..=]) {
            input.parse::<Token![..=]>()?;
            let hi: IntLit = input.parse()?;
            span = lo.span.join(hi.end).unwrap_or(lo.span);
            let end = hi.end;
            Ok(RangeLit { lo: Some(lo), hi: Some(hi), span, end })
        } else if input.peek(Token![..]) {
            let op: Token![..] = input.parse()?;
            let end = op.spans[1];
            span = span.join(end).unwrap_or(span);
            if !(input.is_empty() || input.peek(Token![,]) || input.peek(Token![=>]) || input.peek(syn::Ident)) {
                return Err(input.error("write `lo ..= hi` (inclusive) or `lo ..` (no upper bound)"));
            }
            Ok(RangeLit { lo: Some(lo), hi: None, span, end })
        } else {
            Err(input.error("expected `..=` or `..` after the lower bound of a range"))
        }
    }
}

impl Parse for FormLit {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return Ok(FormLit { range: None, bias: None, pattern: input.parse()? });
        }
        let range: RangeLit = input.parse()?;
        let mut bias = None;
        if input.peek(syn::Ident) {
            let kw: Ident = input.parse()?;
            if kw != "bias" {
                return Err(syn::Error::new(kw.span(), "expected `bias` or `=>` after a form's range"));
            }
            bias = Some(input.parse()?);
        }
        input.parse::<Token![=>]>()?;
        Ok(FormLit { range: Some(range), bias, pattern: input.parse()? })
    }
}

fn parse_value(key: &Ident, input: ParseStream) -> syn::Result<FieldValue> {
    if input.peek(LitStr) {
        return Ok(FieldValue::Str(input.parse()?));
    }
    if input.peek(LitInt) || input.peek(Token![-]) || input.peek(Token![..]) {
        return Ok(FieldValue::Range(input.parse()?));
    }
    if input.peek(syn::token::Bracket) {
        let content;
        let b = bracketed!(content in input);
        let span = b.span.join();
        if key == "forbid" {
            let items: Punctuated<PairLit, Token![,]> = content.parse_terminated(PairLit::parse, Token![,])?;
            return Ok(FieldValue::Pairs(span, items.into_iter().collect()));
        }
        if content.is_empty() || key == "exclude" || key == "digits" {
            let items: Punctuated<RangeLit, Token![,]> = content.parse_terminated(RangeLit::parse, Token![,])?;
            return Ok(FieldValue::Ranges(span, items.into_iter().collect()));
        }
        let items: Punctuated<IntLit, Token![,]> = content.parse_terminated(IntLit::parse, Token![,])?;
        return Ok(FieldValue::Ints(span, items.into_iter().collect()));
    }
    if input.peek(syn::token::Brace) {
        let content;
        let b = braced!(content in input);
        let items: Punctuated<FormLit, Token![,]> = content.parse_terminated(FormLit::parse, Token![,])?;
        return Ok(FieldValue::Forms(b.span.join(), items.into_iter().collect()));
    }
    if input.peek(syn::Ident) {
        let word: Ident = input.parse()?;
        if input.peek(syn::token::Paren) {
            let content;
            parenthesized!(content in input);
            let text: LitStr = content.parse()?;
            if !content.is_empty() {
                return Err(content.error("expected one string"));
            }
            return Ok(FieldValue::Alphabet(word, text));
        }
        return Ok(FieldValue::Word(word));
    }
    Err(input.error("expected a string, a number, a range, `[…]`, `{…}` or a word"))
}

/// The attributes before a description: the text of each `#[doc = "…"]` (a
/// `///` comment), and the span of each other one. An attribute's tokens are
/// not parsed beyond that: syn's parser of attribute values recurses once per
/// `<` of a qualified path, so a hostile `#[a = <<<…]` would exhaust the stack
/// (found by the `description` fuzz target); brackets nest at most
/// [`crate::limits::MAX_DEPTH`] deep, and a token stream is read without
/// recursion.
fn attributes(input: ParseStream) -> syn::Result<(Vec<String>, Vec<Span>)> {
    let (mut docs, mut others) = (Vec::new(), Vec::new());
    while input.peek(Token![#]) {
        input.parse::<Token![#]>()?;
        let content;
        // The attribute's span is its brackets: the macro cannot join spans
        // on stable, and the CLI reports where the macro does.
        let span = bracketed!(content in input).span.join();
        let doc = content.fork();
        let is_doc = doc.parse::<Ident>().is_ok_and(|k| k == "doc")
            && doc.parse::<Token![=]>().is_ok()
            && doc.parse::<LitStr>().is_ok()
            && doc.is_empty();
        if is_doc {
            content.parse::<Ident>()?;
            content.parse::<Token![=]>()?;
            docs.push(content.parse::<LitStr>()?.value());
        } else {
            content.parse::<proc_macro2::TokenStream>()?;
            others.push(span);
        }
    }
    Ok((docs, others))
}

impl Parse for Ast {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let (docs, other_attrs) = attributes(input)?;
        let vis: syn::Visibility = input.parse()?;
        let ident: Ident = input.parse()?;
        let content;
        braced!(content in input);
        let mut fields = Vec::new();
        while !content.is_empty() {
            let key: Ident = content.call(syn::ext::IdentExt::parse_any)?;
            content.parse::<Token![:]>()?;
            let value = parse_value(&key, &content)?;
            fields.push(Field { key, value });
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the description"));
        }
        Ok(Ast { docs, other_attrs, vis, ident, fields })
    }
}
