//! The kernel, written once over a small set of vector operations and
//! instantiated per instruction set by `kernel!` (`validate/x86.rs`,
//! `validate/neon.rs`).
//!
//! An instantiating module defines the vector type `V`, its width `W` in bytes
//! (16, 32 or 64, dividing [`crate::CHUNK`]) and, each with
//! `#[target_feature(enable = $features)]`: `load` (unaligned, `unsafe`),
//! `splat`, `table` (16 bytes repeated across the vector), `table_wide` (`W` bytes), `lookup` (each byte
//! of the index, `0..16`, picks a table byte), `high` and `low` (nibbles),
//! `and`, `or`, `xor`, `max` (unsigned), `subs` (saturating), `equal` (all ones where equal), `joined` (the vector `back` reads the units before `cur` from, given the `W` units before it), `back::<N>` (the units `N` places back, `N` in `1..=15`), `less_signed` (all ones where `a < b` as signed bytes), `any` (some byte is not 0) and
//! `any_high` (some byte has bit 7 set).

/// Instantiates `validate` for the instruction set whose helpers are in scope.
macro_rules! kernel {
    ($features:literal) => {
        use $crate::shared::{Tables, CHUNK};
        use $crate::validate::Prepared;

        /// The tables as vectors, loaded once per call.
        struct Vectors {
            prev_high: V,
            prev_low: V,
            cur_high: V,
            cur_low: V,
            /// `thresholds[k] - 80`: a saturating subtraction leaves bit 7 set
            /// exactly for units at least `thresholds[k]`.
            must: [V; 16],
            bit7: V,
            /// The fourth table is in use (`Tables::cur_low`).
            low: bool,
            /// Continuation units by comparison (`Tables::continuation_end`).
            split: bool,
            /// Lane `W - k` holds `thresholds[k] - 1` for `k` in `1..=need`, the
            /// others `FF`: a saturating subtraction from the last `W` units
            /// leaves a lane set exactly where a lead's sequence runs past them.
            incomplete: V,
            /// Units above it are rare: leads of five units and more
            /// (`thresholds[4] - 1`, when `need > 3`) and units with a floor
            /// (`Tables::floored_from`).
            rare: V,
            /// `continuation_end` as a signed byte: units (signed) below it and
            /// at least `80` (every negative one) are continuations.
            continuation_end: V,
            /// The floors after F0-FF, by low nibble (`Tables::floor`).
            floor: V,
            /// `0F`: the high nibble of F0-FF.
            nibble_f: V,
        }

        /// The constants as vectors, loaded once per call (inlined into
        /// `drive`: out of line, the whole set went through memory).
        #[target_feature(enable = $features)]
        #[inline]
        fn vectors(p: &Prepared) -> Vectors {
            let t = &p.tables;
            Vectors {
                prev_high: table(&t.prev_high),
                prev_low: table(&t.prev_low),
                cur_high: table(&t.cur_high),
                cur_low: table(&p.cur_low),
                // Past `need`, `FF`: the subtraction leaves nothing, so that a
                // kernel built for a larger `K` checks exactly the same.
                must: core::array::from_fn(|k| splat(p.must[k])),
                bit7: splat(0x80),
                low: t.cur_low.is_some(),
                split: t.continuation_end.is_some(),
                incomplete: table_wide(p.incomplete[64 - W..].try_into().expect("W lanes")),
                rare: splat(p.rare),
                continuation_end: splat(t.continuation_end.unwrap_or(0x80)),
                floor: table(&p.floor),
                nibble_f: splat(0x0F),
            }
        }

        /// The flags of the `W` positions of `cur`, whose previous `W` units
        /// are `before`: non-zero where one is flagged.
        #[target_feature(enable = $features)]
        #[inline]
        fn block<const K: usize, const FLOOR: bool, const ODD: bool>(
            v: &Vectors,
            cur: V,
            before: V,
        ) -> V {
            let joined = joined(cur, before);
            let prev1 = back::<1>(cur, joined);
            let row = and(lookup(v.prev_high, high(prev1)), lookup(v.prev_low, low(prev1)));
            let mut col = lookup(v.cur_high, high(cur));
            if ODD && v.low {
                col = and(col, lookup(v.cur_low, low(cur)));
            }
            let mut must = splat(0);
            // The units `k` back, `k` in `2..=K`, each against its threshold.
            $crate::validate::kernel::must_terms!(must, cur, joined, v, K; 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
            let mut flags = if ODD && v.split {
                let two = and(less_signed(prev1, v.continuation_end), less_signed(cur, v.continuation_end));
                or(xor(and(must, v.bit7), and(two, v.bit7)), and(row, col))
            } else {
                xor(and(must, v.bit7), and(row, col))
            };
            if FLOOR {
                let floor = and(equal(high(prev1), v.nibble_f), lookup(v.floor, low(prev1)));
                flags = or(flags, subs(floor, cur));
            }
            flags
        }

        /// The bytewise maximum of the chunk at `p`.
        ///
        /// # Safety
        /// `p .. p + CHUNK` must be readable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn high_of(p: *const u8) -> V {
            let mut seen = splat(0);
            for j in (0..CHUNK).step_by(W) {
                // SAFETY: within the chunk.
                seen = max(seen, unsafe { load(p.add(j)) });
            }
            seen
        }

        /// The flags of a chunk with rare units, out of line: the loop over
        /// chunks then holds one kernel, as utf8's does. With both kernels
        /// inlined, `fss-utf-plan9`'s and `ken-draft`'s validators on text
        /// that alternates ASCII and other chunks ran at 80 or 108 µs by the
        /// address the same machine code landed at (papers/simd.md).
        ///
        /// # Safety
        /// `p - W .. p + CHUNK` must be readable.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn rare_chunk<const K: usize, const FLOOR: bool, const ODD: bool>(v: &Vectors, p: *const u8) -> V {
            // SAFETY: the caller's guarantee.
            unsafe { $crate::validate::kernel::chunk!(v, p, K, FLOOR, ODD) }
        }

        /// Runs the chunks of `len` bytes (a multiple of `CHUNK`) at `start`;
        /// the offset of the first failing one.
        ///
        /// # Safety
        /// `start - W .. start + len` must be readable.
        #[target_feature(enable = $features)]
        unsafe fn chunks<const K: usize, const FLOOR: bool, const ODD: bool>(
            v: &Vectors,
            t: &Tables,
            start: *const u8,
            len: usize,
        ) -> Result<(), usize> {
            // Whether the sequence before the next chunk is cut short.
            // SAFETY: the `W` bytes before `start` are readable.
            let mut pending = subs(unsafe { load(start.sub(W)) }, v.incomplete);
            // Whether the chunk before held a rare unit (`Vectors::rare`).
            let mut rare_before = true;
            let tiered = K > 3 || FLOOR;
            let mut off = 0;
            while off < len {
                // SAFETY: `off + CHUNK <= len`: the chunk and the `W` bytes before
                // it are readable.
                let p = unsafe { start.add(off) };
                let mut seen = splat(0);
                if t.ascii || tiered {
                    // SAFETY: within the chunk.
                    seen = unsafe { high_of(p) };
                }
                // An all-ASCII chunk only needs the sequence before it complete
                // (in valid text it always is: the test is predicted); the ASCII
                // chunks after it need nothing and are skipped in a loop of
                // their own.
                if t.ascii && !any_high(seen) {
                    if any(pending) {
                        return Err(off);
                    }
                    off += CHUNK;
                    // Two chunks a test while two are left, then one.
                    // SAFETY: as above, for the chunks at `off` and after.
                    while off + 2 * CHUNK <= len
                        && !any_high(unsafe { max(high_of(start.add(off)), high_of(start.add(off + CHUNK))) })
                    {
                        off += 2 * CHUNK;
                    }
                    // SAFETY: as above, for the chunk at `off`.
                    while off < len && !any_high(unsafe { high_of(start.add(off)) }) {
                        off += CHUNK;
                    }
                    pending = splat(0);
                    rare_before = false;
                    continue;
                }
                let err = {
                    // Without rare units here or in the chunk before (at most 15
                    // units back), units 4 and more back cannot require a
                    // continuation, 2 and 3 back are enough, and no floor
                    // applies: the chunk costs what one of utf8's does.
                    let rare = tiered && any(subs(seen, v.rare));
                    let short = tiered && !rare && !rare_before;
                    rare_before = rare;
                    // SAFETY: the chunk and the `W` units before it are readable;
                    // so are its last `W` units.
                    unsafe {
                        pending = subs(load(p.add(CHUNK - W)), v.incomplete);
                        // Without tiers, `K = 3` and no floor: the same check.
                        if short || !tiered {
                            $crate::validate::kernel::chunk!(v, p, 3, false, ODD)
                        } else {
                            rare_chunk::<K, FLOOR, ODD>(v, p)
                        }
                    }
                };
                if any(err) {
                    return Err(off);
                }
                off += CHUNK;
            }
            Ok(())
        }

        /// The head (the first chunk, after `start` units), the chunks in
        /// place, and the tail (what is left, then at least two `start` units)
        /// in a buffer.
        ///
        /// # Safety
        /// The machine has the instruction set, and `p.tables().need <= K`.
        #[target_feature(enable = $features)]
        unsafe fn drive<const K: usize, const FLOOR: bool, const ODD: bool>(
            p: &Prepared,
            input: &[u8],
        ) -> Result<(), usize> {
            let (t, v) = (p.tables(), vectors(p));
            let n = input.len();
            let main_end = n / CHUNK * CHUNK;
            // `W <= CHUNK` units before each chunk are read: the buffer's
            // chunks start `CHUNK` in (filled with start units, which end no
            // sequence and begin none).
            let mut buf = [t.start; 3 * CHUNK];
            if main_end > 0 {
                buf[CHUNK..2 * CHUNK].copy_from_slice(&input[..CHUNK]);
                // SAFETY: `buf[0 .. 2 * CHUNK]` is the buffer.
                unsafe { chunks::<K, FLOOR, ODD>(&v, t, buf.as_ptr().add(CHUNK), CHUNK)? };
                // SAFETY: the chunks from `CHUNK` to `main_end <= n` are in the
                // input, and so are the `W <= CHUNK` bytes before them.
                unsafe { chunks::<K, FLOOR, ODD>(&v, t, input.as_ptr().add(CHUNK), main_end - CHUNK) }
                    .map_err(|off| CHUNK + off)?;
                buf[..CHUNK].copy_from_slice(&input[main_end - CHUNK..main_end]);
            }
            let rest = n - main_end;
            buf[CHUNK..CHUNK + rest].copy_from_slice(&input[main_end..]);
            buf[CHUNK + rest..].fill(t.start);
            let len = if rest + 2 <= CHUNK { CHUNK } else { 2 * CHUNK };
            // SAFETY: `buf[0 .. CHUNK + len]` is in the buffer.
            unsafe { chunks::<K, FLOOR, ODD>(&v, t, buf.as_ptr().add(CHUNK), len) }
                .map_err(|off| (main_end + off).min(n))
        }

        /// Validates `input` (see [`crate::validate()`]).
        ///
        /// # Safety
        /// The machine has the instruction set (the tables passed
        /// `Tables::check` in `Prepared::new`).
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn validate(p: &Prepared, input: &[u8]) -> Result<(), usize> {
            // SAFETY: the caller's guarantee, and the `K` chosen is at least `need`.
            unsafe { $crate::validate::kernel::by_need!(p, input) }
        }
    };
}

