// HPACK's 5-bit prefix unrolled under `layout: biased`: the first form holds
// 0..=31, so it reads `1F` as payload 31, while the second reads `1F` as fixed
// bits. The message names both ranges; `layout: explicit` with `0 ..= 30` for
// the first form separates them.
placemat_macros::codec! {
    pub Unrolled {
        name: "unrolled",
        value: u64,
        range: 0 ..= 0x409E,
        layout: biased,
        groups: lsb_first,
        forms: {
            "000xxxxx",
            "00011111 0xxxxxxx",
            "00011111 1xxxxxxx 0xxxxxxx",
        },
    }
}

fn main() {}
