//! Is validity *local*? The analysis behind the SIMD validators.
//!
//! A codec is local when an input is valid exactly if (1) every pair of
//! adjacent units is one that occurs in valid text and (2) after each lead unit
//! come exactly the continuation units it requires. Then a validator needs no
//! state beyond a few units back, and checks 16 or 32 positions at once
//! (`placemat_simd`). This pass decides it from the automaton and derives the
//! tables:
//!
//! 1. the lead units (those the start state reads) and the continuation units
//!    (those any state but the start reads) must be disjoint, and each lead must
//!    require one number of continuations;
//! 2. those numbers must grow with the unit's value, so that "requires `k` or
//!    more" is "at least `thresholds[k]`";
//! 3. the pairs that never occur in valid text (less those the count check
//!    rejects anyway) are covered by at most seven *nibble boxes* (`cover`),
//!    or eight when continuation units are `80` up to some unit, if need be
//!    after taking out the pairs below a *floor* after the leads of five
//!    units and more, or else after each of F0-FF (the overlong staircase of
//!    long leads; `choose_cover`);
//! 4. `proof` builds the automaton of what the resulting checks accept and
//!    compares it with the codec's, state pair by state pair: the checks accept
//!    exactly the valid inputs, and flag an error at most `restart` units after
//!    the unit that makes an input invalid;
//! 5. `shape` derives how the SIMD decoding kernel reads what the checks
//!    passed, where the units make values as UTF-8's do.
//!
//! Any step that fails says why, with a witness where there is one:
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let utf8 = Description::parse_str(r#"
//!     pub Utf8 { name: "utf8", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
//!                layout: shortest,
//!                forms: { 0x0000 ..= 0x007F => "0xxxxxxx", 0x0080 ..= 0x07FF => "110xxxxx 10xxxxxx",
//!                         0x0800 ..= 0xFFFF => "1110xxxx 10xxxxxx 10xxxxxx",
//!                         0x10000 ..= 0x10FFFF => "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let a = Automaton::build(&utf8.model, BuildOptions::default()).unwrap();
//! let local = a.local.as_ref().unwrap();
//! assert_eq!(local.tables.need, 3);
//! assert_eq!(&local.tables.thresholds[1..4], [0xC0, 0xE0, 0xF0]);
//! assert!(local.boxes.len() <= 7 && local.tables.ascii);
//!
//! let two_kinds = Description::parse_str(r#"
//!     pub Fss { name: "fss", value: u32, range: 0 ..= 0x3FFF,
//!               forms: { "0xxxxxxx", "1xxxxxxx 1xxxxxxx" } }
//! "#).unwrap();
//! let a = Automaton::build(&two_kinds.model, BuildOptions::default()).unwrap();
//! let why = a.local.as_ref().unwrap_err();
//! assert!(why.reason.contains("both starts a sequence and continues one"), "{}", why.reason);
//! ```
//!
//! # Lineage
//! The checks are those of Keiser and Lemire's UTF-8 validator ("Validating
//! UTF-8 in less than one instruction per byte", 2021: three nibble lookups and
//! a continuation count), generalized; the proof is the usual product
//! construction for language equivalence.

mod cover;
mod proof;
pub mod shape;
pub mod text;

use std::fmt::Write as _;

use super::Automaton;
pub use cover::NibbleBox;
pub use placemat_codec::simd::{Shape, Tables};

/// The derived checks of a local codec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalChecks {
    /// The SIMD validator's tables.
    pub tables: Tables,
    /// The error classes, bit `i` of the tables is box `i`.
    pub boxes: Vec<NibbleBox>,
    /// The continuation units, when bit 7 of the tables marks them (else
    /// `Tables::continuation_end` tells them, and bit 7 is an eighth class).
    pub continuation: Option<NibbleBox>,
    /// How many units each lead requires after it, by unit (`None`: not a lead).
    pub lengths: Vec<Option<u8>>,
    /// Pairs that never occur in valid text, and pairs the classes must flag.
    pub forbidden_pairs: usize,
    /// Pairs left to the count check.
    pub left_to_count: usize,
    /// Pairs left to the floors after F0-FF (`Tables::floor`).
    pub left_to_floors: usize,
    /// How the SIMD decoding kernel reads the codec's sequences, if it can
    /// ([`shape`]).
    pub decoding_shape: Option<Shape>,
}

