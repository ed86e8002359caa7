//! The analysis in words: the `SIMD validation` section of `placemat tables`
//! and the verdict row of `placemat compare`.

use std::fmt::Write as _;

use super::{LocalChecks, NibbleBox, NotLocal};
use crate::listing::ranges_text;

/// A short verdict for `compare`: `yes (7 classes)`, or `no: ` and the reason
/// in a few words (`tables` gives all of it).
pub fn verdict(local: &Result<LocalChecks, NotLocal>) -> String {
    match local {
        Ok(l) => format!("yes ({} classes)", l.boxes.len()),
        Err(e) => format!("no: {}", e.short),
    }
}

/// The section `placemat tables` prints: the proof's result and the tables, or
/// why there are none.
pub fn listing(local: &Result<LocalChecks, NotLocal>) -> String {
    let mut s = String::from("SIMD validation (checks of unit pairs and continuation counts):\n");
    let l = match local {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(s, "  none: {}; validation uses the shift DFA", e.reason);
            if let Some(w) = &e.witness {
                let _ = writeln!(s, "  witness: {}", hex(w));
            }
            return s;
        }
    };
    let t = &l.tables;
    let late = t.restart - 1;
    let plural = if late == 1 { "unit" } else { "units" };
    let _ = writeln!(
        s,
        "  proved equal to the automaton; an error is flagged at most {late} {plural} after the unit at fault"
    );
    let thresholds: Vec<String> =
        (1..=t.need).map(|k| format!("{k}+ at {:02X}", t.thresholds[usize::from(k)])).collect();
    let _ = writeln!(s, "  leads requiring continuations: {}", thresholds.join(", "));
    match (&l.continuation, t.continuation_end) {
        (Some(c), _) => {
            let _ = writeln!(s, "  continuation units (bit 7): {}", ranges_text(&units(c.prev_high, c.prev_low)));
        }
        (None, end) => {
            let _ = writeln!(s, "  continuation units (by comparison): 80-{:02X}", end.unwrap_or(0x80).wrapping_sub(1));
        }
    }
    let _ = writeln!(
        s,
        "  {} forbidden pairs: {} left to the count check, the rest in {} classes:",
        l.forbidden_pairs,
        l.left_to_count,
        l.boxes.len()
    );
    for (i, b) in l.boxes.iter().enumerate() {
        let _ = writeln!(s, "    bit {i}: {}", box_text(b));
    }
    if let Some(floor) = &t.floor {
        let floors: Vec<String> =
            floor.iter().enumerate().filter(|&(_, &f)| f > 0x80).map(|(l, f)| format!("F{l:X} {f:02X}")).collect();
        let _ = writeln!(
            s,
            "  floors, the smallest unit after a long lead ({} pairs): {}",
            l.left_to_floors,
            floors.join(", ")
        );
    }
    let _ =
        writeln!(s, "  start unit {:02X}; all-ASCII chunks skipped: {}", t.start, if t.ascii { "yes" } else { "no" });
    let _ = writeln!(s, "  tables (nibble 0-F):");
    let mut table = |name: &str, row: &[u8; 16]| {
        let cells: Vec<String> = row.iter().map(|b| format!("{b:02X}")).collect();
        let _ = writeln!(s, "    {name:<9} {}", cells.join(" "));
    };
    table("prev_high", &t.prev_high);
    table("prev_low", &t.prev_low);
    table("cur_high", &t.cur_high);
    if let Some(low) = &t.cur_low {
        table("cur_low", low);
    }
    s
}

/// `previous 00-7F, current 80-BF`.
fn box_text(b: &NibbleBox) -> String {
    let prev = ranges_text(&units(b.prev_high, b.prev_low));
    let cur = ranges_text(&units(b.cur_high, b.cur_low));
    format!("previous {prev}, then {cur}")
}

fn units(high: u16, low: u16) -> Vec<u8> {
    (0..=255u8).filter(|u| high >> (u >> 4) & 1 == 1 && low >> (u & 15) & 1 == 1).collect()
}

fn hex(units: &[u8]) -> String {
    units.iter().map(|u| format!("{u:02X}")).collect::<Vec<_>>().join(" ")
}
