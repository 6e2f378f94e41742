//! `cargo bench -p pte-file`: read, verify, rewrite and build `.pte` files of
//! several shapes, timing each operation (median of runs) and counting peak
//! heap with a counting global allocator. Results go in docs/performance.md.
//!
//! `PTE_BENCH_SIZES` (MiB, comma-separated; default `16,256,1024`) picks the
//! constant sizes of the segment-heavy program; `PTE_BENCH_RUNS` the repeats.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use std::borrow::Cow;
use std::path::Path;
use std::time::{Duration, Instant};

use peak_alloc::PeakAlloc;
use pte_file::test_programs::{float_tensor as tensor, one_operator_plan as plan, program_heavy};
use pte_file::{MappedFile, NamedEntry, PteFile, PteParts, WriteOptions};
use pte_schema::*;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// One big constant of `mib` MiB.
fn segment_heavy(mib: usize) -> PteParts<'static> {
    let floats = (mib << 20) / 4;
    PteParts {
        program: Program {
            execution_plan: Some(vec![plan(vec![tensor(1, vec![floats as i32])], 1)]),
            ..Default::default()
        },
        constants: vec![Cow::Owned(vec![]), Cow::Owned(vec![7u8; mib << 20])],
        ..Default::default()
    }
}

/// 5,000 named blobs of 4 KiB (delegate weights), half of them shared by two keys.
fn named_heavy() -> PteParts<'static> {
    let blobs = 5_000usize;
    let named_blobs = (0..blobs).map(|i| Cow::Owned(vec![(i % 253) as u8; 4096])).collect();
    let named = (0..blobs + blobs / 2)
        .map(|i| NamedEntry { key: format!("weight.{i:06}"), blob: i % blobs, alignment: 16 })
        .collect();
    PteParts {
        program: Program { execution_plan: Some(vec![plan(vec![tensor(0, vec![1])], 1)]), ..Default::default() },
        named,
        named_blobs,
        ..Default::default()
    }
}

struct Measure {
    median: Duration,
    peak_heap: usize,
}

fn measure(runs: usize, mut f: impl FnMut()) -> Measure {
    let mut times = vec![];
    let mut peak = 0;
    for _ in 0..runs {
        let base = ALLOC.current_usage();
        ALLOC.reset_peak_usage();
        let t = Instant::now();
        f();
        times.push(t.elapsed());
        peak = peak.max(ALLOC.peak_usage().saturating_sub(base));
    }
    times.sort();
    Measure { median: times[times.len() / 2], peak_heap: peak }
}

fn row(case: &str, op: &str, m: &Measure, bytes: u64) {
    let mib = bytes as f64 / (1 << 20) as f64;
    println!(
        "| {case} | {op} | {:.3} ms | {:.0} MiB/s | {:.2} MiB |",
        m.median.as_secs_f64() * 1e3,
        mib / m.median.as_secs_f64().max(1e-9),
        m.peak_heap as f64 / (1 << 20) as f64
    );
}

