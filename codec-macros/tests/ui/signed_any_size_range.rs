// A signed codec of any size holds every integer: its range is `..`.
placemat_macros::codec! {
    pub AnyZigzag {
        name: "any-zigzag",
        value: unbounded,
        sign: zigzag,
        range: -5 ..= 5,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
