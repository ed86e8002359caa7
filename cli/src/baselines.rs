//! What integer codecs are measured against: for each built-in integer codec
//! that a crate (or SQLite) also implements, one reader and one writer per
//! implementation, as plain functions, so that `placemat bench` and the
//! criterion `varints` group call the same code and the compiler inlines it
//! into both loops.
//!
//! A reader takes the value at the start of its input and returns it with its
//! length (`None` where it stops); a writer puts a value at the start of its
//! output, which has room for the longest encoding, and returns its length.
//!
//! ```
//! use placemat_cli::baselines::{leb128, sqlite};
//! let mut out = [0u8; 10];
//! assert_eq!(leb128::prost_write(624_485, &mut out), 3);
//! assert_eq!(out[..3], [0xE5, 0x8E, 0x26]);
//! assert_eq!(leb128::integer_encoding_read(&out), Some((624_485, 3)));
//! let mut unit = [0u8; 9];
//! assert_eq!(sqlite::put(300, &mut unit), 2);
//! assert_eq!(sqlite::get(&unit), Some((300, 2)));
//! ```

/// A value and the units it took, or `None` where a reader stops.
pub type Read = Option<(u64, usize)>;

/// A reader of a `bytes::Buf` as a [`Read`]: the value, and how far it moved.
#[inline(always)]
pub fn by_buf<'b, E>(b: &'b [u8], read: impl FnOnce(&mut &'b [u8]) -> Result<u64, E>) -> Read {
    let mut rest = b;
    let v = read(&mut rest).ok()?;
    Some((v, b.len() - rest.len()))
}

/// A writer into a `bytes::BufMut` as a length.
#[inline(always)]
pub fn into_buf(out: &mut [u8], write: impl FnOnce(&mut &mut [u8])) -> usize {
    let before = out.len();
    let mut rest = out;
    write(&mut rest);
    before - rest.len()
}

/// Unsigned LEB128 (`leb128`): prost, integer-encoding, unsigned-varint and the
/// `leb128` crate.
pub mod leb128 {
    use super::{by_buf, into_buf, Read};
    use integer_encoding::VarInt;

    /// prost's `decode_varint`.
    #[inline]
    pub fn prost_read(b: &[u8]) -> Read {
        by_buf(b, prost::encoding::decode_varint)
    }
    /// prost's `encode_varint`.
    #[inline]
    pub fn prost_write(v: u64, out: &mut [u8]) -> usize {
        into_buf(out, |buf| prost::encoding::encode_varint(v, buf))
    }
    /// integer-encoding's `VarInt::decode_var`.
    #[inline]
    pub fn integer_encoding_read(b: &[u8]) -> Read {
        u64::decode_var(b)
    }
    /// integer-encoding's `VarInt::encode_var`.
    #[inline]
    pub fn integer_encoding_write(v: u64, out: &mut [u8]) -> usize {
        v.encode_var(out)
    }
    /// unsigned-varint's `decode::u64`.
    #[inline]
    pub fn unsigned_varint_read(b: &[u8]) -> Read {
        let (v, rest) = unsigned_varint::decode::u64(b).ok()?;
        Some((v, b.len() - rest.len()))
    }
    /// unsigned-varint's `encode::u64`, copied out of its buffer.
    #[inline]
    pub fn unsigned_varint_write(v: u64, out: &mut [u8]) -> usize {
        let mut buf = unsigned_varint::encode::u64_buffer();
        let units = unsigned_varint::encode::u64(v, &mut buf);
        out[..units.len()].copy_from_slice(units);
        units.len()
    }
    /// The `leb128` crate's `read::unsigned`.
    #[inline]
    pub fn leb128_read(b: &[u8]) -> Read {
        by_buf(b, ::leb128::read::unsigned)
    }
    /// The `leb128` crate's `write::unsigned`.
    #[inline]
    pub fn leb128_write(v: u64, mut out: &mut [u8]) -> usize {
        ::leb128::write::unsigned(&mut out, v).unwrap_or(0)
    }
}

