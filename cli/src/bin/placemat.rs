//! The `placemat` command-line tool; see `placemat_cli`.

/// Notes whether standard output is open before the Rust runtime replaces a
/// closed one by `/dev/null`, so that `placemat … >&-` fails instead of losing
/// its output (see `placemat_cli::output`).
#[cfg(all(unix, not(target_vendor = "apple")))]
#[used]
#[link_section = ".init_array"]
static NOTE_STDOUT: extern "C" fn() = placemat_cli::note_stdout;

/// The same for Mach-O.
#[cfg(target_vendor = "apple")]
#[used]
#[link_section = "__DATA,__mod_init_func"]
static NOTE_STDOUT: extern "C" fn() = placemat_cli::note_stdout;

fn main() {
    placemat_cli::main()
}
