//! `placemat encode`: whitespace-separated value tokens in, raw units out. A token
//! is a code point `U+hex` (`u+hex` too), a decimal integer (`1337`, `-123`) or a
//! hexadecimal one (`0x539`, `-0x7B`); a leading UTF-8 byte order mark is skipped.
//! The input is read in chunks, so its size does not matter; one token may have up
//! to three characters per unit of `--max-value-units` (and at least 20, beside a
//! sign and a prefix), so every value `decode` prints under the same limit, in any
//! of its `--values` formats, reads back.

use std::io::Write;

use placemat_codec::big::{BigInt, BigUint};
use placemat_codec::DynCodec;

use super::input;
use super::{CliError, CliResult};

/// A UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The most characters a token's digits may take: three per unit of the
/// longest value (a unit carries at most 8 bits: two hex digits, at most three
/// decimal ones), and at least 20 (any 64-bit value in decimal).
pub(super) fn max_digits(max_units: usize) -> usize {
    max_units.saturating_mul(3).max(20)
}

/// The longest token: a sign, a two-character prefix (`U+`, `0x`) and the digits.
fn max_token(max_units: usize) -> usize {
    3 + max_digits(max_units)
}

/// A parsed token: an integer with its sign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Token {
    /// Whether a `-` came before a magnitude other than 0.
    pub negative: bool,
    /// The magnitude.
    pub magnitude: BigUint,
}

/// What a token may be, for messages.
const TOKEN_FORMS: &str = "expected `U+` and hex digits, a decimal integer (`1337`, `-123`) or `0x` and hex digits";

/// Parses one token: `U+hex` or `u+hex` (a code point, never signed), a
/// decimal integer, or `0x`/`0X` and hex digits, the last two with an optional
/// `-` (any number of digits).
pub(super) fn parse_token(token: &[u8]) -> Result<Token, String> {
    let expected = || TOKEN_FORMS.to_string();
    let digits = |text: &[u8], radix: u32| {
        let ok = !text.is_empty()
            && text.iter().all(|b| if radix == 16 { b.is_ascii_hexdigit() } else { b.is_ascii_digit() });
        ok.then(|| BigUint::parse_bytes(text, radix)).flatten().ok_or_else(expected)
    };
    if let Some(hex) = token.strip_prefix(b"U+").or_else(|| token.strip_prefix(b"u+")) {
        return Ok(Token { negative: false, magnitude: digits(hex, 16)? });
    }
    let (minus, rest) = match token.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let magnitude = match rest.strip_prefix(b"0x").or_else(|| rest.strip_prefix(b"0X")) {
        Some(hex) => digits(hex, 16)?,
        None => digits(rest, 10)?,
    };
    Ok(Token { negative: minus && magnitude != BigUint::from(0u32), magnitude })
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
    /// The longest token ([`max_token`]).
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
            " is longer than {} characters, the most --max-value-units {} allows (3 per unit beside a sign and a \
             prefix; raise it with --max-value-units)",
            self.max_token, self.max_units
        );
        Err(self.fail(&why, out))
    }

    /// Encodes the current token, if any.
    fn finish(&mut self, out: &mut dyn Write) -> CliResult {
        if self.token.is_empty() {
            return Ok(());
        }
        if self.codec.info().sign.is_some() {
            return self.finish_signed(out);
        }
        let value = match parse_token(&self.token) {
            Ok(Token { negative: false, magnitude }) => magnitude,
            Ok(Token { negative: true, .. }) => {
                let info = self.codec.info();
                let why = format!(
                    " is negative, and {} has no negative values (its range is {})",
                    info.name,
                    info.range_text()
                );
                return Err(self.fail(&why, out));
            }
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
            return Err(self.unencodable(out));
        }
        self.written(out)
    }

    /// [`Encoder::finish`] for a signed codec: a token of either sign, as
    /// its 64-bit pattern.
    fn finish_signed(&mut self, out: &mut dyn Write) -> CliResult {
        let Token { negative, magnitude } = match parse_token(&self.token) {
            Ok(token) => token,
            Err(why) => return Err(self.fail(&format!(": {why}"), out)),
        };
        // Past 64 bits, or past i64: a value of a codec of any size only (an
        // i64's is its pattern).
        let value = u64::try_from(&magnitude).ok().and_then(|m| match negative {
            true => 0i64.checked_sub_unsigned(m),
            false => i64::try_from(m).ok(),
        });
        let encoded = match value {
            Some(v) if self.codec.encode_push(v as u64, &mut self.encoded).is_ok() => true,
            // Past the fast path (`low_bit` cannot spell i64::MIN there).
            _ if self.codec.info().unbounded => {
                let magnitude = BigInt::from(magnitude);
                let value = if negative { -magnitude } else { magnitude };
                self.codec.encode_bigint(&value, &mut self.encoded).is_ok()
            }
            _ => false,
        };
        match encoded {
            true => self.written(out),
            false => Err(self.unencodable(out)),
        }
    }

    /// The error for a token the codec cannot encode.
    fn unencodable(&mut self, out: &mut dyn Write) -> CliError {
        let info = self.codec.info();
        let why = format!(" cannot be encoded by {} (its range is {})", info.name, info.range_text());
        self.fail(&why, out)
    }

    /// The current token is encoded: clears it, and writes out a full buffer.
    fn written(&mut self, out: &mut dyn Write) -> CliResult {
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
        max_token: max_token(max_units),
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
