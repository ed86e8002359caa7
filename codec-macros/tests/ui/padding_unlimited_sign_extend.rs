// A negative value's padding under `sign: extend` repeats ones, not zeros.
placemat_macros::codec! {
    pub Sleb {
        name: "sleb",
        value: i64,
        sign: extend,
        range: -0x8000000000000000 ..= 0x7FFFFFFFFFFFFFFF,
        layout: padded,
        padding: unlimited,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
