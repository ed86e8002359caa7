//! What the kernels from code units for 16-byte vectors (`kernel.rs`,
//! instantiated for SSE4.1 and AVX2 by `x86.rs` and for NEON by `neon.rs`)
//! share: the plan of a source and a target as plain numbers, the tables
//! that pack each lane's bytes, and the driver that runs the kernel and
//! converts, one value at a time, what it leaves (the first value, the last
//! units, a group it refused), so that a run stops exactly where the
//! definition does.

use alloc::vec::Vec;

use super::ByteForms;
use crate::{Pair, Units};

/// A source's code units and a target's forms as the kernels read them.
#[derive(Copy, Clone, Debug)]
pub(super) struct Plan {
    pub(super) bytes: usize,
    pub(super) big_endian: bool,
    /// Each single-unit range, as its low end and its width.
    pub(super) single: [(u32, u32); 2],
    /// The pair's high units, low units and values (low end and width),
    /// bias, first units and low bits.
    pub(super) pair: Option<PlanPair>,
    /// The values the target takes (low end and width), and the least and
    /// greatest value its forms write.
    pub(super) allowed: [(u32, u32); 2],
    pub(super) first: u32,
    pub(super) top: u32,
    /// The greatest value of lengths 1, 2 and 3 (`i32::MAX` past the forms':
    /// the values written are below 2^26, so the lanes compare them signed).
    pub(super) last: [u32; 3],
    pub(super) lead: [u8; 4],
    pub(super) continuation: u8,
    /// The greatest unit below which every unit is a single unit the target
    /// writes as one byte, `lead[0]` plus itself (`None` where 0 is not one).
    pub(super) bytes_below: Option<u32>,
    /// Whether every single unit is a value the forms write (then a group of
    /// single units needs no other check).
    pub(super) plain: bool,
    /// The single-unit ranges cut at FFFF, for units compared in 16 bits
    /// (one repeated where the other lies above; `plain` is false where both do).
    pub(super) single16: [(u32, u32); 2],
    /// Whether values of one and two units can be made in 16-bit lanes: the
    /// forms have two lengths or more, the second's last below 8000, and the
    /// source's units are plain (32-bit units below 10000 are packed to 16
    /// bits first).
    pub(super) two: bool,
    /// The least value of three units, where every 16-bit unit from it up
    /// that is a single unit is written in three (the third length reaches
    /// FFFF) and the source's units are plain: eight units of one or three
    /// units each are then made in 16-bit lanes ([`Plain::OneThree`]), packed
    /// four at a time by the row [`one_three_row`] of their lengths.
    pub(super) three: Option<u32>,
    /// The copy the kernel converts the last units from, before they are
    /// copied in: a unit it stops at ([`super::stop_unit`]) in every unit;
    /// it leaves at most the three before the first (a group of four
    /// refused).
    pub(super) padding: Option<[u8; PADDED]>,
    /// Whether the copy may be padded with units of zero instead, where
    /// zero is a single unit written as one byte ([`Plan::bytes_below`]):
    /// the kernel takes them with the last units, and their bytes, one
    /// each, are cut off after, so that nothing is left to convert one
    /// value at a time. [`drive`] does so where the stores stay within two
    /// bytes per byte of its input.
    pub(super) zeros: bool,
}

/// What eight 16-bit units are, for the kernel's steps that need no checks.
pub(super) enum Plain {
    /// Not all are single units the target writes (or the plan is not plain).
    No,
    /// Single units the target writes in one or two units each
    /// ([`Plan::two`]).
    Two,
    /// Single units the target writes in one unit or in three each
    /// ([`Plan::three`]: ASCII, Hangul and Han).
    OneThree,
    /// Single units the target writes, some in three units or more.
    Any,
}

/// A pair as [`Plan`] keeps it.
#[derive(Copy, Clone, Debug)]
pub(super) struct PlanPair {
    pub(super) high: (u32, u32),
    pub(super) low: (u32, u32),
    pub(super) values: (u32, u32),
    pub(super) bias: u32,
    pub(super) high_base: u32,
    pub(super) low_base: u32,
    pub(super) low_bits: u8,
}

