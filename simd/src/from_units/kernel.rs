//! The kernel of [`encode_from_units`](super::encode_from_units) for 16-byte
//! vectors, written once over a few lane operations and instantiated per
//! instruction set by `from_units_kernel!` (`x86.rs` for SSE4.1 and AVX2,
//! `neon.rs`); `lanes.rs` holds its plan, its tables and its driver.
//!
//! Four code units a group, in 32-bit lanes (16-bit units widened, two
//! groups per load), each lane deciding alone from its unit and the units
//! beside it: a single unit is its value; a pair's first unit (the next one
//! its second) and second unit (the one before its first) both join the
//! pair's value. The lane's length `n` comes from three comparisons with the
//! forms' last values; its bytes are made as `[lead, c2, c1, c0]` (the
//! value's three low digits as continuation units, the lead of its length in
//! the place of the first) so that its last `n` bytes are its form, and a
//! pair's halves keep two each: the first the lead and `c2`, the second `c1`
//! and `c0`. One shuffle (by the four lanes' lengths, `lanes.rs`'s tables)
//! packs them. A group with a lane that is none of these, or a value the
//! target does not write, is refused: the run ends before it (before the
//! first unit of a pair it splits). Sixteen units below the plan's
//! `bytes_below` (ASCII) are narrowed without any of it.
//!
//! An instantiating module brings into scope, each with
//! `#[target_feature(enable = $features)]`: the types `L` (four 32-bit lanes)
//! and `B` (sixteen bytes); `Consts` and `consts(&Plan)`, the plan as
//! vectors; `load` (sixteen bytes, each unit's in the machine's order,
//! `unsafe`); `splat`, `add`, `sub`, `and`, `or`, `xor`, `andnot` (`a & !b`),
//! `gt` (unsigned), `select(mask, a, b)`, `shl::<N>`, `shr::<N>`,
//! `join(c, high, low)` (a pair's value from its two units), `bits` (a bit
//! per all-ones lane); `within(v, range)`; `halves` (the eight 16-bit units
//! of `B` as two `L`), `lanes` (four 32-bit units as `L`), `pack32` (eight
//! 32-bit units as 16-bit ones, if all fit); `bytes16` (whether every unit
//! of the two `B`s lies below `bytes_below`) and `narrow16` (their bytes,
//! `unsafe`); `plain16` (what eight 16-bit units are: `Plain`),
//! `pack_two` and `pack_one_three` (eight of `Plain::Two`, of
//! `Plain::OneThree`, as their forms, `unsafe`);
//! `plain_wide` (eight single units of `Plain::Any` as their forms in one
//! wider vector, where the instruction set has one, `unsafe`) and
//! `plain_wide16` (sixteen 16-bit units, if all are plain, told apart in one
//! wider vector, `unsafe`); `group_wide` (eight 16-bit units, pairs
//! too, if the groups of four would take them all, made in one wider vector,
//! `unsafe`); `bytes_wide32` (runs of sixteen 32-bit units below
//! `bytes_below` narrowed to their bytes in wider vectors, `unsafe`); and `pack`
//! (the table's shuffle of `L`, stored, `unsafe`).