fn bench_case(dir: &Path, case: &str, parts: PteParts<'static>, runs: usize) {
    let opts = WriteOptions::default();
    let src = dir.join(format!("{case}.pte"));
    let m = measure(runs, || {
        parts.build(&opts).unwrap().save(&src, &opts).unwrap();
    });
    drop(parts);
    let size = std::fs::metadata(&src).unwrap().len();
    row(case, "build + write from owned parts", &m, size);
    let (header, fb_len) = {
        let bytes = std::fs::read(&src).unwrap();
        let h = pte_segments::ExtendedHeader::parse(&bytes).unwrap();
        (h, h.map_or(bytes.len() as u64, |h| h.program_size))
    };
    let _ = header;
    println!("| {case} | (file: {size} bytes, program flatbuffer {fb_len} bytes) | | | |");
    let m = measure(runs, || {
        let map = MappedFile::open(&src).unwrap();
        let pte = PteFile::from_bytes(map.bytes()).unwrap();
        let report = pte_verify::verify_program(&pte.program, map.bytes());
        assert!(report.is_ok(), "{:?}", report.violations.first());
    });
    row(case, "open + parse + full verify (mmap)", &m, size);
    let dst = dir.join(format!("{case}.out.pte"));
    let m = measure(runs, || {
        let map = MappedFile::open(&src).unwrap();
        let pte = PteFile::from_bytes(map.bytes()).unwrap();
        pte.save(&dst, &opts).unwrap();
    });
    row(case, "rewrite to a new file (mmap in, streamed, atomic out)", &m, size);
    let m = measure(runs, || {
        let map = MappedFile::open(&src).unwrap();
        let pte = PteFile::from_map(&map).unwrap();
        pte.save(&dst, &opts).unwrap();
    });
    row(case, "rewrite to a new file (kernel copy of segments, atomic out)", &m, size);
    let m = measure(runs, || {
        std::fs::copy(&src, &dst).unwrap();
    });
    row(case, "std::fs::copy of the same file (cp)", &m, size);
    std::fs::remove_file(&src).ok();
    std::fs::remove_file(&dst).ok();
}

