//! The one ASCII-run helper every fast path uses: the table walkers, the shift
//! validator and the generated branching decoders skip or copy runs of ASCII
//! code units with it, sixteen bytes at a time.
//!
//! Which code units count is a fact of the codec ([`AsciiRuns`]): bytes
//! `00`–`7F` for UTF-8, `01`–`7F` for Java's modified UTF-8 (which writes
//! U+0000 as `C0 80`), and the code units `0000`–`007F` of UTF-16 and UTF-32 in
//! their byte order.
//!
//! ```
//! use placemat_codec::{ascii_prefix, AsciiRuns};
//! assert_eq!(ascii_prefix(b"sixteen ascii by"), 16);
//! assert_eq!(ascii_prefix(b"sixteen ascii b\xC3\xA9"), 0); // the block holds a non-ASCII unit
//! assert_eq!(ascii_prefix(b"short"), 0); // fewer than 16 units are left to the caller
//! assert_eq!(AsciiRuns::NonZeroBytes.prefix(b"sixteen\0ascii by"), 0); // NUL is not its own value
//! let utf16le: Vec<u8> = "eight ch".encode_utf16().flat_map(u16::to_le_bytes).collect();
//! assert_eq!(AsciiRuns::U16Le.prefix(&utf16le), 16);
//! assert_eq!(AsciiRuns::U16Be.prefix(&utf16le), 0);
//! assert_eq!(AsciiRuns::None.prefix(&[0; 16]), 0);
//! ```

/// Units per block of [`ascii_prefix`].
pub const ASCII_BLOCK: usize = 16;

/// The length of the run of whole 16-unit blocks of ASCII (units below `0x80`)
/// at the start of `units`: a multiple of 16. A shorter tail is left to the
/// caller's unit-by-unit loop.
#[inline(always)]
pub fn ascii_prefix(units: &[u8]) -> usize {
    AsciiRuns::Bytes.prefix(units)
}

/// The length of the run of whole 16-byte blocks at the start of `units`
/// that pass `ascii`: four blocks at a time while all pass (one branch on the
/// four tests; two blocks per branch took twice as long on English text),
/// then two, then one.
#[inline(always)]
fn blocks(units: &[u8], ascii: impl Fn(u128) -> bool) -> usize {
    let mut n = 0;
    while let Some(four) = units[n..].first_chunk::<{ 4 * ASCII_BLOCK }>() {
        let word = |k: usize| u128::from_le_bytes(four[16 * k..16 * k + 16].try_into().unwrap_or_default());
        if !(ascii(word(0)) & ascii(word(1)) & ascii(word(2)) & ascii(word(3))) {
            break;
        }
        n += 4 * ASCII_BLOCK;
    }
    while let Some(pair) = units[n..].first_chunk::<{ 2 * ASCII_BLOCK }>() {
        let (a, b) = pair.split_at(ASCII_BLOCK);
        let (a, b) = (
            u128::from_le_bytes(a.try_into().unwrap_or_default()),
            u128::from_le_bytes(b.try_into().unwrap_or_default()),
        );
        if !(ascii(a) && ascii(b)) {
            break;
        }
        n += 2 * ASCII_BLOCK;
    }
    if let Some(block) = units[n..].first_chunk::<ASCII_BLOCK>() {
        if ascii(u128::from_le_bytes(*block)) {
            n += ASCII_BLOCK;
        }
    }
    n
}

/// `0x01` in every byte of a block.
const ONES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// Which code units decode to themselves, each a whole sequence, from the start
/// state: the runs the table walkers and validators copy or skip without
/// walking. A fact the compiler derives and `Dfa::new` checks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum AsciiRuns {
    /// None: every unit is walked.
    #[default]
    None,
    /// Bytes `00`–`7F` (UTF-8 and every ASCII-transparent byte codec).
    Bytes,
    /// Bytes `01`–`7F`: `00` is not its own value (Java's modified UTF-8).
    NonZeroBytes,
    /// Little-endian 16-bit code units `0000`–`007F` (UTF-16LE).
    U16Le,
    /// Big-endian 16-bit code units `0000`–`007F` (UTF-16BE).
    U16Be,
    /// Little-endian 32-bit code units `0`–`7F` (UTF-32LE).
    U32Le,
    /// Big-endian 32-bit code units `0`–`7F` (UTF-32BE).
    U32Be,
}

