//! Rules across adjacent values (`forbid: [lo ..= hi then lo ..= hi]`) turned
//! into *contexts*: what a decoder must remember of the value before the one
//! it reads. The context after a value is the set of rules whose first range
//! holds it; in a context, the values of those rules' second ranges are not
//! valid. Context 0 is the one at the start of input and after any value no
//! rule looks back at; the automaton has one start state per context (a
//! product of the forms' automaton with this one, built path by path in
//! `automaton::paths`).
//!
//! ```
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Pairs { name: "pairs", value: u32, range: 0 ..= 0xFF,
//!                 forbid: [0x10 ..= 0x1F then 0x20 ..= 0x2F],
//!                 forms: { "xxxxxxxx" } }
//! "#).unwrap();
//! let c = d.model.contexts();
//! assert_eq!(c.count(), 2);
//! assert_eq!(c.after(0x15), 1);
//! assert_eq!(c.after(0x25), 0);
//! assert_eq!(c.forbidden[1], [(0x20, 0x2F)]);
//! assert!(c.forbidden[0].is_empty());
//! ```

/// One rule: a value of `first` is never directly followed by one of `then`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Forbid {
    /// The values the rule looks back at, inclusive.
    pub first: (u64, u64),
    /// The values that may not follow them, inclusive.
    pub then: (u64, u64),
}

/// The contexts of a model's rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contexts {
    /// The values after which the context is not 0: disjoint ranges in
    /// ascending order, each with its context.
    pub ranges: Vec<(u64, u64, usize)>,
    /// For every context, the values not valid in it: sorted, disjoint.
    pub forbidden: Vec<Vec<(u64, u64)>>,
}

impl Contexts {
    /// The contexts of `rules` (one, context 0, without rules).
    pub fn of(rules: &[Forbid]) -> Self {
        let mut cuts: Vec<u64> = rules.iter().flat_map(|r| [r.first.0, r.first.1.saturating_add(1)]).collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut masks: Vec<u32> = vec![0];
        let mut ranges: Vec<(u64, u64, usize)> = Vec::new();
        for w in cuts.windows(2) {
            let (lo, hi) = (w[0], w[1] - 1);
            let mask = rules
                .iter()
                .enumerate()
                .filter(|(_, r)| r.first.0 <= lo && hi <= r.first.1)
                .fold(0, |m, (i, _)| m | 1 << i);
            if mask == 0 {
                continue;
            }
            let context = masks.iter().position(|&m| m == mask).unwrap_or_else(|| {
                masks.push(mask);
                masks.len() - 1
            });
            match ranges.last_mut() {
                Some(last) if last.2 == context && last.1.checked_add(1) == Some(lo) => last.1 = hi,
                _ => ranges.push((lo, hi, context)),
            }
        }
        let forbidden = masks
            .iter()
            .map(|&mask| {
                let mut then: Vec<(u64, u64)> =
                    rules.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, r)| r.then).collect();
                then.sort_unstable();
                merge(then)
            })
            .collect();
        Contexts { ranges, forbidden }
    }

    /// Number of contexts (at least 1).
    pub fn count(&self) -> usize {
        self.forbidden.len().max(1)
    }

    /// The context after value `v`.
    pub fn after(&self, v: u64) -> usize {
        self.ranges.iter().find(|&&(lo, hi, _)| lo <= v && v <= hi).map_or(0, |r| r.2)
    }

    /// Whether `v` may follow a value that left context `context`.
    pub fn allows(&self, context: usize, v: u64) -> bool {
        self.forbidden.get(context).is_none_or(|f| !f.iter().any(|&(lo, hi)| lo <= v && v <= hi))
    }

    /// The ranges of `lo..=hi` that do not change context and those that do,
    /// in order, each with the context it leads to.
    pub fn split(&self, lo: u64, hi: u64) -> Vec<(u64, u64, usize)> {
        let mut out = Vec::new();
        let mut cur = lo;
        for &(a, b, c) in &self.ranges {
            if b < cur || a > hi {
                continue;
            }
            if a > cur {
                out.push((cur, a - 1, 0));
            }
            out.push((a.max(cur), b.min(hi), c));
            match b.checked_add(1) {
                Some(next) if next <= hi => cur = next,
                _ => return out,
            }
        }
        out.push((cur, hi, 0));
        out
    }
}

/// Sorted ranges merged where they overlap or touch.
fn merge(ranges: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_rules_make_a_context_per_combination() {
        let rules = [Forbid { first: (10, 19), then: (100, 109) }, Forbid { first: (15, 29), then: (200, 209) }];
        let c = Contexts::of(&rules);
        assert_eq!(c.ranges, [(10, 14, 1), (15, 19, 2), (20, 29, 3)]);
        assert_eq!(c.forbidden, [vec![], vec![(100, 109)], vec![(100, 109), (200, 209)], vec![(200, 209)]]);
        assert_eq!(c.split(0, 40), [(0, 9, 0), (10, 14, 1), (15, 19, 2), (20, 29, 3), (30, 40, 0)]);
        assert_eq!(c.split(12, 12), [(12, 12, 1)]);
        assert!(!c.allows(2, 205) && c.allows(1, 205) && c.allows(0, 105));
    }

    #[test]
    fn no_rules_one_context() {
        let c = Contexts::of(&[]);
        assert_eq!((c.count(), c.after(5)), (1, 0));
        assert_eq!(c.split(0, u64::MAX), [(0, u64::MAX, 0)]);
    }
}
