//! What the lead marks of a window of sixty-four units say, for the AVX-512
//! windows that decode at every unit (`short.rs`, `quarters.rs`): which
//! units one, two and three places on are continuations, and which
//! sequences end in the window.

/// The marks of a window: bit `j` of `on[k]` is set where unit `j + k + 1`
/// is a continuation (units past the one after the window count as none,
/// so a sequence reaching them does not end in the window); `taken` has
/// the leads of the sequences that end in the window, which take its first
/// `took` units.
pub(super) struct Marks {
    pub(super) cont: u64,
    pub(super) on: [u64; 3],
    pub(super) taken: u64,
    pub(super) took: usize,
}

impl Marks {
    /// The marks of a window whose units that are no continuation are
    /// `leads`, followed by a lead or not (`next_is_lead`); `None` where no
    /// sequence ends in it.
    pub(super) fn of(leads: u64, next_is_lead: bool) -> Option<Marks> {
        let cont = !leads;
        let on1 = cont >> 1 | u64::from(!next_is_lead) << 63;
        let ends = leads >> 1 | u64::from(next_is_lead) << 63;
        if ends == 0 {
            return None;
        }
        let took = 64 - ends.leading_zeros() as usize;
        Some(Marks { cont, on: [on1, on1 >> 1, on1 >> 2], taken: leads & (u64::MAX >> (64 - took)), took })
    }

    /// Whether a sequence of more than `most` units starts or runs in the
    /// window (`most` of 3 or 4).
    pub(super) fn longer_than(&self, most: usize) -> bool {
        let [on1, on2, on3] = self.on;
        let run = self.cont & on1 & on2;
        (if most == 3 { run } else { run & on3 }) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marks_of_a_window() {
        // ASCII, then a three-unit sequence that ends with the window, or
        // goes on past it.
        let leads = !(0b11u64 << 62);
        let m = Marks::of(leads, true).unwrap();
        assert_eq!((m.took, m.taken.count_ones()), (64, 62));
        assert!(!m.longer_than(3));
        let m = Marks::of(leads, false).unwrap();
        assert_eq!((m.took, m.taken.count_ones()), (61, 61));
        assert!(m.longer_than(3) && !m.longer_than(4));
        // Four continuations in a row: a sequence of five units or more.
        let long = !(0b1111u64 << 8);
        assert!(Marks::of(long, true).unwrap().longer_than(4));
        assert!(!Marks::of(!(0b111u64 << 8), true).unwrap().longer_than(4));
        assert!(Marks::of(!(0b111u64 << 8), true).unwrap().longer_than(3));
        assert!(Marks::of(0, false).is_none());
    }
}
