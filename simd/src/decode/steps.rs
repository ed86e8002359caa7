//! The decoding kernel's tables, computed at compile time: the steps (one
//! shuffle per run of up to four values of up to four units) and the step
//! for each pattern of lead marks.

/// One step of the kernel: a shuffle that gathers up to four values' units
/// into 32-bit lanes (last unit lowest), and one that picks each lane's `K`.
#[derive(Copy, Clone)]
#[repr(C, align(16))]
pub(crate) struct Step {
    pub(crate) gather: [u8; 16],
    pub(crate) bias: [u8; 16],
}

/// The marks of units 1–12 after a lead (bit `j - 1` set when unit `j` is no
/// continuation) → the step for the values they delimit: bits 0–8 the index
/// into [`STEPS`], 9–12 the units the step takes, 13–15 the values it writes
/// (0 when the first value is longer than four units).
pub(crate) static BY_MARKS: [u16; 4096] = by_marks();

/// Every run of one to four values of one to four units, by lengths.
pub(crate) static STEPS: [Step; 340] = steps();

/// The units and the step when the marks after a lead say that four
/// values of `n` units follow, `n` 3 or 4 (units `0, n, …, 4n` are leads,
/// and none between them): Chinese text, emoji. Not for two units:
/// Cyrillic words are too short for four letters in a row to be the rule,
/// and the branch would be mispredicted (measured 25 % slower on Russian).
#[inline(always)]
pub(crate) fn uniform(rest: u64) -> Option<(usize, usize)> {
    const fn run(n: usize) -> (u64, u64, usize) {
        let marks = 1 | 1 << n | 1 << (2 * n) | 1 << (3 * n) | 1 << (4 * n);
        (marks, (1 << (4 * n + 1)) - 1, step_index(&[n as u8; 4], 4))
    }
    const RUNS: [(u64, u64, usize); 2] = [run(3), run(4)];
    let [three, four] = RUNS;
    if rest & three.1 == three.0 {
        Some((12, three.2))
    } else if rest & four.1 == four.0 {
        Some((16, four.2))
    } else {
        None
    }
}

/// The index of a run of `count` values of the given lengths in [`STEPS`].
pub(crate) const fn step_index(lengths: &[u8; 4], count: usize) -> usize {
    let mut index = 0;
    let mut scale = 1;
    let mut j = 0;
    while j < count {
        index += (lengths[j] as usize - 1) * scale;
        scale *= 4;
        j += 1;
    }
    // Runs of fewer values come first: 4 of one value, 16 of two, 64 of three.
    let before = [0, 0, 4, 20, 84];
    before[count] + index
}

const fn by_marks() -> [u16; 4096] {
    let mut table = [0u16; 4096];
    let mut marks = 0;
    while marks < 4096 {
        let mut lengths = [0u8; 4];
        let (mut count, mut at) = (0, 0);
        'values: while count < 4 {
            let mut len = 1;
            while len <= 4 && at + len <= 12 {
                if marks >> (at + len - 1) & 1 == 1 {
                    lengths[count] = len as u8;
                    count += 1;
                    at += len;
                    continue 'values;
                }
                len += 1;
            }
            break;
        }
        if count > 0 {
            table[marks] = (step_index(&lengths, count) | at << 9 | count << 13) as u16;
        }
        marks += 1;
    }
    table
}

const fn steps() -> [Step; 340] {
    let mut steps = [Step { gather: [0x80; 16], bias: [0x80; 16] }; 340];
    let mut count = 1;
    while count <= 4 {
        let mut code = 0;
        while code < 1 << (2 * count) {
            let mut lengths = [0u8; 4];
            let mut j = 0;
            while j < count {
                lengths[j] = (code >> (2 * j) & 3) as u8 + 1;
                j += 1;
            }
            steps[step_index(&lengths, count)] = step(&lengths, count);
            code += 1;
        }
        count += 1;
    }
    steps
}

const fn step(lengths: &[u8; 4], count: usize) -> Step {
    let mut s = Step { gather: [0x80; 16], bias: [0x80; 16] };
    let mut at = 0u8;
    let mut lane = 0;
    while lane < count {
        let len = lengths[lane];
        let mut b = 0;
        while b < 4 {
            if b < len {
                // Byte `b` of the lane is the unit `b` places before the last.
                s.gather[4 * lane + b as usize] = at + len - 1 - b;
            }
            s.bias[4 * lane + b as usize] = 4 * (len - 1) + b;
            b += 1;
        }
        at += len;
        lane += 1;
    }
    s
}
