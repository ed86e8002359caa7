//! # placemat-cli
//!
//! The `placemat` command line (binary `src/bin/placemat.rs`): argument parsing and
//! dispatch here, each command in its own file; all of them pick their codec
//! through `source.rs`, so every command that takes a codec takes either a
//! built-in codec's name (from [`placemat_variants::registry`]) or `--spec FILE`.
//! Beside the commands, [`report`] holds the generators of the papers: the one
//! behind `placemat report` and the one behind `bench-report`, with the one SVG
//! chart writer both use; [`baselines`] holds the integer crates' readers and
//! writers that `bench` and the criterion `varints` group time placemat against.
//!
//! The formats are a contract that outside tools rely on:
//! * `list` — one line per codec: `<name>  <summary>`;
//! * `encode <codec> [FILE]` — whitespace-separated `U+hex` (or `u+hex`), decimal
//!   (`1337`, `-123`) and `0x` hex tokens in, raw units out; a leading byte order
//!   mark is skipped;
//! * `decode <codec> [--errors strict|replace] [--values u|dec|hex] [FILE]` — raw
//!   units in, one value per line out: `U+XXXX` (uppercase hex, at least 4 digits)
//!   by default, decimal, or `0x` and lowercase hex;
//! * `transcode --from A --to B [--errors strict|replace] [FILE]`;
//! * `trace <codec> [FILE]` — one line per unit, in aligned columns;
//! * `tables <codec> [--dot]`;
//! * `compare [--format table|markdown|csv|json] [--codecs A,B] [--properties P,Q]
//!   [--transpose] [--width N] [--spec FILE]…` — one row per property, one column
//!   per codec (formats in `compare.rs` and `grid.rs`);
//! * `report [--out DIR]` — writes `DIR/comparison.md` and its figures.
//!
//! Errors print one line, `placemat: …`, on stderr, and exit with status 1 for a
//! runtime error (unreadable or invalid input, output that cannot be written) or 2
//! for a usage error (see `output.rs`).
//!
//! ```
//! let out = placemat_cli::run_to_string(&["placemat", "list"]).unwrap();
//! assert!(out.lines().any(|l| l.starts_with("utf8  ")));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod baselines;
mod bench;
mod bench_integers;
mod bench_transcode;
mod compare;
mod decode;
mod encode;
mod grid;
mod input;
pub mod inspect;
mod output;
pub mod report;
pub mod segments;
mod source;
mod tables;
mod trace;
mod validate;

use std::io::{self, Write};

use clap::{Parser, Subcommand, ValueEnum};

pub use output::{main, note_stdout};
pub use source::CodecRef;

/// A command-line failure.
#[derive(Debug)]
pub enum CliError {
    /// A message for stderr: the input or a file the user named is wrong (exit 1).
    Message(String),
    /// A message for stderr: the arguments are wrong (exit 2).
    Usage(String),
    /// Reading input or writing output failed.
    Io(io::Error),
}

impl CliError {
    fn msg(text: impl Into<String>) -> Self {
        CliError::Message(text.into())
    }

    fn usage(text: impl Into<String>) -> Self {
        CliError::Usage(text.into())
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Message(m) | CliError::Usage(m) => f.write_str(m),
            // Errors built by this module (`input.rs`) already say what failed.
            CliError::Io(e) if e.get_ref().is_some() => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

/// Result of a command.
pub type CliResult = Result<(), CliError>;

/// Design, generate and study UTF-8-family encodings.
#[derive(Parser, Debug)]
#[command(name = "placemat", version, about, long_about = None)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
    /// The longest sequence (one value) `decode`, `transcode` and `trace` accept,
    /// in units: a value of an unbounded codec is held whole until it ends. A token
    /// of `encode` may have three characters per unit (at least 20) beside a sign
    /// and a prefix: with 10, `U+` and 30 hex digits, or 30 decimal digits.
    #[arg(long, global = true, value_name = "UNITS", default_value_t = placemat_codec::io::DEFAULT_MAX_SEQUENCE)]
    pub max_value_units: usize,
}

/// How decoding errors are handled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum ErrorMode {
    /// Stop at the first error: print its offset and exit 1.
    #[default]
    Strict,
    /// Replace each maximal subpart (and each unencodable value) by U+FFFD.
    Replace,
}