/// Instantiates `convert` for the instruction set whose helpers are in scope.
macro_rules! from_units_kernel {
    ($features:literal) => {
        use $crate::from_units::kernel::GroupForms;
        use $crate::from_units::lanes::{Plain, LENGTHS};

        /// Converts from code unit 1 of `piece` (unit 0 is the one before
        /// it) while a group of units and the unit after it remain; returns
        /// the code units taken and the bytes written.
        ///
        /// # Safety
        /// The machine must have the instruction set's features; `out` must
        /// be valid for writes of four bytes per code unit of `piece`.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn convert(c: &Consts, piece: &[u8], out: *mut u8) -> (usize, usize) {
            if c.bytes == 2 {
                // SAFETY: the caller's guarantees.
                unsafe { convert16(c, piece, out) }
            } else {
                // SAFETY: the caller's guarantees.
                unsafe { convert32(c, piece, out) }
            }
        }

        /// [`convert`] for 16-bit units, eight at a time.
        ///
        /// # Safety
        /// As [`convert`].
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn convert16(c: &Consts, piece: &[u8], out: *mut u8) -> (usize, usize) {
            let units = piece.len() / 2;
            let (mut i, mut w) = (1, 0);
            // Whether the last unit taken is a pair's first, its second not.
            let mut open = false;
            // Invariant: `w <= 4 * (i - 1)`; a step writes at most 16 bytes
            // per four units it reads, all before `units`.
            while i + 17 <= units {
                // SAFETY: units `i .. i + 17` are in `piece`.
                let (x, y) = unsafe { (load(c, piece.as_ptr().add(2 * i)), load(c, piece.as_ptr().add(2 * i + 16))) };
                if bytes16(c, x, y) {
                    // SAFETY: 16 bytes at `w`, for 16 units taken.
                    unsafe { narrow16(c, x, y, out.add(w)) };
                    (i, w) = (i + 16, w + 16);
                    continue;
                }
                // SAFETY: 64 bytes at `w`, for sixteen units taken.
                if let Some(written) = unsafe { plain_wide16(c, x, y, out.add(w)) } {
                    (i, w, open) = (i + 16, w + written, false);
                    continue;
                }
                // SAFETY: 32 bytes at `w`, for eight units taken.
                if let Some(written) = unsafe { plain8(c, x, out.add(w)) } {
                    (i, w, open) = (i + 8, w + written, false);
                    continue;
                }
                // SAFETY: units `i - 1 .. i + 9` are in `piece`.
                let (prev, next) =
                    unsafe { (load(c, piece.as_ptr().add(2 * i - 2)), load(c, piece.as_ptr().add(2 * i + 2))) };
                // SAFETY: 32 bytes at `w`, for eight units taken.
                if let Some((written, ends_open)) = unsafe { group_wide(c, x, next, prev, out.add(w)) } {
                    (i, w, open) = (i + 8, w + written, ends_open);
                    continue;
                }
                let (u0, u1) = halves(x);
                let [(n0, n1), (p0, p1)] = [halves(next), halves(prev)];
                for (u, n, p) in [(u0, n0, p0), (u1, n1, p1)] {
                    match group(c, u, n, p) {
                        // SAFETY: 16 bytes at `w`, for four units taken.
                        Ok((bytes, index, ends_open)) => {
                            unsafe { pack(bytes, index, out.add(w)) };
                            (i, w, open) = (i + 4, w + usize::from(LENGTHS[index]), ends_open);
                        }
                        // The group's first unit ends a pair whose first unit
                        // (two bytes of its form) the group before took (never
                        // the first group: the run starts after a value).
                        Err(true) if i > 1 => return (i - 2, w - 2),
                        Err(true) => return (0, 0),
                        Err(false) => return (i - 1, w),
                    }
                }
            }
            // A pair cut by the end of the loop is left with its first unit
            // (whose two bytes are taken back).
            if open {
                (i - 2, w - 2)
            } else {
                (i - 1, w)
            }
        }

        /// [`convert`] for 32-bit units (no pairs), four at a time.
        ///
        /// # Safety
        /// As [`convert`].
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn convert32(c: &Consts, piece: &[u8], out: *mut u8) -> (usize, usize) {
            let units = piece.len() / 4;
            let (mut i, mut w) = (1, 0);
            let none = splat(0);
            while i + 16 <= units {
                // SAFETY: units `i .. i + 16` are in `piece`.
                let x: [B; 4] = core::array::from_fn(|k| unsafe { load(c, piece.as_ptr().add(4 * i + 16 * k)) });
                let packed = [pack32(x[0], x[1]), pack32(x[2], x[3])];
                if let [Some(a), Some(b)] = packed {
                    // Sixteen units below 10000: bytes, or the 16-bit units'
                    // wide step.
                    if bytes16(c, a, b) {
                        // SAFETY: 16 bytes at `w`, for 16 units taken.
                        unsafe { narrow16(c, a, b, out.add(w)) };
                        (i, w) = (i + 16, w + 16);
                        // The run goes on in wider vectors, where there are
                        // (tried only after a step of bytes: text outside
                        // ASCII does not pay for the test). SAFETY: units
                        // `i .. i + 16 k` are in `piece` for every step `k`
                        // it takes; 16 bytes at `w` for each 16 units.
                        let run = unsafe { bytes_wide32(c, piece.as_ptr().add(4 * i), (units - i) / 16, out.add(w)) };
                        (i, w) = (i + run, w + run);
                        continue;
                    }
                    // SAFETY: 64 bytes at `w`, for sixteen units taken.
                    if let Some(written) = unsafe { plain_wide16(c, a, b, out.add(w)) } {
                        (i, w) = (i + 16, w + written);
                        continue;
                    }
                }
                for ([a, b], packed) in [[x[0], x[1]], [x[2], x[3]]].into_iter().zip(packed) {
                    // Eight units below 10000 take the 16-bit units' steps.
                    if let Some(x) = packed {
                        // SAFETY: 32 bytes at `w`, for eight units taken.
                        if let Some(written) = unsafe { plain8(c, x, out.add(w)) } {
                            (i, w) = (i + 8, w + written);
                            continue;
                        }
                    }
                    for x in [a, b] {
                        let Ok((bytes, index, _)) = group(c, lanes(x), none, none) else { return (i - 1, w) };
                        // SAFETY: 16 bytes at `w`, for four units taken.
                        unsafe { pack(bytes, index, out.add(w)) };
                        (i, w) = (i + 4, w + usize::from(LENGTHS[index]));
                    }
                }
            }
            (i - 1, w)
        }

        /// The bytes of the four lanes of `u` (the units after them `next`,
        /// before them `prev`), the index of their shuffle and whether the
        /// last lane is a pair's first unit; or `Err` (whether the first lane
        /// is a pair's second unit) where a lane is refused.
        #[target_feature(enable = $features)]
        #[inline]
        fn group(c: &Consts, u: L, next: L, prev: L) -> Result<(L, usize, bool), bool> {
            match group_forms(c, u, next, prev) {
                Ok(GroupForms { bytes, low, high, firsts }) => Ok((bytes, (low | high << 4) as usize, firsts & 8 != 0)),
                Err((taken, seconds)) => Err(taken & 1 == 1 && seconds & 1 == 1),
            }
        }

        /// Eight 16-bit units `x`, if all are single units the target writes
        /// ([`Plain`]), as their forms at `out`: the bytes written.
        ///
        /// # Safety
        /// `out .. out + 32` must be writable (four bytes per unit).
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn plain8(c: &Consts, x: B, out: *mut u8) -> Option<usize> {
            match plain16(c, x) {
                Plain::No => None,
                // SAFETY: the caller's guarantee.
                Plain::Two => Some(unsafe { pack_two(c, x, out) }),
                // SAFETY: the caller's guarantee.
                Plain::OneThree => Some(unsafe { pack_one_three(c, x, out) }),
                Plain::Any => {
                    // SAFETY: the caller's guarantee.
                    if let Some(written) = unsafe { plain_wide(c, x, out) } {
                        return Some(written);
                    }
                    let (u0, u1) = halves(x);
                    let (bytes, index) = plain_group(c, u0);
                    // SAFETY: the caller's guarantee, 16 of its 32 bytes.
                    unsafe { pack(bytes, index, out) };
                    let written = usize::from(LENGTHS[index]);
                    let (bytes, index) = plain_group(c, u1);
                    // SAFETY: the first four units wrote at most 16 bytes.
                    unsafe { pack(bytes, index, out.add(written)) };
                    Some(written + usize::from(LENGTHS[index]))
                }
            }
        }

        /// The bytes of four single units that the target writes, all
        /// (`Plan::plain`), and the index of their shuffle.
        #[target_feature(enable = $features)]
        #[inline]
        fn plain_group(c: &Consts, v: L) -> (L, usize) {
            let (m, low) = lengths(&c.last, v);
            (forms((&c.lead, c.continuation), v, m), (bits(low) | bits(m[1]) << 4) as usize)
        }

        $crate::from_units::kernel::forms_fn!($features);
        $crate::from_units::kernel::group_fn!(, $features, |x| x);
    };
}
pub(crate) use from_units_kernel;

