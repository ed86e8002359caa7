// Padding without a limit repeats the last form's repeated unit, and does not
// go with what needs sequences of bounded length: each is reported at once.
placemat_macros::codec! {
    pub Busy {
        name: "busy",
        value: u32,
        range: 0 ..= 0x3FFF,
        layout: padded,
        padding: unlimited,
        forbid: [0 ..= 1 then 0 ..= 1],
        overlap: longest,
        forms: { "0xxxxxxx", "1xxxxxxx 0xxxxxxx" },
    }
}

fn main() {}
