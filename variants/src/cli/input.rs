//! Opening the input: a file, or standard input when no file (or `-`) is named.

use std::fs::File;
use std::io::{self, Read};

use super::CliError;

/// An open input and the name to use for it in messages.
pub struct Input {
    /// The reader.
    pub reader: Box<dyn Read>,
    /// `<stdin>` or the path.
    pub name: String,
}

/// Opens `file`, or standard input.
pub fn open(file: Option<&str>) -> Result<Input, CliError> {
    match file {
        None | Some("-") => Ok(Input { reader: Box::new(io::stdin().lock()), name: "<stdin>".into() }),
        Some(path) => {
            let f = File::open(path).map_err(|e| CliError::msg(format!("cannot open `{path}`: {e}")))?;
            Ok(Input { reader: Box::new(f), name: path.into() })
        }
    }
}

/// Reads into `buf` until it is full or the input ends; returns the bytes read.
pub fn fill(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
