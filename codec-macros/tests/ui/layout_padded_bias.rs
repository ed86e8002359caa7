// `layout: padded` derives every form's values (bias 0): a bias is refused.
placemat_macros::codec! {
    pub Padded {
        name: "padded",
        value: u32,
        range: 0 ..= 0x3FFF,
        layout: padded,
        forms: {
            0 ..= 0x3F => "00xxxxxx",
            0 ..= 0x3FFF bias 0x40 => "01xxxxxx xxxxxxxx",
        },
    }
}

fn main() {}
