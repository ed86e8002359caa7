// With `layout: padded` a form holds every value its payload spells, from the
// smallest value of the codec: a written range must say so.
placemat_macros::codec! {
    pub Padded {
        name: "padded",
        value: u32,
        range: 0 ..= 0x3FFF,
        layout: padded,
        forms: {
            0 ..= 0x3F => "00xxxxxx",
            0x40 ..= 0x3FFF => "01xxxxxx xxxxxxxx",
        },
    }
}

fn main() {}