/// Why a codec is not local.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLocal {
    /// A few words, for a table cell (`compare`).
    pub short: String,
    /// One sentence.
    pub reason: String,
    /// An input on which the local checks and the codec disagree, or that shows
    /// the reason.
    pub witness: Option<Vec<u8>>,
}

impl NotLocal {
    fn new(short: impl Into<String>, reason: impl Into<String>) -> NotLocal {
        NotLocal { short: short.into(), reason: reason.into(), witness: None }
    }

    fn with_witness(mut self, units: Vec<u8>) -> NotLocal {
        self.witness = Some(units);
        self
    }
}

/// Refuses an automaton with several contexts (rules across values), with
/// the forbidden pair as witness.
fn one_context(a: &Automaton) -> Result<(), NotLocal> {
    if a.contexts == 1 {
        return Ok(());
    }
    let not = NotLocal::new(
        "rules across values",
        "a rule forbids some values right after others, which checks on units and pairs of units cannot see",
    );
    Err(match context_witness(a) {
        Some(units) => not.with_witness(units),
        None => not,
    })
}

/// Refuses an automaton with pending values (`overlap: longest`), with the
/// shortest sequence that is also the start of a longer one as witness.
fn no_pending(a: &Automaton) -> Result<(), NotLocal> {
    let Some(s) = (0..a.state_count()).find(|&s| a.pending[s].is_some_and(|p| p.back == 0)) else {
        return Ok(());
    };
    let not = NotLocal::new(
        "longest match",
        "a sequence that starts a longer one means its own value only where the longer one cannot go on, \
         which checks on units and pairs of units cannot see",
    );
    Err(match shortest_paths(a, 1)[s].clone() {
        Some(units) => not.with_witness(units),
        None => not,
    })
}

/// The shortest input that ends a sequence in a context other than 0 and
/// then one that context forbids: valid sequences one by one, invalid
/// together. Breadth-first over the states reached side by side from the
/// start and from the context's start state.
fn context_witness(a: &Automaton) -> Option<Vec<u8>> {
    let reach = shortest_paths(a, 1);
    for (c, prefix) in reach.iter().enumerate().take(a.contexts + 1).skip(2) {
        let prefix = prefix.clone()?;
        let mut seen = std::collections::HashSet::from([(1usize, c)]);
        let mut queue = std::collections::VecDeque::from([((1usize, c), Vec::new())]);
        while let Some(((x, y), units)) = queue.pop_front() {
            for &u in &a.class_units {
                let (x2, y2) = (a.edge(x, u).next, a.edge(y, u).next);
                let mut more: Vec<u8> = units.clone();
                more.push(u);
                if x2 != 0 && y2 == 0 {
                    let rest = if x2 == 1 { Some(Vec::new()) } else { shortest_paths(a, x2)[1].clone() };
                    if let Some(rest) = rest {
                        return Some([prefix, more, rest].concat());
                    }
                }
                if x2 != 0 && y2 != 0 && !a.is_boundary(x2) && seen.insert((x2, y2)) {
                    queue.push_back(((x2, y2), more));
                }
            }
        }
    }
    None
}

/// The shortest units from state `from` to every state (breadth-first).
fn shortest_paths(a: &Automaton, from: usize) -> Vec<Option<Vec<u8>>> {
    let mut best: Vec<Option<Vec<u8>>> = vec![None; a.state_count()];
    best[from] = Some(Vec::new());
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(s) = queue.pop_front() {
        for &u in &a.class_units {
            let t = a.edge(s, u).next;
            if best[t].is_none() {
                let mut units = best[s].clone().unwrap_or_default();
                units.push(u);
                best[t] = Some(units);
                queue.push_back(t);
            }
        }
    }
    best
}

/// A set of units as 256 bits.
type Units = [bool; 256];

