//! Payload ranges → sequences of per-unit digit ranges.
//!
//! A form with unit payload widths `w₁ … wₙ` reads its payload as a mixed-radix
//! number. Any range of payloads is a union of a few *products* of digit ranges:
//!
//! ```
//! use placemat_compiler::split_range;
//! // Payloads 0x80..=0x7FF of a two-unit form with 5 + 6 payload bits (UTF-8's
//! // second form) are lead digits 2..=31 followed by any continuation digit.
//! assert_eq!(split_range(0x80, 0x7FF, &[5, 6]), vec![vec![(2, 31), (0, 63)]]);
//! // 0x800..=0xFFFF with the surrogates cut out (UTF-8's third form) needs more.
//! let mut seqs = split_range(0x800, 0xD7FF, &[4, 6, 6]);
//! seqs.extend(split_range(0xE000, 0xFFFF, &[4, 6, 6]));
//! assert_eq!(seqs, vec![
//!     vec![(0, 0), (32, 63), (0, 63)],   // E0 A0..BF 80..BF
//!     vec![(1, 12), (0, 63), (0, 63)],   // E1..EC
//!     vec![(13, 13), (0, 31), (0, 63)],  // ED 80..9F
//!     vec![(14, 15), (0, 63), (0, 63)],  // EE..EF
//! ]);
//! ```
//!
//! # Lineage
//! The same split that regex-syntax's `Utf8Sequences` performs for scalar ranges,
//! generalised to any digit widths.

/// Splits payloads `lo..=hi` (which must fit the widths) into products of digit
/// ranges, in increasing order. Each inner vector has one `(lo, hi)` per unit.
pub fn split_range(lo: u128, hi: u128, widths: &[u32]) -> Vec<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    split(lo, hi, widths, &mut Vec::new(), &mut out);
    out
}

fn full(widths: &[u32]) -> u128 {
    let bits: u32 = widths.iter().sum();
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn split(lo: u128, hi: u128, widths: &[u32], prefix: &mut Vec<(u32, u32)>, out: &mut Vec<Vec<(u32, u32)>>) {
    debug_assert!(lo <= hi && hi <= full(widths));
    let Some((&w, rest)) = widths.split_first() else {
        out.push(prefix.clone());
        return;
    };
    let rbits: u32 = rest.iter().sum();
    let low_mask = full(rest);
    let (lh, ll) = (lo >> rbits, lo & low_mask);
    let (hh, hl) = (hi >> rbits, hi & low_mask);
    debug_assert!(hh < (1u128 << w));
    let mut with = |d: (u32, u32), l: u128, h: u128, out: &mut Vec<Vec<(u32, u32)>>| {
        prefix.push(d);
        split(l, h, rest, prefix, out);
        prefix.pop();
    };
    if lh == hh {
        with((lh as u32, lh as u32), ll, hl, out);
        return;
    }
    let mut mid_lo = lh;
    let mut mid_hi = hh;
    if ll != 0 {
        with((lh as u32, lh as u32), ll, low_mask, out);
        mid_lo += 1;
    }
    let tail = hl != low_mask;
    if tail {
        mid_hi -= 1;
    }
    if mid_lo <= mid_hi {
        with((mid_lo as u32, mid_hi as u32), 0, low_mask, out);
    }
    if tail {
        with((hh as u32, hh as u32), 0, hl, out);
    }
}
