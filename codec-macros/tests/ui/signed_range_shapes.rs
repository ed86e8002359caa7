// ZigZag's raw values are one run from 0 only for -N ..= N and -(N + 1) ..= N;
// here -3 ..= 10 would leave the odd raw values past 5 unused.
placemat_macros::codec! {
    pub Zig {
        name: "zig",
        value: i32,
        sign: zigzag,
        range: -3 ..= 10,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
