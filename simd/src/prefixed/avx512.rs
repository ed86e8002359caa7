//! The AVX-512 kernel of [`super::decode_prefixed`]: each unit's length by
//! one byte shuffle, the starts by the shared chain
//! ([`super::chain::chain_starts`]), and the values eight at a time, each
//! position's eight units laid out as a big-endian word by one two-table
//! byte permutation and its tag's shift, mask, bias and range picked from
//! sixteen-entry tables.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::chain::{blocks, chain_starts, Block};
use super::{Slot, Tags, PREFIXED_TAIL};

/// The tags' tables as vectors.
struct Consts {
    /// Each unit's length less one, by tag (0 for a tag with none), in
    /// every 128-bit lane.
    lengths: __m512i,
    /// Keeps the tag's bits of each unit once shifted down.
    tag_bits: __m512i,
    /// The tag's shift within a unit.
    shift: __m128i,
    /// The tag's shift within a big-endian word.
    top: __m128i,
    /// For each tag, sixteen words in two vectors: its length's shift from
    /// a big-endian word of eight units to the value's units, payload mask,
    /// bias and range (a tag without values: a range no value is in).
    right: [__m512i; 2],
    mask: [__m512i; 2],
    bias: [__m512i; 2],
    lo: [__m512i; 2],
    hi: [__m512i; 2],
}

impl Consts {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new(t: &Tags) -> Consts {
        let count = t.count();
        // (Generic, not `&dyn Fn`: built at every call, the five tables
        // through a dynamic call per entry were a twentieth of a 4 KiB push
        // of QUIC varints.)
        let per_tag = |f: fn(&Tags, usize) -> u64| {
            let mut words = [0u64; 16];
            for (tag, w) in words.iter_mut().enumerate().take(count) {
                *w = f(t, tag);
            }
            // SAFETY: 64 readable bytes each; the loads are unaligned.
            unsafe { [0, 8].map(|k| _mm512_loadu_si512(words[k..].as_ptr().cast())) }
        };
        let lengths: [u8; 16] = core::array::from_fn(|tag| t.lengths[tag].saturating_sub(1));
        Consts {
            // SAFETY: 16 readable bytes.
            lengths: _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(lengths.as_ptr().cast()) }),
            tag_bits: _mm512_set1_epi8((0xFF >> t.shift) as i8),
            shift: _mm_cvtsi32_si128(i32::from(t.shift)),
            top: _mm_cvtsi32_si128(56 + i32::from(t.shift)),
            right: per_tag(|t, tag| 64 - 8 * u64::from(t.lengths[tag].max(1))),
            mask: per_tag(|t, tag| t.payload_mask(tag)),
            bias: per_tag(|t, tag| t.bias[tag]),
            lo: per_tag(|t, tag| if t.lengths[tag] != 0 { t.lo[tag] } else { u64::MAX }),
            hi: per_tag(|t, tag| if t.lengths[tag] != 0 { t.hi[tag] } else { 0 }),
        }
    }
}

/// The kernel, taking each value the tags do not decode by `other`;
/// `WHOLE` is [`Tags::whole`].
///
/// # Safety
/// The machine has AVX-512 F, BW, VL, VBMI and VBMI2, BMI1 and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>, const WHOLE: bool>(
    tags: &Tags,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    let c = Consts::new(tags);
    blocks(input, out, other, |units, out| {
        // SAFETY: the machine has the features this function enables.
        unsafe { block::<T, WHOLE>(&c, units, out) }
    })
}

/// One block of [`run`].
///
/// # Safety
/// As [`run`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn block<T: Slot, const WHOLE: bool>(
    c: &Consts,
    units: &[u8; PREFIXED_TAIL],
    out: &mut [MaybeUninit<T>],
) -> Block {
    // SAFETY: 72 readable bytes: 64, and the 8 after them (masked).
    let (x, after) = unsafe {
        let p = units.as_ptr();
        (_mm512_loadu_si512(p.cast()), _mm512_maskz_loadu_epi8(0xFF, p.add(64).cast()))
    };
    let tag = _mm512_and_si512(_mm512_srl_epi16(x, c.shift), c.tag_bits);
    let less_one = _mm512_shuffle_epi8(c.lengths, tag);
    // Each pair's lengths as one number below 64: `(a − 1) + 8 (b − 1)`.
    let pairs = _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(less_one, _mm512_set1_epi16(0x0801)));
    let mut index = [0u8; 32];
    // SAFETY: 32 writable bytes.
    unsafe { _mm256_storeu_si256(index.as_mut_ptr().cast(), pairs) };
    let (starts, taken) = chain_starts(&index, |word| _pext_u64(word, 0xC0C0_C0C0_C0C0_C0C0));
    let (wrote, stop) = values::<T, WHOLE>(c, x, after, starts, out);
    (wrote, stop, taken)
}

