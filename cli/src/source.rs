//! Picking a codec: a built-in name, or a description file loaded at run time.

use placemat_codec::DynCodec;
use placemat_compiler::LoadedCodec;

use super::{CliError, CodecArgs};
use placemat_variants::registry;

/// A codec the CLI runs: built in, or built at run time from `--spec`.
pub enum CodecRef {
    /// A generated codec.
    Builtin(&'static dyn DynCodec),
    /// A description loaded from a file.
    Runtime(Box<LoadedCodec>),
}

impl CodecRef {
    /// The codec.
    pub fn get(&self) -> &dyn DynCodec {
        match self {
            CodecRef::Builtin(c) => *c,
            CodecRef::Runtime(c) => c.as_ref(),
        }
    }
}

/// Looks up a built-in codec, or says which ones exist (a usage error).
pub fn builtin(name: &str) -> Result<CodecRef, CliError> {
    registry::find(name).map(CodecRef::Builtin).ok_or_else(|| unknown(name))
}

/// The usage error for a name that is no built-in codec.
pub fn unknown(name: &str) -> CliError {
    CliError::usage(format!("unknown codec `{name}`; known codecs: {}", registry::names().join(", ")))
}

/// Loads and builds a description file, rendering its errors as `file:line:col`.
pub fn spec(path: &str) -> Result<CodecRef, CliError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError::msg(format!("cannot read description `{path}`: {e}")))?;
    match LoadedCodec::from_text(&text) {
        Ok(codec) => Ok(CodecRef::Runtime(Box::new(codec))),
        Err(diagnostics) => {
            let rendered = diagnostics.render(path);
            Err(CliError::msg(format!(
                "`{path}` is not a valid description ({} error{}):\n{}",
                diagnostics.0.len(),
                if diagnostics.0.len() == 1 { "" } else { "s" },
                rendered.trim_end()
            )))
        }
    }
}

/// Whether the positional arguments given with `--spec` start with a codec's name
/// rather than a file: a built-in name followed by another argument, or one that
/// names no existing file.
fn names_a_codec_too(args: &[String]) -> bool {
    match args {
        [first, _, ..] => registry::find(first).is_some(),
        [only] => registry::find(only).is_some() && !std::path::Path::new(only).exists(),
        [] => false,
    }
}

/// Splits `<codec> [FILE]` (or `[FILE]` with `--spec`) into a codec and a file.
pub fn resolve(args: &CodecArgs) -> Result<(CodecRef, Option<String>), CliError> {
    let (codec, files) = resolve_many(args)?;
    if let Some(extra) = files.get(1) {
        return Err(CliError::usage(format!("unexpected argument `{extra}`")));
    }
    Ok((codec, files.into_iter().next()))
}

/// Splits `<codec> [FILE…]` (or `[FILE…]` with `--spec`) into a codec and files.
pub fn resolve_many(args: &CodecArgs) -> Result<(CodecRef, Vec<String>), CliError> {
    let mut rest = args.args.iter();
    let codec = match &args.spec {
        Some(_) if names_a_codec_too(&args.args) => {
            return Err(CliError::usage(format!(
                "give a codec name or --spec, not both: got `{}` and `--spec {}`",
                args.args[0],
                args.spec.as_deref().unwrap_or_default()
            )))
        }
        Some(path) => spec(path)?,
        None => match rest.next() {
            Some(name) => builtin(name)?,
            None => {
                return Err(CliError::usage(format!(
                    "name a codec ({}) or give `--spec FILE`",
                    registry::names().join(", ")
                )))
            }
        },
    };
    Ok((codec, rest.cloned().collect()))
}

/// The two codecs of `transcode`.
pub fn resolve_pair(
    from: Option<String>,
    to: Option<String>,
    from_spec: Option<String>,
    to_spec: Option<String>,
    spec_file: Option<String>,
) -> Result<(CodecRef, CodecRef), CliError> {
    let pick = |name: Option<String>, file: Option<String>, side: &str| -> Result<Option<CodecRef>, CliError> {
        match (name, file) {
            (Some(_), Some(_)) => Err(CliError::usage(format!("give `--{side}` or `--{side}-spec`, not both"))),
            (Some(n), None) => builtin(&n).map(Some),
            (None, Some(f)) => spec(&f).map(Some),
            (None, None) => Ok(None),
        }
    };
    let from = pick(from, from_spec, "from")?;
    let to = pick(to, to_spec, "to")?;
    match (from, to, spec_file) {
        (Some(f), Some(t), None) => Ok((f, t)),
        (Some(f), None, Some(s)) => Ok((f, spec(&s)?)),
        (None, Some(t), Some(s)) => Ok((spec(&s)?, t)),
        (Some(_), Some(_), Some(_)) => {
            Err(CliError::usage("`--spec` stands in for a missing `--from` or `--to`, but both are given"))
        }
        _ => Err(CliError::usage(
            "`transcode` needs `--from <codec>` and `--to <codec>` (or `--spec FILE` for one of them)",
        )),
    }
}
