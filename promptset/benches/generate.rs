//! Generation benchmarks (filled in as the generator lands).

fn main() {}