/// `.ptd` with 2,000 tensors of 64 KiB (125 MiB): build + write, read + verify, rewrite.
fn bench_ptd(dir: &Path, runs: usize) {
    use pte_file::ptd::{PtdEntry, PtdFile, PtdParts, PtdWriteOptions};
    use pte_schema::ptd::TensorLayout;
    let case = "ptd 2,000 tensors x 64 KiB";
    let n = 2_000usize;
    let parts = PtdParts {
        entries: (0..n)
            .map(|i| PtdEntry {
                key: format!("layers.{i}.weight"),
                blob: i,
                layout: Some(TensorLayout {
                    scalar_type: ScalarType::FLOAT,
                    sizes: Some(vec![128, 128]),
                    dim_order: Some(vec![0, 1]),
                }),
                alignment: 1,
            })
            .collect(),
        blobs: (0..n).map(|i| Cow::Owned(vec![(i % 251) as u8; 65_536])).collect(),
    };
    let opts = PtdWriteOptions::default();
    let src = dir.join("bench.ptd");
    let m = measure(runs, || {
        parts.build(&opts).unwrap().save(&src, &opts).unwrap();
    });
    drop(parts);
    let size = std::fs::metadata(&src).unwrap().len();
    row(case, "build + write from owned parts", &m, size);
    let m = measure(runs, || {
        let map = MappedFile::open(&src).unwrap();
        let ptd = PtdFile::from_bytes(map.bytes()).unwrap();
        assert!(pte_verify::verify_ptd_bytes(map.bytes(), &Default::default()).is_ok());
        assert_eq!(ptd.keys().len(), n);
    });
    row(case, "open + parse + full verify (mmap)", &m, size);
    let dst = dir.join("bench.out.ptd");
    let m = measure(runs, || {
        let map = MappedFile::open(&src).unwrap();
        PtdFile::from_bytes(map.bytes()).unwrap().save(&dst, &opts).unwrap();
    });
    row(case, "rewrite to a new file (mmap in, atomic out)", &m, size);
    let m = measure(runs, || {
        std::fs::copy(&src, &dst).unwrap();
    });
    row(case, "std::fs::copy of the same file (cp)", &m, size);
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let sizes: Vec<usize> = std::env::var("PTE_BENCH_SIZES")
        .unwrap_or_else(|_| "16,256,1024".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let runs: usize = std::env::var("PTE_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let dir = tempfile::tempdir_in(std::env::var("PTE_BENCH_DIR").unwrap_or_else(|_| ".".into())).unwrap();
    println!("| case | operation | median | throughput | peak heap |");
    println!("| --- | --- | --- | --- | --- |");
    for mib in sizes {
        bench_case(dir.path(), &format!("segment-heavy {mib} MiB"), segment_heavy(mib), runs);
    }
    bench_case(dir.path(), "program-heavy 100k values", program_heavy(100_000), runs);
    bench_program_heavy_reads(dir.path(), runs);
    bench_case(dir.path(), "named-data-heavy 7.5k keys", named_heavy(), runs);
    bench_ptd(dir.path(), runs);
    bench_adversarial(runs);
}

/// Read + verify (`verify_bytes`, which decodes the whole program) of hostile
/// inputs up to 16 MiB; the target is at most 50 ms per MiB.
fn bench_adversarial(runs: usize) {
    println!();
    println!("| adversarial input | size | read + verify (median) | per MiB | peak heap |");
    println!("| --- | --- | --- | --- | --- |");
    let report = |case: &str, b: &[u8]| {
        let m = measure(runs, || {
            std::hint::black_box(pte_verify::verify_bytes(b, &Default::default()));
        });
        let mib = b.len() as f64 / (1 << 20) as f64;
        println!(
            "| {case} | {:.2} MiB | {:.3} ms | {:.2} ms/MiB | {:.2} MiB |",
            mib,
            m.median.as_secs_f64() * 1e3,
            m.median.as_secs_f64() * 1e3 / mib,
            m.peak_heap as f64 / (1 << 20) as f64
        );
        m.median.as_secs_f64() * 1e3 / mib
    };
    let mut worst = 0f64;
    // about 16 MiB of minimal tables
    let tiny = Program {
        execution_plan: Some(vec![ExecutionPlan {
            values: Some((0..1_400_000).map(|_| EValue { val: Some(KernelTypes::Null) }).collect()),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let tiny = encode_program(&tiny, &EncodeOptions::default()).unwrap();
    worst = worst.max(report("1.4 million tiny tables", &tiny));
    // the 100k-value program with the offsets of its values vector shared:
    // every entry points at the first value (a DAG the limits refuse)
    let heavy =
        program_heavy(100_000).build(&WriteOptions::default()).unwrap().to_bytes(&WriteOptions::default()).unwrap();
    let mut next = pte_testkit::xorshift(0x2545_F491_4F6C_DD1D);
    let mut worst_len = 0f64;
    let mut worst_flip = 0f64;
    for _ in 0..32 {
        let mut b = heavy.clone();
        let at = (next() as usize % (b.len() / 4)) * 4;
        let v = [0xFFFF_FFFFu32, 0x7FFF_FFFF, 0x0100_0000][next() as usize % 3];
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let m = measure(1, || {
            std::hint::black_box(pte_verify::verify_bytes(&b, &Default::default()));
        });
        worst_len = worst_len.max(m.median.as_secs_f64() * 1e3 / (b.len() as f64 / (1 << 20) as f64));
        let mut b = heavy.clone();
        let bit = next() as usize % (b.len() * 8);
        b[bit / 8] ^= 1 << (bit % 8);
        let m = measure(1, || {
            std::hint::black_box(pte_verify::verify_bytes(&b, &Default::default()));
        });
        worst_flip = worst_flip.max(m.median.as_secs_f64() * 1e3 / (b.len() as f64 / (1 << 20) as f64));
    }
    println!("| 32 word edits (0xFFFFFFFF, 0x7FFFFFFF, 2^24) of the {:.1} MiB 100k-value program | worst | | {worst_len:.2} ms/MiB | |", heavy.len() as f64 / (1 << 20) as f64);
    println!("| 32 bit flips of the same program | worst | | {worst_flip:.2} ms/MiB | |");
    worst = worst.max(worst_len).max(worst_flip);
    // 16 MiB of noise behind a valid identifier and header
    let mut noise = vec![0u8; 16 << 20];
    for w in noise.chunks_mut(8) {
        w.copy_from_slice(&next().to_le_bytes());
    }
    noise[4..8].copy_from_slice(b"ET12");
    noise[0..4].copy_from_slice(&64u32.to_le_bytes());
    worst = worst.max(report("16 MiB of noise with an ET12 identifier", &noise));
    println!();
    println!("worst read + verify cost: {worst:.2} ms/MiB (target 50)");
}

/// Program-heavy reads on a real exporter file (the corpus `deep_program`,
/// 3,000 layers) and on the 100k-value program: verify (the quick pass and
/// the full pass), dump (streamed and the tree it replaced), rewrite (program
/// copied as stored, and re-encoded) beside `cp`.
fn bench_program_heavy_reads(dir: &Path, runs: usize) {
    let deep = pte_testkit::corpus("deep_program/model.pte");
    let heavy = dir.join("program-heavy.pte");
    let opts = WriteOptions::default();
    program_heavy(100_000).build(&opts).unwrap().save(&heavy, &opts).unwrap();
    for (case, src) in
        [("deep_program (exporter, 3,000 layers)", deep.as_path()), ("program-heavy 100k values", &heavy)]
    {
        let size = std::fs::metadata(src).unwrap().len();
        let program = {
            let b = std::fs::read(src).unwrap();
            pte_file::program_region(&b).unwrap().1.len()
        };
        println!("| {case} | (file: {size} bytes, program flatbuffer {program} bytes) | | | |");
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            assert!(pte_verify::verify_bytes(map.bytes(), &Default::default()).is_ok());
        });
        row(case, "open + full verify, quick pass (`pte verify`)", &m, size);
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            let r = pte_analysis::size::pte_size_report(map.bytes()).unwrap();
            assert_eq!(r.total(), size);
            serde_json::to_writer(std::io::BufWriter::new(std::io::sink()), &r).unwrap();
        });
        row(case, "open + size report as JSON (`pte size --json`)", &m, size);
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            assert!(pte_verify::verify_bytes_full(map.bytes(), &Default::default()).is_ok());
        });
        row(case, "open + full verify, decoded model (before)", &m, size);
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            let (_, region) = pte_file::program_region(map.bytes()).unwrap();
            assert!(pte_schema::ProgramView::new(region, &Default::default()).is_ok());
        });
        row(case, "open + structural verification (`ProgramView::new`)", &m, size);
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            let (_, region) = pte_file::program_region(map.bytes()).unwrap();
            assert!(pte_schema::verify_program_reference(region, &Default::default()).is_ok());
        });
        row(case, "open + structural verification, flatbuffers verifier + offset walk (before)", &m, size);
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            let (_, region) = pte_file::program_region(map.bytes()).unwrap();
            let json = ProgramJson::new(region, &Default::default()).unwrap();
            json.write_pretty(std::io::BufWriter::new(std::io::sink())).unwrap();
        });
        row(case, "dump JSON, streamed (`pte dump`)", &m, size);
        let m = measure(runs.min(3), || {
            let map = MappedFile::open(src).unwrap();
            let (_, region) = pte_file::program_region(map.bytes()).unwrap();
            let p = decode_program(region, &Default::default()).unwrap();
            let v = program_to_json(&p, JsonBytes::Integers);
            std::hint::black_box(serde_json::to_string_pretty(&v).unwrap());
        });
        row(case, "dump JSON, model + tree (before)", &m, size);
        let dst = dir.join("program-heavy.out.pte");
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            let n = pte_file::write_atomically_file(&dst, |f| pte_file::rewrite(&map, f, &Default::default()));
            assert_eq!(n.unwrap(), size);
        });
        row(case, "rewrite, program copied while verified, plans undecoded (`pte rewrite`)", &m, size);
        let m = measure(runs, || {
            let map = MappedFile::open(src).unwrap();
            let pte = PteFile::from_map(&map).unwrap();
            let o = WriteOptions::matching(&pte, map.bytes());
            pte.save(&dst, &o).unwrap();
        });
        row(case, "rewrite, program re-encoded (before)", &m, size);
        let m = measure(runs, || {
            std::fs::copy(src, &dst).unwrap();
        });
        row(case, "std::fs::copy of the same file (cp)", &m, size);
    }
}
