//! Length-prefixed descriptions beyond QUIC's, shared by the `suite` and
//! `simd` test binaries (each includes this file by `#[path]`).

/// Descriptions whose facts take the SIMD kernel's other paths: a
/// three-bit tag whose lengths keep their own ranges (`shortest`: values
/// below a length's least are errors) and whose other tags have no values,
/// and a four-bit tag with lengths that are not powers of two and a bias.
pub const RANGED: [&str; 2] = [
    r#"pub Three { name: "three", value: u32, range: 0 ..= 0x1FFFFF, layout: shortest, forms: {
        "000xxxxx", "001xxxxx xxxxxxxx", "010xxxxx xxxxxxxx xxxxxxxx",
    } }"#,
    r#"pub Four { name: "four", value: u64, range: 0 ..= 0xFFFFFFFFF, layout: shortest, forms: {
        "0000xxxx", "0001xxxx xxxxxxxx xxxxxxxx", "0010xxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx",
    } }"#,
];
