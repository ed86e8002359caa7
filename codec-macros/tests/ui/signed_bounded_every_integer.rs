// An i64 codec's values are bounded: `..` (every integer) needs `value: unbounded`.
placemat_macros::codec! {
    pub Bounded {
        name: "bounded",
        value: i64,
        sign: zigzag,
        range: ..,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
