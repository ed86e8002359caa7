//! The units that start the sequences two codecs may read apart
//! ([`Dfa::leads_apart`](crate::dfa::Dfa::leads_apart)), and the scan for
//! them: valid input of the first codec that holds none of them is valid in
//! the second, with the same values, so a conversion between the two copies
//! it, and a decoder into UTF-8 borrows it.
//!
//! The scan skips, 128 units a step
//! ([`units_within`](crate::simd::units_within)), the units that lie in the
//! widest span of unit values holding no unit of the set. Past the first
//! unit outside the span that is no unit of the set, it looks the units up
//! in the set's rows and columns, 32 a step with AVX2
//! ([`units_outside`](crate::simd::units_outside)), else one by one. Text
//! in most scripts passes whole blocks at once (the set for CESU-8 into
//! UTF-8 is `ED` alone, and Cyrillic, Greek or Chinese text in UTF-8 holds
//! no unit past `E9`, but for its full-width punctuation, `EF`); a set that
//! splits the leads (modified UTF-8 into UTF-8: `00`, `C0`, `ED`, `F0`–`F4`,
//! which leave Cyrillic's `D0` out of the widest span, `01`–`BF`) needs the
//! lookup.
//!
//! ```
//! use placemat_codec::ApartLeads;
//! // UTF-8 into CESU-8: the leads of four-unit forms.
//! let mut set = [0u64; 4];
//! set[3] = 0x1F << 48; // F0-F4
//! let apart = ApartLeads::new(set);
//! assert_eq!(apart.first("日本語 and 😀".as_bytes()), 14);
//! assert_eq!(apart.first("no emoji here".as_bytes()), 13);
//! assert_eq!(apart.ascii_text(b"plain ASCII text"), Ok("plain ASCII text"));
//! assert_eq!(apart.ascii_text("café".as_bytes()), Err(3));
//! ```

use crate::simd::{ascii_within, units_outside, units_within, Isa, UnitSet};

/// A set of units that start sequences two codecs may read apart, and the
/// widest span of unit values it leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApartLeads {
    set: [u64; 4],
    /// The least and the greatest unit of the widest span of unit values
    /// that holds no unit of the set (`(1, 0)`, empty, for a full set).
    free: (u8, u8),
    /// The set for the scan by rows and columns ([`UnitSet`]).
    lookup: UnitSet,
}

impl ApartLeads {
    /// The set whose unit `u` is bit `u % 64` of word `u / 64`.
    pub fn new(set: [u64; 4]) -> ApartLeads {
        let has = |u: usize| set[u / 64] >> (u % 64) & 1 == 1;
        let (mut best, mut start) = ((1, 0), None);
        for u in 0..=256 {
            match (u < 256 && !has(u), start) {
                (true, None) => start = Some(u),
                (false, Some(s)) => {
                    if best.0 > best.1 || u - 1 - s > usize::from(best.1 - best.0) {
                        best = (s as u8, (u - 1) as u8);
                    }
                    start = None;
                }
                _ => {}
            }
        }
        ApartLeads { set, free: best, lookup: UnitSet::new(set) }
    }

    /// The units in either set.
    pub fn union(&self, other: &ApartLeads) -> ApartLeads {
        ApartLeads::new(core::array::from_fn(|k| self.set[k] | other.set[k]))
    }

    /// Whether `unit` is in the set.
    #[inline]
    pub fn contains(&self, unit: u8) -> bool {
        self.set[usize::from(unit / 64)] >> (unit % 64) & 1 == 1
    }

    /// Whether the set is empty: the two codecs read alike whatever the
    /// first accepts.
    pub fn is_empty(&self) -> bool {
        self.set == [0; 4]
    }

    /// The units of the set, in increasing order.
    pub fn units(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|&u| self.contains(u))
    }

    /// The index of the first unit of `data` in the set (`data.len()` if
    /// none is).
    pub fn first(&self, data: &[u8]) -> usize {
        if self.is_empty() {
            return data.len();
        }
        let isa = Isa::detect();
        let mut pos = 0;
        loop {
            pos += units_within(isa, &data[pos..], self.free.0, self.free.1);
            match data.get(pos) {
                None => return data.len(),
                Some(&u) if self.contains(u) => return pos,
                // Past the free span, the lookup by rows and columns where
                // there is one (the span's scan takes 128 units a step, the
                // lookup 32: text within the span, ASCII, keeps the first).
                Some(_) if self.lookup.vector_scan(isa) => return pos + units_outside(isa, &data[pos..], &self.lookup),
                Some(_) => pos += 1,
            }
        }
    }

    /// `data` as text if every unit of it is below `80` and none is in the
    /// set (then the second codec reads that UTF-8 alike); else the number
    /// of units at its start found so, at least.
    pub fn ascii_text<'a>(&self, data: &'a [u8]) -> Result<&'a str, usize> {
        ascii_within(Isa::detect(), data, self.free.0, self.free.1.min(0x7F))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(units: &[u8]) -> ApartLeads {
        let mut set = [0u64; 4];
        units.iter().for_each(|&u| set[usize::from(u / 64)] |= 1 << (u % 64));
        ApartLeads::new(set)
    }

    #[test]
    fn the_free_span_is_the_widest_without_units_of_the_set() {
        assert_eq!(of(&[]).free, (0, 255));
        assert_eq!(of(&[0xED]).free, (0, 0xEC));
        assert_eq!(of(&[0, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4]).free, (1, 0xEF));
        assert_eq!(of(&[0x10, 0x20]).free, (0x21, 0xFF));
        assert_eq!(ApartLeads::new([u64::MAX; 4]).free, (1, 0));
    }

    #[test]
    fn the_scan_finds_what_a_search_unit_by_unit_finds() {
        let sets: [&[u8]; 8] = [
            &[],
            // Modified UTF-8's into UTF-8: the lookup past `01`-`BF`.
            &[0x00, 0xC0, 0xED, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4],
            &[0xED],
            &[0, 0xF0, 0xF4],
            &[0x41, 0x80],
            &[0xFF],
            &[0xF0, 0xF1, 0xF2, 0xF3, 0xF4],
            &[0xD0, 0xE4, 0xFE, 0xFF],
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for set in sets {
            let apart = of(set);
            for len in [0usize, 1, 15, 127, 128, 129, 300, 1000] {
                // Mostly units of one script, a unit of the set placed anywhere.
                for place in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
                    let mut data: Vec<u8> = (0..len)
                        .map(|_| {
                            seed ^= seed << 13;
                            seed ^= seed >> 7;
                            seed ^= seed << 17;
                            [0x61, 0xD0, 0xB0, 0xE4, 0x20][(seed % 5) as usize]
                        })
                        .collect();
                    if let (Some(at), Some(&u)) = (place.filter(|&p| p < len), set.last()) {
                        data[at] = u;
                    }
                    let expected = data.iter().position(|&u| apart.contains(u)).unwrap_or(len);
                    assert_eq!(apart.first(&data), expected, "set {set:02X?}, length {len}, at {place:?}");
                    let ascii = data.iter().all(|&u| u < 0x80 && !apart.contains(u));
                    let text = apart.ascii_text(&data);
                    assert!(text.is_err() || ascii, "set {set:02X?}, length {len}, at {place:?}");
                    if apart.free.0 == 0 && apart.free.1 >= 0x7F {
                        assert_eq!(text.is_ok(), ascii);
                    }
                }
            }
        }
    }
}