/// Signed integers as their 64-bit patterns (`v as u64`): SLEB128
/// (`sleb128`) by the `leb128` crate, and ZigZag varints
/// (`protobuf-sint64`) by integer-encoding (whose `i64` varints are ZigZag)
/// and by prost's varint after the ZigZag map its `sint64` fields use.
///
/// ```
/// use placemat_cli::baselines::signed;
/// let mut out = [0u8; 10];
/// assert_eq!(signed::leb128_write(-128i64 as u64, &mut out), 2);
/// assert_eq!(out[..2], [0x80, 0x7F]);
/// assert_eq!(signed::integer_encoding_write(-2i64 as u64, &mut out), 1);
/// assert_eq!(out[0], 0x03);
/// assert_eq!(signed::prost_zigzag_read(&out), Some((-2i64 as u64, 1)));
/// ```
pub mod signed {
    use super::{by_buf, into_buf, Read};
    use integer_encoding::VarInt;

    /// The `leb128` crate's `read::signed`.
    #[inline]
    pub fn leb128_read(b: &[u8]) -> Read {
        by_buf(b, |r| ::leb128::read::signed(r).map(|v| v as u64))
    }
    /// The `leb128` crate's `write::signed`.
    #[inline]
    pub fn leb128_write(v: u64, mut out: &mut [u8]) -> usize {
        ::leb128::write::signed(&mut out, v as i64).unwrap_or(0)
    }
    /// integer-encoding's `VarInt::decode_var` of an `i64` (ZigZag).
    #[inline]
    pub fn integer_encoding_read(b: &[u8]) -> Read {
        i64::decode_var(b).map(|(v, n)| (v as u64, n))
    }
    /// integer-encoding's `VarInt::encode_var` of an `i64` (ZigZag).
    #[inline]
    pub fn integer_encoding_write(v: u64, out: &mut [u8]) -> usize {
        (v as i64).encode_var(out)
    }
    /// prost's `decode_varint`, then ZigZag undone as its `sint64` fields do.
    #[inline]
    pub fn prost_zigzag_read(b: &[u8]) -> Read {
        by_buf(b, |r| prost::encoding::decode_varint(r).map(|z| (z >> 1) ^ (z & 1).wrapping_neg()))
    }
    /// ZigZag, then prost's `encode_varint`.
    #[inline]
    pub fn prost_zigzag_write(v: u64, out: &mut [u8]) -> usize {
        let v = v as i64;
        into_buf(out, |buf| prost::encoding::encode_varint(((v << 1) ^ (v >> 63)) as u64, buf))
    }
}

/// QUIC's variable-length integer (`quic-varint`): octets (Cloudflare's
/// quiche). quinn-proto, the other QUIC crate, is a baseline of the criterion
/// `varints` group only: it brings a random number generator and a logging
/// framework that would add 15 s to every build of this crate.
pub mod quic {
    use super::Read;

    /// octets' `Octets::get_varint`.
    #[inline]
    pub fn octets_read(b: &[u8]) -> Read {
        let mut o = octets::Octets::with_slice(b);
        let v = o.get_varint().ok()?;
        Some((v, o.off()))
    }
    /// octets' `OctetsMut::put_varint`.
    #[inline]
    pub fn octets_write(v: u64, out: &mut [u8]) -> usize {
        let mut o = octets::OctetsMut::with_slice(out);
        match o.put_varint(v) {
            Ok(_) => o.off(),
            Err(_) => 0,
        }
    }
}

/// SQLite's variable-length integers, written from the file format's
/// definition (sqlite.org/fileformat2.html, "varint"): one to nine bytes,
/// most significant group first; in the first eight bytes the high bit says
/// that another byte follows and the low seven bits are payload, and a ninth
/// byte gives all eight of its bits. Like `sqlite3GetVarint`, the reader
/// takes the one- and two-byte integers before its general loop.
pub mod sqlite {
    use super::Read;

    /// The integer at the start of `p` and its length, or `None` if `p` ends
    /// inside it.
    #[inline]
    pub fn get(p: &[u8]) -> Read {
        let a = *p.first()?;
        if a < 0x80 {
            return Some((u64::from(a), 1));
        }
        let b = *p.get(1)?;
        let mut v = u64::from(a & 0x7F) << 7 | u64::from(b & 0x7F);
        if b < 0x80 {
            return Some((v, 2));
        }
        for (i, &c) in p.iter().enumerate().take(8).skip(2) {
            v = v << 7 | u64::from(c & 0x7F);
            if c < 0x80 {
                return Some((v, i + 1));
            }
        }
        let last = *p.get(8)?;
        Some((v << 8 | u64::from(last), 9))
    }

