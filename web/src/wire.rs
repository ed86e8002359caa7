//! What travels between the page and [`crate::respond`]: the fields of a
//! request, bytes as hex, `placemat decode`'s items, and the codecs a request
//! names (a built-in codec by its CLI name, or the description typed in the
//! page, `"spec": text` with `"from_spec": true`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use placemat_codec::DynCodec;
use placemat_compiler::{Description, Diagnostics, LoadedCodec, Model};
use placemat_variants::registry;
use serde_json::{json, Value};

/// What a request handler gives: an answer, or the message of `{"error": …}`.
pub type Answer = Result<Value, String>;

/// An item of `placemat decode`, as the page reads it.
pub fn item_json(item: &placemat_cli::inspect::Item) -> Value {
    use placemat_cli::inspect::Item;
    match item {
        Item::Value { offset, len, text } => json!({ "offset": offset, "len": len, "value": text }),
        Item::Error { offset, len, message } => json!({ "offset": offset, "len": len, "error": message }),
    }
}

/// A string field.
pub fn text<'a>(request: &'a Value, field: &str) -> Result<&'a str, String> {
    request[field].as_str().ok_or_else(|| format!("the request has no text `{field}`"))
}

/// An integer field, at most `max`.
pub fn integer(request: &Value, field: &str, max: u64) -> Result<u64, String> {
    match request[field].as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => Err(format!("`{field}` must be an integer from 0 to {max}")),
    }
}

/// The request's bytes (`hex`).
pub fn bytes(request: &Value) -> Result<Vec<u8>, String> {
    parse_hex(text(request, "hex")?)
}

/// Bytes written as hex pairs, separated by spaces or not.
pub fn parse_hex(hex: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<(usize, char)> = hex.char_indices().filter(|(_, c)| !c.is_whitespace()).collect();
    if let Some(&(at, c)) = digits.iter().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(format!("`{c}` at character {} is not a hex digit", hex[..at].chars().count() + 1));
    }
    if digits.len() % 2 == 1 {
        return Err("an odd number of hex digits: each byte takes two".into());
    }
    let nibble = |c: char| c.to_digit(16).unwrap_or(0) as u8;
    Ok(digits.chunks(2).map(|p| nibble(p[0].1) << 4 | nibble(p[1].1)).collect())
}

/// Bytes as lowercase hex pairs separated by single spaces.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

thread_local! {
    /// The built-in codecs' models, parsed when first asked for.
    static MODELS: RefCell<HashMap<String, Rc<Model>>> = RefCell::new(HashMap::new());
    /// The last description built, and its text.
    static SPEC: RefCell<Option<(String, Rc<LoadedCodec>)>> = const { RefCell::new(None) };
}

/// The model of built-in codec `codec`.
pub fn builtin_model(codec: &dyn DynCodec) -> Result<Rc<Model>, String> {
    let name = codec.info().name.to_string();
    if let Some(m) = MODELS.with_borrow(|m| m.get(&name).cloned()) {
        return Ok(m);
    }
    let model = Rc::new(Description::parse_str(codec.description()).map_err(|e| e.to_string())?.model);
    MODELS.with_borrow_mut(|m| m.insert(name, model.clone()));
    Ok(model)
}

/// The codec a description's text builds (the last one is kept).
pub fn spec_codec(text: &str) -> Result<Rc<LoadedCodec>, Diagnostics> {
    if let Some((_, codec)) = SPEC.with_borrow(|s| s.clone()).filter(|(t, _)| t == text) {
        return Ok(codec);
    }
    let codec = Rc::new(LoadedCodec::from_text(text)?);
    SPEC.with_borrow_mut(|s| *s = Some((text.to_string(), codec.clone())));
    Ok(codec)
}

/// Runs `f` on the codec the request names.
pub fn with_codec(request: &Value, f: impl FnOnce(&dyn DynCodec) -> Answer) -> Answer {
    if request["from_spec"].as_bool() == Some(true) {
        let codec = spec_codec(text(request, "spec")?).map_err(|e| format!("the description does not build: {e}"))?;
        return f(codec.as_ref());
    }
    let name = text(request, "codec")?;
    f(registry::find(name).ok_or_else(|| format!("unknown codec `{name}`"))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_read_with_or_without_spaces_and_refused_with_its_position() {
        assert_eq!(parse_hex("c3 a9").unwrap(), [0xC3, 0xA9]);
        assert_eq!(parse_hex("C3A9\n41").unwrap(), [0xC3, 0xA9, 0x41]);
        assert_eq!(parse_hex("c3 g9").unwrap_err(), "`g` at character 4 is not a hex digit");
        assert!(parse_hex("c3a").unwrap_err().contains("odd number"));
        assert_eq!(hex(&[0x0A, 0xFF]), "0a ff");
    }
}
