//! The requests the page sends and the answers it gets, as JSON, and the
//! codecs they name: a built-in codec by its CLI name, or the description
//! typed in the page (`"spec": text` with `"from_spec": true`).
//!
//! | `op` | request fields | answer |
//! |---|---|---|
//! | `codecs` | | `codecs`: every built-in codec's `name`, `summary`, `description` and whether it is `signed` |
//! | `rows` | `values` (integers), `codecs` (names; all if absent), `spec` | `rows`: [`rows::Row`]s, the description's last if it builds |
//! | `describe` | `spec` | [`description::Outcome`] |
//! | `trace` | codec, `hex` | `trace` (as `placemat trace` prints it), `svg`, `classes`, `states` |
//! | `damage` | codec, `hex`, `at`, `action` (`flip`, `drop`, `insert`), `bit`, `byte` | [`damage::Damage`] |
//! | `decode` | codec, `hex` | `items` (as `placemat decode` reads them), `values` |
//!
//! A codec is named by `codec` (and `from_spec`, `spec`). Bytes travel as
//! lowercase hex pairs separated by spaces, as the rows' `data-bytes`
//! attribute shows them. A request that cannot be answered gets
//! `{"error": "…"}`, never a panic.
//!
//! ```
//! let answer = placemat_web::respond(r#"{"op": "decode", "codec": "utf8", "hex": "61 ff"}"#);
//! assert!(answer.contains("invalid utf8 input at offset 1"), "{answer}");
//! let answer = placemat_web::respond(r#"{"op": "nothing"}"#);
//! assert_eq!(answer, r#"{"error":"unknown request `nothing`"}"#);
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use placemat_codec::DynCodec;
use placemat_compiler::{Description, Diagnostics, LoadedCodec, Model};
use placemat_variants::registry;
use serde_json::{json, Value};

use crate::{damage, description, drawing, rows};

/// What a request handler gives: an answer, or the message of `{"error": …}`.
pub type Answer = Result<Value, String>;

/// Answers one JSON request with one JSON answer.
pub fn respond(request: &str) -> String {
    let answer = match serde_json::from_str::<Value>(request) {
        Ok(request) => dispatch(&request),
        Err(e) => Err(format!("the request is not JSON: {e}")),
    };
    answer.unwrap_or_else(|message| json!({ "error": message })).to_string()
}

fn dispatch(request: &Value) -> Answer {
    match request["op"].as_str().unwrap_or("") {
        "codecs" => Ok(codecs()),
        "rows" => rows::answer(request),
        "describe" => Ok(description::answer(text(request, "spec")?)),
        "trace" => with_codec(request, |codec| drawing::answer(codec, &bytes(request)?)),
        "damage" => with_codec(request, |codec| damage::answer(codec, &bytes(request)?, request)),
        "decode" => with_codec(request, |codec| decode(codec, &bytes(request)?)),
        op => Err(format!("unknown request `{op}`")),
    }
}

fn codecs() -> Value {
    let all: Vec<Value> = registry::all()
        .iter()
        .map(|c| {
            let info = c.info();
            json!({ "name": info.name, "summary": info.summary, "signed": info.sign.is_some(),
                    "description": c.description() })
        })
        .collect();
    json!({ "codecs": all })
}

fn decode(codec: &dyn DynCodec, bytes: &[u8]) -> Answer {
    let items = placemat_cli::inspect::decode(codec, codec.info().name.as_ref(), bytes).map_err(|e| e.to_string())?;
    let items: Vec<Value> = items.iter().map(item_json).collect();
    Ok(json!({ "items": items }))
}

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

    #[test]
    fn bad_requests_get_an_error_not_a_panic() {
        for request in [
            "not json",
            "{}",
            r#"{"op": "trace"}"#,
            r#"{"op": "trace", "codec": "nope", "hex": ""}"#,
            r#"{"op": "trace", "codec": "utf8", "hex": "zz"}"#,
            r#"{"op": "damage", "codec": "utf8", "hex": "41", "at": 9, "action": "drop"}"#,
            r#"{"op": "decode", "from_spec": true, "spec": "pub X {"}"#,
            r#"{"op": "rows", "values": [-1]}"#,
            r#"{"op": "describe"}"#,
        ] {
            let answer: Value = serde_json::from_str(&respond(request)).unwrap();
            assert!(answer["error"].is_string(), "{request}: {answer}");
        }
    }

    #[test]
    fn every_built_in_codec_is_listed_with_the_registry_s_names() {
        let answer: Value = serde_json::from_str(&respond(r#"{"op": "codecs"}"#)).unwrap();
        let names: Vec<&str> =
            answer["codecs"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert_eq!(names, registry::names());
    }

    #[test]
    fn decoding_gives_the_cli_s_items() {
        let answer: Value =
            serde_json::from_str(&respond(r#"{"op": "decode", "codec": "utf8", "hex": "61 ff c3"}"#)).unwrap();
        let items = answer["items"].as_array().unwrap();
        assert_eq!(items[0], json!({ "offset": 0, "len": 1, "value": "U+0061" }));
        assert_eq!(items[1]["offset"], 1);
        assert_eq!(items[2]["offset"], 2);
        assert!(items[2]["error"].as_str().unwrap().contains("the end of the input"), "{answer}");
    }
}