    /// Writes `v` at the start of `out` (room for nine bytes) and returns its
    /// length: the fewest bytes that hold it.
    #[inline]
    pub fn put(v: u64, out: &mut [u8; 9]) -> usize {
        if v < 0x80 {
            out[0] = v as u8;
            return 1;
        }
        if v >> 56 != 0 {
            out[8] = v as u8;
            let mut rest = v >> 8;
            for unit in out[..8].iter_mut().rev() {
                *unit = 0x80 | (rest & 0x7F) as u8;
                rest >>= 7;
            }
            return 9;
        }
        let n = (64 - v.leading_zeros()).div_ceil(7) as usize;
        for (i, unit) in out[..n].iter_mut().enumerate() {
            let group = (v >> (7 * (n - 1 - i))) & 0x7F;
            *unit = if i + 1 < n { 0x80 } else { 0 } | group as u8;
        }
        n
    }

    /// [`put`] into a slice of room enough, as the other writers take it.
    #[inline]
    pub fn write(v: u64, out: &mut [u8]) -> usize {
        let mut unit = [0u8; 9];
        let n = put(v, &mut unit);
        out[..n].copy_from_slice(&unit[..n]);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_codec::{Decoder, Encoder, Step, Value};
    use placemat_variants::codecs::{Leb128, ProtobufSint64, QuicVarint, Sleb128, SqliteVarint};
    use placemat_variants::corpus::integers::Distribution;

    type Pair = (&'static str, fn(&[u8]) -> Read, fn(u64, &mut [u8]) -> usize);

    /// The edges of every bit width up to `bits`, and both distributions.
    fn values(bits: u32) -> Vec<u64> {
        let mut values: Vec<u64> = (0..bits).flat_map(|b| [(1u64 << b) - 1, 1 << b]).collect();
        values.push(if bits == 64 { u64::MAX } else { (1 << bits) - 1 });
        for d in Distribution::ALL {
            values.extend(d.values(2000, bits));
        }
        values
    }

    /// Every reader and writer agrees with the built-in codec on `values`
    /// (64-bit views), both ways, and stops on a value cut short.
    fn agree<C: Encoder + Decoder<Value = <C as Encoder>::Value> + Default>(values: &[u64], pairs: &[Pair]) {
        for &(name, read, write) in pairs {
            for &v in values {
                let mut ours = [0u8; 16];
                let n = write(v, &mut ours);
                let mut theirs = Vec::new();
                C::default().encode_push(Value::from_u64(v).unwrap(), &mut theirs).unwrap();
                assert_eq!(&ours[..n], &theirs[..], "{name}: writing {v:#X}");
                assert_eq!(read(&ours[..n]), Some((v, n)), "{name}: reading {v:#X}");
                assert_eq!(C::default().step(&ours[..n]).map(Value::to_u64), Step::Value { value: v, len: n });
                assert_eq!(read(&ours[..n - 1]), None, "{name}: cut short: {v:#X}");
            }
        }
    }

    #[test]
    fn the_baselines_read_and_write_what_the_codecs_do() {
        agree::<Leb128>(
            &values(64),
            &[
                ("prost", leb128::prost_read, leb128::prost_write),
                ("integer-encoding", leb128::integer_encoding_read, leb128::integer_encoding_write),
                ("unsigned-varint", leb128::unsigned_varint_read, leb128::unsigned_varint_write),
                ("leb128", leb128::leb128_read, leb128::leb128_write),
            ],
        );
        agree::<QuicVarint>(&values(62), &[("octets", quic::octets_read, quic::octets_write)]);
        agree::<SqliteVarint>(&values(64), &[("sqlite", sqlite::get, sqlite::write)]);
        // Signed values: magnitudes of every width, of both signs.
        let both: Vec<u64> = values(63).into_iter().flat_map(|v| [v, v.wrapping_neg()]).chain([1 << 63]).collect();
        agree::<Sleb128>(&both, &[("leb128", signed::leb128_read, signed::leb128_write)]);
        agree::<ProtobufSint64>(
            &both,
            &[
                ("prost", signed::prost_zigzag_read, signed::prost_zigzag_write),
                ("integer-encoding", signed::integer_encoding_read, signed::integer_encoding_write),
            ],
        );
    }
}