/// What a group's lanes are and make, where all are taken: their bytes
/// (`[lead, c2, c1, c0]`, as [`forms_fn`]'s, a pair's halves two each), and
/// per lane (bit `k` for lane `k`) the low bit of its length less one (set
/// for a pair's halves: they keep two bytes, as lengths of three), its high
/// bit, and whether it is a pair's first unit.
pub(crate) struct GroupForms<L> {
    pub(crate) bytes: L,
    pub(crate) low: u32,
    pub(crate) high: u32,
    pub(crate) firsts: u32,
}

/// Defines `group_forms(c, u, next, prev)` (visible as `$vis`), the work of a
/// group of lanes `u` (the units after each `next`, before each `prev`),
/// over the lane operations in scope (`forms_fn!`'s, and `within`, `join`,
/// `andnot`, `bits`) and the plan's vectors `c` made lanes by `$wide` (the
/// identity for the kernel's own lanes, a broadcast for `x86.rs`'s AVX2
/// groups of eight): [`GroupForms`], or `Err` with the bits of the lanes taken
/// and of the pairs' second units where a lane is refused.
macro_rules! group_fn {
    ($vis:vis, $features:literal, $wide:expr) => {
        /// What the lanes `u` are and make ([`GroupForms`]), or which are taken
        /// and which are pairs' second units where one is refused.
        #[target_feature(enable = $features)]
        #[inline]
        $vis fn group_forms(
            c: &Consts,
            u: L,
            next: L,
            prev: L,
        ) -> Result<$crate::from_units::kernel::GroupForms<L>, (u32, u32)> {
            let wide = $wide;
            let single = or(within(u, c.single[0]), within(u, c.single[1]));
            let (v, firsts, seconds) = match &c.pair {
                None => (u, splat(0), splat(0)),
                Some(p) => {
                    let firsts = and(within(u, p.high), within(next, p.low));
                    let seconds = and(within(u, p.low), within(prev, p.high));
                    let v = select(firsts, join(p, u, next), select(seconds, join(p, prev, u), u));
                    (v, firsts, seconds)
                }
            };
            let halves = or(firsts, seconds);
            let pairs = match &c.pair {
                Some(p) => and(halves, within(v, p.values)),
                None => halves,
            };
            let [m2, m3, m4] = c.last.map(|last| gt(v, wide(last)));
            let taken = and(
                and(or(within(v, c.allowed[0]), within(v, c.allowed[1])), within(v, c.forms)),
                or(single, and(pairs, m4)),
            );
            let ok = bits(taken);
            if ok != bits(splat(u32::MAX)) {
                return Err((ok, bits(seconds)));
            }
            let whole = forms((&c.lead.map(wide), wide(c.continuation)), v, [m2, m3, m4]);
            let bytes = select(firsts, shl::<16>(whole), select(seconds, and(whole, splat(0xFFFF_0000)), whole));
            // Lengths less one (2 for a pair's halves): the low bits are
            // the parity of the three comparisons, the high bits the second.
            let low = select(halves, splat(u32::MAX), xor(xor(m2, m3), m4));
            let high = andnot(m3, halves);
            Ok($crate::from_units::kernel::GroupForms { bytes, low: bits(low), high: bits(high), firsts: bits(firsts) })
        }
    };
}
pub(crate) use group_fn;

