//! The `placemat` command-line tool; see `placemat_variants::cli`.

fn main() {
    placemat_variants::cli::main()
}
