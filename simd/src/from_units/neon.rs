//! The kernel of `from_units/kernel.rs` for aarch64 NEON: the helpers it
//! needs, in NEON's operations, and its instantiation.

use core::arch::aarch64::*;

use super::lanes::{one_three_row, Plan, SHUFFLES, TWO_SHUFFLES};

type L = uint32x4_t;
type B = uint8x16_t;

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
    shift: int32x4_t,
}

/// The plan as vectors.
pub(crate) struct Consts {
    bytes: usize,
    big_endian: bool,
    single: [Range; 2],
    pair: Option<PairConsts>,
    allowed: [Range; 2],
    forms: Range,
    last: [L; 3],
    lead: [L; 4],
    continuation: L,
    /// `bytes_below`, and `lead[0]` in every 16-bit lane.
    below: Option<(u32, uint16x8_t)>,
    /// The single units' ranges in 16-bit lanes, where the plan is plain.
    plain: Option<[(uint16x8_t, uint16x8_t); 2]>,
    /// Where values of one and two units are made in 16-bit lanes: the last
    /// of one unit and of two, `lead[0]`, `lead[1]` and the continuation base
    /// above a byte, in every 16-bit lane.
    two: Option<[uint16x8_t; 5]>,
    /// Where a unit is written in one unit or three (`Plan::three`): the
    /// last of one unit, the least of three, `lead[0]` and `lead[2]` a byte
    /// up, and the continuation base in both bytes, in every 16-bit lane.
    one_three: Option<[uint16x8_t; 5]>,
}

/// The plan's constants.
#[target_feature(enable = "neon")]
pub(crate) fn consts(plan: &Plan) -> Consts {
    let range = |(lo, width): (u32, u32)| (vdupq_n_u32(lo), vdupq_n_u32(width));
    Consts {
        bytes: plan.bytes,
        big_endian: plan.big_endian,
        single: plan.single.map(range),
        pair: plan.pair.map(|p| PairConsts {
            high: range(p.high),
            low: range(p.low),
            values: range(p.values),
            bias: vdupq_n_u32(p.bias),
            high_base: vdupq_n_u32(p.high_base),
            low_base: vdupq_n_u32(p.low_base),
            shift: vdupq_n_s32(i32::from(p.low_bits)),
        }),
        allowed: plan.allowed.map(range),
        forms: range((plan.first, plan.top - plan.first)),
        last: plan.last.map(|l| vdupq_n_u32(l)),
        lead: [0, 1, 2, 3].map(|k| vdupq_n_u32(u32::from(plan.lead[k]) << (24 - 8 * k))),
        continuation: vdupq_n_u32(u32::from(plan.continuation) * 0x0101_0100),
        below: plan.bytes_below.map(|t| (t, vdupq_n_u16(u16::from(plan.lead[0])))),
        plain: plan.plain.then(|| plan.single16.map(|(lo, width)| (half(lo), half(width)))),
        two: plan.two.then(|| {
            let [l0, l1, ..] = plan.lead.map(u32::from);
            [half(plan.last[0]), half(plan.last[1]), half(l0), half(l1), half(u32::from(plan.continuation) << 8)]
        }),
        one_three: plan.three.map(|least| {
            let [l0, _, l2, _] = plan.lead.map(u32::from);
            let c = u32::from(plan.continuation);
            [half(plan.last[0]), half(least), half(l0 << 8), half(l2 << 8), half(c << 8 | c)]
        }),
    }
}

/// `x` (at most FFFF) in every 16-bit lane.
#[target_feature(enable = "neon")]
#[inline]
fn half(x: u32) -> uint16x8_t {
    vdupq_n_u16(x as u16)
}

/// Sixteen bytes at `p`, each unit's in the machine's order.
///
/// # Safety
/// `p .. p + 16` must be readable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn load(c: &Consts, p: *const u8) -> B {
    // SAFETY: the caller's guarantee; the load has no alignment requirement.
    let x = unsafe { vld1q_u8(p) };
    match (c.big_endian, c.bytes) {
        (false, _) => x,
        (true, 2) => vrev16q_u8(x),
        (true, _) => vrev32q_u8(x),
    }
}

