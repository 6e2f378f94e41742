//! Writes a loadable program with one large float constant (for the
//! performance comparison in docs/performance.md):
//! `cargo run --release -p pte-file --example make_big -- OUT.pte MIB`

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use pte_file::WriteOptions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).expect("usage: make_big OUT.pte MIB");
    let mib: usize = args.get(2).map_or(256, |s| s.parse().unwrap());
    let opts = WriteOptions::default();
    let parts = pte_file::test_programs::one_big_constant(mib << 20);
    let n = parts.build(&opts).unwrap().save(out, &opts).unwrap();
    println!("wrote {out}: {n} bytes");
}
