//! The process around a command: standard output, the error line and the exit status.
//!
//! * Exit 0 on success, and when the reader of the output goes away (`| head`): a
//!   broken pipe ends the command quietly.
//! * Exit 1 for a runtime error: unreadable or invalid input, an invalid description
//!   file, output that cannot be written (`placemat: cannot write output: …`, for
//!   example with standard output closed).
//! * Exit 2 for a usage error, whether the argument parser or a command finds it:
//!   one line, ``placemat: <what is wrong> (try `placemat <command> --help`)``.
//!
//! Closed standard output: the Rust runtime reopens a closed standard stream on
//! `/dev/null` before `main` runs, so `placemat list >&-` would succeed with its
//! output lost. A binary that calls [`note_stdout`] before the runtime's set-up lets
//! [`main`] see the closed stream and fail instead; without that call, [`main`]
//! cannot tell. The call is a static in the binary's constructor section:
//!
//! ```ignore
//! #[cfg(all(unix, not(target_vendor = "apple")))]
//! #[used]
//! #[link_section = ".init_array"]
//! static NOTE_STDOUT: extern "C" fn() = placemat_cli::note_stdout;
//! ```

use std::ffi::OsString;
use std::io::{self, Write};
use std::sync::atomic::{AtomicI32, Ordering};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use super::{execute, Cli, CliError, CliResult};

/// Not noted yet.
const UNKNOWN: i32 = -1;

/// Standard output at start-up: [`UNKNOWN`], 0 when open, otherwise the `errno` of
/// the failed attempt to duplicate it (`EBADF` when it is closed).
static STDOUT_AT_START: AtomicI32 = AtomicI32::new(UNKNOWN);

/// Notes whether standard output is open. Meant to run before the Rust runtime's
/// set-up (which replaces a closed standard stream by `/dev/null`), from a binary's
/// `.init_array`; it only duplicates and closes file descriptor 1.
pub extern "C" fn note_stdout() {
    STDOUT_AT_START.store(stdout_errno(), Ordering::Relaxed);
}

/// 0 if standard output is open, otherwise the `errno` saying why not.
fn stdout_errno() -> i32 {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        match io::stdout().as_fd().try_clone_to_owned() {
            Ok(_) => 0,
            Err(e) => e.raw_os_error().unwrap_or(UNKNOWN).max(1),
        }
    }
    #[cfg(not(unix))]
    {
        0
    }
}

/// Standard output, or the error every write to it gets when it was closed.
enum Stdout {
    Open(RawStdout),
    Closed(i32),
}

/// Standard output without the standard library's line buffering, which
/// looks for a newline in every write (5 % of `placemat transcode`'s time,
/// measured): [`main`] buffers it in large blocks itself. A duplicate of file
/// descriptor 1 on Unix.
#[cfg(unix)]
type RawStdout = std::fs::File;
#[cfg(not(unix))]
type RawStdout = io::StdoutLock<'static>;

#[cfg(unix)]
fn raw_stdout() -> io::Result<RawStdout> {
    use std::os::fd::AsFd;
    Ok(io::stdout().as_fd().try_clone_to_owned()?.into())
}

#[cfg(not(unix))]
fn raw_stdout() -> io::Result<RawStdout> {
    Ok(io::stdout().lock())
}

impl Stdout {
    fn new() -> Self {
        let errno = match STDOUT_AT_START.load(Ordering::Relaxed) {
            UNKNOWN => stdout_errno(),
            noted => noted,
        };
        if errno != 0 {
            return Stdout::Closed(errno);
        }
        match raw_stdout() {
            Ok(raw) => Stdout::Open(raw),
            Err(e) => Stdout::Closed(e.raw_os_error().unwrap_or(UNKNOWN).max(1)),
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stdout::Open(s) => s.write(buf),
            Stdout::Closed(errno) => Err(io::Error::from_raw_os_error(*errno)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stdout::Open(s) => s.flush(),
            Stdout::Closed(_) => Ok(()),
        }
    }
}

/// The command's output: remembers whether writing failed, so that a failed write
/// is told apart from a failed read.
struct Output<W> {
    inner: W,
    failed: bool,
}

impl<W: Write> Output<W> {
    fn note<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            self.failed |= e.kind() != io::ErrorKind::Interrupted;
        }
        result
    }
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(buf);
        self.note(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.note(result)
    }
}

/// One line from one of clap's errors: its message and context (possible values,
/// tips), without the usage block and the `--help` advice.
pub(super) fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut message = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if !message.is_empty() {
            message.push_str(if line.starts_with('[') { " " } else { "; " });
        }
        message.push_str(line);
    }
    message
}

/// The command named in `args` (the first argument that is a command's name).
fn command_in(args: &[OsString]) -> Option<String> {
    let cli = Cli::command();
    let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    args.iter().skip(1).filter_map(|a| a.to_str()).find(|a| names.contains(a)).map(str::to_string)
}

/// Writes a message to standard error; one that cannot be written (its
/// reader gone) is dropped, where `eprintln!` would panic and turn the
/// command's exit status into 101.
pub(super) fn to_stderr(message: std::fmt::Arguments<'_>) {
    let _ = io::stderr().write_fmt(message);
}

/// Prints a usage error in the one style all of them share; returns exit status 2.
fn usage_error(message: &str, args: &[OsString]) -> i32 {
    let help = match command_in(args) {
        Some(command) => format!("placemat {command} --help"),
        None => "placemat --help".to_string(),
    };
    to_stderr(format_args!("placemat: {message} (try `{help}`)\n"));
    2
}

/// Reports a failed write (nothing, for a broken pipe); returns the exit status.
fn write_error(e: &io::Error) -> i32 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return 0;
    }
    to_stderr(format_args!("placemat: cannot write output: {e}\n"));
    1
}

/// Reports the outcome of a command; returns the exit status.
fn status(result: CliResult, flushed: io::Result<()>, write_failed: bool, args: &[OsString]) -> i32 {
    match (result, flushed) {
        (Err(CliError::Io(e)), _) if write_failed => write_error(&e),
        (Err(CliError::Usage(m)), _) => usage_error(&m, args),
        (Err(e), _) => {
            to_stderr(format_args!("placemat: {e}\n"));
            1
        }
        (Ok(()), Err(e)) => write_error(&e),
        (Ok(()), Ok(())) => 0,
    }
}

/// Handles an argument the parser rejected (or `--help`, `--version`); exits.
fn parse_failed(e: clap::Error, args: &[OsString], stdout: &Stdout) -> ! {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            if let Stdout::Closed(errno) = stdout {
                std::process::exit(write_error(&io::Error::from_raw_os_error(*errno)));
            }
            e.exit()
        }
        // `placemat` alone prints the help on stderr.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => std::process::exit(usage_error(&clap_message(&e), args)),
    }
}

/// The binary's entry point: parses the arguments, runs, reports, exits.
pub fn main() -> ! {
    let args: Vec<OsString> = std::env::args_os().collect();
    let stdout = Stdout::new();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => parse_failed(e, &args, &stdout),
    };
    let mut out = Output { inner: io::BufWriter::with_capacity(1 << 16, stdout), failed: false };
    let result = execute(cli, &mut out);
    let flushed = out.flush();
    std::process::exit(status(result, flushed, out.failed, &args))
}
