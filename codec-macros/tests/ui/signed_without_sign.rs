// A signed value type says values may be negative; `sign` says how the forms
// spell them, and there is no default.
placemat_macros::codec! {
    pub Signed {
        name: "signed",
        value: i64,
        range: -64 ..= 63,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
