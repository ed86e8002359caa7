// A form of digit units spells as many payloads as the product of its radices:
// `[00-0F] [00-0F]` holds 256 values, not 0x101.
placemat_macros::codec! {
    pub Digits {
        name: "digits",
        value: u32,
        range: 0 ..= 0x100,
        layout: explicit,
        forms: { 0 ..= 0x100 => "[00-0F] [00-0F]" },
    }
}

fn main() {}
