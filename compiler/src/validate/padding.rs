//! Padding without a limit (`padding: unlimited`): a padded codec whose
//! decoder reads any number of zero groups, not only up to the encoder's
//! longest form. It needs `layout: padded` and a last form with a repeated
//! unit (the copies past the longest form are the padding), and none of the
//! things that read a sequence's length as bounded: sign extension (whose
//! padding repeats the sign, not zeros), rules across values and
//! longest-match overlap.

use super::checker::Checker;
use super::fields::Fields;
use crate::model::{Layout, Model, Padding};

/// The padding (`padding`): `limited` (the default) or `unlimited`, which
/// needs `layout: padded`.
pub(super) fn padding(c: &mut Checker, fields: &Fields, layout: Option<Layout>) -> Option<Padding> {
    let Some(v) = fields.get("padding") else {
        return Some(Padding::Limited);
    };
    let w = c.expect_word(v, "padding", &["limited", "unlimited"])?;
    if w != "unlimited" {
        return Some(Padding::Limited);
    }
    if layout.is_some_and(|l| l != Layout::Padded) {
        c.error(w.span(), "`padding: unlimited` needs `layout: padded`: only padded forms read zero groups");
        return None;
    }
    Some(Padding::Unlimited)
}

/// What padding without a limit does not go with, each reported at the
/// `padding` word.
pub(super) fn check_unlimited(c: &mut Checker, fields: &Fields, model: &Model) {
    let Some(at) = fields.get("padding").filter(|_| model.pads_without_limit()).map(|v| v.span()) else {
        return;
    };
    if model.forms.last().is_none_or(|f| f.repeat.is_none()) {
        c.error(at, "`padding: unlimited` needs a last form with a repeated unit (`*`): its copies are the padding");
    }
    if model.extended().is_some() {
        c.error(
            at,
            "`padding: unlimited` pads with zero groups; under `sign: extend` a negative value's padding repeats \
             ones, so it pads up to the longest form only",
        );
    }
    // (Digit units never repeat, so a codec of them has failed above.)
    let refusals = [
        (!model.forbid.is_empty(), "`forbid`: rules across values need sequences of bounded length"),
        (model.longest, "`overlap: longest`: the look-ahead must be bounded"),
    ];
    for (given, why) in refusals {
        if given {
            c.error(at, format!("`padding: unlimited` does not go with {why}"));
        }
    }
}