#[target_feature(enable = "neon")]
#[inline]
fn splat(x: u32) -> L {
    vdupq_n_u32(x)
}
#[target_feature(enable = "neon")]
#[inline]
fn add(a: L, b: L) -> L {
    vaddq_u32(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn sub(a: L, b: L) -> L {
    vsubq_u32(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn and(a: L, b: L) -> L {
    vandq_u32(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn or(a: L, b: L) -> L {
    vorrq_u32(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn xor(a: L, b: L) -> L {
    veorq_u32(a, b)
}
/// `a & !b`.
#[target_feature(enable = "neon")]
#[inline]
fn andnot(a: L, b: L) -> L {
    vbicq_u32(a, b)
}
/// Unsigned `a > b`, as all-ones lanes.
#[target_feature(enable = "neon")]
#[inline]
fn gt(a: L, b: L) -> L {
    vcgtq_u32(a, b)
}
/// `a` where `mask` is set, else `b`.
#[target_feature(enable = "neon")]
#[inline]
fn select(mask: L, a: L, b: L) -> L {
    vbslq_u32(mask, a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn shl<const N: i32>(v: L) -> L {
    vshlq_n_u32::<N>(v)
}
#[target_feature(enable = "neon")]
#[inline]
fn shr<const N: i32>(v: L) -> L {
    vshrq_n_u32::<N>(v)
}
/// A bit per lane of an all-ones `mask` (lane `k` bit `k`).
#[target_feature(enable = "neon")]
#[inline]
fn bits(mask: L) -> u32 {
    let weights = [1u32, 2, 4, 8];
    // SAFETY: four readable words.
    vaddvq_u32(vandq_u32(mask, unsafe { vld1q_u32(weights.as_ptr()) }))
}
/// The lanes of `v` in the range, as all-ones lanes.
#[target_feature(enable = "neon")]
#[inline]
fn within(v: L, (lo, width): Range) -> L {
    vcleq_u32(vsubq_u32(v, lo), width)
}
/// A pair's value from its two units.
#[target_feature(enable = "neon")]
#[inline]
fn join(p: &PairConsts, high: L, low: L) -> L {
    let bits = vorrq_u32(vshlq_u32(sub(high, p.high_base), p.shift), sub(low, p.low_base));
    add(bits, p.bias)
}
/// The eight 16-bit units of `x` as two groups of 32-bit lanes.
#[target_feature(enable = "neon")]
#[inline]
fn halves(x: B) -> (L, L) {
    let x = vreinterpretq_u16_u8(x);
    (vmovl_u16(vget_low_u16(x)), vmovl_high_u16(x))
}
/// Four 32-bit units as lanes.
#[target_feature(enable = "neon")]
#[inline]
fn lanes(x: B) -> L {
    vreinterpretq_u32_u8(x)
}
/// The eight 32-bit units of `a` and `b` as 16-bit units, if all are below
/// 10000.
#[target_feature(enable = "neon")]
#[inline]
fn pack32(a: B, b: B) -> Option<B> {
    let (a, b) = (vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b));
    (vmaxvq_u32(vmaxq_u32(a, b)) <= 0xFFFF).then(|| vreinterpretq_u8_u16(vcombine_u16(vmovn_u32(a), vmovn_u32(b))))
}
/// Whether all sixteen 16-bit units of `x` and `y` are below `bytes_below`.
#[target_feature(enable = "neon")]
#[inline]
fn bytes16(c: &Consts, x: B, y: B) -> bool {
    let Some((t, _)) = c.below else { return false };
    u32::from(vmaxvq_u16(vmaxq_u16(vreinterpretq_u16_u8(x), vreinterpretq_u16_u8(y)))) <= t
}
/// Sixteen 16-bit units below `bytes_below` as their bytes.
///
/// # Safety
/// `out .. out + 16` must be writable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn narrow16(c: &Consts, x: B, y: B, out: *mut u8) {
    let lead = c.below.map_or(vdupq_n_u16(0), |(_, l)| l);
    let x = vaddq_u16(vreinterpretq_u16_u8(x), lead);
    let y = vaddq_u16(vreinterpretq_u16_u8(y), lead);
    // SAFETY: the caller's guarantee.
    unsafe { vst1q_u8(out, vcombine_u8(vmovn_u16(x), vmovn_u16(y))) };
}
/// What the eight 16-bit units of `x` are ([`Plain`]).
#[target_feature(enable = "neon")]
#[inline]
fn plain16(c: &Consts, x: B) -> Plain {
    let Some([a, b]) = c.plain else { return Plain::No };
    let x = vreinterpretq_u16_u8(x);
    let within = |(lo, width): (uint16x8_t, uint16x8_t)| vcleq_u16(vsubq_u16(x, lo), width);
    if vminvq_u16(vorrq_u16(within(a), within(b))) == 0 {
        return Plain::No;
    }
    match (c.two, c.one_three) {
        (Some([_, last, ..]), _) if vmaxvq_u16(x) <= vgetq_lane_u16::<0>(last) => Plain::Two,
        (_, Some([last, least, ..])) if vmaxvq_u16(vminq_u16(vqsubq_u16(x, last), vqsubq_u16(least, x))) == 0 => {
            Plain::OneThree
        }
        _ => Plain::Any,
    }
}
/// Eight 16-bit units of [`Plain::OneThree`] as their forms at `out`: the
/// bytes written, as `x86.rs`'s: leads and digits in 16-bit lanes, zipped
/// into the kernel's `[lead, c2, c1, c0]` bytes, packed four at a time.
///
/// # Safety
/// `out .. out + 28` must be writable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn pack_one_three(c: &Consts, x: B, out: *mut u8) -> usize {
    let Some([last, _, lead0, lead2, continuation]) = c.one_three else { return 0 };
    let x = vreinterpretq_u16_u8(x);
    let ones = vcleq_u16(x, last);
    let digits = vorrq_u16(
        vandq_u16(vshrq_n_u16::<6>(x), vdupq_n_u16(0x3F)),
        vandq_u16(vshlq_n_u16::<8>(x), vdupq_n_u16(0x3F00)),
    );
    let one = vaddq_u16(vshlq_n_u16::<8>(x), lead0);
    let hi = vbslq_u16(ones, one, vaddq_u16(digits, continuation));
    let lo = vaddq_u16(vshlq_n_u16::<8>(vshrq_n_u16::<12>(x)), lead2);
    let threes = bits16(vmvnq_u16(ones));
    let rows = [one_three_row(threes), one_three_row(threes >> 4)];
    let first = usize::from(LENGTHS[rows[0]]);
    // SAFETY: two 16-byte rows of the table; 16 bytes at `out` and at `out +
    // first`, `first <= 12`: within the caller's 28.
    unsafe {
        let pack = |v: uint16x8_t, row: usize| vqtbl1q_u8(vreinterpretq_u8_u16(v), vld1q_u8(SHUFFLES[row].as_ptr()));
        vst1q_u8(out, pack(vzip1q_u16(lo, hi), rows[0]));
        vst1q_u8(out.add(first), pack(vzip2q_u16(lo, hi), rows[1]));
    }
    first + usize::from(LENGTHS[rows[1]])
}
/// A bit per all-ones 16-bit lane of `mask` (lane `k` bit `k`).
#[target_feature(enable = "neon")]
#[inline]
fn bits16(mask: uint16x8_t) -> u32 {
    let weights = [1u16, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: eight readable halves.
    u32::from(vaddvq_u16(vandq_u16(mask, unsafe { vld1q_u16(weights.as_ptr()) })))
}
/// Eight 16-bit units of [`Plain::Two`] as their forms at `out`: the bytes
/// written.
///
/// # Safety
/// `out .. out + 16` must be writable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn pack_two(c: &Consts, x: B, out: *mut u8) -> usize {
    let Some([last, _, lead0, lead1, continuation]) = c.two else { return 0 };
    let x = vreinterpretq_u16_u8(x);
    let twos = vcgtq_u16(x, last);
    let low = vandq_u16(vshlq_n_u16::<8>(x), vdupq_n_u16(0x3F00));
    let lead = vandq_u16(vaddq_u16(vshrq_n_u16::<6>(x), lead1), vdupq_n_u16(0xFF));
    let two = vaddq_u16(vorrq_u16(low, lead), continuation);
    let one = vshlq_n_u16::<8>(vaddq_u16(x, lead0));
    let index = bits16(twos) as usize;
    // SAFETY: a 16-byte row of the table; the caller's guarantee.
    unsafe {
        let shuffle = vld1q_u8(TWO_SHUFFLES[index].as_ptr());
        vst1q_u8(out, vqtbl1q_u8(vreinterpretq_u8_u16(vbslq_u16(twos, two, one)), shuffle));
    }
    8 + index.count_ones() as usize
}
/// The lanes' forms, packed by the shuffle `index`, at `out`.
///
/// # Safety
/// `out .. out + 16` must be writable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn pack(bytes: L, index: usize, out: *mut u8) {
    // SAFETY: a 16-byte row of the table; the caller's guarantee.
    unsafe {
        let shuffle = vld1q_u8(SHUFFLES[index].as_ptr());
        vst1q_u8(out, vqtbl1q_u8(vreinterpretq_u8_u32(bytes), shuffle));
    }
}

crate::from_units::kernel::no_wider_vectors!();

crate::from_units::kernel::from_units_kernel!("neon");