/// Derives the local checks of `a`, or says why there are none.
pub(super) fn derive(a: &Automaton) -> Result<LocalChecks, NotLocal> {
    if a.unit_bytes != 1 {
        return Err(NotLocal::new(
            "units > 1 byte",
            format!("its code units are {} bytes wide; the checks read single bytes", a.unit_bytes),
        ));
    }
    no_pending(a)?;
    one_context(a)?;
    if a.facts.cyclic {
        return Err(NotLocal::new(
            "no length limit",
            "its sequences have no length limit, so no lead says how many units follow",
        ));
    }
    let (leads, conts) = lead_and_continuation_units(a)?;
    let lengths = lengths(a, &leads)?;
    let need = lengths.iter().flatten().copied().max().unwrap_or(0);
    if need == 0 {
        return Err(NotLocal::new(
            "single units only",
            "every sequence is one unit: a table lookup per unit is all it takes",
        ));
    }
    if need > 15 {
        return Err(NotLocal::new(
            "sequences too long",
            format!("a lead requires {need} continuation units; the checks look 15 back"),
        ));
    }
    let thresholds = thresholds(&lengths, &conts, need)?;
    let level = |u: u8| (1..=need).rev().find(|&k| u >= thresholds[k as usize]).unwrap_or(0);
    let continuation = NibbleBox::of(&conts);
    let start = (0..=255u8).find(|&u| lengths[u as usize] == Some(0) && level(u) == 0).ok_or_else(|| {
        NotLocal::new("no start unit", "no single-unit value can stand before the input and after its end")
    })?;
    let allowed = allowed_pairs(a);
    let mut forbidden = vec![[false; 256]; 256];
    let (mut forbidden_pairs, mut left_to_count) = (0, 0);
    for p in 0..256 {
        for c in 0..256 {
            if allowed[p][c] {
                continue;
            }
            forbidden_pairs += 1;
            // A lead requiring two or more continuations, followed by something
            // else: the count check flags the next position (or the end). A unit
            // that never occurs but counts as a lead: its own pair with the unit
            // after it, or the end, flags it.
            let never = lengths[c].is_none() && !conts[c];
            if (level(p as u8) >= 2 && !conts[c]) || (never && level(c as u8) >= 1) {
                left_to_count += 1;
            } else {
                forbidden[p][c] = true;
            }
        }
    }
    let end = continuation_end(&conts);
    let long = if need > 3 { thresholds[4] } else { 0xFF };
    let Some(Cover { boxes, classes, floor }) = choose_cover(&forbidden, &allowed, &lengths, long, continuation, end)
    else {
        return Err(NotLocal::new("> 8 pair classes", "its forbidden pairs of units need more than 8 nibble classes"));
    };
    let continuation = if classes == 7 { continuation } else { None };
    let mut tables = assemble(&boxes, continuation, thresholds, need, start);
    tables.continuation_end = if continuation.is_none() { end } else { None };
    tables.floor = floor;
    tables.ascii = (0..0x80u8).all(|u| lengths[u as usize] == Some(0) && level(u) == 0 && !conts[u as usize])
        && (0..=255u8).all(|x| level(x) >= 1 || (0..0x80u8).all(|b| tables.pair(x, b).0 == 0));
    tables.restart = proof::prove(a, &tables)?;
    if let Err(e) = tables.check() {
        return Err(NotLocal::new("bad tables", format!("the derived tables break a kernel invariant: {e}")));
    }
    let left_to_floors = floor.map_or(0, |f| beyond(&forbidden, &f).iter().flatten().filter(|&&b| b).count());
    let decoding_shape = shape::derive(a, &tables);
    Ok(LocalChecks {
        tables,
        boxes,
        continuation,
        lengths,
        forbidden_pairs,
        left_to_count,
        left_to_floors,
        decoding_shape,
    })
}

fn lead_and_continuation_units(a: &Automaton) -> Result<(Units, Units), NotLocal> {
    let mut leads = [false; 256];
    let mut conts = [false; 256];
    for u in 0..=255u8 {
        leads[u as usize] = a.edge(1, u).next != 0;
        conts[u as usize] = (2..a.state_count()).any(|s| a.edge(s, u).next != 0);
        if leads[u as usize] && conts[u as usize] {
            let why = format!("unit {u:02X} both starts a sequence and continues one, so no unit marks a boundary");
            return Err(NotLocal::new(format!("{u:02X} leads and continues"), why).with_witness(vec![u]));
        }
    }
    Ok((leads, conts))
}

