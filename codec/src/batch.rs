//! [`Batch`]: the output side of the bulk decoding loops.
//!
//! A hot loop that calls `Vec::push` once per value keeps the vector's length in
//! memory (the push may reallocate), so every value waits for the previous store
//! of the length. A `Batch` collects values in a small fixed buffer whose count the
//! compiler keeps in a register, and appends the buffer to the vector when it is
//! full, when a run of units is copied, and when the batch is dropped. With no
//! vector (validation) it keeps nothing, and the inliner removes the values.
//!
//! ```
//! use placemat_codec::Batch;
//!
//! let mut out = vec![1u32];
//! {
//!     let mut batch = Batch::new(Some(&mut out));
//!     for v in 2..100 {
//!         batch.push(v);
//!     }
//!     batch.extend_units(b"AB");
//! } // dropped: the last values are appended
//! assert_eq!(out.len(), 101);
//! assert_eq!(out[..3], [1, 2, 3]);
//! assert_eq!(out[99..], [0x41, 0x42]);
//!
//! // Without a vector, nothing is kept.
//! let mut nothing = Batch::<u32>::new(None);
//! nothing.push(7);
//! ```

use alloc::vec::Vec;

use crate::Value;

/// Values held before they are appended to the vector.
const CAPACITY: usize = 32;

/// Appends values to an optional vector through a fixed buffer (see the module docs).
///
/// Values reach the vector in the order they were pushed, at the latest when the
/// batch is dropped or [`Batch::flush`]ed.
pub struct Batch<'a, V: Value> {
    out: Option<&'a mut Vec<V>>,
    buf: [V; CAPACITY],
    len: usize,
}

impl<'a, V: Value> Batch<'a, V> {
    /// A batch appending to `out`, or keeping nothing if `out` is `None`.
    #[inline(always)]
    pub fn new(out: Option<&'a mut Vec<V>>) -> Self {
        Batch { out, buf: [V::default(); CAPACITY], len: 0 }
    }

    /// Appends one value.
    #[inline(always)]
    pub fn push(&mut self, value: V) {
        if self.out.is_some() {
            self.buf[self.len % CAPACITY] = value;
            self.len += 1;
            if self.len == CAPACITY {
                self.flush();
            }
        }
    }

    /// Appends units that are their own values (an ASCII run), after the values
    /// pushed so far.
    #[inline(always)]
    pub fn extend_units(&mut self, units: &[u8]) {
        if self.out.is_some() {
            self.flush();
            if let Some(out) = self.out.as_deref_mut() {
                out.extend(units.iter().map(|&u| V::from_u64_lossy(u64::from(u))));
            }
        }
    }

    /// Appends the buffered values to the vector now.
    #[inline]
    pub fn flush(&mut self) {
        if let Some(out) = self.out.as_deref_mut() {
            out.extend_from_slice(&self.buf[..self.len]);
        }
        self.len = 0;
    }
}

impl<V: Value> Drop for Batch<'_, V> {
    #[inline]
    fn drop(&mut self) {
        self.flush();
    }
}

impl<V: Value> core::fmt::Debug for Batch<'_, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Batch").field("buffered", &&self.buf[..self.len]).finish_non_exhaustive()
    }
}
