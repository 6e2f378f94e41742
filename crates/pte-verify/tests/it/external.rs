//! externalize / internalize: weights move to a `.ptd` and back without loss.

use pte_file::external::{externalize, internalize};
use pte_file::ptd::PtdFile;
use pte_file::{PteFile, WriteOptions};
use pte_schema::{ExtraTensorInfo, KernelTypes};
use pte_verify::{verify_bytes, verify_link, verify_ptd_bytes};

fn corpus(p: &str) -> Vec<u8> {
    pte_testkit::corpus_bytes(p)
}

fn named_linear(bytes: &[u8]) -> PteFile<'_> {
    let mut pte = PteFile::from_bytes(bytes).unwrap();
    for plan in pte.program.execution_plan.iter_mut().flatten() {
        for v in plan.values.iter_mut().flatten() {
            if let Some(KernelTypes::Tensor(t)) = &mut v.val
                && t.data_buffer_idx > 0
                && t.allocation_info.is_none()
            {
                t.extra_tensor_info = Some(ExtraTensorInfo {
                    fully_qualified_name: Some(format!("w{}", t.data_buffer_idx)),
                    ..Default::default()
                });
            }
        }
    }
    pte
}

#[test]
fn named_constants_move_out_and_back() {
    let bytes = corpus("linear/model.pte");
    let pte = named_linear(&bytes);
    let ex = externalize(&pte, |_| true, &Default::default(), &Default::default()).unwrap();
    assert_eq!(ex.moved_tensors, vec!["w1", "w2"]);
    assert!(ex.unnamed.is_empty());
    // the program keeps only the placeholder's worth of constant bytes
    assert!(ex.program.constants().unwrap().iter().all(|c| c.bytes.is_empty()));
    let prog = ex.program.to_bytes(&WriteOptions::default()).unwrap();
    let data = ex.data.to_bytes(&Default::default()).unwrap();
    assert!(verify_bytes(&prog, &Default::default()).is_ok());
    assert!(verify_ptd_bytes(&data, &Default::default()).is_ok());
    let (p2, d2) = (PteFile::from_bytes(&prog).unwrap(), PtdFile::from_bytes(&data).unwrap());
    assert!(verify_link(&p2.program, &[("d", &d2)]).is_ok());
    let back = internalize(&p2, &[&d2], &Default::default()).unwrap();
    assert_eq!(back, pte);
}

#[test]
fn key_pattern_selects_and_unnamed_are_reported() {
    let bytes = corpus("linear/model.pte");
    let pte = named_linear(&bytes);
    let ex = externalize(&pte, |k| k == "w2", &Default::default(), &Default::default()).unwrap();
    assert_eq!(ex.moved_tensors, vec!["w2"]);
    assert_eq!(ex.program.constants().unwrap()[1].bytes.len(), 48);
    let plain = PteFile::from_bytes(&bytes).unwrap();
    let ex = externalize(&plain, |_| true, &Default::default(), &Default::default()).unwrap();
    assert!(ex.moved_tensors.is_empty());
    assert_eq!(ex.unnamed.len(), 2);
    assert_eq!(ex.program, plain);
}

#[test]
fn exporter_external_program_internalizes_and_externalizes_again() {
    let pte_bytes = corpus("external/model.pte");
    let ptd_bytes = corpus("external/_default_external_constant.ptd");
    let pte = PteFile::from_bytes(&pte_bytes).unwrap();
    let ptd = PtdFile::from_bytes(&ptd_bytes).unwrap();
    let inside = internalize(&pte, &[&ptd], &Default::default()).unwrap();
    let out = inside.to_bytes(&WriteOptions::default()).unwrap();
    assert!(verify_bytes(&out, &Default::default()).is_ok());
    let ex = externalize(&inside, |_| true, &Default::default(), &Default::default()).unwrap();
    assert_eq!(ex.moved_tensors.len(), 4);
    for k in ptd.keys() {
        assert_eq!(ex.data.get(k).unwrap(), ptd.get(k).unwrap(), "{k}");
    }
    assert!(verify_link(&ex.program.program, &[("d", &ex.data)]).is_ok());
}

#[test]
fn corpus_linear_and_xnnpack_round_trip_through_externalize() {
    for case in ["linear/model.pte", "xnnpack_mlp/model.pte"] {
        let bytes = corpus(case);
        let pte = PteFile::from_bytes(&bytes).unwrap();
        let ex = externalize(&pte, |_| true, &Default::default(), &Default::default()).unwrap();
        let prog = ex.program.to_bytes(&WriteOptions::default()).unwrap();
        let data = ex.data.to_bytes(&Default::default()).unwrap();
        let (p2, d2) = (PteFile::from_bytes(&prog).unwrap(), PtdFile::from_bytes(&data).unwrap());
        assert!(verify_link(&p2.program, &[("d", &d2)]).is_ok(), "{case}");
        let back = internalize(&p2, &[&d2], &Default::default()).unwrap();
        assert_eq!(back, pte, "{case}");
    }
}