impl AsciiRuns {
    /// Every kind of run, [`AsciiRuns::None`] first.
    pub const ALL: [AsciiRuns; 7] = [
        AsciiRuns::None,
        AsciiRuns::Bytes,
        AsciiRuns::NonZeroBytes,
        AsciiRuns::U16Le,
        AsciiRuns::U16Be,
        AsciiRuns::U32Le,
        AsciiRuns::U32Be,
    ];

    /// Bytes per code unit (1 for [`AsciiRuns::None`]).
    pub const fn unit_bytes(self) -> usize {
        match self {
            AsciiRuns::None | AsciiRuns::Bytes | AsciiRuns::NonZeroBytes => 1,
            AsciiRuns::U16Le | AsciiRuns::U16Be => 2,
            AsciiRuns::U32Le | AsciiRuns::U32Be => 4,
        }
    }

    /// Which byte of a code unit holds its value (the others are 0).
    const fn value_byte(self) -> usize {
        match self {
            AsciiRuns::U16Be => 1,
            AsciiRuns::U32Be => 3,
            _ => 0,
        }
    }

    /// Whether the runs include code unit `c`.
    pub const fn includes(self, c: u8) -> bool {
        match self {
            AsciiRuns::None => false,
            AsciiRuns::NonZeroBytes => c != 0 && c < 0x80,
            _ => c < 0x80,
        }
    }

    /// The bytes of code unit `c`: the first [`AsciiRuns::unit_bytes`] of them.
    pub const fn code_unit(self, c: u8) -> [u8; 4] {
        let mut out = [0; 4];
        out[self.value_byte()] = c;
        out
    }

    /// The bits of a 16-byte block (read little-endian) that are 0 in a run
    /// (`None` for [`AsciiRuns::None`]: no block is a run): per code unit,
    /// bit 7 of the value byte and every bit of the others. Constants, so
    /// that a caller's loop does not rebuild them per block.
    const fn zero_bits(self) -> Option<u128> {
        const fn repeated(lane: u128, bits: u32) -> u128 {
            let (mut mask, mut at) = (0u128, 0);
            while at < 128 {
                mask |= lane << at;
                at += bits;
            }
            mask
        }
        const BYTES: u128 = repeated(0x80, 8);
        const U16_LE: u128 = repeated(0xFF80, 16);
        const U16_BE: u128 = repeated(0x80FF, 16);
        const U32_LE: u128 = repeated(0xFFFF_FF80, 32);
        const U32_BE: u128 = repeated(0x80FF_FFFF, 32);
        match self {
            AsciiRuns::None => None,
            AsciiRuns::Bytes | AsciiRuns::NonZeroBytes => Some(BYTES),
            AsciiRuns::U16Le => Some(U16_LE),
            AsciiRuns::U16Be => Some(U16_BE),
            AsciiRuns::U32Le => Some(U32_LE),
            AsciiRuns::U32Be => Some(U32_BE),
        }
    }

    /// The length in bytes of the run of whole 16-byte blocks of these code
    /// units at the start of `units`: a multiple of 16 (0 for
    /// [`AsciiRuns::None`]). A shorter tail is left to the caller's walk.
    #[inline(always)]
    pub fn prefix(self, units: &[u8]) -> usize {
        let Some(zero) = self.zero_bits() else { return 0 };
        // One loop per test, so that the loop holds no branch on the kind
        // whatever the caller it is inlined into.
        if matches!(self, AsciiRuns::NonZeroBytes) {
            blocks(units, non_zero_bytes(zero))
        } else {
            blocks(units, |x| x & zero == 0)
        }
    }

    /// Where the first run of `span` bytes of whole 16-byte blocks of these
    /// code units starts, from the second block on, among the blocks that
    /// end before `units` does: the first `k`, a multiple of 16 from 16 on,
    /// with `prefix(&units[k..k + span]) == span` and `k + span < units.len()`
    /// (`None` where there is none, and for [`AsciiRuns::None`]). `span` is a
    /// multiple of 16. One pass over the blocks, each tested once.
    ///
    /// ```
    /// use placemat_codec::AsciiRuns;
    /// let text = [&[0xC3u8, 0xA9][..], &[b'e'; 40], &[0xC3, 0xA9], &[b'e'; 70]].concat();
    /// assert_eq!(AsciiRuns::Bytes.run_start(&text, 32), Some(48));
    /// assert_eq!(AsciiRuns::Bytes.run_start(&text, 80), None);
    /// ```
    #[inline(always)]
    pub fn run_start(self, units: &[u8], span: usize) -> Option<usize> {
        let zero = self.zero_bits()?;
        if matches!(self, AsciiRuns::NonZeroBytes) {
            run_start(units, span, non_zero_bytes(zero))
        } else {
            run_start(units, span, |x| x & zero == 0)
        }
    }

