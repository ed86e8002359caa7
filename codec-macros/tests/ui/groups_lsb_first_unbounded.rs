// Least-significant-first groups need a bounded value type: a value of any size
// would have its most significant bits arrive last, past any integer.
placemat_macros::codec! {
    pub Uleb {
        name: "uleb",
        value: unbounded,
        range: 0 ..,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
