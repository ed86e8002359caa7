// An explicit form's range written backwards is reported once, at the range; the
// form is then left out of later checks (found by the `description` fuzz target,
// where it used to reach the model without a range and panic).
placemat_macros::codec! {
    pub EmptyForm {
        name: "empty-form",
        value: u32,
        range: 0 ..= 0xFF,
        layout: explicit,
        forms: {
            0x00 ..= 0x7F => "0xxxxxxx",
            0x80 ..= 0x0000_0000 => "10xxxxxx 10xxxxxx",
        },
    }
}

fn main() {}
