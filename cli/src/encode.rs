//! `placemat encode`: whitespace-separated `U+hex` tokens in (`u+hex` too; a leading
//! UTF-8 byte order mark is skipped), raw units out. The input is read in chunks, so
//! its size does not matter; one token may have up to two hex digits per unit of
//! `--max-value-units` (and at least 16), so every value `decode` prints under the
//! same limit reads back.

use std::io::Write;

use placemat_codec::big::BigUint;
use placemat_codec::DynCodec;

use super::input;
use super::{CliError, CliResult};

/// A UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The most hex digits a token may have: two per unit of the longest value (a unit
/// carries at most 8 bits), and at least 16 (any 64-bit value, zero-padded).
pub(super) fn max_digits(max_units: usize) -> usize {
    max_units.saturating_mul(2).max(16)
}

/// Parses one `U+hex` or `u+hex` token (any number of digits).
pub(super) fn parse_token(token: &[u8]) -> Result<BigUint, String> {
    let expected = || "expected `U+` followed by hex digits".to_string();
    let digits = token.strip_prefix(b"U+").or_else(|| token.strip_prefix(b"u+")).ok_or_else(expected)?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(expected());
    }
    BigUint::parse_bytes(digits, 16).ok_or_else(expected)
}

/// The bytes of a token as printable text: printable characters as they are, any
/// other byte (controls, invalid UTF-8) and `\` as `\xNN` escapes.
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() || c == '\\' {
                let mut buf = [0u8; 4];
                c.encode_utf8(&mut buf).bytes().for_each(|b| out.push_str(&format!("\\x{b:02X}")));
            } else {
                out.push(c);
            }
        }
        chunk.invalid().iter().for_each(|b| out.push_str(&format!("\\x{b:02X}")));
    }
    out
}

/// A token as messages show it: escaped, and shortened to its ends when long.
pub(super) fn shown(token: &[u8]) -> String {
    const ENDS: usize = 24;
    if token.len() <= 3 * ENDS {
        return format!("`{}`", escaped(token));
    }
    let (head, tail) = (&token[..ENDS], &token[token.len() - ENDS..]);
    format!("`{}…{}` ({} bytes)", escaped(head), escaped(tail), token.len())
}

/// The state of `encode` between chunks.
struct Encoder<'a> {
    codec: &'a dyn DynCodec,
    name: String,
    /// The token being read, where it starts, and how many came before it.
    token: Vec<u8>,
    start: usize,
    index: usize,
    /// Units not yet written.
    encoded: Vec<u8>,
    /// The longest token: `U+` and the most digits.
    max_token: usize,
    max_units: usize,
    /// The value before, for the codec's rules across values.
    last: Option<u64>,
}

impl Encoder<'_> {
    /// Writes what is encoded so far, then returns the error for the current token.
    fn fail(&mut self, why: &str, out: &mut dyn Write) -> CliError {
        if let Err(e) = out.write_all(&self.encoded) {
            return e.into();
        }
        CliError::msg(format!("{}: token {} {} at byte {}{why}", self.name, self.index, shown(&self.token), self.start))
    }

    /// Adds one byte at stream offset `offset` to the current token.
    fn push(&mut self, b: u8, offset: usize, out: &mut dyn Write) -> CliResult {
        if self.token.is_empty() {
            self.start = offset;
            self.index += 1;
        }
        self.token.push(b);
        if self.token.len() <= self.max_token {
            return Ok(());
        }
        let why = format!(
            " is longer than `U+` and {} hex digits, the most --max-value-units {} allows (2 per unit; \
             raise it with --max-value-units)",
            self.max_token - 2,
            self.max_units
        );
        Err(self.fail(&why, out))
    }

    /// Encodes the current token, if any.
    fn finish(&mut self, out: &mut dyn Write) -> CliResult {
        if self.token.is_empty() {
            return Ok(());
        }
        let value = match parse_token(&self.token) {
            Ok(value) => value,
            Err(why) => return Err(self.fail(&format!(": {why}"), out)),
        };
        let small = u64::try_from(&value).ok();
        if let (Some(before), Some(v)) = (self.last, small) {
            if self.codec.forbids(before, v) {
                let why = format!(" may not follow U+{before:04X} in {}", self.codec.info().name);
                return Err(self.fail(&why, out));
            }
        }
        self.last = small;
        if self.codec.encode_big(&value, &mut self.encoded).is_err() {
            let info = self.codec.info();
            let why = format!(" cannot be encoded by {} (its range is {})", info.name, info.range_text());
            return Err(self.fail(&why, out));
        }
        self.token.clear();
        if self.encoded.len() >= 1 << 16 {
            out.write_all(&self.encoded)?;
            self.encoded.clear();
        }
        Ok(())
    }
}

/// `placemat encode`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, max_units: usize, out: &mut dyn Write) -> CliResult {
    let mut input = input::open(file)?;
    let mut e = Encoder {
        codec,
        name: input.name.clone(),
        token: Vec::new(),
        start: 0,
        index: 0,
        encoded: Vec::with_capacity(1 << 17),
        max_token: 2 + max_digits(max_units),
        max_units,
        last: None,
    };
    let mut chunk = vec![0u8; 1 << 16];
    let mut offset = 0usize;
    loop {
        let n = input::fill(&mut input.reader, &mut chunk)?;
        let skip = if offset == 0 && chunk[..n].starts_with(BOM) { BOM.len() } else { 0 };
        for (i, &b) in chunk[..n].iter().enumerate().skip(skip) {
            if b.is_ascii_whitespace() {
                e.finish(out)?;
            } else {
                e.push(b, offset + i, out)?;
            }
        }
        offset += n;
        if n < chunk.len() {
            break;
        }
    }
    e.finish(out)?;
    out.write_all(&e.encoded)?;
    Ok(())
}