/// `lo..=hi` as its low end and its width.
fn span((lo, hi): (u32, u32)) -> (u32, u32) {
    (lo, hi.wrapping_sub(lo))
}

fn holds((lo, width): (u32, u32), v: u32) -> bool {
    v.wrapping_sub(lo) <= width
}

impl Plan {
    /// The plan for `units` (normalised), `pair` (16-bit units that fit) and
    /// usable `forms`; `None` where a unit could be read two ways (a pair's
    /// high or low unit also a single unit, or both), which the kernels'
    /// lanes, each deciding alone, do not handle.
    pub(super) fn new(units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Option<Plan> {
        let single = units.single.map(span);
        let padding = super::stop_unit(units, pair).map(|unit| core::array::from_fn(|k| unit[k % units.bytes]));
        let pair = pair.map(|p| PlanPair {
            high: span((p.high, p.units(p.hi).0)),
            low: span((p.low, p.low + (1 << p.low_bits) - 1)),
            values: span((p.lo, p.hi)),
            bias: p.bias,
            high_base: p.high,
            low_base: p.low,
            low_bits: p.low_bits,
        });
        if let Some(p) = pair {
            let meet = |a: (u32, u32), b: (u32, u32)| a.0 <= b.0.wrapping_add(b.1) && b.0 <= a.0.wrapping_add(a.1);
            if single.iter().any(|&s| meet(s, p.high) || meet(s, p.low)) || meet(p.high, p.low) {
                return None;
            }
        }
        let n = usize::from(forms.lengths);
        let top = forms.last[n - 1];
        let last = core::array::from_fn(|k| if k + 1 < n { forms.last[k] } else { i32::MAX as u32 });
        let mut plan = Plan {
            bytes: units.bytes,
            big_endian: units.big_endian,
            single,
            pair,
            allowed: forms.allowed.map(span),
            first: forms.first,
            top,
            last,
            lead: forms.lead,
            continuation: forms.continuation,
            bytes_below: None,
            plain: false,
            single16: [(0, 0); 2],
            two: false,
            three: None,
            padding,
            zeros: false,
        };
        plan.bytes_below = plan.byte_run();
        plan.zeros = plan.bytes_below.is_some();
        let written = |(lo, width): (u32, u32)| {
            let hi = lo.wrapping_add(width);
            lo >= plan.first && hi <= plan.top && plan.allowed.iter().any(|&(a, w)| a <= lo && hi <= a.wrapping_add(w))
        };
        let cut = single.map(|(lo, width)| (lo <= 0xFFFF).then(|| (lo, lo.saturating_add(width).min(0xFFFF) - lo)));
        plan.plain = plan.single.iter().all(|&r| written(r));
        plan.single16 = match cut {
            [Some(a), Some(b)] => [a, b],
            [Some(r), None] | [None, Some(r)] => [r, r],
            [None, None] => {
                plan.plain = false;
                [(0, 0); 2]
            }
        };
        plan.two = plan.plain && n >= 2 && forms.last[1] < 0x8000;
        plan.three = (plan.plain && n >= 3 && last[1] < 0xFFFF && last[2] >= 0xFFFF).then(|| last[1] + 1);
        Some(plan)
    }

    /// The greatest `t` (at most FF) such that every unit `0..=t` is a single
    /// unit of a value the target takes and writes in one unit.
    fn byte_run(&self) -> Option<u32> {
        if self.first > 0 {
            return None;
        }
        let from_zero = |ranges: &[(u32, u32); 2]| ranges.iter().filter(|r| r.0 == 0).map(|r| r.1).max();
        let t = from_zero(&self.single)?.min(from_zero(&self.allowed)?).min(self.top).min(0xFF);
        Some(if self.last[0] == u32::MAX { t } else { t.min(self.last[0]) })
    }

    /// The code unit at `at` of `input`, if whole.
    fn unit(&self, input: &[u8], at: usize) -> Option<u32> {
        let b = input.get(at * self.bytes..(at + 1) * self.bytes)?;
        let v = b.iter().fold(0u32, |v, &x| v << 8 | u32::from(x));
        Some(if self.big_endian { v } else { v.swap_bytes() >> (32 - 8 * self.bytes) })
    }

    /// Appends the target's units for the value at unit `at` of `input` and
    /// returns the code units it takes (1, or 2 for a pair), or `None` where
    /// the kernels stop: a unit that is no single unit nor the first of a
    /// whole pair, a value the target does not write.
    pub(super) fn one(&self, input: &[u8], at: usize, out: &mut Vec<u8>) -> Option<usize> {
        let u = self.unit(input, at)?;
        let (v, len) = if self.single.iter().any(|&r| holds(r, u)) {
            (u, 1)
        } else {
            let p = self.pair?;
            let l = self.unit(input, at + 1)?;
            if !holds(p.high, u) || !holds(p.low, l) {
                return None;
            }
            let v = ((u - p.high_base) << p.low_bits | (l - p.low_base)).wrapping_add(p.bias);
            (holds(p.values, v).then_some(v)?, 2)
        };
        if !self.allowed.iter().any(|&r| holds(r, v)) || v < self.first || v > self.top {
            return None;
        }
        let n = 1 + self.last.iter().filter(|&&l| v > l).count();
        out.push(self.lead[n - 1].wrapping_add((v >> (6 * (n - 1))) as u8));
        out.extend((1..n).map(|k| self.continuation + (v >> (6 * (n - 1 - k)) & 63) as u8));
        Some(len)
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local! {
    /// The code units [`drive`] converted one by one on this thread, for the
    /// tests that check the kernel does the work.
    pub(super) static ONE_BY_ONE: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// The code units the kernel leaves at the end of its input.
pub(super) const TAIL: usize = 16;

/// Runs `kernel` (given a piece of input, a pointer and how many code units
/// before the piece are readable, the code units it takes and the bytes it
/// writes, at most four per code unit taken, within 16 bytes past them) over
/// `input`, and once more over a copy of the last [`TAIL`] units or fewer
/// that it leaves, followed by units it stops at ([`Plan::padding`]) or by
/// zeros ([`Plan::zeros`]); converts one by one what it leaves then: the
/// first value of the run, the units before the first stop unit, and after
/// a refusal the next 16 units;
/// returns the bytes of `input` taken, stopping where [`Plan::one`] stops.
pub(super) fn drive(
    plan: &Plan,
    input: &[u8],
    out: &mut Vec<u8>,
    mut kernel: impl FnMut(&[u8], *mut u8) -> (usize, usize),
) -> usize {
    let units = input.len() / plan.bytes;
    out.reserve(4 * units + 16);
    // The stores stay before `room`: two bytes per byte of input.
    let room = out.len() + 2 * input.len();
    // Whether the last units went through the kernel from a padded copy
    // (where the plan has a unit to stop at): then one by one what is left.
    let (mut i, mut padded) = (0, plan.padding.is_none());
    loop {
        // (The kernel reads the unit before its piece: not at the start.)
        if i > 0 && units - i > TAIL {
            i += run(&input[(i - 1) * plan.bytes..], out, &mut kernel);
        }
        if let (true, Some(padding)) = (i > 0 && i < units && units - i <= TAIL && !padded, &plan.padding) {
            // The last units once more, from a copy followed by the padding.
            let rest = &input[(i - 1) * plan.bytes..units * plan.bytes];
            // Zeros where the kernel's stores for every unit of the copy, four
            // bytes each and 16 past them, stay within the room.
            let zeros = plan.zeros && out.len() + 4 * (1 + TAIL + STOPS) + 16 <= room;
            let mut copy = if zeros { [0; PADDED] } else { *padding };
            copy[..rest.len()].copy_from_slice(rest);
            out.reserve(4 * (1 + TAIL + STOPS) + 16);
            let (last, took) = (units - i, run(&copy[..rest.len() + STOPS * plan.bytes], out, &mut kernel));
            if took > last {
                // Zeros taken after the last units: one byte each, cut off.
                out.truncate(out.len() - (took - last));
            }
            i += took.min(last);
            padded = true;
        }
        // (One value before the first run of the kernel, 16 units after a refusal.)
        let resume = if i == 0 { 1 } else { i + 16 };
        while i < units && (i < resume || units - i <= TAIL && padded) {
            match plan.one(input, i, out) {
                Some(len) => {
                    #[cfg(all(test, feature = "std"))]
                    ONE_BY_ONE.with(|n| n.set(n.get() + len));
                    i += len;
                }
                None => return i * plan.bytes,
            }
        }
        if i == units {
            return i * plan.bytes;
        }
    }
}

/// Runs `kernel` once over `piece` (its first unit the one before those it
/// converts), appending what it writes to `out`: the code units taken.
fn run(piece: &[u8], out: &mut Vec<u8>, kernel: &mut impl FnMut(&[u8], *mut u8) -> (usize, usize)) -> usize {
    let start = out.len();
    let (took, written) = kernel(piece, out.as_mut_ptr().wrapping_add(start));
    debug_assert!(written <= 4 * took && start + written <= out.capacity());
    // SAFETY: the kernel initialised `written` bytes after `start`, at most
    // four per code unit taken (`drive` reserved room for four per unit of
    // its input, and 16 past them): within the capacity reserved.
    unsafe { out.set_len(start + written) };
    took
}

/// The stop units after the last units in their copy: as many as a step of
/// the kernel reads past its first unit.
const STOPS: usize = 20;

/// The bytes of that copy: the unit before the last units, the at most
/// [`TAIL`] of them, and the stop units, of at most four bytes each.
const PADDED: usize = 4 * (1 + TAIL + STOPS);

/// For each pattern of four lanes' lengths (`n − 1` of lane `k`: bit `k` its
/// low bit, bit `k + 4` its high bit), the byte shuffle that packs the last
/// `n` bytes of each lane, and how many bytes that is.
pub(super) static SHUFFLES: [[u8; 16]; 256] = shuffles().0;
pub(super) static LENGTHS: [u8; 256] = shuffles().1;

/// The row of [`SHUFFLES`] that packs four lanes of one unit or three each
/// (bit `k` of `threes` set where lane `k` takes three): lengths less one 0
/// and 2, so only the high bits are set.
pub(super) const fn one_three_row(threes: u32) -> usize {
    ((threes & 15) << 4) as usize
}
const _: () = assert!(shuffles().1[one_three_row(0)] == 4 && shuffles().1[one_three_row(0b0101)] == 8);
const _: () = assert!(shuffles().1[one_three_row(15)] == 12);

/// For each set of eight 16-bit lanes that hold two bytes (bit `k` for lane
/// `k`; the others hold one, in their high byte), the byte shuffle that packs
/// them.
pub(super) static TWO_SHUFFLES: [[u8; 16]; 256] = two_shuffles();

const fn two_shuffles() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut twos = 0;
    while twos < 256 {
        let (mut lane, mut at) = (0, 0);
        while lane < 8 {
            if twos >> lane & 1 == 1 {
                table[twos][at] = 2 * lane as u8;
                at += 1;
            }
            table[twos][at] = 2 * lane as u8 + 1;
            at += 1;
            lane += 1;
        }
        twos += 1;
    }
    table
}

const fn shuffles() -> ([[u8; 16]; 256], [u8; 256]) {
    let mut table = [[0x80u8; 16]; 256];
    let mut lengths = [0u8; 256];
    let mut index = 0;
    while index < 256 {
        let (mut lane, mut at) = (0, 0);
        while lane < 4 {
            let n = 1 + (index >> lane & 1) + 2 * (index >> (lane + 4) & 1);
            let mut b = 4 - n;
            while b < 4 {
                table[index][at] = (4 * lane + b) as u8;
                at += 1;
                b += 1;
            }
            lane += 1;
        }
        lengths[index] = at as u8;
        index += 1;
    }
    (table, lengths)
}