/// Units still to come from every live state, if every path agrees.
fn lengths(a: &Automaton, leads: &Units) -> Result<Vec<Option<u8>>, NotLocal> {
    let mut to_go: Vec<Option<u8>> = vec![None; a.state_count()];
    to_go[1] = Some(0);
    // Not cyclic: the depth falls along every edge, so decreasing depth order works.
    let depth = a.certificates.depth.as_deref().unwrap_or(&[]);
    let mut order: Vec<usize> = (2..a.state_count()).collect();
    order.sort_by_key(|&s| depth.get(s).copied().unwrap_or(0));
    for s in order {
        let mut seen = None;
        for e in a.edges[s].iter().filter(|e| e.next != 0) {
            let n = to_go[e.next].map(|n| n + 1);
            if seen.is_some() && seen != n {
                return Err(NotLocal::new("lengths vary", "one state ends sequences after different numbers of units"));
            }
            seen = n;
        }
        to_go[s] = seen;
    }
    let mut lengths = vec![None; 256];
    for u in 0..=255u8 {
        if leads[u as usize] {
            lengths[u as usize] = to_go[a.edge(1, u).next];
        }
    }
    Ok(lengths)
}

/// `thresholds[k]`: one past every continuation unit and every lead requiring
/// fewer than `k`; every lead at or above it must require `k` or more.
fn thresholds(lengths: &[Option<u8>], conts: &Units, need: u8) -> Result<[u8; 16], NotLocal> {
    let mut t = [0xFF; 16];
    for k in 1..=need {
        let below = (0..256).filter(|&u| conts[u] || lengths[u].is_some_and(|n| n < k)).max();
        let at = below.map_or(0, |u| u + 1);
        if let Some(u) = (at..256).find(|&u| lengths[u].is_some_and(|n| n < k)) {
            let mut why = String::new();
            let _ = write!(why, "lead {u:02X} requires fewer continuation units than a smaller lead");
            return Err(NotLocal::new("lengths not ordered", why).with_witness(vec![u as u8]));
        }
        if at > 255 {
            return Err(NotLocal::new("lengths not ordered", "the largest unit is no lead"));
        }
        if k >= 2 && at < 0x80 {
            return Err(NotLocal::new("leads below 80", format!("leads requiring {k} continuations start below 80")));
        }
        t[k as usize] = at as u8;
    }
    Ok(t)
}

/// `allowed[p][c]`: `p c` occurs in some valid input.
fn allowed_pairs(a: &Automaton) -> Vec<Units> {
    let follow: Vec<Units> =
        (0..a.state_count()).map(|s| std::array::from_fn(|c| s != 0 && a.edge(s, c as u8).next != 0)).collect();
    let mut allowed = vec![[false; 256]; 256];
    for s in 1..a.state_count() {
        for p in 0..=255u8 {
            let next = a.edge(s, p).next;
            if next != 0 {
                for c in 0..256 {
                    allowed[p as usize][c] |= follow[next][c];
                }
            }
        }
    }
    allowed
}

/// A cover of the forbidden pairs: its boxes, the number of classes it
/// takes (7 or 8) and the floors it leaves the pairs below.
struct Cover {
    boxes: Vec<NibbleBox>,
    classes: usize,
    floor: Option<[u8; 16]>,
}

