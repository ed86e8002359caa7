//! The decoding kernel of `decode/mod.rs`, written once over a few vector
//! operations and instantiated per instruction set by `decode_kernel!`
//! (`decode/x86.rs`, `decode/neon.rs`); its step tables are in
//! `decode/steps.rs`.
//!
//! An instantiating module brings into scope, each with
//! `#[target_feature(enable = $features)]`: the vector type `V`; `Consts` and
//! `consts(shape)` (what the helpers need of the shape, made once per call);
//! `load` (16 units, unaligned, `unsafe`: the validator's own); `leads` (a bit per unit of the 64
//! at a pointer, set where the unit is no continuation, `unsafe`); `store4`
//! (up to four values gathered by a step, weighed, less their `K`, `unsafe`);
//! and `store16` (sixteen single-unit values, `unsafe`).

/// Instantiates `decode` for the instruction set whose helpers are in scope.
macro_rules! decode_kernel {
    ($features:literal) => {
        use $crate::decode::steps::{uniform, BY_MARKS, STEPS};
        use $crate::shared::{Shape, Word};

        /// Units the kernel needs beyond a 64-unit window to load its last step.
        const MARGIN: usize = 16;

        /// Decodes while a 64-unit window and [`MARGIN`] more remain; returns
        /// the units taken and the words written.
        ///
        /// # Safety
        /// The machine must have the instruction set's features, and `out`
        /// must be valid for writes of `input.len()` words.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn decode<W: Word>(shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
            let (first, last) = shape.continuation;
            let c = consts(shape);
            let (mut i, mut w) = (0, 0);
            // Invariant: `w <= i`; every step writes at most 16 words from `w`
            // and runs with `i + 16 <= input.len()`, so it writes within `out`.
            while i + 64 + MARGIN <= input.len() {
                // SAFETY: `i + 64 <= input.len()`.
                let marks = unsafe { leads(&c, input.as_ptr().add(i)) };
                if marks == u64::MAX && input[i + 64].wrapping_sub(first) > last - first {
                    // 64 single-unit values (the unit after them is a lead).
                    for k in 0..4 {
                        // SAFETY: `i + 16 * k + 16 <= i + 64` and
                        // `w + 16 * k <= i + 16 * k`.
                        unsafe { store16::<W>(&c, load(input.as_ptr().add(i + 16 * k)), out.add(w + 16 * k)) };
                    }
                    (i, w) = (i + 64, w + 64);
                    continue;
                }
                // SAFETY: as the invariant says, with `i + 64 + MARGIN <= input.len()`.
                let (at, written) = unsafe { window(&c, shape, input, i, marks, out.add(w)) };
                if at == 0 {
                    return (i, w);
                }
                (i, w) = (i + at, w + written);
            }
            (i, w)
        }

        /// The steps over the window of 64 units at `i`, whose marks are
        /// `marks`: the units taken (0 when a sequence of five units or more
        /// starts the window and runs past it) and the words written.
        ///
        /// # Safety
        /// `i + 64 + MARGIN <= input.len()`, and `out` valid for writes of
        /// `input.len() - i` words.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn window<W: Word>(
            c: &Consts,
            shape: &Shape,
            input: &[u8],
            i: usize,
            marks: u64,
            out: *mut W,
        ) -> (usize, usize) {
            let (mut at, mut w) = (0, 0);
            // Steps look at the 12 marks after `at` (units up to 63 of the
            // window). Invariant: `w <= at`.
            while at <= 51 {
                let rest = marks >> at;
                // SAFETY (each step below): `i + at + 16 <= i + 67 <= input.len()`
                // and `w <= at`, within the caller's words.
                let p = unsafe { input.as_ptr().add(i + at) };
                if at > 47 {
                    // Too near the window's end to see a sixteenth single unit end.
                    if rest == u64::MAX >> at {
                        break;
                    }
                } else if rest & 0x1_FFFF == 0x1_FFFF {
                    // Seventeen leads in a row: sixteen single-unit values.
                    unsafe { store16::<W>(c, load(p), out.add(w)) };
                    (at, w) = (at + 16, w + 16);
                    continue;
                } else if let Some((units, step)) = uniform(rest) {
                    // Four values of one length: a predictable branch instead
                    // of a lookup the next step would wait for.
                    unsafe { store4::<W>(c, &STEPS[step], load(p), out.add(w)) };
                    (at, w) = (at + units, w + 4);
                    continue;
                }
                let e = usize::from(BY_MARKS[(rest >> 1 & 0xFFF) as usize]);
                let count = e >> 13;
                if count > 0 {
                    unsafe { store4::<W>(c, &STEPS[e & 0x1FF], load(p), out.add(w)) };
                    (at, w) = (at + (e >> 9 & 15), w + count);
                    continue;
                }
                // A sequence of five units or more: it ends at the next mark,
                // which must lie in this window.
                let len = (rest >> 1).trailing_zeros() as usize + 1;
                if at + len > 64 {
                    break;
                }
                let v = shape.value(&input[i + at..i + at + len]);
                // SAFETY: `w <= at < input.len() - i`.
                unsafe { out.add(w).write(W::from_u64(v)) };
                (at, w) = (at + len, w + 1);
            }
            (at, w)
        }
    };
}
pub(crate) use decode_kernel;
