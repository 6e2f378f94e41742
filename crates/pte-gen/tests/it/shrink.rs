//! The shrinker: structural reduction of generated and corpus files under
//! in-process predicates, determinism, budgets, and files our reader refuses.

use std::time::Duration;

use pte_gen::shrink::{shrink, shrink_with_progress, Options, Stop};
use pte_gen::{judge, FileKind};

fn corpus(rel: &str) -> Vec<u8> {
    std::fs::read(pte_testkit::corpus_dir().join(rel)).unwrap()
}

fn operators(b: &[u8]) -> Vec<String> {
    let Ok(pte) = pte_file::PteFile::from_bytes(b) else { return vec![] };
    pte.program
        .execution_plan
        .iter()
        .flatten()
        .flat_map(|p| p.operators.iter().flatten())
        .filter_map(|o| o.name.clone())
        .collect()
}

/// A generated program with operators: the first seed that has some.
fn generated_with_operator() -> (Vec<u8>, String) {
    for seed in 1..200 {
        let b = pte_gen::generate(seed).unwrap().to_bytes().unwrap();
        if let Some(op) = operators(&b).into_iter().find(|o| !o.is_empty())
            && b.len() > 2000
        {
            return (b, op);
        }
    }
    panic!("no generated program with an operator");
}

#[test]
fn a_generated_program_shrinks_to_its_operator_and_the_same_bytes_twice() {
    let (input, op) = generated_with_operator();
    let keeps = |b: &[u8]| operators(b).iter().any(|o| o == &op);
    let a = shrink(&input, &Options::default(), keeps).unwrap();
    assert!(keeps(&a.bytes));
    assert_eq!(a.stopped, None);
    // a program with one operator name left is tens of bytes, not thousands
    assert!(a.bytes.len() * 10 < input.len(), "{} of {} bytes", a.bytes.len(), input.len());
    let b = shrink(&input, &Options::default(), keeps).unwrap();
    assert_eq!(a, b);
}

#[test]
fn a_program_breaking_a_rule_keeps_breaking_it() {
    let class = pte_gen::find("pte.input-index").unwrap();
    let input = class.apply(&corpus("linear/model.pte")).unwrap();
    let breaks = |b: &[u8]| class.expect.is_met(&judge(FileKind::Pte, b));
    assert!(breaks(&input));
    let out = shrink(&input, &Options::default(), breaks).unwrap();
    assert!(breaks(&out.bytes));
    assert!(pte_file::PteFile::from_bytes(&out.bytes).is_ok(), "the result still reads");
    assert!(out.bytes.len() * 4 < input.len(), "{} of {} bytes", out.bytes.len(), input.len());
}

#[test]
fn budgets_stop_the_search_with_the_best_so_far() {
    let (input, op) = generated_with_operator();
    let keeps = |b: &[u8]| operators(b).iter().any(|o| o == &op);
    let o = Options { max_runs: Some(25), ..Default::default() };
    let mut seen = 0u64;
    let out = shrink_with_progress(&input, &o, keeps, |p| seen = p.runs).unwrap();
    assert_eq!(out.runs, 25);
    assert_eq!(seen, 25);
    assert_eq!(out.stopped, Some(Stop::Runs));
    assert!(keeps(&out.bytes) && out.bytes.len() <= input.len());
    let o = Options { time: Some(Duration::ZERO), ..Default::default() };
    let out = shrink(&input, &o, keeps).unwrap();
    assert_eq!((out.runs, out.stopped, out.bytes), (1, Some(Stop::Time), input));
}

#[test]
fn an_input_that_is_not_interesting_is_an_error() {
    assert!(shrink(b"abc", &Options::default(), |b| b.len() > 3).is_err());
}

#[test]
fn a_flatbuffer_our_reader_refuses_still_shrinks_by_its_offsets() {
    // the constant segment offset of the root table pushed past 2^32: cut
    // everything the walk can without losing that field's reach
    let input = std::fs::read(pte_testkit::regressions_dir().join("overflow/pte-exir-offset-past-u32.pte")).unwrap();
    let same = judge(FileKind::Pte, &input);
    assert!(same.error.is_some());
    let fails_alike = |b: &[u8]| judge(FileKind::Pte, b) == same;
    let a = shrink(&input, &Options::default(), fails_alike).unwrap();
    assert!(fails_alike(&a.bytes));
    assert!(a.bytes.len() * 2 < input.len(), "{} of {} bytes", a.bytes.len(), input.len());
    assert_eq!(a, shrink(&input, &Options::default(), fails_alike).unwrap());
}

