//! Where the time of one report goes, step by step, for a file:
//! `cargo run --release -p pte-report --example timing -- FILE.pte`
//! (docs/report.md, "Speed").

#![allow(missing_docs, clippy::unwrap_used)]
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let b = std::fs::read(&path).unwrap();
    let t = Instant::now();
    let pte = pte_file::PteFile::from_bytes(&b).unwrap();
    println!("decode {:?}", t.elapsed());
    let t = Instant::now();
    let gs: Vec<_> = pte.program.plans().iter().map(pte_report::graph::of_plan).collect();
    println!("graphs {:?} ({} nodes)", t.elapsed(), gs.iter().map(|g| g.nodes.len()).sum::<usize>());
    let t = Instant::now();
    for g in &gs {
        let l = pte_report::layout::layout(g);
        let _ = pte_report::layout::svg(g, &l);
    }
    println!("layout {:?}", t.elapsed());
    let t = Instant::now();
    let _ = pte::verify(&b, &[]);
    println!("verify {:?}", t.elapsed());
    let t = Instant::now();
    let m = pte_analysis::memory::MemoryPlan::from_bytes(&b, &Default::default()).unwrap();
    println!("memory {:?}", t.elapsed());
    let t = Instant::now();
    for mm in &m.methods {
        for a in &mm.arenas {
            let _ = pte_report::memory_picture::svg(mm, a);
        }
    }
    println!("memory svg {:?}", t.elapsed());
    let t = Instant::now();
    let r = pte_analysis::size::pte_size_report(&b).unwrap();
    println!("size {:?}", t.elapsed());
    let t = Instant::now();
    let _ = pte_report::treemap::svg(&r, "x", "");
    println!("treemap {:?}", t.elapsed());
    let t = Instant::now();
    let _ = pte.tensors().unwrap();
    println!("tensors {:?}", t.elapsed());
    let t = Instant::now();
    let p = pte_report::report(&[pte_report::Source { name: "x", bytes: &b }], &[]);
    println!("whole {:?} {} bytes", t.elapsed(), p.html.len());
}
