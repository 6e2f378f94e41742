//! Writes a program-heavy file shaped like the `program-heavy` benchmark case:
//! N values (tensors with a 16-byte constant each, alternating with ints) and
//! N kernel-call instructions, for the dump, info and rewrite measurements in
//! docs/performance.md:
//! `cargo run --release -p pte-file --example make_program_heavy -- OUT.pte N`

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use pte_file::WriteOptions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).expect("usage: make_program_heavy OUT.pte N");
    let n: usize = args.get(2).map_or(100_000, |s| s.parse().unwrap());
    let opts = WriteOptions::default();
    let parts = pte_file::test_programs::program_heavy(n);
    let n = parts.build(&opts).unwrap().save(out, &opts).unwrap();
    println!("wrote {out}: {n} bytes");
}
