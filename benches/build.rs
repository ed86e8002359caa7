//! Compiles Bjoern Hoehrmann's DFA decoder (`csrc/hoehrmann.c`, written for placemat
//! from the published algorithm) with the platform's C compiler at `-O3`.

fn main() {
    println!("cargo:rerun-if-changed=csrc/hoehrmann.c");
    cc::Build::new().file("csrc/hoehrmann.c").opt_level(3).warnings(true).compile("placemat_hoehrmann");
}
