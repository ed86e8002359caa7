// `layout: shortest` derives bias 0 for every form; a bias cannot be given.
placemat_macros::codec! {
    pub Biased {
        name: "biased",
        value: u32,
        range: 0 ..= 0x7FF,
        forms: {
            0x00 ..= 0x7F             => "0xxxxxxx",
            0x80 ..= 0x7FF bias 0x80  => "110xxxxx 10xxxxxx",
        },
    }
}

fn main() {}
