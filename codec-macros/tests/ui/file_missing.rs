// A description file that does not exist: the error names the path as written.
placemat_macros::codec!(file = "descriptions/missing.placemat");

fn main() {}
