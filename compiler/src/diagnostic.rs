//! Diagnostics: what is wrong with a description, at the tokens it concerns,
//! rendered as `file:line:col` lines for the CLI or as a `syn::Error` for the
//! proc-macro.
//!
//! ```
//! use placemat_compiler::Description;
//! let err = Description::parse_str("pub X { name: \"x\" }").unwrap_err();
//! assert!(err.render("x.placemat").starts_with("x.placemat:1:"));
//! ```

use std::fmt;

use proc_macro2::{Span, TokenStream};

/// One problem in a description, at the tokens it concerns.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// What is wrong.
    pub message: String,
    /// Where it starts.
    pub span: Span,
    /// Where it ends, if it covers more than one token.
    pub end: Option<Span>,
    /// Other places that take part (the other side of a conflict), with a note each.
    pub notes: Vec<(Span, String)>,
    /// Line and column (1-based) where no span can say it: errors found in a
    /// text before it is tokenized.
    pub location: Option<(usize, usize)>,
}

impl Diagnostic {
    /// A diagnostic at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { message: message.into(), span, end: None, notes: Vec::new(), location: None }
    }

    /// Extends the diagnostic to cover the tokens up to `end`.
    pub fn to(mut self, end: Span) -> Self {
        self.end = Some(end);
        self
    }

    /// Line and column (1-based) where it starts, as [`Diagnostics::render`]
    /// writes them.
    pub fn line_column(&self) -> (usize, usize) {
        let at = self.span.start();
        self.location.unwrap_or((at.line, at.column + 1))
    }

    /// Adds a note at another place.
    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Self {
        self.notes.push((span, note.into()));
        self
    }
}

/// Every problem found in a description.
#[derive(Clone, Debug)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The diagnostics, in the order found.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// Renders as compiler-style lines, `file:line:col: error: message`, each note
    /// on its own `file:line:col: note: …` line. Spans must come from text parsed
    /// by [`crate::Description::parse_str`] (line and column are then known).
    pub fn render(&self, file: &str) -> String {
        let mut out = String::new();
        for d in &self.0 {
            let (line, column) = d.line_column();
            out.push_str(&format!("{file}:{line}:{column}: error: {}\n", d.message));
            for (span, note) in &d.notes {
                let at = span.start();
                out.push_str(&format!("{file}:{}:{}: note: {note}\n", at.line, at.column + 1));
            }
        }
        out
    }

    /// Converts to one `syn::Error` carrying every diagnostic (for the proc-macro).
    pub fn to_syn_error(&self) -> syn::Error {
        let mut all: Option<syn::Error> = None;
        for d in &self.0 {
            // Stable proc-macros cannot attach a note to an error (a second error
            // would be counted as one): notes go into the message, with the place
            // each points at.
            let mut message = d.message.clone();
            for (span, note) in &d.notes {
                message.push('\n');
                message.push_str(&note_text(*span, note));
            }
            let e = match d.end {
                // Two tokens carrying the first and last span: syn reports the range
                // between them, which stable proc-macros cannot join themselves.
                Some(end) => {
                    let first = proc_macro2::Ident::new("first", d.span);
                    let last = proc_macro2::Ident::new("last", end);
                    syn::Error::new_spanned(quote_pair(first, last), message)
                }
                None => syn::Error::new(d.span, message),
            };
            match &mut all {
                Some(a) => a.combine(e),
                None => all = Some(e),
            }
        }
        all.unwrap_or_else(|| syn::Error::new(Span::call_site(), "invalid description"))
    }
}

/// `note: … (line L, column C)` for a note at `span`.
fn note_text(span: Span, note: &str) -> String {
    let at = span.start();
    if at.line == 0 {
        format!("note: {note}")
    } else {
        format!("note: {note} (line {}, column {})", at.line, at.column + 1)
    }
}

fn quote_pair(a: proc_macro2::Ident, b: proc_macro2::Ident) -> TokenStream {
    let mut t = TokenStream::new();
    t.extend([proc_macro2::TokenTree::Ident(a), proc_macro2::TokenTree::Ident(b)]);
    t
}

impl From<syn::Error> for Diagnostics {
    fn from(e: syn::Error) -> Self {
        Diagnostics(e.into_iter().map(|e| Diagnostic::new(e.span(), e.to_string())).collect())
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