#[test]
fn structure_beats_byte_deletion_in_the_same_runs() {
    let (input, op) = generated_with_operator();
    let keeps = |b: &[u8]| operators(b).iter().any(|o| o == &op);
    let s = shrink(&input, &Options::default(), keeps).unwrap();
    let o = Options { max_runs: Some(s.runs), bytes_only: true, ..Default::default() };
    let b = shrink(&input, &o, keeps).unwrap();
    assert!(s.bytes.len() < b.bytes.len(), "structure {} bytes, bytes only {}", s.bytes.len(), b.bytes.len());
}

#[test]
fn a_bundle_a_package_and_a_ptd_shrink_too() {
    let bundle = corpus("bundled/model.bpte");
    let reads = |b: &[u8]| pte::read_strictly(FileKind::Bpte, b).is_ok();
    let out = shrink(&bundle, &Options::default(), reads).unwrap();
    assert!(reads(&out.bytes) && out.bytes.len() < bundle.len() / 2, "{} of {}", out.bytes.len(), bundle.len());

    let package = corpus("decoder_samples/model.ptn");
    let reads = |b: &[u8]| pte_ptn::PtnFile::from_bytes(b).is_ok();
    let out = shrink(&package, &Options { max_runs: Some(600), ..Default::default() }, reads).unwrap();
    eprintln!("package: {} of {} bytes in {} runs", out.bytes.len(), package.len(), out.runs);
    assert!(reads(&out.bytes) && out.bytes.len() < package.len() / 4, "{} of {}", out.bytes.len(), package.len());
}

#[test]
fn a_ptd_drops_entries() {
    let ptd = corpus("external/_default_external_constant.ptd");
    let reads = |b: &[u8]| pte_file::ptd::PtdFile::from_bytes(b).is_ok();
    let out = shrink(&ptd, &Options::default(), reads).unwrap();
    assert!(reads(&out.bytes) && out.bytes.len() < ptd.len() / 2, "{} of {}", out.bytes.len(), ptd.len());
}

/// What the stock runtime reads on its way to the null read in
/// `BackendDelegate::Init` (docs/fuzzing.md): the identifier, a constant
/// segment with one offset, a plan with a name, values, inputs, outputs and
/// planned sizes, and an `XnnpackBackend` delegate without its data.
fn reaches_the_delegate_crash(b: &[u8]) -> bool {
    let Ok(pte) = pte_file::PteFile::from_bytes(b) else { return false };
    let p = &pte.program;
    let one_offset = p.constant_segment.as_ref().and_then(|c| c.offsets.as_ref()).is_some_and(|o| o.len() == 1);
    let Some(plan) = p.execution_plan.as_ref().and_then(|v| v.first()) else { return false };
    let fields = plan.name.is_some()
        && plan.values.is_some()
        && plan.inputs.is_some()
        && plan.outputs.is_some()
        && plan.non_const_buffer_sizes.as_ref().is_some_and(|s| !s.is_empty());
    let delegate = plan.delegates.as_ref().and_then(|d| d.first()).is_some_and(|d| {
        d.id.as_deref() == Some("XnnpackBackend") && (d.processed.is_none() || p.backend_delegate_data.is_none())
    });
    b.get(4..8) == Some(b"ET12") && one_offset && fields && delegate
}

#[test]
fn the_delegate_crash_shrinks_past_the_writers_layout() {
    let input = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/regressions/out-of-bounds/pte-delegate-inline-table-absent.pte"
    ))
    .unwrap();
    assert!(reaches_the_delegate_crash(&input));
    let a = shrink(&input, &Options::default(), reaches_the_delegate_crash).unwrap();
    assert!(reaches_the_delegate_crash(&a.bytes));
    // our writer's layout of those fields, zeroed and cut, stopped at 177
    // bytes; shared words, vtables and cuts inside tables go further
    eprintln!("delegate crash: {} bytes in {} runs", a.bytes.len(), a.runs);
    assert!(a.bytes.len() <= 140, "{} bytes", a.bytes.len());
    assert_eq!(a, shrink(&input, &Options::default(), reaches_the_delegate_crash).unwrap());
}