    /// The value of the last code unit of a run [`AsciiRuns::prefix`] found
    /// (`None` for an empty run), read in place.
    pub fn last_value(self, run: &[u8]) -> Option<u8> {
        let unit = run.len().checked_sub(self.unit_bytes())?;
        run.get(unit + self.value_byte()).copied()
    }

    /// The values of a run [`AsciiRuns::prefix`] found, one per code unit.
    #[inline(always)]
    pub fn values(self, run: &[u8]) -> impl Iterator<Item = u8> + '_ {
        let (step, at) = (self.unit_bytes(), self.value_byte());
        run.iter().skip(at).step_by(step).copied()
    }
}

/// The test of a 16-byte block (read little-endian) of [`AsciiRuns::NonZeroBytes`]
/// (`zero`, its bits that are zero in every such byte).
#[inline(always)]
fn non_zero_bytes(zero: u128) -> impl Fn(u128) -> bool {
    // Every byte in 01-7F exactly when neither a byte nor the byte less
    // one has bit 7 set: in such a block no subtraction borrows from
    // the byte above, and a 00 byte becomes FF.
    // Per 64-bit half: a 128-bit subtraction chains its borrow through
    // both halves (A/B: the halves take a quarter off modified UTF-8's
    // validator on English).
    let ones = ONES as u64;
    let half = move |x: u64| x | x.wrapping_sub(ones);
    move |x| (half(x as u64) | half((x >> 64) as u64)) & zero as u64 == 0
}

/// [`AsciiRuns::run_start`] for the blocks that pass `pass`: a count of the
/// passing bytes just before each block's end.
#[inline(always)]
fn run_start(units: &[u8], span: usize, pass: impl Fn(u128) -> bool) -> Option<usize> {
    let before_end = units.get(ASCII_BLOCK..units.len().saturating_sub(1))?;
    let mut passed = 0;
    for (i, block) in before_end.chunks_exact(ASCII_BLOCK).enumerate() {
        passed = if pass(u128::from_le_bytes(block.try_into().unwrap_or_default())) { passed + ASCII_BLOCK } else { 0 };
        if passed == span {
            return Some((i + 2) * ASCII_BLOCK - span);
        }
    }
    None
}

/// Writes a run of `from`'s code units ([`AsciiRuns::prefix`]) as `to`'s:
/// copied when the two are alike, else widened or narrowed unit by unit.
pub fn convert_run(from: AsciiRuns, to: AsciiRuns, run: &[u8], out: &mut alloc::vec::Vec<u8>) {
    let same_bytes = from.unit_bytes() == to.unit_bytes() && from.value_byte() == to.value_byte();
    if same_bytes {
        out.extend_from_slice(run);
        return;
    }
    match (from.unit_bytes(), to) {
        (1, AsciiRuns::U16Le) => widen(run, out, |c| [c, 0]),
        (1, AsciiRuns::U16Be) => widen(run, out, |c| [0, c]),
        (1, AsciiRuns::U32Le) => widen(run, out, |c| [c, 0, 0, 0]),
        (1, AsciiRuns::U32Be) => widen(run, out, |c| [0, 0, 0, c]),
        (_, AsciiRuns::Bytes | AsciiRuns::NonZeroBytes) => out.extend(from.values(run)),
        // Between wide units: a fixed-size array per unit (a copy of a
        // run-time length would be a call per unit).
        (_, AsciiRuns::U16Le | AsciiRuns::U16Be) => {
            out.extend(from.values(run).flat_map(|c| <[u8; 2]>::try_from(&to.code_unit(c)[..2]).unwrap_or_default()));
        }
        _ => out.extend(from.values(run).flat_map(|c| to.code_unit(c))),
    }
}

