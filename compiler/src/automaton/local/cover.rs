//! Covering the forbidden pairs of units with nibble boxes: the error classes
//! of the SIMD tables.
//!
//! A pair `p c` is four nibbles (`p >> 4`, `p & 15`, `c >> 4`, `c & 15`). A
//! box is a product of four nibble sets; the tables flag bit `i` for a pair
//! exactly when each of its nibbles is in the matching set of box `i`. The
//! search covers every pair that must be flagged with at most seven (or eight)
//! boxes, none
//! of which holds a pair that occurs in valid text. It is greedy: seed a box at
//! an uncovered pair, grow it a nibble at a time by whatever covers the most
//! uncovered pairs while staying clear of valid ones, and repeat; a few seed
//! orders are tried, boxes that leave the current unit's low nibble free (no
//! fourth table) first.

use super::Units;

/// A product of nibble sets: bit `n` of each field says nibble `n` is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NibbleBox {
    /// High nibbles of the previous unit.
    pub prev_high: u16,
    /// Low nibbles of the previous unit.
    pub prev_low: u16,
    /// High nibbles of the current unit.
    pub cur_high: u16,
    /// Low nibbles of the current unit.
    pub cur_low: u16,
}

impl NibbleBox {
    /// The box `H × L` on both sides for a set of units that is such a product.
    pub(super) fn of(units: &Units) -> Option<NibbleBox> {
        let (mut high, mut low) = (0u16, 0u16);
        for u in (0..256).filter(|&u| units[u]) {
            high |= 1 << (u >> 4);
            low |= 1 << (u & 15);
        }
        let exact = (0..256).all(|u| units[u] == (high >> (u >> 4) & 1 == 1 && low >> (u & 15) & 1 == 1));
        exact.then_some(NibbleBox { prev_high: high, prev_low: low, cur_high: high, cur_low: low })
    }

    /// Whether the pair `p c` is in the box.
    pub fn contains(&self, p: u8, c: u8) -> bool {
        let has = |set: u16, n: u8| set >> n & 1 == 1;
        has(self.prev_high, p >> 4)
            && has(self.prev_low, p & 15)
            && has(self.cur_high, c >> 4)
            && has(self.cur_low, c & 15)
    }

    fn field(&mut self, dim: usize) -> &mut u16 {
        match dim {
            0 => &mut self.prev_high,
            1 => &mut self.prev_low,
            2 => &mut self.cur_high,
            _ => &mut self.cur_low,
        }
    }
}

/// Pairs by previous unit and current high nibble, as masks of low nibbles.
struct Masks(Vec<[u16; 16]>);

impl Masks {
    fn of(pairs: &[Units]) -> Masks {
        Masks(
            pairs
                .iter()
                .map(|row| std::array::from_fn(|h| (0..16).fold(0, |m, l| m | u16::from(row[h << 4 | l]) << l)))
                .collect(),
        )
    }

    /// How many pairs of the box are in the set.
    fn count(&self, b: &NibbleBox) -> u32 {
        let mut n = 0;
        for p in units_of(b.prev_high, b.prev_low) {
            for h in bits(b.cur_high) {
                n += (self.0[p][h] & b.cur_low).count_ones();
            }
        }
        n
    }

    fn remove(&mut self, b: &NibbleBox) {
        for p in units_of(b.prev_high, b.prev_low) {
            for h in bits(b.cur_high) {
                self.0[p][h] &= !b.cur_low;
            }
        }
    }

    fn first(&self, descending: bool) -> Option<(usize, usize, usize)> {
        let order: Box<dyn Iterator<Item = usize>> =
            if descending { Box::new((0..256).rev()) } else { Box::new(0..256) };
        for p in order {
            for h in 0..16 {
                let m = self.0[p][h];
                if m != 0 {
                    return Some((p, h, m.trailing_zeros() as usize));
                }
            }
        }
        None
    }
}

fn bits(set: u16) -> impl Iterator<Item = usize> {
    (0..16).filter(move |n| set >> n & 1 == 1)
}

fn units_of(high: u16, low: u16) -> impl Iterator<Item = usize> {
    bits(high).flat_map(move |h| bits(low).map(move |l| h << 4 | l))
}

/// At most `max` boxes covering `forbidden` and missing `allowed`, or `None`.
pub(super) fn search(forbidden: &[Units], allowed: &[Units], max: usize) -> Option<Vec<NibbleBox>> {
    let allowed = Masks::of(allowed);
    let mut best: Option<Vec<NibbleBox>> = None;
    for low_free in [true, false] {
        for descending in [false, true] {
            let found = greedy(Masks::of(forbidden), &allowed, max, low_free, descending);
            if let Some(boxes) = found {
                if best.as_ref().is_none_or(|b| boxes.len() < b.len()) {
                    best = Some(boxes);
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    best
}

fn greedy(mut left: Masks, allowed: &Masks, max: usize, low_free: bool, descending: bool) -> Option<Vec<NibbleBox>> {
    let mut boxes = Vec::new();
    while let Some((p, h, l)) = left.first(descending) {
        if boxes.len() == max {
            return None;
        }
        let mut b = NibbleBox { prev_high: 1 << (p >> 4), prev_low: 1 << (p & 15), cur_high: 1 << h, cur_low: 1 << l };
        if low_free {
            b.cur_low = 0xFFFF;
            if allowed.count(&b) != 0 {
                return None;
            }
        }
        grow(&mut b, &left, allowed, if low_free { 3 } else { 4 });
        left.remove(&b);
        boxes.push(b);
    }
    Some(boxes)
}

/// Adds nibbles to `b` while it stays clear of `allowed`: the one covering the
/// most pairs of `left` first, then any that covers none (a larger box only
/// helps the boxes after it).
fn grow(b: &mut NibbleBox, left: &Masks, allowed: &Masks, dims: usize) {
    loop {
        let covered = left.count(b);
        let mut best: Option<(u32, NibbleBox)> = None;
        for dim in 0..dims {
            for n in 0..16 {
                let mut c = *b;
                if *c.field(dim) >> n & 1 == 1 {
                    continue;
                }
                *c.field(dim) |= 1 << n;
                if allowed.count(&c) != 0 {
                    continue;
                }
                let gain = left.count(&c) - covered;
                if best.as_ref().is_none_or(|(g, _)| gain > *g) {
                    best = Some((gain, c));
                }
            }
        }
        match best {
            Some((_, c)) => *b = c,
            None => return,
        }
    }
}