/// How `decode` writes values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValueFormat {
    /// `U+` and at least four uppercase hex digits (`U+0539`): code points.
    U,
    /// Decimal (`1337`).
    Dec,
    /// `0x` and lowercase hex digits (`0x539`).
    Hex,
}

/// A codec argument: a built-in name, or `--spec FILE`.
#[derive(clap::Args, Debug, Clone)]
pub struct CodecArgs {
    /// Positional arguments: `<codec> [FILE]`, or just `[FILE]` with `--spec`.
    #[arg(value_name = "CODEC | FILE")]
    pub args: Vec<String>,
    /// A description file to load at run time in place of a built-in codec.
    #[arg(long, value_name = "FILE")]
    pub spec: Option<String>,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the built-in codecs: `<name>  <summary>`.
    List,
    /// Encode values (whitespace-separated `U+hex`, decimal `1337` or `0x539`
    /// tokens) into raw units.
    Encode {
        /// The codec and the input.
        #[command(flatten)]
        codec: CodecArgs,
    },
    /// Decode raw units into one line per value (`U+XXXX` unless `--values` says otherwise).
    Decode {
        /// The codec and the input.
        #[command(flatten)]
        codec: CodecArgs,
        /// Error handling.
        #[arg(long, value_enum, default_value_t)]
        errors: ErrorMode,
        /// How values are written: `u` (`U+0539`), `dec` (`1337`) or `hex` (`0x539`); `encode` reads all
        /// three. By default `u`, or `dec` for a signed codec (`sleb128`).
        #[arg(long, value_enum)]
        values: Option<ValueFormat>,
    },
    /// Decode with one codec and encode with another.
    Transcode {
        /// The codec to decode with.
        #[arg(long)]
        from: Option<String>,
        /// The codec to encode with.
        #[arg(long)]
        to: Option<String>,
        /// A description file to decode with (in place of `--from`).
        #[arg(long, value_name = "FILE")]
        from_spec: Option<String>,
        /// A description file to encode with (in place of `--to`).
        #[arg(long, value_name = "FILE")]
        to_spec: Option<String>,
        /// A description file standing in for whichever of `--from`/`--to` is missing.
        #[arg(long, value_name = "FILE")]
        spec: Option<String>,
        /// Error handling.
        #[arg(long, value_enum, default_value_t)]
        errors: ErrorMode,
        /// Threads converting a regular file of 2 MiB or more, in segments
        /// (default: the machine's cores, up to 4; 1 converts in one pass).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Input file (default: standard input).
        file: Option<String>,
    },
    /// Show the table walker's steps, one line per unit.
    Trace {
        /// The codec and the input.
        #[command(flatten)]
        codec: CodecArgs,
    },
    /// Check that the input is valid: silent with exit 0 if it is, else the
    /// message `decode` gives in strict mode and exit 1.
    Validate {
        /// The codec and the input.
        #[command(flatten)]
        codec: CodecArgs,
        /// Which validator runs.
        #[arg(long, value_enum, default_value_t)]
        strategy: validate::ValidateStrategy,
    },
    /// Time every strategy of a codec (validate: SIMD, table, branching;
    /// decode: table, branching; encode) on UTF-8 files transcoded into it, or
    /// on the built-in corpora (for leb128, quic-varint and sqlite-varint,
    /// first on streams of integers, beside the crates that implement them):
    /// medians of interleaved repetitions, in GB/s.
    Bench {
        /// The codec (or, with `--spec`, only files) and the UTF-8 files.
        #[command(flatten)]
        codec: CodecArgs,
        /// Time converting into this codec instead (every path of the
        /// transcoder, beside encoding_rs and std where they convert the pair).
        #[arg(long, value_name = "CODEC")]
        to: Option<String>,
        /// A description file to convert into (in place of `--to`).
        #[arg(long, value_name = "FILE")]
        to_spec: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: bench::Format,
    },
    /// Print the unit classes and the transition table, or Graphviz with `--dot`.
    Tables {
        /// The codec and the input.
        #[command(flatten)]
        codec: CodecArgs,
        /// Print a Graphviz digraph instead (render it with Graphviz's `dot -Tsvg`).
        #[arg(long)]
        dot: bool,
    },
    /// Analyse every built-in codec (and each `--spec`) on the built-in corpora and
    /// print one table: a column per codec, a row per property.
    Compare(compare::Args),
    /// Regenerate `comparison.md`, its SVG charts and the automata's pictures.
    Report {
        /// The directory to write into; without it, `papers` when run at the root
        /// of the placemat workspace (refused anywhere else).
        #[arg(long, value_name = "DIR")]
        out: Option<String>,
    },
}

