// Most significant group first, an i32's fifth group carries bits 28-34: the
// bits past 31 would have to repeat the sign, but they come first, in a unit
// every length reads alike. Least significant first (SLEB128's order) works.
placemat_macros::codec! {
    pub Wide {
        name: "wide",
        value: i32,
        sign: extend,
        range: -0x80000000 ..= 0x7FFFFFFF,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
