//! One unit damaged: flipped (one bit), dropped, or inserted. The damaged
//! units are decoded as `placemat decode` reads them, and compared with the
//! undamaged decoding: where the decoder first reports an error (the offset
//! `decode --errors strict` prints), and where it is back in step — the
//! first value from which the rest of the decoding is the undamaged one's.
//! This is `compare`'s error-spread figure for one trial, made visible.
//!
//! ```
//! use placemat_web::damage::{damage, Action};
//! let utf8 = placemat_variants::registry::find("utf8").unwrap();
//! // "añb": dropping C3 leaves B1 alone, an error at offset 1; back in step at b.
//! let d = damage(utf8, "añb".as_bytes(), 1, Action::Drop).unwrap();
//! assert_eq!(d.bytes, b"a\xB1b");
//! assert_eq!(d.first_error, Some(1));
//! assert_eq!(d.resync, Some(2));
//! assert_eq!((d.lost, d.damaged), (1, 1));
//! ```

use placemat_cli::inspect::{self, Item};
use placemat_codec::DynCodec;
use serde_json::{json, Value};

use crate::wire::{self, hex, Answer};

/// What is done to the unit at the chosen offset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Bit `0..=7` flipped.
    Flip(u8),
    /// The byte removed.
    Drop,
    /// This byte inserted before it.
    Insert(u8),
}

/// The damaged input and what the decoder made of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The damaged units.
    pub bytes: Vec<u8>,
    /// Their items, as `placemat decode` reads them.
    pub items: Vec<Item>,
    /// The offset of the first error (in the damaged units), if any.
    pub first_error: Option<usize>,
    /// The offset (in the damaged units) of the first item from which the
    /// decoding is the undamaged one's to the end; `None` if it never is.
    pub resync: Option<usize>,
    /// Undamaged values lost or changed before the decoder is back in step.
    pub lost: usize,
    /// Items of the damaged decoding in their place (wrong values and errors).
    pub damaged: usize,
}

/// `bytes` with `action` applied at `at`, or why it cannot be.
fn apply(bytes: &[u8], at: usize, action: Action) -> Result<Vec<u8>, String> {
    let mut out = bytes.to_vec();
    match action {
        Action::Insert(b) if at <= bytes.len() => out.insert(at, b),
        Action::Flip(bit) if at < bytes.len() && bit < 8 => out[at] ^= 1 << bit,
        Action::Drop if at < bytes.len() => {
            out.remove(at);
        }
        _ => return Err(format!("no unit at offset {at} to change (the units are {} bytes)", bytes.len())),
    }
    Ok(out)
}

fn start(item: &Item) -> usize {
    match item {
        Item::Value { offset, .. } | Item::Error { offset, .. } => *offset,
    }
}

fn len(item: &Item) -> usize {
    match item {
        Item::Value { len, .. } | Item::Error { len, .. } => *len,
    }
}

/// The same item: the same value (or error) over the same length.
fn same(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Value { len: l, text: t, .. }, Item::Value { len: m, text: u, .. }) => l == m && t == u,
        _ => false,
    }
}

/// Decodes `bytes` after `action` at `at`, and compares with `bytes` undamaged.
pub fn damage(codec: &dyn DynCodec, bytes: &[u8], at: usize, action: Action) -> Result<Damage, String> {
    let damaged_bytes = apply(bytes, at, action)?;
    let name = codec.info().name.to_string();
    let before = inspect::decode(codec, &name, bytes).map_err(|e| e.to_string())?;
    let after = inspect::decode(codec, &name, &damaged_bytes).map_err(|e| e.to_string())?;
    let first_error = after.iter().find_map(|i| matches!(i, Item::Error { .. }).then(|| start(i)));
    // Items that end before the damage are the same in both.
    let common = before.iter().zip(&after).take_while(|(a, b)| a == b && start(a) + len(a) <= at).count();
    // Where a damaged item starting at `o` was in the undamaged units, if it
    // starts past the damage.
    let undamaged = |o: usize| match action {
        Action::Flip(_) => (o > at).then_some(o),
        Action::Drop => (o >= at).then_some(o + 1),
        Action::Insert(_) => (o > at).then(|| o - 1),
    };
    // The first damaged item past the damage whose suffix is the undamaged one's.
    let back = (common..after.len()).find_map(|i| {
        let original = undamaged(start(&after[i]))?;
        let j = before.iter().position(|b| start(b) == original)?;
        let tail_equal =
            before.len() - j == after.len() - i && before[j..].iter().zip(&after[i..]).all(|(a, b)| same(a, b));
        tail_equal.then_some((i, j))
    });
    let (resync, lost, damaged) = match back {
        Some((i, j)) => (Some(start(&after[i])), j - common, i - common),
        None => (None, before.len() - common, after.len() - common),
    };
    Ok(Damage { bytes: damaged_bytes, items: after, first_error, resync, lost, damaged })
}

/// The `damage` request.
pub fn answer(codec: &dyn DynCodec, bytes: &[u8], request: &Value) -> Answer {
    let at = wire::integer(request, "at", usize::MAX as u64)? as usize;
    let action = match request["action"].as_str() {
        Some("flip") => Action::Flip(wire::integer(request, "bit", 7)? as u8),
        Some("drop") => Action::Drop,
        Some("insert") => Action::Insert(wire::integer(request, "byte", 255)? as u8),
        _ => return Err("`action` must be `flip`, `drop` or `insert`".into()),
    };
    let d = damage(codec, bytes, at, action)?;
    let items: Vec<Value> = d.items.iter().map(wire::item_json).collect();
    Ok(json!({
        "hex": hex(&d.bytes), "items": items, "first_error": d.first_error,
        "resync": d.resync, "lost": d.lost, "damaged": d.damaged,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_variants::registry;

    fn codec(name: &str) -> &'static dyn DynCodec {
        registry::find(name).unwrap()
    }

    #[test]
    fn a_flipped_payload_bit_changes_one_value_and_reports_no_error() {
        let d = damage(codec("utf8"), b"abc", 1, Action::Flip(0)).unwrap();
        assert_eq!(d.bytes, b"acc");
        assert_eq!((d.first_error, d.resync, d.lost, d.damaged), (None, Some(2), 1, 1));
    }

    #[test]
    fn an_inserted_byte_misaligns_utf16_to_the_end() {
        // "abc" in UTF-16LE with a byte inserted first: every unit after it is
        // misaligned, to the end.
        let d = damage(codec("utf16le"), b"a\0b\0c\0", 0, Action::Insert(0x00)).unwrap();
        assert_eq!(d.bytes, b"\0a\0b\0c\0");
        assert_eq!(d.resync, None, "{d:?}");
        assert_eq!(d.first_error, Some(6), "a lone byte at the end");
    }

    #[test]
    fn the_first_error_is_where_decode_reports_it() {
        let d = damage(codec("utf8"), "€x".as_bytes(), 1, Action::Drop).unwrap();
        let Item::Error { offset, message, .. } = &d.items[0] else { panic!("{d:?}") };
        assert_eq!((*offset, d.first_error), (0, Some(0)));
        assert!(message.starts_with("utf8: invalid utf8 input at offset 0"), "{message}");
        assert_eq!(d.resync, Some(2));
    }

    #[test]
    fn damage_outside_the_units_is_refused() {
        assert!(damage(codec("utf8"), b"a", 1, Action::Drop).is_err());
        assert!(damage(codec("utf8"), b"a", 0, Action::Flip(8)).is_err());
        assert!(damage(codec("utf8"), b"a", 1, Action::Insert(0x80)).is_ok());
    }
}