/// Writes the values starting at `starts` in `units` (followed by `after`)
/// into `out`, eight at a time: how many, and where the first not written
/// starts, if `out` filled or a value is not the tags' to decode.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
#[inline]
fn values<T: Slot, const WHOLE: bool>(
    c: &Consts,
    units: __m512i,
    after: __m512i,
    starts: u64,
    out: &mut [MaybeUninit<T>],
) -> (usize, Option<usize>) {
    by_eights((units, after), starts, out, |_, word| {
        let tag = _mm512_srl_epi64(word, c.top);
        let pick = |t: &[__m512i; 2]| _mm512_permutex2var_epi64(t[0], tag, t[1]);
        let mut v = _mm512_and_si512(_mm512_srlv_epi64(word, pick(&c.right)), pick(&c.mask));
        let mut ok = u8::MAX;
        if !WHOLE {
            let bias = pick(&c.bias);
            v = _mm512_add_epi64(v, bias);
            // In range, and the bias added without wrapping.
            ok = _mm512_cmpge_epu64_mask(v, pick(&c.lo))
                & _mm512_cmple_epu64_mask(v, pick(&c.hi))
                & _mm512_cmpge_epu64_mask(v, bias);
        }
        (v, ok)
    })
}

/// The loop of the AVX-512 readers of values by their starts (this file's
/// and `lead_forms.rs`'s): the starts among `units` (64, and the eight
/// after) compressed into positions, then eight at a time each start's
/// eight units laid out as a big-endian word (`vpermt2b`), made into
/// values by `value` (given each lane's start in all its bytes, and the
/// word: the values and those that are the kernel's), and stored up to the
/// first that is not or until `out` is full: how many, and where the first
/// not written starts, if the loop stopped before the starts ended.
///
/// Inlined into each kernel, so that its target features and its `value`
/// are compiled into one loop.
#[inline(always)]
pub(super) fn by_eights<T: Slot>(
    (units, after): (__m512i, __m512i),
    starts: u64,
    out: &mut [MaybeUninit<T>],
    mut value: impl FnMut(__m512i, __m512i) -> (__m512i, u8),
) -> (usize, Option<usize>) {
    // SAFETY: the kernels that inline this loop have AVX-512 F, BW, VL and
    // VBMI2, which the intrinsics need; the stores write `keep` slots within
    // `out` and 64 bytes of `positions`, as said where they are.
    unsafe {
        let iota = _mm512_set_epi8(
            63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37,
            36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
            9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        );
        // Byte `8 l + b` of a word: lane `l`'s start, unit `7 − b` after it.
        let lane = _mm512_set_epi64(
            0x0707_0707_0707_0707,
            0x0606_0606_0606_0606,
            0x0505_0505_0505_0505,
            0x0404_0404_0404_0404,
            0x0303_0303_0303_0303,
            0x0202_0202_0202_0202,
            0x0101_0101_0101_0101,
            0,
        );
        let big_endian = _mm512_set1_epi64(0x0001_0203_0405_0607);
        let count = starts.count_ones() as usize;
        let mut at = _mm512_maskz_compress_epi8(starts, iota);
        let mut done = 0;
        while done < count {
            let lanes = (count - done).min(8);
            let room = lanes.min(out.len() - done);
            let start = _mm512_permutexvar_epi8(lane, at);
            let word = _mm512_permutex2var_epi8(units, _mm512_add_epi8(start, big_endian), after);
            let (v, ok) = value(start, word);
            let keep = (ok.trailing_ones() as usize).min(room);
            let slot = out[done..].as_mut_ptr();
            // `keep <= room <= out.len() − done` slots are written; `T` is a
            // `Slot` of four or eight bytes (u32, u64, i32, i64), which the
            // store narrows to by keeping the low bits.
            let mask = ((1u32 << keep) - 1) as u8;
            if size_of::<T>() == 8 {
                _mm512_mask_storeu_epi64(slot.cast(), mask, v);
            } else {
                _mm512_mask_cvtepi64_storeu_epi32(slot.cast(), mask, v);
            }
            done += keep;
            if keep < lanes {
                let mut positions = [0u8; 64];
                // 64 writable bytes.
                _mm512_storeu_si512(positions.as_mut_ptr().cast(), at);
                return (done, Some(usize::from(positions[keep])));
            }
            at = _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), at);
        }
        (done, None)
    }
}
