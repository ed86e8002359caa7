//! The tables a SIMD validator runs on, and the invariants the kernels rely on.

/// The data of one codec's SIMD validator (the crate docs give the formula it
/// feeds). `placemat-compiler` derives it and proves that the formula accepts
/// exactly the codec's valid inputs; [`Tables::check`] checks only what the
/// kernels need to run safely and as documented.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tables {
    /// Error classes (bits 0–6) and the continuation bit (7) by the previous
    /// unit's high nibble.
    pub prev_high: [u8; 16],
    /// The same by the previous unit's low nibble.
    pub prev_low: [u8; 16],
    /// The same by the current unit's high nibble.
    pub cur_high: [u8; 16],
    /// The same by the current unit's low nibble, when some class needs it (as
    /// after FSS-UTF's `F8`, whose forbidden continuations end at `87`).
    pub cur_low: Option<[u8; 16]>,
    /// `thresholds[k]`, for `k` in `1..=need`: every valid unit at least this
    /// large is a lead requiring `k` or more continuation units, and no unit
    /// below it is one. Entry 0 and entries past `need` are unused (`FF`).
    pub thresholds: [u8; 16],
    /// The most continuation units a lead requires, `1..=15`.
    pub need: u8,
    /// The unit assumed before the input and after its end: a single-unit value
    /// that may start and end any sequence of valid ones.
    pub start: u8,
    /// Units `00`–`7F` are single-unit values that any complete sequence may
    /// precede: a 64-byte chunk of them only needs the sequence before it to be
    /// complete.
    pub ascii: bool,
    /// When set, bit 7 of the four tables is an eighth error class, and
    /// continuation units are `80` up to (not including) this unit, told by
    /// a comparison: for codecs whose forbidden pairs need eight classes.
    pub continuation_end: Option<u8>,
    /// When set, the smallest unit that may follow each of `F0`–`FF` (by low
    /// nibble; 0 for none): a smaller one is an error. The overlong forms of
    /// the 1992 encodings' long leads (`F8 80`–`F8 87`, `FC 80`–`FC 83`, …)
    /// are such a staircase, which would otherwise take one class per step.
    /// The kernels test floors only in chunks with a unit from
    /// [`Tables::floored_from`] up (or a lead of five units or more).
    pub floor: Option<[u8; 16]>,
    /// An error is flagged at most `restart - 1` units after the unit that
    /// makes the input invalid, so the exact error lies after the last
    /// sequence boundary before `chunk - restart` (strictly before that unit,
    /// which a restart must not skip).
    pub restart: u8,
}

impl Tables {
    /// Whether `unit` is a continuation unit (bit 7 of its row, or below
    /// [`Tables::continuation_end`]).
    pub const fn is_continuation(&self, unit: u8) -> bool {
        match self.continuation_end {
            Some(end) => unit >= 0x80 && unit < end,
            None => self.row(unit) & 0x80 != 0,
        }
    }

    /// The continuation units as `(first, last)`, if they are one run that
    /// starts at a multiple of 64 (what the SIMD decoding kernel's
    /// [`Shape`](crate::Shape) needs).
    pub const fn continuation_run(&self) -> Option<(u8, u8)> {
        let (mut first, mut last, mut count) = (0u8, 0u8, 0usize);
        let mut u = 0;
        while u < 256 {
            if self.is_continuation(u as u8) {
                if count == 0 {
                    first = u as u8;
                }
                (last, count) = (u as u8, count + 1);
            }
            u += 1;
        }
        if count == 0 || first % 64 != 0 || (last - first) as usize + 1 != count {
            return None;
        }
        Some((first, last))
    }

    /// The smallest unit with a [`Tables::floor`] (above `00`), if any:
    /// chunks without it (nor a long lead) skip the floor test.
    pub const fn floored_from(&self) -> Option<u8> {
        let Some(floor) = &self.floor else { return None };
        let mut low = 0;
        while low < 16 {
            if floor[low] != 0 {
                return Some(0xF0 | low as u8);
            }
            low += 1;
        }
        None
    }

    /// The error classes the pair `p c` falls in (bits 0–6, and 7 with
    /// [`Tables::continuation_end`]), and whether it is two continuation
    /// units in a row.
    pub const fn pair(&self, p: u8, c: u8) -> (u8, bool) {
        let bits = self.row(p) & self.col(c);
        match self.continuation_end {
            Some(_) => (bits, self.is_continuation(p) && self.is_continuation(c)),
            None => (bits & 0x7F, bits & 0x80 != 0),
        }
    }

    /// The error classes and continuation bit of `unit` as the previous unit.
    pub const fn row(&self, unit: u8) -> u8 {
        self.prev_high[(unit >> 4) as usize] & self.prev_low[(unit & 15) as usize]
    }

    /// The error classes and continuation bit of `unit` as the current unit.
    pub const fn col(&self, unit: u8) -> u8 {
        let low = match &self.cur_low {
            Some(t) => t[(unit & 15) as usize],
            None => 0xFF,
        };
        self.cur_high[(unit >> 4) as usize] & low
    }

    /// The smallest unit that may follow `unit` ([`Tables::floor`]; 0 for no
    /// limit).
    pub const fn floor_of(&self, unit: u8) -> u8 {
        match &self.floor {
            Some(f) if unit >= 0xF0 => f[(unit & 15) as usize],
            _ => 0,
        }
    }

    /// The continuation units `unit` requires, as the thresholds tell: the
    /// largest `k` with `unit >= thresholds[k]`, or 0.
    pub const fn level(&self, unit: u8) -> u8 {
        let mut k = self.need;
        while k > 0 && unit < self.thresholds[k as usize] {
            k -= 1;
        }
        k
    }

    /// Checks what the kernels rely on: `need` in `1..=15`; thresholds that do
    /// not fall with `k`, with those the kernels compare by saturating
    /// subtraction (`k >= 2`) at least `80`; unused entries `FF`; a start unit
    /// that is no lead and no continuation.
    pub const fn check(&self) -> Result<(), &'static str> {
        if self.need == 0 || self.need > 15 {
            return Err("`need` must be in 1..=15");
        }
        if self.thresholds[0] != 0xFF {
            return Err("threshold 0 is unused and must be FF");
        }
        let mut k = 1;
        while k < 16 {
            let t = self.thresholds[k];
            if k > self.need as usize && t != 0xFF {
                return Err("thresholds past `need` must be FF");
            }
            if k >= 2 && k <= self.need as usize && (t < 0x80 || t < self.thresholds[k - 1]) {
                return Err("thresholds must not fall, and from k = 2 on must be at least 80");
            }
            k += 1;
        }
        if let Some(end) = self.continuation_end {
            if end <= 0x80 {
                return Err("`continuation_end` must be above 80");
            }
        }
        if self.level(self.start) != 0 || self.is_continuation(self.start) {
            return Err("the start unit must be no lead and no continuation");
        }
        Ok(())
    }
}
