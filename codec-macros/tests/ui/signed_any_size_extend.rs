// Sign extension needs a width to extend from: signed values of any size take
// `zigzag` or `low_bit`.
placemat_macros::codec! {
    pub AnySleb {
        name: "any-sleb",
        value: unbounded,
        sign: extend,
        range: ..,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