/// Calls `drive` for the tables: `K` the smallest of 3, 5, 7 and 15 at least
/// `need` (a larger `K` checks the same, a little slower, and chunks without
/// rare units run with 3 anyway), and floors as a constant. Tables with the
/// fourth table or the comparison mode, which no built-in codec uses, run
/// with `K = 15` and test those per block.
macro_rules! by_need {
    ($p:expr, $input:expr) => {{
        let t = $p.tables();
        // The fourth table and the continuation comparison, which no built-in
        // codec uses, as one constant: tested per block only where one is on
        // (tested per block everywhere, they cost utf8 a third of its speed
        // on text that alternates ASCII and other chunks; papers/simd.md).
        let odd = t.cur_low.is_some() || t.continuation_end.is_some();
        match (t.need, t.floor.is_some(), odd) {
            (0..=3, false, false) => drive::<3, false, false>($p, $input),
            (0..=3, true, false) => drive::<3, true, false>($p, $input),
            (4..=5, false, false) => drive::<5, false, false>($p, $input),
            (4..=5, true, false) => drive::<5, true, false>($p, $input),
            (6..=7, false, false) => drive::<7, false, false>($p, $input),
            (6..=7, true, false) => drive::<7, true, false>($p, $input),
            (_, false, false) => drive::<15, false, false>($p, $input),
            (_, true, false) => drive::<15, true, false>($p, $input),
            (_, floor, true) => {
                if floor {
                    drive::<15, true, true>($p, $input)
                } else {
                    drive::<15, false, true>($p, $input)
                }
            }
        }
    }};
}

/// The flags of the `CHUNK` positions at `$p`: a macro rather than a
/// function so that each use is inlined (a `#[target_feature]` function cannot
/// be `#[inline(always)]`, and an out-of-line chunk reloads the tables and
/// returns its flags through memory).
///
/// `$p - W .. $p + CHUNK` must be readable (the caller's `unsafe` block).
macro_rules! chunk {
    ($v:ident, $p:ident, $k:tt, $floor:tt, $odd:tt) => {{
        let mut err = splat(0);
        let mut before = load($p.sub(W));
        for j in (0..CHUNK).step_by(W) {
            let cur = load($p.add(j));
            err = or(err, block::<$k, $floor, $odd>($v, cur, before));
            before = cur;
        }
        err
    }};
}

/// `must |= subs(back::<k>(cur, joined), v.must[k])` for each listed `k` up
/// to `K` (constants, so that each `back` is one instruction).
macro_rules! must_terms {
    ($must:ident, $cur:ident, $joined:ident, $v:ident, $k_max:ident; $($k:literal)*) => {$(
        if $k_max >= $k {
            $must = or($must, subs(back::<$k>($cur, $joined), $v.must[$k]));
        }
    )*};
}

pub(crate) use {by_need, chunk, kernel, must_terms};