/// Covers the forbidden pairs with seven classes and a table bit for
/// continuation units, or eight classes and continuation units told by
/// comparison (`80` up to `end`); each first without floors, then with
/// floors after the long leads (`long` and up) only, then after all of F0-FF.
/// A cover that needs the fourth table (the current unit's low nibble) costs
/// on every block; floors cost only in chunks with a floored unit, so the
/// first cover without that table wins, and floors confined to long leads,
/// which real text hardly has, come before floors after every F0-FF.
fn choose_cover(
    forbidden: &[Units],
    allowed: &[Units],
    lengths: &[Option<u8>],
    long: u8,
    continuation: Option<NibbleBox>,
    end: Option<u8>,
) -> Option<Cover> {
    let all = floors(allowed, lengths);
    let mut of_long = all;
    for (low, f) in of_long.iter_mut().enumerate() {
        if (0xF0 | low as u8) < long {
            *f = 0;
        }
    }
    let mut floorings = vec![None];
    floorings.extend([of_long, all].into_iter().filter(|f| f.iter().any(|&u| u != 0)).map(Some));
    floorings.dedup();
    let attempt = |classes: usize, floor: Option<[u8; 16]>| {
        if (classes == 7 && continuation.is_none()) || (classes == 8 && end.is_none()) {
            return None;
        }
        let pairs: Vec<Units> = match floor {
            Some(f) => {
                let below = beyond(forbidden, &f);
                (0..256).map(|p| std::array::from_fn(|c| forbidden[p][c] && !below[p][c])).collect()
            }
            None => forbidden.to_vec(),
        };
        cover::search(&pairs, allowed, classes).map(|boxes| Cover { boxes, classes, floor })
    };
    let low_free = |c: &Cover| c.boxes.iter().all(|b| b.cur_low == 0xFFFF);
    [7, 8].into_iter().find_map(|classes| {
        let mut first = None;
        for &floor in &floorings {
            let Some(cover) = attempt(classes, floor) else { continue };
            if low_free(&cover) {
                return Some(cover);
            }
            first.get_or_insert(cover);
        }
        first
    })
}

/// The forbidden pairs below the floors `floor`.
fn beyond(forbidden: &[Units], floor: &[u8; 16]) -> Vec<Units> {
    (0..256).map(|p| std::array::from_fn(|c| forbidden[p][c] && c < usize::from(floor_of(floor, p as u8)))).collect()
}

/// The smallest unit allowed after each of F0-FF (by low nibble): 0 after a
/// single-unit value, `FF` after a unit that never occurs.
fn floors(allowed: &[Units], lengths: &[Option<u8>]) -> [u8; 16] {
    std::array::from_fn(|low| {
        let p = 0xF0 | low;
        if lengths[p] == Some(0) {
            return 0;
        }
        (0..256).find(|&c| allowed[p][c]).map_or(0xFF, |c| c as u8)
    })
}

fn floor_of(floor: &[u8; 16], p: u8) -> u8 {
    if p >= 0xF0 {
        floor[usize::from(p & 15)]
    } else {
        0
    }
}

/// The unit after the continuation units, if they are `80` up to it.
fn continuation_end(conts: &Units) -> Option<u8> {
    let end = (0x80..256).find(|&u| !conts[u]).unwrap_or(256);
    let exact = (0..256).all(|u| conts[u] == (0x80..end).contains(&u));
    (exact && end > 0x80 && end < 256).then_some(end as u8)
}

fn assemble(boxes: &[NibbleBox], cont: Option<NibbleBox>, thresholds: [u8; 16], need: u8, start: u8) -> Tables {
    let mut t = Tables {
        prev_high: [0; 16],
        prev_low: [0; 16],
        cur_high: [0; 16],
        cur_low: None,
        thresholds,
        need,
        start,
        ascii: false,
        continuation_end: None,
        floor: None,
        restart: 0,
    };
    let mut cur_low = [0u8; 16];
    for (i, b) in boxes.iter().chain(cont.as_ref()).enumerate() {
        let bit = if i == boxes.len() { 0x80 } else { 1u8 << i };
        let put = |table: &mut [u8; 16], set: u16| {
            for (n, slot) in table.iter_mut().enumerate() {
                if set >> n & 1 == 1 {
                    *slot |= bit;
                }
            }
        };
        put(&mut t.prev_high, b.prev_high);
        put(&mut t.prev_low, b.prev_low);
        put(&mut t.cur_high, b.cur_high);
        put(&mut cur_low, b.cur_low);
    }
    if cur_low != [0xFF; 16] {
        // Bits no class uses stay clear everywhere; only real differences count.
        let used = (0..boxes.len()).fold(if cont.is_some() { 0x80u8 } else { 0 }, |m, i| m | 1 << i);
        if cur_low.iter().any(|&l| l & used != used) {
            t.cur_low = Some(cur_low);
        }
    }
    t
}
