//! The `forbid` field: rules across adjacent values, `[lo ..= hi then lo ..= hi,
//! …]` (a value of the first range is never directly followed by one of the
//! second). Each range is closed, lies inside `range` and below 2^64; a
//! description has at most [`MAX_RULES`] of them; and they need what the
//! contexts are built on: bounded values read from bit patterns, without a
//! `premap` (whose values the rules would not see).

use super::checker::Checker;
use super::fields::Fields;
use super::range::ValueRange;
use crate::contexts::Forbid;
use crate::syntax::{FieldValue, RangeLit};

/// Most rules in one description: each may double the start states.
pub const MAX_RULES: usize = 4;

/// The rules of `forbid`, checked; empty without the field.
pub(super) fn forbid(c: &mut Checker, fields: &Fields, range: Option<&ValueRange>) -> Vec<Forbid> {
    let Some(value) = fields.get("forbid") else {
        return Vec::new();
    };
    let FieldValue::Pairs(span, pairs) = value else {
        c.error(
            value.span(),
            "`forbid` takes rules across adjacent values: `[0xD800 ..= 0xDBFF then 0xDC00 ..= 0xDFFF]`",
        );
        return Vec::new();
    };
    for (what, why) in [
        ("premap", "`forbid` and `premap` do not go together: the rules look at values before any premap"),
        ("digits", "`forbid` needs forms of bit patterns; digit units have no rules across values yet"),
    ] {
        if fields.get(what).is_some() {
            c.error(*span, why);
        }
    }
    if range.is_some_and(|r| r.hi.is_none()) {
        c.error(*span, "`forbid` needs bounded values: `range: lo ..= hi`");
    }
    if pairs.is_empty() {
        c.error(*span, "`forbid` lists at least one rule");
    }
    if let Some(extra) = pairs.get(MAX_RULES) {
        c.error_range(
            &extra.first,
            format!("this is rule {} of {}; a description has at most {MAX_RULES}", MAX_RULES + 1, pairs.len()),
        );
    }
    let mut rules = Vec::new();
    for pair in pairs.iter().take(MAX_RULES) {
        if let (Some(first), Some(then)) = (rule_range(c, &pair.first, range), rule_range(c, &pair.then, range)) {
            rules.push(Forbid { first, then });
        }
    }
    rules
}

/// One checked range of a rule.
fn rule_range(c: &mut Checker, r: &RangeLit, range: Option<&ValueRange>) -> Option<(u64, u64)> {
    let (lo, hi) = c.closed_range(r)?;
    if let Some(range) = range {
        if lo < range.lo || range.hi.as_ref().is_some_and(|m| hi > *m) {
            c.error_range(r, "a rule's range must lie inside `range`");
            return None;
        }
    }
    let (Ok(lo), Ok(hi)) = (u64::try_from(&lo), u64::try_from(&hi)) else {
        c.error_range(r, "a rule's range must lie below 2^64");
        return None;
    };
    Some((lo, hi))
}
