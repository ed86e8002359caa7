//! The decoding kernel of `decode/mod.rs`, written once over a few vector
//! operations and instantiated per instruction set by `decode_kernel!`
//! (`decode/x86.rs`, `decode/neon.rs`); its step tables are in
//! `decode/steps.rs`.
//!
//! An instantiating module brings into scope, each with
//! `#[target_feature(enable = $features)]`: the vector types `V` (16 units)
//! and `V32` (four 32-bit lanes); `Consts` and `consts(shape)` (what the
//! helpers need of the shape, made once per call); `load` (16 units,
//! unaligned, `unsafe`: the validator's own); `leads` (a bit per unit of the
//! 64 at a pointer, set where the unit is no continuation, `unsafe`);
//! `values4` (up to four values gathered by a step, weighed, less their `K`);
//! `store16` (sixteen single-unit values as words, `unsafe`) and `store`
//! (four lanes as words, `unsafe`).
//!
//! The values go to a [`Sink`]-like trait the macro defines: words in memory
//! (`Words`, the decoder's) or code units of a target (`to_units/`'s kernels
//! for 16-byte vectors), which may refuse a step's values and end the run.

/// Instantiates `decode` for the instruction set whose helpers are in scope.
macro_rules! decode_kernel {
    ($features:literal) => {
        use $crate::decode::steps::{uniform, BY_MARKS, STEPS};
        use $crate::shared::{Shape, Word};

        /// Units the kernel needs beyond a 64-unit window to load its last step.
        const MARGIN: usize = 16;

        /// Where the kernel's values go. Each method writes a step's values
        /// and counts them, or refuses them (writing nothing that counts),
        /// which ends the run before the step.
        ///
        /// A sink is made for a run over `input` and may write, at each call,
        /// as many bytes as four per unit of `input` left from the step on
        /// (the kernel calls it with at least 16 units left).
        pub(crate) trait Sink {
            /// The first `count` lanes of `v`, values of sequences of one to
            /// four units.
            ///
            /// # Safety
            /// The machine must have the instruction set's features.
            unsafe fn four(&mut self, c: &Consts, v: V32, count: usize) -> bool;
            /// Sixteen single-unit sequences, the units `x`.
            ///
            /// # Safety
            /// As [`Sink::four`].
            unsafe fn sixteen(&mut self, c: &Consts, x: V) -> bool;
            /// The value of a sequence of five units or more.
            ///
            /// # Safety
            /// As [`Sink::four`].
            unsafe fn one(&mut self, v: u64) -> bool;
            /// The 64-unit window at `p` whole, where the sink has a way to
            /// convert it faster than the steps (`leads` has its units that
            /// are no continuation, `next_is_lead` whether the unit after it
            /// is one): the units taken, at the end of a sequence, or 0 where
            /// it has none or refuses the window, which the steps then take.
            ///
            /// # Safety
            /// As [`Sink::four`], with `p .. p + 64 + MARGIN` readable.
            #[inline]
            unsafe fn window(&mut self, p: *const u8, leads: u64, next_is_lead: bool) -> usize {
                let _ = (p, leads, next_is_lead);
                0
            }
        }

        /// The decoder's sink: every value a word at `out`, `w` written.
        pub(crate) struct Words<W> {
            out: *mut W,
            w: usize,
        }

        impl<W: Word> Sink for Words<W> {
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn four(&mut self, _: &Consts, v: V32, count: usize) -> bool {
                // SAFETY: `w` is at most the units taken and the kernel has
                // at least 16 left: four words are within the caller's.
                unsafe { store::<W>(v, self.out.add(self.w)) };
                self.w += count;
                true
            }

            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn sixteen(&mut self, c: &Consts, x: V) -> bool {
                // SAFETY: as in `four`, for sixteen words.
                unsafe { store16::<W>(c, x, self.out.add(self.w)) };
                self.w += 16;
                true
            }

            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn one(&mut self, v: u64) -> bool {
                // SAFETY: as in `four`, for one word.
                unsafe { self.out.add(self.w).write(W::from_u64(v)) };
                self.w += 1;
                true
            }
        }

        /// Decodes while a 64-unit window and [`MARGIN`] more remain; returns
        /// the units taken and the words written.
        ///
        /// # Safety
        /// The machine must have the instruction set's features, and `out`
        /// must be valid for writes of `input.len()` words.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn decode<W: Word>(shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
            let mut words = Words { out, w: 0 };
            // SAFETY: the words sink writes at most one word per unit taken
            // and four words with 16 units left, within `input.len()` words.
            let taken = unsafe { run(shape, input, &mut words) };
            (taken, words.w)
        }

        /// Runs the kernel while a 64-unit window and [`MARGIN`] more remain
        /// and `sink` takes the values; returns the units taken (at a
        /// sequence boundary).
        ///
        /// # Safety
        /// The machine must have the instruction set's features, and `sink`
        /// must write within its bounds as [`Sink`] says.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn run<S: Sink>(shape: &Shape, input: &[u8], sink: &mut S) -> usize {
            let (first, last) = shape.continuation;
            let c = consts(shape);
            let mut i = 0;
            while i + 64 + MARGIN <= input.len() {
                // SAFETY: `i + 64 <= input.len()`.
                let marks = unsafe { leads(&c, input.as_ptr().add(i)) };
                let next_is_lead = input[i + 64].wrapping_sub(first) > last - first;
                if marks == u64::MAX && next_is_lead {
                    // 64 single-unit values (the unit after them is a lead).
                    for k in 0..4 {
                        // SAFETY: `i + 16 * k + 16 <= i + 64`; the sink as
                        // the caller vouches.
                        if !unsafe { sink.sixteen(&c, load(input.as_ptr().add(i + 16 * k))) } {
                            return i + 16 * k;
                        }
                    }
                    i += 64;
                    continue;
                }
                // SAFETY: `i + 64 + MARGIN <= input.len()`; the sink as the
                // caller vouches.
                let took = unsafe { sink.window(input.as_ptr().add(i), marks, next_is_lead) };
                if took > 0 {
                    i += took;
                    continue;
                }
                // SAFETY: as above.
                let (at, done) = unsafe { window(&c, shape, input, i, marks, sink) };
                i += at;
                if at == 0 || !done {
                    return i;
                }
            }
            i
        }

        /// The steps over the window of 64 units at `i`, whose marks are
        /// `marks`: the units taken (0 when a sequence of five units or more
        /// starts the window and runs past it) and whether the sink took
        /// every step (else the run ends there).
        ///
        /// # Safety
        /// `i + 64 + MARGIN <= input.len()`; `sink` as [`run`]'s caller vouches.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn window<S: Sink>(
            c: &Consts,
            shape: &Shape,
            input: &[u8],
            i: usize,
            marks: u64,
            sink: &mut S,
        ) -> (usize, bool) {
            let mut at = 0;
            // Steps look at the 12 marks after `at` (units up to 63 of the
            // window).
            while at <= 51 {
                let rest = marks >> at;
                // SAFETY (each step below): `i + at + 16 <= i + 67 <= input.len()`,
                // so at least 16 units are left for the sink.
                let p = unsafe { input.as_ptr().add(i + at) };
                if at > 47 {
                    // Too near the window's end to see a sixteenth single unit end.
                    if rest == u64::MAX >> at {
                        break;
                    }
                } else if rest & 0x1_FFFF == 0x1_FFFF {
                    // Seventeen leads in a row: sixteen single-unit values.
                    if !unsafe { sink.sixteen(c, load(p)) } {
                        return (at, false);
                    }
                    at += 16;
                    continue;
                } else if let Some((units, step)) = uniform(rest) {
                    // Four values of one length: a predictable branch instead
                    // of a lookup the next step would wait for.
                    if !unsafe { sink.four(c, values4(c, &STEPS[step], load(p)), 4) } {
                        return (at, false);
                    }
                    at += units;
                    continue;
                }
                let e = usize::from(BY_MARKS[(rest >> 1 & 0xFFF) as usize]);
                let count = e >> 13;
                if count > 0 {
                    if !unsafe { sink.four(c, values4(c, &STEPS[e & 0x1FF], load(p)), count) } {
                        return (at, false);
                    }
                    at += e >> 9 & 15;
                    continue;
                }
                // A sequence of five units or more: it ends at the next mark,
                // which must lie in this window.
                let len = (rest >> 1).trailing_zeros() as usize + 1;
                if at + len > 64 {
                    break;
                }
                let v = shape.value(&input[i + at..i + at + len]);
                if !unsafe { sink.one(v) } {
                    return (at, false);
                }
                at += len;
            }
            (at, true)
        }
    };
}
pub(crate) use decode_kernel;