/// Runs a parsed command line, writing to `out`.
pub fn execute(cli: Cli, out: &mut dyn Write) -> CliResult {
    let max_units = cli.max_value_units;
    match cli.command {
        Command::List => {
            for codec in placemat_variants::registry::all() {
                let info = codec.info();
                writeln!(out, "{}  {}", info.name, info.summary)?;
            }
            Ok(())
        }
        Command::Encode { codec } => {
            let (codec, file) = source::resolve(&codec)?;
            encode::run(codec.get(), file.as_deref(), max_units, out)
        }
        Command::Decode { codec, errors, values } => {
            let (codec, file) = source::resolve(&codec)?;
            decode::run(codec.get(), file.as_deref(), errors, values, max_units, out)
        }
        Command::Transcode { from, to, from_spec, to_spec, spec, errors, threads, file } => {
            let (from, to) = source::resolve_pair(from, to, from_spec, to_spec, spec)?;
            let limits = (max_units, threads.map(usize::from));
            decode::transcode(from.get(), to.get(), file.as_deref(), errors, limits, out)
        }
        Command::Trace { codec } => {
            let (codec, file) = source::resolve(&codec)?;
            trace::run(codec.get(), file.as_deref(), max_units, out)
        }
        Command::Tables { codec, dot } => {
            let (codec, file) = source::resolve(&codec)?;
            if let Some(extra) = file {
                return Err(CliError::usage(format!("`tables` takes no input file (got `{extra}`)")));
            }
            tables::run(codec.get(), dot, out)
        }
        Command::Validate { codec, strategy } => {
            let (codec, file) = source::resolve(&codec)?;
            validate::run(codec.get(), file.as_deref(), strategy, max_units)
        }
        Command::Bench { codec, to, to_spec, format } => {
            let (codec, files) = source::resolve_many(&codec)?;
            let target = match (to, to_spec) {
                (Some(_), Some(_)) => return Err(CliError::usage("give --to or --to-spec, not both")),
                (Some(name), None) => Some(source::builtin(&name)?),
                (None, Some(path)) => Some(source::spec(&path)?),
                (None, None) => None,
            };
            match target {
                Some(to) => bench::run_transcode(codec.get(), to.get(), &files, format, out),
                None => bench::run(codec.get(), &files, format, out),
            }
        }
        Command::Compare(args) => compare::run(&args, out),
        Command::Report { out: dir } => report::papers::run(dir.as_deref(), out),
    }
}

/// Parses `args` and runs the command, returning what it printed (for tests and docs).
pub fn run_to_string(args: &[&str]) -> Result<String, CliError> {
    let cli = Cli::try_parse_from(args).map_err(|e| CliError::Usage(output::clap_message(&e)))?;
    let mut out = Vec::new();
    execute(cli, &mut out)?;
    String::from_utf8(out).map_err(|e| CliError::msg(e.to_string()))
}
