//! `placemat encode`: whitespace-separated `U+hex` tokens in, raw units out. The
//! input is read in chunks, so its size does not matter.

use std::io::Write;

use placemat_codec::big::BigUint;
use placemat_codec::DynCodec;

use super::input;
use super::{CliError, CliResult};

/// Parses one `U+hex` token (any number of digits).
pub(super) fn parse_token(token: &str) -> Result<BigUint, String> {
    let Some(digits) = token.strip_prefix("U+") else {
        return Err("expected `U+` followed by hex digits".into());
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("expected `U+` followed by hex digits".into());
    }
    BigUint::parse_bytes(digits.as_bytes(), 16).ok_or_else(|| "expected `U+` followed by hex digits".into())
}

/// `placemat encode`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, out: &mut dyn Write) -> CliResult {
    let mut input = input::open(file)?;
    let name = input.name.clone();
    let mut chunk = vec![0u8; 1 << 16];
    let mut token: Vec<u8> = Vec::new();
    let mut encoded: Vec<u8> = Vec::with_capacity(1 << 17);
    let mut index = 0usize;
    let mut offset = 0usize;
    let mut token_start = 0usize;
    let info = codec.info();
    let mut finish_token =
        |token: &mut Vec<u8>, start: usize, encoded: &mut Vec<u8>, out: &mut dyn Write| -> CliResult {
            if token.is_empty() {
                return Ok(());
            }
            index += 1;
            let text = String::from_utf8_lossy(token).into_owned();
            token.clear();
            let fail = |why: String, encoded: &mut Vec<u8>, out: &mut dyn Write| -> CliError {
                if let Err(e) = out.write_all(encoded) {
                    return e.into();
                }
                CliError::msg(format!("{}: token {index} `{text}` at byte {start}: {why}", name))
            };
            let value = parse_token(&text).map_err(|why| fail(why, encoded, out))?;
            if codec.encode_big(&value, encoded).is_err() {
                return Err(fail(
                    format!("U+{value:04X} cannot be encoded by {}, whose range is {}", info.name, info.range_text()),
                    encoded,
                    out,
                ));
            }
            if encoded.len() >= 1 << 16 {
                out.write_all(encoded)?;
                encoded.clear();
            }
            Ok(())
        };
    loop {
        let n = input::fill(&mut input.reader, &mut chunk)?;
        for &b in &chunk[..n] {
            if b.is_ascii_whitespace() {
                finish_token(&mut token, token_start, &mut encoded, out)?;
            } else {
                if token.is_empty() {
                    token_start = offset;
                }
                token.push(b);
                if token.len() > 4096 {
                    return Err(CliError::msg(format!(
                        "{}: token {} at byte {token_start} is longer than 4096 bytes",
                        name,
                        index + 1
                    )));
                }
            }
            offset += 1;
        }
        if n < chunk.len() {
            break;
        }
    }
    finish_token(&mut token, token_start, &mut encoded, out)?;
    out.write_all(&encoded)?;
    Ok(())
}
