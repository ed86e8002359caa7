// A 7-byte form carries 36 payload bits; `value: u32` holds 32.
placemat_macros::codec! {
    pub TooWide {
        name: "too-wide",
        value: u32,
        range: 0 ..= 0xFFFFFFFF,
        forms: {
            "0xxxxxxx",
            "110xxxxx 10xxxxxx",
            "1110xxxx 10xxxxxx 10xxxxxx",
            "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
            "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
            "11111110 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        },
    }
}

fn main() {}
