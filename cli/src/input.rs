//! Opening the input: a file, or standard input when no file (or `-`) is named.
//! Every error names the input: `cannot open `x`: …`, `cannot read `x`: …`.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use super::CliError;

/// An open input and the name to use for it in messages.
pub struct Input {
    /// The reader; its errors name the input.
    pub reader: Box<dyn Read>,
    /// `<stdin>` or the path.
    pub name: String,
    /// The input's size in bytes, when it is a regular file.
    pub size: Option<u64>,
}

/// A reader whose errors say which input failed.
struct Named<R> {
    inner: R,
    name: String,
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            kind => io::Error::new(kind, format!("cannot read `{}`: {e}", self.name)),
        })
    }
}

/// Opens `file`, or standard input.
pub fn open(file: Option<&str>) -> Result<Input, CliError> {
    match file {
        None | Some("-") => {
            let name = "<stdin>".to_string();
            Ok(Input { reader: Box::new(Named { inner: io::stdin().lock(), name: name.clone() }), name, size: None })
        }
        Some(path) => {
            let f = File::open(path).map_err(|e| CliError::msg(format!("cannot open `{path}`: {e}")))?;
            let meta = f.metadata().map_err(|e| CliError::msg(format!("cannot read `{path}`: {e}")))?;
            if meta.is_dir() {
                return Err(CliError::msg(format!("cannot read `{path}`: it is a directory")));
            }
            let size = meta.is_file().then_some(meta.len());
            Ok(Input { reader: Box::new(Named { inner: f, name: path.into() }), name: path.into(), size })
        }
    }
}

/// The file at `path` from byte `offset` on (for the rest of a file whose
/// start was read otherwise).
pub fn open_at(path: &str, offset: u64) -> Result<Input, CliError> {
    let mut f = File::open(path).map_err(|e| CliError::msg(format!("cannot open `{path}`: {e}")))?;
    f.seek(SeekFrom::Start(offset)).map_err(|e| CliError::msg(format!("cannot read `{path}`: {e}")))?;
    Ok(Input { reader: Box::new(Named { inner: f, name: path.into() }), name: path.into(), size: None })
}

/// An input already in memory, called `name` in messages.
pub fn in_memory(name: &str, data: Vec<u8>) -> Input {
    let size = Some(data.len() as u64);
    Input { reader: Box::new(io::Cursor::new(data)), name: name.into(), size }
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
