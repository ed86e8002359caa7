// A signed codec derives its forms' values (`shortest` or `padded`), and the
// fields that name raw values or look ahead are not given: each is reported.
placemat_macros::codec! {
    pub Busy {
        name: "busy",
        value: i64,
        sign: extend,
        range: -64 ..= 63,
        exclude: [1 ..= 2],
        premap: [1, 0],
        forbid: [0 ..= 1 then 0 ..= 1],
        overlap: longest,
        layout: biased,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