/// Defines `lengths` and `forms` over the lane operations in scope (`splat`,
/// `add`, `and`, `or`, `xor`, `gt`, `select`, `shl`, `shr`): for the
/// kernel's lanes and for wider ones (`x86.rs`'s AVX2 groups of eight).
macro_rules! forms_fn {
    ($features:literal) => {
        /// The lanes of `v` of two units or more, three or more, and four (by
        /// the forms' last values `last`), and the parity of the three: the
        /// low bit of each lane's length less one.
        #[target_feature(enable = $features)]
        #[inline]
        fn lengths(last: &[L; 3], v: L) -> ([L; 3], L) {
            let [m2, m3, m4] = last.map(|last| gt(v, last));
            ([m2, m3, m4], xor(xor(m2, m3), m4))
        }

        /// Each lane's form as `[lead, c2, c1, c0]` (`lead` the leads' bases
        /// by length, each in its byte, `continuation` the continuation
        /// units' base in the three low digits' bytes), its last `n` bytes the
        /// form (`m2`, `m3`, `m4`: the lanes of two units or more, three or
        /// more, four). The lead of `n` units is `lead[n − 1] + (v >> 6(n −
        /// 1))`, cut to a byte, in byte `4 − n`; every byte after it a
        /// continuation unit. The four shifts that place `v`'s digits in the
        /// bytes serve both.
        #[target_feature(enable = $features)]
        #[inline]
        fn forms((lead, continuation): (&[L; 4], L), v: L, [m2, m3, m4]: [L; 3]) -> L {
            let (a, b, d, e) = (shl::<24>(v), shl::<10>(v), shr::<4>(v), shr::<18>(v));
            let digits = or(or(and(a, splat(0x3F00_0000)), and(b, splat(0x003F_0000))), and(d, splat(0x3F00)));
            let digits = add(digits, continuation);
            let leads = select(
                m4,
                and(add(e, lead[3]), splat(0xFF)),
                select(
                    m3,
                    and(add(d, lead[2]), splat(0xFF00)),
                    select(m2, and(add(b, lead[1]), splat(0xFF_0000)), add(a, lead[0])),
                ),
            );
            let keep = or(or(and(m2, splat(0xFF00_0000)), and(m3, splat(0x00FF_0000))), and(m4, splat(0x0000_FF00)));
            or(and(digits, keep), leads)
        }
    };
}
pub(crate) use forms_fn;

/// Defines the kernel's `plain_wide`, `plain_wide16`, `group_wide` and
/// `bytes_wide32` for an instruction set without vectors wider than 16 bytes
/// (SSE4.1, NEON): they take nothing, and the kernel's groups of four and
/// steps of eight and sixteen do the work.
macro_rules! no_wider_vectors {
    () => {
        /// No wider vectors: the kernel's groups of four make the forms.
        #[inline]
        unsafe fn plain_wide(_: &Consts, _: B, _: *mut u8) -> Option<usize> {
            None
        }

        /// No wider vectors: the kernel takes eight units at a time.
        #[inline]
        unsafe fn plain_wide16(_: &Consts, _: B, _: B, _: *mut u8) -> Option<usize> {
            None
        }

        /// No wider vectors: the kernel narrows sixteen units a step.
        #[inline]
        unsafe fn bytes_wide32(_: &Consts, _: *const u8, _: usize, _: *mut u8) -> usize {
            0
        }

        /// No wider vectors: the kernel's groups of four take the units.
        #[inline]
        unsafe fn group_wide(_: &Consts, _: B, _: B, _: B, _: *mut u8) -> Option<(usize, bool)> {
            None
        }
    };
}
pub(crate) use no_wider_vectors;