/// Writes each byte of `run` as the `N` bytes `unit` makes of it, sixteen
/// at a time through a fixed block (which the compiler widens with vector
/// instructions), then the rest one by one.
#[inline(always)]
fn widen<const N: usize>(run: &[u8], out: &mut alloc::vec::Vec<u8>, unit: impl Fn(u8) -> [u8; N]) {
    out.reserve(N * run.len());
    let blocks = run.chunks_exact(16);
    let rest = blocks.remainder();
    for block in blocks {
        let mut wide = [[0u8; N]; 16];
        for (slot, &c) in wide.iter_mut().zip(block) {
            *slot = unit(c);
        }
        out.extend_from_slice(wide.as_flattened());
    }
    out.extend(rest.iter().flat_map(|&c| unit(c)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs by definition: whole 16-byte blocks, from the start, of code
    /// units that are some included unit's bytes.
    fn naive(kind: AsciiRuns, units: &[u8]) -> usize {
        let width = kind.unit_bytes();
        let passes = |block: &[u8]| {
            block.chunks(width).all(|u| {
                let c = u[kind.value_byte()];
                kind.includes(c) && u == &kind.code_unit(c)[..width]
            })
        };
        units.chunks_exact(ASCII_BLOCK).take_while(|b| passes(b)).count() * ASCII_BLOCK
    }

    /// [`AsciiRuns::run_start`] against its definition, on text with
    /// runs of every length at every block.
    #[test]
    fn a_run_starts_where_trying_every_block_finds_it() {
        let mut state = 0x9E37_79B9_u32;
        for round in 0..400u32 {
            for kind in AsciiRuns::ALL.into_iter().skip(1) {
                let width = kind.unit_bytes();
                let units: Vec<u8> = (0..(ASCII_BLOCK / width) * (2 + round as usize % 24) + round as usize % 7)
                    .flat_map(|_| {
                        state ^= state << 13;
                        state ^= state >> 17;
                        state ^= state << 5;
                        let c = match state % (3 + round % 60) {
                            0 => 0x80,
                            1 => 0,
                            _ => b'a' + (state % 20) as u8,
                        };
                        kind.code_unit(c)[..width].to_vec()
                    })
                    .collect();
                for span in [16, 32, 48, 256] {
                    let every = (ASCII_BLOCK..units.len().saturating_sub(span))
                        .step_by(ASCII_BLOCK)
                        .find(|&k| naive(kind, &units[k..k + span]) == span);
                    assert_eq!(kind.run_start(&units, span), every, "{kind:?} {span} {units:?}");
                }
            }
        }
        assert_eq!(AsciiRuns::None.run_start(&[b'a'; 64], 16), None);
    }

    #[test]
    fn runs_convert_between_every_pair_of_kinds() {
        let text: alloc::vec::Vec<u8> = (1..0x80).collect();
        for from in AsciiRuns::ALL.into_iter().skip(1) {
            let run: alloc::vec::Vec<u8> =
                text.iter().flat_map(|&c| from.code_unit(c)[..from.unit_bytes()].to_vec()).collect();
            assert_eq!(from.last_value(&run), Some(0x7F), "{from:?}");
            assert_eq!(from.last_value(&run[..from.unit_bytes()]), Some(1), "{from:?}");
            assert_eq!(from.last_value(&[]), None);
            for to in AsciiRuns::ALL.into_iter().skip(1) {
                let mut out = alloc::vec::Vec::new();
                convert_run(from, to, &run, &mut out);
                let want: alloc::vec::Vec<u8> =
                    text.iter().flat_map(|&c| to.code_unit(c)[..to.unit_bytes()].to_vec()).collect();
                assert_eq!(out, want, "{from:?} -> {to:?}");
            }
        }
    }

    #[test]
    fn every_byte_at_every_place_of_five_blocks_and_a_tail() {
        // Five blocks: the four-block loop, the two-block one and the last one.
        for kind in AsciiRuns::ALL {
            let letter = kind.code_unit(b'a');
            let text: Vec<u8> = letter[..kind.unit_bytes()].iter().copied().cycle().take(5 * ASCII_BLOCK + 5).collect();
            for at in 0..text.len() {
                for byte in 0..=255u8 {
                    let mut units = text.clone();
                    units[at] = byte;
                    let expected = if kind == AsciiRuns::None { 0 } else { naive(kind, &units) };
                    assert_eq!(kind.prefix(&units), expected, "{kind:?}: {byte:02X} at {at}");
                }
            }
        }
    }
}
