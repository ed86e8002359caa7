//! The requests the page sends and the answers it gets, as JSON: each
//! request goes to the file that answers it ([`crate::wire`] reads its
//! fields and finds its codec).
//!
//! | `op` | request fields | answer |
//! |---|---|---|
//! | `codecs` | | `codecs`: every built-in codec's `name`, `summary`, `description` and whether it is `signed` |
//! | `rows` | `values` (integers), `codecs` (names; all if absent), `spec` | `rows`: [`rows::Row`]s, the description's last if it builds |
//! | `describe` | `spec` | [`description::Outcome`]: `ok: false` with `errors` (line, column, message) and `rendered` (the CLI's lines), or `ok: true` with `name`, `summary`, `classes`, `states` and `properties` |
//! | `trace` | codec, `hex` | `trace` (as `placemat trace` prints it), `svg`, `classes`, `states` |
//! | `damage` | codec, `hex`, `at`, `action` (`flip`, `drop`, `insert`), `bit`, `byte` | [`damage::Damage`]: `hex` (the damaged units), `items`, `first_error`, `resync`, `lost`, `damaged` |
//! | `decode` | codec, `hex` | `items` (as `placemat decode` reads them: `offset`, `len`, and `value` or `error`) |
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

use placemat_codec::DynCodec;
use placemat_variants::registry;
use serde_json::{json, Value};

use crate::wire::{bytes, item_json, text, with_codec, Answer};
use crate::{damage, description, drawing, rows};

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

#[cfg(test)]
mod tests {
    use super::*;

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
