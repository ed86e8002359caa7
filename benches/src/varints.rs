//! What the `varints` group measures on: streams of integers in two
//! distributions, and the one baseline that is not a crate, SQLite's varint.
//!
//! ```
//! use placemat_benches::varints::{sqlite, Distribution};
//!
//! let values = Distribution::MostlySmall.values(1000, 64);
//! assert!(values.iter().filter(|&&v| v < 128).count() >= 850);
//! let mut unit = [0u8; 9];
//! assert_eq!(sqlite::put(300, &mut unit), 2);
//! assert_eq!(sqlite::get(&unit), Some((300, 2)));
//! ```

use placemat_variants::corpus::Rng;

/// How the values of a stream are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// 90 % below 128; the rest of a bit width drawn uniformly.
    MostlySmall,
    /// A bit width drawn uniformly, then a value of exactly that width.
    LogUniform,
}

impl Distribution {
    /// Both, in the order the group reports them.
    pub const ALL: [Distribution; 2] = [Distribution::MostlySmall, Distribution::LogUniform];

    /// The benchmark id's name of the distribution.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::MostlySmall => "mostly-small",
            Distribution::LogUniform => "log-uniform",
        }
    }

    /// `n` values of at most `bits` bits (1–64), the same for every run.
    pub fn values(self, n: usize, bits: u32) -> Vec<u64> {
        let mut rng = Rng::new(0x5EED ^ u64::from(bits) ^ (self as u64) << 32);
        (0..n)
            .map(|_| match self {
                Distribution::MostlySmall if rng.below(10) < 9 => rng.range(0, 127),
                _ => {
                    let width = rng.range(1, u64::from(bits)) as u32;
                    let top = 1u64 << (width - 1);
                    top | (rng.next_u64() & (top - 1))
                }
            })
            .collect()
    }
}

/// SQLite's variable-length integers, written from the file format's
/// definition (sqlite.org/fileformat2.html, "varint"): one to nine bytes,
/// most significant group first; in the first eight bytes the high bit says
/// that another byte follows and the low seven bits are payload, and a ninth
/// byte gives all eight of its bits. Like `sqlite3GetVarint`, the reader
/// takes the one- and two-byte integers before its general loop.
pub mod sqlite {
    /// The integer at the start of `p` and its length, or `None` if `p` ends
    /// inside it.
    #[inline]
    pub fn get(p: &[u8]) -> Option<(u64, usize)> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_codec::{Decoder, Encoder, Step};
    use placemat_variants::codecs::SqliteVarint;

    /// The port agrees with the built-in `sqlite-varint` codec on the edges
    /// of every length and on both distributions, both ways.
    #[test]
    fn the_sqlite_port_reads_and_writes_what_the_codec_does() {
        let mut values: Vec<u64> = (0..64).flat_map(|b| [(1u64 << b) - 1, 1 << b]).collect();
        values.push(u64::MAX);
        for d in Distribution::ALL {
            values.extend(d.values(2000, 64));
        }
        for v in values {
            let mut ours = [0u8; 9];
            let n = sqlite::put(v, &mut ours);
            let mut theirs = Vec::new();
            SqliteVarint.encode_push(v, &mut theirs).unwrap();
            assert_eq!(&ours[..n], &theirs[..], "{v:#X}");
            assert_eq!(sqlite::get(&ours[..n]), Some((v, n)), "{v:#X}");
            assert_eq!(SqliteVarint.step(&ours[..n]), Step::Value { value: v, len: n });
            assert_eq!(sqlite::get(&ours[..n - 1]), None, "cut short: {v:#X}");
        }
    }

    #[test]
    fn the_distributions_have_their_shapes() {
        let small = Distribution::MostlySmall.values(10_000, 64);
        let below = small.iter().filter(|&&v| v < 128).count();
        assert!((8_900..=9_500).contains(&below), "{below}");
        let wide = Distribution::LogUniform.values(10_000, 62);
        assert!(wide.iter().all(|&v| v < 1 << 62));
        for width in [1, 31, 62] {
            assert!(wide.iter().any(|&v| 64 - v.leading_zeros() == width), "width {width}");
        }
    }
}
