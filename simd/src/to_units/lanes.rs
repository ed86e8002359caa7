//! What the one-pass kernels into code units for 16-byte vectors (SSE4.1 in
//! `sse41.rs`, NEON in `neon.rs`) share: the target as they read it, the
//! table that packs a step's pairs, and the driver that runs the kernel
//! and converts, one sequence at a time, what it leaves (the input's last
//! units, the step it refused), so that a run stops exactly where the
//! definition does.

use alloc::vec::Vec;

use crate::{Pair, Shape, Units};

/// The target of a run: its units (normalised), its pair (of 16-bit units
/// that fit), and `K(1)` of the source's shape.
#[derive(Copy, Clone)]
pub(super) struct Target {
    pub(super) bytes: usize,
    pub(super) big_endian: bool,
    pub(super) single: [(u32, u32); 2],
    pub(super) pair: Option<Pair>,
    pub(super) k1: u32,
}

impl Target {
    pub(super) fn new(shape: &Shape, units: &Units, pair: Option<&Pair>) -> Target {
        let Units { bytes, big_endian, single } = *units;
        Target { bytes, big_endian, single, pair: pair.copied(), k1: shape.bias()[0] }
    }

    /// Whether every value a single-unit sequence can have (a unit less
    /// `K(1)`: at most FF) is written as one unit of itself, so that runs of
    /// them need no check.
    pub(super) fn bytes_single(&self) -> bool {
        self.single.iter().any(|&(lo, hi)| lo == 0 && hi >= 0xFF)
    }

    /// Appends the units of the one sequence at the start of `input` (which
    /// must end with a whole sequence) and returns its length, or `None`
    /// where the kernels stop: a sequence of five units or more, a value the
    /// target writes neither as one unit nor as a pair.
    fn one(&self, shape: &Shape, input: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        let (first, last) = shape.continuation;
        let len = 1 + input[1..].iter().take_while(|&&u| u.wrapping_sub(first) <= last - first).count();
        if len > 4 {
            return None;
        }
        let v = shape.value(&input[..len]) as u32;
        if self.single.iter().any(|&(lo, hi)| lo <= v && v <= hi) {
            self.put(v, out);
        } else {
            let p = self.pair.filter(|p| p.lo <= v && v <= p.hi)?;
            let (high, low) = p.units(v);
            self.put(high, out);
            self.put(low, out);
        }
        Some(len)
    }

    fn put(&self, u: u32, out: &mut Vec<u8>) {
        match (self.bytes, self.big_endian) {
            (2, false) => out.extend_from_slice(&(u as u16).to_le_bytes()),
            (2, true) => out.extend_from_slice(&(u as u16).to_be_bytes()),
            (_, false) => out.extend_from_slice(&u.to_le_bytes()),
            (_, true) => out.extend_from_slice(&u.to_be_bytes()),
        }
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local! {
    /// The units [`drive`] converted one by one on this thread, for the tests
    /// that check the kernel does the work.
    pub(super) static ONE_BY_ONE: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// The units the kernel leaves at the end of its input (a 64-unit window
/// and the 16 its last step loads past it).
const TAIL: usize = 80;

/// Runs `kernel` (the units it takes of a piece of input and the bytes it
/// writes at a pointer, at most four per unit taken) over `input`, and
/// converts one by one what it leaves: the last [`TAIL`] units, and after a
/// refusal the next 16 units, after which the kernel runs again; returns the
/// units taken, stopping where [`Target::one`] stops.
pub(super) fn drive(
    target: &Target,
    shape: &Shape,
    input: &[u8],
    out: &mut Vec<u8>,
    mut kernel: impl FnMut(&[u8], *mut u8) -> (usize, usize),
) -> usize {
    out.reserve(4 * input.len());
    let mut i = 0;
    loop {
        if input.len() - i > TAIL {
            let start = out.len();
            let (took, written) = kernel(&input[i..], out.as_mut_ptr().wrapping_add(start));
            debug_assert!(written <= 4 * took && start + written <= out.capacity());
            // SAFETY: the kernel initialised `written` bytes after `start`,
            // at most four per unit taken: within the capacity reserved.
            unsafe { out.set_len(start + written) };
            i += took;
        }
        let resume = i + 16;
        while i < input.len() && (i < resume || input.len() - i <= TAIL) {
            match target.one(shape, &input[i..], out) {
                Some(len) => {
                    #[cfg(all(test, feature = "std"))]
                    ONE_BY_ONE.with(|n| n.set(n.get() + len));
                    i += len;
                }
                None => return i,
            }
        }
        if i == input.len() {
            return i;
        }
    }
}

/// For each set of the four lanes that hold pairs (bit `k` for lane `k`), the
/// byte shuffle that packs each lane's units: its low 16 bits, and its high
/// 16 too where it is a pair.
pub(super) static PAIR_SHUFFLES: [[u8; 16]; 16] = pair_shuffles();

const fn pair_shuffles() -> [[u8; 16]; 16] {
    let mut table = [[0x80u8; 16]; 16];
    let mut pairs = 0;
    while pairs < 16 {
        let (mut lane, mut at) = (0, 0);
        while lane < 4 {
            let units = if pairs >> lane & 1 == 1 { 4 } else { 2 };
            let mut b = 0;
            while b < units {
                table[pairs][at] = (4 * lane + b) as u8;
                at += 1;
                b += 1;
            }
            lane += 1;
        }
        pairs += 1;
    }
    table
}
