//! Streams of integers for the integer codecs: values drawn in two
//! distributions, the same for every run, that `placemat bench` and the
//! criterion `varints` group encode and time.
//!
//! ```
//! use placemat_variants::corpus::integers::Distribution;
//! let values = Distribution::MostlySmall.values(1000, 64);
//! assert!(values.iter().filter(|&&v| v < 128).count() >= 850);
//! assert_eq!(values, Distribution::MostlySmall.values(1000, 64));
//! ```

use super::Rng;

/// How the values of a stream are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// 90 % below 128; the rest of a bit width drawn uniformly.
    MostlySmall,
    /// A bit width drawn uniformly, then a value of exactly that width.
    LogUniform,
}

impl Distribution {
    /// Both, in the order the benchmarks report them.
    pub const ALL: [Distribution; 2] = [Distribution::MostlySmall, Distribution::LogUniform];

    /// The distribution's name in benchmark ids and `bench`'s input column.
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

#[cfg(test)]
mod tests {
    use super::*;

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
