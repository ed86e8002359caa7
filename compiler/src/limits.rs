//! The bounds that keep the description compiler's cost bounded, whatever it
//! is given: a description file or macro input is checked against them before
//! it is parsed (size, nesting, length of numbers), the validator stops collecting
//! errors past a cap, and the automaton builder counts its work as it goes and
//! stops, before allocating, at the first limit it would pass. Each error names
//! the limit and what exceeded it.
//!
//! ```
//! use placemat_compiler::Description;
//! let deep = format!("#[a = {}{}] pub X {{}}", "(".repeat(100), ")".repeat(100));
//! let err = Description::parse_str(&deep).unwrap_err();
//! assert!(err.to_string().contains("nested 17 deep; descriptions nest at most 16 deep"), "{err}");
//! ```

use proc_macro2::{Span, TokenStream, TokenTree};

use crate::{Diagnostic, Diagnostics};

/// The largest description, in bytes.
pub const MAX_BYTES: usize = 1 << 20;
/// The deepest nesting of brackets, braces and parentheses.
pub const MAX_DEPTH: usize = 16;
/// The longest number literal, in characters (a 128-bit number in binary,
/// with separators, fits). Reading a longer one would cost time quadratic in
/// its length; strings are bounded by [`MAX_BYTES`] alone.
pub const MAX_NUMBER: usize = 200;
/// Most forms in one description.
pub const MAX_FORMS: usize = 256;
/// Most excluded ranges in one description.
pub const MAX_EXCLUSIONS: usize = 4096;
/// Most diagnostics reported for one description; the rest are counted.
pub const MAX_DIAGNOSTICS: usize = 50;
/// Most states the automaton builder creates (before minimization).
pub const MAX_STATES: usize = 4096;
/// Most paths (unit-range sequences of the forms) the builder follows.
pub const MAX_PATHS: usize = 1 << 16;
/// Most steps (a path position tried on a unit) of the subset construction:
/// about a second of work.
pub const MAX_STEPS: u64 = 200_000_000;
/// Most path positions the subset construction's states hold in all (each
/// state is the set of positions it may be at): about 64 MiB.
pub const MAX_POSITIONS: u64 = 1 << 22;

/// A diagnostic at `offset` of a text not yet tokenized.
fn at_offset(text: &str, offset: usize, message: String) -> Diagnostics {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let mut d = Diagnostic::new(Span::call_site(), message);
    d.location = Some((line, column));
    Diagnostics(vec![d])
}

/// Checks a description's text before it is tokenized: its size, and how deep
/// its brackets nest (outside strings and comments).
pub fn check_text(text: &str) -> Result<(), Diagnostics> {
    if text.len() > MAX_BYTES {
        let message = format!("the description has {} bytes; descriptions have at most {MAX_BYTES}", text.len());
        return Err(Diagnostics(vec![Diagnostic::new(Span::call_site(), message)]));
    }
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_string(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |k| i + k)
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(at_offset(text, i, too_deep(depth)));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// The index of the closing quote of the string starting at `i` (or the end).
fn skip_string(bytes: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < bytes.len() && bytes[i] != b'"' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    i
}

fn too_deep(depth: usize) -> String {
    format!("the description is nested {depth} deep; descriptions nest at most {MAX_DEPTH} deep")
}

/// Checks tokens before they are parsed (the macro's input, or a tokenized
/// file): nesting depth and literal lengths, walking the tree with a stack of
/// its own.
pub fn check_tokens(tokens: &TokenStream) -> Result<(), Diagnostics> {
    let mut stack: Vec<(proc_macro2::token_stream::IntoIter, usize)> = vec![(tokens.clone().into_iter(), 0)];
    let mut errors = Vec::new();
    while let Some((iter, depth)) = stack.last_mut() {
        let depth = *depth;
        let Some(tree) = iter.next() else {
            stack.pop();
            continue;
        };
        match tree {
            TokenTree::Group(g) if depth + 1 > MAX_DEPTH => {
                errors.push(Diagnostic::new(g.span_open(), too_deep(depth + 1)));
                break;
            }
            TokenTree::Group(g) => {
                stack.push((g.stream().into_iter(), depth + 1));
            }
            TokenTree::Literal(lit) => {
                let text = lit.to_string();
                let len = text.chars().count();
                if text.starts_with(|c: char| c.is_ascii_digit()) && len > MAX_NUMBER {
                    let message = format!("this number has {len} characters; numbers have at most {MAX_NUMBER}");
                    errors.push(Diagnostic::new(lit.span(), message));
                }
            }
            _ => {}
        }
        if errors.len() >= MAX_DIAGNOSTICS {
            break;
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(errors))
    }
}
