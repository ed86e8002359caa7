//! A description typed in the page: every error at its line and column, in
//! the words `placemat --spec` prints; or, once it builds, its automaton's
//! size (classes × states) and what `placemat compare` says of it.
//!
//! ```
//! use placemat_web::description::{check, Outcome};
//! let Outcome::Errors(errors) = check("pub X { name: \"x\", value: u32 }") else { panic!() };
//! // At the type name: the forms are missing.
//! assert_eq!((errors[0].line, errors[0].column), (1, 5));
//! let Outcome::Built(facts) = check(r#"pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!     forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }"#) else { panic!() };
//! assert_eq!((facts.name.as_str(), facts.classes, facts.states), ("two", 4, 3));
//! assert!(facts.properties.iter().any(|p| p.key == "prefix_free" && p.value == "yes"));
//! ```

use placemat_cli::inspect::{self, Property};
use serde_json::{json, Value};

use crate::wire;

/// The file name errors are rendered with.
pub const FILE: &str = "description.placemat";

/// One error in a description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Line, 1-based.
    pub line: usize,
    /// Column, 1-based.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// What a built description is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// Its name.
    pub name: String,
    /// Its summary.
    pub summary: String,
    /// Unit classes of its automaton.
    pub classes: usize,
    /// States, the dead state included.
    pub states: usize,
    /// `compare`'s properties.
    pub properties: Vec<Property>,
}

/// A description checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every error found, in order, and the CLI's rendering of them.
    Errors(Vec<Problem>),
    /// It builds.
    Built(Facts),
}

/// Checks, builds and analyses a description.
pub fn check(text: &str) -> Outcome {
    let codec = match wire::spec_codec(text) {
        Ok(codec) => codec,
        Err(diagnostics) => {
            let problems = diagnostics
                .iter()
                .map(|d| {
                    let (line, column) = d.line_column();
                    Problem { line, column, message: d.message.clone() }
                })
                .collect();
            return Outcome::Errors(problems);
        }
    };
    let properties = match inspect::properties(codec.as_ref()) {
        Ok(p) => p,
        Err(e) => return Outcome::Errors(vec![Problem { line: 1, column: 1, message: e.to_string() }]),
    };
    let dfa = codec.dfa();
    Outcome::Built(Facts {
        name: codec.info().name.to_string(),
        summary: codec.info().summary.to_string(),
        classes: dfa.class_count(),
        states: dfa.state_count(),
        properties,
    })
}

/// The `describe` request.
pub fn answer(text: &str) -> Value {
    match check(text) {
        Outcome::Errors(problems) => {
            let rendered = match wire::spec_codec(text) {
                Err(d) => d.render(FILE),
                Ok(_) => problems.iter().map(|p| format!("{FILE}:1:1: error: {}\n", p.message)).collect(),
            };
            let errors: Vec<Value> =
                problems.iter().map(|p| json!({ "line": p.line, "column": p.column, "message": p.message })).collect();
            json!({ "ok": false, "errors": errors, "rendered": rendered })
        }
        Outcome::Built(f) => {
            let properties: Vec<Value> =
                f.properties.iter().map(|p| json!({ "key": p.key, "label": p.label, "value": p.value })).collect();
            json!({ "ok": true, "name": f.name, "summary": f.summary, "classes": f.classes,
                    "states": f.states, "properties": properties })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_is_reported_with_the_cli_s_rendering() {
        let text =
            "pub X {\n    name: \"x\",\n    value: u33,\n    range: 0 ..= 0x7F,\n    forms: { \"0xxxxxxx\" },\n}\n";
        let answer = answer(text);
        assert_eq!(answer["ok"], false);
        let rendered = answer["rendered"].as_str().unwrap();
        assert!(rendered.starts_with("description.placemat:3:12: error: "), "{rendered}");
        assert_eq!(answer["errors"][0]["line"], 3);
        assert_eq!(answer["errors"][0]["column"], 12);
    }
}
