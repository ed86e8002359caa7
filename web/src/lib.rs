//! # placemat-web
//!
//! What the comparison page (`web/dist/placemat.html`, written by `bash
//! web/build`) runs: the project's compiler and runtime compiled to
//! WebAssembly behind one entry point, [`respond`], which takes a JSON request
//! and gives a JSON answer. The page itself (`web/page/`) is plain HTML, CSS
//! and JavaScript that sends requests and draws the answers.
//!
//! One file per thing the page shows:
//!
//! * [`rows`] — each value of the text encoded by each codec, every unit's
//!   fixed and payload bits taken from the form it matches, and why a codec
//!   refuses a value;
//! * [`drawing`] — a codec's automaton as SVG, laid out here, with the path
//!   an input takes through it;
//! * [`damage`] — one unit flipped, dropped or inserted: where the decoder
//!   reports the error and where it is back in step;
//! * [`description`] — a description typed in the page: its errors at line
//!   and column, or its automaton's size and `compare`'s properties;
//! * [`request`] — the requests and answers, each sent to the file above
//!   that answers it;
//! * [`wire`] — what travels: a request's fields, bytes as hex, and the
//!   codecs a request names;
//! * `exports` — the three functions the WebAssembly module exports.
//!
//! The words are the CLI's: the trace is what `placemat trace` prints, an
//! error what `placemat decode` reports (`placemat_cli::inspect`).
//!
//! ```
//! let answer = placemat_web::respond(r#"{"op": "rows", "values": [65, 233], "codecs": ["utf8", "utf16be"]}"#);
//! let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
//! assert_eq!(answer["rows"][0]["hex"], "41 c3 a9");
//! assert_eq!(answer["rows"][1]["hex"], "00 41 00 e9");
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod damage;
pub mod description;
pub mod drawing;
mod exports;
pub mod request;
pub mod rows;
pub mod wire;

pub use request::respond;
