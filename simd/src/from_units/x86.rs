//! The kernel of `from_units/kernel.rs` for x86-64, instantiated twice: for
//! SSE4.1 (`sse41`) and for AVX2 (`avx2`: the same 16-byte lanes, in the
//! three-operand encoding, where the machine has it).

use core::arch::x86_64::*;

use super::lanes::{one_three_row, Plan, SHUFFLES, TWO_SHUFFLES};

/// The helpers `kernel.rs` needs, for `$features`.
macro_rules! helpers {
    ($features:literal) => {
        use super::*;

        type L = __m128i;
        type B = __m128i;

        /// A range test: low end and width in every lane.
        type Range = (L, L);

        /// A pair's units and values, as vectors.
        pub(crate) struct PairConsts {
            high: Range,
            low: Range,
            values: Range,
            bias: L,
            high_base: L,
            low_base: L,
            shift: __m128i,
        }

        /// The plan as vectors.
        pub(crate) struct Consts {
            bytes: usize,
            swap: Option<B>,
            single: [Range; 2],
            pair: Option<PairConsts>,
            allowed: [Range; 2],
            forms: Range,
            last: [L; 3],
            lead: [L; 4],
            continuation: L,
            /// `bytes_below` in every 16-bit lane, and `lead[0]`.
            below: Option<(B, B)>,
            /// The single units' ranges in 16-bit lanes, where the plan is plain.
            plain: Option<[Range; 2]>,
            /// Where values of one and two units are made in 16-bit lanes: the
            /// last of one unit and of two, `lead[0]`, `lead[1]` and the
            /// continuation base above a byte, in every 16-bit lane.
            two: Option<[B; 5]>,
            /// Where a unit is written in one unit or three (`Plan::three`):
            /// the last of one unit, the least of three, `lead[0]` and
            /// `lead[2]` a byte up, and the continuation base in both bytes,
            /// in every 16-bit lane.
            one_three: Option<[B; 5]>,
        }

        /// The plan's constants.
        #[target_feature(enable = $features)]
        pub(crate) fn consts(plan: &Plan) -> Consts {
            let range = |(lo, width): (u32, u32)| (splat(lo), splat(width));
            let swap: [u8; 16] = core::array::from_fn(|k| (k ^ (plan.bytes - 1)) as u8);
            Consts {
                bytes: plan.bytes,
                // SAFETY: 16 readable bytes.
                swap: plan.big_endian.then(|| unsafe { _mm_loadu_si128(swap.as_ptr().cast()) }),
                single: plan.single.map(range),
                pair: plan.pair.map(|p| PairConsts {
                    high: range(p.high),
                    low: range(p.low),
                    values: range(p.values),
                    bias: splat(p.bias),
                    high_base: splat(p.high_base),
                    low_base: splat(p.low_base),
                    shift: _mm_cvtsi32_si128(i32::from(p.low_bits)),
                }),
                allowed: plan.allowed.map(range),
                forms: range((plan.first, plan.top - plan.first)),
                last: plan.last.map(|l| splat(l)),
                lead: [0, 1, 2, 3].map(|k| splat(u32::from(plan.lead[k]) << (24 - 8 * k))),
                continuation: splat(u32::from(plan.continuation) * 0x0101_0100),
                below: plan.bytes_below.map(|t| (half(t), half(u32::from(plan.lead[0])))),
                plain: plan.plain.then(|| plan.single16.map(|(lo, width)| (half(lo), half(width)))),
                two: plan.two.then(|| {
                    let [l0, l1, ..] = plan.lead.map(u32::from);
                    [
                        half(plan.last[0]),
                        half(plan.last[1]),
                        half(l0),
                        half(l1),
                        half(u32::from(plan.continuation) << 8),
                    ]
                }),
                one_three: plan.three.map(|least| {
                    let [l0, _, l2, _] = plan.lead.map(u32::from);
                    let c = u32::from(plan.continuation);
                    [half(plan.last[0]), half(least), half(l0 << 8), half(l2 << 8), half(c << 8 | c)]
                }),
            }
        }

        /// `x` (at most FFFF) in every 16-bit lane.
        #[target_feature(enable = $features)]
        #[inline]
        fn half(x: u32) -> B {
            _mm_set1_epi16(x as u16 as i16)
        }

        /// Sixteen bytes at `p`, each unit's in the machine's order.
        ///
        /// # Safety
        /// `p .. p + 16` must be readable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn load(c: &Consts, p: *const u8) -> B {
            // SAFETY: the caller's guarantee; the load is unaligned.
            let x = unsafe { _mm_loadu_si128(p.cast()) };
            c.swap.map_or(x, |s| _mm_shuffle_epi8(x, s))
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn splat(x: u32) -> L {
            _mm_set1_epi32(x as i32)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn add(a: L, b: L) -> L {
            _mm_add_epi32(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn sub(a: L, b: L) -> L {
            _mm_sub_epi32(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn and(a: L, b: L) -> L {
            _mm_and_si128(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn or(a: L, b: L) -> L {
            _mm_or_si128(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn xor(a: L, b: L) -> L {
            _mm_xor_si128(a, b)
        }
        /// `a & !b`.
        #[target_feature(enable = $features)]
        #[inline]
        fn andnot(a: L, b: L) -> L {
            _mm_andnot_si128(b, a)
        }
        /// `a > b`, as all-ones lanes, for lanes below 2^31 (the values
        /// the forms write, and the plan's last values).
        #[target_feature(enable = $features)]
        #[inline]
        fn gt(a: L, b: L) -> L {
            _mm_cmpgt_epi32(a, b)
        }
        /// `a` where `mask` is set, else `b`.
        #[target_feature(enable = $features)]
        #[inline]
        fn select(mask: L, a: L, b: L) -> L {
            _mm_blendv_epi8(b, a, mask)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn shl<const N: i32>(v: L) -> L {
            _mm_slli_epi32::<N>(v)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn shr<const N: i32>(v: L) -> L {
            _mm_srli_epi32::<N>(v)
        }
        /// A bit per lane of `mask` (lane `k` bit `k`).
        #[target_feature(enable = $features)]
        #[inline]
        fn bits(mask: L) -> u32 {
            _mm_movemask_ps(_mm_castsi128_ps(mask)) as u32
        }
        /// The lanes of `v` in the range, as all-ones lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn within(v: L, (lo, width): Range) -> L {
            let d = _mm_sub_epi32(v, lo);
            _mm_cmpeq_epi32(_mm_min_epu32(d, width), d)
        }
        /// A pair's value from its two units.
        #[target_feature(enable = $features)]
        #[inline]
        fn join(p: &PairConsts, high: L, low: L) -> L {
            let bits = _mm_or_si128(_mm_sll_epi32(sub(high, p.high_base), p.shift), sub(low, p.low_base));
            add(bits, p.bias)
        }
        /// The eight 16-bit units of `x` as two groups of 32-bit lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn halves(x: B) -> (L, L) {
            (_mm_cvtepu16_epi32(x), _mm_cvtepu16_epi32(_mm_srli_si128::<8>(x)))
        }
        /// Four 32-bit units as lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn lanes(x: B) -> L {
            x
        }
        /// The eight 32-bit units of `a` and `b` as 16-bit units, if all are
        /// below 10000.
        #[target_feature(enable = $features)]
        #[inline]
        fn pack32(a: B, b: B) -> Option<B> {
            let high = _mm_set1_epi32(0xFFFF_0000u32 as i32);
            (_mm_testz_si128(_mm_or_si128(a, b), high) == 1).then(|| _mm_packus_epi32(a, b))
        }
        /// Whether all sixteen 16-bit units of `x` and `y` are below `bytes_below`.
        #[target_feature(enable = $features)]
        #[inline]
        fn bytes16(c: &Consts, x: B, y: B) -> bool {
            let Some((t, _)) = c.below else { return false };
            let over = _mm_or_si128(_mm_subs_epu16(x, t), _mm_subs_epu16(y, t));
            _mm_testz_si128(over, over) == 1
        }
        /// Sixteen 16-bit units below `bytes_below` as their bytes.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn narrow16(c: &Consts, x: B, y: B, out: *mut u8) {
            let lead = c.below.map_or(_mm_setzero_si128(), |(_, l)| l);
            let byte = _mm_set1_epi16(0xFF);
            let (x, y) = (_mm_and_si128(_mm_add_epi16(x, lead), byte), _mm_and_si128(_mm_add_epi16(y, lead), byte));
            // SAFETY: the caller's guarantee.
            unsafe { _mm_storeu_si128(out.cast(), _mm_packus_epi16(x, y)) };
        }
        /// What the eight 16-bit units of `x` are ([`Plain`]).
        #[target_feature(enable = $features)]
        #[inline]
        fn plain16(c: &Consts, x: B) -> Plain {
            let Some([a, b]) = c.plain else { return Plain::No };
            let within = |(lo, width): Range| {
                let d = _mm_sub_epi16(x, lo);
                _mm_cmpeq_epi16(_mm_min_epu16(d, width), d)
            };
            if _mm_movemask_epi8(_mm_or_si128(within(a), within(b))) != 0xFFFF {
                return Plain::No;
            }
            let ones = _mm_set1_epi8(-1);
            match (c.two, c.one_three) {
                (Some([_, last, ..]), _) if _mm_testz_si128(_mm_subs_epu16(x, last), ones) == 1 => Plain::Two,
                (_, Some([last, least, ..])) if one_or_three(x, last, least) => Plain::OneThree,
                _ => Plain::Any,
            }
        }
        /// Whether every 16-bit unit of `x` is at most `last` or at least `least`.
        #[target_feature(enable = $features)]
        #[inline]
        fn one_or_three(x: B, last: B, least: B) -> bool {
            let short = _mm_min_epu16(_mm_subs_epu16(x, last), _mm_subs_epu16(least, x));
            _mm_testz_si128(short, short) == 1
        }
        /// Eight 16-bit units of [`Plain::OneThree`] as their forms at `out`:
        /// the bytes written. Each 16-bit lane makes its lead (`lo`) and its
        /// two digits (`hi`, or its one byte) with fixed shifts; the lanes,
        /// interleaved, are the kernel's `[lead, c2, c1, c0]` bytes, four
        /// units a vector, each four packed by the row of its lengths.
        ///
        /// # Safety
        /// `out .. out + 28` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn pack_one_three(c: &Consts, x: B, out: *mut u8) -> usize {
            let Some([last, _, lead0, lead2, continuation]) = c.one_three else { return 0 };
            let ones = _mm_cmpeq_epi16(_mm_subs_epu16(x, last), _mm_setzero_si128());
            let digits = _mm_or_si128(
                _mm_and_si128(_mm_srli_epi16::<6>(x), _mm_set1_epi16(0x3F)),
                _mm_and_si128(_mm_slli_epi16::<8>(x), _mm_set1_epi16(0x3F00)),
            );
            let one = _mm_add_epi16(_mm_slli_epi16::<8>(x), lead0);
            let hi = _mm_blendv_epi8(_mm_add_epi16(digits, continuation), one, ones);
            let lo = _mm_add_epi16(_mm_slli_epi16::<8>(_mm_srli_epi16::<12>(x)), lead2);
            let threes = !(_mm_movemask_epi8(_mm_packs_epi16(ones, ones)) as u32);
            let rows = [one_three_row(threes), one_three_row(threes >> 4)];
            let first = usize::from(LENGTHS[rows[0]]);
            // SAFETY: two 16-byte rows of the table; 16 bytes at `out` and at
            // `out + first`, `first <= 12`: within the caller's 28.
            unsafe {
                let shuffle = |v, row: usize| _mm_shuffle_epi8(v, _mm_loadu_si128(SHUFFLES[row].as_ptr().cast()));
                _mm_storeu_si128(out.cast(), shuffle(_mm_unpacklo_epi16(lo, hi), rows[0]));
                _mm_storeu_si128(out.add(first).cast(), shuffle(_mm_unpackhi_epi16(lo, hi), rows[1]));
            }
            first + usize::from(LENGTHS[rows[1]])
        }
        /// Eight 16-bit units of [`Plain::Two`] as their forms at `out`: the
        /// bytes written.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn pack_two(c: &Consts, x: B, out: *mut u8) -> usize {
            let Some([last, _, lead0, lead1, continuation]) = c.two else { return 0 };
            // (Units at most the second length's last, below 8000: signed.)
            let twos = _mm_cmpgt_epi16(x, last);
            let low = _mm_and_si128(_mm_slli_epi16::<8>(x), _mm_set1_epi16(0x3F00));
            let lead = _mm_and_si128(_mm_add_epi16(_mm_srli_epi16::<6>(x), lead1), _mm_set1_epi16(0xFF));
            let two = _mm_add_epi16(_mm_or_si128(low, lead), continuation);
            let one = _mm_slli_epi16::<8>(_mm_add_epi16(x, lead0));
            let index = _mm_movemask_epi8(_mm_packs_epi16(twos, twos)) as usize & 0xFF;
            // SAFETY: a 16-byte row of the table; the caller's guarantee.
            unsafe {
                let shuffle = _mm_loadu_si128(TWO_SHUFFLES[index].as_ptr().cast());
                _mm_storeu_si128(out.cast(), _mm_shuffle_epi8(_mm_blendv_epi8(one, two, twos), shuffle));
            }
            8 + index.count_ones() as usize
        }
        /// The lanes' forms, packed by the shuffle `index`, at `out`.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn pack(bytes: L, index: usize, out: *mut u8) {
            // SAFETY: a 16-byte row of the table; the caller's guarantee.
            unsafe {
                let shuffle = _mm_loadu_si128(SHUFFLES[index].as_ptr().cast());
                _mm_storeu_si128(out.cast(), _mm_shuffle_epi8(bytes, shuffle));
            }
        }

        crate::from_units::kernel::from_units_kernel!($features);
    };
}

/// The kernel with SSSE3 and SSE4.1.
pub(super) mod sse41 {
    helpers!("ssse3,sse4.1");
    crate::from_units::kernel::no_wider_vectors!();
}

/// The kernel with AVX2: its groups of four in 16-byte vectors, but eight
/// single units that are plain (`Plain::Any`) in one 32-byte vector.
pub(super) mod avx2 {
    helpers!("avx2");

    /// Eight single units (`x`, of `Plain::Any`) as their forms at `out`: the
    /// bytes written.
    ///
    /// # Safety
    /// `out .. out + 32` must be writable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn plain_wide(c: &Consts, x: B, out: *mut u8) -> Option<usize> {
        // SAFETY: the caller's guarantee.
        Some(unsafe { wide::plain8(c, x, out) })
    }

    /// Sixteen 16-bit units (`x`, then `y`), if all are single units the
    /// target writes (`Plain`), told apart in one 32-byte vector and written
    /// as their forms at `out`: in 16-bit lanes where each takes one or two
    /// units, or one or three (the kernel's `pack_one_three`, eight at a
    /// time), else eight at a time in 32-bit lanes: the bytes written.
    ///
    /// # Safety
    /// `out .. out + 64` must be writable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn plain_wide16(c: &Consts, x: B, y: B, out: *mut u8) -> Option<usize> {
        let [a, b] = c.plain?;
        let v = _mm256_set_m128i(y, x);
        let wide = |l| wide::wide(l);
        let within = |(lo, width): Range| {
            let d = _mm256_sub_epi16(v, wide(lo));
            _mm256_cmpeq_epi16(_mm256_min_epu16(d, wide(width)), d)
        };
        if _mm256_movemask_epi8(_mm256_or_si256(within(a), within(b))) != -1 {
            return None;
        }
        // Whether all sixteen take one or two units each.
        let two = c.two.is_some_and(|[_, last, ..]| {
            let over = _mm256_subs_epu16(v, wide(last));
            _mm256_testz_si256(over, over) == 1
        });
        // SAFETY (all arms): 32 bytes at `out`, and 32 more after what the
        // first eight wrote (at most 32), within the caller's 64; `one_three`
        // asks for 52.
        Some(unsafe {
            if two {
                wide::pack_two(c, v, out)
            } else if let Some(written) = wide::one_three(c, v, x, y, out) {
                written
            } else {
                let first = wide::plain8(c, x, out);
                first + wide::plain8(c, y, out.add(first))
            }
        })
    }

    /// Eight 16-bit units `x` (the unit after each in `next`, before each in
    /// `prev`), if the kernel's groups would take all eight, told apart and
    /// made in one 32-byte vector and written at `out`: the bytes written and
    /// whether the last is a pair's first unit.
    ///
    /// # Safety
    /// `out .. out + 32` must be writable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn group_wide(c: &Consts, x: B, next: B, prev: B, out: *mut u8) -> Option<(usize, bool)> {
        let lanes = |b: B| _mm256_cvtepu16_epi32(b);
        let GroupForms { bytes, low, high, firsts } = wide::group_forms(c, lanes(x), lanes(next), lanes(prev)).ok()?;
        #[cfg(all(test, feature = "std"))]
        GROUPS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's guarantee.
        Some((unsafe { wide::pack(bytes, low, high, out) }, firsts & 0x80 != 0))
    }

    /// Sixteen 32-bit units at a time from `p`, for up to `steps` steps,
    /// while all are below `bytes_below`, as their bytes at `out`: the units
    /// taken (as many as the bytes written).
    ///
    /// # Safety
    /// `p .. p + 64 steps` must be readable and `out .. out + 16 steps`
    /// writable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn bytes_wide32(c: &Consts, p: *const u8, steps: usize, out: *mut u8) -> usize {
        let Some((below, lead)) = c.below else { return 0 };
        let (below, lead) = (_mm256_cvtepu16_epi32(below), _mm_packus_epi16(lead, lead));
        let swap = c.swap.map(|s| wide::wide(s));
        // Each half's two 4-byte groups of `a`'s units and `b`'s, in order.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5);
        let mut k = 0;
        while k < steps {
            // SAFETY: 64 bytes of step `k`, readable by the caller's guarantee.
            let [a, b] = [0, 32].map(|at| unsafe { _mm256_loadu_si256(p.add(64 * k + at).cast()) });
            let [a, b] = [a, b].map(|x| swap.map_or(x, |s| _mm256_shuffle_epi8(x, s)));
            let most = _mm256_max_epu32(a, b);
            let over = _mm256_xor_si256(_mm256_min_epu32(most, below), most);
            if _mm256_testz_si256(over, over) == 0 {
                break;
            }
            let bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_setzero_si256());
            let bytes = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(bytes, order));
            // SAFETY: 16 bytes of step `k`, writable by the caller's guarantee.
            unsafe { _mm_storeu_si128(out.add(16 * k).cast(), _mm_add_epi8(bytes, lead)) };
            k += 1;
        }
        #[cfg(all(test, feature = "std"))]
        BYTES32.with(|n| n.set(n.get() + k));
        16 * k
    }

    #[cfg(all(test, feature = "std"))]
    std::thread_local! {
        /// The steps of sixteen 32-bit units narrowed to bytes in 32-byte
        /// vectors on this thread.
        pub(crate) static BYTES32: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
        /// The groups of eight single units made in 32-byte vectors on this
        /// thread, for the tests that check they do the work.
        pub(crate) static WIDE: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
        /// The groups of eight units of any kind (pairs too) made in 32-byte
        /// vectors on this thread.
        pub(crate) static GROUPS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
        /// The steps of sixteen units of one or three units each made in
        /// 16-bit lanes on this thread.
        pub(crate) static ONE_THREES: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    /// The forms of eight lanes at once, in 32-byte vectors: the kernel's
    /// `forms` and `group_forms` over the same lane operations, twice as wide.
    mod wide {
        use core::arch::x86_64::*;

        use super::{Consts, PairConsts, Range, B};
        use crate::from_units::lanes::{LENGTHS, SHUFFLES, TWO_SHUFFLES};
        use crate::shared::ONES;

        type L = __m256i;

        /// Eight single units as their forms at `out` (16 bytes at most per
        /// four): the bytes written.
        ///
        /// # Safety
        /// `out .. out + 32` must be writable.
        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) unsafe fn plain8(c: &Consts, x: B, out: *mut u8) -> usize {
            #[cfg(all(test, feature = "std"))]
            super::WIDE.with(|n| n.set(n.get() + 1));
            let v = _mm256_cvtepu16_epi32(x);
            let (m, low) = lengths(&c.last.map(|l| wide(l)), v);
            let bytes = forms((&c.lead.map(|l| wide(l)), wide(c.continuation)), v, m);
            // SAFETY: the caller's guarantee.
            unsafe { pack(bytes, bits(low), bits(m[1]), out) }
        }

        /// Sixteen 16-bit units that are single units the target writes
        /// (`v`: `x`, then `y`; checked by the caller), if each is written in
        /// one unit or in three (`Plan::three`: Hangul or Han between spaces
        /// and ASCII punctuation), told apart in one vector and written as
        /// their forms at `out` by the kernel's `pack_one_three`, eight at a
        /// time: the bytes written.
        ///
        /// # Safety
        /// `out .. out + 52` must be writable.
        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) unsafe fn one_three(c: &Consts, v: L, x: B, y: B, out: *mut u8) -> Option<usize> {
            let [last, least, ..] = c.one_three?.map(|l| wide(l));
            let short = _mm256_min_epu16(_mm256_subs_epu16(v, last), _mm256_subs_epu16(least, v));
            if _mm256_testz_si256(short, short) == 0 {
                return None;
            }
            #[cfg(all(test, feature = "std"))]
            super::ONE_THREES.with(|n| n.set(n.get() + 1));
            // SAFETY: 28 bytes at `out`, and 28 after the first eight's 24 at
            // most: within the caller's 52.
            unsafe {
                let first = super::pack_one_three(c, x, out);
                Some(first + super::pack_one_three(c, y, out.add(first)))
            }
        }

        /// The eight lanes' forms `bytes`, each half's four packed as the
        /// kernel's groups (by the low and high bits of their lengths less
        /// one, `low` and `high`), at `out`: the bytes written.
        ///
        /// # Safety
        /// `out .. out + 32` must be writable.
        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) unsafe fn pack(bytes: L, low: u32, high: u32, out: *mut u8) -> usize {
            let index = [(low & 15 | (high & 15) << 4) as usize, (low >> 4 | (high >> 4) << 4) as usize];
            // SAFETY: two 16-byte rows of the table.
            let rows =
                unsafe { _mm256_loadu2_m128i(SHUFFLES[index[1]].as_ptr().cast(), SHUFFLES[index[0]].as_ptr().cast()) };
            let packed = _mm256_shuffle_epi8(bytes, rows);
            let first = usize::from(LENGTHS[index[0]]);
            // SAFETY: 16 bytes at `out` and at `out + first`, `first <= 16`:
            // within the caller's 32.
            unsafe {
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed));
                _mm_storeu_si128(out.add(first).cast(), _mm256_extracti128_si256::<1>(packed));
            }
            first + usize::from(LENGTHS[index[1]])
        }

        /// Sixteen 16-bit units of `Plain::Two` (eight of `x` low, eight of
        /// `y` high) as their forms at `out`, as the kernel's `pack_two` makes
        /// eight: the bytes written.
        ///
        /// # Safety
        /// `out .. out + 32` must be writable.
        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) unsafe fn pack_two(c: &Consts, v: L, out: *mut u8) -> usize {
            let Some([last, _, lead0, lead1, continuation]) = c.two else { return 0 };
            // (Units at most the second length's last, below 8000: signed.)
            let twos = _mm256_cmpgt_epi16(v, wide(last));
            let low = _mm256_and_si256(_mm256_slli_epi16::<8>(v), _mm256_set1_epi16(0x3F00));
            let lead =
                _mm256_and_si256(_mm256_add_epi16(_mm256_srli_epi16::<6>(v), wide(lead1)), _mm256_set1_epi16(0xFF));
            let two = _mm256_add_epi16(_mm256_or_si256(low, lead), wide(continuation));
            let one = _mm256_slli_epi16::<8>(_mm256_add_epi16(v, wide(lead0)));
            // The lanes of two bytes, a byte each, per half: bits 0–7 and 16–23.
            let twos_bits = _mm256_movemask_epi8(_mm256_packs_epi16(twos, twos)) as u32;
            let index = [(twos_bits & 0xFF) as usize, (twos_bits >> 16 & 0xFF) as usize];
            // SAFETY: two 16-byte rows of the table.
            let rows = unsafe {
                _mm256_loadu2_m128i(TWO_SHUFFLES[index[1]].as_ptr().cast(), TWO_SHUFFLES[index[0]].as_ptr().cast())
            };
            let packed = _mm256_shuffle_epi8(_mm256_blendv_epi8(one, two, twos), rows);
            let first = 8 + usize::from(ONES[index[0]]);
            // SAFETY: 16 bytes at `out` and at `out + first`, `first <= 16`:
            // within the caller's 32.
            unsafe {
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed));
                _mm_storeu_si128(out.add(first).cast(), _mm256_extracti128_si256::<1>(packed));
            }
            first + 8 + usize::from(ONES[index[1]])
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        fn splat(x: u32) -> L {
            _mm256_set1_epi32(x as i32)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn add(a: L, b: L) -> L {
            _mm256_add_epi32(a, b)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn and(a: L, b: L) -> L {
            _mm256_and_si256(a, b)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn or(a: L, b: L) -> L {
            _mm256_or_si256(a, b)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn xor(a: L, b: L) -> L {
            _mm256_xor_si256(a, b)
        }
        /// `a > b` for lanes below 2^31, as the kernel's.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn gt(a: L, b: L) -> L {
            _mm256_cmpgt_epi32(a, b)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn select(mask: L, a: L, b: L) -> L {
            _mm256_blendv_epi8(b, a, mask)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn shl<const N: i32>(v: L) -> L {
            _mm256_slli_epi32::<N>(v)
        }
        #[target_feature(enable = "avx2")]
        #[inline]
        fn shr<const N: i32>(v: L) -> L {
            _mm256_srli_epi32::<N>(v)
        }
        /// `a & !b`.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn andnot(a: L, b: L) -> L {
            _mm256_andnot_si256(b, a)
        }
        /// A bit per lane of `mask` (lane `k` bit `k`).
        #[target_feature(enable = "avx2")]
        #[inline]
        fn bits(mask: L) -> u32 {
            _mm256_movemask_ps(_mm256_castsi256_ps(mask)) as u32
        }
        /// One of the plan's vectors in both halves.
        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn wide(l: B) -> L {
            _mm256_broadcastsi128_si256(l)
        }
        /// The lanes of `v` in the range, as all-ones lanes.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn within(v: L, (lo, width): Range) -> L {
            let d = _mm256_sub_epi32(v, wide(lo));
            _mm256_cmpeq_epi32(_mm256_min_epu32(d, wide(width)), d)
        }
        /// A pair's value from its two units.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn join(p: &PairConsts, high: L, low: L) -> L {
            let high = _mm256_sll_epi32(_mm256_sub_epi32(high, wide(p.high_base)), p.shift);
            add(_mm256_or_si256(high, _mm256_sub_epi32(low, wide(p.low_base))), wide(p.bias))
        }

        crate::from_units::kernel::forms_fn!("avx2");
        crate::from_units::kernel::group_fn!(pub(super), "avx2", |l| wide(l));
    }
}
